//! The ranges the registry lists (`MODELS[i].fields`, what the page's forms
//! show and check) against what the models' `solve` does: a value just
//! outside a listed range is refused with an error naming the field, and
//! one at its edge is not refused for that field, except where the model
//! narrows the range for the request (listed below, with why). A field of
//! a list's rows (memory's processors' S) is listed by its name in the row
//! and set in every row.

use dlt_core::model::Plan;
use dlt_core::{parse, plan, solve, Error, MODELS};
use serde_json::{json, Value};

/// Fields whose accepted values depend on the rest of the request, where
/// the listed range is the widest over all requests.
const NARROWED: &[(&str, &str)] = &[
    // n_min <= n, and n times a stage's messages at most MAX_MESSAGES;
    // so D at least what V needs in that many stages.
    ("star", "n"),
    ("tree", "n"),
    ("binomial", "n"),
    ("star", "D"),
    ("tree", "D"),
    ("binomial", "D"),
    // The processors of a tree's deepest layer (p^h, binomial
    // p(p+1)^(h-1)) at most 1e8.
    ("tree", "p"),
    ("tree", "h"),
    ("binomial", "p"),
    ("binomial", "h"),
    // At most 2k phases.
    ("torus", "phases"),
    // Every installment a message per child, at most MAX_MESSAGES.
    ("nonlinear", "rho"),
    // a2 > a1.
    ("isoefficiency", "a2"),
    ("isoefficiency_map", "a2"),
];

/// Requests of a model that use a field its example leaves out or ignores:
/// the example with these fields set (null: removed).
const VARIANTS: &[(&str, &str, &str)] = &[
    // The example is a star; p and h are a tree's.
    ("buffer_dstar", "p", r#"{"topology": "tree1", "p": 2, "h": 3}"#),
    ("buffer_dstar", "h", r#"{"topology": "tree1", "p": 2, "h": 3}"#),
    // m or rho, not both; the example gives m.
    ("nonlinear_bounds", "rho", r#"{"m": null, "rho": 2}"#),
];

/// The example of `model` (its variant for `field`) with `field` set to
/// `x`: every entry, for a list; every row's, for a field of rows.
fn with(model: &str, example: &str, field: &str, x: f64) -> Value {
    let mut request: Value = serde_json::from_str(example).unwrap();
    if let Some((_, _, variant)) = VARIANTS.iter().find(|(m, f, _)| (*m, *f) == (model, field)) {
        for (k, v) in serde_json::from_str::<serde_json::Map<String, Value>>(variant).unwrap() {
            if v.is_null() {
                request.as_object_mut().unwrap().remove(&k);
            } else {
                request[k] = v;
            }
        }
    }
    let top = request.get(field).is_some();
    let rows = request.as_object_mut().unwrap().values_mut().find_map(|v| match v {
        Value::Array(rows) if !top && !rows.is_empty() && rows.iter().all(|r| r.get(field).is_some()) => Some(rows),
        _ => None,
    });
    match rows {
        Some(rows) => rows.iter_mut().for_each(|r| r[field] = json!(x)),
        None => {
            let value = match &request[field] {
                Value::Array(xs) => Value::Array(vec![json!(x); xs.len()]),
                _ => json!(x),
            };
            request[field] = value;
        }
    }
    request
}

/// Validates `request` as cheaply as the model allows: by its plan where it
/// has one, else by solving it.
fn refusal(request: Value) -> Option<Error> {
    let request = match parse(request) {
        Ok(r) => r,
        Err(e) => return Some(e),
    };
    match plan(&request) {
        Err(e) => Some(e),
        Ok(p) if p != Plan::default() => None,
        Ok(_) => solve(&request).err(),
    }
}

/// Whether `error` names `field`, one of its entries ("A[0]") or its
/// value in a row ("processors[0].S").
fn names(error: &Error, field: &str) -> bool {
    let in_row = error.field.strip_suffix(field).and_then(|rest| rest.strip_suffix("].")).is_some_and(|rest| {
        rest.rsplit_once('[').is_some_and(|(list, i)| !list.is_empty() && i.bytes().all(|b| b.is_ascii_digit()))
    });
    error.field == field || in_row || error.field.strip_prefix(field).is_some_and(|rest| rest.starts_with('['))
}

/// The values just outside the listed range, and those at its edges.
fn outside_and_edges(range: &Value) -> (Vec<f64>, Vec<f64>) {
    let integer = range["kind"] == "integer";
    let step = |x: f64| if integer { 1.0 } else { x.abs().max(1.0) * 1e-6 };
    let (mut outside, mut edges) = (vec![], vec![]);
    if let Some(lo) = range["min"].as_f64() {
        if range["min_exclusive"] == true {
            outside.push(lo);
            edges.push(lo + step(lo));
        } else {
            outside.push(lo - step(lo));
            edges.push(lo);
        }
    }
    if let Some(hi) = range["max"].as_f64() {
        outside.push(hi + step(hi));
        edges.push(hi);
    }
    if integer {
        outside.push(edges[0] + 0.5);
    }
    (outside, edges)
}

#[test]
fn listed_ranges_are_what_solve_accepts() {
    let listed = serde_json::to_value(MODELS).unwrap();
    let mut checked = 0;
    for about in listed.as_array().unwrap() {
        let (model, example) = (about["name"].as_str().unwrap(), about["example"].as_str().unwrap());
        for range in about["fields"].as_array().unwrap() {
            let field = range["name"].as_str().unwrap();
            let (outside, edges) = outside_and_edges(range);
            for x in outside {
                let e = refusal(with(model, example, field, x)).unwrap_or_else(|| panic!("{model}: {field} = {x} lies outside {range} but is accepted"));
                assert!(names(&e, field), "{model}: {field} = {x} is refused for {}: {}", e.field, e.message);
            }
            if NARROWED.contains(&(model, field)) {
                continue;
            }
            for x in edges {
                if let Some(e) = refusal(with(model, example, field, x)) {
                    assert!(!names(&e, field), "{model}: {field} = {x} lies within {range} but is refused: {}", e.message);
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 80, "only {checked} ranges checked");
}

/// Every registered model lists the ranges of its fields, but a sweep
/// (a request, one of its fields and values for it).
#[test]
fn every_model_lists_its_ranges() {
    for about in MODELS.iter().filter(|m| m.name != "sweep") {
        assert!(!about.fields.is_empty(), "{} lists no ranges", about.name);
    }
}

/// Fewer stages than n_min are refused by naming n_min, whatever the LP's
/// limit on stages is, and more than the LP takes by naming that limit: a
/// star whose n_min is also the most stages its LP takes read "from 1279
/// to 1279" before.
#[test]
fn fewer_stages_than_n_min_are_refused_by_naming_n_min() {
    for (request, n_min) in [
        (json!({"model": "star", "m": 952, "S": 1e-3, "C": 2.608e-3, "A": 0.1575, "V": 9.193e9, "D": 7555, "n": 3}), 1279),
        (json!({"model": "tree", "p": 2, "h": 4, "S": 1e-3, "C": 1e-6, "A": 1e-3, "V": 1e5, "D": 1e3, "n": 2, "order": "NLF", "buffers": 1}), 13),
    ] {
        let error = refusal(request).unwrap();
        assert!(names(&error, "n"), "{error:?}");
        assert!(error.message.starts_with(&format!("n must be at least n_min = {n_min}, ")), "{}", error.message);
        assert!(error.message.ends_with(", got 2") || error.message.ends_with(", got 3"), "{}", error.message);
    }
    let error = refusal(json!({"model": "star", "m": 952, "S": 1e-3, "C": 2.608e-3, "A": 0.1575, "V": 9.193e9, "D": 7555, "n": 1280})).unwrap();
    assert!(names(&error, "n"), "{error:?}");
    assert!(error.message.starts_with("n must be at most 1279 here, got 1280: more stages than n_min = 1279 are solved as an LP"), "{}", error.message);
}
