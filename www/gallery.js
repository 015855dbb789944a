// The figure gallery: every numbered figure and table of the five papers
// that the models reproduce, with the paper's caption and parameters, each
// drawn on one click and each a permalink.
//
// Two kinds of entries:
//   view entries open a view with the figure's parameters (through the
//   permalink machinery: `values` are field texts, checked by the view's own
//   form) and show the panel that draws the figure;
//   chart entries are curves no view draws (a sweep over another parameter):
//   the gallery sends their requests to the worker as one batch and draws
//   them here, `#v=1&view=gallery&fig=ID` being their permalink.
// `NOT_COVERED` lists the figures left out, and why.

import { buildLink } from './permalink.js';
import { sweepOption, fitLegend, logSpace, logRange, mountChart } from './charts.js';
import { el, fill, message, progress } from './ui.js';
import { exportMenu } from './export.js';
import { fmt, isNum } from './format.js';

export const GALLERY_ID = 'gallery';

export const PAPERS = {
  '000': 'Drozdowski, Wolniewicz, “Performance limits of divisible load processing in systems with limited communication buffers”, JPDC 2004',
  '001': 'Błażewicz, Drozdowski, Guinand, Trystram, “Scheduling a divisible task in a two-dimensional toroidal mesh”, DAM 1999',
  '002': 'Drozdowski, Wolniewicz, “Out-of-core divisible load processing”, IEEE TPDS 2003',
  '003': 'Drozdowski, Singh, Marszałkowski, “Isoefficiency maps for divisible computations in hierarchical memory systems”, PPAM 2019',
  '004': 'Chen, Chu, “Divisible non-linear load distribution on heterogeneous single-level trees”',
};

const rep = (x, n) => Array(n).fill(x).join(',');

// ---- 000: limited buffers ---------------------------------------------------

const BUF = { S: '0.001', C: '0.000001', A: '0.001' }; // Sec. 4 of [000]
const GANTT_SMALL = { S: '0.01', C: '0.001', A: '0.01', V: '100', D: '10', n: '' };

/** A tree or star request of [000] at n_min, or null when its LP would exceed `maxVars` variables. */
function bufferRequest(q, maxVars = 3000) {
  const cap = q.model === 'star' ? q.m : q.model === 'tree' ? q.p * q.h : q.h * (q.p + 1) - 1;
  const perStage = q.model === 'star' ? 3 * q.m : q.model === 'tree' ? (q.h * (q.h + 1)) / 2 + 2 * q.h : 3 * q.h;
  const n = q.n ?? (isNum(q.D) ? Math.max(1, Math.ceil(q.V / (q.D * cap))) : 1);
  return n * perStage > maxVars ? null : q;
}

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
  note: 'NLF and LLF for both trees, n = n_min. Points whose LP would exceed 3000 variables are not computed.',
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

/** One line per curve over `vs`, each point a request at n_min (skipped if too large). */
function curvesOverV(curves, vs, common, { y = (r) => r?.makespan, yName = 'Cmax [s]' } = {}) {
  const requests = [];
  const index = [];
  curves.forEach((c, ci) => vs.forEach((V, vi) => {
    const q = bufferRequest({ ...c.q, ...common, V });
    if (!q) return;
    requests.push(q);
    index.push([ci, vi]);
  }));
  return {
    xName: 'load V [units]', yName, xLog: true, yLog: true, requests, pick: ['makespan', 'LB'],
    series: (res) => curves.map((c, ci) => ({
      name: c.name, dashed: c.dashed,
      data: vs.map((V, vi) => {
        const j = index.findIndex(([a, b]) => a === ci && b === vi);
        const v = j < 0 ? null : y(res[j]);
        return [V, isNum(v) && v > 0 ? v : null];
      }),
    })),
  };
}

/** Differences of two variants (b − a) over V, for several buffer sizes D. */
function differenceOverV({ base, a, b, Ds, vs }) {
  const requests = [];
  const index = [];
  Ds.forEach((D, di) => vs.forEach((V, vi) => {
    const qa = bufferRequest({ ...base, ...a, D, V });
    const qb = bufferRequest({ ...base, ...b, D, V });
    if (!qa || !qb) return;
    requests.push(qa, qb);
    index.push([di, vi]);
  }));
  return {
    xName: 'load V [units]', yName: 'difference of Cmax [s]', xLog: true, requests, pick: ['makespan'],
    series: (res) => Ds.map((D, di) => ({
      name: `D = ${fmt(D)}`,
      data: vs.map((V, vi) => {
        const j = index.findIndex(([x, y]) => x === di && y === vi);
        if (j < 0) return [V, null];
        const ra = res[2 * j]?.makespan;
        const rb = res[2 * j + 1]?.makespan;
        return [V, isNum(ra) && isNum(rb) ? rb - ra : null];
      }),
    })),
  };
}

// ---- 002: out-of-core ---------------------------------------------------------

/** A homogeneous processor of [002] Sec. 3: core rate a, out-of-core r·a, swap point swp. */
function oocProcessor({ S = 1e-3, C = 1e-6, Al2 = 1e-3, ratio = 10, swp = 1e8 } = {}) {
  if (swp <= 0) return { S, C, pieces: [[0, ratio * Al2]] };
  return { S, C, pieces: [[0, Al2], [-(ratio - 1) * Al2 * swp, ratio * Al2]] };
}

const V_OOC = logSpace(2, 14, 2);

function oocCurves(curves, { allUsed = false, extra = [] } = {}) {
  const requests = [];
  curves.forEach((c) => V_OOC.forEach((V) => requests.push({ model: 'memory', V, processors: Array(10).fill(c.p), ...(allUsed ? { prune: false } : {}) })));
  return {
    xName: 'load V [units]', yName: 'Cmax [time]', xLog: true, yLog: true, requests, pick: ['makespan', 'loads'],
    series: (res) => [...curves.map((c, ci) => ({
      name: c.name,
      data: V_OOC.map((V, vi) => {
        const r = res[ci * V_OOC.length + vi];
        const used = Array.isArray(r?.loads) && r.loads.every((x) => x > 1e-12 * V);
        return [V, isNum(r?.makespan) && r.makespan > 0 && (!allUsed || used) ? r.makespan : null];
      }),
    })), ...extra],
  };
}

function speedupCurves({ ms, Vs, byM }) {
  // T(1) for each V, then T(m); exactly m processors get a message (no pruning), as in the paper.
  const requests = [];
  for (const V of Vs) requests.push({ model: 'memory', V, processors: [oocProcessor()], prune: false });
  for (const V of Vs) for (const m of ms) requests.push({ model: 'memory', V, processors: Array(m).fill(oocProcessor()), prune: false });
  const t = (res, vi, mi) => res[Vs.length + vi * ms.length + mi]?.makespan;
  const s = (res, vi, mi) => {
    const t1 = res[vi]?.makespan;
    const tm = t(res, vi, mi);
    return isNum(t1) && isNum(tm) && tm > 0 ? t1 / tm : null;
  };
  return byM
    ? {
      xName: 'processors m', yName: 'speedup T(1)/T(m)', xInteger: true, requests, pick: ['makespan'],
      series: (res) => Vs.map((V, vi) => ({ name: `V = ${fmt(V)}`, data: ms.map((m, mi) => [m, s(res, vi, mi)]) })),
    }
    : {
      xName: 'load V [units]', yName: 'speedup T(1)/T(m)', xLog: true, requests, pick: ['makespan'],
      series: (res) => ms.map((m, mi) => ({ name: `m = ${m}`, data: Vs.map((V, vi) => [V, s(res, vi, mi)]) })),
    };
}

// ---- 004: non-linear loads ------------------------------------------------------

function nonlinearCurves({ xs, xName, Ls, make }) {
  const requests = [];
  for (const L of Ls) for (const x of xs) requests.push(make(L, x));
  return {
    xName, yName: 'speedup', xInteger: true, requests, pick: ['speedup'],
    series: (res) => Ls.map((L, li) => ({ name: `L = ${L}`, data: xs.map((x, xi) => [x, res[li * xs.length + xi]?.speedup ?? null]) })),
  };
}

const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

// ---- the entries ------------------------------------------------------------------

export const ENTRIES = [
  // 000
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
    note: 'Points whose LP would exceed 3000 variables are not computed (the view says how many).',
    view: 'buffers', values: { topology: 'binomial', p: '2', h: '10', order: 'LLF', ...BUF, V: '5000', D: '10000', n: '' }, panel: 'sweep', parts: { x: { mode: 'cmax' } },
  },
  fig12('a', 1e4, 1, logSpace(1, 6, 3)),
  fig12('b', 1, 2, logSpace(0, 3, 3)),
  {
    id: '000-fig13a', paper: '000', label: 'Fig. 13(a)', caption: 'Reduction of schedule length as an effect of optimizations in trees. (a) Binomial trees NLF vs. LLF.',
    params: 'p = 2, h = 10, A = 1E-3, C = 1E-6, S = 1E-3, n = n_min; Cmax(LLF) − Cmax(NLF) for D = 1E0, 1E2, 1E4',
    note: 'Positive: NLF is shorter. Points whose LPs would exceed 3000 variables are not computed.',
    chart: differenceOverV({ base: { model: 'binomial', p: 2, h: 10, S: 1e-3, C: 1e-6, A: 1e-3 }, a: { order: 'NLF' }, b: { order: 'LLF' }, Ds: [1, 1e2, 1e4], vs: logSpace(1, 6, 2) }),
  },
  {
    id: '000-fig13b', paper: '000', label: 'Fig. 13(b)', caption: 'Reduction of schedule length as an effect of optimizations in trees. (b) Ordinary trees 1-buffer vs. 2-buffer.',
    params: 'p = 2, h = 10, LLF, A = 1E-3, C = 1E-6, S = 1E-3, n = n_min; Cmax(1 buffer) − Cmax(2 buffers) for D = 1E0, 1E2, 1E4',
    note: 'Points whose LPs would exceed 3000 variables are not computed.',
    chart: differenceOverV({ base: { model: 'tree', p: 2, h: 10, order: 'LLF', S: 1e-3, C: 1e-6, A: 1e-3 }, a: { buffers: 2 }, b: { buffers: 1 }, Ds: [1, 1e2, 1e4], vs: logSpace(1, 6, 2) }),
  },

  // 001
  {
    id: '001-fig1', paper: '001', label: 'Fig. 1', caption: 'Data distribution pattern in Peters-Syska broadcasting. Nodes are labeled according to the order of activation.',
    params: 'k = 2 (a 25 × 25 torus); the phase of each node',
    note: 'The drawing itself is lost in the extraction of the paper: this is the pattern reconstructed from its text (knight phase f links one way and 2f to the left, then the cross phase), which cannot be compared with the original figure.',
    view: 'torus', values: { k: '2', S: '0.0001', C: '1e-7', A: '0.000001', V: '1000000', phases: '' }, panel: 'activation',
  },
  {
    id: '001-table1', paper: '001', label: 'Table 1', caption: 'Numbers of computing and activated processors in the consecutive phases.',
    params: 'k = 2: phase i activates 4·5^(i−1) nodes, 5^i compute after it',
    view: 'torus', values: { k: '2', S: '0.0001', C: '1e-7', A: '0.000001', V: '1000000', phases: '' }, panel: 'layers',
  },
  {
    id: '001-fig2', paper: '001', label: 'Fig. 2', caption: 'Communication–computation diagram for Peters–Syska scattering with 2k phases.',
    params: 'a diagram in the paper; drawn here for k = 2 (4 phases), α = 1E-4 s, τ = 1E-7 s, σ = 1E6, V = 1E6',
    view: 'torus', values: { k: '2', S: '0.0001', C: '1e-7', A: '0.000001', V: '1000000', phases: '' }, panel: 'gantt',
  },
  ...[
    ['3', 0, 2e-6, 'α = 0, τ = 2 × 10^-6 s'],
    ['4', 0, 1e-12, 'α = 0, τ = 10^-12 s'],
    ['5', 5e-4, 1e-12, 'α = 5 × 10^-4 s, τ = 10^-12 s'],
    ['6', 4.85e-6, 3.3e-9, 'α = 4.85 × 10^-6 s, τ = 3.3 × 10^-9 s'],
  ].map(([fig, S, C, text]) => ({
    id: `001-fig${fig}`, paper: '001', label: `Fig. ${fig}`, caption: `Execution time vs. size of the task, ${text}.`,
    params: `${text}, σ = 10^6 (A = 1E-6 s per unit); tori of 25, 125, 625 and 3125 processors`,
    note: 'A torus of 5^N processors is scattered to in at most N phases; each point uses the largest feasible number of phases up to N (Lemma 1 of [001]).',
    chart: (() => {
      const vs = logSpace(1, 10, 4);
      const Ns = [2, 3, 4, 5];
      return {
        xName: 'size of the task V [units]', yName: 'execution time Cmax [s]', xLog: true, yLog: true,
        requests: vs.map((V) => ({ model: 'torus', k: 3, S, C, A: 1e-6, V })), pick: ['by_phases'],
        series: (res) => Ns.map((N) => ({
          name: `${5 ** N} processors`,
          data: vs.map((V, i) => {
            const opts = (res[i]?.by_phases ?? []).filter((o) => o.phases <= N && isNum(o.makespan));
            return [V, opts.length ? Math.min(...opts.map((o) => o.makespan)) : null];
          }),
        })),
      };
    })(),
  })),
  {
    id: '001-fig7', paper: '001', label: 'Fig. 7', caption: 'Speedup for different sizes of the computational task.',
    params: 'α = 1E-4 s, τ = 1E-7 s, σ = 1E6; k = 1 … 4',
    view: 'torus', values: { k: '2', S: '0.0001', C: '1e-7', A: '0.000001', V: '1000000', phases: '' }, panel: 'sweep',
  },

  // 002
  {
    id: '002-fig3', paper: '002', label: 'Fig. 3', caption: 'Schedules for load distributions calculated assuming (a) hierarchical memory, (b) core memory only, (c) out-of-core memory only.',
    params: 'm = 2, S = C = 1, A^l_i1 = 1, A^l_i2 = 1, A^h_i1 = −9, A^h_i2 = 10 (swap point 10/9), V = 2',
    view: 'memory', values: { V: '2', processors: JSON.stringify([['1', '1', '1+1x, -9+10x'], ['1', '1', '1+1x, -9+10x']]), prune: '1' }, panel: 'fig3',
  },
  {
    id: '002-fig4', paper: '002', label: 'Fig. 4', caption: 'Changes in the load partition for m = 2 and various ε = A^l_22/A^l_12 and swp2.',
    params: 'm = 2, V = 2E8; P1: A^l_11 = 0, A^l_12 = 1E-3, A^h_11 = −9E5, A^h_12 = 1E-2 (swp1 = 1E8); P2: A^l_21 = 0, A^l_22 = ε·A^l_12, A^h_22 = 10·A^l_22, swap point swp2; S = 1E-3, C = 1E-6',
    note: 'The extraction garbles the ratio on the horizontal axis; the paper’s reading of its three intervals fits ε = A^l_22/A^l_12 with P2’s out-of-core 10 times slower, as for P1. S and C are not given for this figure: those of the rest of Sec. 3 are used. swp2/V = 0 is a P2 that uses its disk only.',
    chart: (() => {
      const eps = logSpace(-3, 2, 5);
      const fs = [0, 0.25, 0.5, 0.75, 1];
      const V = 2e8;
      const P1 = { S: 1e-3, C: 1e-6, pieces: [[0, 1e-3], [-9e5, 1e-2]] };
      const requests = [];
      for (const f of fs) {
        for (const e of eps) {
          const a = e * 1e-3;
          const P2 = f === 0 ? { S: 1e-3, C: 1e-6, pieces: [[0, 10 * a]] } : { S: 1e-3, C: 1e-6, pieces: [[0, a], [-9 * f * V * a, 10 * a]] };
          requests.push({ model: 'memory', V, processors: [P1, P2] });
        }
      }
      return {
        xName: 'ε = A^l_22 / A^l_12', yName: 'α2, the load of P2 [units]', xLog: true, requests, pick: ['loads'],
        series: (res) => fs.map((f, fi) => ({ name: `swp2/V = ${f}`, data: eps.map((e, i) => [e, res[fi * eps.length + i]?.loads?.[1] ?? null]) })),
      };
    })(),
  },
  {
    id: '002-fig5', paper: '002', label: 'Fig. 5', caption: 'Processing time versus V for various A^h_2/A^l_2 and swp.',
    params: 'm = 10, A^l_1 = 0, A^l_2 = 1E-3, C = 1E-6, S = 1E-3; A^h_2/A^l_2 = 10, 100; swp = 1E8, 1E11',
    note: 'The ratios drawn in the paper are not legible in the extraction; 10 (its default) and 100 are drawn.',
    chart: oocCurves([10, 100].flatMap((ratio) => [1e8, 1e11].map((swp) => ({ name: `A^h_2/A^l_2 = ${ratio}, swp = ${fmt(swp)}`, p: oocProcessor({ ratio, swp }) })))),
  },
  {
    id: '002-fig6', paper: '002', label: 'Fig. 6', caption: 'Processing time versus V for various A^l_2 and fixed swp, A^h_2/A^l_2.',
    params: 'm = 10, swp = 1E8, A^h_2/A^l_2 = 10, C = 1E-6, S = 1E-3; A^l_2 = 1E-1, 1E-3, 1E-5, 1E-7; dotted: the communication time mS + VC',
    note: 'As in the paper, a point is left out when some of the m processors would receive no load (the raw LP, every processor sent a message).',
    chart: oocCurves([1e-1, 1e-3, 1e-5, 1e-7].map((Al2) => ({ name: `A^l_2 = ${fmt(Al2)}`, p: oocProcessor({ Al2 }) })), {
      allUsed: true,
      extra: [{ name: 'mS + VC', dashed: true, color: '#7d8796', data: V_OOC.map((V) => [V, 10 * 1e-3 + V * 1e-6]) }],
    }),
  },
  {
    id: '002-fig7', paper: '002', label: 'Fig. 7', caption: 'Processing time versus V for various C and fixed swp, A^h_2/A^l_2.',
    params: 'm = 10, swp = 1E8, A^l_2 = 1E-3, A^h_2/A^l_2 = 10, S = 1E-3; C = 1E-2, 1E-4, 1E-6, 1E-8',
    chart: oocCurves([1e-2, 1e-4, 1e-6, 1e-8].map((C) => ({ name: `C = ${fmt(C)}`, p: oocProcessor({ C }) }))),
  },
  {
    id: '002-fig8', paper: '002', label: 'Fig. 8', caption: 'Speedup versus m for various V.',
    params: 'A^l_1 = 0, A^l_2 = 1E-3, swp = 1E8, A^h_2/A^l_2 = 10, C = 1E-6, S = 1E-3; V = 1, 1E2, 1E4, 1E8, 1E9, 1E14',
    note: 'Exactly m processors receive a message even when some get no load, as the paper assumes for this figure.',
    chart: speedupCurves({ ms: range(1, 20), Vs: [1, 1e2, 1e4, 1e8, 1e9, 1e14], byM: true }),
  },
  {
    id: '002-fig9', paper: '002', label: 'Fig. 9', caption: 'Speedup versus V for various m.',
    params: 'A^l_1 = 0, A^l_2 = 1E-3, swp = 1E8, A^h_2/A^l_2 = 10, C = 1E-6, S = 1E-3; m = 2, 5, 10, 20',
    note: 'Superlinear where V lies in (swp, m·swp]: m processors hold in core what one computes out of core.',
    chart: speedupCurves({ ms: [2, 5, 10, 20], Vs: logSpace(0, 14, 2), byM: false }),
  },
  {
    id: '002-fig10', paper: '002', label: 'Fig. 10', caption: 'Processing time versus V for multiinstallment and out-of-core computations.',
    params: 'm = 10, C = 9.99E-5, S = 1E-3, A^l_1 = 0, A^l_2 = 1E-3, A^h_1 = −9.9E6, A^h_2 = 1E-1 (swp = 1E8); β from (5) and β = 5',
    view: 'memory', values: {}, panel: 'fig10',
  },

  // 003
  ...[
    ['table1', 'Table 1', 'Maximum efficiency and corresponding load sizes vs m at n = 20 installments.'],
    ['fig1', 'Fig. 1', 'Isoefficiency map for the load sizes V below maximum efficiency. Logarithmic vertical axis.'],
    ['fig2', 'Fig. 2', 'Isoefficiency map for the load sizes V above maximum efficiency.'],
  ].map(([id, label, caption]) => ({
    id: `003-${id}`, paper: '003', label, caption, panel: id === 'table1' ? 'table' : 'map',
    params: 'the reference instance: a1 = 0.109 s/MB, a2 = 4.132 s/MB, b2 = −27109 s, C = 5 ms/MB, O = 75 ms, S = 25.4 s, n = 20',
    note: 'Drawn by the Isoefficiency view, with its defaults (the paper’s reference instance).',
    view: 'isoefficiency', values: {},
  })),

  // 004
  ...[
    ['2', 'C', '2', 'The load distribution diagram of classical method.'],
    ['3', 'S', '2', 'The load distribution diagram of proposed algorithm with γ = 2.'],
    ['4', 'S', '3', 'The load distribution diagram of proposed algorithm for γ ≥ 3.'],
  ].map(([fig, algorithm, gamma, caption]) => ({
    id: `004-fig${fig}`, paper: '004', label: `Fig. ${fig}`, caption,
    params: `a diagram in the paper; drawn here with Example 2’s network (A0 = 1, A = 1.2, 1.5, 2, G = 0.1, 0.2, 2), L = 100, γ = ${gamma}, algorithm ${algorithm}`,
    view: 'nonlinear', values: { algorithm, L: '100', gamma, A0: '1', A: '1.2,1.5,2', G: '0.1,0.2,2', rho: '', theta_cp: '', theta_cm: '' }, panel: 'gantt',
  })),
  {
    id: '004-fig5', paper: '004', label: 'Fig. 5', caption: 'An example of algorithm M with parameters L = 100, γ = 2, ρ = 2, A0 = 1, A1 = 1.2, A2 = 1.5, A3 = 2, G1 = 0.1, G2 = 0.2, G3 = 2.',
    params: 'Example 2 of [004]: α0 = 0.3337, α1 = 0.1390, α2 = 0.1112, α3 = 0.0830, T = 3337',
    view: 'nonlinear', values: { algorithm: 'M', L: '100', gamma: '2', A0: '1', A: '1.2,1.5,2', G: '0.1,0.2,2', rho: '2', theta_cp: '', theta_cm: '' }, panel: 'gantt',
  },
  {
    id: '004-fig6', paper: '004', label: 'Fig. 6', caption: 'Speed-up of algorithms C and S with A = 10, G = 1, L = 500 and γ = 2.',
    params: 'A0 = A_i = 10, G_i = 1, L = 500, γ = 2, no start-up costs; m = 1 … 20 children (the view also draws M)',
    view: 'nonlinear', values: { algorithm: 'S', L: '500', gamma: '2', A0: '10', A: rep(10, 10), G: rep(1, 10), rho: '', theta_cp: '', theta_cm: '' }, panel: 'sweep',
  },
  {
    id: '004-fig7', paper: '004', label: 'Fig. 7', caption: 'Speed-up of algorithms S and M with A = 0.05, G = 1, L = 500, γ = 2, θcp = 0.1, θcm = 0.1 and ρ = 3.',
    params: 'A0 = A_i = 0.05, G_i = 1, L = 500, γ = 2, θcp = θcm = 0.1, ρ = 3; m = 1 … 20 (at m = 7 the paper prints speed-ups 7.8980 for M and 7.7284 for S)',
    view: 'nonlinear', values: { algorithm: 'M', L: '500', gamma: '2', A0: '0.05', A: rep(0.05, 7), G: rep(1, 7), rho: '3', theta_cp: '0.1', theta_cm: '0.1' }, panel: 'sweep',
  },
  {
    id: '004-fig8', paper: '004', label: 'Fig. 8', caption: 'Speed-up of algorithms S and M with A = 0.1, G = 1, L = 500, γ = 2, θcp = 20, θcm = 20 and ρ = 3.',
    params: 'A0 = A_i = 0.1, G_i = 1, L = 500, γ = 2, θcp = θcm = 20, ρ = 3; m = 1 … 20',
    view: 'nonlinear', values: { algorithm: 'M', L: '500', gamma: '2', A0: '0.1', A: rep(0.1, 14), G: rep(1, 14), rho: '3', theta_cp: '20', theta_cm: '20' }, panel: 'sweep',
  },
  {
    id: '004-fig9', paper: '004', label: 'Fig. 9', caption: 'Speed-up of algorithm M with A = 0.1, G = 1, γ = 2, θcp = 40, θcm = 40 and ρ = 3.',
    params: 'A0 = A_i = 0.1, G_i = 1, γ = 2, θcp = θcm = 40, ρ = 3; L = 500, 750, 1000; m = 1 … 40',
    note: 'Lemma 12 of [004] puts the best m for L = 1000 in [24.00, 32.33]; the paper finds the speed-up non-decreasing up to m = 28.',
    chart: nonlinearCurves({
      xs: range(1, 40), xName: 'children m', Ls: [500, 750, 1000],
      make: (L, m) => ({ model: 'nonlinear', algorithm: 'M', L, gamma: 2, A0: 0.1, A: Array(m).fill(0.1), G: Array(m).fill(1), rho: 3, theta_cp: 40, theta_cm: 40 }),
    }),
  },
  {
    id: '004-fig10', paper: '004', label: 'Fig. 10', caption: 'Speed-up of algorithm M with A = 1, G = 1, γ = 2, θcp = 0.1, θcm = 0.1 and m = 15.',
    params: 'A0 = A_i = 1, G_i = 1, γ = 2, θcp = θcm = 0.1, m = 15; L = 500, 750, 1000; ρ = 1 … 70',
    note: 'Lemma 10 of [004] puts the best ρ for L = 1000 between 6.05 and 62.50; the paper finds the speed-up non-decreasing up to ρ = 36.',
    chart: nonlinearCurves({
      xs: range(1, 70), xName: 'installments ρ', Ls: [500, 750, 1000],
      make: (L, rho) => ({ model: 'nonlinear', algorithm: 'M', L, gamma: 2, A0: 1, A: Array(15).fill(1), G: Array(15).fill(1), rho, theta_cp: 0.1, theta_cm: 0.1 }),
    }),
  },
];

/** Figures and tables the gallery leaves out, and why. */
export const NOT_COVERED = [
  { paper: '000', label: 'Fig. 1', why: 'the binomial tree’s structure and its embeddings: a drawing of the topology, nothing is computed' },
  { paper: '001', label: 'Fig. 8', why: 'compares with the scattering of the paper’s reference [3]/[4] (to the nearest neighbours), which the calculator does not model' },
  { paper: '001', label: 'Fig. 9', why: 'returning the results (Sec. 5 of [001]), an extension the calculator does not model' },
  { paper: '002', label: 'Fig. 1', why: 'a measurement on a real computer (pattern search in a linear array), not a model' },
  { paper: '002', label: 'Fig. 2', why: 'a diagram of the memory hierarchy and of a piecewise-linear time function; the Memory hierarchy view lists any processor’s pieces and swap point' },
  { paper: '002', label: 'Fig. 11', why: 'experiments on a cluster of three PCs: measurements, not a model' },
  { paper: '004', label: 'Fig. 1', why: 'a drawing of the single-level tree network' },
  { paper: '004', label: 'Tables I–V', why: 'the notation and the listings of algorithms PE, S, FON and M: no numbers to draw (the Non-linear loads view runs the algorithms)' },
];

// ---- the page -----------------------------------------------------------------------

/** The permalink of an entry: a view's state, or the gallery itself for a chart entry. */
export function entryLink(entry) {
  if (entry.chart) return buildLink({ view: GALLERY_ID, fig: entry.id });
  return buildLink({ view: entry.view, fields: entry.values, parts: entry.parts, panel: entry.panel });
}

/**
 * Draws the gallery into `section`. `api`: {solver, hasView(id), open(hash),
 * embedLink(hash)}. Returns {focus(figId), redraw()}.
 */
export function mountGallery(section, api) {
  const charts = new Map(); // entry id -> {chart, series, option}
  const list = el('div', { class: 'gallery-list' });
  const papers = ['all', ...Object.keys(PAPERS)];
  const filter = el('div', { class: 'segmented gallery-filter', role: 'radiogroup', 'aria-label': 'papers shown' },
    papers.map((p) => el('button', {
      type: 'button', role: 'radio', 'aria-checked': String(p === 'all'), 'data-paper': p, text: p === 'all' ? 'all papers' : `[${p}]`,
      onclick: (e) => {
        for (const b of filter.children) b.setAttribute('aria-checked', String(b === e.currentTarget));
        for (const card of list.querySelectorAll('.fig-card, .paper-head')) card.hidden = p !== 'all' && card.dataset.paper !== p;
      },
    })));
  fill(section,
    el('div', { class: 'view-head' },
      el('h2', { text: 'Figure gallery' }),
      el('p', { class: 'intro', text: `The figures and tables of the five papers that the models reproduce: ${ENTRIES.length} of them, each with the paper’s caption and parameters. “Draw” computes it now, in this page; the link keeps it (share it, or put it in a course page with the embed code). Curves that a view draws open in that view; the others are drawn here.` })),
    filter, list);

  let lastPaper = null;
  for (const entry of ENTRIES) {
    if (entry.paper !== lastPaper) {
      lastPaper = entry.paper;
      list.append(el('h3', { class: 'paper-head', 'data-paper': entry.paper }, `[${entry.paper}] `, el('cite', { text: PAPERS[entry.paper] })));
    }
    list.append(card(entry));
  }
  list.append(el('section', { class: 'card not-covered', 'data-testid': 'not-covered' },
    el('h3', { text: 'Not in the gallery' }),
    el('ul', {}, NOT_COVERED.map((n) => el('li', {}, el('b', { text: `[${n.paper}] ${n.label}: ` }), n.why)))));

  function card(entry) {
    const link = entryLink(entry);
    const available = entry.chart || api.hasView(entry.view);
    const body = el('div', { class: 'fig-body' });
    const draw = el('button', {
      type: 'button', class: 'primary small', 'data-testid': `draw-${entry.id}`, disabled: !available,
      text: entry.chart ? 'Draw' : 'Draw in the view',
      onclick: () => api.open(link),
    });
    const a = el('a', { href: link, class: 'fig-link', 'data-testid': `link-${entry.id}`, text: 'permalink' });
    const actions = el('div', { class: 'fig-actions' }, draw, a,
      available ? null : el('span', { class: 'fig-missing', text: `the ${entry.view} view is not in this build` }));
    const node = el('article', { class: 'card fig-card', id: `fig-${entry.id}`, 'data-fig': entry.id, 'data-paper': entry.paper, 'aria-labelledby': `fig-${entry.id}-title` },
      el('header', { class: 'fig-head' },
        el('span', { class: 'fig-paper', text: `[${entry.paper}]` }),
        el('h4', { id: `fig-${entry.id}-title`, text: entry.label }),
        el('span', { class: 'fig-kind', text: entry.chart ? 'drawn here' : `in the ${entry.view} view` })),
      el('blockquote', { class: 'fig-caption', text: `“${entry.caption}”` }),
      el('p', { class: 'fig-params' }, el('span', { class: 'fig-params-label', text: 'Parameters: ' }), entry.params),
      entry.note ? el('p', { class: 'fig-note', text: entry.note }) : null,
      actions, body);
    if (entry.chart) {
      node.querySelector('.fig-head').append(exportMenu(node, {
        basename: () => `dlt-${entry.id}`,
        info: () => ({ title: `[${entry.paper}] ${entry.label}: ${entry.caption}`, subtitle: entry.params }),
      }));
    }
    return node;
  }

  let controller = null;
  async function drawChart(entry) {
    const node = list.querySelector(`[data-fig="${entry.id}"]`);
    const body = node.querySelector('.fig-body');
    const spec = entry.chart;
    let c = charts.get(entry.id);
    if (c?.series) {
      render(entry, c);
      return;
    }
    controller?.abort();
    controller = new AbortController();
    const { signal } = controller;
    body.querySelectorAll('.msg, .progress').forEach((n) => n.remove());
    const box = el('div', { class: 'chart', 'data-chart': 'figure', 'data-label': entry.label, style: 'height: 380px' });
    box.dataset.description = `${entry.label} of [${entry.paper}]: ${entry.caption} Parameters: ${entry.params}.`;
    box.setAttribute('role', 'img');
    box.setAttribute('aria-label', box.dataset.description);
    if (!c) {
      body.append(box);
      c = { chart: mountChart(box, { onResize: fitLegend }), box };
      charts.set(entry.id, c);
    }
    const bar = progress(`${entry.label}: ${spec.requests.length} points`, () => controller.abort());
    body.prepend(bar.el);
    node.dataset.state = 'pending';
    const started = performance.now();
    let responses;
    try {
      responses = await api.solver.sweep(spec.requests, { signal, pick: spec.pick, onProgress: (d, t) => bar.update(d, t) });
    } catch (e) {
      bar.finish(e.code === 'cancelled' ? 'cancelled' : '');
      if (e.code !== 'cancelled') body.prepend(message('error', `The figure could not be computed: ${e.message}`));
      node.dataset.state = e.code === 'cancelled' ? 'cancelled' : 'error';
      return;
    }
    bar.finish(`${spec.requests.length} points in ${Math.round(performance.now() - started)} ms`);
    const failed = responses.filter((r) => r?.error);
    if (failed.length) body.append(message('info', `${failed.length} of ${responses.length} points were refused by the core and are left out: ${failed[0].error.message}`));
    c.series = spec.series(responses);
    render(entry, c);
    node.dataset.state = 'done';
  }

  function render(entry, c) {
    const spec = entry.chart;
    const option = sweepOption({ series: c.series, xName: spec.xName, yName: spec.yName, xLog: spec.xLog, yLog: spec.yLog, xInteger: spec.xInteger });
    if (spec.yLog) Object.assign(option.yAxis, logRange(c.series));
    if (spec.yScale) Object.assign(option.yAxis, { scale: true });
    c.chart.setOption(option, { notMerge: true });
    fitLegend(c.chart);
  }

  return {
    /** Scrolls to an entry and draws it (chart entries). */
    focus(id) {
      const entry = ENTRIES.find((e) => e.id === id);
      if (!entry) return false;
      const node = list.querySelector(`[data-fig="${entry.id}"]`);
      node.scrollIntoView({ block: 'start' });
      node.classList.add('focused');
      setTimeout(() => node.classList.remove('focused'), 1600);
      if (entry.chart) drawChart(entry);
      return true;
    },
    /** Draws the figures again (after a change of colour scheme). */
    redraw() {
      for (const entry of ENTRIES) {
        const c = charts.get(entry.id);
        if (c?.series) render(entry, c);
      }
    },
    entries: ENTRIES,
  };
}

