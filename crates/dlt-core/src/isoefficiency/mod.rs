//! 003, Drozdowski, Singh, Marszałkowski: isoefficiency maps of divisible
//! computations on machines with two memory levels. The schedule of one
//! point is MIP (2)-(11): n chunks sent one after another over one channel
//! to m identical machines that start up in S, receive a chunk only once the
//! previous one is computed, and compute alpha in tau(alpha) =
//! max{a1 alpha, a2 alpha + b2}.
//!
//! The MIP is solved by search over send sequences, each one an LP
//! (`sequence`), rather than by branch and bound over big-M rows.

mod explain;
pub mod map;
pub mod mip;
pub mod proof;
mod search;
pub mod sequence;

use crate::check::Checked;
use crate::error::{Error, Result};
use crate::model::{define_model, Model, Plan, Progress};
use crate::schedule::{Cost, Row, Schedule};
use crate::validate::Field;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use search::Search;
use serde::{Deserialize, Serialize};

pub const MAX_M: usize = 64;
pub const MAX_N: usize = 100;
/// Send sequences (LPs) one search may solve: by default about a second
/// natively; the most, about an hour.
pub const DEFAULT_LP_BUDGET: usize = 1000;
pub const MAX_LP_BUDGET: usize = 5_000_000;
/// LPs the branch and bound may solve after the search (proof.rs): by
/// default the root's bound and a few nodes, a tenth of the search's
/// time, which already cuts the reference point's gap 13-fold.
pub const DEFAULT_PROOF_BUDGET: usize = 100;
pub const MAX_PROOF_BUDGET: usize = 50_000_000;

const M: Field = Field::integer("m", 1, MAX_M);
const N: Field = Field::integer("n", 1, MAX_N);
const V: Field = Field::positive("V");
const S: Field = Field::nonneg("S");
const O: Field = Field::nonneg("O");
const C: Field = Field::nonneg("C");
const A1: Field = Field::positive("a1");
/// Above a1 too: `instance` checks that.
const A2: Field = Field::positive("a2");
/// Below 0 too: `instance` checks that.
const B2: Field = Field::real("b2");
const LP_BUDGET: Field = Field::integer("lp_budget", 1, MAX_LP_BUDGET);
const PROOF_BUDGET: Field = Field::integer("proof_budget", 0, MAX_PROOF_BUDGET);
const FIELDS: &[Field] = &[M, N, V, S, O, C, A1, A2, B2, LP_BUDGET, PROOF_BUDGET];

/// The machines and the load's chunks, as a point and a map of 003 share
/// them (the paper's reference machine: S = 25.4, O = 0.075, C = 0.005,
/// a1 = 0.109, a2 = 4.132, b2 = -27109, n = 20).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Machines {
    /// Chunks the load is sent in.
    pub n: f64,
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
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[cfg_attr(feature = "ts", tsify(rename = "IsoefficiencyParams"))]
pub struct Params {
    pub m: f64,
    #[serde(rename = "V")]
    pub v: f64,
    #[serde(flatten)]
    pub machines: Machines,
    /// Most send sequences solved as LPs (default DEFAULT_LP_BUDGET).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub lp_budget: Option<f64>,
    /// Most LPs of the branch and bound that proves the search's best
    /// optimal or bounds it (default DEFAULT_PROOF_BUDGET).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub proof_budget: Option<f64>,
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

    /// The most LPs a search with `budget` solves: its round robins, one
    /// per machine count up to min(m, n), run whatever the budget.
    pub fn most_lps(&self, budget: usize) -> usize {
        budget.max(self.m.min(self.n))
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
    let q = &p.machines;
    let a1 = A1.check(q.a1)?;
    let a2 = A2.check(q.a2)?;
    if a2 <= a1 {
        return Err(Error::range("a2", format!("a2 must exceed a1 = {a1} (out-of-core is slower), got {a2}")));
    }
    let b2 = B2.check(q.b2)?;
    if b2 >= 0.0 {
        return Err(Error::range("b2", format!("b2 must be < 0 so that the core memory rho = b2/(a1 - a2) is positive, got {b2}")));
    }
    Ok(Instance {
        m: M.count(p.m)?,
        n: N.count(q.n)?,
        v: V.check(p.v)?,
        s: S.check(q.s)?,
        o: O.check(q.o)?,
        c: C.check(q.c)?,
        a1,
        a2,
        b2,
    })
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[cfg_attr(feature = "ts", tsify(rename = "IsoefficiencyOutput"))]
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
    /// LPs of the branch and bound (0 without one).
    pub proof_lps: u64,
    pub iterations: u64,
    pub warnings: Vec<String>,
    #[serde(flatten)]
    pub schedule: Checked,
}

/// How the search will go and the most LPs it may solve.
pub fn plan(p: &Params) -> Result<Plan> {
    let inst = instance(p)?;
    let budget = lp_budget(p.lp_budget)?;
    let all = Search::count(inst.n, inst.m);
    if all <= budget as u64 {
        let method = format!("every one of the {all} send sequences (a proof)");
        return Ok(Plan { lp_budget: Some(inst.most_lps(budget) as u64), method: Some(method), ..Plan::default() });
    }
    let proof = proof_budget(p.proof_budget)?;
    let method = format!("round robins and local search over {all} send sequences, then branch and bound within {proof} LPs");
    Ok(Plan { lp_budget: Some((inst.most_lps(budget) + proof) as u64), method: Some(method), ..Plan::default() })
}

/// The best schedule found within the LP budget.
pub fn solve(p: &Params) -> Result<Output> {
    let inst = instance(p)?;
    Ok(searched(&inst, lp_budget(p.lp_budget)?, proof_budget(p.proof_budget)?)?.0)
}

fn proof_budget(x: Option<f64>) -> Result<usize> {
    budget(PROOF_BUDGET, x, DEFAULT_PROOF_BUDGET)
}


/// A point's budget of LPs.
fn lp_budget(x: Option<f64>) -> Result<usize> {
    budget(LP_BUDGET, x, DEFAULT_LP_BUDGET)
}

/// A budget of LPs from an optional request field.
pub(crate) fn budget(field: Field, x: Option<f64>, default: usize) -> Result<usize> {
    x.map_or(Ok(default), |x| field.count(x))
}

/// MIP (2)-(11) of a request, for export, with its units.
pub fn mip_lp(p: &Params) -> Result<(crate::lp::Model, crate::lp::Units)> {
    let inst = instance(p)?;
    Ok((mip::model(&inst).0, crate::lp::units(inst.load_unit(), inst.time_unit())))
}

/// The best schedule within `budget` LPs: every sequence when they are
/// that few (a proof), else round robins and local search.
pub fn best(inst: &Instance, budget: usize) -> Result<Output> {
    searched(inst, budget, 0).map(|(out, _)| out)
}

/// [`best`] and the search that found it, which explain mode reads.
fn searched(inst: &Instance, budget: usize, proof_budget: usize) -> Result<(Output, Search<'_>)> {
    let mut search = Search::new(inst, budget);
    let mut proven = false;
    if Search::count(inst.n, inst.m) <= budget as u64 {
        proven = search.exhaustive()?;
    }
    if !proven {
        search.round_robins()?;
        search.improve()?;
    }
    let (mut seq, mut timed) = search.best.clone().ok_or_else(|| Error::internal("the search solved no send sequence"))?;
    let mut bound = if proven { timed.makespan } else { inst.lower_bound().min(timed.makespan) };
    let mut warnings = Vec::new();
    let mut proof_lps = 0;
    if !proven && proof_budget > 0 {
        let tree = proof::branch_and_bound(inst, (seq.clone(), timed.makespan), proof_budget as u64)?;
        if tree.incumbent.1 < timed.makespan {
            seq = tree.incumbent.0.clone();
            timed = sequence::solve(inst, &seq)?;
        }
        (proven, bound, proof_lps) = (tree.proven(), bound.max(tree.bound()).min(timed.makespan), tree.lps);
        if !proven {
            warnings.push(format!("not proven optimal: the branch and bound left {} nodes open after proof_budget = {proof_budget} LPs", tree.open.len()));
        }
    } else if !proven {
        warnings.push(format!("not proven optimal: {} of the {} send sequences solved (lp_budget {budget})", search.evaluated(), Search::count(inst.n, inst.m)));
    }
    let schedule = schedule(inst, &seq, &timed)?;
    let out = Output {
        efficiency: inst.single() / (inst.m as f64 * timed.makespan),
        single: inst.single(),
        machines_used: seq.iter().copied().max().map_or(0, |x| x as usize + 1),
        sequence: seq.iter().map(|&x| x + 1).collect(),
        loads: timed.alpha.clone(),
        best_bound: bound,
        gap: (timed.makespan - bound) / timed.makespan,
        proven,
        sequences: search.evaluated(),
        proof_lps,
        iterations: search.iterations,
        warnings,
        schedule,
    };
    Ok((out, search))
}

/// The schedule of a sequence at the LP's times: chunk j on the channel
/// from t_j, then computed on its machine. The machines' start-up S is not
/// drawn; the LP starts no message before it.
fn schedule(inst: &Instance, seq: &[u8], timed: &sequence::Timed) -> Result<Checked> {
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

define_model! {
    /// MIP (2)-(11) of 003 at one point (m, n, V).
    Isoefficiency: "isoefficiency", "003 MIP (2)-(11): the best schedule of n chunks on m machines with two memory levels, by search over send sequences", include_str!("../../../../examples/isoefficiency.json"),
    Params => Output = solve, fields = FIELDS, plan = plan, lp = mip_lp as "MIP (2)-(11) (003)" by |_| &mip::EQUATIONS, explain = explain::explain
}

/// The isoefficiency map of 003 Figs. 1-2: E_max, V_max and isolines per m.
pub struct IsoefficiencyMap;

impl Model for IsoefficiencyMap {
    const NAME: &'static str = "isoefficiency_map";
    const SUMMARY: &'static str = "003 Figs. 1-2: the isoefficiency map, E_max and V_max per m and the isolines I(e, m, n)";
    const EXAMPLE: &'static str = include_str!("../../../../examples/isoefficiency_map.json");
    type Params = map::MapParams;
    type Output = map::MapOutput;
    const FIELDS: &'static [Field] = map::FIELDS;
    fn solve(p: &map::MapParams, progress: &mut Progress) -> Result<map::MapOutput> {
        map::map(p, progress)
    }
    fn plan(p: &map::MapParams) -> Result<Plan> {
        map::plan(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::relative_eq;
    use crate::lp;

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
            let out = best(&inst, DEFAULT_LP_BUDGET).unwrap();
            assert!(out.proven, "m={m} n={n}");
            let brute = brute_force(&inst);
            assert!(relative_eq!(out.schedule.makespan, brute, max_relative = 1e-9), "m={m} n={n}: {} vs {brute}", out.schedule.makespan);
            if n <= 4 {
                let (mip, big_t) = mip::model(&inst);
                let sol = lp::solve(&lp::Microlp, &mip, "MIP (2)-(11)").unwrap();
                let printed = sol.get(big_t) * inst.time_unit();
                assert!(relative_eq!(out.schedule.makespan, printed, max_relative = 1e-6), "m={m} n={n}: search {} vs MIP {printed}", out.schedule.makespan);
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
