//! Inversion of the basis matrix, and the description of a single pivot.
//!
//! [`BasisSolver`] owns the LU factorization of the basis plus the eta file of
//! pivots stacked on top of it, and answers `B^{-1} x` / `B^{-T} x` queries.
//! [`PivotChoice`] and friends are the plain-data verdict the simplex loops in
//! [`super::Solver`] produce and then apply.

use crate::{
    lu::{lu_factorize, lu_factorize_ranked, LUFactors, ScratchSpace},
    sparse::{ScatteredVec, SparseMat, SparseVec},
    CsVec,
};

use super::CsMat;

/// Outcome of the primal ratio test for one entering column.
#[derive(Debug)]
pub(crate) enum PivotChoice {
    /// Apply this pivot.
    Pivot(PivotInfo),
    /// The pivot element at `row` computed through the row and through the
    /// column disagree (see [`super::PIVOT_AGREEMENT_TOL`]), and a fresh
    /// factorization, at a raised threshold, can still settle it: the
    /// factorization is renewed before choosing again. On a fresh one at the
    /// highest threshold the ratio test judges the refined column instead
    /// (`Solver::choose_pivot`).
    Inconsistent { row: usize },
    /// Only entries whose sign the refined column leaves unresolved within
    /// their error, the last at `row`, block a step toward an
    /// infinite bound, and a fresh factorization, at a raised threshold, can
    /// still resolve them: the factorization is renewed before choosing
    /// again. On a fresh one at the highest threshold they leave a ray or the
    /// ratio test fails loudly.
    Unresolved { row: usize },
    /// No entry bounds the step toward the entering var's infinite bound, and
    /// no entry the refinement cannot resolve takes its var past its
    /// tolerances before the magnitude taken for infinite: an unbounded ray,
    /// if the reduced cost that priced the var is fresh.
    Unbounded,
    /// The entering var's reduced cost, recomputed from its column, no longer
    /// improves the objective: the value that priced it had drifted. The
    /// recomputed value has replaced it; `sign_error` where it lies on the
    /// other side of zero beyond its tolerance.
    Drifted { sign_error: bool },
}

#[derive(Debug)]
pub(crate) struct PivotInfo {
    pub(crate) col: usize,
    pub(crate) entering_new_val: f64,
    pub(crate) entering_diff: f64,

    /// Contains info about the intersection between pivot row and column.
    /// If it is None, objective can be decreased without changing the basis
    /// (simply by changing the value of non-basic variable chosen as entering)
    pub(crate) elem: Option<PivotElem>,
}

#[derive(Debug)]
pub(crate) struct PivotElem {
    pub(crate) row: usize,
    /// The pivot element as computed through the pivot column
    /// (`col_coeffs[row]`): the primal step, the eta file and both
    /// steepest-edge updates use it, so that each is consistent with the
    /// column they apply it with (the eta then represents exactly the basis
    /// the column describes).
    pub(crate) coeff: f64,
    /// The element the reduced-cost update divides by (the dual step is
    /// `d_q / dual_step_coeff` along the pivot row): in the dual simplex the
    /// element computed through the pivot row, the row the update runs
    /// along; in the primal simplex the column element.
    pub(crate) dual_step_coeff: f64,
    pub(crate) leaving_new_val: f64,
}

/// Outcome of the dual ratio test for one leaving row.
#[derive(Debug)]
pub(crate) enum DualRatioTest {
    /// Apply this step.
    Step(DualStep),
    /// A var that could enter has a reduced cost beyond its tolerance on its
    /// infeasible side, so no step keeps the reduced costs dual feasible:
    /// the reduced costs are to be recomputed and their infeasibilities
    /// corrected before the row is tried again.
    DualInfeasible,
    /// No var can enter, and none can absorb the move: the row may prove
    /// the model infeasible, which only a proof on the model's data decides
    /// ([`super::Solver::prove_infeasible`]).
    NoCandidate,
}

#[cfg(test)]
impl DualRatioTest {
    /// The step, for a test that expects one.
    pub(crate) fn step(self) -> DualStep {
        match self {
            Self::Step(step) => step,
            other => panic!("expected a dual step, got {other:?}"),
        }
    }
}

/// A step of the dual ratio test for one leaving row: the non-basic vars to
/// move to their other bound (bound flips, which leave the basis as it is),
/// then the var that enters.
#[derive(Debug)]
pub(crate) struct DualStep {
    /// `(col, new_val)`: a non-basic column and the value it moves to.
    pub(crate) flips: Vec<(usize, f64)>,
    /// `(col, coeff)`: the entering column and its entry in the leaving row
    /// (the element computed through the row).
    pub(crate) entering: (usize, f64),
    /// Whether the dual step is zero: the entering var's reduced cost lies
    /// on the side of zero the step would push it away from (within its
    /// tolerance, as the Harris pass allows), or it enters by absorbing the
    /// move. The step then leaves every reduced cost as it is, and the
    /// entering var's cost is shifted so that its own is zero, instead of a
    /// step backwards.
    pub(crate) zero_step: bool,
    /// For an absorbing entry whose move crosses the bound it sits at, that
    /// bound: the upper one if `true`.
    pub(crate) crosses: Option<bool>,
    /// Whether the entry was read off the refined row: a pivot the growth test
    /// refined its row for, or a genuine entry of the first last resort, which
    /// enters whatever its size (see `Solver::genuine_entry_step`). The
    /// pivot's column is then refined too before the two are compared.
    pub(crate) refined: bool,
}

/// Stuff related to inversion of the basis matrix
#[derive(Clone)]
pub(crate) struct BasisSolver {
    pub(crate) lu_factors: LUFactors,
    pub(crate) lu_factors_transp: LUFactors,
    pub(crate) scratch: ScratchSpace,
    pub(crate) eta_matrices: EtaMatrices,
    pub(crate) rhs: ScatteredVec,
}

impl BasisSolver {
    /// Record the basis change `B' = B E` as the eta column of `E^{-1}`: the
    /// diagonal entry is `1 / pivot` and the off-diagonal entries are
    /// `alpha_i / pivot`, where `alpha = B^{-1} a_entering` is `col_coeffs`.
    /// The forward application is then `x_r' = x_r / pivot`,
    /// `x_i' = x_i - x_r alpha_i / pivot` (see [`Self::apply_etas`]).
    ///
    /// The diagonal is stored as `1 / pivot` itself, not as `1 - 1 / pivot`
    /// applied by subtraction: for a large pivot `1 - 1 / pivot` rounds to
    /// within an ulp of one, and `x_r - x_r (1 - 1 / pivot)` cancels away all
    /// but a few digits of `x_r / pivot`, an error every later solve through
    /// the eta would carry, a recomputation of the basic values included.
    pub(crate) fn push_eta_matrix(
        &mut self,
        col_coeffs: &SparseVec,
        r_leaving: usize,
        pivot_coeff: f64,
    ) {
        let coeffs = col_coeffs.iter().map(|(r, &coeff)| {
            let val = if r == r_leaving {
                1.0 / pivot_coeff
            } else {
                coeff / pivot_coeff
            };
            (r, val)
        });
        self.eta_matrices.push(r_leaving, coeffs);
    }

    /// Forward eta application (Vanderbei p.139): `x <- E_k^{-1} ... E_1^{-1} x`
    /// on a dense vector.
    fn apply_etas(eta_matrices: &EtaMatrices, x: &mut [f64]) {
        for idx in 0..eta_matrices.len() {
            let r_leaving = eta_matrices.leaving_rows[idx];
            let x_r = x[r_leaving];
            if x_r == 0.0 {
                continue;
            }
            for (r, &val) in eta_matrices.coeff_cols.col_iter(idx) {
                if r == r_leaving {
                    x[r] = x_r * val;
                } else {
                    x[r] -= x_r * val;
                }
            }
        }
    }

    /// Transposed eta application: `y <- E_1^{-T} ... E_k^{-T} y` on a dense
    /// vector, i.e. `y_r' = y_r / pivot - sum_{i != r} (alpha_i / pivot) y_i`.
    fn apply_etas_transp(eta_matrices: &EtaMatrices, y: &mut [f64]) {
        for idx in (0..eta_matrices.len()).rev() {
            let r_leaving = eta_matrices.leaving_rows[idx];
            let mut diag = 0.0;
            let mut acc = 0.0;
            for (i, &val) in eta_matrices.coeff_cols.col_iter(idx) {
                if i == r_leaving {
                    diag = val;
                } else {
                    acc += val * y[i];
                }
            }
            debug_assert!(diag != 0.0, "eta column without its pivot entry");
            y[r_leaving] = diag * y[r_leaving] - acc;
        }
    }

    /// Factorize the basis `basic_vars` afresh, with no etas, at the pivot
    /// `threshold` of [`lu_factorize`]. Returns the `(position, row)` pairs of
    /// a singular basis's dependent columns, whose places the factors give to
    /// the unit columns of those rows: the caller makes the basis match.
    pub(crate) fn reset(
        &mut self,
        orig_constraints_csc: &CsMat,
        basic_vars: &[usize],
        threshold: f64,
    ) -> Vec<(usize, usize)> {
        self.scratch.clear_sparse(basic_vars.len());
        self.eta_matrices.clear_and_resize(basic_vars.len());
        self.rhs.clear_and_resize(basic_vars.len());
        let (lu_factors, replaced) = lu_factorize(
            basic_vars.len(),
            |c| {
                orig_constraints_csc
                    .outer_view(basic_vars[c])
                    //guaranteed to be a valid index
                    .unwrap()
                    .into_raw_storage()
            },
            threshold,
            &mut self.scratch,
        );
        self.install(lu_factors);
        replaced
    }

    /// The factorization of [`Self::reset`] with the columns taken by the
    /// `rank` of their var ([`lu_factorize_ranked`]), and the pairs its
    /// repair replaces, not put in force: the one `reset` built stays in
    /// force unless the caller installs this one ([`Self::install`]).
    pub(crate) fn factorize_ranked(
        &mut self,
        orig_constraints_csc: &CsMat,
        basic_vars: &[usize],
        threshold: f64,
        rank: impl Fn(usize) -> u8,
    ) -> (LUFactors, Vec<(usize, usize)>) {
        self.scratch.clear_sparse(basic_vars.len());
        lu_factorize_ranked(
            basic_vars.len(),
            |c| {
                orig_constraints_csc
                    .outer_view(basic_vars[c])
                    //guaranteed to be a valid index
                    .unwrap()
                    .into_raw_storage()
            },
            threshold,
            &mut self.scratch,
            |c| rank(basic_vars[c]),
        )
    }

    /// Put `lu_factors` in force: factors of the basis as it stands, the eta
    /// file empty.
    pub(crate) fn install(&mut self, lu_factors: LUFactors) {
        self.lu_factors_transp = lu_factors.transpose();
        self.lu_factors = lu_factors;
    }

    pub(crate) fn solve<'a>(
        &mut self,
        rhs: impl Iterator<Item = (usize, &'a f64)>,
    ) -> &ScatteredVec {
        self.rhs.set(rhs);
        self.lu_factors.solve(&mut self.rhs, &mut self.scratch);

        // Forward eta application on the scattered vector; same arithmetic as
        // `apply_etas`, but through `get_mut` so the nonzero pattern is kept.
        for idx in 0..self.eta_matrices.len() {
            let r_leaving = self.eta_matrices.leaving_rows[idx];
            let x_r = *self.rhs.get(r_leaving);
            if x_r == 0.0 {
                continue;
            }
            for (r, &val) in self.eta_matrices.coeff_cols.col_iter(idx) {
                if r == r_leaving {
                    *self.rhs.get_mut(r) = x_r * val;
                } else {
                    *self.rhs.get_mut(r) -= x_r * val;
                }
            }
        }

        &mut self.rhs
    }

    /// Dense counterpart of [`Self::solve`]: LU solve plus the forward eta
    /// application, so callers with dense right-hand sides (the recalcs) no
    /// longer need a full refactorization just because etas are pending.
    pub(crate) fn solve_dense_with_etas(&mut self, rhs: &mut [f64]) {
        self.lu_factors.solve_dense(rhs, &mut self.scratch);
        Self::apply_etas(&self.eta_matrices, rhs);
    }

    /// Dense counterpart of [`Self::solve_transp`]: the reverse eta
    /// application, then the transposed LU solve.
    pub(crate) fn solve_transp_dense_with_etas(&mut self, rhs: &mut [f64]) {
        Self::apply_etas_transp(&self.eta_matrices, rhs);
        self.lu_factors_transp.solve_dense(rhs, &mut self.scratch);
    }

    /// Pass right-hand side via self.rhs
    pub(crate) fn solve_transp<'a>(
        &mut self,
        rhs: impl Iterator<Item = (usize, &'a f64)>,
    ) -> &ScatteredVec {
        self.rhs.set(rhs);
        // Transposed eta application on the scattered vector; same arithmetic
        // as `apply_etas_transp`, through `get_mut` for the nonzero pattern.
        for idx in (0..self.eta_matrices.len()).rev() {
            let r_leaving = self.eta_matrices.leaving_rows[idx];
            let mut diag = 0.0;
            let mut acc = 0.0;
            for (i, &val) in self.eta_matrices.coeff_cols.col_iter(idx) {
                if i == r_leaving {
                    diag = val;
                } else {
                    acc += val * self.rhs.get(i);
                }
            }
            debug_assert!(diag != 0.0, "eta column without its pivot entry");
            let y_r = *self.rhs.get(r_leaving);
            *self.rhs.get_mut(r_leaving) = diag * y_r - acc;
        }

        self.lu_factors_transp
            .solve(&mut self.rhs, &mut self.scratch);
        &mut self.rhs
    }
}

#[derive(Clone, Debug)]
pub(crate) struct EtaMatrices {
    leaving_rows: Vec<usize>,
    pub(crate) coeff_cols: SparseMat,
}

impl EtaMatrices {
    pub(crate) fn new(n_rows: usize) -> EtaMatrices {
        EtaMatrices {
            leaving_rows: vec![],
            coeff_cols: SparseMat::new(n_rows),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.leaving_rows.len()
    }

    fn clear_and_resize(&mut self, n_rows: usize) {
        self.leaving_rows.clear();
        self.coeff_cols.clear_and_resize(n_rows);
    }

    fn push(&mut self, leaving_row: usize, coeffs: impl Iterator<Item = (usize, f64)>) {
        self.leaving_rows.push(leaving_row);
        self.coeff_cols.append_col(coeffs);
    }
}

pub(crate) fn into_resized(vec: CsVec, len: usize) -> CsVec {
    let (mut indices, mut data) = vec.into_raw_storage();

    while let Some(&i) = indices.last() {
        if i < len {
            // TODO: binary search
            break;
        }

        indices.pop();
        data.pop();
    }

    CsVec::new(len, indices, data)
}
