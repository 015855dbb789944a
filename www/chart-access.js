// A chart usable without the mouse or the eyes, wherever it is made (a
// view's ctx.chart, a gallery card): the keyboard way through its points
// (chart-keys.js) and its data as a table below it.

import { el, table } from './ui.js';
import { mountChart } from './charts.js';
import { chartCsvRows } from './export.js';
import { chartKeys } from './chart-keys.js';

/** Rows a chart's data table shows at most (a 625 × 625 activation map has 390 625); its CSV has them all. */
const TABLE_ROWS = 500;
let tables = 0; // ids of the data tables, unique on the page

/**
 * The chart's data as a table, the rows its CSV export writes, shown and
 * hidden by a "Data table" button below the chart: the alternative to a
 * chart for who cannot see it. Returns {el, refresh()}; refresh() after
 * the chart's option changes (an open table follows it).
 */
function dataTable(key, chart, label) {
  const holder = el('div', { class: 'chart-table', id: `chart-table-${++tables}`, hidden: true });
  const toggle = el('button', {
    type: 'button', class: 'ghost small', 'aria-expanded': 'false', 'aria-controls': holder.id, 'data-testid': `data-table-${key}`,
    onclick: () => {
      holder.hidden = !holder.hidden;
      toggle.setAttribute('aria-expanded', String(!holder.hidden));
      build();
    },
  }, 'Data table');
  let queued = false;
  function build() {
    queued = false;
    if (holder.hidden || chart.isDisposed()) return;
    const [head = [], ...rows] = chartCsvRows(chart);
    const columns = head.map((name, i) => ({
      key: i, label: String(name),
      numeric: rows.every((r) => r[i] === null || r[i] === undefined || typeof r[i] === 'number'),
      // A series without a value at this row's x: nothing to report, not a value missing.
      na: (r) => r[i] === null || r[i] === undefined,
    }));
    holder.replaceChildren(...table(columns, rows.slice(0, TABLE_ROWS), { label: `${label()}: data table` }),
      rows.length > TABLE_ROWS ? el('p', { class: 'note', text: `The first ${TABLE_ROWS} of ${rows.length} rows: the chart's CSV (Export) has them all.` }) : '');
  }
  return {
    el: el('div', { class: 'chart-tools' }, toggle, holder),
    // Once after a render's options, however many it sets.
    refresh() {
      if (!queued) queueMicrotask(build);
      queued = true;
    },
  };
}

/**
 * Mounts an ECharts instance in `box` (labelled by its `data-label`) with
 * its keys (`pick(point)`: what Enter on a point does, as a click on it)
 * and its data table. Returns {chart, tools}: `tools`, the Data table
 * button and the keys' live region, goes after the box.
 */
export function accessibleChart(box, key, { renderer, onResize, pick } = {}) {
  const made = {};
  made.chart = mountChart(box, { renderer, onResize, onOption: () => { made.keys.refresh(); made.table.refresh(); } });
  made.keys = chartKeys(box, made.chart, { pick });
  made.table = dataTable(key, made.chart, () => box.dataset.label);
  const tools = made.table.el;
  tools.prepend(made.keys.el);
  return { chart: made.chart, tools };
}
