use crate::sparse::{Perm, ScatteredVec, SparseMat, TriangleMat};
use std::cmp::Ordering;

use crate::solver::LU_SINGULAR_REL;

mod update;
pub(crate) use update::{update, Updates};

#[derive(Clone)]
pub struct LUFactors {
    lower: TriangleMat,
    upper: TriangleMat,
    row_perm: Option<Perm>,
    col_perm: Option<Perm>,
    /// dlt: 0 for the factors of B, 1 for those of B^T (`transpose`): with
    /// the triangle, which of `ScratchSpace::density` a solve reads.
    side: usize,
}

#[derive(Clone, Debug)]
pub struct ScratchSpace {
    rhs: ScatteredVec,
    dense_rhs: Vec<f64>,
    mark_nonzero: MarkNonzero,
    /// dlt: the running density of the results of each of the four
    /// triangular solves (B's L and U, B^T's), across refactorizations.
    density: [f64; 4],
    /// dlt: the symbolic elimination's lists, reused.
    lists: super::ordering::Lists,
}

impl ScratchSpace {
    pub fn with_capacity(n: usize) -> ScratchSpace {
        ScratchSpace {
            rhs: ScatteredVec::empty(n),
            dense_rhs: vec![0.0; n],
            mark_nonzero: MarkNonzero::with_capacity(n),
            density: [0.0; 4],
            lists: Default::default(),
        }
    }

    pub(crate) fn clear_sparse(&mut self, size: usize) {
        self.rhs.clear_and_resize(size);
        self.mark_nonzero.clear_and_resize(size);
    }
}

impl std::fmt::Debug for LUFactors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "L:\n{:?}", self.lower)?;
        writeln!(f, "U:\n{:?}", self.upper)?;
        writeln!(
            f,
            "row_perm.new2orig: {:?}",
            self.row_perm.as_ref().map(|p| &p.new2orig)
        )?;
        writeln!(
            f,
            "col_perm.new2orig: {:?}",
            self.col_perm.as_ref().map(|p| &p.new2orig)
        )?;
        Ok(())
    }
}

impl LUFactors {
    pub fn nnz(&self) -> usize {
        self.lower.nondiag.nnz() + self.upper.nondiag.nnz() + self.lower.cols()
    }

    /// `rhs <- B^-1 rhs` (of the transposed factors: `B^-T rhs`), through
    /// the `updates` since the factorization.
    pub(crate) fn solve_dense(&self, rhs: &mut [f64], scratch: &mut ScratchSpace, updates: &Updates) {
        scratch.dense_rhs.resize(rhs.len(), 0.0);

        if let Some(row_perm) = &self.row_perm {
            for (i, rhs_el) in rhs.iter().enumerate() {
                scratch.dense_rhs[row_perm.orig2new[i]] = *rhs_el;
            }
        } else {
            scratch.dense_rhs.copy_from_slice(rhs);
        }

        tri_solve_dense(&self.lower, Triangle::Lower, &mut scratch.dense_rhs);
        updates.apply(&mut scratch.dense_rhs[..], self.side == 1);
        tri_solve_dense(&self.upper, Triangle::Upper, &mut scratch.dense_rhs);

        if let Some(col_perm) = &self.col_perm {
            for i in 0..rhs.len() {
                rhs[col_perm.new2orig[i]] = scratch.dense_rhs[i];
            }
        } else {
            rhs.copy_from_slice(&scratch.dense_rhs);
        }
    }

    /// [`Self::solve_dense`] on a scattered vector.
    pub(crate) fn solve(&self, rhs: &mut ScatteredVec, scratch: &mut ScratchSpace, updates: &Updates) {
        if let Some(row_perm) = &self.row_perm {
            scratch.rhs.clear();
            for &i in &rhs.nonzero {
                let new_i = row_perm.orig2new[i];
                scratch.rhs.nonzero.push(new_i);
                scratch.rhs.is_nonzero[new_i] = true;
                scratch.rhs.values[new_i] = rhs.values[i];
            }
        } else {
            std::mem::swap(&mut scratch.rhs, rhs);
        }

        let (lower, upper) = (2 * self.side, 2 * self.side + 1);
        let n = scratch.rhs.len();
        if solves_densely(scratch.rhs.nonzero.len(), n, scratch.density[lower]) && scratch.density[upper] > DENSE_RESULT {
            // dlt: both triangles solved densely (`tri_solve_sparse`), the
            // vector stays dense between them, and its pattern is read
            // once, as it is permuted out.
            let values = &mut scratch.rhs.values;
            tri_solve_dense(&self.lower, Triangle::Lower, values);
            let found = values.iter().filter(|&&v| v != 0.0).count();
            track(&mut scratch.density[lower], found, n);
            updates.apply(&mut values[..], self.side == 1);
            tri_solve_dense(&self.upper, Triangle::Upper, values);
            rhs.clear();
            for (i, value) in values.iter_mut().enumerate() {
                if *value != 0.0 {
                    let orig = self.col_perm.as_ref().map_or(i, |p| p.new2orig[i]);
                    rhs.nonzero.push(orig);
                    rhs.is_nonzero[orig] = true;
                    rhs.values[orig] = std::mem::take(value);
                }
            }
            for &i in &scratch.rhs.nonzero {
                scratch.rhs.is_nonzero[i] = false;
            }
            scratch.rhs.nonzero.clear();
            track(&mut scratch.density[upper], rhs.nonzero.len(), n);
            return;
        }
        tri_solve_sparse(&self.lower, Triangle::Lower, scratch, lower);
        updates.apply(&mut scratch.rhs, self.side == 1);
        tri_solve_sparse(&self.upper, Triangle::Upper, scratch, upper);

        if let Some(col_perm) = &self.col_perm {
            rhs.clear();
            for &i in &scratch.rhs.nonzero {
                let new_i = col_perm.new2orig[i];
                rhs.nonzero.push(new_i);
                rhs.is_nonzero[new_i] = true;
                rhs.values[new_i] = scratch.rhs.values[i];
            }
        } else {
            std::mem::swap(rhs, &mut scratch.rhs);
        }
    }

    pub fn transpose(&self) -> LUFactors {
        LUFactors {
            lower: self.upper.transpose(),
            upper: self.lower.transpose(),
            row_perm: self.col_perm.clone(),
            side: 1 - self.side,
            col_perm: self.row_perm.clone(),
        }
    }
}

/// Factorize the square matrix whose columns `get_col` gives, with threshold
/// pivoting at `stability_coeff`.
///
/// A column is dependent when the part of it left to pivot on is below
/// [`LU_SINGULAR_REL`] of its largest transformed entry, once per elimination
/// applied to it (or not a normal number): it is skipped, and the factors are
/// completed at the end, each dependent column paired with a row that no pivot
/// took, whose unit column takes its place (a pivot of one, no elimination,
/// exact since the row was never eliminated). Returns the factors of the
/// matrix so repaired and the pairs `(column, row)` it replaced, none for a
/// nonsingular matrix.
pub fn lu_factorize<'a>(
    size: usize,
    get_col: impl Fn(usize) -> (&'a [usize], &'a [f64]),
    stability_coeff: f64,
    scratch: &mut ScratchSpace,
) -> (LUFactors, Vec<(usize, usize)>) {
    let col_rows: Vec<&[usize]> = (0..size).map(|c| get_col(c).0).collect();
    let (col_order, row_score) = super::ordering::order_markowitz(&col_rows, &mut scratch.lists);
    factorize_in_order(size, get_col, stability_coeff, scratch, col_order, Some(row_score))
}

/// [`lu_factorize`] with the columns taken by `rank`, the lowest first, each
/// rank in the order of [`lu_factorize`]: a column the factorization finds
/// dependent is the last of its dependency in that order, so one of the
/// highest rank in it.
pub fn lu_factorize_ranked<'a>(
    size: usize,
    get_col: impl Fn(usize) -> (&'a [usize], &'a [f64]),
    stability_coeff: f64,
    scratch: &mut ScratchSpace,
    rank: impl Fn(usize) -> u8,
) -> (LUFactors, Vec<(usize, usize)>) {
    let col_rows: Vec<&[usize]> = (0..size).map(|c| get_col(c).0).collect();
    let col_order = super::ordering::order_ranked(&col_rows, rank, &mut scratch.lists);
    factorize_in_order(size, get_col, stability_coeff, scratch, col_order, None)
}

/// [`lu_factorize`] with the columns taken in `col_order`, each pivoting on
/// the eligible row of the lowest `row_score` (by default its number of
/// entries). A `row_score` given is the position in `col_order` of the
/// column the row is meant for: that column takes it first where it is
/// eligible.
fn factorize_in_order<'a>(
    size: usize,
    get_col: impl Fn(usize) -> (&'a [usize], &'a [f64]),
    stability_coeff: f64,
    scratch: &mut ScratchSpace,
    col_order: Perm,
    row_score: Option<Vec<usize>>,
) -> (LUFactors, Vec<(usize, usize)>) {
    // Implementation of the Gilbert-Peierls algorithm:
    //
    // Gilbert, John R., and Tim Peierls. "Sparse partial pivoting in time
    // proportional to arithmetic operations." SIAM Journal on Scientific and
    // Statistical Computing 9.5 (1988): 862-874.
    //
    // https://ecommons.cornell.edu/bitstream/handle/1813/6623/86-783.pdf

    let mat_nnz = (0..size).map(|c| get_col(c).0.len()).sum::<usize>();
    trace!(
        "lu_factorize: starting, matrix size: {}, nnz: {} (excess: {})",
        size,
        mat_nnz,
        // Negative with an empty column.
        mat_nnz as isize - size as isize,
    );

    let meant = row_score.is_some();
    let row_score = row_score.unwrap_or_else(|| {
        let mut count = vec![0; size];
        for col_rows in (0..size).map(|c| get_col(c).0) {
            for &orig_r in col_rows {
                count[orig_r] += 1;
            }
        }
        count
    });

    scratch.clear_sparse(size);

    let mut lower = SparseMat::new(size);
    let mut upper = SparseMat::new(size);
    let mut upper_diag = Vec::with_capacity(size);

    let mut new2orig_row = (0..size).collect::<Vec<_>>();
    let mut orig2new_row = new2orig_row.clone();
    // The columns in the order they took their pivots; the dependent ones
    // follow them once the factors are completed.
    let mut new2orig_col = Vec::with_capacity(size);
    let mut dependent = Vec::new();

    for (position, &orig_col) in col_order.new2orig.iter().enumerate() {
        // The position of the next pivot: the columns pivoted so far.
        let i_col = new2orig_col.len();
        let mat_col = get_col(orig_col);

        // Solve the equation L'_j * x = a_j (x will be in scratch.rhs).
        // L'_j is a sq. matrix with the first j columns of L
        // and columns of identity matrix after j.
        // Part of x above the diagonal (in the new row indices) is the column of U
        // and part of x below the diagonal divided by the pivot value is the column of L

        scratch.rhs.set(mat_col.0.iter().copied().zip(mat_col.1));

        scratch.mark_nonzero.run(
            &mut scratch.rhs,
            |new_i| lower.col_rows(new_i),
            |new_i| new_i < i_col,
            |orig_r| orig2new_row[orig_r],
        );

        // At this point all future nonzero positions of scratch.rhs are marked
        // and the order in which variables depend on each other is determined.
        // rev() because DFS returns vertices in reverse topological order.
        // The eliminations applied to this column, for the singularity floor.
        let mut eliminations = 0usize;
        for &orig_i in scratch.mark_nonzero.visited.iter().rev() {
            // values[orig_i] is already fully calculated, diag coeff = 1.0.
            let new_i = orig2new_row[orig_i];
            if new_i < i_col {
                eliminations += 1;
                let x_val = scratch.rhs.values[orig_i];
                for (orig_r, coeff) in lower.col_iter(new_i) {
                    scratch.rhs.values[orig_r] -= x_val * coeff;
                }
            }
        }

        // Next we choose a pivot among values of x below the diagonal.
        // Pivoting by choosing the max element is good for stability,
        // but bad for sparseness, so we do threshold pivoting instead.

        let pivot_orig_r = {
            // The largest eligible pivot, judged against the largest entry of
            // the whole transformed column (eliminated part included): a
            // column whose remaining part is negligible beside it depends on
            // the previous columns up to round-off, whatever its scale.
            let mut max_abs = 0.0;
            let mut col_max = 0.0;
            for &orig_r in &scratch.rhs.nonzero {
                let abs = f64::abs(scratch.rhs.values[orig_r]);
                if abs > col_max {
                    col_max = abs;
                }
                if orig2new_row[orig_r] < i_col {
                    continue;
                }
                if abs > max_abs {
                    max_abs = abs;
                }
            }

            // What a dependent column keeps is the round-off its eliminations
            // carry into it, including what the earlier columns' factors left,
            // and the bound on it grows with their number.
            let singular_floor = LU_SINGULAR_REL * eliminations.max(1) as f64 * col_max;
            if !max_abs.is_normal() || max_abs < singular_floor {
                dependent.push(orig_col);
                continue;
            }

            // dlt: choose among eligible pivot rows one of the lowest score:
            // the row the ordering meant, or one with the least elements.
            // Gilbert-Peierls suggest to choose row with least elements *to the right*,
            // but it yielded poor results.
            // dlt: the row meant for this column goes first. By score alone a
            // row left over by an earlier column (its entry there below the
            // threshold) came before it, and the column that took it left its
            // own row over for the next: one small entry started a cascade
            // through the basis. A star's LP (m = 23, n = 130, bases of 8,947
            // rows and 21,500 entries) had factors of 2.9 million entries,
            // and 15,000 iterations took 31 s; now 8 s.
            let score_of = |orig_r: usize| match row_score[orig_r] {
                s if meant && s == position => 0,
                s => s + 1,
            };
            let mut best_orig_r = None;
            let mut best_score = None;
            for &orig_r in &scratch.rhs.nonzero {
                if orig2new_row[orig_r] < i_col {
                    continue;
                }

                if f64::abs(scratch.rhs.values[orig_r]) >= stability_coeff * max_abs {
                    let score = score_of(orig_r);
                    if best_score.is_none() || best_score.unwrap() > score {
                        best_orig_r = Some(orig_r);
                        best_score = Some(score);
                    }
                }
            }
            best_orig_r.unwrap()
        };

        let pivot_val = scratch.rhs.values[pivot_orig_r];

        {
            // Keep track of row permutations.
            let row = i_col;
            let orig_row = new2orig_row[row];
            let pivot_row = orig2new_row[pivot_orig_r];
            new2orig_row.swap(row, pivot_row);
            orig2new_row.swap(orig_row, pivot_orig_r);
        }

        // Gather the values of x into lower and upper matrices.

        for &orig_r in &scratch.rhs.nonzero {
            let val = scratch.rhs.values[orig_r];

            if val == 0.0 {
                continue;
            }

            let new_r = orig2new_row[orig_r];
            match new_r.cmp(&i_col) {
                Ordering::Less => upper.push(new_r, val),
                Ordering::Equal => upper_diag.push(pivot_val),
                Ordering::Greater => lower.push(orig_r, val / pivot_val),
            }
        }

        upper.seal_column();
        lower.seal_column();
        new2orig_col.push(orig_col);
    }

    // The rows no pivot took hold the positions after the pivoted ones: each
    // dependent column gets the next, and that row's unit column replaces it.
    let mut replaced = Vec::with_capacity(dependent.len());
    for orig_col in dependent {
        replaced.push((orig_col, new2orig_row[new2orig_col.len()]));
        upper_diag.push(1.0);
        upper.seal_column();
        lower.seal_column();
        new2orig_col.push(orig_col);
    }

    // permute rows of lower to "new" indices.
    for i_col in 0..lower.cols() {
        for r in lower.col_rows_mut(i_col) {
            *r = orig2new_row[*r];
        }
    }

    let lower_nnz = lower.nnz();
    let upper_nnz = upper.nnz();
    trace!(
        "lu_factorize: done, lower nnz: {} (excess: {}), upper nnz: {} (excess: {}), additional fill-in: {}",
        lower_nnz + size,
        lower_nnz,
        upper_nnz + size,
        upper_nnz,
        (lower_nnz + upper_nnz + size) as isize - mat_nnz as isize,
    );

    let res = LUFactors {
        side: 0,
        lower: TriangleMat::new(lower, None),
        upper: TriangleMat::new(upper, Some(upper_diag)),
        row_perm: Some(Perm {
            orig2new: orig2new_row,
            new2orig: new2orig_row,
        }),
        col_perm: Some(Perm::from_new2orig(new2orig_col)),
    };

    (res, replaced)
}

#[derive(Clone, Debug)]
struct MarkNonzero {
    dfs_stack: Vec<DfsStep>,
    is_visited: Vec<bool>,
    visited: Vec<usize>, // in reverse topological order
}

#[derive(Clone, Debug)]
struct DfsStep {
    orig_i: usize,
    cur_child: usize,
}

impl MarkNonzero {
    fn with_capacity(n: usize) -> MarkNonzero {
        MarkNonzero {
            dfs_stack: Vec::with_capacity(n),
            is_visited: vec![false; n],
            visited: vec![],
        }
    }

    fn clear(&mut self) {
        assert!(self.dfs_stack.is_empty());
        for &i in &self.visited {
            self.is_visited[i] = false;
        }
        self.visited.clear();
    }

    fn clear_and_resize(&mut self, n: usize) {
        self.clear();
        self.dfs_stack.reserve(n);
        self.is_visited.resize(n, false);
    }

    // compute the non-zero elements of the result by dfs traversal
    fn run<'a>(
        &mut self,
        rhs: &mut ScatteredVec,
        get_children: impl Fn(usize) -> &'a [usize] + 'a,
        filter: impl Fn(usize) -> bool,
        orig2new_row: impl Fn(usize) -> usize,
    ) {
        self.clear();

        for &orig_r in &rhs.nonzero {
            let new_r = orig2new_row(orig_r);
            if !filter(new_r) {
                continue;
            }
            if self.is_visited[orig_r] {
                continue;
            }

            self.dfs_stack.push(DfsStep {
                orig_i: orig_r,
                cur_child: 0,
            });
            while !self.dfs_stack.is_empty() {
                let cur_step = self.dfs_stack.last_mut().unwrap();
                let new_i = orig2new_row(cur_step.orig_i);
                let children = if filter(new_i) {
                    get_children(new_i)
                } else {
                    &[]
                };
                if !self.is_visited[cur_step.orig_i] {
                    self.is_visited[cur_step.orig_i] = true;
                } else {
                    cur_step.cur_child += 1;
                }

                while cur_step.cur_child < children.len() {
                    let child_orig_r = children[cur_step.cur_child];
                    if !self.is_visited[child_orig_r] {
                        break;
                    }
                    cur_step.cur_child += 1;
                }

                if cur_step.cur_child < children.len() {
                    let i_child = cur_step.cur_child;
                    self.dfs_stack.push(DfsStep {
                        orig_i: children[i_child],
                        cur_child: 0,
                    });
                } else {
                    self.visited.push(cur_step.orig_i);
                    self.dfs_stack.pop();
                }
            }
        }

        for &i in &self.visited {
            if !rhs.is_nonzero[i] {
                rhs.is_nonzero[i] = true;
                rhs.nonzero.push(i)
            }
        }
    }
}

enum Triangle {
    Lower,
    Upper,
}

fn tri_solve_dense(tri_mat: &TriangleMat, triangle: Triangle, rhs: &mut [f64]) {
    assert_eq!(tri_mat.rows(), rhs.len());
    match triangle {
        Triangle::Lower => {
            for &col in &tri_mat.active {
                tri_solve_process_col(tri_mat, col, rhs);
            }
        }

        Triangle::Upper => {
            for &col in tri_mat.active.iter().rev() {
                tri_solve_process_col(tri_mat, col, rhs);
            }
        }
    };
}

/// dlt: a right-hand side with more than 1 in DENSE_SOLVE of its entries
/// nonzero is solved densely: the depth-first search for the result's
/// pattern then costs more than the columns it would skip (two thirds of
/// the triangular solves' time on the trees' full LPs).
const DENSE_SOLVE: usize = 20;

/// dlt: so is any right-hand side of a solve whose results have been more
/// than this dense of late (a running mean, weight 1/20 to the latest, as
/// HiGHS predicts its hyper-sparse solves): a sparse column often fills in.
const DENSE_RESULT: f64 = 0.1;

/// rhs is passed via scratch.visited, scratch.values; `which` solve it is,
/// for `ScratchSpace::density`.
fn tri_solve_sparse(tri_mat: &TriangleMat, triangle: Triangle, scratch: &mut ScratchSpace, which: usize) {
    assert_eq!(tri_mat.rows(), scratch.rhs.len());

    let rhs = &mut scratch.rhs;
    if solves_densely(rhs.nonzero.len(), rhs.len(), scratch.density[which]) {
        tri_solve_dense(tri_mat, triangle, &mut rhs.values);
        for (i, &value) in rhs.values.iter().enumerate() {
            if value != 0.0 && !rhs.is_nonzero[i] {
                rhs.is_nonzero[i] = true;
                rhs.nonzero.push(i);
            }
        }
    } else {
        // compute the non-zero elements of the result by dfs traversal
        scratch.mark_nonzero.run(
            &mut scratch.rhs,
            |col| tri_mat.nondiag.col_rows(col),
            |_| true,
            |orig_i| orig_i,
        );

        // solve for the non-zero values into dense workspace.
        // rev() because DFS returns vertices in reverse topological order.
        for &col in scratch.mark_nonzero.visited.iter().rev() {
            tri_solve_process_col(tri_mat, col, &mut scratch.rhs.values);
        }
    }
    track(&mut scratch.density[which], scratch.rhs.nonzero.len(), scratch.rhs.len());
}

/// dlt: whether a triangular solve of a right-hand side with `nonzero` of
/// its `n` entries nonzero, whose results have lately been `predicted`
/// dense, is solved densely.
fn solves_densely(nonzero: usize, n: usize, predicted: f64) -> bool {
    nonzero * DENSE_SOLVE > n || predicted > DENSE_RESULT
}

/// dlt: the running density of a solve's results, `found` of `n` nonzero.
fn track(density: &mut f64, found: usize, n: usize) {
    *density = 0.95 * *density + 0.05 * (found as f64 / n.max(1) as f64);
}

fn tri_solve_process_col(tri_mat: &TriangleMat, col: usize, rhs: &mut [f64]) {
    // all other variables in this row (multiplied by their coeffs)
    // are already subtracted from rhs[col].
    let value = rhs[col];
    // dlt: a zero eliminates nothing; most of a dense solve's columns are
    // skipped so, their division too.
    if value == 0.0 {
        return;
    }
    let x_val = if let Some(diag) = tri_mat.diag.as_ref() {
        value / diag[col]
    } else {
        value
    };

    rhs[col] = x_val;
    for (r, &coeff) in tri_mat.nondiag.col_iter(col) {
        rhs[r] -= x_val * coeff;
    }
}

#[cfg(test)]
mod tests;
