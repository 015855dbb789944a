//! The tree LP by the interior point method (`lp::barrier`), for the full
//! LPs that neither the cuts nor the windows prove (start-up-dominated
//! trees above n_min). Each iterate's chunks, each hop as early as it can
//! start, make a schedule (an upper bound on the optimum), and its
//! multipliers a Lagrangian bound (`lp::dual`, a lower one); the answer
//! stands where the best of each meet within PROVEN. h = 10, n = 30,
//! S = 1e-3: 25 iterations, 0.45 s, where microlp took 4,758 pivots and
//! 2.3 s. Where they do not, the rows tight at a schedule near the
//! optimum (or at the last iterate) make a relaxation that the simplex
//! solves (`by_relaxation`). The paper's pruning starts its simplex on the
//! rows the iterates found tight too (`near_optimum`).

use super::proof::FullLp;
use super::rows::Tree;
use super::{Times, PROVEN};
use crate::buffers::stages::{chunks_of, LpSize, Solved};
use crate::lp::barrier::{self, Gap, Look, SHARPEN};
use crate::lp::{dual, Rows, Warm};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Iterations at most: h = 10 at n = 100 met its bound in 36-45.
const MOST: u64 = 120;

/// Iterations without the gap shrinking (`barrier::Gap`) before the
/// relaxation takes over. Past the point where the normal equations
/// lose their pivots the iterates stop short of the optimum and wander
/// (h = 10, n = 12, S = 1e-4: the gap 1.7e-6 from the 24th iteration to
/// the 45th, the lower bound 6.8e-8 below the optimum; n = 20, S = 1e-5:
/// 9.6e-8 from the 37th to the 59th). The gap of those proven stood still
/// for at most 3 iterations (n = 20, S = 1e-5: 0.256 from the 8th to the
/// 10th).
const STALL: u64 = 5;

/// The rows of the relaxation: those whose slack at the iterate that last
/// shrank the gap (or at a windowed schedule, `near_schedule`) is at most
/// this share of their terms' size. h = 10,
/// n = 12, S = 1e-4: 837 of 1,954 rows, 4 rounds; n = 20, S = 1e-5: 1,298
/// of 3,274 rows, 3 rounds. At 1e-3 (1,001 and 2,002 rows) fewer rounds,
/// each dearer: 1.3x and 1.5x the time.
const NEAR: f64 = 1e-5;

/// The rows a relaxation from the windowed method's schedule keeps, as
/// its proof names them.
const SCHEDULE_ROWS: &str = "the rows the windowed schedule holds tight";

/// Relaxations solved, each with the rows the one before broke, before
/// the last takes every row left out.
const ROUNDS: usize = 12;

/// How far beyond its buffer a scaled chunk may go: round-off, where the
/// iterates carry V but for their last digits.
const FITS: f64 = 1e-12;

/// What a run of the method found: the best schedule (makespan, chunks,
/// the LP's variables), the best bound, the iterate that last shrank the
/// gap, the iterations.
struct Iterated {
    best: Option<(f64, Vec<Vec<f64>>, Vec<f64>)>,
    bound: f64,
    last: Vec<f64>,
    iterations: u64,
}

impl FullLp {
    /// The LP's optimum within PROVEN, over layers `kept`, as the full
    /// LP's answer, with the method's iterations and what proves it; None
    /// where neither the bounds nor the relaxation meet. Where the method
    /// stops short, the relaxation takes the rows tight at its best
    /// schedule where its bound is within SHARPEN of it, else at
    /// `schedule` (the windowed method's, where it ran), else at its last
    /// iterate. A schedule's rows tight are a vertex's, an iterate's those
    /// of the centre of a face: the 8 of 96 trees above n_min (8-10
    /// layers) the method stopped short on after windows took 8.9 -> 5.9 s
    /// in all from the windowed schedule's rows (p = 4, h = 8, n = 47:
    /// 1.22 -> 0.42 s; one, 0.43 -> 0.51 s). The method's own schedule,
    /// near its bound, has the rows of the optimum's face: where it
    /// stalled 2e-8 above its bound (h = 8, n = 55 and 70, V = 1e6), 4.4 ->
    /// 1.5 s and 5.0 -> 2.1 s from the windowed schedule's rows (native
    /// HiGHS: 0.89 and 2.2 s), though the windowed schedule was the
    /// shorter; far from its bound (h = 9, n = 55: 8 iterations), 2.9 ->
    /// 18 s. `work` gets the iterations either way.
    pub(super) fn by_interior(&self, tree: &Tree, kept: &[usize], schedule: Option<&[f64]>, work: &mut LpSize) -> Option<(Solved<Times>, u64, String)> {
        let Iterated { best, bound, last, iterations } = self.iterate(tree, work);
        let near = match best {
            Some((makespan, chunks, x)) if makespan - bound <= PROVEN * makespan => {
                return Some((self.solved(tree, kept, chunks, &x, makespan, work), iterations, String::from("a dual bound of the full LP")));
            }
            Some((makespan, _, mut x)) if makespan - bound <= SHARPEN * makespan => {
                x[self.cmax.0] = makespan;
                Some(x)
            }
            _ => None,
        };
        let own = near.as_deref().map(|x| (x, "the rows its best schedule holds tight"));
        let other = match (schedule, last.is_empty()) {
            (Some(x), _) => Some((x, SCHEDULE_ROWS)),
            (None, false) => Some((&last[..], "the rows it found tight")),
            // No iterate gave a schedule: no gap, no rows found tight.
            (None, true) => None,
        };
        // Where the engine fails on the first relaxation's rows (h = 9,
        // n = 31: an unresolved blocking entry as rows came in), the other.
        let solved = [own, other].into_iter().flatten().find_map(|tight| self.by_relaxation(tree, kept, tight, work));
        solved.map(|(solved, proof)| (solved, iterations, proof))
    }

    /// The point near the optimum where the method last shrank the gap,
    /// and the slack within which a row counts as tight there: where the
    /// paper's pruning starts the simplex (`stages::solve_pruned`). None
    /// where no iterate gave a schedule.
    pub(super) fn near_optimum(&self, tree: &Tree, work: &mut LpSize) -> Option<(Vec<f64>, f64)> {
        let Iterated { last, .. } = self.iterate(tree, work);
        (!last.is_empty()).then_some((last, NEAR))
    }

    /// The point of the schedule of `chunks` (load units, all n stages),
    /// each hop as early as it can and Cmax its makespan, and the slack
    /// within which a row counts as tight there: where the simplex starts
    /// after the windowed method's unproven answer (pruning, `by_schedule`,
    /// `by_interior`): near the optimum, its rows tight a vertex's.
    pub(super) fn near_schedule(&self, tree: &Tree, chunks: &[Vec<f64>]) -> (Vec<f64>, f64) {
        let mut x = self.earliest(tree, chunks).x;
        x[self.cmax.0] = self.makespan(&x);
        (x, NEAR)
    }

    /// Whether the method runs on the LP's dual (`barrier::Method`).
    pub(super) fn on_dual(&self) -> bool {
        self.with_method(|method| method.on_dual()).unwrap_or(false)
    }

    /// `f` of the method laid out for the LP, laid out on first use; None
    /// where it cannot be (a variable without a lower bound).
    fn with_method<T>(&self, f: impl FnOnce(&mut barrier::Method) -> T) -> Option<T> {
        let mut method = self.method.borrow_mut();
        if method.is_none() {
            *method = barrier::Method::new(self.model(), Some(&self.inequalities()));
        }
        method.as_mut().map(f)
    }

    /// The method run until its schedule meets its bound within PROVEN or
    /// the gap stalls; its iterations added to `work`.
    fn iterate(&self, tree: &Tree, work: &mut LpSize) -> Iterated {
        let x0 = tree.scale.0;
        let load = self.lp.row_ref(self.load_row);
        let mut best: Option<(f64, Vec<Vec<f64>>, Vec<f64>)> = None;
        let mut last = Vec::new();
        let mut bound = f64::NEG_INFINITY;
        let (mut iteration, mut progress) = (0, Gap::new(PROVEN, STALL));
        let iterations = self.with_method(|method| method.run(MOST, |x, y| {
            iteration += 1;
            // The chunks within their boxes, scaled to carry the load row's V.
            let clipped = |v: crate::lp::Var| x[v.0].clamp(0.0, self.lp.bounds[v.0].1);
            let carried: f64 = load.terms.iter().map(|&(v, a)| a * clipped(v)).sum();
            let scale = load.rhs / carried;
            // Scaled up, a chunk may pass its buffer: no schedule then. (Its
            // makespan would be below the optimum, and the bound, whose time
            // variables are capped by the best makespan, would follow it.)
            let fits = self.alpha.iter().flatten().all(|&v| clipped(v) * scale <= self.lp.bounds[v.0].1 * (1.0 + FITS));
            if fits {
                let chunks: Vec<Vec<f64>> = self.alpha.iter().map(|st| st.iter().map(|&v| clipped(v) * scale * x0).collect()).collect();
                let at = self.earliest(tree, &chunks);
                let makespan = self.makespan(&at.x);
                if makespan.is_finite() && best.as_ref().is_none_or(|b| makespan < b.0) {
                    best = Some((makespan, chunks, at.x));
                }
            }
            let Some(upper_of) = best.as_ref().map(|b| b.0) else { return Look::Go };
            let lower = dual::bound_at_best(&self.lp, y.to_vec(), self.load_row, self.upper(tree, upper_of));
            bound = bound.max(lower);
            let (shrank, look) = progress.look(iteration, (upper_of - bound) / upper_of);
            if shrank {
                last.clear();
                last.extend_from_slice(x);
            }
            look
        }));
        let iterations = iterations.unwrap_or(0);
        *work = work.iterated(&self.lp, iterations);
        Iterated { best, bound, last, iterations }
    }

    /// The LP's optimum from its rows near tight at the windowed method's
    /// schedule `x` (`near_schedule`), and what proves it.
    pub(super) fn by_schedule(&self, tree: &Tree, kept: &[usize], x: &[f64], work: &mut LpSize) -> Option<(Solved<Times>, String)> {
        self.by_relaxation(tree, kept, (x, SCHEDULE_ROWS), work)
    }

    /// The LP's optimum from its rows near tight at `x` (an iterate or a
    /// schedule; `rows` names them in the proof). The
    /// LP with fewer rows is a relaxation, its optimum a lower bound; its
    /// chunks, each hop as early as it can, a schedule, an upper one.
    /// Where the two meet the chunks are optimal; else the rows the
    /// relaxation's answer breaks are added and it is solved again from
    /// its basis. The relaxation's optimum is the LP's
    /// from the first round on (it has the rows that decide it), but
    /// among its optimal points the simplex may take one whose chunks a
    /// row left out forbids: h = 10, n = 12, S = 1e-4, 2% above it.
    /// An answer that breaks no row left out is the full LP's own, and is
    /// taken as the full LP's would be: a random tree (h = 9, n = 34) met
    /// its bound within 1.07e-9 there, and the full LP solved cold again
    /// took 5,000 more iterations to the same answer (4.9 -> 3.5 s). Its
    /// chunks' schedule, each hop as early as it can, is the answer: the
    /// engine's times, within its tolerance of the rows, ended 3.6e-9
    /// after its Cmax on h = 9, n = 31, which the checker refuses. After
    /// ROUNDS the rows still left out come in at once: the full LP, solved
    /// from the basis. Returns the answer and what proves it.
    fn by_relaxation(&self, tree: &Tree, kept: &[usize], (x, rows): (&[f64], &str), work: &mut LpSize) -> Option<(Solved<Times>, String)> {
        let (mut warm, mut sol) = Warm::relaxed(self.model().clone(), Some((x, NEAR)), tree.name).ok()?;
        for round in 1..=ROUNDS + 1 {
            *work = work.then(warm.model(), &sol);
            let chunks = chunks_of(&self.alpha, &sol, &warm.model().bounds, tree.scale.0);
            let at = self.earliest(tree, &chunks);
            let makespan = self.makespan(&at.x);
            if makespan - sol.objective <= PROVEN * makespan {
                return Some((self.solved(tree, kept, chunks, &at.x, makespan, work), format!("the simplex on {rows}, a relaxation whose optimum its schedule meets")));
            }
            let broken = if round < ROUNDS { warm.broken(&sol) } else { warm.left_out() };
            if broken.is_empty() {
                let above = (makespan - sol.get(self.cmax)) / makespan;
                let proof = format!("the simplex on {rows}, whose answer every other row holds (its chunks' schedule {above:.1e} after its Cmax: the engine's tolerance)");
                return Some((self.solved(tree, kept, chunks, &at.x, makespan, work), proof));
            }
            sol = warm.add(broken, tree.name).ok()?;
        }
        None
    }
}
