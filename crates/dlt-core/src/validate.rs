//! Range checks on request fields. Every check names the field and says what
//! would be accepted, so a user can fix the request from the message alone.

use crate::error::{Error, Result};
use alloc::format;

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
    if (lo..=hi).contains(&xs.len()) {
        Ok(())
    } else {
        Err(Error::range(field, format!("{field} must list from {lo} to {hi} entries, got {}", xs.len())))
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
