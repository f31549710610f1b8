//! Verify what a node sent, as a wallet or a bridge does: trust only the archive root L1 holds,
//! and check every link from it down to one tx (the CLI's `txfx verify tx`).

use txfx_backend_native::NativeBackend;
use txfx_documents::json::{effect_from_json, header_from_json, witness_from_json};
use txfx_documents::txfx_membership::txfx_poseidon::Fr;
use txfx_documents::txfx_membership::txfx_poseidon::field::{fr_to_hex, parse_fr_hex};
use txfx_documents::txfx_membership::txfx_tx_effects::{BlockNumber, TxEffect};
use txfx_documents::txfx_membership::{ChainSubject, ProtocolVersion, TrustedArchiveRoot, verify_chain};
use txfx_documents::{Doc, read};

// What each party holds, here the repository's bundled chain (block 3 of a chain Aztec's
// TypeScript built): the archive root read from L1's rollup contract, and what a node answered.
const ARCHIVE_ROOT: &str = include_str!("../../../../testdata/chain/archive-root.txt");
const ARCHIVE_WITNESS: &str = include_str!("../../../../testdata/chain/archive-witness-3.json"); // getBlockHashMembershipWitness
const HEADER: &str = include_str!("../../../../testdata/chain/header-3.json"); // getBlock(3).header
const TX_WITNESS: &str = include_str!("../../../../testdata/chain/tx-witness-3-1.json"); // getTxEffectMembershipWitness
const EFFECT: &str = include_str!("../../../../testdata/effects/small.json"); // getTxEffect(...).data

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let native = NativeBackend::new();
    let root = TrustedArchiveRoot::from_trusted_source(parse_fr_hex(ARCHIVE_ROOT.trim())?);
    // The node's answer as it came, JSON-RPC envelope and all; every document is read the one way
    // Aztec's TypeScript reads it, or refused.
    let archive_witness = read::archive_witness(Doc::text("archive witness", ARCHIVE_WITNESS))?;
    let header = header_from_json(HEADER, ProtocolVersion::Azip26)?;
    let tx_witness = witness_from_json(TX_WITNESS)?;
    let effect = effect_from_json(EFFECT)?;

    let verdict =
        verify_chain(&native, root, &archive_witness, &header, &tx_witness, ChainSubject::Effect(&effect))?;
    // The verdict names what was proven: compare it with what you asked for (here: this tx, in
    // block 3), never with what the files claim.
    let proven_tx = verdict.proven.tx().tx_hash;
    if verdict.block.block_number != BlockNumber::new(3) || proven_tx != Some(effect.tx_hash) {
        return Err(format!("the chain proves another block or tx: {verdict:?}").into());
    }
    println!(
        "tx {} is in block {} (hash {}) under archive root {}",
        fr_to_hex(&effect.tx_hash),
        verdict.block.block_number,
        fr_to_hex(&verdict.block.block_hash),
        fr_to_hex(&verdict.block.archive_root),
    );

    // A node that changes one nullifier of the effect is caught, and the broken link named.
    let mut forged = effect.into_fields();
    forged.nullifiers[0] += Fr::from(1u64);
    let forged = TxEffect::new(forged)?;
    let refused =
        verify_chain(&native, root, &archive_witness, &header, &tx_witness, ChainSubject::Effect(&forged));
    match refused {
        Err(error) => println!(
            "a forged effect is refused at the {} link: {error}",
            error.link().map_or("?", |l| l.name())
        ),
        Ok(_) => return Err("a forged effect verified".into()),
    }
    Ok(())
}
