//! 000, Drozdowski & Wolniewicz, limited communication buffers: the LPs of
//! stars and trees (with the LP layer), the buffer size D* of Sec. 5 and the
//! LB strategy of Sec. 4.2.

mod dstar;
mod lb;
#[cfg(feature = "lp")]
mod star;

pub use dstar::{d_star, DstarOutput, DstarParams, Topology};
pub use lb::{lb_layer, LbLayer, LbOutput, LbParams};
#[cfg(feature = "lp")]
pub use star::{star, star_lp, LpSize, StarOutput, StarParams};

use crate::validate;

/// Bounds of tree shapes: deeper or wider trees overflow f64 in p^h.
pub(crate) const MAX_P: usize = 100;
pub(crate) const MAX_H: usize = 100;
pub(crate) const MAX_M: usize = 1_000_000;


/// Most stages of an LP model, and most messages (processors x stages).
pub const MAX_STAGES: usize = 100_000;
pub const MAX_MESSAGES: usize = 200_000;

/// A chunk at most this many load units (of the LP's unit) counts as empty.
pub(crate) const EMPTY: f64 = 1e-9;

/// 000 Sec. 3: the LPs charge S even for empty messages; `Pruned` drops
/// superfluous stages and processors successively and re-solves, as the
/// paper did; `Raw` is the LP exactly as printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prune {
    Pruned,
    Raw,
}

impl From<Option<bool>> for Prune {
    fn from(p: Option<bool>) -> Self {
        if p.unwrap_or(true) { Prune::Pruned } else { Prune::Raw }
    }
}

/// The number of stages: `n` if given, else n_min; n_min <= n and the LP
/// stays within MAX_STAGES stages and MAX_MESSAGES messages of `per_stage`.
pub(crate) fn stage_count(n: Option<f64>, n_min: f64, per_stage: usize) -> crate::error::Result<(usize, usize)> {
    let most = MAX_STAGES.min(MAX_MESSAGES / per_stage.max(1));
    if !(n_min <= most as f64) {
        return Err(crate::error::Error::range("D", alloc::format!(
            "D is too small for V: it needs n_min = {n_min} stages, more than the {most} an LP here can have")));
    }
    let n_min = n_min as usize;
    let n = match n {
        Some(n) => validate::integer("n", n, n_min, most)?,
        None => n_min,
    };
    Ok((n, n_min))
}

/// LP units: load in min(V, D) so that buffer bounds are O(1), time in a
/// natural time of the instance (`tau`), so that the engine's absolute
/// tolerances act as relative ones.
pub(crate) fn units(v: f64, d: Option<f64>, tau: f64) -> (f64, f64) {
    (d.map_or(v, |d| d.min(v)), tau)
}
