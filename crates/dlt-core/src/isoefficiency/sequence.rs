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
use crate::lp::{self, Model, Sense, Var};
use alloc::format;
use alloc::string::String;
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

/// A row (4)/(5)'s name suffix, its chunk's terms (send and computing)
/// and its constant.
type Piece = (String, Vec<(Var, f64)>, f64);

/// How tau = max{a1 alpha, a2 alpha + b2} enters the LP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tau {
    /// Rows (4)-(5) once per piece, no tau variable: the smaller LP.
    PerPiece,
    /// A variable tau_j above both pieces, as (11) writes it: what the
    /// engine solves where it fails on the smaller LP (extreme scales).
    Variable,
}

/// The LP for `seq`, scaled: loads in units of rho-sized chunks' worth
/// V/n, times in units of `inst.time_unit()`.
///
/// `seq` may be a prefix: chunks past it go to machines not yet chosen,
/// and the LP is then a relaxation of every sequence that starts with it
/// (proof.rs's bound). It keeps what holds whatever their machines: the
/// channel, each chunk done by T (a machine's later chunks only end
/// later), and the free chunks' busy time (receiving, computing and O, on
/// one machine at a time) within the machines' room before T. That sum
/// needs tau as a variable. With the whole
/// sequence it is the LP of that sequence, exactly.
pub fn model(inst: &Instance, seq: &[u8], tau: Tau) -> (Model, Vec<Var>, Vec<Var>, Var) {
    let (x0, t0) = (inst.load_unit(), inst.time_unit());
    let (s, o, c) = (inst.s / t0, inst.o / t0, inst.c * x0 / t0);
    let (a1, a2, b2) = (inst.a1 * x0 / t0, inst.a2 * x0 / t0, inst.b2 / t0);
    let (n, fixed) = (inst.n, seq.len());
    debug_assert!(fixed <= n);
    let tau = if fixed < n { Tau::Variable } else { tau };
    let mut lp = Model::default();
    let big_t = lp.var("T", 0.0, f64::INFINITY, 1.0);
    // (6): no chunk is sent before its machine has started.
    let t: Vec<Var> = (0..n).map(|j| lp.var(format!("t_{}", j + 1), s, f64::INFINITY, 0.0)).collect();
    let alpha: Vec<Var> = (0..n).map(|j| lp.var(format!("alpha_{}", j + 1), 0.0, f64::INFINITY, 0.0)).collect();
    let mut taus = Vec::new();
    for j in 0..n {
        // (3): messages follow one another on the channel.
        if j + 1 < n {
            lp.row(format!("channel_{}", j + 1), vec![(t[j + 1], 1.0), (t[j], -1.0), (alpha[j], -c)], Sense::Ge, o);
        }
        // (5) for the machine's next chunk, or (4) after its last one: the
        // chunk's send, computing (tau) and O end before. tau appears only on
        // the small side of these rows, so they take its pieces one by one,
        // or a variable above both (11).
        let next = if j < fixed { (j + 1..fixed).find(|&l| seq[l] == seq[j]) } else { None };
        let pieces: Vec<Piece> = match tau {
            Tau::PerPiece => [(1, a1, 0.0), (2, a2, b2)].into_iter().map(|(k, a, b)| (format!("_{k}"), vec![(alpha[j], -(c + a))], b)).collect(),
            Tau::Variable => {
                let tau_j = lp.var(format!("tau_{}", j + 1), 0.0, f64::INFINITY, 0.0);
                lp.row(format!("core_{}", j + 1), vec![(tau_j, 1.0), (alpha[j], -a1)], Sense::Ge, 0.0);
                lp.row(format!("out_{}", j + 1), vec![(tau_j, 1.0), (alpha[j], -a2)], Sense::Ge, b2);
                taus.push(tau_j);
                vec![(String::new(), vec![(alpha[j], -c), (tau_j, -1.0)], 0.0)]
            }
        };
        for (suffix, terms, b) in pieces {
            let done = [vec![(t[j], -1.0)], terms].concat();
            match next {
                Some(l) => lp.row(format!("machine_{}_{}{suffix}", j + 1, l + 1), [vec![(t[l], 1.0)], done].concat(), Sense::Ge, o + b),
                None => lp.row(format!("end_{}{suffix}", j + 1), [vec![(big_t, 1.0)], done].concat(), Sense::Ge, o + b),
            }
        }
    }
    if fixed < n {
        // The free chunks' busy time (c alpha + tau + O each) fits in the
        // machines' room: a used machine's from the end of its last fixed
        // chunk to T, one not yet used from its first chunk's send to T, the
        // k-th of them no earlier than the k-th free chunk's send (one that
        // stays unused only adds room).
        let lasts: Vec<usize> = (0..fixed).filter(|&j| !seq[j + 1..fixed].contains(&seq[j])).collect();
        let unused = (inst.m - lasts.len()).min(n - fixed);
        let mut terms = vec![(big_t, (lasts.len() + unused) as f64)];
        for &j in &lasts {
            terms.extend([(t[j], -1.0), (alpha[j], -c), (taus[j], -1.0)]);
        }
        terms.extend(t[fixed..fixed + unused].iter().map(|&x| (x, -1.0)));
        for j in fixed..n {
            terms.extend([(alpha[j], -c), (taus[j], -1.0)]);
        }
        lp.row("busy", terms, Sense::Ge, (n - fixed + lasts.len()) as f64 * o);
    }
    // (7)
    lp.row("load", alpha.iter().map(|&a| (a, 1.0)).collect(), Sense::Eq, inst.v / x0);
    (lp, t, alpha, big_t)
}

/// Solves the LP of `seq`: the smaller form, or tau as a variable where
/// the engine fails on it (found by the adversarial suite at C = 2^32).
pub fn solve(inst: &Instance, seq: &[u8]) -> Result<Timed> {
    let solve = |tau| {
        let (lp, t, alpha, big_t) = model(inst, seq, tau);
        lp::solve(&lp::Auto, &lp, "isoefficiency sequence").map(|sol| (sol, t, alpha, big_t))
    };
    let (sol, t, alpha, big_t) = match solve(Tau::PerPiece) {
        Err(e) if e.code == crate::error::Code::Internal => solve(Tau::Variable)?,
        other => other?,
    };
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lp;
    use proptest::prelude::*;

    fn instance(m: usize, c: f64, v: f64) -> Instance {
        Instance { m, n: 8, v, s: 25.4, o: 0.075, c, a1: 0.109, a2: 4.132, b2: -27109.0 }
    }

    fn optimum(inst: &Instance, seq: &[u8], tau: Tau) -> f64 {
        let (lp, _, _, big_t) = model(inst, seq, tau);
        lp::solve(&lp::Microlp, &lp, "reference").unwrap().get(big_t) * inst.time_unit()
    }

    proptest! {
        #![proptest_config(crate::cases(60))]
        /// Rows (4)-(5) once per piece of tau and tau as a variable have
        /// the same optimum.
        #[test]
        fn tau_per_piece_equals_tau_as_a_variable(m in 1usize..4, c in 1e-4..1e-1, v in 1e3..3e5, seq in prop::collection::vec(0u8..4, 8)) {
            let inst = instance(m, c, v);
            let seq: Vec<u8> = seq.iter().map(|&x| x % m as u8).collect();
            let (small, printed) = (optimum(&inst, &seq, Tau::PerPiece), optimum(&inst, &seq, Tau::Variable));
            prop_assert!((small - printed).abs() <= 1e-9 * printed, "{small} against {printed}");
        }
    }

    /// The adversarial suite's input: at C = 2^32 the engine fails on the
    /// smaller LP of one machine's sequence (V from about 7,000 to 9,000)
    /// and the solve falls back to tau as a variable.
    #[test]
    fn extreme_scales_fall_back_to_tau_as_a_variable() {
        let inst = Instance { m: 2, n: 20, v: 8000.0, s: 25.4, o: 0.075, c: 4294967296.0, a1: 0.109, a2: 4.132, b2: -27109.0 };
        let seq = vec![0u8; 20];
        let (lp, ..) = model(&inst, &seq, Tau::PerPiece);
        assert_eq!(lp::solve(&lp::Microlp, &lp, "t").unwrap_err().code, crate::error::Code::Internal);
        let timed = solve(&inst, &seq).unwrap();
        // One machine receives everything: at least C V of sending.
        assert!(timed.makespan >= inst.c * inst.v);
    }
}
