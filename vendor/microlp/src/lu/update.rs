//! dlt: the Forrest-Tomlin update of the factors `P B Q = L U` for a basis
//! change (Forrest and Tomlin, "Updated triangular factors of the basis to
//! maintain sparsity in the product form simplex method", Math. Prog. 2,
//! 1972; as in Suhl and Suhl, ORSA J. Computing 2, 1990).
//!
//! The basis column at position `t` of U is replaced by the spike
//! `s = R_k ... R_1 L^-1 P a_q` and moved last in U's order, with its row;
//! the row's entries left of the new diagonal are eliminated by the rows
//! below, which the row eta `R_{k+1} = I - e_t r^T` records. Then
//! `B^-1 = Q U^-1 R_k ... R_1 L^-1 P`. Unlike the product form it replaced
//! (an eta column `B^-1 a_q` per pivot), an update costs the spike, which
//! L leaves sparse where `B^-1 a_q` is not: on the trees' LPs 9 entries
//! where `B^-1 a_q` has 588 (of 3,098 rows), so the factors are renewed
//! far less often and each solve carries far less.

use super::{tri_solve_sparse, LUFactors, ScratchSpace, Triangle};
use crate::sparse::{ScatteredVec, SparseMat};

/// The relative difference between the updated diagonal and the pivot times
/// the diagonal it replaces (the two ways of computing the same number)
/// beyond which the update is refused and the factors are renewed instead.
const AGREEMENT_TOL: f64 = 1e-9;

/// The row etas of the updates since the factorization, and U's order.
#[derive(Clone, Debug)]
pub(crate) struct Updates {
    /// The position `t` of each row eta.
    rows: Vec<usize>,
    /// Each row eta's `r`, a column each.
    etas: SparseMat,
    /// U's triangular order: column `c` comes before column `d` where
    /// `label[c] < label[d]`; a column moved last takes the next label.
    label: Vec<usize>,
    next_label: usize,
    /// The entries of the factors when they were computed.
    pub(crate) factored_nnz: usize,
}

impl Updates {
    /// None, for the fresh factors of size `n` with `nnz` entries.
    pub(crate) fn new(n: usize, nnz: usize) -> Updates {
        Updates {
            rows: vec![],
            etas: SparseMat::new(n),
            label: (0..n).collect(),
            next_label: n,
            factored_nnz: nnz,
        }
    }

    /// The updates since the factorization.
    pub(crate) fn len(&self) -> usize {
        self.rows.len()
    }

    /// The entries of the row etas.
    pub(crate) fn nnz(&self) -> usize {
        self.etas.nnz()
    }

    /// `x <- R_k ... R_1 x` (`transposed`: `x <- R_1^T ... R_k^T x`), on a
    /// scattered vector or a dense one.
    pub(crate) fn apply<X: Entries + ?Sized>(&self, x: &mut X, transposed: bool) {
        if transposed {
            for k in (0..self.rows.len()).rev() {
                let x_t = x.at(self.rows[k]);
                if x_t != 0.0 {
                    for (j, &r) in self.etas.col_iter(k) {
                        x.subtract(j, r * x_t);
                    }
                }
            }
        } else {
            for k in 0..self.rows.len() {
                // dlt: a plain loop (from -0.0, as `sum` starts): at the
                // wasm's opt-level the iterator's fold was a call.
                let mut dot = -0.0;
                for (j, &r) in self.etas.col_iter(k) {
                    dot += r * x.at(j);
                }
                if dot != 0.0 {
                    x.subtract(self.rows[k], dot);
                }
            }
        }
    }
}

/// A vector the row etas apply to.
pub(crate) trait Entries {
    fn at(&self, i: usize) -> f64;
    fn subtract(&mut self, i: usize, v: f64);
}

impl Entries for ScatteredVec {
    fn at(&self, i: usize) -> f64 {
        self.values[i]
    }

    fn subtract(&mut self, i: usize, v: f64) {
        *self.get_mut(i) -= v;
    }
}

impl Entries for [f64] {
    fn at(&self, i: usize) -> f64 {
        self[i]
    }

    fn subtract(&mut self, i: usize, v: f64) {
        self[i] -= v;
    }
}

/// Replace the basis column at `position` by `column` (the entering var's,
/// in the basis's row numbering), whose pivot element in `B^-1 column` at
/// `position` is `pivot`: `lu` the factors of B, `lu_transp` those of B^T.
/// Returns false, and leaves everything as it was, where the updated
/// diagonal and the pivot disagree beyond [`AGREEMENT_TOL`] or the diagonal
/// is not a normal number: the caller then factorizes the new basis afresh.
pub(crate) fn update<'a>(
    lu: &mut LUFactors,
    lu_transp: &mut LUFactors,
    updates: &mut Updates,
    scratch: &mut ScratchSpace,
    position: usize,
    column: impl Iterator<Item = (usize, &'a f64)>,
    pivot: f64,
) -> bool {
    let t = lu.col_perm.as_ref().map_or(position, |p| p.orig2new[position]);

    // The spike: the column through L and the row etas.
    scratch.rhs.clear();
    for (i, &val) in column {
        let new_i = lu.row_perm.as_ref().map_or(i, |p| p.orig2new[i]);
        *scratch.rhs.get_mut(new_i) = val;
    }
    tri_solve_sparse(&lu.lower, Triangle::Lower, scratch, 2 * lu.side);
    updates.apply(&mut scratch.rhs, false);
    // Off U's diagonal: the new column t of U.
    let spike: Vec<(usize, f64)> = scratch.rhs.iter().filter(|&(i, &v)| v != 0.0 && i != t).map(|(i, &v)| (i, v)).collect();
    let spike_t = scratch.rhs.values[t];

    // r: U's row t (off its diagonal) through the rows after it, Ū^T r = u_t.
    scratch.rhs.clear();
    for (j, &val) in lu_transp.lower.nondiag.col_iter(t) {
        *scratch.rhs.get_mut(j) = val;
    }
    tri_solve_sparse(&lu_transp.lower, Triangle::Lower, scratch, 2 * lu_transp.side);
    let diag = spike_t - spike.iter().map(|&(i, s)| s * scratch.rhs.values[i]).sum::<f64>();

    let old_diag = lu.upper.diag.as_ref().map_or(1.0, |d| d[t]);
    let expected = pivot * old_diag;
    if !diag.is_normal() || (diag - expected).abs() > AGREEMENT_TOL * diag.abs().max(expected.abs()) {
        return false;
    }

    // U loses row t and takes the spike as column t; U^T the same, by rows.
    for &j in lu_transp.lower.nondiag.col_rows(t) {
        lu.upper.nondiag.remove_from_col(j, t);
    }
    for &i in lu.upper.nondiag.col_rows(t) {
        lu_transp.lower.nondiag.remove_from_col(i, t);
    }
    lu.upper.nondiag.replace_col(t, spike.iter().copied());
    lu_transp.lower.nondiag.replace_col(t, std::iter::empty());
    for &(i, s) in &spike {
        lu_transp.lower.nondiag.push_to_col(i, t, s);
    }
    for tri in [&mut lu.upper, &mut lu_transp.lower] {
        if let Some(d) = tri.diag.as_mut() {
            d[t] = diag;
        }
    }

    // t goes last in U's order; the columns of U^T the spike reached now
    // have an entry, and a place in its solves.
    lu.upper.deactivate(t, &updates.label);
    lu_transp.lower.deactivate(t, &updates.label);
    updates.label[t] = updates.next_label;
    updates.next_label += 1;
    lu.upper.active.push(t);
    lu_transp.lower.active.push(t);
    for &(i, _) in &spike {
        lu_transp.lower.activate(i, &updates.label);
    }

    updates.rows.push(t);
    updates.etas.append_col(scratch.rhs.iter().filter(|&(_, &v)| v != 0.0).map(|(j, &v)| (j, v)));
    #[cfg(debug_assertions)]
    check_transposed(lu, lu_transp, &updates.label);
    true
}

/// The tests' builds check that the two copies of U, by columns for B's
/// solves and by rows for B^T's, still hold the same entries and diagonal
/// after an update, and that each lists the columns a solve must process in
/// U's order: an entry one of them missed would leave the two solves
/// describing different bases, which only the simplex's pivot agreement
/// test would notice, as rebuilds.
#[cfg(debug_assertions)]
fn check_transposed(lu: &LUFactors, lu_transp: &LUFactors, label: &[usize]) {
    let entries = |m: &SparseMat, transposed: bool| {
        let mut all: Vec<(usize, usize, u64)> = (0..m.cols())
            .flat_map(|c| m.col_iter(c).map(move |(r, &v)| if transposed { (c, r, v.to_bits()) } else { (r, c, v.to_bits()) }))
            .collect();
        all.sort_unstable();
        all
    };
    assert!(
        entries(&lu.upper.nondiag, false) == entries(&lu_transp.lower.nondiag, true),
        "the updated U and its copy by rows differ"
    );
    assert!(lu.upper.diag == lu_transp.lower.diag, "the updated U's diagonals differ");
    for tri in [&lu.upper, &lu_transp.lower] {
        let mut listed = vec![false; tri.cols()];
        tri.active.iter().for_each(|&c| listed[c] = true);
        assert!(
            (0..tri.cols()).all(|c| listed[c] || !tri.acts(c)) && tri.active.windows(2).all(|w| label[w[0]] < label[w[1]]),
            "an updated triangle's active columns are not all listed in U's order"
        );
    }
}
