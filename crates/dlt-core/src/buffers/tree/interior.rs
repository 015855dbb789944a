//! The tree LP by the interior point method (`lp::barrier`), for the full
//! LPs that neither the cuts nor the windows prove (start-up-dominated
//! trees above n_min). Each iterate's chunks, each hop as early as it can
//! start, make a schedule (an upper bound on the optimum), and its
//! multipliers a Lagrangian bound (`lp::dual`, a lower one); the answer
//! stands only where the best of each meet within PROVEN. h = 10, n = 30:
//! 29 iterations, 0.5 s, where microlp took 4,758 pivots and 2.3 s.

use super::proof::FullLp;
use super::rows::Tree;
use super::{Times, PROVEN};
use crate::buffers::stages::{LpSize, Solved};
use crate::lp::{barrier, dual};
use alloc::vec::Vec;

/// Iterations at most: h = 10 at n = 100 met its bound in 39-65.
const MOST: u64 = 120;

/// Iterations without a better schedule or bound before giving up: past
/// the point where the normal equations lose their pivots the iterates
/// wander (h = 10, n = 12, S = 1e-4: steps of 0 from a gap of 1.4e-6), or
/// their primal residual stops falling (n = 30, S = 1e-6: 2.5e-8 while mu
/// goes to 1e-20, the gap 2e-6 gaining 1e-9 now and then); MOST ends those
/// that creep.
const STALL: u64 = 12;

/// How far beyond its buffer a scaled chunk may go: round-off, where the
/// iterates carry V but for their last digits.
const FITS: f64 = 1e-12;

impl FullLp {
    /// The LP's optimum within PROVEN, over layers `kept`, as the full
    /// LP's answer; None where the bounds do not meet. `work` gets the
    /// iterations either way.
    pub(super) fn by_interior(&self, tree: &Tree, kept: &[usize], work: &mut LpSize) -> Option<Solved<Times>> {
        let x0 = tree.scale.0;
        let load = &self.lp.rows[self.load_row];
        let mut best: Option<(f64, Vec<Vec<f64>>, Vec<f64>)> = None;
        let mut bound = f64::NEG_INFINITY;
        let (mut iteration, mut better_at) = (0, 0);
        let iterations = barrier::interior(&self.lp, MOST, |x, y| {
            iteration += 1;
            // The chunks within their boxes, scaled to carry the load row's V.
            let clipped = |v: crate::lp::Var| x[v.0].clamp(0.0, self.lp.bounds[v.0].1);
            let carried: f64 = load.terms.iter().map(|&(v, a)| a * clipped(v)).sum();
            let scale = load.rhs / carried;
            // Scaled up, a chunk may pass its buffer: no schedule then. (Its
            // makespan would be below the optimum, and the bound, whose time
            // variables are capped by the best makespan, would follow it.)
            let fits = self.alpha.iter().flatten().all(|&v| clipped(v) * scale <= self.lp.bounds[v.0].1 * (1.0 + FITS));
            if fits {
                let chunks: Vec<Vec<f64>> = self.alpha.iter().map(|st| st.iter().map(|&v| clipped(v) * scale * x0).collect()).collect();
                let at = self.earliest(tree, &chunks);
                let makespan = self.makespan(&at.x);
                if makespan.is_finite() && best.as_ref().is_none_or(|b| makespan < b.0) {
                    best = Some((makespan, chunks, at.x));
                    better_at = iteration;
                }
            }
            let Some(upper_of) = best.as_ref().map(|b| b.0) else { return false };
            let lower = dual::bound_at_best(&self.lp, y.to_vec(), self.load_row, self.upper(tree, upper_of));
            if lower > bound {
                (bound, better_at) = (lower, iteration);
            }
            upper_of - bound <= PROVEN * upper_of || iteration - better_at >= STALL
        });
        *work = work.iterated(&self.lp, iterations);
        let (makespan, chunks, x) = best?;
        if makespan - bound > PROVEN * makespan {
            return None;
        }
        Some(self.solved(tree, kept, chunks, &x, makespan, work))
    }
}
