// Promise client of worker.js: the main thread never runs the wasm.
//
//   const solver = new Solver();
//   const response = await solver.solve(request, {signal});
//   const responses = await solver.batch(requests, {signal, onProgress, pick});
//   const text = await solver.exportLp(request, 'lp' | 'mps', {signal});
//
// Failures reject with a SolverError whose `.error` is the contract's
// {code, field, message}; codes added here: 'cancelled' (the caller's signal
// fired), 'crash' (the worker died or the wasm trapped; the worker is
// replaced and the next call starts a fresh one) and 'timeout' (the worker
// said nothing for `stallMs`; it is replaced too).

export class SolverError extends Error {
  constructor(error) {
    super(error.message);
    this.name = 'SolverError';
    this.error = { code: error.code ?? 'internal', field: error.field ?? '', message: error.message ?? String(error) };
  }
  get code() { return this.error.code; }
  get field() { return this.error.field; }
}

function defaultWorker() {
  return new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
}

export class Solver {
  /**
   * @param {object} [options]
   * @param {() => Worker} [options.createWorker] for tests
   * @param {number} [options.stallMs] restart a worker silent for this long while busy
   */
  constructor({ createWorker = defaultWorker, stallMs = 60000 } = {}) {
    this.createWorker = createWorker;
    this.stallMs = stallMs;
    this.worker = null;
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, reject, onProgress, cleanup}
    this.restarts = 0;
    this.crashListeners = new Set();
    this.watchdog = null;
  }

  /** Calls `fn(error)` whenever the worker crashed and was replaced. */
  onCrash(fn) {
    this.crashListeners.add(fn);
    return () => this.crashListeners.delete(fn);
  }

  solve(request, { signal } = {}) {
    return this.#call({ type: 'solve', request }, { signal }).then((m) => m.response);
  }

  batch(requests, { signal, onProgress, pick } = {}) {
    return this.#call({ type: 'batch', requests, pick }, { signal, onProgress, cancellable: true }).then((m) => m.responses);
  }

  /** The LP of a star, tree, binomial or memory request as CPLEX-LP ('lp') or MPS ('mps') text. */
  exportLp(request, format = 'lp', { signal } = {}) {
    return this.#call({ type: 'export', request, format }, { signal }).then((m) => m.text);
  }

  version() {
    return this.#call({ type: 'version' }, {}).then((m) => m.version);
  }

  /** Stops the worker for good (pending calls are rejected). */
  terminate() {
    this.#fail({ code: 'cancelled', field: '', message: 'the solver was shut down' });
  }

  #ensureWorker() {
    if (this.worker) return this.worker;
    const w = this.createWorker();
    w.onmessage = (e) => this.#onMessage(e.data);
    w.onerror = (e) => {
      e.preventDefault?.();
      const where = e.filename ? ` (${e.filename.split('/').pop()}:${e.lineno})` : '';
      this.#crash(`the solver worker failed: ${e.message || 'it could not be loaded'}${where}`);
    };
    w.onmessageerror = () => this.#crash('the solver worker sent a message that could not be read');
    this.worker = w;
    return w;
  }

  #call(message, { signal, onProgress, cancellable = false }) {
    if (signal?.aborted) return Promise.reject(new SolverError({ code: 'cancelled', message: 'cancelled' }));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      let worker;
      try {
        worker = this.#ensureWorker();
      } catch (e) {
        reject(new SolverError({ code: 'crash', message: `the solver worker could not be started: ${e.message}` }));
        return;
      }
      const onAbort = () => {
        if (!this.pending.has(id)) return;
        this.pending.delete(id);
        if (cancellable) worker.postMessage({ type: 'cancel', id });
        this.#armWatchdog();
        reject(new SolverError({ code: 'cancelled', message: 'cancelled' }));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve, reject, onProgress,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      });
      try {
        worker.postMessage({ id, ...message });
      } catch (e) {
        // A request the browser cannot copy to the worker (nested thousands
        // deep, or holding a function) never reaches the core.
        this.pending.get(id)?.cleanup();
        this.pending.delete(id);
        reject(new SolverError({ code: 'parse', message: `the request cannot be sent to the solver: ${e.message}` }));
        return;
      }
      this.#armWatchdog();
    });
  }

  #onMessage(msg) {
    this.#armWatchdog();
    const p = this.pending.get(msg?.id);
    if (msg?.fatal) {
      // The wasm instance trapped: answer this call, replace the worker.
      this.#crash(msg.error?.message ?? 'the solver crashed');
      return;
    }
    if (!p) return; // cancelled meanwhile
    if ('progress' in msg) {
      try { p.onProgress?.(msg.progress, msg.total); } catch (e) { console.warn(e); }
      return;
    }
    this.pending.delete(msg.id);
    p.cleanup();
    if (msg.ok) p.resolve(msg);
    else p.reject(new SolverError(msg.error ?? { code: 'internal', message: 'no answer' }));
    this.#armWatchdog();
  }

  #armWatchdog() {
    clearTimeout(this.watchdog);
    this.watchdog = null;
    if (this.pending.size > 0 && this.stallMs > 0) {
      this.watchdog = setTimeout(() => this.#crash(`the solver did not answer within ${this.stallMs / 1000} s and was restarted`, 'timeout'), this.stallMs);
    }
  }

  #crash(message, code = 'crash') {
    const error = { code, field: '', message };
    this.#fail(error);
    this.restarts++;
    for (const fn of this.crashListeners) {
      try { fn(new SolverError(error)); } catch (e) { console.warn(e); }
    }
  }

  /** Rejects everything pending and drops the worker; a new one starts on the next call. */
  #fail(error) {
    clearTimeout(this.watchdog);
    this.watchdog = null;
    const w = this.worker;
    this.worker = null;
    if (w) {
      w.onmessage = w.onerror = w.onmessageerror = null;
      w.terminate();
    }
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) {
      p.cleanup();
      p.reject(new SolverError(error));
    }
  }
}
