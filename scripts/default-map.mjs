// Precomputes the isoefficiency view's default map (003, Figs. 1-2) with
// the page's own core (www/pkg, the wasm module built just before) from the
// page's own requests (www/views/isomap-request.js), into
// www/pkg/default-map.json: the view opens with it drawn instead of
// computing ~2,000 MIPs, and checks it by computing one machine count again;
// with it the view's default point (its MIP), checked by computing it again.
// The core counts LPs, not time, so the numbers are the page's to the bit.
// Skipped when the file already holds this map from this very wasm module.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initSync, solve } from '../www/pkg/dlt_wasm.js';
import { defaults, mapBase, mapKey, mapRequest, pointRequest } from '../www/views/isomap-request.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const wasm = readFileSync(join(root, 'www/pkg/dlt_wasm_bg.wasm'));
const out = join(root, 'www/pkg/default-map.json');
const values = defaults();
const key = mapKey(values);
const core = createHash('sha256').update(wasm).digest('hex');

const old = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : null;
if (old?.key === key && old?.core === core && old?.point) {
  console.log('default map: up to date');
} else {
  initSync({ module: wasm });
  const started = performance.now();
  const base = mapBase(values);
  const columns = {};
  let points = 0;
  for (let m = values.m_lo; m <= values.m_hi; m++) {
    columns[m] = solve(mapRequest(base, m));
    points += columns[m].points;
  }
  // The view's default point, drawn beside the map when it opens.
  const request = pointRequest(values);
  const point = { request, response: solve(request) };
  writeFileSync(out, JSON.stringify({ key, core, columns, point }));
  console.log(`default map: m = ${values.m_lo}..${values.m_hi}, ${points} MIPs and the default point in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
