//! Building and verifying tx-effect membership witnesses (SPEC.md §7.2–§7.4).
//!
//! A witness says: the leaf of this tx sits at `leafIndex` of its own level of the block's
//! tx-effects tree, under these siblings (lowest level first), and the tree's root is `root`.
//! Verification hashes up the path, taking the side from bit j of `leafIndex` at step j, and
//! compares with a root the caller trusts (a header's `txEffectsTreeRoot`, never the witness's
//! own `root`).
//!
//! **High `leafIndex` bits are an error.** TypeScript's `computeRootFromSiblingPath` ignores bits
//! of `leafIndex` above the path length; AZIP-26 allows a stricter verifier, and txfx is one: a
//! witness with such bits is not the one the builder produced, so it is refused with
//! [`VerifyError::LeafIndexOutOfRange`] before any hashing. The witnesses txfx and Aztec build never
//! have such bits, so honest witnesses verify either way.

use txfx_poseidon::field::fr_to_hex;
use txfx_poseidon::{BackendError, Fr, Hasher};
use txfx_tx_effects::limits::MAX_TXS_PER_BLOCK;
use txfx_tx_effects::tree::root_from_path;
use txfx_tx_effects::{
    BlockCommitment, Body, IndexOutOfBounds, TxEffect, TxEffectsTree, commit_block, commit_effect,
    compute_leaf,
};

/// The longest sibling path a block can have: `log2(MAX_TXS_PER_BLOCK)` = 16. Longer paths are
/// refused before any hashing.
pub const MAX_PROTOCOL_PATH_LENGTH: usize = MAX_TXS_PER_BLOCK.trailing_zeros() as usize;

/// A membership witness for one tx of one block (the fork's `TxEffectMembershipWitness`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxEffectMembershipWitness {
    /// The block's number.
    pub block_number: u64,
    /// The root the witness claims; verify against a trusted root, not this one.
    pub root: Fr,
    /// The tx's categories hash, so a verifier holding only the tx hash can rebuild the leaf.
    /// Absent in the AZIP-26 form of the witness.
    pub categories_hash: Option<Fr>,
    /// The leaf's index at its own level; bit j is its side at step j (1 = right).
    pub leaf_index: u64,
    /// Siblings, lowest level first.
    pub sibling_path: Vec<Fr>,
}

/// Why a witness could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    /// The tx index is not in the block (every index of an empty block).
    #[error(transparent)]
    OutOfBounds(#[from] IndexOutOfBounds),
    /// No tx of the block has this hash.
    #[error("no tx with hash {tx_hash} in the block")]
    UnknownTx {
        /// The hash looked for.
        tx_hash: String,
    },
    /// The hashing backend failed.
    #[error(transparent)]
    Backend(#[from] BackendError),
}

/// Why a witness does not prove membership.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The path hashes to another root.
    #[error("root mismatch: the path hashes to {computed}, the trusted root is {expected}")]
    RootMismatch {
        /// What the path hashes to.
        computed: String,
        /// The trusted root.
        expected: String,
    },
    /// A path longer than any block can have.
    #[error("sibling path has {length} elements, a tx-effects tree has at most {max} levels")]
    PathTooLong {
        /// The path's length.
        length: usize,
        /// The protocol's maximum.
        max: usize,
    },
    /// `leafIndex` has bits set above the path length.
    #[error("leafIndex {leaf_index} does not fit a path of {path_length} siblings")]
    LeafIndexOutOfRange {
        /// The witness's leaf index.
        leaf_index: u64,
        /// The path's length.
        path_length: usize,
    },
    /// Verifying from a tx hash needs a categories hash, and neither the caller nor the witness
    /// gave one.
    #[error("no categories hash: the witness has none and none was given")]
    MissingCategoriesHash,
    /// The witness's categories hash is not the effect's.
    #[error("the witness's categories hash {in_witness} is not the effect's {computed}")]
    CategoriesHashMismatch {
        /// In the witness.
        in_witness: String,
        /// From the effect.
        computed: String,
    },
    /// The hashing backend failed.
    #[error(transparent)]
    Backend(#[from] BackendError),
}

/// Every witness of a block from one tree build (a node serving witnesses for each tx of a block
/// must not rebuild the tree per tx).
#[derive(Debug, Clone)]
pub struct BlockWitnesses {
    block_number: u64,
    tree: TxEffectsTree,
    categories_hashes: Option<Vec<Fr>>,
    tx_hashes: Vec<Fr>,
}

impl BlockWitnesses {
    /// Commits `body` and keeps its tree and categories hashes.
    ///
    /// # Errors
    /// [`BuildError::Backend`] if the backend fails.
    pub fn from_body(hasher: &dyn Hasher, body: &Body, block_number: u64) -> Result<Self, BuildError> {
        let BlockCommitment { txs, tree } = commit_block(hasher, body)?;
        Ok(Self {
            block_number,
            tree,
            categories_hashes: Some(txs.iter().map(|tx| tx.categories_hash).collect()),
            tx_hashes: body.tx_effects.iter().map(|effect| effect.tx_hash).collect(),
        })
    }

    /// From an already computed block commitment.
    pub fn from_commitment(commitment: BlockCommitment, body: &Body, block_number: u64) -> Self {
        Self {
            block_number,
            categories_hashes: Some(commitment.categories_hashes()),
            tree: commitment.tree,
            tx_hashes: body.tx_effects.iter().map(|effect| effect.tx_hash).collect(),
        }
    }

    /// From precomputed leaves (what a node stores per block); the witnesses carry no
    /// categories hash.
    ///
    /// # Errors
    /// [`BuildError::Backend`] if the backend fails.
    pub fn from_leaves(hasher: &dyn Hasher, leaves: Vec<Fr>, block_number: u64) -> Result<Self, BuildError> {
        Ok(Self {
            block_number,
            tree: TxEffectsTree::build(hasher, leaves)?,
            categories_hashes: None,
            tx_hashes: Vec::new(),
        })
    }

    /// The block's root.
    pub fn root(&self) -> Fr {
        self.tree.root()
    }

    /// The tree.
    pub fn tree(&self) -> &TxEffectsTree {
        &self.tree
    }

    /// The witness of the tx at `index` in the block.
    ///
    /// # Errors
    /// [`BuildError::OutOfBounds`] for an index outside the block.
    pub fn witness(&self, index: usize) -> Result<TxEffectMembershipWitness, BuildError> {
        let path = self.tree.path(index)?;
        Ok(TxEffectMembershipWitness {
            block_number: self.block_number,
            root: self.tree.root(),
            categories_hash: self.categories_hashes.as_ref().and_then(|all| all.get(index)).copied(),
            leaf_index: path.leaf_index,
            sibling_path: path.siblings,
        })
    }

    /// The witness of the tx with this hash (the first, should a block repeat one).
    ///
    /// # Errors
    /// [`BuildError::UnknownTx`] if no tx has it (and always for a block built from leaves).
    pub fn witness_for_tx_hash(&self, tx_hash: &Fr) -> Result<TxEffectMembershipWitness, BuildError> {
        let index = self
            .tx_hashes
            .iter()
            .position(|hash| hash == tx_hash)
            .ok_or_else(|| BuildError::UnknownTx { tx_hash: fr_to_hex(tx_hash) })?;
        self.witness(index)
    }

    /// Every witness, in block order.
    pub fn all(&self) -> Vec<TxEffectMembershipWitness> {
        (0..self.tree.len()).filter_map(|index| self.witness(index).ok()).collect()
    }
}

/// The witness of tx `index` of a block given by its effects (with its categories hash).
///
/// # Errors
/// [`BuildError`] for an index outside the block or a backend failure.
///
/// # Example
/// ```
/// use txfx_poseidon::Sequential;
/// use txfx_tx_effects::{Body, TxEffect};
/// use txfx_membership::{build_witness, verify_leaf};
/// let body = Body::new(vec![TxEffect::empty()]);
/// let witness = build_witness(&Sequential, &body, 0, 7)?;
/// assert_eq!((witness.leaf_index, witness.sibling_path.len()), (0, 0));
/// assert!(build_witness(&Sequential, &body, 1, 7).is_err());
/// # Ok::<(), txfx_membership::BuildError>(())
/// ```
pub fn build_witness(
    hasher: &dyn Hasher,
    body: &Body,
    index: usize,
    block_number: u64,
) -> Result<TxEffectMembershipWitness, BuildError> {
    // Check the index before hashing anything.
    if index >= body.len() {
        return Err(IndexOutOfBounds { index, len: body.len() }.into());
    }
    BlockWitnesses::from_body(hasher, body, block_number)?.witness(index)
}

/// The witness of leaf `index` over precomputed leaves (no categories hash).
///
/// # Errors
/// [`BuildError`] for an index outside the block or a backend failure.
pub fn build_witness_from_leaves(
    hasher: &dyn Hasher,
    leaves: Vec<Fr>,
    index: usize,
    block_number: u64,
) -> Result<TxEffectMembershipWitness, BuildError> {
    if index >= leaves.len() {
        return Err(IndexOutOfBounds { index, len: leaves.len() }.into());
    }
    BlockWitnesses::from_leaves(hasher, leaves, block_number)?.witness(index)
}

/// Checks the witness's shape before any hashing.
fn check_shape(witness: &TxEffectMembershipWitness) -> Result<(), VerifyError> {
    let length = witness.sibling_path.len();
    if length > MAX_PROTOCOL_PATH_LENGTH {
        return Err(VerifyError::PathTooLong { length, max: MAX_PROTOCOL_PATH_LENGTH });
    }
    if length < 64 && witness.leaf_index >> length != 0 {
        return Err(VerifyError::LeafIndexOutOfRange { leaf_index: witness.leaf_index, path_length: length });
    }
    Ok(())
}

/// The root the witness's path gives for `leaf` (TypeScript `computeRootFromSiblingPath`).
///
/// # Errors
/// [`VerifyError`] for a malformed witness or a backend failure.
pub fn compute_root(
    hasher: &dyn Hasher,
    leaf: Fr,
    witness: &TxEffectMembershipWitness,
) -> Result<Fr, VerifyError> {
    check_shape(witness)?;
    Ok(root_from_path(hasher, leaf, witness.leaf_index, &witness.sibling_path)?)
}

/// Verifies that `leaf` is in the tree whose root is `trusted_root`.
///
/// The leaf must be one the caller recomputed (from the tx hash and categories hash, or from the
/// full effect): paths have variable depth, so an untrusted bare "leaf" could be an internal node.
/// Prefer [`verify_tx`] or [`verify_effect`].
///
/// # Errors
/// [`VerifyError`] saying what failed.
pub fn verify_leaf(
    hasher: &dyn Hasher,
    leaf: Fr,
    witness: &TxEffectMembershipWitness,
    trusted_root: Fr,
) -> Result<(), VerifyError> {
    let computed = compute_root(hasher, leaf, witness)?;
    if computed == trusted_root {
        Ok(())
    } else {
        Err(VerifyError::RootMismatch { computed: fr_to_hex(&computed), expected: fr_to_hex(&trusted_root) })
    }
}

/// Verifies a tx from its hash and categories hash (`categories_hash`, or else the witness's).
///
/// # Errors
/// [`VerifyError`] saying what failed.
pub fn verify_tx(
    hasher: &dyn Hasher,
    tx_hash: Fr,
    categories_hash: Option<Fr>,
    witness: &TxEffectMembershipWitness,
    trusted_root: Fr,
) -> Result<(), VerifyError> {
    check_shape(witness)?;
    let categories_hash =
        categories_hash.or(witness.categories_hash).ok_or(VerifyError::MissingCategoriesHash)?;
    let leaf = compute_leaf(hasher, tx_hash, categories_hash)?;
    verify_leaf(hasher, leaf, witness, trusted_root)
}

/// Verifies a tx from its full effect. If the witness carries a categories hash, it must be the
/// effect's.
///
/// # Errors
/// [`VerifyError`] saying what failed.
pub fn verify_effect(
    hasher: &dyn Hasher,
    effect: &TxEffect,
    witness: &TxEffectMembershipWitness,
    trusted_root: Fr,
) -> Result<(), VerifyError> {
    check_shape(witness)?;
    let commitment = commit_effect(hasher, effect)?;
    if let Some(in_witness) = witness.categories_hash
        && in_witness != commitment.categories_hash
    {
        return Err(VerifyError::CategoriesHashMismatch {
            in_witness: fr_to_hex(&in_witness),
            computed: fr_to_hex(&commitment.categories_hash),
        });
    }
    verify_leaf(hasher, commitment.leaf, witness, trusted_root)
}
