//! One tree level of 64, 1024 and 65536 node hashes: sequential vs rayon, same run, same inputs.

// Benchmark code: a backend that cannot start ends the benchmark.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use txfx_backend_native::NativeBackend;
use txfx_poseidon::{DomainSeparator, Fr, HashBackend};

fn level(n: u64) -> Vec<[Fr; 2]> {
    (0..n).map(|i| [Fr::from(i) * Fr::from(u64::MAX), Fr::from(i + 1) * Fr::from(u64::MAX - 1)]).collect()
}

fn levels(c: &mut Criterion) {
    let sequential = NativeBackend::with_parallel_threshold(usize::MAX);
    let parallel = NativeBackend::new();
    let mut group = c.benchmark_group("native_level");
    group.sample_size(20);
    for n in [64u64, 1024, 65536] {
        let pairs = level(n);
        group.throughput(Throughput::Elements(n));
        group.bench_with_input(BenchmarkId::new("sequential", n), &pairs, |b, pairs| {
            b.iter(|| sequential.hash_level(DomainSeparator::TX_EFFECTS_TREE, black_box(pairs)))
        });
        group.bench_with_input(BenchmarkId::new("rayon", n), &pairs, |b, pairs| {
            b.iter(|| parallel.hash_level(DomainSeparator::TX_EFFECTS_TREE, black_box(pairs)))
        });
    }
    group.finish();
}

criterion_group!(benches, levels);
criterion_main!(benches);
