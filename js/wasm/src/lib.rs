//! The WASM engine of the `txfx` npm package: each export is one function of `txfx-js-edge`
//! (the edge the Node addon shares; its docs give the protocol `js/api.js` speaks), called with
//! txfx's own single-threaded hasher, its error thrown as an `Error` carrying the edge's JSON
//! message. No threads, no SharedArrayBuffer, no imports beyond wasm-bindgen's own glue.

use txfx_js_edge::{self as edge, Chain, SubjectText, Thrown};
use txfx_poseidon::Sequential;
use wasm_bindgen::prelude::{JsError, wasm_bindgen};

type Result<T> = std::result::Result<T, JsError>;

#[allow(clippy::needless_pass_by_value, reason = "map_err hands the error over by value")]
fn thrown(error: Thrown) -> JsError {
    JsError::new(error.message())
}

/// The Poseidon2 permutation of a 4-element state.
#[wasm_bindgen(js_name = "poseidon2Permutation")]
pub fn poseidon2_permutation(state: Vec<String>) -> Result<Vec<String>> {
    edge::poseidon2_permutation(&state).map_err(thrown)
}

/// Aztec's `poseidon2Hash`: the sponge over `inputs`.
#[wasm_bindgen(js_name = "poseidon2Hash")]
pub fn poseidon2_hash(inputs: Vec<String>) -> Result<String> {
    edge::poseidon2_hash(&inputs).map_err(thrown)
}

/// Aztec's `poseidon2HashWithSeparator`: the separator first, then `inputs`.
#[wasm_bindgen(js_name = "poseidon2HashWithSeparator")]
pub fn poseidon2_hash_with_separator(inputs: Vec<String>, separator: u32) -> Result<String> {
    edge::poseidon2_hash_with_separator(&inputs, separator).map_err(thrown)
}

/// An effect's commitment, as JSON text.
#[wasm_bindgen(js_name = "txEffectCommitment")]
pub fn tx_effect_commitment(effect: &str) -> Result<String> {
    edge::tx_effect_commitment(&Sequential, effect).map_err(thrown)
}

/// A body's `txEffectsTreeRoot` (a body, an `L2Block`, or an array of effects).
#[wasm_bindgen(js_name = "txEffectsTreeRoot")]
pub fn tx_effects_tree_root(body: &str) -> Result<String> {
    edge::tx_effects_tree_root(&Sequential, body).map_err(thrown)
}

/// The stored form of a body (`txfx block leaves`), as JSON text.
#[wasm_bindgen(js_name = "txEffectLeaves")]
pub fn tx_effect_leaves(body: &str, block: Option<u32>) -> Result<String> {
    edge::tx_effect_leaves(&Sequential, body, block).map_err(thrown)
}

/// The membership witness of one tx (an index in decimal, or a `0x`-hex tx hash), as JSON text.
#[wasm_bindgen(js_name = "txEffectMembershipWitness")]
pub fn tx_effect_membership_witness(body: &str, tx: &str, block: Option<u32>) -> Result<String> {
    edge::tx_effect_membership_witness(&Sequential, body, tx, block).map_err(thrown)
}

/// The root over stored or bare leaves.
#[wasm_bindgen(js_name = "txEffectsTreeRootFromLeaves")]
pub fn tx_effects_tree_root_from_leaves(leaves: &str) -> Result<String> {
    edge::tx_effects_tree_root_from_leaves(&Sequential, leaves).map_err(thrown)
}

/// The membership witness of one tx, served from stored or bare leaves, as JSON text.
#[wasm_bindgen(js_name = "txEffectMembershipWitnessFromLeaves")]
pub fn tx_effect_membership_witness_from_leaves(
    leaves: &str,
    tx: &str,
    block: Option<u32>,
) -> Result<String> {
    edge::tx_effect_membership_witness_from_leaves(&Sequential, leaves, tx, block).map_err(thrown)
}

/// Verifies a tx-effects witness against a root the caller trusts; the verdict as JSON text.
#[wasm_bindgen(js_name = "verifyTxEffectMembershipWitness")]
pub fn verify_tx_effect_membership_witness(
    witness: &str,
    subject_kind: &str,
    subject_value: &str,
    categories_hash: Option<String>,
    trusted_root: &str,
    expectations: Option<String>,
) -> Result<String> {
    let subject =
        SubjectText { kind: subject_kind, value: subject_value, categories_hash: categories_hash.as_deref() };
    edge::verify_tx_effect_membership_witness(
        &Sequential,
        witness,
        subject,
        trusted_root,
        expectations.as_deref(),
    )
    .map_err(thrown)
}

/// Verifies the whole chain from an archive root the caller trusts (L1's) to one tx; the verdict
/// as JSON text.
#[wasm_bindgen(js_name = "verifyTx")]
#[allow(clippy::too_many_arguments, reason = "the chain's documents, its subject and the expectations")]
pub fn verify_tx(
    archive_root: &str,
    archive_witness: &str,
    header: &str,
    witness: &str,
    subject_kind: &str,
    subject_value: &str,
    categories_hash: Option<String>,
    expectations: Option<String>,
    layout: Option<String>,
) -> Result<String> {
    let chain = Chain { archive_root, archive_witness, header, protocol: layout.as_deref(), witness };
    let subject =
        SubjectText { kind: subject_kind, value: subject_value, categories_hash: categories_hash.as_deref() };
    edge::verify_tx(&Sequential, chain, subject, expectations.as_deref()).map_err(thrown)
}

/// Verifies that a block (its header document, or its hash) is in the archive under a root the
/// caller trusts; the verdict as JSON text.
#[wasm_bindgen(js_name = "verifyArchive")]
pub fn verify_archive(
    archive_root: &str,
    archive_witness: &str,
    header: Option<String>,
    block_hash: Option<String>,
    expectations: Option<String>,
    layout: Option<String>,
) -> Result<String> {
    edge::verify_archive_membership(
        &Sequential,
        archive_root,
        archive_witness,
        header.as_deref(),
        block_hash.as_deref(),
        expectations.as_deref(),
        layout.as_deref(),
    )
    .map_err(thrown)
}

/// The block hash of a header (or an `L2Block`, its body checked against its header).
#[wasm_bindgen(js_name = "blockHeaderHash")]
pub fn block_header_hash(header: &str, layout: Option<String>) -> Result<String> {
    edge::block_header_hash(&Sequential, header, layout.as_deref()).map_err(thrown)
}

/// A checkpoint's blob fields decoded into its blocks, as JSON text.
#[wasm_bindgen(js_name = "decodeCheckpoint")]
pub fn decode_checkpoint(fields: &str) -> Result<String> {
    edge::decode_checkpoint(&Sequential, fields).map_err(thrown)
}

/// The blob fields of an effect or a body.
#[wasm_bindgen(js_name = "encodeBlobFields")]
pub fn encode_blob_fields(effect_or_body: &str) -> Result<Vec<String>> {
    edge::encode_blob_fields(&Sequential, effect_or_body).map_err(thrown)
}
