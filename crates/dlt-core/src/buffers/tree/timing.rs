//! The answer of a tree LP as a schedule: every hop at the time the LP
//! (or the windowed method's periodic middle) gives it, checked.

use super::rows::Tree;
use crate::buffers::listing::Omitted;
use crate::buffers::stages::Solved;
use crate::check::Checked;
use crate::error::Result;
use crate::lp::Var;
use crate::schedule::{Row, Schedule};
use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

/// Hop start times by stage, chunk and hop: the LP's stage positions, of
/// which a windowed answer's middle one stands for `copies` stages, each
/// the one before shifted by the period (50,000 stages at Fig. 13(b)'s
/// D = 1 are not spelt out).
pub(super) struct Times {
    pub(super) positions: Vec<Vec<Vec<f64>>>,
    pub(super) middle: Option<Middle>,
}

#[derive(Clone, Copy)]
pub(super) struct Middle {
    pub(super) at: usize,
    pub(super) copies: usize,
    pub(super) period: f64,
}

impl Times {
    /// The start times of hops `t` at `x`, the LP's variables (round-off
    /// below 0 read as 0).
    pub(super) fn of(t: &[Vec<Vec<Var>>], x: &[f64], tau: f64) -> Vec<Vec<Vec<f64>>> {
        t.iter().map(|st| st.iter().map(|hops| hops.iter().map(|&v| x[v.0].max(0.0) * tau).collect()).collect()).collect()
    }

    /// When the hops of chunk j of stage k start.
    fn hops(&self, k: usize, j: usize) -> impl Iterator<Item = f64> + '_ {
        let (starts, shift) = self.of_chunk(k, j);
        starts.iter().map(move |t| t + shift)
    }

    /// The start times of chunk j's hops at its stage position, and the
    /// shift of stage k from there.
    fn of_chunk(&self, k: usize, j: usize) -> (&[f64], f64) {
        let (position, shift) = match self.middle {
            Some(m) if k >= m.at && k < m.at + m.copies => (m.at, (k - m.at) as f64 * m.period),
            Some(m) if k >= m.at + m.copies => (k + 1 - m.copies, 0.0),
            _ => (k, 0.0),
        };
        (&self.positions[position][j], shift)
    }
}

/// A full-LP solution with its hop start times in place of the variables.
pub(super) fn timed(tau: f64, full: Solved<Vec<Vec<Vec<Var>>>>) -> Result<Solved<Times>> {
    let sol = full.solution.as_ref().ok_or_else(|| crate::error::Error::internal("a tree was solved without its LP"))?;
    let times = Times { positions: Times::of(&full.handles, &sol.values, tau), middle: None };
    Ok(Solved { kept: full.kept, chunks: full.chunks, makespan: full.makespan, lp: full.lp, solution: full.solution, handles: times })
}

/// Every hop at the time the LP gives it; each layer computes its chunks in
/// order as they arrive. Layers that compute nothing still relay. Stages
/// `omitted` are timed but not listed.
pub(super) fn hop_schedule(tree: &Tree, solved: &Solved<Times>, omitted: Option<Omitted>) -> Result<Checked> {
    let Solved { kept, chunks, handles: times, makespan, .. } = solved;
    let deepest = kept.iter().max().map_or(0, |&u| u + 1);
    let mut origin = Row::originator(tree.v);
    origin.send_ports = tree.p;
    let mut rows = vec![origin];
    for l in 1..=deepest {
        let mut row = Row::linear(format!("layer {l}"), tree.powers[l], tree.s, tree.c, tree.a);
        row.send_ports = tree.p;
        row.buffer = tree.d;
        row.buffers = Some(tree.buffers as f64);
        rows.push(row);
    }
    let mut schedule = Schedule::new(rows, tree.v);
    let mut busy = vec![0.0; deepest + 1];
    let mut listed = 0.0;
    for ch in tree.sequence(kept, chunks.len()) {
        let (k, j, i) = (ch.stage, ch.j, ch.layer);
        let (alpha, lists) = (chunks[k][j], Omitted::lists(omitted, k));
        let mut arrived = 0.0;
        if lists {
            let mut source = None;
            for (l, start) in times.hops(k, j).enumerate().take(i) {
                let x = tree.share(i, l) * alpha;
                arrived = start + tree.s + tree.c * x;
                schedule.comm(l, l + 1, (start, arrived), x, tree.powers[l + 1]).source = source;
                source = Some(schedule.intervals.len() - 1);
            }
        } else {
            // A stage left out is timed for when its chunks arrive, by
            // their last hop alone (50,000 stages at Fig. 13(b)'s D = 1).
            let (starts, shift) = times.of_chunk(k, j);
            let l = i.min(starts.len()) - 1;
            arrived = starts[l] + shift + tree.s + tree.c * (tree.share(i, l) * alpha);
        }
        if alpha > 0.0 && lists {
            listed += alpha * tree.powers[i];
            busy[i] = schedule.run(i, arrived.max(busy[i]), alpha);
        } else if alpha > 0.0 {
            busy[i] = schedule.finish(i, arrived.max(busy[i]), alpha);
        }
    }
    if omitted.is_some() {
        schedule.listing(listed);
    }
    schedule.makespan = *makespan;
    crate::checked(schedule)
}
