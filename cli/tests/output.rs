//! What the `txfx` binary gives people who ship and script it: `--version` with the commit,
//! shell completions and the man page.

// Test code: a failed expectation is a failed test.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use std::process::{Command, Output};

fn txfx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_txfx")).args(args).output().expect("txfx runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
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
        for word in ["checkpoint", "witness", "completions", "decode-blob", "jsonl", "protocol"] {
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
    assert!(page.contains("\\-\\-protocol") && page.contains("\\-\\-backend"), "global options");
    assert!(page.contains(env!("CARGO_PKG_VERSION")));
}
