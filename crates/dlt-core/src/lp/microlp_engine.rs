//! The engine: microlp 0.7, the maintained continuation of minilp (which
//! panics on singular bases; see the README), run without its time limit
//! so that every machine gives the same answer.

use super::{Engine, Failure, Model, Sense, Solution};
use alloc::format;
use alloc::vec::Vec;
use microlp::{ComparisonOp, OptimizationDirection, Problem, SolveOptions, Tolerances};

#[derive(Debug, Clone, Copy, Default)]
pub struct Microlp;

impl Engine for Microlp {
    fn name(&self) -> &'static str {
        "microlp"
    }

    fn solve(&self, model: &Model) -> Result<Solution, Failure> {
        let mut problem = Problem::new(OptimizationDirection::Minimize);
        let vars: Vec<_> = (0..model.names.len())
            .map(|i| if model.binary[i] { problem.add_binary_var(model.objective[i]) } else { problem.add_var(model.objective[i], model.bounds[i]) })
            .collect();
        for row in &model.rows {
            let op = match row.sense {
                Sense::Le => ComparisonOp::Le,
                Sense::Ge => ComparisonOp::Ge,
                Sense::Eq => ComparisonOp::Eq,
            };
            problem.add_constraint(row.terms.iter().map(|&(v, a)| (vars[v.0], a)), op, row.rhs);
        }
        let mut options = SolveOptions::default();
        // The models are scaled to O(1) values: an absolute tolerance near
        // the engine's floor is then within the verifier's relative one.
        let mut tolerances = Tolerances::default();
        tolerances.feasibility = 1e-10;
        options.tolerances = tolerances;
        let outcome = problem.solve_with(options).map_err(|e| match e {
            microlp::Error::Infeasible => Failure::Infeasible,
            microlp::Error::Unbounded => Failure::Unbounded,
            other => Failure::Gave(format!("{other}")),
        })?;
        let iterations = outcome.stats().lp_iterations;
        if !outcome.is_optimal() {
            return Err(Failure::Gave(format!("stopped without an optimum: {:?}", outcome.termination_reason())));
        }
        let solution = outcome.into_solution().map_err(|i| Failure::Gave(format!("stopped: {:?}", i.termination_reason())))?;
        // A 0-1 variable comes back within int_tol of its value: round it,
        // and let the verifier judge the rows at the rounded point.
        let values = vars.iter().zip(&model.binary).map(|(&v, &b)| if b { libm::round(solution.var_value(v)) } else { solution.var_value(v) }).collect();
        Ok(Solution { values, objective: solution.objective(), iterations })
    }
}
