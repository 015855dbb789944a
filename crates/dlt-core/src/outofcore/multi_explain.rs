//! Explain mode for multi-installment processing (002 Sec. 4): the chunks
//! of beta, whether each processor computes them in core, the rounds and
//! what each processor receives, and where the schedule ends.

use super::levels;
use super::multi::{multi_installment, MultiParams};
use crate::error::Result;
use crate::explain::{short, Explanation, Step};
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

pub fn explain(p: &MultiParams) -> Result<Explanation> {
    let out = multi_installment(p)?;
    let chunks = Step::new(
        format!("{} chunks of beta = {}", short(out.chunks), short(out.beta)),
        "002",
        "Sec. 4",
        format!(
            "V = {} is cut into ceil(V/beta) = {} equal chunks of beta, the last one {}.",
            short(p.v), short(out.chunks), short(out.last_chunk)
        ),
    )
    .value("chunks", out.chunks)
    .value("last chunk", out.last_chunk);
    let mut core = Step::new("In core or out of core", "002", "(5), Sec. 4", "");
    let mut out_of_core = Vec::new();
    for (j, q) in p.processors.iter().enumerate() {
        let swap = levels(&q.pieces).swap_point;
        if swap.is_finite() {
            core = core.value(format!("swap point of P{}", j + 1), swap);
        }
        if out.beta > swap {
            out_of_core.push(format!("P{}", j + 1));
        }
    }
    core.text = if out_of_core.is_empty() {
        String::from("beta is at most every processor's swap point: every chunk is computed in core, at the core piece's rate.")
    } else {
        format!("beta exceeds the swap point of {}: their chunks spill out of core, at the slower piece.", out_of_core.join(", "))
    };
    let round: f64 = p.processors.iter().map(|q| q.s + q.c * out.beta).sum();
    let mut rounds = Step::new(
        format!("Rounds P1..P{} of {}", p.processors.len(), short(round)),
        "002",
        "Sec. 4",
        format!(
            "The chunks go out back to back in rounds P1, …, P{}, P1, …; a round of messages takes sum (S_i + C_i beta) = {}. \
             A processor computes each chunk as it arrives if its chunk takes less than a round, else back to back, its queue growing.",
            p.processors.len(), short(round)
        ),
    )
    .value("round", round);
    for (j, (q, load)) in p.processors.iter().zip(&out.loads).enumerate() {
        rounds = rounds.value(format!("P{} chunk time", j + 1), q.time(out.beta)).value(format!("P{} load", j + 1), *load);
    }
    let end = Step::new(
        format!("The makespan: {}", short(out.schedule.makespan)),
        "002",
        "Sec. 4",
        format!(
            "The last processor to finish its chunks ends the schedule at {}{}.",
            short(out.schedule.makespan),
            if out.omitted_rounds > 0.0 { format!(" (the {} full rounds in the middle are translates of the first)", short(out.omitted_rounds)) } else { String::new() }
        ),
    )
    .value("makespan", out.schedule.makespan);
    Ok(Explanation { steps: vec![chunks, core, rounds, end] })
}
