//! The linear costs every buffer and torus model shares (000 Sec. 2,
//! 001 Sec. 2): a message of x load units takes S + C x to send, and x
//! units take A x to compute. The request fields are defined here once and
//! flattened into each model's parameters.

use crate::error::Result;
use crate::validate::Field;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Costs {
    /// Start-up time of a message (the torus paper's α).
    #[serde(rename = "S")]
    pub s: f64,
    /// Transfer time per load unit (the torus paper's τ).
    #[serde(rename = "C")]
    pub c: f64,
    /// Computing time per load unit (the torus paper's 1/σ).
    #[serde(rename = "A")]
    pub a: f64,
}

/// The load V to divide, on a network of the linear [`Costs`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Load {
    #[serde(flatten)]
    pub costs: Costs,
    /// The load, in load units.
    #[serde(rename = "V")]
    pub v: f64,
}

/// S >= 0, C >= 0, A > 0: a free network is a model's limit case, free
/// computing is not (nothing would be worth distributing); V > 0.
pub const S: Field = Field::nonneg("S");
pub const C: Field = Field::nonneg("C");
pub const A: Field = Field::positive("A");
pub const V: Field = Field::positive("V");

impl Costs {
    pub const fn new(s: f64, c: f64, a: f64) -> Self {
        Costs { s, c, a }
    }

    /// The ranges of [`S`], [`C`] and [`A`].
    pub fn validate(&self) -> Result<Self> {
        Ok(Costs { s: S.check(self.s)?, c: C.check(self.c)?, a: A.check(self.a)? })
    }
}

impl Load {
    pub const fn new(s: f64, c: f64, a: f64, v: f64) -> Self {
        Load { costs: Costs::new(s, c, a), v }
    }

    /// The costs' ranges and [`V`]'s.
    pub fn validate(&self) -> Result<Self> {
        Ok(Load { costs: self.costs.validate()?, v: V.check(self.v)? })
    }
}
