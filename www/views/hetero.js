// The heterogeneous star with affine costs: the model every course on
// divisible loads starts from (Bharadwaj, Ghose, Mani, Robertazzi 1996;
// with results returned, Beaumont, Marchal, Robert 2005). The core finds
// the loads for a given order exactly, and the best order and subset by
// branch and bound with a lower bound and its gap.

import { fmt, fmtInt, fmtPct, isNum } from '../format.js';
import { COLORS, BASE } from '../charts.js';
import { ganttOption, ganttHeight } from '../gantt.js';
import { fill, summary, extraNumbers, warnings, table, lpDownload } from '../ui.js';

const KNOWN = ['makespan', 'lower_bound', 'gap', 'proven', 'total_load'];

// The core's worked example (examples/hetero_star.json): the order as
// listed, by C_i, by A_i and the best differ, and P5's start-up costs more
// than it saves.
const EXAMPLE = [
  { S: 2, C: 0.2, A: 1 },
  { S: 1, C: 0.1, A: 2 },
  { S: 5, C: 0.05, A: 1.5 },
  { S: 0.5, C: 0.4, A: 0.8 },
  { S: 30, C: 0.3, A: 3 },
];

const ORDER_NAMES = { given: 'as given', by_C: 'by C_i (fastest link first)', by_A: 'by A_i (fastest processor first)', best: 'best order and subset' };

const returns = (v) => isNum(v.ratio) && v.ratio > 0;

export default {
  id: 'hetero',
  title: 'Heterogeneous star',
  model: 'hetero_star',
  paper: { id: 'DLT', cite: 'Bharadwaj, Ghose, Mani, Robertazzi, “Scheduling divisible loads in parallel and distributed systems”, IEEE CS Press, 1996; with results returned: Beaumont, Marchal, Robert, “Scheduling divisible loads with return messages on heterogeneous master-worker platforms”, HiPC 2005' },
  intro: 'The originator P0 holds the load V and sends each processor its part in one message, one message at a time: S_i + C_i·α_i to P_i, which then computes for A_i·α_i. A processor that gets no load is sent nothing and pays no start-up. Which processors to use, and in which order, decides the schedule length: with S = 0 serving the fastest links first is optimal and everyone finishes together; with start-ups the choice is NP-hard, and the calculator searches it by branch and bound, with a lower bound and the gap to it. Results may be returned (a fraction r of each load, over the same port, in the order served or in reverse).',
  fields: [
    { key: 'V', symbol: 'V', name: 'load', unit: 'units', kind: 'number', default: 100 },
    {
      key: 'processors', symbol: 'P', name: 'processors P1 … Pm: start-up S_i, transfer time C_i per unit and computing time A_i per unit',
      kind: 'rows', minRows: 1, maxRows: 200, addLabel: '+ Add a processor (a copy of the last)',
      rowLabel: (i) => `P${i + 1}`,
      default: EXAMPLE,
      columns: [
        { key: 'S', label: 'S_i', title: 'communication start-up S_i [time]', kind: 'number' },
        { key: 'C', label: 'C_i', title: 'transfer time per unit C_i [time/unit]', kind: 'number' },
        { key: 'A', label: 'A_i', title: 'computing time per unit A_i [time/unit]', kind: 'number' },
      ],
    },
    {
      key: 'order', symbol: 'ord', name: 'order in which P0 serves the processors', kind: 'choice', default: 'best',
      choices: [
        { value: 'best', label: 'best order and subset (branch and bound)' },
        { value: 'by_C', label: 'by C_i, fastest link first' },
        { value: 'given', label: 'as listed' },
      ],
    },
    { key: 'ratio', symbol: 'r', name: 'results returned per unit of load', kind: 'number', optional: true, placeholder: 'blank: none', help: 'each P_i sends r·α_i back after computing, over P0’s one port' },
    {
      key: 'policy', symbol: 'ret', name: 'order of the returns', kind: 'choice', default: 'FIFO', when: returns,
      choices: [{ value: 'FIFO', label: 'FIFO — in the order served' }, { value: 'LIFO', label: 'LIFO — in reverse order' }],
    },
  ],

  toRequest(v) {
    const r = { model: 'hetero_star', V: v.V, processors: v.processors.map((p) => ({ S: p.S, C: p.C, A: p.A })), order: v.order };
    if (isNum(v.ratio)) r.return = { ratio: v.ratio, policy: v.policy ?? 'FIFO' };
    return r;
  },

  render(r, ctx) {
    renderSummary(r, ctx);
    renderLoads(r, ctx);
    renderOrders(r, ctx);
    renderGantt(r, ctx);
  },
};

function sequenceText(seq) {
  return Array.isArray(seq) && seq.length ? seq.map((i) => `P${i}`).join(' → ') : undefined;
}

function renderSummary(r, ctx) {
  const q = ctx.request;
  const body = ctx.panel('summary', { title: 'Result', wide: true });
  const loads = Array.isArray(r.loads) ? r.loads : [];
  const used = loads.filter((x) => isNum(x) && x > 0).length;
  const items = [
    { label: 'schedule length Cmax', value: r.makespan, unit: 'time', testid: 'makespan', big: true },
    { label: 'optimal?', value: r.proven === true ? 'proven optimal' : r.proven === false ? `gap ${fmtPct(r.gap)} to the lower bound` : undefined, testid: 'proven' },
    { label: 'lower bound', value: r.lower_bound, unit: 'time', testid: 'lower-bound' },
    { label: 'served in order', value: sequenceText(r.sequence), testid: 'sequence' },
    { label: 'processors used', hint: `of m = ${q.processors.length}`, value: loads.length ? used : undefined, format: fmtInt, testid: 'used' },
    ...extraNumbers(r, [...KNOWN, 'sequence']),
  ];
  fill(body, summary(items), warnings(r.warnings), lpDownload(ctx.solver, () => ctx.request, { basename: 'hetero-star', what: 'LP of the order found' }));
}

/** When each processor (by its row label P<i>) finishes computing, from the schedule. */
function finishTimes(r) {
  const finish = new Map();
  const rows = Array.isArray(r.processors) ? r.processors : [];
  for (const s of Array.isArray(r.schedule) ? r.schedule : []) {
    const m = /^P(\d+)$/.exec(rows[s.proc]?.label ?? '');
    if (m && s.kind === 'compute' && isNum(s.end)) finish.set(Number(m[1]), Math.max(finish.get(Number(m[1])) ?? 0, s.end));
  }
  return finish;
}

function renderLoads(r, ctx) {
  const q = ctx.request;
  const body = ctx.panel('loads', {
    title: 'Loads',
    wide: true,
    note: 'α_i: the load P_i receives (0: not served, no start-up paid); position: when P0 serves it; finishes at: the end of its computation. In an optimal schedule every processor used finishes at the same time when no results return.',
  });
  const loads = Array.isArray(r.loads) ? r.loads : [];
  const seq = Array.isArray(r.sequence) ? r.sequence : [];
  const finish = finishTimes(r);
  const V = isNum(r.total_load) ? r.total_load : q.V;
  const rows = q.processors.map((p, i) => ({ name: `P${i + 1}`, ...p, load: loads[i], position: seq.indexOf(i + 1) + 1 || undefined, finish: finish.get(i + 1) }));
  fill(body, table([
    { key: 'name', label: 'processor', numeric: false },
    { key: 'S', label: 'S_i' },
    { key: 'C', label: 'C_i' },
    { key: 'A', label: 'A_i' },
    { key: 'position', label: 'position', format: fmtInt, na: (row) => isNum(row.load) && row.load <= 0 },
    { key: 'load', label: 'α_i [units]', title: 'load received', testid: (i) => `load-${i}` },
    { key: 'share', label: 'share of V', get: (row) => (isNum(row.load) && V ? row.load / V : undefined), format: (x) => `${fmt(x * 100, 4)} %` },
    { key: 'finish', label: 'finishes at', title: 'end of computing, from the schedule', na: (row) => isNum(row.load) && row.load <= 0 },
  ], rows, { testid: 'load-table' }));
}

function renderOrders(r, ctx) {
  const orders = Array.isArray(r.orders) ? r.orders.filter((o) => isNum(o.makespan)) : [];
  if (!orders.length) {
    ctx.showPanel('orders', false);
    return;
  }
  ctx.showPanel('orders', true);
  const body = ctx.panel('orders', {
    title: 'Schedule length by order',
    note: 'The same processors served in other orders, each with its best loads: as listed, fastest link first, fastest processor first, and the best order and subset found. A shorter bar is a better order.',
  });
  const chart = ctx.chart('orders', body, { height: 60 + 40 * orders.length });
  chart.setOption(ordersOption(orders, r.makespan), { notMerge: true });
}

function ordersOption(orders, chosen) {
  const name = (o) => ORDER_NAMES[o.order] ?? o.order;
  return {
    ...BASE,
    grid: { left: 8, right: 64, top: 8, bottom: 28, outerBoundsMode: 'same', outerBoundsContain: 'all' },
    tooltip: { trigger: 'item', confine: true, formatter: (p) => {
      const o = orders[p.dataIndex];
      return [`<b>${name(o)}</b>`, `Cmax ${fmt(o.makespan)}`, sequenceText(o.sequence) ?? ''].filter(Boolean).join('<br>');
    } },
    xAxis: { type: 'value', name: 'Cmax', nameLocation: 'middle', nameGap: 22, axisLabel: { color: COLORS.muted }, splitLine: { lineStyle: { color: COLORS.grid } } },
    yAxis: { type: 'category', inverse: true, name: 'order', nameTextStyle: { color: COLORS.muted }, data: orders.map(name), axisLabel: { color: COLORS.text }, axisTick: { show: false } },
    series: [{
      name: 'Cmax', type: 'bar', barMaxWidth: 24,
      data: orders.map((o) => ({ value: o.makespan, itemStyle: { color: Math.abs(o.makespan - chosen) <= 1e-12 * Math.abs(chosen) ? COLORS.compute : COLORS.reference } })),
      label: { show: true, position: 'right', color: COLORS.muted, formatter: (p) => fmt(p.value, 4) },
    }],
  };
}

function renderGantt(r, ctx) {
  const body = ctx.panel('gantt', {
    title: 'Gantt chart',
    wide: true,
    note: 'P0 sends one message at a time (upper lane of each receiver); each processor computes as soon as its load has arrived (lower lane); results, where returned, are drawn on the processor that sends them.',
  });
  const rows = Array.isArray(r.processors) ? r.processors.length : 1;
  const chart = ctx.chart('gantt', body, { height: ganttHeight(rows) });
  chart.setOption(ganttOption(r, { timeName: 'time' }), { notMerge: true });
}
