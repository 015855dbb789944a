//! What makes an answer of the JSON API well formed, and which requests ask
//! for too much work to try: one copy of the checks shared by the
//! adversarial suite (`crates/dlt-core/tests/adversarial.rs`, `mod
//! wellformed;`) and the fuzz target (`fuzz/src/lib.rs`, by `#[path]`).
//!
//! - An error carries a non-empty message; a `parse` or `out_of_range` error
//!   names a field of the request ([`well_formed`]).
//! - A success serialises to a JSON object with every number finite
//!   ([`response_problem`], [`non_finite`]).
//! - [`heavy`]: valid requests that ask for much work by their own choice,
//!   which a harness skips; each passes its own [`Budget`].
//!
//! Where the two harnesses' copies differed, the stricter check is kept;
//! each place says why. This file depends only on `dlt_core`, `serde` and
//! `serde_json`, which both harnesses have.

use serde::ser::{self, Serialize};
use serde_json::Value;
use std::fmt;

// ---- errors ----------------------------------------------------------------

/// The wire name of an error code.
pub fn code_name(code: dlt_core::Code) -> &'static str {
    match code {
        dlt_core::Code::Parse => "parse",
        dlt_core::Code::OutOfRange => "out_of_range",
        dlt_core::Code::Infeasible => "infeasible",
        dlt_core::Code::Limit => "limit",
        dlt_core::Code::Internal => "internal",
    }
}

/// An error's problems, if any: an empty message; for `parse` and
/// `out_of_range`, no field while the request is a JSON object, or a field
/// that is not one of the request (see [`names_field`]). `request` is what
/// the core read (None: the input is not JSON at all, so an error about it
/// is one about the request as a whole); `known` the field names any
/// request has ([`field_names`]).
///
/// Stricter than the fuzz target's former copy, which accepted any
/// non-empty field and excused a missing one whenever the message spoke of
/// a key "": a field must resolve in the request, and the excuse holds only
/// if the request has such a key (a message may quote "" for other reasons).
pub fn well_formed(e: &dlt_core::Error, request: Option<&Value>, known: &[String]) -> Result<(), String> {
    let code = code_name(e.code);
    if e.message.trim().is_empty() {
        return Err(format!("{code} error with an empty message (field {:?})", e.field));
    }
    if !matches!(e.code, dlt_core::Code::Parse | dlt_core::Code::OutOfRange) {
        return Ok(());
    }
    let Some(request) = request else { return Ok(()) };
    if e.field.is_empty() {
        // Only an error about the request as a whole may name no field,
        // or one about a key that is the empty string.
        let empty_key = e.message.contains("field ``") && has_empty_key(request);
        if request.is_object() && !empty_key {
            return Err(format!("{code} error without a field: {}", e.message));
        }
    } else if !names_field(request, &e.field, &e.message, known) {
        return Err(format!("{code} error names field {:?}, not a field of the request: {}", e.field, e.message));
    }
    Ok(())
}

fn has_empty_key(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.contains_key("") || m.values().any(has_empty_key),
        Value::Array(xs) => xs.iter().any(has_empty_key),
        _ => false,
    }
}

/// Every key name of the given requests (the examples) and the optional
/// fields no example shows: the fields a request can have.
pub fn field_names<'a>(requests: impl IntoIterator<Item = &'a Value>) -> Vec<String> {
    fn keys(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(map) => {
                for (k, x) in map {
                    out.push(k.clone());
                    keys(x, out);
                }
            }
            Value::Array(xs) => xs.iter().for_each(|x| keys(x, out)),
            _ => {}
        }
    }
    let mut names: Vec<String> = ["model", "prune", "D", "n", "m", "p", "h", "rho"].iter().map(|s| s.to_string()).collect();
    for v in requests {
        keys(v, &mut names);
    }
    names.sort();
    names.dedup();
    names
}

/// Does `field` name a field of `request`: a path that resolves in it, or
/// a missing field (the error says so, or it is a field some request has:
/// `known`) whose parent resolves to an object.
pub fn names_field(request: &Value, field: &str, message: &str, known: &[String]) -> bool {
    if resolves(request, field, |_| true) {
        return true;
    }
    let (parent, leaf) = match field.rfind(['.', ']']) {
        Some(i) if field.as_bytes()[i] == b'.' => (&field[..i], &field[i + 1..]),
        Some(_) => return false,
        None => ("", field),
    };
    let missing = message.contains(&format!("missing field `{leaf}`")) || known.iter().any(|k| k == leaf);
    missing && resolves(request, parent, Value::is_object)
}

/// Does the path text `field` (`processors[1].pieces[0][1]`) resolve in
/// `v` to a node for which `want` holds? Keys may themselves hold `.` or
/// `[`, so every way of reading the text is tried.
fn resolves(v: &Value, field: &str, want: fn(&Value) -> bool) -> bool {
    let mut found = false;
    walk_resolve(v, field, &mut |x| found |= want(x));
    found
}

fn walk_resolve(v: &Value, field: &str, at_end: &mut dyn FnMut(&Value)) {
    if field.is_empty() {
        return at_end(v);
    }
    if let (Some(rest), Value::Array(xs)) = (field.strip_prefix('['), v) {
        if let Some(end) = rest.find(']') {
            let tail = &rest[end + 1..];
            let tail = tail.strip_prefix('.').unwrap_or(tail);
            if let Some(x) = rest[..end].parse::<usize>().ok().and_then(|i| xs.get(i)) {
                walk_resolve(x, tail, at_end);
            }
        }
        return;
    }
    if let Value::Object(map) = v {
        for (k, x) in map {
            match field.strip_prefix(k.as_str()) {
                Some("") => at_end(x),
                Some(tail) if tail.starts_with('[') => walk_resolve(x, tail, at_end),
                // `a.` names the key "" in `a`.
                Some(".") => {
                    if let Some(y) = x.get("") {
                        at_end(y)
                    }
                }
                Some(tail) => {
                    if let Some(t) = tail.strip_prefix('.').filter(|t| !t.is_empty()) {
                        walk_resolve(x, t, at_end)
                    }
                }
                None => {}
            }
        }
    }
}

// ---- successes ---------------------------------------------------------------

/// A success's problem, if any: it does not serialise, holds a non-finite
/// number, or is not a JSON object.
pub fn response_problem<T: Serialize>(response: &T) -> Option<String> {
    let value = serde_json::to_value(response);
    let at = non_finite(response);
    match (value, at) {
        (Err(e), _) => Some(format!("the response does not serialise: {e}")),
        (_, Some(at)) => Some(format!("non-finite number in the response: {at}")),
        (Ok(v), None) if !v.is_object() => Some(format!("the response is not an object: {}", short(&v))),
        _ => None,
    }
}

/// A value as text, cut to about 50 characters.
pub fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 60 {
        format!("{}... ({} chars)", &s[..s.char_indices().nth(50).map_or(s.len(), |(i, _)| i)], s.len())
    } else {
        s
    }
}

/// The path of the first non-finite number of `value` (`.a[1] = NaN`),
/// found by a serde serializer that only walks it: serde_json writes NaN
/// and infinity as null, so the JSON alone would hide them.
pub fn non_finite<T: ?Sized + Serialize>(value: &T) -> Option<String> {
    value.serialize(Walk { path: String::new() }).err().map(|e| e.0)
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

/// The walk at one node: `path` leads to it from the root.
struct Walk {
    path: String,
}

/// The walk inside a list, tuple, map or struct.
struct Compound {
    path: String,
    index: usize,
    key: Option<String>,
}

impl Compound {
    fn at<T: ?Sized + Serialize>(&mut self, label: String, value: &T) -> Result<(), NotFinite> {
        self.index += 1;
        value.serialize(Walk { path: format!("{}{label}", self.path) })
    }
    fn next<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), NotFinite> {
        self.at(format!("[{}]", self.index), value)
    }
}

macro_rules! fine {
    ($($f:ident: $t:ty),*) => { $(fn $f(self, _: $t) -> Result<(), NotFinite> { Ok(()) })* };
}

impl ser::Serializer for Walk {
    type Ok = ();
    type Error = NotFinite;
    type SerializeSeq = Compound;
    type SerializeTuple = Compound;
    type SerializeTupleStruct = Compound;
    type SerializeTupleVariant = Compound;
    type SerializeMap = Compound;
    type SerializeStruct = Compound;
    type SerializeStructVariant = Compound;

    fine!(serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
          serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_u64: u64, serialize_char: char,
          serialize_str: &str, serialize_bytes: &[u8], serialize_unit_struct: &'static str);

    fn serialize_f32(self, x: f32) -> Result<(), NotFinite> {
        self.serialize_f64(x as f64)
    }
    fn serialize_f64(self, x: f64) -> Result<(), NotFinite> {
        if x.is_finite() {
            Ok(())
        } else {
            Err(NotFinite(format!("{} = {x}", self.path)))
        }
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
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<(), NotFinite> {
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, value: &T) -> Result<(), NotFinite> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(self, _: &'static str, _: u32, _: &'static str, value: &T) -> Result<(), NotFinite> {
        value.serialize(self)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound, NotFinite> {
        Ok(Compound { path: self.path, index: 0, key: None })
    }
    fn serialize_tuple(self, _: usize) -> Result<Compound, NotFinite> {
        self.serialize_seq(None)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound, NotFinite> {
        self.serialize_seq(None)
    }
    fn serialize_tuple_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Compound, NotFinite> {
        self.serialize_seq(None)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound, NotFinite> {
        self.serialize_seq(None)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound, NotFinite> {
        self.serialize_seq(None)
    }
    fn serialize_struct_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Compound, NotFinite> {
        self.serialize_seq(None)
    }
}

macro_rules! seq_like {
    ($($tr:ident :: $f:ident),*) => {$(
        impl ser::$tr for Compound {
            type Ok = ();
            type Error = NotFinite;
            fn $f<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), NotFinite> {
                self.next(value)
            }
            fn end(self) -> Result<(), NotFinite> {
                Ok(())
            }
        }
    )*};
}
seq_like!(SerializeSeq::serialize_element, SerializeTuple::serialize_element, SerializeTupleStruct::serialize_field, SerializeTupleVariant::serialize_field);

macro_rules! struct_like {
    ($($tr:ident),*) => {$(
        impl ser::$tr for Compound {
            type Ok = ();
            type Error = NotFinite;
            fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<(), NotFinite> {
                self.at(format!(".{key}"), value)
            }
            fn end(self) -> Result<(), NotFinite> {
                Ok(())
            }
        }
    )*};
}
struct_like!(SerializeStruct, SerializeStructVariant);

impl ser::SerializeMap for Compound {
    type Ok = ();
    type Error = NotFinite;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), NotFinite> {
        // Stricter than the fuzz target's former copy, which skipped keys:
        // keys are names here, but a map keyed by numbers must have finite
        // ones too (serde_json would write a NaN key as "NaN").
        key.serialize(Walk { path: self.path.clone() })?;
        self.key = serde_json::to_value(key).ok().and_then(|k| k.as_str().map(String::from));
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), NotFinite> {
        let label = self.key.take().map_or_else(|| format!(".<{}>", self.index), |k| format!(".{k}"));
        self.at(label, value)
    }
    fn end(self) -> Result<(), NotFinite> {
        Ok(())
    }
}

// ---- requests too heavy to try ------------------------------------------------

/// How much work a harness gives one input: a valid request asking for
/// more, by its own choice, is heavy. The core bounds such requests by its
/// own limits, but far beyond a debug test's or a fuzzer's budget per input.
pub struct Budget {
    /// LP models: messages (chunk variables) of the LP, see [`lp_messages`].
    pub lp_messages: f64,
    /// isoefficiency: the MIP's `lp_budget`.
    pub mip_lp_budget: f64,
    /// isoefficiency_map: each MIP's `lp_budget`.
    pub map_lp_budget: f64,
    /// isoefficiency_map: machine counts beyond the first (`m_range` span).
    pub map_machines: f64,
    /// isoefficiency_map: `levels` listed.
    pub map_levels: usize,
    /// isoefficiency_map: steps of `width` across `V_range`.
    pub map_v_steps: f64,
    /// sweep: at most this many `values`, each a request within the
    /// budget; None: no sweep is heavy.
    pub sweep_values: Option<usize>,
}

/// Does `request` ask for more work than `budget` gives?
pub fn heavy(request: &Value, budget: &Budget) -> bool {
    if lp_messages(request).is_some_and(|n| n > budget.lp_messages) {
        return true;
    }
    let num = |k: &str| request.get(k).and_then(Value::as_f64);
    match request.get("model").and_then(Value::as_str) {
        // Without lp_budget, the core's defaults.
        Some("isoefficiency") => num("lp_budget").unwrap_or(dlt_core::isoefficiency::DEFAULT_LP_BUDGET as f64) > budget.mip_lp_budget,
        Some("isoefficiency_map") => {
            let pair = |k: &str| request.get(k).and_then(Value::as_array).and_then(|p| Some((p.first()?.as_f64()?, p.get(1)?.as_f64()?)));
            let m_span = pair("m_range").map_or(0.0, |(a, b)| b - a);
            let v_steps = pair("V_range").map_or(0.0, |(a, b)| (b - a) / num("width").unwrap_or(1.0));
            let levels = request.get("levels").and_then(Value::as_array).map_or(0, Vec::len);
            num("lp_budget").unwrap_or(dlt_core::isoefficiency::map::DEFAULT_LP_BUDGET as f64) > budget.map_lp_budget
                || m_span > budget.map_machines
                || levels > budget.map_levels
                || v_steps > budget.map_v_steps
        }
        Some("sweep") => budget.sweep_values.is_some_and(|most| {
            request.get("values").and_then(Value::as_array).is_some_and(|xs| xs.len() > most) || request.get("request").is_some_and(|r| heavy(r, budget))
        }),
        _ => false,
    }
}

/// Messages (chunk variables) of the LP a request of an LP model would
/// solve, as the core plans it; None when the request is of no LP model or
/// fails validation before any LP.
pub fn lp_messages(request: &Value) -> Option<f64> {
    let request = dlt_core::parse(request.clone()).ok()?;
    dlt_core::plan(&request).ok()?.messages.map(|n| n as f64)
}
