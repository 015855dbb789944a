//! The LP's dual, for the method to run on where its normal equations
//! are the smaller: A Theta A' is over the rows, and the dual's over the
//! primal's columns (A' Theta A). A chain of relays (p = 1) has nearly
//! three rows per variable: h = 49, n = 4, 5,293 variables and 14,557
//! rows, whose factor over the rows holds 3.25 million entries and over
//! the columns 274,000 (by the same minimum-degree order).
//!
//! The primal min c.x, rows a_r.x (>= or <=) b_r, l <= x <= u, with x
//! shifted to x' = x - l in [0, u - l] (b' = b - A l); its dual, as a
//! minimisation: min -sum_r b'_r y_r + sum_j (u_j - l_j) w_j subject to,
//! per column j not fixed, sum_r a_rj y_r - w_j <= c_j, with y_r >= 0 on
//! a >= row, <= 0 on a <= row (its variable is -y_r), w_j >= 0 where u_j
//! is finite. The dual's
//! multiplier on column j's row is -x'_j, and its variables give the
//! primal's multipliers y: so each iterate of the method on the dual is
//! shown to the caller as the primal's (`Back::primal`).

use super::super::{Model, Sense, Var};
use alloc::vec;
use alloc::vec::Vec;

/// How the dual's iterates map back to the primal's.
pub(super) struct Back {
    /// Per dual variable: the primal row whose multiplier it is, and its
    /// sign; None for the w of an upper bound.
    of_variable: Vec<Option<(usize, f64)>>,
    /// Per primal column: its dual row, None where it is fixed; and its
    /// lower bound.
    row_of: Vec<Option<usize>>,
    lower: Vec<f64>,
    rows: usize,
}

/// The dual of `model`; None where a variable has no finite lower bound
/// or a row is an equation (its multiplier would be a free variable of the
/// dual, which the method's standard form has no place for: split in two,
/// the pair drifted apart and a chain's bound stalled 1.4e-3 off).
pub(super) fn dual(model: &Model) -> Option<(Model, Back)> {
    let lower: Vec<f64> = model.bounds.iter().map(|b| b.0).collect();
    if lower.iter().any(|l| !l.is_finite()) {
        return None;
    }
    let n = model.names.len();
    let mut columns: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    let mut dual = Model::default();
    let mut of_variable = Vec::new();
    for (r, row) in model.rows.iter().enumerate() {
        let shifted = row.rhs - row.terms.iter().map(|&(v, a)| a * lower[v.0]).sum::<f64>();
        let sign = match row.sense {
            Sense::Ge => 1.0,
            Sense::Le => -1.0,
            Sense::Eq => return None,
        };
        let y = dual.var("", 0.0, f64::INFINITY, -sign * shifted);
        of_variable.push(Some((r, sign)));
        row.terms.iter().for_each(|&(v, a)| columns[v.0].push((y.0, sign * a)));
    }
    let mut row_of = vec![None; n];
    for (j, terms) in columns.into_iter().enumerate() {
        let (lo, hi) = model.bounds[j];
        if hi - lo <= 0.0 {
            continue;
        }
        let mut terms: Vec<(Var, f64)> = terms.into_iter().map(|(v, a)| (Var(v), a)).collect();
        if hi.is_finite() {
            terms.push((dual.var("", 0.0, f64::INFINITY, hi - lo), -1.0));
            of_variable.push(None);
        }
        row_of[j] = Some(dual.rows.len());
        dual.row("", terms, Sense::Le, model.objective[j]);
    }
    Some((dual, Back { of_variable, row_of, lower, rows: model.rows.len() }))
}

impl Back {
    /// The primal's variables and row multipliers from the dual's
    /// variables `values` and row multipliers `pi`.
    pub(super) fn primal(&self, values: &[f64], pi: &[f64], x: &mut [f64], y: &mut Vec<f64>) {
        for (j, x) in x.iter_mut().enumerate() {
            *x = self.lower[j] + self.row_of[j].map_or(0.0, |r| -pi[r]);
        }
        y.clear();
        y.resize(self.rows, 0.0);
        for (v, of) in values.iter().zip(&self.of_variable) {
            if let Some((r, sign)) = of {
                y[*r] = sign * v;
            }
        }
    }
}
