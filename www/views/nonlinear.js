// Paper 004: Chen, Chu, "Divisible non-linear load distribution on
// heterogeneous single-level trees". A gamma-order load of L elements is
// L^gamma processing steps; the root P0 computes too. Algorithms C
// (classical, Thm 1), S (single installment with processor elimination PE,
// Thms 3-4) and M (multi-installment, FON, Thms 6-9).

import { fmt, fmtInt, isNum } from '../format.js';
import { sweepOption, fitLegend, COLORS } from '../charts.js';
import { ganttOption, ganttHeight } from '../gantt.js';
import { fill, summary, extraNumbers, warnings, table, message } from '../ui.js';
import { printedFor, withComputed, paperValues, printedSeries } from '../printed.js';

const KNOWN = ['makespan', 'speedup', 'installments', 'used', 'total_load', 'theorem', 'first_term'];
const ALGORITHMS = ['C', 'S', 'M'];
const SWEEP_M = Array.from({ length: 20 }, (_, i) => i + 1);
const ALGO_NAMES = { C: 'C classical', S: 'S single installment (PE)', M: 'M multi-installment (FON)' };

export default {
  id: 'nonlinear',
  title: 'Non-linear loads',
  model: 'nonlinear',
  paper: { id: '004', cite: 'Chen, Chu, “Divisible non-linear load distribution on heterogeneous single-level trees”' },
  intro: 'A load of L elements whose processing takes L^γ steps (γ = 2: every pair of elements) is spread by the root P0 over its children P1…Pm on a single-level tree; P0 computes too. Algorithm C is the classical distribution, S sends one part to each child after eliminating useless processors, M sends several installments.',
  fields: [
    {
      key: 'algorithm', symbol: 'alg', name: 'algorithm of [004]', kind: 'choice', default: 'M',
      choices: [
        { value: 'C', label: 'C — classical (Thm 1)' },
        { value: 'S', label: 'S — single installment, PE (Thms 3–4)' },
        { value: 'M', label: 'M — multi-installment, FON (Thms 6–9)' },
      ],
    },
    { key: 'L', symbol: 'L', name: 'load (L elements in [004]; V in the other papers)', unit: 'elements', kind: 'number', default: 100 },
    { key: 'gamma', symbol: 'γ', name: 'order of the load (γ in [004])', kind: 'integer', default: 2, help: 'L^γ processing steps' },
    { key: 'A0', symbol: 'A₀', name: 'root’s time per step (A_0 of P0 in [004])', unit: 'time/step', kind: 'number', default: 1 },
    { key: 'A', symbol: 'A', name: 'children’s time per step (A_1 … A_m in [004])', unit: 'time/step', kind: 'list', minItems: 1, default: [1.2, 1.5, 2], help: 'one per child, comma-separated' },
    { key: 'G', symbol: 'G', name: 'link time per element (G_1 … G_m in [004]; C in the other papers)', unit: 'time/element', kind: 'list', minItems: 1, default: [0.1, 0.2, 2], help: 'one per child, as many as A' },
    { key: 'rho', symbol: 'ρ', name: 'installments (ρ in [004]; n in the other papers)', kind: 'integer', optional: true, default: 2, placeholder: 'blank: FON chooses', help: 'algorithm M only', when: (v) => v.algorithm === 'M' },
    { key: 'theta_cp', symbol: 'θcp', name: 'computation start-up (θ_cp in [004])', unit: 'time', kind: 'number', optional: true, placeholder: '0' },
    { key: 'theta_cm', symbol: 'θcm', name: 'communication start-up (θ_cm in [004]; S in the other papers)', unit: 'time', kind: 'number', optional: true, placeholder: '0' },
  ],

  check(v) {
    if (Array.isArray(v.A) && Array.isArray(v.G) && v.A.length !== v.G.length) {
      return { G: `list one link time per child: A has ${v.A.length} entries, G has ${v.G.length}` };
    }
    return null;
  },

  toRequest(v) {
    const r = { model: 'nonlinear', algorithm: v.algorithm, L: v.L, gamma: v.gamma, A0: v.A0, A: v.A, G: v.G };
    if (v.rho !== undefined) r.rho = v.rho;
    if (v.theta_cp !== undefined) r.theta_cp = v.theta_cp;
    if (v.theta_cm !== undefined) r.theta_cm = v.theta_cm;
    return r;
  },

  render(r, ctx) {
    renderSummary(r, ctx);
    renderLoads(r, ctx);
    renderGantt(r, ctx);
    renderBounds(ctx);
    renderSweep(ctx);
  },
};

function renderSummary(r, ctx) {
  const body = ctx.panel('summary', { title: 'Result', wide: true });
  const req = ctx.request;
  const alg = r.algorithm ?? req.algorithm;
  const theorem = alg === 'C' ? 'Thm 1' : 'Thm 9';
  const eliminated = Array.isArray(r.eliminated) ? r.eliminated : [];
  const items = [
    { label: 'parallel time T', hint: `T^${alg} of the schedule`, value: r.makespan, testid: 'makespan', big: true },
    { label: 'speedup', hint: 'T1 / T, T1 = A0·L^γ + θcp', value: r.speedup, testid: 'speedup', big: true },
    { label: 'algorithm', value: ALGO_NAMES[alg] ?? String(alg), testid: 'algorithm' },
    { label: 'installments ρ', value: r.installments, format: fmtInt, testid: 'installments' },
    { label: 'children used', hint: `of m = ${req.A.length}${eliminated.length ? `; PE removed ${eliminated.map((i) => `P${i}`).join(', ')}` : ''}`, value: r.used, format: fmtInt, testid: 'used' },
    { label: 'closed form', hint: `T of ${theorem} in [004]`, value: r.theorem, testid: 'theorem' },
  ];
  if (r.first_term !== undefined) items.push({ label: 'first term', hint: 'α0·L^γ·A0 (Thms 4, 6, 9)', value: r.first_term, testid: 'first-term' });
  items.push({ label: 'load L', value: r.total_load, unit: 'elements', testid: 'total-load' }, ...extraNumbers(r, KNOWN));
  fill(body, summary(items), warnings(r.warnings));
}

/** A list of fractions, short: "6 × 0.0416" when all alike, else the first few. */
function fractions(list) {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  if (list.length > 1 && list.every((x) => x === list[0])) return `${list.length} × ${fmt(list[0], 4)}`;
  const shown = list.slice(0, 4).map((x) => fmt(x, 4)).join(' + ');
  return list.length > 4 ? `${shown} + … (${list.length})` : shown;
}

function renderLoads(r, ctx) {
  const req = ctx.request;
  const body = ctx.panel('loads', {
    title: 'Load distribution',
    wide: true,
    note: 'α_i = |S_i| / L is the paper’s fraction of the data set P_i receives first (per installment for M); the work share is the part of the L^γ steps it computes in all. Messages: what P_i receives, as fractions of L — its own rows, then the rest of the data set it needs to read.',
  });
  const pick = (name, i) => (Array.isArray(r[name]) ? r[name][i] : undefined);
  const eliminated = new Set(Array.isArray(r.eliminated) ? r.eliminated : []);
  const n = Math.max(Array.isArray(r.loads) ? r.loads.length : 0, req.A.length + 1);
  const rows = Array.from({ length: n }, (_, i) => ({
    name: `P${i}`,
    A: i === 0 ? req.A0 : req.A[i - 1],
    G: i === 0 ? undefined : req.G[i - 1],
    beta: i === 0 ? undefined : req.A[i - 1] / req.G[i - 1],
    alpha: pick('alpha', i),
    load: pick('loads', i),
    chunks: pick('chunks', i),
    messages: pick('messages', i),
    nStar: pick('n_star', i),
    status: i === 0 ? 'root' : eliminated.has(i) ? 'removed by PE' : 'used',
  }));
  fill(body, table([
    { key: 'name', label: 'processor', numeric: false },
    { key: 'A', label: 'A_i', title: 'time per processing step' },
    { key: 'G', label: 'G_i', title: 'link time per element', na: (row) => row.status === 'root' },
    { key: 'beta', label: 'β_i = A_i/G_i', na: (row) => row.status === 'root' },
    { key: 'alpha', label: 'α_i', title: '|S_i| / L: the paper’s fraction', testid: (i) => `alpha-${i}` },
    { key: 'load', label: 'work share', title: 'fraction of the L^γ steps computed, all installments', testid: (i) => `load-${i}` },
    { key: 'chunks', label: 'installments', numeric: false, get: (row) => fractions(row.chunks) ?? (row.status === 'root' ? 'computes its part' : row.status === 'used' ? undefined : 'none') },
    { key: 'messages', label: 'messages received', numeric: false, get: (row) => fractions(row.messages) ?? (row.status === 'root' ? 'holds the data' : row.status === 'used' ? undefined : 'none') },
    { key: 'nStar', label: 'n_i*', title: 'Lemma 8: messages needed to deliver the data set', na: (row) => row.status !== 'used' || r.algorithm === 'C' },
    { key: 'status', label: 'status', numeric: false },
  ], rows, { testid: 'load-table', label: 'Load distribution per processor' }));
}

function renderGantt(r, ctx) {
  const body = ctx.panel('gantt', {
    title: 'Schedule (Gantt chart)',
    note: 'The root sends to all children at once (one port per link, Fig. 1 of [004]); each row shows communications into the processor above and its computations below. “Data set copies” are all the messages a child receives, the rows it only reads included (Fig. 5 of [004]). Drag or scroll to zoom.',
    wide: true,
  });
  const rows = Array.isArray(r.processors) ? r.processors.length : 1;
  const chart = ctx.chart('gantt', body, { height: ganttHeight(rows) });
  // `transfers` lists every message, the copies of other processors' rows
  // included, which the checked schedule does not show (Fig. 5 of [004]).
  const transfers = Array.isArray(r.transfers) ? r.transfers : [];
  const extra = transfers.length ? [{
    name: 'data set copies', lane: 'comm', color: '#f3cd96',
    intervals: transfers.map((t) => ({ proc: t.to, start: t.start, end: t.end, load: t.elements, note: `${fmt(t.owned)} of them its own rows` })),
  }] : [];
  chart.setOption(ganttOption(r, { timeName: 'time', extra }), { notMerge: true });
}

/**
 * Lemmas 10 and 12 of [004] on the homogeneous tree of the form's first
 * entries: where the best number of installments ρ* (for this m) and of
 * children m* (for this ρ) lie, as the core computes them.
 */
async function renderBounds(ctx) {
  const req = ctx.request;
  const body = ctx.panel('bounds', {
    title: 'Where ρ* and m* lie (Lemmas 10 and 12)',
    note: `On a homogeneous tree (A_0 = A_i = ${fmt(req.A0)}, G_i = ${fmt(req.G[0])}, the form’s root and first link) with start-ups: ρ* of Lemma 10 for m = ${req.A.length} children, and m* of Lemma 12 for ρ = ${req.rho ?? 1} installments. Without start-ups the upper bounds are unbounded. Theorems 11 and 13 take max{1, ⌊lower⌋}.`,
    wide: true,
  });
  const base = { model: 'nonlinear_bounds', A: req.A0, G: req.G[0], gamma: req.gamma, theta_cp: req.theta_cp ?? 0, theta_cm: req.theta_cm ?? 0, L: req.L };
  let rho;
  let m;
  try {
    const opts = { signal: ctx.signal };
    [rho, m] = await Promise.all([ctx.solver.solve({ ...base, m: req.A.length }, opts), ctx.solver.solve({ ...base, rho: req.rho ?? 1 }, opts)]);
  } catch (e) {
    if (e.error?.code === 'cancelled') return;
    fill(body, message('warn', `The bounds could not be computed: ${e.error?.message ?? e.message}`));
    return;
  }
  const bound = (x) => (isNum(x) ? x : undefined);
  fill(body, summary([
    { label: 'ρ* at least', hint: 'min{ρ1, ρ2} (Lemma 10)', value: bound(rho.lower), testid: 'rho-lower' },
    { label: 'ρ* at most', hint: 'max{ρ1, ρ3}', value: bound(rho.upper), testid: 'rho-upper' },
    { label: 'ρ of Theorem 11', value: bound(rho.direct), format: fmtInt, testid: 'rho-direct' },
    { label: 'm* at least', hint: 'min{m1, m2} (Lemma 12)', value: bound(m.lower), testid: 'm-lower' },
    { label: 'm* at most', hint: 'max{m1, m3}', value: bound(m.upper), testid: 'm-upper' },
    { label: 'm of Theorem 13', value: bound(m.direct), format: fmtInt, testid: 'm-direct' },
  ]), warnings([...rho.warnings, ...m.warnings]));
}

async function renderSweep(ctx) {
  const req = ctx.request;
  const A1 = req.A[0];
  const G1 = req.G[0];
  // Fig. 6 of [004]'s printed speed-up, only for its inputs: the sweep's
  // (not the form's m or algorithm), since a printed number belongs to no others.
  const printed = printedFor('004-fig6', { L: req.L, gamma: req.gamma, A0: req.A0, A: A1, G: G1, theta_cp: req.theta_cp, theta_cm: req.theta_cm });
  const body = ctx.panel('sweep', {
    title: 'Speedup vs number of children m',
    note: `Like Figs. 6–8 of [004]: homogeneous children (every A_i = ${fmt(A1)}, every G_i = ${fmt(G1)}, the first entries of the form), m = 1…${SWEEP_M.length}, algorithms C, S and M; L, γ, A0 and the start-ups from the form, ρ ${req.rho === undefined ? 'chosen by FON' : `= ${req.rho}`} for M. The dashed line is the ideal m + 1${printed ? '; the diamond, the speed-up the paper prints for Fig. 6, listed below' : ''}.`,
    wide: true,
    swept: ['algorithm', 'A', 'G'],
  });
  const chart = ctx.chart('sweep', body, { height: 360, onResize: fitLegend });
  const base = { L: req.L, gamma: req.gamma, A0: req.A0, rho: req.rho, theta_cp: req.theta_cp, theta_cm: req.theta_cm };
  const key = JSON.stringify([base, A1, G1]);
  const m = req.A.length;
  const draw = (series) => {
    // Each algorithm's speed-up by m, where the printed values find theirs.
    const rows = printed && withComputed(printed, Object.fromEntries(ALGORITHMS.map((alg, ai) => [alg, Object.fromEntries(series[ai].data)])));
    chart.setOption(sweepOption({ series: [...series, ...printedSeries(rows ?? [])], xName: 'children m', yName: 'speedup', xInteger: true, markX: m, markLabel: `m = ${m}` }), { notMerge: true });
    fitLegend(chart);
    body.querySelector(':scope > .fig-values')?.remove();
    if (rows) body.append(paperValues(rows));
  };
  if (ctx.state.sweep?.key === key) {
    draw(ctx.state.sweep.series);
    return;
  }
  body.querySelectorAll(':scope > .msg, :scope > .fig-values').forEach((nd) => nd.remove());
  const requests = [];
  for (const algorithm of ALGORITHMS) {
    for (const mm of SWEEP_M) {
      const q = { model: 'nonlinear', algorithm, L: req.L, gamma: req.gamma, A0: req.A0, A: Array(mm).fill(A1), G: Array(mm).fill(G1) };
      for (const f of ['theta_cp', 'theta_cm']) if (req[f] !== undefined) q[f] = req[f];
      if (algorithm === 'M' && req.rho !== undefined) q.rho = req.rho;
      requests.push(q);
    }
  }
  const responses = await ctx.sweep(body, 'Speedup sweep', requests, { pick: ['speedup', 'installments'] });
  if (!responses) return;
  const series = ALGORITHMS.map((alg, ai) => ({
    name: ALGO_NAMES[alg],
    data: SWEEP_M.map((mm, mi) => {
      const res = responses[ai * SWEEP_M.length + mi];
      return [mm, res && isNum(res.speedup) ? res.speedup : null];
    }),
  }));
  series.push({ name: 'ideal m + 1', data: SWEEP_M.map((mm) => [mm, mm + 1]), dashed: true, color: COLORS.reference });
  const failed = responses.filter((x) => x?.error);
  if (failed.length) body.prepend(message('warn', `${failed.length} of ${responses.length} points were refused by the core and are left out: ${failed[0].error.message}`));
  ctx.state.sweep = { key, series };
  draw(series);
}
