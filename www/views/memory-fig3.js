// Fig. 3 of [002]: classical linear DLT against the memory hierarchy, for
// the memory view's processors: the loads of a linear model (core or
// out-of-core rates alone) and the schedule they really take.

import { fmt, isNum } from '../format.js';
import { ganttOption, ganttHeight } from '../gantt.js';
import { COLORS, alpha } from '../charts.js';
import { el, fill, message } from '../ui.js';
import { printedFor, withComputed, paperValues } from '../printed.js';
import { timeOf } from './memory-pieces.js';

/** The processors with one linear piece each, x·A_i2 of their core (fastest) or out-of-core (slowest) level. */
function linearProcessors(processors, which) {
  return processors.map((p) => {
    const rates = p.pieces.map(([, b]) => b);
    const b = which === 'core' ? Math.min(...rates) : Math.max(...rates);
    return { S: p.S, C: p.C, pieces: [[0, b]] };
  });
}

/** The schedule a linear model's loads really take under the hierarchy: same messages, real computing times. */
function realSchedule(res, processors) {
  const rows = Array.isArray(res.processors) ? res.processors : [];
  const planned = [];
  const schedule = [];
  let end = 0;
  for (const s of Array.isArray(res.schedule) ? res.schedule : []) {
    if (s.kind !== 'compute') {
      schedule.push(s);
      end = Math.max(end, s.end);
      continue;
    }
    const m = /^P(\d+)$/.exec(rows[s.proc]?.label ?? '');
    const p = m ? processors[Number(m[1]) - 1] : undefined;
    planned.push({ proc: s.proc, start: s.start, end: s.end, load: s.load, note: 'what the linear model plans' });
    const real = p ? s.start + timeOf(p.pieces, s.load) : s.end;
    schedule.push({ ...s, end: real });
    end = Math.max(end, real);
  }
  return { schedule, planned, end };
}

function fig3Option(res, processors) {
  const { schedule, planned, end } = realSchedule(res, processors);
  const model = res.makespan;
  const real = isNum(res.real_makespan_under_hierarchy) ? res.real_makespan_under_hierarchy : end;
  const option = ganttOption({ processors: res.processors, schedule, makespan: Math.max(model, real) }, {
    extra: [{ name: 'computing as planned', lane: 'compute', color: alpha(COLORS.compute, 0.22), intervals: planned }],
  });
  compactGantt(option);
  option.series.find((s) => s.name === 'computation').markLine = {
    silent: true, symbol: 'none', label: { show: false },
    data: [
      { xAxis: model, lineStyle: { color: COLORS.reference, type: 'dashed', width: 1.5 } },
      { xAxis: real, lineStyle: { color: COLORS.alert, type: 'solid', width: 1.5 } },
    ],
  };
  return option;
}

/** A Gantt option for a narrow card: no legend (the panel has one), less margin. */
function compactGantt(option) {
  option.legend = { show: false };
  option.grid = { ...option.grid, top: 12 };
  return option;
}

function fig3Card(ctx, key, parent, { title, what }) {
  let card = parent.querySelector(`[data-fig3="${key}"]`);
  if (!card) {
    card = el('figure', { class: 'fig3-card', 'data-fig3': key },
      el('figcaption', {}, el('b', { text: title }), el('span', { class: 'fig3-what', text: what })),
      el('div', { class: 'fig3-numbers' }),
      el('div', { class: 'fig3-chart' }));
    parent.append(card);
  }
  return { card, numbers: card.querySelector('.fig3-numbers'), holder: card.querySelector('.fig3-chart') };
}

function number(label, value, testid, cls) {
  return el('span', { class: `fig3-num ${cls ?? ''}` }, `${label} `, el('b', { 'data-testid': testid, 'data-value': isNum(value) ? String(value) : undefined, title: isNum(value) ? String(value) : undefined, text: fmt(value) }));
}

export function renderFig3(r, ctx) {
  const q = ctx.request;
  const body = ctx.panel('fig3', {
    title: 'Memory hierarchy against classical linear DLT (Fig. 3 of [002])',
    wide: true,
    note: 'Classical DLT takes the computing time linear: x·A^l_i2 if it assumes the load stays in core, x·A^h_i2 if all of it is computed out-of-core (the constants A_i1 are left out, as in the paper). (b) and (c) run the loads such a model picks on the real hierarchy: pale bars are the computing times the linear model planned, dark bars what the hierarchy really takes. With the paper’s example (the defaults), the numbers it prints are listed below beside the computed ones.',
  });
  let grid = body.querySelector('.fig3-grid');
  if (!grid) {
    grid = el('div', { class: 'fig3-grid' });
    const key = (cls, text) => el('span', { class: 'swatch' }, el('i', { class: cls }), text);
    const legend = el('div', { class: 'legend fig3-legend' },
      key('comm', 'communication'), key('compute', 'computation'), key('planned', 'computing as the linear model planned'),
      key('line model', 'Cmax of the model'), key('line real', 'real Cmax under the hierarchy'));
    fill(body, legend, grid);
  }
  body.querySelectorAll(':scope > .msg, :scope > .fig-values').forEach((n) => n.remove());
  const rowsN = Array.isArray(r.processors) ? r.processors.length : 1;
  const height = ganttHeight(rowsN) - 20;

  const a = fig3Card(ctx, 'a', grid, { title: '(a) hierarchical memory', what: 'LP (1)–(4): every piece counts' });
  fill(a.numbers, number('Cmax', r.makespan, 'fig3-hier'));
  const optA = compactGantt(ganttOption(r, { timeName: 'time' }));
  optA.series.find((s) => s.name === 'computation').markLine = {
    silent: true, symbol: 'none', label: { show: false }, data: [{ xAxis: r.makespan, lineStyle: { color: COLORS.reference, type: 'dashed', width: 1.5 } }],
  };
  ctx.chart('fig3-a', a.holder, { height }).setOption(optA, { notMerge: true });

  const cases = [
    { key: 'b', which: 'core', title: '(b) core memory only', what: 'linear x·A^l_i2, the fastest piece' },
    { key: 'c', which: 'ooc', title: '(c) out-of-core only', what: 'linear x·A^h_i2, the slowest piece' },
  ];
  const real = q.processors.map((p) => p.pieces);
  const seq = (ctx.state.fig3Seq = (ctx.state.fig3Seq ?? 0) + 1);
  const solved = cases.map((c) => {
    const card = fig3Card(ctx, c.key, grid, c);
    const request = { model: 'memory', V: q.V, processors: linearProcessors(q.processors, c.which), real_pieces: real };
    if (q.prune === false) request.prune = false;
    return ctx.solver.solve(request, { signal: ctx.signal }).then((res) => {
      if (ctx.state.fig3Seq !== seq) return undefined;
      fill(card.numbers,
        number('model Cmax', res.makespan, `fig3-${c.which}-model`),
        number('real', res.real_makespan_under_hierarchy, `fig3-${c.which}-real`, 'real'),
        el('span', { class: 'fig3-loads', text: `α = ${(Array.isArray(res.loads) ? res.loads : []).map((x) => fmt(x, 4)).join(', ')}` }));
      ctx.chart(`fig3-${c.key}`, card.holder, { height }).setOption(fig3Option(res, q.processors), { notMerge: true });
      return res;
    }, (err) => {
      if (ctx.state.fig3Seq !== seq || err.code === 'cancelled') return undefined;
      fill(card.numbers, message('error', `not computed: ${err.message}`));
      return undefined;
    });
  });
  // Only for the paper's example: its printed numbers belong to no other input.
  const printed = printedFor('002-fig3', q);
  if (printed) {
    Promise.all(solved).then(([b, c]) => {
      if (ctx.state.fig3Seq === seq) body.append(paperValues(withComputed(printed, { a: r, b, c })));
    });
  }
}
