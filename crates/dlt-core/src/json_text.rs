//! A request's JSON text read into a `serde_json::Value`, with the nesting
//! limit of `bounded`, for the browser: the page's request object is
//! stringified by the engine's JSON.stringify and crosses into the wasm as
//! one string. Read through serde-wasm-bindgen instead, each number crossed
//! the boundary about five times (null? bool? bigint? number? integer?),
//! 55 of the 150 µs of a 10-processor memory solve; serde_json's own text
//! parser would add its correctly rounded float parser (14 KB gzipped) to a
//! wasm within 2 KB of its budget.
//!
//! Numbers are read exactly as serde_json reads them (a non-negative
//! integer that fits is a u64, a negative one an i64, anything else an f64
//! correctly rounded). The common ones, a significand below 2^53 and a
//! power of ten within 10^±22, are exact in one multiplication or division
//! (Clinger's fast path); the rest go to `slow`, a correctly rounded parser
//! of the caller's (the engine's parseFloat in the browser).

use crate::bounded::{path, Step, MAX_DEPTH};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{Map, Number, Value};

/// Reads one JSON value filling all of `text`. An error comes with the path
/// of the value at fault, as `bounded::value`'s.
pub fn read(text: &str, slow: &dyn Fn(&str) -> Option<f64>) -> Result<Value, (String, String)> {
    let mut reader = Reader { text: text.as_bytes(), at: 0, slow, trail: Vec::new() };
    let value = reader.value(MAX_DEPTH).and_then(|v| {
        reader.blank();
        match reader.peek() {
            None => Ok(v),
            Some(_) => Err(reader.fault("trailing characters")),
        }
    });
    value.map_err(|e| (e, path(&reader.trail)))
}

struct Reader<'a> {
    text: &'a [u8],
    at: usize,
    slow: &'a dyn Fn(&str) -> Option<f64>,
    /// The steps to the value at fault, innermost first, left as an error
    /// unwinds (`bounded`'s convention).
    trail: Vec<Step>,
}

type Read<T> = Result<T, String>;

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn blank(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    fn fault(&self, what: &str) -> String {
        format!("{what} at byte {}", self.at)
    }

    fn expect(&mut self, word: &str) -> Read<()> {
        match self.text[self.at..].starts_with(word.as_bytes()) {
            true => {
                self.at += word.len();
                Ok(())
            }
            false => Err(self.fault("expected value")),
        }
    }

    /// A value that may still hold `depth` levels of arrays and objects.
    fn value(&mut self, depth: usize) -> Read<Value> {
        self.blank();
        match self.peek() {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => self.string().map(Value::String),
            Some(b't') => self.expect("true").map(|_| Value::Bool(true)),
            Some(b'f') => self.expect("false").map(|_| Value::Bool(false)),
            Some(b'n') => self.expect("null").map(|_| Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number().map(Value::Number),
            Some(_) => Err(self.fault("expected value")),
            None => Err(self.fault("EOF while parsing a value")),
        }
    }

    fn inner(&self, depth: usize) -> Read<usize> {
        depth.checked_sub(1).ok_or_else(|| format!("arrays and objects nested deeper than {MAX_DEPTH} levels"))
    }

    /// Past an array's or object's opening bracket: whether `close` ends it
    /// at once (consumed).
    fn opened(&mut self, close: u8) -> bool {
        self.at += 1;
        self.blank();
        let empty = self.peek() == Some(close);
        self.at += usize::from(empty);
        empty
    }

    /// After an item: true at `close`, false at a comma (either consumed).
    fn closed(&mut self, close: u8) -> Read<bool> {
        self.blank();
        let closed = match self.peek() {
            Some(b',') => false,
            Some(c) if c == close => true,
            _ => return Err(self.fault(&format!("expected `,` or `{}`", close as char))),
        };
        self.at += 1;
        Ok(closed)
    }

    /// An array's or object's item at `step`, the step left on the trail if
    /// it fails.
    fn item(&mut self, depth: usize, step: impl FnOnce() -> Step) -> Read<Value> {
        let item = self.value(depth);
        if item.is_err() {
            self.trail.push(step());
        }
        item
    }

    fn array(&mut self, depth: usize) -> Read<Value> {
        let inner = self.inner(depth)?;
        let mut items = Vec::new();
        if !self.opened(b']') {
            loop {
                let i = items.len();
                items.push(self.item(inner, || Step::Index(i))?);
                if self.closed(b']')? {
                    break;
                }
            }
        }
        Ok(Value::Array(items))
    }

    fn object(&mut self, depth: usize) -> Read<Value> {
        let inner = self.inner(depth)?;
        let mut map = Map::new();
        if !self.opened(b'}') {
            loop {
                self.blank();
                if self.peek() != Some(b'"') {
                    return Err(self.fault("expected a key"));
                }
                let key = self.string()?;
                self.blank();
                if self.peek() != Some(b':') {
                    return Err(self.fault("expected `:`"));
                }
                self.at += 1;
                let value = self.item(inner, || Step::Key(key.clone()))?;
                map.insert(key, value);
                if self.closed(b'}')? {
                    break;
                }
            }
        }
        Ok(Value::Object(map))
    }

    /// A string from its opening quote, escapes resolved.
    fn string(&mut self) -> Read<String> {
        self.at += 1;
        let mut out = Vec::new();
        loop {
            let start = self.at;
            while self.peek().is_some_and(|b| b != b'"' && b != b'\\' && b >= 0x20) {
                self.at += 1;
            }
            out.extend_from_slice(&self.text[start..self.at]);
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    // Whole UTF-8 sequences of a &str, and escapes written as UTF-8.
                    return String::from_utf8(out).map_err(|_| self.fault("invalid unicode"));
                }
                Some(b'\\') => {
                    self.at += 1;
                    let c = self.escape()?;
                    out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                }
                Some(_) => return Err(self.fault("control character in a string")),
                None => return Err(self.fault("EOF while parsing a string")),
            }
        }
    }

    /// The character an escape after its backslash stands for.
    fn escape(&mut self) -> Read<char> {
        let c = self.peek().ok_or_else(|| self.fault("EOF while parsing a string"))?;
        self.at += 1;
        Ok(match c {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let high = self.hex4()?;
                let code = match high {
                    0xD800..=0xDBFF if self.text[self.at..].starts_with(b"\\u") => {
                        self.at += 2;
                        let low = self.hex4()?;
                        if !(0xDC00..=0xDFFF).contains(&low) {
                            return Err(self.fault("lone leading surrogate"));
                        }
                        0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                    }
                    0xD800..=0xDFFF => return Err(self.fault("lone surrogate")),
                    _ => high,
                };
                char::from_u32(code).ok_or_else(|| self.fault("invalid unicode"))?
            }
            _ => return Err(self.fault("invalid escape")),
        })
    }

    fn hex4(&mut self) -> Read<u32> {
        let digits = self.text.get(self.at..self.at + 4).ok_or_else(|| self.fault("EOF while parsing a string"))?;
        let code = digits.iter().try_fold(0, |code, &d| (d as char).to_digit(16).map(|x| code * 16 + x));
        self.at += 4;
        code.ok_or_else(|| self.fault("invalid escape"))
    }

    /// A number, as serde_json reads it.
    fn number(&mut self) -> Read<Number> {
        let start = self.at;
        let negative = self.peek() == Some(b'-');
        self.at += usize::from(negative);
        // The significand's digits while they fit in a u64, and the power
        // of ten that scales them.
        let (mut digits, mut dropped, mut scale) = (0u64, false, 0i32);
        let mut take = |d: u8, fraction: bool| match digits.checked_mul(10).and_then(|x| x.checked_add(u64::from(d - b'0'))) {
            Some(x) if !dropped => {
                digits = x;
                scale -= i32::from(fraction);
            }
            _ => {
                dropped = true;
                scale += i32::from(!fraction);
            }
        };
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => self.digits()?.iter().for_each(|&d| take(d, false)),
            _ => return Err(self.fault("invalid number")),
        }
        let integer = !matches!(self.peek(), Some(b'.' | b'e' | b'E'));
        if self.peek() == Some(b'.') {
            self.at += 1;
            self.digits()?.iter().for_each(|&d| take(d, true));
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            let minus = self.peek() == Some(b'-');
            self.at += usize::from(matches!(self.peek(), Some(b'-' | b'+')));
            let exponent = self.digits()?.iter().fold(0i32, |e, &d| e.saturating_mul(10).saturating_add(i32::from(d - b'0')));
            scale = scale.saturating_add(if minus { -exponent } else { exponent });
        }
        let literal = core::str::from_utf8(&self.text[start..self.at]).map_err(|_| self.fault("invalid number"))?;
        if integer && !dropped {
            // serde_json's rule: a negative integer is an i64 down to
            // -2^63, and -0 the float.
            match negative {
                false => return Ok(Number::from(digits)),
                true if digits > 0 && digits <= 1 << 63 => return Ok(Number::from(0i64.wrapping_sub_unsigned(digits))),
                true => {}
            }
        }
        let x = match !dropped && digits < 1 << 53 && (-22..=22).contains(&scale) {
            true if scale < 0 => digits as f64 / POWERS[scale.unsigned_abs() as usize],
            true => digits as f64 * POWERS[scale as usize],
            false => (self.slow)(literal).ok_or_else(|| self.fault("invalid number"))?.abs(),
        };
        Number::from_f64(if negative { -x } else { x }).ok_or_else(|| self.fault("number out of range"))
    }

    /// The run of digits that starts here (at least one), consumed.
    fn digits(&mut self) -> Read<&'a [u8]> {
        let start = self.at;
        while let Some(b'0'..=b'9') = self.peek() {
            self.at += 1;
        }
        match self.at > start {
            true => Ok(&self.text[start..self.at]),
            false => Err(self.fault("invalid number")),
        }
    }
}

/// 10^0 ..= 10^22, each exact in an f64.
const POWERS: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

#[cfg(test)]
mod tests;
