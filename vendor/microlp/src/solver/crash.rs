//! A starting basis from a point (dlt): where the caller knows where an
//! optimum roughly lies, from the model's structure, the simplex starts from
//! the basis that point suggests rather than from the slack basis. On a
//! schedule's LP the slack basis has every start time at 0, and the dual
//! simplex spends an iteration on nearly every one of them before the
//! chunks move; a point whose start times are as early as their rows allow
//! has them basic from the start.

use super::{Basis, Solver, VarStatus};

/// Relative distance within which a value counts as at its bound, and a
/// row as tight.
const AT: f64 = 1e-9;

impl Solver {
    /// The basis `point` suggests (a value per structural var, in the user's
    /// units): a var strictly between its bounds is basic, one at or beyond
    /// a bound sits at it; a row tight at the point keeps its slack out of
    /// the basis, any other row's slack is basic. Where that makes more
    /// basic vars than rows (a point that is not a vertex), the last basic
    /// structural vars leave for their nearest bound; where fewer (a
    /// degenerate vertex), the slacks of the last tight rows join, each at
    /// its bound. The basis need not be feasible either way, nor regular:
    /// [`Self::load_basis`] repairs a singular one and the phases of
    /// [`Self::run_phases`] take it from there.
    pub(crate) fn crash_basis(&self, point: &[f64]) -> Basis {
        let n = self.num_vars;
        let m = self.num_constraints();
        let scaled: Vec<f64> = (0..n).map(|v| point[v] / self.col_scales[v]).collect();
        let mut statuses = Vec::with_capacity(n + m);
        for (v, &y) in scaled.iter().enumerate() {
            let (min, max) = (self.orig_var_mins[v], self.orig_var_maxs[v]);
            let near = AT * y.abs().max(1.0);
            statuses.push(if y <= min + near {
                VarStatus::AtLower
            } else if y >= max - near {
                VarStatus::AtUpper
            } else {
                VarStatus::Basic
            });
        }
        for (r, row) in self.orig_constraints.outer_iterator().enumerate() {
            let slack = n + r;
            let (mut activity, mut size) = (0.0, self.orig_rhs[r].abs());
            for (v, &a) in row.iter().filter(|&(v, _)| v < n) {
                activity += a * scaled[v];
                size += (a * scaled[v]).abs();
            }
            let value = self.orig_rhs[r] - activity;
            let (min, max) = (self.orig_var_mins[slack], self.orig_var_maxs[slack]);
            let near = AT * size.max(1.0);
            statuses.push(if (value - min).abs() <= near {
                VarStatus::AtLower
            } else if (value - max).abs() <= near {
                VarStatus::AtUpper
            } else {
                VarStatus::Basic
            });
        }
        let basic = statuses.iter().filter(|s| **s == VarStatus::Basic).count();
        if basic > m {
            let inside: Vec<usize> = (0..n).rev().filter(|&v| statuses[v] == VarStatus::Basic).take(basic - m).collect();
            for v in inside {
                let y = scaled[v];
                let lower = y - self.orig_var_mins[v] <= self.orig_var_maxs[v] - y;
                statuses[v] = if lower { VarStatus::AtLower } else { VarStatus::AtUpper };
            }
        } else {
            let tight: Vec<usize> = (n..n + m).rev().filter(|&s| statuses[s] != VarStatus::Basic).take(m - basic).collect();
            for slack in tight {
                statuses[slack] = VarStatus::Basic;
            }
        }
        Basis(statuses)
    }
}
