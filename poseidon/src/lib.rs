//! Poseidon2 over the BN254 scalar field, bit-exact with Aztec's barretenberg, Noir and TypeScript.
//!
//! - [`field`]: the canonical codec for field elements (`0x`-hex, decimal, 32-byte big-endian);
//!   values `>= p` are errors, never reduced.
//! - [`permutation`]: the t = 4 permutation with barretenberg's constants (SPEC.md §2.2).
//! - [`poseidon2_hash`], [`poseidon2_hash_with_separator`], [`poseidon2_hash_bytes`]: the sponge
//!   (SPEC.md §2.3–§2.5).
//! - [`DomainSeparator`]: the AZIP-26 separators, re-derivable from their names.
//! - [`Hasher`] and [`AsyncHasher`]: the backend traits the commitment crates take, with
//!   [`Sequential`], this crate's own single-threaded implementation.
//!
//! ```
//! use txfx_poseidon::{field::{fr_to_hex, parse_fr}, poseidon2_hash_with_separator, DomainSeparator};
//! let node = poseidon2_hash_with_separator(
//!     &[parse_fr("111")?, parse_fr("222")?],
//!     DomainSeparator::TX_EFFECTS_TREE,
//! );
//! assert!(fr_to_hex(&node).starts_with("0x19d9061f"));
//! # Ok::<(), txfx_poseidon::field::FieldError>(())
//! ```

mod constants;
pub mod field;
pub mod hasher;
pub mod permutation;
pub mod separator;
pub mod sponge;

pub use ark_bn254::Fr;
pub use field::FieldError;
pub use hasher::{AsyncHasher, BackendError, HashJob, Hasher, Offload, Sequential};
pub use permutation::{State, permute};
pub use separator::DomainSeparator;
pub use sponge::{
    poseidon2_hash, poseidon2_hash_bytes, poseidon2_hash_pair, poseidon2_hash_with_separator,
    poseidon2_hash_with_separator_parts,
};

/// `TX_START_PREFIX`, the top 32 bits of every tx start marker: the low 32 bits of
/// `poseidon2_hash_bytes("az_pc__blob_tx_start")` (SPEC.md §2.5).
pub const TX_START_PREFIX: u32 = 0x9c70_7518;
