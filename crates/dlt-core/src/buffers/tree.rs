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
use super::{MAX_H, MAX_P};
use crate::error::Result;
use crate::lp::{Model, Sense, Var};
use crate::schedule::{Row, Schedule};
use crate::validate;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreeParams {
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
    #[serde(rename = "D", default, skip_serializing_if = "Option::is_none")]
    pub d: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<f64>,
    pub order: Order,
    /// Messages a relay can hold: 1 or 2.
    pub buffers: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prune: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TreeOutput {
    /// Load each processor of layer i = 1..h receives over all stages.
    pub loads: Vec<f64>,
    /// `chunks[k][i-1]`: alpha_ik, per processor of layer i in stage k.
    pub chunks: Vec<Vec<f64>>,
    /// Processors in each layer, p^i.
    pub layer_sizes: Vec<f64>,
    pub n: usize,
    pub n_min: usize,
    pub lp: LpSize,
    pub warnings: Vec<String>,
    #[serde(flatten)]
    pub schedule: Schedule,
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
            for &u in kept {
                let i = u + 1;
                // (11): the message on the originator's link, p^(i-1) alpha, fits D.
                let cap = self.d.map_or(f64::INFINITY, |d| d / libm::pow(self.p, (i - 1) as f64) / x0);
                alpha_k.push(lp.var(format!("alpha_{i}_{}", k + 1), 0.0, cap, 0.0));
                t_k.push((0..i).map(|l| lp.var(format!("t_{i}_{}_{l}", k + 1), 0.0, f64::INFINITY, 0.0)).collect::<Vec<_>>());
                r_k.push(lp.var(format!("R_{i}_{}", k + 1), 0.0, f64::INFINITY, 0.0));
            }
            alpha.push(alpha_k);
            t.push(t_k);
            r.push(r_k);
        }
        // `b` starts at least one hop of `x` after `x` starts.
        let after = |lp: &mut Model, name: String, b: Var, x: Var, alpha: Var, share: f64| {
            lp.row(name, vec![(b, 1.0), (x, -1.0), (alpha, -c * share)], Sense::Ge, s);
        };
        let order = self.sequence(kept, n);
        for ch in &order {
            let (k, j, i) = (ch.stage, ch.j, ch.layer);
            let x = alpha[k][j];
            for l in 0..i - 1 {
                after(&mut lp, format!("forward_{i}_{}_{l}", k + 1), t[k][j][l + 1], t[k][j][l], x, self.share(i, l));
            }
            // (10): computing every chunk from this one on ends by Cmax.
            lp.row(format!("end_{i}_{}", k + 1), vec![(t[k][j][i - 1], 1.0), (x, c), (r[k][j], a), (cmax, -1.0)], Sense::Le, -s);
            let mut sum = vec![(r[k][j], 1.0), (x, -1.0)];
            if k + 1 < n {
                sum.push((r[k + 1][j], -1.0));
            }
            lp.row(format!("run_{i}_{}", k + 1), sum, Sense::Eq, 0.0);
        }
        for l in 0..self.h {
            // The link from layer l carries the chunks for layers below l.
            let on_link: Vec<&Chunk> = order.iter().filter(|ch| ch.layer > l).collect();
            for w in on_link.windows(2) {
                let (x, y) = (w[0], w[1]);
                after(&mut lp, format!("link_{l}_{}_{}_{}", x.layer, x.stage + 1, y.layer), t[y.stage][y.j][l], t[x.stage][x.j][l], alpha[x.stage][x.j], self.share(x.layer, l));
            }
            // A relay in layer l >= 1 takes the message `buffers` places
            // after a relayed one once that one has left.
            if l >= 1 {
                let entering: Vec<&Chunk> = order.iter().filter(|ch| ch.layer >= l).collect();
                for (q, x) in entering.iter().enumerate() {
                    if let (true, Some(y)) = (x.layer > l, entering.get(q + self.buffers)) {
                        after(&mut lp, format!("buffer_{l}_{}_{}_{}", x.layer, x.stage + 1, y.layer), t[y.stage][y.j][l - 1], t[x.stage][x.j][l], alpha[x.stage][x.j], self.share(x.layer, l));
                    }
                }
            }
        }
        // (12)
        let all = alpha.iter().flat_map(|st| st.iter().enumerate().map(|(j, &x)| (x, libm::pow(self.p, (kept[j] + 1) as f64)))).collect();
        lp.row("load", all, Sense::Eq, self.v / x0);
        (lp, alpha, cmax, t)
    }
}

fn validate(q: &TreeParams) -> Result<(Tree, usize, usize)> {
    let p = validate::integer("p", q.p, 1, MAX_P)? as f64;
    let h = validate::integer("h", q.h, 1, MAX_H)?;
    let buffers = validate::integer("buffers", q.buffers, 1, 2)?;
    let (s, c, a, v) = (validate::nonneg("S", q.s)?, validate::nonneg("C", q.c)?, validate::positive("A", q.a)?, validate::positive("V", q.v)?);
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
    Ok((tree.model(&all, n).0, format!("{}: loads in units of {x0:e}, times in units of {tau:e}", tree.name)))
}

pub fn tree(params: &TreeParams) -> Result<TreeOutput> {
    let (tree, n, n_min) = validate(params)?;
    let solved = stages::solve(&tree, n, Prune::from(params.prune))?;
    let (chunks, loads) = stages::spread(tree.h, &solved);
    let schedule = hop_schedule(&tree, &solved)?;
    Ok(TreeOutput {
        loads,
        chunks,
        layer_sizes: (1..=tree.h).map(|i| libm::pow(tree.p, i as f64)).collect(),
        n: solved.chunks.len(),
        n_min,
        warnings: stages::dropped(tree.h, &solved, n, "layers"),
        lp: solved.lp,
        schedule,
    })
}

/// Every hop at the time the LP gives it; each layer computes its chunks in
/// order as they arrive. Layers that compute nothing still relay.
fn hop_schedule(tree: &Tree, solved: &Solved<Vec<Vec<Vec<Var>>>>) -> Result<Schedule> {
    let tau = tree.scale.1;
    let deepest = solved.kept.iter().max().map_or(0, |&u| u + 1);
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
    for ch in tree.sequence(&solved.kept, solved.chunks.len()) {
        let (k, j, i) = (ch.stage, ch.j, ch.layer);
        let alpha = solved.chunks[k][j];
        let mut source = None;
        let mut arrived = 0.0;
        for l in 0..i {
            let x = tree.share(i, l) * alpha;
            let start = solved.solution.get(solved.handles[k][j][l]) * tau;
            arrived = start + tree.s + tree.c * x;
            schedule.comm(l, l + 1, (start, arrived), x, libm::pow(tree.p, (l + 1) as f64)).source = source;
            source = Some(schedule.intervals.len() - 1);
        }
        if alpha > 0.0 {
            busy[i] = schedule.run(i, arrived.max(busy[i]), alpha);
        }
    }
    schedule.makespan = solved.makespan;
    crate::checked(schedule)
}
