// Comparison: a result pinned stays on its view's charts beside the
// results computed after it, with a table "Pinned vs now".
//
// A pin keeps the form's texts of the result (and its sub-forms'), the
// request and the response, and renders that response again into a context
// of its own that is never shown (a detached element, the view's render
// unchanged): the whole options its charts get are recorded, its sweeps'
// as they arrive, and drawn with the view's charts (pin-draw.js). Opened
// from a link, the pinned request is solved first. The pin is part of the
// permalink: `pin.FIELD=text` for each field, `pin.SUBFORM.FIELD=text`.

import { el, buildForm } from './form.js';
import { solver, core } from './page.js';
import { makeContext } from './context.js';
import { scheduleHash } from './links.js';
import { banner } from './banner.js';
import { clip } from './permalink.js';
import { SolverError } from './pool.js';
import { withPinned, clearPinned } from './pin-draw.js';
import { comparisonCard, paramsText } from './pin-compare.js';

/** Each view's buttons and card ({pin, unpinButton, card}), and the keys of its charts to draw again. */
const controls = new WeakMap();
const redraws = new WeakMap();

/** The texts of the sub-forms of `m`, by name (Maps). */
function subformTexts(m) {
  return new Map([...m.subforms].map(([name, f]) => [name, new Map(Object.entries(f.texts()))]));
}

/**
 * The Pin and Unpin buttons of view `m` (its share bar) and the card
 * "Pinned vs now" (above its panels): {buttons, card, ready()}; ready()
 * once a result is shown.
 */
export function pinControls(m) {
  const pin = el('button', {
    type: 'button', class: 'ghost small', 'data-testid': 'pin', disabled: true,
    title: 'keep this result on the charts, to compare it with the results you compute next',
    onclick: () => pinShown(m),
  }, 'Pin');
  const unpinButton = el('button', {
    type: 'button', class: 'ghost small', 'data-testid': 'unpin', hidden: true,
    title: 'take the pinned result off the charts',
    onclick: () => {
      unpin(m);
      scheduleHash();
      pin.focus();
    },
  }, 'Unpin');
  const card = comparisonCard(m);
  controls.set(m, { pin, unpinButton, card });
  return { buttons: [pin, unpinButton], card: card.el, ready: () => { pin.disabled = false; } };
}

/**
 * The onOption hook of the view's context (context.js): the pinned chart
 * of the same key, if any, drawn over or below the view's.
 */
export function pinHook(m) {
  return (key, c, option) => {
    const record = m.pin?.records.get(key);
    if (!record) {
      clearPinned(c);
      return option;
    }
    return withPinned(key, c, option, record, m.pin.caption);
  };
}

/** Pins the result `m` shows. */
function pinShown(m) {
  if (!m.last || !m.texts) return;
  const pin = makePin(m, new Map(Object.entries(m.texts)), subformTexts(m));
  if (!pin) return;
  pin.request = m.request;
  settle(m, pin, m.last);
  scheduleHash();
}

/** Takes the pin of `m` away (its computations stopped, its drawings removed). */
function unpin(m) {
  const pin = m.pin;
  if (!pin) return;
  m.pin = null;
  pin.controller.abort();
  for (const c of pin.ctx.charts.values()) c.chart.dispose();
  redrawLive(m, pin.records.keys());
  showState(m);
}

/**
 * Sets the pin of `m` to a link's (`part`, the Map of its `pin.` keys, or
 * undefined for none): unchanged when it is the pin shown, else solved
 * again. An invalid pinned value drops the pin, with a notice in `notices`;
 * the view's own values are not touched.
 */
export function restorePin(m, part, notices) {
  if (!part) {
    unpin(m);
    return;
  }
  const fields = new Map();
  const parts = new Map();
  for (const [key, text] of part) {
    const dot = key.indexOf('.');
    if (dot < 0) fields.set(key, text);
    else {
      const name = key.slice(0, dot);
      if (!parts.has(name)) parts.set(name, new Map());
      parts.get(name).set(key.slice(dot + 1), text);
    }
  }
  if (m.pin && sameLink(m.pin.link, linkOf(fields, parts))) return;
  unpin(m);
  const pin = makePin(m, fields, parts, notices);
  if (!pin) return;
  const { ok, values } = pin.form.values();
  let request;
  try {
    request = ok ? m.view.toRequest(values) : undefined;
  } catch (e) {
    notices.push(`The link’s pinned result is left out: ${e.message}`);
  }
  if (!request) {
    unpin(m);
    return;
  }
  pin.request = request;
  showState(m);
  solver.solve(request, { signal: pin.controller.signal }).then((response) => {
    if (m.pin === pin) settle(m, pin, response);
  }, (e) => {
    if (m.pin !== pin || (e instanceof SolverError && e.code === 'cancelled')) return;
    unpin(m);
    scheduleHash();
    banner('notice', `The link’s pinned result is left out: the calculator refused its parameters (${e.error?.message ?? e.message}).`);
  });
}

/** Renders the pin of `m` again: a change of colour scheme, or of what a chart plots (the view's link state). */
export function redrawPin(m) {
  if (m.pin?.response) draw(m, m.pin);
}

/** After the view drew a result: the comparison follows. */
export function pinShownResult(m) {
  showState(m);
}

// ---- the pin's own context --------------------------------------------------

function linkOf(fields, parts) {
  const link = Object.fromEntries(fields);
  for (const [name, values] of parts) for (const [k, v] of values) link[`${name}.${k}`] = v;
  return link;
}

function sameLink(a, b) {
  return JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
}

/**
 * A pin of `m` for the form texts `fields` and sub-form texts `parts`
 * (Maps), read by a form of its own through the view's checks; made the
 * pin of `m`. Null, with a notice, when the texts are not valid.
 */
function makePin(m, fields, parts, notices = []) {
  const form = buildForm(el('div'), m.view.fields, { extraCheck: m.view.check, ranges: { models: core.models, model: m.view.model } });
  const r = form.restore(fields);
  if (!r.ok) {
    const what = Object.entries(r.errors).slice(0, 4).map(([k, e]) => `${clip(k)}: ${e}`).join('; ');
    notices.push(`The link’s pinned result is left out: its parameters are not valid (${what}).`);
    return null;
  }
  if (r.unknown.length) notices.push(`The pinned result has no parameter ${r.unknown.slice(0, 6).map((k) => `“${clip(k)}”`).join(', ')}; ignored.`);
  unpin(m);
  const texts = form.texts();
  const pin = {
    form,
    texts,
    parts,
    link: linkOf(new Map(Object.entries(texts)), parts),
    caption: paramsText(m.view, texts, parts),
    request: undefined,
    response: undefined,
    records: new Map(),
    controller: new AbortController(),
    sweeps: 0,
  };
  // Its render's link state is the view's (what a chart plots, so that the two compare); its sub-forms are its own.
  const own = { view: m.view, form, subforms: new Map(), pendingParts: new Map(parts), get linkState() { return m.linkState; } };
  pin.ctx = makeContext(m.view, el('div'), own, {
    onOption(key, c, option) {
      pin.records.set(key, { option, height: c.box.style.height, className: c.box.className, onResize: c.onResize });
      redrawLive(m, [key]);
      return option;
    },
  });
  pin.ctx.setLinkState = () => {};
  // What a view starts of its own beyond ctx.solver and ctx.sweep (the isoefficiency map) it skips here.
  pin.ctx.pinned = true;
  // Its sweeps counted, for the card's state (the tests and the status line wait for them).
  const sweep = pin.ctx.sweep;
  pin.ctx.sweep = async (...args) => {
    pin.sweeps++;
    showState(m);
    try {
      return await sweep(...args);
    } finally {
      pin.sweeps--;
      // After the view has drawn what the sweep brought (its continuation runs first).
      setTimeout(() => showState(m));
    }
  };
  m.pin = pin;
  return pin;
}

/** The pin's response known: drawn in its context, and with the view's charts. */
function settle(m, pin, response) {
  pin.response = response;
  pin.ctx.signal = pin.controller.signal;
  pin.ctx.request = pin.request;
  pin.ctx.values = pin.form.values().values;
  draw(m, pin);
  showState(m);
}

function draw(m, pin) {
  try {
    m.view.render(pin.response, pin.ctx);
  } catch (e) {
    console.warn(e);
  }
}

// The view's charts drawn again with the pin (or without), once for all the keys changed in a task.
function redrawLive(m, keys) {
  if (!redraws.has(m)) redraws.set(m, new Set());
  const todo = redraws.get(m);
  const queued = todo.size > 0;
  for (const k of keys) todo.add(k);
  if (queued) return;
  setTimeout(() => {
    const now = [...todo];
    todo.clear();
    for (const key of now) {
      const c = m.ctx.charts.get(key);
      if (!c?.option || c.chart.isDisposed()) continue;
      c.chart.setOption(c.option, { notMerge: true });
      c.onResize?.(c.chart);
    }
  });
}

/** The buttons and the card follow the pin: none, being computed, or drawn. */
function showState(m) {
  const ui = controls.get(m);
  if (!ui) return;
  const pin = m.pin;
  ui.unpinButton.hidden = !pin;
  ui.pin.title = pin ? 'pin this result instead of the one pinned' : 'keep this result on the charts, to compare it with the results you compute next';
  ui.card.show(pin && {
    state: !pin.response ? 'solving' : pin.sweeps ? 'drawing' : 'ready',
    caption: pin.caption,
    pinned: { texts: pin.texts, parts: pin.parts, response: pin.response },
    now: { texts: m.texts, parts: subformTexts(m), response: m.last },
  });
}
