// Browser test of what the page shares and keeps: permalinks (every view,
// older formats, hostile links), exports (every export of every view yields
// a valid file), embed mode, the gallery, the single file from file:// with
// the network off, the service worker's offline copy, keyboard use, dark
// mode, and a main thread that never blocks for 100 ms during a sweep.
//
//   node --test tests/browser/        (from the repository root; needs
//   `npm install` in tests/browser and www/pkg and dist/ built by
//   scripts/build.sh)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, watchErrors, pageSession, WWW, ROOT } from './harness.mjs';

const SINGLE = path.join(ROOT, 'dist', 'dlt-calculator.html');

let page;
let server;
let browser;
const dialogs = [];
const session = pageSession({
  onOpen: (s) => {
    ({ page, server, browser } = s);
    page.on('response', (r) => { if (r.status() >= 400) console.log('HTTP', r.status(), r.url()); });
    page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss().catch(() => {}); });
  },
});
const { errors, view, download } = session;

/** Opens `hash` on a fresh load and waits for the view's first result. */
async function open(hash, { p = page, id } = {}) {
  await p.goto('about:blank');
  await p.goto(`${server.url}${hash}`);
  const vid = id ?? await p.evaluate(() => document.querySelector('[role=tab][aria-selected=true]')?.dataset.view);
  if (vid !== 'gallery') await waitDone(vid, { p });
  return vid;
}

async function waitDone(id, { p = page, after = -1 } = {}) {
  await p.waitForFunction(({ id, after }) => {
    const r = document.querySelector(`#view-${id} [data-testid="results"]`);
    return r && ['done', 'error'].includes(r.dataset.state) && Number(r.dataset.seq) > after;
  }, { id, after }, { timeout: 60000 });
  return page.evaluate((id) => document.querySelector(`#view-${id} [data-testid="results"]`).dataset.state, id);
}

/** Every control of a view's forms (the main one and sub-forms), as the user sees it. */
function formState(id, p = page) {
  return p.evaluate((id) => [...document.querySelectorAll(`#view-${id} .calc-form input, #view-${id} .calc-form select`)]
    .map((e) => `${e.getAttribute('data-testid') ?? e.getAttribute('aria-label') ?? e.name}=${e.type === 'checkbox' ? e.checked : e.value}`), id);
}

/** The request the view shows the result of, and its key numbers. */
function resultState(id, p = page) {
  return p.evaluate((id) => {
    const r = document.querySelector(`#view-${id} [data-testid="results"]`);
    const numbers = [...r.querySelectorAll('[data-panel] dl.summary dd[data-value]')].slice(0, 6).map((d) => `${d.dataset.testid ?? ''}=${d.dataset.value}`);
    return { request: JSON.parse(r.dataset.request), numbers };
  }, id);
}

async function setField(id, key, value) {
  const input = view(id).locator(`[data-testid="${key}"]`).first();
  const tag = await input.evaluate((e) => `${e.tagName}:${e.type}`);
  if (tag.startsWith('SELECT')) await input.selectOption(String(value));
  else if (tag.endsWith('checkbox')) await input.setChecked(Boolean(value));
  else await input.fill(String(value));
}

// Non-default values for each view; a view not listed here gets its first
// integer field raised by one (so a view added later is still covered).
const EDITS = {
  buffers: { 'field-topology': 'tree', 'field-p': 3, 'field-h': 3, 'field-V': 2000, 'field-D': 500, 'field-n': '', 'field-order': 'LLF', 'field-buffers': '2', 'field-prune': false },
  torus: { 'field-k': 3, 'field-S': 2e-5, 'field-V': 3e6 },
  memory: { 'field-V': 3, 'field-processors-1-C': 2, 'field-processors-1-pieces': '2+1x, -8+12x', 'fig10-field-m': 8 },
  isoefficiency: { 'field-m': 3, 'field-V': 100000 },
  hetero: { 'field-V': 250, 'field-processors-2-C': 0.07, 'field-order': 'by_C', 'field-ratio': 0.2, 'field-policy': 'LIFO' },
  nonlinear: { 'field-algorithm': 'S', 'field-L': 200, 'field-A': '1.2, 1.5', 'field-G': '0.1, 0.2', 'field-theta_cm': 0.5 },
};

test('permalinks: every view round-trips through its link', async () => {
  await open('#');
  const ids = await page.evaluate(() => [...document.querySelectorAll('[role=tab]')].map((t) => t.dataset.view).filter((v) => v !== 'gallery'));
  assert.ok(ids.length >= 4, `views: ${ids}`);
  // The default isoefficiency map takes a minute on a loaded machine: export a small one.
  const small = { isoefficiency: '&m_hi=3&levels_below=10&levels_above=2' };
  for (const id of ids) {
    await open(`#v=1&view=${id}${small[id] ?? ''}`, { id });
    const before = await formState(id);
    let edits = EDITS[id];
    if (!edits) {
      const key = await view(id).locator('.field-integer input').first().getAttribute('data-testid');
      const value = Number(await view(id).locator(`[data-testid="${key}"]`).inputValue());
      edits = { [key]: value + 1 };
    }
    for (const [key, value] of Object.entries(edits)) await setField(id, key, value);
    const seq = Number(await view(id).getByTestId('results').getAttribute('data-seq'));
    await view(id).getByTestId('compute').click();
    await waitDone(id, { after: seq });
    if (id === 'buffers') await view(id).getByTestId('sweep-mode-ratio').click(); // a view's own choice is in the link too
    await page.waitForTimeout(400); // the hash follows at most every 300 ms
    const hash = await page.evaluate(() => location.hash);
    assert.match(hash, new RegExp(`^#v=1&view=${id}&`), `${id}: ${hash}`);
    const form = await formState(id);
    assert.notDeepEqual(form, before, `${id}: the edits changed nothing`);
    const result = await resultState(id);

    // A fresh page (new tab) with that link shows the same form and the same result.
    const fresh = await browser.context.newPage();
    watchErrors(fresh, errors);
    await fresh.goto(`${server.url}${hash}`);
    await waitDone(id, { p: fresh });
    assert.equal(await fresh.evaluate(() => document.querySelector('[role=tab][aria-selected=true]').dataset.view), id);
    assert.deepEqual(await formState(id, fresh), form, `${id}: the form differs after the round trip`);
    // Panels that solve their own requests after the result (Fig. 10's chunk size) fill in later.
    await fresh.waitForFunction(({ id, n }) => document.querySelectorAll(`#view-${id} [data-testid="results"] [data-panel] dl.summary dd[data-value]`).length >= n, { id, n: result.numbers.length }, { timeout: 60000 });
    const again = await resultState(id, fresh);
    assert.deepEqual(again.request, result.request, `${id}: another request`);
    if (id !== 'isoefficiency') assert.deepEqual(again.numbers, result.numbers, `${id}: other numbers`); // 003 searches within a time limit
    if (id === 'buffers') await fresh.waitForFunction(() => document.querySelector('[data-testid=sweep-mode-ratio]')?.getAttribute('aria-checked') === 'true', null, { timeout: 60000 });
    assert.equal(await fresh.getByTestId('notice').count(), 0, `${id}: a notice on a good link`);
    await fresh.close();
    console.log(`permalink ${id}: ${hash.length} characters`);
  }
});

test('permalinks: older and hand-written links still open', async () => {
  // Version 0, the first pages' hash: a bare view id, everything else default.
  for (const [hash, id] of [['#torus', 'torus'], ['#/nonlinear', 'nonlinear'], ['#memory', 'memory']]) {
    await open(hash, { id });
    assert.equal(await page.evaluate(() => document.querySelector('[role=tab][aria-selected=true]').dataset.view), id);
    assert.equal(await page.getByTestId('notice').count(), 0, `${hash}: notice`);
    assert.match(await page.evaluate(() => location.hash), new RegExp(`^#v=1&view=${id}&`), 'upgraded to the current format');
    if (id === 'torus') assert.equal(await view('torus').getByTestId('field-k').inputValue(), '2');
  }
  // A hand-written v=1 link naming one parameter: the rest are defaults.
  await open('#v=1&view=torus&k=3', { id: 'torus' });
  assert.equal(await view('torus').getByTestId('field-k').inputValue(), '3');
  assert.equal(await view('torus').getByTestId('field-V').inputValue(), '1000000');
  assert.equal((await resultState('torus')).request.k, 3);
  // A link from a newer version opens as far as it goes, with a notice.
  await open('#v=7&view=torus&k=1', { id: 'torus' });
  assert.equal(await view('torus').getByTestId('field-k').inputValue(), '1');
  assert.match(await page.getByTestId('notice').textContent(), /newer version/);
  // Back and forward go through the links.
  await page.getByTestId('tab-nonlinear').click();
  await waitDone('nonlinear');
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('[role=tab][aria-selected=true]').dataset.view === 'torus');
});

test('permalinks: a hostile or malformed link opens the defaults with a notice, and runs nothing', async () => {
  const hostile = [
    '#v=1&view=<img src=x onerror=alert(1)>&k=1e999',
    '#v=1&view=torus&k=1e999',
    '#v=1&view=torus&S=<script>alert(1)</script>&C="><svg onload=alert(1)>',
    `#v=1&view=torus&V=${'9'.repeat(400)}`,
    '#v=1&view=torus&k=99999999999999999999',
    `#v=1&view=nonlinear&A=${'1,'.repeat(4000)}1`,
    '#v=1&view=memory&processors=[["1","1","<img src=x onerror=alert(1)>"]]',
    '#v=1&view=memory&processors={"__proto__":{"polluted":1}}',
    '#v=1&view=buffers&topology=javascript:alert(1)',
    '#v=1&view=buffers&prune=maybe',
    '#v=1&view=torus&x.__proto__=1&__proto__=1&constructor=x',
    '#v=abc&view=torus',
    '#v=1&view=torus&k=%E0%A4%A',
    '#v=1&view=gallery&fig=javascript:alert(1)',
    '#v=1&view=gallery&fig=<img/src/onerror=alert(1)>',
    `#v=1&view=torus&${'a=1&'.repeat(300)}`,
    `#${'x'.repeat(30000)}`,
  ];
  for (const hash of hostile) {
    await page.goto('about:blank');
    await page.goto(`${server.url}${hash}`);
    await page.getByTestId('notice').waitFor({ timeout: 10000 });
    const id = await page.evaluate(() => document.querySelector('[role=tab][aria-selected=true]').dataset.view);
    if (id !== 'gallery') assert.equal(await waitDone(id), 'done', `${hash.slice(0, 60)}: the defaults did not compute`);
    const state = await page.evaluate(() => ({
      imgs: document.querySelectorAll('img, svg[onload], script:not([type]):not([src])').length,
      polluted: Object.prototype.polluted,
      notice: document.querySelector('[data-testid=notice]').textContent,
      hash: location.hash,
    }));
    assert.equal(state.imgs, 0, `${hash.slice(0, 60)}: markup from the link reached the page`);
    assert.equal(state.polluted, undefined);
    assert.ok(state.notice.length > 10);
    assert.ok(state.hash.length < 3000 && !/[<>]/.test(decodeURIComponent(state.hash)), `the address bar keeps a clean link: ${state.hash.slice(0, 80)}`);
  }
  // One bad value takes its default and is named; the link's other values stay.
  await page.goto(`${server.url}#v=1&view=torus&k=3&S=<b>x</b>`);
  await waitDone('torus');
  assert.equal(await view('torus').getByTestId('field-k').inputValue(), '3');
  assert.match(await view('torus').getByTestId('field-S').inputValue(), /^[0-9.e-]+$/);
  assert.match(await page.getByTestId('notice').textContent(), /their defaults are used, the others are the link’s.*S: /s);
  assert.deepEqual(dialogs, []);
});

// ---- exports ------------------------------------------------------------------------

function parseCsv(text) {
  const rows = [];
  let row = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++; } else if (c === '"') quoted = false; else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(cell); cell = ''; } else if (c === '\n') { row.push(cell.replace(/\r$/, '')); rows.push(row); row = []; cell = ''; } else cell += c;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

/** Checks a downloaded file by its kind; returns a short description. */
async function validate({ name, data }) {
  if (name.endsWith('.svg')) {
    const r = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      return { error: doc.querySelector('parsererror')?.textContent, root: doc.documentElement.localName, shapes: doc.querySelectorAll('path, rect, text').length, title: doc.querySelector('title')?.textContent };
    }, data.toString('utf8'));
    assert.equal(r.error, undefined, `${name}: ${r.error}`);
    assert.equal(r.root, 'svg', name);
    assert.ok(r.shapes > 5, `${name}: ${r.shapes} shapes`);
    return `svg ${r.shapes} shapes`;
  }
  if (name.endsWith('.png')) {
    assert.deepEqual([...data.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${name}: not a PNG`);
    const w = data.readUInt32BE(16);
    const h = data.readUInt32BE(20);
    const decoded = await page.evaluate(async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      return [bmp.width, bmp.height];
    }, data.toString('base64'));
    assert.deepEqual(decoded, [w, h], name);
    assert.ok(w > 100 && h > 100, `${name}: ${w} x ${h}`);
    return `png ${w}x${h}`;
  }
  if (name.endsWith('.csv')) {
    const rows = parseCsv(data.toString('utf8'));
    assert.ok(rows.length >= 2, `${name}: ${rows.length} rows`);
    const n = rows[0].length;
    assert.ok(rows[0].every((h) => h.trim() !== ''), `${name}: an empty column name in ${rows[0]}`);
    // Columns a reader can tell apart: no two alike, none a placeholder.
    assert.equal(new Set(rows[0]).size, n, `${name}: repeated column names in ${rows[0]}`);
    assert.ok(!rows[0].some((h) => /^value \d+$/.test(h)), `${name}: a placeholder column name in ${rows[0]}`);
    for (const r of rows) assert.equal(r.length, n, `${name}: a row of ${r.length} cells, the header has ${n}`);
    return `csv ${rows.length - 1}x${n}`;
  }
  if (name.endsWith('.json')) {
    const obj = JSON.parse(data.toString('utf8'));
    assert.equal(typeof obj, 'object');
    return 'json';
  }
  throw new Error(`unexpected file ${name}`);
}

test('exports: every chart (SVG, PNG, CSV), table, summary, request and response of every view is a valid file', async () => {
  await open('#');
  const ids = await page.evaluate(() => [...document.querySelectorAll('[role=tab]')].map((t) => t.dataset.view).filter((v) => v !== 'gallery'));
  const counts = {};
  // The default isoefficiency map takes a minute on a loaded machine: export a small one.
  const small = { isoefficiency: '&m_hi=3&levels_below=10&levels_above=2' };
  for (const id of ids) {
    await open(`#v=1&view=${id}${small[id] ?? ''}`, { id });
    // Let the sweeps draw (their charts are exported too).
    await page.waitForFunction((id) => ![...document.querySelectorAll(`#view-${id} .progress`)].some((p) => !p.classList.contains('finished')), id, { timeout: 180000 }).catch(() => {});
    await page.waitForTimeout(300);
    const files = [];
    for (const what of ['request', 'response']) {
      const f = await download(view(id).getByTestId(`export-${what}`));
      const obj = JSON.parse(f.data.toString('utf8'));
      if (what === 'request') assert.equal(typeof obj.model, 'string');
      files.push(await validate(f));
    }
    const menus = view(id).locator('[data-panel]:not([hidden]) [data-testid=export-menu]');
    for (let i = 0; i < await menus.count(); i++) {
      const menu = menus.nth(i);
      await menu.locator('summary').click();
      const buttons = menu.locator('.export-items button');
      for (let j = 0; j < await buttons.count(); j++) {
        const f = await download(buttons.nth(j));
        files.push(`${f.name}: ${await validate(f)}`);
      }
      await menu.locator('summary').click();
    }
    counts[id] = files.length;
    assert.ok(files.some((f) => f.includes('.svg')) && files.some((f) => f.includes('.png')) && files.some((f) => /-table\S*\.csv/.test(f)), `${id}: ${files.join('; ')}`);
  }
  console.log(`exports checked: ${JSON.stringify(counts)}`);

  // The columns: the torus sweep (one column per k), the layer table, the Gantt chart.
  await open('#v=1&view=torus', { id: 'torus' });
  await page.waitForFunction(() => /points in/.test(document.querySelector('#view-torus [data-panel=sweep] .progress')?.textContent ?? ''), null, { timeout: 60000 });
  const csv = async (panel, testid) => {
    const menu = view('torus').locator(`[data-panel=${panel}] [data-testid=export-menu]`);
    await menu.locator('summary').click();
    const f = await download(menu.getByTestId(testid));
    await menu.locator('summary').click();
    return parseCsv(f.data.toString('utf8'));
  };
  const sweep = await csv('sweep', 'export-csv-sweep');
  assert.equal(sweep[0].length, 5);
  assert.equal(sweep[0][0], 'load V [units]');
  sweep[0].slice(1).forEach((name, i) => assert.match(name, new RegExp(`^k = ${i + 1} \\(`)));
  assert.equal(sweep.length, 1 + 37);
  const layers = await csv('layers', 'export-table-0');
  assert.deepEqual(layers[0].slice(0, 7), ['layer i', 'phase', 'processors', 'Table 1: 4·5^(i−1)', 'computing after', 'Table 1: 5^i', 'a_i [units]']);
  assert.equal(layers.length, 1 + 5);
  // Layer 2: 20 activated and 25 computing after, computed and as printed.
  assert.deepEqual(layers[3].slice(2, 6).map(Number), [20, 20, 25, 25]);
  assert.ok(Math.abs(Number(layers[1][6]) - 26198.8) < 0.1, `a_0 = ${layers[1][6]}`);
  const gantt = await csv('gantt', 'export-csv-gantt');
  assert.deepEqual(gantt[0], ['series', 'row', 'start', 'end', 'load', 'from', 'messages', 'intervals', 'busy', 'row label']);
  // The sweep's image names what it varies, not the form's V, k and phases.
  const menu = view('torus').locator('[data-panel=sweep] [data-testid=export-menu]');
  await menu.locator('summary').click();
  const svg = (await download(menu.getByTestId('export-svg-sweep'))).data.toString('utf8');
  await menu.locator('summary').click();
  const subtitle = /<text x="12" y="38"[^>]*>([^<]*)<\/text>/.exec(svg)?.[1] ?? '';
  assert.match(subtitle, /^torus: .*V, k, phases as the chart varies them/);
  assert.doesNotMatch(subtitle, /\bV = |\bk = /);
  const summary = await csv('summary', 'export-summary');
  assert.deepEqual(summary[0], ['quantity', 'note', 'value', 'unit']);
  assert.ok(summary.some((r) => r[0] === 'schedule length Cmax' && Math.abs(Number(r[2]) - 0.0261988) < 1e-6));
});

// ---- embed, gallery ---------------------------------------------------------------------

test('embed mode shows the chosen view’s chart and controls, sized for a frame', async () => {
  await page.setViewportSize({ width: 760, height: 560 });
  await page.goto('about:blank');
  await page.goto(`${server.url}?embed=1#v=1&view=torus&k=3&panel=sweep`);
  await waitDone('torus');
  await view('torus').locator('[data-panel=sweep] canvas').first().waitFor();
  const state = await page.evaluate(() => ({
    header: getComputedStyle(document.querySelector('.top')).display,
    footer: getComputedStyle(document.querySelector('.foot')).display,
    panels: [...document.querySelectorAll('#view-torus .panel')].filter((p) => p.offsetParent !== null).map((p) => p.dataset.panel),
    form: document.querySelector('#view-torus .form-card').offsetParent !== null,
    open: document.querySelector('#view-torus [data-testid=open-full]').offsetParent !== null,
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  }));
  assert.deepEqual(state, { header: 'none', footer: 'none', panels: ['summary', 'sweep'], form: true, open: true, overflow: 0 });
  // The form still drives the chart: Enter computes.
  const seq = Number(await view('torus').getByTestId('results').getAttribute('data-seq'));
  await view('torus').getByTestId('field-V').fill('2e6');
  await view('torus').getByTestId('field-V').press('Enter');
  await waitDone('torus', { after: seq });
  // Without a panel named, the first chart is shown (beside the headline numbers).
  await page.goto(`${server.url}?embed=1#v=1&view=nonlinear`);
  await waitDone('nonlinear');
  const shown = await page.evaluate(() => [...document.querySelectorAll('#view-nonlinear .panel')].filter((p) => p.offsetParent !== null).map((p) => p.dataset.panel));
  assert.equal(shown.length, 2);
  assert.equal(shown[0], 'summary');
  await page.setViewportSize({ width: 1400, height: 900 });

  // The Embed button's snippet, in a real frame of another page.
  await open('#v=1&view=torus&panel=gantt', { id: 'torus' });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.replace(/\/$/, '') });
  await view('torus').getByTestId('embed-code').click();
  const snippet = await view('torus').getByTestId('share-url').inputValue();
  assert.match(snippet, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?embed=1#v=1&view=torus&.*panel=gantt" title="2D torus: the divisible-load calculator"/);
  const host = await browser.context.newPage();
  watchErrors(host, errors);
  await host.setContent(`<!doctype html><body style="margin:0">${snippet}</body>`);
  const frame = host.frameLocator('iframe');
  await frame.locator('#view-torus [data-testid=results][data-state=done]').waitFor({ timeout: 30000 });
  assert.equal(await frame.locator('#view-torus [data-panel=gantt]').isVisible(), true);
  await host.close();
  // Share copies the link itself.
  await view('torus').getByTestId('share').click();
  await page.waitForFunction(() => /copied|box/.test(document.querySelector('#view-torus [data-testid=share-status]').textContent));
  assert.match(await view('torus').getByTestId('share-url').inputValue(), /^http:\/\/127\.0\.0\.1:\d+\/#v=1&view=torus&k=2&/);
});

test('gallery: every entry has a caption and parameters, draws on one click, and is a permalink', async () => {
  await open('#v=1&view=gallery', { id: 'gallery' });
  const entries = await page.evaluate(() => [...document.querySelectorAll('.fig-card')].map((c) => ({
    id: c.dataset.fig, caption: c.querySelector('.fig-caption').textContent, params: c.querySelector('.fig-params').textContent,
    link: c.querySelector('.fig-link').getAttribute('href'), kind: c.querySelector('.fig-kind').textContent,
  })));
  assert.ok(entries.length >= 40, `${entries.length} entries`);
  for (const e of entries) {
    assert.ok(e.caption.length > 12 && e.params.length > 14, e.id);
    assert.match(e.link, /^#v=1&view=/);
  }
  for (const p of ['000', '001', '002', '003', '004']) assert.ok(entries.some((e) => e.id.startsWith(p)), `no entry of [${p}]`);
  assert.match(await page.getByTestId('not-covered').textContent(), /Fig\. 11.*measurements/s);
  // A figure drawn here: one click.
  await page.getByTestId('draw-001-fig4').click();
  await page.waitForFunction(() => document.querySelector('[data-fig="001-fig4"]').dataset.state === 'done', null, { timeout: 60000 });
  assert.equal(await page.evaluate(() => location.hash), '#v=1&view=gallery&fig=001-fig4');
  await page.locator('[data-fig="001-fig4"] canvas').first().waitFor();
  // Its permalink on a fresh load draws it again.
  await page.goto('about:blank');
  await page.goto(`${server.url}#v=1&view=gallery&fig=002-fig4`);
  await page.waitForFunction(() => document.querySelector('[data-fig="002-fig4"]')?.dataset.state === 'done', null, { timeout: 60000 });
  // A figure a view draws: the view opens with the paper's parameters, at the figure's panel.
  await page.getByTestId('tab-gallery').click();
  await page.getByTestId('draw-000-fig6').click();
  await waitDone('buffers');
  assert.match(await page.evaluate(() => location.hash), /view=buffers&.*panel=chunks/);
  await page.getByTestId('tab-gallery').click();
  await page.getByTestId('draw-004-fig5').click();
  await waitDone('nonlinear');
  assert.equal((await resultState('nonlinear')).request.rho, 2);
  assert.ok(Math.abs(Number(await view('nonlinear').getByTestId('makespan').getAttribute('data-value')) - 3337) < 2, 'Example 2 of [004]');
});

test('gallery: 004 Fig. 7 shows the paper’s printed values beside the computed ones', async () => {
  await page.goto('about:blank');
  await page.goto(`${server.url}#v=1&view=gallery&fig=004-fig7`);
  await page.waitForFunction(() => document.querySelector('[data-fig="004-fig7"]')?.dataset.state === 'done', null, { timeout: 60000 });
  const rows = await page.evaluate(() => [...document.querySelectorAll('[data-fig="004-fig7"] [data-testid="paper-values"] tbody tr')]
    .map((tr) => [...tr.children].map((c) => c.textContent)));
  // Two speed-ups at m = 7 and the two terms of M's time at m = 1..7.
  assert.equal(rows.length, 2 + 7 + 7);
  const [m7, s7] = rows;
  assert.match(m7[0], /M, speed-up at m = 7/);
  assert.equal(Number(m7[1]), 7.898);
  assert.ok(Math.abs(Number(m7[2]) - 7.8985) < 1e-3, m7.join(' | '));
  assert.ok(Math.abs(Number(s7[2]) - 7.7289) < 1e-3, s7.join(' | '));
  // The printed second terms: one start-up (0.1 s) above Theorem 9's.
  for (const row of rows.slice(9)) assert.ok(Math.abs(Number(row[2]) - Number(row[1]) + 0.1) < 1e-6, row.join(' | '));
  assert.match(await page.getByTestId('status-004-fig7').textContent(), /one start-up \(0\.1 s\) more than Theorem 9/);
});

// ---- keyboard, accessibility, dark mode ------------------------------------------------------

test('keyboard: arrow keys, Home and End move along the tabs; Enter computes; focus is visible', async () => {
  await open('#v=1&view=buffers', { id: 'buffers' });
  await page.getByTestId('tab-buffers').focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => [document.activeElement.dataset.view, document.activeElement.getAttribute('aria-selected')].join()), 'torus,true');
  await page.keyboard.press('End');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.view), 'gallery');
  await page.keyboard.press('Home');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.view), 'buffers');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.view), 'gallery');
  await page.keyboard.press('ArrowRight');
  // Only the selected tab is in the tab order; Tab leaves the tab list.
  assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('[role=tab]')].map((t) => t.tabIndex).filter((i) => i === 0).length), 1);
  await page.keyboard.press('Tab');
  assert.notEqual(await page.evaluate(() => document.activeElement.getAttribute('role')), 'tab');
  // Enter in a field computes; the focused field shows an outline.
  await waitDone('buffers');
  const seq = Number(await view('buffers').getByTestId('results').getAttribute('data-seq'));
  await view('buffers').getByTestId('field-V').focus();
  await page.keyboard.press('End');
  await page.keyboard.type('1');
  await page.keyboard.press('Enter');
  await waitDone('buffers', { after: seq });
  assert.equal((await resultState('buffers')).request.V, 50001);
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, 'none');
  // Every field is labelled (symbol, name, unit) and every chart described.
  const unlabelled = await page.evaluate(() => [...document.querySelectorAll('#view-buffers .calc-form input, #view-buffers .calc-form select')]
    .filter((e) => !e.labels?.length && !e.getAttribute('aria-label') && !e.closest('[aria-labelledby]')).map((e) => e.name));
  assert.deepEqual(unlabelled, []);
  const charts = await page.evaluate(() => [...document.querySelectorAll('#view-buffers .chart')].map((c) => [c.getAttribute('role'), (c.getAttribute('aria-label') ?? '').length]));
  assert.ok(charts.length >= 2 && charts.every(([role, n]) => role === 'img' && n > 20), JSON.stringify(charts));
});

test('dark mode follows the system, charts too', async () => {
  const dark = await browser.context.newPage();
  watchErrors(dark, errors);
  await dark.emulateMedia({ colorScheme: 'dark' });
  await dark.goto(`${server.url}#v=1&view=torus`);
  await waitDone('torus', { p: dark });
  const look = await dark.evaluate(async () => {
    const { echarts, COLORS } = await import('./charts.js');
    const chart = echarts.getInstanceByDom(document.querySelector('#view-torus [data-chart=gantt]'));
    return { bg: getComputedStyle(document.body).backgroundColor, text: COLORS.text, axis: chart.getOption().yAxis[0].axisLabel.color };
  });
  assert.equal(look.bg, 'rgb(18, 22, 29)');
  assert.equal(look.text, '#e3e8ef');
  assert.equal(look.axis, '#e3e8ef');
  // The scheme changing while the page is open redraws the charts.
  await dark.emulateMedia({ colorScheme: 'light' });
  await dark.waitForFunction(async () => {
    const { echarts } = await import('./charts.js');
    return echarts.getInstanceByDom(document.querySelector('#view-torus [data-chart=gantt]')).getOption().yAxis[0].axisLabel.color === '#1f2733';
  });
  await dark.close();
});

// ---- the main thread during a long sweep; cancelling it --------------------------------------

test('the page stays usable during a long sweep, and the sweep cancels', async () => {
  await open('#v=1&view=nonlinear', { id: 'nonlinear' }); // mounted once, before the measurement
  await page.getByTestId('tab-torus').click();
  await waitDone('torus');
  await page.waitForFunction(() => /points in/.test(document.querySelector('#view-torus [data-panel=sweep] .progress')?.textContent ?? ''), null, { timeout: 60000 });
  await page.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTasks.push({ start: e.startTime, duration: e.duration }); }).observe({ type: 'longtask' });
  });
  const sweepText = () => page.evaluate(() => document.querySelector('#view-torus [data-panel=sweep] .progress')?.textContent ?? '');
  // New S: a new 148-point sweep in the worker. The page is used meanwhile: tabs switched, the chart hovered.
  const seq = Number(await view('torus').getByTestId('results').getAttribute('data-seq'));
  await view('torus').getByTestId('field-S').fill('3e-5');
  await view('torus').getByTestId('compute').click();
  await waitDone('torus', { after: seq });
  // Running, or already done: a sweep takes about a second.
  await page.waitForFunction(() => /: \d+ \/ 148|148 points in/.test(document.querySelector('#view-torus [data-panel=sweep] .progress')?.textContent ?? ''), null, { timeout: 30000 });
  const from = await page.evaluate(() => performance.now());
  for (let i = 0; i < 3 && !/points in/.test(await sweepText()); i++) {
    await page.getByTestId('tab-nonlinear').click();
    await page.getByTestId('tab-torus').click();
    await view('torus').locator('[data-chart=gantt]').hover();
  }
  await page.waitForFunction(() => /points in/.test(document.querySelector('#view-torus [data-panel=sweep] .progress')?.textContent ?? ''), null, { timeout: 60000 });
  const { during, all, took } = await page.evaluate((from) => ({
    during: window.longTasks.filter((t) => t.start + t.duration >= from).map((t) => t.duration),
    all: window.longTasks.map((t) => t.duration),
    took: performance.now() - from,
  }), from);
  // Printed, not asserted: the length of a task depends on the machine's load.
  console.log(`longest main-thread task during a torus sweep (${Math.round(took)} ms of it): ${Math.round(Math.max(0, ...during))} ms; rendering the result before it: ${Math.round(Math.max(0, ...all))} ms`);
  // The tabs answered while the worker swept.
  assert.equal(await page.getByTestId('tab-torus').getAttribute('aria-selected'), 'true');

  // Cancel: the worker is stopped and replaced; the next computation answers.
  // The sweep's indicator is marked, and the new sweep's Cancel pressed by
  // a MutationObserver, in the task that shows it: a sweep can take 10 ms,
  // too short to wait for a progress count (waiting for one spun forever
  // once the sweep had ended first), and the sweep can end only in a later
  // task (the worker's answer), which takes the button off.
  await page.evaluate(() => {
    document.querySelector('#view-torus [data-panel=sweep] .progress')?.setAttribute('data-old', '');
    window.pressed = new Promise((resolve) => {
      const press = () => {
        const cancel = document.querySelector('#view-torus [data-panel=sweep] .progress:not([data-old]) button');
        if (!cancel) return false;
        cancel.click();
        observer.disconnect();
        resolve(true);
        return true;
      };
      const observer = new MutationObserver(press);
      observer.observe(document.querySelector('#view-torus'), { childList: true, subtree: true });
      setTimeout(() => press() || resolve(false), 30000);
    });
  });
  await view('torus').getByTestId('field-A').fill('2e-6');
  await view('torus').getByTestId('compute').click();
  const pressed = await page.evaluate(() => window.pressed);
  assert.ok(pressed, 'the new sweep showed no Cancel button within 30 s');
  await page.waitForFunction(() => /cancelled/.test(document.querySelector('#view-torus [data-panel=sweep] .progress')?.textContent ?? ''));
  const after = Number(await view('torus').getByTestId('results').getAttribute('data-seq'));
  await view('torus').getByTestId('field-V').fill('5e6');
  await view('torus').getByTestId('compute').click();
  assert.equal(await waitDone('torus', { after }), 'done');
});

// ---- offline: the single file from file://, the served page after its first load -------------

test('the single file computes from file:// with the network off', async () => {
  assert.ok(fs.existsSync(SINGLE), 'dist/dlt-calculator.html is missing: run bash scripts/build.sh');
  const size = fs.statSync(SINGLE).size;
  const html = fs.readFileSync(SINGLE, 'utf8');
  assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none';[^"]*connect-src 'none'/);
  const tags = html.replace(/(<script type="text\/plain"[^>]*>)[^]*?<\/script>/g, '$1</script>'); // the markup without the inlined code
  assert.doesNotMatch(tags, /<(script|link|img|iframe|source)\b[^>]*\s(src|href)=(?!["']?data:)/i, 'something is loaded from elsewhere');
  const own = await launch();
  try {
    await own.context.setOffline(true);
    const requests = [];
    own.context.on('request', (r) => requests.push(r.url()));
    await own.context.route(/^(https?|wss?|ftp):/, (route) => route.abort());
    const p = await own.context.newPage();
    const errs = [];
    watchErrors(p, errs);
    const started = Date.now();
    await p.goto(`file://${SINGLE}#v=1&view=torus`);
    await p.waitForFunction(() => document.querySelector('#view-torus [data-testid=results]')?.dataset.state === 'done', null, { timeout: 30000 });
    const wall = Date.now() - started;
    const app = await p.evaluate(() => document.documentElement.dataset.firstResultMs);
    console.log(`single file: ${size} bytes; first result from file:// in ${wall} ms (${app} ms after the app started)`);
    assert.ok(Math.abs(Number(await p.getByTestId('makespan').first().getAttribute('data-value')) - 0.0261988) < 1e-6);
    // The form, a sweep, another view, the pool of workers (isoefficiency), the gallery: all offline.
    await p.getByTestId('field-k').fill('3');
    await p.getByTestId('compute').click();
    await p.waitForFunction(() => JSON.parse(document.querySelector('#view-torus [data-testid=results]').dataset.request ?? '{}').k === 3);
    await p.waitForFunction(() => /points in/.test(document.querySelector('#view-torus [data-panel=sweep] .progress')?.textContent ?? ''), null, { timeout: 60000 });
    await p.getByTestId('tab-isoefficiency').click();
    await p.waitForFunction(() => document.querySelector('#view-isoefficiency [data-testid=results]')?.dataset.state === 'done', null, { timeout: 60000 });
    await p.getByTestId('tab-gallery').click();
    await p.getByTestId('draw-004-fig10').click();
    await p.waitForFunction(() => document.querySelector('[data-fig="004-fig10"]')?.dataset.state === 'done', null, { timeout: 60000 });
    assert.deepEqual(requests.filter((u) => !/^(file|blob|data):/.test(u)), []);
    assert.deepEqual(errs, []);
  } finally {
    await own.close();
  }
});

test('the service worker is registered once the page is idle: not yet when its first figure is drawn', async () => {
  const own = await serve(); // a server of ours with no service worker yet
  session.allow(own.url);
  const p = await browser.context.newPage();
  watchErrors(p, []);
  try {
    // Read in the page the moment the figure is drawn (its pools just idle).
    await p.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (document.querySelector('[data-fig="000-fig13a"]')?.dataset.state !== 'done') return;
        observer.disconnect();
        navigator.serviceWorker.getRegistration().then((r) => { window.registeredWhenDrawn = Boolean(r); });
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-state'] });
    });
    await p.goto(`${own.url}#v=1&view=gallery&fig=000-fig13a`);
    await p.waitForFunction(() => typeof window.registeredWhenDrawn === 'boolean', null, { timeout: 60000 });
    assert.equal(await p.evaluate(() => window.registeredWhenDrawn), false);
    await p.waitForFunction(() => navigator.serviceWorker?.controller, null, { timeout: 30000 });
  } finally {
    await p.close();
    await own.close();
  }
});

test('the served page keeps working offline after its first load (service worker)', async () => {
  const own = await serve();
  session.allow(own.url); // a server of ours too
  const p = await browser.context.newPage();
  watchErrors(p, []); // the failed requests while offline are expected here
  try {
    await p.goto(`${own.url}#v=1&view=isoefficiency`);
    await p.waitForFunction(() => navigator.serviceWorker?.controller, null, { timeout: 20000 });
    // Everything the page used, the view modules the shell list does not name included, is in the cache.
    const cached = () => p.evaluate(async () => {
      const cache = await caches.open('dlt-calculator-v1');
      const keys = (await cache.keys()).map((r) => new URL(r.url).pathname);
      return ['/views/isoefficiency.js', '/views/torus.js', '/pool.js', '/pkg/dlt_wasm_bg.wasm', '/vendor/echarts/echarts.custom.min.js', '/index.html'].every((k) => keys.includes(k));
    });
    for (let i = 0; i < 80 && !(await cached()); i++) await p.waitForTimeout(250);
    assert.ok(await cached(), 'the offline copy is incomplete');
    await own.close(); // the network is gone
    await p.goto(`${own.url}#v=1&view=torus&k=3`);
    await p.waitForFunction(() => document.querySelector('#view-torus [data-testid=results]')?.dataset.state === 'done', null, { timeout: 30000 });
    assert.equal(JSON.parse(await p.locator('#view-torus [data-testid=results]').getAttribute('data-request')).k, 3);
    await p.goto(`${own.url}?embed=1#v=1&view=nonlinear`);
    await p.waitForFunction(() => document.querySelector('#view-nonlinear [data-testid=results]')?.dataset.state === 'done', null, { timeout: 30000 });
  } finally {
    await p.close();
    await own.close().catch(() => {});
  }
});

test('the page carries a Content-Security-Policy, fetches nothing from elsewhere, logs no error', async () => {
  const html = fs.readFileSync(path.join(WWW, 'index.html'), 'utf8');
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
  assert.ok(csp, 'no CSP meta tag');
  for (const d of ["default-src 'self'", "script-src 'self' 'wasm-unsafe-eval'", "connect-src 'self'", "object-src 'none'"]) assert.ok(csp.includes(d), `CSP lacks ${d}`);
  assert.doesNotMatch(csp, /https?:|\*/);
  assert.deepEqual(dialogs, []);
  // A fetch cut short because the test itself left the page (or closed it) while a worker loaded is no error of the page.
  session.assertClean({ ignore: /^request failed: .* net::ERR_ABORTED$/ });
});
