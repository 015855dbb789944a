//! Explain mode for D* (000 Sec. 5): the requirement D* solves, its
//! existence condition with the request's numbers, and D* evaluated.

use super::dstar::{terms, DstarParams};
use crate::error::Result;
use crate::explain::{short, Explanation, Step};
use alloc::format;
use alloc::vec;

pub fn explain(params: &DstarParams) -> Result<Explanation> {
    let t = terms(params)?;
    let d_star = t.value();
    let requirement = Step::new(
        "The requirement",
        "000", "Sec. 5",
        format!(
            "Every message from the originator is D* long, and the layer with the least load must keep computing until the next stage: \
             its computing time is at least one stage's communication, {}.",
            t.requirement
        ),
    );
    let holds = if d_star.is_some() { "holds" } else { "fails" };
    let condition = Step::new(
        format!("Existence: {} {holds}", t.condition),
        "000", "Sec. 5",
        format!(
            "D* > 0 only where computing outpaces communication per unit of D*, {}. Here it reads {} {} {}: it {holds}.{}",
            t.condition,
            short(t.computing),
            if d_star.is_some() { ">" } else { "≤" },
            short(t.communication),
            if d_star.is_some() { "" } else { " Idle times are inevitable whatever the buffer." }
        ),
    )
    .value("computing", t.computing)
    .value("communication", t.communication);
    let value = match d_star {
        Some(d) => Step::new(
            format!("D* = {}", short(d)),
            "000", "Sec. 5",
            format!(
                "{}, with the request's numbers {} / ({} - {}) = {}. A larger buffer does not keep the processors busier.",
                t.formula, short(t.numerator), short(t.computing), short(t.communication), short(d)
            ),
        )
        .value("numerator", t.numerator)
        .value("D*", d),
        None => Step::new("No D*", "000", "Sec. 5", format!("{} has no positive value: its denominator is not positive.", t.formula))
            .value("numerator", t.numerator),
    };
    Ok(Explanation { steps: vec![requirement, condition, value] })
}
