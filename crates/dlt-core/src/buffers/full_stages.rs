//! LoadDirect at n_min for large n. With n = n_min = ceil(V/(mD)) the
//! stages carry at most mD more than V: the optimum fills most stages to D
//! and leaves partial chunks at the ends (the first stages when computing
//! dominates, as HiGHS showed on m = 10; the last ones, shrinking, when
//! communication does). Here the first f and last l stages are free and the
//! middle ones full; since a middle message's end time and remaining work
//! are linear in its stage, the two outermost middle stages stand for all
//! of them, and the LP has O((f + l) m) variables whatever n. The window
//! doubles until the makespan stops improving.
//!
//! Not proven optimal: the answer is a feasible schedule (the checker
//! verifies it), equal to the full LP wherever the tests could compare, and
//! its gap to max(S + VA/m, nmS + CV), two lower bounds of the full LP, is
//! reported.

use super::sequential::Sequential;
use super::stages::{LpSize, Solved};
use super::staging;
use crate::error::Result;
use crate::lp::{self, Limits, Model, Sense, Var};
use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

/// The answer and a lower bound on the full LP's optimum.
pub(crate) fn solve(seq: &Sequential, n: usize, d: f64) -> Result<(Solved<()>, f64)> {
    let m = seq.units.len() as f64;
    let (s, c, a, v) = (seq.units[0].s, seq.units[0].c, seq.a, seq.v);
    let bound = (s + v * a / m).max(m * n as f64 * s + c * v);
    let solved = staging::doubling(|window| {
        let (f, l) = (window.min(n), window.min(n.saturating_sub(window)));
        Ok((windowed(seq, n, d, f, l)?, f + l >= n))
    })?;
    Ok((solved, bound))
}

/// The LP with stages [0, f) and [n - l, n) free, the rest full to D and
/// represented by their first and last stage.
fn windowed(seq: &Sequential, n: usize, d: f64, f: usize, l: usize) -> Result<Solved<()>> {
    let m = seq.units.len();
    let (x0, tau) = (d, seq.scale.1);
    let (s, c, a) = (seq.units[0].s / tau, seq.units[0].c * x0 / tau, seq.a * x0 / tau);
    // Kept stages; omitted full stages sit between the two middle ones.
    let middle: Vec<usize> = if n - f - l >= 2 { vec![f, n - l - 1] } else { (f..n - l).collect() };
    let stages: Vec<usize> = (0..f).chain(middle.iter().copied()).chain(n - l..n).collect();
    let omitted = (n - f - l).saturating_sub(middle.len()) as f64;
    let mut lp = Model::default();
    let cmax = lp.var("Cmax", 0.0, f64::INFINITY, 1.0);
    let full = |k: usize| k >= f && k < n - l;
    let grid = |lp: &mut Model, what: &str, bounds: &dyn Fn(usize) -> (f64, f64)| -> Vec<Vec<Var>> {
        stages.iter().map(|&k| (0..m).map(|i| { let (lo, hi) = bounds(k); lp.var(format!("{what}_{}_{}", i + 1, k + 1), lo, hi, 0.0) }).collect()).collect()
    };
    let alpha = grid(&mut lp, "alpha", &|k| if full(k) { (1.0, 1.0) } else { (0.0, 1.0) });
    let t = grid(&mut lp, "t", &|_| (0.0, f64::INFINITY));
    let r = grid(&mut lp, "R", &|_| (0.0, f64::INFINITY));
    for (p, &k) in stages.iter().enumerate() {
        // The omitted stages lie after the first middle stage.
        let gap = if full(k) && p + 1 < stages.len() && full(stages[p + 1]) { omitted } else { 0.0 };
        for i in 0..m {
            let next = if i + 1 < m { Some((p, i + 1, 0.0)) } else if p + 1 < stages.len() { Some((p + 1, 0, gap)) } else { None };
            if let Some((p2, i2, skipped)) = next {
                let rhs = s + skipped * m as f64 * (s + c);
                lp.row(format!("next_{}_{}", i + 1, k + 1), vec![(t[p2][i2], 1.0), (t[p][i], -1.0), (alpha[p][i], -c)], Sense::Ge, rhs);
            }
            lp.row(format!("end_{}_{}", i + 1, k + 1), vec![(t[p][i], 1.0), (alpha[p][i], c), (r[p][i], a), (cmax, -1.0)], Sense::Le, -s);
            let mut sum = vec![(r[p][i], 1.0), (alpha[p][i], -1.0)];
            if p + 1 < stages.len() {
                sum.push((r[p + 1][i], -1.0));
            }
            lp.row(format!("run_{}_{}", i + 1, k + 1), sum, Sense::Eq, if gap > 0.0 { gap } else { 0.0 });
        }
    }
    let free: Vec<(Var, f64)> = alpha.iter().flatten().map(|&x| (x, 1.0)).collect();
    lp.row("load", free, Sense::Eq, seq.v / x0 - omitted * m as f64);
    let sol = lp::solve(&lp::Microlp, &lp, Limits::default(), "LoadDirect (full middle stages)")?;
    let kept: Vec<Vec<f64>> = alpha.iter().map(|st| st.iter().map(|&x| sol.get(x).clamp(0.0, 1.0) * d).collect()).collect();
    let mut chunks = Vec::with_capacity(n);
    for (p, &k) in stages.iter().enumerate() {
        chunks.push(kept[p].clone());
        if p + 1 < stages.len() && full(k) && full(stages[p + 1]) {
            chunks.extend((0..omitted as usize).map(|_| vec![d; m]));
        }
    }
    let size = LpSize::NONE.then(&lp, &sol);
    Ok(Solved { kept: (0..m).collect(), chunks, makespan: sol.get(cmax) * tau, lp: size, solution: sol, handles: () })
}
