//! `cargo xtask js build | test`: the npm package in `js/`.
//!
//! `build` compiles the Node addon (`js/native`, napi-rs) and copies it to `js/txfx.node`, which
//! leaves `js/` ready for `npm pack`; `--release` builds it as it would be published. `test`
//! builds, runs `node --test` over the repository's vectors and the bad-input catalogue, then
//! packs the package, installs the tarball into an empty project without the network, and loads
//! it there with `import` and with `require`, as a user would, and type-checks a TypeScript
//! consumer against it with `tsc --strict`.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{cargo, npm_install, root, run, target_dir};

/// The tools the package's checks need from npm (installed under `target/js-tools/`).
const TOOLS_PACKAGE_JSON: &str = r#"{"private": true, "dependencies": {"typescript": "5.6.3"}}"#;

/// The shared library cargo writes for the addon, on this platform.
fn addon_library(profile: &str) -> PathBuf {
    let name = if cfg!(target_os = "macos") {
        "libtxfx_node.dylib"
    } else if cfg!(windows) {
        "txfx_node.dll"
    } else {
        "libtxfx_node.so"
    };
    target_dir().join(profile).join(name)
}

pub fn run_js(rest: &[String]) -> Result<(), String> {
    let args: Vec<&str> = rest.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["build"] => build(false),
        ["build", "--release"] => build(true),
        ["test"] => test(),
        _ => Err(format!("cargo xtask js {args:?}: usage: cargo xtask js <build [--release] | test>")),
    }
}

fn build(release: bool) -> Result<(), String> {
    let mut command = cargo();
    command.args(["build", "--locked", "-p", "txfx-node"]);
    if release {
        command.arg("--release");
    }
    run(&mut command)?;
    let library = addon_library(if release { "release" } else { "debug" });
    let addon = root().join("js").join("txfx.node");
    std::fs::copy(&library, &addon)
        .map_err(|e| format!("{} -> {}: {e}", library.display(), addon.display()))?;
    println!("js: {} ready for npm pack", addon.display());
    Ok(())
}

fn node(dir: &Path, args: &[&str]) -> Result<(), String> {
    run(Command::new("node").args(args).current_dir(dir))
}

fn test() -> Result<(), String> {
    build(false)?;
    let js = root().join("js");
    node(&js, &["--test", "test/"])?;
    // As a user gets it: the packed tarball installed into an empty project, offline.
    let scratch = target_dir().join("js-consumer");
    if scratch.exists() {
        std::fs::remove_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    }
    std::fs::create_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    run(Command::new("npm").args(["pack", "--pack-destination"]).arg(&scratch).current_dir(&js))?;
    let tarball = std::fs::read_dir(&scratch)
        .map_err(|e| e.to_string())?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .find(|path| path.extension().is_some_and(|ext| ext == "tgz"))
        .ok_or("npm pack wrote no tarball")?;
    let project = scratch.join("project");
    std::fs::create_dir_all(&project).map_err(|e| e.to_string())?;
    std::fs::write(
        project.join("package.json"),
        r#"{"name": "consumer", "version": "1.0.0", "private": true}"#,
    )
    .map_err(|e| e.to_string())?;
    run(Command::new("npm")
        .args(["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts"])
        .arg(&tarball)
        .current_dir(&project))?;
    let root_hex = "0x10aefe4df8cb37d89dc3278432c6c732c7b3740fb53d5ef128f86f9a9b4bbafb";
    let body = root().join("testdata/blocks/three-fixtures.json");
    let body = body.to_string_lossy();
    let check = |loader: &str| {
        format!(
            "{loader}\nconst body = require('node:fs').readFileSync({body:?}, 'utf8');\n\
             const root = txfx.txEffectsTreeRoot(body);\n\
             if (root !== {root_hex:?}) {{ throw new Error(`root ${{root}}`); }}\n\
             console.log(`installed txfx (${{txfx.backend}}): the three-tx block's root`, root);\n"
        )
    };
    let esm = check(
        "import * as txfx from 'txfx';\nimport { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);",
    );
    let cjs = check("const txfx = require('txfx');");
    std::fs::write(project.join("esm.mjs"), esm).map_err(|e| e.to_string())?;
    std::fs::write(project.join("cjs.cjs"), cjs).map_err(|e| e.to_string())?;
    node(&project, &["esm.mjs"])?;
    node(&project, &["cjs.cjs"])?;
    // The declarations, as a TypeScript user meets them: a consumer type-checked with --strict.
    let tools = target_dir().join("js-tools");
    npm_install(&tools, TOOLS_PACKAGE_JSON, "typescript")?;
    std::fs::copy(js.join("types").join("consumer.ts"), project.join("consumer.ts"))
        .map_err(|e| e.to_string())?;
    let tsc = tools.join("node_modules").join("typescript").join("bin").join("tsc");
    let tsc = tsc.to_string_lossy();
    node(
        &project,
        &[
            &tsc,
            "--strict",
            "--noEmit",
            "--module",
            "nodenext",
            "--moduleResolution",
            "nodenext",
            "--target",
            "es2022",
            "consumer.ts",
        ],
    )?;
    println!(
        "js: node --test passed; the packed package installs offline, loads by import and require, and type-checks with tsc --strict"
    );
    Ok(())
}
