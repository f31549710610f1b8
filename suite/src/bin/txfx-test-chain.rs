//! `txfx-test-chain [LIE]`: starts the test chain (`txfx_suite::testchain`: anvil with the
//! stand-in rollup, and the stub v6 node, honest or lying as LIE names), prints
//! `{"node", "l1", "rollup", "registry", "txs": {"<block>": "<tx hash>"}}` on one line, and serves until its
//! standard input closes. The npm package's tests drive the node walk over `fetch` against it.

use std::io::Read;

use serde_json::json;
use txfx_suite::testchain::{Lie, TestChain};

fn main() {
    if let (Some("--record-l1"), Some(path)) = (std::env::args().nth(1).as_deref(), std::env::args().nth(2)) {
        record_l1(&path);
        return;
    }
    let lie = match std::env::args().nth(1).as_deref() {
        None | Some("none") => Lie::None,
        Some("forged-effect") => Lie::ForgedEffect,
        Some("another-block") => Lie::AnotherBlock,
        Some("block-response-hash") => Lie::BlockResponseHash,
        Some("stale-archive") => Lie::StaleArchive,
        Some("no-witness-method") => Lie::NoWitnessMethod,
        Some("legacy-namespace") => Lie::LegacyNamespace,
        Some("out-of-order") => Lie::OutOfOrder,
        Some("not-json") => Lie::NotJson,
        Some("future-archive") => Lie::FutureArchive,
        Some("bad-gateway") => Lie::BadGateway,
        Some("wrong-reference-block") => Lie::WrongReferenceBlock,
        Some("witness-error") => Lie::WitnessError,
        Some("receipt-error") => Lie::ReceiptError,
        Some("oversized-body") => Lie::OversizedBody,
        Some("other-l1-chain") => Lie::OtherL1Chain,
        Some("truncated") => Lie::Truncated,
        Some("redirect") => Lie::Redirect,
        Some(other) => {
            eprintln!("txfx-test-chain: unknown lie {other:?}");
            std::process::exit(2);
        }
    };
    let chain = TestChain::start(lie);
    let txs: serde_json::Map<String, serde_json::Value> = [1u64, 4, 5, 7, 8]
        .into_iter()
        .map(|block| (block.to_string(), json!(chain.chain.tx_of_block(block))))
        .collect();
    println!(
        "{}",
        json!({ "node": chain.node.url, "l1": chain.anvil.url, "rollup": chain.rollup.address, "registry": chain.registry.address, "txs": txs })
    );
    // Serve until the parent closes our input (or dies).
    let _ = std::io::stdin().read_to_end(&mut Vec::new());
}

/// `--record-l1 FILE`: runs the honest walks of every one-tx block (with and without the
/// canonical network's check, at the tag `finalized` and at the hash of its block) against the
/// test chain and writes every L1 request and anvil's
/// answer to FILE, for the socket-free replays (`txfx_suite::transcript`).
#[allow(
    clippy::expect_used,
    clippy::panic,
    reason = "a developer's recording tool: a failure stops it, saying why"
)]
fn record_l1(path: &str) {
    use txfx_walk::{Anchor, Answer, TransportProblem, Walk, WalkParams};
    let chain = TestChain::start(Lie::None);
    let rollup = txfx_walk::l1::parse_address(&chain.rollup.address).expect("the rollup's address");
    let mut exchanges: Vec<serde_json::Value> = Vec::new();
    let agent = ureq::Agent::new_with_defaults();
    // The walks at a block hash (storage proofs) read the block `finalized` names.
    let finalized =
        txfx_suite::testchain::rpc(&chain.anvil.url, "eth_getBlockByNumber", json!(["finalized", false]));
    let block_hash = finalized.get("hash").and_then(serde_json::Value::as_str).expect("a hash").to_owned();
    let at_hash: txfx_walk::l1::BlockTag = block_hash.parse().expect("a block hash");
    for (block, network, tag) in [1u64, 4, 5, 7, 8].into_iter().flat_map(|block| {
        [None, Some("canonical")].into_iter().flat_map(move |network| {
            [(block, network, txfx_walk::l1::BlockTag::Finalized), (block, network, at_hash)]
        })
    }) {
        {
            let tx = txfx_poseidon::field::parse_fr_hex(&chain.chain.tx_of_block(block)).expect("a tx hash");
            let mut params = WalkParams::new(tx, Anchor::L1 { rollup, tag });
            if let Some(name) = network {
                params = params
                    .with_network(txfx_documents::txfx_membership::Network::named(name).expect("built in"));
            }
            let mut walk = Walk::new(params).expect("a walk");
            let _ = txfx_walk::drive(&mut walk, &txfx_poseidon::Sequential, |request| {
                let url = match request.target() {
                    txfx_walk::Target::Node => chain.node.url.as_str(),
                    txfx_walk::Target::L1 => chain.anvil.url.as_str(),
                };
                let mut response = agent
                    .post(url)
                    .header("content-type", "application/json")
                    .send(request.body())
                    .map_err(|_| TransportProblem::NotText)?;
                let body = response.body_mut().read_to_string().map_err(|_| TransportProblem::NotText)?;
                if request.target() == txfx_walk::Target::L1 {
                    let asked: serde_json::Value = serde_json::from_str(request.body()).expect("JSON");
                    let answered: serde_json::Value =
                        serde_json::from_str(&body).expect("anvil answers JSON");
                    for (request, answer) in
                        asked.as_array().into_iter().flatten().zip(answered.as_array().into_iter().flatten())
                    {
                        let mut answer = answer.clone();
                        if let Some(object) = answer.as_object_mut() {
                            object.remove("jsonrpc");
                            object.remove("id");
                        }
                        let exchange = json!({ "method": request["method"], "params": request["params"], "answer": answer });
                        if !exchanges.contains(&exchange) {
                            exchanges.push(exchange);
                        }
                    }
                }
                Ok(Answer { status: response.status().as_u16(), body })
            });
        }
    }
    let record = json!({
        "provenance": "recorded by `txfx-test-chain --record-l1` (suite/src/bin/txfx-test-chain.rs): anvil (xtask/l1/package.json) holding the stand-in rollup of testdata/l1/ with the v6 chain of testdata/v6/chain.json, asked by the node walk's honest walks of blocks 1, 4, 5, 7 and 8, at the tag finalized and at the hash of the block it named (blockHash: eth_getBlockByHash and eth_getProof); anvil's answers as it gave them",
        "rollup": chain.rollup.address,
        "blockHash": block_hash,
        "exchanges": &exchanges,
    });
    let text = serde_json::to_string_pretty(&record).expect("JSON");
    std::fs::write(path, format!("{text}\n")).unwrap_or_else(|e| panic!("{path}: {e}"));
    eprintln!("txfx-test-chain: {} L1 exchanges written to {path}", exchanges.len());
}
