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
//!
//! The shapes and the rule live in `shape.rs`, effect documents in `effect.rs`, block documents
//! (bodies and headers) in `block.rs`; this module holds the other documents' readers.

use txfx_membership::{
    ArchiveWitness, CategoryProof, Network, ProtocolVersion, StoredBlock, TxEffectMembershipWitness,
};
use txfx_poseidon::Fr;
use txfx_tx_effects::limits::MAX_TXS_PER_BLOCK;

use crate::error::{Doc, DocumentError};
use crate::json::fault::JsonType;
use crate::json::{ParsedCheckpoint, archive_witness_from_text, checkpoint_from_json, fields as field_list};
use crate::json::{
    archive::read_archive_witness, proof::read_category_proof, stored::read_stored_block,
    witness::read_witness,
};

mod block;
mod effect;
mod shape;

pub use block::{
    BlockKind, BlockParts, BodyDocument, HeaderDocument, UncheckedBody, body, body_unchecked, header,
};
pub use effect::{
    ClaimSource, EffectDocument, InBlock, MinedReceipt, TxReceipt, TxStatus, effect, tx_receipt,
};
use shape::unwrap_rpc;
pub(crate) use shape::{INDEXED_TX_EFFECT, TX_EFFECT, TX_RECEIPT, effect_or_body};

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
