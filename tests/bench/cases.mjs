// The cases of the side-by-side benchmark (scripts/bench.sh): the same
// requests go to the calculator's wasm and (as the LP text it exports) to
// HiGHS's wasm in the page, and to the native `dlt-bench --requests`.
// Request shapes as in crates/dlt-cli/src/bin/dlt-bench.rs.

const COSTS = { S: 1e-3, C: 1e-6, A: 1e-3, V: 1e6 };

/** Star, m = 10, Fig. 7's A, C, S; D such that n_min = n. */
export const star = (n) => ({ model: 'star', m: 10, ...COSTS, D: (1e6 / (10 * n)) * 1.0001 });

/** Tree p = 2, h = 10 (000 Sec. 4.2), a stage carries p h D: n_min = n. */
export const tree = (n, order, buffers) => ({ model: 'tree', p: 2, h: 10, ...COSTS, D: (1e6 / (2 * 10 * n)) * 1.0001, order, buffers });

/**
 * Tree p = 2, h = 10 above n_min (V = 1e5, D = 1e4: n_min = 1), start-ups
 * dominating, raw: the full LP, by the interior point method where its
 * bound meets it (as dlt-bench's rows "tree>n_min").
 */
export const treeAbove = (n, S) => ({ model: 'tree', p: 2, h: 10, S, C: 1e-6, A: 1e-3, V: 1e5, D: 1e4, order: 'NLF', buffers: 2, n, prune: false });

/** Binomial tree p = 2, h = 10, a stage carries (h (p + 1) - 1) D: n_min = n. */
export const binomial = (n, order) => ({ model: 'binomial', p: 2, h: 10, ...COSTS, D: (1e6 / (10 * 3 - 1) / n) * 1.0001, order });

/** The memory LP (002): m identical two-level processors. */
export const memory = (m) => ({
  model: 'memory', V: 1e9,
  processors: Array.from({ length: m }, () => ({ S: 1e-3, C: 1e-6, pieces: [[0, 1e-3], [-9e5, 1e-2]] })),
});

/** 003 Table 1: V_max of m = 2..20 at n = 20 (the paper's). */
export const TABLE1_V = [134485, 120827, 123329, 105097, 119663, 95748, 106921, 115514, 75048, 81394, 86545, 90457, 94532, 98591, 99460, 100506, 100354, 99708, 102240];
/** LPs the calculator's search may solve on one MIP (about a second natively). */
export const MIP_LP_BUDGET = 1000;
export const isoefficiency = (m, V, lpBudget = MIP_LP_BUDGET) => ({
  model: 'isoefficiency', m, n: 20, V, S: 25.4, O: 0.075, C: 0.005, a1: 0.109, a2: 4.132, b2: -27109, lp_budget: lpBudget,
});

/** HiGHS's time limits (seconds): LPs, and branch and bound on the MIP. */
export const LIMITS = { full: { lp: 60, mip: 20 }, quick: { lp: 10, mip: 5 } };

/**
 * The case list: {id, kind: "lp"|"mip", model, variant, size, request,
 * warmup}. `warmup` is a small request of the same model (or a list of
 * them) that both solvers solve, untimed, in each fresh page before the
 * case: one that takes the case's method, so that a slow case, timed
 * once, runs optimised code as a fast one's median does. Trees above
 * n_min: one by the interior point method (n = 4, S = 1e-3), one by the
 * simplex on the windowed schedule's tight rows (n = 8, S = 1e-4); a tree
 * at n_min, their warm-up before session 42, ran neither, and n = 30's
 * first solve in a page took 1,171 ms against 781-874 ms after it.
 */
export function cases(quick) {
  const list = [];
  const lp = (model, variant, size, request, warmup) => list.push({ kind: 'lp', model, variant, size, request, warmup });
  for (const n of quick ? [10, 100] : [10, 100, 300, 1000, 3000, 10000]) lp('star', 'm=10', `n=${n}`, star(n), star(10));
  for (const [order, buffers] of [['NLF', 1], ['NLF', 2], ['LLF', 1], ['LLF', 2]]) {
    for (const n of quick ? [1, 10] : [1, 10, 100, 666]) lp('tree', `${order}-${buffers}`, `n=${n}`, tree(n, order, buffers), tree(1, order, buffers));
  }
  if (!quick) {
    for (const [n, S] of [[12, 1e-4], [30, 1e-3], [30, 1e-5], [100, 1e-4], [100, 1e-5], [200, 1e-4]]) lp('tree>n_min', `S=${S.toExponential(0)}`, `n=${n}`, treeAbove(n, S), [treeAbove(4, 1e-3), treeAbove(8, 1e-4)]);
  }
  for (const order of ['NLF', 'LLF']) {
    for (const n of quick ? [1, 10] : [1, 10, 100, 666]) lp('binomial', order, `n=${n}`, binomial(n, order), binomial(1, order));
  }
  for (const m of quick ? [10, 100] : [10, 100, 1000]) lp('memory', 'two-level', `m=${m}`, memory(m), memory(10));
  const points = TABLE1_V.map((V, k) => [k + 2, V]);
  for (const [m, V] of quick ? [points[0], points[8]] : points) {
    list.push({ kind: 'mip', model: 'MIP 003', variant: 'n=20', size: `m=${m} V=${V}`, request: isoefficiency(m, V), warmup: { ...isoefficiency(2, 50000, 50), n: 5 } });
  }
  return list.map((c, i) => ({ id: i, ...c }));
}
