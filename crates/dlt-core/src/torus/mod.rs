//! 001: a divisible load on a 5^k x 5^k torus scattered by Peters-Syska's
//! broadcast (4-port, circuit switching), all layers finishing together.
//!
//! The paper works with fractions a_i of V and whole-load times A V, C V;
//! the API takes per-unit S, C, A and V, so loads here are a_i V.

mod activation;
mod explain;

pub use activation::Activation;

use crate::check::Checked;
use crate::costs::{self, Costs, Load};
use crate::error::{Error, Result};
use crate::model::define_model;
use crate::schedule::{Row, Schedule};
use crate::validate::{self, Field};
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// Largest k: 5^16 processors, still exact in f64.
pub const MAX_K: usize = 8;
const K: Field = Field::integer("k", 1, MAX_K);
/// At most 2k: `validate` narrows it to the request's k.
const PHASES: Field = Field::integer("phases", 0, 2 * MAX_K);
const FIELDS: &[Field] = &[K, costs::S, costs::C, costs::A, costs::V, PHASES];

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
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Layer {
    pub layer: usize,
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
    pub activation: Option<Activation>,
    pub warnings: Vec<String>,
    #[serde(flatten)]
    pub schedule: Checked,
}

struct Input {
    k: usize,
    s: f64,
    c: f64,
    a: f64,
    v: f64,
    phases: Option<usize>,
}

fn validate(p: &Params) -> Result<Input> {
    let k = K.count(p.k)?;
    let phases = match p.phases {
        Some(n) => Some(validate::integer("phases", n, 0, 2 * k)?),
        None => None,
    };
    let Load { costs: Costs { s, c, a }, v } = p.load.validate()?;
    Ok(Input { k, s, c, a, v, phases })
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
    let inp = validate(p)?;
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
        Some(activation::activation(k).ok_or_else(|| Error::internal("the Peters-Syska pattern did not tile the torus"))?)
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
        layers.push(Layer { layer: i, processors: count, load: frac[i] * v, received, activated: t, layer_load: count * frac[i] * v });
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
        schedule,
    })
}

define_model! {
    /// Peters-Syska scattering on a 5^k x 5^k torus (001).
    Torus: "torus", "001: Peters-Syska scattering on a 5^k x 5^k torus, the largest feasible number of phases", include_str!("../../../../examples/torus.json"),
    Params => Output = solve, fields = FIELDS, explain = explain::explain
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::{assert_abs_diff_eq, assert_relative_eq, relative_eq};
    use crate::schedule::Kind;

    fn params(k: f64, s: f64, c: f64, a: f64, v: f64) -> Params {
        Params { k, load: Load::new(s, c, a, v), phases: None }
    }

    /// System (1) written out row by row and solved by Gaussian elimination,
    /// independently of recurrence (2)-(3).
    #[allow(clippy::needless_range_loop)]
    fn direct(n: usize, alpha: f64, c: f64, a: f64) -> Vec<f64> {
        let mut m = vec![vec![0.0; n + 2]; n + 1];
        for i in 0..n {
            // a_i A = α + C v_{i+1} + A a_{i+1}, v_{i+1} = a_{i+1} + sum_j 4*5^(j-1) a_{i+1+j}.
            m[i][i] = a;
            m[i][i + 1] -= c + a;
            for j in 1..n - i {
                m[i][i + 1 + j] -= c * 4.0 * libm::pow(5.0, (j - 1) as f64);
            }
            m[i][n + 1] = alpha;
        }
        for i in 0..=n {
            m[n][i] = layer_size(i);
        }
        m[n][n + 1] = 1.0;
        for col in 0..=n {
            let piv = (col..=n).max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs())).unwrap();
            m.swap(col, piv);
            for r in 0..=n {
                if r != col {
                    let f = m[r][col] / m[col][col];
                    for c2 in col..=n + 1 {
                        m[r][c2] -= f * m[col][c2];
                    }
                }
            }
        }
        (0..=n).map(|i| m[i][n + 1] / m[i][i]).collect()
    }

    #[test]
    fn recurrence_matches_system_1() {
        for (n, alpha, c, a) in [(1, 0.0, 0.1, 1.0), (4, 1e-3, 0.05, 2.0), (6, 1e-4, 1e-1, 1.0), (8, 1e-6, 1e-3, 1.0)] {
            let r = fractions(n, alpha, c, a);
            let d = direct(n, alpha, c, a);
            for (x, y) in r.iter().zip(&d) {
                // Below 1e-12 the tolerance is the absolute 1e-21.
                assert!(relative_eq!(*x, *y, epsilon = 1e-21, max_relative = 1e-9), "N={n}: {r:?} vs {d:?}");
            }
        }
    }

    #[test]
    fn all_layers_finish_together_and_lemma_1_holds() {
        // Fig. 7's parameters (α = 1e-4 s, τ = 1e-7 s, σ = 1e6) over V.
        for k in 1..=4 {
            for v in [1e2, 1e4, 1e6, 1e8] {
                let out = solve(&params(k as f64, 1e-4, 1e-7, 1e-6, v)).unwrap();
                for i in out.schedule.intervals.iter().filter(|i| i.kind == Kind::Compute) {
                    assert_relative_eq!(i.end, out.schedule.makespan, epsilon = 0.0, max_relative = 1e-12);
                }
                let total: f64 = out.layers.iter().map(|l| l.layer_load).sum();
                assert_relative_eq!(total, v, max_relative = 1e-9);
                // More feasible phases never lengthen the schedule.
                let feasible: Vec<f64> = out.by_phases.iter().filter_map(|o| o.makespan).collect();
                assert!(feasible.windows(2).all(|w| w[1] <= w[0] * (1.0 + 1e-12)), "k={k} V={v}: {feasible:?}");
                assert_eq!(out.by_phases[out.phases].makespan, Some(out.schedule.makespan));
                assert!(out.by_phases[out.phases + 1..].iter().all(|o| o.makespan.is_none()));
            }
        }
    }

    #[test]
    fn small_loads_use_few_phases_big_loads_all() {
        let small = solve(&params(3.0, 1e-4, 1e-7, 1e-6, 10.0)).unwrap();
        let big = solve(&params(3.0, 1e-4, 1e-7, 1e-6, 1e9)).unwrap();
        assert!(small.phases < big.phases);
        assert_eq!(big.phases, 6);
        assert!(!small.warnings.is_empty());
        // No start-up, one phase: a_0 A = C a_1 + A a_1, a_0 + 4 a_1 = 1.
        let one = solve(&Params { phases: Some(1.0), ..params(1.0, 0.0, 1.0, 1.0, 1.0) }).unwrap();
        assert_abs_diff_eq!(one.loads[0], 2.0 / 6.0, epsilon = 1e-12);
        assert_abs_diff_eq!(one.loads[1], 1.0 / 6.0, epsilon = 1e-12);
        assert_abs_diff_eq!(one.speedup, 3.0, epsilon = 1e-12);
    }

    /// 001 with no start-up and slow links (C/A >= 1000): the deepest
    /// layer's load is nearly zero and activated at the makespan; its
    /// schedule still passes the checker (an internal error before).
    #[test]
    fn slow_links_without_start_up() {
        let out = solve(&params(2.0, 0.0, 1e-4, 1e-8, 1e6)).unwrap();
        assert_eq!(out.phases, 4);
        assert_abs_diff_eq!(out.schedule.makespan, 0.0099960016, epsilon = 1e-10);
        for k in 1..=4 {
            for ratio in [1e2, 1e3, 1e4, 1e5, 1e6] {
                for v in [1.0, 1e3, 1e6, 1e9] {
                    solve(&params(k as f64, 0.0, 1e-8 * ratio, 1e-8, v)).unwrap_or_else(|e| panic!("k={k} C/A={ratio} V={v}: {e}"));
                }
            }
        }
    }

    #[test]
    fn bad_input_names_the_field() {
        assert_eq!(solve(&params(0.0, 0.0, 1.0, 1.0, 1.0)).unwrap_err().field, "k");
        assert_eq!(solve(&params(9.0, 0.0, 1.0, 1.0, 1.0)).unwrap_err().field, "k");
        assert_eq!(solve(&params(1.0, -1.0, 1.0, 1.0, 1.0)).unwrap_err().field, "S");
        assert_eq!(solve(&params(1.0, 0.0, 1.0, 0.0, 1.0)).unwrap_err().field, "A");
        assert_eq!(solve(&params(1.0, 0.0, 1.0, 1.0, f64::NAN)).unwrap_err().field, "V");
        let e = solve(&Params { phases: Some(6.0), ..params(3.0, 1e-4, 1e-7, 1e-6, 10.0) }).unwrap_err();
        assert_eq!((e.field.as_str(), e.code), ("phases", crate::Code::Infeasible));
    }

    #[test]
    fn k_8_solves_without_a_map() {
        let out = solve(&params(8.0, 1e-9, 1e-12, 1e-6, 1e15)).unwrap();
        assert!(out.activation.is_none());
        assert_eq!(out.layers.last().unwrap().processors, 4.0 * libm::pow(5.0, (out.phases - 1) as f64));
    }
}
