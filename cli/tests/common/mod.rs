//! How the binary's tests run `txfx`: one command line, one way to feed it stdin, one reading of
//! what it printed.

#![allow(dead_code, reason = "each test binary uses its own part of these helpers")]

use std::io::Write;
use std::process::{Command, Output, Stdio};

use txfx_suite::vectors::testdata_dir;

/// `txfx args` run in `testdata/`, with none of the environment variables the binary reads
/// inherited from the developer's shell, and no settings file of theirs (`TXFX_CONFIG` empty; a
/// test that wants one sets it on the command).
pub fn command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_txfx"));
    command
        .args(args)
        .current_dir(testdata_dir())
        .env_remove("TXFX_BACKEND")
        .env_remove("RAYON_NUM_THREADS")
        .env_remove("AZTEC_NODE_URL")
        .env_remove("ETH_RPC_URL")
        .env("TXFX_CONFIG", "");
    command
}

/// Runs `txfx args` with `env` set and `stdin` (or nothing) on its standard input.
pub fn txfx_with(args: &[&str], env: &[(&str, &str)], stdin: Option<&str>) -> Output {
    let mut command = command(args);
    command.envs(env.iter().copied());
    command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = command.spawn().expect("txfx runs");
    // Written from another thread: a `--jsonl` run answers its first chunk while later lines are
    // still coming, and would block on a full stdout pipe that nobody reads yet.
    let mut pipe = child.stdin.take().expect("stdin");
    let text = stdin.unwrap_or_default().to_owned();
    let writer = std::thread::spawn(move || pipe.write_all(text.as_bytes()));
    let output = child.wait_with_output().expect("txfx finishes");
    writer.join().expect("the writer thread").expect("write stdin");
    output
}

/// Runs `txfx args` with an empty standard input.
pub fn txfx(args: &[&str]) -> Output {
    txfx_with(args, &[], None)
}

/// What it printed on stdout, trimmed.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

/// What it printed on stderr.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
