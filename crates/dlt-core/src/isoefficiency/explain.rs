//! Explain mode for a point of 003: the MIP named, then what the search
//! over send sequences saw (how many it solved, the round robins, the
//! runner-up), the chosen sequence and its LP row by row, and the lower
//! bound and gap.

use super::search::{round_robin, Search};
use super::sequence::{self, Tau};
use super::{instance, lp_budget, proof_budget, searched, Instance, Isoefficiency, Output, Params};
use crate::error::Result;
use crate::explain::{count, program_steps, short, Equations, Explanation, Step};
use crate::model::{Export, Model};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// The equations of 003 the rows of `sequence::model` write, x fixed: `end`
/// is (4) and `machine` (5) once per piece of tau (11); (6) is the send
/// times' lower bound S.
const SEQUENCE: Equations =
    Equations { paper: "003", program: "(2)-(11)", rows: &[("channel", "(3)"), ("end", "(4)"), ("machine", "(5)"), ("load", "(7)")] };

pub fn explain(p: &Params) -> Result<Explanation> {
    let inst = instance(p)?;
    let budget = lp_budget(p.lp_budget)?;
    let (out, search) = searched(&inst, budget, proof_budget(p.proof_budget)?)?;
    let mut steps = match Isoefficiency::lp(p) {
        Some(export) => program_steps(&export?),
        None => Vec::new(),
    };
    let all = Search::count(inst.n, inst.m);
    let how = if out.proven {
        format!("There are {all} send sequences up to relabelling the identical machines, within the budget of {budget} LPs: every one was solved, which proves the optimum.")
    } else {
        format!(
            "There are {all} send sequences up to relabelling the identical machines, more than the budget of {budget} LPs: the search solved the \
             round robins over 1 to {} machines, then improved the best by moving one chunk or exchanging two, with restarts, until the budget \
             was spent or {} restarts in a row found nothing better.",
            inst.m.min(inst.n), super::search::STALE
        )
    };
    steps.push(
        Step::new(
            format!("The search: {} send sequences solved", out.sequences),
            "003", "MIP (2)-(11)",
            format!(
                "Fixing which machine gets each chunk (the x_ij of the MIP) leaves an LP in the chunk sizes and send times. {how} {} LPs in {} simplex iterations.",
                out.sequences, out.iterations
            ),
        )
        .value("sequences", out.sequences as f64)
        .value("all sequences", all as f64)
        .value("iterations", out.iterations as f64),
    );
    steps.push(round_robins(&inst, &search));
    steps.push(chosen(&inst, &out));
    steps.extend(program_steps(&Export {
        name: "MIP (2)-(11) with the chosen x_ij (003)",
        model: sequence::model(&inst, &out.sequence, Tau::PerPiece).0,
        units: crate::lp::units(inst.load_unit(), inst.time_unit()),
        equations: &SEQUENCE,
    }));
    steps.push(runner_up(&out, &search));
    steps.push(
        Step::new(
            format!("Lower bound {} and gap {}", short(out.best_bound), short(out.gap)),
            "003", "(3), (4)",
            if out.proven && out.proof_lps > 0 {
                format!(
                    "A branch and bound over send sequences closed every node in {} LPs: each node fixes the first chunks' machines and its LP \
                     keeps the channel, every chunk done by T and the machines' busy time within T, a relaxation of every sequence below it; \
                     none is below T = {} by more than 1e-9 of it, so T is the optimum (dlt prove writes the certificate).",
                    out.proof_lps, short(out.schedule.makespan)
                )
            } else if out.proven {
                format!("Every sequence was solved, so T = {} is the optimum: the bound equals it and the gap is 0.", short(out.schedule.makespan))
            } else if out.proof_lps > 0 {
                format!(
                    "A branch and bound over send sequences, from the search's best, within {} LPs: each node fixes the first chunks' machines \
                     and its LP keeps the channel, every chunk done by T and the machines' busy time within T, a relaxation of every sequence \
                     below it. The least bound of the nodes left open is {}: T = {} is within a gap of (T - bound)/T = {} of the optimum.",
                    out.proof_lps, short(out.best_bound), short(out.schedule.makespan), short(out.gap)
                )
            } else {
                format!(
                    "No schedule ends before the channel has carried every chunk after the start-up, S + nO + CV, nor before the machines' \
                     busy time (receiving, and computing at least n tau(V/n)) spread over m: the larger of the two is {}. T = {} is within a gap \
                     of (T - bound)/T = {} of the optimum.",
                    short(out.best_bound), short(out.schedule.makespan), short(out.gap)
                )
            },
        )
        .value("bound", out.best_bound)
        .value("gap", out.gap),
    );
    Ok(Explanation { steps })
}

/// The pattern the paper reports: RAM-sized chunks dealt in turn.
fn round_robins(inst: &Instance, search: &Search) -> Step {
    let listed: Vec<String> = (1..=inst.m.min(inst.n))
        .filter_map(|k| search.seen(&round_robin(inst.n, k)).map(|t| format!("{k} machine{}: T = {}", if k == 1 { "" } else { "s" }, short(t))))
        .collect();
    Step::new(
        "Round robins",
        "003", "Sec. 4",
        if listed.is_empty() {
            String::from("The enumeration did not reach the round robins within the budget.")
        } else {
            format!("Chunks dealt in turn over k machines, the pattern the paper reports: {}.", listed.join(", "))
        },
    )
}

fn chosen(inst: &Instance, out: &Output) -> Step {
    let sequence: Vec<String> = out.sequence.iter().map(|i| format!("M{i}")).collect();
    let loads: Vec<String> = out.loads.iter().map(|&x| short(x)).collect();
    let rho = inst.rho();
    let in_core = out.loads.iter().filter(|&&x| x <= rho * (1.0 + 1e-9)).count();
    Step::new(
        format!("The chosen sequence: T = {}", short(out.schedule.makespan)),
        "003", "(2)-(11), (12)",
        format!(
            "Chunks go to {} ({} used), of sizes {}; {in_core} of the {} fit the core memory rho = {}. T = {}; one machine alone \
             takes T(1,1,V) = {}, so E = T(1,1,V)/(mT) = {}.",
            sequence.join(" "), count(out.machines_used, "machine", "machines"), loads.join(", "), out.loads.len(),
            short(rho), short(out.schedule.makespan), short(out.single), short(out.efficiency)
        ),
    )
    .value("T", out.schedule.makespan)
    .value("machines used", out.machines_used as f64)
    .value("efficiency", out.efficiency)
}

fn runner_up(out: &Output, search: &Search) -> Step {
    let t = out.schedule.makespan;
    let Some((seq, next)) = search.runner_up() else {
        return Step::new("No runner-up", "003", "MIP (2)-(11)", "The search solved one sequence only.");
    };
    let sequence: Vec<String> = seq.iter().map(|i| format!("M{}", i + 1)).collect();
    Step::new(
        format!("Why it wins: the next best ends at {}", short(next)),
        "003", "MIP (2)-(11)",
        format!(
            "Of the {} sequences solved, the next best is {}, whose LP optimum is T = {}: {} ({}%) longer than the chosen one.{}",
            out.sequences, sequence.join(" "), short(next), short(next - t), short(100.0 * (next - t) / t),
            if out.proven { "" } else { " Sequences the search did not solve may do better: the gap below says how much at most." }
        ),
    )
    .value("runner-up T", next)
    .value("difference", next - t)
}
