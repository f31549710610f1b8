//! The differential corpus: documents (genuine ones and mixed, ambiguous, duplicated or odd
//! variants) with how each of Aztec's TypeScript schemas reads them
//! (`testdata/typescript/readings.json`, written by `cargo xtask ts-fixtures`). For every one,
//! txfx either refuses it or reads exactly what every TypeScript schema that accepts it reads.

use serde_json::{Map, Value, json};
use txfx_documents::json::{body_to_json, effect_to_json};
use txfx_documents::{Doc, read};
use txfx_membership::ProtocolVersion;
use txfx_poseidon::field::fr_to_hex;

use crate::runner::{Backend, Case, Group};
use crate::vectors::{array, at, read_testdata};

/// txfx's reading of one document in its context, printed as TypeScript prints it.
fn txfx_reading(
    b: &Backend<'_>,
    context: &str,
    name: &str,
    text: &str,
    layout: Option<&str>,
) -> Result<Value, String> {
    let doc = Doc::text(name, text);
    match context {
        "effect" => {
            // TypeScript 4.1.2's reading: its rules are pre-AZIP-26's.
            let document = read::effect(doc, ProtocolVersion::PreAzip26).map_err(|e| e.to_string())?;
            let mut reading = Map::new();
            reading.insert("effect".into(), json!(effect_to_json(&document.effect).to_string()));
            if let Some(in_block) = document.in_block {
                reading.insert("l2BlockNumber".into(), json!(in_block.block_number.get()));
                reading.insert("l2BlockHash".into(), json!(fr_to_hex(&in_block.block_hash)));
                reading.insert("txIndexInBlock".into(), json!(in_block.tx_index_in_block));
            }
            Ok(Value::Object(reading))
        }
        "body" => {
            let document =
                read::body(b.hasher, doc, ProtocolVersion::PreAzip26).map_err(|e| e.to_string())?;
            let mut reading = Map::new();
            reading.insert("body".into(), json!(body_to_json(&document.body).to_string()));
            if let Some(number) = document.block_number() {
                reading.insert("blockNumber".into(), json!(number.get()));
            }
            Ok(Value::Object(reading))
        }
        "header" => {
            let layout: ProtocolVersion =
                layout.expect("a header document names its layout").parse().expect("a layout");
            let document = read::header(b.hasher, doc, layout).map_err(|e| e.to_string())?;
            // TypeScript 4.1.2's header has no txEffectsTreeRoot: the rest is compared.
            let mut printed = txfx_documents::json::header_to_json(&document.header);
            printed.as_object_mut().map(|header| header.remove("txEffectsTreeRoot"));
            Ok(json!({ "header": printed.to_string() }))
        }
        "archiveWitness" => {
            let witness = read::archive_witness(doc).map_err(|e| e.to_string())?;
            let path: Vec<String> = witness.sibling_path.iter().map(fr_to_hex).collect();
            Ok(json!({ "leafIndex": witness.leaf_index.to_string(), "siblingPath": path }))
        }
        other => panic!("unknown context {other}"),
    }
}

/// Documents txfx must read: without them the property could hold by refusing everything.
const MUST_READ: [&str; 14] = [
    "effect/a tx effect",
    "effect/a tx effect with a contract-class log",
    "effect/a getTxEffect result",
    "effect/a JSON-RPC response around a getTxEffect result",
    "effect/a tx effect with an unknown key",
    "body/a body",
    "body/an L2Block",
    "body/an array of effects",
    "body/a JSON-RPC response around an L2Block",
    "header/a header",
    "header/an L2Block",
    "header/a header already hashed",
    "header/an AZIP-26 header",
    "archiveWitness/a witness",
];

/// The differential case.
pub fn reading_cases() -> Vec<Case> {
    vec![Case::new(
        Group::TypeScript,
        "typescript readings: every document is refused, or read exactly as every TypeScript schema that accepts it reads it",
        |b| {
            let corpus: Value =
                serde_json::from_str(&read_testdata("typescript/readings.json")).expect("corpus JSON");
            let documents = array(&corpus, "/documents");
            assert!(documents.len() >= 150, "{} documents", documents.len());
            let (mut read, mut refused, mut ambiguous) = (Vec::new(), 0usize, 0usize);
            for document in documents {
                let context = at(document, "/context").as_str().expect("context");
                let name = at(document, "/name").as_str().expect("name");
                let text = at(document, "/json").as_str().expect("text");
                let layout = document.get("layout").and_then(Value::as_str);
                let accepting: Vec<(&str, &Value)> = array(document, "/typescript")
                    .iter()
                    .filter(|t| !t["reading"].is_null())
                    .map(|t| (t["schema"].as_str().expect("schema"), &t["reading"]))
                    .collect();
                let distinct = {
                    let mut readings: Vec<String> = accepting.iter().map(|(_, r)| r.to_string()).collect();
                    readings.sort();
                    readings.dedup();
                    readings.len()
                };
                match txfx_reading(b, context, name, text, layout) {
                    Ok(ours) => {
                        let shown = |value: &Value| value.to_string().chars().take(300).collect::<String>();
                        assert!(
                            !accepting.is_empty(),
                            "{context}/{name}: txfx reads a document no TypeScript schema reads: {}",
                            shown(&ours)
                        );
                        for (schema, theirs) in &accepting {
                            assert!(
                                &ours == *theirs,
                                "{context}/{name}: txfx reads {}, {schema} reads {}",
                                shown(&ours),
                                shown(theirs)
                            );
                        }
                        read.push(format!("{context}/{name}"));
                    }
                    Err(_) => {
                        refused += 1;
                        ambiguous += usize::from(distinct > 1);
                    }
                }
            }
            for name in MUST_READ {
                assert!(read.iter().any(|r| r == name), "txfx refused {name}, a document it must read");
            }
            assert!(
                ambiguous >= 5,
                "the corpus holds documents TypeScript reads two ways ({ambiguous} refused)"
            );
            println!(
                "  typescript readings: {} documents read as TypeScript reads them, {refused} refused ({ambiguous} of them read two ways by TypeScript)",
                read.len()
            );
        },
    )]
}
