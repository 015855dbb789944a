//! The tape read back as js/tape.js reads it, against JSON.parse's value of
//! serde_json's text of the same thing: the same members in the same
//! order, the same numbers to the bit.

use super::*;
use dlt_core::MODELS;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Serialize;
use std::cell::RefCell;
use std::collections::BTreeMap;

/// A JSON value as JSON.parse makes it: every number an f64, the members
/// in order.
#[derive(Debug)]
enum Js {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Js>),
    Object(Vec<(String, Js)>),
}

impl PartialEq for Js {
    fn eq(&self, other: &Js) -> bool {
        match (self, other) {
            (Js::Number(a), Js::Number(b)) => a.to_bits() == b.to_bits(),
            (Js::Null, Js::Null) => true,
            (Js::Bool(a), Js::Bool(b)) => a == b,
            (Js::String(a), Js::String(b)) => a == b,
            (Js::Array(a), Js::Array(b)) => a == b,
            (Js::Object(a), Js::Object(b)) => a == b,
            _ => false,
        }
    }
}

/// js/tape.js's reading, in Rust.
fn read(t: &Tape) -> Js {
    let units: Vec<u16> = t.strings.encode_utf16().collect();
    let mut at = 0;
    let strings: Vec<String> = t.lengths.iter().map(|&n| {
        at += n as usize;
        String::from_utf16(&units[at - n as usize..at]).unwrap()
    }).collect();
    let mut at = [0; 3];
    let v = value(t, &strings, &mut at, &mut Vec::new());
    assert_eq!(at, [t.ops.len(), t.nums.len(), t.ids.len()], "the whole tape read");
    v
}

/// `at`: the next op, number and id; `shapes`: the records' shapes so far,
/// each member's name and op.
fn value(t: &Tape, strings: &[String], at: &mut [usize; 3], shapes: &mut Vec<Vec<(String, u8)>>) -> Js {
    let next = |at: &mut [usize; 3], i: usize| {
        at[i] += 1;
        at[i] - 1
    };
    let name = |at: &mut [usize; 3]| strings[t.ids[next(at, 2)] as usize].clone();
    let scalar = |at: &mut [usize; 3], op: u8| match op {
        NULL => Js::Null,
        FALSE => Js::Bool(false),
        TRUE => Js::Bool(true),
        NUMBER => Js::Number(t.nums[next(at, 1)]),
        STRING => Js::String(name(at)),
        op => panic!("op {op} in a record"),
    };
    match t.ops[next(at, 0)] {
        op @ (ARRAY | OBJECT) => {
            let mut items = Vec::new();
            let mut members = Vec::new();
            while t.ops[at[0]] != END {
                if op == ARRAY {
                    items.push(value(t, strings, at, shapes));
                } else {
                    let name = name(at);
                    members.push((name, value(t, strings, at, shapes)));
                }
            }
            at[0] += 1;
            if op == ARRAY { Js::Array(items) } else { Js::Object(members) }
        }
        SHAPE => {
            let (mut shape, mut members) = (Vec::new(), Vec::new());
            while t.ops[at[0]] != END {
                let (name, op) = (name(at), t.ops[next(at, 0)]);
                shape.push((name.clone(), op));
                members.push((name, scalar(at, op)));
            }
            at[0] += 1;
            shapes.push(shape);
            Js::Object(members)
        }
        RECORD => {
            let shape = shapes[t.ops[next(at, 0)] as usize].clone();
            Js::Object(shape.into_iter().map(|(want, op)| {
                assert_eq!(name(at), want, "a record's names are its shape's");
                (want, scalar(at, op))
            }).collect())
        }
        op => scalar(at, op),
    }
}

impl<'de> Deserialize<'de> for Js {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Js, D::Error> {
        d.deserialize_any(JsVisitor)
    }
}

struct JsVisitor;

impl<'de> Visitor<'de> for JsVisitor {
    type Value = Js;
    fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        f.write_str("JSON")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Js, E> {
        Ok(Js::Null)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Js, E> {
        Ok(Js::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Js, E> {
        Ok(Js::Number(v as f64))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Js, E> {
        Ok(Js::Number(v as f64))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Js, E> {
        Ok(Js::Number(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Js, E> {
        Ok(Js::String(v.into()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Js, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = a.next_element()? {
            items.push(v);
        }
        Ok(Js::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Js, A::Error> {
        let mut members = Vec::new();
        while let Some(m) = a.next_entry()? {
            members.push(m);
        }
        Ok(Js::Object(members))
    }
}

/// `value` on a fresh tape.
fn tape<T: Serialize + ?Sized>(value: &T) -> Result<Tape, Unwritable> {
    let mut fresh = Tape::default();
    fresh.write(value).map(|()| fresh)
}

thread_local! {
    /// The tape each `same` of a test writes over, as the wasm's `to_js`
    /// does: what it held before must not show in the next value.
    static USED: RefCell<Tape> = RefCell::new(Tape::default());
}

fn same<T: Serialize + ?Sized>(value: &T) {
    let want: Js = serde_json::from_str(&serde_json::to_string(value).unwrap()).unwrap();
    assert_eq!(read(&tape(value).unwrap()), want);
    USED.with_borrow_mut(|used| {
        used.write(value).unwrap();
        assert_eq!(read(used), want);
    });
}

/// A tape written over keeps its vectors' room up to KEPT_BYTES: a larger
/// answer's is let go at the next.
#[test]
fn room_is_kept_up_to_kept_bytes() {
    let (medium, large): (Vec<f64>, Vec<f64>) = ((0..1000).map(f64::from).collect(), (0..KEPT_BYTES / 8).map(|i| i as f64).collect());
    let small = [scalars(63), scalars(5)];
    let mut t = Tape::default();
    t.write(&medium).unwrap();
    t.write(&small).unwrap();
    assert!(t.nums.capacity() >= medium.len(), "only {} numbers' room kept", t.nums.capacity());
    t.write(&large).unwrap();
    t.write(&small).unwrap();
    assert!(t.nums.capacity() < medium.len(), "{} numbers' room kept", t.nums.capacity());
    same(&large);
    same(&small);
}

#[derive(Serialize)]
enum Kinds {
    Unit,
    Newtype(f64),
    Tuple(u8, i64),
    Struct { a: f64, b: Option<bool> },
}

#[derive(Serialize)]
struct Flat {
    name: &'static str,
    #[serde(flatten)]
    more: BTreeMap<String, f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    gone: Option<u8>,
    unit: (),
}

/// serde's every shape: escapes and strings beyond one UTF-16 unit a
/// character, numbers that are not finite, integers beyond 2^53, integer
/// and bool keys, every enum shape, flattened maps.
#[test]
fn reads_back_what_serde_json_writes() {
    same("quote \" backslash \\ tab \t nul \0 − Ω 𝜏 𝜏");
    same(&["𝜏", "a", "𝜏", "", "a"]);
    same(&[0.0, -0.0, 1.0, 1e-6, 1.5e300, 5e-324, f64::NAN, f64::INFINITY, -f64::INFINITY, 0.1 + 0.2, 123456789.0]);
    same(&[i64::MIN, -1, 0, i64::MAX]);
    same(&[u64::MAX, (1 << 53) + 1]);
    same(&(true, false, 'x', '"', (), Some(1u8), None::<u8>));
    same(&BTreeMap::from([(1u32, "a"), (20, "b")]));
    same(&BTreeMap::from([(-3i64, vec![1.0]), (4, vec![])]));
    same(&BTreeMap::from([(true, 1)]));
    same(&vec![Kinds::Unit, Kinds::Newtype(2.5), Kinds::Tuple(7, -8), Kinds::Struct { a: 0.3, b: None }, Kinds::Struct { a: 1.0, b: Some(true) }]);
    same(&Flat { name: "f", more: BTreeMap::from([(String::from("x\n"), 1.0), (String::from("y"), f64::NAN)]), gone: None, unit: () });
    same(&BTreeMap::<String, u8>::new());
    same::<[u8]>(&[]);
    assert!(tape(&BTreeMap::from([((1, 2), 3)])).is_err());
}

/// Every model's example: its answer, plan, explanation and an error.
#[test]
fn every_models_answer_reads_back() {
    for about in MODELS {
        let request = dlt_core::parse_text(about.example, &|_| None).unwrap();
        same(&dlt_core::solve(&request).unwrap());
        same(&dlt_core::plan(&request).unwrap());
        same(&dlt_core::explain(&request).unwrap());
    }
    same(MODELS);
    same(&dlt_core::parse_text("{\"model\": \"star\", \"m\": -1}", &|_| None).unwrap_err());
}

/// Six members, each there or not: 64 shapes.
#[derive(Serialize)]
struct Scalars {
    #[serde(skip_serializing_if = "Option::is_none")]
    a: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    b: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    c: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    d: Option<()>,
    #[serde(skip_serializing_if = "Option::is_none")]
    e: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    f: Option<String>,
}

fn scalars(i: usize) -> Scalars {
    let on = |bit: usize| (i >> bit) & 1 == 1;
    Scalars {
        a: on(0).then_some(i as f64 * 0.1),
        b: on(1).then(|| format!("b{i}")),
        c: on(2).then_some(true),
        d: on(3).then_some(()),
        e: on(4).then_some(-(i as f64)),
        f: on(5).then(|| format!("𝜏{i}")),
    }
}

#[derive(Serialize)]
struct Holder {
    first: Scalars,
    all: Vec<Scalars>,
    last: Scalars,
}

/// Structs of scalars go as records: each of the first SHAPES shapes
/// defined once, a struct of any other shape as an object; a struct that
/// holds records is an object; a NaN makes another shape (its null).
#[test]
fn records_read_back_in_every_shape() {
    let all: Vec<Scalars> = (0..128).map(|i| scalars(i % 64)).collect();
    // The items of the array of flat structs, by their first op.
    let t = tape(&all).unwrap();
    let (mut at, mut count) = (1, [0; 10]);
    while t.ops[at] != END {
        count[t.ops[at] as usize] += 1;
        at = if t.ops[at] == RECORD { at + 2 } else { at + t.ops[at..].iter().position(|&op| op == END).unwrap() + 1 };
    }
    assert_eq!((count[SHAPE as usize], count[RECORD as usize], count[OBJECT as usize]), (SHAPES, SHAPES, 128 - 2 * SHAPES));
    same(&all);
    same(&Holder { first: scalars(63), all, last: Scalars { a: Some(f64::NAN), ..scalars(63) } });
    same(&[scalars(0), scalars(0)]);
}
