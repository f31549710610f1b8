//! Every JSON format txfx reads and prints, in one place: tx effects and bodies, checkpoints,
//! block headers, tx-effects witnesses, archive witnesses, stored blocks and category proofs.
//!
//! Each reader takes one shape and reads it the one way Aztec's TypeScript 4.1.2 reads it
//! (docs/spec.md §12.1–§12.7, §12.9); each printer gives TypeScript's exact shape, or txfx's own
//! for its own formats. Telling shapes apart (a `getTxEffect` result around an effect, an
//! `L2Block` around a body or a header, a JSON-RPC response around any node result) is
//! [`crate::read`]'s job, which calls these readers for the shape it finds.
//!
//! A reader takes its document as text or as an already parsed value (`&str`, `&String` or
//! `&serde_json::Value`, through [`JsonInput`]) and reads both the same way; the value form is
//! what the JavaScript bindings pass. Every reader fails with the one [`JsonError`], whose
//! [`JsonError::Malformed`] says where (path, line, column) and what.
//!
//! Every printer gives a [`Json`], whose objects keep their keys in the shape's order whatever
//! serde_json's features (txfx does not turn on its `preserve_order`: [`Json`]'s docs).
//!
//! The protocol crates below (`txfx-tx-effects`, `txfx-membership`) know no JSON: this module owns
//! every rule of how their values look as text.

pub(crate) mod archive;
mod checkpoint;
pub(crate) mod effect;
pub(crate) mod header;
mod network;
pub(crate) mod node_answer;
mod ordered;
pub(crate) mod proof;
pub mod rpc;
pub(crate) mod stored;
pub(crate) mod wire;
pub(crate) mod witness;

pub use archive::{archive_witness_from_json, archive_witness_to_json};
pub use checkpoint::{ParsedCheckpoint, checkpoint_from_json, checkpoint_to_json};
pub use effect::{body_from_json, body_to_json, effect_from_json, effect_to_json};
pub use header::{eip55_case_holds, header_from_json, header_to_json};
pub use network::{network_from_json, network_to_json};
pub use node_answer::{MAX_COMMITTEE_SIZE, MAX_DEBUG_LOG_FIELDS};
pub use ordered::{Json, Object};
pub use proof::{category_proof_from_json, category_proof_to_json};
pub use stored::{stored_block_from_json, stored_block_to_json};
pub use wire::{
    JsonInput, JsonType, MAX_DEPTH, MAX_SAFE_INTEGER, Malformation, Malformed, NumberProblem, QUOTE_CHARS,
    Quoted, safe_number,
};
pub use witness::{MAX_SIBLING_PATH_LENGTH, sibling_path_from_base64, witness_from_json, witness_to_json};

use witness::MAX_SIBLING_PATH_BASE64;

pub(crate) use archive::archive_witness_from_text;
pub(crate) use network::read_network;

use txfx_membership::{ArchiveError, CategoryError, ProtocolVersion};
use txfx_poseidon::Fr;
use txfx_poseidon::field::{FieldError, parse_fr_hex, parse_fr_json};
use txfx_tx_effects::TxEffectError;
use txfx_tx_effects::checkpoint::CheckpointError;
use wire::{Locate, Raw, Within};

/// A field element as TypeScript's `Fr` schema reads it: a string of `0x`-hex or decimal digits.
pub(crate) fn field(raw: Raw<'_>) -> Result<Fr, JsonError> {
    let text = raw.string()?;
    parse_fr_json(&text).map_err(|source| JsonError::Field { path: String::new(), source })
}

/// A field element as `0x`-hex only.
pub(crate) fn hex_field(raw: Raw<'_>) -> Result<Fr, JsonError> {
    let text = raw.string()?;
    parse_fr_hex(&text).map_err(|source| JsonError::Field { path: String::new(), source })
}

/// A JSON array of field elements (`0x`-hex or decimal strings), at most `max` of them (`what`
/// names the list), read no further; each bad element is named by its index.
pub(crate) fn fields(raw: Raw<'_>, max: usize, what: &'static str) -> Result<Vec<Fr>, JsonError> {
    raw.items(max, what, field)
}

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
            Self::Field { path, source } => Self::Field { path: wire::join_path(key, &path), source },
            other => other,
        }
    }
}
