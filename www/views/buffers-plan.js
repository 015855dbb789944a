// Which points of a buffers sweep (star, trees at n = n_min) are sent to the
// core: the page's policy on how large an LP a sweep may solve, applied to
// the facts of the core's `plan` (the LP's variables, and whether the core
// solves it by a reduced method instead). The view's Cmax-vs-V chart and the
// gallery's curves of [000] share it.

// A point whose first LP (as the core's plan counts it: none where presolve
// removes it, the reduced LP where a reduced method stands in for the
// printed one) has more variables than this is not sent: a general simplex
// on 30,000 variables takes tens of seconds.
export const SWEEP_MAX_VARIABLES = 3000;

/** Whether a point with this plan is too large for a sweep. */
export function tooLarge(plan) {
  return (plan.solved_variables ?? plan.variables ?? 0) > SWEEP_MAX_VARIABLES;
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
