//! Weak duality: any multipliers of an LP's rows give a lower bound on its
//! optimum. What proves a solution found by structure optimal, without an
//! engine: the bound is computed here from the model as written, so a
//! wrong choice of multipliers can only weaken it, never make it wrong.

use super::{Model, Sense};
use alloc::vec;
use alloc::vec::Vec;

/// The Lagrangian bound of `model` (minimise c.x) at multipliers `pi`, one
/// per row: min over the box of c.x - sum_r pi_r (a_r.x - b_r). A Ge row's
/// multiplier counts only where >= 0, a Le row's where <= 0, an Eq row's
/// with either sign. `upper(j)` replaces an infinite upper bound of
/// variable j by one that every optimum satisfies (the bound is then a
/// bound of the optimum, not of the whole LP); without one, a negative
/// reduced cost there makes the bound -infinity.
pub fn lagrangian_bound(model: &Model, pi: &[f64], upper: impl Fn(usize) -> f64) -> f64 {
    let reduced = reduced_costs(model, pi, None);
    let mut bound: f64 = model.rows.iter().zip(pi).map(|(row, &p)| counted(row.sense, p) * row.rhs).sum();
    for (j, (&d, &(lo, hi))) in reduced.iter().zip(&model.bounds).enumerate() {
        let hi = if hi.is_finite() { hi } else { upper(j) };
        bound += if d >= 0.0 { d * lo } else { d * hi };
    }
    if bound.is_nan() { f64::NEG_INFINITY } else { bound }
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
fn reduced_costs(model: &Model, pi: &[f64], skip: Option<usize>) -> Vec<f64> {
    let mut reduced = model.objective.clone();
    for (r, (row, &p)) in model.rows.iter().zip(pi).enumerate() {
        if Some(r) != skip {
            let p = counted(row.sense, p);
            for &(v, a) in &row.terms {
                reduced[v.0] -= p * a;
            }
        }
    }
    reduced
}

/// The multiplier of Eq row `row` that maximises the bound with the other
/// multipliers `pi` fixed, where the row's variables lie in [0, hi] with
/// positive coefficients (a load row): the bound is then concave in it,
/// rising while the row's right side exceeds what the variables with
/// negative reduced cost hold at their upper bounds, so the best value is
/// the reduced-cost ratio at which, filled cheapest first, they reach it
/// (a fractional knapsack). 0 where the row is not of that form.
pub fn best_multiplier(model: &Model, pi: &[f64], row: usize, upper: impl Fn(usize) -> f64) -> f64 {
    let target = &model.rows[row];
    let reduced = reduced_costs(model, pi, Some(row));
    let mut items = Vec::with_capacity(target.terms.len());
    for &(v, a) in &target.terms {
        let (lo, hi) = model.bounds[v.0];
        let hi = if hi.is_finite() { hi } else { upper(v.0) };
        if a <= 0.0 || lo != 0.0 || !hi.is_finite() {
            return 0.0;
        }
        items.push((reduced[v.0] / a, a * hi));
    }
    items.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut held = 0.0;
    for (ratio, holds) in items {
        held += holds;
        if held >= target.rhs {
            return ratio;
        }
    }
    0.0
}

/// Least squares with one exact row: the x minimising |M x|^2 subject to
/// w.x = 1, from its optimality conditions [M'M w; w' 0] [x; mu] = [0; 1].
/// `m` lists the rows of M. Small systems only (dense).
pub fn least_squares_with(m: &[Vec<f64>], w: &[f64]) -> Option<Vec<f64>> {
    let k = w.len();
    let mut kkt = vec![vec![0.0; k + 1]; k + 1];
    for row in m {
        for i in (0..k).filter(|&i| row[i] != 0.0) {
            for j in 0..k {
                kkt[i][j] += row[i] * row[j];
            }
        }
    }
    for i in 0..k {
        kkt[i][k] = w[i];
        kkt[k][i] = w[i];
    }
    let mut rhs = vec![0.0; k + 1];
    rhs[k] = 1.0;
    let mut x = solve_refined(&kkt, &rhs)?;
    x.truncate(k);
    Some(x)
}

/// A x = b for a square A, with two rounds of iterative refinement (the
/// residual solved again): elimination alone lost 1e-7 of a bound.
fn solve_refined(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let augmented = |rhs: &[f64]| a.iter().zip(rhs).map(|(row, &r)| row.iter().copied().chain([r]).collect()).collect();
    let mut x = solve_dense(augmented(b))?;
    for _ in 0..2 {
        let residual: Vec<f64> = a.iter().zip(b).map(|(row, &r)| r - row.iter().zip(&x).map(|(p, q)| p * q).sum::<f64>()).collect();
        solve_dense(augmented(&residual))?.iter().zip(x.iter_mut()).for_each(|(d, x)| *x += d);
    }
    Some(x)
}

/// Gaussian elimination with partial pivoting on an augmented k x (k+1)
/// matrix; None where singular.
fn solve_dense(mut a: Vec<Vec<f64>>) -> Option<Vec<f64>> {
    let k = a.len();
    let scale = a.iter().flat_map(|r| r[..k].iter()).fold(0.0f64, |s, x| s.max(x.abs()));
    for col in 0..k {
        let pivot = (col..k).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() <= 1e-14 * scale {
            return None;
        }
        a.swap(col, pivot);
        let (done, rest) = a.split_at_mut(col + 1);
        let pivot_row = &done[col];
        for row in rest.iter_mut() {
            let f = row[col] / pivot_row[col];
            if f != 0.0 {
                row[col..].iter_mut().zip(&pivot_row[col..]).for_each(|(x, p)| *x -= f * p);
            }
        }
    }
    let mut x = vec![0.0; k];
    for row in (0..k).rev() {
        let s: f64 = (row + 1..k).map(|c| a[row][c] * x[c]).sum();
        x[row] = (a[row][k] - s) / a[row][row];
    }
    Some(x)
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

    #[test]
    fn least_squares_keeps_the_exact_row() {
        // min (x - y)^2 with x + y = 1: x = y = 1/2.
        let x = least_squares_with(&[vec![1.0, -1.0]], &[1.0, 1.0]).unwrap();
        assert!((x[0] - 0.5).abs() < 1e-9 && (x[1] - 0.5).abs() < 1e-9);
    }
}
