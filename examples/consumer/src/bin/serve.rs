//! Serve witnesses, as a node does: commit a block once, then answer "where is tx H?" with the
//! node API's witness JSON.

use txfx_backend_native::NativeBackend;
use txfx_documents::json::witness_to_json;
use txfx_documents::txfx_membership::BlockWitnesses;
use txfx_documents::txfx_membership::txfx_poseidon::{Fr, field::fr_to_hex};
use txfx_documents::txfx_membership::txfx_tx_effects::{BlockNumber, Body, TxEffect, TxEffectFields};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A block of 16 txs with one nullifier each (a node reads its blocks with
    // `txfx_documents::json::body_from_json`).
    let effects = (1..=16u64)
        .map(|i| {
            let fields = TxEffectFields {
                tx_hash: Fr::from(0xab00 + i),
                nullifiers: vec![Fr::from(1000 + i)],
                ..Default::default()
            };
            TxEffect::new(fields)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let body = Body::new(effects);

    // One tree build serves every witness of the block, looked up by tx hash.
    let block = BlockWitnesses::from_body(&NativeBackend::new(), &body, BlockNumber::new(42))?;
    println!("block 42: txEffectsTreeRoot {}", fr_to_hex(&block.root()));
    let asked = body.tx_effects[5].tx_hash;
    let witness = block.witness_for_tx_hash(asked)?;
    println!("witness of tx {}: {}", fr_to_hex(&asked), witness_to_json(&witness));
    Ok(())
}
