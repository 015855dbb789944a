// Which points of a buffers sweep (star, trees at n = n_min) are sent to the
// core: the page's policy on how large an LP a sweep may solve, applied to
// the facts of the core's `plan` (the LP's variables, and whether the core
// solves it by a reduced method instead). The view's Cmax-vs-V chart and the
// gallery's curves of [000] share it.

// A point whose LP as printed has more variables than this is not sent,
// unless the core solves it by a reduced LP: at V = 1e6, D = 1e2 the star's
// full LP has 30 000 variables and took ~20 s.
export const SWEEP_MAX_VARIABLES = 3000;

// How `plan.method` names the core's reduced methods (the star's middle
// stages full to D; the ordinary tree's full and periodic middle stages):
// their LPs are small whatever `variables` says of the printed one.
const REDUCED = /middle stages full|periodic/;

/** Whether a point with this plan is too large for a sweep. */
export function tooLarge(plan) {
  return (plan.variables ?? 0) > SWEEP_MAX_VARIABLES && !REDUCED.test(plan.method ?? '');
}

/**
 * Each request, or null where its LP is too large for a sweep. A request
 * the core refuses is kept: the sweep then reports its error with the
 * others'. Rejects with code 'cancelled' if `signal` fires.
 * @param {{plan: (request: any, options: {signal?: AbortSignal}) => Promise<any>}} solver
 * @param {any[]} requests
 * @param {{signal?: AbortSignal}} [options]
 * @returns {Promise<any[]>}
 */
export function sweepable(solver, requests, { signal } = {}) {
  return Promise.all(requests.map((q) => solver.plan(q, { signal }).then(
    (plan) => (tooLarge(plan) ? null : q),
    (e) => { if (e?.code === 'cancelled') throw e; return q; },
  )));
}
