//! `cargo xtask js build | test`: the npm package in `js/`.
//!
//! `build` compiles the Node addon (`js/native`, napi-rs) and copies it to `js/txfx.node`, then
//! the WASM engine (`js/wasm`, for wasm32-unknown-unknown) into `js/dist/txfx.wasm`, which
//! leaves `js/` ready for `npm pack`; `--release` builds the addon as it would
//! be published (the WASM engine is always built with its own `js-wasm` profile). `test` builds,
//! runs `node --test` over `js/test/*.test.mjs` on each engine (the repository's vectors, the
//! bad-input catalogue, the async forms), then packs the package, installs the tarball into an
//! empty project without the network and loads it there with `import` and with `require` on
//! each engine, as a user would, type-checks a TypeScript consumer against it with
//! `tsc --strict`, and runs the vector cases in Debian's Chromium from an app bundled by esbuild
//! (`js/test/browser/run.mjs`).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{cargo, npm_install, root, run, target_dir};

/// The tools the package's checks need from npm (installed under `target/js-tools/`).
const TOOLS_PACKAGE_JSON: &str = r#"{"private": true, "dependencies": {"typescript": "5.6.3", "esbuild": "0.28.2", "playwright-core": "1.64.1"}}"#;

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
    build_wasm()
}

/// The WASM engine: `js/wasm` for wasm32-unknown-unknown, copied to `js/dist/txfx.wasm`. The
/// module imports nothing and declares its own exports (`js/wasm.js` builds the engine from
/// them), so no generated glue goes with it.
fn build_wasm() -> Result<(), String> {
    run(Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown"]))?;
    run(cargo().args([
        "build",
        "--locked",
        "-p",
        "txfx-js-wasm",
        "--target",
        "wasm32-unknown-unknown",
        "--profile",
        "js-wasm",
    ]))?;
    let module = target_dir().join("wasm32-unknown-unknown/js-wasm/txfx_js_wasm.wasm");
    let dist = root().join("js").join("dist");
    // Stale files of the wasm-bindgen build this replaced must not ship.
    if dist.exists() {
        std::fs::remove_dir_all(&dist).map_err(|e| format!("{}: {e}", dist.display()))?;
    }
    std::fs::create_dir_all(&dist).map_err(|e| format!("{}: {e}", dist.display()))?;
    let target = dist.join("txfx.wasm");
    let bytes = std::fs::copy(&module, &target)
        .map_err(|e| format!("{} -> {}: {e}", module.display(), target.display()))?;
    println!("js: {} ({bytes} bytes) ready for npm pack", target.display());
    Ok(())
}

fn node(dir: &Path, args: &[&str]) -> Result<(), String> {
    run(Command::new("node").args(args).current_dir(dir))
}

/// The README's Node example, run as written against the installed tarball (with the
/// repository's testdata/ beside it): it must print the verdict its last comment shows.
fn readme_example(project: &Path) -> Result<(), String> {
    let readme = std::fs::read_to_string(root().join("README.md")).map_err(|e| format!("README.md: {e}"))?;
    let after = readme.split_once("In Node (ready at").ok_or("README.md: no Node example")?.1;
    let code = after
        .split_once("```js\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .ok_or("README.md: no js block")?
        .0;
    let testdata = project.join("testdata");
    if !testdata.exists() {
        std::os::unix::fs::symlink(root().join("testdata"), &testdata).map_err(|e| e.to_string())?;
    }
    std::fs::write(project.join("readme.mjs"), code).map_err(|e| e.to_string())?;
    let out =
        Command::new("node").arg("readme.mjs").current_dir(project).output().map_err(|e| e.to_string())?;
    let printed = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() || !printed.lines().any(|line| line == "true tx 3") {
        return Err(format!(
            "README.md's Node example: {}\n{printed}{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    println!("js: README.md's Node example printed\n{printed}");
    Ok(())
}

/// `js/test/*.test.mjs`, by name (Node 20's `--test` given the folder would run every module in
/// it, the shared cases and the browser page included).
fn test_files(dir: &Path) -> Result<Vec<String>, String> {
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".test.mjs"))
        .map(|name| format!("test/{name}"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("{}: no *.test.mjs", dir.display()));
    }
    Ok(files)
}

fn test() -> Result<(), String> {
    build(false)?;
    let js = root().join("js");
    // Both engines over the same tests: the addon, then the WASM build the addon's absence
    // would fall back to, forced.
    let tests = test_files(&js.join("test"))?;
    // The node walk's tests drive `txfx-test-chain` (anvil with the stand-in rollup, and the stub
    // v6 node), from the README's set-up build, which holds it.
    let anvil = crate::l1_tools()?;
    run(cargo().args(["build", "--all-targets", "--locked"]))?;
    let test_chain = target_dir().join("debug").join("txfx-test-chain");
    for engine in ["native", "wasm"] {
        run(Command::new("node")
            .arg("--test")
            .args(&tests)
            .env("TXFX_BACKEND", engine)
            .env("TXFX_ANVIL", &anvil)
            .env("TXFX_TEST_CHAIN", &test_chain)
            .current_dir(&js))?;
    }
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
    for engine in ["native", "wasm"] {
        for entry in ["esm.mjs", "cjs.cjs"] {
            run(Command::new("node").arg(entry).env("TXFX_BACKEND", engine).current_dir(&project))?;
        }
    }
    readme_example(&project)?;
    // The declarations, as a TypeScript user meets them: a consumer type-checked with --strict.
    let tools = target_dir().join("js-tools");
    npm_install(&tools, TOOLS_PACKAGE_JSON, "playwright-core")?;
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
    // The WASM build in a real browser: Debian's Chromium, the app bundled by esbuild.
    let chromium = chromium()?;
    let runner = js.join("test").join("browser").join("run.mjs");
    run(Command::new("node")
        .arg(&runner)
        .arg("--tools")
        .arg(&tools)
        .arg("--project")
        .arg(&project)
        .arg("--testdata")
        .arg(root().join("testdata"))
        .args(["--chromium", &chromium])
        .arg("--test-chain")
        .arg(&test_chain)
        .env("TXFX_ANVIL", &anvil))?;
    println!(
        "js: node --test passed on both engines, and the WASM build in Chromium; the packed package installs offline, loads by import and require, and type-checks with tsc --strict"
    );
    Ok(())
}

/// The Chromium the browser tests and benchmarks drive: `TXFX_CHROMIUM`, else Debian's.
fn chromium() -> Result<String, String> {
    let chromium = std::env::var("TXFX_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".to_owned());
    if !Path::new(&chromium).exists() {
        return Err(format!(
            "{chromium}: no Chromium for the browser tests and benchmarks; install Debian's (`apt-get install chromium`, as .ci/run does) or set TXFX_CHROMIUM"
        ));
    }
    Ok(chromium)
}

/// The engines `bench --js` runs, one Node process each (`xtask/js-bench/bench.mjs`).
const BENCH_ENGINES: [&str; 4] = ["native", "wasm", "bb-shm", "bb-wasm"];

/// `cargo xtask bench --js [--quick]`: the package's engines (the release addon, the WASM build)
/// side by side with `@aztec/bb.js` + `@aztec/foundation` as `bench --peer` installs them, one
/// Node process per engine, into `target/bench/js/`; a full run also writes `benchmarks/js.md`
/// and `benchmarks/js.svg` and carries the section into BENCHMARKS.md.
pub fn bench(quick: bool) -> Result<(), String> {
    build(true)?;
    let peer = crate::peer::install()?;
    // Every workload's root, from the Rust benchmark's export (written by a dev build: the
    // export does not depend on the profile).
    crate::build_workspace()?;
    let out = target_dir().join("bench").join("js");
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let export = out.join("export.json");
    let mut command = Command::new(target_dir().join("debug").join("txfx-bench"));
    command.args(["export", "--out"]).arg(&export);
    if quick {
        command.arg("--quick");
    }
    run(&mut command)?;
    // The scripts run from under the reference's node_modules, so that its imports resolve.
    let scripts = peer.join("js-bench");
    std::fs::create_dir_all(&scripts).map_err(|e| e.to_string())?;
    for script in [
        "bench.mjs",
        "cold.mjs",
        "report.mjs",
        "workloads.mjs",
        "browser.mjs",
        "page.mjs",
        "globals.mjs",
        "builtins.mjs",
    ] {
        std::fs::copy(root().join("xtask/js-bench").join(script), scripts.join(script))
            .map_err(|e| format!("{script}: {e}"))?;
    }
    // The Chromium runner's server and flags, shared with the browser tests.
    std::fs::copy(root().join("js/test/browser/serve.mjs"), scripts.join("serve.mjs"))
        .map_err(|e| format!("serve.mjs: {e}"))?;
    let js = root().join("js");
    let mut results = Vec::new();
    // Two rounds, the engines alternating: this machine kind's speed drifts over minutes, so
    // each engine gets two chances at the same conditions (the report keeps the lower median).
    let rounds = if quick { 1 } else { 2 };
    for round in 1..=rounds {
        for engine in BENCH_ENGINES {
            let result = out.join(format!("{engine}-{round}.json"));
            let mut command = Command::new("node");
            command
                .arg(scripts.join("bench.mjs"))
                .arg(engine)
                .arg(&export)
                .arg(root().join("testdata"))
                .arg(&js)
                .arg(&result)
                .env("TXFX_BACKEND", if engine.starts_with("bb-") { "" } else { engine });
            if quick {
                command.arg("--quick");
            }
            if round > 1 {
                command.arg("--repeat");
            }
            run(&mut command)?;
            results.push(result);
        }
    }
    // The WASM build in Chromium, beside bb.js's browser WASM in the same page.
    let tools = target_dir().join("js-tools");
    npm_install(&tools, TOOLS_PACKAGE_JSON, "playwright-core")?;
    let mut browser = Command::new("node");
    browser
        .arg(scripts.join("browser.mjs"))
        .arg(&export)
        .arg(root().join("testdata"))
        .arg(&js)
        .arg(&out)
        .arg("--tools")
        .arg(&tools)
        .args(["--chromium", &chromium()?])
        .args(["--rounds", &rounds.to_string()]);
    if quick {
        browser.arg("--quick");
    }
    run(&mut browser)?;
    for round in 1..=rounds {
        results.push(out.join(format!("chromium-{round}.json")));
    }
    let mut report = Command::new("node");
    report.arg(scripts.join("report.mjs")).arg(&out).arg(&js).args(&results);
    if !quick {
        // The Rust permutation's own time, measured in the same run (criterion), for the
        // per-call goal.
        run(cargo().args([
            "bench",
            "--locked",
            "-p",
            "txfx-bench",
            "--bench",
            "permutation",
            "--",
            "--noplot",
            "permutation/txfx_chained",
        ]))?;
        let estimates = target_dir().join("criterion/permutation/txfx_chained/new/estimates.json");
        let text =
            std::fs::read_to_string(&estimates).map_err(|e| format!("{}: {e}", estimates.display()))?;
        let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        let median_ns = value
            .pointer("/median/point_estimate")
            .and_then(serde_json::Value::as_f64)
            .ok_or("criterion estimates: no median")?;
        report.env("TXFX_RUST_PERMUTATION_US", format!("{}", median_ns / 1000.0));
    }
    run(&mut report)?;
    if !quick {
        let benchmarks = root().join("benchmarks");
        for file in ["js.md", "js.svg"] {
            std::fs::copy(out.join(file), benchmarks.join(file)).map_err(|e| format!("{file}: {e}"))?;
        }
        let path = root().join("BENCHMARKS.md");
        let current = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
        std::fs::write(&path, with_js_section(&current)?).map_err(|e| e.to_string())?;
        println!("bench --js: wrote benchmarks/js.md, benchmarks/js.svg and their section of BENCHMARKS.md");
    }
    Ok(())
}

const JS_START: &str = "<!-- js-bench: written by `cargo xtask bench --js` -->";
const JS_END: &str = "<!-- /js-bench -->";

/// `benchmarks.md` text with `benchmarks/js.md` as its JavaScript section: in place of the
/// previous one, else before `## Reproduce`, else at the end. The Rust report keeps it too.
pub fn with_js_section(markdown: &str) -> Result<String, String> {
    let path = root().join("benchmarks").join("js.md");
    if !path.exists() {
        return Ok(markdown.to_owned());
    }
    let section = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let block = format!("{JS_START}\n{}\n{JS_END}\n", section.trim_end());
    if let (Some(start), Some(end)) = (markdown.find(JS_START), markdown.find(JS_END)) {
        return Ok(format!(
            "{}{block}{}",
            &markdown[..start],
            markdown[end + JS_END.len()..].trim_start_matches('\n')
        ));
    }
    Ok(match markdown.find("\n## Reproduce") {
        Some(at) => format!("{}\n{block}{}", &markdown[..at], &markdown[at..]),
        None => format!("{markdown}\n{block}"),
    })
}
