// Accessibility test of the page: axe-core (tests/browser/node_modules) run
// on every view and the gallery, once their results are drawn, in the light
// and the dark colour scheme (the page follows the system's; there is no
// toggle of its own). No violation may remain, at any impact.
//
//   node --test --test-concurrency=1 tests/browser/a11y.test.mjs   (from the
//   repository root; needs `npm install` in tests/browser and www/pkg built)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pageSession, ROOT } from './harness.mjs';

const AXE = path.join(ROOT, 'tests', 'browser', 'node_modules', 'axe-core', 'axe.min.js');
const PAGES = ['buffers', 'torus', 'memory', 'isoefficiency', 'nonlinear', 'gallery'];

let page;
let server;
// Served from our own origin: the page's CSP (script-src 'self') refuses an inline script.
const session = pageSession({ timeout: 60000, onOpen: (s) => { ({ page, server } = s); server.overrides['/axe.min.js'] = AXE; } });

/** Opens page `id` and waits until its result and every sweep of it are drawn. */
async function open(id) {
  await page.goto('about:blank');
  await page.goto(`${server.url}#v=1&view=${id}`);
  await page.waitForFunction((id) => {
    const section = document.querySelector(`#view-${id}`);
    if (!section) return false;
    if (id === 'gallery') return section.querySelector('.fig-card') !== null;
    const state = section.querySelector('[data-testid="results"]')?.dataset.state;
    const busy = section.querySelector('.progress:not(.finished), .isomap-status progress, .results.stale');
    return ['done', 'error'].includes(state) && !busy;
  }, id, { timeout: 60000 });
}

/** axe's violations of the page as shown: one line per rule and element. */
async function violations() {
  await page.addScriptTag({ url: '/axe.min.js' });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary.replace(/\s+/g, ' ')}`));
}

for (const scheme of ['light', 'dark']) {
  for (const id of PAGES) {
    test(`axe: ${id}, ${scheme} scheme, no violations`, async () => {
      // Reduced motion: no fade of the results is caught half-way.
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await open(id);
      const found = await violations();
      console.log(`axe-violations ${id} ${scheme}: ${found.length}`);
      assert.deepEqual(found, [], `${id} (${scheme}):\n${found.join('\n')}`);
    });
  }
}

test('no console errors, no page errors, nothing fetched from elsewhere', () => {
  // A page left for the next (about:blank) aborts its worker's fetch.
  session.assertClean({ ignore: /^request failed: .* net::ERR_ABORTED$/ });
});
