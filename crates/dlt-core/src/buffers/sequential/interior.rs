//! The compact LP of a star or binomial tree by the interior point method
//! (`lp::barrier`), for the raw LP (`"prune": false`) where no shape of
//! the optimum is found: start-ups 0 or the link dominating, many stages
//! above n_min, whose optimum is far from unique. Each iterate's chunks,
//! brought to carry V within the buffers, make a schedule (an upper bound)
//! and its multipliers a Lagrangian bound (`lp::dual`, a lower one); the
//! answer stands where they meet within PROOF, else the engine solves.
//! A star of 614 processors, S = 0, n = 3: 68 iterations, 0.13 s, where
//! microlp took 7,800 pivots and 8.2 s (native HiGHS: 1.15 s by its
//! simplex, 0.28 s by its interior point method).
//!
//! Its answer is an optimum, not a vertex: the iterates tend to the centre
//! of the optimal face, where no chunk is empty that any optimum loads
//! (but for the stages a face of the LP leaves out, see `solve`); the
//! paper's pruning drops what a vertex leaves empty, and takes the
//! method's answer only for its makespan (`stages::early_stages`).

use super::Sequential;
use crate::buffers::chains::{Instance, PROOF};
use crate::lp::barrier::{self, Gap, Look};
use crate::lp::{dual, Model, Var};
use alloc::vec::Vec;

/// Iterations at most: 19-86 on the stars and binomial trees that took
/// microlp seconds.
const MOST: u64 = 150;

/// Iterations without the gap shrinking (`barrier::Gap`) before the
/// engine takes over. The schedule can lag its bound for
/// long: a binomial tree (p = 4, h = 4, n = 1,043, S = 0) stood 4.1e-9
/// above it from the 57th iteration to the 84th and met it at the 86th
/// (0.4 s; the engine after it took 7 s).
const STALL: u64 = 40;

/// An optimum: chunks[k][j] in load units, the makespan and the dual
/// bound that proves it, in time units.
pub(super) struct Proven {
    pub chunks: Vec<Vec<f64>>,
    pub makespan: f64,
    pub bound: f64,
}

/// The compact LP of n stages whose optimum is sought (`lp`, its chunks
/// `alpha[k][j]`), and the LP the method runs on: the same, or a face of
/// the LP where only the first `free` stages have load (`face`, chunks
/// `face_alpha`, `Sequential::first_stages`).
pub(super) struct Run<'a> {
    pub lp: &'a Model,
    pub alpha: &'a [Vec<Var>],
    pub face: &'a Model,
    pub face_alpha: &'a [Vec<Var>],
    pub free: usize,
}

/// Where the bounds do not meet: the method's last iterate (the variables
/// of the LP it ran on) and the relative gap between them.
pub(super) struct Unproven {
    pub x: Vec<f64>,
    pub gap: f64,
}

/// Iterations the method goes on once the face is proven and the whole
/// LP is not (too few stages free): the whole LP's bound lagged the face's
/// by two where both were met.
const LAG: u64 = 3;

/// The optimum of `run.lp` over units `kept`, else where the method
/// ended; and its iterations (on `run.face`). A face's
/// iterate, its later stages empty, is a schedule of the whole LP. Its
/// rows come stage by stage, three per message, then the load row, as
/// the whole LP's: the multipliers of its last free stage, copied to
/// every stage after it, make multipliers of the whole LP, whose
/// Lagrangian bound holds whatever they are, and which prove an optimum
/// that leaves those stages empty where an empty stage is priced alike
/// wherever it comes. A star of 23 processors, S = 6.7e-7, n = 130, whose
/// optimum loads 11 stages: the method on the whole LP stalled 9.6e-6
/// from its bound and microlp took 14,700 iterations; with 18 stages free
/// the bounds met in 32 iterations (8 s -> 0.07 s).
pub(super) fn solve(seq: &Sequential, kept: &[usize], run: &Run) -> (Result<Proven, Unproven>, u64) {
    let (x0, tau) = seq.scale;
    let (n, free) = (run.alpha.len(), run.free);
    let timing = Instance::new(seq, kept, n);
    let carry = Instance::new(seq, kept, free);
    let order: Vec<(usize, usize)> = seq.order_of(kept.len(), free).collect();
    let per_stage = 3 * kept.len();
    let unproven = || Unproven { x: Vec::new(), gap: f64::INFINITY };
    let Some(load_row) = run.lp.rows.iter().position(|r| r.name == "load") else { return (Err(unproven()), 0) };
    let Some(face_load) = run.face.rows.iter().position(|r| r.name == "load") else { return (Err(unproven()), 0) };
    debug_assert!(load_row == per_stage * n && face_load == per_stage * run.face_alpha.len());
    // The whole LP's row r as the face's: the same row, or the last free
    // stage's row in its place.
    let last_free = per_stage * (free - 1);
    let of_face = |r: usize| if r == load_row { face_load } else if r < last_free + per_stage { r } else { last_free + r % per_stage };
    let v = seq.v / x0;
    let mut best: Option<(f64, Vec<f64>)> = None;
    let mut bound = f64::NEG_INFINITY;
    let (mut iteration, mut progress) = (0, Gap::new(PROOF, STALL));
    let mut face_proven = None;
    let mut ended = unproven();
    let iterations = barrier::interior(run.face, None, MOST, |x, y| {
        iteration += 1;
        ended.x.clear();
        ended.x.extend_from_slice(x);
        let sent: Vec<f64> = order.iter().map(|&(p, j)| x[run.face_alpha[p][j].0]).collect();
        if let Some(mut chunks) = carry.carrying(sent) {
            chunks.resize(kept.len() * n, 0.0);
            let makespan = timing.row_ends(&chunks).into_iter().fold(0.0, f64::max);
            if makespan.is_finite() && best.as_ref().is_none_or(|b| makespan < b.0) {
                best = Some((makespan, chunks));
            }
        }
        let Some(upper) = best.as_ref().map(|b| b.0) else { return Look::Go };
        // Every optimum ends by `upper`, which bounds its times (Cmax, the
        // time left after each message), and carries V, which bounds what
        // a processor computes from any stage on.
        let most = upper.max(v);
        let whole = (0..=load_row).map(|r| y[of_face(r)]).collect();
        bound = bound.max(dual::bound_at_best(run.lp, whole, load_row, |_| most));
        ended.gap = (upper - bound) / upper;
        let look = progress.look(iteration, ended.gap).1;
        if free < n && look != Look::Stop {
            let own = dual::bound_at_best(run.face, y.to_vec(), face_load, |_| most);
            if upper - own <= PROOF * upper && *face_proven.get_or_insert(iteration) + LAG <= iteration {
                return Look::Stop;
            }
        }
        look
    });
    let answer = best.filter(|(makespan, _)| makespan - bound <= PROOF * makespan).ok_or(ended).map(|(makespan, x)| {
        let mut chunks = alloc::vec![alloc::vec![0.0; kept.len()]; n];
        for ((p, j), xq) in seq.order_of(kept.len(), n).zip(x) {
            chunks[p][j] = xq * x0;
        }
        Proven { chunks, makespan: makespan * tau, bound: bound * tau }
    });
    (answer, iterations)
}

#[cfg(test)]
mod tests {
    use super::super::Sequential;
    use crate::buffers::{chains, stages};
    use alloc::vec::Vec;
    use approx::assert_relative_eq;
    use proptest::prelude::*;

    /// A star (`layered` false) or binomial-like LP of `units` units with
    /// buffers of 1 and V = `stages` of them full.
    fn example(units: usize, s: f64, c: f64, a: f64, layered: bool, stages: f64) -> Sequential {
        let mut seq = Sequential::example(units, s, c, a, 1.0, Some(1.0), layered);
        let all: Vec<usize> = (0..units).collect();
        seq.v = seq.stage_capacity(&all) * stages;
        seq.scale = stages::lp_scale(seq.v, Some(1.0), s + seq.v * a / units as f64);
        seq
    }

    /// A binomial tree without start-ups above n_min whose optimum no
    /// shape gives (p = 2, h = 9, LLF, n = 17, n_min = 8: its layers'
    /// rates per processor differ): the LP's, by the method (stars without
    /// start-ups have their shape since their multipliers are affine in
    /// the first free message's, `chains::multipliers`, and many binomial
    /// trees since the shapes' pivots go on to one per message).
    fn shapeless() -> Sequential {
        use crate::buffers::{binomial, BinomialParams, Order, Stages};
        let params = BinomialParams {
            p: 2.0,
            h: 9.0,
            load: crate::costs::Load::new(0.0, 2.1817288877822437e-4, 1.1510826465199452e-2, 2650330.7533694287),
            stages: Stages::new(Some(14213.797927511827), Some(17.0), Some(false)),
            order: Order::Llf,
        };
        binomial::validate(&params).unwrap().0
    }

    /// The method's answer, where it gives one, is the compact LP's
    /// optimum (the engine's) within the tolerance of both, its bound
    /// below it, its chunks within the buffers and carrying V.
    #[test]
    fn without_start_ups_the_method_proves_what_no_shape_gives() {
        let seq = shapeless();
        let all: Vec<usize> = (0..9).collect();
        assert!(chains::solve(&seq, &all, 17).is_none(), "the shapes answer: the method is not tried");
        let (lp, alpha, _) = seq.compact(&all, 17);
        let (answer, iterations) = super::solve(&seq, &all, &super::Run { lp: &lp, alpha: &alpha, face: &lp, face_alpha: &alpha, free: 17 });
        let Ok(super::Proven { chunks, makespan, bound }) = answer else { panic!("the bounds do not meet") };
        assert!(iterations < super::MOST);
        assert_relative_eq!(makespan, seq.lp_makespan(17), max_relative = 1e-9);
        assert!(bound <= makespan && makespan - bound <= chains::PROOF * makespan);
        assert_eq!(chunks.len(), 17);
    }

    /// Without start-ups an empty message costs nothing: the paper's
    /// pruning cannot shorten the schedule, and the pruned request takes
    /// the method's answer as the raw one does, at the LP's optimum.
    #[test]
    fn without_start_ups_pruning_takes_the_method_s_answer() {
        let seq = shapeless();
        let optimum = seq.lp_makespan(17);
        for prune in [stages::Prune::Raw, stages::Prune::Pruned] {
            let solved = stages::solve(&seq, 17, prune).unwrap();
            assert!(solved.solution.is_none() && solved.lp.variables > 0, "not by the method: {:?}", solved.lp);
            assert_relative_eq!(solved.makespan, optimum, max_relative = 1e-9);
        }
        // One start-up is enough for the pruning to count.
        let mut one = seq;
        assert!(stages::StageModel::free_messages(&one));
        one.units[3].s = 1e-9;
        assert!(!stages::StageModel::free_messages(&one));
    }

    /// Where the optimum leaves the later stages empty, it is proven on a
    /// face of the LP with only the first stages free: 5 processors, 40
    /// stages where 3 carry V; the faces of 3 and 6 free stages end above
    /// it, that of 12 meets it. The answer is the engine's optimum within
    /// the tolerance of both, proven on an LP of 24 stages (the whole one
    /// has 40), and its stages after the 12th are empty.
    #[test]
    fn an_optimum_with_empty_later_stages_is_proven_on_the_first_ones() {
        let seq = example(5, 1e-6, 1e-6, 1e-4, false, 2.5);
        let all: Vec<usize> = (0..5).collect();
        let (whole, _, _) = seq.compact(&all, 40);
        let (face, _) = seq.first_stages(&all, 12);
        let (solved, bound) = seq.interior(&all, 40, stages::LpSize::NONE).unwrap_or_else(|work| panic!("not proven: {work:?}"));
        assert_eq!((solved.lp.variables, solved.lp.solves), (face.names.len(), 3));
        assert!(face.names.len() < whole.names.len());
        assert_relative_eq!(solved.makespan, seq.lp_makespan(40), max_relative = 1e-9);
        assert!(bound <= solved.makespan && solved.makespan - bound <= chains::PROOF * solved.makespan);
        assert_eq!(solved.chunks.len(), 40);
        assert!(solved.chunks[12..].iter().flatten().all(|&x| x == 0.0));
        let load: f64 = solved.chunks.iter().flatten().sum();
        assert_relative_eq!(load, seq.v, max_relative = 1e-12);
    }

    proptest! {
        #![proptest_config(crate::cases(100))]
        #[test]
        fn its_answer_is_the_lp_optimum(units in 2usize..12, n in 2usize..8, s in prop::sample::select(alloc::vec![0.0, 1e-6, 1e-4]), c in 1e-4..1e-2, a in 1e-4..1e-2, layered: bool, f in 0.0..1.0) {
            let seq = example(units, s, c, a, layered, 1.0 + (n as f64 - 1.2) * f);
            let all: Vec<usize> = (0..units).collect();
            let (lp, alpha, _) = seq.compact(&all, n);
            if let (Ok(super::Proven { chunks, makespan, bound }), _) = super::solve(&seq, &all, &super::Run { lp: &lp, alpha: &alpha, face: &lp, face_alpha: &alpha, free: n }) {
                let optimum = seq.lp_makespan(n);
                assert_relative_eq!(makespan, optimum, max_relative = 1e-9);
                assert!(bound <= optimum * (1.0 + 1e-9), "bound {bound} above the optimum {optimum}");
                let load: f64 = chunks.iter().flat_map(|st| st.iter().zip(&seq.units).map(|(x, u)| x * u.count)).sum();
                assert_relative_eq!(load, seq.v, max_relative = 1e-12);
                assert!(chunks.iter().all(|st| st.iter().zip(&seq.units).all(|(&x, u)| (0.0..=u.cap).contains(&x))));
            }
        }

        /// With start-ups and at least twice the stages that carry V, the
        /// faces come first: whatever proves the answer, it is the LP's
        /// optimum, carries V within the buffers, and its stages after the
        /// face's free ones are empty.
        #[test]
        fn the_faces_answer_is_the_lp_optimum(units in 2usize..8, n in 4usize..16, s in prop::sample::select(alloc::vec![1e-6, 1e-5, 1e-4]), c in 1e-4..1e-2, a in 1e-4..1e-2, layered: bool, f in 0.0..1.0) {
            let seq = example(units, s, c, a, layered, 1.0 + (n as f64 / 2.0 - 1.2) * f);
            let all: Vec<usize> = (0..units).collect();
            if let Ok((solved, bound)) = seq.interior(&all, n, stages::LpSize::NONE) {
                let optimum = seq.lp_makespan(n);
                assert_relative_eq!(solved.makespan, optimum, max_relative = 1e-9);
                assert!(bound <= optimum * (1.0 + 1e-9), "bound {bound} above the optimum {optimum}");
                let load: f64 = solved.chunks.iter().flat_map(|st| st.iter().zip(&seq.units).map(|(x, u)| x * u.count)).sum();
                assert_relative_eq!(load, seq.v, max_relative = 1e-9);
                let (whole, _, _) = seq.compact(&all, n);
                if solved.lp.variables < whole.names.len() {
                    let free = (solved.lp.rows - 1) / (3 * units) / 2;
                    assert!(solved.chunks[free..].iter().flatten().all(|&x| x == 0.0));
                }
            }
        }
    }
}

