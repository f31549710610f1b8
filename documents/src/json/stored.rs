//! The stored form of a block as JSON (`txfx block leaves` prints it, `txfx tree witness` reads
//! it). txfx's own format, so every level is strict: an unknown key is refused.
//!
//! ```json
//! {"blockNumber":7,"txEffectsTreeRoot":"0x..","txs":[{"txHash":"0x..","categoriesHash":"0x..","leaf":"0x.."}]}
//! ```

use serde::Serialize;
use txfx_membership::{StoredBlock, StoredTx};
use txfx_poseidon::Fr;
use txfx_poseidon::field::serde_hex;
use txfx_tx_effects::limits::MAX_TXS_PER_BLOCK;

use super::error::JsonError;
use super::fields::field;
use super::header::read_block_number;
use super::ordered::Json;
use super::wire::{JsonInput, Raw};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StoredTxJson {
    #[serde(with = "serde_hex")]
    tx_hash: Fr,
    #[serde(with = "serde_hex")]
    categories_hash: Fr,
    #[serde(with = "serde_hex")]
    leaf: Fr,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StoredBlockJson {
    block_number: u32,
    #[serde(with = "serde_hex")]
    tx_effects_tree_root: Fr,
    txs: Vec<StoredTxJson>,
}

fn read_stored_tx(raw: Raw<'_>) -> Result<StoredTx, JsonError> {
    let object = raw.object("a stored tx", &["txHash", "categoriesHash", "leaf"])?;
    object.strict()?;
    Ok(StoredTx {
        tx_hash: object.read("txHash", field)?,
        categories_hash: object.read("categoriesHash", field)?,
        leaf: object.read("leaf", field)?,
    })
}

/// A stored block (module docs), every level strict.
pub(crate) fn read_stored_block(raw: Raw<'_>) -> Result<StoredBlock, JsonError> {
    let object = raw.object("a stored block", &["blockNumber", "txEffectsTreeRoot", "txs"])?;
    object.strict()?;
    Ok(StoredBlock {
        block_number: object.read("blockNumber", read_block_number)?,
        tx_effects_tree_root: object.read("txEffectsTreeRoot", field)?,
        txs: object.read("txs", |raw| raw.items(MAX_TXS_PER_BLOCK, "a block", read_stored_tx))?,
    })
}

/// Reads a stored block (module docs). Only its shape: `BlockWitnesses::from_stored` checks that
/// it holds together before serving from it.
///
/// # Errors
/// [`JsonError::Malformed`] for JSON that is not a stored block, an unknown key included.
pub fn stored_block_from_json<'a>(input: impl Into<JsonInput<'a>>) -> Result<StoredBlock, JsonError> {
    input.into().read(read_stored_block).map_err(|error| error.expecting("a stored block"))
}

/// The stored block as JSON (module docs).
#[allow(clippy::expect_used, reason = "an internal invariant: a failure must be loud, never JSON null")]
pub fn stored_block_to_json(stored: &StoredBlock) -> Json {
    let json = StoredBlockJson {
        block_number: stored.block_number.get(),
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
    Json::from_serialize(&json).expect("invariant: a stored block always converts to JSON")
}
