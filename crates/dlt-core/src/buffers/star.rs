//! 000 Sec. 3.1, LP LoadDirect: the originator of a star sends stage after
//! stage, one message per processor and stage, each at most D.

use super::full_stages;
use super::sequential::{Sequential, Unit};
use super::stages::{self, lp_scale, LpSize, Prune, Solved, Staged, Stages};
use crate::check::Checked;
use crate::costs::{self, Costs, Load};
use crate::error::Result;
use crate::lp::Model;
use crate::schedule::{Row, Schedule};
use crate::validate::Field;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// Largest star: beyond it the Gantt chart and the LP both stop being useful.
pub const MAX_M: usize = 1000;
const M: Field = Field::integer("m", 1, MAX_M);
pub(crate) const FIELDS: &[Field] = &[M, costs::S, costs::C, costs::A, costs::V, stages::D, stages::N];

/// Beyond this many messages at n_min, the full LP gives way to the
/// later-stages-full method.
pub const FULL_LP_MESSAGES: usize = 3000;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct StarParams {
    pub m: f64,
    #[serde(flatten)]
    pub load: Load,
    #[serde(flatten)]
    pub stages: Stages,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
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
    /// For large n at n_min: the makespan's relative distance to a lower
    /// bound on the optimum (absent when the full LP was solved).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gap: Option<f64>,
    pub lp: LpSize,
    pub warnings: Vec<String>,
    #[serde(flatten)]
    pub schedule: Checked,
}

fn validate(p: &StarParams) -> Result<(Sequential, usize, usize, Prune)> {
    let m = M.count(p.m)?;
    let Load { costs: Costs { s, c, a }, v } = p.load.validate()?;
    let Staged { d, n, n_min, prune } = p.stages.validate(v, m as f64, m)?;
    let units = (0..m).map(|_| Unit { s, c, count: 1.0, cap: d.unwrap_or(f64::INFINITY) }).collect();
    let stages = Sequential { name: "LoadDirect", units, a, v, backward: false, scale: lp_scale(v, d, s + v * a / m as f64) };
    Ok((stages, n, n_min, prune))
}

/// LoadDirect as printed, all m processors and n stages, for export, with
/// its units.
pub fn star_lp(params: &StarParams) -> Result<(Model, String)> {
    let (lp, n, _, _) = validate(params)?;
    let all: Vec<usize> = (0..lp.units.len()).collect();
    let (x0, tau) = lp.scale;
    Ok((lp.printed(&all, n).0, crate::lp::units(x0, tau)))
}

/// The stages, the LP's size and the method `star` will use.
pub(crate) fn plan(params: &StarParams) -> Result<crate::model::Plan> {
    let (lp, n, n_min, _) = validate(params)?;
    let m = lp.units.len();
    let variables = 3 * n * m + 1;
    let forced = params.stages.d.is_some_and(|d| (n as f64 * m as f64 * d - lp.v).abs() <= 1e-12 * lp.v);
    let (method, solved) = if full_middle(&lp, n, n_min, params.stages.d).is_some() {
        // The first window: one free stage at each end, two middle ones.
        ("LoadDirect with the middle stages full to D", 4 * 3 * m + 1)
    } else if forced {
        ("LoadDirect with every chunk full to D: presolve leaves no LP", 0)
    } else {
        ("LoadDirect, the LP in its compact form (no start times)", variables)
    };
    Ok(crate::model::Plan { n: Some(n), n_min: Some(n_min), messages: Some(n * m), variables: Some(variables), solved_variables: Some(solved), method: Some(method.into()), ..Default::default() })
}

/// D, where `star` solves with the middle stages full: n = n_min stages of
/// more messages than the full LP takes, unless m n D = V, where the load
/// row forces every chunk to D and presolve leaves nothing of the full LP
/// (exact, and no slower).
fn full_middle(lp: &Sequential, n: usize, n_min: usize, d: Option<f64>) -> Option<f64> {
    let m = lp.units.len();
    d.filter(|&d| n == n_min && n >= 2 && n * m > FULL_LP_MESSAGES && (n as f64 * m as f64 * d - lp.v).abs() > 1e-12 * lp.v)
}

pub fn star(params: &StarParams) -> Result<StarOutput> {
    let (lp, n, n_min, prune) = validate(params)?;
    let m = lp.units.len();
    let (solved, warnings, gap) = match full_middle(&lp, n, n_min, params.stages.d) {
        Some(d) => {
            let (solved, bound) = full_stages::solve(&lp, n, d)?;
            let gap = (solved.makespan - bound) / solved.makespan;
            let how = format!("n = n_min = {n}: solved with the middle stages full to D ({} variables instead of {})", solved.lp.variables, 3 * n * m + 1);
            let warning = if gap <= 1e-12 {
                format!("{how}; optimal: the makespan meets a lower bound")
            } else {
                format!("{how}; not proven optimal, within {gap:.2e} of a lower bound")
            };
            (solved, vec![warning], Some(gap))
        }
        _ => {
            let solved = stages::solve(&lp, n, prune)?;
            let warnings = stages::dropped(m, &solved, n, "processors");
            (solved, warnings, None)
        }
    };
    let (chunks, loads) = stages::spread(m, &solved);
    let schedule = star_schedule(&lp, &solved, params.stages.d)?;
    Ok(StarOutput {
        loads,
        chunks,
        n: solved.chunks.len(),
        n_min,
        lb: lp.units[0].s + lp.v * lp.a / m as f64,
        gap,
        warnings,
        lp: solved.lp,
        schedule,
    })
}

/// Messages back to back in stage order; each processor computes its chunks
/// in order, each as soon as it has arrived and the previous one is done.
fn star_schedule(lp: &Sequential, solved: &Solved<()>, d: Option<f64>) -> Result<Checked> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// At m n D = V the full LP is exact and presolve removes all of it, so
    /// even a large one is not left to the later-stages-full method.
    #[test]
    fn full_buffers_take_the_exact_lp_at_any_size() {
        let out = star(&StarParams { m: 10.0, load: Load::new(1e-3, 1e-6, 1e-3, 1e6), stages: Stages::new(Some(100.0), None, Some(false)) }).unwrap();
        assert_eq!((out.n, out.gap, out.lp.iterations), (1000, None, 0));
        assert!(out.chunks.iter().flatten().all(|&x| (x - 100.0).abs() <= 1e-9 * 100.0));
    }

    /// Found by the adversarial suite: with V = 1e-9 the buffer bounds are
    /// 1e13 load units, and presolve took the load row's shortfall of one
    /// unit for round-off against them, forcing every chunk to 0.
    #[test]
    fn tiny_loads_under_huge_buffers() {
        for v in [1e-9, 1e-6, 1.0] {
            let out = star(&StarParams { m: 10.0, load: Load::new(1e-3, 1e-6, 1e-3, v), stages: Stages::new(Some(1e4), Some(3.0), Some(false)) }).unwrap();
            assert!((out.loads.iter().sum::<f64>() - v).abs() <= 1e-9 * v, "V = {v}: {:?}", out.loads);
        }
    }

    /// The later-stages-full method equals the full LP wherever the full LP
    /// runs: evidence for the structure it assumes.
    #[test]
    fn later_stages_full_equals_the_full_lp() {
        let mut rnd = crate::uniform(3);
        for _ in 0..200 {
            let m = 2 + (rnd() * 6.0) as usize;
            let n = 2 + (rnd() * 30.0) as usize;
            let (s, c, a, v) = (1e-4 + rnd() * 1e-2, rnd() * 1e-3, 1e-4 + rnd() * 1e-2, 1e2 + rnd() * 1e5);
            // D with n_min = n: V / (m D) in (n - 1, n).
            let d = v / (m as f64 * (n as f64 - 0.05 - 0.9 * rnd()));
            let params = StarParams { m: m as f64, load: Load::new(s, c, a, v), stages: Stages::new(Some(d), None, Some(false)) };
            let (lp, n_got, n_min, _) = validate(&params).unwrap();
            assert_eq!((n_got, n_min), (n, n));
            let full = stages::solve(&lp, n, Prune::Raw).unwrap();
            let (fast, bound) = full_stages::solve(&lp, n, d).unwrap();
            assert!((fast.makespan - full.makespan).abs() <= 1e-7 * full.makespan, "m={m} n={n}: {} vs full LP {}", fast.makespan, full.makespan);
            assert!(bound <= full.makespan * (1.0 + 1e-9));
            star_schedule(&lp, &fast, Some(d)).unwrap();
        }
    }
}
