//! The shapes a document may have, told apart by their keys (the rule of [`super`]'s docs), and
//! the JSON-RPC response a node result may come in.

use txfx_membership::ProtocolVersion;
use txfx_tx_effects::limits::MAX_TXS_PER_BLOCK;

use crate::error::{Problem, RpcProblem};
use crate::json::fault::{JsonType, Malformation, Quoted};
use crate::json::wire::{Integer, Object, Raw};

/// One shape a document may have, and the keys that tell it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shape {
    /// The shape's name in messages.
    pub(crate) name: &'static str,
    /// Every key the shape's TypeScript schema reads.
    pub(crate) keys: &'static [&'static str],
    /// The keys a document of this shape always has.
    pub(crate) required: &'static [&'static str],
    /// Whether the shape exists only in v6.
    pub(crate) v6_only: bool,
}

impl Shape {
    /// Whether `protocol` has this shape.
    pub(crate) fn in_protocol(&self, protocol: ProtocolVersion) -> bool {
        !self.v6_only || protocol == ProtocolVersion::V6
    }
}

/// TypeScript's `TxEffect`.
pub(crate) const TX_EFFECT: Shape = Shape {
    name: "a tx effect",
    keys: &crate::json::effect::EFFECT_KEYS,
    required: &crate::json::effect::EFFECT_KEYS,
    v6_only: false,
};

/// The keys of the node's `getTxEffect` result (TypeScript's `IndexedTxEffect`); v6 adds
/// `slotNumber`.
const INDEXED_KEYS: [&str; 5] = ["l2BlockNumber", "l2BlockHash", "data", "txIndexInBlock", "slotNumber"];

/// The node's `getTxEffect` result (TypeScript's `IndexedTxEffect`).
pub(crate) const INDEXED_TX_EFFECT: Shape = Shape {
    name: "a getTxEffect result",
    keys: &INDEXED_KEYS,
    required: &["l2BlockNumber", "l2BlockHash", "data", "txIndexInBlock"],
    v6_only: false,
};

/// The keys of v6's `TxReceipt` (its pending, dropped and mined forms together).
pub(super) const RECEIPT_KEYS: [&str; 13] = [
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
pub(crate) const TX_RECEIPT: Shape =
    Shape { name: "a tx receipt", keys: &RECEIPT_KEYS, required: &["txHash", "status"], v6_only: true };

/// TypeScript's `Body`.
pub(crate) const BODY: Shape =
    Shape { name: "a body", keys: &["txEffects"], required: &["txEffects"], v6_only: false };

/// The keys of TypeScript's `L2Block`.
const L2_BLOCK_KEYS: [&str; 5] = ["archive", "header", "body", "checkpointNumber", "indexWithinCheckpoint"];

/// TypeScript's `L2Block` (4.1.2's `getBlock` result; in v6 the blocks of a checkpoint).
pub(crate) const L2_BLOCK: Shape =
    Shape { name: "an L2Block", keys: &L2_BLOCK_KEYS, required: &L2_BLOCK_KEYS, v6_only: false };

/// v6's `BlockResponse` (`getBlock`, `getBlocks`): `body` only when asked for with
/// `includeTransactions`, `l1` and `attestations` when asked for.
pub(crate) const BLOCK_RESPONSE: Shape = Shape {
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
pub(crate) const BLOCK_DATA: Shape =
    Shape { name: "block data", keys: &BLOCK_DATA_KEYS, required: &BLOCK_DATA_KEYS, v6_only: true };

/// TypeScript's `BlockHeader`, either layout (`txEffectsTreeRoot` is the layout's to require).
pub(crate) const BLOCK_HEADER: Shape = Shape {
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
pub(crate) const LENIENT_SHAPES: [Shape; 8] =
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
pub(super) fn shape_of(
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
pub(super) fn unwrap_rpc(raw: Raw<'_>, protocol: ProtocolVersion) -> Result<Raw<'_>, Problem> {
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
