//! 000 Sec. 3.2, LPs TreeNLF-1, TreeNLF-2, TreeLLF-1, TreeLLF-2: an ordinary
//! tree of out-degree p, layer i holding p^i processors. In every stage the
//! originator sends a chunk for each layer, nearest or largest layer first;
//! a chunk for layer i hops down the tree, from layer l to l+1 as p
//! messages of p^(i-l-1) alpha_ik per relay, each forwarded only once fully
//! received, and relays hold one or two messages at a time. The LP rows and
//! the rules they follow: `rows`.

use super::best::{self, Answer, BestReport};
use super::binomial::Order;
use super::listing::Omitted;
use super::stages::{self, lp_scale, LpSize, Solved, StageModel, Staged, Stages};
use super::{H, P};
use crate::check::Checked;
use crate::costs::{self, Costs, Load};
use crate::error::Result;
use crate::lp::{self, Model};
use crate::validate::Field;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

const BUFFERS: Field = Field::integer("buffers", 1, 2);
pub(crate) const FIELDS: &[Field] = &[P, H, costs::S, costs::C, costs::A, costs::V, stages::D, stages::N, BUFFERS];

mod cuts;
mod interior;
mod proof;
mod rows;
mod timing;
mod weights;
mod windows;
use timing::{hop_schedule, timed, Middle, Times};
use windows::windowed;
pub(crate) use rows::variant;
use rows::Tree;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct TreeParams {
    pub p: f64,
    pub h: f64,
    #[serde(flatten)]
    pub load: Load,
    #[serde(flatten)]
    pub stages: Stages,
    pub order: Order,
    /// Messages a relay can hold: 1 or 2.
    pub buffers: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct TreeOutput {
    /// Load each processor of layer i = 1..h receives over all stages.
    pub loads: Vec<f64>,
    /// `chunks[k][i-1]`: alpha_ik, per processor of layer i in stage k, over
    /// the stages listed.
    pub chunks: Vec<Vec<f64>>,
    /// Stages alike left out of `chunks` and the schedule (long answers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub omitted: Option<Omitted>,
    /// Processors in each layer, p^i.
    pub layer_sizes: Vec<f64>,
    pub n: usize,
    pub n_min: usize,
    /// For large n at n_min, or (within 1e-3) a full LP beyond the engine:
    /// the makespan's relative distance to a lower bound on the optimum
    /// (absent when the full LP was solved or the bound proves the
    /// makespan).
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

fn validate(q: &TreeParams) -> Result<(Tree, usize, usize)> {
    let p = P.count(q.p)? as f64;
    let h = H.count(q.h)?;
    let buffers = BUFFERS.count(q.buffers)?;
    let Load { costs: Costs { s, c, a }, v } = q.load.validate()?;
    // A stage carries at most D to each of p subtrees and h layers; its
    // hops, h(h+1)/2, bound the LP as messages do.
    let Staged { d, n, n_min, .. } = q.stages.validate(v, p * h as f64, h * (h + 1) / 2)?;
    let powers = super::powers(p, h);
    super::deepest_layer(p, h, "p^h", |i| powers[i])?;
    let computing: f64 = powers[1..].iter().sum();
    let (name, _) = variant(q.order, buffers == 1);
    let tree = Tree { name, p, h, s, c, a, v, d, order: q.order, buffers, scale: lp_scale(v, d, s + v * a / computing), powers };
    Ok((tree, n, n_min))
}

/// The LP (all layers, n stages), for export, with its units.
pub fn tree_lp(params: &TreeParams) -> Result<(Model, crate::lp::Units)> {
    let (tree, n, _) = validate(params)?;
    let all = layers(&tree);
    let (x0, tau) = tree.scale;
    Ok((tree.model(&all, n).0, crate::lp::Units { variant: Some(tree.name), ..crate::lp::units(x0, tau) }))
}

/// The LP the paper's pruning solves again and again (000 Sec. 3), its
/// stage k's start-ups S on_k with on_k fixed at 1, for another solver to
/// prune as the calculator does (`dlt-bench` gives it to HiGHS): stage k
/// is switched off by fixing on_k and its chunks alpha_i_k at 0. With
/// the chunk bound below which a stage counts as empty, the relative tie
/// within which emptying the last stage costs nothing, and the fewest
/// stages that carry V with room (`stages::solve_pruned`'s `fits`).
pub fn pruning_lp(params: &TreeParams) -> Result<(Model, f64, f64, usize)> {
    let (tree, n, _) = validate(params)?;
    let all = layers(&tree);
    let ((lp, ..), _) = tree.switchable(&all, n).ok_or_else(|| crate::error::Error::internal("a tree's LP is switchable"))?;
    let fewest = (1..=n).find(|&k| stages::fits(&tree, &all, k)).unwrap_or(n);
    Ok((lp, stages::EMPTY, stages::TIE, fewest))
}

/// The stages, the LP's size and the method `tree` will use.
pub(crate) fn plan(params: &TreeParams) -> Result<crate::model::Plan> {
    let (tree, n, n_min) = validate(params)?;
    let all = layers(&tree);
    let hops = n * stage_hops(&all);
    let interior = params.stages.prune() == stages::Prune::Raw || tree.free_messages();
    // The windowed method's first LP: one free stage at each end, two middle ones.
    let (method, solved) = if steady_state(&tree, n, n_min) {
        ("the middle stages full and periodic, proven by a dual bound of the full LP or returned with its gap", lp_variables(&all, 4))
    } else if n >= MIN_WINDOWED && lp_variables(&all, n) > lp::MAX_VARIABLES {
        ("the middle stages periodic, proven by a dual bound of the full LP or returned within 1e-3 of it", lp_variables(&all, 4))
    } else if n >= MIN_WINDOWED && !(interior && !within_share(1, n) && !at_n_min(&tree, n, n_min)) {
        ("the middle stages periodic where a dual bound of the full LP proves them, else the full LP", lp_variables(&all, 4))
    } else if n >= MIN_WINDOWED {
        // `solve_once`'s `small_on_dual`: which form the method takes is
        // known only once both orderings are laid out, too costly for a plan.
        ("the full LP by an interior point method on its dual where that is the cheaper (chains), else the middle stages periodic where a dual bound of the full LP proves them, else the full LP", lp_variables(&all, 4))
    } else if interior {
        ("the full LP, by an interior point method where a dual bound proves its answer, else by the simplex on the rows it found tight, else on all", lp_variables(&all, n))
    } else {
        ("the full LP, its empty stages switched off one by one and solved again from its basis", lp_variables(&all, n))
    };
    Ok(crate::model::Plan {
        n: Some(n),
        n_min: Some(n_min),
        messages: Some(hops),
        variables: Some(lp_variables(&all, n)),
        solved_variables: Some(solved),
        method: Some(if hops <= FULL_LP_HOPS {
            format!("{}, the LP over its chunks alone by cutting planes where their bound meets it; else {method}", tree.name)
        } else {
            format!("{}, {method}", tree.name)
        }),
        ..Default::default()
    })
}

/// The fewest stages the windowed method tries: two free stages and a
/// middle of at least three.
const MIN_WINDOWED: usize = 5;

/// With the interior point method to follow, a window of w free stages a
/// side (2w + 2 of the LP's stages) is tried only where WINDOW_SHARE
/// times its stages are fewer than the full LP's: a wider window's
/// simplex costs about what the method does on the full LP (h = 8,
/// n = 50, S = 1e-5: 8 + 8, 938 variables of 2,601, 0.5 s against 0.45 s;
/// widening on to 16 + 16, unproven, took 2.6 s in all). 60 random trees
/// above n_min (3-10 layers) and 36 of 6, 8 and 10 layers: 31.3 -> 27.8 s
/// in all; slower where a wide window proved what the method takes
/// longer on (h = 6, n = 39: 0.28 -> 0.71 s) or the first window did at
/// h = 10, n = 11 (55 -> 151 ms). Where not even the first window is
/// within the share, it is solved all the same (`schedule_first`).
const WINDOW_SHARE: usize = 3;

/// Whether a window of w free stages a side is within WINDOW_SHARE of n
/// stages.
fn within_share(w: usize, n: usize) -> bool {
    WINDOW_SHARE * (2 * w + 2) < n
}

/// The most free stages a side the windowed method widens to over layers
/// `kept` and n stages, `full` at n_min, at least one: at n_min all; else
/// up to twice a chunk's h hops of ramp up, or to half of them where the
/// full LP is beyond the engine anyway (an unproven window then stands
/// within STEADY_GAP; twice h took 60 s and more pruning p = 3, h = 4 from
/// n = 4,201, where half of h answered in 0.3 s 5e-6 off), or to fewer
/// than a WINDOW_SHARE of the full LP's stages where the interior point
/// method is to solve it (`interior`; the first window at least). Never a
/// window whose own LP is beyond the engine: it failed the request where
/// the narrower ones had an answer (p = 1, h = 43 at n_min: two windows
/// within 1.4e-3 of the bound, then the third's 47,474 variables refused,
/// 8 s in).
fn widest(tree: &Tree, kept: &[usize], n: usize, full: bool, interior: bool) -> usize {
    let widest = match (full, lp_variables(kept, n) > lp::MAX_VARIABLES) {
        (true, _) => n,
        (false, false) if interior => (1..=2 * tree.h).rev().find(|&w| within_share(w, n)).unwrap_or(1),
        (false, false) => 2 * tree.h,
        (false, true) => tree.h.div_ceil(2),
    };
    (2..=widest).rev().find(|&w| window_variables(kept, w) <= lp::MAX_VARIABLES).unwrap_or(1)
}

/// The windowed LP's variables over layers `kept`, w free stages a side:
/// 2w + 2 stages and the period.
fn window_variables(kept: &[usize], w: usize) -> usize {
    lp_variables(kept, 2 * w + 2) + 1
}

/// Whether the interior point method can be given the full LP over layers
/// `kept` and n stages: within the engine's variables and the messages a
/// full LP is built for.
fn in_reach(kept: &[usize], n: usize) -> bool {
    lp_variables(kept, n) <= lp::MAX_VARIABLES && n * stage_hops(kept) <= stages::MAX_MESSAGES
}

/// The fewest LP variables at which pruning starts the simplex from the
/// rows an interior point method finds tight (`stages::solve_pruned`),
/// where the windowed method gave no schedule.
const NEAR_FIRST: usize = 1000;

/// Whether n = n_min stages of buffers D: V fills every middle stage.
fn at_n_min(tree: &Tree, n: usize, n_min: usize) -> bool {
    tree.d.is_some() && n == n_min
}

/// Whether the windowed method's answer stands even unproven: more than
/// FULL_LP_HOPS hops at n_min, where the full LP is out of reach.
fn steady_state(tree: &Tree, n: usize, n_min: usize) -> bool {
    at_n_min(tree, n, n_min) && n >= MIN_WINDOWED && n * stage_hops(&layers(tree)) > FULL_LP_HOPS
}

/// A stage's hops over layers `kept`: its chunk for layer u + 1 hops u + 1
/// times.
fn stage_hops(kept: &[usize]) -> usize {
    kept.iter().map(|&u| u + 1).sum()
}

/// The full LP's variables over layers `kept` and n stages: per chunk its
/// hops' start times, the chunk and its running sum R; and Cmax.
fn lp_variables(kept: &[usize], n: usize) -> usize {
    n * (stage_hops(kept) + 2 * kept.len()) + 1
}

/// Every layer, by index.
fn layers(tree: &Tree) -> Vec<usize> {
    (0..tree.h).collect()
}

/// Farthest from its bound the windowed method's answer stands unproven
/// at n_min where the interior point method can be given the full LP, and
/// above n_min where the full LP is beyond the engine. In
/// deep trees without start-ups the windows stood 0.2 to 0.95 off, above
/// the optimum (p = 2, h = 20, S = C = 0: 60 s for 36.7 s), where the full
/// LP (2,000-7,000 variables) took 0.1-7 s; no gallery answer is unproven.
const STEADY_GAP: f64 = 1e-3;

/// Beyond this many hops at n_min, the full LP gives way to the windowed
/// steady-state method.
pub const FULL_LP_HOPS: usize = 1500;

pub fn tree(params: &TreeParams) -> Result<TreeOutput> {
    let (tree, n, n_min) = validate(params)?;
    let prune = params.stages.prune();
    // How the last system pruning solved was solved, and its gap; and
    // which shortcuts to try: once one fails, the systems pruning solves
    // next, one stage shorter, are alike (start-ups dominate, the optimum's
    // ends spread over many stages, and each leaves its last stage empty).
    // h = 10, n = 26, S = 1e-3 is pruned to 5 stages in 22 systems, and
    // the cuts failed on every one, 150 ms each: 13.0 -> 10.3 s.
    let mut how = (None, None);
    // The interior point method's answer is not a vertex: pruning, which
    // drops the chunks a vertex leaves empty, keeps to the simplex. Where
    // empty messages cost nothing it cannot shorten the schedule, and the
    // raw LP answers (S = 0, h = 6, n = 122: 116 systems, each one stage
    // shorter, 3.2 s -> 4 LPs, 0.14 s).
    let free = tree.free_messages() && prune != stages::Prune::Raw;
    let paper_prune = if free { stages::Prune::Raw } else { prune.paper() };
    let mut tries = Tries { cuts: true, windows: true, interior: paper_prune == stages::Prune::Raw };
    let solved = stages::solve_with(&tree, n, paper_prune, |kept, stages, size| {
        let (solved, last) = solve_once(&tree, kept, stages, n_min, paper_prune, size, &mut tries)?;
        how = last;
        Ok(solved)
    })?;
    let (how, gap) = how;
    let mut warnings = stages::dropped(tree.h, &solved, n, "layers");
    if free {
        warnings.extend(stages::kept_empty(&solved, tree.scale.0, "layers"));
    }
    warnings.extend(how);
    let paper = Answer { solved, warnings, gap, best: None };
    let Answer { solved, mut warnings, gap, best } = best::apply(&tree, n, prune, paper, "layers", |s| timed(tree.scale.1, s))?;
    let (chunks, loads, omitted) = stages::spread(tree.h, &solved, stage_hops(&layers(&tree)), &mut warnings);
    let schedule = hop_schedule(&tree, &solved, omitted)?;
    Ok(TreeOutput {
        loads,
        chunks,
        omitted,
        layer_sizes: tree.powers[1..].to_vec(),
        n: solved.chunks.len(),
        n_min,
        gap,
        warnings,
        best,
        lp: solved.lp,
        schedule,
    })
}

/// How a system was solved (a warning), and its gap where unproven.
type How = (Option<String>, Option<f64>);

/// The shortcuts to the full LP still worth trying on a system.
struct Tries {
    cuts: bool,
    windows: bool,
    interior: bool,
}

/// One system (layers `kept`, n stages) of the paper's pruning, its work
/// added to `size`: by the windowed method where its proof holds (or, at
/// n_min beyond the full LP's reach, with its gap), else by the full LP;
/// a small system by its chunks alone (`cuts`) first, where a few small
/// cut LPs prove their answer; the full LP pruned from its basis where
/// `prune` is the paper's. Also how it was solved and the gap where
/// unproven.
fn solve_once(tree: &Tree, kept: &[usize], n: usize, n_min: usize, prune: stages::Prune, mut size: LpSize, tries: &mut Tries) -> Result<(Solved<Times>, How)> {
    // Where the full LP is small, its cut LPs first (their rows, one per
    // critical path, grow with the stages a path crosses): h = 10 at
    // n = 5 and 10 took one cut LP where the windowed method solved 302
    // variables, 12 -> 2 ms and 11 -> 3.4 ms.
    let hops = n * stage_hops(kept);
    let try_cuts = tries.cuts && hops <= FULL_LP_HOPS;
    // The full LP the cuts and the windows' proof read, built once for both
    // where it is one the engine could be given.
    let try_interior = tries.interior && in_reach(kept, n);
    let full = kept.len() == tree.h && at_n_min(tree, n, n_min);
    let widest = widest(tree, kept, n, full, try_interior);
    let try_windows = tries.windows && n >= MIN_WINDOWED;
    let start_near = prune == stages::Prune::Pruned && (NEAR_FIRST..=lp::MAX_VARIABLES).contains(&lp_variables(kept, n));
    let full_lp = (try_cuts || (try_windows || try_interior || start_near) && hops <= stages::MAX_MESSAGES).then(|| proof::FullLp::new(tree, kept, n)).flatten();
    if let (true, Some(full_lp)) = (try_cuts, &full_lp) {
        let mut cuts = LpSize::NONE;
        let solved = full_lp.by_cuts(tree, kept, &mut cuts);
        size = size.and(&cuts);
        if let Some(solved) = solved {
            return Ok((Solved { lp: size, ..solved }, (None, None)));
        }
        tries.cuts = false;
    }
    // The windowed method's schedule as a point of the full LP, where the
    // windows ran and did not prove it, and the slack within which a row
    // counts as tight there.
    let mut near_window = None;
    // Where even the first window is a third of the LP or more and the
    // interior point method runs on the LP's dual (chains: its normal
    // equations over the columns 8 or more times cheaper), the method goes
    // before the simplex from the windowed schedule (`schedule_first`),
    // and above n_min before the windows, whose simplex costs about the
    // full LP's. At n_min the full middle stages prove what the method
    // stalls on (p = 1, h = 50, n = 5, S = 0: 4.5 s against 10.6), and
    // where they do not, the method proves it (p = 1, h = 57, n = 7:
    // windows 9 s, then the simplex 13 s, or the method 3 s).
    let small_on_dual = try_interior && !within_share(1, n) && full_lp.as_ref().is_some_and(|f| f.on_dual());
    let try_windows = try_windows && (full || !small_on_dual);
    if try_windows {
        let (mut solved, bound) = windowed(tree, kept, n, full, widest, full_lp.as_ref())?;
        solved.lp = size.and(&solved.lp);
        let gap = (solved.makespan - bound) / solved.makespan;
        let shape = if full { "n = n_min: solved with the middle stages full and periodic" } else { "solved with the middle stages periodic" };
        let how = format!("{shape} ({} variables instead of {})", solved.lp.variables, lp_variables(kept, n));
        if gap <= PROVEN {
            return Ok((solved, (Some(format!("{how}, proven optimal by a dual bound of the full LP")), None)));
        }
        // Beyond the engine the full LP would be refused: a schedule of
        // free middle stages within STEADY_GAP of its bound stands with its
        // gap (15 of 40 random trees so refused, 3e-8 to 1e-3 off); further
        // off the request is refused, as the full LP would be, saying how
        // near they came: their ends had not settled (0.03 to 0.34 off:
        // h = 10, n = 500, S = 1e-5 0.30).
        let variables = lp_variables(kept, n);
        let beyond = !full && variables > lp::MAX_VARIABLES;
        if beyond && gap <= STEADY_GAP || full && steady_state(tree, n, n_min) && !(gap > STEADY_GAP && try_interior) {
            return Ok((solved, (Some(format!("{how}; not proven optimal, within {gap:.2e} of a lower bound")), Some(gap))));
        }
        if beyond {
            let mut e = lp::too_large(tree.name, variables);
            e.message = format!("{}, and its periodic middle stages came within {gap:.1e} of a lower bound, more than the {STEADY_GAP:.0e} an unproven answer may be", e.message);
            return Err(stages::fewer_stages(e));
        }
        size = solved.lp;
        near_window = full_lp.as_ref().map(|full_lp| full_lp.near_schedule(tree, &solved.chunks));
        tries.windows = false;
    }
    // Where even the first window is beyond WINDOW_SHARE (n <= 12), the
    // full LP is small and the simplex from the rows its schedule holds
    // tight goes before the interior point method's factorizations:
    // h = 10, n = 12, S = 1e-4: 0.29 -> 0.17 s; the 14 of 112 trees above
    // n_min it changes (6-10 layers, n = 7-12), 2.17 -> 0.95 s in all,
    // none slower. Where
    // windows within the share ran, the method goes first: it proved
    // h = 10, n = 30 and 100 at 0.57 and 2.2 s, where the simplex from
    // the schedule took 0.81 and 3.6 s.
    let schedule_first = try_interior && !within_share(1, n) && !small_on_dual;
    if let (true, Some(full_lp), Some((x, _))) = (schedule_first, &full_lp, &near_window) {
        let mut work = LpSize::NONE;
        let solved = full_lp.by_schedule(tree, kept, x, &mut work);
        size = size.and(&work);
        if let Some((solved, proof)) = solved {
            return Ok((Solved { lp: size, ..solved }, (Some(format!("solved by {proof}")), None)));
        }
    }
    if let (true, Some(full_lp)) = (try_interior, &full_lp) {
        let mut work = LpSize::NONE;
        let solved = full_lp.by_interior(tree, kept, near_window.as_ref().map(|(x, _)| &x[..]), &mut work);
        size = size.and(&work);
        if let Some((solved, iterations, proof)) = solved {
            let how = format!("solved by an interior point method in {iterations} iterations, proven optimal by {proof}");
            return Ok((Solved { lp: size, ..solved }, (Some(how), None)));
        }
        tries.interior = false;
    }
    let solved = match prune {
        stages::Prune::Pruned => {
            let mut work = LpSize::NONE;
            // The simplex starts from the rows a schedule near the optimum
            // holds tight: the windows', which cost nothing more, at any
            // size (27 pruned trees of 6, 8 and 10 layers, n = 12-30:
            // 15.3 -> 9.7 s in all with session 40's engine changes, the
            // same stages and makespans; h = 10, n = 12: 0.3 -> 0.17 s),
            // else the interior point method's from NEAR_FIRST variables.
            let near = match (near_window, full_lp) {
                (Some(near), _) => Some(near),
                (None, Some(full_lp)) if start_near => full_lp.near_optimum(tree, &mut work),
                _ => None,
            };
            stages::solve_pruned(tree, kept, n, size.and(&work), near)?
        }
        _ => stages::solve_kept(tree, kept, n, size, stages::Optimum::Vertex)?,
    };
    Ok((timed(tree.scale.1, solved)?, (None, None)))
}

/// A makespan within this relative distance of a lower bound is proven
/// optimal (the LP engine's own tolerance).
const PROVEN: f64 = 1e-9;

#[cfg(test)]
mod tests;
