//! Explain mode against the answer: for every LP model's worked example the
//! program explain mode solves again ends at the makespan `solve` returns
//! (found by the model's structure, not that LP), every row it lists holds
//! at the values it shows, and the rows that decide the optimum are there.

use dlt_core::explain::{Explanation, ExplainedRow};
use dlt_core::{explain, solve, MODELS};
use dlt_tests::request;
use serde_json::Value;

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

/// The equation numbers "(10)-(12), (20)-(22)" names: 10, 11, 12, 20, 21, 22.
fn numbers(at: &str) -> Vec<u32> {
    let mut out = Vec::new();
    for part in at.split(", ") {
        let ends: Vec<u32> = part.split('-').map(|x| x.trim_matches(|c| c == '(' || c == ')').parse().unwrap_or_else(|_| panic!("{at:?}"))).collect();
        out.extend(ends[0]..=*ends.last().unwrap());
    }
    out
}

/// Every family of rows of every LP variant is labelled with equations of
/// its own program in its own paper: a number outside the program (a
/// family labelled from another variant's LP) or a family the table does
/// not name (labelled with the whole program) fails.
#[test]
fn every_family_of_rows_names_its_equations() {
    let tree = |order: &str, buffers: u8| {
        format!(r#"{{"model": "tree", "p": 2, "h": 3, "S": 1e-3, "C": 1e-6, "A": 1e-3, "V": 1e3, "D": 100, "order": "{order}", "buffers": {buffers}}}"#)
    };
    let binomial = r#"{"model": "binomial", "p": 2, "h": 3, "S": 1e-3, "C": 1e-6, "A": 1e-3, "V": 1e3, "D": 100, "order": "NLF"}"#;
    let mut requests: Vec<String> = MODELS.iter().filter(|m| m.lp).map(|m| m.example.to_string()).collect();
    requests.extend([tree("NLF", 1), tree("NLF", 2), tree("LLF", 1), tree("LLF", 2), binomial.to_string()]);
    let mut labelled = Vec::new();
    for text in &requests {
        let e = explain(&request(text)).unwrap();
        let program = e.steps.iter().find(|s| s.title.starts_with("The program")).unwrap();
        let paper = &MODELS.iter().find(|m| text.contains(&format!(r#""model": "{}""#, m.name))).unwrap().summary[..3];
        let within = numbers(&program.at);
        for s in e.steps.iter().filter(|s| s.title.starts_with("Rows")) {
            assert_eq!(s.paper, paper, "{}", s.title);
            assert_ne!(s.at, program.at, "{}: a family without its equation in {text}", s.title);
            assert!(numbers(&s.at).iter().all(|n| within.contains(n)), "{}: {} outside the program {}", s.title, s.at, program.at);
            assert!(s.title.contains(&s.at) && s.source.contains(&s.at), "{}: {:?}", s.title, s.source);
            labelled.push(s.at.clone());
        }
    }
    // The four tree LPs' store-and-forward rows are four different equations.
    for at in ["(6)", "(13)", "(20)", "(23)", "(28)-(29)", "(34)-(35)", "(1)-(3)"] {
        assert!(labelled.iter().any(|l| l == at), "no family labelled {at}: {labelled:?}");
    }
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
