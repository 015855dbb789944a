//! 001: a divisible load on a 5^k x 5^k torus scattered by Peters-Syska's
//! broadcast (4-port, circuit switching), all layers finishing together.
//!
//! The paper works with fractions a_i of V and whole-load times A V, C V;
//! the API takes per-unit S, C, A and V, so loads here are a_i V.

mod activation;
mod asynchronous;
mod chain;
mod explain;
mod extended;
mod options;
mod wavefront;

pub use activation::{Activation, Map};
pub use extended::Rounding;
pub use options::{Routing, Scattering};

use crate::check::Checked;
use crate::costs::{self, Costs, Load};
use crate::error::{Error, Result};
use crate::model::define_model;
use crate::schedule::{Row, Schedule};
use crate::validate::{self, Field};
use options::Options;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// Largest k: 5^16 processors, still exact in f64.
pub const MAX_K: usize = 8;
const K: Field = Field::integer("k", 1, MAX_K);
/// At most 2k, or 5^k - 1 for the wave front: `validate` narrows it to
/// the request's k.
const PHASES: Field = Field::integer("phases", 0, 624);
const FIELDS: &[Field] = &[
    K, costs::S, costs::C, costs::A, costs::V, PHASES,
    options::PORTS, options::GRANULARITY, options::RETURN_RATIO, options::GAMMA,
];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[cfg_attr(feature = "ts", tsify(rename = "TorusParams"))]
pub struct Params {
    /// The torus is 5^k x 5^k.
    pub k: f64,
    #[serde(flatten)]
    pub load: Load,
    /// Force N phases instead of the largest feasible number.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub phases: Option<f64>,
    /// 4 (default): a transmitter sends to its four receivers at once; 2
    /// or 1: two or one at a time (Sec. 5).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub ports: Option<f64>,
    /// "circuit" (default) or "store_and_forward" (Sec. 5).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub routing: Option<Routing>,
    /// Messages rounded up to multiples of this many load units (Sec. 5).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub granularity: Option<f64>,
    /// Result data per unit of load computed, returned up the scattering
    /// tree (Fig. 9); default 0: no results returned.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub return_ratio: Option<f64>,
    /// Speed of each layer's processors (layer 0 the originator), the last
    /// one for all deeper layers: computing takes A x / speed (Sec. 5).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub speeds: Option<Vec<f64>>,
    /// Computing x units takes A x^gamma (default 1, Sec. 5).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub gamma: Option<f64>,
    /// "peters_syska" (default) or "wavefront", the scattering of 001's
    /// reference [4] (Fig. 8).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub scattering: Option<Scattering>,
    /// With 1 or 2 ports: every node sends its phases as soon as it can,
    /// without waiting for the phase's last slot (default false; k <= 2).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub asynchronous: Option<bool>,
}

impl Params {
    /// A torus of 5^k x 5^k with no option set.
    pub fn new(k: f64, load: Load) -> Self {
        Params {
            k, load, phases: None, ports: None, routing: None, granularity: None, return_ratio: None, speeds: None, gamma: None, scattering: None, asynchronous: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Layer {
    pub layer: usize,
    /// With 1 or 2 ports: the receivers' slot in their phase's sequence
    /// of sends, from 1 (a row per slot).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub slot: Option<usize>,
    /// 1 for the originator, 4 * 5^(i-1) for layer i (Table 1).
    pub processors: f64,
    /// a_i V: what each processor of the layer computes.
    pub load: f64,
    /// v_i V: the message each processor of the layer receives (V for the
    /// originator, which holds the load).
    pub received: f64,
    /// When the layer's processors start computing.
    pub activated: f64,
    pub layer_load: f64,
}

/// C_max with N phases, for every N up to 2k: Lemma 1 made visible.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct PhaseOption {
    pub phases: usize,
    /// `None` where a_N <= 0: N phases are infeasible.
    pub makespan: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[cfg_attr(feature = "ts", tsify(rename = "TorusOutput"))]
pub struct Output {
    pub k: usize,
    pub phases: usize,
    pub max_phases: usize,
    pub speedup: f64,
    pub loads: Vec<f64>,
    pub layers: Vec<Layer>,
    pub by_phases: Vec<PhaseOption>,
    #[cfg_attr(feature = "ts", tsify(type = "Activation | null"))]
    pub activation: Option<Map>,
    pub warnings: Vec<String>,
    /// With a granularity: the divisible makespan, the deviation and
    /// Sec. 5's bound on it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub granularity: Option<Rounding>,
    /// With gamma > 1: the bisection steps of the root search.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub iterations: Option<usize>,
    #[serde(flatten)]
    pub schedule: Checked,
}

#[derive(Debug, Clone, Copy)]
struct Input {
    k: usize,
    s: f64,
    c: f64,
    a: f64,
    v: f64,
    phases: Option<usize>,
}

fn validate(p: &Params) -> Result<(Input, Options)> {
    let k = K.count(p.k)?;
    let opts = Options::of(p, k)?;
    let phases = match p.phases {
        Some(n) => Some(validate::integer("phases", n, 0, opts.max_phases(k))?),
        None => None,
    };
    let Load { costs: Costs { s, c, a }, v } = p.load.validate()?;
    Ok((Input { k, s, c, a, v, phases }, opts))
}

/// The load fractions a_0..a_N of system (1), by recurrence (2) and (3),
/// with the paper's whole-load times A' = A V and C' = C V.
pub fn fractions(n: usize, alpha: f64, c_whole: f64, a_whole: f64) -> Vec<f64> {
    let (ca, sa) = (c_whole / a_whole, alpha / a_whole);
    // kk[i], ll[i]: a_i = kk[i] a_N + ll[i].
    let mut kk = vec![0.0; n + 1];
    let mut ll = vec![0.0; n + 1];
    kk[n] = 1.0;
    for i in 1..=n {
        // Descendants' loads behind the message to layer N-i+1:
        // 4 * sum_{j=2}^{i} 5^(j-2) x_{N-i+j}.
        let deeper = |x: &[f64]| 4.0 * (2..=i).map(|j| libm::pow(5.0, (j - 2) as f64) * x[n - i + j]).sum::<f64>();
        let (k1, l1) = (kk[n - i + 1], ll[n - i + 1]);
        kk[n - i] = k1 + ca * (k1 + deeper(&kk));
        ll[n - i] = sa + l1 + ca * (l1 + deeper(&ll));
    }
    let weight = |i: usize| if i == 0 { 1.0 } else { 4.0 * libm::pow(5.0, (i - 1) as f64) };
    let a_n = (1.0 - (0..=n).map(|i| weight(i) * ll[i]).sum::<f64>()) / (0..=n).map(|i| weight(i) * kk[i]).sum::<f64>();
    (0..=n).map(|i| kk[i] * a_n + ll[i]).collect()
}

/// Processors in layer i (Table 1).
fn layer_size(i: usize) -> f64 {
    if i == 0 { 1.0 } else { 4.0 * libm::pow(5.0, (i - 1) as f64) }
}

/// v_i: the fraction a message to a layer-i processor carries, its own a_i
/// and 4 * 5^(j-1) a_{i+j} for the processors it activates later.
fn message(a: &[f64], i: usize) -> f64 {
    a[i] + (i + 1..a.len()).map(|j| layer_size(j - i) * a[j]).sum::<f64>()
}

/// The fractions of this request with `n` phases: [`fractions`] in the
/// paper's whole-load times, as solve and explain mode both need them.
fn phase_fractions(inp: &Input, n: usize) -> Vec<f64> {
    fractions(n, inp.s, inp.c * inp.v, inp.a * inp.v)
}

fn feasible(a: &[f64]) -> bool {
    a.iter().all(|&x| x > 0.0 && x.is_finite())
}

pub fn solve(p: &Params) -> Result<Output> {
    let (inp, opts) = validate(p)?;
    if opts.asynchronous {
        return asynchronous::solve(&inp, &opts);
    }
    if !opts.is_default() {
        return extended::solve(&inp, &opts);
    }
    let Input { k, s, c, a, v, phases } = inp;
    let max_phases = 2 * k;
    let by_phases: Vec<PhaseOption> = (0..=max_phases)
        .map(|n| {
            let f = phase_fractions(&inp, n);
            PhaseOption { phases: n, makespan: feasible(&f).then(|| f[0] * a * v) }
        })
        .collect();
    // Lemma 1: as many layers as possible. Odd N (ending after a knight
    // phase) are allowed: the paper does not exclude them and Table 1 lists
    // every phase.
    let largest = by_phases.iter().rev().find(|o| o.makespan.is_some()).map_or(0, |o| o.phases);
    let n = match phases {
        Some(n) if by_phases[n].makespan.is_none() => {
            return Err(Error::infeasible("phases", format!(
                "with {n} phases some layer would get a negative load; the largest feasible number is {largest}")));
        }
        Some(n) => n,
        None => largest,
    };
    let frac = phase_fractions(&inp, n);
    let makespan = frac[0] * a * v;
    let mut warnings = Vec::new();
    if n < max_phases && phases.is_none() {
        warnings.push(format!(
            "only {n} of {max_phases} phases are feasible: with more, sending would outlast computing ({} of {} processors used)",
            libm::pow(5.0, n as f64), libm::pow(5.0, max_phases as f64)));
    }
    let activation = if k <= activation::MAX_K {
        Some(Map::PetersSyska(k))
    } else {
        warnings.push(format!("the activation map is drawn for k <= {} only", activation::MAX_K));
        None
    };

    let mut layers = Vec::with_capacity(n + 1);
    let mut rows = Vec::with_capacity(n + 1);
    let mut t = 0.0;
    for i in 0..=n {
        let received = if i == 0 { v } else { message(&frac, i) * v };
        if i > 0 {
            t += s + c * received;
        }
        let count = layer_size(i);
        layers.push(Layer { layer: i, slot: None, processors: count, load: frac[i] * v, received, activated: t, layer_load: count * frac[i] * v });
        let mut row = Row::linear(format!("layer {i}"), count, s, c, a);
        row.send_ports = 4.0;
        if i == 0 {
            row.initial_load = v;
        }
        rows.push(row);
    }
    let mut schedule = Schedule::new(rows, v);
    for (i, layer) in layers.iter().enumerate() {
        // Each layer computes from its activation for A times its load: the
        // ends meet at the makespan in exact arithmetic, and a last layer
        // with a load near zero must not end (by round-off) before it starts.
        schedule.compute(i, (layer.activated, layer.activated + a * layer.load), layer.load);
        // Phase i: every processor of layers 0..i-1 sends to four new ones.
        if i > 0 {
            for j in 0..i {
                schedule.comm(j, i, (layers[i - 1].activated, layer.activated), layer.received, 4.0 * layer_size(j));
            }
        }
    }
    schedule.makespan = makespan;
    let schedule = crate::checked(schedule)?;
    Ok(Output {
        k,
        phases: n,
        max_phases,
        speedup: v * a / makespan,
        loads: layers.iter().map(|l| l.load).collect(),
        layers,
        by_phases,
        activation,
        warnings,
        granularity: None,
        iterations: None,
        schedule,
    })
}

define_model! {
    /// Peters-Syska scattering on a 5^k x 5^k torus (001).
    Torus: "torus", "001: Peters-Syska scattering on a 5^k x 5^k torus, the largest feasible number of phases", include_str!("../../../../examples/torus.json"),
    Params => Output = solve, fields = FIELDS, explain = explain::explain
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod extension_tests;
