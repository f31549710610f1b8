//! The adversarial catalogue through the `txfx` binary, on every backend: the same cases the suite
//! runs through `txfx-documents` (`testdata/adversarial/catalogue.json`), checked by what a user
//! sees: the exit status (0 valid, 1 refuted, 2 malformed), the verdict on stdout, the reason.
//!
//! `TXFX_BIN` runs the catalogue against another build of the binary (an older one, to see which
//! cases it fails).

// Test code: a failed expectation is a failed test.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use txfx_suite::adversarial::{catalogue, check_message, contains, document};
use txfx_suite::vectors::testdata_dir;

/// Writes each document of a case to a file of its own, and gives back the file's path.
struct Files {
    dir: PathBuf,
}

impl Files {
    fn new(case: usize) -> Self {
        let dir = std::env::temp_dir().join(format!("txfx-adversarial-{}-{case}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        Self { dir }
    }

    fn write(&self, name: &str, spec: &Value) -> String {
        let path = self.dir.join(format!("{name}.json"));
        std::fs::write(&path, document(spec)).expect("write");
        path.to_string_lossy().into_owned()
    }
}

impl Drop for Files {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// The command line of one case.
fn arguments(files: &Files, operation: &str, inputs: &Value) -> Vec<String> {
    let file = |key: &str| files.write(key, &inputs[key]);
    let mut args: Vec<String> = Vec::new();
    let mut push = |items: &[&str]| args.extend(items.iter().map(|s| (*s).to_owned()));
    let expected = &inputs["expected"];
    let subject = |args: &mut Vec<String>| {
        let s = &inputs["subject"];
        for (key, flag) in [("effect", "--effect"), ("proof", "--category-proof")] {
            if let Some(spec) = s.get(key) {
                args.extend([flag.to_owned(), files.write(key, spec)]);
            }
        }
        for (key, flag) in
            [("txHash", "--tx-hash"), ("categoriesHash", "--categories-hash"), ("leaf", "--leaf")]
        {
            if let Some(value) = s.get(key) {
                args.extend([flag.to_owned(), text(value)]);
            }
        }
    };
    let expectations = |args: &mut Vec<String>, keys: &[(&str, &str)]| {
        for (key, flag) in keys {
            if let Some(value) = expected.get(*key) {
                args.extend([(*flag).to_owned(), text(value)]);
            }
        }
    };
    match operation {
        "verify-tx" => {
            push(&["verify", "tx", "--archive-root", &text(&inputs["archiveRoot"])]);
            push(&[
                "--archive-witness",
                &file("archiveWitness"),
                "--header",
                &file("header"),
                "--witness",
                &file("witness"),
            ]);
            subject(&mut args);
            expectations(
                &mut args,
                &[("blockNumber", "--block-number"), ("blockHash", "--block-hash"), ("txHash", "--tx-hash")],
            );
        }
        "witness-verify" => {
            push(&["witness", "verify", &file("witness"), "--root", &text(&inputs["root"])]);
            subject(&mut args);
            expectations(&mut args, &[("blockNumber", "--block-number")]);
        }
        "category-verify" => {
            push(&[
                "category",
                "verify",
                &file("proof"),
                "--witness",
                &file("witness"),
                "--root",
                &text(&inputs["root"]),
            ]);
        }
        "archive-verify" => {
            push(&["archive", "verify", "--root", &text(&inputs["root"]), "--witness", &file("witness")]);
            if inputs.get("header").is_some() {
                push(&["--header", &file("header")]);
            } else {
                push(&["--block-hash", &text(&inputs["blockHash"])]);
            }
            expectations(&mut args, &[("blockNumber", "--block-number")]);
        }
        "block-root" => push(&["block", "root", &file("body")]),
        "block-witness" => push(&["block", "witness", &file("body"), "--tx", &text(&inputs["tx"])]),
        "block-leaves" => push(&["block", "leaves", &file("body")]),
        "category-prove" => {
            push(&["category", "prove", &file("body"), "--tx", &text(&inputs["tx"])]);
            push(&["--category", &text(&inputs["category"])]);
            for (key, flag) in [("element", "--element"), ("role", "--role")] {
                if let Some(value) = inputs.get(key) {
                    push(&[flag, &text(value)]);
                }
            }
        }
        "header-hash" => push(&["header", "hash", &file("header")]),
        "tree-root" => push(&["tree", "root", &file("leaves")]),
        "checkpoint-decode" => push(&["checkpoint", "decode", &file("fields")]),
        "effect-hash" => push(&["effect", "hash", &file("effect")]),
        "blob-encode" => push(&["block", "encode-blob", &file("document")]),
        "block-decode-blob" => push(&["block", "decode-blob", &file("fields")]),
        "tree-witness" => {
            push(&["tree", "witness", &file("leaves")]);
            let tx = text(&inputs["tx"]);
            if tx.starts_with("0x") {
                push(&["--tx-hash", &tx]);
            } else {
                push(&["--index", &tx]);
            }
            if let Some(number) = inputs.get("blockNumber") {
                push(&["--block-number", &text(number)]);
            }
        }
        other => panic!("unknown operation {other}"),
    }
    args
}

/// What a command printed, as JSON: its JSON, or its one line under the key the operation names.
fn printed(operation: &str, output: &Output) -> Result<Value, String> {
    let stdout = String::from_utf8_lossy(&output.stdout);
    match operation {
        "block-root" | "tree-root" => Ok(serde_json::json!({ "txEffectsTreeRoot": stdout.trim() })),
        "header-hash" => Ok(serde_json::json!({ "blockHash": stdout.trim() })),
        _ => serde_json::from_str(&stdout).map_err(|e| format!("a verdict on stdout ({e}): {stdout}")),
    }
}

fn binary() -> PathBuf {
    std::env::var_os("TXFX_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_txfx")))
}

fn run(binary: &Path, backend: &str, args: &[String]) -> Output {
    Command::new(binary)
        .args(["--backend", backend])
        .args(args)
        .current_dir(testdata_dir())
        .env_remove("TXFX_BACKEND")
        .output()
        .expect("txfx runs")
}

/// Checks one case's command on one backend; `Err` says how it went wrong.
fn check(case: &Value, output: &Output) -> Result<(), String> {
    let expect = &case["expect"];
    let operation = case["operation"].as_str().expect("operation");
    let outcome = expect["outcome"].as_str().expect("outcome");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let code = output.status.code();
    let message = expect.get("message").and_then(Value::as_str).unwrap_or("");
    match outcome {
        "valid" => {
            if code != Some(0) {
                return Err(format!(
                    "exit {code:?}, 0 expected: {stderr} {}",
                    String::from_utf8_lossy(&output.stdout)
                ));
            }
            let value = printed(operation, output)?;
            if !contains(&value, &expect["verdict"]) {
                return Err(format!("{value} lacks {}", expect["verdict"]));
            }
            for key in expect["absent"].as_array().into_iter().flatten() {
                if value.get(key.as_str().expect("key")).is_some() {
                    return Err(format!("{key} must not be named: {value}"));
                }
            }
            if let Some(unverified) = expect.get("unverified").filter(|u| value["unverified"] != **u) {
                return Err(format!("unverified {} expected: {value}", unverified));
            }
        }
        "refuted" => {
            if code != Some(1) {
                return Err(format!("exit {code:?}, 1 expected: {stderr}"));
            }
            // A refuted check prints its verdict, whatever the command prints when it succeeds.
            let value: Value =
                serde_json::from_slice(&output.stdout).map_err(|e| format!("a verdict on stdout: {e}"))?;
            let link = expect.get("link").and_then(Value::as_str);
            if value["valid"] != false || link.is_some_and(|link| value["link"] != link) {
                return Err(format!("{value}: valid false and link {link:?} expected"));
            }
            if !value["reason"].as_str().unwrap_or_default().contains(message) {
                return Err(format!("{value}: reason without {message:?}"));
            }
        }
        _ => {
            if code != Some(2) || !stderr.contains(message) {
                return Err(format!("exit {code:?} and {message:?} expected on stderr: {stderr}"));
            }
            check_message(case["name"].as_str().unwrap_or("?"), stderr.trim_end());
        }
    }
    Ok(())
}

#[test]
fn every_adversarial_case_through_the_binary_on_every_backend() {
    let binary = binary();
    let cases = catalogue();
    assert!(cases.len() >= 40, "{} cases", cases.len());
    // Cases are independent processes with their own files: they run on as many threads as the
    // machine has cores, each taking every n-th case.
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    let (mut failures, mut ran) = (Vec::new(), 0);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|worker| {
                let (binary, cases) = (&binary, &cases);
                scope.spawn(move || {
                    let (mut failures, mut ran) = (Vec::new(), 0);
                    for (index, case) in cases.iter().enumerate().skip(worker).step_by(workers) {
                        let files = Files::new(index);
                        let operation = case["operation"].as_str().expect("operation");
                        let mut args = arguments(&files, operation, &case["inputs"]);
                        // Every case names the protocol it is read under.
                        let protocol = case["protocol"].as_str().expect("every case names its protocol");
                        args.extend(["--protocol".to_owned(), protocol.to_owned()]);
                        for backend in ["native", "wasm"] {
                            ran += 1;
                            if let Err(why) = check(case, &run(binary, backend, &args)) {
                                failures.push(format!(
                                    "finding {} ({backend}): {}: {why}",
                                    case["finding"], case["name"]
                                ));
                            }
                        }
                    }
                    (failures, ran)
                })
            })
            .collect();
        for handle in handles {
            let (more, count) = handle.join().expect("a worker panicked");
            failures.extend(more);
            ran += count;
        }
    });
    assert_eq!(ran, 2 * cases.len(), "every case ran on both backends");
    println!(
        "adversarial catalogue through {}: {} of {ran} runs as expected",
        binary.display(),
        ran - failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {ran} runs not as expected:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
