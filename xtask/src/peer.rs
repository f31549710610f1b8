//! The reference side of `cargo xtask bench --peer`: installs the pinned `@aztec/foundation` and
//! `@aztec/bb.js` under `target/peer/` (never committed) and runs `xtask/peer/bench.mjs` once per
//! bb.js backend, merging the three result files.

use std::process::Command;

use serde_json::{Value, json};

use crate::{npm_install, root, run};

/// The Poseidon2 reference: the versions the seed system was measured with (docs/spec.md §1),
/// which `reference.json` and the v6 chain (`ts-fixtures`) were computed with too, so both
/// installs read this one manifest.
pub const PACKAGE_JSON: &str = r#"{
  "name": "txfx-poseidon2-reference",
  "private": true,
  "type": "module",
  "dependencies": { "@aztec/foundation": "5.2.0", "@aztec/bb.js": "5.0.0" },
  "overrides": { "@aztec/bb.js": "5.0.0" }
}
"#;

/// Installs the reference under `target/peer/` (if needed) and returns that folder.
pub fn install() -> Result<std::path::PathBuf, String> {
    let dir = root().join("target").join("peer");
    npm_install(&dir, PACKAGE_JSON, "@aztec/bb.js")?;
    Ok(dir)
}

/// Installs the reference (if needed) and benchmarks it on `export` (written by
/// `txfx-bench export`), writing the merged results to `out`.
pub fn run_peer(export: &str, out: &str) -> Result<(), String> {
    let dir = install()?;
    let script = dir.join("bench.mjs");
    std::fs::copy(root().join("xtask/peer/bench.mjs"), &script).map_err(|e| e.to_string())?;
    std::fs::copy(root().join("xtask/peer/bb-sync.mjs"), dir.join("bb-sync.mjs"))
        .map_err(|e| e.to_string())?;
    let mut versions = Value::Null;
    let mut results = Vec::new();
    for backend in ["uds", "shm", "wasm"] {
        let part = dir.join(format!("result-{backend}.json"));
        run(Command::new("node").arg(&script).arg(export).arg(backend).arg(&part))?;
        let text = std::fs::read_to_string(&part).map_err(|e| format!("{}: {e}", part.display()))?;
        let value: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        versions = value.get("versions").cloned().unwrap_or_default();
        results.extend(value.get("results").and_then(Value::as_array).cloned().unwrap_or_default());
    }
    let merged = json!({"versions": versions, "results": results});
    std::fs::write(out, serde_json::to_string_pretty(&merged).map_err(|e| e.to_string())?)
        .map_err(|e| format!("{out}: {e}"))
}
