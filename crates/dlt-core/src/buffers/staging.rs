//! The two ways the LP models re-solve: pruning (000 Sec. 3, used by the
//! stage LPs and by 002's memory LP) and, for large n at n_min, a window of
//! free stages that widens while the makespan improves.

use super::stages::{LpSize, Prune, Solved};
use crate::error::{Error, Result};
use crate::lp::{Rows, Solution};

impl LpSize {
    /// `lp` and its solution added to the work so far.
    pub(crate) fn then(&self, lp: &dyn Rows, sol: &Solution) -> LpSize {
        self.iterated(lp, sol.iterations)
    }

    /// `lp` solved in `iterations` added to the work so far.
    pub(crate) fn iterated(&self, lp: &dyn Rows, iterations: u64) -> LpSize {
        LpSize {
            variables: lp.vars(),
            rows: lp.rows(),
            nonzeros: lp.nonzeros(),
            iterations: self.iterations + iterations,
            solves: self.solves + 1,
        }
    }

    /// The work `later` did added to the work so far, with its last LP's size.
    pub(crate) fn and(&self, later: &LpSize) -> LpSize {
        LpSize { iterations: self.iterations + later.iterations, solves: self.solves + later.solves, ..later.clone() }
    }

    /// One more LP solved by its structure: no engine, no model.
    pub(crate) fn by_structure(&self) -> LpSize {
        LpSize { variables: 0, rows: 0, nonzeros: 0, iterations: self.iterations, solves: self.solves + 1 }
    }

    pub(crate) const NONE: LpSize = LpSize { variables: 0, rows: 0, nonzeros: 0, iterations: 0, solves: 0 };
}

/// Solves over `kept`; `Pruned` re-solves over what `once` says got load
/// (`Some(smaller)`) until nothing is dropped. The LPs charge start-ups
/// even for empty messages, so dropping them only helps.
pub(crate) fn pruned<K, T>(prune: Prune, mut kept: K, mut once: impl FnMut(&K) -> Result<(T, Option<K>)>) -> Result<(K, T)> {
    loop {
        match once(&kept)? {
            (_, Some(smaller)) if prune == Prune::Pruned => kept = smaller,
            (out, _) => return Ok((kept, out)),
        }
    }
}

/// Tries windows of free stages, 1 first, each answer a feasible schedule:
/// `attempt(window)` answers one and names the next window to try, or None
/// where its answer is the whole LP (or no wider window fits). Stops too
/// where the makespan stops improving; returns the best, with the work of
/// all.
pub(crate) fn widening<H>(mut attempt: impl FnMut(usize) -> Result<(Solved<H>, Option<usize>)>) -> Result<Solved<H>> {
    let mut best: Option<Solved<H>> = None;
    let mut work = LpSize::NONE;
    let mut window = 1;
    loop {
        let (solved, next) = attempt(window)?;
        work.iterations += solved.lp.iterations;
        work.solves += solved.lp.solves;
        let better = best.as_ref().is_none_or(|b| solved.makespan < b.makespan * (1.0 - 1e-12));
        if better {
            best = Some(solved);
        }
        match next {
            Some(next) if better => window = next,
            _ => break,
        }
    }
    let mut best = best.ok_or_else(|| Error::internal("no window was solved"))?;
    best.lp.iterations = work.iterations;
    best.lp.solves = work.solves;
    Ok(best)
}
