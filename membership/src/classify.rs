//! [`Classify`] for this crate's errors: each error's variant path and class, written once.

use txfx_poseidon::{Classify, ErrorClass, classify::nested};

use crate::archive::ArchiveError;
use crate::category::CategoryError;
use crate::chain::ChainError;
use crate::header::{HeaderError, UnknownProtocolVersion};
use crate::stored::StoredError;
use crate::witness::{BuildError, UnknownTx, VerifyError};

impl Classify for VerifyError {
    fn kind(&self) -> String {
        match self {
            Self::RootMismatch { .. } => "RootMismatch".into(),
            Self::Path(source) => nested("Path", source),
            Self::MissingCategoriesHash => "MissingCategoriesHash".into(),
            Self::CategoriesHashMismatch { .. } => "CategoriesHashMismatch".into(),
            Self::UncommittedFields { .. } => "UncommittedFields".into(),
            Self::Backend(source) => nested("Backend", source),
        }
    }

    /// A witness that does not prove what it is checked for is a refuted check, whatever the
    /// reason; only a backend failure is not.
    fn class(&self) -> ErrorClass {
        match self {
            Self::Backend(_) | Self::Path(txfx_tx_effects::PathError::Backend(_)) => ErrorClass::Backend,
            _ => ErrorClass::Refuted,
        }
    }
}

impl Classify for BuildError {
    fn kind(&self) -> String {
        match self {
            Self::OutOfBounds(source) => nested("OutOfBounds", source),
            Self::Backend(source) => nested("Backend", source),
        }
    }

    fn class(&self) -> ErrorClass {
        match self {
            Self::OutOfBounds(_) => ErrorClass::OutOfRange,
            Self::Backend(_) => ErrorClass::Backend,
        }
    }
}

impl Classify for UnknownTx {
    fn kind(&self) -> String {
        "UnknownTx".into()
    }

    fn class(&self) -> ErrorClass {
        ErrorClass::OutOfRange
    }
}

impl Classify for HeaderError {
    fn kind(&self) -> String {
        String::from(match self {
            Self::PreAzip26 => "PreAzip26",
        })
    }

    fn class(&self) -> ErrorClass {
        match self {
            Self::PreAzip26 => ErrorClass::Refuted,
        }
    }
}

impl Classify for UnknownProtocolVersion {
    fn kind(&self) -> String {
        "UnknownProtocolVersion".into()
    }

    fn class(&self) -> ErrorClass {
        ErrorClass::Malformed
    }
}

impl Classify for ArchiveError {
    fn kind(&self) -> String {
        match self {
            Self::WrongByteLength { .. } => "WrongByteLength".into(),
            Self::IndexTooLarge => "IndexTooLarge".into(),
            Self::BadSibling { .. } => "BadSibling".into(),
            Self::WrongPathLength { .. } => "WrongPathLength".into(),
            Self::IndexBeyondTree { .. } => "IndexBeyondTree".into(),
            Self::WrongIndex { .. } => "WrongIndex".into(),
            Self::ZeroBlockHash => "ZeroBlockHash".into(),
            Self::RootMismatch { .. } => "RootMismatch".into(),
            Self::TooManyLeaves { .. } => "TooManyLeaves".into(),
            Self::Backend(source) => nested("Backend", source),
        }
    }

    fn class(&self) -> ErrorClass {
        match self {
            Self::BadSibling { source, .. } => source.class(),
            Self::WrongByteLength { .. } | Self::IndexTooLarge | Self::WrongPathLength { .. } => {
                ErrorClass::Malformed
            }
            Self::TooManyLeaves { .. } => ErrorClass::OutOfRange,
            Self::IndexBeyondTree { .. }
            | Self::WrongIndex { .. }
            | Self::ZeroBlockHash
            | Self::RootMismatch { .. } => ErrorClass::Refuted,
            Self::Backend(_) => ErrorClass::Backend,
        }
    }
}

impl Classify for CategoryError {
    fn kind(&self) -> String {
        match self {
            Self::NotAMarker { .. } => "NotAMarker".into(),
            Self::Section { source, .. } => nested("Section", source),
            Self::CategoryHashMismatch { .. } => "CategoryHashMismatch".into(),
            Self::RoleOfAnotherCategory { .. } => "RoleOfAnotherCategory".into(),
            Self::ElementMismatch { .. } => "ElementMismatch".into(),
            Self::NotInCategory { .. } => "NotInCategory".into(),
            Self::Leaf(source) => nested("Leaf", source),
            Self::Backend(source) => nested("Backend", source),
        }
    }

    fn class(&self) -> ErrorClass {
        match self {
            Self::RoleOfAnotherCategory { .. } => ErrorClass::Malformed,
            Self::NotInCategory { .. } => ErrorClass::OutOfRange,
            Self::Leaf(source) => source.class(),
            Self::Backend(_) => ErrorClass::Backend,
            _ => ErrorClass::Refuted,
        }
    }
}

impl Classify for StoredError {
    fn kind(&self) -> String {
        match self {
            Self::LeafMismatch { .. } => "LeafMismatch".into(),
            Self::RootMismatch { .. } => "RootMismatch".into(),
            Self::TooManyTxs { .. } => "TooManyTxs".into(),
            Self::Backend(source) => nested("Backend", source),
        }
    }

    /// A stored block that does not hold together is a bad input, never a verdict.
    fn class(&self) -> ErrorClass {
        match self {
            Self::TooManyTxs { .. } => ErrorClass::OutOfRange,
            Self::Backend(_) => ErrorClass::Backend,
            _ => ErrorClass::Malformed,
        }
    }
}

impl Classify for ChainError {
    fn kind(&self) -> String {
        match self {
            Self::Header(source) => nested("Header", source),
            Self::Archive(source) => nested("Archive", source),
            Self::WitnessBlockNumber { .. } => "WitnessBlockNumber".into(),
            Self::WitnessRoot { .. } => "WitnessRoot".into(),
            Self::Tx(source) => nested("Tx", source),
            Self::Category(source) => nested("Category", source),
            Self::Backend(source) => nested("Backend", source),
        }
    }

    /// Every broken link is a refuted chain; only a backend failure is not.
    fn class(&self) -> ErrorClass {
        match self.link() {
            Some(_) => ErrorClass::Refuted,
            None => ErrorClass::Backend,
        }
    }
}
