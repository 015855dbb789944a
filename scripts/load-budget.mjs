// Load time of the page, measured for the benchmark (scripts/bench.sh), not
// asserted by a test: a shared CI machine's speed is no property of the
// page. Opens it in headless Chromium with a fresh profile (nothing cached,
// no service worker yet) RUNS times and reports the median time from
// navigation to the first displayed result (the torus view's default case,
// computed by the wasm module in the worker) against the goal below.
//
//   node scripts/load-budget.mjs        (www/pkg built by scripts/build.sh)
//
// Goal: 4000 ms median wall time from `goto` to the first result; about
// 1 s on the machine it was set on.

import { serve, launch, WWW } from '../tests/browser/harness.mjs';
import fs from 'node:fs';
import path from 'node:path';

const BUDGET_MS = 4000;
const RUNS = 3;

if (!fs.existsSync(path.join(WWW, 'pkg', 'dlt_wasm_bg.wasm'))) {
  console.error('load budget: www/pkg is missing; run bash scripts/build.sh first');
  process.exit(1);
}
const server = await serve();
const walls = [];
const apps = [];
try {
  for (let i = 0; i < RUNS; i++) {
    const browser = await launch();
    try {
      const page = await browser.context.newPage();
      const started = Date.now();
      await page.goto(`${server.url}#torus`);
      await page.waitForFunction(() => ['done', 'error'].includes(document.querySelector('#view-torus [data-testid="results"]')?.dataset.state), null, { timeout: 60000, polling: 'raf' });
      walls.push(Date.now() - started);
      apps.push(Number(await page.evaluate(() => document.documentElement.dataset.firstResultMs)));
      const final = await page.evaluate(() => document.querySelector('#view-torus [data-testid="results"]').dataset.state);
      if (final !== 'done') throw new Error('the first result is an error');
    } finally {
      await browser.close();
    }
  }
} finally {
  await server.close();
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const wall = median(walls);
console.log(`load budget: first result in ${walls.join(', ')} ms (median ${wall} ms; ${apps.join(', ')} ms after the app started); budget ${BUDGET_MS} ms`);
console.log(wall > BUDGET_MS ? `load budget: ${wall - BUDGET_MS} ms over the goal` : `load budget: ${BUDGET_MS - wall} ms under the goal`);
