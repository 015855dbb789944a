// The gallery's cold times (issue 10's goal: every entry drawn over its
// full range within 2 s in Chromium): each entry's permalink opened in a
// fresh browser (nothing cached, no service worker), timed from navigation
// until its figure is drawn: a gallery card in the 'done' state, or, for a
// figure a view draws, that view's result shown and no progress indicator
// of it still running. Beside it, the native time of the same work: the
// requests the page sent its workers while drawing it, recorded, solved
// again by the native build (`dlt-bench --requests`, each the median of
// repeats until 0.3 s, summed). Measured, not asserted: prints a table, and with
// --write FILE writes it there; --save DIR keeps each entry's requests as
// DIR/ID.json, for `dlt-bench --requests` and a profiler.
//
//   node tests/bench/gallery.mjs [--write FILE] [--only ID,ID] [--save DIR]

import { writeFileSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve, launch, ROOT } from '../browser/harness.mjs';

const args = process.argv.slice(2);
const arg = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const only = arg('--only')?.split(',');
const LIMIT_MS = 120000;
const BENCH = path.join(ROOT, 'target', 'release', 'dlt-bench');
const msText = (ms) => (ms === null ? '—' : `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`);

/** The native build's time for `requests`: {requests, ms} (ms null without target/release/dlt-bench). */
function native(requests) {
  if (!existsSync(BENCH) || !requests.length) return { requests: requests.length, ms: null };
  const dir = mkdtempSync(path.join(tmpdir(), 'dlt-gallery-'));
  try {
    const file = path.join(dir, 'requests.json');
    writeFileSync(file, JSON.stringify(requests));
    const answers = JSON.parse(execFileSync(BENCH, ['--requests', file], { encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'ignore'] }));
    return { requests: requests.length, ms: answers.reduce((sum, a) => sum + a.ms, 0) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const server = await serve();
const rows = [];
try {
  const browser = await launch();
  let entries;
  try {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}#v=1&view=gallery`);
    await page.waitForSelector('.fig-card');
    entries = await page.evaluate(() => [...document.querySelectorAll('.fig-card')].map((c) => ({
      id: c.dataset.fig, label: c.querySelector('.fig-kind')?.textContent ?? '', link: c.querySelector('.fig-link').getAttribute('href'),
    })));
  } finally {
    await browser.close();
  }
  for (const entry of entries.filter((e) => !only || only.includes(e.id))) {
    const browser = await launch();
    try {
      const page = await browser.context.newPage();
      // Every request the page gives a worker to solve, in the order sent.
      await page.addInitScript(() => {
        window.sentRequests = [];
        const post = Worker.prototype.postMessage;
        Worker.prototype.postMessage = function (message, ...rest) {
          if (message?.type === 'solve') window.sentRequests.push(message.request);
          return post.call(this, message, ...rest);
        };
      });
      const view = new URLSearchParams(entry.link.slice(1)).get('view');
      const started = Date.now();
      await page.goto(`${server.url}${entry.link}`);
      const state = await page.waitForFunction(({ id, view }) => {
        if (view === 'gallery') {
          const s = document.querySelector(`[data-fig="${id}"]`)?.dataset.state;
          return s === 'done' || s === 'error' ? s : false;
        }
        // A view's sweeps start after its result and show their progress
        // after 300 ms: quiet for 600 ms counts as drawn (its time excluded).
        const section = document.querySelector(`#view-${view}`);
        const s = section?.querySelector('[data-testid="results"]')?.dataset.state;
        if (s === 'error') return s;
        if (s !== 'done' || section.querySelector('.progress:not(.finished)')) {
          window.quietSince = undefined;
          return false;
        }
        window.quietSince ??= performance.now();
        return performance.now() - window.quietSince >= 600 ? `done@${window.quietSince}` : false;
      }, { id: entry.id, view }, { timeout: LIMIT_MS, polling: 100 }).then((h) => h.jsonValue(), () => 'timeout');
      // For a view, the time it fell quiet, not the 600 ms watched after.
      const quiet = String(state).startsWith('done@') ? Number(String(state).slice(5)) : null;
      const ms = quiet === null ? Date.now() - started : Math.round((await page.evaluate(() => performance.timeOrigin)) + quiet - started);
      const sent = await page.evaluate(() => window.sentRequests);
      if (arg('--save')) writeFileSync(path.join(arg('--save'), `${entry.id}.json`), JSON.stringify(sent));
      rows.push({ ...entry, view, state: quiet === null ? state : 'done', ms, native: native(sent) });
      const shown = rows[rows.length - 1].state;
      const { requests, ms: nativeMs } = rows[rows.length - 1].native;
      console.log(`${entry.id.padEnd(16)} ${String(view).padEnd(14)} ${shown.padEnd(8)} ${(shown === 'timeout' ? `> ${LIMIT_MS / 1000} s` : `${ms} ms`).padStart(9)}  native ${requests} requests ${msText(nativeMs)}`);
    } finally {
      await browser.close();
    }
  }
} finally {
  await server.close();
}

const within = rows.filter((r) => r.state === 'done' && r.ms <= 2000).length;
const summary = `${within} of ${rows.length} entries drawn cold within 2 s; slowest ${[...rows].sort((a, b) => b.ms - a.ms).slice(0, 5).map((r) => `${r.id} ${r.state === 'timeout' ? `> ${LIMIT_MS / 1000} s` : `${(r.ms / 1000).toFixed(1)} s`}`).join(', ')}`;
console.log(summary);
const file = arg('--write');
if (file) {
  const table = ['| entry | drawn by | state | cold time in Chromium | requests | native |', '|---|---|---|--:|--:|--:|', ...rows.map((r) => `| ${r.id} | ${r.view} | ${r.state} | ${r.state === 'timeout' ? `> ${LIMIT_MS / 1000} s` : `${r.ms} ms`} | ${r.native.requests} | ${msText(r.native.ms)} |`)];
  writeFileSync(file, `# Gallery, cold, in headless Chromium and natively\n\n\`node tests/bench/gallery.mjs --write ${file}\` (part of \`bash scripts/bench.sh\`). Cold time: each entry's permalink in a fresh browser, from navigation until its figure is drawn (page load, the wasm's start, every solve, the drawing). Native: the requests the page sent its workers while drawing it (the core's sweeps count as one), each solved again by \`target/release/dlt-bench --requests\` (the median of repeats until 0.3 s in all, at most 1000 runs), summed: the core's work alone, one thread. The isoefficiency entries draw the default map and point precomputed at build time: their requests are the checks, one machine count of the map and the point computed again.\n\n${summary}.\n\n${table.join('\n')}\n`);
}
