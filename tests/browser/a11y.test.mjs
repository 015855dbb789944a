// Accessibility test of the page: axe-core (tests/browser/node_modules) run
// on every view and the gallery, once their results are drawn, in the light
// and the dark colour scheme (the page follows the system's; there is no
// toggle of its own), and on a view with a result pinned beside the one
// shown. No violation may remain, at any impact.
//
//   node --test --test-concurrency=1 tests/browser/a11y.test.mjs   (from the
//   repository root; needs `npm install` in tests/browser and www/pkg built)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pageSession, ROOT } from './harness.mjs';

const AXE = path.join(ROOT, 'tests', 'browser', 'node_modules', 'axe-core', 'axe.min.js');
const PAGES = ['buffers', 'torus', 'memory', 'isoefficiency', 'nonlinear', 'hetero', 'gallery'];

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

// The Explain panel open on a family of rows (its tables, the tight marks), opened by its link.
for (const scheme of ['light', 'dark']) {
  test(`axe: the Explain stepper on a step of rows, ${scheme} scheme, no violations`, async () => {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await page.goto('about:blank');
    await page.goto(`${server.url}#v=1&view=buffers&x.explain=2`);
    await page.locator('#view-buffers [data-testid="explain"][data-state="shown"] [data-testid="explain-rows"]').waitFor({ timeout: 60000 });
    const found = await violations();
    assert.deepEqual(found, [], `explain (${scheme}):\n${found.join('\n')}`);
  });
}

// A pinned result (pin.js): the card "Pinned vs now", the pinned charts below the view's, the captions.
for (const scheme of ['light', 'dark']) {
  test(`axe: a pinned torus result beside the one shown, ${scheme} scheme, no violations`, async () => {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await page.goto('about:blank');
    await page.goto(`${server.url}#v=1&view=torus&S=0.001&pin.S=0.0001`);
    await page.waitForFunction(() => {
      const card = document.querySelector('#view-torus [data-testid="pin-compare"]');
      return card?.dataset.state === 'ready' && !document.querySelector('#view-torus .progress:not(.finished), #view-torus .results.stale');
    }, null, { timeout: 60000 });
    await page.locator('#view-torus [data-testid="pinned-chart-gantt"]').waitFor();
    const found = await violations();
    assert.deepEqual(found, [], `pinned torus (${scheme}):\n${found.join('\n')}`);
  });
}

// ---- dark mode: the charts' colours against their card -----------------------

/** [r, g, b] of '#rgb', '#rrggbb' or 'rgb(a)(…)'. */
function rgbOf(color) {
  if (color.startsWith('#')) {
    const h = color.length === 4 ? [...color.slice(1)].map((c) => c + c).join('') : color.slice(1);
    return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
  }
  return color.match(/[\d.]+/g).slice(0, 3).map(Number);
}

/** WCAG 2 contrast ratio of two opaque colours. */
function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = rgbOf(c).map((v) => v / 255).map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test('both schemes: every series colour, the Gantt chart\'s send, compute and result bars and the reference marks at 3:1 on the chart background', async () => {
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await open('torus');
    const colors = await page.evaluate(async () => {
      const { COLORS } = await import('./charts.js');
      return { bg: COLORS.bg, marks: { ...Object.fromEntries(COLORS.series.map((c, i) => [`series ${i}`, c])), comm: COLORS.comm, compute: COLORS.compute, result: COLORS.result, reference: COLORS.reference, alert: COLORS.alert } };
    });
    for (const [name, color] of Object.entries(colors.marks)) {
      const ratio = contrast(color, colors.bg);
      assert.ok(ratio >= 3, `${scheme}: ${name} ${color} on ${colors.bg} is ${ratio.toFixed(2)}:1`);
    }
  }
});

test('dark scheme: the isoefficiency charts draw lines at 3:1 and text at 4.5:1 on their card, the minor grid faint', async () => {
  await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
  await open('isoefficiency');
  await page.waitForFunction(() => document.querySelector('#view-isoefficiency [data-testid="isomap"]')?.dataset.state === 'done', null, { timeout: 60000 });
  // What every chart of the view draws, read from its ECharts option.
  const charts = await page.evaluate(async () => {
    const { echarts } = await import('./charts.js');
    return [...document.querySelectorAll('#view-isoefficiency [data-chart]')].map((box) => {
      const o = echarts.getInstanceByDom(box).getOption();
      const axes = [...o.xAxis, ...o.yAxis];
      return {
        chart: box.dataset.chart,
        bg: getComputedStyle(box.closest('.card')).backgroundColor,
        lines: o.series.map((s) => [s.name, s.lineStyle?.color ?? s.itemStyle?.color ?? s.color]),
        texts: [
          ...axes.flatMap((a, i) => [[`axis ${i} labels`, a.axisLabel?.color], [`axis ${i} name`, a.nameTextStyle?.color ?? o.textStyle?.color]]),
          ...o.series.flatMap((s) => (s.data ?? []).filter((d) => d?.label?.show).map((d) => [`${s.name}: label`, d.label.color])),
          ...(o.legend ?? []).map((l) => ['legend', l.textStyle?.color]),
        ],
        grids: axes.filter((a) => a.minorSplitLine?.show).map((a) => [a.minorSplitLine.lineStyle.color, a.minorSplitLine.lineStyle.opacity ?? 1]),
      };
    });
  });
  assert.ok(charts.some((c) => c.chart === 'map-below') && charts.some((c) => c.chart === 'map-above'), JSON.stringify(charts.map((c) => c.chart)));
  for (const { chart, bg, lines, texts, grids } of charts) {
    assert.ok(contrast(bg, '#000') < 3, `${chart}: the card is not dark (${bg})`);
    for (const [name, color] of lines) assert.ok(color && contrast(color, bg) >= 3, `${chart}, line ${name}: ${color} on ${bg} is ${color && contrast(color, bg).toFixed(2)}:1`);
    for (const [name, color] of texts) assert.ok(color && contrast(color, bg) >= 4.5, `${chart}, ${name}: ${color} on ${bg} is ${color && contrast(color, bg).toFixed(2)}:1`);
    // Grid lines are a faint guide, not white on dark (the audit's 13:1).
    for (const [color, opacity] of grids) assert.ok(contrast(color, bg) * opacity < 2, `${chart}, minor grid: ${color} at ${opacity} on ${bg}`);
  }
});

// ---- keyboard and layout ---------------------------------------------------

test('the skip link is the first Tab stop and moves the focus to the content, the link in the address bar kept', async () => {
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  await open('torus');
  const hash = await page.evaluate(() => location.hash);
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('Tab');
  const link = await page.evaluate(() => {
    const a = document.activeElement;
    const r = a.getBoundingClientRect();
    return { testid: a.dataset.testid, text: a.textContent, shown: r.top >= 0 && r.height > 0 };
  });
  assert.deepEqual(link, { testid: 'skip-link', text: 'Skip to main content', shown: true });
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'views');
  assert.equal(await page.evaluate(() => location.hash), hash, 'the view\'s link is kept');
  assert.equal(await page.locator('#banner').isHidden(), true, 'no notice about a view "views"');
});

test('Escape closes an Export menu and gives the focus back to its button', async () => {
  await open('torus');
  // A results panel's menu (the Explain panel, first, has nothing to export until its steps show).
  const menu = session.view('torus').locator('[data-panel]:not([data-panel="explain"]) [data-testid="export-menu"]').first();
  const summary = menu.locator('summary');
  await summary.focus();
  await page.keyboard.press('Enter');
  assert.equal(await menu.evaluate((d) => d.open), true, 'Enter opens the menu');
  await page.keyboard.press('Tab');
  assert.equal(await menu.evaluate((d) => d.contains(document.activeElement) && document.activeElement.tagName), 'BUTTON', 'Tab reaches its items');
  await page.keyboard.press('Escape');
  assert.equal(await menu.evaluate((d) => d.open), false, 'Escape closes it');
  assert.equal(await summary.evaluate((s) => s === document.activeElement), true, 'the focus is back on its button');
});

test('every chart is a Tab stop, an image named by its panel\'s title and note', async () => {
  await open('torus');
  const charts = await session.view('torus').locator('[data-chart]').evaluateAll((boxes) => boxes.map((b) => ({ tab: b.tabIndex, role: b.getAttribute('role'), label: b.getAttribute('aria-label') })));
  assert.ok(charts.length >= 2, `${charts.length} charts`);
  for (const c of charts) {
    assert.equal(c.tab, 0);
    assert.equal(c.role, 'img');
    assert.ok(c.label?.length > 10, c.label);
  }
});

test('a projector\'s width is used (no empty column) and hints are 13 px or more', async () => {
  for (const [width, height] of [[1920, 1080], [1880, 1000], [1366, 768]]) {
    await page.setViewportSize({ width, height });
    await open('buffers');
    const got = await page.evaluate(() => {
      const main = document.querySelector('main').getBoundingClientRect();
      const small = [...document.querySelectorAll('#view-buffers :is(.summary dt .hint, .help, .note)')].map((e) => parseFloat(getComputedStyle(e).fontSize));
      return { empty: document.documentElement.clientWidth - main.width, smallest: Math.min(...small), count: small.length };
    });
    assert.ok(got.empty <= 0.08 * width, `${width} px: ${got.empty} px beside the content`);
    assert.ok(got.count > 0 && got.smallest >= 13, `${width} px: hints of ${got.smallest} px`);
  }
  await page.setViewportSize({ width: 1400, height: 900 });
});

test('no console errors, no page errors, nothing fetched from elsewhere', () => {
  // A page left for the next (about:blank) aborts its worker's fetch.
  session.assertClean({ ignore: /^request failed: .* net::ERR_ABORTED$/ });
});
