//! The independent schedule checker: a simulation of every processor's ports,
//! buffer and load, written without reference to any model. A model's
//! schedule is returned to a user only after it passes.

use crate::schedule::{Kind, Schedule};
use crate::error::Error;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Relative tolerance of every comparison, against the schedule's own scale
/// (its makespan for times, V for loads).
pub const REL_TOL: f64 = 1e-9;

/// What is wrong with a schedule, in words a model's author can act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation(pub String);

/// A schedule that passed [`check`]. Only [`checked`] makes one, and every
/// model's output holds one, so no model can hand out a schedule that the
/// checker did not see.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Checked(Schedule);

impl Checked {
    pub fn into_inner(self) -> Schedule {
        self.0
    }
}

impl core::ops::Deref for Checked {
    type Target = Schedule;
    fn deref(&self) -> &Schedule {
        &self.0
    }
}

impl serde::Serialize for Checked {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> core::result::Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// Runs the checker on a model's schedule; a rejection is a bug in the
/// model, reported as an internal error rather than returned as an answer.
pub fn checked(s: Schedule) -> crate::error::Result<Checked> {
    match check(&s) {
        Ok(()) => Ok(Checked(s)),
        Err(v) => Err(Error::internal(format!("schedule failed the checker: {}", v.0))),
    }
}

macro_rules! reject {
    ($($arg:tt)*) => { return Err(Violation(format!($($arg)*))) };
}

/// Accepts a schedule only if every interval lasts what its cost model says
/// (a message by the data it carries), a relayed message leaves only after
/// it has arrived and no relay holds more messages than it has buffers,
/// no processor uses more ports than it has, no message exceeds the
/// receiver's buffer, no load is computed or forwarded before it arrives,
/// every processor passes on or computes exactly what it received, exactly V
/// is computed, results are sent only once computed (or received) and, where
/// any are, reach an originator for all of V, and the last interval ends at
/// the claimed makespan.
pub fn check(s: &Schedule) -> Result<(), Violation> {
    let scale_t = s.makespan.abs().max(s.intervals.iter().map(|i| i.end.abs()).fold(0.0, f64::max)).max(f64::MIN_POSITIVE);
    let eps_t = REL_TOL * scale_t;
    let eps_x = REL_TOL * s.total_load.abs().max(f64::MIN_POSITIVE);
    check_fields(s, eps_t)?;
    check_durations(s, eps_t)?;
    let by_row = by_row(s);
    let events = &mut Events::default();
    check_ports(s, &by_row, events, eps_t)?;
    check_relays(s, &by_row, events, eps_t)?;
    check_flow(s, &by_row, events, eps_t)?;
    check_results(s, &by_row, events, eps_t)?;
    check_totals(s, eps_t, eps_x)
}

fn check_fields(s: &Schedule, eps_t: f64) -> Result<(), Violation> {
    if !(s.makespan.is_finite() && s.total_load.is_finite() && s.total_load > 0.0) {
        reject!("makespan {} or V {} is not a positive finite number", s.makespan, s.total_load);
    }
    for (r, row) in s.rows.iter().enumerate() {
        if !(row.count >= 1.0 && row.count.is_finite() && row.send_ports >= 0.0 && row.recv_ports >= 0.0) {
            reject!("row {r} ({}) has count {} or ports {}/{} out of range", row.label, row.count, row.send_ports, row.recv_ports);
        }
    }
    for (n, i) in s.intervals.iter().enumerate() {
        let from_ok = match (i.kind, i.from) {
            (Kind::Comm | Kind::Result, Some(f)) => f < s.rows.len() && f != i.proc,
            (Kind::Compute, None) => true,
            _ => false,
        };
        if i.proc >= s.rows.len() || !from_ok {
            reject!("interval {n} names a row that does not exist or sends to itself");
        }
        if !(i.start.is_finite() && i.end.is_finite() && i.load.is_finite() && i.messages.is_finite() && i.data().is_finite()) {
            reject!("interval {n} has a non-finite field");
        }
        if i.start < -eps_t || i.end < i.start || i.load < 0.0 || i.data() < 0.0 || i.messages <= 0.0 {
            reject!("interval {n} on {} has start {} end {} load {} messages {}", s.rows[i.proc].label, i.start, i.end, i.load, i.messages);
        }
    }
    Ok(())
}

/// The indices of each row's intervals, a message in its receiver's list
/// and its sender's: the per-row checks then cost the intervals, not rows
/// times intervals (a star of 10^5 processors). One list, row after row
/// (`start[r]..start[r + 1]`), each row's in the schedule's order.
struct ByRow {
    start: Vec<usize>,
    list: Vec<usize>,
}

impl core::ops::Index<usize> for ByRow {
    type Output = [usize];
    fn index(&self, r: usize) -> &[usize] {
        &self.list[self.start[r]..self.start[r + 1]]
    }
}

fn by_row(s: &Schedule) -> ByRow {
    // Plain loops: as iterators over each interval's two rows, twice the
    // instructions.
    let mut start = alloc::vec![0; s.rows.len() + 1];
    for i in &s.intervals {
        start[i.proc + 1] += 1;
        if let Some(f) = i.from {
            start[f + 1] += 1;
        }
    }
    for r in 0..s.rows.len() {
        start[r + 1] += start[r];
    }
    let mut next = start.clone();
    let mut list = alloc::vec![0; start[s.rows.len()]];
    for (n, i) in s.intervals.iter().enumerate() {
        list[next[i.proc]] = n;
        next[i.proc] += 1;
        if let Some(f) = i.from {
            list[next[f]] = n;
            next[f] += 1;
        }
    }
    ByRow { start, list }
}

fn check_durations(s: &Schedule, eps_t: f64) -> Result<(), Violation> {
    for (n, i) in s.intervals.iter().enumerate() {
        let row = &s.rows[i.proc];
        let want = match (i.kind, i.from) {
            (Kind::Comm, _) => row.link.s + row.link.c * i.data(),
            (Kind::Result, Some(f)) => s.rows[f].link.s + s.rows[f].link.c * i.data(),
            _ => row.compute.time(i.load),
        };
        if (i.end - i.start - want).abs() > eps_t.max(REL_TOL * want.abs()) {
            reject!("{:?} interval {n} on {} lasts {} but its cost model gives {want}", i.kind, row.label, i.end - i.start);
        }
        if let (Kind::Comm, Some(d)) = (i.kind, row.buffer) {
            if i.data() > d * (1.0 + REL_TOL) {
                reject!("message {n} to {} carries {} > buffer D = {d}", row.label, i.data());
            }
        }
    }
    Ok(())
}

/// Events `(time, amount)` of two kinds, walked by time, `first`'s before
/// `then`'s at a tie and each kind's ties as listed (what a stable sort of
/// both, `first`'s before `then`'s, gives); `then` may come in two lists,
/// `also` after `then` at a tie. Each list sorted apart and the lists
/// merged, because a schedule lists each kind of a processor's intervals in
/// time order and a stable sort then finds one run in each, where their
/// mixture costs a full sort. Kept from one sweep to the next: a schedule's
/// check runs a few sweeps per row, and each one's own lists were most of
/// its allocations.
#[derive(Default)]
struct Events {
    first: Vec<(f64, f64)>,
    then: Vec<(f64, f64)>,
    also: Vec<(f64, f64)>,
    merged: Vec<(f64, f64)>,
}

/// `a`'s and `b`'s events by time, `a`'s before `b`'s at a tie, each with
/// whether it is `a`'s.
fn merge<'e>(a: &'e [(f64, f64)], b: &'e [(f64, f64)]) -> Merge<'e> {
    Merge { a, b }
}

/// The merge's state: what is left of each list.
struct Merge<'e> {
    a: &'e [(f64, f64)],
    b: &'e [(f64, f64)],
}

impl Iterator for Merge<'_> {
    type Item = ((f64, f64), bool);

    fn next(&mut self) -> Option<Self::Item> {
        // By the lists' heads, as slices: by indices, each checked, the
        // merges took a tenth of a binomial tree's check.
        match (self.a.split_first(), self.b.split_first()) {
            (Some((&x, rest)), Some((&y, _))) if y.0 >= x.0 => {
                self.a = rest;
                Some((x, true))
            }
            (Some((&x, rest)), None) => {
                self.a = rest;
                Some((x, true))
            }
            (_, Some((&y, rest))) => {
                self.b = rest;
                Some((y, false))
            }
            (None, None) => None,
        }
    }
}

impl Events {
    fn cleared(&mut self) -> &mut Events {
        [&mut self.first, &mut self.then, &mut self.also].into_iter().for_each(Vec::clear);
        self
    }

    /// Each event with whether it is one of `first`'s.
    fn in_order(&mut self) -> impl Iterator<Item = ((f64, f64), bool)> + '_ {
        // Most come in order, and a look by `<=` costs less than the
        // sort's own by total_cmp, which would also put a -0 before a 0:
        // equal times, whose order changes no verdict. The times are
        // finite (`check_fields`).
        for list in [&mut self.first, &mut self.then, &mut self.also] {
            if !list.is_sorted_by(|x, y| x.0 <= y.0) {
                crate::sort::sort_by(list, |x, y| x.0.total_cmp(&y.0));
            }
        }
        if !self.also.is_empty() {
            self.merged.clear();
            self.merged.extend(merge(&self.then, &self.also).map(|(e, _)| e));
            core::mem::swap(&mut self.then, &mut self.merged);
        }
        merge(&self.first, &self.then)
    }

    /// A sweep over the time line of one processor: `uses` are (start,
    /// end, amount) and the sum of amounts in use at any instant must stay
    /// within `cap`. Intervals touching at an end point do not overlap.
    fn peak_within(&mut self, uses: &[(f64, f64, f64)], cap: f64, eps_t: f64) -> Result<(), (f64, f64)> {
        let over = |level: f64| level > cap * (1.0 + 1e-9) + 1e-12;
        // Where the uses, as listed, come in groups over one and the same
        // interval (a layer's receipts from its senders at once), each
        // group ending before the next starts and none above the cap, the
        // sweep's level is one group's sum at a time, or 0 (up to the
        // round-off of adding and taking away the same numbers, far
        // inside the cap's tolerance): a verdict without the sort, for
        // most rows.
        let (mut free_from, mut apart, mut i) = (f64::NEG_INFINITY, true, 0);
        while apart && i < uses.len() {
            let (a, b, mut sum) = uses[i];
            i += 1;
            if b - a <= 2.0 * eps_t {
                continue;
            }
            while i < uses.len() && (uses[i].0, uses[i].1) == (a, b) {
                sum += uses[i].2;
                i += 1;
            }
            apart = a + eps_t >= free_from && !over(sum);
            free_from = b - eps_t;
        }
        if apart {
            return Ok(());
        }
        let events = self.cleared();
        for &(a, b, w) in uses {
            if b - a > 2.0 * eps_t {
                events.then.push((a + eps_t, w));
                events.first.push((b - eps_t, -w));
            }
        }
        // Ends before starts at equal times; among starts (or ends) at one
        // time the level only rises (falls), to the same sum in any order.
        let mut level = 0.0;
        for ((t, w), _) in events.in_order() {
            level += w;
            if over(level) {
                return Err((t, level));
            }
        }
        Ok(())
    }
}

fn check_ports(s: &Schedule, by_row: &ByRow, events: &mut Events, eps_t: f64) -> Result<(), Violation> {
    let [mut recv, mut send, mut cpu, mut busy, mut port] = [(); 5].map(|_| Vec::new());
    for (r, row) in s.rows.iter().enumerate() {
        [&mut recv, &mut send, &mut cpu, &mut busy, &mut port].into_iter().for_each(Vec::clear);
        for i in by_row[r].iter().map(|&n| &s.intervals[n]) {
            match i.kind {
                Kind::Comm | Kind::Result if i.proc == r => recv.push((i.start, i.end, i.messages / row.count)),
                Kind::Comm | Kind::Result if i.from == Some(r) => send.push((i.start, i.end, i.messages / row.count)),
                Kind::Compute if i.proc == r => cpu.push((i.start, i.end, 1.0)),
                _ => {}
            }
        }
        if !row.receives_while_computing {
            busy.extend(recv.iter().chain(&cpu));
        }
        if row.half_duplex {
            port.extend(recv.iter().chain(&send));
        }
        for (what, uses, cap) in [("receive", &recv, row.recv_ports), ("send", &send, row.send_ports), ("compute", &cpu, 1.0), ("receive-or-compute", &busy, 1.0), ("send-or-receive", &port, row.send_ports)] {
            if let Err((t, level)) = events.peak_within(uses, cap, eps_t) {
                reject!("{} uses {level} {what} ports at time {t}, has {cap}", row.label);
            }
        }
    }
    Ok(())
}

/// A relayed message starts after its source has arrived at the sender and
/// carries no more than it; a processor holds each message it receives from
/// the start of the receipt to the end of its last forward (or of the
/// receipt), and never more at once than its buffers.
fn check_relays(s: &Schedule, by_row: &ByRow, events: &mut Events, eps_t: f64) -> Result<(), Violation> {
    let mut held_until: Vec<f64> = s.intervals.iter().map(|i| i.end).collect();
    let mut forwarded = alloc::vec![0.0; s.intervals.len()];
    for (n, i) in s.intervals.iter().enumerate() {
        let Some(src) = i.source else { continue };
        let from = i.from.unwrap_or(usize::MAX);
        let ok = s.intervals.get(src).is_some_and(|q| q.kind == i.kind && q.kind != Kind::Compute && q.proc == from);
        if !ok {
            reject!("interval {n} relays interval {src}, which is not a message into its sender");
        }
        let q = &s.intervals[src];
        if i.start < q.end - eps_t {
            reject!("{} relays a message at {} before it has arrived at {}", s.rows[from].label, i.start, q.end);
        }
        held_until[src] = held_until[src].max(i.end);
        forwarded[src] += i.load * i.messages / s.rows[from].count;
    }
    for (n, q) in s.intervals.iter().enumerate() {
        let have = q.load * q.messages / s.rows[q.proc].count;
        if forwarded[n] > have * (1.0 + REL_TOL) + f64::MIN_POSITIVE {
            reject!("{} forwards {} of a message that brought {have}", s.rows[q.proc].label, forwarded[n]);
        }
    }
    let mut held = Vec::new();
    for (r, row) in s.rows.iter().enumerate() {
        let Some(cap) = row.buffers else { continue };
        held.clear();
        held.extend(by_row[r].iter()
            .map(|&n| (n, &s.intervals[n]))
            .filter(|(_, i)| i.kind == Kind::Comm && i.proc == r)
            .map(|(n, i)| (i.start, held_until[n], i.messages / row.count)));
        if let Err((t, level)) = events.peak_within(&held, cap, eps_t) {
            reject!("{} holds {level} messages at time {t}, has {cap} buffers", row.label);
        }
    }
    Ok(())
}

/// Per physical processor of each row (tolerances relative to what that
/// processor moves: a torus layer holds a tiny share of V): what it has received by any instant
/// covers what it has started to forward or compute by then, and at the end
/// it has forwarded or computed all of it.
fn check_flow(s: &Schedule, by_row: &ByRow, events: &mut Events, eps_t: f64) -> Result<(), Violation> {
    for (r, row) in s.rows.iter().enumerate() {
        // Arrivals (first) before departures (forwards, then
        // computations) at equal times. Among departures at one time the
        // order changes no verdict: each adds to what is used more than to
        // the tolerance, so the check after the last is the strictest.
        let events = events.cleared();
        for i in by_row[r].iter().map(|&n| &s.intervals[n]) {
            match i.kind {
                Kind::Comm if i.proc == r => events.first.push((i.end - eps_t, i.load * i.messages / row.count)),
                Kind::Comm if i.from == Some(r) => events.then.push((i.start, i.load * i.messages / row.count)),
                Kind::Compute if i.proc == r => events.also.push((i.start, i.load)),
                _ => {}
            }
        }
        let (mut have, mut used) = (row.initial_load, 0.0);
        let mut moved = row.initial_load;
        for ((t, x), arrival) in events.in_order() {
            if arrival {
                have += x;
            } else {
                used += x;
            }
            moved += x;
            if used > have + REL_TOL * moved {
                reject!("{} forwards or computes {used} units by time {t} but has received only {have}", row.label);
            }
        }
        if (have - used).abs() > REL_TOL * moved {
            reject!("{} received {have} units but forwards or computes {used}", row.label);
        }
    }
    Ok(())
}

/// Per physical processor of each row: the results it has sent by any
/// instant are of load it had computed (to the end of the computation) or
/// received results of; where a schedule returns results at all, every
/// row passes on all it has, and the originators receive results for all
/// the load computed.
fn check_results(s: &Schedule, by_row: &ByRow, events: &mut Events, eps_t: f64) -> Result<(), Violation> {
    if !s.intervals.iter().any(|i| i.kind == Kind::Result) {
        return Ok(());
    }
    let mut collected = 0.0;
    for (r, row) in s.rows.iter().enumerate() {
        // What is ready (first) before what is sent at equal times, a
        // round-off early.
        let events = events.cleared();
        for i in by_row[r].iter().map(|&n| &s.intervals[n]) {
            let per = i.load * i.messages / row.count;
            match i.kind {
                Kind::Compute if i.proc == r => events.first.push((i.end - eps_t, i.load)),
                Kind::Result if i.proc == r => events.first.push((i.end - eps_t, per)),
                Kind::Result if i.from == Some(r) => events.then.push((i.start, per)),
                _ => {}
            }
        }
        let (mut have, mut sent, mut moved) = (0.0, 0.0, 0.0);
        for ((t, x), is_ready) in events.in_order() {
            if is_ready { have += x } else { sent += x }
            moved += x;
            if sent > have + REL_TOL * moved {
                reject!("{} sends results of {sent} units by time {t} but has computed or received results of {have}", row.label);
            }
        }
        if row.initial_load > 0.0 {
            collected += row.count * have;
        } else if (have - sent).abs() > REL_TOL * moved {
            reject!("{} has results of {have} units but returns {sent}", row.label);
        }
    }
    let computed: f64 = s.intervals.iter().filter(|i| i.kind == Kind::Compute).map(|i| s.rows[i.proc].count * i.load).sum();
    if (collected - computed).abs() > REL_TOL * computed.max(f64::MIN_POSITIVE) {
        reject!("the originators collect results of {collected} units of the {computed} computed");
    }
    Ok(())
}

fn check_totals(s: &Schedule, eps_t: f64, eps_x: f64) -> Result<(), Violation> {
    let held: f64 = s.rows.iter().map(|r| r.count * r.initial_load).sum();
    let computed: f64 = s.intervals.iter().filter(|i| i.kind == Kind::Compute).map(|i| s.rows[i.proc].count * i.load).sum();
    let listed = s.listed_load.unwrap_or(s.total_load);
    if !(listed > 0.0 && listed <= s.total_load * (1.0 + REL_TOL)) {
        reject!("the listed stages compute {listed} of V = {}", s.total_load);
    }
    if (held - listed).abs() > eps_x || (computed - listed).abs() > eps_x.max(REL_TOL * computed) {
        reject!("the schedule lists {listed} of V = {} but the originators hold {held} and the processors compute {computed}", s.total_load);
    }
    let last = s.intervals.iter().map(|i| i.end).fold(0.0, f64::max);
    if (last - s.makespan).abs() > eps_t {
        reject!("the model claims makespan {} but the last interval ends at {last}", s.makespan);
    }
    Ok(())
}

#[cfg(test)]
mod tests;
