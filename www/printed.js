// What the papers print beside what the calculator computes: the table and
// the chart's marks that the gallery and the views share.

import { fmt, isNum, DASH } from './format.js';
import { el, table } from './ui.js';

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
