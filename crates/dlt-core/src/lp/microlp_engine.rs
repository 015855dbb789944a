//! The engine: microlp 0.7, the maintained continuation of minilp (which
//! panics on singular bases; see the README), run without its time limit
//! so that every machine gives the same answer.

use super::{failed as failed_by, Scaling, Engine, Failure, Model, Row, Sense, Solution, Var};
use alloc::format;
use alloc::vec::Vec;
use microlp::{ComparisonOp, OptimizationDirection, Problem, SolveOptions, SolveOutcome, Tolerances, Variable};

#[derive(Debug, Clone, Copy, Default)]
pub struct Microlp;

impl Engine for Microlp {
    fn name(&self) -> &'static str {
        "microlp"
    }

    fn solve(&self, model: &Model) -> Result<Solution, Failure> {
        solve_near(model, None)
    }

    /// microlp starts from the basis `start` suggests (`crash_basis` in
    /// its solver).
    fn solve_from(&self, model: &Model, start: Option<&[f64]>) -> Result<Solution, Failure> {
        solve_near(model, start)
    }
}

/// `model` solved, from the basis `start` suggests where given.
pub(super) fn solve_near(model: &Model, start: Option<&[f64]>) -> Result<Solution, Failure> {
    let scales = Scaling::new(model);
    let (problem, vars, _) = problem(model, &scales);
    let mut options = options(model);
    options.warm_start = start.map(|x| vars.iter().zip(x).enumerate().map(|(j, (&v, &x))| (v, x / scales.column(j))).collect());
    let outcome = problem.solve_with(options).map_err(failure)?;
    let (solution, iterations) = optimal(outcome)?;
    Ok(answer(&solution, &vars, &scales, model, iterations))
}

/// `model` as microlp's problem, scaled by `scales`, with its variables,
/// and whether a negligible term was left out.
fn problem(model: &Model, scales: &Scaling) -> (Problem, Vec<Variable>, bool) {
    let mut problem = Problem::new(OptimizationDirection::Minimize);
    let vars: Vec<_> = (0..model.names.len())
        .map(|i| if model.binary[i] { problem.add_binary_var(model.objective[i]) } else { problem.add_var(model.objective[i] * scales.column(i), scales.bounds(i, model.bounds[i])) })
        .collect();
    let mut left_out = false;
    for row in &model.rows {
        let (terms, rhs, dropped) = terms(model, row, &vars, scales);
        left_out |= dropped;
        problem.add_constraint(terms, op(row.sense), rhs);
    }
    (problem, vars, left_out)
}

/// A term whose largest value within its variable's bounds is below this
/// share of its row's scale (the largest of its right-hand side and its
/// terms' largest values, a coefficient of an unbounded variable taken as
/// the value) is left out of what the engine is given; the verifier still
/// checks the row as written, where the term is far within its tolerance.
/// microlp takes such a coefficient for a pivot like any other and its
/// proofs of blocked rows go round them: a binomial tree (p = 1, h = 6,
/// C = 1e-26, found by the fuzzer), whose communication terms are 6.5e-23
/// beside start times of 1, took 2,080 iterations and 4.7 s, and at
/// C = 1e-30 18 s to a failure. Judged on the coefficient alone, a tree of
/// 4^24 processors lost terms that mattered.
const NEGLIGIBLE: f64 = 1e-15;

/// `row`'s terms and right-hand side as microlp's, scaled, less the
/// negligible terms (a variable fixed at 0 keeps its term: nothing is
/// gained by dropping it, and pruning frees such variables again); and
/// whether any was left out.
fn terms(model: &Model, row: &Row, vars: &[Variable], scales: &Scaling) -> (Vec<(Variable, f64)>, f64, bool) {
    let reach = |v: Var| {
        let (lo, hi) = model.bounds[v.0];
        lo.abs().max(hi.abs())
    };
    let size = |&(v, a): &(Var, f64)| a.abs() * reach(v);
    let scale = row.terms.iter().map(|t| if reach(t.0).is_finite() { size(t) } else { t.1.abs() }).fold(row.rhs.abs(), f64::max);
    let negligible = |t: &(Var, f64)| size(t) > 0.0 && size(t) <= NEGLIGIBLE * scale;
    let r = scales.row(row);
    let kept = row.terms.iter().filter(|t| !negligible(t)).map(|&(v, a)| (vars[v.0], a * scales.column(v.0) * r)).collect();
    (kept, row.rhs * r, row.terms.iter().any(negligible))
}

fn op(sense: Sense) -> ComparisonOp {
    match sense {
        Sense::Le => ComparisonOp::Le,
        Sense::Ge => ComparisonOp::Ge,
        Sense::Eq => ComparisonOp::Eq,
    }
}

fn options(model: &Model) -> SolveOptions {
    let mut options = SolveOptions::default();
    // On an LP microlp's presolve only looks for redundant rows: on the
    // trees' cut LPs it took a fifth of the solve and saved no iteration
    // (the same counts on the benchmark's cases and 40 random trees). It
    // stays on for a MIP, whose 0-1 variables it tightens and fixes.
    options.presolve = model.is_mip();
    // The models are scaled to O(1) values: an absolute tolerance near
    // the engine's floor is then within the verifier's relative one.
    let mut tolerances = Tolerances::default();
    tolerances.feasibility = 1e-10;
    options.tolerances = tolerances;
    options
}

fn failure(e: microlp::Error) -> Failure {
    match e {
        microlp::Error::Infeasible => Failure::Infeasible,
        microlp::Error::Unbounded => Failure::Unbounded,
        other => Failure::Gave(format!("{other}")),
    }
}

/// The optimal solution of `outcome` and its iterations (microlp counts an
/// edited problem's from its first solve).
fn optimal(outcome: SolveOutcome) -> Result<(microlp::Solution, u64), Failure> {
    let iterations = outcome.stats().lp_iterations;
    if !outcome.is_optimal() {
        return Err(Failure::Gave(format!("stopped without an optimum: {:?}", outcome.termination_reason())));
    }
    let solution = outcome.into_solution().map_err(|i| Failure::Gave(format!("stopped: {:?}", i.termination_reason())))?;
    Ok((solution, iterations))
}

fn failed(f: Failure, what: &str) -> crate::error::Error {
    failed_by("microlp", f, what)
}

/// A `Warm` whose edit failed has no basis left to go on from.
fn lost(what: &str) -> crate::error::Error {
    failed(Failure::Gave("an earlier edit failed".into()), what)
}

fn answer(solution: &microlp::Solution, vars: &[Variable], scales: &Scaling, model: &Model, iterations: u64) -> Solution {
    // A 0-1 variable comes back within int_tol of its value: round it,
    // and let the verifier judge the rows at the rounded point.
    let values = vars.iter().zip(&model.binary).enumerate().map(|(j, (&v, &b))| if b { libm::round(solution.var_value(v)) } else { solution.var_value(v) * scales.column(j) }).collect();
    Solution { values, objective: solution.objective(), iterations }
}

/// An LP kept after its solve in microlp, that takes more rows and is
/// solved again from the basis it ended with (microlp's dual simplex).
/// No presolve; `Warm` verifies every answer.
pub(super) struct Kept {
    vars: Vec<Variable>,
    /// The scaling of the first solve, kept for rows and bounds to come.
    scales: Scaling,
    /// None once an edit has failed: the LP is lost.
    solution: Option<microlp::Solution>,
    iterations: u64,
    /// Whether a negligible term was left out (`left_out`).
    left_out: bool,
}

impl Kept {
    /// Solves `model` and keeps it, with its answer; `what` names it in errors.
    pub(super) fn new(model: &Model, what: &str) -> crate::error::Result<(Kept, Solution)> {
        let scales = Scaling::new(model);
        let (problem, vars, left_out) = problem(model, &scales);
        let outcome = problem.solve_with(options(model)).map_err(|f| failed(failure(f), what))?;
        let (solution, iterations) = optimal(outcome).map_err(|f| failed(f, what))?;
        let kept = Kept { vars, scales, solution: Some(solution), iterations, left_out };
        let sol = kept.answer(model, iterations, what)?;
        Ok((kept, sol))
    }

    /// Whether a negligible term was left out, judged on the bounds then:
    /// new bounds may make it count, and the LP is built afresh for them.
    pub(super) fn left_out(&self) -> bool {
        self.left_out
    }

    /// Adds `rows` (already in `model`, last) and solves again.
    pub(super) fn add(&mut self, model: &Model, rows: &[Row], what: &str) -> crate::error::Result<Solution> {
        let before = self.iterations;
        let rows = rows
            .iter()
            .map(|row| {
                let (terms, rhs, dropped) = terms(model, row, &self.vars, &self.scales);
                self.left_out |= dropped;
                (terms.into_iter().collect(), op(row.sense), rhs)
            })
            .collect();
        self.edit(what, |solution| solution.add_constraints(rows))?;
        self.answer(model, self.iterations - before, what)
    }

    /// Gives `vars` the bounds they have in `model` and solves again.
    pub(super) fn bound(&mut self, model: &Model, vars: &[Var], what: &str) -> crate::error::Result<Solution> {
        let before = self.iterations;
        let bounds: Vec<_> = vars.iter().map(|v| {
            let (lo, hi) = self.scales.bounds(v.0, model.bounds[v.0]);
            (self.vars[v.0], lo, hi)
        }).collect();
        self.edit(what, |solution| solution.set_var_bounds(&bounds))?;
        self.answer(model, self.iterations - before, what)
    }

    /// One edit of the kept LP, solved again from its basis.
    fn edit(&mut self, what: &str, edit: impl FnOnce(microlp::Solution) -> Result<SolveOutcome, microlp::Error>) -> crate::error::Result<()> {
        let solution = self.solution.take().ok_or_else(|| lost(what))?;
        let (solution, iterations) = optimal(edit(solution).map_err(failure).map_err(|f| failed(f, what))?).map_err(|f| failed(f, what))?;
        self.iterations = iterations;
        self.solution = Some(solution);
        Ok(())
    }

    fn answer(&self, model: &Model, iterations: u64, what: &str) -> crate::error::Result<Solution> {
        let solution = self.solution.as_ref().ok_or_else(|| lost(what))?;
        Ok(answer(solution, &self.vars, &self.scales, model, iterations))
    }
}
