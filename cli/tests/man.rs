//! `txfx man`: txfx's own page, a sub-command's by its path, and every page with `--all DIR`.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use std::process::{Command, Output};

fn txfx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_txfx")).args(args).output().expect("txfx runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn every_sub_command_has_its_man_page() {
    let page = txfx(&["man", "verify", "tx"]);
    assert_eq!(page.status.code(), Some(0), "{}", stderr(&page));
    let text = String::from_utf8_lossy(&page.stdout);
    assert!(text.contains(".TH txfx-verify-tx 1"), "{text}");
    assert!(text.contains(r"\-\-tx\-hash"), "{text}");
    // The variables an option falls back to are named.
    assert!(text.contains("AZTEC_NODE_URL") && text.contains("ETH_RPC_URL"), "{text}");
    // The top page is as it was: txfx's own.
    let top = String::from_utf8_lossy(&txfx(&["man"]).stdout).into_owned();
    assert!(top.contains(".TH txfx 1"), "{top}");
    let unknown = txfx(&["man", "verify", "block"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).contains("it has: tx"), "{}", stderr(&unknown));
    // --all: one page per command, each file named by its command.
    let dir = std::env::temp_dir().join(format!("txfx-man-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let all = txfx(&["man", "--all", dir.to_str().expect("a UTF-8 path")]);
    assert_eq!(all.status.code(), Some(0), "{}", stderr(&all));
    let written = String::from_utf8_lossy(&all.stdout).lines().count();
    let verify_tx = std::fs::read_to_string(dir.join("txfx-verify-tx.1")).expect("txfx-verify-tx.1");
    assert_eq!(verify_tx, text);
    for name in ["txfx.1", "txfx-block-root.1", "txfx-witness-verify.1"] {
        assert!(dir.join(name).is_file(), "{name}");
    }
    assert_eq!(std::fs::read_dir(&dir).expect("the dir").count(), written);
    let _ = std::fs::remove_dir_all(&dir);
    let missing = txfx(&["man", "--all", "/nonexistent/txfx-man"]);
    assert_eq!(missing.status.code(), Some(2));
}
