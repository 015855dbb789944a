//! The schedule of algorithms S and M (Tables III and V), message by
//! message. S is M with rho = 1.
//!
//! Child P_i (Sec. IV-B, Fig. 4, Example 2):
//! - message 0 carries S_i (alpha_i L elements) from time 0; the root sends
//!   to all children at once (its "separate ports");
//! - phase 0 computes S_i^g ((alpha_i L)^g steps) as soon as S_i has
//!   arrived, while message 1 brings S_{i,1} = min(r_i alpha_i, 1 - alpha_i) L;
//! - phase j computes S_i^(g-1) x S_{i,j} (alpha_i^(g-1) alpha_ij L^g steps)
//!   while message j+1 brings S_{i,j+1} = min(r_i alpha_ij, rest) L; phase
//!   j+1 starts when both have ended (the repeat loop of Algorithm S);
//! - the last phase also computes what needs the whole set: the remaining
//!   steps of S_i x S^(g-1) for g >= 3 and, for M, the rho - 1 further
//!   installments S_{km+i} x S^(g-1) — one computation and one theta_cp, as
//!   Theorem 9's proof counts ("a computation start-up cost for the remaining
//!   processing steps"). (Read literally, the pseudocode's line 21 / line 11
//!   is a separate computation after the loop; that would add one theta_cp
//!   for M, which is what the figures of Sec. VI print — see the golden test.)
//!
//! Every compute phase but the last lasts the same as the message it
//! overlaps plus its start-up, so with theta_cp >= theta_cm the slowest
//! child ends exactly at Theorem 9's T; with theta_cm > theta_cp the last
//! message, shorter than its phase, may end before a full
//! max(theta_cp, theta_cm) is spent and the schedule ends earlier than T.
//!
//! What the checker sees (see the module root): every message, lasting by
//! the elements it carries, handing over only the rows the receiver
//! computes. S_i is exactly message 0. For M the rows of the later
//! installments S_{km+i} travel first among the copies, at the head of
//! messages 1, 2, ...; the rest of each message is copies of other rows.
//! That the copies add up to the data set and arrive before the phase that
//! reads them is checked below.

use super::fractions::{messages, n_star, ratio};
use super::{Net, MAX_MESSAGES};
use crate::check::Checked;
use crate::error::{Error, Result};
use crate::schedule::Schedule;
use crate::validate;
use alloc::format;
use alloc::vec::Vec;
use serde::Serialize;

/// One message of data from P0 to a child.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Transfer {
    /// Receiving processor: i for P_i.
    pub to: usize,
    pub start: f64,
    pub end: f64,
    /// Elements carried.
    pub elements: f64,
    /// Of these, rows the receiver computes; the rest are copies it reads.
    pub owned: f64,
}

pub(crate) struct Built {
    pub schedule: Checked,
    pub transfers: Vec<Transfer>,
    /// Per processor P0..Pm, each message's size as a fraction of L.
    pub messages: Vec<Vec<f64>>,
    pub n_star: Vec<Option<f64>>,
}

/// Remaining fraction below which the data set counts as delivered.
const DONE: f64 = 1e-12;

/// Sizes (fractions of L) of the messages to a child: alpha_i, then
/// min(r alpha_ij, rest) until the whole set has arrived (Sec. IV-B).
/// `None` beyond `cap` messages.
pub fn message_sizes(alpha: f64, r: f64, cap: usize) -> Option<Vec<f64>> {
    let mut sizes = alloc::vec![alpha];
    let mut rest = 1.0 - alpha;
    while rest > DONE {
        if sizes.len() >= cap {
            return None;
        }
        let next = (r * sizes[sizes.len() - 1]).min(rest);
        sizes.push(next);
        rest -= next;
    }
    Some(sizes)
}

/// Builds and checks the schedule of S / M for the children `active`
/// (0-based) with fractions `alphas`, P0 keeping alpha0, rho installments.
pub(crate) fn build(net: &Net, alpha0: f64, active: &[usize], alphas: &[f64], rho: usize) -> Result<Built> {
    let m = net.m();
    let (l, steps) = (net.l, net.steps());
    let unit = net.steps_per_unit();
    let extra = (rho - 1) as f64;

    // Lemma 8 for every child, and the budget of messages.
    let mut plans = Vec::with_capacity(active.len());
    let mut total = 0.0;
    for (&i, &a) in active.iter().zip(alphas) {
        let r = ratio(net, i, a);
        let ns = n_star(r, a);
        total += messages(ns);
        if total.is_nan() || total > MAX_MESSAGES as f64 {
            let (field, advice) = if rho > 1 {
                (alloc::string::String::from("rho"), "use fewer installments or children, or faster links")
            } else {
                (validate::item("G", i), "use fewer children or faster links")
            };
            return Err(Error::infeasible(
                field,
                format!(
                    "with rho = {rho} the schedule needs more than {MAX_MESSAGES} messages in all: P{} alone needs \
                     ceil(n*) = {:.0} (Lemma 8, n* = {ns:.6}, r = {r:.6}, 1 - alpha = {:.6}); {advice}",
                    i + 1,
                    messages(ns),
                    1.0 - a
                ),
            ));
        }
        plans.push((i, a, r, ns));
    }

    let mut s = Schedule::new(net.rows(active.len()), l);
    let mut transfers = Vec::new();
    let mut sizes_out: Vec<Vec<f64>> = alloc::vec![Vec::new(); m + 1];
    let mut n_star_out = alloc::vec![None; m + 1];

    // P0 computes S_0 x S^(g-1), alpha_0 L^g steps, from time 0 while it sends.
    let mut makespan = net.theta_cp + net.a0 * alpha0 * steps;
    s.compute(0, (0.0, makespan), alpha0 * l);

    for &(i, a, r, ns) in &plans {
        let p = i + 1;
        let cap = (messages(ns) as usize).saturating_add(2);
        let sizes = message_sizes(a, r, cap)
            .ok_or_else(|| Error::internal(format!("P{p}: the message sequence outgrew Lemma 8's n* = {ns}")))?;
        let a_g1 = libm::pow(a, net.gamma - 1.0); // alpha_i^(g-1)
        let (theta_cm, gi, ai) = (net.theta_cm, net.g[i], net.a[i]);
        // Rows of installments 2..rho still to deliver (elements).
        let mut owed = extra * a * l;

        let end0 = theta_cm + gi * a * l;
        s.comm(0, p, (0.0, end0), a * l, 1.0);
        transfers.push(Transfer { to: p, start: 0.0, end: end0, elements: a * l, owned: a * l });
        let mut phase_starts = Vec::with_capacity(sizes.len());
        let mut start = end0;
        let n = sizes.len();
        for j in 0..n {
            // Steps of phase j (fractions of L^g): S_i^g, then S_i^(g-1) x S_ij.
            let mut work = if j == 0 { a_g1 * a } else { a_g1 * sizes[j] };
            if j + 1 == n {
                // What needs the whole set: the rest of S_i x S^(g-1)
                // (alpha_i - alpha_i^(g-1), zero for g = 2) and installments 2..rho.
                work += (a - a_g1) + extra * a;
            }
            let end = start + net.theta_cp + ai * work * steps;
            let mut next = end;
            if j + 1 < n {
                let x = sizes[j + 1] * l;
                let msg_end = start + theta_cm + gi * x;
                let own = if owed <= x * (1.0 + 1e-12) { owed } else { x };
                s.comm(0, p, (start, msg_end), own, 1.0).data = Some(x);
                owed -= own;
                transfers.push(Transfer { to: p, start, end: msg_end, elements: x, owned: own });
                next = next.max(msg_end);
            }
            s.compute(p, (start, end), work * steps / unit);
            phase_starts.push(start);
            makespan = makespan.max(end);
            start = next;
        }
        if owed > 1e-9 * l {
            return Err(Error::internal(format!("P{p}: {owed} elements of its later installments were never sent")));
        }
        audit(net, p, &transfers, &phase_starts)?;
        sizes_out[p] = sizes;
        n_star_out[p] = Some(ns);
    }
    s.makespan = makespan;
    let schedule = crate::checked(s)?;
    Ok(Built { schedule, transfers, messages: sizes_out, n_star: n_star_out })
}

/// What the checker cannot see, checked here: the messages to P_p carry the
/// whole set exactly once and each arrives before the phase that reads it.
fn audit(net: &Net, p: usize, transfers: &[Transfer], phase_starts: &[f64]) -> Result<()> {
    let mine: Vec<&Transfer> = transfers.iter().filter(|t| t.to == p).collect();
    let fail = |what: &str| Err(Error::internal(format!("P{p}: {what}")));
    if mine.len() != phase_starts.len() {
        return fail("one message per compute phase expected");
    }
    let eps = 1e-9 * mine.last().map_or(1.0, |t| t.end).max(f64::MIN_POSITIVE);
    let total: f64 = mine.iter().map(|t| t.elements).sum();
    if (total - net.l).abs() > 1e-9 * net.l {
        return fail("the messages do not carry the data set exactly once");
    }
    if mine.iter().zip(phase_starts).any(|(t, &start)| t.end > start + eps) {
        return fail("a phase starts before its message has arrived");
    }
    Ok(())
}
