// The gallery's figures of [000], limited communication buffers (see
// ../gallery.js for the two kinds of entries).

import { logSpace } from '../charts.js';
import { fmt, isNum } from '../format.js';

const BUF = { S: '0.001', C: '0.000001', A: '0.001' }; // Sec. 4 of [000]
const GANTT_SMALL = { S: '0.01', C: '0.001', A: '0.01', V: '100', D: '10', n: '' };
const COSTS = { S: 1e-3, C: 1e-6, A: 1e-3 };

// Sec. 4 of [000] runs n_min with the fewest processors or layers that carry
// V in n_min messages of size D: "For D = ∞ minimum number of stages is
// n = 1, and the minimum number of processors is m = 1"; Fig. 10 "h, n are
// minimum possible"; Fig. 11 "When V < pD only one layer of processors is
// activated". D = Infinity stands for no buffer limit (no D in the request).
const starM = (V, D, m = 10) => (D === Infinity ? 1 : Math.min(m, Math.max(1, Math.ceil(V / D))));
/** Binomial tree: l layers carry (l(p+1) − 1) D in one stage (Sec. 3.3). */
const binomialH = (V, D, h, p = 2) => (D === Infinity ? 1 : Math.min(h, Math.max(1, Math.ceil((V / D + 1) / (p + 1)))));
/** Ordinary tree: each layer takes at most pD in one stage (Sec. 3.2). */
const treeH = (V, D, h, p = 2) => (D === Infinity ? 1 : Math.min(h, Math.max(1, Math.ceil(V / (p * D)))));
const withD = (q, D) => (D === Infinity ? q : { ...q, D });
const MIN_NOTE = 'As the text of Sec. 4 reads n_min: the fewest processors or layers that carry V in n_min messages of size D (D = ∞: one processor, layer 1 only).';

/**
 * One line per curve over `vs`; `curve.q(V)` is the request at V (null: not
 * drawn), `extra` lines computed here ({name, dashed, y(V)}).
 */
function linesOverV(curves, vs, { extra = [], yName = 'Cmax [s]', xLog = true } = {}) {
  const index = [];
  const requests = [];
  curves.forEach((c, ci) => vs.forEach((V, vi) => {
    const q = c.q(V);
    if (q) { index.push([ci, vi]); requests.push(q); }
  }));
  return {
    xName: 'load V [units]', yName, xLog, yLog: true, requests, pick: ['makespan', 'LB'],
    series: (res) => {
      const y = curves.map(() => vs.map(() => null));
      index.forEach(([ci, vi], j) => { y[ci][vi] = res[j]; });
      return [
        ...curves.map((c, ci) => ({
          name: c.name, dashed: c.dashed, color: c.color,
          data: vs.map((V, vi) => {
            const v = c.y ? c.y(y[ci][vi], y, vi) : y[ci][vi]?.makespan;
            return [V, isNum(v) && v > 0 ? v : null];
          }),
        })),
        ...extra.map((e) => ({ name: e.name, dashed: e.dashed ?? true, color: e.color ?? '#7d8796', data: vs.map((V) => [V, e.y(V)]) })),
      ];
    },
  };
}

const fig9 = (tag, p) => ({
  id: `000-fig9${tag}`, paper: '000', label: `Fig. 9(${tag})`,
  caption: 'Dependence of Cmax on D, n.',
  params: `m = 10, A = ${fmt(p.A)}, C = ${fmt(p.C)}, S = ${fmt(p.S)}, V = 1E7; D as a fraction of V`,
  status: 'Reproduces the paper: Cmax falls with n at a diminishing rate, then grows linearly by mS a stage, the empty messages’ start-ups.',
  note: 'The paper draws a surface over D and n; here one line per D. The raw LP as printed (no pruning): every stage charges S for each of the m messages, empty or not, so Cmax grows linearly once n is large, as the paper explains. Points with n < n_min are not drawn.',
  chart: (() => {
    const fractions = [0.005, 0.01, 0.02, 0.05, 0.1];
    const ns = [1, 2, 3, 4, 5, 7, 10, 14, 20, 25, 30];
    const V = 1e7;
    const index = [];
    const requests = [];
    fractions.forEach((f, fi) => ns.forEach((n) => {
      if (n < Math.ceil(1 / (10 * f))) return;
      requests.push({ model: 'star', m: 10, S: p.S, C: p.C, A: p.A, V, D: f * V, n, prune: false });
      index.push([fi, n]);
    }));
    return {
      xName: 'stages n', yName: 'Cmax [s]', xInteger: true, yScale: true, requests, pick: ['makespan'],
      series: (res) => fractions.map((f, fi) => ({
        name: `D = ${f} V`,
        data: index.map(([i, n], j) => (i === fi ? [n, res[j]?.makespan ?? null] : null)).filter(Boolean),
      })),
    };
  })(),
});

const fig12 = (tag, D, buffers, vs) => ({
  id: `000-fig12${tag}`, paper: '000', label: `Fig. 12(${tag})`,
  caption: `Processing time in binomial trees and ordinary trees vs. V (n_min) (${tag}) ${buffers}-buffer${buffers > 1 ? 's' : ''} D = ${fmt(D)}.`,
  params: `p = 2, A = 1E-3, C = 1E-6, S = 1E-3; binomial tree h = 5 (243 processors), ordinary tree h = 7 (255 processors), ${buffers} buffer${buffers > 1 ? 's' : ''}, D = ${fmt(D)}`,
  note: `NLF and LLF for both trees, n = n_min. ${MIN_NOTE}`,
  status: tag === 'a'
    ? 'Reproduces the paper: one line below pD, differences over [pD, D(h(p+1)−1)], fading beyond (9% at V = 2E5, under 0.1% at 1E7).'
    : 'Reproduces the paper: from V = 1E2 the ordinary tree takes 47-52% of the binomial tree’s time (58-83% just past V = 14).',
  chart: (() => {
    const curves = [
      { name: 'binomial h = 5, NLF', q: (V) => ({ model: 'binomial', p: 2, h: binomialH(V, D, 5), order: 'NLF', ...COSTS, D, V }) },
      { name: 'binomial h = 5, LLF', q: (V) => ({ model: 'binomial', p: 2, h: binomialH(V, D, 5), order: 'LLF', ...COSTS, D, V }) },
      { name: `ordinary h = 7, NLF-${buffers}`, q: (V) => ({ model: 'tree', p: 2, h: treeH(V, D, 7), order: 'NLF', buffers, ...COSTS, D, V }) },
      { name: `ordinary h = 7, LLF-${buffers}`, q: (V) => ({ model: 'tree', p: 2, h: treeH(V, D, 7), order: 'LLF', buffers, ...COSTS, D, V }) },
    ];
    return linesOverV(curves, vs);
  })(),
});

/** Differences of two variants (b − a) over V, for several buffer sizes D; `layers(V, D)` the tree's h. */
function differenceOverV({ base, a, b, Ds, vs, layers }) {
  const requests = Ds.flatMap((D) => vs.flatMap((V) => [{ ...base, ...a, h: layers(V, D), D, V }, { ...base, ...b, h: layers(V, D), D, V }]));
  return {
    xName: 'load V [units]', yName: 'difference of Cmax [s]', xLog: true, requests, pick: ['makespan'],
    series: (res) => Ds.map((D, di) => ({
      name: `D = ${fmt(D)}`,
      data: vs.map((V, vi) => {
        const j = di * vs.length + vi;
        const ra = res[2 * j]?.makespan;
        const rb = res[2 * j + 1]?.makespan;
        return [V, isNum(ra) && isNum(rb) ? rb - ra : null];
      }),
    })),
  };
}

export default [
  {
    id: '000-fig2', paper: '000', label: 'Fig. 2', caption: 'Communications and computations in a star interconnection.',
    params: 'a diagram without numbers in the paper; drawn here for m = 4, S = 0.01, C = 0.001, A = 0.01, V = 100, D = 10 (n_min = 3 stages)',
    status: 'Reconstruction: a diagram without numbers in the paper, drawn by the model for small parameters.',
    view: 'buffers', values: { prune: 'true', topology: 'star', m: '4', ...GANTT_SMALL }, panel: 'gantt',
  },
  ...[['3', 'NLF'], ['4', 'LLF']].flatMap(([fig, order]) => [['a', '1'], ['b', '2']].map(([sub, buffers]) => ({
    id: `000-fig${fig}${sub}`, paper: '000', label: `Fig. ${fig}(${sub})`,
    caption: `Communication and computation in an ordinary tree, ${order}. (${sub}) ${buffers}-buffer.`,
    params: `a diagram in the paper; drawn here for p = 2, h = 3, S = 0.01, C = 0.001, A = 0.01, V = 100, D = 10, ${order}, ${buffers} buffer${buffers === '2' ? 's' : ''}`,
    status: 'Reconstruction: a diagram without numbers in the paper, drawn by the model for small parameters.',
    view: 'buffers', values: { prune: 'true', topology: 'tree', p: '2', h: '3', order, buffers, ...GANTT_SMALL }, panel: 'gantt',
  }))),
  ...[['a', 'NLF'], ['b', 'LLF']].map(([sub, order]) => ({
    id: `000-fig5${sub}`, paper: '000', label: `Fig. 5(${sub})`,
    caption: `Communication and computation in a binomial tree. (${sub}) ${order} strategy.`,
    params: `a diagram in the paper; drawn here for p = 2, h = 3, S = 0.01, C = 0.001, A = 0.01, V = 100, D = 10, ${order}`,
    status: 'Reconstruction: a diagram without numbers in the paper, drawn by the model for small parameters.',
    view: 'buffers', values: { prune: 'true', topology: 'binomial', p: '2', h: '3', order, ...GANTT_SMALL }, panel: 'gantt',
  })),
  {
    id: '000-fig6', paper: '000', label: 'Fig. 6', caption: 'Example load chunks sizes in different stages for star (m = 10, A = 1E-3, C = 1E-6, D = 1E4, S = 1E-3, V = 5E3).',
    params: 'm = 10, A = 1E-3, C = 1E-6, D = 1E4, S = 1E-3, V = 5E3; n = 5 stages (the paper does not say how many: 5 is the fewest with which P10 gets no load in the last stage)',
    status: 'Reproduces the paper with n = 5: chunks grow slowly, the last stage’s decrease, P10 gets nothing in the last stage (nor do P7-P9: from n = 5 on the LP is at a near-tie there, broken towards empty messages at the end).',
    view: 'buffers', values: { prune: 'true', topology: 'star', m: '10', ...BUF, V: '5000', D: '10000', n: '5' }, panel: 'chunks',
  },
  {
    id: '000-fig7', paper: '000', label: 'Fig. 7', caption: 'Cmax vs. V for various D and n_min in a star (A = 1E-3, C = 1E-6, S = 1E-3).',
    params: 'm = 10 at most, A = 1E-3, C = 1E-6, S = 1E-3, n = n_min; D = 1, 1E2, 1E3, 1E4, ∞ and LB = S + VA/m',
    note: `${MIN_NOTE} Here min(m, ⌈V/D⌉) processors. D = 1 at V = 1E6 takes 100,000 stages, every chunk full.`,
    status: 'Reproduces the paper: D = 1 and D = ∞ overlap, the lines follow D = ∞ while V ≤ D, stay nearly flat over [D, mD] and meet LB beyond.',
    chart: (() => {
      const Ds = [1, 1e2, 1e3, 1e4, Infinity];
      const curves = Ds.map((D) => ({
        name: `D = ${D === Infinity ? '∞' : fmt(D)}`,
        q: (V) => withD({ model: 'star', m: starM(V, D), ...COSTS, V }, D),
      }));
      return linesOverV(curves, logSpace(0, 6, 2), { extra: [{ name: 'LB', y: (V) => COSTS.S + (V * COSTS.A) / 10 }] });
    })(),
  },
  {
    id: '000-fig8', paper: '000', label: 'Fig. 8', caption: 'Differences between Cmax for various D in a star, for n_min. The processing time for D = 1E2 is the reference (A = 1E-3, C = 1E-6, S = 1E-3).',
    params: 'm = 10 at most, A = 1E-3, C = 1E-6, S = 1E-3, n = n_min; D = 1E3, 1E4, ∞ against D = 1E2',
    note: `${MIN_NOTE} Here min(m, ⌈V/D⌉) processors. Points where the difference is 0 (V ≤ 1E2) are not drawn on the log axis.`,
    status: 'Reproduces the paper: no difference below V = 1E2, growth until V = D, parallel lines beyond mD.',
    chart: (() => {
      const Ds = [1e2, 1e3, 1e4, Infinity];
      const curves = Ds.map((D, di) => ({
        name: `D = ${D === Infinity ? '∞' : fmt(D)}`,
        q: (V) => withD({ model: 'star', m: starM(V, D), ...COSTS, V }, D),
        y: (r, all, vi) => (isNum(r?.makespan) && isNum(all[0][vi]?.makespan) && di > 0 ? r.makespan - all[0][vi].makespan : null),
      }));
      const spec = linesOverV(curves, logSpace(0, 6, 2), { yName: 'Cmax − Cmax(D = 1E2) [s]' });
      return { ...spec, series: (res) => spec.series(res).slice(1) };
    })(),
  },
  fig9('a', { A: 1e-4, C: 1e-4, S: 1e-1 }),
  fig9('b', { A: 1e-3, C: 1e-4, S: 1e-2 }),
  {
    id: '000-fig10', paper: '000', label: 'Fig. 10', caption: 'Processing time in a binomial tree for small loads (NLF, D = 1E2, A = 1E-3, C = 1E-6, S = 1E-3).',
    shape: 'Cmax falls as V grows past a layer’s capacity: “adding a little more load allows for activating a new layer which has at least the same number of processors as all the preceding layers” (Sec. 4.2).',
    params: 'p = 2, NLF, D = 1E2, A = 1E-3, C = 1E-6, S = 1E-3; n = n_min and h the fewest layers (at most 10) that carry V, as the text says ("h, n are minimum possible"); the LB strategy with h = 10',
    note: 'The paper’s middle line is “the best observed case” with more stages, from its own search: drawn here as the best over at most 10 stages and at most the n_min line’s layers (prune = best, exact), which never lies above the n_min line. Not on a log axis: V in steps of 25.',
    status: 'Reproduces the paper: just past each V = (l(p+1) − 1)D a layer is added and Cmax drops by 40% or more; more stages give a medium line below the n_min line (25% or more below at a third of the loads).',
    chart: (() => {
      const D = 1e2;
      const vs = Array.from({ length: 120 }, (_, i) => 25 * (i + 1));
      const nmin = (V) => ({ model: 'binomial', p: 2, h: binomialH(V, D, 10), order: 'NLF', ...COSTS, D, V });
      const c = linesOverV([
        { name: 'n_min, fewest layers', q: nmin },
        { name: 'best over ≤ 10 stages (prune = best)', q: (V) => ({ ...nmin(V), n: 10, prune: 'best' }) },
      ], vs, { xLog: false });
      const lb = vs.map((V) => ({ model: 'lb_layer', p: 2, h: 10, ...COSTS, V }));
      const n = c.requests.length;
      return {
        ...c, requests: [...c.requests, ...lb],
        series: (res) => [...c.series(res.slice(0, n)), { name: 'LB strategy (Sec. 4.2)', dashed: true, color: '#7d8796', data: vs.map((V, i) => [V, res[n + i]?.LB ?? null]) }],
      };
    })(),
  },
  {
    id: '000-fig11', paper: '000', label: 'Fig. 11', caption: 'Processing time in a binomial tree vs. V for various D (LLF, n_min).',
    shape: 'The lines for D ∈ [1E2, 1E6] meet one asymptote because “processing time in the first layer sets the time span of a single stage” (Sec. 4.2).',
    params: 'p = 2, h = 10 at most, LLF, A = 1E-3, C = 1E-6, S = 1E-3; D = 1E0 (up to V = 1E4), 1E2, 1E3, 1E4, 1E5, 1E6, ∞ and the LB strategy',
    note: `${MIN_NOTE} Beyond 1000 messages at n_min the core fills the middle stages to D.`,
    status: 'Reproduces the paper: D = ∞ is layer 1 alone, D = 1E0 is slower than it, D ∈ [1E2, 1E6] behave as the star and approach VA/(h(p+1)−1).',
    chart: (() => {
      const Ds = [1, 1e2, 1e3, 1e4, 1e5, 1e6, Infinity];
      const vs = logSpace(0, 6, 2);
      const curves = Ds.map((D) => ({
        name: `D = ${D === Infinity ? '∞' : fmt(D)}`,
        q: (V) => (D === 1 && V > 1e4 ? null : withD({ model: 'binomial', p: 2, h: binomialH(V, D, 10), order: 'LLF', ...COSTS, V }, D)),
      }));
      const c = linesOverV(curves, vs);
      const lb = vs.map((V) => ({ model: 'lb_layer', p: 2, h: 10, ...COSTS, V }));
      const n = c.requests.length;
      return {
        ...c, requests: [...c.requests, ...lb],
        series: (res) => [...c.series(res.slice(0, n)), { name: 'LB strategy (Sec. 4.2)', dashed: true, color: '#7d8796', data: vs.map((V, i) => [V, res[n + i]?.LB ?? null]) }],
      };
    })(),
  },
  fig12('a', 1e4, 1, logSpace(3, 7, 4)),
  fig12('b', 1, 2, logSpace(0, 4, 4)),
  {
    id: '000-fig13a', paper: '000', label: 'Fig. 13(a)', caption: 'Reduction of schedule length as an effect of optimizations in trees. (a) Binomial trees NLF vs. LLF.',
    params: 'p = 2, h = 10, A = 1E-3, C = 1E-6, S = 1E-3, n = n_min; Cmax(LLF) − Cmax(NLF) for D = 1E0, 1E2, 1E4',
    note: `Positive: NLF is shorter. ${MIN_NOTE} D = 1E0 at V = 1E6 takes n_min = 34,483 stages; from V = 1E2 on at D = 1E0 nearly every chunk is full and the two orders coincide.`,
    status: 'Differs slightly: NLF is never slower at the powers of ten, and LLF’s edge grows with D, but where two layers are active LLF also wins for D > 1 (0.6% at D = 1E2, V = 300), not only for D = 1.',
    chart: differenceOverV({ base: { model: 'binomial', p: 2, ...COSTS }, a: { order: 'NLF' }, b: { order: 'LLF' }, Ds: [1, 1e2, 1e4], vs: logSpace(1, 6, 2), layers: (V, D) => binomialH(V, D, 10) }),
  },
  {
    id: '000-fig13b', paper: '000', label: 'Fig. 13(b)', caption: 'Reduction of schedule length as an effect of optimizations in trees. (b) Ordinary trees 1-buffer vs. 2-buffer.',
    params: 'p = 2, h = 10, LLF, A = 1E-3, C = 1E-6, S = 1E-3, n = n_min; Cmax(1 buffer) − Cmax(2 buffers) for D = 1E0, 1E2, 1E4',
    note: `${MIN_NOTE} D = 1E0 at V = 1E5 and 1E6 takes n_min = 5,000 and 50,000 stages, beyond the full LP: solved with the middle stages periodic, within 2E-5 (1E5) and 2E-6 (1E6) of a lower bound.`,
    status: 'Reproduces the paper: for D > 1 the difference levels off (D = 1E4 from V ≈ 1E6), for D = 1 it grows in proportion to V.',
    chart: differenceOverV({ base: { model: 'tree', p: 2, order: 'LLF', ...COSTS }, a: { buffers: 2 }, b: { buffers: 1 }, Ds: [1, 1e2, 1e4], vs: logSpace(1, 6, 2), layers: (V, D) => treeH(V, D, 10) }),
  },
];
