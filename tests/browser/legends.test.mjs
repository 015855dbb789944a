// A line drawn over another with the same points hides it (issue "The page
// a teacher keeps open": "legends list lines that are hidden under a
// coinciding line"). 000 Fig. 11's D = ∞ computes the same makespans as
// D = 1e6 (buffers that large never bind): drawn after it, its legend entry
// says so and it is dashed, so that the line under it shows through. So
// for lines the eye cannot tell apart: the torus view's speedup of k = 4
// stays within 0.3 % of k = 3's (V up to 1e10 keeps both at the same
// phases but for a few).
//
//   node --test --test-concurrency=1 tests/browser/legends.test.mjs   (from
//   the repository root; needs `npm install` in tests/browser and www/pkg built)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageSession } from './harness.mjs';

let page;
let server;
const session = pageSession({ timeout: 60000, onOpen: (s) => { ({ page, server } = s); } });

test('legends: a line hidden under an equal one is named in the legend and dashed', async () => {
  await page.goto('about:blank');
  await page.goto(`${server.url}#v=1&view=gallery&fig=000-fig11`);
  await page.locator('[data-fig="000-fig11"][data-state=done]').waitFor({ timeout: 60000 });
  const seen = await page.evaluate(async () => {
    const { echarts } = await import('./charts.js');
    const o = echarts.getInstanceByDom(document.querySelector('[data-fig="000-fig11"] [data-chart="figure"]')).getOption();
    const lines = o.series.filter((s) => s.type === 'line');
    return lines.map((s) => ({ name: s.name, shown: o.legend[0].formatter(s.name), dash: s.lineStyle.type, ys: s.data.map((p) => p[1]) }));
  });
  const big = seen.findIndex((s) => s.name === 'D = 1e6');
  const inf = seen.findIndex((s) => s.name === 'D = ∞');
  assert.ok(big >= 0 && inf > big, JSON.stringify(seen.map((s) => s.name)));
  // The premise, from the computed points: the two lines are one.
  assert.deepEqual(seen[inf].ys.map((y) => y.toPrecision(12)), seen[big].ys.map((y) => y.toPrecision(12)));
  assert.equal(seen[inf].shown, 'D = ∞ (= D = 1e6)');
  assert.deepEqual(seen[inf].dash, [6, 6]);
  // A line of its own keeps its name and its solid line.
  for (const s of seen.filter((_, i) => i !== inf)) {
    assert.equal(s.shown, s.name);
    assert.ok(!seen.some((t) => t !== s && t.ys.join() === s.ys.join() && seen.indexOf(t) < seen.indexOf(s)), `${s.name} equals an earlier line`);
  }
});

test('legends: a line the eye cannot tell from an earlier one is marked ≈ and dashed', async () => {
  await page.goto('about:blank');
  await page.goto(`${server.url}#v=1&view=torus`);
  await page.waitForFunction(() => document.querySelector('#view-torus [data-panel="sweep"] .progress.finished'), null, { timeout: 60000 });
  const seen = await page.evaluate(async () => {
    const { echarts } = await import('./charts.js');
    const o = echarts.getInstanceByDom(document.querySelector('#view-torus [data-chart="sweep"]')).getOption();
    return o.series.filter((s) => s.type === 'line').map((s) => ({ name: s.name, shown: o.legend[0].formatter(s.name), dash: s.lineStyle.type, ys: s.data.map((p) => p[1]) }));
  });
  const k3 = seen.find((s) => s.name.startsWith('k = 3'));
  const k4 = seen.find((s) => s.name.startsWith('k = 4'));
  // The premise: within 1/200 of the axis's span everywhere, and not equal.
  const all = seen.flatMap((s) => s.ys);
  const span = Math.max(...all) - Math.min(...all);
  const gaps = k4.ys.map((y, i) => Math.abs(y - k3.ys[i]));
  assert.ok(Math.max(...gaps) <= span / 200 && Math.max(...gaps) > 1e-9 * span, `k = 3 and 4 apart by ${Math.max(...gaps)} of ${span}`);
  assert.equal(k4.shown, `${k4.name} (≈ ${k3.name})`);
  assert.deepEqual(k4.dash, [6, 6]);
  for (const s of seen.filter((s) => s !== k4)) assert.equal(s.shown, s.name);
});

test('legends: no console errors, no page errors, nothing fetched from elsewhere', () => {
  session.assertClean({ ignore: /^request failed: .* net::ERR_ABORTED$/ });
});
