//! The witness JSON of Aztec's node API, `aztec_getTxEffectMembershipWitness` (docs/spec.md §8.3).
//!
//! ```json
//! {"blockNumber":7,"root":"0x..","categoriesHash":"0x..","leafIndex":"3","siblingPath":"AAAAAi0M..."}
//! ```
//!
//! - `blockNumber`: a JSON number (a numeric string is accepted), below 2^32 (a block number,
//!   as the blob encoding carries it).
//! - `root`, `categoriesHash`: `0x` + 64 hex digits; `categoriesHash` is absent in the AZIP-26 form.
//! - `leafIndex`: a decimal string (TypeScript prints the bigint so); a number is accepted.
//! - `siblingPath`: base64 of `uint32_be(n) ‖ n × 32-byte big-endian elements`, n at most 128;
//!   `{"type":"Buffer","data":[...]}` is accepted too. The length prefix must match the bytes
//!   exactly, and each element must be canonical.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::Serialize;
use serde_json::Value;
use txfx_poseidon::field::{FieldError, fr_from_be_slice, fr_to_be_bytes, fr_to_hex, parse_fr_hex};
use txfx_tx_effects::BlockNumber;
use txfx_tx_effects::json::Malformed;
use txfx_tx_effects::json::wire::{JsonInput, JsonKind, JsonObject, lenient_u64};

use crate::witness::TxEffectMembershipWitness;

/// The most siblings a serialized path may declare (`MAX_SIBLING_PATH_LENGTH` in foundation).
pub const MAX_SIBLING_PATH_LENGTH: usize = 128;

/// Witness JSON that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WitnessJsonError {
    /// Not JSON, or not an object.
    #[error("malformed witness JSON: {0}")]
    Malformed(#[from] Malformed),
    /// A required key is missing.
    #[error("witness JSON has no {key:?}")]
    MissingKey {
        /// The key.
        key: &'static str,
    },
    /// A key the witness does not have.
    #[error("unknown key {key:?} in witness JSON")]
    UnknownKey {
        /// The key.
        key: String,
    },
    /// A value of the wrong type or out of range.
    #[error("{key}: {reason}")]
    BadValue {
        /// The key.
        key: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// A field element that is not canonical `0x`-hex.
    #[error("{key}: {source}")]
    BadField {
        /// The key (`siblingPath[i]` for a path element).
        key: String,
        /// Why.
        source: FieldError,
    },
    /// The sibling path's bytes do not match its length prefix, or it declares too many.
    #[error("siblingPath: {reason}")]
    BadSiblingPath {
        /// What is wrong.
        reason: String,
    },
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct WitnessOut {
    block_number: BlockNumber,
    root: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    categories_hash: Option<String>,
    leaf_index: String,
    sibling_path: String,
}

/// The serialized sibling path: `uint32_be(n)` then the elements.
pub fn sibling_path_to_bytes(path: &[txfx_poseidon::Fr]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(4 + 32 * path.len());
    bytes.extend_from_slice(&(path.len() as u32).to_be_bytes());
    for element in path {
        bytes.extend_from_slice(&fr_to_be_bytes(element));
    }
    bytes
}

/// Parses a serialized sibling path.
///
/// # Errors
/// [`WitnessJsonError::BadSiblingPath`] if the length prefix is over 128 or disagrees with the
/// bytes, [`WitnessJsonError::BadField`] for a non-canonical element.
pub fn sibling_path_from_bytes(bytes: &[u8]) -> Result<Vec<txfx_poseidon::Fr>, WitnessJsonError> {
    let bad = |reason: String| WitnessJsonError::BadSiblingPath { reason };
    let (prefix, elements) = bytes
        .split_first_chunk::<4>()
        .ok_or_else(|| bad(format!("{} bytes, the 4-byte length prefix is missing", bytes.len())))?;
    let declared = u32::from_be_bytes(*prefix) as usize;
    if declared > MAX_SIBLING_PATH_LENGTH {
        return Err(bad(format!("declares {declared} elements, at most {MAX_SIBLING_PATH_LENGTH} allowed")));
    }
    if elements.len() != 32 * declared {
        return Err(bad(format!(
            "declares {declared} elements ({} bytes) but has {} bytes after the prefix",
            32 * declared,
            elements.len()
        )));
    }
    elements
        .chunks_exact(32)
        .enumerate()
        .map(|(i, chunk)| {
            fr_from_be_slice(chunk)
                .map_err(|source| WitnessJsonError::BadField { key: format!("siblingPath[{i}]"), source })
        })
        .collect()
}

/// The witness as node-API JSON.
pub fn witness_to_json(witness: &TxEffectMembershipWitness) -> Value {
    #[allow(clippy::expect_used, reason = "an internal invariant: a failure must be loud, never JSON null")]
    serde_json::to_value(WitnessOut::from(witness))
        .expect("invariant: strings and a number always convert to JSON")
}

impl From<&TxEffectMembershipWitness> for WitnessOut {
    fn from(witness: &TxEffectMembershipWitness) -> Self {
        Self {
            block_number: witness.block_number,
            root: fr_to_hex(&witness.root),
            categories_hash: witness.categories_hash.as_ref().map(fr_to_hex),
            leaf_index: witness.leaf_index.to_string(),
            sibling_path: STANDARD.encode(sibling_path_to_bytes(&witness.sibling_path)),
        }
    }
}

/// A witness serializes as the node API's JSON (module docs).
impl serde::Serialize for TxEffectMembershipWitness {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        WitnessOut::from(self).serialize(serializer)
    }
}

/// A witness deserializes from the node API's JSON, with every check of [`witness_from_value`].
impl<'de> serde::Deserialize<'de> for TxEffectMembershipWitness {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = <Value as serde::Deserialize>::deserialize(deserializer)?;
        witness_from_value(&value).map_err(serde::de::Error::custom)
    }
}

/// A `0x`-hex field element under `key`, if present.
fn field(object: &JsonObject<'_>, key: &'static str) -> Result<Option<txfx_poseidon::Fr>, WitnessJsonError> {
    let Some(value) = object.get(key) else { return Ok(None) };
    let text: String = value
        .parse()
        .map_err(|error: Malformed| WitnessJsonError::BadValue { key, reason: error.message })?;
    parse_fr_hex(&text).map(Some).map_err(|source| WitnessJsonError::BadField { key: key.to_owned(), source })
}

/// An unsigned integer under `key`: a JSON number or a string of decimal digits.
fn unsigned(object: &JsonObject<'_>, key: &'static str) -> Result<u64, WitnessJsonError> {
    #[derive(serde::Deserialize)]
    struct Unsigned(#[serde(deserialize_with = "lenient_u64::deserialize")] u64);
    let value = object.get(key).ok_or(WitnessJsonError::MissingKey { key })?;
    value
        .parse::<Unsigned>()
        .map(|Unsigned(value)| value)
        .map_err(|error| WitnessJsonError::BadValue { key, reason: error.message })
}

fn sibling_path(value: Option<JsonInput<'_>>) -> Result<Vec<txfx_poseidon::Fr>, WitnessJsonError> {
    let bad = |reason: String| WitnessJsonError::BadValue { key: "siblingPath", reason };
    let value = value.ok_or(WitnessJsonError::MissingKey { key: "siblingPath" })?;
    let bytes = match value.kind() {
        JsonKind::String => {
            let text: String = value.parse().map_err(|error: Malformed| bad(error.message))?;
            // Refuse before decoding anything longer than the largest legal path.
            let max_len = (4 + 32 * MAX_SIBLING_PATH_LENGTH).div_ceil(3) * 4;
            if text.len() > max_len {
                return Err(WitnessJsonError::BadSiblingPath {
                    reason: format!(
                        "{} base64 characters, a path of {MAX_SIBLING_PATH_LENGTH} has {max_len}",
                        text.len()
                    ),
                });
            }
            STANDARD.decode(text).map_err(|error| bad(format!("not base64: {error}")))?
        }
        JsonKind::Object => {
            let buffer = value.object().map_err(|error| bad(error.message))?;
            if buffer.only(&["type", "data"]).is_err()
                || buffer.parse::<String>("type").ok().as_deref() != Some("Buffer")
            {
                return Err(bad("an object path must be {\"type\":\"Buffer\",\"data\":[...]}".to_owned()));
            }
            let data = buffer
                .get("data")
                .ok_or_else(|| bad("no data array".to_owned()))?
                .array(4 + 32 * MAX_SIBLING_PATH_LENGTH)
                .map_err(|error| WitnessJsonError::BadSiblingPath {
                    reason: format!("data: {}", error.message),
                })?;
            data.into_iter()
                .map(|byte| byte.parse::<u8>().ok())
                .collect::<Option<Vec<u8>>>()
                .ok_or_else(|| bad("data must be bytes 0..=255".to_owned()))?
        }
        _ => return Err(bad("expected base64 or a Buffer object".to_owned())),
    };
    sibling_path_from_bytes(&bytes)
}

/// Parses node-API witness JSON (with or without `categoriesHash`).
///
/// # Errors
/// [`WitnessJsonError`] saying which key is wrong and why.
///
/// # Example
/// ```
/// use txfx_membership::json::{witness_from_json, witness_to_json};
/// let text = r#"{"blockNumber":7,"root":"0x01","leafIndex":"0","siblingPath":"AAAAAA=="}"#;
/// let witness = witness_from_json(text)?;
/// assert_eq!(witness.sibling_path.len(), 0);
/// assert_eq!(witness_from_json(&witness_to_json(&witness).to_string())?, witness);
/// # Ok::<(), txfx_membership::json::WitnessJsonError>(())
/// ```
pub fn witness_from_json(text: &str) -> Result<TxEffectMembershipWitness, WitnessJsonError> {
    witness_from_input(JsonInput::Text(text))
}

/// Parses an already-parsed JSON value; see [`witness_from_json`].
///
/// # Errors
/// [`WitnessJsonError`].
pub fn witness_from_value(value: &Value) -> Result<TxEffectMembershipWitness, WitnessJsonError> {
    witness_from_input(JsonInput::Value(value))
}

/// The keys of a witness. Unknown keys are refused: a witness is what txfx verifies, and a key it
/// would skip could look checked.
pub const WITNESS_KEYS: [&str; 5] = ["blockNumber", "root", "categoriesHash", "leafIndex", "siblingPath"];

/// Parses a witness given as text or as a parsed value; see [`witness_from_json`].
///
/// # Errors
/// [`WitnessJsonError`].
pub fn witness_from_input(input: JsonInput<'_>) -> Result<TxEffectMembershipWitness, WitnessJsonError> {
    let object = input.object()?;
    if let Some(key) = object.keys().find(|key| !WITNESS_KEYS.contains(key)) {
        return Err(WitnessJsonError::UnknownKey { key: key.to_owned() });
    }
    let block_number = unsigned(&object, "blockNumber")?;
    Ok(TxEffectMembershipWitness {
        block_number: BlockNumber::try_from(block_number)
            .map_err(|error| WitnessJsonError::BadValue { key: "blockNumber", reason: error.to_string() })?,
        root: field(&object, "root")?.ok_or(WitnessJsonError::MissingKey { key: "root" })?,
        categories_hash: field(&object, "categoriesHash")?,
        leaf_index: unsigned(&object, "leafIndex")?,
        sibling_path: sibling_path(object.get("siblingPath"))?,
    })
}
