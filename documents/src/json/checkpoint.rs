//! JSON for decoded checkpoints (`txfx checkpoint decode` prints it, `checkpoint encode` reads it).
//!
//! ```json
//! {"numBlobFields":N,"blocks":[{"blockNumber":n,"timestamp":"decimal","numTxs":k,
//!   "indexWithinCheckpoint":i,
//!   "state":{"l1ToL2MessageNextAvailableLeafIndex":n,"noteHashNextAvailableLeafIndex":n,
//!            "nullifierNextAvailableLeafIndex":n,"publicDataNextAvailableLeafIndex":n,
//!            "totalManaUsed":"decimal"},
//!   "lastArchiveRoot":"0x..","noteHashRoot":"0x..","nullifierRoot":"0x..","publicDataRoot":"0x..",
//!   "l1ToL2MessageRoot":"0x.. (first block only)","txEffectsTreeRoot":"0x.. (when computed)",
//!   "body":{"txEffects":[...]}}]}
//! ```
//!
//! Names and number formats follow `@aztec/blob-lib`'s `BlockEndBlobData` and TypeScript's JSON
//! (bigints as decimal strings). Reading takes numbers or decimal strings for `timestamp` and
//! `totalManaUsed`, ignores unknown keys, and checks every derived value it is given
//! (`numBlobFields`, `numTxs`, `indexWithinCheckpoint`) against what it derives; it never
//! silently replaces one. `txEffectsTreeRoot` needs a hasher to check, so it is returned to the
//! caller ([`ParsedCheckpoint::claimed_roots`]).

use serde::Deserialize;
use serde_json::{Value, json};
use txfx_poseidon::Fr;
use txfx_poseidon::field::{fr_to_hex, serde_hex};

use txfx_tx_effects::BlockNumber;
use txfx_tx_effects::checkpoint::{BlockEndState, Checkpoint, CheckpointBlock, MAX_CHECKPOINT_BLOB_FIELDS};

use super::JsonError;
use super::effect::{BodyJson, BodyOut, TxEffectOut, body_from_effects, to_value};
use super::wire::{JsonInput, block_number, lenient_u64};

/// txfx's own format, so every level is strict: a key txfx would not read is refused, never
/// skipped (it could look checked).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CheckpointJson {
    num_blob_fields: Option<u64>,
    #[serde(deserialize_with = "blocks")]
    blocks: Vec<BlockJson>,
}

/// At most as many blocks as six blobs could hold (each block takes at least six fields).
fn blocks<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<BlockJson>, D::Error> {
    super::wire::deserialize_at_most(deserializer, MAX_CHECKPOINT_BLOB_FIELDS / 6)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct BlockJson {
    #[serde(deserialize_with = "block_number::deserialize")]
    block_number: BlockNumber,
    #[serde(deserialize_with = "lenient_u64::deserialize")]
    timestamp: u64,
    num_txs: Option<u64>,
    index_within_checkpoint: Option<u64>,
    state: StateJson,
    #[serde(with = "serde_hex")]
    last_archive_root: Fr,
    #[serde(with = "serde_hex")]
    note_hash_root: Fr,
    #[serde(with = "serde_hex")]
    nullifier_root: Fr,
    #[serde(with = "serde_hex")]
    public_data_root: Fr,
    #[serde(default, with = "serde_hex::option")]
    l1_to_l2_message_root: Option<Fr>,
    #[serde(default, with = "serde_hex::option")]
    tx_effects_tree_root: Option<Fr>,
    /// TypeScript's `Body` shape: its own rules (unknown keys ignored) apply inside it.
    body: BodyJson,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct StateJson {
    #[serde(rename = "l1ToL2MessageNextAvailableLeafIndex", deserialize_with = "lenient_u64::deserialize")]
    l1_to_l2: u64,
    #[serde(rename = "noteHashNextAvailableLeafIndex", deserialize_with = "lenient_u64::deserialize")]
    note_hash: u64,
    #[serde(rename = "nullifierNextAvailableLeafIndex", deserialize_with = "lenient_u64::deserialize")]
    nullifier: u64,
    #[serde(rename = "publicDataNextAvailableLeafIndex", deserialize_with = "lenient_u64::deserialize")]
    public_data: u64,
    #[serde(deserialize_with = "lenient_u64::deserialize")]
    total_mana_used: u64,
}

/// A checkpoint read from JSON, with the tree roots the input claims for its blocks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedCheckpoint {
    /// The checkpoint.
    pub checkpoint: Checkpoint,
    /// Per block, the `txEffectsTreeRoot` the input gave, if any: check it with a hasher
    /// (`commit_block`) before trusting or re-printing it.
    pub claimed_roots: Vec<Option<Fr>>,
}

/// Parses the JSON [`checkpoint_to_json`] prints.
///
/// # Errors
/// [`JsonError::Malformed`] for bad JSON, [`JsonError::InBlock`] for a bad body or a given
/// `numTxs` / `indexWithinCheckpoint` that disagrees, [`JsonError::Checkpoint`] for a checkpoint
/// that cannot be encoded, [`JsonError::Disagrees`] for a `numBlobFields` that disagrees.
pub fn checkpoint_from_json<'a>(input: impl Into<JsonInput<'a>>) -> Result<ParsedCheckpoint, JsonError> {
    read_checkpoint(input.into()).map_err(|error| error.expecting("a decoded checkpoint"))
}

fn read_checkpoint(input: JsonInput<'_>) -> Result<ParsedCheckpoint, JsonError> {
    let json: CheckpointJson = input.parse()?;
    let mut blocks = Vec::with_capacity(json.blocks.len());
    let mut claimed_roots = Vec::with_capacity(json.blocks.len());
    for (index, block) in json.blocks.into_iter().enumerate() {
        let in_block = |source: JsonError| JsonError::InBlock { block: index, source: Box::new(source) };
        let body = body_from_effects(block.body.tx_effects).map_err(in_block)?;
        let given = [
            ("numTxs", block.num_txs, body.len()),
            ("indexWithinCheckpoint", block.index_within_checkpoint, index),
        ];
        for (what, given, actual) in given {
            if let Some(given) = given.filter(|given| *given != actual as u64) {
                return Err(in_block(JsonError::Disagrees { what, given, actual: actual as u64 }));
            }
        }
        let s = block.state;
        blocks.push(CheckpointBlock {
            block_number: block.block_number,
            timestamp: block.timestamp,
            state: BlockEndState::from_values([
                s.l1_to_l2,
                s.note_hash,
                s.nullifier,
                s.public_data,
                s.total_mana_used,
            ]),
            last_archive_root: block.last_archive_root,
            note_hash_root: block.note_hash_root,
            nullifier_root: block.nullifier_root,
            public_data_root: block.public_data_root,
            l1_to_l2_message_root: block.l1_to_l2_message_root,
            body,
        });
        claimed_roots.push(block.tx_effects_tree_root);
    }
    let checkpoint = Checkpoint::new(blocks).map_err(JsonError::Checkpoint)?;
    if let Some(given) = json.num_blob_fields.filter(|given| *given != checkpoint.num_blob_fields() as u64) {
        return Err(JsonError::Disagrees {
            what: "numBlobFields",
            given,
            actual: checkpoint.num_blob_fields() as u64,
        });
    }
    Ok(ParsedCheckpoint { checkpoint, claimed_roots })
}

/// A checkpoint as JSON (module docs). `tx_effects_tree_roots`, when given, holds one root per
/// block, in order (from `commit_block` of each body) and is printed as `txEffectsTreeRoot`.
///
/// # Panics
/// If `tx_effects_tree_roots` is given with a length other than the number of blocks: a caller
/// bug, never a reason to print a checkpoint with roots missing or shifted.
#[allow(clippy::panic, reason = "a caller's broken invariant must fail loudly, never print shifted roots")]
pub fn checkpoint_to_json(checkpoint: &Checkpoint, tx_effects_tree_roots: Option<&[Fr]>) -> Value {
    if let Some(roots) = tx_effects_tree_roots.filter(|roots| roots.len() != checkpoint.blocks().len()) {
        panic!("invariant: {} roots given for {} blocks", roots.len(), checkpoint.blocks().len());
    }
    let blocks = checkpoint.blocks().iter().enumerate().map(|(index, block)| {
        let state: serde_json::Map<String, Value> = BlockEndState::NAMES
            .iter()
            .zip(block.state.values())
            .map(|(name, value)| {
                // totalManaUsed is a bigint in TypeScript: a decimal string.
                let value = if *name == "totalManaUsed" { json!(value.to_string()) } else { json!(value) };
                ((*name).to_owned(), value)
            })
            .collect();
        let mut out = serde_json::Map::new();
        let mut put = |key: &str, value: Value| out.insert(key.to_owned(), value);
        put("blockNumber", json!(block.block_number.get()));
        put("timestamp", json!(block.timestamp.to_string()));
        put("numTxs", json!(block.body.len()));
        put("indexWithinCheckpoint", json!(index));
        put("state", Value::Object(state));
        put("lastArchiveRoot", json!(fr_to_hex(&block.last_archive_root)));
        put("noteHashRoot", json!(fr_to_hex(&block.note_hash_root)));
        put("nullifierRoot", json!(fr_to_hex(&block.nullifier_root)));
        put("publicDataRoot", json!(fr_to_hex(&block.public_data_root)));
        if let Some(root) = &block.l1_to_l2_message_root {
            put("l1ToL2MessageRoot", json!(fr_to_hex(root)));
        }
        if let Some(root) = tx_effects_tree_roots.and_then(|roots| roots.get(index)) {
            put("txEffectsTreeRoot", json!(fr_to_hex(root)));
        }
        put(
            "body",
            to_value(BodyOut { tx_effects: block.body.tx_effects.iter().map(TxEffectOut::from).collect() }),
        );
        Value::Object(out)
    });
    json!({ "numBlobFields": checkpoint.num_blob_fields(), "blocks": blocks.collect::<Vec<_>>() })
}
