//! The program of one order: an LP with every worker of the sequence
//! served (the method with result return, and the reference the closed
//! form is tested against), or a MIP where each worker's use y_i is 0-1, so
//! that an unused worker pays no start-up (what `dlt export` writes: its
//! optimum is the best subsequence of the order).
//!
//! Rows, times in units of tau and loads in units of V, workers in order,
//! numbered as explain mode and the export's title cite them:
//!   (1) sent_k:     sent_k = sent_(k-1) + S_k y_k + C_k alpha_k   (the one port sends back to back)
//!   (2) finish_k:   sent_k + A_k alpha_k <= T                     (no return)
//!   (3) computed_k: sent_k + A_k alpha_k <= ret_k                 (results leave once computed)
//!   (4) port_k:     ret_(pi k) + S y + C r alpha <= ret_(pi (k+1)), after the last send,
//!                   the last return ending by T (returns in the policy's order pi)
//!   (5) use_k:      alpha_k <= y_k                                (MIP only)
//!   (6) load:       sum alpha_k = 1

use super::recurrence::Served;
use super::{validate, HeteroParams, Instance, Policy};
use crate::error::Result;
use crate::explain::Equations;
use crate::lp::{self, Model, Sense, Var};
use alloc::format;
use alloc::vec::Vec;

pub(crate) const EQUATIONS: Equations = Equations {
    paper: "DLT",
    program: "(1)-(6)",
    rows: &[("sent", "(1)"), ("finish", "(2)"), ("computed", "(3)"), ("port", "(4)"), ("use", "(5)"), ("load", "(6)")],
};

/// The program of `sequence` (worker indices, in order): with `choose`,
/// each worker's 0-1 use variable; without, every worker served.
pub(crate) fn program(inst: &Instance, sequence: &[usize], choose: bool, tau: f64) -> (Model, Vec<Var>, Var) {
    let (v, workers) = (inst.v, inst.workers);
    let mut lp = Model::default();
    let t = lp.var("T", 0.0, f64::INFINITY, 1.0);
    let alpha: Vec<Var> = sequence.iter().map(|i| lp.var(format!("alpha_{}", i + 1), 0.0, f64::INFINITY, 0.0)).collect();
    let mut uses = Vec::new();
    let mut sent: Vec<Var> = Vec::new();
    for (k, &i) in sequence.iter().enumerate() {
        let now = lp.var(format!("sent_{}", i + 1), 0.0, f64::INFINITY, 0.0);
        let mut terms = alloc::vec![(now, 1.0), (alpha[k], -workers[i].c * v / tau)];
        if let Some(&before) = sent.last() {
            terms.push((before, -1.0));
        }
        // The start-up: S y on the left with a use variable, S on the right without.
        let s = workers[i].s / tau;
        let rhs = if choose {
            let y = lp.binary(format!("y_{}", i + 1), 0.0);
            terms.push((y, -s));
            uses.push(y);
            0.0
        } else {
            s
        };
        lp.row(format!("sent_{}", i + 1), terms, Sense::Eq, rhs);
        sent.push(now);
    }
    let computed = |k: usize, by: Var| alloc::vec![(sent[k], 1.0), (alpha[k], workers[sequence[k]].a * v / tau), (by, -1.0)];
    match inst.result_return {
        None => {
            for (k, &i) in sequence.iter().enumerate() {
                lp.row(format!("finish_{}", i + 1), computed(k, t), Sense::Le, 0.0);
            }
        }
        Some(r) => {
            let back: Vec<Var> = sequence.iter().map(|i| lp.var(format!("ret_{}", i + 1), 0.0, f64::INFINITY, 0.0)).collect();
            for (k, &i) in sequence.iter().enumerate() {
                lp.row(format!("computed_{}", i + 1), computed(k, back[k]), Sense::Le, 0.0);
            }
            let mut order: Vec<usize> = (0..sequence.len()).collect();
            if r.policy == Policy::Lifo {
                order.reverse();
            }
            let last = *sent.last().expect("a worker");
            lp.row("port_0", alloc::vec![(last, 1.0), (back[order[0]], -1.0)], Sense::Le, 0.0);
            for (n, &k) in order.iter().enumerate() {
                let i = sequence[k];
                let next = order.get(n + 1).map_or(t, |&j| back[j]);
                let mut terms = alloc::vec![(back[k], 1.0), (alpha[k], workers[i].c * r.ratio * v / tau), (next, -1.0)];
                if choose {
                    terms.push((uses[k], workers[i].s / tau));
                }
                let rhs = if choose { 0.0 } else { -workers[i].s / tau };
                lp.row(format!("port_{}", i + 1), terms, Sense::Le, rhs);
            }
        }
    }
    for (k, &y) in uses.iter().enumerate() {
        lp.row(format!("use_{}", sequence[k] + 1), alloc::vec![(alpha[k], 1.0), (y, -1.0)], Sense::Le, 0.0);
    }
    lp.row("load", alpha.iter().map(|&a| (a, 1.0)).collect(), Sense::Eq, 1.0);
    (lp, alpha, t)
}

/// The program's unit of time: the best single worker's makespan, an upper
/// bound of the optimum of the scale of every term.
pub(crate) fn time_unit(inst: &Instance) -> f64 {
    let ratio = inst.result_return.map_or(0.0, |r| r.ratio);
    let back = |s: f64| if inst.result_return.is_some() { s } else { 0.0 };
    inst.workers.iter().map(|w| w.s + (w.c + w.a) * inst.v + back(w.s) + w.c * ratio * inst.v).fold(f64::INFINITY, f64::min)
}

/// The LP of `sequence` with every worker served, again without the
/// workers it leaves at load 0 (each would pay its start-ups for nothing)
/// until all loads are positive. Counts the LPs solved in `lps`.
pub(crate) fn served_by_lp(inst: &Instance, sequence: &[usize], lps: &mut u64) -> Result<Served> {
    let tau = time_unit(inst);
    let mut sequence = sequence.to_vec();
    loop {
        let (model, alpha, _) = program(inst, &sequence, false, tau);
        *lps += 1;
        let solution = lp::solve(&lp::Auto, &model, "hetero_star")?;
        let loads: Vec<f64> = alpha.iter().map(|&a| solution.get(a).max(0.0)).collect();
        let kept: Vec<usize> = (0..sequence.len()).filter(|&k| loads[k] > crate::buffers::EMPTY).collect();
        if kept.len() == sequence.len() || kept.is_empty() {
            let total: f64 = loads.iter().sum();
            let loads: Vec<f64> = loads.iter().map(|x| x * inst.v / total).collect();
            let makespan = super::gantt::timeline(inst, &sequence, &loads).makespan;
            return Ok(Served { sequence, loads, makespan });
        }
        sequence = kept.iter().map(|&k| sequence[k]).collect();
    }
}

/// The MIP of the order the request serves (its best sequence first, for
/// order "best"), every worker with its use variable, for export.
pub fn hetero_lp(params: &HeteroParams) -> Result<(Model, lp::Units)> {
    let inst = validate(params)?;
    let order = super::solve::export_order(params, &inst)?;
    let tau = time_unit(&inst);
    Ok((program(&inst, &order, true, tau).0, lp::units(inst.v, tau)))
}
