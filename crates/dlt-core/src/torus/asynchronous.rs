//! 1- and 2-port scattering in Sec. 5's "asynchronous manner": no phase
//! barriers, every node sends its phases one after the other as soon as it
//! is activated, `ports` messages at a time, each receiver's computing
//! ending with its transmitter's.
//!
//! A node's activation then depends on its whole history (which slot of
//! which phase of which transmitter reached it), so the receivers of a
//! transmitter's slot are alike but no two slots are: a row per slot of
//! every transmitter, 5^(2k) processors in (5^(2k) - 1)/ports + 1 rows at
//! most (the paper's "number of equations grows four times in each
//! phase"). Hence k <= 2 here; chain.rs's synchronous slots cover every k.
//!
//! Exact solution: a node activated in phase p with R left to the makespan
//! computes R / A_p and sends phases p+1..N; what it absorbs, G_p(R), is
//! affine in R. Its receiver in a slot of phase q, with u already spent on
//! earlier slots, gets W = G_q(R - u - d) where d = h_q (S + C W), so
//!   W = (g_q (R - u - h_q S) + c_q) / (1 + g_q h_q C)
//! (G_q = g_q R + c_q), still affine in R; G_p is the sum of its own load
//! and `ports` such W per slot, computed from p = N up. G_0(T) = V gives
//! the makespan T, and the nodes are then laid out from the originator.

use super::chain::Setup;
use super::options::Options;
use super::{Input, Layer, Map, Output, PhaseOption};
use crate::error::{Error, Result};
use crate::schedule::{Row, Schedule};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Largest k: 625 processors, at most 625 rows.
pub const MAX_K: usize = 2;

/// g R + c.
#[derive(Debug, Clone, Copy)]
struct Affine {
    g: f64,
    c: f64,
}

/// One row: `count` alike receivers of one slot of one transmitter row.
#[derive(Debug, Clone)]
struct Group {
    layer: usize,
    slot: usize,
    count: f64,
    parent: usize,
    path: String,
    /// When the group's message starts and ends.
    sent: f64,
    activated: f64,
    load: f64,
    message: f64,
}

/// G_p for p = 0..=n.
fn absorb(o: &Options, st: &Setup, k: usize, n: usize, a: f64) -> Vec<Affine> {
    let mut big = alloc::vec![Affine { g: 0.0, c: 0.0 }; n + 1];
    for p in (0..=n).rev() {
        let mut total = Affine { g: o.speed(p) / a, c: 0.0 };
        let mut u = Affine { g: 0.0, c: 0.0 };
        for (q, &gq) in big.iter().enumerate().skip(p + 1) {
            let h = o.hops(k, q);
            for _ in 0..o.slots() {
                let den = 1.0 + gq.g * h * st.c;
                let w = Affine { g: gq.g * (1.0 - u.g) / den, c: (gq.c - gq.g * (u.c + h * st.s)) / den };
                u = Affine { g: u.g + h * st.c * w.g, c: u.c + h * (st.s + st.c * w.c) };
                total = Affine { g: total.g + st.ports * w.g, c: total.c + st.ports * w.c };
            }
        }
        big[p] = total;
    }
    big
}

/// The makespan and the groups of `n` phases, or `None` if some node
/// would get no positive load.
fn layout(o: &Options, st: &Setup, k: usize, n: usize, a: f64) -> Option<(f64, Vec<Group>)> {
    let big = absorb(o, st, k, n, a);
    let t_end = (st.v - big[0].c) / big[0].g;
    let root = Group { layer: 0, slot: 1, count: 1.0, parent: 0, path: String::new(), sent: 0.0, activated: 0.0, load: t_end * o.speed(0) / a, message: st.v };
    let mut groups = alloc::vec![root];
    let mut next = 0;
    while next < groups.len() {
        let (p, t0, count, path) = (groups[next].layer, groups[next].activated, groups[next].count, groups[next].path.clone());
        let mut clock = t0;
        for (q, &gq) in big.iter().enumerate().skip(p + 1) {
            let h = o.hops(k, q);
            for slot in 1..=o.slots() {
                let r = t_end - clock;
                let w = (gq.g * (r - h * st.s) + gq.c) / (1.0 + gq.g * h * st.c);
                let end = clock + h * (st.s + st.c * w);
                let load = (t_end - end) * o.speed(q) / a;
                let path = if path.is_empty() { format!("{q}.{slot}") } else { format!("{path}/{q}.{slot}") };
                groups.push(Group { layer: q, slot, count: count * st.ports, parent: next, path, sent: clock, activated: end, load, message: w });
                clock = end;
            }
        }
        next += 1;
    }
    // Each load what its message leaves after its receivers' messages: the
    // flow balances exactly, where (T - t) s / A could differ from it by a
    // round-off beyond a tiny last load.
    let mut forwarded = alloc::vec![0.0; groups.len()];
    for g in groups.iter().skip(1) {
        forwarded[g.parent] += st.ports * g.message;
    }
    for (g, f) in groups.iter_mut().zip(forwarded) {
        g.load = g.message - f;
    }
    let ok = t_end.is_finite() && groups.iter().all(|g| g.load > 0.0 && g.load.is_finite() && g.message > 0.0);
    ok.then_some((t_end, groups))
}

pub fn solve(inp: &Input, o: &Options) -> Result<Output> {
    let Input { k, s, c, a, v, phases } = *inp;
    let st = Setup::new(o, s, c, v);
    let max_phases = 2 * k;
    let by_phases: Vec<PhaseOption> =
        (0..=max_phases).map(|n| PhaseOption { phases: n, makespan: layout(o, &st, k, n, a).map(|(t, _)| t) }).collect();
    let n = super::extended::chosen_phases(&by_phases, phases)?;
    let (t_end, groups) = layout(o, &st, k, n, a).ok_or_else(|| Error::internal("a feasible number of phases did not solve"))?;
    let mut warnings = Vec::new();
    if n < max_phases && phases.is_none() {
        warnings.push(format!("{n} of {max_phases} phases give the shortest schedule"));
    }
    let rows = groups
        .iter()
        .map(|g| {
            let label = if g.layer == 0 { String::from("layer 0") } else { format!("layer {} ({})", g.layer, g.path) };
            let h = if g.layer == 0 { 1.0 } else { o.hops(k, g.layer) };
            let mut row = Row::linear(label, g.count, h * s, h * c, a / o.speed(g.layer));
            row.send_ports = st.ports;
            if g.layer == 0 {
                row.initial_load = v;
            }
            row
        })
        .collect();
    let mut schedule = Schedule::new(rows, v);
    for (m, g) in groups.iter().enumerate() {
        schedule.compute(m, (g.activated, g.activated + a / o.speed(g.layer) * g.load), g.load);
        if m > 0 {
            schedule.comm(g.parent, m, (g.sent, g.activated), g.message, g.count);
        }
    }
    schedule.makespan = groups.iter().map(|g| g.activated + a / o.speed(g.layer) * g.load).fold(t_end, f64::max);
    let schedule = crate::checked(schedule)?;
    let layers: Vec<Layer> = groups
        .iter()
        .map(|g| Layer {
            layer: g.layer,
            slot: (g.layer > 0).then_some(g.slot),
            processors: g.count,
            load: g.load,
            received: g.message,
            activated: g.activated,
            layer_load: g.count * g.load,
        })
        .collect();
    Ok(Output {
        k,
        phases: n,
        max_phases,
        speedup: a / o.speed(0) * v / schedule.makespan,
        loads: layers.iter().map(|l| l.load).collect(),
        layers,
        by_phases,
        activation: Some(Map::PetersSyska(k)),
        warnings,
        granularity: None,
        iterations: None,
        schedule,
    })
}
