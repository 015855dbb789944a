//! Long answers listed in part. At n_min with small buffers most stages
//! carry every unit's full buffer, thousands of them alike (000 Sec. 4.2:
//! "the maximum load was sent"); a response lists the stages that differ
//! and a few alike at each end, at their true times, and says how many it
//! left out, as multi_installment does with its rounds. The makespan and
//! each unit's total load still count every stage.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;

/// Messages (stages x what one stage sends) a response lists in full.
pub const LISTED_MESSAGES: usize = 20_000;
/// Stages of a run of alike ones listed at each of its ends.
const EDGE: usize = 2;

/// Stages `from..from + stages` (0-based) are left out of the chunk table
/// and the schedule; each has the chunks of stage `from - 1`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Omitted {
    pub from: usize,
    pub stages: usize,
}

impl Omitted {
    /// The middle of the longest run of stages with equal chunks, where
    /// listing all `chunks` would exceed LISTED_MESSAGES at `per_stage`
    /// messages a stage.
    pub(crate) fn find(chunks: &[Vec<f64>], per_stage: usize) -> Option<Omitted> {
        if chunks.len().saturating_mul(per_stage) <= LISTED_MESSAGES {
            return None;
        }
        let (mut best, mut start) = ((0, 0), 0);
        for k in 1..=chunks.len() {
            if k == chunks.len() || chunks[k] != chunks[start] {
                if k - start > best.1 - best.0 {
                    best = (start, k);
                }
                start = k;
            }
        }
        let (from, to) = (best.0 + EDGE, best.1.saturating_sub(EDGE));
        (to > from).then(|| Omitted { from, stages: to - from })
    }

    /// Whether stage `k` is listed.
    pub(crate) fn lists(this: Option<Omitted>, k: usize) -> bool {
        this.is_none_or(|o| k < o.from || k >= o.from + o.stages)
    }

    /// What a response says of the stages it leaves out.
    pub(crate) fn warning(&self, n: usize) -> String {
        format!(
            "{n} stages: the chunk table and the schedule list {} of them at their true times and leave out stages {} to {}, each with the chunks of stage {}",
            n - self.stages, self.from + 1, self.from + self.stages, self.from
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn the_longest_run_of_alike_stages_is_left_out_but_its_ends() {
        let mut chunks = vec![vec![0.5, 1.0]; 3];
        chunks.extend(vec![vec![1.0, 1.0]; 20_000]);
        chunks.push(vec![1.0, 0.25]);
        let o = Omitted::find(&chunks, 2).unwrap();
        assert_eq!(o, Omitted { from: 3 + EDGE, stages: 20_000 - 2 * EDGE });
        let listed: Vec<usize> = (0..chunks.len()).filter(|&k| Omitted::lists(Some(o), k)).collect();
        assert_eq!(listed, [0, 1, 2, 3, 4, 20_001, 20_002, 20_003]);
        // Short answers, and long ones with no run of alike stages, list all.
        assert_eq!(Omitted::find(&chunks[..100], 2), None);
        let distinct: Vec<Vec<f64>> = (0..30_000).map(|k| vec![k as f64]).collect();
        assert_eq!(Omitted::find(&distinct, 1), None);
    }
}
