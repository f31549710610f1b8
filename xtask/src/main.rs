//! `cargo xtask`: the one entry point for developers and CI.
//!
//! ```text
//! cargo xtask test              the default members' tests + doctests, then one line per backend suite
//! cargo xtask lint              rustfmt --check, clippy -D warnings, rustdoc -D warnings
//! cargo xtask ci                lint, msrv, wasm-guest --check, bench --quick, package, consumer, backfill, js test, test: all of CI
//! cargo xtask msrv              check every library crate with the Rust its rust-version names (installed by rustup)
//! cargo xtask package           cargo package every library crate together, building each
//! cargo xtask consumer          build and run examples/consumer (a crate outside the workspace)
//! cargo xtask backfill          the README's GNU parallel line, run as written (needs `parallel`)
//! cargo xtask js build [--release]  the npm package in js/: the Node addon, ready for npm pack
//! cargo xtask js test           js build, node --test, then the packed package installed and loaded
//! cargo xtask ts-fixtures       regenerate testdata/typescript/ with Aztec's TypeScript (npm, Node)
//! cargo xtask wasm-guest        rebuild backend-wasm/guest.wasm reproducibly
//! cargo xtask wasm-guest --check  fail if the committed guest is stale or differs from a rebuild
//! cargo xtask fuzz --seconds N  run every fuzz target for N seconds (stable-Rust mutation driver)
//! cargo xtask bench [--peer]    the seed benchmark (release build); --peer also runs Aztec's stack
//! cargo xtask bench --js        the npm package's engines against bb.js (BENCHMARKS.md's JavaScript section)
//! cargo xtask bench --quick     every workload with few samples, dev build (CI smoke)
//! ```
//!
//! Unknown commands and flags are errors, never ignored.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

mod backfill;
mod guest;
mod js;
mod msrv;
mod peer;
mod tidy;
mod ts;

/// The engines whose whole suite must have run for `cargo xtask test` to pass (others, such as
/// `native-always-parallel` or `selected`, are counted when they ran).
const ENGINES: [&str; 4] = ["sequential", "native", "native-portable", "wasm"];

const USAGE: &str = "usage: cargo xtask <test | lint | ci | msrv | package | consumer | backfill | js <build [--release] | test | platforms> | ts-fixtures | wasm-guest [--check] | fuzz [--seconds N] [--seed S] [TARGET ...] | bench [--quick] [--peer | --reuse-peer | --js]>";

/// The published library crates, in dependency order.
const LIBRARY_CRATES: [&str; 10] = [
    "txfx-poseidon",
    "txfx-tx-effects",
    "txfx-membership",
    "txfx-documents",
    "txfx-walk",
    "txfx-ethereum",
    "txfx-client",
    "txfx-backend-native",
    "txfx-backend-wasm",
    "txfx-backends",
];

/// The flags a command takes; anything else is an error, never ignored (a mistyped
/// `wasm-guest --chek` must not rewrite the committed module).
fn flags<'a>(command: &str, args: &'a [String], allowed: &[&str]) -> Result<Vec<&'a str>, String> {
    args.iter()
        .map(|arg| {
            if allowed.contains(&arg.as_str()) {
                Ok(arg.as_str())
            } else {
                Err(format!("{command}: unknown argument {arg:?} (allowed: {})\n{USAGE}", allowed.join(" ")))
            }
        })
        .collect()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (command, rest) = match args.split_first() {
        Some((command, rest)) => (command.as_str(), rest),
        None => ("", &[][..]),
    };
    let result = match command {
        "test" => flags(command, rest, &[]).and_then(|_| test()),
        "lint" => flags(command, rest, &[]).and_then(|_| lint()),
        "ci" => flags(command, rest, &[]).and_then(|_| ci()),
        "msrv" => flags(command, rest, &[]).and_then(|_| msrv::run_msrv()),
        "package" => flags(command, rest, &[]).and_then(|_| package()),
        "consumer" => flags(command, rest, &[]).and_then(|_| consumer()),
        "backfill" => flags(command, rest, &[]).and_then(|_| backfill::run_backfill()),
        "js" => js::run_js(rest),
        "ts-fixtures" => flags(command, rest, &[]).and_then(|_| ts::run_ts_fixtures()),
        "wasm-guest" => {
            flags(command, rest, &["--check"]).and_then(|given| guest::run_guest(!given.is_empty()))
        }
        // The fuzz driver checks its own arguments (target names, numbers) and refuses bad ones.
        "fuzz" => fuzz(rest),
        "bench" => flags(command, rest, &["--quick", "--peer", "--reuse-peer", "--js"]).and_then(|given| {
            let (peer, reuse_peer) = (given.contains(&"--peer"), given.contains(&"--reuse-peer"));
            if given.contains(&"--js") {
                if peer || reuse_peer {
                    return Err(
                        "bench: --js runs the reference itself; without --peer or --reuse-peer".to_owned()
                    );
                }
                return js::bench(given.contains(&"--quick"));
            }
            if peer && reuse_peer {
                return Err("bench: --peer and --reuse-peer exclude each other".to_owned());
            }
            bench(given.contains(&"--quick"), peer, reuse_peer)
        }),
        other => Err(format!("unknown command {other:?}\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

/// What CI runs, in order: this function is the one definition of CI (`.ci/run` calls it).
fn ci() -> Result<(), String> {
    lint()?;
    // Each published crate with the oldest Rust it claims, right after the newest's lint.
    msrv::run_msrv()?;
    guest::run_guest(true)?;
    l1_check()?;
    // The benchmarks' smoke run: every workload once, so the bench code cannot rot.
    bench(true, false, false)?;
    package()?;
    consumer()?;
    backfill::run_backfill()?;
    js::run_js(&["test".to_owned()])?;
    // Last, so that CI's closing line is the suites' count.
    test()
}

/// Packages every library crate as crates.io would receive it, together (so each builds against
/// the packaged versions of the others, not the workspace's paths), and builds each package.
///
/// The packages build in their own target folder, `target/package-check`, and always from
/// scratch as far as our crates go. Cargo serves the packages from a local registry and treats
/// what it finds of them as immutable, as it does any registry crate:
/// - it unpacks each `.crate` into `$CARGO_HOME/registry/src/-<hash>/` (the hash names the
///   registry's path) and reuses that folder, unchecked, when it exists. CI clones to one fixed
///   path and keeps `$CARGO_HOME`, so its package step once verified an older commit's sources;
/// - a registry crate's build is fresh while its files are older than it, and packaged files
///   all carry one fixed 2006 date, so a new package of the same version reuses the old build.
///
/// Nothing else shares this folder (the packages' builds use no profile of ours), so clearing our
/// crates' builds in it costs only their own compilation.
fn package() -> Result<(), String> {
    let target = root().join("target").join("package-check");
    forget_packages(&target)?;
    let mut command = cargo();
    // --allow-dirty: this checks that the crates package and build, it publishes nothing.
    command.args(["package", "--locked", "--allow-dirty"]).env("CARGO_TARGET_DIR", &target);
    for name in LIBRARY_CRATES {
        command.args(["-p", name]);
    }
    run(&mut command)
}

/// Removes what earlier `cargo package` runs left of our crates: the sources Cargo unpacked into
/// path-named registries (`$CARGO_HOME/registry/src/-<hash>/`) and the builds under `target`.
fn forget_packages(target: &Path) -> Result<(), String> {
    let cargo_home = match std::env::var_os("CARGO_HOME") {
        Some(home) => PathBuf::from(home),
        None => match std::env::var_os("HOME") {
            Some(home) => Path::new(&home).join(".cargo"),
            None => return Err("neither CARGO_HOME nor HOME is set".to_owned()),
        },
    };
    let version = env!("CARGO_PKG_VERSION"); // The workspace's version, shared by every crate.
    let mut doomed = Vec::new();
    // A named registry such as crates.io never holds ours: only `-<hash>` folders.
    for registry in entries(&cargo_home.join("registry").join("src"), |name| name.starts_with('-'))? {
        doomed.extend(LIBRARY_CRATES.iter().map(|name| registry.join(format!("{name}-{version}"))));
    }
    // Fingerprints are named `<crate>-<hash>`; every txfx crate in this folder is a package.
    doomed.extend(entries(&target.join("debug").join(".fingerprint"), |name| name.starts_with("txfx-"))?);
    for path in doomed.into_iter().filter(|path| path.exists()) {
        std::fs::remove_dir_all(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// The entries of `folder` whose names pass `keep`; none when `folder` does not exist yet.
fn entries(folder: &Path, keep: impl Fn(&str) -> bool) -> Result<Vec<PathBuf>, String> {
    let Ok(listing) = std::fs::read_dir(folder) else {
        return Ok(Vec::new());
    };
    let mut kept = Vec::new();
    for entry in listing {
        let entry = entry.map_err(|e| format!("{}: {e}", folder.display()))?;
        if keep(&entry.file_name().to_string_lossy()) {
            kept.push(entry.path());
        }
    }
    Ok(kept)
}

/// Builds and runs `examples/consumer`, a crate outside the workspace that depends on
/// txfx-documents and the native backend with default features, as a user's project would.
fn consumer() -> Result<(), String> {
    let manifest = root().join("examples/consumer/Cargo.toml");
    run(cargo().args(["fmt", "--check", "--manifest-path"]).arg(&manifest))?;
    // The workspace's target folder: the consumer reuses whatever dependency builds match. Each
    // program is one of the README's library examples.
    for program in ["serve", "verify"] {
        run(cargo()
            .args(["run", "--locked", "--bin", program, "--manifest-path"])
            .arg(&manifest)
            .env("CARGO_TARGET_DIR", target_dir()))?;
    }
    Ok(())
}

/// The workspace root (the parent of `xtask/`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_default()
}

/// Runs a command in the workspace root (or the folder it names), failing with its description if
/// it fails.
pub fn run(command: &mut Command) -> Result<(), String> {
    let description = format!("{command:?}");
    eprintln!("xtask: running {description}");
    // In the workspace root, unless the command names its own folder.
    if command.get_current_dir().is_none() {
        command.current_dir(root());
    }
    let status = command.status().map_err(|e| format!("{description}: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("{description} failed with {status}")) }
}

/// Cargo, as the one that runs this xtask.
fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()))
}

/// Every member's dev build, every target (the README's set-up plus the benchmarks): the smoke run
/// and the fixture tools run from it.
pub fn build_workspace() -> Result<(), String> {
    run(cargo().args(["build", "--workspace", "--all-targets", "--locked"]))
}

/// Installs the npm packages of `package_json` under `dir` (never committed), unless `probe`, a
/// path under `dir/node_modules`, shows they already are.
pub fn npm_install(dir: &Path, package_json: &str, probe: &str) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let manifest = dir.join("package.json");
    let current = std::fs::read_to_string(&manifest).unwrap_or_default();
    if current != package_json || !dir.join("node_modules").join(probe).exists() {
        std::fs::write(&manifest, package_json).map_err(|e| e.to_string())?;
        run(Command::new("npm").args(["install", "--no-audit", "--no-fund", "--prefix"]).arg(dir))?;
    }
    Ok(())
}

/// Cargo's target directory: `CARGO_TARGET_DIR` if set, else `target/` in the workspace.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root().join("target"))
}

/// Where each backend's suite run writes its summary line (see `txfx_suite::runner`).
fn suite_reports() -> PathBuf {
    root().join("target").join("txfx-suite")
}

/// The L1 test tools (`xtask/l1/package.json`: anvil, solc-js), installed under `target/l1/`
/// from their lock file when missing; the anvil binary's path.
pub fn l1_tools() -> Result<PathBuf, String> {
    let dir = target_dir().join("l1");
    let anvil = dir.join("node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil");
    let lock = root().join("xtask/l1/package-lock.json");
    let installed_lock = dir.join("package-lock.json");
    let current = std::fs::read(&installed_lock).ok() == std::fs::read(&lock).ok();
    if !anvil.exists() || !current {
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for file in ["package.json", "package-lock.json"] {
            std::fs::copy(root().join("xtask/l1").join(file), dir.join(file))
                .map_err(|e| format!("{file}: {e}"))?;
        }
        // No package of the lock file has an install script: --ignore-scripts loses nothing.
        run(Command::new("npm")
            .args(["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--prefix"])
            .arg(&dir))?;
    }
    Ok(anvil)
}

/// The stand-in rollup's committed bytecode is what its source compiles to (solc-js, pinned).
fn l1_check() -> Result<(), String> {
    l1_tools()?;
    run(Command::new("node")
        .arg(root().join("xtask/l1/compile.mjs"))
        .arg("--check")
        .env("TXFX_L1_TOOLS", target_dir().join("l1")))
}

fn test() -> Result<(), String> {
    // The node walk's tests run against a real L1 node (anvil, from npm).
    let anvil = l1_tools()?;
    let reports = suite_reports();
    if reports.exists() {
        std::fs::remove_dir_all(&reports).map_err(|e| format!("{}: {e}", reports.display()))?;
    }
    // insta never writes snapshots here: a changed witness is a failure, not an update.
    // The default members (everything but the benchmarks, which hold no test), as the README's
    // set-up built them.
    run(cargo()
        .args(["test", "--locked", "--no-fail-fast"])
        .env("INSTA_UPDATE", "no")
        .env("TXFX_ANVIL", &anvil))?;
    for engine in ENGINES {
        let path = reports.join(format!("{engine}.txt"));
        if !path.exists() {
            return Err(format!("the {engine} engine ran no whole suite (no {})", path.display()));
        }
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&reports)
        .map_err(|e| format!("{}: {e}", reports.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .collect();
    files.sort();
    let mut lines = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        lines.extend(text.lines().map(str::to_owned));
    }
    println!();
    for line in &lines {
        println!("{line}");
    }
    // Totals over the whole-suite lines (the reference-case lines are a subset of them).
    let (passed, failed) =
        lines.iter().filter(|line| !line.contains("(reference")).fold((0usize, 0usize), |(p, f), line| {
            let number = |word: &str| {
                line.split(", ").find_map(|part| {
                    part.split(": ").last()?.strip_suffix(word)?.trim().parse::<usize>().ok()
                })
            };
            (p + number(" passed").unwrap_or(0), f + number(" failed").unwrap_or(0))
        });
    if passed == 0 {
        return Err("the backend suites ran no case".to_owned());
    }
    println!("suites: {passed} passed, {failed} failed");
    Ok(())
}

/// Runs the seed benchmark (`bench/`), optionally the reference through `xtask/peer/`, and
/// writes the report under `target/bench/` (a full run also refreshes `BENCHMARKS.md`).
fn bench(quick: bool, peer: bool, reuse_peer: bool) -> Result<(), String> {
    let dir = root().join("target").join("bench");
    let dir_text = dir.to_string_lossy().into_owned();
    let ours = format!("{dir_text}/txfx.json");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{dir_text}: {e}"))?;
    // A real run uses the release build. The quick smoke run uses the dev build of every member
    // (`cargo build --workspace --all-targets`, as CI's clippy resolves features): `cargo run -p
    // txfx-bench` alone would resolve other features and compile arkworks and wasmtime again.
    if quick {
        build_workspace()?;
    }
    let tool = |args: &[&str]| {
        let mut command = if quick {
            Command::new(target_dir().join("debug").join("txfx-bench"))
        } else {
            let mut command = cargo();
            command.args(["run", "--locked", "-q", "-p", "txfx-bench", "--release", "--"]);
            command
        };
        command.args(args);
        if quick && args.first().is_some_and(|a| *a != "report") {
            command.arg("--quick");
        }
        command
    };
    run(&mut tool(&["run", "--out", &ours]))?;
    let mut report = vec!["report", "--ours", &ours, "--dir", &dir_text];
    let peer_json = format!("{dir_text}/reference.json");
    if peer {
        let export = format!("{dir_text}/export.json");
        run(&mut tool(&["export", "--out", &export]))?;
        peer::run_peer(&export, &peer_json)?;
        report.extend(["--peer", &peer_json]);
    } else if reuse_peer {
        // The reference's numbers from an earlier `--peer` run (its roots were checked then).
        if !Path::new(&peer_json).exists() {
            return Err(format!("--reuse-peer: no {peer_json}; run `cargo xtask bench --peer` once"));
        }
        report.extend(["--peer", &peer_json]);
    }
    run(&mut tool(&report))?;
    let markdown = std::fs::read_to_string(dir.join("report.md")).map_err(|e| e.to_string())?;
    println!("{markdown}");
    if !quick {
        // The design measurements are kept by hand (each was measured once, side by side) and
        // carried into every full report.
        let design =
            std::fs::read_to_string(root().join("benchmarks/design.md")).map_err(|e| e.to_string())?;
        let reproduce = "\n## Reproduce\n\n```sh\ncargo xtask bench --peer   # or without --peer: txfx only\ncargo xtask bench --js     # the npm package against bb.js (the JavaScript section)\n```\n\nResults, JSON and charts are written to `target/bench/`; this file and `benchmarks/*.svg` keep the latest full run.\n";
        std::fs::write(
            root().join("BENCHMARKS.md"),
            js::with_js_section(
                &(markdown
                    .replace("`sweep.svg`", "[`sweep.svg`](benchmarks/sweep.svg)")
                    .replace("`profiles.svg`", "[`profiles.svg`](benchmarks/profiles.svg)")
                    .replace("`hash.svg`", "[`hash.svg`](benchmarks/hash.svg)")
                    + "\n"
                    + &design
                    + reproduce),
            )?,
        )
        .map_err(|e| e.to_string())?;
        std::fs::create_dir_all(root().join("benchmarks")).map_err(|e| e.to_string())?;
        for chart in ["sweep.svg", "profiles.svg", "hash.svg"] {
            std::fs::copy(dir.join(chart), root().join("benchmarks").join(chart))
                .map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// Runs the fuzz driver (`suite/src/bin/txfx-fuzz.rs`); its arguments pass through.
fn fuzz(args: &[String]) -> Result<(), String> {
    run(cargo().args(["run", "--locked", "-q", "-p", "txfx-suite", "--bin", "txfx-fuzz", "--"]).args(args))
}

fn lint() -> Result<(), String> {
    run(cargo().args(["fmt", "--all", "--", "--check"]))?;
    run(cargo().args(["clippy", "--workspace", "--all-targets", "--locked", "--", "-D", "warnings"]))?;
    run(cargo().args(["doc", "--workspace", "--no-deps", "--locked"]).env("RUSTDOCFLAGS", "-D warnings"))
}
