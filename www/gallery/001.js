// The gallery's figures of [001], the two-dimensional torus (see ../gallery.js for
// the two kinds of entries).

import { logSpace } from '../charts.js';
import { isNum } from '../format.js';

/** What the text says of Figs. 3-6, checked by tests/figures_001.rs. */
const FIG_STATUS = {
  3: 'Reproduces the paper: the four curves overlap within 5% (the originator’s four links cap the speedup at 1 + 4A/τ = 3), and the first phase takes over 80% of Cmax.',
  4: 'Reproduces the paper: with α = 0 every phase is feasible and 5^N processors reach at least 99.5% of speedup 5^N.',
  5: 'Reproduces the paper: the start-up keeps small tasks on few processors (the originator alone up to V ≈ 316, all from V ≈ 3.2E6); the curves approach Fig. 4’s and turn linear.',
  6: 'Reproduces the paper: in the linear part each five-fold of processors cuts Cmax by 4.6, 3.6, then 2.1 (Fig. 4: 5 each): diminishing returns, the speedup levels off.',
};

export default [
  {
    id: '001-fig1', paper: '001', label: 'Fig. 1', caption: 'Data distribution pattern in Peters-Syska broadcasting. Nodes are labeled according to the order of activation.',
    params: 'k = 2 (a 25 × 25 torus); the phase of each node',
    status: 'Reconstruction: the drawing is lost in the extraction; drawn from the text\'s moves: four new nodes per node and phase, every node reached once within 2k phases, submeshes 25 times smaller each step (with y pointing down the knight turns right where the text says left: a mirror image).',
    note: 'The drawing itself is lost in the extraction of the paper: this is the pattern reconstructed from its text (knight phase f links one way and 2f to the left, then the cross phase), which cannot be compared with the original figure.',
    view: 'torus', values: { k: '2', S: '0.0001', C: '1e-7', A: '0.000001', V: '1000000', phases: '' }, panel: 'activation',
  },
  {
    id: '001-table1', paper: '001', label: 'Table 1', caption: 'Numbers of computing and activated processors in the consecutive phases.',
    params: 'k = 2: phase i activates 4·5^(i−1) nodes, 5^i compute after it',
    status: 'Reproduces the paper: every count of Table 1 holds exactly, for k = 1 … 8.',
    view: 'torus', values: { k: '2', S: '0.0001', C: '1e-7', A: '0.000001', V: '1000000', phases: '' }, panel: 'layers',
  },
  {
    id: '001-fig2', paper: '001', label: 'Fig. 2', caption: 'Communication–computation diagram for Peters–Syska scattering with 2k phases.',
    params: 'a diagram in the paper; drawn here for k = 2 (4 phases), α = 1E-4 s, τ = 1E-7 s, σ = 1E6, V = 1E6',
    status: 'Reconstruction: a diagram without numbers; the chart shows what the text says of it: all layers finish together, the originator never idles, a transmitter computes as long as the transfer plus its receiver\'s computing.',
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
    status: FIG_STATUS[fig],
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
    shape: 'The speedup saturates the sooner the smaller the task: “For small computational tasks only small numbers of processors can take part in computation and only a limited speedup can be sustained” (Sec. 4).',
    params: 'α = 1E-4 s, τ = 1E-7 s, σ = 1E6; k = 1 … 4',
    status: 'Reproduces the paper: speedup 1 up to V = 100, growing with V, level from V ≈ 1E7 (16.2, 38.7, 40.9, 41.0 for k = 1 … 4).',
    view: 'torus', values: { k: '2', S: '0.0001', C: '1e-7', A: '0.000001', V: '1000000', phases: '' }, panel: 'sweep',
  },
  {
    id: '001-fig8', paper: '001', label: 'Fig. 8', caption: 'Speedup with Peters–Syska scattering vs. scattering proposed in [3].',
    params: 'τ = 1E-8 s, α = 0, σ = 1E6; tori k = 1 … 4 (the figure’s is lost in the extraction); the wave front of [4]: layer j the nodes j links from the originator, all alike',
    shape: 'Flat lines: “Furthermore, α = 0 was assumed”, so every time is proportional to V and the speedup cannot depend on it (Sec. 4).',
    status: 'Reproduces the paper: “Peters–Syska scattering performs better than the previous scattering scheme” at every k and V (speedups 23.7, 245, 391, 401 against 23.0, 123, 130, 130; tests/figures_001.rs). Peters–Syska nears 1 + 4A/τ = 401, the bound of the originator’s four links; the wave front stops far below it, every unit for the deeper layers passing all the relays before them.',
    chart: (() => {
      const vs = logSpace(1, 10, 4);
      const ks = [1, 2, 3, 4];
      const kinds = [['peters_syska', 'Peters–Syska'], ['wavefront', 'wave front [4]']];
      return {
        xName: 'size of the task V [units]', yName: 'speedup', xLog: true, yLog: true,
        requests: kinds.flatMap(([scattering]) => ks.flatMap((k) => vs.map((V) => ({ model: 'torus', k, S: 0, C: 1e-8, A: 1e-6, V, scattering })))),
        pick: ['speedup'],
        series: (res) => kinds.flatMap(([, name], si) => ks.map((k, ki) => ({
          name: `${name}, k = ${k}`,
          data: vs.map((V, vi) => [V, res[(si * ks.length + ki) * vs.length + vi]?.speedup ?? null]),
        }))),
      };
    })(),
  },
  {
    id: '001-fig9', paper: '001', label: 'Fig. 9', caption: 'Communication–computation diagram for the case of results returning.',
    params: 'a diagram in the paper; drawn here for k = 1 (2 phases), α = 1E-4 s, τ = 1E-7 s, σ = 1E6, V = 1E5, results of r = 0.5 per unit of load',
    status: 'Reconstruction: a diagram without numbers; the chart shows what Sec. 5 says of it: a transmitter computes as long as sending to, computing on and receiving results from its receiver, and the results climb back up the scattering tree to the originator.',
    view: 'torus', values: { k: '1', S: '0.0001', C: '1e-7', A: '0.000001', V: '100000', phases: '', return_ratio: '0.5' }, panel: 'gantt',
  },
];
