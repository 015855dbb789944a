//! Explain mode for the chunk size of 002 Sec. 4: heuristic (5) processor by
//! processor, then the admissible range beta must lie in, from the terms
//! `chunk_size` computed.

use super::chunk::{derived, ChunkParams};
use crate::error::Result;
use crate::explain::{short, Explanation, Step};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Processors listed by name; the rest are counted.
const LISTED: usize = 12;

pub fn explain(p: &ChunkParams) -> Result<Explanation> {
    let (out, t) = derived(p)?;
    let opt = |x: Option<f64>| x.map_or(String::from("none"), short);
    let mut per: Vec<String> = t
        .fractions
        .iter()
        .zip(&t.quotients)
        .take(LISTED)
        .enumerate()
        .map(|(i, (&(num, den), q))| format!("P{}: {} / {} = {}", i + 1, short(num), short(den), q.map_or(String::from("none (not both positive)"), short)))
        .collect();
    if t.fractions.len() > LISTED {
        per.push(format!("… ({} more)", t.fractions.len() - LISTED));
    }
    let mut heuristic = Step::new(
        format!("Heuristic (5): beta = {}", opt(out.beta)),
        "002 (5), Sec. 4",
        format!(
            "Each processor must compute a chunk for as long as a round of m messages takes, so beta = max_i (sum S - A^l_i1) / (A^l_i2 - sum C), \
             with sum S = {} and sum C = {}: {}.",
            short(t.sum_s), short(t.sum_c), per.join("; ")
        ),
    )
    .value("sum S", t.sum_s)
    .value("sum C", t.sum_c);
    if let Some(b) = out.beta {
        heuristic = heuristic.value("beta", b);
    }
    let mut lower = Step::new(
        format!("Lower end: beta > {}", opt(out.beta_min)),
        "002 Sec. 4",
        format!(
            "A round m(S + beta C) must take less than computing its m chunks out-of-core at the combined rate m / sum(1/A^h_2) = {}: \
             beta > sum S / (m / sum(1/A^h_2) - sum C) = {}.",
            short(t.out_rate), opt(out.beta_min)
        ),
    )
    .value("out-of-core rate", t.out_rate);
    if let Some(lo) = out.beta_min {
        lower = lower.value("beta_min", lo);
    }
    let mut swaps: Vec<String> = out.swap_points.iter().take(LISTED).enumerate().map(|(i, s)| format!("P{}: {}", i + 1, opt(*s))).collect();
    if out.swap_points.len() > LISTED {
        swaps.push(format!("… ({} more)", out.swap_points.len() - LISTED));
    }
    let mut upper = Step::new(
        format!("Upper end: beta <= {}", opt(out.beta_max)),
        "002 Sec. 4",
        format!(
            "A chunk must fit the core memory of every processor it is sent to: beta <= swp_i for every i, the least swap point. Swap points: {}.",
            swaps.join(", ")
        ),
    );
    if let Some(hi) = out.beta_max {
        upper = upper.value("beta_max", hi);
    }
    let verdict = Step::new(
        if out.admissible { "beta is admissible" } else { "beta is not admissible" },
        "002 Sec. 4",
        format!(
            "beta = {} against the range ({}, {}]: {}.",
            opt(out.beta), opt(out.beta_min), out.beta_max.map_or(String::from("no swap point"), short),
            if out.admissible { "multi-installment processing in chunks of beta can beat computing out-of-core" } else { "choose the chunk size another way" }
        ),
    )
    .value("admissible", if out.admissible { 1.0 } else { 0.0 });
    Ok(Explanation { steps: alloc::vec![heuristic, lower, upper, verdict] })
}
