//! The windowed method (000 Sec. 3.2 at large n): the tree LP over a few
//! free stages at each end and a periodic middle, widened until a dual
//! bound of the full LP proves it.

use super::proof::FullLp;
use super::rows::{Form, Period, Tree, TreeLp};
use super::{Middle, Times, PROVEN};
use crate::buffers::stages::{chunks_of, LpSize, Solved, StageModel};
use crate::buffers::staging;
use crate::error::Result;
use crate::lp;
use alloc::vec::Vec;

/// In steady state the middle stages are alike, each the one before
/// shifted by a period P: two of them stand for all, between the first f
/// and last l stages, which are free. At n_min with small D each middle
/// stage carries every layer's cap (`full`; 000 Sec. 4.2: "the maximum load
/// was sent"); with more stages than n_min the LP chooses what they carry.
/// The window widens (`next_window`, at most to `widest` free stages a
/// side) until the makespan stops improving or a dual bound of the full LP
/// (`proof`, where `full_lp` is given) meets it. Returns the solution over layers `kept` and all n
/// stages, its hop times and the best lower bound on the full LP's optimum
/// found.
pub(super) fn windowed(tree: &Tree, kept: &[usize], n: usize, full: bool, widest: usize, full_lp: Option<&FullLp>) -> Result<(Solved<Times>, f64)> {
    let (x0, tau) = tree.scale;
    let mut proven = f64::NEG_INFINITY;
    let solved = staging::widening(|window| {
        let (f, l) = (window, window);
        let positions = f + 2 + l;
        let skip = (n - positions) as f64;
        let TreeLp::<lp::Model> { lp, alpha, cmax, t, period, .. } = tree.build(kept, positions, Form::Periodic(Period { at: f, skip, full }));
        let sol = solve_window(&lp, tree.name)?;
        let big_p = period.map_or(0.0, |v| sol.get(v));
        // The chunks of all n stages: position f + 1 and the left-out
        // stages after it carry the same.
        let middle = Middle { at: f + 1, copies: 1 + skip as usize, period: big_p * tau };
        let mut chunks = Vec::with_capacity(n);
        for (p, stage) in chunks_of(&alpha, &sol, &lp.bounds, x0).into_iter().enumerate() {
            let copies = if p == middle.at { middle.copies } else { 1 };
            chunks.extend(core::iter::repeat_n(stage, copies));
        }
        let times = Times { positions: Times::of(&t, &sol.values, tau), middle: Some(middle) };
        let makespan = sol.get(cmax) * tau;
        proven = proven.max(full_lp.map_or(f64::NEG_INFINITY, |full_lp| full_lp.bound(tree, &chunks)));
        let size = LpSize::NONE.then(&lp, &sol);
        // Proven, or the next window leaves no middle or is wider than
        // `widest`, or (free middle stages) the first window or two left
        // the bound far off, where the optimum's ends do not settle into a
        // steady state within reach (h = 10, n = 30, S = 1e-5: 0.8 % after
        // 2 + 2, 0.7 % after 10 + 10, 3.5 s of windows): the caller then
        // solves the full LP where it can. The gap is to the best bound so
        // far: a wider window's own bound can be further off than the last
        // one's (p = 1, h = 19, n = 206: 2.5e-5 after 1 + 1, 5.2e-3 after
        // 2 + 2, whose schedule was 1.7e-6 above the first bound).
        let gap = (makespan - proven) / makespan;
        let far = !full && if window == 1 { gap.is_finite() && gap > FIRST_WINDOW_GAP } else { gap > WIDENING_GAP };
        // (Without a bound, where the full LP is too large, a window is only
        // kept while it improves: two stay the cheap second try.)
        let next = next_window(tree, window, full && gap.is_finite() && gap > RAMP_GAP);
        let done = gap <= PROVEN || 2 * next + 3 > n || next > widest || far;
        Ok((Solved { kept: kept.to_vec(), chunks, makespan, lp: size, solution: Some(sol), handles: times }, (!done).then_some(next)))
    })?;
    // The link and computing (`bounds`); and a layer gets at most pD a
    // stage, so the layer nearest the originator computes at least what
    // the others cannot take, shared by its processors.
    let (link, computing) = StageModel::bounds(tree, kept, n);
    let nearest = tree.powers[kept[0] + 1];
    let others = n as f64 * tree.p * tree.d.unwrap_or(f64::INFINITY) * (kept.len() - 1) as f64;
    let bound = link.max(computing).max(tree.s + tree.a * (tree.v - others).max(0.0) / nearest);
    Ok((solved, bound.max(proven)))
}

/// A window's LP, solved from its earliest point: every chunk at its least
/// (at its cap in a full middle), every start time as early as that allows.
/// The dual simplex starts there with the start times basic, where from the
/// slack basis it made them basic one iteration at a time: 000 Fig. 13(b)'s
/// first window at D = 1, V = 31,622.8, 356 -> 113 iterations; its 66
/// requests 400 -> 350 ms natively. From the point the chunks at their caps
/// it took 187, and at an even share of the load 236.
pub(super) fn solve_window(lp: &lp::Model, what: &str) -> Result<lp::Solution> {
    let start = lp::earliest(lp, lp.bounds.iter().map(|b| b.0).collect());
    lp::solve_near(&lp::Auto, lp, Some(&start), what)
}

/// How near its bound a window of free middle stages must come, after two
/// widenings, for a wider one to be tried: proven windows came within
/// 1.3e-6 after 2 + 2 in the tests and runs (h = 6, n = 30, S = 1e-4:
/// 1.3e-6, then 1.1e-9 at 4 + 4, proven at 8 + 8).
const WIDENING_GAP: f64 = 1e-4;

/// How near its bound the first window of free middle stages must come
/// for a second to be tried. In 157 random trees above n_min (3-10 layers)
/// the windows that proved their answer had first windows within 4.8e-3
/// (that one proven by the second, 2e-11); h = 10 trees whose start-ups
/// dominate (V = 1e5, D = 1e4, n = 12-100) start 1.2e-2 to 0.15 off and
/// their second window, 300-400 simplex iterations, gets no closer.
const FIRST_WINDOW_GAP: f64 = 1e-2;

/// How far from its bound a first window at n_min must be for the second
/// to skip two free stages a side and go to the ramp's (`next_window`).
/// In 000's gallery figures the first window of those proven with two was
/// within 6e-5, and of those that needed the ramp's 4.5e-3 to 1.2e-1; at
/// h <= 4 the two are the same.
const RAMP_GAP: f64 = 1e-2;

/// The window after `window`: 2, then at least h/2 at each end. Where one
/// or two free stages are not enough, the ends need about h of them
/// together, a chunk's h hops of ramp up and down: 000 Fig. 13(b)'s D = 1E2,
/// V = 3.2E5 (h = 10, n = 159) is proven with 5 + 5 and not with 4 + 5.
/// Where the first window is far off (`ramp`) two are not tried: there
/// 1 + 1, 2 + 2, 5 + 5 took 405, 632 and 1,365 simplex iterations (2,402;
/// doubling, on to 8 + 8, 4,212), and 1 + 1, 5 + 5 take 1,770.
fn next_window(tree: &Tree, window: usize, ramp: bool) -> usize {
    let half = tree.h.div_ceil(2);
    match window {
        1 if ramp => half.max(2),
        1 => 2,
        2 => half.max(4),
        w => 2 * w,
    }
}
