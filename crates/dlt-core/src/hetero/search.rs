//! The sequence to serve: heuristic orders, a local search, and an exact
//! branch and bound over sequences (without result return).
//!
//! Serving the best order and subset with start-ups is NP-hard, so the
//! exact search is exponential; it spends a counted budget of nodes, never
//! time, and an answer it could not prove comes with the gap to a bound.
//!
//! The branch and bound asks the question in its deadline form: which
//! sequence computes the most load by a deadline D? A prefix leaves the
//! port free with R time to go; appending worker i (only if R > S_i) gives
//! it (R - S_i) / (C_i + A_i) and leaves R' = A_i alpha_i (recurrence.rs).
//! No completion of the prefix computes more than kappa * R more, kappa the
//! linear-cost rate of the workers left that fit a start-up in R
//! (`recurrence::linear_rate`). With D just below the incumbent's makespan
//! T, a sequence reaching V by D is strictly better (its makespan is at most
//! D); none reaching it proves that nothing beats D, the lower bound.

use super::recurrence::{self, linear_rate, Served};
use super::Worker;
use alloc::vec::Vec;

/// Relative distance below the incumbent at which the branch and bound
/// sets its deadline: a search that finds nothing proves the incumbent
/// within it, below the 1e-9 the answer calls proven.
pub(crate) const PROOF_GAP: f64 = 1e-10;

/// Which sequences may be served: subsequences of `pool` in its order, or
/// (`free`) any order of any subset of it, `pool` then being the order the
/// search tries children in.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scope<'a> {
    pub pool: &'a [usize],
    pub free: bool,
}

/// A move of the local search.
#[derive(Debug, Clone, Copy)]
enum Move {
    Drop(usize),
    /// Positions k - 1 and k exchanged.
    Swap(usize),
    /// Worker i inserted at position k.
    Insert(usize, usize),
}

/// The moves a local search tries from a sequence, in a fixed order: each
/// worker dropped; in a free order, each adjacent pair swapped; each unused
/// worker inserted (at its place in a fixed order, anywhere in a free one).
/// Listed as moves, not sequences: m = 1000 has ~10^6 of them.
fn moves(sequence: &[usize], scope: Scope, places: &[usize]) -> Vec<Move> {
    let mut out = Vec::new();
    if sequence.len() > 1 {
        out.extend((0..sequence.len()).map(Move::Drop));
    }
    if scope.free {
        out.extend((1..sequence.len()).map(Move::Swap));
    }
    let mut served = alloc::vec![false; places.len()];
    sequence.iter().for_each(|&i| served[i] = true);
    for &i in scope.pool.iter().filter(|&&i| !served[i]) {
        if scope.free {
            out.extend((0..=sequence.len()).map(|k| Move::Insert(i, k)));
        } else {
            let k = sequence.iter().position(|&j| places[j] > places[i]).unwrap_or(sequence.len());
            out.push(Move::Insert(i, k));
        }
    }
    out
}

fn apply(sequence: &[usize], step: Move) -> Vec<usize> {
    let mut s = sequence.to_vec();
    match step {
        Move::Drop(k) => {
            s.remove(k);
        }
        Move::Swap(k) => s.swap(k - 1, k),
        Move::Insert(i, k) => s.insert(k, i),
    }
    s
}

/// Each worker's position in the pool (usize::MAX outside it).
pub(crate) fn places(m: usize, scope: Scope) -> Vec<usize> {
    let mut at = alloc::vec![usize::MAX; m];
    scope.pool.iter().enumerate().for_each(|(p, &i)| at[i] = p);
    at
}

/// First-improvement local search from `start` over `neighbours`, with
/// `eval` giving a sequence's makespan and the sequence it really serves
/// (the evaluation drops workers not worth their start-up), or `None` once
/// the budget is spent.
pub(crate) fn improve<T>(start: (f64, T), scope: Scope, places: &[usize], mut eval: impl FnMut(&[usize]) -> Option<(f64, T)>, sequence_of: impl Fn(&T) -> &[usize]) -> (f64, T) {
    let mut best = start;
    'moves: loop {
        let from = sequence_of(&best.1).to_vec();
        for step in moves(&from, scope, places) {
            let Some(candidate) = eval(&apply(&from, step)) else { break 'moves };
            if candidate.0 < best.0 * (1.0 - 1e-12) {
                best = candidate;
                continue 'moves;
            }
        }
        break;
    }
    best
}

/// The branch and bound of one instance without result return.
pub(crate) struct Search<'a> {
    workers: &'a [Worker],
    v: f64,
    budget: u64,
    /// Where the current probe stops.
    limit: u64,
    /// Nodes visited and sequences evaluated, each O(m) work.
    pub nodes: u64,
    by_c: Vec<usize>,
}

/// The best sequence found, and the best lower bound proven of the scope's
/// optimum (at least the relaxation's): within PROOF_GAP of the best, the
/// best is proven.
pub(crate) struct Outcome {
    pub best: Served,
    pub bound: f64,
}

impl<'a> Search<'a> {
    pub fn new(workers: &'a [Worker], v: f64, budget: u64) -> Self {
        Search { workers, v, budget, limit: budget, nodes: 0, by_c: recurrence::by_c(workers) }
    }

    fn spent(&self) -> bool {
        self.nodes >= self.limit.min(self.budget)
    }

    /// `recurrence::served`, counted; `None` once the budget is spent.
    pub fn evaluate(&mut self, sequence: &[usize]) -> Option<Served> {
        if self.spent() {
            return None;
        }
        self.nodes += 1;
        Some(recurrence::served(self.workers, sequence, self.v))
    }

    /// The best of the `seeds`' served sequences, improved by local search,
    /// then probed by the branch and bound while the budget lasts: first
    /// just below the incumbent (a proof); where that runs out of nodes,
    /// halfway between the lower bound (from `relaxed` up) and the lowest
    /// deadline left undecided. A probe that finds nothing raises the
    /// bound, one that finds a sequence lowers the incumbent; each may
    /// spend half the nodes left.
    pub fn run(&mut self, scope: Scope, seeds: &[Vec<usize>], relaxed: f64) -> Outcome {
        let mut best = seeds.iter().map(|s| recurrence::served(self.workers, s, self.v)).min_by(|x, y| x.makespan.total_cmp(&y.makespan)).expect("a seed");
        self.nodes += seeds.len() as u64;
        let places = places(self.workers.len(), scope);
        best = improve((best.makespan, best), scope, &places, |s| self.evaluate(s).map(|x| (x.makespan, x)), |x| &x.sequence).1;
        let (mut bound, mut undecided) = (relaxed, f64::INFINITY);
        loop {
            let proof = best.makespan * (1.0 - PROOF_GAP);
            let high = undecided.min(proof);
            let left = self.budget.saturating_sub(self.nodes);
            if bound >= proof || high - bound <= PROOF_GAP * best.makespan || left < self.workers.len() as u64 {
                return Outcome { best, bound };
            }
            let deadline = if undecided > proof { proof } else { (bound + high) / 2.0 };
            self.limit = self.nodes + left.div_ceil(2);
            let mut used = alloc::vec![false; self.workers.len()];
            match self.dive(scope, &places, deadline, &mut Vec::new(), &mut used, deadline, 0.0, 0) {
                Dive::Found(sequence, loads) => best = self.better(best, sequence, loads),
                Dive::None => bound = bound.max(deadline),
                Dive::Spent => undecided = deadline,
            }
            self.limit = self.budget;
        }
    }

    /// A sequence that computes V by the deadline: its closed form, or if
    /// that round-off fails to beat the incumbent, its loads at the
    /// deadline scaled down to V (each worker then finishes earlier).
    fn better(&self, incumbent: Served, sequence: Vec<usize>, loads: Vec<f64>) -> Served {
        let exact = recurrence::served(self.workers, &sequence, self.v);
        if exact.makespan < incumbent.makespan {
            return exact;
        }
        let total: f64 = loads.iter().sum();
        let loads: Vec<f64> = loads.iter().map(|x| x * self.v / total).collect();
        let makespan = super::gantt::finishing(self.workers, &sequence, &loads);
        if makespan < incumbent.makespan { Served { sequence, loads, makespan } } else { incumbent }
    }

    /// Depth first from a prefix with `left` time to the deadline and
    /// `load` computed; `from` the first pool position a fixed order may
    /// append.
    #[allow(clippy::too_many_arguments)]
    fn dive(&mut self, scope: Scope, places: &[usize], deadline: f64, prefix: &mut Vec<usize>, used: &mut [bool], left: f64, load: f64, from: usize) -> Dive {
        if self.spent() {
            return Dive::Spent;
        }
        self.nodes += 1;
        if load >= self.v {
            let loads = self.loads_by(deadline, prefix);
            return Dive::Found(prefix.clone(), loads);
        }
        let allowed = |p: usize| scope.free || p >= from;
        let fits = |used: &[bool], i: usize| !used[i] && self.workers[i].s < left;
        let rate = linear_rate(self.by_c.iter().filter(|&&i| fits(used, i) && places[i] != usize::MAX && allowed(places[i])).map(|&i| &self.workers[i]));
        if load + rate * left < self.v {
            return Dive::None;
        }
        for p in (0..scope.pool.len()).filter(|&p| allowed(p)) {
            let i = scope.pool[p];
            if !fits(used, i) {
                continue;
            }
            let w = self.workers[i];
            let alpha = (left - w.s) / (w.c + w.a);
            used[i] = true;
            prefix.push(i);
            let below = self.dive(scope, places, deadline, prefix, used, w.a * alpha, load + alpha, p + 1);
            prefix.pop();
            used[i] = false;
            if !matches!(below, Dive::None) {
                return below;
            }
        }
        Dive::None
    }

    /// The loads of a sequence all finishing at the deadline.
    fn loads_by(&self, deadline: f64, sequence: &[usize]) -> Vec<f64> {
        let mut left = deadline;
        sequence.iter().map(|&i| {
            let w = self.workers[i];
            let alpha = (left - w.s) / (w.c + w.a);
            left = w.a * alpha;
            alpha
        }).collect()
    }
}

enum Dive {
    Found(Vec<usize>, Vec<f64>),
    None,
    Spent,
}

/// Every sequence of the scope (each subsequence of a fixed order, each
/// order of each subset of a free one), if there are at most `most`.
pub(crate) fn every_sequence(scope: Scope, most: usize) -> Option<Vec<Vec<usize>>> {
    fn extend(scope: Scope, prefix: &mut Vec<usize>, from: usize, out: &mut Vec<Vec<usize>>, most: usize) -> bool {
        for p in if scope.free { 0 } else { from }..scope.pool.len() {
            let i = scope.pool[p];
            if prefix.contains(&i) {
                continue;
            }
            prefix.push(i);
            out.push(prefix.clone());
            let within = out.len() <= most && extend(scope, prefix, p + 1, out, most);
            prefix.pop();
            if !within {
                return false;
            }
        }
        true
    }
    let mut out = Vec::new();
    extend(scope, &mut Vec::new(), 0, &mut out, most).then_some(out)
}
