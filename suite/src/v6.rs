//! Aztec v6 as deployed, on every backend: each rule in which v6 differs from 4.1.2 (issue 28's
//! seven divergences) against values copied from v6's sources (`testdata/v6/upstream.json`) and
//! the chain `xtask/ts/v6-chain.mjs` built with `@aztec/foundation` 5.2.0 (`testdata/v6/chain.json`),
//! never against txfx's own output.

use serde_json::{Value, json};
use txfx_documents::classify::{Classify, ErrorClass};
use txfx_documents::json::{body_from_json, effect_from_json, header_from_json, witness_from_json};
use txfx_documents::ops::{Context, block_witnesses, body_commitment, checkpoint_decode};
use txfx_documents::read::{self, TxReceipt, TxStatus};
use txfx_documents::{Doc, Expected, Problem};
use txfx_membership::archive::{archive_root, verify_block_hash};
use txfx_membership::{Network, ProtocolVersion, TrustedArchiveRoot};
use txfx_poseidon::DomainSeparator;
use txfx_poseidon::field::parse_fr_hex;
use txfx_tx_effects::checkpoint::{decode_checkpoint, encode_checkpoint};
use txfx_tx_effects::{BlockNumber, RevertCode, TxEffectError, commit_effect};

use crate::cases::Counting;
use crate::runner::{Case, Group};
use crate::vectors::{at, fr, read_testdata};

const V6: ProtocolVersion = ProtocolVersion::V6;

fn chain() -> Value {
    serde_json::from_str(&read_testdata("v6/chain.json")).expect("chain.json")
}

/// The value `testdata/v6/upstream.json` copies from v6's sources under `name`.
fn upstream(name: &str) -> String {
    named_value("v6/upstream.json", name)
}

/// The `value` of the record named `name` in `file`, a JSON array of `{name, value}` records.
fn named_value(file: &str, name: &str) -> String {
    let records: Value = serde_json::from_str(&read_testdata(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    records
        .as_array()
        .expect("records")
        .iter()
        .find(|record| record["name"] == name)
        .and_then(|record| record["value"].as_str())
        .unwrap_or_else(|| panic!("{file} has no {name}"))
        .to_owned()
}

fn blocks(chain: &Value) -> &[Value] {
    chain["blocks"].as_array().expect("blocks")
}

/// The result inside one of `testdata/v6/rpc/`'s responses, as text.
fn rpc_result(name: &str) -> String {
    let response: Value =
        serde_json::from_str(&read_testdata(&format!("v6/rpc/{name}.response.json"))).expect("a response");
    response["result"].to_string()
}

/// One case per divergence.
pub fn v6_cases() -> Vec<Case> {
    let g = Group::Chain;
    vec![
        Case::new(
            g,
            "v6 (1): archive nodes hash with DOM_SEP__MERKLE_HASH: genesis and the chain's archives",
            |b| {
                assert_eq!(
                    DomainSeparator::MERKLE_HASH.value().to_string(),
                    upstream("DOM_SEP__MERKLE_HASH")
                );
                let genesis = fr(&json!(upstream("GENESIS_BLOCK_HEADER_HASH")));
                let root = archive_root(b.hasher, V6, &[genesis]).expect("root");
                assert_eq!(root, fr(&json!(upstream("GENESIS_ARCHIVE_ROOT"))), "GENESIS_ARCHIVE_ROOT");
                assert_ne!(
                    archive_root(b.hasher, ProtocolVersion::Azip26, &[genesis]).expect("root"),
                    root,
                    "the pre-v6 archive is another"
                );
                let chain = chain();
                let mut leaves = vec![genesis];
                leaves.extend(blocks(&chain).iter().map(|block| fr(at(block, "/header/hash"))));
                for block in blocks(&chain) {
                    let number = block["number"].as_u64().expect("number") as usize;
                    let after = archive_root(b.hasher, V6, &leaves[..=number]).expect("root");
                    assert_eq!(after, fr(at(block, "/archive/root")), "the archive after block {number}");
                }
                // Every witness the node answers, against the archive it is for.
                let witnesses = chain["archiveWitnesses"].as_array().expect("witnesses");
                assert!(witnesses.len() >= 30);
                for witness in witnesses {
                    let decoded = crate::archive_witness_text(&witness["base64"].to_string()).expect("reads");
                    let number =
                        BlockNumber::try_from(witness["block"].as_u64().expect("block")).expect("a block");
                    let trusted = TrustedArchiveRoot::from_trusted_source(fr(&witness["root"]));
                    verify_block_hash(b.hasher, V6, fr(&witness["blockHash"]), number, &decoded, trusted)
                        .unwrap_or_else(|e| {
                            panic!("block {number} against {}: {e}", witness["referenceBlock"])
                        });
                    assert!(
                        verify_block_hash(
                            b.hasher,
                            ProtocolVersion::Azip26,
                            fr(&witness["blockHash"]),
                            number,
                            &decoded,
                            trusted
                        )
                        .is_err(),
                        "a v6 witness does not verify without the separator"
                    );
                }
            },
        ),
        Case::new(g, "v6 (2): genesis values are per network, each from its source", |_| {
            let canonical = Network::named("canonical").expect("built in");
            assert_eq!(
                canonical.genesis_block_header_hash,
                Some(fr(&json!(upstream("GENESIS_BLOCK_HEADER_HASH"))))
            );
            assert_eq!(canonical.genesis_archive_root, Some(fr(&json!(upstream("GENESIS_ARCHIVE_ROOT")))));
            let testnet = Network::named("testnet").expect("built in");
            assert_eq!(
                testnet.genesis_archive_root,
                Some(fr(&json!(upstream("testnet genesis archive root (v6 testnet pin, latest stored)"))))
            );
            assert_ne!(testnet.genesis_archive_root, canonical.genesis_archive_root);
            let mainnet = Network::named("mainnet").expect("built in");
            assert_eq!(mainnet.genesis_archive_root, None, "no v6 source pins it: never guessed");
            assert!(Network::named("devnet").is_err());
        }),
        Case::new(
            g,
            "v6 (3): a snapshot's nextAvailableLeafIndex up to 2^53 - 1, as number or decimal string",
            |b| {
                let chain = chain();
                let labs = &chain["vectors"]["labsSeedHeader"];
                let text = labs["json"].as_str().expect("json");
                let header = header_from_json(text, V6).expect("the labs vector reads in v6");
                assert_eq!(header.l1_to_l2_message_tree.next_available_leaf_index, 10_107_653_120);
                assert_eq!(
                    header.hash(b.hasher).expect("hash"),
                    fr(&labs["expected"]),
                    "makeBlockHeader(9870243)"
                );
                assert!(
                    header_from_json(text, ProtocolVersion::Azip26).is_err(),
                    "above 2^32: not a pre-v6 index"
                );
                // The same index as a decimal string, as TreeLeafIndexSchema also takes it.
                let as_string = text.replace("10107653120", "\"10107653120\"");
                assert_eq!(header_from_json(&as_string, V6).expect("a decimal string"), header);
                let unsafe_number = text.replace("10107653120", "9007199254740992");
                assert!(header_from_json(&unsafe_number, V6).is_err(), "past 2^53 - 1");
                let empty = &chain["vectors"]["emptyHeader"];
                let empty_header =
                    header_from_json(empty["json"].as_str().expect("json"), V6).expect("reads");
                assert_eq!(empty_header.hash(b.hasher).expect("hash"), fr(&empty["expected"]));
                for block in blocks(&chain) {
                    let header =
                        header_from_json(block["header"]["json"].as_str().expect("json"), V6).expect("reads");
                    assert_eq!(header.hash(b.hasher).expect("hash"), fr(at(block, "/header/hash")));
                }
            },
        ),
        Case::new(g, "v6 (4): every block of a checkpoint ends with 7 blob fields", |b| {
            let chain = chain();
            for checkpoint in chain["checkpoints"].as_array().expect("checkpoints") {
                let file = checkpoint["blobFieldsFile"].as_str().expect("file");
                let text = read_testdata(file);
                let fields: Vec<txfx_poseidon::Fr> =
                    serde_json::from_str::<Vec<Value>>(&text).expect("fields").iter().map(fr).collect();
                let decoded = decode_checkpoint(V6, &fields).unwrap_or_else(|e| panic!("{file}: {e}"));
                let numbers: Vec<u64> =
                    decoded.blocks().iter().map(|block| u64::from(block.block_number.get())).collect();
                assert_eq!(json!(numbers), checkpoint["blocks"], "{file}");
                let encoded = encode_checkpoint(&decoded);
                assert_eq!(&fields[..encoded.len()], encoded.as_slice(), "{file}: encoded back bit for bit");
                if numbers.len() > 1 {
                    assert!(
                        decode_checkpoint(ProtocolVersion::Azip26, &fields).is_err(),
                        "{file}: not the 7-then-6 layout"
                    );
                }
                // Each block's root, against the chain's headers.
                let json =
                    checkpoint_decode(Context::new(b.hasher, V6), Doc::text(file, &text)).expect("decodes");
                for (block, number) in json["blocks"].as_array().expect("blocks").iter().zip(&numbers) {
                    let header = &blocks(&chain)[*number as usize - 1]["header"]["json"];
                    let header: Value = serde_json::from_str(header.as_str().expect("json")).expect("JSON");
                    assert_eq!(block["txEffectsTreeRoot"], header["txEffectsTreeRoot"], "block {number}");
                    assert_eq!(
                        block["l1ToL2MessageRoot"], header["state"]["l1ToL2MessageTree"]["root"],
                        "block {number}"
                    );
                }
            }
        }),
        Case::new(g, "v6 (5): revertCode 0 is OK and every other value REVERTED", |b| {
            let small: Value = serde_json::from_str(&read_testdata("effects/small.json")).expect("JSON");
            let with = |code: u64| {
                let mut effect = small.clone();
                effect["revertCode"] = json!(code);
                effect.to_string()
            };
            let reverted = effect_from_json(&with(1), V6).expect("1");
            assert_eq!(reverted.revert_code, RevertCode::AppLogicReverted);
            let leaf = commit_effect(b.hasher, &reverted).expect("commit").leaf;
            for code in [2, 3, 4, 255, 1 << 40] {
                let effect = effect_from_json(&with(code), V6).unwrap_or_else(|e| panic!("{code}: {e}"));
                assert_eq!(effect.revert_code, RevertCode::AppLogicReverted, "{code}");
                assert_eq!(
                    commit_effect(b.hasher, &effect).expect("commit").leaf,
                    leaf,
                    "{code}: the same tx"
                );
            }
            let before = effect_from_json(&with(2), ProtocolVersion::Azip26).expect("2 before v6");
            assert_ne!(
                commit_effect(b.hasher, &before).expect("commit").leaf,
                leaf,
                "before v6, 2 is another leaf"
            );
            assert!(matches!(
                effect_from_json(&with(4), ProtocolVersion::Azip26),
                Err(txfx_documents::json::JsonError::Invalid {
                    source: TxEffectError::InvalidRevertCode { .. },
                    ..
                })
            ));
        }),
        Case::new(g, "v6 (6): private-log padding must be zero, a contract-class log's length exact", |_| {
            let small: Value = serde_json::from_str(&read_testdata("effects/small.json")).expect("JSON");
            let mut padded = small.clone();
            padded["privateLogs"][0]["fields"][15] = json!("0x05");
            let mut trailing = small;
            let log = &mut trailing["contractClassLogs"][0];
            let length = log["emittedLength"].as_u64().expect("length") as usize;
            log["emittedLength"] = json!(length + 1);
            // Each document breaks one rule v6 added, and none that was there before it.
            type IsTheRule = fn(&TxEffectError) -> bool;
            let cases: [(Value, IsTheRule); 2] = [
                (padded, |rule| matches!(rule, TxEffectError::LogPaddingNotZero { .. })),
                (trailing, |rule| matches!(rule, TxEffectError::ContractClassLogLength { .. })),
            ];
            for (document, is_the_rule) in cases {
                let document = document.to_string();
                let refusal = effect_from_json(&document, V6);
                assert!(
                    matches!(&refusal, Err(txfx_documents::json::JsonError::Invalid { source, .. }) if is_the_rule(source)),
                    "{refusal:?}"
                );
                effect_from_json(&document, ProtocolVersion::Azip26).expect("before v6 it is read");
            }
        }),
        Case::new(
            g,
            "v6 (7): receipts, getTxEffect with slotNumber, block responses, block data, witnesses",
            |b| {
                let chain = chain();
                let cx = Context::new(b.hasher, V6);
                // A mined receipt with its effect: the effect, and its claims.
                let receipt = rpc_result("getTxReceipt-block1-tx0-with-tx-effect");
                let document =
                    read::effect(Doc::text("receipt", &receipt), V6).expect("a receipt reads as an effect");
                let claims = document.in_block.expect("claims");
                assert_eq!((claims.block_number.get(), claims.status), (1, Some(TxStatus::Finalized)));
                // Pending and dropped receipts answer that the tx is in no block.
                for key in ["getTxReceiptPending", "getTxReceiptDropped"] {
                    let text = chain["nodeAnswers"][key]["json"].as_str().expect("json");
                    match read::tx_receipt(Doc::text(key, text)).expect("reads") {
                        TxReceipt::Pending { .. } | TxReceipt::Dropped { .. } => {}
                        TxReceipt::Mined(_) => panic!("{key}: mined"),
                    }
                    assert!(read::effect(Doc::text(key, text), V6).is_err(), "{key}: no effect to read");
                }
                // getTxEffect: slotNumber required in v6.
                let indexed = rpc_result("getTxEffect-block1-tx0");
                let read_back = read::effect(Doc::text("getTxEffect", &indexed), V6).expect("reads");
                assert_eq!(read_back.in_block.expect("claims").slot_number, claims.slot_number);
                let without: Value = {
                    let mut value: Value = serde_json::from_str(&indexed).expect("JSON");
                    value.as_object_mut().expect("object").remove("slotNumber");
                    value
                };
                assert!(read::effect(Doc::text("getTxEffect", &without.to_string()), V6).is_err());
                // getBlock with and without the body, and getBlockData: hash and number checked.
                for number in 1..=8u64 {
                    let with = rpc_result(&format!("getBlock-block{number}-with-transactions"));
                    let body = read::body(b.hasher, Doc::text("getBlock", &with), V6).expect("a body");
                    assert_eq!(body.block_number(), Some(BlockNumber::try_from(number).expect("a block")));
                    let bare = rpc_result(&format!("getBlock-block{number}"));
                    assert!(read::body(b.hasher, Doc::text("getBlock", &bare), V6).is_err(), "no body in it");
                    read::header(b.hasher, Doc::text("getBlock", &bare), V6).expect("its header reads");
                    let data = rpc_result(&format!("getBlockData-block{number}"));
                    read::header(b.hasher, Doc::text("getBlockData", &data), V6).expect("block data reads");
                    let mut lie: Value = serde_json::from_str(&with).expect("JSON");
                    lie["number"] = json!(number + 1);
                    assert!(
                        read::body(b.hasher, Doc::text("lie", &lie.to_string()), V6).is_err(),
                        "a number that lies"
                    );
                }
                // A witness needs categoriesHash in v6.
                let witness = rpc_result("getTxEffectMembershipWitness-block1-tx0");
                witness_from_json(&witness, V6).expect("reads");
                let mut without: Value = serde_json::from_str(&witness).expect("JSON");
                without.as_object_mut().expect("object").remove("categoriesHash");
                assert!(witness_from_json(&without.to_string(), V6).is_err());
                witness_from_json(&without.to_string(), ProtocolVersion::Azip26).expect("optional before v6");
                // A block's body as v6 prints it.
                body_from_json(&read_testdata("blocks/three-fixtures.json"), V6).expect("reads");
                // The whole chain from the files, as `txfx verify tx` reads them: block 3's tx 1.
                let verdict = txfx_documents::ops::verify_tx_chain(
                    cx,
                    parse_fr_hex(chain["archive"][4]["root"].as_str().unwrap_or_default())
                        .unwrap_or_default(),
                    Doc::text("archive witness", &rpc_result("getBlockHashMembershipWitness-R5-block3")),
                    Doc::text("header", &rpc_result("getBlockData-block3")),
                    Doc::text(
                        "witness",
                        chain["nodeAnswers"]["positionalTxEffectWitnesses"][1]["json"]
                            .as_str()
                            .unwrap_or_default(),
                    ),
                    txfx_documents::Subject::Effect(Doc::text(
                        "effect",
                        &read_testdata("effects/small.json"),
                    )),
                    &Expected::default(),
                )
                .expect("block 3's tx 1 under the archive after block 4");
                assert_eq!(verdict.block_number(), Some(BlockNumber::new(3)));
            },
        ),
        Case::new(
            g,
            "v6 (8): a block's body is hashed once for its root, leaves and witnesses, checked against its header on that hashing",
            |b| {
                let leaf = Some(DomainSeparator::TX_EFFECTS_TREE_LEAF.value());
                let leaves_hashed = |counting: &Counting<'_>| {
                    counting.jobs.lock().expect("lock").get(&leaf).copied().unwrap_or_default()
                };
                let mut txs_seen = 0;
                for number in 1..=8u64 {
                    let with = rpc_result(&format!("getBlock-block{number}-with-transactions"));
                    let doc = Doc::text("getBlock", &with);
                    let alone = read::body(b.hasher, doc, V6).expect("a body");
                    let txs = alone.body.tx_effects.len();
                    txs_seen += txs;
                    let counting = Counting::new(b.hasher);
                    let (document, commitment) =
                        body_commitment(Context::new(&counting, V6), doc).expect("commits");
                    assert_eq!(document, alone, "block {number}: the document read alone");
                    assert_eq!(
                        Some(commitment.root()),
                        alone.block.as_ref().and_then(|block| block.header.tx_effects_tree_root)
                    );
                    assert_eq!(
                        leaves_hashed(&counting),
                        txs,
                        "block {number}: root and leaves hash each leaf once"
                    );
                    let counting = Counting::new(b.hasher);
                    let witnesses =
                        block_witnesses(Context::new(&counting, V6), doc, None).expect("witnesses");
                    assert_eq!(witnesses.root(), commitment.root(), "block {number}");
                    assert_eq!(
                        leaves_hashed(&counting),
                        txs,
                        "block {number}: witnesses hash each leaf once"
                    );
                }
                assert_eq!(
                    txs_seen,
                    1 + 3 + 1 + 1 + 1 + 1,
                    "the blocks' txs, so that the counts are not all zero"
                );
                // A body its header does not commit to: the error of the reading alone, on both
                // paths, and the header's check comes before a block number in conflict.
                let mut lie: Value =
                    serde_json::from_str(&rpc_result("getBlock-block1-with-transactions")).expect("JSON");
                lie["body"]["txEffects"][0]["noteHashes"][0] = json!(format!("0x{:064x}", 7));
                let lie = lie.to_string();
                let doc = Doc::text("lie", &lie);
                let alone = read::body(b.hasher, doc, V6).expect_err("a body its header does not commit to");
                assert!(matches!(*alone.problem, Problem::BodyNotInHeader { .. }), "{alone}");
                let cx = Context::new(b.hasher, V6);
                assert_eq!(body_commitment(cx, doc).expect_err("refused"), alone);
                assert_eq!(block_witnesses(cx, doc, None).expect_err("refused"), alone);
                assert_eq!(block_witnesses(cx, doc, Some(BlockNumber::new(2))).expect_err("refused"), alone);
                let genuine = rpc_result("getBlock-block1-with-transactions");
                assert!(matches!(
                    *block_witnesses(cx, Doc::text("getBlock", &genuine), Some(BlockNumber::new(2)))
                        .expect_err("a number in conflict")
                        .problem,
                    Problem::BlockNumberConflict { .. }
                ));
            },
        ),
        schema_case_coinbase(),
        schema_case_slot_number(),
        schema_case_node_answer_extras(),
        schema_case_private_log_count(),
    ]
}

/// The value `testdata/v6/schema-readings.json` copies from v6's schemas (or an Aztec source
/// that v6's schema reads) under `name`.
fn schema_reading(name: &str) -> String {
    named_value("v6/schema-readings.json", name)
}

/// Block 1's header JSON from the chain, with `globalVariables.<key>` replaced by `value`.
fn header_with(key: &str, value: Value) -> (String, Value) {
    let chain = chain();
    let block = &blocks(&chain)[0];
    let mut header: Value =
        serde_json::from_str(block["header"]["json"].as_str().expect("json")).expect("a header");
    header["globalVariables"][key] = value;
    (header.to_string(), block["header"]["hash"].clone())
}

/// The class of a header's refusal, and its kind.
fn header_refusal(text: &str, protocol: ProtocolVersion) -> (ErrorClass, String) {
    let error = header_from_json(text, protocol).expect_err("refused");
    (error.class(), error.kind())
}

const ALL_PROTOCOLS: [ProtocolVersion; 3] =
    [ProtocolVersion::V6, ProtocolVersion::Azip26, ProtocolVersion::PreAzip26];

/// The chain's header in `protocol`'s layout: v6's own, or without `txEffectsTreeRoot`.
fn in_layout(text: &str, protocol: ProtocolVersion) -> String {
    let mut header: Value = serde_json::from_str(text).expect("JSON");
    if !protocol.has_tx_effects_tree() {
        header.as_object_mut().expect("object").remove("txEffectsTreeRoot");
    }
    header.to_string()
}

fn schema_case_coinbase() -> Case {
    Case::new(Group::Chain, "v6 schema: a coinbase's mixed case must be its EIP-55 checksum", |b| {
        let checksummed = schema_reading("checksummed EthAddress");
        let lower = checksummed.to_lowercase();
        let upper = format!("0x{}", checksummed[2..].to_uppercase());
        // One letter's case flipped, the rest still mixed: no longer the checksum.
        let flipped = checksummed.replacen("Bad", "bad", 1);
        assert_ne!(flipped, checksummed);
        for protocol in ALL_PROTOCOLS {
            let read = |address: &str| {
                let (text, _) = header_with("coinbase", json!(address));
                header_from_json(&in_layout(&text, protocol), protocol)
            };
            let header = read(&lower).expect("all lower case");
            assert_eq!(read(&checksummed).expect("its checksum"), header, "{protocol:?}");
            assert_eq!(read(&upper).expect("all upper case"), header, "{protocol:?}");
            assert_eq!(read(&lower[2..]).expect("without 0x"), header, "{protocol:?}");
            for refused in [flipped.clone(), format!("0X{}", &lower[2..])] {
                let (text, _) = header_with("coinbase", json!(refused));
                let refusal = header_refusal(&in_layout(&text, protocol), protocol);
                assert_eq!(refusal, (ErrorClass::Malformed, "Malformed/BadValue".into()), "{refused}");
            }
        }
        // The chain's own coinbase in upper case is the same header, with the chain's hash.
        let chain = chain();
        let own: Value = serde_json::from_str(blocks(&chain)[0]["header"]["json"].as_str().expect("json"))
            .expect("a header");
        let own = own["globalVariables"]["coinbase"].as_str().expect("coinbase").to_owned();
        let (text, hash) = header_with("coinbase", json!(format!("0x{}", own[2..].to_uppercase())));
        let header = header_from_json(&text, V6).expect("upper case");
        assert_eq!(header.hash(b.hasher).expect("hash"), fr(&hash));
    })
}

fn schema_case_slot_number() -> Case {
    Case::new(Group::Chain, "v6 schema: slotNumber as SlotNumberSchema reads it, up to 2^53 - 1", |b| {
        let chain = chain();
        let block = &blocks(&chain)[0];
        let own: Value = serde_json::from_str(block["header"]["json"].as_str().expect("json")).expect("JSON");
        let hex = own["globalVariables"]["slotNumber"].as_str().expect("slot").to_owned();
        let hash = block["header"]["hash"].clone();
        let slot = u64::from_str_radix(hex.trim_start_matches("0x"), 16).expect("a slot");
        let max: u64 = schema_reading("largest v6 slot number").parse().expect("a number");
        for protocol in ALL_PROTOCOLS {
            let read = |value: Value| {
                let (text, _) = header_with("slotNumber", value);
                header_from_json(&in_layout(&text, protocol), protocol)
            };
            let header = read(json!(hex)).expect("the 0x-hex a node prints");
            if protocol == V6 {
                assert_eq!(header.hash(b.hasher).expect("hash"), fr(&hash), "the chain's hash");
            }
            assert_eq!(read(json!(slot)).expect("a JSON number"), header, "{protocol:?}");
            assert_eq!(read(json!(slot.to_string())).expect("a decimal string"), header);
            assert_eq!(read(json!(format!("0x{slot:x}"))).expect("short hex"), header);
            let largest = read(json!(max)).expect("2^53 - 1");
            assert_eq!(largest.global_variables.slot_number, txfx_poseidon::Fr::from(max));
            assert_eq!(read(json!(format!("0x{max:x}"))).expect("2^53 - 1 in hex"), largest);
            for above in [
                json!(format!("0x{:x}", max + 1)),
                json!((max + 1).to_string()),
                json!(hex.replace("0x0", "0x1")),
                json!(-1),
            ] {
                let (text, _) = header_with("slotNumber", above.clone());
                assert_eq!(
                    header_refusal(&in_layout(&text, protocol), protocol),
                    (ErrorClass::OutOfRange, "Malformed/Number".into()),
                    "{above}"
                );
            }
            // Forms SlotNumberSchema coerces but no node prints, refused as docs/spec.md §12.1 says.
            for odd in [json!(""), json!(" 5"), json!("1e3"), json!("0x"), json!("0xg"), json!(true)] {
                let (text, _) = header_with("slotNumber", odd.clone());
                assert_eq!(
                    header_refusal(&in_layout(&text, protocol), protocol).0,
                    ErrorClass::Malformed,
                    "{odd}"
                );
            }
        }
    })
}

fn schema_case_node_answer_extras() -> Case {
    Case::new(Group::Chain, "v6 schema: a block response's l1 and attestations, a receipt's debugLogs", |b| {
        let bare: Value = serde_json::from_str(&rpc_result("getBlock-block1")).expect("JSON");
        let with = |key: &str, value: Value| {
            let mut document = bare.clone();
            document[key] = value;
            read::header(b.hasher, Doc::text("getBlock", &document.to_string()), V6)
        };
        let reads = |key: &str, value: Value| {
            with(key, value.clone()).unwrap_or_else(|e| panic!("{key} {value}: {e}"));
        };
        let refused = |key: &str, value: Value, class: ErrorClass| {
            let error = with(key, value.clone()).expect_err("refused");
            assert_eq!(error.class(), class, "{key} {value}: {error}");
        };
        reads("l1", json!({"published": false}));
        reads(
            "l1",
            json!({"published": true, "blockNumber": "23901234", "timestamp": 1763598554, "blockHash": "0xab"}),
        );
        refused("l1", json!({"published": true}), ErrorClass::Malformed);
        refused("l1", json!({"published": "yes"}), ErrorClass::Malformed);
        refused(
            "l1",
            json!({"published": true, "blockNumber": 1.5, "timestamp": 1, "blockHash": ""}),
            ErrorClass::Malformed,
        );
        refused("l1", Value::Null, ErrorClass::Malformed);
        // The empty signature (r = s = 0, v = 0) prints 129 hex digits, the fewest Signature takes.
        let empty = format!("0x{}", "0".repeat(129));
        let address = schema_reading("checksummed EthAddress");
        reads("attestations", json!([]));
        reads("attestations", json!([{"address": address, "signature": empty}]));
        refused(
            "attestations",
            json!([{"address": address, "signature": &empty[..130]}]),
            ErrorClass::Malformed,
        );
        refused(
            "attestations",
            json!([{"address": address.replacen("Bad", "bad", 1), "signature": empty}]),
            ErrorClass::Malformed,
        );
        refused("attestations", json!([{"signature": empty}]), ErrorClass::Malformed);
        let committee: usize = schema_reading("MAX_COMMITTEE_SIZE").parse().expect("a number");
        let one = json!({"address": address, "signature": empty});
        reads("attestations", Value::Array(vec![one.clone(); committee]));
        refused("attestations", Value::Array(vec![one; committee + 1]), ErrorClass::OutOfRange);
        // A mined receipt's debugLogs.
        let receipt: Value = serde_json::from_str(&rpc_result("getTxReceipt-block1-tx0")).expect("JSON");
        let logged = |logs: Value| {
            let mut document = receipt.clone();
            document["debugLogs"] = logs;
            read::tx_receipt(Doc::text("receipt", &document.to_string()))
        };
        let log = json!({"contractAddress": format!("0x{}", "0".repeat(63) + "5"), "level": "debug", "message": "x: {0}", "fields": ["0x01"]});
        assert!(matches!(logged(json!([log])), Ok(TxReceipt::Mined(_))));
        for (key, bad) in [
            ("level", json!("loud")),
            ("message", json!(5)),
            ("fields", json!([1])),
            ("contractAddress", json!("0x05")),
        ] {
            let mut wrong = log.clone();
            wrong[key] = bad;
            let error = logged(json!([wrong])).expect_err("refused");
            assert_eq!(error.class(), ErrorClass::Malformed, "{key}: {error}");
        }
        let cap: usize = schema_reading("DEFAULT_MAX_DEBUG_LOG_MEMORY_READS").parse().expect("a number");
        let mut heavy = log;
        heavy["fields"] = Value::Array(vec![json!("0x0"); cap + 1]);
        assert_eq!(logged(json!([heavy])).expect_err("refused").class(), ErrorClass::OutOfRange);
    })
}

fn schema_case_private_log_count() -> Case {
    Case::new(Group::Chain, "v6 schema: a private log has exactly 16 fields, in every protocol", |_| {
        let small: Value = serde_json::from_str(&read_testdata("effects/small.json")).expect("JSON");
        assert_eq!(schema_reading("PrivateLog.schema"), "exactly 16 fields");
        let mut short = small.clone();
        short["privateLogs"][0]["fields"].as_array_mut().expect("fields").pop();
        let short = short.to_string();
        for protocol in ALL_PROTOCOLS {
            effect_from_json(&small.to_string(), protocol).expect("16 fields");
            let error = effect_from_json(&short, protocol).expect_err("15 fields");
            assert_eq!((error.class(), error.kind()), (ErrorClass::Malformed, "Malformed/Count".into()));
            assert!(
                error.to_string().contains("privateLogs[0].fields: 15 elements"),
                "names where and the count: {error}"
            );
        }
    })
}
