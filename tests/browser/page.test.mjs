// Browser test of the static page (www/): serves it on 127.0.0.1, drives
// Debian's Chromium through playwright-core, computes through the UI and
// checks the numbers the page shows against the papers' formulas, computed
// here independently of the core.
//
//   node --test tests/browser/        (from the repository root; needs
//   `npm install` in tests/browser and www/pkg built by scripts/build.sh)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageSession } from './harness.mjs';

// ---- references from the papers -----------------------------------------

/**
 * 001, system (1), in absolute units: every layer finishes at Cmax, so for
 * consecutive layers a_{j} A = S + C v_{j+1} + A a_{j+1}, where
 * v_{j+1} = a_{j+1} + sum_{m > j+1} 4 * 5^(m-j-2) a_m is what a processor of
 * layer j+1 receives; and a_0 + sum_i 4 * 5^(i-1) a_i = V. Everything is
 * linear in a_N: evaluate with a_N = 0 and a_N = 1, solve for the total V.
 */
function torusLoads(N, S, C, A, V) {
  const fromLast = (aN) => {
    const a = new Array(N + 1).fill(0);
    a[N] = aN;
    for (let j = N - 1; j >= 0; j--) {
      let v = a[j + 1];
      for (let m = j + 2; m <= N; m++) v += 4 * 5 ** (m - j - 2) * a[m];
      a[j] = (S + C * v + A * a[j + 1]) / A;
    }
    return a;
  };
  const total = (a) => a.reduce((s, x, i) => s + (i === 0 ? 1 : 4 * 5 ** (i - 1)) * x, 0);
  const t0 = total(fromLast(0));
  const t1 = total(fromLast(1));
  return fromLast((V - t0) / (t1 - t0));
}

/** The largest N <= 2k with every a_i > 0 (Lemma 1), and its Cmax = a_0 A. */
function torusReference({ k, S, C, A, V }) {
  for (let N = 2 * k; N >= 0; N--) {
    const a = torusLoads(N, S, C, A, V);
    if (a.every((x) => x > 0 && Number.isFinite(x))) {
      const makespan = a[0] * A;
      return { N, a, makespan, speedup: (V * A) / makespan };
    }
  }
  throw new Error('no feasible number of phases');
}

// 004, Example 2 and Fig. 5: what the paper prints.
const EXAMPLE2 = { makespan: 3337, alpha: [0.3337, 0.139, 0.1112, 0.083] };

function relErr(got, want) {
  return Math.abs(got - want) / Math.abs(want);
}

// ---- the page --------------------------------------------------------------

let page;
let server;
const session = pageSession({ timeout: 30000, onOpen: (s) => ({ page, server } = s) });
const { view, valueOf, computeThroughUi } = session;

test('the page opens and shows the first result', async () => {
  const started = Date.now();
  await page.goto(`${server.url}#torus`);
  const results = view('torus').locator('[data-testid="results"]');
  await page.waitForFunction(() => ['done', 'error'].includes(document.querySelector('#view-torus [data-testid="results"]')?.dataset.state), null, { timeout: 30000 });
  const ms = Date.now() - started;
  console.log(`time-to-first-result-ms: ${ms}`);
  const state = await results.getAttribute('data-state');
  assert.equal(state, 'done', `first result: ${await view('torus').locator('[data-testid="result-msg"]').textContent()}`);
  const appMs = await page.evaluate(() => document.documentElement.dataset.firstResultMs);
  console.log(`time-to-first-result-ms (from app start, as the page measures it): ${appMs}`);
  // The default is Fig. 7's parameters, k = 2, V = 1e6.
  const ref = torusReference({ k: 2, S: 1e-4, C: 1e-7, A: 1e-6, V: 1e6 });
  assert.ok(relErr(await valueOf('torus', 'makespan'), ref.makespan) < 1e-6);
  assert.match(await page.getByTestId('version').textContent(), /\d+\.\d+/);
});

test('torus: a case computed through the form matches recurrence (1) of 001', async () => {
  for (const p of [
    { k: 3, S: 1e-5, C: 2e-8, A: 1e-6, V: 1e7 },
    { k: 3, S: 1e-4, C: 1e-7, A: 1e-6, V: 3e4 }, // too small a load for 2k phases
  ]) {
    await computeThroughUi('torus', { ...p, phases: '' }, { model: 'torus', ...p });
    const ref = torusReference(p);
    const makespan = await valueOf('torus', 'makespan');
    const speedup = await valueOf('torus', 'speedup');
    assert.ok(relErr(makespan, ref.makespan) < 1e-6, `Cmax ${makespan} vs ${ref.makespan} for ${JSON.stringify(p)}`);
    assert.ok(relErr(speedup, ref.speedup) < 1e-6, `speedup ${speedup} vs ${ref.speedup}`);
    assert.equal((await view('torus').getByTestId('phases').textContent()).trim(), `${ref.N} of ${2 * p.k}`);
    for (let i = 0; i <= ref.N; i++) {
      assert.ok(relErr(await valueOf('torus', `layer-load-${i}`), ref.a[i]) < 1e-6, `a_${i}`);
    }
  }
  // Table 1 of [001] as printed, beside the counts of the core's layers
  // (row 0 is the originator; the last case uses 4 of 6 phases).
  const count = async (id) => Number((await view('torus').getByTestId(id).textContent()).trim());
  assert.equal(await count('after-0'), 1);
  for (let i = 1; i <= 4; i++) {
    assert.equal(await count(`table1-activated-${i}`), 4 * 5 ** (i - 1));
    assert.equal(await count(`after-${i}`), await count(`table1-after-${i}`));
    assert.equal(await count(`after-${i}`), 5 ** i);
  }
  // The activation map and the Gantt chart are drawn (canvas), the legend lists the phases.
  await view('torus').locator('[data-chart="activation"] canvas').first().waitFor();
  await view('torus').locator('[data-chart="gantt"] canvas').first().waitFor();
  assert.match(await view('torus').getByTestId('activation-legend').textContent(), /originator/);
});

test('torus: the speedup sweep runs as a worker sweep with progress', async () => {
  // A new A invalidates the sweep the view keeps, so this computation runs
  // one (a re-render from the kept series shows no indicator): its
  // indicator ends with the points and their time.
  await view('torus').getByTestId('field-A').fill('2e-6');
  await view('torus').getByTestId('compute').click();
  await page.waitForFunction(() => /points in \d+ ms/.test(document.querySelector('#view-torus [data-panel="sweep"] [data-testid="progress"]')?.textContent ?? ''), null, { timeout: 60000 });
  await view('torus').locator('[data-chart="sweep"] canvas').first().waitFor();
});

test('torus: bad input is answered beside its field', async () => {
  const v = view('torus');
  await v.getByTestId('field-V').fill('abc');
  assert.match(await v.getByTestId('error-V').textContent(), /not a number/);
  // Beyond the core's magnitudes: refused as typed, in the core's words
  // (its field list carries them), before any request.
  await v.getByTestId('field-V').fill('1e6');
  await v.getByTestId('field-S').fill('2e15');
  assert.equal(await v.getByTestId('error-S').textContent(), 'S must be 0 or from 1e-30 to 1e15');
  await v.getByTestId('field-S').fill('1e-4');
  assert.equal(await v.getByTestId('error-S').textContent(), '');
  // More phases than 2k: the core's limit, not a copy of it in the page.
  await v.getByTestId('field-k').fill('2');
  await v.getByTestId('field-phases').fill('5');
  await v.getByTestId('compute').click();
  await page.waitForFunction(() => document.querySelector('#view-torus [data-testid="results"]').dataset.state === 'error');
  assert.match(await v.getByTestId('error-phases').textContent(), /phases must be a whole number from 0 to 4, got 5/);
  await v.getByTestId('field-phases').fill('');
  await v.getByTestId('compute').click();
  await page.waitForFunction(() => document.querySelector('#view-torus [data-testid="results"]').dataset.state === 'done');
});

test('non-linear: Example 2 of 004 through the form', async () => {
  await page.getByTestId('tab-nonlinear').click();
  await view('nonlinear').waitFor();
  const fields = { algorithm: 'M', L: 100, gamma: 2, rho: 2, A0: 1, A: [1.2, 1.5, 2], G: [0.1, 0.2, 2], theta_cp: '', theta_cm: '' };
  const request = { model: 'nonlinear', algorithm: 'M', L: 100, gamma: 2, A0: 1, A: [1.2, 1.5, 2], G: [0.1, 0.2, 2], rho: 2 };
  await computeThroughUi('nonlinear', fields, request);
  const makespan = await valueOf('nonlinear', 'makespan');
  assert.ok(relErr(makespan, EXAMPLE2.makespan) < 2e-4, `makespan ${makespan}, the paper prints ${EXAMPLE2.makespan}`);
  for (let i = 0; i < EXAMPLE2.alpha.length; i++) {
    const a = await valueOf('nonlinear', `alpha-${i}`);
    assert.ok(Math.abs(a - EXAMPLE2.alpha[i]) < 5e-4, `alpha_${i} = ${a}, the paper prints ${EXAMPLE2.alpha[i]}`);
  }
  await view('nonlinear').locator('[data-chart="gantt"] canvas').first().waitFor();
});

test('solver client: sweeps report progress and cancel; a crashed worker is replaced', async () => {
  const out = await page.evaluate(async () => {
    const { Pool } = await import('./pool.js');
    const good = () => new Worker(new URL('./worker.js', location.href), { type: 'module' });
    const req = { model: 'torus', k: 2, S: 1e-4, C: 1e-7, A: 1e-6, V: 1e6 };
    const r = {};
    // A sweep with progress (a core sweep over V, then a point of its own), then a cancelled sweep.
    const s = new Pool({ createWorker: good });
    const seen = [];
    const responses = await s.sweep([req, { ...req, V: 1e7 }, { ...req, k: 0 }], { pick: ['speedup'], onProgress: (d, t) => seen.push(`${d}/${t}`) });
    r.progress = seen.join(' ');
    r.sweepKeys = Object.keys(responses[0]).join(',');
    r.itemError = responses[2].error?.field;
    const ctl = new AbortController();
    const many = Array.from({ length: 400 }, (_, i) => ({ ...req, V: 1e3 + i }));
    const p = s.sweep(many, { pick: ['phases'], signal: ctl.signal, onProgress: () => ctl.abort() });
    r.cancelled = await p.then(() => 'resolved', (e) => e.code);
    r.afterCancel = (await s.solve(req)).phases;
    s.terminate();
    // A worker that dies on start: the call fails with 'crash', the next one
    // gets a fresh worker.
    let n = 0;
    const bad = () => new Worker(URL.createObjectURL(new Blob(['throw new Error("boom")'], { type: 'text/javascript' })));
    const c = new Pool({ createWorker: () => (n++ === 0 ? bad() : good()) });
    const crashes = [];
    c.onCrash((e) => crashes.push(e.code));
    r.crash = await c.solve(req).then(() => 'resolved', (e) => e.code);
    r.crashEvents = crashes.join(',');
    r.restarted = (await c.solve(req)).phases;
    r.restarts = c.restarts;
    c.terminate();
    // A wasm trap: the worker answers with fatal: true (see worker.js).
    const trapping = () => new Worker(URL.createObjectURL(new Blob([
      'onmessage = (e) => postMessage({ id: e.data.id, ok: false, fatal: true, error: { code: "crash", field: "", message: "the solver crashed: RuntimeError: unreachable" } });',
    ], { type: 'text/javascript' })));
    let m = 0;
    const t = new Pool({ createWorker: () => (m++ === 0 ? trapping() : good()) });
    r.trap = await t.solve(req).then(() => 'resolved', (e) => `${e.code}: ${e.message}`);
    r.afterTrap = (await t.solve(req)).phases;
    r.trapRestarts = t.restarts;
    t.terminate();
    // The page itself fetched the wasm once at most: workers.js compiles it
    // for its workers to share (they instantiate it; the page never does).
    r.mainWasm = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm')).map((e) => e.initiatorType).join(',');
    return r;
  });
  assert.equal(out.progress, '1/3 2/3 3/3');
  assert.equal(out.sweepKeys, 'speedup');
  assert.equal(out.itemError, 'k');
  assert.equal(out.cancelled, 'cancelled');
  assert.equal(out.afterCancel, 4);
  assert.equal(out.crash, 'crash');
  assert.equal(out.crashEvents, 'crash');
  assert.equal(out.restarted, 4);
  assert.equal(out.restarts, 1);
  assert.match(out.trap, /^crash: .*unreachable/);
  assert.equal(out.afterTrap, 4);
  assert.equal(out.trapRestarts, 1);
  assert.match(out.mainWasm, /^(fetch)?$/);
});

test('a request nested 20,000 deep: the core refuses it by name and the wasm module solves on', async () => {
  if (!page.url().startsWith(server.url)) await page.goto(`${server.url}#torus`);
  const out = await page.evaluate(async () => {
    const req = { model: 'torus', k: 2, S: 1e-4, C: 1e-7, A: 1e-6, V: 1e6 };
    // Built inside a worker: the browser itself cannot copy it to one.
    const src = `import init, { solve } from '${new URL('./pkg/dlt_wasm.js', location.href)}';
      await init();
      let deep = [];
      for (let i = 0; i < 20000; i++) deep = [deep];
      const req = ${JSON.stringify(req)};
      let refused;
      try { solve({ ...req, V: deep }); refused = 'solved'; } catch (e) { refused = e.error.code + ' at ' + e.error.field + ': ' + e.message; }
      postMessage({ refused, after: solve(req).phases });`;
    const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })), { type: 'module' });
    const inWorker = await new Promise((resolve, reject) => {
      w.onmessage = (e) => resolve(e.data);
      w.onerror = (e) => reject(new Error(e.message));
    });
    w.terminate();
    const { Pool } = await import('./pool.js');
    const s = new Pool();
    let deep = [];
    for (let i = 0; i < 20000; i++) deep = [deep];
    const viaClient = await s.solve({ ...req, V: deep }).then(() => 'resolved', (e) => e.code);
    const after = (await s.solve(req)).phases;
    s.terminate();
    return { ...inWorker, viaClient, afterClient: after };
  });
  assert.match(out.refused, /^parse at V(\[0\]){31}: .*nested deeper than 32 levels/);
  assert.equal(out.after, 4);
  assert.equal(out.viaClient, 'parse');
  assert.equal(out.afterClient, 4);
});

test('narrow screens: no horizontal overflow of the page', async () => {
  await page.setViewportSize({ width: 380, height: 800 });
  for (const id of ['torus', 'nonlinear']) {
    await page.goto(`${server.url}#${id}`);
    await page.waitForFunction((id) => ['done', 'error'].includes(document.querySelector(`#view-${id} [data-testid="results"]`)?.dataset.state), id);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `${id}: the page is ${overflow}px wider than the screen`);
  }
  await page.setViewportSize({ width: 1400, height: 900 });
});

test('no console errors, no page errors, nothing fetched from elsewhere', () => {
  session.assertClean();
});
