//! Records the commit `txfx --version` names: `git rev-parse --short=12 HEAD`, with `-dirty` when
//! tracked files differ from it, as `TXFX_COMMIT` ("commit abc123def456", or "unknown commit"
//! where there is no git, no repository, or a repository that does not hold this crate, such as a
//! tarball unpacked inside another project's tree). A packager building from a tarball can name
//! the commit with `TXFX_BUILD_COMMIT`.
//!
//! Reruns only when HEAD moves (the worktree's HEAD file, the branch it points to, packed refs),
//! when the index changes (a commit, `git add`) or when this crate's sources change; so the commit
//! is never stale, and `-dirty` is as of the last of those (an edit elsewhere, not staged, is
//! seen at the next of them).

use std::path::{Path, PathBuf};
use std::process::Command;

/// `git args` in `dir`: its trimmed stdout when git ran and succeeded, else `None`.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).current_dir(dir).output().ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8(output.stdout).ok()?;
    Some(text.trim().to_owned())
}

/// Tells cargo to rerun when `path` changes; a path that does not exist is left out, since cargo
/// would rerun every build for it.
fn watch(path: &Path) {
    if path.exists() {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}

/// The commit description, watching the files that move it.
fn commit(manifest_dir: &Path) -> Option<String> {
    // This crate's manifest must be tracked by the repository around it: otherwise that
    // repository is someone else's (a tarball unpacked inside another project).
    git(manifest_dir, &["ls-files", "--error-unmatch", "Cargo.toml"])?;
    let absolute = |path: String| {
        let path = PathBuf::from(path);
        if path.is_absolute() { path } else { manifest_dir.join(path) }
    };
    // A linked worktree has its own HEAD and index under --git-dir, its branches under the
    // common dir.
    let git_dir = absolute(git(manifest_dir, &["rev-parse", "--git-dir"])?);
    let common_dir = absolute(git(manifest_dir, &["rev-parse", "--git-common-dir"])?);
    watch(&git_dir.join("HEAD"));
    watch(&git_dir.join("index"));
    watch(&common_dir.join("packed-refs"));
    if let Some(reference) = git(manifest_dir, &["symbolic-ref", "-q", "HEAD"]) {
        watch(&common_dir.join(reference));
    }
    let hash = git(manifest_dir, &["rev-parse", "--short=12", "HEAD"])?;
    // Without optional locks: a build never takes the index lock from a concurrent git command.
    let status = git(manifest_dir, &["--no-optional-locks", "status", "--porcelain", "--untracked-files=no"]);
    let dirty = match status {
        Some(changes) if changes.is_empty() => "",
        Some(_) => "-dirty",
        // A tree whose state git cannot tell: its commit, not a claim that it is clean.
        None => "-unknown-state",
    };
    Some(format!("commit {hash}{dirty}"))
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-env-changed=TXFX_BUILD_COMMIT");
    let described = match std::env::var("TXFX_BUILD_COMMIT") {
        Ok(given) if !given.trim().is_empty() => Some(format!("commit {}", given.trim())),
        _ => std::env::var_os("CARGO_MANIFEST_DIR").and_then(|dir| commit(Path::new(&dir))),
    };
    let described = described.unwrap_or_else(|| "unknown commit".to_owned());
    println!("cargo:rustc-env=TXFX_COMMIT={described}");
}
