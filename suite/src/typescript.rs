//! What Aztec's TypeScript 4.1.2 prints and encodes (`testdata/typescript/`), as suite cases:
//! txfx reads it, prints it back byte for byte, and encodes the blob fields TypeScript encodes.

use txfx_documents::json::{
    body_from_json, body_to_json, checkpoint_from_json, checkpoint_to_json, effect_from_json,
};
use txfx_tx_effects::blob::{decode_block_blob, decode_tx_blob, encode_block_blob, encode_tx_blob};
use txfx_tx_effects::checkpoint::{decode_checkpoint, encode_checkpoint, pad_to_blobs};
use txfx_tx_effects::{ProtocolVersion, TxEffect, commit_block, commit_effect};

use crate::cases::body_root;
use crate::runner::{Case, Group};
use crate::vectors::{array, at, at_least, frs, read_testdata, uint};

fn typescript(file: &str) -> serde_json::Value {
    serde_json::from_str(&read_testdata(&format!("typescript/{file}"))).expect("TypeScript fixture JSON")
}

fn text_of(value: &serde_json::Value) -> &str {
    value.as_str().expect("a JSON string holding TypeScript's printed JSON")
}

/// What Aztec's TypeScript 4.1.2 prints and encodes (`testdata/typescript/`): txfx reads it, prints
/// it back byte for byte, and encodes the blob fields TypeScript encodes.
pub(crate) fn typescript_cases() -> Vec<Case> {
    let g = Group::TypeScript;
    vec![
        Case::new(
            g,
            "typescript effects: read, printed back byte for byte, blob fields as TypeScript's",
            |b| {
                let fixtures = typescript("effects.json");
                let records = at_least(&fixtures, "/effects", 13, "effect fixtures");
                let mut with_padding = 0;
                for record in records {
                    let name = at(record, "/name");
                    let json = text_of(at(record, "/json"));
                    let effect = effect_from_json(json, ProtocolVersion::PreAzip26)
                        .unwrap_or_else(|e| panic!("{name}: txfx refused it: {e}"));
                    assert_eq!(
                        txfx_documents::json::effect_to_json(&effect).to_string(),
                        json,
                        "{name}: printed back"
                    );
                    let blob = frs(at(record, "/blobFields"));
                    assert_eq!(encode_tx_blob(&effect), blob, "{name}: blob fields");
                    // The blob drops private-log fields past emittedLength, as TypeScript's does.
                    let mut unpadded = effect.clone().into_fields();
                    let padded_logs =
                        unpadded.private_logs.iter().filter(|log| !log.padding.is_empty()).count();
                    unpadded.private_logs.iter_mut().for_each(|log| log.padding.clear());
                    let unpadded = TxEffect::new(unpadded).expect("still legal");
                    assert_eq!(
                        decode_tx_blob(ProtocolVersion::PreAzip26, &blob)
                            .expect("TypeScript's blob fields decode"),
                        (unpadded.clone(), blob.len())
                    );
                    let on_backend = commit_effect(b.hasher, &effect).expect("commit");
                    let reference = commit_effect(&txfx_poseidon::Sequential, &unpadded).expect("commit");
                    assert_eq!(
                        on_backend, reference,
                        "{name}: the backend agrees with Sequential, padding uncommitted"
                    );
                    with_padding += padded_logs;
                }
                assert!(with_padding > 0, "a fixture has private-log fields past emittedLength");
            },
        ),
        Case::new(g, "typescript bodies: read, blob fields as TypeScript's, decoded back", |b| {
            let fixtures = typescript("bodies.json");
            for record in array(&fixtures, "/bodies") {
                let name = at(record, "/name");
                let json = text_of(at(record, "/json"));
                let body = body_from_json(json, ProtocolVersion::PreAzip26)
                    .unwrap_or_else(|e| panic!("{name}: txfx refused it: {e}"));
                assert_eq!(body_to_json(&body).to_string(), json, "{name}: printed back");
                let blob = frs(at(record, "/blobFields"));
                assert_eq!(encode_block_blob(&body), blob, "{name}: blob fields");
                assert_eq!(
                    decode_block_blob(ProtocolVersion::PreAzip26, &blob).expect("decodes"),
                    body,
                    "{name}: decoded"
                );
                let root = commit_block(b.hasher, &body).expect("commit").root();
                assert_eq!(
                    root,
                    commit_block(&txfx_poseidon::Sequential, &body).expect("commit").root(),
                    "{name}"
                );
            }
        }),
        Case::new(
            g,
            "typescript checkpoints: decoded as blob-lib decodes them, encoded back bit for bit, zero tail or not",
            |b| {
                let fixtures = typescript("checkpoints.json");
                let records = at_least(&fixtures, "/checkpoints", 6, "checkpoint fixtures");
                for record in records {
                    let name = at(record, "/name");
                    let fields = frs(at(record, "/blobFields"));
                    let checkpoint = decode_checkpoint(ProtocolVersion::PreAzip26, &fields)
                        .unwrap_or_else(|e| panic!("{name}: txfx refused it: {e}"));
                    let expected = at(record, "/decoded");
                    assert_eq!(
                        &checkpoint_to_json(&checkpoint, None),
                        expected,
                        "{name}: as blob-lib decodes it"
                    );
                    assert_eq!(encode_checkpoint(&checkpoint), fields, "{name}: encoded back");
                    let padded = pad_to_blobs(fields.clone());
                    assert_eq!(padded.len() as u64, uint(at(record, "/paddedLength")), "{name}: whole blobs");
                    assert_eq!(
                        decode_checkpoint(ProtocolVersion::PreAzip26, &padded).as_ref(),
                        Ok(&checkpoint),
                        "{name}: with the zero tail"
                    );
                    let parsed = checkpoint_from_json(&expected.to_string(), ProtocolVersion::PreAzip26)
                        .expect("blob-lib's decoding reads");
                    assert_eq!(parsed.checkpoint, checkpoint, "{name}: from JSON");
                    assert!(parsed.claimed_roots.iter().all(Option::is_none));
                    for block in checkpoint.blocks() {
                        assert_eq!(
                            body_root(b, &block.body),
                            commit_block(&txfx_poseidon::Sequential, &block.body).expect("commit").root(),
                            "{name}"
                        );
                    }
                }
            },
        ),
        Case::new(g, "typescript node results: getTxEffect and getBlock read as effect and body", |b| {
            use txfx_documents::{Doc, read};
            let fixtures = typescript("node-results.json");
            let result = text_of(at(&fixtures, "/getTxEffect/json"));
            let document = read::effect(Doc::text("getTxEffect", result), ProtocolVersion::PreAzip26)
                .expect("a getTxEffect result reads");
            let effect = document.effect;
            assert_eq!(
                effect,
                effect_from_json(text_of(at(&fixtures, "/getTxEffect/dataJson")), ProtocolVersion::PreAzip26)
                    .expect("data")
            );
            let claimed: serde_json::Value = serde_json::from_str(result).expect("JSON");
            let in_block = document.in_block.expect("the result's place");
            assert_eq!(u64::from(in_block.block_number), uint(&claimed["l2BlockNumber"]));
            assert_eq!(in_block.tx_index_in_block, uint(&claimed["txIndexInBlock"]));
            assert_eq!(encode_tx_blob(&effect), frs(at(&fixtures, "/getTxEffect/blobFields")));
            let block = text_of(at(&fixtures, "/getBlock/json"));
            let parsed = read::body(b.hasher, Doc::text("getBlock", block), ProtocolVersion::PreAzip26)
                .expect("L2Block JSON reads as its body");
            assert_eq!(
                parsed.block_number().map(u64::from),
                Some(uint(at(&fixtures, "/getBlock/blockNumber")))
            );
            assert_eq!(
                parsed.body,
                body_from_json(text_of(at(&fixtures, "/getBlock/bodyJson")), ProtocolVersion::PreAzip26)
                    .expect("body")
            );
            assert_eq!(encode_block_blob(&parsed.body), frs(at(&fixtures, "/getBlock/blobFields")));
        }),
    ]
}
