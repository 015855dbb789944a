//! Explain mode for the torus: recurrence (1)-(3) layer by layer with the
//! request's numbers, read from the solved answer, and why its number of
//! phases is the largest feasible (Lemma 1).

use super::{phase_fractions, solve, validate, Input, Output, Params};
use crate::error::Result;
use crate::explain::{count, short, Explanation, Step};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

pub fn explain(p: &Params) -> Result<Explanation> {
    let out = solve(p)?;
    let inp = validate(p)?;
    let Input { s, c, a, v, .. } = inp;
    let n = out.phases;
    let mut steps = Vec::new();
    let fractions: Vec<String> = out.layers.iter().map(|l| format!("a_{} = {}", l.layer, short(l.load / v))).collect();
    steps.push(
        Step::new(
            format!("Load fractions of {}", count(n, "phase", "phases")),
            "001", "(1)-(3)",
            format!(
                "System (1) asks every layer to finish together: a layer computes a_i A V for as long as sending to the next layer and that layer's \
                 computing take, a_i A V = S + C v_(i+1) V + a_(i+1) A V. Recurrence (2) writes each a_i as k_i a_N + l_i from the deepest layer up, \
                 and the normalisation a_0 + 4 sum 5^(i-1) a_i = 1 gives a_N by (3). With S = {}, C = {}, A = {} and V = {}: {}.",
                short(s), short(c), short(a), short(v), fractions.join(", ")
            ),
        )
        .value("a_N", out.layers[n].load / v)
        .value("phases", n as f64),
    );
    let first = &out.layers[0];
    steps.push(
        Step::new(
            "The originator computes",
            "001", "(1)",
            format!(
                "The originator holds V = {} and keeps a_0 V = {} of it, computing from 0 for A a_0 V = {} while it scatters the rest.",
                short(v), short(first.load), short(a * first.load)
            ),
        )
        .value("load", first.load)
        .value("finishes", a * first.load),
    );
    for (i, layer) in out.layers.iter().enumerate().skip(1) {
        let sending = s + c * layer.received;
        let computing = a * layer.load;
        steps.push(
            Step::new(
                format!("Phase {i}: {} processors activated", layer.processors),
                "001", "(1), Table 1",
                format!(
                    "Every processor already active sends to new ones: {} processors receive a message of v_{i} V = {} (their own a_{i} V = {} and \
                     what they pass on later), taking S + C v_{i} V = {} after phase {} ended at {}. They start at {} and compute A a_{i} V = {}, \
                     finishing at {}.",
                    layer.processors, short(layer.received), short(layer.load), short(sending), i - 1, short(out.layers[i - 1].activated),
                    short(layer.activated), short(computing), short(layer.activated + computing)
                ),
            )
            .value("processors", layer.processors)
            .value("received", layer.received)
            .value("load", layer.load)
            .value("activated", layer.activated)
            .value("computing", computing)
            .value("finishes", layer.activated + computing),
        );
    }
    steps.push(why_n(&out, p, &inp));
    steps.push(
        Step::new(
            "Makespan and speedup",
            "001", "(1)",
            format!(
                "All layers finish together at C_max = A a_0 V = {}; one processor alone would take A V = {}, a speedup of {}.",
                short(out.schedule.makespan), short(a * v), short(out.speedup)
            ),
        )
        .value("makespan", out.schedule.makespan)
        .value("speedup", out.speedup),
    );
    Ok(Explanation { steps })
}

/// Lemma 1 takes as many phases as are feasible; the step says what the
/// next number of phases would do (or that the torus has no more).
fn why_n(out: &Output, p: &Params, inp: &Input) -> Step {
    let n = out.phases;
    let times: Vec<String> =
        out.by_phases.iter().map(|o| format!("{}: {}", o.phases, o.makespan.map_or(String::from("infeasible"), short))).collect();
    let largest = out.by_phases.iter().rev().find(|o| o.makespan.is_some()).map_or(0, |o| o.phases);
    let mut text = format!("C_max by number of phases, {}. ", times.join(", "));
    let mut step = Step::new(format!("Why {}", count(n, "phase", "phases")), "001", "Lemma 1, Sec. 3", String::new()).value("phases", n as f64);
    if p.phases.is_some() {
        text.push_str(&format!("The request fixes N = {n}; the largest feasible number is {largest}. "));
    } else {
        text.push_str(&format!("Lemma 1: more layers never lengthen the schedule, so N = {n}, the largest feasible. "));
    }
    if n == out.max_phases {
        text.push_str(&format!("The torus has no phase {}: after 2k = {} phases all 5^(2k) processors are active.", n + 1, out.max_phases));
    } else if n == largest {
        let next = phase_fractions(inp, n + 1);
        // The layer whose load (3) drives negative: sending to it outlasts computing.
        let (worst, &fraction) = next.iter().enumerate().min_by(|x, y| x.1.total_cmp(y.1)).unwrap_or((0, &0.0));
        text.push_str(&format!(
            "With {} phases, (3) gives a_{worst} = {} (a load of {}): sending to {} layers would outlast computing the whole load on fewer, \
             so {} phases are infeasible.",
            n + 1, short(fraction), short(fraction * inp.v), n + 2, n + 1
        ));
        step = step.value("next fraction", fraction);
    }
    step.text = text;
    step
}
