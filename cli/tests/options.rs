//! Every option value the binary cannot use is a usage error (exit 2), never a panic (101):
//! numbers at 0, far too large, negative and garbage; `--timeout`'s durations; endpoint URLs
//! checked before anything is sent, read from `$AZTEC_NODE_URL` and `$ETH_RPC_URL`, and shown
//! redacted.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::io::ErrorKind;
use std::net::TcpListener;
use std::process::Output;
use std::sync::Arc;

use common::stderr;
use txfx_suite::testchain::{Lie, StubNode, V6Chain};

/// `txfx args` with `env` set and nothing on its standard input.
fn txfx(args: &[&str], env: &[(&str, &str)]) -> Output {
    common::txfx_with(args, env, None)
}

/// A loopback port nothing listens on: a request there is refused at once (exit 4).
fn closed_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
    let address = listener.local_addr().expect("an address");
    drop(listener);
    format!("http://{address}")
}

/// An option's value and the exit status it must get.
type Value<'a> = (&'a str, i32);

const ROOT: &str = "0x2be9c16ef583951a1a04a03532643e38b34f3252c759bc8225a096e2e16442e0";
const ROLLUP: &str = "0x5fbdb2315678afecb367f032d93f642f64180aa3";

#[test]
fn no_numeric_option_panics_on_any_value() {
    let node = closed_url();
    let walk = ["verify", "tx", "--node", &node, "--archive-root", ROOT, "--tx-hash", "0x1"];
    let l1 = ["verify", "tx", "--node", &node, "--l1-rpc", &node, "--rollup", ROLLUP, "--tx-hash", "0x1"];
    let leaves = ["tree", "witness", "blocks/three-fixtures.leaves.json", "--block-number", "7"];
    let huge = "18446744073709551616";
    // (command, option, [(value, exit status)]): 0, a huge value, a negative one, garbage.
    let cases: Vec<(Vec<&str>, &str, Vec<Value<'_>>)> = vec![
        (
            vec!["backend"],
            "--threads",
            vec![("0", 2), ("1", 0), ("1024", 0), ("1025", 2), ("65535", 2), (huge, 2), ("-1", 2), ("x", 2)],
        ),
        (
            vec!["block", "generate", "--profile", "small"],
            "--txs",
            vec![("0", 0), ("65537", 2), (huge, 2), ("-1", 2), ("x", 2)],
        ),
        (
            vec!["block", "leaves", "blocks/three-fixtures.json"],
            "--block-number",
            vec![("0", 0), ("4294967296", 2), (huge, 2), ("-1", 2), ("x", 2)],
        ),
        (
            leaves.to_vec(),
            "--index",
            vec![("0", 0), ("3", 2), ("18446744073709551615", 2), (huge, 2), ("-1", 2), ("x", 2)],
        ),
        (
            vec!["block", "witness", "blocks/three-fixtures.json", "--block-number", "7"],
            "--tx",
            vec![("0", 0), ("18446744073709551615", 2), (huge, 2), ("-1", 2), ("x", 2)],
        ),
        (
            vec!["poseidon2", "hash", "INPUTS", "1"],
            "--separator",
            vec![("0", 0), ("0xffffffff", 0), ("4294967296", 2), (huge, 2), ("-1", 2), ("0x", 2)],
        ),
        (
            walk.to_vec(),
            "--timeout",
            vec![("0", 2), ("1", 4), ("18446744073709551615", 2), (huge, 2), ("-1", 2), ("x", 2)],
        ),
        (walk.to_vec(), "--block-number", vec![("0", 4), ("4294967296", 2), ("-1", 2), ("x", 2)]),
        (
            l1.to_vec(),
            "--l1-block",
            vec![("0", 4), ("18446744073709551615", 4), (huge, 2), ("-1", 2), ("x", 2)],
        ),
    ];
    for (command, option, values) in cases {
        for (value, expected) in values {
            // `--option=value`: a negative value reaches the option's parser rather than being
            // read as a flag.
            let given = format!("{option}={value}");
            // Before the inputs where a command takes them (they read `-1` as a value).
            let args: Vec<&str> = match command.iter().position(|arg| *arg == "INPUTS") {
                Some(at) => [&command[..at], &[given.as_str()], &command[at + 1..]].concat(),
                None => [&command[..], &[given.as_str()]].concat(),
            };
            let output = txfx(&args, &[]);
            assert_eq!(output.status.code(), Some(expected), "{args:?}: {}", stderr(&output));
        }
    }
}

#[test]
fn rayon_threads_from_the_environment_are_bounded_too() {
    let root =
        |threads: &str| txfx(&["block", "root", "blocks/small-64.json"], &[("RAYON_NUM_THREADS", threads)]);
    let too_many = root("100000");
    assert_eq!(too_many.status.code(), Some(2), "{too_many:?}");
    assert!(stderr(&too_many).contains("RAYON_NUM_THREADS"));
    // What rayon itself ignores (0, not a number) stays ignored.
    for threads in ["2", "0", "x"] {
        assert_eq!(root(threads).status.code(), Some(0), "{threads}");
    }
}

#[test]
fn timeouts_take_units_and_refuse_what_cannot_be_a_deadline() {
    let node = closed_url();
    let walk = |timeout: &str| {
        txfx(
            &[
                "verify",
                "tx",
                "--node",
                &node,
                "--archive-root",
                ROOT,
                "--tx-hash",
                "0x1",
                &format!("--timeout={timeout}"),
            ],
            &[],
        )
    };
    // A usable deadline reaches the node (refused: exit 4).
    for timeout in ["250ms", "1.5s", "90s", "2m", "60", "3600", "60m"] {
        let output = walk(timeout);
        assert_eq!(output.status.code(), Some(4), "{timeout}: {}", stderr(&output));
    }
    for timeout in ["0", "0ms", "0.0005s", "-1s", "1h", "61m", "3601", "1.5.s", "", "ms", "1 s"] {
        let output = walk(timeout);
        assert_eq!(output.status.code(), Some(2), "{timeout:?}: {}", stderr(&output));
        assert!(stderr(&output).contains("--timeout"), "{timeout:?}: {}", stderr(&output));
    }
    assert!(stderr(&walk("61m")).contains("3600s"));
}

#[test]
fn a_url_that_cannot_work_is_refused_before_anything_is_sent() {
    // A listener that must see no connection.
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
    listener.set_nonblocking(true).expect("non-blocking");
    let good = format!("http://{}", listener.local_addr().expect("an address"));
    for (node, l1, named) in [
        ("localhost:8080", good.as_str(), "--node"),
        ("ftp://localhost:8080", good.as_str(), "--node"),
        ("http://", good.as_str(), "--node"),
        ("http://host:99999", good.as_str(), "--node"),
        ("http://bad host", good.as_str(), "--node"),
        (good.as_str(), "127.0.0.1:8545", "--l1-rpc"),
        (good.as_str(), "ws://127.0.0.1:8545", "--l1-rpc"),
    ] {
        let output = txfx(
            &["verify", "tx", "--node", node, "--l1-rpc", l1, "--rollup", ROLLUP, "--tx-hash", "0x1"],
            &[],
        );
        assert_eq!(output.status.code(), Some(2), "{node} {l1}: {}", stderr(&output));
        assert!(stderr(&output).contains(named), "{named}: {}", stderr(&output));
    }
    let accepted = listener.accept().map(|_| ()).map_err(|e| e.kind());
    assert_eq!(accepted, Err(ErrorKind::WouldBlock), "a request was sent");
}

#[test]
fn secrets_in_urls_are_never_printed() {
    let token = "AbCdEfGhIjKlMnOpQrStUvWx0123";
    // A malformed URL's error shows it redacted.
    let bad = format!("user:hunter2@localhost:8080/v2/{token}?apikey=s3cret");
    let output = txfx(&["verify", "tx", "--node", &bad, "--archive-root", ROOT, "--tx-hash", "0x1"], &[]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("localhost:8080/v2/…?apikey=…"), "{}", stderr(&output));
    // An unreachable one's transport error too.
    let closed = closed_url();
    let url = closed.replace("http://", "https://user:hunter2@") + &format!("/v2/{token}?apikey=s3cret");
    let output = txfx(&["verify", "tx", "--node", &url, "--archive-root", ROOT, "--tx-hash", "0x1"], &[]);
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    let shown = closed.replace("http://", "https://") + "/v2/…?apikey=…";
    assert!(stderr(&output).contains(&shown), "{}", stderr(&output));
    for secret in ["hunter2", token, "s3cret"] {
        assert!(!stderr(&output).contains(secret), "{secret}: {}", stderr(&output));
    }
    // --help shows which variable it reads, never the value it holds.
    let help = txfx(&["verify", "tx", "--help"], &[("AZTEC_NODE_URL", &url), ("ETH_RPC_URL", &url)]);
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(text.contains("[env: AZTEC_NODE_URL]") && text.contains("[env: ETH_RPC_URL]"), "{text}");
    assert!(!text.contains("hunter2"), "{text}");
}

#[test]
fn the_l1_url_comes_from_eth_rpc_url() {
    let chain = Arc::new(V6Chain::load());
    let node = StubNode::start(chain.clone(), Lie::None);
    let tx = chain.tx_of_block(4);
    let l1 = format!("{}/?key=hunter2", closed_url());
    let args = ["verify", "tx", "--node", &node.url, "--rollup", ROLLUP, "--tx-hash", &tx];
    // The node answers; L1, from the variable, is not there: exit 4 naming it, redacted.
    let output = txfx(&args, &[("ETH_RPC_URL", &l1)]);
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    assert!(stderr(&output).contains(&l1.replace("hunter2", "…")), "{}", stderr(&output));
    assert!(!stderr(&output).contains("hunter2"));
    // A variable that is no URL is refused naming it; one that is empty is no URL at all.
    let output = txfx(&args, &[("ETH_RPC_URL", "localhost:8545")]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("$ETH_RPC_URL"), "{}", stderr(&output));
    let output = txfx(&args, &[("ETH_RPC_URL", "")]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("--l1-rpc"), "{}", stderr(&output));
}

#[test]
fn the_environment_does_not_turn_a_file_check_into_a_node_walk() {
    let rpc = "v6/rpc/";
    let file = |name: &str| format!("{rpc}{name}");
    let (witness, header, tx_witness, effect) = (
        file("getBlockHashMembershipWitness-R5-block4.response.json"),
        file("getBlock-block4-with-transactions.response.json"),
        file("getTxEffectMembershipWitness-block4-tx0.response.json"),
        file("getTxReceipt-block4-tx0-with-tx-effect.response.json"),
    );
    let files = [
        "verify",
        "tx",
        "--archive-root",
        ROOT,
        "--archive-witness",
        &witness,
        "--header",
        &header,
        "--witness",
        &tx_witness,
        "--effect",
        &effect,
    ];
    let closed = closed_url();
    for env in [
        vec![],
        vec![("AZTEC_NODE_URL", closed.as_str()), ("ETH_RPC_URL", closed.as_str())],
        vec![("AZTEC_NODE_URL", ""), ("ETH_RPC_URL", "")],
    ] {
        let output = txfx(&files, &env);
        assert_eq!(output.status.code(), Some(0), "{env:?}: {}", stderr(&output));
    }
    // On the command line, a node and files are two answers to one question: refused.
    let output = txfx(&[&files[..], &["--node", &closed]].concat(), &[]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("--node"), "{}", stderr(&output));
    // --l1-rpc without --rollup, or without a node: refused as before.
    let output = txfx(
        &["verify", "tx", "--node", &closed, "--l1-rpc", &closed, "--archive-root", ROOT, "--tx-hash", "0x1"],
        &[],
    );
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("--rollup"), "{}", stderr(&output));
    let output =
        txfx(&["verify", "tx", "--l1-rpc", &closed, "--archive-root", ROOT, "--tx-hash", "0x1"], &[]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
}

#[test]
fn the_node_url_comes_from_the_environment_and_is_shown_redacted() {
    let chain = Arc::new(V6Chain::load());
    let node = StubNode::start(chain.clone(), Lie::None);
    // Block 4 is in checkpoint 2.
    let (root, tx) = (chain.archive_at(2), chain.tx_of_block(4));
    // The stub node as $AZTEC_NODE_URL, with a key in it that no message may show.
    let secret = format!("{}/?apikey=hunter2", node.url.trim_end_matches('/'));
    let args = ["verify", "tx", "--archive-root", &root, "--tx-hash", &tx];
    let output = txfx(&args, &[("AZTEC_NODE_URL", &secret)]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let verdict: serde_json::Value = serde_json::from_slice(&output.stdout).expect("the verdict");
    assert_eq!(verdict["blockNumber"], 4);
    // A node that is not there, from the variable: its URL appears in the error, redacted.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let address = closed.local_addr().expect("an address");
    drop(closed);
    let token = "0123456789abcdefghijklmnopqrstuv";
    let url = format!("http://user:pass@{address}/v2/{token}?apikey=hunter2");
    let output = txfx(&args, &[("AZTEC_NODE_URL", &url)]);
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    let message = stderr(&output);
    assert!(message.contains(&format!("http://{address}/v2/…?apikey=…")), "{message}");
    for secret in ["user", "pass", token, "hunter2"] {
        assert!(!message.contains(secret), "{secret} shown: {message}");
    }
    // --node wins over the variable.
    let output = txfx(&[&args[..], &["--node", &node.url]].concat(), &[("AZTEC_NODE_URL", &url)]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}
