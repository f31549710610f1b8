//! Blob encoding of tx effects and the 216-bit tx start marker (docs/spec.md §5).
//!
//! One tx's blob data is its marker followed by its effects, flat:
//!
//! ```text
//! M, txHash, fee, noteHashes.., nullifiers.., msgs.., (slot, value).., (len, fields..)..,
//!   (len, address, fields..).. [public logs], [address, fields..] [contract-class log]
//! ```
//!
//! and a block's blob data is the concatenation of its txs' blob data. Decoding trusts nothing:
//! the marker's counts are checked against the protocol's limits and against the fields actually
//! present before anything is read or allocated, the marker's `numBlobFields` must equal what the
//! counts imply, and the decoded effect must pass [`TxEffect::new`].
//!
//! The layout is written once, in `TX_BLOB_LAYOUT`: the encoder, the decoder, the length count
//! and the category sections of [`crate::category`] all read it.

use txfx_poseidon::field::{bits, fr_to_be_bytes, fr_to_hex};
use txfx_poseidon::{Fr, TX_START_PREFIX};

use crate::limits::{
    CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, FLAT_PUBLIC_LOGS_PAYLOAD_LENGTH, MAX_L2_TO_L1_MSGS_PER_TX,
    MAX_NOTE_HASHES_PER_TX, MAX_NULLIFIERS_PER_TX, MAX_PRIVATE_LOGS_PER_TX,
    MAX_TOTAL_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX, MAX_TXS_PER_BLOCK, PRIVATE_LOG_SIZE_IN_FIELDS,
    PUBLIC_LOG_HEADER_LENGTH,
};
use crate::model::{
    Body, Category, ContractClassLog, PrivateLog, PublicDataWrite, PublicLog, TxEffect, TxEffectError,
    TxEffectFields,
};
use crate::protocol::ProtocolVersion;

/// One section of a tx's blob data. `TX_BLOB_LAYOUT` lists them in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Section {
    /// The tx start marker (1 field).
    Marker,
    /// The tx hash (1 field).
    TxHash,
    /// The transaction fee (1 field).
    TransactionFee,
    /// A category's fields. For categories 0..5 they are exactly the category's hash preimage:
    /// note hashes, nullifiers and messages flat; public-data writes as `(slot, value)` pairs;
    /// private logs as `(len, fields..)`; public logs as `(len, address, fields..)`. The
    /// contract-class log is `(address, emitted fields..)`, absent when the tx has none.
    Category(Category),
}

/// The sections of one tx's blob data, in order (docs/spec.md §5.1).
pub(crate) const TX_BLOB_LAYOUT: [Section; 10] = [
    Section::Marker,
    Section::TxHash,
    Section::TransactionFee,
    Section::Category(Category::NoteHashes),
    Section::Category(Category::Nullifiers),
    Section::Category(Category::L2ToL1Msgs),
    Section::Category(Category::PublicDataWrites),
    Section::Category(Category::PrivateLogs),
    Section::Category(Category::PublicLogs),
    Section::Category(Category::ContractClassLogs),
];

impl Section {
    /// The fields this section takes, from the counts a marker carries.
    pub(crate) fn len(self, marker: &TxStartMarker) -> usize {
        match self {
            Self::Marker | Self::TxHash | Self::TransactionFee => 1,
            Self::Category(category) => match category {
                Category::NoteHashes => usize::from(marker.num_note_hashes),
                Category::Nullifiers => usize::from(marker.num_nullifiers),
                Category::L2ToL1Msgs => usize::from(marker.num_l2_to_l1_msgs),
                Category::PublicDataWrites => 2 * usize::from(marker.num_public_data_writes),
                Category::PrivateLogs => {
                    usize::from(marker.num_private_logs) + usize::from(marker.private_logs_length)
                }
                Category::PublicLogs => marker.public_logs_length as usize,
                Category::ContractClassLogs => match marker.contract_class_log_length {
                    0 => 0,
                    length => 1 + usize::from(length),
                },
            },
        }
    }

    /// The offset of this section in the tx's blob data (the marker is at 0).
    pub(crate) fn offset(self, marker: &TxStartMarker) -> usize {
        TX_BLOB_LAYOUT.iter().take_while(|section| **section != self).map(|section| section.len(marker)).sum()
    }

    /// Appends this section of `effect` to `out`; `marker` is the effect's own marker.
    pub(crate) fn write(self, effect: &TxEffect, marker: Fr, out: &mut Vec<Fr>) {
        match self {
            Self::Marker => out.push(marker),
            Self::TxHash => out.push(effect.tx_hash),
            Self::TransactionFee => out.push(effect.transaction_fee),
            Self::Category(category) => match category {
                Category::NoteHashes => out.extend_from_slice(&effect.note_hashes),
                Category::Nullifiers => out.extend_from_slice(&effect.nullifiers),
                Category::L2ToL1Msgs => out.extend_from_slice(&effect.l2_to_l1_msgs),
                Category::PublicDataWrites => {
                    out.extend(effect.public_data_writes.iter().flat_map(|w| [w.leaf_slot, w.value]));
                }
                Category::PrivateLogs => {
                    for log in &effect.private_logs {
                        out.push(Fr::from(log.fields.len() as u64));
                        out.extend_from_slice(&log.fields);
                    }
                }
                Category::PublicLogs => {
                    for log in &effect.public_logs {
                        out.push(Fr::from(log.fields.len() as u64));
                        out.push(log.contract_address);
                        out.extend_from_slice(&log.fields);
                    }
                }
                Category::ContractClassLogs => {
                    for log in &effect.contract_class_logs {
                        out.push(log.contract_address);
                        out.extend_from_slice(&log.fields);
                    }
                }
            },
        }
    }
}

/// The counts packed into a tx start marker, most significant first (docs/spec.md §5.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TxStartMarker {
    /// Number of note hashes (16 bits).
    pub num_note_hashes: u16,
    /// Number of nullifiers (16 bits).
    pub num_nullifiers: u16,
    /// Number of L2-to-L1 messages (16 bits).
    pub num_l2_to_l1_msgs: u16,
    /// Number of public-data writes (16 bits).
    pub num_public_data_writes: u16,
    /// Number of private logs (16 bits).
    pub num_private_logs: u16,
    /// Σ private-log emitted lengths, without the length fields (16 bits).
    pub private_logs_length: u16,
    /// Public-log flat payload length (32 bits).
    pub public_logs_length: u32,
    /// Contract-class-log emitted length, 0 if absent (16 bits).
    pub contract_class_log_length: u16,
    /// Revert code (8 bits).
    pub revert_code: u8,
    /// Blob fields of the tx, marker included (32 bits).
    pub num_blob_fields: u32,
}

/// The marker's bit fields, most significant first: the prefix, then the ten values of
/// [`TxStartMarker`] in declaration order. The one description `encode` and `decode` both read.
const MARKER_WIDTHS: [u32; 11] = [32, 16, 16, 16, 16, 16, 16, 32, 16, 8, 32];

/// A field that is not a tx start marker: high bits set or another prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("not a tx start marker: {}", fr_to_hex(.value))]
pub struct NotAMarker {
    /// The field.
    pub value: Fr,
}

/// A marker value that no legal tx has: a count over the protocol's limit (docs/spec.md §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the marker's {what} is {value}, a tx has at most {max}")]
pub struct MarkerLimit {
    /// The value's name (TypeScript's, as in the marker).
    pub what: &'static str,
    /// The value.
    pub value: u64,
    /// The protocol's limit.
    pub max: u64,
}

impl TxStartMarker {
    /// The marker of a (valid) effect.
    pub fn of(effect: &TxEffect) -> Self {
        // Every count below is bounded by TxEffect::new far under its bit width (the largest,
        // numBlobFields, is at most 8475), so the conversions never truncate.
        let narrow = |value: usize| value as u16;
        let mut marker = Self {
            num_note_hashes: narrow(effect.note_hashes.len()),
            num_nullifiers: narrow(effect.nullifiers.len()),
            num_l2_to_l1_msgs: narrow(effect.l2_to_l1_msgs.len()),
            num_public_data_writes: narrow(effect.public_data_writes.len()),
            num_private_logs: narrow(effect.private_logs.len()),
            private_logs_length: narrow(effect.private_logs.iter().map(|log| log.fields.len()).sum()),
            public_logs_length: effect
                .public_logs
                .iter()
                .map(|log| log.fields.len() + PUBLIC_LOG_HEADER_LENGTH)
                .sum::<usize>() as u32,
            contract_class_log_length: narrow(
                effect.contract_class_logs.first().map_or(0, |log| log.fields.len()),
            ),
            revert_code: effect.revert_code.code(),
            num_blob_fields: 0,
        };
        marker.num_blob_fields = marker.implied_blob_fields() as u32;
        marker
    }

    /// The blob fields its counts imply, marker included: the sum over the layout's sections.
    pub(crate) fn implied_blob_fields(&self) -> usize {
        TX_BLOB_LAYOUT.iter().map(|section| section.len(self)).sum()
    }

    /// Checks every value against what a legal tx can have (docs/spec.md §3): the counts and
    /// lengths within the protocol's limits, each private log 1 to 16 fields, the revert code 0
    /// to 3 (every code an encoder of any protocol writes; a decoder first reads the marker's code
    /// as its protocol does, [`crate::ProtocolVersion::revert_code`]). A marker that passes describes at most [`crate::limits::MAX_TX_BLOB_DATA_SIZE_IN_FIELDS`]
    /// fields, so a reader can bound its work by it before reading anything else.
    ///
    /// # Errors
    /// [`MarkerLimit`] naming the first value over its limit.
    pub fn check_limits(&self) -> Result<(), MarkerLimit> {
        let private_logs = u64::from(self.num_private_logs);
        let limits = [
            ("numNoteHashes", u64::from(self.num_note_hashes), MAX_NOTE_HASHES_PER_TX as u64),
            ("numNullifiers", u64::from(self.num_nullifiers), MAX_NULLIFIERS_PER_TX as u64),
            ("numL2ToL1Msgs", u64::from(self.num_l2_to_l1_msgs), MAX_L2_TO_L1_MSGS_PER_TX as u64),
            (
                "numPublicDataWrites",
                u64::from(self.num_public_data_writes),
                MAX_TOTAL_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX as u64,
            ),
            ("numPrivateLogs", private_logs, MAX_PRIVATE_LOGS_PER_TX as u64),
            // Every private log holds 1 to 16 fields.
            (
                "privateLogsLength",
                u64::from(self.private_logs_length),
                private_logs * PRIVATE_LOG_SIZE_IN_FIELDS as u64,
            ),
            ("publicLogsLength", u64::from(self.public_logs_length), FLAT_PUBLIC_LOGS_PAYLOAD_LENGTH as u64),
            (
                "contractClassLogLength",
                u64::from(self.contract_class_log_length),
                CONTRACT_CLASS_LOG_SIZE_IN_FIELDS as u64,
            ),
            ("revertCode", u64::from(self.revert_code), 3),
        ];
        for (what, value, max) in limits {
            if value > max {
                return Err(MarkerLimit { what, value, max });
            }
        }
        if u64::from(self.private_logs_length) < private_logs {
            // A private log has at least one field: fewer fields than logs is no tx's marker.
            return Err(MarkerLimit {
                what: "numPrivateLogs",
                value: private_logs,
                max: u64::from(self.private_logs_length),
            });
        }
        Ok(())
    }

    fn values(&self) -> [u64; 10] {
        [
            u64::from(self.num_note_hashes),
            u64::from(self.num_nullifiers),
            u64::from(self.num_l2_to_l1_msgs),
            u64::from(self.num_public_data_writes),
            u64::from(self.num_private_logs),
            u64::from(self.private_logs_length),
            u64::from(self.public_logs_length),
            u64::from(self.contract_class_log_length),
            u64::from(self.revert_code),
            u64::from(self.num_blob_fields),
        ]
    }

    /// The marker as a field element: prefix in bits 184..216, then the counts.
    ///
    /// # Example
    /// ```
    /// use txfx_tx_effects::blob::TxStartMarker;
    /// let marker = TxStartMarker { num_blob_fields: 3, ..Default::default() };
    /// assert_eq!(
    ///     txfx_poseidon::field::fr_to_hex(&marker.encode()),
    ///     "0x00000000009c7075180000000000000000000000000000000000000000000003",
    /// );
    /// ```
    pub fn encode(&self) -> Fr {
        let mut parts = [(0u64, 0u32); 11];
        let values = core::iter::once(u64::from(TX_START_PREFIX)).chain(self.values());
        for ((part, value), width) in parts.iter_mut().zip(values).zip(MARKER_WIDTHS) {
            *part = (value, width);
        }
        // Each value is a field of its own width's type (u8, u16, u32), 216 bits in all.
        #[allow(clippy::expect_used, reason = "an internal invariant: typed values always fit")]
        bits::pack(&parts).expect("invariant: the marker's typed values fit their widths")
    }

    /// Unpacks a marker.
    ///
    /// # Errors
    /// [`NotAMarker`] if the top 40 bits are not zero followed by `TX_START_PREFIX`.
    pub fn decode(field: &Fr) -> Result<Self, NotAMarker> {
        let not_a_marker = NotAMarker { value: *field };
        let [
            prefix,
            num_note_hashes,
            num_nullifiers,
            num_l2_to_l1_msgs,
            num_public_data_writes,
            num_private_logs,
            private_logs_length,
            public_logs_length,
            contract_class_log_length,
            revert_code,
            num_blob_fields,
        ] = bits::unpack(field, MARKER_WIDTHS).ok_or(not_a_marker)?;
        if prefix != u64::from(TX_START_PREFIX) {
            return Err(not_a_marker);
        }
        // Each value was read from exactly its width, so every narrowing below is lossless.
        Ok(Self {
            num_note_hashes: num_note_hashes as u16,
            num_nullifiers: num_nullifiers as u16,
            num_l2_to_l1_msgs: num_l2_to_l1_msgs as u16,
            num_public_data_writes: num_public_data_writes as u16,
            num_private_logs: num_private_logs as u16,
            private_logs_length: private_logs_length as u16,
            public_logs_length: public_logs_length as u32,
            contract_class_log_length: contract_class_log_length as u16,
            revert_code: revert_code as u8,
            num_blob_fields: num_blob_fields as u32,
        })
    }
}

/// One tx's blob data that does not decode. Offsets count fields from the tx's start marker
/// (offset 0) as [`decode_tx_blob`] reports them; inside a block or a checkpoint they count from
/// its first field ([`TxBlobError::offset_by`]), so that a message names each field by one
/// offset.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TxBlobError {
    /// The first field is not a tx start marker (wrong prefix or high bits set).
    #[error("the field at offset {offset} is not a tx start marker: {}", fr_to_hex(.value))]
    NotAMarker {
        /// The field's offset (0: the tx's first field).
        offset: usize,
        /// The field.
        value: Fr,
    },
    /// The marker claims more fields than remain.
    #[error("the marker claims {claimed} blob fields but only {available} remain")]
    Truncated {
        /// `numBlobFields` from the marker.
        claimed: usize,
        /// Fields left from the marker on.
        available: usize,
    },
    /// The marker's `numBlobFields` disagrees with the counts it carries.
    #[error("the marker says {claimed} blob fields, its counts add up to {implied}")]
    LengthMismatch {
        /// `numBlobFields` from the marker.
        claimed: usize,
        /// What the counts and log lengths imply.
        implied: usize,
    },
    /// A marker value over the protocol's limits.
    #[error(transparent)]
    Limit(#[from] MarkerLimit),
    /// A log's own length field reaches past the end of its section.
    #[error("{what} at offset {offset} needs {needed} fields, {available} remain in the section")]
    RanOut {
        /// Which read.
        what: &'static str,
        /// The offset where the read starts.
        offset: usize,
        /// Fields the read needs.
        needed: usize,
        /// Fields left in the section.
        available: usize,
    },
    /// A length field inside the blob is not an integer in the allowed range.
    #[error("{what} at offset {offset} is {}, at most {max} allowed", fr_to_hex(.value))]
    BadLength {
        /// Which length.
        what: &'static str,
        /// The offset of the length field.
        offset: usize,
        /// The field found.
        value: Fr,
        /// The largest allowed value.
        max: usize,
    },
    /// The private logs' lengths do not add up to the marker's `privateLogsLength`.
    #[error("private log lengths add up to {sum}, the marker says {marker}")]
    PrivateLogsLengthMismatch {
        /// Σ of the length fields read.
        sum: usize,
        /// The marker's `privateLogsLength`.
        marker: usize,
    },
    /// The decoded effect breaks a protocol rule.
    #[error(transparent)]
    Invalid(#[from] TxEffectError),
}

impl TxBlobError {
    /// The same error with its offsets counted from `base` fields earlier (the tx's marker's
    /// offset in the fields read).
    #[must_use]
    pub fn offset_by(self, base: usize) -> Self {
        match self {
            Self::NotAMarker { offset, value } => Self::NotAMarker { offset: offset + base, value },
            Self::RanOut { what, offset, needed, available } => {
                Self::RanOut { what, offset: offset + base, needed, available }
            }
            Self::BadLength { what, offset, value, max } => {
                Self::BadLength { what, offset: offset + base, value, max }
            }
            other => other,
        }
    }
}

/// A block's blob fields that do not decode into tx effects.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BlobError {
    /// A tx that does not decode.
    #[error("tx {tx} (its marker at offset {offset}): {source}")]
    Tx {
        /// The tx's position in the block.
        tx: usize,
        /// The offset of its start marker in the block's fields.
        offset: usize,
        /// What is wrong (offsets counted from the block's first field).
        source: TxBlobError,
    },
    /// More txs than a block may hold.
    #[error("block blob holds more than {max} txs")]
    TooManyTxs {
        /// The limit.
        max: usize,
    },
}

/// The blob fields of one effect: marker first (docs/spec.md §5.1), section by section.
pub fn encode_tx_blob(effect: &TxEffect) -> Vec<Fr> {
    let marker = TxStartMarker::of(effect);
    let mut out = Vec::with_capacity(marker.num_blob_fields as usize);
    let encoded = marker.encode();
    for section in TX_BLOB_LAYOUT {
        section.write(effect, encoded, &mut out);
    }
    out
}

/// The blob fields of a whole block: each effect's blob fields, in order.
pub fn encode_block_blob(body: &Body) -> Vec<Fr> {
    body.tx_effects.iter().flat_map(encode_tx_blob).collect()
}

/// A cursor over one section's fields that never reads past them.
struct Cursor<'a> {
    fields: &'a [Fr],
    /// The offset of `fields[0]` in the tx's blob data.
    offset: usize,
}

impl<'a> Cursor<'a> {
    /// The next `count` fields. The marker's counts were checked against the tx's length before
    /// any cursor exists, so running out here means a log's own length field overran its section.
    fn take(&mut self, count: usize, what: &'static str) -> Result<&'a [Fr], TxBlobError> {
        let Some((head, rest)) = self.fields.split_at_checked(count) else {
            return Err(TxBlobError::RanOut {
                what,
                offset: self.offset,
                needed: count,
                available: self.fields.len(),
            });
        };
        self.fields = rest;
        self.offset += count;
        Ok(head)
    }

    fn one(&mut self, what: &'static str) -> Result<Fr, TxBlobError> {
        match self.take(1, what)? {
            [value] => Ok(*value),
            _ => Err(TxBlobError::RanOut { what, offset: self.offset, needed: 1, available: 0 }),
        }
    }

    /// A length field: a field element that must be an integer no larger than `max`.
    fn length(&mut self, what: &'static str, max: usize) -> Result<usize, TxBlobError> {
        let offset = self.offset;
        let value = self.one(what)?;
        let bytes = fr_to_be_bytes(&value);
        let (high, low) = bytes.split_at(24);
        let low = low.iter().fold(0u64, |acc, b| (acc << 8) | u64::from(*b));
        match usize::try_from(low) {
            Ok(length) if high.iter().all(|b| *b == 0) && length <= max => Ok(length),
            _ => Err(TxBlobError::BadLength { what, offset, value, max }),
        }
    }
}

/// Reads one category's section from `cursor` (exactly the section's fields) into `f`.
fn read_category(
    f: &mut TxEffectFields,
    category: Category,
    marker: &TxStartMarker,
    part: &mut Cursor<'_>,
) -> Result<(), TxBlobError> {
    match category {
        Category::NoteHashes => f.note_hashes = part.fields.to_vec(),
        Category::Nullifiers => f.nullifiers = part.fields.to_vec(),
        Category::L2ToL1Msgs => f.l2_to_l1_msgs = part.fields.to_vec(),
        Category::PublicDataWrites => {
            let (pairs, _) = part.fields.as_chunks::<2>();
            f.public_data_writes = pairs
                .iter()
                .map(|[leaf_slot, value]| PublicDataWrite { leaf_slot: *leaf_slot, value: *value })
                .collect();
        }
        Category::PrivateLogs => {
            let mut sum = 0usize;
            for _ in 0..marker.num_private_logs {
                let length = part.length("private log length", PRIVATE_LOG_SIZE_IN_FIELDS)?;
                sum += length;
                f.private_logs.push(PrivateLog {
                    fields: part.take(length, "private log fields")?.to_vec(),
                    padding: Vec::new(),
                });
            }
            if sum != usize::from(marker.private_logs_length) || !part.fields.is_empty() {
                return Err(TxBlobError::PrivateLogsLengthMismatch {
                    sum,
                    marker: usize::from(marker.private_logs_length),
                });
            }
        }
        Category::PublicLogs => {
            while !part.fields.is_empty() {
                let max = part.fields.len().saturating_sub(PUBLIC_LOG_HEADER_LENGTH);
                let length = part.length("public log length", max)?;
                let contract_address = part.one("public log address")?;
                f.public_logs.push(PublicLog {
                    contract_address,
                    fields: part.take(length, "public log fields")?.to_vec(),
                });
            }
        }
        Category::ContractClassLogs => {
            if !part.fields.is_empty() {
                let contract_address = part.one("contract class log address")?;
                f.contract_class_logs
                    .push(ContractClassLog { contract_address, fields: part.fields.to_vec() });
            }
        }
    }
    Ok(())
}

/// Reads one category's section of a tx whose marker is `marker`: `fields` must be exactly the
/// section (its length is what the marker's counts give). The result holds that category and
/// nothing else; errors name offsets in the tx's blob data.
///
/// # Errors
/// [`TxBlobError`] for a marker over the protocol's limits, a section of another length, a log
/// whose length fields do not frame the section, or items that break a protocol rule.
pub(crate) fn decode_category_section(
    category: Category,
    marker: &TxStartMarker,
    fields: &[Fr],
) -> Result<TxEffect, TxBlobError> {
    marker.check_limits()?;
    let section = Section::Category(category);
    let offset = section.offset(marker);
    let expected = section.len(marker);
    if fields.len() != expected {
        return Err(TxBlobError::RanOut {
            what: "the category's section",
            offset,
            needed: expected,
            available: fields.len(),
        });
    }
    let mut decoded = TxEffectFields::default();
    read_category(&mut decoded, category, marker, &mut Cursor { fields, offset })?;
    Ok(TxEffect::new(decoded)?)
}

/// Decodes the tx whose marker is `fields[0]` under `protocol`'s rules, returning it and the
/// number of fields it used. Fields after it are left alone (the upstream decoder ignores them;
/// [`decode_block_blob`] reads them as the next tx).
///
/// # Errors
/// [`TxBlobError`] for a bad marker, a truncated or inconsistent encoding, or an effect that
/// breaks a protocol rule ([`ProtocolVersion::revert_code`], [`TxEffect::new`],
/// [`ProtocolVersion::check_effect`]).
pub fn decode_tx_blob(protocol: ProtocolVersion, fields: &[Fr]) -> Result<(TxEffect, usize), TxBlobError> {
    let marker_field = fields.first().ok_or(TxBlobError::Truncated { claimed: 1, available: 0 })?;
    let marker = TxStartMarker::decode(marker_field)
        .map_err(|NotAMarker { value }| TxBlobError::NotAMarker { offset: 0, value })?;
    let claimed = marker.num_blob_fields as usize;
    if claimed > fields.len() {
        return Err(TxBlobError::Truncated { claimed, available: fields.len() });
    }
    let implied = marker.implied_blob_fields();
    if implied != claimed {
        return Err(TxBlobError::LengthMismatch { claimed, implied });
    }
    let revert_code = protocol.revert_code(u64::from(marker.revert_code))?;
    // v6 reads every code from 1 up as REVERTED: the limits see the code it reads.
    let marker = TxStartMarker { revert_code: revert_code.code(), ..marker };
    marker.check_limits()?;
    // From here on every read is bounded by the claimed length, which is bounded by the input.
    let mut cursor = Cursor { fields: fields.get(1..claimed).unwrap_or_default(), offset: 1 };
    let mut decoded = TxEffectFields { revert_code, ..TxEffectFields::default() };
    for section in TX_BLOB_LAYOUT {
        let len = section.len(&marker);
        match section {
            Section::Marker => {}
            Section::TxHash => decoded.tx_hash = cursor.one("txHash")?,
            Section::TransactionFee => decoded.transaction_fee = cursor.one("transactionFee")?,
            Section::Category(category) => {
                let offset = cursor.offset;
                let mut part = Cursor { fields: cursor.take(len, category.name())?, offset };
                read_category(&mut decoded, category, &marker, &mut part)?;
            }
        }
    }
    let effect = TxEffect::new(decoded)?;
    protocol.check_effect(&effect)?;
    Ok((effect, claimed))
}

/// Decodes a whole block's blob fields under `protocol`'s rules: consecutive per-tx blobs, each
/// starting with a marker, with nothing left over.
///
/// # Errors
/// [`BlobError`] for the first tx that does not decode, or trailing fields that are not a tx.
pub fn decode_block_blob(protocol: ProtocolVersion, fields: &[Fr]) -> Result<Body, BlobError> {
    let mut offset = 0;
    let mut tx_effects = Vec::new();
    while let Some(rest) = fields.get(offset..).filter(|rest| !rest.is_empty()) {
        if tx_effects.len() == MAX_TXS_PER_BLOCK {
            return Err(BlobError::TooManyTxs { max: MAX_TXS_PER_BLOCK });
        }
        let tx = tx_effects.len();
        let (effect, used) = decode_tx_blob(protocol, rest).map_err(|source| BlobError::Tx {
            tx,
            offset,
            source: source.offset_by(offset),
        })?;
        tx_effects.push(effect);
        offset += used;
    }
    Ok(Body::new(tx_effects))
}
