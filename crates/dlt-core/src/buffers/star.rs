//! 000 Sec. 3.1, LP LoadDirect: the originator of a star sends stage after
//! stage, one message per processor and stage, each at most D.

use super::full_stages;
use super::listing::Omitted;
use super::sequential::{Sequential, Unit};
use super::best::{Answer, BestReport};
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
    /// alpha_ik: `chunks[k][i]`, the load of processor i in stage k (Fig. 6),
    /// over the stages listed.
    pub chunks: Vec<Vec<f64>>,
    /// Stages alike left out of `chunks` and the schedule (long answers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub omitted: Option<Omitted>,
    pub n: usize,
    pub n_min: usize,
    /// S + VA/m, the lower bound of Fig. 7.
    #[serde(rename = "LB")]
    pub lb: f64,
    /// For large n at n_min where no shape of the optimum is proven: the
    /// makespan's relative distance to a lower bound on the optimum (absent
    /// when the optimum is proven, by its shape or the full LP).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gap: Option<f64>,
    /// For `"prune": "best"`: the paper's pruning beside the best system,
    /// and the search's work.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best: Option<BestReport>,
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
pub fn star_lp(params: &StarParams) -> Result<(Model, crate::lp::Units)> {
    let (lp, n, _, _) = validate(params)?;
    Ok(lp.export(n))
}

/// The stages, the LP's size and the method `star` will use.
pub(crate) fn plan(params: &StarParams) -> Result<crate::model::Plan> {
    let (lp, n, n_min, prune) = validate(params)?;
    Ok(full_stages::plan(&lp, n, n_min, prune))
}

pub fn star(params: &StarParams) -> Result<StarOutput> {
    let (lp, n, n_min, prune) = validate(params)?;
    let m = lp.units.len();
    let Answer { solved, mut warnings, gap, best } = full_stages::solve_or_full(&lp, n, n_min, prune, "processors")?;
    let (chunks, loads, omitted) = stages::spread(m, &solved, m, &mut warnings);
    let schedule = star_schedule(&lp, &solved, params.stages.d, omitted)?;
    Ok(StarOutput {
        loads,
        chunks,
        omitted,
        n: solved.chunks.len(),
        n_min,
        lb: lp.units[0].s + lp.v * lp.a / m as f64,
        gap,
        warnings,
        best,
        lp: solved.lp,
        schedule,
    })
}

/// Messages back to back in stage order; each processor computes its chunks
/// in order, each as soon as it has arrived and the previous one is done.
/// Stages `omitted` are timed but not listed.
fn star_schedule(lp: &Sequential, solved: &Solved<()>, d: Option<f64>, omitted: Option<Omitted>) -> Result<Checked> {
    let mut rows = vec![Row::originator(lp.v)];
    for &i in &solved.kept {
        let mut row = Row::linear(format!("P{}", i + 1), 1.0, lp.units[i].s, lp.units[i].c, lp.a);
        row.buffer = d;
        rows.push(row);
    }
    let mut schedule = Schedule::new(rows, lp.v);
    let (mut wire, mut busy) = (0.0, vec![0.0; solved.kept.len()]);
    let mut listed = 0.0;
    for (k, j) in lp.order(solved) {
        let x = solved.chunks[k][j];
        if Omitted::lists(omitted, k) {
            listed += x;
            wire = schedule.send(0, j + 1, wire, x, 1.0);
            if x > 0.0 {
                busy[j] = schedule.run(j + 1, wire.max(busy[j]), x);
            }
        } else {
            wire = schedule.arrival(j + 1, wire, x);
            if x > 0.0 {
                busy[j] = schedule.finish(j + 1, wire.max(busy[j]), x);
            }
        }
    }
    if omitted.is_some() {
        schedule.listing(listed);
    }
    schedule.makespan = solved.makespan;
    crate::checked(schedule)
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::{assert_relative_eq, relative_eq};
    use proptest::prelude::*;

    /// Where every stage but the first empties at no cost (C = 0: a stage's
    /// start-ups overlap the computing), the paper's pruning drops them all
    /// after one solve, where it went one stage a solve (n = 60: 60 solves;
    /// m = 301, n = 260: 52 s). The answer: one stage, at the raw LP's
    /// makespan.
    #[test]
    fn stages_that_empty_at_no_cost_are_dropped_at_once() {
        let with = |prune| star(&StarParams { m: 50.0, load: Load::new(8.079e-4, 0.0, 14.33, 20880.0), stages: Stages::new(Some(5479.0), Some(60.0), Some(prune)) }).unwrap();
        let (pruned, raw) = (with(true), with(false));
        assert_eq!((pruned.n, raw.n), (1, 60));
        assert!(pruned.lp.solves <= 2, "{:?}", pruned.lp);
        assert_relative_eq!(pruned.schedule.makespan, raw.schedule.makespan, max_relative = 1e-12);
        assert!(pruned.warnings.iter().any(|w| w == "59 of 60 stages were empty and were dropped"), "{:?}", pruned.warnings);
    }

    /// A star of `m` processors with buffers `d` over `n` stages, pruned or raw.
    fn solved(m: f64, load: Load, d: f64, n: f64, prune: bool) -> StarOutput {
        star(&StarParams { m, load, stages: Stages::new(Some(d), Some(n), Some(prune)) }).unwrap()
    }

    /// Small start-ups, many stages beyond n_min (m = 16, n = 109,
    /// n_min = 9): the simplex's vertex of the whole LP left 99 stages
    /// empty after 11,531 iterations. The LP with its first 9, then 18
    /// stages free meets the optimum the interior point method proves, so
    /// the LP of 109 stages never goes to the simplex. The pruned answer is
    /// the raw LP's over the stages it kept, shorter than over all 109.
    #[test]
    fn a_vertex_whose_last_stages_are_empty_comes_from_the_first_stages() {
        let load = Load::new(1.8505814866154562e-7, 8.626892990364671e-5, 9.165436196258232e-4, 391.81972273803996);
        let with = |n, prune| solved(16.0, load, 2.8585604032746725, n, prune);
        let (pruned, raw) = (with(109.0, true), with(109.0, false));
        assert_eq!((pruned.n, pruned.n_min), (10, 9));
        assert!(pruned.lp.iterations < 3000, "{:?}", pruned.lp);
        assert_relative_eq!(pruned.schedule.makespan, with(10.0, false).schedule.makespan, max_relative = 1e-9);
        assert!(pruned.schedule.makespan < raw.schedule.makespan * (1.0 - 1e-3));
    }

    /// Without start-ups pruning cannot shorten the schedule, and the raw
    /// answer is the pruned one's: the shape of the optimum (the link
    /// dominates: full stages first, the later ones free and shrinking),
    /// proven in one solve, leaves the last 20 of 38 stages exactly empty,
    /// which go, and one more all but empty, which is kept and said. (Its
    /// multipliers affine in lambda, the shape's bound fell short, and the
    /// paper's pruning took 21 of 38 stages in 7 solves.)
    #[test]
    fn without_start_ups_a_pruned_star_is_the_raw_one() {
        let load = Load::new(0.0, 2.3158720732835844e-5, 2.0853862979746386e-4, 368.0543203562142);
        let with = |prune| solved(20.0, load, 3.6358866364863913, 38.0, prune);
        let (pruned, raw) = (with(true), with(false));
        assert_eq!((pruned.lp.solves, pruned.lp.variables, pruned.n), (1, 0, 18));
        assert_eq!((pruned.schedule.makespan, &pruned.chunks[..]), (raw.schedule.makespan, &raw.chunks[..18]));
        assert!(raw.chunks[18..].iter().flatten().all(|&x| x == 0.0));
        assert!(raw.warnings.is_empty(), "{:?}", raw.warnings);
        let empty = pruned.chunks.iter().filter(|stage| stage.iter().all(|&x| x <= 1e-9 * 3.6358866364863913)).count();
        assert!(empty > 0, "no stage left empty: nothing to say");
        assert_eq!(pruned.warnings, ["20 of 38 stages were empty and were dropped".into(), format!("{empty} stages got no load and were kept: with S = 0 they cost nothing, and pruning cannot shorten the schedule")]);
    }

    /// Without start-ups the stages an answer leaves exactly empty go
    /// without a re-solve: the point is optimal over the rest as it stands
    /// (m = 436, n = 153: the shape of the optimum leaves 95 stages at 0,
    /// and 3 more within EMPTY of 0, which keep their load and are said).
    #[test]
    fn without_start_ups_exactly_empty_stages_go_without_a_re_solve() {
        let load = Load::new(0.0, 2.389784324002287e-8, 8.111844438048016e-3, 529720.4616682616);
        let with = |prune| solved(436.0, load, 22.924568646489163, 153.0, prune);
        let (pruned, raw) = (with(true), with(false));
        assert_eq!((pruned.lp.solves, pruned.n, raw.n), (1, 58, 153));
        assert_eq!((pruned.schedule.makespan, &pruned.loads), (raw.schedule.makespan, &raw.loads));
        assert_eq!(pruned.warnings[..2], ["95 of 153 stages were empty and were dropped", "3 stages got no load and were kept: with S = 0 they cost nothing, and pruning cannot shorten the schedule"]);
    }

    /// At m n D = V the full LP is exact and presolve removes all of it, so
    /// even a large one is not left to the later-stages-full method.
    #[test]
    fn full_buffers_take_the_exact_lp_at_any_size() {
        let out = star(&StarParams { m: 10.0, load: Load::new(1e-3, 1e-6, 1e-3, 1e6), stages: Stages::new(Some(100.0), None, Some(false)) }).unwrap();
        assert_eq!((out.n, out.gap, out.lp.iterations), (1000, None, 0));
        assert!(out.chunks.iter().flatten().all(|&x| relative_eq!(x, 100.0, max_relative = 1e-9)));
    }

    /// Fig. 7's D = 1 line at V = 1E6: 1E5 stages, every chunk full, so
    /// the messages go back to back and the last processor computes one
    /// unit after the last: Cmax = n m (S + C D) + A D. The answer lists
    /// the first and last two stages, at their true times, and says so;
    /// each processor's total still counts every stage.
    #[test]
    fn the_papers_largest_d1_point_is_listed_in_part() {
        let (s, c, a, v) = (1e-3, 1e-6, 1e-3, 1e6);
        let out = star(&StarParams { m: 10.0, load: Load::new(s, c, a, v), stages: Stages::new(Some(1.0), None, None) }).unwrap();
        assert_eq!((out.n, out.omitted), (100_000, Some(Omitted { from: 2, stages: 99_996 })));
        assert_relative_eq!(out.schedule.makespan, 1e6 * (s + c) + a, max_relative = 1e-10);
        assert_eq!(out.chunks.len(), 4);
        assert!(out.loads.iter().all(|&x| relative_eq!(x, 1e5, max_relative = 1e-12)));
        let listed: f64 = out.chunks.iter().flatten().sum();
        assert_eq!((listed, out.schedule.listed_load, out.schedule.total_load), (40.0, Some(40.0), v));
        let last = out.schedule.intervals.iter().map(|i| i.end).fold(0.0, f64::max);
        assert_relative_eq!(last, out.schedule.makespan, max_relative = 1e-10);
        assert!(out.warnings.iter().any(|w| w.contains("leave out stages 3 to 99998")), "{:?}", out.warnings);
    }

    /// Found by the adversarial suite: with V = 1e-9 the buffer bounds are
    /// 1e13 load units, and presolve took the load row's shortfall of one
    /// unit for round-off against them, forcing every chunk to 0.
    #[test]
    fn tiny_loads_under_huge_buffers() {
        for v in [1e-9, 1e-6, 1.0] {
            let out = star(&StarParams { m: 10.0, load: Load::new(1e-3, 1e-6, 1e-3, v), stages: Stages::new(Some(1e4), Some(3.0), Some(false)) }).unwrap();
            // No absolute floor: at V = 1e-9 the default one (f64::EPSILON)
            // would be looser than the relative tolerance.
            assert_relative_eq!(out.loads.iter().sum::<f64>(), v, epsilon = 0.0, max_relative = 1e-9);
        }
    }

    /// Issue 12's star: the paper's pruning keeps all 5 processors
    /// (0.41377); 3 processors in the same 2 stages take 0.25171.
    #[test]
    fn best_beats_the_papers_pruning_on_the_issues_star() {
        let with = |m: f64, prune| StarParams {
            m, load: Load::new(0.040740885631911576, 1.9054490275683655e-05, 3.976658165499617e-05, 333.8891735360823),
            stages: Stages { prune: Some(prune), ..Stages::new(Some(62.254574478506065), None, None) },
        };
        let paper = star(&with(5.0, Prune::Pruned)).unwrap();
        let best = star(&with(5.0, Prune::Best)).unwrap();
        let three = star(&with(3.0, Prune::Raw)).unwrap();
        assert_relative_eq!(paper.schedule.makespan, 0.41377, max_relative = 1e-4);
        assert_relative_eq!(best.schedule.makespan, 0.25171, max_relative = 1e-4);
        assert_relative_eq!(best.schedule.makespan, three.schedule.makespan, max_relative = 1e-12);
        assert_eq!((best.n, best.loads.iter().filter(|&&x| x > 0.0).count()), (2, 3));
        assert_eq!(best.best.unwrap().paper.makespan, paper.schedule.makespan);
    }

    /// A star no system of which has the shape of its optimum (150
    /// processors over 3 stages, communication dominating): each LP goes to
    /// the engine, and the search stops at its iteration budget (before it,
    /// 305 LPs, 152,915 iterations, 4.7 s), no better than the paper's
    /// pruning here either way.
    #[test]
    fn the_search_for_a_smaller_system_stops_at_its_iteration_budget() {
        let with = |prune| star(&StarParams { m: 150.0, load: Load::new(3.222e-6, 8.114e-3, 0.3957, 2.367e11), stages: Stages { prune: Some(prune), ..Stages::new(None, Some(3.0), None) } }).unwrap();
        let (paper, best) = (with(Prune::Pruned), with(Prune::Best));
        let report = best.best.unwrap();
        assert!(report.not_searched > 0 && report.searched > 0, "{report:?}");
        assert!(best.lp.iterations <= paper.lp.iterations + 2 * super::super::best::ITERATIONS, "{:?} after the paper's {:?}", best.lp, paper.lp);
        assert_eq!(best.schedule.makespan, paper.schedule.makespan);
    }

    proptest! {
        #![proptest_config(crate::cases(200))]
        /// The later-stages-full method equals the full LP wherever the full
        /// LP runs: evidence for the structure it assumes. D is drawn with
        /// n_min = n: V / (m D) in (n - 1, n).
        #[test]
        fn later_stages_full_equals_the_full_lp(m in 2usize..8, n in 2usize..32, s in 1e-4..1e-4 + 1e-2, c in 0.0..1e-3, a in 1e-4..1e-4 + 1e-2, v in 1e2..1e2 + 1e5, f in 0.0..1.0) {
            let d = v / (m as f64 * (n as f64 - 0.05 - 0.9 * f));
            let params = StarParams { m: m as f64, load: Load::new(s, c, a, v), stages: Stages::new(Some(d), None, Some(false)) };
            let (lp, n_got, n_min, _) = validate(&params).unwrap();
            assert_eq!((n_got, n_min), (n, n));
            let full = lp.lp_makespan(n);
            let (fast, bound, _) = full_stages::solve(&lp, n).unwrap();
            assert_relative_eq!(fast.makespan, full, max_relative = 1e-7);
            assert!(bound <= full * (1.0 + 1e-9));
            star_schedule(&lp, &fast, Some(d), None).unwrap();
        }
    }
}
