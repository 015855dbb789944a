//! A request's parameters (a `serde_json::Value`) deserialised into a
//! model's type by a deserializer that names the value at fault
//! (`processors[1].pieces[0]`), as serde_json's own Value deserializer
//! reads them otherwise: the same visits, so the same messages.
//! serde_path_to_error did this by wrapping every visitor of every
//! parameter type, 86 KB of the wasm (9.7 KB gzipped); here the path is
//! left behind as an error unwinds, as in `bounded`.

use crate::bounded::{path, Step};
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::RefCell;
use serde::de::{self, DeserializeOwned, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Unexpected, Visitor};
use serde_json::{Error, Value};

/// `value` as a T, or serde's error with the path of the value at fault
/// (empty at the root).
pub fn deserialize<T: DeserializeOwned>(value: &Value) -> Result<T, (Error, String)> {
    let trail = RefCell::new(Vec::new());
    T::deserialize(At { value, trail: &trail }).map_err(|e| (e, path(&trail.into_inner())))
}

#[derive(Clone, Copy)]
struct At<'de> {
    value: &'de Value,
    trail: &'de RefCell<Vec<Step>>,
}

impl<'de> At<'de> {
    /// `self` at `step`, the step recorded if it fails.
    fn step<T>(self, step: Place<'de>, seed: impl DeserializeSeed<'de, Value = T>) -> Result<T, Error> {
        seed.deserialize(self).map_err(|e| failed(self.trail, step, e))
    }

    fn unexpected(&self) -> Unexpected<'de> {
        match self.value {
            Value::Null => Unexpected::Unit,
            Value::Bool(b) => Unexpected::Bool(*b),
            Value::Number(n) => n.as_u64().map(Unexpected::Unsigned).or_else(|| n.as_i64().map(Unexpected::Signed)).unwrap_or(Unexpected::Float(n.as_f64().unwrap_or(f64::NAN))),
            Value::String(s) => Unexpected::Str(s),
            Value::Array(_) => Unexpected::Seq,
            Value::Object(_) => Unexpected::Map,
        }
    }
}

impl<'de> At<'de> {
    fn invalid(&self, expected: &dyn de::Expected) -> Error {
        de::Error::invalid_type(self.unexpected(), expected)
    }

    fn seq<V: Visitor<'de>>(self, items: &'de [Value], visitor: V) -> Result<V::Value, Error> {
        let mut seq = Items { items: items.iter().enumerate(), trail: self.trail };
        let out = visitor.visit_seq(&mut seq)?;
        match seq.items.len() {
            0 => Ok(out),
            _ => Err(too_long(items.len(), "fewer elements in array")),
        }
    }

    fn map<V: Visitor<'de>>(self, map: &'de serde_json::Map<String, Value>, visitor: V) -> Result<V::Value, Error> {
        let mut entries = Entries { entries: map.iter(), value: None, trail: self.trail, name_keys: true };
        let out = visitor.visit_map(&mut entries)?;
        match entries.entries.len() {
            0 => Ok(out),
            _ => Err(too_long(map.len(), "fewer elements in map")),
        }
    }
}

/// The deserialize_* of one kind of value: visited if the value is of it,
/// else refused by the visitor's expectation (serde_json's Value reads so;
/// forwarding each to deserialize_any would compile its whole match once
/// per visitor).
macro_rules! only {
    ($($method:ident)*, $pattern:pat => $visit:expr) => {
        $(fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            #[allow(clippy::redundant_closure_call)]
            match self.value {
                $pattern => ($visit)(self, visitor),
                _ => Err(self.invalid(&visitor)),
            }
        })*
    };
}

impl<'de> Deserializer<'de> for At<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => n.deserialize_any(visitor),
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(items) => self.seq(items, visitor),
            Value::Object(map) => self.map(map, visitor),
        }
    }

    only!(deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16
        deserialize_u32 deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64,
        Value::Number(n) => |_, visitor| n.deserialize_any(visitor));
    only!(deserialize_bool, Value::Bool(b) => |_, visitor: V| visitor.visit_bool(*b));
    only!(deserialize_char deserialize_str deserialize_string deserialize_identifier, Value::String(s) => |_, visitor: V| visitor.visit_borrowed_str(s));
    only!(deserialize_unit, Value::Null => |_, visitor: V| visitor.visit_unit());
    only!(deserialize_seq, Value::Array(items) => |at: Self, visitor| at.seq(items, visitor));
    only!(deserialize_map, Value::Object(map) => |at: Self, visitor| at.map(map, visitor));

    fn deserialize_struct<V: Visitor<'de>>(self, _: &'static str, _: &'static [&'static str], visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Array(items) => self.seq(items, visitor),
            Value::Object(map) => self.map(map, visitor),
            _ => Err(self.invalid(&visitor)),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    /// A variant by its name, or a map of one key, the variant, to its content.
    fn deserialize_enum<V: Visitor<'de>>(self, _: &'static str, _: &'static [&'static str], visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::String(s) => visitor.visit_enum(s.as_str().into_deserializer()),
            Value::Object(map) if map.len() == 1 => {
                visitor.visit_enum(de::value::MapAccessDeserializer::new(Entries { entries: map.iter(), value: None, trail: self.trail, name_keys: false }))
            }
            Value::Object(_) => Err(de::Error::invalid_value(Unexpected::Map, &"map with a single key")),
            _ => Err(de::Error::invalid_type(self.unexpected(), &"string or map")),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bytes byte_buf unit_struct tuple tuple_struct
    }
}

/// A step not yet recorded.
#[derive(Clone, Copy)]
enum Place<'de> {
    Key(&'de String),
    Index(usize),
}

/// `e`, its step recorded: one function for every visitor's errors, where
/// a closure would be compiled into each.
#[inline(never)]
fn failed(trail: &RefCell<Vec<Step>>, place: Place, e: Error) -> Error {
    trail.borrow_mut().push(match place {
        Place::Key(key) => Step::Key(key.clone()),
        Place::Index(i) => Step::Index(i),
    });
    e
}

#[inline(never)]
fn too_long(len: usize, expected: &str) -> Error {
    de::Error::invalid_length(len, &expected)
}

struct Items<'de, I> {
    items: I,
    trail: &'de RefCell<Vec<Step>>,
}

impl<'de, I: ExactSizeIterator<Item = (usize, &'de Value)>> SeqAccess<'de> for Items<'de, I> {
    type Error = Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>, Error> {
        match self.items.next() {
            Some((i, value)) => At { value, trail: self.trail }.step(Place::Index(i), seed).map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct Entries<'de, I> {
    entries: I,
    value: Option<(&'de String, &'de Value)>,
    trail: &'de RefCell<Vec<Step>>,
    /// Whether a key refused (an unknown field; not an unknown variant)
    /// is the path.
    name_keys: bool,
}

impl<'de, I: ExactSizeIterator<Item = (&'de String, &'de Value)>> MapAccess<'de> for Entries<'de, I> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        match self.entries.next() {
            Some((key, value)) => {
                self.value = Some((key, value));
                let (trail, named) = (self.trail, self.name_keys);
                seed.deserialize(key.as_str().into_deserializer()).map(Some).map_err(|e| match named {
                    true => failed(trail, Place::Key(key), e),
                    false => e,
                })
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, Error> {
        let (key, value) = self.value.take().ok_or_else(|| de::Error::custom("a value asked for before its key"))?;
        At { value, trail: self.trail }.step(Place::Key(key), seed)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

#[cfg(all(test, feature = "lp"))]
mod tests {
    use crate::api::{read_both, MODELS};
    use alloc::string::ToString;
    use alloc::vec;
    use alloc::vec::Vec;
    use serde_json::{json, Value};

    /// Every leaf of `value` and every object, with the path to it.
    fn places(value: &Value, at: Vec<Value>, out: &mut Vec<Vec<Value>>) {
        out.push(at.clone());
        match value {
            Value::Array(items) => items.iter().enumerate().for_each(|(i, v)| places(v, [at.clone(), vec![json!(i)]].concat(), out)),
            Value::Object(map) => map.iter().for_each(|(k, v)| places(v, [at.clone(), vec![json!(k)]].concat(), out)),
            _ => {}
        }
    }

    fn at_mut<'v>(value: &'v mut Value, path: &[Value]) -> &'v mut Value {
        path.iter().fold(value, |v, step| match step {
            Value::String(k) => &mut v[k.as_str()],
            step => &mut v[step.as_u64().unwrap() as usize],
        })
    }

    /// Each model's example with every value in turn replaced by one of
    /// the wrong kind, and an unknown key in every object: the same
    /// message and path as serde_path_to_error's, or both read.
    #[test]
    fn errors_are_named_as_serde_path_to_error_names_them() {
        let (mut compared, mut refused) = (0, 0);
        for about in MODELS {
            let mut example: Value = serde_json::from_str(about.example).unwrap();
            example.as_object_mut().unwrap().remove("model");
            let mut all = Vec::new();
            places(&example, Vec::new(), &mut all);
            for path in all {
                let mut variants: Vec<Value> = [json!(null), json!(true), json!("x"), json!(-1), json!(2.5), json!(7), json!([]), json!([1, "y"]), json!({}), json!({"k": 1})]
                    .into_iter()
                    .filter(|_| !path.is_empty())
                    .map(|wrong| {
                        let mut v = example.clone();
                        *at_mut(&mut v, &path) = wrong;
                        v
                    })
                    .collect();
                let mut with_key = example.clone();
                if let Some(map) = at_mut(&mut with_key, &path).as_object_mut() {
                    map.insert("stray".to_string(), json!(1));
                    variants.push(with_key);
                }
                for params in variants {
                    let [ours, theirs] = read_both(about.name, &params);
                    assert_eq!(ours, theirs, "{}: {params}", about.name);
                    compared += 1;
                    refused += usize::from(ours.is_some());
                }
            }
        }
        assert!(compared > 500 && refused > compared / 3, "{refused} of {compared} refused");
    }
}
