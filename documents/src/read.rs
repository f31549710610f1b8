//! Every document txfx reads, and its one reading.
//!
//! A document may have one of a few shapes (an effect, or the node's `getTxEffect` result around
//! one; a body, an `L2Block` around one, or a bare array of effects; a header, or an `L2Block`).
//! Each shape has keys only it has, and the shape is told by them:
//!
//! | document | shapes, by their keys |
//! |---|---|
//! | effect | `TxEffect` (its ten keys); `getTxEffect` result (`l2BlockNumber`, `l2BlockHash`, `data`, `txIndexInBlock`) |
//! | body | `Body` (`txEffects`); `L2Block` (`archive`, `header`, `body`, `checkpointNumber`, `indexWithinCheckpoint`); a JSON array of effects |
//! | header | `BlockHeader` (`lastArchive`, `state`, `spongeBlobHash`, `txEffectsTreeRoot`, `globalVariables`, `totalFees`, `totalManaUsed`); `L2Block` |
//! | witness | the node's witness (`blockNumber`, `root`, `categoriesHash`, `leafIndex`, `siblingPath`) |
//! | leaves | txfx's stored block (`blockNumber`, `txEffectsTreeRoot`, `txs`); a JSON array of leaves |
//!
//! and every node result may also come inside its JSON-RPC response (`jsonrpc`, `id`, `result`,
//! `error`). A document with keys of two shapes (an effect's keys beside `data`, `txEffects`
//! beside `body`, a header's fields beside `header`) is refused, naming both: Aztec's TypeScript
//! reads such a document one way or the other depending on which schema the reader picked, so
//! no reading of it is *the* reading. Within a shape, a key the shape's TypeScript schema reads is
//! read, an unknown key is ignored where TypeScript ignores it (it cannot change the reading),
//! and txfx's own formats refuse unknown keys.
//!
//! Reading checks what a document says about itself where that needs no trust: an `L2Block`
//! whose header commits to a tx-effects root (AZIP-26) must have a body with that root.

use serde_json::Value;
use txfx_membership::{
    ArchiveWitness, BlockHeader, CategoryProof, ProtocolVersion, StoredBlock, TreeSnapshot,
    TxEffectMembershipWitness,
};
use txfx_poseidon::field::parse_fr_hex;
use txfx_poseidon::{Fr, HashBackend};
use txfx_tx_effects::limits::MAX_TXS_PER_BLOCK;
use txfx_tx_effects::{BlockNumber, Body, TxEffect, commit_block};

use crate::error::{Doc, DocumentError, Problem};
use crate::json::wire::{JsonInput, JsonKind, JsonObject, Malformed, lenient_u64};
use crate::json::{
    ParsedCheckpoint, SnapshotJson, archive_witness_from_json, archive_witness_from_text, body_from_json,
    category_proof_from_json, checkpoint_from_json, effect_from_json, header_from_json,
    stored_block_from_json, witness_from_json,
};

/// One shape a document may have, and the keys that tell it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// The shape's name in messages.
    pub name: &'static str,
    /// Keys only this shape has.
    pub keys: &'static [&'static str],
}

/// TypeScript's `TxEffect`.
pub const TX_EFFECT: Shape = Shape {
    name: "a tx effect",
    keys: &[
        "revertCode",
        "txHash",
        "transactionFee",
        "noteHashes",
        "nullifiers",
        "l2ToL1Msgs",
        "publicDataWrites",
        "privateLogs",
        "publicLogs",
        "contractClassLogs",
    ],
};

/// The node's `getTxEffect` result (TypeScript's `IndexedTxEffect`).
pub const INDEXED_TX_EFFECT: Shape =
    Shape { name: "a getTxEffect result", keys: &["l2BlockNumber", "l2BlockHash", "data", "txIndexInBlock"] };

/// TypeScript's `Body`.
pub const BODY: Shape = Shape { name: "a body", keys: &["txEffects"] };

/// TypeScript's `L2Block` (the node's `getBlock` result).
pub const L2_BLOCK: Shape = Shape {
    name: "an L2Block",
    keys: &["archive", "header", "body", "checkpointNumber", "indexWithinCheckpoint"],
};

/// TypeScript's `BlockHeader`, either layout.
pub const BLOCK_HEADER: Shape = Shape {
    name: "a block header",
    keys: &[
        "lastArchive",
        "state",
        "spongeBlobHash",
        "txEffectsTreeRoot",
        "globalVariables",
        "totalFees",
        "totalManaUsed",
    ],
};

/// The node's tx-effects membership witness.
pub const WITNESS: Shape = Shape { name: "a tx-effects witness", keys: &crate::json::witness::WITNESS_KEYS };

/// txfx's stored block.
pub const STORED_BLOCK: Shape =
    Shape { name: "a stored block", keys: &["blockNumber", "txEffectsTreeRoot", "txs"] };

/// A JSON-RPC response around a node result.
pub const JSON_RPC: Shape =
    Shape { name: "a JSON-RPC response", keys: &["jsonrpc", "id", "result", "error"] };

/// The one shape among `candidates` whose keys the object has; the first when it has none of
/// any (its reader then names what is missing).
///
/// # Errors
/// [`Problem::Ambiguous`] when the object has keys of two shapes.
pub fn shape_of(object: &JsonObject<'_>, candidates: &[Shape]) -> Result<Shape, Problem> {
    let matching: Vec<(Shape, Vec<&'static str>)> = candidates
        .iter()
        .map(|shape| (*shape, object.present(shape.keys)))
        .filter(|(_, present)| !present.is_empty())
        .collect();
    match matching.as_slice() {
        [] => Ok(candidates.first().copied().unwrap_or(TX_EFFECT)),
        [(shape, _)] => Ok(*shape),
        [(first, first_keys), (second, second_keys), ..] => Err(Problem::Ambiguous {
            first: first.name,
            first_keys: first_keys.join(", "),
            second: second.name,
            second_keys: second_keys.join(", "),
        }),
    }
}

/// The node result inside a JSON-RPC response, or the document itself when it is not one.
///
/// # Errors
/// [`Problem::NodeError`] for an `error` answer, [`Problem::NoResult`] when there is no result,
/// [`Problem::Ambiguous`] for a response with another shape's keys beside it.
fn unwrap_rpc<'a>(input: JsonInput<'a>, shapes: &[Shape]) -> Result<JsonInput<'a>, Problem> {
    if input.kind() != JsonKind::Object {
        return Ok(input);
    }
    let object = input.object()?;
    let mut candidates = vec![JSON_RPC];
    candidates.extend_from_slice(shapes);
    if shape_of(&object, &candidates)? != JSON_RPC || object.present(JSON_RPC.keys).is_empty() {
        return Ok(input);
    }
    object.only(JSON_RPC.keys)?;
    if let Some(error) = object.get("error") {
        return Err(Problem::NodeError { message: error.parse::<Value>()?.to_string() });
    }
    match object.get("result") {
        Some(result) if result.parse::<Value>()? != Value::Null => Ok(result),
        _ => Err(Problem::NoResult),
    }
}

/// Where a tx is, as a `getTxEffect` result claims it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InBlock {
    /// `l2BlockNumber`.
    pub block_number: BlockNumber,
    /// `l2BlockHash`.
    pub block_hash: Fr,
    /// `txIndexInBlock`.
    pub tx_index_in_block: u64,
}

/// An effect document: the effect, and where a `getTxEffect` result says it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EffectDocument {
    /// The effect.
    pub effect: TxEffect,
    /// The result's claims about its block, when the document is a `getTxEffect` result.
    pub in_block: Option<InBlock>,
}

fn number(object: &JsonObject<'_>, key: &str) -> Result<u64, Malformed> {
    #[derive(serde::Deserialize)]
    struct Number(#[serde(deserialize_with = "lenient_u64::deserialize")] u64);
    object.parse::<Number>(key).map(|Number(value)| value)
}

fn hex(object: &JsonObject<'_>, key: &str) -> Result<Fr, Problem> {
    let text: String = object.parse(key)?;
    parse_fr_hex(&text).map_err(|source| Problem::field(key, source))
}

/// Reads an effect document (module docs).
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn effect(doc: Doc<'_>) -> Result<EffectDocument, DocumentError> {
    effect_problem(doc.input).map_err(|problem| doc.error(problem))
}

fn effect_problem(input: JsonInput<'_>) -> Result<EffectDocument, Problem> {
    let input = unwrap_rpc(input, &[TX_EFFECT, INDEXED_TX_EFFECT])?;
    if input.kind() == JsonKind::Object {
        let object = input.object()?;
        if shape_of(&object, &[TX_EFFECT, INDEXED_TX_EFFECT])? == INDEXED_TX_EFFECT {
            let block_number = BlockNumber::try_from(number(&object, "l2BlockNumber")?)
                .map_err(|e| Malformed::at("l2BlockNumber", e.to_string()))?;
            let in_block = InBlock {
                block_number,
                block_hash: hex(&object, "l2BlockHash")?,
                tx_index_in_block: number(&object, "txIndexInBlock")?,
            };
            let data = object.get("data").ok_or_else(|| Malformed::new("missing key \"data\""))?;
            let effect = effect_from_json(data).map_err(|error| error.within("data"))?;
            return Ok(EffectDocument { effect, in_block: Some(in_block) });
        }
    }
    Ok(EffectDocument { effect: effect_from_json(input)?, in_block: None })
}

/// What an `L2Block` says beside its body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct L2BlockParts {
    /// Its header.
    pub header: BlockHeader,
    /// The archive after it.
    pub archive: TreeSnapshot,
    /// Its checkpoint's number.
    pub checkpoint_number: u64,
    /// Its index within the checkpoint.
    pub index_within_checkpoint: u64,
}

/// A body document: the body, and the rest of it when it is an `L2Block`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyDocument {
    /// The body.
    pub body: Body,
    /// The `L2Block` around it, if the document is one.
    pub block: Option<L2BlockParts>,
}

impl BodyDocument {
    /// The block number the document gives (an `L2Block`'s header's), if any.
    pub fn block_number(&self) -> Option<BlockNumber> {
        self.block.as_ref().map(|block| block.header.global_variables.block_number)
    }
}

/// The layout of a header read inside an `L2Block` whose reader names none: the one its own keys
/// give. Only an AZIP-26 header's root is then checked against the body.
fn own_layout(header: JsonInput<'_>) -> Result<ProtocolVersion, Problem> {
    let object = header.object().map_err(|e| e.within("header"))?;
    Ok(if object.has("txEffectsTreeRoot") { ProtocolVersion::Azip26 } else { ProtocolVersion::PreAzip26 })
}

/// Reads an `L2Block`'s parts: the header in `layout` (or its own), and the body.
fn l2_block(
    object: &JsonObject<'_>,
    layout: Option<ProtocolVersion>,
) -> Result<(L2BlockParts, Body), Problem> {
    let part = |key: &str| object.get(key).ok_or_else(|| Malformed::new(format!("missing key {key:?}")));
    let header_input = part("header")?;
    let layout = match layout {
        Some(layout) => layout,
        None => own_layout(header_input)?,
    };
    let header = header_from_json(header_input, layout).map_err(|error| error.within("header"))?;
    // TypeScript's L2Block holds a Body: `{"txEffects": [...]}`, never a bare array.
    let body_input = part("body")?;
    if body_input.kind() != JsonKind::Object {
        return Err(Malformed::at("body", "an L2Block's body is {\"txEffects\": [...]}").into());
    }
    let body = body_from_json(body_input).map_err(|error| error.within("body"))?;
    let archive: SnapshotJson = object.parse("archive")?;
    Ok((
        L2BlockParts {
            header,
            archive: TreeSnapshot::from(archive),
            checkpoint_number: number(object, "checkpointNumber")?,
            index_within_checkpoint: number(object, "indexWithinCheckpoint")?,
        },
        body,
    ))
}

/// Checks that an `L2Block`'s body is the one its header commits to, where the header commits to
/// one (AZIP-26).
fn check_block_body(hasher: &dyn HashBackend, header: &BlockHeader, body: &Body) -> Result<(), Problem> {
    if let Some(root) = header.tx_effects_tree_root {
        let computed = commit_block(hasher, body)?.root();
        if computed != root {
            return Err(Problem::BodyNotInHeader { header: root, body: computed });
        }
    }
    Ok(())
}

/// Reads a body document (module docs); an `L2Block`'s body is checked against its header's
/// `txEffectsTreeRoot` when the header has one.
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn body(hasher: &dyn HashBackend, doc: Doc<'_>) -> Result<BodyDocument, DocumentError> {
    body_problem(hasher, doc.input).map_err(|problem| doc.error(problem))
}

fn body_problem(hasher: &dyn HashBackend, input: JsonInput<'_>) -> Result<BodyDocument, Problem> {
    let input = unwrap_rpc(input, &[BODY, L2_BLOCK])?;
    if input.kind() == JsonKind::Object {
        let object = input.object()?;
        if shape_of(&object, &[BODY, L2_BLOCK])? == L2_BLOCK {
            let (block, body) = l2_block(&object, None)?;
            check_block_body(hasher, &block.header, &body)?;
            return Ok(BodyDocument { body, block: Some(block) });
        }
    }
    Ok(BodyDocument { body: body_from_json(input)?, block: None })
}

/// A header document: the header, and the body beside it when the document is an `L2Block`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderDocument {
    /// The header.
    pub header: BlockHeader,
    /// Whether the document was a whole `L2Block` (its body checked against the header where
    /// the header commits to one).
    pub from_l2_block: bool,
}

/// Reads a header document in the layout the caller names (module docs); an `L2Block`'s body is
/// checked against the header's `txEffectsTreeRoot` when the layout has one.
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn header(
    hasher: &dyn HashBackend,
    doc: Doc<'_>,
    layout: ProtocolVersion,
) -> Result<HeaderDocument, DocumentError> {
    header_problem(hasher, doc.input, layout).map_err(|problem| doc.error(problem))
}

fn header_problem(
    hasher: &dyn HashBackend,
    input: JsonInput<'_>,
    layout: ProtocolVersion,
) -> Result<HeaderDocument, Problem> {
    let input = unwrap_rpc(input, &[BLOCK_HEADER, L2_BLOCK])?;
    let object = input.object()?;
    if shape_of(&object, &[BLOCK_HEADER, L2_BLOCK])? == L2_BLOCK {
        let (block, body) = l2_block(&object, Some(layout))?;
        check_block_body(hasher, &block.header, &body)?;
        return Ok(HeaderDocument { header: block.header, from_l2_block: true });
    }
    Ok(HeaderDocument { header: header_from_json(input, layout)?, from_l2_block: false })
}

/// Reads a tx-effects witness (the node's JSON, or its JSON-RPC response).
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn witness(doc: Doc<'_>) -> Result<TxEffectMembershipWitness, DocumentError> {
    let read = || -> Result<TxEffectMembershipWitness, Problem> {
        Ok(witness_from_json(unwrap_rpc(doc.input, &[WITNESS])?)?)
    };
    read().map_err(|problem| doc.error(problem))
}

/// Reads the node's archive witness (base64, its JSON-RPC response, or txfx's JSON).
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn archive_witness(doc: Doc<'_>) -> Result<ArchiveWitness, DocumentError> {
    let read = || -> Result<ArchiveWitness, Problem> {
        if let JsonInput::Text(text) = doc.input
            && let Some(bare) = archive_witness_from_text(text)
        {
            return Ok(bare?);
        }
        Ok(archive_witness_from_json(unwrap_rpc(doc.input, &[])?)?)
    };
    read().map_err(|problem| doc.error(problem))
}

/// Reads a category proof.
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn category_proof(doc: Doc<'_>) -> Result<CategoryProof, DocumentError> {
    category_proof_from_json(doc.input).map_err(|error| doc.error(error))
}

/// Leaves as the tree commands take them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LeavesDocument {
    /// txfx's stored block: per tx its hash, categories hash and leaf.
    Stored(StoredBlock),
    /// Bare leaves (at most `MAX_TXS_PER_BLOCK`).
    Bare(Vec<Fr>),
}

/// Reads leaves: a stored block or a JSON array of leaves.
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn leaves(doc: Doc<'_>) -> Result<LeavesDocument, DocumentError> {
    let read = || -> Result<LeavesDocument, Problem> {
        match doc.input.kind() {
            JsonKind::Array => Ok(LeavesDocument::Bare(fields(doc.input, MAX_TXS_PER_BLOCK)?)),
            _ => Ok(LeavesDocument::Stored(stored_block_from_json(doc.input)?)),
        }
    };
    read().map_err(|problem| doc.error(problem))
}

/// A JSON array of field elements (`0x`-hex or decimal strings), at most `max`, read no further.
///
/// # Errors
/// [`Problem`] for a non-array, a bad element, or more than `max` elements.
pub fn fields(input: JsonInput<'_>, max: usize) -> Result<Vec<Fr>, Problem> {
    Ok(crate::json::fields(input, max)?)
}

/// Reads a JSON array of blob fields, at most `max`.
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn blob_fields(doc: Doc<'_>, max: usize) -> Result<Vec<Fr>, DocumentError> {
    fields(doc.input, max).map_err(|problem| doc.error(problem))
}

/// Reads txfx's decoded-checkpoint JSON.
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn checkpoint(doc: Doc<'_>) -> Result<ParsedCheckpoint, DocumentError> {
    checkpoint_from_json(doc.input).map_err(|error| doc.error(error))
}
