// Paper 001: Błażewicz, Drozdowski, Guinand, Trystram, "Scheduling a
// divisible task in a two-dimensional toroidal mesh" (DAM 1999).
// Peters-Syska scattering on a 5^k x 5^k torus; the core solves recurrence
// (1)-(3) for the largest feasible number of phases.

import { fmt, fmtInt, fmtPct, isNum } from '../format.js';
import { gridHeatmapOption, squareGrid, sweepOption, fitLegend, logSpace, rampColor, COLORS } from '../charts.js';
import { ganttOption, ganttHeight } from '../gantt.js';
import { el, fill, summary, extraNumbers, warnings, table, message } from '../ui.js';

const KNOWN = ['k', 'phases', 'max_phases', 'makespan', 'speedup', 'total_load'];
const SWEEP_K = [1, 2, 3, 4];
const SWEEP_V = logSpace(1, 10, 4); // 10 .. 1e10, four points a decade

/** The name of phase `i` of request `q`'s scattering. */
function phaseName(i, q) {
  if (i === 0) return 'originator';
  if (q?.scattering === 'wavefront') return 'wave front';
  return i % 2 === 1 ? 'knight' : 'cross';
}

export default {
  id: 'torus',
  title: '2D torus',
  model: 'torus',
  paper: { id: '001', cite: 'Błażewicz, Drozdowski, Guinand, Trystram, “Scheduling a divisible task in a two-dimensional toroidal mesh”, Discrete Applied Mathematics, 1999' },
  intro: 'The originator scatters the load over a 5^k × 5^k torus by Peters–Syska broadcasting: alternating knight and cross phases, each active processor sending to four new ones, and every processor computing as soon as its part has arrived. All layers finish together. The calculator uses the largest number of phases N ≤ 2k whose loads are all positive (Lemma 1 of [001]); odd N, ending after a knight phase, are allowed, since the paper does not exclude them. The options below are the extensions of its Sec. 5 (fewer ports, asynchronous sends, store-and-forward routing, results returned as in Fig. 9, granularity, uniform processors, non-linear computing) and the wave front of its reference [4] (Fig. 8); each is off by default.',
  fields: [
    { key: 'k', symbol: 'k', name: 'torus order: 5^k × 5^k processors (k in [001])', kind: 'integer', default: 2, help: 'at most 2k phases' },
    { key: 'S', symbol: 'S', name: 'start-up (α in [001])', unit: 's', kind: 'number', default: 1e-4 },
    { key: 'C', symbol: 'C', name: 'transfer time per unit (τ in [001])', unit: 's/unit', kind: 'number', default: 1e-7 },
    { key: 'A', symbol: 'A', name: 'computing time per unit (1/σ in [001])', unit: 's/unit', kind: 'number', default: 1e-6 },
    { key: 'V', symbol: 'V', name: 'load (V in [001])', unit: 'units', kind: 'number', default: 1e6 },
    { key: 'phases', symbol: 'N', name: 'number of phases (N in [001])', kind: 'integer', optional: true, placeholder: 'blank: the largest feasible', help: 'force N ≤ 2k phases' },
    // 001 Sec. 5's extensions: each off by default, where the answer is system (1).
    {
      key: 'scattering', symbol: 'scat', name: 'scattering (Sec. 3 of [001]; Fig. 8: the wave front of its reference [4])', kind: 'choice', default: 'peters_syska',
      choices: [{ value: 'peters_syska', label: 'Peters–Syska (knight and cross phases)' }, { value: 'wavefront', label: 'wave front of the nearest idle nodes ([4], Fig. 8)' }],
    },
    {
      key: 'ports', symbol: 'ports', name: 'messages a node sends at once (Sec. 5)', kind: 'choice', default: '4', when: (v) => v.scattering !== 'wavefront',
      choices: [{ value: '4', label: '4-port: all four at once' }, { value: '2', label: '2-port: two slots a phase' }, { value: '1', label: '1-port: four slots a phase' }],
    },
    {
      key: 'asynchronous', symbol: 'async', name: 'asynchronous sends: no phase barriers, each node sends as soon as it is activated (Sec. 5)', kind: 'bool', default: false,
      when: (v) => v.scattering !== 'wavefront' && v.ports && v.ports !== '4',
    },
    {
      key: 'routing', symbol: 'route', name: 'routing (Sec. 5)', kind: 'choice', default: 'circuit',
      choices: [{ value: 'circuit', label: 'circuit switching' }, { value: 'store_and_forward', label: 'store-and-forward: × links passed' }],
    },
    { key: 'return_ratio', symbol: 'r', name: 'results returned per unit of load (Sec. 5, Fig. 9)', kind: 'number', optional: true, placeholder: 'blank: none', help: 'results go back up the scattering tree' },
    { key: 'granularity', symbol: 'g', name: 'granularity: loads rounded up to multiples of g (Sec. 5)', unit: 'units', kind: 'number', optional: true, placeholder: 'blank: divisible', when: (v) => v.scattering !== 'wavefront' },
    { key: 'speeds', symbol: 'speed', name: 'speed of each layer’s processors, the originator first (uniform processors, Sec. 5)', kind: 'list', optional: true, placeholder: 'blank: all 1', help: 'the last is repeated for deeper layers' },
    { key: 'gamma', symbol: 'γ', name: 'computing time A·x^γ (non-linear processing, Sec. 5)', kind: 'number', optional: true, placeholder: 'blank: 1, linear' },
  ],


  toRequest(v) {
    const r = { model: 'torus', k: v.k, S: v.S, C: v.C, A: v.A, V: v.V };
    if (v.phases !== undefined) r.phases = v.phases;
    return { ...r, ...options(v) };
  },

  render(r, ctx) {
    renderSummary(r, ctx);
    renderPhases(r, ctx);
    renderLayers(r, ctx);
    renderActivation(r, ctx);
    renderGantt(r, ctx);
    renderSweep(ctx);
  },
};

/** The Sec. 5 options of form values `v` that differ from their defaults, as request fields. */
function options(v) {
  const o = {};
  if (v.scattering === 'wavefront') o.scattering = 'wavefront';
  else if (v.ports && v.ports !== '4') {
    o.ports = Number(v.ports);
    if (v.asynchronous === true) o.asynchronous = true;
  }
  if (v.routing === 'store_and_forward') o.routing = v.routing;
  if (isNum(v.return_ratio)) o.return_ratio = v.return_ratio;
  if (isNum(v.granularity) && v.scattering !== 'wavefront') o.granularity = v.granularity;
  if (Array.isArray(v.speeds) && v.speeds.length) o.speeds = v.speeds;
  if (isNum(v.gamma)) o.gamma = v.gamma;
  return o;
}

/** The request's Sec. 5 options, which the sweep's points keep. */
function requestOptions(q) {
  const keys = ['scattering', 'ports', 'asynchronous', 'routing', 'return_ratio', 'granularity', 'speeds', 'gamma'];
  return Object.fromEntries(keys.filter((k) => q[k] !== undefined).map((k) => [k, q[k]]));
}

function renderSummary(r, ctx) {
  const body = ctx.panel('summary', { title: 'Result' });
  const used = Array.isArray(r.layers) ? r.layers.reduce((s, l) => s + (isNum(l.processors) ? l.processors : 0), 0) : undefined;
  const total = isNum(r.k) ? 5 ** (2 * r.k) : undefined;
  const items = [
    { label: 'schedule length Cmax', value: r.makespan, unit: 's', testid: 'makespan', big: true },
    { label: 'speedup', hint: 'V·A / Cmax', value: r.speedup, testid: 'speedup', big: true },
    { label: 'phases N used', hint: 'of at most 2k', value: isNum(r.phases) ? `${r.phases} of ${isNum(r.max_phases) ? r.max_phases : '—'}` : undefined, testid: 'phases' },
    { label: 'processors used', hint: `5^N of 5^2k = ${fmtInt(total)}`, value: used, format: fmtInt, testid: 'processors-used' },
    { label: 'efficiency', hint: 'speedup / processors used', value: isNum(r.speedup) && used ? r.speedup / used : undefined, format: fmtPct },
    { label: 'load V', value: r.total_load, unit: 'units', testid: 'total-load' },
    ...roundingItems(r.granularity),
    ...extraNumbers(r, KNOWN),
  ];
  fill(body, summary(items), warnings(r.warnings));
}

/** Sec. 5's granularity: the rounded schedule beside the divisible one and the paper's bound. */
function roundingItems(g) {
  if (!g || !isNum(g.bound)) return [];
  return [
    { label: 'divisible Cmax', hint: 'loads not rounded', value: g.divisible_makespan, unit: 's', testid: 'divisible-makespan' },
    { label: 'deviation', hint: `rounded to g = ${fmt(g.granularity)}`, value: g.deviation, unit: 's', testid: 'deviation' },
    { label: 'bound on the deviation', hint: '2kτ + 1/σ of Sec. 5, in these units', value: g.bound, unit: 's', testid: 'deviation-bound' },
  ];
}

function renderPhases(r, ctx) {
  const opts = Array.isArray(r.by_phases) ? r.by_phases : null;
  if (!opts) {
    ctx.showPanel('phases', false);
    return;
  }
  ctx.showPanel('phases', true);
  const body = ctx.panel('phases', {
    title: 'Speedup by number of phases N',
    note: 'Lemma 1 of [001]: every extra phase that stays feasible shortens the schedule. No bar: with N phases some layer would get a negative load.',
  });
  const chart = ctx.chart('phases', body, { height: 210 });
  // V·A, the one-processor time, is speedup · Cmax.
  const serial = isNum(r.speedup) && isNum(r.makespan) ? r.speedup * r.makespan : undefined;
  chart.setOption(phasesOption(opts, r.phases, serial), { notMerge: true });
}

function phasesOption(opts, used, serial) {
  const data = opts.map((o) => ({
    value: isNum(o.makespan) && isNum(serial) ? serial / o.makespan : null,
    itemStyle: { color: o.phases === used ? COLORS.compute : '#aac0ea' },
  }));
  return {
    animation: false,
    textStyle: { fontFamily: 'system-ui, sans-serif', color: COLORS.text },
    grid: { left: 8, right: 16, top: 28, bottom: 4, outerBoundsMode: 'same', outerBoundsContain: 'all' },
    tooltip: { trigger: 'axis', confine: true, axisPointer: { type: 'shadow' }, formatter: (ps) => {
      const o = opts[ps[0].dataIndex];
      if (!isNum(o.makespan)) return `N = ${o.phases}: infeasible`;
      return `N = ${o.phases}${o.phases === used ? ' (used)' : ''}<br>Cmax = ${fmt(o.makespan)} s<br>speedup ${fmt(serial / o.makespan)}`;
    } },
    xAxis: { type: 'category', data: opts.map((o) => String(o.phases)), name: 'phases N', nameLocation: 'middle', nameGap: 24, axisLabel: { color: COLORS.muted }, axisTick: { show: false } },
    yAxis: { type: 'value', name: 'speedup', nameTextStyle: { align: 'left', color: COLORS.muted }, axisLabel: { color: COLORS.muted, formatter: (v) => fmt(v, 3) }, splitLine: { lineStyle: { color: COLORS.grid } } },
    series: [{ type: 'bar', data, barMaxWidth: 32, label: { show: opts.length <= 9, position: 'top', fontSize: 11, color: COLORS.muted, formatter: (p) => (isNum(p.value) ? fmt(p.value, 3) : '') } }],
  };
}

function renderLayers(r, ctx) {
  const body = ctx.panel('layers', {
    title: 'Layers: load per processor',
    wide: true,
    note: 'Layer i holds the 4·5^(i−1) processors activated in phase i, and 5^i compute after it: the counts of Table 1 of [001], printed beside the computed ones; a_i is each one’s load, v_i what it receives for itself and its descendants, t_i when it starts computing. All layers finish at Cmax (recurrence (1) of [001]).',
  });
  const layers = Array.isArray(r.layers) ? r.layers : [];
  const V = isNum(r.total_load) ? r.total_load : undefined;
  // Computing after phase i, counted from the layers the core returns; beside
  // it, Table 1 of [001] as printed (4·5^(i−1) activated, 5^i after).
  let after = 0;
  const rows = layers.map((l) => ({ ...l, after: isNum(l.processors) ? (after += l.processors) : undefined }));
  // Table 1 counts Peters–Syska's layers, each of one class (4 ports).
  const table1 = ctx.request.scattering !== 'wavefront';
  const printed = (l, f) => (table1 && isNum(l.layer) && l.layer >= 1 && !(l.slot > 0) ? f(5 ** (l.layer - 1)) : undefined);
  fill(body, table([
    { key: 'layer', label: 'layer i', format: fmtInt },
    { key: 'phase', label: 'phase', numeric: false, get: (l) => (isNum(l.layer) ? phaseName(l.layer, ctx.request) : undefined) },
    ...(layers.some((l) => isNum(l.slot)) ? [{ key: 'slot', label: 'slot', title: 'with fewer than 4 ports: the slot of its phase in which the layer’s processors are sent to', format: fmtInt, na: (l) => !isNum(l.slot) }] : []),
    { key: 'processors', label: 'processors', format: fmtInt },
    { key: 'table1_activated', label: 'Table 1: 4·5^(i−1)', title: 'activated in phase i, as printed in Table 1 of [001]', format: fmtInt, get: (l) => printed(l, (x) => 4 * x), na: (l) => l.layer === 0 || printed(l, (x) => x) === undefined, testid: (i) => `table1-activated-${i}` },
    { key: 'after', label: 'computing after', title: 'processors computing after phase i (the originator and layers 1 … i)', format: fmtInt, testid: (i) => `after-${i}` },
    { key: 'table1_after', label: 'Table 1: 5^i', title: 'computing after phase i, as printed in Table 1 of [001]', format: fmtInt, get: (l) => printed(l, (x) => 5 * x), na: (l) => l.layer === 0 || printed(l, (x) => x) === undefined, testid: (i) => `table1-after-${i}` },
    { key: 'load', label: 'a_i [units]', title: 'load of each processor of the layer', testid: (i) => `layer-load-${i}` },
    { key: 'frac', label: 'a_i / V', get: (l) => (V && isNum(l.load) ? l.load / V : undefined) },
    { key: 'received', label: 'v_i [units]', title: 'load received by each processor of the layer' },
    { key: 'activated', label: 't_i [s]', title: 'time the layer starts computing' },
    { key: 'layer_load', label: 'layer load [units]' },
    { key: 'share', label: 'share of V', format: fmtPct, get: (l) => (V && isNum(l.layer_load) ? l.layer_load / V : undefined) },
  ], rows, { testid: 'layer-table' }));
}

function renderActivation(r, ctx) {
  const body = ctx.panel('activation', {
    title: 'Activation map',
    note: 'The 5^k × 5^k torus (x to the right, y down, the originator at the centre), each processor coloured by the phase of the full 2k-phase scattering in which it receives its load, as in Fig. 1 of [001]. Knight phases are odd, cross phases even. Hover a cell for its sender.',
    wide: true,
  });
  const a = r.activation;
  if (!a || !isNum(a.size) || !Array.isArray(a.phase)) {
    fill(body, message('info', `No map for k = ${fmtInt(r.k)}: the core draws it for smaller tori only (see the contract's \`activation\`), and this one has ${fmtInt(5 ** r.k)} × ${fmtInt(5 ** r.k)} processors.`));
    ctx.state.activationKey = null;
    return;
  }
  const key = `${a.size}:${r.phases}:${r.k}`;
  const layers = Array.isArray(r.layers) ? r.layers : [];
  const maxPhase = a.phase.reduce((m, x) => (isNum(x) && x > m ? x : m), 0);
  const used = isNum(r.phases) ? r.phases : maxPhase;
  // Cells the full pattern reaches after phase N stay idle in this schedule.
  const cells = a.phase.map((x) => (isNum(x) && x >= 0 && x <= used ? x : -1));
  const idle = cells.some((x) => x < 0);
  const pieces = [];
  for (let p = 0; p <= Math.min(maxPhase, used); p++) pieces.push({ value: p, label: p === 0 ? '0 originator' : `${p} ${phaseName(p, ctx.request)}`, color: rampColor(p, Math.min(maxPhase, used) + 1) });
  if (idle) pieces.push({ value: -1, label: used < maxPhase ? `idle (phases ${used + 1}–${maxPhase} not used)` : 'idle', color: COLORS.idle });

  let legend = body.querySelector('.legend');
  let holder = body.querySelector('.heatmap-holder');
  if (!legend) {
    legend = el('div', { class: 'legend', 'data-testid': 'activation-legend' });
    holder = el('div', { class: 'heatmap-holder' });
    fill(body, holder, legend);
  }
  fill(legend, pieces.map((p) => el('span', { class: 'swatch' }, el('i', { style: `background:${p.color}` }), p.label)),
    el('span', { class: 'legend-note', text: `${fmtInt(a.size)} × ${fmtInt(a.size)} processors` }));
  holder.style.maxWidth = `${a.size <= 5 ? 340 : a.size > 125 ? 700 : 640}px`;
  const layout = (c) => squareGrid(c, { size: a.size, labels: a.size <= 25 });
  const chart = ctx.chart('activation', holder, { height: null, className: 'square', onResize: (c) => ctx.state.activationLayout?.(c) });
  ctx.state.activationLayout = layout;
  ctx.state.layers = layers;
  if (ctx.state.activationKey === key) return;
  ctx.state.activationKey = key;
  const parent = Array.isArray(a.parent) ? a.parent : [];
  chart.setOption(gridHeatmapOption({
    size: a.size,
    cells,
    pieces,
    labels: a.size <= 25,
    tooltip: (x, y, p) => {
      const i = y * a.size + x;
      const par = parent[i];
      const t = ctx.state.layers?.[p]?.activated;
      const from = isNum(par) && par >= 0 ? `, from (${par % a.size}, ${Math.floor(par / a.size)})` : '';
      const full = a.phase[i];
      if (p < 0) return `(${x}, ${y}) idle: phase ${full} ${phaseName(full, ctx.request)} is not used with N = ${used}${from}`;
      return `(${x}, ${y}): phase ${p} ${phaseName(p, ctx.request)}${from}<br>starts computing at ${fmt(t)} s`;
    },
  }), { notMerge: true });
  layout(chart);
}

function renderGantt(r, ctx) {
  const body = ctx.panel('gantt', {
    title: 'Schedule (Gantt chart)',
    note: 'One row per layer (all its processors act alike, as in Fig. 2 of [001]): communications into the layer above, computation below. Drag or scroll to zoom.',
    wide: true,
  });
  const rows = Array.isArray(r.processors) ? r.processors.length : 1;
  const chart = ctx.chart('gantt', body, { height: ganttHeight(rows) });
  chart.setOption(ganttOption(r, { timeName: 'time [s]' }), { notMerge: true });
}

async function renderSweep(ctx) {
  const { S, C, A, V } = ctx.request;
  const extra = requestOptions(ctx.request);
  const body = ctx.panel('sweep', {
    title: 'Speedup vs load V',
    note: `Like Fig. 7 of [001] (α = 1e-4 s, τ = 1e-7 s, σ = 1e6 there): speedup V·A/Cmax against V for k = ${SWEEP_K.join(', ')}, with S, C, A and the Sec. 5 options from the form. Each point is one solve.`,
    wide: true,
    swept: ['V', 'k', 'phases'],
  });
  const chart = ctx.chart('sweep', body, { height: 360, onResize: fitLegend });
  const key = JSON.stringify([S, C, A, extra]);
  const draw = (series) => {
    chart.setOption(sweepOption({ series, xName: 'load V [units]', yName: 'speedup', xLog: true, markX: V, markLabel: `V = ${fmt(V)}` }), { notMerge: true });
    fitLegend(chart);
  };
  if (ctx.state.sweep?.key === key) {
    draw(ctx.state.sweep.series);
    return;
  }
  body.querySelectorAll(':scope > .msg').forEach((n) => n.remove());
  const requests = [];
  for (const k of SWEEP_K) for (const v of SWEEP_V) requests.push({ model: 'torus', k, S, C, A, V: v, ...extra });
  const responses = await ctx.sweep(body, 'Speedup sweep', requests, { pick: ['speedup', 'phases'] });
  if (!responses) return;
  const series = SWEEP_K.map((k, ki) => ({
    name: `k = ${k} (${fmtInt(5 ** (2 * k))} processors)`,
    data: SWEEP_V.map((v, vi) => {
      const res = responses[ki * SWEEP_V.length + vi];
      return [v, res && isNum(res.speedup) ? res.speedup : null];
    }),
  }));
  const failed = responses.filter((x) => x?.error).length;
  if (failed) body.prepend(message('warn', `${failed} of ${responses.length} points were refused by the core and are left out: ${responses.find((x) => x?.error).error.message}`));
  ctx.state.sweep = { key, series };
  draw(series);
}
