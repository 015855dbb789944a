// The card "Pinned vs now" (pin.js): the parameters in which the pinned
// result and the one shown differ, and the numbers both responses give at
// their top level (Cmax, speedup, …) with their difference and ratio.

import { el } from './form.js';
import { fill, table } from './ui.js';
import { isNum, fmt } from './format.js';
import { exportMenu } from './export.js';

/** A field's text as the card and the captions show it (a table of rows: its size, and its cells clipped). */
function shown(spec, text) {
  if (spec?.kind === 'bool') return text === '1' ? 'yes' : 'no';
  if (spec?.kind !== 'rows') return text === '' ? 'blank' : text;
  let rows = [];
  try {
    rows = JSON.parse(text);
  } catch { /* shown as it is */ }
  const cells = JSON.stringify(rows).replace(/"/g, '');
  return `${rows.length} rows ${cells.length > 60 ? `${cells.slice(0, 59)}…` : cells}`;
}

/**
 * "k = 2, S = 0.0001, …": the form texts `texts` of `view`, blank optional
 * fields left out, then each sub-form's (`parts`, Maps of texts by name) as
 * "; NAME: FIELD = text, …".
 */
export function paramsText(view, texts, parts = new Map()) {
  const own = view.fields
    .filter((f) => texts[f.key] !== undefined && texts[f.key] !== '')
    .map((f) => `${f.symbol ?? f.key} = ${shown(f, texts[f.key])}`)
    .join(', ');
  return [own, ...[...parts].map(([name, values]) => `${name}: ${[...values].map(([k, v]) => `${k} = ${v || 'blank'}`).join(', ')}`)].join('; ');
}

/** The parameters (fields, then sub-forms' as NAME.FIELD) whose texts differ. */
function differences(view, pinned, now) {
  const rows = [];
  for (const f of view.fields) {
    const a = pinned.texts[f.key] ?? '';
    const b = now.texts?.[f.key] ?? '';
    if (a !== b) rows.push({ key: f.key, label: `${f.symbol ?? f.key} (${f.name})`, pinned: shown(f, a), now: shown(f, b) });
  }
  for (const [name, values] of pinned.parts) {
    for (const [k, a] of values) {
      const b = now.parts.get(name)?.get(k) ?? '';
      if (a !== b) rows.push({ key: `${name}.${k}`, label: `${name}: ${k}`, pinned: a || 'blank', now: b || 'blank' });
    }
  }
  return rows;
}

/** The numbers at the top level of either response, with now − pinned and now / pinned. */
function numbers(pinned, now) {
  const keys = [...new Set([...Object.keys(pinned ?? {}), ...Object.keys(now ?? {})])]
    .filter((k) => typeof pinned?.[k] === 'number' || typeof now?.[k] === 'number');
  return keys.map((key) => {
    const a = pinned?.[key];
    const b = now?.[key];
    const both = isNum(a) && isNum(b);
    return { key, pinned: a, now: b, diff: both ? b - a : undefined, ratio: both && a !== 0 ? b / a : undefined };
  });
}

/** The card of view `m`: {el, show(data)}; show(null) hides it. */
export function comparisonCard(m) {
  const note = el('p', { class: 'panel-note', 'data-testid': 'pin-caption' });
  const status = el('p', { class: 'pin-status', role: 'status', 'aria-live': 'polite', 'data-testid': 'pin-status' });
  const body = el('div', { class: 'pin-tables' });
  const title = el('h3', { text: 'Pinned vs now', id: `pin-title-${m.view.id}` });
  const card = el('section', { class: 'card pin-compare', 'data-testid': 'pin-compare', 'aria-labelledby': title.id, hidden: true },
    el('div', { class: 'panel-head' }, title), note, status, body);
  card.querySelector('.panel-head').append(exportMenu(card, { basename: () => `${m.view.id}-pinned-vs-now`, info: () => ({ title: 'Pinned vs now' }) }));
  const num = (v) => (isNum(v) ? v : undefined);
  return {
    el: card,
    show(data) {
      card.hidden = !data;
      if (!data) {
        card.dataset.state = 'none';
        return;
      }
      card.dataset.state = data.state;
      note.textContent = `Pinned: ${data.caption}. Its lines are dashed on the charts; its other charts are drawn below the ones shown.`;
      status.textContent = data.state === 'solving' ? 'Computing the pinned result…'
        : data.state === 'drawing' ? 'Computing the pinned sweeps…' : '';
      if (!data.pinned.response) {
        fill(body);
        return;
      }
      const diff = differences(m.view, data.pinned, data.now);
      const rows = numbers(data.pinned.response, data.now.response);
      fill(body,
        diff.length
          ? table([
            { key: 'label', label: 'parameter', numeric: false },
            { key: 'pinned', label: 'pinned', numeric: false, testid: (i) => `pin-param-pinned-${diff[i].key}` },
            { key: 'now', label: 'now', numeric: false, testid: (i) => `pin-param-now-${diff[i].key}` },
          ], diff, { caption: 'Parameters that differ', testid: 'pin-params' })
          : el('p', { class: 'note', text: 'The pinned result has the parameters shown now.' }),
        table([
          { key: 'key', label: 'number', numeric: false },
          { key: 'pinned', label: 'pinned', get: (r) => num(r.pinned), testid: (i) => `pin-pinned-${rows[i].key}` },
          { key: 'now', label: 'now', get: (r) => num(r.now), testid: (i) => `pin-now-${rows[i].key}` },
          { key: 'diff', label: 'now − pinned', testid: (i) => `pin-diff-${rows[i].key}` },
          { key: 'ratio', label: 'now / pinned', format: (v) => fmt(v, 4) },
        ], rows, { caption: 'Numbers of the two results', testid: 'pin-numbers' }));
    },
  };
}
