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

use txfx_membership::{
    ArchiveWitness, BlockHeader, CategoryProof, ProtocolVersion, StoredBlock, TreeSnapshot,
    TxEffectMembershipWitness,
};
use txfx_poseidon::{Fr, HashBackend};
use txfx_tx_effects::limits::MAX_TXS_PER_BLOCK;
use txfx_tx_effects::{BlockNumber, Body, TxEffect, commit_block};

use crate::error::{Doc, DocumentError, Problem, RpcProblem};
use crate::json::wire::{Integer, JsonType, MAX_SAFE_INTEGER, Malformation, Object, Quoted, Raw};
use crate::json::{
    JsonError, ParsedCheckpoint, archive_witness_from_text, checkpoint_from_json, fields as field_list,
    hex_field,
};
use crate::json::{
    archive::read_archive_witness, effect::read_body, effect::read_effect, header::read_block_number,
    header::read_header, header::read_snapshot, proof::read_category_proof, stored::read_stored_block,
    witness::read_witness,
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
pub const TX_EFFECT: Shape = Shape { name: "a tx effect", keys: &crate::json::effect::EFFECT_KEYS };

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
pub const BLOCK_HEADER: Shape = Shape { name: "a block header", keys: &crate::json::header::HEADER_KEYS };

/// A JSON-RPC response around a node result.
pub const JSON_RPC: Shape =
    Shape { name: "a JSON-RPC response", keys: &["jsonrpc", "id", "result", "error"] };

/// Every shape of the documents TypeScript reads leniently (unknown keys ignored). A document is
/// told apart among all of them, whatever it is read as: a document with keys of two is refused
/// everywhere, and one of another kind is named as what it is.
pub const LENIENT_SHAPES: [Shape; 6] = [TX_EFFECT, INDEXED_TX_EFFECT, BODY, L2_BLOCK, BLOCK_HEADER, JSON_RPC];

/// The keys of every shape of [`LENIENT_SHAPES`].
fn lenient_keys() -> Vec<&'static str> {
    LENIENT_SHAPES.iter().flat_map(|shape| shape.keys.iter().copied()).collect()
}

/// The one shape of [`LENIENT_SHAPES`] whose keys the object has, if any.
///
/// # Errors
/// [`Problem::Ambiguous`] when the object has keys of two shapes.
fn shape_among(object: &Object<'_>) -> Result<Option<Shape>, Problem> {
    let matching: Vec<(Shape, Vec<&'static str>)> = LENIENT_SHAPES
        .iter()
        .map(|shape| (*shape, object.present(shape.keys)))
        .filter(|(_, present)| !present.is_empty())
        .collect();
    match matching.as_slice() {
        [] => Ok(None),
        [(shape, _)] => Ok(Some(*shape)),
        [(first, first_keys), (second, second_keys), ..] => Err(Problem::Ambiguous {
            first: first.name,
            first_keys: first_keys.join(", "),
            second: second.name,
            second_keys: second_keys.join(", "),
        }),
    }
}

/// The shape of a document read as one of `accepted` (`expected` names the kind): `None` for a
/// value that is not an object, or an object of no shape's keys (the reader of the first accepted
/// shape then names what is missing).
///
/// # Errors
/// [`Problem::Ambiguous`], or [`Malformation::OtherKind`] for a document of another kind.
fn shape_of(raw: Raw<'_>, accepted: &[Shape], expected: &'static str) -> Result<Option<Shape>, Problem> {
    if raw.kind() != JsonType::Object {
        return Ok(None);
    }
    let object = raw.object(expected, &lenient_keys())?;
    match shape_among(&object)? {
        Some(shape) if !accepted.contains(&shape) => {
            Err(raw.fault(Malformation::OtherKind { expected, got: shape.name }).into())
        }
        shape => Ok(shape),
    }
}

/// The shape a document would be read as by [`effect`] or [`body`] (`blob_encode` reads either).
///
/// # Errors
/// As [`shape_of`], for a document that is neither.
pub(crate) fn effect_or_body(raw: Raw<'_>) -> Result<Option<Shape>, Problem> {
    shape_of(unwrap_rpc(raw)?, &[TX_EFFECT, INDEXED_TX_EFFECT, BODY, L2_BLOCK], "a tx effect or a body")
}

/// A JSON-RPC error object, quoted: its `code` and `message` when it has them, else its text.
fn node_error(raw: Raw<'_>) -> Problem {
    let quoted = || Quoted::new(raw.text());
    let Ok(object) = raw.object("an error", &["code", "message"]) else {
        return RpcProblem::NodeError { code: None, message: quoted() }.into();
    };
    let code = object.get("code").and_then(|code| code.integer(Integer::number(u128::MAX)).ok());
    let message =
        object.get("message").and_then(|m| m.string().ok()).map_or_else(quoted, |m| Quoted::new(&m));
    RpcProblem::NodeError { code: code.and_then(|c| i64::try_from(c).ok()), message }.into()
}

/// The node result inside a JSON-RPC response, or the document itself when it is not one.
///
/// # Errors
/// [`RpcProblem`] for an `error` answer, no result, both, or a batch of answers;
/// [`Problem::Ambiguous`] for a response with another shape's keys beside it.
fn unwrap_rpc(raw: Raw<'_>) -> Result<Raw<'_>, Problem> {
    match raw.kind() {
        JsonType::Array => {
            // A batch of answers (the node client sends and receives arrays): txfx reads one.
            let first = raw.array(MAX_TXS_PER_BLOCK, "a batch")?.first().copied();
            if let Some(first) = first.filter(|first| first.kind() == JsonType::Object)
                && first.object("a JSON-RPC response", JSON_RPC.keys)?.has("jsonrpc")
            {
                return Err(RpcProblem::Batch.into());
            }
            Ok(raw)
        }
        JsonType::Object => {
            let object = raw.object("a document", &lenient_keys())?;
            if shape_among(&object)? != Some(JSON_RPC) {
                return Ok(raw);
            }
            object.only(JSON_RPC.keys)?;
            let result = object.get("result").filter(|result| !result.is_null());
            match (object.get("error"), result) {
                (Some(_), Some(_)) => Err(RpcProblem::ResultAndError.into()),
                (Some(error), None) if !error.is_null() => Err(node_error(error)),
                (_, Some(result)) => Ok(result),
                (_, None) => Err(RpcProblem::NoResult.into()),
            }
        }
        _ => Ok(raw),
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

/// `txIndexInBlock`: TypeScript's `schemas.Integer` (a number, bigint or string, coerced to a
/// JavaScript number), so at most 2^53 − 1 in any form, the most it reads exactly.
const TX_INDEX: Integer = Integer::lenient(MAX_SAFE_INTEGER as u128);

/// Reads an effect document (module docs).
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn effect(doc: Doc<'_>) -> Result<EffectDocument, DocumentError> {
    doc.read(|raw| effect_problem(raw).map_err(|problem| problem.expecting("a tx effect")))
}

fn effect_problem(raw: Raw<'_>) -> Result<EffectDocument, Problem> {
    let raw = unwrap_rpc(raw)?;
    if shape_of(raw, &[TX_EFFECT, INDEXED_TX_EFFECT], "a tx effect")? == Some(INDEXED_TX_EFFECT) {
        let object = raw.object("a getTxEffect result", INDEXED_TX_EFFECT.keys)?;
        let in_block = InBlock {
            block_number: object.read("l2BlockNumber", read_block_number)?,
            block_hash: object.read("l2BlockHash", hex_field)?,
            tx_index_in_block: object.read("txIndexInBlock", |r| r.u64(TX_INDEX).map_err(JsonError::from))?,
        };
        let effect = object.read("data", read_effect)?;
        return Ok(EffectDocument { effect, in_block: Some(in_block) });
    }
    Ok(EffectDocument { effect: read_effect(raw)?, in_block: None })
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
fn own_layout(header: Raw<'_>) -> Result<ProtocolVersion, Problem> {
    let object = header.object("a block header", &["txEffectsTreeRoot"]).map_err(|e| e.within("header"))?;
    Ok(if object.has("txEffectsTreeRoot") { ProtocolVersion::Azip26 } else { ProtocolVersion::PreAzip26 })
}

/// A checkpoint number or an index within one: TypeScript's `CheckpointNumberSchema` and
/// `schemas.Integer` coerce to a JavaScript number.
const NUMBER: Integer = Integer::lenient(MAX_SAFE_INTEGER as u128);

/// Reads an `L2Block`'s parts: the header in `layout` (or its own), and the body.
fn l2_block(raw: Raw<'_>, layout: Option<ProtocolVersion>) -> Result<(L2BlockParts, Body), Problem> {
    let object = raw.object("an L2Block", L2_BLOCK.keys)?;
    let header_input = object.require("header")?;
    let layout = match layout {
        Some(layout) => layout,
        None => own_layout(header_input)?,
    };
    let header = read_header(header_input, layout).map_err(|error| error.within("header"))?;
    // TypeScript's L2Block holds a Body: `{"txEffects": [...]}`, never a bare array.
    let body = object.read("body", crate::json::effect::read_body_object)?;
    let number = |key: &'static str| object.read(key, |r| r.u64(NUMBER).map_err(JsonError::from));
    Ok((
        L2BlockParts {
            header,
            archive: object.read("archive", read_snapshot)?,
            checkpoint_number: number("checkpointNumber")?,
            index_within_checkpoint: number("indexWithinCheckpoint")?,
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
    doc.read(|raw| body_problem(hasher, raw).map_err(|problem| problem.expecting("a body")))
}

fn body_problem(hasher: &dyn HashBackend, raw: Raw<'_>) -> Result<BodyDocument, Problem> {
    let raw = unwrap_rpc(raw)?;
    if shape_of(raw, &[BODY, L2_BLOCK], "a body")? == Some(L2_BLOCK) {
        let (block, body) = l2_block(raw, None)?;
        check_block_body(hasher, &block.header, &body)?;
        return Ok(BodyDocument { body, block: Some(block) });
    }
    Ok(BodyDocument { body: read_body(raw)?, block: None })
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
    doc.read(|raw| header_problem(hasher, raw, layout).map_err(|problem| problem.expecting("a block header")))
}

fn header_problem(
    hasher: &dyn HashBackend,
    raw: Raw<'_>,
    layout: ProtocolVersion,
) -> Result<HeaderDocument, Problem> {
    let raw = unwrap_rpc(raw)?;
    if shape_of(raw, &[BLOCK_HEADER, L2_BLOCK], "a block header")? == Some(L2_BLOCK) {
        let (block, body) = l2_block(raw, Some(layout))?;
        check_block_body(hasher, &block.header, &body)?;
        return Ok(HeaderDocument { header: block.header, from_l2_block: true });
    }
    Ok(HeaderDocument { header: read_header(raw, layout)?, from_l2_block: false })
}

/// Reads a tx-effects witness (the node's JSON, or its JSON-RPC response).
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn witness(doc: Doc<'_>) -> Result<TxEffectMembershipWitness, DocumentError> {
    doc.read(|raw| Ok(read_witness(unwrap_rpc(raw)?).map_err(|e| e.expecting("a tx-effects witness"))?))
}

/// Reads the node's archive witness (base64, its JSON-RPC response, or txfx's JSON).
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn archive_witness(doc: Doc<'_>) -> Result<ArchiveWitness, DocumentError> {
    if let crate::json::JsonInput::Text(text) = doc.input
        && let Some(bare) = archive_witness_from_text(text)
    {
        return bare.map_err(|error| doc.error(error));
    }
    doc.read(|raw| Ok(read_archive_witness(unwrap_rpc(raw)?).map_err(|e| e.expecting("an archive witness"))?))
}

/// Reads a category proof.
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn category_proof(doc: Doc<'_>) -> Result<CategoryProof, DocumentError> {
    doc.read(|raw| Ok(read_category_proof(raw).map_err(|e| e.expecting("a category proof"))?))
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
    doc.read(|raw| {
        Ok(match raw.kind() {
            JsonType::Array => LeavesDocument::Bare(
                field_list(raw, MAX_TXS_PER_BLOCK, "a block's leaves").map_err(|e| e.expecting("leaves"))?,
            ),
            _ => LeavesDocument::Stored(read_stored_block(raw).map_err(|e| e.expecting("a stored block"))?),
        })
    })
}

/// Reads a JSON array of blob fields, at most `max`.
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn blob_fields(doc: Doc<'_>, max: usize) -> Result<Vec<Fr>, DocumentError> {
    doc.read(|raw| Ok(field_list(raw, max, "six blobs")?))
}

/// Reads txfx's decoded-checkpoint JSON.
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn checkpoint(doc: Doc<'_>) -> Result<ParsedCheckpoint, DocumentError> {
    checkpoint_from_json(doc.input).map_err(|error| doc.error(error))
}
