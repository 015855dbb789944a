// Browser test of explain mode (www/explain.js), the Explain panel every view
// has: for the LP models (the Buffers view's star and ordinary tree, the
// Memory hierarchy view) the stepper walks the paper's program solved again
// to "The optimum", whose Cmax is the makespan the view shows; Previous/Next,
// the arrow keys, Home and End move between steps; tight rows are marked;
// the step is part of the permalink; a model without steps says so.
//
//   node --test --test-concurrency=1 tests/browser/explain.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageSession } from './harness.mjs';

let page;
let server;
const session = pageSession({ timeout: 60000, waitFor: true, onOpen: (s) => ({ page, server } = s) });
const { view, valueOf, waitForRequest, computeThroughUi, assertClean } = session;

const STAR = { model: 'star', m: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 5e3, D: 1e4, n: 3, prune: 'best' };
const TREE = { model: 'tree', p: 2, h: 4, S: 1e-3, C: 1e-6, A: 1e-3, V: 5e3, D: 1e4, n: 3, order: 'NLF', buffers: 1, prune: 'best' };
const PAPER_PROCESSOR = { S: 1, C: 1, pieces: [[1, 1], [-9, 10]] };
const MEMORY = { model: 'memory', V: 2, processors: [PAPER_PROCESSOR, PAPER_PROCESSOR] };

const explainOf = (id) => view(id).locator('[data-testid="explain"]');

/** Waits until the view's explain panel has answered: 'shown', 'empty' or 'error'. */
async function settled(id) {
  const handle = await page.waitForFunction((id) => {
    const s = document.querySelector(`#view-${id} [data-testid="explain"]`)?.dataset.state;
    return ['shown', 'empty', 'error'].includes(s) && s;
  }, id, { timeout: 60000 });
  return handle.jsonValue();
}

/** The step shown, as the stepper counts it: [k, N]. */
async function stepOf(id) {
  const text = await view(id).getByTestId('explain-count').textContent();
  const m = /^Step (\d+) of (\d+)$/.exec(text);
  assert.ok(m, `the stepper says "${text}"`);
  return [Number(m[1]), Number(m[2])];
}

/** The value named `name` in the values table of the step shown (all its digits). */
async function stepValue(id, name) {
  const cell = view(id).locator('[data-testid="explain-values"] tr', { has: page.locator(`td:text-is("${name}")`) }).locator('td[data-value]');
  return Number(await cell.getAttribute('data-value'));
}

function assertNoNaN(text, what) {
  assert.doesNotMatch(text, /NaN|undefined|Infinity/, `${what} shows ${text.match(/.{0,40}(NaN|undefined|Infinity).{0,40}/)?.[0]}`);
}

/** Opens Explain, checks the moves between steps, ends on "The optimum"; returns its Cmax. */
async function walkToOptimum(id) {
  const v = view(id);
  await v.getByTestId('explain-toggle').click();
  assert.equal(await settled(id), 'shown');
  assert.equal(await v.getByTestId('explain-toggle').getAttribute('aria-expanded'), 'true');
  const [first, n] = await stepOf(id);
  assert.equal(first, 1);
  assert.ok(n >= 3, `${n} steps`);
  assert.ok(await v.getByTestId('explain-prev').isDisabled(), 'Previous at step 1');
  // The buttons.
  await v.getByTestId('explain-next').click();
  assert.deepEqual(await stepOf(id), [2, n]);
  await v.getByTestId('explain-prev').click();
  assert.deepEqual(await stepOf(id), [1, n]);
  // The keys, while the stepper has the focus.
  await v.getByTestId('explain-stepper').focus();
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await stepOf(id), [2, n]);
  // Step 2 is the first family of rows: each with its values, at least one tight and marked so.
  const rows = v.locator('[data-testid="explain-rows"] tbody tr');
  assert.ok(await rows.count() > 0, 'step 2 lists rows');
  const tight = v.locator('[data-testid="explain-rows"] td.explain-tight');
  assert.ok(await tight.count() > 0, 'a tight row is marked');
  assert.equal((await tight.first().textContent()).trim(), 'tight');
  assert.match(await rows.first().locator('td.explain-expr').textContent(), /\[= /);
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual(await stepOf(id), [1, n]);
  await page.keyboard.press('End');
  assert.deepEqual(await stepOf(id), [n, n]);
  assert.ok(await v.getByTestId('explain-next').isDisabled(), 'Next at the last step');
  await page.keyboard.press('ArrowRight'); // no step after the last
  assert.deepEqual(await stepOf(id), [n, n]);
  await page.keyboard.press('Home');
  assert.deepEqual(await stepOf(id), [1, n]);
  // Every step reads without NaN; the last is the optimum.
  for (let k = 1; k <= n; k++) {
    assertNoNaN(await explainOf(id).textContent(), `step ${k}`);
    assert.ok((await v.getByTestId('explain-title').textContent()).trim(), `step ${k} has a title`);
    assert.ok((await v.getByTestId('explain-source').textContent()).trim().length > 'Source: '.length, `step ${k} names its source`);
    if (k < n) await v.getByTestId('explain-next').click();
  }
  assert.equal(await v.getByTestId('explain-title').textContent(), 'The optimum');
  return stepValue(id, 'Cmax');
}

function assertSame(got, want, what) {
  assert.ok(Math.abs(got - want) <= 1e-9 * Math.abs(want), `${what}: explain's Cmax ${got}, the view's makespan ${want}`);
}

test('buffers: the default star explained to its optimum, which is the makespan shown', async () => {
  await page.goto(`${server.url}#buffers`);
  await waitForRequest('buffers', STAR);
  assert.equal(await explainOf('buffers').getAttribute('data-state'), 'closed');
  const makespan = await valueOf('buffers', 'makespan');
  assertSame(await walkToOptimum('buffers'), makespan, 'star');
  const source = view('buffers').getByTestId('explain-source');
  assert.match(await source.textContent(), /LoadDirect \(000\), \(1\)-\(5\) — \[000\] \(1\)-\(5\) Drozdowski/);
  // The papers are not shipped: the link finds the paper by its title.
  const href = decodeURIComponent(await view('buffers').getByTestId('explain-paper-link').getAttribute('href'));
  assert.match(href, /^https:\/\/scholar\.google\.com\/scholar\?q="Performance limits of divisible load processing in systems with limited communication buffers"$/);
  // A family of rows names LoadDirect's equation: rows next are (1)-(2) of [000].
  await view('buffers').getByTestId('explain-stepper').focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  assert.match(await view('buffers').getByTestId('explain-title').textContent(), /^Rows next \(1\)-\(2\): /);
  assert.equal(await view('buffers').getByTestId('explain-paper-link').textContent(), '[000] (1)-(2)');
});

test('buffers: the step shown is in the link, and a link opens it', async () => {
  const [k, n] = await stepOf('buffers');
  await page.waitForFunction((k) => location.hash.includes(`x.explain=${k}`), k);
  const hash = await page.evaluate(() => location.hash);
  await page.goto('about:blank');
  await page.goto(`${server.url}${hash}`);
  await waitForRequest('buffers', STAR);
  assert.equal(await settled('buffers'), 'shown');
  assert.deepEqual(await stepOf('buffers'), [k, n]);
  // Hide: closed, and out of the link.
  await view('buffers').getByTestId('explain-toggle').click();
  assert.equal(await explainOf('buffers').getAttribute('data-state'), 'closed');
  await page.waitForFunction(() => !location.hash.includes('x.explain'));
});

test('buffers: an ordinary tree, and the open stepper follows a new result', async () => {
  await view('buffers').getByTestId('explain-toggle').click();
  assert.equal(await settled('buffers'), 'shown');
  await computeThroughUi('buffers', { topology: 'tree' }, { ...TREE });
  await page.waitForFunction(() => {
    const title = document.querySelector('#view-buffers [data-testid="explain-source"]')?.textContent ?? '';
    return /tree/.test(title) && document.querySelector('#view-buffers [data-testid="explain"]').dataset.state === 'shown';
  });
  await view('buffers').getByTestId('explain-toggle').click(); // closes
  const makespan = await valueOf('buffers', 'makespan');
  assertSame(await walkToOptimum('buffers'), makespan, 'ordinary tree');
});

test('memory: the default hierarchy explained to its optimum, which is the makespan shown', async () => {
  await page.goto(`${server.url}#memory`);
  await waitForRequest('memory', MEMORY);
  const makespan = await valueOf('memory', 'makespan');
  assertSame(await walkToOptimum('memory'), makespan, 'memory');
  assert.match(await view('memory').getByTestId('explain-source').textContent(), /\(002\)/);
});

test('the other views: their steps if the core has any, else the empty state', async () => {
  for (const id of ['torus', 'isoefficiency', 'nonlinear']) {
    await page.goto(`${server.url}#${id}`);
    await page.waitForFunction((id) => document.querySelector(`#view-${id} [data-testid="results"]`)?.dataset.state === 'done', id, { timeout: 60000 });
    await view(id).getByTestId('explain-toggle').click();
    const state = await settled(id);
    assert.notEqual(state, 'error', `${id}: ${await explainOf(id).textContent()}`);
    const text = await explainOf(id).textContent();
    if (state === 'empty') assert.match(text, /No steps for this model yet/);
    else assert.equal((await stepOf(id))[0], 1);
    assertNoNaN(text, id);
  }
});

test('a model without steps shows the empty state', async () => {
  await page.goto('about:blank');
  await page.goto(`${server.url}#memory`);
  await waitForRequest('memory', MEMORY);
  // The core as it answers a model it cannot explain yet.
  await page.evaluate(async () => { (await import('./page.js')).solver.explain = async () => ({ steps: [] }); });
  await view('memory').getByTestId('explain-toggle').click();
  assert.equal(await settled('memory'), 'empty');
  assert.match(await explainOf('memory').textContent(), /No steps for this model yet/);
  await page.evaluate(async () => { delete (await import('./page.js')).solver.explain; });
  // Leaving a page aborts what its workers were still loading.
  assertClean({ ignore: /^request failed: .* net::ERR_ABORTED$/ });
});
