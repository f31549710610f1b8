//! The whole chain in one call: from an archive root the caller trusts (L1's) down to one tx,
//! every link checked (docs/spec.md §12.7).
//!
//! 1. **header**: the header is in a layout that commits to a tx-effects tree (`v6`, `azip-26`);
//! 2. **archive**: the header's hash is leaf `blockNumber` of the protocol's archive under the
//!    trusted root;
//! 3. **witness**: the tx-effects witness is for that block and its `root` is the header's
//!    `txEffectsTreeRoot` (the witness's own root is only ever compared, never trusted);
//! 4. **tx**: the tx's leaf (from a tx hash and categories hash, a full effect, or a category
//!    proof) hashes up the witness's path to the header's `txEffectsTreeRoot`.
//!
//! Each failure is a [`ChainError`] whose [`ChainError::link`] names the link that broke; a
//! success is a [`ChainVerdict`] naming everything the chain proved, so that the caller compares
//! facts (the block number and hash it expects, the tx hash) rather than trusting files.

use txfx_poseidon::field::fr_to_hex;
use txfx_poseidon::{BackendError, Fr, HashBackend};
use txfx_tx_effects::{BlockNumber, ProtocolVersion, TxEffect};

use crate::archive::{ArchiveError, ArchiveWitness, BlockInArchive, TrustedArchiveRoot, verify_block_hash};
use crate::category::{CategoryError, CategoryMembership, CategoryProof, verify_category_proof};
use crate::header::{BlockHeader, HeaderError};
use crate::witness::{
    TrustedRoot, TxClaim, TxEffectMembershipWitness, TxMembership, VerifyError, verify_effect, verify_tx,
};

/// What the chain's last link proved about the subject.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proven {
    /// A tx (from its hash and categories hash, or its full effect).
    Tx(TxMembership),
    /// One category of a tx, and at element level one element.
    Category(CategoryMembership),
}

impl Proven {
    /// The tx part: its leaf, where the leaf is, and the hashes it was rebuilt from.
    pub fn tx(&self) -> &TxMembership {
        match self {
            Self::Tx(tx) => tx,
            Self::Category(category) => &category.tx,
        }
    }
}

/// What a verified chain proves: the block is leaf `block.block_number` of the trusted archive
/// with hash `block.block_hash` (its header's), and the subject is in that block's tx-effects
/// tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChainVerdict {
    /// The block in the archive.
    pub block: BlockInArchive,
    /// The subject in the block.
    pub proven: Proven,
}

/// What the chain ends in.
#[derive(Debug, Clone, Copy)]
pub enum ChainSubject<'a> {
    /// A tx hash, with its categories hash (or the witness's).
    Tx(TxClaim),
    /// A full effect: its leaf is recomputed.
    Effect(&'a TxEffect),
    /// One category of a tx (and, at element level, one element of it).
    Category(&'a CategoryProof),
}

/// The link of the chain that broke.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Link {
    /// The header (its layout).
    Header,
    /// The header's hash in the archive.
    Archive,
    /// The tx-effects witness against the header.
    Witness,
    /// The tx (or category) against the witness.
    Tx,
}

impl Link {
    /// `header`, `archive`, `witness` or `tx`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Header => "header",
            Self::Archive => "archive",
            Self::Witness => "witness",
            Self::Tx => "tx",
        }
    }
}

/// Why the chain does not hold.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ChainError {
    /// The header commits to no tx-effects tree.
    #[error("header: {0}")]
    Header(HeaderError),
    /// The header is not in the archive under the trusted root.
    #[error("archive: {0}")]
    Archive(ArchiveError),
    /// The tx-effects witness is for another block.
    #[error("witness: it is for block {witness}, the header is of block {header}")]
    WitnessBlockNumber {
        /// The witness's block number.
        witness: BlockNumber,
        /// The header's.
        header: BlockNumber,
    },
    /// The tx-effects witness's root is not the header's.
    #[error("witness: its root {} is not the header's txEffectsTreeRoot {}", fr_to_hex(.witness), fr_to_hex(.header))]
    WitnessRoot {
        /// The witness's root.
        witness: Fr,
        /// The header's `txEffectsTreeRoot`.
        header: Fr,
    },
    /// The tx does not verify against the witness.
    #[error("tx: {0}")]
    Tx(VerifyError),
    /// The category proof does not verify.
    #[error("tx: {0}")]
    Category(CategoryError),
    /// The hashing backend failed.
    #[error(transparent)]
    Backend(#[from] BackendError),
}

impl ChainError {
    /// The hashing failure behind the error, if it is one: every error that wraps another asks
    /// it, so a failure nested at any depth is found.
    pub fn backend(&self) -> Option<&BackendError> {
        match self {
            Self::Backend(error) => Some(error),
            Self::Archive(error) => error.backend(),
            Self::Tx(error) => error.backend(),
            Self::Category(error) => error.backend(),
            Self::Header(_) | Self::WitnessBlockNumber { .. } | Self::WitnessRoot { .. } => None,
        }
    }

    /// The link that broke, or `None` for a backend failure (no link broke: the check did not run).
    pub fn link(&self) -> Option<Link> {
        if self.backend().is_some() {
            return None;
        }
        Some(match self {
            Self::Header(_) => Link::Header,
            Self::Archive(_) => Link::Archive,
            Self::WitnessBlockNumber { .. } | Self::WitnessRoot { .. } => Link::Witness,
            Self::Tx(_) | Self::Category(_) | Self::Backend(_) => Link::Tx,
        })
    }
}

/// Checks every link from `archive_root` down to `subject` under `protocol`'s rules (module
/// docs), and returns what the chain proves.
///
/// # Errors
/// [`ChainError`] for the first link that breaks, in chain order.
pub fn verify_chain(
    hasher: &dyn HashBackend,
    protocol: ProtocolVersion,
    archive_root: TrustedArchiveRoot,
    archive_witness: &ArchiveWitness,
    header: &BlockHeader,
    tx_witness: &TxEffectMembershipWitness,
    subject: ChainSubject<'_>,
) -> Result<ChainVerdict, ChainError> {
    let header_root = header.tx_effects_tree_root().map_err(ChainError::Header)?;
    let block_number = header.global_variables.block_number;
    let block_hash = header.hash(hasher)?;
    let block = verify_block_hash(hasher, protocol, block_hash, block_number, archive_witness, archive_root)
        .map_err(ChainError::Archive)?;
    if tx_witness.block_number != block_number {
        return Err(ChainError::WitnessBlockNumber {
            witness: tx_witness.block_number,
            header: block_number,
        });
    }
    if tx_witness.root != header_root {
        return Err(ChainError::WitnessRoot { witness: tx_witness.root, header: header_root });
    }
    // The header is authenticated: its root is the one to trust.
    let root = TrustedRoot::from_authenticated_header(header_root);
    let proven = match subject {
        ChainSubject::Tx(claim) => {
            Proven::Tx(verify_tx(hasher, claim, tx_witness, root).map_err(ChainError::Tx)?)
        }
        ChainSubject::Effect(effect) => {
            Proven::Tx(verify_effect(hasher, effect, tx_witness, root).map_err(ChainError::Tx)?)
        }
        ChainSubject::Category(proof) => Proven::Category(
            verify_category_proof(hasher, proof, tx_witness, root).map_err(ChainError::Category)?,
        ),
    };
    Ok(ChainVerdict { block, proven })
}
