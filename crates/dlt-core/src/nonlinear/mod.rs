//! 004 — Chen & Chu, "Divisible non-linear load distribution on
//! heterogeneous single-level trees": a root P0, which computes too, and
//! children P1..Pm over links l_i. A load of L elements of order gamma costs
//! L^gamma processing steps; P_i's share S_i is processed against the whole
//! set (S_i x S^(gamma-1): alpha_i L^gamma steps), so every child receives
//! the whole data set: first S_i, then the rest in growing messages while it
//! computes.
//!
//! One job per submodule:
//! - [`net`]: the validated tree and its rows in the schedule;
//! - [`fractions`]: the fractions of eqs. (3)-(5), Lemma 2, Algorithm PE,
//!   Lemma 8 and the closed form of Theorem 9 (Theorems 4, 6 without start-ups);
//! - [`timeline`]: the schedule of algorithms S and M, message by message;
//! - [`single`]: algorithm S; [`multi`]: algorithm M with FON;
//! - [`classical`]: algorithm C of Theorem 1;
//! - [`bounds`]: Lemmas 10 and 12.
//!
//! How the schedule represents this model (read before changing it):
//! the checker counts load as owned and conserved, each unit computed
//! once. Here a unit of load is one element of S *as a row of work*:
//! element e stands for the L^(gamma-1) steps of {e} x S^(gamma-1), so L
//! units are the L^gamma steps, and a processor computing x units for
//! A_i per step takes theta_cp + A_i L^(gamma-1) x, i.e.
//! `Cost::Power { theta: theta_cp, a: A_i L^(gamma-1), gamma: 1 }` (not
//! `a: A_i, gamma` on elements: (alpha_i L)^gamma is only the first block
//! S_i^gamma of P_i's work, see Definition 1). The copies of other
//! processors' rows that every child also receives are data a child reads
//! but does not own: each message is in the checked schedule with the
//! elements it carries as its `data` (its length) and the rows the child
//! computes as its `load` (the load flow).

mod bounds;
mod classical;
mod explain;
mod fractions;
mod multi;
mod net;
mod single;
mod timeline;

pub use bounds::{bounds, Bound, BoundsOutput, BoundsParams, Sizes};
pub use timeline::Transfer;

pub(crate) use net::Net;
use net::validate_net;

use crate::check::Checked;
use crate::model::define_model;
use crate::error::{Error, Result};
use crate::validate::Field;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// Most child processors.
pub const MAX_M: usize = 1000;
/// Most installments (rho): every installment sends each child at least
/// one message, so the message budget bounds rho, and FON searches as far
/// as the paper's does while the schedule stays within it.
pub const MAX_RHO: usize = MAX_MESSAGES;
/// Orders of the load accepted: the paper's gamma is an integer (the
/// gamma-dimensional data set of Definition 1), and Lemmas 10 and 12 take
/// its (gamma-1)-th root, so gamma >= 2.
pub const MIN_GAMMA: usize = 2;
pub const MAX_GAMMA: usize = 10;
/// Largest load L (elements).
pub const MAX_L: f64 = 1e12;
/// Most messages in one schedule, over all children: Lemma 8's n_i* grows
/// without bound as a child approaches Lemma 2's limit.
pub const MAX_MESSAGES: usize = 50_000;

const L: Field = Field::positive_to("L", MAX_L);
const GAMMA: Field = Field::integer("gamma", MIN_GAMMA, MAX_GAMMA);
const A0: Field = Field::positive("A0");
/// Each entry's range: the lists' lengths are checked apart.
const A: Field = Field::positive("A");
const G: Field = Field::positive("G");
const RHO: Field = Field::integer("rho", 1, MAX_RHO);
const THETA_CP: Field = Field::nonneg("theta_cp");
const THETA_CM: Field = Field::nonneg("theta_cm");
const FIELDS: &[Field] = &[L, GAMMA, A0, A, G, RHO, THETA_CP, THETA_CM];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub enum Algorithm {
    /// The classical model of [57] as evaluated by Theorem 1.
    C,
    /// Single installment with processor elimination (Sec. IV).
    S,
    /// Multi-installment with FON (Sec. V).
    M,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "ts", tsify(rename = "NonlinearParams"))]
pub struct Params {
    pub algorithm: Algorithm,
    /// Elements of the data set S.
    #[serde(rename = "L")]
    pub l: f64,
    /// Order of the load: L elements cost L^gamma steps.
    pub gamma: f64,
    /// Time per processing step on the root P0.
    #[serde(rename = "A0")]
    pub a0: f64,
    /// Time per processing step on P1..Pm.
    #[serde(rename = "A")]
    pub a: Vec<f64>,
    /// Time per element on links l1..lm.
    #[serde(rename = "G")]
    pub g: Vec<f64>,
    /// Installments (algorithm M); missing: FON chooses.
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub rho: Option<f64>,
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub theta_cp: Option<f64>,
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub theta_cm: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[cfg_attr(feature = "ts", tsify(rename = "NonlinearOutput"))]
pub struct Output {
    pub algorithm: Algorithm,
    /// Fraction of the work (of the L^gamma steps, i.e. of the L load
    /// units of the schedule) each of P0..Pm computes, over all installments.
    /// For S and M these are alpha_0 and rho alpha_i; for C, Theorem 1's
    /// accounting: alpha_i^gamma on P_i and the rest on P0.
    pub loads: Vec<f64>,
    /// The paper's alpha_i: |S_i| / L, per installment, P0..Pm (0 for a
    /// child removed by PE).
    pub alpha: Vec<f64>,
    /// Per processor, the fractions of L it computes in each installment
    /// (M: rho entries alpha_i; C and S: one).
    pub chunks: Vec<Vec<f64>>,
    /// Per processor, the size of each message it receives as a fraction of
    /// L: S_i, then S_{i,1}, S_{i,2}, ... (they sum to 1 for S and M).
    pub messages: Vec<Vec<f64>>,
    /// rho: installments of algorithm M (1 for C and S).
    pub installments: usize,
    /// Children that receive load after PE.
    pub used: usize,
    /// Children removed by PE, as processor numbers (i of P_i).
    pub eliminated: Vec<usize>,
    /// Lemma 8's n_i* per processor (none for P0, removed children and C).
    pub n_star: Vec<Option<f64>>,
    /// alpha_0 L^gamma A_0, the first term of Theorems 4, 6 and 9 (S, M).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_term: Option<f64>,
    /// The paper's closed form of the makespan: Theorem 1 (C) or
    /// Theorem 9 (S, M; Theorems 4 and 6 when there are no start-ups).
    pub theorem: f64,
    /// (A0 L^gamma + theta_cp) / makespan: P0 alone against the tree.
    pub speedup: f64,
    /// Every message of data with its times, the elements it carries and
    /// how many of them are rows the receiver computes (as in the schedule).
    pub transfers: Vec<Transfer>,
    pub warnings: Vec<String>,
    #[serde(flatten)]
    pub schedule: Checked,
}

/// Runs algorithm C, S or M.
pub fn solve(p: &Params) -> Result<Output> {
    traced(p).map(|(out, _)| out)
}

/// [`solve`] with how it decided.
pub(crate) fn traced(p: &Params) -> Result<(Output, Trace)> {
    let net = validate_net(p)?;
    let rho = match p.rho {
        None => None,
        Some(x) => Some(RHO.count(x)?),
    };
    match (p.algorithm, rho) {
        (Algorithm::C, Some(_)) => Err(Error::range("rho", "rho (installments) applies to algorithm M only; leave it out for C")),
        (Algorithm::S, Some(r)) if r != 1 => {
            Err(Error::range("rho", format!("algorithm S is single-installment (rho = 1), got rho = {r}; use algorithm M for more installments")))
        }
        (Algorithm::C, None) => Ok((classical::solve(&net)?, Trace::default())),
        (Algorithm::S, _) => single::solve(&net),
        (Algorithm::M, rho) => multi::solve(&net, rho),
    }
}

/// How algorithms S and M decided, beyond the answer: each run of PE and
/// FON's search (empty for C), for explain mode.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Trace {
    pub pe: Vec<fractions::Pe>,
    pub fon: Option<multi::Fon>,
}

/// What algorithms S and M decided, for [`assemble`].
pub(crate) struct Decision {
    pub algorithm: Algorithm,
    pub rho: usize,
    pub alpha0: f64,
    /// alpha_i of each child the last PE kept.
    pub alphas: Vec<f64>,
    pub warnings: Vec<String>,
}

/// Builds the schedule of algorithm S or M (the same procedure: S is M with
/// rho = 1) and the response around it, for the children the trace's last
/// PE kept.
pub(crate) fn assemble(net: &Net, d: Decision, trace: Trace) -> Result<(Output, Trace)> {
    let m = net.m();
    let active: &[usize] = trace.pe.last().map_or(&[], |pe| &pe.kept);
    let removed: Vec<usize> = trace.pe.iter().flat_map(|pe| pe.removed.iter().map(|c| c.child)).collect();
    let rho = d.rho as f64;
    let built = timeline::build(net, d.alpha0, active, &d.alphas, d.rho)?;
    let (theorem, first_term) = fractions::theorem9(net, d.alpha0, active, &d.alphas)
        .ok_or_else(|| Error::internal("a child kept by PE fails Lemma 2"))?;
    let mut warnings = d.warnings;
    if !removed.is_empty() {
        let names: Vec<String> = removed.iter().map(|i| format!("P{}", i + 1)).collect();
        warnings.push(format!(
            "{} processor{} eliminated by PE (Lemma 2: cannot receive the whole data set while computing): {}",
            removed.len(),
            if removed.len() == 1 { "" } else { "s" },
            names.join(", ")
        ));
    }
    if active.is_empty() {
        warnings.push(String::from("no child can take load: P0 computes alone"));
    }
    let makespan = built.schedule.makespan;
    if (makespan - theorem).abs() > 1e-9 * theorem {
        warnings.push(format!(
            "Theorem 9 gives T = {theorem}, the schedule ends at {makespan}: the last message to the slowest child is shorter than the \
             computation it overlaps, so it costs less than the full max(theta_cp, theta_cm) the theorem charges"
        ));
    }
    let mut alpha = alloc::vec![0.0; m + 1];
    let mut chunks: Vec<Vec<f64>> = alloc::vec![Vec::new(); m + 1];
    alpha[0] = d.alpha0;
    chunks[0] = alloc::vec![d.alpha0];
    for (&i, &a) in active.iter().zip(&d.alphas) {
        alpha[i + 1] = a;
        chunks[i + 1] = alloc::vec![a; d.rho];
    }
    let loads: Vec<f64> = alpha.iter().enumerate().map(|(k, &a)| if k == 0 { a } else { rho * a }).collect();
    let out = Output {
        algorithm: d.algorithm,
        loads,
        alpha,
        chunks,
        messages: built.messages,
        installments: d.rho,
        used: active.len(),
        eliminated: removed.iter().map(|i| i + 1).collect(),
        n_star: built.n_star,
        first_term: Some(first_term),
        theorem,
        speedup: net.sequential() / makespan,
        transfers: built.transfers,
        warnings,
        schedule: built.schedule,
    };
    Ok((out, trace))
}

define_model! {
    /// 004: a non-linear load on a heterogeneous single-level tree.
    Nonlinear: "nonlinear", "004: algorithms C, S (processor elimination) and M (multi-installment) for non-linear loads", include_str!("../../../../examples/nonlinear.json"),
    Params => Output = solve, fields = FIELDS, explain = explain::explain
}

define_model! {
    /// 004 Lemmas 10 and 12.
    NonlinearBounds: "nonlinear_bounds", "004 Lemmas 10 and 12: bounds on the installments rho and the processors m", include_str!("../../../../examples/nonlinear_bounds.json"),
    BoundsParams => BoundsOutput = bounds, fields = bounds::FIELDS
}

#[cfg(test)]
mod tests;
