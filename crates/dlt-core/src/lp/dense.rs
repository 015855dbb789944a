//! A dense dual simplex for small LPs: the explicit inverse of the basis,
//! dual steepest-edge pricing, a bounded ratio test with bound flipping.
//! microlp's sparse LU and its set-up cost more than the pivots on LPs of
//! up to a few hundred rows (003's per-sequence LP, 41 variables and 60
//! rows, is solved about a thousand times per MIP); here an iteration is
//! two passes over an m x m matrix and one over the nonzeros.
//!
//! The models minimise with costs of one sign pattern the bounds allow
//! (Cmax or T at cost 1 from a finite lower bound): the slack basis with
//! every variable at the bound its cost points to is dual feasible, so no
//! phase 1 is needed. Where it is not, or the method stalls, it gives up
//! and `Auto` asks microlp. The inverse is updated pivot by pivot, never
//! computed afresh (its Gauss-Jordan did not fit the wasm's size budget):
//! the answer is the basis's values recomputed from it with two rounds of
//! iterative refinement, checked primal and dual feasible (an optimum by
//! weak duality) and then against the model by the verifier. On 003's
//! maps and 000's gallery (15,967 LPs) none went to microlp.

use super::{verify, Scaling, Engine, Failure, Model, Row, Sense, Solution, DENSE_ROWS};
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

#[derive(Debug, Clone, Copy, Default)]
pub struct Dense;

/// Primal and dual feasibility, on models scaled to O(1) values.
const TOL: f64 = 1e-9;
/// The smallest pivot taken.
const PIVOT: f64 = 1e-9;

impl Engine for Dense {
    fn name(&self) -> &'static str {
        "dense simplex"
    }

    fn solve(&self, model: &Model) -> Result<Solution, Failure> {
        Lp::new(model)?.run(model)
    }
}

/// `model` solved by the dense simplex and kept, where it has at most
/// DENSE_ROWS rows, no 0-1 variables, and an answer the verifier passes.
pub(super) fn small(model: &Model) -> Option<(Lp, Solution)> {
    if model.rows.len() > DENSE_ROWS || model.is_mip() {
        return None;
    }
    let mut lp = Lp::new(model).ok()?;
    let sol = lp.verified(model)?;
    Some((lp, sol))
}

fn gave(why: &str) -> Failure {
    Failure::Gave(String::from(why))
}

/// The LP in computational form: A x - r = 0, structurals x (0..n) and
/// one logical r_i per row (n + i), every one within its bounds. Rows
/// come in by `add`, each with its logical basic: the first solve starts
/// from the slack basis, a later one from the basis the last ended with
/// (a cutting-plane loop's rows, `Warm`).
pub(super) struct Lp {
    m: usize,
    n: usize,
    /// How the model is seen: x_j here is the model's over its column's scale.
    scale: Scaling,
    /// The rows' terms, and the columns of A (structurals only) built from them.
    rows: Vec<Vec<(usize, f64)>>,
    start: Vec<usize>,
    index: Vec<usize>,
    value: Vec<f64>,
    lower: Vec<f64>,
    upper: Vec<f64>,
    cost: Vec<f64>,
    /// Every variable's value; reduced costs (0 when basic).
    x: Vec<f64>,
    d: Vec<f64>,
    /// The basic variable of each row, and each variable's row if basic.
    head: Vec<usize>,
    row_of: Vec<Option<usize>>,
    /// B^-1, row-major, and its rows' squared norms (the dual steepest
    /// edge weights).
    inverse: Vec<f64>,
    weight: Vec<f64>,
    /// Scratch: the pivot row over the nonbasic columns, the entering column.
    row: Vec<(usize, f64)>,
    column: Vec<f64>,
}

impl Lp {
    /// The model at the slack basis: its variables each at the bound its
    /// cost points to (dual feasible with any rows added as basic
    /// logicals), then its rows.
    fn new(model: &Model) -> Result<Lp, Failure> {
        let n = model.names.len();
        let scale = Scaling::new(model);
        let (lower, upper): (Vec<f64>, Vec<f64>) = model.bounds.iter().enumerate().map(|(j, &b)| scale.bounds(j, b)).unzip();
        let cost: Vec<f64> = model.objective.iter().enumerate().map(|(j, c)| c * scale.column(j)).collect();
        let mut x = vec![0.0; n];
        for j in 0..n {
            let (lo, hi, c) = (lower[j], upper[j], cost[j]);
            x[j] = match (c > 0.0 || c == 0.0 && lo.is_finite(), c < 0.0 || c == 0.0 && hi.is_finite()) {
                (true, _) if lo.is_finite() => lo,
                (_, true) if hi.is_finite() => hi,
                _ if c == 0.0 => 0.0,
                _ => return Err(gave("no dual feasible slack basis")),
            };
        }
        let mut lp = Lp {
            m: 0, n, scale, rows: Vec::new(), start: vec![0; n + 1], index: Vec::new(), value: Vec::new(), lower, upper,
            d: cost.clone(), cost, x, head: Vec::new(), row_of: vec![None; n],
            inverse: Vec::new(), weight: Vec::new(), row: Vec::new(), column: Vec::new(),
        };
        lp.add(&model.rows);
        Ok(lp)
    }

    /// Adds `rows`, their logicals basic at the rows' values. The inverse
    /// grows as [[B^-1, 0], [A_nB B^-1, -I]], A_nB the new rows' terms on
    /// the basic structurals; the duals and reduced costs stay.
    pub(super) fn add(&mut self, rows: &[Row]) {
        let (n, m, k) = (self.n, self.m, rows.len());
        let size = m + k;
        let mut inverse = vec![0.0; size * size];
        for i in 0..m {
            inverse[i * size..i * size + m].copy_from_slice(&self.inverse[i * m..(i + 1) * m]);
        }
        for (t, row) in rows.iter().enumerate() {
            let i = m + t;
            let r = self.scale.row(row);
            let terms: Vec<(usize, f64)> = row.terms.iter().map(|&(v, a)| (v.0, a * self.scale.column(v.0) * r)).collect();
            for &(j, a) in &terms {
                if let Some(b) = self.row_of[j] {
                    for c in 0..m {
                        inverse[i * size + c] += a * self.inverse[b * m + c];
                    }
                }
            }
            inverse[i * size + i] = -1.0;
            let (lo, hi) = match row.sense {
                Sense::Le => (f64::NEG_INFINITY, row.rhs * r),
                Sense::Ge => (row.rhs * r, f64::INFINITY),
                Sense::Eq => (row.rhs * r, row.rhs * r),
            };
            self.lower.push(lo);
            self.upper.push(hi);
            self.cost.push(0.0);
            self.d.push(0.0);
            self.x.push(terms.iter().map(|&(j, a)| a * self.x[j]).sum());
            self.head.push(n + i);
            self.row_of.push(Some(i));
            self.rows.push(terms);
        }
        self.inverse = inverse;
        self.m = size;
        self.weight = (0..size).map(|i| self.inverse[i * size..(i + 1) * size].iter().map(|v| v * v).sum()).collect();
        self.column = vec![0.0; size];
        // The columns of A, from the rows.
        let mut count = vec![0; n + 1];
        self.rows.iter().flatten().for_each(|&(j, _)| count[j + 1] += 1);
        self.start = count.iter().scan(0, |s, &c| { *s += c; Some(*s) }).collect();
        let mut fill = self.start.clone();
        (self.index, self.value) = (vec![0; self.start[n]], vec![0.0; self.start[n]]);
        for (i, terms) in self.rows.iter().enumerate() {
            for &(j, a) in terms {
                self.index[fill[j]] = i;
                self.value[fill[j]] = a;
                fill[j] += 1;
            }
        }
    }

    /// `run`'s answer where the verifier passes it against `model`.
    pub(super) fn verified(&mut self, model: &Model) -> Option<Solution> {
        self.run(model).ok().filter(|sol| verify(model, sol).is_ok())
    }

    /// The dual simplex to an optimum from the basis at hand: the
    /// structurals' values as `model`'s solution, with its pivots.
    fn run(&mut self, model: &Model) -> Result<Solution, Failure> {
        let mut iterations = 0;
        let limit = 20 * (self.m + self.n) as u64 + 100;
        self.recompute();
        loop {
            // Optimal by the running values: confirmed by values recomputed
            // from the inverse.
            let leaving = self.leaving().or_else(|| {
                self.recompute();
                self.leaving()
            });
            let Some(r) = leaving else { break };
            self.pivot(r)?;
            iterations += 1;
            if iterations > limit {
                return Err(gave("no optimum within its iteration limit"));
            }
        }
        self.dual_feasible()?;
        let values: Vec<f64> = self.x[..self.n].iter().enumerate().map(|(j, x)| x * self.scale.column(j)).collect();
        Ok(Solution { objective: model.cost(&values), values, iterations })
    }

    /// Column j of [A | -I] as (row, coefficient) pairs.
    fn column(&self, j: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        let structural = (j < self.n).then(|| (self.start[j]..self.start[j + 1]).map(|k| (self.index[k], self.value[k])));
        let logical = (j >= self.n).then(|| (j - self.n, -1.0));
        structural.into_iter().flatten().chain(logical)
    }

    /// y . a_j for column j of [A | -I].
    fn dot(&self, j: usize, y: &[f64]) -> f64 {
        match j < self.n {
            true => (self.start[j]..self.start[j + 1]).map(|k| self.value[k] * y[self.index[k]]).sum(),
            false => -y[j - self.n],
        }
    }

    /// The basic values (B x_B = -N x_N) and the reduced costs
    /// (y = c_B B^-1) from the inverse.
    fn recompute(&mut self) {
        let m = self.m;
        let mut rhs = vec![0.0; m];
        for j in (0..self.n + m).filter(|&j| self.row_of[j].is_none() && self.x[j] != 0.0) {
            for (row, a) in self.column(j) {
                rhs[row] -= a * self.x[j];
            }
        }
        for i in 0..m {
            self.x[self.head[i]] = (0..m).map(|k| self.inverse[i * m + k] * rhs[k]).sum();
        }
        // Iterative refinement: the rows' residuals, A x - r, sent back
        // through the inverse. A running inverse after many pivots, or a
        // badly scaled basis (S = 2^32 in 003), left the load row 1e-9 off,
        // beyond the schedule checker's tolerance.
        for _ in 0..2 {
            let residual: Vec<f64> = self.rows.iter().enumerate().map(|(i, terms)| terms.iter().map(|&(j, a)| a * self.x[j]).sum::<f64>() - self.x[self.n + i]).collect();
            for i in 0..m {
                self.x[self.head[i]] -= (0..m).map(|k| self.inverse[i * m + k] * residual[k]).sum::<f64>();
            }
        }
        let y: Vec<f64> = (0..m).map(|k| (0..m).map(|i| self.cost[self.head[i]] * self.inverse[i * m + k]).sum()).collect();
        for j in 0..self.n + m {
            self.d[j] = match self.row_of[j] {
                Some(_) => 0.0,
                None => self.cost[j] - self.dot(j, &y),
            };
        }
    }

    /// The row whose basic variable is furthest outside its bounds, by
    /// dual steepest edge (its infeasibility squared over its row of
    /// B^-1's norm squared); None when all are within them.
    fn leaving(&self) -> Option<usize> {
        let mut best = (0.0, None);
        for (i, &h) in self.head.iter().enumerate() {
            let x = self.x[h];
            let out = (self.lower[h] - x).max(x - self.upper[h]);
            if out > TOL * x.abs().max(1.0) && out * out > best.0 * self.weight[i] {
                best = (out * out / self.weight[i], Some(i));
            }
        }
        best.1
    }

    /// One dual simplex iteration on row r.
    fn pivot(&mut self, r: usize) -> Result<(), Failure> {
        let m = self.m;
        let p = self.head[r];
        let to_lower = self.x[p] < self.lower[p];
        let s = if to_lower { 1.0 } else { -1.0 };
        // The bound x_p violates, where it leaves the basis.
        let bound = if to_lower { self.lower[p] } else { self.upper[p] };
        let mut row = core::mem::take(&mut self.row);
        row.clear();
        let rho = &self.inverse[r * m..(r + 1) * m];
        for j in (0..self.n + m).filter(|&j| self.row_of[j].is_none() && self.lower[j] < self.upper[j]) {
            let a = self.dot(j, rho);
            if a.abs() > PIVOT {
                row.push((j, a));
            }
        }
        let ratio = |lp: &Lp, j: usize, a: f64, slack: f64| lp.ratio(j, s * a, slack);
        // Bound flipping: while x_p stays outside its bound, the boxed
        // columns whose reduced costs would change sign first (those as
        // near as Harris's tolerance allows, in any order) move to their
        // other bounds instead of entering; of the rest as near, the one
        // of the largest pivot enters. The trees' cut LPs ask every chunk
        // at its buffer: one pivot where each chunk took one.
        let start = (self.x[p] - bound).abs();
        let mut slope = start;
        let mut shift = vec![0.0; m];
        let (q, a_rq) = 'step: loop {
            let widest = row.iter().filter_map(|&(j, a)| ratio(self, j, a, TOL)).fold(f64::INFINITY, f64::min);
            if widest == f64::INFINITY {
                return Err(gave("the dual is unbounded: the LP may be infeasible"));
            }
            let near = |lp: &Lp, &(j, a): &(usize, f64)| ratio(lp, j, a, 0.0).is_some_and(|t| t <= widest);
            for (k, &(j, a)) in row.iter().enumerate() {
                if !near(self, &(j, a)) {
                    continue;
                }
                let drop = a.abs() * (self.upper[j] - self.lower[j]);
                if drop >= slope {
                    break 'step row[k..].iter().filter(|e| near(self, e)).max_by(|x, y| x.1.abs().total_cmp(&y.1.abs())).copied().unwrap_or((j, a));
                }
                slope -= drop;
                // At its other bound it is no candidate any more.
                let to = if self.x[j] <= self.lower[j] { self.upper[j] } else { self.lower[j] };
                for (i, a) in self.column(j) {
                    shift[i] += a * (to - self.x[j]);
                }
                self.x[j] = to;
            }
        };
        // The basics as the flips moved them: x_B -= B^-1 (sum of a_j dx_j).
        for (i, &h) in self.head.iter().enumerate().filter(|_| slope < start) {
            self.x[h] -= (0..m).map(|k| self.inverse[i * m + k] * shift[k]).sum::<f64>();
        }
        let t = ratio(self, q, a_rq, 0.0).unwrap_or(0.0);
        // The entering column, B^-1 a_q.
        let mut column = core::mem::take(&mut self.column);
        column.iter_mut().for_each(|c| *c = 0.0);
        for (row, a) in self.column(q) {
            for (i, c) in column.iter_mut().enumerate() {
                *c += self.inverse[i * m + row] * a;
            }
        }
        // Primal: x_p to its violated bound, x_q by theta, the basics alike.
        let theta = (self.x[p] - bound) / column[r];
        for (i, &h) in self.head.iter().enumerate() {
            self.x[h] -= theta * column[i];
        }
        self.x[p] = bound;
        self.x[q] += theta;
        // Dual: every nonbasic reduced cost moves with the step t.
        for &(j, a) in &row {
            self.d[j] += s * t * a;
        }
        self.d[q] = 0.0;
        self.d[p] = s * t;
        // The basis and its inverse.
        self.head[r] = q;
        self.row_of[q] = Some(r);
        self.row_of[p] = None;
        let pivot = column[r];
        let (before, rest) = self.inverse.split_at_mut(r * m);
        let (pivot_row, after) = rest.split_at_mut(m);
        pivot_row.iter_mut().for_each(|v| *v /= pivot);
        self.weight[r] = pivot_row.iter().map(|v| v * v).sum();
        for (i, inv_row) in before.chunks_exact_mut(m).chain(after.chunks_exact_mut(m)).enumerate() {
            let i = if i < r { i } else { i + 1 };
            let f = column[i];
            if f != 0.0 {
                let mut norm = 0.0;
                for (v, &p) in inv_row.iter_mut().zip(pivot_row.iter()) {
                    *v -= f * p;
                    norm += *v * *v;
                }
                self.weight[i] = norm;
            }
        }
        self.row = row;
        self.column = column;
        Ok(())
    }

    /// The dual step at which nonbasic j's reduced cost reaches 0 (plus
    /// `slack`, Harris's tolerance), for pivot row entry s a = `sa`; None
    /// where the step moves it away from 0.
    fn ratio(&self, j: usize, sa: f64, slack: f64) -> Option<f64> {
        let d = self.d[j];
        match (self.x[j] <= self.lower[j], self.x[j] >= self.upper[j]) {
            (true, _) if sa < 0.0 => Some((d + slack).max(0.0) / -sa),
            (_, true) if sa > 0.0 => Some((-d + slack).max(0.0) / sa),
            (false, false) => Some(slack / sa.abs()),
            _ => None,
        }
    }

    /// Every nonbasic reduced cost of the sign its bound allows.
    fn dual_feasible(&self) -> Result<(), Failure> {
        let bad = (0..self.n + self.m).filter(|&j| self.row_of[j].is_none() && self.lower[j] < self.upper[j]).any(|j| {
            let d = self.d[j];
            let tol = TOL * self.cost[j].abs().max(1.0);
            let at_lower = self.x[j] <= self.lower[j];
            let at_upper = self.x[j] >= self.upper[j];
            (!at_lower && d > tol) || (!at_upper && d < -tol)
        });
        match bad {
            true => Err(gave("not dual feasible at the end")),
            false => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests;
