//! Tidy checks that run as ordinary tests: dependency edges between our crates (against
//! ARCHITECTURE.md's table, the one statement of them), unused dependencies, README examples
//! that need only their own crate, README's crate table, every published crate's licence files,
//! file headers, test attributes the house style forbids, and the length of production files
//! and functions.

#[cfg(test)]
mod size;
#[cfg(test)]
mod tables;

#[cfg(test)]
mod tests {
    use std::process::Command;

    use super::size;
    use super::tables::{self, Edges};
    use crate::root;

    /// The workspace's edges between its own crates, as the manifests declare them: normal and
    /// build dependencies (dev-dependencies may point anywhere).
    fn workspace_edges(packages: &[serde_json::Value]) -> Edges {
        let names: std::collections::BTreeSet<&str> =
            packages.iter().map(|package| package["name"].as_str().expect("name")).collect();
        packages
            .iter()
            .map(|package| {
                let dependencies = package["dependencies"].as_array().expect("dependencies");
                let ours = dependencies
                    .iter()
                    .filter(|dependency| dependency["kind"].as_str() != Some("dev"))
                    .map(|dependency| dependency["name"].as_str().expect("name"))
                    .filter(|dependency| names.contains(dependency))
                    .map(str::to_owned)
                    .collect();
                (package["name"].as_str().expect("name").to_owned(), ours)
            })
            .collect()
    }

    /// ARCHITECTURE.md's table of allowed edges is the one statement of them: every crate has a
    /// row, every edge a manifest declares is in it, and every edge in it is declared.
    #[test]
    fn dependency_edges_are_architecture_md_s_table() {
        let table = markdown_table("ARCHITECTURE.md", tables::allowed_edges);
        let actual = workspace_edges(&packages());
        assert!(actual.len() >= 10, "found only {} workspace packages", actual.len());
        let differences = tables::edge_differences(&table, &actual);
        assert!(
            differences.is_empty(),
            "ARCHITECTURE.md and the manifests disagree:\n{}",
            differences.join("\n")
        );
    }

    /// `read` applied to the Markdown file `name` at the repository root: the table tidy reads
    /// there, or a failure naming the file.
    fn markdown_table<T>(name: &str, read: impl Fn(&str) -> Result<T, String>) -> T {
        let text = std::fs::read_to_string(root().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        read(&text).unwrap_or_else(|problem| panic!("{name}'s table: {problem}"))
    }

    /// The packages crates.io gets: every workspace package without `publish = false`.
    fn published(packages: &[serde_json::Value]) -> Vec<&serde_json::Value> {
        packages.iter().filter(|package| package["publish"].is_null()).collect()
    }

    /// README.md's crate table names every published crate, and nothing else.
    #[test]
    fn the_readme_crate_table_names_every_published_crate() {
        let packages = &packages();
        let listed = markdown_table("README.md", tables::readme_crates);
        let published: Vec<&str> =
            published(packages).iter().map(|package| package["name"].as_str().expect("name")).collect();
        assert!(published.len() >= 9, "found only {} published crates", published.len());
        for name in &published {
            assert!(listed.iter().any(|row| row == name), "README.md's crate table has no row for {name}");
        }
        for row in &listed {
            assert!(
                published.contains(&row.as_str()),
                "README.md's crate table lists {row}, which is no published crate of the workspace"
            );
        }
    }

    /// Every published crate's folder holds both licence files (what its package carries), equal
    /// to the repository's own; a manifest that lists what it includes lists them.
    #[test]
    fn every_published_crate_carries_both_licences() {
        let packages = &packages();
        let mut checked = 0;
        for package in published(packages) {
            let name = package["name"].as_str().expect("name");
            let manifest = std::path::Path::new(package["manifest_path"].as_str().expect("manifest path"));
            let dir = manifest.parent().expect("crate folder");
            let manifest_text = std::fs::read_to_string(manifest).expect("manifest");
            for licence in ["LICENSE-MIT", "LICENSE-APACHE"] {
                let root_copy = std::fs::read(root().join(licence)).expect("the repository's licence");
                let copy = std::fs::read(dir.join(licence))
                    .unwrap_or_else(|error| panic!("{name}: {}: {error}", dir.join(licence).display()));
                assert!(copy == root_copy, "{name}'s {licence} differs from the repository's");
                if let Some(include) = included(&manifest_text) {
                    assert!(
                        include.contains(&format!("\"{licence}\"")),
                        "{name}'s `include` leaves out {licence}: its package would not carry it"
                    );
                }
                checked += 1;
            }
        }
        assert!(checked >= 18, "checked only {checked} licence files");
    }

    /// The text of a manifest's `include = [...]` array, if it has one.
    fn included(manifest: &str) -> Option<&str> {
        let start = manifest.lines().position(|line| line.trim_start().starts_with("include ="))?;
        let from = manifest.lines().take(start).map(|line| line.len() + 1).sum::<usize>();
        let rest = manifest.get(from..)?;
        let end = rest.find(']')?;
        rest.get(..=end)
    }

    /// A library crate takes its txfx dependencies without their default features and forwards
    /// `asm` (and `async` where the crate has async code): a dependency's defaults would be on for
    /// every user above it, with no way to turn them off.
    #[test]
    fn library_crates_forward_features_to_their_dependents() {
        let packages = &packages();
        for name in crate::LIBRARY_CRATES {
            let package = packages.iter().find(|p| p["name"] == name).expect("a library crate");
            let features = package["features"].as_object().expect("features");
            for dependency in package["dependencies"].as_array().expect("dependencies") {
                let dep = dependency["name"].as_str().expect("name");
                if dep.starts_with("txfx-") && dependency["kind"].is_null() {
                    assert_eq!(
                        dependency["uses_default_features"], false,
                        "{name} takes {dep} with its default features: dependents of {name} could not turn them off"
                    );
                }
            }
            // Every crate whose hashing can use the assembly product lets its users turn it off
            // (txfx-ethereum hashes only keccak, with none of our crates under it).
            if name != "txfx-backend-wasm" && name != "txfx-ethereum" {
                let asm = features.get("asm").and_then(|f| f.as_array());
                assert!(
                    asm.is_some_and(|f| f.iter().any(|f| f.as_str().is_some_and(|f| f.ends_with("/asm")))),
                    "{name} has no `asm` feature forwarding the assembly products"
                );
            }
        }
    }

    /// No crate turns on serde_json's `preserve_order` (issue 29). A library's feature of a shared
    /// dependency is on for every dependent's whole graph (serde_json::Map would be an IndexMap
    /// for them); txfx's printers keep their key order in `txfx_documents::json::Json` instead.
    /// Not even a binary may: a workspace build unifies features, so one member turning it on
    /// would turn it on for the libraries in `cargo test`, and the tests comparing printed
    /// documents with TypeScript's bytes would no longer prove the libraries' order.
    #[test]
    fn no_crate_turns_on_serde_json_preserve_order() {
        let packages = &packages();
        let mut libraries = 0;
        for package in packages {
            let name = package["name"].as_str().expect("name");
            let is_library = package["targets"].as_array().expect("targets").iter().any(|target| {
                target["kind"].as_array().expect("kind").iter().any(|kind| kind == "lib" || kind == "rlib")
            });
            libraries += usize::from(is_library);
            for dependency in package["dependencies"].as_array().expect("dependencies") {
                if dependency["name"] == "serde_json" {
                    let features = dependency["features"].as_array().expect("features");
                    assert!(
                        !features.iter().any(|feature| feature == "preserve_order"),
                        "{name} takes serde_json with preserve_order: it would be on for every dependent of {name} and every workspace build (print in order with txfx_documents::json::Json)"
                    );
                }
            }
            for (feature, enables) in package["features"].as_object().expect("features") {
                for enabled in enables.as_array().expect("a feature's list") {
                    let enabled = enabled.as_str().expect("a feature");
                    assert!(
                        !matches!(enabled, "serde_json/preserve_order" | "serde_json?/preserve_order"),
                        "{name}'s feature `{feature}` turns on serde_json's preserve_order for every dependent of {name} and every workspace build"
                    );
                }
            }
        }
        assert!(libraries >= 10, "found only {libraries} library crates: is this the workspace?");
    }

    fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("readable") {
            let path = entry.expect("entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            if path.is_dir() && name != "target" && !name.starts_with('.') && name != "snapshots" {
                rust_files(&path, out);
            } else if name.ends_with(".rs") {
                out.push(path);
            }
        }
    }

    #[test]
    fn every_rust_file_opens_with_a_module_doc() {
        let mut files = Vec::new();
        rust_files(&root(), &mut files);
        assert!(files.len() > 20, "found only {} files", files.len());
        for file in files {
            let text = std::fs::read_to_string(&file).expect("readable");
            // A library crate's docs are its README, included as the first line.
            let opens =
                text.starts_with("//!") || text.starts_with("#![doc = include_str!(\"../README.md\")]");
            assert!(opens, "{} does not open with a //! line (or its crate README)", file.display());
        }
    }

    /// The workspace's packages, as `cargo metadata` describes them.
    fn packages() -> Vec<serde_json::Value> {
        let mut metadata = metadata();
        match metadata["packages"].take() {
            serde_json::Value::Array(packages) => packages,
            other => panic!("cargo metadata's packages: {other}"),
        }
    }

    fn metadata() -> serde_json::Value {
        let output = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()))
            .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
            .current_dir(root())
            .output()
            .expect("cargo metadata runs");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        serde_json::from_slice(&output.stdout).expect("metadata is JSON")
    }

    fn text_under(dir: &std::path::Path) -> String {
        let mut files = Vec::new();
        if dir.is_dir() {
            rust_files(dir, &mut files);
        }
        files
            .iter()
            .map(|file| std::fs::read_to_string(file).expect("readable"))
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn every_dependency_is_used() {
        let metadata = metadata();
        let mut checked = 0;
        for package in metadata["packages"].as_array().expect("packages") {
            let name = package["name"].as_str().expect("name");
            let manifest = std::path::Path::new(package["manifest_path"].as_str().expect("manifest path"));
            let dir = manifest.parent().expect("crate folder");
            // The library's and binaries' sources: `src/`, and the folder of any target whose
            // source lives elsewhere (the WASM guest's `guest-src/`).
            let mut library = text_under(&dir.join("src"));
            for target in package["targets"].as_array().expect("targets") {
                let source = std::path::Path::new(target["src_path"].as_str().expect("src_path"));
                let folder = source.parent().expect("a source folder");
                let is_dev =
                    target["kind"].as_array().expect("kind").iter().any(|k| k == "test" || k == "bench");
                if !is_dev && !folder.starts_with(dir.join("src")) {
                    library.push_str(&text_under(folder));
                }
            }
            // A crate that includes the workspace README as doctests uses its examples' crates.
            let readme = if library.contains(concat!("include_str!(\"../../", "README.md\")")) {
                std::fs::read_to_string(root().join("README.md")).expect("README")
            } else {
                String::new()
            };
            let all =
                [library.clone(), text_under(&dir.join("tests")), text_under(&dir.join("benches")), readme]
                    .join("\n");
            for dependency in package["dependencies"].as_array().expect("dependencies") {
                let dep = dependency["rename"].as_str().or(dependency["name"].as_str()).expect("name");
                let ident = dep.replace('-', "_");
                let is_dev = dependency["kind"].as_str() == Some("dev");
                // A crate's dev-dependency on itself only turns on features for its own tests.
                if dep == name {
                    continue;
                }
                let used = |text: &str| {
                    text.contains(&format!("{ident}::"))
                        || text.contains(&format!("use {ident}"))
                        || text.contains(&format!("{ident} as"))
                };
                let haystack = if is_dev { &all } else { &library };
                assert!(
                    used(haystack),
                    "{name} declares {dep} but never uses it (remove it from its Cargo.toml)"
                );
                checked += 1;
            }
        }
        assert!(checked > 30, "checked only {checked} dependencies");
    }

    #[test]
    fn no_ignored_tests_and_no_should_panic_without_a_reason() {
        let mut files = Vec::new();
        rust_files(&root(), &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).expect("readable");
            for (number, line) in text.lines().enumerate() {
                let line = line.trim();
                let at = || format!("{}:{}", file.display(), number + 1);
                // Spelled in two pieces so that this file does not trip its own check.
                assert!(
                    !line.starts_with(concat!("#[", "ignore")),
                    "{}: no ignored tests (fix or delete)",
                    at()
                );
                if line.starts_with(concat!("#[", "should_panic")) {
                    assert!(line.contains("expected"), "{}: should_panic needs an expected message", at());
                }
            }
        }
    }

    /// The Rust code blocks of a Markdown text, as rustdoc reads them: a fence with no language,
    /// `rust`, or only rustdoc's attributes (`no_run`, `should_panic`, ...). Each block is its
    /// fence's info string and its text.
    fn rust_blocks(markdown: &str) -> Vec<(String, String)> {
        let mut blocks = Vec::new();
        let mut open: Option<(String, String)> = None;
        for line in markdown.lines() {
            let trimmed = line.trim_start();
            match open.take() {
                Some((info, text)) if trimmed.starts_with("```") => blocks.push((info, text)),
                Some((info, mut text)) => {
                    text.push_str(line);
                    text.push('\n');
                    open = Some((info, text));
                }
                None => {
                    if let Some(info) = trimmed.strip_prefix("```") {
                        open = Some((info.trim().to_owned(), String::new()));
                    }
                }
            }
        }
        assert!(open.is_none(), "an unclosed code fence");
        let attributes =
            ["rust", "no_run", "should_panic", "compile_fail", "ignore", "edition2021", "edition2024"];
        blocks
            .into_iter()
            .filter(|(info, _)| {
                info.split(',').map(str::trim).all(|word| word.is_empty() || attributes.contains(&word))
            })
            .collect()
    }

    /// The crates a Rust example names at the root of a path: `txfx_*` anywhere (not after `::`)
    /// and the first segment of every `use`.
    fn roots(code: &str) -> Vec<String> {
        let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let mut roots = Vec::new();
        for (at, _) in code.match_indices("txfx_") {
            let before = code.get(..at).unwrap_or_default();
            if before.ends_with("::") || before.ends_with(is_ident) {
                continue;
            }
            let rest = code.get(at..).unwrap_or_default();
            roots.push(rest.split(|c: char| !is_ident(c)).next().unwrap_or_default().to_owned());
        }
        for line in code.lines() {
            let line = line.trim_start().trim_start_matches('#').trim_start();
            if let Some(path) = line.strip_prefix("use ").or_else(|| line.strip_prefix("pub use ")) {
                roots.push(path.split(|c: char| !is_ident(c)).next().unwrap_or_default().to_owned());
            }
        }
        roots
    }

    /// Every library crate's README is its crate documentation, so each of its examples is a
    /// doctest of that crate; and an example names no other crate at the root of a path (it
    /// reaches the crates below through the re-exports: `txfx_walk::txfx_documents::...`), so
    /// that it compiles as written in a project that depends on that crate alone. A doctest
    /// would not tell: it sees the crate's dependencies and dev-dependencies too.
    #[test]
    fn readme_examples_are_doctests_that_need_only_their_crate() {
        let packages = &packages();
        let mut examples = 0;
        for name in crate::LIBRARY_CRATES {
            let package = packages.iter().find(|p| p["name"] == name).expect("a library crate");
            let manifest = std::path::Path::new(package["manifest_path"].as_str().expect("manifest path"));
            let dir = manifest.parent().expect("crate folder");
            let lib = std::fs::read_to_string(dir.join("src/lib.rs")).expect("lib.rs");
            assert!(
                lib.starts_with("#![doc = include_str!(\"../README.md\")]"),
                "{name}'s lib.rs does not include its README as the crate docs: its examples would not be doctests"
            );
            let readme = std::fs::read_to_string(dir.join("README.md")).expect("README");
            let own = name.replace('-', "_");
            for (info, code) in rust_blocks(&readme) {
                assert!(
                    !info.contains("ignore"),
                    "{name}'s README has an ignored example: it would not compile"
                );
                for root in roots(&code) {
                    assert!(
                        [own.as_str(), "std", "core", "alloc"].contains(&root.as_str()),
                        "{name}'s README example names `{root}`: reach it through {own}'s re-exports, so \
                         that the example compiles with {name} as the only dependency"
                    );
                }
                examples += 1;
            }
        }
        assert!(examples >= 8, "found only {examples} README examples");
    }

    #[test]
    fn the_readme_library_examples_are_the_consumer_programs() {
        let readme = std::fs::read_to_string(root().join("README.md")).expect("README");
        // Every ```rust block of the README, in order.
        let blocks: Vec<&str> = readme
            .split("```rust\n")
            .skip(1)
            .map(|rest| rest.get(..rest.find("```").expect("closing fence")).expect("text"))
            .collect();
        let programs = ["serve.rs", "verify.rs"];
        assert_eq!(blocks.len(), programs.len(), "one README block per consumer program");
        for (block, program) in blocks.iter().zip(programs) {
            let path = root().join("examples/consumer/src/bin").join(program);
            let text = std::fs::read_to_string(&path).expect("consumer program");
            assert_eq!(*block, text, "README's example and {} differ", path.display());
        }
    }

    /// The workspace members whose code is not production code, so that a new crate is measured
    /// unless it is added here: the developer tool, the test crate and the benchmarks (with their
    /// prototypes). Every other member's source folders (those of its library and binary
    /// targets; never `tests/`, `benches/` or `examples/`) are production code: the published
    /// libraries, the WASM guest, the CLI and the npm package's crates.
    const NOT_PRODUCTION: [&str; 4] = ["xtask", "txfx-suite", "txfx-bench", "txfx-bench-wasm-relaxed"];

    /// The folders holding production code: each production member's library and binary targets'.
    fn production_folders(packages: &[serde_json::Value]) -> Vec<std::path::PathBuf> {
        let mut folders: Vec<std::path::PathBuf> = packages
            .iter()
            .filter(|package| !NOT_PRODUCTION.contains(&package["name"].as_str().expect("name")))
            .flat_map(|package| package["targets"].as_array().expect("targets"))
            .filter(|target| {
                let kinds = target["kind"].as_array().expect("kinds");
                kinds.iter().any(|kind| {
                    matches!(kind.as_str(), Some("lib" | "rlib" | "cdylib" | "staticlib" | "bin"))
                })
            })
            .filter_map(|target| {
                std::path::Path::new(target["src_path"].as_str().expect("src_path")).parent()
            })
            .map(std::path::Path::to_path_buf)
            .collect();
        folders.sort();
        folders.dedup();
        // A binary's `src/bin/` is inside its library's `src/`: measured once.
        let nested: Vec<std::path::PathBuf> = folders
            .iter()
            .filter(|folder| folders.iter().any(|other| other != *folder && folder.starts_with(other)))
            .cloned()
            .collect();
        folders.retain(|folder| !nested.contains(folder));
        folders
    }

    /// The files a file's `#[cfg(test)] mod name;` declaration may live in.
    fn module_files(file: &std::path::Path, name: &str) -> [std::path::PathBuf; 2] {
        let folder = file.parent().expect("a file's folder");
        let stem = file.file_stem().and_then(|stem| stem.to_str()).unwrap_or_default();
        let base =
            if matches!(stem, "lib" | "main" | "mod") { folder.to_path_buf() } else { folder.join(stem) };
        [base.join(format!("{name}.rs")), base.join(name).join("mod.rs")]
    }

    /// No production file is longer than 800 lines, and no production function longer than 80
    /// unless a `// long-function: <reason>` comment above it says why it is clearer whole
    /// (`tidy/size.rs` says what is measured and how).
    #[test]
    fn production_files_and_functions_stay_short() {
        let packages = &packages();
        let mut files = Vec::new();
        for folder in production_folders(packages) {
            rust_files(&folder, &mut files);
        }
        let relative = |file: &std::path::Path| {
            file.strip_prefix(root()).unwrap_or(file).to_string_lossy().replace('\\', "/")
        };
        let mut scans = Vec::new();
        let mut test_files = std::collections::BTreeSet::new();
        for file in &files {
            let text = std::fs::read_to_string(file).expect("readable");
            let scan = size::scan(&text);
            test_files.extend(scan.test_modules.iter().flat_map(|name| module_files(file, name)));
            scans.push((relative(file), text.lines().count(), scan));
        }
        let mut flagged = Vec::new();
        let mut functions = 0;
        for ((path, lines, scan), file) in scans.iter().zip(&files) {
            if *lines > size::MAX_FILE_LINES {
                flagged.push((
                    path.clone(),
                    format!("{path}: {lines} lines (at most {})", size::MAX_FILE_LINES),
                ));
            }
            if test_files.contains(file) {
                continue;
            }
            functions += scan.functions.len();
            for function in scan.functions.iter().filter(|f| f.lines > size::MAX_FUNCTION_LINES && !f.excused)
            {
                flagged.push((
                    format!("{path}::{}", function.name),
                    format!(
                        "{path}:{}: fn {} is {} lines (at most {}, or a `{} <reason>` comment above it)",
                        function.line,
                        function.name,
                        function.lines,
                        size::MAX_FUNCTION_LINES,
                        size::LONG_FUNCTION_MARK
                    ),
                ));
            }
        }
        assert!(
            files.len() > 60 && functions > 800,
            "measured only {} files, {functions} functions",
            files.len()
        );
        let too_long: Vec<&str> = flagged.iter().map(|(_, message)| message.as_str()).collect();
        assert!(too_long.is_empty(), "too long:\n{}", too_long.join("\n"));
    }
}
