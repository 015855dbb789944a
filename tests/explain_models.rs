//! Explain mode of the models without an LP to list (torus, nonlinear,
//! buffer_dstar, chunk_size, lb_layer, multi_installment) and of the
//! isoefficiency search: for each worked example
//! and each paper's own example, the explanation's numbers are the answer's.

use dlt_core::explain::{Explanation, Step};
use dlt_core::{explain, solve, MODELS};
use dlt_tests::request;
use serde_json::Value;

fn example(name: &str) -> String {
    MODELS.iter().find(|m| m.name == name).unwrap().example.to_string()
}

/// The request of a case of tests/golden/papers.json.
fn paper(id: &str) -> String {
    let golden: Value = serde_json::from_str(include_str!("golden/papers.json")).unwrap();
    let case = golden["cases"].as_array().unwrap().iter().find(|c| c["id"] == id).unwrap();
    case["request"].to_string()
}

/// The explanation and the answer of one request.
fn both(text: &str) -> (Explanation, Value) {
    let req = request(text);
    (explain(&req).unwrap(), serde_json::to_value(solve(&req).unwrap()).unwrap())
}

fn value(step: &Step, name: &str) -> f64 {
    step.values.iter().find(|v| v.name == name).unwrap_or_else(|| panic!("{}: no value {name}", step.title)).value
}

fn titled<'a>(e: &'a Explanation, prefix: &str) -> Vec<&'a Step> {
    e.steps.iter().filter(|s| s.title.starts_with(prefix)).collect()
}

fn close(x: f64, y: f64) -> bool {
    (x - y).abs() <= 1e-12 * x.abs().max(y.abs()).max(1e-300)
}

fn sourced(e: &Explanation, paper: &str) {
    assert!(!e.steps.is_empty());
    for s in &e.steps {
        assert!(s.source.starts_with(paper) || s.source.contains(paper), "{}: source {:?}", s.title, s.source);
        assert!(!s.text.is_empty(), "{}: no text", s.title);
    }
}

fn check_torus(text: &str) {
    let (e, answer) = both(text);
    sourced(&e, "001");
    let phases = titled(&e, "Phase ");
    assert_eq!(phases.len() as u64, answer["phases"].as_u64().unwrap());
    let makespan = answer["makespan"].as_f64().unwrap();
    let last = phases.last().map_or_else(|| value(titled(&e, "The originator")[0], "finishes"), |s| value(s, "finishes"));
    assert!((last - makespan).abs() <= 1e-12 * makespan, "last phase ends {last}, makespan {makespan}");
    for (step, layer) in phases.iter().zip(answer["layers"].as_array().unwrap().iter().skip(1)) {
        assert_eq!(value(step, "processors"), layer["processors"].as_f64().unwrap());
        assert!(close(value(step, "load"), layer["load"].as_f64().unwrap()));
    }
    assert_eq!(value(titled(&e, "Why ")[0], "phases") as u64, answer["phases"].as_u64().unwrap());
}

#[test]
fn torus_phases_end_at_the_makespan() {
    check_torus(&example("torus"));
    check_torus(&paper("001-example"));
    check_torus(&paper("001-table1"));
    // Few phases are feasible: the next number's negative fraction is shown.
    let small = r#"{"model": "torus", "k": 3, "S": 1e-4, "C": 1e-7, "A": 1e-6, "V": 10}"#;
    check_torus(small);
    let why = titled(&both(small).0, "Why ")[0].clone();
    assert!(value(&why, "next fraction") < 0.0, "{}", why.text);
}

fn check_nonlinear(text: &str) -> Explanation {
    let (e, answer) = both(text);
    sourced(&e, "004");
    let eliminated: Vec<u64> = titled(&e, "PE at").iter().filter(|s| s.title.ends_with("eliminated")).map(|s| value(s, "eliminated") as u64).collect();
    let answered: Vec<u64> = answer["eliminated"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
    assert_eq!(eliminated, answered);
    let alpha = answer["alpha"].as_array().unwrap();
    let shares = e.steps.iter().find(|s| s.title == "The fractions" || s.title == "Shares of Theorem 1").unwrap();
    for (i, a) in alpha.iter().enumerate() {
        assert!(close(value(shares, &format!("alpha_{i}")), a.as_f64().unwrap()));
    }
    let t = titled(&e, "Makespan of Theorem")[0];
    assert!(close(value(t, "T"), answer["theorem"].as_f64().unwrap()));
    assert!(close(value(t, "makespan"), answer["makespan"].as_f64().unwrap()));
    if let Some(fon) = titled(&e, "FON").first() {
        assert_eq!(value(fon, "rho") as u64, answer["installments"].as_u64().unwrap());
    }
    e
}

#[test]
fn nonlinear_explains_pe_fon_and_the_closed_forms() {
    let e = check_nonlinear(&example("nonlinear"));
    assert_eq!(titled(&e, "rho = 2 installments, as given").len(), 1);
    // 004 Example 2 (Fig. 5): alpha_0 = 0.3337 and T = 3337 printed.
    let e = check_nonlinear(&paper("004-example2"));
    let shares = titled(&e, "The fractions")[0];
    assert!((value(shares, "alpha_0") - 0.3337).abs() < 5e-5);
    assert!((value(titled(&e, "Makespan")[0], "T") - 3337.0).abs() < 3337.0 * 2e-4);
    // A hopeless link: PE removes P2 by Lemma 2, with its numbers.
    let e = check_nonlinear(r#"{"model": "nonlinear", "algorithm": "S", "L": 10, "gamma": 2, "A0": 1, "A": [1, 1], "G": [1, 1000]}"#);
    let removed = titled(&e, "PE at rho = 1: P2 eliminated")[0];
    assert!(value(removed, "r") + value(removed, "alpha") < 1.0);
    // FON on a homogeneous tree (Fig. 7's machine, m = 3): Lemma 10's bounds.
    let e = check_nonlinear(r#"{"model": "nonlinear", "algorithm": "M", "L": 500, "gamma": 2, "A0": 0.05, "A": [0.05, 0.05, 0.05], "G": [1, 1, 1], "theta_cp": 0.1, "theta_cm": 0.1}"#);
    let fon = titled(&e, "FON")[0];
    assert!(fon.source.contains("Lemma 10") && value(fon, "weighed") >= 1.0, "{}", fon.text);
    assert_eq!(titled(&e, "Makespan of Theorem 9").len(), 1);
    // FON on a heterogeneous tree, and algorithm C.
    check_nonlinear(r#"{"model": "nonlinear", "algorithm": "M", "L": 100, "gamma": 2, "A0": 1, "A": [1.2, 1.5, 2], "G": [0.1, 0.2, 2]}"#);
    check_nonlinear(r#"{"model": "nonlinear", "algorithm": "C", "L": 100, "gamma": 2, "A0": 1, "A": [1.2, 1.5, 2], "G": [0.1, 0.2, 2]}"#);
}

#[test]
fn d_star_is_the_answers() {
    for text in [example("buffer_dstar"), paper("000-dstar-star")] {
        let (e, answer) = both(&text);
        sourced(&e, "000 Sec. 5");
        let d = value(titled(&e, "D* = ")[0], "D*");
        assert!(close(d, answer["D_star"].as_f64().unwrap()));
    }
    // 000 Sec. 5: mS/(A - mC) = 1e-2/(1e-3 - 1e-5).
    let (e, _) = both(&paper("000-dstar-star"));
    assert!((value(titled(&e, "D* = ")[0], "D*") - 10.10101010101).abs() < 1e-9);
    let (e, answer) = both(r#"{"model": "buffer_dstar", "topology": "binomial", "p": 2, "h": 10, "S": 1e-3, "C": 1e-6, "A": 1e-3}"#);
    assert!(answer["D_star"].is_null());
    let condition = titled(&e, "Existence")[0];
    assert!(condition.title.ends_with("fails") && value(condition, "computing") <= value(condition, "communication"));
    assert_eq!(titled(&e, "No D*").len(), 1);
}

fn check_isoefficiency(text: &str) -> Explanation {
    let (e, answer) = both(text);
    assert!(e.steps[0].title.starts_with("The program") && e.steps[0].text.contains("MIP"));
    sourced(&e, "003");
    let search = titled(&e, "The search")[0];
    assert_eq!(value(search, "sequences") as u64, answer["sequences"].as_u64().unwrap());
    let makespan = answer["makespan"].as_f64().unwrap();
    assert!(close(value(titled(&e, "The chosen sequence")[0], "T"), makespan));
    assert!(close(value(titled(&e, "The chosen sequence")[0], "efficiency"), answer["efficiency"].as_f64().unwrap()));
    let bound = titled(&e, "Lower bound")[0];
    assert!(close(value(bound, "bound"), answer["best_bound"].as_f64().unwrap()));
    assert!(close(value(bound, "gap"), answer["gap"].as_f64().unwrap()));
    // The runner-up is a sequence the search solved, no better than the chosen.
    assert!(value(titled(&e, "Why it wins")[0], "runner-up T") >= makespan);
    e
}

#[test]
fn isoefficiency_explains_its_search() {
    check_isoefficiency(&example("isoefficiency"));
    // 003 Table 1, m = 2: E_max = 34.2 at V = 134485 (a floor to reach).
    let mut table: Value = serde_json::from_str(&paper("003-table1")).unwrap();
    table["m"] = 2.into();
    table["V"] = 134485.into();
    table["lp_budget"] = 300.into();
    let e = check_isoefficiency(&table.to_string());
    assert!(value(titled(&e, "The chosen sequence")[0], "efficiency") >= 34.2 - 0.05);
    // Few sequences: a proof, gap 0.
    let e = check_isoefficiency(r#"{"model": "isoefficiency", "m": 2, "n": 5, "V": 20000, "S": 25.4, "O": 0.075, "C": 0.005, "a1": 0.109, "a2": 4.132, "b2": -27109}"#);
    assert_eq!(value(titled(&e, "Lower bound")[0], "gap"), 0.0);
}

#[test]
fn bad_input_is_refused_as_by_solve() {
    for text in [
        r#"{"model": "torus", "k": 9, "S": 1e-4, "C": 1e-7, "A": 1e-6, "V": 1e6}"#,
        r#"{"model": "torus", "k": 3, "S": 1e-4, "C": 1e-7, "A": 1e-6, "V": 10, "phases": 6}"#,
        r#"{"model": "nonlinear", "algorithm": "S", "L": 100, "gamma": 2, "A0": 1, "A": [1.2], "G": [0.1, 0.2]}"#,
        r#"{"model": "nonlinear", "algorithm": "C", "L": 100, "gamma": 2, "rho": 2, "A0": 1, "A": [1.2], "G": [0.1]}"#,
        r#"{"model": "buffer_dstar", "topology": "tree1", "m": 3, "h": 2, "S": 1, "C": 1, "A": 1}"#,
        r#"{"model": "chunk_size", "m": 10, "C": 1e-4, "Al1": 0, "Al2": 1e-3, "Ah1": -9.9e6, "Ah2": 0.1}"#,
        r#"{"model": "isoefficiency", "m": 2, "n": 5, "V": 20000, "S": 25.4, "O": 0.075, "C": 0.005, "a1": 5, "a2": 4.132, "b2": -27109}"#,
    ] {
        let req = request(text);
        let (e, s) = (explain(&req).unwrap_err(), solve(&req).unwrap_err());
        assert_eq!((e.code, e.field, e.message), (s.code, s.field, s.message), "{text}");
    }
}

#[test]
fn chunk_size_explains_beta_and_its_range() {
    for text in [example("chunk_size"), paper("002-chunk-fig10")] {
        let (e, answer) = both(&text);
        sourced(&e, "002");
        let beta = value(titled(&e, "Heuristic (5)")[0], "beta");
        assert!(close(beta, answer["beta"].as_f64().unwrap()));
        assert!(close(value(titled(&e, "Lower end")[0], "beta_min"), answer["beta_min"].as_f64().unwrap()));
        assert!(close(value(titled(&e, "Upper end")[0], "beta_max"), answer["beta_max"].as_f64().unwrap()));
        let verdict = e.steps.last().unwrap();
        assert_eq!(value(verdict, "admissible") == 1.0, answer["admissible"].as_bool().unwrap());
    }
    // 002 Fig. 10, uniform: beta = (mS - A^l_1)/(A^l_2 - mC) = 1e-2/1e-6.
    let (e, _) = both(&paper("002-chunk-fig10"));
    assert!((value(titled(&e, "Heuristic (5)")[0], "beta") - 1e4).abs() < 1e-6);
}

#[test]
fn lb_layer_explains_each_layer_and_the_choice() {
    for text in [example("lb_layer"), r#"{"model": "lb_layer", "p": 3, "h": 1, "S": 0.00224, "C": 1.07e-7, "A": 1.1e-5, "V": 1.26e6}"#.to_string()] {
        let (e, answer) = both(&text);
        sourced(&e, "000");
        let each = titled(&e, "Each layer")[0];
        for layer in answer["layers"].as_array().unwrap() {
            let i = layer["layer"].as_u64().unwrap();
            assert!(close(value(each, &format!("n* of layer {i}")), layer["n_star"].as_f64().unwrap()));
            assert!(close(value(each, &format!("C_max(n*) of layer {i}")), layer["bound"].as_f64().unwrap()));
        }
        let choice = titled(&e, "LB = ")[0];
        assert!(close(value(choice, "LB"), answer["LB"].as_f64().unwrap()));
        assert_eq!(value(choice, "layer") as u64, answer["layer"].as_u64().unwrap());
        let whole = &e.steps[2];
        assert_eq!(value(whole, "n") as u64, answer["n"].as_u64().unwrap());
        assert!(close(value(whole, "makespan"), answer["makespan"].as_f64().unwrap()));
        assert!(close(value(titled(&e, "Lower bound")[0], "lower bound"), answer["lower_bound"].as_f64().unwrap()));
    }
}

#[test]
fn multi_installment_explains_chunks_rounds_and_the_end() {
    // The worked example (in core), and beta above the swap point 9.9e6/(0.1 - 1e-3) = 1e8 (out of core).
    let spilled = example("multi_installment").replace(r#""beta": 1e4"#, r#""beta": 2e8"#).replace(r#""V": 1e5"#, r#""V": 1e9"#);
    for (text, spilling) in [(example("multi_installment"), false), (spilled, true)] {
        let (e, answer) = both(&text);
        sourced(&e, "002");
        let chunks = &e.steps[0];
        assert_eq!(value(chunks, "chunks"), answer["chunks"].as_f64().unwrap());
        assert!(close(value(chunks, "last chunk"), answer["last_chunk"].as_f64().unwrap()));
        let request: Value = serde_json::from_str(&text).unwrap();
        let beta = request["beta"].as_f64().unwrap();
        let processors = request["processors"].as_array().unwrap();
        // A round of messages: sum of S + C beta over the request's processors.
        let round: f64 = processors.iter().map(|q| q["S"].as_f64().unwrap() + q["C"].as_f64().unwrap() * beta).sum();
        let rounds = titled(&e, "Rounds")[0];
        assert!(close(value(rounds, "round"), round));
        for (j, load) in answer["loads"].as_array().unwrap().iter().enumerate() {
            assert!(close(value(rounds, &format!("P{} load", j + 1)), load.as_f64().unwrap()));
        }
        // Out of core exactly where the answer warns of it.
        let spills = answer["warnings"].as_array().unwrap().iter().any(|w| w.as_str().unwrap().contains("swap point"));
        assert_eq!(spills, spilling);
        assert_eq!(titled(&e, "In core")[0].text.contains("spill"), spills);
        assert!(close(value(e.steps.last().unwrap(), "makespan"), answer["makespan"].as_f64().unwrap()));
    }
}

/// 001 Sec. 5's options: a step says what they change, one step per class
/// of receivers (a layer, or a slot of one with fewer ports), the last
/// finishing at the makespan where no results come back.
#[test]
fn torus_options_are_explained() {
    for options in [r#""ports": 1"#, r#""ports": 2, "routing": "store_and_forward""#, r#""granularity": 10"#, r#""gamma": 2"#,
                    r#""speeds": [1, 2]"#, r#""scattering": "wavefront""#, r#""return_ratio": 0.1"#] {
        let text = format!(r#"{{"model": "torus", "k": 2, "S": 1e-4, "C": 1e-7, "A": 1e-6, "V": 1e6, {options}}}"#);
        let (e, answer) = both(&text);
        sourced(&e, "001");
        assert_eq!(titled(&e, "Sec. 5's extensions").len(), 1, "{options}");
        let layers = answer["layers"].as_array().unwrap();
        let phases = titled(&e, "Phase ");
        assert_eq!(phases.len(), layers.len() - 1, "{options}");
        for (step, layer) in phases.iter().zip(layers.iter().skip(1)) {
            assert!(close(value(step, "load"), layer["load"].as_f64().unwrap()), "{options}");
        }
        if !options.contains("return") && !options.contains("granularity") {
            let makespan = answer["makespan"].as_f64().unwrap();
            let last = value(phases.last().unwrap(), "finishes");
            assert!((last - makespan).abs() <= 1e-9 * makespan, "{options}: last phase ends {last}, makespan {makespan}");
        }
    }
}
