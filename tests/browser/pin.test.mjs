// Comparison (issue 13): a result pinned stays on the view's charts beside
// the next one. A torus result pinned, V changed: the pinned sweep lines
// over the new ones, the pinned Gantt chart below the new one, "Pinned vs
// now" with both responses' makespans, the pin in the permalink, and that
// permalink opened fresh showing both again. Then the buffers view's
// Cmax-vs-V chart with two sweeps (two start-ups S) side by side.
//
//   node --test --test-concurrency=1 tests/browser/pin.test.mjs   (from the
//   repository root; needs `npm install` in tests/browser and www/pkg built)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageSession } from './harness.mjs';

let page;
let server;
// Sweeps of the pinned result and of the current one share the one worker.
const session = pageSession({ timeout: 90000, exactRequest: false, onOpen: (s) => { ({ page, server } = s); } });

/** The series of chart `key` of view `id` ([{name, type, dashed, data: [[x, y], …]}]), or null when not drawn. */
function seriesOf(id, selector) {
  return page.evaluate(async ({ id, selector }) => {
    const echarts = await import('./vendor/echarts/echarts.custom.min.js');
    const box = document.querySelector(`#view-${id} ${selector}`);
    const chart = box && echarts.getInstanceByDom(box);
    if (!chart) return null;
    return chart.getOption().series.map((s) => ({
      name: s.name,
      type: s.type,
      dashed: s.lineStyle?.type === 'dashed' || s.lineStyle?.type === 'dotted',
      data: (s.data ?? []).map((d) => (d && !Array.isArray(d) && typeof d === 'object' ? d.value : d)),
    }));
  }, { id, selector });
}

/** The response the view shows, as its "Response JSON" would save it. */
async function responseOf(id) {
  const { text } = await session.download(session.view(id).getByTestId('export-response'));
  return JSON.parse(text);
}

/** Waits until the comparison card of view `id` says the pin is drawn, sweeps included, and no sweep of the view runs. */
async function pinReady(id) {
  await page.waitForFunction((id) => {
    const card = document.querySelector(`#view-${id} [data-testid="pin-compare"]`);
    return card && !card.hidden && card.dataset.state === 'ready' && !document.querySelector(`#view-${id} .progress:not(.finished)`);
  }, id, { timeout: 90000 });
}

/** Waits until chart `selector` of view `id` holds `n` series with data. */
async function seriesCount(id, selector, n) {
  await page.waitForFunction(async ({ id, selector, n }) => {
    const echarts = await import('./vendor/echarts/echarts.custom.min.js');
    const box = document.querySelector(`#view-${id} ${selector}`);
    const chart = box && echarts.getInstanceByDom(box);
    return !!chart && (chart.getOption().series ?? []).length === n;
  }, { id, selector, n }, { timeout: 90000 });
}

/** The number a cell of the comparison shows (its data-value). */
async function cell(id, testid) {
  const raw = await session.view(id).getByTestId(testid).getAttribute('data-value');
  assert.ok(raw !== null, `${testid} shows no number`);
  return Number(raw);
}

/** The speedups of the torus sweep's series named `name`, by V. */
function line(series, name) {
  const s = series.find((x) => x.name === name);
  assert.ok(s, `no series “${name}” in ${series.map((x) => x.name).join(', ')}`);
  return s;
}

test('torus: a pinned result stays on the charts and in the comparison, and in its permalink', async () => {
  await page.goto(`${server.url}#v=1&view=torus&k=2&V=1000000`);
  await session.waitForRequest('torus', { model: 'torus', k: 2, V: 1e6 });
  const torus = session.view('torus');
  const first = await responseOf('torus');
  await torus.getByTestId('pin').click();
  await pinReady('torus');

  // A new result: S changed (the sweep's lines change with it), solved.
  await session.computeThroughUi('torus', { S: '0.001' }, { model: 'torus', k: 2, S: 1e-3, V: 1e6 });
  const second = await responseOf('torus');
  assert.notEqual(first.makespan, second.makespan, 'the two results differ');
  await pinReady('torus');
  await seriesCount('torus', '[data-chart="sweep"]', 8);

  // The sweep chart: the four lines of now and the four pinned ones, dashed.
  const sweep = await seriesOf('torus', '[data-chart="sweep"]');
  const pinned = sweep.filter((s) => s.name.endsWith('(pinned)'));
  const now = sweep.filter((s) => !s.name.endsWith('(pinned)'));
  assert.equal(pinned.length, 4, sweep.map((s) => s.name).join(', '));
  assert.equal(now.length, 4);
  assert.ok(pinned.every((s) => s.dashed) && now.every((s) => !s.dashed), 'the pinned lines are dashed, the others not');
  // At V of the form, k = 2: each line holds its own result's speedup.
  const k2 = (s) => s.name.startsWith('k = 2');
  const at = (s, V) => s.data.find(([x]) => Math.abs(x - V) / V < 1e-9)?.[1];
  assert.ok(Math.abs(at(now.find(k2), 1e6) - second.speedup) <= 1e-9 * second.speedup, 'the line of now goes through the result shown');
  assert.ok(Math.abs(at(pinned.find(k2), 1e6) - first.speedup) <= 1e-9 * first.speedup, 'the pinned line goes through the pinned result');

  // The Gantt chart (not a line chart): the pinned one drawn below, captioned, both on one time scale up to the longer Cmax.
  await torus.getByTestId('pinned-chart-gantt').waitFor();
  assert.match(await torus.locator('[data-chart="gantt"] ~ .pinned-chart figcaption').textContent(), /S = 0\.0001/);
  const timeMax = (key) => page.evaluate(async (key) => {
    const echarts = await import('./vendor/echarts/echarts.custom.min.js');
    return echarts.getInstanceByDom(document.querySelector(`#view-torus [data-chart="${key}"]`)).getOption().xAxis[0].max;
  }, key);
  const longer = Math.max(first.makespan, second.makespan);
  assert.equal(await timeMax('gantt'), longer);
  assert.equal(await timeMax('gantt-pinned'), longer);

  // The comparison: both makespans, their difference, the parameter that differs.
  assert.equal(await cell('torus', 'pin-pinned-makespan'), first.makespan);
  assert.equal(await cell('torus', 'pin-now-makespan'), second.makespan);
  assert.ok(Math.abs(await cell('torus', 'pin-diff-makespan') - (second.makespan - first.makespan)) <= 1e-12 * first.makespan);
  assert.equal((await torus.getByTestId('pin-param-pinned-S').textContent()).trim(), '0.0001');
  assert.equal((await torus.getByTestId('pin-param-now-S').textContent()).trim(), '0.001');

  // The permalink holds the pin; opened fresh, it shows both again.
  await page.waitForFunction(() => location.hash.includes('pin.S='));
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /[#&]S=0\.001(&|$)/);
  assert.match(hash, /&pin\.S=0\.0001(&|$)/);
  assert.match(hash, /&pin\.k=2(&|$)/);
  const fresh = await session.browser.context.newPage();
  try {
    await fresh.goto(`${server.url}${hash}`);
    await fresh.waitForFunction(() => {
      const card = document.querySelector('#view-torus [data-testid="pin-compare"]');
      return card && !card.hidden && card.dataset.state === 'ready' && document.querySelector('#view-torus [data-testid="results"]').dataset.state === 'done';
    }, null, { timeout: 90000 });
    const shown = async (testid) => Number(await fresh.locator(`#view-torus [data-testid="${testid}"]`).getAttribute('data-value'));
    assert.equal(await shown('pin-pinned-makespan'), first.makespan);
    assert.equal(await shown('pin-now-makespan'), second.makespan);
    assert.equal(await shown('makespan'), second.makespan);
    await fresh.locator('#view-torus [data-testid="pinned-chart-gantt"]').waitFor();
  } finally {
    await fresh.close();
  }

  // Unpin: the pinned lines leave, and the link loses the pin.
  await torus.getByTestId('unpin').click();
  await seriesCount('torus', '[data-chart="sweep"]', 4);
  assert.equal(await torus.getByTestId('pinned-chart-gantt').count(), 0);
  assert.equal(await torus.getByTestId('pin-compare').isHidden(), true);
  await page.waitForFunction(() => !location.hash.includes('pin.'));
  session.assertClean();
});

test('buffers: two Cmax-vs-V sweeps side by side', async () => {
  await page.goto('about:blank');
  await page.goto(`${server.url}#v=1&view=buffers&topology=star&S=0.001`);
  await session.waitForRequest('buffers', { model: 'star', S: 1e-3 });
  const buffers = session.view('buffers');
  await page.waitForFunction(() => !document.querySelector('#view-buffers .progress:not(.finished)'), null, { timeout: 90000 });
  const before = await seriesOf('buffers', '[data-chart="sweep"]');
  await buffers.getByTestId('pin').click();
  await pinReady('buffers');
  await session.computeThroughUi('buffers', { S: '0.01' }, { model: 'star', S: 1e-2 });
  await pinReady('buffers');
  await seriesCount('buffers', '[data-chart="sweep"]', 2 * before.length);
  const after = await seriesOf('buffers', '[data-chart="sweep"]');
  // The pinned lines are the sweep of S = 0.001, point for point; the others those of S = 0.01, different.
  for (const s of before) {
    const p = line(after, `${s.name} (pinned)`);
    assert.deepEqual(p.data, s.data, `${s.name}: the pinned line is the sweep pinned`);
    assert.notDeepEqual(line(after, s.name).data, s.data, `${s.name}: the line of now is the new sweep`);
  }
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /&pin\.S=0\.001(&|$)/);
  session.assertClean();
});

test('isoefficiency: a pinned point beside another, by its numbers and its schedule (the map is the view\'s own)', async () => {
  await page.goto('about:blank');
  await page.goto(`${server.url}#v=1&view=isoefficiency`);
  await session.waitForRequest('isoefficiency', { model: 'isoefficiency', m: 2, V: 134485 });
  const iso = session.view('isoefficiency');
  const first = await responseOf('isoefficiency');
  await iso.getByTestId('pin').click();
  await pinReady('isoefficiency');
  await session.computeThroughUi('isoefficiency', { m: '3', V: '60000' }, { model: 'isoefficiency', m: 3, V: 6e4 });
  const second = await responseOf('isoefficiency');
  await pinReady('isoefficiency');
  assert.equal(await cell('isoefficiency', 'pin-pinned-makespan'), first.makespan);
  assert.equal(await cell('isoefficiency', 'pin-now-makespan'), second.makespan);
  assert.equal(await cell('isoefficiency', 'pin-pinned-efficiency'), first.efficiency);
  assert.equal(await cell('isoefficiency', 'pin-now-efficiency'), second.efficiency);
  await iso.getByTestId('pinned-chart-gantt').waitFor();
  assert.match(await iso.locator('[data-chart="gantt"] ~ .pinned-chart figcaption').textContent(), /V = 134485/);
  // One map: the pinned point's render drew none of its own.
  assert.equal(await iso.locator('[data-testid="isomap"]').count(), 1);
  assert.match(await page.evaluate(() => location.hash), /&pin\.V=134485(&|$)/);
  session.assertClean();
});

test('a pinned value the form refuses leaves the pin out, with a notice; the view’s own values stay', async () => {
  await page.goto('about:blank');
  await page.goto(`${server.url}#v=1&view=torus&V=2000000&pin.V=abc`);
  await session.waitForRequest('torus', { model: 'torus', k: 2, V: 2e6 });
  assert.equal(await session.view('torus').getByTestId('pin-compare').isHidden(), true);
  assert.match(await page.getByTestId('notice').textContent(), /pinned result is left out.*V/);
  await page.waitForFunction(() => location.hash.includes('V=2000000') && !location.hash.includes('pin.'));
  session.assertClean();
});

test('Back returns to a pinned result, its pin kept', async () => {
  await page.goto('about:blank');
  await page.goto(`${server.url}#v=1&view=torus&S=0.001&pin.S=0.0001`);
  await session.waitForRequest('torus', { model: 'torus', S: 1e-3 });
  await pinReady('torus');
  const pinned = await cell('torus', 'pin-pinned-makespan');
  const now = await session.valueOf('torus', 'makespan');
  assert.notEqual(pinned, now);
  await page.getByTestId('tab-buffers').click();
  await session.waitForRequest('buffers', { model: 'star' });
  await page.goBack();
  await page.waitForFunction(() => !document.querySelector('#view-torus').hidden && location.hash.includes('pin.S=0.0001'));
  await pinReady('torus');
  assert.equal(await cell('torus', 'pin-pinned-makespan'), pinned);
  assert.equal(await cell('torus', 'pin-now-makespan'), now);
  session.assertClean();
});
