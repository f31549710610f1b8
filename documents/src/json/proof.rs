//! Category proofs as JSON (docs/spec.md §12.6). txfx's own format, so every level is strict: an
//! unknown key is refused.
//!
//! ```json
//! {"txHash":"0x..","txStartMarker":"0x..","transactionFee":"0x..","categoryHashes":["0x..", 7 of them],
//!  "category":"publicLogs","preimage":["0x..", ...],
//!  "element":{"role":"publicLogField","log":0,"field":2,"value":"0x.."}}
//! ```
//! (`element` only at element level; `category` is the TypeScript name of the category; the
//! element's place keys follow its role: `index` for note hashes, nullifiers and messages, `write`
//! for a write's slot or value, `log` and `field` for a log field, `log` for a public log's
//! address, `field` for a contract-class-log field, none for its address.)
//!
//! Reading checks bounds before work: the marker is read and checked against the protocol's
//! limits first, and the preimage is read no further than the length the marker gives.

use serde_json::{Map, Value, json};
use txfx_membership::{CategoryError, CategoryProof, ProvenElement};
use txfx_poseidon::Fr;
use txfx_poseidon::field::{fr_to_hex, parse_fr_json};
use txfx_tx_effects::Category;
use txfx_tx_effects::blob::{TxBlobError, TxStartMarker};
use txfx_tx_effects::category::{CategorySection, ElementPlace, ElementRole, PlaceShape};
use txfx_tx_effects::limits::NUM_TX_EFFECT_CATEGORIES;

use super::wire::{JsonInput, JsonObject, Malformed};
use super::{JsonError, fields};

/// The JSON keys of an element's place, by the shape of its role.
fn place_keys(shape: PlaceShape) -> &'static [&'static str] {
    match shape {
        PlaceShape::Index => &["index"],
        PlaceShape::Write => &["write"],
        PlaceShape::LogField => &["log", "field"],
        PlaceShape::Log => &["log"],
        PlaceShape::Field => &["field"],
        PlaceShape::Only => &[],
    }
}

/// An element as JSON: its role, its place's keys, its value.
pub(crate) fn element_to_json(element: &ProvenElement) -> Value {
    let mut out = Map::new();
    out.insert("role".to_owned(), json!(element.place.role.name()));
    for key in place_keys(element.place.role.shape()) {
        let index = if matches!(*key, "field") { element.place.field } else { element.place.item };
        out.insert((*key).to_owned(), json!(index));
    }
    out.insert("value".to_owned(), json!(fr_to_hex(&element.value)));
    Value::Object(out)
}

/// Reads an element: exactly its role's keys.
fn element_from_json(input: JsonInput<'_>) -> Result<ProvenElement, JsonError> {
    let object = input.object()?;
    let role: String = object.parse("role")?;
    let role: ElementRole = role
        .parse()
        .map_err(|e: txfx_tx_effects::category::UnknownRole| Malformed::at("role", e.to_string()))?;
    let keys = place_keys(role.shape());
    let mut known = vec!["role", "value"];
    known.extend_from_slice(keys);
    object.only(&known)?;
    // The item is named by `index`, `write` or `log`; a log field also by `field`.
    let item = match keys.iter().find(|key| **key != "field") {
        Some(key) => object.parse::<usize>(key)?,
        None => 0,
    };
    let field = if keys.contains(&"field") { object.parse::<usize>("field")? } else { 0 };
    Ok(ProvenElement { place: ElementPlace { role, item, field }, value: field_at(&object, "value")? })
}

/// The proof's keys, all required but `element`.
const PROOF_KEYS: [&str; 7] =
    ["txHash", "txStartMarker", "transactionFee", "categoryHashes", "category", "preimage", "element"];

/// A field element under `key` (`0x`-hex or decimal, as TypeScript's `Fr` schema reads it).
fn field_at(object: &JsonObject<'_>, key: &str) -> Result<Fr, JsonError> {
    let text: String = object.parse(key)?;
    parse_fr_json(&text).map_err(|source| JsonError::Field { path: key.to_owned(), source })
}

/// The proof as JSON (module docs).
pub fn category_proof_to_json(proof: &CategoryProof) -> Value {
    let mut out = Map::new();
    let mut put = |key: &str, value: Value| out.insert(key.to_owned(), value);
    put("txHash", json!(fr_to_hex(&proof.tx_hash)));
    put("txStartMarker", json!(fr_to_hex(&proof.tx_start_marker)));
    put("transactionFee", json!(fr_to_hex(&proof.transaction_fee)));
    put("categoryHashes", json!(proof.category_hashes.iter().map(fr_to_hex).collect::<Vec<_>>()));
    put("category", json!(proof.category.name()));
    put("preimage", json!(proof.preimage.iter().map(fr_to_hex).collect::<Vec<_>>()));
    if let Some(element) = &proof.element {
        put("element", element_to_json(element));
    }
    Value::Object(out)
}

/// Reads a proof (module docs).
///
/// # Errors
/// [`JsonError::Malformed`] for JSON that is not a proof (an unknown key, an unknown category,
/// not seven category hashes), [`JsonError::Field`] for a bad field element, or
/// [`JsonError::Proof`] for a marker no tx has (checked before the preimage is read) or a
/// preimage longer than the marker's counts give.
pub fn category_proof_from_json<'a>(input: impl Into<JsonInput<'a>>) -> Result<CategoryProof, JsonError> {
    read_category_proof(input.into()).map_err(|error| error.expecting("a category proof"))
}

fn read_category_proof(input: JsonInput<'_>) -> Result<CategoryProof, JsonError> {
    let object = input.object()?;
    object.only(&PROOF_KEYS)?;
    let category: String = object.parse("category")?;
    let category: Category = category
        .parse()
        .map_err(|e: txfx_tx_effects::model::UnknownCategory| Malformed::at("category", e.to_string()))?;
    let tx_start_marker = field_at(&object, "txStartMarker")?;
    // Bounds before work: the marker fixes the section's length, so the preimage is read no
    // further than it, and a marker no tx can have stops everything here.
    let marker = TxStartMarker::decode(&tx_start_marker)
        .map_err(|_| CategoryError::NotAMarker { value: tx_start_marker })?;
    marker
        .check_limits()
        .map_err(|limit| CategoryError::Section { category, source: TxBlobError::Limit(limit) })?;
    let hashes =
        object.get("categoryHashes").ok_or_else(|| Malformed::new("missing key \"categoryHashes\""))?;
    let hashes = fields(hashes, NUM_TX_EFFECT_CATEGORIES).map_err(|e| e.within("categoryHashes"))?;
    let category_hashes: [Fr; NUM_TX_EFFECT_CATEGORIES] = hashes.try_into().map_err(|hashes: Vec<Fr>| {
        Malformed::at("categoryHashes", format!("{} category hashes, a tx has 7", hashes.len()))
    })?;
    let expected = CategorySection::length(category, &marker);
    let preimage = object.get("preimage").ok_or_else(|| Malformed::new("missing key \"preimage\""))?;
    let preimage = fields(preimage, expected).map_err(|e| e.within("preimage"))?;
    let element = object
        .get("element")
        .map(|element| element_from_json(element).map_err(|e| e.within("element")))
        .transpose()?;
    Ok(CategoryProof {
        tx_hash: field_at(&object, "txHash")?,
        tx_start_marker,
        transaction_fee: field_at(&object, "transactionFee")?,
        category_hashes,
        category,
        preimage,
        element,
    })
}
