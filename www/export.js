// Exports of whatever a results panel (or a gallery figure) shows, found in
// its DOM, so every view gets them without code of its own:
//   each chart (an ECharts instance in a `.chart` box) as SVG (drawn again
//   by ECharts' SVG renderer), as PNG (its canvas, twice the pixels) and as
//   CSV (the series' data); each table.data and each summary as CSV.
// The images carry the panel's title and a line of parameters above the
// chart, and the chart's description (its aria text) as SVG <title>/<desc>.

import { echarts, COLORS } from './charts.js';
import { el, saveBlob, saveText } from './ui.js';

const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
const HEAD = 46; // px above the chart for the title and the parameters line

function xml(text) {
  return String(text ?? '').replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' }[c]));
}

/** The option of `chart` ready to be drawn again elsewhere, all of it at once. */
function printableOption(chart) {
  const option = chart.getOption();
  option.animation = false;
  for (const s of option.series ?? []) {
    s.progressive = 0; // a progressive series would be only partly drawn
    s.animation = false;
  }
  // The slider is a control, not part of the figure.
  option.dataZoom = (option.dataZoom ?? []).map((z) => (z.type === 'slider' ? { ...z, show: false } : z));
  return option;
}

/**
 * The chart as an SVG document: ECharts' SVG renderer draws the chart's
 * option again, off screen, at the chart's size; a heading is added above.
 */
export function chartSvg(chart, { title = '', subtitle = '', description = '' } = {}) {
  const w = Math.max(1, Math.round(chart.getWidth()));
  const h = Math.max(1, Math.round(chart.getHeight()));
  const holder = el('div', { style: `position:fixed;left:-20000px;top:0;width:${w}px;height:${h}px;` });
  document.body.append(holder);
  let inner;
  const copy = echarts.init(holder, null, { renderer: 'svg', width: w, height: h });
  try {
    copy.setOption(printableOption(chart));
    inner = copy.renderToSVGString();
  } finally {
    copy.dispose();
    holder.remove();
  }
  // ECharts writes font families into style="…" unescaped: a quoted family ("Segoe UI") would end the attribute.
  for (let before = ''; before !== inner;) {
    before = inner;
    inner = inner.replace(/(font-family:[^;"<>]*)"([^";<>]+)"/g, "$1'$2'");
  }
  const top = title || subtitle ? HEAD : 0;
  // The chart's own <svg> becomes a nested one, moved down below the heading.
  inner = inner.replace(/^<svg\b/, `<svg x="0" y="${top}"`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h + top}" viewBox="0 0 ${w} ${h + top}" role="img" aria-labelledby="export-title export-desc">`,
    `<title id="export-title">${xml(title || 'chart')}</title>`,
    `<desc id="export-desc">${xml(description || subtitle)}</desc>`,
    `<rect width="100%" height="100%" fill="${COLORS.bg}"/>`,
    title ? `<text x="12" y="20" font-family="${xml(FONT)}" font-size="15" font-weight="600" fill="${COLORS.text}">${xml(title)}</text>` : '',
    subtitle ? `<text x="12" y="38" font-family="${xml(FONT)}" font-size="11" fill="${COLORS.muted}">${xml(clipText(subtitle, w / 5.6))}</text>` : '',
    inner,
    '</svg>',
  ].join('\n');
}

function clipText(s, n) {
  n = Math.max(10, Math.floor(n));
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/** The chart as a PNG Blob: its canvas at twice the pixels, under the same heading. */
export async function chartPng(chart, { title = '', subtitle = '' } = {}) {
  const ratio = 2;
  const url = chart.getDataURL({ type: 'png', pixelRatio: ratio, backgroundColor: COLORS.bg, excludeComponents: ['dataZoom'] });
  const img = new Image();
  img.src = url;
  await img.decode();
  const top = title || subtitle ? HEAD : 0;
  const canvas = document.createElement('canvas');
  canvas.width = img.naturalWidth;
  canvas.height = img.naturalHeight + top * ratio;
  const g = canvas.getContext('2d');
  g.fillStyle = COLORS.bg;
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.scale(ratio, ratio);
  g.textBaseline = 'alphabetic';
  if (title) {
    g.fillStyle = COLORS.text;
    g.font = `600 15px ${FONT}`;
    g.fillText(title, 12, 20);
  }
  if (subtitle) {
    g.fillStyle = COLORS.muted;
    g.font = `11px ${FONT}`;
    g.fillText(clipText(subtitle, canvas.width / ratio / 5.6), 12, 38);
  }
  g.setTransform(1, 0, 0, 1, 0, 0);
  g.drawImage(img, 0, top * ratio);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the PNG could not be made'))), 'image/png'));
}

// ---- CSV ------------------------------------------------------------------

function cell(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  let s = String(v);
  // A text cell a spreadsheet would take for a formula stays text.
  if (/^[=@]/.test(s) || (/^[+-]/.test(s) && !/^[+-]?(\d|\.\d)/.test(s))) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(rows) {
  return `${rows.map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
}

const valueOf = (item) => (item && typeof item === 'object' && !Array.isArray(item) ? item.value : item);

/**
 * The data of a chart's series as CSV rows. Line charts over a numeric x
 * axis: one row per x, one column per series. Series over a category axis
 * (bars): one row per category. Anything else (Gantt bars, heatmap cells):
 * one row per item, `series` and the item's dimensions, category indices
 * replaced by their labels.
 */
export function chartCsvRows(chart) {
  const o = chart.getOption();
  const series = (o.series ?? []).filter((s) => Array.isArray(s.data));
  const xAxis = (o.xAxis ?? [])[0];
  const yAxis = (o.yAxis ?? [])[0];
  const axisName = (a, fallback) => (a?.name ? String(a.name) : fallback);
  const xy = series.length > 0 && series.every((s) => (s.type === 'line' || s.type === 'scatter')
    && s.data.every((d) => { const v = valueOf(d); return v === null || v === undefined || (Array.isArray(v) && v.length === 2); }));
  if (xy && xAxis?.type !== 'category') {
    const xs = new Map();
    series.forEach((s, j) => {
      for (const d of s.data) {
        const v = valueOf(d);
        if (!Array.isArray(v) || typeof v[0] !== 'number') continue;
        if (!xs.has(v[0])) xs.set(v[0], new Array(series.length).fill(null));
        xs.get(v[0])[j] = v[1];
      }
    });
    const rows = [[axisName(xAxis, 'x'), ...series.map((s, j) => s.name ?? `series ${j + 1}`)]];
    for (const x of [...xs.keys()].sort((a, b) => a - b)) rows.push([x, ...xs.get(x)]);
    return rows;
  }
  // Bars on a category axis, upright (x) or lying (y): a row per category.
  const [catAxis, valueAxis] = xAxis?.type === 'category' ? [xAxis, yAxis] : [yAxis, xAxis];
  if (catAxis?.type === 'category' && Array.isArray(catAxis.data) && series.every((s) => s.data.every((d) => !Array.isArray(valueOf(d))))) {
    const cats = catAxis.data.map((c) => valueOf(c));
    const rows = [[axisName(catAxis, 'category'), ...series.map((s, j) => s.name ?? `${axisName(valueAxis, 'value')}${series.length > 1 ? ` ${j + 1}` : ''}`)]];
    cats.forEach((c, i) => rows.push([c, ...series.map((s) => valueOf(s.data[i]))]));
    return rows;
  }
  // One row per item.
  const width = Math.max(1, ...series.flatMap((s) => s.data.map((d) => { const v = valueOf(d); return Array.isArray(v) ? v.length : 1; })));
  const dims = series.find((s) => Array.isArray(s.dimensions))?.dimensions?.map((d) => (typeof d === 'object' ? d.name : d)) ?? [];
  const names = Array.from({ length: width }, (_, i) => dims[i] ?? `value ${i + 1}`);
  // Which dimension holds an index into a category axis (its label is added).
  const catDim = (s, axisKey, axis) => {
    if (axis?.type !== 'category' || !Array.isArray(axis.data)) return -1;
    const enc = s.encode?.[axisKey];
    const d = Array.isArray(enc) ? enc[0] : enc;
    if (typeof d === 'number') return d;
    if (typeof d === 'string') return names.indexOf(d);
    return s.type === 'heatmap' ? (axisKey === 'x' ? 0 : 1) : -1;
  };
  const labelCols = [];
  const first = series[0];
  for (const [key, axis] of [['x', xAxis], ['y', yAxis]]) {
    const d = first ? catDim(first, key, axis) : -1;
    if (d >= 0 && series.every((t) => catDim(t, key, axis) === d)) labelCols.push({ d, axis, name: `${names[d]} label` });
  }
  const rows = [['series', ...names, ...labelCols.map((c) => c.name)]];
  for (const s of series) {
    for (const d of s.data) {
      const v = valueOf(d);
      const vals = Array.isArray(v) ? v : [v];
      const padded = Array.from({ length: width }, (_, i) => vals[i]);
      rows.push([s.name ?? s.type, ...padded, ...labelCols.map((c) => valueOf(c.axis.data[vals[c.d]]))]);
    }
  }
  return rows;
}

/** A table.data as CSV rows: header texts, then every cell (all digits where the page keeps them). */
export function tableCsvRows(table) {
  const rows = [];
  const head = table.querySelector('thead tr');
  if (head) rows.push([...head.children].map((th) => th.textContent.trim()));
  for (const tr of table.querySelectorAll('tbody tr')) {
    rows.push([...tr.children].map((td) => {
      const raw = td.getAttribute('data-value');
      return raw !== null && raw !== '' && Number.isFinite(Number(raw)) ? Number(raw) : td.textContent.trim();
    }));
  }
  return rows;
}

/** A summary (dl.summary) as CSV rows: quantity, note, value, unit. */
export function summaryCsvRows(dl) {
  const rows = [['quantity', 'note', 'value', 'unit']];
  for (const item of dl.querySelectorAll(':scope > .item')) {
    const dt = item.querySelector('dt');
    const dd = item.querySelector('dd');
    const hint = dt.querySelector('.hint')?.textContent.trim() ?? '';
    const label = [...dt.childNodes].filter((n) => !(n.classList?.contains('hint'))).map((n) => n.textContent).join('').trim();
    const unit = dd.querySelector('.unit')?.textContent.trim() ?? '';
    const raw = dd.getAttribute('data-value');
    const shown = [...dd.childNodes].filter((n) => !(n.classList?.contains('unit'))).map((n) => n.textContent).join('').trim();
    rows.push([label, hint, raw !== null ? Number(raw) : shown, unit]);
  }
  return rows;
}

// ---- the menu ---------------------------------------------------------------

function safeName(s) {
  return String(s).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'export';
}

/**
 * An "Export" disclosure for `scope` (a panel card, a gallery figure): lists,
 * when opened, what `scope` holds at that moment. `info()` returns {title,
 * subtitle, description} for the images; files are named `${basename}-…`.
 */
export function exportMenu(scope, { basename, info = () => ({}) }) {
  const items = el('div', { class: 'export-items' });
  const status = el('span', { class: 'export-status', role: 'status', 'aria-live': 'polite' });
  const menu = el('details', { class: 'export-menu', 'data-testid': 'export-menu' },
    el('summary', { title: 'Save this panel’s charts and tables as files' }, 'Export'), items, status);
  const done = (name, size) => { status.textContent = `${name} saved (${size.toLocaleString('en')} bytes)`; };
  const run = (fn) => async () => {
    status.textContent = '';
    try {
      await fn();
    } catch (e) {
      status.textContent = `Not exported: ${e.message}`;
    }
  };
  const button = (label, testid, fn, title) => el('button', { type: 'button', class: 'ghost small', 'data-testid': testid, title, onclick: run(fn) }, label);

  function build() {
    const rows = [];
    const base = safeName(basename());
    const charts = [...scope.querySelectorAll('.chart')].filter((box) => !box.closest('[hidden]'));
    for (const box of charts) {
      const chart = echarts.getInstanceByDom(box);
      if (!chart || chart.isDisposed()) continue;
      const key = box.dataset.chart ?? 'chart';
      const name = `${base}-${safeName(key)}`;
      const meta = () => ({ ...info(box), description: box.dataset.description ?? '' });
      rows.push(el('div', { class: 'export-group' },
        el('span', { class: 'export-what', text: `${box.dataset.label || key} chart` }),
        button('SVG', `export-svg-${key}`, () => {
          const text = chartSvg(chart, meta());
          saveText(text, `${name}.svg`, 'image/svg+xml');
          done(`${name}.svg`, text.length);
        }, 'vector image, for print and slides'),
        button('PNG', `export-png-${key}`, async () => {
          const blob = await chartPng(chart, meta());
          saveBlob(blob, `${name}.png`);
          done(`${name}.png`, blob.size);
        }, 'image at twice the screen’s pixels'),
        button('CSV', `export-csv-${key}`, () => {
          const text = toCsv(chartCsvRows(chart));
          saveText(text, `${name}.csv`, 'text/csv');
          done(`${name}.csv`, text.length);
        }, 'the data behind the chart')));
    }
    [...scope.querySelectorAll('dl.summary')].filter((d) => !d.closest('[hidden]')).forEach((dl, i) => {
      const name = `${base}-summary${i ? `-${i + 1}` : ''}`;
      rows.push(el('div', { class: 'export-group' }, el('span', { class: 'export-what', text: 'numbers' }),
        button('CSV', `export-summary${i ? `-${i}` : ''}`, () => {
          const text = toCsv(summaryCsvRows(dl));
          saveText(text, `${name}.csv`, 'text/csv');
          done(`${name}.csv`, text.length);
        }, 'the numbers shown, with all their digits')));
    });
    // A chart's data table (context.js) is its chart's CSV already.
    [...scope.querySelectorAll('table.data')].filter((t) => !t.closest('[hidden], .chart-table')).forEach((table, i) => {
      const name = `${base}-table${i ? `-${i + 1}` : ''}`;
      rows.push(el('div', { class: 'export-group' }, el('span', { class: 'export-what', text: table.caption?.textContent || 'table' }),
        button('CSV', `export-table-${i}`, () => {
          const text = toCsv(tableCsvRows(table));
          saveText(text, `${name}.csv`, 'text/csv');
          done(`${name}.csv`, text.length);
        }, 'the table, with all the digits')));
    });
    if (rows.length === 0) rows.push(el('span', { class: 'export-none', text: 'Nothing to export here yet.' }));
    items.replaceChildren(...rows);
  }
  // Built as the menu opens (on the click, so the items are there at once, and on toggle).
  menu.querySelector('summary').addEventListener('click', () => { if (!menu.open) build(); });
  menu.addEventListener('toggle', () => { if (menu.open && !items.childElementCount) build(); });
  // Escape closes it, as any menu, and gives the focus back to its button.
  menu.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || !menu.open) return;
    e.preventDefault();
    menu.open = false;
    menu.querySelector('summary').focus();
  });
  return menu;
}
