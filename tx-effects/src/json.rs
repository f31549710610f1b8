//! JSON for tx effects and bodies, exactly as Aztec's TypeScript (`@aztec/stdlib` 4.1.2) prints and
//! reads them (docs/spec.md §12.1).
//!
//! ```json
//! {"revertCode":0,"txHash":"0x..","transactionFee":"0x..","noteHashes":[..],"nullifiers":[..],
//!  "l2ToL1Msgs":[..],"publicDataWrites":[{"leafSlot":"0x..","value":"0x.."}],
//!  "privateLogs":[{"fields":[16 fields],"emittedLength":3}],
//!  "publicLogs":[{"contractAddress":"0x..","fields":[..]}],
//!  "contractClassLogs":[{"contractAddress":"0x..","fields":{"fields":[3023 fields]},"emittedLength":17}]}
//! ```
//!
//! Reading follows TypeScript's schemas:
//! - unknown keys are ignored at every level (the next node version may add some), except in a
//!   private log, whose schema is strict;
//! - a field element is `0x` + 1..64 hex digits of either case, or a string of decimal digits,
//!   read as decimal (`Fr.fromString`); values `>= p` are refused; a `txHash` must be exactly 32
//!   bytes of hex (64 digits, `0x` optional), as `TxHash`'s schema wants;
//! - `revertCode` is 0 to 3;
//! - a contract-class log's `fields` is TypeScript's nested `{"fields": [exactly 3023]}`, or, as
//!   a convenience, a flat array of its emitted fields (with or without the zero padding);
//! - the node's `getTxEffect` result (`{"l2BlockNumber", "l2BlockHash", "data": <TxEffect>,
//!   "txIndexInBlock"}`) is read as its effect, and its `getBlock` result (`L2Block` JSON, with
//!   `"header"` and `"body": {"txEffects": [...]}`) as its body.
//!
//! What stays strict: a contract-class log's fields past its `emittedLength` must be zero (its
//! hash covers all 3023), lengths must fit the protocol's limits, and every protocol rule of
//! [`TxEffect::new`] holds. The lists may be omitted when empty.
//!
//! A private log's fields past its `emittedLength` may be nonzero, as TypeScript's schema allows.
//! They are not part of the blob encoding (TypeScript's drops them) and so not of the commitment;
//! txfx keeps them in [`PrivateLog::padding`] only so that printing gives back what was read.
//!
//! Printing gives TypeScript's exact shape: every key, private logs padded to 16 fields,
//! contract-class logs nested and padded to 3023. A body prints as `{"txEffects":[...]}` (a bare
//! JSON array of effects is read too).
//!
//! With the `serde` feature (default) [`TxEffect`] and [`Body`] implement `Serialize` and
//! `Deserialize` in these shapes; the functions here add errors that name the tx.

mod checkpoint;

pub use checkpoint::{ParsedCheckpoint, checkpoint_from_json, checkpoint_to_json};

use serde::{Deserialize, Serialize};
use txfx_poseidon::Fr;
use txfx_poseidon::field::serde_hex;

use crate::limits::{CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, MAX_TXS_PER_BLOCK, PRIVATE_LOG_SIZE_IN_FIELDS};
use crate::model::{
    Body, Category, ContractClassLog, PrivateLog, PublicDataWrite, PublicLog, RevertCode, TxEffect,
    TxEffectError, TxEffectFields,
};

/// JSON that does not describe a legal tx effect or body.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum JsonError {
    /// Not JSON, or not the expected shape (an unknown key, a bad hex string, a value `>= p`).
    #[error("malformed JSON at line {line}, column {column}: {message}")]
    Malformed {
        /// The line of the error (1-based; 0 when the error is not tied to a position).
        line: usize,
        /// The column of the error (1-based; 0 when not tied to a position).
        column: usize,
        /// What was wrong.
        message: String,
    },
    /// Well-formed, but an effect breaks a protocol rule.
    #[error("tx {tx}: {source}")]
    Invalid {
        /// The effect's position in the body (0 for a single effect).
        tx: usize,
        /// The rule broken.
        source: TxEffectError,
    },
    /// Inside block `block` of a checkpoint.
    #[error("block {block}: {source}")]
    InBlock {
        /// The block's index within the checkpoint.
        block: usize,
        /// What is wrong there.
        source: Box<JsonError>,
    },
    /// A value the input gives disagrees with the one derived from the rest of it.
    #[error("{what} is {given}, but the data gives {actual}")]
    Disagrees {
        /// The key (TypeScript's name).
        what: &'static str,
        /// The value given.
        given: u64,
        /// The value derived.
        actual: u64,
    },
    /// Well-formed, but not an encodable checkpoint.
    #[error(transparent)]
    Checkpoint(#[from] crate::checkpoint::CheckpointError),
    /// More txs than a block may hold.
    #[error("a body holds at most {max} txs, got {count}")]
    TooManyTxs {
        /// Txs given.
        count: usize,
        /// The limit.
        max: usize,
    },
}

impl From<serde_json::Error> for JsonError {
    fn from(error: serde_json::Error) -> Self {
        // serde_json appends " at line L column C" to its message; the position has its own fields.
        let message = error.to_string();
        let message = match message.rfind(" at line ") {
            Some(at) if error.line() > 0 => message[..at].to_owned(),
            _ => message,
        };
        Self::Malformed { line: error.line(), column: error.column(), message }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PublicDataWriteJson {
    #[serde(with = "serde_hex")]
    leaf_slot: Fr,
    #[serde(with = "serde_hex")]
    value: Fr,
}

/// TypeScript's private-log schema is the one strict schema: unknown keys are refused.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct PrivateLogJson {
    #[serde(with = "serde_hex::vec")]
    fields: Vec<Fr>,
    emitted_length: u64,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PublicLogJson {
    #[serde(with = "serde_hex")]
    contract_address: Fr,
    #[serde(with = "serde_hex::vec")]
    fields: Vec<Fr>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ContractClassLogJson {
    #[serde(with = "serde_hex")]
    contract_address: Fr,
    fields: ContractClassLogFieldsJson,
    emitted_length: u64,
}

/// A contract-class log's fields: TypeScript's nested `{"fields": [3023]}` (printed), or a flat
/// array (read only).
struct ContractClassLogFieldsJson(Vec<Fr>);

#[derive(Serialize, Deserialize)]
struct NestedFieldsJson {
    #[serde(with = "serde_hex::vec")]
    fields: Vec<Fr>,
}

impl Serialize for ContractClassLogFieldsJson {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut fields = self.0.clone();
        fields.resize(CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, Fr::from(0u64));
        NestedFieldsJson { fields }.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for ContractClassLogFieldsJson {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Either;
        impl<'de> serde::de::Visitor<'de> for Either {
            type Value = ContractClassLogFieldsJson;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("{\"fields\": [3023 field elements]} or an array of field elements")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                serde_hex::vec::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))
                    .map(ContractClassLogFieldsJson)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                let nested =
                    NestedFieldsJson::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                if nested.fields.len() != CONTRACT_CLASS_LOG_SIZE_IN_FIELDS {
                    return Err(serde::de::Error::custom(format!(
                        "a contract-class log's nested fields hold exactly {CONTRACT_CLASS_LOG_SIZE_IN_FIELDS} elements, got {}",
                        nested.fields.len()
                    )));
                }
                Ok(ContractClassLogFieldsJson(nested.fields))
            }
        }
        deserializer.deserialize_any(Either)
    }
}

/// A `txHash`: exactly 32 bytes of hex, `0x` optional (TypeScript's `TxHash` schema).
mod tx_hash {
    use super::Fr;
    use serde::Deserialize;
    use txfx_poseidon::field::parse_fr_hex;

    pub(super) fn deserialize<'de, D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Fr>, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        let digits = text.strip_prefix("0x").unwrap_or(&text);
        if digits.len() != 64 {
            return Err(serde::de::Error::custom(format!(
                "txHash {text:?}: a tx hash is 32 bytes, 64 hex digits, got {}",
                digits.len()
            )));
        }
        parse_fr_hex(&format!("0x{digits}"))
            .map(Some)
            .map_err(|error| serde::de::Error::custom(format!("txHash {text:?}: {error}")))
    }
}

/// An optional field element, for keys that an effect requires but a node result does not have.
mod optional_fr {
    use super::Fr;
    use txfx_poseidon::field::serde_hex;

    pub(super) fn deserialize<'de, D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Fr>, D::Error> {
        serde_hex::deserialize(deserializer).map(Some)
    }
}

/// The printed form of one effect: every key, in TypeScript's order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TxEffectOut {
    revert_code: u64,
    #[serde(with = "serde_hex")]
    tx_hash: Fr,
    #[serde(with = "serde_hex")]
    transaction_fee: Fr,
    #[serde(with = "serde_hex::vec")]
    note_hashes: Vec<Fr>,
    #[serde(with = "serde_hex::vec")]
    nullifiers: Vec<Fr>,
    #[serde(with = "serde_hex::vec", rename = "l2ToL1Msgs")]
    l2_to_l1_msgs: Vec<Fr>,
    public_data_writes: Vec<PublicDataWriteJson>,
    private_logs: Vec<PrivateLogJson>,
    public_logs: Vec<PublicLogJson>,
    contract_class_logs: Vec<ContractClassLogJson>,
}

/// The read form of one effect, or of a node's `getTxEffect` result around one (`data`).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TxEffectJson {
    revert_code: Option<u64>,
    #[serde(default, deserialize_with = "tx_hash::deserialize")]
    tx_hash: Option<Fr>,
    #[serde(default, deserialize_with = "optional_fr::deserialize")]
    transaction_fee: Option<Fr>,
    #[serde(default, with = "serde_hex::vec")]
    note_hashes: Vec<Fr>,
    #[serde(default, with = "serde_hex::vec")]
    nullifiers: Vec<Fr>,
    #[serde(default, with = "serde_hex::vec", rename = "l2ToL1Msgs")]
    l2_to_l1_msgs: Vec<Fr>,
    #[serde(default)]
    public_data_writes: Vec<PublicDataWriteJson>,
    #[serde(default)]
    private_logs: Vec<PrivateLogJson>,
    #[serde(default)]
    public_logs: Vec<PublicLogJson>,
    #[serde(default)]
    contract_class_logs: Vec<ContractClassLogJson>,
    /// The effect inside a node's `getTxEffect` result.
    data: Option<Box<TxEffectJson>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BodyOut {
    tx_effects: Vec<TxEffectOut>,
}

/// The read form of a body: `{"txEffects": [...]}`, or a node's `getBlock` result (`L2Block`
/// JSON) with the body under `body` and the block number in its header.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct BodyJson {
    tx_effects: Option<Vec<TxEffectJson>>,
    body: Option<InnerBodyJson>,
    header: Option<HeaderJson>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct InnerBodyJson {
    tx_effects: Vec<TxEffectJson>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct HeaderJson {
    global_variables: Option<GlobalVariablesJson>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GlobalVariablesJson {
    block_number: Option<u64>,
}

/// A log given as `fields` + `emittedLength`: its emitted fields, and the fields after them with
/// trailing zeros dropped (what a private log keeps as its padding).
fn split_log(
    category: Category,
    index: usize,
    mut fields: Vec<Fr>,
    emitted_length: u64,
    size: usize,
) -> Result<(Vec<Fr>, Vec<Fr>), TxEffectError> {
    let length = usize::try_from(emitted_length).unwrap_or(usize::MAX);
    if !(1..=size).contains(&length) {
        return Err(TxEffectError::LogLength { category, index, length, min: 1, max: size });
    }
    if fields.len() > size {
        return Err(TxEffectError::LogTooManyFields { category, index, fields: fields.len(), max: size });
    }
    if fields.len() < length {
        return Err(TxEffectError::LogFieldsShorterThanLength {
            category,
            index,
            emitted_length: length,
            fields: fields.len(),
        });
    }
    let mut padding = fields.split_off(length);
    let kept = padding.iter().rposition(|f| *f != Fr::from(0u64)).map_or(0, |last| last + 1);
    padding.truncate(kept);
    Ok((fields, padding))
}

/// The emitted fields of a log given as `fields` + `emittedLength`, padding checked to be zero.
fn emitted_fields(
    category: Category,
    index: usize,
    fields: Vec<Fr>,
    emitted_length: u64,
    size: usize,
) -> Result<Vec<Fr>, TxEffectError> {
    let (emitted, padding) = split_log(category, index, fields, emitted_length, size)?;
    if let Some(offset) = padding.iter().position(|f| *f != Fr::from(0u64)) {
        return Err(TxEffectError::LogPaddingNotZero { category, index, position: emitted.len() + offset });
    }
    Ok(emitted)
}

/// Why a read effect is not a `TxEffect`: a key it must have is missing, or a rule is broken.
enum Unreadable {
    Missing(&'static str),
    Invalid(TxEffectError),
}

impl From<TxEffectError> for Unreadable {
    fn from(error: TxEffectError) -> Self {
        Self::Invalid(error)
    }
}

impl core::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Missing(key) => write!(f, "missing key {key:?}"),
            Self::Invalid(error) => error.fmt(f),
        }
    }
}

impl Unreadable {
    fn into_json_error(self, tx: usize) -> JsonError {
        match self {
            Self::Missing(key) => JsonError::Malformed {
                line: 0,
                column: 0,
                message: format!(
                    "tx {tx}: missing key {key:?} (a tx effect, or a getTxEffect result with \"data\")"
                ),
            },
            Self::Invalid(source) => JsonError::Invalid { tx, source },
        }
    }
}

impl TxEffectJson {
    /// The effect, from the effect's own keys or, for a node result, from `data`.
    fn into_effect(self) -> Result<TxEffect, Unreadable> {
        if let Some(data) = self.data
            && self.tx_hash.is_none()
        {
            return data.into_effect();
        }
        let revert_code = self.revert_code.ok_or(Unreadable::Missing("revertCode"))?;
        let tx_hash = self.tx_hash.ok_or(Unreadable::Missing("txHash"))?;
        let transaction_fee = self.transaction_fee.ok_or(Unreadable::Missing("transactionFee"))?;
        let private_logs = self
            .private_logs
            .into_iter()
            .enumerate()
            .map(|(index, log)| {
                let (fields, padding) = split_log(
                    Category::PrivateLogs,
                    index,
                    log.fields,
                    log.emitted_length,
                    PRIVATE_LOG_SIZE_IN_FIELDS,
                )?;
                Ok(PrivateLog { fields, padding })
            })
            .collect::<Result<_, TxEffectError>>()?;
        let contract_class_logs = self
            .contract_class_logs
            .into_iter()
            .enumerate()
            .map(|(index, log)| {
                let fields = emitted_fields(
                    Category::ContractClassLogs,
                    index,
                    log.fields.0,
                    log.emitted_length,
                    CONTRACT_CLASS_LOG_SIZE_IN_FIELDS,
                )?;
                Ok(ContractClassLog { contract_address: log.contract_address, fields })
            })
            .collect::<Result<_, TxEffectError>>()?;
        Ok(TxEffect::new(TxEffectFields {
            revert_code: RevertCode::from_code(revert_code)?,
            tx_hash,
            transaction_fee,
            note_hashes: self.note_hashes,
            nullifiers: self.nullifiers,
            l2_to_l1_msgs: self.l2_to_l1_msgs,
            public_data_writes: self
                .public_data_writes
                .into_iter()
                .map(|w| PublicDataWrite { leaf_slot: w.leaf_slot, value: w.value })
                .collect(),
            private_logs,
            public_logs: self
                .public_logs
                .into_iter()
                .map(|log| PublicLog { contract_address: log.contract_address, fields: log.fields })
                .collect(),
            contract_class_logs,
        })?)
    }
}

impl From<&TxEffect> for TxEffectOut {
    fn from(effect: &TxEffect) -> Self {
        Self {
            revert_code: u64::from(effect.revert_code.code()),
            tx_hash: effect.tx_hash,
            transaction_fee: effect.transaction_fee,
            note_hashes: effect.note_hashes.clone(),
            nullifiers: effect.nullifiers.clone(),
            l2_to_l1_msgs: effect.l2_to_l1_msgs.clone(),
            public_data_writes: effect
                .public_data_writes
                .iter()
                .map(|w| PublicDataWriteJson { leaf_slot: w.leaf_slot, value: w.value })
                .collect(),
            private_logs: effect
                .private_logs
                .iter()
                .map(|log| {
                    let mut fields = log.fields.clone();
                    fields.extend_from_slice(&log.padding);
                    fields.resize(PRIVATE_LOG_SIZE_IN_FIELDS, Fr::from(0u64));
                    PrivateLogJson { fields, emitted_length: log.fields.len() as u64 }
                })
                .collect(),
            public_logs: effect
                .public_logs
                .iter()
                .map(|log| PublicLogJson {
                    contract_address: log.contract_address,
                    fields: log.fields.clone(),
                })
                .collect(),
            contract_class_logs: effect
                .contract_class_logs
                .iter()
                .map(|log| ContractClassLogJson {
                    contract_address: log.contract_address,
                    fields: ContractClassLogFieldsJson(log.fields.clone()),
                    emitted_length: log.fields.len() as u64,
                })
                .collect(),
        }
    }
}

/// `TxEffect` serializes as TypeScript's JSON (module docs).
impl Serialize for TxEffect {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        TxEffectOut::from(self).serialize(serializer)
    }
}

/// `TxEffect` deserializes from TypeScript's JSON (or a `getTxEffect` result), with every
/// protocol rule checked.
impl<'de> Deserialize<'de> for TxEffect {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        TxEffectJson::deserialize(deserializer)?.into_effect().map_err(serde::de::Error::custom)
    }
}

/// `Body` serializes as `{"txEffects": [...]}`, the shape TypeScript's `Body` schema takes.
impl Serialize for Body {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        BodyOut { tx_effects: self.tx_effects.iter().map(TxEffectOut::from).collect() }.serialize(serializer)
    }
}

/// `Body` deserializes from `{"txEffects": [...]}` or `L2Block` JSON (use [`body_from_json`] to
/// also take a bare array and get errors that name the tx).
impl<'de> Deserialize<'de> for Body {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let json = BodyJson::deserialize(deserializer)?;
        body_from_effects(effects_of(json).map_err(serde::de::Error::custom)?.0)
            .map_err(serde::de::Error::custom)
    }
}

/// The effects of a read body and the block number its header gives, if it has one.
fn effects_of(json: BodyJson) -> Result<(Vec<TxEffectJson>, Option<u64>), JsonError> {
    let block_number = json.header.and_then(|header| header.global_variables).and_then(|g| g.block_number);
    match (json.tx_effects, json.body) {
        (Some(effects), _) => Ok((effects, block_number)),
        (None, Some(body)) => Ok((body.tx_effects, block_number)),
        (None, None) => Err(JsonError::Malformed {
            line: 0,
            column: 0,
            message: "a body has \"txEffects\" (or, in L2Block JSON, \"body\": {\"txEffects\": [...]})"
                .to_owned(),
        }),
    }
}

fn body_from_effects(effects: Vec<TxEffectJson>) -> Result<Body, JsonError> {
    if effects.len() > MAX_TXS_PER_BLOCK {
        return Err(JsonError::TooManyTxs { count: effects.len(), max: MAX_TXS_PER_BLOCK });
    }
    let tx_effects = effects
        .into_iter()
        .enumerate()
        .map(|(tx, json)| json.into_effect().map_err(|error| error.into_json_error(tx)))
        .collect::<Result<_, _>>()?;
    Ok(Body::new(tx_effects))
}

/// Parses one effect, or a node's `getTxEffect` result around one.
///
/// # Errors
/// [`JsonError::Malformed`] for bad JSON, [`JsonError::Invalid`] (tx 0) for a rule broken.
pub fn effect_from_json(text: &str) -> Result<TxEffect, JsonError> {
    let json: TxEffectJson = serde_json::from_str(text)?;
    json.into_effect().map_err(|error| error.into_json_error(0))
}

/// One effect as a JSON value (TypeScript's shape).
pub fn effect_to_json(effect: &TxEffect) -> serde_json::Value {
    to_value(TxEffectOut::from(effect))
}

/// A value of one of this module's wire types, which hold only strings, numbers, arrays and
/// string-keyed objects: serde_json cannot fail on them.
#[allow(clippy::expect_used, reason = "an internal invariant: a failure must be loud, never JSON null")]
fn to_value(wire: impl Serialize) -> serde_json::Value {
    serde_json::to_value(wire).expect("invariant: the wire types always convert to JSON")
}

/// A body read from JSON, with the block number when the input says it (an `L2Block`'s header).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedBody {
    /// The body.
    pub body: Body,
    /// `header.globalVariables.blockNumber` of `L2Block` JSON; `None` for a bare body.
    pub block_number: Option<u64>,
}

/// Parses a body: `{"txEffects": [...]}` (TypeScript's shape), a node's `getBlock` result
/// (`L2Block` JSON), or a bare JSON array of effects.
///
/// # Errors
/// [`JsonError`] naming the first bad tx.
pub fn body_from_json(text: &str) -> Result<Body, JsonError> {
    Ok(parsed_body_from_json(text)?.body)
}

/// [`body_from_json`], also giving the block number of `L2Block` JSON.
///
/// # Errors
/// [`JsonError`] naming the first bad tx.
pub fn parsed_body_from_json(text: &str) -> Result<ParsedBody, JsonError> {
    let (effects, block_number) = if text.trim_start().starts_with('{') {
        effects_of(serde_json::from_str::<BodyJson>(text)?)?
    } else {
        (serde_json::from_str(text)?, None)
    };
    Ok(ParsedBody { body: body_from_effects(effects)?, block_number })
}

/// A body as a JSON value: `{"txEffects": [...]}`, the shape TypeScript's `Body` schema takes.
pub fn body_to_json(body: &Body) -> serde_json::Value {
    to_value(BodyOut { tx_effects: body.tx_effects.iter().map(TxEffectOut::from).collect() })
}
