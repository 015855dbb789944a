//! How an engine with absolute tolerances (microlp, the dense simplex)
//! sees a model: x = d y per column, each row times r, d and r powers of
//! two so that the scaled LP's numbers are exact. A column whose largest
//! coefficient exceeds 1 is scaled for it to lie in [1/2, 1): the
//! engine's tolerance on y is then one on the rows too. A tree's deepest
//! chunk, p^12 processors a message, came back -6e-11, within the
//! tolerance of its bound 0, and its link rows took it for a message
//! 0.25 S shorter, which the checker refused once the chunk read as 0
//! (p = 4, h = 13). A row whose terms are then all below 1/2 is scaled
//! up for its largest to lie in [1/2, 1): the load row of a tree whose
//! chunks cost 3e18 time units each (C = 1e15) was left with coefficients
//! of 1e-18, which every chunk met within the tolerance. 0-1 variables
//! stay as they are.

use super::{Model, Row};
use alloc::vec::Vec;

pub(crate) struct Scaling {
    columns: Vec<f64>,
}

/// The power of two that takes `largest` (> 0, finite) into [1/2, 1).
fn into_unit(largest: f64) -> f64 {
    libm::ldexp(1.0, -libm::frexp(largest).1)
}

impl Scaling {
    pub(crate) fn new(model: &Model) -> Scaling {
        let mut largest = alloc::vec![0.0f64; model.names.len()];
        for row in &model.rows {
            for &(v, a) in &row.terms {
                largest[v.0] = largest[v.0].max(a.abs());
            }
        }
        let columns = largest.iter().zip(&model.binary).map(|(&m, &b)| if m > 1.0 && m.is_finite() && !b { into_unit(m) } else { 1.0 }).collect();
        Scaling { columns }
    }

    /// Column j's d: the model's x_j is d y_j.
    pub(crate) fn column(&self, j: usize) -> f64 {
        self.columns[j]
    }

    /// Column j's bounds on y_j.
    pub(crate) fn bounds(&self, j: usize, (lo, hi): (f64, f64)) -> (f64, f64) {
        (lo / self.columns[j], hi / self.columns[j])
    }

    /// The r that `row`'s terms (on y) and right-hand side are multiplied by.
    pub(crate) fn row(&self, row: &Row) -> f64 {
        let largest = row.terms.iter().map(|&(v, a)| (a * self.columns[v.0]).abs()).fold(0.0, f64::max);
        if largest > 0.0 && largest < 0.5 { into_unit(largest) } else { 1.0 }
    }
}
