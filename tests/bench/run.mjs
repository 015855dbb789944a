// The side-by-side benchmark's driver (issue 6, part 3): in one headless
// Chromium run, the same models solved by the calculator's wasm and by HiGHS's
// wasm (the LP text the calculator exports), one fresh page per case, plus
// the native times of `dlt-bench --requests` (run first, alone, so that the
// two never share the machine's cores). Prints a row as each case finishes
// and the table at the end; `--write FILE` writes the table as markdown.
//
//   node tests/bench/run.mjs [--quick] [--write docs/benchmarks-browser.md]
//   (bash scripts/bench.sh installs and builds what it needs, then runs this)
//
// Exits non-zero if the page errs, or if the two makespans disagree where
// the claims allow no difference:
//   LP: HiGHS optimal and the calculator's LP solved whole (no gap, one
//       solve): |relative difference| <= 1e-6; with a reported gap g (the
//       large-n methods): HiGHS's optimum <= calculator <= (1 + g) HiGHS's,
//       within 1e-6; pruned (solves > 1, the request not raw): calculator
//       <= HiGHS's raw optimum; a raw request answered through several LPs
//       (cuts, windows, the interior point method) as one solve;
//   MIP: no HiGHS incumbent better than a makespan the calculator proved
//       optimal, no calculator makespan below a HiGHS proven optimum or
//       HiGHS's proven lower bound (all within 1e-6).
// Environment: BENCH_ONLY=REGEX (only the cases whose "model variant size"
// matches), BENCH_TOL (the checks' 1e-6), DLT_BENCH (the dlt-bench binary; default
// target/release/dlt-bench), CHROMIUM (default /usr/bin/chromium).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, launch, ROOT } from '../browser/harness.mjs';
import { cases, LIMITS, MIP_LP_BUDGET } from './cases.mjs';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const writeTo = args.includes('--write') ? args[args.indexOf('--write') + 1] : null;
const limits = quick ? LIMITS.quick : LIMITS.full;
// BENCH_TOL: another tolerance of the agreement checks (0 shows them failing).
const TOL = process.env.BENCH_TOL ? Number(process.env.BENCH_TOL) : 1e-6;
const started = performance.now();
// BENCH_ONLY=REGEX: only the cases whose label matches (for a look at one).
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
const list = cases(quick).filter((c) => !only || only.test(label(c))).map((c, i) => ({ ...c, id: i }));
if (only && writeTo) throw new Error('BENCH_ONLY runs a part of the cases: no --write');
const loadBefore = os.loadavg();

// ---- native: dlt-bench --requests ------------------------------------------

const BENCH = process.env.DLT_BENCH || path.join(ROOT, 'target/release/dlt-bench');
const requestsFile = path.join(os.tmpdir(), `dlt-bench-requests-${process.pid}.json`);
fs.writeFileSync(requestsFile, JSON.stringify(list.map((c) => c.request)));
console.log(`native: ${list.length} requests through ${path.relative(ROOT, BENCH)} --requests ...`);
const nativeRun = spawnSync(BENCH, ['--requests', requestsFile], { encoding: 'utf8', maxBuffer: 64 << 20 });
fs.rmSync(requestsFile, { force: true });
if (nativeRun.status !== 0) {
  console.error(nativeRun.stderr);
  throw new Error(`dlt-bench --requests failed with status ${nativeRun.status}`);
}
const native = JSON.parse(nativeRun.stdout);
console.log(`native: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);

// ---- the browser ---------------------------------------------------------------

const failures = [];
const pageErrors = [];
const rows = [];
const server = await serve(ROOT, { isolated: true });
// gc(): the turns of two solvers each start on a collected heap (bench.mjs's `inTurns`).
const browser = await launch({ args: ['--js-flags=--expose-gc'] });
let versions;
let chromiumVersion;
// Nothing may come from the network: every request stays on our server.
browser.context.on('request', (r) => {
  if (!r.url().startsWith(server.url) && !/^(data|blob):/.test(r.url())) pageErrors.push(`fetched from elsewhere: ${r.url()}`);
});
try {
  {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}tests/bench/bench.html`);
    await page.waitForFunction(() => window.benchReady === true, null, { timeout: 60_000 });
    versions = await page.evaluate(() => window.bench.versions());
    // The times are only as fine as the clock: 5 µs where the page is cross-origin isolated.
    if (!versions.isolated) throw new Error('the benchmark page is not cross-origin isolated: its clock would tick every 100 µs');
    const cdp = await browser.context.newCDPSession(page);
    chromiumVersion = (await cdp.send('Browser.getVersion')).product;
    await page.close();
  }
  console.log(`Chromium ${chromiumVersion}, HiGHS ${versions.highs} (npm highs ${highsPackageVersion()}), calculator ${versions.calculator}`);
  console.log(`HiGHS limits: LP ${limits.lp} s, MIP ${limits.mip} s; calculator MIP lp_budget ${MIP_LP_BUDGET}\n`);
  for (const c of list) {
    const row = await runCase(c, native[c.id]);
    rows.push(row);
    console.log(`[${String(c.id + 1).padStart(2)}/${list.length}] ${progressLine(row)}`);
  }
} finally {
  await browser.close();
  await server.close();
}

const seconds = (performance.now() - started) / 1000;
const table = markdownTable(rows);
console.log(`\n${table}\n\n${summary().replace('**This run.** ', '')}\n`);
const loadAfter = os.loadavg();
const load = `load average (1 min) ${loadBefore[0].toFixed(2)} before, ${loadAfter[0].toFixed(2)} after`;
console.log(`${rows.length} case(s) in ${seconds.toFixed(0)} s (${quick ? 'quick' : 'full'} run); ${load}`);
if (writeTo) {
  fs.writeFileSync(path.resolve(ROOT, writeTo), documentText(table, seconds));
  console.log(`wrote ${writeTo}`);
}
for (const e of pageErrors) console.error(`page error: ${e}`);
for (const f of failures) console.error(`DISAGREEMENT: ${f}`);
if (pageErrors.length || failures.length) {
  console.error(`${failures.length} disagreement(s), ${pageErrors.length} page error(s)`);
  process.exit(1);
}

// ---- one case ------------------------------------------------------------------

async function runCase(c, nat) {
  const page = await browser.context.newPage();
  const errors = [];
  let crashed = false;
  page.on('crash', () => { crashed = true; });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  const row = { c, native: nat };
  try {
    await page.goto(`${server.url}tests/bench/bench.html`);
    await page.waitForFunction(() => window.benchReady === true, null, { timeout: 60_000 });
    row.calc = await page.evaluate((c) => window.bench.calculator(c), c);
    const limit = c.kind === 'mip' ? limits.mip : limits.lp;
    try {
      row.highs = await page.evaluate(([c, o]) => window.bench.highs(c, o), [c, { timeLimit: limit, target: row.calc.makespan * (1 + 1e-7), calcFirstMs: row.calc.firstMs }]);
      // Timed in turns with HiGHS: the calculator's median of those runs.
      if (row.highs.calculator) row.calc = { ...row.calc, ms: row.highs.calculator.ms, runs: row.highs.calculator.runs, inTurns: true };
    } catch (e) {
      // A tab killed for its memory: the case's result (the 'crash' event may come after the rejection).
      const lost = crashed || /crash|Target closed|has been closed/i.test(e.message);
      row.highs = { error: lost ? 'the tab crashed' : String(e.message), outOfMemory: lost };
    }
  } catch (e) {
    errors.push(`${crashed ? 'the tab crashed: ' : ''}${e.message}`);
  } finally {
    await page.close().catch(() => {});
  }
  // Console errors of an abort for lack of memory are the case's result, not a failure.
  if (!row.highs?.outOfMemory) pageErrors.push(...errors.map((e) => `${label(c)}: ${e}`));
  if (row.highs?.error && !row.highs.outOfMemory) pageErrors.push(`${label(c)}: HiGHS: ${row.highs.error}`);
  if (nat?.error) pageErrors.push(`${label(c)}: native: ${nat.error}`);
  check(row);
  return row;
}

function label(c) {
  return `${c.model} ${c.variant} ${c.size}`;
}

/** Whether the calculator's answer may be a pruned system's: several LPs, the request not raw. */
function pruning(c, calc) {
  return (calc.lp?.solves ?? 1) > 1 && c.request.prune !== false;
}

function rel(a, b) {
  return (a - b) / Math.abs(b);
}

/** The failures of one row (see the top of the file). */
function check(row) {
  const { c, calc, highs: h, native: nat } = row;
  if (!calc || !h || h.error) return;
  const fail = (what) => failures.push(`${label(c)}: ${what} (calculator ${calc.makespan}, HiGHS ${h.objective}, status ${h.status})`);
  if (c.kind === 'lp') {
    if (h.status !== 'optimal') return;
    const d = rel(calc.makespan, h.objective);
    const pruned = pruning(c, calc);
    if (calc.gap > 0) {
      if (d < -TOL || d > calc.gap + TOL) fail(`calculator ${d.toExponential(2)} from HiGHS's optimum, outside its gap ${calc.gap.toExponential(2)}`);
    } else if (pruned) {
      if (d > TOL) fail(`pruned makespan ${d.toExponential(2)} above HiGHS's optimum of the raw LP`);
    } else if (Math.abs(d) > TOL) fail(`both optimal, relative difference ${d.toExponential(2)}`);
    if (nat?.makespan != null && Math.abs(rel(nat.makespan, calc.makespan)) > 1e-9) {
      console.warn(`note: ${label(c)}: native makespan ${nat.makespan} differs from wasm's ${calc.makespan}`);
    }
  } else {
    if (calc.proven && h.objective != null && h.objective < calc.makespan * (1 - TOL)) fail('HiGHS found a better incumbent than the calculator\'s proven optimum');
    if (h.status === 'optimal' && calc.makespan < h.objective * (1 - TOL)) fail('calculator below HiGHS\'s proven optimum');
    if (Number.isFinite(h.bound) && calc.makespan < h.bound * (1 - TOL)) fail(`calculator below HiGHS's proven lower bound ${h.bound}`);
    if (calc.proven && h.status === 'optimal' && Math.abs(rel(calc.makespan, h.objective)) > TOL) fail('both optimal, optima differ');
  }
}

// ---- formatting ----------------------------------------------------------------

function ms(x) {
  if (x == null || !Number.isFinite(x)) return '—';
  if (x < 10) return x.toFixed(2);
  if (x < 100) return x.toFixed(1);
  return x.toFixed(0);
}

function ratioText(x) {
  if (x >= 100) return x.toFixed(0);
  if (x >= 10) return x.toFixed(1);
  return x.toFixed(2);
}

/** The cells of a row: HiGHS's time and the ratio as text, and notes. */
function cells(row) {
  const { c, calc, highs: h, native: nat } = row;
  const out = {
    model: c.model, variant: c.variant, size: c.size,
    full: h?.vars ? `${h.vars} × ${h.rows}` : '—',
    calcLp: calc?.lp ? `${calc.lp.variables} × ${calc.lp.rows}` : calc?.sequences != null ? `${calc.sequences} sequences` : '—',
    calcMs: ms(calc?.ms), highsMs: '—', parseMs: ms(h?.parseMs), ratio: '—', nativeMs: ms(nat?.ms), diff: '—', note: [],
    first: '—', firstRatio: '—',
  };
  if (!calc) {
    out.note.push('page error');
    return out;
  }
  if (c.kind === 'mip') out.note.push(calc.proven ? 'calculator: proven' : `calculator: gap ${calc.gap?.toExponential(1)}`);
  else if (calc.gap != null) out.note.push(`calculator: reduced LP, gap ${calc.gap.toExponential(1)}`);
  if (calc.lp?.solves > 1) out.note.push(`calculator: ${pruning(c, calc) ? 'pruned, ' : ''}${calc.lp.solves} LPs`);
  if (!h || h.error) {
    out.highsMs = h?.outOfMemory ? 'out of memory' : 'error';
    out.note.push(`HiGHS: ${h?.outOfMemory ? 'out of memory' : h?.error}`);
    return out;
  }
  const limit = c.kind === 'mip' ? limits.mip : limits.lp;
  const diff = h.objective == null ? null : rel(h.objective, calc.makespan);
  out.diff = diff == null ? (c.kind === 'mip' ? 'no incumbent' : '—') : `${diff >= 0 ? '+' : ''}${diff.toExponential(1)}`;
  if (c.kind === 'mip') {
    if (h.reachedMs != null) {
      out.highsMs = ms(h.reachedMs);
      out.ratio = ratioText(h.reachedMs / calc.ms);
    } else {
      out.highsMs = `> ${limit} s`;
      out.ratio = `> ${ratioText((limit * 1000) / calc.ms)}`;
      out.note.push(h.objective == null ? 'HiGHS: no incumbent' : `HiGHS: incumbent ${diff >= 0 ? '+' : ''}${(100 * diff).toFixed(1)} % at ${h.status === 'timeLimit' ? 'the limit' : h.status}`);
    }
  } else if (h.status === 'optimal') {
    out.highsMs = ms(h.ms);
    out.ratio = ratioText(h.ms / calc.ms);
    out.first = `${ms(calc.firstMs)} / ${ms(h.firstMs)}`;
    out.firstRatio = ratioText(h.firstMs / calc.firstMs);
  } else if (h.status === 'timeLimit') {
    out.highsMs = `> ${limit} s`;
    out.ratio = `> ${ratioText((limit * 1000) / calc.ms)}`;
    out.note.push('HiGHS: time limit');
  } else {
    out.highsMs = ms(h.ms);
    out.note.push(`HiGHS: ${h.status}`);
  }
  if (calc.runs > 1 || h.runs > 1) out.note.push(`median of ${calc.runs}/${h.runs ?? 1} runs${calc.inTurns ? ' in turns' : ''}`);
  return out;
}

function progressLine(row) {
  const x = cells(row);
  return `${label(row.c)}: calculator ${x.calcMs} ms, HiGHS ${x.highsMs}${/^[\d.]+$/.test(x.highsMs) ? ' ms' : ''}, ratio ${x.ratio}, native ${x.nativeMs} ms, diff ${x.diff}${x.note.length ? `  (${x.note.join('; ')})` : ''}`;
}

function markdownTable(rows) {
  const head = ['model', 'variant', 'size', 'HiGHS\'s LP (vars × rows)', 'calculator\'s LP', 'calculator wasm ms', 'HiGHS wasm ms', 'of which parse', 'HiGHS / calculator', 'first run ms (calc / HiGHS)', 'first-run ratio', 'native dlt ms', 'HiGHS − calc (rel.)', 'notes'];
  const body = rows.map((r) => {
    const x = cells(r);
    return [x.model, x.variant, x.size, x.full, x.calcLp, x.calcMs, x.highsMs, x.parseMs, x.ratio, x.first, x.firstRatio, x.nativeMs, x.diff, x.note.join('; ')];
  });
  const right = new Set([5, 6, 7, 8, 9, 10, 11, 12]);
  const width = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cols) => `| ${cols.map((s, i) => (right.has(i) ? s.padStart(width[i]) : s.padEnd(width[i]))).join(' | ')} |`;
  const rule = `|${width.map((w, i) => (right.has(i) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(head), rule, ...body.map(line)].join('\n');
}

function highsPackageVersion() {
  try {
    return JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/highs/node_modules/highs/package.json'), 'utf8')).version;
  } catch {
    return '?';
  }
}

function cpuModel() {
  try {
    const m = /model name\s*:\s*(.*)/.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'));
    return m ? m[1].trim() : os.cpus()[0]?.model ?? '?';
  } catch {
    return os.cpus()[0]?.model ?? '?';
  }
}

/** A few sentences on this run's table, computed from it. */
function summary() {
  const done = rows.filter((r) => r.calc && r.highs && !r.highs.error);
  const lps = done.filter((r) => r.c.kind === 'lp');
  const optimal = lps.filter((r) => r.highs.status === 'optimal');
  const faster = optimal.filter((r) => r.highs.ms < r.calc.ms);
  const limited = lps.filter((r) => r.highs.status !== 'optimal');
  const mips = done.filter((r) => r.c.kind === 'mip');
  const reached = mips.filter((r) => r.highs.reachedMs != null);
  const worst = Math.max(0, ...optimal.map((r) => Math.abs(rel(r.highs.objective, r.calc.makespan))));
  const lost = rows.filter((r) => r.highs?.outOfMemory).map((r) => label(r.c));
  const list = (rs) => rs.map((r) => `${r.c.model} ${r.c.variant} ${r.c.size}`).join(', ');
  const out = [`**This run.** HiGHS solved ${optimal.length} of the ${lps.length} LPs to optimality within ${limits.lp} s; the largest relative difference of the two makespans there was ${worst.toExponential(1)}.`];
  out.push(faster.length
    ? `HiGHS was the faster of the two on ${faster.length} of them (ratio below 1): ${list(faster)}; the calculator, on the other ${optimal.length - faster.length}.`
    : 'The calculator was faster on every LP HiGHS solved.');
  if (limited.length) out.push(`HiGHS stopped without an optimum on ${list(limited)}.`);
  if (lost.length) out.push(`HiGHS ran out of memory on ${lost.join(', ')}.`);
  if (mips.length) {
    const excess = mips.filter((r) => r.highs.reachedMs == null && r.highs.objective != null).map((r) => 100 * rel(r.highs.objective, r.calc.makespan));
    let text = `On the MIP HiGHS reached the calculator's makespan (found within ${MIP_LP_BUDGET} LPs) within ${limits.mip} s on ${reached.length} of the ${mips.length} Table 1 points`;
    if (excess.length) text += `; elsewhere its incumbent at the limit was ${Math.min(...excess).toFixed(1)} % to ${Math.max(...excess).toFixed(1)} % worse`;
    out.push(`${text}.`);
  }
  return out.join(' ');
}

function documentText(table, seconds) {
  const date = new Date().toISOString().slice(0, 10);
  return `# The calculator and HiGHS side by side, in the browser

Generated by \`bash scripts/bench.sh\` (tests/bench/run.mjs driving tests/bench/bench.html) on ${date}; do not edit by hand,
run it again. The full run took ${Math.round(seconds / 60)} min.

**What is measured.** In one headless Chromium, one fresh page per case, the same request is solved by the calculator's
WebAssembly (\`www/pkg\`, \`solve(request)\`, request object to response object) and by HiGHS's WebAssembly (the npm
package \`highs\`) on the CPLEX-LP text the calculator exports for that request (\`export_lp\`; the export is not timed,
HiGHS's parsing of the text is, and is shown apart). Both run on the page's main thread, single-threaded, after an
untimed warm-up solve of a small request of the same model that takes the same method (trees above n_min: two, one by
the interior point method, one by the simplex on the windowed schedule's tight rows). A time is the median of repeats until 1 s in all (at most
1000 runs; one run for slow cases), on a clock that ticks every 5 µs (the page is served cross-origin isolated;
otherwise Chromium's clock ticks every 100 µs, coarser than the smallest solves). V8 first runs a module's functions
as its baseline compilers made them and optimises each one once it has run a while, in the background (HiGHS's
solve of a 301-variable LP took 12.3 ms in its first second, 9.5 ms from the second on): where a solver's first run of
the case takes less than 100 ms, it runs the case 2 s more untimed before the timed runs, so that the median is
optimised code on both sides, as in a sweep or any solve after the first few (before session 59 it did not, and
HiGHS's medians of the small cases were partly its baseline code's). Where both first runs take less than 100 ms,
the two solvers are then timed in turns, ten turns of 100 ms each, each turn on a collected heap and its first run
untimed, and each median is of its solver's runs in all turns ("in turns" in the notes): this machine's speed drifts
by up to twice over seconds, and two medians taken one after the other measured the drift as much as the solvers (one
binomial case read 6.9 in one run of the table and 12.3 in the next; in turns, its ten stages 7.1-10.8 in ten, both
orders in five runs). "first run" is each solver's first run of the
case, after the warm-up on the small request only, as a single solve on a fresh page. "native dlt ms" is the same request solved by the native build
(\`dlt-bench --requests\`, release mode, the median of repeats until 0.3 s in all, at most 1000 runs, no process start-up), run before the browser so that nothing shares
the cores.

**Machine.** ${os.cpus().length} cores (${cpuModel()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()};
${chromiumVersion} (Debian's \`/usr/bin/chromium\` through playwright-core); HiGHS ${versions.highs} (npm \`highs\`
${highsPackageVersion()}); calculator ${versions.calculator}; Node ${process.version}. The machine's ${load}
(other work on it makes the times noisier).

**HiGHS's settings.** Its default tolerances and method choice (\`output_flag: false\`), a time limit of ${limits.lp} s on
an LP. On the MIP (2)-(11) of 003, branch and bound with \`mip_rel_gap: 1e-9\`, \`objective_target\` set to the
calculator's makespan (times 1 + 1e-7), so that it stops at its first incumbent at least as good, and a time limit of
${limits.mip} s. The calculator searches the MIP with \`lp_budget: ${MIP_LP_BUDGET}\` (it stops earlier when it
proves optimality).

**How to read it.** "HiGHS / calculator" is HiGHS's time over the calculator's, both in the browser: above 1 the calculator
is faster. "> x" means HiGHS hit its time limit, so the ratio is a lower bound. For the MIP the ratio compares equal
quality: HiGHS's time to an incumbent at least as good as the calculator's final makespan, over the calculator's time;
when HiGHS does not get there within its limit, the notes give how far its last incumbent is above the calculator's.
"HiGHS − calc (rel.)" is (HiGHS's makespan − the calculator's) / the calculator's: about 1e-9 or less where both solve
the same LP to optimality. For large n the calculator solves a reduced LP (the star beyond 3000 messages, trees beyond
their hop limit, with the middle stages full): "HiGHS's LP" is the paper's full LP, "calculator's LP" the one it solved,
and its makespan is within the reported gap of a lower bound, so the difference lies between −gap and 0. For the MIP,
"calculator's LP" is the number of send sequences its search evaluated, the calculator's gap is to its own lower bound,
and a positive difference is how much worse HiGHS's incumbent is. The run fails if the two disagree beyond what their
claims allow (see tests/bench/run.mjs).

${summary()}

${table}
`;
}
