//! Adversarial input through the public API (`dlt_core::parse` of a
//! `serde_json::Value`, then `dlt_core::solve`), for every model of
//! `dlt_core::api::models()`: the example request of each model
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
//! - if a success: serialise, with every number finite.
//!
//! `ADVERSARIAL_RANDOM=N` sets the random combinations per model (default
//! below), `ADVERSARIAL_SEED` their seed. Keep the default run well under a
//! minute in debug mode on two cores: this runs in `cargo test --workspace`.

use serde::ser::{self, Serialize};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc;
use std::sync::Once;
use std::time::{Duration, Instant};

const EXAMPLES: &[(&str, &str)] = &[
    ("star", include_str!("../../../examples/star.json")),
    ("tree", include_str!("../../../examples/tree.json")),
    ("binomial", include_str!("../../../examples/binomial.json")),
    ("memory", include_str!("../../../examples/memory.json")),
    ("multi_installment", include_str!("../../../examples/multi_installment.json")),
    ("torus", include_str!("../../../examples/torus.json")),
    ("nonlinear", include_str!("../../../examples/nonlinear.json")),
    ("nonlinear_bounds", include_str!("../../../examples/nonlinear_bounds.json")),
    ("buffer_dstar", include_str!("../../../examples/buffer_dstar.json")),
    ("lb_layer", include_str!("../../../examples/lb_layer.json")),
    ("chunk_size", include_str!("../../../examples/chunk_size.json")),
    ("sweep", include_str!("../../../examples/sweep.json")),
];

/// No call may take longer (LP solves stop themselves at 20 s each).
const TIME_BOUND: Duration = Duration::from_secs(60);
/// Random multi-mutations per model by default; LP models get fewer since
/// each valid one is an LP solve in debug mode.
const RANDOM_CLOSED_FORM: usize = 400;
const RANDOM_LP: usize = 120;
/// Models whose valid requests solve LPs (slow in debug builds).
const LP_MODELS: &[&str] = &["star", "tree", "binomial", "memory"];

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
    (0..depth).fold(json!({}), |v, _| json!({ "a": v }))
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

/// The field of an error as a path: `a.b[2][0].c`.
fn parse_field(field: &str) -> Option<Vec<Seg>> {
    let mut out = Vec::new();
    for part in field.split('.') {
        let (key, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if key.is_empty() && out.is_empty() && rest.is_empty() {
            return None;
        }
        if !key.is_empty() {
            out.push(Seg::Key(key.to_string()));
        }
        while let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']')?;
            out.push(Seg::Idx(r[..end].parse().ok()?));
            rest = &r[end + 1..];
        }
        if !rest.is_empty() {
            return None;
        }
    }
    Some(out)
}

/// Does `field` name a field of `request`: a path that resolves, a key
/// that is there verbatim, or a missing field (its parent resolves, and the
/// key is one a request has: `known`).
fn names_field(request: &Value, field: &str, known: &[String]) -> bool {
    if request.as_object().is_some_and(|m| m.contains_key(field)) {
        return true;
    }
    let Some(path) = parse_field(field) else { return false };
    if get(request, &path).is_some() {
        return true;
    }
    match path.split_last() {
        Some((Seg::Key(k), parent)) => get(request, parent).is_some_and(Value::is_object) && known.iter().any(|x| x == k),
        _ => false,
    }
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
            let small = |x: &Value| copies <= 17 || x.to_string().len() <= 200;
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
                *slot = if rng.chance(1, 2) { json!([slot.take()]) } else { json!({ "value": slot.take() }) };
            }
            format!("{what} wrapped")
        }
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 60 {
        format!("{}... ({} chars)", &s[..s.char_indices().nth(50).map_or(s.len(), |(i, _)| i)], s.len())
    } else {
        s
    }
}

// ---- finite numbers in a response --------------------------------------------------

/// A serde serializer that only walks a value and fails on the first
/// non-finite float, naming its path (serde_json writes NaN as null, so
/// the JSON alone would hide it).
struct Finite<'a> {
    path: &'a RefCell<Vec<String>>,
}

#[derive(Debug)]
struct NotFinite(String);

impl fmt::Display for NotFinite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for NotFinite {}
impl ser::Error for NotFinite {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        NotFinite(msg.to_string())
    }
}

struct Compound<'a> {
    path: &'a RefCell<Vec<String>>,
    index: usize,
    key: Option<String>,
}

impl<'a> Compound<'a> {
    fn element<T: ?Sized + Serialize>(&mut self, label: String, value: &T) -> Result<(), NotFinite> {
        self.path.borrow_mut().push(label);
        let r = value.serialize(Finite { path: self.path });
        self.path.borrow_mut().pop();
        self.index += 1;
        r
    }
    fn indexed<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), NotFinite> {
        let label = format!("[{}]", self.index);
        self.element(label, value)
    }
}

impl<'a> Finite<'a> {
    fn float(self, x: f64) -> Result<(), NotFinite> {
        if x.is_finite() {
            Ok(())
        } else {
            Err(NotFinite(format!("{} = {x}", self.path.borrow().concat())))
        }
    }
    fn compound(self) -> Compound<'a> {
        Compound { path: self.path, index: 0, key: None }
    }
}

impl<'a> ser::Serializer for Finite<'a> {
    type Ok = ();
    type Error = NotFinite;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, _: bool) -> Result<(), NotFinite> {
        Ok(())
    }
    fn serialize_i8(self, _: i8) -> Result<(), NotFinite> {
        Ok(())
    }
    fn serialize_i16(self, _: i16) -> Result<(), NotFinite> {
        Ok(())
    }
    fn serialize_i32(self, _: i32) -> Result<(), NotFinite> {
        Ok(())
    }
    fn serialize_i64(self, _: i64) -> Result<(), NotFinite> {
        Ok(())
    }
    fn serialize_u8(self, _: u8) -> Result<(), NotFinite> {
        Ok(())
    }
    fn serialize_u16(self, _: u16) -> Result<(), NotFinite> {
        Ok(())
    }
    fn serialize_u32(self, _: u32) -> Result<(), NotFinite> {
        Ok(())
    }
    fn serialize_u64(self, _: u64) -> Result<(), NotFinite> {
        Ok(())
    }
    fn serialize_f32(self, x: f32) -> Result<(), NotFinite> {
        self.float(x as f64)
    }
    fn serialize_f64(self, x: f64) -> Result<(), NotFinite> {
        self.float(x)
    }
    fn serialize_char(self, _: char) -> Result<(), NotFinite> {
        Ok(())
    }
    fn serialize_str(self, _: &str) -> Result<(), NotFinite> {
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), NotFinite> {
        Ok(())
    }
    fn serialize_none(self) -> Result<(), NotFinite> {
        Ok(())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), NotFinite> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), NotFinite> {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), NotFinite> {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<(), NotFinite> {
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, value: &T) -> Result<(), NotFinite> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(self, _: &'static str, _: u32, _: &'static str, value: &T) -> Result<(), NotFinite> {
        value.serialize(self)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, NotFinite> {
        Ok(self.compound())
    }
    fn serialize_tuple(self, _: usize) -> Result<Compound<'a>, NotFinite> {
        Ok(self.compound())
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, NotFinite> {
        Ok(self.compound())
    }
    fn serialize_tuple_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Compound<'a>, NotFinite> {
        Ok(self.compound())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, NotFinite> {
        Ok(self.compound())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, NotFinite> {
        Ok(self.compound())
    }
    fn serialize_struct_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Compound<'a>, NotFinite> {
        Ok(self.compound())
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = NotFinite;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), NotFinite> {
        self.indexed(value)
    }
    fn end(self) -> Result<(), NotFinite> {
        Ok(())
    }
}
impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = NotFinite;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), NotFinite> {
        self.indexed(value)
    }
    fn end(self) -> Result<(), NotFinite> {
        Ok(())
    }
}
impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = NotFinite;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), NotFinite> {
        self.indexed(value)
    }
    fn end(self) -> Result<(), NotFinite> {
        Ok(())
    }
}
impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = NotFinite;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), NotFinite> {
        self.indexed(value)
    }
    fn end(self) -> Result<(), NotFinite> {
        Ok(())
    }
}
impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = NotFinite;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), NotFinite> {
        // Keys are names here; their numbers (if any) must be finite too.
        key.serialize(Finite { path: self.path })?;
        self.key = serde_json::to_value(key).ok().and_then(|k| k.as_str().map(String::from));
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), NotFinite> {
        let label = match self.key.take() {
            Some(k) => format!(".{k}"),
            None => format!(".<{}>", self.index),
        };
        self.element(label, value)
    }
    fn end(self) -> Result<(), NotFinite> {
        Ok(())
    }
}
impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = NotFinite;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<(), NotFinite> {
        self.element(format!(".{key}"), value)
    }
    fn end(self) -> Result<(), NotFinite> {
        Ok(())
    }
}
impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = NotFinite;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<(), NotFinite> {
        self.element(format!(".{key}"), value)
    }
    fn end(self) -> Result<(), NotFinite> {
        Ok(())
    }
}

/// The first non-finite number of `value`, by path.
fn non_finite<T: Serialize>(value: &T) -> Option<String> {
    let path = RefCell::new(Vec::new());
    value.serialize(Finite { path: &path }).err().map(|e| e.0)
}

// ---- running one input -----------------------------------------------------------

enum Outcome {
    Solved { response: Result<Value, String>, non_finite: Option<String> },
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
        dlt_core::parse(request).and_then(|r| dlt_core::solve(&r)).map(|response| {
            let non_finite = non_finite(&response);
            Outcome::Solved { response: serde_json::to_value(&response).map_err(|e| e.to_string()), non_finite }
        })
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
    /// Internal errors (well-formed, but a model's bug by definition).
    internal: Vec<String>,
    problems: Vec<String>,
}

fn code_name(code: dlt_core::Code) -> &'static str {
    match code {
        dlt_core::Code::Parse => "parse",
        dlt_core::Code::OutOfRange => "out_of_range",
        dlt_core::Code::Infeasible => "infeasible",
        dlt_core::Code::Limit => "limit",
        dlt_core::Code::Internal => "internal",
    }
}

/// Every key name of every example: the fields a request can have.
fn known_fields() -> Vec<String> {
    let mut names: Vec<String> = vec!["model".into(), "prune".into(), "D".into(), "n".into(), "m".into(), "p".into(), "h".into(), "rho".into()];
    for (_, text) in EXAMPLES {
        let v: Value = serde_json::from_str(text).unwrap();
        for path in paths(&v) {
            if let Some(Seg::Key(k)) = path.last() {
                names.push(k.clone());
            }
        }
    }
    names.sort();
    names.dedup();
    names
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
        Some(Outcome::Solved { response, non_finite }) => {
            tally.solved += 1;
            match (response, non_finite) {
                (Err(e), _) => Some(format!("the response does not serialise: {e}")),
                (_, Some(at)) => Some(format!("non-finite number in the response: {at}")),
                (Ok(v), None) if !v.is_object() => Some(format!("the response is not an object: {}", short(&v))),
                _ => None,
            }
        }
        Some(Outcome::Failed(e)) => {
            let code = code_name(e.code);
            *tally.errors.entry(code).or_default() += 1;
            if code == "internal" {
                tally.internal.push(format!("{what}: {}\n    request: {}", e.message, short_request(request)));
            }
            if e.message.trim().is_empty() {
                Some(format!("{code} error with an empty message (field {:?})", e.field))
            } else if matches!(code, "parse" | "out_of_range") {
                if e.field.is_empty() {
                    // Only an error about the request as a whole may name no
                    // field, or one about a key that is the empty string.
                    let empty_key = e.message.contains("field ``") && has_empty_key(request);
                    (request.is_object() && !empty_key).then(|| format!("{code} error without a field: {}", e.message))
                } else if !names_field(request, &e.field, known) {
                    Some(format!("{code} error names field {:?}, not a field of the request: {}", e.field, e.message))
                } else {
                    None
                }
            } else {
                None
            }
        }
    };
    if let Some(p) = problem {
        tally.problems.push(format!("{what}: {p}\n    request: {}", short_request(request)));
    }
}

fn has_empty_key(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.contains_key("") || m.values().any(has_empty_key),
        Value::Array(xs) => xs.iter().any(has_empty_key),
        _ => false,
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

fn example(model: &str) -> Value {
    let text = EXAMPLES.iter().find(|(m, _)| *m == model).unwrap_or_else(|| panic!("no example for model {model}: add examples/{model}.json here")).1;
    serde_json::from_str(text).unwrap()
}

/// Inputs known to break the core (reported; their own ignored tests
/// below assert the correct behaviour). Empty when none is known.
fn known_bug(_request: &Value) -> Option<&'static str> {
    None
}

/// Every single mutation of every field of the model's example, then
/// seeded random combinations of 1-4 mutations.
fn adversarial(model: &str) {
    let base = example(model);
    let pool = pool();
    let known = known_fields();
    let mut tally = Tally::default();
    let mut skipped = 0;
    let mut heavy = 0;
    let max_messages = env_usize("ADVERSARIAL_MAX_MESSAGES", MAX_MESSAGES_DEBUG) as f64;
    let mut try_one = |tally: &mut Tally, request: &Value, what: &str| {
        if known_bug(request).is_some() {
            skipped += 1;
        } else if lp_messages(request).is_some_and(|n| n > max_messages) {
            // Valid but large: a large LP, seconds in a debug build.
            heavy += 1;
        } else {
            check(tally, request, what, &known);
        }
    };

    try_one(&mut tally, &base, "the example");
    let lp = LP_MODELS.contains(&model);
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
    // Huge lists: every list of the example, far beyond its limit.
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
    let count = env_usize("ADVERSARIAL_RANDOM", if lp { RANDOM_LP } else { RANDOM_CLOSED_FORM });
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
        match (skipped, heavy) {
            (0, 0) => String::new(),
            _ => format!("; skipped: {skipped} known bugs, {heavy} LPs over {max_messages} messages"),
        },
        tally.slowest.0,
        tally.slowest.1
    );
    for e in &tally.internal {
        println!("  internal error (a bug of the model, reported): {e}");
    }
    assert!(
        tally.problems.is_empty(),
        "{model}: {} of {} adversarial inputs misbehaved:\n{}",
        tally.problems.len(),
        tally.tried,
        tally.problems.iter().take(env_usize("ADVERSARIAL_SHOW", 30)).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// Messages (chunk variables) of the LP a request of an LP model would
/// solve, estimated from its fields as the core counts stages (n, or n_min
/// from V and D); None when the request is not of that shape or fails
/// validation on its counts (V, D, m, p, h, n, list lengths) before any LP.
fn lp_messages(request: &Value) -> Option<f64> {
    let num = |k: &str| request.get(k).and_then(Value::as_f64);
    let count = |k: &str, hi: f64| num(k).filter(|x| x.fract() == 0.0 && (1.0..=hi).contains(x));
    let positive = |k: &str| num(k).filter(|x| *x > 0.0 && *x <= 1e15);
    let stages = |per_stage: f64, capacity: f64| -> Option<f64> {
        let v = positive("V")?;
        let n_min = match request.get("D") {
            Some(_) => (v / (positive("D")? * capacity)).ceil(),
            None => 1.0,
        };
        let n = match request.get("n") {
            Some(_) => count("n", 1e5)?,
            None => 1.0,
        };
        Some(per_stage * n.max(n_min)).filter(|&m| m <= 2e5)
    };
    match request.get("model")?.as_str()? {
        "star" => stages(count("m", 1000.0)?, count("m", 1000.0)?),
        "tree" => {
            let (p, h) = (count("p", 100.0)?, count("h", 100.0)?);
            stages(h * (h + 1.0) / 2.0, p * h)
        }
        "binomial" => {
            let (p, h) = (count("p", 100.0)?, count("h", 100.0)?);
            stages(h, h * (p + 1.0) - 1.0)
        }
        "memory" => {
            let list = request.get("processors")?.as_array()?;
            let pieces = |p: &Value| p.get("pieces").and_then(Value::as_array).map_or(0, Vec::len) as f64;
            Some(list.iter().map(|p| 1.0 + pieces(p)).sum::<f64>()).filter(|_| list.len() <= 100_000)
        }
        _ => None,
    }
}

/// Above this many messages an LP takes seconds in a debug build: such
/// inputs run only with ADVERSARIAL_MAX_MESSAGES raised.
const MAX_MESSAGES_DEBUG: usize = 400;

// ---- one test per model --------------------------------------------------------------

#[test]
fn every_model_has_an_example() {
    for model in dlt_core::api::models() {
        example(model);
    }
}

macro_rules! per_model {
    ($($name:ident => $model:literal,)*) => {
        $(
            #[test]
            fn $name() {
                adversarial($model);
            }
        )*
        /// Fails when a model is added without being listed here.
        #[test]
        fn every_model_is_attacked() {
            let listed = [$($model),*];
            for model in dlt_core::api::models() {
                assert!(listed.contains(&model), "model {model} has no adversarial test: add it to per_model!");
            }
        }
    };
}

per_model! {
    star => "star",
    tree => "tree",
    binomial => "binomial",
    memory => "memory",
    multi_installment => "multi_installment",
    torus => "torus",
    nonlinear => "nonlinear",
    nonlinear_bounds => "nonlinear_bounds",
    buffer_dstar => "buffer_dstar",
    lb_layer => "lb_layer",
    chunk_size => "chunk_size",
    sweep => "sweep",
}

/// Inputs that are not requests at all, and broken model names.
#[test]
fn whole_requests() {
    let known = known_fields();
    let mut tally = Tally::default();
    let mut inputs: Vec<Value> = pool();
    for model in dlt_core::api::models() {
        inputs.push(json!({ "model": model }));
        inputs.push(json!({ "model": model.to_uppercase() }));
        inputs.push(json!({ "model": [model] }));
    }
    inputs.extend([json!({}), json!({"model": null}), json!({"model": 1}), json!({"model": "nope", "m": 3}), json!({"model": ""})]);
    // A sweep nested in sweeps, and a sweep of a sweep.
    let mut nested = example("torus");
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
