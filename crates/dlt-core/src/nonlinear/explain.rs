//! Explain mode for 004: algorithm PE's eliminations (Lemma 2), FON's
//! choice of rho (Table IV, Lemma 10), and the closed forms that give alpha
//! and T (Theorem 1 for C; eqs. (3)-(5), Lemma 8 and Theorem 9 for S and M),
//! all read from what the solver decided.

use super::fractions::{messages, Check, Pe};
use super::multi::Fon;
use super::{traced, Algorithm, Output, Params};
use crate::error::Result;
use crate::explain::{count, short, Explanation, Step};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

pub fn explain(p: &Params) -> Result<Explanation> {
    let (out, trace) = traced(p)?;
    let mut steps = Vec::new();
    if out.algorithm == Algorithm::C {
        steps.push(shares(&out, "Shares of Theorem 1", "Theorem 1",
            "Algorithm C (the classical model) gives P_i a share that grows with its speed, alpha_i = alpha_0 (A_0/A_i)^(1/gamma), \
             alpha_0 = 1 / (1 + sum_i (A_0/A_i)^(1/gamma)); communication is neglected."));
        steps.push(
            Step::new(
                "Makespan of Theorem 1",
                "004", "Theorem 1",
                format!(
                    "P_i computes only alpha_i^gamma of the L^gamma steps; P_0 is left the rest, 1 - sum alpha_i^gamma = {}, so \
                     T = (1 - sum alpha_i^gamma) L^gamma A_0 = {}. The schedule, with its communication, ends at {}.",
                    short(out.loads[0]), short(out.theorem), short(out.schedule.makespan)
                ),
            )
            .value("T", out.theorem)
            .value("makespan", out.schedule.makespan),
        );
        return Ok(Explanation { steps });
    }
    // S and M both start with PE at rho = 1; M's second run checks Lemma 2
    // again at the rho it chose.
    if let Some(first) = trace.pe.first() {
        steps.extend(pe_steps(first));
    }
    if out.algorithm == Algorithm::M {
        steps.push(match &trace.fon {
            Some(fon) => fon_step(fon),
            None => Step::new(format!("rho = {} installments, as given", out.installments), "004", "Table V",
                "The request fixes the number of installments, so algorithm M skips FON.").value("rho", out.installments as f64),
        });
        if let Some(again) = trace.pe.get(1).filter(|pe| pe.rho != 1.0) {
            steps.extend(pe_steps(again));
        }
    }
    let (source, formula) = if out.algorithm == Algorithm::S {
        ("(3), Theorem 4", "alpha_0 = 1 / (1 + sum_i L^gamma A_0 / (L^gamma A_i + L G_i)) and alpha_i = alpha_0 L^gamma A_0 / (L^gamma A_i + L G_i)")
    } else {
        ("(4)-(5)", "alpha_0 = 1 / (1 + rho sum_i L^gamma A_0 / (rho L^gamma A_i + L G_i)) and alpha_i = alpha_0 L^gamma A_0 / (rho L^gamma A_i + L G_i), each child computing rho chunks of alpha_i")
    };
    steps.push(shares(&out, "The fractions", source, &format!("Over the children PE kept, at rho = {}: {formula}.", out.installments)));
    let (step, most) = lemma8(&out);
    steps.push(step);
    steps.push(theorem9(&out, p, most));
    Ok(Explanation { steps })
}

fn shares(out: &Output, title: &str, at: &str, text: &str) -> Step {
    let listed: Vec<String> = out.alpha.iter().enumerate().map(|(i, a)| format!("alpha_{i} = {}", short(*a))).collect();
    let mut step = Step::new(title, "004", at, format!("{text} Here {}.", listed.join(", ")));
    for (i, &a) in out.alpha.iter().enumerate() {
        step = step.value(format!("alpha_{i}"), a);
    }
    step
}

fn lemma2(c: &Check) -> String {
    format!(
        "P{}: r = alpha^(gamma-1) L^(gamma-1) beta = {}, alpha = {}, r + alpha = {}",
        c.child + 1, short(c.r), short(c.alpha), short(c.r + c.alpha)
    )
}

/// One step per child PE removed, then the round every kept child passes.
fn pe_steps(pe: &Pe) -> Vec<Step> {
    let mut steps = Vec::new();
    for (round, c) in pe.removed.iter().enumerate() {
        steps.push(
            Step::new(
                format!("PE at rho = {}: P{} eliminated", pe.rho, c.child + 1),
                "004", "Lemma 2, Table II",
                format!(
                    "Round {}: with the fractions of the children still in, {}, below 1: P{} cannot receive the whole data set while it \
                     computes (Lemma 2). Of the children that fail, it has the least r + alpha, so PE removes it and recomputes the fractions.",
                    round + 1, lemma2(c), c.child + 1
                ),
            )
            .value("eliminated", (c.child + 1) as f64)
            .value("r", c.r)
            .value("alpha", c.alpha),
        );
    }
    let passed: Vec<String> = pe.passed.iter().map(lemma2).collect();
    let text = if passed.is_empty() {
        String::from("No child is left: P0 computes alone.")
    } else {
        format!("Every child left passes Lemma 2, r + alpha >= 1: {}.", passed.join("; "))
    };
    steps.push(Step::new(format!("PE at rho = {}: {} kept", pe.rho, count(pe.kept.len(), "child", "children")), "004", "Lemma 2, Table II", text).value("kept", pe.kept.len() as f64));
    steps
}

fn fon_step(fon: &Fon) -> Step {
    let tried: Vec<String> = fon.tried.iter().map(|(rho, t)| format!("rho = {rho}: T = {}", t.map_or(String::from("infeasible (Lemma 2)"), short))).collect();
    let start = match fon.bounds {
        Some([r1, r2, r3]) => format!(
            "The tree is homogeneous: Lemma 10 gives rho1 = {}, rho2 = {}, rho3 = {}, so the search runs from LB = max{{1, floor(min{{rho1, rho2}})}} = {} \
             (Theorem 11: T does not increase up to it) to UB = ceil(max{{rho1, rho3}}) = {}.",
            short(r1), short(r2), short(r3), fon.lb, fon.ub
        ),
        None => String::from("The tree is heterogeneous: the search starts at rho = 1."),
    };
    let stop = match fon.tried.last() {
        _ if fon.budget => String::from("more installments would shorten T but need more messages than a schedule may hold"),
        Some((_, None)) => String::from("one more installment fails Lemma 2"),
        Some(&(rho, _)) if rho == fon.rho && rho == fon.ub => String::from("it reached UB"),
        Some(_) if fon.tried.len() > 1 => String::from("one more installment does not shorten Theorem 9's T"),
        _ => String::from("there is nothing to weigh"),
    };
    Step::new(
        format!("FON: rho = {}", fon.rho),
        "004", if fon.bounds.is_some() { "Table IV, Lemma 10, Theorem 11" } else { "Table IV" },
        format!("Algorithm M chooses the number of installments by FON. {start} It weighed {}. It stops at rho = {}: {stop}.", tried.join(", "), fon.rho),
    )
    .value("rho", fon.rho as f64)
    .value("weighed", fon.tried.len() as f64)
}

/// The step and the most messages any child needs (Theorem 9's ceiling).
fn lemma8(out: &Output) -> (Step, f64) {
    let listed: Vec<String> = out
        .n_star
        .iter()
        .enumerate()
        .filter_map(|(i, n)| n.map(|n| format!("P{i}: n* = {}, {} message{}", short(n), messages(n), if messages(n) == 1.0 { "" } else { "s" })))
        .collect();
    let most = out.n_star.iter().flatten().map(|&n| messages(n)).fold(0.0, f64::max);
    let step = Step::new(
        "Messages each child needs",
        "004", "Lemma 8",
        format!(
            "P_i receives its chunk, then the rest of the data set in messages growing by r_i while it computes: n_i* = ln((r_i - 1)/alpha_i + 1) / ln r_i, \
             rounded up. {}.",
            if listed.is_empty() { String::from("No child takes load") } else { listed.join("; ") }
        ),
    )
    .value("most messages", most);
    (step, most)
}

fn theorem9(out: &Output, p: &Params, most: f64) -> Step {
    let first = out.first_term.unwrap_or(out.theorem);
    let (cp, cm) = (p.theta_cp.unwrap_or(0.0), p.theta_cm.unwrap_or(0.0));
    let (title, source, text) = if cp == 0.0 && cm == 0.0 {
        let (title, source) = if out.algorithm == Algorithm::S { ("Makespan of Theorem 4", "Theorem 4") } else { ("Makespan of Theorem 6", "Theorem 6") };
        (title, source, format!("Without start-up costs every processor finishes with P0: T = alpha_0 L^gamma A_0 = {}.", short(out.theorem)))
    } else {
        let text = format!(
            "T = alpha_0 L^gamma A_0 + theta_cp + theta_cm + (max_i ceil(n_i*) - 1) max(theta_cp, theta_cm) = {} + {} + {} + ({} - 1) {} = {}.",
            short(first), short(cp), short(cm), most, short(cp.max(cm)), short(out.theorem)
        );
        ("Makespan of Theorem 9", "Theorem 9", text)
    };
    Step::new(title, "004", source, format!("{text} The schedule ends at {}.", short(out.schedule.makespan)))
        .value("alpha_0 L^gamma A_0", first)
        .value("T", out.theorem)
        .value("makespan", out.schedule.makespan)
}
