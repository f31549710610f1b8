//! Poseidon2 over the BN254 scalar field, bit-exact with Aztec's barretenberg, Noir and TypeScript.
//!
//! - [`field`]: the canonical codec for field elements (`0x`-hex, decimal, 32-byte big-endian);
//!   values `>= p` are errors, never reduced.
//! - [`permutation`]: the t = 4 permutation with barretenberg's constants (docs/spec.md §2.2).
//! - [`poseidon2_hash`], [`poseidon2_hash_with_separator`], [`poseidon2_hash_bytes`]: the sponge.
//! - [`DomainSeparator`]: the AZIP-26 separators, re-derivable from their names.
//! - [`HashBackend`] (and [`AsyncHashBackend`], [`Offloaded`] with the `async` feature): the
//!   backend traits the commitment crates take, with [`Sequential`], this crate's own
//!   single-threaded implementation.
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
//!
//! # Features
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `std` | yes | `std` for arkworks and the error types; without it the crate is `no_std` + `alloc` (the permutation, sponge, separators, field codec, [`HashBackend`] and [`Sequential`]) |
//! | `async` | yes | [`AsyncHashBackend`], [`Offloaded`] and [`Offload`] (implies `std`) |
//! | `serde` | yes | [`field::serde_hex`], `#[serde(with = …)]` helpers for `0x`-hex field elements |
//! | `asm` | yes | ark-ff's assembly Montgomery multiplication on x86-64 (effective only with the BMI2 and ADX target features; see the README) |
#![cfg_attr(not(feature = "std"), no_std)]

extern crate alloc;

pub mod backend;
mod constants;
pub mod field;
pub mod permutation;
pub mod separator;
pub mod sponge;

pub use ark_bn254::Fr;
#[cfg(feature = "async")]
pub use backend::{AsyncHashBackend, Offload, Offloaded};
pub use backend::{BackendError, HashBackend, HashBackendExt, HashJob, Operation, Sequential, check_count};
pub use field::FieldError;
pub use permutation::{State, permute};
pub use separator::DomainSeparator;
pub use sponge::{poseidon2_hash, poseidon2_hash_bytes, poseidon2_hash_pair, poseidon2_hash_with_separator};

/// `TX_START_PREFIX`, the top 32 bits of every tx start marker: the low 32 bits of
/// `poseidon2_hash_bytes("az_pc__blob_tx_start")`.
pub const TX_START_PREFIX: u32 = 0x9c70_7518;
