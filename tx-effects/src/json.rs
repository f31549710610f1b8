//! JSON for tx effects and bodies, in the shape Aztec's TypeScript prints (`0x`-hex fields).
//!
//! ```json
//! {"revertCode":0,"txHash":"0x..","transactionFee":"0x..","noteHashes":[..],"nullifiers":[..],
//!  "l2ToL1Msgs":[..],"publicDataWrites":[{"leafSlot":"0x..","value":"0x.."}],
//!  "privateLogs":[{"fields":[..],"emittedLength":3}],
//!  "publicLogs":[{"contractAddress":"0x..","fields":[..]}],
//!  "contractClassLogs":[{"contractAddress":"0x..","fields":[..],"emittedLength":17}]}
//! ```
//!
//! Parsing is strict: unknown keys, non-hex or non-canonical (`>= p`) field elements, and any
//! protocol-rule violation are errors. The lists may be omitted when empty. Log `fields` may be
//! given zero-padded (16 for private logs, 3023 for the contract-class log) or emitted only;
//! padding that is not zero is refused, because the blob encoding would drop it. Printing
//! pads private logs to 16 as TypeScript does and prints a contract-class log's emitted fields.
//! A body is `{"txEffects":[...]}` (printed so, as TypeScript's `Body` schema wants), or a bare
//! JSON array of effects (read only).
//!
//! With the `serde` feature (default) [`TxEffect`] and [`Body`] implement `Serialize` and
//! `Deserialize` in these shapes; the functions here add errors that name the tx.

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
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct PublicDataWriteJson {
    #[serde(with = "serde_hex")]
    leaf_slot: Fr,
    #[serde(with = "serde_hex")]
    value: Fr,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct PrivateLogJson {
    #[serde(with = "serde_hex::vec")]
    fields: Vec<Fr>,
    emitted_length: u64,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct PublicLogJson {
    #[serde(with = "serde_hex")]
    contract_address: Fr,
    #[serde(with = "serde_hex::vec")]
    fields: Vec<Fr>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ContractClassLogJson {
    #[serde(with = "serde_hex")]
    contract_address: Fr,
    #[serde(with = "serde_hex::vec")]
    fields: Vec<Fr>,
    emitted_length: u64,
}

/// The wire form of one effect.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct TxEffectJson {
    revert_code: u64,
    #[serde(with = "serde_hex")]
    tx_hash: Fr,
    #[serde(with = "serde_hex")]
    transaction_fee: Fr,
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
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct BodyJson<E> {
    tx_effects: Vec<E>,
}

/// The emitted fields of a log given as `fields` + `emittedLength`, padding checked.
fn emitted_fields(
    category: Category,
    index: usize,
    mut fields: Vec<Fr>,
    emitted_length: u64,
    size: usize,
) -> Result<Vec<Fr>, TxEffectError> {
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
    if let Some(offset) = fields.get(length..).unwrap_or_default().iter().position(|f| *f != Fr::from(0u64)) {
        return Err(TxEffectError::LogPaddingNotZero { category, index, position: length + offset });
    }
    fields.truncate(length);
    Ok(fields)
}

impl TryFrom<TxEffectJson> for TxEffect {
    type Error = TxEffectError;
    fn try_from(json: TxEffectJson) -> Result<Self, TxEffectError> {
        let private_logs = json
            .private_logs
            .into_iter()
            .enumerate()
            .map(|(index, log)| {
                let fields = emitted_fields(
                    Category::PrivateLogs,
                    index,
                    log.fields,
                    log.emitted_length,
                    PRIVATE_LOG_SIZE_IN_FIELDS,
                )?;
                Ok(PrivateLog { fields })
            })
            .collect::<Result<_, TxEffectError>>()?;
        let contract_class_logs = json
            .contract_class_logs
            .into_iter()
            .enumerate()
            .map(|(index, log)| {
                let fields = emitted_fields(
                    Category::ContractClassLogs,
                    index,
                    log.fields,
                    log.emitted_length,
                    CONTRACT_CLASS_LOG_SIZE_IN_FIELDS,
                )?;
                Ok(ContractClassLog { contract_address: log.contract_address, fields })
            })
            .collect::<Result<_, TxEffectError>>()?;
        TxEffect::new(TxEffectFields {
            revert_code: RevertCode::from_code(json.revert_code)?,
            tx_hash: json.tx_hash,
            transaction_fee: json.transaction_fee,
            note_hashes: json.note_hashes,
            nullifiers: json.nullifiers,
            l2_to_l1_msgs: json.l2_to_l1_msgs,
            public_data_writes: json
                .public_data_writes
                .into_iter()
                .map(|w| PublicDataWrite { leaf_slot: w.leaf_slot, value: w.value })
                .collect(),
            private_logs,
            public_logs: json
                .public_logs
                .into_iter()
                .map(|log| PublicLog { contract_address: log.contract_address, fields: log.fields })
                .collect(),
            contract_class_logs,
        })
    }
}

impl From<&TxEffect> for TxEffectJson {
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
                    fields: log.fields.clone(),
                    emitted_length: log.fields.len() as u64,
                })
                .collect(),
        }
    }
}

/// `TxEffect` serializes as TypeScript's JSON (module docs).
impl Serialize for TxEffect {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        TxEffectJson::from(self).serialize(serializer)
    }
}

/// `TxEffect` deserializes from TypeScript's JSON, with every protocol rule checked.
impl<'de> Deserialize<'de> for TxEffect {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let json = TxEffectJson::deserialize(deserializer)?;
        TxEffect::try_from(json).map_err(serde::de::Error::custom)
    }
}

/// `Body` serializes as `{"txEffects": [...]}`, the shape TypeScript's `Body` schema takes.
impl Serialize for Body {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        BodyJson { tx_effects: self.tx_effects.iter().map(TxEffectJson::from).collect() }
            .serialize(serializer)
    }
}

/// `Body` deserializes from `{"txEffects": [...]}` (use [`body_from_json`] to also take a bare
/// array and get errors that name the tx).
impl<'de> Deserialize<'de> for Body {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let json = BodyJson::<TxEffect>::deserialize(deserializer)?;
        if json.tx_effects.len() > MAX_TXS_PER_BLOCK {
            return Err(serde::de::Error::custom(JsonError::TooManyTxs {
                count: json.tx_effects.len(),
                max: MAX_TXS_PER_BLOCK,
            }));
        }
        Ok(Body::new(json.tx_effects))
    }
}

/// Parses one effect.
///
/// # Errors
/// [`JsonError::Malformed`] for bad JSON, [`JsonError::Invalid`] (tx 0) for a rule broken.
pub fn effect_from_json(text: &str) -> Result<TxEffect, JsonError> {
    let json: TxEffectJson = serde_json::from_str(text)?;
    TxEffect::try_from(json).map_err(|source| JsonError::Invalid { tx: 0, source })
}

/// One effect as a JSON value (TypeScript's shape).
pub fn effect_to_json(effect: &TxEffect) -> serde_json::Value {
    to_value(TxEffectJson::from(effect))
}

/// A value of one of this module's wire types, which hold only strings, numbers, arrays and
/// string-keyed objects: serde_json cannot fail on them.
#[allow(clippy::expect_used, reason = "an internal invariant: a failure must be loud, never JSON null")]
fn to_value(wire: impl Serialize) -> serde_json::Value {
    serde_json::to_value(wire).expect("invariant: the wire types always convert to JSON")
}

/// Parses a body: `{"txEffects": [...]}` (TypeScript's shape), or a bare JSON array of effects.
///
/// # Errors
/// [`JsonError`] naming the first bad tx.
pub fn body_from_json(text: &str) -> Result<Body, JsonError> {
    let effects: Vec<TxEffectJson> = if text.trim_start().starts_with('{') {
        serde_json::from_str::<BodyJson<TxEffectJson>>(text)?.tx_effects
    } else {
        serde_json::from_str(text)?
    };
    if effects.len() > MAX_TXS_PER_BLOCK {
        return Err(JsonError::TooManyTxs { count: effects.len(), max: MAX_TXS_PER_BLOCK });
    }
    let tx_effects = effects
        .into_iter()
        .enumerate()
        .map(|(tx, json)| TxEffect::try_from(json).map_err(|source| JsonError::Invalid { tx, source }))
        .collect::<Result<_, _>>()?;
    Ok(Body::new(tx_effects))
}

/// A body as a JSON value: `{"txEffects": [...]}`, the shape TypeScript's `Body` schema takes.
pub fn body_to_json(body: &Body) -> serde_json::Value {
    to_value(BodyJson { tx_effects: body.tx_effects.iter().map(TxEffectJson::from).collect() })
}
