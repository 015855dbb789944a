// The gallery's figures of [003], isoefficiency maps (see ../gallery.js for
// the two kinds of entries).

/** What the text says of Table 1 and Figs. 1-2, checked by tests/figures_003.rs. */
const STATUS = {
  table1: 'Reproduces the paper’s E_max within its rounding (tests/golden.rs), and its shape: E_max falls with m from 34.3 (m = 2) to 22.1 (m = 20), below a2/a1 ≈ 37.9, while V_max jumps between 0.55 nρ and nρ; the text’s “no obvious trend” fits V_max, not E_max, which falls in the paper’s own table too.',
  fig1: 'Reproduces the paper: the isolines below V_max rise with m, convexly, and bunch up just above ρ = 6739 MB; E stays within the bounds (13). Differs: “E = 1 for m = 1” holds for one chunk only; in n = 20 chunks one machine computes every chunk in core and reaches E ≈ 24.',
  fig2: 'Reproduces the paper: the isolines above V_max follow (15) within 3% and hardly depend on m; n − m chunks of size ρ and m equal out-of-core ones; E tends to 1 from above.',
};

/** Why a curve has its surprising shape, in the paper's words. */
const SHAPE = {
  fig1: 'The isolines bunch up just above ρ because “the single reference machine starts to use out-of-core memory at V ≈ ρ, which extremely expands T(1,1,V)” (Sec. 4).',
};

export default [
  ...[
    ['table1', 'Table 1', 'Maximum efficiency and corresponding load sizes vs m at n = 20 installments.'],
    ['fig1', 'Fig. 1', 'Isoefficiency map for the load sizes V below maximum efficiency. Logarithmic vertical axis.'],
    ['fig2', 'Fig. 2', 'Isoefficiency map for the load sizes V above maximum efficiency.'],
  ].map(([id, label, caption]) => ({
    id: `003-${id}`, paper: '003', label, caption, panel: id === 'table1' ? 'table' : 'map', status: STATUS[id], shape: SHAPE[id],
    params: 'the reference instance: a1 = 0.109 s/MB, a2 = 4.132 s/MB, b2 = −27109 s, C = 5 ms/MB, O = 75 ms, S = 25.4 s, n = 20',
    note: 'Drawn by the Isoefficiency view, with its defaults (the paper’s reference instance).',
    view: 'isoefficiency', values: {},
  })),
];
