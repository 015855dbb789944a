//! What the fuzz target checks of one input: the calculator's answer to
//! arbitrary bytes read as a JSON request (`dlt_core::parse` then
//! `dlt_core::solve`) must be a well-formed error or a success with finite
//! numbers everywhere. A panic is a crash by itself (libFuzzer catches it).
//! The checks are those of the adversarial suite, shared in one file.

use serde_json::Value;
use std::sync::OnceLock;

#[path = "../../crates/dlt-core/tests/wellformed/mod.rs"]
mod wellformed;

pub use wellformed::non_finite;
use wellformed::{field_names, heavy, response_problem, well_formed, Budget};

/// A fuzzer's budget per input (release build, `-timeout=30`): valid
/// requests asking for more by their own choice (large MIP budgets,
/// large LPs, wide maps, long sweeps) are only parsed. The budget sets the
/// fuzzer's pace: with LPs of up to 600 messages (1-5 s each in this build)
/// and MIPs of up to 50 ms, a 30 s run did 8,758 to 51,174 executions; with
/// these limits, 186,748 to 324,131 (seeds 1-3), the same paths still run.
const BUDGET: Budget = Budget {
    lp_messages: 300.0,
    mip_lp_budget: 5.0,
    map_lp_budget: 2.0,
    map_machines: 1.0,
    map_levels: 2,
    map_v_steps: f64::INFINITY,
    sweep_values: Some(50),
};

/// The field names of the example requests (examples/*.json), read once.
fn known_fields() -> &'static [String] {
    static KNOWN: OnceLock<Vec<String>> = OnceLock::new();
    KNOWN.get_or_init(|| {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples");
        let examples: Vec<Value> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("cannot read {dir}: {e}"))
            .filter_map(|entry| {
                let path = entry.ok()?.path();
                if path.extension()? != "json" {
                    return None;
                }
                serde_json::from_slice(&std::fs::read(&path).ok()?).ok()
            })
            .collect();
        assert!(!examples.is_empty(), "no example requests in {dir}");
        field_names(&examples)
    })
}

/// Checks the answer to `data`; Err describes what is wrong with it.
pub fn check(data: &[u8]) -> Result<(), String> {
    // The value parse reads: the first JSON value of the input (the core
    // does not reject trailing characters after it).
    let value: Option<Value> = serde_json::Deserializer::from_slice(data).into_iter::<Value>().next().and_then(Result::ok);
    let parsed = dlt_core::parse(&mut serde_json::Deserializer::from_slice(data));
    page_reads_alike(data, &parsed)?;
    let request = match parsed {
        Ok(request) => request,
        Err(e) => return well_formed(&e, value.as_ref(), known_fields()),
    };
    if value.as_ref().is_some_and(|v| heavy(v, &BUDGET)) {
        return Ok(());
    }
    match dlt_core::solve(&request) {
        Err(e) => well_formed(&e, value.as_ref(), known_fields()),
        Ok(response) => response_problem(&response).map_or(Ok(()), Err),
    }
}

/// The page's reader (`dlt_core::parse_text`, the browser's JSON text read
/// without serde_json) must make the same request of a whole JSON text as
/// the command line's, and refuse what it refuses.
fn page_reads_alike(data: &[u8], parsed: &dlt_core::Result<dlt_core::Request>) -> Result<(), String> {
    let Ok(text) = std::str::from_utf8(data) else { return Ok(()) };
    let page = dlt_core::parse_text(text, &|literal| literal.parse().ok());
    let whole = serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok();
    match (&page, parsed) {
        (Ok(a), Ok(b)) if a == b => Ok(()),
        (Err(_), Err(_)) => Ok(()),
        (Err(_), Ok(_)) if !whole => Ok(()),
        _ => Err(format!("the page's reader gives {page:?} where the command line's gives {parsed:?}")),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn examples_are_answered_well() {
        for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples")).unwrap() {
            let path = entry.unwrap().path();
            super::check(&std::fs::read(&path).unwrap()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
        assert!(super::check(b"{\"model\": \"star\", \"m\": \"NaN\"}").is_ok());
        assert!(super::check(b"[1, 2").is_ok());
        // Found by the fuzzer: a non-finite answer (fixed since) behind
        // trailing characters.
        assert!(super::check(br#"{"model": "memory", "V": 2, "processors": [{"S": 0, "C": 1, "pieces": [[0, 1]]}]}"NaN""#).is_ok());
    }

    #[test]
    fn finds_non_finite_numbers() {
        #[derive(serde::Serialize)]
        struct R {
            a: Vec<f64>,
        }
        assert_eq!(super::non_finite(&R { a: vec![1.0, f64::NAN] }).as_deref(), Some(".a[1] = NaN"));
    }
}
