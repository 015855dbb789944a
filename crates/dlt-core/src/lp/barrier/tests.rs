//! The interior point method against microlp's optimum: its form, its
//! directions refined, its iterates closing in from both sides.

use super::super::{dual, Engine, Microlp, Model, Sense};
use super::normal::{Columns, Normal};
use super::{form, interior, refine, times, times_transposed, Form, Look, DELTA};
use alloc::vec;
use alloc::vec::Vec;

/// One refinement step takes the factor's answer, biased by DELTA,
/// most of the way to the solution of A Theta A' dy = rhs itself:
/// with theta near 1e-6 (variables near their bounds, as at the end of
/// a run) the bias is a per cent of dy, and one step leaves a
/// hundredth of it.
#[test]
fn refinement_takes_out_most_of_deltas_bias() {
    let a = Columns { rows: 3, start: vec![0, 2, 4, 6, 7], index: vec![0, 1, 1, 2, 0, 2, 1], value: vec![1.0, -1.0, 2.0, 1.0, 1.0, 3.0, 1.0] };
    let theta = [1e-6, 2e-6, 5e-7, 1e-6];
    let rhs = [1e-6, -2e-6, 3e-6];
    let mut normal = Normal::new(&a);
    normal.factor(&a, &theta, DELTA);
    let residual = |dy: &[f64]| {
        let (mut t, mut r) = (vec![0.0; theta.len()], vec![0.0; rhs.len()]);
        times_transposed(&a, dy, &mut t);
        t.iter_mut().zip(&theta).for_each(|(t, th)| *t *= th);
        times(&a, &t, &mut r);
        r.iter().zip(&rhs).map(|(r, b)| (b - r).abs()).fold(0.0, f64::max)
    };
    let mut plain: Vec<f64> = rhs.to_vec();
    normal.solve(&mut plain);
    let mut refined = plain.clone();
    refine(&a, &theta, &mut normal, &rhs, &mut refined, (&mut vec![0.0; theta.len()], &mut vec![0.0; rhs.len()]));
    let (before, after) = (residual(&plain), residual(&refined));
    assert!(before > 1e-3 * 3e-6, "no bias to take out: {before}");
    assert!(after < 0.05 * before, "{before} -> {after}");
}

/// The method on `lp` for at most 60 iterations, `watch` shown each
/// iterate, until its objective is within 1e-10 of its multipliers'
/// Lagrangian bound: the iterations, the last objective and bound.
fn closing_in(lp: &Model, mut watch: impl FnMut(&[f64])) -> (u64, f64, f64) {
    let (mut objective, mut bound) = (f64::INFINITY, f64::NEG_INFINITY);
    let iterations = interior(lp, None, 60, |values, pi| {
        watch(values);
        objective = lp.cost(values);
        bound = dual::lagrangian_bound(lp, pi, |_| 100.0);
        if objective - bound < 1e-10 {
            Look::Stop
        } else {
            Look::Go
        }
    });
    (iterations, objective, bound)
}

/// A small LP with every kind of row, an upper bound and a lower bound
/// off 0: the iterates' objective and their multipliers' Lagrangian
/// bound both close in on microlp's optimum.
#[test]
fn iterates_close_in_on_the_optimum_from_both_sides() {
    let mut lp = Model::default();
    let x = lp.var("x", 1.0, 4.0, -1.0);
    let y = lp.var("y", 0.0, f64::INFINITY, -2.0);
    let z = lp.var("z", 0.0, f64::INFINITY, 0.5);
    lp.row("le", vec![(x, 1.0), (y, 1.0)], Sense::Le, 6.0);
    lp.row("ge", vec![(y, 1.0), (z, -1.0)], Sense::Ge, -1.0);
    lp.row("eq", vec![(x, 1.0), (y, -1.0), (z, 1.0)], Sense::Eq, 1.0);
    let optimum = Microlp.solve(&lp).unwrap().objective;
    let (iterations, objective, bound) = closing_in(&lp, |_| {});
    assert!(iterations < 60, "{iterations} iterations, gap {}", objective - bound);
    assert!(bound <= optimum + 1e-12 && (optimum - bound).abs() < 1e-9, "{bound} against {optimum}");
    assert!((objective - optimum).abs() < 1e-8, "{objective} against {optimum}");
}

/// Three variables (one boxed off 0) under 60 rows of both senses,
/// each over all three: the normal equations over the rows are a dense
/// 60 x 60 block, over the columns 4 x 4, so the method runs on the
/// dual; its iterates, shown as the primal's, close in on microlp's
/// optimum from both sides, the last within 1e-9 of every row.
#[test]
fn an_lp_of_many_rows_is_solved_on_its_dual() {
    let mut lp = Model::default();
    let x = lp.var("x", 1.0, 4.0, 1.0);
    let y = lp.var("y", 0.0, f64::INFINITY, 2.0);
    let z = lp.var("z", 0.0, f64::INFINITY, 1.5);
    for k in 0..60 {
        let t = k as f64 / 59.0;
        let terms = vec![(x, 1.0 + t), (y, 2.0 - t), (z, 0.5 + t * t)];
        if k % 3 == 2 {
            lp.row("le", terms, Sense::Le, 20.0 + t);
        } else {
            lp.row("ge", terms, Sense::Ge, 3.0 + 2.0 * t);
        }
    }
    assert!(matches!(form(&lp, None), Some(Form::Dual(..))));
    let optimum = Microlp.solve(&lp).unwrap().objective;
    let mut last = Vec::new();
    let (iterations, objective, bound) = closing_in(&lp, |values| last = values.to_vec());
    assert!(iterations < 60, "{iterations} iterations, gap {}", objective - bound);
    assert!(bound <= optimum + 1e-12 && (optimum - bound).abs() < 1e-9, "{bound} against {optimum}");
    assert!((objective - optimum).abs() < 1e-8, "{objective} against {optimum}");
    for row in &lp.rows {
        let at: f64 = row.terms.iter().map(|&(v, a)| a * last[v.0]).sum();
        let off = match row.sense {
            Sense::Ge => row.rhs - at,
            Sense::Le => at - row.rhs,
            Sense::Eq => (at - row.rhs).abs(),
        };
        assert!(off < 1e-9, "{} off by {off}", row.name);
    }
}

/// An equation's multiplier would be a free variable of the dual: the
/// method keeps to the model unless given it as inequalities.
#[test]
fn an_lp_with_an_equation_is_dualised_only_as_inequalities() {
    let mut lp = Model::default();
    let x = lp.var("x", 0.0, f64::INFINITY, 1.0);
    let y = lp.var("y", 0.0, f64::INFINITY, 1.0);
    for k in 0..40 {
        lp.row("ge", vec![(x, 1.0 + k as f64), (y, 1.0)], Sense::Ge, 1.0);
    }
    lp.row("eq", vec![(x, 1.0), (y, 1.0)], Sense::Eq, 2.0);
    assert!(matches!(form(&lp, None), Some(Form::Primal(..))));
    let mut relaxed = lp.clone();
    relaxed.rows.last_mut().unwrap().sense = Sense::Ge;
    assert!(matches!(form(&lp, Some(&relaxed)), Some(Form::Dual(..))));
}

/// A fixed variable is a constant: the method's optimum is microlp's,
/// and the variable is shown at its bound in every iterate.
#[test]
fn a_fixed_variable_is_a_constant() {
    let mut lp = Model::default();
    let x = lp.var("x", 0.0, 4.0, 1.0);
    let y = lp.var("y", 0.0, f64::INFINITY, 2.0);
    let fixed = lp.var("fixed", 1.5, 1.5, 0.0);
    lp.row("ge", vec![(x, 1.0), (y, 1.0), (fixed, 2.0)], Sense::Ge, 8.0);
    lp.row("le", vec![(x, 1.0), (fixed, -1.0)], Sense::Le, 1.0);
    let optimum = Microlp.solve(&lp).unwrap().objective;
    let mut shown = true;
    let (iterations, objective, bound) = closing_in(&lp, |values| shown &= values[fixed.0] == 1.5);
    assert!(shown, "the fixed variable left its bound");
    assert!(iterations < 60, "{iterations} iterations, gap {}", objective - bound);
    assert!((optimum - 7.5).abs() < 1e-12, "{optimum}");
    assert!((objective - optimum).abs() < 1e-8 && (optimum - bound).abs() < 1e-9, "{objective}, {bound} against {optimum}");
}

/// A variable with no lower bound is not the method's: no iterate.
#[test]
fn a_free_variable_is_refused() {
    let mut lp = Model::default();
    let x = lp.var("x", f64::NEG_INFINITY, 1.0, 1.0);
    lp.row("r", vec![(x, 1.0)], Sense::Le, 1.0);
    assert_eq!(interior(&lp, None, 10, |_, _| panic!("an iterate")), 0);
}
