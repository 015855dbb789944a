//! 002 Sec. 4: multi-installment processing. V is cut into equal chunks of
//! size beta (the last one smaller), sent back to back in rounds P1..Pm,
//! P1..; each processor computes its chunks in order, each in core when
//! beta is below its swap point. Every answer is a checked schedule: one of
//! more than MAX_DRAWN chunks lists its first and last rounds at their true
//! times and leaves out the identical rounds between (see `Plan::schedule`).

use super::{processors, Processor};
use crate::check::Checked;
use crate::error::{Error, Result};
use crate::schedule::{Row, Schedule};
use crate::validate::Field;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// Most chunks listed one by one; a longer schedule lists EDGE rounds at
/// each end.
pub const MAX_DRAWN: f64 = 5000.0;
const EDGE: usize = 2;
/// Most chunks at all: chunk indices stay exact in f64.
const MAX_CHUNKS: f64 = 1e15;

const BETA: Field = Field::positive("beta");
pub(super) const FIELDS: &[Field] = &[crate::costs::V, super::S, super::C, BETA];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(deny_unknown_fields)]
pub struct MultiParams {
    #[serde(rename = "V")]
    pub v: f64,
    pub processors: Vec<Processor>,
    pub beta: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct MultiOutput {
    pub beta: f64,
    /// Number of chunks, ceil(V / beta).
    pub chunks: f64,
    pub last_chunk: f64,
    /// Load each processor receives over all rounds.
    pub loads: Vec<f64>,
    /// Full rounds the schedule leaves out between its first and its last
    /// EDGE rounds (0: it lists every chunk); its total_load is V less
    /// their omitted_rounds m beta units.
    pub omitted_rounds: f64,
    pub warnings: Vec<String>,
    #[serde(flatten)]
    pub schedule: Checked,
}

struct Plan<'a> {
    list: &'a [Processor],
    beta: f64,
    chunks: f64,
    last: f64,
}

impl Plan<'_> {
    fn message(&self, j: usize, x: f64) -> f64 {
        self.list[j].s + x * self.list[j].c
    }

    fn work(&self, j: usize, x: f64) -> f64 {
        self.list[j].time(x)
    }

    /// Chunks processor j receives.
    fn count(&self, j: usize) -> f64 {
        if (j as f64) < self.chunks { libm::floor((self.chunks - 1.0 - j as f64) / self.list.len() as f64) + 1.0 } else { 0.0 }
    }

    /// Full rounds between the first and the last EDGE that the schedule
    /// skips.
    fn skipped(&self) -> f64 {
        let rounds = libm::ceil(self.chunks / self.list.len() as f64);
        if self.chunks > MAX_DRAWN && rounds > (2 * EDGE) as f64 { rounds - (2 * EDGE) as f64 } else { 0.0 }
    }

    /// The schedule, simulated chunk by chunk, skipping `skipped` full
    /// rounds in one step after the first EDGE.
    ///
    /// Why the skipped rounds need no listing. With P the period (one round
    /// of messages) and w_j the time of a chunk on P_j, P_j's chunk c
    /// arrives at a_c = a_0 + c P and ends at f_c = max(a_c, f_{c-1}) + w_j,
    /// so by induction f_c = a_0 + w_j + c D_j with D_j = max(P, w_j): P_j
    /// computes each chunk as it arrives if w_j <= P, else back to back
    /// while its queue grows by w_j - P a round. So each interval of a full
    /// round is its counterpart in the first round translated, a message by
    /// a multiple of P, a computation on P_j by one of D_j, and translates
    /// keep all that the checker checks of the listed rounds: durations; no
    /// overlap on the originator's port (round r's messages fill
    /// [rP, (r+1)P)), on P_j's receive port (one message of at most P a
    /// round) or CPU (one computation of w_j <= D_j every D_j); each chunk
    /// computed after it arrives (f_c - w_j - a_c = c (D_j - P) >= 0; equal
    /// chunks, so the load received always covers the load computed). And
    /// skipping k rounds moves the originator on by k P and P_j's CPU by
    /// k D_j, so the last rounds are listed at their true times and the
    /// listed schedule ends when the whole one does.
    fn schedule(&self, v: f64) -> Result<Checked> {
        let m = self.list.len();
        let skipped = self.skipped();
        let listed = (self.chunks - skipped * m as f64) as usize;
        // The listed chunks' sum, not V less the skipped ones: that
        // difference loses the few listed chunks to rounding.
        let load = if skipped > 0.0 { (listed - 1) as f64 * self.beta + self.last } else { v };
        let mut rows = vec![Row::originator(v)];
        for (j, q) in self.list.iter().enumerate() {
            rows.push(Row { compute: q.cost(), ..Row::linear(format!("P{}", j + 1), 1.0, q.s, q.c, 0.0) });
        }
        let mut schedule = Schedule::new(rows, v);
        if skipped > 0.0 {
            schedule.listing(load);
        }
        let (mut wire, mut busy) = (0.0, vec![0.0; m]);
        for g in 0..listed {
            let j = g % m;
            if skipped > 0.0 && g == EDGE * m {
                let period: f64 = (0..m).map(|i| self.message(i, self.beta)).sum();
                wire += skipped * period;
                for (i, b) in busy.iter_mut().enumerate() {
                    *b += skipped * period.max(self.work(i, self.beta));
                }
            }
            let x = if g + 1 == listed { self.last } else { self.beta };
            wire = schedule.send(0, j + 1, wire, x, 1.0);
            busy[j] = schedule.run(j + 1, wire.max(busy[j]), x);
        }
        schedule.makespan = busy.iter().copied().fold(0.0, f64::max);
        crate::checked(schedule)
    }
}

pub fn multi_installment(p: &MultiParams) -> Result<MultiOutput> {
    let v = crate::costs::V.check(p.v)?;
    let levels = processors("processors", &p.processors)?;
    super::nonnegative_at_zero("processors", &p.processors)?;
    let beta = BETA.check(p.beta)?;
    let ratio = v / beta;
    // A chunk count within rounding of a whole number is that number.
    let chunks = if ratio - libm::floor(ratio) <= 1e-12 * ratio { libm::floor(ratio).max(1.0) } else { libm::ceil(ratio) };
    if chunks > MAX_CHUNKS {
        return Err(Error::range("beta", format!("beta must be at least V/{MAX_CHUNKS:e} = {:e}: V/beta chunks are counted exactly", v / MAX_CHUNKS)));
    }
    let last = v - (chunks - 1.0) * beta;
    let plan = Plan { list: &p.processors, beta, chunks, last };
    let mut warnings = Vec::new();
    let over: Vec<String> = levels.iter().enumerate().filter(|(_, l)| beta > l.swap_point).map(|(j, _)| format!("P{}", j + 1)).collect();
    if !over.is_empty() {
        warnings.push(format!("beta exceeds the swap point of {}: those chunks are computed out-of-core", over.join(", ")));
    }
    let loads = (0..p.processors.len())
        .map(|j| {
            let n = plan.count(j);
            let holder = n > 0.0 && ((chunks - 1.0) % p.processors.len() as f64) as usize == j;
            if holder { (n - 1.0) * beta + last } else { n * beta }
        })
        .collect();
    let omitted_rounds = plan.skipped();
    if omitted_rounds > 0.0 {
        warnings.push(format!("{chunks:e} chunks: the schedule lists the first and last {EDGE} rounds at their true times and leaves out the {omitted_rounds:e} full rounds between, translates of those listed"));
    }
    let schedule = plan.schedule(v)?;
    Ok(MultiOutput { beta, chunks, last_chunk: last, loads, omitted_rounds, warnings, schedule })
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;
    use proptest::prelude::*;

    fn processor(s: f64, c: f64, pieces: Vec<(f64, f64)>) -> Processor {
        Processor { s, c, pieces }
    }

    /// The makespan in closed form, derived apart from the simulation:
    /// processing with periodic releases r P + prefix and equal work w ends
    /// at max over chunks of (release + work still queued), a linear
    /// function of the round: its maximum is at the first or the last.
    fn closed_form(p: &MultiParams, out: &MultiOutput) -> f64 {
        let plan = Plan { list: &p.processors, beta: p.beta, chunks: out.chunks, last: out.last_chunk };
        let m = plan.list.len();
        let period: f64 = (0..m).map(|j| plan.message(j, plan.beta)).sum();
        let holder = ((plan.chunks - 1.0) % m as f64) as usize;
        let mut prefix = 0.0;
        let mut end = 0.0f64;
        for j in 0..m {
            let before = prefix;
            prefix += plan.message(j, plan.beta);
            let n = plan.count(j);
            if n == 0.0 {
                continue;
            }
            let w = plan.work(j, plan.beta);
            let f = if j != holder {
                prefix + w + (n - 1.0) * period.max(w)
            } else {
                // n - 1 full chunks, then the last (smaller) one.
                let rounds = n - 1.0;
                let w_last = plan.work(j, plan.last);
                let last_arrives = rounds * period + before + plan.message(j, plan.last);
                let mut f = last_arrives + w_last;
                if rounds >= 1.0 {
                    f = f.max(prefix + rounds * w + w_last).max((rounds - 1.0) * period + prefix + w + w_last);
                }
                f
            };
            end = end.max(f);
        }
        end
    }

    /// Random instances of m <= 5 processors, some computing a chunk
    /// faster than a round of messages and some slower, with V/beta chunks
    /// for V/beta = `ratio(u)`, u drawn from [0, 1).
    fn instances(ratio: fn(f64) -> f64) -> impl Strategy<Value = MultiParams> {
        let unit = (0.0..0.5, 0.0..1.0, 0.0..1.0, 0.1..0.1 + 2.0, 0.0..1.0, 3.0..3.0 + 5.0);
        let processors = prop::collection::vec(unit.prop_map(|(s, c, a1, b1, u, b2)| processor(s, c, vec![(a1, b1), (-3.0 * u, b2)])), 1..6);
        (processors, 0.05..0.05 + 3.0, 0.0..1.0).prop_map(move |(processors, beta, u)| MultiParams { v: beta * ratio(u), processors, beta })
    }

    fn assert_closed_form(p: &MultiParams) -> MultiOutput {
        let out = multi_installment(p).unwrap();
        let want = closed_form(p, &out);
        assert_relative_eq!(out.schedule.makespan, want, max_relative = 1e-9);
        assert_relative_eq!(out.loads.iter().sum::<f64>(), p.v, max_relative = 1e-9);
        out
    }

    proptest! {
        #![proptest_config(crate::cases(300))]
        /// The closed form against the chunk-by-chunk simulation that the
        /// checker accepts.
        #[test]
        fn closed_form_equals_simulation(p in instances(|u| 0.2 + 400.0 * u)) {
            assert_eq!(assert_closed_form(&p).omitted_rounds, 0.0);
        }

        /// Skipping rounds loses nothing: the listed schedule ends when the
        /// closed form says, up to 1e12 chunks.
        #[test]
        fn skipped_rounds_keep_the_makespan(p in instances(|u| MAX_DRAWN + 1.0 + libm::pow(10.0, 12.0 * u))) {
            let out = assert_closed_form(&p);
            assert!(out.omitted_rounds > 0.0);
            let listed = out.schedule.intervals.len() as f64 / 2.0;
            assert_eq!(listed + out.omitted_rounds * p.processors.len() as f64, out.chunks);
        }
    }

    #[test]
    fn one_chunk_uses_one_processor() {
        let p = processor(1.0, 1.0, vec![(1.0, 1.0), (-9.0, 10.0)]);
        let out = multi_installment(&MultiParams { v: 1.0, processors: vec![p.clone(), p], beta: 1.0 }).unwrap();
        assert_eq!(out.chunks, 1.0);
        // Send 1 + 1, compute max(1 + 1, -9 + 10) = 2.
        assert_eq!(out.schedule.makespan, 4.0);
    }

    #[test]
    fn fig10_lists_a_checked_schedule_of_1e8_chunks() {
        // Fig. 10: m = 10, beta = 1e4 from (5), V = 1e12.
        let p = processor(1e-3, 9.99e-5, vec![(0.0, 1e-3), (-9.9e6, 0.1)]);
        let params = MultiParams { v: 1e12, processors: vec![p; 10], beta: 1e4 };
        let out = assert_closed_form(&params);
        assert_eq!((out.chunks, out.omitted_rounds), (1e8, 1e7 - 4.0));
        assert_eq!(out.schedule.intervals.len(), 2 * 40);
        // 1e7 rounds of 10 messages of S + beta C = 1, each chunk computed in 10.
        let mk = out.schedule.makespan;
        assert!((1e8..=1e8 + 20.0).contains(&mk), "{mk}");
        assert_eq!(multi_installment(&MultiParams { v: 1e12, processors: vec![], beta: 1.0 }).unwrap_err().field, "processors");
    }
}
