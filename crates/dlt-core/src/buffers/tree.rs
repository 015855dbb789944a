//! 000 Sec. 3.2, LPs TreeNLF-1, TreeNLF-2, TreeLLF-1, TreeLLF-2: an ordinary
//! tree of out-degree p, layer i holding p^i processors. In every stage the
//! originator sends a chunk for each layer, nearest or largest layer first;
//! a chunk for layer i hops down the tree, from layer l to l+1 as p
//! messages of p^(i-l-1) alpha_ik per relay, each forwarded only once fully
//! received, and relays hold one or two messages at a time.
//!
//! The rows are generated from those rules rather than copied: the printed
//! LPs have index slips. Per rule, with the printed rows it reproduces:
//! - store and forward, t_ik(l+1) >= t_ikl + S + C p^(i-l-1) alpha_ik: (6),
//!   (20), (23), and (13), printed with t_i(k+1)l for t_ik(l+1);
//! - one message at a time on each link, in sending order (within a stage,
//!   then stage after stage): (9), (19), (22), (27), and (14) and (24),
//!   which print l = 1..i-1 where the originator's link l = 0 needs it too;
//! - a relay holding b buffers takes a new message only once the message b
//!   places earlier has been forwarded: for b = 1 (7), (8), (21); for b = 2
//!   (15), (16), (25), (26), where (17)-(18) print p^(h-1), p^(h-2) for the
//!   relayed hop's p^(h-2), p^(h-3) and make the third message wait for the
//!   second, not the first, to leave (one buffer's worth stricter than 2
//!   buffers need; we follow the prose, "no more than two buffers are used").
//!
//! The independent checker verifies the resulting schedules on the same
//! rules (ports, relays, buffers) without reference to these rows.

use super::binomial::Order;
use super::stages::{self, lp_scale, stage_count, LpSize, Prune, Solved, StageModel};
use super::staging;
use super::{MAX_H, MAX_P};
use crate::check::Checked;
use crate::costs::{Costs, Load};
use crate::error::Result;
use crate::lp::{self, Limits, Model, Sense, Var};
use crate::schedule::{Row, Schedule};
use crate::validate;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct TreeParams {
    pub p: f64,
    pub h: f64,
    #[serde(flatten)]
    pub load: Load,
    #[serde(rename = "D", default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub d: Option<f64>,
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub n: Option<f64>,
    pub order: Order,
    /// Messages a relay can hold: 1 or 2.
    pub buffers: f64,
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub prune: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct TreeOutput {
    /// Load each processor of layer i = 1..h receives over all stages.
    pub loads: Vec<f64>,
    /// `chunks[k][i-1]`: alpha_ik, per processor of layer i in stage k.
    pub chunks: Vec<Vec<f64>>,
    /// Processors in each layer, p^i.
    pub layer_sizes: Vec<f64>,
    pub n: usize,
    pub n_min: usize,
    /// For large n at n_min: the makespan's relative distance to a lower
    /// bound on the optimum (absent when the full LP was solved).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gap: Option<f64>,
    pub lp: LpSize,
    pub warnings: Vec<String>,
    #[serde(flatten)]
    pub schedule: Checked,
}

struct Tree {
    name: &'static str,
    p: f64,
    h: usize,
    s: f64,
    c: f64,
    a: f64,
    v: f64,
    d: Option<f64>,
    order: Order,
    buffers: usize,
    scale: (f64, f64),
}

/// A chunk for layer `layer` (1-based) in `stage`, by its kept position `j`.
#[derive(Clone, Copy)]
struct Chunk {
    stage: usize,
    j: usize,
    layer: usize,
}

impl Tree {
    /// What a message from layer `l` carries of a chunk alpha for layer i,
    /// per alpha: p^(i-l-1).
    fn share(&self, i: usize, l: usize) -> f64 {
        libm::pow(self.p, (i - l - 1) as f64)
    }

    /// The chunks in the order they leave the originator.
    fn sequence(&self, kept: &[usize], n: usize) -> Vec<Chunk> {
        let mut js: Vec<usize> = (0..kept.len()).collect();
        if self.order == Order::Llf {
            js.reverse();
        }
        (0..n).flat_map(|stage| js.iter().map(move |&j| Chunk { stage, j, layer: kept[j] + 1 })).collect()
    }
}

impl StageModel for Tree {
    /// t[k][j][l]: when the hop from layer l of chunk (k, j) starts.
    type Handles = Vec<Vec<Vec<Var>>>;

    fn name(&self) -> &'static str {
        self.name
    }

    fn unit_count(&self) -> usize {
        self.h
    }

    fn scale(&self) -> (f64, f64) {
        self.scale
    }

    fn model(&self, kept: &[usize], n: usize) -> (Model, Vec<Vec<Var>>, Var, Self::Handles) {
        let TreeLp { lp, alpha, cmax, t, .. } = self.build(kept, n, None);
        (lp, alpha, cmax, t)
    }
}

/// Stages `at` and `at + 1` of a compressed LP stand for `skip + 2` full
/// stages in steady state: every middle stage is the one before shifted by
/// the period P.
#[derive(Clone, Copy)]
struct Period {
    at: usize,
    skip: f64,
}

impl Tree {
    /// The cap of a chunk for layer i in LP units: (11), p^(i-1) alpha <= D.
    fn cap(&self, i: usize) -> f64 {
        self.d.map_or(f64::INFINITY, |d| d / libm::pow(self.p, (i - 1) as f64) / self.scale.0)
    }

    /// The LP over `n` stage positions; with a period, positions `at` and
    /// `at + 1` are full middle stages and `skip` more like them are left
    /// out between `at + 1` and `at + 2`. Returns the period variable too.
    fn build(&self, kept: &[usize], n: usize, period: Option<Period>) -> TreeLp {
        let (x0, tau) = self.scale;
        let (s, c, a) = (self.s / tau, self.c * x0 / tau, self.a * x0 / tau);
        let mut lp = Model::default();
        let cmax = lp.var("Cmax", 0.0, f64::INFINITY, 1.0);
        let mut alpha = Vec::with_capacity(n);
        let mut t = Vec::with_capacity(n);
        let mut r = Vec::with_capacity(n);
        for k in 0..n {
            let mut alpha_k = Vec::new();
            let mut t_k = Vec::new();
            let mut r_k = Vec::new();
            let full = period.is_some_and(|p| k == p.at || k == p.at + 1);
            for &u in kept {
                let i = u + 1;
                let cap = self.cap(i);
                alpha_k.push(lp.var(format!("alpha_{i}_{}", k + 1), if full { cap } else { 0.0 }, cap, 0.0));
                t_k.push((0..i).map(|l| lp.var(format!("t_{i}_{}_{l}", k + 1), 0.0, f64::INFINITY, 0.0)).collect::<Vec<_>>());
                r_k.push(lp.var(format!("R_{i}_{}", k + 1), 0.0, f64::INFINITY, 0.0));
            }
            alpha.push(alpha_k);
            t.push(t_k);
            r.push(r_k);
        }
        let period_var = period.map(|_| lp.var("P", 0.0, f64::INFINITY, 0.0));
        // Past the compressed middle, a start depends on the last of the
        // left-out stages: the stage at `at + 1` shifted by skip periods.
        let shifted = |from: &Chunk, to: &Chunk| match (period, period_var) {
            (Some(p), Some(v)) if from.stage == p.at + 1 && to.stage > p.at + 1 => Some((v, -p.skip)),
            _ => None,
        };
        // `b` starts at least one hop of `x` after `x` starts.
        let after = |lp: &mut Model, name: String, (b, x): (Var, Var), alpha: Var, share: f64, shift: Option<(Var, f64)>| {
            let mut row = vec![(b, 1.0), (x, -1.0), (alpha, -c * share)];
            row.extend(shift);
            lp.row(name, row, Sense::Ge, s);
        };
        let order = self.sequence(kept, n);
        for ch in &order {
            let (k, j, i) = (ch.stage, ch.j, ch.layer);
            let x = alpha[k][j];
            for l in 0..i - 1 {
                after(&mut lp, format!("forward_{i}_{}_{l}", k + 1), (t[k][j][l + 1], t[k][j][l]), x, self.share(i, l), None);
            }
            // (10): computing every chunk from this one on ends by Cmax.
            lp.row(format!("end_{i}_{}", k + 1), vec![(t[k][j][i - 1], 1.0), (x, c), (r[k][j], a), (cmax, -1.0)], Sense::Le, -s);
            let mut sum = vec![(r[k][j], 1.0), (x, -1.0)];
            if k + 1 < n {
                sum.push((r[k + 1][j], -1.0));
            }
            match (period, period_var) {
                (Some(p), Some(pv)) if k == p.at + 1 => {
                    // The left-out stages' chunks are still to compute, and
                    // the last of them ends skip periods later.
                    lp.row(format!("run_{i}_{}", k + 1), sum, Sense::Eq, p.skip * self.cap(i));
                    let mut end = vec![(t[k][j][i - 1], 1.0), (pv, p.skip), (x, c + a), (cmax, -1.0)];
                    if k + 1 < n {
                        end.push((r[k + 1][j], a));
                    }
                    lp.row(format!("end_last_middle_{i}"), end, Sense::Le, -s);
                }
                (Some(p), Some(pv)) if k == p.at => {
                    lp.row(format!("run_{i}_{}", k + 1), sum, Sense::Eq, 0.0);
                    for (l, (&next, &this)) in t[k + 1][j].iter().zip(&t[k][j]).enumerate() {
                        lp.row(format!("period_{i}_{l}"), vec![(next, 1.0), (this, -1.0), (pv, -1.0)], Sense::Eq, 0.0);
                    }
                }
                _ => lp.row(format!("run_{i}_{}", k + 1), sum, Sense::Eq, 0.0),
            }
        }
        for l in 0..self.h {
            // The link from layer l carries the chunks for layers below l.
            let on_link: Vec<&Chunk> = order.iter().filter(|ch| ch.layer > l).collect();
            for w in on_link.windows(2) {
                let (x, y) = (w[0], w[1]);
                let name = format!("link_{l}_{}_{}_{}", x.layer, x.stage + 1, y.layer);
                after(&mut lp, name, (t[y.stage][y.j][l], t[x.stage][x.j][l]), alpha[x.stage][x.j], self.share(x.layer, l), shifted(x, y));
            }
            // A relay in layer l >= 1 takes the message `buffers` places
            // after a relayed one once that one has left.
            if l >= 1 {
                let entering: Vec<&Chunk> = order.iter().filter(|ch| ch.layer >= l).collect();
                for (q, x) in entering.iter().enumerate() {
                    if let (true, Some(y)) = (x.layer > l, entering.get(q + self.buffers)) {
                        let name = format!("buffer_{l}_{}_{}_{}", x.layer, x.stage + 1, y.layer);
                        after(&mut lp, name, (t[y.stage][y.j][l - 1], t[x.stage][x.j][l]), alpha[x.stage][x.j], self.share(x.layer, l), shifted(x, y));
                    }
                }
            }
        }
        // (12), less what the left-out stages carry.
        let count = |j: usize| libm::pow(self.p, (kept[j] + 1) as f64);
        let all = alpha.iter().flat_map(|st| st.iter().enumerate().map(|(j, &x)| (x, count(j)))).collect();
        let left_out = period.map_or(0.0, |p| p.skip * (0..kept.len()).map(|j| count(j) * self.cap(kept[j] + 1)).sum::<f64>());
        lp.row("load", all, Sense::Eq, self.v / x0 - left_out);
        TreeLp { lp, alpha, cmax, t, period: period_var }
    }
}

/// A tree LP and its variables: chunk alpha, the hops' start times t and the
/// period P of a compressed LP, by stage and kept layer.
struct TreeLp {
    lp: Model,
    alpha: Vec<Vec<Var>>,
    cmax: Var,
    t: Vec<Vec<Vec<Var>>>,
    period: Option<Var>,
}

fn validate(q: &TreeParams) -> Result<(Tree, usize, usize)> {
    let p = validate::integer("p", q.p, 1, MAX_P)? as f64;
    let h = validate::integer("h", q.h, 1, MAX_H)?;
    let buffers = validate::integer("buffers", q.buffers, 1, 2)?;
    let Load { costs: Costs { s, c, a }, v } = q.load.validate()?;
    let d = q.d.map(|d| validate::positive("D", d)).transpose()?;
    let n_min = d.map_or(1.0, |d| libm::ceil(v / (d * p * h as f64)));
    // Hops per stage, h(h+1)/2, bound the LP as messages do.
    let (n, n_min) = stage_count(q.n, n_min, h * (h + 1) / 2)?;
    let computing: f64 = (1..=h).map(|i| libm::pow(p, i as f64)).sum();
    let name = match (q.order, buffers) {
        (Order::Nlf, 1) => "TreeNLF-1",
        (Order::Nlf, _) => "TreeNLF-2",
        (Order::Llf, 1) => "TreeLLF-1",
        (Order::Llf, _) => "TreeLLF-2",
    };
    let tree = Tree { name, p, h, s, c, a, v, d, order: q.order, buffers, scale: lp_scale(v, d, s + v * a / computing) };
    Ok((tree, n, n_min))
}

/// The LP (all layers, n stages), for export, with its units.
pub fn tree_lp(params: &TreeParams) -> Result<(Model, String)> {
    let (tree, n, _) = validate(params)?;
    let all: Vec<usize> = (0..tree.h).collect();
    let (x0, tau) = tree.scale;
    Ok((tree.model(&all, n).0, format!("{}: {}", tree.name, crate::lp::units(x0, tau))))
}

/// The stages, the LP's size and the method `tree` will use.
pub(crate) fn plan(params: &TreeParams) -> Result<crate::model::Plan> {
    let (tree, n, n_min) = validate(params)?;
    let hops = n * tree.h * (tree.h + 1) / 2;
    let method = if steady_state(&tree, n, n_min) { "the middle stages full and periodic" } else { "the full LP" };
    Ok(crate::model::Plan {
        n: Some(n),
        n_min: Some(n_min),
        messages: Some(hops),
        variables: Some(n * (tree.h * (tree.h + 1) / 2 + 2 * tree.h) + 1),
        method: Some(format!("{}, {method}", tree.name)),
        ..Default::default()
    })
}

/// Whether `tree` solves by the windowed steady-state method: n = n_min
/// stages of more than FULL_LP_HOPS hops.
fn steady_state(tree: &Tree, n: usize, n_min: usize) -> bool {
    tree.d.is_some() && n == n_min && n >= 4 && n * tree.h * (tree.h + 1) / 2 > FULL_LP_HOPS
}

/// Beyond this many hops at n_min, the full LP gives way to the windowed
/// steady-state method.
pub const FULL_LP_HOPS: usize = 1500;

pub fn tree(params: &TreeParams) -> Result<TreeOutput> {
    let (tree, n, n_min) = validate(params)?;
    let (solved, warnings, gap) = if steady_state(&tree, n, n_min) {
        let (solved, bound) = windowed(&tree, n)?;
        let gap = (solved.makespan - bound) / solved.makespan;
        let warning = format!(
            "n = n_min = {n}: solved with the middle stages full and periodic ({} variables instead of {}); \
             not proven optimal, within {gap:.2e} of a lower bound",
            solved.lp.variables,
            n * (tree.h * (tree.h + 1) / 2 + 2 * tree.h) + 1
        );
        (solved, vec![warning], Some(gap))
    } else {
        let solved = stages::solve(&tree, n, Prune::from(params.prune))?;
        let warnings = stages::dropped(tree.h, &solved, n, "layers");
        (timed(tree.scale.1, solved), warnings, None)
    };
    let (chunks, loads) = stages::spread(tree.h, &solved);
    let schedule = hop_schedule(&tree, &solved.kept, &solved.chunks, &solved.handles, solved.makespan)?;
    Ok(TreeOutput {
        loads,
        chunks,
        layer_sizes: (1..=tree.h).map(|i| libm::pow(tree.p, i as f64)).collect(),
        n: solved.chunks.len(),
        n_min,
        gap,
        warnings,
        lp: solved.lp,
        schedule,
    })
}

/// Hop start times per stage, chunk and hop.
type Times = Vec<Vec<Vec<f64>>>;

/// A full-LP solution with its hop start times (round-off below 0 read as
/// 0) in place of the variables.
fn timed(tau: f64, full: Solved<Vec<Vec<Vec<Var>>>>) -> Solved<Times> {
    let times = full.handles.iter().map(|st| st.iter().map(|hops| hops.iter().map(|&v| full.solution.get(v).max(0.0) * tau).collect()).collect()).collect();
    Solved { kept: full.kept, chunks: full.chunks, makespan: full.makespan, lp: full.lp, solution: full.solution, handles: times }
}

/// At n_min with small D most stages carry every layer's cap (000 Sec. 4.2:
/// "the maximum load was sent"). The first f and last l stages are free;
/// the middle ones are full and, in steady state, each the one before
/// shifted by a period P: two of them stand for all. The window doubles
/// until the makespan stops improving. Returns the solution over all n
/// stages, its hop times and a lower bound on the full LP's optimum.
fn windowed(tree: &Tree, n: usize) -> Result<(Solved<Times>, f64)> {
    let all: Vec<usize> = (0..tree.h).collect();
    let (x0, tau) = tree.scale;
    let solved = staging::doubling(|window| {
        if 2 * window + 3 > n {
            // Too few stages for a middle: the full LP.
            return Ok((timed(tau, stages::solve(tree, n, Prune::Raw)?), true));
        }
        let (f, l) = (window, window);
        let positions = f + 2 + l;
        let skip = (n - positions) as f64;
        let TreeLp { lp, alpha, cmax, t, period } = tree.build(&all, positions, Some(Period { at: f, skip }));
        let sol = lp::solve(&lp::Microlp, &lp, Limits::default(), tree.name)?;
        let big_p = period.map_or(0.0, |v| sol.get(v));
        // Expand the positions to the n stages: left-out stage q (0-based
        // among them) is position f + 1 shifted by q + 1 periods.
        let mut chunks = Vec::with_capacity(n);
        let mut times = Vec::with_capacity(n);
        for p in 0..positions {
            let copies = if p == f + 1 { 1 + skip as usize } else { 1 };
            for q in 0..copies {
                chunks.push(alpha[p].iter().map(|&x| sol.get(x).max(0.0) * x0).collect::<Vec<f64>>());
                times.push(t[p].iter().map(|hops| hops.iter().map(|&v| (sol.get(v).max(0.0) + q as f64 * big_p) * tau).collect()).collect());
            }
        }
        let size = LpSize::NONE.then(&lp, &sol);
        Ok((Solved { kept: all.clone(), chunks, makespan: sol.get(cmax) * tau, lp: size, solution: sol, handles: times }, false))
    })?;
    // The layers together compute V, at best all at once after one start-up;
    // and a layer gets at most pD a stage, so layer 1 computes at least what
    // the other h - 1 layers cannot take, shared by its p processors.
    let computing: f64 = (1..=tree.h).map(|i| libm::pow(tree.p, i as f64)).sum();
    let others = n as f64 * tree.p * tree.d.unwrap_or(f64::INFINITY) * (tree.h - 1) as f64;
    let bound = (tree.s + tree.v * tree.a / computing).max(tree.s + tree.a * (tree.v - others).max(0.0) / tree.p);
    Ok((solved, bound))
}

/// Every hop at the time the LP gives it; each layer computes its chunks in
/// order as they arrive. Layers that compute nothing still relay.
fn hop_schedule(tree: &Tree, kept: &[usize], chunks: &[Vec<f64>], times: &Times, makespan: f64) -> Result<Checked> {
    let deepest = kept.iter().max().map_or(0, |&u| u + 1);
    let mut origin = Row::originator(tree.v);
    origin.send_ports = tree.p;
    let mut rows = vec![origin];
    for l in 1..=deepest {
        let mut row = Row::linear(format!("layer {l}"), libm::pow(tree.p, l as f64), tree.s, tree.c, tree.a);
        row.send_ports = tree.p;
        row.buffer = tree.d;
        row.buffers = Some(tree.buffers as f64);
        rows.push(row);
    }
    let mut schedule = Schedule::new(rows, tree.v);
    let mut busy = vec![0.0; deepest + 1];
    for ch in tree.sequence(kept, chunks.len()) {
        let (k, j, i) = (ch.stage, ch.j, ch.layer);
        let alpha = chunks[k][j];
        let mut source = None;
        let mut arrived = 0.0;
        for (l, &start) in times[k][j].iter().enumerate().take(i) {
            let x = tree.share(i, l) * alpha;
            arrived = start + tree.s + tree.c * x;
            schedule.comm(l, l + 1, (start, arrived), x, libm::pow(tree.p, (l + 1) as f64)).source = source;
            source = Some(schedule.intervals.len() - 1);
        }
        if alpha > 0.0 {
            busy[i] = schedule.run(i, arrived.max(busy[i]), alpha);
        }
    }
    schedule.makespan = makespan;
    crate::checked(schedule)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The windowed steady-state method against the full LP wherever the
    /// full LP runs, with its schedules through the checker.
    #[test]
    fn windowed_equals_the_full_lp() {
        let mut rnd = crate::uniform(17);
        let mut worst: f64 = 0.0;
        for case in 0..40 {
            let (p, h) = (1.0 + libm::floor(rnd() * 2.0), 2 + (rnd() * 2.0) as usize);
            let n = 12 + (rnd() * 28.0) as usize;
            let (s, c, a, v) = (1e-4 + rnd() * 1e-2, rnd() * 1e-3, 1e-4 + rnd() * 1e-2, 1e2 + rnd() * 1e5);
            let d = v / (p * h as f64 * (n as f64 - 0.05 - 0.9 * rnd()));
            let order = if case % 2 == 0 { Order::Nlf } else { Order::Llf };
            let params = TreeParams { p, h: h as f64, load: Load::new(s, c, a, v), d: Some(d), n: None, order, buffers: 1.0 + (case % 3 == 0) as u8 as f64, prune: Some(false) };
            let (tree, n_got, _) = validate(&params).unwrap();
            assert_eq!(n_got, n);
            let full = stages::solve(&tree, n, Prune::Raw).unwrap();
            let (fast, bound) = windowed(&tree, n).unwrap();
            assert!(bound <= full.makespan * (1.0 + 1e-9));
            let rel = (fast.makespan - full.makespan) / full.makespan;
            assert!(rel >= -1e-7, "the windowed LP beat the full LP: {rel}");
            worst = worst.max(rel);
            hop_schedule(&tree, &fast.kept, &fast.chunks, &fast.handles, fast.makespan).unwrap();
        }
        assert!(worst <= 1e-7, "windowed off the full LP by {worst}");
    }
}

#[cfg(test)]
mod regressions {
    use super::*;

    /// Found by the HiGHS cross-check: an LP start time of -3e-35 made the
    /// checker reject an optimal schedule. HiGHS: 0.002036985409117215.
    #[test]
    fn round_off_below_zero_is_zero() {
        let params = TreeParams {
            p: 3.0, h: 2.0, load: Load::new(0.0, 0.00005757120163861357, 0.0000023682800468021873, 103.40508757750558),
            d: Some(16.90693418219639), n: None, order: Order::Llf, buffers: 1.0, prune: Some(false),
        };
        let out = tree(&params).unwrap();
        assert!((out.schedule.makespan - 0.002036985409117215).abs() <= 1e-9 * 0.002036985409117215);
    }
}
