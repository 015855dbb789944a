// Paper 000: Drozdowski, Wolniewicz, "Optimum divisible load scheduling on
// heterogeneous stars with limited memory" / limited communication buffers:
// a star (LP LoadDirect), ordinary trees (TreeNLF/LLF with 1 or 2 buffers)
// and binomial trees (BinomialTreeNLF/LLF). The core solves the paper's LP
// for n stages (n_min = the fewest the buffer D allows, by default); D* of
// Sec. 5 and the LB strategy of Sec. 4.2 come from `buffer_dstar` and
// `lb_layer`.

import { fmt, fmtInt, isNum } from '../format.js';
import { sweepOption, fitLegend, logSpace, logRange, COLORS } from '../charts.js';
import { ganttOption, ganttHeight } from '../gantt.js';
import { el, fill, summary, extraNumbers, warnings, table, message, lpDownload } from '../ui.js';

const KNOWN = ['makespan', 'n', 'n_min', 'LB', 'total_load'];

// The Cmax-vs-V sweep (Figs. 7 and 11 of [000]): V from 1e1 to 1e6, three
// points a decade, for these buffers, each with n = n_min stages.
const SWEEP_V = logSpace(1, 6, 3);
const SWEEP_D = [1e2, 1e3, 1e4, undefined];
// A point whose LP would have more variables than this is not computed: the
// LP grows as n_min = ceil(V / (D·cap)) stages of a fixed size, and at
// V = 1e6, D = 1e2 the star's LP has 30 000 variables and takes ~20 s.
const SWEEP_MAX_VARIABLES = 3000;
// The core solves a star at n = n_min with more than this many messages
// (n·m) by a reduced LP, its middle stages full to D (FULL_LP_MESSAGES in
// crates/dlt-core/src/buffers/star.rs): such points are cheap again.
const STAR_FULL_LP_MESSAGES = 3000;
// At most this many stages are drawn in the chunk-size chart (Fig. 6).
const CHUNK_SERIES = 12;

const TOPOLOGIES = {
  star: 'star',
  tree: 'ordinary tree',
  binomial: 'binomial tree',
};

const isTree = (v) => v.topology === 'tree' || v.topology === 'binomial';

/** Processors a message of the originator can fill in one stage (n_min = ceil(V / (D·cap))). */
function stageCapacity(q) {
  if (q.model === 'star') return q.m;
  if (q.model === 'tree') return q.p * q.h;
  return q.h * (q.p + 1) - 1;
}

/** LP variables per stage, as the core builds them (star 3m, tree h(h+1)/2 + 2h, binomial 3h). */
function variablesPerStage(q) {
  if (q.model === 'star') return 3 * q.m;
  if (q.model === 'tree') return (q.h * (q.h + 1)) / 2 + 2 * q.h;
  return 3 * q.h;
}

function nMin(q) {
  return isNum(q.D) ? Math.max(1, Math.ceil(q.V / (q.D * stageCapacity(q)))) : 1;
}

/** The `buffer_dstar` topology of a request. */
function dstarTopology(q) {
  if (q.model === 'star') return 'star';
  if (q.model === 'binomial') return 'binomial';
  return q.buffers === 2 ? 'tree2' : 'tree1';
}

const DSTAR_FORMULA = {
  star: 'D* ≥ mS / (A − mC): A·D* ≥ m(S + C·D*), every processor computes through a whole stage of m messages',
  binomial: 'D* ≥ S(h+1)h·p(p+1)^(h−2) / (2(A − Ch(p+1)^(h−1))): layer h, the least loaded, computes through one stage of communications',
  tree2: 'D* ≥ hS / (A/p^(h−1) − Ch): layer h computes through the h overlapping messages of one stage (2 buffers)',
  tree1: 'D* ≥ hS / (A/p^(h−1) − hC(1 + 1/p)): layer h computes through one stage of communications (1 buffer)',
};

export default {
  id: 'buffers',
  title: 'Buffers',
  paper: { id: '000', cite: 'Drozdowski, Wolniewicz, “Performance limits of divisible load processing in systems with limited communication buffers”, Journal of Parallel and Distributed Computing, 2004' },
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
    { key: 'm', symbol: 'm', name: 'processors (m in [000])', kind: 'integer', min: 1, max: 1000, default: 10, when: (v) => v.topology === 'star' },
    { key: 'p', symbol: 'p', name: 'out-degree of a node (p in [000])', kind: 'integer', min: 1, default: 2, when: isTree },
    { key: 'h', symbol: 'h', name: 'layers below the originator (h in [000])', kind: 'integer', min: 1, default: 4, when: isTree, help: 'the paper uses h = 10; the LP grows with h² per stage' },
    { key: 'S', symbol: 'S', name: 'communication start-up (S in [000])', unit: 's', kind: 'number', min: 0, default: 1e-3 },
    { key: 'C', symbol: 'C', name: 'transfer time per unit (C in [000])', unit: 's/unit', kind: 'number', min: 0, default: 1e-6 },
    { key: 'A', symbol: 'A', name: 'computing time per unit (A in [000])', unit: 's/unit', kind: 'number', gt: 0, default: 1e-3 },
    { key: 'V', symbol: 'V', name: 'load (V in [000])', unit: 'units', kind: 'number', gt: 0, default: 5e3 },
    { key: 'D', symbol: 'D', name: 'buffer size (D in [000])', unit: 'units', kind: 'number', gt: 0, optional: true, default: 1e4, placeholder: 'blank: unlimited' },
    { key: 'n', symbol: 'n', name: 'number of stages (n in [000])', kind: 'integer', min: 1, optional: true, default: 3, placeholder: 'blank: n_min', help: 'at least n_min = ⌈V / (D·m)⌉ for the star' },
    {
      key: 'order', symbol: 'ord', name: 'layer activation order (Sec. 2 of [000])', kind: 'choice', default: 'NLF', when: isTree,
      choices: [{ value: 'NLF', label: 'NLF — nearest layer first' }, { value: 'LLF', label: 'LLF — largest layer first' }],
    },
    {
      key: 'buffers', symbol: 'buf', name: 'buffers per node (ordinary tree, Sec. 3.2)', kind: 'choice', default: '1', when: (v) => v.topology === 'tree',
      choices: [{ value: '1', label: '1 buffer — TreeNLF-1 / TreeLLF-1' }, { value: '2', label: '2 buffers — TreeNLF-2 / TreeLLF-2' }],
    },
    { key: 'prune', symbol: 'prune', name: 'drop empty stages and processors and re-solve, as the paper did (end of Sec. 3)', kind: 'bool', default: true, help: 'unchecked: the raw LP, which charges S even for empty messages' },
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
    if (v.prune === false) r.prune = false;
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

function renderSummary(r, ctx) {
  const q = ctx.request;
  const body = ctx.panel('summary', { title: `Result: ${TOPOLOGIES[q.model]}, LP ${lpName(q)}` });
  const star = q.model === 'star';
  const lbKey = JSON.stringify([q.p, q.h, q.S, q.C, q.A, q.V]);
  const lbTree = !star && ctx.state.lb?.key === lbKey ? ctx.state.lb.value : undefined;
  const lb = star ? (isNum(r.LB) ? r.LB : q.S + (q.V * q.A) / q.m) : lbTree;
  const draw = (lbValue) => {
    const items = [
      { label: 'schedule length Cmax', value: r.makespan, unit: 's', testid: 'makespan', big: true },
      star
        ? { label: 'lower bound LB', hint: 'S + VA/m (Sec. 4.1)', value: lbValue, unit: 's', testid: 'lb' }
        : { label: 'LB strategy', hint: 'one layer computes (Sec. 4.2)', value: lbValue, unit: 's', testid: 'lb' },
      { label: 'Cmax / LB', value: isNum(r.makespan) && isNum(lbValue) && lbValue > 0 ? r.makespan / lbValue : undefined, format: (x) => fmt(x, 4), testid: 'ratio-lb' },
      { label: 'stages n', hint: q.n === undefined ? 'n_min (n left blank)' : 'as given', value: r.n, format: fmtInt, testid: 'n' },
      { label: 'n_min', hint: star ? '⌈V / (D·m)⌉' : q.model === 'tree' ? '⌈V / (D·p·h)⌉' : '⌈V / (D(h(p+1) − 1))⌉', value: r.n_min, format: fmtInt, testid: 'n-min' },
      { label: 'processors', hint: star ? 'm' : 'in h layers', value: processorsOf(r, q), format: fmtInt, testid: 'processors' },
      { label: 'load V', value: r.total_load ?? q.V, unit: 'units', testid: 'total-load' },
      { label: 'LP size', hint: lpName(q), value: lpText(r.lp) ?? 'not reported', testid: 'lp-size' },
      ...extraNumbers(r, KNOWN),
    ];
    fill(body, summary(items), warnings(r.warnings), lpDownload(ctx.solver, () => ctx.request, { basename: lpName(q).toLowerCase() }));
  };
  draw(lb);
  if (star || isNum(lbTree)) return;
  // Trees: the LB strategy of Sec. 4.2 for these parameters.
  const seq = (ctx.state.lbSeq = (ctx.state.lbSeq ?? 0) + 1);
  ctx.solver.solve({ model: 'lb_layer', p: q.p, h: q.h, S: q.S, C: q.C, A: q.A, V: q.V }, { signal: ctx.signal }).then((res) => {
    if (!isNum(res?.LB)) return;
    ctx.state.lb = { key: lbKey, value: res.LB };
    if (ctx.state.lbSeq === seq) draw(res.LB);
  }, () => {});
}

function renderDstar(ctx) {
  const q = ctx.request;
  const topology = dstarTopology(q);
  const body = ctx.panel('dstar', {
    title: 'Buffer size D* (Sec. 5 of [000])',
    note: `With messages of size D* the processors keep computing until the next stage arrives. ${DSTAR_FORMULA[topology]}.`,
  });
  const request = { model: 'buffer_dstar', topology, S: q.S, C: q.C, A: q.A };
  if (q.model === 'star') request.m = q.m;
  else Object.assign(request, { p: q.p, h: q.h });
  const key = JSON.stringify(request);
  const draw = (res, err) => {
    if (err) {
      fill(body, message('error', `D* could not be computed: ${err.message}`));
      return;
    }
    const d = res.D_star;
    const cond = res.condition ? `${res.condition}` : 'its condition';
    let sentence;
    if (isNum(d)) {
      const D = q.D;
      const where = !isNum(D)
        ? 'Your buffer is unlimited, so the limit never binds.'
        : D >= d
          ? `Your D = ${fmt(D)} is at least D*: messages of size D keep the processors busy between stages.`
          : `Your D = ${fmt(D)} is below D*: with full messages of size D, processors may wait idle for the next stage.`;
      sentence = `D* exists because ${cond} holds for these parameters. ${where}`;
    } else {
      sentence = `D* does not exist: ${cond} fails for these parameters, so idle times are inevitable whatever the buffer size.`;
    }
    const items = [{ label: 'D*', hint: topology === 'tree1' ? 'ordinary tree, 1 buffer' : topology === 'tree2' ? 'ordinary tree, 2 buffers' : TOPOLOGIES[q.model], value: isNum(d) ? d : 'does not exist', unit: 'units', testid: 'dstar', big: true }];
    let use = null;
    if (isNum(d) && ctx.setValues) {
      const D = Number(d.toPrecision(6));
      // A given n below the n_min of the new buffer is dropped for n_min.
      const tooFew = q.n !== undefined && q.n < nMin({ ...q, D });
      use = el('button', {
        type: 'button', class: 'ghost small', 'data-testid': 'use-dstar',
        text: `Compute with D = D* (${fmt(d, 4)})${tooFew ? ' and n = n_min' : ''}`,
        onclick: () => ctx.setValues(tooFew ? { D, n: '' } : { D }),
      });
    }
    const warn = Array.isArray(res.warnings) ? res.warnings.filter((w) => !/does not exist/.test(w)) : [];
    fill(body, summary(items), el('p', { class: 'dstar-text', 'data-testid': 'dstar-text', text: sentence }), warnings(warn), use ? el('div', { class: 'panel-actions' }, use) : null);
  };
  if (ctx.state.dstar?.key === key) {
    draw(ctx.state.dstar.res, ctx.state.dstar.err);
    return;
  }
  const seq = (ctx.state.dstarSeq = (ctx.state.dstarSeq ?? 0) + 1);
  ctx.solver.solve(request, { signal: ctx.signal }).then(
    (res) => { ctx.state.dstar = { key, res }; if (ctx.state.dstarSeq === seq) draw(res); },
    (err) => { if (ctx.state.dstarSeq === seq && err.code !== 'cancelled') draw(null, err); },
  );
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
    ...Array.from({ length: shownStages }, (_, k) => ({ key: `k${k}`, label: `α_i${k + 1}`, title: `chunk in stage ${k + 1}`, get: (row) => row.stages[k], testid: (i) => `chunk-${k}-${i}` })),
  ];
  const extra = chunks.length > shownStages ? el('p', { class: 'note', text: `Stages 1–${shownStages} of ${chunks.length} shown; the chart below draws up to ${CHUNK_SERIES} of them.` }) : null;
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
    note: `${star ? 'Processor P_i' : 'Layer i'} along the horizontal axis, its chunk α_ik on the vertical one, one line per stage k${stages.length < chunks.length ? ` (${stages.length} of ${chunks.length} stages drawn)` : ''}${yLogNote(chunks, stages)}. Fig. 6 of [000] has m = 10, A = 1e-3, C = 1e-6, S = 1e-3, V = 5e3, D = 1e4: chunks grow slowly with i and k, and shrink in the last stage so that all finish together.`,
  });
  const chart = ctx.chart('chunks', body, { height: 300, onResize: fitLegend });
  const yLog = chunksLog(chunks, stages);
  const series = stages.map((k) => ({
    name: `stage ${k + 1}`,
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

/** `q` at n = n_min, or null when its LP is too large to solve in a sweep (the gallery's too). */
export function sweepPoint(q) {
  const n = nMin(q);
  const reduced = q.model === 'star' && n >= 2 && n * q.m > STAR_FULL_LP_MESSAGES;
  return n * variablesPerStage(q) > SWEEP_MAX_VARIABLES && !reduced ? null : q;
}

/** A point of the Cmax-vs-V sweep: its request, or null when its LP is too large. */
function sweepRequest(base, V, D) {
  const q = { ...base, V };
  if (D !== undefined) q.D = D;
  return sweepPoint(q);
}

async function renderSweep(ctx) {
  const q = ctx.request;
  const star = q.model === 'star';
  const base = { model: q.model, ...(star ? { m: q.m } : { p: q.p, h: q.h }), S: q.S, C: q.C, A: q.A };
  if (!star) base.order = q.order;
  if (q.model === 'tree') base.buffers = q.buffers;
  if (q.prune === false) base.prune = false;
  const capText = star ? 'D·m' : q.model === 'tree' ? 'D·p·h' : 'D(h(p+1) − 1)';
  const body = ctx.panel('sweep', {
    title: star ? 'Cmax vs V for several buffer sizes D (like Fig. 7 of [000])' : `Cmax vs V for several buffer sizes D (like Fig. ${q.model === 'binomial' ? '11' : '12'} of [000])`,
    note: `n = n_min = ⌈V / (${capText})⌉ stages, S, C, A${star ? ', m' : ', p, h, the order'} from the form; V from 1e1 to 1e6, three points a decade. `
      + (star
        ? 'The dashed line is LB = S + VA/m: ideal balance after one start-up. On this scale the lines nearly coincide, as in Fig. 7 of [000]; “Cmax − Cmax(D = 1e2)” shows their differences, like Fig. 8.'
        : `The dashed line is the LB strategy of Sec. 4.2 (only the best single layer computes, n* stages). ${q.model === 'binomial' ? 'Fig. 11 of [000] is a binomial tree, LLF, h = 10' : 'Fig. 12 of [000] compares an ordinary tree with h = 7 and a binomial tree with h = 5'}.`)
      + ` Points whose LP would exceed ${fmtInt(SWEEP_MAX_VARIABLES)} variables (large V with a small D) are not computed here${star ? ', unless n·m > 3000, where the core solves a reduced LP (its middle stages full to D)' : ''}.`,
    wide: true,
  });
  let holder = body.querySelector('.sweep-holder');
  if (!holder) {
    const modes = el('div', { class: 'segmented', role: 'radiogroup', 'aria-label': 'what to plot' },
      SWEEP_MODES.map((m) => el('button', {
        type: 'button', role: 'radio', 'data-mode': m.id, 'data-testid': `sweep-mode-${m.id}`, text: m.label, title: m.title,
        onclick: () => {
          ctx.state.sweepMode = m.id;
          ctx.setLinkState?.('mode', m.id); // the permalink keeps what the chart plots
          if (ctx.state.sweep?.data) drawSweep(ctx, ctx.state.sweep.data);
        },
      })));
    holder = el('div', { class: 'sweep-holder' });
    body.append(modes, holder);
  }
  ctx.state.sweepBody = body;
  const key = JSON.stringify(base);
  if (ctx.state.sweep?.key === key && ctx.state.sweep.data) {
    drawSweep(ctx, ctx.state.sweep.data);
    return;
  }
  body.querySelectorAll(':scope > .msg').forEach((n) => n.remove());
  const requests = [];
  const index = []; // [series, point] of each request
  let notComputed = 0;
  SWEEP_D.forEach((D, di) => {
    SWEEP_V.forEach((V, vi) => {
      const rq = sweepRequest(base, V, D);
      if (!rq) {
        notComputed++;
        return;
      }
      requests.push(rq);
      index.push([di, vi]);
    });
  });
  if (!star) {
    SWEEP_V.forEach((V, vi) => {
      requests.push({ model: 'lb_layer', p: q.p, h: q.h, S: q.S, C: q.C, A: q.A, V });
      index.push([SWEEP_D.length, vi]);
    });
  }
  const token = {};
  ctx.state.sweep = { key, token };
  const responses = await ctx.sweep(body, 'Cmax sweep', requests, { pick: ['makespan', 'LB', 'n'] });
  if (!responses || ctx.state.sweep?.token !== token) return;
  const values = Array.from({ length: SWEEP_D.length + 1 }, () => SWEEP_V.map(() => null));
  const failed = [];
  responses.forEach((res, j) => {
    const [si, vi] = index[j];
    if (res?.error) {
      failed.push(res.error);
      return;
    }
    const y = si === SWEEP_D.length ? res?.LB : res?.makespan;
    values[si][vi] = isNum(y) && y > 0 ? y : null;
  });
  if (star) SWEEP_V.forEach((V, vi) => { values[SWEEP_D.length][vi] = q.S + (V * q.A) / q.m; });
  const notes = [];
  if (notComputed) notes.push(`${notComputed} of ${SWEEP_D.length * SWEEP_V.length} points were not computed: their LP would exceed ${fmtInt(SWEEP_MAX_VARIABLES)} variables (enter such a case in the form to solve it alone).`);
  if (failed.length) notes.push(`${failed.length} point${failed.length > 1 ? 's were' : ' was'} skipped because the core could not solve ${failed.length > 1 ? 'them' : 'it'}: ${failed[0].message}`);
  if (notes.length) body.prepend(message('info', notes.join(' ')));
  body.dataset.notComputed = String(notComputed);
  body.dataset.skipped = String(failed.length);
  ctx.state.sweep = { key, data: { values, star } };
  drawSweep(ctx, ctx.state.sweep.data);
}

const SWEEP_MODES = [
  { id: 'cmax', label: 'Cmax', title: 'schedule length against V, log-log (Figs. 7, 11 of [000])' },
  { id: 'ratio', label: 'Cmax / LB', title: 'how far each schedule is from the lower bound' },
  { id: 'diff', label: 'Cmax − Cmax(D = 1e2)', title: 'how much longer the schedule is than with D = 1e2, both with n_min stages (Fig. 8 of [000]); no point where it is not longer' },
];

/** Draws the sweep's values as the chosen mode asks. */
function drawSweep(ctx, { values, star }) {
  const linked = ctx.linkState?.mode;
  const mode = SWEEP_MODES.some((m) => m.id === linked) ? linked : ctx.state.sweepMode ?? 'cmax';
  const body = ctx.state.sweepBody;
  const V = ctx.request.V;
  body.querySelectorAll('.segmented [data-mode]').forEach((b) => b.setAttribute('aria-checked', String(b.dataset.mode === mode)));
  const chart = ctx.chart('sweep', body.querySelector('.sweep-holder'), { height: 380, onResize: fitLegend });
  const lb = values[SWEEP_D.length];
  const ref = values[SWEEP_D.indexOf(1e2)];
  const y = (di, vi) => {
    const c = values[di][vi];
    if (!isNum(c)) return null;
    if (mode === 'ratio') return isNum(lb[vi]) && lb[vi] > 0 ? c / lb[vi] : null;
    // Differences at rounding level (1e-9 of Cmax) are no difference.
    if (mode === 'diff') return isNum(ref?.[vi]) && c - ref[vi] > 1e-9 * c ? c - ref[vi] : null;
    return c;
  };
  const shown = mode === 'diff' ? SWEEP_D.map((D, di) => di).filter((di) => SWEEP_D[di] !== 1e2) : SWEEP_D.map((D, di) => di);
  const series = shown.map((di) => ({
    name: SWEEP_D[di] === undefined ? 'D = ∞ (unlimited)' : `D = ${fmt(SWEEP_D[di])}`,
    data: SWEEP_V.map((v, vi) => [v, y(di, vi)]),
    color: COLORS.series[di],
  }));
  if (mode === 'cmax') series.push({ name: star ? 'LB = S + VA/m' : 'LB strategy', data: SWEEP_V.map((v, vi) => [v, lb[vi]]), dashed: true, color: '#7d8796' });
  if (mode === 'ratio') series.push({ name: 'Cmax = LB', data: SWEEP_V.map((v) => [v, 1]), dashed: true, color: '#7d8796' });
  const yName = mode === 'ratio' ? 'Cmax / LB' : mode === 'diff' ? 'Cmax − Cmax(D = 1e2) [s]' : 'Cmax [s]';
  const yLog = mode !== 'ratio';
  const option = sweepOption({ series, xName: 'load V [units]', yName, xLog: true, yLog, markX: V, markLabel: `V = ${fmt(V)}` });
  if (yLog) Object.assign(option.yAxis, logRange(series));
  chart.setOption(option, { notMerge: true });
  fitLegend(chart);
}

