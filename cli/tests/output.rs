//! What the `txfx` binary gives people who ship and script it: `--version` with the commit,
//! shell completions and the man page, `--json` answers, and progress that appears on a terminal
//! and nowhere else.

// Test code: a failed expectation is a failed test.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use common::{stderr, stdout, txfx};
use serde_json::Value;
use txfx_suite::vectors::{at, aztec_fixtures, testdata_dir};

/// `txfx args` with `stdin` on its standard input and the environment of [`common::command`].
fn txfx_with(args: &[&str], stdin: Option<&str>) -> Output {
    common::txfx_with(args, &[], stdin)
}

/// The JSON a `--json` command printed, after checking it succeeded and said nothing on stderr.
/// A `--json` answer: the value, and its top-level keys in the order printed (a `Value` without
/// serde_json's `preserve_order`, which no crate here turns on, keeps its keys sorted).
struct Answer {
    value: Value,
    keys: Vec<String>,
}

impl std::ops::Deref for Answer {
    type Target = Value;
    fn deref(&self) -> &Value {
        &self.value
    }
}

fn json(args: &[&str]) -> Answer {
    let output = txfx(args);
    assert!(output.status.success(), "{args:?}: {output:?}");
    assert!(output.stderr.is_empty(), "{args:?}: {}", stderr(&output));
    let value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{args:?} prints JSON ({e}): {output:?}"));
    // Pretty-printed: each top-level key opens a line indented by two spaces.
    let keys = stdout(&output)
        .lines()
        .filter_map(|line| line.strip_prefix("  \""))
        .filter_map(|rest| rest.split_once("\": "))
        .map(|(key, _)| serde_json::from_str::<String>(&format!("\"{key}\"")).expect("a JSON key"))
        .collect();
    Answer { value, keys }
}

/// The keys of a JSON answer, in the order printed.
fn keys(answer: &Answer) -> Vec<&str> {
    answer.keys.iter().map(String::as_str).collect()
}

fn expect_str(pointer: &str) -> String {
    at(aztec_fixtures(), pointer).as_str().expect("string").to_owned()
}

#[test]
fn version_names_the_commit_it_was_built_from() {
    let output = txfx(&["--version"]);
    assert!(output.status.success(), "{output:?}");
    let version = stdout(&output);
    let prefix = concat!("txfx ", env!("CARGO_PKG_VERSION"), " (");
    let described = version
        .strip_prefix(prefix)
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("`txfx VERSION (…)`: {version}"));
    // Built from this checkout: the commit git names for it now (a test run builds first, and
    // the build script reruns when HEAD moves). Where git cannot say, the build could not either.
    let head = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned());
    match head {
        Some(hash) if std::env::var_os("TXFX_BUILD_COMMIT").is_none() => {
            let hash = format!("commit {hash}");
            assert!(
                described == hash || described == format!("{hash}-dirty"),
                "{described} is not {hash}[-dirty]"
            );
        }
        Some(_) => assert!(described.starts_with("commit "), "{described}"),
        None => assert_eq!(described, "unknown commit"),
    }
    // -V too, and the long form is the same line.
    assert_eq!(stdout(&txfx(&["-V"])), version);
}

#[test]
fn completions_for_each_shell_name_the_subcommands_and_flags() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let output = txfx(&["completions", shell]);
        assert!(output.status.success(), "{shell}: {output:?}");
        assert!(output.stderr.is_empty(), "{shell}: {}", stderr(&output));
        let script = String::from_utf8(output.stdout).expect("UTF-8");
        for word in ["checkpoint", "witness", "completions", "decode-blob", "jsonl", "json", "quiet"] {
            assert!(script.contains(word), "{shell}'s script does not mention {word}");
        }
    }
    // Each shell's own syntax, so a script is not some other shell's.
    assert!(stdout(&txfx(&["completions", "bash"])).contains("complete -F _txfx"));
    assert!(stdout(&txfx(&["completions", "zsh"])).starts_with("#compdef txfx"));
    assert!(stdout(&txfx(&["completions", "fish"])).contains("complete -c txfx"));
    let unknown = txfx(&["completions", "tcsh"]);
    assert_eq!(unknown.status.code(), Some(2), "an unknown shell is a bad argument");
    assert!(unknown.stdout.is_empty());
    assert!(stderr(&unknown).contains("tcsh"), "{}", stderr(&unknown));
}

#[test]
fn man_prints_a_page_naming_every_subcommand() {
    let output = txfx(&["man"]);
    assert!(output.status.success(), "{output:?}");
    let page = String::from_utf8(output.stdout).expect("UTF-8");
    // roff's own preamble first (the two lines that define the apostrophe string `Aq` for groff
    // and other formatters), then the title: the page's first request.
    let mut lines = page.lines();
    assert!(lines.next().is_some_and(|l| l.starts_with(".ie \\n(.g .ds Aq ")), "{page:.200}");
    assert!(lines.next().is_some_and(|l| l.starts_with(".el .ds Aq ")), "{page:.200}");
    let title = lines.next().unwrap_or_default();
    assert!(title.starts_with(".TH txfx 1 "), "{title}");
    assert!(title.contains(concat!("txfx ", env!("CARGO_PKG_VERSION"), " (")), "{title}");
    assert!(page.contains(".SH SUBCOMMANDS"), "a SUBCOMMANDS section");
    for subcommand in [
        "poseidon2",
        "effect",
        "block",
        "tree",
        "checkpoint",
        "header",
        "archive",
        "category",
        "verify",
        "witness",
        "backend",
        "protocols",
        "networks",
        "completions",
    ] {
        assert!(page.contains(&format!("txfx\\-{subcommand}(1)")), "the page names {subcommand}");
    }
    // The global options, roff-escaped, and the version with its commit.
    assert!(page.contains("\\-\\-json") && page.contains("\\-\\-quiet"), "global options");
    assert!(page.contains(env!("CARGO_PKG_VERSION")));
}

#[test]
fn completions_and_man_have_no_json_form() {
    for args in [&["--json", "completions", "bash"][..], &["man", "--json"]] {
        let output = txfx(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert!(
            stderr(&output).contains("no JSON form") || stderr(&output).contains("neither has a JSON form")
        );
    }
}

#[test]
fn json_answers_hold_what_the_bare_answers_print() {
    // poseidon2 hash: {"hash"}.
    let args = ["poseidon2", "hash", "--separator", "57496191", "123", "0x1c8"];
    let bare = stdout(&txfx(&args));
    assert_eq!(bare, expect_str("/poseidon2_hash_with_separator_vectors/0/output"));
    let answer = json(&[&["--json"][..], &args].concat());
    assert_eq!(keys(&answer), ["hash"]);
    assert_eq!(answer["hash"], bare.as_str());

    // poseidon2 permute: {"state": [4 lanes]}, the lanes the bare form prints one per line.
    let args = ["poseidon2", "permute", "0", "1", "2", "3"];
    let bare = stdout(&txfx(&args));
    // (Lanes may be negative, so every word after `permute` is a lane: --json goes before.)
    let answer = json(&[&["--json"][..], &args].concat());
    assert_eq!(keys(&answer), ["state"]);
    let lanes: Vec<&str> =
        answer["state"].as_array().expect("array").iter().filter_map(Value::as_str).collect();
    assert_eq!(lanes, bare.lines().collect::<Vec<_>>());
    assert_eq!(lanes.len(), 4);

    // block root of a bare body: {"txEffectsTreeRoot"}; of a block response: with its number,
    // as a --jsonl line prints it.
    let root = expect_str("/three_tx_block/root");
    let answer = json(&["--json", "block", "root", "blocks/three-fixtures.json"]);
    assert_eq!(keys(&answer), ["txEffectsTreeRoot"]);
    assert_eq!(answer["txEffectsTreeRoot"], root.as_str());
    let block = "v6/rpc/getBlock-block4-with-transactions.response.json";
    let bare = stdout(&txfx(&["block", "root", block]));
    let answer = json(&["block", "root", block, "--json"]);
    assert_eq!(keys(&answer), ["blockNumber", "txEffectsTreeRoot"]);
    assert_eq!(
        (answer["blockNumber"].as_u64(), answer["txEffectsTreeRoot"].as_str()),
        (Some(4), Some(bare.as_str()))
    );
    let body = std::fs::read_to_string(testdata_dir().join(block)).expect("block").replace('\n', "");
    let line = txfx_with(&["block", "root", "--jsonl", "-"], Some(&body));
    assert_eq!(
        serde_json::from_slice::<Value>(&line.stdout).expect("a JSON line"),
        *answer,
        "--json is a --jsonl line"
    );

    // tree root: {"txEffectsTreeRoot"}.
    let answer = json(&["--json", "tree", "root", "blocks/three-fixtures.leaves.json"]);
    assert_eq!(keys(&answer), ["txEffectsTreeRoot"]);
    assert_eq!(answer["txEffectsTreeRoot"], root.as_str());

    // header hash: {"blockHash"}, the verdicts' name for it.
    let header = "v6/rpc/getBlockData-block4.response.json";
    let bare = stdout(&txfx(&["header", "hash", header]));
    assert!(bare.starts_with("0x") && bare.len() == 66, "{bare}");
    let answer = json(&["--json", "header", "hash", header]);
    assert_eq!(keys(&answer), ["blockHash"]);
    assert_eq!(answer["blockHash"], bare.as_str());

    // backend: {"backend", "chosenBy", "arithmetic"}.
    let answer = json(&["--json", "--backend", "wasm", "backend"]);
    assert_eq!(keys(&answer), ["backend", "chosenBy", "arithmetic"]);
    assert_eq!(
        (answer["backend"].as_str(), answer["chosenBy"].as_str(), answer["arithmetic"].as_str()),
        (Some("wasm"), Some("--backend"), Some("portable (wasm32 guest)"))
    );
    let answer = json(&["--json", "backend"]);
    assert_eq!((answer["backend"].as_str(), answer["chosenBy"].as_str()), (Some("native"), Some("default")));
}

#[test]
fn json_leaves_json_answers_verdicts_and_errors_as_they_were() {
    let witness =
        txfx(&["block", "witness", "blocks/three-fixtures.json", "--tx", "0", "--block-number", "7"]);
    assert!(witness.status.success());
    let witness = String::from_utf8(witness.stdout).expect("UTF-8");
    let root = expect_str("/three_tx_block/root");
    let same: [(&[&str], Option<&str>); 8] = [
        (&["effect", "hash", "effects/small.json"], None),
        (&["effect", "print", "--compact", "effects/small.json"], None),
        (&["block", "leaves", "blocks/three-fixtures.json", "--bare"], None),
        (&["block", "root", "--jsonl", "blocks/small-16.json"], None),
        (&["checkpoint", "decode", "v6/checkpoint-2.blobs.json"], None),
        (&["protocols"], None),
        (&["witness", "verify", "-", "--root", &root, "--effect", "effects/empty.json"], Some(&witness)),
        // A refuted check: exit 1, the refutation on stdout, as without --json.
        (&["witness", "verify", "-", "--root", "0x01", "--effect", "effects/empty.json"], Some(&witness)),
    ];
    for (args, stdin) in same {
        let plain = txfx_with(args, stdin);
        let with_json = txfx_with(&[&["--json"][..], args].concat(), stdin);
        assert_eq!(with_json.status.code(), plain.status.code(), "{args:?}");
        assert_eq!(with_json.stdout, plain.stdout, "{args:?}: --json changes nothing");
        // Each of them printed JSON (a whole document, or one per line).
        let text = String::from_utf8(with_json.stdout).expect("UTF-8");
        if args.contains(&"--jsonl") {
            assert!(text.lines().all(|l| serde_json::from_str::<Value>(l).is_ok()), "{args:?}");
        } else {
            serde_json::from_str::<Value>(&text).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        }
    }
    let refuted: Value = serde_json::from_slice(
        &txfx_with(&["--json", "witness", "verify", "-", "--root", "0x01", "--leaf", "0x02"], Some(&witness))
            .stdout,
    )
    .expect("the refutation is JSON");
    assert_eq!(refuted["valid"], false);

    // Malformed input: exit 2, the reason on stderr, nothing on stdout, with or without --json.
    for args in
        [&["--json", "poseidon2", "hash", "0xzz"][..], &["--json", "block", "root", "no-such-file.json"]]
    {
        let output = txfx(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert!(stderr(&output).starts_with("txfx: "), "{args:?}: {}", stderr(&output));
    }
}

/// Writes a body of at least 4 MiB (progress's threshold) to a temp file.
fn large_body() -> PathBuf {
    let path = std::env::temp_dir().join(format!("txfx-output-test-{}-large.json", std::process::id()));
    let generated = txfx(&["block", "generate", "--profile", "log-heavy", "--txs", "9"]);
    assert!(generated.status.success(), "{generated:?}");
    assert!(generated.stderr.is_empty(), "no progress on a pipe: {}", stderr(&generated));
    assert!(generated.stdout.len() >= 4 << 20, "{} bytes", generated.stdout.len());
    std::fs::write(&path, &generated.stdout).expect("temp file");
    path
}

/// Runs the shell line `command` with stdin, stdout and stderr on a terminal (util-linux
/// `script`, which copies the terminal's output to its stdout; a redirection in the line still
/// sends stdout elsewhere), and returns what the terminal showed.
fn on_a_terminal(command: &str) -> String {
    let output = Command::new("script")
        .args(["--quiet", "--return", "--command", command, "/dev/null"])
        .current_dir(testdata_dir())
        .env_remove("TXFX_BACKEND")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("util-linux `script` runs (Debian's bsdutils, an essential package)");
    assert!(output.status.success(), "{command}: {output:?}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// `txfx args` as a shell line, every word quoted.
fn line(args: &[&str]) -> String {
    let quote = |text: &str| format!("'{}'", text.replace('\'', r"'\''"));
    std::iter::once(env!("CARGO_BIN_EXE_txfx"))
        .chain(args.iter().copied())
        .map(quote)
        .collect::<Vec<_>>()
        .join(" ")
}

fn has_progress(text: &str) -> bool {
    ["reading ", "checking ", "hashing "].iter().any(|word| text.contains(word))
}

#[test]
fn progress_is_drawn_on_a_terminal_only_and_never_with_quiet() {
    let path = large_body();
    let body = path.to_str().expect("a UTF-8 temp path");
    let root = stdout(&txfx(&["block", "root", body]));
    assert!(root.starts_with("0x") && root.len() == 66, "{root}");
    // stderr a pipe: nothing on it, whatever the size of the work.
    for args in [
        &["block", "root", body][..],
        &["block", "root", "--jsonl", body],
        &["block", "leaves", body, "--bare"],
    ] {
        let output = txfx(args);
        assert!(output.status.success(), "{args:?}: {output:?}");
        assert!(output.stderr.is_empty(), "{args:?} wrote to a pipe: {}", stderr(&output));
    }
    // stderr a terminal: the work is shown and the answer is the same.
    let shown = on_a_terminal(&line(&["block", "root", body]));
    assert!(has_progress(&shown), "no progress on a terminal: {shown:?}");
    assert!(shown.contains(&root), "{shown:?}");
    // stdout a file, stderr a terminal: the file holds the answer alone.
    let out = path.with_extension("root.txt");
    let shown = on_a_terminal(&format!("{} > '{}'", line(&["block", "root", body]), out.display()));
    assert!(has_progress(&shown), "no progress on a terminal: {shown:?}");
    assert!(!shown.contains(&root), "the answer went to the file: {shown:?}");
    assert_eq!(std::fs::read_to_string(&out).expect("the answer"), format!("{root}\n"));
    std::fs::remove_file(&out).expect("temp file removed");
    // --quiet, -q: the answer alone.
    for quiet in ["--quiet", "-q"] {
        let shown = on_a_terminal(&line(&[quiet, "block", "root", body]));
        assert!(!has_progress(&shown), "{quiet} drew progress: {shown:?}");
        assert_eq!(shown.trim(), root, "{quiet}: the answer alone");
    }
    // Small work draws nothing, even on a terminal.
    let small = on_a_terminal(&line(&["block", "root", "blocks/three-fixtures.json"]));
    assert_eq!(small.trim(), expect_str("/three_tx_block/root"));
    std::fs::remove_file(&path).expect("temp file removed");
}
