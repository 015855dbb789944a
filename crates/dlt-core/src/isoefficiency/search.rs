//! The search over send sequences. Small instances are enumerated (every
//! sequence up to a relabelling of the identical machines), which proves
//! the optimum; larger ones start from round-robin families, the pattern
//! the paper reports (RAM-sized chunks dealt in turn), and improve them by
//! local search with restarts until the LP budget is spent. The budget
//! counts LPs, not time: the same request finds the same schedule on every
//! machine.

use super::sequence::{self, canonical, Sequence, Timed};
use super::Instance;
use crate::error::Result;
use alloc::collections::BTreeMap;

/// n chunks dealt over k machines: chunk j to machine j mod k.
pub fn round_robin(n: usize, k: usize) -> Sequence {
    (0..n).map(|j| (j % k) as u8).collect()
}

/// Restarts of the local search in a row without a better sequence after
/// which the search ends before its budget is spent.
pub const STALE: usize = 30;

pub struct Search<'a> {
    inst: &'a Instance,
    /// Most LPs the search may solve.
    budget: usize,
    /// Makespan of every canonical sequence solved so far.
    seen: BTreeMap<Sequence, f64>,
    pub best: Option<(Sequence, Timed)>,
    pub iterations: u64,
}

impl<'a> Search<'a> {
    pub fn new(inst: &'a Instance, budget: usize) -> Self {
        Search { inst, budget, seen: BTreeMap::new(), best: None, iterations: 0 }
    }

    pub fn evaluated(&self) -> usize {
        self.seen.len()
    }

    /// The makespan the search found for `seq`, if it solved it.
    pub fn seen(&self, seq: &[u8]) -> Option<f64> {
        self.seen.get(&canonical(seq)).copied()
    }

    /// The best sequence solved after the best one, and its makespan: every
    /// solved sequence is remembered, so this is the search's own runner-up.
    pub fn runner_up(&self) -> Option<(&Sequence, f64)> {
        let best = self.best.as_ref().map(|(seq, _)| seq);
        self.seen.iter().filter(|(seq, _)| Some(*seq) != best).map(|(seq, &t)| (seq, t)).min_by(|x, y| x.1.total_cmp(&y.1))
    }

    fn spent(&self) -> bool {
        self.seen.len() >= self.budget
    }

    /// The makespan of `seq`, remembered by its canonical form.
    fn evaluate(&mut self, seq: &[u8]) -> Result<f64> {
        let key = canonical(seq);
        if let Some(&t) = self.seen.get(&key) {
            return Ok(t);
        }
        let timed = sequence::solve(self.inst, &key)?;
        self.iterations += timed.iterations;
        let t = timed.makespan;
        self.seen.insert(key.clone(), t);
        if self.best.as_ref().is_none_or(|(_, b)| t < b.makespan) {
            self.best = Some((key, timed));
        }
        Ok(t)
    }

    /// Canonical sequences of length n over at most m machines: sum of
    /// Stirling numbers S(n, k), k <= m (saturating).
    pub fn count(n: usize, m: usize) -> u64 {
        // s[k] = S(i, k) for the current i.
        let mut s = alloc::vec![0u64; m + 1];
        s[0] = 1;
        for _ in 0..n {
            for k in (1..=m).rev() {
                s[k] = s[k].saturating_mul(k as u64).saturating_add(s[k - 1]);
            }
            s[0] = 0;
        }
        s.iter().fold(0u64, |a, &x| a.saturating_add(x))
    }

    /// Every canonical sequence; returns whether it finished (a proof).
    pub fn exhaustive(&mut self) -> Result<bool> {
        let (n, m) = (self.inst.n, self.inst.m);
        let mut seq: Sequence = alloc::vec![0; n];
        // Restricted growth strings: seq[j] <= 1 + max(seq[..j]), < m.
        loop {
            if self.spent() {
                return Ok(false);
            }
            self.evaluate(&seq)?;
            let mut j = n;
            loop {
                if j == 1 {
                    return Ok(true);
                }
                j -= 1;
                let top = seq[..j].iter().copied().max().unwrap_or(0);
                if (seq[j] as usize) < m - 1 && seq[j] <= top {
                    seq[j] += 1;
                    for x in seq.iter_mut().skip(j + 1) {
                        *x = 0;
                    }
                    break;
                }
            }
        }
    }

    /// Round robin over k machines for every k: chunk j to machine j mod k.
    /// All of them, whatever the budget: at most m small LPs, the pattern
    /// the paper reports.
    pub fn round_robins(&mut self) -> Result<()> {
        for k in 1..=self.inst.m.min(self.inst.n) {
            self.evaluate(&round_robin(self.inst.n, k))?;
        }
        Ok(())
    }

    /// First-improvement descent from `start` over moving one chunk to
    /// another machine and exchanging the machines of two chunks.
    fn descend(&mut self, start: Sequence) -> Result<(Sequence, f64)> {
        let (n, m) = (self.inst.n, self.inst.m);
        let mut cur = canonical(&start);
        let mut value = self.evaluate(&cur)?;
        'improve: loop {
            let used = cur.iter().copied().max().map_or(0, |x| x as usize + 1);
            for j in 0..n {
                for i in 0..m.min(used + 1) {
                    if self.spent() {
                        break 'improve;
                    }
                    if cur[j] as usize == i {
                        continue;
                    }
                    let mut next = cur.clone();
                    next[j] = i as u8;
                    let t = self.evaluate(&next)?;
                    if t < value * (1.0 - 1e-12) {
                        (cur, value) = (canonical(&next), t);
                        continue 'improve;
                    }
                }
            }
            for j in 0..n {
                for l in j + 1..n {
                    if self.spent() {
                        break 'improve;
                    }
                    if cur[j] == cur[l] {
                        continue;
                    }
                    let mut next = cur.clone();
                    next.swap(j, l);
                    let t = self.evaluate(&next)?;
                    if t < value * (1.0 - 1e-12) {
                        (cur, value) = (canonical(&next), t);
                        continue 'improve;
                    }
                }
            }
            break;
        }
        Ok((cur, value))
    }

    /// Local search from the best sequence, then from perturbations of it,
    /// until the budget is spent or STALE restarts in a row found nothing
    /// better.
    pub fn improve(&mut self) -> Result<()> {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |bound: usize| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng % bound as u64) as usize
        };
        let Some((start, _)) = self.best.clone() else { return Ok(()) };
        self.descend(start)?;
        let (n, m) = (self.inst.n, self.inst.m);
        let mut stale = 0;
        while !self.spent() && stale < STALE {
            let Some((mut seq, before)) = self.best.clone() else { break };
            for _ in 0..1 + next(3) {
                let j = next(n);
                seq[j] = next(m) as u8;
            }
            self.descend(seq)?;
            let improved = self.best.as_ref().is_some_and(|(_, b)| b.makespan < before.makespan);
            stale = if improved { 0 } else { stale + 1 };
        }
        Ok(())
    }
}
