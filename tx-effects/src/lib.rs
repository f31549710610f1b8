#![doc = include_str!("../README.md")]

/// txfx-poseidon, re-exported: field codec (`field::fr_to_hex`, `field::parse_fr_hex`), `Fr`, backends.
pub use txfx_poseidon;

pub mod blob;
pub mod category;
pub mod checkpoint;
pub mod commitment;
pub mod limits;
pub mod model;
mod names;
pub mod protocol;
#[cfg(feature = "synthetic")]
pub mod synthetic;
pub mod tree;

#[cfg(feature = "async")]
pub use commitment::commit_effects_async;
pub use commitment::{TxEffectCommitment, commit_effect, compute_leaf};
pub use model::{
    BlockNumber, Body, Category, ContractClassLog, PrivateLog, PublicDataWrite, PublicLog, RevertCode,
    TxEffect, TxEffectError, TxEffectFields,
};
pub use protocol::{ProtocolVersion, UnknownProtocolVersion};
pub use tree::{CheckedPath, IndexOutOfBounds, PathError, TreePath, TxEffectsTree, tree_root};

#[cfg(feature = "async")]
use txfx_poseidon::AsyncHashBackend;
use txfx_poseidon::{BackendError, Fr, HashBackend};

/// A block's commitment: every tx's commitment and the tree over their leaves.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BlockCommitment {
    /// One commitment per tx, in block order.
    pub txs: Vec<TxEffectCommitment>,
    /// The tx-effects tree over the leaves.
    pub tree: TxEffectsTree,
}

impl BlockCommitment {
    /// The block's `txEffectsTreeRoot`.
    pub fn root(&self) -> Fr {
        self.tree.root()
    }

    /// The leaves, in block order.
    pub fn leaves(&self) -> &[Fr] {
        self.tree.leaves()
    }

    /// The categories hashes, in block order.
    pub fn categories_hashes(&self) -> Vec<Fr> {
        self.txs.iter().map(|tx| tx.categories_hash).collect()
    }
}

/// Commits a block: every leaf (in four batches), then the tree.
///
/// # Errors
/// [`BackendError`] if the backend fails.
pub fn commit_block(hasher: &dyn HashBackend, body: &Body) -> Result<BlockCommitment, BackendError> {
    let txs = commitment::commit_effects(hasher, &body.tx_effects)?;
    let tree = TxEffectsTree::build(hasher, txs.iter().map(|tx| tx.leaf).collect())?;
    Ok(BlockCommitment { txs, tree })
}

/// Commits several blocks at once, `result[i]` for `bodies[i]`: the same commitments as
/// [`commit_block`] on each, but every stage of every block's leaves is one backend batch, and
/// the trees' levels are hashed together ([`TxEffectsTree::build_many`]), so a batch engine
/// fills its lanes across blocks. This is what checkpoint decoding and `--jsonl` backfills use:
/// their blocks are often one or a few txs, too few to fill eight lanes alone.
///
/// # Errors
/// [`BackendError`] if the backend fails.
pub fn commit_blocks(
    hasher: &dyn HashBackend,
    bodies: &[&Body],
) -> Result<Vec<BlockCommitment>, BackendError> {
    let mut all =
        commitment::commit_effects(hasher, bodies.iter().flat_map(|body| &body.tx_effects))?.into_iter();
    let txs: Vec<Vec<TxEffectCommitment>> =
        bodies.iter().map(|body| all.by_ref().take(body.tx_effects.len()).collect()).collect();
    let trees = TxEffectsTree::build_many(
        hasher,
        txs.iter().map(|txs| txs.iter().map(|tx| tx.leaf).collect()).collect(),
    )?;
    Ok(txs.into_iter().zip(trees).map(|(txs, tree)| BlockCommitment { txs, tree }).collect())
}

#[cfg(feature = "async")]
/// Commits a block through the async hasher: leaves and categories asynchronously (off the
/// executor when the backend offloads), internal nodes on the backend's synchronous level backend
/// ([`AsyncHashBackend::levels`]).
///
/// # Errors
/// [`BackendError`] if the backend fails.
pub async fn commit_block_async(
    hasher: &dyn AsyncHashBackend,
    body: &Body,
) -> Result<BlockCommitment, BackendError> {
    let txs = commit_effects_async(hasher, &body.tx_effects).await?;
    let tree = TxEffectsTree::build_async(hasher, txs.iter().map(|tx| tx.leaf).collect()).await?;
    Ok(BlockCommitment { txs, tree })
}
