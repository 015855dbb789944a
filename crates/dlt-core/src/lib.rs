//! Divisible load theory models of five papers, one module per model family,
//! each answering a typed request with a typed response or a typed error.
//! Every schedule a model returns has passed the independent [`check`]er.
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

/// Serializer methods (name and argument types) that refuse their value
/// with `$refusal`: for serializers of one kind of value only (a sweep's
/// picked objects).
#[cfg(feature = "std")]
macro_rules! refuse {
    ($refusal:expr; $($method:ident($($arg:ty),*)),* $(,)?) => {
        $(fn $method(self $(, _: $arg)*) -> Result<(), Self::Error> { Err($refusal) })*
    };
}

pub mod api;
#[cfg(feature = "std")]
mod bounded;
pub mod check;
pub mod costs;
#[cfg(feature = "lp")]
pub mod lp;
pub mod error;
pub mod explain;
#[cfg(feature = "std")]
mod json_text;
pub mod model;
pub mod schedule;
mod sort;
#[cfg(feature = "std")]
pub mod sweep;
#[cfg(feature = "std")]
mod tracked;
pub mod validate;

pub mod buffers;
#[cfg(feature = "lp")]
pub mod hetero;
#[cfg(feature = "lp")]
pub mod isoefficiency;
pub mod nonlinear;
pub mod outofcore;
pub mod torus;

pub use api::{explain, plan, solve, solve_with_progress, Request, Response, MODELS};

/// The configuration of the core's property tests: `cases` random
/// instances, the same ones on every run (seed 0; the environment's
/// `PROPTEST_RNG_SEED` and `PROPTEST_CASES` explore others), and no
/// regression files written.
#[cfg(test)]
pub(crate) fn cases(cases: u32) -> proptest::test_runner::Config {
    use proptest::test_runner::{Config, RngSeed};
    Config { cases, rng_seed: RngSeed::Fixed(0), failure_persistence: None, ..Config::default() }
}
#[cfg(feature = "std")]
pub use api::{parse, parse_text};
#[cfg(feature = "lp")]
pub use api::{export, LpFormat};
pub use error::{Code, Error, Result};
pub use schedule::Schedule;
pub(crate) use check::checked;
