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

fn finite(field: &str, x: f64) -> Result<f64> {
    if x.is_finite() && x.abs() <= MAX_MAGNITUDE && (x == 0.0 || x.abs() >= MIN_MAGNITUDE) {
        Ok(x)
    } else {
        Err(Error::range(field, format!(
            "{field} must be 0 or a finite number of magnitude from {MIN_MAGNITUDE:e} to {MAX_MAGNITUDE:e}, got {x}")))
    }
}

/// Any finite number (an intercept of a piecewise-linear time, say).
pub fn real(field: &str, x: f64) -> Result<f64> {
    finite(field, x)
}

/// x >= 0.
pub fn nonneg(field: &str, x: f64) -> Result<f64> {
    finite(field, x)?;
    if x >= 0.0 {
        Ok(x)
    } else {
        Err(Error::range(field, format!("{field} must be >= 0, got {x}")))
    }
}

/// x > 0.
pub fn positive(field: &str, x: f64) -> Result<f64> {
    finite(field, x)?;
    if x > 0.0 {
        Ok(x)
    } else {
        Err(Error::range(field, format!("{field} must be > 0, got {x}")))
    }
}

/// lo <= x <= hi.
pub fn within(field: &str, x: f64, lo: f64, hi: f64) -> Result<f64> {
    finite(field, x)?;
    if (lo..=hi).contains(&x) {
        Ok(x)
    } else {
        Err(Error::range(field, format!("{field} must be between {lo} and {hi}, got {x}")))
    }
}

/// A whole number lo <= x <= hi. Numbers arrive as JSON numbers, so `3.0`
/// is accepted and `3.5` is not.
pub fn integer(field: &str, x: f64, lo: usize, hi: usize) -> Result<usize> {
    if x.is_finite() && x == libm::trunc(x) && x >= lo as f64 && x <= hi as f64 {
        Ok(x as usize)
    } else {
        Err(Error::range(field, format!("{field} must be a whole number from {lo} to {hi}, got {x}")))
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
}

impl Field {
    /// Any finite number: [`real`].
    pub const fn real(name: &'static str) -> Self {
        Field { name, kind: FieldKind::Number, min: None, min_exclusive: false, max: None }
    }

    /// x >= 0: [`nonneg`].
    pub const fn nonneg(name: &'static str) -> Self {
        Field { min: Some(0.0), ..Field::real(name) }
    }

    /// x > 0: [`positive`].
    pub const fn positive(name: &'static str) -> Self {
        Field { min_exclusive: true, ..Field::nonneg(name) }
    }

    /// 0 < x <= hi.
    pub const fn positive_to(name: &'static str, hi: f64) -> Self {
        Field { max: Some(hi), ..Field::positive(name) }
    }

    /// A whole number lo <= x <= hi: [`integer`].
    pub const fn integer(name: &'static str, lo: usize, hi: usize) -> Self {
        Field { name, kind: FieldKind::Integer, min: Some(lo as f64), min_exclusive: false, max: Some(hi as f64) }
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
        let x = match self.min {
            None => real(at, x)?,
            Some(_) if self.min_exclusive => positive(at, x)?,
            Some(_) => nonneg(at, x)?,
        };
        match self.max {
            Some(hi) => within(at, x, self.min.unwrap_or(-MAX_MAGNITUDE), hi),
            None => Ok(x),
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
        let e = positive("A", 0.0).unwrap_err();
        assert!(e.message.contains("> 0"));
        assert!(nonneg("S", f64::NAN).is_err());
        assert!(real("b", f64::INFINITY).is_err());
        assert!(real("b", 2e15).is_err());
        assert!(positive("C", 1e-300).is_err() && nonneg("C", 0.0).is_ok());
        assert_eq!(integer("k", 3.0, 1, 8).unwrap(), 3);
        assert!(within("gamma", 0.5, 1.0, 10.0).is_err());
    }
}
