//! The archive tree: block `n`'s header hash is leaf `n` of an append-only tree of height 30
//! whose root L1 knows (docs/spec.md §12.5).
//!
//! Internal nodes are the protocol's: `poseidon2_hash_with_separator([left, right],
//! DOM_SEP__MERKLE_HASH)` in Aztec v6, `poseidon2_hash([left, right])` before it
//! ([`ProtocolVersion::archive_node_separator`]). The empty leaf is 0, and leaf 0 is the genesis
//! header's hash: a one-leaf archive's root is the network's genesis archive root
//! (`crate::network`).
//!
//! The node's `getBlockHashMembershipWitness` serializes a witness as `MembershipWitness` does:
//! the leaf index as 32 big-endian bytes, then 30 siblings of 32 bytes, leaf level first
//! ([`ArchiveWitness::from_bytes`]); the base64 and JSON around those bytes are `txfx-documents`'.

use txfx_poseidon::field::{FieldError, fr_from_be_slice, fr_to_be_bytes, fr_to_hex};
use txfx_poseidon::{BackendError, Fr, HashBackend, HashBackendExt, HashJob};
use txfx_tx_effects::{BlockNumber, ProtocolVersion};

/// The archive tree's height (`ARCHIVE_HEIGHT`).
pub const ARCHIVE_HEIGHT: usize = 30;

/// The bytes of a serialized witness: the index, then the siblings.
const WITNESS_BYTES: usize = 32 * (1 + ARCHIVE_HEIGHT);

/// An archive root the caller trusts: read from L1's rollup contract, or from a header it has
/// already authenticated. Like the tx-effects `TrustedRoot`, it is constructed on purpose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrustedArchiveRoot(Fr);

impl TrustedArchiveRoot {
    /// The archive root the caller vouches for (L1's, or a later authenticated header's
    /// `lastArchive.root`).
    pub fn from_trusted_source(root: Fr) -> Self {
        Self(root)
    }

    /// The root.
    pub fn get(self) -> Fr {
        self.0
    }
}

/// A membership witness in the archive tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchiveWitness {
    /// The leaf index: the block number.
    pub leaf_index: u64,
    /// [`ARCHIVE_HEIGHT`] siblings, leaf level first.
    pub sibling_path: Vec<Fr>,
}

/// What a verified archive witness proves: `block_hash` is leaf `block_number` of the archive
/// whose root is `archive_root` (the trusted one), so it is that block's header hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockInArchive {
    /// The trusted archive root.
    pub archive_root: Fr,
    /// The block: the leaf's index.
    pub block_number: BlockNumber,
    /// The block's header hash: the leaf.
    pub block_hash: Fr,
}

/// Why an archive witness is malformed or does not prove what it is asked to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ArchiveError {
    /// Serialized bytes of another length than a witness of height 30 has.
    #[error("{bytes} bytes, a serialized archive witness of height {ARCHIVE_HEIGHT} has {WITNESS_BYTES}")]
    WrongByteLength {
        /// The bytes given.
        bytes: usize,
    },
    /// A serialized leaf index that does not fit 64 bits.
    #[error("the serialized leaf index does not fit 64 bits")]
    IndexTooLarge,
    /// A sibling that is not a canonical field element.
    #[error("sibling {index}: {source}")]
    BadSibling {
        /// The sibling's level.
        index: usize,
        /// Why.
        source: FieldError,
    },
    /// A path of another length than [`ARCHIVE_HEIGHT`].
    #[error("archive path has {length} siblings, the archive tree has height {ARCHIVE_HEIGHT}")]
    WrongPathLength {
        /// The path's length.
        length: usize,
    },
    /// A leaf index beyond the last leaf of a tree of height 30.
    #[error("leaf index {leaf_index} is beyond the archive tree, which holds 2^{ARCHIVE_HEIGHT} leaves")]
    IndexBeyondTree {
        /// The witness's leaf index.
        leaf_index: u64,
    },
    /// The witness is for another leaf than the block asked for.
    #[error("the witness is for leaf {leaf_index}, block {block_number} was asked for")]
    WrongIndex {
        /// The witness's leaf index.
        leaf_index: u64,
        /// The block number asked for.
        block_number: BlockNumber,
    },
    /// A zero block hash is the empty leaf, never a block.
    #[error("a zero block hash is the archive's empty leaf, not a block")]
    ZeroBlockHash,
    /// The path hashes to another root.
    #[error("archive root mismatch: the path hashes to {}, the trusted archive root is {}", fr_to_hex(.computed), fr_to_hex(.expected))]
    RootMismatch {
        /// What the path gives.
        computed: Fr,
        /// The trusted root.
        expected: Fr,
    },
    /// More leaves than a tree of height 30 holds.
    #[error("{count} leaves, an archive of height {ARCHIVE_HEIGHT} holds at most 2^{ARCHIVE_HEIGHT}")]
    TooManyLeaves {
        /// Leaves given.
        count: usize,
    },
    /// The hashing backend failed.
    #[error(transparent)]
    Backend(#[from] BackendError),
}

impl ArchiveError {
    /// The hashing failure behind the error, if it is one.
    pub fn backend(&self) -> Option<&BackendError> {
        match self {
            Self::Backend(error) => Some(error),
            Self::WrongByteLength { .. }
            | Self::IndexTooLarge
            | Self::BadSibling { .. }
            | Self::WrongPathLength { .. }
            | Self::IndexBeyondTree { .. }
            | Self::WrongIndex { .. }
            | Self::ZeroBlockHash
            | Self::RootMismatch { .. }
            | Self::TooManyLeaves { .. } => None,
        }
    }
}

impl ArchiveWitness {
    /// Reads the serialized form (32-byte big-endian index, then 30 × 32-byte siblings).
    ///
    /// # Errors
    /// [`ArchiveError::WrongByteLength`], [`ArchiveError::IndexTooLarge`] or
    /// [`ArchiveError::BadSibling`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, ArchiveError> {
        if bytes.len() != WITNESS_BYTES {
            return Err(ArchiveError::WrongByteLength { bytes: bytes.len() });
        }
        let (index, siblings) = bytes.split_at(32);
        let (high, low) = index.split_at(24);
        if high.iter().any(|b| *b != 0) {
            return Err(ArchiveError::IndexTooLarge);
        }
        let leaf_index = low.iter().fold(0u64, |acc, b| (acc << 8) | u64::from(*b));
        let sibling_path = siblings
            .chunks_exact(32)
            .enumerate()
            .map(|(index, chunk)| {
                fr_from_be_slice(chunk).map_err(|source| ArchiveError::BadSibling { index, source })
            })
            .collect::<Result<_, _>>()?;
        Ok(Self { leaf_index, sibling_path })
    }

    /// The serialized form.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(32 * (1 + self.sibling_path.len()));
        out.extend_from_slice(&[0u8; 24]);
        out.extend_from_slice(&self.leaf_index.to_be_bytes());
        for sibling in &self.sibling_path {
            out.extend_from_slice(&fr_to_be_bytes(sibling));
        }
        out
    }
}

/// One internal node of `protocol`'s archive: the job that hashes `left` and `right`.
fn node_job(protocol: ProtocolVersion, left: Fr, right: Fr) -> HashJob {
    match protocol.archive_node_separator() {
        Some(separator) => HashJob::with_separator(separator, vec![left, right]),
        None => HashJob::plain(vec![left, right]),
    }
}

/// The root `witness` gives for `leaf` in `protocol`'s archive.
///
/// # Errors
/// [`ArchiveError::WrongPathLength`] for a path not of height 30,
/// [`ArchiveError::IndexBeyondTree`] for an index outside the tree, [`ArchiveError::Backend`].
pub fn archive_root_from_path(
    hasher: &dyn HashBackend,
    protocol: ProtocolVersion,
    leaf: Fr,
    witness: &ArchiveWitness,
) -> Result<Fr, ArchiveError> {
    if witness.sibling_path.len() != ARCHIVE_HEIGHT {
        return Err(ArchiveError::WrongPathLength { length: witness.sibling_path.len() });
    }
    if witness.leaf_index >> ARCHIVE_HEIGHT != 0 {
        return Err(ArchiveError::IndexBeyondTree { leaf_index: witness.leaf_index });
    }
    let mut node = leaf;
    for (level, sibling) in witness.sibling_path.iter().enumerate() {
        let (left, right) =
            if witness.leaf_index >> level & 1 == 0 { (node, *sibling) } else { (*sibling, node) };
        node = hasher.hash_one(node_job(protocol, left, right))?;
    }
    Ok(node)
}

/// Checks that `block_hash` is leaf `block_number` of `protocol`'s archive under the trusted
/// root, and returns what that proves.
///
/// # Errors
/// [`ArchiveError`] naming what failed: a zero hash, a witness for another index or beyond the
/// tree, a path of the wrong length, or a root mismatch.
pub fn verify_block_hash(
    hasher: &dyn HashBackend,
    protocol: ProtocolVersion,
    block_hash: Fr,
    block_number: BlockNumber,
    witness: &ArchiveWitness,
    root: TrustedArchiveRoot,
) -> Result<BlockInArchive, ArchiveError> {
    if block_hash == Fr::from(0u64) {
        return Err(ArchiveError::ZeroBlockHash);
    }
    if witness.leaf_index >> ARCHIVE_HEIGHT != 0 {
        return Err(ArchiveError::IndexBeyondTree { leaf_index: witness.leaf_index });
    }
    if witness.leaf_index != u64::from(block_number) {
        return Err(ArchiveError::WrongIndex { leaf_index: witness.leaf_index, block_number });
    }
    let computed = archive_root_from_path(hasher, protocol, block_hash, witness)?;
    if computed != root.get() {
        return Err(ArchiveError::RootMismatch { computed, expected: root.get() });
    }
    Ok(BlockInArchive { archive_root: computed, block_number, block_hash })
}

/// The levels of an archive over `leaves` (left-filled, zeros after): the leaves, then each
/// level up to the root, and the empty-subtree hash of every level.
#[allow(clippy::expect_used, reason = "an internal invariant: a lost hash must fail loudly")]
fn levels(
    hasher: &dyn HashBackend,
    protocol: ProtocolVersion,
    leaves: &[Fr],
) -> Result<(Vec<Vec<Fr>>, Vec<Fr>), ArchiveError> {
    if leaves.len() > 1 << ARCHIVE_HEIGHT {
        return Err(ArchiveError::TooManyLeaves { count: leaves.len() });
    }
    let mut zero = Fr::from(0u64);
    let mut zeros = Vec::with_capacity(ARCHIVE_HEIGHT + 1);
    let mut levels = Vec::with_capacity(ARCHIVE_HEIGHT + 1);
    let mut current = leaves.to_vec();
    for _ in 0..ARCHIVE_HEIGHT {
        let mut batch: Vec<HashJob> = current
            .chunks(2)
            .filter_map(|pair| match pair {
                [left, rest @ ..] => Some(node_job(protocol, *left, rest.first().copied().unwrap_or(zero))),
                [] => None,
            })
            .collect();
        // The next level's empty-subtree hash rides along in the same batch.
        batch.push(node_job(protocol, zero, zero));
        let mut hashed = hasher.hash_batch_checked(&batch)?;
        let next_zero = hashed.pop().expect("invariant: a checked batch has one hash per job");
        zeros.push(zero);
        levels.push(std::mem::replace(&mut current, hashed));
        zero = next_zero;
    }
    zeros.push(zero);
    levels.push(current);
    Ok((levels, zeros))
}

/// The root of `protocol`'s archive over `leaves` (block 0's header hash first), as TypeScript's
/// `MerkleTreeCalculator` of height 30 computes it.
///
/// # Errors
/// [`ArchiveError::TooManyLeaves`] past 2^30 leaves, [`ArchiveError::Backend`].
pub fn archive_root(
    hasher: &dyn HashBackend,
    protocol: ProtocolVersion,
    leaves: &[Fr],
) -> Result<Fr, ArchiveError> {
    let (levels, zeros) = levels(hasher, protocol, leaves)?;
    let top = levels.last().and_then(|top| top.first()).or(zeros.last());
    #[allow(clippy::expect_used, reason = "an internal invariant: a lost root must fail loudly")]
    Ok(*top.expect("invariant: an archive of height 30 has a root"))
}

/// The witness of leaf `index` in `protocol`'s archive over `leaves`, or `None` past the last
/// leaf.
///
/// # Errors
/// [`ArchiveError::TooManyLeaves`] past 2^30 leaves, [`ArchiveError::Backend`].
pub fn archive_witness(
    hasher: &dyn HashBackend,
    protocol: ProtocolVersion,
    leaves: &[Fr],
    index: usize,
) -> Result<Option<ArchiveWitness>, ArchiveError> {
    if index >= leaves.len() {
        return Ok(None);
    }
    let (levels, zeros) = levels(hasher, protocol, leaves)?;
    let sibling_path = levels
        .iter()
        .zip(&zeros)
        .take(ARCHIVE_HEIGHT)
        .enumerate()
        .map(|(level, (nodes, zero))| nodes.get((index >> level) ^ 1).copied().unwrap_or(*zero))
        .collect();
    Ok(Some(ArchiveWitness { leaf_index: index as u64, sibling_path }))
}
