//! [`Classify`] for this crate's errors: each error's variant path and class, written once.

use txfx_poseidon::{Classify, ErrorClass, classify::nested};

use crate::blob::{BlobError, MarkerLimit, NotAMarker, TxBlobError};
use crate::category::UnknownRole;
use crate::checkpoint::{CheckpointDecodeError, CheckpointError};
use crate::model::{NotABlockNumber, TxEffectError, UnknownCategory};
use crate::tree::{IndexOutOfBounds, PathError};

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
            Self::InvalidRevertCode { .. } => "InvalidRevertCode",
        })
    }

    fn class(&self) -> ErrorClass {
        ErrorClass::OutOfRange
    }
}

impl Classify for MarkerLimit {
    fn kind(&self) -> String {
        String::from("MarkerLimit")
    }

    fn class(&self) -> ErrorClass {
        ErrorClass::OutOfRange
    }
}

impl Classify for NotAMarker {
    fn kind(&self) -> String {
        String::from("NotAMarker")
    }

    fn class(&self) -> ErrorClass {
        ErrorClass::Malformed
    }
}

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
        }
    }

    fn class(&self) -> ErrorClass {
        match self {
            Self::Tx { source, .. } => source.class(),
            Self::TooManyTxs { .. } => ErrorClass::OutOfRange,
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
            Self::Backend(source) => nested("Backend", source),
        }
    }

    fn class(&self) -> ErrorClass {
        match self {
            Self::Backend(_) => ErrorClass::Backend,
            _ => ErrorClass::OutOfRange,
        }
    }
}

impl Classify for IndexOutOfBounds {
    fn kind(&self) -> String {
        String::from("IndexOutOfBounds")
    }

    fn class(&self) -> ErrorClass {
        ErrorClass::OutOfRange
    }
}

impl Classify for NotABlockNumber {
    fn kind(&self) -> String {
        String::from("NotABlockNumber")
    }

    fn class(&self) -> ErrorClass {
        ErrorClass::OutOfRange
    }
}

impl Classify for UnknownCategory {
    fn kind(&self) -> String {
        String::from("UnknownCategory")
    }

    fn class(&self) -> ErrorClass {
        ErrorClass::Malformed
    }
}

impl Classify for UnknownRole {
    fn kind(&self) -> String {
        String::from("UnknownRole")
    }

    fn class(&self) -> ErrorClass {
        ErrorClass::Malformed
    }
}
