//! The node's tx-effects witness JSON: both forms round-trip, and every malformed witness is
//! refused with an error that says where and what.

// Test code: a failed expectation is a failed test.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use txfx_documents::json::{JsonError, SiblingPathError, witness_from_json, witness_to_json};
use txfx_membership::{TxEffectMembershipWitness, build_witness_from_leaves};
use txfx_poseidon::{Fr, Sequential};
use txfx_tx_effects::{BlockNumber, ProtocolVersion};

fn leaves(n: u64) -> Vec<Fr> {
    (0..n).map(|i| Fr::from(i * 1_000_003 + 17)).collect()
}

fn witness_json(path_bytes: &[u8]) -> String {
    format!(
        r#"{{"blockNumber":7,"root":"0x01","leafIndex":"1","siblingPath":"{}"}}"#,
        STANDARD.encode(path_bytes)
    )
}

#[test]
fn witness_json_round_trips_in_both_forms() {
    let w = build_witness_from_leaves(&Sequential, leaves(5), 3, BlockNumber::new(12)).unwrap();
    assert!(w.categories_hash.is_none());
    let json = witness_to_json(&w);
    assert!(json.get("categoriesHash").is_none(), "AZIP-26 form has no categoriesHash");
    assert_eq!(witness_from_json(&json.to_string(), ProtocolVersion::Azip26).unwrap(), w);
    let with = TxEffectMembershipWitness { categories_hash: Some(Fr::from(77u64)), ..w.clone() };
    let json = witness_to_json(&with);
    let keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["blockNumber", "root", "categoriesHash", "leafIndex", "siblingPath"]);
    assert_eq!(
        witness_from_json(&json, ProtocolVersion::Azip26).unwrap(),
        with,
        "a parsed value reads as its text does"
    );
    // leafIndex as a number, blockNumber as a numeric string, the path as a Buffer object.
    let bytes = STANDARD.decode(json["siblingPath"].as_str().unwrap()).unwrap();
    let alternative = serde_json::json!({
        "blockNumber": "12", "root": json["root"], "leafIndex": 3, "siblingPath": {"type": "Buffer", "data": bytes},
    });
    assert_eq!(witness_from_json(&alternative.to_string(), ProtocolVersion::Azip26).unwrap(), w);
}

fn path_error(bytes: &[u8]) -> SiblingPathError {
    match witness_from_json(&witness_json(bytes), ProtocolVersion::Azip26) {
        Err(JsonError::SiblingPath(error)) => error,
        other => panic!("a sibling path error expected, got {other:?}"),
    }
}

fn malformed_at(error: JsonError) -> String {
    match error {
        JsonError::Malformed(malformed) => malformed.path,
        other => panic!("a malformed value expected, got {other:?}"),
    }
}

#[test]
fn witness_json_errors_say_what_is_wrong() {
    let element = [0u8; 32];
    let mut two = vec![0, 0, 0, 2];
    two.extend(element);
    two.extend(element);
    assert_eq!(
        witness_from_json(&witness_json(&two), ProtocolVersion::Azip26).unwrap().sibling_path.len(),
        2
    );

    assert_eq!(path_error(&two[..two.len() - 1]), SiblingPathError::Length { declared: 2, bytes: 63 });
    let mut overlong = vec![0, 0, 0, 129];
    overlong.extend(std::iter::repeat_n(0u8, 129 * 32));
    assert!(matches!(path_error(&overlong), SiblingPathError::TooManyCharacters { .. }));
    assert_eq!(
        path_error(&[0xff, 0xff, 0xff, 0xff]),
        SiblingPathError::TooLong { declared: u32::MAX as usize }
    );
    assert_eq!(path_error(&[0, 0]), SiblingPathError::NoPrefix { bytes: 2 });
    let mut not_canonical = vec![0, 0, 0, 1];
    not_canonical.extend([0xffu8; 32]);
    assert!(matches!(
        witness_from_json(&witness_json(&not_canonical), ProtocolVersion::Azip26),
        Err(JsonError::Field { ref path, .. }) if path == "siblingPath[0]"
    ));

    let ok = serde_json::from_str::<serde_json::Value>(&witness_json(&[0, 0, 0, 0])).unwrap();
    let with = |key: &str, value: serde_json::Value| {
        let mut v = ok.clone();
        v[key] = value;
        witness_from_json(&v.to_string(), ProtocolVersion::Azip26).unwrap_err()
    };
    assert!(malformed_at(with("extra", 1.into())).is_empty(), "an unknown key is the document's fault");
    for bad in [(1u64 << 53).into(), (1u64 << 32).into(), (-1).into()] {
        assert_eq!(malformed_at(with("blockNumber", bad)), "blockNumber");
    }
    assert_eq!(malformed_at(with("leafIndex", "-1".into())), "leafIndex");
    assert_eq!(malformed_at(with("leafIndex", "99999999999999999999999".into())), "leafIndex");
    assert!(matches!(with("root", "12".into()), JsonError::Field { ref path, .. } if path == "root"));
    assert_eq!(with("siblingPath", "!!!".into()), JsonError::NotBase64 { path: "siblingPath" });
    assert_eq!(malformed_at(with("siblingPath", 5.into())), "siblingPath");
    let mut missing = ok.clone();
    missing.as_object_mut().unwrap().remove("root");
    let error = witness_from_json(&missing.to_string(), ProtocolVersion::Azip26).unwrap_err();
    assert!(error.to_string().contains("missing key \"root\""), "{error}");
    assert!(matches!(witness_from_json("[1,2]", ProtocolVersion::Azip26), Err(JsonError::Malformed(_))));
    assert!(matches!(witness_from_json("{", ProtocolVersion::Azip26), Err(JsonError::Malformed(_))));
}
