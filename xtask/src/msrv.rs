//! `cargo xtask msrv`: every published crate builds with the oldest Rust its manifest claims.
//!
//! Each library crate's `rust-version` is the oldest stable Rust that builds it, found by
//! building: the crates below the node walk need 1.91
//! (txfx-poseidon's `carrying_add`, `borrowing_sub` and `carrying_mul`), and txfx-backend-wasm
//! what wasmtime claims. For each library crate this reads `rust_version` from `cargo metadata`,
//! installs that toolchain with rustup (minimal profile) when it is missing, and checks the crate
//! with it: `cargo check --locked -p CRATE`, the library with its default features, as a
//! dependent builds it (a dev-dependency or a test may need newer Rust; a user never builds
//! them). The builds go to `target/msrv`, apart from the workspace's own.

use std::process::Command;

use crate::{LIBRARY_CRATES, root, run, target_dir};

/// The toolchain a `rust-version` names at its oldest: `1.91` is `1.91.0`.
fn toolchain(rust_version: &str) -> String {
    if rust_version.split('.').count() == 2 { format!("{rust_version}.0") } else { rust_version.to_owned() }
}

/// Each library crate's `rust-version`, in `LIBRARY_CRATES`' order.
fn rust_versions() -> Result<Vec<(&'static str, String)>, String> {
    let output = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()))
        .args(["metadata", "--format-version", "1", "--no-deps", "--locked"])
        .current_dir(root())
        .output()
        .map_err(|e| format!("cargo metadata: {e}"))?;
    if !output.status.success() {
        return Err(format!("cargo metadata: {}", String::from_utf8_lossy(&output.stderr)));
    }
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).map_err(|e| format!("cargo metadata: {e}"))?;
    let packages = metadata
        .get("packages")
        .and_then(serde_json::Value::as_array)
        .ok_or("cargo metadata: no packages")?;
    LIBRARY_CRATES
        .iter()
        .map(|&name| {
            let package = packages
                .iter()
                .find(|p| p.get("name").and_then(serde_json::Value::as_str) == Some(name))
                .ok_or(format!("{name}: not in the workspace"))?;
            let version = package
                .get("rust_version")
                .and_then(serde_json::Value::as_str)
                .ok_or(format!("{name}: no rust-version (a published crate must state one)"))?;
            Ok((name, version.to_owned()))
        })
        .collect()
}

/// Whether rustup has `toolchain` (for this host).
fn installed(toolchain: &str) -> Result<bool, String> {
    let output = Command::new("rustup")
        .args(["toolchain", "list"])
        .output()
        .map_err(|e| format!("rustup toolchain list: {e} (the MSRV check needs rustup)"))?;
    let list = String::from_utf8_lossy(&output.stdout);
    Ok(list.lines().any(|line| line.starts_with(&format!("{toolchain}-"))))
}

pub fn run_msrv() -> Result<(), String> {
    let crates = rust_versions()?;
    let target = target_dir().join("msrv");
    for (name, version) in &crates {
        let toolchain = toolchain(version);
        if !installed(&toolchain)? {
            run(Command::new("rustup").args(["toolchain", "install", &toolchain, "--profile", "minimal"]))?;
        }
        // `rustup run` rather than the `cargo +X` proxy syntax: the cargo on PATH need not be
        // rustup's. The variables the outer cargo set for this xtask would point the inner one at
        // the current toolchain's programs.
        run(Command::new("rustup")
            .args(["run", &toolchain, "cargo", "check", "--locked", "-p", name])
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("CARGO")
            .env_remove("RUSTC")
            .env_remove("RUSTDOC")
            .env_remove("RUSTUP_TOOLCHAIN"))?;
    }
    for (name, version) in &crates {
        println!("msrv: {name} builds with Rust {}", toolchain(version));
    }
    Ok(())
}
