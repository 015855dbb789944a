// Shared chart helpers on the vendored Apache ECharts (www/vendor/echarts):
// a resizing chart mount, the colours of both schemes, a categorical grid
// heatmap, and x-y sweep charts (the Gantt chart is gantt.js).

import * as echarts from './vendor/echarts/echarts.custom.min.js';
import { fmt, isNum } from './format.js';

export { echarts };

const LIGHT = {
  comm: '#c96f12',
  compute: '#2f6fdb',
  // Results sent back (Gantt charts with a return phase).
  result: '#1f9e74',
  idle: '#e6e8ec',
  text: '#1f2733',
  muted: '#5d6b7e',
  grid: '#e3e7ee',
  bg: '#ffffff',
  // Reference lines and marks (a bound, the paper's values, Cmax), and what
  // stands out (a solved point, the real makespan): 3:1 or more on bg.
  reference: '#6f7a8a',
  alert: '#d14b3f',
  // The part of viridis that reads at 4.5:1 on bg, for lines and their labels (rampColor's span).
  ramp: [0, 0.43],
  series: ['#2f6fdb', '#c96f12', '#1f9e74', '#c2408f', '#7a5cd6', '#8c6d1f', '#2a8cb2', '#d14b3f'],
};

// The same hues, lighter, for a dark background (prefers-color-scheme: dark).
const DARK = {
  comm: '#f0a04b',
  compute: '#6b9bf2',
  result: '#3cc497',
  idle: '#394150',
  text: '#e3e8ef',
  muted: '#a7b2c2',
  grid: '#313a48',
  bg: '#1a2029',
  reference: '#8d99ab',
  alert: '#f07468',
  ramp: [5 / 9, 1],
  series: ['#6b9bf2', '#f0a04b', '#3cc497', '#e56bb3', '#a18bf3', '#d1ad52', '#62c3e8', '#f07468'],
};

/**
 * The chart colours of the current colour scheme. Views read them when they
 * build an option, so after setScheme() a re-render draws in the new scheme.
 */
export const COLORS = { ...LIGHT, series: [...LIGHT.series] };

let dark = false;

/** Switches the chart colours to the dark (true) or light scheme. */
export function setScheme(isDark) {
  dark = !!isDark;
  const p = dark ? DARK : LIGHT;
  Object.assign(COLORS, p, { series: [...p.series] });
  // The legends drawn in HTML (style.css, --chart-*) take the charts' colours from here.
  for (const key of ['comm', 'compute', 'result', 'reference', 'alert']) document.documentElement.style.setProperty(`--chart-${key}`, p[key]);
}

export function isDark() {
  return dark;
}

// Viridis ramp: activation phases are ordered in time, so the colours are too.
const VIRIDIS = ['#440154', '#482878', '#3e4989', '#31688e', '#26828e', '#1f9e89', '#35b779', '#6ece58', '#b5de2b', '#fde725'];

/**
 * The colour of category `i` of `n` ordered ones, sampled evenly along
 * viridis, or along its part `span` (fractions of it; `COLORS.ramp` for
 * lines, which must read on the chart's background).
 */
export function rampColor(i, n, [from, to] = [0, 1]) {
  const u = n <= 1 ? 0 : Math.min(1, Math.max(0, i / (n - 1)));
  const t = (from + (to - from) * u) * (VIRIDIS.length - 1);
  const j = Math.min(VIRIDIS.length - 2, Math.floor(t));
  const f = t - j;
  const a = hex(VIRIDIS[j]);
  const b = hex(VIRIDIS[j + 1]);
  return `rgb(${a.map((x, k) => Math.round(x + (b[k] - x) * f)).join(',')})`;
}

/** `color` (#hex) at opacity `a`: a lighter shade of a scheme's colour. */
export function alpha(color, a) {
  return `rgba(${hex(color).join(', ')}, ${a})`;
}

/** Black or white, whichever reads better on `color` (rgb() or #hex). */
export function inkOn(color) {
  const c = color.startsWith('#') ? hex(color) : color.match(/\d+/g).map(Number);
  const lum = (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255;
  return lum > 0.5 ? '#111' : '#fff';
}

function hex(h) {
  return [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
}

// Single quotes: ECharts' SVG renderer writes the family into a style="…" attribute unescaped.
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

// Getters: `...BASE` reads the colours of the scheme in force.
export const BASE = {
  animation: false,
  get textStyle() { return { fontFamily: FONT, color: COLORS.text }; },
  get color() { return COLORS.series; },
};

/**
 * Starts an ECharts instance in `el` that follows the element's size.
 * `onResize(chart)` runs after each resize (e.g. to keep a grid square),
 * `onOption(chart)` after each option with series (its data may have changed).
 */
export function mountChart(el, { renderer = 'canvas', onResize, onOption } = {}) {
  const chart = echarts.init(el, null, { renderer });
  // Every whole option (one with series) gets a transparent background (the
  // card's colour shows, in either scheme) and ECharts' aria description,
  // the text the page keeps in the box's data-description.
  const set = chart.setOption.bind(chart);
  chart.setOption = (option, ...rest) => {
    if (option && typeof option === 'object' && option.series) {
      option = themed({ backgroundColor: 'transparent', ...option, aria: option.aria ?? ariaOption(el) });
    }
    // Drawn on the next frame, once, however many times the option changes
    // before (a view's option, then its layout: a heatmap drawn twice took
    // 200 ms of the main thread).
    const opts = rest[0] === true ? { notMerge: true } : { ...(rest[0] ?? {}) };
    opts.lazyUpdate = true;
    const out = set(option, opts);
    // The model is set at once (only the drawing waits): what reads the data (the keys, the data table) may read it now.
    if (option?.series) onOption?.(chart);
    return out;
  };
  let frame = 0;
  let size = `${el.clientWidth}x${el.clientHeight}`;
  // Only a real change of size redraws: a hidden tab (0 x 0) and the same
  // tab shown again cost nothing (a redraw of every chart of a view on each
  // tab switch blocked the main thread for a few hundred ms).
  const ro = new ResizeObserver(() => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => {
      if (chart.isDisposed()) return;
      const w = el.clientWidth;
      const h = el.clientHeight;
      if (w === 0 || h === 0 || `${w}x${h}` === size) return;
      size = `${w}x${h}`;
      chart.resize();
      onResize?.(chart);
    });
  });
  ro.observe(el);
  const dispose = chart.dispose.bind(chart);
  chart.dispose = () => { ro.disconnect(); dispose(); };
  return chart;
}

/**
 * Text colours ECharts' components keep to themselves (legend, data zoom)
 * made those of the scheme in force, unless the option sets them.
 */
export function themed(option) {
  const fix = (part, key = 'textStyle') => {
    if (!part) return part;
    const list = Array.isArray(part) ? part : [part];
    const out = list.map((p) => (p && typeof p === 'object' && !p[key]?.color ? { ...p, [key]: { ...p[key], color: COLORS.text } } : p));
    return Array.isArray(part) ? out : out[0];
  };
  const o = { ...option, legend: fix(option.legend), dataZoom: fix(option.dataZoom) };
  if (!option.legend) delete o.legend;
  if (!option.dataZoom) delete o.dataZoom;
  if (dark && o.dataZoom) {
    o.dataZoom = (Array.isArray(o.dataZoom) ? o.dataZoom : [o.dataZoom]).map((z) => (z.type === 'slider' ? {
      borderColor: '#3a4453', backgroundColor: 'rgba(255,255,255,0.03)', fillerColor: 'rgba(107,155,242,0.18)',
      dataBackground: { lineStyle: { color: '#56657a' }, areaStyle: { color: '#2a3340' } },
      handleStyle: { color: '#3a4453', borderColor: '#8595ab' }, moveHandleStyle: { color: '#56657a' },
      ...z,
    } : z));
  }
  if (dark && option.tooltip && !Array.isArray(option.tooltip)) {
    o.tooltip = { backgroundColor: '#242b36', borderColor: '#3a4453', ...option.tooltip, textStyle: { color: COLORS.text, ...option.tooltip.textStyle } };
  }
  return o;
}

/** ECharts' aria option: the description a screen reader reads for the chart. */
export function ariaOption(el) {
  const description = el?.dataset?.description;
  return { enabled: true, label: description ? { description } : { enabled: true } };
}

export function axisLabel(formatter = (v) => fmt(v, 4)) {
  return { color: COLORS.muted, formatter, hideOverlap: true };
}

// A getter, so that the grid lines follow the colour scheme.
export const lines = { get splitLine() { return { lineStyle: { color: COLORS.grid } }; } };

/**
 * A size x size grid coloured by category, for the torus activation map.
 * `cells[y*size+x]` is the category (>= 0) or null/-1 for an idle cell;
 * `pieces` are [{value, label, color}]; `tooltip(x, y, value)` returns HTML.
 */
export function gridHeatmapOption({ size, cells, pieces, tooltip, labels = false }) {
  const n = size * size;
  const cat = (v) => (isNum(v) && v >= 0 ? v : -1);
  // A 625 x 625 map has 390 625 cells, too many canvas rectangles to draw
  // at once: the most frequent category becomes the grid's background and
  // only the other cells are drawn.
  const huge = size > 125;
  let background;
  if (huge) {
    const counts = new Map();
    for (let i = 0; i < n; i++) counts.set(cat(cells[i]), (counts.get(cat(cells[i])) ?? 0) + 1);
    background = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  }
  const ink = new Map(pieces.map((p) => [p.value, inkOn(p.color)]));
  const data = [];
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const v = cat(cells[y * size + x]);
      if (huge && v === background) continue;
      const value = [x, y, v];
      data.push(labels ? { value, label: { color: ink.get(v) ?? '#111' } } : value);
    }
  }
  const backgroundColor = huge ? pieces.find((p) => p.value === background)?.color : undefined;
  const cats = Array.from({ length: size }, (_, i) => i);
  const big = size > 25;
  const axis = (inverse) => ({
    type: 'category', data: cats, inverse,
    axisTick: { show: size < 25 }, axisLine: { show: false },
    axisLabel: { color: COLORS.muted, interval: size >= 25 ? size / 5 - 1 : 0, fontSize: 10 },
    splitArea: { show: false },
  });
  return {
    ...BASE,
    tooltip: big && size > 125 ? undefined : { trigger: 'item', confine: true, formatter: (p) => tooltip?.(p.value[0], p.value[1], p.value[2]) ?? '' },
    grid: { left: 34, top: 8, right: 8, bottom: 24, show: huge, backgroundColor, borderWidth: 0 },
    xAxis: { ...axis(false), position: 'bottom' },
    yAxis: axis(true),
    visualMap: {
      type: 'piecewise', dimension: 2, orient: 'horizontal', left: 'center', bottom: 0,
      pieces: pieces.map((p) => ({ value: p.value, label: p.label, color: p.color })),
      itemWidth: 14, itemHeight: 12, textStyle: { color: COLORS.text, fontSize: 12 }, show: false,
    },
    series: [{
      type: 'heatmap', data, dimensions: ['x', 'y', 'category'],
      progressive: huge ? 10000 : 0,
      progressiveThreshold: 20000,
      label: {
        show: labels, fontSize: size <= 5 ? 14 : 10,
        formatter: (p) => (p.value[2] >= 0 ? String(p.value[2]) : ''),
      },
      itemStyle: { borderColor: size <= 25 ? COLORS.bg : undefined, borderWidth: size <= 25 ? 1 : 0 },
      emphasis: big ? { disabled: true } : { itemStyle: { borderColor: COLORS.text, borderWidth: 1 } },
      silent: size > 125,
    }],
  };
}

/**
 * Keeps a heatmap's cells square by fitting the grid into the chart's box,
 * and shows cell labels only where a cell is at least `labelCell` px wide.
 */
export function squareGrid(chart, { size, labels = false, labelCell = 15, padLeft = 34, padBottom = 24, pad = 8 } = {}) {
  const w = chart.getWidth() - padLeft - pad;
  const h = chart.getHeight() - padBottom - pad;
  const s = Math.max(40, Math.min(w, h));
  const option = { grid: { left: padLeft + Math.max(0, (w - s) / 2), top: pad, width: s, height: s } };
  if (size) option.series = [{ label: { show: labels && s / size >= labelCell } }];
  chart.setOption(option);
}

/** Rows a legend of `names` takes in a chart `width` px wide (an estimate). */
function legendRows(names, width) {
  let rows = 1;
  let x = 0;
  for (const n of names) {
    const w = 30 + 6.6 * n.length;
    if (x > 0 && x + w > width - 40) {
      rows++;
      x = 0;
    }
    x += w;
  }
  return rows;
}

/** Makes room above a sweep chart's grid for its (wrapping) legend. */
export function fitLegend(chart) {
  const option = chart.getOption();
  const shown = option?.legend?.[0]?.formatter;
  const names = (option?.series ?? []).map((s) => (typeof shown === 'function' ? shown(s.name ?? '') : s.name ?? ''));
  const rows = legendRows(names, chart.getWidth());
  chart.setOption({ grid: { top: 22 * rows + 24 } });
}

/**
 * An x-y chart of sweeps: `series` = [{name, data: [[x, y], ...], dashed?, lineType?, points?}] (a bound drawn 'dotted' beside a dashed one;
 * `points`: marks without a line, as a paper's printed values),
 * `markX` draws a vertical line at the current parameter value.
 */
export function sweepOption({ series, xName, yName, xLog = false, yLog = false, xInteger = false, markX, markLabel }) {
  const under = coinciding(series, yLog);
  // Several lines over one: their dashes staggered, so that each shows.
  const stagger = new Map([...under.keys()].map((name, k) => [name, 4 * k]));
  return {
    ...BASE,
    // A line drawn over an earlier one with the same points, or points the
    // eye cannot tell apart, hides it: its legend entry says so, and it is
    // dashed so that the other shows through.
    legend: { top: 0, type: 'plain', itemWidth: 18, itemHeight: 10, itemGap: 12, formatter: (name) => (under.has(name) ? `${name} (${under.get(name)})` : name) },
    tooltip: {
      trigger: 'axis', confine: true,
      valueFormatter: (v) => fmt(v),
      axisPointer: { type: 'line', label: { formatter: (p) => fmt(p.value) } },
    },
    grid: { left: 14, right: 28, top: 40, bottom: 30, outerBoundsMode: 'same', outerBoundsContain: 'all' },
    xAxis: {
      type: xLog ? 'log' : 'value', name: xName, nameLocation: 'middle', nameGap: 28,
      min: 'dataMin', max: 'dataMax', minInterval: xInteger ? 1 : undefined,
      axisLabel: axisLabel(), splitLine: lines.splitLine,
    },
    yAxis: { type: yLog ? 'log' : 'value', name: yName, nameLocation: 'middle', nameGap: 36, nameTextStyle: { color: COLORS.muted }, axisLabel: axisLabel(), splitLine: lines.splitLine, scale: false },
    series: series.map((s, i) => (s.points ? {
      name: s.name, type: 'scatter', data: s.data, symbol: 'diamond', symbolSize: 12,
      color: s.color ?? COLORS.text, itemStyle: { borderColor: COLORS.bg, borderWidth: 1 },
    } : {
      name: s.name, type: 'line', data: s.data, showSymbol: s.data.length <= 30, connectNulls: false,
      symbol: s.dashed ? 'none' : SYMBOLS[i % SYMBOLS.length], symbolSize: 6,
      lineStyle: under.has(s.name) ? { width: 2, type: [6, 6], dashOffset: stagger.get(s.name) } : { width: s.dashed ? 1.5 : 2, type: s.dashed ? s.lineType ?? 'dashed' : 'solid' },
      color: s.color ?? COLORS.series[i % COLORS.series.length],
      emphasis: { focus: 'series' },
      markLine: i === 0 && isNum(markX) ? {
        silent: true, symbol: 'none', label: { formatter: markLabel ?? fmt(markX), color: COLORS.muted },
        lineStyle: { color: COLORS.reference, type: 'dotted' }, data: [{ xAxis: markX }],
      } : undefined,
    })),
  };
}

const SYMBOLS = ['circle', 'triangle', 'rect', 'diamond', 'emptyCircle', 'emptyTriangle'];

/**
 * Lines drawn over an earlier line: name -> "= earlier" where every point
 * is the earlier line's (same x, y within 1e-9 relative), "≈ earlier"
 * where every point lies within 1/200 of the value axis's span of it
 * (log10 values on a log axis), about a line's width on a chart 300 px
 * high. Marks (`points`) are left out.
 */
export function coinciding(series, yLog = false) {
  const lines = series.filter((s) => !s.points && s.data?.length);
  const y = (v) => (isNum(v) && (!yLog || v > 0) ? (yLog ? Math.log10(v) : v) : null);
  const ys = lines.flatMap((s) => s.data.map((p) => y(p?.[1]))).filter((v) => v !== null);
  const near = (Math.max(...ys) - Math.min(...ys)) / 200;
  const close = (a, b, tol) => a.data.length === b.data.length && a.data.every((p, k) => {
    const q = b.data[k];
    if (p?.[0] !== q?.[0]) return false;
    if (p?.[1] === q?.[1]) return true;
    const [u, v] = tol === 'same' ? [p?.[1], q?.[1]] : [y(p?.[1]), y(q?.[1])];
    if (!isNum(u) || !isNum(v)) return false;
    return Math.abs(u - v) <= (tol === 'same' ? 1e-9 * Math.max(Math.abs(u), Math.abs(v)) : near);
  });
  const out = new Map();
  lines.forEach((s, i) => {
    const earlier = lines.slice(0, i).filter((t) => !out.has(t.name));
    const same = earlier.find((t) => close(s, t, 'same'));
    const by = same ?? earlier.find((t) => close(s, t, 'near'));
    if (by) out.set(s.name, `${same ? '=' : '≈'} ${by.name}`);
  });
  return out;
}

/** Log-spaced values from 10^a to 10^b with `perDecade` points per decade. */
export function logSpace(a, b, perDecade) {
  const out = [];
  const n = Math.round((b - a) * perDecade);
  for (let i = 0; i <= n; i++) out.push(Number((10 ** (a + i / perDecade)).toPrecision(6)));
  return out;
}

/** The integers a, a + 1, …, b. */
export function range(a, b) {
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
}

/**
 * Bounds for a logarithmic axis that just hold the positive values of
 * `series` ([{data: [[x, y], ...]}]), at whole decades, and a tick interval
 * (in decades: ECharts' own choice for wide ranges skips most of them);
 * {} when there is nothing positive to show.
 */
export function logRange(series, dim = 1) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of series) {
    for (const p of s.data) {
      const v = p?.[dim];
      if (isNum(v) && v > 0) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
  }
  if (!(lo <= hi)) return {};
  let a = Math.floor(Math.log10(lo) + 1e-9);
  let b = Math.ceil(Math.log10(hi) - 1e-9);
  if (a === b) {
    a -= 1;
    b += 1;
  }
  const interval = b - a <= 8 ? 1 : b - a <= 16 ? 2 : Math.ceil((b - a) / 8);
  b = a + Math.ceil((b - a) / interval) * interval;
  return { min: 10 ** a, max: 10 ** b, interval };
}
