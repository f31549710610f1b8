#![doc = include_str!("../README.md")]

/// txfx-poseidon, re-exported: field codec (`field::fr_to_hex`, `field::parse_fr_hex`), `Fr`, backends.
pub use txfx_poseidon;
/// txfx-tx-effects, re-exported: the model, blob encoding and commitment.
pub use txfx_tx_effects;

pub mod archive;
pub mod category;
pub mod chain;
pub mod header;
pub mod network;
pub mod stored;
pub mod witness;

pub use archive::{
    ARCHIVE_HEIGHT, ArchiveError, ArchiveWitness, BlockInArchive, TrustedArchiveRoot, verify_block_hash,
};
pub use category::{
    CategoryError, CategoryMembership, CategoryProof, ElementQuery, ProvenElement, prove_category,
    verify_category_proof,
};
pub use chain::{ChainError, ChainSubject, ChainVerdict, Link, Proven, verify_chain};
pub use header::{BlockHeader, GasFees, GlobalVariables, HeaderError, TreeSnapshot};
pub use network::{L1Deployment, Network, UnknownNetwork};
pub use stored::{StoredBlock, StoredError, StoredTx};
pub use txfx_tx_effects::{ProtocolVersion, UnknownProtocolVersion};
pub use witness::{
    BlockWitnesses, BuildError, TrustedRoot, TxClaim, TxEffectMembershipWitness, TxLookupError, TxMembership,
    VerifyError, build_witness, build_witness_from_leaves, compute_root, find_tx, verify_effect, verify_leaf,
    verify_tx,
};
