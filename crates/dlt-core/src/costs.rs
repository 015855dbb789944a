//! The linear costs every buffer and torus model shares (000 Sec. 2,
//! 001 Sec. 2): a message of x load units takes S + C x to send, and x
//! units take A x to compute. The request fields are defined here once and
//! flattened into each model's parameters.

use crate::error::Result;
use crate::validate;
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

impl Costs {
    pub const fn new(s: f64, c: f64, a: f64) -> Self {
        Costs { s, c, a }
    }

    /// S >= 0, C >= 0, A > 0: a free network is a model's limit case,
    /// free computing is not (nothing would be worth distributing).
    pub fn validate(&self) -> Result<Self> {
        Ok(Costs { s: validate::nonneg("S", self.s)?, c: validate::nonneg("C", self.c)?, a: validate::positive("A", self.a)? })
    }
}

impl Load {
    pub const fn new(s: f64, c: f64, a: f64, v: f64) -> Self {
        Load { costs: Costs::new(s, c, a), v }
    }

    /// The costs' ranges and V > 0.
    pub fn validate(&self) -> Result<Self> {
        Ok(Load { costs: self.costs.validate()?, v: validate::positive("V", self.v)? })
    }
}
