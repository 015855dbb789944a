use super::*;
use crate::isoefficiency::sequence::{self, Tau};
use crate::isoefficiency::Instance;
use crate::lp::{self, verify, Auto, Microlp};
use proptest::prelude::*;

/// The dense answer: verified against the model and equal in objective to
/// microlp's within the verifier's tolerance.
fn agrees(model: &Model) -> Solution {
    let dense = Dense.solve(model).unwrap_or_else(|f| panic!("the dense simplex failed: {f:?}"));
    verify(model, &dense).unwrap_or_else(|e| panic!("the dense answer fails the verifier: {e}"));
    let reference = Microlp.solve(model).unwrap();
    let (a, b) = (dense.objective, model.cost(&reference.values));
    assert!((a - b).abs() <= 1e-9 * b.abs().max(1.0), "dense {a} against microlp {b}");
    dense
}

#[test]
fn the_tiny_lp() {
    // min -x - 2y s.t. x + y <= 4, x - y >= -2, 0 <= x, y <= 3: at (1, 3).
    let mut m = Model::default();
    let x = m.var("x", 0.0, 10.0, -1.0);
    let y = m.var("y", 0.0, 3.0, -2.0);
    m.row("cap", vec![(x, 1.0), (y, 1.0)], Sense::Le, 4.0);
    m.row("gap", vec![(x, 1.0), (y, -1.0)], Sense::Ge, -2.0);
    let sol = agrees(&m);
    assert!((sol.get(x) - 1.0).abs() < 1e-12 && (sol.get(y) - 3.0).abs() < 1e-12, "{sol:?}");
}

#[test]
fn gives_up_where_microlp_must_judge() {
    // Infeasible: x >= 2 and x <= 1.
    let mut m = Model::default();
    let x = m.var("x", 0.0, f64::INFINITY, 1.0);
    m.row("low", vec![(x, 1.0)], Sense::Ge, 2.0);
    m.row("high", vec![(x, 1.0)], Sense::Le, 1.0);
    assert!(Dense.solve(&m).is_err());
    assert_eq!(Auto.solve(&m), Err(Failure::Infeasible));
    // A cost pointing to an infinite bound: no dual feasible start.
    let mut m = Model::default();
    let x = m.var("x", f64::NEG_INFINITY, 5.0, 1.0);
    m.row("r", vec![(x, 1.0)], Sense::Ge, -3.0);
    assert!(Dense.solve(&m).is_err());
    assert!((lp::solve(&Auto, &m, "t").unwrap().get(x) + 3.0).abs() < 1e-12);
}

/// 003's per-sequence LPs over Table 1's instances: the LPs the dense
/// simplex exists for.
#[test]
fn isoefficiency_sequences() {
    for (m, v) in [(2, 134485.0), (5, 119663.0), (10, 81394.0), (20, 102240.0), (3, 2000.0), (7, 500000.0)] {
        let inst = Instance { m, n: 20, v, s: 25.4, o: 0.075, c: 0.005, a1: 0.109, a2: 4.132, b2: -27109.0 };
        for shift in 0..5 {
            let seq: Vec<u8> = (0..20).map(|j| ((j * 7 + shift * (j / 3)) % m) as u8).collect();
            for tau in [Tau::PerPiece, Tau::Variable] {
                agrees(&sequence::model(&inst, &seq, tau).0);
            }
            // A prefix: the relaxation proof.rs bounds with.
            agrees(&sequence::model(&inst, &seq[..8], Tau::Variable).0);
        }
    }
}

/// A random LP of the models' kind, feasible by construction: costs of
/// at least 0 on variables from 0 (some bounded above), rows of each
/// sense through a point x0 with some slack.
fn random_lp() -> impl Strategy<Value = Model> {
    (2usize..12, 1usize..16).prop_flat_map(|(n, m)| {
        let x0 = prop::collection::vec(0.0..5.0f64, n);
        let caps = prop::collection::vec(prop::option::weighted(0.3, 0.0..3.0f64), n);
        let costs = prop::collection::vec(prop_oneof![Just(0.0), 0.0..2.0f64], n);
        let rows = prop::collection::vec((prop::collection::vec(prop::option::weighted(0.5, -3.0..3.0f64), n), 0u8..3, 0.0..2.0f64), m);
        (x0, caps, costs, rows).prop_map(|(x0, caps, costs, rows)| {
            let mut model = Model::default();
            let vars: Vec<_> = (0..x0.len()).map(|j| model.var(alloc::format!("x{j}"), 0.0, caps[j].map_or(f64::INFINITY, |c| x0[j] + c), costs[j])).collect();
            for (i, (coefs, sense, slack)) in rows.into_iter().enumerate() {
                let terms: Vec<_> = coefs.iter().zip(&vars).filter_map(|(a, &v)| a.map(|a| (v, a))).collect();
                let at: f64 = terms.iter().map(|&(v, a)| a * x0[v.0]).sum();
                let (sense, rhs) = match sense {
                    0 => (Sense::Le, at + slack),
                    1 => (Sense::Ge, at - slack),
                    _ => (Sense::Eq, at),
                };
                model.row(alloc::format!("r{i}"), terms, sense, rhs);
            }
            model
        })
    })
}

proptest! {
    #![proptest_config(crate::cases(500))]

    #[test]
    fn random_lps_agree_with_microlp(model in random_lp()) {
        agrees(&model);
    }
}

proptest! {
    #![proptest_config(crate::cases(300))]

    /// Rows added to a kept LP (`Warm`, a cutting-plane loop's rounds)
    /// give the optimum of the LP with all of them solved cold.
    #[test]
    fn rows_added_to_a_kept_lp(model in random_lp(), split in 0.0..1.0f64) {
        let at = (model.rows.len() as f64 * split) as usize;
        let mut first = model.clone();
        let rest = first.rows.split_off(at);
        let (mut warm, _) = lp::Warm::new(first, "test").unwrap();
        let sol = warm.add(rest, "test").unwrap();
        let cold = lp::solve(&Microlp, &model, "test").unwrap();
        prop_assert!((sol.objective - cold.objective).abs() <= 1e-9 * cold.objective.abs().max(1.0), "{} against {}", sol.objective, cold.objective);
    }
}

/// A kept LP that outgrows the dense simplex goes on in microlp.
#[test]
fn a_kept_lp_outgrowing_the_dense_simplex() {
    let inst = Instance { m: 4, n: 20, v: 100000.0, s: 25.4, o: 0.075, c: 0.005, a1: 0.109, a2: 4.132, b2: -27109.0 };
    let seq: Vec<u8> = (0..20).map(|j| (j % 4) as u8).collect();
    let model = sequence::model(&inst, &seq, Tau::Variable).0;
    assert!(model.rows.len() <= lp::DENSE_ROWS);
    let mut first = model.clone();
    let rest = first.rows.split_off(model.rows.len() / 2);
    let (mut warm, _) = lp::Warm::new(first, "test").unwrap();
    let mut sol = warm.add(rest, "test").unwrap();
    // Rows that hold already, copies of the model's, past DENSE_ROWS.
    let copies: Vec<Row> = model.rows.iter().cycle().take(lp::DENSE_ROWS).cloned().collect();
    let again = warm.add(copies, "test").unwrap();
    assert!((again.objective - sol.objective).abs() <= 1e-9 * sol.objective.abs());
    sol = again;
    let cold = lp::solve(&Microlp, &model, "test").unwrap();
    assert!((sol.objective - cold.objective).abs() <= 1e-9 * cold.objective.abs(), "{} against {}", sol.objective, cold.objective);
    assert!(warm.model().rows.len() > lp::DENSE_ROWS);
}

/// Bound flipping: a load row over boxed chunks (each in [0, 1], 40 of
/// them summing to 25.5) and a makespan row weighing them, as the trees'
/// cut LPs are. The chunks the load row passes move to their upper bounds
/// within one pivot, where each took a pivot of its own (the cut LP of
/// 000 Sec. 4.2's tree at n = 10: 84 iterations before, 5 with flips).
#[test]
fn boxed_chunks_fill_by_bound_flips() {
    for cheap_first in [true, false] {
        let mut m = Model::default();
        let t = m.var("T", 0.0, f64::INFINITY, 1.0);
        let x: Vec<lp::Var> = (0..40).map(|j| m.var(alloc::format!("x{j}"), 0.0, 1.0, 0.0)).collect();
        m.row("load", x.iter().map(|&v| (v, 1.0)).collect(), Sense::Eq, 25.5);
        let weight = |j: usize| if cheap_first { 1.0 + j as f64 } else { 40.0 - j as f64 };
        m.row("makespan", core::iter::once((t, 1.0)).chain(x.iter().enumerate().map(|(j, &v)| (v, -weight(j)))).collect(), Sense::Ge, 0.0);
        let sol = agrees(&m);
        // The 25 cheapest full, half of the next: T = 1 + ... + 25 + 13.
        assert!((sol.objective - (325.0 + 13.0)).abs() < 1e-9, "{sol:?}");
        assert!(sol.iterations <= 4, "{} iterations", sol.iterations);
    }
}
