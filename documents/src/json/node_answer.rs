//! Parts of v6's node answers that txfx checks against v6's own schemas but does not keep: a
//! block response's `l1` publish info and `attestations`, and a mined receipt's `debugLogs`.
//!
//! None of them is a claim a verdict rests on (L1 facts come from L1, attestations are not
//! verified, debug logs are a test node's printout), so reading drops them; but a document v6
//! refuses is refused, so each is read as v6's schema reads it (`aztec-labs-eng/aztec-node`,
//! `yarn-project/stdlib/src/`: `interfaces/l1_publish_info.ts` `L1PublishInfoSchema`,
//! `block/proposal/committee_attestation.ts` `CommitteeAttestation.schema`, `logs/debug_log.ts`
//! `DebugLog.schema`; commits in `testdata/README.md`):
//!
//! | key | v6's schema | txfx reads |
//! |---|---|---|
//! | `l1` | `{published: false}`, or `{published: true, blockNumber, timestamp, blockHash}` (two bigints, a string); other keys ignored | the same, the bigints as `schemas.BigInt` everywhere else |
//! | `attestations` | an array of `{address: EthAddress, signature: Signature}` | the same, at most [`MAX_COMMITTEE_SIZE`] |
//! | `debugLogs` | an array of `{contractAddress: AztecAddress, level: LogLevel, message: string, fields: Fr[]}` | the same, at most [`MAX_DEBUG_LOG_FIELDS`] fields in all, the address in the hex form a node prints |
//!
//! Where v6's schemas are more lenient than txfx reads anywhere (a negative or `"0x"` bigint, an
//! `AztecAddress` given as base64 or as `{type: "Buffer", data}`), txfx refuses, as docs/spec.md
//! §12.1 says; it never reads a value v6 would read otherwise.

use super::error::JsonError;
use super::fields::field;
use super::header::read_eth_address;
use super::wire::{Integer, Raw};
use txfx_poseidon::field::parse_fr_hex;

/// The most attestations a block's checkpoint has: one per committee member, and a committee
/// is at most 2048, the "theoretical max from bitmap design (256 bytes × 8 bits)" of stdlib's
/// `deserialization/index.ts` (`MAX_COMMITTEE_SIZE`), the cap v6 reads a checkpoint's
/// attestations with.
pub const MAX_COMMITTEE_SIZE: usize = 2048;

/// The most fields a receipt's debug logs hold together: each is a memory read of the AVM's
/// `DEBUGLOG`, which stops a tx at the node's `maxDebugLogMemoryReads`, by default
/// `DEFAULT_MAX_DEBUG_LOG_MEMORY_READS` = 125000 (`@aztec/constants`). A node configured above
/// the default answers receipts txfx refuses. It also caps the number of logs.
pub const MAX_DEBUG_LOG_FIELDS: usize = 125_000;

/// `schemas.BigInt` (an L1 block number or timestamp), as txfx reads it everywhere: a number up
/// to 2^53 − 1 or a decimal string.
const BIG_INT: Integer = Integer::lenient(u128::MAX);

/// v6's log levels (`LogLevels` of `@aztec/foundation`'s `log/log-levels`, unchanged from
/// 4.1.2).
const LOG_LEVELS: [&str; 8] = ["silent", "fatal", "error", "warn", "info", "verbose", "debug", "trace"];

fn bad(raw: Raw<'_>, expected: &'static str, value: &str) -> JsonError {
    JsonError::from(raw.bad_value(expected, value))
}

/// Checks a block response's `l1` as `L1PublishInfoSchema` reads it: a union routed by
/// `published`, the literal `false` or `true`.
pub(crate) fn check_l1_publish_info(raw: Raw<'_>) -> Result<(), JsonError> {
    let object = raw.object("L1 publish info", &["published", "blockNumber", "timestamp", "blockHash"])?;
    let published = object.read("published", |raw| match raw.text() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(JsonError::from(raw.wrong_type("a boolean (published)"))),
    })?;
    // `{published: false}` takes nothing else: the other keys are not its, and zod drops them.
    if published {
        object.read("blockNumber", |r| r.integer(BIG_INT).map(drop).map_err(JsonError::from))?;
        object.read("timestamp", |r| r.integer(BIG_INT).map(drop).map_err(JsonError::from))?;
        object.read("blockHash", |r| r.string().map(drop).map_err(JsonError::from))?;
    }
    Ok(())
}

/// An ECDSA signature as `Signature.schema` reads it: `0x` (lower case), then at least 129 hex
/// digits of either case (`r`, `s` and `v` in hex; the schema sets no longest).
fn check_signature(raw: Raw<'_>) -> Result<(), JsonError> {
    let text = raw.string()?;
    let digits = text.strip_prefix("0x");
    match digits {
        Some(digits) if digits.len() >= 129 && digits.bytes().all(|b| b.is_ascii_hexdigit()) => Ok(()),
        _ => Err(bad(raw, "a signature (0x and at least 129 hex digits)", &text)),
    }
}

/// Checks a block response's `attestations`: at most [`MAX_COMMITTEE_SIZE`] of
/// `{address, signature}`, both required, other keys ignored.
pub(crate) fn check_attestations(raw: Raw<'_>) -> Result<(), JsonError> {
    raw.items(MAX_COMMITTEE_SIZE, "a committee's attestations", |raw| {
        let object = raw.object("an attestation", &["address", "signature"])?;
        object.read("address", read_eth_address)?;
        object.read("signature", check_signature)
    })
    .map(drop)
}

/// An `AztecAddress` in the form a node prints it: `0x` (optional) and exactly 64 hex digits,
/// below p (`AztecAddress.isAddress`, then a field element).
fn check_aztec_address(raw: Raw<'_>) -> Result<(), JsonError> {
    let text = raw.string()?;
    let digits = text.strip_prefix("0x").unwrap_or(&text);
    if digits.len() != 64 {
        return Err(bad(raw, "an Aztec address (0x and 64 hex digits)", &text));
    }
    parse_fr_hex(&format!("0x{digits}"))
        .map(drop)
        .map_err(|source| JsonError::Field { path: String::new(), source })
}

/// Checks a mined receipt's `debugLogs`: an array of `{contractAddress, level, message, fields}`,
/// every key required, at most [`MAX_DEBUG_LOG_FIELDS`] fields in all the logs (and so at most
/// that many logs), read no further than one past it.
pub(crate) fn check_debug_logs(raw: Raw<'_>) -> Result<(), JsonError> {
    let mut left = MAX_DEBUG_LOG_FIELDS;
    raw.items(MAX_DEBUG_LOG_FIELDS, "a receipt's debug logs", |raw| {
        let object = raw.object("a debug log", &["contractAddress", "level", "message", "fields"])?;
        object.read("contractAddress", check_aztec_address)?;
        object.read("level", |raw| {
            let level = |name: &str| LOG_LEVELS.contains(&name).then_some(());
            Ok::<_, JsonError>(
                raw.named("a log level (silent, fatal, error, warn, info, verbose, debug, trace)", level)?,
            )
        })?;
        object.read("message", |r| r.string().map(drop).map_err(JsonError::from))?;
        let fields = object.read("fields", |r| r.items(left, "a receipt's debug logs' fields", field))?;
        left -= fields.len();
        Ok::<_, JsonError>(())
    })
    .map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::wire::JsonInput;

    fn check(text: &str, checker: fn(Raw<'_>) -> Result<(), JsonError>) -> Result<(), String> {
        JsonInput::Text(text).read(checker).map_err(|error| error.to_string())
    }

    #[test]
    fn publish_info_is_a_union_routed_by_published() {
        assert!(check(r#"{"published": false}"#, check_l1_publish_info).is_ok());
        assert!(check(r#"{"published": false, "blockNumber": "x"}"#, check_l1_publish_info).is_ok());
        let full = r#"{"published": true, "blockNumber": "12", "timestamp": 7, "blockHash": "0xab"}"#;
        assert!(check(full, check_l1_publish_info).is_ok());
        for bad in [
            r#"{"published": true}"#,
            r#"{"published": true, "blockNumber": "12", "timestamp": 7, "blockHash": 5}"#,
            r#"{"published": true, "blockNumber": 1.5, "timestamp": 7, "blockHash": ""}"#,
            r#"{"published": "false"}"#,
            r#"{}"#,
            r#"[false]"#,
            "null",
        ] {
            assert!(check(bad, check_l1_publish_info).is_err(), "{bad}");
        }
    }

    #[test]
    fn attestations_need_an_address_and_a_signature() {
        let signature = format!("0x{}1c", "ab".repeat(64));
        let one = format!(r#"[{{"address": "0x{}", "signature": "{signature}"}}]"#, "0".repeat(40));
        assert!(check(&one, check_attestations).is_ok());
        let short = one.replace("1c\"", "\"");
        assert!(check(&short, check_attestations).is_err(), "128 hex digits");
        assert!(check(&one.replace("\"0x00", "\"0X00"), check_attestations).is_err());
        assert!(check(&one.replace(r#""signature""#, r#""sig""#), check_attestations).is_err());
        let many = format!("[{}]", vec!["{}"; MAX_COMMITTEE_SIZE + 1].join(","));
        let error = check(&many, check_attestations).unwrap_err();
        assert!(error.contains("more than 2048"), "{error}");
    }

    #[test]
    fn debug_logs_are_read_as_their_schema_and_capped_in_fields() {
        let log = |level: &str, fields: &str| {
            format!(
                r#"{{"contractAddress": "0x{}", "level": "{level}", "message": "m", "fields": [{fields}]}}"#,
                "1".repeat(64)
            )
        };
        assert!(check(&format!("[{}]", log("debug", "\"0x01\"")), check_debug_logs).is_ok());
        assert!(check(&format!("[{}]", log("loud", "")), check_debug_logs).is_err());
        assert!(check(&format!("[{}]", log("info", "1")), check_debug_logs).is_err(), "a number");
        let split = vec!["\"0x0\""; MAX_DEBUG_LOG_FIELDS / 2 + 1].join(",");
        let two = format!("[{},{}]", log("info", &split), log("info", &split));
        let error = check(&two, check_debug_logs).unwrap_err();
        assert!(error.contains("more than"), "{error}");
    }
}
