// The page: a tab bar over the registered views (views/index.js), one shared
// form and results frame per view, and one solver worker for all of them.
//
// A view module exports
//   { id, title, paper: {id, cite}, intro?, fields, check?(values), toRequest(values),
//     render(response, ctx) }
// and draws its results into panels it asks `ctx` for (see makeContext).

import { Solver, SolverError } from './solver.js';
import { buildForm, el } from './form.js';
import { mountChart } from './charts.js';
import { fill, message, progress } from './ui.js';
import { views } from './views/index.js';

const solver = new Solver();
const t0 = performance.now();
let firstResultMs = null;

const tabsEl = document.getElementById('tabs');
const viewsEl = document.getElementById('views');
const bannerEl = document.getElementById('banner');
const mounted = new Map(); // id -> {section, compute}

function banner(kind, text) {
  if (!text) {
    bannerEl.hidden = true;
    bannerEl.textContent = '';
    return;
  }
  bannerEl.hidden = false;
  bannerEl.className = `banner ${kind}`;
  fill(bannerEl, el('span', { text }), el('button', { type: 'button', class: 'ghost small', text: 'Dismiss', onclick: () => banner() }));
}

solver.onCrash((e) => {
  banner('error', `The solver stopped (${e.message}). A fresh one has been started: press Compute to try again.`);
});

// ---- tabs -------------------------------------------------------------

for (const view of views) {
  const tab = el('button', {
    type: 'button', role: 'tab', id: `tab-${view.id}`, 'aria-controls': `view-${view.id}`,
    'aria-selected': 'false', 'data-view': view.id, 'data-testid': `tab-${view.id}`, tabindex: '-1',
  }, el('span', { class: 'tab-title', text: view.title }), el('span', { class: 'tab-paper', text: `[${view.paper.id}]` }));
  tab.addEventListener('click', () => { location.hash = view.id; });
  tab.addEventListener('keydown', (e) => {
    const i = views.indexOf(view);
    const next = e.key === 'ArrowRight' ? views[(i + 1) % views.length] : e.key === 'ArrowLeft' ? views[(i - 1 + views.length) % views.length] : null;
    if (next) {
      location.hash = next.id;
      document.getElementById(`tab-${next.id}`)?.focus();
    }
  });
  tabsEl.append(tab);
}

function currentViewId() {
  const id = decodeURIComponent(location.hash.replace(/^#\/?/, '').split(/[?&/]/)[0]);
  return views.some((v) => v.id === id) ? id : views[0].id;
}

function activate() {
  const id = currentViewId();
  for (const t of tabsEl.children) {
    const on = t.dataset.view === id;
    t.setAttribute('aria-selected', String(on));
    t.tabIndex = on ? 0 : -1;
  }
  if (!mounted.has(id)) mounted.set(id, mountView(views.find((v) => v.id === id)));
  for (const [vid, m] of mounted) m.section.hidden = vid !== id;
  document.title = `${views.find((v) => v.id === id).title} — the divisible-load calculator`;
}

window.addEventListener('hashchange', activate);

// ---- one view ---------------------------------------------------------

function mountView(view) {
  const formCard = el('aside', { class: 'card form-card' }, el('h3', { text: 'Parameters' }));
  const resultMsg = el('div', { class: 'result-msg', 'data-testid': 'result-msg' });
  const panelsEl = el('div', { class: 'panels' });
  const results = el('div', { class: 'results', 'data-state': 'idle', 'data-seq': '0', 'data-testid': 'results' }, resultMsg, panelsEl);
  const section = el('section', { class: 'view', id: `view-${view.id}`, role: 'tabpanel', 'aria-labelledby': `tab-${view.id}`, 'data-view': view.id },
    el('div', { class: 'view-head' },
      el('h2', { text: view.title }),
      el('p', { class: 'cite' }, `Paper [${view.paper.id}]: `, el('cite', { text: view.paper.cite })),
      view.intro ? el('p', { class: 'intro', text: view.intro }) : null),
    el('div', { class: 'view-body' }, formCard, results));
  viewsEl.append(section);

  let seq = 0;
  let controller = null;
  let debounce = 0;
  const ctx = makeContext(view, panelsEl);

  const form = buildForm(formCard, view.fields, { onSubmit: () => compute(), extraCheck: view.check });
  /** Lets a view's results change the form (e.g. "compute with D = D*") and recompute. */
  ctx.setValues = (obj) => {
    form.setValues(obj);
    compute();
  };
  form.onChange(() => {
    clearTimeout(debounce);
    debounce = setTimeout(() => { if (form.values().ok) compute(); }, 450);
  });

  async function compute() {
    clearTimeout(debounce);
    controller?.abort();
    controller = new AbortController();
    const { signal } = controller;
    form.clearErrors();
    const { ok, values } = form.values();
    if (!ok) {
      results.dataset.state = 'invalid';
      fill(resultMsg, message('warn', 'Some parameters are not valid: see the messages beside the fields.'));
      return;
    }
    let request;
    try {
      request = view.toRequest(values);
    } catch (e) {
      results.dataset.state = 'invalid';
      fill(resultMsg, message('warn', e.message));
      return;
    }
    results.dataset.state = 'pending';
    results.classList.add('stale');
    fill(resultMsg);
    let response;
    try {
      response = await solver.solve(request, { signal });
    } catch (e) {
      if (e instanceof SolverError && e.code === 'cancelled') return;
      const err = e instanceof SolverError ? e.error : { code: 'internal', field: '', message: String(e?.message ?? e) };
      const atField = form.showError(err);
      results.dataset.state = 'error';
      fill(resultMsg, message('error', atField
        ? `The calculator refused the parameters: ${err.message}`
        : err.code === 'internal' && /not yet/i.test(err.message)
          ? `This model is not available in this build of the core yet (${err.message}).`
          : `${err.message}`));
      return;
    }
    if (signal.aborted) return;
    results.classList.remove('stale');
    ctx.signal = signal;
    ctx.request = request;
    ctx.values = values;
    try {
      view.render(response, ctx);
    } catch (e) {
      console.warn(e);
      fill(resultMsg, message('error', `The results could not be drawn: ${e.message}`));
    }
    results.dataset.request = JSON.stringify(request);
    results.dataset.seq = String(++seq);
    results.dataset.state = 'done';
    if (firstResultMs === null) {
      firstResultMs = Math.round(performance.now() - t0);
      document.documentElement.dataset.firstResultMs = String(firstResultMs);
    }
  }

  queueMicrotask(compute);
  return { section, compute, form };
}

/**
 * What a view's render() gets: persistent panels and charts (created on
 * first use, in call order, reused by later renders), the solver for extra
 * requests (sweeps), and `signal`, aborted when the next computation starts.
 */
function makeContext(view, panelsEl) {
  const panels = new Map();
  const charts = new Map();
  const ctx = {
    solver,
    /** The view's own memory across renders (cache keys, sweep results). */
    state: {},
    signal: undefined,
    request: undefined,
    values: undefined,
    /** A titled card in the results column; returns its body element. */
    panel(key, { title, note, wide = false } = {}) {
      let p = panels.get(key);
      if (!p) {
        const body = el('div', { class: 'panel-body' });
        const noteEl = el('p', { class: 'panel-note' });
        const titleEl = el('h3', {});
        const card = el('section', { class: `card panel${wide ? ' wide' : ''}`, 'data-panel': key }, titleEl, noteEl, body);
        panelsEl.append(card);
        p = { card, body, noteEl, titleEl };
        panels.set(key, p);
      }
      p.titleEl.textContent = title ?? '';
      p.noteEl.textContent = note ?? '';
      p.noteEl.hidden = !note;
      return p.body;
    },
    /** Shows or hides a panel made earlier. */
    showPanel(key, shown) {
      const p = panels.get(key);
      if (p) p.card.hidden = !shown;
    },
    /**
     * An ECharts instance in its own box inside `parent`, kept across
     * renders; `height: null` leaves the box's height to the style sheet.
     */
    chart(key, parent, { height = 320, className = '', renderer, onResize } = {}) {
      let c = charts.get(key);
      if (!c || c.box.parentNode !== parent) {
        c?.chart.dispose();
        const box = el('div', { class: `chart ${className}`, 'data-chart': key });
        if (height) box.style.height = `${height}px`;
        parent.append(box);
        c = { box, chart: mountChart(box, { renderer, onResize }) };
        charts.set(key, c);
      } else if (height && c.box.style.height !== `${height}px`) {
        c.box.style.height = `${height}px`;
        c.chart.resize();
      }
      return c.chart;
    },
    /**
     * Runs `requests` as one worker batch with a progress indicator in
     * `parent`; resolves to the responses, or null if cancelled (the Cancel
     * button, `signal`) or superseded by a newer computation.
     */
    async batch(parent, label, requests, { pick, signal } = {}) {
      const own = new AbortController();
      const outer = ctx.signal;
      const stop = () => own.abort();
      outer?.addEventListener('abort', stop, { once: true });
      signal?.addEventListener('abort', stop, { once: true });
      if (signal?.aborted) stop();
      const bar = progress(label, stop);
      parent.querySelector(':scope > .progress')?.remove();
      parent.prepend(bar.el);
      const started = performance.now();
      try {
        const responses = await solver.batch(requests, { signal: own.signal, pick, onProgress: (d, t) => bar.update(d, t) });
        bar.finish(`${requests.length} points in ${Math.round(performance.now() - started)} ms`);
        return responses;
      } catch (e) {
        if (e instanceof SolverError && e.code === 'cancelled') {
          bar.finish(outer?.aborted || signal?.aborted ? '' : 'cancelled');
          return null;
        }
        bar.finish();
        parent.prepend(message('error', `The sweep failed: ${e.message}`));
        return null;
      } finally {
        outer?.removeEventListener('abort', stop);
        signal?.removeEventListener('abort', stop);
      }
    },
  };
  return ctx;
}

// ---- start --------------------------------------------------------------

activate();
solver.version().then(
  (v) => { document.getElementById('version').textContent = v; },
  () => { document.getElementById('version').textContent = '—'; },
);
