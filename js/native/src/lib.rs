//! The native engine of the `txfx` npm package: each export converts its arguments at the edge
//! and calls `txfx_documents::ops`, the layer the CLI calls, so the two cannot drift.
//!
//! The edge protocol, shared with `js/index.js` (which is all a user sees):
//! - field elements arrive as `0x`-hex strings (the JavaScript side converts `bigint`s and
//!   32-byte arrays), and leave as `0x`-hex strings;
//! - documents arrive as JSON text (the JavaScript side serializes parsed objects) and objects
//!   leave as JSON text, parsed on the JavaScript side;
//! - a failure is thrown as an `Error` whose message is a JSON object
//!   `{"class", "kind", "message"}`: the class (`Malformed`, `OutOfRange`, `Refuted`, `Backend`,
//!   `txfx_poseidon::ErrorClass`) decides whether `js/index.js` rethrows a `TypeError`, a
//!   `RangeError` or an `Error`, or turns a refuted verification into its verdict object.
//!
//! Hashing runs on the calling thread and, for a whole tree's levels, on rayon's global pool
//! (started on first use, one thread per core). The `…Async` exports run the same work on
//! libuv's thread pool (Node's own, `UV_THREADPOOL_SIZE`) and settle a promise, keeping the event
//! loop free: the addon starts no thread of its own.

use napi::{Error, Result, Status};
use napi_derive::napi;
use serde_json::json;
use txfx_backend_native::NativeBackend;
use txfx_documents::json::{stored_block_to_json, witness_to_json};
use txfx_documents::ops::{
    self, ArchiveSubject, Expected, Subject, TxSelector, blob_encode, block_leaves, block_witnesses,
    checkpoint_decode, commitment_json, effect_commitment, header_hash, verify_archive, verify_tx_chain,
    verify_witness, witness_of,
};
use txfx_documents::{Doc, DocumentError, document};
use txfx_membership::ProtocolVersion;
use txfx_poseidon::field::{fr_to_hex, parse_fr_hex};
use txfx_poseidon::{Classify, DomainSeparator, ErrorClass, Fr, State};
use txfx_tx_effects::BlockNumber;

/// The error thrown for `error`: its message is the edge protocol's JSON (module docs).
fn thrown(class: ErrorClass, kind: &str, message: &str) -> Error {
    let class = match class {
        ErrorClass::Malformed => "Malformed",
        ErrorClass::OutOfRange => "OutOfRange",
        ErrorClass::Refuted => "Refuted",
        ErrorClass::Backend => "Backend",
    };
    Error::new(
        Status::GenericFailure,
        json!({ "class": class, "kind": kind, "message": message }).to_string(),
    )
}

fn document_error(error: &DocumentError) -> Error {
    let message = error.to_string();
    match error.link() {
        Some(link) => Error::new(
            Status::GenericFailure,
            json!({ "class": "Refuted", "kind": error.kind(), "message": message, "link": link }).to_string(),
        ),
        None => thrown(error.class(), &error.kind(), &message),
    }
}

/// A document the caller gave as text, within the documents' size limit.
fn doc<'a>(name: &'a str, text: &'a str) -> Result<Doc<'a>> {
    document(name, text).map_err(|e| document_error(&e))
}

fn field(what: &str, text: &str) -> Result<Fr> {
    parse_fr_hex(text).map_err(|e| thrown(e.class(), &e.kind(), &format!("{what}: {e}")))
}

fn fields(what: &str, texts: &[String]) -> Result<Vec<Fr>> {
    texts.iter().enumerate().map(|(i, text)| field(&format!("{what}[{i}]"), text)).collect()
}

fn block_number(given: Option<u32>) -> Option<BlockNumber> {
    given.map(BlockNumber::new)
}

fn hasher() -> NativeBackend {
    NativeBackend::new()
}

/// The Poseidon2 permutation of a 4-element state.
#[napi(js_name = "poseidon2Permutation")]
pub fn poseidon2_permutation(state: Vec<String>) -> Result<Vec<String>> {
    let values = fields("state", &state)?;
    let mut state: State = values.try_into().map_err(|values: Vec<Fr>| {
        thrown(ErrorClass::OutOfRange, "StateLength", &format!("state: 4 elements, not {}", values.len()))
    })?;
    txfx_poseidon::permute(&mut state);
    Ok(state.iter().map(fr_to_hex).collect())
}

/// Aztec's `poseidon2Hash`: the sponge over `inputs`.
#[napi(js_name = "poseidon2Hash")]
pub fn poseidon2_hash(inputs: Vec<String>) -> Result<String> {
    Ok(fr_to_hex(&txfx_poseidon::poseidon2_hash(&fields("inputs", &inputs)?)))
}

/// Aztec's `poseidon2HashWithSeparator`: the separator first, then `inputs`.
#[napi(js_name = "poseidon2HashWithSeparator")]
pub fn poseidon2_hash_with_separator(inputs: Vec<String>, separator: u32) -> Result<String> {
    let inputs = fields("inputs", &inputs)?;
    Ok(fr_to_hex(&txfx_poseidon::poseidon2_hash_with_separator(&inputs, DomainSeparator::new(separator))))
}

/// An effect's commitment: `txHash`, `txStartMarker`, `categoryHashes`, `categoriesHash`, `leaf`,
/// `numBlobFields` (what `txfx effect hash` prints), as JSON text.
#[napi(js_name = "txEffectCommitment")]
pub fn tx_effect_commitment(effect: String) -> Result<String> {
    let (document, commitment) =
        effect_commitment(&hasher(), doc("effect", &effect)?).map_err(|e| document_error(&e))?;
    Ok(commitment_json(&document, &commitment).to_string())
}

/// A body's `txEffectsTreeRoot` (a body, an `L2Block`, or an array of effects).
#[napi(js_name = "txEffectsTreeRoot")]
pub fn tx_effects_tree_root(body: String) -> Result<String> {
    let (_, commitment) =
        ops::body_commitment(&hasher(), doc("body", &body)?).map_err(|e| document_error(&e))?;
    Ok(fr_to_hex(&commitment.root()))
}

/// The stored form of a body (`txfx block leaves`), as JSON text.
#[napi(js_name = "txEffectLeaves")]
pub fn tx_effect_leaves(body: String, block: Option<u32>) -> Result<String> {
    let stored =
        block_leaves(&hasher(), doc("body", &body)?, block_number(block)).map_err(|e| document_error(&e))?;
    Ok(stored_block_to_json(&stored).to_string())
}

/// The membership witness of one tx (an index in decimal, or a `0x`-hex tx hash), as the node's
/// JSON prints it.
#[napi(js_name = "txEffectMembershipWitness")]
pub fn tx_effect_membership_witness(body: String, tx: String, block: Option<u32>) -> Result<String> {
    let selector: TxSelector = tx.parse().map_err(|e: DocumentError| document_error(&e))?;
    let hasher = hasher();
    let witnesses =
        block_witnesses(&hasher, doc("body", &body)?, block_number(block)).map_err(|e| document_error(&e))?;
    let witness = witness_of(&witnesses, selector).map_err(|e| document_error(&e))?;
    Ok(witness_to_json(&witness).to_string())
}

/// The subject of a verification, from the JavaScript side's `{kind, ...}`.
fn subject<'a>(kind: &str, value: &'a str, categories_hash: Option<&str>) -> Result<Subject<'a>> {
    Ok(match kind {
        "leaf" => Subject::Leaf(field("leaf", value)?),
        "txHash" => Subject::Tx {
            tx_hash: field("txHash", value)?,
            categories_hash: categories_hash.map(|text| field("categoriesHash", text)).transpose()?,
        },
        "effect" => Subject::Effect(doc("effect", value)?),
        "categoryProof" => Subject::CategoryProof(doc("categoryProof", value)?),
        other => {
            return Err(thrown(
                ErrorClass::Malformed,
                "Subject",
                &format!("subject: {other:?} is not leaf, txHash, effect or categoryProof"),
            ));
        }
    })
}

/// What the caller expects the verification to name.
#[napi(object)]
pub struct Expectations {
    /// The block number.
    pub block_number: Option<u32>,
    /// The block hash, `0x`-hex.
    pub block_hash: Option<String>,
    /// The tx hash, `0x`-hex.
    pub tx_hash: Option<String>,
}

fn expected(expectations: Option<Expectations>) -> Result<Expected> {
    let Some(given) = expectations else { return Ok(Expected::default()) };
    Ok(Expected {
        block_number: block_number(given.block_number),
        block_hash: given.block_hash.as_deref().map(|text| field("expected.blockHash", text)).transpose()?,
        tx_hash: given.tx_hash.as_deref().map(|text| field("expected.txHash", text)).transpose()?,
    })
}

/// Verifies a tx-effects witness against a root the caller trusts; the verdict as JSON text.
#[napi(js_name = "verifyTxEffectMembershipWitness")]
pub fn verify_tx_effect_membership_witness(
    witness: String,
    subject_kind: String,
    subject_value: String,
    categories_hash: Option<String>,
    trusted_root: String,
    expectations: Option<Expectations>,
) -> Result<String> {
    let subject = subject(&subject_kind, &subject_value, categories_hash.as_deref())?;
    let root = field("trustedRoot", &trusted_root)?;
    let verdict =
        verify_witness(&hasher(), doc("witness", &witness)?, subject, root, &expected(expectations)?)
            .map_err(|e| document_error(&e))?;
    Ok(verdict.to_json().to_string())
}

fn protocol(name: Option<&str>) -> Result<ProtocolVersion> {
    name.map_or(Ok(ProtocolVersion::Azip26), |name| {
        name.parse().map_err(|e: txfx_membership::header::UnknownProtocolVersion| {
            thrown(ErrorClass::Malformed, "UnknownProtocolVersion", &format!("protocol: {e}"))
        })
    })
}

/// Verifies the whole chain from an archive root the caller trusts (L1's) to one tx; the verdict
/// as JSON text.
#[napi(js_name = "verifyTx")]
#[allow(clippy::too_many_arguments, reason = "the chain's documents, its subject and the expectations")]
pub fn verify_tx(
    archive_root: String,
    archive_witness: String,
    header: String,
    witness: String,
    subject_kind: String,
    subject_value: String,
    categories_hash: Option<String>,
    expectations: Option<Expectations>,
    layout: Option<String>,
) -> Result<String> {
    let subject = subject(&subject_kind, &subject_value, categories_hash.as_deref())?;
    let verdict = verify_tx_chain(
        &hasher(),
        field("archiveRoot", &archive_root)?,
        doc("archiveWitness", &archive_witness)?,
        doc("header", &header)?,
        protocol(layout.as_deref())?,
        doc("witness", &witness)?,
        subject,
        &expected(expectations)?,
    )
    .map_err(|e| document_error(&e))?;
    Ok(verdict.to_json().to_string())
}

/// Verifies that a block (its header document, or its hash) is in the archive under a root the
/// caller trusts; the verdict as JSON text.
#[napi(js_name = "verifyArchive")]
pub fn verify_archive_membership(
    archive_root: String,
    archive_witness: String,
    header: Option<String>,
    block_hash: Option<String>,
    expectations: Option<Expectations>,
    layout: Option<String>,
) -> Result<String> {
    let layout = protocol(layout.as_deref())?;
    let subject = match (&header, &block_hash) {
        (Some(header), None) => ArchiveSubject::Header(doc("header", header)?, layout),
        (None, Some(hash)) => ArchiveSubject::BlockHash(field("blockHash", hash)?),
        _ => {
            return Err(thrown(
                ErrorClass::Malformed,
                "Subject",
                "give the block's header or its block hash, one of them",
            ));
        }
    };
    let verdict = verify_archive(
        &hasher(),
        field("archiveRoot", &archive_root)?,
        subject,
        doc("archiveWitness", &archive_witness)?,
        &expected(expectations)?,
    )
    .map_err(|e| document_error(&e))?;
    Ok(verdict.to_json().to_string())
}

/// The block hash of a header (or an `L2Block`, its body checked against its header).
#[napi(js_name = "blockHeaderHash")]
pub fn block_header_hash(header: String, layout: Option<String>) -> Result<String> {
    let hash = header_hash(&hasher(), doc("header", &header)?, protocol(layout.as_deref())?)
        .map_err(|e| document_error(&e))?;
    Ok(fr_to_hex(&hash))
}

/// A checkpoint's blob fields decoded into its blocks, each with its `txEffectsTreeRoot`, as
/// `txfx checkpoint decode` prints them (JSON text).
#[napi(js_name = "decodeCheckpoint")]
pub fn decode_checkpoint(fields: String) -> Result<String> {
    let decoded = checkpoint_decode(&hasher(), doc("fields", &fields)?).map_err(|e| document_error(&e))?;
    Ok(decoded.to_string())
}

/// The blob fields of an effect or a body.
#[napi(js_name = "encodeBlobFields")]
pub fn encode_blob_fields(effect_or_body: String) -> Result<Vec<String>> {
    let fields =
        blob_encode(&hasher(), doc("effectOrBody", &effect_or_body)?).map_err(|e| document_error(&e))?;
    Ok(fields.iter().map(fr_to_hex).collect())
}

/// Work for libuv's thread pool: `compute` runs off the event loop, once, and the promise settles
/// with its text or its error (the edge protocol's JSON message).
pub struct OffLoop {
    work: Option<Box<dyn FnOnce() -> Result<String> + Send>>,
}

impl napi::Task for OffLoop {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> Result<String> {
        let work = self.work.take().ok_or_else(|| {
            thrown(
                ErrorClass::Backend,
                "TaskRanTwice",
                "an async task was computed twice (a napi-rs invariant broke)",
            )
        })?;
        work()
    }

    fn resolve(&mut self, _env: napi::Env, output: String) -> Result<String> {
        Ok(output)
    }
}

type Pending = napi::bindgen_prelude::AsyncTask<OffLoop>;

fn off_loop(work: impl FnOnce() -> Result<String> + Send + 'static) -> Pending {
    napi::bindgen_prelude::AsyncTask::new(OffLoop { work: Some(Box::new(work)) })
}

/// [`tx_effect_commitment`] off the event loop.
#[napi(js_name = "txEffectCommitmentAsync", ts_return_type = "Promise<string>")]
pub fn tx_effect_commitment_async(effect: String) -> Pending {
    off_loop(move || tx_effect_commitment(effect))
}

/// [`tx_effects_tree_root`] off the event loop.
#[napi(js_name = "txEffectsTreeRootAsync", ts_return_type = "Promise<string>")]
pub fn tx_effects_tree_root_async(body: String) -> Pending {
    off_loop(move || tx_effects_tree_root(body))
}

/// [`tx_effect_leaves`] off the event loop.
#[napi(js_name = "txEffectLeavesAsync", ts_return_type = "Promise<string>")]
pub fn tx_effect_leaves_async(body: String, block: Option<u32>) -> Pending {
    off_loop(move || tx_effect_leaves(body, block))
}

/// [`tx_effect_membership_witness`] off the event loop.
#[napi(js_name = "txEffectMembershipWitnessAsync", ts_return_type = "Promise<string>")]
pub fn tx_effect_membership_witness_async(body: String, tx: String, block: Option<u32>) -> Pending {
    off_loop(move || tx_effect_membership_witness(body, tx, block))
}
