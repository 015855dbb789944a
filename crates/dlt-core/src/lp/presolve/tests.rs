//! Presolve against the engine alone: the same optimum on random LPs rich
//! in what the rules remove, and the LPs it must dissolve entirely.

use super::super::{solve, Engine, Microlp};
use super::*;
use approx::relative_eq;
use crate::buffers::{star_lp, StarParams, Stages};
use core::cell::Cell;
use proptest::prelude::*;

/// A random feasible, bounded LP rich in what presolve removes: fixed
/// columns, singleton rows, doubleton equations, free columns, and
/// rows tight at a bound-attaining point (forcing rows).
pub(in crate::lp) fn random_lp() -> impl Strategy<Value = Model> {
    // A column: its bounds, whether its point sits at a finite lower bound,
    // and its cost.
    let bounds = prop_oneof![
        1 => Just((f64::NEG_INFINITY, f64::INFINITY)),
        1 => Just((0.5, 0.5)),
        1 => Just((0.0, f64::INFINITY)),
        2 => (-1.0..0.0, 1.0..2.0),
    ];
    let column = (bounds, any::<bool>(), -0.5..1.5);
    // A row: 1-3 terms with coefficients of either sign and magnitude in
    // [1, 2), and a sense with its slack at the point (0 half the time for
    // inequalities, so that they can be forcing).
    let coefficient = (any::<bool>(), 1.0..2.0).prop_map(|(minus, x): (bool, f64)| if minus { -x } else { x });
    let sense = prop_oneof![
        Just((Sense::Eq, 0.0)),
        (Just(Sense::Le), prop_oneof![Just(0.0), 0.0..1.0]),
        (Just(Sense::Ge), prop_oneof![Just(0.0), (0.0..1.0).prop_map(|x: f64| -x)]),
    ];
    (2usize..12)
        .prop_flat_map(move |n| {
            let row = (prop::collection::vec((0..n, coefficient.clone()), 1..4), sense.clone());
            (prop::collection::vec(column.clone(), n), prop::collection::vec(row, 1..11))
        })
        .prop_map(|(columns, rows)| {
            let mut m = Model::default();
            let mut point = Vec::new();
            for (j, &((lo, hi), at_lo, cost)) in columns.iter().enumerate() {
                // A point at a bound where one is finite, so that rows
                // through it can be forcing.
                point.push(if lo.is_finite() && at_lo { lo } else if hi.is_finite() { hi.min(lo.max(0.3)) } else { 0.3 });
                m.var(alloc::format!("x{j}"), lo, hi, cost);
            }
            for (i, (terms, (sense, slack))) in rows.into_iter().enumerate() {
                let mut terms: Vec<(Var, f64)> = terms.into_iter().map(|(j, a)| (Var(j), a)).collect();
                terms.sort_by_key(|t| t.0);
                terms.dedup_by_key(|t| t.0);
                let at: f64 = terms.iter().map(|&(v, a)| a * point[v.0]).sum();
                m.row(alloc::format!("r{i}"), terms, sense, at + slack);
            }
            // Bounded: every column within [-10, 10] by rows of its own.
            for j in 0..columns.len() {
                m.row(alloc::format!("box{j}"), vec![(Var(j), 1.0)], Sense::Le, 10.0);
                m.row(alloc::format!("xob{j}"), vec![(Var(j), 1.0)], Sense::Ge, -10.0);
            }
            m
        })
}

#[test]
fn same_optimum_with_and_without_presolve() {
    let reduced_some = Cell::new(0);
    proptest!(crate::cases(3000), |(lp in random_lp())| {
        let plain = Microlp.solve(&lp).unwrap_or_else(|f| panic!("{f:?}"));
        let with = solve(&Microlp, &lp, "random").unwrap_or_else(|e| panic!("{e:?}\n{lp:?}"));
        // Relative to the objective, absolute below 1.
        assert!(relative_eq!(with.objective, plain.objective, epsilon = 1e-9, max_relative = 1e-9), "{} with presolve, {} without\n{lp:?}", with.objective, plain.objective);
        reduced_some.set(reduced_some.get() + (presolve(&lp).unwrap().model.names.len() < lp.names.len()) as usize);
    });
    assert!(reduced_some.get() > 1000, "presolve removed columns in only {} LPs", reduced_some.get());
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
        assert_eq!(solve(&Microlp, &lp, "star").unwrap().iterations, 0);
    }
}
