//! JSON for decoded checkpoints (`txfx checkpoint decode` prints it, `checkpoint encode` reads it).
//!
//! ```json
//! {"numBlobFields":N,"blocks":[{"blockNumber":n,"timestamp":"decimal","numTxs":k,
//!   "indexWithinCheckpoint":i,
//!   "state":{"l1ToL2MessageNextAvailableLeafIndex":n,"noteHashNextAvailableLeafIndex":n,
//!            "nullifierNextAvailableLeafIndex":n,"publicDataNextAvailableLeafIndex":n,
//!            "totalManaUsed":"decimal"},
//!   "lastArchiveRoot":"0x..","noteHashRoot":"0x..","nullifierRoot":"0x..","publicDataRoot":"0x..",
//!   "l1ToL2MessageRoot":"0x.. (every block in v6, the first only before)",
//!   "txEffectsTreeRoot":"0x.. (when computed)",
//!   "body":{"txEffects":[...]}}]}
//! ```
//!
//! Names and number formats follow `@aztec/blob-lib`'s `BlockEndBlobData` and TypeScript's JSON
//! (bigints as decimal strings). Reading takes numbers or decimal strings for `timestamp` and
//! `totalManaUsed`, ignores unknown keys, and checks every derived value it is given
//! (`numBlobFields`, `numTxs`, `indexWithinCheckpoint`) against what it derives; it never
//! silently replaces one. `txEffectsTreeRoot` needs a hasher to check, so it is returned to the
//! caller ([`ParsedCheckpoint::claimed_roots`]).

use txfx_poseidon::Fr;
use txfx_poseidon::field::fr_to_hex;

use txfx_tx_effects::ProtocolVersion;
use txfx_tx_effects::checkpoint::{BlockEndState, Checkpoint, CheckpointBlock, MAX_CHECKPOINT_BLOB_FIELDS};

use super::effect::{BodyOut, TxEffectOut, read_body_object, to_json};
use super::error::JsonError;
use super::fields::field;
use super::header::read_block_number;
use super::ordered::{Json, Object};
use super::wire::{Integer, JsonInput, Raw};

/// The most blocks a checkpoint holds: as many as six blobs could hold (each block takes at least
/// six fields).
const MAX_BLOCKS: usize = MAX_CHECKPOINT_BLOB_FIELDS / 6;

/// A count txfx printed: a JSON number.
const COUNT: Integer = Integer::number(u32::MAX as u128);

/// A state value or a timestamp: a number or a decimal string, as blob-lib's bigints print.
const WIDE: Integer = Integer::lenient(u64::MAX as u128);

const BLOCK_KEYS: [&str; 12] = [
    "blockNumber",
    "timestamp",
    "numTxs",
    "indexWithinCheckpoint",
    "state",
    "lastArchiveRoot",
    "noteHashRoot",
    "nullifierRoot",
    "publicDataRoot",
    "l1ToL2MessageRoot",
    "txEffectsTreeRoot",
    "body",
];

/// A block of a decoded checkpoint, with the root it claims, and its given counts.
struct BlockRead {
    block: CheckpointBlock,
    claimed_root: Option<Fr>,
    num_txs: Option<u64>,
    index_within_checkpoint: Option<u64>,
}

fn read_state(raw: Raw<'_>) -> Result<BlockEndState, JsonError> {
    let object = raw.object("a block's end state", &BlockEndState::NAMES)?;
    object.strict()?;
    let mut values = [0u64; 5];
    for (value, name) in values.iter_mut().zip(BlockEndState::NAMES) {
        *value = object.read(name, |r| r.u64(WIDE).map_err(JsonError::from))?;
    }
    Ok(BlockEndState::from_values(values))
}

fn read_block(raw: Raw<'_>, protocol: ProtocolVersion) -> Result<BlockRead, JsonError> {
    let object = raw.object("a checkpoint's block", &BLOCK_KEYS)?;
    object.strict()?;
    let count = |r: Raw<'_>| r.u64(COUNT).map_err(JsonError::from);
    Ok(BlockRead {
        block: CheckpointBlock {
            block_number: object.read("blockNumber", read_block_number)?,
            timestamp: object.read("timestamp", |r| r.u64(WIDE).map_err(JsonError::from))?,
            state: object.read("state", read_state)?,
            last_archive_root: object.read("lastArchiveRoot", field)?,
            note_hash_root: object.read("noteHashRoot", field)?,
            nullifier_root: object.read("nullifierRoot", field)?,
            public_data_root: object.read("publicDataRoot", field)?,
            l1_to_l2_message_root: object.read_optional("l1ToL2MessageRoot", field)?,
            // TypeScript's `Body` shape: its own rules (unknown keys ignored) apply inside it.
            body: object.read("body", |raw| read_body_object(raw, protocol))?,
        },
        claimed_root: object.read_optional("txEffectsTreeRoot", field)?,
        num_txs: object.read_optional("numTxs", count)?,
        index_within_checkpoint: object.read_optional("indexWithinCheckpoint", count)?,
    })
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

/// Parses the JSON [`checkpoint_to_json`] prints, as a checkpoint of `protocol`.
///
/// # Errors
/// [`JsonError::Malformed`] for bad JSON, [`JsonError::InBlock`] for a bad body or a given
/// `numTxs` / `indexWithinCheckpoint` that disagrees, [`JsonError::Checkpoint`] for a checkpoint
/// that cannot be encoded, [`JsonError::Disagrees`] for a `numBlobFields` that disagrees.
pub fn checkpoint_from_json<'a>(
    input: impl Into<JsonInput<'a>>,
    protocol: ProtocolVersion,
) -> Result<ParsedCheckpoint, JsonError> {
    input
        .into()
        .read(|raw| read_checkpoint(raw, protocol))
        .map_err(|error| error.expecting("a decoded checkpoint"))
}

fn read_checkpoint(raw: Raw<'_>, protocol: ProtocolVersion) -> Result<ParsedCheckpoint, JsonError> {
    // txfx's own format, so every level is strict: a key txfx would not read is refused, never
    // skipped (it could look checked).
    let object = raw.object("a decoded checkpoint", &["numBlobFields", "blocks"])?;
    object.strict()?;
    let num_blob_fields = object.read_optional("numBlobFields", |r| r.u64(COUNT).map_err(JsonError::from))?;
    let read = object.read("blocks", |r| {
        r.array(MAX_BLOCKS, "a checkpoint")?
            .into_iter()
            .enumerate()
            .map(|(index, block)| {
                read_block(block, protocol).map_err(|error| match error {
                    // A value that does not read is named by its path; a rule a block breaks by
                    // its block.
                    JsonError::Malformed(_) | JsonError::Field { .. } => error.within(&format!("[{index}]")),
                    other => JsonError::InBlock { block: index, source: Box::new(other) },
                })
            })
            .collect::<Result<Vec<_>, JsonError>>()
    })?;
    let mut blocks = Vec::with_capacity(read.len());
    let mut claimed_roots = Vec::with_capacity(read.len());
    for (index, block) in read.into_iter().enumerate() {
        let in_block = |source: JsonError| JsonError::InBlock { block: index, source: Box::new(source) };
        let given = [
            ("numTxs", block.num_txs, block.block.body.len()),
            ("indexWithinCheckpoint", block.index_within_checkpoint, index),
        ];
        for (what, given, actual) in given {
            if let Some(given) = given.filter(|given| *given != actual as u64) {
                return Err(in_block(JsonError::Disagrees { what, given, actual: actual as u64 }));
            }
        }
        blocks.push(block.block);
        claimed_roots.push(block.claimed_root);
    }
    let checkpoint = Checkpoint::new(protocol, blocks).map_err(JsonError::Checkpoint)?;
    if let Some(given) = num_blob_fields.filter(|given| *given != checkpoint.num_blob_fields() as u64) {
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
pub fn checkpoint_to_json(checkpoint: &Checkpoint, tx_effects_tree_roots: Option<&[Fr]>) -> Json {
    if let Some(roots) = tx_effects_tree_roots.filter(|roots| roots.len() != checkpoint.blocks().len()) {
        panic!("invariant: {} roots given for {} blocks", roots.len(), checkpoint.blocks().len());
    }
    let blocks = checkpoint.blocks().iter().enumerate().map(|(index, block)| {
        let state: Object = BlockEndState::NAMES
            .iter()
            .zip(block.state.values())
            .map(|(name, value)| {
                // totalManaUsed is a bigint in TypeScript: a decimal string.
                let value =
                    if *name == "totalManaUsed" { Json::from(value.to_string()) } else { Json::from(value) };
                (*name, value)
            })
            .collect();
        let mut out = Object::new()
            .with("blockNumber", block.block_number.get())
            .with("timestamp", block.timestamp.to_string())
            .with("numTxs", block.body.len())
            .with("indexWithinCheckpoint", index)
            .with("state", state)
            .with("lastArchiveRoot", fr_to_hex(&block.last_archive_root))
            .with("noteHashRoot", fr_to_hex(&block.note_hash_root))
            .with("nullifierRoot", fr_to_hex(&block.nullifier_root))
            .with("publicDataRoot", fr_to_hex(&block.public_data_root));
        if let Some(root) = &block.l1_to_l2_message_root {
            out.insert("l1ToL2MessageRoot", fr_to_hex(root));
        }
        if let Some(root) = tx_effects_tree_roots.and_then(|roots| roots.get(index)) {
            out.insert("txEffectsTreeRoot", fr_to_hex(root));
        }
        out.insert(
            "body",
            to_json(&BodyOut { tx_effects: block.body.tx_effects.iter().map(TxEffectOut::from).collect() }),
        );
        Json::from(out)
    });
    Json::from(
        Object::new()
            .with("numBlobFields", checkpoint.num_blob_fields())
            .with("blocks", blocks.collect::<Json>()),
    )
}
