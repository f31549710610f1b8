//! Blob encoding of tx effects and the 216-bit tx start marker (SPEC.md §5).
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

use txfx_poseidon::field::{fr_from_be_bytes, fr_to_be_bytes, fr_to_hex};
use txfx_poseidon::{Fr, TX_START_PREFIX};

use crate::limits::{MAX_TXS_PER_BLOCK, PRIVATE_LOG_SIZE_IN_FIELDS};
use crate::model::{
    Body, ContractClassLog, PrivateLog, PublicDataWrite, PublicLog, RevertCode, TxEffect, TxEffectError,
    TxEffectFields,
};

/// The counts packed into a tx start marker, most significant first (SPEC.md §5.2).
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

/// Bytes of the marker after the five zero bytes: 216 bits.
const MARKER_BYTES: usize = 27;
const MARKER_OFFSET: usize = 32 - MARKER_BYTES;

impl TxStartMarker {
    /// The marker of a (valid) effect.
    pub fn of(effect: &TxEffect) -> Self {
        // Every count below is bounded by TxEffect::new far under its bit width
        // (the largest, numBlobFields, is at most 8475), so the conversions never truncate.
        let narrow = |value: usize| value as u16;
        Self {
            num_note_hashes: narrow(effect.note_hashes.len()),
            num_nullifiers: narrow(effect.nullifiers.len()),
            num_l2_to_l1_msgs: narrow(effect.l2_to_l1_msgs.len()),
            num_public_data_writes: narrow(effect.public_data_writes.len()),
            num_private_logs: narrow(effect.private_logs.len()),
            private_logs_length: narrow(effect.private_logs_length()),
            public_logs_length: effect.public_logs_length() as u32,
            contract_class_log_length: narrow(effect.contract_class_log_length()),
            revert_code: effect.revert_code.code(),
            num_blob_fields: effect.num_blob_fields() as u32,
        }
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
        let mut out = Vec::with_capacity(MARKER_BYTES);
        out.extend_from_slice(&TX_START_PREFIX.to_be_bytes());
        for count in [
            self.num_note_hashes,
            self.num_nullifiers,
            self.num_l2_to_l1_msgs,
            self.num_public_data_writes,
            self.num_private_logs,
            self.private_logs_length,
        ] {
            out.extend_from_slice(&count.to_be_bytes());
        }
        out.extend_from_slice(&self.public_logs_length.to_be_bytes());
        out.extend_from_slice(&self.contract_class_log_length.to_be_bytes());
        out.push(self.revert_code);
        out.extend_from_slice(&self.num_blob_fields.to_be_bytes());
        bytes[MARKER_OFFSET..].copy_from_slice(&out);
        // 216 bits with a leading nonzero prefix byte below 0x9d: always below p.
        fr_from_be_bytes(&bytes).unwrap_or_default()
    }

    /// Unpacks a marker.
    ///
    /// # Errors
    /// [`BlobError::NotAMarker`] if the top 40 bits are not zero followed by `TX_START_PREFIX`.
    pub fn decode(field: &Fr) -> Result<Self, BlobError> {
        let bytes = fr_to_be_bytes(field);
        let (zeros, packed) = bytes.split_at(MARKER_OFFSET);
        let not_a_marker = || BlobError::NotAMarker { value: fr_to_hex(field) };
        if zeros.iter().any(|byte| *byte != 0) {
            return Err(not_a_marker());
        }
        let mut reader = packed.iter().copied();
        let mut take =
            |n: usize| -> u64 { (&mut reader).take(n).fold(0u64, |acc, b| (acc << 8) | u64::from(b)) };
        if take(4) != u64::from(TX_START_PREFIX) {
            return Err(not_a_marker());
        }
        Ok(Self {
            num_note_hashes: take(2) as u16,
            num_nullifiers: take(2) as u16,
            num_l2_to_l1_msgs: take(2) as u16,
            num_public_data_writes: take(2) as u16,
            num_private_logs: take(2) as u16,
            private_logs_length: take(2) as u16,
            public_logs_length: take(4) as u32,
            contract_class_log_length: take(2) as u16,
            revert_code: take(1) as u8,
            num_blob_fields: take(4) as u32,
        })
    }
}

/// Blob fields that do not decode into tx effects.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BlobError {
    /// A field where a tx start marker must be is not one (wrong prefix or high bits set).
    #[error("field at offset {offset} is not a tx start marker: {value}")]
    NotAMarkerAt {
        /// The offset of the field in the block's blob fields.
        offset: usize,
        /// The field.
        value: String,
    },
    /// Like [`BlobError::NotAMarkerAt`], before the offset is known.
    #[error("not a tx start marker: {value}")]
    NotAMarker {
        /// The field.
        value: String,
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
    /// A length field inside the blob is impossible (too large, or disagrees with the marker).
    #[error("tx {tx}: {what} is {value}, {expected}")]
    BadLength {
        /// The tx's position in the block.
        tx: usize,
        /// Which length.
        what: &'static str,
        /// The value found.
        value: String,
        /// What was allowed.
        expected: String,
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

/// The blob fields of one effect: marker first (SPEC.md §5.1).
pub fn encode_tx_blob(effect: &TxEffect) -> Vec<Fr> {
    let mut out = Vec::with_capacity(effect.num_blob_fields());
    out.push(TxStartMarker::of(effect).encode());
    out.push(effect.tx_hash);
    out.push(effect.transaction_fee);
    out.extend_from_slice(&effect.note_hashes);
    out.extend_from_slice(&effect.nullifiers);
    out.extend_from_slice(&effect.l2_to_l1_msgs);
    for write in &effect.public_data_writes {
        out.extend([write.leaf_slot, write.value]);
    }
    for log in &effect.private_logs {
        out.push(Fr::from(log.fields.len() as u64));
        out.extend_from_slice(&log.fields);
    }
    for log in &effect.public_logs {
        out.push(Fr::from(log.fields.len() as u64));
        out.push(log.contract_address);
        out.extend_from_slice(&log.fields);
    }
    for log in &effect.contract_class_logs {
        out.push(log.contract_address);
        out.extend_from_slice(&log.fields);
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
    tx: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, count: usize, what: &'static str) -> Result<&'a [Fr], BlobError> {
        if count > self.fields.len() {
            return Err(BlobError::BadLength {
                tx: self.tx,
                what,
                value: count.to_string(),
                expected: format!("at most the {} fields left in the tx", self.fields.len()),
            });
        }
        let (head, rest) = self.fields.split_at(count);
        self.fields = rest;
        Ok(head)
    }

    fn one(&mut self, what: &'static str) -> Result<Fr, BlobError> {
        self.take(1, what)?.first().copied().ok_or(BlobError::BadLength {
            tx: self.tx,
            what,
            value: "1".into(),
            expected: "a field".into(),
        })
    }

    /// A length field: a field element that must be a small integer no larger than `max`.
    fn length(&mut self, what: &'static str, max: usize) -> Result<usize, BlobError> {
        let field = self.one(what)?;
        let bytes = fr_to_be_bytes(&field);
        let (high, low) = bytes.split_at(28);
        let value = low.iter().fold(0usize, |acc, b| (acc << 8) | usize::from(*b));
        if high.iter().any(|b| *b != 0) || value > max {
            return Err(BlobError::BadLength {
                tx: self.tx,
                what,
                value: fr_to_hex(&field),
                expected: format!("at most {max}"),
            });
        }
        Ok(value)
    }
}

/// Decodes the tx whose marker is `fields[0]`, returning it and the number of fields it used.
/// Fields after it are left alone (the upstream decoder ignores them; [`decode_block_blob`] reads
/// them as the next tx).
///
/// # Errors
/// [`BlobError`] naming `tx` for a bad marker, a truncated or inconsistent encoding, or an
/// effect that breaks a protocol rule.
pub fn decode_tx_blob(fields: &[Fr], tx: usize) -> Result<(TxEffect, usize), BlobError> {
    let marker_field = fields.first().ok_or(BlobError::Truncated { tx, claimed: 1, available: 0 })?;
    let marker = TxStartMarker::decode(marker_field)?;
    let claimed = marker.num_blob_fields as usize;
    if claimed > fields.len() {
        return Err(BlobError::Truncated { tx, claimed, available: fields.len() });
    }
    let implied = 3
        + usize::from(marker.num_note_hashes)
        + usize::from(marker.num_nullifiers)
        + usize::from(marker.num_l2_to_l1_msgs)
        + 2 * usize::from(marker.num_public_data_writes)
        + usize::from(marker.num_private_logs)
        + usize::from(marker.private_logs_length)
        + marker.public_logs_length as usize
        + if marker.contract_class_log_length > 0 {
            1 + usize::from(marker.contract_class_log_length)
        } else {
            0
        };
    if implied != claimed {
        return Err(BlobError::LengthMismatch { tx, claimed, implied });
    }
    let revert_code = RevertCode::from_code(u64::from(marker.revert_code))
        .map_err(|source| BlobError::Invalid { tx, source })?;
    // From here on every read is bounded by the claimed length, which is bounded by the input.
    let mut cursor = Cursor { fields: fields.get(1..claimed).unwrap_or_default(), tx };
    let tx_hash = cursor.one("txHash")?;
    let transaction_fee = cursor.one("transactionFee")?;
    let note_hashes = cursor.take(usize::from(marker.num_note_hashes), "note hash count")?.to_vec();
    let nullifiers = cursor.take(usize::from(marker.num_nullifiers), "nullifier count")?.to_vec();
    let l2_to_l1_msgs = cursor.take(usize::from(marker.num_l2_to_l1_msgs), "message count")?.to_vec();
    let writes = cursor.take(2 * usize::from(marker.num_public_data_writes), "public data write count")?;
    let public_data_writes = writes
        .chunks_exact(2)
        .map(|pair| match pair {
            [leaf_slot, value] => PublicDataWrite { leaf_slot: *leaf_slot, value: *value },
            _ => PublicDataWrite::default(),
        })
        .collect();
    let mut private_logs = Vec::new();
    let mut private_total = 0usize;
    for _ in 0..marker.num_private_logs {
        let length = cursor.length("private log length", PRIVATE_LOG_SIZE_IN_FIELDS)?;
        private_total += length;
        private_logs.push(PrivateLog { fields: cursor.take(length, "private log length")?.to_vec() });
    }
    if private_total != usize::from(marker.private_logs_length) {
        return Err(BlobError::BadLength {
            tx,
            what: "sum of private log lengths",
            value: private_total.to_string(),
            expected: format!("{} as the marker says", marker.private_logs_length),
        });
    }
    let mut payload =
        Cursor { fields: cursor.take(marker.public_logs_length as usize, "public logs length")?, tx };
    let mut public_logs = Vec::new();
    while !payload.fields.is_empty() {
        let length = payload.length("public log length", payload.fields.len().saturating_sub(2))?;
        let contract_address = payload.one("public log address")?;
        public_logs.push(PublicLog {
            contract_address,
            fields: payload.take(length, "public log length")?.to_vec(),
        });
    }
    let mut contract_class_logs = Vec::new();
    if marker.contract_class_log_length > 0 {
        let contract_address = cursor.one("contract class log address")?;
        let log_fields =
            cursor.take(usize::from(marker.contract_class_log_length), "contract class log length")?;
        contract_class_logs.push(ContractClassLog { contract_address, fields: log_fields.to_vec() });
    }
    let effect = TxEffect::new(TxEffectFields {
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
    })
    .map_err(|source| BlobError::Invalid { tx, source })?;
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
        let (effect, used) = decode_tx_blob(rest, tx_effects.len()).map_err(|error| match error {
            BlobError::NotAMarker { value } => BlobError::NotAMarkerAt { offset, value },
            other => other,
        })?;
        tx_effects.push(effect);
        offset += used;
    }
    Ok(Body::new(tx_effects))
}
