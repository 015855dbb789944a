//! A request answered: the best sequence of the order asked for, a lower
//! bound and the gap, the other orders for comparison, and the schedule.

use super::program::served_by_lp;
use super::recurrence::{self, Served};
use super::search::{self, improve, Scope, Search};
use super::{validate, HeteroParams, Instance, ServiceOrder};
use crate::check::Checked;
use crate::error::Result;
use crate::model::Plan;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::Serialize;

/// An answer within this relative gap of its lower bound is proven.
pub const PROVEN_GAP: f64 = 1e-9;
/// Up to this many workers, a request for one fixed order also compares
/// the best order.
const COMPARED_BEST_UP_TO: usize = 8;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct HeteroOutput {
    /// alpha_i of each worker, in the request's order; 0 for one unused.
    pub loads: Vec<f64>,
    /// The workers served (1-based), in order.
    pub sequence: Vec<usize>,
    pub lower_bound: f64,
    /// (makespan - lower_bound) / makespan.
    pub gap: f64,
    pub proven: bool,
    /// given, by_C, by_A and (for order best, or at most 8 workers) best.
    pub orders: Vec<Compared>,
    pub work: Work,
    pub warnings: Vec<String>,
    #[serde(flatten)]
    pub schedule: Checked,
}

/// One order's best sequence, for comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Compared {
    pub order: String,
    pub makespan: f64,
    pub sequence: Vec<usize>,
}

/// Work done: search nodes and sequences evaluated (each O(m)), LPs solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Work {
    pub nodes: u64,
    pub lps: u64,
}

/// With result return, scopes of at most this many sequences are solved
/// exactly: the LP of every sequence (m <= 6 in any order, m <= 10 in a
/// fixed one).
const EVERY_SEQUENCE_UP_TO: usize = 2_000;

/// LPs a return request's local search may solve in one order's scope,
/// fewer as they grow (an LP of m workers has 3m + 1 variables).
pub(crate) fn lp_budget(m: usize) -> u64 {
    (4000 / m.max(1)).clamp(4, 400) as u64
}

/// The pools of the orders: the request's, by C, by A (ties by index).
fn pool_of(inst: &Instance, name: &str) -> Vec<usize> {
    let mut order: Vec<usize> = (0..inst.workers.len()).collect();
    match name {
        "by_C" => order = recurrence::by_c(inst.workers),
        "by_A" => crate::sort::sort_by(&mut order, |&i, &j| inst.workers[i].a.total_cmp(&inst.workers[j].a)),
        _ => {}
    }
    order
}

const fn name(order: ServiceOrder) -> &'static str {
    match order {
        ServiceOrder::Given => "given",
        ServiceOrder::ByC => "by_C",
        ServiceOrder::Best => "best",
    }
}

/// The best sequence of one scope, and a lower bound of its optimum.
struct Best {
    served: Served,
    lower_bound: f64,
}

struct Solver<'a> {
    inst: &'a Instance<'a>,
    search: Search<'a>,
    lps: u64,
}

impl<'a> Solver<'a> {
    fn new(inst: &'a Instance<'a>) -> Self {
        Solver { inst, search: Search::new(inst.workers, inst.v, inst.budget), lps: 0 }
    }

    /// The scope of order `name`: its pool, fixed, or any order for best
    /// (its children tried by C), seeded by the heuristic orders.
    fn best(&mut self, name: &str) -> Result<Best> {
        let free = name == "best";
        let pool = pool_of(self.inst, if free { "by_C" } else { name });
        let scope = Scope { pool: &pool, free };
        let mut seeds = alloc::vec![pool.clone()];
        if free {
            let share = self.inst.v / self.inst.workers.len() as f64;
            let mut by_share = pool.clone();
            crate::sort::sort_by(&mut by_share, |&i, &j| {
                let cost = |k: usize| self.inst.workers[k].s + self.inst.workers[k].c * share;
                cost(i).total_cmp(&cost(j))
            });
            seeds.extend([pool_of(self.inst, "given"), pool_of(self.inst, "by_A"), by_share]);
        }
        let relaxed = recurrence::lower_bound(&pool.iter().map(|&i| self.inst.workers[i]).collect::<Vec<_>>(), self.inst.v);
        let outcome = self.search.run(scope, &seeds, relaxed);
        let bound = outcome.bound;
        let Some(r) = self.inst.result_return else {
            return Ok(Best { served: outcome.best, lower_bound: bound });
        };
        // With results the send and compute part is a schedule without
        // them, and the last worker to finish still returns (>= min S); all
        // load crosses the one port out and back (>= 2 min S + (1 + r) min C V).
        let least = |f: fn(&super::Worker) -> f64| pool.iter().map(|&i| f(&self.inst.workers[i])).fold(f64::INFINITY, f64::min);
        let (s, c) = (least(|w| w.s), least(|w| w.c));
        let lower_bound = (bound + s).max(2.0 * s + (1.0 + r.ratio) * c * self.inst.v);
        // The LPs start from the sequences without return, each already
        // rid of the workers not worth their start-up: the search's best
        // and the scope's order repaired (LPs of all m workers would cost
        // seconds at m = 1000).
        let seeds = alloc::vec![outcome.best.sequence, recurrence::served(self.inst.workers, &pool, self.inst.v).sequence];
        // The optimum over the scope is the best of its sequences' LPs: a
        // worker an LP leaves at load 0 pays its start-ups there, but the
        // sequence without it is listed too.
        let every = search::every_sequence(scope, EVERY_SEQUENCE_UP_TO);
        let exhaustive = every.is_some();
        let mut start: Option<Served> = None;
        for seed in every.as_ref().unwrap_or(&seeds) {
            let x = served_by_lp(self.inst, seed, &mut self.lps)?;
            if start.as_ref().is_none_or(|b| x.makespan < b.makespan) {
                start = Some(x);
            }
        }
        let start = start.expect("a seed");
        if exhaustive {
            return Ok(Best { lower_bound: start.makespan, served: start });
        }
        let (limit, inst) = (self.lps + lp_budget(self.inst.workers.len()), self.inst);
        let (lps, mut failed) = (&mut self.lps, None);
        let places = search::places(inst.workers.len(), scope);
        let eval = |s: &[usize]| {
            if *lps >= limit || failed.is_some() {
                return None;
            }
            served_by_lp(inst, s, lps).map_err(|e| failed = Some(e)).ok().map(|x| (x.makespan, x))
        };
        let served = improve((start.makespan, start), scope, &places, eval, |x| &x.sequence).1;
        match failed {
            Some(e) => Err(e),
            None => Ok(Best { served, lower_bound }),
        }
    }
}

/// The order `dlt export` writes the MIP of: the request's order, by C,
/// or for best the best sequence found followed by the workers it leaves
/// unused.
pub(crate) fn export_order(params: &HeteroParams, inst: &Instance) -> Result<Vec<usize>> {
    let name = name(params.order);
    if params.order != ServiceOrder::Best {
        return Ok(pool_of(inst, name));
    }
    let mut order = Solver::new(inst).best(name)?.served.sequence;
    let unused: Vec<usize> = (0..inst.workers.len()).filter(|i| !order.contains(i)).collect();
    order.extend(unused);
    Ok(order)
}

pub fn hetero_star(params: &HeteroParams) -> Result<HeteroOutput> {
    let inst = validate(params)?;
    let m = inst.workers.len();
    let mut solver = Solver::new(&inst);
    let asked = name(params.order);
    let mut best = solver.best(asked)?;
    let mut orders = Vec::new();
    for other in ["given", "by_C", "by_A", "best"] {
        let wanted = other != "best" || params.order == ServiceOrder::Best || m <= COMPARED_BEST_UP_TO;
        let served = match other {
            _ if other == asked => best.served.clone(),
            _ if wanted => solver.best(other)?.served,
            _ => continue,
        };
        // Another order's sequence is one the best order may serve: where
        // a heuristic search found it and the best's did not, it is taken.
        if params.order == ServiceOrder::Best && served.makespan < best.served.makespan {
            best.served = served.clone();
        }
        orders.push(Compared { order: other.to_string(), makespan: served.makespan, sequence: served.sequence.iter().map(|i| i + 1).collect() });
    }
    if let Some(row) = orders.iter_mut().find(|o| o.order == asked) {
        row.makespan = best.served.makespan;
        row.sequence = best.served.sequence.iter().map(|i| i + 1).collect();
    }
    let Best { served, lower_bound } = best;
    let schedule = super::gantt::schedule(&inst, &served.sequence, &served.loads)?;
    let makespan = schedule.makespan;
    // A bound can exceed the makespan by round-off only (a proof's bound
    // is the closed form's, the schedule's makespan its simulation).
    let lower_bound = lower_bound.min(makespan);
    let gap = ((makespan - lower_bound) / makespan).max(0.0);
    let proven = gap <= PROVEN_GAP;
    let mut warnings = Vec::new();
    if served.sequence.len() < m {
        warnings.push(format!("{} of {m} workers get no load: their start-ups would cost more than they save", m - served.sequence.len()));
    }
    if !proven {
        let how = match inst.result_return {
            Some(_) => format!("with result return the sequence is found by LPs and a local search ({} LPs)", solver.lps),
            None => format!("the search's budget of {} nodes ran out before a proof", inst.budget),
        };
        warnings.push(format!("not proven optimal: {how}; the makespan is within {:.3e} of the lower bound", gap));
    }
    let mut loads = alloc::vec![0.0; m];
    served.sequence.iter().zip(&served.loads).for_each(|(&i, &x)| loads[i] = x);
    Ok(HeteroOutput {
        loads,
        sequence: served.sequence.iter().map(|i| i + 1).collect(),
        lower_bound,
        gap,
        proven,
        orders,
        work: Work { nodes: solver.search.nodes, lps: solver.lps },
        warnings,
        schedule,
    })
}

/// The method in words and its budgets, without solving.
pub(crate) fn plan(params: &HeteroParams) -> Result<Plan> {
    let inst = validate(params)?;
    let m = inst.workers.len();
    let scope = match params.order {
        ServiceOrder::Best => "any order and subset",
        _ => "subsequences of one order",
    };
    let method = match inst.result_return {
        None => format!("closed form of each sequence; heuristics, local search and branch and bound over {scope} within {} nodes", inst.budget),
        Some(_) => format!("fixed-order LP of each sequence; heuristics and local search over {scope} within {} LPs, bounded by the search without return", lp_budget(m)),
    };
    let lp_budget = inst.result_return.map(|_| lp_budget(m));
    Ok(Plan { messages: Some(m), method: Some(method), lp_budget, ..Plan::default() })
}
