// The isoefficiency map's drawing: the two maps of Figs. 1-2 of [003] (the
// MAX line and the isolines as steps over m, a click solving that point)
// and Table 1 beside the paper's. The map's data come from isomap.js.

import { fmt, fmtInt, isNum } from '../format.js';
import { sweepOption, rampColor, COLORS } from '../charts.js';
import { el, fill, table } from '../ui.js';

// Table 1 of [003]: n = 20, the reference instance, Gurobi 300 s per MIP
// (exported for tests/browser/printed.test.mjs).
export const TABLE1 = {
  m: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
  E_max: [34.2, 34.0, 33.7, 33.4, 33.2, 32.8, 32.4, 31.5, 30.9, 30.4, 29.6, 28.7, 27.7, 26.7, 25.7, 24.8, 23.8, 22.9, 22.1],
  V_max: [134485, 120827, 123329, 105097, 119663, 95748, 106921, 115514, 75048, 81394, 86545, 90457, 94532, 98591, 99460, 100506, 100354, 99708, 102240],
};
const REFERENCE = { a1: 0.109, a2: 4.132, b2: -27109, C: 0.005, O: 0.075, S: 25.4, n: 20 };

const paperAt = (m, what) => {
  const i = TABLE1.m.indexOf(m);
  return i >= 0 ? TABLE1[what][i] : undefined;
};

export function mapPanel(ctx) {
  const body = ctx.panel('map', {
    title: 'Isoefficiency map (Figs. 1–2 of [003])',
    note: 'Horizontal: machines m (a discrete variable, so the lines are steps); vertical: the load V in MB, logarithmic. MAX is V_max(m), the load of highest efficiency; each isoline is labelled with its efficiency e. Click a line (or anywhere in a chart), or reach a point with the arrow keys and press Enter, to solve that m and V alone: its schedule appears below.',
    wide: true,
  });
  if (!body.querySelector('.isomap-grid')) {
    const figure = (side, caption) => el('figure', { style: 'margin:0;min-width:0', 'data-side': side },
      el('figcaption', { style: 'font-size:13.5px;font-weight:600;margin:0 0 2px', text: caption }),
      el('div', { class: 'isomap-holder' }));
    body.dataset.testid = 'isomap';
    fill(body,
      el('div', { class: 'isomap-status' }),
      el('div', { class: 'isomap-grid', style: 'display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,420px),1fr));gap:14px' },
        figure('below', 'Below V_max (like Fig. 1)'),
        figure('above', 'Above V_max (like Fig. 2)')));
  }
  return body;
}


/**
 * The step line of `values` (one per m, or null) as data of a line series:
 * each m covers [m − ½, m + ½], with a symbol at m; gaps break the line.
 */
/** The columns of a step line's items: its exports' CSV header. */
const STEP_DIMENSIONS = ['x (m ± 0.5, the step)', 'V [MB]', 'machines m'];

function steps(ms, values, extra = () => ({})) {
  const data = [];
  ms.forEach((m, i) => {
    const y = values[i];
    if (!isNum(y) || y <= 0) {
      if (data.length && data[data.length - 1].value[1] !== '-') data.push({ value: [m, '-'] });
      return;
    }
    data.push({ value: [m - 0.5, y, m], symbol: 'none' });
    data.push({ value: [m, y, m], ...extra(m, y) });
    data.push({ value: [m + 0.5, y, m], symbol: 'none' });
  });
  return data;
}

/** Where the last real point of a step line is, to put its label there. */
function labelLast(data, text, color) {
  for (let i = data.length - 1; i >= 0; i--) {
    if (data[i].value[1] !== '-' && data[i].symbol !== 'none') {
      data[i] = { ...data[i], label: { show: true, position: 'right', distance: 8, formatter: text, color, fontWeight: 600, fontSize: 11.5 } };
      return data;
    }
  }
  return data;
}

function lineValues(map, side, e) {
  return map.ms.map((m) => {
    const res = map.data.get(m);
    const line = res?.isolines?.find((l) => l.e === e);
    const y = line?.[side]?.[0];
    return isNum(y) ? y : null;
  });
}

/** A log axis that just holds `values`, at 1-2-5 steps. */
function logBounds(values) {
  const ys = values.filter((y) => isNum(y) && y > 0);
  if (!ys.length) return {};
  const nice = (x, up) => {
    const p = 10 ** Math.floor(Math.log10(x));
    const steps = [1, 2, 5, 10];
    const f = x / p;
    return p * (up ? steps.find((s) => s >= f - 1e-9) : [...steps].reverse().find((s) => s <= f + 1e-9));
  };
  let min = nice(Math.min(...ys) / 1.15, false);
  let max = nice(Math.max(...ys) * 1.15, true);
  if (min === max) max = min * 10;
  return { min, max };
}

export function drawMap(ctx, sides = ['below', 'above']) {
  const map = ctx.state.map;
  if (!map) return;
  const body = mapPanel(ctx);
  const maxLine = map.ms.map((m) => map.data.get(m)?.V_max?.[0] ?? null);
  const eMax = map.ms.map((m) => map.data.get(m)?.E_max?.[0] ?? null);
  const pt = ctx.state.point;
  const vmaxAt = isNum(pt?.m) ? maxLine[map.ms.indexOf(pt.m)] : undefined;
  for (const side of sides) {
    const levels = [...ctx.state.display[side]].sort((a, b) => a - b);
    const holder = body.querySelector(`[data-side="${side}"] .isomap-holder`);
    // Enter on a point (chart-keys.js) solves it, as a click on it: a step's item is [x, V, m], the solved point's [m, V].
    const chart = ctx.chart(`map-${side}`, holder, { height: 430, onPick: ({ value }) => solveAt(ctx, value[2] ?? value[0], value[1]) });
    const series = [];
    const all = [...maxLine];
    levels.forEach((e, i) => {
      const values = lineValues(map, side, e);
      all.push(...values);
      const color = rampColor(levels.length - 1 - i, Math.max(levels.length, 2) + 1, COLORS.ramp);
      series.push({
        name: `e = ${fmt(e)}`, e, kind: 'iso', type: 'line', color, showSymbol: true, symbolSize: 5, connectNulls: false, dimensions: STEP_DIMENSIONS,
        lineStyle: { width: 1.6 }, data: labelLast(steps(map.ms, values), fmt(e), color),
      });
    });
    // MAX in the text's colour: the strongest line of either scheme.
    const maxData = labelLast(steps(map.ms, maxLine, (m) => ({ eMax: eMax[map.ms.indexOf(m)] })), 'MAX', COLORS.text);
    series.push({ name: 'MAX', kind: 'max', type: 'line', color: COLORS.text, showSymbol: true, symbolSize: 6, lineStyle: { width: 2.6 }, data: maxData, z: 3, dimensions: STEP_DIMENSIONS });
    // The point solved below, on the side of V_max it lies on.
    const here = isNum(pt?.m) && isNum(pt?.V) && (!isNum(vmaxAt) || (side === 'below' ? pt.V <= vmaxAt : pt.V > vmaxAt));
    if (here) {
      series.push({
        name: 'solved point', kind: 'point', type: 'scatter', symbol: 'diamond', symbolSize: 13, z: 5,
        itemStyle: { color: COLORS.alert, borderColor: COLORS.bg, borderWidth: 1 },
        data: [{ value: [pt.m, pt.V], label: { show: true, position: 'top', distance: 6, formatter: isNum(pt.E) ? `E = ${fmt(pt.E, 4)}` : '', color: COLORS.alert, fontWeight: 600, backgroundColor: COLORS.bg, padding: [1, 3], borderRadius: 3 } }],
      });
      all.push(pt.V);
    }
    const bounds = logBounds(all);
    const mLo = map.ms[0];
    const mHi = map.ms[map.ms.length - 1];
    const every = mHi - mLo > 30 ? 5 : mHi - mLo > 15 ? 2 : 1;
    const ticks = map.ms.filter((m) => (m - mLo) % every === 0);
    chart.setOption({
      animation: false,
      textStyle: { fontFamily: 'system-ui, sans-serif', color: COLORS.text },
      grid: { left: 12, right: 46, top: 34, bottom: 34, outerBoundsMode: 'same', outerBoundsContain: 'axisLabel' },
      tooltip: {
        trigger: 'item', confine: true,
        formatter: (p) => {
          const s = series[p.seriesIndex];
          const [x, V, m] = p.value;
          if (s.kind === 'point') return `solved point: m = ${x}, V = ${fmt(V)} MB${isNum(pt.E) ? `<br>E = ${fmt(pt.E)}` : ''}`;
          if (s.kind === 'max') return `<b>MAX</b>, m = ${m}<br>V_max = ${fmt(V)} MB<br>E_max = ${fmt(p.data.eMax)}<br><i>click: solve this point</i>`;
          return `<b>${s.name}</b> (${side} V_max), m = ${m}<br>V = ${fmt(V)} MB<br><i>click: solve this point</i>`;
        },
      },
      xAxis: {
        type: 'value', name: 'machines m', nameLocation: 'middle', nameGap: 24, min: mLo - 0.5, max: mHi + 0.5,
        axisLabel: { color: COLORS.muted, customValues: ticks },
        axisTick: { customValues: ticks },
        splitLine: { show: false },
      },
      yAxis: {
        type: 'log', name: 'load V [MB]', nameTextStyle: { color: COLORS.muted, align: 'left' }, ...bounds,
        axisLabel: { color: COLORS.muted, formatter: (y) => fmt(y, 3) },
        splitLine: { lineStyle: { color: COLORS.grid } },
        minorTick: { show: true, splitNumber: 9 }, minorSplitLine: { show: true, lineStyle: { color: COLORS.grid, opacity: 0.5 } },
      },
      series: series.map(({ kind, e, ...s }) => ({ ...s, labelLayout: { moveOverlap: 'shiftY' }, emphasis: { focus: 'series' } })),
    }, { notMerge: true });
    chart.__iso = { series, map, side };
    if (!chart.__isoClick) {
      chart.__isoClick = true;
      chart.getZr().on('click', (e) => pickPoint(ctx, chart, e.offsetX, e.offsetY));
    }
  }
  const shown = map.data.size;
  body.dataset.computed = String(shown);
}

/**
 * A click at pixel (x, y) of a map chart: the nearest m, and the V of the line
 * within 10 px of the click at that m (MAX or an isoline), else the V clicked.
 */
function pickPoint(ctx, chart, x, y) {
  const info = chart.__iso;
  if (!info || !chart.containPixel('grid', [x, y])) return;
  const [mx, vy] = chart.convertFromPixel({ gridIndex: 0 }, [x, y]);
  const ms = info.map.ms;
  const m = Math.min(ms[ms.length - 1], Math.max(ms[0], Math.round(mx)));
  let V = vy;
  let best = 10;
  for (const s of info.series) {
    if (s.kind === 'point') continue;
    const item = s.data.find((d) => d.value[2] === m && d.symbol !== 'none');
    if (!item) continue;
    const py = chart.convertToPixel({ gridIndex: 0 }, [m, item.value[1]])[1];
    if (Math.abs(py - y) < best) {
      best = Math.abs(py - y);
      V = item.value[1];
    }
  }
  solveAt(ctx, m, V);
}

/** Solves the point (m, V) of the map alone: the form's m and V, then its computation. */
function solveAt(ctx, m, V) {
  if (!isNum(V) || V <= 0) return;
  ctx.setValues?.({ m, V: Number(V.toPrecision(6)) });
}

// ---- Table 1 -----------------------------------------------------------------

function isReference(base) {
  return Object.entries(REFERENCE).every(([k, x]) => base[k] === x);
}

/** x with a sign and `decimals` decimals: "+0.13", "−1.2", "±0.00". */
function signed(x, decimals = 2) {
  if (!isNum(x)) return '—';
  const t = Math.abs(x).toFixed(decimals);
  return `${Number(t) === 0 ? '±' : x > 0 ? '+' : '−'}${t}`;
}

export function renderTable(ctx, { charts = true } = {}) {
  const map = ctx.state.map;
  if (!map) return;
  const reference = isReference(map.base);
  const body = ctx.panel('table', {
    title: 'E_max and V_max per m (Table 1 of [003])',
    note: `This page’s MAX line beside the paper’s Table 1 (n = 20, Gurobi 300 s per MIP, none proven optimal; E rounded to 0.1). ΔE > 0: this page found a better schedule than the paper. “gap”: the E_max point’s MIP after a branch and bound over send sequences (\`dlt prove\` writes its certificate). V_max sits on a flat maximum, so small differences in E move it far (the paper’s own V_max jumps between 75 048 and 134 485 MB).${reference ? '' : ' Your parameters differ from the paper’s reference instance: its columns are shown for comparison only.'}`,
    wide: true,
  });
  if (!body.querySelector('.table1-grid')) {
    fill(body, el('div', { class: 'table1-grid', style: 'display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,600px),1fr));gap:8px 18px;align-items:start' },
      el('div', { class: 'table1-table' }), el('div', { class: 'table1-charts' })));
  }
  const rows = map.ms.filter((m) => map.data.has(m)).map((m) => {
    const res = map.data.get(m);
    const E = res.E_max?.[0];
    const V = res.V_max?.[0];
    const Ep = paperAt(m, 'E_max');
    const Vp = paperAt(m, 'V_max');
    const proven = res.E_max_proven?.[0];
    const gap = res.E_max_gap?.[0];
    return { m, E, Ep, dE: isNum(E) && isNum(Ep) ? E - Ep : undefined, V, Vp, dV: isNum(V) && isNum(Vp) ? (V - Vp) / Vp : undefined, proof: proven === true ? 'optimal' : isNum(gap) ? `${fmt(gap * 100, 2)} %` : undefined };
  });
  const pending = map.ms.length - rows.length;
  fill(body.querySelector('.table1-table'),
    table([
      { key: 'm', label: 'm', format: fmtInt },
      { key: 'E', label: 'E_max', title: 'this page', format: (x) => fmt(x, 4), testid: (i) => `emax-${rows[i].m}` },
      { key: 'Ep', label: 'E_max [003]', title: 'E_max in Table 1 of the paper', format: (x) => (isNum(x) ? x.toFixed(1) : '—'), na: (r) => !isNum(r.Ep) },
      { key: 'dE', label: 'ΔE', title: 'this page − the paper', format: (x) => signed(x, 2), na: (r) => !isNum(r.Ep) },
      { key: 'V', label: 'V_max [MB]', title: 'this page', format: (x) => fmt(Math.round(x)), testid: (i) => `vmax-${rows[i].m}` },
      { key: 'Vp', label: 'V_max [003]', title: 'V_max in Table 1 of the paper', na: (r) => !isNum(r.Vp) },
      { key: 'dV', label: 'ΔV', title: '(this page − the paper) / the paper', format: (x) => (isNum(x) ? `${signed(x * 100, 1)} %` : '—'), na: (r) => !isNum(r.Vp) },
      { key: 'proof', label: 'gap', title: 'the E_max point’s MIP after a branch and bound over send sequences: proven optimal, or the gap (T − bound) / T left', numeric: false, testid: (i) => `proof-${rows[i].m}` },
    ], rows, { testid: 'table1' }),
    pending ? el('p', { class: 'note', text: `${pending} of ${map.ms.length} machine counts not computed${map.status === 'running' ? ' yet' : ''}.` }) : null);
  ctx.state.table1Rows = rows;
  ctx.state.table1Charts = body.querySelector('.table1-charts');
  if (charts) renderEmaxChart(ctx);
}

export function renderEmaxChart(ctx) {
  const holder = ctx.state.table1Charts;
  const rows = ctx.state.table1Rows ?? [];
  if (!holder) return;
  const e = ctx.chart('emax', holder, { height: 220 });
  const v = ctx.chart('vmax', holder, { height: 220 });
  const paper = (what) => TABLE1.m.filter((m) => ctx.state.map.ms.includes(m)).map((m) => [m, paperAt(m, what)]);
  const opt = (what, yName) => {
    const o = sweepOption({
      series: [
        { name: 'this page', data: rows.map((r) => [r.m, r[what === 'E_max' ? 'E' : 'V'] ?? null]), color: COLORS.series[0] },
        { name: 'Table 1 of [003]', data: paper(what), dashed: true, color: COLORS.reference },
      ],
      xName: 'machines m', yName, xInteger: true,
    });
    o.yAxis.scale = true;
    o.grid.top = 30;
    const span = ctx.state.map.ms.length;
    const pad = span === 1 ? 1 : 0;
    Object.assign(o.xAxis, { min: ctx.state.map.ms[0] - pad, max: ctx.state.map.ms[span - 1] + pad, interval: span > 24 ? 5 : span > 10 ? 2 : 1 });
    o.series[0].showSymbol = true;
    return o;
  };
  e.setOption(opt('E_max', 'E_max'), { notMerge: true });
  v.setOption(opt('V_max', 'V_max [MB]'), { notMerge: true });
}
