// A pool of solver workers: one module Web Worker per core (at most 4), each
// running worker.js's protocol (README.md, "Worker protocol"), with a queue of
// tasks, progress, cancellation and crash handling like solver.js.
//
//   const pool = sharedPool();                     // or new Pool({size})
//   const response = await pool.solve(request, {signal, priority: 'high'});
//   const results = await pool.batch(requests, {signal, onProgress, onItem, pick});
//
// `batch` spreads its requests over the workers, one task each, and resolves
// to one entry per request: the response, or `{error: {code, field, message}}`
// for a request the core refused or whose worker crashed (so one bad point
// does not lose a whole map). `onItem(i, entry)` is called as each one lands,
// `onProgress(done, total)` after it.
//
// Cancelling (the caller's signal) drops queued tasks and terminates the
// workers busy with running ones; those are replaced by fresh workers when
// the queue next needs them. A crashed worker (a wasm trap answered with
// `fatal: true`, an `error` event, a message that cannot be read, or silence
// for `stallMs` while busy) is replaced the same way and its task rejected
// with code 'crash' (or 'timeout'). Rejections are solver.js's SolverError.
//
// Options (see the constructor): `size`, `warmup` (a message every fresh
// worker runs before its first task, for solvers bounded by wall-clock time:
// a new wasm instance runs its first calls slowly), `stallMs`, `idleMs`
// (idle workers are stopped after this long and started again on demand).

import { SolverError } from './solver.js';

function defaultWorker() {
  return new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
}

/** Workers for this machine: one per core, at least 1, at most 4. */
export function defaultPoolSize() {
  const n = Math.floor(Number(globalThis.navigator?.hardwareConcurrency) || 1);
  return Math.max(1, Math.min(4, n));
}

function pickFields(response, pick) {
  if (!pick || !response || typeof response !== 'object') return response;
  const out = {};
  for (const k of pick) if (k in response) out[k] = response[k];
  return out;
}

const cancelledError = (message = 'cancelled') => new SolverError({ code: 'cancelled', field: '', message });

export class Pool {
  /**
   * @param {object} [options]
   * @param {number} [options.size] workers (default: defaultPoolSize())
   * @param {() => Worker} [options.createWorker] for tests
   * @param {number} [options.stallMs] replace a worker silent this long on one task (0: never)
   * @param {number} [options.idleMs] terminate a worker idle this long (0: keep it)
   * @param {object} [options.warmup] a message (e.g. {type: 'solve', request}) each fresh
   *   worker runs before its first task, its answer ignored: wasm code runs slowly
   *   on its first calls, which matters to solvers bounded by wall-clock time
   */
  constructor({ size = defaultPoolSize(), createWorker = defaultWorker, stallMs = 60000, idleMs = 120000, warmup = null } = {}) {
    this.size = Math.max(1, Math.floor(size));
    this.createWorker = createWorker;
    this.stallMs = stallMs;
    this.idleMs = idleMs;
    this.warmup = warmup;
    this.slots = Array.from({ length: this.size }, (_, index) => ({ index, worker: null, task: null, watchdog: 0, idle: 0 }));
    this.queue = [];
    this.nextId = 1;
    this.restarts = 0;
    this.completed = 0;
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

  /** One request: resolves to the core's response, rejects with a SolverError. */
  solve(request, options = {}) {
    return this.call({ type: 'solve', request }, options).then((m) => m.response);
  }

  /** The LP of a request as 'lp' or 'mps' text (worker.js 'export'). */
  exportLp(request, format = 'lp', options = {}) {
    return this.call({ type: 'export', request, format }, options).then((m) => m.text);
  }

  /**
   * Any message of worker.js's protocol but 'cancel' (the id is added here):
   * resolves to the worker's `ok` answer. `priority: 'high'` puts the task at
   * the head of the queue; `stallMs` overrides the pool's for this task;
   * `onProgress(done, total)` receives a worker batch's progress messages.
   */
  call(message, { signal, onProgress, priority, stallMs } = {}) {
    if (signal?.aborted) return Promise.reject(cancelledError());
    return new Promise((resolve, reject) => {
      const task = {
        id: this.nextId++, message, onProgress, slot: null, done: false,
        stallMs: stallMs ?? this.stallMs,
        resolve, reject, cleanup: () => {},
      };
      if (signal) {
        const onAbort = () => this.#cancel(task);
        signal.addEventListener('abort', onAbort, { once: true });
        task.cleanup = () => signal.removeEventListener('abort', onAbort);
      }
      if (priority === 'high') this.queue.unshift(task);
      else this.queue.push(task);
      this.#pump();
    });
  }

  /**
   * Spreads `requests` over the workers (one 'solve' task each). Resolves to
   * one entry per request, the response (only the `pick` fields, if given) or
   * {error}; rejects with code 'cancelled' if `signal` fires first.
   */
  batch(requests, { signal, onProgress, onItem, pick, stallMs } = {}) {
    const total = requests.length;
    if (signal?.aborted) return Promise.reject(cancelledError());
    const own = new AbortController();
    const results = new Array(total);
    let done = 0;
    return new Promise((resolve, reject) => {
      const stop = () => {
        own.abort();
        reject(cancelledError(`cancelled after ${done} of ${total}`));
      };
      signal?.addEventListener('abort', stop, { once: true });
      const finish = () => {
        signal?.removeEventListener('abort', stop);
        resolve(results);
      };
      if (total === 0) {
        finish();
        return;
      }
      requests.forEach((request, i) => {
        this.solve(request, { signal: own.signal, stallMs }).then(
          (response) => ({ value: pickFields(response, pick) }),
          (e) => (e instanceof SolverError && e.code === 'cancelled' && own.signal.aborted ? null : { value: { error: e instanceof SolverError ? e.error : { code: 'internal', field: '', message: String(e?.message ?? e) } } }),
        ).then((r) => {
          if (!r || own.signal.aborted) return;
          results[i] = r.value;
          done++;
          try { onItem?.(i, r.value); } catch (e) { console.warn(e); }
          try { onProgress?.(done, total); } catch (e) { console.warn(e); }
          if (done === total) finish();
        });
      });
    });
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
        // Answered under an id no task has; #onMessage drops the answer.
        if (this.warmup) slot.worker.postMessage({ ...this.warmup, id: -1 });
      } catch (e) {
        this.#settle(task, null, new SolverError({ code: 'crash', message: `a solver worker could not be started: ${e.message}` }));
        this.#pumpSoon();
        return;
      }
    }
    slot.task = task;
    task.slot = slot;
    slot.worker.postMessage({ ...task.message, id: task.id });
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
    this.completed++;
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
    if (slot && slot.task === task) {
      // The wasm cannot be interrupted inside a solve: replace the worker.
      this.#drop(slot);
    }
    this.#settle(task, null, cancelledError());
    // After every abort listener of a batch has run: no worker is started
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

let shared = null;

/**
 * The page's pool, made on first use (with `options`, see Pool) and shared by
 * the views that want one; a `warmup` asked for later is kept if the pool has
 * none yet.
 */
export function sharedPool(options = {}) {
  shared ??= new Pool(options);
  if (options.warmup && !shared.warmup) shared.warmup = options.warmup;
  return shared;
}
