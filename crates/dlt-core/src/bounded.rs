//! A request read into a `serde_json::Value` with a nesting limit, from any
//! serde data format (JSON text on the command line; the browser's text
//! goes through `json_text`, which keeps the same limit). A reader without
//! one, such as serde-wasm-bindgen, let an array nested 20,000 deep exhaust
//! the wasm stack and leave the module unusable until the page reloaded.
//! No request of the contract nests deeper than 4.

use alloc::string::String;
use alloc::vec::Vec;
use core::cell::RefCell;
use core::fmt::{self, Write};
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// How deep arrays and objects may nest in a request.
pub const MAX_DEPTH: usize = 32;

/// Reads any value, refusing arrays and objects nested beyond `MAX_DEPTH`.
/// An error comes with the path of the value at fault
/// (`processors[1].pieces[0]`, serde_path_to_error's form).
pub fn value<'de, D: Deserializer<'de>>(input: D) -> Result<Value, (D::Error, String)> {
    let trail = RefCell::new(Vec::new());
    Nested { depth: MAX_DEPTH, trail: &trail }.deserialize(input).map_err(|e| (e, path(&trail.into_inner())))
}

/// A step into an object or an array.
pub(crate) enum Step {
    Key(String),
    Index(usize),
}

/// The steps, innermost first as an error unwinds, as a path.
pub(crate) fn path(trail: &[Step]) -> String {
    let mut out = String::new();
    for step in trail.iter().rev() {
        let _ = match step {
            Step::Key(k) if out.is_empty() => write!(out, "{k}"),
            Step::Key(k) => write!(out, ".{k}"),
            Step::Index(i) => write!(out, "[{i}]"),
        };
    }
    out
}

/// A value that may still hold `depth` levels of arrays and objects; the
/// steps to an error are left in `trail`.
#[derive(Clone, Copy)]
struct Nested<'t> {
    depth: usize,
    trail: &'t RefCell<Vec<Step>>,
}

impl<'t> Nested<'t> {
    fn inner<E: serde::de::Error>(self) -> Result<Nested<'t>, E> {
        match self.depth {
            0 => Err(E::custom(format_args!("arrays and objects nested deeper than {MAX_DEPTH} levels"))),
            d => Ok(Nested { depth: d - 1, ..self }),
        }
    }

    fn failed<E>(self, step: Step) -> impl FnOnce(E) -> E + 't {
        let trail = self.trail;
        move |e| {
            trail.borrow_mut().push(step);
            e
        }
    }
}

impl<'de> DeserializeSeed<'de> for Nested<'_> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, input: D) -> Result<Value, D::Error> {
        input.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Nested<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, x: i64) -> Result<Value, E> {
        Ok(Value::Number(x.into()))
    }

    fn visit_u64<E>(self, x: u64) -> Result<Value, E> {
        Ok(Value::Number(x.into()))
    }

    /// As serde_json's own: a NaN or an infinity (possible from JavaScript)
    /// becomes null, which every numeric field then refuses by name.
    fn visit_f64<E>(self, x: f64) -> Result<Value, E> {
        Ok(Number::from_f64(x).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.into()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, input: D) -> Result<Value, D::Error> {
        self.deserialize(input)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let inner = self.inner()?;
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(inner).map_err(self.failed(Step::Index(items.len())))? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Value, A::Error> {
        let inner = self.inner()?;
        let mut map = Map::new();
        while let Some(key) = entries.next_key::<String>()? {
            match entries.next_value_seed(inner) {
                Ok(value) => map.insert(key, value),
                Err(e) => return Err(self.failed(Step::Key(key))(e)),
            };
        }
        Ok(Value::Object(map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn nested(depth: usize) -> String {
        alloc::format!("{}{}", "[".repeat(depth), "]".repeat(depth))
    }

    fn read(text: &str) -> Result<Value, (String, String)> {
        value(&mut serde_json::Deserializer::from_str(text)).map_err(|(e, path)| (e.to_string(), path))
    }

    #[test]
    fn nesting_is_limited_and_ordinary_values_pass() {
        assert!(read(&nested(MAX_DEPTH)).is_ok());
        let (err, path) = read(&nested(MAX_DEPTH + 1)).unwrap_err();
        assert!(err.contains("nested deeper than 32"), "{err}");
        assert_eq!(path, "[0]".repeat(MAX_DEPTH));
        let text = r#"{"a": [1, -2, 2.5, "x", null, true, {"b": []}]}"#;
        assert_eq!(read(text).unwrap(), serde_json::from_str::<Value>(text).unwrap());
        // serde_json's text parser stops at 128 levels; this one first.
        let (err, path) = read(&alloc::format!(r#"{{"model": "star", "processors": [1, {{"pieces": {}}}]}}"#, nested(20_000))).unwrap_err();
        assert!(err.contains("nested deeper than 32"), "{err}");
        assert_eq!(path, alloc::format!("processors[1].pieces{}", "[0]".repeat(MAX_DEPTH - 3)));
    }
}
