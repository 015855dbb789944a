// The only place the wasm module runs: a module Web Worker.
//
// Protocol (every message in carries an `id` chosen by the client; every
// answer repeats it):
//   in  {id, type: 'solve', request}
//   out {id, ok: true, response} | {id, ok: false, error: {code, field, message}}
//   in  {id, type: 'batch', requests: [...], pick?: ['speedup', ...]}
//   out {id, progress: done, total} after each item, then
//       {id, ok: true, responses: [...]}; an item the core refused is
//       {error: {code, field, message}} in its place, so one infeasible point
//       does not lose a whole sweep. `pick` keeps only the named top-level
//       fields of each response (sweeps need a number, not a schedule).
//   in  {type: 'cancel', id}
//       stops batch `id` between two items; it answers
//       {id, ok: false, error: {code: 'cancelled', ...}}.
//   in  {id, type: 'export', request, format: 'lp' | 'mps'}
//   out {id, ok: true, text} | {id, ok: false, error}: the LP of a star,
//       tree, binomial or memory request as CPLEX-LP or MPS text.
//   in  {id, type: 'version'}
//   out {id, ok: true, version}
// A wasm trap (a panic compiled to `unreachable`, a stack overflow...) leaves
// the instance unusable: the answer then carries `fatal: true` and the client
// replaces this worker.

import init, { solve, export_lp as exportLp, version } from './pkg/dlt_wasm.js';

const ready = init();
ready.catch(() => {}); // reported to each request instead, below
const cancelled = new Set();
let broken = null; // the trap that made the instance unusable

/** The contract's error object from whatever the wasm threw. */
function toError(e) {
  if (e && e.error && typeof e.error === 'object' && 'code' in e.error) {
    return { code: String(e.error.code), field: String(e.error.field ?? ''), message: String(e.error.message ?? e.message) };
  }
  const message = e && e.message ? e.message : String(e);
  return { code: 'crash', field: '', message: `the solver crashed: ${message}` };
}

function isTrap(e) {
  return e instanceof WebAssembly.RuntimeError || (e && !e.error && /unreachable|RuntimeError/i.test(String(e.message ?? e)));
}

/** Runs one request; throws only for a trap. */
function runOne(request, fn = solve) {
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

function pickFields(response, pick) {
  if (!pick || !response || typeof response !== 'object') return response;
  const out = {};
  for (const k of pick) if (k in response) out[k] = response[k];
  return out;
}

/** Lets queued messages (a cancel, a single solve) in between batch items. */
const channel = new MessageChannel();
const waiting = [];
channel.port1.onmessage = () => waiting.shift()?.();
function yieldToMessages() {
  return new Promise((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(0);
  });
}

async function runBatch(id, requests, pick) {
  const total = requests.length;
  const responses = new Array(total);
  for (let i = 0; i < total; i++) {
    await yieldToMessages();
    if (cancelled.has(id)) {
      cancelled.delete(id);
      postMessage({ id, ok: false, error: { code: 'cancelled', field: '', message: `cancelled after ${i} of ${total}` } });
      return;
    }
    const r = runOne(requests[i]);
    responses[i] = r.ok ? pickFields(r.response, pick) : { error: r.error };
    postMessage({ id, progress: i + 1, total });
  }
  cancelled.delete(id);
  postMessage({ id, ok: true, responses });
}

self.onmessage = async (event) => {
  const msg = event.data || {};
  const { id, type } = msg;
  if (type === 'cancel') {
    cancelled.add(id);
    return;
  }
  try {
    await ready;
    switch (type) {
      case 'solve': {
        const r = runOne(msg.request);
        postMessage(r.ok ? { id, ok: true, response: r.response } : { id, ok: false, error: r.error });
        break;
      }
      case 'batch':
        await runBatch(id, Array.isArray(msg.requests) ? msg.requests : [], msg.pick);
        break;
      case 'export': {
        const format = msg.format === 'mps' ? 'mps' : 'lp';
        const r = runOne(msg.request, (request) => exportLp(request, format));
        postMessage(r.ok ? { id, ok: true, text: r.response } : { id, ok: false, error: r.error });
        break;
      }
      case 'version':
        postMessage({ id, ok: true, version: version() });
        break;
      default:
        postMessage({ id, ok: false, error: { code: 'parse', field: 'type', message: `unknown message type ${JSON.stringify(type)}; accepted: solve, batch, export, cancel, version` } });
    }
  } catch (e) {
    // A trap, or the module failed to load: this worker is done for.
    postMessage({ id, ok: false, fatal: true, error: toError(e) });
  }
};
