// Browser test of the "Buffers" view (paper 000, limited communication
// buffers) and the "Memory hierarchy" view (paper 002, out-of-core
// processing): computes through the UI and checks the numbers the page shows
// against what the papers print, the LP download, the sweeps (with their
// time in headless Chromium) and the core's errors beside their field.
//
//   node --test tests/browser/        (from the repository root; needs
//   `npm install` in tests/browser and www/pkg built by scripts/build.sh)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageSession } from './harness.mjs';

let page;
let server;
const session = pageSession({ timeout: 60000, waitFor: true, onOpen: (s) => ({ page, server } = s) });
const { view, valueOf, waitForRequest, computeThroughUi, download } = session;

function close(got, want, tol, what) {
  assert.ok(Math.abs(got - want) <= tol, `${what}: the page shows ${got}, the paper ${want} (tolerance ${tol})`);
}

/** Waits for the sweep in `panel` to finish; returns the time the page measured for it. */
async function sweepMs(id, panel) {
  const sel = `#view-${id} [data-panel="${panel}"] [data-testid="progress"]`;
  const handle = await page.waitForFunction((sel) => {
    const t = document.querySelector(sel)?.textContent ?? '';
    const m = /(\d+) points in (\d+) ms/.exec(t);
    return m ? [Number(m[1]), Number(m[2])] : false;
  }, sel, { timeout: 120000 });
  return handle.jsonValue();
}

// ---- Buffers (000) -----------------------------------------------------------

test('buffers: the default star (Fig. 6 parameters) and its D*', async () => {
  const started = Date.now();
  await page.goto(`${server.url}#buffers`);
  await waitForRequest('buffers', { model: 'star', m: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 5e3, D: 1e4, n: 3, prune: 'best' });
  // LB = S + VA/m (Sec. 4.1 of 000).
  close(await valueOf('buffers', 'lb'), 1e-3 + (5e3 * 1e-3) / 10, 1e-12, 'LB');
  const cmax = await valueOf('buffers', 'makespan');
  assert.ok(cmax >= 0.501 && cmax < 0.52, `Cmax ${cmax}`);
  assert.equal(await valueOf('buffers', 'n'), 3);
  assert.equal(await valueOf('buffers', 'n-min'), 1);
  const loads = [];
  for (let i = 0; i < 10; i++) loads.push(await valueOf('buffers', `load-${i}`));
  close(loads.reduce((s, x) => s + x, 0), 5e3, 1e-6, 'sum of loads');
  assert.match(await view('buffers').getByTestId('lp-size').textContent(), /\d+ variables, \d+ rows/);
  // Sec. 5: D* = mS/(A - mC) = 1e-2 / (1e-3 - 1e-5).
  close(await valueOf('buffers', 'dstar'), 1e-2 / (1e-3 - 1e-5), 1e-9, 'D*');
  assert.match(await view('buffers').getByTestId('dstar-text').textContent(), /D = 10000 is at least D\*/);
  await view('buffers').locator('[data-chart="gantt"] canvas').first().waitFor();
  await view('buffers').locator('[data-chart="chunks"] canvas').first().waitFor();
  // The Cmax-vs-V chart of Fig. 7 (4 buffers x 16 loads, n = n_min).
  const [points, ms] = await sweepMs('buffers', 'sweep');
  console.log(`fig7-star-ms: ${ms}`);
  console.log(`fig7-star-points: ${points}`);
  console.log(`fig7-star-wall-ms (page open to chart, default solve included): ${Date.now() - started}`);
  const panel = view('buffers').locator('[data-panel="sweep"] .panel-body');
  assert.equal(await panel.getAttribute('data-skipped'), '0');
  // Every point of the paper's range is computed (issue 10: no skip).
  assert.equal(points, 64);
  const planned = await page.evaluate(async () => ({ plan: await (await import('./page.js')).solver.plan({ model: 'star', m: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 10 ** (1 + 14 / 3), D: 1e2 }) }));
  // V = 4.64e5, D = 1e2: 30,000 variables as printed; the core solves it by its shape, no LP.
  assert.equal(planned.plan.n, planned.plan.n_min);
  assert.ok(planned.plan.variables > 3000 && planned.plan.solved_variables === 0, JSON.stringify(planned.plan));
  assert.match(planned.plan.method, /shape of its optimum/);
  // V = 1e6, D = 1e2: m n D = V, the buffers force every chunk and presolve leaves no LP.
  const forced = await page.evaluate(async () => (await import('./page.js')).solver.plan({ model: 'star', m: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 1e6, D: 1e2 }));
  assert.equal(forced.solved_variables, 0, JSON.stringify(forced));
  await view('buffers').locator('[data-chart="sweep"] canvas').first().waitFor();
  // The other plots of the same data need no new solve.
  await view('buffers').getByTestId('sweep-mode-ratio').click();
  await view('buffers').getByTestId('sweep-mode-diff').click();
  await view('buffers').getByTestId('sweep-mode-cmax').click();
  assert.equal(await view('buffers').getByTestId('sweep-mode-cmax').getAttribute('aria-checked'), 'true');
  // "Compute with D = D*" puts D* (6 digits) into the form and recomputes.
  // n = 3 is below the new n_min = 50: the button says so and drops n.
  assert.match(await view('buffers').getByTestId('use-dstar').textContent(), /and n = n_min/);
  await view('buffers').getByTestId('use-dstar').click();
  await waitForRequest('buffers', { model: 'star', m: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 5e3, D: 10.101, prune: 'best' });
  assert.equal(await view('buffers').getByTestId('field-D').inputValue(), '10.101');
  assert.equal(await valueOf('buffers', 'n'), 50);
});

test('buffers: the star example of Sec. 4.1 through the form (D = 1 and D = 1.5)', async () => {
  const base = { topology: 'star', m: 3, A: 1, C: 1, S: 0, V: 3, n: 1, prune: true };
  await computeThroughUi('buffers', { ...base, D: 1 }, { model: 'star', m: 3, S: 0, C: 1, A: 1, V: 3, D: 1, n: 1 });
  close(await valueOf('buffers', 'makespan'), 4, 1e-9, 'Cmax, D = 1');
  for (const [i, want] of [1, 1, 1].entries()) close(await valueOf('buffers', `load-${i}`), want, 1e-9, `alpha_${i + 1}, D = 1`);
  // A <= mC: D* does not exist, and the page says why.
  await page.waitForFunction(() => /does not exist/.test(document.querySelector('#view-buffers [data-testid="dstar-text"]')?.textContent ?? ''));
  assert.match(await view('buffers').getByTestId('dstar-text').textContent(), /A > mC fails/);

  await computeThroughUi('buffers', { D: 1.5 }, { model: 'star', m: 3, S: 0, C: 1, A: 1, V: 3, D: 1.5, n: 1 });
  close(await valueOf('buffers', 'makespan'), 3.5, 1e-9, 'Cmax, D = 1.5');
  for (const [i, want] of [1.5, 1, 0.5].entries()) close(await valueOf('buffers', `load-${i}`), want, 1e-9, `alpha_${i + 1}, D = 1.5`);
});

test('buffers: Download LP gives the CPLEX-LP and MPS text of the current request', async () => {
  const lp = await download(view('buffers').getByTestId('download-lp'));
  assert.ok(lp.text.startsWith('\\ LoadDirect'), `the LP file starts with ${JSON.stringify(lp.text.slice(0, 40))}`);
  assert.match(lp.text, /Minimize[\s\S]*Subject To[\s\S]*End/);
  assert.match(lp.name, /\.lp$/);
  const mps = await download(view('buffers').getByTestId('download-mps'));
  assert.match(mps.text, /^\* LoadDirect/);
  assert.match(mps.text, /\nROWS\n[\s\S]*\nCOLUMNS\n[\s\S]*ENDATA/);
  assert.match(mps.name, /\.mps$/);
});

test('buffers: trees through the form, with the LB strategy and their sweeps', async () => {
  const common = { S: 1e-3, C: 1e-6, A: 1e-3, V: 5e3, D: 1e4, n: '' };
  await computeThroughUi('buffers', { topology: 'tree', p: 2, h: 4, ...common, order: 'NLF', buffers: '1' },
    { model: 'tree', p: 2, h: 4, S: 1e-3, C: 1e-6, A: 1e-3, V: 5e3, D: 1e4, order: 'NLF', buffers: 1 });
  assert.ok((await valueOf('buffers', 'makespan')) > 0);
  assert.equal(await valueOf('buffers', 'processors'), 2 + 4 + 8 + 16);
  assert.ok((await valueOf('buffers', 'lb')) > 0, 'LB strategy (lb_layer)');
  const [, treeMs] = await sweepMs('buffers', 'sweep');
  console.log(`fig12-tree-ms: ${treeMs}`);
  await computeThroughUi('buffers', { topology: 'binomial', order: 'LLF' },
    { model: 'binomial', p: 2, h: 4, S: 1e-3, C: 1e-6, A: 1e-3, V: 5e3, D: 1e4, order: 'LLF' });
  assert.equal(await valueOf('buffers', 'processors'), 3 ** 4 - 1);
  // Binomial D*: S(h+1)h p(p+1)^(h-2) / (2(A - Ch(p+1)^(h-1))), Sec. 5.
  await page.waitForFunction(() => /binomial/.test(document.querySelector('#view-buffers [data-panel="dstar"]')?.textContent ?? ''));
  close(await valueOf('buffers', 'dstar'), (1e-3 * 5 * 4 * 2 * 9) / (2 * (1e-3 - 1e-6 * 4 * 27)), 1e-9, 'binomial D*');
  const [binPoints, binMs] = await sweepMs('buffers', 'sweep');
  console.log(`fig11-binomial-ms: ${binMs}`);
  // 4 buffers x 16 loads and 16 LB strategies: none left out, none refused.
  assert.equal(binPoints, 80);
  assert.equal(await view('buffers').locator('[data-panel="sweep"] .panel-body').getAttribute('data-skipped'), '0');
});

test('buffers: bad input is answered beside its field', async () => {
  const v = view('buffers');
  await v.getByTestId('field-topology').selectOption('star');
  await v.getByTestId('field-m').fill('3.5');
  assert.match(await v.getByTestId('error-m').textContent(), /whole number/);
  // Accepted by the page, refused by the core: n below n_min, beside n.
  await v.getByTestId('field-m').fill('10');
  await v.getByTestId('field-D').fill('100');
  await v.getByTestId('field-n').fill('1');
  await v.getByTestId('compute').click();
  await page.waitForFunction(() => document.querySelector('#view-buffers [data-testid="results"]').dataset.state === 'error');
  assert.match(await v.getByTestId('error-n').textContent(), /n must be/);
  await v.getByTestId('field-n').fill('');
  await v.getByTestId('compute').click();
  await page.waitForFunction(() => document.querySelector('#view-buffers [data-testid="results"]').dataset.state === 'done');
});

test('buffers: the Cmax-vs-V sweep shows progress and can be cancelled', async () => {
  const v = view('buffers');
  // New parameters, so a new sweep (the chart is cached per S, C, A, m);
  // a tree of 10 layers, whose LPs are still solved by the simplex: the
  // star's sweep is over before a click lands.
  await computeThroughUi('buffers', { topology: 'tree', h: 10, S: 2e-3, C: 1e-6, A: 1e-3, V: 5e3, D: 1e4, n: '', order: 'NLF', buffers: '1' },
    { model: 'tree', p: 2, h: 10, S: 2e-3, C: 1e-6, A: 1e-3, V: 5e3, D: 1e4, order: 'NLF', buffers: 1 });
  const progress = v.locator('[data-panel="sweep"] [data-testid="progress"]');
  await progress.locator('button', { hasText: 'Cancel' }).click();
  await page.waitForFunction(() => /cancelled/.test(document.querySelector('#view-buffers [data-panel="sweep"] [data-testid="progress"]')?.textContent ?? ''));
  // The worker is free again: the next computation answers.
  await computeThroughUi('buffers', { topology: 'star', m: 10, S: 1e-3 }, { model: 'star', m: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 5e3, D: 1e4 });
  const out = await page.evaluate(async () => {
    const { Pool } = await import('./pool.js');
    const s = new Pool();
    const r = {};
    r.mps = (await s.exportLp({ model: 'memory', V: 2, processors: [{ S: 1, C: 1, pieces: [[1, 1], [-9, 10]] }] }, 'mps')).split('\n')[0];
    r.refused = await s.exportLp({ model: 'torus', k: 2, S: 1e-4, C: 1e-7, A: 1e-6, V: 1e6 }, 'lp').then(() => 'resolved', (e) => `${e.code} ${e.field}`);
    r.plan = await s.plan({ model: 'star', m: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 5e3, D: 10 });
    r.planRefused = await s.plan({ model: 'star', m: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 5e3, D: 10, n: 3 }).then(() => 'resolved', (e) => `${e.code} ${e.field}`);
    s.terminate();
    return r;
  });
  assert.match(out.mps, /^\* memory hierarchy LP/);
  assert.equal(out.refused, 'out_of_range model');
  // plan: the stages and LP size without solving; the error solve would give.
  assert.equal(out.plan.n_min, 50);
  assert.equal(out.plan.n, 50);
  assert.ok(out.plan.variables > 3 * 50 * 10 - 1, `variables ${out.plan.variables}`);
  assert.equal(out.planRefused, 'out_of_range n');
});

/** The state of the buffers view's results: 'pending', 'done', 'error', 'cancelled'... */
const buffersState = () => page.evaluate(() => document.querySelector('#view-buffers [data-testid="results"]').dataset.state);

/** Workers of the page alive now (Playwright sees each one start and close). */
const liveWorkers = () => page.workers();

/** Waits, generously, until every worker of `workers` is closed (terminated by the page). */
async function closed(workers) {
  let timer;
  const late = new Promise((resolve, reject) => { timer = setTimeout(() => reject(new Error('a busy worker was left running')), 30000); });
  await Promise.race([late, Promise.all(workers.map((w) => new Promise((resolve) => {
    if (!page.workers().includes(w)) resolve();
    else w.on('close', resolve);
  })))]).finally(() => clearTimeout(timer));
}

// Issue 10's first report: the star with m = 1000 and the other defaults
// was an LP of 9000 variables that ran into the time limit; solved by the
// shape of its optimum it is answered at once.
test('buffers: the star with m = 1000 is answered, its schedule drawn', async () => {
  await page.goto(`${server.url}#v=1&view=buffers&topology=star&m=1000`);
  await waitForRequest('buffers', { model: 'star', m: 1000, S: 1e-3, C: 1e-6, A: 1e-3, V: 5e3, D: 1e4, n: 3, prune: 'best' });
  assert.equal(await buffersState(), 'done');
  assert.ok((await valueOf('buffers', 'makespan')) > 0);
  await view('buffers').locator('[data-chart="gantt"] canvas').first().waitFor();
});

// A solve that still takes seconds: an ordinary tree of ten layers over
// 100 stages, start-ups dominant and two buffers, the raw LP of 7,501
// variables (its windows unproven), proven by the interior point method in
// 65 iterations: 6 s in node's wasm, 4 s natively (70-100 s by the simplex
// until vanishing pivots were read as round-off). The defaults' h = 10,
// n = 100 tree, pruned, was slow until small systems were solved by
// cutting planes (0.58 s -> 34 ms).
const SLOW_TREE = '#v=1&view=buffers&topology=tree&h=10&n=100&S=0.00001&V=100000&buffers=2&prune=false';

test('buffers: a raw tree above n_min is answered by the interior point method, proven', async () => {
  await page.goto(`${server.url}#v=1&view=buffers&topology=tree&h=10&n=30&S=0.001&V=100000&buffers=2&prune=false`);
  await waitForRequest('buffers', { model: 'tree', p: 2, h: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 1e5, D: 1e4, n: 30, order: 'NLF', buffers: 2, prune: false });
  // Native HiGHS's optimum of the same full LP (dlt export --mps).
  close(await valueOf('buffers', 'makespan'), 0.35958474898340687, 1e-9 * 0.36, 'Cmax');
  assert.match(await view('buffers').getByTestId('warnings').textContent(), /interior point method in \d+ iterations, proven optimal by a dual bound/);
});

test('buffers: a long solve shows its progress and cancels; the page is usable at once', async () => {
  await page.goto(`${server.url}${SLOW_TREE}`);
  const bar = view('buffers').getByTestId('solve-progress');
  await bar.waitFor({ timeout: 30000 });
  assert.match(await bar.textContent(), /\d+\.\d s/);
  assert.equal(await buffersState(), 'pending');
  const busy = liveWorkers();
  await bar.locator('button', { hasText: 'Cancel' }).click();
  await page.waitForFunction(() => document.querySelector('#view-buffers [data-testid="results"]').dataset.state === 'cancelled', null, { timeout: 10000 });
  await closed(busy); // the worker solving it was stopped, not left to finish
  assert.match(await view('buffers').getByTestId('result-msg').textContent(), /Cancelled/);
  await computeThroughUi('buffers', { topology: 'star', m: 10, n: 3, S: 1e-3, V: 5e3, prune: 'best' }, { model: 'star', m: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 5e3, D: 1e4, n: 3, prune: 'best' });
  assert.ok((await valueOf('buffers', 'makespan')) > 0.5);
});

test('buffers: a new request from the form supersedes a running one', async () => {
  await page.goto(`${server.url}${SLOW_TREE}`);
  await view('buffers').getByTestId('solve-progress').waitFor({ timeout: 30000 });
  const busy = liveWorkers();
  await computeThroughUi('buffers', { n: 3 }, { model: 'tree', p: 2, h: 10, S: 1e-5, C: 1e-6, A: 1e-3, V: 1e5, D: 1e4, n: 3, order: 'NLF', buffers: 2, prune: false });
  await closed(busy); // the old solve was stopped, not waited for
  assert.equal(await buffersState(), 'done');
});

test('buffers: prune = best (the default) finds the shorter smaller star of issue 12 and shows the paper’s pruning beside it', async () => {
  const q = { topology: 'star', m: 5, S: 0.040740885631911576, C: 1.9054490275683655e-5, A: 3.976658165499617e-5, V: 333.8891735360823, D: 62.254574478506065, n: '' };
  await page.goto(`${server.url}#v=1&view=buffers&${Object.entries(q).map(([k, v]) => `${k}=${v}`).join('&')}`);
  await waitForRequest('buffers', { model: 'star', m: 5, S: q.S, C: q.C, A: q.A, V: q.V, D: q.D, prune: 'best' });
  close(await valueOf('buffers', 'makespan'), 0.25171, 1e-4, 'Cmax, 3 processors and 2 stages');
  close(await valueOf('buffers', 'paper-pruning'), 0.41377, 1e-4, 'the paper’s pruning, 5 processors');
  assert.match(await view('buffers').locator('[data-panel="summary"]').textContent(), /3 processors over 2 stages give Cmax = 0\.251707, 39\.2% shorter than the paper's pruning/);
  // The paper's procedure on request: the checkbox of old links reads as it.
  await computeThroughUi('buffers', { prune: 'true' }, { model: 'star', m: 5, S: q.S, C: q.C, A: q.A, V: q.V, D: q.D });
  close(await valueOf('buffers', 'makespan'), 0.41377, 1e-4, 'Cmax, the paper’s pruning');
});

/** Intervals the buffers view's Gantt chart draws, by series (merged ones counted as many). */
async function ganttCounts() {
  await view('buffers').locator('[data-chart="gantt"] canvas').first().waitFor();
  return page.evaluate(async () => {
    const { echarts } = await import('./charts.js');
    const o = echarts.getInstanceByDom(document.querySelector('#view-buffers [data-chart="gantt"]')).getOption();
    return Object.fromEntries(o.series.map((s) => [s.name, s.data.reduce((n, d) => n + d[6], 0)]));
  });
}

test('buffers: a schedule of 10,000 stages is drawn, listed in part (n_min = V / (D·m))', async () => {
  await page.goto(`${server.url}#v=1&view=buffers&topology=star&m=10&V=1000000&D=10&n=`);
  await waitForRequest('buffers', { model: 'star', m: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 1e6, D: 10, prune: 'best' });
  assert.equal(await valueOf('buffers', 'n'), 10000);
  // Every chunk is full: the core lists the first and last two stages.
  assert.deepEqual(await ganttCounts(), { communication: 40, computation: 40 });
  const table = view('buffers').getByTestId('load-table');
  assert.match(await table.locator('thead').innerText(), /α_i2\s+α_i9999\s+α_i10000/);
  assert.match(await view('buffers').innerText(), /Stages 3–9998 \(9996 of 10000\) are not listed: each has the chunks of stage 2\./);
  await sweepMs('buffers', 'sweep');
  await view('buffers').locator('[data-chart="sweep"] canvas').first().waitFor();
  assert.equal(await buffersState(), 'done');
});

test('buffers: the largest schedule listed in full is drawn: m = 100, 200 stages', async () => {
  await page.goto(`${server.url}#v=1&view=buffers&topology=star&m=100&V=1000000&D=50&n=`);
  await waitForRequest('buffers', { model: 'star', m: 100, S: 1e-3, C: 1e-6, A: 1e-3, V: 1e6, D: 50, prune: 'best' });
  assert.equal(await valueOf('buffers', 'n'), 200);
  assert.deepEqual(await ganttCounts(), { communication: 20000, computation: 20000 });
  await sweepMs('buffers', 'sweep');
  assert.equal(await buffersState(), 'done');
});

// ---- Memory hierarchy (002) -----------------------------------------------

test('memory: the example of Sec. 2 and Fig. 3 against classical DLT', async () => {
  await page.goto(`${server.url}#memory`);
  const pieces = [[1, 1], [-9, 10]];
  const request = { model: 'memory', V: 2, processors: [{ S: 1, C: 1, pieces }, { S: 1, C: 1, pieces }] };
  await waitForRequest('memory', request);
  // Compute again through the button: the same default case.
  await view('memory').getByTestId('compute').click();
  await waitForRequest('memory', request);
  close(await valueOf('memory', 'makespan'), 5.75, 1e-9, 'Cmax');
  close(await valueOf('memory', 'load-0'), 1.25, 1e-9, 'alpha_1');
  close(await valueOf('memory', 'load-1'), 0.75, 1e-9, 'alpha_2');
  close(await valueOf('memory', 'swap-0'), 10 / 9, 1e-9, 'swap point');
  // Fig. 3b/3c: the classical solutions and their real length.
  close(await valueOf('memory', 'fig3-core-model'), 4.333, 1e-3, 'Fig. 3b, model');
  close(await valueOf('memory', 'fig3-core-real'), 10.333, 1e-3, 'Fig. 3b, real');
  close(await valueOf('memory', 'fig3-ooc-model'), 13.048, 1e-3, 'Fig. 3c, model');
  close(await valueOf('memory', 'fig3-ooc-real'), 5.905, 1e-3, 'Fig. 3c, real');
  for (const k of ['a', 'b', 'c']) await view('memory').locator(`[data-chart="fig3-${k}"] canvas`).first().waitFor();
});

test('memory: Fig. 10, out-of-core against multi-installment, chunk size of (5)', async () => {
  const [points, ms] = await sweepMs('memory', 'fig10');
  console.log(`fig10-memory-ms: ${ms} (${points} points)`);
  assert.equal(points, 63);
  // Sec. 4: "We used (5) to calculate the load chunk size beta = 1E4".
  close(await valueOf('memory', 'fig10-beta'), 1e4, 1e-6, 'beta of (5)');
  close(await valueOf('memory', 'fig10-swp'), 1e8, 1e-3, 'swap point');
  assert.equal((await view('memory').getByTestId('fig10-admissible').textContent()).trim(), 'yes');
  assert.match(await view('memory').getByTestId('fig10-range').textContent(), /^\(0\.101\d*, 1e8\]$/);
  await view('memory').locator('[data-chart="fig10"] canvas').first().waitFor();
});

test('memory: Download LP, add and remove processors, errors at their row', async () => {
  const v = view('memory');
  const lp = await download(v.getByTestId('download-lp'));
  assert.match(lp.text, /^\\ memory hierarchy LP/);
  // A third processor, a copy of the last.
  await v.getByTestId('add-processors').click();
  assert.equal(await v.locator('[data-testid^="processors-row-"]').count(), 3);
  await v.getByTestId('field-processors-2-pieces').fill('0.5x');
  await v.getByTestId('compute').click();
  const pieces = [[1, 1], [-9, 10]];
  await waitForRequest('memory', { model: 'memory', V: 2, processors: [{ S: 1, C: 1, pieces }, { S: 1, C: 1, pieces }, { S: 1, C: 1, pieces: [[0, 0.5]] }] });
  assert.ok((await valueOf('memory', 'makespan')) < 5.75);
  // The page's own check of a piece.
  await v.getByTestId('field-processors-2-pieces').fill('1+1y');
  assert.match(await v.getByTestId('error-processors').textContent(), /P3, pieces a\+bx: “1\+1y” is not a piece/);
  await v.locator('[data-testid="processors-row-2"] .row-remove').click();
  assert.equal(await v.locator('[data-testid^="processors-row-"]').count(), 2);
  // Accepted by the page, refused by the core: processors[1].pieces[1][0].
  await v.getByTestId('field-processors-1-pieces').fill('1+1x, 1e20+1x');
  await v.getByTestId('compute').click();
  await page.waitForFunction(() => document.querySelector('#view-memory [data-testid="results"]').dataset.state === 'error');
  assert.match(await v.getByTestId('error-processors').textContent(), /^P2: processors\[1\]\.pieces\[1\]\[0\] must be/);
  assert.equal(await v.getByTestId('field-processors-1-pieces').getAttribute('aria-invalid'), 'true');
  assert.equal(await v.getByTestId('field-processors-0-pieces').getAttribute('aria-invalid'), 'false');
  await v.getByTestId('field-processors-1-pieces').fill('1+1x, -9+10x');
  await v.getByTestId('compute').click();
  await waitForRequest('memory', { model: 'memory', V: 2, processors: [{ S: 1, C: 1, pieces }, { S: 1, C: 1, pieces }] });
});

test('narrow screens: the new views do not overflow', async () => {
  await page.setViewportSize({ width: 380, height: 800 });
  for (const id of ['buffers', 'memory']) {
    await page.goto(`${server.url}#${id}`);
    await page.waitForFunction((id) => ['done', 'error'].includes(document.querySelector(`#view-${id} [data-testid="results"]`)?.dataset.state), id);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `${id}: the page is ${overflow}px wider than the screen`);
  }
  await page.setViewportSize({ width: 1400, height: 900 });
});

test('no NaN or undefined anywhere on the new views', async () => {
  for (const id of ['buffers', 'memory']) {
    const text = await view(id).evaluate((e) => e.textContent);
    assert.doesNotMatch(text, /\bNaN\b|undefined|\[object /, `${id} shows a broken value`);
  }
});

test('no console errors, no page errors, nothing fetched from elsewhere', () => {
  session.assertClean();
});
