//! Domain separators: the u32 prepended to a Poseidon2 preimage so that hashes of different
//! kinds can never collide (docs/spec.md §2.4–§2.5).
//!
//! Aztec derives each separator from its name: the low 32 bits of
//! `poseidon2_hash_bytes("az_dom_sep__" + name)` (Noir `constants_tests.nr`). The constants below
//! are the published values; [`DomainSeparator::derive`] recomputes them and the tests check both.

use alloc::format;

use ark_bn254::Fr;
use ark_ff::PrimeField;

use crate::sponge::poseidon2_hash_bytes;

/// A Poseidon2 domain separator: a `u32` promoted to a field element and hashed first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DomainSeparator(u32);

/// The prefix of every separator's derivation string.
pub const DOMAIN_SEPARATOR_PREFIX: &str = "az_dom_sep__";

impl DomainSeparator {
    /// `DOM_SEP__TX_EFFECT_CATEGORY_HASH`: each of the seven category hashes (docs/spec.md §6.2).
    pub const TX_EFFECT_CATEGORY_HASH: Self = Self(1_030_022_731);
    /// `DOM_SEP__TX_EFFECT_CATEGORIES_HASH`: the hash of the marker, fee and category hashes (§6.3).
    pub const TX_EFFECT_CATEGORIES_HASH: Self = Self(1_426_387_399);
    /// `DOM_SEP__TX_EFFECTS_TREE_LEAF`: a tx's leaf from its hash and categories hash (§6.4).
    pub const TX_EFFECTS_TREE_LEAF: Self = Self(1_186_802_524);
    /// `DOM_SEP__TX_EFFECTS_TREE`: an internal node of the tx-effects tree (§7.1).
    pub const TX_EFFECTS_TREE: Self = Self(2_908_237_871);
    /// `DOM_SEP__BLOCK_HEADER_HASH`: a block header's hash, in either layout (§12.4).
    pub const BLOCK_HEADER_HASH: Self = Self(4_195_546_849);
    /// `DOM_SEP__MERKLE_HASH`: an internal node of Aztec v6's append-only trees (note hash,
    /// L1-to-L2, archive; §13). Earlier protocols hashed archive nodes without a separator.
    pub const MERKLE_HASH: Self = Self(2_982_624_097);

    /// A separator with an arbitrary value.
    pub const fn new(value: u32) -> Self {
        Self(value)
    }

    /// Derives a separator from its name: low 32 bits of `poseidon2_hash_bytes("az_dom_sep__" + name)`.
    ///
    /// # Example
    /// ```
    /// use txfx_poseidon::DomainSeparator;
    /// assert_eq!(DomainSeparator::derive("tx_effects_tree"), DomainSeparator::TX_EFFECTS_TREE);
    /// ```
    pub fn derive(name: &str) -> Self {
        Self(low_u32_of_hashed_bytes(format!("{DOMAIN_SEPARATOR_PREFIX}{name}").as_bytes()))
    }

    /// The raw `u32`.
    pub const fn value(self) -> u32 {
        self.0
    }

    /// The separator as the field element that is hashed.
    pub fn to_field(self) -> Fr {
        Fr::from(self.0)
    }
}

impl core::fmt::Display for DomainSeparator {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.0.fmt(f)
    }
}

/// The low 32 bits of `poseidon2_hash_bytes(bytes)`, the rule behind separators and prefixes.
pub fn low_u32_of_hashed_bytes(bytes: &[u8]) -> u32 {
    (poseidon2_hash_bytes(bytes).into_bigint().0[0] & u64::from(u32::MAX)) as u32
}
