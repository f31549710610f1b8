//! The one error every JSON format's reader returns, in a module of its own that imports no
//! format: each format file, and the module that gathers them, import it from here.

use txfx_membership::{ArchiveError, CategoryError, ProtocolVersion};
use txfx_poseidon::field::FieldError;
use txfx_tx_effects::TxEffectError;
use txfx_tx_effects::checkpoint::CheckpointError;

use super::fault::{Locate, Malformed, Within, join_path};

/// The most siblings a serialized path may declare (`MAX_SIBLING_PATH_LENGTH` in foundation).
pub const MAX_SIBLING_PATH_LENGTH: usize = 128;

/// The most base64 characters a serialized path of [`MAX_SIBLING_PATH_LENGTH`] takes.
pub(crate) const MAX_SIBLING_PATH_BASE64: usize = (4 + 32 * MAX_SIBLING_PATH_LENGTH).div_ceil(3) * 4;

/// A document that is not the JSON its reader takes, or whose content breaks a rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum JsonError {
    /// Not JSON, or not the expected shape: a missing or unknown key, a value of the wrong type,
    /// too many elements. Says where.
    #[error(transparent)]
    Malformed(Box<Malformed>),
    /// A field element that does not parse (not hex or decimal, `>= p`, no `0x` prefix).
    #[error("{path}: {source}")]
    Field {
        /// Where (`root`, `siblingPath[3]`, `preimage[0]`).
        path: String,
        /// Why.
        source: FieldError,
    },
    /// Well-formed, but an effect breaks a protocol rule.
    #[error("{}{source}", tx.map(|tx| format!("tx {tx}: ")).unwrap_or_default())]
    Invalid {
        /// The effect's position in the body; `None` for a single effect.
        tx: Option<usize>,
        /// The rule broken.
        source: TxEffectError,
    },
    /// Inside block `block` of a checkpoint.
    #[error("block {block}: {source}")]
    InBlock {
        /// The block's index within the checkpoint.
        block: usize,
        /// What is wrong there.
        source: Box<JsonError>,
    },
    /// A value the input gives disagrees with the one derived from the rest of it.
    #[error("{what} is {given}, but the data gives {actual}")]
    Disagrees {
        /// The key (TypeScript's name).
        what: &'static str,
        /// The value given.
        given: u64,
        /// The value derived.
        actual: u64,
    },
    /// Well-formed, but not an encodable checkpoint.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// A header of another layout than the protocol asked for has: a `txEffectsTreeRoot` key
    /// present (pre-AZIP-26 asked) or missing (v6 or AZIP-26 asked). Never read as the other.
    #[error("{}", layout_message(*.expected))]
    Layout {
        /// The layout asked for.
        expected: ProtocolVersion,
    },
    /// A witness's base64 that does not decode.
    #[error("{path}: not base64")]
    NotBase64 {
        /// Where.
        path: &'static str,
    },
    /// A serialized sibling path whose bytes do not hold together.
    #[error("siblingPath: {0}")]
    SiblingPath(#[from] SiblingPathError),
    /// A serialized archive witness that does not read (its length, its index, a sibling).
    #[error("archive witness: {0}")]
    ArchiveWitness(#[from] ArchiveError),
    /// A category proof whose marker no tx can have, or whose preimage the marker does not frame:
    /// found while reading, before the preimage is read further than the marker allows.
    #[error("category proof: {0}")]
    Proof(#[from] CategoryError),
}

fn layout_message(expected: ProtocolVersion) -> &'static str {
    if expected.has_tx_effects_tree() {
        "the header has no txEffectsTreeRoot: it is pre-AZIP-26 (Aztec 4.1.2; say --protocol pre-azip-26 to read it)"
    } else {
        "the header has txEffectsTreeRoot, which the pre-AZIP-26 layout does not"
    }
}

/// A serialized sibling path (`uint32_be(n) ‖ n × 32 bytes`) whose bytes do not hold together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SiblingPathError {
    /// Fewer than the 4 bytes of the length prefix.
    #[error("{bytes} bytes, the 4-byte length prefix is missing")]
    NoPrefix {
        /// Bytes given.
        bytes: usize,
    },
    /// A prefix declaring more elements than any path has.
    #[error("declares {declared} elements, at most {MAX_SIBLING_PATH_LENGTH} allowed")]
    TooLong {
        /// Elements declared.
        declared: usize,
    },
    /// More base64 than the longest legal path takes (refused before decoding).
    #[error(
        "{characters} base64 characters, a path of {MAX_SIBLING_PATH_LENGTH} takes at most {}",
        MAX_SIBLING_PATH_BASE64
    )]
    TooManyCharacters {
        /// Characters given.
        characters: usize,
    },
    /// Bytes after the prefix that are not the declared elements.
    #[error("declares {declared} elements ({} bytes) but has {bytes} bytes after the prefix", 32 * .declared)]
    Length {
        /// Elements declared.
        declared: usize,
        /// Bytes after the prefix.
        bytes: usize,
    },
}

impl From<Malformed> for JsonError {
    fn from(error: Malformed) -> Self {
        Self::Malformed(Box::new(error))
    }
}

impl Within for JsonError {
    fn within(self, key: &str) -> Self {
        JsonError::within(self, key)
    }
}

impl Locate for JsonError {
    fn malformed_mut(&mut self) -> Option<&mut Malformed> {
        match self {
            Self::Malformed(malformed) => Some(malformed),
            Self::InBlock { source, .. } => source.malformed_mut(),
            _ => None,
        }
    }
}

impl JsonError {
    /// The error of a document read as `what`: a malformed document names what it was read as.
    #[must_use]
    pub(crate) fn expecting(self, what: &'static str) -> Self {
        match self {
            Self::Malformed(malformed) => Self::Malformed(Box::new(Malformed::expecting(*malformed, what))),
            other => other,
        }
    }

    /// The error as found inside `key` of an enclosing document: a malformed value's path gains
    /// the key; every other error is unchanged.
    #[must_use]
    pub fn within(self, key: &str) -> Self {
        match self {
            Self::Malformed(malformed) => Self::Malformed(Box::new(Malformed::within(*malformed, key))),
            Self::Field { path, source } => Self::Field { path: join_path(key, &path), source },
            other => other,
        }
    }
}
