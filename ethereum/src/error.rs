//! What can be wrong with a header, a proof request or a proof, and where.

use alloy_primitives::{Address, B256};

/// Why a header, a request or an `eth_getProof` answer was refused. Each variant names the field
/// (as a JSON path such as `storageProof[1].proof[3]`) or the proof it is about.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EthereumError {
    /// The text is longer than any valid answer can be; it was not parsed.
    #[error("{what} is {len} bytes, more than the {max} a valid one can have")]
    TooLarge {
        /// Which text.
        what: &'static str,
        /// Its length in bytes.
        len: usize,
        /// The bound.
        max: usize,
    },
    /// The text is not JSON.
    #[error("{what} is not JSON: {message}")]
    Json {
        /// Which text.
        what: &'static str,
        /// serde_json's message.
        message: String,
    },
    /// The node answered `null`: it has no such block.
    #[error("{what} is null: the node has no such block")]
    NullResult {
        /// Which answer.
        what: &'static str,
    },
    /// A value that must be a JSON object is something else.
    #[error("{field} is not a JSON object")]
    NotAnObject {
        /// Where.
        field: String,
    },
    /// A value that must be a JSON array is something else.
    #[error("{field} is not a JSON array")]
    NotAnArray {
        /// Where.
        field: String,
    },
    /// A field that must be present is not.
    #[error("{field} is missing")]
    MissingField {
        /// Which field.
        field: String,
    },
    /// A field that must be a string is something else (`null` included).
    #[error("{field} is not a string")]
    NotAString {
        /// Which field.
        field: String,
    },
    /// A field is not `0x`-prefixed hex of the form it must have.
    #[error("{field} is not 0x-hex: {reason}")]
    NotHex {
        /// Which field.
        field: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A data field has the wrong number of bytes.
    #[error("{field} has {len} bytes, expected {expected}")]
    WrongLength {
        /// Which field.
        field: String,
        /// Its length in bytes.
        len: usize,
        /// The length (or the bound) it must have.
        expected: &'static str,
    },
    /// A quantity has leading zeros (`0x01`, `0x00`), or is `0x`: it has a single reading, `0x1`.
    #[error("{field} is not a canonical quantity (leading zeros, or no digits)")]
    NotCanonical {
        /// Which field.
        field: String,
    },
    /// A quantity does not fit the field's width.
    #[error("{field} does not fit in {bits} bits")]
    QuantityTooLarge {
        /// Which field.
        field: String,
        /// The field's width.
        bits: u32,
    },
    /// The header has no `baseFeePerGas`: a block before London, which txfx does not read.
    #[error("the header has no baseFeePerGas: a pre-London block")]
    PreLondon,
    /// A later fork's field is present without an earlier fork's (one reading per header).
    #[error("the header has {present} but not {missing}, which an earlier fork added")]
    ForkFieldsOutOfOrder {
        /// The field present.
        present: &'static str,
        /// The earlier field absent.
        missing: &'static str,
    },
    /// The header's fields do not hash to the block hash asked for.
    #[error("the header's fields hash to {computed}, not to the block hash {expected}")]
    HashMismatch {
        /// keccak256 of the rebuilt RLP.
        computed: B256,
        /// The hash asked for.
        expected: B256,
    },
    /// The JSON's own `hash` field names another block.
    #[error("the header's hash field is {printed}, not the block hash {expected}")]
    PrintedHashMismatch {
        /// The `hash` field.
        printed: B256,
        /// The hash asked for.
        expected: B256,
    },
    /// More storage slots than one request may ask for.
    #[error("{count} storage slots, more than the {max} one request may ask for")]
    TooManySlots {
        /// How many were given.
        count: usize,
        /// The bound ([`crate::MAX_SLOTS`]).
        max: usize,
    },
    /// A slot is asked for twice.
    #[error("storage slot {index} ({slot}) repeats an earlier one")]
    DuplicateSlot {
        /// Its index in the request.
        index: usize,
        /// The slot.
        slot: B256,
    },
    /// The answer is about another account.
    #[error("the proof is for {got}, not for {expected}")]
    AddressMismatch {
        /// The answer's `address`.
        got: Address,
        /// The address asked for.
        expected: Address,
    },
    /// The answer has not one storage proof per slot asked for.
    #[error("the answer has {got} storage proofs, {expected} slots were asked for")]
    StorageProofCount {
        /// How many the answer has.
        got: usize,
        /// How many were asked for.
        expected: usize,
    },
    /// A storage proof is for another slot than the one asked for at its place.
    #[error("storageProof[{index}] is for slot {got}, slot {expected} was asked for there")]
    StorageKeyMismatch {
        /// Its index.
        index: usize,
        /// Its key.
        got: B256,
        /// The slot asked for at that index.
        expected: B256,
    },
    /// A proof has more nodes than a path through the trie can.
    #[error("{field} has {count} nodes, more than the {max} a path through the trie can have")]
    TooManyNodes {
        /// Which proof.
        field: String,
        /// How many nodes it has.
        count: usize,
        /// The bound ([`crate::MAX_PROOF_NODES`]).
        max: usize,
    },
    /// A proof node is empty or larger than a trie node can be.
    #[error("{field} is {len} bytes; a trie node is 1 to {max}")]
    NodeSize {
        /// Which node (`accountProof[3]`).
        field: String,
        /// Its length.
        len: usize,
        /// The bound ([`crate::MAX_NODE_BYTES`]).
        max: usize,
    },
    /// A Merkle-Patricia proof does not prove the value against its root.
    #[error("{field} does not prove its value against {root}: {reason}")]
    ProofFailed {
        /// Which proof (`accountProof`, `storageProof[2].proof`).
        field: String,
        /// The root it was checked against.
        root: B256,
        /// alloy-trie's reason.
        reason: String,
    },
    /// The account is proven absent, but the answer gives it a nonzero field.
    #[error("the account is proven absent from the state, but {field} is not empty")]
    AbsentAccountNotEmpty {
        /// The field.
        field: &'static str,
    },
}

impl EthereumError {
    /// The variant's name, for error kinds (`HashMismatch`, `ProofFailed`, ...).
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::TooLarge { .. } => "TooLarge",
            Self::Json { .. } => "Json",
            Self::NullResult { .. } => "NullResult",
            Self::NotAnObject { .. } => "NotAnObject",
            Self::NotAnArray { .. } => "NotAnArray",
            Self::MissingField { .. } => "MissingField",
            Self::NotAString { .. } => "NotAString",
            Self::NotHex { .. } => "NotHex",
            Self::WrongLength { .. } => "WrongLength",
            Self::NotCanonical { .. } => "NotCanonical",
            Self::QuantityTooLarge { .. } => "QuantityTooLarge",
            Self::PreLondon => "PreLondon",
            Self::ForkFieldsOutOfOrder { .. } => "ForkFieldsOutOfOrder",
            Self::HashMismatch { .. } => "HashMismatch",
            Self::PrintedHashMismatch { .. } => "PrintedHashMismatch",
            Self::TooManySlots { .. } => "TooManySlots",
            Self::DuplicateSlot { .. } => "DuplicateSlot",
            Self::AddressMismatch { .. } => "AddressMismatch",
            Self::StorageProofCount { .. } => "StorageProofCount",
            Self::StorageKeyMismatch { .. } => "StorageKeyMismatch",
            Self::TooManyNodes { .. } => "TooManyNodes",
            Self::NodeSize { .. } => "NodeSize",
            Self::ProofFailed { .. } => "ProofFailed",
            Self::AbsentAccountNotEmpty { .. } => "AbsentAccountNotEmpty",
        }
    }

    /// Whether the answer was read and contradicts what it must prove: a header that does not
    /// hash to the block hash, a proof of another account or slot, or one that does not reach
    /// its root. The other errors are answers that could not be read as what was asked (or a
    /// request this crate refuses to make).
    #[must_use]
    pub const fn refutes(&self) -> bool {
        matches!(
            self,
            Self::HashMismatch { .. }
                | Self::PrintedHashMismatch { .. }
                | Self::AddressMismatch { .. }
                | Self::StorageProofCount { .. }
                | Self::StorageKeyMismatch { .. }
                | Self::ProofFailed { .. }
                | Self::AbsentAccountNotEmpty { .. }
        )
    }
}

/// The result type of this crate.
pub type Result<T, E = EthereumError> = core::result::Result<T, E>;
