//! The Aztec v6 Rollup's storage words: its chain tips and archives, read from a storage proof.
//!
//! The layout is copied from AztecProtocol/aztec-packages @ `99ff034ebf1d196d0bf0b5b90b95353926bdcc1e`:
//!
//! * `l1-contracts/src/core/libraries/rollup/STFLib.sol`: `bytes32 private constant
//!   STF_STORAGE_POSITION = keccak256("aztec.stf.storage");` and `getStorage()` puts the
//!   `RollupStore` there (`storageStruct.slot := position`): plain keccak, not EIP-7201's formula.
//! * `l1-contracts/src/core/interfaces/IRollup.sol`: `struct RollupStore { CompressedChainTips
//!   tips; mapping(uint256 checkpointNumber => bytes32 archive) archives; ... }`, so the tips are
//!   the word at the base slot and `archives[n]` is at `keccak256(pad32(n) ++ pad32(base + 1))`
//!   (Solidity's mapping layout).
//! * `l1-contracts/src/core/libraries/compressed-data/Tips.sol` (not stored at `99ff034e` in the
//!   index read; read in its checkpoint-based form, `getPending`/`getProven`, the names
//!   `Rollup.sol` @ `99ff034e` calls, and the same packing at `aa1ec16690b8f5dfd759bf3fbc029ccc983ef2a0`):
//!   `getPending` is `tips >> 128`, `getProven` is `tips & 0xff..ff` (128 bits): pending in the
//!   high half, proven in the low.
//! * `l1-contracts/src/core/Rollup.sol`: `archiveAt(n)` is `n <= tips.getPending() ?
//!   archives[n] : bytes32(0)`; `STFLib.prune` winds pending back and deletes no archive, so a
//!   word past pending is stale and must never be taken.

use alloy_primitives::{Address, B256, U256, keccak256};

use crate::error::Result;
use crate::header::VerifiedHeader;
use crate::proof::{Account, ProofRequest, verify_proof};

/// `STFLib`'s `STF_STORAGE_POSITION`, `keccak256("aztec.stf.storage")`: the slot of the
/// `RollupStore`'s first word, its chain tips.
#[must_use]
pub fn stf_storage_position() -> B256 {
    keccak256("aztec.stf.storage")
}

/// The storage slots that give checkpoint `n`'s archive and the genesis archive, with the tips.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollupSlots {
    checkpoint: u64,
    slots: Vec<B256>,
}

impl RollupSlots {
    /// The slots for checkpoint `n`: the tips, `archives[n]` and `archives[0]` (for `n` = 0 the
    /// two archives are one slot, asked for once).
    #[must_use]
    pub fn for_checkpoint(n: u64) -> Self {
        let base = stf_storage_position();
        let mut slots = vec![base, archive_slot(base, n)];
        if n != 0 {
            slots.push(archive_slot(base, 0));
        }
        Self { checkpoint: n, slots }
    }

    /// The checkpoint number.
    #[must_use]
    pub const fn checkpoint(&self) -> u64 {
        self.checkpoint
    }

    /// The slots, in the order asked: tips, `archives[n]`, then `archives[0]` unless `n` is 0.
    #[must_use]
    pub fn slots(&self) -> &[B256] {
        &self.slots
    }

    /// The `eth_getProof` request for these slots of the rollup at `rollup`.
    ///
    /// # Errors
    ///
    /// None in practice: at most three distinct slots.
    pub fn request(&self, rollup: Address) -> Result<ProofRequest> {
        ProofRequest::new(rollup, &self.slots)
    }
}

/// The slot of `archives[n]`: `keccak256(pad32(n) ++ pad32(base + 1))`.
fn archive_slot(base: B256, n: u64) -> B256 {
    let mapping = U256::from_be_bytes(base.0).wrapping_add(U256::from(1));
    let mut preimage = [0u8; 64];
    let (key, position) = preimage.split_at_mut(32);
    key.copy_from_slice(&U256::from(n).to_be_bytes::<32>());
    position.copy_from_slice(&mapping.to_be_bytes::<32>());
    keccak256(preimage)
}

/// The Rollup's words at a verified L1 block, each proven by `eth_getProof`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollupWords {
    block_hash: B256,
    checkpoint: u64,
    pending: u128,
    proven: u128,
    archive: Option<B256>,
    genesis_archive: B256,
    account: Option<Account>,
}

impl RollupWords {
    /// Verifies `result`, the JSON text of `eth_getProof`'s result for `slots.request(rollup)`
    /// at `header`'s block, and reads the tips and archives from the proven words.
    ///
    /// # Errors
    ///
    /// Any error of [`verify_proof`].
    pub fn from_proofs(
        header: &VerifiedHeader,
        rollup: Address,
        slots: &RollupSlots,
        result: &str,
    ) -> Result<Self> {
        let request = slots.request(rollup)?;
        let proven = verify_proof(header, &request, result)?;
        let word = |slot: Option<&B256>| -> B256 {
            slot.and_then(|slot| proven.value(*slot))
                .map_or(B256::ZERO, |value| B256::from(value.to_be_bytes::<32>()))
        };
        let tips = U256::from_be_bytes(word(slots.slots.first()).0);
        let pending = u128::try_from(tips >> 128).unwrap_or(u128::MAX);
        let proven_tip = u128::try_from(tips & U256::from(u128::MAX)).unwrap_or(u128::MAX);
        let stored = word(slots.slots.get(1));
        let genesis_archive = if slots.checkpoint == 0 { stored } else { word(slots.slots.get(2)) };
        Ok(Self {
            block_hash: header.hash(),
            checkpoint: slots.checkpoint,
            pending,
            proven: proven_tip,
            archive: (u128::from(slots.checkpoint) <= pending).then_some(stored),
            genesis_archive,
            account: proven.account(),
        })
    }

    /// The L1 block whose state these words are.
    #[must_use]
    pub const fn block_hash(&self) -> B256 {
        self.block_hash
    }

    /// The checkpoint asked about.
    #[must_use]
    pub const fn checkpoint(&self) -> u64 {
        self.checkpoint
    }

    /// The pending tip (`getPendingCheckpointNumber()`): the high 128 bits of the tips word.
    #[must_use]
    pub const fn pending(&self) -> u128 {
        self.pending
    }

    /// The proven tip (`getProvenCheckpointNumber()`): the low 128 bits of the tips word.
    #[must_use]
    pub const fn proven(&self) -> u128 {
        self.proven
    }

    /// The checkpoint's archive (`archiveAt(n)`), or `None` if the checkpoint is past pending:
    /// its stored word, if any, is stale (pruned) and is never taken.
    #[must_use]
    pub const fn archive(&self) -> Option<B256> {
        self.archive
    }

    /// `archives[0]`, the genesis archive root the rollup was deployed with.
    #[must_use]
    pub const fn genesis_archive(&self) -> B256 {
        self.genesis_archive
    }

    /// The rollup's account, or `None` if no account is at that address (all words are then 0).
    #[must_use]
    pub const fn account(&self) -> Option<Account> {
        self.account
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_base_is_stflib_s() {
        // keccak256("aztec.stf.storage") by @noble/hashes 2.0.1's keccak_256 (testdata/l1/README.md).
        let expected =
            alloy_primitives::b256!("0958201b72d64259285941dffd868dac55267471fcc73e8a06e1fd9cf8706361");
        assert_eq!(stf_storage_position(), expected);
    }

    #[test]
    fn the_slots_are_distinct() {
        assert_eq!(RollupSlots::for_checkpoint(0).slots().len(), 2);
        let slots = RollupSlots::for_checkpoint(7);
        assert_eq!(slots.slots().len(), 3);
        assert_eq!(slots.slots().first(), Some(&stf_storage_position()));
        assert!(slots.request(Address::ZERO).is_ok());
    }
}
