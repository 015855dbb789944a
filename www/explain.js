// Explain mode, one implementation for every view (mount.js makes it): a
// panel of the results whose Explain button asks the core, in the worker,
// for the steps that produce the answer of the request the view last solved
// (the core's `explain`: for an LP model, the paper's program solved again,
// a step per family of rows, then the optimum), and a stepper through them.
// The step shown is the view's link part `x.explain` (1-based; absent while
// closed), so a link opens the same step; a new result refreshes the steps.

import { el, fill, message, progress, table, PENDING_MS } from './ui.js';
import { fmt } from './format.js';
import { SolverError } from './pool.js';
import { PAPERS, citation, paperLink } from './gallery.js';

const KEY = 'explain';

/** The step a link asks for (0-based), or undefined: it comes from a URL, so only a whole number ≥ 1 counts. */
function linkedStep(text) {
  return /^[1-9]\d{0,5}$/.test(text ?? '') ? Number(text) - 1 : undefined;
}

/** Step `s`'s source, its paper's place (`[000] (3)`) as a link to the paper, and the paper cited as the gallery cites it. */
function sourceLine(s) {
  const id = s.paper;
  return el('p', { class: 'note explain-source', 'data-testid': 'explain-source' },
    'Source: ', el('b', { text: s.source || '—' }),
    PAPERS[id] ? [' — ', el('a', {
      href: paperLink(id), target: '_blank', rel: 'noopener', 'data-testid': 'explain-paper-link',
      title: `Find paper [${id}]; this step is its ${s.at}`, text: `[${id}] ${s.at}`,
    }), ' ', el('cite', { text: citation(id) })] : null);
}

function valuesTable(values) {
  return table([
    { key: 'name', label: 'quantity', numeric: false },
    { key: 'value', label: 'value', testid: (i) => `explain-value-${i}` },
  ], values, { caption: 'Numbers of this step', testid: 'explain-values' });
}

function rowsTable(rows) {
  return table([
    { key: 'name', label: 'row', numeric: false },
    { key: 'text', label: 'with the optimum’s values [in brackets]', numeric: false, cellClass: () => 'explain-expr' },
    { key: 'lhs', label: 'left side', format: (x) => fmt(x) },
    { key: 'sense', label: 'sense', title: 'the row’s relation: ≤, = or ≥', numeric: false },
    { key: 'rhs', label: 'right side', format: (x) => fmt(x) },
    {
      key: 'tight', label: 'tight?', numeric: false, testid: (i) => `explain-tight-${i}`,
      get: (r) => (r.tight ? 'tight' : 'slack'), cellClass: (r) => (r.tight ? 'explain-tight' : undefined),
    },
  ], rows, { caption: 'Rows of the program (a tight row holds with equality)', testid: 'explain-rows' });
}

/**
 * Makes the view's Explain panel (the first of its results, hidden until
 * the first result) and returns {update()}, which mount.js calls as each
 * new result arrives, after setting `ctx.request` and `ctx.signal`.
 */
export function explainPanel(ctx) {
  const body = ctx.panel(KEY, {
    title: 'Explain: how the answer comes about',
    note: 'The steps that produce this answer, with its numbers and the paper’s equation of each. Keys: ← → between steps, Home and End, while the stepper has the focus.',
    wide: true,
  });
  ctx.showPanel(KEY, false);
  const toggle = el('button', { type: 'button', class: 'ghost small', 'data-testid': 'explain-toggle', 'aria-expanded': 'false', onclick: () => (open ? close() : load(0)) }, 'Explain');
  const out = el('div', { class: 'explain', 'data-testid': 'explain', 'data-state': 'closed' });
  fill(body, el('div', { class: 'panel-actions' }, toggle), out);

  const prev = el('button', { type: 'button', class: 'ghost small', 'data-testid': 'explain-prev', onclick: () => show(k - 1) }, '← Previous');
  const next = el('button', { type: 'button', class: 'ghost small', 'data-testid': 'explain-next', onclick: () => show(k + 1) }, 'Next →');
  const count = el('span', { class: 'explain-count', 'data-testid': 'explain-count', role: 'status' });
  const stepBody = el('div', { class: 'explain-step' });
  const stepper = el('div', { class: 'explain-stepper', tabindex: '0', role: 'group', 'aria-roledescription': 'stepper', 'data-testid': 'explain-stepper' },
    el('div', { class: 'explain-nav' }, prev, count, next), stepBody);
  stepper.addEventListener('keydown', (e) => {
    // The tables scroll sideways with the arrows: keys there are theirs.
    if (e.target.closest('.table-wrap, .export-menu')) return;
    const to = { ArrowLeft: k - 1, ArrowRight: k + 1, Home: 0, End: steps.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });

  let open = false;
  let steps = [];
  let k = 0;
  let controller = null;

  function setState(state, ...children) {
    out.dataset.state = state;
    fill(out, ...children);
  }

  function setOpen(value) {
    open = value;
    toggle.setAttribute('aria-expanded', String(value));
    toggle.textContent = value ? 'Hide the steps' : 'Explain';
  }

  function close(note) {
    controller?.abort();
    setOpen(false);
    ctx.setLinkState(KEY, null);
    setState('closed', note);
  }

  /** Step `i` (clamped), its number kept in the link. */
  function show(i) {
    k = Math.max(0, Math.min(steps.length - 1, i));
    ctx.setLinkState(KEY, k + 1);
    const s = steps[k];
    count.textContent = `Step ${k + 1} of ${steps.length}`;
    stepper.dataset.step = String(k + 1);
    stepper.setAttribute('aria-label', `Explain, step ${k + 1} of ${steps.length}: ${s.title}`);
    // A button about to be disabled would drop the focus to the page.
    if ((k === 0 && document.activeElement === prev) || (k === steps.length - 1 && document.activeElement === next)) stepper.focus();
    prev.disabled = k === 0;
    next.disabled = k === steps.length - 1;
    fill(stepBody,
      el('h4', { class: 'explain-title', 'data-testid': 'explain-title', text: s.title }),
      sourceLine(s),
      s.text ? el('p', { class: 'explain-text', 'data-testid': 'explain-text', text: s.text }) : null,
      s.values?.length ? valuesTable(s.values) : null,
      s.rows?.length ? rowsTable(s.rows) : null);
  }

  /** Asks the core for the steps of the request last solved; shows step `at`. */
  async function load(at) {
    controller?.abort();
    controller = new AbortController();
    const own = controller;
    // A new computation of the view supersedes the steps of the old one, as it does its solve.
    const signal = AbortSignal.any([own.signal, ctx.signal].filter(Boolean));
    setOpen(true);
    ctx.setLinkState(KEY, at + 1);
    let bar = null;
    let cancelled = false;
    const showBar = setTimeout(() => {
      bar = progress('Waiting for the solver', () => { cancelled = true; own.abort(); });
      setState('loading', bar.el);
    }, PENDING_MS);
    setState('loading');
    try {
      const explanation = await ctx.solver.explain(ctx.request, { signal, onStart: () => bar?.setLabel('Solving the program again') });
      steps = Array.isArray(explanation?.steps) ? explanation.steps : [];
    } catch (e) {
      if (own !== controller) return; // a newer load took over
      if (e instanceof SolverError && e.code === 'cancelled') {
        // Else a new computation of the view stopped it: update() asks again with its result.
        if (cancelled) close(message('info', 'Cancelled: the solver was stopped. Press Explain to ask again.'));
        else setState('loading', message('info', 'The parameters changed: the steps follow the new result.'));
        return;
      }
      setState('error', message('error', `The steps could not be computed: ${e.message}`));
      return;
    } finally {
      clearTimeout(showBar);
      bar?.finish();
    }
    if (steps.length === 0) {
      setState('empty', message('info', `No steps for this model yet: the core does not explain how it computes a ${ctx.request.model} answer in this build.`));
      return;
    }
    setState('shown', stepper);
    show(at);
  }

  return {
    /** A new result: the panel shows; open (its link part says so), it explains the new request. */
    update() {
      ctx.showPanel(KEY, true);
      const at = linkedStep(ctx.linkState[KEY]);
      if (at === undefined) close();
      else load(at);
    },
  };
}
