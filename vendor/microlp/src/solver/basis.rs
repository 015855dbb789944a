//! Inversion of the basis matrix, and the description of a single pivot.
//!
//! [`BasisSolver`] owns the LU factorization of the basis plus the
//! Forrest-Tomlin updates of the pivots since (`crate::lu::Updates`, the
//! eta file), and answers `B^{-1} x` / `B^{-T} x` queries.
//! [`PivotChoice`] and friends are the plain-data verdict the simplex loops in
//! [`super::Solver`] produce and then apply.

use crate::{
    lu::{lu_factorize, lu_factorize_ranked, update, LUFactors, ScratchSpace, Updates},
    sparse::ScatteredVec,
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
    /// (`col_coeffs[row]`): the primal step and both steepest-edge updates
    /// use it, so that each is consistent with the column they apply it
    /// with, and the factors' update checks its new diagonal against it.
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

/// The updates the factors take before the basis is factorized afresh, at
/// most (see [`BasisSolver::worn`]).
const UPDATE_LIMIT: usize = 100;

/// How much the factors and their row etas may grow, over the entries of
/// the factorization, before the basis is factorized afresh.
const UPDATE_GROWTH: usize = 2;

/// Stuff related to inversion of the basis matrix
#[derive(Clone)]
pub(crate) struct BasisSolver {
    pub(crate) lu_factors: LUFactors,
    pub(crate) lu_factors_transp: LUFactors,
    pub(crate) scratch: ScratchSpace,
    pub(crate) updates: Updates,
    pub(crate) rhs: ScatteredVec,
}

impl BasisSolver {
    /// Whether the factors have taken as many updates as they should: at
    /// [`UPDATE_LIMIT`] of them, or where the factors and the row etas have
    /// grown to [`UPDATE_GROWTH`] times the factorization's entries, the
    /// basis is factorized afresh instead.
    pub(crate) fn worn(&self) -> bool {
        self.updates.len() >= UPDATE_LIMIT
            || self.lu_factors.nnz() + self.updates.nnz() > UPDATE_GROWTH * self.updates.factored_nnz
    }

    /// Update the factors for the basis change that puts the var of
    /// `column` at `position` (`pivot` its element in `B^-1 column` there):
    /// false, the factors as they were, where the update would not be
    /// accurate (see [`update`]) and the basis is to be factorized afresh.
    pub(crate) fn update<'a>(&mut self, position: usize, column: impl Iterator<Item = (usize, &'a f64)>, pivot: f64) -> bool {
        update(
            &mut self.lu_factors,
            &mut self.lu_factors_transp,
            &mut self.updates,
            &mut self.scratch,
            position,
            column,
            pivot,
        )
    }

    /// Factorize the basis `basic_vars` afresh, with no updates, at the pivot
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

    /// The solver of a basis of `size` rows with the fresh factors
    /// `lu_factors`, `scratch` the space they were computed in.
    pub(crate) fn new(lu_factors: LUFactors, scratch: ScratchSpace, size: usize) -> BasisSolver {
        let (lu_factors_transp, updates) = Self::companions(&lu_factors, size);
        BasisSolver { lu_factors, lu_factors_transp, scratch, updates, rhs: ScatteredVec::empty(size) }
    }

    /// Put `lu_factors` in force: factors of the basis as it stands, no
    /// updates.
    pub(crate) fn install(&mut self, lu_factors: LUFactors) {
        (self.lu_factors_transp, self.updates) = Self::companions(&lu_factors, self.rhs.len());
        self.lu_factors = lu_factors;
    }

    /// What fresh factors of a basis of `size` rows come with: those of
    /// B^T, and no updates.
    fn companions(lu_factors: &LUFactors, size: usize) -> (LUFactors, Updates) {
        (lu_factors.transpose(), Updates::new(size, lu_factors.nnz()))
    }

    pub(crate) fn solve<'a>(
        &mut self,
        rhs: impl Iterator<Item = (usize, &'a f64)>,
    ) -> &ScatteredVec {
        self.rhs.set(rhs);
        self.lu_factors.solve(&mut self.rhs, &mut self.scratch, &self.updates);
        &mut self.rhs
    }

    /// Dense counterpart of [`Self::solve`], for the recalcs' dense
    /// right-hand sides.
    pub(crate) fn solve_dense(&mut self, rhs: &mut [f64]) {
        self.lu_factors.solve_dense(rhs, &mut self.scratch, &self.updates);
    }

    /// Dense counterpart of [`Self::solve_transp`].
    pub(crate) fn solve_transp_dense(&mut self, rhs: &mut [f64]) {
        self.lu_factors_transp.solve_dense(rhs, &mut self.scratch, &self.updates);
    }

    /// Pass right-hand side via self.rhs
    pub(crate) fn solve_transp<'a>(
        &mut self,
        rhs: impl Iterator<Item = (usize, &'a f64)>,
    ) -> &ScatteredVec {
        self.rhs.set(rhs);
        self.lu_factors_transp.solve(&mut self.rhs, &mut self.scratch, &self.updates);
        &mut self.rhs
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
