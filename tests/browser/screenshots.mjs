// Takes screenshots of every view, wide and narrow, for a person to look at:
//   node tests/browser/screenshots.mjs [OUT_DIR]   (default /tmp/dlt-screens)
// Not a test (node --test does not pick it up). Set MOCK_PKG=DIR to serve
// DIR/dlt_wasm.js instead of www/pkg's module (layout work before a model
// lands).

import path from 'node:path';
import fs from 'node:fs/promises';
import { serve, launch, watchErrors } from './harness.mjs';

const out = process.argv[2] ?? '/tmp/dlt-screens';
await fs.mkdir(out, { recursive: true });
const overrides = process.env.MOCK_PKG ? { '/pkg/dlt_wasm.js': path.join(process.env.MOCK_PKG, 'dlt_wasm.js') } : {};
const server = await serve(undefined, { overrides });
const browser = await launch();
const errors = [];
try {
  const views = (process.env.VIEWS ?? 'buffers,torus,memory,nonlinear,hetero').split(',');
  const sizes = [{ name: 'wide', width: 1440, height: 1000 }, { name: 'narrow', width: 400, height: 860 }];
  for (const size of sizes) {
    for (const id of views) {
      const page = await browser.context.newPage();
      watchErrors(page, errors);
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto(`${server.url}#${id}`);
      await page.locator(`#view-${id} [data-testid=results][data-state=done], #view-${id} [data-testid=results][data-state=error]`).waitFor({ timeout: 30000 });
      await page.locator(`#view-${id} [data-panel=sweep] .progress.finished, #view-${id} [data-panel=sweep] .msg`).first().waitFor({ timeout: 60000 }).catch(() => {});
      await page.waitForTimeout(600);
      const file = path.join(out, `${id}-${size.name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(file);
      if (size.name === 'narrow') {
        // The whole narrow page is too tall to read at once: also in pieces.
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        for (let y = 0, i = 1; y < height; y += 1100, i++) {
          const part = path.join(out, `${id}-${size.name}-${i}.png`);
          await page.screenshot({ path: part, fullPage: true, clip: { x: 0, y, width: size.width, height: Math.min(1100, height - y) } });
          console.log(part);
        }
      }
      await page.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}
if (errors.length) {
  console.log('errors:\n' + errors.join('\n'));
  process.exitCode = 1;
}
