//! Sponges in lockstep against one at a time (issue 30): whole-block commitments of the shipped
//! log-heavy blocks (1, 3 and 16 txs: thousands of permutations per sponge) and of `small-64`
//! through the native backend, lockstep on and off (`NativeBackend::with_sponges_one_at_a_time`),
//! in a rayon pool of 1 thread and of 2; and the 64-leaf tree alone, which lockstep does not
//! touch (its levels are batches of single permutations). Same run, same inputs; the roots are
//! checked equal before anything is timed.
//!
//! `cargo bench -p txfx-bench --bench sponges`

// Benchmark code: a fixture that does not load ends the benchmark.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use txfx_backend_native::NativeBackend;
use txfx_documents::json::body_from_json;
use txfx_poseidon::Fr;
use txfx_tx_effects::{Body, ProtocolVersion, commit_block, tree_root};

/// A shipped block body, `testdata/blocks/NAME.json`.
fn block(name: &str) -> Body {
    let path = format!("{}/../testdata/blocks/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the shipped block");
    body_from_json(text.as_str(), ProtocolVersion::V6).expect("the shipped block reads")
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a rayon pool")
}

fn sponges(c: &mut Criterion) {
    let backends = [
        ("lockstep", NativeBackend::new()),
        ("one_at_a_time", NativeBackend::new().with_sponges_one_at_a_time()),
    ];
    eprintln!(
        "sponges in lockstep: {} (batch arithmetic: {})",
        backends[0].1.sponges_in_lockstep(),
        txfx_poseidon::permutation::batch_arithmetic()
    );
    let pools = [(1usize, pool(1)), (2, pool(2))];
    let mut group = c.benchmark_group("sponges");
    group.sample_size(10);
    for name in ["log-heavy-1", "log-heavy-3", "log-heavy-16", "small-64"] {
        let body = block(name);
        let expected = commit_block(&txfx_poseidon::Sequential, &body).expect("commits").root();
        for (threads, pool) in &pools {
            for (mode, backend) in &backends {
                let root = pool.install(|| commit_block(backend, &body).expect("commits").root());
                assert_eq!(root, expected, "{name}, {mode}, {threads} threads");
                group.bench_with_input(
                    BenchmarkId::new(format!("{name}/{threads}t"), mode),
                    &body,
                    |b, body| {
                        b.iter(|| pool.install(|| commit_block(backend, black_box(body)).expect("commits")))
                    },
                );
            }
        }
    }
    // The tree of 64 leaves alone: levels, no sponge batch, so lockstep changes nothing.
    let leaves: Vec<Fr> = (0..64u64).map(|i| Fr::from(i) * Fr::from(u64::MAX)).collect();
    for (threads, pool) in &pools {
        for (mode, backend) in &backends {
            group.bench_with_input(
                BenchmarkId::new(format!("tree-64/{threads}t"), mode),
                &leaves,
                |b, leaves| {
                    b.iter(|| pool.install(|| tree_root(backend, black_box(leaves)).expect("hashes")))
                },
            );
        }
    }
    group.finish();
}

criterion_group!(benches, sponges);
criterion_main!(benches);
