use super::*;
use alloc::string::ToString;
use proptest::prelude::*;

fn slow(s: &str) -> Option<f64> {
    s.parse().ok()
}

/// serde_json's reading of the same text, through `bounded` (its nesting
/// limit): the reference this reader must agree with.
fn reference(text: &str) -> Result<Value, String> {
    let mut input = serde_json::Deserializer::from_str(text);
    let value = crate::bounded::value(&mut input).map_err(|(e, _)| e.to_string())?;
    input.end().map(|()| value).map_err(|e| e.to_string())
}

fn agrees(text: &str) {
    match (read(text, &slow), reference(text)) {
        (Ok(ours), Ok(theirs)) => assert!(ours == theirs && same_numbers(&ours, &theirs), "{text}: {ours} against serde_json's {theirs}"),
        (Err(_), Err(_)) => {}
        (ours, theirs) => panic!("{text}: {ours:?} against serde_json's {theirs:?}"),
    }
}

/// Equal, and every number of the same kind (u64, i64, f64) with the same
/// bits: `==` holds 0.0 and -0.0 equal.
fn same_numbers(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            (x.as_u64(), x.as_i64(), x.is_f64()) == (y.as_u64(), y.as_i64(), y.is_f64()) && x.as_f64().map(f64::to_bits) == y.as_f64().map(f64::to_bits)
        }
        (Value::Array(x), Value::Array(y)) => x.iter().zip(y).all(|(x, y)| same_numbers(x, y)),
        (Value::Object(x), Value::Object(y)) => x.values().zip(y.values()).all(|(x, y)| same_numbers(x, y)),
        _ => true,
    }
}

#[test]
fn numbers_read_as_serde_json_reads_them() {
    for text in [
        "0", "-0", "-0.0", "7", "-7", "0.001", "1e-3", "1E+2", "1e-0", "0.1", "0.2", "50005", "-9e5", "1e6", "5000.99995", "1e22", "1e23",
        "9007199254740992", "9007199254740993", "9007199254740993.0", "18446744073709551615", "18446744073709551616",
        "-9223372036854775808", "-9223372036854775809", "-18446744073709551616", "1e400", "-1e400", "1e-400", "0e99999",
        "2.2250738585072014e-308", "4.9e-324", "1.7976931348623157e308", "0.30000000000000004", "123456789012345678901234567890",
        "0.000000000000000000000000000001234", "1.00000000000000000000000000001", "01", "1.", ".5", "-", "1e", "1e+", "--1", "+1",
        "[1,-2,2.5]", "1 ", " 1", "1 2",
    ] {
        agrees(text);
    }
}

#[test]
fn the_common_numbers_need_no_slow_parser() {
    let never = |s: &str| -> Option<f64> { panic!("{s} went to the slow parser") };
    let text = r#"{"S": 1e-3, "C": 1e-6, "A": 0.001, "V": 1e6, "D": 50005.5, "x": -9e5, "y": 0.2, "z": 1.25e-7, "k": 3}"#;
    assert_eq!(read(text, &never).unwrap(), serde_json::from_str::<Value>(text).unwrap());
}

#[test]
fn strings_and_their_escapes() {
    for text in [
        r#""plain""#, r#""a\"b\\c\/d\b\f\n\r\t""#, r#""\u00e9\u4e2d""#, r#""\ud83d\ude00""#, "\"caf\u{e9} \u{1f600}\"", r#""\ud83d""#,
        r#""\ude00""#, r#""\ud83d\u0041""#, r#""\ud83dx""#, r#""\x""#, r#""\u12""#, r#""\u12g4""#, "\"a\u{1}b\"", r#""open"#,
        r#"{"a": 1, "a": 2}"#, r#"{"a" 1}"#, r#"{"a": 1,}"#, "[1,]", "[", "{", "", "   ", "tru", "nul", "[true, false, null]",
    ] {
        agrees(text);
    }
}

#[test]
fn nesting_is_limited_with_the_path() {
    let nested = |depth: usize| alloc::format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    assert!(read(&nested(MAX_DEPTH), &slow).is_ok());
    let (err, path) = read(&nested(MAX_DEPTH + 1), &slow).unwrap_err();
    assert!(err.contains("nested deeper than 32"), "{err}");
    assert_eq!(path, "[0]".repeat(MAX_DEPTH));
    let deep = alloc::format!(r#"{{"model": "star", "processors": [1, {{"pieces": {}}}]}}"#, nested(20_000));
    let (err, path) = read(&deep, &slow).unwrap_err();
    assert!(err.contains("nested deeper than 32"), "{err}");
    assert_eq!(path, alloc::format!("processors[1].pieces{}", "[0]".repeat(MAX_DEPTH - 3)));
    let (_, path) = read(r#"{"processors": [{"S": 1}, {"S": 1e}]}"#, &slow).unwrap_err();
    assert_eq!(path, "processors[1].S");
}

fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<u64>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        (-1e6..1e6f64).prop_map(Value::from),
        ".{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(".{0,4}", inner, 0..6).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(crate::cases(2000))]

    /// Any value, written by serde_json (shortest round-trip floats, as
    /// JSON.stringify's), reads back bit for bit.
    #[test]
    fn written_values_read_back(value in json()) {
        let text = serde_json::to_string(&value).unwrap();
        let ours = read(&text, &slow).unwrap();
        prop_assert!(ours == value && same_numbers(&ours, &value), "{text}");
    }

    /// Numbers as people type them: any digits, point and exponent.
    #[test]
    fn typed_numbers_agree(sign in "-?", int in "[0-9]{1,22}", frac in "(\\.[0-9]{0,22})?", exp in "([eE][+-]?[0-9]{1,3})?") {
        agrees(&alloc::format!("{sign}{int}{frac}{exp}"));
    }

    /// Bytes near JSON: whatever serde_json accepts, this accepts alike.
    #[test]
    fn near_json_agrees(text in "[\\[\\]{}\",:0-9.eE+\\- a-z\\\\]{0,24}") {
        agrees(&text);
    }
}
