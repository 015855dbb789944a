//! `dlt-bench`: LP sizes and solve times of the 000 and 002 models, through
//! the public API, against the bar the LP issue measured for HiGHS (sparse
//! running-sum form, m = 10: 1.3 s at n = 1000, 11 s at n = 3000).
//! Run: cargo run --release -p dlt-cli --bin dlt-bench [-- --quick | --table1 | --requests FILE]
//! `--requests FILE` (used by scripts/bench.sh): solves each request of the
//! JSON array in FILE, repeated until 0.3 s in all or 5 runs (at least one),
//! and prints a JSON array on stdout, per request the median time in ms and
//! the answer's makespan (or its error), free of process start-up.

use serde_json::{json, Value};
use std::process::ExitCode;
use std::time::Instant;

fn run(request: Value) -> (Option<Value>, f64) {
    let start = Instant::now();
    let answer = dlt_core::parse(request).and_then(|r| dlt_core::solve(&r)).map(|r| serde_json::to_value(r).unwrap());
    let seconds = start.elapsed().as_secs_f64();
    match answer {
        Ok(v) => (Some(v), seconds),
        Err(e) => {
            eprintln!("  {e}");
            (None, seconds)
        }
    }
}

fn row(label: &str, n: usize, out: &(Option<Value>, f64), bar: Option<f64>) {
    let (answer, seconds) = out;
    let lp = answer.as_ref().map(|v| v["lp"].clone()).unwrap_or(Value::Null);
    let mut makespan = answer.as_ref().and_then(|v| v["makespan"].as_f64()).map_or(String::from("—"), |x| format!("{x:.6e}"));
    if let Some(gap) = answer.as_ref().and_then(|v| v["gap"].as_f64()) {
        makespan.push_str(&format!("  (gap {gap:.1e})"));
    }
    let ratio = bar.map_or(String::from(""), |b| format!("{:.2}", seconds / b));
    println!(
        "{label:<12} {n:>6} {:>8} {:>8} {:>9} {:>9} {seconds:>9.3} {ratio:>9}  {makespan}",
        lp["variables"], lp["rows"], lp["nonzeros"], lp["iterations"]
    );
}

/// 003 Table 1: E_max(m) at n = 20 beside the paper's, and how one MIP
/// scales with n.
fn table1() {
    let paper = [34.2, 34.0, 33.7, 33.4, 33.2, 32.8, 32.4, 31.5, 30.9, 30.4, 29.6, 28.7, 27.7, 26.7, 25.7, 24.8, 23.8, 22.9, 22.1];
    let v_paper = [134485, 120827, 123329, 105097, 119663, 95748, 106921, 115514, 75048, 81394, 86545, 90457, 94532, 98591, 99460, 100506, 100354, 99708, 102240];
    let instance = json!({"S": 25.4, "O": 0.075, "C": 0.005, "a1": 0.109, "a2": 4.132, "b2": -27109});
    println!("\n003 Table 1, n = 20 (E_max by golden section over V in [5e3, 2e5] MB, 1 MB stopping width, the default LP budget per MIP)");
    println!("{:>3} {:>8} {:>8} {:>8} {:>9} {:>9} {:>7} {:>8} {:>7}", "m", "E_max", "paper", "diff", "V_max", "paper", "MIPs", "ms/MIP", "proven");
    for (k, m) in (2..=20).enumerate() {
        let mut request = json!({"model": "isoefficiency_map", "m_range": [m, m], "n": 20, "V_range": [5000, 200000]});
        request.as_object_mut().unwrap().extend(instance.as_object().unwrap().clone());
        let (out, seconds) = run(request);
        let Some(out) = out else { continue };
        let (e, v, points) = (out["E_max"][0].as_f64().unwrap(), out["V_max"][0].as_f64().unwrap(), out["points"].as_u64().unwrap());
        println!("{m:>3} {e:>8.3} {:>8.1} {:>+8.3} {v:>9.0} {:>9} {points:>7} {:>8.1} {:>7}", paper[k], e - paper[k], v_paper[k], 1000.0 * seconds / points as f64, out["proven"]);
    }
    println!("\none MIP at m = 10, V = 75048 MB, the default LP budget, by n");
    println!("{:>3} {:>10} {:>10} {:>8} {:>9} {:>7}", "n", "makespan", "E", "gap", "sequences", "proven");
    for n in [10, 20, 40] {
        let mut request = json!({"model": "isoefficiency", "m": 10, "n": n, "V": 75048});
        request.as_object_mut().unwrap().extend(instance.as_object().unwrap().clone());
        if let (Some(out), _) = run(request) {
            println!("{n:>3} {:>10.2} {:>10.3} {:>8.4} {:>9} {:>7}", out["makespan"].as_f64().unwrap(), out["efficiency"].as_f64().unwrap(), out["gap"].as_f64().unwrap(), out["sequences"], out["proven"]);
        }
    }
}

/// `--requests FILE`: per request {ms, runs, makespan, gap, proven, lp} or
/// {ms, runs, error}, as one JSON array on stdout.
fn requests(file: &str) -> ExitCode {
    let list: Vec<Value> = match std::fs::read_to_string(file).map_err(|e| e.to_string()).and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string())) {
        Ok(list) => list,
        Err(e) => {
            eprintln!("dlt-bench: {file} is not a readable JSON array of requests: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = Vec::with_capacity(list.len());
    for request in list {
        let (mut times, mut total, mut first) = (Vec::new(), 0.0, None);
        while times.is_empty() || (total < 0.3 && times.len() < 5) {
            let start = Instant::now();
            let answer = dlt_core::parse(request.clone()).and_then(|r| dlt_core::solve(&r)).map(|r| serde_json::to_value(r).unwrap());
            let seconds = start.elapsed().as_secs_f64();
            times.push(seconds);
            total += seconds;
            first.get_or_insert(answer);
        }
        times.sort_by(f64::total_cmp);
        let ms = 1000.0 * times[times.len() / 2];
        out.push(match first.unwrap() {
            Ok(v) => json!({"ms": ms, "runs": times.len(), "makespan": v["makespan"], "gap": v["gap"], "proven": v["proven"], "lp": v["lp"]}),
            Err(e) => json!({"ms": ms, "runs": times.len(), "error": e.to_string()}),
        });
    }
    println!("{}", Value::Array(out));
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--requests") {
        return match args.get(i + 1) {
            Some(file) => requests(file),
            None => {
                eprintln!("dlt-bench: --requests needs a FILE");
                ExitCode::from(2)
            }
        };
    }
    let quick = std::env::args().any(|a| a == "--quick");
    if std::env::args().any(|a| a == "--table1") {
        table1();
        return ExitCode::SUCCESS;
    }
    println!("{:<12} {:>6} {:>8} {:>8} {:>9} {:>9} {:>9} {:>9}  makespan", "model", "n", "vars", "rows", "nonzeros", "iters", "seconds", "/HiGHS");
    // Star, m = 10, Fig. 7's A, C, S; D set so that n_min = n.
    let stars: &[usize] = if quick { &[1, 10, 100] } else { &[1, 10, 100, 300, 1000, 3000, 10000] };
    for &n in stars {
        let v = 1e6;
        let d = v / (10.0 * n as f64);
        let out = run(json!({"model": "star", "m": 10, "S": 1e-3, "C": 1e-6, "A": 1e-3, "V": v, "D": d * 1.0001}));
        let bar = match n {
            1000 => Some(1.3),
            3000 => Some(11.0),
            _ => None,
        };
        row("star", n, &out, bar);
    }
    // Trees at p = 2, h = 10 (000 Sec. 4.2) up to the paper's largest LP,
    // ~50,000 variables (75 per stage), with D such that n_min = n.
    let trees: &[usize] = if quick { &[1, 10] } else { &[1, 10, 20, 100, 300, 666] };
    for (model, extra) in [("tree", json!({"order": "NLF", "buffers": 1})), ("tree", json!({"order": "LLF", "buffers": 2})), ("binomial", json!({"order": "NLF"}))] {
        for &n in trees {
            // Per stage a tree takes p h D, a binomial tree (h (p + 1) - 1) D.
            let per_stage = if model == "tree" { 2.0 * 10.0 } else { 10.0 * 3.0 - 1.0 };
            let d = 1e6 / (per_stage * n as f64) * 1.0001;
            let mut request = json!({"model": model, "p": 2, "h": 10, "S": 1e-3, "C": 1e-6, "A": 1e-3, "V": 1e6, "D": d});
            request.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
            let label = format!("{model}-{}{}", extra["order"].as_str().unwrap(), extra.get("buffers").map_or(String::new(), |b| format!("-{b}")));
            row(&label, n, &run(request), None);
        }
    }
    // The memory LP (002) at m = 10..1000.
    let sizes: &[usize] = if quick { &[10, 100] } else { &[10, 100, 1000] };
    for &m in sizes {
        let p = json!({"S": 1e-3, "C": 1e-6, "pieces": [[0, 1e-3], [-9e5, 1e-2]]});
        let out = run(json!({"model": "memory", "V": 1e9, "processors": vec![p; m]}));
        row("memory", m, &out, None);
    }
    ExitCode::SUCCESS
}
