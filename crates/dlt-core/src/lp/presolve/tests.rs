//! Presolve against the engine alone: the same optimum on random LPs rich
//! in what the rules remove, and the LPs it must dissolve entirely.

use super::super::{solve, Engine, Limits, Microlp};
use super::*;
use crate::buffers::{star_lp, StarParams, Stages};

/// A random feasible, bounded LP rich in what presolve removes: fixed
/// columns, singleton rows, doubleton equations, free columns, and
/// rows tight at a bound-attaining point (forcing rows).
fn random_lp(rnd: &mut impl FnMut() -> f64) -> Model {
    let mut m = Model::default();
    let n = 2 + (rnd() * 10.0) as usize;
    let mut point = Vec::new();
    for j in 0..n {
        let (lo, hi) = match (rnd() * 5.0) as usize {
            0 => (f64::NEG_INFINITY, f64::INFINITY),
            1 => (0.5, 0.5),
            2 => (0.0, f64::INFINITY),
            _ => (-1.0 + rnd(), 1.0 + rnd()),
        };
        // A point at a bound where one is finite, so that rows through
        // it can be forcing.
        point.push(if lo.is_finite() && rnd() < 0.5 { lo } else if hi.is_finite() { hi.min(lo.max(0.3)) } else { 0.3 });
        m.var(alloc::format!("x{j}"), lo, hi, rnd() * 2.0 - 0.5);
    }
    let rows = 1 + (rnd() * 10.0) as usize;
    for i in 0..rows {
        let len = 1 + (rnd() * 3.0) as usize;
        let mut terms: Vec<(Var, f64)> = (0..len).map(|_| (Var((rnd() * n as f64) as usize), if rnd() < 0.5 { -1.0 - rnd() } else { 1.0 + rnd() })).collect();
        terms.sort_by_key(|t| t.0);
        terms.dedup_by_key(|t| t.0);
        let at: f64 = terms.iter().map(|&(v, a)| a * point[v.0]).sum();
        let (sense, slack) = match (rnd() * 3.0) as usize {
            0 => (Sense::Eq, 0.0),
            1 => (Sense::Le, if rnd() < 0.5 { 0.0 } else { rnd() }),
            _ => (Sense::Ge, if rnd() < 0.5 { 0.0 } else { -rnd() }),
        };
        m.row(alloc::format!("r{i}"), terms, sense, at + slack);
    }
    // Bounded: every column within [-10, 10] by rows of its own.
    for j in 0..n {
        m.row(alloc::format!("box{j}"), vec![(Var(j), 1.0)], Sense::Le, 10.0);
        m.row(alloc::format!("xob{j}"), vec![(Var(j), 1.0)], Sense::Ge, -10.0);
    }
    m
}

#[test]
fn same_optimum_with_and_without_presolve() {
    let mut rnd = crate::uniform(41);
    let mut reduced_some = 0;
    for case in 0..3000 {
        let lp = random_lp(&mut rnd);
        let plain = Microlp.solve(&lp, Limits::default()).unwrap_or_else(|f| panic!("case {case}: {f:?}"));
        let with = solve(&Microlp, &lp, Limits::default(), "random").unwrap_or_else(|e| panic!("case {case}: {e:?}\n{lp:?}"));
        let scale = plain.objective.abs().max(1.0);
        assert!((with.objective - plain.objective).abs() <= 1e-9 * scale, "case {case}: {} with presolve, {} without\n{lp:?}", with.objective, plain.objective);
        reduced_some += (presolve(&lp).unwrap().model.names.len() < lp.names.len()) as usize;
    }
    assert!(reduced_some > 1000, "presolve removed columns in only {reduced_some} LPs");
}

#[test]
fn infeasible_bounds_are_found() {
    let mut m = Model::default();
    let x = m.var("x", 0.0, 1.0, 1.0);
    let y = m.var("y", 0.0, 1.0, 1.0);
    m.row("sum", vec![(x, 1.0), (y, 1.0)], Sense::Ge, 3.0);
    assert_eq!(presolve(&m).err(), Some(Failure::Infeasible));
}

/// The case: with n = n_min and m n D = V the load row forces
/// every chunk to D, and the chains then fix the rest, as in HiGHS.
#[test]
fn star_at_full_buffers_needs_no_engine_iteration() {
    for (m, n) in [(10.0, 100.0), (7.0, 13.0)] {
        let v = 1e6;
        let params = StarParams { m, load: crate::costs::Load::new(1e-3, 1e-6, 1e-3, v), stages: Stages::new(Some(v / (m * n)), None, Some(false)) };
        let (lp, _) = star_lp(&params).unwrap();
        assert!(presolve(&lp).unwrap().model.names.is_empty());
        assert_eq!(solve(&Microlp, &lp, Limits::default(), "star").unwrap().iterations, 0);
    }
}
