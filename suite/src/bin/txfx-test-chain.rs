//! `txfx-test-chain [LIE]`: starts the test chain (`txfx_suite::testchain`: anvil with the
//! stand-in rollup, and the stub v6 node, honest or lying as LIE names), prints
//! `{"node", "l1", "rollup", "txs": {"<block>": "<tx hash>"}}` on one line, and serves until its
//! standard input closes. The npm package's tests drive the node walk over `fetch` against it.

use std::io::Read;

use serde_json::json;
use txfx_suite::testchain::{Lie, TestChain};

fn main() {
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
        json!({ "node": chain.node.url, "l1": chain.anvil.url, "rollup": chain.rollup.address, "txs": txs })
    );
    // Serve until the parent closes our input (or dies).
    let _ = std::io::stdin().read_to_end(&mut Vec::new());
}
