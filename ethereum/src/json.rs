//! The strict reading of JSON-RPC values: `0x`-hex data of exact lengths and canonical
//! quantities (the Ethereum JSON-RPC specification's `bytes` and `uint` forms).
//!
//! A member given twice is read as serde_json reads it (the last one). That gives no second
//! reading of anything trusted: every header field read is hashed to the block hash, and every
//! proof value proven against a root, so any other choice of duplicate would be refused.

use alloy_primitives::U256;
use serde_json::{Map, Value};

use crate::error::{EthereumError, Result};

/// Parses `text` as JSON after checking it is at most `max` bytes; `null` is refused as
/// [`EthereumError::NullResult`].
pub(crate) fn parse_bounded(text: &str, max: usize, what: &'static str) -> Result<Value> {
    if text.len() > max {
        return Err(EthereumError::TooLarge { what, len: text.len(), max });
    }
    let value: Value = serde_json::from_str(text)
        .map_err(|error| EthereumError::Json { what, message: error.to_string() })?;
    if value.is_null() {
        return Err(EthereumError::NullResult { what });
    }
    Ok(value)
}

/// The object `value` is, or an error naming `field`.
pub(crate) fn object<'a>(value: &'a Value, field: &str) -> Result<&'a Map<String, Value>> {
    value.as_object().ok_or_else(|| EthereumError::NotAnObject { field: field.to_owned() })
}

/// The array `value` is, or an error naming `field`.
pub(crate) fn array<'a>(value: &'a Value, field: &str) -> Result<&'a [Value]> {
    match value {
        Value::Array(items) => Ok(items),
        _ => Err(EthereumError::NotAnArray { field: field.to_owned() }),
    }
}

/// The member `name` of `object`, which must be present.
pub(crate) fn member<'a>(object: &'a Map<String, Value>, name: &str, path: &str) -> Result<&'a Value> {
    object.get(name).ok_or_else(|| EthereumError::MissingField { field: join(path, name) })
}

/// The string member `name` of `object`, which must be present.
pub(crate) fn string<'a>(object: &'a Map<String, Value>, name: &str, path: &str) -> Result<&'a str> {
    text(member(object, name, path)?, &join(path, name))
}

/// The string member `name` of `object`, if present (a `null` is not a string, and refused).
pub(crate) fn optional_string<'a>(
    object: &'a Map<String, Value>,
    name: &str,
    path: &str,
) -> Result<Option<&'a str>> {
    object.get(name).map(|value| text(value, &join(path, name))).transpose()
}

/// The string `value` is, or an error naming `field`.
pub(crate) fn text<'a>(value: &'a Value, field: &str) -> Result<&'a str> {
    value.as_str().ok_or_else(|| EthereumError::NotAString { field: field.to_owned() })
}

/// `path.name`, or `name` at the top.
pub(crate) fn join(path: &str, name: &str) -> String {
    if path.is_empty() { name.to_owned() } else { format!("{path}.{name}") }
}

/// The digits after `0x`, all hex.
fn digits<'a>(s: &'a str, field: &str) -> Result<&'a str> {
    let rest = s
        .strip_prefix("0x")
        .ok_or_else(|| EthereumError::NotHex { field: field.to_owned(), reason: "no 0x prefix" })?;
    if !rest.bytes().all(|byte| byte.is_ascii_hexdigit()) {
        return Err(EthereumError::NotHex { field: field.to_owned(), reason: "a non-hex digit" });
    }
    Ok(rest)
}

/// `0x`-hex data of any even number of digits, at most `max` bytes (`expected` says so in an error).
pub(crate) fn data(s: &str, field: &str, max: usize, expected: &'static str) -> Result<Vec<u8>> {
    let rest = digits(s, field)?;
    if rest.len() % 2 != 0 {
        return Err(EthereumError::NotHex { field: field.to_owned(), reason: "an odd number of digits" });
    }
    let len = rest.len() / 2;
    if len > max {
        return Err(EthereumError::WrongLength { field: field.to_owned(), len, expected });
    }
    alloy_primitives::hex::decode(rest)
        .map_err(|_| EthereumError::NotHex { field: field.to_owned(), reason: "not hex" })
}

/// `0x`-hex data of exactly `N` bytes.
pub(crate) fn fixed<const N: usize>(s: &str, field: &str, expected: &'static str) -> Result<[u8; N]> {
    let bytes = data(s, field, N, expected)?;
    let len = bytes.len();
    <[u8; N]>::try_from(bytes).map_err(|_| EthereumError::WrongLength {
        field: field.to_owned(),
        len,
        expected,
    })
}

/// A canonical quantity (`0x0`, `0x1a`: no leading zeros, at least one digit) of at most `bits`.
pub(crate) fn quantity(s: &str, field: &str, bits: u32) -> Result<U256> {
    let rest = digits(s, field)?;
    if rest.is_empty() || (rest.len() > 1 && rest.starts_with('0')) {
        return Err(EthereumError::NotCanonical { field: field.to_owned() });
    }
    let too_large = || EthereumError::QuantityTooLarge { field: field.to_owned(), bits };
    let value = U256::from_str_radix(rest, 16).map_err(|_| too_large())?;
    if value.bit_len() > bits as usize {
        return Err(too_large());
    }
    Ok(value)
}

/// A canonical quantity of at most 64 bits.
pub(crate) fn quantity_u64(s: &str, field: &str) -> Result<u64> {
    let value = quantity(s, field, 64)?;
    u64::try_from(value).map_err(|_| EthereumError::QuantityTooLarge { field: field.to_owned(), bits: 64 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantities_have_one_form() {
        assert_eq!(quantity("0x0", "f", 64), Ok(U256::ZERO));
        assert_eq!(quantity("0x1a", "f", 64), Ok(U256::from(26)));
        assert_eq!(quantity("0x1A", "f", 64), Ok(U256::from(26)));
        for bad in ["0x", "0x00", "0x01", "1a", "0x1g", "0X1"] {
            assert!(quantity(bad, "f", 64).is_err(), "{bad}");
        }
        assert!(quantity("0x10000000000000000", "f", 64).is_err());
        assert_eq!(quantity_u64("0xffffffffffffffff", "f"), Ok(u64::MAX));
    }

    #[test]
    fn data_has_exact_lengths() {
        assert_eq!(fixed::<2>("0xabcd", "f", "2"), Ok([0xab, 0xcd]));
        assert!(fixed::<2>("0xab", "f", "2").is_err());
        assert!(fixed::<2>("0xabcdef", "f", "2").is_err());
        assert!(data("0xabc", "f", 4, "4").is_err());
        assert_eq!(data("0x", "f", 4, "4"), Ok(Vec::new()));
    }

    #[test]
    fn null_and_oversized_texts_are_refused() {
        assert_eq!(parse_bounded("null", 10, "x"), Err(EthereumError::NullResult { what: "x" }));
        assert!(matches!(parse_bounded("[1,2,3]", 3, "x"), Err(EthereumError::TooLarge { .. })));
        assert!(matches!(parse_bounded("{", 10, "x"), Err(EthereumError::Json { .. })));
    }
}
