// What the page's modules share: its one solver, embed mode, the views
// mounted so far and the page shown.

import { Pool, defaultPoolSize } from './pool.js';

/**
 * One worker for the whole page: a new request supersedes a running one,
 * never waits behind it. No stall watchdog: the core has no clock and runs
 * a hard LP to its end, while the form shows the elapsed time and a Cancel.
 */
export const solver = new Pool({ stallMs: 0 });

/**
 * The gallery's figures: a worker per core (started when first needed), so
 * that the requests of one figure, each a separate point, run side by side.
 */
export const figures = new Pool({ size: defaultPoolSize() });

/** `?embed=1`: the page in a frame, one view's form and one panel. */
export const embed = new URLSearchParams(location.search).get('embed') === '1';

/**
 * The views mounted so far, by id: {view, section, form, ctx, compute(),
 * last (response), request, texts (the form's, of that request), linkState,
 * subforms, pendingParts, panel, started, pin (pin.js)}.
 */
export const mounted = new Map();

/**
 * The core's models (`solver.models()`), read before the first view mounts
 * (app.js): each form takes its fields' ranges from its model's entry.
 */
export const core = { models: [] };

/** The page shown (a view's id or the gallery's) and the gallery's figure. */
export const shown = { id: null, fig: undefined };

const t0 = performance.now();

/** Records once how long the page took to its first result (the tests and the load budget read it). */
export function markFirstResult() {
  const root = document.documentElement;
  if (!root.dataset.firstResultMs) root.dataset.firstResultMs = String(Math.round(performance.now() - t0));
}
