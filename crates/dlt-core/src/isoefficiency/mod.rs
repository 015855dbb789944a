//! 003, Drozdowski, Singh, Marszałkowski: isoefficiency maps of divisible
//! computations on machines with two memory levels. The schedule of one
//! point is MIP (2)-(11): n chunks sent one after another over one channel
//! to m identical machines that start up in S, receive a chunk only once the
//! previous one is computed, and compute alpha in tau(alpha) =
//! max{a1 alpha, a2 alpha + b2}.
//!
//! The MIP is solved by search over send sequences, each one an LP
//! (`sequence`), rather than by branch and bound over big-M rows.

pub mod map;
pub mod mip;
mod search;
pub mod sequence;

use crate::error::{Error, Result};
use crate::schedule::{Cost, Row, Schedule};
use crate::validate;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use search::Search;
use serde::{Deserialize, Serialize};

pub const MAX_M: usize = 64;
pub const MAX_N: usize = 100;
pub const DEFAULT_TIME_LIMIT_MS: f64 = 1000.0;
pub const MAX_TIME_LIMIT_MS: f64 = 600_000.0;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub m: f64,
    pub n: f64,
    #[serde(rename = "V")]
    pub v: f64,
    /// Machine start-up time.
    #[serde(rename = "S")]
    pub s: f64,
    /// Fixed delay of a message.
    #[serde(rename = "O")]
    pub o: f64,
    #[serde(rename = "C")]
    pub c: f64,
    pub a1: f64,
    pub a2: f64,
    pub b2: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit_ms: Option<f64>,
}

/// A validated instance.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    pub m: usize,
    pub n: usize,
    pub v: f64,
    pub s: f64,
    pub o: f64,
    pub c: f64,
    pub a1: f64,
    pub a2: f64,
    pub b2: f64,
}

impl Instance {
    /// tau(alpha) of (1).
    pub fn tau(&self, alpha: f64) -> f64 {
        (self.a1 * alpha).max(self.a2 * alpha + self.b2)
    }

    /// rho: the core memory, where the two pieces of tau meet.
    pub fn rho(&self) -> f64 {
        self.b2 / (self.a1 - self.a2)
    }

    /// T(1, 1, V): one machine, one chunk.
    pub fn single(&self) -> f64 {
        self.s + self.o + self.c * self.v + self.tau(self.v)
    }

    pub fn load_unit(&self) -> f64 {
        self.v / self.n as f64
    }

    /// About the makespan of dealing n equal chunks round robin.
    pub fn time_unit(&self) -> f64 {
        let x = self.v / self.n as f64;
        self.s + (self.n as f64 / self.m as f64).max(1.0) * (self.o + self.c * x + self.tau(x))
    }

    /// A lower bound on T: the channel carries every chunk after S, and the
    /// machines' busy time (receiving and computing, work at least n
    /// tau(V/n) since tau is superadditive) is spread over m at best.
    pub fn lower_bound(&self) -> f64 {
        let (n, m) = (self.n as f64, self.m as f64);
        let channel = self.s + n * self.o + self.c * self.v;
        let area = self.s + (n * self.o + self.c * self.v + n * self.tau(self.v / n)) / m;
        channel.max(area)
    }
}

pub fn instance(p: &Params) -> Result<Instance> {
    let a1 = validate::positive("a1", p.a1)?;
    let a2 = validate::positive("a2", p.a2)?;
    if a2 <= a1 {
        return Err(Error::range("a2", format!("a2 must exceed a1 = {a1} (out-of-core is slower), got {a2}")));
    }
    let b2 = validate::real("b2", p.b2)?;
    if b2 >= 0.0 {
        return Err(Error::range("b2", format!("b2 must be < 0 so that the core memory rho = b2/(a1 - a2) is positive, got {b2}")));
    }
    Ok(Instance {
        m: validate::integer("m", p.m, 1, MAX_M)?,
        n: validate::integer("n", p.n, 1, MAX_N)?,
        v: validate::positive("V", p.v)?,
        s: validate::nonneg("S", p.s)?,
        o: validate::nonneg("O", p.o)?,
        c: validate::nonneg("C", p.c)?,
        a1,
        a2,
        b2,
    })
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Output {
    /// E = T(1,1,V) / (m T).
    pub efficiency: f64,
    /// T(1,1,V).
    pub single: f64,
    /// The machine (1-based) of each chunk.
    pub sequence: Vec<u8>,
    /// Each chunk's size alpha_j, in send order.
    pub loads: Vec<f64>,
    pub machines_used: usize,
    /// A lower bound on the optimum T, and (T - bound) / T.
    pub best_bound: f64,
    pub gap: f64,
    /// Whether T is proven optimal (every sequence was solved).
    pub proven: bool,
    /// Send sequences solved as LPs, and their simplex iterations.
    pub sequences: usize,
    pub iterations: u64,
    pub warnings: Vec<String>,
    #[serde(flatten)]
    pub schedule: Schedule,
}

/// The best schedule found within the time limit.
pub fn solve(p: &Params) -> Result<Output> {
    let inst = instance(p)?;
    let limit = validate::within("time_limit_ms", p.time_limit_ms.unwrap_or(DEFAULT_TIME_LIMIT_MS), 1.0, MAX_TIME_LIMIT_MS)?;
    best(&inst, limit)
}

/// MIP (2)-(11) of a request, for export, with its units.
pub fn mip_lp(p: &Params) -> Result<(crate::lp::Model, String)> {
    let inst = instance(p)?;
    Ok((mip::model(&inst).0, crate::lp::units(inst.load_unit(), inst.time_unit())))
}

/// The instant `ms` milliseconds from now.
fn deadline(ms: f64) -> web_time::Instant {
    web_time::Instant::now() + core::time::Duration::from_secs_f64(ms / 1000.0)
}

pub fn best(inst: &Instance, limit_ms: f64) -> Result<Output> {
    let mut search = Search::new(inst, deadline(limit_ms));
    let mut proven = false;
    if Search::count(inst.n, inst.m) <= search::EXHAUSTIVE_MAX {
        proven = search.exhaustive()?;
    }
    if !proven {
        search.round_robins()?;
        search.improve()?;
    }
    let (seq, timed) = search.best.clone().ok_or_else(|| Error::new(crate::Code::Limit, "time_limit_ms", "no sequence was solved within the time limit"))?;
    let bound = if proven { timed.makespan } else { inst.lower_bound().min(timed.makespan) };
    let mut warnings = Vec::new();
    if !proven {
        warnings.push(format!("not proven optimal: {} send sequences solved in {limit_ms} ms", search.evaluated()));
    }
    let schedule = schedule(inst, &seq, &timed)?;
    Ok(Output {
        efficiency: inst.single() / (inst.m as f64 * timed.makespan),
        single: inst.single(),
        machines_used: seq.iter().copied().max().map_or(0, |x| x as usize + 1),
        sequence: seq.iter().map(|&x| x + 1).collect(),
        loads: timed.alpha.clone(),
        best_bound: bound,
        gap: (timed.makespan - bound) / timed.makespan,
        proven,
        sequences: search.evaluated(),
        iterations: search.iterations,
        warnings,
        schedule,
    })
}

/// The schedule of a sequence at the LP's times: chunk j on the channel
/// from t_j, then computed on its machine. The machines' start-up S is not
/// drawn; the LP starts no message before it.
fn schedule(inst: &Instance, seq: &[u8], timed: &sequence::Timed) -> Result<Schedule> {
    let used = seq.iter().copied().max().map_or(0, |x| x as usize + 1);
    let mut rows = vec![Row::originator(inst.v)];
    for i in 0..used {
        let mut row = Row::linear(format!("M{}", i + 1), 1.0, inst.o, inst.c, inst.a1);
        row.compute = Cost::Pieces { pieces: vec![(0.0, inst.a1), (inst.b2, inst.a2)] };
        row.receives_while_computing = false;
        rows.push(row);
    }
    let mut s = Schedule::new(rows, inst.v);
    for (j, &i) in seq.iter().enumerate() {
        let (t, x) = (timed.t[j].max(0.0), timed.alpha[j]);
        let arrived = t + inst.o + inst.c * x;
        s.comm(0, i as usize + 1, (t, arrived), x, 1.0);
        if x > 0.0 {
            s.compute(i as usize + 1, (arrived, arrived + inst.tau(x)), x);
        }
    }
    s.makespan = timed.makespan;
    crate::checked(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lp::{self, Limits};

    fn instance(m: usize, n: usize, v: f64) -> Instance {
        // 003's reference machine.
        Instance { m, n, v, s: 25.4, o: 0.075, c: 0.005, a1: 0.109, a2: 4.132, b2: -27109.0 }
    }

    /// Every one of the m^n sequences, labels not merged, solved as an LP.
    fn brute_force(inst: &Instance) -> f64 {
        let (m, n) = (inst.m, inst.n);
        let mut best = f64::INFINITY;
        for code in 0..m.pow(n as u32) {
            let seq: Vec<u8> = (0..n).map(|j| ((code / m.pow(j as u32)) % m) as u8).collect();
            best = best.min(sequence::solve(inst, &seq).unwrap().makespan);
        }
        best
    }

    #[test]
    fn search_equals_enumeration_and_the_printed_mip() {
        let rho = instance(1, 1, 1.0).rho();
        for (m, n, v) in [(1, 3, 2.5 * rho), (2, 3, 0.5 * rho), (2, 4, 3.0 * rho), (3, 4, 5.0 * rho), (3, 5, 2.0 * rho), (2, 6, 7.0 * rho), (3, 6, 9.0 * rho)] {
            let inst = instance(m, n, v);
            let out = best(&inst, 60_000.0).unwrap();
            assert!(out.proven, "m={m} n={n}");
            let brute = brute_force(&inst);
            assert!((out.schedule.makespan - brute).abs() <= 1e-9 * brute, "m={m} n={n}: {} vs {brute}", out.schedule.makespan);
            if n <= 4 {
                let (mip, big_t) = mip::model(&inst);
                let sol = lp::solve(&lp::Microlp, &mip, Limits { time_ms: 60_000 }, "MIP (2)-(11)").unwrap();
                let printed = sol.get(big_t) * inst.time_unit();
                assert!((out.schedule.makespan - printed).abs() <= 1e-6 * printed, "m={m} n={n}: search {} vs MIP {printed}", out.schedule.makespan);
            }
            assert!(out.best_bound <= out.schedule.makespan && inst.lower_bound() <= out.schedule.makespan * (1.0 + 1e-9));
        }
    }

    #[test]
    fn canonical_forms_merge_relabelled_sequences() {
        assert_eq!(sequence::canonical(&[2, 0, 2, 1]), vec![0, 1, 0, 2]);
        assert_eq!(search::Search::count(4, 2), 8);
        assert_eq!(search::Search::count(20, 20), 51_724_158_235_372);
    }
}
