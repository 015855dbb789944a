//! The closed form of one sequence without result return.
//!
//! With a deadline T, a worker whose message may start when R time is left
//! before T gets the most load when it finishes exactly at T:
//! R = S_i + (C_i + A_i) alpha_i, and the port is free again with
//! R' = A_i alpha_i left, so the next worker's load follows from this one's:
//! A_i alpha_i = S_(i+1) + (C_(i+1) + A_(i+1)) alpha_(i+1) (Bharadwaj et al.
//! 1996, ch. 3, with start-ups). Every alpha_i, hence the total, is affine
//! in T: T for the total V is one division, O(m).
//!
//! Why the best of these closed forms is the optimum of a fixed order:
//! the loads of a sequence are an LP (program.rs) whose every vertex has,
//! for each worker, its finishing row tight or its load 0. A worker at load
//! 0 is better left out (it would pay S_i for nothing), so the optimum over
//! the order's subsequences is the best of their all-tight closed forms
//! with every load positive, which `search` looks for. The whole sequence's
//! closed form alone is not: even with every load positive, leaving a
//! worker out can be better (C_1 > C_2 + A_2: the first message costs the
//! port more than the second worker gains from it).

use super::Worker;
use alloc::vec::Vec;

/// A sequence served with every worker finishing at `makespan`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Served {
    /// Worker indices, in the order served.
    pub sequence: Vec<usize>,
    /// alpha of each worker of `sequence`, all > 0, summing to V.
    pub loads: Vec<f64>,
    pub makespan: f64,
}

/// The loads of `sequence` finishing together at T, as affine functions
/// of T: (d alpha / d T, alpha at T = 0) per worker.
fn affine(workers: &[Worker], sequence: &[usize]) -> Vec<(f64, f64)> {
    let mut left = (1.0, 0.0);
    sequence
        .iter()
        .map(|&i| {
            let w = workers[i];
            let alpha = (left.0 / (w.c + w.a), (left.1 - w.s) / (w.c + w.a));
            left = (w.a * alpha.0, w.a * alpha.1);
            alpha
        })
        .collect()
}

/// The all-tight closed form of `sequence` for the load V: T and the loads,
/// some possibly <= 0 (the sequence then serves a worker it should not).
pub(crate) fn tight(workers: &[Worker], sequence: &[usize], v: f64) -> (f64, Vec<f64>) {
    let alphas = affine(workers, sequence);
    let (slope, at_zero) = alphas.iter().fold((0.0, 0.0), |(p, q), a| (p + a.0, q + a.1));
    let t = (v - at_zero) / slope;
    (t, alphas.iter().map(|a| a.0 * t + a.1).collect())
}

/// The sequence with the workers whose closed-form load is <= 0 dropped,
/// again until every load is positive (at most m rounds): the standard
/// repair; the search then asks whether any subsequence does better.
pub(crate) fn served(workers: &[Worker], sequence: &[usize], v: f64) -> Served {
    let mut sequence = sequence.to_vec();
    loop {
        let (makespan, loads) = tight(workers, &sequence, v);
        // The first worker's load is T / (C + A) > 0 for T > S_1: one
        // worker alone always has a positive load.
        let positive = |x: &f64| *x > 0.0 && x.is_finite();
        if loads.iter().all(positive) || sequence.len() == 1 {
            // Round-off of the affine sums: the loads are rescaled to V.
            let total: f64 = loads.iter().sum();
            return Served { sequence, loads: loads.iter().map(|x| x * v / total).collect(), makespan };
        }
        let kept: Vec<usize> = sequence.iter().zip(&loads).filter(|(_, x)| positive(x)).map(|(&i, _)| i).collect();
        sequence = if kept.is_empty() { sequence[..1].to_vec() } else { kept };
    }
}

/// The load a sequence of workers with linear costs (start-ups dropped)
/// computes by a deadline, per unit of the time left: kappa with load =
/// kappa * R, the sequence by non-decreasing C. With linear costs that
/// order is optimal and uses every worker (Bharadwaj et al. 1996;
/// Beaumont et al. 2005), and dropping start-ups only shortens every
/// message, so kappa * R bounds what any order of any subset of these
/// workers, start-ups paid, computes in R.
pub(crate) fn linear_rate<'a>(by_c: impl IntoIterator<Item = &'a Worker>) -> f64 {
    let (mut rate, mut left) = (0.0, 1.0);
    for w in by_c {
        let alpha = left / (w.c + w.a);
        rate += alpha;
        left = w.a * alpha;
    }
    rate
}

/// The worker indices by non-decreasing C (ties by A, then index).
pub(crate) fn by_c(workers: &[Worker]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..workers.len()).collect();
    crate::sort::sort_by(&mut order, |&i, &j| workers[i].c.total_cmp(&workers[j].c).then(workers[i].a.total_cmp(&workers[j].a)));
    order
}

/// A makespan no schedule beats: every finishing time includes the first
/// message's start-up, at least min S_i, and the rest is at least the
/// linear-cost optimum over all workers, V / kappa (every order, every
/// subset: `linear_rate`).
pub(crate) fn lower_bound(workers: &[Worker], v: f64) -> f64 {
    let first = workers.iter().map(|w| w.s).fold(f64::INFINITY, f64::min);
    first + v / linear_rate(by_c(workers).iter().map(|&i| &workers[i]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    fn w(s: f64, c: f64, a: f64) -> Worker {
        Worker { s, c, a }
    }

    /// One worker: T = S + (C + A) V.
    #[test]
    fn one_worker() {
        let s = served(&[w(2.0, 0.5, 3.0)], &[0], 4.0);
        assert_abs_diff_eq!(s.makespan, 2.0 + 3.5 * 4.0, epsilon = 1e-12);
        assert_eq!(s.loads, [4.0]);
    }

    /// Two identical workers, S = 0, C = 1, A = 1, V = 3: alpha_2 =
    /// A alpha_1 / (C + A) = alpha_1 / 2, so alpha_1 = 2, alpha_2 = 1 and
    /// T = (C + A) alpha_1 = 4. With S = 1: alpha_1 = alpha_2 + ... by hand:
    /// 1 * a1 = 1 + 2 a2, a1 + a2 = 3 -> a2 = 2/3, a1 = 7/3, T = 1 + 2 a1 = 17/3.
    #[test]
    fn two_identical_workers_by_hand() {
        let s = served(&[w(0.0, 1.0, 1.0); 2], &[0, 1], 3.0);
        assert_abs_diff_eq!(s.makespan, 4.0, epsilon = 1e-12);
        assert_abs_diff_eq!(s.loads[0], 2.0, epsilon = 1e-12);
        assert_abs_diff_eq!(s.loads[1], 1.0, epsilon = 1e-12);
        let s = served(&[w(1.0, 1.0, 1.0); 2], &[0, 1], 3.0);
        assert_abs_diff_eq!(s.makespan, 17.0 / 3.0, epsilon = 1e-12);
        assert_abs_diff_eq!(s.loads[1], 2.0 / 3.0, epsilon = 1e-12);
    }

    /// A start-up larger than what the first worker leaves: the second
    /// worker's closed-form load is negative, and it is dropped.
    #[test]
    fn a_worker_not_worth_its_start_up_is_dropped() {
        let s = served(&[w(0.0, 1.0, 1.0), w(100.0, 1.0, 1.0)], &[0, 1], 1.0);
        assert_eq!(s.sequence, [0]);
        assert_abs_diff_eq!(s.makespan, 2.0, epsilon = 1e-12);
    }
}
