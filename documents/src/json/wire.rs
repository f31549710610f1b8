//! The JSON vocabulary every txfx document format shares, written once: a document given as text
//! or as an already parsed value, an object split into its keys (duplicate keys refused), the
//! one error for JSON that is not the expected shape, numbers that TypeScript prints as decimal
//! strings, and lists read no further than a cap.
//!
//! Every reader in txfx reads through [`JsonInput`], so a document reads the same whether a
//! command line gave its text or a JavaScript caller its parsed object.

use std::borrow::Cow;

use serde::de::{DeserializeOwned, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use serde_json::value::RawValue;

/// A document that is not the JSON this reader expects: what is wrong, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{}{message}{}", .expected.map(|what| format!("not {what}: ")).unwrap_or_default(), location(.path), position(*.line, *.column))]
pub struct Malformed {
    /// What the document was read as (`a stored block`, `a tx-effects witness`), when known.
    pub expected: Option<&'static str>,
    /// The JSON path of the value at fault (`txEffects[2].nullifiers[0]`); empty for the whole
    /// document.
    pub path: String,
    /// The line in the text (1-based), 0 when the document was given parsed, or the fault is not
    /// tied to a position.
    pub line: usize,
    /// The column in the text (1-based), 0 as for `line`.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// `path` inside `key` of an enclosing object (or element `key` of an enclosing array, given as
/// `[i]`): `key`, `key[i]` or `key.path`.
pub(crate) fn join_path(key: &str, path: &str) -> String {
    match (path.is_empty(), path.starts_with('[')) {
        (true, _) => key.to_owned(),
        (false, true) => format!("{key}{path}"),
        (false, false) => format!("{key}.{path}"),
    }
}

fn location(path: &str) -> String {
    if path.is_empty() { String::new() } else { format!("{path}: ") }
}

fn position(line: usize, column: usize) -> String {
    if line == 0 { String::new() } else { format!(" (line {line}, column {column})") }
}

impl Malformed {
    /// A fault of the whole document.
    pub fn new(message: impl Into<String>) -> Self {
        Self { expected: None, path: String::new(), line: 0, column: 0, message: message.into() }
    }

    /// A fault at `path`.
    pub fn at(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self { expected: None, path: path.into(), line: 0, column: 0, message: message.into() }
    }

    /// The same fault, in a document read as `what` (the outermost reader's name wins: the
    /// document the caller gave).
    #[must_use]
    pub fn expecting(mut self, what: &'static str) -> Self {
        self.expected = Some(what);
        self
    }

    /// The same fault, inside the value of `key` of an enclosing object (or element `key` of an
    /// enclosing array, given as `[i]`).
    #[must_use]
    pub fn within(mut self, key: &str) -> Self {
        self.path = join_path(key, &self.path);
        self
    }

    fn from_serde(path: String, error: &serde_json::Error) -> Self {
        // serde_json appends " at line L column C" to its message; the position has its own fields.
        let message = error.to_string();
        let message = match message.rfind(" at line ") {
            Some(at) if error.line() > 0 => message[..at].to_owned(),
            _ => message,
        };
        let path = if path == "." { String::new() } else { path };
        Self { expected: None, path, line: error.line(), column: error.column(), message }
    }
}

/// A JSON document: its text, or the value a caller already parsed (JavaScript bindings).
#[derive(Debug, Clone, Copy)]
pub enum JsonInput<'a> {
    /// JSON text.
    Text(&'a str),
    /// A parsed value.
    Value(&'a Value),
}

impl<'a> From<&'a str> for JsonInput<'a> {
    fn from(text: &'a str) -> Self {
        Self::Text(text)
    }
}

impl<'a> From<&'a String> for JsonInput<'a> {
    fn from(text: &'a String) -> Self {
        Self::Text(text)
    }
}

impl<'a> From<&'a Value> for JsonInput<'a> {
    fn from(value: &'a Value) -> Self {
        Self::Value(value)
    }
}

/// What kind of JSON value a document is, for choosing among shapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonKind {
    /// `{...}`.
    Object,
    /// `[...]`.
    Array,
    /// A string.
    String,
    /// Anything else: a number, `true`, `false`, `null`.
    Other,
}

impl<'a> JsonInput<'a> {
    /// Reads the document as `T`, naming the path of the first fault. Duplicate keys of `T`'s
    /// fields are refused (serde's derive does).
    ///
    /// # Errors
    /// [`Malformed`] for text that is not JSON or a value that is not `T`.
    pub fn parse<T: DeserializeOwned>(self) -> Result<T, Malformed> {
        match self {
            Self::Text(text) => {
                let mut deserializer = serde_json::Deserializer::from_str(text);
                let value = serde_path_to_error::deserialize(&mut deserializer)
                    .map_err(|e| Malformed::from_serde(e.path().to_string(), e.inner()))?;
                deserializer.end().map_err(|e| Malformed::from_serde(String::new(), &e))?;
                Ok(value)
            }
            Self::Value(value) => serde_path_to_error::deserialize(value)
                .map_err(|e| Malformed::from_serde(e.path().to_string(), e.inner())),
        }
    }

    /// The kind of value the document is (for text: from its first character, after checking
    /// nothing; a malformed text fails when it is read).
    pub fn kind(self) -> JsonKind {
        match self {
            Self::Text(text) => match text.trim_start().chars().next() {
                Some('{') => JsonKind::Object,
                Some('[') => JsonKind::Array,
                Some('"') => JsonKind::String,
                _ => JsonKind::Other,
            },
            Self::Value(Value::Object(_)) => JsonKind::Object,
            Self::Value(Value::Array(_)) => JsonKind::Array,
            Self::Value(Value::String(_)) => JsonKind::String,
            Self::Value(_) => JsonKind::Other,
        }
    }

    /// The document as an object: its keys, each with its value as a document of its own. The
    /// whole text is checked to be JSON; a key given twice is refused (a reader that keeps the
    /// first and one that keeps the last would read two documents).
    ///
    /// # Errors
    /// [`Malformed`] for text that is not JSON, a value that is not an object, or a duplicate key.
    pub fn object(self) -> Result<JsonObject<'a>, Malformed> {
        match self {
            Self::Text(text) => {
                let mut deserializer = serde_json::Deserializer::from_str(text);
                let Entries(entries) = Entries::deserialize(&mut deserializer)
                    .and_then(|entries| deserializer.end().map(|()| entries))
                    .map_err(|e| Malformed::from_serde(String::new(), &e))?;
                if let Some(key) = duplicate(entries.iter().map(|(key, _)| key.as_ref())) {
                    return Err(Malformed::new(format!("key {key:?} is given twice")));
                }
                Ok(JsonObject {
                    entries: entries
                        .into_iter()
                        .map(|(key, raw)| (key.into_owned(), JsonInput::Text(raw.get())))
                        .collect(),
                })
            }
            Self::Value(Value::Object(map)) => Ok(JsonObject {
                entries: map.iter().map(|(key, value)| (key.clone(), JsonInput::Value(value))).collect(),
            }),
            Self::Value(other) => {
                Err(Malformed::new(format!("expected a JSON object, got {}", kind_name(other))))
            }
        }
    }

    /// The document as an array of documents, at most `max` of them: reading stops past the cap.
    ///
    /// # Errors
    /// [`Malformed`] for text that is not JSON, a value that is not an array, or more than `max`
    /// elements.
    pub fn array(self, max: usize) -> Result<Vec<JsonInput<'a>>, Malformed> {
        let too_many = || Malformed::new(format!("more than {max} elements, the most this list can hold"));
        match self {
            Self::Text(text) => {
                let mut deserializer = serde_json::Deserializer::from_str(text);
                let items = deserialize_at_most::<_, &RawValue>(&mut deserializer, max)
                    .and_then(|items| deserializer.end().map(|()| items))
                    .map_err(|e| Malformed::from_serde(String::new(), &e))?;
                Ok(items.into_iter().map(|raw| JsonInput::Text(raw.get())).collect())
            }
            Self::Value(Value::Array(items)) if items.len() > max => Err(too_many()),
            Self::Value(Value::Array(items)) => Ok(items.iter().map(JsonInput::Value).collect()),
            Self::Value(other) => {
                Err(Malformed::new(format!("expected a JSON array, got {}", kind_name(other))))
            }
        }
    }
}

fn kind_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The first key given twice.
fn duplicate<'k>(keys: impl Iterator<Item = &'k str>) -> Option<&'k str> {
    let mut seen = std::collections::BTreeSet::new();
    keys.into_iter().find(|key| !seen.insert(*key))
}

/// An object's entries, in order, with their values unparsed.
struct Entries<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'de> Deserialize<'de> for Entries<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntriesVisitor;
        impl<'de> Visitor<'de> for EntriesVisitor {
            type Value = Entries<'de>;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<Cow<'de, str>, &'de RawValue>()? {
                    entries.push(entry);
                }
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(EntriesVisitor)
    }
}

/// An object's keys in order, each with its value as a document.
#[derive(Debug, Clone)]
pub struct JsonObject<'a> {
    entries: Vec<(String, JsonInput<'a>)>,
}

impl<'a> JsonObject<'a> {
    /// The value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<JsonInput<'a>> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, value)| *value)
    }

    /// Whether `key` is present.
    pub fn has(&self, key: &str) -> bool {
        self.entries.iter().any(|(k, _)| k == key)
    }

    /// The keys, in document order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(key, _)| key.as_str())
    }

    /// The keys of `keys` that are present, in `keys`' order.
    pub fn present<'k>(&self, keys: &[&'k str]) -> Vec<&'k str> {
        keys.iter().copied().filter(|key| self.has(key)).collect()
    }

    /// The value of `key`, parsed as `T`; the error's path starts at `key`.
    ///
    /// # Errors
    /// [`Malformed`] if `key` is missing or its value is not a `T`.
    pub fn parse<T: DeserializeOwned>(&self, key: &str) -> Result<T, Malformed> {
        self.get(key)
            .ok_or_else(|| Malformed::new(format!("missing key {key:?}")))?
            .parse()
            .map_err(|error| error.within(key))
    }

    /// Refuses every key not in `known`: the formats txfx defines are strict, so that a key a
    /// reader would skip cannot look checked.
    ///
    /// # Errors
    /// [`Malformed`] naming the first unknown key.
    pub fn only(&self, known: &[&str]) -> Result<(), Malformed> {
        match self.keys().find(|key| !known.contains(key)) {
            Some(key) => {
                Err(Malformed::new(format!("unknown key {key:?} (expected only {})", known.join(", "))))
            }
            None => Ok(()),
        }
    }
}

/// Deserializes at most `max` elements of a JSON array, refusing the first one past the cap
/// before reading it.
///
/// # Errors
/// A non-array, an element that is not a `T`, or more than `max` elements.
pub fn deserialize_at_most<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
    max: usize,
) -> Result<Vec<T>, D::Error> {
    struct Capped<T> {
        max: usize,
        item: core::marker::PhantomData<T>,
    }
    impl<'de, T: Deserialize<'de>> Visitor<'de> for Capped<T> {
        type Value = Vec<T>;
        fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            write!(f, "an array of at most {} elements", self.max)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            // Never trust a size hint from the input for the allocation.
            let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024).min(self.max));
            loop {
                if out.len() == self.max {
                    return match seq.next_element::<serde::de::IgnoredAny>()? {
                        None => Ok(out),
                        Some(_) => Err(serde::de::Error::custom(format!(
                            "more than {} elements, the most this list can hold",
                            self.max
                        ))),
                    };
                }
                match seq.next_element()? {
                    Some(item) => out.push(item),
                    None => return Ok(out),
                }
            }
        }
    }
    deserializer.deserialize_seq(Capped { max, item: core::marker::PhantomData })
}

/// An unsigned integer as TypeScript prints a bigint (a decimal string) or as a JSON number:
/// `"42"` or `42`. Only decimal digits are read: no sign, no spaces, no hex, no exponent, no
/// fraction; a value above `max` is refused, never truncated.
struct Decimal {
    max: u128,
    bits: u32,
}

impl Decimal {
    fn parse(&self, text: &str) -> Result<u128, String> {
        let digits_only = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        match text.parse::<u128>() {
            Ok(value) if digits_only && value <= self.max => Ok(value),
            _ => Err(format!("{text:?} is not a decimal integer of at most {} bits", self.bits)),
        }
    }
}

impl<'de> Visitor<'de> for Decimal {
    type Value = u128;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a non-negative integer of at most {} bits (a JSON number or a decimal string)", self.bits)
    }
    fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<u128, E> {
        if u128::from(value) <= self.max {
            Ok(u128::from(value))
        } else {
            Err(E::custom(format!("{value} does not fit {} bits", self.bits)))
        }
    }
    fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<u128, E> {
        match u64::try_from(value) {
            Ok(value) => self.visit_u64(value),
            Err(_) => Err(E::custom(format!("{value} is negative"))),
        }
    }
    fn visit_f64<E: serde::de::Error>(self, value: f64) -> Result<u128, E> {
        // serde_json gives integers beyond 64 bits as f64: never read one inexactly.
        Err(E::custom(if value.fract() != 0.0 || !value.is_finite() {
            format!("{value} is not an integer")
        } else if value < 0.0 {
            format!("{value} is negative")
        } else if self.bits <= 64 {
            format!("{value} does not fit {} bits", self.bits)
        } else {
            format!("{value} is beyond what a JSON number holds exactly; give it as a decimal string")
        }))
    }
    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<u128, E> {
        self.parse(text).map_err(E::custom)
    }
}

/// A u64 as TypeScript prints a bigint (a decimal string) or as a JSON number: `"42"` or `42`.
/// Only decimal digits are read: no sign, no spaces, no hex, no exponent, no fraction.
pub mod lenient_u64 {
    use super::{Decimal, Deserializer};

    const DECIMAL: Decimal = Decimal { max: u64::MAX as u128, bits: 64 };

    /// Reads a JSON number or a string of decimal digits that fits 64 bits.
    ///
    /// # Errors
    /// Anything else, with a message saying why.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
        let value = deserializer.deserialize_any(DECIMAL)?;
        u64::try_from(value).map_err(|_| serde::de::Error::custom(format!("{value} does not fit 64 bits")))
    }
}

/// A u128 (a fee) as TypeScript prints a bigint (a decimal string) or as a JSON number.
pub mod lenient_u128 {
    use super::{Decimal, Deserializer};

    /// Reads a JSON number or a string of decimal digits that fits 128 bits.
    ///
    /// # Errors
    /// Anything else, with a message saying why.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u128, D::Error> {
        deserializer.deserialize_any(Decimal { max: u128::MAX, bits: 128 })
    }
}

/// A block number as TypeScript prints it (a JSON number) and reads it (a number or a string of
/// decimal digits, below 2^32).
pub mod block_number {
    use serde::{Deserializer, Serializer};
    use txfx_tx_effects::BlockNumber;

    /// Prints a JSON number.
    ///
    /// # Errors
    /// Whatever the serializer reports.
    pub fn serialize<S: Serializer>(value: &BlockNumber, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u32(value.get())
    }

    /// Reads a number or a decimal string below 2^32.
    ///
    /// # Errors
    /// Anything else.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<BlockNumber, D::Error> {
        let value = super::lenient_u64::deserialize(deserializer)?;
        BlockNumber::try_from(value).map_err(serde::de::Error::custom)
    }
}

/// Prints a number as a decimal string (how TypeScript prints a bigint).
///
/// # Errors
/// Whatever the serializer reports.
pub fn decimal_string<S: serde::Serializer, T: ToString>(
    value: &T,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_keys_are_refused_in_text() {
        let error = JsonInput::Text(r#"{"a": 1, "b": 2, "a": 3}"#).object().unwrap_err();
        assert_eq!(error.message, "key \"a\" is given twice");
        let object = JsonInput::Text(r#"{"a": {"x": [1, 2]}, "b": "t"}"#).object().expect("an object");
        assert_eq!(object.keys().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(object.parse::<String>("b").expect("a string"), "t");
        let error = object.parse::<u64>("a").unwrap_err();
        assert_eq!(error.path, "a");
    }

    #[test]
    fn capped_arrays_stop_at_the_cap() {
        assert_eq!(JsonInput::Text("[1, 2, 3]").array(3).expect("three").len(), 3);
        let error = JsonInput::Text("[1, 2, 3, 4]").array(3).unwrap_err();
        assert!(error.message.contains("more than 3"), "{error}");
        let value = serde_json::json!([1, 2, 3, 4]);
        assert!(JsonInput::Value(&value).array(3).is_err());
    }

    #[test]
    fn lenient_numbers_take_only_decimal_digits() {
        let read = |text: &str| {
            let mut de = serde_json::Deserializer::from_str(text);
            lenient_u64::deserialize(&mut de).map_err(|e| e.to_string())
        };
        assert_eq!(read("\"42\""), Ok(42));
        for bad in ["", "-1", "+1", " 1", "0x10", "1e3", "1.0", "18446744073709551616"] {
            assert!(read(&format!("{bad:?}")).is_err(), "{bad:?}");
        }
        assert_eq!(read("42"), Ok(42));
        assert_eq!(read("\"18446744073709551615\""), Ok(u64::MAX));
        assert!(read("-1").unwrap_err().contains("-1 is negative"));
        assert!(read("1.5").unwrap_err().contains("1.5 is not an integer"));
        assert!(read("18446744073709551616").unwrap_err().contains("does not fit 64 bits"));
        assert!(read("true").unwrap_err().contains("a non-negative integer of at most 64 bits"));
        let mut de = serde_json::Deserializer::from_str("\"340282366920938463463374607431768211455\"");
        assert_eq!(lenient_u128::deserialize(&mut de).map_err(|e| e.to_string()), Ok(u128::MAX));
    }

    #[test]
    fn paths_nest() {
        let error = Malformed::at("[2]", "bad").within("txEffects").within("body");
        assert_eq!(error.path, "body.txEffects[2]");
        assert_eq!(error.to_string(), "body.txEffects[2]: bad");
    }
}
