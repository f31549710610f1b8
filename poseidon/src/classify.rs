//! One classification of every txfx error, written once beside each error type: its variant path
//! (`Invalid/TooMany`) and its class. The command line's exit status, the JavaScript bindings'
//! exception types and the bad-input catalogue's expected kinds all read it, so none of them maps
//! errors by hand.

use alloc::string::String;

/// How a caller should treat an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorClass {
    /// The input is not what was asked for: not JSON, the wrong shape, a bad digit, a document
    /// that could be read two ways (a `TypeError` in JavaScript; exit status 2).
    Malformed,
    /// The input has the right shape but a value outside what is allowed: a field element
    /// `>= p`, more items than the protocol allows, an index past the end (a `RangeError` in
    /// JavaScript; exit status 2).
    OutOfRange,
    /// Well-formed input whose check failed: a witness that does not verify, a proof that does not
    /// hold, a document that contradicts another (a verdict `valid: false`; exit status 1).
    Refuted,
    /// The hashing backend failed (an `Error` in JavaScript; exit status 3).
    Backend,
}

/// An error that names its variant and its class.
pub trait Classify {
    /// The variant's name, then, for an error wrapping another, a slash and the inner error's
    /// kind: `Invalid/TooMany`.
    fn kind(&self) -> String;

    /// The class.
    fn class(&self) -> ErrorClass;
}

/// `name` alone, or `name/inner` for a wrapped error.
pub fn nested(name: &str, inner: &dyn Classify) -> String {
    alloc::format!("{name}/{}", inner.kind())
}

impl Classify for crate::field::FieldError {
    fn kind(&self) -> String {
        use crate::field::FieldError as E;
        String::from(match self {
            E::Empty => "Empty",
            E::InvalidDigit { .. } => "InvalidDigit",
            E::TooManyDigits { .. } => "TooManyDigits",
            E::NotCanonical => "NotCanonical",
            E::MissingHexPrefix => "MissingHexPrefix",
            E::WrongLength { .. } => "WrongLength",
        })
    }

    fn class(&self) -> ErrorClass {
        match self {
            Self::NotCanonical => ErrorClass::OutOfRange,
            _ => ErrorClass::Malformed,
        }
    }
}

impl Classify for crate::field::bits::BitsError {
    fn kind(&self) -> String {
        use crate::field::bits::BitsError as E;
        String::from(match self {
            E::TooWide { .. } => "TooWide",
            E::TooManyBits { .. } => "TooManyBits",
        })
    }

    fn class(&self) -> ErrorClass {
        ErrorClass::OutOfRange
    }
}

impl Classify for crate::backend::BackendError {
    fn kind(&self) -> String {
        use crate::backend::BackendError as E;
        String::from(match self {
            E::Failed { .. } => "Failed",
            E::WrongCount { .. } => "WrongCount",
            E::WorkerGone { .. } => "WorkerGone",
        })
    }

    fn class(&self) -> ErrorClass {
        ErrorClass::Backend
    }
}
