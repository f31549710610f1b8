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

use super::{BodyOut, InnerBodyJson, JsonError, TxEffectOut, body_from_effects, to_value};
use crate::checkpoint::{BlockEndState, Checkpoint, CheckpointBlock};

/// A field element under a key that may be absent.
#[derive(Deserialize)]
struct Hex(#[serde(with = "serde_hex")] Fr);

/// A u64 given as a JSON number or a decimal string (TypeScript prints bigints as strings).
struct Lenient(u64);

impl<'de> Deserialize<'de> for Lenient {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Either<'a> {
            Number(u64),
            Text(std::borrow::Cow<'a, str>),
        }
        match Either::deserialize(deserializer)? {
            Either::Number(value) => Ok(Self(value)),
            Either::Text(text) => {
                let digits_only = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
                match text.parse::<u64>() {
                    Ok(value) if digits_only => Ok(Self(value)),
                    _ => Err(serde::de::Error::custom(format!(
                        "{text:?} is not a decimal integer of at most 64 bits"
                    ))),
                }
            }
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CheckpointJson {
    num_blob_fields: Option<u64>,
    blocks: Vec<BlockJson>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct BlockJson {
    block_number: u32,
    timestamp: Lenient,
    num_txs: Option<u64>,
    index_within_checkpoint: Option<u64>,
    state: StateJson,
    last_archive_root: Hex,
    note_hash_root: Hex,
    nullifier_root: Hex,
    public_data_root: Hex,
    l1_to_l2_message_root: Option<Hex>,
    tx_effects_tree_root: Option<Hex>,
    body: InnerBodyJson,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct StateJson {
    #[serde(rename = "l1ToL2MessageNextAvailableLeafIndex")]
    l1_to_l2: Lenient,
    #[serde(rename = "noteHashNextAvailableLeafIndex")]
    note_hash: Lenient,
    #[serde(rename = "nullifierNextAvailableLeafIndex")]
    nullifier: Lenient,
    #[serde(rename = "publicDataNextAvailableLeafIndex")]
    public_data: Lenient,
    total_mana_used: Lenient,
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
pub fn checkpoint_from_json(text: &str) -> Result<ParsedCheckpoint, JsonError> {
    let json: CheckpointJson = serde_json::from_str(text)?;
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
            timestamp: block.timestamp.0,
            state: BlockEndState::from_values([
                s.l1_to_l2.0,
                s.note_hash.0,
                s.nullifier.0,
                s.public_data.0,
                s.total_mana_used.0,
            ]),
            last_archive_root: block.last_archive_root.0,
            note_hash_root: block.note_hash_root.0,
            nullifier_root: block.nullifier_root.0,
            public_data_root: block.public_data_root.0,
            l1_to_l2_message_root: block.l1_to_l2_message_root.map(|root| root.0),
            body,
        });
        claimed_roots.push(block.tx_effects_tree_root.map(|root| root.0));
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
        put("blockNumber", json!(block.block_number));
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
