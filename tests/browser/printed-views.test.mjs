// Browser test of the printed values the views list beside the computed
// ones (www/printed.js): each of the three gallery entries a view draws,
// 002 Figs. 3 and 10 and 004 Fig. 6, opened from the gallery, shows the
// paper's numbers, the computed ones and their difference; 004 Fig. 6's
// speed-up is a mark on the chart; other inputs show none of them.
//
//   node --test tests/browser/printed-views.test.mjs   (from the repository
//   root; needs `npm install` in tests/browser and www/pkg built)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageSession } from './harness.mjs';

let page;
let server;
const session = pageSession({ timeout: 60000, waitFor: true, exactRequest: false, onOpen: (s) => ({ page, server } = s) });
const { view, valueOf, computeThroughUi } = session;

/** Opens gallery entry `fig` in its view; returns the printed-values table of `panel`, once shown. */
async function drawFromGallery(fig, id, panel) {
  await page.goto('about:blank');
  await page.goto(`${server.url}#v=1&view=gallery`);
  await page.getByTestId(`draw-${fig}`).click();
  const values = view(id).locator(`[data-panel="${panel}"] [data-testid="paper-values"]`);
  await values.waitFor({ timeout: 60000 });
  return values;
}

/** Nothing broken in view `id`'s text. */
async function noBrokenValues(id) {
  assert.doesNotMatch(await view(id).evaluate((e) => e.textContent), /\bNaN\b|undefined|\[object /, id);
}

/** Row `key` of a view's table: printed, computed and difference, all digits, checked to agree. */
async function row(id, key) {
  const [printed, computed, difference] = [await valueOf(id, `printed-${key}`), await valueOf(id, `computed-${key}`), await valueOf(id, `difference-${key}`)];
  assert.ok(Math.abs(difference - (computed - printed)) <= 1e-12 * Math.max(1, Math.abs(computed)), `${key}: ${computed} − ${printed} shown as ${difference}`);
  return { printed, computed, difference };
}

test('002 Fig. 3: Sec. 2’s example, printed beside the computed, for its inputs only', async () => {
  const values = await drawFromGallery('002-fig3', 'memory', 'fig3');
  const want = {
    'a-makespan': 5.75, 'a-loads-0': 1.25, 'a-loads-1': 0.75,
    'b-makespan': 4.333, 'b-loads-0': 5 / 3, 'b-loads-1': 1 / 3, 'b-real_makespan_under_hierarchy': 10.333,
    'c-makespan': 13.048, 'c-loads-0': 1.095, 'c-loads-1': 0.905, 'c-real_makespan_under_hierarchy': 5.905,
  };
  assert.equal(await values.locator('tbody tr').count(), Object.keys(want).length);
  for (const [key, printed] of Object.entries(want)) {
    const r = await row('memory', key);
    assert.equal(r.printed, printed, key);
    // The paper prints three decimals: the computed values round to them.
    assert.ok(Math.abs(r.difference) < 5e-4, `${key}: ${r.computed} against the printed ${printed}`);
  }
  assert.equal((await row('memory', 'a-makespan')).difference, 0);
  assert.match(await values.locator('caption').textContent(), /printed values beside the computed/);
  assert.deepEqual(await values.locator('thead th').allTextContents(), ['value', 'printed in the paper', 'computed', 'difference']);
  await noBrokenValues('memory');
  // Another load: the printed numbers are not its own (the render takes the table out at once).
  await computeThroughUi('memory', { V: 3 }, { model: 'memory', V: 3 });
  assert.equal(await view('memory').locator('[data-panel="fig3"] [data-testid="paper-values"]').count(), 0);
});

test('002 Fig. 10: the β of (5) and the swap point, printed beside the computed, for the paper’s parameters only', async () => {
  const values = await drawFromGallery('002-fig10', 'memory', 'fig10');
  assert.equal(await values.locator('tbody tr').count(), 2);
  const beta = await row('memory', 'chunk-beta');
  assert.equal(beta.printed, 1e4);
  assert.ok(Math.abs(beta.difference) < 1e-6, JSON.stringify(beta));
  const swp = await row('memory', 'chunk-swap_points-0');
  assert.equal(swp.printed, 1e8);
  assert.ok(Math.abs(swp.difference) < 1e-6 * 1e8, JSON.stringify(swp));
  await noBrokenValues('memory');
  // The sub-form's m changed: other parameters, no printed values.
  await view('memory').getByTestId('fig10-field-m').fill('8');
  // m = 8: β = 8S/(A^l_2 − 8C) = 39.8.
  await page.waitForFunction(() => Number(document.querySelector('#view-memory [data-testid="fig10-beta"]')?.dataset.value) < 100, null, { timeout: 30000 });
  assert.equal(await view('memory').locator('[data-testid="fig10-info"] [data-testid="paper-values"]').count(), 0);
});

test('004 Fig. 6: S’s speed-up at m = 10, marked on the chart and listed beside the computed', async () => {
  const values = await drawFromGallery('004-fig6', 'nonlinear', 'sweep');
  assert.equal(await values.locator('tbody tr').count(), 1);
  const r = await row('nonlinear', 'S-10');
  assert.equal(r.printed, 10.99);
  // 1 + 10·(500·10)/(500·10 + 1), which the paper cuts to two decimals.
  assert.ok(Math.abs(r.computed - (1 + (10 * 5000) / 5001)) < 1e-9, String(r.computed));
  assert.ok(r.difference > 0 && r.difference < 0.01, String(r.difference));
  const marks = () => page.evaluate(async () => {
    const { echarts } = await import('./charts.js');
    const o = echarts.getInstanceByDom(document.querySelector('#view-nonlinear [data-chart="sweep"]')).getOption();
    return o.series.filter((s) => s.name === 'printed in the paper').map((s) => ({ type: s.type, data: s.data }));
  });
  assert.deepEqual(await marks(), [{ type: 'scatter', data: [[10, 10.99]] }]);
  await noBrokenValues('nonlinear');
  // A start-up: another sweep, neither the mark nor the table.
  await computeThroughUi('nonlinear', { theta_cm: 0.5 }, { model: 'nonlinear', theta_cm: 0.5 });
  await page.waitForFunction(() => /\d+ points in \d+ ms/.test(document.querySelector('#view-nonlinear [data-panel="sweep"] [data-testid="progress"]')?.textContent ?? ''), null, { timeout: 60000 });
  assert.deepEqual(await marks(), []);
  assert.equal(await view('nonlinear').locator('[data-panel="sweep"] [data-testid="paper-values"]').count(), 0);
});

test('the gallery’s chart entries show the same table: 004 Fig. 7', async () => {
  await page.goto('about:blank');
  await page.goto(`${server.url}#v=1&view=gallery&fig=004-fig7`);
  const values = page.locator('[data-fig="004-fig7"] [data-testid="paper-values"]');
  await values.waitFor({ timeout: 60000 });
  assert.deepEqual(await values.locator('thead th').allTextContents(), ['value', 'printed in the paper', 'computed', 'difference']);
  const [m7] = await values.locator('tbody tr').first().locator('td').allTextContents();
  assert.match(m7, /M, speed-up at m = 7/);
  assert.equal(await values.locator('tbody tr').count(), 2 + 7 + 7);
  assert.equal(await values.locator('td:has-text("—")').count(), 0);
});

test('no console errors, no page errors, nothing fetched from elsewhere', () => {
  session.assertClean();
});
