//! The one error type every model answers with: a code, the request field at
//! fault, and a message saying what would be accepted.

use alloc::string::{String, ToString};
use core::fmt;
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[cfg_attr(feature = "ts", tsify(rename = "DltError"))]
pub struct Error {
    pub code: Code,
    /// The request field at fault, as a path (`processors[1].S`); empty when
    /// the error concerns the request as a whole.
    pub field: String,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum Code {
    /// The request is not well-formed JSON of the contract's shape.
    Parse,
    /// A field is present but outside the accepted range.
    OutOfRange,
    /// The parameters are valid but the model has no feasible answer.
    Infeasible,
    /// The answer needs more time or space than the calculator allows.
    Limit,
    /// The schedule built by a model failed the independent checker: a bug.
    Internal,
}

impl Error {
    pub fn new(code: Code, field: impl Into<String>, message: impl Into<String>) -> Self {
        Error { code, field: field.into(), message: message.into() }
    }

    pub fn range(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(Code::OutOfRange, field, message)
    }

    pub fn infeasible(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(Code::Infeasible, field, message)
    }

    pub fn internal(message: impl ToString) -> Self {
        Self::new(Code::Internal, "", message.to_string())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.field, self.message)
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

pub type Result<T> = core::result::Result<T, Error>;
