//! For a fixed send sequence (which machine gets chunk j) MIP (2)-(11) of
//! 003 is an LP: chunk sizes, send times and the makespan. tau(alpha) =
//! max{a1 alpha, a2 alpha + b2} is convex and appears only in rows (4) and
//! (5), on the side they bound from below, so each of those rows written
//! once per piece represents it exactly (NOTES.md) and tau needs no
//! variable: 41 variables and 60 rows at n = 20 instead of 61 and 80, half
//! the engine's time. q_ij = t_j x_ij and the big-M rows (5), (10), (11)
//! disappear once x is fixed.

use super::Instance;
use crate::error::Result;
use crate::lp::{self, Limits, Model, Sense, Var};
use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

/// Chunk j goes to machine `seq[j]`.
pub type Sequence = Vec<u8>;

/// The LP's answer for one sequence, in the instance's units.
#[derive(Debug, Clone, PartialEq)]
pub struct Timed {
    pub makespan: f64,
    pub alpha: Vec<f64>,
    /// When sending chunk j starts.
    pub t: Vec<f64>,
    pub iterations: u64,
}

/// The LP for `seq`, scaled: loads in units of rho-sized chunks' worth
/// V/n, times in units of `inst.time_unit()`.
pub fn model(inst: &Instance, seq: &[u8]) -> (Model, Vec<Var>, Vec<Var>, Var) {
    let (x0, t0) = (inst.load_unit(), inst.time_unit());
    let (s, o, c) = (inst.s / t0, inst.o / t0, inst.c * x0 / t0);
    let (a1, a2, b2) = (inst.a1 * x0 / t0, inst.a2 * x0 / t0, inst.b2 / t0);
    let n = seq.len();
    let mut lp = Model::default();
    let big_t = lp.var("T", 0.0, f64::INFINITY, 1.0);
    // (6): no chunk is sent before its machine has started.
    let t: Vec<Var> = (0..n).map(|j| lp.var(format!("t_{}", j + 1), s, f64::INFINITY, 0.0)).collect();
    let alpha: Vec<Var> = (0..n).map(|j| lp.var(format!("alpha_{}", j + 1), 0.0, f64::INFINITY, 0.0)).collect();
    for j in 0..n {
        // (3): messages follow one another on the channel.
        if j + 1 < n {
            lp.row(format!("channel_{}", j + 1), vec![(t[j + 1], 1.0), (t[j], -1.0), (alpha[j], -c)], Sense::Ge, o);
        }
        // (5) for the machine's next chunk, or (4) after its last one, once
        // per piece of tau = max{a1 alpha, a2 alpha + b2} (11): tau appears
        // only on the small side of these rows, so the two rows are tau.
        let next = (j + 1..n).find(|&l| seq[l] == seq[j]);
        for (piece, (a, b)) in [(1, (a1, 0.0)), (2, (a2, b2))] {
            let done = vec![(t[j], -1.0), (alpha[j], -(c + a))];
            match next {
                Some(l) => lp.row(format!("machine_{}_{}_{piece}", j + 1, l + 1), [vec![(t[l], 1.0)], done].concat(), Sense::Ge, o + b),
                None => lp.row(format!("end_{}_{piece}", j + 1), [vec![(big_t, 1.0)], done].concat(), Sense::Ge, o + b),
            }
        }
    }
    // (7)
    lp.row("load", alpha.iter().map(|&a| (a, 1.0)).collect(), Sense::Eq, inst.v / x0);
    (lp, t, alpha, big_t)
}

/// Solves the LP of `seq`.
pub fn solve(inst: &Instance, seq: &[u8]) -> Result<Timed> {
    let (lp, t, alpha, big_t) = model(inst, seq);
    let sol = lp::solve(&lp::Microlp, &lp, Limits::default(), "isoefficiency sequence")?;
    let (x0, t0) = (inst.load_unit(), inst.time_unit());
    Ok(Timed {
        makespan: sol.get(big_t) * t0,
        alpha: alpha.iter().map(|&a| sol.get(a).max(0.0) * x0).collect(),
        t: t.iter().map(|&x| sol.get(x) * t0).collect(),
        iterations: sol.iterations,
    })
}

/// Relabels machines in order of first use: sequences that differ only by
/// a permutation of identical machines become equal.
pub fn canonical(seq: &[u8]) -> Sequence {
    let mut map = [u8::MAX; 256];
    let mut next = 0u8;
    seq.iter()
        .map(|&x| {
            if map[x as usize] == u8::MAX {
                map[x as usize] = next;
                next += 1;
            }
            map[x as usize]
        })
        .collect()
}
