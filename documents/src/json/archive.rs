//! Archive witnesses as the node prints them (docs/spec.md §12.5): `getBlockHashMembershipWitness`
//! answers with a base64 string of the serialized `MembershipWitness` (the leaf index as 32
//! big-endian bytes, then 30 siblings of 32 bytes, leaf level first); txfx also reads its own
//! `{"leafIndex", "siblingPath": ["0x..", ...]}`. The JSON-RPC response around the node's answer
//! is [`crate::read`]'s to unwrap.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use txfx_membership::ArchiveError;
use txfx_membership::archive::{ARCHIVE_HEIGHT, ArchiveWitness};

use super::error::JsonError;
use super::fault::JsonType;
use super::fields::hex_field;
use super::ordered::Json;
use super::wire::{Integer, JsonInput, Raw};

/// The most base64 characters a serialized witness takes.
const MAX_BASE64: usize = (32 * (1 + ARCHIVE_HEIGHT)).div_ceil(3) * 4;

/// The witness as the node prints it: a JSON string of base64.
pub fn archive_witness_to_json(witness: &ArchiveWitness) -> Json {
    Json::String(STANDARD.encode(witness.to_bytes()))
}

fn from_base64(text: &str) -> Result<ArchiveWitness, JsonError> {
    // Refuse before decoding anything longer than a witness, counting the bytes it would give.
    if text.len() > MAX_BASE64 {
        let padding = text.bytes().rev().take(2).filter(|b| *b == b'=').count();
        return Err(
            ArchiveError::WrongByteLength { bytes: (text.len() / 4 * 3).saturating_sub(padding) }.into()
        );
    }
    let bytes = STANDARD.decode(text).map_err(|_| JsonError::NotBase64 { path: "archive witness" })?;
    Ok(ArchiveWitness::from_bytes(&bytes)?)
}

/// Whether `text` is bare base64 (as `jq -r .result` prints the node's answer): only base64's
/// alphabet, which no JSON value but a number or a literal starts with, and neither of those.
fn is_bare_base64(text: &str) -> bool {
    !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b))
        && !matches!(text, "true" | "false" | "null")
        && !text.bytes().all(|b| b.is_ascii_digit())
}

/// Reads an archive witness given as text: bare base64, or JSON ([`archive_witness_from_json`]).
pub(crate) fn archive_witness_from_text(text: &str) -> Option<Result<ArchiveWitness, JsonError>> {
    let trimmed = text.trim();
    is_bare_base64(trimmed).then(|| from_base64(trimmed))
}

/// Reads an archive witness: the node's base64 JSON string, or txfx's
/// `{"leafIndex", "siblingPath"}` (no other key).
///
/// # Errors
/// [`JsonError::Malformed`] for anything else, [`JsonError::NotBase64`], or
/// [`JsonError::ArchiveWitness`] for bytes that are not a witness of height 30.
pub fn archive_witness_from_json<'a>(input: impl Into<JsonInput<'a>>) -> Result<ArchiveWitness, JsonError> {
    input.into().read(read_archive_witness).map_err(|error| error.expecting("an archive witness"))
}

/// A leaf index of txfx's JSON form: a number or a decimal string.
const LEAF_INDEX: Integer = Integer::lenient(u64::MAX as u128);

pub(crate) fn read_archive_witness(raw: Raw<'_>) -> Result<ArchiveWitness, JsonError> {
    match raw.kind() {
        JsonType::String => from_base64(&raw.string()?),
        JsonType::Object => {
            let object = raw.object("an archive witness", &["leafIndex", "siblingPath"])?;
            object.strict()?;
            let leaf_index = object.read("leafIndex", |r| r.u64(LEAF_INDEX).map_err(JsonError::from))?;
            // One past the height, so that a longer path is named by its length.
            let path = object.read("siblingPath", |r| {
                r.array(ARCHIVE_HEIGHT + 1, "an archive path").map_err(JsonError::from)
            })?;
            if path.len() > ARCHIVE_HEIGHT {
                return Err(ArchiveError::WrongPathLength { length: path.len() }.into());
            }
            let sibling_path = path
                .into_iter()
                .enumerate()
                .map(|(index, sibling)| {
                    hex_field(sibling).map_err(|e| e.within(&format!("[{index}]")).within("siblingPath"))
                })
                .collect::<Result<_, JsonError>>()?;
            Ok(ArchiveWitness { leaf_index, sibling_path })
        }
        _ => Err(raw.wrong_type("an archive witness (base64, or {\"leafIndex\", \"siblingPath\"})").into()),
    }
}
