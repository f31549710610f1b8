//! The native engine of the `txfx` npm package: each export is one function of `txfx-js-edge`
//! (the edge the WASM build shares; its docs give the protocol `js/api.mjs` speaks), called with
//! the native backend, its failure thrown as an `Error` whose message is human text and whose
//! `class`, `kind` and (for a refutation) `link` are properties of it (`thrown`).
//!
//! A document arrives as a string or as the caller's bytes (a `Uint8Array` or a `Buffer` of UTF-8
//! JSON, [`Document`]): the synchronous exports read the bytes where they are, without a copy.
//!
//! Hashing runs on the calling thread and, for a whole tree's levels, on rayon's global pool
//! (started on first use, one thread per core). The `…Async` exports return a promise at once and
//! run the same work on txfx's background pool (`txfx_poseidon::pool`: one thread per core,
//! started by the first async call, at a lower priority on Linux so that the event loop, waking,
//! preempts it at once rather than wait out a time slice), which settles the promise
//! (`Env::create_deferred`) when the work is done. No thread of libuv's pool (Node's own, for
//! fs, DNS and zlib: `UV_THREADPOOL_SIZE`) waits for it. What the work reads is copied on the
//! calling thread before the export returns, so that the caller may reuse its buffer at once.

use napi::bindgen_prelude::{Either, JsObjectValue, Object, Uint8Array};
use napi::{Env, Error, JsError, JsValue, Result, Status};
use napi_derive::napi;
use txfx_backend_native::NativeBackend;
use txfx_backend_native::txfx_poseidon::Offload;
use txfx_backend_native::txfx_poseidon::pool::BackgroundPool;
use txfx_js_edge::{self as edge, Thrown};

/// The `Error` an edge failure is thrown as: its message the failure's human text, its class,
/// kind and link set on it as properties, from which `js/api.mjs` builds the documented subclass
/// of `TxfxError` (no text is parsed). Should Node refuse to build the object (an exception
/// already pending, say), the plain error with the message is thrown instead: a failure is never
/// lost for want of its properties.
fn thrown(env: &Env, error: &Thrown) -> Error {
    with_properties(env, error)
        .unwrap_or_else(|_| Error::new(Status::GenericFailure, error.message().to_owned()))
}

fn with_properties(env: &Env, error: &Thrown) -> Result<Error> {
    let value =
        JsError::from(Error::new(Status::GenericFailure, error.message().to_owned())).into_unknown(*env);
    let mut object = value.coerce_to_object()?;
    object.set_named_property("class", error.class_name())?;
    object.set_named_property("kind", error.kind())?;
    if let Some(link) = error.link() {
        object.set_named_property("link", link)?;
    }
    Ok(Error::from(value))
}

fn hasher() -> NativeBackend {
    NativeBackend::new()
}

/// Runs an edge call on the calling thread, its failure (a panic too: kind `Panic`) thrown.
fn run<T>(env: &Env, work: impl FnOnce() -> edge::Result<T>) -> Result<T> {
    edge::caught(work).map_err(|error| thrown(env, &error))
}

/// A document as the caller gives it: JSON text, or its bytes (UTF-8 JSON in a `Uint8Array` or a
/// `Buffer`, read where they are).
pub type Document = Either<String, Uint8Array>;

/// A document's text: the string, or the bytes read as UTF-8 (kind `NotUtf8` if they are not).
fn text<'a>(what: &str, document: &'a Document) -> edge::Result<&'a str> {
    match document {
        Either::A(text) => Ok(text),
        Either::B(bytes) => edge::utf8(what, bytes),
    }
}

/// A document copied for a background thread, on the calling thread: the caller may change its
/// buffer as soon as the export returns.
enum Owned {
    Text(String),
    Bytes(Vec<u8>),
}

impl Owned {
    fn copy(document: Document) -> Self {
        match document {
            Either::A(text) => Self::Text(text),
            Either::B(bytes) => Self::Bytes(bytes.to_vec()),
        }
    }

    fn text(&self, what: &str) -> edge::Result<&str> {
        match self {
            Self::Text(text) => Ok(text),
            Self::Bytes(bytes) => edge::utf8(what, bytes),
        }
    }
}

/// The Poseidon2 permutation of a 4-element state, joined by `,` with its count (the edge's
/// list form, `txfx_js_edge::split_fields`); the four outputs back to back, 66 characters each.
#[napi(js_name = "poseidon2Permutation")]
pub fn poseidon2_permutation(env: &Env, state: String, count: u32) -> Result<String> {
    edge::poseidon2_permutation_joined(&state, count).map_err(|error| thrown(env, &error))
}

/// Aztec's `poseidon2Hash`: the sponge over `inputs` (joined by `,`, with their count).
#[napi(js_name = "poseidon2Hash")]
pub fn poseidon2_hash(env: &Env, inputs: String, count: u32) -> Result<String> {
    edge::poseidon2_hash_joined(&inputs, count).map_err(|error| thrown(env, &error))
}

/// Aztec's `poseidon2HashWithSeparator`: the separator first, then `inputs` (joined by `,`, with
/// their count).
#[napi(js_name = "poseidon2HashWithSeparator")]
pub fn poseidon2_hash_with_separator(
    env: &Env,
    inputs: String,
    count: u32,
    separator: u32,
) -> Result<String> {
    edge::poseidon2_hash_with_separator_joined(&inputs, count, separator).map_err(|error| thrown(env, &error))
}

/// An effect's commitment, as JSON text.
#[napi(js_name = "txEffectCommitment")]
pub fn tx_effect_commitment(env: &Env, effect: Document, protocol: Option<String>) -> Result<String> {
    run(env, || edge::tx_effect_commitment(&hasher(), text("effect", &effect)?, protocol.as_deref()))
}

/// A body's `txEffectsTreeRoot` (a body, an `L2Block`, or an array of effects).
#[napi(js_name = "txEffectsTreeRoot")]
pub fn tx_effects_tree_root(env: &Env, body: Document, protocol: Option<String>) -> Result<String> {
    run(env, || edge::tx_effects_tree_root(&hasher(), text("body", &body)?, protocol.as_deref()))
}

/// The stored form of a body (`txfx block leaves`), as JSON text.
#[napi(js_name = "txEffectLeaves")]
pub fn tx_effect_leaves(
    env: &Env,
    body: Document,
    block: Option<u32>,
    protocol: Option<String>,
) -> Result<String> {
    run(env, || edge::tx_effect_leaves(&hasher(), text("body", &body)?, block, protocol.as_deref()))
}

/// The membership witness of one tx (an index in decimal, or a `0x`-hex tx hash), as JSON text.
#[napi(js_name = "txEffectMembershipWitness")]
pub fn tx_effect_membership_witness(
    env: &Env,
    body: Document,
    tx: String,
    block: Option<u32>,
    protocol: Option<String>,
) -> Result<String> {
    run(env, || {
        edge::tx_effect_membership_witness(&hasher(), text("body", &body)?, &tx, block, protocol.as_deref())
    })
}

/// The root over stored or bare leaves.
#[napi(js_name = "txEffectsTreeRootFromLeaves")]
pub fn tx_effects_tree_root_from_leaves(env: &Env, leaves: Document) -> Result<String> {
    run(env, || edge::tx_effects_tree_root_from_leaves(&hasher(), text("leaves", &leaves)?))
}

/// The membership witness of one tx, served from stored or bare leaves, as JSON text.
#[napi(js_name = "txEffectMembershipWitnessFromLeaves")]
pub fn tx_effect_membership_witness_from_leaves(
    env: &Env,
    leaves: Document,
    tx: String,
    block: Option<u32>,
) -> Result<String> {
    run(env, || {
        edge::tx_effect_membership_witness_from_leaves(&hasher(), text("leaves", &leaves)?, &tx, block)
    })
}

/// Verifies a tx-effects witness against a root the caller trusts; the verdict as JSON text. Its
/// arguments are named, one JSON object (`txfx_js_edge::verify_tx_effect_membership_witness_named`).
#[napi(js_name = "verifyTxEffectMembershipWitness")]
pub fn verify_tx_effect_membership_witness(env: &Env, call: String) -> Result<String> {
    edge::verify_tx_effect_membership_witness_named(&hasher(), &call).map_err(|error| thrown(env, &error))
}

/// Verifies the whole chain from an archive root the caller trusts (L1's) to one tx; the verdict
/// as JSON text. Its arguments are named, one JSON object (`txfx_js_edge::verify_tx_named`).
#[napi(js_name = "verifyTx")]
pub fn verify_tx(env: &Env, call: String) -> Result<String> {
    edge::verify_tx_named(&hasher(), &call).map_err(|error| thrown(env, &error))
}

/// Verifies that a block (its header document, or its hash) is in the archive under a root the
/// caller trusts; the verdict as JSON text. Its arguments are named, one JSON object
/// (`txfx_js_edge::verify_archive_named`).
#[napi(js_name = "verifyArchive")]
pub fn verify_archive(env: &Env, call: String) -> Result<String> {
    edge::verify_archive_named(&hasher(), &call).map_err(|error| thrown(env, &error))
}

/// The block hash of a header (or an `L2Block`, its body checked against its header).
#[napi(js_name = "blockHeaderHash")]
pub fn block_header_hash(env: &Env, header: Document, layout: Option<String>) -> Result<String> {
    run(env, || edge::block_header_hash(&hasher(), text("header", &header)?, layout.as_deref()))
}

/// A checkpoint's blob fields decoded into its blocks, as JSON text.
#[napi(js_name = "decodeCheckpoint")]
pub fn decode_checkpoint(env: &Env, fields: Document, protocol: Option<String>) -> Result<String> {
    run(env, || edge::decode_checkpoint(&hasher(), text("fields", &fields)?, protocol.as_deref()))
}

/// The blob fields of an effect or a body.
#[napi(js_name = "encodeBlobFields")]
pub fn encode_blob_fields(
    env: &Env,
    effect_or_body: Document,
    protocol: Option<String>,
) -> Result<Vec<String>> {
    run(env, || {
        edge::encode_blob_fields(&hasher(), text("effectOrBody", &effect_or_body)?, protocol.as_deref())
    })
}

/// A witness's `siblingPath` as its elements, lowest level first (see
/// `txfx_js_edge::decode_sibling_path`).
#[napi(js_name = "decodeSiblingPath")]
pub fn decode_sibling_path(env: &Env, text: String) -> Result<Vec<String>> {
    edge::decode_sibling_path(&text).map_err(|error| thrown(env, &error))
}

/// A field element's canonical `0x`-hex (see `txfx_js_edge::field_hex`).
#[napi(js_name = "fieldHex")]
pub fn field_hex(env: &Env, what: String, text: String) -> Result<String> {
    edge::field_hex(&what, &text).map_err(|error| thrown(env, &error))
}

/// An endpoint URL as it may be shown (`txfx_walk::redact_url`).
#[napi(js_name = "redactUrl")]
pub fn redact_url(url: String) -> String {
    edge::redact_url(&url)
}

/// A document's bytes as its text, refused as every document's bytes are when they are not
/// UTF-8 (kind `NotUtf8`, `what` and the offset named).
#[napi(js_name = "utf8Text")]
pub fn utf8_text(env: &Env, what: String, document: Document) -> Result<String> {
    run(env, || text(&what, &document).map(str::to_owned))
}

/// Starts a node walk (see `txfx_js_edge::node_walk_start`).
#[napi(js_name = "nodeWalkStart")]
pub fn node_walk_start(env: &Env, params: String) -> Result<String> {
    edge::node_walk_start(&params).map_err(|error| thrown(env, &error))
}

/// Gives a node walk its answer: the next request or the verdict, as JSON text.
#[napi(js_name = "nodeWalkStep")]
pub fn node_walk_step(env: &Env, walk: u32, status: u32, body: String) -> Result<String> {
    edge::node_walk_step(&hasher(), walk, status, &body).map_err(|error| thrown(env, &error))
}

/// Drops a node walk.
#[napi(js_name = "nodeWalkDrop")]
pub fn node_walk_drop(walk: u32) -> String {
    edge::node_walk_drop(walk)
}

/// The promise of an `…Async` export (of a string).
type Pending<'env> = Object<'env>;

/// How a promise is settled from the background pool: the result, converted on the event loop.
type Resolver = Box<dyn FnOnce(Env) -> Result<String> + Send>;

/// Runs `work` on txfx's background pool and returns its promise at once, settled from the pool
/// when the work is done: with its text, or rejected with its error ([`thrown`]); a panic in it rejects as kind `Panic`, a pool that cannot run it as `WorkerGone`.
/// Nothing waits for it, on libuv's pool or anywhere else.
fn off_loop<'env>(
    env: &'env Env,
    work: impl FnOnce() -> edge::Result<String> + Send + 'static,
) -> Result<Pending<'env>> {
    let (deferred, promise) = env.create_deferred::<String, Resolver>()?;
    // A failure is built into its Error on the event loop, where the resolver runs with an Env.
    let settle = edge::Settle::new(move |result: edge::Result<String>| {
        deferred.resolve(Box::new(move |env| result.map_err(|error| thrown(&env, &error))));
    });
    match BackgroundPool::global() {
        // The work, and the batches it splits into, run on the background pool (the pool the
        // task runs in is the one its batches use); a task the pool drops unrun settles as
        // WorkerGone when `settle` is dropped with it.
        Ok(pool) => pool.spawn(Box::new(move || settle.with(edge::caught(work)))),
        Err(error) => {
            settle.with(Err(Thrown::backend("WorkerGone", &format!("txfx's background pool: {error}"))))
        }
    }
    Ok(promise)
}

/// [`node_walk_step`] off the event loop: the answer (a block's body, up to a checkpoint's six
/// blobs) is read and hashed on txfx's background pool, so that a walk never holds the event
/// loop for the length of a body's commitment. The walk stays in the edge's table meanwhile
/// (taken out for the step and put back after it), so a step of another walk runs beside it.
#[napi(js_name = "nodeWalkStepAsync", ts_return_type = "Promise<string>")]
pub fn node_walk_step_async<'env>(
    env: &'env Env,
    walk: u32,
    status: u32,
    body: String,
) -> Result<Pending<'env>> {
    off_loop(env, move || edge::node_walk_step(&hasher(), walk, status, &body))
}

/// [`tx_effect_commitment`] off the event loop.
#[napi(js_name = "txEffectCommitmentAsync", ts_return_type = "Promise<string>")]
pub fn tx_effect_commitment_async<'env>(
    env: &'env Env,
    effect: Document,
    protocol: Option<String>,
) -> Result<Pending<'env>> {
    let effect = Owned::copy(effect);
    off_loop(env, move || edge::tx_effect_commitment(&hasher(), effect.text("effect")?, protocol.as_deref()))
}

/// [`tx_effects_tree_root`] off the event loop.
#[napi(js_name = "txEffectsTreeRootAsync", ts_return_type = "Promise<string>")]
pub fn tx_effects_tree_root_async<'env>(
    env: &'env Env,
    body: Document,
    protocol: Option<String>,
) -> Result<Pending<'env>> {
    let body = Owned::copy(body);
    off_loop(env, move || edge::tx_effects_tree_root(&hasher(), body.text("body")?, protocol.as_deref()))
}

/// [`tx_effect_leaves`] off the event loop.
#[napi(js_name = "txEffectLeavesAsync", ts_return_type = "Promise<string>")]
pub fn tx_effect_leaves_async<'env>(
    env: &'env Env,
    body: Document,
    block: Option<u32>,
    protocol: Option<String>,
) -> Result<Pending<'env>> {
    let body = Owned::copy(body);
    off_loop(env, move || edge::tx_effect_leaves(&hasher(), body.text("body")?, block, protocol.as_deref()))
}

/// [`tx_effect_membership_witness`] off the event loop.
#[napi(js_name = "txEffectMembershipWitnessAsync", ts_return_type = "Promise<string>")]
pub fn tx_effect_membership_witness_async<'env>(
    env: &'env Env,
    body: Document,
    tx: String,
    block: Option<u32>,
    protocol: Option<String>,
) -> Result<Pending<'env>> {
    let body = Owned::copy(body);
    off_loop(env, move || {
        edge::tx_effect_membership_witness(&hasher(), body.text("body")?, &tx, block, protocol.as_deref())
    })
}
