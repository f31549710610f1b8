//! `txfx-bench`: the seed benchmark workloads on every backend (run by `cargo xtask bench`).
//!
//! ```text
//! txfx-bench run [--quick] [--only 2,4] --out FILE   measure workloads 1-5 (or those listed)
//! txfx-bench export [--quick] --out FILE    the preimages and roots the reference replays
//! txfx-bench report --ours FILE [--peer FILE] --dir DIR   write report.md, report.json, SVG charts
//! ```
//!
//! Each measurement is the median of 15 samples after 3 warm-ups (`--quick`: 3 after 1), in
//! milliseconds per complete operation, as the reference benchmark does.

// `serde_json::Value` indexing returns `Null` for a missing key rather than panicking, and the
// medians index sorted, non-empty sample lists; this tool's inputs are its own result files.
#![allow(clippy::indexing_slicing)]

// The no-IFMA batch prototype: compiled here only for its test; `benches/fma_product.rs` measures it.
#[cfg(test)]
#[allow(dead_code, reason = "the bench's measuring loops, unused by the test")]
mod fma_product;
mod report;
mod workloads;

use std::process::ExitCode;

/// The workload numbers of `--only 2,4` (none given: every workload).
fn workload_list(list: Option<&str>) -> Result<Vec<u8>, String> {
    let Some(list) = list else { return Ok(Vec::new()) };
    list.split(',')
        .map(|item| match item.trim().parse::<u8>() {
            Ok(n @ 1..=5) => Ok(n),
            _ => Err(format!("--only takes workload numbers 1 to 5, comma-separated; got {item:?}")),
        })
        .collect()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let result = match args.first().map(String::as_str) {
        Some("run") => match (value("--out"), workload_list(value("--only").as_deref())) {
            (Some(out), Ok(only)) => workloads::run(args.iter().any(|a| a == "--quick"), &only, &out),
            (None, _) => Err("run needs --out FILE".to_owned()),
            (_, Err(message)) => Err(message),
        },
        Some("export") => match value("--out") {
            Some(out) => workloads::export(args.iter().any(|a| a == "--quick"), &out),
            None => Err("export needs --out FILE".to_owned()),
        },
        Some("report") => match (value("--ours"), value("--dir")) {
            (Some(ours), Some(dir)) => report::write(&ours, value("--peer").as_deref(), &dir),
            _ => Err("report needs --ours FILE --dir DIR".to_owned()),
        },
        _ => Err("usage: txfx-bench run [--quick] [--only 2,4] --out FILE | export [--quick] --out FILE | report --ours FILE [--peer FILE] --dir DIR"
            .to_owned()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("txfx-bench: {message}");
            ExitCode::FAILURE
        }
    }
}
