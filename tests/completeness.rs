//! A registered model is complete: it has a worked example that solves,
//! an entry in the contract (docs/API.md), golden numbers or a stated
//! reason why its paper prints none, and a view on the page; and its
//! parser names its fields when it refuses an unknown one, which with the
//! example is what scripts/fuzz.sh draws the fuzz dictionary from. Adding a
//! model then means: its core module, one registry line, its view, its
//! golden numbers; this test names whatever else was forgotten.

use serde_json::Value;
use std::path::Path;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(path)).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// Models whose papers print no number the calculator can compare, and
/// why; every other model needs a case in tests/golden/papers.json.
const NO_PRINTED_NUMBERS: &[(&str, &str)] = &[
    ("tree", "000 draws the ordinary trees' results in figures only (Figs. 8-9, 11-13)"),
    ("binomial", "000 draws the binomial trees' results in figures only (Figs. 10-11)"),
    ("lb_layer", "000 Sec. 4.2 gives the LB strategy's formula and draws it in Figs. 10-11"),
    ("multi_installment", "002 draws multi-installment processing in Fig. 10 only"),
    ("isoefficiency_map", "003's maps are figures; their E_max line is Table 1, checked through the 003-table1 case"),
    ("sweep", "not a paper's model: the series behind any figure"),
    ("hetero_star", "the textbook star of none of the five papers: tests/hetero.rs holds it to numbers derived by hand and to brute force"),
];

/// Models the page reaches through another model's view, and which.
const NO_VIEW_OF_THEIR_OWN: &[(&str, &str)] = &[("sweep", "every view's curves")];

#[test]
fn every_registered_model_is_complete() {
    let api = read("docs/API.md");
    let golden: Value = serde_json::from_str(&read("tests/golden/papers.json")).unwrap();
    let golden_models: Vec<&str> = golden["cases"].as_array().unwrap().iter().filter_map(|c| c["request"]["model"].as_str()).collect();
    let views: String = std::fs::read_dir(Path::new(ROOT).join("www/views"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    let mut missing = Vec::new();
    for model in dlt_core::MODELS {
        let name = model.name;
        let example: Value = serde_json::from_str(model.example).unwrap_or_else(|e| panic!("{name}: example is not JSON: {e}"));
        if example["model"] != name {
            missing.push(format!("{name}: its example is a request of {}", example["model"]));
        }
        if read(&format!("examples/{name}.json")) != model.example {
            missing.push(format!("{name}: examples/{name}.json"));
        }
        let mut stray = example.clone();
        stray["\u{1}"] = Value::from(0);
        let refusal = dlt_core::parse(stray).err().map(|e| e.message).unwrap_or_default();
        let mut keys = example.as_object().unwrap().keys().filter(|k| *k != "model");
        if let Some(key) = keys.find(|k| !refusal.contains(&format!("`{k}`"))) {
            missing.push(format!("{name}: an unknown field refused with the fields listed (found no `{key}` in: {refusal})"));
        }
        let request = dlt_core::parse(example).unwrap_or_else(|e| panic!("{name}: example does not parse: {e}"));
        if dlt_core::export(&request, dlt_core::LpFormat::Lp).is_ok() != model.lp {
            missing.push(format!("{name}: HAS_LP says {} but export disagrees", model.lp));
        }
        if !api.contains(&format!("`{name}`")) {
            missing.push(format!("{name}: an entry in docs/API.md"));
        }
        if !golden_models.contains(&name) && !NO_PRINTED_NUMBERS.iter().any(|(m, _)| *m == name) {
            missing.push(format!("{name}: a golden case in tests/golden/papers.json"));
        }
        let quoted = [format!("'{name}'"), format!("\"{name}\"")];
        if !quoted.iter().any(|q| views.contains(q.as_str())) && !NO_VIEW_OF_THEIR_OWN.iter().any(|(m, _)| *m == name) {
            missing.push(format!("{name}: a view in www/views that sends its requests"));
        }
    }
    // An exception for a model that is gone, or that has golden numbers
    // after all, is stale.
    for (name, _) in NO_PRINTED_NUMBERS.iter().chain(NO_VIEW_OF_THEIR_OWN) {
        if !dlt_core::MODELS.iter().any(|m| m.name == *name) {
            missing.push(format!("{name}: listed as an exception but not registered"));
        }
    }
    for (name, _) in NO_PRINTED_NUMBERS {
        if golden_models.contains(name) {
            missing.push(format!("{name}: has golden cases, so it is no exception"));
        }
    }
    assert!(missing.is_empty(), "incomplete models:\n  {}", missing.join("\n  "));
}

/// Nothing in the repository reaches outside it for its contract, its
/// golden numbers or its papers.
#[test]
fn the_repository_stands_alone() {
    let mut offenders = Vec::new();
    let mut stack = vec![Path::new(ROOT).to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if !["target", "node_modules", ".git", "vendor", "pkg", "dist", "corpus", "artifacts"].contains(&name.as_str()) {
                    stack.push(path);
                }
            } else if ["rs", "js", "mjs", "md", "sh", "toml", "json", "html"].iter().any(|x| name.ends_with(&format!(".{x}"))) {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                if text.contains(concat!("../", "shared/")) {
                    offenders.push(path.display().to_string());
                }
            }
        }
    }
    assert!(offenders.is_empty(), "these files reach outside the repository: {offenders:?}");
}
