// Browser test of the "Isoefficiency" view (paper 003: isoefficiency maps of
// divisible computations in hierarchical memory) and of the worker pool it
// computes its maps with (www/pool.js): the default map of Figs. 1-2
// (precomputed at build time, checked by the page, recomputed when stale),
// Table 1 beside the paper's, a small map through
// the form, a click on the map solving that point (Gantt chart, sequence,
// its MIP (2)-(11) downloaded as CPLEX-LP and MPS), cancel and resume; then
// the pool alone with stand-in workers (queue, progress, crash, stall,
// cancel).
//
//   node --test tests/browser/        (from the repository root; needs
//   `npm install` in tests/browser and www/pkg built by scripts/build.sh)
//
// Prints isomap-full-ms (the default map, m = 2 … 20 with 10 isolines),
// isomap-small-ms (m = 2 … 4, the MAX line only) and isopoint-click-ms (a
// click on the map to the drawn schedule of that point, one MIP).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pageSession } from './harness.mjs';

// Table 1 of [003]: E_max for m = 2 … 20 (n = 20), rounded to 0.1.
const TABLE1_E = [34.2, 34.0, 33.7, 33.4, 33.2, 32.8, 32.4, 31.5, 30.9, 30.4, 29.6, 28.7, 27.7, 26.7, 25.7, 24.8, 23.8, 22.9, 22.1];
const INSTANCE = { n: 20, S: 25.4, O: 0.075, C: 0.005, a1: 0.109, a2: 4.132, b2: -27109 };

let page;
let server;
let browser;
// The view names only some keys of the request it shows (the form adds the
// instance); its cells are drawn after the result.
const session = pageSession({ timeout: 60000, waitFor: true, exactRequest: false, checkShown: false, onOpen: (s) => ({ page, server, browser } = s) });

const view = () => session.view('isoefficiency');
const MAP = '#view-isoefficiency [data-testid="isomap"]';

/** The number behind a displayed value (data-value keeps all digits). */
const valueOf = (testid) => session.valueOf('isoefficiency', testid);

/** Waits until the view shows the result of `request` (the point it solved). */
const waitForRequest = (request) => session.waitForRequest('isoefficiency', request);

/** Waits for the map of machine counts lo…hi to finish; returns the time the page measured. */
async function mapDone(lo, hi, timeout) {
  const sel = `${MAP}[data-m-range="${lo}-${hi}"]`;
  const handle = await page.waitForFunction((sel) => {
    const b = document.querySelector(sel);
    if (!b) return false;
    if (b.dataset.state === 'error') return 'error';
    return b.dataset.state === 'done' ? 'done' : false;
  }, sel, { timeout });
  assert.equal(await handle.jsonValue(), 'done', `the map m = ${lo}…${hi} failed: ${await page.locator(`${MAP} .isomap-status`).textContent()}`);
  return Number(await page.locator(MAP).getAttribute('data-ms'));
}

async function fillForm(fields) {
  for (const [key, value] of Object.entries(fields)) {
    await view().locator(`[data-testid="field-${key}"]`).fill(Array.isArray(value) ? value.join(', ') : String(value));
  }
}

test('isoefficiency: the default map (Figs. 1-2) against Table 1', async () => {
  const started = Date.now();
  await page.goto(`${server.url}#isoefficiency`);
  // The form's own request: the point of Table 1 at m = 2.
  await waitForRequest({ model: 'isoefficiency', m: 2, V: 134485, ...INSTANCE });
  const E = await valueOf('efficiency');
  assert.ok(E >= 34.2 - 0.05, `E at m = 2, V = 134485 MB: ${E}`);
  assert.equal(await view().getByTestId('proven').textContent(), 'no: best found');
  await mapDone(2, 20, 240000);
  assert.match(await view().getByTestId('where').textContent(), /^(above|below) V_max\(2\) = \d+/);
  // Precomputed at build time by the same core; the page checks it by
  // computing m = 2 again, which must give the same numbers to the bit.
  assert.equal(await page.locator(MAP).getAttribute('data-source'), 'precomputed');
  await page.waitForSelector(`${MAP}[data-verified="true"]`, { timeout: 120000 });
  // So is the default point's answer (its MIP), checked the same way.
  await page.waitForSelector('#view-isoefficiency [data-panel="point"] .panel-body[data-source="precomputed"][data-verified="true"]', { timeout: 120000 });
  console.log(`isomap-full-wall-ms (page open to the checked map): ${Date.now() - started}`);
  console.log(`isomap-full-note: ${(await view().getByTestId('isomap-precomputed').textContent()).trim()}`);
  const got = [];
  for (let m = 2; m <= 20; m++) got.push(await valueOf(`emax-${m}`));
  const met = got.filter((e, i) => e >= TABLE1_E[i] - 0.05).length;
  console.log(`isomap-full-emax: ${got.map((e) => e.toFixed(2)).join(' ')}`);
  // LP budgets, not time, bound the MIPs: the map is the same on every
  // machine, and every E_max meets the paper's within its rounding.
  assert.equal(met, 19, `only ${met} of 19 E_max reach Table 1 of [003]: ${got}`);
  for (let m = 3; m <= 20; m++) assert.ok(await valueOf(`vmax-${m}`) > 5e4, `V_max(${m})`);
  // The E_max points' branch and bound (proof_budget 100 each): at m = 20,
  // one chunk a machine, the root's bound proves the optimum; at m = 2 a gap is left.
  assert.equal((await view().getByTestId('proof-20').textContent()).trim(), 'optimal');
  assert.match((await view().getByTestId('proof-2').textContent()).trim(), /^\d[\d.e-]* %$/);
  await view().locator('[data-chart="map-below"] canvas').first().waitFor();
  await view().locator('[data-chart="map-above"] canvas').first().waitFor();
  // Every level has its isoline on its side of V_max for some m.
  const lines = await page.evaluate(async () => {
    const echarts = await import('./vendor/echarts/echarts.custom.min.js');
    const names = (key) => echarts.getInstanceByDom(document.querySelector(`#view-isoefficiency [data-chart="${key}"]`))
      .getOption().series.filter((s) => s.data.some((d) => typeof d.value?.[1] === 'number')).map((s) => s.name);
    return { below: names('map-below'), above: names('map-above') };
  });
  assert.deepEqual(lines.below.filter((n) => n.startsWith('e =')), ['e = 5', 'e = 10', 'e = 20', 'e = 30']);
  assert.deepEqual(lines.above.filter((n) => n.startsWith('e =')), ['e = 1.5', 'e = 2', 'e = 5', 'e = 10', 'e = 20', 'e = 30']);
  assert.ok(lines.below.includes('MAX') && lines.above.includes('MAX'));
});

test('isoefficiency: the MAX line for m = 2…4 through the form, then a click on the map', async () => {
  await fillForm({ m_lo: 2, m_hi: 4, levels_below: '', levels_above: '' });
  await view().getByTestId('compute').click();
  const ms = await mapDone(2, 4, 60000);
  console.log(`isomap-small-ms: ${ms}`);
  const e2 = await valueOf('emax-2');
  assert.ok(e2 >= 34.2 - 0.05, `E_max(2) = ${e2}, Table 1 of [003]: 34.2`);
  const e3 = await valueOf('emax-3');
  const v3 = await valueOf('vmax-3');
  assert.equal(await view().locator('[data-testid^="emax-"]').count(), 3);

  // Click the MAX line at m = 3: the page solves (3, V_max(3)) alone.
  const chart = view().locator('[data-chart="map-below"]');
  const [x, y] = await page.evaluate(async (v3) => {
    const echarts = await import('./vendor/echarts/echarts.custom.min.js');
    const c = echarts.getInstanceByDom(document.querySelector('#view-isoefficiency [data-chart="map-below"]'));
    return c.convertToPixel({ gridIndex: 0 }, [3, v3]);
  }, v3);
  const clicked = Date.now();
  await chart.click({ position: { x: x + 4, y: y + 3 } }); // near the line: it snaps to it
  const V = Number(v3.toPrecision(6));
  await waitForRequest({ model: 'isoefficiency', m: 3, V });
  console.log(`isopoint-click-ms: ${Date.now() - clicked}`);
  assert.equal(await view().getByTestId('field-m').inputValue(), '3');
  const E = await valueOf('efficiency');
  // The point and the map may search within different budgets: near, not equal.
  assert.ok(E >= 0.9 * e3, `the point's E ${E} is far below the map's E_max(3) ${e3}`);
  await view().locator('[data-chart="gantt"] canvas').first().waitFor();
  const gantt = await page.evaluate(async () => {
    const echarts = await import('./vendor/echarts/echarts.custom.min.js');
    const o = echarts.getInstanceByDom(document.querySelector('#view-isoefficiency [data-chart="gantt"]')).getOption();
    return { rows: o.yAxis[0].data, bars: o.series.map((s) => [s.name, s.data.length]) };
  });
  assert.deepEqual(gantt.rows, ['P0', 'M1', 'M2', 'M3']);
  assert.deepEqual(Object.fromEntries(gantt.bars), { 'machine start-up': 3, communication: 20, computation: 20 });
  const sequence = (await view().getByTestId('sequence').textContent()).split(' → ');
  assert.equal(sequence.length, 20);
  assert.ok(sequence.every((s) => /^M[123]$/.test(s)), sequence.join(' '));
  let total = 0;
  for (let j = 0; j < 20; j++) total += await valueOf(`chunk-${j}`);
  assert.ok(Math.abs(total - V) <= 1e-6 * V, `chunks sum to ${total}, V = ${V}`);
  assert.ok((await valueOf('gap')) >= 0);
  // The map was not recomputed for the point.
  assert.equal(await page.locator(MAP).getAttribute('data-m-range'), '2-4');
  assert.equal(await page.locator(MAP).getAttribute('data-state'), 'done');
  assert.match(await view().getByTestId('where').textContent(), /V_max\(3\)/);
});

test('isoefficiency: Download the MIP gives MIP (2)-(11) of the point as CPLEX-LP and MPS', async () => {
  // The point solved by the click above (m = 3, n = 20): x_i_j = 1 when chunk j goes to machine i.
  const lp = await session.download(view().getByTestId('download-lp'));
  assert.equal(lp.name, 'isoefficiency-mip.lp');
  assert.ok(lp.text.startsWith('\\ MIP (2)-(11) (003)'), `the LP file starts with ${JSON.stringify(lp.text.slice(0, 40))}`);
  assert.match(lp.text, /Minimize[\s\S]*Subject To[\s\S]*\nBinaries\n[\s\S]*^ x_1_1$[\s\S]*\nEnd\n$/m);
  const mps = await session.download(view().getByTestId('download-mps'));
  assert.equal(mps.name, 'isoefficiency-mip.mps');
  assert.match(mps.text, /^\* MIP \(2\)-\(11\) \(003\)/);
  assert.ok(mps.text.includes("'INTORG'"), 'the MPS file marks no integer columns');
  assert.match(mps.text, /\nENDATA\n?$/);
});

test('isoefficiency: a precomputed map that this core does not reproduce is computed again', async () => {
  // A file from another build: E_max at m = 2 off by one.
  const map = JSON.parse(readFileSync(new URL('../../www/pkg/default-map.json', import.meta.url), 'utf8'));
  map.columns[2].E_max[0] += 1;
  const dir = mkdtempSync(join(tmpdir(), 'dlt-map-'));
  const stale = join(dir, 'default-map.json');
  writeFileSync(stale, JSON.stringify(map));
  server.overrides['/pkg/default-map.json'] = stale;
  try {
    await page.goto(`${server.url}?stale#isoefficiency`);
    await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.source === 'computed', MAP, { timeout: 120000 });
    assert.match(await page.locator(`${MAP} .isomap-status`).textContent(), /differs from this core's answer at m = 2: computing the map here/);
    await page.locator(`${MAP} [data-testid="isomap-progress"] button`, { hasText: 'Cancel' }).click();
    await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.state === 'cancelled', MAP);
  } finally {
    delete server.overrides['/pkg/default-map.json'];
    rmSync(dir, { recursive: true, force: true });
  }
});

test('isoefficiency: a map can be cancelled and resumed', async () => {
  await fillForm({ m_lo: 2, m_hi: 7, levels_below: '10', levels_above: '' });
  await view().getByTestId('compute').click();
  const progress = page.locator(`${MAP}[data-m-range="2-7"] [data-testid="isomap-progress"]`);
  await progress.locator('button', { hasText: 'Cancel' }).click();
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.state === 'cancelled', MAP);
  assert.match(await progress.textContent(), /cancelled: \d of 6 machine counts computed/);
  await view().getByTestId('isomap-resume').click();
  await mapDone(2, 7, 90000);
  assert.equal(await view().locator('[data-testid^="emax-"]').count(), 6);
  for (let m = 2; m <= 7; m++) assert.ok((await valueOf(`emax-${m}`)) > 30, `E_max(${m})`);
});

test('isoefficiency: the form checks its ranges', async () => {
  const message = (key, re) => page.waitForFunction(({ key, re }) => new RegExp(re).test(document.querySelector(`#view-isoefficiency [data-testid="error-${key}"]`)?.textContent ?? ''), { key, re: re.source });
  await fillForm({ m_lo: 5, m_hi: 3 });
  await view().getByTestId('compute').click();
  await message('m_hi', /at least the first m/);
  await fillForm({ m_hi: 6, V_lo: 1e5, V_hi: 1e4 });
  await view().getByTestId('compute').click();
  await message('V_hi', /more than the first load/);
  assert.equal(await page.locator('#view-isoefficiency [data-testid="results"]').getAttribute('data-state'), 'invalid');
  // More levels than a map takes: the core's limit, beside the levels.
  const levels = Array.from({ length: 33 }, (_, i) => i + 2).join(', ');
  await fillForm({ m_lo: 2, m_hi: 3, V_lo: 1000, V_hi: 200000, levels_below: '', levels_above: levels });
  await view().getByTestId('compute').click();
  await message('levels_above', /levels must list from 0 to 32 entries, got 33 \(the distinct levels of both lists together\)/);
  await fillForm({ m_lo: 2, m_hi: 3, V_lo: 1000, V_hi: 200000, levels_below: '', levels_above: '' });
  await view().getByTestId('compute').click();
  await mapDone(2, 3, 60000);
  session.assertClean();
});

// ---- the pool alone -----------------------------------------------------------

// A stand-in for worker.js: answers {x} after `delay` ms; `crash` throws,
// `fatal` answers like a wasm trap, `silent` never answers, `refuse` is an
// error of the core.
const FAKE_WORKER = `
self.onmessage = (e) => {
  const { id, request = {} } = e.data;
  if (request.crash) throw new Error('boom');
  if (request.fatal) { postMessage({ id, ok: false, fatal: true, error: { code: 'crash', field: '', message: 'the solver crashed: unreachable' } }); return; }
  if (request.silent) return;
  if (request.refuse) { postMessage({ id, ok: false, error: { code: 'out_of_range', field: 'x', message: 'x is refused' } }); return; }
  setTimeout(() => postMessage({ id, ok: true, response: { x: request.x, extra: 1 } }), request.delay ?? 5);
};`;

test('pool: queue, progress, crash, stall and cancel', async () => {
  const p = await browser.context.newPage();
  await p.goto(`${server.url}#buffers`);
  const out = await p.evaluate(async (src) => {
    const { Pool, defaultPoolSize } = await import('./pool.js');
    const url = URL.createObjectURL(new Blob([src], { type: 'text/javascript' }));
    let created = 0;
    const pool = new Pool({ size: 3, createWorker: () => { created++; return new Worker(url); }, stallMs: 0 });
    const r = { size: defaultPoolSize(), hc: navigator.hardwareConcurrency };
    // A sweep of requests that no core sweep holds (each names itself):
    // every item once, in order, progress 1…n, at most `size` at a time.
    const progress = [];
    let most = 0;
    const items = Array.from({ length: 10 }, (_, i) => ({ x: i, name: `item ${i}`, delay: 20 }));
    items[3] = { refuse: true };
    items[6] = { crash: true };
    items[8] = { fatal: true };
    const crashes = [];
    pool.onCrash((e) => crashes.push(e.code));
    const sample = setInterval(() => { most = Math.max(most, pool.running); }, 2);
    const res = await pool.sweep(items, { pick: ['x'], onProgress: (d, t) => progress.push(`${d}/${t}`) });
    clearInterval(sample);
    r.sweep = res.map((x) => (x.error ? x.error.code : x.x));
    r.picked = Object.keys(res[0]).sort().join(',');
    r.progress = progress.join(' ');
    r.most = most;
    r.crashes = crashes.join(',');
    r.restarts = pool.restarts;
    // A stalled worker is replaced; the error says so.
    r.stall = await pool.solve({ silent: true }, { stallMs: 100 }).then(() => 'answered', (e) => e.code);
    // Cancel: queued tasks dropped, busy workers terminated, the pool goes on.
    const ctl = new AbortController();
    const long = pool.sweep(Array.from({ length: 8 }, (_, i) => ({ x: i, delay: 5000 })), { signal: ctl.signal });
    await new Promise((f) => setTimeout(f, 50));
    const before = created;
    r.runningBefore = pool.running;
    ctl.abort();
    r.cancel = await long.then(() => 'resolved', (e) => `${e.code}: ${e.message}`);
    await new Promise((f) => setTimeout(f, 0));
    r.after = { running: pool.running, queued: pool.queued, alive: pool.alive, spawnedOnCancel: created - before };
    r.next = await pool.solve({ x: 42 }).then((x) => x.x);
    const single = new AbortController();
    const one = pool.solve({ x: 1, delay: 5000 }, { signal: single.signal });
    single.abort();
    r.single = await one.then(() => 'resolved', (e) => e.code);
    pool.terminate();
    r.terminated = pool.alive;
    // The real worker.js: one MIP.
    const real = new Pool({ size: 1 });
    const mip = await real.solve({ model: 'isoefficiency', m: 2, n: 4, V: 1000, S: 25.4, O: 0.075, C: 0.005, a1: 0.109, a2: 4.132, b2: -27109 });
    r.real = [mip.sequence.length, mip.efficiency > 0];
    r.refused = await real.solve({ model: 'isoefficiency', m: 0, n: 4, V: 1000, S: 0, O: 0, C: 0, a1: 1, a2: 2, b2: -1 }).then(() => 'resolved', (e) => `${e.code} ${e.field}`);
    real.terminate();
    return r;
  }, FAKE_WORKER);
  await p.close();
  assert.ok(out.size >= 1 && out.size <= 4 && out.size === Math.max(1, Math.min(4, out.hc)), `pool size ${out.size} for ${out.hc} cores`);
  assert.deepEqual(out.sweep, [0, 1, 2, 'out_of_range', 4, 5, 'crash', 7, 'crash', 9]);
  assert.equal(out.picked, 'x');
  assert.equal(out.progress, Array.from({ length: 10 }, (_, i) => `${i + 1}/10`).join(' '));
  assert.equal(out.most, 3, 'tasks at once on 3 workers');
  assert.equal(out.crashes, 'crash,crash');
  assert.equal(out.restarts, 2);
  assert.equal(out.stall, 'timeout');
  assert.equal(out.runningBefore, 3);
  assert.match(out.cancel, /^cancelled: cancelled after 0 of 8/);
  assert.deepEqual(out.after, { running: 0, queued: 0, alive: 0, spawnedOnCancel: 0 });
  assert.equal(out.next, 42);
  assert.equal(out.single, 'cancelled');
  assert.equal(out.terminated, 0);
  assert.deepEqual(out.real, [4, true]);
  assert.equal(out.refused, 'out_of_range m');
});
