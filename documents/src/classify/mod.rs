//! One classification of every txfx error, written once, in the crate that owns documents: each
//! error's variant path (`Invalid/TooMany`) and its class. The command line's exit status, the
//! JavaScript bindings' exception types and the bad-input catalogue's expected kinds all read it,
//! so none of them maps errors by hand, and the protocol crates below know nothing of exit
//! statuses or exceptions.
//!
//! The lower crates' errors are classified in the `lower` module, this crate's own here.

mod lower;

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
    /// A node or L1 endpoint gave no usable answer: unreachable, too slow, too large, an HTTP
    /// status other than 200, an error answer, or a body that is not the document its method
    /// returns. The endpoint's fault, not the caller's input, and no refutation: nothing was
    /// proven either way (an `Error` of kind `Transport…` in JavaScript; exit status 4).
    Transport,
}

impl ErrorClass {
    /// Every class, in the order of the README's table of exit statuses.
    pub const ALL: [Self; 5] =
        [Self::Refuted, Self::Malformed, Self::OutOfRange, Self::Backend, Self::Transport];

    /// The class's name as the JavaScript errors' `class` property gives it (`Malformed`,
    /// `OutOfRange`, `Refuted`, `Backend`, `Transport`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Malformed => "Malformed",
            Self::OutOfRange => "OutOfRange",
            Self::Refuted => "Refuted",
            Self::Backend => "Backend",
            Self::Transport => "Transport",
        }
    }

    /// The command line's exit status for a failure of this class: 1 refuted, 2 malformed or
    /// out of range (the caller's input), 3 the backend, 4 an endpoint without a usable answer.
    pub fn exit_status(self) -> u8 {
        match self {
            Self::Refuted => 1,
            Self::Malformed | Self::OutOfRange => 2,
            Self::Backend => 3,
            Self::Transport => 4,
        }
    }
}

/// An error that names its variant and its class.
pub trait Classify {
    /// The variant's name, then, for an error wrapping another, a slash and the inner error's
    /// kind: `Invalid/TooMany`.
    fn kind(&self) -> String;

    /// The class.
    fn class(&self) -> ErrorClass;
}

/// An error's variant name as its `Debug` prints it (`TooMany { .. }` gives `TooMany`). The
/// errors of the crates below are non-exhaustive, so [`lower`] names a variant added there after
/// this classification was written by this, never by a made-up name, and gives it its type's
/// most cautious class.
fn variant_name(error: &dyn core::fmt::Debug) -> String {
    let debug = format!("{error:?}");
    debug.split([' ', '(', '{']).next().unwrap_or_default().to_owned()
}

/// `name` alone, or `name/inner` for a wrapped error.
pub fn nested(name: &str, inner: &dyn Classify) -> String {
    format!("{name}/{}", inner.kind())
}

use crate::error::RpcProblem;
use crate::json::{JsonError, Malformed, SiblingPathError};

impl Classify for Malformed {
    fn kind(&self) -> String {
        format!("Malformed/{}", self.kind.name())
    }

    fn class(&self) -> ErrorClass {
        if self.kind.is_out_of_range() { ErrorClass::OutOfRange } else { ErrorClass::Malformed }
    }
}

impl Classify for SiblingPathError {
    fn kind(&self) -> String {
        String::from(match self {
            Self::NoPrefix { .. } => "NoPrefix",
            Self::TooLong { .. } => "TooLong",
            Self::TooManyCharacters { .. } => "TooManyCharacters",
            Self::Length { .. } => "Length",
        })
    }

    fn class(&self) -> ErrorClass {
        ErrorClass::Malformed
    }
}

impl Classify for JsonError {
    fn kind(&self) -> String {
        match self {
            Self::Malformed(source) => source.kind(),
            Self::Field { source, .. } => nested("Field", source),
            Self::Invalid { source, .. } => nested("Invalid", source),
            Self::InBlock { source, .. } => nested("InBlock", source.as_ref()),
            Self::Disagrees { .. } => "Disagrees".into(),
            Self::Checkpoint(source) => nested("Checkpoint", source),
            Self::Layout { .. } => "Layout".into(),
            Self::NotBase64 { .. } => "NotBase64".into(),
            Self::SiblingPath(source) => nested("SiblingPath", source),
            Self::ArchiveWitness(source) => nested("ArchiveWitness", source),
            Self::Proof(source) => nested("Proof", source),
        }
    }

    fn class(&self) -> ErrorClass {
        match self {
            Self::Malformed(source) => source.class(),
            Self::Disagrees { .. } | Self::Layout { .. } | Self::NotBase64 { .. } | Self::SiblingPath(_) => {
                ErrorClass::Malformed
            }
            Self::Field { source, .. } => source.class(),
            Self::Invalid { source, .. } => source.class(),
            Self::InBlock { source, .. } => source.class(),
            Self::Checkpoint(source) => source.class(),
            Self::ArchiveWitness(source) => source.class(),
            // A proof whose marker frames no legal section is refuted while it is read (link
            // `category`), as it would be when checked.
            Self::Proof(source) => source.class(),
        }
    }
}

impl Classify for RpcProblem {
    fn kind(&self) -> String {
        String::from(match self {
            Self::NoResult => "NoResult",
            Self::NodeError { .. } => "NodeError",
            Self::ResultAndError => "ResultAndError",
            Self::Batch => "Batch",
            Self::NoAnswer { .. } => "NoAnswer",
            Self::RepeatedId { .. } => "RepeatedId",
            Self::NotABatch => "NotABatch",
            Self::UnaskedId { .. } => "UnaskedId",
        })
    }

    fn class(&self) -> ErrorClass {
        ErrorClass::Malformed
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorClass;

    /// README's table of exit statuses, row by row.
    #[test]
    fn every_class_has_its_exit_status_and_name() {
        let table = [
            (ErrorClass::Refuted, 1, "Refuted"),
            (ErrorClass::Malformed, 2, "Malformed"),
            (ErrorClass::OutOfRange, 2, "OutOfRange"),
            (ErrorClass::Backend, 3, "Backend"),
            (ErrorClass::Transport, 4, "Transport"),
        ];
        assert_eq!(table.map(|(class, ..)| class), ErrorClass::ALL);
        for (class, status, name) in table {
            assert_eq!((class.exit_status(), class.name()), (status, name));
        }
    }
}
