// Paper 003: Drozdowski, Singh, Marszałkowski, "Isoefficiency maps for
// divisible computations in hierarchical memory systems". The core solves MIP
// (2)-(11) (`isoefficiency`: one m and V) and draws the map of Sec. 3
// (`isoefficiency_map`: E_max and V_max per m by narrowing, the isolines on
// both sides of V_max by bisection). The map is split into one request per m
// and spread over a pool of workers (../pool.js), so it shows progress per m,
// can be cancelled, and uses every core. The form's request is the single
// point (m, V) whose schedule is drawn; clicking the map sets it.

import { fmt, fmtInt, fmtPct, isNum } from '../format.js';
import { ganttOption, ganttHeight, sweepOption, rampColor, COLORS } from '../charts.js';
import { el, fill, summary, warnings, table, message, progress, lpDownload } from '../ui.js';
import { Pool, SolverError, defaultPoolSize } from '../pool.js';

// Table 1 of [003]: n = 20, the reference instance, Gurobi 300 s per MIP.
const PAPER = {
  m: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
  E_max: [34.2, 34.0, 33.7, 33.4, 33.2, 32.8, 32.4, 31.5, 30.9, 30.4, 29.6, 28.7, 27.7, 26.7, 25.7, 24.8, 23.8, 22.9, 22.1],
  V_max: [134485, 120827, 123329, 105097, 119663, 95748, 106921, 115514, 75048, 81394, 86545, 90457, 94532, 98591, 99460, 100506, 100354, 99708, 102240],
};
const REFERENCE = { a1: 0.109, a2: 4.132, b2: -27109, C: 0.005, O: 0.075, S: 25.4, n: 20 };
const MAX_LEVELS = 32; // the core's limit on levels in one map request
const MAX_COLOR = '#1f2733';
const POINT_COLOR = '#d14b3f';
const STARTUP_COLOR = '#b7c0cc';

const paperAt = (m, what) => {
  const i = PAPER.m.indexOf(m);
  return i >= 0 ? PAPER[what][i] : undefined;
};

/** Sorted distinct levels of both lists (the core computes both sides of each). */
function unionLevels(v) {
  return [...new Set([...(v.levels_below ?? []), ...(v.levels_above ?? [])])].sort((a, b) => a - b);
}

/** ρ = b2 / (a1 − a2): the core memory, where the two pieces of τ meet. */
function rho(q) {
  return q.a1 !== q.a2 ? q.b2 / (q.a1 - q.a2) : undefined;
}

export default {
  id: 'isoefficiency',
  title: 'Isoefficiency',
  paper: { id: '003', cite: 'Drozdowski, Singh, Marszałkowski, “Isoefficiency maps for divisible computations in hierarchical memory systems”, PPAM 2019' },
  intro: 'Machines are started (S), then the originator sends n load chunks, one at a time (O + Cα each), to m identical machines; a chunk of α MB computes in τ(α) = max{a1·α, a2·α + b2}: in core up to ρ = b2/(a1 − a2) MB, much slower beyond. Efficiency E = T(1,1,V) / (m·T(m,n,V)) compares m machines with one machine doing all the load, which spills out of core, so E can exceed 1 (up to a2/a1 ≈ 38). For each m, V_max is the load of highest efficiency E_max (the MAX line), and the isoline e joins the loads V where E = e, below V_max (Fig. 1 of [003]) and above it (Fig. 2). Every point is the best schedule of MIP (2)–(11) found within a budget of LPs (one per send sequence tried), its gap to a lower bound shown, as the paper’s Gurobi runs (300 s each) mostly were too.',
  fields: [
    { key: 'a1', symbol: 'a₁', name: 'in-core processing rate (a1 in [003])', unit: 's/MB', kind: 'number', gt: 0, default: 0.109 },
    { key: 'a2', symbol: 'a₂', name: 'out-of-core processing rate (a2 in [003])', unit: 's/MB', kind: 'number', gt: 0, default: 4.132 },
    { key: 'b2', symbol: 'b₂', name: 'out-of-core time offset (b2 in [003], < 0)', unit: 's', kind: 'number', default: -27109 },
    { key: 'C', symbol: 'C', name: 'transfer time per MB (C in [003])', unit: 's/MB', kind: 'number', min: 0, default: 0.005 },
    { key: 'O', symbol: 'O', name: 'message start-up O (O in [003])', unit: 's', kind: 'number', min: 0, default: 0.075 },
    { key: 'S', symbol: 'S', name: 'machine start-up S (S in [003])', unit: 's', kind: 'number', min: 0, default: 25.4 },
    { key: 'n', symbol: 'n', name: 'load chunks (n in [003])', kind: 'integer', min: 1, max: 100, default: 20, help: 'the paper: n = 20' },
    { key: 'm_lo', symbol: 'm', name: 'map: machines from', kind: 'integer', min: 1, max: 64, default: 2 },
    { key: 'm_hi', symbol: 'm', name: 'map: machines to', kind: 'integer', min: 1, max: 64, default: 20, help: 'one request per m, spread over the workers' },
    { key: 'levels_below', symbol: 'e', name: 'map: efficiency levels below V_max (Fig. 1)', kind: 'list', gt: 0, optional: true, default: [5, 10, 20, 30], placeholder: 'blank: none', help: 'each level costs two bisections per m' },
    { key: 'levels_above', symbol: 'e', name: 'map: efficiency levels above V_max (Fig. 2)', kind: 'list', gt: 0, optional: true, default: [1.5, 2, 5, 10, 20, 30], placeholder: 'blank: none', help: 'the paper shows only e > 1 here' },
    { key: 'V_lo', symbol: 'V', name: 'map: loads from', unit: 'MB', kind: 'number', gt: 0, default: 1e3 },
    { key: 'V_hi', symbol: 'V', name: 'map: loads to', unit: 'MB', kind: 'number', gt: 0, default: 5e5, help: 'e = 1.5 and 2 above V_max lie at 2e5–4e5 MB' },
    { key: 'width', symbol: 'w', name: 'map: stopping width of the searches', unit: 'MB', kind: 'number', gt: 0, default: 100, help: 'the paper used 1 MB; 100 MB is faster and reads the same' },
    { key: 'map_lps', symbol: 'LPs', name: 'map: LP budget per MIP (send sequences solved)', kind: 'integer', min: 1, optional: true, placeholder: 'blank: the core’s default', help: 'the search solves one LP per send sequence; a budget, not a time, so the map is the same on any machine' },
    { key: 'm', symbol: 'm', name: 'point: machines (m in [003])', kind: 'integer', min: 1, max: 64, default: 2, help: 'or click the map' },
    { key: 'V', symbol: 'V', name: 'point: load (V in [003])', unit: 'MB', kind: 'number', gt: 0, default: 134485 },
    { key: 'lp_budget', symbol: 'LPs', name: 'point: LP budget of the MIP (send sequences solved)', kind: 'integer', min: 1, optional: true, placeholder: 'blank: the core’s default' },
  ],

  check(v) {
    const errors = {};
    if (v.m_hi < v.m_lo) errors.m_hi = `at least the first m (${v.m_lo})`;
    if (v.V_hi <= v.V_lo) errors.V_hi = `more than the first load (${fmt(v.V_lo)} MB)`;
    else if (v.width >= v.V_hi - v.V_lo) errors.width = `less than the width of the load range (${fmt(v.V_hi - v.V_lo)} MB)`;
    if (unionLevels(v).length > MAX_LEVELS) errors.levels_above = `at most ${MAX_LEVELS} distinct levels in both lists together`;
    return Object.keys(errors).length ? errors : null;
  },

  toRequest(v) {
    const q = { model: 'isoefficiency', m: v.m, n: v.n, V: v.V, S: v.S, O: v.O, C: v.C, a1: v.a1, a2: v.a2, b2: v.b2 };
    if (v.lp_budget !== undefined) q.lp_budget = v.lp_budget;
    return q;
  },

  render(r, ctx) {
    ctx.state.point = { m: ctx.request.m, V: ctx.request.V, E: r.efficiency };
    ctx.state.response = r;
    renderMap(ctx);
    renderTable(ctx);
    renderPoint(r, ctx);
    renderSequence(r, ctx);
    renderGantt(r, ctx);
  },
};

// ---- the map (Figs. 1-2) -----------------------------------------------------

/** The map's request without m_range, from the form's values. */
function mapBase(v) {
  const base = {
    model: 'isoefficiency_map', n: v.n, levels: unionLevels(v), V_range: [v.V_lo, v.V_hi],
    S: v.S, O: v.O, C: v.C, a1: v.a1, a2: v.a2, b2: v.b2, width: v.width,
  };
  if (v.map_lps !== undefined) base.lp_budget = v.map_lps;
  return base;
}

/** The map's request for one m. */
function mapRequest(map, m) {
  return { ...map.base, m_range: [m, m] };
}

// The map's workers, one per core: its machine counts are computed side by side.
let mapPool = null;

/** MIPs one m of the map takes, about: golden-section narrowing, then two bisections a level. */
function mipsPerM(base) {
  const steps = Math.max(1, (base.V_range[1] - base.V_range[0]) / base.width);
  return Math.ceil(Math.log(steps) / Math.log(1.618034)) + 2 + base.levels.length * 2 * (Math.ceil(Math.log2(steps)) + 2);
}

function mapPanel(ctx) {
  const body = ctx.panel('map', {
    title: 'Isoefficiency map (Figs. 1–2 of [003])',
    note: 'Horizontal: machines m (a discrete variable, so the lines are steps); vertical: the load V in MB, logarithmic. MAX is V_max(m), the load of highest efficiency; each isoline is labelled with its efficiency e. Click a line (or anywhere in a chart) to solve that m and V alone: its schedule appears below.',
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

function renderMap(ctx) {
  const v = ctx.values;
  const body = mapPanel(ctx);
  const base = mapBase(v);
  const ms = [];
  for (let m = v.m_lo; m <= v.m_hi; m++) ms.push(m);
  const key = JSON.stringify([base, v.m_lo, v.m_hi]);
  ctx.state.display = { below: v.levels_below ?? [], above: v.levels_above ?? [] };
  if (ctx.state.map?.key !== key) {
    ctx.state.map?.controller?.abort();
    ctx.state.map = { key, base, ms, data: new Map(), failed: new Map(), status: 'idle', elapsed: 0, points: 0, proven: 0 };
    body.dataset.mRange = `${ms[0]}-${ms[ms.length - 1]}`;
    runMap(ctx, ms);
  }
  drawMap(ctx);
}

/** Computes the map for the machine counts `todo` (all of them, or those missing after a cancel). */
function runMap(ctx, todo) {
  const map = ctx.state.map;
  const body = mapPanel(ctx);
  const status = body.querySelector('.isomap-status');
  mapPool ??= new Pool({ size: defaultPoolSize() });
  const pool = mapPool;
  const controller = new AbortController();
  map.controller = controller;
  map.status = 'running';
  map.failed = new Map([...map.failed].filter(([m]) => !todo.includes(m)));
  body.dataset.state = 'running';
  const perM = mipsPerM(map.base);
  const label = `Map, m = ${todo[0]}…${todo[todo.length - 1]} (≤ ${fmtInt(perM)} MIPs per m, ${pool.size} worker${pool.size > 1 ? 's' : ''})`;
  const bar = progress(label, () => controller.abort());
  bar.el.dataset.testid = 'isomap-progress';
  bar.update(0, todo.length);
  fill(status, bar.el);
  const requests = todo.map((m) => mapRequest(map, m));
  const started = performance.now();
  const alive = () => ctx.state.map === map;
  pool.sweep(requests, {
    signal: controller.signal,
    onProgress: (done, total) => { if (alive()) bar.update(done, total); },
    onItem: (i, res) => {
      if (!alive()) return;
      const m = todo[i];
      if (res?.error) map.failed.set(m, res.error);
      else {
        map.data.set(m, res);
        map.points += isNum(res.points) ? res.points : 0;
        map.proven += isNum(res.proven) ? res.proven : 0;
      }
      scheduleDraw(ctx);
    },
  }).then(() => {
    if (!alive()) return;
    flushDraw(ctx);
    map.elapsed += performance.now() - started;
    map.status = 'done';
    body.dataset.state = 'done';
    body.dataset.ms = String(Math.round(map.elapsed));
    const done = map.data.size;
    bar.finish(`${done} machine count${done === 1 ? '' : 's'}, ${fmtInt(map.points)} MIPs in ${fmt(map.elapsed / 1000, 3)} s on ${pool.size} worker${pool.size > 1 ? 's' : ''}${map.proven ? `, ${fmtInt(map.proven)} proven optimal` : ', none proven optimal (the best found within the LP budget)'}`);
    showFailures(ctx);
    // The point's summary says where it lies on the map, now known.
    if (ctx.state.response && map.data.has(ctx.request?.m)) renderPoint(ctx.state.response, ctx);
  }, (e) => {
    if (!alive()) return;
    map.elapsed += performance.now() - started;
    flushDraw(ctx);
    if (e instanceof SolverError && e.code === 'cancelled') {
      map.status = 'cancelled';
      body.dataset.state = 'cancelled';
      bar.finish(`cancelled: ${map.data.size} of ${map.ms.length} machine counts computed`);
      const missing = map.ms.filter((m) => !map.data.has(m));
      status.append(el('button', {
        type: 'button', class: 'ghost small', 'data-testid': 'isomap-resume', text: `Compute the other ${missing.length}`,
        onclick: () => runMap(ctx, map.ms.filter((m) => !map.data.has(m))),
      }));
    } else {
      map.status = 'error';
      body.dataset.state = 'error';
      bar.finish();
      status.append(message('error', `The map failed: ${e.message}`));
    }
  });
}

// Results of a map arrive every second or so; a redraw of the two maps, the
// table and its two charts costs the main thread ~150-250 ms, so redraws
// are coalesced (at most one every DRAW_MS) and run chart by chart, one
// task each, to keep the page responsive while the workers compute.
const DRAW_MS = 400;

function drawSteps(ctx) {
  return [() => drawMap(ctx, ['below']), () => drawMap(ctx, ['above']), () => renderTable(ctx, { charts: false }), () => renderEmaxChart(ctx)];
}

function scheduleDraw(ctx) {
  const s = ctx.state;
  if (s.drawTimer) return;
  const wait = Math.max(0, DRAW_MS - (performance.now() - (s.lastDraw ?? -Infinity)));
  const run = (steps) => {
    s.drawTimer = setTimeout(() => {
      steps[0]();
      if (steps.length > 1) run(steps.slice(1));
      else s.drawTimer = 0;
    }, 0);
  };
  s.drawTimer = setTimeout(() => {
    s.lastDraw = performance.now();
    run(drawSteps(ctx));
  }, wait);
}

/** Draws what is pending now (the map finished or stopped). */
function flushDraw(ctx) {
  const s = ctx.state;
  if (!s.drawTimer) return;
  clearTimeout(s.drawTimer);
  s.drawTimer = 0;
  s.lastDraw = performance.now();
  for (const step of drawSteps(ctx)) step();
}

function showFailures(ctx) {
  const map = ctx.state.map;
  if (!map.failed.size) return;
  const status = mapPanel(ctx).querySelector('.isomap-status');
  const [first] = map.failed.values();
  const ms = [...map.failed.keys()];
  const all = ms.length === map.ms.length;
  status.append(message(all ? 'error' : 'warn', `${all ? 'The core refused the map' : `m = ${ms.join(', ')} could not be computed`}: ${first.message}${first.field ? ` (${first.field})` : ''}`),
    all ? null : el('button', { type: 'button', class: 'ghost small', text: 'Try these again', onclick: () => runMap(ctx, ms) }));
}

/**
 * The step line of `values` (one per m, or null) as data of a line series:
 * each m covers [m − ½, m + ½], with a symbol at m; gaps break the line.
 */
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

function drawMap(ctx, sides = ['below', 'above']) {
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
    const chart = ctx.chart(`map-${side}`, holder, { height: 430 });
    const series = [];
    const all = [...maxLine];
    levels.forEach((e, i) => {
      const values = lineValues(map, side, e);
      all.push(...values);
      const color = rampColor(levels.length - 1 - i, Math.max(levels.length, 2) + 1);
      series.push({
        name: `e = ${fmt(e)}`, e, kind: 'iso', type: 'line', color, showSymbol: true, symbolSize: 5, connectNulls: false,
        lineStyle: { width: 1.6 }, data: labelLast(steps(map.ms, values), fmt(e), color),
      });
    });
    const maxData = labelLast(steps(map.ms, maxLine, (m) => ({ eMax: eMax[map.ms.indexOf(m)] })), 'MAX', MAX_COLOR);
    series.push({ name: 'MAX', kind: 'max', type: 'line', color: MAX_COLOR, showSymbol: true, symbolSize: 6, lineStyle: { width: 2.6 }, data: maxData, z: 3 });
    // The point solved below, on the side of V_max it lies on.
    const here = isNum(pt?.m) && isNum(pt?.V) && (!isNum(vmaxAt) || (side === 'below' ? pt.V <= vmaxAt : pt.V > vmaxAt));
    if (here) {
      series.push({
        name: 'solved point', kind: 'point', type: 'scatter', symbol: 'diamond', symbolSize: 13, z: 5,
        itemStyle: { color: POINT_COLOR, borderColor: '#fff', borderWidth: 1 },
        data: [{ value: [pt.m, pt.V], label: { show: true, position: 'top', distance: 6, formatter: isNum(pt.E) ? `E = ${fmt(pt.E, 4)}` : '', color: POINT_COLOR, fontWeight: 600, backgroundColor: 'rgba(255,255,255,0.85)', padding: [1, 3], borderRadius: 3 } }],
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
        minorTick: { show: true, splitNumber: 9 }, minorSplitLine: { show: true, lineStyle: { color: '#f1f3f7' } },
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

function renderTable(ctx, { charts = true } = {}) {
  const map = ctx.state.map;
  if (!map) return;
  const reference = isReference(map.base);
  const body = ctx.panel('table', {
    title: 'E_max and V_max per m (Table 1 of [003])',
    note: `This page’s MAX line beside the paper’s Table 1 (n = 20, Gurobi 300 s per MIP, E rounded to 0.1). ΔE > 0: this page found a better schedule than the paper. V_max sits on a flat maximum, so small differences in E move it far (the paper’s own V_max jumps between 75 048 and 134 485 MB).${reference ? '' : ' Your parameters differ from the paper’s reference instance: its columns are shown for comparison only.'}`,
    wide: true,
  });
  if (!body.querySelector('.table1-grid')) {
    fill(body, el('div', { class: 'table1-grid', style: 'display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,460px),1fr));gap:8px 18px;align-items:start' },
      el('div', { class: 'table1-table' }), el('div', { class: 'table1-charts' })));
  }
  const rows = map.ms.filter((m) => map.data.has(m)).map((m) => {
    const res = map.data.get(m);
    const E = res.E_max?.[0];
    const V = res.V_max?.[0];
    const Ep = paperAt(m, 'E_max');
    const Vp = paperAt(m, 'V_max');
    return { m, E, Ep, dE: isNum(E) && isNum(Ep) ? E - Ep : undefined, V, Vp, dV: isNum(V) && isNum(Vp) ? (V - Vp) / Vp : undefined };
  });
  const pending = map.ms.length - rows.length;
  fill(body.querySelector('.table1-table'),
    table([
      { key: 'm', label: 'm', format: fmtInt },
      { key: 'E', label: 'E_max', title: 'this page', format: (x) => fmt(x, 4), testid: (i) => `emax-${rows[i].m}` },
      { key: 'Ep', label: '[003]', title: 'E_max in Table 1 of the paper', format: (x) => (isNum(x) ? x.toFixed(1) : '—'), na: (r) => !isNum(r.Ep) },
      { key: 'dE', label: 'ΔE', title: 'this page − the paper', format: (x) => signed(x, 2), na: (r) => !isNum(r.Ep) },
      { key: 'V', label: 'V_max [MB]', title: 'this page', format: (x) => fmt(Math.round(x)), testid: (i) => `vmax-${rows[i].m}` },
      { key: 'Vp', label: '[003]', title: 'V_max in Table 1 of the paper', na: (r) => !isNum(r.Vp) },
      { key: 'dV', label: 'ΔV', title: '(this page − the paper) / the paper', format: (x) => (isNum(x) ? `${signed(x * 100, 1)} %` : '—'), na: (r) => !isNum(r.Vp) },
    ], rows, { testid: 'table1' }),
    pending ? el('p', { class: 'note', text: `${pending} of ${map.ms.length} machine counts not computed${map.status === 'running' ? ' yet' : ''}.` }) : null);
  ctx.state.table1Rows = rows;
  ctx.state.table1Charts = body.querySelector('.table1-charts');
  if (charts) renderEmaxChart(ctx);
}

function renderEmaxChart(ctx) {
  const holder = ctx.state.table1Charts;
  const rows = ctx.state.table1Rows ?? [];
  if (!holder) return;
  const e = ctx.chart('emax', holder, { height: 220 });
  const v = ctx.chart('vmax', holder, { height: 220 });
  const paper = (what) => PAPER.m.filter((m) => ctx.state.map.ms.includes(m)).map((m) => [m, paperAt(m, what)]);
  const opt = (what, yName) => {
    const o = sweepOption({
      series: [
        { name: 'this page', data: rows.map((r) => [r.m, r[what === 'E_max' ? 'E' : 'V'] ?? null]), color: COLORS.series[0] },
        { name: 'Table 1 of [003]', data: paper(what), dashed: true, color: '#7d8796' },
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

// ---- the solved point ------------------------------------------------------------

function renderPoint(r, ctx) {
  const q = ctx.request;
  const body = ctx.panel('point', {
    title: `Point m = ${q.m}, V = ${fmt(q.V)} MB (MIP (2)–(11))`,
    note: `The best schedule found within ${isNum(q.lp_budget) ? `a budget of ${fmtInt(q.lp_budget)} LPs` : 'the core’s LP budget'}. T(1,1,V) = S + O + CV + τ(V) is one machine doing all the load.`,
  });
  const map = ctx.state.map;
  const res = map?.data.get(q.m);
  const where = res && isNum(res.V_max?.[0])
    ? `${q.V <= res.V_max[0] ? 'below' : 'above'} V_max(${q.m}) = ${fmt(res.V_max[0])} MB, where E_max = ${fmt(res.E_max[0], 4)}`
    : undefined;
  const proven = r.proven === true;
  const items = [
    { label: 'efficiency E', hint: 'T(1,1,V) / (m·T)', value: r.efficiency, testid: 'efficiency', big: true },
    { label: 'schedule length T', hint: 'T(m, n, V)', value: r.makespan, unit: 's', testid: 'makespan', big: true },
    { label: 'one machine T(1,1,V)', value: r.single, unit: 's', testid: 'single' },
    { label: 'speedup', hint: 'm·E', value: isNum(r.efficiency) ? r.efficiency * q.m : undefined, testid: 'speedup' },
    { label: 'machines used', hint: `of m = ${q.m}`, value: r.machines_used, format: fmtInt, testid: 'machines-used' },
    { label: 'gap', hint: '(T − bound) / T', value: r.gap, format: fmtPct, testid: 'gap' },
    { label: 'lower bound on T', value: r.best_bound, unit: 's', testid: 'best-bound' },
    { label: 'proven optimal', value: proven ? 'yes' : 'no: best found', testid: 'proven' },
    { label: 'send sequences solved', hint: 'an LP each', value: r.sequences, format: fmtInt, testid: 'sequences' },
  ];
  if (where) items.push({ label: 'on the map', value: where, testid: 'where' });
  const warn = Array.isArray(r.warnings) ? r.warnings : [];
  fill(body, summary(items), warnings(warn), lpDownload(ctx.solver, () => ctx.request, { basename: 'isoefficiency-mip', what: 'MIP' }));
}

function renderSequence(r, ctx) {
  const q = ctx.request;
  const p = rho(q);
  const body = ctx.panel('sequence', {
    title: 'Send sequence and chunk sizes',
    note: `Chunk j goes to machine M_i, in this order (the x_ij of [003]). ρ = b2/(a1 − a2) = ${fmt(p, 5)} MB: chunks up to ρ compute in core, at a1.`,
  });
  const seq = Array.isArray(r.sequence) ? r.sequence : [];
  const loads = Array.isArray(r.loads) ? r.loads : [];
  const comms = (Array.isArray(r.schedule) ? r.schedule : []).filter((s) => s.kind === 'comm').sort((a, b) => a.start - b.start);
  const rows = loads.map((a, j) => ({
    j: j + 1,
    machine: isNum(seq[j]) ? `M${seq[j]}` : undefined,
    alpha: a,
    core: isNum(a) && isNum(p) ? (a <= p * (1 + 1e-9) ? 'in core' : 'out of core') : undefined,
    tau: isNum(a) ? Math.max(q.a1 * a, q.a2 * a + q.b2) : undefined,
    t: comms[j]?.start,
  }));
  const text = el('p', { class: 'iso-sequence', 'data-testid': 'sequence', style: 'font-family:var(--mono);font-size:13.5px;margin:0 0 10px;overflow-wrap:anywhere' },
    seq.map((i) => `M${i}`).join(' → ') || '—');
  fill(body, text, table([
    { key: 'j', label: 'j', format: fmtInt },
    { key: 'machine', label: 'to', numeric: false },
    { key: 'alpha', label: 'α_j [MB]', title: 'chunk size', testid: (i) => `chunk-${i}` },
    { key: 'core', label: 'memory', numeric: false, title: 'α_j ≤ ρ: in core' },
    { key: 't', label: 't_j [s]', title: 'sending starts' },
    { key: 'tau', label: 'τ(α_j) [s]', title: 'computing time' },
  ], rows, { testid: 'chunk-table' }));
}

function renderGantt(r, ctx) {
  const q = ctx.request;
  const body = ctx.panel('gantt', {
    title: 'Schedule (Gantt chart)',
    note: 'P0 is the originator; M1 … Mm receive their chunks (above, one message at a time) and compute them (below). Grey: the machine start-up S, in parallel, before the first message (constraint (6)). Drag or scroll to zoom.',
    wide: true,
  });
  const rows = Array.isArray(r.processors) ? r.processors.length : q.m + 1;
  const used = new Set((Array.isArray(r.schedule) ? r.schedule : []).map((s) => s.proc).filter((p) => p > 0));
  const extra = q.S > 0 ? [{
    name: 'machine start-up', lane: 'compute', color: STARTUP_COLOR,
    intervals: [...used].map((proc) => ({ proc, start: 0, end: q.S, load: 0, note: `S = ${fmt(q.S)} s` })),
  }] : [];
  const chart = ctx.chart('gantt', body, { height: ganttHeight(rows) });
  chart.setOption(ganttOption(r, { timeName: 'time [s]', extra }), { notMerge: true });
}
