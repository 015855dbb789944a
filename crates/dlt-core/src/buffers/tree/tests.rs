//! The windowed method and its proof against the full LP, `prune: "best"`
//! on a tree, and the inputs the HiGHS cross-check found.

use super::*;
use super::super::stages::Prune;
use approx::assert_relative_eq;
use proptest::prelude::*;

/// Found by the HiGHS cross-check: an LP start time of -3e-35 made the
/// checker reject an optimal schedule. HiGHS: 0.002036985409117215.
#[test]
fn round_off_below_zero_is_zero() {
    let params = TreeParams {
        p: 3.0, h: 2.0, load: Load::new(0.0, 0.00005757120163861357, 0.0000023682800468021873, 103.40508757750558),
        stages: Stages::new(Some(16.90693418219639), None, Some(false)), order: Order::Llf, buffers: 1.0,
    };
    let out = tree(&params).unwrap();
    assert_relative_eq!(out.schedule.makespan, 0.002036985409117215, max_relative = 1e-9);
}

/// `"prune": "best"` on a tree: three layers in two stages, which the
/// paper's pruning keeps, are longer than the best smaller tree, whose
/// makespan is that tree's own raw LP, solved as an ordinary request.
#[test]
fn best_finds_a_shorter_smaller_tree() {
    let with = |h: f64, n: Option<f64>, prune: Option<Prune>| TreeParams {
        p: 1.0, h, load: Load::new(0.0019117244061701139, 1.7603211755764942e-06, 2.2737969592300446e-05, 653.0783908447199),
        stages: Stages { prune, ..Stages::new(Some(195.91161950592198), n, None) }, order: Order::Nlf, buffers: 2.0,
    };
    let best = tree(&with(3.0, None, Some(Prune::Best))).unwrap();
    let report = best.best.clone().unwrap();
    assert_eq!((report.paper.units, report.paper.stages), (3, 2));
    assert!(best.schedule.makespan < report.paper.makespan * 0.8);
    let kept = best.loads.iter().filter(|&&x| x > 0.0).count();
    let smaller = tree(&with(kept as f64, Some(best.n as f64), Some(Prune::Raw))).unwrap();
    assert_relative_eq!(best.schedule.makespan, smaller.schedule.makespan, max_relative = 1e-12);
}

proptest! {
    #![proptest_config(crate::cases(60))]
    /// The windowed steady-state method against the full LP wherever the
    /// full LP runs, with its schedules through the checker. The dual
    /// bound of `proof` never exceeds the full LP's optimum, for the
    /// windowed answer and for a worse schedule (chunks of even stages
    /// moved towards the buffer's half: weak duality holds at any
    /// multipliers, even those of a schedule that does not carry V); where
    /// it proves the windowed answer, that answer is the full LP's optimum.
    /// D is drawn with V / (p h D) in (n - 1, n); a third of the cases have
    /// two buffers.
    #[test]
    fn the_window_never_beats_the_full_lp_and_its_proof_is_sound(p in 1u8..3, h in 2usize..4, n in 5usize..40, s in 1e-4..1e-4 + 1e-2, c in 0.0..1e-3, a in 1e-4..1e-4 + 1e-2, v in 1e2..1e2 + 1e5, f in 0.0..1.0, llf in any::<bool>(), two_buffers in prop::bool::weighted(1.0 / 3.0)) {
        let p = f64::from(p);
        let d = v / (p * h as f64 * (n as f64 - 0.05 - 0.9 * f));
        let order = if llf { Order::Llf } else { Order::Nlf };
        let params = TreeParams { p, h: h as f64, load: Load::new(s, c, a, v), order, buffers: if two_buffers { 2.0 } else { 1.0 }, stages: Stages::new(Some(d), None, Some(false)) };
        let (tree, n_got, _) = validate(&params).unwrap();
        prop_assert_eq!(n_got, n);
        let full = stages::solve(&tree, n, Prune::Raw).unwrap().makespan;
        let all = layers(&tree);
        let (fast, bound) = windowed(&tree, &all, n, true, n, proof::FullLp::new(&tree, &all, n).as_ref()).unwrap();
        prop_assert!(bound <= full * (1.0 + 1e-9), "bound {bound} above the optimum {full}");
        // A restriction of the full LP: never shorter, and not always as
        // short (p = 1, h = 2, n = 12: 4.7e-4 longer), which is why below
        // 1500 hops only a proven window is used.
        prop_assert!(fast.makespan >= full * (1.0 - 1e-9), "the windowed LP beat the full LP");
        if fast.makespan - bound <= PROVEN * fast.makespan {
            assert_relative_eq!(fast.makespan, full, max_relative = 1e-9);
        }
        hop_schedule(&tree, &fast, None).unwrap();
        let worse: Vec<Vec<f64>> = fast.chunks.iter().enumerate().map(|(k, st)| st.iter().enumerate().map(|(j, &x)| {
            let cap = d / libm::pow(p, j as f64);
            if k % 2 == 0 { 0.5 * (x + 0.5 * cap) } else { x }
        }).collect()).collect();
        prop_assert!(proof::FullLp::new(&tree, &all, n).unwrap().bound(&tree, &worse) <= full * (1.0 + 1e-9));
    }
}

proptest! {
    #![proptest_config(crate::cases(40))]
    /// More stages than n_min: the middle stages periodic with chunks the
    /// LP chooses (a restriction of the full LP, never shorter), its bound
    /// never above the full LP's optimum; and a request's answer is the
    /// full LP's optimum, proven by that bound or solved in full.
    #[test]
    fn free_middle_stages_are_a_restriction_and_answers_stay_exact(p in 1u8..3, h in 2usize..4, n in 5usize..30, s in 1e-5..1e-5 + 1e-3, c in 0.0..1e-3, a in 1e-4..1e-4 + 1e-2, v in 1e2..1e2 + 1e5, buffered: bool, llf in any::<bool>(), two_buffers: bool) {
        let p = f64::from(p);
        let d = buffered.then_some(v / (p * h as f64));
        let order = if llf { Order::Llf } else { Order::Nlf };
        let params = TreeParams { p, h: h as f64, load: Load::new(s, c, a, v), order, buffers: if two_buffers { 2.0 } else { 1.0 }, stages: Stages::new(d, Some(n as f64), Some(false)) };
        let (tree_model, n_got, n_min) = validate(&params).unwrap();
        prop_assert_eq!((n_got, n_min), (n, 1));
        let full = stages::solve(&tree_model, n, Prune::Raw).unwrap().makespan;
        let all = layers(&tree_model);
        let (fast, bound) = windowed(&tree_model, &all, n, false, 2 * h, proof::FullLp::new(&tree_model, &all, n).as_ref()).unwrap();
        prop_assert!(bound <= full * (1.0 + 1e-9), "bound {bound} above the optimum {full}");
        prop_assert!(fast.makespan >= full * (1.0 - 1e-9), "the windowed LP beat the full LP");
        hop_schedule(&tree_model, &fast, None).unwrap();
        let out = tree(&params).unwrap();
        assert_relative_eq!(out.schedule.makespan, full, max_relative = 1e-9);
    }
}

/// A user's n above n_min (h = 6, n = 30, n_min = 1, computing dominant):
/// the windowed method proves the middle stages periodic and free at
/// 8 + 8 free stages (596 variables against the full LP's 991). The
/// request itself is proven first by the cut LPs (six, five of them warm
/// re-solves): the same optimum.
#[test]
fn more_stages_than_n_min_are_proven_with_a_free_periodic_middle() {
    let params = TreeParams {
        p: 2.0, h: 6.0, load: Load::new(1e-4, 1e-6, 1e-3, 1e5), order: Order::Nlf, buffers: 2.0,
        stages: Stages::new(Some(1e4), Some(30.0), Some(false)),
    };
    let (tree_model, n, n_min) = validate(&params).unwrap();
    assert_eq!((n, n_min), (30, 1));
    let all = layers(&tree_model);
    let (windows, bound) = windowed(&tree_model, &all, n, false, 12, proof::FullLp::new(&tree_model, &all, n).as_ref()).unwrap();
    assert_eq!(windows.lp.variables, 596);
    assert!(windows.makespan - bound <= PROVEN * windows.makespan, "{} against its bound {bound}", windows.makespan);
    let full = stages::solve(&tree_model, n, Prune::Raw).unwrap();
    assert_eq!(full.lp.variables, 991);
    assert_relative_eq!(windows.makespan, full.makespan, max_relative = 1e-9);
    let out = tree(&params).unwrap();
    assert_eq!(out.gap, None);
    assert_relative_eq!(out.schedule.makespan, full.makespan, max_relative = 1e-9);
}

/// 000 Sec. 4.2's tree, h = 10, TreeLLF-2 at n_min = 100: one window is
/// the optimum, and the dual bound proves it at once (the full LP has
/// 7,501 variables; HiGHS: 49.96995).
#[test]
fn the_papers_tree_at_n_min_is_proven_with_one_small_lp() {
    let params = TreeParams {
        p: 2.0, h: 10.0, load: Load::new(1e-3, 1e-6, 1e-3, 1e6), order: Order::Llf, buffers: 2.0,
        stages: Stages::new(Some(1e6 / (20.0 * 100.0) * 1.0001), None, None),
    };
    let out = tree(&params).unwrap();
    assert_eq!((out.n, out.gap, out.lp.solves), (100, None, 1));
    assert_relative_eq!(out.schedule.makespan, 49.96995, max_relative = 1e-6);
    assert!(out.warnings[0].contains("proven optimal"), "{:?}", out.warnings);
}

/// Fig. 12(b)'s TreeNLF-2 at D = 1, h = 7, V = 562.341 (n_min = 41): the
/// window's answer is the full LP's optimum, and the dual bound proves it
/// only through a tie on the tight end's path (one critical path left
/// 1.8e-8 between them, and the full LP of 1,723 variables was solved).
/// Its last LP is the first window's (170 variables); the work counted
/// before it is the cut LPs', which do not close the gap in their rounds.
#[test]
fn a_tie_on_the_critical_path_proves_fig_12b() {
    let params = TreeParams {
        p: 2.0, h: 7.0, load: Load::new(1e-3, 1e-6, 1e-3, 562.341), order: Order::Nlf, buffers: 2.0,
        stages: Stages::new(Some(1.0), None, None),
    };
    let out = tree(&params).unwrap();
    assert_eq!((out.n, out.gap, out.lp.variables), (41, None, 170));
    assert!(out.lp.solves > 1, "the cut LPs' work is counted: {:?}", out.lp);
    assert!(out.warnings[0].contains("proven optimal"), "{:?}", out.warnings);
    let (tree_model, n, _) = validate(&params).unwrap();
    let full = stages::solve(&tree_model, n, Prune::Raw).unwrap().makespan;
    assert_relative_eq!(out.schedule.makespan, full, max_relative = 1e-9);
}

/// Fig. 13(b)'s D = 1E2, V = 3.2E5 (h = 10, n = 159): its ends need 5 + 5
/// free stages; the first window is 5 % off its bound, so the window goes
/// 1, 5 and the second is proven (1, 2, 5 before; doubling solved 1, 2, 4
/// and 8 + 8, 1,352 variables, to the same makespan).
#[test]
fn fig_13b_d100_is_proven_at_half_h_free_stages_a_side() {
    let params = TreeParams {
        p: 2.0, h: 10.0, load: Load::new(1e-3, 1e-6, 1e-3, 316_228.0), order: Order::Llf, buffers: 2.0,
        stages: Stages::new(Some(100.0), None, None),
    };
    let out = tree(&params).unwrap();
    assert_eq!((out.n, out.gap, out.lp.solves, out.lp.variables), (159, None, 2, 902));
    assert!(out.warnings[0].contains("proven optimal"), "{:?}", out.warnings);
}

/// Fig. 13(b)'s D = 1 points beyond the full LP: V = 1E5 needs 5,000
/// stages of 55 hops. The answer lists the stages that differ and two full
/// ones at each end, its listed load is what its schedule computes, the
/// totals still count every stage, and the gap to the relays' and ports'
/// bounds is small: 1 buffer takes (2h - 1) S a stage at layer 1, 2
/// buffers h S at the originator's ports.
#[test]
fn d1_points_beyond_the_full_lp_are_listed_in_part_with_their_gap() {
    for (buffers, per_stage) in [(1.0, 19e-3), (2.0, 10e-3)] {
        let params = TreeParams { p: 2.0, h: 10.0, load: Load::new(1e-3, 1e-6, 1e-3, 1e5), stages: Stages::new(Some(1.0), None, None), order: Order::Llf, buffers };
        let out = tree(&params).unwrap();
        let omitted = out.omitted.unwrap();
        assert_eq!((out.n, out.chunks.len() + omitted.stages), (5000, 5000));
        let listed: f64 = out.chunks.iter().map(|st| st.iter().zip(&out.layer_sizes).map(|(x, n)| x * n).sum::<f64>()).sum();
        assert_relative_eq!(listed, out.schedule.listed_load.unwrap(), max_relative = 1e-12);
        let total: f64 = out.loads.iter().zip(&out.layer_sizes).map(|(x, n)| x * n).sum();
        assert_relative_eq!(total, 1e5, max_relative = 1e-9);
        let gap = out.gap.unwrap();
        assert!(gap < 3e-5, "{buffers} buffers: gap {gap}");
        assert_relative_eq!(out.schedule.makespan, 5000.0 * per_stage, max_relative = 2e-3);
    }
}

/// A chain of 43 relays at n_min = 136 (140,353 variables in the full LP):
/// the windows widen only while their own LP is within the engine, as
/// near to it as they can; 22 free stages a side were refused after 8 s
/// of narrower windows.
#[test]
fn no_window_is_beyond_the_engine() {
    let params = TreeParams {
        p: 1.0, h: 43.0, load: Load::new(1.8e-9, 2.64e-5, 1.12e-3, 2950.1), order: Order::Nlf, buffers: 1.0,
        stages: Stages::new(Some(0.50733), None, Some(false)),
    };
    let (tree_model, n, n_min) = validate(&params).unwrap();
    assert_eq!((n, n_min), (136, 136));
    let all = layers(&tree_model);
    assert!(lp_variables(&all, n) > lp::MAX_VARIABLES);
    let w = widest(&tree_model, &all, n, true, false);
    assert!(window_variables(&all, w) <= lp::MAX_VARIABLES && window_variables(&all, w + 1) > lp::MAX_VARIABLES, "w = {w}");
    // As the LP that refused counted them, 2w + 2 stages of 946 hops and
    // 86 chunks and running sums, Cmax and the period.
    assert_eq!(window_variables(&all, 22), 47_474);
}

/// Found by random trees above n_min whose full LP is beyond the engine
/// (p = 2, h = 3, n = 5,665, n_min = 937, S = 0: 67,981 variables): the
/// windows' schedule, 1.5e-5 above a dual bound of the full LP, was
/// refused, as were 22 more of 40 such requests, some after 19 s of
/// windows. Within 1e-3 of the bound (15 of them) it now stands with its
/// gap, its schedule checked and carrying V.
#[test]
fn above_n_min_beyond_the_engine_the_windows_answer_with_their_gap() {
    let params = TreeParams {
        p: 2.0, h: 3.0, load: Load::new(0.0, 1.9934e-5, 9.9694e-6, 5028.59), order: Order::Llf, buffers: 1.0,
        stages: Stages::new(Some(0.894798), Some(5665.0), Some(true)),
    };
    let (tree_model, n, n_min) = validate(&params).unwrap();
    assert_eq!((n, n_min), (5665, 937));
    assert!(lp_variables(&layers(&tree_model), n) > lp::MAX_VARIABLES);
    let out = tree(&params).unwrap();
    let gap = out.gap.unwrap();
    assert!(gap > PROVEN && gap < 1e-4, "gap {gap}");
    assert!(out.warnings[0].contains("not proven optimal"), "{:?}", out.warnings);
    let total: f64 = out.loads.iter().zip(&out.layer_sizes).map(|(x, n)| x * n).sum();
    assert_relative_eq!(total, 5028.59, max_relative = 1e-9);
    let (link, computing) = StageModel::bounds(&tree_model, &layers(&tree_model), n);
    assert!(out.schedule.makespan >= link.max(computing));
}

/// A raw tree LP of n stages (p processors a relay, h layers, costs and V
/// `(s, c, a, v)`), with buffers `room` times what n stages need, or none.
#[allow(clippy::too_many_arguments)]
fn raw_tree(p: u8, h: usize, n: usize, (s, c, a, v): (f64, f64, f64, f64), room: Option<f64>, llf: bool, two_buffers: bool) -> TreeParams {
    let p = f64::from(p);
    let d = room.map(|r| r * v / (p * h as f64 * n as f64));
    let order = if llf { Order::Llf } else { Order::Nlf };
    TreeParams { p, h: h as f64, load: Load::new(s, c, a, v), order, buffers: if two_buffers { 2.0 } else { 1.0 }, stages: Stages::new(d, Some(n as f64), Some(false)) }
}

/// A shortcut's answer is the full LP's: its optimum `full`, chunks that
/// carry V, and a schedule the checker passes.
fn assert_is_the_full_lps(tree_model: &Tree, found: &Solved<Times>, full: f64) {
    assert_relative_eq!(found.makespan, full, max_relative = 1e-9);
    let carried: f64 = found.chunks.iter().map(|st| st.iter().zip(&tree_model.powers[1..]).map(|(x, w)| x * w).sum::<f64>()).sum();
    assert_relative_eq!(carried, tree_model.v, max_relative = 1e-9);
    hop_schedule(tree_model, found, None).unwrap();
}

proptest! {
    #![proptest_config(crate::cases(60))]
    /// The LP by its chunks alone (`cuts`) against the full LP, on trees of
    /// a few stages (with and without buffers, both orders, one or two
    /// buffers): where the cuts close the gap their makespan is the full
    /// LP's optimum, their chunks carry V, and their schedule passes the
    /// checker; a request's answer is the full LP's optimum either way.
    #[test]
    fn cuts_meet_the_full_lp(p in 1u8..4, h in 1usize..6, n in 1usize..5, s in 1e-5..1e-5 + 1e-2, c in 0.0..1e-3, a in 1e-4..1e-4 + 1e-2, v in 1e2..1e2 + 1e5, room in prop::option::of(1.0..3.0), llf in any::<bool>(), two_buffers: bool) {
        let params = raw_tree(p, h, n, (s, c, a, v), room, llf, two_buffers);
        let (tree_model, n_got, _) = validate(&params).unwrap();
        prop_assert_eq!(n_got, n);
        let full = stages::solve(&tree_model, n, Prune::Raw).unwrap().makespan;
        let all = layers(&tree_model);
        let mut work = LpSize::NONE;
        if let Some(found) = proof::FullLp::new(&tree_model, &all, n).unwrap().by_cuts(&tree_model, &all, &mut work) {
            assert_is_the_full_lps(&tree_model, &found, full);
        }
        let out = tree(&params).unwrap();
        assert_relative_eq!(out.schedule.makespan, full, max_relative = 1e-9);
    }
}

proptest! {
    #![proptest_config(crate::cases(30))]
    /// The interior point method against the full LP by the simplex, on
    /// trees above n_min (both orders, one or two buffers, with and without
    /// buffers): where its bounds meet, or the relaxation on the rows it
    /// found tight (or the windowed schedule holds tight) does, its
    /// makespan is the full LP's optimum, its chunks carry V and its
    /// schedule passes the checker.
    #[test]
    fn the_interior_point_answer_is_the_full_lps(p in 1u8..4, h in 2usize..6, n in 3usize..12, s in 1e-5..1e-5 + 1e-2, c in 0.0..1e-3, a in 1e-4..1e-4 + 1e-2, v in 1e2..1e2 + 1e5, room in prop::option::of(1.0..3.0), llf in any::<bool>(), two_buffers: bool) {
        let params = raw_tree(p, h, n, (s, c, a, v), room, llf, two_buffers);
        let (tree_model, n, _) = validate(&params).unwrap();
        let full = stages::solve(&tree_model, n, Prune::Raw).unwrap().makespan;
        let all = layers(&tree_model);
        let full_lp = proof::FullLp::new(&tree_model, &all, n).unwrap();
        for schedule in [None, near_window(&tree_model, n, &full_lp).map(|(x, _)| x)] {
            if let Some((found, ..)) = full_lp.by_interior(&tree_model, &all, schedule.as_deref(), &mut LpSize::NONE.clone()) {
                assert_is_the_full_lps(&tree_model, &found, full);
            }
        }
    }
}

/// Trees far above n_min, start-ups dominating (p = 2, h = 10, two
/// buffers, prune off), which neither the cuts nor the windows prove:
/// answered by the interior point method within 1e-9 of the optimum native
/// HiGHS finds. n = 30: not by 4,758 simplex pivots; n = 100, S = 1e-5:
/// where the iterates stalled until vanishing pivots were read as round-off
/// (`normal::DEPENDENT`), not by the simplex's 70 s (HiGHS: 20,648
/// iterations, 14 s).
#[test]
fn start_up_dominated_trees_are_proven_by_the_interior_point_method() {
    for (s, n, highs) in [(1e-3, 30.0, 0.35958474898340687), (1e-5, 100.0, 1.4172569826130315 * 4.888585532746823e-2)] {
        let params = TreeParams { p: 2.0, h: 10.0, load: Load::new(s, 1e-6, 1e-3, 1e5), order: Order::Nlf, buffers: 2.0, stages: Stages::new(Some(1e4), Some(n), Some(false)) };
        let out = tree(&params).unwrap();
        assert!(out.warnings.iter().any(|w| w.starts_with("solved by an interior point method")), "{:?}", out.warnings);
        assert_relative_eq!(out.schedule.makespan, highs, max_relative = 1e-9);
    }
}

/// A chain of 49 relays (p = 1) over 4 stages, no start-ups: 5,293
/// variables and 14,557 rows, whose normal equations over the rows fill a
/// factor of 3.25 million entries. The method runs on the LP's dual (its
/// run and load rows as inequalities), over the columns, and its bounds
/// meet at the optimum native HiGHS finds: where it ran on the rows it
/// stalled and the relaxation's simplex took over (13 s in all natively,
/// now 1.2 s).
#[test]
fn a_chain_is_proven_by_the_method_on_its_dual() {
    let load = Load::new(0.0, 8.260740231966148e-8, 1.4452580323433829e-6, 457280.70561474416);
    let params = TreeParams { p: 1.0, h: 49.0, load, order: Order::Nlf, buffers: 2.0, stages: Stages::new(Some(101617.93458105426), Some(4.0), Some(false)) };
    let (tree_model, n, _) = validate(&params).unwrap();
    let all = layers(&tree_model);
    let full_lp = proof::FullLp::new(&tree_model, &all, n).unwrap();
    assert!(full_lp.on_dual());
    let (found, _, proof) = full_lp.by_interior(&tree_model, &all, None, &mut LpSize::NONE.clone()).unwrap();
    assert_eq!(proof, "a dual bound of the full LP");
    assert_is_the_full_lps(&tree_model, &found, 3.073854310401354 * tree_model.scale.1);
}

/// A chain of few stages above n_min, raw: `solve_once` takes the method
/// on the LP's dual before the windows (its full LP is on the dual and
/// even the first window is beyond the share), and the plan says so; the
/// same chain at n_min, and a tree whose first window is within the
/// share, keep the windows first.
#[test]
fn the_plan_names_the_method_on_the_dual_where_it_goes_first() {
    let v = 457280.70561474416;
    let chain = |d: f64| TreeParams { p: 1.0, h: 49.0, load: Load::new(0.0, 8.26e-8, 1.445e-6, v), order: Order::Nlf, buffers: 2.0, stages: Stages::new(Some(d), Some(6.0), Some(false)) };
    let method = |params: &TreeParams| plan(params).unwrap().method.unwrap();
    let above = chain(101617.9);
    let (tree_model, n, n_min) = validate(&above).unwrap();
    assert!(n_min < n && !within_share(1, n));
    assert!(proof::FullLp::new(&tree_model, &layers(&tree_model), n).unwrap().on_dual());
    assert!(method(&above).contains("interior point method on its dual"), "{}", method(&above));
    let at = chain(v / (49.0 * 6.0) * 1.0001);
    assert_eq!(validate(&at).unwrap().2, 6);
    assert!(!method(&at).contains("on its dual"), "{}", method(&at));
    let tree = TreeParams { p: 2.0, h: 10.0, load: Load::new(1e-3, 1e-6, 1e-3, 1e5), order: Order::Nlf, buffers: 2.0, stages: Stages::new(Some(1e4), Some(30.0), Some(false)) };
    assert!(!method(&tree).contains("on its dual"), "{}", method(&tree));
}

/// h = 10, n = 200, S = 1e-4 (15,001 variables): the method's
/// schedule stood 2.1e-9 above the optimum from the 41st iteration on
/// (DELTA's bias on its directions), and the relaxation's simplex took
/// 21,400 iterations after it (48 s natively; native HiGHS 63 s, 73,298
/// iterations). With its directions refined once the gap is below
/// SHARPEN, its bounds meet: the optimum native HiGHS finds, proven by
/// the method alone.
#[test]
fn refined_directions_take_a_tree_of_200_stages_to_its_proof() {
    let params = TreeParams { p: 2.0, h: 10.0, load: Load::new(1e-4, 1e-6, 1e-3, 1e5), order: Order::Nlf, buffers: 2.0, stages: Stages::new(Some(1e4), Some(200.0), Some(false)) };
    let (tree_model, n, _) = validate(&params).unwrap();
    let all = layers(&tree_model);
    let (found, _, proof) = proof::FullLp::new(&tree_model, &all, n).unwrap().by_interior(&tree_model, &all, None, &mut LpSize::NONE.clone()).unwrap();
    assert_eq!(proof, "a dual bound of the full LP");
    assert_relative_eq!(found.makespan, 5.144305959443043 * tree_model.scale.1, max_relative = 1e-9);
}

/// Where the interior point method stops short of the optimum (p = 2,
/// h = 10, n = 12, S = 1e-4: its bounds 1.7e-6 apart), the simplex on the
/// rows its iterates found tight answers: the optimum native HiGHS finds
/// with its tolerances at 1e-10 (at its default 1e-7, 2.1e-9 below). The
/// request itself (n = 12, where not even the first window is within
/// WINDOW_SHARE) is answered before the method, by the simplex on the
/// rows the first window's schedule holds tight: the same optimum.
#[test]
fn a_tree_the_interior_point_method_stops_short_of_is_solved_on_its_tight_rows() {
    let params = TreeParams { p: 2.0, h: 10.0, load: Load::new(1e-4, 1e-6, 1e-3, 1e5), order: Order::Nlf, buffers: 2.0, stages: Stages::new(Some(1e4), Some(12.0), Some(false)) };
    let (tree_model, n, _) = validate(&params).unwrap();
    let highs = 1.4730944748899637 * tree_model.scale.1;
    let all = layers(&tree_model);
    let (found, _, proof) = proof::FullLp::new(&tree_model, &all, n).unwrap().by_interior(&tree_model, &all, None, &mut LpSize::NONE.clone()).unwrap();
    assert!(proof.contains("rows it found tight"), "{proof}");
    assert_relative_eq!(found.makespan, highs, max_relative = 1e-9);
    let out = tree(&params).unwrap();
    assert!(out.warnings.iter().any(|w| w.starts_with("solved by the simplex on the rows the windowed schedule holds tight")), "{:?}", out.warnings);
    assert_relative_eq!(out.schedule.makespan, highs, max_relative = 1e-9);
}

/// Where the interior point method stalls after 6 iterations (a random
/// tree: p = 4, h = 8, n = 47, one buffer) and the windows did not prove
/// their answer, the simplex on the rows the windowed schedule holds
/// tight answers: the optimum native HiGHS finds with its tolerances at
/// 1e-10 (from the method's last iterate, 3.3 times the time).
#[test]
fn a_tree_the_interior_point_method_stalls_on_is_solved_on_the_windowed_schedules_tight_rows() {
    let params = TreeParams {
        p: 4.0, h: 8.0, load: Load::new(2.0503351233694022e-05, 1e-6, 1e-3, 124902.49668119836),
        order: Order::Nlf, buffers: 1.0, stages: Stages::new(Some(113182.10607212294), Some(47.0), Some(false)),
    };
    let out = tree(&params).unwrap();
    assert!(out.warnings.iter().any(|w| w.contains("the windowed schedule holds tight")), "{:?}", out.warnings);
    assert_relative_eq!(out.schedule.makespan, 0.05359651901308, max_relative = 1e-9);
}

/// Where the interior point method stalls near its bound (a random tree,
/// p = 2, h = 8, n = 55, V = 1e6, LLF: 2.3e-8 apart from the 22nd
/// iteration on, its normal equations short of pivots near the
/// optimum), the simplex on the rows its best schedule holds tight
/// answers: the optimum native HiGHS finds with its tolerances at 1e-10
/// (from the windowed schedule's rows, 3.2 times the time).
#[test]
fn a_tree_the_interior_point_method_stalls_near_is_solved_on_its_best_schedules_tight_rows() {
    let params = TreeParams { p: 2.0, h: 8.0, load: Load::new(1e-4, 1e-6, 1e-3, 1e6), order: Order::Llf, buffers: 2.0, stages: Stages::new(Some(2e5), Some(55.0), Some(false)) };
    let (tree_model, ..) = validate(&params).unwrap();
    let out = tree(&params).unwrap();
    assert!(out.warnings.iter().any(|w| w.contains("the rows its best schedule holds tight")), "{:?}", out.warnings);
    assert_relative_eq!(out.schedule.makespan, 1.0004966256788053 * tree_model.scale.1, max_relative = 1e-9);
}

/// Where the relaxation's answer breaks no row left out but its
/// schedule, each hop as early as it can, ends more than PROVEN after its
/// Cmax (round-off of the engine's tolerances; p = 2, h = 9, n = 32, LLF),
/// that answer is the full LP's, without solving the full LP again cold:
/// its chunks' schedule, within the engine's tolerance of the optimum
/// native HiGHS finds (with its tolerances at 1e-10), and one the checker
/// takes (at n = 31 the engine's own times ended 3.6e-9 after its Cmax).
/// (Session 41's tree, n = 34, S = 1e-4, V = 5e5, takes another path
/// since the method's directions are refined near the optimum, and the
/// one at n = 31 since the simplex engines see the columns scaled,
/// `lp::Scaling`.)
#[test]
fn a_relaxation_whose_answer_every_row_holds_is_the_full_lp() {
    let params = TreeParams { p: 2.0, h: 9.0, load: Load::new(5e-5, 1e-6, 1e-3, 1e5), order: Order::Llf, buffers: 2.0, stages: Stages::new(Some(1e4), Some(32.0), Some(false)) };
    let (tree_model, n, _) = validate(&params).unwrap();
    let all = layers(&tree_model);
    let mut work = LpSize::NONE;
    let (found, _, proof) = proof::FullLp::new(&tree_model, &all, n).unwrap().by_interior(&tree_model, &all, None, &mut work).unwrap();
    assert!(proof.contains("every other row holds"), "{proof}");
    // A schedule: not below the optimum, above it by the engine's
    // tolerance at most, and one the checker takes.
    let optimum = 1.0088893656692663 * tree_model.scale.1;
    assert!(found.makespan >= optimum * (1.0 - 1e-9) && found.makespan <= optimum * (1.0 + 1e-8), "{} against {optimum}", found.makespan);
    hop_schedule(&tree_model, &found, None).unwrap();
}

/// 000 Sec. 4.2's tree (p = 2, h = 10, V = 1E6) in one stage, TreeNLF-1:
/// the cut LP over Cmax and the 10 chunks (11 variables, each running sum
/// written out in the paths), with the paths of even chunks, is solved
/// once and meets its bound, where the full LP has 76 variables and 147
/// rows (HiGHS: 50.00596).
#[test]
fn one_stage_of_the_papers_tree_takes_one_cut_lp() {
    let params = TreeParams {
        p: 2.0, h: 10.0, load: Load::new(1e-3, 1e-6, 1e-3, 1e6), order: Order::Nlf, buffers: 1.0,
        stages: Stages::new(Some(1e6 / 20.0 * 1.0001), None, None),
    };
    let out = tree(&params).unwrap();
    assert_eq!((out.n, out.lp.solves, out.lp.variables), (1, 1, 11));
    assert_relative_eq!(out.schedule.makespan, 50.00596, max_relative = 1e-6);
    let (tree_model, n, _) = validate(&params).unwrap();
    let full = stages::solve(&tree_model, n, Prune::Raw).unwrap();
    assert_eq!((full.lp.variables, full.lp.rows), (76, 147));
    assert_relative_eq!(out.schedule.makespan, full.makespan, max_relative = 1e-9);
}

/// Found by the fuzzer: p = 15, h = 24 (1.7e28 processors in layer h) ran
/// the engine for minutes, and p = 4, h = 24 (2.8e14) stalled its cut LP;
/// beyond MAX_LAYER (1e8) random trees broke their buffers or read as
/// infeasible. Refused at once, naming h and its range for this p.
#[test]
fn a_tree_beyond_1e8_processors_a_layer_is_refused() {
    let params = |p: f64, h: f64| TreeParams { p, h, load: Load::new(1e-3, 1e-6, 1e-3, 1e5), stages: Stages::new(Some(1e4), None, None), order: Order::Nlf, buffers: 1.0 };
    for (p, h, most) in [(15.0, 24.0, 6), (4.0, 24.0, 13), (2.0, 27.0, 26)] {
        let err = tree(&params(p, h)).unwrap_err();
        assert_eq!(err.field, "h");
        assert!(err.message.starts_with(&format!("h must be at most {most} for p = {p}, got {h}")), "{}", err.message);
        assert!(tree(&params(p, most as f64)).is_ok());
    }
}

/// Found by a sweep of random trees: p = 8, h = 7 at n_min (17,858
/// stages). The engine's answer overran layer 7's cap, D / 8^6 = 3.8e-6
/// buffers, within its absolute tolerance, and the message carrying it
/// held 100.001 for D = 100, which the checker refused. The engines now
/// see the LP scaled (`lp::Scaling`) and chunks are read within their
/// bounds: every message fits (the checker passes) and the listed chunks
/// are within (11), p^(i-1) alpha <= D.
#[test]
fn a_deep_layer_s_chunk_is_read_within_its_buffer() {
    let d = 100.0;
    let params = TreeParams { p: 8.0, h: 7.0, load: Load::new(1e-6, 1e-3, 1e-6, 1e8), stages: Stages::new(Some(d), None, Some(false)), order: Order::Llf, buffers: 1.0 };
    let out = tree(&params).unwrap();
    for stage in &out.chunks {
        for (i, x) in stage.iter().enumerate() {
            assert!(libm::pow(8.0, i as f64) * x <= d * (1.0 + 1e-12), "layer {}: {x}", i + 1);
        }
    }
}

/// A chunk for layer 13 of a 4-ary tree is p^12 = 1.7e7 messages' worth on
/// the originator's link: the engine's round-off below 0 on it (-6e-11)
/// once made a message 0.25 S shorter, and two of the originator's
/// messages overlapped when the schedule read the chunk as 0. Now the
/// engine sees the chunk scaled (`lp::Scaling`), the checker passes, and
/// the makespan is the optimum native HiGHS finds on the LP `dlt export`
/// writes (its tolerances at 1e-10).
#[test]
fn a_deep_layer_s_round_off_does_not_shorten_its_messages() {
    let params = TreeParams { p: 4.0, h: 13.0, load: Load::new(1e-4, 1e-3, 1e-3, 1e5), stages: Stages::new(Some(100.0), None, Some(false)), order: Order::Llf, buffers: 1.0 };
    let (tree_model, ..) = validate(&params).unwrap();
    let out = tree(&params).unwrap();
    assert_eq!(out.n, 20);
    assert_relative_eq!(out.schedule.makespan, 304843.11267859343 * tree_model.scale.1, max_relative = 1e-9);
}

/// Without start-ups or communication only the buffers bind: the optimum
/// is A L for the least L with V <= sum_i p^i min(L, n D / p^(i-1)) ((11):
/// a chunk for layer i is at most D / p^(i-1); `water_level`). At
/// n_min beyond FULL_LP_HOPS hops the windowed answer stood 0.5 to 0.95
/// above its bound (h = 20: 60 s against 36.7 s); where the full LP is in
/// reach, it now goes on to it.
#[test]
fn free_messages_fill_the_tree_s_buffers_to_the_least_peak_load() {
    let (v, d, a) = (3.1e6, 1e4, 1e-3);
    for (h, order, buffers) in [(18.0, Order::Nlf, 1.0), (20.0, Order::Nlf, 1.0), (22.0, Order::Llf, 2.0)] {
        let params = TreeParams { p: 2.0, h, load: Load::new(0.0, 0.0, a, v), stages: Stages::new(Some(d), None, Some(false)), order, buffers };
        let out = tree(&params).unwrap();
        let n = out.n as f64;
        let carried = |l: f64| (1..=h as i32).map(|i| libm::pow(2.0, i as f64) * l.min(n * d / libm::pow(2.0, (i - 1) as f64))).sum::<f64>();
        assert_eq!(out.n, out.n_min);
        assert!(n * stage_hops(&layers(&validate(&params).unwrap().0)) as f64 > FULL_LP_HOPS as f64);
        assert_relative_eq!(out.schedule.makespan, a * crate::buffers::water_level(v, n * d, carried), max_relative = 1e-9);
    }
}

/// The paper's pruning of stages from the LP's basis (`solve_pruned`:
/// stages switched off from the last back) against cold solves: it ends on
/// a system whose every stage has load, with that system's raw LP optimum
/// solved cold, a schedule the checker passes, and a makespan no longer
/// than the raw LP's over all n stages (each stage it drops is empty in an
/// optimum, within 1e-9). Where ties leave the engine a choice it may end
/// elsewhere than the paper's procedure with a cold solve per system
/// (`stages::solve`): on 300 trees of the first test below, the same
/// answer on 297 and a shorter one on 3; on 300 of the second, where
/// start-ups dominate, the same on 165, shorter on 109, longer on 26.
/// The same holds where the simplex starts on the rows tight at the point
/// the interior point method ends on (`near_optimum`) or at the windowed
/// method's schedule (`near_schedule`), each given at every size here.
fn assert_pruned_from_the_basis(params: &TreeParams) {
    let (tree_model, n, _) = validate(params).unwrap();
    let all = layers(&tree_model);
    let raw = stages::solve(&tree_model, n, Prune::Raw).unwrap();
    let full_lp = proof::FullLp::new(&tree_model, &all, n).unwrap();
    for near in [None, full_lp.near_optimum(&tree_model, &mut LpSize::NONE.clone()), near_window(&tree_model, n, &full_lp)] {
        let warm = stages::solve_pruned(&tree_model, &all, n, LpSize::NONE, near).unwrap();
        let left = warm.chunks.len();
        assert_eq!(stages::loaded(&warm.chunks, all.len(), tree_model.scale.0).1, left);
        let cold = stages::solve(&tree_model, left, Prune::Raw).unwrap();
        let timed_warm = timed(tree_model.scale.1, warm).unwrap();
        assert_is_the_full_lps(&tree_model, &timed_warm, cold.makespan);
        assert!(timed_warm.makespan <= raw.makespan * (1.0 + 1e-9 * (1 + n - left) as f64), "{} against the raw LP's {}", timed_warm.makespan, raw.makespan);
    }
}

/// The point of the windowed method's schedule over n stages (its first
/// window, unproven or not), where it has one: where `solve_once` starts
/// pruning.
fn near_window(tree_model: &Tree, n: usize, full_lp: &proof::FullLp) -> Option<(Vec<f64>, f64)> {
    if n < MIN_WINDOWED {
        return None;
    }
    let (solved, _) = windows::windowed(tree_model, &layers(tree_model), n, false, 1, Some(full_lp)).unwrap();
    Some(full_lp.near_schedule(tree_model, &solved.chunks))
}

/// A tree of 10 layers over 14 stages, pruned as the paper does from the
/// point the interior point method ends on and from the windowed method's
/// schedule (`solve_once`, which takes the second): the simplex starts on
/// a part of the rows, the relaxation's answer with the rows it breaks
/// added is the whole LP's, and pruning ends where it ends from all of
/// them.
#[test]
fn pruning_a_large_tree_starts_from_the_rows_found_tight() {
    let params = TreeParams {
        p: 2.0, h: 10.0, load: Load::new(1e-4, 1e-6, 1e-3, 1e5),
        stages: Stages::new(Some(1e4), Some(14.0), Some(true)), order: Order::Nlf, buffers: 2.0,
    };
    let (tree_model, n, _) = validate(&params).unwrap();
    let all = layers(&tree_model);
    let full_lp = proof::FullLp::new(&tree_model, &all, n).unwrap();
    let cold = stages::solve_pruned(&tree_model, &all, n, LpSize::NONE, None).unwrap();
    let ((lp, ..), on) = tree_model.switchable(&all, n).unwrap();
    let whole = crate::lp::solve(&crate::lp::Microlp, &lp, "test").unwrap();
    for near in [full_lp.near_optimum(&tree_model, &mut LpSize::NONE.clone()), near_window(&tree_model, n, &full_lp)] {
        let (x, slack) = near.unwrap();
        // The LP as printed, whose point x is, is the switchable one's first variables.
        assert_eq!(x.len() + on.len(), lp.names.len());
        let mut at = x.clone();
        at.resize(lp.names.len(), 1.0);
        let (mut warm, first) = crate::lp::Warm::relaxed(lp.clone(), Some((&at, slack)), "test").unwrap();
        let started = warm.model().rows.len();
        assert!(started < lp.rows.len() * 3 / 4, "{started} of {} rows", lp.rows.len());
        assert!(first.objective <= whole.objective * (1.0 + 1e-12));
        let settled = warm.settled(first, "test").unwrap();
        crate::lp::verify(&lp, &settled).unwrap();
        assert_relative_eq!(settled.objective, whole.objective, max_relative = 1e-9);
        let warm = stages::solve_pruned(&tree_model, &all, n, LpSize::NONE, Some((x, slack))).unwrap();
        assert_eq!(warm.chunks.len(), cold.chunks.len());
        assert_relative_eq!(warm.makespan, cold.makespan, max_relative = 1e-9);
    }
    let out = tree(&params).unwrap();
    assert_eq!(out.n, cold.chunks.len());
    assert_relative_eq!(out.schedule.makespan, cold.makespan, max_relative = 1e-9);
}

proptest! {
    #![proptest_config(crate::cases(60))]
    /// `assert_pruned_from_the_basis` on trees of all kinds.
    #[test]
    fn pruning_from_the_basis_ends_on_a_system_solved_exactly(p in 1u8..3, h in 2usize..5, n in 2usize..12, s in 1e-5..1e-5 + 1e-2, c in 0.0..1e-3, a in 1e-4..1e-4 + 1e-2, v in 1e2..1e2 + 1e5, room in prop::option::of(1.0..3.0), llf in any::<bool>(), two_buffers: bool) {
        assert_pruned_from_the_basis(&raw_tree(p, h, n, (s, c, a, v), room, llf, two_buffers));
    }

    /// And where start-ups dominate, so that optima leave stages empty
    /// (most of these drop some).
    #[test]
    fn start_up_dominated_trees_are_pruned_from_the_basis(p in 1u8..3, h in 2usize..5, n in 4usize..12, s in 1e-3..1e-2, a in 1e-4..1e-3, v in 1e2..1e3, room in prop::option::of(2.0..4.0), llf in any::<bool>(), two_buffers: bool) {
        assert_pruned_from_the_basis(&raw_tree(p, h, n, (s, 1e-6, a, v), room, llf, two_buffers));
    }
}

/// Without start-ups an empty message costs nothing: pruning cannot
/// shorten the schedule, and the request pruned as the paper does gets the
/// raw LP's answer over every stage, saying which got no load and why.
#[test]
fn without_start_ups_pruning_keeps_every_stage() {
    let with = |prune| TreeParams { p: 2.0, h: 3.0, load: Load::new(0.0, 2.28e-8, 2.32e-5, 28261.0), order: Order::Llf, buffers: 1.0, stages: Stages::new(Some(977.5), Some(20.0), Some(prune)) };
    let (raw, pruned) = (tree(&with(false)).unwrap(), tree(&with(true)).unwrap());
    assert_eq!((pruned.n_min, pruned.n), (5, 20));
    assert_eq!(pruned.schedule.makespan, raw.schedule.makespan);
    assert!(pruned.warnings.iter().any(|w| w.contains("got no load and were kept")), "{:?}", pruned.warnings);
    assert!(!raw.warnings.iter().any(|w| w.contains("were kept")));
}

/// Why no request is refused before its solve for the size of its first
/// LP (the plan's `solved_variables`): a tree's (the full LP below
/// MIN_WINDOWED stages, else a window of four stages) is at most that of
/// four stages of the deepest tree, within the engine; the other models'
/// are reduced or none.
#[test]
fn the_first_lp_of_every_tree_is_within_the_engine() {
    let deepest: Vec<usize> = (0..crate::buffers::MAX_H).collect();
    let first = lp_variables(&deepest, MIN_WINDOWED - 1);
    assert_eq!(first, 21_001);
    assert!(first <= lp::MAX_VARIABLES, "{first}");
}

/// 000 Fig. 13(b)'s D = 1, V = 31,622.8 (h = 10, n = n_min = 1,582, one
/// buffer, LLF): its first window, 1 + 1 free stages about a full middle,
/// solved from its earliest point reaches the optimum it reaches from the
/// slack basis in under a third of the dual simplex iterations (113 and 356).
#[test]
fn a_window_starts_where_its_start_times_are_earliest() {
    let params = TreeParams { p: 2.0, h: 10.0, load: Load::new(1e-3, 1e-6, 1e-3, 31_622.8), stages: Stages::new(Some(1.0), None, None), order: Order::Llf, buffers: 1.0 };
    let (tree, n, n_min) = validate(&params).unwrap();
    assert_eq!((n, n_min), (1582, 1582));
    let all = layers(&tree);
    let window = rows::Period { at: 1, skip: (n - 4) as f64, full: true };
    let rows::TreeLp::<Model> { lp, .. } = tree.build(&all, 4, rows::Form::Periodic(window));
    let cold = lp::solve(&lp::Auto, &lp, "window").unwrap();
    let near = windows::solve_window(&lp, "window").unwrap();
    assert_relative_eq!(near.objective, cold.objective, max_relative = 1e-12);
    assert!(3 * near.iterations < cold.iterations, "{} iterations from the earliest point, {} cold", near.iterations, cold.iterations);
}
