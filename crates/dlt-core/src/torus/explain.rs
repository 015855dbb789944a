//! Explain mode for the torus: recurrence (1)-(3) layer by layer with the
//! request's numbers, read from the solved answer, and why its number of
//! phases is the largest feasible (Lemma 1).

use super::{phase_fractions, solve, validate, Input, Output, Params};
use crate::error::Result;
use super::options::Options;
use crate::explain::{count, short, Explanation, Step};
use crate::schedule::Kind;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

pub fn explain(p: &Params) -> Result<Explanation> {
    let out = solve(p)?;
    let (inp, opts) = validate(p)?;
    let Input { s, c, a, v, .. } = inp;
    let n = out.phases;
    let mut steps = Vec::new();
    let name = |l: &super::Layer| l.slot.map_or(format!("a_{}", l.layer), |j| format!("a_({},{j})", l.layer));
    let fractions: Vec<String> = out.layers.iter().map(|l| format!("{} = {}", name(l), short(l.load / v))).collect();
    steps.push(
        Step::new(
            format!("Load fractions of {}", count(n, "phase", "phases")),
            "001", "(1)-(3)",
            format!(
                "System (1) asks every layer to finish together: a layer computes a_i A V for as long as sending to the next layer and that layer's \
                 computing take, a_i A V = S + C v_(i+1) V + a_(i+1) A V. Recurrence (2) writes each a_i as k_i a_N + l_i from the deepest layer up, \
                 and the normalisation a_0 + 4 sum 5^(i-1) a_i = 1 gives a_N by (3). With S = {}, C = {}, A = {} and V = {}: {}.",
                short(s), short(c), short(a), short(v), fractions.join(", ")
            ) + if opts.is_default() { "" } else { " (with (1) changed as Sec. 5's extensions below say)" },
        )
        .value("a_N", out.layers.last().map_or(1.0, |l| l.load / v))
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
    if !opts.is_default() {
        steps.push(options_step(&opts, &out));
    }
    for (i, layer) in out.layers.iter().enumerate().skip(1) {
        let sending = layer.activated - out.layers[i - 1].activated;
        let computing = out.schedule.intervals.iter().find(|x| x.kind == Kind::Compute && x.proc == i).map_or(a * layer.load, |x| x.end - x.start);
        let (q, slot) = (layer.layer, layer.slot.map_or(String::new(), |j| format!(", slot {j}")));
        steps.push(
            Step::new(
                format!("Phase {q}{slot}: {} processors activated", layer.processors),
                "001", "(1), Table 1",
                format!(
                    "Every processor already active sends to new ones: {} processors receive a message of v_{q} V = {} (their own a_{q} V = {} and \
                     what they pass on later), taking {} after the previous message ended at {}. They start at {} and compute for {}, \
                     finishing at {}.",
                    layer.processors, short(layer.received), short(layer.load), short(sending), short(out.layers[i - 1].activated),
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
    steps.push(why_n(&out, p, &inp, opts.is_default()));
    steps.push(
        Step::new(
            "Makespan and speedup",
            "001", "(1)",
            format!(
                "The schedule ends at C_max = {}; one processor alone would take {}, a speedup of {}.",
                short(out.schedule.makespan), short(out.speedup * out.schedule.makespan), short(out.speedup)
            ),
        )
        .value("makespan", out.schedule.makespan)
        .value("speedup", out.speedup),
    );
    Ok(Explanation { steps })
}

/// Lemma 1 takes as many phases as are feasible; the step says what the
/// next number of phases would do (or that the torus has no more).
fn why_n(out: &Output, p: &Params, inp: &Input, plain: bool) -> Step {
    let n = out.phases;
    let times: Vec<String> =
        out.by_phases.iter().map(|o| format!("{}: {}", o.phases, o.makespan.map_or(String::from("infeasible"), short))).collect();
    let largest = out.by_phases.iter().rev().find(|o| o.makespan.is_some()).map_or(0, |o| o.phases);
    let mut text = format!("C_max by number of phases, {}. ", times.join(", "));
    let mut step = Step::new(format!("Why {}", count(n, "phase", "phases")), "001", "Lemma 1, Sec. 3", String::new()).value("phases", n as f64);
    if p.phases.is_some() {
        text.push_str(&format!("The request fixes N = {n}; the largest feasible number is {largest}. "));
    } else if plain {
        text.push_str(&format!("Lemma 1: more layers never lengthen the schedule, so N = {n}, the largest feasible. "));
    } else {
        text.push_str(&format!("With Sec. 5's options Lemma 1 need not hold: N = {n} gives the least C_max. "));
    }
    if n == out.max_phases {
        text.push_str(&format!("The torus has no phase {}: after 2k = {} phases all 5^(2k) processors are active.", n + 1, out.max_phases));
    } else if n == largest && plain {
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

/// What Sec. 5's options change in (1), with the request's values.
fn options_step(o: &Options, out: &Output) -> Step {
    let mut parts = Vec::new();
    if o.wavefront {
        parts.push(String::from("the wave front of [4] (Fig. 8): layer j is the 4j nodes j links away (fewer once the front wraps round the torus), \
            relayed by layer j-1 alone, each node an equal share of what layers j.. compute"));
    }
    if o.ports < 4 {
        parts.push(format!("{} port(s): a transmitter sends its four messages of a phase in {} slots, one class of receivers per slot, \
            each class's computing lasting as long as the next class's message and computing", o.ports, o.slots()));
    }
    if o.asynchronous {
        parts.push(String::from("asynchronous sends: every node sends its phases as soon as it is activated, so each slot of each \
            transmitter is a row of its own, and what a node absorbs in the time R it has left, G_p(R), is affine in R"));
    }
    if o.store_and_forward {
        parts.push(String::from("store-and-forward: a message of phase q takes (S + C v) times the links it passes, 3f for a knight phase \
            and f for a cross phase (f = 5^(k - ceil(q/2)))"));
    }
    if o.return_ratio > 0.0 {
        parts.push(format!("results returned (Fig. 9): a class sends r = {} of its and its descendants' load back, S + C r v, and the \
            transmitter computes as long as sending to, computing on and receiving results from it", short(o.return_ratio)));
    }
    if !o.speeds.is_empty() {
        parts.push(String::from("uniform processors: layer i computes A x / s_i"));
    }
    if o.gamma != 1.0 {
        parts.push(format!("computing x units takes A x^{}, so the loads are found by bisection on the deepest class's load ({} steps)",
            short(o.gamma), out.iterations.unwrap_or(0)));
    }
    let mut step = Step::new("Sec. 5's extensions", "001", "Sec. 5, Figs. 8-9", String::new());
    let mut text = if parts.is_empty() { String::from("The equations of (1) as they are.") } else { format!("The equations of (1) with {}.", parts.join("; ")) };
    if let Some(r) = &out.granularity {
        text.push_str(&format!(
            " Messages are rounded up to multiples of g = {} from the deepest class up, each load what its message leaves, the originator the rest: \
             every message and load grows by less than g, so C_max grows by at most C g per link of the chain plus A g, {} (the divisible \
             C_max {} grew by {}).",
            short(r.granularity), short(r.bound), short(r.divisible_makespan), short(r.deviation)));
        step = step.value("bound", r.bound).value("deviation", r.deviation);
    }
    step.text = text;
    step
}
