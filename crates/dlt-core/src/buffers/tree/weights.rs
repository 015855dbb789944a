//! The weights of the paths in a tree LP's bound (proof.rs): multipliers
//! that flow along the critical paths, blended so that the chunks strictly
//! inside their boxes have reduced costs as near 0 as they allow.

use crate::lp::{self, dual, Model, Rows, Sense, Var};
use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

/// Most entries (free chunks times paths) of the weights' LP, `mix`.
const MIX_ENTRIES: usize = 200_000;

/// The Lagrangian bound (scaled units) of multipliers that weigh the
/// paths' `units` so that the free chunks (strictly inside their boxes,
/// `room` to each side, numbered by `free_index`) have reduced costs as
/// near 0 as they allow (`mix`), the load row's multiplier then set at its
/// best; -infinity where no weights sum to more than 0.
pub(super) fn weighed(lp: &impl Rows, units: &[Vec<(usize, f64)>], free_index: &[Option<usize>], room: &[(f64, f64)], load_row: usize, upper: impl Fn(usize) -> f64) -> f64 {
    let (k, free) = (units.len(), room.len());
    // Past MIX_ENTRIES the weights' LP would cost more than the full LP
    // it stands in for (5,000 free chunks and 3,600 tight ends at h = 10,
    // n = 500 took 25 s): equal weights, a weaker bound, and no columns
    // built for it.
    let mixed = (free > 0 && free * k <= MIX_ENTRIES).then(|| {
        let mut columns: Vec<Vec<f64>> = units.iter().map(|pi| reduced_at(lp, pi, free_index, free)).collect();
        columns.push(reduced_at(lp, &[(load_row, 1.0)], free_index, free));
        mix(&columns, room)
    });
    let mut z = mixed.flatten().unwrap_or_else(|| vec![1.0; k]);
    let total: f64 = z.iter().sum();
    if total.is_nan() || total <= 0.0 {
        return f64::NEG_INFINITY;
    }
    z.iter_mut().for_each(|z| *z /= total);
    let mut pi = vec![0.0; lp.rows()];
    for (unit, z) in units.iter().zip(&z) {
        for &(r, p) in unit {
            pi[r] += z * p;
        }
    }
    dual::bound_at_best(lp, pi, load_row, upper)
}

/// The weights z of the paths' columns (z >= 0, summing to 1) that,
/// with the load row's multiplier (the last column), cost the bound least
/// through the free chunks' reduced costs: chunk i's reduced cost d_i
/// loses d_i times its room below (d_i > 0) or above (d_i < 0), `room[i]`.
/// A small LP; None where the engine fails (the caller takes equal weights).
fn mix(columns: &[Vec<f64>], room: &[(f64, f64)]) -> Option<Vec<f64>> {
    let k = columns.len() - 1;
    let mut lp = Model::default();
    let z: Vec<Var> = (0..k).map(|c| lp.var(format!("z_{c}"), 0.0, f64::INFINITY, 0.0)).collect();
    let lambda = lp.var("lambda", f64::NEG_INFINITY, f64::INFINITY, 0.0);
    for (i, &(below, above)) in room.iter().enumerate() {
        let up = lp.var(format!("up_{i}"), 0.0, f64::INFINITY, below);
        let down = lp.var(format!("down_{i}"), 0.0, f64::INFINITY, above);
        let mut terms: Vec<(Var, f64)> = z.iter().zip(columns).map(|(&v, col)| (v, col[i])).filter(|&(_, a)| a != 0.0).collect();
        terms.extend([(lambda, columns[k][i]), (up, -1.0), (down, 1.0)]);
        lp.row(format!("reduced_{i}"), terms, Sense::Eq, 0.0);
    }
    lp.row("weights", z.iter().map(|&v| (v, 1.0)).collect(), Sense::Eq, 1.0);
    let sol = lp::solve(&lp::Auto, &lp, "proof's weights").ok()?;
    Some(z.iter().map(|&v| sol.get(v).max(0.0)).collect())
}

/// The reduced costs that multipliers `pi` (row, value) give the free
/// chunks, by their index.
fn reduced_at(lp: &impl Rows, pi: &[(usize, f64)], free_index: &[Option<usize>], free: usize) -> Vec<f64> {
    let mut d = vec![0.0; free];
    for &(r, p) in pi {
        for &(v, a) in lp.row_ref(r).terms {
            if let Some(i) = free_index[v.0] {
                d[i] -= p * a;
            }
        }
    }
    d
}
