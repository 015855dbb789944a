//! The reduction rules, each exact: they queue the rows and columns they
//! change, and record in `steps` how to restore what they eliminate.

use super::postsolve::Step;
use super::{tight, Item, State, INFEASIBLE, PIVOT_RATIO};
use super::super::{Failure, Sense};
use alloc::vec::Vec;

impl State {
    fn push_row(&mut self, i: usize) {
        if self.row_alive[i] && !self.queued_row[i] {
            self.queued_row[i] = true;
            self.queue.push_back(Item::Row(i));
        }
    }

    fn push_col(&mut self, j: usize) {
        if self.col_alive[j] && !self.queued_col[j] {
            self.queued_col[j] = true;
            self.queue.push_back(Item::Col(j));
        }
    }

    /// The live rows of column j (each once), with j's coefficient.
    fn entries(&self, j: usize) -> Vec<(usize, f64)> {
        let mut rows: Vec<usize> = self.cols[j].iter().copied().filter(|&i| self.row_alive[i]).collect();
        rows.sort_unstable();
        rows.dedup();
        rows.into_iter().filter_map(|i| self.rows[i].iter().find(|t| t.0 == j).map(|&(_, a)| (i, a))).collect()
    }

    /// Drops row i; its columns may now simplify.
    fn drop_row(&mut self, i: usize) {
        self.row_alive[i] = false;
        for k in 0..self.rows[i].len() {
            let j = self.rows[i][k].0;
            self.push_col(j);
        }
    }

    /// The least and greatest value of row i's left side over the bounds.
    fn activity(&self, i: usize) -> (f64, f64) {
        let (mut min, mut max) = (0.0, 0.0);
        for &(j, a) in &self.rows[i] {
            let (l, h) = if a > 0.0 { (a * self.lo[j], a * self.hi[j]) } else { (a * self.hi[j], a * self.lo[j]) };
            min += l;
            max += h;
        }
        (min, max)
    }

    /// max(|r|, the largest |term|) of row i with every term at the bound
    /// that maximises (or minimises) the row.
    fn extreme(&self, i: usize, r: f64, maximum: bool) -> f64 {
        self.rows[i]
            .iter()
            .map(|&(j, a)| (a * if (a > 0.0) == maximum { self.hi[j] } else { self.lo[j] }).abs())
            .fold(r.abs(), f64::max)
    }

    pub(super) fn row(&mut self, i: usize) -> Result<(), Failure> {
        let r = self.rhs[i];
        let (le, ge) = (self.sense[i] != Sense::Ge, self.sense[i] != Sense::Le);
        let (min, max) = self.activity(i);
        let scale = r.abs().max(self.rows[i].iter().map(|&(j, a)| (a * self.lo[j]).abs().max((a * self.hi[j]).abs())).filter(|x| x.is_finite()).fold(0.0, f64::max));
        if (le && min - r > INFEASIBLE * scale.max(1.0)) || (ge && r - max > INFEASIBLE * scale.max(1.0)) {
            return Err(Failure::Infeasible);
        }
        if self.rows[i].len() == 1 {
            let (j, a) = self.rows[i][0];
            let bound = r / a;
            let (upper, lower) = if a > 0.0 { (le, ge) } else { (ge, le) };
            if upper && bound < self.hi[j] {
                self.hi[j] = bound;
            }
            if lower && bound > self.lo[j] {
                self.lo[j] = bound;
            }
            self.drop_row(i);
            return Ok(());
        }
        // Dominated: no point within the bounds violates it.
        if (!le || max <= r) && (!ge || min >= r) {
            self.drop_row(i);
            return Ok(());
        }
        // Forcing is judged against the terms at the bound it would fix
        // them to: a huge bound on the other side (a buffer of 1e13 load
        // units) must not make a unit's shortfall look like round-off.
        let at_min = le && min.is_finite() && tight(min - r, self.extreme(i, r, false));
        let at_max = ge && max.is_finite() && tight(max - r, self.extreme(i, r, true));
        if at_min || at_max {
            self.row_alive[i] = false;
            let terms = core::mem::take(&mut self.rows[i]);
            for &(j, a) in &terms {
                let v = if (a > 0.0) == at_min { self.lo[j] } else { self.hi[j] };
                self.fix(j, v);
            }
            return Ok(());
        }
        if self.sense[i] == Sense::Eq && self.rows[i].len() == 2 {
            self.doubletons.push(i);
        }
        Ok(())
    }

    /// a x + b y = r: x = (r - b y)/a, x's bounds onto y.
    pub(super) fn doubleton(&mut self, i: usize) {
        let [(j0, a0), (j1, a1)] = [self.rows[i][0], self.rows[i][1]];
        // Eliminate the column in fewer rows (less fill), unless its
        // coefficient is the small one.
        let fewer0 = self.entries(j0).len() <= self.entries(j1).len();
        let ((x, a), (y, b)) = if (fewer0 && a0.abs() >= PIVOT_RATIO * a1.abs()) || a1.abs() < PIVOT_RATIO * a0.abs() { ((j0, a0), (j1, a1)) } else { ((j1, a1), (j0, a0)) };
        let r = self.rhs[i];
        let (ylo, yhi) = {
            let (p, q) = ((r - a * self.lo[x]) / b, (r - a * self.hi[x]) / b);
            (p.min(q), p.max(q))
        };
        // An infinite bound of x gives a NaN or infinite one here, no bound.
        if ylo.is_finite() && ylo > self.lo[y] {
            self.lo[y] = ylo;
        }
        if yhi.is_finite() && yhi < self.hi[y] {
            self.hi[y] = yhi;
        }
        self.row_alive[i] = false;
        self.eliminate(x, a, r, &[(y, b)]);
        self.push_col(y);
    }

    /// Removes column x = (r - sum b_k x_k)/a from every live row and the
    /// objective, and records how to restore it.
    fn eliminate(&mut self, x: usize, a: f64, r: f64, others: &[(usize, f64)]) {
        let c = self.cost[x];
        if c != 0.0 {
            for &(k, b) in others {
                self.cost[k] -= c * b / a;
            }
        }
        for (i, ax) in self.entries(x) {
            let row = &mut self.rows[i];
            row.retain(|t| t.0 != x);
            self.rhs[i] -= ax * r / a;
            for &(k, b) in others {
                let add = -ax * b / a;
                match row.iter_mut().find(|t| t.0 == k) {
                    Some(t) => t.1 += add,
                    None => {
                        row.push((k, add));
                        self.cols[k].push(i);
                    }
                }
            }
            // Exact cancellation leaves no entry behind.
            row.retain(|t| t.1 != 0.0);
            self.push_row(i);
        }
        self.col_alive[x] = false;
        self.steps.push(Step::Solve { x, a, rhs: r, terms: others.to_vec() });
        for &(k, _) in others {
            self.push_col(k);
        }
    }

    /// Fixes column j at v: it leaves every row's left side.
    fn fix(&mut self, j: usize, v: f64) {
        for (i, a) in self.entries(j) {
            self.rhs[i] -= a * v;
            self.rows[i].retain(|t| t.0 != j);
            self.push_row(i);
        }
        self.col_alive[j] = false;
        self.steps.push(Step::Fix(j, v));
    }

    pub(super) fn col(&mut self, j: usize) -> Result<(), Failure> {
        let (lo, hi) = (self.lo[j], self.hi[j]);
        let scale = lo.abs().max(hi.abs());
        if lo > hi {
            if lo - hi > INFEASIBLE * scale.max(1.0) {
                return Err(Failure::Infeasible);
            }
            self.fix(j, 0.5 * (lo + hi));
            return Ok(());
        }
        if lo.is_finite() && hi.is_finite() && tight(hi - lo, scale) {
            self.fix(j, lo);
            return Ok(());
        }
        // Which way every row lets the column move freely, and whether it
        // is a singleton; Cmax is in every end row, so stop early.
        let (mut down, mut up) = (self.cost[j] >= 0.0, self.cost[j] <= 0.0);
        let mut seen: Vec<(usize, f64)> = Vec::new();
        for &i in &self.cols[j] {
            if !self.row_alive[i] || seen.iter().any(|e| e.0 == i) {
                continue;
            }
            let Some(&(_, a)) = self.rows[i].iter().find(|t| t.0 == j) else { continue };
            let s = self.sense[i];
            down &= (s == Sense::Le && a > 0.0) || (s == Sense::Ge && a < 0.0);
            up &= (s == Sense::Le && a < 0.0) || (s == Sense::Ge && a > 0.0);
            seen.push((i, a));
            if !down && !up && seen.len() > 1 {
                return Ok(());
            }
        }
        if down && lo.is_finite() {
            self.fix(j, lo);
        } else if up && hi.is_finite() {
            self.fix(j, hi);
        } else if seen.is_empty() && self.cost[j] == 0.0 {
            // Free and costless: any value does.
            self.fix(j, 0.0);
        } else if let [(i, a)] = seen[..] {
            self.singleton(j, i, a);
        }
        Ok(())
    }

    /// Column j appears in row i only. Where its bounds can never bind, the
    /// row determines it: an equation always, an inequality when the cost
    /// presses the column against the row (else the LP would be unbounded
    /// or the row slack; both are left to the engine).
    fn singleton(&mut self, j: usize, i: usize, a: f64) {
        let r = self.rhs[i];
        let free = self.lo[j] == f64::NEG_INFINITY && self.hi[j] == f64::INFINITY;
        let usable = match self.sense[i] {
            Sense::Eq => free || self.implied_free(j, i, a),
            // Le: a x <= r - rest binds when the cost wants a x larger.
            Sense::Le => free && self.cost[j] * a < 0.0,
            Sense::Ge => free && self.cost[j] * a > 0.0,
        };
        if !usable {
            return;
        }
        let others: Vec<(usize, f64)> = self.rows[i].iter().copied().filter(|t| t.0 != j).collect();
        self.row_alive[i] = false;
        self.eliminate(j, a, r, &others);
    }

    /// The other columns of equation i keep column j within its bounds.
    fn implied_free(&self, j: usize, i: usize, a: f64) -> bool {
        let (mut min, mut max) = (0.0, 0.0);
        for &(k, b) in self.rows[i].iter().filter(|t| t.0 != j) {
            let (l, h) = if b > 0.0 { (b * self.lo[k], b * self.hi[k]) } else { (b * self.hi[k], b * self.lo[k]) };
            min += l;
            max += h;
        }
        let (p, q) = ((self.rhs[i] - max) / a, (self.rhs[i] - min) / a);
        let (l, h) = (p.min(q), p.max(q));
        l >= self.lo[j] && h <= self.hi[j]
    }
}
