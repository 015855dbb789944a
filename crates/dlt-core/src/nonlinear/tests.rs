//! Small cases worked by hand from the paper's equations; every schedule
//! has passed the checker inside `solve`.

use super::*;
use crate::error::Code;
use crate::schedule::Kind;
use alloc::vec;
use approx::{assert_relative_eq, relative_eq};
use proptest::prelude::*;

#[allow(clippy::too_many_arguments)]
fn params(algorithm: Algorithm, l: f64, gamma: f64, a0: f64, a: &[f64], g: &[f64], rho: Option<f64>, theta: (f64, f64)) -> Params {
    Params {
        algorithm,
        l,
        gamma,
        a0,
        a: a.to_vec(),
        g: g.to_vec(),
        rho,
        theta_cp: Some(theta.0),
        theta_cm: Some(theta.1),
    }
}

#[test]
fn one_child_by_hand() {
    // L = 10, gamma = 2, A0 = A1 = G1 = 1. Eq. (3): alpha_1 = alpha_0 100/110,
    // alpha_0 + alpha_1 = 1, so alpha_0 = 11/21, alpha_1 = 10/21 and
    // T = alpha_0 L^2 A0 = 1100/21 (Theorem 3). P1: S_1 (100/21 time units),
    // then S_1 x S_1 (10000/441) while S \ S_1 arrives (110/21), then
    // S_1 x (S \ S_1) (11000/441): 100/21 + 21000/441 = 1100/21.
    let out = solve(&params(Algorithm::S, 10.0, 2.0, 1.0, &[1.0], &[1.0], None, (0.0, 0.0))).unwrap();
    assert_relative_eq!(out.alpha[0], 11.0 / 21.0, max_relative = 1e-14);
    assert_relative_eq!(out.alpha[1], 10.0 / 21.0, max_relative = 1e-14);
    assert!(relative_eq!(out.schedule.makespan, 1100.0 / 21.0, max_relative = 1e-13), "{}", out.schedule.makespan);
    assert_relative_eq!(out.theorem, 1100.0 / 21.0, max_relative = 1e-13);
    assert_relative_eq!(out.speedup, 21.0 / 11.0, max_relative = 1e-13);
    assert_eq!(out.messages[1].len(), 2);
    assert_relative_eq!(out.messages[1][1], 11.0 / 21.0, max_relative = 1e-13);
    // Theorem 3's homogeneous speedup 1 + m L beta / (L beta + 1).
    assert_relative_eq!(out.speedup, 1.0 + 10.0 / 11.0, max_relative = 1e-13);

    // Start-ups theta_cp = 0.5, theta_cm = 0.25: two messages, so Theorem 9
    // adds 0.5 + 0.25 + (2 - 1) 0.5 = 1.25; the same phases, timed by hand.
    let out = solve(&params(Algorithm::S, 10.0, 2.0, 1.0, &[1.0], &[1.0], None, (0.5, 0.25))).unwrap();
    let a1 = 10.0 / 21.0;
    let by_hand = (0.25 + 10.0 * a1) + (0.5 + 100.0 * a1 * a1) + (0.5 + 100.0 * a1 * (1.0 - a1));
    assert_relative_eq!(out.schedule.makespan, by_hand, max_relative = 1e-13);
    assert_relative_eq!(by_hand, 1100.0 / 21.0 + 1.25, max_relative = 1e-13);
    assert_relative_eq!(out.theorem, by_hand, max_relative = 1e-13);
    assert_relative_eq!(out.speedup, (100.0 + 0.5) / by_hand, max_relative = 1e-13);
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
}

#[test]
fn pe_eliminates_a_hopeless_link() {
    // P2's link is so slow (beta = 1e-3) that r_2 = alpha_2 L beta_2 is far
    // below 1 - alpha_2: it could never receive the data set (Lemma 2).
    let out = solve(&params(Algorithm::S, 10.0, 2.0, 1.0, &[1.0, 1.0], &[1.0, 1000.0], None, (0.0, 0.0))).unwrap();
    assert_eq!(out.eliminated, vec![2]);
    assert_eq!(out.used, 1);
    assert_eq!(out.loads[2], 0.0);
    assert!(out.chunks[2].is_empty() && out.messages[2].is_empty());
    assert!(out.warnings.iter().any(|w| w.contains("1 processor eliminated by PE")), "{:?}", out.warnings);
    // The survivor's distribution is that of the one-child tree.
    assert_relative_eq!(out.schedule.makespan, 1100.0 / 21.0, max_relative = 1e-13);
    assert!(!out.schedule.intervals.iter().any(|i| i.proc == 2));
}

#[test]
fn m_with_one_installment_is_s() {
    let a = [1.2, 1.5, 2.0, 7.0];
    let g = [0.1, 0.2, 2.0, 9.0];
    for gamma in [2.0, 3.0, 4.0] {
        let s = solve(&params(Algorithm::S, 40.0, gamma, 1.0, &a, &g, None, (0.3, 0.2))).unwrap();
        let m = solve(&params(Algorithm::M, 40.0, gamma, 1.0, &a, &g, Some(1.0), (0.3, 0.2))).unwrap();
        assert_eq!(m.algorithm, Algorithm::M);
        assert_eq!(Output { algorithm: Algorithm::S, ..m }, s);
    }
}

#[test]
fn theorem_6_speedup_without_start_ups() {
    // Homogeneous: Speedup = 1 + rho m L^(g-1) beta / (rho L^(g-1) beta + 1).
    let (l, gamma, a, g, m) = (6.0, 3.0, 0.5, 0.05, 5);
    let beta: f64 = a / g;
    for rho in [1.0, 2.0, 3.0] {
        let out = solve(&params(Algorithm::M, l, gamma, a, &[a; 5], &[g; 5], Some(rho), (0.0, 0.0))).unwrap();
        assert_eq!(out.used, m, "{:?}", out.warnings);
        let b = libm::pow(l, gamma - 1.0) * beta;
        let want = 1.0 + rho * m as f64 * b / (rho * b + 1.0);
        assert!(relative_eq!(out.speedup, want, max_relative = 1e-12), "rho {rho}: {} vs {want}", out.speedup);
        assert_relative_eq!(out.schedule.makespan, out.theorem, max_relative = 1e-12);
        let total: f64 = out.loads.iter().sum();
        assert_relative_eq!(total, 1.0, max_relative = 1e-12);
    }
}

#[test]
fn higher_orders_finish_together_at_theorem_4() {
    for gamma in [3.0, 5.0] {
        let out = solve(&params(Algorithm::S, 12.0, gamma, 2.0, &[1.0, 3.0, 0.5], &[0.5, 0.01, 2.0], None, (0.0, 0.0))).unwrap();
        assert!(out.eliminated.is_empty(), "{:?}", out.warnings);
        // Every processor ends at alpha_0 L^g A0 (all finish together).
        for p in 0..=3 {
            let end = out.schedule.intervals.iter().filter(|i| i.proc == p && i.kind == Kind::Compute).map(|i| i.end).fold(0.0, f64::max);
            assert!(relative_eq!(end, out.theorem, max_relative = 1e-12), "gamma {gamma} P{p}: {end} vs {}", out.theorem);
        }
    }
}

#[test]
fn transfers_carry_the_set_once_and_m_owns_rho_shares() {
    let out = solve(&params(Algorithm::M, 100.0, 2.0, 1.0, &[1.2, 1.5, 2.0], &[0.1, 0.2, 2.0], Some(3.0), (0.1, 0.1))).unwrap();
    for p in 1..=3 {
        let mine: Vec<&Transfer> = out.transfers.iter().filter(|t| t.to == p).collect();
        let elements: f64 = mine.iter().map(|t| t.elements).sum();
        let owned: f64 = mine.iter().map(|t| t.owned).sum();
        assert_relative_eq!(elements, 100.0, max_relative = 1e-12);
        assert_relative_eq!(owned, 3.0 * out.alpha[p] * 100.0, max_relative = 1e-12);
        assert_eq!(mine.len(), out.messages[p].len());
        for w in mine.windows(2) {
            assert!(w[1].start >= w[0].end - 1e-9);
        }
    }
}

#[test]
fn slow_start_ups_on_links_end_before_theorem_9() {
    // theta_cm > theta_cp: the last message to a child is shorter than the
    // phase it overlaps, so it costs less than theta_cm; Theorem 9 charges
    // the full max(theta_cp, theta_cm) and so bounds the schedule from above.
    let out = solve(&params(Algorithm::S, 100.0, 2.0, 1.0, &[1.2, 1.5, 2.0], &[0.1, 0.2, 2.0], None, (0.0, 5.0))).unwrap();
    assert!(out.schedule.makespan < out.theorem);
    assert!(out.theorem - out.schedule.makespan <= 5.0 + 1e-9);
    assert!(out.warnings.iter().any(|w| w.contains("Theorem 9 gives")), "{:?}", out.warnings);
    // theta_cp >= theta_cm: exactly Theorem 9.
    let out = solve(&params(Algorithm::S, 100.0, 2.0, 1.0, &[1.2, 1.5, 2.0], &[0.1, 0.2, 2.0], None, (5.0, 1.0))).unwrap();
    assert_relative_eq!(out.schedule.makespan, out.theorem, max_relative = 1e-12);
}

#[test]
fn classical_is_theorem_1() {
    // Homogeneous, communication negligible: Speedup = (m+1)^g / ((m+1)^g - m).
    let m = 4usize;
    for gamma in [2.0, 3.0] {
        let out = solve(&params(Algorithm::C, 1000.0, gamma, 1.0, &[1.0; 4], &[1e-9; 4], None, (0.0, 0.0))).unwrap();
        let k = libm::pow(m as f64 + 1.0, gamma);
        let t1 = libm::pow(1000.0, gamma) * (1.0 - m as f64 / k);
        assert_relative_eq!(out.theorem, t1, max_relative = 1e-12);
        assert_relative_eq!(out.schedule.makespan, t1, max_relative = 1e-9);
        assert_relative_eq!(out.speedup, k / (k - m as f64), max_relative = 1e-9);
        assert_relative_eq!(out.loads.iter().sum::<f64>(), 1.0, max_relative = 1e-12);
    }
    // Heterogeneous: alpha_i = alpha_0 (A0/A_i)^(1/g), so every child's block
    // (alpha_i L)^g A_i equals P0's (alpha_0 L)^g A0.
    let out = solve(&params(Algorithm::C, 50.0, 2.0, 1.0, &[2.0, 4.0], &[0.001, 0.001], None, (0.0, 0.0))).unwrap();
    let blocks: Vec<f64> = [1.0, 2.0, 4.0].iter().zip(&out.alpha).map(|(a, x)| a * (x * 50.0) * (x * 50.0)).collect();
    assert_relative_eq!(blocks[1], blocks[0], max_relative = 1e-12);
    assert_relative_eq!(blocks[2], blocks[0], max_relative = 1e-12);
    // Slow links: the schedule is longer than Theorem 1 and says why.
    let out = solve(&params(Algorithm::C, 50.0, 2.0, 1.0, &[2.0, 4.0], &[1.0, 50.0], None, (0.0, 0.0))).unwrap();
    assert!(out.warnings.iter().any(|w| w.contains("beta_i")));
}

#[test]
fn fon_stops_where_theorem_9_turns_up() {
    // Heterogeneous: FON's answer is no worse than its neighbours.
    let p = params(Algorithm::M, 500.0, 2.0, 0.05, &[0.05, 0.07, 0.04, 0.05], &[1.0, 1.5, 0.8, 1.0], None, (0.1, 0.1));
    let out = solve(&p).unwrap();
    let rho = out.installments;
    assert!(out.warnings.iter().any(|w| w.contains(&alloc::format!("FON (Table IV) chose rho = {rho},"))), "{:?}", out.warnings);
    let t = |r: usize| solve(&Params { rho: Some(r as f64), ..p.clone() }).map(|o| o.theorem);
    let here = t(rho).unwrap();
    assert_relative_eq!(here, out.theorem, max_relative = 1e-12);
    if let Ok(next) = t(rho + 1) {
        assert!(next >= here);
    }
    if rho > 1 {
        assert!(t(rho - 1).unwrap() > here);
    }
    // Homogeneous (Fig. 10's tree): FON searches within Lemma 10's range.
    let net = params(Algorithm::M, 1000.0, 2.0, 1.0, &[1.0; 15], &[1.0; 15], None, (0.1, 0.1));
    let out = solve(&net).unwrap();
    let b = bounds(&BoundsParams { a: 1.0, g: 1.0, gamma: 2.0, theta_cp: 0.1, theta_cm: 0.1, m: Some(15.0), rho: None, l: Sizes::One(1000.0) }).unwrap();
    let (Bound::One(Some(lo)), Bound::One(Some(hi))) = (b.lower, b.upper) else { panic!() };
    assert!((libm::floor(lo)..=libm::ceil(hi)).contains(&(out.installments as f64)), "rho {} outside [{lo}, {hi}]", out.installments);
}

/// Issue 12: FON goes past rho = 1000 where the paper's does, bounded by
/// the schedule's messages, not a cap on rho.
#[test]
fn fon_reaches_past_a_thousand_installments() {
    let p = params(Algorithm::M, 1e4, 2.0, 1.0, &[1.0; 5], &[1.0; 5], None, (1e-6, 1e-6));
    let out = solve(&p).unwrap();
    assert!(out.installments > 1000, "rho = {}", out.installments);
    let t = |r: usize| solve(&Params { rho: Some(r as f64), ..p.clone() }).map(|o| o.theorem);
    if let Ok(next) = t(out.installments + 1) {
        assert!(next >= out.theorem);
    }
}

#[test]
fn fon_keeps_the_schedule_drawable() {
    // No start-ups: T falls with rho until Lemma 2 fails, and Lemma 10's
    // floor(rho1) = 49 already needs ~358 messages for each of 300 children.
    let p = params(Algorithm::M, 1000.0, 2.0, 1.0, &[1.0; 300], &[0.02; 300], None, (0.0, 0.0));
    let out = solve(&p).unwrap();
    assert!(out.warnings.iter().any(|w| w.contains("FON stopped at rho")), "{:?}", out.warnings);
    let count: usize = out.messages.iter().map(|m| m.len()).sum();
    assert!(count <= MAX_MESSAGES);
    let more = solve(&Params { rho: Some(out.installments as f64 + 1.0), ..p }).unwrap_err();
    assert_eq!((more.code, more.field.as_str()), (Code::Infeasible, "rho"));
}

#[test]
fn too_many_messages_is_an_error_not_a_hang() {
    // 1000 children, 1000 installments, r close to 1: n_i* ~ 1/alpha_i ~ 1e6
    // messages per child.
    let p = params(Algorithm::M, 1000.0, 2.0, 1.0, &[1.0; 1000], &[1e-3; 1000], Some(1000.0), (0.0, 0.0));
    let e = solve(&p).unwrap_err();
    assert_eq!((e.code, e.field.as_str()), (Code::Infeasible, "rho"), "{e}");
    // Single installment, r = alpha L beta just below 1: ~1/alpha = 1001
    // messages for each of 1000 children.
    let p = params(Algorithm::S, 1000.0, 2.0, 1.0, &[1.0; 1000], &[1000.0 / 1001.0; 1000], None, (0.0, 0.0));
    let e = solve(&p).unwrap_err();
    assert_eq!(e.code, Code::Infeasible, "{e}");
    assert!(e.field.starts_with("G["), "{e}");
}

#[test]
fn bad_input_names_the_field() {
    let ok = params(Algorithm::M, 100.0, 2.0, 1.0, &[1.2, 1.5], &[0.1, 0.2], Some(2.0), (0.0, 0.0));
    let field = |p: Params| solve(&p).unwrap_err().field;
    assert_eq!(field(Params { gamma: 2.5, ..ok.clone() }), "gamma");
    assert_eq!(field(Params { gamma: 1.0, ..ok.clone() }), "gamma");
    assert_eq!(field(Params { l: 0.0, ..ok.clone() }), "L");
    assert_eq!(field(Params { l: 1e13, ..ok.clone() }), "L");
    assert_eq!(field(Params { l: f64::NAN, ..ok.clone() }), "L");
    assert_eq!(field(Params { a0: -1.0, ..ok.clone() }), "A0");
    assert_eq!(field(Params { a: vec![1.0, -1.0], ..ok.clone() }), "A[1]");
    assert_eq!(field(Params { g: vec![0.1], ..ok.clone() }), "G");
    assert_eq!(field(Params { g: vec![0.1, 0.0], ..ok.clone() }), "G[1]");
    assert_eq!(field(Params { a: vec![], g: vec![], ..ok.clone() }), "A");
    assert_eq!(field(Params { rho: Some(0.0), ..ok.clone() }), "rho");
    assert_eq!(field(Params { rho: Some((MAX_RHO + 1) as f64), ..ok.clone() }), "rho");
    assert_eq!(field(Params { algorithm: Algorithm::S, ..ok.clone() }), "rho");
    assert_eq!(field(Params { algorithm: Algorithm::C, ..ok.clone() }), "rho");
    assert_eq!(field(Params { theta_cm: Some(f64::INFINITY), ..ok.clone() }), "theta_cm");
    assert_eq!(field(Params { theta_cp: Some(-1.0), ..ok.clone() }), "theta_cp");
    assert_eq!(field(Params { l: 1e-40, a0: 1e-300, ..ok.clone() }), "L");
    let e = solve(&Params { gamma: 11.0, ..ok.clone() }).unwrap_err();
    assert!(e.message.contains("from 2 to 10"), "{}", e.message);
    assert!(solve(&ok).is_ok());
}

#[test]
fn extreme_but_valid_inputs_answer() {
    for (l, a, g) in [(1e12, 1e-15, 1e15), (1e-3, 1e15, 1e-15), (1e12, 1e15, 1e-15)] {
        for alg in [Algorithm::C, Algorithm::S, Algorithm::M] {
            let p = params(alg, l, 10.0, a, &[a, a * 2.0], &[g, g], None, (1e3, 1e3));
            match solve(&p) {
                Ok(out) => assert!(out.schedule.makespan.is_finite() && out.speedup.is_finite()),
                Err(e) => assert_ne!(e.code, Code::Internal, "{e}"),
            }
        }
    }
}

#[test]
fn bounds_lists_and_errors() {
    let base = BoundsParams { a: 1.0, g: 1.0, gamma: 2.0, theta_cp: 0.0, theta_cm: 0.0, m: Some(15.0), rho: None, l: Sizes::Many(vec![500.0, 1000.0]) };
    let out = bounds(&base).unwrap();
    // No start-ups: only rho1 is finite, rho1 = (L^2 - 1)/(16 L).
    let Some(Bound::Many(r1)) = &out.rho1 else { panic!() };
    assert_relative_eq!(r1[1].unwrap(), (1e6 - 1.0) / 16000.0, max_relative = 1e-14);
    assert_eq!(out.rho2, Some(Bound::Many(vec![None, None])));
    assert_eq!(out.upper, Bound::Many(vec![None, None]));
    assert!(out.m1.is_none());
    let field = |p: BoundsParams| bounds(&p).unwrap_err().field;
    assert_eq!(field(BoundsParams { rho: Some(3.0), ..base.clone() }), "rho");
    assert_eq!(field(BoundsParams { m: None, ..base.clone() }), "m");
    assert_eq!(field(BoundsParams { l: Sizes::Many(vec![500.0, -1.0]), ..base.clone() }), "L[1]");
    assert_eq!(field(BoundsParams { l: Sizes::Many(vec![]), ..base.clone() }), "L");
    assert_eq!(field(BoundsParams { gamma: 1.0, ..base.clone() }), "gamma");
    assert_eq!(field(BoundsParams { g: 0.0, ..base.clone() }), "G");
    // One L in, plain numbers out; the direct choice is a whole number >= 1.
    let out = bounds(&BoundsParams { m: None, rho: Some(3.0), theta_cp: 40.0, theta_cm: 40.0, a: 0.1, l: Sizes::One(500.0), ..base }).unwrap();
    let Bound::One(Some(d)) = out.direct else { panic!() };
    assert_eq!(d, libm::floor(d));
    assert!(d >= 1.0);
}

#[test]
fn response_has_the_contract_fields() {
    let out = solve(&params(Algorithm::M, 100.0, 2.0, 1.0, &[1.2, 1.5, 2.0], &[0.1, 0.2, 2.0], Some(2.0), (0.0, 0.0))).unwrap();
    let v = serde_json::to_value(&out).unwrap();
    for key in ["algorithm", "makespan", "loads", "chunks", "installments", "used", "speedup", "warnings", "schedule", "processors", "alpha", "first_term"] {
        assert!(v.get(key).is_some(), "no {key} in {v}");
    }
    assert_eq!(v["algorithm"], "M");
    assert_eq!(v["chunks"][1].as_array().unwrap().len(), 2);
}

#[test]
fn random_trees_pass_the_checker() {
    // A sweep over heterogeneous trees, the same on every run: every answer
    // has passed the checker inside solve; no input may produce an internal
    // error. Each child has A = 10^[-1, 1) and G = 10^[-2, 1); L = 10^[0, 4).
    let answered = core::cell::Cell::new(0);
    let children = prop::collection::vec((-1.0..1.0, -2.0..1.0), 1..9);
    let theta = (0.0..2.0, 0.0..2.0);
    let rho = prop::option::weighted(0.7, 1u8..7);
    proptest!(crate::cases(300), |(children in children, gamma in 2u8..5, l in 0.0..4.0, theta in theta, rho in rho)| {
        let a: Vec<f64> = children.iter().map(|&(a, _)| libm::pow(10.0, a)).collect();
        let g: Vec<f64> = children.iter().map(|&(_, g)| libm::pow(10.0, g)).collect();
        let (l, gamma, rho) = (libm::pow(10.0, l), f64::from(gamma), rho.map(f64::from));
        for (alg, rho) in [(Algorithm::C, None), (Algorithm::S, None), (Algorithm::M, rho)] {
            match solve(&params(alg, l, gamma, 1.0, &a, &g, rho, theta)) {
                Ok(out) => {
                    answered.set(answered.get() + 1);
                    assert!(out.schedule.makespan <= out.theorem * (1.0 + 1e-9) || alg == Algorithm::C);
                    assert_relative_eq!(out.loads.iter().sum::<f64>(), 1.0, max_relative = 1e-9);
                }
                Err(e) => assert_ne!(e.code, Code::Internal, "{e}"),
            }
        }
    });
    assert!(answered.get() > 800, "{}", answered.get());
}
