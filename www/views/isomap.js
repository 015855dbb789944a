// The isoefficiency map's scheduling (Sec. 3 of [003]): one
// `isoefficiency_map` request per machine count m, spread over a pool of
// workers, one per core (../pool.js), with progress per m, cancel and
// resume, the machine counts that failed offered again, and redraws
// coalesced while results arrive. Its drawing is isomap-draw.js.

import { fmt, fmtInt, isNum } from '../format.js';
import { el, fill, message, progress } from '../ui.js';
import { Pool, SolverError, defaultPoolSize } from '../pool.js';
import { mapPanel, drawMap, renderTable, renderEmaxChart } from './isomap-draw.js';
import { mapBase, mapRequest, mapKey, formError } from './isomap-request.js';

// Runs when a map's computation finishes (the point's summary then says where it lies on the map).
let onMapDone = () => {};

// The map's workers, one per core: its machine counts are computed side by side.
let mapPool = null;

/** MIPs one m of the map takes, about: golden-section narrowing, then two bisections a level. */
function mipsPerM(base) {
  const steps = Math.max(1, (base.V_range[1] - base.V_range[0]) / base.width);
  return Math.ceil(Math.log(steps) / Math.log(1.618034)) + 2 + base.levels.length * 2 * (Math.ceil(Math.log2(steps)) + 2);
}

/**
 * Starts the map of the form's values unless it is the one shown (a new
 * point keeps its map), and draws what is known of it; `onDone(ctx)` runs
 * each time its computation finishes.
 */
export function renderMap(ctx, onDone) {
  onMapDone = onDone;
  const v = ctx.values;
  const body = mapPanel(ctx);
  const base = mapBase(v);
  const ms = [];
  for (let m = v.m_lo; m <= v.m_hi; m++) ms.push(m);
  const key = mapKey(v);
  ctx.state.display = { below: v.levels_below ?? [], above: v.levels_above ?? [] };
  if (ctx.state.map?.key !== key) {
    ctx.state.map?.controller?.abort();
    ctx.state.map = { key, base, ms, data: new Map(), failed: new Map(), status: 'idle', elapsed: 0, points: 0, proven: 0 };
    body.dataset.mRange = `${ms[0]}-${ms[ms.length - 1]}`;
    const map = ctx.state.map;
    loadPrecomputed().then((pre) => {
      if (ctx.state.map !== map) return;
      if (pre?.key === key) usePrecomputed(ctx, pre);
      else runMap(ctx, ms);
    });
  }
  drawMap(ctx);
}

// The default map, computed at build time by the same core from the same
// requests (scripts/default-map.mjs writes pkg/default-map.json): the view
// opens with it drawn, and checks it by computing one machine count again.
// Work is counted in LPs, not time, so a core that agrees gives the same
// numbers to the last bit. Absent (the single-file page), the map is computed.
let precomputed = null;

function loadPrecomputed() {
  precomputed ??= (async () => {
    try {
      const res = await fetch(new URL('../pkg/default-map.json', import.meta.url));
      return res.ok ? await res.json() : null;
    } catch {
      return null;
    }
  })();
  return precomputed;
}

/**
 * The answer to the view's default point, precomputed with the default map
 * (a MIP of 1,000 LPs, about a second in the browser), or null for any
 * other request. Checked as the map is: computed again by the map's
 * workers; where this core answers otherwise, `recompute()` solves it here.
 */
export async function precomputedPoint(request, recompute) {
  const pre = await loadPrecomputed();
  const point = pre?.point;
  if (!point || JSON.stringify(point.request) !== JSON.stringify(request)) return null;
  if (!point.checking) {
    mapPool ??= new Pool({ size: defaultPoolSize() });
    point.checking = mapPool.solve(request).then((res) => {
      if (JSON.stringify(res) === JSON.stringify(point.response)) return true;
      pre.point = null;
      recompute();
      return false;
    }, () => false);
  }
  return point.response;
}

/** For an answer `precomputedPoint` gave, its check (resolves to whether it held); else undefined. */
export function pointCheck(response) {
  return precomputed && response ? precomputed.then((pre) => (pre?.point?.response === response ? pre.point.checking : undefined)) : undefined;
}

/** One machine count's answer into the map, its MIPs counted. */
function addColumn(map, m, res) {
  map.data.set(m, res);
  map.points += isNum(res?.points) ? res.points : 0;
  map.proven += isNum(res?.proven) ? res.proven : 0;
}

function usePrecomputed(ctx, pre) {
  const map = ctx.state.map;
  const body = mapPanel(ctx);
  const status = body.querySelector('.isomap-status');
  for (const m of map.ms) addColumn(map, m, pre.columns[m]);
  map.status = 'done';
  body.dataset.state = 'done';
  body.dataset.source = 'precomputed';
  const m = map.ms[0];
  const note = el('p', { class: 'hint', 'data-testid': 'isomap-precomputed', text: `Precomputed when the page was built, by this core from these requests (${fmtInt(map.points)} MIPs); checking it by computing m = ${m} again…` });
  fill(status, note);
  for (const step of drawSteps(ctx)) step();
  onMapDone(ctx);
  const controller = new AbortController();
  map.controller = controller;
  mapPool ??= new Pool({ size: defaultPoolSize() });
  mapPool.solve(mapRequest(map.base, m), { signal: controller.signal }).then((res) => {
    if (ctx.state.map !== map) return;
    if (JSON.stringify(res) === JSON.stringify(pre.columns[m])) {
      body.dataset.verified = 'true';
      note.textContent = `Precomputed when the page was built, by this core from these requests (${fmtInt(map.points)} MIPs); checked: m = ${m} computed here again gives the same numbers.`;
      return;
    }
    // A stale file (another build of the core): computed here instead.
    body.dataset.source = 'computed';
    Object.assign(map, { data: new Map(), points: 0, proven: 0 });
    runMap(ctx, map.ms);
    status.prepend(message('warn', `The precomputed map differs from this core's answer at m = ${m}: computing the map here.`));
  }, () => {});
}


/** Computes the map for the machine counts `todo` (all of them, or those missing after a cancel). */
function runMap(ctx, todo) {
  const map = ctx.state.map;
  const body = mapPanel(ctx);
  const status = body.querySelector('.isomap-status');
  mapPool ??= new Pool({ size: defaultPoolSize() });
  const pool = mapPool;
  const controller = new AbortController();
  map.controller = controller;
  map.status = 'running';
  map.failed = new Map([...map.failed].filter(([m]) => !todo.includes(m)));
  body.dataset.state = 'running';
  const perM = mipsPerM(map.base);
  const label = `Map, m = ${todo[0]}…${todo[todo.length - 1]} (≤ ${fmtInt(perM)} MIPs per m, ${pool.size} worker${pool.size > 1 ? 's' : ''})`;
  const bar = progress(label, () => controller.abort());
  bar.el.dataset.testid = 'isomap-progress';
  bar.update(0, todo.length);
  fill(status, bar.el);
  const requests = todo.map((m) => mapRequest(map.base, m));
  const started = performance.now();
  const alive = () => ctx.state.map === map;
  pool.sweep(requests, {
    signal: controller.signal,
    onProgress: (done, total) => { if (alive()) bar.update(done, total); },
    onItem: (i, res) => {
      if (!alive()) return;
      const m = todo[i];
      if (res?.error) map.failed.set(m, res.error);
      else addColumn(map, m, res);
      scheduleDraw(ctx);
    },
  }).then(() => {
    if (!alive()) return;
    flushDraw(ctx);
    map.elapsed += performance.now() - started;
    map.status = 'done';
    body.dataset.state = 'done';
    body.dataset.ms = String(Math.round(map.elapsed));
    const done = map.data.size;
    bar.finish(`${done} machine count${done === 1 ? '' : 's'}, ${fmtInt(map.points)} MIPs in ${fmt(map.elapsed / 1000, 3)} s on ${pool.size} worker${pool.size > 1 ? 's' : ''}${map.proven ? `, ${fmtInt(map.proven)} proven optimal` : ', none proven optimal (the best found within the LP budget)'}`);
    showFailures(ctx);
    // A refusal of the map's request itself (the core's limits, e.g. on
    // levels) shows beside the form's field too.
    const refused = [...map.failed.values()].map(formError).find(Boolean);
    if (refused) ctx.showError(refused);
    onMapDone(ctx);
  }, (e) => {
    if (!alive()) return;
    map.elapsed += performance.now() - started;
    flushDraw(ctx);
    if (e instanceof SolverError && e.code === 'cancelled') {
      map.status = 'cancelled';
      body.dataset.state = 'cancelled';
      bar.finish(`cancelled: ${map.data.size} of ${map.ms.length} machine counts computed`);
      const missing = map.ms.filter((m) => !map.data.has(m));
      status.append(el('button', {
        type: 'button', class: 'ghost small', 'data-testid': 'isomap-resume', text: `Compute the other ${missing.length}`,
        onclick: () => runMap(ctx, map.ms.filter((m) => !map.data.has(m))),
      }));
    } else {
      map.status = 'error';
      body.dataset.state = 'error';
      bar.finish();
      status.append(message('error', `The map failed: ${e.message}`));
    }
  });
}

// Results of a map arrive every second or so; a redraw of the two maps, the
// table and its two charts costs the main thread ~150-250 ms, so redraws
// are coalesced (at most one every DRAW_MS) and run chart by chart, one
// task each, to keep the page responsive while the workers compute.
const DRAW_MS = 400;

function drawSteps(ctx) {
  return [() => drawMap(ctx, ['below']), () => drawMap(ctx, ['above']), () => renderTable(ctx, { charts: false }), () => renderEmaxChart(ctx)];
}

function scheduleDraw(ctx) {
  const s = ctx.state;
  if (s.drawTimer) return;
  const wait = Math.max(0, DRAW_MS - (performance.now() - (s.lastDraw ?? -Infinity)));
  const run = (steps) => {
    s.drawTimer = setTimeout(() => {
      steps[0]();
      if (steps.length > 1) run(steps.slice(1));
      else s.drawTimer = 0;
    }, 0);
  };
  s.drawTimer = setTimeout(() => {
    s.lastDraw = performance.now();
    run(drawSteps(ctx));
  }, wait);
}

/** Draws what is pending now (the map finished or stopped). */
function flushDraw(ctx) {
  const s = ctx.state;
  if (!s.drawTimer) return;
  clearTimeout(s.drawTimer);
  s.drawTimer = 0;
  s.lastDraw = performance.now();
  for (const step of drawSteps(ctx)) step();
}

function showFailures(ctx) {
  const map = ctx.state.map;
  if (!map.failed.size) return;
  const status = mapPanel(ctx).querySelector('.isomap-status');
  const [first] = map.failed.values();
  const ms = [...map.failed.keys()];
  const all = ms.length === map.ms.length;
  status.append(message(all ? 'error' : 'warn', `${all ? 'The core refused the map' : `m = ${ms.join(', ')} could not be computed`}: ${first.message}${first.field ? ` (${first.field})` : ''}`),
    all ? null : el('button', { type: 'button', class: 'ghost small', text: 'Try these again', onclick: () => runMap(ctx, ms) }));
}
