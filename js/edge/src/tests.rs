//! The edge's unit tests: its failures, lists, named arguments, bytes, panics and promises.

use super::*;
use txfx_poseidon::Sequential;
use txfx_tx_effects::BlockNumber;

/// Every failure carries its class and kind beside a message that is human text only.
#[test]
fn failures_carry_class_and_kind_beside_their_message() {
    let error = tx_effects_tree_root(&Sequential, "{", None).expect_err("not JSON");
    assert_eq!(error.class_name(), "Malformed", "{error}");
    assert!(error.message().contains("body"), "{error}");
    assert!(!error.message().starts_with('{'), "a message, not a record: {error}");
    assert_eq!(error.link(), None);

    let error = poseidon2_permutation(&["0x1".to_owned()]).expect_err("one element");
    assert_eq!((error.class_name(), error.kind()), ("OutOfRange", "StateLength"));
}

/// A list crosses as one string and its count: it splits into exactly that many elements, and
/// an element holding a `,` cannot pass for two.
#[test]
fn joined_lists_split_into_their_count() {
    let one = "0x0000000000000000000000000000000000000000000000000000000000000001";
    assert_eq!(split_fields("inputs", "", 0), Ok(Vec::new()));
    assert_eq!(split_fields("inputs", "", 1), Ok(vec![""]));
    assert_eq!(split_fields("inputs", "0x1,,0x2", 3), Ok(vec!["0x1", "", "0x2"]));
    for (joined, count) in [("0x1,0x2", 1), ("0x1", 0), ("", 2), ("0x1,0x2,0x3", 4)] {
        let error = split_fields("inputs", joined, count).expect_err(joined);
        assert_eq!(class_and_kind(&error), ("Malformed".to_owned(), "InvalidDigit".to_owned()));
    }
    // The permutation's outputs, back to back, are the list form's.
    let state = [one, one, one, one].map(str::to_owned);
    let listed = poseidon2_permutation(&state).expect("a state");
    assert_eq!(poseidon2_permutation_joined(&state.join(","), 4), Ok(listed.concat()));
    assert!(listed.iter().all(|element| element.len() == 66));
    assert_eq!(poseidon2_hash_joined("0x1,0x2", 2), poseidon2_hash(&["0x1", "0x2"]));
    assert_eq!(
        poseidon2_hash_with_separator_joined("0x1,0x2", 2, 7),
        poseidon2_hash_with_separator(&["0x1", "0x2"], 7)
    );
    // An element's own error names its index, as the list form's does.
    assert_eq!(poseidon2_hash_joined("0x1,0xg", 2), poseidon2_hash(&["0x1", "0xg"]));
}

/// A misspelt expectation is refused, never dropped.
#[test]
fn unknown_expectations_are_refused() {
    let error = expected(Some(r#"{"blockNumbr": 3}"#)).expect_err("unknown key");
    assert!(error.kind().contains("UnknownKey"), "{error}");
    for bad in ["[]", "null", r#"{"blockNumber": null}"#, r#"[3, "0x01"]"#] {
        assert!(expected(Some(bad)).is_err(), "{bad}");
    }
    let known = expected(Some(r#"{"blockNumber": 3}"#)).expect("known key");
    assert_eq!(known.block_number, Some(BlockNumber::new(3)));
}

/// A verification's arguments are named: a missing, unknown or non-string one is refused
/// before anything is read, as is a list of them in a row.
#[test]
fn named_arguments_are_all_known_strings() {
    let kind = |error: Thrown| class_and_kind(&error);
    let argument = ("Malformed".to_owned(), "Argument".to_owned());
    let named = r#"{"archiveRoot": "0x01", "archiveWitness": "{}", "blockHash": "0x02"}"#;
    assert!(named_arguments(named, &["archiveRoot", "archiveWitness", "blockHash"], "t").is_ok());
    for bad in [r#"{"archiveRoot": "0x01", "archiveWitnes": "{}"}"#, r#"["0x01", "{}"]"#, "not JSON"] {
        let error = named_arguments(bad, &["archiveRoot", "archiveWitness"], "t").expect_err(bad);
        assert_eq!(kind(error), argument, "{bad}");
    }
    let missing = verify_archive_named(&Sequential, r#"{"archiveRoot": "0x01"}"#).expect_err("missing");
    assert!(missing.message().contains("archiveWitness: required"), "{missing}");
    let number = verify_tx_named(&Sequential, r#"{"archiveRoot": 1}"#).expect_err("a number");
    assert_eq!(kind(number), argument);
}

fn class_and_kind(error: &Thrown) -> (String, String) {
    (error.class_name().to_owned(), error.kind().to_owned())
}

/// Bytes that are not UTF-8 are refused as `NotUtf8`, naming the first bad byte's offset as
/// `valid_up_to` counts it (a cut-short sequence from its first byte); UTF-8 passes unchanged.
#[test]
fn bytes_that_are_not_utf8_name_their_offset() {
    assert_eq!(utf8("body", "{\"é\": 1}".as_bytes()), Ok("{\"é\": 1}"));
    for (bytes, offset) in [
        (&b"{\"a\": \xff}"[..], 6),
        (&b"[\"\xe2\x82\"]"[..], 2),
        (&b"\xc0\x80"[..], 0),
        (&b"[1, 2]\xed\xa0\x80"[..], 6),
        (&b"abc\xf0\x9f\x98"[..], 3),
    ] {
        let error = utf8("body", bytes).expect_err("not UTF-8");
        assert_eq!(class_and_kind(&error), ("Malformed".to_owned(), "NotUtf8".to_owned()));
        assert!(
            error.message().contains(&format!("body: not UTF-8: the byte at offset {offset} ")),
            "{error}"
        );
    }
}

/// A document given as bytes reads as its text; bytes where a name or a field is expected are
/// an argument of the wrong kind.
#[test]
fn documents_may_be_bytes_and_nothing_else_may() {
    let index = |name: &str| EXPORTS.iter().position(|export| export.name == name).expect("export");
    let body = include_str!("../../../testdata/blocks/three-fixtures.json");
    let from_text = call(&Sequential, index("txEffectsTreeRoot"), &[Arg::Text(body), Arg::Absent]);
    let from_bytes =
        call(&Sequential, index("txEffectsTreeRoot"), &[Arg::Bytes(body.as_bytes()), Arg::Absent]);
    assert!(matches!(from_text, Ok(Returned::Text(_))), "{from_text:?}");
    assert_eq!(from_text, from_bytes);
    let bad = call(&Sequential, index("txEffectsTreeRoot"), &[Arg::Bytes(b"[\xff]"), Arg::Absent])
        .expect_err("not UTF-8");
    assert_eq!(class_and_kind(&bad).1, "NotUtf8");
    assert!(bad.message().contains("body: not UTF-8: the byte at offset 1"), "{bad}");
    let protocol = call(&Sequential, index("txEffectsTreeRoot"), &[Arg::Text(body), Arg::Bytes(b"v6")])
        .expect_err("a protocol as bytes");
    assert_eq!(class_and_kind(&protocol).1, "Arguments");
}

/// A panic in the work is a `Backend` failure of kind `Panic` with its message, never an
/// unwind past the engine.
#[test]
fn a_panic_is_a_failure_of_kind_panic() {
    let error = caught::<String>(|| panic!("the work broke")).expect_err("a panic");
    assert_eq!(class_and_kind(&error), ("Backend".to_owned(), "Panic".to_owned()));
    assert!(error.message().contains("the work broke"), "{error}");
    let formatted = caught::<String>(|| panic!("{} broke", "the work")).expect_err("a panic");
    assert!(formatted.message().contains("the work broke"), "{formatted}");
    assert_eq!(caught(|| Ok(3)), Ok(3));
}

/// A promise is settled once: with its result, or, dropped unsettled, as `WorkerGone`.
#[test]
fn a_dropped_settlement_is_worker_gone() {
    let (sender, receiver) = std::sync::mpsc::channel();
    let settle = {
        let sender = sender.clone();
        Settle::new(move |result| sender.send(result).expect("send"))
    };
    settle.with(Ok("0x01".to_owned()));
    assert_eq!(receiver.try_recv(), Ok(Ok("0x01".to_owned())));
    assert!(receiver.try_recv().is_err(), "settled twice");
    drop(Settle::new(move |result| sender.send(result).expect("send")));
    let gone = receiver.try_recv().expect("settled on drop").expect_err("WorkerGone");
    assert_eq!(class_and_kind(&gone), ("Backend".to_owned(), "WorkerGone".to_owned()));
}

/// A refutation carries its link beside its class and kind; the message is text alone.
#[test]
fn a_refutation_names_its_link() {
    let body = include_str!("../../../testdata/blocks/three-fixtures.json");
    let witness =
        tx_effect_membership_witness(&Sequential, body, "1", Some(3), Some("azip-26")).expect("a witness");
    let subject = SubjectText { kind: "leaf", value: "0x01", categories_hash: None };
    let root = "0x0000000000000000000000000000000000000000000000000000000000000002";
    let error =
        verify_tx_effect_membership_witness(&Sequential, &witness, subject, root, None, Some("azip-26"))
            .expect_err("a leaf the witness does not hold");
    assert_eq!(error.class_name(), "Refuted", "{error}");
    assert!(error.link().is_some_and(|link| !link.is_empty()), "{error}");
    assert!(!error.message().starts_with('{'), "{error}");
}

/// A walk's deadline is the walk's default unless given, and a given one is a whole number of
/// milliseconds from 1 to the longest: `NaN`, a fraction, 0 and one past the longest are refused.
#[test]
fn a_walks_deadline_is_within_the_walks_limits() {
    let max = millis(txfx_walk::LIMITS.max_timeout);
    assert_eq!(walk_timeout(None), Ok(millis(txfx_walk::LIMITS.default_timeout)));
    assert_eq!(walk_timeout(Some("1")), Ok(1));
    assert_eq!(walk_timeout(Some(&max.to_string())), Ok(max));
    for bad in ["0", "NaN", "1.5", "-1", "", "Infinity", &(max + 1).to_string()] {
        let error = walk_timeout(Some(bad)).expect_err(bad);
        assert_eq!(class_and_kind(&error), ("OutOfRange".to_owned(), "Argument".to_owned()), "{bad}");
    }
}

/// A sibling path reads as the witness reader reads it, and a field element in decimal or
/// hex comes back in canonical hex (never reduced).
#[test]
fn sibling_paths_and_field_text_read_as_the_documents_do() {
    assert_eq!(decode_sibling_path("AAAAAA=="), Ok(Vec::new()));
    let kind = |text: &str| decode_sibling_path(text).map_err(|error| class_and_kind(&error));
    assert_eq!(kind("AAAAAQ=="), Err(("Malformed".to_owned(), "SiblingPath/Length".to_owned())));
    assert_eq!(kind("AAAAAQ="), Err(("Malformed".to_owned(), "NotBase64".to_owned())));
    let forty_two = format!("0x{:064x}", 42);
    assert_eq!(field_hex("x", "42"), Ok(forty_two.clone()));
    assert_eq!(field_hex("x", "0x2a"), Ok(forty_two));
    let modulus = "21888242871839275222246405745257275088548364400416034343698204186575808495617";
    let error = field_hex("x", modulus).expect_err("p");
    assert_eq!(class_and_kind(&error), ("OutOfRange".to_owned(), "NotCanonical".to_owned()));
    assert!(error.message().starts_with("x: "), "{error}");
}
