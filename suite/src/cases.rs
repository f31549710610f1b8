//! The cases of the shared suite: every vector in `testdata/`, the 18 reference membership and
//! body cases, the Noir sensitivity cases and the witness snapshots.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::trusted;
use futures::executor::block_on;
use txfx_documents::json::{body_from_json, body_to_json, effect_from_json};
use txfx_documents::json::{witness_from_json, witness_to_json};
use txfx_membership::{
    BlockWitnesses, StoredBlock, StoredTx, TxClaim, TxEffectMembershipWitness, TxLookupError, VerifyError,
    build_witness, compute_root, verify_leaf, verify_tx,
};
use txfx_poseidon::field::fr_to_hex;
use txfx_poseidon::{BackendError, DomainSeparator, Fr, HashBackend, HashBackendExt, HashJob, State};
use txfx_tx_effects::blob::{
    TxStartMarker, decode_block_blob, decode_tx_blob, encode_block_blob, encode_tx_blob,
};
use txfx_tx_effects::synthetic::{Profile, block};
use txfx_tx_effects::tree::TxEffectsTree;
use txfx_tx_effects::{BlockNumber, ProtocolVersion};
use txfx_tx_effects::{
    Body, TxEffect, TxEffectFields, commit_block, commit_block_async, commit_blocks, commit_effect,
    commit_effects_async, compute_leaf,
};

use crate::runner::{Backend, Case, Group};
use crate::vectors::{
    PoseidonVectors, array, at, aztec_fixtures, fr, frs, poseidon_vectors, read_testdata, reference,
    tree_cases, uint,
};

/// Every case, in a fixed order.
pub fn all() -> Vec<Case> {
    let mut cases = Vec::new();
    cases.extend(vector_cases());
    cases.extend(crate::typescript::typescript_cases());
    cases.extend(crate::readings::reading_cases());
    cases.extend(membership_cases());
    cases.extend(body_cases());
    cases.extend(batched_block_cases());
    cases.extend(stored_cases());
    cases.extend(crate::chain::chain_cases());
    cases.extend(crate::v6::v6_cases());
    cases.extend(sensitivity_cases());
    cases.extend(snapshot_cases());
    cases.extend(crate::hostile::bad_input_cases());
    cases.extend(crate::adversarial::adversarial_cases());
    cases.extend(crate::hostile::property_cases());
    cases
}

/// The transcribed Aztec fixture effects (`testdata/effects/`).
pub fn fixture_effect(name: &str) -> TxEffect {
    effect_from_json(&read_testdata(&format!("effects/{name}.json")), ProtocolVersion::Azip26)
        .unwrap_or_else(|error| panic!("fixture {name}: {error}"))
}

fn n_node(b: &Backend<'_>, left: Fr, right: Fr) -> Fr {
    b.hasher.hash_with_separator(&[left, right], DomainSeparator::TX_EFFECTS_TREE).expect("node hash")
}

pub(crate) fn body_root(b: &Backend<'_>, body: &Body) -> Fr {
    commit_block(b.hasher, body).expect("commit").root()
}

fn deterministic_body(n: usize) -> Body {
    block(Profile::SmallCategories, n).expect("synthetic effects are legal")
}

/// A value no tree in the suite contains, standing in for the reference's `Fr.random()`.
fn stray(i: u64) -> Fr {
    Fr::from(0xdead_beef_0000u64 + i)
}

fn vector_cases() -> Vec<Case> {
    let mut cases = vec![
        Case::new(Group::Vectors, "poseidon2 permutation vectors", |b| {
            let records = poseidon_vectors(PoseidonVectors::Permutation);
            let mut states: Vec<State> =
                records.iter().map(|r| frs(at(r, "/input")).try_into().expect("4 lanes")).collect();
            b.hasher.permute_batch(&mut states).expect("permute");
            for (record, state) in records.iter().zip(&states) {
                assert_eq!(
                    state.to_vec(),
                    frs(at(record, "/output")),
                    "permutation {}",
                    at(record, "/input")
                );
            }
            assert_eq!(records.len(), 10);
        }),
        Case::new(Group::Vectors, "poseidon2 hash vectors", |b| {
            let records = poseidon_vectors(PoseidonVectors::Hash);
            for record in &records {
                let inputs = frs(at(record, "/inputs"));
                assert_eq!(
                    b.hasher.hash(&inputs).expect("hash"),
                    fr(at(record, "/output")),
                    "{} inputs",
                    inputs.len()
                );
            }
            let jobs: Vec<HashJob> = records.iter().map(|r| HashJob::plain(frs(at(r, "/inputs")))).collect();
            let batch = b.hasher.hash_batch(&jobs).expect("batch");
            assert_eq!(batch, records.iter().map(|r| fr(at(r, "/output"))).collect::<Vec<_>>());
            assert_eq!(records.len(), 25);
        }),
        Case::new(Group::Vectors, "poseidon2 separator hash vectors (sync, batch, async)", |b| {
            let records = poseidon_vectors(PoseidonVectors::HashWithSeparator);
            let jobs: Vec<HashJob> = records
                .iter()
                .map(|r| {
                    let separator = DomainSeparator::new(uint(at(r, "/separator")) as u32);
                    HashJob::with_separator(separator, frs(at(r, "/inputs")))
                })
                .collect();
            let expected: Vec<Fr> = records.iter().map(|r| fr(at(r, "/output"))).collect();
            for (job, want) in jobs.iter().zip(&expected) {
                let got =
                    b.hasher.hash_with_separator(&job.inputs, job.separator.expect("set")).expect("hash");
                assert_eq!(got, *want);
            }
            assert_eq!(b.hasher.hash_batch(&jobs).expect("batch"), expected);
            assert_eq!(block_on(b.async_hasher.hash_batch_async(jobs)).expect("async batch"), expected);
            assert_eq!(records.len(), 39);
        }),
        Case::new(Group::Vectors, "tx start marker vectors", |_| {
            for record in array(aztec_fixtures(), "/tx_start_marker_vectors") {
                let f = at(record, "/fields");
                let marker = TxStartMarker {
                    num_note_hashes: uint(at(f, "/numNoteHashes")) as u16,
                    num_nullifiers: uint(at(f, "/numNullifiers")) as u16,
                    num_l2_to_l1_msgs: uint(at(f, "/numL2ToL1Msgs")) as u16,
                    num_public_data_writes: uint(at(f, "/numPublicDataWrites")) as u16,
                    num_private_logs: uint(at(f, "/numPrivateLogs")) as u16,
                    private_logs_length: uint(at(f, "/privateLogsLength")) as u16,
                    public_logs_length: uint(at(f, "/publicLogsLength")) as u32,
                    contract_class_log_length: uint(at(f, "/contractClassLogLength")) as u16,
                    revert_code: uint(at(f, "/revertCode")) as u8,
                    num_blob_fields: uint(at(f, "/numBlobFields")) as u32,
                };
                let encoded = fr(at(record, "/encoded"));
                assert_eq!(marker.encode(), encoded);
                assert_eq!(TxStartMarker::decode(&encoded), Ok(marker));
            }
        }),
        Case::new(Group::Vectors, "reference leaves from (txHash, categoriesHash)", |b| {
            let records = array(reference(), "/tx_effects_leaf");
            assert_eq!(records.len(), 32);
            for record in records {
                let leaf =
                    compute_leaf(b.hasher, fr(at(record, "/tx_hash")), fr(at(record, "/categories_hash")));
                assert_eq!(leaf.expect("leaf"), fr(at(record, "/leaf")));
            }
        }),
        Case::new(Group::Vectors, "three-tx block root and witnesses", |b| {
            let block = at(aztec_fixtures(), "/three_tx_block");
            let body = Body::new(["empty", "small", "maximum"].map(fixture_effect).to_vec());
            let commitment = commit_block(b.hasher, &body).expect("commit");
            assert_eq!(commitment.leaves().to_vec(), frs(at(block, "/leaves")));
            assert_eq!(commitment.root(), fr(at(block, "/root")));
            let witnesses =
                BlockWitnesses::from_body(b.hasher, &body, BlockNumber::new(7)).expect("witnesses");
            for expected in array(block, "/witnesses") {
                let w = witnesses.witness(uint(at(expected, "/txIndexInBlock")) as usize).expect("in block");
                assert_eq!(w.leaf_index, uint(at(expected, "/leafIndex")));
                assert_eq!(w.sibling_path, frs(at(expected, "/siblingPath")));
            }
        }),
        Case::new(Group::Vectors, "witness JSON example", |b| {
            let example = at(aztec_fixtures(), "/witness_json_example/json");
            let parsed = witness_from_json(&example.to_string(), ProtocolVersion::Azip26).expect("parses");
            assert_eq!(&witness_to_json(&parsed), example);
            let body = Body::new(["empty", "small", "maximum"].map(fixture_effect).to_vec());
            let built = build_witness(b.hasher, &body, 0, BlockNumber::new(7)).expect("tx 0");
            assert_eq!(built, parsed);
        }),
    ];
    for name in ["small", "empty", "maximum"] {
        cases.push(Case::new(
            Group::Vectors,
            format!("{name} fixture commitment (sync and async)"),
            move |b| {
                let expected = at(aztec_fixtures(), &format!("/tx_effect_fixtures/{name}"));
                let effect = fixture_effect(name);
                let sync = commit_effect(b.hasher, &effect).expect("commit");
                let asynchronous =
                    block_on(commit_effects_async(b.async_hasher, std::slice::from_ref(&effect)))
                        .expect("async commit")
                        .pop()
                        .expect("one");
                assert_eq!(sync, asynchronous, "sync and async commitments differ");
                assert_eq!(sync.tx_start_marker, fr(at(expected, "/tx_start_marker")), "marker");
                assert_eq!(u64::from(sync.num_blob_fields), uint(at(expected, "/num_blob_fields")));
                assert_eq!(
                    sync.category_hashes.to_vec(),
                    frs(at(expected, "/category_hashes")),
                    "category hashes"
                );
                assert_eq!(sync.categories_hash, fr(at(expected, "/categories_hash")), "categories hash");
                assert_eq!(sync.leaf, fr(at(expected, "/leaf")), "leaf");
                assert_eq!(sync.leaf, fr(at(expected, "/expected_upstream/leaf")), "upstream leaf");
                if let Some(log_hash) = expected.get("contract_class_log_hash") {
                    assert_eq!(sync.contract_class_log_hash, Some(fr(log_hash)));
                }
                let blob = encode_tx_blob(&effect);
                assert_eq!(blob.len() as u64, uint(at(expected, "/num_blob_fields")));
                if let Some(fields) = expected.get("blob_fields") {
                    assert_eq!(blob, frs(fields), "blob fields");
                }
                if let Some(preimages) = expected.get("category_preimages") {
                    // Category preimage lengths and contents as listed (the small fixture lists them).
                    let lengths: Vec<u64> =
                        array(expected, "/category_preimage_lengths").iter().map(uint).collect();
                    let listed: Vec<Vec<Fr>> = preimages.as_array().expect("array").iter().map(frs).collect();
                    assert_eq!(listed.iter().map(|p| p.len() as u64).collect::<Vec<_>>(), lengths);
                    for (preimage, hash) in listed.iter().zip(sync.category_hashes) {
                        let want = if preimage.is_empty() {
                            Fr::from(0u64)
                        } else {
                            b.hasher
                                .hash_with_separator(preimage, DomainSeparator::TX_EFFECT_CATEGORY_HASH)
                                .expect("hash")
                        };
                        assert_eq!(hash, want);
                    }
                }
            },
        ));
    }
    cases.push(Case::new(Group::Vectors, "tree: every aztec-fixtures tree at once (build_many)", |b| {
        let all = tree_cases();
        let trees = TxEffectsTree::build_many(b.hasher, all.iter().map(|case| case.leaves.clone()).collect())
            .expect("build");
        assert_eq!(trees.len(), all.len());
        for (case, tree) in all.iter().zip(&trees) {
            assert_eq!(tree.root(), case.root, "{}", case.name);
            for expected in &case.witnesses {
                let path = tree.path(expected.tx_index).expect("in block");
                assert_eq!(path.leaf_index, expected.leaf_index, "{} tx {}", case.name, expected.tx_index);
                assert_eq!(path.siblings, expected.sibling_path, "{} tx {}", case.name, expected.tx_index);
            }
        }
    }));
    for case in tree_cases() {
        let name = format!("tree {}", case.name);
        cases.push(Case::new(Group::Vectors, name, move |b| {
            let tree = TxEffectsTree::build(b.hasher, case.leaves.clone()).expect("build");
            assert_eq!(tree.root(), case.root, "root");
            let asynchronous =
                block_on(TxEffectsTree::build_async(b.async_hasher, case.leaves.clone())).expect("build");
            assert_eq!(asynchronous.root(), case.root, "async root");
            let block = BlockWitnesses::from_leaves(b.hasher, case.leaves.clone(), BlockNumber::new(1))
                .expect("witnesses");
            for expected in &case.witnesses {
                let w = block.witness(expected.tx_index).expect("in block");
                assert_eq!(w.leaf_index, expected.leaf_index, "leafIndex of tx {}", expected.tx_index);
                assert_eq!(w.sibling_path, expected.sibling_path, "path of tx {}", expected.tx_index);
                let leaf = case.leaves[expected.tx_index];
                verify_leaf(b.hasher, leaf, &w, trusted(case.root)).expect("verifies");
            }
            assert_eq!(block.witness(case.leaves.len()).map_err(|e| e.index), Err(case.leaves.len()));
        }));
    }
    cases
}

fn membership_cases() -> Vec<Case> {
    let g = Group::Membership;
    vec![
        Case::new(g, "round trips through the schema", |_| {
            let witness = TxEffectMembershipWitness {
                block_number: BlockNumber::new(7),
                root: stray(1),
                categories_hash: Some(stray(2)),
                leaf_index: 3,
                sibling_path: vec![stray(3), stray(4)],
            };
            let json = witness_to_json(&witness);
            assert_eq!(json["leafIndex"], "3");
            assert_eq!(
                witness_from_json(&json.to_string(), ProtocolVersion::Azip26).expect("parses"),
                witness
            );
        }),
        Case::new(g, "builds witnesses against the same root the block body commits to", |b| {
            let body = deterministic_body(5);
            let root = body_root(b, &body);
            for index in 0..5 {
                assert_eq!(
                    build_witness(b.hasher, &body, index, BlockNumber::new(1)).expect("in block").root,
                    root
                );
            }
        }),
        Case::new(g, "builds an empty witness for a single-tx block", |b| {
            let body = deterministic_body(1);
            let w = build_witness(b.hasher, &body, 0, BlockNumber::new(1)).expect("tx 0");
            assert!(w.sibling_path.is_empty());
            assert_eq!(w.leaf_index, 0);
            assert_eq!(w.root, commit_effect(b.hasher, &body.tx_effects[0]).expect("commit").leaf);
        }),
        Case::new(g, "verifies witnesses for every tx of a block and rejects tampered ones", |b| {
            let body = deterministic_body(3);
            let block = BlockWitnesses::from_body(b.hasher, &body, BlockNumber::new(1)).expect("witnesses");
            let root = body_root(b, &body);
            for (index, leaf) in block.tree().leaves().iter().enumerate() {
                let w = block.witness(index).expect("in block");
                assert_eq!(compute_root(b.hasher, *leaf, &w).expect("root"), root);
                verify_leaf(b.hasher, *leaf, &w, trusted(root)).expect("valid");
                assert!(matches!(
                    verify_leaf(b.hasher, *leaf, &w, trusted(stray(9))),
                    Err(VerifyError::RootMismatch { .. })
                ));
                let flipped = TxEffectMembershipWitness { leaf_index: w.leaf_index ^ 1, ..w.clone() };
                assert!(verify_leaf(b.hasher, *leaf, &flipped, trusted(root)).is_err());
                let mut replaced = w.clone();
                replaced.sibling_path[0] = stray(10);
                assert!(matches!(
                    verify_leaf(b.hasher, *leaf, &replaced, trusted(root)),
                    Err(VerifyError::RootMismatch { .. })
                ));
            }
        }),
        Case::new(g, "verifies the single-tx witness where the leaf is the root", |b| {
            let body = deterministic_body(1);
            let leaf = commit_effect(b.hasher, &body.tx_effects[0]).expect("commit").leaf;
            let w = build_witness(b.hasher, &body, 0, BlockNumber::new(1)).expect("tx 0");
            assert_eq!(compute_root(b.hasher, leaf, &w).expect("root"), leaf);
            verify_leaf(b.hasher, leaf, &w, trusted(body_root(b, &body))).expect("valid");
            assert!(verify_leaf(b.hasher, stray(5), &w, trusted(w.root)).is_err());
        }),
        Case::new(g, "proves transaction inclusion from only the tx hash and witness categories hash", |b| {
            let body = deterministic_body(3);
            let block = BlockWitnesses::from_body(b.hasher, &body, BlockNumber::new(1)).expect("witnesses");
            let root = block.root();
            for index in 0..3 {
                let w = block.witness(index).expect("in block");
                let tx_hash = body.tx_effects[index].tx_hash;
                let categories_hash = w.categories_hash.expect("built from effects");
                let leaf = compute_leaf(b.hasher, tx_hash, categories_hash).expect("leaf");
                verify_leaf(b.hasher, leaf, &w, trusted(root)).expect("valid");
                verify_tx(b.hasher, TxClaim { tx_hash, categories_hash: None }, &w, trusted(root))
                    .expect("valid from tx hash");
                assert!(
                    verify_tx(
                        b.hasher,
                        TxClaim { tx_hash, categories_hash: Some(stray(6)) },
                        &w,
                        trusted(root)
                    )
                    .is_err()
                );
                let next = body.tx_effects[(index + 1) % 3].tx_hash;
                assert!(
                    verify_tx(b.hasher, TxClaim { tx_hash: next, categories_hash: None }, &w, trusted(root))
                        .is_err()
                );
            }
        }),
        Case::new(g, "throws for a tx index outside the block", |b| {
            let body = deterministic_body(2);
            let error = build_witness(b.hasher, &body, 2, BlockNumber::new(1)).expect_err("index 2 of 2");
            assert!(error.to_string().contains("out of bounds"), "{error}");
        }),
    ]
}

/// A hasher that counts the jobs it is given per separator, for "without hashing an effect twice".
pub(crate) struct Counting<'a> {
    inner: &'a dyn HashBackend,
    /// The jobs per separator's value (`None`: no separator).
    pub(crate) jobs: Mutex<HashMap<Option<u32>, usize>>,
    /// The pairs of each `hash_level` call, in call order.
    levels: Mutex<Vec<usize>>,
}

impl<'a> Counting<'a> {
    pub(crate) fn new(inner: &'a dyn HashBackend) -> Self {
        Self { inner, jobs: Mutex::new(HashMap::new()), levels: Mutex::new(Vec::new()) }
    }
}

impl HashBackend for Counting<'_> {
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    fn permute_batch(&self, states: &mut [State]) -> Result<(), BackendError> {
        self.inner.permute_batch(states)
    }
    fn hash_batch(&self, jobs: &[HashJob]) -> Result<Vec<Fr>, BackendError> {
        let mut counts = self.jobs.lock().expect("lock");
        for job in jobs {
            *counts.entry(job.separator.map(DomainSeparator::value)).or_default() += 1;
        }
        drop(counts);
        self.inner.hash_batch(jobs)
    }
    fn hash_level(&self, separator: DomainSeparator, pairs: &[[Fr; 2]]) -> Result<Vec<Fr>, BackendError> {
        self.levels.lock().expect("lock").push(pairs.len());
        self.inner.hash_level(separator, pairs)
    }
}

fn stored_cases() -> Vec<Case> {
    let g = Group::Stored;
    vec![
        Case::new(
            g,
            "stored leaves serve the body's witnesses, categories hashes and tx-hash look-up included",
            |b| {
                for n in [0usize, 1, 2, 3, 8, 33] {
                    let body = deterministic_body(n);
                    let stored =
                        StoredBlock::from_body(b.hasher, &body, BlockNumber::new(11)).expect("commit");
                    assert_eq!(stored.txs.len(), n);
                    let reread = txfx_documents::json::stored_block_from_json(
                        &txfx_documents::json::stored_block_to_json(&stored).to_string(),
                    )
                    .expect("its JSON reads");
                    assert_eq!(reread, stored, "JSON round trip");
                    let served = BlockWitnesses::from_stored(b.hasher, &reread).expect("a genuine store");
                    let direct =
                        BlockWitnesses::from_body(b.hasher, &body, BlockNumber::new(11)).expect("commit");
                    assert_eq!(served.all(), direct.all(), "{n} txs");
                    assert!(served.all().iter().all(|w| w.categories_hash.is_some()));
                    for (index, effect) in body.tx_effects.iter().enumerate() {
                        assert_eq!(
                            served.witness_for_tx_hash(effect.tx_hash),
                            direct
                                .witness(index)
                                .map_err(|_| TxLookupError::Unknown { tx_hash: effect.tx_hash })
                        );
                    }
                }
            },
        ),
        Case::new(g, "stored leaves of the upstream three-tx block give its root and witnesses", |b| {
            let three = at(aztec_fixtures(), "/three_tx_block");
            let fixtures = at(aztec_fixtures(), "/tx_effect_fixtures");
            let stored = StoredBlock {
                block_number: BlockNumber::new(1),
                tx_effects_tree_root: fr(at(three, "/root")),
                txs: ["empty", "small", "maximum"]
                    .map(|name| StoredTx {
                        tx_hash: fr(at(fixtures, &format!("/{name}/tx_hash"))),
                        categories_hash: fr(at(fixtures, &format!("/{name}/categories_hash"))),
                        leaf: fr(at(fixtures, &format!("/{name}/leaf"))),
                    })
                    .to_vec(),
            };
            let served =
                BlockWitnesses::from_stored(b.hasher, &stored).expect("upstream values hold together");
            let body = Body::new(["empty", "small", "maximum"].map(fixture_effect).to_vec());
            assert_eq!(StoredBlock::from_body(b.hasher, &body, BlockNumber::new(1)).expect("commit"), stored);
            for (index, expected) in array(three, "/witnesses").iter().enumerate() {
                assert_eq!(uint(at(expected, "/txIndexInBlock")), index as u64);
                let witness = served.witness(index).expect("in block");
                assert_eq!(witness.sibling_path, frs(at(expected, "/siblingPath")), "tx {index}");
                assert_eq!(witness.leaf_index, uint(at(expected, "/leafIndex")), "tx {index}");
            }
        }),
    ]
}

/// Several blocks committed together equal each committed alone (not one of the reference cases).
fn batched_block_cases() -> Vec<Case> {
    vec![Case::new(
        Group::Properties,
        "commits several blocks at once as one at a time, each level of all trees in one batch",
        |b| {
            let bodies: Vec<Body> = [0usize, 1, 3, 5, 2, 0, 8, 1].map(deterministic_body).to_vec();
            let refs: Vec<&Body> = bodies.iter().collect();
            let counting = Counting::new(b.hasher);
            let together = commit_blocks(&counting, &refs).expect("commit");
            assert_eq!(together.len(), bodies.len());
            for (i, (body, commitment)) in bodies.iter().zip(&together).enumerate() {
                assert_eq!(commitment, &commit_block(b.hasher, body).expect("commit"), "block {i}");
            }
            // The deepest trees (5 and 8 leaves) have three levels above the leaves, and every
            // level of every tree rides in those three batches: the 3-, 5-, 2- and 8-leaf trees'
            // 1 + 2 + 1 + 4 pairs, then 1 + 1 + 2, then 1 + 1.
            assert_eq!(*counting.levels.lock().expect("lock"), vec![8, 4, 2]);
            // Every block's categories hashes in one batch, and every leaf in one.
            let jobs = counting.jobs.lock().expect("lock").clone();
            assert_eq!(jobs.get(&Some(DomainSeparator::TX_EFFECTS_TREE_LEAF.value())), Some(&20));
            assert!(commit_blocks(b.hasher, &[]).expect("no blocks").is_empty());
            let trees = TxEffectsTree::build_many(b.hasher, vec![Vec::new(), vec![stray(1)]]).expect("build");
            assert_eq!(trees.iter().map(TxEffectsTree::root).collect::<Vec<_>>(), [Fr::from(0u64), stray(1)]);
        },
    )]
}

fn body_cases() -> Vec<Case> {
    let g = Group::Body;
    vec![
        Case::new(g, "converts to and from blob data (block)", |_| {
            let body = Body::new(["small", "empty", "maximum"].map(fixture_effect).to_vec());
            let fields = encode_block_blob(&body);
            assert_eq!(fields.len(), 20 + 3 + 8475);
            assert_eq!(decode_block_blob(ProtocolVersion::Azip26, &fields).expect("decodes"), body);
        }),
        Case::new(g, "converts to and from blob data (one tx, trailing fields ignored)", |_| {
            let effect = fixture_effect("small");
            let mut fields = encode_tx_blob(&effect);
            fields.push(Fr::from(7u64));
            assert_eq!(decode_tx_blob(ProtocolVersion::Azip26, &fields).expect("decodes"), (effect, 20));
        }),
        Case::new(g, "converts to and from empty blob data", |_| {
            let fields = encode_block_blob(&Body::empty());
            assert!(fields.is_empty());
            assert_eq!(decode_block_blob(ProtocolVersion::Azip26, &fields).expect("decodes"), Body::empty());
        }),
        Case::new(g, "converts to and from json", |_| {
            let body = deterministic_body(4);
            let json = body_to_json(&body);
            let keys: Vec<&String> = json.as_object().expect("an object").keys().collect();
            assert_eq!(keys, ["txEffects"], "printed as TypeScript's Body schema wants");
            assert_eq!(body_from_json(&json.to_string(), ProtocolVersion::Azip26).expect("parses"), body);
            let bare = json["txEffects"].to_string();
            assert_eq!(body_from_json(&bare, ProtocolVersion::Azip26).expect("a bare array parses"), body);
        }),
        Case::new(g, "returns an empty tree with no leaves", |b| {
            let commitment = commit_block(b.hasher, &Body::empty()).expect("commit");
            assert_eq!(commitment.root(), Fr::from(0u64));
            assert!(commitment.leaves().is_empty());
            assert!(commitment.categories_hashes().is_empty());
        }),
        Case::new(g, "returns the leaves used for the root without hashing an effect twice", |b| {
            let counting = Counting::new(b.hasher);
            let body = deterministic_body(1);
            let commitment = commit_block(&counting, &body).expect("commit");
            let tx = &commitment.txs[0];
            assert_eq!(commitment.root(), tx.leaf);
            assert_eq!(commitment.leaves().to_vec(), vec![tx.leaf]);
            assert_eq!(commitment.categories_hashes(), vec![tx.categories_hash]);
            let counts = counting.jobs.lock().expect("lock").clone();
            assert_eq!(counts.get(&Some(DomainSeparator::TX_EFFECT_CATEGORIES_HASH.value())), Some(&1));
            assert_eq!(counts.get(&Some(DomainSeparator::TX_EFFECTS_TREE_LEAF.value())), Some(&1));
        }),
        Case::new(g, "is zero for a block with no txs", |b| {
            assert_eq!(body_root(b, &Body::empty()), Fr::from(0u64));
        }),
        Case::new(g, "is the leaf itself for one tx", |b| {
            let body = deterministic_body(1);
            assert_eq!(
                body_root(b, &body),
                commit_effect(b.hasher, &body.tx_effects[0]).expect("commit").leaf
            );
        }),
        Case::new(g, "pairs the leaves for two txs", |b| {
            let body = deterministic_body(2);
            let c = commit_block(b.hasher, &body).expect("commit");
            let l = c.leaves();
            assert_eq!(c.root(), n_node(b, l[0], l[1]));
        }),
        Case::new(g, "shifts the odd leaf up for three txs", |b| {
            let body = deterministic_body(3);
            let c = commit_block(b.hasher, &body).expect("commit");
            let l = c.leaves();
            assert_eq!(c.root(), n_node(b, n_node(b, l[0], l[1]), l[2]));
        }),
        Case::new(g, "fills the left subtree greedily for five txs", |b| {
            let body = deterministic_body(5);
            let c = commit_block(b.hasher, &body).expect("commit");
            let l = c.leaves();
            let left = n_node(b, n_node(b, l[0], l[1]), n_node(b, l[2], l[3]));
            assert_eq!(c.root(), n_node(b, left, l[4]));
            let asynchronous = block_on(commit_block_async(b.async_hasher, &body)).expect("async commit");
            assert_eq!(asynchronous, c);
        }),
    ]
}

fn leaf_of(b: &Backend<'_>, fields: TxEffectFields) -> Fr {
    commit_effect(b.hasher, &TxEffect::new(fields).expect("legal")).expect("commit").leaf
}

fn categories_of(b: &Backend<'_>, fields: TxEffectFields) -> Fr {
    commit_effect(b.hasher, &TxEffect::new(fields).expect("legal")).expect("commit").categories_hash
}

fn sensitivity_cases() -> Vec<Case> {
    let g = Group::Sensitivity;
    vec![
        Case::new(g, "empty category hashes to zero while others do not", |b| {
            let fields = TxEffectFields { note_hashes: vec![Fr::from(11u64)], ..Default::default() };
            let c = commit_effect(b.hasher, &TxEffect::new(fields).expect("legal")).expect("commit");
            let c0 =
                b.hasher.hash_with_separator(&[Fr::from(11u64)], DomainSeparator::TX_EFFECT_CATEGORY_HASH);
            assert_eq!(c.category_hashes[0], c0.expect("hash"));
            assert!(c.category_hashes[1..].iter().all(|h| *h == Fr::from(0u64)));
        }),
        Case::new(g, "array counts are bound by the tx start marker", |b| {
            let one = TxEffectFields { note_hashes: vec![Fr::from(11u64)], ..Default::default() };
            let two =
                TxEffectFields { note_hashes: vec![Fr::from(11u64), Fr::from(12u64)], ..Default::default() };
            assert_ne!(categories_of(b, one), categories_of(b, two));
        }),
        Case::new(g, "equal-count cross-category swap changes the leaf", |b| {
            let a = TxEffectFields {
                note_hashes: vec![Fr::from(11u64)],
                nullifiers: vec![Fr::from(22u64)],
                ..Default::default()
            };
            let swapped = TxEffectFields {
                note_hashes: vec![Fr::from(22u64)],
                nullifiers: vec![Fr::from(11u64)],
                ..Default::default()
            };
            assert_ne!(leaf_of(b, a), leaf_of(b, swapped));
        }),
        Case::new(g, "scalar mutations change the leaf (revert code, fee, tx hash)", |b| {
            let base = fixture_effect("small").into_fields();
            let leaf = leaf_of(b, base.clone());
            let mut reverted = base.clone();
            reverted.revert_code = txfx_tx_effects::RevertCode::Ok;
            let mut fee = base.clone();
            fee.transaction_fee += Fr::from(1u64);
            let mut hash = base.clone();
            hash.tx_hash += Fr::from(1u64);
            for changed in [reverted, fee, hash] {
                assert_ne!(leaf_of(b, changed), leaf);
            }
        }),
        Case::new(g, "log address, payload and active length change the leaf", |b| {
            let base = fixture_effect("small").into_fields();
            let leaf = leaf_of(b, base.clone());
            let mut address = base.clone();
            address.public_logs[0].contract_address += Fr::from(1u64);
            let mut payload = base.clone();
            payload.private_logs[0].fields[0] += Fr::from(1u64);
            let mut longer = base.clone();
            longer.private_logs[0].fields.push(Fr::from(0u64));
            let mut class_log = base.clone();
            class_log.contract_class_logs[0].fields.push(Fr::from(0u64));
            let mut class_address = base;
            class_address.contract_class_logs[0].contract_address += Fr::from(1u64);
            for changed in [address, payload, longer, class_log, class_address] {
                assert_ne!(leaf_of(b, changed), leaf);
            }
        }),
        Case::new(g, "tx blob sections match the flat blob encoding", |b| {
            // The categories are slices of the blob: hashing the sections equals the listed hashes.
            let effect = fixture_effect("small");
            let c = commit_effect(b.hasher, &effect).expect("commit");
            let blob = encode_tx_blob(&effect);
            let sections: [&[Fr]; 6] =
                [&blob[3..5], &blob[5..6], &blob[6..7], &blob[7..9], &blob[9..13], &blob[13..17]];
            for (section, hash) in sections.iter().zip(c.category_hashes) {
                let want = b.hasher.hash_with_separator(section, DomainSeparator::TX_EFFECT_CATEGORY_HASH);
                assert_eq!(want.expect("hash"), hash);
            }
        }),
        Case::new(g, "leaf, categories hash and category hashes are all distinct", |b| {
            let c = commit_effect(b.hasher, &fixture_effect("small")).expect("commit");
            let mut all: Vec<Fr> = c.category_hashes.to_vec();
            all.extend([c.categories_hash, c.leaf]);
            let mut unique = all.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), all.len());
        }),
        Case::new(g, "tree node is domain separated from the leaf", |b| {
            let (x, y) = (Fr::from(111u64), Fr::from(222u64));
            let node = n_node(b, x, y);
            assert!(fr_to_hex(&node).starts_with("0x19d9061f"));
            assert!(fr_to_hex(&node).ends_with("dd4d"));
            assert_ne!(n_node(b, x, Fr::from(0u64)), x);
            assert_ne!(n_node(b, Fr::from(0u64), x), x);
            let as_leaf = compute_leaf(b.hasher, x, y).expect("leaf");
            assert_ne!(node, as_leaf);
            assert!(fr_to_hex(&as_leaf).starts_with("0x1a568990"));
        }),
        Case::new(g, "maximum-size effect can be committed and round-trips through its blob", |b| {
            let effect = fixture_effect("maximum");
            let blob = encode_tx_blob(&effect);
            assert_eq!(blob.len(), txfx_tx_effects::limits::MAX_TX_BLOB_DATA_SIZE_IN_FIELDS);
            assert_eq!(
                decode_block_blob(ProtocolVersion::Azip26, &blob).expect("decodes").tx_effects,
                vec![effect.clone()]
            );
            commit_effect(b.hasher, &effect).expect("commit");
        }),
    ]
}

/// The snapshot view we own: root, and per tx its leafIndex, depth and path as hex.
pub fn witness_view(witnesses: &BlockWitnesses) -> String {
    let mut out = format!("root: {}\ntxs: {}\n", fr_to_hex(&witnesses.root()), witnesses.tree().len());
    for (index, w) in witnesses.all().iter().enumerate() {
        out.push_str(&format!("- tx {index}: leafIndex {} depth {}\n", w.leaf_index, w.sibling_path.len()));
        for sibling in &w.sibling_path {
            out.push_str(&format!("    {}\n", fr_to_hex(sibling)));
        }
    }
    out
}

fn snapshot_cases() -> Vec<Case> {
    let mut cases = vec![Case::new(Group::Snapshots, "witnesses of the three-tx fixture block", |b| {
        let body = Body::new(["empty", "small", "maximum"].map(fixture_effect).to_vec());
        let witnesses = BlockWitnesses::from_body(b.hasher, &body, BlockNumber::new(7)).expect("witnesses");
        insta::assert_snapshot!("three_tx_fixture_block", witness_view(&witnesses));
    })];
    for n in [1usize, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 64] {
        cases.push(Case::new(Group::Snapshots, format!("witnesses of a {n}-tx sparse block"), move |b| {
            let body = block(Profile::Sparse, n).expect("legal");
            let witnesses =
                BlockWitnesses::from_body(b.hasher, &body, BlockNumber::new(n as u32)).expect("witnesses");
            insta::assert_snapshot!(format!("sparse_block_{n:02}_txs"), witness_view(&witnesses));
        }));
    }
    cases
}
