//! `cargo xtask ts-fixtures`: fixtures from Aztec's own TypeScript. Installs `@aztec/stdlib`,
//! `@aztec/foundation`, `@aztec/blob-lib` and `@aztec/constants` 4.1.2 under `target/ts-fixtures/`
//! (never committed), runs `xtask/ts/fixtures.mjs` and `xtask/ts/chain.mjs`, and writes
//! `testdata/typescript/` and `testdata/chain/` (`readings.mjs`: how TypeScript's schemas read
//! mixed and ambiguous documents, the differential corpus). The script also feeds the
//! workspace's `txfx` binary's output back to TypeScript's schemas (`acceptance.json`).
//! `xtask/ts/v6-chain.mjs` writes the Aztec v6 chain fixtures (`testdata/v6/`) from its own
//! install under `target/ts-v6/` (`@aztec/foundation` 5.2.0 and `@aztec/bb.js` 5.0.0, Poseidon2
//! only: the v6 rules are written in the script from the v6 sources).

use std::process::Command;

use crate::{build_workspace, npm_install, root, run, target_dir};

/// The versions deployed nodes run (docs/spec.md §12), pinned exactly.
const PACKAGE_JSON: &str = r#"{
  "name": "txfx-ts-fixtures",
  "private": true,
  "type": "module",
  "dependencies": { "@aztec/stdlib": "4.1.2", "@aztec/foundation": "4.1.2", "@aztec/blob-lib": "4.1.2", "@aztec/constants": "4.1.2" }
}
"#;

/// Installs the packages (if needed), builds `txfx`, and regenerates `testdata/typescript/`.
pub fn run_ts_fixtures() -> Result<(), String> {
    let dir = root().join("target").join("ts-fixtures");
    npm_install(&dir, PACKAGE_JSON, "@aztec/stdlib")?;
    build_workspace()?;
    let script = copy_script("fixtures.mjs", &dir)?;
    run(Command::new("node")
        .arg(&script)
        .arg(root().join("testdata").join("typescript"))
        .current_dir(&dir)
        .env("TXFX_BIN", target_dir().join("debug").join("txfx")))?;
    // Headers and the archive chain (testdata/typescript/headers.json, testdata/chain/).
    copy_script("archive-tree.mjs", &dir)?;
    let chain = copy_script("chain.mjs", &dir)?;
    run(Command::new("node").arg(&chain).arg(root().join("testdata")).current_dir(&dir))?;
    // The Aztec v6 chain (testdata/v6/), from its own install.
    let v6_dir = root().join("target").join("ts-v6");
    npm_install(&v6_dir, crate::peer::PACKAGE_JSON, "@aztec/bb.js")?;
    copy_script("archive-tree.mjs", &v6_dir)?;
    let v6 = copy_script("v6-chain.mjs", &v6_dir)?;
    run(Command::new("node").arg(&v6).arg(root().join("testdata")).current_dir(&v6_dir))?;
    // How TypeScript's schemas read mixed and ambiguous documents (testdata/typescript/readings.json).
    let readings = copy_script("readings.mjs", &dir)?;
    run(Command::new("node").arg(&readings).arg(root().join("testdata").join("typescript")).current_dir(&dir))
}

/// Copies `xtask/ts/<name>` into `dir`, beside the packages it imports, and returns the copy's path.
fn copy_script(name: &str, dir: &std::path::Path) -> Result<std::path::PathBuf, String> {
    let copy = dir.join(name);
    std::fs::copy(root().join("xtask/ts").join(name), &copy).map_err(|e| format!("{name}: {e}"))?;
    Ok(copy)
}
