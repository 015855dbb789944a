// Paper 000: Drozdowski, Wolniewicz, "Optimum divisible load scheduling on
// heterogeneous stars with limited memory" / limited communication buffers:
// a star (LP LoadDirect), ordinary trees (TreeNLF/LLF with 1 or 2 buffers)
// and binomial trees (BinomialTreeNLF/LLF). The core solves the paper's LP
// for n stages (n_min = the fewest the buffer D allows, by default); D* of
// Sec. 5 and the LB strategy of Sec. 4.2 come from `buffer_dstar` and
// `lb_layer`.

import { fmt, fmtInt, isNum } from '../format.js';
import { sweepOption, fitLegend, logRange } from '../charts.js';
import { ganttOption, ganttHeight } from '../gantt.js';
import { el, fill, summary, extraNumbers, warnings, table, lpDownload } from '../ui.js';
import { renderDstar } from './buffers-dstar.js';
import { renderSweep } from './buffers-sweep.js';

const KNOWN = ['makespan', 'n', 'n_min', 'LB', 'lower_bound', 'total_load'];

// At most this many stages are drawn in the chunk-size chart (Fig. 6).
const CHUNK_SERIES = 12;

const TOPOLOGIES = {
  star: 'star',
  tree: 'ordinary tree',
  binomial: 'binomial tree',
};

const isTree = (v) => v.topology === 'tree' || v.topology === 'binomial';

export default {
  id: 'buffers',
  title: 'Buffers',
  paper: { id: '000', cite: 'Drozdowski, Wolniewicz, “Performance limits of divisible load processing in systems with limited communication buffers”, Journal of Parallel and Distributed Computing, 2004' },
  model: (v) => v.topology,
  intro: 'The originator scatters the load V in n stages through communication buffers of size D: no message may exceed D, so at least n_min stages are needed. The optimum loads of every stage come from the paper’s linear programs: LoadDirect for a star, TreeNLF/LLF for an ordinary tree with 1 or 2 buffers per node, BinomialTreeNLF/LLF for a binomial tree, with layers activated nearest first (NLF) or largest first (LLF).',
  fields: [
    {
      key: 'topology', symbol: 'net', name: 'interconnection (Sec. 2 of [000])', kind: 'choice', default: 'star',
      choices: [
        { value: 'star', label: 'star — LoadDirect (Sec. 3.1)' },
        { value: 'tree', label: 'ordinary tree — TreeNLF/LLF-1/2 (Sec. 3.2)' },
        { value: 'binomial', label: 'binomial tree — BinomialTreeNLF/LLF (Sec. 3.3)' },
      ],
    },
    { key: 'm', symbol: 'm', name: 'processors (m in [000])', kind: 'integer', default: 10, when: (v) => v.topology === 'star' },
    { key: 'p', symbol: 'p', name: 'out-degree of a node (p in [000])', kind: 'integer', default: 2, when: isTree },
    { key: 'h', symbol: 'h', name: 'layers below the originator (h in [000])', kind: 'integer', default: 4, when: isTree, help: 'the paper uses h = 10; the LP grows with h² per stage' },
    { key: 'S', symbol: 'S', name: 'communication start-up (S in [000])', unit: 's', kind: 'number', default: 1e-3 },
    { key: 'C', symbol: 'C', name: 'transfer time per unit (C in [000])', unit: 's/unit', kind: 'number', default: 1e-6 },
    { key: 'A', symbol: 'A', name: 'computing time per unit (A in [000])', unit: 's/unit', kind: 'number', default: 1e-3 },
    { key: 'V', symbol: 'V', name: 'load (V in [000])', unit: 'units', kind: 'number', default: 5e3 },
    { key: 'D', symbol: 'D', name: 'buffer size (D in [000])', unit: 'units', kind: 'number', optional: true, default: 1e4, placeholder: 'blank: unlimited' },
    { key: 'n', symbol: 'n', name: 'number of stages (n in [000])', kind: 'integer', optional: true, default: 3, placeholder: 'blank: n_min', help: 'at least n_min, the fewest stages that buffers of size D allow (the results give it and its formula for the topology)' },
    {
      key: 'order', symbol: 'ord', name: 'layer activation order (Sec. 2 of [000])', kind: 'choice', default: 'NLF', when: isTree,
      choices: [{ value: 'NLF', label: 'NLF — nearest layer first' }, { value: 'LLF', label: 'LLF — largest layer first' }],
    },
    {
      key: 'buffers', symbol: 'buf', name: 'buffers per node (ordinary tree, Sec. 3.2)', kind: 'choice', default: '1', when: (v) => v.topology === 'tree',
      choices: [{ value: '1', label: '1 buffer — TreeNLF-1 / TreeLLF-1' }, { value: '2', label: '2 buffers — TreeNLF-2 / TreeLLF-2' }],
    },
    {
      key: 'prune', symbol: 'prune', name: 'which system is solved (end of Sec. 3 of [000])', kind: 'choice', default: 'best',
      help: 'the paper drops only stages and processors that get no load; a smaller system can be shorter still',
      choices: [
        { value: 'best', label: 'best — the shortest of every smaller system and the paper’s pruning' },
        { value: 'true', label: 'the paper’s pruning — drop empty stages and processors, re-solve' },
        { value: 'false', label: 'raw LP — as printed, S charged even for empty messages' },
      ],
    },
  ],

  toRequest(v) {
    const r = { model: v.topology };
    if (v.topology === 'star') r.m = v.m;
    else Object.assign(r, { p: v.p, h: v.h });
    Object.assign(r, { S: v.S, C: v.C, A: v.A, V: v.V });
    if (v.D !== undefined) r.D = v.D;
    if (v.n !== undefined) r.n = v.n;
    if (v.topology !== 'star') r.order = v.order;
    if (v.topology === 'tree') r.buffers = Number(v.buffers);
    // A link from before the choice holds a checkbox's true/false.
    const prune = String(v.prune);
    if (prune === 'false') r.prune = false;
    else if (prune === 'best') r.prune = 'best';
    return r;
  },

  render(r, ctx) {
    renderSummary(r, ctx);
    renderDstar(ctx);
    renderLoads(r, ctx);
    renderChunks(r, ctx);
    renderGantt(r, ctx);
    renderSweep(ctx);
  },
};

/** The name of the LP the paper gives for a request. */
function lpName(q) {
  if (q.model === 'star') return 'LoadDirect';
  if (q.model === 'binomial') return `BinomialTree${q.order}`;
  return `Tree${q.order}-${q.buffers}`;
}

function processorsOf(r, q) {
  if (q.model === 'star') return q.m;
  const sizes = Array.isArray(r.layer_sizes) ? r.layer_sizes : [];
  return sizes.length ? sizes.reduce((s, x) => s + (isNum(x) ? x : 0), 0) : undefined;
}

function lpText(lp) {
  if (!lp || !isNum(lp.variables)) return undefined;
  const parts = [`${fmtInt(lp.variables)} variables`, `${fmtInt(lp.rows)} rows`];
  if (isNum(lp.iterations)) parts.push(`${fmtInt(lp.iterations)} iterations`);
  if (isNum(lp.solves) && lp.solves > 1) parts.push(`${fmtInt(lp.solves)} solves (pruned)`);
  return parts.join(', ');
}

/** With prune = best: the paper's pruning beside the answer. */
function paperPruning(best, star) {
  if (!best?.paper) return [];
  const { units, stages, makespan } = best.paper;
  const hint = `${fmtInt(units)} ${star ? 'processors' : 'layers'}, ${fmtInt(stages)} stages; ${fmtInt(best.searched)} smaller systems solved`
    + (best.not_searched ? `, ${fmtInt(best.not_searched)} beyond the work budget` : '');
  return [{ label: 'Cmax of the paper’s pruning', hint, value: makespan, unit: 's', testid: 'paper-pruning' }];
}

/** The LB items of the summary: the star's LB; a tree's LB strategy (`lb_layer`), the paper's estimate and the core's bound. */
function lbItems(star, lb) {
  if (star) return [{ label: 'lower bound LB', hint: 'S + VA/m (Sec. 4.1)', value: lb?.LB, unit: 's', testid: 'lb' }];
  return [
    { label: 'LB strategy', hint: 'one layer computes (Sec. 4.2); the paper’s estimate, no bound where computing dominates', value: lb?.LB, unit: 's', testid: 'lb' },
    { label: 'lower bound', hint: 'of the LB strategy, from the core', value: lb?.lower_bound, unit: 's', testid: 'lower-bound' },
  ];
}

function renderSummary(r, ctx) {
  const q = ctx.request;
  const body = ctx.panel('summary', { title: `Result: ${TOPOLOGIES[q.model]}, LP ${lpName(q)}` });
  const star = q.model === 'star';
  const lbRequest = { model: 'lb_layer', p: q.p, h: q.h, S: q.S, C: q.C, A: q.A, V: q.V };
  const lbKey = JSON.stringify(lbRequest);
  const lbTree = !star && ctx.state.lb?.key === lbKey ? ctx.state.lb.value : undefined;
  const draw = (lb) => {
    const items = [
      { label: 'schedule length Cmax', value: r.makespan, unit: 's', testid: 'makespan', big: true },
      ...lbItems(star, lb),
      { label: 'Cmax / LB', value: isNum(r.makespan) && isNum(lb?.LB) && lb.LB > 0 ? r.makespan / lb.LB : undefined, format: (x) => fmt(x, 4), testid: 'ratio-lb' },
      { label: 'stages n', hint: q.n === undefined ? 'n_min (n left blank)' : 'as given', value: r.n, format: fmtInt, testid: 'n' },
      { label: 'n_min', hint: star ? '⌈V / (D·m)⌉' : q.model === 'tree' ? '⌈V / (D·p·h)⌉' : '⌈V / (D(h(p+1) − 1))⌉', value: r.n_min, format: fmtInt, testid: 'n-min' },
      { label: 'processors', hint: star ? 'm' : 'in h layers', value: processorsOf(r, q), format: fmtInt, testid: 'processors' },
      { label: 'load V', value: r.total_load ?? q.V, unit: 'units', testid: 'total-load' },
      ...paperPruning(r.best, star),
      { label: 'LP size', hint: lpName(q), value: lpText(r.lp) ?? 'not reported', testid: 'lp-size' },
      ...extraNumbers(r, KNOWN),
    ];
    fill(body, summary(items), warnings(r.warnings), lpDownload(ctx.solver, () => ctx.request, { basename: lpName(q).toLowerCase() }));
  };
  draw(star ? r : lbTree);
  if (star || lbTree) return;
  // Trees: the LB strategy of Sec. 4.2 for these parameters.
  const seq = (ctx.state.lbSeq = (ctx.state.lbSeq ?? 0) + 1);
  ctx.solver.solve(lbRequest, { signal: ctx.signal }).then((res) => {
    if (!isNum(res?.LB)) return;
    ctx.state.lb = { key: lbKey, value: res };
    if (ctx.state.lbSeq === seq) draw(res);
  }, () => {});
}

function rowName(q, i) {
  return q.model === 'star' ? `P${i + 1}` : `layer ${i + 1}`;
}

function renderLoads(r, ctx) {
  const q = ctx.request;
  const star = q.model === 'star';
  const body = ctx.panel('loads', {
    title: star ? 'Loads per processor and stage' : 'Loads per layer and stage',
    wide: true,
    note: star
      ? 'α_i = Σ_k α_ik is what P_i computes in all; α_ik is its chunk in stage k (≤ D). Processors are served P1 … Pm in every stage.'
      : 'Each processor of layer i computes α_i = Σ_k α_ik; α_ik is what each one of them receives for itself in stage k. The layer as a whole computes α_i times its size.',
  });
  const loads = Array.isArray(r.loads) ? r.loads : [];
  const chunks = Array.isArray(r.chunks) ? r.chunks : [];
  const sizes = Array.isArray(r.layer_sizes) ? r.layer_sizes : [];
  const shownStages = Math.min(chunks.length, 8);
  const rows = loads.map((load, i) => ({
    name: rowName(q, i),
    count: star ? 1 : sizes[i],
    load,
    stages: chunks.map((c) => (Array.isArray(c) ? c[i] : undefined)),
  }));
  const V = isNum(r.total_load) ? r.total_load : q.V;
  const columns = [
    { key: 'name', label: star ? 'processor' : 'layer', numeric: false },
    ...(star ? [] : [{ key: 'count', label: 'processors', format: fmtInt }]),
    { key: 'load', label: 'α_i [units]', title: 'load of each processor, all stages', testid: (i) => `load-${i}` },
    { key: 'share', label: 'share of V', get: (row) => (isNum(row.load) && isNum(row.count) && V ? (row.load * row.count) / V : undefined), format: (x) => `${fmt(x * 100, 4)} %` },
    ...Array.from({ length: shownStages }, (_, k) => ({ key: `k${k}`, label: `α_i${stageNumber(r, k)}`, title: `chunk in stage ${stageNumber(r, k)}`, get: (row) => row.stages[k], testid: (i) => `chunk-${k}-${i}` })),
  ];
  const more = chunks.length > shownStages ? `${shownStages} of the ${fmtInt(chunks.length)} stages listed shown; the chart below draws up to ${CHUNK_SERIES} of them.` : '';
  const extra = more || r.omitted ? el('p', { class: 'note', text: `${more}${omittedNote(r)}`.trim() }) : null;
  fill(body, table(columns, rows, { testid: 'load-table' }), extra);
}

/** Chunks of very different sizes (small first stages, a big last one) read better on a log scale. */
function chunksLog(chunks, stages) {
  const all = stages.flatMap((k) => (Array.isArray(chunks[k]) ? chunks[k] : [])).filter((x) => isNum(x) && x > 0);
  return all.length > 1 && Math.max(...all) / Math.min(...all) > 20;
}

function yLogNote(chunks, stages) {
  return chunksLog(chunks, stages) ? '; the vertical axis is logarithmic, empty chunks are not drawn' : '';
}

/** Stage number (1-based) of row `k` of `r.chunks`: a long answer leaves out `r.omitted.stages` alike stages. */
function stageNumber(r, k) {
  const o = r.omitted;
  return o && k >= o.from ? k + 1 + o.stages : k + 1;
}

/** What the chunk table and chart say of the stages a long answer leaves out. */
function omittedNote(r) {
  const o = r.omitted;
  return o ? ` Stages ${fmtInt(o.from + 1)}–${fmtInt(o.from + o.stages)} (${fmtInt(o.stages)} of ${fmtInt(r.n)}) are not listed: each has the chunks of stage ${fmtInt(o.from)}.` : '';
}

/** Up to `k` stage indices of `n`, spread evenly, the first and last included. */
function pickStages(n, k) {
  if (n <= k) return Array.from({ length: n }, (_, i) => i);
  const out = new Set();
  for (let j = 0; j < k; j++) out.add(Math.round((j * (n - 1)) / (k - 1)));
  return [...out].sort((a, b) => a - b);
}

function renderChunks(r, ctx) {
  const q = ctx.request;
  const star = q.model === 'star';
  const chunks = Array.isArray(r.chunks) ? r.chunks : [];
  const stages = pickStages(chunks.length, CHUNK_SERIES);
  const body = ctx.panel('chunks', {
    title: 'Chunk sizes by stage (like Fig. 6 of [000])',
    wide: true,
    note: `${star ? 'Processor P_i' : 'Layer i'} along the horizontal axis, its chunk α_ik on the vertical one, one line per stage k${stages.length < chunks.length ? ` (${stages.length} of the ${fmtInt(chunks.length)} stages listed drawn)` : ''}${yLogNote(chunks, stages)}.${omittedNote(r)} Fig. 6 of [000] has m = 10, A = 1e-3, C = 1e-6, S = 1e-3, V = 5e3, D = 1e4: chunks grow slowly with i and k, and shrink in the last stage so that all finish together.`,
  });
  const chart = ctx.chart('chunks', body, { height: 300, onResize: fitLegend });
  const yLog = chunksLog(chunks, stages);
  const series = stages.map((k) => ({
    name: `stage ${stageNumber(r, k)}`,
    data: (Array.isArray(chunks[k]) ? chunks[k] : []).map((x, i) => [i + 1, isNum(x) && (!yLog || x > 0) ? x : null]),
  }));
  const option = sweepOption({ series, xName: star ? 'processor i' : 'layer i', yName: 'chunk α_ik [units]', xInteger: true, yLog });
  if (yLog) Object.assign(option.yAxis, logRange(series));
  option.xAxis.axisLabel.formatter = (v) => (Number.isInteger(v) ? (star ? `P${v}` : String(v)) : '');
  const count = Math.max(0, ...series.map((x) => x.data.length));
  if (count <= 24) option.xAxis.interval = 1;
  chart.setOption(option, { notMerge: true });
  fitLegend(chart);
}

function renderGantt(r, ctx) {
  const q = ctx.request;
  const body = ctx.panel('gantt', {
    title: 'Schedule (Gantt chart)',
    note: q.model === 'star'
      ? 'Fig. 2 of [000]: the originator P0 sends to P1 … Pm in turn, stage after stage; each row shows the messages it receives (above) and its computing (below). Drag or scroll to zoom.'
      : 'One row per layer (its processors act alike): messages received by the layer above, its computing below, as in Figs. 3–5 of [000]. Drag or scroll to zoom.',
    wide: true,
  });
  const rows = Array.isArray(r.processors) ? r.processors.length : 1;
  const chart = ctx.chart('gantt', body, { height: ganttHeight(rows) });
  chart.setOption(ganttOption(r, { timeName: 'time [s]' }), { notMerge: true });
}
