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

use txfx_membership::{CategoryError, CategoryProof, ProvenElement};
use txfx_poseidon::Fr;
use txfx_poseidon::field::fr_to_hex;
use txfx_tx_effects::Category;
use txfx_tx_effects::blob::{TxBlobError, TxStartMarker};
use txfx_tx_effects::category::{CategorySection, ElementPlace, ElementRole, PlaceShape};
use txfx_tx_effects::limits::NUM_TX_EFFECT_CATEGORIES;

use super::error::JsonError;
use super::fault::Malformation;
use super::fields::{field, fields};
use super::ordered::{Json, Object};
use super::wire::{Integer, JsonInput, Raw};

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
pub(crate) fn element_to_json(element: &ProvenElement) -> Json {
    let mut out = Object::new().with("role", element.place.role.name());
    for key in place_keys(element.place.role.shape()) {
        let index = if matches!(*key, "field") { element.place.field } else { element.place.item };
        out.insert(*key, index);
    }
    out.insert("value", fr_to_hex(&element.value));
    Json::from(out)
}

/// A value named by a string (a role, a category), `expected` naming what it must be.
fn named<T: std::str::FromStr>(raw: Raw<'_>, expected: &'static str) -> Result<T, JsonError> {
    Ok(raw.named(expected, |name| name.parse().ok())?)
}

/// Every key an element may have.
const ELEMENT_KEYS: [&str; 6] = ["role", "value", "index", "write", "log", "field"];

/// An index into a list: a JSON number.
const INDEX: Integer = Integer::number(u32::MAX as u128);

/// Reads an element: exactly its role's keys.
fn element_from_json(raw: Raw<'_>) -> Result<ProvenElement, JsonError> {
    let object = raw.object("an element", &ELEMENT_KEYS)?;
    let role: ElementRole = object.read("role", |r| named(r, "an element role"))?;
    let keys = place_keys(role.shape());
    let mut known = vec!["role", "value"];
    known.extend_from_slice(keys);
    object.only(&known)?;
    let index =
        |key: &'static str| object.read(key, |r| r.u64(INDEX).map(|i| i as usize).map_err(JsonError::from));
    // The item is named by `index`, `write` or `log`; a log field also by `field`.
    let item = match keys.iter().find(|key| **key != "field") {
        Some(key) => index(key)?,
        None => 0,
    };
    let field_index = if keys.contains(&"field") { index("field")? } else { 0 };
    Ok(ProvenElement {
        place: ElementPlace { role, item, field: field_index },
        value: object.read("value", field)?,
    })
}

/// The proof's keys, all required but `element`.
const PROOF_KEYS: [&str; 7] =
    ["txHash", "txStartMarker", "transactionFee", "categoryHashes", "category", "preimage", "element"];

/// The proof as JSON (module docs).
pub fn category_proof_to_json(proof: &CategoryProof) -> Json {
    let mut out = Object::new()
        .with("txHash", fr_to_hex(&proof.tx_hash))
        .with("txStartMarker", fr_to_hex(&proof.tx_start_marker))
        .with("transactionFee", fr_to_hex(&proof.transaction_fee))
        .with("categoryHashes", proof.category_hashes.iter().map(fr_to_hex).collect::<Json>())
        .with("category", proof.category.name())
        .with("preimage", proof.preimage.iter().map(fr_to_hex).collect::<Json>());
    if let Some(element) = &proof.element {
        out.insert("element", element_to_json(element));
    }
    Json::from(out)
}

/// Reads a proof (module docs).
///
/// # Errors
/// [`JsonError::Malformed`] for JSON that is not a proof (an unknown key, an unknown category,
/// not seven category hashes), [`JsonError::Field`] for a bad field element, or
/// [`JsonError::Proof`] for a marker no tx has (checked before the preimage is read) or a
/// preimage longer than the marker's counts give.
pub fn category_proof_from_json<'a>(input: impl Into<JsonInput<'a>>) -> Result<CategoryProof, JsonError> {
    input.into().read(read_category_proof).map_err(|error| error.expecting("a category proof"))
}

pub(crate) fn read_category_proof(raw: Raw<'_>) -> Result<CategoryProof, JsonError> {
    let object = raw.object("a category proof", &PROOF_KEYS)?;
    object.strict()?;
    let category: Category = object.read("category", |r| named(r, "a category name"))?;
    let tx_start_marker = object.read("txStartMarker", field)?;
    // Bounds before work: the marker fixes the section's length, so the preimage is read no
    // further than it, and a marker no tx can have stops everything here.
    let marker = TxStartMarker::decode(&tx_start_marker)
        .map_err(|_| CategoryError::NotAMarker { value: tx_start_marker })?;
    marker
        .check_limits()
        .map_err(|limit| CategoryError::Section { category, source: TxBlobError::Limit(limit) })?;
    let category_hashes = object.read("categoryHashes", |r| {
        let hashes = fields(r, NUM_TX_EFFECT_CATEGORIES, "a tx's category hashes")?;
        <[Fr; NUM_TX_EFFECT_CATEGORIES]>::try_from(hashes).map_err(|hashes: Vec<Fr>| {
            JsonError::from(r.fault(Malformation::Count {
                expected: NUM_TX_EFFECT_CATEGORIES,
                given: hashes.len(),
                what: "a tx's category hashes",
            }))
        })
    })?;
    let expected = CategorySection::length(category, &marker);
    let preimage =
        object.read("preimage", |r| fields(r, expected, "this category's section, by its marker"))?;
    let element = object.read_optional("element", element_from_json)?;
    Ok(CategoryProof {
        tx_hash: object.read("txHash", field)?,
        tx_start_marker,
        transaction_fee: object.read("transactionFee", field)?,
        category_hashes,
        category,
        preimage,
        element,
    })
}
