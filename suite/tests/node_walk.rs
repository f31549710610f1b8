//! The node walk with real parts on loopback (`txfx_suite::testchain`): anvil holding the
//! stand-in rollup with the v6 chain's archives, and a stub v6 node answering over HTTP — honest,
//! or lying in each way a node can. Every case names the verdict or the error it must get.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use std::time::Duration;

use serde_json::Value;
use txfx_client::{ClientConfig, ClientError, TransportProblem, verify_tx};
use txfx_documents::Expected;
use txfx_documents::classify::{Classify, ErrorClass};
use txfx_documents::txfx_membership::txfx_poseidon::field::parse_fr_hex;
use txfx_documents::txfx_membership::txfx_poseidon::{Fr, Sequential};
use txfx_documents::txfx_membership::txfx_tx_effects::{BlockNumber, Category};
use txfx_documents::txfx_membership::{ElementQuery, Network};
use txfx_suite::testchain::{Lie, TestChain};
use txfx_walk::l1::BlockTag;
use txfx_walk::{Anchor, Namespace, WalkError, WalkParams, WalkSubject};

fn fr(hex: &str) -> Fr {
    parse_fr_hex(hex).expect("hex")
}

fn params(chain: &TestChain, block: u64, tag: BlockTag) -> WalkParams {
    let rollup = txfx_walk::l1::parse_address(&chain.rollup.address).expect("address");
    WalkParams::new(fr(&chain.chain.tx_of_block(block)), Anchor::L1 { rollup, tag })
}

fn config(chain: &TestChain) -> ClientConfig {
    let mut config = ClientConfig::new(chain.node.url.clone(), Some(chain.anvil.url.clone()));
    config.timeout = Duration::from_secs(20);
    config
}

fn walk(chain: &TestChain, params: WalkParams) -> Result<Value, ClientError> {
    verify_tx(&Sequential, &config(chain), params).map(|verdict| verdict.to_json().into())
}

/// The block hash chain.json gives block `block`.
fn block_hash(chain: &TestChain, block: u64) -> String {
    chain.chain.json["blocks"].as_array().unwrap().iter().find(|b| b["number"] == block).unwrap()["header"]["hash"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// A refusal whose link is `link` (the walk's, or its document error's).
fn refused_at(result: Result<Value, ClientError>, link: &str) -> String {
    match result {
        Err(error @ ClientError::Walk { .. }) => {
            assert_eq!(error.link(), Some(link), "refused at another link: {error}");
            assert_eq!(error.class(), ErrorClass::Refuted, "{error}");
            error.to_string()
        }
        Err(other) => panic!("a {link} refusal expected, got {other}"),
        Ok(verdict) => panic!("a {link} refusal expected, got a verdict: {verdict}"),
    }
}

/// The endpoint's fault: no usable answer, class `Transport` (the CLI's exit 4), never the
/// caller's malformed input; the error names the endpoint.
fn unusable(result: Result<Value, ClientError>) -> (WalkError, String) {
    match result {
        Err(ClientError::Walk { endpoint, source }) => {
            assert_eq!(source.class(), ErrorClass::Transport, "{source}");
            assert_eq!(source.link(), None, "{source}");
            let (_, url) = endpoint.expect("the endpoint is named");
            assert!(url.starts_with("http://127.0.0.1:"), "{url}");
            let text = source.to_string();
            (*source, text)
        }
        Err(other) => panic!("an unusable answer expected, got {other}"),
        Ok(verdict) => panic!("an unusable answer expected, got a verdict: {verdict}"),
    }
}

#[test]
fn an_honest_node_proves_a_tx_of_each_checkpoint_with_its_finality() {
    let chain = TestChain::start(Lie::None);
    for (block, checkpoint, finality) in
        [(1, 1, "proven"), (4, 2, "proven"), (5, 3, "checkpointed"), (7, 3, "checkpointed")]
    {
        let verdict = walk(&chain, params(&chain, block, BlockTag::Finalized)).expect("valid");
        assert_eq!(verdict["valid"], true);
        assert_eq!(verdict["proves"], "tx");
        assert_eq!(verdict["protocol"], "v6");
        assert_eq!(verdict["blockNumber"], block, "{verdict}");
        assert_eq!(verdict["blockHash"], block_hash(&chain, block));
        assert_eq!(verdict["txHash"], chain.chain.tx_of_block(block));
        assert_eq!(verdict["archiveRoot"], chain.chain.archive_at(checkpoint));
        assert_eq!(verdict["anchor"]["checkpointNumber"], checkpoint);
        assert_eq!(verdict["anchor"]["provenCheckpointNumber"], 2);
        assert_eq!(verdict["anchor"]["pendingCheckpointNumber"], 3);
        assert_eq!(verdict["anchor"]["l1BlockTag"], "finalized");
        assert_eq!(verdict["finality"], finality);
        assert_eq!(verdict["l1Finalized"], true);
        assert_eq!(verdict["witnessSource"], "node");
        // The node's claims, checked: the slot against the header, the index against the body.
        assert_eq!(verdict["txIndexInBlock"], 0);
        assert!(verdict["slotNumber"].is_number());
        // What only L1 or nothing can confirm stays a claim.
        let unverified = &verdict["unverified"];
        assert!(unverified["status"].is_string() && unverified["epochNumber"].is_number(), "{verdict}");
        assert_eq!(unverified["checkpointNumber"], checkpoint);
    }
}

#[test]
fn a_tx_whose_checkpoint_is_not_on_l1_or_has_no_next_block_is_answered_clearly() {
    let chain = TestChain::start(Lie::None);
    // Block 8 is in checkpoint 4, which L1 does not have.
    let text = refused_at(walk(&chain, params(&chain, 8, BlockTag::Finalized)), "l1");
    assert!(text.contains("checkpoint 4") && text.contains("not on L1"), "{text}");
    // A node whose newest block is 7, the last of checkpoint 3: no reference block yet.
    let tip = TestChain::start(Lie::TipAtBlock7);
    let text = refused_at(walk(&tip, params(&tip, 7, BlockTag::Finalized)), "archive");
    assert!(text.contains("block 7 ends checkpoint 3") && text.contains("block 8"), "{text}");
}

#[test]
fn finality_follows_the_l1_block_read() {
    let chain = TestChain::start(Lie::None);
    // Checkpoint 3 proven in the newest L1 block only: `latest` sees it, `finalized` does not.
    chain.rollup.prove(&chain.anvil, 3);
    let latest = walk(&chain, params(&chain, 5, BlockTag::Latest)).expect("valid");
    assert_eq!((latest["finality"].as_str(), latest["l1Finalized"].as_bool()), (Some("proven"), Some(false)));
    let finalized = walk(&chain, params(&chain, 5, BlockTag::Finalized)).expect("valid");
    assert_eq!(finalized["finality"], "checkpointed");
    assert!(finalized["anchor"]["l1BlockNumber"].as_u64() < latest["anchor"]["l1BlockNumber"].as_u64());
}

#[test]
fn element_proofs_expectations_and_a_given_root() {
    let chain = TestChain::start(Lie::None);
    // One element: block 1's tx is the small fixture, whose nullifier 0x15 the proof names.
    let element = params(&chain, 1, BlockTag::Finalized).with_subject(WalkSubject::Category(
        Category::Nullifiers,
        Some(ElementQuery { value: Fr::from(0x15u64), role: None }),
    ));
    let verdict = walk(&chain, element).expect("valid");
    assert_eq!(
        (verdict["proves"].as_str(), verdict["category"].as_str()),
        (Some("element"), Some("nullifiers"))
    );
    assert_eq!(verdict["element"]["value"], format!("0x{:064x}", 0x15));
    // Expectations: met, then not.
    let mut expect = params(&chain, 4, BlockTag::Finalized);
    expect.expected = Expected::default()
        .with_block_number(Some(BlockNumber::new(4)))
        .with_block_hash(Some(fr(&block_hash(&chain, 4))));
    walk(&chain, expect.clone()).expect("the block expected");
    expect.expected.block_number = Some(BlockNumber::new(5));
    refused_at(walk(&chain, expect), "expected");
    // A root the caller gives: L1 is not asked, and the verdict says the finality is theirs.
    let mut given = params(&chain, 4, BlockTag::Finalized);
    given.anchor = Anchor::Given(fr(&chain.chain.archive_at(2)));
    let config = ClientConfig::new(chain.node.url.clone(), None);
    let verdict = verify_tx(&Sequential, &config, given.clone()).expect("valid").to_json();
    assert_eq!(verdict["finality"], "given");
    assert!(verdict["anchor"].get("l1BlockNumber").is_none());
    // Nothing says which checkpoint a given root is the archive of: the node's word for it is
    // listed unverified, not named in the anchor.
    assert!(verdict["anchor"].get("checkpointNumber").is_none(), "{verdict}");
    assert_eq!(verdict["unverified"]["checkpointNumber"], 2);
    // Another root than the archive of the tx's checkpoint is not the one the node proves against.
    given.anchor = Anchor::Given(fr(&chain.chain.archive_at(1)));
    refused_at(verify_tx(&Sequential, &config, given).map(|v| v.to_json().into()), "node");
}

#[test]
fn the_network_check_finds_a_wrong_rollup() {
    let chain = TestChain::start(Lie::None);
    let canonical =
        params(&chain, 1, BlockTag::Finalized).with_network(Network::named("canonical").expect("built in"));
    walk(&chain, canonical).expect("the stand-in holds the canonical genesis archive");
    // Testnet's genesis, without its L1 deployment (whose chain, Sepolia, anvil is not: the next
    // test's refusal).
    let mut testnet = Network::named("testnet").expect("built in");
    testnet.l1 = None;
    let testnet = params(&chain, 1, BlockTag::Finalized).with_network(testnet);
    let text = refused_at(walk(&chain, testnet), "l1");
    assert!(text.contains("archiveAt(0)") && text.contains("testnet"), "{text}");
}

#[test]
fn a_network_the_walk_cannot_check_is_refused_before_any_request() {
    let chain = TestChain::start(Lie::None);
    let canonical = Network::named("canonical").expect("built in");
    // A network that pins neither a genesis archive root nor an L1 deployment: checking it would
    // check nothing.
    let mut nothing = canonical.clone();
    nothing.genesis_archive_root = None;
    let cases = [
        ("pins no genesis archive root", nothing, false),
        ("not a v6 network", Network::named("canonical-4.1.2").expect("built in"), false),
        ("the anchor is a given root", canonical.clone(), true),
    ];
    for (words, network, given) in cases {
        let mut asked = params(&chain, 1, BlockTag::Finalized);
        if given {
            asked.anchor = Anchor::Given(fr(&chain.chain.archive_at(1)));
        }
        asked.network = Some(network);
        match walk(&chain, asked) {
            Err(error @ ClientError::Walk { .. })
                if matches!(error.walk(), Some(WalkError::Network { .. })) =>
            {
                assert!(error.to_string().contains(words), "{error}");
                assert_eq!(error.link(), None, "nothing was refuted");
                assert_eq!(error.class(), ErrorClass::Malformed, "the caller's parameters");
            }
            other => panic!("{words}: {other:?}"),
        }
    }
    assert!(chain.node.asked.lock().unwrap().is_empty(), "no request was sent");
    // A network that is checked is named in the verdict, with what L1 holds.
    let checked = params(&chain, 1, BlockTag::Finalized).with_network(canonical.clone());
    let verdict = walk(&chain, checked).expect("valid");
    assert_eq!(verdict["anchor"]["genesis"]["network"], "canonical");
    assert_eq!(
        verdict["anchor"]["genesis"]["archiveAt0"].as_str().map(fr),
        canonical.genesis_archive_root,
        "{verdict}"
    );
}

#[test]
fn an_l1_block_asked_by_number_is_the_block_every_call_reads() {
    let chain = TestChain::start(Lie::None);
    let latest = walk(&chain, params(&chain, 4, BlockTag::Latest)).expect("valid");
    let number = latest["anchor"]["l1BlockNumber"].as_u64().expect("a number");
    let pinned = walk(&chain, params(&chain, 4, BlockTag::Number(number))).expect("valid");
    assert_eq!(pinned["anchor"]["l1BlockHash"], latest["anchor"]["l1BlockHash"]);
    assert_eq!(pinned["anchor"]["l1BlockNumber"], number);
    // A block past L1's head: the L1 node has none, and says so.
    let (error, _) = unusable(walk(&chain, params(&chain, 4, BlockTag::Number(number + 1000))));
    assert!(matches!(error, WalkError::Nothing { target: txfx_walk::Target::L1, .. }), "{error}");
}

#[test]
fn an_l1_that_holds_another_archive_refutes_the_archive_link() {
    let chain = TestChain::start(Lie::None);
    chain.rollup.set_archive(&chain.anvil, 2, &format!("0x{:064x}", 0x42));
    chain.anvil.mine(2);
    // The node's next checkpoint starts from the chain's archive, not the one L1 now holds.
    let text = refused_at(walk(&chain, params(&chain, 4, BlockTag::Finalized)), "node");
    assert!(text.contains("anchor"), "{text}");
}

#[test]
fn a_node_that_lies_is_refused_at_the_link_it_broke() {
    for (lie, block, link, words) in [
        (Lie::ForgedEffect, 1, "tx", "categories hash"),
        (Lie::AnotherBlock, 4, "node", "block the node answered getBlock with"),
        (Lie::BlockResponseHash, 4, "header", "hash"),
        (Lie::BlockResponseNumber, 4, "header", "number"),
        (Lie::ReceiptBlockHash, 4, "effect", "blockHash"),
        (Lie::WitnessOfAnotherTx, 4, "witness", "the header is of block 4"),
        (Lie::StaleArchive, 5, "archive", "archive root mismatch"),
        (Lie::FutureArchive, 4, "archive", "archive root mismatch"),
        (Lie::WrongReferenceBlock, 4, "node", "the block the node answered getBlockData with"),
        (Lie::ForgedReferenceHeader, 4, "header", "blockHash"),
    ] {
        let chain = TestChain::start(lie);
        let result = walk(&chain, params(&chain, block, BlockTag::Finalized));
        let text = refused_at(result, link);
        assert!(text.contains(words), "{lie:?}: {text}");
    }
}

#[test]
fn a_receipt_that_claims_proven_is_a_claim_the_verdict_lists_not_a_fact() {
    let chain = TestChain::start(Lie::ReceiptClaimsProven);
    let verdict = walk(&chain, params(&chain, 5, BlockTag::Finalized)).expect("valid");
    assert_eq!(verdict["finality"], "checkpointed", "L1 says so, whatever the node claims");
    assert_eq!(verdict["unverified"]["status"], "proven");
}

#[test]
fn nodes_that_answer_differently_but_honestly_are_read() {
    for lie in [Lie::NoWitnessMethod, Lie::LegacyNamespace, Lie::OutOfOrder] {
        let chain = TestChain::start(lie);
        let verdict =
            walk(&chain, params(&chain, 4, BlockTag::Finalized)).unwrap_or_else(|e| panic!("{lie:?}: {e}"));
        assert_eq!(verdict["blockNumber"], 4, "{lie:?}");
        let asked = chain.node.asked.lock().unwrap().clone();
        match lie {
            Lie::NoWitnessMethod => {
                assert_eq!(verdict["witnessSource"], "body");
                assert_eq!(verdict["witnessFallback"], "method not found");
            }
            Lie::LegacyNamespace => {
                assert!(asked.iter().skip(1).all(|m| m.starts_with("node_")), "{asked:?}");
            }
            _ => {}
        }
    }
    // A forced namespace is used from the first request.
    let chain = TestChain::start(Lie::LegacyNamespace);
    let forced = params(&chain, 1, BlockTag::Finalized).with_namespace(Namespace::Node);
    walk(&chain, forced).expect("valid");
    assert!(chain.node.asked.lock().unwrap().iter().all(|m| m.starts_with("node_")));
}

#[test]
fn hostile_transport_is_bounded_and_named() {
    // Truncated answers, and HTML with HTTP 200, are the node's fault: no usable answer.
    for lie in [Lie::Truncated, Lie::NotJson] {
        let chain = TestChain::start(lie);
        let (error, text) = unusable(walk(&chain, params(&chain, 1, BlockTag::Finalized)));
        assert!(matches!(error, WalkError::Answer { .. }) && text.contains("not JSON"), "{lie:?}: {text}");
    }
    // Past the receipt's bound (one tx's blob data, about 1.1 MB): reading stops there.
    let chain = TestChain::start(Lie::Oversized(4_000_000));
    let (error, _) = unusable(walk(&chain, params(&chain, 1, BlockTag::Finalized)));
    assert!(
        matches!(error, WalkError::Transport { problem: TransportProblem::TooLarge { limit }, .. } if limit < 2_000_000),
        "an oversized answer: {error}"
    );
    // Slow: the walk's deadline.
    let chain = TestChain::start(Lie::Slow(3_000));
    let hurried = config(&chain).with_timeout(Duration::from_millis(500)).expect("a deadline");
    let result = verify_tx(&Sequential, &hurried, params(&chain, 1, BlockTag::Finalized));
    let (error, _) = unusable(result.map(|v| v.to_json().into()));
    assert!(
        matches!(error, WalkError::Transport { problem: TransportProblem::Timeout { .. }, .. }),
        "{error}"
    );
    // An HTTP error status, a redirect and a JSON-RPC error answer: no answer to read.
    let chain = TestChain::start(Lie::BadGateway);
    let (error, _) = unusable(walk(&chain, params(&chain, 1, BlockTag::Finalized)));
    assert!(matches!(error, WalkError::Http { status: 502, .. }), "{error}");
    let chain = TestChain::start(Lie::Redirect);
    let (error, _) = unusable(walk(&chain, params(&chain, 1, BlockTag::Finalized)));
    assert!(
        matches!(error, WalkError::Transport { problem: TransportProblem::Redirect { status: 302 }, .. }),
        "{error}"
    );
    // 4.1.2's L2Block where v6 answers a block response: a document of another shape.
    let chain = TestChain::start(Lie::L2BlockAnswer);
    let (error, text) = unusable(walk(&chain, params(&chain, 4, BlockTag::Finalized)));
    assert!(
        matches!(error, WalkError::Shape { .. }) && text.contains("an L2Block without its hash"),
        "{text}"
    );
    let chain = TestChain::start(Lie::ReceiptError);
    let (error, text) = unusable(walk(&chain, params(&chain, 1, BlockTag::Finalized)));
    assert!(
        matches!(error, WalkError::NodeError { code: Some(-32000), .. }) && text.contains("syncing"),
        "{text}"
    );
}

#[test]
fn a_body_no_checkpoint_can_hold_is_refused_before_it_is_hashed() {
    let chain = TestChain::start(Lie::OversizedBody);
    let (error, text) = unusable(walk(&chain, params(&chain, 5, BlockTag::Finalized)));
    assert!(matches!(error, WalkError::Oversized { .. }) && text.contains("six blobs"), "{text}");
}

#[test]
fn a_witness_method_that_fails_falls_back_to_the_body() {
    let chain = TestChain::start(Lie::WitnessError);
    let verdict = walk(&chain, params(&chain, 4, BlockTag::Finalized)).expect("valid");
    assert_eq!(verdict["witnessSource"], "body");
    assert_eq!(verdict["witnessFallback"]["code"], -32000, "{verdict}");
    assert_eq!(verdict["witnessFallback"]["message"], "world state is syncing");
}

#[test]
fn an_l1_node_of_another_chain_refutes_the_l1_link() {
    let chain = TestChain::start(Lie::OtherL1Chain);
    let text = refused_at(walk(&chain, params(&chain, 4, BlockTag::Finalized)), "l1");
    assert!(text.contains("chainId") && text.contains("31337"), "{text}");
    // The honest chain names the L1 chain it was checked against.
    let honest = TestChain::start(Lie::None);
    let verdict = walk(&honest, params(&honest, 4, BlockTag::Finalized)).expect("valid");
    assert_eq!(verdict["anchor"]["l1ChainId"], honest.chain.l1_chain_id());
}

#[test]
fn a_registry_names_the_rollup_and_the_verdict_names_both() {
    let chain = TestChain::start(Lie::None);
    let registry = txfx_walk::l1::parse_address(&chain.registry.address).expect("address");
    let tx = fr(&chain.chain.tx_of_block(4));
    let by_registry = WalkParams::new(tx, Anchor::Registry { registry, tag: BlockTag::Finalized });
    let verdict = walk(&chain, by_registry).expect("valid");
    let by_rollup = walk(&chain, params(&chain, 4, BlockTag::Finalized)).expect("valid");
    assert_eq!(verdict["anchor"]["registry"], registry.to_checksum(None));
    assert_eq!(verdict["anchor"]["rollup"], by_rollup["anchor"]["rollup"]);
    assert_eq!(verdict["blockHash"], by_rollup["blockHash"]);
    assert_eq!(by_rollup["anchor"].get("registry"), None, "no registry was asked");
    // An address that is no registry (the rollup's own: `getCanonicalRollup` is not its method)
    // and a registry naming no rollup are the L1 endpoint's answers, not a verdict.
    let rollup = txfx_walk::l1::parse_address(&chain.rollup.address).expect("address");
    let wrong = WalkParams::new(tx, Anchor::Registry { registry: rollup, tag: BlockTag::Finalized });
    let (_, text) = unusable(walk(&chain, wrong));
    assert!(text.contains("eth_call"), "{text}");
    let empty = txfx_suite::testchain::Registry::deploy(&chain.anvil);
    chain.anvil.mine(2);
    let empty = txfx_walk::l1::parse_address(&empty.address).expect("address");
    let none = WalkParams::new(tx, Anchor::Registry { registry: empty, tag: BlockTag::Finalized });
    let (_, text) = unusable(walk(&chain, none));
    assert!(text.contains("not a rollup's address"), "{text}");
}

#[test]
fn a_network_on_another_l1_chain_refutes_the_l1_link() {
    // The stand-in chain runs on anvil's chain; mainnet's L1 chain is 1, and the walk, told the
    // tx is mainnet's, refuses the L1 endpoint before it reads the rollup there.
    let chain = TestChain::start(Lie::None);
    let mainnet = Network::named("mainnet").expect("built in");
    let text = refused_at(walk(&chain, params(&chain, 4, BlockTag::Finalized).with_network(mainnet)), "l1");
    assert!(text.contains("the network's L1 chain is 1, but"), "{text}");
}

#[test]
fn urls_are_checked_before_anything_is_sent_and_shown_redacted() {
    let chain = TestChain::start(Lie::None);
    for (node, problem) in [("127.0.0.1:1", "no scheme"), ("ftp://127.0.0.1/", "not http")] {
        let config = ClientConfig::new(node, Some(chain.anvil.url.clone()));
        let error =
            verify_tx(&Sequential, &config, params(&chain, 1, BlockTag::Finalized)).expect_err("refused");
        assert_eq!(error.class(), ErrorClass::Malformed, "{error}");
        assert!(error.to_string().contains(problem), "{error}");
    }
    assert!(chain.node.asked.lock().unwrap().is_empty(), "no request was sent");
    // A key in the URL is not printed: the node at a closed port, asked with a key.
    let config = ClientConfig::new(
        "http://user:hunter2@127.0.0.1:1/v2/abcdefghijklmnopqrstuvwxyz?apikey=s3cret",
        None,
    );
    let given = params(&chain, 1, BlockTag::Finalized);
    let given = WalkParams::new(given.tx_hash, Anchor::Given(Fr::from(1u64)));
    let error = verify_tx(&Sequential, &config, given).expect_err("nothing listens");
    let text = error.to_string();
    assert_eq!(error.class(), ErrorClass::Transport, "{text}");
    for secret in ["hunter2", "user", "abcdefghijklmnopqrstuvwxyz", "s3cret"] {
        assert!(!text.contains(secret), "{secret} shown: {text}");
    }
    assert!(text.contains("http://127.0.0.1:1/v2/…?apikey=…"), "{text}");
}

#[test]
fn a_pending_or_dropped_tx_is_answered_as_such() {
    let chain = TestChain::start(Lie::None);
    for key in ["getTxReceiptPending", "getTxReceiptDropped"] {
        let mut asked = params(&chain, 1, BlockTag::Finalized);
        asked.tx_hash = fr(chain.chain.json["nodeAnswers"][key]["txHash"].as_str().unwrap());
        let text = refused_at(walk(&chain, asked), "tx");
        assert!(text.contains("in no block"), "{text}");
    }
}
