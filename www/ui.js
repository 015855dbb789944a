// Small DOM helpers the views share: result summaries, tables, warnings and
// a progress indicator. Every number goes through format.js, so a missing or
// non-finite value shows as "—" with a note saying what is missing.

import { el } from './form.js';
import { fmt, isNum, DASH } from './format.js';

export { el };

/** Replaces the children of `node`. */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c != null));
  return node;
}

/**
 * A summary of key results: items are {label, value, unit?, testid?,
 * format?, hint?}. A value that is not a number shows as "—" and is listed
 * in a note below.
 */
export function summary(items) {
  const missing = [];
  const dl = el('dl', { class: 'summary' });
  for (const it of items) {
    const numeric = typeof it.value === 'number' || it.value === undefined || it.value === null;
    const ok = numeric ? isNum(it.value) : true;
    const text = numeric ? (it.format ?? fmt)(it.value) : String(it.value);
    if (!ok) missing.push(it.label);
    const dd = el('dd', {
      'data-testid': it.testid,
      'data-text': numeric ? undefined : '',
      'data-value': ok && numeric ? String(it.value) : undefined,
      title: ok && numeric ? String(it.value) : undefined,
      class: ok ? undefined : 'missing',
    }, text === DASH ? DASH : text, it.unit && ok ? el('span', { class: 'unit', text: ` ${it.unit}` }) : null);
    dl.append(el('div', { class: `item${it.big ? ' big' : ''}` },
      el('dt', {}, it.label, it.hint ? el('span', { class: 'hint', text: it.hint }) : null), dd));
  }
  const out = [dl];
  if (missing.length) out.push(el('p', { class: 'note warn', text: `— : the core did not report ${missing.join(', ')} as a finite number.` }));
  return out;
}

/** Summary items for numeric top-level fields a view does not know yet. */
export function extraNumbers(response, known) {
  const items = [];
  for (const [k, v] of Object.entries(response ?? {})) {
    if (known.includes(k)) continue;
    if (typeof v === 'number') items.push({ label: k, value: v, testid: `extra-${k}` });
  }
  return items;
}

/** A list of the core's warnings (nothing when there are none). */
export function warnings(list) {
  if (!Array.isArray(list) || list.length === 0) return null;
  return el('ul', { class: 'warnings', 'data-testid': 'warnings' }, list.map((w) => el('li', { text: String(w) })));
}

/**
 * A table: columns are {key, label, title?, format?, numeric?=true,
 * testid?(rowIndex), na?(row, i), cellClass?(row, i)}; rows are objects (or
 * use `get(row, i)`). `na` marks cells where the quantity does not apply
 * ("n/a", not "—"); `cellClass` adds a class to a cell (a badge, a column
 * of text that wraps).
 * `label` names it for screen readers (default: its caption, else its columns).
 */
export function table(columns, rows, { caption, testid, label } = {}) {
  let missing = false;
  const head = el('tr', {}, columns.map((c) => el('th', { scope: 'col', title: c.title, class: c.numeric === false ? undefined : 'num' }, c.label)));
  const body = rows.map((r, i) => el('tr', {}, columns.map((c) => {
    const v = c.get ? c.get(r, i) : r[c.key];
    const numeric = c.numeric !== false;
    if (c.na?.(r, i) && !(numeric && isNum(v))) return el('td', { class: `${numeric ? 'num ' : ''}na`, title: 'not applicable' }, 'n/a');
    let text;
    if (numeric) {
      text = (c.format ?? fmt)(v);
      if (text === DASH) missing = true;
    } else {
      text = v === undefined || v === null || v === '' ? DASH : String(v);
    }
    const cls = [numeric ? 'num' : '', c.cellClass?.(r, i) ?? ''].filter(Boolean).join(' ');
    return el('td', {
      class: cls || undefined,
      'data-testid': c.testid ? c.testid(i) : undefined,
      'data-value': numeric && isNum(v) ? String(v) : undefined,
      title: numeric && isNum(v) ? String(v) : undefined,
    }, text);
  })));
  const t = el('table', { class: 'data', 'data-testid': testid },
    caption ? el('caption', { text: caption }) : null, el('thead', {}, head), el('tbody', {}, body));
  // A wide table scrolls sideways inside its box: the box takes focus, so
  // that the keyboard can scroll it too, and is named (a group, not a
  // region: two panels may show tables of the same name).
  const wrap = el('div', {
    class: 'table-wrap', tabindex: '0', role: 'group',
    'aria-label': label ?? caption ?? `table: ${columns.map((c) => c.label).join(', ')}`,
  }, t);
  return missing ? [wrap, el('p', { class: 'note', text: '— : value not reported by the core for this row.' })] : [wrap];
}

/** A computation that takes longer than this shows its elapsed time and a Cancel button. */
export const PENDING_MS = 300;

/**
 * A progress indicator with the time elapsed and a Cancel button;
 * `onCancel` runs on click. Returns {el, update(done, total), setLabel(text),
 * finish(text?)}; until the first update the bar is indeterminate.
 */
export function progress(label, onCancel) {
  const bar = el('progress', { max: 1 });
  const text = el('span', { class: 'progress-text' });
  const cancel = el('button', { type: 'button', class: 'ghost small', text: 'Cancel', onclick: () => onCancel?.() });
  const root = el('div', { class: 'progress', role: 'status', 'aria-live': 'polite', 'data-testid': 'progress' }, bar, text, cancel);
  const started = performance.now();
  let attached = false;
  /** @type {[number, number] | null} the last update's (done, total) */
  let count = null;
  const show = () => {
    // An indicator taken off the page without finish() stops ticking.
    if (attached && !root.isConnected) clearInterval(ticker);
    attached ||= root.isConnected;
    if (count) {
      bar.max = count[1];
      bar.value = count[0];
    }
    const counts = count ? `: ${count[0]} / ${count[1]}` : '';
    text.textContent = `${label}${counts} · ${((performance.now() - started) / 1000).toFixed(1)} s`;
  };
  const ticker = setInterval(show, 250);
  show();
  return {
    el: root,
    // Shown by the next tick: a sweep's points each answered at once took
    // a repaint apiece, 20 % of a core beside the workers (000 Fig. 13(b)).
    update(done, total) {
      count = [done, total];
    },
    setLabel(text) {
      label = text;
      show();
    },
    finish(msg) {
      clearInterval(ticker);
      bar.remove();
      cancel.remove();
      text.textContent = msg ?? '';
      root.classList.add('finished');
      if (!msg) root.remove();
    },
  };
}

/** A message box (kind: 'error' | 'info' | 'warn'). */
export function message(kind, text) {
  return el('div', { class: `msg ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}

/** Offers `text` as a file download named `filename`. */
export function saveText(text, filename, type = 'text/plain') {
  saveBlob(new Blob([text], { type }), filename);
}

/** Saves a Blob as a download named `filename`. */
export function saveBlob(blob, filename) {
  const url = URL.createObjectURL(blob);
  const a = el('a', { href: url, download: filename, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/**
 * "Download LP" buttons: the linear program (`what`: "MIP" for a mixed
 * integer one) of the request `getRequest()` returns, exported by the core in
 * the worker as CPLEX-LP or MPS text and saved as `${basename}.lp` / `.mps`.
 */
export function lpDownload(solver, getRequest, { basename = 'model', what = 'LP' } = {}) {
  const status = el('span', { class: 'lp-status', role: 'status', 'aria-live': 'polite' });
  const button = (format, label, title) => el('button', {
    type: 'button', class: 'ghost small', 'data-testid': `download-${format}`, title,
    onclick: async (e) => {
      const b = e.currentTarget;
      b.disabled = true;
      status.textContent = '';
      status.className = 'lp-status';
      try {
        const text = await solver.exportLp(getRequest(), format);
        saveText(text, `${basename}.${format}`);
        status.textContent = `${basename}.${format}: ${text.length.toLocaleString('en')} characters`;
      } catch (err) {
        status.textContent = `The ${what} could not be exported: ${err.message}`;
        status.className = 'lp-status bad';
      } finally {
        b.disabled = false;
      }
    },
  }, label);
  return el('div', { class: 'lp-download', 'data-testid': 'lp-download' },
    el('span', { class: 'lp-label', text: `Download the ${what}:` }),
    button('lp', 'CPLEX-LP', `the ${what} as CPLEX LP text (.lp), for any ${what} solver`),
    button('mps', 'MPS', `the ${what} in (free) MPS format (.mps)`),
    status);
}
