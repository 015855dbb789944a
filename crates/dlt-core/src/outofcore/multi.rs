//! 002 Sec. 4: multi-installment processing. V is cut into equal chunks of
//! size beta (the last one smaller), sent back to back in rounds P1..Pm,
//! P1..; each processor computes its chunks in order, each in core when
//! beta is below its swap point. The makespan has a closed form, exact for
//! any number of chunks; the schedule is drawn and checked when it is small.

use super::{processors, Processor};
use crate::check::Checked;
use crate::error::{Error, Result};
use crate::schedule::{Row, Schedule};
use crate::validate;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// Most chunks drawn as a schedule; the makespan needs no limit.
pub const MAX_DRAWN: f64 = 5000.0;
/// Most chunks at all: chunk indices stay exact in f64.
const MAX_CHUNKS: f64 = 1e15;

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
    pub warnings: Vec<String>,
    /// The makespan, given here when the schedule is too long to draw.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub makespan: Option<f64>,
    #[serde(flatten)]
    pub schedule: Option<Checked>,
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
        self.list[j].cost().time(x)
    }

    /// Chunks processor j receives.
    fn count(&self, j: usize) -> f64 {
        if (j as f64) < self.chunks { libm::floor((self.chunks - 1.0 - j as f64) / self.list.len() as f64) + 1.0 } else { 0.0 }
    }

    /// Processing with periodic releases r P + prefix and equal work w ends
    /// at max over chunks of (release + work still queued), a linear
    /// function of the round: its maximum is at the first or the last.
    fn makespan(&self) -> f64 {
        let m = self.list.len();
        let period: f64 = (0..m).map(|j| self.message(j, self.beta)).sum();
        let holder = ((self.chunks - 1.0) % m as f64) as usize;
        let mut prefix = 0.0;
        let mut end = 0.0f64;
        for j in 0..m {
            let before = prefix;
            prefix += self.message(j, self.beta);
            let n = self.count(j);
            if n == 0.0 {
                continue;
            }
            let w = self.work(j, self.beta);
            let f = if j != holder {
                prefix + w + (n - 1.0) * period.max(w)
            } else {
                // n - 1 full chunks, then the last (smaller) one.
                let rounds = n - 1.0;
                let w_last = self.work(j, self.last);
                let last_arrives = rounds * period + before + self.message(j, self.last);
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

    /// The explicit schedule, simulated chunk by chunk.
    fn schedule(&self, v: f64, makespan: f64) -> Result<Checked> {
        let mut rows = vec![Row::originator(v)];
        for (j, q) in self.list.iter().enumerate() {
            rows.push(Row { compute: q.cost(), ..Row::linear(format!("P{}", j + 1), 1.0, q.s, q.c, 0.0) });
        }
        let mut schedule = Schedule::new(rows, v);
        let (mut wire, mut busy) = (0.0, vec![0.0; self.list.len()]);
        for g in 0..self.chunks as usize {
            let j = g % self.list.len();
            let x = if g + 1 == self.chunks as usize { self.last } else { self.beta };
            wire = schedule.send(0, j + 1, wire, x, 1.0);
            busy[j] = schedule.run(j + 1, wire.max(busy[j]), x);
        }
        schedule.makespan = makespan;
        crate::checked(schedule)
    }
}

pub fn multi_installment(p: &MultiParams) -> Result<MultiOutput> {
    let v = validate::positive("V", p.v)?;
    let levels = processors("processors", &p.processors)?;
    super::nonnegative_at_zero("processors", &p.processors)?;
    let beta = validate::positive("beta", p.beta)?;
    let ratio = v / beta;
    // A chunk count within rounding of a whole number is that number.
    let chunks = if ratio - libm::floor(ratio) <= 1e-12 * ratio { libm::floor(ratio).max(1.0) } else { libm::ceil(ratio) };
    if chunks > MAX_CHUNKS {
        return Err(Error::range("beta", format!("beta must be at least V/{MAX_CHUNKS:e} = {:e}: V/beta chunks are counted exactly", v / MAX_CHUNKS)));
    }
    let last = v - (chunks - 1.0) * beta;
    let plan = Plan { list: &p.processors, beta, chunks, last };
    let makespan = plan.makespan();
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
    let (schedule, makespan) = if chunks <= MAX_DRAWN {
        (Some(plan.schedule(v, makespan)?), None)
    } else {
        warnings.push(format!("{chunks:e} chunks: the makespan is exact, the schedule is drawn up to {MAX_DRAWN} chunks only"));
        (None, Some(makespan))
    };
    Ok(MultiOutput { beta, chunks, last_chunk: last, loads, warnings, makespan, schedule })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn processor(s: f64, c: f64, pieces: Vec<(f64, f64)>) -> Processor {
        Processor { s, c, pieces }
    }

    /// The closed form against the chunk-by-chunk simulation that the
    /// checker accepts, over varied small instances.
    #[test]
    fn closed_form_equals_simulation() {
        let mut rnd = crate::uniform(7);
        for _ in 0..300 {
            let m = 1 + (rnd() * 5.0) as usize;
            let list: Vec<Processor> = (0..m).map(|_| processor(rnd() * 0.5, rnd(), vec![(rnd(), 0.1 + 2.0 * rnd()), (-3.0 * rnd(), 3.0 + 5.0 * rnd())])).collect();
            let v = 0.5 + 20.0 * rnd();
            let beta = 0.05 + 3.0 * rnd();
            let out = multi_installment(&MultiParams { v, processors: list, beta }).unwrap();
            let s = out.schedule.expect("small instances are drawn");
            let last_end = s.intervals.iter().map(|i| i.end).fold(0.0, f64::max);
            assert!((last_end - s.makespan).abs() <= 1e-9 * s.makespan, "{last_end} vs {}", s.makespan);
            assert!((out.loads.iter().sum::<f64>() - v).abs() < 1e-9 * v);
        }
    }

    #[test]
    fn one_chunk_uses_one_processor() {
        let p = processor(1.0, 1.0, vec![(1.0, 1.0), (-9.0, 10.0)]);
        let out = multi_installment(&MultiParams { v: 1.0, processors: vec![p.clone(), p], beta: 1.0 }).unwrap();
        assert_eq!(out.chunks, 1.0);
        // Send 1 + 1, compute max(1 + 1, -9 + 10) = 2.
        assert_eq!(out.schedule.unwrap().makespan, 4.0);
    }

    #[test]
    fn many_chunks_give_the_makespan_without_a_schedule() {
        // Fig. 10: m = 10, beta = 1e4 from (5), V = 1e12.
        let p = processor(1e-3, 9.99e-5, vec![(0.0, 1e-3), (-9.9e6, 0.1)]);
        let out = multi_installment(&MultiParams { v: 1e12, processors: vec![p; 10], beta: 1e4 }).unwrap();
        assert!(out.schedule.is_none());
        // Communication-bound: about V/beta * (S + beta C) / ... per round.
        let rounds = 1e8 / 10.0;
        let period = 10.0 * (1e-3 + 1e4 * 9.99e-5);
        let mk = out.makespan.unwrap();
        assert!(mk >= rounds * period && mk <= (rounds + 1.0) * period + 10.0, "{mk}");
        assert_eq!(multi_installment(&MultiParams { v: 1e12, processors: vec![], beta: 1.0 }).unwrap_err().field, "processors");
    }
}
