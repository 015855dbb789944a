// @ts-check
// Where the page's workers come from. index.html loads this module before
// the others: the page solver's worker (and, opening on the gallery, one per
// core for its figures) starts loading the core while the page's fifty
// modules are still being fetched, instead of after them. The pools take
// these first (`takeWorker`), then start their own.

/** Workers for this machine: one per core, at least 1, at most 4. */
export function defaultPoolSize() {
  const n = Math.floor(Number(globalThis.navigator?.hardwareConcurrency) || 1);
  return Math.max(1, Math.min(4, n));
}

// The single file (scripts/build-single.mjs) fetches nothing: its worker
// carries the wasm.
const ONE_FILE = typeof (/** @type {any} */ (globalThis).dltCreateWorker) === 'function';

/**
 * The core's module, fetched and compiled once for the workers that share
 * it: the gallery's three workers, fetching it each, took 4.5 s to draw a
 * figure under 40 ms of latency and 10 Mbit/s; sharing one fetch, 3.0-3.2 s.
 * Fetched at low priority, after the page's modules. Null where it cannot
 * be compiled here: each worker then fetches it itself.
 * @type {Promise<WebAssembly.Module | null> | null}
 */
let compiled = null;

/** The name under which worker.js waits for the page's module (its CORE_FROM_PAGE). */
const CORE_FROM_PAGE = 'core-from-page';

/**
 * A new module worker running worker.js: fetching the core itself, or
 * (`shared`) given the page's (worker.js). A worker alone fetches its own:
 * a module handed over waits for the page's main thread, busy loading the
 * page (the torus view's first result came 0.1 s later).
 * @param {boolean} shared
 */
function startWorker(shared) {
  if (ONE_FILE || !shared) return newWorker({ type: 'module' });
  const worker = newWorker({ type: 'module', name: CORE_FROM_PAGE });
  compiled ??= WebAssembly.compileStreaming(fetch(new URL('./pkg/dlt_wasm_bg.wasm', import.meta.url), { priority: 'low' })).catch(() => null);
  compiled.then((module) => worker.postMessage({ type: 'wasm', module }));
  return worker;
}

/** @param {WorkerOptions} options */
function newWorker(options) {
  return new Worker(new URL('./worker.js', import.meta.url), options);
}

/**
 * Started workers not yet taken, each with whether it failed to load: a
 * failure before a pool listens would otherwise go unheard.
 * @type {{worker: Worker, failed: boolean}[]}
 */
const started = [];

/** @param {boolean} shared */
function prestart(shared) {
  const one = { worker: startWorker(shared), failed: false };
  one.worker.addEventListener('error', () => { one.failed = true; }, { once: true });
  started.push(one);
}

// Workers nobody took (a link the page reads otherwise than below) are
// closed after this long; the pools start their own whenever they need one.
const UNCLAIMED_MS = 20000;

const link = new URLSearchParams(location.hash.slice(1));
const embedded = new URLSearchParams(location.search).get('embed') === '1';
// The solver's worker; and the figures' as the gallery starts them when it mounts (app.js).
const count = 1 + (link.get('view') === 'gallery' && !embedded ? defaultPoolSize() : 0);
for (let i = 0; i < count; i++) prestart(count > 1);
setTimeout(() => started.splice(0).forEach((s) => s.worker.terminate()), UNCLAIMED_MS);

/** A worker started early, if one is left and loaded; else a new one. */
export function takeWorker() {
  const early = started.shift();
  if (early && !early.failed) return early.worker;
  early?.worker.terminate();
  return startWorker(true);
}
