//! The README's library example, as a program in a crate of its own: build a block's witnesses
//! with the native backend and verify one tx against the block's root.

use txfx_backend_native::NativeBackend;
use txfx_membership::txfx_poseidon::{Fr, field::fr_to_hex};
use txfx_membership::txfx_tx_effects::{BlockNumber, Body, TxEffect, TxEffectFields};
use txfx_membership::{BlockWitnesses, TrustedRoot, TxClaim, verify_tx};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A block of 16 txs with one nullifier each (in practice: `txfx_documents::json::body_from_json`).
    let effects = (1..=16u64)
        .map(|i| {
            let fields = TxEffectFields {
                tx_hash: Fr::from(i),
                nullifiers: vec![Fr::from(1000 + i)],
                ..Default::default()
            };
            TxEffect::new(fields)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let body = Body::new(effects);

    let native = NativeBackend::new();
    let block = BlockWitnesses::from_body(&native, &body, BlockNumber::new(42))?; // one tree build serves every witness
    println!("txEffectsTreeRoot {}", fr_to_hex(&block.root()));

    let witness = block.witness(5)?;
    // Verify against the txEffectsTreeRoot of a header you have authenticated, never the
    // witness's own `root`; here the block was just built, so its root stands in for it.
    let root = TrustedRoot::from_authenticated_header(block.root());
    let tx = TxClaim { tx_hash: Fr::from(6u64), categories_hash: None };
    let proven = verify_tx(&native, tx, &witness, root)?;
    println!(
        "tx {} verified at leaf index {} of block {}",
        fr_to_hex(&tx.tx_hash),
        proven.leaf_index,
        witness.block_number
    );
    Ok(())
}
