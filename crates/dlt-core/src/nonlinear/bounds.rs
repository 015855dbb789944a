//! Lemmas 10 and 12: where the best number of installments rho* (given m)
//! or of children m* (given rho) lies on a homogeneous tree (A_0 = A_i = A,
//! G_i = G, beta = A/G) with start-up costs. With b = L^(g-1) beta and
//! theta = max(theta_cp, theta_cm):
//!
//!   rho1 = (L^g beta^(g/(g-1)) - 1) / ((m+1) b)           (r = 1, Lemma 10's proof)
//!   rho2 = (-1 + sqrt(m L^(2g-1) A beta / ((m+2) theta))) / ((m+1) b)
//!   rho3 = (-1 + sqrt(m L^(2g-1) A beta / ((m+1) theta))) / ((m+1) b)
//!   min{rho1, rho2} <= rho* <= max{rho1, rho3}
//!
//!   m1 = beta^(1/(g-1)) L / rho - 1/(rho b) - 1
//!   m2 = (-1 + sqrt(L^(2g-1) A rho beta (rho b + 1) / ((rho+1) theta))) / (rho b) - 1
//!   m3 = (-1 + sqrt(L^(2g-1) A rho beta (rho b + 1) / (rho theta))) / (rho b) - 1
//!   min{m1, m2} <= m* <= max{m1, m3}
//!
//! Re-derived from the proof of Lemma 10: with alpha = b / ((m+1) rho b + 1)
//! on a homogeneous tree, RHS_1 = L^g A (rho b + 1)/((m+1) rho b + 1)
//! \+ theta_cp + theta_cm + theta / alpha. Its slope in rho,
//! (m+1) theta - m L^g A b / ((m+1) rho b + 1)^2, is -theta at rho2 and 0
//! at rho3. Its slope in m, rho theta - L^g A (rho b + 1) rho b / ((m+1) rho b + 1)^2,
//! is -theta at m2 and 0 at m3: the printed formulas. Sec. VI prints m2 and
//! m3 computed without the "+ 1" in (rho b + 1); see the golden test. With
//! no start-up costs rho2, rho3, m2 and m3 are unbounded, reported as null.

use super::{A, G, GAMMA, L, MAX_M, RHO, THETA_CM, THETA_CP};
use crate::error::{Error, Result};
use crate::validate::{self, Field};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// The tree's children, for Lemma 10 (no schedule is built: any tree of
/// `nonlinear`'s size).
const M: Field = Field::integer("m", 1, MAX_M);
/// The ranges of `nonlinear`'s fields: A and G are every processor's and
/// link's, L each load's.
pub(super) const FIELDS: &[Field] = &[A, G, GAMMA, THETA_CP, THETA_CM, M, RHO, L];

/// One load or several.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(untagged)]
pub enum Sizes {
    One(f64),
    Many(Vec<f64>),
}

/// One bound, or one per load when L is a list; null where unbounded.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(untagged)]
pub enum Bound {
    One(Option<f64>),
    Many(Vec<Option<f64>>),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(deny_unknown_fields)]
pub struct BoundsParams {
    /// Time per processing step, every processor (the root included).
    #[serde(rename = "A")]
    pub a: f64,
    /// Time per element, every link.
    #[serde(rename = "G")]
    pub g: f64,
    pub gamma: f64,
    pub theta_cp: f64,
    pub theta_cm: f64,
    /// Children: asks for the rho bounds (Lemma 10).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub m: Option<f64>,
    /// Installments: asks for the m bounds (Lemma 12).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub rho: Option<f64>,
    #[serde(rename = "L")]
    pub l: Sizes,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct BoundsOutput {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rho1: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rho2: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rho3: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub m1: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub m2: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub m3: Option<Bound>,
    /// min{x1, x2}: below it more installments (children) never hurt.
    pub lower: Bound,
    /// max{x1, x3}: above it they never help (null: unbounded).
    pub upper: Bound,
    /// max{1, floor(min{x1, x2})}: the paper's choice without search
    /// (Theorems 11 and 13).
    pub direct: Bound,
    pub warnings: Vec<String>,
}

/// [rho1, rho2, rho3] of Lemma 10 for m children (infinite where theta = 0).
pub(crate) fn rho_bounds(a: f64, g: f64, gamma: f64, theta_cp: f64, theta_cm: f64, m: f64, l: f64) -> [f64; 3] {
    let beta = a / g;
    let b = libm::pow(l, gamma - 1.0) * beta;
    let theta = theta_cp.max(theta_cm);
    let r1 = (libm::pow(l, gamma) * libm::pow(beta, gamma / (gamma - 1.0)) - 1.0) / ((m + 1.0) * b);
    // m L^(2g-1) A beta = m L^g A b, square-rooted in factors to stay finite.
    let root = |d: f64| libm::sqrt(m * libm::pow(l, gamma) * a / (d * theta)) * libm::sqrt(b);
    let at = |d: f64| if theta > 0.0 { (root(d) - 1.0) / ((m + 1.0) * b) } else { f64::INFINITY };
    [r1, at(m + 2.0), at(m + 1.0)]
}

/// [m1, m2, m3] of Lemma 12 for rho installments (infinite where theta = 0).
pub(crate) fn m_bounds(a: f64, g: f64, gamma: f64, theta_cp: f64, theta_cm: f64, rho: f64, l: f64) -> [f64; 3] {
    let beta = a / g;
    let b = libm::pow(l, gamma - 1.0) * beta;
    let theta = theta_cp.max(theta_cm);
    let m1 = libm::pow(beta, 1.0 / (gamma - 1.0)) * l / rho - 1.0 / (rho * b) - 1.0;
    // L^(2g-1) A rho beta (rho b + 1) = L^g A (rho b)(rho b + 1).
    let root = |d: f64| libm::sqrt(libm::pow(l, gamma) * a / (d * theta)) * libm::sqrt(rho * b) * libm::sqrt(rho * b + 1.0);
    let at = |d: f64| if theta > 0.0 { (root(d) - 1.0) / (rho * b) - 1.0 } else { f64::INFINITY };
    [m1, at(rho + 1.0), at(rho)]
}

pub fn bounds(p: &BoundsParams) -> Result<BoundsOutput> {
    let a = A.check(p.a)?;
    let g = G.check(p.g)?;
    let gamma = GAMMA.check(p.gamma)?;
    let theta_cp = THETA_CP.check(p.theta_cp)?;
    let theta_cm = THETA_CM.check(p.theta_cm)?;
    let loads: Vec<f64> = match &p.l {
        Sizes::One(x) => alloc::vec![L.check(*x)?],
        Sizes::Many(xs) => {
            validate::length("L", xs, 1, MAX_M)?;
            xs.iter().enumerate().map(|(i, &x)| L.check_item(x, || validate::item("L", i))).collect::<Result<Vec<_>>>()?
        }
    };
    let (by_m, n) = match (p.m, p.rho) {
        (Some(m), None) => (true, M.count(m)? as f64),
        (None, Some(rho)) => (false, RHO.count(rho)? as f64),
        (Some(_), Some(_)) => return Err(Error::range("rho", "give m (for the rho bounds of Lemma 10) or rho (for the m bounds of Lemma 12), not both")),
        (None, None) => return Err(Error::range("m", "give m (for the rho bounds of Lemma 10) or rho (for the m bounds of Lemma 12)")),
    };
    let mut rows = Vec::with_capacity(loads.len());
    for (k, &l) in loads.iter().enumerate() {
        let x = if by_m { rho_bounds(a, g, gamma, theta_cp, theta_cm, n, l) } else { m_bounds(a, g, gamma, theta_cp, theta_cm, n, l) };
        if x.iter().any(|v| v.is_nan() || *v == f64::NEG_INFINITY) || !x[0].is_finite() {
            let field = if loads.len() == 1 { String::from("L") } else { validate::item("L", k) };
            return Err(Error::range(field, format!("the bounds for L = {l} overflow f64 ({x:?}); rescale L, A or G")));
        }
        rows.push(x);
    }
    let list = matches!(p.l, Sizes::Many(_));
    let pack = |f: &dyn Fn(&[f64; 3]) -> f64| -> Bound {
        let v: Vec<Option<f64>> = rows.iter().map(|x| Some(f(x)).filter(|y| y.is_finite())).collect();
        if list {
            Bound::Many(v)
        } else {
            Bound::One(v[0])
        }
    };
    let (x1, x2, x3) = (pack(&|x| x[0]), pack(&|x| x[1]), pack(&|x| x[2]));
    let lower = pack(&|x| x[0].min(x[1]));
    let upper = pack(&|x| x[0].max(x[2]));
    let direct = pack(&|x| libm::floor(x[0].min(x[1])).max(1.0));
    let mut warnings = Vec::new();
    if theta_cp.max(theta_cm) == 0.0 {
        warnings.push(String::from(
            "with no start-up costs the second and third bounds are unbounded (null): more installments or children never hurt",
        ));
    }
    Ok(if by_m {
        BoundsOutput { rho1: Some(x1), rho2: Some(x2), rho3: Some(x3), m1: None, m2: None, m3: None, lower, upper, direct, warnings }
    } else {
        BoundsOutput { rho1: None, rho2: None, rho3: None, m1: Some(x1), m2: Some(x2), m3: Some(x3), lower, upper, direct, warnings }
    })
}
