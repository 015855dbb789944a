// Keyboard-only runs of the page (issue "The page a teacher keeps open"):
// no mouse click anywhere, only focus and keys. A solve through the torus
// form, a CSV through a panel's Export menu, a pick on the isoefficiency
// map (the same point a click solves), the arrow keys over a line chart
// with its live region, and a chart's data table (the rows of its CSV),
// checked by axe while open.
//
//   node --test --test-concurrency=1 tests/browser/keyboard.test.mjs   (from
//   the repository root; needs `npm install` in tests/browser and www/pkg built)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pageSession, ROOT } from './harness.mjs';

const AXE = path.join(ROOT, 'tests', 'browser', 'node_modules', 'axe-core', 'axe.min.js');

let page;
let server;
// The isoefficiency view names only some keys of its request and draws its cells after the result.
const session = pageSession({ timeout: 60000, waitFor: true, exactRequest: false, onOpen: (s) => { ({ page, server } = s); server.overrides['/axe.min.js'] = AXE; } });

const torus = () => session.view('torus');
const iso = () => session.view('isoefficiency');

/** The text the chart's live region reads. */
const liveOf = (scope, key) => scope.locator(`[data-chart="${key}"] + .chart-tools [data-testid="chart-live"]`).textContent();

/** The data of chart `key` of view `id`: [{name, data: [[x, y, …], …]}]. */
function seriesOf(id, key) {
  return page.evaluate(async ({ id, key }) => {
    const echarts = await import('./vendor/echarts/echarts.custom.min.js');
    const o = echarts.getInstanceByDom(document.querySelector(`#view-${id} [data-chart="${key}"]`)).getOption();
    return o.series.map((s) => ({ name: s.name, data: s.data.map((d) => (d && !Array.isArray(d) && typeof d === 'object' ? d.value : d)) }));
  }, { id, key });
}

/** Presses Tab until `locator` has the focus (at most `most` times). */
async function tabTo(locator, most = 20) {
  for (let i = 0; i < most; i++) {
    if (await locator.evaluate((e) => e === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`Tab did not reach ${locator}`);
}

/** Waits for the torus's sweep chart to be drawn. */
async function sweepDrawn() {
  await torus().locator('[data-chart="sweep"] canvas').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('#view-torus .progress:not(.finished)'), null, { timeout: 60000 });
}

test('keyboard: a solve through the torus form (type a value, Enter)', async () => {
  await page.goto(`${server.url}#v=1&view=torus`);
  await session.waitForRequest('torus', { model: 'torus', k: 2, V: 1e6 });
  const before = await session.valueOf('torus', 'makespan');
  const field = torus().getByTestId('field-V');
  await field.focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('2e6');
  await page.keyboard.press('Enter');
  await session.waitForRequest('torus', { model: 'torus', k: 2, V: 2e6 });
  assert.equal(await session.valueOf('torus', 'total-load'), 2e6);
  // Twice the load, (nearly) twice the time: the same phases, start-ups aside.
  const after = await session.valueOf('torus', 'makespan');
  assert.ok(after > 1.9 * before && after < 2.1 * before, `Cmax ${before} s, then ${after} s`);
  // The form's Compute button, reached by Tab and pressed with Space, solves it too.
  await field.focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('1e6');
  await tabTo(torus().getByTestId('compute'));
  await page.keyboard.press('Space');
  await session.waitForRequest('torus', { model: 'torus', k: 2, V: 1e6 });
  assert.equal(await session.valueOf('torus', 'makespan'), before);
});

test('keyboard: a chart\'s CSV through its panel\'s Export menu', async () => {
  await sweepDrawn();
  const menu = torus().locator('[data-panel="sweep"] [data-testid="export-menu"]');
  await menu.locator('summary').focus();
  await page.keyboard.press('Enter');
  assert.equal(await menu.evaluate((d) => d.open), true, 'Enter opens the menu');
  const csv = menu.getByTestId('export-csv-sweep');
  await tabTo(csv);
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 60000 }), page.keyboard.press('Enter')]);
  assert.equal(dl.suggestedFilename(), 'torus-sweep-sweep.csv');
  const text = (await import('node:fs')).readFileSync(await dl.path(), 'utf8');
  const [head, first] = text.split('\r\n');
  const series = await seriesOf('torus', 'sweep');
  assert.deepEqual(head.split(',').slice(1), series.map((s) => s.name));
  assert.equal(Number(first.split(',')[0]), Math.min(...series.flatMap((s) => s.data.map((d) => d[0]))));
  await page.keyboard.press('Escape');
  assert.equal(await menu.evaluate((d) => d.open), false);
});

test('keyboard: the arrow keys move over a line chart\'s points and the live region reads them', async () => {
  await sweepDrawn();
  const series = await seriesOf('torus', 'sweep');
  const chart = torus().locator('[data-chart="sweep"]');
  await chart.focus();
  assert.equal(await chart.getAttribute('aria-keyshortcuts'), 'ArrowLeft ArrowRight ArrowUp ArrowDown Home End Enter Escape');
  const y = await page.evaluate(() => window.scrollY);
  await page.keyboard.press('ArrowRight');
  const first = await liveOf(torus(), 'sweep');
  assert.match(first, new RegExp(`^${series[0].name.replace(/[()[\]+*.?]/g, '\\$&')}: `), first);
  await page.keyboard.press('ArrowRight');
  const second = await liveOf(torus(), 'sweep');
  assert.notEqual(second, first, 'Right moves to the next point');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await liveOf(torus(), 'sweep'), first, 'Left moves back');
  await page.keyboard.press('End');
  const last = await liveOf(torus(), 'sweep');
  assert.notEqual(last, first);
  await page.keyboard.press('Home');
  assert.equal(await liveOf(torus(), 'sweep'), first, 'Home: the first point');
  await page.keyboard.press('ArrowDown');
  assert.ok((await liveOf(torus(), 'sweep')).startsWith(`${series[1].name}: `), 'Down: the next series');
  // The tooltip shows the point the keys are on.
  assert.equal(await chart.locator('div').filter({ hasText: series[1].name }).last().isVisible(), true);
  assert.equal(await page.evaluate(() => window.scrollY), y, 'the keys do not scroll the page');
  await page.keyboard.press('Escape');
  assert.equal(await liveOf(torus(), 'sweep'), '', 'Escape leaves the point');
});

test('keyboard: a chart\'s data table shows its CSV rows, its first row the chart\'s first point', async () => {
  await sweepDrawn();
  const toggle = torus().getByTestId('data-table-sweep');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  await toggle.focus();
  await page.keyboard.press('Enter');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  const holder = torus().locator(`#${await toggle.getAttribute('aria-controls')}`);
  const table = holder.locator('table.data');
  await table.waitFor();
  const series = await seriesOf('torus', 'sweep');
  const head = await table.locator('thead th').allTextContents();
  assert.deepEqual(head.slice(1), series.map((s) => s.name));
  const cells = await table.locator('tbody tr').first().locator('td').evaluateAll((tds) => tds.map((td) => td.getAttribute('data-value')));
  const [x, y] = series[0].data[0];
  assert.equal(Number(cells[0]), x);
  assert.equal(Number(cells[1]), y);
  assert.equal(await table.locator('tbody tr').count(), new Set(series.flatMap((s) => s.data.map((d) => d[0]))).size);
  // Open, it passes axe too; the Export menu does not list it (it is the chart's CSV).
  await page.addScriptTag({ url: '/axe.min.js' });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const found = result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
  assert.deepEqual(found, []);
  const menu = torus().locator('[data-panel="sweep"] [data-testid="export-menu"]');
  await menu.locator('summary').focus();
  await page.keyboard.press('Enter');
  assert.equal(await menu.locator('[data-testid^="export-table-"]').count(), 0);
  await page.keyboard.press('Escape');
  await toggle.focus();
  await page.keyboard.press('Space');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  assert.equal(await holder.isHidden(), true);
});

test('keyboard: a pick on the isoefficiency map solves the point a click on it solves', async () => {
  await page.goto('about:blank');
  await page.goto(`${server.url}#v=1&view=isoefficiency&m_hi=3&levels_below=10&levels_above=2`);
  await page.waitForFunction(() => document.querySelector('#view-isoefficiency [data-testid="isomap"]')?.dataset.state === 'done', null, { timeout: 90000 });
  const v3 = await session.valueOf('isoefficiency', 'vmax-3');
  const chart = iso().locator('[data-chart="map-below"]');
  await chart.focus();
  // Down over the series to MAX, Home to its first machine count, Right to m = 3.
  await page.keyboard.press('ArrowRight');
  for (let i = 0; i < 5 && !(await liveOf(iso(), 'map-below')).startsWith('MAX:'); i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  const read = await liveOf(iso(), 'map-below');
  assert.match(read, /^MAX: .*machines m 3$/, read);
  await page.keyboard.press('Enter');
  // What the click of isoefficiency.test.mjs on the MAX line at m = 3 solves.
  await session.waitForRequest('isoefficiency', { model: 'isoefficiency', m: 3, V: Number(v3.toPrecision(6)) });
  assert.equal(await iso().getByTestId('field-m').inputValue(), '3');
  assert.ok(await session.valueOf('isoefficiency', 'efficiency') > 0);
  assert.match(await iso().getByTestId('where').textContent(), /V_max\(3\)/);
  await iso().locator('[data-chart="gantt"] canvas').first().waitFor();
});

test('keyboard: a gallery figure is a Tab stop with the same keys and data table as a view\'s chart', async () => {
  await page.goto('about:blank');
  await page.goto(`${server.url}#v=1&view=gallery&fig=004-fig7`);
  const card = page.locator('[data-fig="004-fig7"]');
  await card.locator('[data-chart="figure"] canvas').first().waitFor({ timeout: 60000 });
  await page.locator('[data-fig="004-fig7"][data-state=done]').waitFor({ timeout: 60000 });
  const chart = card.locator('[data-chart="figure"]');
  assert.equal(await chart.getAttribute('tabindex'), '0');
  await chart.focus();
  await page.keyboard.press('ArrowRight');
  const live = () => card.locator('[data-chart="figure"] + .chart-tools [data-testid="chart-live"]').textContent();
  assert.match(await live(), /^algorithm M: .*speedup/);
  await page.keyboard.press('Escape');
  const toggle = card.getByTestId('data-table-figure');
  await toggle.focus();
  await page.keyboard.press('Enter');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  const head = await card.locator('.chart-table table thead th').allTextContents();
  assert.deepEqual(head.slice(1, 3), ['algorithm M', 'algorithm S']);
  assert.ok(await card.locator('.chart-table table tbody tr').count() >= 7, 'a row per m = 1..7');
});

test('keyboard: no console errors, no page errors, nothing fetched from elsewhere', () => {
  session.assertClean({ ignore: /^request failed: .* net::ERR_ABORTED$/ });
});
