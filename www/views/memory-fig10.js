// Fig. 10 of [002]: out-of-core against multi-installment processing, with
// its own sub-form (kept in the permalink) and a sweep over V.

import { fmt, isNum } from '../format.js';
import { sweepOption, fitLegend, logSpace, logRange, COLORS } from '../charts.js';
import { buildForm } from '../form.js';
import { el, fill, summary, warnings, message } from '../ui.js';
import { printedFor, withComputed, paperValues } from '../printed.js';
import { core } from '../page.js';
import paper002 from '../gallery/002.js';

/** Why the curves have their shape: the gallery entry's sentence, in the paper's words. */
const SHAPE = paper002.find((e) => e.id === '002-fig10').shape;

const FIG10_V = logSpace(2, 12, 2); // 1e2 .. 1e12, two points a decade

// The Fig. 10 experiment of [002], with its own parameters: a chunk_size
// request's, and a second chunk size for the multi_installment requests.
const FIG10_FIELDS = [
  { key: 'm', symbol: 'm', name: 'processors (m in [002])', kind: 'integer', default: 10 },
  { key: 'S', symbol: 'S', name: 'start-up (S in [002])', unit: 'time', kind: 'number', default: 1e-3 },
  { key: 'C', symbol: 'C', name: 'transfer rate (C in [002])', unit: 'time/unit', kind: 'number', default: 9.99e-5 },
  { key: 'Al1', symbol: 'Aˡ₁', name: 'core: fixed time (A^l_1)', unit: 'time', kind: 'number', default: 0 },
  { key: 'Al2', symbol: 'Aˡ₂', name: 'core: time per unit (A^l_2)', unit: 'time/unit', kind: 'number', default: 1e-3 },
  { key: 'Ah1', symbol: 'Aʰ₁', name: 'out-of-core: fixed time (A^h_1)', unit: 'time', kind: 'number', default: -9.9e6 },
  { key: 'Ah2', symbol: 'Aʰ₂', name: 'out-of-core: time per unit (A^h_2)', unit: 'time/unit', kind: 'number', default: 0.1 },
  { key: 'beta2', symbol: 'β′', name: 'a second chunk size (5 in Fig. 10)', unit: 'units', kind: 'number', core: 'beta', model: 'multi_installment', default: 5 },
];

/** The sub-form: its fields take their ranges from `chunk_size` (β′ from `multi_installment`). */
export const FIG10_FORM = { id: 'memory-fig10', model: 'chunk_size', fields: FIG10_FIELDS };

function fig10Form(ctx, body) {
  if (ctx.state.fig10Form) return ctx.state.fig10Form;
  const formHolder = el('div', { class: 'sub-form' });
  const info = el('div', { class: 'fig10-info', 'data-testid': 'fig10-info' });
  const chartHolder = el('div', { class: 'fig10-chart' });
  fill(body, formHolder, info, chartHolder);
  let debounce = 0;
  const form = buildForm(formHolder, FIG10_FORM.fields, {
    ranges: { models: core.models, model: FIG10_FORM.model },
    submitLabel: 'Compute Fig. 10',
    testPrefix: 'fig10-',
    onSubmit: () => runFig10(ctx),
  });
  ctx.linkForm?.('fig10', form); // its fields are part of the permalink too
  form.onChange(() => {
    clearTimeout(debounce);
    debounce = setTimeout(() => { if (form.values().ok) runFig10(ctx); }, 600);
  });
  ctx.state.fig10Form = { form, info, chartHolder };
  return ctx.state.fig10Form;
}

export function renderFig10(ctx) {
  const body = ctx.panel('fig10', {
    title: 'Out-of-core against multi-installment processing (Fig. 10 of [002])',
    wide: true,
    note: `A homogeneous star of m processors (its own parameters below; the paper’s are the defaults, swap point swp = 1e8). Out-of-core: one message each, LP (1)–(4). Multi-installment: chunks of size β sent round-robin P1 … Pm, P1 …, each computed in core; β from heuristic (5), β = (mS − A^l_1)/(A^l_2 − mC), and the paper’s β = 5. V from 1e2 to 1e12, two points a decade; both axes logarithmic. With the paper’s parameters, the β and swp it prints are listed beside the computed ones. ${SHAPE}`,
  });
  fig10Form(ctx, body);
  runFig10(ctx);
}

async function runFig10(ctx) {
  const { form, info, chartHolder } = ctx.state.fig10Form;
  const { ok, values: p } = form.values();
  if (!ok) return;
  const key = JSON.stringify(p);
  const chart = ctx.chart('fig10', chartHolder, { height: 400, onResize: fitLegend });
  const st = ctx.state.fig10;
  if (st?.key === key && (st.option || st.running)) {
    if (st.option) {
      chart.setOption(st.option, { notMerge: true });
      fitLegend(chart);
    }
    return;
  }
  st?.controller?.abort(); // parameters changed while the previous sweep ran
  const controller = new AbortController();
  ctx.state.fig10 = { key, running: true, controller };
  chartHolder.querySelectorAll(':scope > .msg').forEach((n) => n.remove());
  const current = () => ctx.state.fig10?.key === key && ctx.state.fig10.controller === controller;
  const done = (state) => { if (current()) ctx.state.fig10 = { key, ...state }; };

  const chunkRequest = { model: 'chunk_size', m: p.m, S: p.S, C: p.C, Al1: p.Al1, Al2: p.Al2, Ah1: p.Ah1, Ah2: p.Ah2 };
  let chunk;
  try {
    chunk = await ctx.solver.solve(chunkRequest, { signal: controller.signal });
  } catch (e) {
    if (!current()) return;
    if (!form.showError(e.error ?? {})) fill(info, message('error', `The chunk size could not be computed: ${e.message}`));
    else fill(info);
    done({});
    return;
  }
  if (!current()) return;
  const beta = chunk.beta;
  const swp = Array.isArray(chunk.swap_points) && isNum(chunk.swap_points[0]) ? chunk.swap_points[0] : (p.Ah1 - p.Al1) / (p.Al2 - p.Ah2);
  const inRange = (b) => isNum(b) && (!isNum(chunk.beta_min) || b > chunk.beta_min) && (!isNum(chunk.beta_max) || b <= chunk.beta_max);
  const items = [
    { label: 'β of heuristic (5)', hint: '(mS − A^l_1)/(A^l_2 − mC)', value: isNum(beta) ? beta : 'not defined', unit: isNum(beta) ? 'units' : undefined, testid: 'fig10-beta', big: true },
    { label: 'admissible range of β', hint: '(mS/(A^h_2 − mC), swp]', value: isNum(chunk.beta_min) || isNum(chunk.beta_max) ? `(${fmt(chunk.beta_min)}, ${fmt(chunk.beta_max)}]` : 'empty', testid: 'fig10-range' },
    { label: 'heuristic β admissible', value: chunk.admissible === true ? 'yes' : chunk.admissible === false ? 'no' : '—', testid: 'fig10-admissible' },
    { label: `β′ = ${fmt(p.beta2)}`, hint: 'the second chunk size', value: inRange(p.beta2) ? 'in the range' : 'outside the range', testid: 'fig10-beta2' },
    { label: 'swap point swp', value: swp, unit: 'units', testid: 'fig10-swp' },
    { label: 'total core memory m·swp', value: isNum(swp) ? p.m * swp : undefined, unit: 'units' },
  ];
  // Only for the paper's parameters: its printed β and swp belong to no others.
  const printed = printedFor('002-fig10', chunkRequest);
  fill(info, summary(items), warnings(chunk.warnings), printed ? paperValues(withComputed(printed, { chunk })) : null);

  const processors = Array.from({ length: p.m }, () => ({ S: p.S, C: p.C, pieces: [[p.Al1, p.Al2], [p.Ah1, p.Ah2]] }));
  const curves = [{ name: 'out-of-core, LP (1)–(4)', make: (V) => ({ model: 'memory', V, processors }) }];
  if (isNum(beta) && beta > 0) curves.push({ name: `multi-installment, β = ${fmt(beta, 4)} (heuristic (5))`, make: (V) => ({ model: 'multi_installment', V, processors, beta }) });
  curves.push({ name: `multi-installment, β = ${fmt(p.beta2, 4)}`, make: (V) => ({ model: 'multi_installment', V, processors, beta: p.beta2 }) });
  const requests = curves.flatMap((c) => FIG10_V.map((V) => c.make(V)));
  const responses = await ctx.sweep(chartHolder, 'Fig. 10 sweep', requests, { pick: ['makespan'], signal: controller.signal });
  if (!responses || !current()) {
    done({});
    return;
  }
  const failed = responses.filter((x) => x?.error);
  const series = curves.map((c, ci) => ({
    name: c.name,
    data: FIG10_V.map((V, vi) => {
      const res = responses[ci * FIG10_V.length + vi];
      return [V, res && isNum(res.makespan) && res.makespan > 0 ? res.makespan : null];
    }),
  }));
  const option = sweepOption({ series, xName: 'load V [units]', yName: 'Cmax [time]', xLog: true, yLog: true });
  Object.assign(option.yAxis, logRange(series));
  const marks = [];
  if (isNum(beta) && beta > 0) marks.push({ xAxis: beta, label: { formatter: `V = β = ${fmt(beta, 3)}`, color: COLORS.muted } });
  if (isNum(swp) && swp > 0) marks.push({ xAxis: p.m * swp, label: { formatter: `V = m·swp = ${fmt(p.m * swp, 3)}`, color: COLORS.muted } });
  const lo = FIG10_V[0];
  const hi = FIG10_V[FIG10_V.length - 1];
  option.series[0].markLine = { silent: true, symbol: 'none', lineStyle: { color: COLORS.reference, type: 'dotted' }, data: marks.filter((m) => m.xAxis >= lo && m.xAxis <= hi) };
  if (failed.length) chartHolder.prepend(message('info', `${failed.length} of ${responses.length} points were skipped: ${failed[0].error.message}`));
  done({ series, option });
  chart.setOption(option, { notMerge: true });
  fitLegend(chart);
}
