//! Range checks on request fields. Every check names the field and says what
//! would be accepted, so a user can fix the request from the message alone.

use crate::error::{Error, Result};
use alloc::format;
use serde::Serialize;

/// Largest magnitude accepted for any parameter: beyond it sums of products
/// of parameters lose every significant digit of the smaller terms.
pub const MAX_MAGNITUDE: f64 = 1e15;
/// Smallest nonzero magnitude: below it products of parameters underflow
/// and LP coefficients span more than any solver resolves.
pub const MIN_MAGNITUDE: f64 = 1e-30;

/// A number as a message shows it: 1e308, not its 309 digits.
pub(crate) fn shown(x: f64) -> alloc::string::String {
    if x == 0.0 || !x.is_finite() || (1e-4..1e6).contains(&x.abs()) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// A whole number lo <= x <= hi. Numbers arrive as JSON numbers, so `3.0`
/// is accepted and `3.5` is not.
pub fn integer(field: &str, x: f64, lo: usize, hi: usize) -> Result<usize> {
    if x.is_finite() && x == libm::trunc(x) && x >= lo as f64 && x <= hi as f64 {
        Ok(x as usize)
    } else {
        let range = if lo == hi { format!("{lo}") } else { format!("a whole number from {lo} to {hi}") };
        Err(Error::range(field, format!("{field} must be {range}, got {}", shown(x))))
    }
}

/// A list of length lo..=hi.
pub fn length<T>(field: &str, xs: &[T], lo: usize, hi: usize) -> Result<()> {
    length_of(xs, lo, hi, || field.into())
}

/// `length`, the list named by `field()` only where it fails.
pub fn length_of<T>(xs: &[T], lo: usize, hi: usize, field: impl FnOnce() -> alloc::string::String) -> Result<()> {
    if (lo..=hi).contains(&xs.len()) {
        Ok(())
    } else {
        let field = field();
        Err(Error::range(&field, format!("{field} must list from {lo} to {hi} entries, got {}", xs.len())))
    }
}

/// Whether a field takes whole numbers or any number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
pub enum FieldKind {
    Integer,
    Number,
}

/// A request field and the numbers it accepts (each entry's, for a list).
/// A model's `validate` checks the field through it and the registry lists
/// it for the page's form, so the bound is written once: the form cannot
/// accept what the core refuses, nor refuse what it accepts.
///
/// Built only by the constructors below, whose ranges are the checks above.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Field {
    name: &'static str,
    kind: FieldKind,
    /// The least value accepted, or, with `min_exclusive`, the greatest refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    min: Option<f64>,
    min_exclusive: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    max: Option<f64>,
    /// A number's nonzero magnitudes, MIN_MAGNITUDE to MAX_MAGNITUDE (not
    /// for whole numbers): the form checks them as the core does.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    magnitude: Option<[f64; 2]>,
}

impl Field {
    /// 0 or any number of magnitude MIN_MAGNITUDE to MAX_MAGNITUDE.
    pub const fn real(name: &'static str) -> Self {
        Field { name, kind: FieldKind::Number, min: None, min_exclusive: false, max: None, magnitude: Some([MIN_MAGNITUDE, MAX_MAGNITUDE]) }
    }

    /// x >= 0.
    pub const fn nonneg(name: &'static str) -> Self {
        Field { min: Some(0.0), ..Field::real(name) }
    }

    /// x > 0.
    pub const fn positive(name: &'static str) -> Self {
        Field { min_exclusive: true, ..Field::nonneg(name) }
    }

    /// 0 < x <= hi.
    pub const fn positive_to(name: &'static str, hi: f64) -> Self {
        Field { max: Some(hi), ..Field::positive(name) }
    }

    /// lo <= x <= hi (0 <= lo; a nonzero x of magnitude MIN_MAGNITUDE or more).
    pub const fn between(name: &'static str, lo: f64, hi: f64) -> Self {
        Field { min: Some(lo), max: Some(hi), ..Field::real(name) }
    }

    /// A whole number lo <= x <= hi: [`integer`].
    pub const fn integer(name: &'static str, lo: usize, hi: usize) -> Self {
        Field { name, kind: FieldKind::Integer, min: Some(lo as f64), min_exclusive: false, max: Some(hi as f64), magnitude: None }
    }

    /// The same range under another name (a processor's `S` as
    /// `chunk_size`'s uniform `S`, say).
    pub const fn named(self, name: &'static str) -> Self {
        Field { name, ..self }
    }

    /// The request's name of the field.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// `x`, checked as the field.
    pub fn check(&self, x: f64) -> Result<f64> {
        self.check_at(self.name, x)
    }

    /// `x`, checked as entry `at()` of a list: named only where it fails,
    /// since a name costs a `format!` and 002's lists of 1000 processors are
    /// checked on every request.
    pub fn check_item(&self, x: f64, at: impl FnOnce() -> alloc::string::String) -> Result<f64> {
        self.check(x).or_else(|_| self.check_at(&at(), x))
    }

    /// `x`, checked as the field's entry `at` (`item(name, i)` of a list).
    pub fn check_at(&self, at: &str, x: f64) -> Result<f64> {
        if self.kind == FieldKind::Integer {
            return self.whole(at, x).map(|k| k as f64);
        }
        let magnitude = x == 0.0 || (MIN_MAGNITUDE..=MAX_MAGNITUDE).contains(&x.abs());
        let above = match self.min {
            None => true,
            Some(lo) if self.min_exclusive => x > lo,
            Some(lo) => x >= lo,
        };
        if x.is_finite() && magnitude && above && self.max.is_none_or(|hi| x <= hi) {
            Ok(x)
        } else {
            Err(Error::range(at, format!("{at} must be {}, got {}", self.accepts(), shown(x))))
        }
    }

    /// What the field accepts, in words: the messages' and the form's hint.
    pub fn accepts(&self) -> alloc::string::String {
        let hi = shown(self.max.unwrap_or(MAX_MAGNITUDE));
        let lo = shown(MIN_MAGNITUDE);
        match (self.kind, self.min) {
            (FieldKind::Integer, lo) => format!("a whole number from {} to {hi}", lo.unwrap_or(0.0)),
            (FieldKind::Number, None) => format!("0 or of magnitude {lo} to {hi}, either sign"),
            (FieldKind::Number, Some(m)) if m > 0.0 && !self.min_exclusive => format!("from {} to {hi}", shown(m)),
            (FieldKind::Number, Some(_)) if self.min_exclusive => format!("from {lo} to {hi}"),
            (FieldKind::Number, Some(_)) => format!("0 or from {lo} to {hi}"),
        }
    }

    /// `x`, checked as the whole-number field, as a count.
    pub fn count(&self, x: f64) -> Result<usize> {
        self.whole(self.name, x)
    }

    fn whole(&self, at: &str, x: f64) -> Result<usize> {
        integer(at, x, self.min.unwrap_or(0.0) as usize, self.max.unwrap_or(f64::MAX) as usize)
    }
}

/// The path of element `i` of list `field`, for messages.
pub fn item(field: &str, i: usize) -> alloc::string::String {
    format!("{field}[{i}]")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_field_and_range() {
        let e = integer("m", 3.5, 1, 100).unwrap_err();
        assert_eq!(e.field, "m");
        assert!(e.message.contains("from 1 to 100"), "{}", e.message);
        assert_eq!(integer("k", 3.0, 1, 8).unwrap(), 3);
        let (a, s, b) = (Field::positive("A"), Field::nonneg("S"), Field::real("b"));
        assert_eq!(a.check(0.0).unwrap_err().message, "A must be from 1e-30 to 1e15, got 0");
        assert_eq!(s.check(-1.0).unwrap_err().message, "S must be 0 or from 1e-30 to 1e15, got -1");
        assert_eq!(b.check(2e15).unwrap_err().message, "b must be 0 or of magnitude 1e-30 to 1e15, either sign, got 2e15");
        // 1e308 in a message is 1e308, not 309 digits.
        assert_eq!(a.check(1e308).unwrap_err().message, "A must be from 1e-30 to 1e15, got 1e308");
        assert!(s.check(f64::NAN).is_err() && b.check(f64::INFINITY).is_err());
        assert!(a.check(1e-300).is_err() && s.check(0.0).is_ok() && b.check(-3.0).is_ok());
        let l = Field::positive_to("L", 1e6);
        assert_eq!(l.check(2e6).unwrap_err().message, "L must be from 1e-30 to 1e6, got 2e6");
        assert_eq!(Field::integer("gamma", 1, 10).check(0.5).unwrap_err().message, "gamma must be a whole number from 1 to 10, got 0.5");
        // A range of one value names it.
        assert_eq!(integer("n", 7.0, 5, 5).unwrap_err().message, "n must be 5, got 7");
    }
}
