// Paper 002: Drozdowski, Wolniewicz, "Out-of-core divisible load
// processing" (IEEE TPDS 2003). A star whose processors compute x units in
// max_j (A_ij1 + x·A_ij2) time, a piecewise-linear convex function (core
// memory, then out-of-core); the core solves LP (1)-(4). The view also
// reproduces Fig. 3 (classical linear DLT against the hierarchy) and Fig. 10
// (out-of-core against multi-installment processing, chunk size from (5)).

import { fmt, fmtInt, isNum } from '../format.js';
import { fill, summary, extraNumbers, warnings, table, lpDownload } from '../ui.js';
import { parsePieces, formatPieces, activePiece } from './memory-pieces.js';
import { renderFig3 } from './memory-fig3.js';
import { renderFig10, FIG10_FORM } from './memory-fig10.js';

const KNOWN = ['makespan', 'total_load', 'real_makespan_under_hierarchy'];
const LEVELS = ['core', 'out-of-core'];

const PAPER_PROCESSOR = { S: 1, C: 1, pieces: [[1, 1], [-9, 10]] };

export default {
  id: 'memory',
  title: 'Memory hierarchy',
  model: 'memory',
  forms: [FIG10_FORM],
  paper: { id: '002', cite: 'Drozdowski, Wolniewicz, “Out-of-core divisible load processing”, IEEE Transactions on Parallel and Distributed Systems, 2003' },
  intro: 'The originator sends one message to each processor of a star, P1 first. Computing x units on P_i takes the largest of A_ij1 + x·A_ij2 over its memory levels j: fast while the load fits in core memory, about ten times slower beyond the swap point, when the disk is used. The optimum loads come from linear program (1)–(4) of [002]; all used processors finish together.',
  fields: [
    { key: 'V', symbol: 'V', name: 'load (V in [002])', unit: 'units', kind: 'number', default: 2 },
    {
      key: 'processors', symbol: 'P', name: 'processors P1 … Pm, served in this order: start-up S_i, transfer rate C_i, and the pieces A_ij1 + x·A_ij2 of their computing time (j = 1 core, j = 2 out-of-core in [002])',
      kind: 'rows', minRows: 1, maxRows: 200, addLabel: '+ Add a processor (a copy of the last)',
      rowLabel: (i) => `P${i + 1}`,
      default: [PAPER_PROCESSOR, PAPER_PROCESSOR],
      columns: [
        { key: 'S', label: 'S_i', title: 'communication start-up S_i [time]', kind: 'number' },
        { key: 'C', label: 'C_i', title: 'transfer rate C_i [time/unit]', kind: 'number' },
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
  // The core solves LP (1)-(4) by its structure; the LP is for export.
  if (lp.solves === 0) return 'none solved: a recursion over the processors gives its optimum';
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
