//! The checker on small hand-built schedules: valid ones pass, and each
//! broken one way is rejected with words that say how.

use super::*;
use crate::schedule::Row;

/// 000's Sec. 4.1 example with D = 1.5: a 1-port originator sends 1.5,
/// 1, 0.5 (S = 0, C = A = 1); everyone stops at 3.5.
fn star() -> Schedule {
    let mut rows = alloc::vec![Row::originator(3.0)];
    for i in 1..=3 {
        let mut r = Row::linear(format!("P{i}"), 1.0, 0.0, 1.0, 1.0);
        r.buffer = Some(1.5);
        rows.push(r);
    }
    let mut s = Schedule::new(rows, 3.0);
    let mut t = 0.0;
    for (i, x) in [1.5, 1.0, 0.5].into_iter().enumerate() {
        let arrived = s.send(0, i + 1, t, x, 1.0);
        s.run(i + 1, arrived, x);
        t = arrived;
    }
    s.makespan = 3.5;
    s
}

/// A relay: P0 sends 2 units to P1, which computes 1 and forwards 1 to P2.
fn chain() -> Schedule {
    let rows = alloc::vec![Row::originator(2.0), Row::linear("P1", 1.0, 0.0, 1.0, 1.0), Row::linear("P2", 1.0, 0.0, 1.0, 1.0)];
    let mut s = Schedule::new(rows, 2.0);
    let t1 = s.send(0, 1, 0.0, 2.0, 1.0);
    s.run(1, t1, 1.0);
    let t2 = s.send(1, 2, t1, 1.0, 1.0);
    s.makespan = s.run(2, t2, 1.0);
    s
}

fn rejects(s: &Schedule, words: &str) {
    let v = check(s).expect_err("a broken schedule passed the checker");
    assert!(v.0.contains(words), "expected {words:?} in {:?}", v.0);
}

#[test]
fn accepts_valid_schedules() {
    assert_eq!(check(&star()), Ok(()));
    assert_eq!(check(&chain()), Ok(()));
}

#[test]
fn rejects_overlapping_ports() {
    let mut s = star();
    // The second message starts while the first is still on the wire.
    for i in s.intervals.iter_mut().filter(|i| i.proc == 2) {
        i.start -= 0.5;
        i.end -= 0.5;
    }
    rejects(&s, "send ports");
    let mut s = star();
    s.rows[0].send_ports = 2.0;
    for i in s.intervals.iter_mut().filter(|i| i.proc == 2) {
        i.start -= 0.5;
        i.end -= 0.5;
    }
    assert_eq!(check(&s), Ok(()), "two ports allow two messages at once");
    // Two messages into one receiver at once.
    let mut s = chain();
    s.comm(2, 1, (0.5, 1.0), 0.5, 1.0);
    rejects(&s, "receive ports");
}

/// An interval that stands for more messages than there are ports is
/// rejected though no two intervals overlap.
#[test]
fn rejects_more_messages_at_once_than_ports() {
    let mut s = star();
    s.intervals[0].messages = 2.0;
    rejects(&s, "uses 2 send ports");
}

#[test]
fn rejects_buffer_overflow() {
    let mut s = star();
    s.rows[1].buffer = Some(1.0);
    rejects(&s, "buffer");
}

#[test]
fn rejects_computing_before_arrival() {
    let mut s = star();
    let c = s.intervals.iter_mut().find(|i| i.proc == 3 && i.kind == Kind::Compute).unwrap();
    c.start -= 0.25;
    c.end -= 0.25;
    rejects(&s, "has received only");
    // A relay forwarding before it has the data.
    let mut s = chain();
    let fwd = s.intervals.iter_mut().find(|i| i.proc == 2 && i.kind == Kind::Comm).unwrap();
    fwd.start -= 1.0;
    fwd.end -= 1.0;
    rejects(&s, "has received only");
}

#[test]
fn rejects_load_not_accounted_for() {
    // P1 computes less than it keeps: the rest vanishes.
    let mut s = chain();
    let c = s.intervals.iter_mut().find(|i| i.proc == 1 && i.kind == Kind::Compute).unwrap();
    c.load = 0.5;
    c.end = c.start + 0.5;
    rejects(&s, "received");
    // V is not what was computed.
    let mut s = star();
    s.total_load = 4.0;
    rejects(&s, "V = 4");
    // A schedule listed in part computes what it says it lists, and no
    // more than V.
    let mut s = star();
    let computed = s.total_load;
    s.total_load = 10.0 * computed;
    s.listed_load = Some(computed);
    assert!(check(&s).is_ok());
    s.listed_load = Some(computed / 2.0);
    rejects(&s, "lists");
    s.listed_load = Some(20.0 * computed);
    rejects(&s, "the listed stages compute");
}

#[test]
fn rejects_wrong_durations_and_makespan() {
    let mut s = star();
    s.intervals[1].end += 0.1;
    rejects(&s, "cost model");
    let mut s = star();
    s.makespan = 3.0;
    rejects(&s, "claims makespan");
    let mut s = star();
    s.intervals[0].start = f64::NAN;
    rejects(&s, "non-finite");
}

#[test]
fn times_messages_by_the_data_they_carry() {
    // P1 also receives 1 unit of copies it only reads: 3 units on the wire.
    let mut s = chain();
    s.intervals[0].data = Some(3.0);
    rejects(&s, "cost model");
    for i in s.intervals.iter_mut() {
        i.start += if i.proc == 1 && i.kind == Kind::Comm { 0.0 } else { 1.0 };
        i.end += 1.0;
    }
    s.makespan += 1.0;
    assert_eq!(check(&s), Ok(()));
    s.rows[1].buffer = Some(2.5);
    rejects(&s, "buffer");
}

/// P1 relays a first message to P2 while it receives a second, its own.
fn relay(buffers: f64) -> Schedule {
    let mut rows = alloc::vec![Row::originator(2.0), Row::linear("P1", 1.0, 0.0, 1.0, 1.0), Row::linear("P2", 1.0, 0.0, 1.0, 1.0)];
    rows[1].buffers = Some(buffers);
    let mut s = Schedule::new(rows, 2.0);
    s.comm(0, 1, (0.0, 1.0), 1.0, 1.0);
    s.comm(1, 2, (1.0, 2.0), 1.0, 1.0).source = Some(0);
    s.comm(0, 1, (1.0, 2.0), 1.0, 1.0);
    s.compute(1, (2.0, 3.0), 1.0);
    s.compute(2, (2.0, 3.0), 1.0);
    s.makespan = 3.0;
    s
}

#[test]
fn holds_relayed_messages_until_forwarded() {
    assert_eq!(check(&relay(2.0)), Ok(()));
    rejects(&relay(1.0), "holds 2 messages");
    let mut s = relay(2.0);
    s.intervals[1].source = Some(2);
    rejects(&s, "before it has arrived");
    let mut s = relay(2.0);
    s.intervals[1].source = Some(1);
    rejects(&s, "not a message into its sender");
}

#[test]
fn counts_messages_per_physical_processor() {
    // One row of 4 receivers fed by a 4-port originator in one interval.
    let mut rows = alloc::vec![Row::originator(4.0), Row::linear("layer 1", 4.0, 0.0, 1.0, 1.0)];
    rows[0].send_ports = 4.0;
    let mut s = Schedule::new(rows, 4.0);
    let t = s.send(0, 1, 0.0, 1.0, 4.0);
    s.makespan = s.run(1, t, 1.0);
    assert_eq!(check(&s), Ok(()));
    s.rows[0].send_ports = 2.0;
    rejects(&s, "send ports");
}

/// Receipts from two senders over one and the same interval share the
/// receiving row's port: 2 and 4 messages into a row of 6 processors fill
/// its one port, 4 and 4 overfill it, though each alone fits.
#[test]
fn counts_receipts_from_several_senders_at_once_together() {
    let schedule = |a: f64, b: f64| {
        let mut rows = alloc::vec![Row::originator(a), Row::originator(b), Row::linear("layer", 6.0, 0.0, 1.0, 1.0)];
        (rows[0].send_ports, rows[1].send_ports) = (a, b);
        let mut s = Schedule::new(rows, a + b);
        s.send(0, 2, 0.0, 1.0, a);
        let t = s.send(1, 2, 0.0, 1.0, b);
        s.makespan = s.run(2, t, (a + b) / 6.0);
        s
    };
    assert_eq!(check(&schedule(2.0, 4.0)), Ok(()));
    rejects(&schedule(4.0, 4.0), "receive ports");
}

/// `star()` with results of ratio 1/2 returned over P0's one port, which
/// also sends (half duplex), in FIFO order once the last send is done: P1's
/// over [3, 3.75], P2's [3.75, 4.25], P3's [4.25, 4.5].
fn returning() -> Schedule {
    let mut s = star();
    s.rows[0].half_duplex = true;
    let mut t = 3.0;
    for (i, x) in [1.5, 1.0, 0.5].into_iter().enumerate() {
        t = s.result(i + 1, 0, t, x, x / 2.0, 1.0).end;
    }
    s.makespan = t;
    s
}

#[test]
fn accepts_results_sent_once_computed() {
    assert_eq!(check(&returning()), Ok(()));
}

fn results_of(s: &mut Schedule, row: usize) -> &mut crate::schedule::Interval {
    s.intervals.iter_mut().find(|i| i.kind == Kind::Result && i.from == Some(row)).expect("a result")
}

#[test]
fn rejects_results_before_their_computation_or_missing() {
    let mut s = returning();
    // P2 computes until 3.5: its results cannot leave at 3.0 (P1's moved later).
    let r = results_of(&mut s, 1);
    (r.start, r.end) = (3.5, 4.25);
    let r = results_of(&mut s, 2);
    (r.start, r.end) = (3.0, 3.5);
    rejects(&s, "P2 sends results of 1 units by time 3");
    let mut s = returning();
    s.intervals.retain(|i| !(i.kind == Kind::Result && i.from == Some(3)));
    s.makespan = 4.25;
    rejects(&s, "P3 has results of 0.5 units but returns 0");
}

#[test]
fn rejects_a_one_port_originator_receiving_while_it_sends() {
    // P1's results (computed by 3.0) received while P0 sends to P3 until 3.0.
    let mut s = returning();
    let r = results_of(&mut s, 1);
    (r.start, r.end) = (2.9, 3.65);
    rejects(&s, "send-or-receive");
    let mut s = returning();
    results_of(&mut s, 3).end += 0.1;
    s.makespan += 0.1;
    rejects(&s, "cost model gives");
}

/// Each sweep sorts its two kinds of events apart and merges them: listed
/// backwards (no kind in time order), a schedule gets the same verdicts.
#[test]
fn verdicts_do_not_depend_on_the_order_intervals_are_listed_in() {
    let backwards = |mut s: Schedule| {
        s.intervals.reverse();
        s
    };
    for s in [star(), chain(), returning()] {
        assert_eq!(check(&backwards(s)), Ok(()));
    }
    let mut s = star();
    for i in s.intervals.iter_mut().filter(|i| i.proc == 2) {
        i.start -= 0.5;
        i.end -= 0.5;
    }
    rejects(&backwards(s), "send ports");
    let mut s = star();
    let c = s.intervals.iter_mut().find(|i| i.proc == 3 && i.kind == Kind::Compute).unwrap();
    c.start -= 0.25;
    c.end -= 0.25;
    rejects(&backwards(s), "has received only");
    let mut s = returning();
    let r = results_of(&mut s, 1);
    (r.start, r.end) = (3.5, 4.25);
    let r = results_of(&mut s, 2);
    (r.start, r.end) = (3.0, 3.5);
    rejects(&backwards(s), "P2 sends results of 1 units by time 3");
}
