#![doc = include_str!("../README.md")]
#![cfg_attr(not(feature = "std"), no_std)]

extern crate alloc;

pub mod backend;
mod constants;
pub mod field;
mod montgomery;
#[doc(hidden)]
pub use montgomery::bench_loops;
pub mod permutation;
#[cfg(feature = "async")]
pub mod pool;
pub mod separator;
/// The rules txfx implements, summarized from Aztec's sources (the repository's `docs/spec.md`,
/// shipped with this crate so that every crate's docs can cite it by section): `§12.4` in any
/// txfx crate's docs is a section of this page.
#[doc = include_str!("../spec.md")]
pub mod spec {}
pub mod sponge;
#[cfg(test)]
mod test_rng;

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
