//! The Poseidon2 permutation and sponge, measured side by side in one run on the same inputs:
//! txfx's permutation, Noir's `bn254_blackbox_solver` 1.0
//! `poseidon2_permutation` (what a Rust user would otherwise pick), one ark-ff `Fr`
//! multiplication (the unit of cost: a permutation is 488 of them), the permutation on varied
//! inputs (each output the next input), the scalar product alone (`txfx_scalar_only`: on an
//! IFMA CPU `txfx` splits the partial rounds between it and AVX-512 IFMA), 8 varied states
//! permuted by `permute_x8` (the AVX-512 IFMA kernel's one pass where the CPU has it), 4 by
//! `permute_many` (the four-lane pass) and 64 by `permute_many` on one thread
//! (per-permutation throughput of a batch), a tree node's pair hash, and `poseidon2_hash`
//! of 3 and of 3023 fields (a tree node's preimage size and a contract-class log).

// Benchmark code: a backend that cannot start ends the benchmark.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::hint::black_box;

use acir::FieldElement;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use txfx_poseidon::{DomainSeparator, Fr, permute, poseidon2_hash, poseidon2_hash_pair};

fn inputs() -> [Fr; 4] {
    // Fixed, "random-looking" lanes: the same for every contender.
    [
        Fr::from(0x0123_4567_89ab_cdefu64) * Fr::from(u64::MAX),
        Fr::from(0xfedc_ba98_7654_3210u64) * Fr::from(u64::MAX - 7),
        Fr::from(42u64),
        Fr::from(3u64 << 32) * Fr::from(u64::MAX),
    ]
}

fn permutation(c: &mut Criterion) {
    let mut group = c.benchmark_group("permutation");
    group.throughput(Throughput::Elements(1));
    let state = inputs();
    group.bench_function("txfx", |b| {
        b.iter(|| {
            let mut s = black_box(state);
            permute(&mut s);
            s
        })
    });
    // Varied inputs: each output is the next input, so no data-dependent branch of the
    // reduction can be learned by the branch predictor from a fixed input.
    let mut chained = state;
    group.bench_function("txfx_chained", |b| {
        b.iter(|| {
            permute(&mut chained);
            chained[0]
        })
    });
    // The scalar product alone (what a CPU without AVX-512 IFMA runs): on an IFMA CPU `txfx`
    // above splits the partial rounds between it and a ymm register.
    eprintln!("permutation: single permutation on this CPU: {}", txfx_poseidon::permutation::arithmetic());
    group.bench_function("txfx_scalar_only", |b| {
        b.iter(|| {
            let mut s = black_box(state);
            txfx_poseidon::permutation::permute_scalar(&mut s);
            s
        })
    });
    let noir: Vec<FieldElement> = state.iter().map(|x| FieldElement::from_repr(*x)).collect();
    group.bench_function("bn254_blackbox_solver", |b| {
        b.iter(|| bn254_blackbox_solver::poseidon2_permutation(black_box(&noir)))
    });
    group.finish();

    // Eight varied states in one call: the AVX-512 IFMA kernel's one pass where the CPU has it
    // (`batch_arithmetic()`), else eight scalar permutations. Per-permutation time, against
    // `txfx` above (the scalar permutation).
    let mut group = c.benchmark_group("permutation");
    group.throughput(Throughput::Elements(8));
    let mut eight: [[Fr; 4]; 8] = std::array::from_fn(|i| state.map(|x| x + Fr::from(i as u64)));
    eprintln!("permutation: batch path on this CPU: {}", txfx_poseidon::permutation::batch_arithmetic());
    group.bench_function("batch_x8", |b| {
        b.iter(|| txfx_poseidon::permutation::permute_x8(black_box(&mut eight)))
    });
    group.finish();

    // Four varied states in one call: the four-lane (ymm) pass on IFMA CPUs, which serves the
    // remainders of two to four states (a tree's top levels). Then a batch of 64 varied states on
    // one thread. Both per-permutation time, against `txfx` above.
    for len in [4u64, 64] {
        let mut group = c.benchmark_group("permutation");
        group.throughput(Throughput::Elements(len));
        let mut batch: Vec<[Fr; 4]> = (0..len).map(|i| state.map(|x| x + Fr::from(i))).collect();
        group.bench_function(format!("batch_{len}"), |b| {
            b.iter(|| txfx_poseidon::permutation::permute_many(black_box(&mut batch)))
        });
        group.finish();
    }

    let (x, y) = (state[0], state[1]);
    c.bench_function("fr_mul", |b| b.iter(|| black_box(x) * black_box(y)));
}

fn sponge(c: &mut Criterion) {
    let mut group = c.benchmark_group("poseidon2_hash");
    // A tree node: one permutation of [separator, left, right, 3·2^64].
    let (left, right) = (inputs()[0], inputs()[1]);
    group.bench_function("node_pair", |b| {
        b.iter(|| poseidon2_hash_pair(DomainSeparator::TX_EFFECTS_TREE, black_box(left), black_box(right)))
    });
    for len in [3usize, 3023] {
        let preimage: Vec<Fr> = (0..len as u64).map(|i| Fr::from(i) * inputs()[0]).collect();
        group.throughput(Throughput::Elements(len as u64));
        group.bench_function(format!("{len}_fields"), |b| b.iter(|| poseidon2_hash(black_box(&preimage))));
    }
    group.finish();
}

criterion_group!(benches, permutation, sponge);
criterion_main!(benches);
