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
use super::staging;
use super::{H, P};
use crate::check::Checked;
use crate::costs::{self, Costs, Load};
use crate::error::Result;
use crate::lp::{self, Model, Var};
use crate::schedule::{Row, Schedule};
use crate::validate::Field;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

const BUFFERS: Field = Field::integer("buffers", 1, 2);
pub(crate) const FIELDS: &[Field] = &[P, H, costs::S, costs::C, costs::A, costs::V, stages::D, stages::N, BUFFERS];

mod cuts;
mod proof;
mod rows;
pub(crate) use rows::variant;
use rows::{Period, Tree, TreeLp};

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
    /// For large n at n_min: the makespan's relative distance to a lower
    /// bound on the optimum (absent when the full LP was solved).
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
    let powers: Vec<f64> = (0..=h).map(|i| libm::pow(p, i as f64)).collect();
    if powers[h] > MAX_LAYER {
        return Err(crate::error::Error::range("h", format!(
            "p^h = {:.3e} processors in layer h; at most {MAX_LAYER:.0e}: a smaller p or h", powers[h])));
    }
    let computing: f64 = powers[1..].iter().sum();
    let (name, _) = variant(q.order, buffers == 1);
    let tree = Tree { name, p, h, s, c, a, v, d, order: q.order, buffers, scale: lp_scale(v, d, s + v * a / computing), powers };
    Ok((tree, n, n_min))
}

/// Most processors in the deepest layer, p^h: the LP's coefficients span
/// p^h, and at 15^24 (1.7e28, found by the fuzzer) the engine ran on for
/// minutes; 8^20 (1.2e18) solves at once. The papers' trees have at most 4^10.
const MAX_LAYER: f64 = 1e15;

/// The LP (all layers, n stages), for export, with its units.
pub fn tree_lp(params: &TreeParams) -> Result<(Model, crate::lp::Units)> {
    let (tree, n, _) = validate(params)?;
    let all = layers(&tree);
    let (x0, tau) = tree.scale;
    Ok((tree.model(&all, n).0, crate::lp::Units { variant: Some(tree.name), ..crate::lp::units(x0, tau) }))
}

/// The stages, the LP's size and the method `tree` will use.
pub(crate) fn plan(params: &TreeParams) -> Result<crate::model::Plan> {
    let (tree, n, n_min) = validate(params)?;
    let all = layers(&tree);
    let hops = n * stage_hops(&all);
    // The windowed method's first LP: one free stage at each end, two middle ones.
    let (method, solved) = if steady_state(&tree, n, n_min) {
        ("the middle stages full and periodic, proven by a dual bound of the full LP or returned with its gap", lp_variables(&all, 4))
    } else if n >= MIN_WINDOWED {
        ("the middle stages periodic where a dual bound of the full LP proves them, else the full LP", lp_variables(&all, 4))
    } else {
        ("the full LP", lp_variables(&all, n))
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

/// Beyond this many hops at n_min, the full LP gives way to the windowed
/// steady-state method.
pub const FULL_LP_HOPS: usize = 1500;

pub fn tree(params: &TreeParams) -> Result<TreeOutput> {
    let (tree, n, n_min) = validate(params)?;
    let prune = params.stages.prune();
    // How the last system pruning solved was solved, and its gap; and
    // whether to try windows: once unproven (start-ups dominate and the
    // optimum's ends spread over many stages), the systems pruning solves
    // next, one stage shorter, are alike.
    let mut how = (None, None);
    let mut windows = true;
    let solved = stages::solve_with(&tree, n, prune.paper(), |kept, stages, size| {
        let (solved, last) = solve_once(&tree, kept, stages, n_min, size, &mut windows)?;
        how = last;
        Ok(solved)
    })?;
    let (how, gap) = how;
    let mut warnings = stages::dropped(tree.h, &solved, n, "layers");
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

/// One system (layers `kept`, n stages) of the paper's pruning, its work
/// added to `size`: by the windowed method where its proof holds (or, at
/// n_min beyond the full LP's reach, with its gap), else by the full LP;
/// a small system by its chunks alone (`cuts`) first, where a few small
/// cut LPs prove their answer. Also how it was solved and the gap where
/// unproven.
fn solve_once(tree: &Tree, kept: &[usize], n: usize, n_min: usize, mut size: LpSize, windows: &mut bool) -> Result<(Solved<Times>, How)> {
    // Where the full LP is small, its cut LPs first (their rows, one per
    // critical path, grow with the stages a path crosses): h = 10 at
    // n = 5 and 10 took one cut LP where the windowed method solved 302
    // variables, 12 -> 2 ms and 11 -> 3.4 ms.
    let small = n * stage_hops(kept) <= FULL_LP_HOPS;
    let try_windows = *windows && n >= MIN_WINDOWED;
    // The full LP the cuts and the windows' proof read, built once for both
    // where it is one the engine could be given.
    let full_lp = (small || try_windows && n * stage_hops(kept) <= stages::MAX_MESSAGES).then(|| proof::FullLp::new(tree, kept, n)).flatten();
    if let (true, Some(full_lp)) = (small, &full_lp) {
        if let Some(solved) = full_lp.by_cuts(tree, kept) {
            return Ok((Solved { lp: size.and(&solved.lp), ..solved }, (None, None)));
        }
    }
    if try_windows {
        let full = kept.len() == tree.h && at_n_min(tree, n, n_min);
        // Free middle stages: windows up to twice a chunk's h hops of ramp
        // up, or to half of them where the full LP is beyond the engine
        // anyway (an unproven window then ends in a refusal).
        let widest = match (full, lp_variables(kept, n) > lp::MAX_VARIABLES) {
            (true, _) => n,
            (false, false) => 2 * tree.h,
            (false, true) => tree.h.div_ceil(2),
        };
        let (mut solved, bound) = windowed(tree, kept, n, full, widest, full_lp.as_ref())?;
        solved.lp = size.and(&solved.lp);
        let gap = (solved.makespan - bound) / solved.makespan;
        let shape = if full { "n = n_min: solved with the middle stages full and periodic" } else { "solved with the middle stages periodic" };
        let how = format!("{shape} ({} variables instead of {})", solved.lp.variables, lp_variables(kept, n));
        if gap <= PROVEN {
            return Ok((solved, (Some(format!("{how}, proven optimal by a dual bound of the full LP")), None)));
        }
        if full && steady_state(tree, n, n_min) {
            return Ok((solved, (Some(format!("{how}; not proven optimal, within {gap:.2e} of a lower bound")), Some(gap))));
        }
        size = solved.lp;
        *windows = false;
    }
    Ok((timed(tree.scale.1, stages::solve_kept(tree, kept, n, size)?)?, (None, None)))
}

/// Hop start times by stage, chunk and hop: the LP's stage positions, of
/// which a windowed answer's middle one stands for `copies` stages, each
/// the one before shifted by the period (50,000 stages at Fig. 13(b)'s
/// D = 1 are not spelt out).
struct Times {
    positions: Vec<Vec<Vec<f64>>>,
    middle: Option<Middle>,
}

#[derive(Clone, Copy)]
struct Middle {
    at: usize,
    copies: usize,
    period: f64,
}

impl Times {
    /// The start times the LP gives hops `t` (round-off below 0 read as 0).
    fn of(t: &[Vec<Vec<Var>>], sol: &lp::Solution, tau: f64) -> Vec<Vec<Vec<f64>>> {
        t.iter().map(|st| st.iter().map(|hops| hops.iter().map(|&v| sol.get(v).max(0.0) * tau).collect()).collect()).collect()
    }

    /// When the hops of chunk j of stage k start.
    fn hops(&self, k: usize, j: usize) -> impl Iterator<Item = f64> + '_ {
        let (position, shift) = match self.middle {
            Some(m) if k >= m.at && k < m.at + m.copies => (m.at, (k - m.at) as f64 * m.period),
            Some(m) if k >= m.at + m.copies => (k + 1 - m.copies, 0.0),
            _ => (k, 0.0),
        };
        self.positions[position][j].iter().map(move |t| t + shift)
    }
}

/// A full-LP solution with its hop start times in place of the variables.
fn timed(tau: f64, full: Solved<Vec<Vec<Vec<Var>>>>) -> Result<Solved<Times>> {
    let sol = full.solution.as_ref().ok_or_else(|| crate::error::Error::internal("a tree was solved without its LP"))?;
    let times = Times { positions: Times::of(&full.handles, sol, tau), middle: None };
    Ok(Solved { kept: full.kept, chunks: full.chunks, makespan: full.makespan, lp: full.lp, solution: full.solution, handles: times })
}

/// In steady state the middle stages are alike, each the one before
/// shifted by a period P: two of them stand for all, between the first f
/// and last l stages, which are free. At n_min with small D each middle
/// stage carries every layer's cap (`full`; 000 Sec. 4.2: "the maximum load
/// was sent"); with more stages than n_min the LP chooses what they carry.
/// The window widens (`next_window`, at most to `widest` free stages a
/// side) until the makespan stops improving or a dual bound of the full LP
/// (`proof`, where `full_lp` is given) meets it. Returns the solution over layers `kept` and all n
/// stages, its hop times and the best lower bound on the full LP's optimum
/// found.
fn windowed(tree: &Tree, kept: &[usize], n: usize, full: bool, widest: usize, full_lp: Option<&proof::FullLp>) -> Result<(Solved<Times>, f64)> {
    let (x0, tau) = tree.scale;
    let mut proven = f64::NEG_INFINITY;
    let solved = staging::widening(|window| next_window(tree, window), |window, next| {
        let (f, l) = (window, window);
        let positions = f + 2 + l;
        let skip = (n - positions) as f64;
        let TreeLp { lp, alpha, cmax, t, period } = tree.build(kept, positions, Some(Period { at: f, skip, full }), true);
        let sol = lp::solve(&lp::Microlp, &lp, tree.name)?;
        let big_p = period.map_or(0.0, |v| sol.get(v));
        // The chunks of all n stages: position f + 1 and the left-out
        // stages after it carry the same.
        let middle = Middle { at: f + 1, copies: 1 + skip as usize, period: big_p * tau };
        let mut chunks = Vec::with_capacity(n);
        for (p, stage) in alpha.iter().enumerate() {
            let stage: Vec<f64> = stage.iter().map(|&x| sol.get(x).max(0.0) * x0).collect();
            let copies = if p == middle.at { middle.copies } else { 1 };
            chunks.extend(core::iter::repeat_n(stage, copies));
        }
        let times = Times { positions: Times::of(&t, &sol, tau), middle: Some(middle) };
        let makespan = sol.get(cmax) * tau;
        let bound = full_lp.map_or(f64::NEG_INFINITY, |full_lp| full_lp.bound(tree, &chunks));
        proven = proven.max(bound);
        let size = LpSize::NONE.then(&lp, &sol);
        // Proven, or the next window leaves no middle or is wider than
        // `widest`, or (free middle stages) two windows left the bound far
        // off, where the optimum's ends do not settle into a steady state
        // within reach (h = 10, n = 30, S = 1e-5: 0.8 % after 2 + 2, 0.7 %
        // after 10 + 10, 3.5 s of windows): the caller then solves the full
        // LP where it can.
        let far = !full && window >= 2 && makespan - bound > WIDENING_GAP * makespan;
        let done = makespan - bound <= PROVEN * makespan || 2 * next + 3 > n || next > widest || far;
        Ok((Solved { kept: kept.to_vec(), chunks, makespan, lp: size, solution: Some(sol), handles: times }, done))
    })?;
    // The link and computing (`bounds`); and a layer gets at most pD a
    // stage, so the layer nearest the originator computes at least what
    // the others cannot take, shared by its processors.
    let (link, computing) = StageModel::bounds(tree, kept, n);
    let nearest = tree.powers[kept[0] + 1];
    let others = n as f64 * tree.p * tree.d.unwrap_or(f64::INFINITY) * (kept.len() - 1) as f64;
    let bound = link.max(computing).max(tree.s + tree.a * (tree.v - others).max(0.0) / nearest);
    Ok((solved, bound.max(proven)))
}

/// How near its bound a window of free middle stages must come, after two
/// widenings, for a wider one to be tried: proven windows came within
/// 1.3e-6 after 2 + 2 in the tests and runs (h = 6, n = 30, S = 1e-4:
/// 1.3e-6, then 1.1e-9 at 4 + 4, proven at 8 + 8).
const WIDENING_GAP: f64 = 1e-4;

/// The window after `window`: 2, then at least h/2 at each end. Where one
/// or two free stages are not enough, the ends need about h of them
/// together, a chunk's h hops of ramp up and down: 000 Fig. 13(b)'s D = 1E2,
/// V = 3.2E5 (h = 10, n = 159) is proven with 5 + 5 and not with 4 + 5,
/// where doubling went on to 8 + 8 (4,212 simplex iterations over its four
/// windows, 2,402 now).
fn next_window(tree: &Tree, window: usize) -> usize {
    match window {
        1 => 2,
        2 => tree.h.div_ceil(2).max(4),
        w => 2 * w,
    }
}

/// A makespan within this relative distance of a lower bound is proven
/// optimal (the LP engine's own tolerance).
const PROVEN: f64 = 1e-9;

/// Every hop at the time the LP gives it; each layer computes its chunks in
/// order as they arrive. Layers that compute nothing still relay. Stages
/// `omitted` are timed but not listed.
fn hop_schedule(tree: &Tree, solved: &Solved<Times>, omitted: Option<Omitted>) -> Result<Checked> {
    let Solved { kept, chunks, handles: times, makespan, .. } = solved;
    let deepest = kept.iter().max().map_or(0, |&u| u + 1);
    let mut origin = Row::originator(tree.v);
    origin.send_ports = tree.p;
    let mut rows = vec![origin];
    for l in 1..=deepest {
        let mut row = Row::linear(format!("layer {l}"), tree.powers[l], tree.s, tree.c, tree.a);
        row.send_ports = tree.p;
        row.buffer = tree.d;
        row.buffers = Some(tree.buffers as f64);
        rows.push(row);
    }
    let mut schedule = Schedule::new(rows, tree.v);
    let mut busy = vec![0.0; deepest + 1];
    let mut listed = 0.0;
    for ch in tree.sequence(kept, chunks.len()) {
        let (k, j, i) = (ch.stage, ch.j, ch.layer);
        let (alpha, lists) = (chunks[k][j], Omitted::lists(omitted, k));
        let mut source = None;
        let mut arrived = 0.0;
        for (l, start) in times.hops(k, j).enumerate().take(i) {
            let x = tree.share(i, l) * alpha;
            arrived = start + tree.s + tree.c * x;
            if lists {
                schedule.comm(l, l + 1, (start, arrived), x, tree.powers[l + 1]).source = source;
                source = Some(schedule.intervals.len() - 1);
            }
        }
        if alpha > 0.0 && lists {
            listed += alpha * tree.powers[i];
            busy[i] = schedule.run(i, arrived.max(busy[i]), alpha);
        } else if alpha > 0.0 {
            busy[i] = schedule.finish(i, arrived.max(busy[i]), alpha);
        }
    }
    if omitted.is_some() {
        schedule.listing(listed);
    }
    schedule.makespan = *makespan;
    crate::checked(schedule)
}

#[cfg(test)]
mod tests;
