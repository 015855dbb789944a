//! A presolve in front of the engine. microlp's own presolve never removes a
//! variable, and the DLT LPs are mostly chains that a few rules dissolve: a
//! load row whose buffers force every chunk to D, then equality chains of
//! running sums and start times that collapse one link at a time. HiGHS
//! solves such LPs with no simplex iteration; so does the engine here after
//! these reductions, each exact (every optimum of the reduced LP extends to
//! an optimum of the original one):
//! - empty and singleton rows become checks and bounds;
//! - a row whose activity bounds already satisfy it (dominated) is dropped;
//! - a forcing row, whose activity can only meet its right-hand side with
//!   every variable at one bound, fixes them there;
//! - a column fixed by its bounds leaves into the right-hand sides;
//! - dual fixing: a column whose cost and every row push it the same way
//!   sits at that bound in some optimum;
//! - a doubleton equation a x + b y = r eliminates x = (r - b y)/a, with x's
//!   bounds moved onto y;
//! - a free (or implied free) column singleton takes its row with it.
//!
//! Postsolve replays the eliminations backwards, so every variable of the
//! original model gets a value; the caller verifies it against the original.

use super::{Failure, Model, Row, Sense, Var};
use alloc::collections::VecDeque;
use alloc::vec;
use alloc::vec::Vec;

/// Relative tolerance below which a slack counts as zero (forcing rows,
/// fixed columns): far below the verifier's 1e-9.
const TIGHT: f64 = 1e-12;
/// Relative violation beyond which presolve declares the LP infeasible;
/// between TIGHT and this it leaves the row to the engine.
const INFEASIBLE: f64 = 1e-9;
/// A doubleton equation is not pivoted on a coefficient this much smaller
/// than its partner: dividing by it would amplify round-off.
const PIVOT_RATIO: f64 = 1e-3;

mod postsolve;
mod rules;

pub(crate) use postsolve::Reduced;
use postsolve::Step;

struct State {
    lo: Vec<f64>,
    hi: Vec<f64>,
    cost: Vec<f64>,
    col_alive: Vec<bool>,
    /// Rows holding each column; may name dead rows or rows the column has
    /// left (checked on use).
    cols: Vec<Vec<usize>>,
    rows: Vec<Vec<(usize, f64)>>,
    sense: Vec<Sense>,
    rhs: Vec<f64>,
    row_alive: Vec<bool>,
    steps: Vec<Step>,
    queue: VecDeque<Item>,
    /// Doubleton equations wait until nothing cheaper is left: eliminating
    /// along a chain whose rows are about to become singletons would pile
    /// every row of the chain onto its last column (quadratic work).
    doubletons: Vec<usize>,
    queued_row: Vec<bool>,
    queued_col: Vec<bool>,
}

#[derive(Clone, Copy)]
enum Item {
    Row(usize),
    Col(usize),
}

fn tight(x: f64, scale: f64) -> bool {
    x.abs() <= TIGHT * scale
}

/// Reduces `model`; an LP with 0-1 variables is passed on as it is (the
/// rules here are for continuous columns).
pub(crate) fn presolve(model: &Model) -> Result<Reduced, Failure> {
    let n = model.names.len();
    let identity = || Reduced { model: model.clone(), columns: (0..n).collect(), steps: Vec::new(), total: n };
    if model.is_mip() {
        return Ok(identity());
    }
    let mut cols = vec![Vec::new(); n];
    let mut rows = Vec::with_capacity(model.rows.len());
    for (i, row) in model.rows.iter().enumerate() {
        // Duplicate entries of one column merge, zeros go.
        let mut terms: Vec<(usize, f64)> = Vec::with_capacity(row.terms.len());
        for &(Var(j), a) in &row.terms {
            match terms.iter_mut().find(|t| t.0 == j) {
                Some(t) => t.1 += a,
                None => terms.push((j, a)),
            }
        }
        terms.retain(|t| t.1 != 0.0);
        for t in &terms {
            cols[t.0].push(i);
        }
        rows.push(terms);
    }
    let m = rows.len();
    let mut st = State {
        lo: model.bounds.iter().map(|b| b.0).collect(),
        hi: model.bounds.iter().map(|b| b.1).collect(),
        cost: model.objective.clone(),
        col_alive: vec![true; n],
        cols,
        rows,
        sense: model.rows.iter().map(|r| r.sense).collect(),
        rhs: model.rows.iter().map(|r| r.rhs).collect(),
        row_alive: vec![true; m],
        steps: Vec::new(),
        queue: (0..m).map(Item::Row).chain((0..n).map(Item::Col)).collect(),
        doubletons: Vec::new(),
        queued_row: vec![true; m],
        queued_col: vec![true; n],
    };
    loop {
        let Some(item) = st.queue.pop_front() else {
            match st.doubletons.pop() {
                Some(i) if st.row_alive[i] && st.sense[i] == Sense::Eq && st.rows[i].len() == 2 => st.doubleton(i),
                Some(_) => {}
                None => break,
            }
            continue;
        };
        match item {
            Item::Row(i) => {
                st.queued_row[i] = false;
                if st.row_alive[i] {
                    st.row(i)?;
                }
            }
            Item::Col(j) => {
                st.queued_col[j] = false;
                if st.col_alive[j] {
                    st.col(j)?;
                }
            }
        }
    }
    if st.steps.is_empty() && st.row_alive.iter().all(|&a| a) {
        return Ok(identity());
    }
    Ok(st.reduced(model))
}

impl State {
    fn reduced(self, model: &Model) -> Reduced {
        let n = self.lo.len();
        let mut index = vec![usize::MAX; n];
        let mut columns = Vec::new();
        let mut out = Model::default();
        for j in (0..n).filter(|&j| self.col_alive[j]) {
            index[j] = columns.len();
            columns.push(j);
            out.var(model.names[j].clone(), self.lo[j], self.hi[j], self.cost[j]);
        }
        for (i, terms) in self.rows.iter().enumerate().filter(|&(i, _)| self.row_alive[i]) {
            let terms = terms.iter().map(|&(j, a)| (Var(index[j]), a)).collect();
            out.rows.push(Row { name: model.rows[i].name.clone(), terms, sense: self.sense[i], rhs: self.rhs[i] });
        }
        Reduced { model: out, columns, steps: self.steps, total: n }
    }
}

#[cfg(test)]
pub(super) mod tests;
