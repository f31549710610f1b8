//! Tidy checks that run as ordinary tests: dependency edges between our crates, and file headers.

#[cfg(test)]
mod tests {
    use std::process::Command;

    use crate::root;

    /// The allowed normal (non-dev) dependency edges between workspace crates (ARCHITECTURE.md).
    const ALLOWED: &[(&str, &[&str])] = &[
        ("txfx-poseidon", &[]),
        ("txfx-tx-effects", &["txfx-poseidon"]),
        ("txfx-membership", &["txfx-poseidon", "txfx-tx-effects"]),
        ("txfx-backend-native", &["txfx-poseidon"]),
        ("txfx-backend-wasm", &["txfx-poseidon"]),
        ("txfx-suite", &["txfx-poseidon", "txfx-tx-effects", "txfx-membership"]),
        (
            "txfx-cli",
            &[
                "txfx-poseidon",
                "txfx-tx-effects",
                "txfx-membership",
                "txfx-backend-native",
                "txfx-backend-wasm",
            ],
        ),
        (
            "txfx-bench",
            &[
                "txfx-poseidon",
                "txfx-tx-effects",
                "txfx-membership",
                "txfx-backend-native",
                "txfx-backend-wasm",
            ],
        ),
        ("xtask", &[]),
    ];

    #[test]
    fn dependency_edges_point_one_way() {
        let output = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()))
            .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
            .current_dir(root())
            .output()
            .expect("cargo metadata runs");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).expect("metadata is JSON");
        let packages = metadata["packages"].as_array().expect("packages");
        assert_eq!(
            packages.len(),
            ALLOWED.len(),
            "a crate was added: give it a row in ALLOWED and ARCHITECTURE.md"
        );
        for package in packages {
            let name = package["name"].as_str().expect("name");
            let allowed = ALLOWED.iter().find(|(n, _)| *n == name).map(|(_, a)| *a).expect("listed crate");
            for dependency in package["dependencies"].as_array().expect("dependencies") {
                let dep = dependency["name"].as_str().expect("name");
                let is_ours = dep.starts_with("txfx-") || dep == "xtask";
                let is_dev = dependency["kind"].as_str() == Some("dev");
                if is_ours && !is_dev {
                    assert!(allowed.contains(&dep), "{name} may not depend on {dep} (see ARCHITECTURE.md)");
                }
            }
        }
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
            assert!(text.starts_with("//!"), "{} does not open with a //! line", file.display());
        }
    }
}
