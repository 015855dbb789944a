//! What the statement tests of [000]'s figures share: the caption's costs,
//! the calls through the public API, and the fewest processors or layers
//! Sec. 4 runs n_min with (see stars.rs).

// Each of the two test crates uses part of it.
#![allow(dead_code)]

pub use serde_json::{json, Value};

pub const S: f64 = 1e-3;
pub const C: f64 = 1e-6;
pub const A: f64 = 1e-3;
pub const P: f64 = 2.0;

pub fn solve(request: Value) -> Value {
    let parsed = dlt_core::parse(request.clone()).unwrap_or_else(|e| panic!("{request}: {e}"));
    let response = dlt_core::solve(&parsed).unwrap_or_else(|e| panic!("{request}: {e}"));
    serde_json::to_value(response).unwrap()
}

pub fn cmax(request: Value) -> f64 {
    solve(request)["makespan"].as_f64().expect("a makespan")
}

/// `D` if finite; absent (the core's D = ∞) otherwise.
pub fn with_d(mut request: Value, d: Option<f64>) -> Value {
    if let Some(d) = d {
        request["D"] = json!(d);
    }
    request
}

/// The fewest of the star's 10 processors that n_min messages of size D
/// can fill: one message each while V <= mD; one for D = ∞.
pub fn star_m(v: f64, d: Option<f64>) -> f64 {
    d.map_or(1.0, |d| (v / d).ceil().clamp(1.0, 10.0))
}

/// The fewest layers (at most `h`) of a binomial tree that carry V in one
/// stage: l layers carry (l(p+1) - 1) D (Sec. 3.3).
pub fn binomial_h(v: f64, d: Option<f64>, h: f64) -> f64 {
    d.map_or(1.0, |d| ((v / d + 1.0) / (P + 1.0)).ceil().clamp(1.0, h))
}

/// The fewest layers (at most `h`) of an ordinary tree that carry V in one
/// stage: each layer takes at most pD (Sec. 3.2).
pub fn tree_h(v: f64, d: Option<f64>, h: f64) -> f64 {
    d.map_or(1.0, |d| (v / (P * d)).ceil().clamp(1.0, h))
}

/// The star of Sec. 4.1 (m = 10 unless `m` says fewer), n = n_min.
pub fn star(v: f64, d: Option<f64>, m: f64) -> Value {
    with_d(json!({"model": "star", "m": m, "S": S, "C": C, "A": A, "V": v}), d)
}

/// Figs. 7 and 8: the star at n_min with its fewest processors.
pub fn star_min(v: f64, d: Option<f64>) -> f64 {
    cmax(star(v, d, star_m(v, d)))
}

pub fn binomial(v: f64, d: Option<f64>, h: f64, order: &str) -> Value {
    with_d(json!({"model": "binomial", "p": P, "h": h, "order": order, "S": S, "C": C, "A": A, "V": v}), d)
}

pub fn tree(v: f64, d: Option<f64>, h: f64, order: &str, buffers: u32) -> Value {
    with_d(json!({"model": "tree", "p": P, "h": h, "order": order, "buffers": buffers, "S": S, "C": C, "A": A, "V": v}), d)
}

pub fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs())
}
