//! Effect documents: an effect, the node's `getTxEffect` result around one, and v6's
//! `getTxReceipt` answer, with the claims each makes about where its tx is.

use txfx_membership::ProtocolVersion;
use txfx_poseidon::Fr;
use txfx_tx_effects::{BlockNumber, RevertCode, TxEffect};

use crate::error::{Doc, DocumentError, Problem};
use crate::json::node_answer::check_debug_logs;
use crate::json::wire::{Integer, MAX_SAFE_INTEGER, Raw};
use crate::json::{JsonError, hex_field};
use crate::json::{effect::read_effect, header::read_block_number};

use super::shape::{INDEXED_TX_EFFECT, RECEIPT_KEYS, TX_EFFECT, TX_RECEIPT, shape_of, unwrap_rpc};

/// What a node's answer claims about where a tx is: a `getTxEffect` result or a mined
/// `getTxReceipt` answer. Every claim is either checked against what a verification proves or
/// listed as unverified, never taken as a fact.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
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

    /// The status named `name`, if v6 has one.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::NAMES.iter().find(|(known, _)| *known == name).map(|(_, status)| *status)
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
        raw.named(
            "a tx status (pending, dropped, proposed, checkpointed, proven, finalized)",
            TxStatus::from_name,
        )
        .map_err(JsonError::from)
    })?;
    match status {
        TxStatus::Pending => return Ok(TxReceipt::Pending { tx_hash }),
        TxStatus::Dropped => return Ok(TxReceipt::Dropped { tx_hash }),
        _ => {}
    }
    let reverted = object.read("executionResult", |raw| {
        let reverted = |name: &str| match name {
            "success" => Some(false),
            "reverted" => Some(true),
            _ => None,
        };
        raw.named("an execution result (success, reverted)", reverted).map_err(JsonError::from)
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
