//! Explain mode: the LP of the sequence served, solved again row by row
//! (every worker served; its optimum is the answer's makespan where the
//! answer is proven), then the bound, the orders compared, the search and
//! the loads.

use super::program::{self, EQUATIONS};
use super::{hetero_star, validate, HeteroParams};
use crate::error::Result;
use crate::explain::{program_steps, Explanation, Step};
use crate::model::Export;
use alloc::format;
use alloc::vec::Vec;

const PAPER: &str = "DLT";

pub(crate) fn explain(params: &HeteroParams) -> Result<Explanation> {
    let inst = validate(params)?;
    let out = hetero_star(params)?;
    let served: Vec<usize> = out.sequence.iter().map(|i| i - 1).collect();
    let tau = program::time_unit(&inst);
    let model = program::program(&inst, &served, false, tau).0;
    let mut steps = program_steps(&Export { name: "fixed-order star LP (1)-(6) of the sequence served", model, units: crate::lp::units(inst.v, tau), equations: &EQUATIONS });
    steps.push(
        Step::new("A lower bound", PAPER, "linear relaxation", "No schedule beats the first message's start-up (at least min S_i) plus the optimum with start-ups dropped, whose best order is by non-decreasing C with every worker finishing together; with result return, plus the last worker's return.")
            .value("lower bound", out.lower_bound),
    );
    let mut compared = Step::new("The orders compared", PAPER, "heuristics", "Each order's best subsequence (a worker not worth its start-up is left out).");
    for o in &out.orders {
        compared = compared.value(format!("{} ({:?})", o.order, o.sequence), o.makespan);
    }
    steps.push(compared);
    let verdict = if out.proven { "proves that no sequence is better by more than 1e-9".into() } else { format!("could not close the gap: {:.3e}", out.gap) };
    steps.push(
        Step::new("The search", PAPER, "branch and bound", format!("Depth first over sequences, each prefix bounded by what the workers left could compute with start-ups dropped; it {verdict}."))
            .value("nodes", out.work.nodes as f64)
            .value("LPs", out.work.lps as f64)
            .value("gap", out.gap),
    );
    let how = if inst.result_return.is_some() {
        "The sequence's loads solve its fixed-order LP: sends back to back, each result sent once computed, returns in the policy's order on the same port."
    } else {
        "All workers served finish together: A_i alpha_i = S_(i+1) + (C_(i+1) + A_(i+1)) alpha_(i+1), the loads affine in alpha_1, which sum(alpha) = V fixes."
    };
    let mut loads = Step::new("The loads", PAPER, if inst.result_return.is_some() { "fixed-order LP" } else { "closed form" }, how);
    for &i in &out.sequence {
        loads = loads.value(format!("alpha_{i}"), out.loads[i - 1]);
    }
    steps.push(loads.value("T", out.schedule.makespan));
    Ok(Explanation { steps })
}
