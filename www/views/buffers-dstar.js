// The buffer size D* of Sec. 5 of [000] for the buffers view's request
// (`buffer_dstar`), what it means for the D of the form, and a button that
// computes with D = D*.

import { fmt, isNum } from '../format.js';
import { el, fill, summary, warnings, message } from '../ui.js';

/** The `buffer_dstar` topology of a request. */
function dstarTopology(q) {
  if (q.model === 'star') return 'star';
  if (q.model === 'binomial') return 'binomial';
  return q.buffers === 2 ? 'tree2' : 'tree1';
}

const DSTAR = {
  star: { name: 'star', formula: 'D* ≥ mS / (A − mC): A·D* ≥ m(S + C·D*), every processor computes through a whole stage of m messages' },
  binomial: { name: 'binomial tree', formula: 'D* ≥ S(h+1)h·p(p+1)^(h−2) / (2(A − Ch(p+1)^(h−1))): layer h, the least loaded, computes through one stage of communications' },
  tree2: { name: 'ordinary tree, 2 buffers', formula: 'D* ≥ hS / (A/p^(h−1) − Ch): layer h computes through the h overlapping messages of one stage (2 buffers)' },
  tree1: { name: 'ordinary tree, 1 buffer', formula: 'D* ≥ hS / (A/p^(h−1) − hC(1 + 1/p)): layer h computes through one stage of communications (1 buffer)' },
};

function sentence(d, condition, D) {
  const cond = condition ? `${condition}` : 'its condition';
  if (!isNum(d)) return `D* does not exist: ${cond} fails for these parameters, so idle times are inevitable whatever the buffer size.`;
  const where = !isNum(D)
    ? 'Your buffer is unlimited, so the limit never binds.'
    : D >= d
      ? `Your D = ${fmt(D)} is at least D*: messages of size D keep the processors busy between stages.`
      : `Your D = ${fmt(D)} is below D*: with full messages of size D, processors may wait idle for the next stage.`;
  return `D* exists because ${cond} holds for these parameters. ${where}`;
}

/**
 * "Compute with D = D*": a given n that the core refuses with the new
 * buffer (below its n_min) is dropped for n_min, and the button says so.
 */
async function useButton(ctx, q, d) {
  const D = Number(d.toPrecision(6));
  const tooFew = q.n !== undefined && await ctx.solver.plan({ ...q, D }, { signal: ctx.signal }).then(() => false, (e) => e.field === 'n');
  return el('button', {
    type: 'button', class: 'ghost small', 'data-testid': 'use-dstar',
    text: `Compute with D = D* (${fmt(d, 4)})${tooFew ? ' and n = n_min' : ''}`,
    onclick: () => ctx.setValues(tooFew ? { D, n: '' } : { D }),
  });
}

export function renderDstar(ctx) {
  const q = ctx.request;
  const topology = dstarTopology(q);
  const body = ctx.panel('dstar', {
    title: 'Buffer size D* (Sec. 5 of [000])',
    note: `With messages of size D* the processors keep computing until the next stage arrives. ${DSTAR[topology].formula}.`,
  });
  const request = { model: 'buffer_dstar', topology, S: q.S, C: q.C, A: q.A };
  if (q.model === 'star') request.m = q.m;
  else Object.assign(request, { p: q.p, h: q.h });
  const key = JSON.stringify(request);
  const seq = (ctx.state.dstarSeq = (ctx.state.dstarSeq ?? 0) + 1);
  const draw = async (res, err) => {
    if (err) {
      fill(body, message('error', `D* could not be computed: ${err.message}`));
      return;
    }
    const d = res.D_star;
    const items = [{ label: 'D*', hint: DSTAR[topology].name, value: isNum(d) ? d : 'does not exist', unit: isNum(d) ? 'units' : undefined, testid: 'dstar', big: true }];
    const warn = Array.isArray(res.warnings) ? res.warnings.filter((w) => !/does not exist/.test(w)) : [];
    const text = el('p', { class: 'dstar-text', 'data-testid': 'dstar-text', text: sentence(d, res.condition, q.D) });
    const use = isNum(d) && ctx.setValues ? await useButton(ctx, q, d).catch(() => null) : null;
    if (ctx.state.dstarSeq !== seq) return;
    fill(body, summary(items), text, warnings(warn), use ? el('div', { class: 'panel-actions' }, use) : null);
  };
  if (ctx.state.dstar?.key === key) {
    draw(ctx.state.dstar.res, ctx.state.dstar.err);
    return;
  }
  ctx.solver.solve(request, { signal: ctx.signal }).then(
    (res) => { ctx.state.dstar = { key, res }; if (ctx.state.dstarSeq === seq) draw(res); },
    (err) => { if (ctx.state.dstarSeq === seq && err.code !== 'cancelled') draw(null, err); },
  );
}
