//! The rows of the tree LPs, generated from the rules of the model rather
//! than copied: the printed LPs have index slips. Per rule, with the
//! printed rows it reproduces:
//! - store and forward, t_ik(l+1) >= t_ikl + S + C p^(i-l-1) alpha_ik: (6),
//!   (20), (23), and (13), printed with t_i(k+1)l for t_ik(l+1);
//! - one message at a time on each link, in sending order (within a stage,
//!   then stage after stage): (9), (19), (22), (27), and (14) and (24),
//!   which print l = 1..i-1 where the originator's link l = 0 needs it too;
//! - a relay holding b buffers takes a new message only once the message b
//!   places earlier has been forwarded: for b = 1 (7), (8), (21); for b = 2
//!   (15), (16), (25), (26), where (17)-(18) print p^(h-1), p^(h-2) for the
//!   relayed hop's p^(h-2), p^(h-3) and make the third message wait for the
//!   second, not the first, to leave (one buffer's worth stricter than 2
//!   buffers need; we follow the prose, "no more than two buffers are used").
//!
//! The independent checker verifies the resulting schedules on the same
//! rules (ports, relays, buffers) without reference to these rows.

use super::super::binomial::Order;
use super::super::stages::{StageLp, StageModel};
use crate::explain::Equations;
use crate::lp::{Build, Model, Sense, Var};
use alloc::string::String;
use alloc::vec::Vec;

/// The LP's name and the equations of 000 each family of its rows writes,
/// by order and buffers: `forward` store and forward, `link` one message at
/// a time on a link, `buffer` a relay's buffers; `run` is the running sum of
/// (10), and the buffers (11) the chunks' upper bounds.
pub(crate) fn variant(order: Order, one_buffer: bool) -> (&'static str, &'static Equations) {
    const fn tree(program: &'static str, rows: &'static [(&'static str, &'static str)]) -> Equations {
        Equations { paper: "000", program, rows }
    }
    const NLF_1: Equations = tree("(6)-(12)", &[("forward", "(6)"), ("buffer", "(7)-(8)"), ("link", "(9)"), ("end", "(10)"), ("run", "(10)"), ("load", "(12)")]);
    const NLF_2: Equations = tree("(10)-(19)", &[("forward", "(13)"), ("link", "(14), (19)"), ("buffer", "(15)-(18)"), ("end", "(10)"), ("run", "(10)"), ("load", "(12)")]);
    const LLF_1: Equations = tree("(10)-(12), (20)-(22)", &[("forward", "(20)"), ("buffer", "(21)"), ("link", "(22)"), ("end", "(10)"), ("run", "(10)"), ("load", "(12)")]);
    const LLF_2: Equations = tree("(10)-(12), (23)-(27)", &[("forward", "(23)"), ("link", "(24), (27)"), ("buffer", "(25)-(26)"), ("end", "(10)"), ("run", "(10)"), ("load", "(12)")]);
    match (order, one_buffer) {
        (Order::Nlf, true) => ("TreeNLF-1", &NLF_1),
        (Order::Nlf, false) => ("TreeNLF-2", &NLF_2),
        (Order::Llf, true) => ("TreeLLF-1", &LLF_1),
        (Order::Llf, false) => ("TreeLLF-2", &LLF_2),
    }
}

pub(super) struct Tree {
    pub(super) name: &'static str,
    pub(super) p: f64,
    pub(super) h: usize,
    pub(super) s: f64,
    pub(super) c: f64,
    pub(super) a: f64,
    pub(super) v: f64,
    pub(super) d: Option<f64>,
    pub(super) order: Order,
    pub(super) buffers: usize,
    pub(super) scale: (f64, f64),
    /// p^0..=p^h: a full LP at 000 Fig. 13(b)'s n = 1,582 looks them up
    /// 300,000 times.
    pub(super) powers: Vec<f64>,
}

/// A chunk for layer `layer` (1-based) in `stage`, by its kept position `j`.
#[derive(Clone, Copy)]
pub(super) struct Chunk {
    pub(super) stage: usize,
    pub(super) j: usize,
    pub(super) layer: usize,
}

impl Tree {
    /// What a message from layer `l` carries of a chunk alpha for layer i,
    /// per alpha: p^(i-l-1).
    pub(super) fn share(&self, i: usize, l: usize) -> f64 {
        self.powers[i - l - 1]
    }

    /// The chunks in the order they leave the originator.
    pub(super) fn sequence(&self, kept: &[usize], n: usize) -> Vec<Chunk> {
        let mut js: Vec<usize> = (0..kept.len()).collect();
        if self.order == Order::Llf {
            js.reverse();
        }
        (0..n).flat_map(|stage| js.iter().map(move |&j| Chunk { stage, j, layer: kept[j] + 1 })).collect()
    }
}

impl StageModel for Tree {
    /// t[k][j][l]: when the hop from layer l of chunk (k, j) starts.
    type Handles = Vec<Vec<Vec<Var>>>;

    fn name(&self) -> &'static str {
        self.name
    }

    fn unit_count(&self) -> usize {
        self.h
    }

    fn scale(&self) -> (f64, f64) {
        self.scale
    }

    fn free_messages(&self) -> bool {
        self.s == 0.0
    }

    fn load(&self) -> f64 {
        self.v
    }

    /// Layer i takes p^i chunks of at most D / p^(i-1): pD a stage.
    fn stage_capacity(&self, kept: &[usize]) -> f64 {
        self.d.map_or(f64::INFINITY, |d| kept.len() as f64 * self.p * d)
    }

    /// Each of the originator's p ports sends every chunk of its subtree,
    /// layer i's as p^(i-1) alpha after a start-up: n start-ups per kept
    /// layer and V / p in all, and the last of them (to layer i) still
    /// hops i - 1 times. With one buffer a layer-1 relay takes a message
    /// only once it has forwarded the one before, so it receives all V / p
    /// of its subtree and forwards, p messages at once, all but what it
    /// computes itself (at most D a stage), one message after another. And
    /// the kept layers' processors compute V at best all at once.
    fn bounds(&self, kept: &[usize], n: usize) -> (f64, f64) {
        let computing: f64 = kept.iter().map(|&u| self.powers[u + 1]).sum();
        let last = self.sequence(kept, 1).last().map_or(1, |ch| ch.layer);
        let port = (n * kept.len() + last - 1) as f64 * self.s + self.c * self.v / self.p;
        let relayed = kept.iter().filter(|&&u| u >= 1).count();
        let (relay, forwarded) = if self.buffers == 1 && relayed > 0 {
            let own = if kept.contains(&0) { n as f64 * self.d.unwrap_or(f64::INFINITY) } else { 0.0 };
            let relay = (n * (kept.len() + relayed)) as f64 * self.s + self.c * self.v / self.p;
            (relay, relay + self.c * (self.v / self.p - own).max(0.0) / self.p)
        } else {
            (0.0, 0.0)
        };
        // The forwarded load shrinks as n grows: not in the rising bound.
        (port.max(relay), forwarded.max(self.s + self.a * self.v / computing))
    }

    fn model(&self, kept: &[usize], n: usize) -> (Model, Vec<Vec<Var>>, Var, Self::Handles) {
        let TreeLp { lp, alpha, cmax, t, .. } = self.build(kept, n, Form::Printed);
        (lp, alpha, cmax, t)
    }

    fn switchable(&self, kept: &[usize], n: usize) -> Option<(StageLp<Self::Handles>, Vec<Var>)> {
        let TreeLp { lp, alpha, cmax, t, on, .. } = self.build(kept, n, Form::Switchable);
        Some(((lp, alpha, cmax, t), on))
    }
}

/// How `Tree::build` writes the LP.
#[derive(Clone, Copy)]
pub(super) enum Form {
    /// As 000 prints it.
    Printed,
    /// Two middle stages stand for many (`Period`).
    Periodic(Period),
    /// As printed, but a message's start-up S is S on_k, on_k a variable
    /// of its stage k fixed at 1: with on_k and stage k's chunks fixed at
    /// 0, its messages take no time. Switched off from the last stage
    /// back, what is left is the LP over the stages before: the messages
    /// switched off come after all the others on every link and relay, so
    /// a row from one of them binds only messages switched off, and all of
    /// them can start at the instant the last message left ends on any
    /// link, which is by Cmax (that message still reaches its layer).
    Switchable,
}

/// Stages `at` and `at + 1` of a compressed LP stand for `skip + 2` middle
/// stages in steady state: every middle stage is the one before shifted by
/// the period P, with the same chunks: every buffer full (`full`, at n_min)
/// or chunks the LP chooses.
#[derive(Clone, Copy)]
pub(super) struct Period {
    pub(super) at: usize,
    pub(super) skip: f64,
    pub(super) full: bool,
}

impl Tree {
    /// The cap of a chunk for layer i in LP units: (11), p^(i-1) alpha <= D.
    pub(super) fn cap(&self, i: usize) -> f64 {
        self.d.map_or(f64::INFINITY, |d| d / self.powers[i - 1] / self.scale.0)
    }

    /// The LP over `n` stage positions; with a period, positions `at` and
    /// `at + 1` are middle stages and `skip` more like them are left out
    /// between `at + 1` and `at + 2`. Returns the period variable too.
    /// Into a `Model`, named, or a `Compact`, not: the proof's full LP,
    /// 370,000 names at 000 Fig. 13(b)'s n = 1,582, is never shown.
    pub(super) fn build<M: Build + Default>(&self, kept: &[usize], n: usize, form: Form) -> TreeLp<M> {
        let mut lp = M::default();
        let TreeLp { alpha, cmax, t, period, on, roles, .. } = self.write(&mut lp, kept, n, form);
        TreeLp { lp, alpha, cmax, t, period, on, roles }
    }

    /// `build`'s rows into `lp`, one body for every kind of model (a copy
    /// per kind cost the wasm 3 KB).
    fn write(&self, lp: &mut dyn Build, kept: &[usize], n: usize, form: Form) -> TreeLp<()> {
        let named = lp.named();
        let name = |args: core::fmt::Arguments| if named { alloc::fmt::format(args) } else { String::new() };
        let period = match form {
            Form::Periodic(p) => Some(p),
            _ => None,
        };
        let (x0, tau) = self.scale;
        let (s, c, a) = (self.s / tau, self.c * x0 / tau, self.a * x0 / tau);
        // A chunk for layer i has i - 1 store-and-forward rows, an end and a
        // run row, each of its i hops a link row and at most one buffer
        // row: at most 3 rows a hop (261,012 at 000 Fig. 13(b)'s n = 1,582,
        // copied again and again as they grew), and the load row; the
        // variables with a switch per stage and the period at most.
        let rows = 3 * n * super::stage_hops(kept) + 1;
        lp.reserve(super::lp_variables(kept, n) + n + 1, rows, 4);
        let mut roles = Vec::with_capacity(rows);
        let cmax = lp.add_var("Cmax".into(), 0.0, f64::INFINITY, 1.0);
        let mut alpha = Vec::with_capacity(n);
        let mut t = Vec::with_capacity(n);
        let mut r = Vec::with_capacity(n);
        for k in 0..n {
            let mut alpha_k = Vec::new();
            let mut t_k = Vec::new();
            let mut r_k = Vec::new();
            let full = period.is_some_and(|p| p.full && (k == p.at || k == p.at + 1));
            for &u in kept {
                let i = u + 1;
                let cap = self.cap(i);
                alpha_k.push(lp.add_var(name(format_args!("alpha_{i}_{}", k + 1)), if full { cap } else { 0.0 }, cap, 0.0));
                t_k.push((0..i).map(|l| lp.add_var(name(format_args!("t_{i}_{}_{l}", k + 1)), 0.0, f64::INFINITY, 0.0)).collect::<Vec<_>>());
                r_k.push(lp.add_var(name(format_args!("R_{i}_{}", k + 1)), 0.0, f64::INFINITY, 0.0));
            }
            alpha.push(alpha_k);
            t.push(t_k);
            r.push(r_k);
        }
        let period_var = period.map(|_| lp.add_var("P".into(), 0.0, f64::INFINITY, 0.0));
        let on: Vec<Var> = match form {
            Form::Switchable => (0..n).map(|k| lp.add_var(name(format_args!("on_{}", k + 1)), 1.0, 1.0, 0.0)).collect(),
            _ => Vec::new(),
        };
        // A row whose right-hand side is a start-up of a message of stage
        // k, `rhs` = S or -S: as printed, or moved to stage k's switch.
        let start_up = |terms: &mut Terms, k: usize, rhs: f64| match on.get(k) {
            Some(&switch) => {
                terms.push((switch, -rhs));
                0.0
            }
            None => rhs,
        };
        // Past the compressed middle, a start depends on the left-out
        // stages: a middle position shifted by skip periods (a relay's
        // second buffer can reach back over a whole stage).
        let shifted = |from: &Chunk, to: &Chunk| match (period, period_var) {
            (Some(p), Some(v)) if (from.stage == p.at || from.stage == p.at + 1) && to.stage > p.at + 1 => Some((v, -p.skip)),
            _ => None,
        };
        // `b` starts at least one hop of `x` (of stage k) after `x` starts.
        let after = |lp: &mut dyn Build, roles: &mut Vec<Role>, name: String, (b, x): (Var, Var), (k, alpha): (usize, Var), share: f64, shift: Option<(Var, f64)>| {
            let mut row = Terms::of(&[(b, 1.0), (x, -1.0), (alpha, -c * share)]);
            if let Some(shift) = shift {
                row.push(shift);
            }
            let rhs = start_up(&mut row, k, s);
            lp.add_row(name, row.as_slice(), Sense::Ge, rhs);
            roles.push(Role::After { to: b, from: x, alpha });
        };
        let order = self.sequence(kept, n);
        for ch in &order {
            let (k, j, i) = (ch.stage, ch.j, ch.layer);
            let x = alpha[k][j];
            for l in 0..i - 1 {
                after(lp, &mut roles, name(format_args!("forward_{i}_{}_{l}", k + 1)), (t[k][j][l + 1], t[k][j][l]), (k, x), self.share(i, l), None);
            }
            // (10): computing every chunk from this one on ends by Cmax.
            let mut end = Terms::of(&[(t[k][j][i - 1], 1.0), (x, c), (r[k][j], a), (cmax, -1.0)]);
            let rhs = start_up(&mut end, k, -s);
            lp.add_row(name(format_args!("end_{i}_{}", k + 1)), end.as_slice(), Sense::Le, rhs);
            roles.push(Role::End { sum: r[k][j], stage: k, j });
            let mut sum = Terms::of(&[(r[k][j], 1.0), (x, -1.0)]);
            if k + 1 < n {
                sum.push((r[k + 1][j], -1.0));
            }
            match (period, period_var) {
                (Some(p), Some(pv)) if k == p.at + 1 => {
                    // The left-out stages' chunks are still to compute, and
                    // the last of them ends skip periods later.
                    if p.full {
                        lp.add_row(name(format_args!("run_{i}_{}", k + 1)), sum.as_slice(), Sense::Eq, p.skip * self.cap(i));
                    } else {
                        sum.push((alpha[p.at][j], -p.skip));
                        lp.add_row(name(format_args!("run_{i}_{}", k + 1)), sum.as_slice(), Sense::Eq, 0.0);
                    }
                    let mut end = Terms::of(&[(t[k][j][i - 1], 1.0), (pv, p.skip), (x, c + a), (cmax, -1.0)]);
                    if k + 1 < n {
                        end.push((r[k + 1][j], a));
                    }
                    lp.add_row(name(format_args!("end_last_middle_{i}")), end.as_slice(), Sense::Le, -s);
                }
                (Some(p), Some(pv)) if k == p.at => {
                    lp.add_row(name(format_args!("run_{i}_{}", k + 1)), sum.as_slice(), Sense::Eq, 0.0);
                    if !p.full {
                        lp.add_row(name(format_args!("middle_{i}")), &[(alpha[k + 1][j], 1.0), (x, -1.0)], Sense::Eq, 0.0);
                    }
                    for (l, (&next, &this)) in t[k + 1][j].iter().zip(&t[k][j]).enumerate() {
                        lp.add_row(name(format_args!("period_{i}_{l}")), &[(next, 1.0), (this, -1.0), (pv, -1.0)], Sense::Eq, 0.0);
                    }
                }
                _ => {
                    lp.add_row(name(format_args!("run_{i}_{}", k + 1)), sum.as_slice(), Sense::Eq, 0.0);
                    roles.push(Role::Run { own: r[k][j], next: r.get(k + 1).map(|next| next[j]) });
                }
            }
            // The rows that tie the compressed middle stages.
            roles.resize(lp.rows(), Role::Period);
        }
        for l in 0..self.h {
            // The link from layer l carries the chunks for layers below l.
            let on_link: Vec<&Chunk> = order.iter().filter(|ch| ch.layer > l).collect();
            for w in on_link.windows(2) {
                let (x, y) = (w[0], w[1]);
                let name = name(format_args!("link_{l}_{}_{}_{}", x.layer, x.stage + 1, y.layer));
                after(lp, &mut roles, name, (t[y.stage][y.j][l], t[x.stage][x.j][l]), (x.stage, alpha[x.stage][x.j]), self.share(x.layer, l), shifted(x, y));
            }
            // A relay in layer l >= 1 takes the message `buffers` places
            // after a relayed one once that one has left.
            if l >= 1 {
                let entering: Vec<&Chunk> = order.iter().filter(|ch| ch.layer >= l).collect();
                for (q, x) in entering.iter().enumerate() {
                    if let (true, Some(y)) = (x.layer > l, entering.get(q + self.buffers)) {
                        let name = name(format_args!("buffer_{l}_{}_{}_{}", x.layer, x.stage + 1, y.layer));
                        after(lp, &mut roles, name, (t[y.stage][y.j][l - 1], t[x.stage][x.j][l]), (x.stage, alpha[x.stage][x.j]), self.share(x.layer, l), shifted(x, y));
                    }
                }
            }
        }
        // (12), with what the left-out stages carry: each as much as
        // position `at`.
        let count = |j: usize| self.powers[kept[j] + 1];
        let copies = |k: usize| match period {
            Some(p) if !p.full && k == p.at => 1.0 + p.skip,
            _ => 1.0,
        };
        let all: Vec<(Var, f64)> = alpha.iter().enumerate().flat_map(|(k, st)| st.iter().enumerate().map(move |(j, &x)| (x, count(j) * copies(k)))).collect();
        let left_out = period.filter(|p| p.full).map_or(0.0, |p| p.skip * (0..kept.len()).map(|j| count(j) * self.cap(kept[j] + 1)).sum::<f64>());
        lp.add_row("load".into(), &all, Sense::Eq, self.v / x0 - left_out);
        roles.push(Role::Load);
        TreeLp { lp: (), alpha, cmax, t, period: period_var, on, roles }
    }
}

/// A row's few terms (at most 5), on the stack: `build` writes 261,012
/// rows at 000 Fig. 13(b)'s n = 1,582.
struct Terms {
    items: [(Var, f64); 6],
    len: usize,
}

impl Terms {
    fn of(terms: &[(Var, f64)]) -> Terms {
        let mut items = [(Var(0), 0.0); 6];
        items[..terms.len()].copy_from_slice(terms);
        Terms { items, len: terms.len() }
    }

    fn push(&mut self, term: (Var, f64)) {
        self.items[self.len] = term;
        self.len += 1;
    }

    fn as_slice(&self) -> &[(Var, f64)] {
        &self.items[..self.len]
    }
}

/// A tree LP and its variables: chunk alpha, the hops' start times t and the
/// period P of a compressed LP, by stage and kept layer.
pub(super) struct TreeLp<M = Model> {
    pub(super) lp: M,
    pub(super) alpha: Vec<Vec<Var>>,
    pub(super) cmax: Var,
    pub(super) t: Vec<Vec<Vec<Var>>>,
    pub(super) period: Option<Var>,
    /// Per stage, its switch (`Form::Switchable`).
    pub(super) on: Vec<Var>,
    /// What each row states, by row.
    pub(super) roles: Vec<Role>,
}

/// What a row of the tree LP states, as `build` writes it: the proof reads
/// the LP's shape from here rather than from the rows' terms (a fifth of
/// building its bound at 000 Fig. 13(b)'s n = 1,582).
#[derive(Clone, Copy)]
pub(super) enum Role {
    /// Hop `to` starts once the message of hop `from`, a share of chunk
    /// `alpha`, has arrived: store and forward, a link, a relay's buffers.
    After { to: Var, from: Var, alpha: Var },
    /// The chunk of (`stage`, kept layer `j`) and those after it computed
    /// by Cmax; `sum` their running sum R.
    End { sum: Var, stage: usize, j: usize },
    /// The running sum `own` = its chunk + `next`, the next stage's.
    Run { own: Var, next: Option<Var> },
    /// The load row (12).
    Load,
    /// A row of a compressed LP's middle stages.
    Period,
}
