//! Algorithm C (Sec. III, Theorem 1): the classical model of [57], in which
//! P_i's share of alpha_i L elements costs only (alpha_i L)^g steps, with
//! every other step (the "post-processing" cross terms) left to the root:
//! T = (1 - sum_{i>=1} alpha_i^g) L^g A_0, alpha_i = alpha_0 prod_{k<=i} f_k^(1/g),
//! f_k = A_{k-1}/A_k, alpha_0 = 1 / (1 + sum_i prod_{k<=i} f_k^(1/g)).
//! The product telescopes to (A_0/A_i)^(1/g), computed directly.
//! Theorem 1 neglects communication (it assumes beta_i >= 10) and has no
//! start-up costs; the schedule below has both, and says so when they make
//! it longer than Theorem 1's T.
//!
//! Schedule (units as in the module root: one unit = L^(g-1) steps):
//! P0 sends S_i to every P_i at once; P_i computes S_i^g (alpha_i^g L units)
//! as soon as it has S_i; P0 computes S_0 x S^(g-1) (alpha_0 L units) from
//! time 0, then the cross terms of every S_i, (alpha_i - alpha_i^g) L units
//! each. The message to P_i carries the alpha_i L elements of S_i (its
//! length) but hands over only the work P_i does, alpha_i^g L units.

use super::{Algorithm, Net, Output, Transfer};
use crate::error::Result;
use crate::schedule::Schedule;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

pub fn solve(net: &Net) -> Result<Output> {
    let (m, g, l, steps) = (net.m(), net.gamma, net.l, net.steps());
    let q: Vec<f64> = net.a.iter().map(|&a| libm::pow(net.a0 / a, 1.0 / g)).collect();
    let alpha0 = 1.0 / (1.0 + q.iter().sum::<f64>());
    let alphas: Vec<f64> = q.iter().map(|q| alpha0 * q).collect();
    let diag: Vec<f64> = alphas.iter().map(|&a| libm::pow(a, g)).collect(); // alpha_i^g
    let theorem = (1.0 - diag.iter().sum::<f64>()) * steps * net.a0;

    let mut s = Schedule::new(net.rows(m), l);
    let mut transfers = Vec::with_capacity(m);
    let own_end = net.theta_cp + net.a0 * alpha0 * steps;
    s.compute(0, (0.0, own_end), alpha0 * l);
    let mut makespan = own_end;
    let mut post = 0.0;
    for i in 0..m {
        let (p, a) = (i + 1, alphas[i]);
        let arrived = net.theta_cm + net.g[i] * a * l;
        s.comm(0, p, (0.0, arrived), diag[i] * l, 1.0).data = Some(a * l);
        transfers.push(Transfer { to: p, start: 0.0, end: arrived, elements: a * l, owned: diag[i] * l });
        let end = arrived + net.theta_cp + net.a[i] * diag[i] * steps;
        s.compute(p, (arrived, end), diag[i] * l);
        makespan = makespan.max(end);
        post += a - diag[i];
    }
    if post > 0.0 {
        let start = own_end;
        let end = start + net.theta_cp + net.a0 * post * steps;
        s.compute(0, (start, end), post * l);
        makespan = makespan.max(end);
    }
    s.makespan = makespan;
    let schedule = crate::checked(s)?;

    let mut warnings = Vec::new();
    let slow: Vec<String> = (0..m).filter(|&i| net.beta(i) < 10.0).map(|i| format!("P{} (beta = {:.4})", i + 1, net.beta(i))).collect();
    if !slow.is_empty() {
        warnings.push(format!("Theorem 1 assumes beta_i = A_i/G_i >= 10 (communication negligible); not met by {}", slow.join(", ")));
    }
    if makespan > theorem * (1.0 + 1e-9) {
        warnings.push(format!(
            "the schedule ends at {makespan}, after Theorem 1's T = {theorem}: Theorem 1 counts neither communication nor start-up costs"
        ));
    }
    let mut loads = alloc::vec![1.0 - diag.iter().sum::<f64>()];
    loads.extend(&diag);
    let mut alpha = alloc::vec![alpha0];
    alpha.extend(&alphas);
    let mut messages = alloc::vec![Vec::new()];
    messages.extend(alphas.iter().map(|&a| alloc::vec![a]));
    Ok(Output {
        algorithm: Algorithm::C,
        chunks: loads.iter().map(|&x| alloc::vec![x]).collect(),
        loads,
        alpha,
        messages,
        installments: 1,
        used: m,
        eliminated: Vec::new(),
        n_star: alloc::vec![None; m + 1],
        first_term: None,
        theorem,
        speedup: net.sequential() / makespan,
        transfers,
        warnings,
        schedule,
    })
}
