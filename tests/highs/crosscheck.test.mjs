// Independent cross-check of the calculator's LPs against HiGHS (the npm
// package `highs`, HiGHS compiled to WebAssembly).
//
// For seeded random instances of every LP model (star; tree NLF/LLF with 1
// and 2 buffers; binomial NLF/LLF; memory with 1-3 pieces per processor;
// small: m <= 6, p <= 3, h <= 4, n <= 4, with D absent, random, or tight,
// i.e. V exactly n_min full stages) it runs `dlt export -` (CPLEX-LP text)
// and `dlt solve -` on the same request, solves the exported LP with HiGHS,
// and asserts:
//   - raw mode ("prune": false): the calculator's makespan equals HiGHS's
//     optimum times the LP's time unit (read from the LP's first line)
//     within a relative 1e-7, and both agree on feasible / infeasible (the
//     calculator's code `infeasible` exactly when HiGHS proves
//     infeasibility; requests that pass validation have feasible raw LPs, so
//     far every instance was feasible);
//   - the MPS export of every RAW_MPS_EVERY-th instance gives HiGHS the same
//     optimum as the CPLEX-LP export;
//   - pruned mode (the default): the makespan is never worse than raw, and
//     where the final pruned LP is itself a request (star: the kept number of
//     processors and stages; memory: the kept processors; tree, binomial:
//     when no layer was dropped, the kept number of stages), that request's
//     raw LP solved by HiGHS gives the pruned makespan;
//   - the star's method for n = n_min beyond 3000 messages (below) stays
//     within its reported gap of the full LP's optimum;
//   - the isoefficiency MIP (2)-(11) of 003 (below): equal optima where both
//     prove optimality, never worse than HiGHS's incumbent at equal time.
//
//   node --test tests/highs/               from the repository root, or
//   bash scripts/crosscheck.sh [COUNT]     which installs `highs` first
// Environment: CROSSCHECK_COUNT (instances, default 320), CROSSCHECK_SEED
// (default 1), CROSSCHECK_REQUEST=FILE (cross-check one request of one's
// own), DLT_BIN (a dlt binary; else target/release/dlt, built first).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import loadHighs from "highs";
import { timeUnit } from "./lp-units.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const DLT = process.env.DLT_BIN || path.join(ROOT, "target/release/dlt");
const COUNT = Number(process.env.CROSSCHECK_COUNT || 320);
const SEED = Number(process.env.CROSSCHECK_SEED || 1);
const REL = 1e-7;
const RAW_MPS_EVERY = 5;
// HiGHS's tolerances, tighter than its defaults (1e-7) so that its optimum
// is good to well below the 1e-7 compared, and no small coefficient of the
// scaled LP dropped (HiGHS drops |a| <= 1e-9 by default).
const HIGHS_OPTIONS = {
  output_flag: false,
  small_matrix_value: 1e-12,
  primal_feasibility_tolerance: 1e-10,
  dual_feasibility_tolerance: 1e-10,
  time_limit: 30,
};

// ---- a seeded generator --------------------------------------------------

/** mulberry32: a small seeded PRNG; one stream per instance. */
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    uniform: (lo, hi) => lo + (hi - lo) * next(),
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    logu: (lo, hi) => Math.exp(Math.log(lo) + (Math.log(hi) - Math.log(lo)) * next()),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
  };
}

/** The seed of instance `i` of variant `v`: every instance reproducible alone. */
function instanceSeed(v, i) {
  return (Math.imul(SEED, 0x9e3779b1) ^ Math.imul(v + 1, 0x85ebca6b) ^ Math.imul(i + 1, 0xc2b2ae35)) >>> 0;
}

/** S, C, A, V of the 000 models: realistic magnitudes, sometimes zero costs. */
function costs(r) {
  return {
    S: r.chance(0.1) ? 0 : r.logu(1e-5, 1e-1),
    C: r.chance(0.1) ? 0 : r.logu(1e-8, 1e-3),
    A: r.logu(1e-6, 1e-1),
    V: r.logu(1e1, 1e7),
  };
}

/**
 * D and n for a 000 model whose stages carry at most `factor` D of load
 * (n_min = ceil(V / (D factor)), computed with the core's operation order
 * by `nMin`): no D, a D giving 1-4 stages, or a D that makes n_min stages
 * exactly full (V = k D factor, every chunk at its bound).
 */
function buffer(r, q, nMin, factor) {
  const kind = r.pick(["none", "random", "random", "tight"]);
  if (kind === "none") {
    if (r.chance(0.5)) q.n = r.int(1, 3);
  } else {
    const k = r.int(1, 3);
    if (kind === "tight") {
      q.D = r.logu(1e1, 1e5);
      q.V = k * q.D * factor;
    } else q.D = q.V / (factor * r.uniform(0.3, k + 0.999));
    const min = nMin(q);
    if (r.chance(0.5) && min < 4) q.n = r.int(min, Math.min(4, min + 2));
  }
  return q;
}

const GENERATORS = {
  star(r) {
    const m = r.int(1, 6);
    const q = { model: "star", m, ...costs(r) };
    return buffer(r, q, (q) => Math.ceil(q.V / (q.D * q.m)), m);
  },
  tree(r, order, buffers) {
    const p = r.int(1, 3), h = r.int(1, 4);
    const q = { model: "tree", p, h, ...costs(r), order, buffers };
    return buffer(r, q, (q) => Math.ceil(q.V / (q.D * q.p * q.h)), p * h);
  },
  binomial(r, order) {
    const p = r.int(1, 3), h = r.int(1, 4);
    const q = { model: "binomial", p, h, ...costs(r), order };
    return buffer(r, q, (q) => Math.ceil(q.V / (q.D * (q.h * (q.p + 1) - 1))), h * (p + 1) - 1);
  },
  memory(r) {
    const V = r.logu(1, 1e6);
    const processors = [];
    const count = r.int(1, 6);
    for (let i = 0; i < count; i++) {
      const S = r.chance(0.15) ? 0 : r.logu(1e-3, 10);
      const C = r.chance(0.15) ? 0 : r.logu(1e-6, 1e-1);
      // Convex pieces: each next piece steeper, meeting the previous one at
      // a load between 1% and 100% of V; sometimes a dominated extra piece.
      let a = r.chance(0.3) ? 0 : r.logu(1e-3, 10);
      let b = r.logu(1e-6, 1e-1);
      const pieces = [[a, b]];
      const n = r.int(1, 3);
      for (let j = 1; j < n; j++) {
        if (r.chance(0.2)) {
          pieces.push([a - r.logu(1e-3, 10), b * r.uniform(0.2, 1)]);
          continue;
        }
        const at = V * r.uniform(0.01, 1);
        const b2 = b * r.uniform(1.5, 20);
        a = a + b * at - b2 * at;
        b = b2;
        pieces.push([a, b]);
      }
      if (r.chance(0.3)) pieces.reverse();
      processors.push({ S, C, pieces });
    }
    // Sometimes one processor far slower than the others (up to 1e6 times).
    if (count > 1 && r.chance(0.2)) {
      const slow = r.pick(processors), f = 10 ** r.uniform(2, 6);
      slow.C *= f;
      slow.S *= f;
      slow.pieces = slow.pieces.map(([a, b]) => [a * f, b * f]);
    }
    return { model: "memory", V, processors };
  },
};

const VARIANTS = [
  ["star", (r) => GENERATORS.star(r)],
  ["tree NLF-1", (r) => GENERATORS.tree(r, "NLF", 1)],
  ["tree NLF-2", (r) => GENERATORS.tree(r, "NLF", 2)],
  ["tree LLF-1", (r) => GENERATORS.tree(r, "LLF", 1)],
  ["tree LLF-2", (r) => GENERATORS.tree(r, "LLF", 2)],
  ["binomial NLF", (r) => GENERATORS.binomial(r, "NLF")],
  ["binomial LLF", (r) => GENERATORS.binomial(r, "LLF")],
  ["memory", (r) => GENERATORS.memory(r)],
];

// ---- the calculator and HiGHS --------------------------------------------

/** Runs `dlt ARGS -` on the request: {ok, out} or {ok: false, error}. */
function dlt(args, request) {
  const run = spawnSync(DLT, [...args, "-"], { input: JSON.stringify(request), encoding: "utf8", maxBuffer: 1 << 28 });
  if (run.status === 0) return { ok: true, out: run.stdout };
  if (run.status === 2) return { ok: false, error: JSON.parse(run.stdout).error };
  throw new Error(`dlt ${args.join(" ")} exited with ${run.status} (signal ${run.signal}): ${run.stderr}`);
}

function solveRequest(request) {
  const r = dlt(["solve"], request);
  return r.ok ? { ok: true, answer: JSON.parse(r.out) } : r;
}


let highs;

// When HiGHS cannot meet the tight tolerances (status Unknown), it is asked
// again with its default ones.
const HIGHS_DEFAULT_TOLERANCES = { ...HIGHS_OPTIONS, primal_feasibility_tolerance: 1e-7, dual_feasibility_tolerance: 1e-7 };
const settled = (status) => status === "Optimal" || status === "Infeasible";

/** HiGHS on CPLEX-LP text: {status, objective}. */
function highsLp(lp) {
  let r = highs.solve(lp, HIGHS_OPTIONS);
  if (!settled(r.Status)) {
    stats.highsRetries++;
    r = highs.solve(lp, HIGHS_DEFAULT_TOLERANCES);
  }
  return { status: r.Status, objective: r.ObjectiveValue };
}

/** HiGHS on MPS text: {status, objective}. */
function highsMps(mps) {
  const names = { 7: "Optimal", 8: "Infeasible" };
  const run = (options) =>
    highs.withModel({ format: "mps", data: mps }, (model) => {
      model.options.set(options);
      model.run();
      const code = model.getModelStatus();
      return { status: names[code] || `model status ${code}`, objective: model.getObjectiveValue() };
    });
  const r = run(HIGHS_OPTIONS);
  return settled(r.status) ? r : run(HIGHS_DEFAULT_TOLERANCES);
}

const close = (x, y) => Math.abs(x - y) <= REL * Math.max(Math.abs(x), Math.abs(y));
const rel = (x, y) => Math.abs(x - y) / Math.max(Math.abs(x), Math.abs(y));

// ---- the checks ------------------------------------------------------------

const stats = { raw: 0, optimal: 0, infeasible: 0, rejected: 0, mps: 0, pruned: 0, prunedReproduced: 0, worstRel: 0, highsRetries: 0 };
const disagreements = [];

function disagree(what, request, detail) {
  disagreements.push({ what, request, detail });
}

/**
 * The raw LP of `request` (prune false) against HiGHS; returns the raw
 * makespan, or null when the request is rejected or infeasible.
 */
function crossCheckRaw(request, { mps = false, what = "raw" } = {}) {
  const exported = dlt(["export"], request);
  const solved = solveRequest(request);
  if (!exported.ok) {
    // The exporter validates like the solver: both reject, the same way.
    stats.rejected++;
    if (solved.ok || solved.error.code !== exported.error.code || solved.error.field !== exported.error.field) {
      disagree(`${what}: export and solve disagree on validity`, request, { export: exported.error, solve: solved.ok ? "solved" : solved.error });
    }
    return null;
  }
  const lp = exported.out;
  const tau = timeUnit(lp);
  const h = highsLp(lp);
  if (mps) {
    stats.mps++;
    const hm = highsMps(dlt(["export", "--mps"], request).out);
    if (hm.status !== h.status || (h.status === "Optimal" && !close(hm.objective, h.objective))) {
      disagree(`${what}: HiGHS on the MPS export differs from HiGHS on the CPLEX-LP export`, request, { lp: h, mps: hm });
    }
  }
  if (h.status === "Optimal") {
    stats.optimal++;
    if (!solved.ok) {
      disagree(`${what}: HiGHS finds an optimum, the calculator an error`, request, { highs: h.objective * tau, error: solved.error });
      return null;
    }
    const makespan = solved.answer.makespan;
    const want = h.objective * tau;
    stats.worstRel = Math.max(stats.worstRel, rel(makespan, want));
    if (!close(makespan, want)) {
      disagree(`${what}: makespan differs from HiGHS's optimum`, request, { calculator: makespan, highs: want, rel: rel(makespan, want) });
    }
    return makespan;
  }
  if (h.status === "Infeasible") {
    stats.infeasible++;
    if (solved.ok || solved.error.code !== "infeasible") {
      disagree(`${what}: HiGHS proves the LP infeasible, the calculator does not say so`, request, { calculator: solved.ok ? solved.answer.makespan : solved.error });
    }
    return null;
  }
  disagree(`${what}: HiGHS ends with status ${h.status}`, request, { calculator: solved.ok ? solved.answer.makespan : solved.error });
  return null;
}

/**
 * The final LP of a pruned solve as a raw request, when it is one: star
 * (identical processors: the kept count and stages), memory (the kept
 * processors in order), tree and binomial (stages only, all layers kept).
 */
function prunedAsRaw(request, answer) {
  const kept = answer.loads.map((x, i) => (x > 0 ? i : -1)).filter((i) => i >= 0);
  switch (request.model) {
    case "star":
      return { ...request, m: kept.length, n: answer.n, prune: false };
    case "memory":
      return { ...request, processors: kept.map((i) => request.processors[i]), prune: false };
    default:
      return kept.length === answer.loads.length ? { ...request, n: answer.n, prune: false } : null;
  }
}

function crossCheckPruned(request, rawMakespan) {
  const solved = solveRequest(request);
  if (!solved.ok) {
    disagree("pruned: the raw LP solves, the pruned one does not", request, { raw: rawMakespan, error: solved.error });
    return;
  }
  stats.pruned++;
  const makespan = solved.answer.makespan;
  if (makespan > rawMakespan * (1 + REL)) {
    disagree("pruned: pruning made the makespan worse than the raw LP's", request, { pruned: makespan, raw: rawMakespan });
  }
  const reduced = prunedAsRaw(request, solved.answer);
  if (!reduced) return;
  const exported = dlt(["export"], reduced);
  if (!exported.ok) return; // e.g. n below the reduced request's n_min
  stats.prunedReproduced++;
  const h = highsLp(exported.out);
  const want = h.objective * timeUnit(exported.out);
  if (h.status !== "Optimal" || !close(makespan, want)) {
    disagree("pruned: makespan differs from HiGHS's optimum of the final pruned LP", request, { pruned: makespan, reduced, highs: h.status === "Optimal" ? want : h.status });
  }
}

// ---- the run ---------------------------------------------------------------

before(() => {
  if (!process.env.DLT_BIN) {
    const build = spawnSync("cargo", ["build", "--quiet", "--release", "-p", "dlt-cli"], { cwd: ROOT, stdio: "inherit" });
    assert.equal(build.status, 0, "cargo build --release -p dlt-cli failed");
  }
  assert.ok(existsSync(DLT), `no dlt binary at ${DLT}`);
});

before(async () => {
  highs = await loadHighs();
});

const perVariant = Math.ceil(COUNT / VARIANTS.length);

// CROSSCHECK_REQUEST=FILE: cross-check one request of one's own (raw and
// pruned), e.g. to reproduce a disagreement.
if (process.env.CROSSCHECK_REQUEST) {
  test(`the request in ${process.env.CROSSCHECK_REQUEST}`, async () => {
    const { readFileSync } = await import("node:fs");
    const { prune, ...request } = JSON.parse(readFileSync(process.env.CROSSCHECK_REQUEST, "utf8"));
    const before = disagreements.length;
    const raw = crossCheckRaw({ ...request, prune: false }, { mps: true });
    if (raw !== null) crossCheckPruned(request, raw);
    const mine = disagreements.slice(before);
    assert.equal(mine.length, 0, JSON.stringify(mine, null, 1));
  });
}

VARIANTS.forEach(([name, generate], v) => {
  test(`${name}: ${perVariant} seeded instances agree with HiGHS`, () => {
    const before = disagreements.length;
    for (let i = 0; i < perVariant; i++) {
      const request = { ...generate(rng(instanceSeed(v, i))), prune: false };
      stats.raw++;
      const raw = crossCheckRaw(request, { mps: i % RAW_MPS_EVERY === 0 });
      if (raw !== null) {
        const { prune, ...pruned } = request;
        crossCheckPruned(pruned, raw);
      }
    }
    const mine = disagreements.slice(before);
    const report = mine.map((d) => `${d.what}\n  request: ${JSON.stringify(d.request)}\n  ${JSON.stringify(d.detail)}`).join("\n");
    assert.equal(mine.length, 0, `${mine.length} disagreement(s) (seed ${SEED}):\n${report}`);
  });
});

// ---- the stars' and binomial trees' method for large n -------------------
//
// At n = n_min with more than FULL_LP_MESSAGES = 1000 messages, the core does
// not solve LoadDirect or BinomialTreeNLF/LLF itself but a small LP with the
// middle stages full to the buffers, and reports its `gap` to a lower bound.
// HiGHS solves the full exported LP: the calculator's makespan must be at
// least its optimum (less would be infeasible), equal to it when the gap is
// 0, and within the gap otherwise.

const LARGE = COUNT > 0 ? Math.max(2, Math.round(COUNT / 80)) : 0;

/**
 * `request` solved by the calculator and, as the full LP it exports, by
 * HiGHS: `detail` says what is wrong (null: the makespan is HiGHS's optimum
 * `opt`, or above it within the answer's `gap`, never below).
 */
function againstFullLp(request) {
  const solved = solveRequest(request);
  const exported = dlt(["export"], request);
  if (!solved.ok || !exported.ok) {
    return { solved, detail: { solve: solved.ok ? "ok" : solved.error, export: exported.ok ? "ok" : exported.error } };
  }
  const h = highsLp(exported.out);
  const opt = h.objective * timeUnit(exported.out);
  const { makespan, gap } = solved.answer;
  if (h.status !== "Optimal") return { solved, detail: { highs: h.status } };
  if (makespan < opt * (1 - REL) || makespan > opt * (1 + (gap ?? 0) + REL)) return { solved, detail: { makespan, gap, highs: opt } };
  return { solved, opt, detail: null };
}

test(`stars and binomial trees at n = n_min beyond 1000 messages: ${LARGE} seeded instances against HiGHS's full LP`, () => {
  const found = [];
  let exact = 0;
  for (let i = 0; i < LARGE; i++) {
    const r = rng(instanceSeed(100, i));
    const V = r.logu(1e3, 1e7);
    const costs = { S: r.chance(0.1) ? 0 : r.logu(1e-5, 1e-1), C: r.logu(1e-8, 1e-3), A: r.logu(1e-6, 1e-1), V };
    let request;
    if (i % 2 === 0) {
      const m = r.int(1, 10);
      const k = Math.ceil(1001 / m) + r.int(0, 300);
      request = { model: "star", m, ...costs, D: V / (m * (k - r.uniform(0.05, 0.95))), prune: false };
    } else {
      // A stage of a binomial tree carries D (h(p + 1) - 1).
      const [p, h] = [r.int(1, 3), r.int(2, 6)];
      const k = Math.ceil(1001 / h) + r.int(0, 100);
      request = { model: "binomial", p, h, ...costs, D: V / ((h * (p + 1) - 1) * (k - r.uniform(0.05, 0.95))), order: r.chance(0.5) ? "NLF" : "LLF", prune: false };
    }
    const { solved, opt, detail } = againstFullLp(request);
    if (detail) found.push({ request, detail });
    else if (close(solved.answer.makespan, opt)) exact++;
  }
  console.log(`large stars and binomial trees: ${LARGE} instances, ${exact} at HiGHS's optimum within ${REL}`);
  assert.equal(found.length, 0, JSON.stringify(found, null, 1));
});

// ---- trees above n_min ------------------------------------------------------
//
// With n given above n_min the core tries periodic middle stages whose chunks
// its LP chooses, and keeps them only where a dual bound of the full LP
// proves them (else it solves the full LP): either way HiGHS's optimum of the
// full exported LP.

const ABOVE = COUNT > 0 ? Math.max(2, Math.round(COUNT / 40)) : 0;

test(`trees with n above n_min (5-30 stages): ${ABOVE} seeded instances against HiGHS's full LP`, () => {
  const found = [];
  let windowed = 0;
  for (let i = 0; i < ABOVE; i++) {
    const r = rng(instanceSeed(200, i));
    const [p, h] = [r.int(1, 2), r.int(2, 5)];
    const costs = { S: r.logu(1e-5, 1e-2), C: r.logu(1e-8, 1e-4), A: r.logu(1e-5, 1e-2), V: r.logu(1e2, 1e6) };
    const request = { model: "tree", p, h, ...costs, n: r.int(5, 30), order: r.chance(0.5) ? "NLF" : "LLF", buffers: r.int(1, 2), prune: false };
    if (r.chance(0.5)) request.D = costs.V / (p * h * r.uniform(0.3, 1));
    // Above n_min an answer is exact: no gap allowed.
    const { solved, detail } = againstFullLp(request);
    if (detail) found.push({ request, detail });
    else if (solved.answer.gap != null) found.push({ request, detail: { gap: solved.answer.gap } });
    else if (solved.answer.warnings.some((w) => w.includes("periodic"))) windowed++;
  }
  console.log(`trees above n_min: ${ABOVE} instances, ${windowed} proven with periodic middle stages`);
  assert.equal(found.length, 0, JSON.stringify(found, null, 1));
});

// ---- the MIP of 003 -----------------------------------------------------------
//
// `dlt export` writes MIP (2)-(11) as printed, big-M rows and all; HiGHS runs
// branch and bound on it, the calculator searches send sequences. Small
// instances: both prove optimality and must agree within 1e-7. Larger
// instances at equal time (the calculator spends its default LP budget, and
// HiGHS gets as long as that took, at least MIP_SECONDS): the calculator's
// makespan must never be worse than HiGHS's incumbent, and never below
// HiGHS's proven bound.

const MIP_OPTIONS = { ...HIGHS_OPTIONS, mip_rel_gap: 1e-9, mip_abs_gap: 0, mip_feasibility_tolerance: 1e-10 };
const MIP_SMALL = COUNT > 0 ? Math.max(1, Math.round(COUNT / 32)) : 0;
const MIP_LARGE = COUNT > 0 ? Math.max(1, Math.round(COUNT / 160)) : 0;
const MIP_SECONDS = 2;

/** An 003 instance around the paper's reference machine, V from 0.2 to 8 core memories. */
function isoefficiency(r, m, n) {
  const a1 = r.logu(0.02, 0.5), a2 = a1 * r.logu(5, 100), b2 = -r.logu(1e3, 1e5);
  const rho = b2 / (a1 - a2);
  return {
    model: "isoefficiency", m, n, V: rho * r.logu(0.2, 8),
    S: r.chance(0.2) ? 0 : r.logu(1, 100), O: r.chance(0.2) ? 0 : r.logu(0.01, 1), C: r.logu(1e-3, 2e-2),
    a1, a2, b2,
  };
}

/** HiGHS's MIP answer, in the calculator's time unit: {status, objective, bound, seconds}. */
function highsMip(lp, seconds) {
  const started = performance.now();
  const r = highs.solve(lp, { ...MIP_OPTIONS, time_limit: seconds });
  const tau = timeUnit(lp);
  return { status: r.Status, objective: r.ObjectiveValue * tau, bound: (r.Info?.mip_dual_bound ?? -Infinity) * tau, seconds: (performance.now() - started) / 1000 };
}

test(`isoefficiency MIP: ${MIP_SMALL} small instances proven optimal by both, ${MIP_LARGE} larger ones at equal time`, () => {
  const found = [];
  const seen = { proven: 0, equalTime: 0, better: 0 };
  for (let i = 0; i < MIP_SMALL + MIP_LARGE; i++) {
    const r = rng(instanceSeed(200, i));
    const small = i < MIP_SMALL;
    const request = small ? isoefficiency(r, r.int(1, 4), r.int(1, 6)) : isoefficiency(r, r.int(3, 6), r.int(9, 14));
    const exported = dlt(["export"], request);
    const started = performance.now();
    const solved = solveRequest(request);
    const spent = (performance.now() - started) / 1000;
    if (!exported.ok || !solved.ok) {
      found.push({ request, detail: { export: exported.ok || exported.error, solve: solved.ok || solved.error } });
      continue;
    }
    const h = highsMip(exported.out, small ? 60 : Math.max(MIP_SECONDS, spent));
    const { makespan, proven } = solved.answer;
    const detail = { calculator: makespan, proven, highs: h };
    if (makespan < h.bound * (1 - REL)) found.push({ request, what: "below HiGHS's proven bound", detail });
    if (small) {
      if (h.status !== "Optimal" || !proven) found.push({ request, what: "not proven optimal by both", detail });
      else if (!close(makespan, h.objective)) found.push({ request, what: "optima differ", detail });
      else seen.proven++;
    } else {
      seen.equalTime++;
      if (Number.isFinite(h.objective) && makespan > h.objective * (1 + REL)) found.push({ request, what: "worse than HiGHS's incumbent at equal time", detail });
      else if (!(makespan >= h.objective * (1 - REL))) seen.better++;
    }
  }
  console.log(`isoefficiency MIP: ${seen.proven} proven optima equal to HiGHS's; ${seen.equalTime} at equal time (at least ${MIP_SECONDS} s) each, ` +
    `calculator strictly better than HiGHS's incumbent in ${seen.better}`);
  assert.equal(found.length, 0, JSON.stringify(found, null, 1));
});

// ---- 003's MIP proven by branch and bound, with a certificate --------------
//
// Instances too many sequences to enumerate within their lp_budget (m 2-4,
// n 7-10): `dlt prove` closes the branch and bound, `dlt verify-proof`
// re-solves its frontier, and the optimum equals HiGHS's where HiGHS proves
// its own within 60 s (instances it does not prove are counted, not judged).
const PROOFS = COUNT > 0 ? Math.max(1, Math.round(COUNT / 64)) : 0;

test(`isoefficiency MIP: ${PROOFS} instances proven by branch and bound, certified, equal to HiGHS's optima`, () => {
  const found = [];
  const seen = { proven: 0, highsUnproven: 0 };
  for (let i = 0; i < PROOFS; i++) {
    const r = rng(instanceSeed(300, i));
    const request = { ...isoefficiency(r, r.int(2, 4), r.int(7, 10)), lp_budget: 20, proof_budget: 200000 };
    const proved = dlt(["prove"], request);
    if (!proved.ok) {
      found.push({ request, what: "not proven", detail: proved.error });
      continue;
    }
    const certificate = JSON.parse(proved.out);
    const checked = dlt(["verify-proof"], certificate);
    if (!checked.ok) found.push({ request, what: "certificate refused", detail: checked.error });
    const exported = dlt(["export"], request);
    const h = highsMip(exported.out, 60);
    if (certificate.makespan < h.bound * (1 - REL)) found.push({ request, what: "below HiGHS's proven bound", detail: { calculator: certificate.makespan, highs: h } });
    if (h.status !== "Optimal") seen.highsUnproven++;
    else if (!close(certificate.makespan, h.objective)) found.push({ request, what: "optima differ", detail: { calculator: certificate.makespan, highs: h } });
    else seen.proven++;
  }
  console.log(`isoefficiency proofs: ${seen.proven} certified optima equal to HiGHS's; ${seen.highsUnproven} HiGHS did not prove within 60 s`);
  assert.equal(found.length, 0, JSON.stringify(found, null, 1));
});

// ---- hetero_star: the fixed-order MIP, and the best order by every order --
//
// Random heterogeneous stars (m <= 6, start-ups sometimes 0, result return
// FIFO/LIFO in 40%): the calculator's answer for the given order (proven
// at these sizes: the branch and bound, or with return every sequence's
// LP) against HiGHS on the exported MIP (each worker's 0-1 use variable);
// for m <= 4, the answer for the best order against the least of HiGHS's
// optima over the MIPs of every permutation of the workers.

const HETERO = COUNT > 0 ? Math.max(4, Math.round(COUNT / 4)) : 0;

function heteroStar(r) {
  const m = r.int(1, 6);
  const processors = [];
  for (let i = 0; i < m; i++) {
    processors.push({ S: r.chance(0.2) ? 0 : r.logu(1e-3, 10), C: r.chance(0.1) ? 0 : r.logu(1e-3, 1), A: r.logu(1e-2, 10) });
  }
  const q = { model: "hetero_star", V: r.logu(1, 1e3), processors, order: "given" };
  if (r.chance(0.4)) q.return = { ratio: r.chance(0.1) ? 0 : r.logu(0.01, 2), policy: r.pick(["FIFO", "LIFO"]) };
  return q;
}

function permutations(xs) {
  if (xs.length <= 1) return [xs];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

/** HiGHS's optimum of the exported MIP of a request, in time units. */
function heteroMip(request) {
  const exported = dlt(["export"], request);
  if (!exported.ok) throw new Error(`export refused ${JSON.stringify(request)}: ${JSON.stringify(exported.error)}`);
  const h = highs.solve(exported.out, MIP_OPTIONS);
  return { status: h.Status, makespan: h.ObjectiveValue * timeUnit(exported.out) };
}

test(`hetero_star: ${HETERO} fixed-order MIPs and the best order of the small ones against HiGHS`, () => {
  const found = [];
  const seen = { given: 0, best: 0, worst: 0 };
  for (let i = 0; i < HETERO; i++) {
    const request = heteroStar(rng(instanceSeed(300, i)));
    const solved = solveRequest(request);
    const h = heteroMip(request);
    if (!solved.ok || h.status !== "Optimal") {
      found.push({ request, what: "not solved by both", detail: { solve: solved.ok || solved.error, highs: h.status } });
      continue;
    }
    const { makespan, proven } = solved.answer;
    seen.worst = Math.max(seen.worst, rel(makespan, h.makespan));
    if (!proven || !close(makespan, h.makespan)) found.push({ request, what: "given order", detail: { calculator: makespan, proven, highs: h.makespan } });
    else seen.given++;
    if (request.processors.length > 4) continue;
    const best = solveRequest({ ...request, order: "best" });
    const least = Math.min(...permutations(request.processors).map((processors) => heteroMip({ ...request, processors }).makespan));
    seen.worst = Math.max(seen.worst, rel(best.answer.makespan, least));
    if (!best.answer.proven || !close(best.answer.makespan, least)) found.push({ request, what: "best order", detail: { calculator: best.answer.makespan, highs: least } });
    else seen.best++;
  }
  console.log(`hetero_star: ${seen.given} given orders and ${seen.best} best orders equal to HiGHS's optima (worst relative difference ${seen.worst.toExponential(2)})`);
  assert.equal(found.length, 0, JSON.stringify(found, null, 1));
});

// ---- disagreements found and fixed ------------------------------------------
//
// Instances where the calculator and HiGHS once disagreed because of a bug of
// the core, each fixed; they run every time so that none comes back.

const FIXED_BUGS = [
  {
    note: "tree LLF-1 with S = 0: an empty message of the raw LP's solution starts at -1e-36 (LP round-off below the " +
      "bound t >= 0, not clamped), the checker rejected the schedule: code internal; HiGHS's optimum is 3.9111e-4 " +
      "(found by seed 2 as p 3, h 2, S 0, C 5.757e-5, A 2.368e-6, V 103.405, D 16.907); fixed: start times clamped at 0",
    request: { model: "tree", p: 3, h: 2, S: 0, C: 1e-5, A: 2.5e-6, V: 103, order: "LLF", buffers: 1, D: 16, prune: false },
  },
  {
    note: "tree example with A = 1e7: the first message starts at -3.3 (LP round-off of 1e-10 in units of " +
      "tau = 3.3e10, below the bound t >= 0, not clamped); the checker rejected the schedule: code internal; fixed: start times clamped at 0",
    request: { model: "tree", p: 2, h: 4, S: 1e-3, C: 1e-6, A: 1e7, V: 1e5, D: 1e4, order: "NLF", buffers: 1, prune: false },
  },
  {
    note: "memory with one processor 1e11 times slower: the LP's time unit is was the mean time of all processors, " +
      "dominated by the slow one, so the optimum (2, all load on P1) was below microlp's absolute tolerance in " +
      "those units; it answered Cmax = 0 and the checker rejected the schedule: code internal; fixed: the time unit " +
      "is now the best single processor's makespan",
    request: { model: "memory", V: 1, processors: [{ S: 0, C: 1, pieces: [[0, 1]] }, { S: 0, C: 1e11, pieces: [[0, 1]] }], prune: false },
  },
  {
    note: "memory, pruned: once the slow processor (S = 4.2e6) was dropped, the re-solved LP kept the time unit of " +
      "both processors, so its optimum (0.05) was 1e-8 units and the schedule missed the claimed makespan by 2e-4: code " +
      "internal (found by seed 1 at 1600 instances); fixed: the unit is recomputed for the processors kept",
    request: { model: "memory", V: 12.600792085889827, processors: [
      { S: 0.023169632262922176, C: 0.001953517000746947, pieces: [[0.0026522668132486016, 0.000001005616929701773], [0.0026300213424625086, 0.000012211091507101527]] },
      { S: 4197048.916291589, C: 5340.320907019941, pieces: [[0, 10.319646332363726]] }] },
  },
];

FIXED_BUGS.forEach(({ note, request }, i) => {
  test(`fixed disagreement ${i + 1}: ${request.model}`, () => {
    const before = disagreements.length;
    if (request.prune === false) crossCheckRaw(request);
    else {
      const raw = crossCheckRaw({ ...request, prune: false });
      if (raw !== null) crossCheckPruned(request, raw);
    }
    const mine = disagreements.slice(before);
    disagreements.length = before;
    assert.equal(mine.length, 0, `${note}\n${JSON.stringify(mine, null, 1)}`);
  });
});

after(() => {
  console.log(
    `HiGHS cross-check (seed ${SEED}): ${stats.raw} raw instances (${stats.optimal} optimal, ${stats.infeasible} infeasible, ` +
      `${stats.rejected} rejected by validation), ${stats.mps} also as MPS, ${stats.pruned} pruned solves ` +
      `(${stats.prunedReproduced} reproduced as a raw LP); worst relative difference ${stats.worstRel.toExponential(2)}; ` +
      `${stats.highsRetries} HiGHS solve(s) retried at its default tolerances; ` +
      `${disagreements.length} disagreement(s)`,
  );
});
