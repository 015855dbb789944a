//! 000, Drozdowski & Wolniewicz, limited communication buffers: the LPs of
//! stars and trees (with the LP layer), the buffer size D* of Sec. 5 and the
//! LB strategy of Sec. 4.2.

#[cfg(feature = "lp")]
mod best;
#[cfg(feature = "lp")]
mod binomial;
#[cfg(feature = "lp")]
mod chains;
mod dstar;
mod dstar_explain;
mod lb;
mod lb_explain;
#[cfg(feature = "lp")]
mod full_stages;
#[cfg(feature = "lp")]
mod listing;
#[cfg(feature = "lp")]
mod sequential;
#[cfg(feature = "lp")]
mod stages;
#[cfg(feature = "lp")]
pub(crate) mod staging;
#[cfg(feature = "lp")]
mod star;
#[cfg(feature = "lp")]
mod tree;

#[cfg(feature = "lp")]
pub use binomial::{binomial, binomial_lp, BinomialOutput, BinomialParams, Order};
pub use dstar::{d_star, DstarOutput, DstarParams, Topology};
pub use lb::{lb_layer, LbLayer, LbOutput, LbParams};

use crate::model::define_model;
use crate::validate::Field;
#[cfg(feature = "lp")]
pub use best::{BestReport, Subsystem};
#[cfg(feature = "lp")]
pub use listing::Omitted;
#[cfg(feature = "lp")]
pub use stages::{LpSize, Prune, Stages};
#[cfg(feature = "lp")]
pub(crate) use stages::EMPTY;
#[cfg(feature = "lp")]
pub use star::{star, star_lp, StarOutput, StarParams};
#[cfg(feature = "lp")]
pub use tree::{pruning_lp, tree, tree_lp, TreeOutput, TreeParams};


/// Bounds of tree shapes: deeper or wider trees overflow f64 in p^h.
pub(crate) const MAX_P: usize = 100;
pub(crate) const MAX_H: usize = 100;
pub(crate) const MAX_M: usize = 1_000_000;
pub(crate) const P: Field = Field::integer("p", 1, MAX_P);
pub(crate) const H: Field = Field::integer("h", 1, MAX_H);

/// Most processors in the deepest layer of a tree solved by an LP. Its
/// chunks are per processor, and the deepest layer's buffer is about
/// 1/`layer(h)` of the first's: beyond 1e8 the engine's tolerances (1e-9
/// of a buffer) no longer tell them apart, and its answers broke the
/// buffers, read as infeasible or as all empty (the fuzzer's binomial tree
/// p = 2, h = 25; in 300 random trees and binomial trees the first
/// failures were at 5.4e8 and 6.1e9 a layer, 1.2e11 for binomial trees).
/// HiGHS fails on the same LPs from 2e9-2e10. The papers' trees have at
/// most 4^10 (1e6).
#[cfg(feature = "lp")]
pub(crate) const MAX_LAYER: f64 = 1e8;

/// base^0, ..., base^h by products: for a whole base, libm's pow to the
/// bit while a power stays below 2^53 (every layer up to MAX_LAYER; an
/// error within 1 ulp of a representable power is that power), at a
/// fraction of its cost: pow was 2.5 % of a binomial tree's one-stage
/// solve in Chromium.
#[cfg(feature = "lp")]
pub(crate) fn powers(base: f64, h: usize) -> alloc::vec::Vec<f64> {
    core::iter::successors(Some(1.0), |x| Some(x * base)).take(h + 1).collect()
}

/// `h`, refused naming its largest value for this p where `layer(h)`, the
/// processors in layer h (`formula`), is above MAX_LAYER.
#[cfg(feature = "lp")]
pub(crate) fn deepest_layer(p: f64, h: usize, formula: &str, layer: impl Fn(usize) -> f64) -> crate::error::Result<()> {
    if layer(h) <= MAX_LAYER {
        return Ok(());
    }
    let most = (1..h).rev().find(|&h| layer(h) <= MAX_LAYER).unwrap_or(0);
    Err(crate::error::Error::range("h", alloc::format!(
        "h must be at most {most} for p = {p}, got {h}: layer h has {formula} = {:.3e} processors, at most {MAX_LAYER:.0e} (the LP's precision)", layer(h))))
}

#[cfg(feature = "lp")]
define_model! {
    /// LoadDirect (000 Sec. 3.1): a star with buffers of size D.
    Star: "star", "000 LoadDirect: a star with buffers D over n stages (n_min by default)", include_str!("../../../../examples/star.json"),
    StarParams => StarOutput = star, fields = star::FIELDS, plan = star::plan, lp = star_lp as "LoadDirect (000)" by |_| &sequential::LOAD_DIRECT
}

#[cfg(feature = "lp")]
define_model! {
    /// TreeNLF/LLF-1/-2 (000 Sec. 3.2): an ordinary tree of p children a node
    /// and h layers, with one or two buffers.
    OrdinaryTree: "tree", "000 TreeNLF/LLF-1/-2: an ordinary tree with buffers D", include_str!("../../../../examples/tree.json"),
    TreeParams => TreeOutput = tree, fields = tree::FIELDS, plan = tree::plan, lp = tree_lp as "ordinary tree LP (000)" by |q| tree::variant(q.order, q.buffers == 1.0).1
}

#[cfg(feature = "lp")]
define_model! {
    /// BinomialTreeNLF/LLF (000 Sec. 3.3).
    BinomialTree: "binomial", "000 BinomialTreeNLF/LLF: a binomial tree with buffers D", include_str!("../../../../examples/binomial.json"),
    BinomialParams => BinomialOutput = binomial, fields = binomial::FIELDS, plan = binomial::plan, lp = binomial_lp as "BinomialTreeNLF/LLF (000)" by |q| match q.order {
        Order::Nlf => &sequential::BINOMIAL_NLF,
        Order::Llf => &sequential::BINOMIAL_LLF,
    }
}

define_model! {
    /// The buffer size D* of 000 Sec. 5.
    BufferDstar: "buffer_dstar", "000 Sec. 5: the buffer size D* beyond which a larger buffer does not help", include_str!("../../../../examples/buffer_dstar.json"),
    DstarParams => DstarOutput = d_star, fields = dstar::FIELDS, explain = dstar_explain::explain
}

define_model! {
    /// The LB strategy of 000 Sec. 4.2: one layer computes.
    LbStrategy: "lb_layer", "000 Sec. 4.2: the LB strategy, one layer of a binomial tree computing in n* equal stages", include_str!("../../../../examples/lb_layer.json"),
    LbParams => LbOutput = lb_layer, fields = lb::FIELDS, explain = lb_explain::explain
}

/// Without start-ups or communication only the buffers bind: the least
/// peak load L per processor at which the layers carry V, `carried(L)`
/// (each layer's processors times min(L, what n stages of its buffers
/// hold)), found by bisection on [0, `most`]: the optimum is then A L.
#[cfg(test)]
pub(crate) fn water_level(v: f64, most: f64, carried: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.0, most);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if carried(mid) >= v { hi = mid } else { lo = mid }
    }
    hi
}

/// Every power a tree or binomial tree of the form's p and h can hold in
/// a layer the LP solves (up to MAX_LAYER, and on to 2^53): `powers`'
/// products are libm's pow to the bit. Fails where the products drift:
/// for a base that is not whole, 1.1, 51 of the first 59 differ.
#[cfg(test)]
#[test]
fn powers_are_pow_to_the_bit() {
    let mut compared = 0;
    for base in 1..=MAX_P + 1 {
        let (base, all) = (base as f64, powers(base as f64, MAX_H));
        for (i, &x) in all.iter().enumerate().take_while(|(_, &x)| x < 9.007_199_254_740_992e15) {
            assert_eq!(x.to_bits(), libm::pow(base, i as f64).to_bits(), "{base}^{i}");
            compared += 1;
        }
    }
    assert!(compared > 1000, "{compared} powers compared");
}
