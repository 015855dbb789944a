//! 000 Sec. 5: the buffer size D* that keeps processors computing until the
//! next stage.

use super::{H, MAX_M, P};
use crate::error::{Error, Result};
use crate::costs::{self, Costs};
use crate::validate::Field;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
pub enum Topology {
    Star,
    Binomial,
    /// Ordinary tree, 1-buffer nodes.
    Tree1,
    /// Ordinary tree, 2-buffer nodes.
    Tree2,
}

/// A star's m (any size: no LP is solved) and a tree's p and h.
const M: Field = Field::integer("m", 1, MAX_M);
pub(super) const FIELDS: &[Field] = &[M, P, H, costs::S, costs::C, costs::A];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct DstarParams {
    pub topology: Topology,
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub m: Option<f64>,
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub p: Option<f64>,
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub h: Option<f64>,
    #[serde(flatten)]
    pub costs: Costs,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct DstarOutput {
    /// The smallest buffer that keeps the least-loaded layer computing for
    /// a whole stage; `None` where no buffer can.
    #[serde(rename = "D_star")]
    pub d_star: Option<f64>,
    /// The inequality D* needs, in the paper's symbols.
    pub condition: String,
    pub warnings: Vec<String>,
}

fn required(field: Field, x: Option<f64>, topology: &str) -> Result<usize> {
    let name = field.name();
    let x = x.ok_or_else(|| Error::range(name, format!("{name} is required for topology {topology}")))?;
    field.count(x)
}

/// D* of one request as 000 Sec. 5 derives it: D* = numerator /
/// (computing - communication), the least-loaded layer's computing rate per
/// unit of D* against one stage's communication per unit of D*.
pub(super) struct Terms {
    pub numerator: f64,
    pub computing: f64,
    pub communication: f64,
    /// The existence condition, computing > communication.
    pub condition: &'static str,
    /// D*'s formula and the requirement it solves, in the paper's symbols.
    pub formula: &'static str,
    pub requirement: &'static str,
}

impl Terms {
    /// D*, where the denominator is positive (computing outpaces
    /// communication); None where it does not exist.
    pub fn value(&self) -> Option<f64> {
        let denominator = self.computing - self.communication;
        (denominator > 0.0).then(|| self.numerator / denominator)
    }
}

pub(super) fn terms(params: &DstarParams) -> Result<Terms> {
    let Costs { s, c, a } = params.costs.validate()?;
    let tree = |name| -> Result<(f64, f64)> {
        Ok((required(P, params.p, name)? as f64, required(H, params.h, name)? as f64))
    };
    Ok(match params.topology {
        Topology::Star => {
            let m = required(M, params.m, "star")? as f64;
            Terms { numerator: m * s, computing: a, communication: m * c, condition: "A > mC", formula: "D* = mS/(A - mC)", requirement: "AD* >= m(S + D*C)" }
        }
        Topology::Binomial => {
            let (p, h) = tree("binomial")?;
            Terms {
                numerator: s * (h + 1.0) * h * p * libm::pow(p + 1.0, h - 2.0) / 2.0,
                computing: a,
                communication: c * h * libm::pow(p + 1.0, h - 1.0),
                condition: "A > Ch(p+1)^(h-1)",
                formula: "D* = S(h+1)hp(p+1)^(h-2) / (2(A - Ch(p+1)^(h-1)))",
                requirement: "AD*/(p(p+1)^(h-2)) >= S(h+1)h/2 + CD*(p+1)h/p",
            }
        }
        Topology::Tree2 => {
            let (p, h) = tree("tree2")?;
            Terms {
                numerator: h * s,
                computing: a / libm::pow(p, h - 1.0),
                communication: c * h,
                condition: "A/p^(h-1) > Ch",
                formula: "D* = hS/(A/p^(h-1) - Ch)",
                requirement: "D*A/p^(h-1) >= h(S + CD*)",
            }
        }
        Topology::Tree1 => {
            let (p, h) = tree("tree1")?;
            Terms {
                numerator: h * s,
                computing: a / libm::pow(p, h - 1.0),
                communication: h * c * (1.0 + 1.0 / p),
                condition: "A/p^(h-1) > hC(1+1/p)",
                formula: "D* = hS/(A/p^(h-1) - hC(1+1/p))",
                requirement: "D*A/p^(h-1) >= hS + hCD*(1 + 1/p)",
            }
        }
    })
}

/// 000 Sec. 5: D* = numerator / denominator, existing only where the
/// denominator is positive (computing outpaces communication).
pub fn d_star(params: &DstarParams) -> Result<DstarOutput> {
    let t = terms(params)?;
    let condition = String::from(t.condition);
    if let Some(d) = t.value() {
        Ok(DstarOutput { d_star: Some(d), condition, warnings: Vec::new() })
    } else {
        let warning = format!("D* does not exist: {condition} fails, so idle times are inevitable whatever the buffer");
        Ok(DstarOutput { d_star: None, condition, warnings: alloc::vec![warning] })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    fn dstar(topology: Topology, m: Option<f64>, p: Option<f64>, h: Option<f64>, s: f64, c: f64, a: f64) -> Result<DstarOutput> {
        d_star(&DstarParams { topology, m, p, h, costs: Costs::new(s, c, a) })
    }

    #[test]
    fn d_star_keeps_the_last_layer_computing_for_one_stage() {
        // At D*, computing on the least-loaded layer lasts exactly one stage
        // of communication (000 Sec. 5's requirements, written out).
        let (s, c, a) = (1e-3, 1e-6, 1e-3);
        let d = dstar(Topology::Star, Some(10.0), None, None, s, c, a).unwrap().d_star.unwrap();
        assert_relative_eq!(a * d, 10.0 * (s + d * c), max_relative = 1e-12);
        let (p, h) = (2.0f64, 3.0f64);
        let d = dstar(Topology::Binomial, None, Some(p), Some(h), s, c, a).unwrap().d_star.unwrap();
        let compute = a * d / (p * libm::pow(p + 1.0, h - 2.0));
        let comm = s * (h + 1.0) * h / 2.0 + c * d * (p + 1.0) * h / p;
        assert_relative_eq!(compute, comm, max_relative = 1e-9);
        let d = dstar(Topology::Tree2, None, Some(p), Some(h), s, c, a).unwrap().d_star.unwrap();
        assert_relative_eq!(d * a, libm::pow(p, h - 1.0) * h * (s + c * d), max_relative = 1e-9);
        let d = dstar(Topology::Tree1, None, Some(p), Some(h), s, c, a).unwrap().d_star.unwrap();
        assert_relative_eq!(d * a, libm::pow(p, h - 1.0) * (h * s + h * c * d * (1.0 + 1.0 / p)), max_relative = 1e-9);
    }

    #[test]
    fn d_star_says_which_inequality_fails() {
        let out = dstar(Topology::Star, Some(10.0), None, None, 1e-3, 1e-3, 1e-3).unwrap();
        assert_eq!(out.d_star, None);
        assert!(out.warnings[0].contains("A > mC"));
        let out = dstar(Topology::Binomial, None, Some(2.0), Some(10.0), 1e-3, 1e-6, 1e-3).unwrap();
        assert!(out.d_star.is_none() && out.warnings[0].contains("A > Ch(p+1)^(h-1)"));
        assert_eq!(dstar(Topology::Tree1, Some(3.0), None, Some(2.0), 1.0, 1.0, 1.0).unwrap_err().field, "p");
        assert_eq!(dstar(Topology::Star, None, None, None, 1.0, 1.0, 1.0).unwrap_err().field, "m");
    }
}
