//! The one schedule every model produces: rows of identical processors, and
//! the communications and computations on them. A row stands for `count`
//! processors that act alike (a tree or torus layer), or for one processor.
//!
//! A communication interval is a set of `messages` identical messages of
//! `load` units each, sent by processors of row `from` to processors of row
//! `proc`; every physical receiver in `proc` receives `messages / count`
//! of them. This one convention covers stars (one message), tree layers
//! (each relay sends `p` messages) and torus phases (each active node sends
//! four), and lets the checker account ports and load per physical processor.

use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;

/// Time to move `x` load units into a processor of a row: `S + C x`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Link {
    #[serde(rename = "S")]
    pub s: f64,
    #[serde(rename = "C")]
    pub c: f64,
}

/// Time to compute `x` load units on a processor of a row.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Cost {
    /// max over pieces of `a + b x` (002's memory hierarchy; a single piece
    /// `(0, A)` is the classical linear time).
    Pieces { pieces: Vec<(f64, f64)> },
    /// `theta + a x^gamma` (004's non-linear loads with start-up).
    Power { theta: f64, a: f64, gamma: f64 },
}

/// max over pieces of `a + b x`.
pub fn piecewise(pieces: &[(f64, f64)], x: f64) -> f64 {
    pieces.iter().map(|&(a, b)| a + b * x).fold(f64::NEG_INFINITY, f64::max)
}

impl Cost {
    pub fn linear(a: f64) -> Self {
        Cost::Pieces { pieces: alloc::vec![(0.0, a)] }
    }

    pub fn time(&self, x: f64) -> f64 {
        match self {
            Cost::Pieces { pieces } => piecewise(pieces, x),
            Cost::Power { theta, a, gamma } => theta + a * libm::pow(x, *gamma),
        }
    }
}

fn is_true(b: &bool) -> bool {
    *b
}

fn is_false(b: &bool) -> bool {
    !*b
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Row {
    pub label: String,
    /// Identical processors this row stands for.
    pub count: f64,
    /// Messages a processor of this row may send at once (1-port: 1).
    pub send_ports: f64,
    /// Messages a processor of this row may receive at once.
    pub recv_ports: f64,
    /// Whether sends and receipts share the `send_ports` (a one-port
    /// originator that also collects results).
    #[serde(skip_serializing_if = "is_false")]
    pub half_duplex: bool,
    /// Whether a processor may receive while it computes (003's machines
    /// may not: a chunk is received only after the previous one is done).
    #[serde(skip_serializing_if = "is_true")]
    pub receives_while_computing: bool,
    /// Load each processor of the row holds at time 0 (the originator's V).
    pub initial_load: f64,
    /// Cost of messages into this row.
    pub link: Link,
    pub compute: Cost,
    /// Largest message this row's processors accept (000's buffer D).
    pub buffer: Option<f64>,
    /// Messages a processor of this row can hold at once (000's 1- and
    /// 2-buffer relays); a message is held from the start of its receipt
    /// until it has been received, or forwarded when it is relayed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buffers: Option<f64>,
}

impl Row {
    /// A row of `count` processors with one send and one receive port, linear
    /// computing time `A` per unit and links `S + C x`.
    pub fn linear(label: impl Into<String>, count: f64, s: f64, c: f64, a: f64) -> Self {
        Row {
            label: label.into(),
            count,
            send_ports: 1.0,
            recv_ports: 1.0,
            half_duplex: false,
            receives_while_computing: true,
            initial_load: 0.0,
            link: Link { s, c },
            compute: Cost::linear(a),
            buffer: None,
            buffers: None,
        }
    }

    /// The originator: holds `v`, computes nothing unless told otherwise.
    pub fn originator(v: f64) -> Self {
        Row { initial_load: v, ..Row::linear("P0", 1.0, 0.0, 0.0, 0.0) }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Comm,
    Compute,
    /// Results of computed load sent back (001 Fig. 9, a star with result
    /// return): `load` is the load whose results a message reports, `data`
    /// what it carries; it moves no load and lasts the sender's link cost
    /// (links are symmetric).
    Result,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Interval {
    /// Row index: the receiver of a communication, the computing row otherwise.
    pub proc: usize,
    pub kind: Kind,
    pub start: f64,
    pub end: f64,
    /// Load units per message (comm) or computed per processor (compute).
    pub load: f64,
    /// Sending row of a communication.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<usize>,
    /// Identical messages this communication interval stands for.
    pub messages: f64,
    /// Data units a message carries when they differ from the load it hands
    /// over (004: a child receives copies of rows it reads but does not
    /// compute). Its length and buffer use go by the data, the load flow by
    /// `load`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<f64>,
    /// For a relayed message: the interval that brought its data to the
    /// sender.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<usize>,
}

impl Interval {
    /// What a message carries over the wire.
    pub fn data(&self) -> f64 {
        self.data.unwrap_or(self.load)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Schedule {
    #[serde(rename = "processors")]
    pub rows: Vec<Row>,
    #[serde(rename = "schedule")]
    pub intervals: Vec<Interval>,
    pub makespan: f64,
    /// V: what all processors together must compute.
    pub total_load: f64,
    /// Where the schedule lists only part of its stages or rounds (they are
    /// left out of long answers): the load the listed intervals compute,
    /// and the originator's load as listed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub listed_load: Option<f64>,
}

impl Schedule {
    pub fn new(rows: Vec<Row>, total_load: f64) -> Self {
        Schedule { rows, intervals: Vec::new(), makespan: 0.0, total_load, listed_load: None }
    }

    /// A communication of `messages` messages of `load` units from row
    /// `from` to row `to` over `[start, end]`, timed by the model. Returns
    /// it, for a model to set what it carries besides the load.
    pub fn comm(&mut self, from: usize, to: usize, (start, end): (f64, f64), load: f64, messages: f64) -> &mut Interval {
        self.intervals.push(Interval { proc: to, kind: Kind::Comm, start, end, load, from: Some(from), messages, data: None, source: None });
        self.intervals.last_mut().expect("just pushed")
    }

    /// Row `row` computes `load` units over `[start, end]`, timed by the model.
    pub fn compute(&mut self, row: usize, (start, end): (f64, f64), load: f64) {
        self.intervals.push(Interval { proc: row, kind: Kind::Compute, start, end, load, from: None, messages: 1.0, data: None, source: None });
    }

    /// One message (or `messages` alike) from `from` to `to` starting at
    /// `start`, lasting the receiver's link cost: for models evaluated by
    /// simulation rather than by a formula. Returns the end time.
    pub fn send(&mut self, from: usize, to: usize, start: f64, load: f64, messages: f64) -> f64 {
        let end = self.arrival(to, start, load);
        self.comm(from, to, (start, end), load, messages);
        end
    }

    /// Results of `load` computed units, `data` of them on the wire, from
    /// row `from` to row `to` starting at `start`, lasting the sender's link
    /// cost. Returns the interval.
    pub fn result(&mut self, from: usize, to: usize, start: f64, load: f64, data: f64, messages: f64) -> &mut Interval {
        let link = self.rows[from].link;
        let end = start + link.s + link.c * data;
        self.intervals.push(Interval { proc: to, kind: Kind::Result, start, end, load, from: Some(from), messages, data: Some(data), source: None });
        self.intervals.last_mut().expect("just pushed")
    }

    /// When a message of `load` units into row `to` started at `start`
    /// ends: `send`'s end without listing the message.
    pub fn arrival(&self, to: usize, start: f64, load: f64) -> f64 {
        let link = self.rows[to].link;
        start + link.s + link.c * load
    }

    /// Row `row` computes `load` units from `start` for as long as its cost
    /// says. Returns the end time.
    pub fn run(&mut self, row: usize, start: f64, load: f64) -> f64 {
        let end = self.finish(row, start, load);
        self.compute(row, (start, end), load);
        end
    }

    /// `run`'s end without listing the computation.
    pub fn finish(&self, row: usize, start: f64, load: f64) -> f64 {
        start + self.rows[row].compute.time(load)
    }

    /// The schedule lists part of the stages, which compute `load` of V.
    pub fn listing(&mut self, load: f64) {
        self.rows[0].initial_load = load;
        self.listed_load = Some(load);
    }
}
