//! Ethereum's side of an Aztec anchor, sans I/O: an L1 block header read from
//! `eth_getBlockByHash`'s JSON and checked against its hash ([`VerifiedHeader`]), an account's
//! storage proven by `eth_getProof` (EIP-1186) against that header's state root
//! ([`verify_proof`]), and the Aztec v6 Rollup's words read from such a proof ([`RollupWords`]).
//!
//! Nothing here does I/O: a driver sends the requests ([`ProofRequest::params`]) to an L1 node,
//! bounds the answers ([`MAX_HEADER_ANSWER_BYTES`], [`ProofRequest::max_answer_bytes`]) and hands
//! their `result` texts in. Trust starts at the block hash the caller gives: everything else is
//! checked against it.
//!
//! ```
//! use txfx_ethereum::{Address, RollupSlots, MAX_SLOTS};
//! let slots = RollupSlots::for_checkpoint(5);
//! let request = slots.request(Address::ZERO)?;
//! assert_eq!(request.slots().len(), 3);
//! assert!(request.slots().len() <= MAX_SLOTS);
//! # Ok::<(), txfx_ethereum::EthereumError>(())
//! ```

mod error;
mod header;
mod json;
mod proof;
mod rollup;

pub use alloy_primitives::{Address, B256, U256};
pub use error::{EthereumError, Result};
pub use header::{Fork, MAX_EXTRA_DATA_BYTES, MAX_HEADER_ANSWER_BYTES, VerifiedHeader};
pub use proof::{
    Account, EMPTY_STORAGE_ROOT, MAX_NODE_BYTES, MAX_PROOF_NODES, MAX_SLOTS, ProofRequest, ProvenStorage,
    verify_proof,
};
pub use rollup::{RollupSlots, RollupWords, stf_storage_position};
