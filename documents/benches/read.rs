//! How long reading takes, before any hashing: the biggest bundled bodies read as text, with the
//! median of several runs printed (`cargo bench -p txfx-documents --bench read`).
//!
//! A plain timing loop rather than criterion: criterion would be a new dev-dependency of this
//! crate, and so a change to the lock file and to the WASM guest's record, for one number; this
//! measures the reader alone, and txfx-bench's criterion benches measure the work around it.

use std::time::{Duration, Instant};

use txfx_documents::json::body_from_json;
use txfx_documents::txfx_membership::ProtocolVersion;

/// The runs per document; the median of them is printed.
const RUNS: usize = 15;

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort_unstable();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

#[allow(clippy::expect_used, reason = "a bench of bundled documents: a failure must be loud")]
fn main() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/blocks");
    for name in ["log-heavy-64", "log-heavy-16", "small-64", "sparse-64"] {
        let text = std::fs::read_to_string(format!("{dir}/{name}.json")).expect("a bundled block");
        let times = (0..RUNS)
            .map(|_| {
                let start = Instant::now();
                let body = body_from_json(text.as_str(), ProtocolVersion::Azip26).expect("a body");
                let elapsed = start.elapsed();
                std::hint::black_box(body);
                elapsed
            })
            .collect();
        let median = median(times);
        let mib = text.len() as f64 / f64::from(1 << 20);
        println!(
            "{name}: {mib:.1} MiB, median {:.2} ms over {RUNS} runs ({:.0} MiB/s)",
            median.as_secs_f64() * 1e3,
            mib / median.as_secs_f64()
        );
    }
}
