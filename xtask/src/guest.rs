//! `cargo xtask wasm-guest [--check]`: the reproducible build of `backend-wasm/guest.wasm`.
//!
//! The module is built with paths remapped (`--remap-path-prefix` for the workspace and cargo
//! home), so the same sources give the same bytes from any checkout. Beside it,
//! `guest.wasm.sources-sha256` records the SHA-256 of everything the build reads (the guest's
//! and `poseidon`'s sources and manifests, the root manifest and lock file, and the `rustc`
//! version). The guest is a workspace member, so that cargo derives crate disambiguators from
//! paths relative to the workspace root, never from where the checkout is. `--check` fails if that record is stale or a fresh build differs.

use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

use crate::{root, run};

const MODULE: &str = "backend-wasm/guest.wasm";
const RECORD: &str = "backend-wasm/guest.wasm.sources-sha256";

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            files_under(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

fn rustc_version() -> Result<String, String> {
    let output = Command::new("rustc").arg("-V").output().map_err(|e| format!("rustc -V: {e}"))?;
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

/// SHA-256 over every input of the guest build, in a fixed order.
pub fn sources_hash() -> Result<String, String> {
    let root = root();
    let mut files = vec![
        root.join("Cargo.toml"),
        root.join("Cargo.lock"),
        root.join("backend-wasm/guest/Cargo.toml"),
        root.join("poseidon/Cargo.toml"),
    ];
    files_under(&root.join("backend-wasm/guest-src"), &mut files)?;
    files_under(&root.join("poseidon/src"), &mut files)?;
    files.sort();
    let mut hasher = Sha256::new();
    hasher.update(rustc_version()?.as_bytes());
    for file in files {
        let relative = file.strip_prefix(&root).unwrap_or(&file).to_string_lossy().replace('\\', "/");
        let contents = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        hasher.update(relative.as_bytes());
        hasher.update([0]);
        hasher.update((contents.len() as u64).to_le_bytes());
        hasher.update(&contents);
    }
    Ok(hasher.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

fn build() -> Result<Vec<u8>, String> {
    let root = root();
    run(Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown"]))?;
    let cargo_home = std::env::var("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".cargo"));
    let target_dir = root.join("target").join("wasm-guest");
    let rustflags = format!(
        "--remap-path-prefix={}=/txfx --remap-path-prefix={}=/cargo",
        root.display(),
        cargo_home.display()
    );
    run(Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()))
        .args(["build", "--locked", "--package", "txfx-wasm-guest", "--profile", "wasm-guest"])
        .args(["--target", "wasm32-unknown-unknown"])
        .env("CARGO_TARGET_DIR", &target_dir)
        .env("RUSTFLAGS", rustflags)
        .env_remove("CARGO_ENCODED_RUSTFLAGS"))?;
    let built = target_dir.join("wasm32-unknown-unknown/wasm-guest/txfx_wasm_guest.wasm");
    std::fs::read(&built).map_err(|e| format!("{}: {e}", built.display()))
}

/// Rebuilds the guest; with `check`, compares instead of writing.
pub fn run_guest(check: bool) -> Result<(), String> {
    let root = root();
    let hash = sources_hash()?;
    if check {
        let recorded = std::fs::read_to_string(root.join(RECORD)).map_err(|e| format!("{RECORD}: {e}"))?;
        if recorded.trim() != hash {
            return Err(format!(
                "{MODULE} is stale: its sources hash {} but they now hash {hash}; run `cargo xtask wasm-guest`",
                recorded.trim()
            ));
        }
    }
    let built = build()?;
    if check {
        let committed = std::fs::read(root.join(MODULE)).map_err(|e| format!("{MODULE}: {e}"))?;
        if committed != built {
            return Err(format!(
                "{MODULE} ({} bytes) differs from a fresh build ({} bytes); run `cargo xtask wasm-guest`",
                committed.len(),
                built.len()
            ));
        }
        println!("wasm-guest: {MODULE} matches a fresh build ({} bytes), sources {hash}", built.len());
    } else {
        std::fs::write(root.join(MODULE), &built).map_err(|e| format!("{MODULE}: {e}"))?;
        std::fs::write(root.join(RECORD), format!("{hash}\n")).map_err(|e| format!("{RECORD}: {e}"))?;
        println!("wasm-guest: wrote {MODULE} ({} bytes), sources {hash}", built.len());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// The committed module's record names the sources it was built from, so a change to them
    /// (txfx-poseidon, the guest, a manifest, the lock file) needs `cargo xtask wasm-guest`: caught
    /// here, in seconds, rather than by CI's rebuild.
    #[test]
    fn the_guest_record_names_the_current_sources() {
        let recorded = std::fs::read_to_string(crate::root().join(super::RECORD)).expect("the record");
        let current = super::sources_hash().expect("the sources hash");
        assert_eq!(
            recorded.trim(),
            current,
            "{} is stale: run `cargo xtask wasm-guest` (and commit the module and its record)",
            super::MODULE
        );
    }
}
