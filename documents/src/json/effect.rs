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
//!   `contractAddress` and `fields`, and `emittedLength`; every shape is an object (a JSON array
//!   of an effect's values is not one), and `revertCode` and `emittedLength` are JSON numbers;
//! - every list is read no further than one element past its protocol cap (64 note hashes, 64
//!   nullifiers, 8 messages, 64 writes, 64 private logs of 16 fields, 2048 public logs of 4094
//!   fields, 1 contract-class log), so that a hostile list costs no more than a valid one;
//! - unknown keys are ignored (the next node version may add some), except in a private log,
//!   whose schema is strict;
//! - a field element is `0x` + 1..64 hex digits of either case, or a string of decimal digits,
//!   read as decimal (`Fr.fromString`); values `>= p` are refused; a `txHash` must be exactly 32
//!   bytes of hex (64 digits, `0x` optional), as `TxHash`'s schema wants;
//! - `revertCode` is read as the protocol reads it: 0 to 3 before v6; in v6 0 is OK and any
//!   other value is REVERTED (1), as v6's schema coerces it;
//! - a private log's `fields` are exactly 16: fewer are refused once its `emittedLength` is
//!   checked, as `PrivateLog.fromFields` throws on them (v6 and 4.1.2 alike);
//! - a contract-class log's `fields` is TypeScript's nested `{"fields": [exactly 3023]}`.
//!
//! What stays strict beyond TypeScript: a contract-class log's fields past its `emittedLength`
//! must be zero (its hash covers all 3023), lengths must fit the protocol's limits, and every
//! protocol rule of [`TxEffect::new`] holds.
//!
//! A private log's fields past its `emittedLength` may be nonzero, as TypeScript's schema allows.
//! They are not part of the blob encoding (TypeScript's drops them) and so not of the commitment;
//! txfx keeps them in `PrivateLog::padding` only so that printing gives back what was read, and
//! a verifier refuses an effect that carries them (`txfx-membership`). In v6 such an effect is
//! refused when read, as are a contract-class log whose length is not one more than the index of
//! its last nonzero field ([`ProtocolVersion::check_effect`]): no provable v6 block holds either
//! (the base rollup refuses the padding, the tx base circuit the length).
//!
//! Printing gives TypeScript's exact shape: every key, private logs padded to 16 fields,
//! contract-class logs nested and padded to 3023. A body prints as `{"txEffects":[...]}` (a bare
//! JSON array of effects is read too).

use serde::Serialize;
use txfx_poseidon::Fr;
use txfx_poseidon::field::{parse_fr_hex, serde_hex};
use txfx_tx_effects::limits::{
    CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, FLAT_PUBLIC_LOGS_PAYLOAD_LENGTH, MAX_CONTRACT_CLASS_LOGS_PER_TX,
    MAX_L2_TO_L1_MSGS_PER_TX, MAX_NOTE_HASHES_PER_TX, MAX_NULLIFIERS_PER_TX, MAX_PRIVATE_LOGS_PER_TX,
    MAX_PUBLIC_LOG_SIZE_IN_FIELDS, MAX_TOTAL_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX, MAX_TXS_PER_BLOCK,
    PRIVATE_LOG_SIZE_IN_FIELDS, PUBLIC_LOG_HEADER_LENGTH,
};
use txfx_tx_effects::{
    Body, Category, ContractClassLog, PrivateLog, ProtocolVersion, PublicDataWrite, PublicLog, TxEffect,
    TxEffectError, TxEffectFields,
};

use super::error::JsonError;
use super::fault::{JsonType, Malformation, Malformed};
use super::fields::{field, fields};
use super::ordered::Json;
use super::wire::{Integer, JsonInput, Raw};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PublicDataWriteJson {
    #[serde(with = "serde_hex")]
    leaf_slot: Fr,
    #[serde(with = "serde_hex")]
    value: Fr,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PrivateLogJson {
    #[serde(with = "serde_hex::vec")]
    fields: Vec<Fr>,
    emitted_length: u64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PublicLogJson {
    #[serde(with = "serde_hex")]
    contract_address: Fr,
    #[serde(with = "serde_hex::vec")]
    fields: Vec<Fr>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ContractClassLogJson {
    #[serde(with = "serde_hex")]
    contract_address: Fr,
    fields: ContractClassLogFieldsJson,
    emitted_length: u64,
}

/// A contract-class log's fields: TypeScript's nested `{"fields": [exactly 3023]}`.
struct ContractClassLogFieldsJson(Vec<Fr>);

#[derive(Serialize)]
struct NestedFieldsJson {
    #[serde(serialize_with = "serde_hex::vec::serialize")]
    fields: Vec<Fr>,
}

impl Serialize for ContractClassLogFieldsJson {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut fields = self.0.clone();
        fields.resize(CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, Fr::from(0u64));
        NestedFieldsJson { fields }.serialize(serializer)
    }
}

/// The most public logs a tx holds: each takes at least its 2-field header of the flat payload.
const MAX_PUBLIC_LOGS_PER_TX: usize = FLAT_PUBLIC_LOGS_PAYLOAD_LENGTH / PUBLIC_LOG_HEADER_LENGTH;

/// An effect's keys, all required (TypeScript's `TxEffect.schema`).
pub(crate) const EFFECT_KEYS: [&str; 10] = [
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
];

/// A `txHash`: exactly 32 bytes of hex, `0x` optional (TypeScript's `TxHash` schema).
pub(crate) fn tx_hash(raw: Raw<'_>) -> Result<Fr, JsonError> {
    let text = raw.string()?;
    let digits = text.strip_prefix("0x").unwrap_or(&text);
    if digits.len() != 64 {
        return Err(raw.bad_value("a tx hash (32 bytes: 64 hex digits, 0x optional)", &text).into());
    }
    parse_fr_hex(&format!("0x{digits}")).map_err(|source| JsonError::Field { path: String::new(), source })
}

/// A log as read: its fields (padding included) and its `emittedLength`, if it has one.
struct LogRead {
    fields: Vec<Fr>,
    emitted_length: u64,
    /// For a private log of fewer than its 16 fields, the fault to report once its length has
    /// been checked (so that a log shorter than its `emittedLength` is named as that first).
    short: Option<Malformed>,
}

/// A log's `emittedLength`: a JSON number (its range is the protocol's to check).
const EMITTED_LENGTH: Integer = Integer::number(u64::MAX as u128);

fn public_data_write(raw: Raw<'_>) -> Result<PublicDataWrite, JsonError> {
    let object = raw.object("a public data write", &["leafSlot", "value"])?;
    Ok(PublicDataWrite { leaf_slot: object.read("leafSlot", field)?, value: object.read("value", field)? })
}

/// TypeScript's private-log schema is the one strict schema: unknown keys are refused. Its
/// `fields` are exactly 16: v6 and 4.1.2 alike read them with `PrivateLog.fromFields(fields ‖
/// emittedLength)`, which reads 16 fields then the length, and throws on fewer (a 17th is read
/// as the length, which txfx refuses as too many).
fn private_log(raw: Raw<'_>) -> Result<LogRead, JsonError> {
    let object = raw.object("a private log", &["fields", "emittedLength"])?;
    object.strict()?;
    let mut short = None;
    let fields = object.read("fields", |r| {
        let list = fields(r, PRIVATE_LOG_SIZE_IN_FIELDS, "a private log")?;
        if list.len() < PRIVATE_LOG_SIZE_IN_FIELDS {
            let count = Malformation::Count {
                expected: PRIVATE_LOG_SIZE_IN_FIELDS,
                given: list.len(),
                what: "a private log's fields",
            };
            short = Some(r.fault(count).within("fields"));
        }
        Ok::<_, JsonError>(list)
    })?;
    Ok(LogRead {
        fields,
        emitted_length: object.read("emittedLength", |r| r.u64(EMITTED_LENGTH).map_err(JsonError::from))?,
        short,
    })
}

fn public_log(raw: Raw<'_>) -> Result<PublicLog, JsonError> {
    let object = raw.object("a public log", &["contractAddress", "fields"])?;
    Ok(PublicLog {
        contract_address: object.read("contractAddress", field)?,
        fields: object.read("fields", |r| fields(r, MAX_PUBLIC_LOG_SIZE_IN_FIELDS, "a public log"))?,
    })
}

/// A contract-class log: its address, and its fields as TypeScript's nested
/// `{"fields": [exactly 3023]}`.
fn contract_class_log(raw: Raw<'_>) -> Result<(Fr, LogRead), JsonError> {
    let object = raw.object("a contract-class log", &["contractAddress", "fields", "emittedLength"])?;
    let nested = |raw: Raw<'_>| -> Result<Vec<Fr>, JsonError> {
        let inner = raw.object("the nested {\"fields\": [...]} of a contract-class log", &["fields"])?;
        inner.read("fields", |r| {
            let list = fields(r, CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, "a contract-class log")?;
            if list.len() != CONTRACT_CLASS_LOG_SIZE_IN_FIELDS {
                return Err(r
                    .fault(Malformation::Count {
                        expected: CONTRACT_CLASS_LOG_SIZE_IN_FIELDS,
                        given: list.len(),
                        what: "a contract-class log's nested fields",
                    })
                    .into());
            }
            Ok(list)
        })
    };
    Ok((
        object.read("contractAddress", field)?,
        LogRead {
            fields: object.read("fields", nested)?,
            emitted_length: object
                .read("emittedLength", |r| r.u64(EMITTED_LENGTH).map_err(JsonError::from))?,
            short: None,
        },
    ))
}

/// A `revertCode`: a JSON number (which codes exist is the protocol's to check).
const REVERT_CODE: Integer = Integer::number(u64::MAX as u128);

/// One effect, read as `protocol`'s TypeScript `TxEffect.schema` reads it, every list no further
/// than its protocol cap, then checked against every protocol rule.
pub(crate) fn read_effect(raw: Raw<'_>, protocol: ProtocolVersion) -> Result<TxEffect, JsonError> {
    let object = raw.object("a tx effect", &EFFECT_KEYS)?;
    let revert_code = object.read("revertCode", |r| r.u64(REVERT_CODE).map_err(JsonError::from))?;
    let tx_hash = object.read("txHash", tx_hash)?;
    let transaction_fee = object.read("transactionFee", field)?;
    let note_hashes =
        object.read("noteHashes", |r| fields(r, MAX_NOTE_HASHES_PER_TX, "a tx's note hashes"))?;
    let nullifiers = object.read("nullifiers", |r| fields(r, MAX_NULLIFIERS_PER_TX, "a tx's nullifiers"))?;
    let l2_to_l1_msgs =
        object.read("l2ToL1Msgs", |r| fields(r, MAX_L2_TO_L1_MSGS_PER_TX, "a tx's L2-to-L1 messages"))?;
    let public_data_writes = object.read("publicDataWrites", |r| {
        r.items(MAX_TOTAL_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX, "a tx's public data writes", public_data_write)
    })?;
    let private_logs = object
        .read("privateLogs", |r| r.items(MAX_PRIVATE_LOGS_PER_TX, "a tx's private logs", private_log))?;
    let public_logs =
        object.read("publicLogs", |r| r.items(MAX_PUBLIC_LOGS_PER_TX, "a tx's public logs", public_log))?;
    let contract_class_logs = object.read("contractClassLogs", |r| {
        r.items(MAX_CONTRACT_CLASS_LOGS_PER_TX, "a tx's contract-class logs", contract_class_log)
    })?;
    into_effect(
        protocol,
        EffectRead {
            revert_code,
            tx_hash,
            transaction_fee,
            note_hashes,
            nullifiers,
            l2_to_l1_msgs,
            public_data_writes,
            private_logs,
            public_logs,
            contract_class_logs,
        },
    )
}

/// An effect as read, before the protocol's rules are checked.
struct EffectRead {
    revert_code: u64,
    tx_hash: Fr,
    transaction_fee: Fr,
    note_hashes: Vec<Fr>,
    nullifiers: Vec<Fr>,
    l2_to_l1_msgs: Vec<Fr>,
    public_data_writes: Vec<PublicDataWrite>,
    private_logs: Vec<LogRead>,
    public_logs: Vec<PublicLog>,
    contract_class_logs: Vec<(Fr, LogRead)>,
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

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct BodyOut {
    pub(super) tx_effects: Vec<TxEffectOut>,
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

/// The effect, with every rule of `protocol` checked.
fn into_effect(protocol: ProtocolVersion, read: EffectRead) -> Result<TxEffect, JsonError> {
    let invalid = |source| JsonError::Invalid { tx: None, source };
    let private_logs = read
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
            )
            .map_err(invalid)?;
            if let Some(short) = log.short {
                return Err(JsonError::from(short.within(&format!("[{index}]")).within("privateLogs")));
            }
            Ok(PrivateLog { fields, padding })
        })
        .collect::<Result<_, JsonError>>()?;
    let contract_class_logs = read
        .contract_class_logs
        .into_iter()
        .enumerate()
        .map(|(index, (contract_address, log))| {
            let fields = emitted_fields(
                Category::ContractClassLogs,
                index,
                log.fields,
                log.emitted_length,
                CONTRACT_CLASS_LOG_SIZE_IN_FIELDS,
            )?;
            Ok(ContractClassLog { contract_address, fields })
        })
        .collect::<Result<_, TxEffectError>>()
        .map_err(invalid)?;
    let effect = TxEffect::new(TxEffectFields {
        revert_code: protocol.revert_code(read.revert_code).map_err(invalid)?,
        tx_hash: read.tx_hash,
        transaction_fee: read.transaction_fee,
        note_hashes: read.note_hashes,
        nullifiers: read.nullifiers,
        l2_to_l1_msgs: read.l2_to_l1_msgs,
        public_data_writes: read.public_data_writes,
        private_logs,
        public_logs: read.public_logs,
        contract_class_logs,
    })
    .map_err(invalid)?;
    protocol.check_effect(&effect).map_err(invalid)?;
    Ok(effect)
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

/// A body's effects: a JSON array of at most [`MAX_TXS_PER_BLOCK`] effects, each checked.
pub(crate) fn read_effects(raw: Raw<'_>, protocol: ProtocolVersion) -> Result<Body, JsonError> {
    let effects = raw.array(MAX_TXS_PER_BLOCK, "a block")?;
    let tx_effects = effects
        .into_iter()
        .enumerate()
        .map(|(tx, effect)| {
            read_effect(effect, protocol).map_err(|error| match error {
                JsonError::Invalid { tx: None, source } => JsonError::Invalid { tx: Some(tx), source },
                other => other.within(&format!("[{tx}]")),
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(Body::new(tx_effects))
}

/// A body: `{"txEffects": [...]}`, as TypeScript's `Body.schema` reads it (unknown keys ignored).
pub(crate) fn read_body_object(raw: Raw<'_>, protocol: ProtocolVersion) -> Result<Body, JsonError> {
    let object = raw.object("a body", &["txEffects"])?;
    object.read("txEffects", |raw| read_effects(raw, protocol))
}

/// Reads one effect, as `protocol`'s TypeScript `TxEffect.schema` does.
///
/// # Errors
/// [`JsonError::Malformed`] for JSON that is not an effect, [`JsonError::Invalid`] for a rule
/// broken.
///
/// # Example
/// ```
/// use txfx_documents::json::{effect_from_json, effect_to_json};
/// use txfx_documents::txfx_membership::ProtocolVersion;
/// let text = r#"{"revertCode":0,"txHash":"0x0000000000000000000000000000000000000000000000000000000000000001",
///   "transactionFee":"0x2a","noteHashes":[],"nullifiers":["0x05"],"l2ToL1Msgs":[],"publicDataWrites":[],
///   "privateLogs":[],"publicLogs":[],"contractClassLogs":[]}"#;
/// let effect = effect_from_json(text, ProtocolVersion::V6)?;
/// assert_eq!(effect.nullifiers.len(), 1);
/// assert_eq!(effect_from_json(&effect_to_json(&effect), ProtocolVersion::V6)?, effect);
/// # Ok::<(), txfx_documents::json::JsonError>(())
/// ```
pub fn effect_from_json<'a>(
    input: impl Into<JsonInput<'a>>,
    protocol: ProtocolVersion,
) -> Result<TxEffect, JsonError> {
    input.into().read(|raw| read_effect(raw, protocol)).map_err(|error| error.expecting("a tx effect"))
}

/// One effect as a JSON value (TypeScript's shape).
pub fn effect_to_json(effect: &TxEffect) -> Json {
    to_json(&TxEffectOut::from(effect))
}

/// A value of one of this module's wire types, which hold only strings, numbers, arrays and
/// string-keyed objects: serde_json cannot fail on them. Their fields keep their declared order.
#[allow(clippy::expect_used, reason = "an internal invariant: a failure must be loud, never JSON null")]
pub(super) fn to_json(wire: &impl Serialize) -> Json {
    Json::from_serialize(wire).expect("invariant: the wire types always convert to JSON")
}

/// Reads a body: `{"txEffects": [...]}`, as `protocol`'s TypeScript `Body.schema` does (unknown
/// keys ignored), or a bare JSON array of effects (at most [`MAX_TXS_PER_BLOCK`] either way).
///
/// # Errors
/// [`JsonError`] naming the first bad tx.
pub fn body_from_json<'a>(
    input: impl Into<JsonInput<'a>>,
    protocol: ProtocolVersion,
) -> Result<Body, JsonError> {
    input.into().read(|raw| read_body(raw, protocol)).map_err(|error| error.expecting("a body"))
}

/// A body: `{"txEffects": [...]}` or a bare array of effects.
pub(crate) fn read_body(raw: Raw<'_>, protocol: ProtocolVersion) -> Result<Body, JsonError> {
    match raw.kind() {
        JsonType::Array => read_effects(raw, protocol),
        _ => read_body_object(raw, protocol),
    }
}

/// A body as a JSON value: `{"txEffects": [...]}`, the shape TypeScript's `Body` schema takes.
pub fn body_to_json(body: &Body) -> Json {
    to_json(&BodyOut { tx_effects: body.tx_effects.iter().map(TxEffectOut::from).collect() })
}
