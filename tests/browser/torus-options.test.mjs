// Browser test of 001 Sec. 5's torus options through the form (ports, results
// returned, granularity, asynchronous sends) and of the gallery's Figs. 8-9:
// what the page shows is checked against what the paper says of them.
//
//   node --test tests/browser/        (from the repository root; needs
//   `npm install` in tests/browser and www/pkg built by scripts/build.sh)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageSession } from './harness.mjs';

let page;
let server;
const session = pageSession({ timeout: 60000, waitFor: true, onOpen: (s) => ({ page, server } = s) });
const { view, valueOf, waitForRequest, computeThroughUi } = session;

const BASE = { model: 'torus', k: 1, S: 1e-4, C: 1e-7, A: 1e-6, V: 1e5 };

/** Series name -> number of items of a chart in `root` (a CSS selector). */
async function seriesOf(root, key) {
  return page.evaluate(async ({ root, key }) => {
    const { echarts } = await import('./charts.js');
    const o = echarts.getInstanceByDom(document.querySelector(`${root} [data-chart="${key}"]`)).getOption();
    return Object.fromEntries(o.series.map((s) => [s.name, s.data]));
  }, { root, key });
}

test('torus: 1-port sends split each phase into four slots, listed with their slot, and take longer than 4-port', async () => {
  await page.goto(`${server.url}#torus`);
  await waitForRequest('torus', { ...BASE, k: 2, V: 1e6 });
  await computeThroughUi('torus', { k: 1, V: 1e5 }, BASE);
  const four = await valueOf('torus', 'makespan');
  await computeThroughUi('torus', { ports: '1' }, { ...BASE, ports: 1 });
  const one = await valueOf('torus', 'makespan');
  assert.ok(one > four, `1-port Cmax ${one}, 4-port ${four}`);
  const slots = await view('torus').locator('[data-testid="layer-table"] thead th').allTextContents();
  assert.ok(slots.includes('slot'), slots.join(' | '));
  // 25 processors, whatever the slots: the layers' processors add up to 5^(2k).
  assert.equal(await valueOf('torus', 'processors-used'), 25);
});

test('torus: asynchronous sends are never later than the synchronous slots; k beyond their limit is refused beside k', async () => {
  const sync = await valueOf('torus', 'makespan');
  await computeThroughUi('torus', { asynchronous: true }, { ...BASE, ports: 1, asynchronous: true });
  assert.ok((await valueOf('torus', 'makespan')) <= sync * (1 + 1e-12));
  const v = view('torus');
  await v.getByTestId('field-k').fill('3');
  await v.getByTestId('compute').click();
  await page.waitForFunction(() => document.querySelector('#view-torus [data-testid="results"]').dataset.state === 'error');
  assert.match(await v.getByTestId('error-k').textContent(), /asynchronous/);
  await computeThroughUi('torus', { k: 1, asynchronous: false, ports: '4' }, BASE);
});

test('torus: results returned (Fig. 9) are drawn and lengthen the schedule; a ratio of 0 is no return', async () => {
  const plain = await valueOf('torus', 'makespan');
  await computeThroughUi('torus', { return_ratio: 0.5 }, { ...BASE, return_ratio: 0.5 });
  assert.ok((await valueOf('torus', 'makespan')) > plain);
  assert.ok((await seriesOf('#view-torus', 'gantt')).results?.length > 0);
  await computeThroughUi('torus', { return_ratio: 0 }, { ...BASE, return_ratio: 0 });
  assert.ok(Math.abs((await valueOf('torus', 'makespan')) - plain) <= 1e-12 * plain);
  assert.equal((await seriesOf('#view-torus', 'gantt')).results, undefined);
  await computeThroughUi('torus', { return_ratio: '' }, BASE);
});

test('torus: granularity keeps the deviation within Sec. 5’s bound, shown beside it', async () => {
  await computeThroughUi('torus', { granularity: 100 }, { ...BASE, granularity: 100 });
  const deviation = await valueOf('torus', 'deviation');
  const bound = await valueOf('torus', 'deviation-bound');
  assert.ok(deviation >= 0 && deviation <= bound, `deviation ${deviation}, bound ${bound}`);
  const divisible = await valueOf('torus', 'divisible-makespan');
  assert.ok(Math.abs((await valueOf('torus', 'makespan')) - divisible - deviation) <= 1e-12 * divisible);
  await computeThroughUi('torus', { granularity: '' }, BASE);
});

test('gallery: Fig. 8 draws Peters–Syska above the wave front of [4] at every k and V', async () => {
  await page.goto(`${server.url}#v=1&view=gallery&fig=001-fig8`);
  await page.waitForFunction(() => document.querySelector('[data-fig="001-fig8"]')?.dataset.state === 'done', null, { timeout: 120000 });
  assert.equal(await page.locator('[data-fig="001-fig8"] .msg').count(), 0, 'a point was refused or failed');
  const series = await seriesOf('[data-fig="001-fig8"]', 'figure');
  for (const k of [1, 2, 3, 4]) {
    const ps = series[`Peters–Syska, k = ${k}`];
    const wf = series[`wave front [4], k = ${k}`];
    assert.ok(ps?.length && ps.length === wf?.length, `k = ${k}: ${Object.keys(series)}`);
    ps.forEach(([V, s], i) => assert.ok(s >= wf[i][1] * (1 - 1e-12), `k = ${k}, V = ${V}: Peters–Syska ${s}, wave front ${wf[i][1]}`));
  }
});

test('gallery: Fig. 9 opens the torus with results returned, their lane drawn', async () => {
  await page.goto(`${server.url}#v=1&view=gallery&fig=001-fig9`);
  const link = page.locator('[data-fig="001-fig9"] a').first();
  await link.click();
  await waitForRequest('torus', { ...BASE, return_ratio: 0.5 });
  await view('torus').locator('[data-chart="gantt"] canvas').first().waitFor();
  assert.ok((await seriesOf('#view-torus', 'gantt')).results?.length > 0);
});

test('no console errors, no page errors, nothing fetched from elsewhere', () => {
  session.assertClean();
});
