//! A request read into a `serde_json::Value` with a nesting limit. The
//! browser hands the core a JavaScript object through serde_wasm_bindgen,
//! which, unlike serde_json's text parser, has no recursion limit: an array
//! nested 20,000 deep would exhaust the wasm stack and leave the module
//! unusable until the page reloads. No request of the contract nests deeper
//! than 4.

use core::fmt;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// How deep arrays and objects may nest in a request.
pub const MAX_DEPTH: usize = 32;

/// Reads any value, refusing arrays and objects nested beyond `MAX_DEPTH`.
pub fn value<'de, D: Deserializer<'de>>(input: D) -> Result<Value, D::Error> {
    Nested(MAX_DEPTH).deserialize(input)
}

/// A value that may still hold this many levels of arrays and objects.
#[derive(Clone, Copy)]
struct Nested(usize);

impl Nested {
    fn inner<E: serde::de::Error>(self) -> Result<Nested, E> {
        match self.0 {
            0 => Err(E::custom(format_args!("arrays and objects nested deeper than {MAX_DEPTH} levels"))),
            d => Ok(Nested(d - 1)),
        }
    }
}

impl<'de> DeserializeSeed<'de> for Nested {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, input: D) -> Result<Value, D::Error> {
        input.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Nested {
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

    fn visit_string<E>(self, s: alloc::string::String) -> Result<Value, E> {
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
        let mut items = alloc::vec::Vec::new();
        while let Some(item) = seq.next_element_seed(inner)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Value, A::Error> {
        let inner = self.inner()?;
        let mut map = Map::new();
        while let Some(key) = entries.next_key::<alloc::string::String>()? {
            let value = entries.next_value_seed(inner)?;
            map.insert(key, value);
        }
        Ok(Value::Object(map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn nested(depth: usize) -> alloc::string::String {
        alloc::format!("{}{}", "[".repeat(depth), "]".repeat(depth))
    }

    #[test]
    fn nesting_is_limited_and_ordinary_values_pass() {
        let read = |text: &str| value(&mut serde_json::Deserializer::from_str(text));
        assert!(read(&nested(MAX_DEPTH)).is_ok());
        let err = read(&nested(MAX_DEPTH + 1)).unwrap_err().to_string();
        assert!(err.contains("nested deeper than 32"), "{err}");
        let text = r#"{"a": [1, -2, 2.5, "x", null, true, {"b": []}]}"#;
        assert_eq!(read(text).unwrap(), serde_json::from_str::<Value>(text).unwrap());
        // serde_json's text parser stops at 128 levels; this one first.
        let err = read(&nested(20_000)).unwrap_err().to_string();
        assert!(err.contains("nested deeper than 32"), "{err}");
    }
}
