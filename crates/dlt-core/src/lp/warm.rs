//! An LP kept after its solve, that takes more rows or new bounds and is
//! solved again from the basis it ended with: where a cutting-plane loop
//! adds a few rows per round, or pruning switches a stage off, a round
//! costs a few dual simplex iterations where a cold solve starts over. The
//! dense simplex keeps an LP of at most DENSE_ROWS rows (a new row's
//! logical joins its basis), microlp the rest and any the dense one gives
//! up on or answers wrongly. No presolve; every answer is
//! verified against the model with all its rows.

use super::dense::{self, Lp};
use super::microlp_engine::Kept;
use super::{verify, wrong, Model, Row, Solution, Var, DENSE_ROWS};
use crate::error::Result;
use alloc::boxed::Box;
use alloc::vec::Vec;

pub struct Warm {
    model: Model,
    engine: Engine,
}

enum Engine {
    Dense(Box<Lp>),
    Microlp(Kept),
}

impl Warm {
    /// Solves `model` and keeps it; `what` names it in errors.
    pub fn new(model: Model, what: &str) -> Result<(Warm, Solution)> {
        if let Some((lp, sol)) = dense::small(&model) {
            return Ok((Warm { model, engine: Engine::Dense(Box::new(lp)) }, sol));
        }
        let (kept, sol) = Kept::new(&model, what)?;
        let warm = Warm { model, engine: Engine::Microlp(kept) };
        let sol = warm.checked(sol, what)?;
        Ok((warm, sol))
    }

    /// Adds `rows` and solves again.
    pub fn add(&mut self, rows: Vec<Row>, what: &str) -> Result<Solution> {
        let first = self.model.rows.len();
        self.model.rows.extend(rows);
        let (model, new) = (&self.model, &self.model.rows[first..]);
        let sol = match &mut self.engine {
            Engine::Dense(lp) if model.rows.len() <= DENSE_ROWS => {
                lp.add(new);
                match lp.verified(model) {
                    Some(sol) => return Ok(sol),
                    None => self.cold(what)?,
                }
            }
            Engine::Dense(_) => self.cold(what)?,
            Engine::Microlp(kept) => kept.add(model, new, what)?,
        };
        self.checked(sol, what)
    }

    /// Gives variables new bounds, each `(var, (lower, upper))`, within
    /// their first ones or not, and solves again: microlp from the basis it
    /// ended with (a few dual simplex iterations where a cold solve starts
    /// over), the dense simplex's LP afresh by microlp.
    pub fn bound(&mut self, bounds: &[(Var, (f64, f64))], what: &str) -> Result<Solution> {
        bounds.iter().for_each(|&(v, b)| self.model.bounds[v.0] = b);
        let vars: Vec<Var> = bounds.iter().map(|b| b.0).collect();
        let sol = match &mut self.engine {
            Engine::Dense(_) => self.cold(what)?,
            Engine::Microlp(kept) => kept.bound(&self.model, &vars, what)?,
        };
        self.checked(sol, what)
    }

    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The model as it stands, solved afresh by microlp, which keeps it.
    fn cold(&mut self, what: &str) -> Result<Solution> {
        let (kept, sol) = Kept::new(&self.model, what)?;
        self.engine = Engine::Microlp(kept);
        Ok(sol)
    }

    fn checked(&self, mut sol: Solution, what: &str) -> Result<Solution> {
        verify(&self.model, &sol).map_err(|why| wrong("microlp", what, why))?;
        sol.objective = self.model.cost(&sol.values);
        Ok(sol)
    }
}
