// Helpers of the browser test (not a test file itself): a static file server
// for www/ on 127.0.0.1, a headless launch of Debian's Chromium through
// playwright-core (its own browser download does not work here), and the
// page session the test files share (server, browser, one page, its errors).

import http from 'node:http';
import fs from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const WWW = path.join(ROOT, 'www');

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves `root` on 127.0.0.1 at a random port. `overrides` maps URL paths
 * to files served instead (the screenshot script's stand-in module; a
 * test may add some while serving). `isolated` serves the pages
 * cross-origin isolated (COOP and COEP), where Chromium's performance.now()
 * ticks every 5 µs instead of every 100 µs: the benchmark times solves of
 * well under a millisecond. Resolves to {url, overrides, close()}.
 */
export async function serve(root = WWW, { overrides = {}, isolated = false } = {}) {
  const isolation = isolated ? { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' } : {};
  const server = http.createServer(async (req, res) => {
    try {
      const urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      let file = overrides[urlPath] ?? path.join(root, urlPath);
      if (!overrides[urlPath] && !file.startsWith(root)) {
        res.writeHead(403).end();
        return;
      }
      let stat = await fs.stat(file).catch(() => null);
      if (stat?.isDirectory()) {
        file = path.join(file, 'index.html');
        stat = await fs.stat(file).catch(() => null);
      }
      if (!stat) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const body = await fs.readFile(file);
      res.writeHead(200, {
        'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
        'content-length': body.length,
        'cache-control': 'no-store',
        ...isolation,
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (e) {
      res.writeHead(500).end(String(e));
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    overrides,
    close: () => new Promise((resolve) => {
      server.closeAllConnections?.();
      server.close(resolve);
    }),
  };
}

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Headless Chromium with the flags this machine needs and a fresh profile. */
export async function launch({ args = [] } = {}) {
  const userDataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dlt-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      ...args,
    ],
    viewport: { width: 1400, height: 900 },
  });
  return {
    context,
    async close() {
      await context.close();
      await fs.rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Collects console errors and page errors of `page` (its workers included)
 * into `errors`.
 */
export function watchErrors(page, errors) {
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('worker', (w) => {
    w.on('console', (m) => { if (m.type() === 'error') errors.push(`worker console: ${m.text()}`); });
  });
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
}

/** Least time between two downloads of a session (see `download`). */
const DOWNLOAD_GAP_MS = 250;

/**
 * One page on the served www/ for the tests of a file: registers the
 * before/after hooks of node:test (call it at the top level of a test file)
 * and returns the session.
 *
 * Its getters `page`, `server`, `browser` are set once the `before` hook has
 * run; `errors` (console errors, page errors, failed requests) and `offsite`
 * (requests that left our server) are collected for `assertClean()`.
 * `onOpen(session)` runs at the end of that hook: the place to copy the page
 * into a file's own variables or add listeners to it (node 20 runs a file's
 * top-level `before` hooks at the same time, so another hook cannot wait for
 * this one).
 *
 * Options, the differences between the files:
 * - `timeout`: ms to wait for a view to show a request's result; 30 s for
 *   the quick models, 60 s when sweeps or MIPs share the cores.
 * - `waitFor`: `valueOf` waits for its cell to appear (views that draw their
 *   panels after the result).
 * - `exactRequest`: the shown request must have exactly the keys asked for;
 *   false when the test names only some (the page adds the rest).
 * - `checkShown`: `valueOf` also checks the displayed text is a value (not
 *   "—", NaN, undefined, Infinity).
 */
export function pageSession({ timeout = 30000, waitFor = false, exactRequest = true, checkShown = true, onOpen } = {}) {
  let server;
  let browser;
  let page;
  const errors = [];
  const offsite = [];
  const allowed = []; // other servers of ours (a test's own `serve()`)
  let lastDownload = 0;

  before(async () => {
    assert.ok(existsSync(path.join(WWW, 'pkg', 'dlt_wasm_bg.wasm')), 'www/pkg is missing: run bash scripts/build.sh first');
    server = await serve();
    browser = await launch();
    page = await browser.context.newPage();
    watchErrors(page, errors);
    // Nothing may come from the network: every request stays on our server.
    browser.context.on('request', (r) => {
      const u = r.url();
      if (![server.url, ...allowed].some((s) => u.startsWith(s)) && !/^(data|blob):/.test(u)) offsite.push(u);
    });
    await onOpen?.(session);
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const view = (id) => page.locator(`#view-${id}`);

  /** The number behind a displayed value (data-value keeps all digits). */
  async function valueOf(id, testid) {
    const cell = view(id).locator(`[data-testid="${testid}"]`).first();
    if (waitFor) await cell.waitFor();
    const raw = await cell.getAttribute('data-value');
    const shown = (await cell.textContent()).trim();
    assert.ok(raw !== null, `${testid} shows "${shown}", not a number`);
    if (checkShown) {
      assert.notEqual(shown, '—', `${testid} shows no value`);
      assert.doesNotMatch(shown, /NaN|undefined|Infinity/);
    }
    return Number(raw);
  }

  /** Waits until the view shows the result of `request` (or an error). */
  async function waitForRequest(id, request) {
    const outcome = await page.waitForFunction(({ id, request, exact }) => {
      const r = document.querySelector(`#view-${id} [data-testid="results"]`);
      if (r?.dataset.state === 'error') return `error: ${r.querySelector('[data-testid="result-msg"]')?.textContent}`;
      if (!r || r.dataset.state !== 'done' || !r.dataset.request) return false;
      const got = JSON.parse(r.dataset.request);
      const keys = Object.keys(request);
      return (!exact || Object.keys(got).length === keys.length) && keys.every((k) => JSON.stringify(got[k]) === JSON.stringify(request[k])) && 'done';
    }, { id, request, exact: exactRequest }, { timeout });
    const state = await outcome.jsonValue();
    assert.equal(state, 'done', `${id}: the page answered ${JSON.stringify(request)} with ${state}`);
  }

  /** Fills a view's form (text, select, checkbox), clicks Compute, waits for `request`. */
  async function computeThroughUi(id, fields, request) {
    const v = view(id);
    for (const [key, value] of Object.entries(fields)) {
      const input = v.locator(`[data-testid="field-${key}"]`);
      const tag = await input.evaluate((e) => `${e.tagName}:${e.type}`);
      if (tag.startsWith('SELECT')) await input.selectOption(String(value));
      else if (tag === 'INPUT:checkbox') await input.setChecked(value);
      else await input.fill(Array.isArray(value) ? value.join(', ') : String(value));
    }
    await v.locator('[data-testid="compute"]').click();
    await waitForRequest(id, request);
  }

  /**
   * Clicks a download button; returns the saved file's name, bytes and text.
   * 60 s: an isoefficiency map may load both cores meanwhile.
   * Clicks are spaced by DOWNLOAD_GAP_MS: Chromium silently drops the 11th of
   * downloads started less than about 100 ms apart (the page's handler runs,
   * no download begins), a pace no person clicks at but a test does.
   */
  async function download(locator) {
    await page.waitForTimeout(Math.max(0, lastDownload + DOWNLOAD_GAP_MS - Date.now()));
    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 60000 }), locator.click()]);
    lastDownload = Date.now();
    const data = readFileSync(await dl.path());
    return { name: dl.suggestedFilename(), data, text: data.toString('utf8') };
  }

  /** No console error, no page error, nothing fetched from elsewhere (errors matching `ignore` aside). */
  function assertClean({ ignore } = {}) {
    const errs = ignore ? errors.filter((e) => !ignore.test(e)) : errors;
    assert.deepEqual(errs, [], `console errors:\n${errs.join('\n')}`);
    assert.deepEqual(offsite, [], `fetched from elsewhere:\n${offsite.join('\n')}`);
  }

  const session = {
    get page() { return page; },
    get server() { return server; },
    get browser() { return browser; },
    errors,
    offsite,
    /** Also counts requests to `url` (a server a test starts itself) as ours. */
    allow(url) { allowed.push(url); },
    view,
    valueOf,
    waitForRequest,
    computeThroughUi,
    download,
    assertClean,
  };
  return session;
}
