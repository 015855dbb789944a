//! Efficiency E(m, n, V) = T(1,1,V) / (m T(m,n,V)) and the isoefficiency map
//! of 003 Sec. 3: for each m, the maximum of E over V (the MAX line) by
//! narrowing an interval around it, and the isoefficiency function I(e, m, n)
//! on both sides of V_max by bisection. Every search stops when its interval
//! of V is narrower than `width` (the paper: 1 MB). Points already solved are
//! reused across levels and sides.

use super::{best, instance, searched, Instance, Machines, Params, A1, A2, B2, C, LP_BUDGET, N, O, PROOF_BUDGET, S, V};
use crate::error::{Code, Error, Result};
use crate::validate::{self, Field};
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// Most machine counts and efficiency levels in one map.
pub const MAX_LEVELS: usize = 32;

/// Each efficiency level.
const LEVELS: Field = Field::positive("levels");
/// Above (V_range[1] - V_range[0]) / 1e12 too: `validate` checks that.
const WIDTH: Field = Field::positive("width");
const TOTAL_LP_BUDGET: Field = Field::integer("total_lp_budget", 1, MAX_TOTAL_LP_BUDGET);
/// The map's own fields and the machines' (a point's ranges, which
/// `instance` checks them by). m_range and V_range, a pair of a point's m
/// and of its V in increasing order, are not listed.
pub(super) const FIELDS: &[Field] = &[N, S, O, C, A1, A2, B2, LEVELS, WIDTH, LP_BUDGET, PROOF_BUDGET, TOTAL_LP_BUDGET];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct MapParams {
    /// Machine counts from m_range[0] to m_range[1].
    pub m_range: (f64, f64),
    /// Efficiency levels of the isolines (may be empty: the MAX line only).
    #[serde(default)]
    pub levels: Vec<f64>,
    /// The interval of V searched.
    #[serde(rename = "V_range")]
    pub v_range: (f64, f64),
    #[serde(flatten)]
    pub machines: Machines,
    /// Stop a search when its V interval is narrower than this (default 1).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub width: Option<f64>,
    /// Send sequences (LPs) each MIP may solve (default DEFAULT_LP_BUDGET:
    /// the round robins and a short local search; Table 1 needs no more).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub lp_budget: Option<f64>,
    /// LPs of the branch and bound at each m's E_max point (default
    /// super::DEFAULT_PROOF_BUDGET): its proof, or its gap.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub proof_budget: Option<f64>,
    /// LPs the whole map may solve (default DEFAULT_TOTAL_LP_BUDGET): once
    /// they are spent no MIP is started, and the machine counts mapped so
    /// far are returned.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub total_lp_budget: Option<f64>,
}

pub const DEFAULT_LP_BUDGET: usize = 30;
pub const DEFAULT_TOTAL_LP_BUDGET: usize = 1_000_000;
pub const MAX_TOTAL_LP_BUDGET: usize = 1_000_000_000;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Isoline {
    pub e: f64,
    /// I(e, m, n) below V_max, per m (null where E never reaches e there).
    pub below: Vec<Option<f64>>,
    /// I(e, m, n) above V_max, per m.
    pub above: Vec<Option<f64>>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct MapOutput {
    pub m: Vec<usize>,
    #[serde(rename = "E_max")]
    pub e_max: Vec<f64>,
    #[serde(rename = "V_max")]
    pub v_max: Vec<f64>,
    /// Per m, the E_max point's MIP after a branch and bound: proven
    /// optimal, or the gap (T - bound) / T left.
    #[serde(rename = "E_max_proven")]
    pub e_max_proven: Vec<bool>,
    #[serde(rename = "E_max_gap")]
    pub e_max_gap: Vec<f64>,
    pub isolines: Vec<Isoline>,
    /// The stopping width of every search, in units of V.
    pub width: f64,
    /// MIPs solved, and how many of them were proven optimal.
    pub points: usize,
    pub proven: usize,
    pub warnings: Vec<String>,
}

/// V_max, E_max and the isolines' loads below and above V_max for one m.
struct Column {
    v_max: f64,
    e_max: f64,
    below: Vec<Option<f64>>,
    above: Vec<Option<f64>>,
}

/// E(m, n, V) with the points solved so far remembered.
struct Evaluator {
    base: Instance,
    /// LPs each MIP may solve, and those the map has left.
    budget: usize,
    left: usize,
    cache: BTreeMap<(usize, u64), f64>,
    proven: usize,
}

impl Evaluator {
    fn e(&mut self, m: usize, v: f64) -> Result<f64> {
        if let Some(&e) = self.cache.get(&(m, v.to_bits())) {
            return Ok(e);
        }
        // A MIP is not cut short by the map's budget: it runs with its own
        // budget or not at all, so every point is as good as its neighbours.
        let inst = Instance { m, v, ..self.base.clone() };
        if self.left < inst.most_lps(self.budget) {
            return Err(Error::new(Code::Limit, "total_lp_budget", "the map's total LP budget is spent"));
        }
        let out = best(&inst, self.budget)?;
        self.left -= out.sequences;
        self.proven += out.proven as usize;
        self.cache.insert((m, v.to_bits()), out.efficiency);
        Ok(out.efficiency)
    }

    /// The maximum of E over [lo, hi] by golden-section narrowing: of two
    /// probes, the side beyond the smaller efficiency is dropped.
    fn maximum(&mut self, m: usize, (mut lo, mut hi): (f64, f64), width: f64) -> Result<(f64, f64)> {
        const R: f64 = 0.618_033_988_749_894_8;
        let (mut v1, mut v2) = (hi - R * (hi - lo), lo + R * (hi - lo));
        let (mut e1, mut e2) = (self.e(m, v1)?, self.e(m, v2)?);
        // Stop at the width, or where doubles cannot split the interval.
        while hi - lo > width && lo < v1 && v1 < v2 && v2 < hi {
            if e1 < e2 {
                lo = v1;
                (v1, e1) = (v2, e2);
                v2 = lo + R * (hi - lo);
                e2 = self.e(m, v2)?;
            } else {
                hi = v2;
                (v2, e2) = (v1, e1);
                v1 = hi - R * (hi - lo);
                e1 = self.e(m, v1)?;
            }
        }
        Ok(if e1 >= e2 { (v1, e1) } else { (v2, e2) })
    }

    /// One machine count of the map.
    fn column(&mut self, m: usize, levels: &[f64], range: (f64, f64), width: f64) -> Result<Column> {
        let (v_max, e_max) = self.maximum(m, range, width)?;
        let below = levels.iter().map(|&e| self.crossing(m, e, (range.0, v_max), true, width)).collect::<Result<_>>()?;
        let above = levels.iter().map(|&e| self.crossing(m, e, (v_max, range.1), false, width)).collect::<Result<_>>()?;
        Ok(Column { v_max, e_max, below, above })
    }

    /// V in [lo, hi] where E crosses e, E rising (or falling) over it.
    fn crossing(&mut self, m: usize, e: f64, (mut lo, mut hi): (f64, f64), rising: bool, width: f64) -> Result<Option<f64>> {
        let (e_lo, e_hi) = (self.e(m, lo)?, self.e(m, hi)?);
        let (small, large) = if rising { (e_lo, e_hi) } else { (e_hi, e_lo) };
        if !(small <= e && e <= large) {
            return Ok(None);
        }
        while hi - lo > width {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi {
                break;
            }
            if (self.e(m, mid)? < e) == rising {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Ok(Some(0.5 * (lo + hi)))
    }
}

/// The validated request: the first machine count's instance, the last
/// machine count, V's range, the width and the two budgets.
struct Valid {
    base: Instance,
    m_hi: usize,
    v_range: (f64, f64),
    width: f64,
    budget: usize,
    proof: usize,
    total: usize,
}

/// The machine counts and the LP budget of a map, without mapping.
pub fn plan(p: &MapParams) -> Result<crate::model::Plan> {
    let valid = validate(p)?;
    Ok(crate::model::Plan {
        steps: Some(valid.m_hi + 1 - valid.base.m),
        lp_budget: Some(valid.total as u64),
        method: Some(format!("golden-section search for V_max and bisection for each isoline, each point a MIP of at most {} LPs", valid.budget)),
        ..Default::default()
    })
}

fn validate(p: &MapParams) -> Result<Valid> {
    let (v_lo, v_hi) = (V.check_at("V_range[0]", p.v_range.0)?, V.check_at("V_range[1]", p.v_range.1)?);
    if v_hi <= v_lo {
        return Err(Error::range("V_range", format!("V_range must be increasing, got [{v_lo}, {v_hi}]")));
    }
    let base = instance(&Params { m: p.m_range.0, v: v_lo, machines: p.machines, lp_budget: None, proof_budget: p.proof_budget })
    .map_err(|mut e| {
        if e.field == "m" {
            e.field = String::from("m_range[0]");
        }
        e
    })?;
    let m_hi = validate::integer("m_range[1]", p.m_range.1, base.m, super::MAX_M)?;
    validate::length("levels", &p.levels, 0, MAX_LEVELS)?;
    for (i, &e) in p.levels.iter().enumerate() {
        LEVELS.check_item(e, || validate::item("levels", i))?;
    }
    let width = WIDTH.check(p.width.unwrap_or(1.0))?;
    if (v_hi - v_lo) / width > 1e12 {
        return Err(Error::range("width", format!("width must be at least (V_range[1] - V_range[0]) / 1e12 = {:e}", (v_hi - v_lo) / 1e12)));
    }
    let budget = super::budget(LP_BUDGET, p.lp_budget, DEFAULT_LP_BUDGET)?;
    let total = super::budget(TOTAL_LP_BUDGET, p.total_lp_budget, DEFAULT_TOTAL_LP_BUDGET)?;
    let proof = super::proof_budget(p.proof_budget)?;
    Ok(Valid { base, m_hi, v_range: (v_lo, v_hi), width, budget, proof, total })
}

/// The map, calling `progress(done, total)` after each machine count; a
/// `false` stops it there.
pub fn map(p: &MapParams, progress: &mut dyn FnMut(usize, usize) -> bool) -> Result<MapOutput> {
    let Valid { base, m_hi, v_range: (v_lo, v_hi), width, budget, proof, total } = validate(p)?;
    let mut ev = Evaluator { base: base.clone(), budget, left: total, cache: BTreeMap::new(), proven: 0 };
    let ms: Vec<usize> = (base.m..=m_hi).collect();
    let mut out = MapOutput {
        m: Vec::new(),
        e_max: Vec::new(),
        v_max: Vec::new(),
        e_max_proven: Vec::new(),
        e_max_gap: Vec::new(),
        isolines: p.levels.iter().map(|&e| Isoline { e, below: Vec::new(), above: Vec::new() }).collect(),
        width,
        points: 0,
        proven: 0,
        warnings: Vec::new(),
    };
    for (done, &m) in ms.iter().enumerate() {
        let column = match ev.column(m, &p.levels, (v_lo, v_hi), width) {
            Err(e) if e.field == "total_lp_budget" && !out.m.is_empty() => {
                out.warnings.push(format!("stopped before m = {m}: the total LP budget of {total} was spent"));
                break;
            }
            other => other?,
        };
        // The E_max point's search again, then the branch and bound from
        // its best: Table 1's schedules proven, or their gap. A better
        // schedule found there raises E_max.
        let point = Instance { m, v: column.v_max, ..base.clone() };
        let (at_max, _) = searched(&point, budget, proof)?;
        ev.left = ev.left.saturating_sub(at_max.sequences + at_max.proof_lps as usize);
        out.m.push(m);
        out.e_max.push(column.e_max.max(at_max.efficiency));
        out.v_max.push(column.v_max);
        out.e_max_proven.push(at_max.proven);
        out.e_max_gap.push(at_max.gap);
        for ((line, b), a) in out.isolines.iter_mut().zip(column.below).zip(column.above) {
            line.below.push(b);
            line.above.push(a);
        }
        if !progress(done + 1, ms.len()) {
            out.warnings.push(format!("stopped after m = {m}"));
            break;
        }
    }
    out.points = ev.cache.len();
    out.proven = ev.proven;
    if out.proven < out.points {
        out.warnings.push(format!("{} of {} points are the best found within {budget} LPs each, not proven optimal", out.points - out.proven, out.points));
    }
    if out.m.is_empty() {
        return Err(Error::new(Code::Limit, "m_range", "no machine count was mapped"));
    }
    Ok(out)
}

pub fn run(p: &MapParams) -> Result<MapOutput> {
    map(p, &mut |_, _| true)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 003's reference machine at n = 20, MAX line and one isoline.
    fn params(m_range: (f64, f64), total: f64) -> MapParams {
        MapParams {
            m_range,
            levels: alloc::vec![10.0],
            v_range: (5e3, 2e5),
            machines: Machines { n: 20.0, s: 25.4, o: 0.075, c: 0.005, a1: 0.109, a2: 4.132, b2: -27109.0 },
            width: Some(100.0),
            lp_budget: Some(5.0),
            proof_budget: None,
            total_lp_budget: Some(total),
        }
    }

    #[test]
    fn the_total_lp_budget_ends_a_map_between_machine_counts() {
        let err = run(&params((2.0, 2.0), 1.0)).unwrap_err();
        assert_eq!((err.code, err.field.as_str()), (Code::Limit, "total_lp_budget"));
        let out = run(&params((2.0, 64.0), 2000.0)).unwrap();
        assert!(!out.m.is_empty() && out.m.len() < 63, "{} machine counts mapped", out.m.len());
        assert!(out.warnings.iter().any(|w| w.contains("total LP budget")), "{:?}", out.warnings);
        assert_eq!(out.isolines[0].below.len(), out.m.len());
        // Work, not time, ends it: the same request maps the same counts.
        assert_eq!(run(&params((2.0, 64.0), 2000.0)).unwrap(), out);
        let err = run(&params((2.0, 2.0), 1e10)).unwrap_err();
        assert_eq!(err.field, "total_lp_budget");
    }
}
