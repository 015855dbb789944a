// Paper 002: Drozdowski, Wolniewicz, "Out-of-core divisible load
// processing" (IEEE TPDS 2003). A star whose processors compute x units in
// max_j (A_ij1 + x·A_ij2) time, a piecewise-linear convex function (core
// memory, then out-of-core); the core solves LP (1)-(4). The view also
// reproduces Fig. 3 (classical linear DLT against the hierarchy) and Fig. 10
// (out-of-core against multi-installment processing, chunk size from (5)).

import { fmt, fmtInt, isNum, parseNumber } from '../format.js';
import { sweepOption, fitLegend, logSpace, logRange, COLORS } from '../charts.js';
import { ganttOption, ganttHeight } from '../gantt.js';
import { buildForm } from '../form.js';
import { el, fill, summary, extraNumbers, warnings, table, message, lpDownload } from '../ui.js';

const KNOWN = ['makespan', 'total_load', 'real_makespan_under_hierarchy'];
const FIG10_V = logSpace(2, 12, 2); // 1e2 .. 1e12, two points a decade
const LEVELS = ['core', 'out-of-core'];

// ---- pieces as text: "1+1x, -9+10x" <-> [[1, 1], [-9, 10]] ---------------

const NUM = String.raw`(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?`;
const PIECE = new RegExp(String.raw`^(?:([+-]?${NUM})(?:([+-])(${NUM})?\*?x)?|([+-]?)(${NUM})?\*?x)$`, 'i');

/** Parses one piece "a+bx", "-9+10x", "0.001x", "2" into [a, b]. */
function parsePiece(text) {
  const t = text.replace(/\s+/g, '').replace(/·/g, '*');
  const m = PIECE.exec(t);
  if (!m) return null;
  if (m[1] !== undefined) {
    const a = parseNumber(m[1]);
    if (m[2] === undefined) return [a, 0];
    const b = m[3] === undefined ? 1 : parseNumber(m[3]);
    return [a, m[2] === '-' ? -b : b];
  }
  const b = m[5] === undefined ? 1 : parseNumber(m[5]);
  return [0, m[4] === '-' ? -b : b];
}

/** Parses the pieces of one processor: "a+bx, a+bx" or JSON "[[a, b], [a, b]]". */
export function parsePieces(text) {
  const t = String(text ?? '').trim();
  if (!t) return { error: 'list at least one piece a+bx' };
  let pieces;
  if (t.startsWith('[')) {
    try {
      pieces = JSON.parse(t);
    } catch {
      return { error: 'write pieces as a+bx, separated by commas, or as [[a, b], …]' };
    }
    if (!Array.isArray(pieces) || !pieces.every((p) => Array.isArray(p) && p.length === 2 && p.every((x) => typeof x === 'number'))) {
      return { error: 'write pieces as [[a, b], …] with two numbers each' };
    }
  } else {
    pieces = [];
    for (const part of t.split(/[,;]/).map((x) => x.trim()).filter(Boolean)) {
      const p = parsePiece(part);
      if (!p) return { error: `“${part}” is not a piece a+bx (e.g. 1+1x, -9+10x, 0.001x)` };
      pieces.push(p);
    }
  }
  if (pieces.length === 0) return { error: 'list at least one piece a+bx' };
  for (const [a, b] of pieces) {
    if (!Number.isFinite(a) || !Number.isFinite(b)) return { error: 'every coefficient must be a finite number' };
    if (!(b > 0)) return { error: `the rate b of a+bx must be > 0 (got ${fmt(b)})` };
  }
  return { value: pieces };
}

/** A coefficient as short text that parses back to the same number. */
function num(x) {
  const ax = Math.abs(x);
  if (x !== 0 && (ax >= 1e5 || ax < 1e-3)) return x.toExponential().replace('e+', 'e');
  return String(x);
}

export function formatPieces(pieces) {
  if (!Array.isArray(pieces)) return '';
  return pieces.map(([a, b]) => {
    if (a === 0) return `${num(b)}x`;
    return `${num(a)}${b < 0 ? '-' : '+'}${num(Math.abs(b))}x`;
  }).join(', ');
}

/** Computing time of x units under `pieces` (max over the lines; 0 for no load). */
function timeOf(pieces, x) {
  if (!(x > 0)) return 0;
  return Math.max(...pieces.map(([a, b]) => a + b * x));
}

/** Index of the piece that sets the time of x units. */
function activePiece(pieces, x) {
  let best = 0;
  pieces.forEach(([a, b], j) => {
    const [a0, b0] = pieces[best];
    if (a + b * x > a0 + b0 * x) best = j;
  });
  return best;
}

const PAPER_PROCESSOR = { S: 1, C: 1, pieces: [[1, 1], [-9, 10]] };

// The Fig. 10 experiment of [002], with its own parameters.
const FIG10_FIELDS = [
  { key: 'm', symbol: 'm', name: 'processors (m in [002])', kind: 'integer', min: 1, max: 1000, default: 10 },
  { key: 'S', symbol: 'S', name: 'start-up (S in [002])', unit: 'time', kind: 'number', min: 0, default: 1e-3 },
  { key: 'C', symbol: 'C', name: 'transfer rate (C in [002])', unit: 'time/unit', kind: 'number', min: 0, default: 9.99e-5 },
  { key: 'Al1', symbol: 'Aˡ₁', name: 'core: fixed time (A^l_1)', unit: 'time', kind: 'number', default: 0 },
  { key: 'Al2', symbol: 'Aˡ₂', name: 'core: time per unit (A^l_2)', unit: 'time/unit', kind: 'number', gt: 0, default: 1e-3 },
  { key: 'Ah1', symbol: 'Aʰ₁', name: 'out-of-core: fixed time (A^h_1)', unit: 'time', kind: 'number', default: -9.9e6 },
  { key: 'Ah2', symbol: 'Aʰ₂', name: 'out-of-core: time per unit (A^h_2)', unit: 'time/unit', kind: 'number', gt: 0, default: 0.1 },
  { key: 'beta2', symbol: 'β′', name: 'a second chunk size (5 in Fig. 10)', unit: 'units', kind: 'number', gt: 0, default: 5 },
];

export default {
  id: 'memory',
  title: 'Memory hierarchy',
  paper: { id: '002', cite: 'Drozdowski, Wolniewicz, “Out-of-core divisible load processing”, IEEE Transactions on Parallel and Distributed Systems, 2003' },
  intro: 'The originator sends one message to each processor of a star, P1 first. Computing x units on P_i takes the largest of A_ij1 + x·A_ij2 over its memory levels j: fast while the load fits in core memory, about ten times slower beyond the swap point, when the disk is used. The optimum loads come from linear program (1)–(4) of [002]; all used processors finish together.',
  fields: [
    { key: 'V', symbol: 'V', name: 'load (V in [002])', unit: 'units', kind: 'number', gt: 0, default: 2 },
    {
      key: 'processors', symbol: 'P', name: 'processors P1 … Pm, served in this order: start-up S_i, transfer rate C_i, and the pieces A_ij1 + x·A_ij2 of their computing time (j = 1 core, j = 2 out-of-core in [002])',
      kind: 'rows', minRows: 1, maxRows: 200, addLabel: '+ Add a processor (a copy of the last)',
      rowLabel: (i) => `P${i + 1}`,
      default: [PAPER_PROCESSOR, PAPER_PROCESSOR],
      columns: [
        { key: 'S', label: 'S_i', title: 'communication start-up S_i [time]', kind: 'number', min: 0 },
        { key: 'C', label: 'C_i', title: 'transfer rate C_i [time/unit]', kind: 'number', min: 0 },
        { key: 'pieces', label: 'pieces a+bx', title: 'computing time pieces A_ij1 + x·A_ij2, comma-separated', wide: true, parse: parsePieces, format: formatPieces, placeholder: 'e.g. 1+1x, -9+10x' },
      ],
      help: 'time of x units = the largest piece, e.g. “1+1x, -9+10x” (swap point 10/9) or “0.001x, -9.9e6+0.1x”',
    },
    { key: 'prune', symbol: 'prune', name: 'drop processors that get no load and re-solve', kind: 'bool', default: true, help: 'unchecked: the raw LP, where every processor receives a message' },
  ],

  toRequest(v) {
    const r = { model: 'memory', V: v.V, processors: v.processors.map((p) => ({ S: p.S, C: p.C, pieces: p.pieces })) };
    if (v.prune === false) r.prune = false;
    return r;
  },

  render(r, ctx) {
    renderSummary(r, ctx);
    renderLoads(r, ctx);
    renderFig3(r, ctx);
    renderFig10(ctx);
  },
};

function lpText(lp) {
  if (!lp || !isNum(lp.variables)) return undefined;
  return `${fmtInt(lp.variables)} variables, ${fmtInt(lp.rows)} rows${isNum(lp.iterations) ? `, ${fmtInt(lp.iterations)} iterations` : ''}`;
}

function renderSummary(r, ctx) {
  const q = ctx.request;
  const body = ctx.panel('summary', { title: 'Result: LP (1)–(4) of [002]', wide: true });
  const loads = Array.isArray(r.loads) ? r.loads : [];
  const used = loads.filter((x) => isNum(x) && x > 0).length;
  const items = [
    { label: 'schedule length Cmax', value: r.makespan, unit: 'time', testid: 'makespan', big: true },
    { label: 'processors used', hint: `of m = ${q.processors.length}`, value: loads.length ? used : undefined, format: fmtInt, testid: 'used' },
    { label: 'load V', value: r.total_load ?? q.V, unit: 'units', testid: 'total-load' },
    { label: 'LP size', hint: 'LP (1)–(4)', value: lpText(r.lp) ?? 'not reported', testid: 'lp-size' },
    ...extraNumbers(r, KNOWN),
  ];
  fill(body, summary(items), warnings(r.warnings), lpDownload(ctx.solver, () => ctx.request, { basename: 'memory-hierarchy' }));
}

function renderLoads(r, ctx) {
  const q = ctx.request;
  const body = ctx.panel('loads', {
    title: 'Loads, computing times and swap points',
    wide: true,
    note: 'α_i: the load P_i receives; t_i: its computing time, the largest piece at x = α_i; swp_i: the swap point where the core and out-of-core pieces meet (A^l_i1 + swp·A^l_i2 = A^h_i1 + swp·A^h_i2). The memory level is the piece that sets t_i.',
  });
  const loads = Array.isArray(r.loads) ? r.loads : [];
  const times = Array.isArray(r.compute_times) ? r.compute_times : [];
  const swaps = Array.isArray(r.swap_points) ? r.swap_points : [];
  const V = isNum(r.total_load) ? r.total_load : q.V;
  // When each processor finishes, from the schedule (rows are labelled P<i>).
  const finish = new Map();
  const rowsOf = Array.isArray(r.processors) ? r.processors : [];
  for (const s of Array.isArray(r.schedule) ? r.schedule : []) {
    const label = rowsOf[s.proc]?.label;
    const m = /^P(\d+)$/.exec(label ?? '');
    if (m && s.kind === 'compute' && isNum(s.end)) finish.set(Number(m[1]) - 1, Math.max(finish.get(Number(m[1]) - 1) ?? 0, s.end));
  }
  const rows = q.processors.map((p, i) => {
    const load = loads[i];
    let level;
    if (!isNum(load)) level = undefined;
    else if (load <= 0) level = 'no load';
    else {
      const j = activePiece(p.pieces, load);
      level = p.pieces.length === 2 ? LEVELS[[...p.pieces.keys()].sort((x, y) => p.pieces[x][1] - p.pieces[y][1]).indexOf(j)] : `piece ${j + 1} of ${p.pieces.length}`;
    }
    return { name: `P${i + 1}`, S: p.S, C: p.C, pieces: formatPieces(p.pieces), load, time: times[i], finish: finish.get(i), swp: swaps[i], level, single: p.pieces.length < 2 };
  });
  fill(body, table([
    { key: 'name', label: 'processor', numeric: false },
    { key: 'S', label: 'S_i' },
    { key: 'C', label: 'C_i' },
    { key: 'pieces', label: 'time of x units', numeric: false, title: 'max over the pieces a + b·x' },
    { key: 'load', label: 'α_i [units]', title: 'load received', testid: (i) => `load-${i}` },
    { key: 'share', label: 'share of V', get: (row) => (isNum(row.load) && V ? row.load / V : undefined), format: (x) => `${fmt(x * 100, 4)} %` },
    { key: 'time', label: 't_i', title: 'computing time', testid: (i) => `compute-time-${i}` },
    { key: 'finish', label: 'finishes at', title: 'end of computing, from the schedule', na: (row) => isNum(row.load) && row.load <= 0 },
    { key: 'swp', label: 'swp_i [units]', title: 'swap point', testid: (i) => `swap-${i}`, na: (row) => row.single },
    { key: 'level', label: 'memory used', numeric: false },
  ], rows, { testid: 'load-table' }));
}

// ---- Fig. 3: the hierarchy against classical linear DLT -------------------

/** The processors with one linear piece each, x·A_i2 of their core (fastest) or out-of-core (slowest) level. */
function linearProcessors(processors, which) {
  return processors.map((p) => {
    const rates = p.pieces.map(([, b]) => b);
    const b = which === 'core' ? Math.min(...rates) : Math.max(...rates);
    return { S: p.S, C: p.C, pieces: [[0, b]] };
  });
}

/** The schedule a linear model's loads really take under the hierarchy: same messages, real computing times. */
function realSchedule(res, processors) {
  const rows = Array.isArray(res.processors) ? res.processors : [];
  const planned = [];
  const schedule = [];
  let end = 0;
  for (const s of Array.isArray(res.schedule) ? res.schedule : []) {
    if (s.kind !== 'compute') {
      schedule.push(s);
      end = Math.max(end, s.end);
      continue;
    }
    const m = /^P(\d+)$/.exec(rows[s.proc]?.label ?? '');
    const p = m ? processors[Number(m[1]) - 1] : undefined;
    planned.push({ proc: s.proc, start: s.start, end: s.end, load: s.load, note: 'what the linear model plans' });
    const real = p ? s.start + timeOf(p.pieces, s.load) : s.end;
    schedule.push({ ...s, end: real });
    end = Math.max(end, real);
  }
  return { schedule, planned, end };
}

function fig3Option(res, processors) {
  const { schedule, planned, end } = realSchedule(res, processors);
  const model = res.makespan;
  const real = isNum(res.real_makespan_under_hierarchy) ? res.real_makespan_under_hierarchy : end;
  const option = ganttOption({ processors: res.processors, schedule, makespan: Math.max(model, real) }, {
    extra: [{ name: 'computing as planned', lane: 'compute', color: 'rgba(47, 111, 219, 0.22)', intervals: planned }],
  });
  compactGantt(option);
  option.series.find((s) => s.name === 'computation').markLine = {
    silent: true, symbol: 'none', label: { show: false },
    data: [
      { xAxis: model, lineStyle: { color: '#777', type: 'dashed', width: 1.5 } },
      { xAxis: real, lineStyle: { color: '#c0392b', type: 'solid', width: 1.5 } },
    ],
  };
  return option;
}

/** A Gantt option for a narrow card: no legend (the panel has one), less margin. */
function compactGantt(option) {
  option.legend = { show: false };
  option.grid = { ...option.grid, top: 12 };
  return option;
}

function fig3Card(ctx, key, parent, { title, what }) {
  let card = parent.querySelector(`[data-fig3="${key}"]`);
  if (!card) {
    card = el('figure', { class: 'fig3-card', 'data-fig3': key },
      el('figcaption', {}, el('b', { text: title }), el('span', { class: 'fig3-what', text: what })),
      el('div', { class: 'fig3-numbers' }),
      el('div', { class: 'fig3-chart' }));
    parent.append(card);
  }
  return { card, numbers: card.querySelector('.fig3-numbers'), holder: card.querySelector('.fig3-chart') };
}

function number(label, value, testid, cls) {
  return el('span', { class: `fig3-num ${cls ?? ''}` }, `${label} `, el('b', { 'data-testid': testid, 'data-value': isNum(value) ? String(value) : undefined, title: isNum(value) ? String(value) : undefined, text: fmt(value) }));
}

function renderFig3(r, ctx) {
  const q = ctx.request;
  const body = ctx.panel('fig3', {
    title: 'Memory hierarchy against classical linear DLT (Fig. 3 of [002])',
    wide: true,
    note: 'Classical DLT takes the computing time linear: x·A^l_i2 if it assumes the load stays in core, x·A^h_i2 if all of it is computed out-of-core (the constants A_i1 are left out, as in the paper). (b) and (c) run the loads such a model picks on the real hierarchy: pale bars are the computing times the linear model planned, dark bars what the hierarchy really takes. The paper’s example: 4.333 planned, 10.333 real (b); 13.048 planned, 5.905 real (c).',
  });
  let grid = body.querySelector('.fig3-grid');
  if (!grid) {
    grid = el('div', { class: 'fig3-grid' });
    const key = (cls, text) => el('span', { class: 'swatch' }, el('i', { class: cls }), text);
    const legend = el('div', { class: 'legend fig3-legend' },
      key('comm', 'communication'), key('compute', 'computation'), key('planned', 'computing as the linear model planned'),
      key('line model', 'Cmax of the model'), key('line real', 'real Cmax under the hierarchy'));
    fill(body, legend, grid);
  }
  body.querySelectorAll(':scope > .msg').forEach((n) => n.remove());
  const rowsN = Array.isArray(r.processors) ? r.processors.length : 1;
  const height = ganttHeight(rowsN) - 20;

  const a = fig3Card(ctx, 'a', grid, { title: '(a) hierarchical memory', what: 'LP (1)–(4): every piece counts' });
  fill(a.numbers, number('Cmax', r.makespan, 'fig3-hier'));
  const optA = compactGantt(ganttOption(r, { timeName: 'time' }));
  optA.series.find((s) => s.name === 'computation').markLine = {
    silent: true, symbol: 'none', label: { show: false }, data: [{ xAxis: r.makespan, lineStyle: { color: '#777', type: 'dashed', width: 1.5 } }],
  };
  ctx.chart('fig3-a', a.holder, { height }).setOption(optA, { notMerge: true });

  const cases = [
    { key: 'b', which: 'core', title: '(b) core memory only', what: 'linear x·A^l_i2, the fastest piece' },
    { key: 'c', which: 'ooc', title: '(c) out-of-core only', what: 'linear x·A^h_i2, the slowest piece' },
  ];
  const real = q.processors.map((p) => p.pieces);
  const seq = (ctx.state.fig3Seq = (ctx.state.fig3Seq ?? 0) + 1);
  for (const c of cases) {
    const card = fig3Card(ctx, c.key, grid, c);
    const request = { model: 'memory', V: q.V, processors: linearProcessors(q.processors, c.which), real_pieces: real };
    if (q.prune === false) request.prune = false;
    ctx.solver.solve(request, { signal: ctx.signal }).then((res) => {
      if (ctx.state.fig3Seq !== seq) return;
      fill(card.numbers,
        number('model Cmax', res.makespan, `fig3-${c.which}-model`),
        number('real', res.real_makespan_under_hierarchy, `fig3-${c.which}-real`, 'real'),
        el('span', { class: 'fig3-loads', text: `α = ${(Array.isArray(res.loads) ? res.loads : []).map((x) => fmt(x, 4)).join(', ')}` }));
      ctx.chart(`fig3-${c.key}`, card.holder, { height }).setOption(fig3Option(res, q.processors), { notMerge: true });
    }, (err) => {
      if (ctx.state.fig3Seq !== seq || err.code === 'cancelled') return;
      fill(card.numbers, message('error', `not computed: ${err.message}`));
    });
  }
}

// ---- Fig. 10: out-of-core against multi-installment ------------------------

function fig10Form(ctx, body) {
  if (ctx.state.fig10Form) return ctx.state.fig10Form;
  const formHolder = el('div', { class: 'sub-form' });
  const info = el('div', { class: 'fig10-info', 'data-testid': 'fig10-info' });
  const chartHolder = el('div', { class: 'fig10-chart' });
  fill(body, formHolder, info, chartHolder);
  let debounce = 0;
  const form = buildForm(formHolder, FIG10_FIELDS, {
    submitLabel: 'Compute Fig. 10',
    testPrefix: 'fig10-',
    onSubmit: () => runFig10(ctx),
  });
  ctx.linkForm?.('fig10', form); // its fields are part of the permalink too
  form.onChange(() => {
    clearTimeout(debounce);
    debounce = setTimeout(() => { if (form.values().ok) runFig10(ctx); }, 600);
  });
  ctx.state.fig10Form = { form, info, chartHolder };
  return ctx.state.fig10Form;
}

function renderFig10(ctx) {
  const body = ctx.panel('fig10', {
    title: 'Out-of-core against multi-installment processing (Fig. 10 of [002])',
    wide: true,
    note: 'A homogeneous star of m processors (its own parameters below; the paper’s are the defaults, swap point swp = 1e8). Out-of-core: one message each, LP (1)–(4). Multi-installment: chunks of size β sent round-robin P1 … Pm, P1 …, each computed in core; β from heuristic (5), β = (mS − A^l_1)/(A^l_2 − mC), and the paper’s β = 5. V from 1e2 to 1e12, two points a decade; both axes logarithmic.',
  });
  fig10Form(ctx, body);
  runFig10(ctx);
}

async function runFig10(ctx) {
  const { form, info, chartHolder } = ctx.state.fig10Form;
  const { ok, values: p } = form.values();
  if (!ok) return;
  const key = JSON.stringify(p);
  const chart = ctx.chart('fig10', chartHolder, { height: 400, onResize: fitLegend });
  const st = ctx.state.fig10;
  if (st?.key === key && (st.option || st.running)) {
    if (st.option) {
      chart.setOption(st.option, { notMerge: true });
      fitLegend(chart);
    }
    return;
  }
  st?.controller?.abort(); // parameters changed while the previous sweep ran
  const controller = new AbortController();
  ctx.state.fig10 = { key, running: true, controller };
  chartHolder.querySelectorAll(':scope > .msg').forEach((n) => n.remove());
  const current = () => ctx.state.fig10?.key === key && ctx.state.fig10.controller === controller;
  const done = (state) => { if (current()) ctx.state.fig10 = { key, ...state }; };

  let chunk;
  try {
    chunk = await ctx.solver.solve({ model: 'chunk_size', m: p.m, S: p.S, C: p.C, Al1: p.Al1, Al2: p.Al2, Ah1: p.Ah1, Ah2: p.Ah2 }, { signal: controller.signal });
  } catch (e) {
    if (!current()) return;
    if (!form.showError(e.error ?? {})) fill(info, message('error', `The chunk size could not be computed: ${e.message}`));
    else fill(info);
    done({});
    return;
  }
  if (!current()) return;
  const beta = chunk.beta;
  const swp = Array.isArray(chunk.swap_points) && isNum(chunk.swap_points[0]) ? chunk.swap_points[0] : (p.Ah1 - p.Al1) / (p.Al2 - p.Ah2);
  const inRange = (b) => isNum(b) && (!isNum(chunk.beta_min) || b > chunk.beta_min) && (!isNum(chunk.beta_max) || b <= chunk.beta_max);
  const items = [
    { label: 'β of heuristic (5)', hint: '(mS − A^l_1)/(A^l_2 − mC)', value: isNum(beta) ? beta : 'not defined', unit: isNum(beta) ? 'units' : undefined, testid: 'fig10-beta', big: true },
    { label: 'admissible range of β', hint: '(mS/(A^h_2 − mC), swp]', value: isNum(chunk.beta_min) || isNum(chunk.beta_max) ? `(${fmt(chunk.beta_min)}, ${fmt(chunk.beta_max)}]` : 'empty', testid: 'fig10-range' },
    { label: 'heuristic β admissible', value: chunk.admissible === true ? 'yes' : chunk.admissible === false ? 'no' : '—', testid: 'fig10-admissible' },
    { label: `β′ = ${fmt(p.beta2)}`, hint: 'the second chunk size', value: inRange(p.beta2) ? 'in the range' : 'outside the range', testid: 'fig10-beta2' },
    { label: 'swap point swp', value: swp, unit: 'units', testid: 'fig10-swp' },
    { label: 'total core memory m·swp', value: isNum(swp) ? p.m * swp : undefined, unit: 'units' },
  ];
  fill(info, summary(items), warnings(chunk.warnings));

  const processors = Array.from({ length: p.m }, () => ({ S: p.S, C: p.C, pieces: [[p.Al1, p.Al2], [p.Ah1, p.Ah2]] }));
  const curves = [{ name: 'out-of-core, LP (1)–(4)', make: (V) => ({ model: 'memory', V, processors }) }];
  if (isNum(beta) && beta > 0) curves.push({ name: `multi-installment, β = ${fmt(beta, 4)} (heuristic (5))`, make: (V) => ({ model: 'multi_installment', V, processors, beta }) });
  curves.push({ name: `multi-installment, β = ${fmt(p.beta2, 4)}`, make: (V) => ({ model: 'multi_installment', V, processors, beta: p.beta2 }) });
  const requests = curves.flatMap((c) => FIG10_V.map((V) => c.make(V)));
  const responses = await ctx.sweep(chartHolder, 'Fig. 10 sweep', requests, { pick: ['makespan'], signal: controller.signal });
  if (!responses || !current()) {
    done({});
    return;
  }
  const failed = responses.filter((x) => x?.error);
  const series = curves.map((c, ci) => ({
    name: c.name,
    data: FIG10_V.map((V, vi) => {
      const res = responses[ci * FIG10_V.length + vi];
      return [V, res && isNum(res.makespan) && res.makespan > 0 ? res.makespan : null];
    }),
  }));
  const option = sweepOption({ series, xName: 'load V [units]', yName: 'Cmax [time]', xLog: true, yLog: true });
  Object.assign(option.yAxis, logRange(series));
  const marks = [];
  if (isNum(beta) && beta > 0) marks.push({ xAxis: beta, label: { formatter: `V = β = ${fmt(beta, 3)}`, color: COLORS.muted } });
  if (isNum(swp) && swp > 0) marks.push({ xAxis: p.m * swp, label: { formatter: `V = m·swp = ${fmt(p.m * swp, 3)}`, color: COLORS.muted } });
  const lo = FIG10_V[0];
  const hi = FIG10_V[FIG10_V.length - 1];
  option.series[0].markLine = { silent: true, symbol: 'none', lineStyle: { color: '#999', type: 'dotted' }, data: marks.filter((m) => m.xAxis >= lo && m.xAxis <= hi) };
  if (failed.length) chartHolder.prepend(message('info', `${failed.length} of ${responses.length} points were skipped: ${failed[0].error.message}`));
  done({ series, option });
  chart.setOption(option, { notMerge: true });
  fitLegend(chart);
}
