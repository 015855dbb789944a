//! Postsolve: the eliminations replayed backwards, so that every variable
//! of the original model gets a value from a solution of the reduced one.

use super::super::Model;
use alloc::vec;
use alloc::vec::Vec;

/// How to restore one eliminated variable.
pub(super) enum Step {
    Fix(usize, f64),
    /// x = (rhs - sum a_k x_k) / a, over variables still present then.
    Solve { x: usize, a: f64, rhs: f64, terms: Vec<(usize, f64)> },
}

/// A reduced model and how to map its solutions back.
pub(crate) struct Reduced {
    pub model: Model,
    /// Original index of each reduced column.
    pub(super) columns: Vec<usize>,
    pub(super) steps: Vec<Step>,
    pub(super) total: usize,
}

impl Reduced {
    /// A point of the original model as the reduced model's values: those
    /// of the columns it kept.
    pub fn kept(&self, x: &[f64]) -> Vec<f64> {
        self.columns.iter().map(|&j| x[j]).collect()
    }

    /// The original model's values from the reduced model's.
    pub fn restore(&self, values: &[f64]) -> Result<Vec<f64>, &'static str> {
        if values.len() != self.columns.len() {
            return Err("a solution of the wrong length");
        }
        let mut x = vec![0.0; self.total];
        for (&j, &v) in self.columns.iter().zip(values) {
            x[j] = v;
        }
        for step in self.steps.iter().rev() {
            match step {
                Step::Fix(j, v) => x[*j] = *v,
                Step::Solve { x: j, a, rhs, terms } => x[*j] = (rhs - terms.iter().map(|&(k, b)| b * x[k]).sum::<f64>()) / a,
            }
        }
        Ok(x)
    }
}
