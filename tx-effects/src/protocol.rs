//! The protocols txfx speaks, as values: every rule that differs between them is a method of
//! [`ProtocolVersion`], here and nowhere else (docs/spec.md §13 lists them side by side).
//!
//! | rule | `v6` (deployed: mainnet, testnet) | `azip-26` (the AZIP's reference pin) | `pre-azip-26` (Aztec 4.1.2) |
//! |---|---|---|---|
//! | header | 23 fields, `txEffectsTreeRoot` | 23 fields, `txEffectsTreeRoot` | 22 fields |
//! | archive node | `poseidon2_hash_with_separator([l, r], DOM_SEP__MERKLE_HASH)` | `poseidon2_hash([l, r])` | `poseidon2_hash([l, r])` |
//! | block-end blob fields | 7 for every block | 7 for a checkpoint's first block, 6 after | as `azip-26` |
//! | snapshot leaf index | a safe integer (≤ 2^53 − 1) | `u32` | `u32` |
//! | revert code | 0 OK, any value ≥ 1 read as 1 (REVERTED) | 0 to 3, distinct | 0 to 3, distinct |
//! | private-log fields past `emittedLength` | must be zero | may be nonzero (uncommitted) | may be nonzero |
//! | contract-class log length | exactly 1 + the index of its last nonzero field | 1 to 3023 | 1 to 3023 |
//! | witness `categoriesHash` | required | optional | optional |
//!
//! `v6` is what Aztec runs (Aztec v6, the `@aztec-labs` TypeScript and the v6 circuits; sources in
//! `testdata/v6/NOTES.md`). `pre-azip-26` is `@aztec/stdlib` 4.1.2, the last Aztec TypeScript
//! on the npm registry. `azip-26` is the layout txfx first implemented from the AZIP itself: 4.1.2's
//! rules with the 23-field header; no deployed network runs it, and the repository's chain fixtures
//! built with 4.1.2's TypeScript (`testdata/chain/`) use it.

use txfx_poseidon::DomainSeparator;

use crate::model::{Category, RevertCode, TxEffect, TxEffectError};

/// Which protocol's rules apply. There is no `Default`: a library caller names the protocol it
/// reads; the front ends (the CLI, the npm package) default to [`ProtocolVersion::DEPLOYED`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ProtocolVersion {
    /// Aztec v6, as deployed on mainnet and testnet.
    V6,
    /// The AZIP-26 reference pin: Aztec 4.1.2's rules with the 23-field header.
    Azip26,
    /// Aztec 4.1.2 (`@aztec/stdlib` 4.1.2): a 22-field header with no tx-effects tree root, so no
    /// tx-effects witness can be authenticated against it.
    PreAzip26,
}

/// The largest integer JavaScript's numbers hold exactly, 2^53 − 1: v6's leaf indices
/// (`TreeLeafIndexSchema`) go no further.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

impl ProtocolVersion {
    /// Every protocol, the deployed one first.
    pub const ALL: [Self; 3] = [Self::V6, Self::Azip26, Self::PreAzip26];

    /// The protocol the front ends read by default: what Aztec runs.
    pub const DEPLOYED: Self = Self::V6;

    /// `v6`, `azip-26` or `pre-azip-26`.
    pub fn name(self) -> &'static str {
        match self {
            Self::V6 => "v6",
            Self::Azip26 => "azip-26",
            Self::PreAzip26 => "pre-azip-26",
        }
    }

    /// What runs it, in a few words.
    pub fn description(self) -> &'static str {
        match self {
            Self::V6 => "Aztec v6, as deployed on mainnet and testnet",
            Self::Azip26 => "the AZIP-26 reference pin: Aztec 4.1.2's rules with the 23-field header",
            Self::PreAzip26 => "Aztec 4.1.2 (@aztec/stdlib 4.1.2): 22-field headers, no tx-effects tree",
        }
    }

    /// The number of fields a header hashes.
    pub fn header_fields(self) -> usize {
        if self.has_tx_effects_tree() { 23 } else { 22 }
    }

    /// Whether a header commits to a tx-effects tree (`txEffectsTreeRoot`), so that a tx-effects
    /// witness can be authenticated against it.
    pub fn has_tx_effects_tree(self) -> bool {
        match self {
            Self::V6 | Self::Azip26 => true,
            Self::PreAzip26 => false,
        }
    }

    /// The separator of the archive tree's internal nodes, `None` for a plain
    /// `poseidon2_hash([left, right])`.
    pub fn archive_node_separator(self) -> Option<DomainSeparator> {
        match self {
            Self::V6 => Some(DomainSeparator::MERKLE_HASH),
            Self::Azip26 | Self::PreAzip26 => None,
        }
    }

    /// Whether block `index_within_checkpoint` of a checkpoint's blob data carries the
    /// L1-to-L2 message tree's root: every block in v6 ("any block may insert messages"), the
    /// first only before it.
    pub fn block_carries_l1_to_l2_root(self, index_within_checkpoint: usize) -> bool {
        match self {
            Self::V6 => true,
            Self::Azip26 | Self::PreAzip26 => index_within_checkpoint == 0,
        }
    }

    /// The block-end blob fields of block `index_within_checkpoint`: the marker, the state
    /// field, four roots, and the L1-to-L2 root where the block carries one.
    pub fn block_end_fields(self, index_within_checkpoint: usize) -> usize {
        6 + usize::from(self.block_carries_l1_to_l2_root(index_within_checkpoint))
    }

    /// The largest `nextAvailableLeafIndex` of a tree snapshot: a safe integer in v6
    /// (`TreeLeafIndexSchema`), a `u32` before it (`UInt32`).
    pub fn max_snapshot_leaf_index(self) -> u64 {
        match self {
            Self::V6 => MAX_SAFE_INTEGER,
            Self::Azip26 | Self::PreAzip26 => u64::from(u32::MAX),
        }
    }

    /// The revert code a document's `revertCode` (or a start marker's 8 bits) reads as.
    ///
    /// # Errors
    /// [`TxEffectError::InvalidRevertCode`] for 4 and above before v6, where only 0 to 3 exist.
    /// In v6 every value reads: 0 is OK and any other is REVERTED (`toRevertCodeEnum`).
    pub fn revert_code(self, value: u64) -> Result<RevertCode, TxEffectError> {
        match self {
            Self::V6 if value == 0 => Ok(RevertCode::Ok),
            Self::V6 => Ok(RevertCode::AppLogicReverted),
            Self::Azip26 | Self::PreAzip26 => RevertCode::from_code(value),
        }
    }

    /// Whether a tx-effects witness must carry `categoriesHash` (v6's schema requires it).
    pub fn witness_requires_categories_hash(self) -> bool {
        matches!(self, Self::V6)
    }

    /// Checks the validity rules this protocol adds to [`TxEffect::new`]'s limits: in v6, a
    /// private log's fields past `emittedLength` are zero (`PrivateLog.hasZeroPadding`, the base
    /// rollup's rule) and a contract-class log's length is exactly one more than the index of its
    /// last nonzero field (the tx base circuit's rule, which labs-patch 0010 brings to the node's
    /// `DataTxValidator`: a block holding such a tx can be checkpointed but its epoch never
    /// proven); before v6, nothing more.
    ///
    /// # Errors
    /// [`TxEffectError::LogPaddingNotZero`] or [`TxEffectError::ContractClassLogLength`].
    pub fn check_effect(self, effect: &TxEffect) -> Result<(), TxEffectError> {
        if self != Self::V6 {
            return Ok(());
        }
        if let Some((index, position)) = effect.uncommitted_field() {
            return Err(TxEffectError::LogPaddingNotZero {
                category: Category::PrivateLogs,
                index,
                position,
            });
        }
        let zero = txfx_poseidon::Fr::from(0u64);
        for (index, log) in effect.contract_class_logs.iter().enumerate() {
            let expected = log.fields.iter().rposition(|field| *field != zero).map_or(0, |last| last + 1);
            if expected != log.fields.len() {
                return Err(TxEffectError::ContractClassLogLength {
                    index,
                    emitted_length: log.fields.len(),
                    expected,
                });
            }
        }
        Ok(())
    }
}

crate::names::parsed_by_name!(
    /// A name that is no protocol's.
    ProtocolVersion,
    UnknownProtocolVersion,
    "unknown protocol {name:?}: expected v6, azip-26 or pre-azip-26"
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ContractClassLog, PrivateLog, TxEffectFields};
    use txfx_poseidon::Fr;

    #[test]
    fn names_parse_back_and_nothing_else_does() {
        for version in ProtocolVersion::ALL {
            assert_eq!(version.name().parse::<ProtocolVersion>(), Ok(version));
        }
        for name in ["V6", "azip26", "", "4.1.2", "v6 "] {
            assert!(name.parse::<ProtocolVersion>().is_err(), "{name:?}");
        }
    }

    #[test]
    fn block_end_fields_per_protocol() {
        assert_eq!((0..3).map(|i| ProtocolVersion::V6.block_end_fields(i)).collect::<Vec<_>>(), [7, 7, 7]);
        assert_eq!(
            (0..3).map(|i| ProtocolVersion::Azip26.block_end_fields(i)).collect::<Vec<_>>(),
            [7, 6, 6]
        );
    }

    #[test]
    fn revert_codes_per_protocol() {
        for (value, v6, before) in [
            (0, Ok(RevertCode::Ok), Ok(RevertCode::Ok)),
            (1, Ok(RevertCode::AppLogicReverted), Ok(RevertCode::AppLogicReverted)),
            (2, Ok(RevertCode::AppLogicReverted), Ok(RevertCode::TeardownReverted)),
            (3, Ok(RevertCode::AppLogicReverted), Ok(RevertCode::BothReverted)),
            (4, Ok(RevertCode::AppLogicReverted), Err(TxEffectError::InvalidRevertCode { value: 4 })),
            (255, Ok(RevertCode::AppLogicReverted), Err(TxEffectError::InvalidRevertCode { value: 255 })),
        ] {
            assert_eq!(ProtocolVersion::V6.revert_code(value), v6, "{value}");
            assert_eq!(ProtocolVersion::Azip26.revert_code(value), before, "{value}");
            assert_eq!(ProtocolVersion::PreAzip26.revert_code(value), before, "{value}");
        }
    }

    fn effect(private: Vec<PrivateLog>, class: Vec<ContractClassLog>) -> TxEffect {
        let fields = TxEffectFields {
            tx_hash: Fr::from(1u64),
            private_logs: private,
            contract_class_logs: class,
            ..TxEffectFields::default()
        };
        TxEffect::new(fields).expect("a legal effect")
    }

    #[test]
    fn v6_refuses_private_log_padding_and_an_inexact_contract_class_log_length() {
        let one = Fr::from(1u64);
        let zero = Fr::from(0u64);
        let padded = effect(vec![PrivateLog { fields: vec![one], padding: vec![zero, one] }], vec![]);
        assert_eq!(
            ProtocolVersion::V6.check_effect(&padded),
            Err(TxEffectError::LogPaddingNotZero { category: Category::PrivateLogs, index: 0, position: 2 })
        );
        assert_eq!(ProtocolVersion::Azip26.check_effect(&padded), Ok(()));
        let zero_padding = effect(vec![PrivateLog { fields: vec![zero, one], padding: vec![zero] }], vec![]);
        assert_eq!(ProtocolVersion::V6.check_effect(&zero_padding), Ok(()));

        let log = |fields: Vec<Fr>| ContractClassLog { contract_address: one, fields };
        let exact = effect(vec![], vec![log(vec![zero, one])]);
        assert_eq!(ProtocolVersion::V6.check_effect(&exact), Ok(()));
        let trailing_zero = effect(vec![], vec![log(vec![one, zero])]);
        assert_eq!(
            ProtocolVersion::V6.check_effect(&trailing_zero),
            Err(TxEffectError::ContractClassLogLength { index: 0, emitted_length: 2, expected: 1 })
        );
        let all_zero = effect(vec![], vec![log(vec![zero])]);
        assert_eq!(
            ProtocolVersion::V6.check_effect(&all_zero),
            Err(TxEffectError::ContractClassLogLength { index: 0, emitted_length: 1, expected: 0 })
        );
        assert_eq!(ProtocolVersion::PreAzip26.check_effect(&trailing_zero), Ok(()));
    }
}
