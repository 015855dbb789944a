// The gallery's figures of [002], out-of-core processing (see ../gallery.js for
// the two kinds of entries).

import { logSpace, range } from '../charts.js';
import { fmt, isNum } from '../format.js';

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

export default [
  {
    id: '002-fig3', paper: '002', label: 'Fig. 3', caption: 'Schedules for load distributions calculated assuming (a) hierarchical memory, (b) core memory only, (c) out-of-core memory only.',
    status: 'Reproduces the paper: every number of Sec. 2’s example (Cmax and α of each schedule, the planned and real lengths of (b) and (c)), which the view lists beside the computed ones; the loads under the hierarchy end together, those planned by classical DLT more than 25% apart.',
    params: 'm = 2, S = C = 1, A^l_i1 = 1, A^l_i2 = 1, A^h_i1 = −9, A^h_i2 = 10 (swap point 10/9), V = 2',
    view: 'memory', values: { V: '2', processors: JSON.stringify([['1', '1', '1+1x, -9+10x'], ['1', '1', '1+1x, -9+10x']]), prune: '1' }, panel: 'fig3',
  },
  {
    id: '002-fig4', paper: '002', label: 'Fig. 4', caption: 'Changes in the load partition for m = 2 and various ε = A^l_22/A^l_12 and swp2.',
    status: 'Reconstruction (the axis ratio and P2\'s out-of-core slope are garbled in the extraction; read as ε = A^l_22/A^l_12, out-of-core 10 times slower, Sec. 3\'s S and C): α2 falls with ε and grows with swp2, with kinks at ε = 0.1 and 1, and P1 slightly ahead when the processors are alike.',
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
    status: 'Reconstruction (the ratios are illegible in the extraction; 10 and 100 drawn): the ratio matters only past V = m·swp, as the text says; below it the curves coincide to 1e-9.',
    params: 'm = 10, A^l_1 = 0, A^l_2 = 1E-3, C = 1E-6, S = 1E-3; A^h_2/A^l_2 = 10, 100; swp = 1E8, 1E11',
    note: 'The ratios drawn in the paper are not legible in the extraction; 10 (its default) and 100 are drawn.',
    chart: oocCurves([10, 100].flatMap((ratio) => [1e8, 1e11].map((swp) => ({ name: `A^h_2/A^l_2 = ${ratio}, swp = ${fmt(swp)}`, p: oocProcessor({ ratio, swp }) })))),
  },
  {
    id: '002-fig6', paper: '002', label: 'Fig. 6', caption: 'Processing time versus V for various A^l_2 and fixed swp, A^h_2/A^l_2.',
    status: 'Reproduces the paper: mS + VC bounds every point and A^l_2 = 1E-7 lies on it; faster computing stops paying off (62 times from A^l_2 = 1E-3 to 1E-5, 1.6 times from 1E-5 to 1E-7).',
    params: 'm = 10, swp = 1E8, A^h_2/A^l_2 = 10, C = 1E-6, S = 1E-3; A^l_2 = 1E-1, 1E-3, 1E-5, 1E-7; dotted: the communication time mS + VC',
    note: 'As in the paper, a point is left out when some of the m processors would receive no load (the raw LP, every processor sent a message).',
    chart: oocCurves([1e-1, 1e-3, 1e-5, 1e-7].map((Al2) => ({ name: `A^l_2 = ${fmt(Al2)}`, p: oocProcessor({ Al2 }) })), {
      allUsed: true,
      extra: [{ name: 'mS + VC', dashed: true, color: '#7d8796', data: V_OOC.map((V) => [V, 10 * 1e-3 + V * 1e-6]) }],
    }),
  },
  {
    id: '002-fig7', paper: '002', label: 'Fig. 7', caption: 'Processing time versus V for various C and fixed swp, A^h_2/A^l_2.',
    status: 'Reproduces the paper: Cmax falls with C down to the computing time; with C = 1E-2 all ten processors work from V = 1E9 on the decades (exactly from 2.6E8), and that threshold falls with C towards 45.',
    params: 'm = 10, swp = 1E8, A^l_2 = 1E-3, A^h_2/A^l_2 = 10, S = 1E-3; C = 1E-2, 1E-4, 1E-6, 1E-8',
    chart: oocCurves([1e-2, 1e-4, 1e-6, 1e-8].map((C) => ({ name: `C = ${fmt(C)}`, p: oocProcessor({ C }) }))),
  },
  {
    id: '002-fig8', paper: '002', label: 'Fig. 8', caption: 'Speedup versus m for various V.',
    status: 'Reproduces the paper: at V = 1E2 the speedup peaks at m = 14, the lines for V = 1E4 … 1E14 nearly coincide, V = 1E9 is superlinear (180 at m = 20), and the best m is the largest that loads every processor.',
    params: 'A^l_1 = 0, A^l_2 = 1E-3, swp = 1E8, A^h_2/A^l_2 = 10, C = 1E-6, S = 1E-3; V = 1, 1E2, 1E4, 1E8, 1E9, 1E14',
    note: 'Exactly m processors receive a message even when some get no load, as the paper assumes for this figure.',
    chart: speedupCurves({ ms: range(1, 20), Vs: [1, 1e2, 1e4, 1e8, 1e9, 1e14], byM: true }),
  },
  {
    id: '002-fig9', paper: '002', label: 'Fig. 9', caption: 'Speedup versus V for various m.',
    status: 'Reproduces the paper: superlinear speedup over (swp, m·swp] with its peak there, and too many processors lose at small V; beyond m·swp (the text is silent) the speedup stays a little above m, fading.',
    params: 'A^l_1 = 0, A^l_2 = 1E-3, swp = 1E8, A^h_2/A^l_2 = 10, C = 1E-6, S = 1E-3; m = 2, 5, 10, 20',
    note: 'Superlinear where V lies in (swp, m·swp]: m processors hold in core what one computes out of core.',
    chart: speedupCurves({ ms: [2, 5, 10, 20], Vs: logSpace(0, 14, 2), byM: false }),
  },
  {
    id: '002-fig10', paper: '002', label: 'Fig. 10', caption: 'Processing time versus V for multiinstallment and out-of-core computations.',
    shape: 'Below V = 1E4, β = 1E4 is the slowest “because only one chunk of the load is sent and only one processor works, while the other processors remain idle” (Sec. 4).',
    status: 'Reproduces the paper: β = 1E4 from (5) is the worst below V = 1E4; β = 5 beats β = 1E4 below V = 4.7E4 (the text: about 1E5) and out-of-core computing from 1.015E9. The view lists the printed β and swp beside the computed ones.',
    params: 'm = 10, C = 9.99E-5, S = 1E-3, A^l_1 = 0, A^l_2 = 1E-3, A^h_1 = −9.9E6, A^h_2 = 1E-1 (swp = 1E8); β from (5) and β = 5',
    view: 'memory', values: {}, panel: 'fig10',
  },
];
