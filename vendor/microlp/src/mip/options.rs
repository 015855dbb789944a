//! The public options of a solve and what it reports back: what it was asked
//! to do ([`SolveOptions`], [`ResumeOptions`], [`Tolerances`]), how it ended
//! ([`SolutionStatus`], [`TerminationReason`]) and what it cost ([`Stats`]).

use crate::{Error, Variable};
use core::time::Duration;

/// Whether a usable solution is proven optimal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolutionStatus {
    /// The solver completed the optimality proof ([`Tolerances::feasibility`]
    /// says what that means on an ill-conditioned problem).
    Optimal,
    /// A valid incumbent is available, but exact optimality was not proven.
    Feasible,
}

/// Why a solve or resume call returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TerminationReason {
    /// The LP or branch-and-bound optimality proof completed.
    ProvenOptimal,
    /// The configured relative MIP gap was reached before exact proof completed.
    MipGap,
    /// The wall-clock budget for this call was exhausted.
    TimeLimit,
    /// The branch-and-bound node budget for this call was exhausted.
    NodeLimit,
}

/// Options controlling a solve. Construct with [`SolveOptions::default`] and
/// mutate the fields you need.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct SolveOptions {
    /// Wall-clock budget for this call (`None` = unlimited, as is a budget too
    /// long to add to the current time, such as [`Duration::MAX`]). On expiry
    /// the search stops and can be resumed.
    pub time_limit: Option<Duration>,
    /// Maximum number of branch & bound nodes to solve in this call
    /// (`None` = unlimited). Deterministic alternative to `time_limit`; the
    /// budget applies per call, so [`crate::SolveOutcome::resume`] reapplies it
    /// as a fresh budget. The root relaxation does not count as a node.
    pub node_limit: Option<u64>,
    /// Relative MIP gap at which the search may stop with a feasible incumbent.
    /// Such a stop reports [`SolutionStatus::Feasible`] and
    /// [`TerminationReason::MipGap`]. Must be finite and non-negative. Default
    /// `0.0` (prove exact optimality).
    pub mip_gap: f64,
    /// Integrality tolerance, for acceptance only: a value within this distance
    /// of an integer counts as integral, while the search seeks solutions whose
    /// integer variables are integral (see [`SolveOptions::presolve`]). A
    /// solution reports an integer or boolean variable's value as the solver
    /// computed it, within this distance of an integer, not necessarily on it:
    /// values like `0.9999999` are normal (one fixed at an integer, by its
    /// bounds, the search or an edit, lies on it). Round it where an exact
    /// integer is needed: [`crate::Solution::var_domain`] tells which
    /// variables are integer or boolean, and its documentation why the
    /// rounded values need not meet the constraints. Keep a big-M coefficient
    /// times this tolerance small against the quantities it bounds. It also
    /// decides integrality in [`crate::Solution::fix_var`] and in the check of
    /// an incumbent kept across an edit. Default `1e-6`. Must be finite and
    /// in the half-open range `[0, 0.5)`.
    pub int_tol: f64,
    /// Optional (partial) starting assignment used to seed the incumbent of a
    /// problem with integer or boolean variables. The variables it leaves out
    /// are completed by an LP; a hint that is invalid or infeasible for the
    /// model (a value outside its variable's bounds, or one the constraints
    /// exclude), or whose completion is fractional or fails, is ignored. A
    /// value that is NaN or infinite, or a variable outside the problem, makes
    /// the solve return [`Error::InvalidOperation`] instead. A problem with
    /// only real variables (dlt) starts its simplex from the basis the hint
    /// suggests, the variables it leaves out where the slack basis puts them:
    /// those strictly between their bounds basic, and the rows tight at the
    /// point out of the basis (`Solver::crash_basis`); the answer is the
    /// same optimum, found in fewer iterations where the hint is near it.
    /// Default `None`.
    pub warm_start: Option<Vec<(Variable, f64)>>,
    /// Enable presolve, which reduces the problem before the search starts
    /// (dropping redundant rows and, for integer variables, tightening bounds,
    /// fixing variables and tightening big-M coefficients). It never removes
    /// variables or changes a continuous variable's bounds, and it keeps, up
    /// to round-off, every point whose integer variables are exactly integral
    /// that meets each constraint within the tolerance the simplex holds it to
    /// (see [`Tolerances::feasibility`]) and each bound within its tolerance,
    /// or, where it fixes a variable because of the objective, an optimum.
    /// Solutions are always checked against the problem as you wrote it. A
    /// solution relying on `int_tol`, an integer variable off its integer
    /// under a coefficient that makes the offset count, is never sought: it is
    /// returned where the search lands on one, and where the objective can
    /// improve forever such a landing answers `Unbounded`. A problem with no
    /// solution whose integer variables are integral is answered `Infeasible`
    /// unless that happens, with presolve on or off. If presolve finds the
    /// problem infeasible, the problem is solved without it. Disable it only to
    /// compare raw solver behavior or to rule it out when investigating a
    /// numerical issue. Default `true`.
    pub presolve: bool,
    /// Let presolve fix an integer variable by an optimality argument (dual
    /// fixing): a variable that neither the objective nor any of its rows
    /// gives a reason to move off one of its bounds is fixed at that bound.
    /// That keeps an optimum, not every feasible point, so it can remove
    /// alternative optima and feasible points the objective does not prefer.
    /// Turn it off when every integral point must stay reachable, for example
    /// to enumerate the solutions within an objective cutoff by adding
    /// constraints and solving again, or to rule it out when investigating a
    /// result. It takes effect only with [`SolveOptions::presolve`] on and for
    /// a problem with integer or boolean variables, and a
    /// [`SolveOptions::warm_start`] hint turns it off, so that a feasible hint
    /// is never excluded. Default `true`.
    pub dual_fixing: bool,
    /// The tolerances of the solve. Most callers should leave this at
    /// [`Tolerances::default`]; override an individual field only once you
    /// understand the correctness/permissiveness trade-off documented on it.
    pub tolerances: Tolerances,
}

impl Default for SolveOptions {
    fn default() -> Self {
        Self {
            time_limit: None,
            node_limit: None,
            mip_gap: 0.0,
            int_tol: 1e-6,
            warm_start: None,
            presolve: true,
            dual_fixing: true,
            tolerances: Tolerances::default(),
        }
    }
}

impl SolveOptions {
    pub(crate) fn validate(&self) -> Result<(), Error> {
        if !self.mip_gap.is_finite() || self.mip_gap < 0.0 {
            return Err(Error::InvalidOptions(
                "invalid SolveOptions.mip_gap: expected a finite non-negative value".to_string(),
            ));
        }
        if !self.int_tol.is_finite() || !(0.0..0.5).contains(&self.int_tol) {
            return Err(Error::InvalidOptions(
                "invalid SolveOptions.int_tol: expected a finite value in [0, 0.5)".to_string(),
            ));
        }
        if !self.tolerances.feasibility.is_finite()
            || self.tolerances.feasibility < MIN_FEASIBILITY_TOLERANCE
        {
            return Err(Error::InvalidOptions(format!(
                "invalid SolveOptions.tolerances.feasibility: expected a finite value of at least \
                 {MIN_FEASIBILITY_TOLERANCE:e}"
            )));
        }
        if !self.tolerances.prune_epsilon.is_finite() || self.tolerances.prune_epsilon < 0.0 {
            return Err(Error::InvalidOptions(
                "invalid SolveOptions.tolerances.prune_epsilon: expected a finite non-negative value"
                    .to_string(),
            ));
        }
        Ok(())
    }
}

/// Overrides for the solver settings used for a subsequent search/resume call.
///
/// These fields override the ones defined in the previous call to
/// [`Problem::solve_with`](crate::Problem::solve_with) or
/// [`SolveOutcome::resume_with`](crate::SolveOutcome::resume_with).
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct ResumeOptions {
    /// New wall-clock budget (`None` = unlimited, as is a budget too long to
    /// add to the current time, such as [`Duration::MAX`]).
    pub time_limit: Option<Duration>,
    /// New branch-and-bound node budget (`None` = unlimited).
    pub node_limit: Option<u64>,
    /// New relative MIP gap (`None` = no MIP gap / exact optimality `0.0`).
    pub mip_gap: Option<f64>,
}

impl ResumeOptions {
    pub(crate) fn validate(&self) -> Result<(), Error> {
        if let Some(mip_gap) = self.mip_gap {
            if !mip_gap.is_finite() || mip_gap < 0.0 {
                return Err(Error::InvalidOptions(
                    "invalid ResumeOptions.mip_gap: expected a finite non-negative value"
                        .to_string(),
                ));
            }
        }
        Ok(())
    }
}

/// The smallest accepted [`Tolerances::feasibility`]. Below it the tolerance
/// stops being one: at zero, every bound at zero is held exactly and every
/// row to the bare round-off of its evaluation, so a basic value computed a
/// few ulps off a bound is infeasible and the simplex pivots on round-off.
const MIN_FEASIBILITY_TOLERANCE: f64 = 1e-10;

/// Numeric tolerances for a solve (see [`SolveOptions::tolerances`]).
///
/// The defaults suit most problems; change one only once you understand the
/// trade-off documented on it.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Tolerances {
    /// The absolute feasibility tolerance, the contract every solution meets:
    /// each variable lies within its bounds, and each constraint within its
    /// range, by at most this, or by the round-off of evaluating the bound or
    /// the constraint in `f64` where that is larger. It is checked against the
    /// problem as written on every solution before it is returned, on a
    /// candidate before it becomes the incumbent, and on a previous incumbent
    /// before it survives a [`crate::Solution`] edit.
    ///
    /// The simplex holds each bound to all of it (an integer variable its
    /// bounds fix to its value exactly) and each constraint to it less the
    /// round-off of evaluating the constraint, so a solution it finds passes
    /// the check. [`Error::Infeasible`] means it proved that no point lies
    /// within that with every integer variable at an integer within its
    /// bounds and every fixed variable at its value: a problem feasible only
    /// through the round-off of a constraint is reported infeasible, and so
    /// is one feasible only by using [`SolveOptions::int_tol`] unless the
    /// search lands on such a point (see [`SolveOptions::presolve`]).
    /// [`SolutionStatus::Optimal`] means optimal at the vertices the simplex
    /// ends at, not over every point within the tolerance: being absolute, it
    /// lets a variable with a large coefficient move its constraints far, and
    /// the objective with them (a `y` `1e-7` above its upper bound `u` lets
    /// `x <= 1e8 * y` hold at `x = 1e8 * u + 10`), which coefficients within
    /// the recommended range of the crate documentation keep small. Must be
    /// finite and at least `1e-10`. Default `1e-7`.
    pub feasibility: f64,
    /// Relative slack subtracted from the incumbent objective to form the
    /// branch & bound pruning cutoff: a node whose bound is not strictly
    /// better than `incumbent - max(prune_epsilon, prune_epsilon *
    /// |incumbent|)` is pruned. Guards against continuing to explore or
    /// retain nodes that could only ever match the incumbent to within
    /// float noise. Where every variable with a nonzero cost is an integer
    /// variable or fixed, the objective takes values a whole number of
    /// steps apart at the points whose integer variables are integral, and
    /// a node is also pruned when its bound, lowered by what the tolerances
    /// and round-off can put on it and then rounded up to the next such
    /// value, is not strictly better: then none of its points whose integer
    /// variables are integral and that meet every constraint and bound
    /// exactly is. A point that relies on the tolerances can be pruned even
    /// where it is better.
    ///
    /// Must be finite and non-negative. Default `1e-9`.
    pub prune_epsilon: f64,
}

impl Default for Tolerances {
    fn default() -> Self {
        Self {
            feasibility: 1e-7,
            prune_epsilon: 1e-9,
        }
    }
}

/// Statistics of a solve, available via [`crate::Solution::stats`],
/// [`crate::SolveOutcome::stats`] and [`crate::InterruptedSolve::stats`].
#[derive(Clone, Copy, Debug, Default)]
#[non_exhaustive]
pub struct Stats {
    /// Branch & bound nodes whose LP was solved (0 for pure-LP problems).
    pub nodes_solved: u64,
    /// Total simplex pivots across the whole solve (including the root LP).
    pub lp_iterations: u64,
    /// Wall-clock time spent inside the solver, accumulated across resumes.
    pub elapsed: Duration,
    /// Best proven bound on the objective, in user space. `None` until an
    /// incumbent or an open node exists to derive one from.
    pub best_bound: Option<f64>,
    /// Relative gap between incumbent and best bound. `None` until both are
    /// known; `Some(0.0)` once optimality is proven.
    pub gap: Option<f64>,
}
