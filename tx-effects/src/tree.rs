//! The tx-effects tree: unbalanced, greedily filled, with domain-separated nodes (docs/spec.md §7).
//!
//! The root rule is recursive: `R([]) = 0`, `R([x]) = x`, and otherwise
//! `R(L) = N(R(L[..k]), R(L[k..]))` with `k` the largest power of two strictly below `n`.
//! It is computed level by level, which gives the same tree: pair the nodes of a level from the
//! left, and carry an odd last node up unchanged.
//!
//! ```text
//!  n = 5:        root                 level 0
//!              /      \
//!            N          L4 (carried)  level 1
//!          /   \
//!         N     N                     level 2
//!        / \   / \
//!       L0 L1 L2 L3                   level 3
//! ```
//!
//! A carried node keeps its value, so a leaf's witness has one sibling per level where it was
//! actually paired, and bit j of the witness `leafIndex` is its side at the j-th such pairing.
//! Every level is one batch for the backend; zero leaves are ordinary leaves, never skipped.

use txfx_poseidon::{BackendError, DomainSeparator, Fr, HashBackend, HashBackendExt};

use crate::limits::MAX_TXS_PER_BLOCK;

/// The separator of internal nodes.
pub(crate) const NODE_SEPARATOR: DomainSeparator = DomainSeparator::TX_EFFECTS_TREE;

/// Pairs an async build hashes on the executor thread between two yields: eight permutations.
#[cfg(feature = "async")]
const PAIRS_PER_YIELD: usize = 8;

/// A tx index outside the block.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("tx index {index} is out of bounds for a block with {len} txs")]
pub struct IndexOutOfBounds {
    /// The index asked for.
    pub index: usize,
    /// Txs in the block.
    pub len: usize,
}

/// The sibling path of one leaf.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreePath {
    /// The leaf's index among the nodes of its own level; bit j is its side at step j (1 = right).
    pub leaf_index: u64,
    /// Siblings, lowest level first; the path length is the leaf's level.
    pub siblings: Vec<Fr>,
}

/// Every level of a tx-effects tree, leaves first, so that witnesses need no rehashing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TxEffectsTree {
    /// `levels[0]` are the leaves; each next level is the previous one hashed pairwise with an odd
    /// last node carried; the last level holds the root (none for an empty tree).
    levels: Vec<Vec<Fr>>,
}

/// The one level loop of every build: the levels so far, and the pairs the next level hashes.
struct Levels {
    levels: Vec<Vec<Fr>>,
}

impl Levels {
    fn new(leaves: Vec<Fr>) -> Self {
        Self { levels: vec![leaves] }
    }

    /// The pairs of the top level, or `None` once it is the root (or the tree is empty).
    fn pending(&self) -> Option<&[[Fr; 2]]> {
        let top = self.levels.last().filter(|level| level.len() > 1)?;
        Some(top.as_chunks::<2>().0)
    }

    /// Adds the level above the top one: `hashed` (one node per pending pair, already checked
    /// to be as many), then the odd last node of the top level carried up unchanged.
    fn push(&mut self, mut hashed: Vec<Fr>) {
        let carried = self.levels.last().map(|level| level.as_chunks::<2>().1).unwrap_or_default();
        hashed.extend_from_slice(carried);
        self.levels.push(hashed);
    }

    fn finish(self) -> TxEffectsTree {
        TxEffectsTree { levels: self.levels }
    }
}

impl TxEffectsTree {
    /// Builds the tree over `leaves`, one backend batch per level.
    ///
    /// # Errors
    /// [`BackendError`] if the backend fails.
    ///
    /// # Example
    /// ```
    /// use txfx_poseidon::{Fr, Sequential};
    /// use txfx_tx_effects::tree::TxEffectsTree;
    /// let tree = TxEffectsTree::build(&Sequential, (1..=3u64).map(Fr::from).collect())?;
    /// let path = tree.path(2).expect("tx 2 exists");
    /// assert_eq!((path.leaf_index, path.siblings.len()), (1, 1));
    /// # Ok::<(), txfx_poseidon::BackendError>(())
    /// ```
    pub fn build(hasher: &dyn HashBackend, leaves: Vec<Fr>) -> Result<Self, BackendError> {
        let mut levels = Levels::new(leaves);
        while let Some(pairs) = levels.pending() {
            let hashed = hasher.hash_level_checked(NODE_SEPARATOR, pairs)?;
            levels.push(hashed);
        }
        Ok(levels.finish())
    }

    /// Builds the trees of several blocks at once, `result[i]` over `leaves[i]`: each round hashes
    /// the next level of every tree that has one in ONE backend batch, so a batch engine fills
    /// its lanes from many small blocks (a 3-tx block alone has one or two pairs a level). The
    /// trees are the ones [`build`](Self::build) gives, node for node; only the batching differs.
    ///
    /// # Errors
    /// [`BackendError`] if the backend fails.
    pub fn build_many(hasher: &dyn HashBackend, leaves: Vec<Vec<Fr>>) -> Result<Vec<Self>, BackendError> {
        let mut trees: Vec<Levels> = leaves.into_iter().map(Levels::new).collect();
        loop {
            // Every tree's pending pairs, one after another, and how many each has.
            let mut pairs: Vec<[Fr; 2]> = Vec::new();
            let counts: Vec<Option<usize>> = trees
                .iter()
                .map(|tree| {
                    tree.pending().map(|pending| {
                        pairs.extend_from_slice(pending);
                        pending.len()
                    })
                })
                .collect();
            if pairs.is_empty() {
                break;
            }
            // `hash_level_checked` gives one node per pair, so the split below uses them all.
            let mut hashed = hasher.hash_level_checked(NODE_SEPARATOR, &pairs)?.into_iter();
            for (tree, count) in trees.iter_mut().zip(counts) {
                if let Some(count) = count {
                    tree.push(hashed.by_ref().take(count).collect());
                }
            }
        }
        Ok(trees.into_iter().map(Levels::finish).collect())
    }

    #[cfg(feature = "async")]
    /// Builds the tree through the async backend: levels on its synchronous level backend
    /// ([`txfx_poseidon::AsyncHashBackend::levels`]: internal nodes are small and frequent), a few pairs between
    /// yields to the executor.
    ///
    /// # Errors
    /// [`BackendError`] if the backend fails.
    pub async fn build_async(
        hasher: &dyn txfx_poseidon::AsyncHashBackend,
        leaves: Vec<Fr>,
    ) -> Result<Self, BackendError> {
        let mut levels = Levels::new(leaves);
        let sync = hasher.levels();
        while let Some(pairs) = levels.pending() {
            // Never hold an executor thread for more than about 0.1 ms.
            let mut hashed = Vec::with_capacity(pairs.len());
            for piece in pairs.chunks(PAIRS_PER_YIELD) {
                hashed.extend(sync.hash_level_checked(NODE_SEPARATOR, piece)?);
                YieldNow(false).await;
            }
            levels.push(hashed);
        }
        Ok(levels.finish())
    }

    /// The root: 0 for no leaves (the protocol's root of an empty block), the leaf itself for one.
    pub fn root(&self) -> Fr {
        self.levels.last().and_then(|level| level.first()).copied().unwrap_or(Fr::from(0u64))
    }

    /// The leaves.
    pub fn leaves(&self) -> &[Fr] {
        self.levels.first().map(Vec::as_slice).unwrap_or_default()
    }

    /// Number of leaves.
    pub fn len(&self) -> usize {
        self.leaves().len()
    }

    /// Whether the tree has no leaves.
    pub fn is_empty(&self) -> bool {
        self.leaves().is_empty()
    }

    /// The deepest leaf's level: `ceil(log2 n)`.
    pub(crate) fn depth(&self) -> usize {
        self.levels.len().saturating_sub(1)
    }

    /// The witness path of leaf `index` (its position in the block).
    ///
    /// # Errors
    /// [`IndexOutOfBounds`] if `index >= n` (every index of an empty block).
    pub fn path(&self, index: usize) -> Result<TreePath, IndexOutOfBounds> {
        if index >= self.len() {
            return Err(IndexOutOfBounds { index, len: self.len() });
        }
        let mut position = index;
        let mut leaf_index = 0u64;
        let mut siblings = Vec::with_capacity(self.depth());
        for level in self.levels.iter().take(self.depth()) {
            let carried = level.len() % 2 == 1 && position == level.len() - 1;
            if !carried && let Some(sibling) = level.get(position ^ 1) {
                leaf_index |= ((position & 1) as u64) << siblings.len();
                siblings.push(*sibling);
            }
            position >>= 1;
        }
        Ok(TreePath { leaf_index, siblings })
    }
}

#[cfg(feature = "async")]
/// A future that is pending once (waking itself) and then ready: a runtime-agnostic yield.
struct YieldNow(bool);

#[cfg(feature = "async")]
impl std::future::Future for YieldNow {
    type Output = ();
    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<()> {
        if self.0 {
            std::task::Poll::Ready(())
        } else {
            self.0 = true;
            cx.waker().wake_by_ref();
            std::task::Poll::Pending
        }
    }
}

/// The root over `leaves` (the recursive rule of docs/spec.md §7.1).
///
/// # Errors
/// [`BackendError`] if the backend fails.
pub fn tree_root(hasher: &dyn HashBackend, leaves: &[Fr]) -> Result<Fr, BackendError> {
    Ok(TxEffectsTree::build(hasher, leaves.to_vec())?.root())
}

/// The longest sibling path a tx-effects tree can have: `log2(MAX_TXS_PER_BLOCK)` = 16.
pub const MAX_PATH_LENGTH: usize = MAX_TXS_PER_BLOCK.trailing_zeros() as usize;

/// A sibling path no tx-effects tree has: found by looking at its shape alone, before any
/// hashing. A hashing failure is never one (it is [`root_from_path`]'s [`BackendError`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PathError {
    /// A path longer than any block's tree.
    #[error("sibling path has {length} elements, a tx-effects tree has at most {max} levels")]
    TooLong {
        /// The path's length.
        length: usize,
        /// [`MAX_PATH_LENGTH`].
        max: usize,
    },
    /// `leafIndex` has bits set above the path length: no builder produces such a witness.
    #[error("leafIndex {leaf_index} does not fit a path of {path_length} siblings")]
    LeafIndexOutOfRange {
        /// The leaf index.
        leaf_index: u64,
        /// The path's length.
        path_length: usize,
    },
}

/// A sibling path whose shape a tx-effects tree can have: only [`check_path`] makes one, so
/// [`root_from_path`] never hashes up a path it has not checked.
#[derive(Debug, Clone, Copy)]
pub struct CheckedPath<'a> {
    leaf_index: u64,
    siblings: &'a [Fr],
}

impl CheckedPath<'_> {
    /// The leaf's index at its level.
    pub fn leaf_index(&self) -> u64 {
        self.leaf_index
    }

    /// The number of siblings: the leaf's level.
    pub fn len(&self) -> usize {
        self.siblings.len()
    }

    /// Whether the path is empty (the leaf is the root of a one-tx block).
    pub fn is_empty(&self) -> bool {
        self.siblings.is_empty()
    }
}

/// Checks that `siblings` with this `leaf_index` can be a path of a tx-effects tree: at most
/// [`MAX_PATH_LENGTH`] siblings, and no `leafIndex` bit above them.
///
/// # Errors
/// [`PathError::TooLong`] or [`PathError::LeafIndexOutOfRange`].
pub fn check_path(leaf_index: u64, siblings: &[Fr]) -> Result<CheckedPath<'_>, PathError> {
    let length = siblings.len();
    if length > MAX_PATH_LENGTH {
        return Err(PathError::TooLong { length, max: MAX_PATH_LENGTH });
    }
    // length <= 16, so the shift is in range.
    if leaf_index >> length != 0 {
        return Err(PathError::LeafIndexOutOfRange { leaf_index, path_length: length });
    }
    Ok(CheckedPath { leaf_index, siblings })
}

/// Hashes `leaf` up a checked sibling path: at step j the current node is the right child if bit
/// j of `leafIndex` is set (TypeScript `computeRootFromSiblingPath`). Stricter than TypeScript,
/// which ignores `leafIndex` bits above the path: [`check_path`] refuses such a path, and one
/// longer than [`MAX_PATH_LENGTH`], before anything is hashed.
///
/// # Errors
/// [`BackendError`] if the backend fails.
pub fn root_from_path(hasher: &dyn HashBackend, leaf: Fr, path: CheckedPath<'_>) -> Result<Fr, BackendError> {
    let mut current = leaf;
    for (step, sibling) in path.siblings.iter().enumerate() {
        let (left, right) =
            if (path.leaf_index >> step) & 1 == 1 { (*sibling, current) } else { (current, *sibling) };
        current = hasher.hash_node(NODE_SEPARATOR, left, right)?;
    }
    Ok(current)
}
