//! The numbers printed in the papers (tests/golden/papers.json), through
//! the public API exactly as the CLI and the page call it. Cases whose
//! `expect` keys are response fields are compared generically; the 004
//! cases with sweeps and derived quantities are in dlt-core's
//! nonlinear_golden test.

use serde_json::Value;

fn golden() -> Vec<Value> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/golden/papers.json");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let all: Value = serde_json::from_str(&text).unwrap();
    all["cases"].as_array().unwrap().clone()
}

fn solve(request: &Value) -> Value {
    let request = dlt_core::parse(request.clone()).unwrap_or_else(|e| panic!("{request}: {e}"));
    let response = dlt_core::solve(&request).unwrap_or_else(|e| panic!("{e}"));
    serde_json::to_value(&response).unwrap()
}

/// Compares a printed number or list with the computed one.
fn close(id: &str, key: &str, want: &Value, got: &Value, case: &Value) {
    match (want, got) {
        (Value::Array(w), Value::Array(g)) => {
            assert_eq!(w.len(), g.len(), "{id}.{key}: {want} vs {got}");
            for (w, g) in w.iter().zip(g) {
                close(id, key, w, g, case);
            }
        }
        // Some fields of a list's items (001 Table 1: each layer's processors).
        (Value::Object(w), Value::Object(g)) => {
            for (k, w) in w {
                let g = g.get(k).unwrap_or_else(|| panic!("{id}.{key}: computed {got} has no {k}"));
                close(id, &format!("{key}.{k}"), w, g, case);
            }
        }
        (Value::Number(w), Value::Number(g)) => {
            let (w, g) = (w.as_f64().unwrap(), g.as_f64().unwrap());
            let tol = match (case.get("rel_tol"), case.get("abs_tol")) {
                (_, Some(abs)) => abs.as_f64().unwrap(),
                (Some(rel), _) => rel.as_f64().unwrap() * w.abs(),
                _ => panic!("{id} states no tolerance"),
            };
            assert!((w - g).abs() <= tol, "{id}.{key}: paper {w}, computed {g} (tolerance {tol})");
        }
        _ => panic!("{id}.{key}: paper {want}, computed {got}"),
    }
}

/// Models whose golden cases arrive with later work, by model name; a case
/// of any other model must be checked here or in nonlinear_golden.
/// Cases checked by their own tests below.
const LATER: &[(&str, &str)] = &[("isoefficiency", "table1_floor_at_a_few_m")];

/// 002 Figs. 3b and 3c run a linearly computed distribution on the
/// processors of Fig. 3a: the request names that hierarchy in `real_pieces`,
/// taken from the 002-example case.
fn with_real_pieces(case: &Value, cases: &[Value]) -> Value {
    let mut request = case["request"].clone();
    if case["expect"].get("real_makespan_under_hierarchy").is_some() {
        let fig3a = cases.iter().find(|c| c["id"] == "002-example").expect("002-example case");
        let pieces: Vec<Value> = fig3a["request"]["processors"].as_array().unwrap().iter().map(|p| p["pieces"].clone()).collect();
        request["real_pieces"] = Value::Array(pieces);
    }
    request
}

#[test]
fn printed_numbers_of_000_001_and_002() {
    let mut checked = 0;
    let cases = golden();
    for case in &cases {
        let id = case["id"].as_str().unwrap();
        let model = case["request"]["model"].as_str().unwrap();
        if model.starts_with("nonlinear") || LATER.iter().any(|(m, _)| *m == model) {
            continue;
        }
        let got = solve(&with_real_pieces(case, &cases));
        for (key, want) in case["expect"].as_object().unwrap() {
            let computed = got.get(key).unwrap_or_else(|| panic!("{id}: response has no {key}: {got}"));
            close(id, key, want, computed, case);
        }
        checked += 1;
    }
    // 000-star-m3-D1, -D1.5, 000-dstar-star, 001-table1, 001-example,
    // 002-example, -classical-core, -classical-ooc and 002-chunk-fig10.
    assert!(checked >= 9, "only {checked} closed-form cases were checked");
}

/// 003 Table 1: E_max(m) at n = 20 must meet the paper's (Gurobi, 300 s,
/// unproven) within its rounding, here at a few m; dlt-bench runs them all.
#[test]
fn table1_floor_at_a_few_m() {
    let case = golden().into_iter().find(|c| c["id"] == "003-table1").expect("003-table1 case");
    let (ms, floor) = (case["expect"]["m"].as_array().unwrap(), case["expect"]["E_max"].as_array().unwrap());
    for (m, e) in ms.iter().zip(floor).filter(|(m, _)| [2, 10, 20].contains(&m.as_u64().unwrap())) {
        let mut request = case["request"].clone();
        request["model"] = Value::from("isoefficiency_map");
        request["m_range"] = serde_json::json!([m, m]);
        request["V_range"] = serde_json::json!([5000, 200000]);
        request["lp_budget"] = Value::from(100);
        let got = solve(&request);
        let (e_max, paper) = (got["E_max"][0].as_f64().unwrap(), e.as_f64().unwrap());
        assert!(e_max >= paper - 0.05, "m = {m}: E_max {e_max} below the paper's {paper}");
    }
}
