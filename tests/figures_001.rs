//! What the text of [001] (Błażewicz, Drozdowski, Guinand & Trystram, a
//! divisible task on a 2D torus, Secs. 3-4) says about its Fig. 1, Table 1,
//! Fig. 2 and Figs. 3-7, one test a statement, each run through the public
//! API with the caption's parameters (S = α, C = τ, A = 1/σ = 1E-6 s).
//!
//! The figures themselves are lost in the extraction; what is checked is
//! the text about them, read as the gallery (www/gallery/001.js) draws them:
//! Figs. 3-6 run a torus of k = 3 and take for "25, 125, 625 and 3125
//! processors" the best feasible number of phases N up to 2, 3, 4, 5 (odd N
//! end after a knight phase: 125 and 3125 are not 5^(2k)); Fig. 7 is the
//! speedup V·A/Cmax against V for k = 1..4 at the largest feasible N; both
//! over the gallery's axis, V = 10 to 1E10, four points a decade. Figs. 1
//! and 2 are diagrams: their statements are checked on the activation map
//! and on the schedule the calculator draws for them. Fig. 8 (against the
//! scattering of [4], the request's `"scattering": "wavefront"`) and Sec. 5's
//! extensions (Fig. 9's results returned, granularity) are checked through
//! the request's options; they are not in the gallery yet.
//!
//! Tolerances: "equal" is 1e-9 relative (room for the recurrence's sums over
//! 5^i); the bands of "overlap", "levels off" and "linear" are stated at each
//! test, chosen from what the paper's log-log plots can show.

use serde_json::{json, Value};
use std::sync::OnceLock;

/// 1/σ: "Each processor can perform σ = 10^6 elementary operations per second".
const A: f64 = 1e-6;

fn solve(request: Value) -> Value {
    let parsed = dlt_core::parse(request.clone()).unwrap_or_else(|e| panic!("{request}: {e}"));
    let response = dlt_core::solve(&parsed).unwrap_or_else(|e| panic!("{request}: {e}"));
    serde_json::to_value(response).unwrap()
}

fn torus(k: u32, s: f64, c: f64, v: f64) -> Value { json!({"model": "torus", "k": k, "S": s, "C": c, "A": A, "V": v}) }

/// The `fields` of `request` over `values` of `parameter` (a sweep leaves the map unserialized).
fn sweep(request: Value, parameter: &str, values: &[f64], fields: &[&str]) -> Value {
    let out = solve(json!({"model": "sweep", "request": request, "parameter": parameter, "values": values, "fields": fields}));
    assert!(out["errors"].as_array().unwrap().iter().all(Value::is_null), "{}", out["errors"]);
    out["series"].clone()
}

fn f(x: &Value) -> f64 { x.as_f64().unwrap_or_else(|| panic!("a number, got {x}")) }
fn close(a: f64, b: f64, rel: f64) -> bool { (a - b).abs() <= rel * a.abs().max(b.abs()) }

/// The gallery's V axis of Figs. 3-7: 10 to 1E10, four points a decade.
fn v_axis() -> Vec<f64> { (0..=36).map(|i| 10f64.powf(1.0 + f64::from(i) / 4.0)).collect() }

/// Processors in layer i (Table 1's activated nodes of phase i).
fn layer_size(i: usize) -> f64 { if i == 0 { 1.0 } else { 4.0 * 5f64.powi(i as i32 - 1) } }

// ---- Fig. 1 and Table 1 ---------------------------------------------------

/// The activation map: side 5^k, each cell's phase and sender (cell (x, y) at y·size + x).
fn map(k: u32) -> (usize, Vec<usize>, Vec<i64>) {
    let a = solve(torus(k, 1e-4, 1e-7, 1e6))["activation"].clone();
    (a["size"].as_u64().unwrap() as usize, serde_json::from_value(a["phase"].clone()).unwrap(), serde_json::from_value(a["parent"].clone()).unwrap())
}

/// A torus offset folded into (-size/2, size/2].
fn wrap(d: i64, size: i64) -> i64 { let d = d.rem_euclid(size); if d > size / 2 { d - size } else { d } }

/// "During the first phase, the message is sent in a knight move (chess
/// game): f = 5^{k-1} links away from the sender in one direction and then
/// 2 × f links to the left (see Fig. 1). The second phase consists in cross
/// move, sending data f links away. After the two phases one step is
/// completed, and size f of communication distance is reduced to f/5 in the
/// next step." Every sender-receiver offset of the map, k = 2 (the
/// gallery's) and 3. "To the left" is read with y up: the page draws y
/// down, where the same knight turns right (a mirror image; Fig. 1 is lost,
/// and either hand tiles the torus).
#[test]
fn fig1_knight_then_cross_moves_at_distance_f() {
    for k in [2u32, 3] {
        let (size, phase, parent) = map(k);
        for (cell, (&p, &from)) in phase.iter().zip(&parent).enumerate().filter(|(_, (&p, _))| p > 0) {
            let fl = 5i64.pow(k - (p as u32).div_ceil(2));
            let from = from as usize;
            let (dx, dy) = (wrap((cell % size) as i64 - (from % size) as i64, size as i64), wrap((cell / size) as i64 - (from / size) as i64, size as i64));
            if p % 2 == 1 {
                // The cross product of the first leg (f) and the second (2f): > 0 turns left, y up.
                let turn = if dy.abs() == fl { -dx * dy } else { dx * dy };
                assert!(dx.abs().min(dy.abs()) == fl && dx.abs().max(dy.abs()) == 2 * fl && turn > 0, "k = {k}, phase {p}: ({dx}, {dy})");
            } else {
                assert!(dx.abs() + dy.abs() == fl && dx * dy == 0, "k = {k}, phase {p}: ({dx}, {dy}) is no cross move of {fl}");
            }
        }
    }
}

/// "The idea of this algorithm is to send the load far away such that each
/// processor can reach four new processors in each phase ... For a 2D-torus
/// with 5^{2k} processors k steps and 2k phases are needed to activate all
/// processors." Every active node sends to exactly four new ones in every
/// later phase, every cell is reached once, the last in phase 2k.
#[test]
fn fig1_four_new_nodes_each_phase_and_2k_phases_reach_all() {
    for k in [1u32, 2, 3] {
        let (size, phase, parent) = map(k);
        assert_eq!(phase.len(), size * size);
        assert_eq!(*phase.iter().max().unwrap(), 2 * k as usize, "k = {k}");
        for p in 1..=2 * k as usize {
            let mut children = vec![0usize; size * size];
            for (cell, &from) in parent.iter().enumerate().filter(|&(c, _)| phase[c] == p) {
                assert!(phase[from as usize] < p, "k = {k}: cell {cell} of phase {p} sent to by a later node");
                children[from as usize] += 1;
            }
            for (node, &n) in children.iter().enumerate().filter(|&(c, _)| phase[c] < p) {
                assert_eq!(n, 4, "k = {k}: node {node} reaches {n} new nodes in phase {p}");
            }
        }
    }
}

/// "Then, all active processors become sources for further broadcasting,
/// and the procedure is repeated recursively in the submeshes with 25-times
/// less nodes." After step s the 25^s active nodes are one in each
/// 5^(k-s) × 5^(k-s) submesh, all at the originator's place in it.
#[test]
fn fig1_recursion_in_submeshes_25_times_smaller() {
    for k in [2u32, 3] {
        let (size, phase, _) = map(k);
        let centre = size / 2;
        for s in 1..=k {
            let sub = 5usize.pow(k - s);
            for (cell, &p) in phase.iter().enumerate() {
                let home = (cell % size) % sub == centre % sub && (cell / size) % sub == centre % sub;
                assert_eq!(p <= 2 * s as usize, home, "k = {k}, step {s}: cell {cell} of phase {p}");
            }
        }
    }
}

/// Table 1: phase i finds 5^{i-1} nodes computing, activates 4 × 5^{i-1},
/// and leaves 5^i computing, up to phase 2k and 5^{2k}. The layers of the
/// answer for k = 1..8 (α = 0 of Figs. 3-4 makes all 2k phases feasible;
/// tests/golden.rs has k = 2's layer sizes) and, for k = 1..4, the cells of
/// the activation map in each phase.
#[test]
fn table1_computing_and_activated_nodes_per_phase() {
    let ks: Vec<f64> = (1..=8).map(f64::from).collect();
    let series = sweep(torus(1, 0.0, 1e-12, 1e6), "k", &ks, &["phases", "layers"]);
    for (j, &k) in ks.iter().enumerate() {
        let n = 2 * k as usize;
        assert_eq!(series["phases"][j], json!(n), "k = {k}");
        let sizes: Vec<f64> = series["layers"][j].as_array().unwrap().iter().map(|l| f(&l["processors"])).collect();
        assert_eq!(sizes.len(), n + 1);
        for i in 1..=n {
            let before: f64 = sizes[..i].iter().sum();
            assert_eq!((before, sizes[i], before + sizes[i]), (5f64.powi(i as i32 - 1), layer_size(i), 5f64.powi(i as i32)), "k = {k}, phase {i}");
        }
    }
    for k in 1..=4u32 {
        let (_, phase, _) = map(k);
        for i in 0..=2 * k as usize {
            assert_eq!(phase.iter().filter(|&&p| p == i).count() as f64, layer_size(i), "k = {k}: cells of phase {i}");
        }
    }
}

// ---- Fig. 2 -----------------------------------------------------------------

/// The gallery's Fig. 2 (a diagram in the paper): k = 2, α = 1E-4 s, τ = 1E-7 s,
/// σ = 1E6, V = 1E6; its comm and compute intervals by receiving or computing row.
fn fig2() -> (Value, Vec<Vec<Value>>, Vec<Vec<Value>>) {
    let out = solve(torus(2, 1e-4, 1e-7, 1e6));
    assert_eq!(out["phases"], 4);
    let of = |kind: &str| (0..5).map(|i| out["schedule"].as_array().unwrap().iter().filter(|x| x["kind"] == kind && x["proc"] == i).cloned().collect()).collect();
    let (comm, compute) = (of("comm"), of("compute"));
    (out, comm, compute)
}

/// "In the optimal schedule computations on all processors of all the
/// layers must finish simultaneously ... Since the communication and
/// computation can overlap, the originator is never idle."
#[test]
fn fig2_all_layers_finish_together_and_the_originator_is_never_idle() {
    let (out, _, compute) = fig2();
    let cmax = f(&out["makespan"]);
    for (i, row) in compute.iter().enumerate() {
        assert_eq!(row.len(), 1, "layer {i}");
        assert!(close(f(&row[0]["end"]), cmax, 1e-12), "layer {i} ends at {} of {cmax}", row[0]["end"]);
    }
    assert_eq!(f(&compute[0][0]["start"]), 0.0);
    assert!(close(f(&compute[0][0]["load"]) * A, cmax, 1e-9));
}

/// "Computation on a transmitter must last as long as transmission to the
/// receiver and computing on the receiver (cf. Fig. 2)": layer i - 1
/// computes A a_{i-1} = α + τ v_i + A a_i, and layer i starts computing on
/// the message's arrival.
#[test]
fn fig2_transmitter_computes_as_long_as_transfer_and_receiver() {
    let (_, comm, compute) = fig2();
    let dur = |x: &Value| f(&x["end"]) - f(&x["start"]);
    for i in 1..compute.len() {
        let message = &comm[i][0];
        assert!(close(dur(message), 1e-4 + 1e-7 * f(&message["load"]), 1e-9), "phase {i}: {message}");
        assert!(close(f(&compute[i][0]["start"]), f(&message["end"]), 1e-12), "layer {i}");
        let (sender, receiver) = (dur(&compute[i - 1][0]), dur(message) + dur(&compute[i][0]));
        assert!(close(sender, receiver, 1e-9), "layer {}: {sender} vs {receiver}", i - 1);
    }
}

/// "Note that each processor receives data only once, but sends messages
/// several times. Therefore, each data transfer comprises load not only for
/// the immediately accessed processor but also for its descendants ... all
/// active processors synchronously perform either 'cross' or 'knight' phase
/// and the same volumes of data are sent." In phase i every layer j < i
/// sends 4 messages a processor over the same interval, one to each new
/// processor, all of v_i; and v_i = a_i + 4 (v_{i+1} + ... + v_N), what a
/// layer-i processor computes and forwards (V for the originator).
#[test]
fn fig2_one_receipt_several_sends_same_volumes() {
    let (out, comm, _) = fig2();
    let n = comm.len() - 1;
    let v: Vec<f64> = (0..=n).map(|i| f(&out["layers"][i]["received"])).collect();
    for i in 1..=n {
        assert_eq!(comm[i].len(), i, "phase {i}: every active layer sends");
        let messages: f64 = comm[i].iter().map(|x| f(&x["messages"])).sum();
        assert_eq!(messages, layer_size(i), "phase {i}: one message a new processor");
        for x in &comm[i] {
            assert!(f(&x["messages"]) == 4.0 * layer_size(x["from"].as_u64().unwrap() as usize), "phase {i}: {x}");
            assert!(x["start"] == comm[i][0]["start"] && x["end"] == comm[i][0]["end"] && close(f(&x["load"]), v[i], 1e-12), "phase {i}: {x}");
        }
    }
    for i in 0..=n {
        let forwards: f64 = v[i + 1..].iter().sum();
        assert!(close(v[i], f(&out["loads"][i]) + 4.0 * forwards, 1e-9), "layer {i}: receives {} ", v[i]);
    }
    assert!(close(v[0], 1e6, 1e-12));
}

// ---- Figs. 3-6 --------------------------------------------------------------

/// Cmax of 25, 125, 625 and 3125 processors at each V of the axis: the best
/// feasible number of phases up to N = 2..5 on a torus of k = 3, which is
/// the largest ("It is always advantageous for the schedule length
/// minimization to use as many layers as possible", Lemma 1, checked).
fn fig3to6(s: f64, c: f64) -> Vec<[f64; 4]> {
    let vs = v_axis();
    let series = sweep(torus(3, s, c, vs[0]), "V", &vs, &["by_phases"]);
    series["by_phases"].as_array().unwrap().iter().map(|opts| {
        let feasible: Vec<(u64, f64)> = opts.as_array().unwrap().iter().filter_map(|o| Some((o["phases"].as_u64()?, o["makespan"].as_f64()?))).collect();
        // Lemma 1: each further feasible phase shortens Cmax, so the best is the largest.
        assert!(feasible.windows(2).all(|w| w[1].1 < w[0].1), "{feasible:?}");
        let best = |n: u64| feasible.iter().filter(|o| o.0 <= n).map(|o| o.1).fold(f64::INFINITY, f64::min);
        [best(2), best(3), best(4), best(5)]
    }).collect()
}

/// Slope of log Cmax against log V from axis point i to j (a quarter decade apart each).
fn slope(t: &[[f64; 4]], n: usize, i: usize, j: usize) -> f64 { (t[j][n] / t[i][n]).log10() * 4.0 / (j - i) as f64 }

/// "For big transfer rate τ the difference between execution on 25, 125,
/// 625 or 3125 processors is very small and the curves in Fig. 3 overlap.
/// We conclude that ... the communication network becomes a bottle-neck."
/// α = 0, τ = 2E-6 s: within 5% of one another at every V, and every
/// speedup below 1 + 4A/τ = 3 (the originator's four links, in our reading:
/// in Cmax it computes Cmax/A and sends at most 4 Cmax/τ).
#[test]
fn fig3_curves_overlap_the_network_is_the_bottleneck() {
    for (t, v) in fig3to6(0.0, 2e-6).iter().zip(v_axis()) {
        let (lo, hi) = (t.iter().copied().fold(f64::INFINITY, f64::min), t.iter().copied().fold(0.0, f64::max));
        assert!(hi <= 1.05 * lo, "V = {v}: {t:?}");
        assert!(t.iter().all(|&x| v * A / x < 3.0 && v * A / x > 2.8), "V = {v}: speedups {:?}", t.map(|x| v * A / x));
    }
}

/// "... the first stages of data distribution dominate in the execution
/// time." Fig. 3's costs, N = 2..5 phases: layer 1 is reached after more
/// than 80% of Cmax, layer 2 after more than 94% (V = 1E6; with α = 0 the
/// shares do not depend on V).
#[test]
fn fig3_first_stages_of_distribution_dominate() {
    for n in 2..=5 {
        let out = solve(json!({"model": "torus", "k": 3, "S": 0.0, "C": 2e-6, "A": A, "V": 1e6, "phases": n}));
        let share = |i: usize| f(&out["layers"][i]["activated"]) / f(&out["makespan"]);
        assert!(share(1) > 0.8 && share(2) > 0.94, "N = {n}: {} and {}", share(1), share(2));
    }
}

/// "For zero startup time all processors can take part in computation (cf.
/// Fig. 4)." α = 0, τ = 1E-12 s: every phase is feasible at every V, and
/// 5^N processors give a speedup within 0.5% of 5^N.
#[test]
fn fig4_all_processors_take_part() {
    let vs = v_axis();
    let phases = &sweep(torus(3, 0.0, 1e-12, vs[0]), "V", &vs, &["phases"])["phases"];
    assert!(phases.as_array().unwrap().iter().all(|p| p == 6), "{phases}");
    for (t, v) in fig3to6(0.0, 1e-12).iter().zip(vs) {
        for (n, &x) in (2..=5).zip(t) {
            assert!(v * A / x >= 0.995 * 5f64.powi(n), "V = {v}, N = {n}: speedup {}", v * A / x);
        }
    }
}

/// "In Fig. 5 we can see that the startup influences the number of
/// processors which can take part in computation. For small sizes of the
/// computational task and a big startup only small numbers of processors
/// can take part in computations." α = 5E-4 s, τ = 1E-12 s: the feasible
/// phases grow with V, none (the originator alone) up to V ≈ 316, all six
/// from V ≈ 3.2E6; below V = 1E4 the four curves are one.
#[test]
fn fig5_startup_limits_the_processors_for_small_tasks() {
    let vs = v_axis();
    let phases: Vec<u64> = sweep(torus(3, 5e-4, 1e-12, vs[0]), "V", &vs, &["phases"])["phases"].as_array().unwrap().iter().map(|p| p.as_u64().unwrap()).collect();
    assert!(phases.windows(2).all(|w| w[1] >= w[0]), "{phases:?}");
    for (&p, &v) in phases.iter().zip(&vs) {
        assert!(if v < 400.0 { p == 0 } else if v > 3e6 { p == 6 } else { p > 0 }, "V = {v}: {p} phases");
    }
    for (t, &v) in fig3to6(5e-4, 1e-12).iter().zip(&vs).filter(|(_, &v)| v < 1e4) {
        assert!(t.iter().all(|&x| close(x, t[0], 1e-12)), "V = {v}: {t:?}");
    }
}

/// "The bigger the computational task is, the smaller the influence of the
/// startup. It follows that the function of the execution time vs. the load
/// becomes more linear." Against Fig. 4 (α = 0): the ratio of the curves
/// never grows with V and is within 0.2% at V = 1E10; the slope of log Cmax
/// over each decade from V = 1E5 grows towards 1, within 0.5% of it in the
/// last.
#[test]
fn fig5_startup_matters_less_and_time_becomes_linear() {
    let (with, without) = (fig3to6(5e-4, 1e-12), fig3to6(0.0, 1e-12));
    for n in 0..4 {
        let ratio: Vec<f64> = with.iter().zip(&without).map(|(a, b)| a[n] / b[n]).collect();
        assert!(ratio.windows(2).all(|w| w[1] <= w[0] * (1.0 + 1e-9)), "N = {}: {ratio:?}", n + 2);
        assert!(ratio[36] < 1.002, "N = {}: {}", n + 2, ratio[36]);
        let slopes: Vec<f64> = (16..36).step_by(4).map(|i| slope(&with, n, i, i + 4)).collect();
        assert!(slopes.windows(2).all(|w| w[1] > w[0]) && slopes[4] > 0.995 && slopes[4] <= 1.0 + 1e-9, "N = {}: {slopes:?}", n + 2);
    }
}

/// "In Fig. 6 [α = 4.85E-6 s, τ = 3.3E-9 s] ... in the linear part of the
/// curves, the increase in the number of used processors returns a
/// diminishing reduction of the schedule length (compare Fig. 4)." From
/// V = 1E8 (slope within 0.1% of 1), each five-fold of processors divides
/// Cmax by less than the one before (4.6, 3.6, 2.1), all below Fig. 4's,
/// which stay above 4.99.
#[test]
fn fig6_more_processors_give_diminishing_reductions() {
    let (t, t4) = (fig3to6(4.85e-6, 3.3e-9), fig3to6(0.0, 1e-12));
    for i in [28, 32, 36] {
        let gain: Vec<f64> = (0..3).map(|n| t[i][n] / t[i][n + 1]).collect();
        let gain4: Vec<f64> = (0..3).map(|n| t4[i][n] / t4[i][n + 1]).collect();
        assert!(gain.windows(2).all(|w| w[1] < 0.9 * w[0]), "V = {}: {gain:?}", v_axis()[i]);
        assert!(gain4.iter().zip(&gain).all(|(g4, g)| *g4 > 4.99 && g < g4), "V = {}: {gain:?} vs Fig. 4's {gain4:?}", v_axis()[i]);
    }
    assert!((0..4).all(|n| (slope(&t, n, 28, 36) - 1.0).abs() < 1e-3));
}

/// "This means that the speedup levels off." In the linear part (V = 1E10)
/// the speedup per processor falls with each five-fold (0.98, 0.91, 0.66,
/// 0.28), and 3125 processors stay below 1 + 4A/τ ≈ 1213 (the originator's
/// links, as in Fig. 3).
#[test]
fn fig6_speedup_levels_off() {
    let t = fig3to6(4.85e-6, 3.3e-9);
    let efficiency: Vec<f64> = (0..4).map(|n| 1e10 * A / t[36][n] / 5f64.powi(n as i32 + 2)).collect();
    assert!(efficiency.windows(2).all(|w| w[1] < w[0]) && efficiency[3] < 0.3, "{efficiency:?}");
    assert!(1e10 * A / t[36][3] < 1.0 + 4.0 * A / 3.3e-9);
}

// ---- Fig. 7 -----------------------------------------------------------------

/// Fig. 7: α = 1E-4 s, τ = 1E-7 s, σ = 1E6, k = 1..4, the largest feasible N:
/// (speedup, phases) at each V of the axis, solved once for the three tests.
fn fig7(k: u32) -> &'static [(f64, u64)] {
    static RUNS: OnceLock<Vec<Vec<(f64, u64)>>> = OnceLock::new();
    &RUNS.get_or_init(|| {
        let vs = v_axis();
        (1..=4).map(|k| {
            let s = sweep(torus(k, 1e-4, 1e-7, vs[0]), "V", &vs, &["speedup", "phases"]);
            (0..vs.len()).map(|i| (f(&s["speedup"][i]), s["phases"][i].as_u64().unwrap())).collect()
        }).collect()
    })[k as usize - 1]
}

/// "For small computational tasks only small numbers of processors can
/// take part in computation and only a limited speedup can be sustained."
/// Up to V = 100 the originator alone (speedup 1), below V = 1E3 at most
/// five processors and a speedup under 3, for every k; up to V ≈ 3.2E3 the
/// four tori give the same speedup (under 9), since even k = 1 has its two
/// phases.
#[test]
fn fig7_small_tasks_few_processors_limited_speedup() {
    let runs: Vec<_> = (1..=4).map(fig7).collect();
    for (i, v) in v_axis().into_iter().enumerate() {
        for (k, run) in (1..).zip(&runs) {
            let (speedup, phases) = run[i];
            let few = if v <= 100.0 { phases == 0 && close(speedup, 1.0, 1e-12) } else { v >= 1e3 || (phases == 1 && speedup < 3.0) };
            assert!(few && (v > 4e3 || (close(speedup, runs[0][i].0, 1e-12) && speedup < 9.0)), "k = {k}, V = {v}: {speedup} with {phases} phases");
        }
    }
}

/// "The bigger the task, the greater speedup can be achieved." For every k
/// the speedup and the phases used never fall as V grows, and the speedup
/// at V = 1E10 is over 16 times that at V = 10.
#[test]
fn fig7_bigger_tasks_greater_speedup() {
    for k in 1..=4 {
        let run = fig7(k);
        assert!(run.windows(2).all(|w| w[1].0 >= w[0].0 * (1.0 - 1e-12) && w[1].1 >= w[0].1), "k = {k}: {run:?}");
        assert!(run[36].0 > 16.0 * run[0].0 && run[36].1 == 2 * u64::from(k), "k = {k}: {run:?}");
    }
}

/// "For big sizes speedup does not differ very much. We conclude that for
/// big tasks, the size does not influence the processing speed." From
/// V = 1E7 on, each k's speedup is within 0.5% of its value at 1E10, which
/// is within 1e-4 of the same torus with no start-up (α = 0: no size
/// effect at all).
#[test]
fn fig7_speedup_levels_off_for_big_tasks() {
    for (k, run) in (1..=4).map(|k| (k, fig7(k))) {
        let top = run[36].0;
        assert!(run[24..].iter().all(|&(s, _)| close(s, top, 0.005)), "k = {k}: {run:?}");
        let free = f(&sweep(torus(k, 0.0, 1e-7, 1e10), "V", &[1e10], &["speedup"])["speedup"][0]);
        assert!(close(top, free, 1e-4), "k = {k}: {top} vs {free} with α = 0");
    }
}

// ---- Fig. 8 and Sec. 5 --------------------------------------------------------

/// Fig. 8: "the speedup for the network with τ = 10^-8 s, α = 0, σ = 10^6.
/// As can be seen, Peters–Syska scattering performs better than the
/// previous scattering scheme" (the wave front of [4], all processors of a
/// layer alike). The torus of the figure is lost with it: k = 1..4 over the
/// gallery's V axis. With α = 0 every time is proportional to V, so each
/// curve is flat; Peters-Syska's speedups are 23.7, 245, 391 and 401, the
/// wave front's 23.0, 123, 130 and 130. Peters-Syska nears 1 + 4A/τ = 401,
/// the bound of the originator's four links; the wave front stops far below
/// it, every unit for the deeper layers passing all the relays before them.
#[test]
fn fig8_peters_syska_beats_the_wave_front() {
    let vs = v_axis();
    for k in 1..=4u32 {
        let mut curves = Vec::new();
        for scattering in ["peters_syska", "wavefront"] {
            let mut request = torus(k, 0.0, 1e-8, vs[0]);
            request["scattering"] = json!(scattering);
            let s = sweep(request, "V", &vs, &["speedup"]);
            curves.push((0..vs.len()).map(|i| f(&s["speedup"][i])).collect::<Vec<f64>>());
        }
        for (i, v) in vs.iter().enumerate() {
            assert!(curves[0][i] > curves[1][i], "k = {k}, V = {v}: Peters-Syska {} vs wave front {}", curves[0][i], curves[1][i]);
            assert!(close(curves[0][i], curves[0][0], 1e-12) && close(curves[1][i], curves[1][0], 1e-12), "k = {k}: α = 0, flat in V");
        }
    }
}

/// Sec. 5: "when a_i is rounded up ... the deviation in the processing
/// time is at most 2kτ + 1/σ" (one granule g: 2k C g + A g with N = 2k
/// phases), over Fig. 7's parameters and axis, g = 1 and 100 load units,
/// where V is big enough for granules: at least 100 g per processor (a
/// coarser granularity is refused where it would leave a load negative).
#[test]
fn sec5_granularity_deviation_within_2k_tau_plus_one_over_sigma() {
    for k in 1..=3u32 {
        for g in [1.0, 100.0] {
            for v in v_axis().into_iter().filter(|&v| v >= 100.0 * g * 25f64.powi(k as i32)) {
                let mut request = torus(k, 1e-4, 1e-7, v);
                request["granularity"] = json!(g);
                let out = solve(request);
                let r = &out["granularity"];
                let paper = 2.0 * f64::from(k) * 1e-7 * g + A * g;
                assert!(f(&r["deviation"]) <= f(&r["bound"]) && f(&r["bound"]) <= paper * (1.0 + 1e-12), "k = {k}, g = {g}, V = {v}: {r}");
            }
        }
    }
}

/// Fig. 9: with results returned, "computation on the node of a layer
/// activated earlier lasts as long as sending to, computing on, and
/// receiving results from the deeper layer node": the schedule lists the
/// results, every layer's are back at the originator by the makespan, and
/// returning results never shortens the schedule.
#[test]
fn fig9_results_return_up_the_scattering_tree() {
    for ratio in [0.01, 1.0] {
        let mut request = torus(2, 1e-4, 1e-7, 1e6);
        request["return_ratio"] = json!(ratio);
        let out = solve(request);
        let results: Vec<&Value> = out["schedule"].as_array().unwrap().iter().filter(|i| i["kind"] == "result").collect();
        assert!(!results.is_empty());
        assert!(results.iter().all(|i| f(&i["end"]) <= f(&out["makespan"]) * (1.0 + 1e-12)));
        assert!(f(&out["makespan"]) > f(&solve(torus(2, 1e-4, 1e-7, 1e6))["makespan"]));
    }
}
