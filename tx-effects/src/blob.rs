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
//! every count is checked against the fields actually present before anything is read or
//! allocated, the marker's `numBlobFields` must equal what the counts imply, and the decoded
//! effect must pass [`TxEffect::new`].

use txfx_poseidon::field::{fr_to_be_bytes, fr_to_hex};
use txfx_poseidon::{Fr, TX_START_PREFIX};

use crate::limits::{MAX_TXS_PER_BLOCK, PRIVATE_LOG_SIZE_IN_FIELDS, PUBLIC_LOG_HEADER_LENGTH};
use crate::model::{
    Body, Category, ContractClassLog, PrivateLog, PublicDataWrite, PublicLog, RevertCode, TxEffect,
    TxEffectError, TxEffectFields,
};

/// One section of a tx's blob data. [`TX_BLOB_LAYOUT`] lists them in order; the encoder, the
/// decoder, the length count ([`TxStartMarker::num_blob_fields`] is computed from it) and the
/// category preimages ([`Section::write`] for categories 0..5) all read that one description.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Section {
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
pub const TX_BLOB_LAYOUT: [Section; 10] = [
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
    pub fn len(self, marker: &TxStartMarker) -> usize {
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

    /// Appends this section of `effect` to `out`; `marker` is the effect's own marker.
    pub fn write(self, effect: &TxEffect, marker: Fr, out: &mut Vec<Fr>) {
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

/// The marker's bit fields after the 32-bit prefix, most significant first, as byte widths:
/// the one description [`TxStartMarker::encode`] and [`TxStartMarker::decode`] both read.
const MARKER_FIELD_BYTES: [usize; 10] = [2, 2, 2, 2, 2, 2, 4, 2, 1, 4];

/// Bytes of the marker: 216 bits (prefix and fields), under five zero bytes.
const MARKER_BYTES: usize = 4 + 2 * 6 + 4 + 2 + 1 + 4;
const MARKER_OFFSET: usize = 32 - MARKER_BYTES;

/// A field that is not a tx start marker: high bits set or another prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("not a tx start marker: {}", fr_to_hex(.value))]
pub struct NotAMarker {
    /// The field.
    pub value: Fr,
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

    /// The blob fields its counts imply, marker included: the sum over [`TX_BLOB_LAYOUT`].
    pub fn implied_blob_fields(&self) -> usize {
        TX_BLOB_LAYOUT.iter().map(|section| section.len(self)).sum()
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
        let mut bytes = [0u8; 32];
        let mut at = MARKER_OFFSET;
        for (value, width) in core::iter::once((u64::from(TX_START_PREFIX), 4))
            .chain(self.values().into_iter().zip(MARKER_FIELD_BYTES))
        {
            for (slot, byte) in bytes.iter_mut().skip(at).zip(value.to_be_bytes().into_iter().skip(8 - width))
            {
                *slot = byte;
            }
            at += width;
        }
        // 216 bits as high · 2^128 + low, in field arithmetic: exact, since 2^216 < p.
        let (high, low) = bytes.split_at(16);
        let word = |half: &[u8]| half.iter().fold(0u128, |acc, b| (acc << 8) | u128::from(*b));
        Fr::from(word(high)) * (Fr::from(u128::MAX) + Fr::from(1u64)) + Fr::from(word(low))
    }

    /// Unpacks a marker.
    ///
    /// # Errors
    /// [`NotAMarker`] if the top 40 bits are not zero followed by `TX_START_PREFIX`.
    pub fn decode(field: &Fr) -> Result<Self, NotAMarker> {
        let bytes = fr_to_be_bytes(field);
        let (zeros, packed) = bytes.split_at(MARKER_OFFSET);
        let mut reader = packed.iter().copied();
        let mut take = |n: usize| (&mut reader).take(n).fold(0u64, |acc, b| (acc << 8) | u64::from(b));
        if zeros.iter().any(|byte| *byte != 0) || take(4) != u64::from(TX_START_PREFIX) {
            return Err(NotAMarker { value: *field });
        }
        let [
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
        ] = MARKER_FIELD_BYTES.map(take);
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

/// Blob fields that do not decode into tx effects. Offsets count fields from the start of the
/// input given to the decoder.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BlobError {
    /// A field where a tx start marker must be is not one (wrong prefix or high bits set).
    #[error("field at offset {offset} is not a tx start marker: {}", fr_to_hex(.value))]
    NotAMarker {
        /// The offset of the field.
        offset: usize,
        /// The field.
        value: Fr,
    },
    /// The marker claims more fields than the blob holds.
    #[error("tx {tx}: marker claims {claimed} blob fields but only {available} remain")]
    Truncated {
        /// The tx's position in the block.
        tx: usize,
        /// `numBlobFields` from the marker.
        claimed: usize,
        /// Fields left from the marker on.
        available: usize,
    },
    /// The marker's `numBlobFields` disagrees with the counts it carries.
    #[error("tx {tx}: marker says {claimed} blob fields, its counts add up to {implied}")]
    LengthMismatch {
        /// The tx's position in the block.
        tx: usize,
        /// `numBlobFields` from the marker.
        claimed: usize,
        /// What the counts and log lengths imply.
        implied: usize,
    },
    /// A length field inside the blob is not an integer in the allowed range.
    #[error("tx {tx}: {what} at offset {offset} is {}, at most {max} allowed", fr_to_hex(.value))]
    BadLength {
        /// The tx's position in the block.
        tx: usize,
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
    #[error("tx {tx}: private log lengths add up to {sum}, the marker says {marker}")]
    PrivateLogsLengthMismatch {
        /// The tx's position in the block.
        tx: usize,
        /// Σ of the length fields read.
        sum: usize,
        /// The marker's `privateLogsLength`.
        marker: usize,
    },
    /// The decoded effect breaks a protocol rule.
    #[error("tx {tx}: {source}")]
    Invalid {
        /// The tx's position in the block.
        tx: usize,
        /// The rule broken.
        source: TxEffectError,
    },
    /// More txs than a block may hold.
    #[error("block blob holds more than {max} txs")]
    TooManyTxs {
        /// The limit.
        max: usize,
    },
}

/// The blob fields of one effect: marker first (docs/spec.md §5.1), section by section of
/// [`TX_BLOB_LAYOUT`].
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

/// A cursor over one tx's fields that never reads past them.
struct Cursor<'a> {
    fields: &'a [Fr],
    /// The offset of `fields[0]` in the decoder's input.
    offset: usize,
    tx: usize,
}

impl<'a> Cursor<'a> {
    /// The next `count` fields. The marker's counts were checked against the tx's length before
    /// any cursor exists, so running out here means a log's own length field overran its section.
    fn take(&mut self, count: usize, what: &'static str) -> Result<&'a [Fr], BlobError> {
        let Some((head, rest)) = self.fields.split_at_checked(count) else {
            return Err(BlobError::BadLength {
                tx: self.tx,
                what,
                offset: self.offset,
                value: Fr::from(count as u64),
                max: self.fields.len(),
            });
        };
        self.fields = rest;
        self.offset += count;
        Ok(head)
    }

    fn one(&mut self, what: &'static str) -> Result<Fr, BlobError> {
        match self.take(1, what)? {
            [value] => Ok(*value),
            _ => Err(BlobError::BadLength {
                tx: self.tx,
                what,
                offset: self.offset,
                value: Fr::from(1u64),
                max: 0,
            }),
        }
    }

    /// A length field: a field element that must be an integer no larger than `max`.
    fn length(&mut self, what: &'static str, max: usize) -> Result<usize, BlobError> {
        let offset = self.offset;
        let value = self.one(what)?;
        let bytes = fr_to_be_bytes(&value);
        let (high, low) = bytes.split_at(24);
        let low = low.iter().fold(0u64, |acc, b| (acc << 8) | u64::from(*b));
        match usize::try_from(low) {
            Ok(length) if high.iter().all(|b| *b == 0) && length <= max => Ok(length),
            _ => Err(BlobError::BadLength { tx: self.tx, what, offset, value, max }),
        }
    }

    /// A sub-cursor over the next `count` fields (one section).
    fn section(&mut self, count: usize, what: &'static str) -> Result<Cursor<'a>, BlobError> {
        let offset = self.offset;
        Ok(Cursor { fields: self.take(count, what)?, offset, tx: self.tx })
    }
}

/// Reads one section (the marker is already read) from `cursor` into the effect's fields.
fn read_section(
    f: &mut TxEffectFields,
    section: Section,
    marker: &TxStartMarker,
    cursor: &mut Cursor<'_>,
) -> Result<(), BlobError> {
    let len = section.len(marker);
    match section {
        Section::Marker => {}
        Section::TxHash => f.tx_hash = cursor.one("txHash")?,
        Section::TransactionFee => f.transaction_fee = cursor.one("transactionFee")?,
        Section::Category(category) => {
            let mut part = cursor.section(len, category.name())?;
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
                            fields: part.take(length, "private log length")?.to_vec(),
                            padding: Vec::new(),
                        });
                    }
                    if sum != usize::from(marker.private_logs_length) || !part.fields.is_empty() {
                        return Err(BlobError::PrivateLogsLengthMismatch {
                            tx: part.tx,
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
                            fields: part.take(length, "public log length")?.to_vec(),
                        });
                    }
                }
                Category::ContractClassLogs => {
                    if len > 0 {
                        let contract_address = part.one("contract class log address")?;
                        f.contract_class_logs
                            .push(ContractClassLog { contract_address, fields: part.fields.to_vec() });
                    }
                }
            }
        }
    }
    Ok(())
}

/// Decodes the tx whose marker is `fields[0]`, returning it and the number of fields it used.
/// Fields after it are left alone (the upstream decoder ignores them; [`decode_block_blob`] reads
/// them as the next tx). Errors name `tx` and offsets from `fields[0]`.
///
/// # Errors
/// [`BlobError`] for a bad marker, a truncated or inconsistent encoding, or an effect that
/// breaks a protocol rule.
pub fn decode_tx_blob(fields: &[Fr], tx: usize) -> Result<(TxEffect, usize), BlobError> {
    decode_tx_blob_at(fields, 0, tx)
}

/// [`decode_tx_blob`] for a tx found at `offset` of a larger input, so errors name that offset.
fn decode_tx_blob_at(fields: &[Fr], offset: usize, tx: usize) -> Result<(TxEffect, usize), BlobError> {
    let marker_field = fields.first().ok_or(BlobError::Truncated { tx, claimed: 1, available: 0 })?;
    let marker = TxStartMarker::decode(marker_field)
        .map_err(|NotAMarker { value }| BlobError::NotAMarker { offset, value })?;
    let claimed = marker.num_blob_fields as usize;
    if claimed > fields.len() {
        return Err(BlobError::Truncated { tx, claimed, available: fields.len() });
    }
    let implied = marker.implied_blob_fields();
    if implied != claimed {
        return Err(BlobError::LengthMismatch { tx, claimed, implied });
    }
    let revert_code = RevertCode::from_code(u64::from(marker.revert_code))
        .map_err(|source| BlobError::Invalid { tx, source })?;
    // From here on every read is bounded by the claimed length, which is bounded by the input.
    let mut cursor = Cursor { fields: fields.get(1..claimed).unwrap_or_default(), offset: offset + 1, tx };
    let mut decoded = TxEffectFields { revert_code, ..TxEffectFields::default() };
    for section in TX_BLOB_LAYOUT {
        read_section(&mut decoded, section, &marker, &mut cursor)?;
    }
    let effect = TxEffect::new(decoded).map_err(|source| BlobError::Invalid { tx, source })?;
    Ok((effect, claimed))
}

/// Decodes a whole block's blob fields: consecutive per-tx blobs, each starting with a marker,
/// with nothing left over.
///
/// # Errors
/// [`BlobError`] for the first tx that does not decode, or trailing fields that are not a tx.
pub fn decode_block_blob(fields: &[Fr]) -> Result<Body, BlobError> {
    let mut offset = 0;
    let mut tx_effects = Vec::new();
    while let Some(rest) = fields.get(offset..).filter(|rest| !rest.is_empty()) {
        if tx_effects.len() == MAX_TXS_PER_BLOCK {
            return Err(BlobError::TooManyTxs { max: MAX_TXS_PER_BLOCK });
        }
        let (effect, used) = decode_tx_blob_at(rest, offset, tx_effects.len())?;
        tx_effects.push(effect);
        offset += used;
    }
    Ok(Body::new(tx_effects))
}
