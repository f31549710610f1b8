//! Every option value the binary cannot use is a usage error (exit 2), never a panic (101):
//! numbers at 0, far too large, negative and garbage; `--timeout`'s durations.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use std::net::TcpListener;
use std::process::{Command, Output};

use txfx_suite::vectors::testdata_dir;

fn txfx(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_txfx"));
    command
        .args(args)
        .current_dir(testdata_dir())
        .env_remove("TXFX_BACKEND")
        .env_remove("RAYON_NUM_THREADS")
        .env_remove("AZTEC_NODE_URL")
        .env_remove("ETH_RPC_URL");
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("txfx runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
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
