//! Verifying the whole chain for one tx (archive path, header hash, tx-effects path, leaf) on the
//! bundled TypeScript chain, and each step alone: the figures the reference's cost is set against.

// Benchmark code: a fixture that does not load ends the benchmark.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::indexing_slicing)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use txfx_backend_native::NativeBackend;
use txfx_documents::Doc;
use txfx_documents::json::{body_from_json, header_from_json, witness_from_json, witness_to_json};
use txfx_documents::read::archive_witness;
use txfx_membership::archive::archive_root_from_path;
use txfx_membership::{
    BlockWitnesses, ChainSubject, ProtocolVersion, TrustedArchiveRoot, TxClaim, verify_chain, verify_tx,
};
use txfx_poseidon::field::parse_fr_hex;
use txfx_poseidon::{HashBackend, Sequential};

const HEADER: &str = include_str!("../../testdata/chain/header-3.json");
const ARCHIVE_WITNESS: &str = include_str!("../../testdata/chain/archive-witness-3.json");
const ARCHIVE_ROOT: &str = include_str!("../../testdata/chain/archive-root.txt");
const BODY: &str = include_str!("../../testdata/blocks/three-fixtures.json");

fn chain(c: &mut Criterion) {
    let header = header_from_json(HEADER, ProtocolVersion::Azip26).expect("header");
    let archive = archive_witness(Doc::text("archive witness", ARCHIVE_WITNESS)).expect("archive witness");
    let root = TrustedArchiveRoot::from_trusted_source(parse_fr_hex(ARCHIVE_ROOT.trim()).expect("root"));
    let body = body_from_json(BODY, ProtocolVersion::Azip26).expect("body");
    let witness =
        BlockWitnesses::from_body(&Sequential, &body, 3.into()).expect("commit").witness(1).expect("tx 1");
    // The node's JSON round trip, as a client receives the witness.
    let witness =
        witness_from_json(&witness_to_json(&witness).to_string(), ProtocolVersion::Azip26).expect("JSON");
    let claim = TxClaim { tx_hash: body.tx_effects[1].tx_hash, categories_hash: None };
    let native = NativeBackend::new();
    let backends: [(&str, &dyn HashBackend); 2] = [("sequential", &Sequential), ("native", &native)];
    let mut group = c.benchmark_group("verify_chain");
    for (name, hasher) in backends {
        group.bench_function(format!("{name}/whole_chain"), |b| {
            b.iter(|| {
                verify_chain(
                    hasher,
                    ProtocolVersion::Azip26,
                    root,
                    &archive,
                    &header,
                    &witness,
                    ChainSubject::Tx(black_box(claim)),
                )
                .expect("valid")
            })
        });
        group.bench_function(format!("{name}/header_hash"), |b| b.iter(|| black_box(&header).hash(hasher)));
        let block_hash = header.hash(hasher).expect("hash");
        group.bench_function(format!("{name}/archive_path"), |b| {
            b.iter(|| {
                archive_root_from_path(hasher, ProtocolVersion::Azip26, black_box(block_hash), &archive)
            })
        });
        let tree_root = txfx_membership::TrustedRoot::from_authenticated_header(witness.root);
        group.bench_function(format!("{name}/tree_path_and_leaf"), |b| {
            b.iter(|| verify_tx(hasher, black_box(claim), &witness, tree_root))
        });
    }
    group.finish();
}

criterion_group!(benches, chain);
criterion_main!(benches);
