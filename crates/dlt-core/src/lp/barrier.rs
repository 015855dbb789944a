//! A primal-dual interior point method (Mehrotra's predictor-corrector,
//! with Gondzio's centrality correctors)
//! for LPs whose simplex runs are long: the trees' full LPs above n_min,
//! where microlp's pivots cost 7 times native HiGHS's each. Its iterates
//! are not vertices and not exact: the caller turns them into a schedule
//! (an upper bound) and a Lagrangian bound (`dual`), and keeps the answer
//! only where the two meet.

mod dualised;
mod normal;
mod ordering;
mod standard;

use super::Model;
use alloc::vec;
use alloc::vec::Vec;
use normal::{Columns, Normal};
use standard::{standard, Standard};

/// Gondzio's centrality correctors at most per iteration, how much
/// further each aims, and the gain in the steps' sum that keeps one.
/// Mehrotra's steps alone stayed at 0.05-0.6 for most iterations. On 24
/// trees of 10 layers above n_min the iterations fell from 670 to 543
/// (h = 10, n = 30, S = 1e-3: 33 -> 25; S = 1e-5: 42 -> 38; n = 100,
/// S = 1e-5: 57 -> 45), their time by 3 % (n = 30, S = 1e-3: 16 %): each
/// corrector costs a solve with the factor the iteration has. Two at
/// STRETCH 0.1 gave 581 iterations, four no more than two, 0.5 569.
const CORRECTORS: usize = 2;
const STRETCH: f64 = 0.3;
const GAIN: f64 = 0.1;

/// The regularisation of the normal equations' diagonal: what kept the
/// primal iterates of h = 10, n = 30's tree within 3e-10 of the optimum
/// (1e-10 and 1e-12 let them drift off where pivots vanish).
const DELTA: f64 = 1e-8;

/// A x, into `out`.
fn times(a: &Columns, x: &[f64], out: &mut [f64]) {
    out.iter_mut().for_each(|v| *v = 0.0);
    for (j, &xj) in x.iter().enumerate() {
        a.of(j).for_each(|p| out[a.index[p]] += a.value[p] * xj);
    }
}

/// A' y, into `out`.
fn times_transposed(a: &Columns, y: &[f64], out: &mut [f64]) {
    for (j, o) in out.iter_mut().enumerate() {
        *o = a.of(j).map(|p| a.value[p] * y[a.index[p]]).sum();
    }
}

/// The longest step in [0, 1] along `d` that keeps `value` >= 0.
fn step(value: &[f64], d: &[f64]) -> f64 {
    value.iter().zip(d).filter(|(_, &d)| d < 0.0).map(|(&v, &d)| -v / d).fold(1.0, f64::min)
}

/// What the caller makes of an iterate: go on, stop, or go on with
/// refined directions (`refine`) from now on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Look {
    Go,
    Stop,
    Sharpen,
}

/// The gap below which the method's directions are refined (`Look::Sharpen`):
/// there DELTA's bias on them is what keeps the schedule off the optimum.
/// h = 10, n = 200, S = 1e-4: the gap stood at 2.1e-9 from the 41st
/// iteration and the relaxation's simplex took 21,400 iterations (48 s in
/// all); refined from 1e-6 on, the bounds met at the 41st (8.1 s). n = 300:
/// 147 -> 12.6 s. Before the gap is that small the iterates are far from
/// the optimum and refining them gains nothing for its cost (a solve and
/// two products per direction); from the start, n = 30 and 100 took 10-35 %
/// longer.
pub const SHARPEN: f64 = 1e-6;

/// A gap counts as progress where it shrinks to this share of the last
/// that did.
const SHRINK: f64 = 0.9;

/// What a caller makes of the relative gap between the bounds it draws
/// from the iterates (a schedule, a dual bound): stop where it is within
/// `proven`, or where it has made no progress for `stall` iterations;
/// sharpen below SHARPEN; else go on.
pub struct Gap {
    proven: f64,
    stall: u64,
    then: f64,
    at: u64,
}

impl Gap {
    pub fn new(proven: f64, stall: u64) -> Gap {
        Gap { proven, stall, then: f64::INFINITY, at: 0 }
    }

    /// The gap at `iteration` (from 1): whether it made progress, and
    /// what the method does next.
    pub fn look(&mut self, iteration: u64, gap: f64) -> (bool, Look) {
        let progress = gap <= SHRINK * self.then;
        if progress {
            (self.then, self.at) = (gap, iteration);
        }
        let look = if gap <= self.proven || iteration - self.at >= self.stall {
            Look::Stop
        } else if gap <= SHARPEN {
            Look::Sharpen
        } else {
            Look::Go
        };
        (progress, look)
    }
}

/// Refinement steps against A Theta A' itself, without DELTA: one took
/// h = 10, n = 200 and 300 to their proofs in as many iterations as two.
const REFINE: usize = 1;

/// `dy`, solved from `rhs` by the factor of A Theta A' + DELTA I, refined
/// towards the solution of A Theta A' dy = rhs: DELTA's bias on dy leaves
/// A dx off b by DELTA |dy|, which near the optimum is what keeps the
/// iterates' chunks off it (h = 10, n = 200: a schedule 2.1e-9 above the
/// optimum, where the method stalled). Each step takes the factor's
/// answer to the residual; directions where A Theta A' is far below DELTA
/// (the dependent rows) gain little, and lose nothing. `t` and `r`, a
/// column's and a row's length, are scratch.
fn refine(a: &Columns, theta: &[f64], normal: &mut Normal, rhs: &[f64], dy: &mut [f64], (t, r): (&mut [f64], &mut [f64])) {
    for _ in 0..REFINE {
        times_transposed(a, dy, t);
        t.iter_mut().zip(theta).for_each(|(t, th)| *t *= th);
        times(a, t, r);
        r.iter_mut().zip(rhs).for_each(|(r, b)| *r = b - *r);
        normal.solve(r);
        dy.iter_mut().zip(r.iter()).for_each(|(y, r)| *y += r);
    }
}

/// A point of the method: primal x and the slack w = u - x of its upper
/// bounds, multipliers y and the reduced costs z (lower) and v (upper).
#[derive(Clone)]
struct Point {
    x: Vec<f64>,
    w: Vec<f64>,
    y: Vec<f64>,
    z: Vec<f64>,
    v: Vec<f64>,
}

/// Mehrotra's starting point: x the least-norm solution of A x = b, y and
/// z = c - A'y the least-squares multipliers (z split into z and v by sign
/// where x has an upper bound), each shifted into the interior and then
/// towards balanced products.
fn start(s: &Standard, normal: &mut Normal, bounded: &[bool]) -> Point {
    let (a, n) = (&s.a, s.c.len());
    normal.factor(a, &vec![1.0; n], DELTA);
    let mut y = s.b.clone();
    normal.solve(&mut y);
    let mut x = vec![0.0; n];
    times_transposed(a, &y, &mut x);
    times(a, &s.c, &mut y);
    normal.solve(&mut y);
    let mut z = vec![0.0; n];
    times_transposed(a, &y, &mut z);
    let mut w = vec![0.0; n];
    let mut v = vec![0.0; n];
    for j in 0..n {
        let reduced = s.c[j] - z[j];
        z[j] = reduced;
        if bounded[j] {
            w[j] = s.u[j] - x[j];
            (z[j], v[j]) = (reduced.max(0.0), (-reduced).max(0.0));
        }
    }
    // Into the interior: each side up by 1.5 times its most negative
    // value, then by half the products over the other side's sum, which
    // balances them (by 1 where the products vanish: nothing to balance).
    let on = |j: usize, all: bool| all || bounded[j];
    let lowest = |a: &[f64], b: &[f64]| (0..n).map(|j| if bounded[j] { a[j].min(b[j]) } else { a[j] }).fold(f64::INFINITY, f64::min);
    let lift = |values: &mut [f64], by: f64, all: bool| (0..n).filter(|&j| on(j, all)).for_each(|j| values[j] += by);
    let (primal, dual) = ((-1.5 * lowest(&x, &w)).max(0.0), (-1.5 * lowest(&z, &v)).max(0.0));
    lift(&mut x, primal, true);
    lift(&mut w, primal, false);
    lift(&mut z, dual, true);
    lift(&mut v, dual, false);
    let products: f64 = (0..n).map(|j| x[j] * z[j] + w[j] * v[j]).sum();
    let (primal_sum, dual_sum) = (0..n).fold((0.0, 0.0), |(p, d), j| (p + x[j] + w[j], d + z[j] + v[j]));
    let (primal, dual) = if products > 0.0 { (0.5 * products / dual_sum, 0.5 * products / primal_sum) } else { (1.0, 1.0) };
    lift(&mut x, primal, true);
    lift(&mut w, primal, false);
    lift(&mut z, dual, true);
    lift(&mut v, dual, false);
    Point { x, w, y, z, v }
}

/// Runs the method on `model`, showing `look` each iterate: the model's
/// variables and one multiplier per row (signed as `dual` counts them).
/// Stops where `look` says so, after `most` iterations, or where the
/// model has a free variable; refines every direction from the first
/// `Look::Sharpen` on. Returns the iterations. Where the model, or
/// `inequalities` (the same LP with its equations as inequalities, the
/// same optimum and multipliers that are the model's too), has no
/// equations and its dual's normal equations (over its columns) cost
/// DUAL_GAIN times less than the model's own (over its rows), the method
/// runs on that dual (`dualised`), each of its iterates shown as the
/// primal's. On the model itself the method keeps its equations: the
/// trees' run and load rows as inequalities took h = 10, n = 30 from a
/// proof in 20 iterations to a stall at the 10th.
pub fn interior(model: &Model, inequalities: Option<&Model>, most: u64, look: impl FnMut(&[f64], &[f64]) -> Look) -> u64 {
    Method::new(model, inequalities).map_or(0, |mut method| method.run(most, look))
}

/// The method laid out for a model (`interior`): its form chosen and its
/// normal equations' ordering and pattern found, which on a chain cost a
/// fifth of the solve (p = 1, h = 57, n = 7). Run as often as wanted.
pub struct Method {
    form: Form,
    variables: usize,
}

impl Method {
    /// None where a variable has no finite lower bound.
    pub fn new(model: &Model, inequalities: Option<&Model>) -> Option<Method> {
        Some(Method { form: form(model, inequalities)?, variables: model.names.len() })
    }

    /// Whether it runs on the dual.
    pub fn on_dual(&self) -> bool {
        matches!(self.form, Form::Dual(..))
    }

    /// `interior`'s run.
    pub fn run(&mut self, most: u64, mut look: impl FnMut(&[f64], &[f64]) -> Look) -> u64 {
        match &mut self.form {
            Form::Primal(s, normal) => run(s, normal, most, &mut look),
            Form::Dual(s, normal, back) => {
                let (mut x, mut y) = (vec![0.0; self.variables], Vec::new());
                run(s, normal, most, &mut |values, pi| {
                    back.primal(values, pi, &mut x, &mut y);
                    look(&x, &y)
                })
            }
        }
    }
}

/// The LP the method runs on, in standard form with its normal equations'
/// factor laid out: the model's, or its dual's and the map back.
enum Form {
    Primal(Standard, Normal),
    Dual(Standard, Normal, dualised::Back),
}

/// The form `interior` runs the method on; None where a variable has no
/// finite lower bound.
fn form(model: &Model, inequalities: Option<&Model>) -> Option<Form> {
    let primal = standard(model)?;
    let normal = Normal::new(&primal.a);
    let dual = (model.rows.len() > model.names.len()).then(|| dualised::dual(inequalities.unwrap_or(model))).flatten();
    if let Some((s, back)) = dual.and_then(|(dual, back)| Some((standard(&dual)?, back))) {
        let over_columns = Normal::new(&s.a);
        if DUAL_GAIN * over_columns.work() < normal.work() {
            return Some(Form::Dual(s, over_columns, back));
        }
    }
    Some(Form::Primal(primal, normal))
}

/// How many times cheaper the dual's factor must be for the method to run
/// on the dual. Its iterates are exact in the primal's rows (the dual's
/// reduced costs), but its multipliers, the dual's own variables, keep
/// the round-off of its normal equations, which the Lagrangian bound
/// pays for over every variable's range: on trees of two and three
/// layers a side (the factor 1.2-3.9 times cheaper) its bound stalled 1e-6
/// to 4e-6 below the schedule, where the method on the primal proved it
/// (h = 10, n = 30, S = 1e-3: 0.31 -> 0.82 s, the relaxation's simplex
/// doing the rest). Chains (p = 1), 9 to 38 times cheaper, are where it
/// pays: h = 49, n = 4 proven in 31 iterations, 13.1 -> 1.2 s.
const DUAL_GAIN: f64 = 8.0;

/// `interior` compiled once for every caller's `look` (a copy per caller
/// took 3.3 KB of the gzipped wasm).
fn run(s: &Standard, normal: &mut Normal, most: u64, look: &mut dyn FnMut(&[f64], &[f64]) -> Look) -> u64 {
    let (a, n, m) = (&s.a, s.c.len(), s.b.len());
    let bounded: Vec<bool> = s.u.iter().map(|u| u.is_finite()).collect();
    let mut p = start(s, normal, &bounded);
    let complements = (n + bounded.iter().filter(|&&b| b).count()) as f64;
    let (mut rb, mut rc, mut theta, mut ru) = (vec![0.0; m], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    // The vectors of an iteration, allocated once: allocated and zeroed
    // for each direction they took h = 10, n = 30's solve 0.25 -> 0.23 s
    // natively (1 % in node's wasm), the same bits. A direction's w and v
    // stay 0 where x has no upper bound.
    let zeros = || Point { x: vec![0.0; n], w: vec![0.0; n], y: vec![0.0; m], z: vec![0.0; n], v: vec![0.0; n] };
    let (mut d, mut kept) = (zeros(), zeros());
    let (mut g, mut rhs, mut residual) = (vec![0.0; n], vec![0.0; m], vec![0.0; m]);
    let (mut rxz, mut rwv) = (vec![0.0; n], vec![0.0; n]);
    let (mut corrector_xz, mut corrector_wv) = (vec![0.0; n], vec![0.0; n]);
    let mut shown = vec![0.0; s.lower.len()];
    let mut sharpen = false;
    for iteration in 1..=most {
        // Residuals: b - A x, c - A'y - z + v, and u - x - w.
        times(a, &p.x, &mut rb);
        rb.iter_mut().zip(&s.b).for_each(|(r, b)| *r = b - *r);
        times_transposed(a, &p.y, &mut rc);
        for (j, r) in rc.iter_mut().enumerate() {
            *r = s.c[j] - *r - p.z[j] + p.v[j];
        }
        ru.iter_mut().enumerate().for_each(|(j, r)| *r = if bounded[j] { s.u[j] - p.x[j] - p.w[j] } else { 0.0 });
        let mu = (0..n).map(|j| p.x[j] * p.z[j] + p.w[j] * p.v[j]).sum::<f64>() / complements;
        for j in 0..n {
            theta[j] = 1.0 / (p.z[j] / p.x[j] + if bounded[j] { p.v[j] / p.w[j] } else { 0.0 });
        }
        normal.factor(a, &theta, DELTA);
        // The Newton direction for complementarity targets rxz (x z) and
        // rwv (w v), through the normal equations for dy, into `d`; its
        // longest steps.
        let mut direction = |rxz: &[f64], rwv: &[f64], d: &mut Point| {
            g.iter_mut().enumerate().for_each(|(j, g)| *g = -rc[j] + rxz[j] / p.x[j] - if bounded[j] { (rwv[j] - p.v[j] * ru[j]) / p.w[j] } else { 0.0 });
            d.x.iter_mut().enumerate().for_each(|(j, x)| *x = theta[j] * g[j]);
            times(a, &d.x, &mut d.y);
            d.y.iter_mut().zip(&rb).for_each(|(y, r)| *y = r - *y);
            if sharpen {
                rhs.copy_from_slice(&d.y);
            }
            normal.solve(&mut d.y);
            if sharpen {
                // d.x is free until A'dy is taken into it.
                refine(a, &theta, normal, &rhs, &mut d.y, (&mut d.x, &mut residual));
            }
            times_transposed(a, &d.y, &mut d.x);
            for j in 0..n {
                d.x[j] = theta[j] * (d.x[j] + g[j]);
                d.z[j] = (rxz[j] - p.z[j] * d.x[j]) / p.x[j];
                if bounded[j] {
                    d.w[j] = ru[j] - d.x[j];
                    d.v[j] = (rwv[j] - p.v[j] * d.w[j]) / p.w[j];
                }
            }
            let primal = step(&p.x, &d.x).min(step(&p.w, &d.w));
            let dual = step(&p.z, &d.z).min(step(&p.v, &d.v));
            (primal, dual)
        };
        // The affine direction (products to 0) sets Mehrotra's target; his
        // corrector aims at it; then Gondzio's centrality correctors, while
        // they lengthen the steps by GAIN STRETCH: aim STRETCH further and
        // pull the products there that leave [target/10, 10 target] back
        // into it; the best direction so far is `kept`. One call of
        // `direction` for all: each call site was compiled in full.
        for j in 0..n {
            rxz[j] = -p.x[j] * p.z[j];
            rwv[j] = -p.w[j] * p.v[j];
        }
        let mut target = 0.0;
        let mut best: Option<(f64, f64)> = None;
        for round in 0..2 + CORRECTORS {
            let (ap, ad) = direction(&rxz, &rwv, &mut d);
            if round == 0 {
                let mu_affine = (0..n).map(|j| (p.x[j] + ap * d.x[j]) * (p.z[j] + ad * d.z[j]) + (p.w[j] + ap * d.w[j]) * (p.v[j] + ad * d.v[j])).sum::<f64>() / complements;
                target = mu * libm::pow(mu_affine / mu, 3.0);
                for j in 0..n {
                    rxz[j] = target - p.x[j] * p.z[j] - d.x[j] * d.z[j];
                    rwv[j] = if bounded[j] { target - p.w[j] * p.v[j] - d.w[j] * d.v[j] } else { 0.0 };
                }
                corrector_xz.copy_from_slice(&rxz);
                corrector_wv.copy_from_slice(&rwv);
                continue;
            }
            if best.is_some_and(|(bp, bd)| ap + ad < bp + bd + GAIN * STRETCH) {
                break;
            }
            let (tp, td) = ((ap + STRETCH).min(1.0), (ad + STRETCH).min(1.0));
            let pull = |product: f64| (0.1 * target - product).max(0.0) + (10.0 * target - product).min(0.0).max(-10.0 * target);
            for j in 0..n {
                rxz[j] = corrector_xz[j] + pull((p.x[j] + tp * d.x[j]) * (p.z[j] + td * d.z[j]));
                rwv[j] = if bounded[j] { corrector_wv[j] + pull((p.w[j] + tp * d.w[j]) * (p.v[j] + td * d.v[j])) } else { 0.0 };
            }
            core::mem::swap(&mut d, &mut kept);
            best = Some((ap, ad));
        }
        // Set by the first round after the affine one, which always runs.
        let Some((ap, ad)) = best else { return iteration };
        let d = &kept;
        let (ap, ad) = ((0.9995 * ap).min(1.0), (0.9995 * ad).min(1.0));
        let add = |to: &mut [f64], from: &[f64], by: f64| to.iter_mut().zip(from).for_each(|(t, f)| *t += by * f);
        add(&mut p.x, &d.x, ap);
        add(&mut p.w, &d.w, ap);
        add(&mut p.y, &d.y, ad);
        add(&mut p.z, &d.z, ad);
        add(&mut p.v, &d.v, ad);
        shown.iter_mut().enumerate().for_each(|(j, x)| *x = s.lower[j] + s.scale[j] * p.x[j]);
        match look(&shown, &p.y[..s.rows]) {
            Look::Stop => return iteration,
            Look::Sharpen => sharpen = true,
            Look::Go => {}
        }
    }
    most
}

#[cfg(test)]
mod tests;
