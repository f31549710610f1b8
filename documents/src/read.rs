//! Every document txfx reads, and its one reading under a protocol's rules.
//!
//! A document may have one of a few shapes (an effect, the node's `getTxEffect` result around
//! one, or its `getTxReceipt` answer; a body, a block around one, or a bare array of effects; a
//! header, or a block around one). Which shapes exist is the protocol's (`v6` adds the receipt,
//! `BlockResponse` and `BlockData`), and each shape is told by its keys:
//!
//! | document | shapes, by their keys (required ones first) |
//! |---|---|
//! | effect | `TxEffect` (its ten keys); `getTxEffect` result (`l2BlockNumber`, `l2BlockHash`, `data`, `txIndexInBlock`, and in v6 `slotNumber`); v6 `getTxReceipt` answer (`txHash`, `status`, and when mined `executionResult`, `transactionFee`, `blockHash`, `blockNumber`, `slotNumber`, `txIndexInBlock`, `epochNumber`, optional `txEffect`) |
//! | body | `Body` (`txEffects`); `L2Block` (`archive`, `header`, `body`, `checkpointNumber`, `indexWithinCheckpoint`); v6 `BlockResponse` (`header`, `archive`, `hash`, `checkpointNumber`, `indexWithinCheckpoint`, `number`, optional `body`); a JSON array of effects |
//! | header | `BlockHeader` (its keys); `L2Block`; v6 `BlockResponse`; v6 `BlockData` (`header`, `archive`, `blockHash`, `checkpointNumber`, `indexWithinCheckpoint`) |
//! | witness | the node's witness (`blockNumber`, `root`, `categoriesHash`, `leafIndex`, `siblingPath`) |
//! | leaves | txfx's stored block (`blockNumber`, `txEffectsTreeRoot`, `txs`); a JSON array of leaves |
//!
//! and every node result may also come inside its JSON-RPC response (`jsonrpc`, `id`, `result`,
//! `error`). The rule that tells a shape, among all of the protocol's shapes whatever the document
//! is read as: the *candidates* are the shapes whose required keys the document has; the
//! document is of the candidate with the most keys, provided that every other candidate's keys
//! are among its keys (a `BlockResponse` with a body is also an `L2Block`, and reads the same)
//! and that the document has no key of the protocol's shapes outside them. Anything else is
//! refused as ambiguous, naming both shapes: Aztec's TypeScript reads such a document one way or
//! the other depending on which schema its reader picked, so no reading of it is *the* reading.
//! Within a shape, a key the shape's TypeScript schema reads is read, an unknown key is ignored
//! where TypeScript ignores it (it cannot change the reading), and txfx's own formats refuse
//! unknown keys.
//!
//! Reading checks what a document says about itself where that needs no trust: a block whose
//! header commits to a tx-effects root must have a body with that root; a `BlockResponse`'s
//! `hash` and `number`, and a `BlockData`'s `blockHash`, must be its header's; a receipt's
//! `txHash`, `transactionFee` and `executionResult` must be its effect's. ([`body_unchecked`]
//! makes every one of these checks but a block's body against its header's root, which it leaves
//! to [`crate::ops::bodies_commitments`], so that many bodies are committed together once.)

use txfx_membership::{
    ArchiveWitness, BlockHeader, CategoryProof, Network, ProtocolVersion, StoredBlock, TreeSnapshot,
    TxEffectMembershipWitness,
};
use txfx_poseidon::{Fr, HashBackend};
use txfx_tx_effects::limits::MAX_TXS_PER_BLOCK;
use txfx_tx_effects::{BlockNumber, Body, RevertCode, TxEffect, commit_block};

use crate::error::{Doc, DocumentError, Problem, RpcProblem};
use crate::json::node_answer::{check_attestations, check_debug_logs, check_l1_publish_info};
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
    /// Every key the shape's TypeScript schema reads.
    pub keys: &'static [&'static str],
    /// The keys a document of this shape always has.
    pub required: &'static [&'static str],
    /// Whether the shape exists only in v6.
    pub v6_only: bool,
}

impl Shape {
    /// Whether `protocol` has this shape.
    pub fn in_protocol(&self, protocol: ProtocolVersion) -> bool {
        !self.v6_only || protocol == ProtocolVersion::V6
    }
}

/// TypeScript's `TxEffect`.
pub const TX_EFFECT: Shape = Shape {
    name: "a tx effect",
    keys: &crate::json::effect::EFFECT_KEYS,
    required: &crate::json::effect::EFFECT_KEYS,
    v6_only: false,
};

/// The keys of the node's `getTxEffect` result (TypeScript's `IndexedTxEffect`); v6 adds
/// `slotNumber`.
const INDEXED_KEYS: [&str; 5] = ["l2BlockNumber", "l2BlockHash", "data", "txIndexInBlock", "slotNumber"];

/// The node's `getTxEffect` result (TypeScript's `IndexedTxEffect`).
pub const INDEXED_TX_EFFECT: Shape = Shape {
    name: "a getTxEffect result",
    keys: &INDEXED_KEYS,
    required: &["l2BlockNumber", "l2BlockHash", "data", "txIndexInBlock"],
    v6_only: false,
};

/// The keys of v6's `TxReceipt` (its pending, dropped and mined forms together).
const RECEIPT_KEYS: [&str; 13] = [
    "txHash",
    "status",
    "executionResult",
    "transactionFee",
    "blockHash",
    "blockNumber",
    "slotNumber",
    "txIndexInBlock",
    "epochNumber",
    "txEffect",
    "debugLogs",
    "tx",
    "error",
];

/// v6's `getTxReceipt` answer (`TxReceiptSchema`, a union routed by `status`).
pub const TX_RECEIPT: Shape =
    Shape { name: "a tx receipt", keys: &RECEIPT_KEYS, required: &["txHash", "status"], v6_only: true };

/// TypeScript's `Body`.
pub const BODY: Shape =
    Shape { name: "a body", keys: &["txEffects"], required: &["txEffects"], v6_only: false };

/// The keys of TypeScript's `L2Block`.
const L2_BLOCK_KEYS: [&str; 5] = ["archive", "header", "body", "checkpointNumber", "indexWithinCheckpoint"];

/// TypeScript's `L2Block` (4.1.2's `getBlock` result; in v6 the blocks of a checkpoint).
pub const L2_BLOCK: Shape =
    Shape { name: "an L2Block", keys: &L2_BLOCK_KEYS, required: &L2_BLOCK_KEYS, v6_only: false };

/// v6's `BlockResponse` (`getBlock`, `getBlocks`): `body` only when asked for with
/// `includeTransactions`, `l1` and `attestations` when asked for.
pub const BLOCK_RESPONSE: Shape = Shape {
    name: "a block response",
    keys: &[
        "header",
        "archive",
        "hash",
        "checkpointNumber",
        "indexWithinCheckpoint",
        "number",
        "body",
        "l1",
        "attestations",
    ],
    required: &["header", "archive", "hash", "checkpointNumber", "indexWithinCheckpoint", "number"],
    v6_only: true,
};

/// The keys of v6's `BlockData` (`getBlockData`).
const BLOCK_DATA_KEYS: [&str; 5] =
    ["header", "archive", "blockHash", "checkpointNumber", "indexWithinCheckpoint"];

/// v6's `BlockData` (`getBlockData`): a block without its body.
pub const BLOCK_DATA: Shape =
    Shape { name: "block data", keys: &BLOCK_DATA_KEYS, required: &BLOCK_DATA_KEYS, v6_only: true };

/// TypeScript's `BlockHeader`, either layout (`txEffectsTreeRoot` is the layout's to require).
pub const BLOCK_HEADER: Shape = Shape {
    name: "a block header",
    keys: &crate::json::header::HEADER_KEYS,
    required: &["lastArchive", "state", "spongeBlobHash", "globalVariables", "totalFees", "totalManaUsed"],
    v6_only: false,
};

/// The keys of a JSON-RPC response around a node result.
const JSON_RPC_KEYS: [&str; 4] = ["jsonrpc", "id", "result", "error"];

/// Every shape of the documents TypeScript reads leniently (unknown keys ignored), in the order
/// messages prefer them. A document is told apart among the protocol's ones, whatever it is read
/// as: a document of two is refused everywhere, and one of another kind is named as what it is.
pub const LENIENT_SHAPES: [Shape; 8] =
    [TX_EFFECT, INDEXED_TX_EFFECT, TX_RECEIPT, BODY, BLOCK_RESPONSE, BLOCK_DATA, L2_BLOCK, BLOCK_HEADER];

/// The keys of every shape `protocol` has, and of a JSON-RPC response.
fn known_keys(protocol: ProtocolVersion) -> Vec<&'static str> {
    let mut keys: Vec<&'static str> = LENIENT_SHAPES
        .iter()
        .filter(|shape| shape.in_protocol(protocol))
        .flat_map(|shape| shape.keys.iter().copied())
        .chain(JSON_RPC_KEYS)
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// Two shapes whose keys a document has together.
fn ambiguous(first: Shape, second: Shape, object: &Object<'_>) -> Problem {
    Problem::Ambiguous {
        first: first.name,
        first_keys: object.present(first.keys).join(", "),
        second: second.name,
        second_keys: object.present(second.keys).join(", "),
    }
}

/// The shape of an object among `protocol`'s shapes, by the rule of the module docs: `None` when
/// no shape's required keys are all there (the reader then names what is missing).
///
/// # Errors
/// [`Problem::Ambiguous`] when the object has keys of two shapes that read it differently.
fn shape_among(object: &Object<'_>, protocol: ProtocolVersion) -> Result<Option<Shape>, Problem> {
    let shapes: Vec<Shape> = LENIENT_SHAPES.iter().copied().filter(|s| s.in_protocol(protocol)).collect();
    let candidates: Vec<Shape> =
        shapes.iter().copied().filter(|shape| shape.required.iter().all(|key| object.has(key))).collect();
    let Some(chosen) = candidates.iter().copied().max_by_key(|shape| shape.keys.len()) else {
        return Ok(None);
    };
    // Another candidate must be a part of the chosen one: it then reads what the chosen one reads.
    if let Some(other) =
        candidates.iter().copied().find(|other| !other.keys.iter().all(|key| chosen.keys.contains(key)))
    {
        return Err(ambiguous(chosen, other, object));
    }
    // A key of another shape beside the chosen one's is a second reading's.
    for other in shapes.iter().copied().filter(|other| *other != chosen) {
        if other.keys.iter().any(|key| object.has(key) && !chosen.keys.contains(key)) {
            return Err(ambiguous(chosen, other, object));
        }
    }
    Ok(Some(chosen))
}

/// The shape of a document read as one of `accepted` (`expected` names the kind): `None` for a
/// value that is not an object, or an object of no shape (then the accepted shape whose keys it
/// has most of, if any, so that its reader names what is missing).
///
/// # Errors
/// [`Problem::Ambiguous`], or [`Malformation::OtherKind`] for a document of another kind.
fn shape_of(
    raw: Raw<'_>,
    protocol: ProtocolVersion,
    accepted: &[Shape],
    expected: &'static str,
) -> Result<Option<Shape>, Problem> {
    if raw.kind() != JsonType::Object {
        return Ok(None);
    }
    let object = raw.object(expected, &known_keys(protocol))?;
    match shape_among(&object, protocol)? {
        Some(shape) if !accepted.contains(&shape) => {
            Err(raw.fault(Malformation::OtherKind { expected, got: shape.name }).into())
        }
        Some(shape) => Ok(Some(shape)),
        None => Ok(accepted
            .iter()
            .copied()
            .filter(|shape| shape.in_protocol(protocol))
            .map(|shape| (shape, object.present(shape.keys).len()))
            .filter(|(_, present)| *present > 0)
            .max_by_key(|(_, present)| *present)
            .map(|(shape, _)| shape)),
    }
}

/// The shape a document would be read as by [`effect`] or [`body`] (`blob_encode` reads either).
///
/// # Errors
/// As [`shape_of`], for a document that is neither.
pub(crate) fn effect_or_body(raw: Raw<'_>, protocol: ProtocolVersion) -> Result<Option<Shape>, Problem> {
    shape_of(
        unwrap_rpc(raw, protocol)?,
        protocol,
        &[TX_EFFECT, INDEXED_TX_EFFECT, TX_RECEIPT, BODY, BLOCK_RESPONSE, L2_BLOCK],
        "a tx effect or a body",
    )
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
fn unwrap_rpc(raw: Raw<'_>, protocol: ProtocolVersion) -> Result<Raw<'_>, Problem> {
    match raw.kind() {
        JsonType::Array => {
            // A batch of answers (the node client sends and receives arrays): a document is one.
            let first = raw.array(MAX_TXS_PER_BLOCK, "a batch")?.first().copied();
            if let Some(first) = first.filter(|first| first.kind() == JsonType::Object)
                && first.object("a JSON-RPC response", &JSON_RPC_KEYS)?.has("jsonrpc")
            {
                return Err(RpcProblem::Batch.into());
            }
            Ok(raw)
        }
        JsonType::Object => {
            let object = raw.object("a document", &known_keys(protocol))?;
            // A response has `jsonrpc`, `id` or `result`; `error` alone makes one only where no
            // other shape has its keys (a dropped tx's receipt has an `error` of its own).
            let others = LENIENT_SHAPES
                .iter()
                .filter(|s| s.in_protocol(protocol))
                .any(|shape| shape.keys.iter().any(|key| object.has(key) && !JSON_RPC_KEYS.contains(key)));
            let envelope = object.has("jsonrpc") || object.has("id") || object.has("result");
            if !envelope && (!object.has("error") || others) {
                return Ok(raw);
            }
            // Every key of a response is the response's: a shape's key beside it is a second reading.
            let envelope =
                Shape { name: "a JSON-RPC response", keys: &JSON_RPC_KEYS, required: &[], v6_only: false };
            if let Some(other) =
                LENIENT_SHAPES.iter().copied().filter(|s| s.in_protocol(protocol)).find(|shape| {
                    shape.keys.iter().any(|key| object.has(key) && !JSON_RPC_KEYS.contains(key))
                })
            {
                return Err(ambiguous(envelope, other, &object));
            }
            object.only(&JSON_RPC_KEYS)?;
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

/// What a node's answer claims about where a tx is: a `getTxEffect` result or a mined
/// `getTxReceipt` answer. Every claim is either checked against what a verification proves or
/// listed as unverified, never taken as a fact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InBlock {
    /// The answer the claims came in, whose key names messages and verdicts use.
    pub source: ClaimSource,
    /// `l2BlockNumber` / `blockNumber`.
    pub block_number: BlockNumber,
    /// `l2BlockHash` / `blockHash`.
    pub block_hash: Fr,
    /// `txIndexInBlock`.
    pub tx_index_in_block: u64,
    /// `slotNumber` (v6).
    pub slot_number: Option<u64>,
    /// A receipt's `status` (`proposed`, `checkpointed`, `proven`, `finalized`): the node's
    /// claim of finality, which only L1 can confirm.
    pub status: Option<TxStatus>,
    /// A receipt's `epochNumber`.
    pub epoch_number: Option<u64>,
}

/// The node answer claims about a tx's place came in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimSource {
    /// A `getTxEffect` result (`l2BlockNumber`, `l2BlockHash`).
    IndexedTxEffect,
    /// A `getTxReceipt` answer (`blockNumber`, `blockHash`).
    Receipt,
}

impl ClaimSource {
    /// The answer, in messages.
    pub fn name(self) -> &'static str {
        match self {
            Self::IndexedTxEffect => "the getTxEffect result",
            Self::Receipt => "the receipt",
        }
    }

    /// The key of the block number.
    pub fn block_number_key(self) -> &'static str {
        match self {
            Self::IndexedTxEffect => "l2BlockNumber",
            Self::Receipt => "blockNumber",
        }
    }

    /// The key of the block hash.
    pub fn block_hash_key(self) -> &'static str {
        match self {
            Self::IndexedTxEffect => "l2BlockHash",
            Self::Receipt => "blockHash",
        }
    }
}

/// A tx's status, as v6's `TxStatus` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TxStatus {
    /// In the node's mempool.
    Pending,
    /// Dropped (or unknown to the node).
    Dropped,
    /// In a proposed block, not yet on L1.
    Proposed,
    /// In a checkpoint published to L1.
    Checkpointed,
    /// In a proven checkpoint.
    Proven,
    /// In a proven checkpoint whose L1 block is finalized.
    Finalized,
}

impl TxStatus {
    /// v6's names.
    pub const NAMES: [(&'static str, Self); 6] = [
        ("pending", Self::Pending),
        ("dropped", Self::Dropped),
        ("proposed", Self::Proposed),
        ("checkpointed", Self::Checkpointed),
        ("proven", Self::Proven),
        ("finalized", Self::Finalized),
    ];

    /// The status's name.
    pub fn name(self) -> &'static str {
        Self::NAMES.iter().find(|(_, status)| *status == self).map_or("?", |(name, _)| name)
    }
}

/// An effect document: the effect, and where the node's answer says it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EffectDocument {
    /// The effect.
    pub effect: TxEffect,
    /// The answer's claims about its block, when the document is a `getTxEffect` result or a
    /// receipt.
    pub in_block: Option<InBlock>,
}

/// `txIndexInBlock`: TypeScript's `schemas.Integer` (a number, bigint or string, coerced to a
/// JavaScript number), so at most 2^53 − 1 in any form, the most it reads exactly.
const TX_INDEX: Integer = Integer::lenient(MAX_SAFE_INTEGER as u128);

/// A v6 slot, epoch or checkpoint number (branded JavaScript numbers): a number or a decimal
/// string, at most 2^53 − 1.
const SAFE_INTEGER: Integer = Integer::lenient(MAX_SAFE_INTEGER as u128);

/// Reads an effect document (module docs) under `protocol`'s rules.
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn effect(doc: Doc<'_>, protocol: ProtocolVersion) -> Result<EffectDocument, DocumentError> {
    doc.read(|raw| effect_problem(raw, protocol).map_err(|problem| problem.expecting("a tx effect")))
}

fn effect_problem(raw: Raw<'_>, protocol: ProtocolVersion) -> Result<EffectDocument, Problem> {
    let raw = unwrap_rpc(raw, protocol)?;
    match shape_of(raw, protocol, &[TX_EFFECT, INDEXED_TX_EFFECT, TX_RECEIPT], "a tx effect")? {
        Some(shape) if shape == INDEXED_TX_EFFECT => {
            let object = raw.object("a getTxEffect result", INDEXED_TX_EFFECT.keys)?;
            let slot_number = if protocol == ProtocolVersion::V6 {
                Some(object.read("slotNumber", |r| r.u64(SAFE_INTEGER).map_err(JsonError::from))?)
            } else {
                None
            };
            let in_block = InBlock {
                source: ClaimSource::IndexedTxEffect,
                block_number: object.read("l2BlockNumber", read_block_number)?,
                block_hash: object.read("l2BlockHash", hex_field)?,
                tx_index_in_block: object
                    .read("txIndexInBlock", |r| r.u64(TX_INDEX).map_err(JsonError::from))?,
                slot_number,
                status: None,
                epoch_number: None,
            };
            let effect = object.read("data", |raw| read_effect(raw, protocol))?;
            Ok(EffectDocument { effect, in_block: Some(in_block) })
        }
        Some(shape) if shape == TX_RECEIPT => match receipt_problem(raw, protocol)? {
            TxReceipt::Mined(mined) => match mined.tx_effect {
                Some(effect) => Ok(EffectDocument { effect, in_block: Some(mined.in_block) }),
                None => Err(Problem::ReceiptWithoutEffect),
            },
            TxReceipt::Pending { .. } => Err(Problem::TxNotMined { status: TxStatus::Pending }),
            TxReceipt::Dropped { .. } => Err(Problem::TxNotMined { status: TxStatus::Dropped }),
        },
        _ => Ok(EffectDocument { effect: read_effect(raw, protocol)?, in_block: None }),
    }
}

/// A mined tx's receipt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MinedReceipt {
    /// `txHash`.
    pub tx_hash: Fr,
    /// Where the receipt says the tx is, and its status.
    pub in_block: InBlock,
    /// `executionResult`: whether the tx's public execution reverted.
    pub reverted: bool,
    /// `transactionFee`.
    pub transaction_fee: u128,
    /// `txEffect`, when asked for (`includeTxEffect`).
    pub tx_effect: Option<TxEffect>,
}

/// v6's `getTxReceipt` answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TxReceipt {
    /// The tx is in the node's mempool.
    Pending {
        /// `txHash`.
        tx_hash: Fr,
    },
    /// The tx was dropped, or the node does not know it.
    Dropped {
        /// `txHash`.
        tx_hash: Fr,
    },
    /// The tx is in a block.
    Mined(Box<MinedReceipt>),
}

/// A `transactionFee`: TypeScript's `schemas.BigInt`, printed as a decimal string.
const FEE: Integer = Integer::lenient(u128::MAX);

/// Reads a v6 `getTxReceipt` answer (or its JSON-RPC response). A mined receipt's `txHash`,
/// `transactionFee` and `executionResult` are checked against its `txEffect` when it has one.
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong, or the claim its effect contradicts.
pub fn tx_receipt(doc: Doc<'_>) -> Result<TxReceipt, DocumentError> {
    doc.read(|raw| {
        let raw = unwrap_rpc(raw, ProtocolVersion::V6)?;
        if shape_of(raw, ProtocolVersion::V6, &[TX_RECEIPT], "a tx receipt")?.is_none() {
            // Not an object, or no receipt's keys: the receipt reader names what is missing.
            raw.object("a tx receipt", &RECEIPT_KEYS)?.require("status")?;
        }
        receipt_problem(raw, ProtocolVersion::V6).map_err(|problem| problem.expecting("a tx receipt"))
    })
}

fn receipt_problem(raw: Raw<'_>, protocol: ProtocolVersion) -> Result<TxReceipt, Problem> {
    let object = raw.object("a tx receipt", &RECEIPT_KEYS)?;
    let tx_hash = object.read("txHash", crate::json::effect::tx_hash)?;
    let status = object.read("status", |raw| {
        let name = raw.string()?;
        TxStatus::NAMES.iter().find(|(known, _)| *known == name).map(|(_, status)| *status).ok_or_else(|| {
            JsonError::from(raw.fault(Malformation::BadValue {
                expected: "a tx status (pending, dropped, proposed, checkpointed, proven, finalized)",
                value: Quoted::new(&name),
            }))
        })
    })?;
    match status {
        TxStatus::Pending => return Ok(TxReceipt::Pending { tx_hash }),
        TxStatus::Dropped => return Ok(TxReceipt::Dropped { tx_hash }),
        _ => {}
    }
    let reverted = object.read("executionResult", |raw| {
        let name = raw.string()?;
        match name.as_ref() {
            "success" => Ok(false),
            "reverted" => Ok(true),
            _ => Err(JsonError::from(raw.fault(Malformation::BadValue {
                expected: "an execution result (success, reverted)",
                value: Quoted::new(&name),
            }))),
        }
    })?;
    let in_block = InBlock {
        source: ClaimSource::Receipt,
        block_number: object.read("blockNumber", read_block_number)?,
        block_hash: object.read("blockHash", hex_field)?,
        tx_index_in_block: object.read("txIndexInBlock", |r| r.u64(TX_INDEX).map_err(JsonError::from))?,
        slot_number: Some(object.read("slotNumber", |r| r.u64(SAFE_INTEGER).map_err(JsonError::from))?),
        status: Some(status),
        epoch_number: Some(object.read("epochNumber", |r| r.u64(SAFE_INTEGER).map_err(JsonError::from))?),
    };
    let transaction_fee = object.read("transactionFee", |r| r.integer(FEE).map_err(JsonError::from))?;
    let tx_effect = object.read_optional("txEffect", |raw| read_effect(raw, protocol))?;
    // Not kept, but read as v6 reads them: a receipt v6 refuses is refused.
    object.read_optional("debugLogs", check_debug_logs)?;
    if let Some(effect) = &tx_effect {
        check_receipt_effect(tx_hash, reverted, transaction_fee, effect)?;
    }
    Ok(TxReceipt::Mined(Box::new(MinedReceipt { tx_hash, in_block, reverted, transaction_fee, tx_effect })))
}

/// A receipt's own claims against the effect it carries.
fn check_receipt_effect(tx_hash: Fr, reverted: bool, fee: u128, effect: &TxEffect) -> Result<(), Problem> {
    use crate::error::Claim;
    if effect.tx_hash != tx_hash {
        return Err(Problem::contradicts(
            "the receipt's txHash",
            tx_hash,
            "its txEffect's",
            effect.tx_hash,
            "effect",
        ));
    }
    if Fr::from(fee) != effect.transaction_fee {
        return Err(Problem::contradicts(
            "the receipt's transactionFee",
            Fr::from(fee),
            "its txEffect's",
            effect.transaction_fee,
            "effect",
        ));
    }
    let effect_reverted = effect.revert_code != RevertCode::Ok;
    if reverted != effect_reverted {
        return Err(Problem::contradicts(
            "the receipt's executionResult (reverted = 1)",
            Claim::Number(u64::from(reverted)),
            "its txEffect's revertCode",
            Claim::Number(u64::from(effect.revert_code.code())),
            "effect",
        ));
    }
    Ok(())
}

/// What a block document says beside its body: an `L2Block`, a `BlockResponse` or a `BlockData`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockParts {
    /// The shape it came in.
    pub shape: Shape,
    /// Its header.
    pub header: BlockHeader,
    /// The archive after it.
    pub archive: TreeSnapshot,
    /// Its checkpoint's number.
    pub checkpoint_number: u64,
    /// Its index within the checkpoint.
    pub index_within_checkpoint: u64,
    /// The block hash it claims (`hash`, `blockHash`), checked to be its header's.
    pub hash: Option<Fr>,
}

/// A body document: the body, and the rest of it when it is a block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyDocument {
    /// The body.
    pub body: Body,
    /// The block around it, if the document is one.
    pub block: Option<BlockParts>,
}

impl BodyDocument {
    /// The block number the document gives (a block's header's), if any.
    pub fn block_number(&self) -> Option<BlockNumber> {
        self.block.as_ref().map(|block| block.header.global_variables.block_number)
    }
}

/// A checkpoint number or an index within one: TypeScript's `CheckpointNumberSchema` and
/// `schemas.Integer` coerce to a JavaScript number.
const NUMBER: Integer = Integer::lenient(MAX_SAFE_INTEGER as u128);

/// Reads a block document's parts (an `L2Block`, a `BlockResponse` or a `BlockData`), its header
/// in `protocol`'s layout, and its body if it has one; every claim it makes about itself is
/// checked (module docs).
fn block(
    hasher: &dyn HashBackend,
    raw: Raw<'_>,
    shape: Shape,
    protocol: ProtocolVersion,
) -> Result<(BlockParts, Option<Body>), Problem> {
    let (parts, body) = block_but_body(hasher, raw, shape, protocol)?;
    if let Some(body) = &body {
        check_block_body(hasher, &parts.header, body)?;
    }
    Ok((parts, body))
}

/// [`block`] but for its last check, the body against its header's root (the one that commits
/// the body).
fn block_but_body(
    hasher: &dyn HashBackend,
    raw: Raw<'_>,
    shape: Shape,
    protocol: ProtocolVersion,
) -> Result<(BlockParts, Option<Body>), Problem> {
    let object = raw.object(shape.name, shape.keys)?;
    let header = object.read("header", |raw| read_header(raw, protocol))?;
    let body = match shape == BLOCK_DATA {
        // TypeScript's L2Block holds a Body: `{"txEffects": [...]}`, never a bare array.
        false => object.read_optional("body", |raw| crate::json::effect::read_body_object(raw, protocol))?,
        true => None,
    };
    if shape == L2_BLOCK && body.is_none() {
        object.require("body")?;
    }
    let number = |key: &'static str| object.read(key, |r| r.u64(NUMBER).map_err(JsonError::from));
    let hash_key = match shape {
        s if s == BLOCK_RESPONSE => Some("hash"),
        s if s == BLOCK_DATA => Some("blockHash"),
        _ => None,
    };
    let hash = hash_key.map(|key| object.read(key, hex_field)).transpose()?;
    if shape == BLOCK_RESPONSE {
        // Not kept, but read as v6 reads them: a block response v6 refuses is refused.
        object.read_optional("l1", check_l1_publish_info)?;
        object.read_optional("attestations", check_attestations)?;
    }
    let parts = BlockParts {
        shape,
        header,
        archive: object.read("archive", |raw| read_snapshot(raw, protocol))?,
        checkpoint_number: number("checkpointNumber")?,
        index_within_checkpoint: number("indexWithinCheckpoint")?,
        hash,
    };
    let block_number = parts.header.global_variables.block_number;
    if shape == BLOCK_RESPONSE {
        let claimed = object.read("number", read_block_number)?;
        if claimed != block_number {
            return Err(Problem::contradicts(
                "the block response's number",
                claimed,
                "its header's blockNumber",
                block_number,
                "header",
            ));
        }
    }
    if let (Some(claimed), Some(key)) = (hash, hash_key) {
        let computed = parts.header.hash(hasher)?;
        if claimed != computed {
            let what = if key == "hash" { "the block response's hash" } else { "the block data's blockHash" };
            return Err(Problem::contradicts(what, claimed, "its header's hash", computed, "header"));
        }
    }
    // The archive after a block holds it and every block before: block n is leaf n.
    if protocol == ProtocolVersion::V6
        && parts.archive.next_available_leaf_index != u64::from(block_number) + 1
    {
        return Err(Problem::contradicts(
            "the archive's nextAvailableLeafIndex",
            crate::error::Claim::Number(parts.archive.next_available_leaf_index),
            "one past its header's blockNumber",
            crate::error::Claim::Number(u64::from(block_number) + 1),
            "header",
        ));
    }
    Ok((parts, body))
}

/// Checks that a block's body is the one its header commits to, where the header commits to
/// one (and commits the body only then).
fn check_block_body(hasher: &dyn HashBackend, header: &BlockHeader, body: &Body) -> Result<(), Problem> {
    match header.tx_effects_tree_root {
        Some(_) => check_body_root(header, commit_block(hasher, body)?.root()),
        None => Ok(()),
    }
}

/// Checks that `computed`, a block's body's root, is the one its header commits to, where the
/// header commits to one.
fn check_body_root(header: &BlockHeader, computed: Fr) -> Result<(), Problem> {
    match header.tx_effects_tree_root {
        Some(root) if root != computed => Err(Problem::BodyNotInHeader { header: root, body: computed }),
        _ => Ok(()),
    }
}

/// Reads a body document (module docs) under `protocol`'s rules; a block's body is checked
/// against its header's `txEffectsTreeRoot`, and its other claims against its header.
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn body(
    hasher: &dyn HashBackend,
    doc: Doc<'_>,
    protocol: ProtocolVersion,
) -> Result<BodyDocument, DocumentError> {
    doc.read(|raw| {
        let document = body_but_root(hasher, raw, protocol).map_err(|problem| problem.expecting("a body"))?;
        if let Some(block) = &document.block {
            check_block_body(hasher, &block.header, &document.body)?;
        }
        Ok(document)
    })
}

/// A body document read but for one check: that a block's body is the one its header's
/// `txEffectsTreeRoot` commits to, which needs the body's commitment. A caller that commits the
/// body anyway, and many bodies together, gets it from [`body_unchecked`] and ends the reading with
/// [`crate::ops::bodies_commitments`], which makes the check on the commitment it computes;
/// until then the document is not given out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UncheckedBody {
    /// The document, its body not yet checked against its header.
    document: BodyDocument,
    /// The document's name, for the check's error.
    name: String,
}

impl UncheckedBody {
    /// The body, to commit.
    pub fn body(&self) -> &Body {
        &self.document.body
    }

    /// The block the body came in (a block response or an `L2Block`), its claims and header
    /// checked, for a reader that must look at the block (its number, its place in its
    /// checkpoint) before committing the body; `None` for a bare body.
    pub fn block_parts(&self) -> Option<&BlockParts> {
        self.document.block.as_ref()
    }

    /// Ends the reading with `root`, the body's root computed from [`Self::body`]: the document,
    /// or the error [`body`] gives when the body is not the one its header commits to.
    pub(crate) fn check(&self, root: Fr) -> Result<&BodyDocument, DocumentError> {
        if let Some(block) = &self.document.block {
            check_body_root(&block.header, root).map_err(|problem| DocumentError {
                document: Some(self.name.clone()),
                problem: Box::new(problem),
            })?;
        }
        Ok(&self.document)
    }

    /// The document before its check, for claims read from it that do not depend on the check
    /// (the block number); never given out of the crate.
    pub(crate) fn pending(&self) -> &BodyDocument {
        &self.document
    }

    /// [`Self::check`], keeping the document: for a caller that commits one body.
    pub(crate) fn into_checked(self, root: Fr) -> Result<BodyDocument, DocumentError> {
        self.check(root)?;
        Ok(self.document)
    }
}

/// [`body`] without its check of a block's body against its header's root (which [`UncheckedBody`]
/// leaves to the caller's commitment): every other check is made, with the same errors.
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn body_unchecked(
    hasher: &dyn HashBackend,
    doc: Doc<'_>,
    protocol: ProtocolVersion,
) -> Result<UncheckedBody, DocumentError> {
    let document =
        doc.read(|raw| body_but_root(hasher, raw, protocol).map_err(|problem| problem.expecting("a body")))?;
    Ok(UncheckedBody { document, name: doc.name.to_owned() })
}

/// [`body`]'s reading, all but the check of a block's body against its header's root.
fn body_but_root(
    hasher: &dyn HashBackend,
    raw: Raw<'_>,
    protocol: ProtocolVersion,
) -> Result<BodyDocument, Problem> {
    let raw = unwrap_rpc(raw, protocol)?;
    match shape_of(raw, protocol, &[BODY, BLOCK_RESPONSE, L2_BLOCK], "a body")? {
        Some(shape) if shape == BLOCK_RESPONSE || shape == L2_BLOCK => {
            let (parts, body) = block_but_body(hasher, raw, shape, protocol)?;
            let body = body.ok_or(Problem::BlockWithoutBody)?;
            Ok(BodyDocument { body, block: Some(parts) })
        }
        _ => Ok(BodyDocument { body: read_body(raw, protocol)?, block: None }),
    }
}

/// A header document: the header, and the block around it when the document is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderDocument {
    /// The header.
    pub header: BlockHeader,
    /// The block the header came in (its claims checked, its body checked against the header
    /// where it has one), if the document is one.
    pub block: Option<BlockParts>,
}

/// Reads a header document in `protocol`'s layout (module docs); a block's claims and body are
/// checked against its header.
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn header(
    hasher: &dyn HashBackend,
    doc: Doc<'_>,
    protocol: ProtocolVersion,
) -> Result<HeaderDocument, DocumentError> {
    doc.read(|raw| {
        header_problem(hasher, raw, protocol).map_err(|problem| problem.expecting("a block header"))
    })
}

fn header_problem(
    hasher: &dyn HashBackend,
    raw: Raw<'_>,
    protocol: ProtocolVersion,
) -> Result<HeaderDocument, Problem> {
    let raw = unwrap_rpc(raw, protocol)?;
    match shape_of(raw, protocol, &[BLOCK_HEADER, BLOCK_RESPONSE, BLOCK_DATA, L2_BLOCK], "a block header")? {
        Some(shape) if shape != BLOCK_HEADER => {
            let (parts, _) = block(hasher, raw, shape, protocol)?;
            Ok(HeaderDocument { header: parts.header, block: Some(parts) })
        }
        _ => Ok(HeaderDocument { header: read_header(raw, protocol)?, block: None }),
    }
}

/// Reads a tx-effects witness (the node's JSON, or its JSON-RPC response) as `protocol` has it.
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn witness(doc: Doc<'_>, protocol: ProtocolVersion) -> Result<TxEffectMembershipWitness, DocumentError> {
    doc.read(|raw| {
        Ok(read_witness(unwrap_rpc(raw, protocol)?, protocol)
            .map_err(|e| e.expecting("a tx-effects witness"))?)
    })
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
    doc.read(|raw| {
        Ok(read_archive_witness(unwrap_rpc(raw, ProtocolVersion::V6)?)
            .map_err(|e| e.expecting("an archive witness"))?)
    })
}

/// Reads a category proof.
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn category_proof(doc: Doc<'_>) -> Result<CategoryProof, DocumentError> {
    doc.read(|raw| Ok(read_category_proof(raw).map_err(|e| e.expecting("a category proof"))?))
}

/// Reads a network's genesis values (`txfx networks`' shape); `given` names where they came
/// from when the document does not say (its `source`).
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn network(doc: Doc<'_>, given: &str) -> Result<Network, DocumentError> {
    doc.read(|raw| Ok(crate::json::read_network(raw, given).map_err(|e| e.expecting("a network"))?))
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

/// Reads txfx's decoded-checkpoint JSON, as a checkpoint of `protocol`.
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn checkpoint(doc: Doc<'_>, protocol: ProtocolVersion) -> Result<ParsedCheckpoint, DocumentError> {
    checkpoint_from_json(doc.input, protocol).map_err(|error| doc.error(error))
}
