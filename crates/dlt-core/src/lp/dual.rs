//! Weak duality: any multipliers of an LP's rows give a lower bound on its
//! optimum. What proves a solution found by structure optimal, without an
//! engine: the bound is computed here from the model as written, so a
//! wrong choice of multipliers can only weaken it, never make it wrong.

use super::{Rows, Sense};
use alloc::vec::Vec;

/// The Lagrangian bound of `model` (minimise c.x) at multipliers `pi`, one
/// per row: min over the box of c.x - sum_r pi_r (a_r.x - b_r). A Ge row's
/// multiplier counts only where >= 0, a Le row's where <= 0, an Eq row's
/// with either sign. `upper(j)` replaces an infinite upper bound of
/// variable j by one that every optimum satisfies (the bound is then a
/// bound of the optimum, not of the whole LP); without one, a negative
/// reduced cost there makes the bound -infinity.
pub fn lagrangian_bound(model: &dyn Rows, pi: &[f64], upper: impl Fn(usize) -> f64) -> f64 {
    bound_with(model, pi, &reduced_costs(model, pi, None), &upper)
}

/// The Lagrangian bound at `pi` whose reduced costs are `reduced`.
fn bound_with(model: &dyn Rows, pi: &[f64], reduced: &[f64], upper: &dyn Fn(usize) -> f64) -> f64 {
    let mut bound: f64 = pi.iter().enumerate().map(|(r, &p)| {
        let row = model.row_ref(r);
        counted(row.sense, p) * row.rhs
    }).sum();
    for (j, (&d, &(lo, hi))) in reduced.iter().zip(model.bounds()).enumerate() {
        let hi = if hi.is_finite() { hi } else { upper(j) };
        bound += if d >= 0.0 { d * lo } else { d * hi };
    }
    if bound.is_nan() { f64::NEG_INFINITY } else { bound }
}

/// The Lagrangian bound at `pi` with the multiplier of load row `row` set
/// at its best for the others (`best_multiplier`).
pub fn bound_at_best(model: &dyn Rows, pi: Vec<f64>, row: usize, upper: impl Fn(usize) -> f64) -> f64 {
    at_best(model, pi, row, &upper)
}

/// `bound_at_best` compiled once for every caller's `upper`.
fn at_best(model: &dyn Rows, mut pi: Vec<f64>, row: usize, upper: &dyn Fn(usize) -> f64) -> f64 {
    // One pass over the rows for both: the reduced costs without the row,
    // then its own terms at the multiplier found (000 Fig. 13(b)'s proofs
    // read 261,012 rows, the interior point method's each iteration).
    let mut reduced = reduced_costs(model, &pi, Some(row));
    pi[row] = best_multiplier(model, &reduced, row, upper);
    let target = model.row_ref(row);
    let p = counted(target.sense, pi[row]);
    for &(v, a) in target.terms {
        reduced[v.0] -= p * a;
    }
    bound_with(model, &pi, &reduced, upper)
}

/// A row's multiplier as the bound counts it: a Ge row's only where >= 0,
/// a Le row's only where <= 0.
fn counted(sense: Sense, p: f64) -> f64 {
    match sense {
        Sense::Ge => p.max(0.0),
        Sense::Le => p.min(0.0),
        Sense::Eq => p,
    }
}

/// c - A' pi, the multipliers as counted, leaving out row `skip`.
fn reduced_costs(model: &dyn Rows, pi: &[f64], skip: Option<usize>) -> Vec<f64> {
    let mut reduced = model.objective().to_vec();
    for (r, &p) in pi.iter().enumerate() {
        // Most multipliers of a path's bound are 0 (its rows only).
        if Some(r) == skip || p == 0.0 {
            continue;
        }
        let row = model.row_ref(r);
        let p = counted(row.sense, p);
        if p != 0.0 {
            for &(v, a) in row.terms {
                reduced[v.0] -= p * a;
            }
        }
    }
    reduced
}

/// The multiplier of Eq row `row` that maximises the bound with the other
/// multipliers fixed (their reduced costs `reduced`), where the row's
/// variables lie in [0, hi] with positive coefficients (a load row): the
/// bound is then concave in it, rising while the row's right side exceeds
/// what the variables with negative reduced cost hold at their upper
/// bounds, so the best value is the reduced-cost ratio at which, filled
/// cheapest first, they reach it (a fractional knapsack). 0 where the row
/// is not of that form.
fn best_multiplier(model: &dyn Rows, reduced: &[f64], row: usize, upper: &dyn Fn(usize) -> f64) -> f64 {
    let (target, bounds) = (model.row_ref(row), model.bounds());
    let mut items = Vec::with_capacity(target.terms.len());
    for &(v, a) in target.terms {
        let (lo, hi) = bounds[v.0];
        let hi = if hi.is_finite() { hi } else { upper(v.0) };
        if a <= 0.0 || lo != 0.0 || !hi.is_finite() {
            return 0.0;
        }
        items.push((reduced[v.0] / a, a * hi));
    }
    crate::sort::sort_by(&mut items, |x, y| x.0.total_cmp(&y.0));
    let mut held = 0.0;
    for (ratio, holds) in items {
        held += holds;
        if held >= target.rhs {
            return ratio;
        }
    }
    0.0
}

#[cfg(test)]
mod tests {
    use super::super::{Model, Sense};
    use super::*;
    use alloc::vec;

    /// min x + y s.t. x + 2y >= 2, x, y >= 0: optimum 1 at (0, 1); the
    /// multiplier 1/2 proves it, any other gives less.
    #[test]
    fn bound_meets_the_optimum_at_the_optimal_multiplier() {
        let mut m = Model::default();
        let x = m.var("x", 0.0, f64::INFINITY, 1.0);
        let y = m.var("y", 0.0, f64::INFINITY, 1.0);
        m.row("r", vec![(x, 1.0), (y, 2.0)], Sense::Ge, 2.0);
        let inf = |_| f64::INFINITY;
        assert_eq!(lagrangian_bound(&m, &[0.5], inf), 1.0);
        assert!(lagrangian_bound(&m, &[0.25], inf) < 1.0);
        // Past 1/2, x's reduced cost is negative and x unbounded.
        assert_eq!(lagrangian_bound(&m, &[0.75], inf), f64::NEG_INFINITY);
        // A Ge row's negative multiplier counts as 0.
        assert_eq!(lagrangian_bound(&m, &[-1.0], inf), 0.0);
    }
}
