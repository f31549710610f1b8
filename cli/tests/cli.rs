//! The `txfx` binary end to end: outputs against the vectors, and the exit-status convention
//! (0 success, 1 a failed check, 2 malformed input).

// Test code: a failed expectation is a failed test.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::process::{Output, Stdio};

use common::{stdout, txfx, txfx_with};
use txfx_suite::vectors::{at, aztec_fixtures, testdata_dir};

/// The verdict a verifying command printed, with its exit status.
fn verdict(output: &Output) -> (Option<i32>, serde_json::Value) {
    let json = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("a verdict on stdout ({e}): {output:?}"));
    (output.status.code(), json)
}

/// Asserts a failed check: exit 1 and `{"valid": false, "link": link, "reason": .. text ..}`.
fn refuted(output: &Output, link: &str, text: &str) {
    let (code, json) = verdict(output);
    assert_eq!(code, Some(1), "{json}");
    assert_eq!(json["valid"], false, "{json}");
    assert_eq!(json["link"], link, "{json}");
    assert!(json["reason"].as_str().is_some_and(|reason| reason.contains(text)), "{json}");
}

fn expect_str(pointer: &str) -> String {
    at(aztec_fixtures(), pointer).as_str().expect("string").to_owned()
}

#[test]
fn permute_prints_four_lanes_on_every_backend() {
    let lanes = |pointer: &str| -> Vec<String> {
        let list = at(aztec_fixtures(), pointer).as_array().expect("array");
        list.iter().map(|v| v.as_str().expect("hex").to_owned()).collect()
    };
    let expected = lanes("/poseidon2_permutation_vectors/1/output");
    let input = lanes("/poseidon2_permutation_vectors/1/input");
    for backend in ["native", "wasm"] {
        let mut args = vec!["--backend", backend, "poseidon2", "permute"];
        args.extend(input.iter().map(String::as_str));
        let output = txfx(&args);
        assert!(output.status.success(), "{output:?}");
        assert_eq!(stdout(&output).lines().collect::<Vec<_>>(), expected);
    }
}

#[test]
fn hash_with_separator_matches_the_vector() {
    let output = txfx(&["poseidon2", "hash", "--separator", "57496191", "123", "0x1c8"]);
    assert_eq!(stdout(&output), expect_str("/poseidon2_hash_with_separator_vectors/0/output"));
}

#[test]
fn malformed_arguments_exit_2_naming_the_argument() {
    let output = txfx(&["poseidon2", "hash", "12", "0xzz"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("input 1 \"0xzz\""));
    let p = txfx(&[
        "poseidon2",
        "permute",
        "0",
        "1",
        "2",
        "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001",
    ]);
    assert_eq!(p.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&p.stderr).contains("lane 3"));
    assert_eq!(txfx(&["poseidon2", "permute", "1", "2", "3"]).status.code(), Some(2));
    assert_eq!(txfx(&["--backend", "gpu", "backend"]).status.code(), Some(2));
    assert_eq!(txfx_with(&["backend"], &[("TXFX_BACKEND", "fast")], None).status.code(), Some(2));
    assert_eq!(txfx(&["block", "root", "no-such-file.json"]).status.code(), Some(2));
}

#[test]
fn effect_hash_prints_the_small_fixture_commitment() {
    let output = txfx(&["effect", "hash", "effects/small.json"]);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let fixture = at(aztec_fixtures(), "/tx_effect_fixtures/small");
    assert_eq!(json["leaf"], fixture["leaf"]);
    assert_eq!(json["categoriesHash"], fixture["categories_hash"]);
    assert_eq!(json["categoryHashes"], fixture["category_hashes"]);
    assert_eq!(json["txStartMarker"], fixture["tx_start_marker"]);
    assert_eq!(json["numBlobFields"], fixture["num_blob_fields"]);
    // The keys in TypeScript's order, read from the text (a parsed Value's order is serde_json's).
    let text = String::from_utf8_lossy(&output.stdout);
    let keys = ["txHash", "txStartMarker", "categoryHashes", "categoriesHash", "leaf", "numBlobFields"];
    let at: Vec<usize> = keys.iter().map(|key| text.find(&format!("\"{key}\":")).expect("the key")).collect();
    assert!(at.is_sorted(), "keys out of order: {text}");
    assert_eq!(json.as_object().expect("object").len(), keys.len());
    assert_eq!(json["txHash"], fixture["tx_hash"]);
}

#[test]
fn block_commands_agree_with_the_three_tx_vectors() {
    let root = expect_str("/three_tx_block/root");
    assert_eq!(stdout(&txfx(&["block", "root", "blocks/three-fixtures.json"])), root);
    assert_eq!(stdout(&txfx(&["--backend", "wasm", "block", "root", "blocks/three-fixtures.json"])), root);
    assert_eq!(stdout(&txfx(&["tree", "root", "blocks/three-fixtures.leaves.json"])), root);
    let leaves: serde_json::Value =
        serde_json::from_slice(&txfx(&["block", "leaves", "blocks/three-fixtures.json", "--bare"]).stdout)
            .expect("JSON");
    assert_eq!(&leaves, at(aztec_fixtures(), "/three_tx_block/leaves"));
    // The stored form: the upstream fixtures' tx hashes, categories hashes and leaves.
    let stored = txfx(&["block", "leaves", "blocks/three-fixtures.json", "--block-number", "7"]);
    let stored: serde_json::Value = serde_json::from_slice(&stored.stdout).expect("JSON");
    assert_eq!(
        (stored["blockNumber"].as_u64(), stored["txEffectsTreeRoot"].as_str()),
        (Some(7), Some(root.as_str()))
    );
    for (tx, name) in ["empty", "small", "maximum"].iter().enumerate() {
        let fixture = at(aztec_fixtures(), &format!("/tx_effect_fixtures/{name}"));
        assert_eq!(stored["txs"][tx]["txHash"], fixture["tx_hash"], "{name}");
        assert_eq!(stored["txs"][tx]["categoriesHash"], fixture["categories_hash"], "{name}");
        assert_eq!(stored["txs"][tx]["leaf"], fixture["leaf"], "{name}");
    }
    let no_number = txfx(&["block", "leaves", "blocks/three-fixtures.json"]);
    assert_eq!(no_number.status.code(), Some(2), "a bare body has no block number to store");
    let stored_root = txfx_with(&["tree", "root", "-"], &[], Some(&stored.to_string()));
    assert_eq!(stdout(&stored_root), root);
    let decoded = txfx(&["block", "decode-blob", "blocks/three-fixtures.blob.json"]);
    assert!(decoded.status.success());
    let again = txfx_with(&["block", "root", "-"], &[], Some(&String::from_utf8_lossy(&decoded.stdout)));
    assert_eq!(stdout(&again), root);
}

#[test]
fn witness_commands_round_trip_and_verify() {
    let root = expect_str("/three_tx_block/root");
    let witness =
        txfx(&["block", "witness", "blocks/three-fixtures.json", "--tx", "0", "--block-number", "7"]);
    let json: serde_json::Value = serde_json::from_slice(&witness.stdout).expect("JSON");
    assert_eq!(&json, at(aztec_fixtures(), "/witness_json_example/json"));
    // Two txs share hash 0x1234 (small and maximum): the hash selects neither, an index still does.
    let by_hash =
        txfx(&["block", "witness", "blocks/three-fixtures.json", "--tx", "0x1234", "--block-number", "7"]);
    assert_eq!(by_hash.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&by_hash.stderr);
    assert!(
        stderr.contains("txs 1 and 2 of the block both have hash") && stderr.contains("index"),
        "{stderr}"
    );
    let by_index: serde_json::Value = serde_json::from_slice(
        &txfx(&["block", "witness", "blocks/three-fixtures.json", "--tx", "1", "--block-number", "7"]).stdout,
    )
    .expect("JSON");
    assert_eq!(by_index["leafIndex"], "1");
    let all: serde_json::Value = serde_json::from_slice(
        &txfx(&["block", "witness", "blocks/three-fixtures.json", "--all", "--block-number", "7"]).stdout,
    )
    .expect("JSON");
    assert_eq!(all.as_array().map(Vec::len), Some(3));

    let text = witness.stdout.clone();
    let verify = |extra: &[&str]| {
        let mut args = vec!["witness", "verify", "-", "--root"];
        args.extend(extra);
        txfx_with(&args, &[], Some(&String::from_utf8_lossy(&text)))
    };
    let (code, ok) = verdict(&verify(&[&root, "--tx-hash", "0x0"]));
    assert_eq!(code, Some(0), "{ok}");
    assert_eq!((ok["valid"].as_bool(), ok["proves"].as_str()), (Some(true), Some("tx")));
    assert_eq!(ok["txEffectsTreeRoot"], root.as_str());
    assert_eq!(ok["leafIndex"], "0");
    assert_eq!(ok["txHash"], expect_str("/tx_effect_fixtures/empty/tx_hash").as_str());
    // No header: the witness's block number is a claim nothing checked, and says so.
    assert!(ok.get("blockNumber").is_none(), "{ok}");
    assert_eq!(ok["unverified"]["blockNumber"], 7);
    let (code, named) = verdict(&verify(&[&root, "--tx-hash", "0x0", "--block-number", "7"]));
    assert_eq!((code, named["blockNumber"].as_u64()), (Some(0), Some(7)), "{named}");
    refuted(&verify(&[&root, "--tx-hash", "0x0", "--block-number", "8"]), "expected", "blockNumber");
    let (code, ok) = verdict(&verify(&[&root, "--effect", "effects/empty.json"]));
    assert_eq!((code, ok["proves"].as_str()), (Some(0), Some("tx")));
    let leaf = expect_str("/tx_effect_fixtures/empty/leaf");
    let (code, ok) = verdict(&verify(&[&root, "--leaf", &leaf]));
    assert_eq!((code, ok["proves"].as_str()), (Some(0), Some("leaf")));
    assert!(ok.get("txHash").is_none(), "a bare leaf names no tx: {ok}");
    refuted(&verify(&["0x01", "--tx-hash", "0x0"]), "tx", "root mismatch");
    refuted(&verify(&[&root, "--effect", "effects/small.json"]), "tx", "categories hash");
    assert_eq!(verify(&["0xnothex", "--tx-hash", "0x0"]).status.code(), Some(2));
    let garbage = txfx_with(
        &["witness", "verify", "-", "--root", &root, "--tx-hash", "0x0"],
        &[],
        Some("{\"root\":1}"),
    );
    assert_eq!(garbage.status.code(), Some(2));

    let bare = ["tree", "witness", "blocks/three-fixtures.leaves.json"];
    let tree = txfx(&[&bare[..], &["--index", "2", "--block-number", "7"]].concat());
    let tree: serde_json::Value = serde_json::from_slice(&tree.stdout).expect("JSON");
    assert_eq!(tree["leafIndex"], "1");
    assert!(tree.get("categoriesHash").is_none());
    assert_eq!(txfx(&[&bare[..], &["--index", "3", "--block-number", "7"]].concat()).status.code(), Some(2));
    assert_eq!(txfx(&[&bare[..], &["--index", "2"]].concat()).status.code(), Some(2), "no block number");
    assert_eq!(
        txfx(&[&bare[..], &["--tx-hash", "0x0", "--block-number", "7"]].concat()).status.code(),
        Some(2)
    );

    // From the stored form, the witness is the node's, categoriesHash included.
    let stored = txfx(&["block", "leaves", "blocks/three-fixtures.json", "--block-number", "7"]);
    let stored = String::from_utf8_lossy(&stored.stdout).into_owned();
    let served = txfx_with(&["tree", "witness", "-", "--tx-hash", "0x0"], &[], Some(&stored));
    let served: serde_json::Value = serde_json::from_slice(&served.stdout).expect("JSON");
    assert_eq!(&served, at(aztec_fixtures(), "/witness_json_example/json"));
    let other_number =
        txfx_with(&["tree", "witness", "-", "--index", "0", "--block-number", "8"], &[], Some(&stored));
    assert_eq!(other_number.status.code(), Some(2));
    let corrupted = stored.replacen(
        &expect_str("/tx_effect_fixtures/small/leaf"),
        &expect_str("/tx_effect_fixtures/maximum/leaf"),
        1,
    );
    let refused = txfx_with(&["tree", "witness", "-", "--index", "0"], &[], Some(&corrupted));
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("tx 1: stored leaf"), "{refused:?}");
    // txfx's own format is strict: a key it would not read is refused, never skipped.
    let extra = stored.replacen("\"blockNumber\": 7", "\"blockNumber\": 7, \"extra\": 1", 1);
    let refused = txfx_with(&["tree", "witness", "-", "--index", "0"], &[], Some(&extra));
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("unknown key \"extra\""), "{refused:?}");
}

#[test]
fn backend_reports_the_selection() {
    let native = stdout(&txfx(&["backend"]));
    assert!(
        native.starts_with("native (chosen by default policy (auto: native)); permutation arithmetic: "),
        "{native}"
    );
    let names = [
        "portable",
        "adx (BMI2 + ADX assembly)",
        "adx+ifma (BMI2 + ADX assembly, partial rounds' lanes 1-3 on AVX-512 IFMA)",
    ];
    assert!(names.iter().any(|name| native.ends_with(name)), "{native}");
    assert_eq!(
        stdout(&txfx(&["--backend", "wasm", "backend"])),
        "wasm (chosen by --backend); permutation arithmetic: portable (wasm32 guest)"
    );
    assert_eq!(
        stdout(&txfx_with(&["backend"], &[("TXFX_BACKEND", "wasm")], None)),
        "wasm (chosen by TXFX_BACKEND); permutation arithmetic: portable (wasm32 guest)"
    );
    let forced = stdout(&txfx_with(&["--backend", "native", "backend"], &[("TXFX_BACKEND", "wasm")], None));
    assert!(forced.starts_with("native (chosen by --backend); "), "{forced}");
}

#[test]
fn shipped_blocks_parse_and_commit() {
    for profile in ["sparse", "small", "log-heavy"] {
        for n in [1, 3, 16, 64] {
            let file = format!("blocks/{profile}-{n}.json");
            let leaves = txfx(&["block", "leaves", &file, "--bare"]);
            assert!(leaves.status.success(), "{file}: {}", String::from_utf8_lossy(&leaves.stderr));
            let leaves: serde_json::Value = serde_json::from_slice(&leaves.stdout).expect("JSON");
            assert_eq!(leaves.as_array().map(Vec::len), Some(n), "{file}");
        }
    }
    // The shipped files are what `block generate` prints now (TypeScript's shapes): regenerating
    // gives the same bytes, so none goes stale when the printer changes.
    for profile in ["sparse", "small", "log-heavy"] {
        for n in ["1", "3", "16", "64"] {
            let generated = txfx(&["block", "generate", "--profile", profile, "--txs", n]);
            let file = format!("blocks/{profile}-{n}.json");
            let shipped = std::fs::read(testdata_dir().join(&file)).expect("shipped");
            assert!(generated.stdout == shipped, "{file} is not what `block generate` prints");
        }
    }
}

#[test]
fn threads_change_nothing_but_the_speed() {
    let all = stdout(&txfx(&["block", "root", "blocks/log-heavy-16.json"]));
    assert_eq!(stdout(&txfx(&["--threads", "1", "block", "root", "blocks/log-heavy-16.json"])), all);
    assert_eq!(stdout(&txfx(&["--threads", "3", "block", "root", "blocks/log-heavy-16.json"])), all);
    let none = txfx(&["--threads", "0", "backend"]);
    assert_eq!(none.status.code(), Some(2), "zero threads is a bad argument");
}

#[test]
fn block_generate_refuses_more_than_a_block_holds_or_txfx_reads_back() {
    let too_many = txfx(&["block", "generate", "--profile", "sparse", "--txs", "65537"]);
    assert_eq!(too_many.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&too_many.stderr);
    assert!(stderr.contains("a block holds at most 65536 txs"), "{stderr}");
    assert!(too_many.stdout.is_empty(), "nothing printed before the refusal");
    // A log-heavy tx prints to about 560 kB: 65536 of them would be far past the input limit.
    let unreadable = txfx(&["block", "generate", "--profile", "log-heavy", "--txs", "65536"]);
    assert_eq!(unreadable.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&unreadable.stderr);
    assert!(stderr.contains("input limit txfx reads back"), "{stderr}");
    assert!(unreadable.stdout.is_empty(), "nothing printed before the refusal");
}

/// Runs `txfx args`, reads one byte of its output, then closes the pipe, as `txfx … | head -c 1`
/// does: the command must end quietly, with status 0 and no panic, whether or not it was still
/// writing.
fn closed_early(args: &[&str]) -> Output {
    let mut child = common::command(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("txfx runs");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut first = [0u8; 1];
    std::io::Read::read_exact(&mut stdout, &mut first).expect("txfx printed something");
    drop(stdout);
    child.wait_with_output().expect("txfx finishes")
}

#[test]
fn every_command_ends_quietly_when_its_reader_goes_away() {
    let witness = std::env::temp_dir().join(format!("txfx-cli-test-{}-witness.json", std::process::id()));
    let written =
        txfx(&["block", "witness", "blocks/three-fixtures.json", "--tx", "1", "--block-number", "7"]);
    assert!(written.status.success());
    std::fs::write(&witness, &written.stdout).expect("temp file");
    let root = expect_str("/three_tx_block/root");
    let witness_path = witness.to_string_lossy().into_owned();
    let commands: Vec<Vec<&str>> = vec![
        vec!["poseidon2", "permute", "0", "1", "2", "3"],
        vec!["poseidon2", "hash", "1", "2", "3"],
        vec!["effect", "hash", "effects/maximum.json"],
        vec!["block", "root", "blocks/small-16.json"],
        vec!["block", "leaves", "blocks/small-64.json", "--block-number", "3"],
        vec!["checkpoint", "decode", "v6/checkpoint-2.blobs.json"],
        vec!["block", "root", "--jsonl", "blocks/small-16.json"],
        vec!["block", "decode-blob", "blocks/three-fixtures.blob.json"],
        vec!["block", "encode-blob", "blocks/log-heavy-16.json"],
        vec!["block", "witness", "blocks/small-64.json", "--all", "--block-number", "1"],
        vec!["effect", "print", "effects/maximum.json"],
        vec!["block", "generate", "--profile", "log-heavy", "--txs", "64"],
        vec!["tree", "root", "blocks/three-fixtures.leaves.json"],
        vec!["tree", "witness", "blocks/three-fixtures.leaves.json", "--index", "2", "--block-number", "1"],
        vec!["witness", "verify", &witness_path, "--root", &root, "--effect", "effects/small.json"],
        vec!["backend"],
    ];
    for args in commands {
        let output = closed_early(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{args:?}: {:?} {stderr}", output.status);
        assert!(stderr.is_empty(), "{args:?} wrote to stderr: {stderr}");
    }
    std::fs::remove_file(&witness).expect("temp file removed");
}

#[test]
fn node_results_are_read_where_effects_and_bodies_are() {
    let fixtures: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(testdata_dir().join("typescript/node-results.json")).expect("fixture"),
    )
    .expect("JSON");
    let block = fixtures["getBlock"]["json"].as_str().expect("L2Block JSON");
    // The witness takes its block number from the L2Block's header.
    let witness =
        txfx_with(&["--protocol", "pre-azip-26", "block", "witness", "-", "--tx", "0"], &[], Some(block));
    assert!(witness.status.success(), "{}", String::from_utf8_lossy(&witness.stderr));
    let witness: serde_json::Value = serde_json::from_slice(&witness.stdout).expect("witness JSON");
    assert_eq!(witness["blockNumber"], fixtures["getBlock"]["blockNumber"]);
    // A bare body has no header: the block number must be given.
    let bare =
        txfx(&["--protocol", "pre-azip-26", "block", "witness", "blocks/three-fixtures.json", "--tx", "0"]);
    assert_eq!(bare.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bare.stderr).contains("block number"));
    // A getTxEffect result prints as its effect, byte for byte as TypeScript printed that effect.
    let result = fixtures["getTxEffect"]["json"].as_str().expect("getTxEffect JSON");
    let printed =
        txfx_with(&["--protocol", "pre-azip-26", "effect", "print", "--compact", "-"], &[], Some(result));
    assert!(printed.status.success(), "{}", String::from_utf8_lossy(&printed.stderr));
    assert_eq!(stdout(&printed), fixtures["getTxEffect"]["dataJson"].as_str().expect("data JSON"));
}

/// TypeScript's checkpoints (`testdata/typescript/checkpoints.json`, blob-lib's encoding).
fn typescript_checkpoints() -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(testdata_dir().join("typescript/checkpoints.json")).expect("fixture");
    let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    json["checkpoints"].as_array().expect("checkpoints").clone()
}

#[test]
fn checkpoint_commands_read_and_write_what_blob_lib_does() {
    let records = typescript_checkpoints();
    assert!(records.len() >= 6);
    for record in &records {
        let name = record["name"].as_str().expect("name");
        let fields = record["blobFields"].to_string();
        let decoded =
            txfx_with(&["--protocol", "pre-azip-26", "checkpoint", "decode", "-"], &[], Some(&fields));
        assert_eq!(decoded.status.code(), Some(0), "{name}: {}", String::from_utf8_lossy(&decoded.stderr));
        let mut json: serde_json::Value = serde_json::from_slice(&decoded.stdout).expect("JSON");
        // Each block's txEffectsTreeRoot is its body's root.
        for block in json["blocks"].as_array_mut().expect("blocks") {
            let object = block.as_object_mut().expect("block");
            let root = object.remove("txEffectsTreeRoot").expect("a root per block");
            let body = txfx_with(
                &["--protocol", "pre-azip-26", "block", "root", "-"],
                &[],
                Some(&object["body"].to_string()),
            );
            assert_eq!(root.as_str(), Some(stdout(&body).as_str()), "{name}");
        }
        assert_eq!(json, record["decoded"], "{name}: as blob-lib decodes it");
        let encoded = txfx_with(
            &["--protocol", "pre-azip-26", "checkpoint", "encode", "-"],
            &[],
            Some(&String::from_utf8_lossy(&decoded.stdout)),
        );
        let encoded: serde_json::Value = serde_json::from_slice(&encoded.stdout).expect("JSON");
        assert_eq!(encoded, record["blobFields"], "{name}: encoded back");
        let padded = txfx_with(
            &["--protocol", "pre-azip-26", "checkpoint", "encode", "-", "--pad"],
            &[],
            Some(&record["decoded"].to_string()),
        );
        let padded: serde_json::Value = serde_json::from_slice(&padded.stdout).expect("JSON");
        assert_eq!(
            padded.as_array().map(Vec::len),
            record["paddedLength"].as_u64().map(|n| n as usize),
            "{name}"
        );
    }
    // The bundled example (padded, as L1 carries it) decodes.
    let example = txfx(&[
        "--protocol",
        "pre-azip-26",
        "checkpoint",
        "decode",
        "typescript/checkpoint-3-blocks.blobs.json",
    ]);
    let example: serde_json::Value = serde_json::from_slice(&example.stdout).expect("JSON");
    assert_eq!(example["blocks"].as_array().map(Vec::len), Some(3));
}

#[test]
fn checkpoint_errors_name_the_offset_and_claimed_roots_are_checked() {
    let record = &typescript_checkpoints()[0];
    let mut fields: Vec<serde_json::Value> = record["blobFields"].as_array().expect("fields").clone();
    fields.push(serde_json::json!("0x01"));
    let bad = txfx_with(
        &["checkpoint", "decode", "-"],
        &[],
        Some(&serde_json::Value::Array(fields.clone()).to_string()),
    );
    assert_eq!(bad.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert!(stderr.contains(&format!("offset {}", fields.len() - 1)), "{stderr}");
    // A txEffectsTreeRoot given to encode must be the body's.
    let mut decoded = record["decoded"].clone();
    decoded["blocks"][0]["txEffectsTreeRoot"] = serde_json::json!("0x01");
    let refused = txfx_with(
        &["--protocol", "pre-azip-26", "checkpoint", "encode", "-"],
        &[],
        Some(&decoded.to_string()),
    );
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("txEffectsTreeRoot 0x"), "{refused:?}");
}

#[test]
fn jsonl_answers_each_line_in_order_and_marks_failures() {
    let records = typescript_checkpoints();
    let lines =
        [records[0]["blobFields"].to_string(), "[\"0x05\"]".to_owned(), records[2]["blobFields"].to_string()];
    let out = txfx_with(
        &["--protocol", "pre-azip-26", "checkpoint", "decode", "--jsonl", "-"],
        &[],
        Some(&(lines.join("\n") + "\n")),
    );
    assert_eq!(out.status.code(), Some(2), "one line failed");
    let text = String::from_utf8_lossy(&out.stdout);
    let results: Vec<serde_json::Value> =
        text.lines().map(|line| serde_json::from_str(line).expect("one JSON value per line")).collect();
    assert_eq!(results.len(), 3);
    assert_eq!(results[0]["numBlobFields"], records[0]["decoded"]["numBlobFields"]);
    assert_eq!(results[1]["line"], 2);
    assert!(results[1]["error"].as_str().is_some_and(|e| e.contains("line 2")));
    assert_eq!(results[2]["numBlobFields"], records[2]["decoded"]["numBlobFields"]);

    let bodies: Vec<String> = ["blocks/small-1.json", "blocks/three-fixtures.json", "blocks/sparse-3.json"]
        .iter()
        .map(|file| std::fs::read_to_string(testdata_dir().join(file)).expect("body").replace('\n', ""))
        .collect();
    let roots = txfx_with(
        &["--protocol", "pre-azip-26", "block", "root", "--jsonl", "-"],
        &[],
        Some(&bodies.join("\n")),
    );
    assert_eq!(roots.status.code(), Some(0));
    let roots: Vec<String> = String::from_utf8_lossy(&roots.stdout).lines().map(str::to_owned).collect();
    assert_eq!(roots.len(), 3);
    let root = expect_str("/three_tx_block/root");
    assert_eq!(roots[1], format!("{{\"txEffectsTreeRoot\":\"{root}\"}}"));
}

/// `txfx --threads THREADS ARGS` with `lines` on stdin, where some lines fail (exit 2): one JSON
/// value answered per line.
fn jsonl_answers(args: &[&str], threads: &str, lines: &[impl AsRef<str>]) -> Vec<serde_json::Value> {
    let args: Vec<&str> = ["--threads", threads].into_iter().chain(args.iter().copied()).collect();
    let input: String = lines.iter().map(|line| format!("{}\n", line.as_ref())).collect();
    let out = txfx_with(&args, &[], Some(&input));
    assert_eq!(out.status.code(), Some(2), "some lines failed: {out:?}");
    let answers: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON value per line"))
        .collect();
    assert_eq!(answers.len(), lines.len(), "one answer per line on {threads} threads");
    answers
}

#[test]
fn checkpoint_jsonl_batched_across_lines_answers_as_one_line_at_a_time() {
    // `checkpoint decode --jsonl` commits every block of a chunk's checkpoints together; each
    // line must still print what `checkpoint decode` prints for it alone. 300 lines cross the
    // 256-line chunk, and a bad line in the first chunk must not disturb its neighbours' answers.
    let records = typescript_checkpoints();
    let alone: Vec<String> = records
        .iter()
        .map(|record| {
            let out = txfx_with(
                &["--protocol", "pre-azip-26", "checkpoint", "decode", "-"],
                &[],
                Some(&record["blobFields"].to_string()),
            );
            assert_eq!(out.status.code(), Some(0), "{out:?}");
            let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
            assert!(value["blocks"][0]["txEffectsTreeRoot"].is_string(), "{value}");
            value.to_string()
        })
        .collect();
    let bad = 130;
    let lines: Vec<String> = (0..300)
        .map(|i| {
            if i == bad {
                "[\"0x05\"]".to_owned()
            } else {
                records[i % records.len()]["blobFields"].to_string()
            }
        })
        .collect();
    for threads in ["1", "2"] {
        let answers = jsonl_answers(
            &["--protocol", "pre-azip-26", "checkpoint", "decode", "--jsonl", "-"],
            threads,
            &lines,
        );
        for (i, answer) in answers.iter().enumerate() {
            if i == bad {
                assert_eq!(answer["line"], i + 1);
            } else {
                assert_eq!(
                    answer.to_string(),
                    alone[i % records.len()],
                    "line {} on {threads} threads",
                    i + 1
                );
            }
        }
    }
}

#[test]
fn block_root_jsonl_batched_across_lines_answers_as_one_line_at_a_time() {
    // `block root --jsonl` commits every body of a chunk's lines together and checks each block's
    // body against its header on that commitment; each line must still print what `block root`
    // prints for its document alone, its refusal included. 300 lines cross the 256-line chunk.
    let one_line = |path: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(testdata_dir().join(path)).expect("fixture"))
            .expect("JSON")
    };
    let rpc_block = |n: usize| one_line(&format!("v6/rpc/getBlock-block{n}-with-transactions.response.json"));
    let mut documents: Vec<String> =
        ["small-1", "small-3", "sparse-1", "sparse-3", "log-heavy-1", "three-fixtures"]
            .iter()
            .map(|name| one_line(&format!("blocks/{name}.json")).to_string())
            .chain((1..=8).map(|n| rpc_block(n).to_string()))
            .collect();
    let good = documents.len();
    // A block whose body is another block's: refuted on the commitment the batch computes.
    let mut swapped = rpc_block(3);
    swapped["result"]["body"] = rpc_block(2)["result"]["body"].clone();
    // A block response whose hash is another block's: refuted on reading, before any batch.
    let mut misnamed = rpc_block(4);
    misnamed["result"]["hash"] = rpc_block(5)["result"]["hash"].clone();
    documents.extend([
        swapped.to_string(),
        misnamed.to_string(),
        one_line("v6/rpc/getBlock-block1.response.json").to_string(),
        "[\"0x05\"]".to_owned(),
        "{\"txEffects\": [".to_owned(),
    ]);
    // Each document alone, on stdin (named "-"): its answer as a JSON line, or its refusal's
    // reason without the document's name.
    let alone: Vec<Result<String, String>> = documents
        .iter()
        .map(|document| {
            let out = txfx_with(&["--json", "block", "root", "-"], &[], Some(document));
            match out.status.code() {
                Some(0) => {
                    Ok(serde_json::from_slice::<serde_json::Value>(&out.stdout).expect("JSON").to_string())
                }
                Some(1) => Err(verdict(&out).1["reason"].as_str().expect("a reason").to_owned()),
                Some(2) => {
                    Err(String::from_utf8_lossy(&out.stderr).trim().trim_start_matches("txfx: ").to_owned())
                }
                other => panic!("{other:?}: {out:?}"),
            }
            .map_err(|reason| {
                reason.strip_prefix("-: ").unwrap_or_else(|| panic!("named: {reason}")).to_owned()
            })
        })
        .collect();
    assert!(alone[..good].iter().all(Result::is_ok), "{alone:?}");
    assert!(alone[good..].iter().all(Result::is_err), "{alone:?}");
    let blank = 200;
    let lines: Vec<&str> =
        (0..300).map(|i| if i == blank { " " } else { documents[i % documents.len()].as_str() }).collect();
    for threads in ["1", "2"] {
        let answers = jsonl_answers(&["block", "root", "--jsonl", "-"], threads, &lines);
        for (i, answer) in answers.iter().enumerate() {
            let line = i + 1;
            if i == blank {
                assert_eq!(answer["line"], line);
                assert_eq!(answer["error"], format!("line {line}: empty line"));
                continue;
            }
            match &alone[i % documents.len()] {
                Ok(alone) => assert_eq!(&answer.to_string(), alone, "line {line} on {threads} threads"),
                Err(reason) => {
                    assert_eq!(answer["line"], line, "line {line} on {threads} threads");
                    assert_eq!(
                        answer["error"],
                        format!("line {line}: {reason}"),
                        "line {line} on {threads} threads"
                    );
                }
            }
        }
    }
}

#[test]
fn jsonl_answers_a_line_over_the_input_limit_in_its_place_and_goes_on() {
    let body = std::fs::read_to_string(testdata_dir().join("blocks/three-fixtures.json"))
        .expect("body")
        .replace('\n', "");
    let limit = usize::try_from(txfx_documents::MAX_DOCUMENT_BYTES).expect("the limit fits in memory");
    // Line 2 is one byte over the limit: white space, then a body (it would be valid if read).
    let mut input = String::with_capacity(2 * body.len() + limit + 16);
    input.push_str(&body);
    input.push('\n');
    input.push_str(&" ".repeat(limit + 1 - body.len()));
    input.push_str(&body);
    input.push('\n');
    input.push_str(&body);
    input.push('\n');
    let out = txfx_with(&["block", "root", "--jsonl", "-"], &[], Some(&input));
    drop(input);
    assert_eq!(out.status.code(), Some(2), "the long line failed: {}", String::from_utf8_lossy(&out.stderr));
    let results: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON value per line"))
        .collect();
    assert_eq!(results.len(), 3, "every line is answered, the long one in its place");
    let root = expect_str("/three_tx_block/root");
    assert_eq!(results[0]["txEffectsTreeRoot"], root);
    assert_eq!(results[1]["line"], 2);
    assert!(
        results[1]["error"].as_str().is_some_and(|e| e.contains("input limit") && e.contains("not read")),
        "{}",
        results[1]
    );
    assert_eq!(results[2]["txEffectsTreeRoot"], root);
}

fn chain_json() -> serde_json::Value {
    let text = std::fs::read_to_string(testdata_dir().join("chain/chain.json")).expect("fixture");
    serde_json::from_str(&text).expect("JSON")
}

#[test]
fn header_hash_prints_typescripts_block_hash_in_either_layout() {
    let chain = chain_json();
    let block = &chain["blocks"][2];
    assert_eq!(block["number"], 3);
    assert_eq!(
        stdout(&txfx(&["header", "hash", "chain/header-3.json"])),
        block["hash"].as_str().expect("hash")
    );
    let pre = txfx(&["header", "hash", "--protocol", "pre-azip-26", "chain/header-3.json"]);
    assert_eq!(pre.status.code(), Some(2), "an AZIP-26 header read as pre-AZIP-26 is refused");
    let text = std::fs::read_to_string(testdata_dir().join("typescript/headers.json")).expect("fixture");
    let headers: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    for record in headers["headers"].as_array().expect("headers") {
        let json = record["json"].as_str().expect("json");
        let hash = txfx_with(&["header", "hash", "--protocol", "pre-azip-26", "-"], &[], Some(json));
        assert_eq!(stdout(&hash), record["hash"].as_str().expect("hash"), "{}", record["name"]);
        let refused = txfx_with(&["header", "hash", "-"], &[], Some(json));
        assert_eq!(refused.status.code(), Some(2), "a 4.1.2 header needs --protocol pre-azip-26");
        assert!(String::from_utf8_lossy(&refused.stderr).contains("txEffectsTreeRoot"));
    }
    let block = headers["l2Block"]["json"].as_str().expect("L2Block JSON");
    let hash = txfx_with(&["header", "hash", "--protocol", "pre-azip-26", "-"], &[], Some(block));
    assert_eq!(
        stdout(&hash),
        headers["l2Block"]["hash"].as_str().expect("hash"),
        "a getBlock result's header"
    );
}

#[test]
fn archive_verify_exits_0_1_2() {
    let root = std::fs::read_to_string(testdata_dir().join("chain/archive-root.txt")).expect("root");
    let root = root.trim();
    let hash = stdout(&txfx(&["--protocol", "azip-26", "header", "hash", "chain/header-3.json"]));
    // Block 3 (named by `block`: its hash or its header) under `root`, with `extra` after.
    let verify = |root: &str, block: [&str; 2], extra: &[&str]| {
        let base = ["--protocol", "azip-26", "archive", "verify", "--root", root];
        txfx(&[&base[..], &block, &["--witness", "chain/archive-witness-3.json"], extra].concat())
    };
    let run = |root: &str, hash: &str, extra: &[&str]| verify(root, ["--block-hash", hash], extra);
    for extra in [&["--block-number", "3"][..], &[]] {
        let (code, ok) = verdict(&run(root, &hash, extra));
        assert_eq!(code, Some(0), "{ok}");
        // The verdict names the block whether or not the caller did: the archive proves it.
        assert_eq!(ok["proves"], "block");
        assert_eq!((ok["blockNumber"].as_u64(), ok["blockHash"].as_str()), (Some(3), Some(hash.as_str())));
        assert_eq!(ok["archiveRoot"], root);
    }
    // The header itself, hashed here.
    let (code, ok) = verdict(&verify(root, ["--header", "chain/header-3.json"], &[]));
    assert_eq!((code, ok["blockHash"].as_str()), (Some(0), Some(hash.as_str())), "{ok}");
    refuted(&run("0x01", &hash, &[]), "archive", "archive root mismatch");
    refuted(&run(root, &hash, &["--block-number", "2"]), "archive", "block 2 was asked for");
    refuted(&run(root, "0x0", &[]), "archive", "empty leaf");
    assert_eq!(run("0xzz", &hash, &[]).status.code(), Some(2));
    let truncated = txfx_with(
        &["archive", "verify", "--root", root, "--block-hash", &hash, "--witness", "-"],
        &[],
        Some("\"AAAA\""),
    );
    assert_eq!(truncated.status.code(), Some(2), "a witness of the wrong length is malformed");
    let not_found = txfx_with(
        &["archive", "verify", "--root", root, "--block-hash", &hash, "--witness", "-"],
        &[],
        Some("{\"jsonrpc\":\"2.0\",\"id\":1}"),
    );
    assert_eq!(not_found.status.code(), Some(2));
}

#[test]
fn verify_tx_checks_every_link_and_category_proofs_verify() {
    let root = std::fs::read_to_string(testdata_dir().join("chain/archive-root.txt")).expect("root");
    let dir = std::env::temp_dir().join(format!("txfx-cli-chain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let witness = dir.join("w.json");
    let written = txfx(&[
        "--protocol",
        "azip-26",
        "block",
        "witness",
        "blocks/three-fixtures.json",
        "--tx",
        "1",
        "--block-number",
        "3",
    ]);
    std::fs::write(&witness, &written.stdout).expect("write");
    let witness = witness.to_string_lossy().into_owned();
    // Block 3's chain under `archive_root`, with `extra` (the subject and expectations) after.
    let chain_under = |archive_root: &str, extra: &[&str]| {
        let mut args = vec![
            "--protocol",
            "azip-26",
            "verify",
            "tx",
            "--archive-root",
            archive_root,
            "--archive-witness",
            "chain/archive-witness-3.json",
            "--header",
            "chain/header-3.json",
            "--witness",
            &witness,
        ];
        args.extend(extra);
        txfx(&args)
    };
    let chain = |extra: &[&str]| chain_under(root.trim(), extra);
    let tx_hash = expect_str("/tx_effect_fixtures/small/tx_hash");
    let block_hash = stdout(&txfx(&["--protocol", "azip-26", "header", "hash", "chain/header-3.json"]));
    for extra in [vec!["--effect", "effects/small.json"], vec!["--tx-hash", tx_hash.as_str()]] {
        let (code, ok) = verdict(&chain(&extra));
        assert_eq!(code, Some(0), "{extra:?}: {ok}");
        assert_eq!(ok["proves"], "tx");
        assert_eq!(ok["archiveRoot"], root.trim());
        assert_eq!(
            (ok["blockNumber"].as_u64(), ok["blockHash"].as_str()),
            (Some(3), Some(block_hash.as_str()))
        );
        assert_eq!((ok["txHash"].as_str(), ok["leafIndex"].as_str()), (Some(tx_hash.as_str()), Some("1")));
        assert!(ok.get("unverified").is_none(), "every claim checked: {ok}");
    }
    // The caller's expectations: met, and not.
    let (code, _) =
        verdict(&chain(&["--tx-hash", &tx_hash, "--block-number", "3", "--block-hash", &block_hash]));
    assert_eq!(code, Some(0));
    refuted(&chain(&["--tx-hash", &tx_hash, "--block-number", "4"]), "expected", "block");
    refuted(&chain(&["--tx-hash", &tx_hash, "--block-hash", "0x01"]), "expected", "block hash");
    refuted(&chain(&["--effect", "effects/small.json", "--tx-hash", "0x01"]), "expected", "tx hash");
    refuted(&chain(&["--effect", "effects/maximum.json"]), "tx", "");
    let pre = chain(&["--effect", "effects/small.json", "--protocol", "pre-azip-26"]);
    assert_eq!(pre.status.code(), Some(2), "the header has a tree root the pre-AZIP layout does not");
    refuted(&chain_under("0x01", &["--tx-hash", &tx_hash]), "archive", "archive root mismatch");

    // Category proofs, alone and through the chain; a tampered one is refused.
    // Tx 1's proof of `category`, with `element` (`--element` and a value) after it.
    let prove = |category: &str, element: &[&str]| {
        let args = ["--protocol", "azip-26", "category", "prove", "blocks/three-fixtures.json", "--tx", "1"];
        txfx(&[&args[..], &["--category", category], element].concat())
    };
    let proof = prove("nullifiers", &["--element", "0x15"]);
    assert_eq!(proof.status.code(), Some(0), "{}", String::from_utf8_lossy(&proof.stderr));
    let proof_path = dir.join("p.json");
    std::fs::write(&proof_path, &proof.stdout).expect("write");
    let proof_path = proof_path.to_string_lossy().into_owned();
    let tree_root = expect_str("/three_tx_block/root");
    let (code, ok) = verdict(&txfx(&[
        "--protocol",
        "azip-26",
        "category",
        "verify",
        &proof_path,
        "--witness",
        &witness,
        "--root",
        &tree_root,
    ]));
    assert_eq!(
        (code, ok["proves"].as_str(), ok["category"].as_str()),
        (Some(0), Some("element"), Some("nullifiers"))
    );
    assert_eq!(ok["element"]["role"], "nullifier");
    assert_eq!(ok["element"]["index"], 0);
    let (code, through) = verdict(&chain(&["--category-proof", &proof_path]));
    assert_eq!((code, through["blockNumber"].as_u64()), (Some(0), Some(3)), "{through}");
    assert_eq!(through["element"], ok["element"]);
    let tampered = String::from_utf8_lossy(&proof.stdout).replace("\"index\": 0", "\"index\": 1");
    let refused = txfx_with(
        &["category", "verify", "-", "--witness", &witness, "--root", &tree_root],
        &[],
        Some(&tampered),
    );
    refuted(&refused, "category", "nullifier 1");
    let malformed = txfx_with(
        &["--protocol", "azip-26", "category", "verify", "-", "--witness", &witness, "--root", &tree_root],
        &[],
        Some("{}"),
    );
    assert_eq!(malformed.status.code(), Some(2));
    let absent = prove("nullifiers", &["--element", "0x16"]);
    assert_eq!(absent.status.code(), Some(2));
    let unknown = prove("notes", &[]);
    assert_eq!(unknown.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).expect("temp dir removed");
}
