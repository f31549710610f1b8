//! What the walk asks L1: the rollup contract's archive for a checkpoint and its checkpoint
//! numbers, by `eth_call` at one L1 block, and that block's number and hash.
//!
//! The signatures are those of `RollupAbi` in `@aztec/l1-artifacts` 4.1.2, checked against v6's
//! `IRollup.sol` (`testdata/l1/rollup-abi.json` has both, with the selectors): `archiveAt(uint256)
//! returns (bytes32)` is the archive after the checkpoint's last block (zero past the pending
//! checkpoint), `getProvenCheckpointNumber()` and `getPendingCheckpointNumber()` the tips.
//! The Registry's `getCanonicalRollup()` is `IRegistry.sol`'s (AztecProtocol/aztec-packages
//! `l1-contracts/src/governance/interfaces/IRegistry.sol` @ b61792c38104074ed29491dda88710d30772f4d2).
//! Every call reads the state at one block, named by its number once the tag is resolved, so
//! that the answers cannot come from two states.

use alloy_primitives::U256;
use alloy_sol_types::{SolCall, sol};
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
    /// The Registry's current rollup (`IRegistry.sol`: `returns (IHaveVersion)`, an address in
    /// the ABI).
    function getCanonicalRollup() external view returns (address);
}

/// An Ethereum address: alloy's (`0x` and 40 hex digits; any case is read, and printed in
/// EIP-55's mixed case).
pub use alloy_primitives::Address;

/// A string that is no address.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{given}: not an address (0x and 40 hex digits, all one case or EIP-55's mixed case){}", if *.checksum { "; its mixed case is not the address's EIP-55 checksum" } else { "" })]
pub struct NotAnAddress {
    /// What was given.
    pub given: Quoted,
    /// Whether it was an address whose mixed case fails EIP-55's checksum (a typo).
    pub checksum: bool,
}

/// Reads an address as a user types one: `0x` and 40 hex digits, in one case, or in mixed case
/// only if that is its EIP-55 checksum (mixed case is a checksum, and a wrong one is a typo).
///
/// # Errors
/// [`NotAnAddress`].
pub fn parse_address(text: &str) -> Result<Address, NotAnAddress> {
    let bad = |checksum| NotAnAddress { given: Quoted::new(text), checksum };
    let digits = text.strip_prefix("0x").ok_or_else(|| bad(false))?;
    if digits.len() != 40 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(bad(false));
    }
    let address: Address = text.parse().map_err(|_| bad(false))?;
    if !txfx_documents::json::eip55_case_holds(digits) {
        return Err(bad(true));
    }
    Ok(address)
}

/// The L1 block the rollup is read at: a tag the L1 node resolves, a number, or a hash the
/// caller trusts. At a hash, the walk reads the rollup by storage proof: the block's header is
/// checked against the hash and the rollup's words against the header's state root
/// (`txfx-ethereum`), so the L1 node is trusted for nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum BlockTag {
    /// `finalized`: the default, a block that no reorg undoes.
    #[default]
    Finalized,
    /// `safe`.
    Safe,
    /// `latest`.
    Latest,
    /// A block number.
    Number(u64),
    /// A block hash (`0x` and 64 hex digits): the block whose header hashes to it.
    Hash(txfx_ethereum::B256),
}

impl BlockTag {
    /// The parameter `eth_getBlockByNumber` takes.
    fn param(self) -> Json {
        match self {
            Self::Finalized => Json::from("finalized"),
            Self::Safe => Json::from("safe"),
            Self::Latest => Json::from("latest"),
            Self::Number(number) => Json::from(format!("0x{number:x}")),
            Self::Hash(hash) => Json::from(format!("{hash:#x}")),
        }
    }

    /// The hash, if the block is named by one.
    pub fn hash(self) -> Option<txfx_ethereum::B256> {
        match self {
            Self::Hash(hash) => Some(hash),
            _ => None,
        }
    }

    /// The tag's name, or the number in decimal.
    pub fn name(self) -> String {
        match self {
            Self::Finalized => "finalized".into(),
            Self::Safe => "safe".into(),
            Self::Latest => "latest".into(),
            Self::Number(number) => number.to_string(),
            Self::Hash(hash) => format!("{hash:#x}"),
        }
    }
}

/// A string that is no block tag.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{given}: not an L1 block (finalized, safe, latest, a block number or a 0x block hash)")]
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
            // A hash is 0x and exactly 64 hex digits: no other length or prefix reads as one.
            hash if hash.len() == 66
                && hash.starts_with("0x")
                && hash.bytes().skip(2).all(|b| b.is_ascii_hexdigit()) =>
            {
                hash.parse().map(Self::Hash).map_err(|_| NotABlockTag { given: Quoted::new(text) })
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
    /// A word that is no address (nonzero above its low 20 bytes), or the zero address.
    #[error("getCanonicalRollup returned {got}, not a rollup's address (is the registry address right?)")]
    NotARollup {
        /// What came back.
        got: Quoted,
    },
    /// A chain id that is not a quantity of at most 64 bits.
    #[error("eth_chainId answered {got}, not a chain id")]
    NotAChainId {
        /// What came back.
        got: Quoted,
    },
    /// No contract at the rollup's address at the block: its account is proven absent, or it
    /// has no code.
    #[error("no contract is at {address} at that L1 block (is the rollup address right?)")]
    NoContract {
        /// The address.
        address: Address,
    },
}

impl L1Problem {
    /// The variant's name, for error kinds.
    pub fn name(&self) -> &'static str {
        match self {
            Self::NotAWord { .. } => "NotAWord",
            Self::TooLarge { .. } => "TooLarge",
            Self::NotAField { .. } => "NotAField",
            Self::OtherBlock { .. } => "OtherBlock",
            Self::NotABlock { .. } => "NotABlock",
            Self::NotAChainId { .. } => "NotAChainId",
            Self::NotARollup { .. } => "NotARollup",
            Self::NoContract { .. } => "NoContract",
        }
    }
}

/// `eth_chainId()`: the chain the L1 node follows, which every header's `chainId` must be (the
/// rollup refuses a proposal whose header names another, `Rollup__InvalidChainId`).
pub(crate) fn chain_id_request(id: u64) -> RpcRequest {
    RpcRequest { id, method: "eth_chainId".into(), params: Vec::new() }
}

/// An `eth_chainId` answer: a quantity (`"0x1"`).
pub(crate) fn chain_id(result: &str) -> Result<u64, L1Problem> {
    let bad = || L1Problem::NotAChainId { got: Quoted::new(result) };
    let text: String = serde_json::from_str(result).map_err(|_| bad())?;
    quantity(&text).ok_or_else(bad)
}

/// A quantity (`0x` and at most 16 hex digits; the JSON-RPC spec writes no leading zeros, and a
/// padded one still has one reading).
fn quantity(text: &str) -> Option<u64> {
    let digits = text.strip_prefix("0x")?;
    if digits.is_empty() || digits.len() > 16 {
        return None;
    }
    u64::from_str_radix(digits, 16).ok()
}

/// `eth_getBlockByNumber(tag, false)`, or `eth_getBlockByHash(hash, false)` for a hash.
pub(crate) fn block_request(id: u64, tag: BlockTag) -> RpcRequest {
    let method = if tag.hash().is_some() { "eth_getBlockByHash" } else { "eth_getBlockByNumber" };
    RpcRequest { id, method: method.into(), params: vec![tag.param(), Json::from(false)] }
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
            Json::from(Object::new().with("to", format!("{rollup:#x}")).with("data", format!("0x{hex}"))),
            Json::from(Object::new().with("blockHash", format!("0x{hash}")).with("requireCanonical", true)),
        ],
    }
}

/// `archiveAt(checkpoint)` at `block`.
pub(crate) fn archive_at(id: u64, rollup: Address, checkpoint: u64, block: &L1Block) -> RpcRequest {
    let data = archiveAtCall { _checkpointNumber: U256::from(checkpoint) }.abi_encode();
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

/// `getCanonicalRollup()` of `registry` at `block`.
pub(crate) fn canonical_rollup(id: u64, registry: Address, block: &L1Block) -> RpcRequest {
    call(id, registry, &getCanonicalRollupCall {}.abi_encode(), block)
}

/// The rollup `getCanonicalRollup()` returned: an address, left-padded with zeros to one word,
/// and not the zero address (a registry without a rollup).
pub(crate) fn rollup_address(result: &str) -> Result<Address, L1Problem> {
    let word = word("getCanonicalRollup", result)?;
    let (padding, address) = word.split_at(12);
    if padding.iter().any(|b| *b != 0) || address.iter().all(|b| *b == 0) {
        return Err(L1Problem::NotARollup { got: Quoted::new(result) });
    }
    Ok(Address::from_slice(address))
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
    archive_word(word("archiveAt", result)?)
}

/// An archive word (a call's result, or a proven storage word), a field element.
pub(crate) fn archive_word(word: [u8; 32]) -> Result<Fr, L1Problem> {
    fr_from_be_slice(&word).map_err(|_| L1Problem::NotAField {
        got: Quoted::new(&format!("{:#x}", alloy_primitives::B256::from(word))),
    })
}

/// A block's `number` and `hash`, as `eth_getBlockByNumber` answers: read from a JSON object
/// whose other members are skipped without being built (a block's transaction list can be long,
/// and nothing of it is needed), refused if either key comes twice.
pub(crate) fn block(result: &str) -> Result<L1Block, L1Problem> {
    let bad = || L1Problem::NotABlock { got: Quoted::new(result) };
    let head: BlockHead = serde_json::from_str(result).map_err(|_| bad())?;
    let (Some(number), Some(hash)) = (head.number, head.hash) else { return Err(bad()) };
    let number = quantity(&number).ok_or_else(bad)?;
    let hash = word("eth_getBlockByNumber", &format!("\"{hash}\"")).map_err(|_| bad())?;
    Ok(L1Block { number, hash })
}

/// The two members of a block the walk reads.
#[derive(Default)]
struct BlockHead {
    number: Option<String>,
    hash: Option<String>,
}

impl<'de> serde::Deserialize<'de> for BlockHead {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(BlockHeadVisitor)
    }
}

/// Reads a JSON object only (a block is never an array of its members).
struct BlockHeadVisitor;

impl<'de> serde::de::Visitor<'de> for BlockHeadVisitor {
    type Value = BlockHead;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an L1 block object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<BlockHead, A::Error> {
        use serde::de::{Error, IgnoredAny};
        let mut head = BlockHead::default();
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let slot = match key.as_ref() {
                "number" => &mut head.number,
                "hash" => &mut head.hash,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            if slot.is_some() {
                return Err(A::Error::custom("a key given twice"));
            }
            *slot = Some(map.next_value()?);
        }
        Ok(head)
    }
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
        // testdata/l1/StandInRegistry.json's methodIdentifiers (solc's, for IRegistry.sol's
        // signature).
        assert_eq!(getCanonicalRollupCall::SELECTOR, [0x97, 0x1b, 0x0e, 0x6b]);
    }

    #[test]
    fn a_rollup_is_an_address_below_zero_padding() {
        let address = "5fbdb2315678afecb367f032d93f642f64180aa3";
        let word = format!("\"0x{}{address}\"", "0".repeat(24));
        assert_eq!(rollup_address(&word).ok(), parse_address(&format!("0x{address}")).ok());
        for bad in [format!("\"0x01{}{address}\"", "0".repeat(22)), format!("\"0x{}\"", "0".repeat(64))] {
            assert!(matches!(rollup_address(&bad), Err(L1Problem::NotARollup { .. })), "{bad}");
        }
        assert!(matches!(rollup_address("\"0x\""), Err(L1Problem::NotAWord { .. })));
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
        // Members in any order and others skipped; an array of the members, a repeated key and
        // a quantity past 64 bits are not a block.
        let hash = format!("\"0x{}\"", "ab".repeat(32));
        let reordered =
            format!("{{\"transactions\":[\"0x01\",{{\"a\":[]}}],\"hash\":{hash},\"number\":\"0x0\"}}");
        assert_eq!(super::block(&reordered).map(|b| b.number), Ok(0));
        for bad in [
            format!("[\"0x1a\",{hash}]"),
            format!("{{\"number\":\"0x1a\",\"number\":\"0x1b\",\"hash\":{hash}}}"),
            format!("{{\"number\":\"0x1a1a1a1a1a1a1a1a1\",\"hash\":{hash}}}"),
            "{\"number\":\"0x1a\"}".to_owned(),
        ] {
            assert!(matches!(super::block(&bad), Err(L1Problem::NotABlock { .. })), "{bad}");
        }
        assert_eq!(chain_id("\"0x7a69\""), Ok(31337));
        assert!(chain_id("\"31337\"").is_err());
        assert!(parse_address("0x5FbDB2315678afecb367f032d93F642f64180aa3").is_ok());
        assert!(parse_address("0x5fbdb2315678afecb367f032d93f642f64180aa3").is_ok());
        assert!(parse_address("0x5FBDB2315678AFECB367F032D93F642F64180AA3").is_ok());
        assert!(parse_address("5fbdb2315678afecb367f032d93f642f64180aa3").is_err());
        // One letter's case flipped: not the checksum.
        let typo = parse_address("0x5fbDB2315678afecb367f032d93F642f64180aa3");
        assert!(matches!(typo, Err(NotAnAddress { checksum: true, .. })), "{typo:?}");
        assert_eq!("finalized".parse::<BlockTag>(), Ok(BlockTag::Finalized));
        assert_eq!("12".parse::<BlockTag>(), Ok(BlockTag::Number(12)));
        assert!("pending".parse::<BlockTag>().is_err());
    }
}
