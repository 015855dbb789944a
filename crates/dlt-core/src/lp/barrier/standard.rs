//! The LP in the method's standard form: min c.x subject to A x = b and
//! 0 <= x <= u, a slack per inequality, dense columns split, each column
//! scaled.

use super::super::{Model, Sense};
use super::normal::Columns;
use alloc::vec;
use alloc::vec::Vec;

/// A column with more entries than this (Cmax in every end row) is split
/// into a chain of copies of at most SPLIT_INTO entries, tied by equality
/// rows: as one column it would make a dense block of the normal equations.
const DENSE_COLUMN: usize = 64;
const SPLIT_INTO: usize = 16;

/// min c.x subject to A x = b and 0 <= x <= u: the model with a slack per
/// inequality, its lower bounds shifted to 0 and each column scaled
/// (`scale`): the model's variable j is lower_j + scale_j x_j.
pub(super) struct Standard {
    pub(super) a: Columns,
    pub(super) b: Vec<f64>,
    pub(super) c: Vec<f64>,
    pub(super) u: Vec<f64>,
    /// The model's lower bounds, its variables and rows.
    pub(super) lower: Vec<f64>,
    pub(super) rows: usize,
    pub(super) scale: Vec<f64>,
}

/// The model in standard form; None where a variable has no finite lower bound.
pub(super) fn standard(model: &Model) -> Option<Standard> {
    let n = model.names.len();
    let lower: Vec<f64> = model.bounds.iter().map(|b| b.0).collect();
    if lower.iter().any(|l| !l.is_finite()) {
        return None;
    }
    let mut columns: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    let mut c = model.objective.clone();
    let mut u: Vec<f64> = model.bounds.iter().map(|&(lo, hi)| hi - lo).collect();
    // A fixed variable is a constant, in the rows' right-hand sides below:
    // its column is left empty, at a cost that takes it to 0, and its value
    // shown is its bound (scale 0). A face of an LP (the chunks of some
    // stages fixed at 0, `buffers::sequential::interior`) then costs what
    // its free variables do; with no upper bound left, no iterate could be
    // inside their box.
    let fixed: Vec<bool> = u.iter().map(|&u| u <= 0.0).collect();
    let mut b = Vec::with_capacity(model.rows.len());
    for (r, row) in model.rows.iter().enumerate() {
        let shift: f64 = row.terms.iter().map(|&(v, a)| a * lower[v.0]).sum();
        row.terms.iter().filter(|&&(v, _)| !fixed[v.0]).for_each(|&(v, a)| columns[v.0].push((r, a)));
        b.push(row.rhs - shift);
        let slack = match row.sense {
            Sense::Ge => -1.0,
            Sense::Le => 1.0,
            Sense::Eq => continue,
        };
        columns.push(vec![(r, slack)]);
        c.push(0.0);
        u.push(f64::INFINITY);
    }
    for j in 0..n {
        if columns[j].len() > DENSE_COLUMN {
            let entries = core::mem::take(&mut columns[j]);
            let mut link = j;
            for (i, part) in entries.chunks(SPLIT_INTO).enumerate() {
                let copy = if i == 0 {
                    j
                } else {
                    // copy_{i-1} - copy_i = 0
                    let r = b.len();
                    b.push(0.0);
                    columns[link].push((r, 1.0));
                    columns.push(vec![(r, -1.0)]);
                    c.push(0.0);
                    u.push(f64::INFINITY);
                    columns.len() - 1
                };
                columns[copy].extend_from_slice(part);
                link = copy;
            }
        }
    }
    // Each column divided by the square root of its largest entry: the
    // load row's chunks carry p^l (up to 1,024 at h = 10) where the rows
    // of time carry 1, and Mehrotra's start, lifted alike in every
    // variable, broke the load row by 4.4e5 (h = 10, n = 100), which took
    // the method 23 iterations of short steps to mend. Scaled, h = 10,
    // n = 30, S = 1e-3 took 20 iterations where it took 25; n = 100, 27
    // where 35; n = 200, 30 where 41; on 47 random trees above n_min as
    // many fewer as more. Scaled fully (by the largest entry), or rows as
    // well, more than one round, the method stopped short of some proofs.
    for j in (0..n).filter(|&j| fixed[j]) {
        c[j] = 1.0;
        u[j] = f64::INFINITY;
    }
    let mut a = Columns { rows: b.len(), start: vec![0], index: Vec::new(), value: Vec::new() };
    let mut scale = Vec::with_capacity(columns.len());
    for (j, column) in columns.iter_mut().enumerate() {
        column.sort_unstable_by_key(|e| e.0);
        let largest = column.iter().fold(0.0, |m: f64, e| m.max(e.1.abs()));
        let by = if largest > 0.0 { 1.0 / libm::sqrt(largest) } else { 1.0 };
        column.iter().for_each(|&(r, v)| {
            a.index.push(r);
            a.value.push(v * by);
        });
        a.start.push(a.index.len());
        c[j] *= by;
        u[j] /= by;
        scale.push(if j < n && fixed[j] { 0.0 } else { by });
    }
    Some(Standard { a, b, c, u, lower, rows: model.rows.len(), scale })
}
