//! The schedule of a sequence and its loads: the originator sends back to
//! back in the order served, each worker computes from the end of its
//! message and, with result return, the results come back over the
//! originator's one port (half duplex) in the policy's order, each as soon
//! as the port is free and the worker has computed.

use super::{Instance, Policy, Worker};
use crate::check::Checked;
use crate::error::Result;
use crate::schedule::{Row, Schedule};
use alloc::format;
use alloc::vec::Vec;

/// The makespan of loads served in order without result return: the last
/// of sum_(j <= k) (S_j + C_j alpha_j) + A_k alpha_k.
pub(crate) fn finishing(workers: &[Worker], sequence: &[usize], loads: &[f64]) -> f64 {
    let mut sent = 0.0;
    sequence.iter().zip(loads).map(|(&i, &x)| {
        let w = workers[i];
        sent += w.s + w.c * x;
        sent + w.a * x
    }).fold(0.0, f64::max)
}

/// The schedule, every worker a row in the request's order (P1..Pm, an
/// unused one idle), unchecked: the search times sequences with it.
pub(crate) fn timeline(inst: &Instance, sequence: &[usize], loads: &[f64]) -> Schedule {
    let mut rows = alloc::vec![Row { half_duplex: inst.result_return.is_some(), ..Row::originator(inst.v) }];
    rows.extend(inst.workers.iter().enumerate().map(|(i, w)| Row::linear(format!("P{}", i + 1), 1.0, w.s, w.c, w.a)));
    let mut schedule = Schedule::new(rows, inst.v);
    let mut port = 0.0;
    let done: Vec<f64> = sequence.iter().zip(loads).map(|(&i, &x)| {
        port = schedule.send(0, i + 1, port, x, 1.0);
        schedule.run(i + 1, port, x)
    }).collect();
    let mut end = done.iter().copied().fold(0.0, f64::max);
    if let Some(r) = inst.result_return {
        let mut order: Vec<usize> = (0..sequence.len()).collect();
        if r.policy == Policy::Lifo {
            order.reverse();
        }
        for k in order {
            let start = port.max(done[k]);
            port = schedule.result(sequence[k] + 1, 0, start, loads[k], r.ratio * loads[k], 1.0).end;
        }
        end = end.max(port);
    }
    schedule.makespan = end;
    schedule
}

/// The schedule, through the checker.
pub(crate) fn schedule(inst: &Instance, sequence: &[usize], loads: &[f64]) -> Result<Checked> {
    crate::checked(timeline(inst, sequence, loads))
}
