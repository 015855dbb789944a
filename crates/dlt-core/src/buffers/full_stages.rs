//! LoadDirect (star) and BinomialTreeNLF/LLF at n_min, where the shape of
//! the optimum that `chains` searches is not proven. With n = n_min stages
//! the buffers can carry less than one stage more than V: the optimum
//! fills most stages to the buffer and leaves partial chunks at the ends
//! (the first stages when computing dominates, as HiGHS showed on m = 10;
//! the last ones, shrinking, when communication does; often both). Here
//! the first f and last l stages are free and the middle ones full; the
//! two outermost middle stages stand for all of them (`Slot`), so the LP
//! has O((f + l) units) variables whatever n. The window doubles until the
//! shape of its answer is proven optimal for the full LP (`chains::prove`)
//! or the makespan stops improving.
//!
//! Unproven, the answer stands only for more messages than the full LP
//! takes (`applies`): a feasible schedule (the checker verifies it), equal
//! to the full LP wherever the tests could compare, with its gap to a
//! lower bound of the full LP; below that the full LP solves.

use super::best::{self, Answer};
use super::sequential::{Sequential, Slot};
use super::stages::{self, LpSize, Prune, Solved, StageModel};
use super::staging;
use crate::error::Result;
use crate::lp;
use crate::model::Plan;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// Beyond this many messages at n_min, the full LP gives way to the
/// middle stages full even where their answer is not proven.
pub const FULL_LP_MESSAGES: usize = 1000;

/// Whether the n stages of full buffers carry exactly V: the load row then
/// forces every chunk full and presolve leaves nothing of the LP.
fn forced(seq: &Sequential, n: usize) -> bool {
    let all: Vec<usize> = (0..seq.units.len()).collect();
    let capacity = n as f64 * seq.stage_capacity(&all);
    capacity.is_finite() && (capacity - seq.v).abs() <= 1e-12 * seq.v
}

/// Whether the middle stages full are worth trying: n = n_min stages, at
/// least two, unless the buffers are `forced` (the full LP is then exact,
/// and no slower).
fn at_n_min(seq: &Sequential, n: usize, n_min: usize) -> bool {
    n == n_min && n >= 2 && !forced(seq, n)
}

/// Whether `solve` stands in for the full LP, proven or not: `at_n_min`
/// with more messages than the full LP takes.
pub(crate) fn applies(seq: &Sequential, n: usize, n_min: usize) -> bool {
    at_n_min(seq, n, n_min) && n * seq.units.len() > FULL_LP_MESSAGES
}

/// The plan of a star's or binomial tree's request over n stages: the
/// method, and the variables of the first LP the engine gets: none, as the
/// shape of the optimum (`chains`) is tried first; where it is not proven
/// the LP solves after all (the middle stages full at n_min for large n,
/// else the compact LP; the raw one by the interior point method first).
pub(crate) fn plan(seq: &Sequential, n: usize, n_min: usize, prune: Prune) -> Plan {
    let units = seq.units.len();
    let variables = 3 * n * units + 1;
    let method = if forced(seq, n) {
        format!("{} with every chunk full to the buffers (the one feasible point)", seq.name)
    } else {
        let otherwise = if applies(seq, n, n_min) {
            "the middle stages full to the buffers, or the full LP by the interior point method where the windows grow wide"
        } else if at_n_min(seq, n, n_min) {
            "the middle stages full to the buffers or the full LP by the interior point method where either is proven, else the LP in its compact form"
        } else if prune == Prune::Raw || seq.free_messages() {
            "the LP in its compact form by the interior point method where a dual bound proves it, else by the simplex"
        } else {
            "the LP in its compact form"
        };
        format!("{} by the shape of its optimum, proven by a dual bound; where no shape is proven, {otherwise}", seq.name)
    };
    Plan { n: Some(n), n_min: Some(n_min), messages: Some(n * units), variables: Some(variables), solved_variables: Some(0), method: Some(method), ..Plan::default() }
}

/// The n-stage LP solved with the middle stages full where their answer
/// is proven or that `applies`, else in full (pruned as asked), with its
/// warnings (`what` names the units) and, unproven, the gap to a lower
/// bound; for `Prune::Best`, the best smaller system where it is shorter,
/// and the search's report.
pub(crate) fn solve_or_full(seq: &Sequential, n: usize, n_min: usize, prune: Prune, what: &str) -> Result<Answer<()>> {
    let (solved, warnings, gap) = by_paper(seq, n, n_min, prune.paper(), what)?;
    best::apply(seq, n, prune, Answer { solved, warnings, gap, best: None }, what, Ok)
}

fn by_paper(seq: &Sequential, n: usize, n_min: usize, prune: Prune, what: &str) -> Result<(Solved<()>, Vec<String>, Option<f64>)> {
    let all: Vec<usize> = (0..seq.units.len()).collect();
    if at_n_min(seq, n, n_min) {
        // Every unit and stage loaded: nothing for the paper's pruning to drop.
        let whole = |chunks: &[Vec<f64>]| prune == Prune::Raw || {
            let (units, stages) = stages::loaded(chunks, all.len(), seq.scale.0);
            units.len() == all.len() && stages == n
        };
        match super::chains::solve(seq, &all, n) {
            Some(proven) if applies(seq, n, n_min) || whole(&proven.chunks) => {
                let solved = Solved { kept: all, chunks: proven.chunks, makespan: proven.makespan, lp: LpSize::NONE.by_structure(), solution: None, handles: () };
                return Ok((solved, Vec::new(), None));
            }
            // Optimal, with empty stages or units that the paper's pruning
            // drops: the pruning below.
            Some(_) => {}
            // The middle stages full, proven by the shape of the windows'
            // answer: the full LP then never solves (000 Fig. 5(a)'s
            // D = 100, V = 2.2E5: 270 stages of 3 layers, 2,431 variables).
            None => {
                let (solved, bound, interior) = solve(seq, n)?;
                let gap = (solved.makespan - bound) / solved.makespan;
                let how = if interior {
                    format!("n = n_min = {n}: the full LP ({} variables) solved by the interior point method", solved.lp.variables)
                } else {
                    format!("n = n_min = {n}: solved with the middle stages full to the buffers ({} variables instead of {})", solved.lp.variables, 3 * n * seq.units.len() + 1)
                };
                if gap <= super::chains::PROOF && whole(&solved.chunks) {
                    return Ok((solved, vec![format!("{how}; optimal: a dual bound meets the makespan")], None));
                }
                if applies(seq, n, n_min) {
                    return Ok((solved, vec![format!("{how}; not proven optimal, within {gap:.2e} of a lower bound")], Some(gap)));
                }
            }
        }
    }
    let solved = stages::solve(seq, n, prune)?;
    let free = prune == Prune::Pruned && seq.free_messages();
    let solved = if free { stages::without_zeros(solved) } else { solved };
    let mut warnings = stages::dropped(seq.units.len(), &solved, n, what);
    if free {
        warnings.extend(stages::kept_empty(&solved, seq.scale.0, what));
    }
    Ok((solved, warnings, None))
}

/// The answer with the middle stages full, and a lower bound on the full
/// LP's optimum: its makespan where the shape of a window's answer proves
/// it (`chains::prove`), which ends the widening; or the full LP's answer
/// by the interior point method, proven (then true).
pub(crate) fn solve(seq: &Sequential, n: usize) -> Result<(Solved<()>, f64, bool)> {
    let all: Vec<usize> = (0..seq.units.len()).collect();
    let (mut proven, mut interior) = (None, false);
    let solved = staging::widening(|window| {
        let (f, l) = (window.min(n), window.min(n.saturating_sub(window)));
        // A window of a quarter of the stages or more costs the simplex
        // about what the full LP does (a star of 872 processors, n = 9:
        // 2.4 s at f = l = 2, 15 s at f = l = 4, 85 s for the full LP, none
        // proven): the full LP by the interior point method instead
        // (0.28 s), proven where its bounds meet.
        let mut spent = LpSize::NONE;
        if 4 * (f + l) >= n {
            match seq.interior(&all, n, LpSize::NONE) {
                Ok((once, bound)) => {
                    (proven, interior) = (Some(bound), true);
                    return Ok((once, None));
                }
                Err(work) => spent = work,
            }
        }
        let mut once = windowed(seq, n, f, l)?;
        once.lp = spent.and(&once.lp);
        if let Some((p, bound)) = super::chains::prove(seq, &all, &once.chunks) {
            (once.chunks, once.makespan) = (p.chunks, p.makespan);
            proven = Some(bound);
        }
        Ok((once, (proven.is_none() && f + l < n).then_some(2 * window)))
    })?;
    Ok((solved, proven.unwrap_or_else(|| lower_bound(seq, n)), interior))
}

/// The LP with stages [0, f) and [n - l, n) free, the rest full.
fn windowed(seq: &Sequential, n: usize, f: usize, l: usize) -> Result<Solved<()>> {
    let full = |repeats| Slot { full: true, repeats };
    let mut slots = vec![Slot::FREE; f];
    match n - f - l {
        0 => {}
        1 => slots.push(full(0)),
        middle => slots.extend([full(middle - 2), full(0)]),
    }
    slots.extend(vec![Slot::FREE; l]);
    let kept: Vec<usize> = (0..seq.units.len()).collect();
    let (lp, alpha, cmax) = seq.compact_slots(&kept, &slots);
    let sol = lp::solve(&lp::Auto, &lp, seq.name)?;
    let (x0, tau) = seq.scale;
    let mut chunks = Vec::with_capacity(n);
    for (slot, vars) in slots.iter().zip(&alpha) {
        let stage: Vec<f64> = vars.iter().zip(&seq.units).map(|(&x, u)| if slot.full { u.cap } else { (sol.get(x).max(0.0) * x0).min(u.cap) }).collect();
        chunks.extend(core::iter::repeat_n(stage, 1 + slot.repeats));
    }
    let size = LpSize::NONE.then(&lp, &sol);
    Ok(Solved { kept, chunks, makespan: sol.get(cmax) * tau, lp: size, solution: Some(sol), handles: () })
}

/// The larger of the two lower bounds of the n-stage LP (`bounds`).
fn lower_bound(seq: &Sequential, n: usize) -> f64 {
    let all: Vec<usize> = (0..seq.units.len()).collect();
    let (link, computing) = StageModel::bounds(seq, &all, n);
    link.max(computing)
}

#[cfg(test)]
mod tests {
    use super::super::stages;
    use super::*;
    use approx::assert_relative_eq;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(crate::cases(120))]
        /// The middle stages full equals the full LP wherever the full LP runs,
        /// for layered units (binomial trees: each its own rate, buffer and
        /// processor count, served last to first) as for stars: evidence for
        /// the structure it assumes. V is drawn with n_min = n: V / (stage
        /// capacity) in (n - 1, n).
        #[test]
        fn middle_stages_full_equals_the_full_lp_for_layers(units in 2usize..6, n in 2usize..22, s in 1e-4..1e-4 + 1e-2, c in 0.0..1e-3, a in 1e-4..1e-4 + 1e-2, layered: bool, f in 0.0..1.0) {
            let mut seq = Sequential::example(units, s, c, a, 1.0, Some(1.0), layered);
            let all: Vec<usize> = (0..units).collect();
            seq.v = seq.stage_capacity(&all) * (n as f64 - 0.05 - 0.9 * f);
            seq.scale = stages::lp_scale(seq.v, Some(1.0), s + seq.v * a / units as f64);
            let full = seq.lp_makespan(n);
            let (fast, bound, _) = solve(&seq, n).unwrap();
            assert_relative_eq!(fast.makespan, full, max_relative = 1e-9);
            assert!(bound <= full * (1.0 + 1e-9), "bound {bound} above the optimum {full}");
            let load: f64 = fast.chunks.iter().flat_map(|st| st.iter().zip(&seq.units).map(|(x, u)| x * u.count)).sum();
            assert_relative_eq!(load, seq.v, max_relative = 1e-9);
            // As the calculator answers: proven (no gap), by the searched
            // shapes, the windows' shape or the full LP, and the optimum.
            let (paper, _, gap) = by_paper(&seq, n, n, Prune::Raw, "units").unwrap();
            prop_assert_eq!(gap, None);
            assert_relative_eq!(paper.makespan, full, max_relative = 1e-9);
        }
    }

    proptest! {
        #![proptest_config(crate::cases(400))]
        /// A binomial tree's answer at n_min equals the full LP's where the
        /// chunks' times weigh as much as the start-ups, as in 000 Fig. 5(a)
        /// (S = 1e-2, C D = 1e-1, A D = 1): there the searched shapes often
        /// miss the optimum and the windows' shape proves it (126 of 3,000
        /// cases, 2 left to the LP).
        #[test]
        fn binomial_at_n_min_is_the_full_lp(p in 1u8..4, h in 2usize..5, n in 2usize..40, s in 1e-4..1e-1, c in 1e-4..1e-2, a in 1e-4..1e-1, llf: bool, f in 0.0..1.0) {
            use super::super::binomial::validate;
            use super::super::{BinomialParams, Order};
            use crate::costs::Load;
            let (p, d) = (f64::from(p), 1e2);
            let v = d * (h as f64 * (p + 1.0) - 1.0) * (n as f64 - 0.05 - 0.9 * f);
            let order = if llf { Order::Llf } else { Order::Nlf };
            let params = BinomialParams { p, h: h as f64, load: Load::new(s, c, a, v), stages: stages::Stages::new(Some(d), None, None), order };
            let (seq, _, n, n_min) = validate(&params).unwrap();
            let (paper, _, gap) = by_paper(&seq, n, n_min, Prune::Raw, "layers").unwrap();
            prop_assert_eq!(gap, None);
            assert_relative_eq!(paper.makespan, seq.lp_makespan(n), max_relative = 1e-9);
        }
    }

    /// 000 Fig. 5(a)'s D = 100 at V = 2.2E5 (binomial tree, h = 3, NLF):
    /// 270 stages with partial chunks at both ends, which the searched
    /// shapes miss. The windows' answer is proven by its own shape, so the
    /// full LP (2,431 variables) never solves, and it is the full LP's
    /// optimum.
    #[test]
    fn windows_proven_by_their_shape_stand_for_the_full_lp() {
        use super::super::binomial::validate;
        use super::super::{BinomialParams, Order};
        use crate::costs::Load;
        let params = BinomialParams { p: 2.0, h: 3.0, load: Load::new(0.01, 0.001, 0.01, 215_443.0), stages: stages::Stages::new(Some(100.0), None, None), order: Order::Nlf };
        let (seq, _, n, n_min) = validate(&params).unwrap();
        assert_eq!((n, n_min), (270, 270));
        assert!(!applies(&seq, n, n_min));
        let all: Vec<usize> = (0..seq.units.len()).collect();
        assert!(super::super::chains::solve(&seq, &all, n).is_none());
        let (solved, warnings, gap) = by_paper(&seq, n, n_min, Prune::Pruned, "layers").unwrap();
        assert_eq!(gap, None);
        assert!(solved.lp.variables < 200, "{} variables", solved.lp.variables);
        assert!(warnings[0].contains("optimal: a dual bound meets the makespan"), "{warnings:?}");
        assert_relative_eq!(solved.makespan, seq.lp_makespan(n), max_relative = 1e-9);
    }

    /// Where a window would free a quarter of the stages or more, the full
    /// LP goes to the interior point method instead, and its answer is the
    /// full LP's optimum, proven: a star of 11 processors without
    /// start-ups at n_min = 4, where the first window already frees 2.
    #[test]
    fn wide_windows_give_way_to_the_full_lp_by_the_interior_point_method() {
        let mut seq = Sequential::example(11, 0.0, 3.18e-3, 1.27e-3, 1.0, Some(1.0), false);
        let all: Vec<usize> = (0..11).collect();
        seq.v = seq.stage_capacity(&all) * 3.5;
        seq.scale = stages::lp_scale(seq.v, Some(1.0), seq.v * 1.27e-3 / 11.0);
        let (solved, bound, interior) = solve(&seq, 4).unwrap();
        assert!(interior, "the windows answered");
        assert_relative_eq!(solved.makespan, seq.lp_makespan(4), max_relative = 1e-9);
        assert!(solved.makespan - bound <= super::super::chains::PROOF * solved.makespan);
        assert_eq!(solved.lp.variables, 3 * 4 * 11 + 1);
    }
}
