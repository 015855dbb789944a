//! The load fractions of 004 and the closed forms built on them: eqs. (3)-(5),
//! Lemma 2 (feasibility), Algorithm PE (Table II), Lemma 8 (messages needed)
//! and Theorem 9 (makespan with start-up costs).

use super::Net;
use alloc::vec::Vec;

/// Eqs. (5) and (4): alpha_0 = 1 / (1 + rho sum_i L^g A_0 / (rho L^g A_i + L G_i))
/// and alpha_i = alpha_0 L^g A_0 / (rho L^g A_i + L G_i), over the children
/// `active` (0-based). rho = 1 gives eq. (3), Theorem 4 and lines 2-3 of
/// Algorithms PE and S. Each quotient is computed divided through by L, as
/// L^(g-1) A_0 / (rho L^(g-1) A_i + G_i).
pub fn alphas(net: &Net, active: &[usize], rho: f64) -> (f64, Vec<f64>) {
    let unit = net.steps_per_unit();
    let k: Vec<f64> = active.iter().map(|&i| unit * net.a0 / (rho * unit * net.a[i] + net.g[i])).collect();
    let alpha0 = 1.0 / (1.0 + rho * k.iter().sum::<f64>());
    (alpha0, k.into_iter().map(|k| alpha0 * k).collect())
}

/// r_i = alpha_i^(g-1) L^(g-1) beta_i: message j+1 to P_i is r_i times
/// message j (Sec. IV-B: while P_i computes alpha_i^(g-1) alpha_ij L^g steps
/// it can receive alpha_i^(g-1) alpha_ij L^(g-1) beta_i L elements).
pub fn ratio(net: &Net, i: usize, alpha: f64) -> f64 {
    libm::pow(alpha * net.l, net.gamma - 1.0) * net.beta(i)
}

/// Lemma 2: P_i can receive the whole data set while it computes iff
/// r_i >= 1 - alpha_i.
pub fn feasible(r: f64, alpha: f64) -> bool {
    r + alpha >= 1.0
}

/// Lemma 8: n_i* = ln((r-1)/alpha + 1) / ln r, or 1/alpha when r = 1.
/// Infinite at Lemma 2's limit r = 1 - alpha; meaningless below it.
pub fn n_star(r: f64, alpha: f64) -> f64 {
    if r == 1.0 {
        1.0 / alpha
    } else {
        // log1p keeps both logarithms accurate as r approaches 1.
        libm::log1p((r - 1.0) / alpha) / libm::log1p(r - 1.0)
    }
}

/// The whole number of messages P_i receives, ceil(n_i*). A relative slack
/// of 1e-9 keeps a whole n_i* whole despite rounding, as the message
/// sequence of [`super::timeline`] does.
pub fn messages(n_star: f64) -> f64 {
    libm::ceil(n_star * (1.0 - 1e-9)).max(1.0)
}

/// Lemma 2's numbers for one child in one round of PE: r_i and alpha_i.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Check {
    pub child: usize,
    pub r: f64,
    pub alpha: f64,
}

/// What one run of PE did, kept for explain mode.
#[derive(Debug, Clone, PartialEq)]
pub struct Pe {
    pub rho: f64,
    /// The children kept (in the given order).
    pub kept: Vec<usize>,
    /// The children removed, in removal order, each with the numbers of the
    /// round that removed it.
    pub removed: Vec<Check>,
    /// The last round's numbers, which every kept child passes.
    pub passed: Vec<Check>,
}

/// Algorithm PE (Table II) at rho installments (the paper runs it at rho = 1,
/// Algorithm M "calls PE with rho = 1"): while some child fails Lemma 2,
/// remove the one with the least r_i + alpha_i and recompute the fractions.
/// At most m rounds.
pub fn eliminate(net: &Net, mut active: Vec<usize>, rho: f64) -> Pe {
    let mut removed = Vec::new();
    loop {
        let (_, alphas) = alphas(net, &active, rho);
        let checks: Vec<Check> = active.iter().zip(&alphas).map(|(&i, &a)| Check { child: i, r: ratio(net, i, a), alpha: a }).collect();
        let worst = checks.iter().filter(|c| !feasible(c.r, c.alpha)).min_by(|x, y| (x.r + x.alpha).total_cmp(&(y.r + y.alpha))).copied();
        match worst {
            Some(w) => {
                active.retain(|&j| j != w.child);
                removed.push(w);
            }
            None => return Pe { rho, kept: active, removed, passed: checks },
        }
    }
}

/// Theorem 9: T = alpha_0 L^g A_0 + theta_cp + theta_cm +
/// max_i (ceil(n_i*) - 1) max(theta_cp, theta_cm), with the first term alone (Theorems 4 and 6) when there are no start-ups.
/// Returns (T, first term), or `None` if a child fails Lemma 2. With no
/// child, P0 computes alone: L^g A_0 + theta_cp.
pub fn theorem9(net: &Net, alpha0: f64, active: &[usize], alphas: &[f64]) -> Option<(f64, f64)> {
    let first = alpha0 * net.steps() * net.a0;
    if active.is_empty() {
        return Some((first + net.theta_cp, first));
    }
    let mut most = 0.0f64;
    for (&i, &a) in active.iter().zip(alphas) {
        let r = ratio(net, i, a);
        if !feasible(r, a) {
            return None;
        }
        most = most.max(messages(n_star(r, a)));
    }
    Some((first + net.theta_cp + net.theta_cm + (most - 1.0) * net.theta_max(), first))
}

/// Theorem 9 at rho installments for the children `active`, for FON.
pub fn makespan_at(net: &Net, active: &[usize], rho: f64) -> Option<f64> {
    let (alpha0, alphas) = alphas(net, active, rho);
    theorem9(net, alpha0, active, &alphas).map(|(t, _)| t)
}

/// Messages of the whole schedule at rho installments: sum_i ceil(n_i*)
/// (infinite if a child fails Lemma 2).
pub fn message_count(net: &Net, active: &[usize], rho: f64) -> f64 {
    let (_, alphas) = alphas(net, active, rho);
    active
        .iter()
        .zip(&alphas)
        .map(|(&i, &a)| {
            let r = ratio(net, i, a);
            if feasible(r, a) { messages(n_star(r, a)) } else { f64::INFINITY }
        })
        .sum()
}
