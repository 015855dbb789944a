//! 000 Sec. 3.1, LP LoadDirect: the originator of a star sends stage after
//! stage, one message per processor and stage, each at most D.

use super::sequential::{Sequential, Unit};
use super::stages::{self, lp_scale, stage_count, LpSize, Prune, StageModel, Solved};
use crate::error::Result;
use crate::lp::Model;
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

fn validate(p: &StarParams) -> Result<(Sequential, usize, usize, Prune)> {
    let m = validate::integer("m", p.m, 1, MAX_M)?;
    let (s, c, a, v) = (validate::nonneg("S", p.s)?, validate::nonneg("C", p.c)?, validate::positive("A", p.a)?, validate::positive("V", p.v)?);
    let d = p.d.map(|d| validate::positive("D", d)).transpose()?;
    let n_min = d.map_or(1.0, |d| libm::ceil(v / (d * m as f64)));
    let (n, n_min) = stage_count(p.n, n_min, m)?;
    let units = (0..m).map(|_| Unit { s, c, count: 1.0, cap: d.unwrap_or(f64::INFINITY) }).collect();
    let stages = Sequential { name: "LoadDirect", units, a, v, backward: false, scale: lp_scale(v, d, s + v * a / m as f64) };
    Ok((stages, n, n_min, Prune::from(p.prune)))
}

/// LoadDirect as printed, all m processors and n stages, for export, with
/// its units.
pub fn star_lp(params: &StarParams) -> Result<(Model, String)> {
    let (lp, n, _, _) = validate(params)?;
    let all: Vec<usize> = (0..lp.units.len()).collect();
    let (x0, tau) = lp.scale;
    Ok((lp.model(&all, n).0, format!("loads in units of {x0:e}, times in units of {tau:e}")))
}

pub fn star(params: &StarParams) -> Result<StarOutput> {
    let (lp, n, n_min, prune) = validate(params)?;
    let solved = stages::solve(&lp, n, prune)?;
    let m = lp.units.len();
    let (chunks, loads) = stages::spread(m, &solved);
    let schedule = star_schedule(&lp, &solved, params.d)?;
    Ok(StarOutput {
        loads,
        chunks,
        n: solved.chunks.len(),
        n_min,
        lb: lp.units[0].s + lp.v * lp.a / m as f64,
        warnings: stages::dropped(m, &solved, n, "processors"),
        lp: solved.lp,
        schedule,
    })
}

/// Messages back to back in stage order; each processor computes its chunks
/// in order, each as soon as it has arrived and the previous one is done.
fn star_schedule(lp: &Sequential, solved: &Solved<()>, d: Option<f64>) -> Result<Schedule> {
    let mut rows = vec![Row::originator(lp.v)];
    for &i in &solved.kept {
        let mut row = Row::linear(format!("P{}", i + 1), 1.0, lp.units[i].s, lp.units[i].c, lp.a);
        row.buffer = d;
        rows.push(row);
    }
    let mut schedule = Schedule::new(rows, lp.v);
    let (mut wire, mut busy) = (0.0, vec![0.0; solved.kept.len()]);
    for (k, j) in lp.order(solved) {
        let x = solved.chunks[k][j];
        wire = schedule.send(0, j + 1, wire, x, 1.0);
        if x > 0.0 {
            busy[j] = schedule.run(j + 1, wire.max(busy[j]), x);
        }
    }
    schedule.makespan = solved.makespan;
    crate::checked(schedule)
}
