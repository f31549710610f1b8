//! `cargo xtask msrv`: every published crate builds with the oldest Rust its manifest claims.
//!
//! Each library crate's `rust-version` is the oldest stable Rust that builds it, found by
//! building: the crates below the node walk need 1.91
//! (txfx-poseidon's `carrying_add`, `borrowing_sub` and `carrying_mul`), and txfx-backend-wasm
//! what wasmtime claims. This reads each library crate's `rust_version` from `cargo metadata`,
//! and for each toolchain they name, installs it with rustup (minimal profile) when it is missing
//! and checks every crate that names it in one run: `cargo check --locked -p A -p B …`, the
//! libraries with their default features, as a dependent builds them (a dev-dependency or a test
//! may need newer Rust; a user never builds them). The builds go to `target/msrv`, apart from the
//! workspace's own. A toolchain equal to the Rust running this xtask is not checked again: CI's
//! lint (clippy) and tests compile those crates with it already.

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

/// The version of the Rust that runs this xtask (and so CI's lint and tests): `1.95.0`.
fn current_rust() -> Result<String, String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let output =
        Command::new(&rustc).arg("--version").output().map_err(|e| format!("{rustc} --version: {e}"))?;
    let text = String::from_utf8_lossy(&output.stdout);
    text.split_whitespace()
        .nth(1)
        .map(str::to_owned)
        .ok_or(format!("{rustc} --version: unexpected answer {text:?}"))
}

pub fn run_msrv() -> Result<(), String> {
    let crates = rust_versions()?;
    let current = current_rust()?;
    let target = target_dir().join("msrv");
    // One check per toolchain, of every crate that names it: the shared dependency graph is
    // compiled once per toolchain, not once per crate. A crate whose floor is the Rust running
    // this xtask is not checked again: lint's clippy and the tests compile it with that Rust.
    let mut toolchains: Vec<String> = crates.iter().map(|(_, version)| toolchain(version)).collect();
    toolchains.sort();
    toolchains.dedup();
    for toolchain in &toolchains {
        let names: Vec<&str> = crates
            .iter()
            .filter(|(_, version)| &self::toolchain(version) == toolchain)
            .map(|(name, _)| *name)
            .collect();
        if *toolchain == current {
            println!(
                "msrv: {} need Rust {toolchain}, the Rust lint and the tests build them with: not checked again",
                names.join(", ")
            );
            continue;
        }
        if !installed(toolchain)? {
            run(Command::new("rustup").args(["toolchain", "install", toolchain, "--profile", "minimal"]))?;
        }
        let mut command = Command::new("rustup");
        command.args(["run", toolchain, "cargo", "check", "--locked"]);
        for name in &names {
            command.args(["-p", name]);
        }
        // `rustup run` rather than the `cargo +X` proxy syntax: the cargo on PATH need not be
        // rustup's. The variables the outer cargo set for this xtask would point the inner one at
        // the current toolchain's programs.
        run(command
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("CARGO")
            .env_remove("RUSTC")
            .env_remove("RUSTDOC")
            .env_remove("RUSTUP_TOOLCHAIN"))?;
        println!("msrv: {} build with Rust {toolchain}", names.join(", "));
    }
    Ok(())
}
