//! The torus with any of Sec. 5's options on: chain.rs's equations for
//! every number of phases, the best of them as a schedule of one row per
//! class, checked.

use super::chain::{self, Class, Setup, Solution, Timing};
use super::options::Options;
use super::{activation, wavefront, Input, Layer, Map, Output, PhaseOption};
use crate::error::{Error, Result};
use crate::schedule::{Cost, Row, Schedule};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;

/// What rounding the loads to the granularity did (Sec. 5).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Rounding {
    pub granularity: f64,
    /// The makespan of the divisible load: a lower bound.
    pub divisible_makespan: f64,
    /// The schedule's makespan minus the divisible one.
    pub deviation: f64,
    /// Sec. 5's bound on the deviation, 2k tau + 1/sigma: C g per link of
    /// each message of the chain (N messages under 4 ports and circuits)
    /// plus A g / speed.
    pub bound: f64,
}

/// The loads and times of the classes `cls` (those of some number of
/// phases, a prefix of all of them), if feasible.
fn phase(cls: &[Class], st: &Setup) -> Option<(Solution, Timing)> {
    let sol = chain::solve(cls, st)?;
    let t = chain::timing(cls, st, &sol.x, &sol.msg);
    Some((sol, t))
}

/// The number of phases asked for, if feasible, or the best one. Lemma 1
/// (more layers never lengthen the schedule) is proven for system (1);
/// with results returned, fewer ports or slower deep layers it need not
/// hold, so the least makespan is taken, the most phases among equal ones.
pub(super) fn chosen_phases(by_phases: &[PhaseOption], phases: Option<usize>) -> Result<usize> {
    let best = by_phases.iter().filter_map(|o| o.makespan).fold(f64::INFINITY, f64::min);
    let chosen = by_phases.iter().rev().find(|o| o.makespan.is_some_and(|t| t <= best * (1.0 + 1e-12))).map_or(0, |o| o.phases);
    match phases {
        Some(n) if by_phases[n].makespan.is_none() => Err(Error::infeasible("phases", format!(
            "with {n} phases some processor would get a negative load; the best feasible number is {chosen}"))),
        Some(n) => Ok(n),
        None => Ok(chosen),
    }
}

pub fn solve(inp: &Input, o: &Options) -> Result<Output> {
    let Input { k, s, c, v, phases, .. } = *inp;
    let st = Setup::new(o, s, c, v);
    let max_phases = o.max_phases(k);
    // n phases are the first classes of all: built once, not once per n
    // (the wave front's 624 phases at k = 4).
    let all = chain::classes(o, k, max_phases, inp.a);
    let of = |n: usize| &all[..o.classes(n)];
    let by_phases: Vec<PhaseOption> =
        (0..=max_phases).map(|n| PhaseOption { phases: n, makespan: phase(of(n), &st).map(|(_, t)| t.makespan) }).collect();
    let n = chosen_phases(&by_phases, phases)?;
    let cls = of(n);
    let (sol, divisible) = phase(cls, &st).ok_or_else(|| Error::internal("a feasible number of phases did not solve"))?;
    let mut warnings = Vec::new();
    if n < max_phases && phases.is_none() {
        warnings.push(format!("{n} of {max_phases} phases give the shortest schedule"));
    }
    let (x, msg, time, rounding) = match o.granularity {
        None => (sol.x.clone(), sol.msg.clone(), divisible, None),
        Some(g) => {
            let (x, msg) = chain::round(cls, &st, &sol.msg, g).map_err(|m| Error::infeasible("granularity", format!(
                "rounding the messages up to multiples of {g} leaves {} a negative load; a finer granularity or fewer phases would do",
                if m == 0 { String::from("the originator") } else { format!("layer {}", cls[m].layer) })))?;
            let time = chain::timing(cls, &st, &x, &msg);
            let report = Rounding {
                granularity: g,
                divisible_makespan: divisible.makespan,
                deviation: time.makespan - divisible.makespan,
                bound: chain::rounding_bound(cls, &st, g),
            };
            (x, msg, time, Some(report))
        }
    };
    let activation = if o.wavefront {
        (k <= wavefront::MAP_MAX_K).then_some(Map::Wavefront(k))
    } else {
        (k <= activation::MAX_K).then_some(Map::PetersSyska(k))
    };
    if activation.is_none() {
        warnings.push(String::from("the activation map is not drawn for this k"));
    }
    let layers: Vec<Layer> = cls
        .iter()
        .enumerate()
        .map(|(m, cl)| Layer {
            layer: cl.layer,
            slot: (o.slots() > 1 && m > 0).then_some(cl.slot),
            processors: cl.count,
            load: x[m],
            received: if m == 0 { v } else { msg[m] },
            activated: time.activated[m],
            layer_load: cl.count * x[m],
        })
        .collect();
    let schedule = schedule(cls, &st, o, &x, &msg, &time)?;
    let one = st.time(&cls[0], v);
    Ok(Output {
        k,
        phases: n,
        max_phases,
        speedup: one / time.makespan,
        loads: x,
        layers,
        by_phases,
        activation,
        warnings,
        granularity: rounding,
        iterations: (o.gamma != 1.0).then_some(sol.iterations),
        schedule,
    })
}

/// One row per class; the messages of (1'), the computing and the results.
fn schedule(cls: &[Class], st: &Setup, o: &Options, x: &[f64], msg: &[f64], time: &Timing) -> Result<crate::check::Checked> {
    let ports = if o.wavefront { 4.0 } else { o.ports as f64 };
    let rows = cls
        .iter()
        .enumerate()
        .map(|(m, cl)| {
            let label = if o.slots() > 1 && m > 0 { format!("layer {}, slot {}", cl.layer, cl.slot) } else { format!("layer {}", cl.layer) };
            let mut row = Row::linear(label, cl.count, cl.hops * st.s, cl.hops * st.c, cl.a);
            if st.gamma != 1.0 {
                row.compute = Cost::Power { theta: 0.0, a: cl.a, gamma: st.gamma };
            }
            row.send_ports = ports;
            if st.ret > 0.0 {
                row.recv_ports = ports;
            }
            if m == 0 {
                row.initial_load = st.v;
            }
            row
        })
        .collect();
    let mut s = Schedule::new(rows, st.v);
    for (m, cl) in cls.iter().enumerate() {
        let t = time.activated[m];
        s.compute(m, (t, t + st.time(cl, x[m])), x[m]);
        if m == 0 {
            continue;
        }
        // Peters-Syska: every node active before the phase sends `ports`
        // messages in the class's slot; the wave front: the layer before.
        let senders: Vec<(usize, f64)> = if o.wavefront {
            alloc::vec![(m - 1, cl.count)]
        } else {
            (0..m).filter(|&r| cls[r].layer < cl.layer).map(|r| (r, ports * cls[r].count)).collect()
        };
        for &(r, messages) in &senders {
            s.comm(r, m, (time.activated[m - 1], t), msg[m], messages);
            if st.ret > 0.0 {
                s.result(m, r, time.computed[m], msg[m], st.ret * msg[m], messages);
            }
        }
    }
    s.makespan = time.makespan;
    crate::checked(s)
}
