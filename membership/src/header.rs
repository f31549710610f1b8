//! Block headers in both layouts, their hash, and their JSON as a node prints it
//! (docs/spec.md §12.4).
//!
//! A header hashes as `poseidon2_hash_with_separator(fields, DOM_SEP__BLOCK_HEADER_HASH)` over, in
//! order: lastArchive.root, lastArchive.nextAvailableLeafIndex, the l1-to-l2, note-hash, nullifier
//! and public-data trees' roots and next indices, spongeBlobHash, **txEffectsTreeRoot (AZIP-26
//! only)**, chainId, version, blockNumber, slotNumber, timestamp, coinbase, feeRecipient,
//! feePerDaGas, feePerL2Gas, totalFees, totalManaUsed: 23 fields under AZIP-26, 22 before it
//! (Aztec 4.1.2, what deployed nodes run).
//!
//! The layout is a [`ProtocolVersion`]'s, and whoever reads a header names the protocol it expects
//! (`txfx-documents` refuses a header of the other layout, never reads it as the other). Only an
//! AZIP-26 header commits to a tx-effects tree, so only it can authenticate a tx-effects witness
//! ([`BlockHeader::tx_effects_tree_root`]). A header's JSON, as a node prints it, is
//! `txfx-documents`' (`json::header_from_json`).

use txfx_poseidon::field::bits;
use txfx_poseidon::{BackendError, DomainSeparator, Fr, HashBackend, HashBackendExt};
use txfx_tx_effects::{BlockNumber, ProtocolVersion};

/// A tree's root and its next free leaf index (TypeScript's `AppendOnlyTreeSnapshot`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TreeSnapshot {
    /// The root.
    pub root: Fr,
    /// The next free leaf index: below 2^32 before v6 (`UInt32`), a safe integer in v6
    /// (`TreeLeafIndexSchema`); [`ProtocolVersion::max_snapshot_leaf_index`] is the bound a
    /// document's reader checks.
    pub next_available_leaf_index: u64,
}

/// The block's global variables (`globalVariables`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GlobalVariables {
    /// The L1 chain id.
    pub chain_id: Fr,
    /// The rollup version.
    pub version: Fr,
    /// The block number.
    pub block_number: BlockNumber,
    /// The slot number.
    pub slot_number: Fr,
    /// Seconds.
    pub timestamp: u64,
    /// An Ethereum address, 20 bytes.
    pub coinbase: [u8; 20],
    /// An Aztec address.
    pub fee_recipient: Fr,
    /// The gas fees.
    pub gas_fees: GasFees,
}

/// Fees per unit of gas.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GasFees {
    /// Fee per unit of DA gas.
    pub fee_per_da_gas: u128,
    /// Fee per unit of L2 gas.
    pub fee_per_l2_gas: u128,
}

/// A block header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockHeader {
    /// The archive before this block.
    pub last_archive: TreeSnapshot,
    /// The l1-to-l2 message tree after it.
    pub l1_to_l2_message_tree: TreeSnapshot,
    /// The note-hash tree after it.
    pub note_hash_tree: TreeSnapshot,
    /// The nullifier tree after it.
    pub nullifier_tree: TreeSnapshot,
    /// The public-data tree after it.
    pub public_data_tree: TreeSnapshot,
    /// The sponge blob hash.
    pub sponge_blob_hash: Fr,
    /// The tx-effects tree root: `Some` exactly in the AZIP-26 layout.
    pub tx_effects_tree_root: Option<Fr>,
    /// The global variables.
    pub global_variables: GlobalVariables,
    /// Total fees.
    pub total_fees: Fr,
    /// Total mana used.
    pub total_mana_used: Fr,
}

/// A header that cannot serve the purpose asked of it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HeaderError {
    /// A pre-AZIP-26 header commits to no tx-effects tree, so it authenticates no tx-effects
    /// witness.
    #[error(
        "a pre-AZIP-26 header commits to no tx-effects tree: no tx-effects witness can be authenticated against it"
    )]
    PreAzip26,
}

impl BlockHeader {
    /// The header whose every field is zero, in `version`'s layout (TypeScript's
    /// `BlockHeader.empty()` in the pre-AZIP-26 layout; the all-zero AZIP-26 header of
    /// docs/spec.md §9 in the other).
    pub fn empty(version: ProtocolVersion) -> Self {
        let zero = Fr::from(0u64);
        let tree = TreeSnapshot { root: zero, next_available_leaf_index: 0 };
        Self {
            last_archive: tree,
            l1_to_l2_message_tree: tree,
            note_hash_tree: tree,
            nullifier_tree: tree,
            public_data_tree: tree,
            sponge_blob_hash: zero,
            tx_effects_tree_root: version.has_tx_effects_tree().then_some(zero),
            global_variables: GlobalVariables::default(),
            total_fees: zero,
            total_mana_used: zero,
        }
    }

    /// Whether the header commits to a tx-effects tree: the 23-field layout of `v6` and
    /// `azip-26`, which hash alike.
    pub fn has_tx_effects_tree_root(&self) -> bool {
        self.tx_effects_tree_root.is_some()
    }

    /// The root a tx-effects witness must reach.
    ///
    /// # Errors
    /// [`HeaderError::PreAzip26`] for a header that commits to no tx-effects tree.
    pub fn tx_effects_tree_root(&self) -> Result<Fr, HeaderError> {
        self.tx_effects_tree_root.ok_or(HeaderError::PreAzip26)
    }

    /// The fields the hash covers, in order (22 or 23, by layout).
    pub fn to_fields(&self) -> Vec<Fr> {
        let g = &self.global_variables;
        let mut fields = Vec::with_capacity(23);
        for tree in [
            self.last_archive,
            self.l1_to_l2_message_tree,
            self.note_hash_tree,
            self.nullifier_tree,
            self.public_data_tree,
        ] {
            fields.extend([tree.root, Fr::from(tree.next_available_leaf_index)]);
        }
        fields.push(self.sponge_blob_hash);
        fields.extend(self.tx_effects_tree_root);
        fields.extend([
            g.chain_id,
            g.version,
            Fr::from(u64::from(g.block_number)),
            g.slot_number,
            Fr::from(g.timestamp),
        ]);
        fields.push(address_field(&g.coinbase));
        fields.extend([
            g.fee_recipient,
            Fr::from(g.gas_fees.fee_per_da_gas),
            Fr::from(g.gas_fees.fee_per_l2_gas),
        ]);
        fields.extend([self.total_fees, self.total_mana_used]);
        fields
    }

    /// The block hash: `poseidon2_hash_with_separator(fields, DOM_SEP__BLOCK_HEADER_HASH)`.
    ///
    /// # Errors
    /// [`BackendError`] if the backend fails.
    pub fn hash(&self, hasher: &dyn HashBackend) -> Result<Fr, BackendError> {
        hasher.hash_with_separator(&self.to_fields(), DomainSeparator::BLOCK_HEADER_HASH)
    }
}

/// A 20-byte Ethereum address as a field element: its 160 bits, big-endian, packed as
/// 32 + 64 + 64 bits.
fn address_field(address: &[u8; 20]) -> Fr {
    let word = |bytes: &[u8]| bytes.iter().fold(0u64, |acc, b| (acc << 8) | u64::from(*b));
    let (high, rest) = address.split_at(4);
    let (middle, low) = rest.split_at(8);
    #[allow(clippy::expect_used, reason = "an internal invariant: 160 bits always pack")]
    bits::pack(&[(word(high), 32), (word(middle), 64), (word(low), 64)])
        .expect("invariant: 20 bytes fit 160 bits")
}
