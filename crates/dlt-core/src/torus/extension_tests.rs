//! Sec. 5's options: each collapses to system (1) when off, each obeys its
//! equation, and the orderings the paper implies hold.

use super::options::Options;
use super::*;
use crate::schedule::Kind;
use approx::assert_relative_eq;

fn params(k: f64, s: f64, c: f64, v: f64) -> Params {
    Params::new(k, Load::new(s, c, 1e-6, v))
}

/// The grid the tests sweep: Figs. 3-7's parameters and slow links.
fn grid() -> Vec<Params> {
    let mut all = Vec::new();
    for k in 1..=3 {
        for (s, c) in [(0.0, 2e-6), (0.0, 1e-8), (5e-4, 1e-12), (1e-4, 1e-7), (4.85e-6, 3.3e-9)] {
            for v in [1e2, 1e4, 1e6, 1e8] {
                all.push(params(k as f64, s, c, v));
            }
        }
    }
    all
}

fn makespan(p: &Params) -> f64 {
    solve(p).unwrap_or_else(|e| panic!("{p:?}: {e}")).schedule.makespan
}

/// The chain's equations with no option on are system (1): the extended
/// solver, forced, gives today's answer to 1e-12.
#[test]
fn the_chain_with_no_option_is_system_1() {
    for p in grid() {
        let (inp, opts) = validate(&p).unwrap();
        assert!(opts.is_default());
        let (today, chain) = (solve(&p).unwrap(), extended::solve(&inp, &opts).unwrap());
        assert_eq!(today.phases, chain.phases, "{p:?}");
        assert_relative_eq!(today.schedule.makespan, chain.schedule.makespan, max_relative = 1e-12);
        for (x, y) in today.loads.iter().zip(&chain.loads) {
            assert_relative_eq!(*x, *y, max_relative = 1e-12);
        }
        for (x, y) in today.by_phases.iter().zip(&chain.by_phases) {
            assert_eq!(x.makespan.is_some(), y.makespan.is_some());
            if let (Some(x), Some(y)) = (x.makespan, y.makespan) {
                assert_relative_eq!(x, y, max_relative = 1e-12);
            }
        }
    }
}

/// Every option at its "off" value is today's answer, bit for bit.
#[test]
fn options_at_their_off_values_change_nothing() {
    let base = params(2.0, 1e-4, 1e-7, 1e6);
    let today = solve(&base).unwrap();
    let off = [
        Params { ports: Some(4.0), ..base.clone() },
        Params { routing: Some(Routing::Circuit), ..base.clone() },
        Params { return_ratio: Some(0.0), ..base.clone() },
        Params { speeds: Some(vec![1.0]), ..base.clone() },
        Params { gamma: Some(1.0), ..base.clone() },
        Params { scattering: Some(Scattering::PetersSyska), ..base.clone() },
    ];
    for p in off {
        assert_eq!(solve(&p).unwrap(), today, "{p:?}");
    }
    // Equal speeds s are A / s: the same fractions, times over s.
    let fast = solve(&Params { speeds: Some(vec![2.0]), ..base.clone() }).unwrap();
    let half = solve(&Params { load: Load::new(1e-4, 1e-7, 0.5e-6, 1e6), ..base.clone() }).unwrap();
    assert_relative_eq!(fast.schedule.makespan, half.schedule.makespan, max_relative = 1e-12);
    // Results of a vanishing size, no start-up: returning them costs nothing.
    let free = params(2.0, 0.0, 1e-7, 1e6);
    let tiny = solve(&Params { return_ratio: Some(1e-12), ..free.clone() }).unwrap();
    assert_relative_eq!(tiny.schedule.makespan, solve(&free).unwrap().schedule.makespan, max_relative = 1e-9);
}

/// Every class computes until the same end (or, with results, until its
/// results may leave): the solved loads satisfy (1'') to 1e-12, and V is
/// computed.
#[test]
fn every_option_finishes_together_and_computes_v() {
    let base = params(2.0, 1e-4, 1e-7, 1e6);
    let variants = [
        Params { ports: Some(1.0), ..base.clone() },
        Params { ports: Some(2.0), ..base.clone() },
        Params { routing: Some(Routing::StoreAndForward), ..base.clone() },
        Params { speeds: Some(vec![1.0, 3.0, 0.5, 2.0]), ..base.clone() },
        Params { gamma: Some(1.5), ..base.clone() },
        Params { gamma: Some(3.0), ports: Some(1.0), ..base.clone() },
        Params { scattering: Some(Scattering::Wavefront), ..base.clone() },
    ];
    for p in variants {
        let out = solve(&p).unwrap();
        let ends: Vec<f64> = out.schedule.intervals.iter().filter(|i| i.kind == Kind::Compute).map(|i| i.end).collect();
        for e in &ends {
            assert_relative_eq!(*e, out.schedule.makespan, max_relative = 1e-12);
        }
        let total: f64 = out.layers.iter().map(|l| l.layer_load).sum();
        assert_relative_eq!(total, 1e6, max_relative = 1e-12);
        if p.gamma.is_some() {
            assert!(out.iterations.is_some_and(|n| (1..2200).contains(&n)), "{:?}", out.iterations);
        }
    }
}

/// Fig. 9: a transmitter computes as long as sending to, computing on and
/// receiving results from the next class, A a_(i-1) = d_i + A a_i + u_i;
/// the originator ends when the last results arrive.
#[test]
fn results_return_as_fig_9_says() {
    for ratio in [1e-3, 0.1, 1.0] {
        let p = Params { return_ratio: Some(ratio), ..params(2.0, 1e-4, 1e-7, 1e6) };
        let out = solve(&p).unwrap();
        assert!(out.schedule.intervals.iter().any(|i| i.kind == Kind::Result));
        for w in out.layers.windows(2) {
            let d = 1e-4 + 1e-7 * w[1].received;
            let u = 1e-4 + 1e-7 * ratio * w[1].received;
            assert_relative_eq!(1e-6 * w[0].load, d + 1e-6 * w[1].load + u, max_relative = 1e-12);
        }
        assert_relative_eq!(out.schedule.makespan, 1e-6 * out.loads[0], max_relative = 1e-12);
        assert!(out.schedule.makespan >= makespan(&params(2.0, 1e-4, 1e-7, 1e6)));
    }
}

/// With one phase, one port: the originator serves its four receivers one
/// after another, the sequential star, each message S + C x as under 4
/// ports (a transmitter with a single receiver at a time sends the same).
/// The star's equations solved directly: x_(j-1) A = S + C x_j + A x_j,
/// x_0 + x_1 + ... + x_4 = V.
#[test]
fn one_port_one_phase_is_the_sequential_star() {
    let (s, c, a, v) = (1e-4, 1e-7, 1e-6, 1e4);
    let p = Params { ports: Some(1.0), phases: Some(1.0), ..params(1.0, s, c, v) };
    let out = solve(&p).unwrap();
    // x_j = k_j x_4 + l_j from x_4 up, then the sum gives x_4.
    let (mut k, mut l) = ([0.0; 5], [0.0; 5]);
    (k[4], l[4]) = (1.0, 0.0);
    for j in (1..=4).rev() {
        k[j - 1] = k[j] * (1.0 + c / a);
        l[j - 1] = l[j] * (1.0 + c / a) + s / a;
    }
    let x4 = (v - l.iter().sum::<f64>()) / k.iter().sum::<f64>();
    for j in 0..=4 {
        assert_relative_eq!(out.loads[j], k[j] * x4 + l[j], max_relative = 1e-12);
    }
    // 4 ports, one phase: the same pair equation with all four at once.
    let four = solve(&Params { phases: Some(1.0), ..params(1.0, s, c, v) }).unwrap();
    assert_relative_eq!(a * four.loads[0], s + (c + a) * four.loads[1], max_relative = 1e-12);
}

/// Fewer ports never help, nor does store-and-forward routing.
#[test]
fn fewer_ports_and_store_and_forward_are_never_faster() {
    for p in grid() {
        let four = makespan(&p);
        let two = makespan(&Params { ports: Some(2.0), ..p.clone() });
        let one = makespan(&Params { ports: Some(1.0), ..p.clone() });
        assert!(one >= two * (1.0 - 1e-12) && two >= four * (1.0 - 1e-12), "{p:?}: {one} {two} {four}");
        let sf = makespan(&Params { routing: Some(Routing::StoreAndForward), ..p.clone() });
        assert!(sf >= four * (1.0 - 1e-12), "{p:?}: {sf} < {four}");
    }
}

/// Store-and-forward: phase q's messages pass 3f links (knight) or f
/// (cross), f = 5^(k - ceil(q/2)), and take that many times S + C v.
#[test]
fn store_and_forward_hops_follow_the_pattern() {
    let o = Options::of(&Params { routing: Some(Routing::StoreAndForward), ..params(3.0, 0.0, 1.0, 1.0) }, 3).unwrap();
    let hops: Vec<f64> = (1..=6).map(|q| o.hops(3, q)).collect();
    assert_eq!(hops, [75.0, 25.0, 15.0, 5.0, 3.0, 1.0]);
    let out = solve(&Params { routing: Some(Routing::StoreAndForward), ..params(2.0, 1e-4, 1e-7, 1e6) }).unwrap();
    let h = [0.0, 15.0, 5.0, 3.0, 1.0];
    for w in out.layers.windows(2) {
        let q = w[1].layer;
        assert_relative_eq!(w[1].activated - w[0].activated, h[q] * (1e-4 + 1e-7 * w[1].received), max_relative = 1e-12);
    }
}

/// Sec. 5: rounding to the granularity lengthens the schedule by at most
/// C g per message of the chain plus A g (2k tau + 1/sigma); messages are
/// whole granules.
#[test]
fn granularity_stays_within_the_papers_bound() {
    for p in grid() {
        for g in [1.0, 10.0, 100.0] {
            let q = Params { granularity: Some(g), ..p.clone() };
            let Ok(out) = solve(&q) else { continue };
            let r = out.granularity.clone().unwrap();
            assert!(r.deviation <= r.bound, "{q:?}: {r:?}");
            let n = out.phases as f64;
            let (c, a) = (p.load.costs.c, p.load.costs.a);
            assert_relative_eq!(r.bound, n * c * g + a * g, max_relative = 1e-12);
            for l in out.layers.iter().skip(1) {
                assert_eq!(l.received % g, 0.0, "{q:?}: {l:?}");
            }
        }
    }
    let e = solve(&Params { granularity: Some(1e9), ..params(2.0, 1e-4, 1e-7, 1e6) }).unwrap_err();
    assert_eq!((e.field.as_str(), e.code), ("granularity", crate::Code::Infeasible));
}

#[test]
fn bad_options_name_the_field() {
    let base = params(2.0, 1e-4, 1e-7, 1e6);
    let field = |p: Params| solve(&p).unwrap_err().field;
    assert_eq!(field(Params { ports: Some(3.0), ..base.clone() }), "ports");
    assert_eq!(field(Params { ports: Some(0.0), ..base.clone() }), "ports");
    assert_eq!(field(Params { ports: Some(1.5), ..base.clone() }), "ports");
    assert_eq!(field(Params { gamma: Some(0.5), ..base.clone() }), "gamma");
    assert_eq!(field(Params { gamma: Some(f64::NAN), ..base.clone() }), "gamma");
    assert_eq!(field(Params { return_ratio: Some(-1.0), ..base.clone() }), "return_ratio");
    assert_eq!(field(Params { granularity: Some(0.0), ..base.clone() }), "granularity");
    assert_eq!(field(Params { granularity: Some(1.0), gamma: Some(2.0), ..base.clone() }), "granularity");
    assert_eq!(field(Params { speeds: Some(vec![]), ..base.clone() }), "speeds");
    assert_eq!(field(Params { speeds: Some(vec![1.0; 6]), ..base.clone() }), "speeds");
    assert_eq!(field(Params { speeds: Some(vec![1.0, -1.0]), ..base.clone() }), "speeds[1]");
    let wave = Params { scattering: Some(Scattering::Wavefront), ..base.clone() };
    assert_eq!(field(Params { k: 5.0, ..wave.clone() }), "k");
    assert_eq!(field(Params { ports: Some(1.0), ..wave.clone() }), "ports");
    assert_eq!(field(Params { phases: Some(25.0), ..wave.clone() }), "phases");
    let free = Params { load: Load::new(0.0, 1e-8, 1e-6, 1e6), ..wave };
    assert_eq!(solve(&Params { phases: Some(24.0), ..free }).unwrap().phases, 24);
}

/// Extreme values and every combination of options: an answer that passed
/// the checker or an error naming a field, never a panic or a NaN.
#[test]
fn extremes_answer_or_name_a_field() {
    let mut n = 0;
    for k in [1.0, 3.0, 8.0] {
        for (s, c, a, v) in [(0.0, 0.0, 1e-30, 1e-30), (1e15, 1e15, 1e15, 1e15), (1e-4, 1e-7, 1e-6, 1e15), (0.0, 1e3, 1e-9, 1.0)] {
            for ports in [1.0, 2.0, 4.0] {
                for (ret, gamma, speeds) in [(0.0, 1.0, None), (1e6, 1.0, Some(vec![1e-30, 1e15])), (0.5, 3.0, None), (0.0, 2.0, Some(vec![2.0]))] {
                    for (routing, scattering) in [(Routing::Circuit, Scattering::PetersSyska), (Routing::StoreAndForward, Scattering::PetersSyska), (Routing::Circuit, Scattering::Wavefront)] {
                        let p = Params {
                            ports: Some(ports),
                            return_ratio: Some(ret),
                            gamma: Some(gamma),
                            speeds: speeds.clone(),
                            routing: Some(routing),
                            scattering: Some(scattering),
                            granularity: (ret == 0.0 && gamma == 1.0 && scattering == Scattering::PetersSyska).then_some(v / 1e3),
                            ..Params::new(k, Load::new(s, c, a, v))
                        };
                        match solve(&p) {
                            Ok(out) => assert!(out.schedule.makespan.is_finite() && out.speedup.is_finite(), "{p:?}"),
                            Err(e) => assert!(!e.field.is_empty() && e.code != crate::Code::Internal, "{p:?}: {e}"),
                        }
                        n += 1;
                    }
                }
            }
        }
    }
    assert_eq!(n, 3 * 4 * 3 * 4 * 3);
    for k in [1.0, 2.0] {
        for (s, c, a, v) in [(0.0, 0.0, 1e-30, 1e-30), (1e15, 1e15, 1e15, 1e15), (1e-4, 1e-7, 1e-6, 1e15), (0.0, 1e3, 1e-9, 1.0)] {
            for ports in [1.0, 2.0, 4.0] {
                let p = Params { ports: Some(ports), asynchronous: Some(true), speeds: Some(vec![1e-30, 1e15]), ..Params::new(k, Load::new(s, c, a, v)) };
                for p in [p.clone(), Params { speeds: None, routing: Some(Routing::StoreAndForward), ..p }] {
                    match solve(&p) {
                        Ok(out) => assert!(out.schedule.makespan.is_finite() && out.speedup.is_finite(), "{p:?}"),
                        Err(e) => assert!(!e.field.is_empty() && e.code != crate::Code::Internal, "{p:?}: {e}"),
                    }
                }
            }
        }
    }
}

/// Asynchronous sends (no phase barriers): with 4 ports they are Fig. 2's
/// synchronous phases; with 1 or 2 every node starts its sends earlier, so
/// never later than the synchronous slots, and fewer ports still never
/// help. Every processor finishes at the makespan.
#[test]
fn asynchronous_sends() {
    for p in grid().into_iter().filter(|p| p.k <= 2.0) {
        let run = |ports: f64, asynchronous: bool| solve(&Params { ports: Some(ports), asynchronous: Some(asynchronous), ..p.clone() }).unwrap();
        assert_relative_eq!(run(4.0, true).schedule.makespan, makespan(&p), max_relative = 1e-12);
        let (one, two) = (run(1.0, true), run(2.0, true));
        for (ports, out) in [(1.0, &one), (2.0, &two)] {
            let sync = run(ports, false);
            for (x, y) in out.by_phases.iter().zip(&sync.by_phases) {
                if let (Some(x), Some(y)) = (x.makespan, y.makespan) {
                    assert!(x <= y * (1.0 + 1e-12), "{p:?} ports {ports}, {} phases: {x} > {y}", sync.phases);
                }
            }
            for i in out.schedule.intervals.iter().filter(|i| i.kind == Kind::Compute) {
                assert_relative_eq!(i.end, out.schedule.makespan, max_relative = 1e-12);
            }
        }
        assert!(one.schedule.makespan >= two.schedule.makespan * (1.0 - 1e-12) && two.schedule.makespan >= makespan(&p) * (1.0 - 1e-12), "{p:?}");
    }
    let base = Params { asynchronous: Some(true), ports: Some(1.0), ..params(2.0, 1e-4, 1e-7, 1e6) };
    assert_eq!(solve(&Params { k: 3.0, ..base.clone() }).unwrap_err().field, "k");
    assert_eq!(solve(&Params { gamma: Some(2.0), ..base.clone() }).unwrap_err().field, "asynchronous");
    assert_eq!(solve(&Params { return_ratio: Some(0.1), ..base }).unwrap_err().field, "asynchronous");
}
