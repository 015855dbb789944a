//! The tree LP over its chunks alone, by Kelley's cutting planes. Fixed
//! chunks fix every hop's earliest start (a longest path,
//! `FullLp::earliest`), so the LP is: minimise, over the chunks, the
//! latest of the end rows (10), each the length of the critical path into
//! its hop plus the chunk's computing: a maximum of linear functions of
//! the chunks. The cut LP keeps the chunks and the load row (12), and one
//! row "Cmax >= this path" for each path met so far, its running sum R
//! written out as the chunks it sums; no start time. Every such row holds
//! in every schedule, so the cut LP's optimum T is a lower bound of the
//! tree LP's, and the chunks it returns, each hop as early as it can,
//! make a feasible schedule of makespan f >= T. Where f meets T within
//! PROVEN the chunks are optimal;
//! else the paths that decide f are added and the cut LP solved again,
//! warm: from the basis it ended with (`lp::Warm`), a round costs a few
//! dual simplex iterations where a cold solve started over (40 random
//! trees of 3-10 layers, start-ups up to 1e-3: 2.3-2.5 -> 1.5-1.9 s in all,
//! h = 6, n = 14 98 -> 6 ms; those that the cuts do not prove pay for
//! their rounds, up to 1.5x: h = 7, n = 21 700 -> 900 ms, 000 Fig. 12(b)'s
//! D = 1, V = 562 5.8 -> 23 ms before its first window proves it).

use super::proof::{Earliest, FullLp};
use super::rows::Tree;
use super::{Times, PROVEN};
use crate::buffers::stages::{chunks_of, LpSize, Solved};
use crate::lp::{self, Model, Row, Rows, Sense, Var};
use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

/// Rounds at most: the proven ones took 1-6 in the tests and runs, and
/// where the engine's absolute tolerance exceeds PROVEN of a small
/// makespan a round can re-add a path the cut LP already has and stall.
const MAX_ROUNDS: usize = 6;

/// How near its bound the cut LP's schedule must be from the second
/// round on for the rounds to go on. Those the cuts proved were within
/// 4.2e-3 after two rounds (in 39 random trees of 3-10 layers and the
/// h = 6, 8 trees at n = 12, 20; one of them 3.8e-3 after the first
/// grew to 4.2e-3, then proven), those they did not 2.2e-4 to 9.8e-2:
/// h = 10, n = 12, S = 1e-4 2.8e-2, then two more rounds, 223 iterations
/// of a cut LP three times the full LP's nonzeros.
const FAR: f64 = 1e-2;

impl FullLp {
    /// The LP's optimum by a cut LP that grows to at most four times the
    /// full LP's nonzeros: its rows are denser, but with no start times it
    /// takes few iterations (000 Sec. 4.2's tree at n = 10: 5, where the
    /// windowed LP took 363), so that a failure costs about one LP. The
    /// answer over layers `kept`, as the full LP's; None where they do not
    /// close the gap within that (or the engine fails on one): the caller
    /// solves the LP. Either way `work` gets the cut LPs' work.
    pub(super) fn by_cuts(&self, tree: &Tree, kept: &[usize], work: &mut LpSize) -> Option<Solved<Times>> {
        let x0 = tree.scale.0;
        // The cut LP's variables: Cmax and the chunks. A running sum R is
        // the sum of its chunk's later stages (its run rows' chain), written
        // out in each path: with an equality per R the cut LP of 000 Sec.
        // 4.2's tree at n = 10 had 201 rows for 101, and took microlp 117
        // iterations for 11.
        let mut cut = Model::default();
        let mut into_cut = vec![None; self.lp.vars()];
        for v in core::iter::once(self.cmax).chain(self.alpha.iter().flatten().copied()) {
            let (lo, hi) = self.lp.bounds[v.0];
            into_cut[v.0] = Some(cut.var("", lo, hi, self.lp.objective[v.0]));
        }
        let mapped = |v: Var| into_cut[v.0];
        let load = self.lp.row_ref(self.load_row);
        let terms: Option<Vec<(Var, f64)>> = load.terms.iter().map(|&(v, a)| Some((mapped(v)?, a))).collect();
        cut.row("load", terms?, Sense::Eq, load.rhs);
        let cmax = mapped(self.cmax)?;
        let alpha: Vec<Vec<Var>> = self.alpha.iter().map(|st| st.iter().map(|&v| mapped(v)).collect()).collect::<Option<_>>()?;
        // The first paths: those of every chunk alike, as much per
        // processor as the load row asks, within the buffers.
        let even = load.rhs / load.terms.iter().map(|&(_, a)| a).sum::<f64>();
        let chunks: Vec<Vec<f64>> = self.alpha.iter().map(|st| st.iter().map(|&v| even.min(self.lp.bounds[v.0].1) * x0).collect()).collect();
        let first = self.cuts(&self.earliest(tree, &chunks), &into_cut, cmax, f64::NEG_INFINITY, 0)?;
        cut.rows.extend(first);
        let budget = 4 * self.lp.nonzeros();
        if cut.nonzeros() > budget {
            return None;
        }
        let (mut warm, mut sol) = lp::Warm::new(cut, tree.name).ok()?;
        *work = work.then(warm.model(), &sol);
        for round in 1..=MAX_ROUNDS {
            let bound = sol.get(cmax);
            let chunks = chunks_of(&alpha, &sol, &warm.model().bounds, x0);
            let at = self.earliest(tree, &chunks);
            let makespan = self.makespan(&at.x);
            if makespan - bound <= PROVEN * makespan {
                return Some(self.solved(tree, kept, chunks, &at.x, makespan, work));
            }
            if round >= 2 && makespan - bound > FAR * makespan {
                return None;
            }
            // Only the ends the cut LP's T leaves behind.
            let rows = self.cuts(&at, &into_cut, cmax, bound + PROVEN * makespan, round)?;
            if warm.model().nonzeros() + rows.iter().map(|r| r.terms.len()).sum::<usize>() > budget {
                return None;
            }
            // Paths the cut LP's point already meets (by its own round-off,
            // on a badly scaled tree: p^h = 2.8e14 re-added one such path
            // six times where the cold LP proved it in two): the same cut
            // LP again, cold and presolved, to move off that point.
            let moves = rows.iter().any(|r| r.rhs - r.at(&sol) > PROVEN * makespan);
            sol = warm.add(rows, tree.name).ok()?;
            *work = work.then(warm.model(), &sol);
            if !moves {
                sol = lp::solve(&lp::Auto, warm.model(), tree.name).ok()?;
                *work = work.then(warm.model(), &sol);
            }
        }
        None
    }

    /// One row "Cmax >= the critical path into end row e" for each end row
    /// asking more than `above` at `at`, named by `round` and e (an end
    /// row can get another path in a later round).
    fn cuts(&self, at: &Earliest, into_cut: &[Option<Var>], cmax: Var, above: f64, round: usize) -> Option<Vec<Row>> {
        let mut rows = Vec::new();
        for &(e, sum, (k, j)) in &self.ends {
            if self.end_value(&at.x, e) <= above {
                continue;
            }
            let row = self.lp.row_ref(e);
            // E_e = sum over the path's arcs of (s - coef alpha), then the
            // end row's own chunk and running sum (its chunk in stages k
            // on): Cmax - (their terms) >= the constants.
            let mut terms: Vec<(Var, f64)> = vec![(cmax, 1.0)];
            let mut rhs = -row.rhs;
            let mut hop = None;
            for &(v, a) in row.terms {
                if self.is_time[v.0] {
                    hop = Some(v.0);
                } else if v == sum {
                    for stage in &self.alpha[k..] {
                        terms.push((into_cut[stage[j].0]?, -a));
                    }
                } else if v != self.cmax {
                    terms.push((into_cut[v.0]?, -a));
                }
            }
            let mut v = hop;
            while let Some(a) = v.and_then(|h| at.critical[h]) {
                let arc = &self.arcs[a];
                terms.push((into_cut[arc.alpha.0]?, arc.coef));
                rhs += arc.rhs;
                v = Some(arc.from.0);
            }
            terms.sort_unstable_by_key(|&(v, _)| v);
            terms.dedup_by(|later, first| {
                let same = later.0 == first.0;
                if same {
                    first.1 += later.1;
                }
                same
            });
            rows.push(Row { name: format!("path_{round}_{e}"), terms, sense: Sense::Ge, rhs });
        }
        Some(rows)
    }
}
