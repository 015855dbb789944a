//! Algorithm M (Table V): PE at rho = 1, then FON (Table IV) for the number
//! of installments rho unless it is given; fractions of eqs. (4)-(5),
//! makespan of Theorems 6 and 9.

use super::bounds::rho_bounds;
use super::fractions::{alphas, eliminate, makespan_at, message_count};
use super::{assemble, Algorithm, Decision, Net, Output, Trace, MAX_MESSAGES, MAX_RHO};
use crate::error::Result;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

pub fn solve(net: &Net, rho: Option<usize>) -> Result<(Output, Trace)> {
    let first = eliminate(net, (0..net.m()).collect(), 1.0);
    let mut warnings = Vec::new();
    let fon = rho.is_none().then(|| fon(net, &first.kept, &mut warnings));
    let rho = fon.as_ref().map_or(rho.unwrap_or(1), |f| f.rho);
    // A given rho may fail Lemma 2 where rho = 1 passed: eliminate as PE
    // does, with the fractions of eq. (4) at this rho.
    let again = eliminate(net, first.kept.clone(), rho as f64);
    if !again.removed.is_empty() {
        let names: Vec<String> = again.removed.iter().map(|c| format!("P{}", c.child + 1)).collect();
        warnings.push(format!("with rho = {rho}, {} fail Lemma 2 although they pass at rho = 1", names.join(", ")));
    }
    let (alpha0, alphas) = alphas(net, &again.kept, rho as f64);
    let trace = Trace { pe: alloc::vec![first, again], fon };
    assemble(net, Decision { algorithm: Algorithm::M, rho, alpha0, alphas, warnings }, trace)
}

/// How FON chose rho, for explain mode.
#[derive(Debug, Clone, PartialEq)]
pub struct Fon {
    pub rho: usize,
    /// Lemma 10's [rho1, rho2, rho3] (homogeneous trees only).
    pub bounds: Option<[f64; 3]>,
    /// Where the search starts (LB, or 1) and the most it may reach (UB).
    pub lb: usize,
    pub ub: usize,
    /// Theorem 9's T at each rho the search weighed, in order (`None`:
    /// a child fails Lemma 2 there).
    pub tried: Vec<(usize, Option<f64>)>,
    /// Whether the message budget stopped it.
    pub budget: bool,
}

/// Algorithm FON (Table IV): from a start l, raise the number of
/// installments while l + 1 passes Lemma 2 for every child and Theorem 9
/// gives a shorter time at l + 1 than at l. The paper checks Lemma 2 for the
/// child with the least alpha_i^(g-1) beta_i only; every child must pass it
/// for the schedule to exist, so all are checked.
///
/// Homogeneous trees (A_i = A_0 = A, G_i = G) start at
/// LB = max{1, floor(min{rho1, rho2})} and stop at UB = ceil(max{rho1, rho3})
/// (Lemma 10). The extraction lost LB's brackets; floor is the one
/// Theorem 11 proves safe (T is non-increasing up to it). Heterogeneous
/// trees start at 1. Every search stops before a rho whose schedule would
/// need more than MAX_MESSAGES messages (without start-up costs T keeps
/// falling until Lemma 2 fails, where n_i* explodes): work, not a cap on
/// rho, ends it.
pub fn fon(net: &Net, active: &[usize], warnings: &mut Vec<String>) -> Fon {
    let none = Fon { rho: 1, bounds: None, lb: 1, ub: 1, tried: Vec::new(), budget: false };
    let Some(&first) = active.first() else { return none };
    let homogeneous = active.iter().all(|&i| net.a[i] == net.a0 && net.g[i] == net.g[first]);
    let cap = MAX_RHO as f64;
    let bounds = homogeneous.then(|| rho_bounds(net.a0, net.g[first], net.gamma, net.theta_cp, net.theta_cm, active.len() as f64, net.l));
    let (mut l, ub) = match bounds {
        Some([r1, r2, r3]) => {
            let lb = libm::floor(r1.min(r2)).clamp(1.0, cap);
            let ub = libm::ceil(r1.max(r3)).clamp(lb, cap);
            (lb as usize, ub as usize)
        }
        None => (1, MAX_RHO),
    };
    let lb = l;
    // Theorem 11: T does not increase up to LB, so if LB's schedule is too
    // big to draw, the largest smaller rho that fits is the best drawable.
    let mut budget = false;
    while l > 1 && message_count(net, active, l as f64) > MAX_MESSAGES as f64 {
        budget = true;
        l -= 1;
    }
    let mut t = makespan_at(net, active, l as f64);
    let mut tried = alloc::vec![(l, t)];
    while l < ub && !budget {
        let next = makespan_at(net, active, (l + 1) as f64);
        tried.push((l + 1, next));
        match (t, next) {
            (Some(now), Some(later)) if later < now => {
                if message_count(net, active, (l + 1) as f64) > MAX_MESSAGES as f64 {
                    budget = true;
                    break;
                }
                l += 1;
                t = next;
            }
            _ => break,
        }
    }
    warnings.push(if budget {
        format!("rho not given: FON stopped at rho = {l}; more installments would shorten T but need more than {MAX_MESSAGES} messages in all")
    } else if l == MAX_RHO {
        format!("rho not given: FON stopped at the largest rho accepted, {MAX_RHO} (one message per child and installment); more installments might be faster still")
    } else {
        format!(
            "rho not given: FON (Table IV) chose rho = {l}, the first number of installments from which one more does not \
             shorten Theorem 9's T (a local minimum: Theorem 9's ceilings make T uneven in rho)"
        )
    });
    Fon { rho: l, bounds, lb, ub, tried, budget }
}
