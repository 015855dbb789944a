//! Explain mode for the LB strategy (000 Sec. 4.2): each layer alone with
//! its n*, the layer of the least C_max(n*), the whole number of stages
//! the schedule runs, and the bound that holds whatever n.

use super::lb::{lb_layer, LbParams};
use crate::error::Result;
use crate::explain::{short, Explanation, Step};
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

pub fn explain(params: &LbParams) -> Result<Explanation> {
    let out = lb_layer(params)?;
    let mut each = Step::new(
        "Each layer alone",
        "000",
        "Sec. 4.2",
        "Layers 1..i-1 only relay and layer i, of p(p+1)^(i-1) processors, computes V in n equal stages: \
         C_max(n) = n(iS + CV/(np)) + AV/(n p(p+1)^(i-1)), least at n* = sqrt(AV/(iSp(p+1)^(i-1))).",
    );
    for l in &out.layers {
        each = each.value(format!("n* of layer {}", l.layer), l.n_star).value(format!("C_max(n*) of layer {}", l.layer), l.bound);
    }
    let best = out.layers.iter().find(|l| l.layer == out.layer).ok_or_else(|| crate::error::Error::internal("no chosen layer"))?;
    let choice = Step::new(
        format!("LB = {} with layer {}", short(out.lb), out.layer),
        "000",
        "Sec. 4.2",
        format!(
            "LB is the least C_max(n*) over the layers: layer {} of {} processors, at n* = {}. It takes n* fractional and the computing \
             hidden behind the communication, so it is the paper's estimate, not a bound.",
            out.layer, short(best.processors), short(best.n_star)
        ),
    )
    .value("LB", out.lb)
    .value("layer", out.layer as f64)
    .value("processors", best.processors);
    let whole = Step::new(
        format!("{} whole stages: {}", out.n, short(out.schedule.makespan)),
        "000",
        "Sec. 4.2",
        format!(
            "The schedule sends {} equal chunks to layer {}, n* rounded to the better whole number; each chunk is computed after it \
             arrives and after the one before, so the schedule ends at {}.{}",
            out.n, out.layer, short(out.schedule.makespan), notes(&out.warnings)
        ),
    )
    .value("n", out.n as f64)
    .value("makespan", out.schedule.makespan);
    let bound = Step::new(
        format!("Lower bound {}", short(out.lower_bound)),
        "000",
        "Sec. 4.2",
        "With one layer computing no schedule ends before all its messages and then the last chunk, nor before the first message \
         and then all the layer's computing: the least over layers and whole n of the larger of the two.",
    )
    .value("lower bound", out.lower_bound);
    Ok(Explanation { steps: vec![each, choice, whole, bound] })
}

fn notes(warnings: &[String]) -> String {
    let listed: Vec<String> = warnings.iter().map(|w| format!(" Note: {w}.")).collect();
    listed.concat()
}
