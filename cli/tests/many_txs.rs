//! `txfx verify tx --node … --tx-hash A --tx-hash B`: several txs in one run against the stub v6
//! node on loopback (no L1 needed: the anchor is `--archive-root`, the archive L1 holds for
//! checkpoint 2 in `testdata/v6/chain.json`'s story), one line per tx in the order given, and
//! the exit status the rule in `cli/src/each_tx.rs` gives.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use std::process::{Command, Output};
use std::sync::Arc;

use txfx_suite::testchain::{Lie, StubNode, V6Chain};

fn txfx(args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_txfx"));
    command.args(args).env_remove("TXFX_BACKEND").env_remove("AZTEC_NODE_URL").env_remove("ETH_RPC_URL");
    command.output().expect("txfx runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The stub node, the chain, and checkpoint 2's archive (blocks 2 to 4).
fn start(lie: Lie) -> (StubNode, Arc<V6Chain>, String) {
    let chain = Arc::new(V6Chain::load());
    let node = StubNode::start(chain.clone(), lie);
    let root = chain.archive_at(2);
    (node, chain, root)
}

/// The hash of the first tx of block 3, which the node has no receipt for: a tx the walk cannot
/// start (malformed input, exit 2).
const TX_OF_BLOCK_3: &str = "0x0000000000000000000000000000000000000000000000000000000000000000";

fn walk(node: &str, root: &str, tx_hashes: &[&str]) -> Output {
    let mut args = vec!["verify", "tx", "--node", node, "--archive-root", root];
    for tx_hash in tx_hashes {
        args.extend(["--tx-hash", tx_hash]);
    }
    txfx(&args)
}

fn lines(output: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("a JSON line ({e}): {line}")))
        .collect()
}

#[test]
fn each_tx_gets_its_verdict_line_in_the_order_given() {
    let (node, chain, _) = start(Lie::None);
    // Blocks 5 and 7 are both in checkpoint 3: one archive holds them.
    let root = chain.archive_at(3);
    let (block_5, block_7) = (chain.tx_of_block(5), chain.tx_of_block(7));
    for (order, blocks) in
        [([block_5.as_str(), block_7.as_str()], [5, 7]), ([block_7.as_str(), block_5.as_str()], [7, 5])]
    {
        let output = walk(&node.url, &root, &order);
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        let verdicts = lines(&output);
        assert_eq!(verdicts.len(), 2, "{verdicts:?}");
        for ((verdict, tx_hash), block) in verdicts.iter().zip(order).zip(blocks) {
            assert_eq!(verdict["valid"], true, "{verdict}");
            assert_eq!(verdict["txHash"], tx_hash, "{verdict}");
            assert_eq!(verdict["blockNumber"], block, "{verdict}");
        }
    }
}

#[test]
fn one_tx_prints_as_it_always_has() {
    let (node, chain, root) = start(Lie::None);
    let output = walk(&node.url, &root, &[&chain.tx_of_block(4)]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    // One indented document (serde_json's pretty printing), not a line.
    assert!(text.starts_with("{\n  \""), "{text}");
    let verdict: serde_json::Value = serde_json::from_str(&text).expect("one JSON document");
    assert_eq!((verdict["valid"].as_bool(), verdict["blockNumber"].as_u64()), (Some(true), Some(4)));
}

#[test]
fn a_refuted_tx_has_its_line_and_sets_the_exit_status() {
    let (node, chain, root) = start(Lie::None);
    // Block 1 is in checkpoint 1: checkpoint 2's archive does not hold it.
    let (block_1, block_4) = (chain.tx_of_block(1), chain.tx_of_block(4));
    let output = walk(&node.url, &root, &[&block_4, &block_1]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let verdicts = lines(&output);
    assert_eq!(verdicts.len(), 2, "{verdicts:?}");
    assert_eq!((&verdicts[0]["valid"], &verdicts[0]["blockNumber"]), (&true.into(), &4.into()));
    assert_eq!(verdicts[1]["valid"], false, "{}", verdicts[1]);
    assert_eq!(verdicts[1]["txHash"], block_1.as_str());
    assert!(verdicts[1]["link"].is_string() && verdicts[1]["reason"].is_string(), "{}", verdicts[1]);
    assert!(stderr(&output).contains("1 of 2 txs failed"), "{}", stderr(&output));
}

#[test]
fn the_lowest_failing_status_wins() {
    // A node that answers garbage: each tx is the node's fault, no usable answer (4)...
    let (garbage, chain, root) = start(Lie::NotJson);
    let block_4 = chain.tx_of_block(4);
    let both = walk(&garbage.url, &root, &[&block_4, TX_OF_BLOCK_3]);
    assert_eq!(both.status.code(), Some(4), "{}", stderr(&both));
    let errors = lines(&both);
    assert_eq!(errors.len(), 2, "{errors:?}");
    for (line, tx_hash) in errors.iter().zip([block_4.as_str(), TX_OF_BLOCK_3]) {
        assert_eq!((&line["txHash"], &line["exitStatus"]), (&tx_hash.into(), &4.into()), "{line}");
        assert!(line["error"].as_str().is_some_and(|e| e.contains("not JSON")), "{line}");
    }
    // ... and a node that is not there at all, an unreachable endpoint (4).
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let url = format!("http://{}", closed.local_addr().expect("an address"));
    drop(closed);
    let unreachable = walk(&url, &root, &[&block_4, TX_OF_BLOCK_3]);
    assert_eq!(unreachable.status.code(), Some(4), "{}", stderr(&unreachable));
    assert!(lines(&unreachable).iter().all(|line| line["exitStatus"] == 4));
    // A refutation (1) outranks the node's missing answer (4): the forged effect of block 4's tx
    // is refuted, and the node has no receipt (null) for the tx after it.
    let (forger, chain, root) = start(Lie::ForgedEffect);
    let mixed = walk(&forger.url, &root, &[&chain.tx_of_block(4), TX_OF_BLOCK_3]);
    assert_eq!(mixed.status.code(), Some(1), "{}", stderr(&mixed));
    let mixed = lines(&mixed);
    assert_eq!((&mixed[0]["valid"], &mixed[1]["exitStatus"]), (&false.into(), &4.into()), "{mixed:?}");
}

#[test]
fn every_tx_hash_is_read_before_anything_is_sent() {
    let (node, chain, root) = start(Lie::None);
    let output = walk(&node.url, &root, &[&chain.tx_of_block(4), "0xnothex"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(stderr(&output).contains("--tx-hash (tx 2 of 2)"), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
    assert!(node.asked.lock().unwrap().is_empty(), "nothing asked");
    // More than a run holds: refused before anything is sent.
    let many: Vec<&str> = std::iter::repeat_n(TX_OF_BLOCK_3, 1001).collect();
    let output = walk(&node.url, &root, &many);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(stderr(&output).contains("at most 1000"), "{}", stderr(&output));
    assert!(node.asked.lock().unwrap().is_empty(), "nothing asked");
    // Several txs without a node: the files verify one tx.
    let files = txfx(&["verify", "tx", "--tx-hash", "0x1", "--tx-hash", "0x2"]);
    assert_eq!(files.status.code(), Some(2), "{files:?}");
    assert!(stderr(&files).contains("only with --node"), "{}", stderr(&files));
}
