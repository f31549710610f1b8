//! The tx-effects tree: unbalanced, greedily filled, with domain-separated nodes (SPEC.md §7).
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

use txfx_poseidon::{AsyncHasher, BackendError, DomainSeparator, Fr, Hasher};

/// The separator of internal nodes.
pub const NODE_SEPARATOR: DomainSeparator = DomainSeparator::TX_EFFECTS_TREE;

/// Pairs an async build hashes on the executor thread between two yields: about 0.1 ms of work.
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

/// The nodes over `pairs`, one per pair, checked to be as many as the pairs.
fn hash_pairs(hasher: &dyn Hasher, pairs: &[[Fr; 2]]) -> Result<Vec<Fr>, BackendError> {
    let hashed = hasher.hash_nodes(NODE_SEPARATOR, pairs)?;
    check_len(hasher.name(), &hashed, pairs.len())?;
    Ok(hashed)
}

/// The level above `level`: its pairs hashed by `hasher`, an odd last node carried up.
fn hash_level(hasher: &dyn Hasher, level: &[Fr]) -> Result<Vec<Fr>, BackendError> {
    let (pairs, carried) = level.as_chunks::<2>();
    let mut next = hash_pairs(hasher, pairs)?;
    next.extend_from_slice(carried);
    Ok(next)
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
    pub fn build(hasher: &dyn Hasher, leaves: Vec<Fr>) -> Result<Self, BackendError> {
        let mut levels = vec![leaves];
        while let Some(level) = levels.last().filter(|level| level.len() > 1) {
            let next = hash_level(hasher, level)?;
            levels.push(next);
        }
        Ok(Self { levels })
    }

    /// Builds the tree through the async hasher: levels go through its synchronous fast path when
    /// it has one (internal nodes are small and frequent), otherwise one async batch per level.
    ///
    /// # Errors
    /// [`BackendError`] if the backend fails.
    pub async fn build_async(hasher: &dyn AsyncHasher, leaves: Vec<Fr>) -> Result<Self, BackendError> {
        if let Some(sync) = hasher.sync_fast_path() {
            // A few pairs at a time, yielding to the executor after each piece, so that a tree
            // never holds an executor thread for more than about 0.1 ms.
            let mut levels = vec![leaves];
            while let Some(level) = levels.last().filter(|level| level.len() > 1) {
                let (pairs, carried) = level.as_chunks::<2>();
                let mut next = Vec::with_capacity(pairs.len() + carried.len());
                for piece in pairs.chunks(PAIRS_PER_YIELD) {
                    next.extend(hash_pairs(sync, piece)?);
                    YieldNow(false).await;
                }
                next.extend_from_slice(carried);
                levels.push(next);
            }
            return Ok(Self { levels });
        }
        let mut levels = vec![leaves];
        while let Some(level) = levels.last().filter(|level| level.len() > 1) {
            let (pairs, carried) = level.as_chunks::<2>();
            let mut next = hasher.hash_nodes_async(NODE_SEPARATOR, pairs.to_vec()).await?;
            check_len(hasher.backend_name(), &next, pairs.len())?;
            next.extend_from_slice(carried);
            levels.push(next);
        }
        Ok(Self { levels })
    }

    /// The root: 0 for no leaves, the leaf itself for one.
    pub fn root(&self) -> Fr {
        self.levels.last().and_then(|level| level.first()).copied().unwrap_or_default()
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
    pub fn depth(&self) -> usize {
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

    /// Every leaf's path, in block order.
    pub fn paths(&self) -> Vec<TreePath> {
        (0..self.len()).filter_map(|index| self.path(index).ok()).collect()
    }
}

/// A future that is pending once (waking itself) and then ready: a runtime-agnostic yield.
struct YieldNow(bool);

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

fn check_len(backend: &'static str, hashed: &[Fr], expected: usize) -> Result<(), BackendError> {
    if hashed.len() == expected {
        Ok(())
    } else {
        Err(BackendError {
            backend,
            operation: "hash_nodes",
            reason: format!("returned {} nodes for {expected} pairs", hashed.len()),
        })
    }
}

/// The root over `leaves` (the recursive rule of SPEC.md §7.1).
///
/// # Errors
/// [`BackendError`] if the backend fails.
pub fn tree_root(hasher: &dyn Hasher, leaves: &[Fr]) -> Result<Fr, BackendError> {
    Ok(TxEffectsTree::build(hasher, leaves.to_vec())?.root())
}

/// Hashes up a sibling path: at step j the current node is the right child if bit j of
/// `leaf_index` is set (TypeScript `computeRootFromSiblingPath`). Bits above the path are not
/// looked at here; `txfx-membership` decides what they mean.
///
/// # Errors
/// [`BackendError`] if the backend fails.
pub fn root_from_path(
    hasher: &dyn Hasher,
    leaf: Fr,
    leaf_index: u64,
    siblings: &[Fr],
) -> Result<Fr, BackendError> {
    let mut current = leaf;
    for (step, sibling) in siblings.iter().enumerate() {
        let right = step < 64 && (leaf_index >> step) & 1 == 1;
        let pair = if right { [*sibling, current] } else { [current, *sibling] };
        let hashed = hasher.hash_nodes(NODE_SEPARATOR, std::slice::from_ref(&pair))?;
        check_len(hasher.name(), &hashed, 1)?;
        current = hashed.first().copied().unwrap_or_default();
    }
    Ok(current)
}
