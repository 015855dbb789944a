//! hetero_star through the public API, as the CLI and the page call it:
//! the worked example, numbers derived by hand, the errors' fields, the
//! export, and the largest requests answered without a hang.

use serde_json::{json, Value};

fn solve(request: Value) -> Value {
    let request = dlt_core::parse(request).unwrap_or_else(|e| panic!("{e}"));
    serde_json::to_value(dlt_core::solve(&request).unwrap_or_else(|e| panic!("{e}"))).unwrap()
}

fn error(request: Value) -> dlt_core::Error {
    match dlt_core::parse(request) {
        Err(e) => e,
        Ok(r) => dlt_core::solve(&r).expect_err("an error"),
    }
}

fn number(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

fn close(got: &Value, want: f64) {
    let got = number(got);
    assert!((got - want).abs() <= 1e-9 * want.abs(), "{got} vs {want}");
}

/// Two workers, S = 0, V = 1, (C, A) = (1, 2) and (2, 1): by C, worker 1
/// first, alpha_2 = A_1 alpha_1 / (C_2 + A_2) = 2 alpha_1 / 3, so alpha_1 =
/// 3/5, alpha_2 = 2/5 and T = (C_1 + A_1) alpha_1 = 9/5; in the other order
/// alpha_1 = alpha_2 / 3, alpha_2 = 3/4 and T = (C_2 + A_2) 3/4 = 9/4.
#[test]
fn two_linear_workers_by_hand() {
    let processors = json!([{"S": 0, "C": 2, "A": 1}, {"S": 0, "C": 1, "A": 2}]);
    let best = solve(json!({"model": "hetero_star", "V": 1, "processors": processors, "order": "best"}));
    close(&best["makespan"], 1.8);
    assert_eq!(best["sequence"], json!([2, 1]));
    close(&best["loads"][0], 0.4);
    close(&best["loads"][1], 0.6);
    assert_eq!(best["proven"], true);
    let given = solve(json!({"model": "hetero_star", "V": 1, "processors": processors, "order": "given"}));
    close(&given["makespan"], 2.25);
    let by_c = given["orders"].as_array().unwrap().iter().find(|o| o["order"] == "by_C").unwrap();
    close(&by_c["makespan"], 1.8);
}

/// The textbook case (Bharadwaj, Ghose, Mani, Robertazzi 1996, the
/// single-level tree with sequential distribution): m identical workers,
/// no start-up, all finishing together, so alpha_(i+1) = alpha_i A / (C + A),
/// a geometric series of ratio q = A / (C + A): alpha_1 = V (1 - q) / (1 - q^m)
/// and T = (C + A) alpha_1. m = 5, C = 1, A = 4, V = 1: q = 0.8,
/// alpha_1 = 0.2 / (1 - 0.8^5) = 0.297477..., T = 1.487387...; the speedup
/// A V / T tends to 1 + A / C = 5 as m grows.
#[test]
fn identical_linear_workers_follow_the_geometric_series() {
    for m in [1usize, 2, 5, 12] {
        let processors: Vec<Value> = (0..m).map(|_| json!({"S": 0, "C": 1, "A": 4})).collect();
        let out = solve(json!({"model": "hetero_star", "V": 1, "processors": processors, "order": "best"}));
        let q: f64 = 0.8;
        let first = (1.0 - q) / (1.0 - q.powi(m as i32));
        close(&out["makespan"], 5.0 * first);
        assert_eq!(out["proven"], true);
        let mut loads: Vec<f64> = out["loads"].as_array().unwrap().iter().map(number).collect();
        loads.sort_by(|a, b| b.total_cmp(a));
        for (i, &x) in loads.iter().enumerate() {
            assert!((x - first * q.powi(i as i32)).abs() <= 1e-9, "m = {m}: alpha_{} = {x}", i + 1);
        }
        assert!(4.0 / number(&out["makespan"]) < 5.0);
    }
}

/// Two identical workers S = 1, C = 1, A = 1, V = 3: the first finishes at
/// 1 + 2 alpha_1, the second at (1 + alpha_1) + 1 + 2 alpha_2, so alpha_1 =
/// 1 + 2 alpha_2, alpha_2 = 2/3, alpha_1 = 7/3, T = 17/3 (one worker alone:
/// 1 + 2 * 3 = 7). With S = 10 the second start-up is not worth it:
/// 10 + 2 * 3 = 16 against alpha_2 = (alpha_1 - 10) / 2 < 0.
#[test]
fn start_ups_by_hand() {
    let request = |s: f64| json!({"model": "hetero_star", "V": 3, "processors": [{"S": s, "C": 1, "A": 1}, {"S": s, "C": 1, "A": 1}], "order": "given"});
    let two = solve(request(1.0));
    close(&two["makespan"], 17.0 / 3.0);
    close(&two["loads"][1], 2.0 / 3.0);
    let one = solve(request(10.0));
    close(&one["makespan"], 16.0);
    assert_eq!(one["sequence"], json!([1]));
    assert_eq!(one["loads"][1], 0.0);
    assert!(one["warnings"][0].as_str().unwrap().contains("1 of 2 workers get no load"));
}

/// The worked example is proven, its loads sum to V, and with results
/// returned the originator's port is shared (half duplex).
#[test]
fn the_example_and_its_return() {
    let example: Value = serde_json::from_str(include_str!("../examples/hetero_star.json")).unwrap();
    let out = solve(example.clone());
    assert_eq!(out["proven"], true);
    let total: f64 = out["loads"].as_array().unwrap().iter().map(number).sum();
    assert!((total - 100.0).abs() < 1e-9);
    let mut with = example;
    with["return"] = json!({"ratio": 0.5, "policy": "LIFO"});
    let back = solve(with);
    assert_eq!(back["processors"][0]["half_duplex"], true);
    assert!(back["schedule"].as_array().unwrap().iter().any(|i| i["kind"] == "result"));
    assert!(number(&back["makespan"]) > number(&out["makespan"]));
    assert_eq!(back["proven"], true, "5 workers: every sequence's LP is solved");
}

#[test]
fn errors_name_the_field_and_the_range() {
    let base = json!({"model": "hetero_star", "V": 1, "processors": [{"S": 0, "C": 1, "A": 1}, {"S": 0, "C": 1, "A": 1}, {"S": 0, "C": 1, "A": 1}, {"S": 0, "C": 1, "A": 0}], "order": "best"});
    let e = error(base.clone());
    assert_eq!(e.field, "processors[3].A");
    assert!(e.message.contains("from 1e-30"), "{}", e.message);
    for (key, value, field) in [
        ("order", json!("fastest"), "order"),
        ("return", json!({"ratio": 1, "policy": "random"}), "return.policy"),
        ("return", json!({"ratio": -1, "policy": "FIFO"}), "return.ratio"),
        ("node_budget", json!(0.5), "node_budget"),
        ("processors", json!([]), "processors"),
    ] {
        let mut r = base.clone();
        r["processors"][3]["A"] = json!(1);
        r[key] = value;
        let e = error(r);
        assert_eq!(e.field, field, "{key}: {}", e.message);
    }
    let mut r = base;
    r["processors"] = json!(vec![json!({"S": 0, "C": 1, "A": 1}); 1001]);
    assert!(error(r).message.contains("from 1 to 1000"));
}

/// `dlt export` writes the order's MIP with its use variables.
#[test]
fn the_export_is_the_orders_mip() {
    let request = dlt_core::parse(serde_json::from_str::<Value>(include_str!("../examples/hetero_star.json")).unwrap()).unwrap();
    let lp = dlt_core::export(&request, dlt_core::LpFormat::Lp).unwrap();
    assert!(lp.contains("fixed-order star MIP") && lp.contains("y_5") && lp.contains("Binar"), "{}", &lp[..300]);
}

/// 1000 workers, order best, with and without return: an answer within a
/// stated gap, its schedule checked, not a hang.
#[test]
fn a_thousand_workers_are_answered() {
    let processors: Vec<Value> = (0..1000).map(|i| json!({"S": (i % 7) as f64 * 0.3, "C": 0.01 + (i % 13) as f64 * 0.05, "A": 0.5 + (i % 11) as f64})).collect();
    for ret in [Value::Null, json!({"ratio": 0.5, "policy": "FIFO"})] {
        let mut r = json!({"model": "hetero_star", "V": 1000, "processors": processors, "order": "best"});
        if !ret.is_null() {
            r["return"] = ret;
        }
        let out = solve(r);
        let gap = number(&out["gap"]);
        assert!((0.0..1.0).contains(&gap) && number(&out["lower_bound"]) <= number(&out["makespan"]));
    }
}
