//! 000, Drozdowski & Wolniewicz, limited communication buffers: the LPs of
//! stars and trees (with the LP layer), the buffer size D* of Sec. 5 and the
//! LB strategy of Sec. 4.2.

#[cfg(feature = "lp")]
mod binomial;
mod dstar;
mod lb;
#[cfg(feature = "lp")]
mod full_stages;
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

use crate::model::closed_form;
#[cfg(feature = "lp")]
use crate::error::Result;
#[cfg(feature = "lp")]
use crate::model::{Export, Model, Plan, Progress};
#[cfg(feature = "lp")]
pub use stages::{LpSize, Prune};
#[cfg(feature = "lp")]
pub(crate) use stages::EMPTY;
#[cfg(feature = "lp")]
pub use star::{star, star_lp, StarOutput, StarParams};
#[cfg(feature = "lp")]
pub use tree::{tree, tree_lp, TreeOutput, TreeParams};


/// Bounds of tree shapes: deeper or wider trees overflow f64 in p^h.
pub(crate) const MAX_P: usize = 100;
pub(crate) const MAX_H: usize = 100;
pub(crate) const MAX_M: usize = 1_000_000;

/// LoadDirect (000 Sec. 3.1): a star with buffers of size D.
#[cfg(feature = "lp")]
pub struct Star;

#[cfg(feature = "lp")]
impl Model for Star {
    const NAME: &'static str = "star";
    const SUMMARY: &'static str = "000 LoadDirect: a star with buffers D over n stages (n_min by default)";
    const EXAMPLE: &'static str = include_str!("../../../../examples/star.json");
    const HAS_LP: bool = true;
    type Params = StarParams;
    type Output = StarOutput;
    fn solve(p: &StarParams, _: &mut Progress) -> Result<StarOutput> {
        star(p)
    }
    fn plan(p: &StarParams) -> Result<Plan> {
        star::plan(p)
    }
    fn lp(p: &StarParams) -> Option<Result<Export>> {
        Some(star_lp(p).map(|(model, units)| Export { name: "LoadDirect (000)", model, units }))
    }
}

/// TreeNLF/LLF-1/-2 (000 Sec. 3.2): an ordinary tree of p children a node
/// and h layers, with one or two buffers.
#[cfg(feature = "lp")]
pub struct OrdinaryTree;

#[cfg(feature = "lp")]
impl Model for OrdinaryTree {
    const NAME: &'static str = "tree";
    const SUMMARY: &'static str = "000 TreeNLF/LLF-1/-2: an ordinary tree with buffers D";
    const EXAMPLE: &'static str = include_str!("../../../../examples/tree.json");
    const HAS_LP: bool = true;
    type Params = TreeParams;
    type Output = TreeOutput;
    fn solve(p: &TreeParams, _: &mut Progress) -> Result<TreeOutput> {
        tree(p)
    }
    fn plan(p: &TreeParams) -> Result<Plan> {
        tree::plan(p)
    }
    fn lp(p: &TreeParams) -> Option<Result<Export>> {
        Some(tree_lp(p).map(|(model, units)| Export { name: "ordinary tree LP (000)", model, units }))
    }
}

/// BinomialTreeNLF/LLF (000 Sec. 3.3).
#[cfg(feature = "lp")]
pub struct BinomialTree;

#[cfg(feature = "lp")]
impl Model for BinomialTree {
    const NAME: &'static str = "binomial";
    const SUMMARY: &'static str = "000 BinomialTreeNLF/LLF: a binomial tree with buffers D";
    const EXAMPLE: &'static str = include_str!("../../../../examples/binomial.json");
    const HAS_LP: bool = true;
    type Params = BinomialParams;
    type Output = BinomialOutput;
    fn solve(p: &BinomialParams, _: &mut Progress) -> Result<BinomialOutput> {
        binomial(p)
    }
    fn plan(p: &BinomialParams) -> Result<Plan> {
        binomial::plan(p)
    }
    fn lp(p: &BinomialParams) -> Option<Result<Export>> {
        Some(binomial_lp(p).map(|(model, units)| Export { name: "BinomialTreeNLF/LLF (000)", model, units }))
    }
}

closed_form! {
    /// The buffer size D* of 000 Sec. 5.
    BufferDstar: "buffer_dstar", "000 Sec. 5: the buffer size D* beyond which a larger buffer does not help", include_str!("../../../../examples/buffer_dstar.json"),
    DstarParams => DstarOutput = d_star
}

closed_form! {
    /// The LB strategy of 000 Sec. 4.2: one layer computes.
    LbStrategy: "lb_layer", "000 Sec. 4.2: the LB strategy, one layer of a binomial tree computing in n* equal stages", include_str!("../../../../examples/lb_layer.json"),
    LbParams => LbOutput = lb_layer
}
