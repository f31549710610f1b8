//! The stored form of a block: what a node keeps to serve witnesses without re-committing the
//! block's effects.
//!
//! Per tx the tx hash, its categories hash and its leaf; per block its number and
//! `txEffectsTreeRoot`. Witnesses built from it carry `categoriesHash` (the node API's AZIP-26
//! parser requires it), and look-up by tx hash works. [`BlockWitnesses::from_stored`] checks
//! every leaf against `H_leaf(txHash, categoriesHash)` and the rebuilt tree against the stored
//! root before serving anything, so a corrupted store is an error, never a witness that fails
//! later at the verifier.
//!
//! Bare leaves ([`BlockWitnesses::from_leaves`]) still work: their witnesses have no
//! `categoriesHash`, so a verifier must get it elsewhere (verify by `--leaf`, or give
//! `--categories-hash`), and look-up by tx hash is impossible.
//!
//! Its JSON (`txfx block leaves` prints it, `txfx tree witness` reads it) is `txfx-documents`'.

use txfx_poseidon::field::fr_to_hex;
use txfx_poseidon::{BackendError, DomainSeparator, Fr, HashBackend, HashBackendExt};
use txfx_tx_effects::limits::MAX_TXS_PER_BLOCK;
use txfx_tx_effects::{BlockCommitment, BlockNumber, Body, TxEffectsTree, commit_block};

use crate::witness::BlockWitnesses;

/// One tx of a stored block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoredTx {
    /// The tx hash.
    pub tx_hash: Fr,
    /// Its categories hash.
    pub categories_hash: Fr,
    /// Its leaf, `H_leaf(txHash, categoriesHash)`.
    pub leaf: Fr,
}

/// A stored block (module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredBlock {
    /// The block number.
    pub block_number: BlockNumber,
    /// The block's `txEffectsTreeRoot`.
    pub tx_effects_tree_root: Fr,
    /// The txs, in block order.
    pub txs: Vec<StoredTx>,
}

/// A stored block that does not hold together.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StoredError {
    /// A tx's leaf is not `H_leaf(txHash, categoriesHash)`.
    #[error("tx {tx}: stored leaf {} is not H_leaf(txHash, categoriesHash) = {}", fr_to_hex(.stored), fr_to_hex(.computed))]
    LeafMismatch {
        /// The tx's index.
        tx: usize,
        /// The stored leaf.
        stored: Fr,
        /// What its tx hash and categories hash give.
        computed: Fr,
    },
    /// The leaves' tree has another root than the stored one.
    #[error("the leaves' tree has root {}, the stored root is {}", fr_to_hex(.computed), fr_to_hex(.stored))]
    RootMismatch {
        /// The stored root.
        stored: Fr,
        /// The root of the stored leaves.
        computed: Fr,
    },
    /// More txs than a block may hold.
    #[error("{count} txs, a block holds at most {max}")]
    TooManyTxs {
        /// Txs stored.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// The hashing backend failed.
    #[error(transparent)]
    Backend(#[from] BackendError),
}

impl StoredBlock {
    /// The stored form of a committed block. `commitment` must be `commit_block` of `body`.
    ///
    /// # Panics
    /// If `commitment` has another number of txs than `body`: a caller bug that would pair tx
    /// hashes with the wrong leaves.
    #[allow(clippy::panic, reason = "a caller's broken invariant must fail loudly, never mis-pair leaves")]
    pub fn from_commitment(commitment: &BlockCommitment, body: &Body, block_number: BlockNumber) -> Self {
        if commitment.txs.len() != body.len() {
            panic!("invariant: a commitment of {} txs for a body of {}", commitment.txs.len(), body.len());
        }
        Self {
            block_number,
            tx_effects_tree_root: commitment.root(),
            txs: commitment
                .txs
                .iter()
                .zip(&body.tx_effects)
                .map(|(tx, effect)| StoredTx {
                    tx_hash: effect.tx_hash,
                    categories_hash: tx.categories_hash,
                    leaf: tx.leaf,
                })
                .collect(),
        }
    }

    /// Commits `body` and keeps its stored form.
    ///
    /// # Errors
    /// [`BackendError`] if the backend fails.
    pub fn from_body(
        hasher: &dyn HashBackend,
        body: &Body,
        block_number: BlockNumber,
    ) -> Result<Self, BackendError> {
        Ok(Self::from_commitment(&commit_block(hasher, body)?, body, block_number))
    }

    /// The leaves, in block order.
    pub fn leaves(&self) -> Vec<Fr> {
        self.txs.iter().map(|tx| tx.leaf).collect()
    }
}

impl BlockWitnesses {
    /// Every witness of a stored block, with categories hashes and look-up by tx hash. Every leaf
    /// and the root are checked first (one hash per tx, then the tree).
    ///
    /// # Errors
    /// [`StoredError`] for a leaf or root that does not match, too many txs, or a backend failure.
    pub fn from_stored(hasher: &dyn HashBackend, stored: &StoredBlock) -> Result<Self, StoredError> {
        if stored.txs.len() > MAX_TXS_PER_BLOCK {
            return Err(StoredError::TooManyTxs { count: stored.txs.len(), max: MAX_TXS_PER_BLOCK });
        }
        let pairs: Vec<[Fr; 2]> = stored.txs.iter().map(|tx| [tx.tx_hash, tx.categories_hash]).collect();
        let leaves = hasher.hash_level_checked(DomainSeparator::TX_EFFECTS_TREE_LEAF, &pairs)?;
        for (tx, (computed, stored_tx)) in leaves.iter().zip(&stored.txs).enumerate() {
            if *computed != stored_tx.leaf {
                return Err(StoredError::LeafMismatch { tx, stored: stored_tx.leaf, computed: *computed });
            }
        }
        let tree = TxEffectsTree::build(hasher, leaves)?;
        if tree.root() != stored.tx_effects_tree_root {
            return Err(StoredError::RootMismatch {
                stored: stored.tx_effects_tree_root,
                computed: tree.root(),
            });
        }
        Ok(Self::from_parts(
            stored.block_number,
            tree,
            Some(stored.txs.iter().map(|tx| tx.categories_hash).collect()),
            stored.txs.iter().map(|tx| tx.tx_hash).collect(),
        ))
    }
}
