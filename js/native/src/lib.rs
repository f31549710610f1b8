//! The native engine of the `txfx` npm package: each export is one function of `txfx-js-edge`
//! (the edge the WASM build shares; its docs give the protocol `js/api.js` speaks), called with
//! the native backend, its error thrown as an `Error` carrying the edge's JSON message.
//!
//! Hashing runs on the calling thread and, for a whole tree's levels, on rayon's global pool
//! (started on first use, one thread per core). The `…Async` exports run the same work on txfx's
//! background pool (`txfx_poseidon::pool`: one thread per core, started by the first async call,
//! at a lower priority on Linux so that the event loop, waking, preempts it at once rather than
//! wait out a time slice) and settle a promise; a thread of libuv's pool (Node's own,
//! `UV_THREADPOOL_SIZE`) waits for each, asleep.

use napi::{Error, Result, Status};
use napi_derive::napi;
use txfx_backend_native::NativeBackend;
use txfx_backend_native::txfx_poseidon::Offload;
use txfx_backend_native::txfx_poseidon::pool::BackgroundPool;
use txfx_js_edge::{self as edge, Thrown};

fn thrown(error: Thrown) -> Error {
    Error::new(Status::GenericFailure, error.message().to_owned())
}

fn hasher() -> NativeBackend {
    NativeBackend::new()
}

/// The Poseidon2 permutation of a 4-element state.
#[napi(js_name = "poseidon2Permutation")]
pub fn poseidon2_permutation(state: Vec<String>) -> Result<Vec<String>> {
    edge::poseidon2_permutation(&state).map_err(thrown)
}

/// Aztec's `poseidon2Hash`: the sponge over `inputs`.
#[napi(js_name = "poseidon2Hash")]
pub fn poseidon2_hash(inputs: Vec<String>) -> Result<String> {
    edge::poseidon2_hash(&inputs).map_err(thrown)
}

/// Aztec's `poseidon2HashWithSeparator`: the separator first, then `inputs`.
#[napi(js_name = "poseidon2HashWithSeparator")]
pub fn poseidon2_hash_with_separator(inputs: Vec<String>, separator: u32) -> Result<String> {
    edge::poseidon2_hash_with_separator(&inputs, separator).map_err(thrown)
}

/// An effect's commitment, as JSON text.
#[napi(js_name = "txEffectCommitment")]
pub fn tx_effect_commitment(effect: String, protocol: Option<String>) -> Result<String> {
    edge::tx_effect_commitment(&hasher(), &effect, protocol.as_deref()).map_err(thrown)
}

/// A body's `txEffectsTreeRoot` (a body, an `L2Block`, or an array of effects).
#[napi(js_name = "txEffectsTreeRoot")]
pub fn tx_effects_tree_root(body: String, protocol: Option<String>) -> Result<String> {
    edge::tx_effects_tree_root(&hasher(), &body, protocol.as_deref()).map_err(thrown)
}

/// The stored form of a body (`txfx block leaves`), as JSON text.
#[napi(js_name = "txEffectLeaves")]
pub fn tx_effect_leaves(body: String, block: Option<u32>, protocol: Option<String>) -> Result<String> {
    edge::tx_effect_leaves(&hasher(), &body, block, protocol.as_deref()).map_err(thrown)
}

/// The membership witness of one tx (an index in decimal, or a `0x`-hex tx hash), as JSON text.
#[napi(js_name = "txEffectMembershipWitness")]
pub fn tx_effect_membership_witness(
    body: String,
    tx: String,
    block: Option<u32>,
    protocol: Option<String>,
) -> Result<String> {
    edge::tx_effect_membership_witness(&hasher(), &body, &tx, block, protocol.as_deref()).map_err(thrown)
}

/// The root over stored or bare leaves.
#[napi(js_name = "txEffectsTreeRootFromLeaves")]
pub fn tx_effects_tree_root_from_leaves(leaves: String) -> Result<String> {
    edge::tx_effects_tree_root_from_leaves(&hasher(), &leaves).map_err(thrown)
}

/// The membership witness of one tx, served from stored or bare leaves, as JSON text.
#[napi(js_name = "txEffectMembershipWitnessFromLeaves")]
pub fn tx_effect_membership_witness_from_leaves(
    leaves: String,
    tx: String,
    block: Option<u32>,
) -> Result<String> {
    edge::tx_effect_membership_witness_from_leaves(&hasher(), &leaves, &tx, block).map_err(thrown)
}

/// Verifies a tx-effects witness against a root the caller trusts; the verdict as JSON text. Its
/// arguments are named, one JSON object (`txfx_js_edge::verify_tx_effect_membership_witness_named`).
#[napi(js_name = "verifyTxEffectMembershipWitness")]
pub fn verify_tx_effect_membership_witness(call: String) -> Result<String> {
    edge::verify_tx_effect_membership_witness_named(&hasher(), &call).map_err(thrown)
}

/// Verifies the whole chain from an archive root the caller trusts (L1's) to one tx; the verdict
/// as JSON text. Its arguments are named, one JSON object (`txfx_js_edge::verify_tx_named`).
#[napi(js_name = "verifyTx")]
pub fn verify_tx(call: String) -> Result<String> {
    edge::verify_tx_named(&hasher(), &call).map_err(thrown)
}

/// Verifies that a block (its header document, or its hash) is in the archive under a root the
/// caller trusts; the verdict as JSON text. Its arguments are named, one JSON object
/// (`txfx_js_edge::verify_archive_named`).
#[napi(js_name = "verifyArchive")]
pub fn verify_archive(call: String) -> Result<String> {
    edge::verify_archive_named(&hasher(), &call).map_err(thrown)
}

/// The block hash of a header (or an `L2Block`, its body checked against its header).
#[napi(js_name = "blockHeaderHash")]
pub fn block_header_hash(header: String, layout: Option<String>) -> Result<String> {
    edge::block_header_hash(&hasher(), &header, layout.as_deref()).map_err(thrown)
}

/// A checkpoint's blob fields decoded into its blocks, as JSON text.
#[napi(js_name = "decodeCheckpoint")]
pub fn decode_checkpoint(fields: String, protocol: Option<String>) -> Result<String> {
    edge::decode_checkpoint(&hasher(), &fields, protocol.as_deref()).map_err(thrown)
}

/// The blob fields of an effect or a body.
#[napi(js_name = "encodeBlobFields")]
pub fn encode_blob_fields(effect_or_body: String, protocol: Option<String>) -> Result<Vec<String>> {
    edge::encode_blob_fields(&hasher(), &effect_or_body, protocol.as_deref()).map_err(thrown)
}

/// Starts a node walk (see `txfx_js_edge::node_walk_start`).
#[napi(js_name = "nodeWalkStart")]
pub fn node_walk_start(params: String) -> Result<String> {
    edge::node_walk_start(&params).map_err(thrown)
}

/// Gives a node walk its answer: the next request or the verdict, as JSON text.
#[napi(js_name = "nodeWalkStep")]
pub fn node_walk_step(walk: u32, status: u32, body: String) -> Result<String> {
    edge::node_walk_step(&hasher(), walk, status, &body).map_err(thrown)
}

/// Drops a node walk.
#[napi(js_name = "nodeWalkDrop")]
pub fn node_walk_drop(walk: u32) -> String {
    edge::node_walk_drop(walk)
}

/// Work off the event loop: `compute` (on a thread of libuv's pool) hands it to the background
/// pool, once, and the promise settles with its text or its error (the edge protocol's JSON
/// message).
pub struct OffLoop {
    work: Option<Box<dyn FnOnce() -> Result<String> + Send>>,
}

impl napi::Task for OffLoop {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> Result<String> {
        let work = self.work.take().ok_or_else(|| {
            thrown(Thrown::backend(
                "TaskRanTwice",
                "an async task was computed twice (a napi-rs invariant broke)",
            ))
        })?;
        // The work, and the batches it splits into, run on the background pool (the pool the
        // task runs in is the one its batches use); this libuv thread sleeps until it is done.
        let pool = BackgroundPool::global().map_err(|error| {
            thrown(Thrown::backend("WorkerGone", &format!("txfx's background pool: {error}")))
        })?;
        let (sender, receiver) = std::sync::mpsc::sync_channel(1);
        pool.spawn(Box::new(move || {
            let _ = sender.send(work());
        }));
        receiver.recv().map_err(|_| {
            thrown(Thrown::backend(
                "WorkerGone",
                "txfx's background pool dropped an async task without a result",
            ))
        })?
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
pub fn tx_effect_commitment_async(effect: String, protocol: Option<String>) -> Pending {
    off_loop(move || tx_effect_commitment(effect, protocol))
}

/// [`tx_effects_tree_root`] off the event loop.
#[napi(js_name = "txEffectsTreeRootAsync", ts_return_type = "Promise<string>")]
pub fn tx_effects_tree_root_async(body: String, protocol: Option<String>) -> Pending {
    off_loop(move || tx_effects_tree_root(body, protocol))
}

/// [`tx_effect_leaves`] off the event loop.
#[napi(js_name = "txEffectLeavesAsync", ts_return_type = "Promise<string>")]
pub fn tx_effect_leaves_async(body: String, block: Option<u32>, protocol: Option<String>) -> Pending {
    off_loop(move || tx_effect_leaves(body, block, protocol))
}

/// [`tx_effect_membership_witness`] off the event loop.
#[napi(js_name = "txEffectMembershipWitnessAsync", ts_return_type = "Promise<string>")]
pub fn tx_effect_membership_witness_async(
    body: String,
    tx: String,
    block: Option<u32>,
    protocol: Option<String>,
) -> Pending {
    off_loop(move || tx_effect_membership_witness(body, tx, block, protocol))
}
