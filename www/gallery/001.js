// The gallery's figures of [001], the two-dimensional torus (see ../gallery.js for
// the two kinds of entries).

import { logSpace } from '../charts.js';
import { isNum } from '../format.js';

export default [
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
];
