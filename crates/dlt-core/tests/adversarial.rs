//! Adversarial input through the public API (`dlt_core::parse` of a
//! `serde_json::Value`, then `dlt_core::solve`), for every model of
//! `dlt_core::api::names()`: the example request of each model
//! (examples/*.json) mutated with huge, tiny, zero, negative and NaN-like
//! values, wrong types, missing and extra fields, huge lists and deeply
//! nested values, one mutation at a time for every field and then seeded
//! random combinations. Every input must
//! - not panic (caught with `catch_unwind`),
//! - return within `TIME_BOUND` (each call runs on its own thread),
//! - if an error: carry a non-empty message, and for `parse` and
//!   `out_of_range` a non-empty `field` naming a field of the request (a path
//!   such as `processors[1].pieces[0][1]` that resolves in it, or a missing
//!   field whose parent is there),
//! - if a success: serialise, with every number finite (checked on the
//!   typed response: serde_json would write NaN and infinity as null).
//!
//! The checks of an answer are shared with the fuzz target (fuzz/src/lib.rs)
//! in `wellformed/mod.rs`. Internal errors are well-formed by this
//! definition but are a model's bug each: they are printed, not failed. Any
//! other problem fails; the `bug_*` tests at the end keep the minimal input
//! of every bug this suite and the HiGHS cross-check found, fixed since.
//!
//! Valid requests that ask for much work by their own choice (LPs of more
//! than MAX_MESSAGES_DEBUG messages, large MIP budgets) are skipped.
//! `ADVERSARIAL_RANDOM=N` sets the random combinations per model,
//! `ADVERSARIAL_SEED` their seed, `ADVERSARIAL_MAX_MESSAGES` the LP size
//! limit, `ADVERSARIAL_VERBOSE=1` prints every input with its time. The
//! default run takes about 35 s in a debug build on two cores: it runs in
//! `cargo test --workspace`.

mod wellformed;

use serde_json::{json, Value};
use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc;
use std::sync::Once;
use std::time::{Duration, Instant};
use wellformed::{code_name, field_names, heavy, response_problem, short, well_formed, Budget};

/// The example requests, read at run time so that a new model's example
/// is attacked as soon as it is added: (model, request).
fn examples() -> Vec<(String, Value)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut out: Vec<(String, Value)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            if path.extension()? != "json" {
                return None;
            }
            let model = path.file_stem()?.to_str()?.to_string();
            let text = std::fs::read_to_string(&path).ok()?;
            Some((model, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))))
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// No call may take longer: a hang, not a measure of speed (the requests
/// are small, and LPs of more than 30,000 variables are refused).
const TIME_BOUND: Duration = Duration::from_secs(60);
/// Random multi-mutations per model by default; models whose valid requests
/// solve LPs or MIPs get fewer (each is a solve in a debug build).
const RANDOM_FAST: usize = 400;
const RANDOM_SLOW: usize = 120;
const SLOW_MODELS: &[&str] = &["star", "tree", "binomial", "memory", "isoefficiency", "isoefficiency_map"];

// ---- a small seeded generator ---------------------------------------------

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next() % den < num
    }
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

// ---- hostile values ----------------------------------------------------------

fn nested_array(depth: usize) -> Value {
    (0..depth).fold(json!(1), |v, _| Value::Array(vec![v]))
}

fn nested_object(depth: usize) -> Value {
    // Not json!({"a": v}): it serialises v again, quadratic in depth.
    (0..depth).fold(json!({}), |v, _| Value::Object([("a".to_string(), v)].into_iter().collect()))
}

/// Values to put where any field was: numbers at and beyond every range
/// limit, NaN-like strings, wrong types, deep nesting.
fn pool() -> Vec<Value> {
    let mut v: Vec<Value> = [
        1e300, -1e300, 1e16, -1e16, 1e15, -1e15, 1e-300, -1e-300, 5e-324, f64::MIN_POSITIVE, f64::MAX, f64::MIN, 0.0, -0.0, 0.5,
        -0.5, 1.0, 1.5, 2.0, 3.0, 7.0, 1e-9, 1e9 + 0.5, 4294967296.0, 9007199254740993.0,
    ]
    .iter()
    .map(|&x| json!(x))
    .collect();
    v.extend([json!(0), json!(-1), json!(1), json!(2), json!(5), json!(101), json!(u64::MAX), json!(i64::MIN)]);
    v.extend(
        ["NaN", "nan", "Infinity", "-Infinity", "inf", "1e3", "", "0", "star", "NLF", "LLF", "C", "tree1", "\u{0}", "é😀\u{202e}"]
            .iter()
            .map(|s| json!(s)),
    );
    v.push(Value::String("9".repeat(10_000)));
    v.extend([json!(true), json!(false), Value::Null]);
    v.extend([json!([]), json!([1]), json!([0, 0]), json!(["NaN"]), json!([[1, 1]]), json!([null]), json!([[1, 1], [2]]), json!([1, 2, 3])]);
    v.extend([json!({}), json!({"model": "torus"}), json!({"S": 1, "C": 1, "pieces": [[1, 1]]}), json!({"$serde_json::private::Number": "1"})]);
    v.extend([nested_array(40), nested_object(40), nested_array(400), nested_object(400)]);
    v
}

/// Extra keys, at the top and in nested objects.
const EXTRA_KEYS: &[&str] = &["extra", "model", "prune", "D", "n", "m", "p", "h", "S", "V", "rho", "real_pieces", "", " ", "a.b", "x[0]", "`", "M\u{fffd}"];

// ---- paths -------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
enum Seg {
    Key(String),
    Idx(usize),
}

/// Every node below the root (lists: their first two entries and the last).
fn paths(v: &Value) -> Vec<Vec<Seg>> {
    fn walk(v: &Value, at: &mut Vec<Seg>, out: &mut Vec<Vec<Seg>>) {
        match v {
            Value::Object(map) => {
                for (k, x) in map {
                    at.push(Seg::Key(k.clone()));
                    out.push(at.clone());
                    walk(x, at, out);
                    at.pop();
                }
            }
            Value::Array(xs) => {
                let mut idx: Vec<usize> = (0..xs.len().min(2)).collect();
                if xs.len() > 2 {
                    idx.push(xs.len() - 1);
                }
                for i in idx {
                    at.push(Seg::Idx(i));
                    out.push(at.clone());
                    walk(&xs[i], at, out);
                    at.pop();
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(v, &mut Vec::new(), &mut out);
    out
}

fn get<'a>(v: &'a Value, path: &[Seg]) -> Option<&'a Value> {
    path.iter().try_fold(v, |v, s| match s {
        Seg::Key(k) => v.as_object()?.get(k),
        Seg::Idx(i) => v.as_array()?.get(*i),
    })
}

fn get_mut<'a>(v: &'a mut Value, path: &[Seg]) -> Option<&'a mut Value> {
    path.iter().try_fold(v, |v, s| match s {
        Seg::Key(k) => v.as_object_mut()?.get_mut(k),
        Seg::Idx(i) => v.as_array_mut()?.get_mut(*i),
    })
}

fn show(path: &[Seg]) -> String {
    let mut s = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) if s.is_empty() => s.push_str(k),
            Seg::Key(k) => {
                s.push('.');
                s.push_str(k);
            }
            Seg::Idx(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

// ---- mutations -----------------------------------------------------------------

/// One mutation of `base` at `path`, chosen by `rng`; returns what it did.
fn mutate(rng: &mut Rng, v: &mut Value, pool: &[Value]) -> String {
    let all = paths(v);
    if all.is_empty() || rng.chance(1, 30) {
        // The whole request.
        let kind = rng.below(4);
        return match kind {
            0 => {
                *v = rng.pick(pool).clone();
                "request replaced".into()
            }
            1 => {
                if let Some(m) = v.as_object_mut() {
                    m.remove("model");
                }
                "model removed".into()
            }
            2 => {
                let name = rng.pick(&["", "STAR", "star ", "nope", "Sweep", "torus\u{0}"]).to_string();
                if let Some(m) = v.as_object_mut() {
                    m.insert("model".into(), json!(name));
                }
                format!("model {name:?}")
            }
            _ => {
                if let Some(m) = v.as_object_mut() {
                    m.insert(rng.pick(EXTRA_KEYS).to_string(), rng.pick(pool).clone());
                }
                "extra top-level key".into()
            }
        };
    }
    let path = rng.pick(&all).clone();
    let what = show(&path);
    match rng.below(10) {
        0..=5 => {
            let x = rng.pick(pool).clone();
            let shown = short(&x);
            if let Some(slot) = get_mut(v, &path) {
                *slot = x;
            }
            format!("{what} = {shown}")
        }
        6 => {
            let (last, parent) = path.split_last().unwrap();
            match (get_mut(v, parent), last) {
                (Some(Value::Object(m)), Seg::Key(k)) => {
                    m.remove(k);
                }
                (Some(Value::Array(xs)), Seg::Idx(i)) => {
                    xs.remove(*i);
                }
                _ => {}
            }
            format!("{what} removed")
        }
        7 => {
            // An extra key in the object holding this field.
            let key = rng.pick(EXTRA_KEYS).to_string();
            let x = rng.pick(pool).clone();
            if let Some(Value::Object(m)) = get_mut(v, &path[..path.len() - 1]) {
                m.insert(key.clone(), x);
            }
            format!("extra key {key:?} next to {what}")
        }
        8 => {
            // A longer list: the entry repeated (or a list made of the value).
            // Long lists only of small entries, to keep memory bounded.
            let copies = *rng.pick(&[3usize, 17, 1000, 100_001]);
            let small = |x: &Value| copies <= 17 || copies <= 1000 && x.to_string().len() <= 200 || !(x.is_array() || x.is_object());
            if let Some(slot) = get_mut(v, &path) {
                *slot = match slot.take() {
                    Value::Array(xs) if !xs.is_empty() && xs.iter().all(small) => Value::Array(xs.iter().cycle().take(copies).cloned().collect()),
                    x if small(&x) => Value::Array(vec![x; copies]),
                    _ => Value::Array(vec![json!(1.5); copies]),
                };
            }
            format!("{what} as a list of {copies}")
        }
        _ => {
            // Wrapped: the same value one level deeper.
            if let Some(slot) = get_mut(v, &path) {
                let x = slot.take();
                *slot = if rng.chance(1, 2) { Value::Array(vec![x]) } else { Value::Object([("value".to_string(), x)].into_iter().collect()) };
            }
            format!("{what} wrapped")
        }
    }
}

// ---- running one input -----------------------------------------------------------

enum Outcome {
    /// A success, and its problem if any.
    Solved(Option<String>),
    Failed(dlt_core::Error),
    Panicked(String),
}

thread_local! {
    static PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// On the threads that run inputs, panics are recorded for the report
/// instead of printed (catch_unwind still catches them); elsewhere (the
/// tests' own assertions) the default hook prints them.
fn quiet_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if std::thread::current().name() != Some(CASE_THREAD) {
                return default(info);
            }
            let here = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
            let message = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(non-string payload)".into());
            PANIC.with(|p| *p.borrow_mut() = Some(format!("{message}{here}")));
        }));
    });
}

const CASE_THREAD: &str = "adversarial case";

/// parse + solve + serialise, panics caught.
fn run(request: Value) -> Outcome {
    quiet_panics();
    PANIC.with(|p| p.borrow_mut().take());
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        dlt_core::parse(request).and_then(|r| dlt_core::solve(&r)).map(|response| Outcome::Solved(response_problem(&response)))
    }));
    match result {
        Ok(Ok(solved)) => solved,
        Ok(Err(e)) => Outcome::Failed(e),
        Err(_) => Outcome::Panicked(PANIC.with(|p| p.borrow_mut().take()).unwrap_or_else(|| "panic".into())),
    }
}

/// `run` on a thread of its own, given at most TIME_BOUND; None if it took
/// longer (the thread is left behind; the test fails).
fn run_bounded(request: &Value) -> (Option<Outcome>, Duration) {
    let (tx, rx) = mpsc::channel();
    let request = request.clone();
    let start = Instant::now();
    std::thread::Builder::new()
        .name(CASE_THREAD.into())
        .stack_size(64 << 20)
        .spawn(move || {
            let _ = tx.send(run(request));
        })
        .expect("spawn");
    let outcome = rx.recv_timeout(TIME_BOUND).ok();
    (outcome, start.elapsed())
}

// ---- the checks ---------------------------------------------------------------------

#[derive(Default)]
struct Tally {
    tried: usize,
    solved: usize,
    errors: std::collections::BTreeMap<&'static str, usize>,
    slowest: (Duration, String),
    /// What went wrong: panics, hangs, malformed or internal errors.
    problems: Vec<String>,
}

/// Every key name of every example: the fields a request can have.
fn known_fields() -> Vec<String> {
    field_names(examples().iter().map(|(_, v)| v))
}

/// Checks one input; problems go to the tally, with the input.
fn check(tally: &mut Tally, request: &Value, what: &str, known: &[String]) {
    tally.tried += 1;
    let (outcome, took) = run_bounded(request);
    if std::env::var_os("ADVERSARIAL_VERBOSE").is_some() {
        eprintln!("adversarial: {took:.2?} {what}");
    }
    if took > tally.slowest.0 {
        tally.slowest = (took, what.to_string());
    }
    let problem = match outcome {
        None => Some(format!("did not return within {TIME_BOUND:?}")),
        Some(Outcome::Panicked(message)) => Some(format!("panicked: {message}")),
        Some(Outcome::Solved(problem)) => {
            tally.solved += 1;
            problem
        }
        Some(Outcome::Failed(e)) => {
            let code = code_name(e.code);
            *tally.errors.entry(code).or_default() += 1;
            // An internal error is a model's bug (a schedule the checker
            // refused, an engine's wrong answer): a failure, not a statistic.
            if code == "internal" {
                Some(format!("internal error: {}", e.message))
            } else {
                well_formed(&e, Some(request), known).err()
            }
        }
    };
    if let Some(p) = problem {
        tally.problems.push(format!("{what}: {p}\n    request: {}", short_request(request)));
    }
}

fn short_request(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 400 {
        format!("{}... ({} chars)", &s[..s.char_indices().nth(400).map_or(s.len(), |(i, _)| i)], s.len())
    } else {
        s
    }
}

/// The example request of `model`, made cheap where a valid request's cost
/// is its own choice (the MIP models: each solve spends its LP budget, and
/// a map solves many).
fn example(model: &str) -> Option<Value> {
    let mut v = examples().into_iter().find(|(m, _)| m == model)?.1;
    for (m, key, cheap) in CHEAPER {
        if *m == model && v.get(*key).is_some() {
            v[*key] = serde_json::from_str(cheap).unwrap();
        }
    }
    Some(v)
}

/// Fields of the MIP models' examples changed here: (model, field, value).
/// Their own (500 LPs per MIP; a map of 2 machine counts, 2 levels, width
/// 100) take seconds per request in a debug build.
const CHEAPER: &[(&str, &str, &str)] = &[
    ("isoefficiency", "lp_budget", "5"),
    ("isoefficiency_map", "lp_budget", "1"),
    ("isoefficiency_map", "m_range", "[2, 2]"),
    ("isoefficiency_map", "levels", "[10]"),
    ("isoefficiency_map", "width", "20000"),
];

/// Valid requests whose cost is large by their own choice (large LPs, long
/// MIP budgets, wide maps) are skipped in the default run: their time
/// is bounded by the core's limits but far beyond a debug test's budget.
fn budget() -> Budget {
    Budget {
        lp_messages: env_usize("ADVERSARIAL_MAX_MESSAGES", MAX_MESSAGES_DEBUG) as f64,
        mip_lp_budget: 20.0,
        map_lp_budget: 2.0,
        map_machines: 1.0,
        map_levels: 2,
        map_v_steps: 1e3,
        // A sweep's points are few and cheap in the inputs made here.
        sweep_values: None,
    }
}

/// Above this many messages an LP takes seconds in a debug build: such
/// inputs run only with ADVERSARIAL_MAX_MESSAGES raised.
const MAX_MESSAGES_DEBUG: usize = 400;
/// Every single mutation of every field of the model's example, then
/// seeded random combinations of 1-4 mutations.
fn adversarial(model: &str) {
    let Some(base) = example(model) else {
        println!("adversarial {model}: no examples/{model}.json, so only whole-request inputs (whole_requests)");
        return;
    };
    let pool = pool();
    let known = known_fields();
    let mut tally = Tally::default();
    let mut skipped = 0;
    let budget = budget();
    let mut try_one = |tally: &mut Tally, request: &Value, what: &str| {
        if heavy(request, &budget) {
            // Valid but large by its own choice: seconds in a debug build.
            skipped += 1;
        } else {
            check(tally, request, what, &known);
        }
    };

    try_one(&mut tally, &base, "the example");
    for path in paths(&base) {
        let at = show(&path);
        for x in &pool {
            let mut v = base.clone();
            *get_mut(&mut v, &path).unwrap() = x.clone();
            try_one(&mut tally, &v, &format!("{at} = {}", short(x)));
        }
        let mut v = base.clone();
        let (last, parent) = path.split_last().unwrap();
        match (get_mut(&mut v, parent), last) {
            (Some(Value::Object(m)), Seg::Key(k)) => {
                m.remove(k);
            }
            (Some(Value::Array(xs)), Seg::Idx(i)) => {
                xs.remove(*i);
            }
            _ => {}
        }
        try_one(&mut tally, &v, &format!("{at} removed"));
    }
    for key in EXTRA_KEYS {
        let mut v = base.clone();
        v.as_object_mut().unwrap().insert(key.to_string(), json!(1));
        try_one(&mut tally, &v, &format!("extra key {key:?}"));
    }
    // Huge lists: every list of the example, far beyond any limit.
    for path in paths(&base) {
        if let Some(Value::Array(xs)) = get(&base, &path) {
            if xs.is_empty() {
                continue;
            }
            let mut v = base.clone();
            let long: Vec<Value> = xs.iter().cycle().take(200_001).cloned().collect();
            *get_mut(&mut v, &path).unwrap() = Value::Array(long);
            try_one(&mut tally, &v, &format!("{} as a list of 200001", show(&path)));
        }
    }

    let seed = env_usize("ADVERSARIAL_SEED", 1) as u64;
    let count = env_usize("ADVERSARIAL_RANDOM", if SLOW_MODELS.contains(&model) { RANDOM_SLOW } else { RANDOM_FAST });
    let mut rng = Rng(seed ^ model.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3)));
    for i in 0..count {
        let mut v = base.clone();
        let k = 1 + rng.below(4);
        let what: Vec<String> = (0..k).map(|_| mutate(&mut rng, &mut v, &pool)).collect();
        try_one(&mut tally, &v, &format!("random #{i}: {}", what.join("; ")));
    }

    let errors: Vec<String> = tally.errors.iter().map(|(c, n)| format!("{n} {c}")).collect();
    println!(
        "adversarial {model}: {} inputs tried ({} solved; errors: {}){}; slowest {:.2?} ({})",
        tally.tried,
        tally.solved,
        if errors.is_empty() { "none".into() } else { errors.join(", ") },
        if skipped > 0 { format!("; {skipped} valid but heavy inputs skipped") } else { String::new() },
        tally.slowest.0,
        short_str(&tally.slowest.1, 120),
    );
    assert!(
        tally.problems.is_empty(),
        "{model}: {} of {} adversarial inputs misbehaved:\n{}",
        tally.problems.len(),
        tally.tried,
        tally.problems.iter().take(env_usize("ADVERSARIAL_SHOW", 30)).cloned().collect::<Vec<_>>().join("\n")
    );
}

fn short_str(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

// ---- one test per model --------------------------------------------------------------

#[test]
fn every_model_is_attacked() {
    let listed = LISTED;
    let missing: Vec<&str> = dlt_core::api::names().into_iter().filter(|m| example(m).is_none()).collect();
    if !missing.is_empty() {
        println!("models without an example (attacked by whole_requests only): {missing:?}");
    }
    let unlisted: Vec<&str> = dlt_core::api::names().into_iter().filter(|m| !listed.contains(m)).collect();
    // A model added since this list was written is attacked here.
    for model in unlisted {
        adversarial(model);
    }
}

macro_rules! per_model {
    ($($name:ident => $model:literal,)*) => {
        $(
            #[test]
            fn $name() {
                if dlt_core::api::names().contains(&$model) {
                    adversarial($model);
                }
            }
        )*
        const LISTED: &[&str] = &[$($model),*];
    };
}

per_model! {
    star => "star",
    tree => "tree",
    binomial => "binomial",
    memory => "memory",
    multi_installment => "multi_installment",
    isoefficiency => "isoefficiency",
    isoefficiency_map => "isoefficiency_map",
    torus => "torus",
    nonlinear => "nonlinear",
    nonlinear_bounds => "nonlinear_bounds",
    buffer_dstar => "buffer_dstar",
    lb_layer => "lb_layer",
    chunk_size => "chunk_size",
    sweep => "sweep",
}

/// Inputs that are not requests at all, broken model names, every model
/// with no parameters or with hostile extra ones, sweeps nested in sweeps.
#[test]
fn whole_requests() {
    let known = known_fields();
    let mut tally = Tally::default();
    let pool = pool();
    let mut inputs: Vec<Value> = pool.clone();
    for model in dlt_core::api::names() {
        inputs.push(json!({ "model": model }));
        inputs.push(json!({ "model": model.to_uppercase() }));
        inputs.push(json!({ "model": [model] }));
        inputs.push(json!({ "model": model, "extra": 1 }));
        for (i, x) in pool.iter().enumerate().step_by(5) {
            inputs.push(json!({ "model": model, EXTRA_KEYS[i % EXTRA_KEYS.len()]: x }));
        }
    }
    inputs.extend([json!({}), json!({"model": null}), json!({"model": 1}), json!({"model": "nope", "m": 3}), json!({"model": ""})]);
    let mut nested = example("torus").unwrap_or(json!({"model": "torus"}));
    for _ in 0..50 {
        nested = json!({"model": "sweep", "request": nested, "parameter": "V", "values": [1e3]});
    }
    inputs.push(nested);
    for v in &inputs {
        check(&mut tally, v, &format!("whole request {}", short(v)), &known);
    }
    println!("adversarial whole requests: {} inputs tried", tally.tried);
    assert!(tally.problems.is_empty(), "{}", tally.problems.join("\n"));
}

/// Values nested far deeper than any JSON text parser allows (serde_json
/// stops at 128): the request is a `Value`, as from the browser.
#[test]
fn deep_nesting() {
    // Cloning and dropping such values recurses: a large stack for this
    // test's own thread too.
    std::thread::Builder::new().stack_size(256 << 20).spawn(deep_nesting_inner).unwrap().join().unwrap();
}

fn deep_nesting_inner() {
    let known = known_fields();
    let mut tally = Tally::default();
    for depth in [1_000, 10_000] {
        for model in ["torus", "memory", "sweep"] {
            let Some(mut v) = example(model) else { continue };
            let key = v.as_object().unwrap().keys().find(|k| *k != "model").unwrap().clone();
            v[&key] = nested_array(depth);
            check(&mut tally, &v, &format!("{model}.{key} nested {depth} deep"), &known);
            v[&key] = nested_object(depth);
            check(&mut tally, &v, &format!("{model}.{key} nested {depth} deep in objects"), &known);
        }
    }
    println!("adversarial deep nesting: {} inputs tried", tally.tried);
    assert!(tally.problems.is_empty(), "{}", tally.problems.join("\n"));
}

// ---- the bugs found, one minimal input each (all fixed) ----------

/// One input must be answered well: no panic, in time, a well-formed error
/// or a success with finite numbers everywhere.
fn well_behaved(request: Value) {
    let mut tally = Tally::default();
    check(&mut tally, &request, "this input", &known_fields());
    assert!(tally.problems.is_empty(), "{}", tally.problems.join("\n"));
}

/// One input must not end in an internal error (a model's bug: the
/// checker rejected its schedule, or the LP engine failed on a valid LP).
fn no_internal_error(request: Value) {
    well_behaved(request.clone());
    if let Ok(r) = dlt_core::parse(request) {
        if let Err(e) = dlt_core::solve(&r) {
            assert_ne!(e.code, dlt_core::Code::Internal, "internal error: {}", e.message);
        }
    }
}

#[test]
fn bug_chunk_size_infinite_beta_max() {
    well_behaved(json!({"model": "chunk_size", "m": 10, "S": 1e-3, "C": 9.99e-5, "Al1": 0, "Al2": 1e-3, "Ah1": 1, "Ah2": 0.1}));
}

#[test]
fn bug_memory_infinite_swap_point() {
    well_behaved(json!({"model": "memory", "V": 2, "processors": [{"S": 1, "C": 1, "pieces": [[1, 1]]}]}));
}

#[test]
fn bug_lb_layer_tiny_s() {
    well_behaved(json!({"model": "lb_layer", "p": 1, "h": 1, "S": 5e-324, "C": 1e-6, "A": 1e-3, "V": 1e6}));
}

#[test]
fn bug_lb_layer_tiny_v() {
    well_behaved(json!({"model": "lb_layer", "p": 1, "h": 1, "S": 1e-3, "C": 1e-6, "A": 1e-3, "V": 5e-324}));
}

#[test]
fn bug_nonlinear_tiny_g() {
    well_behaved(json!({"model": "nonlinear", "algorithm": "M", "L": 100, "gamma": 2, "rho": 2, "A0": 1, "A": [1.2], "G": [5e-324]}));
}

#[test]
fn bug_torus_tiny_v() {
    well_behaved(json!({"model": "torus", "k": 1, "S": 1e-4, "C": 1e-7, "A": 1e-6, "V": 5e-324}));
}

#[test]
fn bug_multi_installment_negative_time() {
    no_internal_error(json!({"model": "multi_installment", "V": 10, "beta": 10, "processors": [{"S": 0, "C": 0, "pieces": [[-5, 0.1]]}]}));
}

#[test]
fn bug_memory_badly_scaled_time_unit() {
    no_internal_error(json!({"model": "memory", "V": 1, "processors": [{"S": 0, "C": 1, "pieces": [[0, 1]]}, {"S": 0, "C": 1e11, "pieces": [[0, 1]]}]}));
}

#[test]
fn bug_memory_tiny_coefficient() {
    no_internal_error(json!({"model": "memory", "V": 2, "processors": [{"S": 1, "C": 1e-300, "pieces": [[1, 1]]}, {"S": 1, "C": 1, "pieces": [[1, 1]]}]}));
}

#[test]
fn bug_tree_negative_start() {
    no_internal_error(json!({"model": "tree", "p": 3, "h": 2, "S": 0, "C": 1e-5, "A": 2.5e-6, "V": 103, "order": "LLF", "buffers": 1, "D": 16}));
}

#[test]
fn bug_isoefficiency_map_hangs() {
    well_behaved(json!({"model": "isoefficiency_map", "m_range": [2, 2], "n": 20, "levels": [], "V_range": [999999999999990.0, 1e15],
        "S": 25.4, "O": 0.075, "C": 0.005, "a1": 0.109, "a2": 4.132, "b2": -27109, "width": 1e-3, "lp_budget": 1}));
}

#[test]
fn bug_tree_large_a_negative_start() {
    no_internal_error(json!({"model": "tree", "p": 2, "h": 4, "S": 1e-3, "C": 1e-6, "A": 1e7, "V": 1e5, "D": 1e4, "order": "NLF", "buffers": 1}));
}

#[test]
fn bug_star_tiny_c() {
    no_internal_error(json!({"model": "star", "m": 10, "S": 1e-3, "C": 1e-300, "A": 1e-3, "V": 5e3, "D": 1e4, "n": 3}));
}
