//! The earliest point of a schedule's LP, a start for its simplex
//! (`solve_near`). Its variables unbounded above (start times, running
//! sums, the makespan, a period) are quantities a row can push up; the
//! bounded ones (the chunks) stay where the caller put them. Every row a
//! point breaks is mended by raising the one variable it can push: each
//! start time then sits where its latest predecessor puts it, as in a
//! longest path, and the point differs from the optimum mainly in the
//! chunks. From the slack basis the dual simplex spends an iteration on
//! nearly every start time first (a tree's window: 356 iterations for 302
//! variables).

use super::{Model, Sense};
use alloc::vec::Vec;

/// Passes over the rows: a row may need a variable a later row raises,
/// and each pass settles one more link of such a chain. The point is a
/// hint, so one not settled within them is still a start.
const PASSES: usize = 16;

/// `x` (a value per variable of `model`) with every row it breaks mended
/// by raising a variable unbounded above whose coefficient moves the row
/// the right way: where a row has several, the last written (the LPs write
/// a row's start time after those it waits for, and a period after every
/// start time).
pub fn earliest(model: &Model, mut x: Vec<f64>) -> Vec<f64> {
    for _ in 0..PASSES {
        let mut raised = false;
        for row in &model.rows {
            let (lhs, size) = row.lhs_and_size(&x);
            let short = row.rhs - lhs;
            let tol = 1e-12 * size.max(1.0);
            // Up (the row wants more activity) or down.
            let up = match row.sense {
                Sense::Ge | Sense::Eq if short > tol => true,
                Sense::Le | Sense::Eq if short < -tol => false,
                _ => continue,
            };
            let pushes = row.terms.iter().rev().find(|&&(v, a)| model.bounds[v.0].1 == f64::INFINITY && (a > 0.0) == up);
            if let Some(&(v, a)) = pushes {
                x[v.0] += short / a;
                raised = true;
            }
        }
        if !raised {
            break;
        }
    }
    x
}

#[cfg(test)]
mod tests {
    use super::super::presolve::tests::random_lp;
    use super::super::{solve_near, Engine, Microlp, Var};
    use core::cell::Cell;
    use super::*;
    use alloc::vec;
    use approx::relative_eq;
    use proptest::prelude::*;

    /// A chain of hops and a chunk: each start time as late as its latest
    /// predecessor asks, the makespan at the last end, the chunk untouched.
    #[test]
    fn start_times_follow_their_latest_predecessor() {
        let mut m = Model::default();
        let t: Vec<Var> = (0..3).map(|i| m.var(alloc::format!("t{i}"), 0.0, f64::INFINITY, 0.0)).collect();
        let alpha = m.var("alpha", 0.0, 2.0, 0.0);
        let cmax = m.var("Cmax", 0.0, f64::INFINITY, 1.0);
        // Written out of order: the last pass settles t1 -> t2.
        m.row("t2 after t1", vec![(t[2], 1.0), (t[1], -1.0), (alpha, -3.0)], Sense::Ge, 1.0);
        m.row("t1 after t0", vec![(t[1], 1.0), (t[0], -1.0)], Sense::Ge, 2.0);
        m.row("t2 after t0", vec![(t[2], 1.0), (t[0], -1.0)], Sense::Ge, 10.0);
        m.row("end", vec![(t[2], 1.0), (alpha, 1.0), (cmax, -1.0)], Sense::Le, -0.5);
        let x = earliest(&m, vec![0.0, 0.0, 0.0, 1.5, 0.0]);
        // t2 = max(t1 + 1 + 3 * 1.5, 10) = max(7.5, 10); Cmax = 10 + 1.5 + 0.5.
        assert_eq!(x, vec![0.0, 2.0, 10.0, 1.5, 12.0]);
    }

    /// From any point, near an optimum or not, inside the bounds or not,
    /// the same optimum as from the slack basis: with presolve and without
    /// (the engine's crash on the model as written).
    #[test]
    fn any_start_gives_the_same_optimum() {
        let moved = Cell::new(0);
        proptest!(crate::cases(1000), |(lp in random_lp(), seed in prop::collection::vec(-12.0..12.0f64, 12))| {
            let start = &seed[..lp.names.len()];
            let cold = Microlp.solve(&lp).unwrap_or_else(|f| panic!("{f:?}"));
            let crashed = Microlp.solve_from(&lp, Some(start)).unwrap_or_else(|f| panic!("{f:?}\n{lp:?}"));
            let near = solve_near(&Microlp, &lp, Some(start), "random").unwrap_or_else(|e| panic!("{e:?}\n{lp:?}"));
            for (how, objective) in [("crashed", crashed.objective), ("presolved", near.objective)] {
                assert!(relative_eq!(objective, cold.objective, epsilon = 1e-9, max_relative = 1e-9), "{objective} {how}, {} cold\n{lp:?}", cold.objective);
            }
            moved.set(moved.get() + (crashed.iterations != cold.iterations) as usize);
        });
        // (Most are solved in a few iterations either way: 96 of 1,000 differ.)
        assert!(moved.get() > 50, "the start changed the path of only {} LPs", moved.get());
    }
}
