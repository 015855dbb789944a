//! The heterogeneous star with affine costs, the model every divisible load
//! course starts from (Bharadwaj, Ghose, Mani & Robertazzi 1996, ch. 3;
//! Beaumont, Marchal & Robert 2005 for result return): an originator P0
//! holding V sends, one message at a time, load alpha_i to worker P_i in
//! S_i + C_i alpha_i, which computes it in A_i alpha_i and, with result
//! return, sends r alpha_i back in S_i + C_i r alpha_i over the same port.
//! A worker sent nothing pays no start-up. The answer is the sequence
//! served (an order of a subset of the workers) and the loads.
//!
//! `recurrence`: the closed form of one sequence; `search`: branch and
//! bound over sequences and the heuristics; `program`: the fixed-order
//! LP/MIP (the reference, the method with result return, and the export);
//! `gantt`: the schedule; `explain`: the steps.

mod explain;
mod gantt;
mod program;
mod recurrence;
mod search;
mod solve;

pub use program::hetero_lp;
pub use solve::{hetero_star, Compared, HeteroOutput, Work};

use crate::error::Result;
use crate::model::define_model;
use crate::validate::{self, Field};
use alloc::format;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// The most workers a request lists (`processors` has 1 to MAX_WORKERS
/// entries): beyond it the search spends its whole budget on heuristics
/// and the return LP grows past what the page should wait for.
pub const MAX_WORKERS: usize = 1_000;
/// Each worker's start-up, transfer and computing time per unit: a free
/// link is a limit case, free computing is not.
pub const S: Field = Field::nonneg("S");
pub const C: Field = Field::nonneg("C");
pub const A: Field = Field::positive("A");
/// Result units per load unit computed (`return.ratio`; not in `FIELDS`,
/// whose entries are top-level fields or fields of a list's rows).
pub const RATIO: Field = Field::nonneg("ratio");
/// Search nodes the branch and bound may visit (each costs O(m)).
pub const NODE_BUDGET: Field = Field::integer("node_budget", 1, 1_000_000_000);
const FIELDS: &[Field] = &[crate::costs::V, S, C, A, NODE_BUDGET];

/// A worker P_i: its link S_i + C_i x and its computing time A_i x.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(deny_unknown_fields)]
pub struct Worker {
    #[serde(rename = "S")]
    pub s: f64,
    #[serde(rename = "C")]
    pub c: f64,
    #[serde(rename = "A")]
    pub a: f64,
}

/// Which sequences the answer may serve: the workers in the request's
/// order, by non-decreasing C (the optimal order with linear costs), or
/// the best order; in each, any subset of the workers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub enum ServiceOrder {
    #[serde(rename = "given")]
    Given,
    #[serde(rename = "by_C")]
    ByC,
    #[serde(rename = "best")]
    Best,
}

/// The order results come back in: FIFO, the order served; LIFO, the
/// reverse.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub enum Policy {
    #[serde(rename = "FIFO")]
    Fifo,
    #[serde(rename = "LIFO")]
    Lifo,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(deny_unknown_fields)]
pub struct Return {
    pub ratio: f64,
    pub policy: Policy,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(deny_unknown_fields)]
pub struct HeteroParams {
    #[serde(rename = "V")]
    pub v: f64,
    pub processors: Vec<Worker>,
    pub order: ServiceOrder,
    #[serde(default, rename = "return")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub result_return: Option<Return>,
    /// Default [`default_budget`].
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub node_budget: Option<f64>,
}

/// 2 * 10^7 / m nodes: about 2 * 10^7 worker visits whatever m, so that
/// m <= 12 is proven well within a second and m = 1000 stays near one.
pub fn default_budget(m: usize) -> u64 {
    (20_000_000 / m.max(1)) as u64
}

/// A validated request: the workers, the return ratio and policy where
/// results come back (a ratio of 0 returns nothing: no return messages),
/// and the node budget.
#[derive(Debug, Clone)]
pub(crate) struct Instance<'a> {
    pub v: f64,
    pub workers: &'a [Worker],
    pub result_return: Option<Return>,
    pub budget: u64,
}

pub(crate) fn validate(p: &HeteroParams) -> Result<Instance<'_>> {
    crate::costs::V.check(p.v)?;
    validate::length("processors", &p.processors, 1, MAX_WORKERS)?;
    for (i, w) in p.processors.iter().enumerate() {
        let at = || validate::item("processors", i);
        S.check_item(w.s, || format!("{}.S", at()))?;
        C.check_item(w.c, || format!("{}.C", at()))?;
        A.check_item(w.a, || format!("{}.A", at()))?;
    }
    if let Some(r) = &p.result_return {
        RATIO.check_at("return.ratio", r.ratio)?;
    }
    let budget = match p.node_budget {
        Some(b) => NODE_BUDGET.count(b)? as u64,
        None => default_budget(p.processors.len()),
    };
    Ok(Instance { v: p.v, workers: &p.processors, result_return: p.result_return.filter(|r| r.ratio > 0.0), budget })
}

define_model! {
    /// The heterogeneous star with affine costs, single installment,
    /// optional result return.
    HeteroStar: "hetero_star", "DLT textbook star: heterogeneous workers, affine costs S_i + C_i x and A_i x, the best sequence and loads, optional result return (FIFO/LIFO)", include_str!("../../../../examples/hetero_star.json"),
    HeteroParams => HeteroOutput = hetero_star, fields = FIELDS, plan = solve::plan, lp = hetero_lp as "fixed-order star MIP (1)-(6)" by |_| &program::EQUATIONS, explain = explain::explain
}

#[cfg(test)]
mod tests;
