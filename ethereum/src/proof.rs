//! `eth_getProof` (EIP-1186): the request for an account's storage slots at a verified block, and
//! the answer's Merkle-Patricia proofs checked against the block's state root.

use alloy_primitives::{Address, B256, Bytes, U256, b256, keccak256};
use alloy_trie::{KECCAK_EMPTY, Nibbles};
use serde_json::Value;

use crate::error::{EthereumError, Result};
use crate::header::{VerifiedHeader, encode_list, quantity_bytes};
use crate::json;

/// The most storage slots one request asks for.
pub const MAX_SLOTS: usize = 16;

/// The most nodes a proof has: a path through a trie keyed by 32-byte hashes passes at most 64
/// branch nodes (one per nibble) and ends at one leaf.
pub const MAX_PROOF_NODES: usize = 65;

/// The largest trie node, in bytes: a branch node of 16 hash references (33 bytes each: the
/// 0xa0 prefix and the hash), an empty value (1 byte) and a 3-byte list header.
pub const MAX_NODE_BYTES: usize = 532;

/// The empty trie's root, `keccak256(rlp(""))`: an account with no storage has it.
pub const EMPTY_STORAGE_ROOT: B256 =
    b256!("56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421");

/// One proof's JSON: `"0x"` and two digits a byte for each node, quotes and commas, and brackets.
const PROOF_JSON_BYTES: usize = 2 + MAX_PROOF_NODES * (2 * MAX_NODE_BYTES + 5);

/// The JSON besides the proofs: member names, an address, two hashes and two quantities for the
/// account (~350 bytes compact), room for whitespace.
const ACCOUNT_JSON_BYTES: usize = 1024;

/// One storage proof's JSON besides its nodes: a key and a value of 66 characters, member names,
/// room for whitespace.
const SLOT_JSON_BYTES: usize = 512;

/// An account and storage slots to ask `eth_getProof` for: at most [`MAX_SLOTS`], none twice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofRequest {
    address: Address,
    slots: Vec<B256>,
}

impl ProofRequest {
    /// The request for `slots` of `address`'s storage, in this order.
    ///
    /// # Errors
    ///
    /// More than [`MAX_SLOTS`] slots, or a slot given twice.
    pub fn new(address: Address, slots: &[B256]) -> Result<Self> {
        if slots.len() > MAX_SLOTS {
            return Err(EthereumError::TooManySlots { count: slots.len(), max: MAX_SLOTS });
        }
        for (index, slot) in slots.iter().enumerate() {
            if slots.iter().take(index).any(|earlier| earlier == slot) {
                return Err(EthereumError::DuplicateSlot { index, slot: *slot });
            }
        }
        Ok(Self { address, slots: slots.to_vec() })
    }

    /// The account.
    #[must_use]
    pub const fn address(&self) -> Address {
        self.address
    }

    /// The slots, in the order asked.
    #[must_use]
    pub fn slots(&self) -> &[B256] {
        &self.slots
    }

    /// The `params` of `eth_getProof` at `header`'s block, named by hash (EIP-1898):
    /// `["0xaddress", ["0xslot", ...], {"blockHash": "0x..."}]`.
    #[must_use]
    pub fn params(&self, header: &VerifiedHeader) -> String {
        let slots: Vec<String> = self.slots.iter().map(|slot| format!("\"{slot}\"")).collect();
        format!(
            "[\"{}\",[{}],{{\"blockHash\":\"{}\"}}]",
            hex_address(self.address),
            slots.join(","),
            header.hash()
        )
    }

    /// An upper bound on the length of the JSON `result` a valid answer to this request has:
    /// every proof at [`MAX_PROOF_NODES`] nodes of [`MAX_NODE_BYTES`]. The caller adds the
    /// JSON-RPC envelope (`{"jsonrpc":"2.0","id":..,"result":..}`) to bound the whole body.
    #[must_use]
    pub fn max_answer_bytes(&self) -> usize {
        ACCOUNT_JSON_BYTES + PROOF_JSON_BYTES + self.slots.len() * (SLOT_JSON_BYTES + PROOF_JSON_BYTES)
    }
}

/// An account as the state trie holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Account {
    /// Its nonce.
    pub nonce: u64,
    /// Its balance in wei.
    pub balance: U256,
    /// The root of its storage trie.
    pub storage_hash: B256,
    /// keccak256 of its code.
    pub code_hash: B256,
}

/// An account and storage slots proven against a verified header's state root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProvenStorage {
    block_hash: B256,
    address: Address,
    account: Option<Account>,
    values: Vec<(B256, U256)>,
}

impl ProvenStorage {
    /// The block whose state this is.
    #[must_use]
    pub const fn block_hash(&self) -> B256 {
        self.block_hash
    }

    /// The account's address.
    #[must_use]
    pub const fn address(&self) -> Address {
        self.address
    }

    /// The account, or `None` if it is proven absent from the state (then all its storage is 0).
    #[must_use]
    pub const fn account(&self) -> Option<Account> {
        self.account
    }

    /// Each slot asked for and its value, in the request's order.
    #[must_use]
    pub fn values(&self) -> &[(B256, U256)] {
        &self.values
    }

    /// The value of `slot`, if it was asked for.
    #[must_use]
    pub fn value(&self, slot: B256) -> Option<U256> {
        self.values.iter().find(|(asked, _)| *asked == slot).map(|(_, value)| *value)
    }
}

/// Checks `result`, the JSON text of `eth_getProof`'s result for `request`, against `header`'s
/// state root: the account proof at `keccak256(address)`, then each storage proof against the
/// account's storage root at `keccak256(slot)`, in the request's order.
///
/// The text is bounded ([`ProofRequest::max_answer_bytes`]) and each proof ([`MAX_PROOF_NODES`],
/// [`MAX_NODE_BYTES`]) before anything is hashed.
///
/// # Errors
///
/// Any [`EthereumError`] that says what is wrong and where.
pub fn verify_proof(header: &VerifiedHeader, request: &ProofRequest, result: &str) -> Result<ProvenStorage> {
    let max = request.max_answer_bytes();
    let value = json::parse_bounded(result, max, "the eth_getProof result")?;
    let object = json::object(&value, "the eth_getProof result")?;
    let got = Address::from(json::fixed::<20>(json::string(object, "address", "")?, "address", "20")?);
    if got != request.address {
        return Err(EthereumError::AddressMismatch { got, expected: request.address });
    }
    let storage = json::array(json::member(object, "storageProof", "")?, "storageProof")?;
    if storage.len() != request.slots.len() {
        return Err(EthereumError::StorageProofCount { got: storage.len(), expected: request.slots.len() });
    }
    let account_proof = nodes(json::member(object, "accountProof", "")?, "accountProof")?;
    let printed = printed_account(object)?;
    let account = verify_account(header.state_root(), request.address, printed, &account_proof)?;
    let storage_root = account.map_or(EMPTY_STORAGE_ROOT, |account| account.storage_hash);
    let mut values = Vec::with_capacity(storage.len());
    for (index, (entry, slot)) in storage.iter().zip(&request.slots).enumerate() {
        let value = verify_slot(storage_root, index, entry, *slot)?;
        values.push((*slot, value));
    }
    Ok(ProvenStorage { block_hash: header.hash(), address: request.address, account, values })
}

/// The account fields the answer prints.
fn printed_account(object: &serde_json::Map<String, Value>) -> Result<Account> {
    let word = |name: &str| -> Result<B256> {
        Ok(B256::from(json::fixed::<32>(json::string(object, name, "")?, name, "32")?))
    };
    Ok(Account {
        nonce: json::quantity_u64(json::string(object, "nonce", "")?, "nonce")?,
        balance: json::quantity(json::string(object, "balance", "")?, "balance", 256)?,
        storage_hash: word("storageHash")?,
        code_hash: word("codeHash")?,
    })
}

/// Proves `printed` at `address` in the state, or proves the account absent (then `printed`
/// must be the empty account: nonce and balance 0, the empty storage root and the empty code's
/// hash, as anvil prints an absent account; one reading, so zero for either hash is refused).
fn verify_account(
    state_root: B256,
    address: Address,
    printed: Account,
    proof: &[Bytes],
) -> Result<Option<Account>> {
    let key = Nibbles::unpack(keccak256(address));
    let fields = [
        quantity_bytes(U256::from(printed.nonce)),
        quantity_bytes(printed.balance),
        printed.storage_hash.to_vec(),
        printed.code_hash.to_vec(),
    ];
    let encoded = encode_list(&fields);
    let fail = |error: alloy_trie::proof::ProofVerificationError| EthereumError::ProofFailed {
        field: "accountProof".to_owned(),
        root: state_root,
        reason: error.to_string(),
    };
    match alloy_trie::proof::verify_proof(state_root, key, Some(encoded), proof) {
        Ok(()) => return Ok(Some(printed)),
        Err(present) => {
            if alloy_trie::proof::verify_proof(state_root, key, None, proof).is_err() {
                return Err(fail(present));
            }
        }
    }
    if printed.nonce != 0 {
        return Err(EthereumError::AbsentAccountNotEmpty { field: "nonce" });
    }
    if printed.balance != U256::ZERO {
        return Err(EthereumError::AbsentAccountNotEmpty { field: "balance" });
    }
    if printed.storage_hash != EMPTY_STORAGE_ROOT {
        return Err(EthereumError::AbsentAccountNotEmpty { field: "storageHash" });
    }
    if printed.code_hash != KECCAK_EMPTY {
        return Err(EthereumError::AbsentAccountNotEmpty { field: "codeHash" });
    }
    Ok(None)
}

/// Proves `storageProof[index]`'s value at `slot` against `storage_root`.
fn verify_slot(storage_root: B256, index: usize, entry: &Value, slot: B256) -> Result<U256> {
    let path = format!("storageProof[{index}]");
    let entry = json::object(entry, &path)?;
    let key = storage_key(json::string(entry, "key", &path)?, &json::join(&path, "key"))?;
    if key != slot {
        return Err(EthereumError::StorageKeyMismatch { index, got: key, expected: slot });
    }
    let value = json::quantity(json::string(entry, "value", &path)?, &json::join(&path, "value"), 256)?;
    let proof_path = json::join(&path, "proof");
    let proof = nodes(json::member(entry, "proof", &path)?, &proof_path)?;
    let expected = (value != U256::ZERO).then(|| {
        let mut out = Vec::with_capacity(33);
        alloy_rlp::Encodable::encode(&value, &mut out);
        out
    });
    alloy_trie::proof::verify_proof(storage_root, Nibbles::unpack(keccak256(slot)), expected, &proof)
        .map_err(|error| EthereumError::ProofFailed {
            field: proof_path,
            root: storage_root,
            reason: error.to_string(),
        })?;
    Ok(value)
}

/// A storage proof's `key`: the 32-byte word, or a canonical quantity. geth echoes each key in
/// the form it was asked in: a 32-byte key at full width, a shorter one as a quantity
/// (execution-apis' `eth_getProof/get-account-proof-with-storage.io`: `"0x00"` asked, `"0x0"`
/// printed); alloy's `JsonStorageKey` (alloy-serde 2.4 docs), which reth and anvil print with,
/// mirrors it. [`ProofRequest::params`] asks at full width, so the quantity form only comes from
/// a node that rewrites keys; either form names one slot, compared as a 32-byte word.
fn storage_key(text: &str, field: &str) -> Result<B256> {
    if text.len() == 66 {
        return Ok(B256::from(json::fixed::<32>(text, field, "32")?));
    }
    Ok(B256::from(json::quantity(text, field, 256)?))
}

/// A proof's nodes, bounded in number and size before any is decoded.
fn nodes(value: &Value, field: &str) -> Result<Vec<Bytes>> {
    let items = json::array(value, field)?;
    if items.len() > MAX_PROOF_NODES {
        return Err(EthereumError::TooManyNodes {
            field: field.to_owned(),
            count: items.len(),
            max: MAX_PROOF_NODES,
        });
    }
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let path = format!("{field}[{index}]");
            let node =
                json::data(json::text(item, &path)?, &path, MAX_NODE_BYTES, "1 to 532").map_err(|error| {
                    match error {
                        EthereumError::WrongLength { field, len, .. } => {
                            EthereumError::NodeSize { field, len, max: MAX_NODE_BYTES }
                        }
                        other => other,
                    }
                })?;
            if node.is_empty() {
                return Err(EthereumError::NodeSize { field: path, len: 0, max: MAX_NODE_BYTES });
            }
            Ok(Bytes::from(node))
        })
        .collect()
}

/// An address as lowercase `0x`-hex (what nodes print; EIP-55's checksum is not needed here).
fn hex_address(address: Address) -> String {
    format!("0x{}", alloy_primitives::hex::encode(address))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_trie::EMPTY_ROOT_HASH;

    #[test]
    fn requests_are_bounded_and_have_no_repeats() {
        let slot = |n: u8| B256::with_last_byte(n);
        let many: Vec<B256> = (0..=16).map(slot).collect();
        assert!(ProofRequest::new(Address::ZERO, &many[..16]).is_ok());
        assert_eq!(
            ProofRequest::new(Address::ZERO, &many),
            Err(EthereumError::TooManySlots { count: 17, max: 16 })
        );
        assert_eq!(
            ProofRequest::new(Address::ZERO, &[slot(1), slot(2), slot(1)]),
            Err(EthereumError::DuplicateSlot { index: 2, slot: slot(1) })
        );
    }

    #[test]
    fn the_bound_holds_a_full_proof() {
        let request = ProofRequest::new(Address::ZERO, &[B256::ZERO]).map_err(|e| e.to_string());
        let bound = request.map(|request| request.max_answer_bytes());
        // Two proofs of 65 nodes of 532 bytes printed as hex strings, and the rest.
        assert!(bound.is_ok_and(|bound| bound > 2 * 65 * (2 + 2 * 532 + 3)));
    }

    #[test]
    fn the_node_bound_is_a_full_branch() {
        // A branch: 16 children of 33 bytes, an empty value, a list header of 3 bytes.
        assert_eq!(MAX_NODE_BYTES, 16 * 33 + 1 + 3);
        assert_eq!(EMPTY_STORAGE_ROOT, EMPTY_ROOT_HASH);
    }

    #[test]
    fn keys_have_two_forms() {
        let word = format!("0x{}", "00".repeat(31) + "05");
        assert_eq!(storage_key(&word, "k"), Ok(B256::with_last_byte(5)));
        assert_eq!(storage_key("0x5", "k"), Ok(B256::with_last_byte(5)));
        assert!(storage_key("0x05", "k").is_err());
    }
}
