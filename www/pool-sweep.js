// @ts-check
/** @typedef {import('./pkg/dlt_wasm.js').DltRequest} DltRequest */
/** @typedef {import('./pkg/dlt_wasm.js').DltResponse} DltResponse */
/** @typedef {import('./pool.js').CallOptions} CallOptions */
/**
 * @typedef {object} SweepOptions
 * @property {AbortSignal} [signal]
 * @property {(done: number, total: number) => void} [onProgress]
 * @property {(i: number, entry: any) => void} [onItem]
 * @property {string[]} [pick]
 * @property {number} [stallMs]
 * @property {number} [workers] the pool's workers (how finely to split the points)
 */
// Pool.sweep (pool.js): many requests batched into the core's sweeps, at
// most SWEEP_MAX_POINTS a sweep, and the sweeps' answers spread back into
// one entry per request.

import { cancelledError, errorOf } from './solver-error.js';

function pickFields(response, pick) {
  if (!pick || !response || typeof response !== 'object') return response;
  const out = {};
  for (const k of pick) if (k in response) out[k] = response[k];
  return out;
}

/** The one top-level field in which requests `a` and `b` differ, if both hold a number there; else null. */
function soleNumericDifference(a, b) {
  let field = null;
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (a[k] === b[k] || JSON.stringify(a[k]) === JSON.stringify(b[k])) continue;
    if (field !== null || k === 'model' || !Number.isFinite(a[k]) || !Number.isFinite(b[k])) return null;
    field = k;
  }
  return field;
}

/** A top-level field of model request `q` holding a number, if any (not a sweep's). */
function anyNumericField(q) {
  if (!q || typeof q !== 'object' || typeof q.model !== 'string' || q.model === 'sweep') return null;
  return Object.keys(q).find((k) => k !== 'model' && Number.isFinite(q[k])) ?? null;
}

// The core's limit on points in one sweep (MAX_POINTS in crates/dlt-core/src/sweep.rs).
const SWEEP_MAX_POINTS = 10000;
// Up to this many points, each point is a task of its own where the pool
// has workers to share them: a batch is solved by one worker, and 000
// Fig. 13(b)'s heaviest points come in batches of two (one per buffer
// count), 0.13 s each natively: its solves took 1.24 s in Chromium against
// 1.33 s batched (means of 4 runs). Batching pays for thousands of cheap
// points, whose messages would cost more than their solves, and always on
// a pool of one worker (the page's solver): there each task waits for the
// page to take its answer and send the next, and a view's 148 torus points
// took 0.7 s of round trips for 3 ms of solving.
const ONE_TASK_A_POINT = 256;

/**
 * Runs of consecutive requests that differ in one numeric field only, each
 * one core sweep ({model: 'sweep', request, parameter, values, fields});
 * with no `pick` (the whole responses wanted) every request is its own run.
 * Returns [{first, count, parameter}]; parameter null for a run of one.
 */
function sweepRuns(requests, pick, workers) {
  const runs = [];
  const most = workers > 1 && requests.length <= ONE_TASK_A_POINT ? 1 : SWEEP_MAX_POINTS;
  let run = null;
  requests.forEach((q, i) => {
    if (run && pick && run.count < most && q && typeof q === 'object' && q.model !== 'sweep') {
      const field = soleNumericDifference(requests[run.first], q);
      if (field !== null && (run.parameter === null || run.parameter === field)) {
        run.parameter = field;
        run.count++;
        return;
      }
    }
    run = { first: i, count: 1, parameter: null };
    runs.push(run);
  });
  return runs;
}

/** A core sweep's answer as one entry per point: the picked fields, or {error}. */
function sweepEntries(response, fields) {
  return response.values.map((_, i) => {
    const error = response.errors?.[i];
    if (error) return { error };
    const entry = {};
    for (const f of fields) {
      const v = response.series?.[f]?.[i];
      if (v !== null && v !== undefined) entry[f] = v;
    }
    return entry;
  });
}

/**
 * Many requests through `solve` (a Pool's), spread over the pool's workers:
 * beyond ONE_TASK_A_POINT of them, consecutive ones that differ in one
 * numeric field go to the core as one sweep, the others one task each.
 * Resolves to one entry per request, in order: the response (only the `pick` fields, if given) or {error} for a
 * point the core refused or whose worker crashed, so that one bad point
 * does not lose a whole figure. `onItem(i, entry)` runs as each lands,
 * `onProgress(done, total)` counts points; rejects with code 'cancelled' if
 * `signal` fires.
 * @param {(request: DltRequest, options: CallOptions) => Promise<DltResponse>} solve
 * @param {DltRequest[]} requests
 * @param {SweepOptions} [options]
 * @returns {Promise<any[]>}
 */
export function sweep(solve, requests, { signal, onProgress, onItem, pick, stallMs, workers = 1 } = {}) {
  const total = requests.length;
  if (signal?.aborted) return Promise.reject(cancelledError());
  const own = new AbortController();
  const results = new Array(total);
  let landed = 0;
  const partial = new Map(); // run -> points its sweep reported done
  let reported = 0;
  const report = () => {
    let done = landed;
    for (const d of partial.values()) done += d;
    if (done === reported) return; // a sweep's last point, reported again as it lands
    reported = done;
    try { onProgress?.(done, total); } catch (e) { console.warn(e); }
  };
  return new Promise((resolve, reject) => {
    const stop = () => {
      own.abort();
      reject(cancelledError(`cancelled after ${landed} of ${total}`));
    };
    signal?.addEventListener('abort', stop, { once: true });
    const land = (run, entries) => {
      if (own.signal.aborted) return;
      partial.delete(run);
      entries.forEach((entry, k) => {
        results[run.first + k] = entry;
        try { onItem?.(run.first + k, entry); } catch (e) { console.warn(e); }
      });
      landed += entries.length;
      report();
      if (landed === total) {
        signal?.removeEventListener('abort', stop);
        resolve(results);
      }
    };
    if (total === 0) {
      signal?.removeEventListener('abort', stop);
      resolve(results);
      return;
    }
    // Figures list their points from the smallest to the largest, the
    // costliest last: started first, they leave the cheap ones to fill the
    // workers' tails (longest first).
    for (const run of sweepRuns(requests, pick, workers).reverse()) {
      /** @type {CallOptions} */
      const options = { signal: own.signal, stallMs };
      let answer;
      // A lone point with `pick` is a sweep of one too: the core then
      // serializes the picked fields only, not a schedule nobody draws.
      const parameter = run.parameter ?? (pick ? anyNumericField(requests[run.first]) : null);
      if (parameter === null) {
        answer = solve(requests[run.first], options).then((r) => [pickFields(r, pick)]);
      } else {
        const points = requests.slice(run.first, run.first + run.count);
        /** @type {DltRequest} */
        const request = { model: 'sweep', request: points[0], parameter, values: points.map((q) => q[parameter]), fields: pick };
        options.onProgress = (done) => { partial.set(run, done); report(); };
        answer = solve(request, options).then((r) => sweepEntries(r, pick));
      }
      answer.then((entries) => land(run, entries), (e) => {
        if (own.signal.aborted) return;
        land(run, Array.from({ length: run.count }, () => ({ error: errorOf(e) })));
      });
    }
  });
}
