//! The witness JSON of Aztec's node API, `aztec_getTxEffectMembershipWitness` (docs/spec.md §8.3).
//!
//! ```json
//! {"blockNumber":7,"root":"0x..","categoriesHash":"0x..","leafIndex":"3","siblingPath":"AAAAAi0M..."}
//! ```
//!
//! - `blockNumber`: a JSON number (a numeric string is accepted), 0..2^53−1.
//! - `root`, `categoriesHash`: `0x` + 64 hex digits; `categoriesHash` is absent in the AZIP-26 form.
//! - `leafIndex`: a decimal string (TypeScript prints the bigint so); a number is accepted.
//! - `siblingPath`: base64 of `uint32_be(n) ‖ n × 32-byte big-endian elements`, n at most 128;
//!   `{"type":"Buffer","data":[...]}` is accepted too. The length prefix must match the bytes
//!   exactly, and each element must be canonical.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::Serialize;
use serde_json::{Map, Value};
use txfx_poseidon::field::{FieldError, fr_from_be_slice, fr_to_be_bytes, fr_to_hex, parse_fr_hex};

use crate::witness::TxEffectMembershipWitness;

/// The most siblings a serialized path may declare (`MAX_SIBLING_PATH_LENGTH` in foundation).
pub const MAX_SIBLING_PATH_LENGTH: usize = 128;

/// The largest block number the schema accepts: 2^53 − 1.
pub const MAX_BLOCK_NUMBER: u64 = (1 << 53) - 1;

/// Witness JSON that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WitnessJsonError {
    /// Not JSON, or not an object.
    #[error("malformed witness JSON: {reason}")]
    Malformed {
        /// What the JSON parser said.
        reason: String,
    },
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
    block_number: u64,
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

fn field(
    object: &Map<String, Value>,
    key: &'static str,
) -> Result<Option<txfx_poseidon::Fr>, WitnessJsonError> {
    match object.get(key) {
        None => Ok(None),
        Some(Value::String(text)) => parse_fr_hex(text)
            .map(Some)
            .map_err(|source| WitnessJsonError::BadField { key: key.to_owned(), source }),
        Some(other) => {
            Err(WitnessJsonError::BadValue { key, reason: format!("expected a 0x-hex string, got {other}") })
        }
    }
}

fn unsigned(object: &Map<String, Value>, key: &'static str, max: u64) -> Result<u64, WitnessJsonError> {
    let bad = |reason: String| WitnessJsonError::BadValue { key, reason };
    let value = match object.get(key).ok_or(WitnessJsonError::MissingKey { key })? {
        Value::Number(number) => {
            number.as_u64().ok_or_else(|| bad(format!("{number} is not an unsigned integer")))?
        }
        Value::String(text)
            if !text.is_empty() && text.len() <= 20 && text.bytes().all(|b| b.is_ascii_digit()) =>
        {
            text.parse().map_err(|_| bad(format!("{text:?} does not fit 64 bits")))?
        }
        other => return Err(bad(format!("expected an unsigned integer, got {other}"))),
    };
    if value > max {
        return Err(bad(format!("{value} is above {max}")));
    }
    Ok(value)
}

fn sibling_path(value: Option<&Value>) -> Result<Vec<txfx_poseidon::Fr>, WitnessJsonError> {
    let bad = |reason: String| WitnessJsonError::BadValue { key: "siblingPath", reason };
    let bytes = match value.ok_or(WitnessJsonError::MissingKey { key: "siblingPath" })? {
        Value::String(text) => {
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
        Value::Object(buffer) => {
            if buffer.get("type").and_then(Value::as_str) != Some("Buffer") || buffer.len() != 2 {
                return Err(bad("an object path must be {\"type\":\"Buffer\",\"data\":[...]}".to_owned()));
            }
            let data = buffer
                .get("data")
                .and_then(Value::as_array)
                .ok_or_else(|| bad("no data array".to_owned()))?;
            if data.len() > 4 + 32 * MAX_SIBLING_PATH_LENGTH {
                return Err(WitnessJsonError::BadSiblingPath {
                    reason: format!("{} bytes is too long", data.len()),
                });
            }
            data.iter()
                .map(|byte| byte.as_u64().and_then(|b| u8::try_from(b).ok()))
                .collect::<Option<Vec<u8>>>()
                .ok_or_else(|| bad("data must be bytes 0..=255".to_owned()))?
        }
        other => return Err(bad(format!("expected base64 or a Buffer object, got {other}"))),
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
    let value: Value = serde_json::from_str(text)
        .map_err(|error| WitnessJsonError::Malformed { reason: error.to_string() })?;
    witness_from_value(&value)
}

/// Parses an already-parsed JSON value; see [`witness_from_json`].
///
/// # Errors
/// [`WitnessJsonError`].
pub fn witness_from_value(value: &Value) -> Result<TxEffectMembershipWitness, WitnessJsonError> {
    let object = value
        .as_object()
        .ok_or(WitnessJsonError::Malformed { reason: "a witness is a JSON object".to_owned() })?;
    const KEYS: [&str; 5] = ["blockNumber", "root", "categoriesHash", "leafIndex", "siblingPath"];
    if let Some(key) = object.keys().find(|key| !KEYS.contains(&key.as_str())) {
        return Err(WitnessJsonError::UnknownKey { key: key.clone() });
    }
    Ok(TxEffectMembershipWitness {
        block_number: unsigned(object, "blockNumber", MAX_BLOCK_NUMBER)?,
        root: field(object, "root")?.ok_or(WitnessJsonError::MissingKey { key: "root" })?,
        categories_hash: field(object, "categoriesHash")?,
        leaf_index: unsigned(object, "leafIndex", u64::MAX)?,
        sibling_path: sibling_path(object.get("siblingPath"))?,
    })
}
