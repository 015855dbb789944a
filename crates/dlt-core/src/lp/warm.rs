//! An LP kept after its solve, that takes more rows or new bounds and is
//! solved again from the basis it ended with: where a cutting-plane loop
//! adds a few rows per round, or pruning switches a stage off, a round
//! costs a few dual simplex iterations where a cold solve starts over. The
//! dense simplex keeps an LP of at most DENSE_ROWS rows (a new row's
//! logical joins its basis), microlp the rest and any the dense one gives
//! up on or answers wrongly. No presolve; every answer is
//! verified against the model with all its rows, but for the rows a
//! relaxation (`relaxed`) leaves out until an answer breaks them.

use super::dense::{self, Lp};
use super::microlp_engine::Kept;
use super::{verify, wrong, Model, Row, Solution, Var, DENSE_ROWS};
use crate::error::Result;
use alloc::boxed::Box;
use alloc::vec::Vec;

pub struct Warm {
    model: Model,
    engine: Engine,
    /// Rows of the LP left out of `model` until an answer breaks them.
    left: Vec<Row>,
}

enum Engine {
    Dense(Box<Lp>),
    Microlp(Kept),
}

impl Warm {
    /// Solves `model` and keeps it; `what` names it in errors.
    pub fn new(model: Model, what: &str) -> Result<(Warm, Solution)> {
        Warm::relaxed(model, None, what)
    }

    /// `model` solved and kept, where `near` = (x, slack), with only the
    /// rows within that relative slack of tight at x (a point near an
    /// optimum) and the equalities: a relaxation, whose answers take the
    /// rows left out as they break them (`broken`, `settled`). Rows no
    /// answer breaks stay out, and every solve is cheaper for it.
    pub fn relaxed(mut model: Model, near: Option<(&[f64], f64)>, what: &str) -> Result<(Warm, Solution)> {
        let left = near.map_or(Vec::new(), |(x, slack)| take(&mut model.rows, x, 1.0, slack));
        let (engine, sol) = match dense::small(&model) {
            // Verified by the dense simplex already.
            Some((lp, sol)) => (Engine::Dense(Box::new(lp)), sol),
            None => {
                let (kept, sol) = Kept::new(&model, what)?;
                (Engine::Microlp(kept), checked(&model, sol, what)?)
            }
        };
        Ok((Warm { model, engine, left }, sol))
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
        checked(&self.model, sol, what)
    }

    /// Gives variables new bounds, each `(var, (lower, upper))`, within
    /// their first ones or not, and solves again: microlp from the basis it
    /// ended with (a few dual simplex iterations where a cold solve starts
    /// over), the dense simplex's LP afresh by microlp, and so an LP whose
    /// negligible terms microlp was not given (`Kept::left_out`).
    pub fn bound(&mut self, bounds: &[(Var, (f64, f64))], what: &str) -> Result<Solution> {
        bounds.iter().for_each(|&(v, b)| self.model.bounds[v.0] = b);
        let vars: Vec<Var> = bounds.iter().map(|b| b.0).collect();
        let sol = match &mut self.engine {
            Engine::Microlp(kept) if !kept.left_out() => kept.bound(&self.model, &vars, what)?,
            _ => self.cold(what)?,
        };
        let sol = checked(&self.model, sol, what)?;
        self.settled(sol, what)
    }

    /// The rows left out that `sol` breaks, taken from those left out.
    pub fn broken(&mut self, sol: &Solution) -> Vec<Row> {
        take(&mut self.left, &sol.values, -1.0, 0.0)
    }

    /// Every row left out, taken from those left out.
    pub fn left_out(&mut self) -> Vec<Row> {
        core::mem::take(&mut self.left)
    }

    /// `sol` with the rows left out that it breaks added and solved
    /// again, until it breaks none: an answer of the whole LP. `bound`'s
    /// answers are settled; the iterations of all the rounds.
    pub fn settled(&mut self, mut sol: Solution, what: &str) -> Result<Solution> {
        loop {
            let broken = self.broken(&sol);
            if broken.is_empty() {
                return Ok(sol);
            }
            let iterations = sol.iterations;
            sol = self.add(broken, what)?;
            sol.iterations += iterations;
        }
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
}

/// `sol`, microlp's answer, verified against `model`, with its cost.
fn checked(model: &Model, mut sol: Solution, what: &str) -> Result<Solution> {
    verify(model, &sol).map_err(|why| wrong("microlp", what, why))?;
    sol.objective = model.cost(&sol.values);
    Ok(sol)
}

/// Takes from `rows`, in their order, those where `sign` times the row's
/// relative slack at `x` is above `above`: those far from tight, or those
/// broken.
fn take(rows: &mut Vec<Row>, x: &[f64], sign: f64, above: f64) -> Vec<Row> {
    let (mut kept, mut taken) = (Vec::new(), Vec::new());
    for row in core::mem::take(rows) {
        if sign * row.slack(x) > above { taken.push(row) } else { kept.push(row) }
    }
    *rows = kept;
    taken
}
