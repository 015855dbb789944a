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

/** A new module worker running worker.js. */
function startWorker() {
  return new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
}

/**
 * Started workers not yet taken, each with whether it failed to load: a
 * failure before a pool listens would otherwise go unheard.
 * @type {{worker: Worker, failed: boolean}[]}
 */
const started = [];

function prestart() {
  const one = { worker: startWorker(), failed: false };
  one.worker.addEventListener('error', () => { one.failed = true; }, { once: true });
  started.push(one);
}

// Workers nobody took (a link the page reads otherwise than below) are
// closed after this long; the pools start their own whenever they need one.
const UNCLAIMED_MS = 20000;

if (typeof location !== 'undefined') {
  prestart();
  const link = new URLSearchParams(location.hash.slice(1));
  const embedded = new URLSearchParams(location.search).get('embed') === '1';
  // The gallery asks its figures' pool to start every worker as it mounts (app.js).
  if (link.get('view') === 'gallery' && !embedded) {
    for (let i = 0; i < defaultPoolSize(); i++) prestart();
  }
  setTimeout(() => started.splice(0).forEach((s) => s.worker.terminate()), UNCLAIMED_MS);
}

/** A worker started early, if one is left and loaded; else a new one. */
export function takeWorker() {
  const early = started.shift();
  if (early && !early.failed) return early.worker;
  early?.worker.terminate();
  return startWorker();
}
