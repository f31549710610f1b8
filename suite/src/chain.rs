//! The trust chain on every backend: headers and archive paths TypeScript printed
//! (`testdata/typescript/headers.json`, `testdata/chain/`), the shared header vectors, the whole
//! chain down to each tx of the upstream three-tx block, category proofs, and every tamper refused
//! at the link it breaks.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::Value;
use txfx_membership::archive::{ARCHIVE_HEIGHT, archive_root, archive_witness};
use txfx_membership::{
    ArchiveWitness, BlockHeader, BlockWitnesses, CategoryError, CategoryProof, ChainError, ChainSubject,
    ChainVerdict, ElementQuery, HeaderError, Link, Network, ProtocolVersion, Proven, TrustedArchiveRoot,
    TxClaim, TxEffectMembershipWitness, prove_category, verify_block_hash, verify_category_proof,
    verify_chain,
};
use txfx_poseidon::{DomainSeparator, Fr, HashBackendExt};
use txfx_tx_effects::BlockNumber;
use txfx_tx_effects::category::CategorySection;
use txfx_tx_effects::synthetic::{Profile, block};
use txfx_tx_effects::{Body, Category};

use crate::cases::fixture_effect;
use crate::runner::{Case, Group};
use crate::trusted;
use crate::vectors::{array, at, at_least, aztec_fixtures, fr, frs, read_testdata, uint};

fn json(path: &str) -> Value {
    serde_json::from_str(&read_testdata(path)).expect("fixture JSON")
}

fn text(value: &Value) -> String {
    value.as_str().map(str::to_owned).unwrap_or_else(|| value.to_string())
}

/// The chain fixtures' protocol: the AZIP-26 reference pin (4.1.2's rules, the 23-field header).
const PROTOCOL: ProtocolVersion = ProtocolVersion::Azip26;

/// Aztec 4.1.2's canonical genesis, as txfx pins it (`Network::named("canonical-4.1.2")`).
fn genesis_4_1_2() -> (Fr, Fr) {
    let network = Network::named("canonical-4.1.2").expect("a built-in network");
    (network.genesis_block_header_hash.expect("pinned"), network.genesis_archive_root.expect("pinned"))
}

/// The TypeScript chain: block 3's header, its archive witness, the archive root, and the
/// block hashes (genesis first).
struct Chain {
    header: BlockHeader,
    witness: ArchiveWitness,
    root: TrustedArchiveRoot,
    leaves: Vec<Fr>,
}

/// A hasher that fails every call from the `fail_from`-th on (counting from 0), and counts calls.
struct FailFrom<'a> {
    inner: &'a dyn txfx_poseidon::HashBackend,
    fail_from: usize,
    calls: std::sync::atomic::AtomicUsize,
}

impl<'a> FailFrom<'a> {
    fn new(inner: &'a dyn txfx_poseidon::HashBackend, fail_from: usize) -> Self {
        Self { inner, fail_from, calls: std::sync::atomic::AtomicUsize::new(0) }
    }

    fn calls(&self) -> usize {
        self.calls.load(std::sync::atomic::Ordering::SeqCst)
    }

    fn next(&self, operation: txfx_poseidon::Operation) -> Result<(), txfx_poseidon::BackendError> {
        let call = self.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        if call >= self.fail_from {
            return Err(txfx_poseidon::BackendError::Failed {
                backend: "fail-from",
                operation,
                reason: format!("call {call} made to fail"),
            });
        }
        Ok(())
    }
}

impl txfx_poseidon::HashBackend for FailFrom<'_> {
    fn name(&self) -> &'static str {
        "fail-from"
    }
    fn permute_batch(
        &self,
        states: &mut [txfx_poseidon::permutation::State],
    ) -> Result<(), txfx_poseidon::BackendError> {
        self.next(txfx_poseidon::Operation::PermuteBatch)?;
        self.inner.permute_batch(states)
    }
    fn hash_batch(&self, jobs: &[txfx_poseidon::HashJob]) -> Result<Vec<Fr>, txfx_poseidon::BackendError> {
        self.next(txfx_poseidon::Operation::HashBatch)?;
        self.inner.hash_batch(jobs)
    }
}

fn ts_chain() -> Chain {
    let chain = json("chain/chain.json");
    let blocks = array(&chain, "/blocks");
    let three = blocks.iter().find(|b| uint(at(b, "/number")) == 3).expect("block 3");
    let header = txfx_documents::json::header_from_json(at(three, "/header"), ProtocolVersion::Azip26)
        .expect("block 3's header");
    let witness = crate::archive_witness_text(&read_testdata("chain/archive-witness-3.json"))
        .expect("the node's answer reads");
    let mut leaves = vec![fr(at(&chain, "/genesisBlockHeaderHash"))];
    leaves.extend(blocks.iter().map(|b| fr(at(b, "/hash"))));
    Chain {
        header,
        witness,
        root: TrustedArchiveRoot::from_trusted_source(fr(at(&chain, "/archiveRoot"))),
        leaves,
    }
}

fn three_tx_body() -> Body {
    Body::new(["empty", "small", "maximum"].map(fixture_effect).to_vec())
}

/// Tx 1 of the three-tx block (block 3 of the chain): the body, the tx's witness and the proof
/// of its first nullifier, which the chain cases verify through every link.
fn tx_1_with_proof(
    hasher: &dyn txfx_poseidon::HashBackend,
) -> (Body, TxEffectMembershipWitness, CategoryProof) {
    let body = three_tx_body();
    let witnesses = BlockWitnesses::from_body(hasher, &body, BlockNumber::new(3)).expect("commit");
    let w = witnesses.witness(1).expect("tx 1");
    let effect = &body.tx_effects[1];
    let query = effect.nullifiers.first().map(|value| ElementQuery { value: *value, role: None });
    let proof = prove_category(hasher, effect, Category::Nullifiers, query).expect("prove");
    (body, w, proof)
}

/// Every chain and category case.
pub fn chain_cases() -> Vec<Case> {
    let g = Group::Chain;
    vec![
        Case::new(
            g,
            "typescript headers: read as the node prints them; 22- and 23-field hashes as TypeScript's",
            |b| {
                let fixtures = json("typescript/headers.json");
                let mut cached = 0;
                for record in at_least(&fixtures, "/headers", 5, "headers") {
                    let name = text(at(record, "/name"));
                    cached += usize::from(text(at(record, "/json")).contains("_cachedHash"));
                    // The node's 22-field header, then the same block's in the AZIP-26 layout:
                    // each read in its own layout and refused in the other.
                    let forms = [
                        (ProtocolVersion::PreAzip26, ProtocolVersion::Azip26, ""),
                        (ProtocolVersion::Azip26, ProtocolVersion::PreAzip26, "/azip26"),
                    ];
                    for (layout, other, form) in forms {
                        let printed = text(at(record, &format!("{form}/json")));
                        let header = txfx_documents::json::header_from_json(&printed, layout)
                            .unwrap_or_else(|e| panic!("{name} ({layout}): {e}"));
                        let fields = frs(at(record, &format!("{form}/fields")));
                        assert_eq!(header.to_fields(), fields, "{name} ({layout}): fields");
                        let hash = fr(at(record, &format!("{form}/hash")));
                        assert_eq!(header.hash(b.hasher).expect("hash"), hash, "{name} ({layout}): hash");
                        let mut expected: Value = serde_json::from_str(&printed).expect("JSON");
                        expected.as_object_mut().map(|o| o.remove("_cachedHash"));
                        let printed_back = txfx_documents::json::header_to_json(&header);
                        assert_eq!(printed_back, expected, "{name} ({layout}): printed back");
                        assert_eq!(
                            txfx_documents::json::header_from_json(&printed, other),
                            Err(txfx_documents::json::JsonError::Layout { expected: other }),
                            "{name} ({layout})"
                        );
                        if layout == ProtocolVersion::PreAzip26 {
                            assert_eq!(header.tx_effects_tree_root(), Err(HeaderError::PreAzip26));
                        }
                    }
                }
                assert_eq!(cached, 1, "one header carries the node's \"_cachedHash\":{{}}");
                // A whole L2Block, as getBlock returns it: its header is read.
                let block = text(at(&fixtures, "/l2Block/json"));
                let object: Value = serde_json::from_str(&block).expect("JSON");
                let header =
                    txfx_documents::json::header_from_json(&object["header"], ProtocolVersion::PreAzip26)
                        .expect("L2Block's header");
                assert_eq!(
                    header.hash(b.hasher).expect("hash"),
                    fr(at(&fixtures, "/l2Block/hash")),
                    "L2Block.hash()"
                );
            },
        ),
        Case::new(g, "shared header vectors: the 23- and 22-field header hashes", |b| {
            let vectors = at(aztec_fixtures(), "/block_header_vectors");
            let cases = array(vectors, "/cases");
            assert_eq!(cases.len(), 4);
            for case in cases {
                let fields = frs(at(case, "/fields"));
                assert!(fields.len() == 22 || fields.len() == 23);
                let hash =
                    b.hasher.hash_with_separator(&fields, DomainSeparator::BLOCK_HEADER_HASH).expect("hash");
                assert_eq!(hash, fr(at(case, "/hash")), "{}", text(at(case, "/name")));
            }
            assert_eq!(
                BlockHeader::empty(ProtocolVersion::Azip26).hash(b.hasher).expect("hash"),
                fr(at(&cases[0], "/hash")),
                "BlockHeader.empty(), AZIP-26"
            );
            assert_eq!(
                BlockHeader::empty(ProtocolVersion::PreAzip26).hash(b.hasher).expect("hash"),
                fr(at(&cases[2], "/hash")),
                "pre-AZIP"
            );
        }),
        Case::new(g, "archive: the genesis constants, and TypeScript's archive and paths", |b| {
            let (genesis, pinned_root) = genesis_4_1_2();
            let chain_json = json("chain/chain.json");
            // The pin is @aztec/constants 4.1.2's, as TypeScript printed it.
            assert_eq!(genesis, fr(at(&chain_json, "/genesisBlockHeaderHash")), "GENESIS_BLOCK_HEADER_HASH");
            let genesis_root = archive_root(b.hasher, PROTOCOL, &[genesis]).expect("root");
            assert_eq!(genesis_root, pinned_root, "GENESIS_ARCHIVE_ROOT");
            assert_eq!(genesis_root, fr(at(&chain_json, "/genesisArchiveRoot")));
            let chain = ts_chain();
            assert_eq!(archive_root(b.hasher, PROTOCOL, &chain.leaves).expect("root"), chain.root.get());
            for record in array(&chain_json, "/blocks") {
                let number = uint(at(record, "/number"));
                let from_node =
                    crate::archive_witness_text(&at(record, "/archiveWitness/base64").to_string())
                        .expect("base64 reads");
                assert_eq!(from_node.sibling_path, frs(at(record, "/archiveWitness/siblingPath")));
                let built = archive_witness(b.hasher, PROTOCOL, &chain.leaves, number as usize)
                    .expect("build")
                    .expect("in");
                assert_eq!(built, from_node, "block {number}: txfx builds TypeScript's path");
                assert_eq!(
                    txfx_documents::json::archive_witness_to_json(&built),
                    *at(record, "/archiveWitness/base64"),
                    "printed as the node does"
                );
                let hash = fr(at(record, "/hash"));
                let block_number = BlockNumber::try_from(number).expect("a block number");
                let proven =
                    verify_block_hash(b.hasher, PROTOCOL, hash, block_number, &from_node, chain.root)
                        .expect("verifies");
                assert_eq!(
                    (proven.archive_root, proven.block_number, proven.block_hash),
                    (chain.root.get(), block_number, hash),
                    "the verdict names the block"
                );
            }
            assert_eq!(chain.witness.sibling_path.len(), ARCHIVE_HEIGHT);
        }),
        Case::new(
            g,
            "chain: from the archive root to each tx of block 3, by tx hash, effect and category",
            |b| {
                let chain = ts_chain();
                let body = three_tx_body();
                let witnesses =
                    BlockWitnesses::from_body(b.hasher, &body, BlockNumber::new(3)).expect("commit");
                assert_eq!(
                    Some(witnesses.root()),
                    chain.header.tx_effects_tree_root,
                    "block 3 commits to the body"
                );
                let mut proofs = 0;
                for (index, effect) in body.tx_effects.iter().enumerate() {
                    let w = witnesses.witness(index).expect("in block");
                    let check = |subject: ChainSubject<'_>| {
                        verify_chain(
                            b.hasher,
                            PROTOCOL,
                            chain.root,
                            &chain.witness,
                            &chain.header,
                            &w,
                            subject,
                        )
                    };
                    let names_the_tx = |verdict: ChainVerdict| {
                        let tx = verdict.proven.tx();
                        assert_eq!(verdict.block.block_number, BlockNumber::new(3));
                        assert_eq!(verdict.block.block_hash, chain.header.hash(b.hasher).expect("hash"));
                        assert_eq!(tx.tx_hash, Some(effect.tx_hash));
                        assert_eq!((tx.leaf_index, tx.path_length), (w.leaf_index, w.sibling_path.len()));
                    };
                    names_the_tx(
                        check(ChainSubject::Tx(TxClaim { tx_hash: effect.tx_hash, categories_hash: None }))
                            .expect("tx"),
                    );
                    names_the_tx(check(ChainSubject::Effect(effect)).expect("effect"));
                    for category in Category::ALL {
                        let proof = prove_category(b.hasher, effect, category, None).expect("prove");
                        let verdict = check(ChainSubject::Category(&proof))
                            .unwrap_or_else(|e| panic!("tx {index} {category}: {e}"));
                        match verdict.proven {
                            Proven::Category(proven) => assert_eq!(proven.category, category),
                            other => panic!("a category proof proved {other:?}"),
                        }
                        names_the_tx(verdict);
                        proofs += 1;
                    }
                }
                assert_eq!(proofs, 21);
            },
        ),
        Case::new(g, "chain: a hashing failure anywhere is the backend's, never a broken link", |b| {
            // Issue 27: a failure while hashing a category proof's path was reported as link
            // `tx`. Fail every hash from the k-th call on, for every k the genuine chain reaches:
            // each failure must surface as the backend's, with no link, at whatever depth.
            let chain = ts_chain();
            let (body, w, proof) = tx_1_with_proof(b.hasher);
            let effect = &body.tx_effects[1];
            let subjects = [
                ChainSubject::Category(&proof),
                ChainSubject::Effect(effect),
                ChainSubject::Tx(TxClaim { tx_hash: effect.tx_hash, categories_hash: None }),
            ];
            for subject in subjects {
                let run = |hasher: &dyn txfx_poseidon::HashBackend| {
                    verify_chain(hasher, PROTOCOL, chain.root, &chain.witness, &chain.header, &w, subject)
                };
                let counting = FailFrom::new(b.hasher, usize::MAX);
                run(&counting).expect("the genuine chain holds");
                let calls = counting.calls();
                assert!(calls >= 3, "the chain hashes the archive, the header and the tx: {calls} calls");
                for k in 0..calls {
                    let error =
                        run(&FailFrom::new(b.hasher, k)).expect_err("a failing backend proves nothing");
                    assert!(error.backend().is_some(), "call {k} of {calls} failed, yet: {error}");
                    assert_eq!(error.link(), None, "call {k} of {calls}: {error}");
                }
            }
        }),
        Case::new(g, "chain: every tamper is refused at the link it breaks", |b| {
            let chain = ts_chain();
            let (_, w, proof) = tx_1_with_proof(b.hasher);
            let run = |archive_root: TrustedArchiveRoot,
                       archive: &ArchiveWitness,
                       header: &BlockHeader,
                       w: &TxEffectMembershipWitness,
                       proof: &CategoryProof| {
                verify_chain(
                    b.hasher,
                    PROTOCOL,
                    archive_root,
                    archive,
                    header,
                    w,
                    ChainSubject::Category(proof),
                )
            };
            run(chain.root, &chain.witness, &chain.header, &w, &proof).expect("the genuine chain holds");
            let mut tampers: Vec<(Link, Result<ChainVerdict, ChainError>)> = Vec::new();
            let one = Fr::from(1u64);
            // Archive link.
            tampers.push((
                Link::Archive,
                run(
                    TrustedArchiveRoot::from_trusted_source(chain.root.get() + one),
                    &chain.witness,
                    &chain.header,
                    &w,
                    &proof,
                ),
            ));
            for level in [0, 1, 29] {
                let mut archive = chain.witness.clone();
                archive.sibling_path[level] += one;
                tampers.push((Link::Archive, run(chain.root, &archive, &chain.header, &w, &proof)));
            }
            let mut archive = chain.witness.clone();
            archive.leaf_index = 2;
            tampers.push((Link::Archive, run(chain.root, &archive, &chain.header, &w, &proof)));
            archive.sibling_path.pop();
            archive.leaf_index = 3;
            tampers.push((Link::Archive, run(chain.root, &archive, &chain.header, &w, &proof)));
            // An index past the height-30 tree, beside the header's block number.
            let mut archive = chain.witness.clone();
            archive.leaf_index = (1 << 30) + 3;
            tampers.push((Link::Archive, run(chain.root, &archive, &chain.header, &w, &proof)));
            // Every header field changes the block hash, so each is refused in the archive.
            for field in 0..23 {
                let header = tweak_header(&chain.header, field);
                tampers.push((Link::Archive, run(chain.root, &chain.witness, &header, &w, &proof)));
            }
            // Header link: the pre-AZIP-26 layout of the same header.
            let pre = BlockHeader { tx_effects_tree_root: None, ..chain.header };
            tampers.push((Link::Header, run(chain.root, &chain.witness, &pre, &w, &proof)));
            // Witness link.
            let mut other = w.clone();
            other.block_number = BlockNumber::new(4);
            tampers.push((Link::Witness, run(chain.root, &chain.witness, &chain.header, &other, &proof)));
            let mut other = w.clone();
            other.root += one;
            tampers.push((Link::Witness, run(chain.root, &chain.witness, &chain.header, &other, &proof)));
            // Tx link: the witness's path and index, and the proof.
            for i in 0..w.sibling_path.len() {
                let mut other = w.clone();
                other.sibling_path[i] += one;
                tampers.push((Link::Tx, run(chain.root, &chain.witness, &chain.header, &other, &proof)));
            }
            let mut other = w.clone();
            other.leaf_index ^= 1;
            tampers.push((Link::Tx, run(chain.root, &chain.witness, &chain.header, &other, &proof)));
            for tampered in tamper_proof(&proof) {
                tampers.push((Link::Tx, run(chain.root, &chain.witness, &chain.header, &w, &tampered)));
            }
            for (i, (link, result)) in tampers.iter().enumerate() {
                match result {
                    Err(error) => assert_eq!(error.link(), Some(*link), "tamper {i}: {error}"),
                    Ok(_) => panic!("tamper {i} ({}) was accepted", link.name()),
                }
            }
            let per_link = |link: Link| tampers.iter().filter(|(l, _)| *l == link).count();
            // Archive: the root, 3 siblings, the index, the path length, an index past the tree and
            // all 23 header fields; header: the layout; witness: block number and root; tx: 2
            // siblings, the side, and 22 changes to the element proof.
            let counts = [Link::Archive, Link::Header, Link::Witness, Link::Tx].map(per_link);
            assert_eq!(counts, [30, 1, 2, 25], "tampers per link");
        }),
        Case::new(
            g,
            "category proofs: every category of random blocks verifies, every tamper is refused",
            |b| {
                let mut runner =
                    TestRunner::new(Config { cases: 6, failure_persistence: None, ..Config::default() });
                let strategy = (1usize..12, 0usize..3, any::<u64>());
                runner
                    .run(&strategy, |(n, profile, pick)| {
                        let profile = [Profile::Sparse, Profile::SmallCategories, Profile::LogHeavy][profile];
                        let body = block(profile, if profile == Profile::LogHeavy { n.min(3) } else { n })
                            .expect("legal");
                        let witnesses =
                            BlockWitnesses::from_body(b.hasher, &body, BlockNumber::new(9)).expect("commit");
                        let root = trusted(witnesses.root());
                        let index = pick as usize % body.len();
                        let effect = &body.tx_effects[index];
                        let w = witnesses.witness(index).expect("in block");
                        for category in Category::ALL {
                            let proof = prove_category(b.hasher, effect, category, None).expect("prove");
                            prop_assert!(
                                verify_category_proof(b.hasher, &proof, &w, root).is_ok(),
                                "{category}"
                            );
                            // Element level, where the category has elements: each role in turn.
                            let section = CategorySection::of(effect, category);
                            let elements = section.elements();
                            if let Some((place, value)) =
                                elements.get(pick as usize % elements.len().max(1)).copied()
                            {
                                let query = ElementQuery { value, role: Some(place.role) };
                                let element =
                                    prove_category(b.hasher, effect, category, Some(query)).expect("prove");
                                let proven = verify_category_proof(b.hasher, &element, &w, root);
                                prop_assert!(proven.is_ok(), "{category} {place}");
                                // The value is at the place found first for its role.
                                let found = proven.ok().and_then(|proven| proven.element).map(|e| e.place);
                                prop_assert_eq!(found.map(|p| p.role), Some(place.role));
                                for tampered in tamper_proof(&element) {
                                    prop_assert!(
                                        verify_category_proof(b.hasher, &tampered, &w, root).is_err(),
                                        "{category}"
                                    );
                                }
                            }
                            for tampered in tamper_proof(&proof) {
                                prop_assert!(
                                    verify_category_proof(b.hasher, &tampered, &w, root).is_err(),
                                    "{category}"
                                );
                            }
                        }
                        Ok(())
                    })
                    .expect("property holds");
            },
        ),
        Case::new(
            g,
            "category proofs: a shape the marker's counts do not allow is refused before any hash",
            |b| {
                let effect = fixture_effect("small");
                let (w, root) = crate::hostile::small_fixture_witness();
                let verify =
                    |proof: &CategoryProof| verify_category_proof(b.hasher, proof, &w, trusted(root));
                for category in Category::ALL {
                    let proof = prove_category(b.hasher, &effect, category, None).expect("prove");
                    verify(&proof).unwrap_or_else(|e| panic!("{category}: {e}"));
                    let mut longer = proof.clone();
                    longer.preimage.push(Fr::from(5u64));
                    assert!(matches!(verify(&longer), Err(CategoryError::Section { .. })), "{category}");
                    if !proof.preimage.is_empty() {
                        let mut shorter = proof.clone();
                        shorter.preimage.pop();
                        assert!(matches!(verify(&shorter), Err(CategoryError::Section { .. })), "{category}");
                    }
                }
                let proof = prove_category(b.hasher, &effect, Category::Nullifiers, None).expect("prove");
                let mut not_marker = proof;
                not_marker.tx_start_marker = Fr::from(7u64);
                assert!(matches!(verify(&not_marker), Err(CategoryError::NotAMarker { .. })));
                let absent = ElementQuery { value: Fr::from(999u64), role: None };
                assert!(matches!(
                    prove_category(b.hasher, &effect, Category::Nullifiers, Some(absent)),
                    Err(CategoryError::NotInCategory { .. })
                ));
            },
        ),
        Case::new(
            g,
            "snapshots: category proofs of the small fixture and the genesis archive witness",
            |b| {
                let effect = fixture_effect("small");
                let proofs: Vec<String> = Category::ALL
                    .iter()
                    .map(|category| {
                        let proof = prove_category(b.hasher, &effect, *category, None).expect("prove");
                        serde_json::to_string_pretty(&txfx_documents::json::category_proof_to_json(&proof))
                            .expect("JSON")
                    })
                    .collect();
                insta::assert_snapshot!("category_proofs_small_fixture", proofs.join("\n"));
                let (genesis, _) = genesis_4_1_2();
                let witness =
                    archive_witness(b.hasher, PROTOCOL, &[genesis], 0).expect("build").expect("leaf 0");
                let view = format!(
                    "{}\n{}",
                    txfx_documents::json::archive_witness_to_json(&witness),
                    witness
                        .sibling_path
                        .iter()
                        .map(txfx_poseidon::field::fr_to_hex)
                        .collect::<Vec<_>>()
                        .join("\n")
                );
                insta::assert_snapshot!("archive_witness_genesis", view);
            },
        ),
        Case::new(g, "archive witnesses: malformed node answers are refused", |_| {
            for (bad, kind) in [
                (r#"{"jsonrpc":"2.0","id":1}"#, "Rpc/NoResult"),
                (r#"{"jsonrpc":"2.0","id":1,"result":null}"#, "Rpc/NoResult"),
                (r#"{"jsonrpc":"2.0","id":1,"result":"AAAA","error":null}"#, "Rpc/ResultAndError"),
                (r#"[{"jsonrpc":"2.0","id":1,"result":"AAAA"}]"#, "Rpc/Batch"),
                (r#""AAAA""#, "ArchiveWitness/WrongByteLength"),
                (r#""***""#, "NotBase64"),
                ("[1,2]", "Malformed/WrongType"),
                (r#"{"jsonrpc":"2.0","id":1,"error":{"code":-1}}"#, "Rpc/NodeError"),
                ("not json", "Malformed/Syntax"),
            ] {
                let error = crate::archive_witness_text(bad).expect_err(bad);
                assert_eq!(txfx_documents::classify::Classify::kind(&error), kind, "{bad}: {error}");
            }
        }),
    ]
}

/// The header with field `index` of its 23 changed.
fn tweak_header(header: &BlockHeader, index: usize) -> BlockHeader {
    let mut h = *header;
    let one = Fr::from(1u64);
    let g = &mut h.global_variables;
    match index {
        0 => h.last_archive.root += one,
        1 => h.last_archive.next_available_leaf_index += 1,
        2 => h.l1_to_l2_message_tree.root += one,
        3 => h.l1_to_l2_message_tree.next_available_leaf_index += 1,
        4 => h.note_hash_tree.root += one,
        5 => h.note_hash_tree.next_available_leaf_index += 1,
        6 => h.nullifier_tree.root += one,
        7 => h.nullifier_tree.next_available_leaf_index += 1,
        8 => h.public_data_tree.root += one,
        9 => h.public_data_tree.next_available_leaf_index += 1,
        10 => h.sponge_blob_hash += one,
        11 => h.tx_effects_tree_root = h.tx_effects_tree_root.map(|root| root + one),
        12 => g.chain_id += one,
        13 => g.version += one,
        14 => g.block_number = BlockNumber::new(g.block_number.get() ^ (1 << 20)),
        15 => g.slot_number += one,
        16 => g.timestamp += 1,
        17 => g.coinbase[19] ^= 1,
        18 => g.fee_recipient += one,
        19 => g.gas_fees.fee_per_da_gas += 1,
        20 => g.gas_fees.fee_per_l2_gas += 1,
        21 => h.total_fees += one,
        _ => h.total_mana_used += one,
    }
    h
}

/// `2^shift` as a field element.
fn pow2(shift: u32) -> Fr {
    (0..shift).fold(Fr::from(1u64), |acc, _| acc + acc)
}

/// Every single change to a proof: tx hash, each marker count, the fee, each category hash,
/// each preimage field, and the element's index and value.
fn tamper_proof(proof: &CategoryProof) -> Vec<CategoryProof> {
    let one = Fr::from(1u64);
    let mut out = Vec::new();
    let mut push = |change: &dyn Fn(&mut CategoryProof)| {
        let mut p = proof.clone();
        change(&mut p);
        out.push(p);
    };
    push(&|p| p.tx_hash += one);
    push(&|p| p.transaction_fee += one);
    // Each count of the marker, and numBlobFields: a multiple of 2^k within the 216-bit marker.
    for shift in [0u32, 32, 40, 56, 88, 104, 120, 136, 152, 168] {
        push(&move |p| p.tx_start_marker += pow2(shift));
    }
    for i in 0..7 {
        push(&move |p| p.category_hashes[i] += one);
    }
    // The preimage's first 12 positions (the framing: lengths, addresses, the first items) and its
    // last 4: each change is a full rehash of the category, so not every position of a
    // thousand-field log category is tried (the fuzz targets range over all of them).
    let len = proof.preimage.len();
    for i in (0..len.min(12)).chain(len.saturating_sub(4).max(12)..len) {
        push(&move |p| p.preimage[i] += one);
    }
    if proof.element.is_some() {
        push(&|p| {
            p.element = p.element.map(|mut e| {
                e.value += one;
                e
            })
        });
        push(&|p| {
            p.element = p.element.map(|mut e| {
                e.place.item += 1;
                e
            })
        });
    }
    out
}
