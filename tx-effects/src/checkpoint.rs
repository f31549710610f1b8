//! Checkpoint blob data: what L1 blobs carry for a checkpoint of one or more blocks
//! (docs/spec.md §12.2, §13; the rules of `@aztec/blob-lib`'s `encoding/`).
//!
//! ```text
//! [tx blob data..] block-end data  [tx blob data..] block-end data  ..  checkpoint-end  0 0 0 ..
//! \_____________ block 0 ________/\_____________ block 1 ________/         marker      zero tail
//! ```
//!
//! Block-end data is the block-end marker (`BLOCK_END_PREFIX` 32 bits | timestamp 64 | blockNumber
//! 32 | numTxs 16), the state field (l1ToL2MessageNextAvailableLeafIndex 36 | noteHash… 42 |
//! nullifier… 42 | publicData… 40 | totalManaUsed 48), lastArchiveRoot, noteHashRoot,
//! nullifierRoot, publicDataRoot and l1ToL2MessageRoot: on every block in Aztec v6 (7 fields
//! each, blob-lib's `NUM_BLOCK_END_BLOB_FIELDS = 7`), on the first block only before it (7 fields,
//! then 6); [`ProtocolVersion::block_carries_l1_to_l2_root`] is the one rule. The
//! checkpoint-end marker is `CHECKPOINT_END_PREFIX` 32 bits | numBlobFields 32, counting every
//! field of the checkpoint, itself included. Zeros follow up to the end of the last 4096-field
//! blob.
//!
//! [`decode_checkpoint`] trusts nothing: it reads at most [`MAX_CHECKPOINT_BLOB_FIELDS`] fields,
//! allocates only for what it has read, and names the offset of every inconsistency.
//! [`encode_checkpoint`] is its exact inverse (without the zero tail; [`pad_to_blobs`] adds it).

use txfx_poseidon::Fr;
use txfx_poseidon::field::{bits, fr_to_hex};

use crate::blob::{TxBlobError, decode_tx_blob, encode_block_blob};
use crate::model::{BlockNumber, Body};
use crate::protocol::ProtocolVersion;

/// The prefix of a block-end marker (Noir `constants.nr`, `@aztec/constants` 4.1.2).
pub(crate) const BLOCK_END_PREFIX: u32 = 3_951_939_007;
/// The prefix of a checkpoint-end marker (Noir `constants.nr`, `@aztec/constants` 4.1.2).
pub(crate) const CHECKPOINT_END_PREFIX: u32 = 2_355_328_067;
/// Fields of one EIP-4844 blob.
pub const FIELDS_PER_BLOB: usize = 4096;
/// The most blobs one checkpoint may fill.
pub const BLOBS_PER_CHECKPOINT: usize = 6;
/// The most blob fields a checkpoint may have, zero tail included: what six blobs hold.
pub const MAX_CHECKPOINT_BLOB_FIELDS: usize = FIELDS_PER_BLOB * BLOBS_PER_CHECKPOINT;

/// The bit widths of the state field, most significant first: the heights of the l1-to-l2
/// message, note-hash, nullifier and public-data trees, then 48 bits of mana.
pub(crate) const STATE_FIELD_BITS: [u32; 5] = [36, 42, 42, 40, 48];

/// The block-end state field: the trees' next free leaf indices and the mana the block used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BlockEndState {
    /// `l1ToL2MessageTree.nextAvailableLeafIndex` (36 bits).
    pub l1_to_l2_message_next_available_leaf_index: u64,
    /// `noteHashTree.nextAvailableLeafIndex` (42 bits).
    pub note_hash_next_available_leaf_index: u64,
    /// `nullifierTree.nextAvailableLeafIndex` (42 bits).
    pub nullifier_next_available_leaf_index: u64,
    /// `publicDataTree.nextAvailableLeafIndex` (40 bits).
    pub public_data_next_available_leaf_index: u64,
    /// `totalManaUsed` (48 bits).
    pub total_mana_used: u64,
}

impl BlockEndState {
    /// The names of the values, in the block-end encoding's order, as TypeScript spells them.
    pub const NAMES: [&'static str; 5] = [
        "l1ToL2MessageNextAvailableLeafIndex",
        "noteHashNextAvailableLeafIndex",
        "nullifierNextAvailableLeafIndex",
        "publicDataNextAvailableLeafIndex",
        "totalManaUsed",
    ];

    /// The values, in the order of [`BlockEndState::NAMES`].
    pub fn values(&self) -> [u64; 5] {
        [
            self.l1_to_l2_message_next_available_leaf_index,
            self.note_hash_next_available_leaf_index,
            self.nullifier_next_available_leaf_index,
            self.public_data_next_available_leaf_index,
            self.total_mana_used,
        ]
    }

    /// The state from values in the order of [`BlockEndState::NAMES`] (unchecked; [`Checkpoint::new`] checks).
    pub fn from_values(values: [u64; 5]) -> Self {
        let [l1, note, nullifier, public_data, mana] = values;
        Self {
            l1_to_l2_message_next_available_leaf_index: l1,
            note_hash_next_available_leaf_index: note,
            nullifier_next_available_leaf_index: nullifier,
            public_data_next_available_leaf_index: public_data,
            total_mana_used: mana,
        }
    }
}

/// One block of a checkpoint: its block-end data and its body.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CheckpointBlock {
    /// The block number (32 bits).
    pub block_number: BlockNumber,
    /// The block's timestamp, seconds (64 bits).
    pub timestamp: u64,
    /// The state field.
    pub state: BlockEndState,
    /// `header.lastArchive.root`.
    pub last_archive_root: Fr,
    /// `header.state.partial.noteHashTree.root`.
    pub note_hash_root: Fr,
    /// `header.state.partial.nullifierTree.root`.
    pub nullifier_root: Fr,
    /// `header.state.partial.publicDataTree.root`.
    pub public_data_root: Fr,
    /// `header.state.l1ToL2MessageTree.root`: present on every block in v6, on the first block
    /// of a checkpoint only before it.
    pub l1_to_l2_message_root: Option<Fr>,
    /// The txs.
    pub body: Body,
}

/// A checkpoint: one or more blocks, checked to be encodable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    protocol: ProtocolVersion,
    blocks: Vec<CheckpointBlock>,
    num_blob_fields: usize,
}

/// A checkpoint that cannot be encoded: each variant names the block (its index within the
/// checkpoint).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CheckpointError {
    /// A checkpoint holds at least one block (blob-lib cannot decode an empty one).
    #[error("a checkpoint holds at least one block")]
    NoBlocks,
    /// A block that carries l1ToL2MessageRoot where its protocol has none, or lacks it where
    /// its protocol has one.
    #[error(
        "block {block}: l1ToL2MessageRoot is {}: {protocol} carries it {}",
        if *.carried { "given" } else { "missing" },
        if .protocol.block_carries_l1_to_l2_root(1) { "on every block" } else { "on the first block of a checkpoint only" }
    )]
    L1ToL2MessageRoot {
        /// The block.
        block: usize,
        /// Whether the block carries one.
        carried: bool,
        /// The protocol.
        protocol: ProtocolVersion,
    },
    /// A state value does not fit its bit width.
    #[error("block {block}: {what} = {value} does not fit in {bits} bits")]
    StateOutOfRange {
        /// The block.
        block: usize,
        /// The value's name (TypeScript's).
        what: &'static str,
        /// The value.
        value: u64,
        /// Its width.
        bits: u32,
    },
    /// More txs than the block-end marker's 16 bits can count.
    #[error("block {block}: {count} txs, a block-end marker counts at most 65535")]
    TooManyTxs {
        /// The block.
        block: usize,
        /// Txs in its body.
        count: usize,
    },
    /// The encoding would not fit in six blobs.
    #[error("the checkpoint needs {fields} blob fields, six blobs hold {max}")]
    TooLarge {
        /// Fields the encoding needs, the end marker included.
        fields: usize,
        /// [`MAX_CHECKPOINT_BLOB_FIELDS`].
        max: usize,
    },
}

impl Checkpoint {
    /// A checkpoint of `blocks`, in order, encoded as `protocol` encodes one.
    ///
    /// # Errors
    /// [`CheckpointError`] for no blocks, an l1ToL2MessageRoot where the protocol has none (or
    /// missing where it has one), a state value too wide, a block of more than 65535 txs, or an
    /// encoding longer than six blobs.
    pub fn new(protocol: ProtocolVersion, blocks: Vec<CheckpointBlock>) -> Result<Self, CheckpointError> {
        if blocks.is_empty() {
            return Err(CheckpointError::NoBlocks);
        }
        let mut num_blob_fields = 1;
        for (index, block) in blocks.iter().enumerate() {
            let carried = block.l1_to_l2_message_root.is_some();
            if carried != protocol.block_carries_l1_to_l2_root(index) {
                return Err(CheckpointError::L1ToL2MessageRoot { block: index, carried, protocol });
            }
            for ((value, bits), what) in
                block.state.values().into_iter().zip(STATE_FIELD_BITS).zip(BlockEndState::NAMES)
            {
                if value >> bits != 0 {
                    return Err(CheckpointError::StateOutOfRange { block: index, what, value, bits });
                }
            }
            num_blob_fields += block_blob_fields(protocol, index, &block.body)?;
        }
        if num_blob_fields > MAX_CHECKPOINT_BLOB_FIELDS {
            return Err(CheckpointError::TooLarge {
                fields: num_blob_fields,
                max: MAX_CHECKPOINT_BLOB_FIELDS,
            });
        }
        Ok(Self { protocol, blocks, num_blob_fields })
    }

    /// Checks that `body`, as block `index` of a checkpoint, fits one checkpoint's blobs on its
    /// own, as every block of a checkpoint must: a body that does not is no block of `protocol`'s
    /// chain. It counts the effects' lengths and hashes nothing, so a reader of a block from
    /// outside calls it before any work is sized by the body.
    ///
    /// # Errors
    /// [`CheckpointError::TooManyTxs`] for more than 65535 txs, [`CheckpointError::TooLarge`] for
    /// a body whose encoding, with its block-end fields and the checkpoint-end marker, is longer
    /// than six blobs.
    pub fn check_block_fits(
        protocol: ProtocolVersion,
        index: usize,
        body: &Body,
    ) -> Result<(), CheckpointError> {
        let fields = 1 + block_blob_fields(protocol, index, body)?;
        if fields > MAX_CHECKPOINT_BLOB_FIELDS {
            return Err(CheckpointError::TooLarge { fields, max: MAX_CHECKPOINT_BLOB_FIELDS });
        }
        Ok(())
    }

    /// The protocol whose layout the checkpoint is encoded in.
    pub fn protocol(&self) -> ProtocolVersion {
        self.protocol
    }

    /// The blocks, in order (`indexWithinCheckpoint` is the position).
    pub fn blocks(&self) -> &[CheckpointBlock] {
        &self.blocks
    }

    /// The checkpoint-end marker's `numBlobFields`: every field of the encoding, the marker
    /// included, the zero tail not.
    pub fn num_blob_fields(&self) -> usize {
        self.num_blob_fields
    }

    /// The number of blobs the checkpoint fills.
    pub fn num_blobs(&self) -> usize {
        self.num_blob_fields.div_ceil(FIELDS_PER_BLOB)
    }
}

/// The blob fields block `index` of a checkpoint takes: its effects and its block-end fields.
fn block_blob_fields(protocol: ProtocolVersion, index: usize, body: &Body) -> Result<usize, CheckpointError> {
    if body.len() > usize::from(u16::MAX) {
        return Err(CheckpointError::TooManyTxs { block: index, count: body.len() });
    }
    let effects: usize = body
        .tx_effects
        .iter()
        .map(|effect| crate::blob::TxStartMarker::of(effect).num_blob_fields as usize)
        .sum();
    Ok(protocol.block_end_fields(index) + effects)
}

/// Blob fields that do not decode into a checkpoint. Every offset counts fields from the start
/// of the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CheckpointDecodeError {
    /// No fields at all.
    #[error("no blob fields: a checkpoint holds at least one block")]
    Empty,
    /// More fields than six blobs hold.
    #[error("{len} blob fields, six blobs hold at most {max}")]
    TooLong {
        /// Fields given.
        len: usize,
        /// [`MAX_CHECKPOINT_BLOB_FIELDS`].
        max: usize,
    },
    /// A tx of a block does not decode.
    #[error("block {block}, tx {tx} (its marker at offset {offset}): {source}")]
    Tx {
        /// The block's index within the checkpoint.
        block: usize,
        /// The tx's index within the block.
        tx: usize,
        /// The offset of the tx's start marker.
        offset: usize,
        /// What is wrong with it (its offsets count from the checkpoint's first field).
        source: TxBlobError,
    },
    /// The input ended inside a block: no block-end marker before the end.
    #[error("block {block}: the fields end at offset {offset} before a block-end marker")]
    MissingBlockEnd {
        /// The block.
        block: usize,
        /// Where the input ended.
        offset: usize,
    },
    /// Fewer fields left than the block-end data needs.
    #[error("block {block}: block-end data at offset {offset} needs {needed} fields, {available} remain")]
    TruncatedBlockEnd {
        /// The block.
        block: usize,
        /// The offset of the block-end marker.
        offset: usize,
        /// 7, or 6 for a later block of a checkpoint before v6.
        needed: usize,
        /// Fields left from the marker on.
        available: usize,
    },
    /// The state field's l1-to-l2 index is wider than 36 bits.
    #[error("block {block}: state field at offset {offset} is not a valid block-end state: {}", fr_to_hex(.value))]
    BadStateField {
        /// The block.
        block: usize,
        /// The offset of the state field.
        offset: usize,
        /// The field.
        value: Fr,
    },
    /// The block-end marker's numTxs disagrees with the txs read before it.
    #[error("block {block}: block-end marker at offset {offset} says {claimed} txs, {read} were read")]
    NumTxsMismatch {
        /// The block.
        block: usize,
        /// The offset of the block-end marker.
        offset: usize,
        /// numTxs from the marker.
        claimed: usize,
        /// Txs read.
        read: usize,
    },
    /// The input ended after a block without a checkpoint-end marker.
    #[error("no checkpoint-end marker: the fields end at offset {offset}, after block {blocks_read}")]
    MissingCheckpointEnd {
        /// Where the input ended.
        offset: usize,
        /// The index of the last block read.
        blocks_read: usize,
    },
    /// The checkpoint-end marker's numBlobFields disagrees with the fields read.
    #[error("checkpoint-end marker at offset {offset} says {claimed} blob fields, {read} were read")]
    NumBlobFieldsMismatch {
        /// The offset of the checkpoint-end marker.
        offset: usize,
        /// numBlobFields from the marker.
        claimed: usize,
        /// Fields read, the marker included.
        read: usize,
    },
    /// A field after the checkpoint-end marker is not zero.
    #[error("field at offset {offset}, after the checkpoint-end marker, is not zero: {}", fr_to_hex(.value))]
    NonzeroTail {
        /// The offset of the first nonzero field.
        offset: usize,
        /// The field.
        value: Fr,
    },
}

/// The block-end marker's bit fields, most significant first: prefix, timestamp, blockNumber,
/// numTxs.
const BLOCK_END_MARKER_WIDTHS: [u32; 4] = [32, 64, 32, 16];

/// The checkpoint-end marker's bit fields: prefix, numBlobFields.
const CHECKPOINT_END_MARKER_WIDTHS: [u32; 2] = [32, 32];

/// Packs values already bounded by their types or checked by [`Checkpoint::new`].
#[allow(clippy::expect_used, reason = "an internal invariant: a value that does not fit must fail loudly")]
fn pack_checked(parts: &[(u64, u32)]) -> Fr {
    bits::pack(parts).expect("invariant: the values were checked against their widths")
}

/// The block-end marker of a block.
pub(crate) fn encode_block_end_marker(timestamp: u64, block_number: u32, num_txs: u16) -> Fr {
    let values = [u64::from(BLOCK_END_PREFIX), timestamp, u64::from(block_number), u64::from(num_txs)];
    pack_checked(&values.into_iter().zip(BLOCK_END_MARKER_WIDTHS).collect::<Vec<_>>())
}

/// `(timestamp, blockNumber, numTxs)` of a block-end marker, or `None` if the field is not one
/// (its value shifted right by 112 is not `BLOCK_END_PREFIX`).
pub(crate) fn decode_block_end_marker(field: &Fr) -> Option<(u64, u32, u16)> {
    let [prefix, timestamp, block_number, num_txs] = bits::unpack(field, BLOCK_END_MARKER_WIDTHS)?;
    // Each value was read from exactly its width, so the narrowings are lossless.
    (prefix == u64::from(BLOCK_END_PREFIX)).then_some((timestamp, block_number as u32, num_txs as u16))
}

/// The state field of a block, whose values [`Checkpoint::new`] checked against
/// [`STATE_FIELD_BITS`].
fn encode_state_field(state: &BlockEndState) -> Fr {
    pack_checked(&state.values().into_iter().zip(STATE_FIELD_BITS).collect::<Vec<_>>())
}

/// The state of a state field, or `None` if the l1-to-l2 index (everything above the lower
/// 172 bits) is wider than 36 bits, as blob-lib refuses.
pub(crate) fn decode_state_field(field: &Fr) -> Option<BlockEndState> {
    bits::unpack(field, STATE_FIELD_BITS).map(BlockEndState::from_values)
}

/// The checkpoint-end marker for `num_blob_fields`.
pub(crate) fn encode_checkpoint_end_marker(num_blob_fields: u32) -> Fr {
    pack_checked(&[(u64::from(CHECKPOINT_END_PREFIX), 32), (u64::from(num_blob_fields), 32)])
}

/// `numBlobFields` of a checkpoint-end marker, or `None` if the field is not one (its value
/// shifted right by 32 is not `CHECKPOINT_END_PREFIX`).
pub(crate) fn decode_checkpoint_end_marker(field: &Fr) -> Option<u32> {
    let [prefix, num_blob_fields] = bits::unpack(field, CHECKPOINT_END_MARKER_WIDTHS)?;
    (prefix == u64::from(CHECKPOINT_END_PREFIX)).then_some(num_blob_fields as u32)
}

/// The blob fields of a checkpoint, up to and including its end marker (no zero tail).
pub fn encode_checkpoint(checkpoint: &Checkpoint) -> Vec<Fr> {
    let mut out = Vec::with_capacity(checkpoint.num_blob_fields);
    for block in &checkpoint.blocks {
        out.extend(encode_block_blob(&block.body));
        // Checkpoint::new bounded the count by u16::MAX.
        out.push(encode_block_end_marker(block.timestamp, block.block_number.get(), block.body.len() as u16));
        out.push(encode_state_field(&block.state));
        out.extend([
            block.last_archive_root,
            block.note_hash_root,
            block.nullifier_root,
            block.public_data_root,
        ]);
        out.extend(block.l1_to_l2_message_root);
    }
    // Checkpoint::new bounded the length by MAX_CHECKPOINT_BLOB_FIELDS.
    out.push(encode_checkpoint_end_marker(checkpoint.num_blob_fields as u32));
    out
}

/// `fields` followed by zeros up to the end of its last 4096-field blob: what the blobs carry.
pub fn pad_to_blobs(mut fields: Vec<Fr>) -> Vec<Fr> {
    fields.resize(fields.len().div_ceil(FIELDS_PER_BLOB) * FIELDS_PER_BLOB, Fr::from(0u64));
    fields
}

/// Decodes a checkpoint's blob fields, with or without the zero tail, in `protocol`'s layout.
///
/// # Errors
/// [`CheckpointDecodeError`] naming the offset of the first inconsistency: a tx that does not
/// decode, a missing or truncated block-end, a bad state field, numTxs or numBlobFields that
/// disagree with what was read, a missing checkpoint-end marker, or a nonzero field after it.
pub fn decode_checkpoint(
    protocol: ProtocolVersion,
    fields: &[Fr],
) -> Result<Checkpoint, CheckpointDecodeError> {
    use CheckpointDecodeError as E;
    if fields.is_empty() {
        return Err(E::Empty);
    }
    if fields.len() > MAX_CHECKPOINT_BLOB_FIELDS {
        return Err(E::TooLong { len: fields.len(), max: MAX_CHECKPOINT_BLOB_FIELDS });
    }
    let mut offset = 0;
    let mut blocks = Vec::new();
    let num_blob_fields = loop {
        let index = blocks.len();
        let (block, end) = decode_block(protocol, fields, index, offset)?;
        blocks.push(block);
        offset = end;
        // Another block, or the end of the checkpoint.
        let Some(field) = fields.get(offset) else {
            return Err(E::MissingCheckpointEnd { offset, blocks_read: index });
        };
        if let Some(claimed) = decode_checkpoint_end_marker(field) {
            offset += 1;
            if claimed as usize != offset {
                return Err(E::NumBlobFieldsMismatch {
                    offset: offset - 1,
                    claimed: claimed as usize,
                    read: offset,
                });
            }
            break offset;
        }
    };
    if let Some((at, value)) =
        fields.iter().enumerate().skip(num_blob_fields).find(|(_, f)| **f != Fr::from(0u64))
    {
        return Err(E::NonzeroTail { offset: at, value: *value });
    }
    Ok(Checkpoint { protocol, blocks, num_blob_fields })
}

/// Decodes block `index` of a checkpoint, whose first field is at `offset`: its txs up to the
/// block-end marker, then its block-end fields. Returns the block and the offset after it.
fn decode_block(
    protocol: ProtocolVersion,
    fields: &[Fr],
    index: usize,
    mut offset: usize,
) -> Result<(CheckpointBlock, usize), CheckpointDecodeError> {
    use CheckpointDecodeError as E;
    // Txs up to the block-end marker.
    let mut tx_effects = Vec::new();
    let (timestamp, block_number, num_txs) =
        loop {
            let Some(field) = fields.get(offset) else {
                return Err(E::MissingBlockEnd { block: index, offset });
            };
            if let Some(marker) = decode_block_end_marker(field) {
                break marker;
            }
            let (effect, used) =
                decode_tx_blob(protocol, fields.get(offset..).unwrap_or_default()).map_err(|source| {
                    E::Tx { block: index, tx: tx_effects.len(), offset, source: source.offset_by(offset) }
                })?;
            tx_effects.push(effect);
            offset += used;
        };
    let needed = protocol.block_end_fields(index);
    let Some([_, state, last_archive, note_hash, nullifier, public_data, l1_to_l2 @ ..]) =
        fields.get(offset..offset + needed)
    else {
        return Err(E::TruncatedBlockEnd { block: index, offset, needed, available: fields.len() - offset });
    };
    let state = decode_state_field(state).ok_or(E::BadStateField {
        block: index,
        offset: offset + 1,
        value: *state,
    })?;
    if usize::from(num_txs) != tx_effects.len() {
        return Err(E::NumTxsMismatch {
            block: index,
            offset,
            claimed: usize::from(num_txs),
            read: tx_effects.len(),
        });
    }
    let block = CheckpointBlock {
        block_number: BlockNumber::new(block_number),
        timestamp,
        state,
        last_archive_root: *last_archive,
        note_hash_root: *note_hash,
        nullifier_root: *nullifier,
        public_data_root: *public_data,
        l1_to_l2_message_root: l1_to_l2.first().copied(),
        body: Body::new(tx_effects),
    };
    Ok((block, offset + needed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_pack_as_blob_lib_does() {
        // BLOCK_END_PREFIX · 2^112 + timestamp · 2^48 + blockNumber · 2^16 + numTxs, by hand.
        let marker = encode_block_end_marker(1, 2, 3);
        assert_eq!(fr_to_hex(&marker), "0x0000000000000000000000000000eb8dcdbf0000000000000001000000020003");
        assert_eq!(decode_block_end_marker(&marker), Some((1, 2, 3)));
        let end = encode_checkpoint_end_marker(0x1234);
        assert_eq!(fr_to_hex(&end), "0x0000000000000000000000000000000000000000000000008c63744300001234");
        assert_eq!(decode_checkpoint_end_marker(&end), Some(0x1234));
        assert_eq!(decode_checkpoint_end_marker(&marker), None);
        assert_eq!(decode_block_end_marker(&end), None);
    }

    #[test]
    fn state_field_round_trips_at_its_widths() {
        let max = BlockEndState::from_values(STATE_FIELD_BITS.map(|bits| (1u64 << bits) - 1));
        let field = encode_state_field(&max);
        assert_eq!(fr_to_hex(&field), format!("0x{}{}", "0".repeat(12), "f".repeat(52)));
        assert_eq!(decode_state_field(&field), Some(max));
        // One bit above the 208: the l1-to-l2 index would need 37 bits.
        let wide = field + Fr::from(1u128 << 104) * Fr::from(1u128 << 104);
        assert_eq!(decode_state_field(&wide), None);
    }
}
