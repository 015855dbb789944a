// Paper 003: Drozdowski, Singh, Marszałkowski, "Isoefficiency maps for
// divisible computations in hierarchical memory systems". The core solves MIP
// (2)-(11) (`isoefficiency`: one m and V) and draws the map of Sec. 3
// (`isoefficiency_map`: E_max and V_max per m by narrowing, the isolines on
// both sides of V_max by bisection; computed by isomap.js, drawn by
// isomap-draw.js). The form's request is the single point (m, V) whose
// schedule is drawn here; clicking the map sets it.

import { fmt, fmtInt, fmtPct, isNum } from '../format.js';
import { ganttOption, ganttHeight } from '../gantt.js';
import { el, fill, summary, warnings, table, lpDownload } from '../ui.js';
import { renderMap, precomputedPoint, pointCheck } from './isomap.js';
import { FIELDS, pointRequest } from './isomap-request.js';
import { renderTable } from './isomap-draw.js';

const STARTUP_COLOR = '#b7c0cc';

/** ρ = b2 / (a1 − a2): the core memory, where the two pieces of τ meet. */
function rho(q) {
  return q.a1 !== q.a2 ? q.b2 / (q.a1 - q.a2) : undefined;
}

export default {
  id: 'isoefficiency',
  title: 'Isoefficiency',
  model: 'isoefficiency',
  paper: { id: '003', cite: 'Drozdowski, Singh, Marszałkowski, “Isoefficiency maps for divisible computations in hierarchical memory systems”, PPAM 2019' },
  intro: 'Machines are started (S), then the originator sends n load chunks, one at a time (O + Cα each), to m identical machines; a chunk of α MB computes in τ(α) = max{a1·α, a2·α + b2}: in core up to ρ = b2/(a1 − a2) MB, much slower beyond. Efficiency E = T(1,1,V) / (m·T(m,n,V)) compares m machines with one machine doing all the load, which spills out of core, so E can exceed 1 (up to a2/a1 ≈ 38). For each m, V_max is the load of highest efficiency E_max (the MAX line), and the isoline e joins the loads V where E = e, below V_max (Fig. 1 of [003]) and above it (Fig. 2). Every point is the best schedule of MIP (2)–(11) found within a budget of LPs (one per send sequence tried), its gap to a lower bound shown, as the paper’s Gurobi runs (300 s each) mostly were too.',
  fields: FIELDS,

  check(v) {
    const errors = {};
    if (v.m_hi < v.m_lo) errors.m_hi = `at least the first m (${v.m_lo})`;
    if (v.V_hi <= v.V_lo) errors.V_hi = `more than the first load (${fmt(v.V_lo)} MB)`;
    else if (v.width >= v.V_hi - v.V_lo) errors.width = `less than the width of the load range (${fmt(v.V_hi - v.V_lo)} MB)`;
    return Object.keys(errors).length ? errors : null;
  },

  toRequest: pointRequest,

  precomputed: precomputedPoint,

  render(r, ctx) {
    ctx.state.point = { m: ctx.request.m, V: ctx.request.V, E: r.efficiency };
    ctx.state.response = r;
    // The point's summary says where it lies on the map, once the map is known.
    // A pinned point is compared by its numbers and schedule: the map, with its workers, is the view's own.
    if (!ctx.pinned) {
      renderMap(ctx, () => { if (ctx.state.response && ctx.state.map.data.has(ctx.request?.m)) renderPoint(ctx.state.response, ctx); });
      renderTable(ctx);
    }
    renderPoint(r, ctx);
    renderSequence(r, ctx);
    renderGantt(r, ctx);
  },
};


// ---- the solved point ------------------------------------------------------------

function renderPoint(r, ctx) {
  const q = ctx.request;
  const body = ctx.panel('point', {
    title: `Point m = ${q.m}, V = ${fmt(q.V)} MB (MIP (2)–(11))`,
    note: `The best schedule found within ${isNum(q.lp_budget) ? `a budget of ${fmtInt(q.lp_budget)} LPs` : 'the core’s LP budget'}. T(1,1,V) = S + O + CV + τ(V) is one machine doing all the load.`,
  });
  // The default point's answer comes with the default map: say so, and when its check holds.
  pointCheck(r)?.then((held) => {
    if (held === undefined || ctx.state.response !== r) return;
    body.dataset.source = 'precomputed';
    body.dataset.verified = String(held);
    body.closest('[data-panel]').querySelector('.panel-note').append(held ? ' Precomputed when the page was built; checked: computed here again, the same numbers.' : '');
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
    { label: 'branch and bound', hint: 'LPs, one a node', value: r.proof_lps, format: fmtInt, testid: 'proof-lps' },
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
