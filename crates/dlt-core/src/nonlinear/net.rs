//! The validated tree: L, gamma, A0, A_i, G_i and the start-up costs, its
//! derived quantities, and its rows in the schedule.

use super::{Params, A, A0, G, GAMMA, L, MAX_M, THETA_CM, THETA_CP};
use crate::error::{Error, Result};
use crate::schedule::{Cost, Row};
use crate::validate;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Validated parameters of one tree.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Net {
    pub l: f64,
    pub gamma: f64,
    pub a0: f64,
    pub a: Vec<f64>,
    pub g: Vec<f64>,
    pub theta_cp: f64,
    pub theta_cm: f64,
}

impl Net {
    pub fn m(&self) -> usize {
        self.a.len()
    }

    /// Steps per load unit: L^(gamma-1).
    pub fn steps_per_unit(&self) -> f64 {
        libm::pow(self.l, self.gamma - 1.0)
    }

    /// L^gamma: the steps of the whole load.
    pub fn steps(&self) -> f64 {
        libm::pow(self.l, self.gamma)
    }

    /// beta_i = A_i / G_i of child `i` (0-based).
    pub fn beta(&self, i: usize) -> f64 {
        self.a[i] / self.g[i]
    }

    pub fn theta_max(&self) -> f64 {
        self.theta_cp.max(self.theta_cm)
    }

    /// P0 alone: A0 L^gamma + theta_cp, the numerator of every speedup.
    pub fn sequential(&self) -> f64 {
        self.a0 * self.steps() + self.theta_cp
    }

    /// One row per processor; the root holds L and may send to `ports`
    /// children at once (the paper's collective model: "separate ports").
    pub fn rows(&self, ports: usize) -> Vec<Row> {
        let unit = self.steps_per_unit();
        let cost = |a: f64| Cost::Power { theta: self.theta_cp, a: a * unit, gamma: 1.0 };
        let ports = ports.max(1) as f64;
        let mut rows = Vec::with_capacity(self.m() + 1);
        rows.push(Row {
            send_ports: ports,
            recv_ports: ports,
            initial_load: self.l,
            compute: cost(self.a0),
            ..Row::linear("P0", 1.0, 0.0, 0.0, 0.0)
        });
        for i in 0..self.m() {
            rows.push(Row { compute: cost(self.a[i]), ..Row::linear(format!("P{}", i + 1), 1.0, self.theta_cm, self.g[i], 0.0) });
        }
        rows
    }
}

pub(crate) fn validate_net(p: &Params) -> Result<Net> {
    let l = L.check(p.l)?;
    let gamma = GAMMA.check(p.gamma)?;
    let a0 = A0.check(p.a0)?;
    validate::length("A", &p.a, 1, MAX_M)?;
    if p.g.len() != p.a.len() {
        return Err(Error::range(
            "G",
            format!("G must list one link time per child, as many entries as A ({}), got {}", p.a.len(), p.g.len()),
        ));
    }
    let a = p.a.iter().enumerate().map(|(i, &x)| A.check_item(x, || validate::item("A", i))).collect::<Result<Vec<_>>>()?;
    let g = p.g.iter().enumerate().map(|(i, &x)| G.check_item(x, || validate::item("G", i))).collect::<Result<Vec<_>>>()?;
    let theta_cp = THETA_CP.check(p.theta_cp.unwrap_or(0.0))?;
    let theta_cm = THETA_CM.check(p.theta_cm.unwrap_or(0.0))?;
    let net = Net { l, gamma, a0, a, g, theta_cp, theta_cm };
    // Times are products like L^gamma A_i: keep them inside f64's range.
    let steps = net.steps();
    for (field, x) in core::iter::once((String::from("A0"), a0)).chain(net.a.iter().enumerate().map(|(i, &x)| (validate::item("A", i), x))) {
        let t = steps * x;
        if !(1e-280..=1e280).contains(&t) {
            return Err(Error::range(
                "L",
                format!("L^gamma * {field} = {t:e} lies outside the times this calculator can represent (1e-280 to 1e280); rescale L or {field}"),
            ));
        }
    }
    Ok(net)
}

