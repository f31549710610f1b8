//! Building and verifying tx-effect membership witnesses (docs/spec.md §7.2–§7.4).
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
//! [`VerifyError::Path`] (`LeafIndexOutOfRange`) before any hashing. The witnesses txfx and Aztec build never
//! have such bits, so honest witnesses verify either way.

use txfx_poseidon::field::fr_to_hex;
use txfx_poseidon::{BackendError, Fr, HashBackend};
use txfx_tx_effects::tree::{CheckedPath, PathError, check_path, root_from_path};
use txfx_tx_effects::{
    BlockCommitment, BlockNumber, Body, IndexOutOfBounds, TxEffect, TxEffectsTree, commit_block,
    commit_effect, compute_leaf,
};

/// A membership witness for one tx of one block (the fork's `TxEffectMembershipWitness`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxEffectMembershipWitness {
    /// The block's number.
    pub block_number: BlockNumber,
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

/// A tx-effects tree root the caller trusts: the `txEffectsTreeRoot` of a block header it has
/// authenticated (against the archive root on L1, or from its own node), never a witness's own
/// `root` field or anything else an untrusted party sent.
///
/// The type exists so that the root a verification compares against cannot be confused with a
/// hash argument: a verifier must say, by constructing one, where its root comes from.
///
/// ```
/// use txfx_membership::TrustedRoot;
/// use txfx_poseidon::Fr;
/// let header_root = Fr::from(42u64); // from an authenticated header
/// let root = TrustedRoot::from_authenticated_header(header_root);
/// assert_eq!(root.get(), header_root);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrustedRoot(Fr);

impl TrustedRoot {
    /// The root, taken from a block header the caller has authenticated.
    pub fn from_authenticated_header(tx_effects_tree_root: Fr) -> Self {
        Self(tx_effects_tree_root)
    }

    /// The root as a field element.
    pub fn get(self) -> Fr {
        self.0
    }
}

/// The tx a witness is checked for: its hash and, when the caller has it, its categories hash
/// (otherwise the witness's is used; if both are given they must agree). Named fields, so the
/// two hashes cannot be swapped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TxClaim {
    /// The tx hash.
    pub tx_hash: Fr,
    /// The tx's categories hash, if the caller has it.
    pub categories_hash: Option<Fr>,
}

/// What a verified tx-effects witness proves: this leaf is at `leaf_index` of its level, under
/// `path_length` siblings, in the tree whose root is `tx_effects_tree_root` (the trusted root).
/// The tx hash and categories hash are present exactly when the leaf was rebuilt from them, so
/// a fact is named only when it was checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TxMembership {
    /// The trusted root the leaf hashed up to.
    pub tx_effects_tree_root: Fr,
    /// The tx hash the leaf was rebuilt from (`None` for a leaf verified as given).
    pub tx_hash: Option<Fr>,
    /// The categories hash the leaf was rebuilt from (`None` for a leaf verified as given).
    pub categories_hash: Option<Fr>,
    /// The leaf.
    pub leaf: Fr,
    /// The leaf's index at its own level (not the tx's index in the block).
    pub leaf_index: u64,
    /// The number of siblings: the leaf's level.
    pub path_length: usize,
}

/// Why a witness could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The tx index is not in the block (every index of an empty block).
    #[error(transparent)]
    OutOfBounds(#[from] IndexOutOfBounds),
    /// The hashing backend failed.
    #[error(transparent)]
    Backend(#[from] BackendError),
}

/// Why a tx hash does not select one tx of a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TxLookupError {
    /// No tx of the block has this hash.
    #[error("no tx with hash {} in the block", fr_to_hex(.tx_hash))]
    Unknown {
        /// The hash looked for.
        tx_hash: Fr,
    },
    /// Two txs of the block have this hash: which one is meant cannot be told, so the hash
    /// selects none (an index still does).
    #[error("txs {first} and {second} of the block both have hash {}: select the tx by its index", fr_to_hex(.tx_hash))]
    Repeated {
        /// The hash looked for.
        tx_hash: Fr,
        /// The first tx with it.
        first: usize,
        /// The second.
        second: usize,
    },
    /// The block was given as bare leaves, which carry no tx hashes.
    #[error("bare leaves carry no tx hashes: select the tx by its index, or give the stored block")]
    NoTxHashes,
}

/// The one tx of `tx_hashes` (a block's, in order) with hash `tx_hash`.
///
/// # Errors
/// [`TxLookupError::Unknown`] if none has it, [`TxLookupError::Repeated`] if two do.
pub fn find_tx(tx_hashes: impl IntoIterator<Item = Fr>, tx_hash: Fr) -> Result<usize, TxLookupError> {
    let mut found = None;
    for (index, hash) in tx_hashes.into_iter().enumerate() {
        if hash == tx_hash {
            match found {
                None => found = Some(index),
                Some(first) => return Err(TxLookupError::Repeated { tx_hash, first, second: index }),
            }
        }
    }
    found.ok_or(TxLookupError::Unknown { tx_hash })
}

/// Why a witness does not prove membership.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// The path hashes to another root.
    #[error("root mismatch: the path hashes to {}, the trusted root is {}", fr_to_hex(.computed), fr_to_hex(.expected))]
    RootMismatch {
        /// What the path hashes to.
        computed: Fr,
        /// The trusted root.
        expected: Fr,
    },
    /// A path no tx-effects tree has (too long, or `leafIndex` bits above it), refused before
    /// any hashing.
    #[error(transparent)]
    Path(#[from] PathError),
    /// Verifying from a tx hash needs a categories hash, and neither the caller nor the witness
    /// gave one.
    #[error("no categories hash: the witness has none and none was given")]
    MissingCategoriesHash,
    /// The witness's categories hash is not the effect's, or not the one the caller gave.
    #[error("the witness's categories hash {} is not the tx's {}", fr_to_hex(.in_witness), fr_to_hex(.computed))]
    CategoriesHashMismatch {
        /// In the witness.
        in_witness: Fr,
        /// From the effect, or given by the caller.
        computed: Fr,
    },
    /// The effect carries private-log fields past a log's `emittedLength`: no commitment covers
    /// them, so a verdict about the effect would cover data nothing proves.
    #[error(
        "privateLogs[{log}]: field {position} is past emittedLength and not zero; no commitment covers it, so the effect cannot be verified as given"
    )]
    UncommittedFields {
        /// The log.
        log: usize,
        /// The first nonzero field past its emitted length.
        position: usize,
    },
    /// The hashing backend failed.
    #[error(transparent)]
    Backend(#[from] BackendError),
}

impl VerifyError {
    /// The hashing failure behind the error, if it is one.
    pub fn backend(&self) -> Option<&BackendError> {
        match self {
            Self::Backend(error) => Some(error),
            Self::RootMismatch { .. }
            | Self::Path(_)
            | Self::MissingCategoriesHash
            | Self::CategoriesHashMismatch { .. }
            | Self::UncommittedFields { .. } => None,
        }
    }
}

/// Every witness of a block from one tree build (a node serving witnesses for each tx of a block
/// must not rebuild the tree per tx).
#[derive(Debug, Clone)]
pub struct BlockWitnesses {
    block_number: BlockNumber,
    tree: TxEffectsTree,
    categories_hashes: Option<Vec<Fr>>,
    /// `None` for a block built from bare leaves, which carry none.
    tx_hashes: Option<Vec<Fr>>,
}

impl BlockWitnesses {
    /// Commits `body` and keeps its tree and categories hashes.
    ///
    /// # Errors
    /// [`BackendError`] if the backend fails.
    pub fn from_body(
        hasher: &dyn HashBackend,
        body: &Body,
        block_number: BlockNumber,
    ) -> Result<Self, BackendError> {
        let BlockCommitment { txs, tree } = commit_block(hasher, body)?;
        Ok(Self {
            block_number,
            tree,
            categories_hashes: Some(txs.iter().map(|tx| tx.categories_hash).collect()),
            tx_hashes: Some(body.tx_effects.iter().map(|effect| effect.tx_hash).collect()),
        })
    }

    /// From a commitment of `body` already made (a reader that checked the body against its
    /// header committed it): the same witnesses as [`Self::from_body`], without hashing again.
    pub fn from_commitment(commitment: BlockCommitment, body: &Body, block_number: BlockNumber) -> Self {
        let BlockCommitment { txs, tree } = commitment;
        Self {
            block_number,
            tree,
            categories_hashes: Some(txs.iter().map(|tx| tx.categories_hash).collect()),
            tx_hashes: Some(body.tx_effects.iter().map(|effect| effect.tx_hash).collect()),
        }
    }

    /// From bare leaves; the witnesses carry no categories hash and look-up by tx hash is
    /// impossible. Prefer [`BlockWitnesses::from_stored`], whose stored form keeps both.
    ///
    /// # Errors
    /// [`BackendError`] if the backend fails.
    pub fn from_leaves(
        hasher: &dyn HashBackend,
        leaves: Vec<Fr>,
        block_number: BlockNumber,
    ) -> Result<Self, BackendError> {
        Ok(Self {
            block_number,
            tree: TxEffectsTree::build(hasher, leaves)?,
            categories_hashes: None,
            tx_hashes: None,
        })
    }

    /// From checked parts (the stored form's constructor checks them).
    pub(crate) fn from_parts(
        block_number: BlockNumber,
        tree: TxEffectsTree,
        categories_hashes: Option<Vec<Fr>>,
        tx_hashes: Vec<Fr>,
    ) -> Self {
        Self { block_number, tree, categories_hashes, tx_hashes: Some(tx_hashes) }
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
    /// [`IndexOutOfBounds`] for an index outside the block.
    pub fn witness(&self, index: usize) -> Result<TxEffectMembershipWitness, IndexOutOfBounds> {
        let path = self.tree.path(index)?;
        Ok(TxEffectMembershipWitness {
            block_number: self.block_number,
            root: self.tree.root(),
            categories_hash: self.categories_hashes.as_ref().and_then(|all| all.get(index)).copied(),
            leaf_index: path.leaf_index,
            sibling_path: path.siblings,
        })
    }

    /// The witness of the one tx with this hash.
    ///
    /// # Errors
    /// [`TxLookupError`] if no tx has it, two do, or the block was built from bare leaves.
    #[allow(clippy::expect_used, reason = "an internal invariant: every tx hash has its leaf")]
    pub fn witness_for_tx_hash(&self, tx_hash: Fr) -> Result<TxEffectMembershipWitness, TxLookupError> {
        let hashes = self.tx_hashes.as_ref().ok_or(TxLookupError::NoTxHashes)?;
        let index = find_tx(hashes.iter().copied(), tx_hash)?;
        Ok(self.witness(index).expect("invariant: the tree has a leaf for every tx hash"))
    }

    /// Every witness, in block order.
    #[allow(clippy::expect_used, reason = "an internal invariant: a lost witness must fail loudly")]
    pub fn all(&self) -> Vec<TxEffectMembershipWitness> {
        (0..self.tree.len())
            .map(|index| self.witness(index).expect("invariant: every index below len has a path"))
            .collect()
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
/// let witness = build_witness(&Sequential, &body, 0, 7.into())?;
/// assert_eq!((witness.leaf_index, witness.sibling_path.len()), (0, 0));
/// assert!(build_witness(&Sequential, &body, 1, 7.into()).is_err());
/// # Ok::<(), txfx_membership::BuildError>(())
/// ```
pub fn build_witness(
    hasher: &dyn HashBackend,
    body: &Body,
    index: usize,
    block_number: BlockNumber,
) -> Result<TxEffectMembershipWitness, BuildError> {
    witness_checked_first(index, body.len(), || BlockWitnesses::from_body(hasher, body, block_number))
}

/// The witness of leaf `index` over precomputed leaves (no categories hash).
///
/// # Errors
/// [`BuildError`] for an index outside the block or a backend failure.
pub fn build_witness_from_leaves(
    hasher: &dyn HashBackend,
    leaves: Vec<Fr>,
    index: usize,
    block_number: BlockNumber,
) -> Result<TxEffectMembershipWitness, BuildError> {
    let len = leaves.len();
    witness_checked_first(index, len, || BlockWitnesses::from_leaves(hasher, leaves, block_number))
}

/// The witness of tx `index` of a block of `len` txs, from the block `build` hashes: the index
/// is checked before anything is hashed, so that a bad index costs no tree.
fn witness_checked_first(
    index: usize,
    len: usize,
    build: impl FnOnce() -> Result<BlockWitnesses, BackendError>,
) -> Result<TxEffectMembershipWitness, BuildError> {
    if index >= len {
        return Err(IndexOutOfBounds { index, len }.into());
    }
    Ok(build()?.witness(index)?)
}

/// The root the witness's path gives for `leaf` (TypeScript `computeRootFromSiblingPath`, but
/// refusing a path no tree has before any hashing).
///
/// # Errors
/// [`VerifyError`] for a malformed witness or a backend failure.
pub fn compute_root(
    hasher: &dyn HashBackend,
    leaf: Fr,
    witness: &TxEffectMembershipWitness,
) -> Result<Fr, VerifyError> {
    let path = check_shape(witness)?;
    Ok(root_from_path(hasher, leaf, path)?)
}

/// Checks the path's shape before anything is hashed (the tree's own rule), so that a malformed
/// witness costs no leaf hashing either.
fn check_shape(witness: &TxEffectMembershipWitness) -> Result<CheckedPath<'_>, VerifyError> {
    Ok(check_path(witness.leaf_index, &witness.sibling_path)?)
}

/// The facts of a leaf that hashed up to the trusted root, or the mismatch.
fn membership(
    hasher: &dyn HashBackend,
    leaf: Fr,
    rebuilt_from: Option<(Fr, Fr)>,
    witness: &TxEffectMembershipWitness,
    trusted_root: TrustedRoot,
) -> Result<TxMembership, VerifyError> {
    let computed = compute_root(hasher, leaf, witness)?;
    if computed != trusted_root.get() {
        return Err(VerifyError::RootMismatch { computed, expected: trusted_root.get() });
    }
    Ok(TxMembership {
        tx_effects_tree_root: computed,
        tx_hash: rebuilt_from.map(|(tx_hash, _)| tx_hash),
        categories_hash: rebuilt_from.map(|(_, categories_hash)| categories_hash),
        leaf,
        leaf_index: witness.leaf_index,
        path_length: witness.sibling_path.len(),
    })
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
    hasher: &dyn HashBackend,
    leaf: Fr,
    witness: &TxEffectMembershipWitness,
    trusted_root: TrustedRoot,
) -> Result<TxMembership, VerifyError> {
    membership(hasher, leaf, None, witness, trusted_root)
}

/// Verifies a tx from its hash and categories hash: the claim's, else the witness's; when both
/// are given they must be the same.
///
/// # Errors
/// [`VerifyError`] saying what failed.
pub fn verify_tx(
    hasher: &dyn HashBackend,
    tx: TxClaim,
    witness: &TxEffectMembershipWitness,
    trusted_root: TrustedRoot,
) -> Result<TxMembership, VerifyError> {
    check_shape(witness)?;
    let categories_hash = match (tx.categories_hash, witness.categories_hash) {
        (Some(given), Some(in_witness)) if given != in_witness => {
            return Err(VerifyError::CategoriesHashMismatch { in_witness, computed: given });
        }
        (Some(hash), _) | (None, Some(hash)) => hash,
        (None, None) => return Err(VerifyError::MissingCategoriesHash),
    };
    let leaf = compute_leaf(hasher, tx.tx_hash, categories_hash)?;
    membership(hasher, leaf, Some((tx.tx_hash, categories_hash)), witness, trusted_root)
}

/// Verifies a tx from its full effect. If the witness carries a categories hash, it must be the
/// effect's. An effect carrying private-log fields past a log's emitted length is refused: no
/// commitment covers them, and the verdict would be about data nothing proves.
///
/// # Errors
/// [`VerifyError`] saying what failed.
pub fn verify_effect(
    hasher: &dyn HashBackend,
    effect: &TxEffect,
    witness: &TxEffectMembershipWitness,
    trusted_root: TrustedRoot,
) -> Result<TxMembership, VerifyError> {
    check_shape(witness)?;
    if let Some((log, position)) = effect.uncommitted_field() {
        return Err(VerifyError::UncommittedFields { log, position });
    }
    let commitment = commit_effect(hasher, effect)?;
    if let Some(in_witness) = witness.categories_hash
        && in_witness != commitment.categories_hash
    {
        return Err(VerifyError::CategoriesHashMismatch { in_witness, computed: commitment.categories_hash });
    }
    membership(
        hasher,
        commitment.leaf,
        Some((effect.tx_hash, commitment.categories_hash)),
        witness,
        trusted_root,
    )
}
