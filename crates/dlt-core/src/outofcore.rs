//! 002's closed forms for out-of-core processing: swap points, the chunk
//! size heuristic (5) of multi-installment processing and the interval of
//! chunk sizes that can beat computing out-of-core. The LP (1)-(4) lives
//! with the LP layer.

use crate::error::{Error, Result};
use crate::validate;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

pub const MAX_PROCESSORS: usize = 100_000;
pub const MAX_PIECES: usize = 16;

/// A processor of 002: link `S + C x`, computing time max over pieces of
/// `a + b x` (the first memory level is the piece in force at small loads).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Processor {
    #[serde(rename = "S")]
    pub s: f64,
    #[serde(rename = "C")]
    pub c: f64,
    pub pieces: Vec<(f64, f64)>,
}

/// A processor's time function read as two memory levels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Levels {
    /// (A^l_1, A^l_2): the piece in force at small loads (core).
    pub core: (f64, f64),
    /// (A^h_1, A^h_2): the piece in force at large loads (out-of-core).
    pub out: (f64, f64),
    /// Load where the core piece stops being the maximum; infinite with
    /// one piece.
    pub swap_point: f64,
}

/// Validates a processor list given as in `memory`, naming fields by path.
pub fn processors(field: &str, list: &[Processor]) -> Result<Vec<Levels>> {
    validate::length(field, list, 1, MAX_PROCESSORS)?;
    list.iter()
        .enumerate()
        .map(|(i, p)| {
            let at = validate::item(field, i);
            validate::nonneg(&format!("{at}.S"), p.s)?;
            validate::nonneg(&format!("{at}.C"), p.c)?;
            let field = format!("{at}.pieces");
            validate::length(&field, &p.pieces, 1, MAX_PIECES)?;
            for (j, &(a, b)) in p.pieces.iter().enumerate() {
                validate::real(&format!("{field}[{j}][0]"), a)?;
                validate::positive(&format!("{field}[{j}][1]"), b)?;
            }
            Ok(levels(&p.pieces))
        })
        .collect()
}

/// The pieces active at load 0+ and at infinity, and where the first ends.
pub fn levels(pieces: &[(f64, f64)]) -> Levels {
    let core = *pieces.iter().max_by(|x, y| x.0.total_cmp(&y.0).then(y.1.total_cmp(&x.1))).unwrap_or(&(0.0, 0.0));
    let out = *pieces.iter().max_by(|x, y| x.1.total_cmp(&y.1).then(x.0.total_cmp(&y.0))).unwrap_or(&core);
    let swap_point = pieces
        .iter()
        .filter(|p| p.1 > core.1)
        .map(|p| (core.0 - p.0) / (p.1 - core.1))
        .fold(f64::INFINITY, f64::min)
        .max(0.0);
    Levels { core, out, swap_point }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChunkParams {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub m: Option<f64>,
    #[serde(rename = "S", default, skip_serializing_if = "Option::is_none")]
    pub s: Option<f64>,
    #[serde(rename = "C", default, skip_serializing_if = "Option::is_none")]
    pub c: Option<f64>,
    #[serde(rename = "Al1", default, skip_serializing_if = "Option::is_none")]
    pub al1: Option<f64>,
    #[serde(rename = "Al2", default, skip_serializing_if = "Option::is_none")]
    pub al2: Option<f64>,
    #[serde(rename = "Ah1", default, skip_serializing_if = "Option::is_none")]
    pub ah1: Option<f64>,
    #[serde(rename = "Ah2", default, skip_serializing_if = "Option::is_none")]
    pub ah2: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub processors: Option<Vec<Processor>>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChunkOutput {
    /// Heuristic (5); `None` where its numerator and denominator are not
    /// both positive for some processor.
    pub beta: Option<f64>,
    /// Chunk sizes for which multi-installment processing can beat
    /// out-of-core computing: (low, high].
    pub beta_min: Option<f64>,
    pub beta_max: f64,
    /// Whether beta lies in that interval.
    pub admissible: bool,
    pub swap_points: Vec<f64>,
    pub warnings: Vec<String>,
}

fn uniform(p: &ChunkParams) -> Result<Vec<Processor>> {
    let need = |field: &str, x: Option<f64>| {
        x.ok_or_else(|| Error::range(field, format!("{field} is required unless processors are listed")))
    };
    let m = validate::integer("m", need("m", p.m)?, 1, MAX_PROCESSORS)?;
    let one = Processor {
        s: need("S", p.s)?,
        c: need("C", p.c)?,
        pieces: vec![(need("Al1", p.al1)?, need("Al2", p.al2)?), (need("Ah1", p.ah1)?, need("Ah2", p.ah2)?)],
    };
    Ok(vec![one; m])
}

/// Field names of the uniform form, for messages about processor 0.
fn uniform_field(field: &str) -> String {
    let names = [("processors[0].pieces[0][0]", "Al1"), ("processors[0].pieces[0][1]", "Al2"),
                 ("processors[0].pieces[1][0]", "Ah1"), ("processors[0].pieces[1][1]", "Ah2"),
                 ("processors[0].S", "S"), ("processors[0].C", "C")];
    names.iter().find(|(long, _)| *long == field).map_or_else(|| String::from(field), |(_, short)| String::from(*short))
}

pub fn chunk_size(p: &ChunkParams) -> Result<ChunkOutput> {
    let (list, uniform_form) = match &p.processors {
        Some(list) => (list.clone(), false),
        None => (uniform(p)?, true),
    };
    let levels = processors("processors", &list).map_err(|mut e| {
        if uniform_form {
            e.field = uniform_field(&e.field);
            e.message = format!("{} ({})", e.message, e.field);
        }
        e
    })?;
    let m = list.len() as f64;
    let sum_s: f64 = list.iter().map(|q| q.s).sum();
    let sum_c: f64 = list.iter().map(|q| q.c).sum();
    let mut warnings = Vec::new();

    // (5): every processor computes for a whole round of m messages.
    let mut beta = Some(0.0f64);
    for (i, l) in levels.iter().enumerate() {
        let (num, den) = (sum_s - l.core.0, l.core.1 - sum_c);
        if num > 0.0 && den > 0.0 {
            beta = beta.map(|b| b.max(num / den));
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
    let swap_points: Vec<f64> = levels.iter().map(|l| l.swap_point).collect();
    let beta_max = swap_points.iter().copied().fold(f64::INFINITY, f64::min);
    let admissible = match (beta, beta_min) {
        (Some(b), Some(lo)) => b > lo && b <= beta_max,
        _ => false,
    };
    if let (Some(b), false) = (beta, admissible) {
        warnings.push(format!("beta = {b:e} lies outside the admissible interval; choose the chunk size another way"));
    }
    Ok(ChunkOutput { beta, beta_min, beta_max, admissible, swap_points, warnings })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fig10(m: f64) -> ChunkParams {
        ChunkParams { m: Some(m), s: Some(1e-3), c: Some(9.99e-5), al1: Some(0.0), al2: Some(1e-3), ah1: Some(-9.9e6), ah2: Some(0.1), processors: None }
    }

    #[test]
    fn swap_point_is_where_the_levels_meet() {
        // 002's example: A^l = (1, 1), A^h = (-9, 10): swap point 10/9.
        let l = levels(&[(1.0, 1.0), (-9.0, 10.0)]);
        assert_eq!((l.core, l.out), ((1.0, 1.0), (-9.0, 10.0)));
        assert!((l.swap_point - 10.0 / 9.0).abs() < 1e-15);
        assert_eq!(levels(&[(0.0, 1.0)]).swap_point, f64::INFINITY);
    }

    #[test]
    fn uniform_and_listed_forms_agree() {
        let u = chunk_size(&fig10(10.0)).unwrap();
        let one = Processor { s: 1e-3, c: 9.99e-5, pieces: vec![(0.0, 1e-3), (-9.9e6, 0.1)] };
        let l = chunk_size(&ChunkParams { processors: Some(vec![one; 10]), ..Default::default() }).unwrap();
        assert_eq!(u, l);
        // Uniform lower end: mS / (A^h_2 - mC).
        assert!((u.beta_min.unwrap() - 1e-2 / (0.1 - 9.99e-4)).abs() < 1e-15);
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
