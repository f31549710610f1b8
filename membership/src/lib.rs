//! Tx-effect membership witnesses for AZIP-26: build them from a block's effects or stored
//! leaves, verify them against a trusted header root, and read and write the node-API JSON.
//!
//! ```
//! use txfx_poseidon::Sequential;
//! use txfx_tx_effects::{Body, TxEffect, TxEffectFields, commit_effect};
//! use txfx_membership::{BlockWitnesses, TrustedRoot, TxClaim, VerifyError, verify_tx};
//! let effects: Vec<TxEffect> = (1..=3u64)
//!     .map(|i| TxEffect::new(TxEffectFields { tx_hash: i.into(), nullifiers: vec![i.into()], ..Default::default() }))
//!     .collect::<Result<_, _>>()?;
//! let body = Body::new(effects);
//! let block = BlockWitnesses::from_body(&Sequential, &body, 7)?;
//! // In practice: the txEffectsTreeRoot of a header the caller has authenticated.
//! let trusted_root = TrustedRoot::from_authenticated_header(block.root());
//! let witness = block.witness(2)?;
//! let tx = TxClaim { tx_hash: body.tx_effects[2].tx_hash, categories_hash: None };
//! verify_tx(&Sequential, tx, &witness, trusted_root)?;
//! let other = TxClaim { tx_hash: body.tx_effects[1].tx_hash, categories_hash: None };
//! let wrong = verify_tx(&Sequential, other, &witness, trusted_root);
//! assert!(matches!(wrong, Err(VerifyError::RootMismatch { .. })));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod json;
pub mod witness;

pub use witness::{
    BlockWitnesses, BuildError, MAX_PROTOCOL_PATH_LENGTH, TrustedRoot, TxClaim, TxEffectMembershipWitness,
    UnknownTx, VerifyError, build_witness, build_witness_from_leaves, compute_root, verify_effect,
    verify_leaf, verify_tx,
};
