//! The LP layer: a small model builder, one engine trait, and a verifier
//! that every solution passes before anyone sees it. The DLT models build
//! their LPs here in scaled units (loads in V, times in a natural time of
//! the instance) so that the engine's absolute tolerances are relative ones.

pub mod barrier;
mod compact;
mod dense;
pub mod dual;
mod earliest;
mod export;
mod microlp_engine;
mod presolve;
mod scaling;
mod warm;

pub use compact::{Build, Compact, RowRef, Rows};
pub use export::{to_lp, to_mps, units, Units};
pub use dense::Dense;
pub use earliest::earliest;
pub use microlp_engine::Microlp;
pub use warm::Warm;
pub(crate) use scaling::Scaling;

use crate::error::{Code, Error, Result};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Relative tolerance of the verifier on every row and bound.
pub const VERIFY_TOL: f64 = 1e-9;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Var(pub usize);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sense {
    Le,
    Ge,
    Eq,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub name: String,
    pub terms: Vec<(Var, f64)>,
    pub sense: Sense,
    pub rhs: f64,
}

/// Minimise `objective . x` subject to rows and bounds; variables marked
/// `binary` take the values 0 and 1 only (a MIP).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Model {
    pub names: Vec<String>,
    pub bounds: Vec<(f64, f64)>,
    pub objective: Vec<f64>,
    pub binary: Vec<bool>,
    pub rows: Vec<Row>,
}

impl Model {
    pub fn var(&mut self, name: impl Into<String>, lower: f64, upper: f64, cost: f64) -> Var {
        self.names.push(name.into());
        self.bounds.push((lower, upper));
        self.objective.push(cost);
        self.binary.push(false);
        Var(self.names.len() - 1)
    }

    /// A 0-1 variable.
    pub fn binary(&mut self, name: impl Into<String>, cost: f64) -> Var {
        let v = self.var(name, 0.0, 1.0, cost);
        self.binary[v.0] = true;
        v
    }

    /// Room for `vars` more variables and `rows` more rows.
    pub fn reserve(&mut self, vars: usize, rows: usize) {
        self.names.reserve(vars);
        self.bounds.reserve(vars);
        self.objective.reserve(vars);
        self.binary.reserve(vars);
        self.rows.reserve(rows);
    }

    pub fn row(&mut self, name: impl Into<String>, terms: Vec<(Var, f64)>, sense: Sense, rhs: f64) {
        self.rows.push(Row { name: name.into(), terms, sense, rhs });
    }

    pub fn nonzeros(&self) -> usize {
        self.rows.iter().map(|r| r.terms.len()).sum()
    }

    /// Whether some variable is 0-1: a MIP, not an LP.
    pub fn is_mip(&self) -> bool {
        self.binary.iter().any(|&b| b)
    }

    /// The objective at `values`, recomputed from the model as written.
    pub fn cost(&self, values: &[f64]) -> f64 {
        self.objective.iter().zip(values).map(|(c, x)| c * x).sum()
    }
}

impl Row {
    /// The row's left-hand side at `sol`.
    pub fn at(&self, sol: &Solution) -> f64 {
        self.terms.iter().map(|&(v, a)| a * sol.get(v)).sum()
    }

    /// The row's left-hand side at `values`, and its size: |rhs| plus each
    /// term's magnitude, the scale of its relative tolerance.
    pub fn lhs_and_size(&self, values: &[f64]) -> (f64, f64) {
        self.terms.iter().fold((0.0, self.rhs.abs()), |(lhs, size), &(v, a)| (lhs + a * values[v.0], size + (a * values[v.0]).abs()))
    }

    /// The row's slack at `values`, relative to the size of its terms (0
    /// for an equality): below 0 where they break it.
    pub fn slack(&self, values: &[f64]) -> f64 {
        let (lhs, size) = self.lhs_and_size(values);
        let slack = match self.sense {
            Sense::Ge => lhs - self.rhs,
            Sense::Le => self.rhs - lhs,
            Sense::Eq => 0.0,
        };
        slack / size.max(1.0)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    pub values: Vec<f64>,
    pub objective: f64,
    pub iterations: u64,
}

impl Solution {
    pub fn get(&self, v: Var) -> f64 {
        self.values[v.0]
    }
}

/// The largest LP the engine is given: beyond it `solve` refuses it at
/// once, a limit every machine keeps alike (a 300,001-variable star took
/// 25 s). The engine itself runs to the end: a clock would make the answer
/// depend on the machine.
pub const MAX_VARIABLES: usize = 30_000;

#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    Infeasible,
    Unbounded,
    /// The engine's own failure, in its words.
    Gave(String),
}

/// An LP engine. Narrow on purpose: another engine is one more impl.
pub trait Engine {
    fn name(&self) -> &'static str;
    fn solve(&self, model: &Model) -> core::result::Result<Solution, Failure>;

    /// `solve`, starting where `start` (a value per variable, a point near
    /// an optimum, feasible or not) suggests, where given. It owes the same
    /// optimum; an engine without a warm start ignores the point.
    fn solve_from(&self, model: &Model, start: Option<&[f64]>) -> core::result::Result<Solution, Failure> {
        let _ = start;
        self.solve(model)
    }
}

/// The engine the models solve with: the dense simplex on LPs of at most
/// DENSE_ROWS rows, microlp on the rest and wherever the dense one gives
/// up or its answer fails the verifier (its failures are then microlp's).
#[derive(Debug, Clone, Copy, Default)]
pub struct Auto;

/// The most rows the dense simplex is tried on: its iteration costs m^2,
/// microlp's grows with the nonzeros. The trees' cut LPs (000 Sec. 4.2's
/// tree, buffers for n = 12, 15, 20 stages: 121, 151, 201 rows) took it
/// 1.18, 1.62, 2.52 ms in 5, 5, 3 iterations, microlp 2.09, 2.72, 4.60 ms;
/// before bound flipping it took 370 iterations at 201 rows.
pub const DENSE_ROWS: usize = 256;

impl Engine for Auto {
    fn name(&self) -> &'static str {
        Microlp.name()
    }

    fn solve(&self, model: &Model) -> core::result::Result<Solution, Failure> {
        Auto::near(model, None)
    }

    /// The dense simplex starts from its own slack basis.
    fn solve_from(&self, model: &Model, start: Option<&[f64]>) -> core::result::Result<Solution, Failure> {
        Auto::near(model, start)
    }
}

impl Auto {
    fn near(model: &Model, start: Option<&[f64]>) -> core::result::Result<Solution, Failure> {
        match dense::small(model) {
            Some((_, sol)) => Ok(sol),
            None => microlp_engine::solve_near(model, start),
        }
    }
}

/// The refusal of an LP `what` of `variables` beyond MAX_VARIABLES.
pub(crate) fn too_large(what: &str, variables: usize) -> Error {
    Error::new(Code::Limit, "", format!("the {what} LP has {variables} variables, more than the {MAX_VARIABLES} the calculator solves"))
}

/// Presolves, solves the rest with `engine` and verifies the answer against
/// `model` itself: every bound and row within
/// a relative VERIFY_TOL, the objective recomputed. `what` names the model
/// in error messages.
pub fn solve(engine: &dyn Engine, model: &Model, what: &str) -> Result<Solution> {
    solve_near(engine, model, None, what)
}

/// `solve`, where `start` (a value per variable of `model`) is a point near
/// an optimum that the engine starts from: the same answer, in fewer
/// iterations where the point is near.
pub fn solve_near(engine: &dyn Engine, model: &Model, start: Option<&[f64]>, what: &str) -> Result<Solution> {
    let failed = |f| failed(engine.name(), f, what);
    if model.names.len() > MAX_VARIABLES {
        return Err(too_large(what, model.names.len()));
    }
    let wrong = |why: String| wrong(engine.name(), what, why);
    let presolved = || -> Result<Solution> {
        let reduced = presolve::presolve(model).map_err(failed)?;
        // Presolve may leave nothing for the engine: then no engine is asked.
        let answer = if reduced.model.names.is_empty() {
            Solution { values: Vec::new(), objective: 0.0, iterations: 0 }
        } else {
            engine.solve_from(&reduced.model, start.map(|x| reduced.kept(x)).as_deref()).map_err(failed)?
        };
        let values = reduced.restore(&answer.values).map_err(|why| wrong(why.into()))?;
        let sol = Solution { values, objective: 0.0, iterations: answer.iterations };
        verify(model, &sol).map_err(wrong)?;
        Ok(sol)
    };
    // Eliminations amplify round-off on badly scaled models (coefficients
    // 1e20 apart): where the reduced model's answer fails the verifier or
    // the engine, the model as written is solved instead.
    let mut sol = match presolved() {
        Err(e) if e.code == Code::Internal => {
            let sol = engine.solve_from(model, start).map_err(failed)?;
            verify(model, &sol).map_err(wrong)?;
            sol
        }
        other => other?,
    };
    sol.objective = model.cost(&sol.values);
    Ok(sol)
}

/// The error of `engine`'s failure on the `what` LP.
fn failed(engine: &str, f: Failure, what: &str) -> Error {
    match f {
        Failure::Infeasible => Error::infeasible("", format!("the {what} LP has no feasible solution")),
        Failure::Unbounded => Error::internal(format!("the {what} LP is unbounded")),
        Failure::Gave(why) => Error::new(Code::Internal, "", format!("{engine} did not solve the {what} LP: {why}")),
    }
}

/// The error of `engine`'s answer to the `what` LP that fails the verifier.
fn wrong(engine: &str, what: &str, why: String) -> Error {
    Error::internal(format!("{engine} answered the {what} LP wrongly: {why}"))
}

/// Checks a solution against the model as written.
pub fn verify(model: &Model, sol: &Solution) -> core::result::Result<(), String> {
    if sol.values.len() != model.names.len() || sol.values.iter().any(|x| !x.is_finite()) {
        return Err(String::from("missing or non-finite values"));
    }
    for (i, (&x, &(lo, hi))) in sol.values.iter().zip(&model.bounds).enumerate() {
        let tol = VERIFY_TOL * x.abs().max(1.0);
        if x < lo - tol || x > hi + tol {
            return Err(format!("{} = {x} outside [{lo}, {hi}]", model.names[i]));
        }
        if model.binary[i] && x != 0.0 && x != 1.0 {
            return Err(format!("{} = {x} is not 0 or 1", model.names[i]));
        }
    }
    for row in &model.rows {
        let (lhs, scale) = row.lhs_and_size(&sol.values);
        let tol = VERIFY_TOL * scale.max(1.0);
        let ok = match row.sense {
            Sense::Le => lhs <= row.rhs + tol,
            Sense::Ge => lhs >= row.rhs - tol,
            Sense::Eq => (lhs - row.rhs).abs() <= tol,
        };
        if !ok {
            return Err(format!("row {} has {lhs} against {:?} {}", row.name, row.sense, row.rhs));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;
    use alloc::vec;

    fn tiny() -> (Model, Var, Var) {
        // min -x - 2y  s.t. x + y <= 4, x - y >= -2, 0 <= x, y <= 3.
        let mut m = Model::default();
        let x = m.var("x", 0.0, f64::INFINITY, -1.0);
        let y = m.var("y", 0.0, 3.0, -2.0);
        m.row("cap", vec![(x, 1.0), (y, 1.0)], Sense::Le, 4.0);
        m.row("gap", vec![(x, 1.0), (y, -1.0)], Sense::Ge, -2.0);
        (m, x, y)
    }

    #[test]
    fn solves_and_verifies() {
        let (m, x, y) = tiny();
        let s = solve(&Microlp, &m, "tiny").unwrap();
        assert_abs_diff_eq!(s.get(x), 1.0, epsilon = 1e-9);
        assert_abs_diff_eq!(s.get(y), 3.0, epsilon = 1e-9);
        assert_abs_diff_eq!(s.objective, -7.0, epsilon = 1e-9);
    }

    #[test]
    fn large_columns_are_scaled_by_powers_of_two() {
        let mut m = Model::default();
        let x = m.var("x", 0.0, 1e-8, 0.0);
        let y = m.var("y", 0.0, 2.0, 1.0);
        m.row("link", vec![(y, 1.0), (x, -1e10)], Sense::Ge, 1.0);
        // The scaled LP answers the model's own optimum.
        let s = solve(&Microlp, &m, "scaled").unwrap();
        assert_abs_diff_eq!(s.get(y), 1.0, epsilon = 1e-9);
        assert_abs_diff_eq!(s.get(x), 0.0, epsilon = 1e-18);
        let b = m.binary("b", 0.0);
        m.row("load", vec![(x, 3.0), (y, 0.5), (b, 4.0)], Sense::Le, 5.0);
        let scaling = Scaling::new(&m);
        assert_eq!(scaling.column(x.0), libm::ldexp(1.0, -34));
        assert!((0.5..1.0).contains(&(1e10 * scaling.column(x.0))));
        assert_eq!((scaling.column(y.0), scaling.column(b.0)), (1.0, 1.0));
        // A row with a term of 1/2 or more stays; one whose terms the
        // columns' scaling left small (3 x: 3 * 2^-34) is scaled up.
        assert_eq!(scaling.row(&m.rows[1]), 1.0);
        m.row("small", vec![(x, 3.0)], Sense::Le, 1e-8);
        let r = scaling.row(&m.rows[2]);
        assert!((0.5..1.0).contains(&(3.0 * scaling.column(x.0) * r)), "{r}");
    }

    #[test]
    fn verifier_rejects_wrong_answers() {
        let (m, _, _) = tiny();
        let bad = Solution { values: vec![2.0, 3.0], objective: -8.0, iterations: 0 };
        assert!(verify(&m, &bad).unwrap_err().contains("cap"));
        let bad = Solution { values: vec![0.0, 3.5], objective: -7.0, iterations: 0 };
        assert!(verify(&m, &bad).unwrap_err().contains("y"));
        let bad = Solution { values: vec![f64::NAN, 0.0], objective: 0.0, iterations: 0 };
        assert!(verify(&m, &bad).is_err());
    }

    /// An engine that lies, to prove `solve` never passes a wrong answer on.
    struct Liar;
    impl Engine for Liar {
        fn name(&self) -> &'static str {
            "liar"
        }
        fn solve(&self, _: &Model) -> core::result::Result<Solution, Failure> {
            Ok(Solution { values: vec![4.0, 3.0], objective: -10.0, iterations: 1 })
        }
    }

    #[test]
    fn wrong_engine_answers_become_errors() {
        let (m, _, _) = tiny();
        let e = solve(&Liar, &m, "tiny").unwrap_err();
        assert_eq!(e.code, Code::Internal);
        assert!(e.message.contains("wrongly"), "{}", e.message);
    }

    /// A row added to a kept LP: the optimum of the LP with that row solved
    /// cold, from the basis the first solve ended with (a dual simplex
    /// step), and a row that makes it infeasible an error.
    #[test]
    fn a_warm_lp_takes_rows() {
        let (m, x, y) = tiny();
        let (mut warm, first) = Warm::new(m.clone(), "tiny").unwrap();
        assert_abs_diff_eq!(first.objective, -7.0, epsilon = 1e-9);
        let row = Row { name: "low".into(), terms: vec![(x, 1.0), (y, 2.0)], sense: Sense::Le, rhs: 5.0 };
        let again = warm.add(vec![row.clone()], "tiny").unwrap();
        let mut cold = m;
        cold.rows.push(row);
        let cold = solve(&Microlp, &cold, "tiny").unwrap();
        assert_abs_diff_eq!(again.objective, cold.objective, epsilon = 1e-9);
        assert_abs_diff_eq!(again.get(x), cold.get(x), epsilon = 1e-9);
        assert_eq!(warm.model().rows.len(), 3);
        let never = Row { name: "never".into(), terms: vec![(x, 1.0)], sense: Sense::Ge, rhs: 10.0 };
        assert_eq!(warm.add(vec![never], "tiny").unwrap_err().code, Code::Infeasible);
    }

    /// Rows added at once to an LP kept by microlp (over DENSE_ROWS rows,
    /// so that the dense simplex does not take it), solved again once: the
    /// optimum of the LP with those rows solved cold.
    #[test]
    fn a_warm_lp_takes_several_rows_at_once() {
        let mut m = Model::default();
        let x: Vec<Var> = (0..DENSE_ROWS + 1).map(|i| m.var(format!("x{i}"), 0.0, 10.0, -1.0 - (i % 7) as f64)).collect();
        for (i, pair) in x.windows(2).enumerate() {
            m.row(format!("r{i}"), vec![(pair[0], 1.0), (pair[1], 1.0)], Sense::Le, 5.0 + (i % 3) as f64);
        }
        m.row("last", vec![(x[DENSE_ROWS], 1.0)], Sense::Le, 4.0);
        let (mut warm, first) = Warm::new(m.clone(), "chain").unwrap();
        let rows: Vec<Row> = (0..4).map(|k| Row { name: format!("cut{k}"), terms: vec![(x[3 * k], 1.0), (x[3 * k + 1], 2.0)], sense: Sense::Le, rhs: 3.0 }).collect();
        let again = warm.add(rows.clone(), "chain").unwrap();
        let mut cold = m;
        cold.rows.extend(rows);
        let cold = solve(&Microlp, &cold, "chain").unwrap();
        assert_abs_diff_eq!(again.objective, cold.objective, epsilon = 1e-9);
        assert!(again.objective > first.objective + 1.0, "the rows cut off the first optimum");
        assert_eq!(warm.model().rows.len(), DENSE_ROWS + 5);
    }

    /// New bounds on a kept LP, within the first ones and outside them (y
    /// at -1, where it was at least 0): the optimum of the LP so bounded
    /// solved cold, the second from the basis the first ended with (the
    /// dense simplex's LP goes to microlp at its first edit).
    #[test]
    fn a_warm_lp_takes_new_bounds() {
        let (m, x, y) = tiny();
        let (mut warm, _) = Warm::new(m.clone(), "tiny").unwrap();
        for bounds in [(0.0, 1.0), (-1.0, -1.0)] {
            let again = warm.bound(&[(y, bounds)], "tiny").unwrap();
            let mut cold = m.clone();
            cold.bounds[y.0] = bounds;
            let cold = solve(&Microlp, &cold, "tiny").unwrap();
            assert_abs_diff_eq!(again.objective, cold.objective, epsilon = 1e-9);
            assert_abs_diff_eq!(again.get(x), cold.get(x), epsilon = 1e-9);
            assert_abs_diff_eq!(again.get(y), bounds.1, epsilon = 1e-9);
        }
    }

    #[test]
    fn infeasible_and_unbounded_are_errors() {
        let mut m = Model::default();
        let x = m.var("x", 0.0, 1.0, 1.0);
        m.row("r", vec![(x, 1.0)], Sense::Ge, 2.0);
        assert_eq!(solve(&Microlp, &m, "t").unwrap_err().code, Code::Infeasible);
        let mut m = Model::default();
        let x = m.var("x", f64::NEG_INFINITY, f64::INFINITY, 1.0);
        m.row("r", vec![(x, 1.0)], Sense::Le, 2.0);
        assert!(solve(&Microlp, &m, "t").unwrap_err().message.contains("unbounded"));
    }
}
