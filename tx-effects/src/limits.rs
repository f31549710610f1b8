//! Protocol constants from Noir `constants.nr` (version `064e570d`, docs/spec.md §3).

/// Note hashes per tx.
pub const MAX_NOTE_HASHES_PER_TX: usize = 64;
/// Nullifiers per tx.
pub const MAX_NULLIFIERS_PER_TX: usize = 64;
/// L2-to-L1 messages per tx.
pub const MAX_L2_TO_L1_MSGS_PER_TX: usize = 8;
/// Public-data writes per tx, the protocol fee-payer write included.
pub const MAX_TOTAL_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX: usize = 64;
/// Private logs per tx.
pub const MAX_PRIVATE_LOGS_PER_TX: usize = 64;
/// Fields of one private log, padding included.
pub const PRIVATE_LOG_SIZE_IN_FIELDS: usize = 16;
/// Fields of the flat public-log payload of one tx.
pub const FLAT_PUBLIC_LOGS_PAYLOAD_LENGTH: usize = 4096;
/// Header fields per public log in the flat payload (length, contract address).
pub const PUBLIC_LOG_HEADER_LENGTH: usize = 2;
/// Fields of one public log.
pub const MAX_PUBLIC_LOG_SIZE_IN_FIELDS: usize = FLAT_PUBLIC_LOGS_PAYLOAD_LENGTH - PUBLIC_LOG_HEADER_LENGTH;
/// Contract-class logs per tx.
pub const MAX_CONTRACT_CLASS_LOGS_PER_TX: usize = 1;
/// Fields of a contract-class log, padding included; its hash always covers all of them.
pub const CONTRACT_CLASS_LOG_SIZE_IN_FIELDS: usize = 3023;
/// The largest blob encoding of one tx, marker included.
pub const MAX_TX_BLOB_DATA_SIZE_IN_FIELDS: usize = 8475;
/// Number of effect categories committed separately.
pub const NUM_TX_EFFECT_CATEGORIES: usize = 7;
/// The most txs one block may hold: the tree depth and a witness's path are bounded by it.
///
/// Aztec bounds txs per block through its checkpoint and blob limits rather than one constant; 2^16
/// is far above any real block and keeps every allocation and path (at most 16 siblings) bounded.
pub const MAX_TXS_PER_BLOCK: usize = 1 << 16;
