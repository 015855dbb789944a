//! 002 LP (1)-(4): one message per processor, served in the given order,
//! each processor's computing time a convex piecewise-linear function of
//! its load; more memory levels are more pieces, one row each. The
//! calculator solves it by its structure (`deadline`, a recursion over the
//! processors, no simplex); the LP is what `dlt export` writes and what the
//! tests hold the recursion to.
//!
//! Rows (1) sum every earlier message, O(m^2) nonzeros. Here R_i, the time
//! left to Cmax once the message to P_i has arrived, is a variable:
//! R_0 = Cmax, R_i = R_(i-1) - S_i - C_i alpha_i, and each piece of (2)-(3)
//! bounds it directly, a + b alpha_i <= R_i, with no t_i: the exported LP
//! stays sparse.

use super::{deadline, processors, Processor};
use crate::check::Checked;
use crate::buffers::{staging, LpSize, Prune, EMPTY};
use crate::error::{Error, Result};
use crate::explain::Equations;
use crate::lp::{self, Model, Sense, Var};
use crate::schedule::{Row, Schedule};
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(deny_unknown_fields)]
pub struct MemoryParams {
    #[serde(rename = "V")]
    pub v: f64,
    pub processors: Vec<Processor>,
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub prune: Option<bool>,
    /// Pieces per processor to run the computed distribution under (002
    /// Fig. 3b, 3c: a distribution computed with a linear model, run on
    /// processors with a memory hierarchy).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "[number, number][][]"))]
    pub real_pieces: Option<Pieces>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct MemoryOutput {
    /// alpha_i of each processor, in the given order.
    pub loads: Vec<f64>,
    /// t_i: computing time of each processor at its load.
    pub compute_times: Vec<f64>,
    /// Each processor's swap point; null for one that never swaps.
    pub swap_points: Vec<Option<f64>>,
    /// Makespan of these loads run under `real_pieces`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub real_makespan_under_hierarchy: Option<f64>,
    pub lp: LpSize,
    pub warnings: Vec<String>,
    #[serde(flatten)]
    pub schedule: Checked,
}

/// The equations of 002 the rows of `hierarchy_lp` write: `sent` the
/// communication sum of (1), `c1` (1) with each piece of (2), (3).
pub(super) const HIERARCHY: Equations = Equations { paper: "002", program: "(1)-(4)", rows: &[("sent", "(1)"), ("c1", "(1)-(3)"), ("c4", "(4)")] };

/// LP (1)-(4) over the processors `kept`, loads in V, times in `tau`.
pub(super) fn hierarchy_lp(v: f64, list: &[Processor], kept: &[usize], tau: f64) -> (Model, Vec<Var>, Var) {
    let mut lp = Model::default();
    let cmax = lp.var("Cmax", 0.0, f64::INFINITY, 1.0);
    let alpha: Vec<Var> = kept.iter().map(|i| lp.var(format!("alpha_{}", i + 1), 0.0, f64::INFINITY, 0.0)).collect();
    let mut previous = cmax;
    for (j, &i) in kept.iter().enumerate() {
        let p = &list[i];
        let n = i + 1;
        // Free: the pieces at load 0 (nonnegative, validated) keep it >= 0.
        let left = lp.var(format!("R_{n}"), f64::NEG_INFINITY, f64::INFINITY, 0.0);
        lp.row(format!("sent_{n}"), vec![(left, 1.0), (previous, -1.0), (alpha[j], p.c * v / tau)], Sense::Eq, -p.s / tau);
        previous = left;
        // (1) with (2), (3) and more levels: computing ends by Cmax.
        for (l, &(a, b)) in p.pieces.iter().enumerate() {
            lp.row(format!("c1_{n}_{}", l + 1), vec![(alpha[j], b * v / tau), (left, -1.0)], Sense::Le, -a / tau);
        }
    }
    // (4)
    lp.row("c4", alpha.iter().map(|&a| (a, 1.0)).collect(), Sense::Eq, 1.0);
    (lp, alpha, cmax)
}

/// Pieces per processor.
type Pieces = Vec<Vec<(f64, f64)>>;

fn validate(p: &MemoryParams) -> Result<Option<Pieces>> {
    crate::costs::V.check(p.v)?;
    processors("processors", &p.processors)?;
    super::nonnegative_at_zero("processors", &p.processors)?;
    let Some(real) = &p.real_pieces else { return Ok(None) };
    if real.len() != p.processors.len() {
        return Err(Error::range("real_pieces", format!("real_pieces must list pieces for each of the {} processors", p.processors.len())));
    }
    let as_processors: Vec<Processor> = real.iter().map(|pieces| Processor { s: 0.0, c: 0.0, pieces: pieces.clone() }).collect();
    processors("real_pieces", &as_processors).map_err(|mut e| {
        e.field = e.field.replace(".pieces", "");
        e
    })?;
    Ok(Some(real.clone()))
}

/// The LP's unit of time: the makespan of the best single processor doing
/// all the load while the others get empty messages, an upper bound of the
/// optimum (so that one very slow processor does not set the scale).
pub(super) fn time_unit(v: f64, list: &[Processor], kept: &[usize]) -> f64 {
    let kept = || kept.iter().map(|&i| &list[i]);
    let startups: f64 = kept().map(|q| q.s + q.time(0.0)).sum();
    startups + kept().map(|q| q.c * v + q.time(v)).fold(f64::INFINITY, f64::min)
}

/// LP (1)-(4) as printed, every processor, for export, with its units.
pub fn memory_lp(params: &MemoryParams) -> Result<(Model, lp::Units)> {
    validate(params)?;
    let all: Vec<usize> = (0..params.processors.len()).collect();
    let tau = time_unit(params.v, &params.processors, &all);
    Ok((hierarchy_lp(params.v, &params.processors, &all, tau).0, lp::units(params.v, tau)))
}

/// The variables of `hierarchy_lp` over m processors: Cmax, alpha_i, R_i.
fn lp_variables(m: usize) -> usize {
    2 * m + 1
}

/// The LP's size: one message per processor; Cmax, alpha_i and R_i are
/// the variables of `hierarchy_lp` (a test holds every LP model's plan to
/// its exported program). Counted, not built: solving builds no LP.
pub(crate) fn plan(params: &MemoryParams) -> Result<crate::model::Plan> {
    validate(params)?;
    let m = params.processors.len();
    let method = "LP (1)-(4) solved by its structure: a recursion over the processors, no simplex (the LP where round-off misses)";
    Ok(crate::model::Plan { messages: Some(params.processors.len()), variables: Some(lp_variables(m)), solved_variables: Some(0), method: Some(method.into()), ..Default::default() })
}

pub fn memory(params: &MemoryParams) -> Result<MemoryOutput> {
    let real = validate(params)?;
    let (v, list) = (params.v, &params.processors);
    let all: Vec<usize> = (0..list.len()).collect();
    let mut size = LpSize::NONE;
    let (kept, (loads, cmax)) = staging::pruned(Prune::from(params.prune), all, |kept| {
        // The LP where the recursion misses its own optimum, and is within
        // the engine's reach (m = 100,000 is not).
        let procs: Vec<&Processor> = kept.iter().map(|&i| &list[i]).collect();
        let (loads, cmax) = match deadline::solve(v, &procs) {
            Some(r) if r.meets() || lp_variables(kept.len()) > lp::MAX_VARIABLES => (r.loads, r.makespan),
            _ => {
                let loads = by_lp(v, list, kept, &mut size)?;
                let makespan = deadline::makespan(&procs, &loads);
                (loads, makespan)
            }
        };
        let full: Vec<usize> = (0..kept.len()).filter(|&j| loads[j] > EMPTY * v).collect();
        let smaller = (full.len() < kept.len()).then(|| full.iter().map(|&j| kept[j]).collect());
        Ok(((loads, cmax), smaller))
    })?;
    let mut warnings = Vec::new();
    if kept.len() < list.len() {
        warnings.push(format!("{} of {} processors received no load and were dropped", list.len() - kept.len(), list.len()));
    }
    let mut all = vec![0.0; list.len()];
    for (j, &i) in kept.iter().enumerate() {
        all[i] = loads[j];
    }
    let schedule = memory_schedule(v, list, &kept, &loads, cmax)?;
    let real_makespan_under_hierarchy = real.map(|real| super::served_in_order(kept.iter().zip(&loads).map(|(&i, &x)| (&list[i], &real[i][..], x))));
    Ok(MemoryOutput {
        compute_times: all.iter().zip(list).map(|(&x, q)| q.time(x)).collect(),
        swap_points: list.iter().map(|q| Some(super::levels(&q.pieces).swap_point).filter(|x| x.is_finite())).collect(),
        loads: all,
        real_makespan_under_hierarchy,
        lp: size,
        warnings,
        schedule,
    })
}

/// LP (1)-(4) over the processors `kept` by the engine, where the
/// recursion's round-off leaves it without its optimum (`deadline::solve`):
/// the loads, scaled to add up to V; its work added to `size`.
fn by_lp(v: f64, list: &[Processor], kept: &[usize], size: &mut LpSize) -> Result<Vec<f64>> {
    let tau = time_unit(v, list, kept);
    let (model, alpha, _) = hierarchy_lp(v, list, kept, tau);
    let sol = lp::solve(&lp::Auto, &model, "memory hierarchy")?;
    *size = size.then(&model, &sol);
    let mut loads: Vec<f64> = alpha.iter().map(|&a| sol.get(a).max(0.0)).collect();
    let sum: f64 = loads.iter().sum();
    loads.iter_mut().for_each(|x| *x *= v / sum);
    Ok(loads)
}

/// The originator sends in the given order, back to back; each processor
/// computes its load once it has arrived (a processor the raw LP keeps
/// without load still pays its start-up and its time at load 0).
fn memory_schedule(v: f64, list: &[Processor], kept: &[usize], loads: &[f64], makespan: f64) -> Result<Checked> {
    let mut rows = vec![Row::originator(v)];
    for &i in kept {
        let q = &list[i];
        rows.push(Row { compute: q.cost(), ..Row::linear(format!("P{}", i + 1), 1.0, q.s, q.c, 0.0) });
    }
    let mut schedule = Schedule::new(rows, v);
    let mut wire = 0.0;
    for (j, &x) in loads.iter().enumerate() {
        wire = schedule.send(0, j + 1, wire, x, 1.0);
        if x > 0.0 || schedule.rows[j + 1].compute.time(0.0) > 0.0 {
            schedule.run(j + 1, wire, x);
        }
    }
    schedule.makespan = makespan;
    crate::checked(schedule)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn processor(s: f64, c: f64, pieces: &[(f64, f64)]) -> Processor {
        Processor { s, c, pieces: pieces.to_vec() }
    }

    /// The makespan of `loads` over `list`, served in order.
    fn served(list: &[Processor], loads: &[f64]) -> f64 {
        deadline::makespan(&list.iter().collect::<Vec<_>>(), loads)
    }

    /// Found by a sweep of extreme parameters (times of 1e-11): the slope
    /// of W left of its first breakpoint was read one second away, and the
    /// makespan came out 57 % above that of P3 doing all the load.
    #[test]
    fn times_of_1e_11_are_read_on_their_own_scale() {
        let list = vec![
            processor(3.540439500357752e-29, 0.13511157558788628, &[(1.6309631445032124e-20, 2.2756614066776546e-22), (-1.8543535759236403e-19, 1.404106300619368e-19)]),
            processor(1.398248710692741e-27, 0.0, &[(0.0, 1.77740922168032e-05), (-1.1875239235319584e-06, 0.0006392261449544265)]),
            processor(0.0, 1.3790290615829944e-30, &[(0.0, 2.428338225928122e-12), (-1.801212943172616e-11, 4.937210379621323e-11), (-7.917694234956922e-10, 1.7795622077251653e-11)]),
            processor(9.157035158458158e-12, 0.0, &[(0.0, 8.891972119517634)]),
        ];
        let v = 1.3213786428678163;
        let out = memory(&MemoryParams { v, processors: list.clone(), prune: Some(false), real_pieces: None }).unwrap();
        let p3 = served(&list, &[0.0, 0.0, v, 0.0]);
        assert!(out.schedule.makespan <= p3 * (1.0 + 1e-9), "{} against P3 alone's {p3}", out.schedule.makespan);
    }

    /// Where the recursion's loads miss the optimum it read off (two
    /// processors whose times are 1e-11 for 2e7 units), the LP is asked:
    /// both end together, P1 at (C1 + b1) x1 with x1 = (a2 + b2 V) / (b1 + b2).
    #[test]
    fn the_lp_answers_where_the_recursion_misses_its_optimum() {
        let (c1, b1, a2, b2, v) = (2.697094137316037e-27, 1.849584227151419e-14, 1.233444702731957e-22, 4.882134166742437e-18, 19421825.535854813);
        let out = memory(&MemoryParams { v, processors: vec![processor(0.0, c1, &[(0.0, b1)]), processor(0.0, 0.0, &[(a2, b2)])], prune: None, real_pieces: None }).unwrap();
        let x1 = (a2 + b2 * v) / (b1 + b2);
        assert_eq!(out.lp.solves, 1);
        assert!((out.schedule.makespan - (c1 + b1) * x1).abs() <= 1e-9 * out.schedule.makespan, "{} against {}", out.schedule.makespan, (c1 + b1) * x1);
    }

    /// Found by a sweep of extreme parameters: where time hardly depends on
    /// load (C and b of 1e-24 beside S and a of 1e-5), the loads read off
    /// the recursion's times lost 7e-5 of V, and the checker refused the
    /// schedule. One processor does all the load: S + C V + a + b V.
    #[test]
    fn loads_that_hardly_cost_time_still_add_up_to_v() {
        for (v, s, c, a, b) in [(653384.1484388561, 3.6295594772768784e-20, 5.668001497542658e-26, 1.6780688746220997e-05, 7.831036715614057e-24), (1744.4756574326427, 3.547673922321103e-10, 5.1879764619618825e-12, 0.13260674370060832, 6.08114123241243e-21)] {
            let out = memory(&MemoryParams { v, processors: vec![processor(s, c, &[(a, b)])], prune: None, real_pieces: None }).unwrap();
            let whole = s + c * v + a + b * v;
            assert_eq!(out.loads, [v]);
            assert!((out.schedule.makespan - whole).abs() <= 1e-12 * whole, "{} against {whole}", out.schedule.makespan);
        }
    }

    /// A time coefficient of 1e-30 to 1e2, or none.
    fn coefficient() -> impl Strategy<Value = f64> {
        prop_oneof![1 => Just(0.0), 4 => (-30.0..2.0f64).prop_map(|e| libm::pow(10.0, e))]
    }

    proptest! {
        #![proptest_config(crate::cases(200))]
        /// Coefficients 32 orders of magnitude apart (a sweep of them found
        /// panics, schedules the checker refused and a makespan 57 % above
        /// the optimum): an answer carrying V, no worse than any processor
        /// doing all the load but for V's round-off (1e-15 V at the
        /// costliest rate: V = 1 at 1.36 per unit beside a makespan of
        /// 7.9e-8 is 1.7e-9 of it).
        #[test]
        fn extreme_coefficients_give_the_optimum(units in prop::collection::vec((coefficient(), coefficient(), coefficient(), (-30.0..2.0f64).prop_map(|e| libm::pow(10.0, e))), 1..8), v in (-3.0..8.0f64).prop_map(|e| libm::pow(10.0, e))) {
            let list: Vec<Processor> = units.iter().map(|&(s, c, a, b)| processor(s, c, &[(a, b)])).collect();
            let out = memory(&MemoryParams { v, processors: list.clone(), prune: Some(false), real_pieces: None }).unwrap();
            prop_assert!((out.loads.iter().sum::<f64>() - v).abs() <= 1e-9 * v);
            let round_off = 1e-15 * v * units.iter().map(|&(_, c, _, b)| c + b).fold(0.0, f64::max);
            for i in 0..list.len() {
                let mut one = vec![0.0; list.len()];
                one[i] = v;
                let alone = served(&list, &one);
                prop_assert!(out.schedule.makespan <= alone * (1.0 + 1e-9) + round_off, "{} > P{} alone's {alone}", out.schedule.makespan, i + 1);
            }
        }
    }

    proptest! {
        #![proptest_config(crate::cases(60))]
        /// The optimum is no worse than the equal split or than one processor
        /// doing all, and pruning never makes it worse. Each processor has two
        /// levels, A1 and A2 = A1 k, meeting at the swap point swp.
        #[test]
        fn no_worse_than_simple_distributions(units in prop::collection::vec((0.1..1.1, 0.5..0.5 + 3.0, 2.0..2.0 + 20.0, 0.0..0.5, 0.0..1.0), 1..7), v in 0.5..0.5 + 10.0) {
            let m = units.len();
            let list: Vec<Processor> = units
                .iter()
                .map(|&(a1, swp, k, s, c)| {
                    let a2 = a1 * k;
                    Processor { s, c, pieces: vec![(0.0, a1), ((a1 - a2) * swp, a2)] }
                })
                .collect();
            // Processors served in order, each computing once its load arrived.
            let simulate = |loads: &[f64]| served(&list, loads);
            let raw = memory(&MemoryParams { v, processors: list.clone(), prune: Some(false), real_pieces: None }).unwrap();
            let pruned = memory(&MemoryParams { v, processors: list.clone(), prune: Some(true), real_pieces: None }).unwrap();
            let equal = simulate(&vec![v / m as f64; m]);
            assert!(raw.schedule.makespan <= equal * (1.0 + 1e-9), "{} > equal split {equal}", raw.schedule.makespan);
            for i in 0..m {
                let mut one = vec![0.0; m];
                one[i] = v;
                assert!(raw.schedule.makespan <= simulate(&one) * (1.0 + 1e-9));
            }
            assert!(pruned.schedule.makespan <= raw.schedule.makespan * (1.0 + 1e-9));
        }
    }
}
