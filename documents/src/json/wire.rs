//! txfx's JSON reader: the one way every document is read, written once.
//!
//! Every format reads its document through this module, shape by shape, as Aztec's TypeScript
//! reads it (`JSON.parse`, then a zod schema), and never otherwise:
//! - **an object is only an object**: where a shape is an object, a JSON array of its values is
//!   refused (serde's derived readers take one, `z.object` never does);
//! - **numbers are what JavaScript reads**: a JSON number is read only up to 2^53 − 1, the largest
//!   integer `JSON.parse` keeps exactly, and only in integer form; beyond it a value is a decimal
//!   string, where the shape allows one;
//! - **bounds before work**: a list is read no further than one element past its cap, an object's
//!   keys are kept only when the shape reads them (an unknown key is skipped, never stored; a key
//!   the shape reads is refused when given twice), and nesting is limited;
//! - **typed faults**: every fault is a [`Malformation`] at a JSON path, with the line and column
//!   in the text, quoting at most [`QUOTE_CHARS`] characters of an offending value.
//!
//! A document is first checked to be JSON as a whole and indexed ([`super::scan`]: one pass,
//! iterative, no recursion), so a syntax error is reported as one before any shape is; the
//! shapes then read its values ([`Raw`]) by walking the index, each byte scanned once. A document given as a parsed [`serde_json::Value`] is read as its JSON text, so the
//! two forms cannot read differently.

use std::borrow::Cow;

use serde_json::Value;

use super::fault::{JsonType, Locate, Malformation, Malformed, NumberProblem, Quoted, Within};
use super::scan::{Index, Node, decode_string, type_of_byte};

/// The largest integer a JSON number may carry: `Number.MAX_SAFE_INTEGER`, 2^53 − 1. Above it,
/// `JSON.parse` reads a neighbouring value.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;
/// A JSON document: its text, or the value a caller already parsed, which is read as its JSON
/// text (so that the two forms read the same).
#[derive(Debug, Clone, Copy)]
pub enum JsonInput<'a> {
    /// JSON text.
    Text(&'a str),
    /// A parsed value.
    Value(&'a Value),
    /// A value a printer gave (read back, as its JSON text).
    Printed(&'a super::ordered::Json),
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

impl<'a> From<&'a super::ordered::Json> for JsonInput<'a> {
    fn from(value: &'a super::ordered::Json) -> Self {
        Self::Printed(value)
    }
}

impl JsonInput<'_> {
    /// Reads the document with `read`, which gets the document's value once the whole text is
    /// known to be JSON; a fault's position is then given as a line and column of the text (or
    /// none, for a parsed value).
    pub(crate) fn read<T, E: From<Malformed> + Locate>(
        self,
        read: impl FnOnce(Raw<'_>) -> Result<T, E>,
    ) -> Result<T, E> {
        match self {
            Self::Text(text) => {
                let result = Index::build(text).map_err(E::from).and_then(|index| read(index.root()));
                result.map_err(|mut error| {
                    if let Some(malformed) = error.malformed_mut() {
                        malformed.locate(text);
                    }
                    error
                })
            }
            Self::Value(_) | Self::Printed(_) => {
                let text = self.to_text();
                let result = Index::build(&text).map_err(E::from).and_then(|index| read(index.root()));
                result.map_err(|mut error| {
                    if let Some(malformed) = error.malformed_mut() {
                        malformed.unlocate();
                    }
                    error
                })
            }
        }
    }

    /// The type of the document's value (for text: from its first character, after checking
    /// nothing; a malformed text fails when it is read).
    pub fn kind(self) -> Option<JsonType> {
        match self {
            Self::Text(text) => {
                type_of_byte(text.trim_start_matches([' ', '\t', '\n', '\r']).bytes().next()?)
            }
            Self::Value(value) => Some(match value {
                Value::Object(_) => JsonType::Object,
                Value::Array(_) => JsonType::Array,
                Value::String(_) => JsonType::String,
                Value::Number(_) => JsonType::Number,
                Value::Bool(_) => JsonType::Bool,
                Value::Null => JsonType::Null,
            }),
            Self::Printed(json) => Some(match json {
                super::ordered::Json::Object(_) => JsonType::Object,
                super::ordered::Json::Array(_) => JsonType::Array,
                super::ordered::Json::String(_) => JsonType::String,
                super::ordered::Json::Number(_) => JsonType::Number,
                super::ordered::Json::Bool(_) => JsonType::Bool,
                super::ordered::Json::Null => JsonType::Null,
            }),
        }
    }

    /// The document as JSON text (a parsed or printed value printed compactly).
    fn to_text(self) -> String {
        match self {
            Self::Text(text) => text.to_owned(),
            Self::Value(value) => value.to_string(),
            Self::Printed(json) => json.to_string(),
        }
    }
}

/// One JSON value of a document that is known to be JSON: the document's text and the value's
/// span in it (no white space around).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Raw<'a> {
    text: &'a str,
    /// The value's entry in the document's index, then every entry after it.
    nodes: &'a [Node],
}

/// What a number key takes: the largest value, and whether a decimal string is read too (as
/// TypeScript's schemas for bigints and lenient integers read one), and a `0x`-hex one.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Integer {
    /// The largest value.
    pub max: u128,
    /// Whether a string of decimal digits is read too.
    pub strings: bool,
    /// Whether a string may also be `0x` and hex digits (either case).
    pub hex: bool,
}

impl Integer {
    /// A JSON number only, at most `max`.
    pub const fn number(max: u128) -> Self {
        Self { max, strings: false, hex: false }
    }

    /// A JSON number or a string of decimal digits, at most `max`.
    pub const fn lenient(max: u128) -> Self {
        Self { max, strings: true, hex: false }
    }

    /// A JSON number, a string of decimal digits or a string of `0x` and hex digits, at most
    /// `max`: the forms a node prints of a value its schema coerces with JavaScript's `Number()`
    /// (`SlotNumberSchema`, which reads the `0x`-hex of `new Fr(slot)`). The other strings
    /// `Number()` takes (`""`, `" 7"`, `"1e3"`, `"0b101"`) are refused (docs/spec.md §12.1).
    pub const fn coerced(max: u128) -> Self {
        Self { max, strings: true, hex: true }
    }
}

impl Index<'_> {
    /// The document's value.
    pub(crate) fn root(&self) -> Raw<'_> {
        Raw { text: self.text, nodes: &self.nodes }
    }
}

impl<'a> Raw<'a> {
    /// The value's span in the text.
    fn span(self) -> (usize, usize) {
        self.nodes.first().map_or((0, 0), |node| (node.start as usize, node.end as usize))
    }

    fn start(self) -> usize {
        self.span().0
    }

    /// The values a container holds (an object's keys and values in turn), each found in the
    /// index: a nested container is stepped over by a search for the first entry past its end.
    fn children(self) -> impl Iterator<Item = Raw<'a>> {
        let (text, end) = (self.text, self.span().1);
        let mut rest = self.nodes.get(1..).unwrap_or_default();
        std::iter::from_fn(move || {
            let first = *rest.first()?;
            if first.start as usize >= end {
                return None;
            }
            let child = Raw { text, nodes: rest };
            let entries = match child.kind() {
                JsonType::Object | JsonType::Array => rest.partition_point(|node| node.start < first.end),
                _ => 1,
            };
            rest = rest.get(entries..).unwrap_or_default();
            Some(child)
        })
    }

    /// The value's JSON type.
    pub fn kind(self) -> JsonType {
        self.text.as_bytes().get(self.start()).copied().and_then(type_of_byte).unwrap_or(JsonType::Null)
    }

    /// The value's JSON text.
    pub fn text(self) -> &'a str {
        let (start, end) = self.span();
        self.text.get(start..end).unwrap_or_default()
    }

    /// The fault `kind` at this value.
    pub fn fault(self, kind: Malformation) -> Malformed {
        Malformed::at(self.start(), kind)
    }

    /// A value of another type than `expected` names.
    pub fn wrong_type(self, expected: &'static str) -> Malformed {
        self.fault(Malformation::WrongType { expected, got: self.kind() })
    }

    fn expect_type(self, kind: JsonType, expected: &'static str) -> Result<(), Malformed> {
        if self.kind() == kind { Ok(()) } else { Err(self.wrong_type(expected)) }
    }

    /// The value as an object whose keys of interest are `keys` (`expected` names the object in
    /// a message: `an object`, `a tx effect`).
    ///
    /// Only those keys are kept; any other is skipped, the first one remembered for
    /// [`Object::strict`]. A key of `keys` given twice is refused.
    pub fn object(self, expected: &'static str, keys: &[&'static str]) -> Result<Object<'a>, Malformed> {
        self.expect_type(JsonType::Object, expected)?;
        let mut object =
            Object { raw: self, keys: keys.to_vec(), values: vec![None; keys.len()], unknown: None };
        let mut children = self.children();
        while let (Some(key), Some(value)) = (children.next(), children.next()) {
            let key_start = key.start();
            let (start, end) = key.span();
            let name = decode_string(self.text.get(start + 1..end.saturating_sub(1)).unwrap_or_default());
            match keys.iter().position(|known| *known == name) {
                Some(index) => {
                    let (Some(slot), Some(known)) = (object.values.get_mut(index), keys.get(index)) else {
                        return Err(key.fault(Malformation::Syntax { detail: "a key" }));
                    };
                    if slot.is_some() {
                        return Err(Malformed::at(key_start, Malformation::DuplicateKey { key: known }));
                    }
                    *slot = Some(value);
                }
                None if object.unknown.is_none() => object.unknown = Some((Quoted::new(&name), key_start)),
                None => {}
            }
        }
        Ok(object)
    }

    /// The value as an array of at most `max` values (`what` names the list in a message):
    /// reading stops at the first element past the cap.
    pub fn array(self, max: usize, what: &'static str) -> Result<Vec<Raw<'a>>, Malformed> {
        self.expect_type(JsonType::Array, "an array")?;
        let mut items = Vec::new();
        for item in self.children() {
            if items.len() == max {
                return Err(item.fault(Malformation::TooMany { max, what }));
            }
            items.push(item);
        }
        Ok(items)
    }

    /// Each element of the value as an array of at most `max`, read with `read`; a fault inside
    /// element `i` gains the path `[i]`.
    pub fn items<T, E: From<Malformed> + Within>(
        self,
        max: usize,
        what: &'static str,
        mut read: impl FnMut(Raw<'a>) -> Result<T, E>,
    ) -> Result<Vec<T>, E> {
        self.array(max, what)?
            .into_iter()
            .enumerate()
            .map(|(index, item)| read(item).map_err(|error| error.within(&format!("[{index}]"))))
            .collect()
    }

    /// The value as a string.
    pub fn string(self) -> Result<Cow<'a, str>, Malformed> {
        self.expect_type(JsonType::String, "a string")?;
        let (start, end) = self.span();
        Ok(decode_string(self.text.get(start + 1..end.saturating_sub(1)).unwrap_or_default()))
    }

    /// The value as a name of one of a few values (an enum's variant, a status, a role), read by
    /// `parse` (`None` for a name it does not know); `expected` names the values in a message.
    pub fn named<T>(
        self,
        expected: &'static str,
        parse: impl FnOnce(&str) -> Option<T>,
    ) -> Result<T, Malformed> {
        let name = self.string()?;
        parse(&name).ok_or_else(|| self.bad_value(expected, &name))
    }

    /// The fault of a string `value` at this value that is not what the key takes (`expected`).
    pub fn bad_value(self, expected: &'static str, value: &str) -> Malformed {
        self.fault(Malformation::BadValue { expected, value: Quoted::new(value) })
    }

    /// Whether the value is `null`.
    pub fn is_null(self) -> bool {
        self.kind() == JsonType::Null
    }

    /// The value as a non-negative integer: a JSON number in integer form up to
    /// [`MAX_SAFE_INTEGER`] (and `spec.max`), or, where `spec` allows, a string of decimal digits
    /// up to `spec.max`.
    pub fn integer(self, spec: Integer) -> Result<u128, Malformed> {
        let (text, is_string) = match self.kind() {
            JsonType::Number => (Cow::Borrowed(self.text()), false),
            JsonType::String if spec.strings => (self.string()?, true),
            _ => {
                return Err(self.wrong_type(if spec.hex {
                    "an integer (a number, or a string of decimal digits or of 0x and hex digits)"
                } else if spec.strings {
                    "an integer (a number or a string of decimal digits)"
                } else {
                    "an integer (a JSON number)"
                }));
            }
        };
        let quoted = if is_string { Quoted::new(&text) } else { Quoted::number(&text) };
        let fail = |problem| self.fault(Malformation::Number { value: quoted.clone(), problem });
        if let Some(digits) = text.strip_prefix("0x").filter(|_| is_string && spec.hex) {
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(fail(NumberProblem::NotHex));
            }
            // Leading zeros do not change the value (a node prints 64 digits); more than 32
            // significant digits exceed every maximum.
            let significant = digits.trim_start_matches('0');
            let value = match significant {
                "" => Some(0),
                digits if digits.len() <= 32 => u128::from_str_radix(digits, 16).ok(),
                _ => None,
            };
            return value
                .filter(|value| *value <= spec.max)
                .ok_or_else(|| fail(NumberProblem::AboveMax { max: spec.max }));
        }
        if is_string {
            if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
                return Err(fail(NumberProblem::NotDecimal));
            }
        } else if text.starts_with('-') {
            return Err(fail(NumberProblem::Negative));
        } else if text.contains(['.', 'e', 'E']) {
            return Err(fail(NumberProblem::NotInteger));
        }
        // Digits only from here; leading zeros (in a string) do not change the value, and a value
        // of more than 39 significant digits exceeds every maximum.
        let significant = text.trim_start_matches('0');
        let value = match significant {
            "" => Some(0),
            digits if digits.len() <= 39 => digits.parse::<u128>().ok(),
            _ => None,
        };
        match value {
            Some(value) if value <= spec.max && (is_string || value <= u128::from(MAX_SAFE_INTEGER)) => {
                Ok(value)
            }
            // A JSON number beyond what JavaScript reads exactly, where the key takes larger values.
            _ if !is_string && spec.max > u128::from(MAX_SAFE_INTEGER) => Err(fail(NumberProblem::Unsafe)),
            _ => Err(fail(NumberProblem::AboveMax { max: spec.max })),
        }
    }

    /// [`Self::integer`] for a value that fits 64 bits (`spec.max` at most `u64::MAX`).
    pub fn u64(self, spec: Integer) -> Result<u64, Malformed> {
        let value = self.integer(spec)?;
        u64::try_from(value).map_err(|_| {
            self.fault(Malformation::Number {
                value: Quoted::number(self.text()),
                problem: NumberProblem::AboveMax { max: spec.max },
            })
        })
    }
}

/// An object's keys of interest, each with its value.
#[derive(Debug, Clone)]
pub(crate) struct Object<'a> {
    raw: Raw<'a>,
    keys: Vec<&'static str>,
    values: Vec<Option<Raw<'a>>>,
    /// The first key not of interest, and where it is.
    unknown: Option<(Quoted, usize)>,
}

impl<'a> Object<'a> {
    /// The value of `key`, if present (`key` must be one of the keys of interest).
    pub fn get(&self, key: &str) -> Option<Raw<'a>> {
        self.keys
            .iter()
            .position(|known| *known == key)
            .and_then(|index| self.values.get(index).copied().flatten())
    }

    /// Whether `key` is present.
    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The keys of `keys` that are present, in `keys`' order.
    pub fn present(&self, keys: &[&'static str]) -> Vec<&'static str> {
        keys.iter().copied().filter(|key| self.has(key)).collect()
    }

    /// The value of `key`, which the shape requires.
    pub fn require(&self, key: &'static str) -> Result<Raw<'a>, Malformed> {
        self.get(key).ok_or_else(|| self.raw.fault(Malformation::MissingKey { key }))
    }

    /// Reads the value of `key`, which the shape requires, with `read`; a fault inside it gains
    /// the key in its path.
    pub fn read<T, E: From<Malformed> + Within>(
        &self,
        key: &'static str,
        read: impl FnOnce(Raw<'a>) -> Result<T, E>,
    ) -> Result<T, E> {
        read(self.require(key)?).map_err(|error| error.within(key))
    }

    /// Reads the value of `key` with `read`, if the key is present.
    pub fn read_optional<T, E: Within>(
        &self,
        key: &'static str,
        read: impl FnOnce(Raw<'a>) -> Result<T, E>,
    ) -> Result<Option<T>, E> {
        self.get(key).map(|raw| read(raw).map_err(|error| error.within(key))).transpose()
    }

    /// Refuses a key that is not one of the keys of interest: the formats txfx defines (and
    /// TypeScript's strict schemas) refuse them, so that a key a reader would skip cannot look
    /// checked.
    pub fn strict(&self) -> Result<(), Malformed> {
        match &self.unknown {
            Some((key, offset)) => Err(Malformed::at(
                *offset,
                Malformation::UnknownKey { key: key.clone(), known: self.keys.clone() },
            )),
            None => Ok(()),
        }
    }

    /// Refuses any key but those of `allowed` (a subset of the keys of interest).
    pub fn only(&self, allowed: &[&'static str]) -> Result<(), Malformed> {
        self.strict().map_err(|mut error| {
            if let Malformation::UnknownKey { known, .. } = error.kind.as_mut() {
                *known = allowed.to_vec();
            }
            error
        })?;
        let extra =
            self.keys.iter().zip(&self.values).find(|(key, value)| value.is_some() && !allowed.contains(key));
        match extra {
            Some((key, _)) => Err(self
                .raw
                .fault(Malformation::UnknownKey { key: Quoted::new(key), known: allowed.to_vec() })),
            None => Ok(()),
        }
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

/// A non-negative integer as JSON JavaScript reads back exactly: a number up to 2^53 − 1, a
/// decimal string above.
pub fn safe_number(value: u64) -> Value {
    if value <= MAX_SAFE_INTEGER { Value::from(value) } else { Value::String(value.to_string()) }
}
#[cfg(test)]
mod tests {
    use super::*;

    /// The value of `text`, its index leaked so that the value can be returned: a test's few
    /// small indexes live as long as the test binary does.
    fn document(text: &str) -> Result<Raw<'_>, Malformed> {
        let index = Index::build(text).map_err(|mut error| {
            error.locate(text);
            error
        })?;
        Ok(Box::leak(Box::new(index)).root())
    }

    #[test]
    fn objects_keep_only_their_keys_and_refuse_them_twice() {
        let raw = document(r#"{"a": 1, "x": [1, {"a": 2}], "b": "t", "x": 0}"#).expect("JSON");
        let object = raw.object("an object", &["a", "b", "c"]).expect("an object");
        assert_eq!(object.present(&["a", "b", "c"]), ["a", "b"]);
        assert_eq!(object.require("b").and_then(|b| b.string()).expect("b"), "t");
        assert_eq!(*object.require("c").unwrap_err().kind, Malformation::MissingKey { key: "c" });
        assert!(matches!(*object.strict().unwrap_err().kind, Malformation::UnknownKey { .. }));
        let twice = document(r#"{"a": 1, "b": 2, "\u0061": 3}"#).expect("JSON");
        assert_eq!(
            *twice.object("an object", &["a"]).unwrap_err().kind,
            Malformation::DuplicateKey { key: "a" }
        );
        let array = document(r#"[1, "t"]"#).expect("JSON");
        assert_eq!(
            *array.object("an object", &["a", "b"]).unwrap_err().kind,
            Malformation::WrongType { expected: "an object", got: JsonType::Array }
        );
    }

    #[test]
    fn arrays_stop_one_past_the_cap() {
        let raw = document("[1, 2, 3]").expect("JSON");
        assert_eq!(raw.array(3, "a list").expect("three").len(), 3);
        // A value's span holds no white space around it, the last one of a list included.
        let spaced = document("[\n  \"a\" ,\n  \"b\"\n ]").expect("JSON");
        let texts: Vec<&str> = spaced.array(2, "a list").expect("two").iter().map(|raw| raw.text()).collect();
        assert_eq!(texts, ["\"a\"", "\"b\""]);
        let error = raw.array(2, "a list").unwrap_err();
        assert_eq!(*error.kind, Malformation::TooMany { max: 2, what: "a list" });
        assert!(error.kind.is_out_of_range());
    }

    #[test]
    fn numbers_are_what_javascript_reads() {
        let read =
            |text: &str, spec: Integer| document(text).and_then(|raw| raw.integer(spec)).map_err(|e| *e.kind);
        let number = Integer::number(u128::from(u64::MAX));
        let lenient = Integer::lenient(u128::from(u64::MAX));
        assert_eq!(read("42", number), Ok(42));
        assert_eq!(read("9007199254740991", number), Ok(9007199254740991));
        let unsafe_ = |value: &str| Malformation::Number {
            value: Quoted::number(value),
            problem: NumberProblem::Unsafe,
        };
        assert_eq!(read("9007199254740992", number), Err(unsafe_("9007199254740992")));
        assert_eq!(read("18446744073709551616", number), Err(unsafe_("18446744073709551616")));
        assert_eq!(read("\"9007199254740993\"", lenient), Ok(9007199254740993));
        assert_eq!(read("\"0018446744073709551615\"", lenient), Ok(u128::from(u64::MAX)));
        assert!(read("\"18446744073709551616\"", lenient).is_err());
        assert!(read("\"42\"", number).is_err());
        for bad in [
            "\"\"", "\"-1\"", "\"+1\"", "\" 1\"", "\"0x10\"", "\"1e3\"", "-1", "1.0", "1e3", "true", "null",
            "[1]",
        ] {
            assert!(read(bad, lenient).is_err(), "{bad}");
        }
        assert_eq!(read("7", Integer::number(6)).unwrap_err().name(), "Number");
    }

    #[test]
    fn strings_decode_as_json_parse_does() {
        let raw = document(r#""0x\u0031\t\ud83d\ude00\ud800""#).expect("JSON");
        assert_eq!(raw.string().expect("a string"), "0x1\t😀\u{FFFD}");
    }

    #[test]
    fn safe_numbers_print_as_javascript_reads_them() {
        assert_eq!(safe_number(MAX_SAFE_INTEGER), Value::from(MAX_SAFE_INTEGER));
        assert_eq!(safe_number(MAX_SAFE_INTEGER + 1), Value::from("9007199254740992"));
    }
}
