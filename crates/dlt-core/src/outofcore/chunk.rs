//! 002 Sec. 4: the chunk size heuristic (5) of multi-installment processing
//! and the interval of chunk sizes that can beat computing out-of-core.

use super::{processors, Processor, C, INTERCEPT, MAX_PROCESSORS, S, SLOPE};
use crate::error::{Error, Result};
use crate::validate::Field;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// The uniform form's fields: m processors alike, with the ranges of a
/// listed processor's S, C and pieces.
const M: Field = Field::integer("m", 1, MAX_PROCESSORS);
const AL1: Field = INTERCEPT.named("Al1");
const AL2: Field = SLOPE.named("Al2");
const AH1: Field = INTERCEPT.named("Ah1");
const AH2: Field = SLOPE.named("Ah2");
pub(super) const FIELDS: &[Field] = &[M, S, C, AL1, AL2, AH1, AH2];

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(deny_unknown_fields)]
pub struct ChunkParams {
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub m: Option<f64>,
    #[serde(rename = "S", default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub s: Option<f64>,
    #[serde(rename = "C", default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub c: Option<f64>,
    #[serde(rename = "Al1", default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub al1: Option<f64>,
    #[serde(rename = "Al2", default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub al2: Option<f64>,
    #[serde(rename = "Ah1", default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub ah1: Option<f64>,
    #[serde(rename = "Ah2", default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub ah2: Option<f64>,
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub processors: Option<Vec<Processor>>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct ChunkOutput {
    /// Heuristic (5); `None` where its numerator and denominator are not
    /// both positive for some processor.
    pub beta: Option<f64>,
    /// Chunk sizes for which multi-installment processing can beat
    /// out-of-core computing: (low, high].
    pub beta_min: Option<f64>,
    /// The smallest swap point; absent when no processor swaps.
    pub beta_max: Option<f64>,
    /// Whether beta lies in that interval.
    pub admissible: bool,
    /// Each processor's swap point; null for one that never swaps.
    pub swap_points: Vec<Option<f64>>,
    pub warnings: Vec<String>,
}

/// The uniform form's processors, each field checked by its name.
fn uniform(p: &ChunkParams) -> Result<Vec<Processor>> {
    let field = |f: Field, x: Option<f64>| {
        let x = x.ok_or_else(|| Error::range(f.name(), format!("{} is required unless processors are listed", f.name())))?;
        f.check(x)
    };
    let m = M.count(field(M, p.m)?)?;
    let one = Processor {
        s: field(S, p.s)?,
        c: field(C, p.c)?,
        pieces: vec![(field(AL1, p.al1)?, field(AL2, p.al2)?), (field(AH1, p.ah1)?, field(AH2, p.ah2)?)],
    };
    Ok(vec![one; m])
}

/// The terms the answer is made of, for explain mode: sum S, sum C, each
/// processor's numerator and denominator of (5) and their quotient (`None`
/// where they are not both positive), and the combined
/// out-of-core rate m / sum(1/A^h_2).
pub(super) struct Terms {
    pub sum_s: f64,
    pub sum_c: f64,
    pub fractions: Vec<(f64, f64)>,
    pub quotients: Vec<Option<f64>>,
    pub out_rate: f64,
}

pub fn chunk_size(p: &ChunkParams) -> Result<ChunkOutput> {
    derived(p).map(|(out, _)| out)
}

/// [`chunk_size`] and the terms it computed.
pub(super) fn derived(p: &ChunkParams) -> Result<(ChunkOutput, Terms)> {
    let list = match &p.processors {
        Some(list) => list.clone(),
        None => uniform(p)?,
    };
    let levels = processors("processors", &list)?;
    let m = list.len() as f64;
    let sum_s: f64 = list.iter().map(|q| q.s).sum();
    let sum_c: f64 = list.iter().map(|q| q.c).sum();
    let mut warnings = Vec::new();

    // (5): every processor computes for a whole round of m messages.
    let mut beta = Some(0.0f64);
    let fractions: Vec<(f64, f64)> = levels.iter().map(|l| (sum_s - l.core.0, l.core.1 - sum_c)).collect();
    let quotients: Vec<Option<f64>> = fractions.iter().map(|&(num, den)| (num > 0.0 && den > 0.0).then(|| num / den)).collect();
    for (i, (&(_, den), quotient)) in fractions.iter().zip(&quotients).enumerate() {
        if let Some(q) = quotient {
            beta = beta.map(|b| b.max(*q));
        } else {
            let why = if den <= 0.0 {
                "A^l_2 <= sum C: the processors together compute faster than the originator can send, so idle times arise"
            } else {
                "sum S <= A^l_1: messages arrive faster than the processor computes them and load piles up in buffers"
            };
            warnings.push(format!("(5) gives no chunk size for processor {}: {why}", i + 1));
            beta = None;
        }
    }
    // The round m(S + beta C) must beat computing m beta out-of-core at the
    // combined rate 1 / sum(1/A^h_2).
    let out_rate = m / levels.iter().map(|l| 1.0 / l.out.1).sum::<f64>();
    let beta_min = (out_rate > sum_c).then(|| sum_s / (out_rate - sum_c));
    if beta_min.is_none() {
        warnings.push(String::from("no chunk size beats out-of-core computing: m / sum(1/A^h_2) <= sum C"));
    }
    // The chunk must fit every processor it is sent to (NOTES.md: the text
    // says beta <= swp_i for every i, so the minimum, not the printed max).
    let swap_points: Vec<Option<f64>> = levels.iter().map(|l| l.swap_point.is_finite().then_some(l.swap_point)).collect();
    let beta_max = swap_points.iter().flatten().copied().reduce(f64::min);
    let admissible = match (beta, beta_min) {
        (Some(b), Some(lo)) => b > lo && beta_max.is_none_or(|hi| b <= hi),
        _ => false,
    };
    if let (Some(b), false) = (beta, admissible) {
        warnings.push(format!("beta = {b:e} lies outside the admissible interval; choose the chunk size another way"));
    }
    let out = ChunkOutput { beta, beta_min, beta_max, admissible, swap_points, warnings };
    Ok((out, Terms { sum_s, sum_c, fractions, quotients, out_rate }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;
    use alloc::vec;

    fn fig10(m: f64) -> ChunkParams {
        ChunkParams { m: Some(m), s: Some(1e-3), c: Some(9.99e-5), al1: Some(0.0), al2: Some(1e-3), ah1: Some(-9.9e6), ah2: Some(0.1), processors: None }
    }

    #[test]
    fn uniform_and_listed_forms_agree() {
        let u = chunk_size(&fig10(10.0)).unwrap();
        let one = Processor { s: 1e-3, c: 9.99e-5, pieces: vec![(0.0, 1e-3), (-9.9e6, 0.1)] };
        let l = chunk_size(&ChunkParams { processors: Some(vec![one; 10]), ..Default::default() }).unwrap();
        assert_eq!(u, l);
        // Uniform lower end: mS / (A^h_2 - mC).
        assert_abs_diff_eq!(u.beta_min.unwrap(), 1e-2 / (0.1 - 9.99e-4), epsilon = 1e-15);
        assert!(u.admissible);
    }

    #[test]
    fn says_why_there_is_no_beta() {
        let out = chunk_size(&ChunkParams { c: Some(1e-3), ..fig10(10.0) }).unwrap();
        assert_eq!(out.beta, None);
        assert!(out.warnings[0].contains("A^l_2 <= sum C"));
        assert_eq!(chunk_size(&ChunkParams { ah2: None, ..fig10(10.0) }).unwrap_err().field, "Ah2");
        assert_eq!(chunk_size(&ChunkParams { al2: Some(-1.0), ..fig10(10.0) }).unwrap_err().field, "Al2");
    }
}
