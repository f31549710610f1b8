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
//! Reading follows TypeScript's schemas (`TxEffect.schema`, `Body.schema`), and reads nothing they
//! would not:
//! - every one of the ten keys is required, as are `leafSlot` and `value`, a log's
//!   `contractAddress` and `fields`, and `emittedLength`;
//! - unknown keys are ignored (the next node version may add some), except in a private log,
//!   whose schema is strict;
//! - a field element is `0x` + 1..64 hex digits of either case, or a string of decimal digits,
//!   read as decimal (`Fr.fromString`); values `>= p` are refused; a `txHash` must be exactly 32
//!   bytes of hex (64 digits, `0x` optional), as `TxHash`'s schema wants;
//! - `revertCode` is 0 to 3;
//! - a contract-class log's `fields` is TypeScript's nested `{"fields": [exactly 3023]}`.
//!
//! What stays strict beyond TypeScript: a contract-class log's fields past its `emittedLength`
//! must be zero (its hash covers all 3023), lengths must fit the protocol's limits, and every
//! protocol rule of [`TxEffect::new`] holds.
//!
//! A private log's fields past its `emittedLength` may be nonzero, as TypeScript's schema allows.
//! They are not part of the blob encoding (TypeScript's drops them) and so not of the commitment;
//! txfx keeps them in `PrivateLog::padding` only so that printing gives back what was read, and
//! a verifier refuses an effect that carries them (`txfx-membership`).
//!
//! Printing gives TypeScript's exact shape: every key, private logs padded to 16 fields,
//! contract-class logs nested and padded to 3023. A body prints as `{"txEffects":[...]}` (a bare
//! JSON array of effects is read too).

use serde::{Deserialize, Serialize};
use txfx_poseidon::Fr;
use txfx_poseidon::field::serde_hex;
use txfx_tx_effects::limits::{
    CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, MAX_TXS_PER_BLOCK, PRIVATE_LOG_SIZE_IN_FIELDS,
};
use txfx_tx_effects::{
    Body, Category, ContractClassLog, PrivateLog, PublicDataWrite, PublicLog, RevertCode, TxEffect,
    TxEffectError, TxEffectFields,
};

use super::JsonError;
use super::wire::{self, JsonInput};

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

/// A contract-class log's fields: TypeScript's nested `{"fields": [exactly 3023]}`.
struct ContractClassLogFieldsJson(Vec<Fr>);

#[derive(Serialize, Deserialize)]
struct NestedFieldsJson {
    #[serde(deserialize_with = "nested_fields")]
    #[serde(serialize_with = "serde_hex::vec::serialize")]
    fields: Vec<Fr>,
}

/// Exactly 3023 field elements, read no further than one past them.
fn nested_fields<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<Fr>, D::Error> {
    let fields = serde_hex::vec::deserialize_at_most(deserializer, CONTRACT_CLASS_LOG_SIZE_IN_FIELDS + 1)?;
    if fields.len() != CONTRACT_CLASS_LOG_SIZE_IN_FIELDS {
        return Err(serde::de::Error::custom(format!(
            "a contract-class log's nested fields hold exactly {CONTRACT_CLASS_LOG_SIZE_IN_FIELDS} elements, got {}",
            if fields.len() > CONTRACT_CLASS_LOG_SIZE_IN_FIELDS {
                "more".to_owned()
            } else {
                fields.len().to_string()
            }
        )));
    }
    Ok(fields)
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
        NestedFieldsJson::deserialize(deserializer).map(|nested| Self(nested.fields))
    }
}

/// A `txHash`: exactly 32 bytes of hex, `0x` optional (TypeScript's `TxHash` schema).
mod tx_hash {
    use super::Fr;
    use serde::Deserialize;
    use txfx_poseidon::field::parse_fr_hex;

    pub(super) fn deserialize<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Fr, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        let digits = text.strip_prefix("0x").unwrap_or(&text);
        if digits.len() != 64 {
            return Err(serde::de::Error::custom(format!(
                "txHash {text:?}: a tx hash is 32 bytes, 64 hex digits, got {}",
                digits.len()
            )));
        }
        parse_fr_hex(&format!("0x{digits}"))
            .map_err(|error| serde::de::Error::custom(format!("txHash {text:?}: {error}")))
    }
}

/// The printed form of one effect: every key, in TypeScript's order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct TxEffectOut {
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

/// The read form of one effect: TypeScript's `TxEffect.schema`, every key required.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct TxEffectJson {
    revert_code: u64,
    #[serde(deserialize_with = "tx_hash::deserialize")]
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

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct BodyOut {
    pub(super) tx_effects: Vec<TxEffectOut>,
}

/// The read form of a body: TypeScript's `Body.schema`, `{"txEffects": [...]}`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct BodyJson {
    #[serde(deserialize_with = "effects")]
    pub(super) tx_effects: Vec<TxEffectJson>,
}

/// At most [`MAX_TXS_PER_BLOCK`] effects, read no further.
fn effects<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<TxEffectJson>, D::Error> {
    wire::deserialize_at_most(deserializer, MAX_TXS_PER_BLOCK)
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

impl TxEffectJson {
    /// The effect, with every protocol rule checked.
    fn into_effect(self) -> Result<TxEffect, TxEffectError> {
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
        TxEffect::new(TxEffectFields {
            revert_code: RevertCode::from_code(self.revert_code)?,
            tx_hash: self.tx_hash,
            transaction_fee: self.transaction_fee,
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
        })
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

pub(super) fn body_from_effects(effects: Vec<TxEffectJson>) -> Result<Body, JsonError> {
    let tx_effects = effects
        .into_iter()
        .enumerate()
        .map(|(tx, json)| json.into_effect().map_err(|source| JsonError::Invalid { tx: Some(tx), source }))
        .collect::<Result<_, _>>()?;
    Ok(Body::new(tx_effects))
}

/// Reads one effect, as TypeScript's `TxEffect.schema` does.
///
/// # Errors
/// [`JsonError::Malformed`] for JSON that is not an effect, [`JsonError::Invalid`] for a rule
/// broken.
///
/// # Example
/// ```
/// use txfx_documents::json::{effect_from_json, effect_to_json};
/// let text = r#"{"revertCode":0,"txHash":"0x0000000000000000000000000000000000000000000000000000000000000001",
///   "transactionFee":"0x2a","noteHashes":[],"nullifiers":["0x05"],"l2ToL1Msgs":[],"publicDataWrites":[],
///   "privateLogs":[],"publicLogs":[],"contractClassLogs":[]}"#;
/// let effect = effect_from_json(text)?;
/// assert_eq!(effect.nullifiers.len(), 1);
/// assert_eq!(effect_from_json(&effect_to_json(&effect))?, effect);
/// # Ok::<(), txfx_documents::json::JsonError>(())
/// ```
pub fn effect_from_json<'a>(input: impl Into<JsonInput<'a>>) -> Result<TxEffect, JsonError> {
    read_effect(input.into()).map_err(|error| error.expecting("a tx effect"))
}

fn read_effect(input: JsonInput<'_>) -> Result<TxEffect, JsonError> {
    let json: TxEffectJson = input.parse()?;
    json.into_effect().map_err(|source| JsonError::Invalid { tx: None, source })
}

/// One effect as a JSON value (TypeScript's shape).
pub fn effect_to_json(effect: &TxEffect) -> serde_json::Value {
    to_value(TxEffectOut::from(effect))
}

/// A value of one of this module's wire types, which hold only strings, numbers, arrays and
/// string-keyed objects: serde_json cannot fail on them.
#[allow(clippy::expect_used, reason = "an internal invariant: a failure must be loud, never JSON null")]
pub(super) fn to_value(wire: impl Serialize) -> serde_json::Value {
    serde_json::to_value(wire).expect("invariant: the wire types always convert to JSON")
}

/// Reads a body: `{"txEffects": [...]}`, as TypeScript's `Body.schema` does (unknown keys
/// ignored), or a bare JSON array of effects (at most [`MAX_TXS_PER_BLOCK`] either way).
///
/// # Errors
/// [`JsonError`] naming the first bad tx.
pub fn body_from_json<'a>(input: impl Into<JsonInput<'a>>) -> Result<Body, JsonError> {
    read_body(input.into()).map_err(|error| error.expecting("a body"))
}

fn read_body(input: JsonInput<'_>) -> Result<Body, JsonError> {
    let effects = match input.kind() {
        wire::JsonKind::Array => input.parse::<Effects>()?.0,
        _ => input.parse::<BodyJson>()?.tx_effects,
    };
    body_from_effects(effects)
}

/// A bare array of at most [`MAX_TXS_PER_BLOCK`] effects.
struct Effects(Vec<TxEffectJson>);

impl<'de> Deserialize<'de> for Effects {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        effects(deserializer).map(Self)
    }
}

/// A body as a JSON value: `{"txEffects": [...]}`, the shape TypeScript's `Body` schema takes.
pub fn body_to_json(body: &Body) -> serde_json::Value {
    to_value(BodyOut { tx_effects: body.tx_effects.iter().map(TxEffectOut::from).collect() })
}
