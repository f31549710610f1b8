#![doc = include_str!("../README.md")]

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
