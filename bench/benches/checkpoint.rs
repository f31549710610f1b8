//! Decoding and encoding a checkpoint that fills six blobs (24576 fields, the most L1 carries).

// Benchmark code: a checkpoint that cannot be built ends the benchmark.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::indexing_slicing)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use txfx_tx_effects::checkpoint::{
    Checkpoint, CheckpointBlock, MAX_CHECKPOINT_BLOB_FIELDS, decode_checkpoint, encode_checkpoint,
    pad_to_blobs,
};
use txfx_tx_effects::synthetic::{Profile, block};
use txfx_tx_effects::{Body, ProtocolVersion, TxEffect};

/// Three blocks, log-heavy txs first and small ones after, as full as six blobs allow.
fn six_blob_checkpoint() -> Checkpoint {
    let candidates: Vec<TxEffect> = block(Profile::LogHeavy, 2)
        .expect("synthetic")
        .tx_effects
        .into_iter()
        .chain(block(Profile::SmallCategories, 600).expect("synthetic").tx_effects)
        .collect();
    let mut bodies = vec![Vec::new(), Vec::new(), Vec::new()];
    let build = |bodies: &[Vec<TxEffect>]| {
        let blocks = bodies
            .iter()
            .enumerate()
            .map(|(i, txs)| CheckpointBlock {
                block_number: (1000 + i as u32).into(),
                // The v6 layout: every block carries the L1-to-L2 root.
                l1_to_l2_message_root: Some(7u64.into()),
                body: Body::new(txs.clone()),
                ..CheckpointBlock::default()
            })
            .collect();
        Checkpoint::new(ProtocolVersion::V6, blocks)
    };
    for (i, tx) in candidates.into_iter().enumerate() {
        bodies[i % 3].push(tx);
        if build(&bodies).is_err() {
            // Too large: leave it out and try the next (smaller) one.
            bodies[i % 3].pop();
        }
    }
    build(&bodies).expect("fits")
}

fn checkpoint(c: &mut Criterion) {
    let checkpoint = six_blob_checkpoint();
    let fields = pad_to_blobs(encode_checkpoint(&checkpoint));
    assert_eq!(fields.len(), MAX_CHECKPOINT_BLOB_FIELDS, "the checkpoint fills six blobs");
    let mut group = c.benchmark_group("checkpoint_6_blobs");
    group.sample_size(20);
    group.throughput(Throughput::Elements(fields.len() as u64));
    group.bench_function("decode", |b| {
        b.iter(|| decode_checkpoint(ProtocolVersion::V6, black_box(&fields)).expect("decodes"))
    });
    group.bench_function("encode", |b| b.iter(|| encode_checkpoint(black_box(&checkpoint))));
    group.finish();
}

criterion_group!(benches, checkpoint);
criterion_main!(benches);
