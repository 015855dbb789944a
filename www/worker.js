// @ts-check
// The only place the wasm module runs: a module Web Worker. Its protocol is
// in README.md ("Worker protocol"); pool.js is its only client.
// A wasm trap (a panic compiled to `unreachable`, a stack overflow...) leaves
// the instance unusable: the answer then carries `fatal: true` and the client
// replaces this worker. There is no cancel message: a solve runs to its end
// inside this worker, so the client terminates the worker instead.

import init, { solve_progress as solveProgress, export_lp as exportLp, explain, plan, models, version } from './pkg/dlt_wasm.js';

/** @typedef {import('./pkg/dlt_wasm.js').DltRequest} DltRequest */
/** @typedef {import('./pkg/dlt_wasm.js').DltResponse} DltResponse */
/** @typedef {{code: string, field: string, message: string}} ContractError */

// A worker's postMessage (the page's DOM types would ask for a target origin).
const postMessage = /** @type {(message: unknown) => void} */ (/** @type {any} */ (self).postMessage.bind(self));

// The core: fetched here at once or, in a worker workers.js names
// CORE_FROM_PAGE (its constant of that name), the module the page compiled
// once for its workers, sent in a 'wasm' message (null where the page could
// not compile it: fetched here then).
const CORE_FROM_PAGE = 'core-from-page';
/** @type {(module: WebAssembly.Module | null) => void} */
let deliver = () => {};
/** @type {Promise<WebAssembly.Module | null>} */
const delivered = new Promise((resolve) => { deliver = resolve; });
/** @param {WebAssembly.Module | null} module */
function load(module) {
  return module ? init({ module_or_path: module }) : init();
}
const ready = self.name === CORE_FROM_PAGE ? delivered.then(load) : load(null);
ready.catch(() => {}); // reported to each request instead, below
/** @type {unknown} */
let broken = null; // the trap that made the instance unusable

/**
 * The contract's error object from whatever the wasm threw.
 * @param {any} e
 * @returns {ContractError}
 */
function toError(e) {
  if (e && e.error && typeof e.error === 'object' && 'code' in e.error) {
    return { code: String(e.error.code), field: String(e.error.field ?? ''), message: String(e.error.message ?? e.message) };
  }
  const message = e && e.message ? e.message : String(e);
  return { code: 'crash', field: '', message: `the solver crashed: ${message}` };
}

/** @param {any} e */
function isTrap(e) {
  return e instanceof WebAssembly.RuntimeError || (e && !e.error && /unreachable|RuntimeError/i.test(String(e.message ?? e)));
}

/**
 * Runs `fn(request)`; throws only for a trap.
 * @template T
 * @param {DltRequest} request
 * @param {(request: DltRequest) => T} fn
 * @returns {{ok: true, response: T} | {ok: false, error: ContractError}}
 */
function runOne(request, fn) {
  if (broken) throw broken;
  try {
    return { ok: true, response: fn(request) };
  } catch (e) {
    if (isTrap(e)) {
      broken = e;
      throw e;
    }
    return { ok: false, error: toError(e) };
  }
}

// Progress at most this often: a sweep of thousands of quick points would
// otherwise flood the page with messages.
const PROGRESS_MS = 50;

/**
 * Solves `request`, posting {id, progress, total} as a sweep or an isoefficiency map advances.
 * @param {number} id
 * @param {DltRequest} request
 * @returns {DltResponse}
 */
function solveReporting(id, request) {
  let last = -Infinity;
  return solveProgress(request, (done, total) => {
    const now = performance.now();
    if (done === total || now - last >= PROGRESS_MS) {
      last = now;
      postMessage({ id, progress: done, total });
    }
    return true;
  });
}

self.onmessage = async (/** @type {MessageEvent} */ event) => {
  const msg = event.data || {};
  const { id, type } = msg;
  if (type === 'wasm') {
    deliver(msg.module ?? null);
    return;
  }
  try {
    await ready;
    switch (type) {
      case 'solve': {
        const r = runOne(msg.request, (request) => solveReporting(id, request));
        postMessage(r.ok ? { id, ok: true, response: r.response } : { id, ok: false, error: r.error });
        break;
      }
      case 'plan': {
        const r = runOne(msg.request, plan);
        postMessage(r.ok ? { id, ok: true, plan: r.response } : { id, ok: false, error: r.error });
        break;
      }
      case 'explain': {
        const r = runOne(msg.request, explain);
        postMessage(r.ok ? { id, ok: true, explanation: r.response } : { id, ok: false, error: r.error });
        break;
      }
      case 'export': {
        const format = msg.format === 'mps' ? 'mps' : 'lp';
        const r = runOne(msg.request, (request) => exportLp(request, format));
        postMessage(r.ok ? { id, ok: true, text: r.response } : { id, ok: false, error: r.error });
        break;
      }
      case 'version':
        postMessage({ id, ok: true, version: version() });
        break;
      case 'models':
        postMessage({ id, ok: true, models: models() });
        break;
      default:
        postMessage({ id, ok: false, error: { code: 'parse', field: 'type', message: `unknown message type ${JSON.stringify(type)}; accepted: solve, plan, explain, export, models, version` } });
    }
  } catch (e) {
    // A trap, or the module failed to load: this worker is done for.
    postMessage({ id, ok: false, fatal: true, error: toError(e) });
  }
};
