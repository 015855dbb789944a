// The gallery's figures of [003], isoefficiency maps (see ../gallery.js for
// the two kinds of entries).

export default [
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
];
