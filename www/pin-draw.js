// A pinned chart beside the view's own (pin.js keeps the pin): the pinned
// lines drawn over a line chart with the same axes, dashed and lighter,
// each named "… (pinned)"; any other chart (a Gantt chart, a heatmap,
// bars, other axes) drawn again in a box of its own below the view's,
// captioned with the pinned parameters, its value axes shared with the
// view's chart where both fix their bounds (two schedules on one time scale).

import { el } from './form.js';
import { isNum } from './format.js';
import { logRange } from './charts.js';
import { accessibleChart } from './chart-access.js';

const OVERLAID = new Set(['line', 'scatter']);

/** The one axis `name` of `option` (null for several: they are not compared). */
function axisOf(option, name) {
  const a = option[name];
  if (!Array.isArray(a)) return a ?? null;
  return a.length === 1 ? a[0] : null;
}

/** True when both options draw the same quantities on the same kind of axes. */
function sameAxes(now, pinned, { categories = false } = {}) {
  return ['xAxis', 'yAxis'].every((name) => {
    const a = axisOf(now, name);
    const b = axisOf(pinned, name);
    return a && b && a.type === b.type && (categories || a.type !== 'category') && a.name === b.name;
  });
}

/** A pinned line: dashed (a dashed one dotted), lighter, behind the view's. */
function pinnedSeries(s) {
  const dashed = s.lineStyle?.type && s.lineStyle.type !== 'solid';
  return {
    ...s,
    name: `${s.name ?? ''} (pinned)`,
    markLine: undefined,
    markPoint: undefined,
    markArea: undefined,
    // Hollow marks: a line shows none but in its legend entry (dashed there too), on hover and to the keys.
    symbol: s.type === 'scatter' ? 'emptyDiamond' : 'emptyCircle',
    showSymbol: s.type === 'scatter',
    lineStyle: { ...s.lineStyle, type: dashed ? 'dotted' : 'dashed', opacity: 0.75 },
    itemStyle: { ...s.itemStyle, opacity: 0.75 },
    z: 1,
  };
}

/**
 * Axis `a` widened to hold what axis `b` holds too, where `a` fixes its
 * bounds: a logarithmic one at whole decades of both charts' data
 * (`series`, dimension `dim`), another to the wider of the two.
 */
function widened(a, b, series, dim) {
  if (!isNum(a.min) && !isNum(a.max)) return a;
  if (a.type === 'log') return { ...a, ...logRange(series, dim) };
  const out = { ...a };
  if (isNum(a.min) && isNum(b.min)) out.min = Math.min(a.min, b.min);
  if (isNum(a.max) && isNum(b.max)) out.max = Math.max(a.max, b.max);
  return out;
}

/** The tallest bar of `series` (items over categories: each its value), or undefined if one is negative. */
function tallest(series) {
  let top = 0;
  for (const s of series) {
    for (const d of s.data ?? []) {
      const v = d !== null && typeof d === 'object' ? d.value : d;
      if (!isNum(v)) continue;
      if (v < 0) return undefined;
      top = Math.max(top, v);
    }
  }
  return top > 0 ? top : undefined;
}

/** `x` rounded up at its first digit (38.2 -> 40): the top of a value axis both charts share. */
function roundedUp(x) {
  const unit = 10 ** Math.floor(Math.log10(x));
  return Math.ceil(x / unit) * unit;
}

/**
 * Both options with their value axes holding the data of both (one scale
 * to compare on): bounds either fixes widened, and bars over categories
 * (an axis neither bounds) up to the taller one's.
 */
function sharedAxes(now, pinned, series) {
  const a = { ...now };
  const b = { ...pinned };
  for (const [name, dim] of [['xAxis', 0], ['yAxis', 1]]) {
    const x = axisOf(now, name);
    const y = axisOf(pinned, name);
    if (!x || !y || x.type === 'category' || x.type !== y.type || x.name !== y.name) continue;
    const across = axisOf(now, name === 'xAxis' ? 'yAxis' : 'xAxis');
    const top = x.type === 'value' && across?.type === 'category' && !isNum(x.max) && !isNum(y.max) ? tallest(series) : undefined;
    a[name] = top ? { ...x, max: roundedUp(top) } : widened(x, y, series, dim);
    b[name] = top ? { ...y, max: roundedUp(top) } : widened(y, x, series, dim);
  }
  return [a, b];
}

/** `now` with the pinned option's lines drawn over it, or null when they cannot be. */
function overlaid(now, pinned) {
  const lines = (o) => Array.isArray(o.series) && o.series.length > 0 && o.series.every((s) => OVERLAID.has(s.type));
  if (!lines(now) || !lines(pinned) || !sameAxes(now, pinned)) return null;
  const extra = pinned.series.map(pinnedSeries);
  const series = [...now.series, ...extra];
  const [option] = sharedAxes({ ...now, series }, pinned, series);
  // A legend that lists its entries lists the pinned ones too.
  const legend = (l) => (Array.isArray(l?.data) ? { ...l, data: [...l.data, ...extra.map((s) => s.name)] } : l);
  if (now.legend) option.legend = Array.isArray(now.legend) ? now.legend.map(legend) : legend(now.legend);
  return option;
}

/** The box below chart `c` that says what is pinned, and holds the pinned chart when it is drawn apart. */
function extraOf(c) {
  if (!c.pinEl?.isConnected) {
    c.pinEl = el('figure', { class: 'pinned-chart' }, el('figcaption', { class: 'pin-caption' }));
    c.tools.after(c.pinEl);
  }
  return c.pinEl;
}

/** The chart drawn apart in `fig`, made once. */
function besideChart(c, fig, key, record) {
  if (c.pinChart && !c.pinChart.chart.isDisposed()) return c.pinChart;
  const box = el('div', { class: record.className, 'data-chart': `${key}-pinned`, 'data-testid': `pinned-chart-${key}` });
  box.style.height = record.height;
  box.tabIndex = 0;
  box.setAttribute('role', 'img');
  fig.append(box);
  const made = accessibleChart(box, `${key}-pinned`, { onResize: record.onResize });
  fig.append(made.tools);
  c.pinChart = made;
  return made;
}

/** Data items compared at most: a larger chart pinned is drawn again rather than compared. */
const COMPARED = 50000;

/** True when two options draw the same (their functions, tooltips say, aside). */
function sameDrawing(a, b) {
  const size = (o) => (o.series ?? []).reduce((n, s) => n + (s.data?.length ?? 0), 0);
  if (size(a) + size(b) > COMPARED) return false;
  const drawn = (o) => JSON.stringify([o.series, o.xAxis, o.yAxis]);
  return drawn(a) === drawn(b);
}

/** The pinned chart drawn apart no more. */
function dropBeside(c, fig) {
  c.pinChart?.chart.dispose();
  c.pinChart = null;
  fig.querySelector('.chart')?.remove();
  fig.querySelector('.chart-tools')?.remove();
}

/** Takes the pinned drawing away from chart `c`. */
export function clearPinned(c) {
  if (!c.pinEl) return;
  dropBeside(c, c.pinEl);
  c.pinEl.remove();
  c.pinEl = null;
}

/**
 * The option chart `c` (key `key`) draws when `record` is pinned for it
 * ({option, height, className, onResize}, the pinned chart's): the view's
 * `option` with the pinned lines over it, or as it is, with the pinned
 * chart drawn below it (unless it draws the same). `caption` names the
 * pinned parameters.
 */
export function withPinned(key, c, option, record, caption) {
  const fig = extraOf(c);
  const label = fig.querySelector('figcaption');
  const over = overlaid(option, record.option);
  if (over || sameDrawing(option, record.option)) {
    dropBeside(c, fig);
    fig.dataset.pinned = over ? 'over' : 'same';
    label.textContent = over ? `Dashed lines, “(pinned)”: the pinned result, ${caption}.` : `The pinned result (${caption}) draws the same chart.`;
    return over ?? option;
  }
  fig.dataset.pinned = 'beside';
  label.textContent = `Pinned: ${caption}.`;
  const series = [...(option.series ?? []), ...(record.option.series ?? [])];
  const [now, pinned] = sameAxes(option, record.option, { categories: true }) ? sharedAxes(option, record.option, series) : [option, record.option];
  const { chart } = besideChart(c, fig, key, record);
  const box = chart.getDom();
  box.dataset.label = `${c.box.dataset.label ?? key} (pinned)`;
  box.dataset.description = `${box.dataset.label}: ${caption}.`;
  box.setAttribute('aria-label', box.dataset.description);
  chart.setOption(pinned, { notMerge: true });
  record.onResize?.(chart);
  return now;
}
