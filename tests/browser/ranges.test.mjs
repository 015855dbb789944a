// Browser test of the forms' ranges: they are the core's (its registry,
// `models()`), no view repeats a bound the core lists, and a form still
// flags a value outside the core's range as it is typed.
//
//   node --test tests/browser/        (from the repository root; needs
//   `npm install` in tests/browser and www/pkg built by scripts/build.sh)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageSession } from './harness.mjs';

let page;
const session = pageSession({ timeout: 60000, waitFor: true, onOpen: (s) => ({ page } = s) });
const { view } = session;

test('no view repeats a bound of the core', async () => {
  await page.goto(`${session.server.url}#buffers`);
  await view('buffers').locator('[data-testid="field-m"]').waitFor();
  const repeated = await page.evaluate(async () => {
    const { views } = await import('/views/index.js');
    const { core } = await import('/page.js');
    if (!core.models.length) return ['the page has no models from the core'];
    const out = [];
    for (const v of views) {
      // The models a request of the view may go to: its model for each option of each choice.
      const defaults = Object.fromEntries(v.fields.map((f) => [f.key, f.default]));
      const names = new Set(typeof v.model === 'function'
        ? v.fields.filter((f) => f.kind === 'choice').flatMap((f) => f.choices.map((c) => v.model({ ...defaults, [f.key]: c.value })))
        : [v.model]);
      for (const f of v.fields) {
        const bounds = ['min', 'max', 'gt'].filter((b) => typeof f[b] === 'number');
        const listed = core.models.filter((m) => names.has(m.name) && m.fields.some((x) => x.name === (f.core ?? f.key)));
        if (bounds.length && listed.length) out.push(`${v.id}: ${f.key} has its own ${bounds.join(', ')}; ${listed.map((m) => m.name).join(', ')} lists its range`);
      }
    }
    return out;
  });
  assert.deepEqual(repeated, []);
});

test('a form shows and checks the range of the model its request goes to', async () => {
  await page.goto(`${session.server.url}#buffers`);
  const form = view('buffers');
  const m = form.locator('[data-testid="field-m"]');
  await m.waitFor();
  const field = (key) => form.locator(`.field[data-key="${key}"]`);
  assert.match(await field('m').locator('.range').textContent(), /≥ 1 and ≤ 1000/);
  await m.fill('1001');
  assert.match(await form.locator('[data-testid="error-m"]').textContent(), /≤ 1000/);
  await m.fill('10');
  assert.equal(await form.locator('[data-testid="error-m"]').textContent(), '');
  await form.locator('[data-testid="field-topology"]').selectOption('tree');
  assert.match(await field('p').locator('.range').textContent(), /≥ 1 and ≤ 100\b/);
  await form.locator('[data-testid="field-p"]').fill('101');
  assert.match(await form.locator('[data-testid="error-p"]').textContent(), /≤ 100\b/);
  await form.locator('[data-testid="field-p"]').fill('2');
  await form.locator('[data-testid="field-topology"]').selectOption('star');
});
