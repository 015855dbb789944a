//! A response handed to JavaScript as a tape: one byte per value or end of
//! a container (`ops`), every number as the f64 it is (`nums`), the
//! strings (`strings`: each member's or variant's name once, as a rule),
//! and the index there of every string value and member name in order
//! (`ids`). `js/tape.js` builds from it the very value that
//! `JSON.parse` would build from serde_json's text: the same members in
//! the same order, null for a NaN or an infinity, integers as numbers, an
//! enum as serde_json writes it. As text, the schedule's numbers were
//! written digit by digit and read back: a binomial tree's 2,300 intervals
//! (293 KB) took longer to write and parse than to solve and check.
//!
//! A struct whose members are all numbers, strings, bools or nulls (a
//! schedule's interval) is a record: its members' ops go once per shape,
//! then each record is its shape's index, its names and its values. In
//! Chromium an object built member by member, its names a variable, took
//! four times as long as one written as a literal, which a record's shape
//! lets tape.js use.

use serde::ser::{self, Serialize};

mod key;

pub const NULL: u8 = 0;
pub const FALSE: u8 = 1;
pub const TRUE: u8 = 2;
pub const NUMBER: u8 = 3;
pub const STRING: u8 = 4;
pub const ARRAY: u8 = 5;
/// Followed by (name, value) pairs: the name's index in `ids`.
pub const OBJECT: u8 = 6;
pub const END: u8 = 7;
/// A record: the next op is its shape's index; its members' names and
/// values follow in `ids` and `nums` as an OBJECT's, without their ops.
pub const RECORD: u8 = 8;
/// The first record of a shape: an OBJECT of scalars whose names and ops
/// are the shape's.
pub const SHAPE: u8 = 9;

/// The shapes an answer may define (an index fits in an op); a struct of
/// any other is an OBJECT. The search for a record's is linear, and an
/// answer has a handful.
const SHAPES: usize = 32;

pub struct Tape {
    pub ops: Vec<u8>,
    pub nums: Vec<f64>,
    pub ids: Vec<u32>,
    /// The strings, one after the other; `lengths` in UTF-16 units, as
    /// JavaScript counts them.
    pub strings: String,
    pub lengths: Vec<u32>,
    /// The index of each 'static name (a member's, a variant's) by its
    /// address and length, a slot per address hash; a name whose slot
    /// another took is written again. Other strings (labels, warnings) are
    /// written each time: few, and seldom the same. In the wasm, finding
    /// every string in a map, with its memcmp, took a third of a small
    /// answer's time.
    names: [(usize, usize, u32); NAME_SLOTS],
    /// The shapes' (name, op) pairs, one after the other, each shape's
    /// place there, and the shape a record was last found to have.
    pairs: Vec<(u32, u8)>,
    shapes: Vec<core::ops::Range<usize>>,
    last_shape: usize,
    /// Where each struct being written opened: its op's and its first
    /// name's places.
    structs: Vec<(usize, usize)>,
}

const NAME_SLOTS: usize = 256;

impl Default for Tape {
    fn default() -> Tape {
        Tape {
            ops: Vec::new(),
            nums: Vec::new(),
            ids: Vec::new(),
            strings: String::new(),
            lengths: Vec::new(),
            names: [(0, 0, 0); NAME_SLOTS],
            pairs: Vec::new(),
            shapes: Vec::new(),
            last_shape: 0,
            structs: Vec::new(),
        }
    }
}

/// A value serde cannot put on the tape (a map key that is not a string
/// or an integer). Boxed: every member written returns a `Result`, and a
/// one-word one goes in a register (in the JSON writer before this one,
/// the String itself made each type's writing hundreds of bytes larger).
#[derive(Debug)]
#[allow(clippy::box_collection)]
pub struct Unwritable(Box<String>);

impl core::fmt::Display for Unwritable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unwritable {}

impl ser::Error for Unwritable {
    fn custom<T: core::fmt::Display>(msg: T) -> Self {
        Unwritable(Box::new(msg.to_string()))
    }
}

/// Beyond this many bytes, a tape's vectors are not kept for the next
/// answer: a schedule of a million intervals would hold its room for good.
const KEPT_BYTES: usize = 4 << 20;

impl Tape {
    /// `value` on this tape, emptied first: its vectors keep the room the
    /// answers before gave them, where growing them afresh each time, the
    /// wasm's `realloc` copying, took a binomial tree's answer of 2,300
    /// intervals 1.40 ms in Chromium where it now takes 1.23.
    pub fn write<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unwritable> {
        let room = self.ops.capacity() + 8 * self.nums.capacity() + 4 * (self.ids.capacity() + self.lengths.capacity()) + self.strings.capacity();
        if room > KEPT_BYTES {
            *self = Tape::default();
        }
        let Tape { ops, nums, ids, strings, lengths, names, pairs, shapes, last_shape, structs } = self;
        ops.clear();
        nums.clear();
        ids.clear();
        strings.clear();
        lengths.clear();
        *names = [(0, 0, 0); NAME_SLOTS];
        pairs.clear();
        shapes.clear();
        *last_shape = 0;
        structs.clear();
        value.serialize(self)
    }

    fn string_index(&mut self, s: &str) -> u32 {
        self.strings.push_str(s);
        self.lengths.push(s.encode_utf16().count() as u32);
        self.lengths.len() as u32 - 1
    }

    /// The index of a 'static name: one address holds one text for the
    /// whole run, where a borrowed string's address may be a freed one's.
    fn name_index(&mut self, name: &'static str) -> u32 {
        let (at, len) = (name.as_ptr() as usize, name.len());
        let slot = (at.wrapping_mul(0x9E37_79B9) >> 7) & (NAME_SLOTS - 1);
        match self.names[slot] {
            (a, l, i) if (a, l) == (at, len) && len > 0 => i,
            _ => {
                let i = self.string_index(name);
                self.names[slot] = (at, len, i);
                i
            }
        }
    }

    fn string(&mut self, s: &str) {
        let i = self.string_index(s);
        self.ops.push(STRING);
        self.ids.push(i);
    }

    fn number(&mut self, v: f64) {
        if v.is_finite() {
            self.ops.push(NUMBER);
            self.nums.push(v);
        } else {
            self.ops.push(NULL);
        }
    }

    fn open(&mut self, op: u8, ends: u8) -> Compound<'_> {
        self.ops.push(op);
        Compound { tape: self, ends }
    }

    /// The struct being closed rewritten as a record, if its members are
    /// scalars (a container's first op is none) and its shape one of the
    /// answer's first SHAPES: the first of a shape stays as it is, marked
    /// SHAPE; any other loses its ops. Its names stay: taking them out took
    /// as long, in the wasm, as reading the records in JavaScript gained.
    fn record(&mut self) -> bool {
        let Some((ops_at, ids_at)) = self.structs.pop() else { return false };
        let members = &self.ops[ops_at + 1..];
        if members.iter().any(|&op| op > STRING) {
            return false;
        }
        // Its (name, op) pairs, by index: as iterators, at the wasm's
        // opt-level "s", they stayed calls, and a record cost twice as much.
        let pair = |id: &mut usize, op: u8| {
            let name = self.ids[*id];
            *id += 1 + usize::from(op == STRING);
            (name, op)
        };
        // Pair by pair (the wasm's memcmp goes a byte at a time), from the
        // shape found last: a schedule's intervals come in runs of one
        // shape, and the first comparison mostly finds it, where a hash of
        // each record took a pass more.
        let same = |at: &core::ops::Range<usize>| {
            let (mut same, mut id) = (at.len() == members.len(), ids_at);
            for (j, &op) in members.iter().enumerate() {
                if !same {
                    break;
                }
                same = self.pairs[at.start + j] == pair(&mut id, op);
            }
            same
        };
        // A loop, not an iterator: at opt-level "s" the iterator's closure
        // stayed a call per shape tried.
        let (count, mut known) = (self.shapes.len(), None);
        for j in 0..count {
            let index = (self.last_shape + j) % count;
            if same(&self.shapes[index]) {
                known = Some(index);
                break;
            }
        }
        match known {
            Some(index) => {
                self.ops.truncate(ops_at);
                self.ops.push(RECORD);
                self.ops.push(index as u8);
                self.last_shape = index;
            }
            None if self.shapes.len() < SHAPES => {
                let (start, mut id) = (self.pairs.len(), ids_at);
                for &op in members {
                    let pair = pair(&mut id, op);
                    self.pairs.push(pair);
                }
                self.last_shape = self.shapes.len();
                self.shapes.push(start..self.pairs.len());
                self.ops[ops_at] = SHAPE;
                self.ops.push(END);
            }
            None => return false,
        }
        true
    }

    /// An enum variant's wrapper object, `{variant: <op ...>}`.
    fn variant(&mut self, variant: &'static str, op: u8) -> Compound<'_> {
        self.ops.push(OBJECT);
        let name = self.name_index(variant);
        self.ids.push(name);
        self.open(op, 2)
    }
}

/// An array or object being written; `ends`: its END and its variant
/// wrapper's, or STRUCT.
pub struct Compound<'a> {
    tape: &'a mut Tape,
    ends: u8,
}

/// The `ends` of a struct: a record, or an object and its END.
const STRUCT: u8 = 0;

impl Compound<'_> {
    // Not inlined, as in a JSON writer: one copy per value type rather
    // than one per member of every response type.
    #[inline(never)]
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unwritable> {
        value.serialize(&mut *self.tape)
    }

    #[inline(never)]
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Unwritable> {
        let name = self.tape.name_index(key);
        self.tape.ids.push(name);
        value.serialize(&mut *self.tape)
    }

    fn close(self) -> Result<(), Unwritable> {
        if self.ends == STRUCT {
            if !self.tape.record() {
                self.tape.ops.push(END);
            }
        } else {
            (0..self.ends).for_each(|_| self.tape.ops.push(END));
        }
        Ok(())
    }
}

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
        let name = key.serialize(key::Key)?;
        let name = self.tape.string_index(&name);
        self.tape.ids.push(name);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unwritable> {
        self.element(value)
    }
    fn end(self) -> Result<(), Unwritable> {
        self.close()
    }
}

/// Every integer type as a number, as JSON.parse reads serde_json's digits
/// (to the nearest f64). An f32 goes as the f64 it is, where serde_json
/// writes its own shortest digits (0.1 for 0.1f32): no response holds one.
macro_rules! numbers {
    ($($method:ident($t:ty)),*) => {
        $(fn $method(self, v: $t) -> Result<(), Unwritable> {
            self.number(v as f64);
            Ok(())
        })*
    };
}

impl<'a> ser::Serializer for &'a mut Tape {
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
        self.ops.push(if v { TRUE } else { FALSE });
        Ok(())
    }
    numbers!(serialize_i8(i8), serialize_i16(i16), serialize_i32(i32), serialize_i64(i64), serialize_u8(u8), serialize_u16(u16), serialize_u32(u32), serialize_u64(u64), serialize_f32(f32), serialize_f64(f64));
    fn serialize_char(self, v: char) -> Result<(), Unwritable> {
        self.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
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
        self.ops.push(NULL);
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Unwritable> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<(), Unwritable> {
        let i = self.name_index(variant);
        self.ops.push(STRING);
        self.ids.push(i);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<(), Unwritable> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(self, _: &'static str, _: u32, variant: &'static str, value: &T) -> Result<(), Unwritable> {
        let mut wrapper = self.open(OBJECT, 1);
        wrapper.field(variant, value)?;
        wrapper.close()
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, Unwritable> {
        Ok(self.open(ARRAY, 1))
    }
    fn serialize_tuple(self, _: usize) -> Result<Compound<'a>, Unwritable> {
        Ok(self.open(ARRAY, 1))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, Unwritable> {
        Ok(self.open(ARRAY, 1))
    }
    fn serialize_tuple_variant(self, _: &'static str, _: u32, variant: &'static str, _: usize) -> Result<Compound<'a>, Unwritable> {
        Ok(self.variant(variant, ARRAY))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, Unwritable> {
        Ok(self.open(OBJECT, 1))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, Unwritable> {
        self.structs.push((self.ops.len(), self.ids.len()));
        Ok(self.open(OBJECT, STRUCT))
    }
    fn serialize_struct_variant(self, _: &'static str, _: u32, variant: &'static str, _: usize) -> Result<Compound<'a>, Unwritable> {
        Ok(self.variant(variant, OBJECT))
    }
}

#[cfg(test)]
mod tests;
