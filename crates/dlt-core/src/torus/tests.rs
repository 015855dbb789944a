//! The torus model's tests: system (1), Lemma 1, validation.

use super::*;
use approx::{assert_abs_diff_eq, assert_relative_eq, relative_eq};
use crate::schedule::Kind;

fn params(k: f64, s: f64, c: f64, a: f64, v: f64) -> Params {
    Params::new(k, Load::new(s, c, a, v))
}

/// System (1) written out row by row and solved by Gaussian elimination,
/// independently of recurrence (2)-(3).
#[allow(clippy::needless_range_loop)]
fn direct(n: usize, alpha: f64, c: f64, a: f64) -> Vec<f64> {
    let mut m = vec![vec![0.0; n + 2]; n + 1];
    for i in 0..n {
        // a_i A = α + C v_{i+1} + A a_{i+1}, v_{i+1} = a_{i+1} + sum_j 4*5^(j-1) a_{i+1+j}.
        m[i][i] = a;
        m[i][i + 1] -= c + a;
        for j in 1..n - i {
            m[i][i + 1 + j] -= c * 4.0 * libm::pow(5.0, (j - 1) as f64);
        }
        m[i][n + 1] = alpha;
    }
    for i in 0..=n {
        m[n][i] = layer_size(i);
    }
    m[n][n + 1] = 1.0;
    for col in 0..=n {
        let piv = (col..=n).max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs())).unwrap();
        m.swap(col, piv);
        for r in 0..=n {
            if r != col {
                let f = m[r][col] / m[col][col];
                for c2 in col..=n + 1 {
                    m[r][c2] -= f * m[col][c2];
                }
            }
        }
    }
    (0..=n).map(|i| m[i][n + 1] / m[i][i]).collect()
}

#[test]
fn recurrence_matches_system_1() {
    for (n, alpha, c, a) in [(1, 0.0, 0.1, 1.0), (4, 1e-3, 0.05, 2.0), (6, 1e-4, 1e-1, 1.0), (8, 1e-6, 1e-3, 1.0)] {
        let r = fractions(n, alpha, c, a);
        let d = direct(n, alpha, c, a);
        for (x, y) in r.iter().zip(&d) {
            // Below 1e-12 the tolerance is the absolute 1e-21.
            assert!(relative_eq!(*x, *y, epsilon = 1e-21, max_relative = 1e-9), "N={n}: {r:?} vs {d:?}");
        }
    }
}

#[test]
fn all_layers_finish_together_and_lemma_1_holds() {
    // Fig. 7's parameters (α = 1e-4 s, τ = 1e-7 s, σ = 1e6) over V.
    for k in 1..=4 {
        for v in [1e2, 1e4, 1e6, 1e8] {
            let out = solve(&params(k as f64, 1e-4, 1e-7, 1e-6, v)).unwrap();
            for i in out.schedule.intervals.iter().filter(|i| i.kind == Kind::Compute) {
                assert_relative_eq!(i.end, out.schedule.makespan, epsilon = 0.0, max_relative = 1e-12);
            }
            let total: f64 = out.layers.iter().map(|l| l.layer_load).sum();
            assert_relative_eq!(total, v, max_relative = 1e-9);
            // More feasible phases never lengthen the schedule.
            let feasible: Vec<f64> = out.by_phases.iter().filter_map(|o| o.makespan).collect();
            assert!(feasible.windows(2).all(|w| w[1] <= w[0] * (1.0 + 1e-12)), "k={k} V={v}: {feasible:?}");
            assert_eq!(out.by_phases[out.phases].makespan, Some(out.schedule.makespan));
            assert!(out.by_phases[out.phases + 1..].iter().all(|o| o.makespan.is_none()));
        }
    }
}

#[test]
fn small_loads_use_few_phases_big_loads_all() {
    let small = solve(&params(3.0, 1e-4, 1e-7, 1e-6, 10.0)).unwrap();
    let big = solve(&params(3.0, 1e-4, 1e-7, 1e-6, 1e9)).unwrap();
    assert!(small.phases < big.phases);
    assert_eq!(big.phases, 6);
    assert!(!small.warnings.is_empty());
    // No start-up, one phase: a_0 A = C a_1 + A a_1, a_0 + 4 a_1 = 1.
    let one = solve(&Params { phases: Some(1.0), ..params(1.0, 0.0, 1.0, 1.0, 1.0) }).unwrap();
    assert_abs_diff_eq!(one.loads[0], 2.0 / 6.0, epsilon = 1e-12);
    assert_abs_diff_eq!(one.loads[1], 1.0 / 6.0, epsilon = 1e-12);
    assert_abs_diff_eq!(one.speedup, 3.0, epsilon = 1e-12);
}

/// 001 with no start-up and slow links (C/A >= 1000): the deepest
/// layer's load is nearly zero and activated at the makespan; its
/// schedule still passes the checker (an internal error before).
#[test]
fn slow_links_without_start_up() {
    let out = solve(&params(2.0, 0.0, 1e-4, 1e-8, 1e6)).unwrap();
    assert_eq!(out.phases, 4);
    assert_abs_diff_eq!(out.schedule.makespan, 0.0099960016, epsilon = 1e-10);
    for k in 1..=4 {
        for ratio in [1e2, 1e3, 1e4, 1e5, 1e6] {
            for v in [1.0, 1e3, 1e6, 1e9] {
                solve(&params(k as f64, 0.0, 1e-8 * ratio, 1e-8, v)).unwrap_or_else(|e| panic!("k={k} C/A={ratio} V={v}: {e}"));
            }
        }
    }
}

#[test]
fn bad_input_names_the_field() {
    assert_eq!(solve(&params(0.0, 0.0, 1.0, 1.0, 1.0)).unwrap_err().field, "k");
    assert_eq!(solve(&params(9.0, 0.0, 1.0, 1.0, 1.0)).unwrap_err().field, "k");
    assert_eq!(solve(&params(1.0, -1.0, 1.0, 1.0, 1.0)).unwrap_err().field, "S");
    assert_eq!(solve(&params(1.0, 0.0, 1.0, 0.0, 1.0)).unwrap_err().field, "A");
    assert_eq!(solve(&params(1.0, 0.0, 1.0, 1.0, f64::NAN)).unwrap_err().field, "V");
    let e = solve(&Params { phases: Some(6.0), ..params(3.0, 1e-4, 1e-7, 1e-6, 10.0) }).unwrap_err();
    assert_eq!((e.field.as_str(), e.code), ("phases", crate::Code::Infeasible));
}

#[test]
fn k_8_solves_without_a_map() {
    let out = solve(&params(8.0, 1e-9, 1e-12, 1e-6, 1e15)).unwrap();
    assert!(out.activation.is_none());
    assert_eq!(out.layers.last().unwrap().processors, 4.0 * libm::pow(5.0, (out.phases - 1) as f64));
}
