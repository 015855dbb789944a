//! What the stage LPs of 000 share: the number of stages, the LP's units,
//! and the solve that prunes empty units and stages and solves again.

use crate::error::{Code, Error, Result};
use super::listing::Omitted;
use super::staging;
use crate::lp::{self, Model, Var};
use crate::validate::{self, Field};
use serde::{Deserialize, Serialize};
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
/// The size of an LP model and the work of solving it.
pub struct LpSize {
    pub variables: usize,
    pub rows: usize,
    pub nonzeros: usize,
    pub iterations: u64,
    /// LPs solved, by the engine or by their structure (more than one
    /// when pruning re-solves).
    pub solves: usize,
}

/// Most stages of an LP model, and most messages (processors x stages).
pub const MAX_STAGES: usize = 100_000;
pub const MAX_MESSAGES: usize = 200_000;
/// Most messages at n = n_min, where the shape of the optimum (`chains`,
/// the tree's periodic middle) answers in work linear in the messages and
/// the answer lists only the stages that differ (`listing`): the papers'
/// D = 1 points (000 Figs. 7, 13) need up to 3.4e5 to 2.8e6 of them.
pub const MAX_SHAPED_MESSAGES: usize = 5_000_000;

/// A chunk at most this many load units (of the LP's unit) counts as empty.
pub(crate) const EMPTY: f64 = 1e-9;

/// 000 Sec. 3: the LPs charge S even for empty messages; `Pruned` drops
/// superfluous stages and processors successively and re-solves, as the
/// paper did; `Raw` is the LP exactly as printed; `Best` searches the
/// smaller systems too (`best`), which the paper's procedure never tries.
/// In a request: true, false or "best".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prune {
    Pruned,
    Raw,
    Best,
}

impl Prune {
    /// The paper's procedure a request runs first: `Best` starts from it.
    pub(crate) fn paper(self) -> Prune {
        if self == Prune::Best { Prune::Pruned } else { self }
    }
}

impl From<Option<bool>> for Prune {
    fn from(p: Option<bool>) -> Self {
        if p.unwrap_or(true) { Prune::Pruned } else { Prune::Raw }
    }
}

impl Serialize for Prune {
    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match self {
            Prune::Pruned => s.serialize_bool(true),
            Prune::Raw => s.serialize_bool(false),
            Prune::Best => s.serialize_str("best"),
        }
    }
}

impl<'de> Deserialize<'de> for Prune {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        struct Choice;
        impl serde::de::Visitor<'_> for Choice {
            type Value = Prune;
            fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
                f.write_str("true, false or \"best\"")
            }
            fn visit_bool<E: serde::de::Error>(self, b: bool) -> core::result::Result<Prune, E> {
                Ok(Prune::from(Some(b)))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> core::result::Result<Prune, E> {
                match v {
                    "best" => Ok(Prune::Best),
                    _ => Err(E::invalid_value(serde::de::Unexpected::Str(v), &self)),
                }
            }
        }
        d.deserialize_any(Choice)
    }
}

/// The buffers and stages every LP of 000 takes (Sec. 2), defined here once
/// and flattened into the star's and the trees' parameters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Stages {
    /// Buffer size: no message carries more (none: unlimited).
    #[serde(rename = "D", default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub d: Option<f64>,
    /// Stages (none: n_min, the fewest the buffers allow).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub n: Option<f64>,
    /// true (default): drop empty stages and units and solve again, as the
    /// paper did; false: the raw LP; "best": the best smaller system.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional, type = "boolean | \"best\""))]
    pub prune: Option<Prune>,
}

pub const D: Field = Field::positive("D");
/// At least n_min and, for the LP's messages, at most MAX_MESSAGES over a
/// stage's: `stage_count` narrows it for the request.
pub const N: Field = Field::integer("n", 1, MAX_STAGES);

/// Stages validated: D, n, n_min and how to prune.
pub(crate) struct Staged {
    pub d: Option<f64>,
    pub n: usize,
    pub n_min: usize,
    pub prune: Prune,
}

impl Stages {
    pub const fn new(d: Option<f64>, n: Option<f64>, prune: Option<bool>) -> Self {
        let prune = match prune {
            Some(true) => Some(Prune::Pruned),
            Some(false) => Some(Prune::Raw),
            None => None,
        };
        Stages { d, n, prune }
    }

    /// D > 0 and the number of stages for load `v`, where a stage carries
    /// at most D `capacity` (n_min = V / (D capacity) rounded up) in
    /// `per_stage` messages.
    pub(crate) fn validate(&self, v: f64, capacity: f64, per_stage: usize) -> Result<Staged> {
        let d = self.d.map(|d| D.check(d)).transpose()?;
        let n_min = d.map_or(1.0, |d| libm::ceil(v / (d * capacity)));
        let (n, n_min) = stage_count(self.n, n_min, per_stage)?;
        Ok(Staged { d, n, n_min, prune: self.prune() })
    }

    /// How to prune: the paper's procedure unless the request says.
    pub(crate) fn prune(&self) -> Prune {
        self.prune.unwrap_or(Prune::Pruned)
    }
}

/// The number of stages: `n` if given, else n_min; n_min <= n, and the LP
/// stays within MAX_STAGES stages and MAX_MESSAGES messages of `per_stage`
/// except at n = n_min, which the shape of the optimum answers up to
/// MAX_SHAPED_MESSAGES.
fn stage_count(n: Option<f64>, n_min: f64, per_stage: usize) -> Result<(usize, usize)> {
    let most = |messages: usize| MAX_STAGES.min(messages / per_stage.max(1));
    let shaped = most(MAX_SHAPED_MESSAGES);
    // n_min is NaN-free (V, D validated) but may be huge.
    if n_min > shaped as f64 {
        return Err(Error::range("D", format!(
            "D is too small for V: it needs n_min = {n_min} stages, more than the {shaped} the calculator schedules")));
    }
    let n_min = n_min as usize;
    let most_n = most(MAX_MESSAGES).max(n_min);
    let n = match n {
        // Each bound said with its reason: "from 1279 to 1279" read as a
        // range where n_min alone was the point (a star, V = 9.2e9).
        Some(n) if n < n_min as f64 => {
            return Err(Error::range("n", format!(
                "n must be at least n_min = {n_min}, the fewest stages whose buffers D carry V (leave n out for n_min), got {}", validate::shown(n))));
        }
        Some(n) if n > most_n as f64 => {
            return Err(Error::range("n", format!(
                "n must be at most {most_n} here, got {}: more stages than n_min = {n_min} are solved as an LP, of at most {MAX_STAGES} stages and {MAX_MESSAGES} messages ({per_stage} a stage)",
                validate::shown(n))));
        }
        Some(n) => validate::integer("n", n, n_min, most_n)?,
        None => n_min,
    };
    Ok((n, n_min))
}

/// LP units: load in min(V, D) so that buffer bounds are O(1), time in a
/// natural time of the instance (`tau`), so that the engine's absolute
/// tolerances act as relative ones.
pub(crate) fn lp_scale(v: f64, d: Option<f64>, tau: f64) -> (f64, f64) {
    (d.map_or(v, |d| d.min(v)), tau)
}

/// A stage LP: the model, alpha[k][j], Cmax and what else a schedule needs.
pub(crate) type StageLp<H> = (Model, Vec<Vec<Var>>, Var, H);

/// An LP over units (processors or layers) and stages, with one chunk
/// variable per unit and stage, that pruning can shrink.
pub(crate) trait StageModel {
    /// What a schedule needs of the LP besides the chunks (start times...).
    type Handles;
    fn name(&self) -> &'static str;
    fn unit_count(&self) -> usize;
    /// LP units of load and time.
    fn scale(&self) -> (f64, f64);
    /// The LP over units `kept` and `n` stages, with alpha[k][j] and Cmax.
    fn model(&self, kept: &[usize], n: usize) -> StageLp<Self::Handles>;
    /// The same LP as its paper prints it, where `model` is a reformulation:
    /// solved instead when the engine fails on the reformulation (extreme
    /// scales, coefficients 1e20 apart).
    fn printed_model(&self, _kept: &[usize], _n: usize) -> Option<StageLp<Self::Handles>> {
        None
    }
    /// The LP `model` writes with a switch per stage (a variable fixed at
    /// 1, with its handle) such that fixing the last stages' switches and
    /// chunks at 0 leaves the LP over the stages before them: pruning then
    /// goes on from the basis the engine ended with (`solve_pruned`). For
    /// models whose LP has no `by_structure` answer.
    fn switchable(&self, _kept: &[usize], _n: usize) -> Option<(StageLp<Self::Handles>, Vec<Var>)> {
        None
    }
    /// The optimum without an LP where the model's structure gives one
    /// with a proof: chunks[k][j] in load units, the makespan and the
    /// handles.
    fn by_structure(&self, _kept: &[usize], _n: usize) -> Option<(Vec<Vec<f64>>, f64, Self::Handles)> {
        None
    }
    /// The optimum by a method whose answer is some optimum, not a vertex
    /// (an interior point's), proven as `by_structure`'s, with its work
    /// added to `size`; else the work spent, for the engine to go on from.
    /// Tried after `by_structure` where `Optimum::Any` will do.
    fn by_interior(&self, _kept: &[usize], _n: usize, size: LpSize) -> core::result::Result<Solved<Self::Handles>, LpSize> {
        Err(size)
    }
    /// Whether a message costs nothing without load (no start-ups): the
    /// paper's pruning then never shortens the schedule.
    fn free_messages(&self) -> bool {
        false
    }
    /// The load V, and what one stage carries to units `kept` with every
    /// buffer full (infinite without buffers): their n_min.
    fn load(&self) -> f64;
    fn stage_capacity(&self, kept: &[usize]) -> f64;
    /// Two lower bounds of the makespan over `kept` and `n` stages, the
    /// first nondecreasing in n (the link's start-ups grow with n).
    fn bounds(&self, kept: &[usize], n: usize) -> (f64, f64);
}

pub(crate) struct Solved<H> {
    /// Units kept after pruning, by index.
    pub kept: Vec<usize>,
    /// chunks[k][j]: the chunk of kept unit j in stage k, in load units.
    pub chunks: Vec<Vec<f64>>,
    pub makespan: f64,
    pub lp: LpSize,
    /// The last LP's solution; none where the structure gave the optimum.
    pub solution: Option<lp::Solution>,
    pub handles: H,
}

/// Solves with `n` stages, by the model's structure where it proves its
/// answer and else by the LP; `Pruned` drops units and stages that get no
/// load and re-solves until every unit and stage has some (000 Sec. 3).
pub(crate) fn solve<M: StageModel>(m: &M, n: usize, prune: Prune) -> Result<Solved<M::Handles>> {
    // The paper's pruning drops what a vertex leaves empty, to save the
    // start-ups of its messages: where they cost nothing it cannot shorten
    // the schedule, and the raw LP answers (`kept_empty`).
    let (prune, optimum) = if prune == Prune::Raw || m.free_messages() { (Prune::Raw, Optimum::Any) } else { (prune, Optimum::Vertex) };
    solve_with(m, n, prune, |kept, stages, size| solve_kept(m, kept, stages, size, optimum))
}

/// Which optimum a solve may answer where the LP has many: a vertex, as
/// the simplex gives (the paper's pruning drops what it leaves empty, and
/// the best search's budget counts pivots), or any.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Optimum {
    Vertex,
    Any,
}

/// `solve` with each system (kept units, stages) solved by `solve_once`, which
/// adds its work to the work so far it is given.
pub(crate) fn solve_with<M: StageModel, H>(m: &M, n: usize, prune: Prune, mut solve_once: impl FnMut(&[usize], usize, LpSize) -> Result<Solved<H>>) -> Result<Solved<H>> {
    let (x0, _) = m.scale();
    let mut size = LpSize::NONE;
    let all: Vec<usize> = (0..m.unit_count()).collect();
    let ((kept, _), once) = staging::pruned(prune, (all, n), |(kept, stages)| {
        let once = solve_once(kept, *stages, size.clone())?;
        size = once.lp.clone();
        let (full_units, full_stages) = loaded(&once.chunks, kept.len(), x0);
        // Stages first, then processors ("removed successively", 000 Sec. 3):
        // which chunks an optimum leaves empty is the engine's choice among
        // ties, and dropping both at once followed it into few processors
        // (the degenerate star m = 100, n = 10, S = 1e-5: 0.0149 against
        // 0.0085 stages first).
        let smaller = if full_stages < once.chunks.len() {
            Some((kept.clone(), full_stages))
        } else {
            // Chunks all within EMPTY of 0 leave no unit: nothing is
            // dropped (layers of 10^11 processors sharing V, the fuzzer's
            // binomial tree p = 2, h = 25, now refused by MAX_LAYER).
            (!full_units.is_empty() && full_units.len() < kept.len()).then(|| (full_units.iter().map(|&j| kept[j]).collect(), full_stages))
        };
        Ok((once, smaller))
    })?;
    Ok(Solved { kept, ..once })
}

/// Where messages cost nothing without load the paper's pruning cannot
/// shorten the schedule (the LP over fewer stages and units is the whole
/// one with their messages left empty), and the raw LP answers a pruned
/// request: what it leaves empty and keeps, said (`what` names the units).
/// Dropped without solving again, chunks within EMPTY of 0 took their
/// load with them (a binomial tree, S = 0: 4e-3 of V lost).
pub(crate) fn kept_empty<H>(solved: &Solved<H>, x0: f64, what: &str) -> Option<String> {
    let (loaded_units, loaded_stages) = loaded(&solved.chunks, solved.kept.len(), x0);
    let empty = [(solved.chunks.len() - loaded_stages, "stages"), (solved.kept.len() - loaded_units.len(), what)];
    let empty: Vec<String> = empty.iter().filter(|(k, _)| *k > 0).map(|(k, what)| format!("{k} {what}")).collect();
    (!empty.is_empty()).then(|| format!("{} got no load and were kept: with S = 0 they cost nothing, and pruning cannot shorten the schedule", empty.join(" and ")))
}

/// `solved` without the stages and units whose chunks are all exactly 0,
/// where messages cost nothing without load: the LP over the rest is the
/// whole one with those messages left empty, so the point is optimal for
/// it as it stands, and no re-solve is needed. A star of 436 processors,
/// S = 0, n = 153, whose shape leaves 98 stages empty, lists 55.
pub(crate) fn without_zeros(solved: Solved<()>) -> Solved<()> {
    let units: Vec<usize> = (0..solved.kept.len()).filter(|&j| solved.chunks.iter().any(|st| st[j] != 0.0)).collect();
    if units.is_empty() {
        return solved;
    }
    let chunks = solved.chunks.iter().filter(|st| st.iter().any(|&x| x != 0.0)).map(|st| units.iter().map(|&j| st[j]).collect()).collect();
    let kept = units.iter().map(|&j| solved.kept[j]).collect();
    Solved { kept, chunks, solution: None, ..solved }
}

/// The kept units (by position) and the number of stages that get load,
/// chunks of at most EMPTY LP units counting as none: what pruning keeps.
pub(crate) fn loaded(chunks: &[Vec<f64>], units: usize, x0: f64) -> (Vec<usize>, usize) {
    let empty = |x: f64| x <= EMPTY * x0;
    let full_units = (0..units).filter(|&j| !chunks.iter().all(|st| empty(st[j]))).collect();
    let full_stages = chunks.iter().filter(|st| !st.iter().all(|&x| empty(x))).count();
    (full_units, full_stages)
}

/// The chunks `alpha[k][j]` of a solution, in load units, round-off
/// outside their `bounds` (the LP's) read as the bound: the engine's
/// tolerance is absolute, and a tree's deepest cap, 1/p^(h-1) of a
/// buffer, overrun by it sent the buffer 1e-5 more than D (p = 8, h = 7)
/// before the engines saw the LP scaled (`lp::Scaling`); what round-off
/// is left stays within the bounds all the same.
pub(crate) fn chunks_of(alpha: &[Vec<Var>], sol: &lp::Solution, bounds: &[(f64, f64)], x0: f64) -> Vec<Vec<f64>> {
    alpha.iter().map(|st| st.iter().map(|&x| {
        let (lo, hi) = bounds[x.0];
        sol.get(x).min(hi).max(lo.max(0.0)) * x0
    }).collect()).collect()
}

/// The raw LP over units `kept` and `n` stages, by the model's structure
/// where it proves its answer, else (where `optimum` allows) by an
/// interior point, else by the engine; its work added to `size`.
pub(crate) fn solve_kept<M: StageModel>(m: &M, kept: &[usize], n: usize, size: LpSize, optimum: Optimum) -> Result<Solved<M::Handles>> {
    let (x0, tau) = m.scale();
    if let Some((chunks, makespan, handles)) = m.by_structure(kept, n) {
        return Ok(Solved { kept: kept.to_vec(), chunks, makespan, lp: size.by_structure(), solution: None, handles });
    }
    let size = match optimum {
        Optimum::Any => m.by_interior(kept, n, size),
        Optimum::Vertex => early_stages(m, kept, n, size),
    };
    let size = match size {
        Ok(solved) => return Ok(solved),
        Err(size) => size,
    };
    let ((lp, alpha, cmax, handles), sol) = solve_lp(m, kept, n)?;
    let chunks = chunks_of(&alpha, &sol, &lp.bounds, x0);
    Ok(Solved { kept: kept.to_vec(), chunks, makespan: sol.get(cmax) * tau, lp: size.then(&lp, &sol), solution: Some(sol), handles })
}

/// An optimal vertex of the LP over `n` stages whose last stages are
/// empty, where the interior point method proves that LP's optimum: the
/// LP with only its first `k` stages free (the others' chunks at their
/// bound 0) is a face of it, so an optimal vertex of that LP which meets
/// the optimum (within TIE) is an optimal vertex of the whole, as an
/// engine could have answered, and the paper's pruning drops the stages
/// it leaves empty. `k` doubles from the fewest stages that carry V while
/// it is at most half of `n`; else the work spent. A star of 16
/// processors, S = 1.9e-7, n = 109: microlp's vertex of the whole LP took
/// 11,531 iterations and left 99 stages empty; with the first 9 stages
/// free the LP ends 1 % later, with 18 at the optimum (2,023 iterations
/// in all, the method's included).
fn early_stages<M: StageModel>(m: &M, kept: &[usize], n: usize, size: LpSize) -> core::result::Result<Solved<M::Handles>, LpSize> {
    let fewest = (1..=n).find(|&k| fits(m, kept, k)).unwrap_or(n);
    if 2 * fewest > n {
        return Err(size);
    }
    let optimum = m.by_interior(kept, n, size)?;
    let (x0, tau) = m.scale();
    let mut work = optimum.lp.clone();
    let mut k = fewest;
    while 2 * k <= n {
        let (mut lp, alpha, cmax, handles) = m.model(kept, n);
        for &x in alpha[k..].iter().flatten() {
            lp.bounds[x.0] = (0.0, 0.0);
        }
        let Ok(sol) = lp::solve(&lp::Auto, &lp, m.name()) else { break };
        work = work.then(&lp, &sol);
        if sol.get(cmax) * tau <= optimum.makespan * (1.0 + TIE) {
            let chunks = chunks_of(&alpha, &sol, &lp.bounds, x0);
            return Ok(Solved { kept: kept.to_vec(), chunks, makespan: sol.get(cmax) * tau, lp: work, solution: Some(sol), handles });
        }
        k *= 2;
    }
    Err(work)
}

/// `solve_kept` with the paper's pruning of stages: where the model's LP
/// is switchable, the stages an optimum leaves empty are switched off,
/// from the last one back, and the LP solved again from its basis until
/// every stage left has load; returns the solution over those stages.
/// Which optimum the engine returns among ties is its choice: where every
/// stage of the one it found has load, the last stage is emptied, and
/// switched off where that costs nothing (within TIE), as an engine could
/// have answered. A tree of 10 layers over 30 stages, start-ups dominant,
/// empties one stage per solve down to 5: 25 cold solves, where a switch
/// costs a few dual simplex iterations. Where the engine fails on the
/// edits, the LP is solved cold, as before.
///
/// `near`, where given, is a point near the optimum of the LP with every
/// stage on, as an interior point method finds it, and the slack within
/// which a row counts as tight there: the simplex then starts on those
/// rows alone (h = 10, n = 30, S = 1e-3: 1,217 of 4,924) and takes the
/// others as its answers break them (`Warm::relaxed`). The point is one
/// of the LP as printed, whose variables come first: the switches are
/// at 1 there.
pub(crate) fn solve_pruned<M, T>(m: &M, kept: &[usize], n: usize, size: LpSize, near: Option<(Vec<f64>, f64)>) -> Result<Solved<M::Handles>>
where
    M: StageModel<Handles = Vec<T>>,
{
    let Some(((lp, alpha, cmax, mut handles), on)) = m.switchable(kept, n).filter(|((lp, ..), _)| lp.names.len() <= lp::MAX_VARIABLES) else {
        return solve_kept(m, kept, n, size, Optimum::Vertex);
    };
    let near = near.map(|(mut x, slack)| {
        x.resize(lp.names.len(), 1.0);
        (x, slack)
    });
    let (x0, tau) = m.scale();
    let bounds = lp.bounds.clone();
    let chunks = |sol: &lp::Solution, stages: usize| chunks_of(&alpha[..stages], sol, &bounds, x0);
    let fits = |stages: usize| fits(m, kept, stages);
    let pruned = || -> Result<(lp::Solution, usize, LpSize)> {
        let (mut warm, first) = lp::Warm::relaxed(lp, near.as_ref().map(|(x, slack)| (&x[..], *slack)), m.name())?;
        let mut sol = warm.settled(first, m.name())?;
        let mut work = size.then(warm.model(), &sol);
        let mut stages = n;
        loop {
            let (_, loaded_stages) = loaded(&chunks(&sol, stages), kept.len(), x0);
            if loaded_stages < stages {
                let off: Vec<(Var, (f64, f64))> = (loaded_stages..stages).flat_map(|k| alpha[k].iter().chain([&on[k]]).map(|&v| (v, (0.0, 0.0)))).collect();
                sol = warm.bound(&off, m.name())?;
                work = work.then(warm.model(), &sol);
                stages = loaded_stages;
                continue;
            }
            if stages == 1 || !fits(stages - 1) {
                break;
            }
            let last = &alpha[stages - 1];
            let first: Vec<(Var, (f64, f64))> = last.iter().map(|&v| (v, warm.model().bounds[v.0])).collect();
            let emptied = warm.bound(&last.iter().map(|&v| (v, (0.0, 0.0))).collect::<Vec<_>>(), m.name())?;
            work = work.then(warm.model(), &emptied);
            if emptied.get(cmax) <= sol.get(cmax) * (1.0 + TIE) {
                sol = emptied;
                continue;
            }
            sol = warm.bound(&first, m.name())?;
            work = work.then(warm.model(), &sol);
            break;
        }
        Ok((sol, stages, work))
    };
    match pruned() {
        Ok((sol, stages, work)) => {
            handles.truncate(stages);
            Ok(Solved { kept: kept.to_vec(), chunks: chunks(&sol, stages), makespan: sol.get(cmax) * tau, lp: work, solution: Some(sol), handles })
        }
        // An edit of a feasible LP found infeasible is the engine's round-off.
        Err(e) if matches!(e.code, Code::Internal | Code::Infeasible) => solve_kept(m, kept, n, size, Optimum::Vertex),
        Err(e) => Err(e),
    }
}

/// Whether `stages` stages carry the load over units `kept` with room to
/// spare: where fewer carry V only with every buffer full, the engine's
/// tolerances decide.
pub(crate) fn fits<M: StageModel>(m: &M, kept: &[usize], stages: usize) -> bool {
    stages as f64 * m.stage_capacity(kept) >= m.load() * (1.0 + TIE)
}

/// Optima this close (relative) are ties: the engine's own tolerance.
pub(crate) const TIE: f64 = 1e-9;

/// The LP over `kept` and `n` stages solved, in the model's compact form
/// or, where the engine fails on it, as printed.
fn solve_lp<M: StageModel>(m: &M, kept: &[usize], n: usize) -> Result<(StageLp<M::Handles>, lp::Solution)> {
    let solve = |lp: &Model| lp::solve(&lp::Auto, lp, m.name());
    let (mut lp, mut alpha, mut cmax, mut handles) = m.model(kept, n);
    let mut sol = solve(&lp);
    if let (Err(e), Some(printed)) = (&sol, m.printed_model(kept, n)) {
        if e.code == Code::Internal {
            (lp, alpha, cmax, handles) = printed;
            sol = solve(&lp);
        }
    }
    let sol = sol.map_err(|e| if e.code == Code::Limit { fewer_stages(e) } else { e })?;
    Ok(((lp, alpha, cmax, handles), sol))
}

/// A stage LP's refusal at its size, naming n and what makes it smaller.
pub(crate) fn fewer_stages(mut e: Error) -> Error {
    e.field = String::from("n");
    e.message = format!("{}; fewer stages n (a larger buffer D lowers n_min) make it smaller", e.message);
    e
}

/// Warnings about what pruning dropped; `what` names the units.
pub(crate) fn dropped<H>(units: usize, solved: &Solved<H>, n: usize, what: &str) -> Vec<String> {
    let mut warnings = Vec::new();
    if solved.kept.len() < units {
        warnings.push(format!("{} of {units} {what} received no load and were dropped", units - solved.kept.len()));
    }
    if solved.chunks.len() < n {
        warnings.push(format!("{} of {n} stages were empty and were dropped", n - solved.chunks.len()));
    }
    warnings
}

/// The chunk table of all `units` (zero where pruned) over the stages
/// listed, each unit's total over all stages, and the stages left out, from
/// a solution over the kept units: a long answer (`per_stage` messages a
/// stage) leaves out what `Omitted::find` picks and says so in `warnings`.
pub(crate) fn spread<H>(units: usize, solved: &Solved<H>, per_stage: usize, warnings: &mut Vec<String>) -> (Vec<Vec<f64>>, Vec<f64>, Option<Omitted>) {
    let omitted = Omitted::find(&solved.chunks, per_stage);
    warnings.extend(omitted.map(|o| o.warning(solved.chunks.len())));
    let mut loads = vec![0.0; units];
    let mut chunks = Vec::with_capacity(solved.chunks.len());
    for (k, stage) in solved.chunks.iter().enumerate() {
        for (j, &x) in stage.iter().enumerate() {
            loads[solved.kept[j]] += x;
        }
        // A row only for the stages listed (5 of 50,000 at 000 Fig. 13(b)'s D = 1).
        if Omitted::lists(omitted, k) {
            let mut row = vec![0.0; units];
            for (j, &x) in stage.iter().enumerate() {
                row[solved.kept[j]] = x;
            }
            chunks.push(row);
        }
    }
    (chunks, loads, omitted)
}
