// 003's Table 1 proofs in Chromium: each E_max point (the native map's V_max,
// docs/benchmarks.md) solved by the page's wasm with lp_budget 30 and
// `--proof-budget N` LPs of branch and bound (default 2000), on the main
// thread, one run each; prints proven/gap, LPs and milliseconds.
//   node tests/bench/proofs.mjs [--proof-budget N] [--m 2,10,18]
import { serve, launch } from '../browser/harness.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const budget = Number(arg('--proof-budget', 2000));
// V_max of the native map at n = 20 (dlt-bench --table1), m = 2..20.
const V_MAX = { 2: 134474, 10: 74903, 14: 93268, 17: 100438, 18: 100294, 19: 99630, 20: 102155 };
const ms = arg('--m', Object.keys(V_MAX).join(',')).split(',').map(Number);
const server = await serve();
const browser = await launch();
try {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}#gallery`);
  for (const m of ms) {
    const request = { model: 'isoefficiency', m, n: 20, V: V_MAX[m], S: 25.4, O: 0.075, C: 0.005, a1: 0.109, a2: 4.132, b2: -27109, lp_budget: 30, proof_budget: budget };
    const r = await page.evaluate(async (request) => {
      const { default: init, solve } = await import('./pkg/dlt_wasm.js');
      await init();
      const t0 = performance.now();
      const out = solve(request);
      return { ms: performance.now() - t0, proven: out.proven, gap: out.gap, lps: out.proof_lps };
    }, request);
    console.log(`m = ${String(m).padStart(2)}  ${r.proven ? 'proven' : 'gap   '} ${r.gap.toExponential(2)}  ${String(r.lps).padStart(5)} LPs  ${Math.round(r.ms)} ms`);
  }
} finally {
  await browser.close();
  await server.close();
}
