//! A response as compact JSON text, byte for byte what `serde_json::to_string`
//! writes (the same float and integer formatters, the same escapes), for the
//! page's boundary. serde_json writes through `io::Write` a few bytes at a
//! time and escapes every key; in the page's wasm (opt-level "s") that was
//! half of a small solve: a binomial tree's 230 intervals took 0.19 ms to
//! write and 0.15 ms to parse. Here a field's name is pushed whole, and a
//! value goes straight into the one String.

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use core::fmt;
use serde::ser::{self, Serialize};

/// A value serde cannot write as JSON (a map key that is not a string).
/// Boxed: a one-word `Result` is returned in a register, and every field
/// written checks one (as serde_json's own error); with the String itself
/// each struct's writing grew by 500 bytes of wasm, 11 KB in all.
#[derive(Debug)]
#[allow(clippy::box_collection)]
pub struct Unwritable(Box<String>);

impl fmt::Display for Unwritable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl core::error::Error for Unwritable {}

impl ser::Error for Unwritable {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Unwritable(Box::new(msg.to_string()))
    }
}

/// `value` as compact JSON text.
pub fn to_json<T: Serialize + ?Sized>(value: &T) -> Result<String, Unwritable> {
    let mut text = Text(String::with_capacity(128));
    value.serialize(&mut text)?;
    Ok(text.0)
}

struct Text(String);

impl Text {
    /// A JSON string: serde_json's escapes (the short ones, else \u00xx).
    fn string(&mut self, s: &str) {
        let out = &mut self.0;
        out.push('"');
        if !s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
            out.push_str(s);
        } else {
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\u{8}' => out.push_str("\\b"),
                    '\u{c}' => out.push_str("\\f"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    c if (c as u32) < 0x20 => {
                        const HEX: &[u8; 16] = b"0123456789abcdef";
                        let b = c as usize;
                        out.push_str("\\u00");
                        out.push(HEX[b >> 4] as char);
                        out.push(HEX[b & 0xf] as char);
                    }
                    c => out.push(c),
                }
            }
        }
        out.push('"');
    }

    fn integer(&mut self, i: impl itoa::Integer) {
        self.0.push_str(itoa::Buffer::new().format(i));
    }

    /// As serde_json: the shortest digits that read back (zmij), null for a
    /// NaN or an infinity.
    fn float(&mut self, v: impl zmij::Float, finite: bool) {
        let mut digits = zmij::Buffer::new();
        self.0.push_str(if finite { digits.format_finite(v) } else { "null" });
    }

    /// An object or array opened, its members to follow; `close` ends it.
    fn open(&mut self, with: &str, close: &'static str) -> Compound<'_> {
        self.0.push_str(with);
        Compound { text: self, first: true, close }
    }
}

/// An array or object being written: a comma before every member but the
/// first; `close` ("]", "}", and one more "}" for an enum variant's wrapper).
struct Compound<'a> {
    text: &'a mut Text,
    first: bool,
    close: &'static str,
}

impl Compound<'_> {
    // None of these inlined: inlined, every field of every response type
    // wrote them out in full (+12 KB of wasm); as calls there is one copy
    // per value type, as of serde_json's own `serialize_entry`.
    #[inline(never)]
    fn comma(&mut self) -> &mut Text {
        if !self.first {
            self.text.0.push(',');
        }
        self.first = false;
        self.text
    }

    /// A field's name, written as it is: the names serde derives are the
    /// fields' identifiers or the renames in this crate, none with a quote,
    /// a backslash or a control character (the tests hold every model's
    /// answer to serde_json's text).
    #[inline(never)]
    fn key(&mut self, key: &str) -> &mut Text {
        let text = self.comma();
        text.0.reserve(key.len() + 3);
        text.0.push('"');
        text.0.push_str(key);
        text.0.push_str("\":");
        text
    }

    #[inline(never)]
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unwritable> {
        value.serialize(self.comma())
    }

    #[inline(never)]
    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), Unwritable> {
        value.serialize(self.key(key))
    }

    fn close(self) -> Result<(), Unwritable> {
        self.text.0.push_str(self.close);
        Ok(())
    }
}

/// serde_json's forwarding of the compound kinds to `element`, `field` and
/// `close`.
macro_rules! compound {
    ($($trait:ident: $method:ident;)*) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = Unwritable;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unwritable> {
                self.element(value)
            }
            fn end(self) -> Result<(), Unwritable> {
                self.close()
            }
        }
    )*};
    ($($trait:ident;)*) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = Unwritable;
            fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Unwritable> {
                self.field(key, value)
            }
            fn end(self) -> Result<(), Unwritable> {
                self.close()
            }
        }
    )*};
}

compound! { SerializeSeq: serialize_element; SerializeTuple: serialize_element; SerializeTupleStruct: serialize_field; SerializeTupleVariant: serialize_field; }
compound! { SerializeStruct; SerializeStructVariant; }

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Unwritable;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Unwritable> {
        key.serialize(Key(self.comma()))
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unwritable> {
        self.text.0.push(':');
        value.serialize(&mut *self.text)
    }
    fn end(self) -> Result<(), Unwritable> {
        self.close()
    }
}

/// i8-i32 and u8-u32 written as i64 and u64, as serde_json writes them.
macro_rules! widened_integers {
    () => {
        widened_integers!(serialize_i64: serialize_i8(i8), serialize_i16(i16), serialize_i32(i32));
        widened_integers!(serialize_u64: serialize_u8(u8), serialize_u16(u16), serialize_u32(u32));
    };
    ($wide:ident: $($method:ident($narrow:ty)),*) => {
        $(fn $method(self, v: $narrow) -> Result<(), Unwritable> {
            self.$wide(v.into())
        })*
    };
}

impl<'a> ser::Serializer for &'a mut Text {
    type Ok = ();
    type Error = Unwritable;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Unwritable> {
        self.0.push_str(if v { "true" } else { "false" });
        Ok(())
    }
    widened_integers!();
    fn serialize_i64(self, v: i64) -> Result<(), Unwritable> {
        self.integer(v);
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Result<(), Unwritable> {
        self.integer(v);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), Unwritable> {
        self.float(v, v.is_finite());
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), Unwritable> {
        self.float(v, v.is_finite());
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Unwritable> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<(), Unwritable> {
        self.string(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Unwritable> {
        v.serialize(self)
    }
    fn serialize_none(self) -> Result<(), Unwritable> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Unwritable> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Unwritable> {
        self.0.push_str("null");
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Unwritable> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<(), Unwritable> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<(), Unwritable> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(self, _: &'static str, _: u32, variant: &'static str, value: &T) -> Result<(), Unwritable> {
        let mut wrapper = self.open("{", "}");
        wrapper.field(variant, value)?;
        wrapper.close()
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, Unwritable> {
        Ok(self.open("[", "]"))
    }
    fn serialize_tuple(self, _: usize) -> Result<Compound<'a>, Unwritable> {
        Ok(self.open("[", "]"))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, Unwritable> {
        Ok(self.open("[", "]"))
    }
    fn serialize_tuple_variant(self, _: &'static str, _: u32, variant: &'static str, _: usize) -> Result<Compound<'a>, Unwritable> {
        self.0.push('{');
        self.string(variant);
        Ok(self.open(":[", "]}"))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, Unwritable> {
        Ok(self.open("{", "}"))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, Unwritable> {
        Ok(self.open("{", "}"))
    }
    fn serialize_struct_variant(self, _: &'static str, _: u32, variant: &'static str, _: usize) -> Result<Compound<'a>, Unwritable> {
        self.0.push('{');
        self.string(variant);
        Ok(self.open(":{", "}}"))
    }
}

/// A map key: a string, or (as serde_json writes them) a number or a bool
/// in quotes.
struct Key<'a>(&'a mut Text);

impl Key<'_> {
    fn quoted(self, f: impl FnOnce(&mut Text) -> Result<(), Unwritable>) -> Result<(), Unwritable> {
        self.0 .0.push('"');
        f(self.0)?;
        self.0 .0.push('"');
        Ok(())
    }
}

fn not_a_key() -> Unwritable {
    Unwritable(Box::new(String::from("key must be a string")))
}

impl ser::Serializer for Key<'_> {
    type Ok = ();
    type Error = Unwritable;
    type SerializeSeq = ser::Impossible<(), Unwritable>;
    type SerializeTuple = ser::Impossible<(), Unwritable>;
    type SerializeTupleStruct = ser::Impossible<(), Unwritable>;
    type SerializeTupleVariant = ser::Impossible<(), Unwritable>;
    type SerializeMap = ser::Impossible<(), Unwritable>;
    type SerializeStruct = ser::Impossible<(), Unwritable>;
    type SerializeStructVariant = ser::Impossible<(), Unwritable>;

    fn serialize_str(self, v: &str) -> Result<(), Unwritable> {
        self.0.string(v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Unwritable> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<(), Unwritable> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<(), Unwritable> {
        value.serialize(self)
    }
    fn serialize_bool(self, v: bool) -> Result<(), Unwritable> {
        self.quoted(|t| t.serialize_bool(v))
    }
    widened_integers!();
    fn serialize_i64(self, v: i64) -> Result<(), Unwritable> {
        self.quoted(|t| t.serialize_i64(v))
    }
    fn serialize_u64(self, v: u64) -> Result<(), Unwritable> {
        self.quoted(|t| t.serialize_u64(v))
    }
    refuse!(not_a_key(); serialize_f32(f32), serialize_f64(f64), serialize_bytes(&[u8]), serialize_none(), serialize_unit(), serialize_unit_struct(&'static str));
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), Unwritable> {
        Err(not_a_key())
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(self, _: &'static str, _: u32, _: &'static str, _: &T) -> Result<(), Unwritable> {
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

#[cfg(all(test, feature = "lp"))]
mod tests;
