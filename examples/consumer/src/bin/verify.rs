//! Verify what a node sent, as a wallet or a bridge does: trust only the archive root L1 holds,
//! and check every link from it down to one tx (the CLI's `txfx verify tx`; `txfx-client` does
//! the same walk asking the node and L1 itself).

use txfx_backend_native::NativeBackend;
use txfx_documents::txfx_membership::txfx_poseidon::Fr;
use txfx_documents::txfx_membership::txfx_poseidon::field::{fr_to_hex, parse_fr_hex};
use txfx_documents::txfx_membership::txfx_tx_effects::{BlockNumber, TxEffect};
use txfx_documents::txfx_membership::{ChainSubject, ProtocolVersion, TrustedArchiveRoot, verify_chain};
use txfx_documents::{Doc, read};

// What each party holds, here the repository's Aztec v6 chain (block 4, in checkpoint 2): the
// archive root L1's rollup holds for checkpoint 2 (`archiveAt(2)`), and the node's JSON-RPC
// answers as they came.
const ARCHIVE_ROOT: &str = "0x2be9c16ef583951a1a04a03532643e38b34f3252c759bc8225a096e2e16442e0";
const ARCHIVE_WITNESS: &str =
    include_str!("../../../../testdata/v6/rpc/getBlockHashMembershipWitness-R5-block4.response.json");
const BLOCK: &str = include_str!("../../../../testdata/v6/rpc/getBlockData-block4.response.json");
const TX_WITNESS: &str =
    include_str!("../../../../testdata/v6/rpc/getTxEffectMembershipWitness-block4-tx0.response.json");
const RECEIPT: &str =
    include_str!("../../../../testdata/v6/rpc/getTxReceipt-block4-tx0-with-tx-effect.response.json");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let native = NativeBackend::new();
    let v6 = ProtocolVersion::V6;
    let root = TrustedArchiveRoot::from_trusted_source(parse_fr_hex(ARCHIVE_ROOT)?);
    // Every answer is read the one way Aztec v6's TypeScript reads it, or refused; a block's own
    // claims (its hash) are checked against its header as it is read.
    let archive_witness = read::archive_witness(Doc::text("archive witness", ARCHIVE_WITNESS))?;
    let header = read::header(&native, Doc::text("block data", BLOCK), v6)?.header;
    let tx_witness = read::witness(Doc::text("tx-effects witness", TX_WITNESS), v6)?;
    let effect = read::effect(Doc::text("receipt", RECEIPT), v6)?.effect;

    // The same chain of answers, checked for whichever effect is claimed to be the tx's.
    let chain_for = |effect: &TxEffect| {
        verify_chain(&native, v6, root, &archive_witness, &header, &tx_witness, ChainSubject::Effect(effect))
    };
    let verdict = chain_for(&effect)?;
    // The verdict names what was proven: compare it with what you asked for (here: this tx, in
    // block 4), never with what the answers claim.
    let proven_tx = verdict.proven.tx().tx_hash;
    if verdict.block.block_number != BlockNumber::new(4) || proven_tx != Some(effect.tx_hash) {
        return Err(format!("the chain proves another block or tx: {verdict:?}").into());
    }
    println!(
        "tx {} is in block {} (hash {}) under archive root {}",
        fr_to_hex(&effect.tx_hash),
        verdict.block.block_number,
        fr_to_hex(&verdict.block.block_hash),
        fr_to_hex(&verdict.block.archive_root),
    );

    // A node that changes the effect is caught, and the broken link named.
    let mut forged = effect.into_fields();
    forged.nullifiers.push(Fr::from(0x99u64));
    let forged = TxEffect::new(forged)?;
    match chain_for(&forged) {
        Err(error) => println!(
            "a forged effect is refused at the {} link: {error}",
            error.link().map_or("?", |l| l.name())
        ),
        Ok(_) => return Err("a forged effect verified".into()),
    }
    Ok(())
}
