//! Every legality rule of docs/spec.md §3–§4 refuses bad input with the right typed error, at
//! construction and in blob decoding; legal effects round-trip through the blob encoding. (The
//! JSON rules are `txfx-documents`' tests.)

// Test code: a failed expectation is a failed test.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use txfx_poseidon::Fr;
use txfx_tx_effects::blob::{
    BlobError, MarkerLimit, TxBlobError, TxStartMarker, decode_block_blob, decode_tx_blob, encode_block_blob,
    encode_tx_blob,
};
use txfx_tx_effects::synthetic::{Profile, block};
use txfx_tx_effects::{
    Category, ContractClassLog, PrivateLog, ProtocolVersion, PublicDataWrite, PublicLog, TxEffect,
    TxEffectError, TxEffectFields,
};

fn f(x: u64) -> Fr {
    Fr::from(x)
}

fn ones(n: usize) -> Vec<Fr> {
    (1..=n as u64).map(f).collect()
}

fn small() -> TxEffect {
    txfx_suite::cases::fixture_effect("small")
}

fn check(fields: TxEffectFields, expected: TxEffectError) {
    assert_eq!(TxEffect::new(fields), Err(expected));
}

#[test]
fn counts_per_category_are_bounded() {
    use Category::*;
    let base = TxEffectFields::default;
    check(
        TxEffectFields { note_hashes: ones(65), ..base() },
        TxEffectError::TooMany { category: NoteHashes, count: 65, max: 64 },
    );
    check(
        TxEffectFields { nullifiers: ones(65), ..base() },
        TxEffectError::TooMany { category: Nullifiers, count: 65, max: 64 },
    );
    check(
        TxEffectFields { l2_to_l1_msgs: ones(9), ..base() },
        TxEffectError::TooMany { category: L2ToL1Msgs, count: 9, max: 8 },
    );
    let writes = (1..=65).map(|i| PublicDataWrite { leaf_slot: f(i), value: f(i) }).collect();
    check(
        TxEffectFields { public_data_writes: writes, ..base() },
        TxEffectError::TooMany { category: PublicDataWrites, count: 65, max: 64 },
    );
    let logs = (0..65).map(|_| PrivateLog { fields: ones(1), padding: Vec::new() }).collect();
    check(
        TxEffectFields { private_logs: logs, ..base() },
        TxEffectError::TooMany { category: PrivateLogs, count: 65, max: 64 },
    );
    // At the limits, everything is legal.
    assert!(
        TxEffect::new(TxEffectFields { note_hashes: ones(64), l2_to_l1_msgs: ones(8), ..base() }).is_ok()
    );
}

#[test]
fn a_second_contract_class_log_is_refused() {
    // tx_effect.test.ts "rejects more contract class logs than the protocol maximum".
    let mut fields = small().into_fields();
    fields
        .contract_class_logs
        .push(ContractClassLog { contract_address: f(2), fields: vec![f(77), f(303), f(304)] });
    let error = TxEffect::new(fields).unwrap_err();
    assert_eq!(error, TxEffectError::TooMany { category: Category::ContractClassLogs, count: 2, max: 1 });
    assert_eq!(error.to_string(), "contractClassLogs: 2 items, at most 1 allowed");
}

#[test]
fn zero_entries_and_empty_writes_are_refused_with_their_index() {
    use Category::*;
    let base = TxEffectFields::default;
    check(
        TxEffectFields { note_hashes: vec![f(1), f(0)], ..base() },
        TxEffectError::ZeroValue { category: NoteHashes, index: 1 },
    );
    check(
        TxEffectFields { nullifiers: vec![f(0)], ..base() },
        TxEffectError::ZeroValue { category: Nullifiers, index: 0 },
    );
    check(
        TxEffectFields { l2_to_l1_msgs: vec![f(5), f(6), f(0)], ..base() },
        TxEffectError::ZeroValue { category: L2ToL1Msgs, index: 2 },
    );
    let writes = vec![PublicDataWrite { leaf_slot: f(1), value: f(0) }, PublicDataWrite::default()];
    check(
        TxEffectFields { public_data_writes: writes, ..base() },
        TxEffectError::EmptyPublicDataWrite { index: 1 },
    );
    // A write with one zero half is legal.
    let half = vec![PublicDataWrite { leaf_slot: f(0), value: f(9) }];
    assert!(TxEffect::new(TxEffectFields { public_data_writes: half, ..base() }).is_ok());
}

#[test]
fn log_lengths_are_bounded() {
    use Category::*;
    let base = TxEffectFields::default;
    let log_length =
        |category, index, length, min, max| TxEffectError::LogLength { category, index, length, min, max };
    check(
        TxEffectFields {
            private_logs: vec![
                PrivateLog { fields: ones(2), padding: Vec::new() },
                PrivateLog { fields: vec![], padding: Vec::new() },
            ],
            ..base()
        },
        log_length(PrivateLogs, 1, 0, 1, 16),
    );
    check(
        TxEffectFields { private_logs: vec![PrivateLog { fields: ones(17), padding: Vec::new() }], ..base() },
        log_length(PrivateLogs, 0, 17, 1, 16),
    );
    check(
        TxEffectFields {
            public_logs: vec![PublicLog { contract_address: f(1), fields: ones(4095) }],
            ..base()
        },
        log_length(PublicLogs, 0, 4095, 0, 4094),
    );
    let two = vec![
        PublicLog { contract_address: f(1), fields: ones(2000) },
        PublicLog { contract_address: f(1), fields: ones(2093) },
    ];
    check(
        TxEffectFields { public_logs: two, ..base() },
        TxEffectError::PublicLogsPayloadTooLong { index: 1, flat_length: 4097, max: 4096 },
    );
    // A contract-class log emits 1 to 3023 fields: none, or one too many, is refused.
    for length in [0, 3024] {
        check(
            TxEffectFields {
                contract_class_logs: vec![ContractClassLog { contract_address: f(1), fields: ones(length) }],
                ..base()
            },
            log_length(ContractClassLogs, 0, length, 1, 3023),
        );
    }
}

#[test]
fn every_profile_round_trips_through_the_blob() {
    for profile in Profile::ALL {
        let body = block(profile, 5).unwrap();
        let fields = encode_block_blob(&body);
        assert_eq!(fields.len(), body.tx_effects.iter().map(TxEffect::num_blob_fields).sum::<usize>());
        assert_eq!(decode_block_blob(ProtocolVersion::Azip26, &fields).unwrap(), body);
    }
}

#[test]
fn blob_decoding_checks() {
    let effect = small();
    let fields = encode_tx_blob(&effect);

    // tx_effect.test.ts "fails with invalid blob fields": the first field replaced by 12.
    let mut bad = fields.clone();
    bad[0] = f(12);
    assert!(matches!(decode_tx_blob(ProtocolVersion::Azip26, &bad), Err(TxBlobError::NotAMarker { .. })));
    assert!(matches!(
        decode_block_blob(ProtocolVersion::Azip26, &bad),
        Err(BlobError::Tx { tx: 0, offset: 0, source: TxBlobError::NotAMarker { .. } })
    ));

    // "fails with too few remaining blob fields": one field popped.
    let short = &fields[..fields.len() - 1];
    assert_eq!(
        decode_tx_blob(ProtocolVersion::Azip26, short).unwrap_err(),
        TxBlobError::Truncated { claimed: 20, available: 19 }
    );

    // "ignores extra blob fields" for one tx; a block's trailing field must be another tx.
    let mut extra = fields.clone();
    extra.push(f(7));
    assert_eq!(decode_tx_blob(ProtocolVersion::Azip26, &extra).unwrap(), (effect.clone(), 20));
    assert!(matches!(
        decode_block_blob(ProtocolVersion::Azip26, &extra),
        Err(BlobError::Tx { tx: 1, offset: 20, source: TxBlobError::NotAMarker { .. } })
    ));

    // A marker whose numBlobFields disagrees with its counts.
    let mut marker = TxStartMarker::of(&effect);
    marker.num_blob_fields += 1;
    let mut inconsistent = fields.clone();
    inconsistent[0] = marker.encode();
    inconsistent.push(f(0));
    assert_eq!(
        decode_tx_blob(ProtocolVersion::Azip26, &inconsistent).unwrap_err(),
        TxBlobError::LengthMismatch { claimed: 21, implied: 20 }
    );

    // One length field set to a length the tx cannot have; offsets count from the tx's marker.
    type IsTheRefusal = fn(&TxBlobError) -> bool;
    let lengths: [(usize, u64, IsTheRefusal); 3] = [
        // A private-log length field that is impossible.
        (9, 17, |e| matches!(e, TxBlobError::BadLength { what: "private log length", offset: 9, .. })),
        // A possible one that disagrees with the marker's sum.
        (9, 2, |e| *e == TxBlobError::PrivateLogsLengthMismatch { sum: 2, marker: 3 }),
        // A public log whose length runs past its section: it ran out, named as such.
        (13, 3, |e| matches!(e, TxBlobError::BadLength { what: "public log length", .. })),
    ];
    for (index, length, is_the_refusal) in lengths {
        let mut edited = fields.clone();
        edited[index] = f(length);
        let refusal = decode_tx_blob(ProtocolVersion::Azip26, &edited).unwrap_err();
        assert!(is_the_refusal(&refusal), "field {index} = {length}: {refusal:?}");
    }

    // A revert code the protocol does not have.
    let mut reverted = TxStartMarker::of(&effect);
    reverted.revert_code = 4;
    let mut bad_revert = fields.clone();
    bad_revert[0] = reverted.encode();
    assert_eq!(
        decode_tx_blob(ProtocolVersion::Azip26, &bad_revert),
        Err(TxBlobError::Invalid(TxEffectError::InvalidRevertCode { value: 4 }))
    );

    // A marker claiming the maximum counts over a 3-field input: refused before any allocation.
    let huge = TxStartMarker {
        num_note_hashes: u16::MAX,
        num_blob_fields: 3 + u32::from(u16::MAX),
        ..TxStartMarker::default()
    };
    let tiny = [huge.encode(), f(1), f(2)];
    assert!(matches!(decode_tx_blob(ProtocolVersion::Azip26, &tiny), Err(TxBlobError::Truncated { .. })));

    // Counts over the protocol limits in a consistent marker are refused from the marker alone.
    let many = TxStartMarker { num_nullifiers: 65, num_blob_fields: 3 + 65, ..TxStartMarker::default() };
    let mut over = vec![many.encode(), f(1), f(2)];
    over.extend(ones(65));
    assert_eq!(
        decode_tx_blob(ProtocolVersion::Azip26, &over),
        Err(TxBlobError::Limit(MarkerLimit { what: "numNullifiers", value: 65, max: 64 }))
    );

    // High bits above the 216-bit marker are not a marker.
    let mut high = fields.clone();
    high[0] += txfx_poseidon::field::parse_fr(&format!("0x1{}", "0".repeat(55))).unwrap(); // 2^220
    assert!(matches!(decode_tx_blob(ProtocolVersion::Azip26, &high), Err(TxBlobError::NotAMarker { .. })));
}

#[test]
fn marker_limits_are_the_protocols() {
    let legal = TxStartMarker::of(&txfx_suite::cases::fixture_effect("maximum"));
    assert_eq!(legal.check_limits(), Ok(()), "the maximum fixture is at every limit");
    let over = |change: &dyn Fn(&mut TxStartMarker), what: &str| {
        let mut marker = legal;
        change(&mut marker);
        assert_eq!(marker.check_limits().map_err(|e| e.what), Err(what), "{what}");
    };
    over(&|m| m.num_note_hashes += 1, "numNoteHashes");
    over(&|m| m.num_nullifiers += 1, "numNullifiers");
    over(&|m| m.num_l2_to_l1_msgs += 1, "numL2ToL1Msgs");
    over(&|m| m.num_public_data_writes += 1, "numPublicDataWrites");
    over(&|m| m.num_private_logs += 1, "numPrivateLogs");
    over(&|m| m.private_logs_length += 1, "privateLogsLength");
    over(&|m| m.public_logs_length += 1, "publicLogsLength");
    over(&|m| m.contract_class_log_length += 1, "contractClassLogLength");
    over(&|m| m.revert_code = 4, "revertCode");
    // Fewer private-log fields than logs: a log has at least one field.
    over(&|m| m.private_logs_length = 3, "numPrivateLogs");
}
