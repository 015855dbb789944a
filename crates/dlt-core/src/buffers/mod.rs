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
