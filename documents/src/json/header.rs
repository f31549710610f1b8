//! Block headers as a node prints them: the `header` object of an `L2Block` (docs/spec.md §12.4).
//!
//! Numbers for the block number and leaf indices, decimal strings for the timestamp and gas fees,
//! `0x`-hex fields, a 20-byte coinbase (exactly 40 hex digits). Unknown keys (such as the
//! `"_cachedHash":{}` of a header already hashed) are ignored, as TypeScript's
//! `BlockHeader.schema` ignores them. The layout is the caller's to name: a header of the other
//! layout (a `txEffectsTreeRoot` key present or missing) is refused ([`JsonError::Layout`]),
//! never read as the other.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use txfx_membership::{BlockHeader, GasFees, GlobalVariables, ProtocolVersion, TreeSnapshot};
use txfx_poseidon::Fr;
use txfx_poseidon::field::serde_hex;
use txfx_tx_effects::BlockNumber;

use super::JsonError;
use super::wire::{JsonInput, block_number, decimal_string, lenient_u64, lenient_u128};

/// A tree snapshot (`{"root", "nextAvailableLeafIndex"}`).
#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SnapshotJson {
    #[serde(with = "serde_hex")]
    root: Fr,
    /// 32 bits, as TypeScript's schema (`UInt32`) reads it.
    next_available_leaf_index: u32,
}

impl From<SnapshotJson> for TreeSnapshot {
    fn from(json: SnapshotJson) -> Self {
        Self { root: json.root, next_available_leaf_index: json.next_available_leaf_index }
    }
}

impl From<TreeSnapshot> for SnapshotJson {
    fn from(snapshot: TreeSnapshot) -> Self {
        Self { root: snapshot.root, next_available_leaf_index: snapshot.next_available_leaf_index }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct GasFeesJson {
    #[serde(deserialize_with = "lenient_u128::deserialize", serialize_with = "decimal_string")]
    fee_per_da_gas: u128,
    #[serde(deserialize_with = "lenient_u128::deserialize", serialize_with = "decimal_string")]
    fee_per_l2_gas: u128,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct GlobalVariablesJson {
    #[serde(with = "serde_hex")]
    chain_id: Fr,
    #[serde(with = "serde_hex")]
    version: Fr,
    #[serde(with = "block_number")]
    block_number: BlockNumber,
    #[serde(with = "serde_hex")]
    slot_number: Fr,
    #[serde(deserialize_with = "lenient_u64::deserialize", serialize_with = "decimal_string")]
    timestamp: u64,
    #[serde(with = "eth_address")]
    coinbase: [u8; 20],
    #[serde(with = "serde_hex")]
    fee_recipient: Fr,
    gas_fees: GasFeesJson,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct HeaderJson {
    last_archive: SnapshotJson,
    state: StateJson,
    #[serde(with = "serde_hex")]
    sponge_blob_hash: Fr,
    #[serde(default, skip_serializing_if = "Option::is_none", with = "serde_hex::option")]
    tx_effects_tree_root: Option<Fr>,
    global_variables: GlobalVariablesJson,
    #[serde(with = "serde_hex")]
    total_fees: Fr,
    #[serde(with = "serde_hex")]
    total_mana_used: Fr,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct StateJson {
    l1_to_l2_message_tree: SnapshotJson,
    partial: PartialStateJson,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PartialStateJson {
    note_hash_tree: SnapshotJson,
    nullifier_tree: SnapshotJson,
    public_data_tree: SnapshotJson,
}

/// A 20-byte Ethereum address as `0x` + exactly 40 hex digits.
mod eth_address {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<[u8; 20], D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        let digits = text.strip_prefix("0x").unwrap_or(&text);
        let bad =
            || serde::de::Error::custom(format!("{text:?} is not a 20-byte address (0x + 40 hex digits)"));
        // Every character a hex digit, checked first: `u8::from_str_radix` alone would take "+f".
        if digits.len() != 40 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad());
        }
        let mut out = [0u8; 20];
        for (byte, pair) in out.iter_mut().zip(digits.as_bytes().chunks_exact(2)) {
            let pair = std::str::from_utf8(pair).map_err(|_| bad())?;
            *byte = u8::from_str_radix(pair, 16).map_err(|_| bad())?;
        }
        Ok(out)
    }

    pub(super) fn serialize<S: Serializer>(value: &[u8; 20], serializer: S) -> Result<S::Ok, S::Error> {
        let hex: String = value.iter().map(|b| format!("{b:02x}")).collect();
        serializer.serialize_str(&format!("0x{hex}"))
    }
}

impl From<HeaderJson> for BlockHeader {
    fn from(json: HeaderJson) -> Self {
        let g = json.global_variables;
        Self {
            last_archive: json.last_archive.into(),
            l1_to_l2_message_tree: json.state.l1_to_l2_message_tree.into(),
            note_hash_tree: json.state.partial.note_hash_tree.into(),
            nullifier_tree: json.state.partial.nullifier_tree.into(),
            public_data_tree: json.state.partial.public_data_tree.into(),
            sponge_blob_hash: json.sponge_blob_hash,
            tx_effects_tree_root: json.tx_effects_tree_root,
            global_variables: GlobalVariables {
                chain_id: g.chain_id,
                version: g.version,
                block_number: g.block_number,
                slot_number: g.slot_number,
                timestamp: g.timestamp,
                coinbase: g.coinbase,
                fee_recipient: g.fee_recipient,
                gas_fees: GasFees {
                    fee_per_da_gas: g.gas_fees.fee_per_da_gas,
                    fee_per_l2_gas: g.gas_fees.fee_per_l2_gas,
                },
            },
            total_fees: json.total_fees,
            total_mana_used: json.total_mana_used,
        }
    }
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

/// Reads a header as the node prints it, in the layout `layout` says (module docs).
///
/// # Errors
/// [`JsonError::Malformed`] for JSON that is not a header, [`JsonError::Layout`] for a header of
/// the other layout.
pub fn header_from_json<'a>(
    input: impl Into<JsonInput<'a>>,
    layout: ProtocolVersion,
) -> Result<BlockHeader, JsonError> {
    read_header(input.into(), layout).map_err(|error| error.expecting("a block header"))
}

fn read_header(input: JsonInput<'_>, layout: ProtocolVersion) -> Result<BlockHeader, JsonError> {
    let json: HeaderJson = input.parse()?;
    if json.tx_effects_tree_root.is_some() != (layout == ProtocolVersion::Azip26) {
        return Err(JsonError::Layout { expected: layout });
    }
    Ok(json.into())
}

/// The header as the node prints it (`txEffectsTreeRoot` right after `spongeBlobHash` in the
/// AZIP-26 layout).
#[allow(clippy::expect_used, reason = "an internal invariant: a failure must be loud, never JSON null")]
pub fn header_to_json(header: &BlockHeader) -> Value {
    serde_json::to_value(HeaderJson::from(header)).expect("invariant: a header always converts to JSON")
}
