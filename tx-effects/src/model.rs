//! The `TxEffect` model (docs/spec.md §4) with the protocol limits of §3 enforced at construction.
//!
//! [`TxEffectFields`] is plain data; [`TxEffect`] is the same data once it has passed every
//! legality rule, so a commitment or an encoding is never computed from an illegal effect. Logs
//! hold only their *emitted* fields: the zero padding Aztec stores (to 16 for private logs, to
//! 3023 for the contract-class log) is restored where a hash needs it, and can never carry data
//! that the blob encoding would drop.

use txfx_poseidon::Fr;

use crate::limits::{
    CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, FLAT_PUBLIC_LOGS_PAYLOAD_LENGTH, MAX_CONTRACT_CLASS_LOGS_PER_TX,
    MAX_L2_TO_L1_MSGS_PER_TX, MAX_NOTE_HASHES_PER_TX, MAX_NULLIFIERS_PER_TX, MAX_PRIVATE_LOGS_PER_TX,
    MAX_PUBLIC_LOG_SIZE_IN_FIELDS, MAX_TOTAL_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX, PRIVATE_LOG_SIZE_IN_FIELDS,
    PUBLIC_LOG_HEADER_LENGTH,
};

/// Which phases of the tx's public execution reverted (Aztec's `RevertCode`, 4.1.2). The marker
/// stores it in 8 bits, unchanged; JSON prints it as a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RevertCode {
    /// `OK = 0`: every phase completed.
    #[default]
    Ok,
    /// `APP_LOGIC_REVERTED = 1` (formerly `REVERTED`): app logic's state changes were discarded.
    AppLogicReverted,
    /// `TEARDOWN_REVERTED = 2`: teardown's state changes were discarded.
    TeardownReverted,
    /// `BOTH_REVERTED = 3`: app logic and teardown reverted; only setup's effects are kept.
    BothReverted,
}

impl RevertCode {
    /// The code as stored in the marker and hashed.
    pub fn code(self) -> u8 {
        match self {
            Self::Ok => 0,
            Self::AppLogicReverted => 1,
            Self::TeardownReverted => 2,
            Self::BothReverted => 3,
        }
    }

    /// The code for `value`: 0 to 3, as TypeScript's `RevertCode` schema accepts.
    ///
    /// # Errors
    /// [`TxEffectError::InvalidRevertCode`] for 4 and above, which no Aztec version defines
    /// (TypeScript's schema refuses them too).
    pub fn from_code(value: u64) -> Result<Self, TxEffectError> {
        match value {
            0 => Ok(Self::Ok),
            1 => Ok(Self::AppLogicReverted),
            2 => Ok(Self::TeardownReverted),
            3 => Ok(Self::BothReverted),
            _ => Err(TxEffectError::InvalidRevertCode { value }),
        }
    }
}

/// An L2 block number: 32 bits, as the block-end marker carries it (docs/spec.md §12.2) and
/// the header's `globalVariables.blockNumber` holds it. Every block number txfx reads or prints
/// is one, so none is ever above what JavaScript's numbers hold exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct BlockNumber(u32);

impl BlockNumber {
    /// The block number `value`.
    pub const fn new(value: u32) -> Self {
        Self(value)
    }

    /// The number.
    pub const fn get(self) -> u32 {
        self.0
    }
}

impl From<u32> for BlockNumber {
    fn from(value: u32) -> Self {
        Self(value)
    }
}

impl From<BlockNumber> for u64 {
    fn from(value: BlockNumber) -> Self {
        u64::from(value.0)
    }
}

/// A value that is no block number: over 32 bits, or not a decimal integer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{given:?} is not a block number (a decimal integer below 2^32)")]
pub struct NotABlockNumber {
    /// What was given.
    pub given: String,
}

impl TryFrom<u64> for BlockNumber {
    type Error = NotABlockNumber;
    fn try_from(value: u64) -> Result<Self, NotABlockNumber> {
        u32::try_from(value).map(Self).map_err(|_| NotABlockNumber { given: value.to_string() })
    }
}

/// Parses a decimal block number: digits only, below 2^32.
impl std::str::FromStr for BlockNumber {
    type Err = NotABlockNumber;
    fn from_str(text: &str) -> Result<Self, NotABlockNumber> {
        let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        match text.parse::<u32>() {
            Ok(value) if digits => Ok(Self(value)),
            _ => Err(NotABlockNumber { given: text.to_owned() }),
        }
    }
}

impl std::fmt::Display for BlockNumber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// One public-data write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PublicDataWrite {
    /// The leaf slot written.
    pub leaf_slot: Fr,
    /// The value written.
    pub value: Fr,
}

/// A private log: its emitted fields (1 to 16), and whatever followed them in the 16-field JSON
/// form.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PrivateLog {
    /// The emitted fields; `emittedLength` is their count.
    pub fields: Vec<Fr>,
    /// Fields given after the emitted ones, trailing zeros dropped (so empty for every log a node
    /// prints). TypeScript's schema accepts nonzero values there and keeps them in its JSON, but
    /// its blob encoding drops them, so they are in neither the blob nor the commitment; txfx
    /// keeps them only so that printing gives back what was read.
    pub padding: Vec<Fr>,
}

/// A public log: the emitting contract and its fields (at most 4094).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PublicLog {
    /// The emitting contract.
    pub contract_address: Fr,
    /// The log's fields.
    pub fields: Vec<Fr>,
}

/// A contract-class log: the emitting contract and its emitted fields (1 to 3023).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ContractClassLog {
    /// The emitting contract.
    pub contract_address: Fr,
    /// The emitted fields; `emittedLength` is their count. The hash pads them to 3023.
    pub fields: Vec<Fr>,
}

/// The fields of a tx effect, in TypeScript constructor order, before validation.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TxEffectFields {
    /// Revert code.
    pub revert_code: RevertCode,
    /// The tx hash.
    pub tx_hash: Fr,
    /// The fee paid.
    pub transaction_fee: Fr,
    /// Note hashes (at most 64, nonzero).
    pub note_hashes: Vec<Fr>,
    /// Nullifiers (at most 64, nonzero).
    pub nullifiers: Vec<Fr>,
    /// Siloed L2-to-L1 message hashes (at most 8, nonzero).
    pub l2_to_l1_msgs: Vec<Fr>,
    /// Public-data writes (at most 64, none all-zero).
    pub public_data_writes: Vec<PublicDataWrite>,
    /// Private logs (at most 64).
    pub private_logs: Vec<PrivateLog>,
    /// Public logs (flat payload at most 4096 fields).
    pub public_logs: Vec<PublicLog>,
    /// Contract-class logs (at most 1).
    pub contract_class_logs: Vec<ContractClassLog>,
}

/// The effect categories, in commitment order (docs/spec.md §6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Category {
    /// Category 0.
    NoteHashes,
    /// Category 1.
    Nullifiers,
    /// Category 2.
    L2ToL1Msgs,
    /// Category 3.
    PublicDataWrites,
    /// Category 4.
    PrivateLogs,
    /// Category 5.
    PublicLogs,
    /// Category 6.
    ContractClassLogs,
}

impl Category {
    /// All seven, in commitment order.
    pub const ALL: [Self; 7] = [
        Self::NoteHashes,
        Self::Nullifiers,
        Self::L2ToL1Msgs,
        Self::PublicDataWrites,
        Self::PrivateLogs,
        Self::PublicLogs,
        Self::ContractClassLogs,
    ];

    /// The category's position in commitment order: `C_index` is its hash.
    pub fn index(self) -> usize {
        match self {
            Self::NoteHashes => 0,
            Self::Nullifiers => 1,
            Self::L2ToL1Msgs => 2,
            Self::PublicDataWrites => 3,
            Self::PrivateLogs => 4,
            Self::PublicLogs => 5,
            Self::ContractClassLogs => 6,
        }
    }

    /// The TypeScript / JSON field name.
    pub fn name(self) -> &'static str {
        match self {
            Self::NoteHashes => "noteHashes",
            Self::Nullifiers => "nullifiers",
            Self::L2ToL1Msgs => "l2ToL1Msgs",
            Self::PublicDataWrites => "publicDataWrites",
            Self::PrivateLogs => "privateLogs",
            Self::PublicLogs => "publicLogs",
            Self::ContractClassLogs => "contractClassLogs",
        }
    }
}

// Category names are TypeScript's keys for the categories.
crate::names::parsed_by_name!(
    /// A name that is no category's ([`Category::name`] lists them).
    Category,
    UnknownCategory,
    "unknown category {name:?}: expected noteHashes, nullifiers, l2ToL1Msgs, publicDataWrites, privateLogs, publicLogs or contractClassLogs"
);

/// A tx effect that breaks a protocol limit or legality rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TxEffectError {
    /// More items in a category than the protocol allows.
    #[error("{category}: {count} items, at most {max} allowed")]
    TooMany {
        /// The category.
        category: Category,
        /// Items given.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// A note hash, nullifier or message that is zero.
    #[error("{category}[{index}] is zero; the protocol never emits a zero {category} entry")]
    ZeroValue {
        /// The category.
        category: Category,
        /// The offending index.
        index: usize,
    },
    /// A public-data write whose slot and value are both zero.
    #[error("publicDataWrites[{index}] is empty (leaf slot and value both zero)")]
    EmptyPublicDataWrite {
        /// The offending index.
        index: usize,
    },
    /// A log whose emitted length is outside what the protocol allows.
    #[error("{category}[{index}]: emitted length {length}, allowed {min}..={max}")]
    LogLength {
        /// The category.
        category: Category,
        /// The offending log.
        index: usize,
        /// The length given.
        length: usize,
        /// The smallest allowed length.
        min: usize,
        /// The largest allowed length.
        max: usize,
    },
    /// A log whose given `fields` disagree with its `emittedLength`.
    #[error("{category}[{index}]: emittedLength {emitted_length} but {fields} fields given")]
    LogFieldsShorterThanLength {
        /// The category.
        category: Category,
        /// The offending log.
        index: usize,
        /// The declared emitted length.
        emitted_length: usize,
        /// Fields given.
        fields: usize,
    },
    /// A log given with more fields (padding included) than the protocol's log size.
    #[error("{category}[{index}]: {fields} fields given, a log holds at most {max}")]
    LogTooManyFields {
        /// The category.
        category: Category,
        /// The offending log.
        index: usize,
        /// Fields given.
        fields: usize,
        /// The log size.
        max: usize,
    },
    /// A nonzero field past a log's emitted length: the blob would drop it, so it is refused.
    #[error("{category}[{index}]: field {position} is past emittedLength and not zero")]
    LogPaddingNotZero {
        /// The category.
        category: Category,
        /// The offending log.
        index: usize,
        /// The nonzero field's position.
        position: usize,
    },
    /// The public logs' flat payload (each log's fields plus a 2-field header) exceeds 4096.
    #[error("publicLogs[{index}]: flat payload reaches {flat_length} fields, at most {max} allowed")]
    PublicLogsPayloadTooLong {
        /// The first log that does not fit.
        index: usize,
        /// The payload length including that log.
        flat_length: usize,
        /// The limit.
        max: usize,
    },
    /// A contract-class log whose length is not one more than the index of its last nonzero
    /// field (Aztec v6's rule: no trailing zero is emitted, and an all-zero log is none).
    #[error(
        "contractClassLogs[{index}]: emittedLength {emitted_length}, but its last nonzero field makes it {expected}"
    )]
    ContractClassLogLength {
        /// The offending log.
        index: usize,
        /// The length given.
        emitted_length: usize,
        /// One more than the index of its last nonzero field.
        expected: usize,
    },
    /// A revert code above 3.
    #[error(
        "revertCode {value}: only 0 (OK), 1 (APP_LOGIC_REVERTED), 2 (TEARDOWN_REVERTED) and 3 (BOTH_REVERTED) exist"
    )]
    InvalidRevertCode {
        /// The value given.
        value: u64,
    },
}

/// A tx effect that satisfies every protocol limit (docs/spec.md §3–§4).
///
/// # Example
/// ```
/// use txfx_tx_effects::{TxEffect, TxEffectFields, TxEffectError, Category};
/// use txfx_poseidon::Fr;
/// let fields = TxEffectFields { tx_hash: Fr::from(7u64), nullifiers: vec![Fr::from(1u64)], ..Default::default() };
/// let effect = TxEffect::new(fields.clone())?;
/// assert_eq!(effect.nullifiers.len(), 1);
/// let bad = TxEffectFields { nullifiers: vec![Fr::from(0u64)], ..fields };
/// assert_eq!(TxEffect::new(bad), Err(TxEffectError::ZeroValue { category: Category::Nullifiers, index: 0 }));
/// # Ok::<(), TxEffectError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TxEffect(TxEffectFields);

impl std::ops::Deref for TxEffect {
    type Target = TxEffectFields;
    fn deref(&self) -> &TxEffectFields {
        &self.0
    }
}

impl TryFrom<TxEffectFields> for TxEffect {
    type Error = TxEffectError;
    fn try_from(fields: TxEffectFields) -> Result<Self, TxEffectError> {
        Self::new(fields)
    }
}

fn check_count(category: Category, count: usize, max: usize) -> Result<(), TxEffectError> {
    if count > max { Err(TxEffectError::TooMany { category, count, max }) } else { Ok(()) }
}

fn check_nonzero(category: Category, values: &[Fr]) -> Result<(), TxEffectError> {
    match values.iter().position(|value| *value == Fr::from(0u64)) {
        Some(index) => Err(TxEffectError::ZeroValue { category, index }),
        None => Ok(()),
    }
}

fn check_log_length(
    category: Category,
    index: usize,
    length: usize,
    max: usize,
) -> Result<(), TxEffectError> {
    if (1..=max).contains(&length) {
        Ok(())
    } else {
        Err(TxEffectError::LogLength { category, index, length, min: 1, max })
    }
}

impl TxEffect {
    /// Validates `fields` against every protocol limit.
    ///
    /// # Errors
    /// The first [`TxEffectError`] found, naming the category, index and limit.
    pub fn new(fields: TxEffectFields) -> Result<Self, TxEffectError> {
        use Category::*;
        let f = &fields;
        check_count(NoteHashes, f.note_hashes.len(), MAX_NOTE_HASHES_PER_TX)?;
        check_count(Nullifiers, f.nullifiers.len(), MAX_NULLIFIERS_PER_TX)?;
        check_count(L2ToL1Msgs, f.l2_to_l1_msgs.len(), MAX_L2_TO_L1_MSGS_PER_TX)?;
        check_count(
            PublicDataWrites,
            f.public_data_writes.len(),
            MAX_TOTAL_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX,
        )?;
        check_count(PrivateLogs, f.private_logs.len(), MAX_PRIVATE_LOGS_PER_TX)?;
        check_count(ContractClassLogs, f.contract_class_logs.len(), MAX_CONTRACT_CLASS_LOGS_PER_TX)?;
        check_nonzero(NoteHashes, &f.note_hashes)?;
        check_nonzero(Nullifiers, &f.nullifiers)?;
        check_nonzero(L2ToL1Msgs, &f.l2_to_l1_msgs)?;
        let zero = Fr::from(0u64);
        if let Some(index) = f.public_data_writes.iter().position(|w| w.leaf_slot == zero && w.value == zero)
        {
            return Err(TxEffectError::EmptyPublicDataWrite { index });
        }
        for (index, log) in f.private_logs.iter().enumerate() {
            check_log_length(PrivateLogs, index, log.fields.len(), PRIVATE_LOG_SIZE_IN_FIELDS)?;
            let given = log.fields.len() + log.padding.len();
            if given > PRIVATE_LOG_SIZE_IN_FIELDS {
                return Err(TxEffectError::LogTooManyFields {
                    category: PrivateLogs,
                    index,
                    fields: given,
                    max: PRIVATE_LOG_SIZE_IN_FIELDS,
                });
            }
        }
        let mut flat_length = 0usize;
        for (index, log) in f.public_logs.iter().enumerate() {
            if log.fields.len() > MAX_PUBLIC_LOG_SIZE_IN_FIELDS {
                return Err(TxEffectError::LogLength {
                    category: PublicLogs,
                    index,
                    length: log.fields.len(),
                    min: 0,
                    max: MAX_PUBLIC_LOG_SIZE_IN_FIELDS,
                });
            }
            flat_length += log.fields.len() + PUBLIC_LOG_HEADER_LENGTH;
            if flat_length > FLAT_PUBLIC_LOGS_PAYLOAD_LENGTH {
                return Err(TxEffectError::PublicLogsPayloadTooLong {
                    index,
                    flat_length,
                    max: FLAT_PUBLIC_LOGS_PAYLOAD_LENGTH,
                });
            }
        }
        for (index, log) in f.contract_class_logs.iter().enumerate() {
            // Length 0 is refused: TypeScript and Noir disagree on how to commit it (docs/spec.md §11.1).
            check_log_length(ContractClassLogs, index, log.fields.len(), CONTRACT_CLASS_LOG_SIZE_IN_FIELDS)?;
        }
        Ok(Self(fields))
    }

    /// `TxEffect.empty()`: revert OK, tx hash 0, fee 0, every list empty.
    pub fn empty() -> Self {
        Self(TxEffectFields::default())
    }

    /// The first private-log field past its log's emitted length that is not zero, as
    /// `(log, field position)`: data TypeScript's JSON may carry but no blob encoding and no
    /// commitment covers. `None` for every effect a node prints.
    pub fn uncommitted_field(&self) -> Option<(usize, usize)> {
        self.private_logs.iter().enumerate().find_map(|(log, private)| {
            let offset = private.padding.iter().position(|field| *field != Fr::from(0u64))?;
            Some((log, private.fields.len() + offset))
        })
    }

    /// Gives the fields back, for editing and re-validation.
    pub fn into_fields(self) -> TxEffectFields {
        self.0
    }

    /// How many fields this effect takes in the blob, marker included: the sum over the
    /// sections of the blob layout (docs/spec.md §5.2).
    pub fn num_blob_fields(&self) -> usize {
        crate::blob::TxStartMarker::of(self).implied_blob_fields()
    }
}

/// The ordered effects of one block.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Body {
    /// The effects, in block order.
    pub tx_effects: Vec<TxEffect>,
}

impl Body {
    /// A body from its effects.
    pub fn new(tx_effects: Vec<TxEffect>) -> Self {
        Self { tx_effects }
    }

    /// The block with no txs.
    pub fn empty() -> Self {
        Self::default()
    }

    /// Number of txs.
    pub fn len(&self) -> usize {
        self.tx_effects.len()
    }

    /// Whether the block has no txs.
    pub fn is_empty(&self) -> bool {
        self.tx_effects.is_empty()
    }
}
