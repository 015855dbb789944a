//! LoadDirect and the binomial trees' LP (000 Sec. 3.1, 3.3) solved by the
//! shape of its optimum, each answer with a proof, no simplex.
//!
//! The shape. Number the messages q = 0..Q in the order they leave the
//! originator, M to a stage (the units in the stage's order). In the
//! optimum the first stages are free and the rest full to the buffers, the
//! stage between split: its last r messages free, the others full. Every
//! free message's row is tight: its chunk arrives just when its processor,
//! computing without a break until Cmax, needs it. Two tight rows of one
//! unit in consecutive stages say that the unit computes chunk q while the
//! link sends the next M messages, a x_q = sum_{p=q+1}^{q+M} (s_p + c_p
//! x_p); the row of a unit's last free chunk reads E_q + a (x_q + tail_q) =
//! Cmax (tail_q: its full chunks after it), and two such rows give the
//! earlier chunk from the later one. Backwards from the last free chunk z,
//! every chunk is affine in z, and the load row fixes z. Fewer free
//! messages break the full messages' rows, more overfill the buffers: the
//! free count is found by bisection.
//!
//! The proof. The multipliers of the tight rows follow the same shape
//! forwards (each free chunk's reduced cost is 0), and any multipliers give
//! a lower bound of the LP by weak duality (`dual_bound`). An answer is
//! returned only where its rows and bounds hold and that bound meets its
//! makespan within `PROOF`: the shape is never trusted, only checked, and
//! where the check fails the LP solves.

use super::sequential::Sequential;
use alloc::vec;
use alloc::vec::Vec;
use core::ops::{Add, Mul, Sub};

/// Relative distance between the makespan and the dual bound that counts as
/// a proof of optimality, and relative slack allowed in rows and bounds.
pub const PROOF: f64 = 1e-9;

/// An answer by the shape: chunks[k][j] for stage k and kept unit j, in
/// load units, and the makespan, proven optimal within PROOF.
pub(crate) struct Proven {
    pub chunks: Vec<Vec<f64>>,
    pub makespan: f64,
}

/// One message in the LP's scaled units: its unit's start-up, rate,
/// processor count and buffer.
struct Message {
    s: f64,
    c: f64,
    count: f64,
    cap: f64,
}

/// The LP over the kept units and n stages, scaled as the LP is (loads in
/// x0, times in tau).
pub(super) struct Instance {
    messages: Vec<Message>,
    /// Messages per stage.
    m: usize,
    a: f64,
    v: f64,
}

/// `constant + slope * z`: the chunks as functions of the one unknown left.
#[derive(Debug, Clone, Copy, Default)]
struct Affine(f64, f64);

impl Affine {
    fn at(self, z: f64) -> f64 {
        self.0 + self.1 * z
    }
}

impl Add for Affine {
    type Output = Affine;
    fn add(self, o: Affine) -> Affine {
        Affine(self.0 + o.0, self.1 + o.1)
    }
}

impl Sub for Affine {
    type Output = Affine;
    fn sub(self, o: Affine) -> Affine {
        Affine(self.0 - o.0, self.1 - o.1)
    }
}

impl Mul<f64> for Affine {
    type Output = Affine;
    fn mul(self, k: f64) -> Affine {
        Affine(self.0 * k, self.1 * k)
    }
}

/// What a message is in a shape: free (its row tight, its chunk within
/// the buffer), full to the buffer, or empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Free,
    Full,
    Empty,
}

type Shape = Vec<Status>;

/// What a shape gives: its chunks and makespan, and what breaks, each with
/// by how much.
struct Outcome {
    x: Vec<f64>,
    t: f64,
    /// Free chunks over their buffer.
    over: Vec<(usize, f64)>,
    /// Free chunks below 0.
    under: Vec<(usize, f64)>,
    /// Messages whose row the makespan breaks.
    broken: Vec<(usize, f64)>,
}

impl Outcome {
    fn faults(&self) -> usize {
        self.over.len() + self.under.len() + self.broken.len()
    }
}

/// Makespans this close count as a tie, which the sparser answer wins:
/// the simplex's own round-off (a 000 Fig. 6 near-tie is 1.5e-12 apart).
const TIE: f64 = 1e-11;

/// Pivots tried after the bisections over q messages: one per message
/// at most, and at most PIVOT_WORK messages' worth of them in all (each
/// pivot solves the shape again, O(q)), but at least 64. The shapes found
/// took up to 775 pivots (a star of 403 processors at n_min = 28, S = 0:
/// 160, where the 64 of before gave up and the LP of 33,853 variables was
/// refused after 9.5 s; m = 677, n = 39, 26,403 messages: 775, 0.8 s).
fn pivots(q: usize) -> usize {
    q.min(PIVOT_WORK / q.max(1)).max(64)
}

/// The messages' worth of shape solves the pivots may take: about a
/// second natively where they fail (30-40 ns a message).
const PIVOT_WORK: usize = 30_000_000;

/// The optimum over units `kept` and `n` stages where a shape is found and
/// proven; `None` where not (the LP then solves).
pub(crate) fn solve(seq: &Sequential, kept: &[usize], n: usize) -> Option<Proven> {
    let inst = Instance::new(seq, kept, n);
    if inst.forced() {
        // The buffers force every chunk full: the one feasible point is
        // optimal, with no search and no bound (000 Fig. 7's V = 1E6,
        // D = 1: a million messages, 173 -> 116 ms).
        let outcome = inst.outcome(&vec![Status::Full; inst.messages.len()])?;
        return (outcome.faults() == 0).then(|| inst.proven(seq, kept, outcome));
    }
    let proven = |outcome: &Outcome, multipliers: &(Vec<f64>, f64)| outcome.t - inst.dual_bound(multipliers) <= PROOF * outcome.t;
    let by_link = || inst.link_bound().filter(|(outcome, multipliers)| proven(outcome, multipliers)).map(|(outcome, _)| outcome);
    // The link's greedy fill first: one pass, where the shape's search
    // takes dozens (000 Fig. 13(a)'s LLF at D = 1: 102 passes of 344,830
    // messages).
    let by_shape = || inst.find().and_then(|(shape, outcome)| inst.certify(shape, outcome)).map(|(outcome, _)| outcome);
    let outcome = by_link().or_else(by_shape)?;
    Some(inst.proven(seq, kept, outcome))
}

/// The optimum over units `kept` and `n` stages where `chunks` (load
/// units, chunks[k][j], all n stages; a windowed LP's answer, say) has the
/// shape of one: its messages read as full, empty or free, the free ones'
/// rows made tight, and proven by that shape's multipliers as `solve`'s
/// are; with the dual bound, in time units. The shapes `solve` searches
/// have their free messages at one end; an optimum with partial chunks at
/// both ends (000 Fig. 5(a)'s D = 100 past V = 1E4) is found by the LP
/// and proven here.
pub(crate) fn prove(seq: &Sequential, kept: &[usize], chunks: &[Vec<f64>]) -> Option<(Proven, f64)> {
    let n = chunks.len();
    let inst = Instance::new(seq, kept, n);
    let x0 = seq.scale.0;
    let shape: Shape = seq.order_of(kept.len(), n).zip(&inst.messages).map(|((k, j), msg)| {
        let x = chunks[k][j] / x0;
        if x >= msg.cap * (1.0 - SHAPE) {
            Status::Full
        } else if x <= SHAPE * msg.cap.min(inst.v) {
            Status::Empty
        } else {
            Status::Free
        }
    }).collect();
    let outcome = inst.outcome(&shape).filter(|o| o.faults() == 0)?;
    let (outcome, bound) = inst.certify(shape, outcome)?;
    Some((inst.proven(seq, kept, outcome), bound * seq.scale.1))
}

/// How near its buffer (or 0) an LP's chunk reads as full (or empty), relative.
const SHAPE: f64 = 1e-7;

impl Instance {
    /// `outcome` in load units by stage and kept unit.
    fn proven(&self, seq: &Sequential, kept: &[usize], outcome: Outcome) -> Proven {
        let n = self.messages.len() / self.m;
        let (x0, tau) = seq.scale;
        let mut chunks = vec![vec![0.0; self.m]; n];
        for (p, (k, j)) in seq.order_of(kept.len(), n).enumerate() {
            chunks[k][j] = (outcome.x[p] * x0).clamp(0.0, seq.units[kept[j]].cap);
        }
        Proven { chunks, makespan: outcome.t * tau }
    }

    pub(super) fn new(seq: &Sequential, kept: &[usize], n: usize) -> Self {
        let (x0, tau) = seq.scale;
        let messages = seq.order_of(kept.len(), n).map(|(_, j)| {
            let u = &seq.units[kept[j]];
            Message { s: u.s / tau, c: u.c * x0 / tau, count: u.count, cap: u.cap / x0 }
        }).collect();
        Instance { messages, m: kept.len(), a: seq.a * x0 / tau, v: seq.v / x0 }
    }

    /// A shape whose chunks fit: by bisection over the shapes where
    /// computing dominates (free stages first, the stage after free at its
    /// end) and where the link does (the last messages free), then by
    /// pivots from the closest.
    fn find(&self) -> Option<(Shape, Outcome)> {
        let q = self.messages.len();
        // Not free: full, or empty where there is no buffer.
        let status = |free: bool, p: usize| match (free, self.messages[p].cap.is_finite()) {
            (true, _) => Status::Free,
            (false, true) => Status::Full,
            (false, false) => Status::Empty,
        };
        let prefix = |free: usize| {
            let (whole, part) = (free / self.m * self.m, free % self.m);
            (0..q).map(|p| status(p < whole || (p < whole + self.m && p >= whole + self.m - part), p)).collect()
        };
        let suffix = |free: usize| (0..q).map(|p| status(p >= q - free, p)).collect();
        let mut best: Option<(Shape, Outcome)> = None;
        for family in [&prefix as &dyn Fn(usize) -> Shape, &suffix] {
            // Each count of free messages tried is kept if it breaks least,
            // and says whether to try fewer: singular, or overflowing
            // through too many free stages (the backward recursion grows
            // where the link dominates), or no row broken.
            let mut attempt = |free: usize| {
                let shape = family(free);
                let outcome = self.outcome(&shape);
                let fewer = outcome.as_ref().is_none_or(|o| o.broken.is_empty());
                if let Some(o) = outcome {
                    if best.as_ref().is_none_or(|(_, b)| o.faults() < b.faults()) {
                        best = Some((shape, o));
                    }
                }
                fewer
            };
            // Too few free messages break rows.
            attempt(1);
            let (mut lo, mut hi) = (1, q);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if attempt(mid) { hi = mid } else { lo = mid + 1 }
            }
            // Where no count was fewer, the bisection ends at q, untried.
            if hi == q && q > 1 {
                attempt(q);
            }
        }
        // Where neither family fits (small layers computing, large ones
        // waiting for the link), pivot as a simplex would: the row broken
        // most becomes free, the chunk most over its buffer full.
        let (mut shape, mut outcome) = best?;
        for _ in 0..pivots(q) {
            if outcome.faults() == 0 {
                return Some((shape, outcome));
            }
            // A chunk below 0 often rises again once the rest is right:
            // emptied only when nothing else breaks.
            let under = if outcome.over.is_empty() && outcome.broken.is_empty() { &outcome.under[..] } else { &[] };
            for (faults, to) in [(&outcome.over[..], Status::Full), (under, Status::Empty), (&outcome.broken[..], Status::Free)] {
                if let Some(&(p, _)) = faults.iter().max_by(|a, b| a.1.total_cmp(&b.1)) {
                    shape[p] = to;
                }
            }
            outcome = self.outcome(&shape)?;
        }
        (outcome.faults() == 0).then_some((shape, outcome))
    }

    /// `outcome` of `shape` where that shape's multipliers prove it: the
    /// sparsest of its ties, with the dual bound (scaled).
    fn certify(&self, shape: Shape, outcome: Outcome) -> Option<(Outcome, f64)> {
        let bound = self.dual_bound(&self.multipliers(&shape));
        let optimum = outcome.t;
        // The same dual bound proves it, within TIE of the optimum.
        let tied = |empty: usize| {
            let mut fewer = shape.clone();
            fewer[shape.len() - empty..].fill(Status::Empty);
            self.outcome(&fewer).filter(|o| o.faults() == 0 && o.t <= optimum * (1.0 + TIE) && o.t - bound <= PROOF * o.t)
        };
        (outcome.t - bound <= PROOF * outcome.t).then(|| (self.sparsest(outcome, tied), bound))
    }

    /// Among the optima tied with `outcome` (`tied(e)`: one with its last e
    /// messages empty, where that ties), the one with the most empty
    /// messages at the end: where the optimum is not
    /// unique a simplex vertex leaves them empty, the paper's LP charges
    /// their start-ups all the same, and pruning can then drop them (000
    /// Fig. 6: at n = 5 no load goes to P8-P10 in the last stage). Through
    /// the last stage's messages; where all of it empties, whole stages
    /// before it too, then through the messages of the stage before those:
    /// each count doubled until one does not tie, then the gap to it
    /// halved. One pruning then drops them all, where it dropped one
    /// stage a solve: a star of m = 301 with C = 0 and n = 260, whose every
    /// stage but the first empties at no cost, took 260 solves and 52 s.
    /// (One message at a time, a star of 789 processors, n = 67, took 789
    /// solves of its 52,863 messages' shape: 1.7 s.)
    fn sparsest(&self, outcome: Outcome, tied: impl Fn(usize) -> Option<Outcome>) -> Outcome {
        let (q, m) = (self.messages.len(), self.m);
        // The most k up to `most` for which the last `base + k unit`
        // messages empty tie, `known` of them known to: the count doubled
        // until one fails, then the gap halved (`best` the last that tied).
        let most_tied = |base: usize, unit: usize, known: usize, most: usize, best: &mut Outcome| {
            let (mut tie, mut fails) = (known, None);
            loop {
                let k = match fails {
                    None if tie < most => (2 * tie).max(1).min(most),
                    Some(f) if f - tie > 1 => tie + (f - tie) / 2,
                    _ => break tie,
                };
                match tied(base + k * unit) {
                    Some(o) => (*best, tie) = (o, k),
                    None => fails = Some(k),
                }
            }
        };
        let mut best = outcome;
        if most_tied(0, 1, 0, m.min(q - 1), &mut best) < m {
            return best;
        }
        let stages = most_tied(0, m, 1, (q - 1) / m, &mut best);
        most_tied(stages * m, 1, 0, m.min(q - 1 - stages * m), &mut best);
        best
    }

    /// Whether full buffers carry exactly V: the one feasible point.
    fn forced(&self) -> bool {
        let full: f64 = self.messages.iter().map(|msg| msg.count * msg.cap).sum();
        full.is_finite() && (full - self.v).abs() <= 1e-12 * self.v
    }

    /// The chunks of `shape`, each affine in z, and the makespan the same
    /// way. Backwards, each free chunk from those after it: a free chunk
    /// whose unit is free again at q' computes while the link sends up to
    /// q', a (x_q + the unit's chunks between) = E_q' - E_q; the units'
    /// last free rows, E_q + a (x_q + the unit's chunks after) = t, each
    /// give the chunk before from the one after, and z is the latest. None
    /// where nothing is free.
    fn affine(&self, shape: &[Status]) -> Option<(Vec<Affine>, Affine)> {
        let (msgs, m, a) = (&self.messages, self.m, self.a);
        let q_len = msgs.len();
        let mut x = vec![Affine::default(); q_len];
        // The link's time from message q on.
        let mut g = vec![Affine::default(); q_len + 1];
        let (mut next_free, mut fixed_after) = (vec![None; m], vec![0.0; m]);
        let mut tail = vec![0.0; q_len];
        let (mut chain, mut latest): (Option<usize>, Option<usize>) = (None, None);
        for q in (0..q_len).rev() {
            let (u, msg) = (q % m, &msgs[q]);
            x[q] = match shape[q] {
                Status::Full | Status::Empty => {
                    let xq = if shape[q] == Status::Full { msg.cap } else { 0.0 };
                    fixed_after[u] += xq;
                    Affine(xq, 0.0)
                }
                Status::Free => {
                    let xq = match next_free[u] {
                        Some(q2) => (g[q + 1] - g[q2 + 1]) * (1.0 / a) - Affine(fixed_after[u], 0.0),
                        None => {
                            tail[q] = fixed_after[u];
                            let xq = match chain {
                                None => Affine(0.0, 1.0),
                                Some(l) => x[l] + Affine(tail[l] - tail[q], 0.0) + (g[q + 1] - g[l + 1]) * (1.0 / a),
                            };
                            latest.get_or_insert(q);
                            chain = Some(q);
                            xq
                        }
                    };
                    next_free[u] = Some(q);
                    fixed_after[u] = 0.0;
                    xq
                }
            };
            g[q] = g[q + 1] + Affine(msg.s, 0.0) + x[q] * msg.c;
        }
        let l = latest?;
        let t = g[0] - g[l + 1] + (x[l] + Affine(tail[l], 0.0)) * a;
        Some((x, t))
    }

    /// The chunks and makespan of `shape`, z set by the load row, and what
    /// breaks; `None` where its equations are singular or, nothing free,
    /// the chunks do not carry V. Where nothing is free (forced buffers),
    /// t is the latest row.
    fn outcome(&self, shape: &[Status]) -> Option<Outcome> {
        let msgs = &self.messages;
        let (x, t) = match self.affine(shape) {
            Some((x, t)) => {
                let load = x.iter().zip(msgs).fold(Affine::default(), |l, (xq, msg)| l + *xq * msg.count);
                let z = (self.v - load.0) / load.1;
                if !z.is_finite() {
                    return None;
                }
                (x.iter().map(|xq| xq.at(z)).collect::<Vec<f64>>(), Some(t.at(z)))
            }
            None => {
                let x: Vec<f64> = shape.iter().zip(msgs).map(|(&st, msg)| if st == Status::Full { msg.cap } else { 0.0 }).collect();
                let load: f64 = x.iter().zip(msgs).map(|(xq, msg)| xq * msg.count).sum();
                if (load - self.v).abs() > PROOF * self.v {
                    return None;
                }
                (x, None)
            }
        };
        Some(self.judge(shape, x, t))
    }

    /// What breaks in chunks `x` of `shape` at makespan `t` (the latest row
    /// where none is given).
    fn judge(&self, shape: &[Status], x: Vec<f64>, t: Option<f64>) -> Outcome {
        let msgs = &self.messages;
        let ends = self.row_ends(&x);
        let t = t.unwrap_or_else(|| ends.iter().copied().fold(0.0, f64::max));
        let free = |q: &usize| shape[*q] == Status::Free;
        let q_len = x.len();
        let over = (0..q_len).filter(free).filter(|&q| x[q] > msgs[q].cap * (1.0 + PROOF)).map(|q| (q, x[q] / msgs[q].cap - 1.0)).collect();
        let under = (0..q_len).filter(free).filter(|&q| x[q] < -PROOF).map(|q| (q, -x[q])).collect();
        // Free rows are tight by construction, up to round-off: checked too.
        let broken = (0..q_len).filter(|&q| ends[q] > t * (1.0 + PROOF)).map(|q| (q, ends[q] / t - 1.0)).collect();
        Outcome { x, t, over, under, broken }
    }

    /// Where the link is what takes longest: every message sent, the
    /// makespan is at least the link's time S_Q + lambda V (lambda the
    /// least rate per processor). A fill of the chunks that carries V at
    /// that makespan within the rows is optimal, proven by the last row's
    /// multiplier alone, where every unit has that rate (a star). Two
    /// fills, each chunk as large as its buffer, the load left and its
    /// rows allow: in sending order, and where that one leaves load over,
    /// from the last message back (`backward_fill`). (A second way, the
    /// first stages free at that makespan, proved none of 2,463 gallery
    /// and random stars and binomial trees and scanned every stage count:
    /// 30 s at n = 18,868.)
    fn link_bound(&self) -> Option<(Outcome, (Vec<f64>, f64))> {
        let msgs = &self.messages;
        let lambda = msgs.iter().map(|msg| msg.c / msg.count).fold(f64::INFINITY, f64::min);
        let t = msgs.iter().map(|msg| msg.s).sum::<f64>() + lambda * self.v;
        let mut y = vec![0.0; msgs.len()];
        *y.last_mut()? = 1.0;
        let judged = |fill: Vec<f64>| {
            let shape = fill.iter().zip(msgs).map(|(&xq, msg)| if xq >= msg.cap { Status::Full } else if xq == 0.0 { Status::Empty } else { Status::Free }).collect::<Shape>();
            Some(self.judge(&shape, fill, Some(t))).filter(|o| o.faults() == 0)
        };
        if let Some(outcome) = self.forward_fill(t).and_then(judged) {
            return Some((outcome, (y, lambda)));
        }
        let outcome = self.backward_fill(0).and_then(judged)?;
        Some((self.sparsest(outcome, |empty| self.backward_fill(empty).and_then(judged)), (y, lambda)))
    }

    /// In sending order, each chunk as large as its buffer, the load left
    /// and every row of its unit so far allow at makespan t; None where
    /// load is left over.
    fn forward_fill(&self, t: f64) -> Option<Vec<f64>> {
        let (mut left, mut arrival) = (self.v, 0.0);
        let mut room = vec![f64::INFINITY; self.m];
        let fill: Vec<f64> = self.messages.iter().enumerate().map(|(q, msg)| {
            let u = q % self.m;
            let xq = msg.cap.min(left / msg.count).min(room[u] / self.a).min((t - arrival - msg.s) / (self.a + msg.c)).max(0.0);
            left -= xq * msg.count;
            arrival += msg.s + msg.c * xq;
            room[u] = (room[u] - self.a * xq).min(t - arrival - self.a * xq);
            xq
        }).collect();
        (left <= PROOF * self.v).then_some(fill)
    }

    /// From the last message back, the last `empty` left empty, each chunk
    /// as large as its buffer, the load left and its row allow, the link
    /// busy until the makespan: a row, a (x_q + its unit's later chunks)
    /// <= the link's time after q, reads only chunks from q on. Where the
    /// sending-order fill leaves load over, this one can carry it: a star
    /// of 126 processors, S = 1.6e-7, n = 55 (its optimum the link's time),
    /// whose LP took the simplex 27,175 iterations and 31 s. None where
    /// load is left over.
    fn backward_fill(&self, empty: usize) -> Option<Vec<f64>> {
        let (mut left, mut after) = (self.v, 0.0);
        let mut later = vec![0.0; self.m];
        let q_len = self.messages.len();
        let mut fill = vec![0.0; q_len];
        for (q, msg) in self.messages.iter().enumerate().rev() {
            if q >= q_len - empty {
                after += msg.s;
                continue;
            }
            let u = q % self.m;
            let xq = msg.cap.min(left / msg.count).min(after / self.a - later[u]).max(0.0);
            left -= xq * msg.count;
            later[u] += xq;
            after += msg.s + msg.c * xq;
            fill[q] = xq;
        }
        (left <= PROOF * self.v).then_some(fill)
    }

    /// Chunks `x` (message order) within [0, cap], brought to carry V:
    /// scaled down where they carry more; where less, each given the same
    /// share of its buffer's room (scaled up where there are no buffers).
    /// Every such point is a schedule (`row_ends`), whatever x was; `None`
    /// where the buffers cannot hold V.
    pub(super) fn carrying(&self, mut x: Vec<f64>) -> Option<Vec<f64>> {
        let msgs = &self.messages;
        x.iter_mut().zip(msgs).for_each(|(xq, msg)| *xq = xq.clamp(0.0, msg.cap));
        let carried: f64 = x.iter().zip(msgs).map(|(xq, msg)| xq * msg.count).sum();
        let room: f64 = x.iter().zip(msgs).map(|(xq, msg)| (msg.cap - xq) * msg.count).sum();
        if carried >= self.v || !room.is_finite() {
            let scale = self.v / carried;
            x.iter_mut().for_each(|xq| *xq *= scale);
        } else {
            let share = (self.v - carried) / room;
            if share > 1.0 {
                return None;
            }
            x.iter_mut().zip(msgs).for_each(|(xq, msg)| *xq += share * (msg.cap - *xq));
        }
        x.iter().zip(msgs).all(|(&xq, msg)| xq.is_finite() && xq <= msg.cap).then_some(x)
    }

    /// E_q + a R_q for every message q: when it has arrived, E_q, and
    /// when its unit, computing the rest without a break, would end.
    pub(super) fn row_ends(&self, x: &[f64]) -> Vec<f64> {
        let mut left = vec![0.0; self.m];
        for (q, &xq) in x.iter().enumerate() {
            left[q % self.m] += xq;
        }
        let mut arrival = 0.0;
        x.iter().zip(&self.messages).enumerate().map(|(q, (&xq, msg))| {
            arrival += msg.s + msg.c * xq;
            let end = arrival + self.a * left[q % self.m];
            left[q % self.m] -= xq;
            end
        }).collect()
    }

    /// The multipliers of the tight rows of `shape`: forwards, a free
    /// chunk's reduced cost c_q Y_q + a Z_q - lambda count_q is 0 (Y_q: the
    /// multipliers from q on, Z_q: its unit's up to q); two free chunks of
    /// a unit, p before q, give a y_q = c_q (y_p + ... + y_(q-1)). Affine in
    /// the first free message's multiplier zeta, with lambda = (c_f + a
    /// zeta) / count_f from that message's reduced cost, zeta set by the
    /// multipliers' sum of 1 (Cmax's column). Affine in lambda instead,
    /// each unit's first multiplier (lambda count - c Y) / a cancelled to
    /// nothing where the link dominates: the multipliers of the first free
    /// stages are tiny (a star of 6 processors, S = 0, n = 20: below 1e-8
    /// of the last ones) and came out of lambda's last digits, and the
    /// bound fell 6e-6 short of the optimum the shape had found. (With
    /// nothing free, zeta is lambda.) Returns them and lambda.
    fn multipliers(&self, shape: &[Status]) -> (Vec<f64>, f64) {
        let (msgs, m, a) = (&self.messages, self.m, self.a);
        let mut y = vec![Affine::default(); msgs.len()];
        let mut before = vec![Affine::default(); msgs.len() + 1];
        let mut prev_free = vec![None; m];
        let first = shape.iter().position(|&st| st == Status::Free).map_or((0.0, 1.0), |f| (msgs[f].c / msgs[f].count, a / msgs[f].count));
        let lambda = Affine(first.0, first.1);
        for q in 0..msgs.len() {
            let msg = &msgs[q];
            if shape[q] == Status::Free {
                y[q] = match prev_free[q % m] {
                    Some(p) => (before[q] - before[p]) * (msg.c / a),
                    // (lambda count - c (1 - before)) / a, its constant
                    // count (c_f / count_f - c / count) exactly 0 where the
                    // units are alike.
                    None => (Affine(msg.count * (first.0 - msg.c / msg.count), msg.count * first.1) + before[q] * msg.c) * (1.0 / a),
                };
                prev_free[q % m] = Some(q);
            }
            before[q + 1] = before[q] + y[q];
        }
        let total = before[msgs.len()];
        let zeta = (1.0 - total.0) / total.1;
        (y.iter().map(|yq| yq.at(zeta)).collect(), lambda.at(zeta))
    }

    /// The Lagrangian bound of the LP at multipliers y >= 0 (sum at most 1)
    /// on the rows and lambda on the load row: lambda V + sum y_q S_q + the
    /// least of sum r_q x_q over the box, where x_q <= V / count_q holds
    /// for every feasible point even without a buffer. A lower bound on the
    /// optimum for any multipliers; equal to it at the optimal ones.
    fn dual_bound(&self, (y, lambda): &(Vec<f64>, f64)) -> f64 {
        let mut y: Vec<f64> = y.iter().map(|&yq| yq.max(0.0)).collect();
        let total: f64 = y.iter().sum();
        if total > 1.0 {
            y.iter_mut().for_each(|yq| *yq /= total);
        }
        let mut from_here: f64 = y.iter().sum();
        let mut unit_so_far = vec![0.0; self.m];
        let (mut bound, mut startups) = (lambda * self.v, 0.0);
        for (q, (msg, &yq)) in self.messages.iter().zip(&y).enumerate() {
            startups += msg.s;
            unit_so_far[q % self.m] += yq;
            bound += yq * startups;
            let reduced = msg.c * from_here + self.a * unit_so_far[q % self.m] - lambda * msg.count;
            if reduced < 0.0 {
                bound += reduced * msg.cap.min(self.v / msg.count);
            }
            from_here -= yq;
        }
        bound
    }
}

#[cfg(test)]
mod tests;
