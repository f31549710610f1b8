//! What the walk asks L1: the rollup contract's archive for a checkpoint and its checkpoint
//! numbers, by `eth_call` at one L1 block, and that block's number and hash.
//!
//! The signatures are those of `RollupAbi` in `@aztec/l1-artifacts` 4.1.2, checked against v6's
//! `IRollup.sol` (`testdata/l1/rollup-abi.json` has both, with the selectors): `archiveAt(uint256)
//! returns (bytes32)` is the archive after the checkpoint's last block (zero past the pending
//! checkpoint), `getProvenCheckpointNumber()` and `getPendingCheckpointNumber()` the tips.
//! Every call reads the state at one block, named by its number once the tag is resolved, so
//! that the answers cannot come from two states.

use alloy_sol_types::{SolCall, sol};
use serde_json::{Value, json};
use txfx_documents::json::Quoted;
use txfx_documents::json::rpc::RpcRequest;
use txfx_documents::json::{Json, Object};
use txfx_documents::txfx_membership::txfx_poseidon::Fr;
use txfx_documents::txfx_membership::txfx_poseidon::field::fr_from_be_slice;

sol! {
    /// The archive root after checkpoint `_checkpointNumber`'s last block.
    function archiveAt(uint256 _checkpointNumber) external view returns (bytes32);
    /// The newest proven checkpoint.
    function getProvenCheckpointNumber() external view returns (uint256);
    /// The newest checkpoint published to L1.
    function getPendingCheckpointNumber() external view returns (uint256);
}

/// An Ethereum address (the rollup contract's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Address(pub [u8; 20]);

/// A string that is no address.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{given}: not an address (0x and 40 hex digits)")]
pub struct NotAnAddress {
    /// What was given.
    pub given: Quoted,
}

impl std::str::FromStr for Address {
    type Err = NotAnAddress;
    fn from_str(text: &str) -> Result<Self, NotAnAddress> {
        let bad = || NotAnAddress { given: Quoted::new(text) };
        let digits = text.strip_prefix("0x").ok_or_else(bad)?;
        if digits.len() != 40 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad());
        }
        let mut out = [0u8; 20];
        for (byte, pair) in out.iter_mut().zip(digits.as_bytes().chunks_exact(2)) {
            let pair = std::str::from_utf8(pair).map_err(|_| bad())?;
            *byte = u8::from_str_radix(pair, 16).map_err(|_| bad())?;
        }
        Ok(Self(out))
    }
}

impl std::fmt::Display for Address {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("0x")?;
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

/// The L1 block the rollup is read at: a tag the L1 node resolves, or a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockTag {
    /// `finalized`: the default, a block that no reorg undoes.
    Finalized,
    /// `safe`.
    Safe,
    /// `latest`.
    Latest,
    /// A block number.
    Number(u64),
}

impl BlockTag {
    /// The parameter `eth_getBlockByNumber` takes.
    fn param(self) -> Json {
        match self {
            Self::Finalized => Json::from("finalized"),
            Self::Safe => Json::from("safe"),
            Self::Latest => Json::from("latest"),
            Self::Number(number) => Json::from(format!("0x{number:x}")),
        }
    }

    /// The tag's name, or the number in decimal.
    pub fn name(self) -> String {
        match self {
            Self::Finalized => "finalized".into(),
            Self::Safe => "safe".into(),
            Self::Latest => "latest".into(),
            Self::Number(number) => number.to_string(),
        }
    }
}

/// A string that is no block tag.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{given}: not an L1 block (finalized, safe, latest or a block number)")]
pub struct NotABlockTag {
    /// What was given.
    pub given: Quoted,
}

impl std::str::FromStr for BlockTag {
    type Err = NotABlockTag;
    fn from_str(text: &str) -> Result<Self, NotABlockTag> {
        match text {
            "finalized" => Ok(Self::Finalized),
            "safe" => Ok(Self::Safe),
            "latest" => Ok(Self::Latest),
            digits if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
                digits.parse().map(Self::Number).map_err(|_| NotABlockTag { given: Quoted::new(text) })
            }
            _ => Err(NotABlockTag { given: Quoted::new(text) }),
        }
    }
}

/// The L1 block every call read: its number and hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct L1Block {
    /// Its number.
    pub number: u64,
    /// Its hash.
    pub hash: [u8; 32],
}

/// An L1 answer that is not what the call returns.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum L1Problem {
    /// Not one 32-byte word (`0x` alone is what a call to an address without code returns).
    #[error("{call} returned {got}, not one 32-byte word (is the rollup address right?)")]
    NotAWord {
        /// The call.
        call: &'static str,
        /// What came back.
        got: Quoted,
    },
    /// A checkpoint number that does not fit 64 bits.
    #[error("{call} returned a number above 2^64")]
    TooLarge {
        /// The call.
        call: &'static str,
    },
    /// An archive root that is not a field element.
    #[error("archiveAt returned {got}, which is not a field element")]
    NotAField {
        /// The word.
        got: Quoted,
    },
    /// Another block than the one asked for by number.
    #[error("eth_getBlockByNumber({asked}) answered with block {got}")]
    OtherBlock {
        /// The number asked for.
        asked: u64,
        /// The block's number.
        got: u64,
    },
    /// A block that is not `{number, hash}` as quantities.
    #[error("eth_getBlockByNumber answered {got}, not a block with a number and a hash")]
    NotABlock {
        /// What came back.
        got: Quoted,
    },
}

/// `eth_getBlockByNumber(tag, false)`.
pub(crate) fn block_request(id: u64, tag: BlockTag) -> RpcRequest {
    RpcRequest { id, method: "eth_getBlockByNumber".into(), params: vec![tag.param(), Json::from(false)] }
}

/// `eth_call` of `data` to `rollup` at `block`, named by its hash (EIP-1898, canonical required):
/// every call reads the state of the block whose number and hash the verdict names, or fails,
/// even if a reorg replaced that number meanwhile.
fn call(id: u64, rollup: Address, data: &[u8], block: &L1Block) -> RpcRequest {
    let hex: String = data.iter().map(|b| format!("{b:02x}")).collect();
    let hash: String = block.hash.iter().map(|b| format!("{b:02x}")).collect();
    RpcRequest {
        id,
        method: "eth_call".into(),
        params: vec![
            Json::from(Object::new().with("to", rollup.to_string()).with("data", format!("0x{hex}"))),
            Json::from(Object::new().with("blockHash", format!("0x{hash}")).with("requireCanonical", true)),
        ],
    }
}

/// `archiveAt(checkpoint)` at `block`.
pub(crate) fn archive_at(id: u64, rollup: Address, checkpoint: u64, block: &L1Block) -> RpcRequest {
    let data =
        archiveAtCall { _checkpointNumber: alloy_sol_types::private::U256::from(checkpoint) }.abi_encode();
    call(id, rollup, &data, block)
}

/// `getProvenCheckpointNumber()` at `block`.
pub(crate) fn proven_checkpoint(id: u64, rollup: Address, block: &L1Block) -> RpcRequest {
    call(id, rollup, &getProvenCheckpointNumberCall {}.abi_encode(), block)
}

/// `getPendingCheckpointNumber()` at `block`.
pub(crate) fn pending_checkpoint(id: u64, rollup: Address, block: &L1Block) -> RpcRequest {
    call(id, rollup, &getPendingCheckpointNumberCall {}.abi_encode(), block)
}

/// The one 32-byte word a call returned (`"0x"` + 64 hex digits, nothing else).
fn word(call: &'static str, result: &str) -> Result<[u8; 32], L1Problem> {
    let not_a_word = || L1Problem::NotAWord { call, got: Quoted::new(result) };
    let text: String = serde_json::from_str(result).map_err(|_| not_a_word())?;
    let digits = text.strip_prefix("0x").ok_or_else(not_a_word)?;
    if digits.len() != 64 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(not_a_word());
    }
    let mut out = [0u8; 32];
    for (byte, pair) in out.iter_mut().zip(digits.as_bytes().chunks_exact(2)) {
        *byte = u8::from_str_radix(std::str::from_utf8(pair).map_err(|_| not_a_word())?, 16)
            .map_err(|_| not_a_word())?;
    }
    Ok(out)
}

/// A `uint256` result that must fit 64 bits.
pub(crate) fn number(call: &'static str, result: &str) -> Result<u64, L1Problem> {
    let word = word(call, result)?;
    let (high, low) = word.split_at(24);
    if high.iter().any(|b| *b != 0) {
        return Err(L1Problem::TooLarge { call });
    }
    Ok(low.iter().fold(0u64, |acc, b| (acc << 8) | u64::from(*b)))
}

/// An archive root (`bytes32`), a field element.
pub(crate) fn archive(result: &str) -> Result<Fr, L1Problem> {
    let word = word("archiveAt", result)?;
    fr_from_be_slice(&word).map_err(|_| L1Problem::NotAField { got: Quoted::new(result) })
}

/// A block's `number` and `hash`, as `eth_getBlockByNumber` answers.
pub(crate) fn block(result: &str) -> Result<L1Block, L1Problem> {
    let bad = || L1Problem::NotABlock { got: Quoted::new(result) };
    let value: Value = serde_json::from_str(result).map_err(|_| bad())?;
    let quantity =
        |key: &str| value.get(key).and_then(Value::as_str).and_then(|text| text.strip_prefix("0x"));
    let digits = quantity("number").ok_or_else(bad)?;
    if digits.is_empty() || digits.len() > 16 {
        return Err(bad());
    }
    let number = u64::from_str_radix(digits, 16).map_err(|_| bad())?;
    let hash =
        word("eth_getBlockByNumber", &json!(format!("0x{}", quantity("hash").ok_or_else(bad)?)).to_string())
            .map_err(|_| bad())?;
    Ok(L1Block { number, hash })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_are_the_published_abis() {
        // testdata/l1/rollup-abi.json: the selectors of @aztec/l1-artifacts' RollupAbi.
        assert_eq!(archiveAtCall::SELECTOR, [0x37, 0x77, 0xe8, 0x63]);
        assert_eq!(getProvenCheckpointNumberCall::SELECTOR, [0x1f, 0x83, 0x52, 0xe9]);
        assert_eq!(getPendingCheckpointNumberCall::SELECTOR, [0x98, 0x91, 0xbe, 0x8e]);
    }

    #[test]
    fn results_are_one_word_or_refused() {
        let three = format!("\"0x{}03\"", "0".repeat(62));
        assert_eq!(number("getProvenCheckpointNumber", &three), Ok(3));
        assert!(matches!(number("x", "\"0x\""), Err(L1Problem::NotAWord { .. })));
        assert!(matches!(number("x", &format!("\"0x{}\"", "0".repeat(66))), Err(L1Problem::NotAWord { .. })));
        assert!(matches!(
            number("x", &format!("\"0x01{}\"", "0".repeat(62))),
            Err(L1Problem::TooLarge { .. })
        ));
        assert!(matches!(archive(&format!("\"0x{}\"", "f".repeat(64))), Err(L1Problem::NotAField { .. })));
        let block =
            block(&format!("{{\"number\":\"0x1a\",\"hash\":\"0x{}\"}}", "ab".repeat(32))).expect("a block");
        assert_eq!(block.number, 26);
        assert!("0x5FbDB2315678afecb367f032d93F642f64180aa3".parse::<Address>().is_ok());
        assert!("5fbdb2315678afecb367f032d93f642f64180aa3".parse::<Address>().is_err());
        assert_eq!("finalized".parse::<BlockTag>(), Ok(BlockTag::Finalized));
        assert_eq!("12".parse::<BlockTag>(), Ok(BlockTag::Number(12)));
        assert!("pending".parse::<BlockTag>().is_err());
    }
}
