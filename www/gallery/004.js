// The gallery's figures of [004], non-linear loads (see ../gallery.js for
// the two kinds of entries).

import { range } from '../charts.js';
import { isNum } from '../format.js';

const rep = (x, n) => Array(n).fill(x).join(',');

/**
 * Speed-up curves over x, one per load L; `bounds(L)`, where given, the
 * `nonlinear_bounds` request of each L, whose values the text prints in
 * `printed` ({L, key, paper}) beside the computed ones.
 */
function nonlinearCurves({ xs, xName, Ls, make, bounds, printed = [] }) {
  const requests = [];
  for (const L of Ls) for (const x of xs) requests.push(make(L, x));
  const curves = requests.length;
  if (bounds) requests.push(...Ls.map(bounds));
  const bound = (res, L, key) => res[curves + Ls.indexOf(L)]?.[key];
  return {
    xName, yName: 'speedup', xInteger: true, requests, pick: ['speedup', ...new Set(printed.map((p) => p.key))],
    series: (res) => Ls.map((L, li) => ({ name: `L = ${L}`, data: xs.map((x, xi) => [x, res[li * xs.length + xi]?.speedup ?? null]) })),
    paper: bounds ? (res) => printed.map(({ L, key, paper, lemma }) => ({ what: `L = ${L}: ${key} (${lemma})`, paper, computed: bound(res, L, key) })) : undefined,
  };
}

/** Lemma 12's m1, m2, m3 (Fig. 9) or Lemma 10's rho1-3 (Fig. 10) as Sec. VI prints them, by L. */
const lemma = (name, keys, byL) => Object.entries(byL).flatMap(([L, values]) => keys.map((key, i) => ({ L: Number(L), key, paper: values[i], lemma: name })));

/**
 * Figs. 7-8: algorithms M (ρ = 3) and S (single-installment) over m
 * identical children of rate A with start-ups θ, and the values the text
 * prints: `printed(at)`, where at(algorithm, m) is that point's response.
 */
function speedupsSM({ A, theta, xs, printed }) {
  const algorithms = ['M', 'S'];
  const make = (algorithm, m) => ({ model: 'nonlinear', algorithm, L: 500, gamma: 2, A0: A, A: Array(m).fill(A), G: Array(m).fill(1), rho: algorithm === 'M' ? 3 : 1, theta_cp: theta, theta_cm: theta });
  const at = (res) => (algorithm, m) => res[algorithms.indexOf(algorithm) * xs.length + xs.indexOf(m)];
  return {
    xName: 'children m', yName: 'speedup', xInteger: true, pick: ['speedup', 'first_term', 'theorem'],
    requests: algorithms.flatMap((a) => xs.map((m) => make(a, m))),
    series: (res) => algorithms.map((a) => ({ name: `algorithm ${a}`, data: xs.map((m) => [m, at(res)(a, m)?.speedup ?? null]) })),
    paper: (res) => printed(at(res)),
  };
}

/** The two terms of M's time (Sec. VI) the text prints at children `ms`. */
function terms(at, ms, first, second) {
  // Theorem 9's time less its first term.
  const secondTerm = (r) => (isNum(r?.theorem) ? r.theorem - r.first_term : undefined);
  return [
    ...ms.map((m, i) => ({ what: `M, first term at m = ${m} [s]`, paper: first[i], computed: at('M', m)?.first_term })),
    ...ms.map((m, i) => ({ what: `M, second term at m = ${m} [s]`, paper: second[i], computed: secondTerm(at('M', m)) })),
  ];
}

export default [
  ...[
    ['2', 'C', '2', 'The load distribution diagram of classical method.'],
    ['3', 'S', '2', 'The load distribution diagram of proposed algorithm with γ = 2.'],
    ['4', 'S', '3', 'The load distribution diagram of proposed algorithm for γ ≥ 3.'],
  ].map(([fig, algorithm, gamma, caption]) => ({
    id: `004-fig${fig}`, paper: '004', label: `Fig. ${fig}`, caption,
    params: `a diagram in the paper; drawn here with Example 2’s network (A0 = 1, A = 1.2, 1.5, 2, G = 0.1, 0.2, 2), L = 100, γ = ${gamma}, algorithm ${algorithm}`,
    status: 'Reconstruction: the paper draws a diagram without numbers; this is the schedule of the algorithm it shows, on Example 2’s network.',
    view: 'nonlinear', values: { algorithm, L: '100', gamma, A0: '1', A: '1.2,1.5,2', G: '0.1,0.2,2', rho: '', theta_cp: '', theta_cm: '' }, panel: 'gantt',
  })),
  {
    id: '004-fig5', paper: '004', label: 'Fig. 5', caption: 'An example of algorithm M with parameters L = 100, γ = 2, ρ = 2, A0 = 1, A1 = 1.2, A2 = 1.5, A3 = 2, G1 = 0.1, G2 = 0.2, G3 = 2.',
    params: 'Example 2 of [004]: α0 = 0.3337, α1 = 0.1390, α2 = 0.1112, α3 = 0.0830, T = 3337',
    status: 'Reproduces the paper: the fractions α0-α3, T = 3337 and P3’s two messages of Example 2 as printed (tests/golden/papers.json, 004-example2).',
    view: 'nonlinear', values: { algorithm: 'M', L: '100', gamma: '2', A0: '1', A: '1.2,1.5,2', G: '0.1,0.2,2', rho: '2', theta_cp: '', theta_cm: '' }, panel: 'gantt',
  },
  {
    id: '004-fig6', paper: '004', label: 'Fig. 6', caption: 'Speed-up of algorithms C and S with A = 10, G = 1, L = 500 and γ = 2.',
    shape: 'Algorithm C’s speed-up falls as m grows: it “is decreasing in m and reveals the post-processing steps are increasing in m” (Sec. VI).',
    params: 'A0 = A_i = 10, G_i = 1, L = 500, γ = 2, no start-up costs; m = 1 … 20 children (the view also draws M)',
    status: 'Reproduces the paper: C’s speed-up falls with m, S’s reaches 10.998 at m = 10 (printed 10.99, cut to two decimals), marked on the view’s chart and listed beside the computed value.',
    view: 'nonlinear', values: { algorithm: 'S', L: '500', gamma: '2', A0: '10', A: rep(10, 10), G: rep(1, 10), rho: '', theta_cp: '', theta_cm: '' }, panel: 'sweep',
  },
  {
    id: '004-fig7', paper: '004', label: 'Fig. 7', caption: 'Speed-up of algorithms S and M with A = 0.05, G = 1, L = 500, γ = 2, θcp = 0.1, θcm = 0.1 and ρ = 3.',
    params: 'A0 = A_i = 0.05, G_i = 1, L = 500, γ = 2, θcp = θcm = 0.1; M with ρ = 3, S single-installment; m = 1 … 7, the seven points the text lists',
    note: 'Past m = 7 (outside the figure) children fail Lemma 2 at ρ = 3 and the calculator removes them, so M stays at 7.8985 while S still grows.',
    status: 'Reproduces the paper: M above S, both near m + 1, the first terms of M’s time to 0.1 s; its printed second terms and the speed-ups at m = 7 count one start-up (0.1 s) more than Theorem 9 gives, which the calculator keeps.',
    chart: speedupsSM({
      A: 0.05, theta: 0.1, xs: range(1, 7),
      printed: (at) => [
        { what: 'M, speed-up at m = 7', x: 7, paper: 7.8980, computed: at('M', 7)?.speedup },
        { what: 'S, speed-up at m = 7', x: 7, paper: 7.7284, computed: at('S', 7)?.speedup },
        ...terms(at, [1, 2, 3, 4, 5, 6, 7], [6291.4, 4203.5, 3156.1, 2526.6, 2106.4, 1806.1, 1580.7], [0.5, 0.5, 0.6, 0.7, 0.9, 1.2, 2]),
      ],
    }),
  },
  {
    id: '004-fig8', paper: '004', label: 'Fig. 8', caption: 'Speed-up of algorithms S and M with A = 0.1, G = 1, L = 500, γ = 2, θcp = 20, θcm = 20 and ρ = 3.',
    shape: 'M falls behind S for large m because “the increment of the second term [the start-up costs] is greater than the decrease of first term” (Sec. VI).',
    params: 'A0 = A_i = 0.1, G_i = 1, L = 500, γ = 2, θcp = θcm = 20; M with ρ = 3, S single-installment; m = 1 … 20',
    note: 'From m = 16 on children fail Lemma 2 at ρ = 3 and the calculator removes them: M stays at m = 15’s speed-up.',
    status: 'Reproduces the paper: M ahead of S exactly for m ≤ 6, S ahead beyond; the first terms at m = 14, 15 are the paper’s; its printed second terms again count one start-up (20 s) more than Theorem 9.',
    chart: speedupsSM({
      A: 0.1, theta: 20, xs: range(1, 20),
      printed: (at) => terms(at, [14, 15], [1677, 1572], [400, 600]),
    }),
  },
  {
    id: '004-fig9', paper: '004', label: 'Fig. 9', caption: 'Speed-up of algorithm M with A = 0.1, G = 1, γ = 2, θcp = 40, θcm = 40 and ρ = 3.',
    params: 'A0 = A_i = 0.1, G_i = 1, γ = 2, θcp = θcm = 40, ρ = 3; L = 500, 750, 1000; m = 1 … 40',
    note: 'Lemma 12 of [004] puts the best m for L = 1000 in [24.00, 32.33]; the paper finds the speed-up non-decreasing up to m = 28.',
    status: 'Reproduces the paper: for L = 1000 the speed-up does not fall up to m = 28, inside Lemma 12’s range; the printed m2 and m3 leave out the “+ 1” under the lemma’s square root (0.04-0.05 lower), which the calculator keeps.',
    chart: nonlinearCurves({
      xs: range(1, 40), xName: 'children m', Ls: [500, 750, 1000],
      make: (L, m) => ({ model: 'nonlinear', algorithm: 'M', L, gamma: 2, A0: 0.1, A: Array(m).fill(0.1), G: Array(m).fill(1), rho: 3, theta_cp: 40, theta_cm: 40 }),
      bounds: (L) => ({ model: 'nonlinear_bounds', L, gamma: 2, A: 0.1, G: 1, theta_cp: 40, theta_cm: 40, rho: 3 }),
      printed: lemma('Lemma 12', ['m1', 'm2', 'm3'], { 500: [15.66, 11.49, 13.43], 750: [24.00, 17.75, 20.65], 1000: [32.33, 24.00, 27.86] }),
    }),
  },
  {
    id: '004-fig10', paper: '004', label: 'Fig. 10', caption: 'Speed-up of algorithm M with A = 1, G = 1, γ = 2, θcp = 0.1, θcm = 0.1 and m = 15.',
    params: 'A0 = A_i = 1, G_i = 1, γ = 2, θcp = θcm = 0.1, m = 15; L = 500, 750, 1000; ρ = 1 … 70',
    note: 'Lemma 10 of [004] puts the best ρ for L = 1000 between 6.05 and 62.50; the paper finds the speed-up non-decreasing up to ρ = 36.',
    status: 'Reproduces the paper: for L = 1000 the best ρ is 36, inside Lemma 10’s range (the speed-up dips once on the way, at ρ = 26, from Theorem 9’s ceilings), and the printed ρ1-ρ3 are Lemma 10’s.',
    chart: nonlinearCurves({
      xs: range(1, 70), xName: 'installments ρ', Ls: [500, 750, 1000],
      make: (L, rho) => ({ model: 'nonlinear', algorithm: 'M', L, gamma: 2, A0: 1, A: Array(15).fill(1), G: Array(15).fill(1), rho, theta_cp: 0.1, theta_cm: 0.1 }),
      bounds: (L) => ({ model: 'nonlinear_bounds', L, gamma: 2, A: 1, G: 1, theta_cp: 0.1, theta_cm: 0.1, m: 15 }),
      printed: lemma('Lemma 10', ['rho1', 'rho2', 'rho3'], { 1000: [62.50, 5.87, 6.05] }),
    }),
  },
];
