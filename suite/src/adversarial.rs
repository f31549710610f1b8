//! The adversarial catalogue (`testdata/adversarial/catalogue.json`, written by
//! `testdata/tools/make_adversarial.py`): what a server that controls every input but the archive
//! root can try against a verifier, each case an operation on documents with the outcome chosen by
//! hand. Run here through `txfx-documents` (the layer the CLI and the bindings call) on every
//! backend; `cli/tests/adversarial.rs` runs the same cases through the `txfx` binary.

use serde_json::{Map, Value};
use txfx_documents::classify::{Classify, ErrorClass};
use txfx_documents::json::witness_to_json;
use txfx_documents::ops::{
    ArchiveSubject, Context, Expected, Subject, TxSelector, blob_decode, blob_encode, block_leaves,
    block_witnesses, body_commitment, category_prove, checkpoint_decode, commitment_json, effect_commitment,
    header_hash, hex_list, leaves_root, leaves_witnesses, verify_archive, verify_tx_chain, verify_witness,
    witness_of,
};
use txfx_documents::{Doc, DocumentError, Problem};
use txfx_membership::{ElementQuery, ProtocolVersion};
use txfx_poseidon::Fr;
use txfx_poseidon::field::{fr_to_hex, parse_fr_hex};
use txfx_tx_effects::BlockNumber;
use txfx_tx_effects::category::ElementRole;

use crate::runner::{Backend, Case, Group};
use crate::vectors::read_testdata;

/// The catalogue's cases.
pub fn catalogue() -> Vec<Value> {
    let catalogue: Value =
        serde_json::from_str(&read_testdata("adversarial/catalogue.json")).expect("catalogue JSON");
    catalogue["cases"].as_array().expect("cases").clone()
}

/// A document reference resolved to its value (see the generator's docs); `$text` is not JSON and
/// is only valid as a whole document ([`document`]).
fn resolve(spec: &Value) -> Value {
    match spec {
        Value::Object(object) if object.contains_key("$file") => {
            let path = object["$file"].as_str().expect("a path");
            let mut value: Value = serde_json::from_str(&read_testdata(path)).expect("a JSON file");
            for patch in object.get("patch").and_then(Value::as_array).into_iter().flatten() {
                let op = patch[0].as_str().expect("op");
                let pointer = patch[1].as_str().expect("pointer");
                let (parent, key) = pointer.rsplit_once('/').expect("a pointer to a key");
                let parent = value.pointer_mut(parent).expect("the parent exists");
                match (op, parent) {
                    ("set", Value::Object(map)) => {
                        map.insert(key.to_owned(), resolve(&patch[2]));
                    }
                    ("set", Value::Array(items)) => {
                        items[key.parse::<usize>().expect("an index")] = resolve(&patch[2])
                    }
                    ("remove", Value::Object(map)) => {
                        map.remove(key);
                    }
                    other => panic!("patch {other:?}"),
                }
            }
            value
        }
        Value::Object(object) if object.contains_key("$object") => {
            let mut out = Map::new();
            for pair in object["$object"].as_array().expect("pairs") {
                out.insert(pair[0].as_str().expect("a key").to_owned(), resolve(&pair[1]));
            }
            Value::Object(out)
        }
        Value::Object(object) if object.contains_key("$repeat") => {
            let repeat = &object["$repeat"];
            Value::Array(vec![resolve(&repeat[0]); repeat[1].as_u64().expect("a count") as usize])
        }
        // References may sit anywhere inside a plain value.
        Value::Object(object) => {
            Value::Object(object.iter().map(|(key, value)| (key.clone(), resolve(value))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(resolve).collect()),
        other => other.clone(),
    }
}

/// A document of a case, as the text a front end would read.
pub fn document(spec: &Value) -> String {
    match spec.get("$text") {
        Some(text) => text.as_str().expect("text").to_owned(),
        None => resolve(spec).to_string(),
    }
}

fn field(text: &Value) -> Result<Fr, DocumentError> {
    let text = text.as_str().expect("a field element");
    parse_fr_hex(text).map_err(|source| Problem::field(text, source).into())
}

fn optional_field(value: Option<&Value>) -> Result<Option<Fr>, DocumentError> {
    value.map(field).transpose()
}

fn expected(inputs: &Value) -> Result<Expected, DocumentError> {
    let e = &inputs["expected"];
    Ok(Expected::default()
        .with_block_number(
            e.get("blockNumber")
                .map(|n| BlockNumber::try_from(n.as_u64().expect("a number")).expect("a block")),
        )
        .with_block_hash(optional_field(e.get("blockHash"))?)
        .with_tx_hash(optional_field(e.get("txHash"))?))
}

/// The protocol a case names: every case names one (the generator writes it).
pub fn protocol_of(case: &Value) -> ProtocolVersion {
    let name = case["protocol"].as_str().expect("every case names its protocol");
    name.parse().expect("a protocol's name")
}

/// Runs one case's operation through `txfx-documents`, under `protocol`'s rules.
fn run(
    b: &Backend<'_>,
    protocol: ProtocolVersion,
    operation: &str,
    inputs: &Value,
) -> Result<Value, DocumentError> {
    let texts: Map<String, Value> = inputs
        .as_object()
        .expect("inputs")
        .iter()
        .map(|(key, spec)| (key.clone(), Value::String(document(spec))))
        .collect();
    let text = |key: &str| texts[key].as_str().expect("a document");
    let doc = |key: &'static str| Doc::text(key, text(key));
    let subject_texts: Map<String, Value> = inputs
        .get("subject")
        .and_then(Value::as_object)
        .map(|subject| subject.iter().map(|(k, v)| (k.clone(), Value::String(document(v)))).collect())
        .unwrap_or_default();
    let subject = || -> Result<(Subject<'_>, Option<Fr>), DocumentError> {
        let s = &inputs["subject"];
        let tx_hash = optional_field(s.get("txHash"))?;
        Ok(if s.get("effect").is_some() {
            (Subject::Effect(Doc::text("effect", subject_texts["effect"].as_str().expect("text"))), tx_hash)
        } else if s.get("proof").is_some() {
            (
                Subject::CategoryProof(Doc::text("proof", subject_texts["proof"].as_str().expect("text"))),
                tx_hash,
            )
        } else if let Some(leaf) = s.get("leaf") {
            (Subject::Leaf(field(leaf)?), None)
        } else {
            let tx_hash = tx_hash.expect("a subject");
            (Subject::Tx { tx_hash, categories_hash: optional_field(s.get("categoriesHash"))? }, None)
        })
    };
    let cx = Context::new(b.hasher, protocol);
    match operation {
        "verify-tx" => {
            let (subject, tx_hash) = subject()?;
            let mut expected = expected(inputs)?;
            expected.tx_hash = expected.tx_hash.or(tx_hash);
            let root = field(&inputs["archiveRoot"])?;
            let verdict = verify_tx_chain(
                cx,
                root,
                doc("archiveWitness"),
                doc("header"),
                doc("witness"),
                subject,
                &expected,
            )?;
            Ok(verdict.to_json().into())
        }
        "witness-verify" | "category-verify" => {
            let (subject, tx_hash) = if operation == "category-verify" {
                (Subject::CategoryProof(doc("proof")), None)
            } else {
                subject()?
            };
            let mut expected = expected(inputs)?;
            expected.tx_hash = expected.tx_hash.or(tx_hash);
            let root = field(&inputs["root"])?;
            Ok(verify_witness(cx, doc("witness"), subject, root, &expected)?.to_json().into())
        }
        "archive-verify" => {
            let root = field(&inputs["root"])?;
            let subject = match inputs.get("header") {
                Some(_) => ArchiveSubject::Header(doc("header")),
                None => ArchiveSubject::BlockHash(field(&inputs["blockHash"])?),
            };
            Ok(verify_archive(cx, root, subject, doc("witness"), &expected(inputs)?)?.to_json().into())
        }
        "block-root" => {
            let root = body_commitment(cx, doc("body"))?.1.root();
            Ok(serde_json::json!({ "txEffectsTreeRoot": fr_to_hex(&root) }))
        }
        "block-witness" => {
            let witnesses = block_witnesses(cx, doc("body"), None)?;
            let tx: TxSelector = inputs["tx"].as_str().expect("tx").parse()?;
            Ok(witness_to_json(&witness_of(&witnesses, tx)?).into())
        }
        "block-leaves" => {
            Ok(txfx_documents::json::stored_block_to_json(&block_leaves(cx, doc("body"), None)?).into())
        }
        "category-prove" => {
            let tx: TxSelector = inputs["tx"].as_str().expect("tx").parse()?;
            let category = inputs["category"].as_str().expect("category").parse().expect("a category");
            let query = match inputs.get("element") {
                Some(value) => Some(ElementQuery {
                    value: field(value)?,
                    role: inputs
                        .get("role")
                        .map(|r| r.as_str().expect("role").parse::<ElementRole>().expect("a role")),
                }),
                None => None,
            };
            Ok(txfx_documents::json::category_proof_to_json(&category_prove(
                cx,
                doc("body"),
                tx,
                category,
                query,
            )?)
            .into())
        }
        "header-hash" => Ok(serde_json::json!({ "blockHash": fr_to_hex(&header_hash(cx, doc("header"))?) })),
        "tree-root" => {
            Ok(serde_json::json!({ "txEffectsTreeRoot": fr_to_hex(&leaves_root(cx, doc("leaves"))?) }))
        }
        "checkpoint-decode" => checkpoint_decode(cx, doc("fields")).map(Into::into),
        "effect-hash" => {
            let (document, commitment) = effect_commitment(cx, doc("effect"))?;
            Ok(commitment_json(&document, &commitment).into())
        }
        "blob-encode" => Ok(hex_list(&blob_encode(cx, doc("document"))?).into()),
        "block-decode-blob" => blob_decode(cx, doc("fields")).map(Into::into),
        "tree-witness" => {
            let block_number = inputs
                .get("blockNumber")
                .map(|n| BlockNumber::try_from(n.as_u64().expect("a number")).expect("a block number"));
            let witnesses = leaves_witnesses(cx, doc("leaves"), block_number)?;
            let tx: TxSelector = inputs["tx"].as_str().expect("tx").parse()?;
            Ok(witness_to_json(&witness_of(&witnesses, tx)?).into())
        }
        other => panic!("unknown operation {other}"),
    }
}

/// Whether `actual` holds every key of `expected` with the same value (recursively into objects).
pub fn contains(actual: &Value, expected: &Value) -> bool {
    match (actual, expected) {
        (Value::Object(actual), Value::Object(expected)) => {
            expected.iter().all(|(key, value)| actual.get(key).is_some_and(|a| contains(a, value)))
        }
        (actual, expected) => actual == expected,
    }
}

/// The longest message a refusal may have: it quotes at most 80 characters of any value, so
/// only a list of keys or two hashes make it long.
pub const MAX_MESSAGE_CHARS: usize = 1000;

/// Checks that a refusal's message is for a person: short, in txfx's words, with no Rust type
/// names or serde jargon.
pub fn check_message(name: &str, message: &str) {
    assert!(
        message.chars().count() <= MAX_MESSAGE_CHARS,
        "{name}: a message of {} characters",
        message.len()
    );
    for jargon in ["struct ", "invalid type:", "serde", "sequence", "`", "Json)", "Raw"] {
        assert!(!message.contains(jargon), "{name}: {jargon:?} in {message:?}");
    }
}

/// The class an outcome names.
pub fn class_of(outcome: &str) -> ErrorClass {
    match outcome {
        "malformed" => ErrorClass::Malformed,
        "out-of-range" => ErrorClass::OutOfRange,
        "refuted" => ErrorClass::Refuted,
        other => panic!("unknown outcome {other}"),
    }
}

/// Checks one case's result against its expectation.
fn check(name: &str, expect: &Value, result: Result<Value, DocumentError>) {
    let outcome = expect["outcome"].as_str().expect("outcome");
    match (outcome, result) {
        ("valid", Ok(value)) => {
            assert!(contains(&value, &expect["verdict"]), "{name}: {value} lacks {}", expect["verdict"]);
            for key in expect["absent"].as_array().into_iter().flatten() {
                let key = key.as_str().expect("a key");
                assert!(value.get(key).is_none(), "{name}: {key} must not be named: {value}");
            }
            if let Some(unverified) = expect.get("unverified") {
                assert_eq!(&value["unverified"], unverified, "{name}: the claims left unchecked");
            }
        }
        ("valid", Err(error)) => panic!("{name}: refused ({}): {error}", error.kind()),
        (_, Ok(value)) => panic!("{name}: accepted, {outcome} expected: {value}"),
        (_, Err(error)) => {
            check_message(name, &error.to_string());
            assert_eq!(error.class(), class_of(outcome), "{name}: {error}");
            assert_eq!(error.kind(), expect["kind"].as_str().expect("kind"), "{name}: {error}");
            if let Some(link) = expect.get("link").and_then(Value::as_str) {
                assert_eq!(error.link(), Some(link), "{name}: {error}");
            }
            if let Some(message) = expect.get("message").and_then(Value::as_str) {
                assert!(error.to_string().contains(message), "{name}: {error}");
            }
        }
    }
}

/// One suite case per catalogue case.
pub fn adversarial_cases() -> Vec<Case> {
    let cases = catalogue();
    assert!(cases.len() >= 40, "{} adversarial cases", cases.len());
    cases
        .into_iter()
        .map(|case| {
            let name = format!(
                "adversarial: finding {}: {}",
                case["finding"].as_str().unwrap_or("?"),
                case["name"].as_str().unwrap_or("?")
            );
            Case::new(Group::BadInputs, name.clone(), move |b| {
                let operation = case["operation"].as_str().expect("operation");
                check(&name, &case["expect"], run(b, protocol_of(&case), operation, &case["inputs"]));
            })
        })
        .collect()
}
