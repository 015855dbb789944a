// The gallery's figures of [000], limited communication buffers (see
// ../gallery.js for the two kinds of entries).

import { logSpace } from '../charts.js';
import { fmt, isNum } from '../format.js';

const BUF = { S: '0.001', C: '0.000001', A: '0.001' }; // Sec. 4 of [000]
const GANTT_SMALL = { S: '0.01', C: '0.001', A: '0.01', V: '100', D: '10', n: '' };

const fig9 = (tag, p) => ({
  id: `000-fig9${tag}`, paper: '000', label: `Fig. 9(${tag})`,
  caption: 'Dependence of Cmax on D, n.',
  params: `m = 10, A = ${fmt(p.A)}, C = ${fmt(p.C)}, S = ${fmt(p.S)}, V = 1E7; D as a fraction of V`,
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
  note: 'NLF and LLF for both trees, n = n_min.',
  chart: (() => {
    const curves = [
      { name: 'binomial h = 5, NLF', q: { model: 'binomial', p: 2, h: 5, order: 'NLF' } },
      { name: 'binomial h = 5, LLF', q: { model: 'binomial', p: 2, h: 5, order: 'LLF' } },
      { name: `ordinary h = 7, NLF-${buffers}`, q: { model: 'tree', p: 2, h: 7, order: 'NLF', buffers } },
      { name: `ordinary h = 7, LLF-${buffers}`, q: { model: 'tree', p: 2, h: 7, order: 'LLF', buffers } },
    ];
    return curvesOverV(curves, vs, { S: 1e-3, C: 1e-6, A: 1e-3, D });
  })(),
});

/** One line per curve over `vs`, each point a request at n_min. */
function curvesOverV(curves, vs, common, { y = (r) => r?.makespan, yName = 'Cmax [s]' } = {}) {
  const requests = curves.flatMap((c) => vs.map((V) => ({ ...c.q, ...common, V })));
  return {
    xName: 'load V [units]', yName, xLog: true, yLog: true, requests, pick: ['makespan', 'LB'],
    series: (res) => curves.map((c, ci) => ({
      name: c.name, dashed: c.dashed,
      data: vs.map((V, vi) => {
        const v = y(res[ci * vs.length + vi]);
        return [V, isNum(v) && v > 0 ? v : null];
      }),
    })),
  };
}

/** Differences of two variants (b − a) over V, for several buffer sizes D. */
function differenceOverV({ base, a, b, Ds, vs }) {
  const requests = Ds.flatMap((D) => vs.flatMap((V) => [{ ...base, ...a, D, V }, { ...base, ...b, D, V }]));
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
    view: 'buffers', values: { topology: 'star', m: '4', ...GANTT_SMALL }, panel: 'gantt',
  },
  ...[['3', 'NLF'], ['4', 'LLF']].flatMap(([fig, order]) => [['a', '1'], ['b', '2']].map(([sub, buffers]) => ({
    id: `000-fig${fig}${sub}`, paper: '000', label: `Fig. ${fig}(${sub})`,
    caption: `Communication and computation in an ordinary tree, ${order}. (${sub}) ${buffers}-buffer.`,
    params: `a diagram in the paper; drawn here for p = 2, h = 3, S = 0.01, C = 0.001, A = 0.01, V = 100, D = 10, ${order}, ${buffers} buffer${buffers === '2' ? 's' : ''}`,
    view: 'buffers', values: { topology: 'tree', p: '2', h: '3', order, buffers, ...GANTT_SMALL }, panel: 'gantt',
  }))),
  ...[['a', 'NLF'], ['b', 'LLF']].map(([sub, order]) => ({
    id: `000-fig5${sub}`, paper: '000', label: `Fig. 5(${sub})`,
    caption: `Communication and computation in a binomial tree. (${sub}) ${order} strategy.`,
    params: `a diagram in the paper; drawn here for p = 2, h = 3, S = 0.01, C = 0.001, A = 0.01, V = 100, D = 10, ${order}`,
    view: 'buffers', values: { topology: 'binomial', p: '2', h: '3', order, ...GANTT_SMALL }, panel: 'gantt',
  })),
  {
    id: '000-fig6', paper: '000', label: 'Fig. 6', caption: 'Example load chunks sizes in different stages for star (m = 10, A = 1E-3, C = 1E-6, D = 1E4, S = 1E-3, V = 5E3).',
    params: 'm = 10, A = 1E-3, C = 1E-6, D = 1E4, S = 1E-3, V = 5E3; n = 3 stages (the paper does not say how many)',
    view: 'buffers', values: { topology: 'star', m: '10', ...BUF, V: '5000', D: '10000', n: '3' }, panel: 'chunks',
  },
  {
    id: '000-fig7', paper: '000', label: 'Fig. 7', caption: 'Cmax vs. V for various D and n_min in a star (A = 1E-3, C = 1E-6, S = 1E-3).',
    params: 'm = 10, A = 1E-3, C = 1E-6, S = 1E-3, n = n_min; D = 1E2, 1E3, 1E4, ∞ (the paper also has D = 1)',
    view: 'buffers', values: { topology: 'star', m: '10', ...BUF, V: '5000', D: '10000', n: '' }, panel: 'sweep', parts: { x: { mode: 'cmax' } },
  },
  {
    id: '000-fig8', paper: '000', label: 'Fig. 8', caption: 'Differences between Cmax for various D in a star, for n_min. The processing time for D = 1E2 is the reference (A = 1E-3, C = 1E-6, S = 1E-3).',
    params: 'm = 10, A = 1E-3, C = 1E-6, S = 1E-3, n = n_min; D = 1E3, 1E4, ∞ against D = 1E2',
    view: 'buffers', values: { topology: 'star', m: '10', ...BUF, V: '5000', D: '10000', n: '' }, panel: 'sweep', parts: { x: { mode: 'diff' } },
  },
  fig9('a', { A: 1e-4, C: 1e-4, S: 1e-1 }),
  fig9('b', { A: 1e-3, C: 1e-4, S: 1e-2 }),
  {
    id: '000-fig10', paper: '000', label: 'Fig. 10', caption: 'Processing time in a binomial tree for small loads (NLF, D = 1E2, A = 1E-3, C = 1E-6, S = 1E-3).',
    params: 'p = 2, h = 10 (Sec. 4.2 of [000]), NLF, D = 1E2, A = 1E-3, C = 1E-6, S = 1E-3, n = n_min',
    note: 'The n_min line and the LB strategy; the paper’s middle line, the best case it observed over larger n, came from its own search and is not redrawn.',
    chart: (() => {
      const vs = logSpace(1, 4, 8);
      const c = curvesOverV([{ name: 'n_min', q: { model: 'binomial', p: 2, h: 10, order: 'NLF' } }], vs, { S: 1e-3, C: 1e-6, A: 1e-3, D: 1e2 });
      const lb = vs.map((V) => ({ model: 'lb_layer', p: 2, h: 10, S: 1e-3, C: 1e-6, A: 1e-3, V }));
      const n = c.requests.length;
      return {
        ...c, requests: [...c.requests, ...lb],
        series: (res) => [...c.series(res.slice(0, n)), { name: 'LB strategy (Sec. 4.2)', dashed: true, color: '#7d8796', data: vs.map((V, i) => [V, res[n + i]?.LB ?? null]) }],
      };
    })(),
  },
  {
    id: '000-fig11', paper: '000', label: 'Fig. 11', caption: 'Processing time in a binomial tree vs. V for various D (LLF, n_min).',
    params: 'p = 2, h = 10, LLF, A = 1E-3, C = 1E-6, S = 1E-3; D = 1E2, 1E3, 1E4, ∞ (the paper also draws 1E0, 1E5, 1E6) and the LB strategy',
    note: 'Every point is computed: beyond 1000 messages at n_min the core fills the middle stages to D.',
    view: 'buffers', values: { topology: 'binomial', p: '2', h: '10', order: 'LLF', ...BUF, V: '5000', D: '10000', n: '' }, panel: 'sweep', parts: { x: { mode: 'cmax' } },
  },
  fig12('a', 1e4, 1, logSpace(1, 6, 3)),
  fig12('b', 1, 2, logSpace(0, 3, 3)),
  {
    id: '000-fig13a', paper: '000', label: 'Fig. 13(a)', caption: 'Reduction of schedule length as an effect of optimizations in trees. (a) Binomial trees NLF vs. LLF.',
    params: 'p = 2, h = 10, A = 1E-3, C = 1E-6, S = 1E-3, n = n_min; Cmax(LLF) − Cmax(NLF) for D = 1E0, 1E2, 1E4',
    note: 'Positive: NLF is shorter. D = 1E0 at V = 1E6 needs n_min = 34,483 stages, more than the calculator schedules (200,000 scatter steps): the core refuses that point and it is left out.',
    chart: differenceOverV({ base: { model: 'binomial', p: 2, h: 10, S: 1e-3, C: 1e-6, A: 1e-3 }, a: { order: 'NLF' }, b: { order: 'LLF' }, Ds: [1, 1e2, 1e4], vs: logSpace(1, 6, 2) }),
  },
  {
    id: '000-fig13b', paper: '000', label: 'Fig. 13(b)', caption: 'Reduction of schedule length as an effect of optimizations in trees. (b) Ordinary trees 1-buffer vs. 2-buffer.',
    params: 'p = 2, h = 10, LLF, A = 1E-3, C = 1E-6, S = 1E-3, n = n_min; Cmax(1 buffer) − Cmax(2 buffers) for D = 1E0, 1E2, 1E4',
    note: 'D = 1E0 at V ≥ 1E5 needs n_min ≥ 5,000 stages, more than the calculator schedules (200,000 hops): the core refuses those points and they are left out.',
    chart: differenceOverV({ base: { model: 'tree', p: 2, h: 10, order: 'LLF', S: 1e-3, C: 1e-6, A: 1e-3 }, a: { buffers: 2 }, b: { buffers: 1 }, Ds: [1, 1e2, 1e4], vs: logSpace(1, 6, 2) }),
  },
];
