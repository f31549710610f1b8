//! [`Classify`] for the errors of the crates below (`txfx-poseidon`, `txfx-tx-effects`,
//! `txfx-membership`): each error's variant path and class.

use super::{Classify, ErrorClass, nested, variant_name};

use txfx_tx_effects::blob::{BlobError, MarkerLimit, NotAMarker, TxBlobError};
use txfx_tx_effects::category::UnknownRole;
use txfx_tx_effects::checkpoint::{CheckpointDecodeError, CheckpointError};
use txfx_tx_effects::model::{NotABlockNumber, TxEffectError, UnknownCategory};
use txfx_tx_effects::tree::{IndexOutOfBounds, PathError};

use txfx_membership::archive::ArchiveError;
use txfx_membership::category::CategoryError;
use txfx_membership::chain::ChainError;
use txfx_membership::header::HeaderError;
use txfx_membership::network::UnknownNetwork;
use txfx_membership::stored::StoredError;
use txfx_membership::witness::{BuildError, TxLookupError, VerifyError};
use txfx_tx_effects::UnknownProtocolVersion;

impl Classify for txfx_poseidon::field::FieldError {
    fn kind(&self) -> String {
        use txfx_poseidon::field::FieldError as E;
        String::from(match self {
            E::Empty => "Empty",
            E::InvalidDigit { .. } => "InvalidDigit",
            E::TooManyDigits { .. } => "TooManyDigits",
            E::NotCanonical => "NotCanonical",
            E::MissingHexPrefix => "MissingHexPrefix",
            E::WrongLength { .. } => "WrongLength",
            _ => return variant_name(self),
        })
    }

    fn class(&self) -> ErrorClass {
        match self {
            Self::NotCanonical => ErrorClass::OutOfRange,
            _ => ErrorClass::Malformed,
        }
    }
}

impl Classify for txfx_poseidon::field::bits::BitsError {
    fn kind(&self) -> String {
        use txfx_poseidon::field::bits::BitsError as E;
        String::from(match self {
            E::TooWide { .. } => "TooWide",
            E::TooManyBits { .. } => "TooManyBits",
            _ => return variant_name(self),
        })
    }

    fn class(&self) -> ErrorClass {
        ErrorClass::OutOfRange
    }
}

impl Classify for txfx_poseidon::BackendError {
    fn kind(&self) -> String {
        use txfx_poseidon::BackendError as E;
        String::from(match self {
            E::Failed { .. } => "Failed",
            E::WrongCount { .. } => "WrongCount",
            E::WorkerGone { .. } => "WorkerGone",
            _ => return variant_name(self),
        })
    }

    fn class(&self) -> ErrorClass {
        ErrorClass::Backend
    }
}

impl Classify for TxEffectError {
    fn kind(&self) -> String {
        String::from(match self {
            Self::TooMany { .. } => "TooMany",
            Self::ZeroValue { .. } => "ZeroValue",
            Self::EmptyPublicDataWrite { .. } => "EmptyPublicDataWrite",
            Self::LogLength { .. } => "LogLength",
            Self::LogFieldsShorterThanLength { .. } => "LogFieldsShorterThanLength",
            Self::LogTooManyFields { .. } => "LogTooManyFields",
            Self::LogPaddingNotZero { .. } => "LogPaddingNotZero",
            Self::PublicLogsPayloadTooLong { .. } => "PublicLogsPayloadTooLong",
            Self::ContractClassLogLength { .. } => "ContractClassLogLength",
            Self::InvalidRevertCode { .. } => "InvalidRevertCode",
            _ => return variant_name(self),
        })
    }

    fn class(&self) -> ErrorClass {
        ErrorClass::OutOfRange
    }
}

/// Errors of one kind each: the type's name is its kind, and every value is of one class.
macro_rules! one_kind {
    ($($error:ident => $class:ident),* $(,)?) => {$(
        impl Classify for $error {
            fn kind(&self) -> String {
                String::from(stringify!($error))
            }

            fn class(&self) -> ErrorClass {
                ErrorClass::$class
            }
        }
    )*};
}

one_kind!(
    MarkerLimit => OutOfRange,
    NotAMarker => Malformed,
    IndexOutOfBounds => OutOfRange,
    NotABlockNumber => OutOfRange,
    UnknownCategory => Malformed,
    UnknownRole => Malformed,
);

impl Classify for TxBlobError {
    fn kind(&self) -> String {
        match self {
            Self::NotAMarker { .. } => "NotAMarker".into(),
            Self::Truncated { .. } => "Truncated".into(),
            Self::LengthMismatch { .. } => "LengthMismatch".into(),
            Self::Limit(_) => "Limit".into(),
            Self::RanOut { .. } => "RanOut".into(),
            Self::BadLength { .. } => "BadLength".into(),
            Self::PrivateLogsLengthMismatch { .. } => "PrivateLogsLengthMismatch".into(),
            Self::Invalid(source) => nested("Invalid", source),
            _ => variant_name(self),
        }
    }

    fn class(&self) -> ErrorClass {
        match self {
            Self::Limit(_) | Self::Invalid(_) => ErrorClass::OutOfRange,
            _ => ErrorClass::Malformed,
        }
    }
}

impl Classify for BlobError {
    fn kind(&self) -> String {
        match self {
            Self::Tx { source, .. } => nested("Tx", source),
            Self::TooManyTxs { .. } => "TooManyTxs".into(),
            _ => variant_name(self),
        }
    }

    fn class(&self) -> ErrorClass {
        match self {
            Self::Tx { source, .. } => source.class(),
            Self::TooManyTxs { .. } => ErrorClass::OutOfRange,
            _ => ErrorClass::Malformed,
        }
    }
}

impl Classify for CheckpointError {
    fn kind(&self) -> String {
        String::from(match self {
            Self::NoBlocks => "NoBlocks",
            Self::L1ToL2MessageRoot { .. } => "L1ToL2MessageRoot",
            Self::StateOutOfRange { .. } => "StateOutOfRange",
            Self::TooManyTxs { .. } => "TooManyTxs",
            Self::TooLarge { .. } => "TooLarge",
            _ => return variant_name(self),
        })
    }

    fn class(&self) -> ErrorClass {
        match self {
            Self::NoBlocks | Self::L1ToL2MessageRoot { .. } => ErrorClass::Malformed,
            _ => ErrorClass::OutOfRange,
        }
    }
}

impl Classify for CheckpointDecodeError {
    fn kind(&self) -> String {
        match self {
            Self::Empty => "Empty".into(),
            Self::TooLong { .. } => "TooLong".into(),
            Self::Tx { source, .. } => nested("Tx", source),
            Self::MissingBlockEnd { .. } => "MissingBlockEnd".into(),
            Self::TruncatedBlockEnd { .. } => "TruncatedBlockEnd".into(),
            Self::BadStateField { .. } => "BadStateField".into(),
            Self::NumTxsMismatch { .. } => "NumTxsMismatch".into(),
            Self::MissingCheckpointEnd { .. } => "MissingCheckpointEnd".into(),
            Self::NumBlobFieldsMismatch { .. } => "NumBlobFieldsMismatch".into(),
            Self::NonzeroTail { .. } => "NonzeroTail".into(),
            _ => variant_name(self),
        }
    }

    fn class(&self) -> ErrorClass {
        match self {
            Self::Tx { source, .. } => source.class(),
            Self::TooLong { .. } => ErrorClass::OutOfRange,
            _ => ErrorClass::Malformed,
        }
    }
}

impl Classify for PathError {
    fn kind(&self) -> String {
        match self {
            Self::TooLong { .. } => "TooLong".into(),
            Self::LeafIndexOutOfRange { .. } => "LeafIndexOutOfRange".into(),
            _ => variant_name(self),
        }
    }

    fn class(&self) -> ErrorClass {
        ErrorClass::OutOfRange
    }
}

impl Classify for VerifyError {
    fn kind(&self) -> String {
        match self {
            Self::RootMismatch { .. } => "RootMismatch".into(),
            Self::Path(source) => nested("Path", source),
            Self::MissingCategoriesHash => "MissingCategoriesHash".into(),
            Self::CategoriesHashMismatch { .. } => "CategoriesHashMismatch".into(),
            Self::UncommittedFields { .. } => "UncommittedFields".into(),
            Self::Backend(source) => nested("Backend", source),
            _ => variant_name(self),
        }
    }

    /// A witness that does not prove what it is checked for is a refuted check, whatever the
    /// reason; only a backend failure is not.
    fn class(&self) -> ErrorClass {
        match self {
            Self::Backend(_) => ErrorClass::Backend,
            _ => ErrorClass::Refuted,
        }
    }
}

impl Classify for BuildError {
    fn kind(&self) -> String {
        match self {
            Self::OutOfBounds(source) => nested("OutOfBounds", source),
            Self::Backend(source) => nested("Backend", source),
            _ => variant_name(self),
        }
    }

    fn class(&self) -> ErrorClass {
        match self {
            Self::OutOfBounds(_) => ErrorClass::OutOfRange,
            Self::Backend(_) => ErrorClass::Backend,
            _ => ErrorClass::Malformed,
        }
    }
}

impl Classify for TxLookupError {
    fn kind(&self) -> String {
        String::from(match self {
            Self::Unknown { .. } => "Unknown",
            Self::Repeated { .. } => "Repeated",
            Self::NoTxHashes => "NoTxHashes",
            _ => return variant_name(self),
        })
    }

    fn class(&self) -> ErrorClass {
        match self {
            Self::Unknown { .. } => ErrorClass::OutOfRange,
            Self::Repeated { .. } | Self::NoTxHashes => ErrorClass::Malformed,
            _ => ErrorClass::Malformed,
        }
    }
}

impl Classify for HeaderError {
    fn kind(&self) -> String {
        String::from(match self {
            Self::PreAzip26 => "PreAzip26",
            _ => return variant_name(self),
        })
    }

    fn class(&self) -> ErrorClass {
        match self {
            Self::PreAzip26 => ErrorClass::Refuted,
            _ => ErrorClass::Refuted,
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

impl Classify for UnknownNetwork {
    fn kind(&self) -> String {
        "UnknownNetwork".into()
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
            _ => variant_name(self),
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
            _ => ErrorClass::Refuted,
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
            _ => variant_name(self),
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
            _ => variant_name(self),
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
            _ => variant_name(self),
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
