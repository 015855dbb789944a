//! 000's closed forms: the buffer size D* of Sec. 5 that keeps processors
//! computing until the next stage, and the LB strategy of Sec. 4.2 (only one
//! layer of a binomial tree computes, the others relay). The LP models of
//! the same paper live with the LP layer.

use crate::error::{Error, Result};
use crate::schedule::{Row, Schedule};
use crate::validate;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// Bounds of tree shapes: deeper or wider trees overflow f64 in p^h.
const MAX_P: usize = 100;
const MAX_H: usize = 100;
const MAX_M: usize = 1_000_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Topology {
    Star,
    Binomial,
    /// Ordinary tree, 1-buffer nodes.
    Tree1,
    /// Ordinary tree, 2-buffer nodes.
    Tree2,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DstarParams {
    pub topology: Topology,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub m: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub h: Option<f64>,
    #[serde(rename = "S")]
    pub s: f64,
    #[serde(rename = "C")]
    pub c: f64,
    #[serde(rename = "A")]
    pub a: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DstarOutput {
    /// The smallest buffer that keeps the least-loaded layer computing for
    /// a whole stage; `None` where no buffer can.
    #[serde(rename = "D_star")]
    pub d_star: Option<f64>,
    /// The inequality D* needs, in the paper's symbols.
    pub condition: String,
    pub warnings: Vec<String>,
}

fn required(field: &str, x: Option<f64>, hi: usize, topology: &str) -> Result<usize> {
    let x = x.ok_or_else(|| Error::range(field, format!("{field} is required for topology {topology}")))?;
    validate::integer(field, x, 1, hi)
}

/// 000 Sec. 5: D* = numerator / denominator, existing only where the
/// denominator is positive (computing outpaces communication).
pub fn d_star(params: &DstarParams) -> Result<DstarOutput> {
    let s = validate::nonneg("S", params.s)?;
    let c = validate::nonneg("C", params.c)?;
    let a = validate::positive("A", params.a)?;
    let tree = |name| -> Result<(f64, f64)> {
        Ok((required("p", params.p, MAX_P, name)? as f64, required("h", params.h, MAX_H, name)? as f64))
    };
    let (numerator, denominator, condition) = match params.topology {
        Topology::Star => {
            let m = required("m", params.m, MAX_M, "star")? as f64;
            (m * s, a - m * c, "A > mC")
        }
        Topology::Binomial => {
            let (p, h) = tree("binomial")?;
            (s * (h + 1.0) * h * p * libm::pow(p + 1.0, h - 2.0) / 2.0, a - c * h * libm::pow(p + 1.0, h - 1.0), "A > Ch(p+1)^(h-1)")
        }
        Topology::Tree2 => {
            let (p, h) = tree("tree2")?;
            (h * s, a / libm::pow(p, h - 1.0) - c * h, "A/p^(h-1) > Ch")
        }
        Topology::Tree1 => {
            let (p, h) = tree("tree1")?;
            (h * s, a / libm::pow(p, h - 1.0) - h * c * (1.0 + 1.0 / p), "A/p^(h-1) > hC(1+1/p)")
        }
    };
    let condition = String::from(condition);
    if denominator > 0.0 {
        Ok(DstarOutput { d_star: Some(numerator / denominator), condition, warnings: Vec::new() })
    } else {
        let warning = format!("D* does not exist: {condition} fails, so idle times are inevitable whatever the buffer");
        Ok(DstarOutput { d_star: None, condition, warnings: alloc::vec![warning] })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LbParams {
    pub p: f64,
    pub h: f64,
    #[serde(rename = "S")]
    pub s: f64,
    #[serde(rename = "C")]
    pub c: f64,
    #[serde(rename = "A")]
    pub a: f64,
    #[serde(rename = "V")]
    pub v: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LbLayer {
    pub layer: usize,
    pub processors: f64,
    /// n* = sqrt(A V / (i S p (p+1)^(i-1))).
    pub n_star: f64,
    /// C_max(n*) by the paper's formula.
    pub bound: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LbOutput {
    /// min over layers of C_max(n*): the LB line of Figs. 10-11.
    #[serde(rename = "LB")]
    pub lb: f64,
    /// The layer that attains it.
    pub layer: usize,
    pub layers: Vec<LbLayer>,
    /// The whole number of stages of the schedule below.
    pub n: usize,
    /// Load each processor of each layer computes (only `layer` computes).
    pub loads: Vec<f64>,
    pub warnings: Vec<String>,
    #[serde(flatten)]
    pub schedule: Schedule,
}

/// Most stages drawn: beyond it a Gantt chart is a grey block anyway.
const MAX_STAGES: usize = 5000;

pub fn lb_layer(params: &LbParams) -> Result<LbOutput> {
    let p = validate::integer("p", params.p, 1, MAX_P)? as f64;
    let h = validate::integer("h", params.h, 1, MAX_H)?;
    let s = validate::positive("S", params.s)
        .map_err(|e| Error::range("S", format!("{}: with no start-up the strategy would use infinitely many stages", e.message)))?;
    let c = validate::nonneg("C", params.c)?;
    let a = validate::positive("A", params.a)?;
    let v = validate::positive("V", params.v)?;
    // C_max(n) = n (iS + C V/(n p)) + A V/(n p (p+1)^(i-1)), minimal at n*.
    let layers: Vec<LbLayer> = (1..=h)
        .map(|i| {
            let fi = i as f64;
            let processors = p * libm::pow(p + 1.0, fi - 1.0);
            let n_star = libm::sqrt(a * v / (fi * s * processors));
            let bound = n_star * fi * s + c * v / p + a * v / (n_star * processors);
            LbLayer { layer: i, processors, n_star, bound }
        })
        .collect();
    let best = layers.iter().min_by(|x, y| x.bound.total_cmp(&y.bound)).ok_or_else(|| Error::internal("no layer"))?;

    // A whole number of stages, simulated: a chunk is computed after it
    // arrives and after the previous chunk, which the paper's formula
    // assumes hidden behind communication.
    let (i, count) = (best.layer, best.processors);
    let stage_time = |n: usize| {
        let chunk = v / (n as f64 * count);
        let comm = i as f64 * s + c * libm::pow(p + 1.0, i as f64 - 1.0) * chunk;
        comm + a * chunk + (n as f64 - 1.0) * comm.max(a * chunk)
    };
    let mut warnings = Vec::new();
    let floor = (libm::floor(best.n_star) as usize).clamp(1, MAX_STAGES);
    let n = if stage_time(floor + 1) < stage_time(floor) && floor < MAX_STAGES { floor + 1 } else { floor };
    if best.n_star > MAX_STAGES as f64 {
        warnings.push(format!("n* = {:.0} stages; the schedule is drawn with {MAX_STAGES}", best.n_star));
    }
    let schedule = lb_schedule(i, p, count, s, c, a, v, n)?;
    if schedule.makespan > best.bound * (1.0 + 1e-6) {
        warnings.push(format!(
            "with {n} whole stages the schedule takes {:.6e}, above LB = {:.6e}: LB takes n* fractional and computing hidden behind communication",
            schedule.makespan, best.bound));
    }
    let mut loads = alloc::vec![0.0; h];
    loads[i - 1] = v / count;
    Ok(LbOutput { lb: best.bound, layer: i, n, loads, warnings, layers, schedule })
}

/// Stage k sends V/(n count) to every processor of layer i. The relays
/// through layers 1..i-1 are folded into the link, as 000 Sec. 3.3 sums
/// them: S i + C (p+1)^(i-1) x; the originator's collective send counts as
/// one message per receiver.
#[allow(clippy::too_many_arguments)]
fn lb_schedule(i: usize, p: f64, count: f64, s: f64, c: f64, a: f64, v: f64, n: usize) -> Result<Schedule> {
    let mut origin = Row::originator(v);
    origin.send_ports = count;
    let layer = Row::linear(format!("layer {i}"), count, i as f64 * s, c * libm::pow(p + 1.0, i as f64 - 1.0), a);
    let mut schedule = Schedule::new(alloc::vec![origin, layer], v);
    let chunk = v / (n as f64 * count);
    let (mut sent, mut free) = (0.0, 0.0);
    for _ in 0..n {
        sent = schedule.send(0, 1, sent, chunk, count);
        free = schedule.run(1, sent.max(free), chunk);
    }
    schedule.makespan = free;
    crate::checked(schedule)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dstar(topology: Topology, m: Option<f64>, p: Option<f64>, h: Option<f64>, s: f64, c: f64, a: f64) -> Result<DstarOutput> {
        d_star(&DstarParams { topology, m, p, h, s, c, a })
    }

    #[test]
    fn d_star_keeps_the_last_layer_computing_for_one_stage() {
        // At D*, computing on the least-loaded layer lasts exactly one stage
        // of communication (000 Sec. 5's requirements, written out).
        let (s, c, a) = (1e-3, 1e-6, 1e-3);
        let d = dstar(Topology::Star, Some(10.0), None, None, s, c, a).unwrap().d_star.unwrap();
        assert!((a * d - 10.0 * (s + d * c)).abs() < 1e-12 * a * d);
        let (p, h) = (2.0f64, 3.0f64);
        let d = dstar(Topology::Binomial, None, Some(p), Some(h), s, c, a).unwrap().d_star.unwrap();
        let compute = a * d / (p * libm::pow(p + 1.0, h - 2.0));
        let comm = s * (h + 1.0) * h / 2.0 + c * d * (p + 1.0) * h / p;
        assert!((compute - comm).abs() < 1e-9 * comm);
        let d = dstar(Topology::Tree2, None, Some(p), Some(h), s, c, a).unwrap().d_star.unwrap();
        assert!((d * a / libm::pow(p, h - 1.0) - h * (s + c * d)).abs() < 1e-9 * d * a);
        let d = dstar(Topology::Tree1, None, Some(p), Some(h), s, c, a).unwrap().d_star.unwrap();
        assert!((d * a / libm::pow(p, h - 1.0) - (h * s + h * c * d * (1.0 + 1.0 / p))).abs() < 1e-9 * d * a);
    }

    #[test]
    fn d_star_says_which_inequality_fails() {
        let out = dstar(Topology::Star, Some(10.0), None, None, 1e-3, 1e-3, 1e-3).unwrap();
        assert_eq!(out.d_star, None);
        assert!(out.warnings[0].contains("A > mC"));
        let out = dstar(Topology::Binomial, None, Some(2.0), Some(10.0), 1e-3, 1e-6, 1e-3).unwrap();
        assert!(out.d_star.is_none() && out.warnings[0].contains("A > Ch(p+1)^(h-1)"));
        assert_eq!(dstar(Topology::Tree1, Some(3.0), None, Some(2.0), 1.0, 1.0, 1.0).unwrap_err().field, "p");
        assert_eq!(dstar(Topology::Star, None, None, None, 1.0, 1.0, 1.0).unwrap_err().field, "m");
    }

    #[test]
    fn lb_matches_its_formula_and_the_schedule_checks() {
        let params = LbParams { p: 2.0, h: 10.0, s: 1e-3, c: 1e-6, a: 1e-3, v: 1e6 };
        let out = lb_layer(&params).unwrap();
        // Brute force over layers and a fine grid of n around each n*.
        for l in &out.layers {
            let cm = |n: f64| n * (l.layer as f64 * 1e-3 + 1e-6 * 1e6 / (n * 2.0)) + 1e-3 * 1e6 / (n * l.processors);
            for f in [0.9, 0.99, 1.01, 1.1] {
                assert!(cm(l.n_star * f) >= l.bound);
            }
            assert!(out.lb <= l.bound);
        }
        assert!(out.schedule.makespan >= out.lb * (1.0 - 1e-12));
        assert_eq!(out.loads.iter().filter(|&&x| x > 0.0).count(), 1);
        assert_eq!(lb_layer(&LbParams { s: 0.0, ..params }).unwrap_err().field, "S");
    }
}
