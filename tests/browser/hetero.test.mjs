// Browser test of the "Heterogeneous star" view (hetero_star): the worked
// example of examples/hetero_star.json through the form, its loads checked
// against the schedule's own equations (everyone served finishes at Cmax),
// the orders compared, the return phase drawn, and bad input beside its field.
//
//   node --test tests/browser/        (from the repository root; needs
//   `npm install` in tests/browser and www/pkg built by scripts/build.sh)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pageSession, ROOT } from './harness.mjs';

let page;
let server;
const session = pageSession({ timeout: 60000, waitFor: true, onOpen: (s) => ({ page, server } = s) });
const { view, valueOf, waitForRequest, computeThroughUi } = session;

const EXAMPLE = JSON.parse(readFileSync(path.join(ROOT, 'examples', 'hetero_star.json'), 'utf8'));
const m = EXAMPLE.processors.length;

/** The series of a view's chart: name and number of items. */
async function seriesOf(key) {
  return page.evaluate(async (key) => {
    const { echarts } = await import('./charts.js');
    const o = echarts.getInstanceByDom(document.querySelector(`#view-hetero [data-chart="${key}"]`)).getOption();
    return Object.fromEntries(o.series.map((s) => [s.name ?? s.type, s.data.map((d) => d?.value ?? d)]));
  }, key);
}

async function loads() {
  const out = [];
  for (let i = 0; i < m; i++) out.push(await valueOf('hetero', `load-${i}`));
  return out;
}

test('hetero: the worked example, best order and subset, proven, every processor served finishes at Cmax', async () => {
  await page.goto(`${server.url}#hetero`);
  await waitForRequest('hetero', EXAMPLE);
  const cmax = await valueOf('hetero', 'makespan');
  assert.match(await view('hetero').getByTestId('proven').textContent(), /proven optimal/);
  const lb = await valueOf('hetero', 'lower-bound');
  assert.ok(lb <= cmax && lb >= cmax * (1 - 1e-9), `lower bound ${lb}, Cmax ${cmax}`);
  const a = await loads();
  assert.ok(Math.abs(a.reduce((s, x) => s + x, 0) - EXAMPLE.V) <= 1e-9 * EXAMPLE.V, `loads ${a} do not sum to V`);
  // P5's start-up of 30 costs more than it saves: not served, no start-up.
  assert.equal(a[4], 0);
  // The sequence shown, and the schedule's equations redone here: P_j ends
  // computing at the sum of the messages up to its own plus A_j α_j.
  const seq = (await view('hetero').getByTestId('sequence').textContent()).split(' → ').map((s) => Number(s.slice(1)));
  assert.equal(seq.length, 4);
  let clock = 0;
  for (const j of seq) {
    const p = EXAMPLE.processors[j - 1];
    clock += p.S + p.C * a[j - 1];
    const end = clock + p.A * a[j - 1];
    assert.ok(Math.abs(end - cmax) <= 1e-9 * cmax, `P${j} ends at ${end}, Cmax ${cmax}`);
  }
  // The orders compared: as listed, by C_i, by A_i and the best, the best shortest.
  const orders = Object.values(await seriesOf('orders'))[0];
  assert.equal(orders.length, 4);
  assert.ok(Math.abs(orders[3] - cmax) <= 1e-12 * cmax, `best bar ${orders[3]}, Cmax ${cmax}`);
  for (const x of orders) assert.ok(x >= cmax * (1 - 1e-12), `an order beats the best: ${orders}`);
  assert.ok(orders[0] > cmax * 1.01 && orders[2] > cmax * 1.1, `the listed order and the one by A_i should be visibly worse: ${orders}`);
  const gantt = await seriesOf('gantt');
  assert.equal(gantt.computation.length, 4);
  assert.equal(gantt.results, undefined);
});

test('hetero: results returned are drawn on their senders and lengthen the schedule; FIFO and LIFO both answer', async () => {
  const before = await valueOf('hetero', 'makespan');
  const request = { ...EXAMPLE, return: { ratio: 0.5, policy: 'FIFO' } };
  await computeThroughUi('hetero', { ratio: 0.5 }, request);
  const fifo = await valueOf('hetero', 'makespan');
  assert.ok(fifo > before, `with results Cmax ${fifo}, without ${before}`);
  const gantt = await seriesOf('gantt');
  const served = (await loads()).filter((x) => x > 0).length;
  assert.equal(gantt.results.length, served);
  await computeThroughUi('hetero', { policy: 'LIFO' }, { ...request, return: { ratio: 0.5, policy: 'LIFO' } });
  assert.ok((await valueOf('hetero', 'makespan')) > before);
  // A ratio of 0 returns nothing (the order of returns then moot): the schedule without results.
  await computeThroughUi('hetero', { ratio: 0 }, { ...request, return: { ratio: 0, policy: 'FIFO' } });
  assert.ok(Math.abs((await valueOf('hetero', 'makespan')) - before) <= 1e-12 * before);
  assert.equal((await seriesOf('gantt')).results, undefined);
  await computeThroughUi('hetero', { ratio: '' }, EXAMPLE);
});

test('hetero: the order as listed uses the processors in their order, and bad input is answered beside its field', async () => {
  await computeThroughUi('hetero', { order: 'given' }, { ...EXAMPLE, order: 'given' });
  const seq = (await view('hetero').getByTestId('sequence').textContent()).split(' → ').map((s) => Number(s.slice(1)));
  assert.deepEqual(seq, [...seq].sort((x, y) => x - y));
  const v = view('hetero');
  await v.getByTestId('field-processors-1-A').fill('-2');
  await v.getByTestId('compute').click();
  await page.waitForFunction(() => document.querySelector('#view-hetero [data-testid="error-processors"]')?.textContent);
  // The core's range of A_i, asked for by the page: refused before any solve.
  assert.match(await v.getByTestId('error-processors').textContent(), /^P2, A_i: A_i must be from 1e-30/);
  await v.getByTestId('field-processors-1-A').fill('2');
  await v.getByTestId('field-V').fill('-1');
  await v.getByTestId('compute').click();
  await page.waitForFunction(() => /V/.test(document.querySelector('#view-hetero [data-testid="error-V"]')?.textContent ?? ''));
  await v.getByTestId('field-V').fill('100');
  await computeThroughUi('hetero', { order: 'best' }, EXAMPLE);
});

test('no NaN or undefined on the view', async () => {
  const text = await view('hetero').evaluate((e) => e.textContent);
  assert.doesNotMatch(text, /\bNaN\b|undefined|\[object /);
});

test('no console errors, no page errors, nothing fetched from elsewhere', () => {
  session.assertClean();
});
