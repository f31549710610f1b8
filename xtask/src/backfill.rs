//! `cargo xtask backfill`: the README's backfill recipes, run as written. A recipe nobody ran is
//! not a recipe.
//!
//! From the Aztec v6 chain's checkpoints (`testdata/v6/checkpoint-N.blobs.json`, as L1 blobs carry
//! them; v6 is what the CLI reads by default), one JSON array of blob fields per line, repeated
//! into a file of many lines; then
//! `txfx checkpoint decode --jsonl` on the whole file, and the README's GNU parallel line over
//! the same file in small chunks (several txfx processes). The two outputs must be the same lines
//! in the same order, one per input line, each a decoded checkpoint.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::{cargo, root, run, target_dir};

/// Input lines, and lines per GNU parallel chunk: several chunks, so that order across processes
/// is what is checked.
const LINES: usize = 60;
const CHUNK: usize = 7;

fn checkpoint_lines() -> Result<Vec<String>, String> {
    let mut one = Vec::new();
    for number in 1.. {
        let path = root().join(format!("testdata/v6/checkpoint-{number}.blobs.json"));
        if !path.exists() {
            break;
        }
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let fields: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        one.push(fields.to_string());
    }
    if one.is_empty() {
        return Err("testdata/v6 has no checkpoint-N.blobs.json".to_owned());
    }
    Ok(one.iter().cycle().take(LINES).cloned().collect())
}

/// Runs `command` with `input` on stdin and returns its stdout.
fn output_of(command: &mut Command, input: &[u8]) -> Result<String, String> {
    let description = format!("{command:?}");
    eprintln!("xtask: running {description}");
    let mut child = command
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{description}: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().map_err(|e| format!("{description}: {e}"))?;
    writer.join().map_err(|_| "the writer panicked")?.map_err(|e| format!("{description}: stdin: {e}"))?;
    if !output.status.success() {
        return Err(format!("{description} failed: {}", output.status));
    }
    String::from_utf8(output.stdout).map_err(|e| format!("{description}: {e}"))
}

/// The README's GNU parallel line, without its redirections (the input comes on stdin here).
fn readme_parallel_line() -> Result<String, String> {
    let readme = std::fs::read_to_string(root().join("README.md")).map_err(|e| format!("README.md: {e}"))?;
    let line = readme
        .lines()
        .find(|line| line.starts_with("parallel ") && line.contains("txfx checkpoint decode --jsonl -"))
        .ok_or("README.md has no `parallel ... txfx checkpoint decode --jsonl -` line")?;
    let command = line.split(" < ").next().unwrap_or(line);
    if !command.contains("-N 64") {
        return Err(format!("README.md's parallel line no longer says `-N 64`: {line}"));
    }
    Ok(command.to_owned())
}

pub fn run_backfill() -> Result<(), String> {
    if Command::new("parallel").arg("--version").stdout(Stdio::null()).status().is_err() {
        return Err("GNU parallel is not installed (Debian: apt-get install parallel; .ci/run installs it)"
            .to_owned());
    }
    // The README's set-up build, which the tests share: `-p txfx-cli` alone would resolve other
    // features and compile Cranelift a second time.
    run(cargo().args(["build", "--all-targets", "--locked"]))?;
    let bin = target_dir().join("debug");
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let input = checkpoint_lines()?.join("\n") + "\n";

    let direct = output_of(
        Command::new(bin.join("txfx")).args(["checkpoint", "decode", "--jsonl", "-"]),
        input.as_bytes(),
    )?;
    // The README's line, with smaller chunks so that several processes share the file.
    let recipe = readme_parallel_line()?.replace("-N 64", &format!("-N {CHUNK}"));
    let parallel = output_of(Command::new("sh").args(["-c", &recipe]).env("PATH", &path), input.as_bytes())?;

    let lines: Vec<&str> = direct.lines().collect();
    if lines.len() != LINES {
        return Err(format!("txfx printed {} lines for {LINES}", lines.len()));
    }
    for (number, line) in lines.iter().enumerate() {
        let value: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("line {number}: {e}"))?;
        if value.get("blocks").and_then(|b| b.as_array()).is_none_or(|b| b.is_empty()) {
            return Err(format!("line {number} is not a decoded checkpoint: {line}"));
        }
    }
    if parallel != direct {
        return Err(format!("`{recipe}` printed other lines than txfx alone"));
    }
    println!(
        "backfill: {LINES} checkpoints, decoded alike by txfx alone and by GNU parallel in chunks of {CHUNK}, in order"
    );
    Ok(())
}
