//! Tx-effect and body JSON as Aztec's TypeScript reads and prints it (docs/spec.md §12.1): every
//! rule of the reading refuses with the right typed error, and legal effects round-trip.

// Test code: a failed expectation is a failed test.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use txfx_documents::json::{
    JsonError, Malformation, body_from_json, body_to_json, effect_from_json, effect_to_json,
};
use txfx_poseidon::Fr;
use txfx_tx_effects::blob::encode_tx_blob;
use txfx_tx_effects::synthetic::{Profile, block};
use txfx_tx_effects::{Category, ProtocolVersion, TxEffect, TxEffectError};

fn small() -> TxEffect {
    txfx_suite::cases::fixture_effect("small")
}

fn json_error(text: &str) -> JsonError {
    effect_from_json(text, ProtocolVersion::Azip26).unwrap_err()
}

fn small_json() -> serde_json::Value {
    effect_to_json(&small()).into()
}

#[test]
fn json_rules() {
    let mut value = small_json();
    value["revertCode"] = 4.into();
    assert!(matches!(
        json_error(&value.to_string()),
        JsonError::Invalid { tx: None, source: TxEffectError::InvalidRevertCode { value: 4 } }
    ));

    // Unknown keys are ignored at every level, as TypeScript's schemas drop them...
    let mut value = small_json();
    value["surprise"] = 1.into();
    value["publicDataWrites"][0]["nextVersion"] = "x".into();
    value["contractClassLogs"][0]["fields"]["extra"] = serde_json::json!([1]);
    assert_eq!(effect_from_json(&value.to_string(), ProtocolVersion::Azip26).unwrap(), small());
    // ...except in a private log, whose schema is strict.
    let mut value = small_json();
    value["privateLogs"][0]["surprise"] = 1.into();
    let error = json_error(&value.to_string());
    assert!(
        matches!(error, JsonError::Malformed { .. }) && error.to_string().contains("surprise"),
        "{error}"
    );

    // Every revert code TypeScript 4.1.2 has is read and printed unchanged.
    for code in 0..=3u64 {
        let mut value = small_json();
        value["revertCode"] = code.into();
        let effect = effect_from_json(&value.to_string(), ProtocolVersion::Azip26).unwrap();
        assert_eq!(u64::from(effect.revert_code.code()), code);
        assert_eq!(effect_to_json(&effect)["revertCode"], code);
    }

    // A txHash is 32 bytes of hex, as TypeScript's TxHash schema wants.
    let mut value = small_json();
    value["txHash"] = "0x1234".into();
    let error = json_error(&value.to_string());
    assert!(
        matches!(error, JsonError::Malformed { .. }) && error.to_string().contains("32 bytes"),
        "{error}"
    );
    let mut value = small_json();
    value["txHash"] = format!("{:064x}", 0x1234).into();
    assert_eq!(
        effect_from_json(&value.to_string(), ProtocolVersion::Azip26).unwrap(),
        small(),
        "0x is optional"
    );

    let mut value = small_json();
    value["noteHashes"][0] = "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001".into();
    let error = json_error(&value.to_string());
    assert!(error.to_string().contains("not below the field modulus"), "{error}");
    assert!(error.to_string().contains("noteHashes[0]"), "{error}");

    // Field elements as TypeScript's Fr schema reads them: decimal strings are decimal, hex
    // needs a lower-case 0x and may be short or upper-case; numbers are refused.
    for (text, accepted) in
        [("42", true), ("0x2a", true), ("0x2A", true), ("0X2a", false), ("2a", false), ("", false)]
    {
        let mut value = small_json();
        value["transactionFee"] = text.into();
        assert_eq!(
            effect_from_json(&value.to_string(), ProtocolVersion::Azip26).is_ok(),
            accepted,
            "{text:?}"
        );
    }
    let mut value = small_json();
    value["transactionFee"] = 42.into();
    assert!(matches!(json_error(&value.to_string()), JsonError::Malformed { .. }));

    // A private log's fields past emittedLength may be nonzero (TypeScript's schema takes them):
    // kept for printing, out of the blob and the commitment.
    let mut value = small_json();
    value["privateLogs"][0]["fields"][5] = format!("0x{:064x}", 1).into();
    let padded = effect_from_json(&value.to_string(), ProtocolVersion::Azip26)
        .expect("nonzero private-log padding is read");
    assert_eq!(effect_to_json(&padded), value, "printed back as given");
    assert_eq!(padded.private_logs[0].padding, vec![Fr::from(0u64), Fr::from(0u64), Fr::from(1u64)]);
    assert_eq!(encode_tx_blob(&padded), encode_tx_blob(&small()), "not in the blob");
    // A contract-class log's padding is hashed in full: nonzero padding is refused.
    let mut value = small_json();
    value["contractClassLogs"][0]["fields"]["fields"][2000] = "0x01".into();
    assert!(matches!(
        json_error(&value.to_string()),
        JsonError::Invalid {
            source: TxEffectError::LogPaddingNotZero {
                category: Category::ContractClassLogs,
                index: 0,
                position: 2000
            },
            ..
        }
    ));

    let mut value = small_json();
    value["privateLogs"][0]["fields"] = serde_json::json!(["0x01", "0x02"]);
    assert!(matches!(
        json_error(&value.to_string()),
        JsonError::Invalid {
            source: TxEffectError::LogFieldsShorterThanLength { emitted_length: 3, fields: 2, .. },
            ..
        }
    ));

    let mut value = small_json();
    let seventeen: Vec<String> = (1..=17).map(|i| format!("0x{i:x}")).collect();
    value["privateLogs"][0]["fields"] = serde_json::json!(seventeen);
    // Reading stops at the 17th field: a list past its cap is never read whole.
    assert!(matches!(
        json_error(&value.to_string()),
        JsonError::Malformed(malformed) if matches!(*malformed.kind, Malformation::TooMany { max: 16, .. })
    ));

    let mut value = small_json();
    value["contractClassLogs"][0]["emittedLength"] = 0.into();
    assert!(matches!(
        json_error(&value.to_string()),
        JsonError::Invalid {
            source: TxEffectError::LogLength { category: Category::ContractClassLogs, length: 0, .. },
            ..
        }
    ));

    // The contract-class log is printed nested and padded to 3023, as TypeScript prints it, and
    // read only so: a flat array is not TypeScript's shape, nor is a nested one of another length.
    let printed = small_json();
    assert_eq!(printed["contractClassLogs"][0]["fields"]["fields"].as_array().map(Vec::len), Some(3023));
    let mut value = small_json();
    let mut padded = vec![serde_json::Value::from("0x0"); 3023];
    padded[0] = "0x12d".into();
    padded[1] = "0x12e".into();
    value["contractClassLogs"][0]["fields"] = serde_json::Value::from(padded);
    assert!(matches!(json_error(&value.to_string()), JsonError::Malformed(_)));
    value["contractClassLogs"][0]["fields"] = serde_json::json!({"fields": ["0x12d", "0x12e"]});
    let error = json_error(&value.to_string());
    assert!(error.to_string().contains("exactly 3023"), "{error}");
    let error = json_error(&value.to_string());
    match error {
        JsonError::Malformed(malformed) => assert_eq!(malformed.path, "contractClassLogs[0].fields.fields"),
        other => panic!("{other}"),
    }

    // Every key of TypeScript's schema is required: a missing list is not an empty one.
    for key in ["noteHashes", "publicLogs", "contractClassLogs", "revertCode", "transactionFee"] {
        let mut value = small_json();
        value.as_object_mut().unwrap().remove(key);
        let error = json_error(&value.to_string());
        assert!(error.to_string().contains(&format!("missing key \"{key}\"")), "{key}: {error}");
    }

    // A node's getTxEffect result is another shape: this reader (TypeScript's TxEffect.schema)
    // needs the effect's own keys, and never looks inside `data` (txfx-documents tells the two
    // shapes apart and refuses a document with both).
    let result = serde_json::json!({"l2BlockNumber": 7, "l2BlockHash": "0x01", "data": small_json(), "txIndexInBlock": 0});
    assert!(matches!(json_error(&result.to_string()), JsonError::Malformed(_)));
}

#[test]
fn body_json_names_the_bad_tx() {
    let mut body = serde_json::Value::from(body_to_json(&block(Profile::Sparse, 3).unwrap()));
    body["txEffects"][2]["nullifiers"][0] = "0x0".into();
    let error = body_from_json(&body.to_string(), ProtocolVersion::Azip26).unwrap_err();
    assert!(
        matches!(error, JsonError::Invalid { tx: Some(2), source: TxEffectError::ZeroValue { .. } }),
        "{error}"
    );
    assert!(matches!(
        body_from_json("{\"txEffects\": 3}", ProtocolVersion::Azip26),
        Err(JsonError::Malformed { .. })
    ));
    assert!(matches!(
        body_from_json("{\"effects\": []}", ProtocolVersion::Azip26),
        Err(JsonError::Malformed { .. })
    ));
    assert_eq!(body_from_json("[]", ProtocolVersion::Azip26).unwrap().len(), 0);
}

#[test]
fn every_profile_round_trips_through_json() {
    for profile in Profile::ALL {
        let body = block(profile, 5).unwrap();
        assert_eq!(body_from_json(&body_to_json(&body).to_string(), ProtocolVersion::Azip26).unwrap(), body);
    }
}
