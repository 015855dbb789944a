// One view on the page: its section (title, paper, share bar, form,
// results), and its computation: the form's request solved in the worker,
// superseding the one still running, with the elapsed time and a Cancel
// button when it takes long, the core's errors beside their field, and the
// view's render() into its panels.

import { SolverError } from './pool.js';
import { buildForm, el } from './form.js';
import { fill, message, progress, PENDING_MS } from './ui.js';
import { solver, shown, markFirstResult, core, embed } from './page.js';
import { scheduleHash, markEmbed } from './links.js';
import { makeContext } from './context.js';
import { shareBar } from './share.js';
import { explainPanel } from './explain.js';
import { pinControls, pinHook, pinShownResult, redrawPin } from './pin.js';

/** Mounts `view` in `viewsEl`: its section, form and results; returns its entry of `mounted`. */
export function mountView(view, viewsEl) {
  const formCard = el('aside', { class: 'card form-card' }, el('h3', { text: 'Parameters' }));
  const resultMsg = el('div', { class: 'result-msg', 'data-testid': 'result-msg' });
  const panelsEl = el('div', { class: 'panels' });
  const results = el('div', { class: 'results', 'data-state': 'idle', 'data-seq': '0', 'data-testid': 'results', 'aria-live': 'off' }, resultMsg, panelsEl);
  const share = shareBar(view);
  const section = el('section', { class: 'view', id: `view-${view.id}`, role: 'tabpanel', 'aria-labelledby': `tab-${view.id}`, 'data-view': view.id },
    el('div', { class: 'view-head' },
      el('h2', { text: view.title }),
      el('p', { class: 'cite' }, `Paper [${view.paper.id}]: `, el('cite', { text: view.paper.cite })),
      view.intro ? el('p', { class: 'intro', text: view.intro }) : null,
      share.el),
    el('div', { class: 'view-body' }, formCard, results));
  viewsEl.append(section);

  let seq = 0;
  let controller = null;
  let debounce = 0;
  const m = { view, section, form: null, ctx: null, last: undefined, request: undefined, linkState: {}, subforms: new Map(), pendingParts: new Map(), panel: undefined, started: false };
  // Charts drawn with the pinned result's (pin.js), if one is pinned; the
  // pin plots what the view's charts plot (its render reads the link state).
  const ctx = makeContext(view, panelsEl, m, { onOption: pinHook(m), onLinkState: () => redrawPin(m) });
  m.ctx = ctx;
  const pin = pinControls(m);
  share.add(...pin.buttons);
  resultMsg.after(pin.card);
  // The first panel of the results; embedded, the page shows a chart and its numbers only.
  const explainer = embed ? null : explainPanel(ctx);

  const form = buildForm(formCard, view.fields, { onSubmit: () => compute(), extraCheck: view.check, ranges: { models: core.models, model: view.model } });
  m.form = form;
  /** Lets a view's results change the form (e.g. "compute with D = D*") and recompute. */
  ctx.setValues = (obj) => {
    form.setValues(obj);
    compute();
  };
  form.onChange(() => {
    scheduleHash();
    clearTimeout(debounce);
    debounce = setTimeout(() => { if (form.values().ok) compute(); }, 450);
  });

  async function compute() {
    m.started = true;
    clearTimeout(debounce);
    controller?.abort();
    controller = new AbortController();
    const { signal } = controller;
    form.clearErrors();
    const { ok, values } = form.values();
    const texts = form.texts();
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
    // A quick answer shows no indicator; a slow one its elapsed time and a
    // Cancel that stops the worker (a new request from the form does too).
    let started = false;
    let cancelledByUser = false;
    let bar = null;
    const showBar = setTimeout(() => {
      bar = progress(started ? 'Solving' : 'Waiting for the solver (busy with another computation)', () => {
        cancelledByUser = true;
        controller.abort();
      });
      bar.el.dataset.testid = 'solve-progress';
      fill(resultMsg, bar.el);
    }, PENDING_MS);
    let response;
    try {
      // A view may hold an answer computed at build time (the isoefficiency view's default point).
      response = (await view.precomputed?.(request, compute)) ?? await solver.solve(request, { signal, onStart: () => { started = true; bar?.setLabel('Solving'); } });
    } catch (e) {
      if (e instanceof SolverError && e.code === 'cancelled') {
        if (cancelledByUser) {
          results.dataset.state = 'cancelled';
          fill(resultMsg, message('info', 'Cancelled: the solver was stopped. Change the parameters or press Compute.'));
        }
        return;
      }
      const err = e instanceof SolverError ? e.error : { code: 'internal', field: '', message: String(e?.message ?? e) };
      const atField = form.showError(err);
      results.dataset.state = 'error';
      fill(resultMsg, message('error', atField
        ? `The calculator refused the parameters: ${err.message}`
        : err.code === 'internal' && /not yet/i.test(err.message)
          ? `This model is not available in this build of the core yet (${err.message}).`
          : `${err.message}`));
      return;
    } finally {
      clearTimeout(showBar);
      bar?.finish();
    }
    if (signal.aborted) return;
    results.classList.remove('stale');
    ctx.signal = signal;
    ctx.request = request;
    ctx.values = values;
    m.last = response;
    m.request = request;
    m.texts = texts;
    // Before render: steps asked for go to the worker ahead of the view's sweeps.
    explainer?.update();
    try {
      view.render(response, ctx);
    } catch (e) {
      console.warn(e);
      fill(resultMsg, message('error', `The results could not be drawn: ${e.message}`));
    }
    share.ready();
    pin.ready();
    pinShownResult(m);
    markEmbed(m);
    results.dataset.request = JSON.stringify(request);
    results.dataset.seq = String(++seq);
    results.dataset.state = 'done';
    if (shown.id === view.id) scheduleHash();
    markFirstResult();
  }

  m.compute = compute;
  return m;
}
