//! The stored form of a block as JSON (`txfx block leaves` prints it, `txfx tree witness` reads
//! it). txfx's own format, so every level is strict: an unknown key is refused.
//!
//! ```json
//! {"blockNumber":7,"txEffectsTreeRoot":"0x..","txs":[{"txHash":"0x..","categoriesHash":"0x..","leaf":"0x.."}]}
//! ```

use serde::{Deserialize, Serialize};
use serde_json::Value;
use txfx_membership::{StoredBlock, StoredTx};
use txfx_poseidon::Fr;
use txfx_poseidon::field::serde_hex;
use txfx_tx_effects::BlockNumber;
use txfx_tx_effects::limits::MAX_TXS_PER_BLOCK;

use super::JsonError;
use super::wire::{JsonInput, block_number, deserialize_at_most};

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct StoredTxJson {
    #[serde(with = "serde_hex")]
    tx_hash: Fr,
    #[serde(with = "serde_hex")]
    categories_hash: Fr,
    #[serde(with = "serde_hex")]
    leaf: Fr,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct StoredBlockJson {
    #[serde(with = "block_number")]
    block_number: BlockNumber,
    #[serde(with = "serde_hex")]
    tx_effects_tree_root: Fr,
    /// At most `MAX_TXS_PER_BLOCK`, read no further.
    #[serde(deserialize_with = "stored_txs")]
    txs: Vec<StoredTxJson>,
}

fn stored_txs<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<StoredTxJson>, D::Error> {
    deserialize_at_most(deserializer, MAX_TXS_PER_BLOCK)
}

/// Reads a stored block (module docs). Only its shape: `BlockWitnesses::from_stored` checks that
/// it holds together before serving from it.
///
/// # Errors
/// [`JsonError::Malformed`] for JSON that is not a stored block, an unknown key included.
pub fn stored_block_from_json<'a>(input: impl Into<JsonInput<'a>>) -> Result<StoredBlock, JsonError> {
    read_stored_block(input.into()).map_err(|error| error.expecting("a stored block"))
}

fn read_stored_block(input: JsonInput<'_>) -> Result<StoredBlock, JsonError> {
    let json: StoredBlockJson = input.parse()?;
    Ok(StoredBlock {
        block_number: json.block_number,
        tx_effects_tree_root: json.tx_effects_tree_root,
        txs: json
            .txs
            .into_iter()
            .map(|tx| StoredTx { tx_hash: tx.tx_hash, categories_hash: tx.categories_hash, leaf: tx.leaf })
            .collect(),
    })
}

/// The stored block as JSON (module docs).
#[allow(clippy::expect_used, reason = "an internal invariant: a failure must be loud, never JSON null")]
pub fn stored_block_to_json(stored: &StoredBlock) -> Value {
    let json = StoredBlockJson {
        block_number: stored.block_number,
        tx_effects_tree_root: stored.tx_effects_tree_root,
        txs: stored
            .txs
            .iter()
            .map(|tx| StoredTxJson {
                tx_hash: tx.tx_hash,
                categories_hash: tx.categories_hash,
                leaf: tx.leaf,
            })
            .collect(),
    };
    serde_json::to_value(json).expect("invariant: a stored block always converts to JSON")
}
