//! 000 Sec. 3.3, LPs BinomialTreeNLF and BinomialTreeLLF: layer i of a
//! binomial tree has p(p+1)^(i-1) processors; in every stage the originator
//! scatters a chunk to each layer in turn (nearest or largest layer first),
//! and a scatter to layer i takes i synchronous steps, S i + C (p+1)^(i-1)
//! alpha in all.

use super::full_stages;
use super::listing::Omitted;
use super::sequential::{Sequential, Unit};
use super::best::{Answer, BestReport};
use super::stages::{self, lp_scale, LpSize, Solved, Staged, Stages};
use super::{H, P};
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

pub(crate) const FIELDS: &[Field] = &[P, H, costs::S, costs::C, costs::A, costs::V, stages::D, stages::N];

/// Layer activation order within a stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub enum Order {
    /// Nearest layer first.
    #[serde(rename = "NLF")]
    Nlf,
    /// Largest layer first.
    #[serde(rename = "LLF")]
    Llf,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct BinomialParams {
    pub p: f64,
    pub h: f64,
    #[serde(flatten)]
    pub load: Load,
    #[serde(flatten)]
    pub stages: Stages,
    pub order: Order,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct BinomialOutput {
    /// Load each processor of layer i = 1..h receives over all stages.
    pub loads: Vec<f64>,
    /// `chunks[k][i-1]`: alpha_ik, per processor of layer i in stage k, over
    /// the stages listed.
    pub chunks: Vec<Vec<f64>>,
    /// Stages alike left out of `chunks` and the schedule (long answers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub omitted: Option<Omitted>,
    /// Processors in each layer, p (p+1)^(i-1).
    pub layer_sizes: Vec<f64>,
    pub n: usize,
    pub n_min: usize,
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

pub(super) struct Tree {
    p: f64,
    s: f64,
    c: f64,
    d: Option<f64>,
}

pub(super) fn validate(q: &BinomialParams) -> Result<(Sequential, Tree, usize, usize)> {
    let p = P.count(q.p)? as f64;
    let h = H.count(q.h)?;
    // (p+1)^k: layer i >= 1 holds p (p+1)^(i-1) processors.
    let grow = super::powers(p + 1.0, h);
    let layer_size = |i: usize| p * grow[i - 1];
    super::deepest_layer(p, h, "p(p+1)^(h-1)", layer_size)?;
    let Load { costs: Costs { s, c, a }, v } = q.load.validate()?;
    // A stage carries at most D to layer 1 and p(p+1)^(i-2) D to layer i >= 2;
    // a scatter to layer i takes i steps: h(h+1)/2 per stage bound the
    // schedule as hops do in the ordinary tree.
    let Staged { d, n, n_min, .. } = q.stages.validate(v, h as f64 * (p + 1.0) - 1.0, h * (h + 1) / 2)?;
    // (31)-(32): the message to layer 1 carries p(p+1)^(i-2) alpha_ik <= D.
    let cap = |i: usize| match d {
        None => f64::INFINITY,
        Some(d) if i == 1 => d,
        Some(d) => d / (p * grow[i - 2]),
    };
    let units: Vec<Unit> = (1..=h).map(|i| Unit { s: s * i as f64, c: c * grow[i - 1], count: layer_size(i), cap: cap(i) }).collect();
    let computing: f64 = units.iter().map(|u| u.count).sum();
    let name = match q.order {
        Order::Nlf => "BinomialTreeNLF",
        Order::Llf => "BinomialTreeLLF",
    };
    let stages = Sequential { name, units, a, v, backward: q.order == Order::Llf, scale: lp_scale(v, d, s + v * a / computing) };
    Ok((stages, Tree { p, s, c, d }, n, n_min))
}

/// The LP as printed (all layers, n stages), for export, with its units.
pub fn binomial_lp(params: &BinomialParams) -> Result<(Model, crate::lp::Units)> {
    let (lp, _, n, _) = validate(params)?;
    Ok(lp.export(n))
}

/// The stages and the LP's size of `binomial`.
pub(crate) fn plan(params: &BinomialParams) -> Result<crate::model::Plan> {
    let (lp, _, n, n_min) = validate(params)?;
    Ok(full_stages::plan(&lp, n, n_min, params.stages.prune()))
}

pub fn binomial(params: &BinomialParams) -> Result<BinomialOutput> {
    let (lp, tree, n, n_min) = validate(params)?;
    let prune = params.stages.prune();
    let Answer { solved, mut warnings, gap, best } = full_stages::solve_or_full(&lp, n, n_min, prune, "layers")?;
    let h = lp.units.len();
    let (chunks, loads, omitted) = stages::spread(h, &solved, scatter_messages(h), &mut warnings);
    let schedule = scatter_schedule(&lp, &tree, &solved, omitted)?;
    Ok(BinomialOutput {
        loads,
        chunks,
        omitted,
        layer_sizes: lp.units.iter().map(|u| u.count).collect(),
        n: solved.chunks.len(),
        n_min,
        gap,
        warnings,
        best,
        lp: solved.lp,
        schedule,
    })
}

/// The schedule's message intervals of one stage over h layers: in step j
/// of the scatter to layer i each of layers 0..j-1 sends, so the scatter
/// lists i(i+1)/2 of them (not i, its steps).
fn scatter_messages(h: usize) -> usize {
    h * (h + 1) * (h + 2) / 6
}

/// Every step of every scatter, as 000 Sec. 3.3 describes it: in step j of
/// a scatter to layer i, each processor of layers 0..j-1 sends over its p
/// ports to its children in layer j what their layer-i descendants need,
/// p (p+1)^(i-j-1) alpha (alpha in the last step). Layers that compute
/// nothing still relay. Stages `omitted` are timed but not listed.
fn scatter_schedule(lp: &Sequential, tree: &Tree, solved: &Solved<()>, omitted: Option<Omitted>) -> Result<Checked> {
    let p = tree.p;
    let deepest = solved.kept.iter().max().map_or(0, |&u| u + 1);
    // Processors of each layer, the originator's 1 first.
    let sizes: Vec<f64> = core::iter::once(1.0).chain(lp.units.iter().map(|u| u.count)).take(deepest + 1).collect();
    let mut origin = Row::originator(lp.v);
    origin.send_ports = p;
    let mut rows = vec![origin];
    for (i, &size) in sizes.iter().enumerate().skip(1) {
        let mut row = Row::linear(format!("layer {i}"), size, tree.s, tree.c, lp.a);
        row.send_ports = p;
        row.buffer = tree.d;
        rows.push(row);
    }
    let mut schedule = Schedule::new(rows, lp.v);
    let (mut wire, mut busy) = (0.0, vec![0.0; deepest + 1]);
    let mut listed = 0.0;
    for (k, j) in lp.order(solved) {
        let (i, alpha) = (solved.kept[j] + 1, solved.chunks[k][j]);
        let lists = Omitted::lists(omitted, k);
        for step in 1..=i {
            let x = if step < i { sizes[i - step] * alpha } else { alpha };
            let end = wire + tree.s + tree.c * x;
            // Senders: the originator and layers 1..step-1, p messages each.
            if lists {
                schedule.comm(0, step, (wire, end), x, p);
                for (l, size) in sizes.iter().enumerate().take(step).skip(1) {
                    schedule.comm(l, step, (wire, end), x, p * size);
                }
            }
            wire = end;
        }
        if alpha > 0.0 && lists {
            listed += alpha * sizes[i];
            busy[i] = schedule.run(i, wire.max(busy[i]), alpha);
        } else if alpha > 0.0 {
            busy[i] = schedule.finish(i, wire.max(busy[i]), alpha);
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
    use crate::buffers::listing::LISTED_MESSAGES;
    use crate::schedule::Kind;
    use approx::assert_relative_eq;

    fn at_n_min(n: usize) -> BinomialOutput {
        // A stage carries (h (p + 1) - 1) D: D a little over V / (29 n).
        let d = 1e6 / (29.0 * n as f64) * 1.0001;
        binomial(&BinomialParams { p: 2.0, h: 10.0, load: Load::new(1e-3, 1e-6, 1e-3, 1e6), stages: Stages::new(Some(d), None, None), order: Order::Nlf }).unwrap()
    }

    fn messages(out: &BinomialOutput) -> usize {
        out.schedule.intervals.iter().filter(|i| i.kind == Kind::Comm).count()
    }

    /// 000 Sec. 4.2's binomial tree (p = 2, h = 10): a stage's scatters list
    /// 220 message intervals, and the limit on a listed answer counts them,
    /// not the 55 steps (at n = 100, 22,000 of them, 2.9 MB of JSON before).
    #[test]
    fn a_long_answer_counts_every_senders_message() {
        let short = at_n_min(20);
        assert_eq!((short.n, short.omitted, messages(&short)), (20, None, 20 * scatter_messages(10)));
        assert_eq!(scatter_messages(10), 220);
        let long = at_n_min(100);
        let omitted = long.omitted.expect("100 stages of 220 messages are listed in part");
        assert_eq!(long.chunks.len() + omitted.stages, 100);
        assert_eq!(messages(&long), long.chunks.len() * 220);
        assert!(messages(&long) <= LISTED_MESSAGES);
        assert_eq!(long.schedule.total_load, 1e6);
    }

    /// Without start-ups or communication only the buffers bind: the
    /// optimum is A L for the least L with V <= sum_i |layer i| min(L, n
    /// D_i), D_i the most a processor of layer i takes from a stage
    /// ((31)-(32): D / (p (p+1)^(i-2)) below layer 1; `water_level`).
    /// Up to MAX_LAYER processors a layer (p = 2, h = 17: 8.6e7, its
    /// buffer 1/2.9e7 of layer 1's), where the fuzzer's h = 25 read every
    /// chunk as empty; beyond it, refused naming h and its range.
    #[test]
    fn free_messages_fill_the_buffers_to_the_least_peak_load() {
        let (v, d, a) = (3.1e6, 1e4, 1e-3);
        let params = |p: f64, h: f64, order, prune| BinomialParams { p, h, load: Load::new(0.0, 0.0, a, v), stages: Stages::new(Some(d), None, prune), order };
        for (p, h, order, prune) in [(2.0, 17.0, Order::Llf, None), (2.0, 17.0, Order::Nlf, Some(false)), (5.0, 10.0, Order::Llf, Some(true)), (3.0, 13.0, Order::Nlf, None)] {
            let out = binomial(&params(p, h, order, prune)).unwrap();
            let n = out.n as f64;
            let most = |i: usize| if i == 0 { d } else { d / (p * libm::pow(p + 1.0, i as f64 - 1.0)) };
            let carried = |l: f64| out.layer_sizes.iter().enumerate().map(|(i, count)| count * l.min(n * most(i))).sum::<f64>();
            assert!(*out.layer_sizes.last().unwrap() <= crate::buffers::MAX_LAYER);
            assert_relative_eq!(out.schedule.makespan, a * crate::buffers::water_level(v, n * d, carried), max_relative = 1e-9);
        }
        let err = binomial(&params(2.0, 25.0, Order::Llf, None)).unwrap_err();
        assert_eq!((err.field.as_str(), err.code), ("h", crate::error::Code::OutOfRange));
        assert!(err.message.starts_with("h must be at most 17 for p = 2, got 25"), "{}", err.message);
    }

    /// Found by the fuzzer: a binomial chain (p = 1, h = 6) whose
    /// communication is 1e23 times cheaper than its start-ups. Its LP's
    /// terms in C (6.5e-23 beside start times of 1) took microlp 2,080
    /// iterations and 4.7 s at C = 1e-26, and at C = 1e-30 18 s and a
    /// failure; without them it takes a few hundred. As C goes to 0 the
    /// makespan is C = 0's.
    #[test]
    fn communication_a_vanishing_share_of_the_cost_is_solved_as_free() {
        let at = |c: f64| binomial(&BinomialParams { p: 1.0, h: 6.0, load: Load::new(1e-3, c, 1e-3, 3.1e6), stages: Stages::new(Some(1e4), None, None), order: Order::Llf }).unwrap();
        let free = at(0.0).schedule.makespan;
        for c in [1e-26, 1e-30] {
            let out = at(c);
            assert!((out.schedule.makespan - free).abs() <= 1e-12 * free, "C = {c}: {} against {free}", out.schedule.makespan);
            assert!(out.lp.iterations < 1000, "C = {c}: {:?}", out.lp);
        }
    }
}
