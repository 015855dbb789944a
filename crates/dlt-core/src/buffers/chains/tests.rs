//! The shape against the LP, and the bound the proof rests on.

use super::*;
use approx::assert_relative_eq;
use proptest::prelude::*;

/// A star (`layered` false) or layers of growing size served last to
/// first, with V such that n_min is about n, `room` more capacity.
fn instance(units: usize, n: usize, s: f64, c: f64, a: f64, layered: bool, room: f64) -> Sequential {
    let mut seq = Sequential::example(units, s, c, a, 1.0, Some(1.0), layered);
    let all: Vec<usize> = (0..units).collect();
    seq.v = seq.stage_capacity(&all) * n as f64 / room;
    seq.scale = super::super::stages::lp_scale(seq.v, Some(1.0), s + seq.v * a / units as f64);
    seq
}

proptest! {
    #![proptest_config(crate::cases(300))]
    /// Wherever the shape is found it is the LP's optimum, and its
    /// chunks carry V within the buffers.
    #[test]
    fn the_shape_is_the_lp_optimum(units in 1usize..12, n in 1usize..12, s in 0.0..1e-2, c in 0.0..1e-3, a in 1e-4..1e-4 + 1e-2, layered: bool, room in 1.0..3.0) {
        let seq = instance(units, n, s, c, a, layered, room);
        let all: Vec<usize> = (0..units).collect();
        if let Some(proven) = solve(&seq, &all, n) {
            assert_relative_eq!(proven.makespan, seq.lp_makespan(n), max_relative = 1e-9);
            let load: f64 = proven.chunks.iter().flat_map(|st| st.iter().zip(&seq.units).map(|(x, u)| x * u.count)).sum();
            assert_relative_eq!(load, seq.v, max_relative = 1e-9);
            assert!(proven.chunks.iter().all(|st| st.iter().zip(&seq.units).all(|(&x, u)| (0.0..=u.cap).contains(&x))));
        }
    }

    /// Any multipliers give a lower bound on the optimum: the proof
    /// rests on it.
    #[test]
    fn every_multiplier_gives_a_lower_bound(units in 1usize..6, n in 1usize..6, s in 0.0..1e-2, c in 0.0..1e-3, a in 1e-4..1e-4 + 1e-2, layered: bool, room in 1.0..3.0, y in prop::collection::vec(0.0..1.0, 36), lambda in 0.0..10.0) {
        let seq = instance(units, n, s, c, a, layered, room);
        let all: Vec<usize> = (0..units).collect();
        let inst = Instance::new(&seq, &all, n);
        let y = y[..units * n].to_vec();
        let bound = inst.dual_bound(&(y, lambda)) * seq.scale.1;
        let optimum = seq.lp_makespan(n);
        assert!(bound <= optimum * (1.0 + 1e-9), "bound {bound} above the optimum {optimum}");
    }
}

/// The shapes the paper's parameters give, computing-bound, link-bound
/// and mixed layers, are found: without them every such request would
/// go back to the simplex.
#[test]
fn the_papers_regimes_are_solved_by_their_shape() {
    for (units, n, s, c, a, layered, room) in [
        (10, 100, 1e-3, 1e-6, 1e-3, false, 1.0001),
        (300, 10, 1e-3, 1e-6, 1e-3, false, 1.0001),
        (8, 5, 1e-3, 2e-4, 1e-3, false, 1.3),
        (6, 10, 1e-3, 1e-4, 1e-3, true, 1.5),
    ] {
        let seq = instance(units, n, s, c, a, layered, room);
        let all: Vec<usize> = (0..units).collect();
        let proven = solve(&seq, &all, n).unwrap_or_else(|| panic!("no shape for {units} units, {n} stages"));
        assert_relative_eq!(proven.makespan, seq.lp_makespan(n), max_relative = 1e-9);
    }
    // The degenerate star (A = m C; the link's time is the optimum where
    // start-ups cost anything) and its neighbours, buffers not binding.
    for s in [0.0, 1e-5, 1e-3] {
        let seq = Sequential::example(30, s, 1e-6, 3e-5, 1.5e3, Some(1e3), false);
        let all: Vec<usize> = (0..30).collect();
        let proven = solve(&seq, &all, 10).unwrap_or_else(|| panic!("no shape for the degenerate star, S = {s}"));
        assert_relative_eq!(proven.makespan, seq.lp_makespan(10), max_relative = 1e-9);
    }
}


/// Where the link dominates without start-ups (6 processors, C = 1,
/// A = 3, full stages first, the later ones shrinking by about 3.7 a
/// stage), the multipliers of the first free stages are a vanishing share
/// of the last ones': the shape's bound still meets its makespan far
/// beyond n_min = 3 (at n = 20, with the multipliers affine in lambda, it
/// fell 6e-6 short and the LP solved).
#[test]
fn a_link_bound_star_without_start_ups_is_proven_at_many_stages() {
    for n in [8, 20, 40] {
        let seq = Sequential::example(6, 0.0, 1.0, 3.0, 100.0, Some(100.0 / 15.0), false);
        let all: Vec<usize> = (0..6).collect();
        let proven = solve(&seq, &all, n).unwrap_or_else(|| panic!("no proven shape at n = {n}"));
        assert_relative_eq!(proven.makespan, seq.lp_makespan(n), max_relative = 1e-9);
    }
}

/// Where the link takes longest and the sending-order fill leaves load
/// over at the link's time (5 processors, S = 1e-7, C = 1e-3, A = 5e-4,
/// the buffers D = 100 or none to speak of, n = 6), the fill from the
/// last message back carries it: the link's time is then the optimum,
/// the LP's, and its stages that can go empty at that time do (the last
/// message's row alone asks the last stage to be).
#[test]
fn the_link_s_time_is_met_by_a_fill_from_the_last_message_back() {
    for d in [100.0, 1e4] {
        let seq = Sequential::example(5, 1e-7, 1e-3, 5e-4, 1000.0, Some(d), false);
        let all: Vec<usize> = (0..5).collect();
        let inst = Instance::new(&seq, &all, 6);
        let link = inst.messages.iter().map(|msg| msg.s).sum::<f64>() + inst.messages[0].c * inst.v;
        assert!(inst.forward_fill(link).is_none(), "the sending-order fill carries V: nothing to show");
        let (outcome, _) = inst.link_bound().expect("no fill meets the link's time");
        assert_relative_eq!(outcome.t * seq.scale.1, seq.lp_makespan(6), max_relative = 1e-9);
        assert!(outcome.x[outcome.x.len() - 5..].iter().all(|&x| x == 0.0));
        let proven = solve(&seq, &all, 6).expect("no proof");
        assert_relative_eq!(proven.makespan, seq.lp_makespan(6), max_relative = 1e-9);
    }
}

/// A shape can lie many pivots from the closest one the bisections find:
/// a binomial tree (p = 3, h = 7, S = 0, n = n_min = 14, 98 messages)
/// takes 94, where the 64 of before gave up and the LP solved. Its shape
/// is the LP's optimum.
#[test]
fn a_shape_many_pivots_away_is_found() {
    use super::super::{binomial, BinomialParams, Order, Stages};
    let params = BinomialParams {
        p: 3.0,
        h: 7.0,
        load: crate::costs::Load::new(0.0, 7.064056204603155e-4, 7.600074627041403e-2, 4323049.8776699575),
        stages: Stages::new(Some(11468.93677806623), Some(14.0), Some(false)),
        order: Order::Nlf,
    };
    let (seq, ..) = binomial::validate(&params).unwrap();
    let all: Vec<usize> = (0..7).collect();
    let proven = solve(&seq, &all, 14).expect("no shape");
    assert_relative_eq!(proven.makespan, seq.lp_makespan(14), max_relative = 1e-9);
}
