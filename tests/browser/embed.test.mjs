// Browser test of the page in a frame and of the gallery's sharing: a
// gallery card's embed code, put in a 600x500 frame of another page, shows
// that card alone (its chart drawn, its numbers, its parameters, a link to
// the calculator) without horizontal scrolling; an embedded view shows its
// headline numbers beside its chart; a card's Share link reopens the card;
// the gallery's filter is one radio group (one Tab stop, arrows).
//
//   node --test --test-concurrency=1 tests/browser/embed.test.mjs   (from the repository root)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageSession, watchErrors } from './harness.mjs';

let page;
let server;
let browser;
const session = pageSession({
  onOpen: async (s) => {
    ({ page, server, browser } = s);
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.replace(/\/$/, '') });
  },
});
const { errors } = session;

const card = (id) => page.locator(`[data-fig="${id}"]`);

/** Opens the gallery at figure `fig` on a fresh load. */
async function openGallery(fig) {
  await page.goto('about:blank');
  await page.goto(`${server.url}#v=1&view=gallery${fig ? `&fig=${fig}` : ''}`);
  await page.locator('.fig-card').first().waitFor();
}

/** What a card's Share or Embed button copied (the box beside it shows it too). */
async function copied(id, button) {
  await card(id).getByTestId(button).click();
  await page.waitForFunction((id) => /copied|box/.test(document.querySelector(`[data-fig="${id}"] [data-testid=share-status]`).textContent), id);
  return card(id).getByTestId('share-url').inputValue();
}

test('a gallery card’s embed code shows that card alone in a 600x500 frame: chart, numbers, link', async () => {
  await openGallery();
  const snippet = await copied('004-fig9', 'embed-code');
  assert.match(snippet, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?embed=1#v=1&view=gallery&fig=004-fig9" title="\[004\] Fig\. 9: the divisible-load calculator" width="600" height="500"/);

  const host = await browser.context.newPage();
  watchErrors(host, errors);
  await host.setContent(`<!doctype html><body style="margin:0">${snippet}</body>`);
  await host.frameLocator('iframe').locator('[data-fig="004-fig9"][data-state=done]').waitFor({ timeout: 60000 });
  const frame = host.frames().find((f) => f.url().includes('embed=1'));
  const shown = await frame.evaluate(() => {
    const visible = (e) => e && e.offsetParent !== null;
    const node = document.querySelector('[data-fig="004-fig9"]');
    const canvas = node.querySelector('.chart canvas');
    // Drawn: some pixel of the chart's canvas is not blank.
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    const open = node.querySelector('[data-testid=open-full]');
    return {
      cards: [...document.querySelectorAll('.fig-card')].filter(visible).map((c) => c.dataset.fig),
      otherText: [...document.querySelectorAll('.paper-head, .not-covered, .gallery-filter')].filter(visible).length,
      drawn: pixels.some((x, i) => i % 4 === 3 && x > 0),
      chartHeight: node.querySelector('.chart').getBoundingClientRect().height,
      status: visible(node.querySelector('[data-testid="status-004-fig9"]')),
      params: node.querySelector('.fig-params').textContent,
      values: node.querySelectorAll('[data-testid="paper-values"] tbody tr').length,
      buttons: [...node.querySelectorAll('button')].filter(visible).map((b) => b.textContent),
      open: visible(open) && { href: open.href, target: open.target },
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      viewport: [innerWidth, innerHeight],
    };
  });
  assert.deepEqual(shown.cards, ['004-fig9']);
  assert.equal(shown.otherText, 0);
  assert.ok(shown.drawn, 'the chart’s canvas is blank');
  assert.ok(shown.chartHeight > 150 && shown.chartHeight <= shown.viewport[1] - 150, `chart ${shown.chartHeight} px in a ${shown.viewport[1]} px frame`);
  assert.ok(shown.status, 'no status line');
  assert.match(shown.params, /θcp = θcm = 40/);
  assert.equal(shown.values, 9, 'Lemma 12’s m1-m3 for three L');
  assert.deepEqual(shown.buttons.filter((t) => /Share|Embed|Draw/.test(t)), []);
  assert.deepEqual(shown.open, { href: `${server.url}#v=1&view=gallery&fig=004-fig9`, target: '_blank' });
  assert.deepEqual(shown.viewport, [600, 500]);
  assert.equal(shown.overflow, 0, 'the frame scrolls sideways');
  await host.close();
});

test('an embedded view shows its headline numbers beside its chart: the torus’s Cmax and phases', async () => {
  await page.setViewportSize({ width: 600, height: 500 });
  await page.goto('about:blank');
  await page.goto(`${server.url}?embed=1#v=1&view=torus&k=2&panel=gantt`);
  const torus = page.locator('#view-torus');
  await torus.locator('[data-testid=results][data-state=done]').waitFor({ timeout: 30000 });
  await torus.locator('[data-panel=gantt] canvas').first().waitFor();
  const shown = await page.evaluate(() => [...document.querySelectorAll('#view-torus .panel')].filter((p) => p.offsetParent !== null).map((p) => p.dataset.panel));
  assert.deepEqual(shown, ['summary', 'gantt']);
  assert.ok(await torus.getByTestId('makespan').isVisible());
  assert.ok(Math.abs(Number(await torus.getByTestId('makespan').getAttribute('data-value')) - 0.0261988) < 1e-6);
  assert.match(await torus.getByTestId('phases').textContent(), /^4 of 4$/);
  assert.ok(await torus.getByTestId('open-full').isVisible());
  assert.match(await torus.getByTestId('open-full').getAttribute('href'), /^http:\/\/127\.0\.0\.1:\d+\/#v=1&view=torus&k=2&.*panel=gantt$/);
  await page.setViewportSize({ width: 1400, height: 900 });
});

test('the gallery’s filter is one radio group: one Tab stop, the arrows, Home and End select', async () => {
  await openGallery();
  const state = () => page.evaluate(() => ({
    checked: document.querySelector('.gallery-filter [aria-checked=true]').dataset.paper,
    focused: document.activeElement.dataset.paper,
    stops: [...document.querySelectorAll('.gallery-filter [role=radio]')].filter((b) => b.tabIndex === 0).length,
    papers: [...new Set([...document.querySelectorAll('.fig-card')].filter((c) => !c.hidden).map((c) => c.dataset.paper))],
  }));
  await page.getByTestId('filter-all').focus();
  assert.deepEqual(await state(), { checked: 'all', focused: 'all', stops: 1, papers: ['000', '001', '002', '003', '004'] });
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await state(), { checked: '000', focused: '000', stops: 1, papers: ['000'] });
  await page.keyboard.press('ArrowDown');
  assert.deepEqual((await state()).papers, ['001']);
  await page.keyboard.press('End');
  assert.deepEqual(await state(), { checked: '004', focused: '004', stops: 1, papers: ['004'] });
  await page.keyboard.press('ArrowRight'); // wraps
  assert.equal((await state()).checked, 'all');
  await page.keyboard.press('ArrowLeft');
  assert.equal((await state()).checked, '004');
  await page.keyboard.press('Home');
  assert.equal((await state()).checked, 'all');
  // Tab leaves the group; Shift+Tab comes back to the checked button.
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('role')), null);
  await page.keyboard.press('Shift+Tab');
  assert.deepEqual(await state(), { checked: '004', focused: '004', stops: 1, papers: ['004'] });
});

test('a gallery card’s Share gives the permalink that reopens it', async () => {
  await openGallery();
  const link = await copied('004-fig7', 'share');
  assert.equal(link, `${server.url}#v=1&view=gallery&fig=004-fig7`);
  await page.goto('about:blank');
  await page.goto(link);
  await page.waitForFunction(() => document.querySelector('[data-fig="004-fig7"]')?.dataset.state === 'done', null, { timeout: 60000 });
  assert.equal(await page.evaluate(() => location.hash), '#v=1&view=gallery&fig=004-fig7');
  // A figure a view draws: its Share is the view's link at the figure's panel.
  await page.getByTestId('tab-gallery').click();
  assert.match(await copied('000-fig6', 'share'), /^http:\/\/127\.0\.0\.1:\d+\/#v=1&view=buffers&.*panel=chunks$/);
  // Leaving for about:blank aborts what the gallery's workers were still
  // fetching (its wasm, on a loaded machine): not an error of the page.
  session.assertClean({ ignore: /net::ERR_ABORTED/ });
});
