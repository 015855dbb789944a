use super::to_json;
use crate::api::{self, MODELS};
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec;
use serde::Serialize;

fn same<T: Serialize + ?Sized>(value: &T) {
    assert_eq!(to_json(value).unwrap(), serde_json::to_string(value).unwrap());
}

#[derive(Serialize)]
enum Kinds {
    Unit,
    Newtype(f64),
    Tuple(u8, i64),
    Struct { a: f32, b: Option<bool> },
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

/// The corners of serde_json's writer: escapes, floats that are not
/// finite, f32's own shortest digits, integer keys, every enum shape.
#[test]
fn writes_what_serde_json_writes() {
    same("quote \" backslash \\ tab \t newline \n bell \u{7} unit \u{1f} − Ω");
    same(&[0.0, -0.0, 1.0, 1e-6, 1.5e300, 5e-324, f64::NAN, f64::INFINITY, -f64::INFINITY, 0.1 + 0.2, 123456789.0]);
    same(&[0.1f32, 1e-7, f32::NAN, 3.4e38]);
    same(&[i64::MIN, -1, 0, i64::MAX]);
    same(&[u64::MAX]);
    same(&(true, false, 'x', '"', (), Some(1u8), None::<u8>));
    same(&BTreeMap::from([(1u32, "a"), (20, "b")]));
    same(&BTreeMap::from([(-3i64, vec![1.0]), (4, vec![])]));
    same(&vec![Kinds::Unit, Kinds::Newtype(2.5), Kinds::Tuple(7, -8), Kinds::Struct { a: 0.3, b: None }, Kinds::Struct { a: 1.0, b: Some(true) }]);
    same(&Flat { name: "f", more: BTreeMap::from([(String::from("x\n"), 1.0), (String::from("y"), f64::NAN)]), gone: None, unit: () });
    same(&BTreeMap::<String, u8>::new());
    same::<[u8]>(&[]);
    assert!(to_json(&BTreeMap::from([((1, 2), 3)])).is_err());
}

/// Every model's example: its answer, plan, explanation and an error.
#[test]
fn every_models_answer_as_serde_json_writes_it() {
    for about in MODELS {
        let request = crate::parse_text(about.example, &|_| None).unwrap();
        same(&api::solve(&request).unwrap());
        same(&api::plan(&request).unwrap());
        same(&api::explain(&request).unwrap());
    }
    same(MODELS);
    same(&crate::parse_text("{\"model\": \"star\", \"m\": -1}", &|_| None).unwrap_err());
}
