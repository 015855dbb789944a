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
    let per = first_processors(
        t.fractions.iter().zip(&t.quotients).enumerate().map(|(i, (&(num, den), q))| format!("P{}: {} / {} = {}", i + 1, short(num), short(den), q.map_or(String::from("none (not both positive)"), short))),
    );
    let heuristic = Step::new(
        format!("Heuristic (5): beta = {}", opt(out.beta)),
        "002", "(5), Sec. 4",
        format!(
            "Each processor must compute a chunk for as long as a round of m messages takes, so beta = max_i (sum S - A^l_i1) / (A^l_i2 - sum C), \
             with sum S = {} and sum C = {}: {}.",
            short(t.sum_s), short(t.sum_c), per.join("; ")
        ),
    )
    .value("sum S", t.sum_s)
    .value("sum C", t.sum_c)
    .value_if("beta", out.beta);
    let lower = Step::new(
        format!("Lower end: beta > {}", opt(out.beta_min)),
        "002", "Sec. 4",
        format!(
            "A round m(S + beta C) must take less than computing its m chunks out-of-core at the combined rate m / sum(1/A^h_2) = {}: \
             beta > sum S / (m / sum(1/A^h_2) - sum C) = {}.",
            short(t.out_rate), opt(out.beta_min)
        ),
    )
    .value("out-of-core rate", t.out_rate)
    .value_if("beta_min", out.beta_min);
    let swaps = first_processors(out.swap_points.iter().enumerate().map(|(i, s)| format!("P{}: {}", i + 1, opt(*s))));
    let upper = Step::new(
        format!("Upper end: beta <= {}", opt(out.beta_max)),
        "002", "Sec. 4",
        format!(
            "A chunk must fit the core memory of every processor it is sent to: beta <= swp_i for every i, the least swap point. Swap points: {}.",
            swaps.join(", ")
        ),
    )
    .value_if("beta_max", out.beta_max);
    let verdict = Step::new(
        if out.admissible { "beta is admissible" } else { "beta is not admissible" },
        "002", "Sec. 4",
        format!(
            "beta = {} against the range ({}, {}]: {}.",
            opt(out.beta), opt(out.beta_min), out.beta_max.map_or(String::from("no swap point"), short),
            if out.admissible { "multi-installment processing in chunks of beta can beat computing out-of-core" } else { "choose the chunk size another way" }
        ),
    )
    .value("admissible", if out.admissible { 1.0 } else { 0.0 });
    Ok(Explanation { steps: alloc::vec![heuristic, lower, upper, verdict] })
}

/// The entries of the first LISTED processors, and how many more there are.
fn first_processors(entries: impl ExactSizeIterator<Item = String>) -> Vec<String> {
    let total = entries.len();
    let mut listed: Vec<String> = entries.take(LISTED).collect();
    if total > LISTED {
        listed.push(format!("… ({} more)", total - LISTED));
    }
    listed
}
