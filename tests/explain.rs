//! Explain mode against the answer: for every LP model's worked example the
//! program explain mode solves again ends at the makespan `solve` returns
//! (found by the model's structure, not that LP), every row it lists holds
//! at the values it shows, and the rows that decide the optimum are there.

use dlt_core::explain::{Explanation, ExplainedRow};
use dlt_core::{explain, parse, solve, MODELS};
use serde_json::Value;

fn request(text: &str) -> dlt_core::Request {
    parse(&mut serde_json::Deserializer::from_str(text)).unwrap()
}

fn value(e: &Explanation, name: &str) -> Option<f64> {
    e.steps.iter().flat_map(|s| &s.values).find(|v| v.name == name).map(|v| v.value)
}

fn holds(row: &ExplainedRow) -> bool {
    let tol = 1e-9 * row.rhs.abs().max(row.lhs.abs()).max(1.0);
    match row.sense {
        "≤" => row.lhs <= row.rhs + tol,
        "≥" => row.lhs >= row.rhs - tol,
        _ => (row.lhs - row.rhs).abs() <= tol,
    }
}

#[test]
fn the_explained_program_ends_at_the_answer() {
    let mut explained = 0;
    for about in MODELS.iter().filter(|m| m.lp) {
        let req = request(about.example);
        let e = explain(&req).unwrap();
        assert!(e.steps[0].title.starts_with("The program"), "{}: {:?}", about.name, e.steps[0].title);
        let Some(cmax) = value(&e, "Cmax") else {
            // A MIP (isoefficiency): the program is named, the search explained elsewhere.
            assert!(e.steps[0].text.contains("MIP"), "{}: no optimum step and not a MIP", about.name);
            continue;
        };
        let answer: Value = serde_json::to_value(solve(&req).unwrap()).unwrap();
        let makespan = answer["makespan"].as_f64().unwrap();
        assert!((cmax - makespan).abs() <= 1e-9 * makespan, "{}: explained {cmax}, answered {makespan}", about.name);
        let rows: Vec<&ExplainedRow> = e.steps.iter().flat_map(|s| &s.rows).collect();
        assert!(rows.iter().all(|r| holds(r)), "{}: a listed row does not hold", about.name);
        // Something is tight: the optimum is decided by its rows.
        assert!(rows.iter().any(|r| r.tight), "{}: no tight row", about.name);
        assert!(rows.iter().all(|r| r.text.contains("[= ")), "{}: a row without its values", about.name);
        explained += 1;
    }
    assert!(explained >= 4, "star, tree, binomial and memory are explained: {explained}");
}

#[test]
fn a_program_beyond_the_teaching_size_is_named_not_listed() {
    let e = explain(&request(r#"{"model": "star", "m": 100, "S": 1e-3, "C": 1e-6, "A": 1e-3, "V": 1e6, "D": 1e3, "n": 20}"#)).unwrap();
    assert_eq!(e.steps.len(), 1);
    assert!(e.steps[0].text.contains("up to 2000 variables"), "{}", e.steps[0].text);
}

#[test]
fn bad_input_is_refused_as_by_solve() {
    let req = r#"{"model": "star", "m": 10, "S": 1e-3, "C": 1e-6, "A": 1e-3, "V": 1e308, "D": 1e4}"#;
    let e = explain(&request(req)).unwrap_err();
    assert_eq!((e.field.as_str(), e.message.as_str()), ("V", "V must be from 1e-30 to 1e15, got 1e308"));
}
