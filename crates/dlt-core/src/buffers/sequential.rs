//! The LP shared by the star (LoadDirect) and the binomial trees
//! (BinomialTreeNLF/LLF) of 000: in every stage the originator's messages
//! go out one after another, to each unit (a processor of the star, a layer
//! of the binomial tree) in a fixed order; a message to unit u with chunk x
//! lasts s_u + c_u x, and unit u computes every chunk it has from then on.
//!
//! The paper's rows (3)/(30) sum every later chunk, O(m n^2) nonzeros; here
//! a running sum R_uk = alpha_uk + R_u(k+1) keeps the LP sparse (O(m n)).

use super::stages::{LpSize, Solved, StageLp, StageModel};
use crate::explain::Equations;
use crate::lp::{Model, Sense, Var, Warm};
use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

mod interior;

/// The rows of `Sequential::relaxed`: those whose slack at the iterate is
/// at most this share of their terms' size (as the trees', `tree::interior`).
const NEAR: f64 = 1e-5;

/// The equations of 000 the rows of `printed` write, per program; `run`
/// is the running sum of (3)/(30), and the buffers (4), (11), (31)-(32)
/// are the chunks' upper bounds.
pub(crate) const LOAD_DIRECT: Equations =
    Equations { paper: "000", program: "(1)-(5)", rows: &[("next", "(1)-(2)"), ("end", "(3)"), ("run", "(3)"), ("load", "(5)")] };
pub(crate) const BINOMIAL_NLF: Equations =
    Equations { paper: "000", program: "(28)-(33)", rows: &[("next", "(28)-(29)"), ("end", "(30)"), ("run", "(30)"), ("load", "(33)")] };
pub(crate) const BINOMIAL_LLF: Equations =
    Equations { paper: "000", program: "(30)-(35)", rows: &[("next", "(34)-(35)"), ("end", "(30)"), ("run", "(30)"), ("load", "(33)")] };

pub(crate) struct Unit {
    /// Start-up and rate of a message to the unit.
    pub s: f64,
    pub c: f64,
    /// Processors in the unit: each receives alpha.
    pub count: f64,
    /// Largest chunk a processor of the unit can be sent (the buffer).
    pub cap: f64,
}

pub(crate) struct Sequential {
    pub name: &'static str,
    pub units: Vec<Unit>,
    /// Computing time per load unit.
    pub a: f64,
    pub v: f64,
    /// Units are served last to first in each stage (LLF).
    pub backward: bool,
    /// LP units of load and time: the engine's absolute tolerances then act
    /// as relative ones.
    pub scale: (f64, f64),
}

impl StageModel for Sequential {
    type Handles = ();

    fn name(&self) -> &'static str {
        self.name
    }

    fn unit_count(&self) -> usize {
        self.units.len()
    }

    fn scale(&self) -> (f64, f64) {
        self.scale
    }

    /// The compact LP (see `compact`), which the calculator solves.
    fn model(&self, kept: &[usize], n: usize) -> StageLp<()> {
        let (lp, alpha, cmax) = self.compact(kept, n);
        (lp, alpha, cmax, ())
    }

    fn printed_model(&self, kept: &[usize], n: usize) -> Option<StageLp<()>> {
        let (lp, alpha, cmax) = self.printed(kept, n);
        Some((lp, alpha, cmax, ()))
    }

    fn by_structure(&self, kept: &[usize], n: usize) -> Option<(Vec<Vec<f64>>, f64, ())> {
        super::chains::solve(self, kept, n).map(|p| (p.chunks, p.makespan, ()))
    }

    fn by_interior(&self, kept: &[usize], n: usize, size: LpSize) -> Result<Solved<()>, LpSize> {
        self.interior(kept, n, size).map(|(solved, _)| solved)
    }

    fn free_messages(&self) -> bool {
        self.units.iter().all(|u| u.s == 0.0)
    }

    fn load(&self) -> f64 {
        self.v
    }

    fn stage_capacity(&self, kept: &[usize]) -> f64 {
        Sequential::stage_capacity(self, kept)
    }

    /// The link sends n start-ups per unit and all of V, each unit's share
    /// at its rate at best (the cheapest per processor first); and no
    /// processor computes before the earliest message ends, nor more than
    /// its n full buffers, so the work spread evenly over the time left
    /// (water-filling up to the buffers) is the least makespan.
    fn bounds(&self, kept: &[usize], n: usize) -> (f64, f64) {
        let n = n as f64;
        let mut units: Vec<&Unit> = kept.iter().map(|&u| &self.units[u]).collect();
        crate::sort::sort_by(&mut units, |x, y| (x.c / x.count).total_cmp(&(y.c / y.count)));
        let (mut left, mut link) = (self.v, n * units.iter().map(|u| u.s).sum::<f64>());
        for u in &units {
            let sent = left.min(n * u.cap * u.count);
            link += u.c * sent / u.count;
            left -= sent;
        }
        crate::sort::sort_by(&mut units, |x, y| x.cap.total_cmp(&y.cap));
        let start = units.iter().map(|u| u.s).fold(f64::INFINITY, f64::min);
        let (mut left, mut computing) = (self.v, units.iter().map(|u| u.count).sum::<f64>());
        let mut per_processor = 0.0;
        for u in &units {
            // Every unit not yet full takes `share`; the smallest buffer fills first.
            let share = left / computing;
            if share <= n * u.cap {
                per_processor = share;
                break;
            }
            left -= n * u.cap * u.count;
            computing -= u.count;
            per_processor = n * u.cap;
        }
        (link, start + self.a * per_processor)
    }
}

impl Sequential {
    /// The LP as the paper prints it (with the running sums), over units
    /// `kept` and `n` stages, with alpha[k][j] and Cmax: what `dlt export`
    /// writes, and the reference the compact LP is tested against.
    pub fn printed(&self, kept: &[usize], n: usize) -> (Model, Vec<Vec<Var>>, Var) {
        let (x0, tau) = self.scale;
        let mut lp = Model::default();
        let cmax = lp.var("Cmax", 0.0, f64::INFINITY, 1.0);
        let stages: Vec<usize> = (0..n).collect();
        let alpha = grid(&mut lp, kept, &stages, "alpha", |_, u| (0.0, self.units[u].cap / x0));
        let t = grid(&mut lp, kept, &stages, "t", |_, _| (0.0, f64::INFINITY));
        let r = grid(&mut lp, kept, &stages, "R", |_, _| (0.0, f64::INFINITY));
        let order: Vec<(usize, usize)> = self.order_of(kept.len(), n).collect();
        for (pos, &(k, j)) in order.iter().enumerate() {
            let u = &self.units[kept[j]];
            let (s, c) = (u.s / tau, u.c * x0 / tau);
            let label = format!("{}_{}", kept[j] + 1, k + 1);
            // (1)-(2), (28)-(29), (34)-(35): the next message waits for this one.
            if let Some(&(k2, j2)) = order.get(pos + 1) {
                lp.row(format!("next_{label}"), vec![(t[k2][j2], 1.0), (t[k][j], -1.0), (alpha[k][j], -c)], Sense::Ge, s);
            }
            // (3), (30): computing all chunks from this one on ends by Cmax.
            lp.row(format!("end_{label}"), vec![(t[k][j], 1.0), (alpha[k][j], c), (r[k][j], self.a * x0 / tau), (cmax, -1.0)], Sense::Le, -s);
            running_sum(&mut lp, &r, &alpha, (k, j), &label, 0.0);
        }
        self.load_row(&mut lp, kept, &alpha, 0.0);
        (lp, alpha, cmax)
    }


    /// The printed LP over every unit and n stages, with its units line:
    /// what `dlt export` writes.
    pub fn export(&self, n: usize) -> (Model, crate::lp::Units) {
        let all: Vec<usize> = (0..self.units.len()).collect();
        let (x0, tau) = self.scale;
        (self.printed(&all, n).0, crate::lp::units(x0, tau))
    }

    /// The same optimum with fewer, shorter rows. No message waits for the
    /// link in some optimum (a start time t appears only in rows that a
    /// smaller t relaxes), so message q arrives at E_q = E_(q-1) + s + c
    /// alpha_q, and U_q = Cmax - E_q, the time left after it, is a chain
    /// from U_0 = Cmax: rows (1)-(3) become a R_uk <= U_q. Cmax then sits in
    /// one row instead of one per message, which keeps microlp's LU factors
    /// sparse (as in outofcore::memory); the load row keeps its chunks so
    /// that presolve still sees when the buffers force them all to D.
    pub fn compact(&self, kept: &[usize], n: usize) -> (Model, Vec<Vec<Var>>, Var) {
        self.compact_slots(kept, &vec![Slot::FREE; n])
    }

    /// The compact LP over `slots`: stages whose chunks are free or full
    /// to the buffer, some followed by full stages the LP leaves out (see
    /// `Slot`). alpha[p][j] is the chunk of slot p.
    pub fn compact_slots(&self, kept: &[usize], slots: &[Slot]) -> (Model, Vec<Vec<Var>>, Var) {
        let (x0, tau) = self.scale;
        let mut lp = Model::default();
        let cmax = lp.var("Cmax", 0.0, f64::INFINITY, 1.0);
        let mut first_stage = Vec::with_capacity(slots.len());
        slots.iter().fold(0, |k, slot| {
            first_stage.push(k);
            k + 1 + slot.repeats
        });
        let alpha = grid(&mut lp, kept, &first_stage, "alpha", |p, u| {
            let cap = self.units[u].cap / x0;
            (if slots[p].full { cap } else { 0.0 }, cap)
        });
        let r = grid(&mut lp, kept, &first_stage, "R", |_, _| (0.0, f64::INFINITY));
        // The time a stage of full chunks keeps the link busy.
        let full_stage: f64 = kept.iter().map(|&u| self.units[u].s + self.units[u].c * self.units[u].cap).sum::<f64>() / tau;
        let mut left = cmax;
        for (p, j) in self.order_of(kept.len(), slots.len()) {
            let u = &self.units[kept[j]];
            let (s, c) = (u.s / tau, u.c * x0 / tau);
            let label = format!("{}_{}", kept[j] + 1, first_stage[p] + 1);
            let first_of_slot = j == if self.backward { kept.len() - 1 } else { 0 };
            let skipped = if first_of_slot && p > 0 { slots[p - 1].times(full_stage) } else { 0.0 };
            let next = lp.var(format!("U_{label}"), 0.0, f64::INFINITY, 0.0);
            lp.row(format!("left_{label}"), vec![(next, 1.0), (left, -1.0), (alpha[p][j], c)], Sense::Eq, -s - skipped);
            lp.row(format!("end_{label}"), vec![(r[p][j], self.a * x0 / tau), (next, -1.0)], Sense::Le, 0.0);
            running_sum(&mut lp, &r, &alpha, (p, j), &label, slots[p].times(u.cap / x0));
            left = next;
        }
        let capacity = self.stage_capacity(kept);
        let omitted: f64 = slots.iter().map(|slot| slot.times(capacity)).sum();
        self.load_row(&mut lp, kept, &alpha, omitted);
        (lp, alpha, cmax)
    }

    /// (5), (33): all of V, counting every processor of a unit, less the
    /// load of the stages the LP leaves out.
    fn load_row(&self, lp: &mut Model, kept: &[usize], alpha: &[Vec<Var>], omitted: f64) {
        let all = alpha.iter().flat_map(|st| st.iter().enumerate().map(|(j, &x)| (x, self.units[kept[j]].count))).collect();
        lp.row("load", all, Sense::Eq, (self.v - omitted) / self.scale.0);
    }

    /// The compact LP by the interior point method (`interior`), with the
    /// dual bound that proves it, within the engine's size limit (which the
    /// engine then reports); else the work spent. With start-ups, where
    /// the fewest stages that carry V are at most half of n, the method
    /// runs first on the face of the LP where only the first k stages have
    /// load, k doubling from those up to n/2 (`interior::solve`), then on
    /// the whole LP. Without, an empty stage costs nothing and a later one
    /// splits a chunk for free: the optimum the method finds loads them
    /// all, and the faces failed (a binomial tree, n = 1,043, n_min = 43:
    /// four faces, 130 iterations, before the whole LP's 86).
    pub(super) fn interior(&self, kept: &[usize], n: usize, size: LpSize) -> Result<(Solved<()>, f64), LpSize> {
        let (lp, alpha, cmax) = self.compact(kept, n);
        if lp.names.len() > crate::lp::MAX_VARIABLES {
            return Err(size);
        }
        let fewest = (1..=n).find(|&k| super::stages::fits(self, kept, k)).unwrap_or(n);
        let start = if super::stages::StageModel::free_messages(self) { n } else { fewest };
        let firsts = core::iter::successors(Some(start), |k| Some(2 * k)).take_while(|&k| 2 * k <= n);
        let mut work = size;
        for free in firsts.chain([n]) {
            let face = (free < n).then(|| self.first_stages(kept, free));
            let (face_lp, face_alpha) = face.as_ref().map_or((&lp, &alpha), |(lp, alpha)| (lp, alpha));
            let run = interior::Run { lp: &lp, alpha: &alpha, face: face_lp, face_alpha, free };
            let (answer, iterations) = interior::solve(self, kept, &run);
            work = work.iterated(face_lp, iterations);
            match answer {
                Ok(interior::Proven { chunks, makespan, bound }) => return Ok((Solved { kept: kept.to_vec(), chunks, makespan, lp: work, solution: None, handles: () }, bound)),
                Err(near) if free == n && near.gap <= crate::lp::barrier::SHARPEN => return self.relaxed(kept, (lp, &alpha, cmax), &near.x, work),
                Err(_) => {}
            }
        }
        Err(work)
    }

    /// The LP by the simplex on the rows nearly tight at `x`, the interior
    /// point method's last iterate where it ended near its bound, taking
    /// the others in as its answers break them (`lp::Warm::relaxed`): an
    /// answer that breaks none is the LP's optimum. A star of 24
    /// processors, S = 0, n = 125, whose bounds stood 2.5e-9 apart: 7,467
    /// of its 9,001 rows, 8,786 after two rounds, 4 s where the simplex on
    /// the whole LP took 17 s. Else the work spent.
    fn relaxed(&self, kept: &[usize], (lp, alpha, cmax): (Model, &[Vec<Var>], Var), x: &[f64], work: LpSize) -> Result<(Solved<()>, f64), LpSize> {
        let Ok((mut warm, sol)) = Warm::relaxed(lp, Some((x, NEAR)), self.name) else { return Err(work) };
        let Ok(sol) = warm.settled(sol, self.name) else { return Err(work) };
        let chunks = super::stages::chunks_of(alpha, &sol, &warm.model().bounds, self.scale.0);
        let makespan = sol.get(cmax) * self.scale.1;
        Ok((Solved { kept: kept.to_vec(), chunks, makespan, lp: work.then(warm.model(), &sol), solution: Some(sol), handles: () }, makespan))
    }

    /// The compact LP of 2 k stages whose last k are empty (their chunks
    /// fixed at 0): the first k stages and what the whole LP's later ones
    /// look like where they are empty. Over k stages alone, the stages the
    /// optimum leaves empty were the LP's last, and the method priced them
    /// as the end of the link: a star of 23 processors, n = 130, stalled
    /// 1.8e-2 from that LP's own bound at k = 18, where with 18 empty
    /// stages after them the whole LP's bound met its optimum in 32
    /// iterations (with one empty stage after them, neither k = 18 nor
    /// k = 36 did).
    fn first_stages(&self, kept: &[usize], k: usize) -> (Model, Vec<Vec<Var>>) {
        let (mut lp, alpha, _) = self.compact(kept, 2 * k);
        alpha[k..].iter().flatten().for_each(|x| lp.bounds[x.0] = (0.0, 0.0));
        (lp, alpha)
    }

    /// The load one stage of full buffers carries to the units `kept`.
    pub fn stage_capacity(&self, kept: &[usize]) -> f64 {
        kept.iter().map(|&u| self.units[u].count * self.units[u].cap).sum()
    }

    /// The messages in the order they leave the originator, over `units`
    /// kept units and `n` stages: (stage, kept position) pairs, generated
    /// (a million messages at 000 Fig. 7's V = 1E6, D = 1).
    pub(super) fn order_of(&self, units: usize, n: usize) -> impl Iterator<Item = (usize, usize)> {
        let backward = self.backward;
        (0..n).flat_map(move |k| (0..units).map(move |j| (k, if backward { units - 1 - j } else { j })))
    }

    /// The messages of a solution in the order they leave the originator.
    pub fn order<H>(&self, solved: &Solved<H>) -> impl Iterator<Item = (usize, usize)> {
        self.order_of(solved.kept.len(), solved.chunks.len())
    }
}

/// A stage of the compact LP: its chunks free within [0, cap] or `full`
/// (fixed at cap), followed by `repeats` more full stages that the LP
/// leaves out. Between two full stages, a message's arrival and the work
/// its processor still has are linear in the stage, so the rows of the two
/// stand for every stage between them: only the time and the load of the
/// omitted stages remain, as constants.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Slot {
    pub full: bool,
    pub repeats: usize,
}

impl Slot {
    pub const FREE: Slot = Slot { full: false, repeats: 0 };

    /// `x` (a full stage's time or load) over the omitted stages; 0 when
    /// none are, even for unbounded buffers.
    fn times(&self, x: f64) -> f64 {
        if self.repeats == 0 { 0.0 } else { self.repeats as f64 * x }
    }
}

/// One variable `what_u_k` per slot p (stage k = stages[p]) and kept unit
/// u, within `bounds(p, u)`.
fn grid(lp: &mut Model, kept: &[usize], stages: &[usize], what: &str, bounds: impl Fn(usize, usize) -> (f64, f64)) -> Vec<Vec<Var>> {
    stages.iter().enumerate().map(|(p, k)| kept.iter().map(|&u| {
        let (lo, hi) = bounds(p, u);
        lp.var(format!("{what}_{}_{}", u + 1, k + 1), lo, hi, 0.0)
    }).collect()).collect()
}

/// R_uk = alpha_uk + R_u(k+1) + `omitted`: what unit u still computes from
/// stage k on, the running sum that keeps the paper's rows (3)/(30) sparse.
fn running_sum(lp: &mut Model, r: &[Vec<Var>], alpha: &[Vec<Var>], (k, j): (usize, usize), label: &str, omitted: f64) {
    let mut sum = vec![(r[k][j], 1.0), (alpha[k][j], -1.0)];
    if k + 1 < r.len() {
        sum.push((r[k + 1][j], -1.0));
    }
    lp.row(format!("run_{label}"), sum, Sense::Eq, omitted);
}

#[cfg(test)]
impl Sequential {
    /// A star (`layered` false) or binomial-like LP of `units` units.
    pub(super) fn example(units: usize, s: f64, c: f64, a: f64, v: f64, d: Option<f64>, layered: bool) -> Sequential {
        let unit = |i: usize| {
            let (count, grow) = if layered { ((i + 1) as f64 * 2.0, (i + 1) as f64) } else { (1.0, 1.0) };
            Unit { s: s * grow, c: c * grow, count, cap: d.map_or(f64::INFINITY, |d| d / grow) }
        };
        let scale = super::stages::lp_scale(v, d, s + v * a / units as f64);
        Sequential { name: "example", units: (0..units).map(unit).collect(), a, v, backward: layered, scale }
    }

    /// The makespan of the compact LP over every unit and n stages, solved
    /// by the engine: the reference the structure and the reduced LPs are
    /// tested against.
    pub(super) fn lp_makespan(&self, n: usize) -> f64 {
        let all: Vec<usize> = (0..self.units.len()).collect();
        let (model, _, cmax) = self.compact(&all, n);
        crate::lp::solve(&crate::lp::Microlp, &model, "reference").unwrap().get(cmax) * self.scale.1
    }
}

#[cfg(test)]
mod tests {
    use super::super::{binomial, star, BinomialParams, Order, StarParams, Stages};
    use crate::costs::Load;
    use alloc::vec::Vec;
    use approx::assert_relative_eq;
    use proptest::prelude::*;

    /// The equal split, n stages of V/(n m) per processor, simulated:
    /// a feasible schedule the optimum cannot be worse than.
    fn equal_split(m: usize, n: usize, s: f64, c: f64, a: f64, v: f64) -> f64 {
        let x = v / (n * m) as f64;
        let (mut wire, mut busy) = (0.0, alloc::vec![0.0f64; m]);
        for _ in 0..n {
            for b in busy.iter_mut() {
                wire += s + c * x;
                *b = wire.max(*b) + a * x;
            }
        }
        busy.into_iter().fold(0.0, f64::max)
    }

    proptest! {
        #![proptest_config(crate::cases(60))]
        #[test]
        fn star_optimum_between_the_lower_bound_and_the_equal_split(m in 1usize..7, s in 0.0..0.1, c in 0.0..1.0, a in 0.1..0.1 + 3.0, v in 0.5..0.5 + 10.0, n in 1usize..5) {
            let params = |prune| StarParams { m: m as f64, load: Load::new(s, c, a, v), stages: Stages::new(None, Some(n as f64), Some(prune)) };
            let raw = star(&params(false)).unwrap();
            let pruned = star(&params(true)).unwrap();
            let (lb, eq) = (s + v * a / m as f64, equal_split(m, n, s, c, a, v));
            assert!(raw.schedule.makespan <= eq * (1.0 + 1e-9), "raw {} > equal split {eq}", raw.schedule.makespan);
            assert!(raw.schedule.makespan >= lb * (1.0 - 1e-9));
            // Pruning only removes start-ups: never worse, and the same LP
            // when nothing was empty.
            assert!(pruned.schedule.makespan <= raw.schedule.makespan * (1.0 + 1e-9));
            if pruned.lp.solves == 1 {
                assert_relative_eq!(pruned.schedule.makespan, raw.schedule.makespan, max_relative = 1e-9);
            }
        }
    }

    proptest! {
        #![proptest_config(crate::cases(40))]
        #[test]
        fn binomial_optimum_between_the_lower_bound_and_one_layer(p in 1u8..4, h in 1usize..5, s in 0.0..0.1, c in 0.0..0.1, a in 0.1..0.1 + 3.0, v in 0.5..0.5 + 10.0) {
            let p = f64::from(p);
            let m: f64 = libm::pow(p + 1.0, h as f64) - 1.0;
            for order in [Order::Nlf, Order::Llf] {
                let out = binomial(&BinomialParams { p, h: h as f64, load: Load::new(s, c, a, v), stages: Stages::new(None, Some(2.0), Some(true)), order }).unwrap();
                let mk = out.schedule.makespan;
                assert!(mk >= (s + v * a / m) * (1.0 - 1e-9));
                // Feasible: layer 1 alone, one stage (p processors, V/p each).
                assert!(mk <= (s + c * v / p + a * v / p) * (1.0 + 1e-9), "{mk}");
                let total: f64 = out.loads.iter().zip(&out.layer_sizes).map(|(x, n)| x * n).sum();
                assert_relative_eq!(total, v, max_relative = 1e-8);
            }
        }
    }

    proptest! {
        #![proptest_config(crate::cases(120))]
        /// The compact LP the calculator solves has the printed LP's optimum,
        /// for stars and binomial trees, with and without buffers (D with
        /// V / (units D) in (n - 1, n], a third of the cases without).
        #[test]
        fn compact_lp_equals_the_printed_lp(units in 1usize..6, n in 1usize..6, s in 0.0..1e-2, c in 0.0..1e-3, a in 1e-4..1e-4 + 1e-2, v in 1.0..1.0 + 1e4, buffered in prop::bool::weighted(2.0 / 3.0), f in 0.0..1.0, layered in any::<bool>()) {
            use crate::lp::{solve, Microlp};
            let d = buffered.then(|| v / (units as f64 * (n as f64 - 0.9 * f)));
            let lp = super::Sequential::example(units, s, c, a, v, d, layered);
            let all: Vec<usize> = (0..units).collect();
            let printed = solve(&Microlp, &lp.printed(&all, n).0, "printed").unwrap();
            let compact = solve(&Microlp, &lp.compact(&all, n).0, "compact").unwrap();
            assert_relative_eq!(printed.objective, compact.objective, max_relative = 1e-9);
        }
    }

    /// Where the interior point method ends near its bound but short of
    /// its proof, the simplex on the rows its last iterate holds tight, and
    /// those its answers break, gives the optimum: a binomial tree (p = 2,
    /// h = 10, LLF, S = 0, n = 6) whose bounds the method left apart. The
    /// answer's LP has fewer rows than the compact LP's 181, and its
    /// makespan is the printed LP's optimum (microlp on all of it, the
    /// engine's tolerance).
    #[test]
    fn a_near_iterate_s_tight_rows_give_the_optimum() {
        use super::super::binomial_lp;
        use crate::lp::{solve, Microlp};
        let params = BinomialParams {
            p: 2.0,
            h: 10.0,
            load: Load::new(0.0, 1.9328894604634694e-5, 4.717791165287938e-3, 273820.1318060433),
            stages: Stages::new(Some(29919.156946407184), Some(6.0), Some(false)),
            order: Order::Llf,
        };
        let out = binomial(&params).unwrap();
        assert!(out.lp.rows > 0 && out.lp.rows < 181, "{:?}", out.lp);
        let (printed, units) = binomial_lp(&params).unwrap();
        let optimum = solve(&Microlp, &printed, "printed").unwrap().objective * units.time;
        assert_relative_eq!(out.schedule.makespan, optimum, max_relative = 1e-9);
    }

    #[test]
    fn buffers_bound_every_message() {
        let out = star(&StarParams { m: 3.0, load: Load::new(0.0, 1.0, 1.0, 3.0), stages: Stages::new(Some(1.0), None, None) }).unwrap();
        assert_eq!(out.n_min, 1);
        let sent: Vec<f64> = out.schedule.intervals.iter().filter(|i| i.from.is_some()).map(|i| i.load).collect();
        assert!(sent.iter().all(|&x| x <= 1.0 + 1e-12));
        let e = star(&StarParams { m: 3.0, load: Load::new(0.0, 1.0, 1.0, 3.0), stages: Stages::new(Some(0.5), Some(1.0), None) }).unwrap_err();
        assert_eq!(e.field, "n");
        assert!(e.message.contains("at least n_min = 2"), "{}", e.message);
    }
}
