//! The `dlt` binary: every worked example of `dlt --help` solves, and bad
//! input exits 2 with the contract's error object naming the field.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn dlt(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dlt"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dlt runs");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn examples() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    out.sort();
    out
}

#[test]
fn every_example_solves_and_is_in_the_help() {
    let help = String::from_utf8(dlt(&["--help"], "").stdout).unwrap();
    let examples = examples();
    assert_eq!(examples.len(), dlt_core::MODELS.len(), "one example per model");
    for (model, request) in examples {
        assert!(help.contains(request.trim()), "--help lacks the {model} example");
        let out = dlt(&["solve", "-"], &request);
        assert!(out.status.success(), "{model}: {}", String::from_utf8_lossy(&out.stderr));
        let response: Value = serde_json::from_slice(&out.stdout).unwrap();
        // The CLI prints exactly what the core answers, searches included:
        // they count LPs, not time.
        let request: Value = serde_json::from_str(&request).unwrap();
        let direct = serde_json::to_value(dlt_core::solve(&dlt_core::parse(request).unwrap()).unwrap()).unwrap();
        assert_eq!(response, direct, "{model}");
    }
}

#[test]
fn plan_tells_the_stages_and_lp_size_without_solving() {
    let out = dlt(&["plan", "-"], r#"{"model": "star", "m": 10, "S": 1e-3, "C": 1e-6, "A": 1e-3, "V": 1e6, "D": 10}"#);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let plan: Value = serde_json::from_slice(&out.stdout).unwrap();
    // n_min = ceil(V / (D m)) of 000.
    assert_eq!((plan["n_min"].as_u64(), plan["n"].as_u64(), plan["messages"].as_u64()), (Some(10_000), Some(10_000), Some(100_000)));
    let out = dlt(&["plan", "-"], r#"{"model": "star", "m": 0, "S": 1e-3, "C": 1e-6, "A": 1e-3, "V": 1e6}"#);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn bad_input_exits_2_naming_the_field() {
    for (request, field) in [
        (r#"{"model": "torus", "k": 2.5, "S": 0, "C": 1, "A": 1, "V": 1}"#, "k"),
        (r#"{"model": "torus", "k": 2, "S": "x", "C": 1, "A": 1, "V": 1}"#, "S"),
        (r#"{"model": "torus", "k": 2, "S": 0, "C": 1, "A": 1}"#, "V"),
        (r#"{"model": "torus", "k": 2, "S": 0, "C": 1, "A": 1, "V": 1, "W": 3}"#, "W"),
        (r#"{"model": "torus", "k": 2, "S": 0, "C": 1, "A": 1, "V": -1}"#, "V"),
        (r#"{"model": "tori"}"#, "model"),
        (r#"{"k": 2}"#, "model"),
        (r#"{"model": "buffer_dstar", "topology": "ring", "S": 1, "C": 1, "A": 1}"#, "topology"),
        (r#"{"model": "chunk_size", "processors": [{"S": 1, "C": 1, "pieces": [[0, -1]]}]}"#, "processors[0].pieces[0][1]"),
        (r#"{"model": "torus", "k": 2, "#, ""),
        (r#"{"model": "torus", "k": 2, "S": 0, "C": 1, "A": 1, "V": 1} trailing"#, ""),
        ("[1, 2]", ""),
    ] {
        let out = dlt(&["solve", "-"], request);
        assert_eq!(out.status.code(), Some(2), "{request}");
        let error: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{request}: {e}"));
        assert_eq!(error["error"]["field"], field, "{request}: {error}");
        assert!(!error["error"]["message"].as_str().unwrap().is_empty());
    }
}

#[test]
fn export_writes_the_lp_of_lp_models_and_the_mip_only() {
    let star = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/star.json")).unwrap();
    let lp = dlt(&["export", "-"], &star);
    assert!(lp.status.success());
    let lp = String::from_utf8(lp.stdout).unwrap();
    assert!(lp.starts_with("\\ LoadDirect (000)") && lp.contains("Subject To\n") && lp.trim_end().ends_with("End"), "{lp}");
    // m = 10 processors and n = 3 stages: 30 chunks, 30 start times, 30 running sums and Cmax.
    assert!(lp.matches("alpha_").count() > 30);
    let mps = String::from_utf8(dlt(&["export", "-", "--mps"], &star).stdout).unwrap();
    assert!(mps.contains("\nROWS\n") && mps.contains("\nCOLUMNS\n") && mps.trim_end().ends_with("ENDATA"), "{mps}");
    let torus = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/torus.json")).unwrap();
    let out = dlt(&["export", "-"], &torus);
    assert_eq!(out.status.code(), Some(2));
    let error: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(error["error"]["field"], "model");
    let iso = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/isoefficiency.json")).unwrap();
    let mip = String::from_utf8(dlt(&["export", "-"], &iso).stdout).unwrap();
    assert!(mip.starts_with("\\ MIP (2)-(11) (003)") && mip.contains("\nBinaries\n") && mip.contains(" x_1_1"), "{mip}");
}

#[test]
fn a_reader_that_stops_early_is_not_a_crash() {
    let memory = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/memory.json")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_dlt")).args(["solve", "-"]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(memory.as_bytes()).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && !stderr.contains("panicked"), "{:?}: {stderr}", out.status);
}

/// Issue 15: 003's Table 1 at m = 20 (n = 20, V_max as printed), proven
/// optimal by `dlt prove`, its certificate accepted by `dlt verify-proof`
/// and refused once a node of its frontier is dropped.
#[test]
fn a_table_1_optimum_is_proven_and_its_certificate_checked() {
    let papers: Value = serde_json::from_str(&std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/golden/papers.json")).unwrap()).unwrap();
    let case = papers["cases"].as_array().unwrap().iter().find(|c| c["id"] == "003-table1").unwrap();
    let (ms, vs) = (case["expect"]["m"].as_array().unwrap(), case["expect"]["V_max"].as_array().unwrap());
    let at = ms.iter().position(|m| m == 20).unwrap();
    let mut request = case["request"].clone();
    request["m"] = ms[at].clone();
    request["V"] = vs[at].clone();
    let out = dlt(&["prove", "-"], &request.to_string());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let certificate: Value = serde_json::from_slice(&out.stdout).unwrap();
    let checked = dlt(&["verify-proof", "-"], &certificate.to_string());
    assert!(checked.status.success(), "{}", String::from_utf8_lossy(&checked.stdout));
    let verdict: Value = serde_json::from_slice(&checked.stdout).unwrap();
    assert_eq!(verdict["verified"], true);
    let makespan = verdict["verdict"]["makespan"].as_f64().unwrap();
    assert!(verdict["verdict"]["bound"].as_f64().unwrap() >= makespan * (1.0 - 1e-9));
    // E = T(1, 1, V) / (m T) meets the printed E_max.
    let single = dlt(&["solve", "-"], &request.to_string());
    let answer: Value = serde_json::from_slice(&single.stdout).unwrap();
    assert_eq!(answer["proven"], true);
    assert!(answer["efficiency"].as_f64().unwrap() >= case["expect"]["E_max"][at].as_f64().unwrap() - 0.05);
    let mut forged = certificate;
    forged["frontier"].as_array_mut().unwrap().pop();
    let refused = dlt(&["verify-proof", "-"], &forged.to_string());
    assert_eq!(refused.status.code(), Some(2));
    let error: Value = serde_json::from_slice(&refused.stdout).unwrap();
    assert_eq!(error["error"]["field"], "certificate");
}
