//! A map's key on the tape: serde_json's text of it.

use super::Unwritable;
use serde::ser::{self, Serialize};

/// A map key as serde_json writes one: a string, or an integer's or a
/// bool's text.
pub(super) struct Key;

fn not_a_key() -> Unwritable {
    Unwritable(Box::new(String::from("key must be a string")))
}

macro_rules! text_keys {
    ($($method:ident($t:ty)),*) => {
        $(fn $method(self, v: $t) -> Result<String, Unwritable> {
            Ok(v.to_string())
        })*
    };
}

macro_rules! not_keys {
    ($($method:ident($($t:ty),*)),*) => {
        $(fn $method(self, $(_: $t),*) -> Result<String, Unwritable> {
            Err(not_a_key())
        })*
    };
}

impl ser::Serializer for Key {
    type Ok = String;
    type Error = Unwritable;
    type SerializeSeq = ser::Impossible<String, Unwritable>;
    type SerializeTuple = ser::Impossible<String, Unwritable>;
    type SerializeTupleStruct = ser::Impossible<String, Unwritable>;
    type SerializeTupleVariant = ser::Impossible<String, Unwritable>;
    type SerializeMap = ser::Impossible<String, Unwritable>;
    type SerializeStruct = ser::Impossible<String, Unwritable>;
    type SerializeStructVariant = ser::Impossible<String, Unwritable>;

    text_keys!(serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32), serialize_i64(i64), serialize_u8(u8), serialize_u16(u16), serialize_u32(u32), serialize_u64(u64), serialize_char(char), serialize_str(&str));
    not_keys!(serialize_f32(f32), serialize_f64(f64), serialize_bytes(&[u8]), serialize_none(), serialize_unit(), serialize_unit_struct(&'static str));
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<String, Unwritable> {
        Ok(variant.into())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<String, Unwritable> {
        value.serialize(self)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<String, Unwritable> {
        Err(not_a_key())
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(self, _: &'static str, _: u32, _: &'static str, _: &T) -> Result<String, Unwritable> {
        Err(not_a_key())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Unwritable> {
        Err(not_a_key())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Unwritable> {
        Err(not_a_key())
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct, Unwritable> {
        Err(not_a_key())
    }
    fn serialize_tuple_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self::SerializeTupleVariant, Unwritable> {
        Err(not_a_key())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Unwritable> {
        Err(not_a_key())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Unwritable> {
        Err(not_a_key())
    }
    fn serialize_struct_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self::SerializeStructVariant, Unwritable> {
        Err(not_a_key())
    }
}
