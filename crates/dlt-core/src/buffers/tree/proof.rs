//! A lower bound on a tree LP's optimum that meets a given schedule's
//! makespan where that schedule is optimal: the proof that lets the
//! windowed method's answer stand for the full LP (000 Sec. 3.2).
//!
//! Fix the chunks; every hop then starts as early as its rows allow (a
//! longest path: each row "t_b >= t_x + S + C share alpha_x" an arc), and
//! each hop has a critical arc into it, sometimes two or more (a tie). The
//! multipliers follow that shape: a unit of weight z on each end row that
//! is tight flows back along critical arcs, so every start time's reduced
//! cost is 0; the running sums' multipliers make the R's 0 too. What is
//! left free are the z of the paths (one per tight end, and one more per
//! tie on its path) and the load row's lambda, set so that the chunks
//! strictly between 0 and their buffer have reduced costs as near 0 as
//! they can (a small LP, the z summing to 1 as Cmax's column asks: one path
//! per end left 1.8e-8 of the bound at Fig. 12(b)'s D = 1, V = 562, where
//! a tie's path closes it). The bound itself is the Lagrangian of the LP as
//! built (`lp::dual`), so the shape is only a guess: a wrong one weakens
//! the bound, it never makes it wrong.

use super::rows::{Form, Role, Tree, TreeLp};
use super::weights::weighed;
use super::{Times, PROVEN};
use crate::buffers::stages::{LpSize, Solved};
use crate::lp::{barrier, Compact, Model, Rows, Sense, Var};
use core::cell::{OnceCell, RefCell};
use alloc::vec;
use alloc::vec::Vec;

/// Relative tolerance of "tight" and "strictly inside the box".
const TIGHT: f64 = 1e-9;

/// Ties on the tight ends' paths that become paths of their own (each a
/// column of the weights' LP).
const MAX_TIES: usize = 64;

/// The largest gap the critical paths alone may leave for the ties' paths
/// to be tried: they close gaps of round-off's size, not a schedule's.
/// Of 106 bounds that went on to them (273 trees: 000 Fig. 12 and 13(b),
/// 112 random, 27 pruned), those they proved were 3.9e-9 to 3.0e-6 off
/// before; above 1e-4 they took 1.3 of the 1.5 s all ties took and gained
/// 7 % of a gap at most (1.62e-3 -> 1.51e-3; h = 10, n = 30, S = 1e-5:
/// 1.248e-2 -> 1.239e-2 for a second weights' LP of 110 ms).
const TIES_GAP: f64 = 1e-4;

/// A row "t_b - t_x + a alpha_x >= s" of the LP: hop b waits for x.
pub(super) struct Arc {
    pub(super) row: usize,
    pub(super) from: Var,
    to: Var,
    pub(super) alpha: Var,
    pub(super) coef: f64,
    /// The row's s, kept here: the longest path reads every arc, and
    /// 261,012 rows at Fig. 13(b)'s n = 1,582 are too many to visit for it.
    pub(super) rhs: f64,
}

/// Arcs by hop, in one flat array (a `Vec` per hop cost a fifth of
/// building the bound at 118,651 variables).
struct ByHop {
    start: Vec<usize>,
    items: Vec<usize>,
}

impl ByHop {
    /// The indices of `arcs` grouped by `key(arc)`, a variable of `vars`.
    fn new(arcs: &[Arc], vars: usize, key: impl Fn(&Arc) -> usize) -> ByHop {
        let mut start = vec![0; vars + 1];
        arcs.iter().for_each(|arc| start[key(arc) + 1] += 1);
        (0..vars).for_each(|v| start[v + 1] += start[v]);
        let mut next = start.clone();
        let mut items = vec![0; arcs.len()];
        for (a, arc) in arcs.iter().enumerate() {
            let k = key(arc);
            items[next[k]] = a;
            next[k] += 1;
        }
        ByHop { start, items }
    }

    fn of(&self, v: usize) -> &[usize] {
        &self.items[self.start[v]..self.start[v + 1]]
    }
}

/// The LP's variables at given chunks, every hop as early as it can start:
/// `critical[hop]` the arc that decides its start, `tied[hop]` the others
/// that ask as much.
pub(super) struct Earliest {
    pub(super) x: Vec<f64>,
    pub(super) critical: Vec<Option<usize>>,
    pub(super) tied: Vec<Vec<usize>>,
}

/// The tree LP over all layers and n stages as built, with what the bound
/// needs of its rows, whatever the chunks: built once for every window a
/// solve tries.
pub(super) struct FullLp {
    /// Its rows, as the bound reads them; `model` the same LP for an
    /// engine, made on first use (the windows' proof never asks for it).
    pub(super) lp: Compact,
    model: OnceCell<Model>,
    pub(super) cmax: Var,
    /// The chunks and the hops' start times, by stage and layer.
    pub(super) alpha: Vec<Vec<Var>>,
    pub(super) t: Vec<Vec<Vec<Var>>>,
    /// Per variable: the chunk's (stage, layer), whether it is a hop's start.
    is_alpha: Vec<Option<(usize, usize)>>,
    pub(super) is_time: Vec<bool>,
    pub(super) arcs: Vec<Arc>,
    /// The arcs into each hop, and the hops in an order where each arc's
    /// source comes first.
    into: ByHop,
    order: Vec<usize>,
    /// End rows (with Cmax), each with its running sum R and chunk (stage, layer).
    pub(super) ends: Vec<(usize, Var, (usize, usize))>,
    pub(super) load_row: usize,
    /// Per R, its run row (R_k - alpha_k - R_(k+1) = 0); per run row, the
    /// next stage's.
    run_of: Vec<Option<usize>>,
    next_run: Vec<Option<usize>>,
    /// The interior point method laid out for the LP, once for every run
    /// (`interior`).
    pub(super) method: RefCell<Option<barrier::Method>>,
}

impl FullLp {
    /// The LP over layers `kept` and n stages; None where its rows are not
    /// of the forms the bound reads.
    pub(super) fn new(tree: &Tree, kept: &[usize], n: usize) -> Option<FullLp> {
        let TreeLp::<Compact> { lp, alpha, cmax, t, roles, .. } = tree.build(kept, n, Form::Printed);
        let vars = lp.vars();
        let mut is_alpha = vec![None; vars];
        for (k, stage) in alpha.iter().enumerate() {
            for (j, &v) in stage.iter().enumerate() {
                is_alpha[v.0] = Some((k, j));
            }
        }
        let mut is_time = vec![false; vars];
        t.iter().flatten().flatten().for_each(|v| is_time[v.0] = true);
        // Rows by what they state: arcs between hops, end rows (with Cmax),
        // the running sums' rows and the load row.
        let (mut arcs, mut ends, mut runs, mut load_row) = (Vec::new(), Vec::new(), Vec::new(), None);
        for (r, role) in roles.into_iter().enumerate() {
            let row = lp.row_ref(r);
            match role {
                Role::After { to, from, alpha } => {
                    let &(_, coef) = row.terms.iter().find(|(v, _)| *v == alpha)?;
                    arcs.push(Arc { row: r, from, to, alpha, coef, rhs: row.rhs });
                }
                Role::End { sum, stage, j } => ends.push((r, sum, (stage, j))),
                Role::Run { own, next } => runs.push((r, own, next)),
                Role::Load => load_row = Some(r),
                Role::Period => return None,
            }
        }
        // The hops in sending order (chunk by chunk as the originator sends
        // them, each chunk's hops down the tree) come each after the hops
        // they wait for: a hop waits for its chunk's hop before, for the
        // chunk sent before it on its link, and for a relay's buffer to be
        // freed by a chunk sent before it. Checked arc by arc all the same:
        // a longest path in any other order would be wrong. (Kahn's order,
        // found from the arcs, took a sixth of building the bound at 000
        // Fig. 13(b)'s n = 1,582.)
        let order: Vec<usize> = tree.sequence(kept, n).iter().flat_map(|ch| t[ch.stage][ch.j].iter().map(|v| v.0)).collect();
        let mut position = vec![usize::MAX; vars];
        order.iter().enumerate().for_each(|(at, &v)| position[v] = at);
        if arcs.iter().any(|arc| position[arc.from.0] >= position[arc.to.0] || position[arc.to.0] == usize::MAX) {
            return None;
        }
        let into = ByHop::new(&arcs, vars, |arc| arc.to.0);
        let mut run_of = vec![None; vars];
        for &(r, own, _) in &runs {
            run_of[own.0] = Some(r);
        }
        let mut next_run = vec![None; lp.rows()];
        for &(r, _, next) in &runs {
            next_run[r] = next.and_then(|v| run_of[v.0]);
        }
        Some(FullLp { lp, model: OnceCell::new(), cmax, alpha, t, is_alpha, is_time, arcs, into, order, ends, load_row: load_row?, run_of, next_run, method: RefCell::new(None) })
    }

    /// The LP's variables at `chunks` (load units, chunks[k][layer], all n
    /// stages): the chunks, their running sums R, and every hop as early as
    /// its arcs allow, with the arc that decides it and the others as
    /// tight (a tie).
    pub(super) fn earliest(&self, tree: &Tree, chunks: &[Vec<f64>]) -> Earliest {
        let FullLp { lp, is_alpha, arcs, into, order, ends, .. } = self;
        let x0 = tree.scale.0;
        let vars = lp.vars();
        let mut x = vec![0.0; vars];
        for (v, chunk) in is_alpha.iter().enumerate() {
            if let Some((k, j)) = chunk {
                x[v] = chunks[*k][*j] / x0;
            }
        }
        // R_kj = chunks from stage k on, as suffix sums: summed afresh per
        // end it was quadratic in n (1,582 stages at 000 Fig. 13(b)).
        let mut from_k = vec![vec![0.0; chunks.first().map_or(0, Vec::len)]; chunks.len() + 1];
        for k in (0..chunks.len()).rev() {
            for (j, c) in chunks[k].iter().enumerate() {
                from_k[k][j] = from_k[k + 1][j] + c;
            }
        }
        for &(_, sum, (k, j)) in ends {
            x[sum.0] = from_k[k][j] / x0;
        }
        let mut critical: Vec<Option<usize>> = vec![None; vars];
        let mut tied: Vec<Vec<usize>> = vec![Vec::new(); vars];
        // The start arc a asks of its hop.
        let asks = |x: &[f64], a: usize| {
            let arc = &arcs[a];
            x[arc.from.0] - arc.coef * x[arc.alpha.0] + arc.rhs
        };
        for &v in order {
            let (mut best, mut start, mut second) = (None, 0.0f64, f64::NEG_INFINITY);
            for &a in into.of(v) {
                let s = asks(&x, a);
                if s > start {
                    second = second.max(start);
                    (best, start) = (Some(a), s);
                } else {
                    second = second.max(s);
                }
            }
            // Ties are rare: the arcs are read again only where one is near.
            let near = TIGHT * start.abs().max(1.0);
            if best.is_some() && second >= start - near {
                tied[v] = into.of(v).iter().copied().filter(|&a| Some(a) != best && asks(&x, a) >= start - near).collect();
            }
            x[v] = start;
            critical[v] = best;
        }
        Earliest { x, critical, tied }
    }

    /// End row `r` at `x`: how late it asks Cmax to be (a . x - b with
    /// Cmax's -1 left out).
    pub(super) fn end_value(&self, x: &[f64], r: usize) -> f64 {
        let row = self.lp.row_ref(r);
        row.terms.iter().filter(|(v, _)| *v != self.cmax).map(|(v, a)| a * x[v.0]).sum::<f64>() - row.rhs
    }

    /// Every end row's `end_value` at `x`, in the order of `ends`.
    fn end_values(&self, x: &[f64]) -> Vec<f64> {
        self.ends.iter().map(|&(r, ..)| self.end_value(x, r)).collect()
    }

    /// The latest end row at `x`: the makespan of the schedule it times.
    pub(super) fn makespan(&self, x: &[f64]) -> f64 {
        latest(&self.end_values(x))
    }

    /// The lower bound, in time units, of the LP, from multipliers shaped
    /// by `chunks` (load units, chunks[k][layer], all n stages); -infinity
    /// where the shape gives none.
    pub(super) fn bound(&self, tree: &Tree, chunks: &[Vec<f64>]) -> f64 {
        let FullLp { lp, is_alpha, is_time, arcs, ends, load_row, run_of, next_run, .. } = self;
        let load_row = *load_row;
        let tau = tree.scale.1;
        let vars = lp.vars();
        let Earliest { x, critical, tied } = self.earliest(tree, chunks);
        // The makespan and the tight end rows: a . x <= b with Cmax's -1
        // left out, each end row read once.
        let values = self.end_values(&x);
        let makespan = latest(&values);
        let tight: Vec<usize> = ends.iter().zip(&values).filter(|&(_, &value)| value >= makespan * (1.0 - TIGHT)).map(|(&(r, ..), _)| r).collect();
        // The multipliers of a unit weight on tight end row e: -1 on e (a Le
        // row), +1 on every critical arc back from its hop (each start time's
        // reduced cost 0), and on the run rows from its stage on the weight
        // that cancels R's reduced costs (R_k's own row and the one before).
        // Where a hop's start is decided by two arcs at once the weight may
        // flow back along either: `branch` (hop, arc) takes the other one.
        let unit = |e: usize, branch: Option<(usize, usize)>| -> Vec<(usize, f64)> {
            let row = lp.row_ref(e);
            let mut pi = vec![(e, -1.0)];
            if let Some(&(hop, _)) = row.terms.iter().find(|(v, _)| is_time[v.0]) {
                let mut v = hop.0;
                let next = |v: usize| match branch {
                    Some((at, a)) if at == v => Some(a),
                    _ => critical[v],
                };
                while let Some(a) = next(v) {
                    pi.push((arcs[a].row, 1.0));
                    v = arcs[a].from.0;
                }
            }
            let sum = row.terms.iter().find(|(v, _)| run_of[v.0].is_some());
            if let Some(&(rv, a)) = sum {
                let mut r = run_of[rv.0];
                while let Some(run) = r {
                    pi.push((run, a));
                    r = next_run[run];
                }
            }
            pi
        };
        // The weights: every chunk strictly inside its box gets a reduced
        // cost as near 0 as the paths allow (`mix`; lambda is set again
        // after); where there is none (every chunk forced, say), equal weights.
        let mut free_index = vec![None; vars];
        let free: Vec<usize> = (0..vars).filter(|&v| {
            let (lo, hi) = lp.bounds[v];
            is_alpha[v].is_some() && x[v] > lo + TIGHT * x[v].abs().max(1.0) && x[v] < hi * (1.0 - TIGHT)
        }).collect();
        free.iter().enumerate().for_each(|(i, &v)| free_index[v] = Some(i));
        let mut units: Vec<Vec<(usize, f64)>> = tight.iter().map(|&e| unit(e, None)).collect();
        let most_load = most_load(tree);
        let upper = self.upper(tree, makespan);
        let room: Vec<(f64, f64)> = free.iter().map(|&v| (x[v] - lp.bounds[v].0, lp.bounds[v].1.min(most_load) - x[v])).collect();
        let bound_of = |units: &[Vec<(usize, f64)>]| weighed(lp, units, &free_index, &room, load_row, upper) * tau;
        let critical_only = bound_of(&units);
        let gap = (makespan * tau - critical_only) / (makespan * tau);
        if gap <= PROVEN || gap > TIES_GAP {
            return critical_only;
        }
        // One more path per tie on a tight end's path, up to a few: each is
        // a flow as valid as the critical one, and `mix` blends them where
        // one path alone leaves a free chunk's reduced cost off zero. Each
        // path crosses the stages (16,000 rows at n = 1,582), so they are
        // walked only where the critical paths fall short.
        let ties: Vec<Vec<(usize, f64)>> = tight
            .iter()
            .flat_map(|&e| {
                let mut on_path = Vec::new();
                if let Some(&(hop, _)) = lp.row_ref(e).terms.iter().find(|(v, _)| is_time[v.0]) {
                    let mut v = hop.0;
                    while let Some(a) = critical[v] {
                        on_path.extend(tied[v].iter().map(|&t| (e, v, t)));
                        v = arcs[a].from.0;
                    }
                }
                on_path
            })
            .take(MAX_TIES)
            .map(|(e, v, t)| unit(e, Some((v, t))))
            .collect();
        if ties.is_empty() {
            return critical_only;
        }
        units.extend(ties);
        critical_only.max(bound_of(&units))
    }
}

/// The latest of end rows' values, 0 without any.
fn latest(values: &[f64]) -> f64 {
    values.iter().copied().fold(0.0, f64::max)
}

/// What a processor of layer 1 can get at most, in LP units.
fn most_load(tree: &Tree) -> f64 {
    tree.v / tree.scale.0 / tree.p
}

impl FullLp {
    /// Upper bounds every optimum keeps on the variables the LP leaves
    /// unbounded, for its Lagrangian bound: every optimum starts its hops
    /// by any feasible `makespan` (Cmax too), and keeps R within what a
    /// processor of layer 1 can get.
    pub(super) fn upper(&self, tree: &Tree, makespan: f64) -> impl Fn(usize) -> f64 + Copy + '_ {
        let most = most_load(tree);
        move |v| if self.is_time[v] || v == self.cmax.0 { makespan } else { most }
    }

    /// The LP as a `Model`, for an engine.
    pub(super) fn model(&self) -> &Model {
        self.model.get_or_init(|| self.lp.to_model())
    }

    /// The LP with its equations, the running sums' and the load's, as >=
    /// rows: the interior point method's, whose dual then has no free
    /// variable (`lp::barrier`). The same optimum: R appears only in its
    /// own run rows, with a positive coefficient in its end row, so any
    /// point with R above the sum it runs keeps every row with R lowered
    /// to it; and every row holds with a chunk made smaller, so one that
    /// carries more than V does so with less. Its multipliers, >= 0 on
    /// these rows, are multipliers of the LP's equations too, and its
    /// chunks are scaled to carry V exactly (`iterate`).
    pub(super) fn inequalities(&self) -> Model {
        let mut lp = self.model().clone();
        for &r in self.run_of.iter().flatten().chain([&self.load_row]) {
            lp.rows[r].sense = Sense::Ge;
        }
        lp
    }

    /// The schedule of `chunks` (load units), its hops at `x` (an
    /// `Earliest`'s or the LP's own) and its `makespan` (LP units), as the
    /// full LP's answer over layers `kept`, found with `work`.
    pub(super) fn solved(&self, tree: &Tree, kept: &[usize], chunks: Vec<Vec<f64>>, x: &[f64], makespan: f64, work: &LpSize) -> Solved<Times> {
        let tau = tree.scale.1;
        Solved { kept: kept.to_vec(), chunks, makespan: makespan * tau, lp: work.clone(), solution: None, handles: Times { positions: Times::of(&self.t, x, tau), middle: None } }
    }
}
