//! 000 Sec. 3.1, LP LoadDirect: the originator of a star sends stage after
//! stage, one message per processor and stage, each at most D.
//!
//! Rows (3) of the paper sum every later chunk, O(m n^2) nonzeros; here a
//! running sum R_ik = alpha_ik + R_i(k+1) keeps the LP sparse (O(m n)).

use super::{stage_count, Prune};
use crate::error::Result;
use crate::lp::{self, Limits, Model, Sense, Var};
use crate::schedule::{Row, Schedule};
use crate::validate;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// Largest star: beyond it the Gantt chart and the LP both stop being useful.
pub const MAX_M: usize = 1000;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StarParams {
    pub m: f64,
    #[serde(rename = "S")]
    pub s: f64,
    #[serde(rename = "C")]
    pub c: f64,
    #[serde(rename = "A")]
    pub a: f64,
    #[serde(rename = "V")]
    pub v: f64,
    #[serde(rename = "D", default, skip_serializing_if = "Option::is_none")]
    pub d: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prune: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LpSize {
    pub variables: usize,
    pub rows: usize,
    pub nonzeros: usize,
    pub iterations: u64,
    /// LPs solved (more than one when pruning re-solves).
    pub solves: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StarOutput {
    /// Load each processor P1..Pm receives over all stages.
    pub loads: Vec<f64>,
    /// alpha_ik: `chunks[k][i]`, the load of processor i in stage k (Fig. 6).
    pub chunks: Vec<Vec<f64>>,
    pub n: usize,
    pub n_min: usize,
    /// S + VA/m, the lower bound of Fig. 7.
    #[serde(rename = "LB")]
    pub lb: f64,
    pub lp: LpSize,
    pub warnings: Vec<String>,
    #[serde(flatten)]
    pub schedule: Schedule,
}

struct Star {
    m: usize,
    s: f64,
    c: f64,
    a: f64,
    v: f64,
    d: Option<f64>,
}

/// The LP of `m` processors and `n` stages in units `unit.0` of load and
/// `unit.1` of time; returns the model and alpha[k][i].
fn load_direct(p: &Star, m: usize, n: usize, (x0, tau): (f64, f64)) -> (Model, Vec<Vec<Var>>, Var) {
    let (s, c, a) = (p.s / tau, p.c * x0 / tau, p.a * x0 / tau);
    let cap = p.d.map_or(f64::INFINITY, |d| d / x0);
    let mut lp = Model::default();
    let cmax = lp.var("Cmax", 0.0, f64::INFINITY, 1.0);
    let alpha: Vec<Vec<Var>> = (0..n).map(|k| (0..m).map(|i| lp.var(format!("alpha_{}_{}", i + 1, k + 1), 0.0, cap, 0.0)).collect()).collect();
    let t: Vec<Vec<Var>> = (0..n).map(|k| (0..m).map(|i| lp.var(format!("t_{}_{}", i + 1, k + 1), 0.0, f64::INFINITY, 0.0)).collect()).collect();
    let r: Vec<Vec<Var>> = (0..n).map(|k| (0..m).map(|i| lp.var(format!("R_{}_{}", i + 1, k + 1), 0.0, f64::INFINITY, 0.0)).collect()).collect();
    for k in 0..n {
        for i in 0..m {
            // (1), (2): the next message starts after this one ends.
            let next = if i + 1 < m { Some(t[k][i + 1]) } else if k + 1 < n { Some(t[k + 1][0]) } else { None };
            if let Some(next) = next {
                let eq = if i + 1 < m { 1 } else { 2 };
                lp.row(format!("c{eq}_{}_{}", i + 1, k + 1), vec![(next, 1.0), (t[k][i], -1.0), (alpha[k][i], -c)], Sense::Ge, s);
            }
            // (3) with the running sum of chunks k..n.
            lp.row(format!("c3_{}_{}", i + 1, k + 1), vec![(t[k][i], 1.0), (alpha[k][i], c), (r[k][i], a), (cmax, -1.0)], Sense::Le, -s);
            let mut sum = vec![(r[k][i], 1.0), (alpha[k][i], -1.0)];
            if k + 1 < n {
                sum.push((r[k + 1][i], -1.0));
            }
            lp.row(format!("run_{}_{}", i + 1, k + 1), sum, Sense::Eq, 0.0);
        }
    }
    // (5), with the sum over processors i = 1..m (the text says h).
    lp.row("c5", alpha.iter().flatten().map(|&x| (x, 1.0)).collect(), Sense::Eq, p.v / x0);
    (lp, alpha, cmax)
}

fn validate(p: &StarParams) -> Result<(Star, usize, usize, Prune)> {
    let m = validate::integer("m", p.m, 1, MAX_M)?;
    let star = Star {
        m,
        s: validate::nonneg("S", p.s)?,
        c: validate::nonneg("C", p.c)?,
        a: validate::positive("A", p.a)?,
        v: validate::positive("V", p.v)?,
        d: p.d.map(|d| validate::positive("D", d)).transpose()?,
    };
    let n_min = star.d.map_or(1.0, |d| libm::ceil(star.v / (d * m as f64)));
    let (n, n_min) = stage_count(p.n, n_min, m)?;
    Ok((star, n, n_min, Prune::from(p.prune)))
}

fn unit(p: &Star) -> (f64, f64) {
    super::units(p.v, p.d, p.s + p.v * p.a / p.m as f64)
}

/// LoadDirect as printed, all m processors and n stages, for export, with
/// its units.
pub fn star_lp(params: &StarParams) -> Result<(Model, String)> {
    let (p, n, _, _) = validate(params)?;
    let (x0, tau) = unit(&p);
    Ok((load_direct(&p, p.m, n, (x0, tau)).0, format!("loads in units of {x0:e}, times in units of {tau:e}")))
}

pub fn star(params: &StarParams) -> Result<StarOutput> {
    let (p, n, n_min, prune) = validate(params)?;
    let unit = unit(&p);
    let mut size = LpSize { variables: 0, rows: 0, nonzeros: 0, iterations: 0, solves: 0 };
    // Processors kept (their index among P1..Pm) and stages kept.
    let mut kept: Vec<usize> = (0..p.m).collect();
    let mut stages = n;
    let mut warnings = Vec::new();
    let (chunks, cmax) = loop {
        let (lp, alpha, cmax) = load_direct(&p, kept.len(), stages, unit);
        let sol = lp::solve(&lp::Microlp, &lp, Limits::default(), "LoadDirect")?;
        size = LpSize { variables: lp.names.len(), rows: lp.rows.len(), nonzeros: lp.nonzeros(), iterations: size.iterations + sol.iterations, solves: size.solves + 1 };
        let chunks: Vec<Vec<f64>> = alpha.iter().map(|st| st.iter().map(|&x| sol.get(x).max(0.0) * unit.0).collect()).collect();
        let empty = |x: f64| x <= super::EMPTY * unit.0;
        let full_processors: Vec<usize> = (0..kept.len()).filter(|&i| !chunks.iter().all(|st| empty(st[i]))).collect();
        let full_stages = chunks.iter().filter(|st| !st.iter().all(|&x| empty(x))).count();
        if prune == Prune::Raw || (full_processors.len() == kept.len() && full_stages == stages) {
            break (chunks, sol.get(cmax) * unit.1);
        }
        // 000 Sec. 3: drop superfluous processors and stages, then re-solve.
        kept = full_processors.iter().map(|&i| kept[i]).collect();
        stages = full_stages;
    };
    if kept.len() < p.m {
        warnings.push(format!("{} of {} processors received no load and were dropped", p.m - kept.len(), p.m));
    }
    if stages < n {
        warnings.push(format!("{} of {n} stages were empty and were dropped", n - stages));
    }
    let schedule = star_schedule(&p, &kept, &chunks, cmax)?;
    let mut loads = vec![0.0; p.m];
    let mut full = vec![vec![0.0; p.m]; stages];
    for (k, st) in chunks.iter().enumerate() {
        for (j, &x) in st.iter().enumerate() {
            loads[kept[j]] += x;
            full[k][kept[j]] = x;
        }
    }
    Ok(StarOutput { loads, chunks: full, n: stages, n_min, lb: p.s + p.v * p.a / p.m as f64, lp: size, warnings, schedule })
}

/// Messages back to back in stage order; each processor computes its chunks
/// in order, each as soon as it has arrived and the previous one is done.
fn star_schedule(p: &Star, kept: &[usize], chunks: &[Vec<f64>], makespan: f64) -> Result<Schedule> {
    let mut rows = vec![Row::originator(p.v)];
    for &i in kept {
        let mut row = Row::linear(format!("P{}", i + 1), 1.0, p.s, p.c, p.a);
        row.buffer = p.d;
        rows.push(row);
    }
    let mut schedule = Schedule::new(rows, p.v);
    let (mut wire, mut busy) = (0.0, vec![0.0; kept.len()]);
    for stage in chunks {
        for (j, &x) in stage.iter().enumerate() {
            wire = schedule.send(0, j + 1, wire, x, 1.0);
            if x > 0.0 {
                busy[j] = schedule.run(j + 1, wire.max(busy[j]), x);
            }
        }
    }
    schedule.makespan = makespan;
    crate::checked(schedule)
}
