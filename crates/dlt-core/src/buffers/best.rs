//! `"prune": "best"`: the paper's procedure (000 Sec. 3) only drops stages
//! and units that the optimum leaves empty, so a smaller system can be
//! shorter and it never finds it (a star of 5 processors, n = 2: 0.41377
//! pruned, 0.25171 on 3 processors). Here every smaller system is tried:
//! the first u units (processors of a star, the layers nearest the
//! originator of a tree) over n' stages, from their own n_min up to n, each
//! LP solved exactly (by its shape or by the engine). Lower bounds skip
//! what cannot win; the link's start-ups grow with n', so past the first
//! n' whose bound reaches the best, no larger n' is tried.

use super::stages::{self, LpSize, Prune, Solved, StageModel};
use crate::error::{Code, Result};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;

/// Messages (units times stages) the search may solve in all, beyond the
/// paper's own solve: the work budget that keeps "best" within the time of
/// a few ordinary requests.
pub const MESSAGES: usize = 200_000;

/// LP iterations the search may spend beyond the paper's own solve: a
/// system whose optimum's shape is not found is solved by the engine, and
/// within MESSAGES a star of 830 processors over 3 stages (communication
/// dominating, no shape) took 646 LPs, 506,587 iterations and 34 s.
pub const ITERATIONS: u64 = 20_000;

/// A system the search compared: its units, stages and makespan.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Subsystem {
    /// Processors of a star, layers of a tree.
    pub units: usize,
    pub stages: usize,
    pub makespan: f64,
}

impl Subsystem {
    fn of<H>(solved: &Solved<H>) -> Subsystem {
        Subsystem { units: solved.kept.len(), stages: solved.chunks.len(), makespan: solved.makespan }
    }
}

/// What the search did: the paper's procedure's answer beside the best,
/// how many systems were solved, and how many the budget left unsolved.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct BestReport {
    pub paper: Subsystem,
    pub searched: usize,
    pub not_searched: usize,
}

/// What a stage model's request gets: the solution, its warnings, the gap
/// where not proven, and for `"prune": "best"` the search's report.
pub(crate) struct Answer<H> {
    pub solved: Solved<H>,
    pub warnings: Vec<String>,
    pub gap: Option<f64>,
    pub best: Option<BestReport>,
}

/// `paper`, the answer of the paper's procedure, as `prune` asks: for
/// `Best`, the best smaller system where it is shorter (`what` names the
/// units in the warning), the gap dropped where a shorter system was
/// solved exactly, and the search's report.
pub(crate) fn apply<M: StageModel, H>(m: &M, n: usize, prune: Prune, paper: Answer<H>, what: &str, convert: impl Fn(Solved<M::Handles>) -> Result<Solved<H>>) -> Result<Answer<H>> {
    if prune != Prune::Best {
        return Ok(paper);
    }
    // Without start-ups a smaller system is the whole one with some
    // messages left empty, at no cost: never shorter. Searched, the
    // engine's answers and the interior point method's, each within its
    // tolerance of the optimum, took turns being "shorter" by 8e-10.
    if m.free_messages() {
        let report = BestReport { paper: Subsystem::of(&paper.solved), searched: 0, not_searched: 0 };
        let mut warnings = paper.warnings;
        warnings.push(String::from("prune = \"best\": with S = 0 no smaller system can be shorter than the paper's pruning (none searched)"));
        return Ok(Answer { best: Some(report), warnings, ..paper });
    }
    let (solved, report) = best(m, n, paper.solved, convert)?;
    let warnings = warnings(paper.warnings, &report, &solved, what);
    let gap = paper.gap.filter(|_| !beats_paper(&report, &solved));
    Ok(Answer { solved, warnings, gap, best: Some(report) })
}

/// The shortest of `paper` (the paper's pruning over all units and n
/// stages) and every smaller system's raw LP. `convert` turns a solve's
/// handles into the ones `paper` has. Its work is added to the answer's.
fn best<M: StageModel, H>(m: &M, n: usize, paper: Solved<H>, convert: impl Fn(Solved<M::Handles>) -> Result<Solved<H>>) -> Result<(Solved<H>, BestReport)> {
    let mut report = BestReport { paper: Subsystem::of(&paper), searched: 0, not_searched: 0 };
    let mut work = paper.lp.clone();
    let mut best = paper;
    let mut budget = MESSAGES;
    let paper_iterations = work.iterations;
    let total = m.unit_count();
    for u in 1..=total {
        let kept: Vec<usize> = (0..u).collect();
        for stages in n_min(m, &kept)..=n {
            // The raw LP of every unit over n stages is never shorter than
            // the paper's pruning of it.
            if (u, stages) == (total, n) {
                continue;
            }
            let (rising, other) = m.bounds(&kept, stages);
            if rising >= best.makespan {
                break;
            }
            if other >= best.makespan {
                continue;
            }
            if u * stages > budget || work.iterations - paper_iterations > ITERATIONS {
                report.not_searched += 1;
                continue;
            }
            budget -= u * stages;
            match stages::solve_kept(m, &kept, stages, work.clone(), stages::Optimum::Vertex) {
                Ok(solved) => {
                    report.searched += 1;
                    work = solved.lp.clone();
                    if solved.makespan < best.makespan * (1.0 - 1e-12) {
                        best = convert(solved)?;
                    }
                }
                Err(e) if e.code == Code::Limit => report.not_searched += 1,
                // n_min rounded down at an exact multiple of the capacity.
                Err(e) if e.code == Code::Infeasible => {}
                Err(e) => return Err(e),
            }
        }
    }
    best.lp = LpSize { iterations: work.iterations, solves: work.solves, ..best.lp };
    Ok((best, report))
}

/// The fewest stages that carry V to `kept` (1 without buffers).
fn n_min<M: StageModel>(m: &M, kept: &[usize]) -> usize {
    let stages = m.load() / m.stage_capacity(kept);
    // Round-off must not make a stage more: ceil of 2.0000000000000004 is 3.
    if stages.is_finite() { libm::ceil(stages * (1.0 - 1e-12)).max(1.0) as usize } else { 1 }
}

fn stages(n: usize) -> String {
    if n == 1 { String::from("1 stage") } else { format!("{n} stages") }
}

/// Whether the search's answer beats the paper's pruning (beyond round-off).
fn beats_paper<H>(report: &BestReport, best: &Solved<H>) -> bool {
    best.makespan < report.paper.makespan * (1.0 - 1e-9)
}

/// The warnings of a best answer: the paper's own (`paper`: what pruning
/// dropped, how its LP was reduced) only where the answer is the paper's,
/// then what the search found, `what` naming the units.
fn warnings<H>(paper: Vec<String>, report: &BestReport, best: &Solved<H>, what: &str) -> Vec<String> {
    let mut all = if beats_paper(report, best) { Vec::new() } else { paper };
    all.push(summary(report, best, what));
    all
}

/// The warning that says what the search found, `what` naming the units.
fn summary<H>(report: &BestReport, solved: &Solved<H>, what: &str) -> String {
    let paper = &report.paper;
    let best = Subsystem::of(solved);
    let mut line = if beats_paper(report, solved) {
        format!(
            "prune = \"best\": {} {what} over {} give Cmax = {:.6}, {:.1}% shorter than the paper's pruning ({} {what}, {}: {:.6})",
            best.units, stages(best.stages), best.makespan, 100.0 * (1.0 - best.makespan / paper.makespan), paper.units, stages(paper.stages), paper.makespan
        )
    } else {
        format!("prune = \"best\": no smaller system is shorter than the paper's pruning ({} searched)", report.searched)
    };
    if report.not_searched > 0 {
        line.push_str(&format!("; {} larger systems were beyond the work budget and not searched", report.not_searched));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::super::sequential::Sequential;
    use super::super::stages::{self, Prune, StageModel};
    use super::*;
    use approx::assert_relative_eq;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(crate::cases(60))]
        /// The best system is never longer than the paper's pruning, and is
        /// the least of every smaller system's LP, each solved by the
        /// engine with no bound skipping any (stars, and layered units as
        /// binomial trees have: a prefix of the example is the smaller one).
        #[test]
        fn best_is_the_least_of_every_smaller_system(units in 1usize..6, n in 1usize..5, s in 0.0..0.05, c in 0.0..1e-3, a in 1e-4..1e-4 + 1e-2, v in 1.0..1.0 + 1e3, f in 0.2..3.0, layered: bool) {
            let example = |u: usize| Sequential::example(u, s, c, a, v, Some(f * v / units as f64), layered);
            let seq = example(units);
            let all: Vec<usize> = (0..units).collect();
            let n = n.max(n_min(&seq, &all));
            let paper = stages::solve(&seq, n, Prune::Pruned).unwrap();
            let paper_makespan = paper.makespan;
            let (best, report) = best(&seq, n, paper, Ok).unwrap();
            prop_assert_eq!(report.paper.makespan, paper_makespan);
            prop_assert!(best.makespan <= paper_makespan);
            let mut least = paper_makespan;
            for u in 1..=units {
                let smaller = example(u);
                let kept: Vec<usize> = (0..u).collect();
                for stages in n_min(&smaller, &kept)..=n {
                    least = least.min(smaller.lp_makespan(stages));
                }
            }
            assert_relative_eq!(best.makespan, least, max_relative = 1e-9);
            let load: f64 = best.chunks.iter().flat_map(|st| st.iter().enumerate().map(|(j, x)| x * seq.units[best.kept[j]].count)).sum();
            assert_relative_eq!(load, StageModel::load(&seq), max_relative = 1e-9);
        }
    }

    proptest! {
        #![proptest_config(crate::cases(40))]
        /// Without start-ups "best" searches nothing, and rightly: no
        /// smaller system's LP is shorter than the paper's pruning.
        #[test]
        fn without_start_ups_no_smaller_system_is_shorter(units in 1usize..6, n in 1usize..5, c in 0.0..1e-3, a in 1e-4..1e-4 + 1e-2, v in 1.0..1.0 + 1e3, f in 0.2..3.0, layered: bool) {
            let example = |u: usize| Sequential::example(u, 0.0, c, a, v, Some(f * v / units as f64), layered);
            let seq = example(units);
            let all: Vec<usize> = (0..units).collect();
            let n = n.max(n_min(&seq, &all));
            let paper = stages::solve(&seq, n, Prune::Pruned).unwrap();
            let makespan = paper.makespan;
            let answer = apply(&seq, n, Prune::Best, Answer { solved: paper, warnings: Vec::new(), gap: None, best: None }, "units", Ok).unwrap();
            let report = answer.best.unwrap();
            prop_assert_eq!((report.searched, report.not_searched), (0, 0));
            prop_assert_eq!(answer.solved.makespan, makespan);
            prop_assert!(answer.warnings[0].contains("with S = 0"));
            for u in 1..=units {
                let smaller = example(u);
                let kept: Vec<usize> = (0..u).collect();
                for stages in n_min(&smaller, &kept)..=n {
                    let theirs = smaller.lp_makespan(stages);
                    prop_assert!(theirs >= makespan * (1.0 - 1e-9), "{u} units, {stages} stages: {theirs} < {makespan}");
                }
            }
        }
    }
}
