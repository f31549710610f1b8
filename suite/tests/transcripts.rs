//! The node walk replayed with no socket (`txfx_suite::transcript`): the stub node's answers,
//! honest or lying in every way the loopback tests cover, and the recorded L1 transcript, honest
//! or lying. Each case names the verdict or the class, kind and link it must get.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use txfx_documents::classify::{Classify, ErrorClass};
use txfx_poseidon::field::parse_fr_hex;
use txfx_suite::l1proxy::ProxyLie;
use txfx_suite::testchain::{Lie, V6Chain};
use txfx_suite::transcript::{L1Lie, L1Transcript, replay};
use txfx_walk::l1::{BlockTag, parse_address};
use txfx_walk::{Anchor, WalkParams};

/// What a replay must end in.
#[derive(Debug, Clone, Copy)]
enum Outcome {
    /// A verdict on this block with this finality.
    Valid(u64, &'static str),
    /// A refutation at this link.
    Refuted(&'static str),
    /// The endpoint's fault, of this kind (its first part).
    Transport(&'static str),
}

fn params(chain: &V6Chain, l1: &L1Transcript, block: u64, tag: BlockTag) -> WalkParams {
    let tx = parse_fr_hex(&chain.tx_of_block(block)).expect("a tx hash");
    let rollup = parse_address(&l1.rollup).expect("the recorded rollup");
    WalkParams::new(tx, Anchor::L1 { rollup, tag })
}

fn check(chain: &V6Chain, l1: &L1Transcript, lie: Lie, l1_lie: L1Lie, block: u64, outcome: Outcome) {
    check_at(chain, l1, (lie, l1_lie), block, BlockTag::Finalized, outcome);
}

fn check_at(
    chain: &V6Chain,
    l1: &L1Transcript,
    (lie, l1_lie): (Lie, L1Lie),
    block: u64,
    tag: BlockTag,
    outcome: Outcome,
) {
    let (result, asked) = replay(chain, l1, lie, l1_lie, params(chain, l1, block, tag));
    let case = format!("{lie:?} / {l1_lie:?}, block {block} at {}", tag.name());
    match (result, outcome) {
        (Ok(verdict), Outcome::Valid(number, finality)) => {
            let json: serde_json::Value = verdict.to_json().into();
            assert_eq!(json["blockNumber"], number, "{case}: {json}");
            assert_eq!(json["finality"], finality, "{case}: {json}");
            assert_eq!(json["valid"], true, "{case}");
            assert!(asked.iter().any(|m| m.ends_with("getBlockHashMembershipWitness")), "{case}: {asked:?}");
        }
        (Err(error), Outcome::Refuted(link)) => {
            assert_eq!((error.class(), error.link()), (ErrorClass::Refuted, Some(link)), "{case}: {error}");
        }
        (Err(error), Outcome::Transport(kind)) => {
            assert_eq!(error.class(), ErrorClass::Transport, "{case}: {error}");
            assert_eq!(error.link(), None, "{case}: {error}");
            assert!(error.kind().starts_with(kind), "{case}: kind {} for {error}", error.kind());
        }
        (result, outcome) => {
            panic!("{case}: {outcome:?} expected, got {:?}", result.map(|v| v.to_json().to_string()))
        }
    }
}

#[test]
fn every_lie_of_a_node_is_refused_without_a_socket() {
    let chain = V6Chain::load();
    let l1 = L1Transcript::load();
    let cases = [
        (Lie::None, 1, Outcome::Valid(1, "proven")),
        (Lie::None, 4, Outcome::Valid(4, "proven")),
        (Lie::None, 5, Outcome::Valid(5, "checkpointed")),
        (Lie::None, 7, Outcome::Valid(7, "checkpointed")),
        (Lie::None, 8, Outcome::Refuted("l1")),
        (Lie::NoWitnessMethod, 4, Outcome::Valid(4, "proven")),
        (Lie::WitnessError, 4, Outcome::Valid(4, "proven")),
        (Lie::LegacyNamespace, 4, Outcome::Valid(4, "proven")),
        (Lie::OutOfOrder, 4, Outcome::Valid(4, "proven")),
        (Lie::ReceiptClaimsProven, 5, Outcome::Valid(5, "checkpointed")),
        (Lie::ForgedEffect, 1, Outcome::Refuted("tx")),
        (Lie::AnotherBlock, 4, Outcome::Refuted("node")),
        (Lie::BlockResponseHash, 4, Outcome::Refuted("header")),
        (Lie::BlockResponseNumber, 4, Outcome::Refuted("header")),
        (Lie::ReceiptBlockHash, 4, Outcome::Refuted("effect")),
        (Lie::WitnessOfAnotherTx, 4, Outcome::Refuted("witness")),
        (Lie::StaleArchive, 5, Outcome::Refuted("archive")),
        (Lie::FutureArchive, 4, Outcome::Refuted("archive")),
        (Lie::WrongReferenceBlock, 4, Outcome::Refuted("node")),
        (Lie::ForgedReferenceHeader, 4, Outcome::Refuted("header")),
        (Lie::TipAtBlock7, 7, Outcome::Refuted("archive")),
        (Lie::L2BlockAnswer, 4, Outcome::Transport("Shape")),
        (Lie::DoublyWrapped, 4, Outcome::Transport("Answer")),
        (Lie::BlockDataAsBlock, 4, Outcome::Transport("Shape")),
        (Lie::OversizedBody, 5, Outcome::Transport("Oversized")),
        (Lie::Truncated, 1, Outcome::Transport("Answer")),
        (Lie::NotJson, 1, Outcome::Transport("Answer")),
        (Lie::ReceiptError, 1, Outcome::Transport("NodeError")),
        (Lie::BadGateway, 1, Outcome::Transport("Http")),
        (Lie::Redirect, 1, Outcome::Transport("Transport/Redirect")),
        (Lie::Oversized(4_000_000), 1, Outcome::Transport("Transport/TooLarge")),
    ];
    for (lie, block, outcome) in cases {
        check(&chain, &l1, lie, L1Lie::None, block, outcome);
    }
}

#[test]
fn every_lie_of_an_l1_endpoint_is_refused_without_a_socket() {
    let chain = V6Chain::load();
    let l1 = L1Transcript::load();
    let cases = [
        (L1Lie::OtherChain, Outcome::Refuted("l1")),
        // The node's next checkpoint starts from the chain's archive, not the one L1 claims.
        (L1Lie::OtherArchive, Outcome::Refuted("node")),
        (L1Lie::PendingAtOne, Outcome::Refuted("l1")),
        (L1Lie::NotABlock, Outcome::Transport("L1/NotABlock")),
        (L1Lie::NoCode, Outcome::Transport("L1/NotAWord")),
    ];
    for (l1_lie, outcome) in cases {
        check(&chain, &l1, Lie::None, l1_lie, 4, outcome);
    }
}

#[test]
fn at_a_block_hash_the_recorded_proofs_prove_and_every_lie_of_them_is_refused_at_l1() {
    let chain = V6Chain::load();
    let l1 = L1Transcript::load();
    let tag: BlockTag = l1.block_hash.parse().expect("the recorded block hash");
    let honest = (Lie::None, L1Lie::None);
    for (block, finality) in [(1, "proven"), (4, "proven"), (5, "checkpointed"), (7, "checkpointed")] {
        check_at(&chain, &l1, honest, block, tag, Outcome::Valid(block, finality));
    }
    check_at(&chain, &l1, honest, 8, tag, Outcome::Refuted("l1"));
    for lie in [
        ProxyLie::HeaderStateRoot,
        ProxyLie::ArchiveValue,
        ProxyLie::DroppedProofNode,
        ProxyLie::SwappedStorageProofs,
    ] {
        check_at(&chain, &l1, (Lie::None, L1Lie::Proxy(lie)), 4, tag, Outcome::Refuted("l1"));
    }
    // A lying node is refused at a hash as at a tag.
    check_at(&chain, &l1, (Lie::ForgedEffect, L1Lie::None), 1, tag, Outcome::Refuted("tx"));
}
