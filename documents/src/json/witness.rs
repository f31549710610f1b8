//! The tx-effects witness JSON of Aztec's node API, `aztec_getTxEffectMembershipWitness`
//! (docs/spec.md §8.3).
//!
//! ```json
//! {"blockNumber":7,"root":"0x..","categoriesHash":"0x..","leafIndex":"3","siblingPath":"AAAAAi0M..."}
//! ```
//!
//! - `blockNumber`: a JSON number (a numeric string is accepted), below 2^32.
//! - `root`, `categoriesHash`: `0x` + 64 hex digits; `categoriesHash` is required in v6, and may
//!   be absent before it (the AZIP-26 form).
//! - `leafIndex`: a decimal string (TypeScript prints the bigint so); a number is accepted.
//! - `siblingPath`: base64 of `uint32_be(n) ‖ n × 32-byte big-endian elements`, n at most 128;
//!   `{"type":"Buffer","data":[...]}` is accepted too. The length prefix must match the bytes
//!   exactly, and each element must be canonical.
//!
//! A witness is what txfx verifies, so an unknown key is refused: a key a reader would skip could
//! look checked.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use txfx_membership::{ProtocolVersion, TxEffectMembershipWitness};
use txfx_poseidon::Fr;
use txfx_poseidon::field::{fr_from_be_slice, fr_to_be_bytes, fr_to_hex};

use super::error::{JsonError, MAX_SIBLING_PATH_BASE64, MAX_SIBLING_PATH_LENGTH, SiblingPathError};
use super::fault::JsonType;
use super::fields::hex_field;
use super::header::read_block_number;
use super::ordered::{Json, Object};
use super::wire::{Integer, JsonInput, Raw};

/// The keys of a witness.
pub(crate) const WITNESS_KEYS: [&str; 5] =
    ["blockNumber", "root", "categoriesHash", "leafIndex", "siblingPath"];

/// The serialized sibling path: `uint32_be(n)` then the elements.
fn sibling_path_to_bytes(path: &[Fr]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(4 + 32 * path.len());
    bytes.extend_from_slice(&(path.len() as u32).to_be_bytes());
    for element in path {
        bytes.extend_from_slice(&fr_to_be_bytes(element));
    }
    bytes
}

/// Reads a serialized sibling path.
fn sibling_path_from_bytes(bytes: &[u8]) -> Result<Vec<Fr>, JsonError> {
    let (prefix, elements) =
        bytes.split_first_chunk::<4>().ok_or(SiblingPathError::NoPrefix { bytes: bytes.len() })?;
    let declared = u32::from_be_bytes(*prefix) as usize;
    if declared > MAX_SIBLING_PATH_LENGTH {
        return Err(SiblingPathError::TooLong { declared }.into());
    }
    if elements.len() != 32 * declared {
        return Err(SiblingPathError::Length { declared, bytes: elements.len() }.into());
    }
    elements
        .chunks_exact(32)
        .enumerate()
        .map(|(i, chunk)| {
            fr_from_be_slice(chunk).map_err(|source| JsonError::Field { path: format!("[{i}]"), source })
        })
        .collect()
}

/// The bytes of a serialized sibling path given as base64 (standard alphabet, padded).
fn base64_sibling_path_bytes(text: &str) -> Result<Vec<u8>, JsonError> {
    // Refuse before decoding anything longer than the largest legal path.
    if text.len() > MAX_SIBLING_PATH_BASE64 {
        return Err(SiblingPathError::TooManyCharacters { characters: text.len() }.into());
    }
    STANDARD.decode(text.as_bytes()).map_err(|_| JsonError::NotBase64 { path: "siblingPath" })
}

/// A witness's `siblingPath` on its own (foundation's `SiblingPath` as Aztec's JSON prints it:
/// base64 of `uint32_be(n)` and n 32-byte elements) as its elements, lowest level first, read
/// exactly as [`witness_from_json`] reads it inside a witness, with the same errors.
///
/// # Errors
/// [`JsonError::NotBase64`], a [`SiblingPathError`], or [`JsonError::Field`] for an element
/// `>= p`.
///
/// # Example
/// ```
/// use txfx_documents::json::sibling_path_from_base64;
/// assert_eq!(sibling_path_from_base64("AAAAAA==")?, vec![]);
/// assert!(sibling_path_from_base64("AAAAAQ==").is_err());
/// # Ok::<(), txfx_documents::json::JsonError>(())
/// ```
pub fn sibling_path_from_base64(text: &str) -> Result<Vec<Fr>, JsonError> {
    sibling_path_from_bytes(&base64_sibling_path_bytes(text)?)
}

/// The witness as the node API's JSON.
pub fn witness_to_json(witness: &TxEffectMembershipWitness) -> Json {
    let mut out =
        Object::new().with("blockNumber", witness.block_number.get()).with("root", fr_to_hex(&witness.root));
    if let Some(hash) = &witness.categories_hash {
        out.insert("categoriesHash", fr_to_hex(hash));
    }
    out.insert("leafIndex", witness.leaf_index.to_string());
    out.insert("siblingPath", STANDARD.encode(sibling_path_to_bytes(&witness.sibling_path)));
    Json::from(out)
}

/// A leaf index: a decimal string (TypeScript prints the bigint so) or a JSON number.
const LEAF_INDEX: Integer = Integer::lenient(u64::MAX as u128);

/// The bytes of a serialized sibling path: base64, or a Node `Buffer` as JSON.
fn sibling_path_bytes(raw: Raw<'_>) -> Result<Vec<u8>, JsonError> {
    match raw.kind() {
        JsonType::String => base64_sibling_path_bytes(&raw.string()?),
        JsonType::Object => {
            let buffer =
                raw.object("a Buffer object ({\"type\": \"Buffer\", \"data\": [...]})", &["type", "data"])?;
            buffer.strict()?;
            let kind = buffer.read("type", |r| r.string().map(|t| t.into_owned()))?;
            if kind != "Buffer" {
                return Err(buffer.require("type")?.bad_value("\"Buffer\"", &kind).into());
            }
            buffer.read("data", |r| {
                r.items(4 + 32 * MAX_SIBLING_PATH_LENGTH, "a serialized sibling path", |byte| {
                    // At most 255, so the conversion holds.
                    byte.u64(Integer::number(255)).map(|b| b as u8).map_err(JsonError::from)
                })
            })
        }
        _ => Err(raw.wrong_type("base64 (a string) or a Buffer object").into()),
    }
}

/// Reads node-API witness JSON as `protocol` has it: `categoriesHash` required in v6
/// (`TxEffectMembershipWitnessSchema`), optional before.
///
/// # Errors
/// [`JsonError`] saying which key is wrong and why.
///
/// # Example
/// ```
/// use txfx_documents::json::{witness_from_json, witness_to_json};
/// use txfx_documents::txfx_membership::ProtocolVersion;
/// let text = r#"{"blockNumber":7,"root":"0x01","categoriesHash":"0x02","leafIndex":"0","siblingPath":"AAAAAA=="}"#;
/// let witness = witness_from_json(text, ProtocolVersion::V6)?;
/// assert_eq!(witness.sibling_path.len(), 0);
/// assert_eq!(witness_from_json(&witness_to_json(&witness), ProtocolVersion::V6)?, witness);
/// # Ok::<(), txfx_documents::json::JsonError>(())
/// ```
pub fn witness_from_json<'a>(
    input: impl Into<JsonInput<'a>>,
    protocol: ProtocolVersion,
) -> Result<TxEffectMembershipWitness, JsonError> {
    input
        .into()
        .read(|raw| read_witness(raw, protocol))
        .map_err(|error| error.expecting("a tx-effects witness"))
}

pub(crate) fn read_witness(
    raw: Raw<'_>,
    protocol: ProtocolVersion,
) -> Result<TxEffectMembershipWitness, JsonError> {
    let object = raw.object("a tx-effects witness", &WITNESS_KEYS)?;
    object.strict()?;
    let categories_hash = if protocol.witness_requires_categories_hash() {
        Some(object.read("categoriesHash", hex_field)?)
    } else {
        object.read_optional("categoriesHash", hex_field)?
    };
    Ok(TxEffectMembershipWitness {
        block_number: object.read("blockNumber", read_block_number)?,
        root: object.read("root", hex_field)?,
        categories_hash,
        leaf_index: object.read("leafIndex", |r| r.u64(LEAF_INDEX).map_err(JsonError::from))?,
        sibling_path: object.read("siblingPath", |r| sibling_path_from_bytes(&sibling_path_bytes(r)?))?,
    })
}
