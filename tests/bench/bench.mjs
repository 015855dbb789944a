// The page side of the side-by-side benchmark: the calculator's wasm
// (www/pkg) and HiGHS's wasm (the npm package `highs`) in one page, on the
// main thread, one case per fresh page. The driver (run.mjs) calls
//   await bench.calculator(case)   warm-up, the calculator's timed solve, the LP export
//   await bench.highs(case, opts)  HiGHS on the exported LP text (same page);
//                                  a small case's two solvers again, in turns
// in two steps, so that a tab lost to HiGHS's memory keeps the first result.

import init, { solve, export_lp, version } from '/www/pkg/dlt_wasm.js';
import loadHighs from '/tests/highs/node_modules/highs/build/highs.mjs';
import { timeUnit } from '/tests/highs/lp-units.mjs';

const log = (line) => { document.getElementById('log').textContent += `${line}\n`; };

await init();
const highs = await loadHighs();
const STATUS = Object.fromEntries(Object.entries(highs.constants.modelStatus).map(([name, code]) => [code, name]));
const IMPROVING = highs.constants.callbackType.mipImprovingSolution;

/**
 * Runs `fn` (which returns {ms, ...}; its first run may be given) until 1 s
 * in all (at most 1000 runs, at least one): the median run (the upper one
 * of an even count, as dlt-bench's), with the first run's ms apart as
 * `firstMs`. V8 runs a
 * module's JavaScript in its baseline compiler and its WebAssembly as its
 * baseline compiler made it, and optimises each function once it has run a
 * while, in the background: HiGHS's solve of a 301-variable LP took 12.3 ms
 * in its first second, 9.5 ms from the second on, the calculator's 1.47
 * and 0.8-1.2 ms. Where the first run takes less than WARM_BELOW_MS, the
 * solver runs WARM_MS more untimed before the timed runs: the median is
 * optimised code on both sides, as in a sweep or any solve after the first
 * few. A slower first run is the first of the timed ones.
 */
function timed(fn, first = fn()) {
  const outs = [];
  if (first.ms < WARM_BELOW_MS) {
    warm(fn);
  } else {
    outs.push(first);
  }
  let total = outs.reduce((sum, out) => sum + out.ms, 0);
  while (total < 1000 && outs.length < 1000) {
    const out = fn();
    outs.push(out);
    total += out.ms;
  }
  return { ...median(outs), firstMs: first.ms };
}

const WARM_BELOW_MS = 100;
const WARM_MS = 2000;

/** Runs `fn` for WARM_MS, untimed. */
function warm(fn) {
  for (const end = performance.now() + WARM_MS; performance.now() < end;) fn();
}

/** The median run of `outs` (the upper one of an even count), with their count. */
function median(outs) {
  return { ...[...outs].sort((a, b) => a.ms - b.ms)[Math.floor(outs.length / 2)], runs: outs.length };
}

/**
 * Two solvers of a small case, both warmed, timed in turns, ROUNDS times a
 * block of BLOCK_MS each: the medians of their pooled runs.
 * This machine's speed drifts by up to twice over seconds (another
 * machine's work on the same cores), and two medians taken one after the
 * other, a second each, measured the drift as much as the solvers: one
 * binomial case read 6.9 in one run of the table and 12.3 in the next; in
 * turns its ten stages read 7.1-10.8 in ten (both orders, five runs).
 * Each block starts on a collected heap (gc(): the benchmark's Chromium
 * runs with --expose-gc), so that neither solver's garbage is collected
 * in the other's time, and its first run is not timed: it finds the
 * caches left to the other solver (one solve each in turn, session 59,
 * timed the calculator 1.0-1.5 times its time alone).
 */
function inTurns(a, b) {
  const outs = [[], []];
  for (let round = 0; round < ROUNDS; round += 1) {
    [a, b].forEach((fn, i) => {
      globalThis.gc();
      fn();
      for (const end = performance.now() + BLOCK_MS; performance.now() < end;) outs[i].push(fn());
    });
  }
  return outs.map(median);
}

const ROUNDS = 10;
const BLOCK_MS = 100;

/** The calculator's solve, timed from the request object to the response object. */
function calc(request) {
  const t0 = performance.now();
  const r = solve(request);
  const ms = performance.now() - t0;
  return { ms, makespan: r.makespan, gap: r.gap ?? null, proven: r.proven ?? null, lp: r.lp ?? null, sequences: r.sequences ?? null };
}

/**
 * HiGHS on CPLEX-LP text, timed from the text to the answer (parsing
 * included, reported apart as parseMs). For a MIP, `target` (LP units)
 * stops it at the first incumbent at least as good; every improving
 * incumbent's time is recorded.
 */
function highsRun(lp, tau, { timeLimit, mip = false, target }) {
  const t0 = performance.now();
  const incumbents = [];
  return highs.withModel({ format: 'lp', data: lp }, (model) => {
    const parseMs = performance.now() - t0;
    const dims = model.getDimensions();
    const options = { output_flag: false, time_limit: timeLimit };
    if (mip) {
      options.mip_rel_gap = 1e-9;
      if (Number.isFinite(target)) options.objective_target = target;
    }
    model.options.set(options);
    const callbacks = mip ? { [IMPROVING]: (e) => { incumbents.push([performance.now() - t0, e.data.objective_function_value * tau]); } } : undefined;
    model.run(callbacks);
    const ms = performance.now() - t0;
    const code = model.getModelStatus();
    const hasSolution = Number(model.info.get('primal_solution_status')) === highs.constants.solutionStatus.feasible;
    const bound = mip ? Number(model.info.get('mip_dual_bound')) * tau : null;
    return {
      ms, parseMs, status: STATUS[code] ?? String(code), objective: hasSolution ? model.getObjectiveValue() * tau : null,
      bound, vars: dims.numCols, rows: dims.numRows, nonzeros: dims.numNonzeros, incumbents,
    };
  });
}

let state = null;

window.bench = {
  versions: () => ({ calculator: version(), highs: highs.version.string, userAgent: navigator.userAgent, isolated: crossOriginIsolated }),

  /** Warm-up of both solvers on `c.warmup` (one request or several), then the calculator's timed solve and the export. */
  calculator(c) {
    for (const warmup of [c.warmup].flat()) {
      const w = export_lp(warmup, 'lp');
      solve(warmup);
      highsRun(w, timeUnit(w), { timeLimit: 0.3, mip: c.kind === 'mip' });
    }
    const result = timed(() => calc(c.request));
    const t0 = performance.now();
    const lp = export_lp(c.request, 'lp');
    const exportMs = performance.now() - t0;
    state = { lp, tau: timeUnit(lp) };
    log(`${c.model} ${c.variant} ${c.size}: calculator ${result.ms.toFixed(1)} ms`);
    return { ...result, exportMs, lpBytes: lp.length };
  },

  /**
   * HiGHS on the LP exported by `calculator(c)`. LPs: to optimality, within
   * `timeLimit` s. MIP: branch and bound until an incumbent at most
   * `target` (the makespan in seconds) or `timeLimit` s; `reachedMs` is the
   * time of the first incumbent within `target`. An LP both solve in less
   * than WARM_BELOW_MS at first (the calculator's first run,
   * `calcFirstMs`) is timed in turns with the calculator (`inTurns`), whose
   * median then comes as `calculator`.
   */
  highs(c, { timeLimit, target, calcFirstMs }) {
    const { lp, tau } = state;
    try {
      if (c.kind === 'mip') {
        const r = timed(() => {
          const out = highsRun(lp, tau, { timeLimit, mip: true, target: target / tau });
          const hit = out.incumbents.find(([, obj]) => obj <= target);
          return { ...out, totalMs: out.ms, ms: hit ? hit[0] : out.ms, reachedMs: hit ? hit[0] : null };
        });
        log(`  HiGHS ${r.status} ${r.reachedMs === null ? 'not reached' : r.reachedMs.toFixed(0) + ' ms'}`);
        return r;
      }
      const run = () => highsRun(lp, tau, { timeLimit });
      const first = run();
      if (first.ms < WARM_BELOW_MS && calcFirstMs < WARM_BELOW_MS) {
        // The calculator was warmed by `calculator(c)`'s timed runs.
        warm(run);
        const [calculator, h] = inTurns(() => calc(c.request), run);
        log(`  in turns: calculator ${calculator.ms.toFixed(2)} ms, HiGHS ${h.status} ${h.ms.toFixed(2)} ms`);
        return { ...h, firstMs: first.ms, calculator };
      }
      const r = timed(run, first);
      log(`  HiGHS ${r.status} ${r.ms.toFixed(1)} ms`);
      return r;
    } catch (e) {
      const message = String(e?.message ?? e);
      return { error: message, outOfMemory: /memory|OOM|Aborted|alloc/i.test(message) };
    } finally {
      state = null;
    }
  },
};
window.benchReady = true;
