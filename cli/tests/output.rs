//! What the `txfx` binary gives people who ship and script it: `--version` with the commit.

// Test code: a failed expectation is a failed test.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use std::process::{Command, Output};

fn txfx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_txfx")).args(args).output().expect("txfx runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
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
