// What the papers print beside what the calculator computes: the table and
// the chart's marks that the gallery and the views share, and the printed
// values of the figures a view draws (the gallery's chart entries carry
// theirs in gallery/00x.js). Each number is written once in www;
// tests/browser/printed.test.mjs checks them against tests/golden/papers.json.

import { fmt, isNum, DASH } from './format.js';
import { el, table } from './ui.js';

/** A processor of [002]'s Sec. 2 example: S = C = 1, x units take max(1 + x, −9 + 10x). */
const P002 = { S: 1, C: 1, pieces: [[1, 1], [-9, 10]] };

/**
 * The printed values of the figures a view draws, by gallery entry: the
 * inputs the numbers belong to, and each number with the path `at` of its
 * computed counterpart in what the view passes (`withComputed`).
 */
export const PRINTED = {
  // [002] Sec. 2: (a) LP (1)-(4); (b), (c) the loads of classical linear DLT,
  // planned with the core or the out-of-core rate alone, run on the hierarchy.
  '002-fig3': {
    inputs: { model: 'memory', V: 2, processors: [P002, P002] },
    values: [
      { at: ['a', 'makespan'], what: '(a) hierarchical memory: Cmax', paper: 5.75 },
      { at: ['a', 'loads', 0], what: '(a) α1', paper: 1.25 },
      { at: ['a', 'loads', 1], what: '(a) α2', paper: 0.75 },
      { at: ['b', 'makespan'], what: '(b) core memory only: Cmax planned', paper: 4.333 },
      { at: ['b', 'loads', 0], what: '(b) α1 = 5/3', paper: 5 / 3 },
      { at: ['b', 'loads', 1], what: '(b) α2 = 1/3', paper: 1 / 3 },
      { at: ['b', 'real_makespan_under_hierarchy'], what: '(b) real Cmax under the hierarchy', paper: 10.333 },
      { at: ['c', 'makespan'], what: '(c) out-of-core only: Cmax planned', paper: 13.048 },
      { at: ['c', 'loads', 0], what: '(c) α1', paper: 1.095 },
      { at: ['c', 'loads', 1], what: '(c) α2', paper: 0.905 },
      { at: ['c', 'real_makespan_under_hierarchy'], what: '(c) real Cmax under the hierarchy', paper: 5.905 },
    ],
  },
  // [002] Sec. 4: "(hence, swp = 1E8). We used (5) to calculate the load
  // chunk size β = 1E4". Its "approximately 1E5", where β = 5 stops beating
  // β = 1E4, is read off the drawing, which the panel samples twice a decade.
  '002-fig10': {
    inputs: { model: 'chunk_size', m: 10, S: 1e-3, C: 9.99e-5, Al1: 0, Al2: 1e-3, Ah1: -9.9e6, Ah2: 0.1 },
    values: [
      { at: ['chunk', 'beta'], what: 'β of heuristic (5)', paper: 1e4 },
      { at: ['chunk', 'swap_points', 0], what: 'swap point swp', paper: 1e8 },
    ],
  },
  // [004] Sec. VI: "the speed-up of algorithm S reaches … = 10.99 at m = 10"
  // (10.998, cut to two decimals). The inputs are the sweep's: its children
  // all alike (A, G), no start-ups.
  '004-fig6': {
    inputs: { L: 500, gamma: 2, A0: 10, A: 10, G: 1 },
    values: [{ at: ['S', 10], x: 10, what: 'S, speed-up at m = 10', paper: 10.99 }],
  },
};

/**
 * The printed values of gallery entry `id` if `inputs` are the ones they
 * belong to, else null: a number the paper prints says nothing about
 * other inputs.
 */
export function printedFor(id, inputs) {
  const p = PRINTED[id];
  return p && same(inputs, p.inputs) ? p.values : null;
}

/** The table's rows: each printed value with what `computed` holds at its path, and an id for tests. */
export function withComputed(values, computed) {
  return values.map((v) => ({ ...v, id: v.at.join('-'), computed: v.at.reduce((o, k) => o?.[k], computed) }));
}

/** The chart series of the printed values that have a position x on the chart: [] or one series of marks. */
export function printedSeries(rows) {
  const data = rows.filter((v) => isNum(v.x) && isNum(v.paper)).map((v) => [v.x, v.paper]);
  return data.length ? [{ name: 'printed in the paper', points: true, data }] : [];
}

/** The table of rows {what, paper, computed, id?}: printed in the paper | computed | difference. */
export function paperValues(rows) {
  const testid = (what) => (i) => (rows[i].id ? `${what}-${rows[i].id}` : undefined);
  const signed = (x) => (isNum(x) ? `${x > 0 ? '+' : ''}${fmt(x, 2)}` : DASH);
  return el('div', { class: 'fig-values', 'data-testid': 'paper-values' }, table([
    { key: 'what', label: 'value', numeric: false },
    { key: 'paper', label: 'printed in the paper', testid: testid('printed') },
    { key: 'computed', label: 'computed', testid: testid('computed') },
    { key: 'difference', label: 'difference', title: 'computed − printed', format: signed, testid: testid('difference'), get: (v) => (isNum(v.computed) && isNum(v.paper) ? v.computed - v.paper : undefined) },
  ], rows, { caption: 'The paper’s printed values beside the computed ones' }));
}

/** `a` and `b` hold the same values under the same keys (keys whose value is undefined left out). */
function same(a, b) {
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = (o) => Object.keys(o).filter((k) => o[k] !== undefined);
    return keys(a).length === keys(b).length && keys(a).every((k) => same(a[k], b[k]));
  }
  return a === b;
}
