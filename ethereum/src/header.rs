//! An L1 block header read from `eth_getBlockByHash`'s JSON and checked against its hash.

use alloy_primitives::{B256, U256, keccak256};
use alloy_rlp::Encodable;
use serde_json::{Map, Value};

use crate::error::{EthereumError, Result};
use crate::json;

/// The longest `eth_getBlockByHash(hash, false)` result read, in bytes. The header itself is
/// under 1 KiB, but the result also lists the block's transaction hashes (68 bytes each) and its
/// withdrawals (16 of ~150 bytes): 1 MiB holds ~15,000 transactions, a 315M gas limit of plain
/// transfers. A caller adds the JSON-RPC envelope (`{"jsonrpc":"2.0","id":..,"result":..}`).
pub const MAX_HEADER_ANSWER_BYTES: usize = 1 << 20;

/// The longest `extraData`: 32 bytes, a consensus rule since Frontier (the Yellow Paper's
/// `Hx`, geth's `params.MaximumExtraDataSize`).
pub const MAX_EXTRA_DATA_BYTES: usize = 32;

/// The header layout a block has, named by the fork that last added a field to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Fork {
    /// EIP-1559's `baseFeePerGas` (London, and Paris, which added no field).
    London,
    /// EIP-4895's `withdrawalsRoot`.
    Shanghai,
    /// EIP-4844's `blobGasUsed` and `excessBlobGas`, EIP-4788's `parentBeaconBlockRoot`.
    Cancun,
    /// EIP-7685's `requestsHash` (Prague, and Osaka, which added no field).
    Prague,
}

/// An L1 block header whose fields hash to the block hash it was asked for: its state root can
/// anchor storage proofs ([`crate::verify_proof`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedHeader {
    hash: B256,
    number: u64,
    state_root: B256,
    timestamp: u64,
    parent_beacon_block_root: Option<B256>,
    fork: Fork,
}

/// One header field's name, and how it is read: data of a fixed length, data of bounded length,
/// or a quantity of at most so many bits.
#[derive(Clone, Copy)]
enum Kind {
    Fixed(usize, &'static str),
    Data(usize, &'static str),
    Quantity(u32),
}

/// The fields every header since London has, in Ethereum's order (the RLP list's).
const LONDON_FIELDS: [(&str, Kind); 16] = [
    ("parentHash", Kind::Fixed(32, "32")),
    ("sha3Uncles", Kind::Fixed(32, "32")),
    ("miner", Kind::Fixed(20, "20")),
    ("stateRoot", Kind::Fixed(32, "32")),
    ("transactionsRoot", Kind::Fixed(32, "32")),
    ("receiptsRoot", Kind::Fixed(32, "32")),
    ("logsBloom", Kind::Fixed(256, "256")),
    ("difficulty", Kind::Quantity(256)),
    ("number", Kind::Quantity(64)),
    ("gasLimit", Kind::Quantity(64)),
    ("gasUsed", Kind::Quantity(64)),
    ("timestamp", Kind::Quantity(64)),
    ("extraData", Kind::Data(MAX_EXTRA_DATA_BYTES, "at most 32")),
    ("mixHash", Kind::Fixed(32, "32")),
    ("nonce", Kind::Fixed(8, "8")),
    ("baseFeePerGas", Kind::Quantity(256)),
];

/// The fields later forks appended, in order, with the fork whose layout ends with each.
const LATER_FIELDS: [(&str, Kind, Option<Fork>); 5] = [
    ("withdrawalsRoot", Kind::Fixed(32, "32"), Some(Fork::Shanghai)),
    ("blobGasUsed", Kind::Quantity(64), None),
    ("excessBlobGas", Kind::Quantity(64), None),
    ("parentBeaconBlockRoot", Kind::Fixed(32, "32"), Some(Fork::Cancun)),
    ("requestsHash", Kind::Fixed(32, "32"), Some(Fork::Prague)),
];

impl VerifiedHeader {
    /// Reads `result`, the JSON text of the `result` of `eth_getBlockByHash(hash, false)`, and
    /// checks that its header fields, RLP-encoded in their fork's layout, hash to `hash`.
    ///
    /// Every field the header needs must be present, `0x`-hex, quantities canonical and data of
    /// exact lengths; a later fork's field without an earlier one's is refused, as is a block
    /// before London. Other members (`transactions`, `size`, ...) are not read. The JSON's own
    /// `hash`, if present, must be `hash` too.
    ///
    /// ```
    /// # fn main() -> Result<(), txfx_ethereum::EthereumError> {
    /// use txfx_ethereum::{EthereumError, VerifiedHeader, B256};
    /// // A pre-London header is refused before anything is hashed.
    /// let json = r#"{"number":"0x1","parentHash":"0x00"}"#;
    /// assert_eq!(VerifiedHeader::from_json(B256::ZERO, json), Err(EthereumError::PreLondon));
    /// assert!(matches!(
    ///     VerifiedHeader::from_json(B256::ZERO, "null"),
    ///     Err(EthereumError::NullResult { .. })
    /// ));
    /// # Ok(()) }
    /// ```
    pub fn from_json(hash: B256, result: &str) -> Result<Self> {
        let value = json::parse_bounded(result, MAX_HEADER_ANSWER_BYTES, "the block")?;
        let object = json::object(&value, "the block")?;
        if !object.contains_key("baseFeePerGas") {
            if let Some((present, ..)) = LATER_FIELDS.iter().find(|(name, ..)| object.contains_key(*name)) {
                return Err(EthereumError::ForkFieldsOutOfOrder { present, missing: "baseFeePerGas" });
            }
            return Err(EthereumError::PreLondon);
        }
        let (later, fork) = later_fields(object)?;
        let mut fields = Vec::with_capacity(LONDON_FIELDS.len() + later.len());
        for (name, kind) in LONDON_FIELDS.iter().chain(later.iter()) {
            fields.push(read_field(object, name, *kind)?);
        }
        let computed = keccak256(encode_list(&fields));
        if computed != hash {
            return Err(EthereumError::HashMismatch { computed, expected: hash });
        }
        if let Some(printed) = json::optional_string(object, "hash", "")? {
            let printed = B256::from(json::fixed::<32>(printed, "hash", "32")?);
            if printed != hash {
                return Err(EthereumError::PrintedHashMismatch { printed, expected: hash });
            }
        }
        let word = |name: &str| -> Result<B256> {
            Ok(B256::from(json::fixed::<32>(json::string(object, name, "")?, name, "32")?))
        };
        let number = |name: &str| json::quantity_u64(json::string(object, name, "")?, name);
        Ok(Self {
            hash,
            number: number("number")?,
            state_root: word("stateRoot")?,
            timestamp: number("timestamp")?,
            parent_beacon_block_root: if fork >= Fork::Cancun {
                Some(word("parentBeaconBlockRoot")?)
            } else {
                None
            },
            fork,
        })
    }

    /// The block hash, which the header's fields hash to.
    #[must_use]
    pub const fn hash(&self) -> B256 {
        self.hash
    }

    /// The block number.
    #[must_use]
    pub const fn number(&self) -> u64 {
        self.number
    }

    /// The state root: the root of the account trie after the block.
    #[must_use]
    pub const fn state_root(&self) -> B256 {
        self.state_root
    }

    /// The block's timestamp, in seconds since the Unix epoch.
    #[must_use]
    pub const fn timestamp(&self) -> u64 {
        self.timestamp
    }

    /// The parent beacon block root (EIP-4788), from Cancun on.
    #[must_use]
    pub const fn parent_beacon_block_root(&self) -> Option<B256> {
        self.parent_beacon_block_root
    }

    /// The header's layout.
    #[must_use]
    pub const fn fork(&self) -> Fork {
        self.fork
    }
}

/// The later fields the header has, which must be a prefix of [`LATER_FIELDS`] ending at a fork.
fn later_fields(object: &Map<String, Value>) -> Result<(Vec<(&'static str, Kind)>, Fork)> {
    let mut fields = Vec::new();
    let mut fork = Fork::London;
    let mut missing: Option<&'static str> = None;
    let mut pending_fork = false;
    for (name, kind, ends) in LATER_FIELDS {
        if object.contains_key(name) {
            if let Some(missing) = missing {
                return Err(EthereumError::ForkFieldsOutOfOrder { present: name, missing });
            }
            fields.push((name, kind));
            match ends {
                Some(ends) => {
                    fork = ends;
                    pending_fork = false;
                }
                None => pending_fork = true,
            }
        } else {
            if pending_fork {
                // Cancun's three fields come together.
                return Err(EthereumError::ForkFieldsOutOfOrder {
                    present: fields.last().map_or(name, |(present, _)| present),
                    missing: name,
                });
            }
            missing.get_or_insert(name);
        }
    }
    Ok((fields, fork))
}

/// One field's bytes as its RLP string holds them (a quantity: big-endian, no leading zeros).
fn read_field(object: &Map<String, Value>, name: &str, kind: Kind) -> Result<Vec<u8>> {
    let text = json::string(object, name, "")?;
    match kind {
        Kind::Fixed(len, expected) => {
            let bytes = json::data(text, name, len, expected)?;
            if bytes.len() != len {
                return Err(EthereumError::WrongLength {
                    field: name.to_owned(),
                    len: bytes.len(),
                    expected,
                });
            }
            Ok(bytes)
        }
        Kind::Data(max, expected) => json::data(text, name, max, expected),
        Kind::Quantity(bits) => Ok(json::quantity(text, name, bits)?.to_be_bytes_trimmed_vec()),
    }
}

/// The RLP list of byte strings `fields`.
pub(crate) fn encode_list(fields: &[Vec<u8>]) -> Vec<u8> {
    let payload_length: usize = fields.iter().map(|field| field.as_slice().length()).sum();
    let mut out = Vec::with_capacity(payload_length + 9);
    alloy_rlp::Header { list: true, payload_length }.encode(&mut out);
    for field in fields {
        field.as_slice().encode(&mut out);
    }
    out
}

/// A quantity's RLP string bytes.
pub(crate) fn quantity_bytes(value: U256) -> Vec<u8> {
    value.to_be_bytes_trimmed_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(fields: &[&str]) -> Map<String, Value> {
        fields.iter().map(|name| ((*name).to_owned(), Value::String("0x00".to_owned()))).collect()
    }

    #[test]
    fn later_fields_are_a_prefix_ending_at_a_fork() {
        let read = |names: &[&str]| later_fields(&with(names)).map(|(_, fork)| fork);
        assert_eq!(read(&[]), Ok(Fork::London));
        assert_eq!(read(&["withdrawalsRoot"]), Ok(Fork::Shanghai));
        let cancun = ["withdrawalsRoot", "blobGasUsed", "excessBlobGas", "parentBeaconBlockRoot"];
        assert_eq!(read(&cancun), Ok(Fork::Cancun));
        let prague = [&cancun[..], &["requestsHash"]].concat();
        assert_eq!(read(&prague), Ok(Fork::Prague));
        assert!(read(&["withdrawalsRoot", "blobGasUsed"]).is_err());
        assert!(read(&["requestsHash"]).is_err());
        assert!(read(&["withdrawalsRoot", "blobGasUsed", "excessBlobGas", "requestsHash"]).is_err());
        assert!(read(&["blobGasUsed", "excessBlobGas", "parentBeaconBlockRoot"]).is_err());
    }

    #[test]
    fn the_list_is_rlp() {
        // RLP's own examples (the Ethereum wiki): ["cat", "dog"] and the empty string and zero.
        let list = encode_list(&[b"cat".to_vec(), b"dog".to_vec()]);
        assert_eq!(list, [0xc8, 0x83, b'c', b'a', b't', 0x83, b'd', b'o', b'g']);
        assert_eq!(encode_list(&[quantity_bytes(U256::ZERO)]), [0xc1, 0x80]);
        assert_eq!(encode_list(&[quantity_bytes(U256::from(1024))]), [0xc3, 0x82, 0x04, 0x00]);
    }
}
