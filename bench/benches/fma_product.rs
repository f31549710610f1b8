//! The no-IFMA batch question (BENCHMARKS.md, design: no-ifma-batch): the four-lane AVX2/FMA
//! Montgomery product prototype (`src/fma_product.rs`) against the permutation's own product
//! (the ADX assembly where the CPU has BMI2 and ADX) and square, in one run. Each measurement
//! runs `ROUNDS` rounds; criterion's throughput is products per iteration, so its "elem/s" reads
//! directly as products (per lane for the FMA product) per second.
//!
//! - `independent`: eight independent chains (throughput); the FMA product's eight chains are
//!   eight vectors of four lanes, 32 products a round.
//! - `chain`: one dependent chain (latency); the FMA product's one vector is 4 products a round.

#![allow(clippy::expect_used, clippy::unwrap_used, missing_docs)]

#[path = "../src/fma_product.rs"]
#[allow(dead_code, reason = "the bench uses only the product, not the test helpers")]
mod fma_product;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use fma_product::{Fma, LANES, Vals, split52};
use txfx_poseidon::bench_loops;

const ROUNDS: usize = 100;

fn products(c: &mut Criterion) {
    let coarse = |seed: u64| -> [u64; 4] {
        let mut w =
            [seed.wrapping_mul(0x9e37_79b9_7f4a_7c15), seed ^ 0x1234_5678_9abc_def0, seed.rotate_left(17), 0];
        w[3] = seed % 0x3000_0000_0000_0000;
        w
    };
    let y = coarse(99);
    let mut group = c.benchmark_group("product");

    group.throughput(Throughput::Elements((8 * ROUNDS) as u64));
    let mut xs: [[u64; 4]; 8] = std::array::from_fn(|i| coarse(i as u64 + 1));
    group.bench_function("adx_mul/independent", |b| {
        b.iter(|| bench_loops::mul_independent(black_box(&mut xs), &y, ROUNDS))
    });
    group.bench_function("adx_square/independent", |b| {
        b.iter(|| bench_loops::square_independent(black_box(&mut xs), ROUNDS))
    });
    group.throughput(Throughput::Elements(ROUNDS as u64));
    let mut x = coarse(5);
    group.bench_function("adx_mul/chain", |b| {
        b.iter(|| bench_loops::mul_chain(black_box(&mut x), &y, ROUNDS))
    });
    group.bench_function("adx_square/chain", |b| {
        b.iter(|| bench_loops::square_chain(black_box(&mut x), ROUNDS))
    });

    match Fma::detect() {
        Some(fma) => {
            let vals =
                |seed: u64| Vals::from_limbs(&std::array::from_fn(|l| split52(&coarse(seed * 8 + l as u64))));
            let yv = vals(99);
            group.throughput(Throughput::Elements((8 * LANES * ROUNDS) as u64));
            let mut xv: [Vals; 8] = std::array::from_fn(|i| vals(i as u64 + 1));
            group.bench_function("fma4_mul/independent", |b| {
                b.iter(|| fma.mul_independent(black_box(&mut xv), &yv, ROUNDS))
            });
            group.throughput(Throughput::Elements((LANES * ROUNDS) as u64));
            let mut x1 = vals(5);
            group.bench_function("fma4_mul/chain", |b| {
                b.iter(|| fma.mul_chain(black_box(&mut x1), &yv, ROUNDS))
            });
        }
        None => eprintln!("SKIPPED fma4_mul: this CPU lacks AVX2 or FMA"),
    }
    group.finish();
}

criterion_group!(benches, products);
criterion_main!(benches);
