//! The node walk at an L1 block hash, with real parts on loopback: anvil holding the v6-layout
//! stand-in rollup, the stub v6 node, and an L1 proxy that lies (`txfx_suite::l1proxy`). At a
//! hash the walk checks the block's header against the hash and reads the rollup's words by
//! storage proof against its state root, so no lie of the L1 node gets through: each is refused
//! at link `l1`, and the honest walk's verdict names the state root it rests on.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use std::time::Duration;

use serde_json::{Value, json};
use txfx_client::{ClientConfig, ClientError, verify_tx};
use txfx_documents::classify::{Classify, ErrorClass};
use txfx_documents::txfx_membership::txfx_poseidon::Sequential;
use txfx_documents::txfx_membership::txfx_poseidon::field::parse_fr_hex;
use txfx_suite::l1proxy::{LyingL1, ProxyLie};
use txfx_suite::testchain::{Lie, TestChain, rpc};
use txfx_walk::l1::BlockTag;
use txfx_walk::{Anchor, AnchorChoiceError, WalkError, WalkParams};

fn params(chain: &TestChain, block: u64, tag: BlockTag) -> WalkParams {
    let rollup = txfx_walk::l1::parse_address(&chain.rollup.address).expect("address");
    let tx = parse_fr_hex(&chain.chain.tx_of_block(block)).expect("hex");
    WalkParams::new(tx, Anchor::L1 { rollup, tag })
}

fn walk(chain: &TestChain, l1: &str, params: WalkParams) -> Result<Value, ClientError> {
    let config =
        ClientConfig::new(chain.node.url.clone(), Some(l1.to_owned())).with_timeout(Duration::from_secs(20));
    verify_tx(&Sequential, &config.expect("config"), params).map(|verdict| verdict.to_json().into())
}

/// The hash of the L1 block `tag` names, as anvil says, and that block's state root.
fn block_at(chain: &TestChain, tag: &str) -> (BlockTag, String) {
    let block = rpc(&chain.anvil.url, "eth_getBlockByNumber", json!([tag, false]));
    let hash = block["hash"].as_str().expect("a hash");
    (hash.parse().expect("a block hash"), block["stateRoot"].as_str().expect("a root").to_owned())
}

#[test]
fn at_a_block_hash_the_rollup_is_read_by_storage_proof() {
    let chain = TestChain::start(Lie::None);
    let (tag, state_root) = block_at(&chain, "finalized");
    for (block, checkpoint, finality) in [(1, 1, "proven"), (4, 2, "proven"), (5, 3, "checkpointed")] {
        let verdict = walk(&chain, &chain.anvil.url, params(&chain, block, tag)).expect("valid");
        assert_eq!(verdict["valid"], true, "{verdict}");
        assert_eq!(verdict["archiveRoot"], chain.chain.archive_at(checkpoint));
        let anchor = &verdict["anchor"];
        assert_eq!(anchor["l1Evidence"], "storageProof", "{verdict}");
        assert_eq!(anchor["l1StateRoot"], state_root);
        assert_eq!(anchor["l1BlockTag"], tag.name());
        assert_eq!(anchor["l1BlockHash"], tag.name());
        assert_eq!(
            (anchor["provenCheckpointNumber"].clone(), anchor["pendingCheckpointNumber"].clone()),
            (json!(2), json!(3))
        );
        assert_eq!(verdict["finality"], finality);
        // A hash says nothing of finality: the caller chose the block.
        assert_eq!(verdict["l1Finalized"], false);
    }
    // The same walk by tag reads by eth_call, and says so.
    let by_tag = walk(&chain, &chain.anvil.url, params(&chain, 4, BlockTag::Finalized)).expect("valid");
    assert_eq!(by_tag["anchor"]["l1Evidence"], "eth_call");
    // Through an honest proxy, the same.
    let proxy = LyingL1::start(&chain.anvil.url, ProxyLie::None);
    assert_eq!(walk(&chain, &proxy.url, params(&chain, 4, tag)).expect("valid")["valid"], true);
}

#[test]
fn every_lie_of_the_l1_node_at_a_block_hash_is_refused_at_link_l1() {
    let chain = TestChain::start(Lie::None);
    let (tag, _) = block_at(&chain, "finalized");
    for (lie, words) in [
        (ProxyLie::HeaderStateRoot, "not to the block hash"),
        (ProxyLie::ArchiveValue, "does not prove its value"),
        (ProxyLie::DroppedProofNode, "does not prove its value"),
        (ProxyLie::ProofAtGenesis, "does not prove its value"),
        (ProxyLie::SwappedStorageProofs, "was asked for there"),
    ] {
        let proxy = LyingL1::start(&chain.anvil.url, lie);
        match walk(&chain, &proxy.url, params(&chain, 4, tag)) {
            Err(error @ ClientError::Walk { .. }) => {
                assert_eq!(error.class(), ErrorClass::Refuted, "{lie:?}: {error}");
                assert_eq!(error.link(), Some("l1"), "{lie:?}: {error}");
                assert!(error.kind().starts_with("L1Proof/"), "{lie:?}: {}", error.kind());
                assert!(error.to_string().contains(words), "{lie:?}: {error}");
            }
            other => panic!("{lie:?}: a refusal at l1 expected, got {other:?}"),
        }
    }
}

#[test]
fn a_block_the_l1_node_lacks_an_address_without_a_rollup_and_a_registry_are_refused() {
    let chain = TestChain::start(Lie::None);
    // A hash no block has: the L1 node has nothing to prove, the endpoint's fault.
    let unknown: BlockTag = format!("0x{}", "ab".repeat(32)).parse().expect("a hash");
    match walk(&chain, &chain.anvil.url, params(&chain, 4, unknown)) {
        Err(ClientError::Walk { source, .. }) => {
            assert!(matches!(*source, WalkError::Nothing { .. }), "{source}");
            assert_eq!(source.class(), ErrorClass::Transport);
        }
        other => panic!("no block expected, got {other:?}"),
    }
    // An address without code (anvil's first account, funded) and one no account is at (proven
    // absent): no rollup is there, whatever the words read.
    let (tag, _) = block_at(&chain, "finalized");
    let tx = parse_fr_hex(&chain.chain.tx_of_block(4)).expect("hex");
    for address in
        ["0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", "0x00000000000000000000000000000000000a7ec0"]
    {
        let rollup = txfx_walk::l1::parse_address(address).expect("address");
        let error = walk(&chain, &chain.anvil.url, WalkParams::new(tx, Anchor::L1 { rollup, tag }))
            .expect_err(address);
        assert!(error.to_string().contains("no contract is at"), "{error}");
    }
    // A Registry's rollup is not read by proof yet: refused before anything is sent.
    let registry = txfx_walk::l1::parse_address(&chain.registry.address).expect("address");
    let names = txfx_walk::AnchorNames { rollup: None, registry: Some(registry), root: None, l1: true, tag };
    assert_eq!(Anchor::choose(names, None), Err(AnchorChoiceError::RegistryByHash));
    let refused = walk(&chain, "http://127.0.0.1:9", WalkParams::new(tx, Anchor::Registry { registry, tag }));
    match refused {
        Err(error) => assert_eq!(error.class(), ErrorClass::Malformed, "{error}"),
        Ok(verdict) => panic!("a Registry at a hash was taken: {verdict}"),
    }
}
