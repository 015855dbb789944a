//! The named top-level fields of an answer, serialized alone: a sweep keeps
//! a makespan per point, and serializing every point's whole schedule to
//! throw it away cost more than solving (a binomial tree at D = 1, V = 1e5:
//! 0.33 s to solve, 0.48 s to make a JSON value of its 100 MB schedule).
//! And the names of a request's fields alone (`keys`), which the parsed
//! parameters give back to refuse the unknown ones: made into a whole
//! JSON value, a memory request's 100 processors were copied once more.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::ser::{self, Impossible, Serialize, SerializeMap, SerializeStruct, Serializer};
use serde_json::{Error, Map, Value};

/// `fields` of `value` (an object: a struct or a map, flattened fields
/// included), each serialized; the others are skipped unserialized.
pub fn pick<T: Serialize + ?Sized>(value: &T, fields: &[String]) -> Result<Map<String, Value>, Error> {
    let mut walker = Walker { sink: Picker { fields, out: Map::new() }, key: None };
    value.serialize(&mut walker)?;
    Ok(walker.sink.out)
}

/// The names of `value`'s fields (an object, flattened fields included),
/// none of them serialized: what a request's parameters read back.
pub fn keys<T: Serialize + ?Sized>(value: &T) -> Result<Vec<String>, Error> {
    let mut walker = Walker { sink: Vec::new(), key: None };
    value.serialize(&mut walker)?;
    Ok(walker.sink)
}

/// What the fields of an object are given to, one by one.
trait Fields {
    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), Error>;
}

/// A serializer of objects only, that hands their fields to `sink`.
struct Walker<F> {
    sink: F,
    /// A map's key waiting for its value.
    key: Option<String>,
}

struct Picker<'a> {
    fields: &'a [String],
    out: Map<String, Value>,
}

impl Fields for Picker<'_> {
    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), Error> {
        if self.wanted(key) {
            let value = serde_json::to_value(value)?;
            self.keep(key, value);
        }
        Ok(())
    }
}

impl Fields for Vec<String> {
    fn field<T: Serialize + ?Sized>(&mut self, key: &str, _: &T) -> Result<(), Error> {
        self.push(key.to_string());
        Ok(())
    }
}

impl Picker<'_> {
    /// Whether `key` is one of the fields asked for. This and [`Picker::keep`]
    /// stay out of `field`, instantiated once per type of field.
    #[inline(never)]
    fn wanted(&self, key: &str) -> bool {
        self.fields.iter().any(|f| f == key)
    }

    #[inline(never)]
    fn keep(&mut self, key: &str, value: Value) {
        self.out.insert(key.to_string(), value);
    }
}

fn not_an_object() -> Error {
    ser::Error::custom("only the fields of an object can be picked")
}

impl<F: Fields> Serializer for &mut Walker<F> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Impossible<(), Error>;

    // Everything but an object.
    refuse!(not_an_object();
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32), serialize_i64(i64),
        serialize_u8(u8), serialize_u16(u16), serialize_u32(u32), serialize_u64(u64), serialize_f32(f32),
        serialize_f64(f64), serialize_char(char), serialize_str(&str), serialize_bytes(&[u8]), serialize_none(),
        serialize_unit(), serialize_unit_struct(&'static str), serialize_unit_variant(&'static str, u32, &'static str),
    );

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(self, _: &'static str, _: u32, _: &'static str, _: &T) -> Result<(), Error> {
        Err(not_an_object())
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(not_an_object())
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Error> {
        Err(not_an_object())
    }

    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct, Error> {
        Err(not_an_object())
    }

    fn serialize_tuple_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self::SerializeTupleVariant, Error> {
        Err(not_an_object())
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self, Error> {
        Ok(self)
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Error> {
        Ok(self)
    }

    fn serialize_struct_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self::SerializeStructVariant, Error> {
        Err(not_an_object())
    }
}

impl<F: Fields> SerializeMap for &mut Walker<F> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        match serde_json::to_value(key)? {
            Value::String(k) => self.key = Some(k),
            _ => return Err(ser::Error::custom("an object's key is not a string")),
        }
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let key = self.key.take().ok_or_else(|| <Error as ser::Error>::custom("a value without a key"))?;
        self.sink.field(&key, value)
    }

    fn end(self) -> Result<(), Error> {
        Ok(())
    }
}

impl<F: Fields> SerializeStruct for &mut Walker<F> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
        self.sink.field(key, value)
    }

    fn end(self) -> Result<(), Error> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;
    use serde::Serialize;
    use serde_json::json;

    #[derive(Serialize)]
    struct Inner {
        big: Vec<u32>,
        note: &'static str,
    }

    #[derive(Serialize)]
    struct Outer {
        makespan: f64,
        #[serde(flatten)]
        inner: Inner,
        skipped: Option<f64>,
    }

    /// The same fields as the whole value's, flattened ones included.
    #[test]
    fn picks_what_the_whole_value_has() {
        let value = Outer { makespan: 2.5, inner: Inner { big: vec![1, 2, 3], note: "n" }, skipped: None };
        let fields: Vec<String> = ["makespan", "note", "skipped", "absent"].iter().map(|s| s.to_string()).collect();
        let picked = pick(&value, &fields).unwrap();
        let whole = serde_json::to_value(&value).unwrap();
        assert_eq!(Value::Object(picked), json!({"makespan": whole["makespan"], "note": whole["note"], "skipped": null}));
        assert!(pick(&3.0, &fields).is_err());
    }
}
