//! WASM vs native, same run, same inputs: one permutation, one level of 64 node hashes, and a
//! contract-class-log hash (3023 fields). Native here is single-threaded (threshold off), so the
//! ratio is the cost of the WASM engine, not of parallelism.

// Benchmark code: a backend that cannot start ends the benchmark.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use txfx_backend_native::NativeBackend;
use txfx_backend_wasm::WasmBackend;
use txfx_poseidon::{DomainSeparator, Fr, HashBackend, HashBackendExt, State};

fn compare(c: &mut Criterion) {
    let wasm = WasmBackend::new().expect("wasm backend starts");
    let native = NativeBackend::with_parallel_threshold(usize::MAX);
    let backends: [(&str, &dyn HashBackend); 2] = [("native", &native), ("wasm", &wasm)];
    let state: State = [1u64, 2, 3, 4].map(|i| Fr::from(i) * Fr::from(u64::MAX));
    let pairs: Vec<[Fr; 2]> = (0..64u64).map(|i| [Fr::from(i), Fr::from(i * 3 + 1)]).collect();
    let log: Vec<Fr> = (0..3023u64).map(|i| Fr::from(i) * Fr::from(u64::MAX)).collect();

    let mut group = c.benchmark_group("permutation");
    for (name, backend) in backends {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut states = [black_box(state)];
                backend.permute_batch(&mut states).map(|()| states)
            })
        });
    }
    group.finish();
    let mut group = c.benchmark_group("level_64");
    for (name, backend) in backends {
        group.bench_function(name, |b| {
            b.iter(|| backend.hash_level(DomainSeparator::TX_EFFECTS_TREE, black_box(&pairs)))
        });
    }
    group.finish();
    let mut group = c.benchmark_group("contract_class_log_hash");
    group.sample_size(20);
    for (name, backend) in backends {
        group.bench_function(name, |b| b.iter(|| backend.hash(black_box(&log))));
    }
    group.finish();
}

criterion_group!(benches, compare);
criterion_main!(benches);
