//! Block headers as a node prints them: the `header` object of an `L2Block` (docs/spec.md §12.4).
//!
//! Numbers for the block number and leaf indices, decimal strings for the timestamp and gas fees,
//! `0x`-hex fields, a slot number as TypeScript's `SlotNumberSchema` reads it (a JSON number or a
//! decimal or `0x`-hex string, up to 2^53 − 1), a 20-byte coinbase as `EthAddress.schema` reads
//! it (exactly 40 hex digits, its mixed case an EIP-55 checksum). A leaf index is a JSON number
//! below 2^32 before v6 (`UInt32`); in v6 a number or a string of decimal digits up to 2^53 − 1
//! (`TreeLeafIndexSchema`). Unknown keys (such as the
//! `"_cachedHash":{}` of a header already hashed) are ignored, as TypeScript's
//! `BlockHeader.schema` ignores them. The layout is the caller's to name: a header of the other
//! layout (a `txEffectsTreeRoot` key present or missing) is refused ([`JsonError::Layout`]),
//! never read as the other.

use serde::Serialize;
use txfx_membership::{BlockHeader, GasFees, GlobalVariables, ProtocolVersion, TreeSnapshot};
use txfx_poseidon::Fr;
use txfx_poseidon::field::serde_hex;
use txfx_tx_effects::BlockNumber;

use super::error::JsonError;
use super::fault::{Malformation, Quoted};
use super::fields::field;
use super::ordered::Json;
use super::wire::{Integer, JsonInput, MAX_SAFE_INTEGER, Raw, decimal_string};

/// A tree snapshot (`{"root", "nextAvailableLeafIndex"}`).
#[derive(Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
struct SnapshotJson {
    #[serde(with = "serde_hex")]
    root: Fr,
    next_available_leaf_index: u64,
}

impl From<TreeSnapshot> for SnapshotJson {
    fn from(snapshot: TreeSnapshot) -> Self {
        Self { root: snapshot.root, next_available_leaf_index: snapshot.next_available_leaf_index }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct GasFeesJson {
    #[serde(serialize_with = "decimal_string")]
    fee_per_da_gas: u128,
    #[serde(serialize_with = "decimal_string")]
    fee_per_l2_gas: u128,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct GlobalVariablesJson {
    #[serde(with = "serde_hex")]
    chain_id: Fr,
    #[serde(with = "serde_hex")]
    version: Fr,
    #[serde(serialize_with = "block_number")]
    block_number: BlockNumber,
    #[serde(with = "serde_hex")]
    slot_number: Fr,
    #[serde(serialize_with = "decimal_string")]
    timestamp: u64,
    #[serde(serialize_with = "eth_address")]
    coinbase: [u8; 20],
    #[serde(with = "serde_hex")]
    fee_recipient: Fr,
    gas_fees: GasFeesJson,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct HeaderJson {
    last_archive: SnapshotJson,
    state: StateJson,
    #[serde(with = "serde_hex")]
    sponge_blob_hash: Fr,
    #[serde(skip_serializing_if = "Option::is_none", with = "serde_hex::option")]
    tx_effects_tree_root: Option<Fr>,
    global_variables: GlobalVariablesJson,
    #[serde(with = "serde_hex")]
    total_fees: Fr,
    #[serde(with = "serde_hex")]
    total_mana_used: Fr,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StateJson {
    l1_to_l2_message_tree: SnapshotJson,
    partial: PartialStateJson,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PartialStateJson {
    note_hash_tree: SnapshotJson,
    nullifier_tree: SnapshotJson,
    public_data_tree: SnapshotJson,
}

fn block_number<S: serde::Serializer>(value: &BlockNumber, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_u32(value.get())
}

fn eth_address<S: serde::Serializer>(value: &[u8; 20], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&eth_address_hex(value))
}

/// An Ethereum address as txfx prints one: `0x` and 40 lower-case hex digits (a coinbase, a
/// network's Registry).
pub(crate) fn eth_address_hex(value: &[u8; 20]) -> String {
    let hex: String = value.iter().map(|b| format!("{b:02x}")).collect();
    format!("0x{hex}")
}

/// A block number as TypeScript reads one (`BlockNumberSchema`): a JSON number or a string of
/// decimal digits, below 2^32.
pub(crate) const BLOCK_NUMBER: Integer = Integer::lenient(u32::MAX as u128);

/// Reads a block number (see [`BLOCK_NUMBER`]).
pub(crate) fn read_block_number(raw: Raw<'_>) -> Result<BlockNumber, JsonError> {
    let value = raw.u64(BLOCK_NUMBER)?;
    // At most u32::MAX, so the conversion holds.
    BlockNumber::try_from(value).map_err(|_| {
        JsonError::from(raw.fault(Malformation::Number {
            value: Quoted::new(raw.text()),
            problem: super::fault::NumberProblem::AboveMax { max: BLOCK_NUMBER.max },
        }))
    })
}

/// The JSON forms `protocol` reads a snapshot's `nextAvailableLeafIndex` in: v6's
/// `TreeLeafIndexSchema` (a number or a decimal string, at most 2^53 − 1), 4.1.2's `UInt32` (a
/// JSON number below 2^32).
fn leaf_index(protocol: ProtocolVersion) -> Integer {
    let max = u128::from(protocol.max_snapshot_leaf_index());
    match protocol {
        ProtocolVersion::V6 => Integer::lenient(max),
        _ => Integer::number(max),
    }
}

/// A tree snapshot: `root`, and `nextAvailableLeafIndex` as `protocol` reads it.
pub(crate) fn read_snapshot(raw: Raw<'_>, protocol: ProtocolVersion) -> Result<TreeSnapshot, JsonError> {
    let object = raw.object("a tree snapshot", &["root", "nextAvailableLeafIndex"])?;
    Ok(TreeSnapshot {
        root: object.read("root", field)?,
        next_available_leaf_index: object
            .read("nextAvailableLeafIndex", |r| r.u64(leaf_index(protocol)).map_err(JsonError::from))?,
    })
}

/// A 20-byte Ethereum address as `EthAddress.schema` reads it (`isAddress`, then `isHex`), the
/// same in v6 and 4.1.2: `0x` (lower case, optional) and exactly 40 hex digits, either all of one
/// case, or of mixed case that is the address's EIP-55 checksum.
pub(crate) fn read_eth_address(raw: Raw<'_>) -> Result<[u8; 20], JsonError> {
    let text = raw.string()?;
    let digits = text.strip_prefix("0x").unwrap_or(&text);
    let bad = |expected| JsonError::from(raw.bad_value(expected, &text));
    // Every character a hex digit, checked first: `u8::from_str_radix` alone would take "+f".
    if digits.len() != 40 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(bad("a 20-byte address (0x + 40 hex digits)"));
    }
    if !eip55_case_holds(digits) {
        return Err(bad("a 20-byte address whose mixed case is its EIP-55 checksum"));
    }
    let bad = || bad("a 20-byte address (0x + 40 hex digits)");
    let mut out = [0u8; 20];
    for (byte, pair) in out.iter_mut().zip(digits.as_bytes().chunks_exact(2)) {
        let pair = std::str::from_utf8(pair).map_err(|_| bad())?;
        *byte = u8::from_str_radix(pair, 16).map_err(|_| bad())?;
    }
    Ok(out)
}

/// Whether 40 hex digits are of one case (digits count as both), or of mixed case that is their
/// EIP-55 checksum: letter `i` is upper case exactly when nibble `i` of the Keccak-256 hash of
/// the lower-case digits (as ASCII) is 8 or more (`EthAddress.checkAddressChecksum`). The one
/// reading of an address's case: the coinbase here, the rollup's address in `txfx-walk`.
pub fn eip55_case_holds(digits: &str) -> bool {
    let lower = !digits.bytes().any(|b| b.is_ascii_uppercase());
    let upper = !digits.bytes().any(|b| b.is_ascii_lowercase());
    if lower || upper {
        return true;
    }
    let hash = alloy_primitives::keccak256(digits.to_ascii_lowercase().as_bytes());
    digits.bytes().enumerate().all(|(i, b)| {
        let byte = hash.get(i / 2).copied().unwrap_or_default();
        let nibble = if i % 2 == 0 { byte >> 4 } else { byte & 0x0f };
        !b.is_ascii_alphabetic() || b.is_ascii_uppercase() == (nibble > 7)
    })
}

/// A slot number, as TypeScript's `SlotNumberSchema` reads it in v6 and in 4.1.2 alike (a
/// number, bigint or string, coerced with `Number()`, then a non-negative integer): a JSON
/// number, a string of decimal digits or of `0x` and hex digits (`new Fr(slot)`, as a node
/// prints it). At most 2^53 − 1: v6's zod 4 `.int()` refuses an unsafe integer, and 4.1.2
/// would read a neighbouring value above it.
const SLOT_NUMBER: Integer = Integer::coerced(MAX_SAFE_INTEGER as u128);

/// Reads a slot number (see [`SLOT_NUMBER`]) as the field element the header hashes.
fn read_slot_number(raw: Raw<'_>) -> Result<Fr, JsonError> {
    Ok(Fr::from(raw.u64(SLOT_NUMBER)?))
}

/// A `timestamp`: TypeScript's `UInt64`, a number or a decimal string.
const TIMESTAMP: Integer = Integer::lenient(u64::MAX as u128);

/// A gas fee: a bigint, a number or a decimal string of at most 128 bits.
const GAS_FEE: Integer = Integer::lenient(u128::MAX);

fn read_gas_fees(raw: Raw<'_>) -> Result<GasFees, JsonError> {
    let object = raw.object("gas fees", &["feePerDaGas", "feePerL2Gas"])?;
    Ok(GasFees {
        fee_per_da_gas: object.read("feePerDaGas", |r| r.integer(GAS_FEE).map_err(JsonError::from))?,
        fee_per_l2_gas: object.read("feePerL2Gas", |r| r.integer(GAS_FEE).map_err(JsonError::from))?,
    })
}

fn read_global_variables(raw: Raw<'_>) -> Result<GlobalVariables, JsonError> {
    let object = raw.object(
        "global variables",
        &[
            "chainId",
            "version",
            "blockNumber",
            "slotNumber",
            "timestamp",
            "coinbase",
            "feeRecipient",
            "gasFees",
        ],
    )?;
    Ok(GlobalVariables {
        chain_id: object.read("chainId", field)?,
        version: object.read("version", field)?,
        block_number: object.read("blockNumber", read_block_number)?,
        slot_number: object.read("slotNumber", read_slot_number)?,
        timestamp: object.read("timestamp", |r| r.u64(TIMESTAMP).map_err(JsonError::from))?,
        coinbase: object.read("coinbase", read_eth_address)?,
        fee_recipient: object.read("feeRecipient", field)?,
        gas_fees: object.read("gasFees", read_gas_fees)?,
    })
}

/// The keys of a header.
pub(crate) const HEADER_KEYS: [&str; 7] = [
    "lastArchive",
    "state",
    "spongeBlobHash",
    "txEffectsTreeRoot",
    "globalVariables",
    "totalFees",
    "totalManaUsed",
];

/// A header in either layout, its layout the one its keys give, its numbers as `protocol` reads
/// them.
fn read_any_header(raw: Raw<'_>, protocol: ProtocolVersion) -> Result<BlockHeader, JsonError> {
    let snapshot = |raw: Raw<'_>| read_snapshot(raw, protocol);
    let object = raw.object("a block header", &HEADER_KEYS)?;
    let (l1_to_l2, note_hash, nullifier, public_data) = object.read("state", |raw| {
        let state = raw.object("a header's state", &["l1ToL2MessageTree", "partial"])?;
        let l1_to_l2 = state.read("l1ToL2MessageTree", snapshot)?;
        let (note_hash, nullifier, public_data) = state.read("partial", |raw| {
            let partial =
                raw.object("a header's partial state", &["noteHashTree", "nullifierTree", "publicDataTree"])?;
            Ok::<_, JsonError>((
                partial.read("noteHashTree", snapshot)?,
                partial.read("nullifierTree", snapshot)?,
                partial.read("publicDataTree", snapshot)?,
            ))
        })?;
        Ok::<_, JsonError>((l1_to_l2, note_hash, nullifier, public_data))
    })?;
    Ok(BlockHeader {
        last_archive: object.read("lastArchive", snapshot)?,
        l1_to_l2_message_tree: l1_to_l2,
        note_hash_tree: note_hash,
        nullifier_tree: nullifier,
        public_data_tree: public_data,
        sponge_blob_hash: object.read("spongeBlobHash", field)?,
        tx_effects_tree_root: object.read_optional("txEffectsTreeRoot", field)?,
        global_variables: object.read("globalVariables", read_global_variables)?,
        total_fees: object.read("totalFees", field)?,
        total_mana_used: object.read("totalManaUsed", field)?,
    })
}

impl From<&BlockHeader> for HeaderJson {
    fn from(header: &BlockHeader) -> Self {
        let g = &header.global_variables;
        Self {
            last_archive: header.last_archive.into(),
            state: StateJson {
                l1_to_l2_message_tree: header.l1_to_l2_message_tree.into(),
                partial: PartialStateJson {
                    note_hash_tree: header.note_hash_tree.into(),
                    nullifier_tree: header.nullifier_tree.into(),
                    public_data_tree: header.public_data_tree.into(),
                },
            },
            sponge_blob_hash: header.sponge_blob_hash,
            tx_effects_tree_root: header.tx_effects_tree_root,
            global_variables: GlobalVariablesJson {
                chain_id: g.chain_id,
                version: g.version,
                block_number: g.block_number,
                slot_number: g.slot_number,
                timestamp: g.timestamp,
                coinbase: g.coinbase,
                fee_recipient: g.fee_recipient,
                gas_fees: GasFeesJson {
                    fee_per_da_gas: g.gas_fees.fee_per_da_gas,
                    fee_per_l2_gas: g.gas_fees.fee_per_l2_gas,
                },
            },
            total_fees: header.total_fees,
            total_mana_used: header.total_mana_used,
        }
    }
}

/// Reads a header as the node prints it, in `protocol`'s layout (module docs).
///
/// # Errors
/// [`JsonError::Malformed`] for JSON that is not a header, [`JsonError::Layout`] for a header of
/// the other layout.
pub fn header_from_json<'a>(
    input: impl Into<JsonInput<'a>>,
    protocol: ProtocolVersion,
) -> Result<BlockHeader, JsonError> {
    input.into().read(|raw| read_header(raw, protocol)).map_err(|error| error.expecting("a block header"))
}

/// A header in `protocol`'s layout: a header of the other layout is refused, never read as the
/// other.
pub(crate) fn read_header(raw: Raw<'_>, protocol: ProtocolVersion) -> Result<BlockHeader, JsonError> {
    let header = read_any_header(raw, protocol)?;
    if header.has_tx_effects_tree_root() != protocol.has_tx_effects_tree() {
        return Err(JsonError::Layout { expected: protocol });
    }
    Ok(header)
}

/// The header as the node prints it (`txEffectsTreeRoot` right after `spongeBlobHash` in the
/// AZIP-26 layout).
#[allow(clippy::expect_used, reason = "an internal invariant: a failure must be loud, never JSON null")]
pub fn header_to_json(header: &BlockHeader) -> Json {
    Json::from_serialize(&HeaderJson::from(header)).expect("invariant: a header always converts to JSON")
}
