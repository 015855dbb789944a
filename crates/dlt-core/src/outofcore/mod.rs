//! 002, Drozdowski & Wolniewicz, out-of-core processing: processors whose
//! computing time is a convex piecewise-linear function of the load (memory
//! hierarchy). The LP (1)-(4) of the hierarchical distribution, and
//! multi-installment processing with equal chunks and its chunk size.

mod chunk;
mod chunk_explain;
#[cfg(feature = "lp")]
mod deadline;
#[cfg(feature = "lp")]
mod memory;
mod multi;
mod multi_explain;

pub use chunk::{chunk_size, ChunkOutput, ChunkParams};
#[cfg(feature = "lp")]
pub use memory::{memory, memory_lp, MemoryOutput, MemoryParams};
pub use multi::{multi_installment, MultiOutput, MultiParams};

use crate::error::Result;
use crate::model::define_model;
use crate::validate::{self, Field};
use alloc::format;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

pub const MAX_PROCESSORS: usize = 100_000;
pub const MAX_PIECES: usize = 16;

/// Each processor's link, `S + C x` (a field of every row of a processor
/// list, listed by its name in the row).
pub const S: Field = Field::nonneg("S");
pub const C: Field = Field::nonneg("C");
/// Each piece `a + b x` of a processor's computing time: any intercept, a
/// positive slope.
pub const INTERCEPT: Field = Field::real("a");
pub const SLOPE: Field = Field::positive("b");

/// A processor of 002: link `S + C x`, computing time max over pieces of
/// `a + b x` (the first memory level is the piece in force at small loads).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(deny_unknown_fields)]
pub struct Processor {
    #[serde(rename = "S")]
    pub s: f64,
    #[serde(rename = "C")]
    pub c: f64,
    pub pieces: Vec<(f64, f64)>,
}

impl Processor {
    /// Its computing time at load x (the same as `cost`'s, without a copy
    /// of the pieces).
    pub fn time(&self, x: f64) -> f64 {
        crate::schedule::piecewise(&self.pieces, x)
    }

    /// Its computing time as the checker reads it.
    pub fn cost(&self) -> crate::schedule::Cost {
        crate::schedule::Cost::Pieces { pieces: self.pieces.clone() }
    }
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

/// The makespan of loads sent one after another in the given order, each
/// processor computing its load from its arrival: per message the
/// processor whose link carries it, the pieces of its computing time and
/// the load.
#[cfg(feature = "lp")]
pub(crate) fn served_in_order<'a>(messages: impl IntoIterator<Item = (&'a Processor, &'a [(f64, f64)], f64)>) -> f64 {
    let mut sent = 0.0;
    messages.into_iter().map(|(q, pieces, x)| {
        sent += q.s + q.c * x;
        sent + crate::schedule::piecewise(pieces, x)
    }).fold(0.0, f64::max)
}

/// Validates a processor list given as in `memory`, naming fields by path.
pub fn processors(field: &str, list: &[Processor]) -> Result<Vec<Levels>> {
    validate::length(field, list, 1, MAX_PROCESSORS)?;
    list.iter()
        .enumerate()
        .map(|(i, p)| {
            let at = || validate::item(field, i);
            S.check_item(p.s, || format!("{}.S", at()))?;
            C.check_item(p.c, || format!("{}.C", at()))?;
            let pieces = || format!("{}.pieces", at());
            validate::length_of(&p.pieces, 1, MAX_PIECES, pieces)?;
            for (j, &(a, b)) in p.pieces.iter().enumerate() {
                INTERCEPT.check_item(a, || format!("{}[{j}][0]", pieces()))?;
                SLOPE.check_item(b, || format!("{}[{j}][1]", pieces()))?;
            }
            Ok(levels(&p.pieces))
        })
        .collect()
}

/// Every processor's computing time is >= 0 at load 0 (002's time functions
/// pass through the origin or above it).
pub fn nonnegative_at_zero(field: &str, list: &[Processor]) -> Result<()> {
    match list.iter().position(|q| q.time(0.0) < 0.0) {
        Some(i) => Err(crate::error::Error::range(
            format!("{field}[{i}].pieces"),
            "the computing time at load 0 must be >= 0: some piece needs an intercept >= 0",
        )),
        None => Ok(()),
    }
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

#[cfg(feature = "lp")]
define_model! {
    /// LP (1)-(4) of 002: a star of processors with memory hierarchies.
    Memory: "memory", "002 LP (1)-(4): a star of processors whose computing time is convex piecewise linear", include_str!("../../../../examples/memory.json"),
    MemoryParams => MemoryOutput = memory, fields = &[crate::costs::V, S, C], plan = memory::plan, lp = memory_lp as "memory hierarchy LP (1)-(4) (002)" by |_| &memory::HIERARCHY
}

define_model! {
    /// 002 Sec. 4: equal chunks dealt round robin.
    MultiInstallment: "multi_installment", "002 Sec. 4: multi-installment processing in equal chunks beta", include_str!("../../../../examples/multi_installment.json"),
    MultiParams => MultiOutput = multi_installment, fields = multi::FIELDS, explain = multi_explain::explain
}

define_model! {
    /// 002 heuristic (5) for the chunk size and its admissible range.
    ChunkSize: "chunk_size", "002 (5): the chunk size heuristic and its admissible range", include_str!("../../../../examples/chunk_size.json"),
    ChunkParams => ChunkOutput = chunk_size, fields = chunk::FIELDS, explain = chunk_explain::explain
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    #[test]
    fn swap_point_is_where_the_levels_meet() {
        // 002's example: A^l = (1, 1), A^h = (-9, 10): swap point 10/9.
        let l = levels(&[(1.0, 1.0), (-9.0, 10.0)]);
        assert_eq!((l.core, l.out), ((1.0, 1.0), (-9.0, 10.0)));
        assert_abs_diff_eq!(l.swap_point, 10.0 / 9.0, epsilon = 1e-15);
        assert_eq!(levels(&[(0.0, 1.0)]).swap_point, f64::INFINITY);
    }
}
