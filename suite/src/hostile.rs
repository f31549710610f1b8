//! Hostile input: the bad-input catalogue, property tests and concurrency, per backend.
//!
//! - `testdata/bad-inputs/catalogue.json`: malformed inputs for every entry point, each with the
//!   error kind it must produce; one suite case per entry.
//! - Property tests (proptest, modest case counts): for random block sizes 0..300 every witness
//!   verifies and any single change is rejected; the backend agrees with `Sequential`.
//! - Concurrency: 64 commitments at once through the async API on a multi-threaded executor give
//!   the sequential results.

use futures::executor::block_on;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::Value;
use txfx_documents::classify::Classify;
use txfx_documents::json::witness_from_json;
use txfx_documents::json::{body_from_json, checkpoint_from_json, effect_from_json};
use txfx_membership::{
    BlockWitnesses, TxClaim, TxEffectMembershipWitness, verify_category_proof, verify_effect, verify_leaf,
    verify_tx,
};
use txfx_poseidon::field::{parse_fr, parse_fr_hex};
use txfx_poseidon::{AsyncHashBackend, Fr, HashBackend, HashJob, Sequential};
use txfx_tx_effects::BlockNumber;
use txfx_tx_effects::blob::decode_block_blob;
use txfx_tx_effects::checkpoint::decode_checkpoint;
use txfx_tx_effects::synthetic::{Profile, block};
use txfx_tx_effects::{commit_block, commit_block_async};

use crate::runner::{Case, Group};
use crate::trusted;
use crate::vectors::{array, read_testdata};

/// The tx-effects witness of tx 1 (the small fixture) of the upstream three-tx block, and its root.
pub(crate) fn small_fixture_witness() -> (TxEffectMembershipWitness, Fr) {
    let three = crate::vectors::at(crate::vectors::aztec_fixtures(), "/three_tx_block");
    let w = crate::vectors::at(three, "/witnesses/1");
    let witness = TxEffectMembershipWitness {
        block_number: BlockNumber::new(3),
        root: crate::vectors::fr(crate::vectors::at(three, "/root")),
        categories_hash: None,
        leaf_index: crate::vectors::uint(crate::vectors::at(w, "/leafIndex")),
        sibling_path: crate::vectors::frs(crate::vectors::at(w, "/siblingPath")),
    };
    let root = witness.root;
    (witness, root)
}

fn field_of(value: &Value) -> Fr {
    parse_fr_hex(value.as_str().expect("hex string")).expect("canonical")
}

/// `Ok(kind)` of a refusal (the error's own [`Classify::kind`]), or `Err` naming what an entry
/// point accepted.
fn refused<T: std::fmt::Debug, E: Classify + std::fmt::Display>(
    result: Result<T, E>,
) -> Result<String, String> {
    match result {
        Ok(value) => Err(format!("accepted as {value:?}")),
        Err(error) => {
            crate::adversarial::check_message("a bad input", &error.to_string());
            Ok(error.kind())
        }
    }
}

/// Runs one catalogue entry; `Ok(kind)` is the error kind produced, `Err` if it was accepted.
fn run_bad_input(hasher: &dyn HashBackend, entry: &Value) -> Result<String, String> {
    let protocol = crate::adversarial::protocol_of(entry);
    let input = &entry["input"];
    let text = input.as_str().map(str::to_owned).unwrap_or_else(|| input.to_string());
    match entry["entry"].as_str().expect("entry") {
        "field" => refused(parse_fr(&text)),
        "effect-json" => refused(effect_from_json(&text, protocol)),
        "body-json" => refused(body_from_json(&text, protocol)),
        "blob" => {
            let fields: Vec<Fr> = input.as_array().expect("blob fields").iter().map(field_of).collect();
            refused(decode_block_blob(protocol, &fields))
        }
        "checkpoint" => {
            let fields: Vec<Fr> = input.as_array().expect("blob fields").iter().map(field_of).collect();
            refused(decode_checkpoint(protocol, &fields))
        }
        "checkpoint-json" => refused(checkpoint_from_json(&text, protocol)),
        "stored-leaves" => match txfx_documents::json::stored_block_from_json(&text) {
            Err(error) => refused::<(), _>(Err(error)),
            Ok(stored) => refused(BlockWitnesses::from_stored(hasher, &stored).map(|w| w.root())),
        },
        "header-json" => refused(txfx_documents::json::header_from_json(&text, protocol)),
        "archive-witness" => refused(crate::archive_witness_text(&text)),
        "category-proof" => match txfx_documents::json::category_proof_from_json(&text) {
            Err(error) => refused::<(), _>(Err(error)),
            Ok(proof) => {
                let (witness, root) = small_fixture_witness();
                refused(verify_category_proof(hasher, &proof, &witness, trusted(root)))
            }
        },
        "witness-json" => refused(witness_from_json(&text, protocol)),
        "verify" => {
            let witness = witness_from_json(&text, protocol).expect("catalogue witnesses parse");
            let spec = &entry["verify"];
            let root = field_of(&spec["root"]);
            let result = if let Some(path) = spec.get("effect").and_then(Value::as_str) {
                let effect = effect_from_json(&read_testdata(path), protocol).expect("effect parses");
                verify_effect(hasher, &effect, &witness, trusted(root))
            } else {
                let tx = TxClaim {
                    tx_hash: field_of(&spec["txHash"]),
                    categories_hash: spec.get("categoriesHash").map(field_of),
                };
                verify_tx(hasher, tx, &witness, trusted(root))
            };
            refused(result)
        }
        other => panic!("unknown catalogue entry point {other}"),
    }
}

/// One case per catalogue entry.
pub fn bad_input_cases() -> Vec<Case> {
    let catalogue: Value =
        serde_json::from_str(&read_testdata("bad-inputs/catalogue.json")).expect("catalogue JSON");
    let entries = array(&catalogue, "/cases").to_vec();
    assert!(entries.len() >= 40, "the catalogue has {} cases, at least 40 expected", entries.len());
    entries
        .into_iter()
        .map(|entry| {
            let name = format!("bad input: {}", entry["name"].as_str().unwrap_or("?"));
            Case::new(Group::BadInputs, name, move |b| {
                let expected = entry["error"].as_str().expect("error kind");
                match run_bad_input(b.hasher, &entry) {
                    Ok(kind) => assert_eq!(kind, expected, "wrong error kind"),
                    Err(accepted) => panic!("malformed input {accepted}; expected {expected}"),
                }
            })
        })
        .collect()
}

fn leaves(n: usize, salt: u64) -> Vec<Fr> {
    (0..n as u64).map(|i| Fr::from(i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ salt)).collect()
}

/// Property tests and the concurrency test.
pub fn property_cases() -> Vec<Case> {
    vec![
        Case::new(
            Group::Properties,
            "every witness of random blocks verifies; single changes are rejected",
            |b| {
                let mut runner =
                    TestRunner::new(Config { cases: 12, failure_persistence: None, ..Config::default() });
                let strategy = (0usize..300, any::<u64>(), any::<u64>());
                runner
                    .run(&strategy, |(n, salt, pick)| {
                        let leaves = leaves(n, salt);
                        let block =
                            BlockWitnesses::from_leaves(b.hasher, leaves.clone(), BlockNumber::new(1))
                                .expect("build");
                        let reference =
                            BlockWitnesses::from_leaves(&Sequential, leaves.clone(), BlockNumber::new(1))
                                .expect("build");
                        prop_assert_eq!(block.root(), reference.root());
                        let root = block.root();
                        for (index, leaf) in leaves.iter().enumerate() {
                            let w = block.witness(index).expect("in block");
                            prop_assert!(verify_leaf(b.hasher, *leaf, &w, trusted(root)).is_ok());
                            // One change, chosen by `pick`, in each of sibling, side, root and leaf.
                            if !w.sibling_path.is_empty() {
                                let step = (pick as usize + index) % w.sibling_path.len();
                                let mut sibling = w.clone();
                                sibling.sibling_path[step] += Fr::from(1u64);
                                prop_assert!(verify_leaf(b.hasher, *leaf, &sibling, trusted(root)).is_err());
                                let mut side = w.clone();
                                side.leaf_index ^= 1 << step;
                                prop_assert!(verify_leaf(b.hasher, *leaf, &side, trusted(root)).is_err());
                            }
                            prop_assert!(
                                verify_leaf(b.hasher, *leaf, &w, trusted(root + Fr::from(pick | 1))).is_err()
                            );
                            prop_assert!(
                                verify_leaf(b.hasher, *leaf + Fr::from(1u64), &w, trusted(root)).is_err()
                            );
                        }
                        Ok(())
                    })
                    .unwrap_or_else(|failure| panic!("{failure}"));
            },
        ),
        Case::new(Group::Properties, "the backend agrees with Sequential on random batches", |b| {
            let mut runner =
                TestRunner::new(Config { cases: 24, failure_persistence: None, ..Config::default() });
            let strategy = proptest::collection::vec(
                (proptest::option::of(any::<u32>()), 0usize..40, any::<u64>()),
                0..30,
            );
            runner
                .run(&strategy, |specs| {
                    let jobs: Vec<HashJob> = specs
                        .iter()
                        .map(|(separator, len, salt)| HashJob {
                            separator: separator.map(txfx_poseidon::DomainSeparator::new),
                            inputs: leaves(*len, *salt),
                        })
                        .collect();
                    prop_assert_eq!(
                        b.hasher.hash_batch(&jobs).expect("batch"),
                        Sequential.hash_batch(&jobs).expect("batch")
                    );
                    let asynchronous =
                        block_on(b.async_hasher.hash_batch_async(jobs.clone())).expect("async batch");
                    prop_assert_eq!(asynchronous, Sequential.hash_batch(&jobs).expect("batch"));
                    Ok(())
                })
                .unwrap_or_else(|failure| panic!("{failure}"));
        }),
        Case::new(Group::Properties, "64 concurrent async commitments equal the sequential ones", |b| {
            // Every profile, 1 to 9 txs; log-heavy blocks (thousands of permutations a tx) hold 1
            // or 2, so the case measures concurrency, not the log-heavy leaf 100 times over.
            let bodies: Vec<_> = (0..64usize)
                .map(|i| {
                    let profile = Profile::ALL[i % 3];
                    let txs = if profile == Profile::LogHeavy { 1 + i % 2 } else { 1 + i % 9 };
                    block(profile, txs).expect("legal")
                })
                .collect();
            let expected: Vec<Fr> =
                bodies.iter().map(|body| commit_block(&Sequential, body).expect("commit").root()).collect();
            let hasher: &dyn AsyncHashBackend = b.async_hasher;
            // 64 OS threads, each driving its own commitment through the async API at once.
            let results: Vec<Fr> = std::thread::scope(|scope| {
                let handles: Vec<_> = bodies
                    .iter()
                    .map(|body| {
                        scope.spawn(|| block_on(commit_block_async(hasher, body)).expect("commit").root())
                    })
                    .collect();
                handles.into_iter().map(|handle| handle.join().expect("task")).collect()
            });
            assert_eq!(results, expected);
            // 64 tasks interleaved on one executor thread: a backend that offloads runs their
            // batches concurrently on its pool while the executor keeps polling.
            let tasks = bodies.iter().map(|body| commit_block_async(hasher, body));
            let joined: Vec<Fr> = block_on(futures::future::join_all(tasks))
                .into_iter()
                .map(|commitment| commitment.expect("commit").root())
                .collect();
            assert_eq!(joined, expected);
        }),
    ]
}
