//! [`Classify`] for this crate's JSON errors: each error's variant path and class, written once.

use txfx_poseidon::{Classify, ErrorClass, classify::nested};

use crate::json::{JsonError, Malformed, SiblingPathError};

impl Classify for Malformed {
    fn kind(&self) -> String {
        String::from("Malformed")
    }

    fn class(&self) -> ErrorClass {
        ErrorClass::Malformed
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
            Self::Malformed(_) => "Malformed".into(),
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
            Self::Malformed(_)
            | Self::Disagrees { .. }
            | Self::Layout { .. }
            | Self::NotBase64 { .. }
            | Self::SiblingPath(_) => ErrorClass::Malformed,
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
