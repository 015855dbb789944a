// What a view's render() gets (README.md, "Adding a view"): panels and
// charts kept across renders, the solver and sweeps with progress, and the
// view's part of its permalink.

import { SolverError } from './pool.js';
import { el } from './form.js';
import { message, progress } from './ui.js';
import { exportMenu } from './export.js';
import { accessibleChart } from './chart-access.js';
import { solver } from './page.js';
import { scheduleHash, applyPart } from './links.js';

/** "model torus, k = 2, S = 0.0001, …": a request in one line, for exported images. */
function requestLine(request, swept = []) {
  if (!request) return '';
  const parts = [];
  for (const [k, v] of Object.entries(request)) {
    if (k === 'model' || swept.includes(k)) continue;
    if (Array.isArray(v)) parts.push(v.length <= 6 && v.every((x) => typeof x !== 'object') ? `${k} = ${v.join(', ')}` : `${k}: ${v.length} entries`);
    else if (v && typeof v === 'object') parts.push(`${k}: …`);
    else parts.push(`${k} = ${v}`);
  }
  // A chart over many requests: the form's value of what it varies is not its own.
  if (swept.length) parts.push(`${swept.join(', ')} as the chart varies them`);
  return `${request.model}: ${parts.join('; ')}`;
}

/**
 * What a view's render() gets: persistent panels and charts (created on
 * first use, in call order, reused by later renders), the solver for extra
 * requests (sweeps), and `signal`, aborted when the next computation starts.
 * Also the view's part of its permalink: `linkState` (its own choices, e.g.
 * what a chart plots) with `setLinkState(key, value)`, and `linkForm(name,
 * form)` for a sub-form whose fields the link keeps too.
 *
 * `onOption(key, c, option)`, if given, sees every whole option a chart of
 * the view is given (`notMerge`) and returns the one drawn: the pin
 * (pin.js) records its charts' options and draws them over or beside the
 * view's own. `ctx.charts` holds the charts made, by key: {chart, box,
 * tools, option (the last whole option the view gave), onResize}.
 * `onLinkState()`, if given, runs after the view's link state changed (the
 * pin plots what the view's charts plot).
 */
export function makeContext(view, panelsEl, m, { onOption, onLinkState } = {}) {
  const panels = new Map();
  const charts = new Map();
  const ctx = {
    solver,
    charts,
    /** The view's own memory across renders (cache keys, sweep results). */
    state: {},
    signal: undefined,
    request: undefined,
    values: undefined,
    get linkState() { return m.linkState; },
    setLinkState(key, value) {
      if (value === undefined || value === null) delete m.linkState[key];
      else m.linkState[key] = String(value);
      scheduleHash();
      onLinkState?.();
    },
    linkForm(name, form) {
      m.subforms.set(name, form);
      const pending = m.pendingParts.get(name);
      if (pending) {
        m.pendingParts.delete(name);
        applyPart(name, form, pending);
      }
      form.onChange(scheduleHash);
    },
    /** Shows a core error about a request of the view's own beside the form's field it names. */
    showError(error) {
      return m.form.showError(error);
    },
    /**
     * A titled card in the results column; returns its body element.
     * `swept`: the request's fields its chart varies, left out of its
     * exports' parameter line.
     */
    panel(key, { title, note, wide = false, swept = [] } = {}) {
      let p = panels.get(key);
      if (!p) {
        const body = el('div', { class: 'panel-body' });
        const noteEl = el('p', { class: 'panel-note' });
        const titleEl = el('h3', {});
        const card = el('section', { class: `card panel${wide ? ' wide' : ''}`, 'data-panel': key }, el('div', { class: 'panel-head' }, titleEl), noteEl, body);
        card.querySelector('.panel-head').append(exportMenu(card, {
          basename: () => `${view.id}-${key}`,
          info: () => ({ title: p.titleEl.textContent, subtitle: requestLine(ctx.request, p.swept) }),
        }));
        panelsEl.append(card);
        p = { card, body, noteEl, titleEl };
        panels.set(key, p);
      }
      p.swept = swept;
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
     * The box is labelled for screen readers with its panel's title and
     * note, its points reached by the keyboard (chart-keys.js: `onPick(point)`
     * is what Enter on a point does, as a click on it), and its data shown
     * as a table by the button below it.
     */
    chart(key, parent, { height = 320, className = '', renderer, onResize, onPick } = {}) {
      let c = charts.get(key);
      const card = parent.closest('[data-panel]');
      const title = card?.querySelector('.panel-head h3')?.textContent ?? key;
      const note = card?.querySelector('.panel-note')?.textContent ?? '';
      const describe = (box) => {
        box.dataset.label = title;
        box.dataset.description = `${title}. ${note}`.trim();
        box.setAttribute('role', 'img');
        box.setAttribute('aria-label', box.dataset.description);
        // A Tab stop, so that a keyboard or screen-reader user reaches the chart and its description.
        box.tabIndex = 0;
      };
      if (!c || c.box.parentNode !== parent) {
        c?.chart.dispose();
        c?.tools.remove();
        const box = el('div', { class: `chart ${className}`, 'data-chart': key });
        if (height) box.style.height = `${height}px`;
        describe(box);
        parent.append(box);
        const made = { box, onResize };
        Object.assign(made, accessibleChart(box, key, { renderer, onResize, pick: (point) => made.onPick?.(point) }));
        const set = made.chart.setOption;
        made.chart.setOption = (option, opts, ...rest) => {
          if (option?.series && (opts === true || opts?.notMerge)) {
            made.option = option;
            option = onOption?.(key, made, option) ?? option;
          }
          return set(option, opts, ...rest);
        };
        parent.append(made.tools);
        c = made;
        charts.set(key, c);
      } else {
        describe(c.box);
        if (height && c.box.style.height !== `${height}px`) {
          c.box.style.height = `${height}px`;
          c.chart.resize();
        }
      }
      c.onPick = onPick;
      return c.chart;
    },
    /**
     * Runs `requests` as a sweep of the worker (Pool.sweep) with a progress
     * indicator in `parent`; resolves to one entry per request, or null if
     * cancelled (the Cancel button, `signal`) or superseded by a newer
     * computation.
     */
    async sweep(parent, label, requests, { pick, signal } = {}) {
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
        const responses = await solver.sweep(requests, { signal: own.signal, pick, onProgress: (d, t) => bar.update(d, t) });
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
