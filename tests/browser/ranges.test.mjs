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
    // Each view's form and its sub-forms (`forms`), with the models their requests may go to.
    const forms = views.flatMap((v) => [v, ...(v.forms ?? []).map((f) => ({ ...f, id: `${v.id}/${f.id}` }))]);
    for (const v of forms) {
      // The form's model for each option of each choice.
      const defaults = Object.fromEntries(v.fields.map((f) => [f.key, f.default]));
      const formModels = typeof v.model === 'function'
        ? v.fields.filter((f) => f.kind === 'choice').flatMap((f) => f.choices.map((c) => v.model({ ...defaults, [f.key]: c.value })))
        : [v.model];
      // A field, and a table's column, by the name the core lists it under.
      const specs = v.fields.flatMap((f) => [{ f, models: f.model ? [f.model] : formModels, key: f.key },
        ...(f.columns ?? []).map((c) => ({ f: c, models: f.model ? [f.model] : formModels, key: `${f.key}.${c.key}` }))]);
      for (const { f, models, key } of specs) {
        if (!models.every((name) => core.models.some((m) => m.name === name))) out.push(`${v.id}: ${key} goes to a model the core does not have: ${models.join(', ')}`);
        const bounds = ['min', 'max', 'gt'].filter((b) => typeof f[b] === 'number');
        const listed = core.models.filter((m) => models.includes(m.name) && m.fields.some((x) => x.name === (f.core ?? f.key)));
        if (bounds.length && listed.length) out.push(`${v.id}: ${key} has its own ${bounds.join(', ')}; ${listed.map((m) => m.name).join(', ')} lists its range`);
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

test('a table, a sub-form and a field of another request take their ranges from the core', async () => {
  // memory's processors' S (a column), Fig. 10's m (chunk_size) and β′ (multi_installment).
  await page.goto(`${session.server.url}#memory`);
  const memory = view('memory');
  const s = memory.locator('[data-testid="field-processors-0-S"]');
  await s.waitFor();
  await s.fill('-1');
  assert.match(await memory.locator('[data-testid="error-processors"]').textContent(), /P1, S_i: .*0 or from 1e-30 to 1e15/);
  await s.fill('1');
  assert.equal(await memory.locator('[data-testid="error-processors"]').textContent(), '');
  const m = memory.locator('[data-testid="fig10-field-m"]');
  await m.waitFor();
  assert.match(await memory.locator('.field[data-key="m"] .range').textContent(), /≥ 1 and ≤ 100000\b/);
  assert.match(await memory.locator('.field[data-key="beta2"] .range').textContent(), /from 1e-30 to 1e15/);
  await memory.locator('[data-testid="fig10-field-beta2"]').fill('0');
  assert.match(await memory.locator('[data-testid="fig10-error-beta2"]').textContent(), /from 1e-30 to 1e15/);
  await memory.locator('[data-testid="fig10-field-beta2"]').fill('5');
  // The isoefficiency map's width and levels (isoefficiency_map) beside the point's fields (isoefficiency).
  await page.goto(`${session.server.url}#isoefficiency`);
  const iso = view('isoefficiency');
  await iso.locator('[data-testid="field-width"]').waitFor();
  assert.match(await iso.locator('.field[data-key="width"] .range').textContent(), /from 1e-30 to 1e15/);
  assert.match(await iso.locator('.field[data-key="levels_below"] .range').textContent(), /from 1e-30 to 1e15/);
  await iso.locator('[data-testid="field-width"]').fill('0');
  assert.match(await iso.locator('[data-testid="error-width"]').textContent(), /from 1e-30 to 1e15/);
  await iso.locator('[data-testid="field-width"]').fill('100');
});

test('a number beyond the core\'s magnitudes is refused as typed, in a short message that goes when it is corrected', async () => {
  // V = 1e308 was sent to the core, which spelt it out in 309 digits; the
  // message widened the page to 3,365 px and stayed after V was corrected.
  await page.goto(`${session.server.url}#buffers`);
  const form = view('buffers');
  const v = form.locator('[data-testid="field-V"]');
  await v.waitFor();
  assert.match(await form.locator('.field[data-key="V"] .range').textContent(), /from 1e-30 to 1e15/);
  await v.fill('1e308');
  const msg = form.locator('[data-testid="error-V"]');
  assert.equal(await msg.textContent(), 'V must be from 1e-30 to 1e15');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'the page grew wider than the window');
  await v.fill('5000');
  assert.equal(await msg.textContent(), '');
});
