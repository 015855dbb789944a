//! 001 Sec. 5's extensions as options of the torus request, and their
//! validation. Every option has a value that switches it off (the default),
//! and a request with all of them off is solved by today's recurrence
//! (2)-(3) unchanged ([`Options::is_default`]).

use super::wavefront;
use crate::error::{Error, Result};
use crate::validate::{self, Field};
use alloc::format;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

pub const PORTS: Field = Field::integer("ports", 1, 4);
pub const GRANULARITY: Field = Field::positive("granularity");
/// Result data per unit of load; 1e6 is far beyond any feasible return.
pub const RETURN_RATIO: Field = Field::between("return_ratio", 0.0, 1e6);
/// Computing time A x^gamma: convex or linear.
pub const GAMMA: Field = Field::between("gamma", 1.0, 3.0);
pub const SPEEDS: Field = Field::positive("speeds");
/// Largest k of the wave-front scattering: 5^k - 1 = 624 layers.
pub const WAVEFRONT_MAX_K: usize = 4;

/// How a message travels from a transmitter to its receiver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum Routing {
    /// 001's model: a circuit is set up, the time does not depend on the
    /// distance.
    #[default]
    Circuit,
    /// Every link on the way receives the whole message before passing it
    /// on (Sec. 5): the communication time times the links passed.
    StoreAndForward,
}

/// Which processors each phase activates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum Scattering {
    /// 001 Sec. 3: knight and cross moves, every active node sends.
    #[default]
    PetersSyska,
    /// 001's reference [4] (Fig. 8): the wave front of the nearest idle
    /// nodes, layer j the nodes j links from the originator, relayed by
    /// the layer before it only; all processors of a layer alike.
    Wavefront,
}

/// The options, validated.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Messages a transmitter sends at once: 1, 2 or 4.
    pub ports: usize,
    pub store_and_forward: bool,
    pub granularity: Option<f64>,
    /// Result data per unit of load; 0: no results are returned.
    pub return_ratio: f64,
    /// Speed of each layer's processors, the last repeated for deeper
    /// layers; empty: all 1.
    pub speeds: Vec<f64>,
    pub gamma: f64,
    pub wavefront: bool,
    /// Sends without phase barriers (asynchronous.rs), k <= 2.
    pub asynchronous: bool,
}

impl Options {
    /// No option changes 001 Sec. 3's model.
    pub fn is_default(&self) -> bool {
        self.ports == 4
            && !self.store_and_forward
            && self.granularity.is_none()
            && self.return_ratio == 0.0
            && self.speeds.iter().all(|&s| s == 1.0)
            && self.gamma == 1.0
            && !self.wavefront
            && !self.asynchronous
    }

    /// Transmissions one after the other in a phase: 4 / ports.
    pub fn slots(&self) -> usize {
        4 / self.ports
    }

    /// The classes of n phases, the originator's included (`chain::classes`).
    pub fn classes(&self, n: usize) -> usize {
        1 + n * if self.wavefront { 1 } else { self.slots() }
    }

    /// Speed of layer i's processors.
    pub fn speed(&self, layer: usize) -> f64 {
        self.speeds.get(layer).or(self.speeds.last()).copied().unwrap_or(1.0)
    }

    /// The number of phases that activate the whole torus: 2k, or 5^k - 1
    /// for the wave front.
    pub fn max_phases(&self, k: usize) -> usize {
        if self.wavefront { wavefront::max_layer(k) } else { 2 * k }
    }

    /// Links a message of phase q passes (k: the torus is 5^k x 5^k).
    /// Peters-Syska: step s = ceil(q/2) moves by f = 5^(k-s); its knight
    /// phase (odd q) goes f links one way and 2f to the left, 3f links in
    /// all, its cross phase f links (activation.rs draws these moves). The
    /// wave front reaches the nearest idle nodes: one link. Under circuit
    /// switching the distance does not count, so 1.
    pub fn hops(&self, k: usize, q: usize) -> f64 {
        if !self.store_and_forward || self.wavefront {
            return 1.0;
        }
        let f = libm::pow(5.0, (k - q.div_ceil(2)) as f64);
        if q % 2 == 1 { 3.0 * f } else { f }
    }
}

impl Options {
    /// The options of request `p` (`None`: off), for a torus of 5^k x 5^k.
    pub fn of(p: &super::Params, k: usize) -> Result<Options> {
        let wavefront = p.scattering == Some(Scattering::Wavefront);
        if wavefront && k > WAVEFRONT_MAX_K {
            return Err(Error::range("k", format!(
                "with scattering \"wavefront\" k must be a whole number from 1 to {WAVEFRONT_MAX_K} (5^k - 1 layers), got {k}")));
        }
        let ports = match p.ports {
            None => 4,
            Some(x) => match PORTS.count(x)? {
                3 => return Err(Error::range("ports", "ports must be 1, 2 or 4, got 3")),
                p => p,
            },
        };
        if wavefront && ports != 4 {
            return Err(Error::range("ports", "ports below 4 apply to Peters-Syska scattering; the wave front's relays send to all their new neighbours at once"));
        }
        let return_ratio = p.return_ratio.map_or(Ok(0.0), |r| RETURN_RATIO.check(r))?;
        let gamma = p.gamma.map_or(Ok(1.0), |g| GAMMA.check(g))?;
        let granularity = p.granularity.map(|g| GRANULARITY.check(g)).transpose()?;
        if granularity.is_some() && (gamma != 1.0 || return_ratio > 0.0 || wavefront) {
            return Err(Error::range("granularity", "granularity applies to linear computing (gamma 1) without results returned, under Peters-Syska scattering: the paper's bound is derived for that case"));
        }
        let mut opts = Options {
            ports,
            store_and_forward: p.routing == Some(Routing::StoreAndForward),
            granularity,
            return_ratio,
            speeds: Vec::new(),
            gamma,
            wavefront,
            asynchronous: p.asynchronous == Some(true),
        };
        if opts.asynchronous {
            if k > super::asynchronous::MAX_K {
                return Err(Error::range("k", format!(
                    "with asynchronous sends k must be a whole number from 1 to {} (a row per slot of every transmitter), got {k}",
                    super::asynchronous::MAX_K)));
            }
            if gamma != 1.0 || return_ratio > 0.0 || granularity.is_some() || wavefront {
                return Err(Error::range("asynchronous", "asynchronous sends apply to Peters-Syska scattering with linear computing (gamma 1), no results returned and no granularity"));
            }
        }
        if let Some(speeds) = &p.speeds {
            validate::length("speeds", speeds, 1, opts.max_phases(k) + 1)?;
            for (i, &s) in speeds.iter().enumerate() {
                SPEEDS.check_item(s, || validate::item("speeds", i))?;
            }
            opts.speeds = speeds.clone();
        }
        Ok(opts)
    }
}
