// The buffers view's Cmax-vs-V chart (Figs. 7, 8 and 11 of [000]): V from
// 1e1 to 1e6, three points a decade, for several buffers D, each point at
// n = n_min (the core solves the large ones with the middle stages full).
// Three plots of the same data.

import { fmt, isNum } from '../format.js';
import { sweepOption, fitLegend, logSpace, logRange, COLORS } from '../charts.js';
import { el, message } from '../ui.js';
import { radioGroup } from '../roving.js';

const SWEEP_V = logSpace(1, 6, 3);
const SWEEP_D = [1e2, 1e3, 1e4, undefined];
const GREY = '#7d8796';

const SWEEP_MODES = [
  { id: 'cmax', label: 'Cmax', title: 'schedule length against V, log-log (Figs. 7, 11 of [000])' },
  { id: 'ratio', label: 'Cmax / LB', title: 'how far each schedule is from LB' },
  { id: 'diff', label: 'Cmax − Cmax(D = 1e2)', title: 'how much longer the schedule is than with D = 1e2, both with n_min stages (Fig. 8 of [000]); no point where it is not longer' },
];

/** The sweep's fixed parameters: the request's without V, D and n. */
function sweepBase(q) {
  const star = q.model === 'star';
  const base = { model: q.model, ...(star ? { m: q.m } : { p: q.p, h: q.h }), S: q.S, C: q.C, A: q.A };
  if (!star) base.order = q.order;
  if (q.model === 'tree') base.buffers = q.buffers;
  if (q.prune !== undefined) base.prune = q.prune;
  return base;
}

function sweepNote(q) {
  const star = q.model === 'star';
  const capText = star ? 'D·m' : q.model === 'tree' ? 'D·p·h' : 'D(h(p+1) − 1)';
  return `n = n_min = ⌈V / (${capText})⌉ stages, S, C, A${star ? ', m' : ', p, h, the order'} from the form; V from 1e1 to 1e6, three points a decade. `
    + (star
      ? 'The dashed line is LB = S + VA/m: ideal balance after one start-up. On this scale the lines nearly coincide, as in Fig. 7 of [000]; “Cmax − Cmax(D = 1e2)” shows their differences, like Fig. 8.'
      : `The dashed line is LB, the LB strategy of Sec. 4.2 (only the best single layer computes, n* stages): the paper’s estimate, which assumes computing hidden behind communication and is no bound where computing dominates; the dotted line is the core’s lower bound of that strategy. ${q.model === 'binomial' ? 'Fig. 11 of [000] is a binomial tree, LLF, h = 10' : 'Fig. 12 of [000] compares an ordinary tree with h = 7 and a binomial tree with h = 5'}.`)
    + ' Beyond 1000 messages at n_min the core fills the middle stages to D and solves the stages at the ends (its gap to a lower bound is in the single solve’s warnings).';
}

/** The chart's panel with its plot choice, made once. */
function sweepPanel(ctx, q) {
  const body = ctx.panel('sweep', {
    title: q.model === 'star' ? 'Cmax vs V for several buffer sizes D (like Fig. 7 of [000])' : `Cmax vs V for several buffer sizes D (like Fig. ${q.model === 'binomial' ? '11' : '12'} of [000])`,
    note: sweepNote(q),
    wide: true,
    swept: ['V', 'D', 'n'],
  });
  if (!body.querySelector('.sweep-holder')) {
    const buttons = SWEEP_MODES.map((m) => el('button', {
      type: 'button', role: 'radio', 'data-mode': m.id, 'data-testid': `sweep-mode-${m.id}`, text: m.label, title: m.title,
      'aria-checked': String(m.id === sweepMode(ctx)),
    }));
    // One Tab stop, arrows move (the gallery filter's radio group).
    radioGroup(buttons, (b) => {
      if (b.dataset.mode === sweepMode(ctx)) return; // unchanged: the link and the chart stay
      ctx.state.sweepMode = b.dataset.mode;
      ctx.setLinkState?.('mode', b.dataset.mode); // the permalink keeps what the chart plots
      if (ctx.state.sweep?.data) drawSweep(ctx, ctx.state.sweep.data);
    });
    body.append(el('div', { class: 'segmented', role: 'radiogroup', 'aria-label': 'what to plot' }, buttons), el('div', { class: 'sweep-holder' }));
  }
  return body;
}

export async function renderSweep(ctx) {
  const q = ctx.request;
  const star = q.model === 'star';
  const base = sweepBase(q);
  const body = sweepPanel(ctx, q);
  ctx.state.sweepBody = body;
  const key = JSON.stringify(base);
  if (ctx.state.sweep?.key === key && ctx.state.sweep.data) {
    drawSweep(ctx, ctx.state.sweep.data);
    return;
  }
  body.querySelectorAll(':scope > .msg').forEach((n) => n.remove());
  const token = {};
  ctx.state.sweep = { key, token };
  const points = [];
  const where = []; // [series, point] of each point
  SWEEP_D.forEach((D, di) => SWEEP_V.forEach((V, vi) => {
    points.push(D === undefined ? { ...base, V } : { ...base, V, D });
    where.push([di, vi]);
  }));
  const requests = points;
  const index = where;
  if (!star) {
    SWEEP_V.forEach((V, vi) => {
      requests.push({ model: 'lb_layer', p: q.p, h: q.h, S: q.S, C: q.C, A: q.A, V });
      index.push([SWEEP_D.length, vi]);
    });
  }
  const responses = await ctx.sweep(body, 'Cmax sweep', requests, { pick: ['makespan', 'LB', 'lower_bound'] });
  if (!responses || ctx.state.sweep?.token !== token) return;
  const positive = (y) => (isNum(y) && y > 0 ? y : null);
  const values = Array.from({ length: SWEEP_D.length }, () => SWEEP_V.map(() => null));
  const lb = SWEEP_V.map(() => null);
  const bound = SWEEP_V.map(() => null);
  const failed = [];
  responses.forEach((res, j) => {
    const [si, vi] = index[j];
    if (res?.error) {
      failed.push(res.error);
      return;
    }
    if (si < SWEEP_D.length) values[si][vi] = positive(res.makespan);
    else bound[vi] = positive(res.lower_bound);
    // The star's own LB, the same for every D; a tree's, the LB strategy's (lb_layer).
    if (star || si === SWEEP_D.length) lb[vi] ??= positive(res.LB);
  });
  const notes = [];
  if (failed.length) notes.push(`${failed.length} point${failed.length > 1 ? 's were' : ' was'} skipped because the core could not solve ${failed.length > 1 ? 'them' : 'it'}: ${failed[0].message}`);
  if (notes.length) body.prepend(message('info', notes.join(' ')));
  body.dataset.skipped = String(failed.length);
  ctx.state.sweep = { key, data: { values, lb, bound: star ? null : bound, star } };
  drawSweep(ctx, ctx.state.sweep.data);
}

/** What the chart plots: the link's choice, else the user's, else Cmax. */
function sweepMode(ctx) {
  const linked = ctx.linkState?.mode;
  return SWEEP_MODES.some((m) => m.id === linked) ? linked : ctx.state.sweepMode ?? 'cmax';
}

/** Draws the sweep's values as the chosen mode asks. */
function drawSweep(ctx, { values, lb, bound, star }) {
  const mode = sweepMode(ctx);
  const body = ctx.state.sweepBody;
  const V = ctx.request.V;
  body.querySelectorAll('.segmented [data-mode]').forEach((b) => {
    b.setAttribute('aria-checked', String(b.dataset.mode === mode));
    b.tabIndex = b.dataset.mode === mode ? 0 : -1;
  });
  const chart = ctx.chart('sweep', body.querySelector('.sweep-holder'), { height: 380, onResize: fitLegend });
  const ref = values[SWEEP_D.indexOf(1e2)];
  const y = (di, vi) => {
    const c = values[di][vi];
    if (!isNum(c)) return null;
    if (mode === 'ratio') return isNum(lb[vi]) ? c / lb[vi] : null;
    // Differences at rounding level (1e-9 of Cmax) are no difference.
    if (mode === 'diff') return isNum(ref?.[vi]) && c - ref[vi] > 1e-9 * c ? c - ref[vi] : null;
    return c;
  };
  const shown = SWEEP_D.map((D, di) => di).filter((di) => mode !== 'diff' || SWEEP_D[di] !== 1e2);
  const series = shown.map((di) => ({
    name: SWEEP_D[di] === undefined ? 'D = ∞ (unlimited)' : `D = ${fmt(SWEEP_D[di])}`,
    data: SWEEP_V.map((v, vi) => [v, y(di, vi)]),
    color: COLORS.series[di],
  }));
  if (mode === 'cmax') {
    series.push({ name: star ? 'LB = S + VA/m' : 'LB strategy (the paper’s estimate)', data: SWEEP_V.map((v, vi) => [v, lb[vi]]), dashed: true, color: GREY });
    if (bound) series.push({ name: 'lower bound of the LB strategy', data: SWEEP_V.map((v, vi) => [v, bound[vi]]), dashed: true, lineType: 'dotted', color: GREY });
  }
  if (mode === 'ratio') series.push({ name: 'Cmax = LB', data: SWEEP_V.map((v) => [v, 1]), dashed: true, color: GREY });
  const yName = mode === 'ratio' ? 'Cmax / LB' : mode === 'diff' ? 'Cmax − Cmax(D = 1e2) [s]' : 'Cmax [s]';
  const yLog = mode !== 'ratio';
  const option = sweepOption({ series, xName: 'load V [units]', yName, xLog: true, yLog, markX: V, markLabel: `V = ${fmt(V)}` });
  if (yLog) Object.assign(option.yAxis, logRange(series));
  chart.setOption(option, { notMerge: true });
  fitLegend(chart);
}
