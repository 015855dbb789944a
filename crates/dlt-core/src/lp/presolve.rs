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

/// How to restore one eliminated variable.
enum Step {
    Fix(usize, f64),
    /// x = (rhs - sum a_k x_k) / a, over variables still present then.
    Solve { x: usize, a: f64, rhs: f64, terms: Vec<(usize, f64)> },
}

/// A reduced model and how to map its solutions back.
pub(crate) struct Reduced {
    pub model: Model,
    /// Original index of each reduced column.
    columns: Vec<usize>,
    steps: Vec<Step>,
    total: usize,
}

impl Reduced {
    /// The original model's values from the reduced model's.
    pub fn restore(&self, values: &[f64]) -> Result<Vec<f64>, &'static str> {
        if values.len() != self.columns.len() {
            return Err("a solution of the wrong length");
        }
        let mut x = vec![0.0; self.total];
        for (&j, &v) in self.columns.iter().zip(values) {
            x[j] = v;
        }
        for step in self.steps.iter().rev() {
            match step {
                Step::Fix(j, v) => x[*j] = *v,
                Step::Solve { x: j, a, rhs, terms } => x[*j] = (rhs - terms.iter().map(|&(k, b)| b * x[k]).sum::<f64>()) / a,
            }
        }
        Ok(x)
    }
}

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
    if model.binary.iter().any(|&b| b) {
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

    fn row(&mut self, i: usize) -> Result<(), Failure> {
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
    fn doubleton(&mut self, i: usize) {
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

    fn col(&mut self, j: usize) -> Result<(), Failure> {
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
mod tests {
    use super::super::{solve, Engine, Limits, Microlp};
    use super::*;
    use crate::buffers::{star_lp, StarParams};

    /// A random feasible, bounded LP rich in what presolve removes: fixed
    /// columns, singleton rows, doubleton equations, free columns, and
    /// rows tight at a bound-attaining point (forcing rows).
    fn random_lp(rnd: &mut impl FnMut() -> f64) -> Model {
        let mut m = Model::default();
        let n = 2 + (rnd() * 10.0) as usize;
        let mut point = Vec::new();
        for j in 0..n {
            let (lo, hi) = match (rnd() * 5.0) as usize {
                0 => (f64::NEG_INFINITY, f64::INFINITY),
                1 => (0.5, 0.5),
                2 => (0.0, f64::INFINITY),
                _ => (-1.0 + rnd(), 1.0 + rnd()),
            };
            // A point at a bound where one is finite, so that rows through
            // it can be forcing.
            point.push(if lo.is_finite() && rnd() < 0.5 { lo } else if hi.is_finite() { hi.min(lo.max(0.3)) } else { 0.3 });
            m.var(alloc::format!("x{j}"), lo, hi, rnd() * 2.0 - 0.5);
        }
        let rows = 1 + (rnd() * 10.0) as usize;
        for i in 0..rows {
            let len = 1 + (rnd() * 3.0) as usize;
            let mut terms: Vec<(Var, f64)> = (0..len).map(|_| (Var((rnd() * n as f64) as usize), if rnd() < 0.5 { -1.0 - rnd() } else { 1.0 + rnd() })).collect();
            terms.sort_by_key(|t| t.0);
            terms.dedup_by_key(|t| t.0);
            let at: f64 = terms.iter().map(|&(v, a)| a * point[v.0]).sum();
            let (sense, slack) = match (rnd() * 3.0) as usize {
                0 => (Sense::Eq, 0.0),
                1 => (Sense::Le, if rnd() < 0.5 { 0.0 } else { rnd() }),
                _ => (Sense::Ge, if rnd() < 0.5 { 0.0 } else { -rnd() }),
            };
            m.row(alloc::format!("r{i}"), terms, sense, at + slack);
        }
        // Bounded: every column within [-10, 10] by rows of its own.
        for j in 0..n {
            m.row(alloc::format!("box{j}"), vec![(Var(j), 1.0)], Sense::Le, 10.0);
            m.row(alloc::format!("xob{j}"), vec![(Var(j), 1.0)], Sense::Ge, -10.0);
        }
        m
    }

    #[test]
    fn same_optimum_with_and_without_presolve() {
        let mut rnd = crate::uniform(41);
        let mut reduced_some = 0;
        for case in 0..3000 {
            let lp = random_lp(&mut rnd);
            let plain = Microlp.solve(&lp, Limits::default()).unwrap_or_else(|f| panic!("case {case}: {f:?}"));
            let with = solve(&Microlp, &lp, Limits::default(), "random").unwrap_or_else(|e| panic!("case {case}: {e:?}\n{lp:?}"));
            let scale = plain.objective.abs().max(1.0);
            assert!((with.objective - plain.objective).abs() <= 1e-9 * scale, "case {case}: {} with presolve, {} without\n{lp:?}", with.objective, plain.objective);
            reduced_some += (presolve(&lp).unwrap().model.names.len() < lp.names.len()) as usize;
        }
        assert!(reduced_some > 1000, "presolve removed columns in only {reduced_some} LPs");
    }

    #[test]
    fn infeasible_bounds_are_found() {
        let mut m = Model::default();
        let x = m.var("x", 0.0, 1.0, 1.0);
        let y = m.var("y", 0.0, 1.0, 1.0);
        m.row("sum", vec![(x, 1.0), (y, 1.0)], Sense::Ge, 3.0);
        assert_eq!(presolve(&m).err(), Some(Failure::Infeasible));
    }

    /// The case: with n = n_min and m n D = V the load row forces
    /// every chunk to D, and the chains then fix the rest, as in HiGHS.
    #[test]
    fn star_at_full_buffers_needs_no_engine_iteration() {
        for (m, n) in [(10.0, 100.0), (7.0, 13.0)] {
            let v = 1e6;
            let params = StarParams { m, load: crate::costs::Load::new(1e-3, 1e-6, 1e-3, v), d: Some(v / (m * n)), n: None, prune: Some(false) };
            let (lp, _) = star_lp(&params).unwrap();
            assert!(presolve(&lp).unwrap().model.names.is_empty());
            assert_eq!(solve(&Microlp, &lp, Limits::default(), "star").unwrap().iterations, 0);
        }
    }
}
