// @ts-check
/** @typedef {import('./pkg/dlt_wasm.js').DltRequest} DltRequest */
/** @typedef {import('./pkg/dlt_wasm.js').DltResponse} DltResponse */
/** @typedef {import('./pkg/dlt_wasm.js').Plan} Plan */
/** @typedef {import('./pkg/dlt_wasm.js').Explanation} Explanation */
/**
 * @typedef {object} CallOptions
 * @property {AbortSignal} [signal] cancels the task (the worker is closed)
 * @property {(done: number, total: number) => void} [onProgress]
 * @property {() => void} [onStart]
 * @property {number} [stallMs]
 */
// The only client of worker.js (README.md, "Worker protocol"): a pool of
// module Web Workers with a queue of tasks. The page runs everything through
// one pool of one worker (page.js); the isoefficiency map has its own pool,
// one worker per core.
//
//   const pool = new Pool({size});
//   const response = await pool.solve(request, {signal, onProgress});
//   const plan = await pool.plan(request, {signal});
//   const {steps} = await pool.explain(request, {signal});
//   const entries = await pool.sweep(requests, {signal, onProgress, onItem, pick});
//   const text = await pool.exportLp(request, 'lp' | 'mps', {signal});
//   const about = await pool.models();
//
// The wasm solves synchronously inside its worker, so a task cannot be
// interrupted: cancelling one (its caller's signal) drops it from the queue
// or terminates the worker busy with it; a fresh worker starts when the
// queue next needs one. A crashed worker (a wasm trap answered with
// `fatal: true`, an `error` event, a message that cannot be read, or silence
// for `stallMs` while busy) is replaced the same way, its task rejected with
// code 'crash' (or 'timeout'). Rejections are SolverErrors carrying the
// contract's {code, field, message} (solver-error.js). A sweep's batching
// of requests into the core's sweeps is pool-sweep.js.

import { SolverError, cancelledError } from './solver-error.js';
import { sweep } from './pool-sweep.js';
import { takeWorker, defaultPoolSize } from './workers.js';

export { SolverError, defaultPoolSize };

export class Pool {
  /**
   * @param {object} [options]
   * @param {number} [options.size] workers (default 1)
   * @param {() => Worker} [options.createWorker] tests' stand-ins (default: workers.js's)
   * @param {number} [options.stallMs] replace a worker silent this long on one task (0: never)
   * @param {number} [options.idleMs] terminate a worker idle this long (0: keep it)
   */
  constructor({ size = 1, createWorker = takeWorker, stallMs = 60000, idleMs = 120000 } = {}) {
    this.size = Math.max(1, Math.floor(size));
    this.createWorker = createWorker;
    this.stallMs = stallMs;
    this.idleMs = idleMs;
    this.slots = Array.from({ length: this.size }, (_, index) => ({ index, worker: null, task: null, watchdog: 0, idle: 0 }));
    this.queue = [];
    this.nextId = 1;
    this.restarts = 0;
    this.crashListeners = new Set();
    this.pumping = false;
  }

  /** Calls `fn(error, request)` whenever a worker crashed (or stalled) and was replaced. */
  onCrash(fn) {
    this.crashListeners.add(fn);
    return () => this.crashListeners.delete(fn);
  }

  /** Tasks waiting for a worker. */
  get queued() { return this.queue.length; }

  /** Workers busy with a task. */
  get running() { return this.slots.filter((s) => s.task).length; }

  /** Workers alive (busy or idle). */
  get alive() { return this.slots.filter((s) => s.worker).length; }

  /**
   * One request: resolves to the core's response, rejects with a
   * SolverError. `onProgress(done, total)` hears a sweep's or an
   * isoefficiency map's progress; `onStart()` runs when a worker takes the
   * task (until then it waits behind others).
   * @param {DltRequest} request
   * @param {CallOptions} [options]
   * @returns {Promise<DltResponse>}
   */
  solve(request, options = {}) {
    return this.#call({ type: 'solve', request }, options).then((m) => m.response);
  }

  /**
   * What `request` will cost, without solving it (the core's `plan`: stages,
   * LP size, method, steps); rejects with the error `solve` would give.
   * @param {DltRequest} request
   * @param {CallOptions} [options]
   * @returns {Promise<Plan>}
   */
  plan(request, options = {}) {
    return this.#call({ type: 'plan', request }, options).then((m) => m.plan);
  }

  /**
   * The steps that produce `request`'s answer, with its numbers (the core's
   * explain mode: for an LP model, the program solved again); rejects with
   * the error `solve` would give.
   * @param {DltRequest} request
   * @param {CallOptions} [options]
   * @returns {Promise<Explanation>}
   */
  explain(request, options = {}) {
    return this.#call({ type: 'explain', request }, options).then((m) => m.explanation);
  }

  /**
   * The LP of a star, tree, binomial or memory request as 'lp' or 'mps' text.
   * @param {DltRequest} request
   * @param {'lp' | 'mps'} [format]
   * @param {CallOptions} [options]
   * @returns {Promise<string>}
   */
  exportLp(request, format = 'lp', options = {}) {
    return this.#call({ type: 'export', request, format }, options).then((m) => m.text);
  }

  version() {
    return this.#call({ type: 'version' }, {}).then((m) => m.version);
  }

  /**
   * The core's registry: each model's name, summary, example and its
   * fields' ranges.
   * @returns {Promise<import('./pkg/dlt_wasm.js').About[]>}
   */
  models() {
    return this.#call({ type: 'models' }, {}).then((m) => m.models);
  }

  /**
   * Many requests, consecutive ones that differ in one numeric field as one
   * core sweep: one entry per request, the response (its `pick` fields) or
   * {error}; see pool-sweep.js.
   * @param {DltRequest[]} requests
   * @param {import('./pool-sweep.js').SweepOptions} [options]
   * @returns {Promise<any[]>}
   */
  sweep(requests, options = {}) {
    return sweep((request, o) => this.solve(request, o), requests, { workers: this.size, ...options });
  }

  /** Cancels every task, queued and running (their promises reject with 'cancelled'). */
  cancelAll() {
    for (const task of [...this.queue, ...this.slots.map((s) => s.task).filter(Boolean)]) this.#cancel(task);
  }

  /** Cancels everything and stops all workers (a later call starts new ones). */
  terminate() {
    this.cancelAll();
    for (const slot of this.slots) this.#drop(slot);
  }

  // ---- internals ----------------------------------------------------------

  /**
   * @param {object} message
   * @param {CallOptions} [options]
   * @returns {Promise<any>}
   */
  #call(message, { signal, onProgress, onStart, stallMs } = {}) {
    if (signal?.aborted) return Promise.reject(cancelledError());
    return new Promise((resolve, reject) => {
      const task = {
        id: this.nextId++, message, onProgress, onStart, slot: null, done: false,
        stallMs: stallMs ?? this.stallMs,
        resolve, reject, cleanup: () => {},
      };
      if (signal) {
        const onAbort = () => this.#cancel(task);
        signal.addEventListener('abort', onAbort, { once: true });
        task.cleanup = () => signal.removeEventListener('abort', onAbort);
      }
      this.queue.push(task);
      this.#pump();
    });
  }

  #pump() {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.task) continue;
      this.#start(slot, this.queue.shift());
    }
  }

  #start(slot, task) {
    clearTimeout(slot.idle);
    if (!slot.worker) {
      try {
        this.#spawn(slot);
      } catch (e) {
        this.#settle(task, null, new SolverError({ code: 'crash', message: `a solver worker could not be started: ${e instanceof Error ? e.message : e}` }));
        this.#pumpSoon();
        return;
      }
    }
    slot.task = task;
    task.slot = slot;
    try {
      slot.worker.postMessage({ ...task.message, id: task.id });
    } catch (e) {
      // A request the browser cannot copy to the worker (nested thousands
      // deep, or holding a function) never reaches the core.
      this.#release(slot);
      this.#settle(task, null, new SolverError({ code: 'parse', message: `the request cannot be sent to the solver: ${e instanceof Error ? e.message : e}` }));
      this.#pumpSoon();
      return;
    }
    try { task.onStart?.(); } catch (e) { console.warn(e); }
    this.#arm(slot);
  }

  #spawn(slot) {
    const w = this.createWorker();
    w.onmessage = (e) => { if (slot.worker === w) this.#onMessage(slot, e.data); };
    w.onerror = (e) => {
      e.preventDefault?.();
      if (slot.worker !== w) return;
      const where = e.filename ? ` (${e.filename.split('/').pop()}:${e.lineno})` : '';
      this.#crash(slot, `a solver worker failed: ${e.message || 'it could not be loaded'}${where}`);
    };
    w.onmessageerror = () => { if (slot.worker === w) this.#crash(slot, 'a solver worker sent a message that could not be read'); };
    slot.worker = w;
  }

  #onMessage(slot, msg) {
    const task = slot.task;
    if (msg?.fatal) {
      this.#crash(slot, msg.error?.message ?? 'the solver crashed');
      return;
    }
    if (!task || msg?.id !== task.id) return; // a late answer of a cancelled task
    this.#arm(slot);
    if ('progress' in msg) {
      try { task.onProgress?.(msg.progress, msg.total); } catch (e) { console.warn(e); }
      return;
    }
    this.#release(slot);
    if (msg.ok) this.#settle(task, msg);
    else this.#settle(task, null, new SolverError(msg.error ?? { code: 'internal', message: 'no answer' }));
    this.#pump();
  }

  /** Frees a slot whose worker is still good; idles it out after idleMs. */
  #release(slot) {
    clearTimeout(slot.watchdog);
    slot.task = null;
    if (this.idleMs > 0) {
      clearTimeout(slot.idle);
      slot.idle = setTimeout(() => { if (!slot.task) this.#drop(slot); }, this.idleMs);
    }
  }

  #arm(slot) {
    clearTimeout(slot.watchdog);
    const ms = slot.task?.stallMs;
    if (ms > 0) slot.watchdog = setTimeout(() => this.#crash(slot, `a solver worker did not answer within ${Math.round(ms / 1000)} s and was restarted`, 'timeout'), ms);
  }

  /** Terminates a slot's worker (a fresh one starts when the slot is next used). */
  #drop(slot) {
    clearTimeout(slot.watchdog);
    clearTimeout(slot.idle);
    const w = slot.worker;
    slot.worker = null;
    slot.task = null;
    if (w) {
      w.onmessage = w.onerror = w.onmessageerror = null;
      w.terminate();
    }
  }

  #crash(slot, message, code = 'crash') {
    const task = slot.task;
    this.#drop(slot);
    this.restarts++;
    const error = new SolverError({ code, field: '', message });
    if (task) this.#settle(task, null, error);
    for (const fn of this.crashListeners) {
      try { fn(error, task?.message?.request); } catch (e) { console.warn(e); }
    }
    this.#pump();
  }

  #cancel(task) {
    if (task.done) return;
    const q = this.queue.indexOf(task);
    if (q >= 0) this.queue.splice(q, 1);
    const slot = task.slot;
    if (slot && slot.task === task) this.#drop(slot);
    this.#settle(task, null, cancelledError());
    // After every abort listener of a sweep has run: no worker is started
    // for a task about to be cancelled too.
    this.#pumpSoon();
  }

  #pumpSoon() {
    if (this.pumping) return;
    this.pumping = true;
    queueMicrotask(() => {
      this.pumping = false;
      this.#pump();
    });
  }

  #settle(task, answer, error) {
    if (task.done) return;
    task.done = true;
    task.cleanup();
    if (error) task.reject(error);
    else task.resolve(answer);
  }
}
