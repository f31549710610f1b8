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
//! A document is first checked to be JSON as a whole (one pass, iterative, no recursion), so a
//! syntax error is reported as one before any shape is; the shapes then read spans of it
//! ([`Raw`]). A document given as a parsed [`serde_json::Value`] is read as its JSON text, so the
//! two forms cannot read differently.

use std::borrow::Cow;

use serde_json::Value;

/// The most characters of an offending value an error quotes.
pub const QUOTE_CHARS: usize = 80;

/// The deepest nesting of arrays and objects a document may have. No document txfx reads nests
/// deeper than 8 levels; the limit keeps a hostile one from costing more than its length.
pub const MAX_DEPTH: usize = 256;

/// The largest integer a JSON number may carry: `Number.MAX_SAFE_INTEGER`, 2^53 − 1. Above it,
/// `JSON.parse` reads a neighbouring value.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// The type of a JSON value, as errors name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonType {
    /// `{...}`.
    Object,
    /// `[...]`.
    Array,
    /// `"..."`.
    String,
    /// A number.
    Number,
    /// `true` or `false`.
    Bool,
    /// `null`.
    Null,
}

impl JsonType {
    /// `an object`, `an array`, `a string`, `a number`, `a boolean`, `null`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Object => "an object",
            Self::Array => "an array",
            Self::String => "a string",
            Self::Number => "a number",
            Self::Bool => "a boolean",
            Self::Null => "null",
        }
    }
}

impl std::fmt::Display for JsonType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A value the input gave, as an error quotes it: at most [`QUOTE_CHARS`] characters, and its
/// length in bytes when that is not all of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quoted {
    /// The first characters.
    pub head: String,
    /// The whole value's length in bytes.
    pub bytes: usize,
    /// Whether the value is a string (printed in quotes) rather than a number.
    pub string: bool,
}

impl Quoted {
    /// Quotes the string `text`.
    pub fn new(text: &str) -> Self {
        let end = text.char_indices().nth(QUOTE_CHARS).map_or(text.len(), |(at, _)| at);
        Self { head: text.get(..end).unwrap_or_default().to_owned(), bytes: text.len(), string: true }
    }

    /// Quotes the JSON number `text`.
    pub fn number(text: &str) -> Self {
        Self { string: false, ..Self::new(text) }
    }
}

impl std::fmt::Display for Quoted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.string {
            write!(f, "{:?}", self.head)?;
        } else {
            f.write_str(&self.head)?;
        }
        if self.head.len() != self.bytes {
            write!(f, "… ({} bytes)", self.bytes)?;
        }
        Ok(())
    }
}

/// What is wrong with a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum NumberProblem {
    /// A fraction or an exponent where an integer is read.
    NotInteger,
    /// A minus sign.
    Negative,
    /// A JSON number above 2^53 − 1: JavaScript reads another value.
    Unsafe,
    /// Above the largest value the key takes.
    AboveMax {
        /// That value.
        max: u128,
    },
    /// A string that is not decimal digits.
    NotDecimal,
    /// A `0x` string that is not hex digits after its prefix.
    NotHex,
}

impl std::fmt::Display for NumberProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotInteger => f.write_str("not an integer"),
            Self::Negative => f.write_str("negative"),
            Self::Unsafe => {
                f.write_str("a JSON number above 2^53 - 1, which JavaScript does not read exactly")
            }
            Self::AboveMax { max } => write!(f, "above {max}, the largest allowed"),
            Self::NotDecimal => f.write_str("not a string of decimal digits"),
            Self::NotHex => f.write_str("not 0x and hex digits"),
        }
    }
}

/// What kind of malformation a document has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Malformation {
    /// Not JSON.
    #[error("not JSON: {detail}")]
    Syntax {
        /// What the reader found.
        detail: &'static str,
    },
    /// A value of the wrong JSON type (an array where an object is read, a number for a string).
    #[error("expected {expected}, got {got}")]
    WrongType {
        /// What the shape reads there.
        expected: &'static str,
        /// What the document has.
        got: JsonType,
    },
    /// A key the shape requires is missing.
    #[error("missing key {key:?}")]
    MissingKey {
        /// The key.
        key: &'static str,
    },
    /// A key the shape reads is given twice (`JSON.parse` keeps the last, other readers the first).
    #[error("key {key:?} is given twice")]
    DuplicateKey {
        /// The key.
        key: &'static str,
    },
    /// A key a strict format (one of txfx's own, or a strict TypeScript schema) does not have.
    #[error("unknown key {key} (expected only {})", known.join(", "))]
    UnknownKey {
        /// The key.
        key: Quoted,
        /// The keys the format has.
        known: Vec<&'static str>,
    },
    /// More elements than the list can hold: reading stopped at the first one past the cap.
    #[error("more than {max} elements, the most {what} holds")]
    TooMany {
        /// The cap.
        max: usize,
        /// What the list is.
        what: &'static str,
    },
    /// A list that must hold an exact number of elements holds another.
    #[error("{given} elements, {what} holds exactly {expected}")]
    Count {
        /// The number it must hold.
        expected: usize,
        /// The number given.
        given: usize,
        /// What the list is.
        what: &'static str,
    },
    /// A number (or a decimal string) that is not an allowed value.
    #[error("{value} is {problem}")]
    Number {
        /// The value.
        value: Quoted,
        /// Why.
        problem: NumberProblem,
    },
    /// A string that is not what the key takes (an address, a tx hash, base64, a name).
    #[error("{value} is not {expected}")]
    BadValue {
        /// What the key takes.
        expected: &'static str,
        /// The value given.
        value: Quoted,
    },
    /// A document of another kind than the one asked for.
    #[error("this is {got}, not {expected}")]
    OtherKind {
        /// The kind asked for.
        expected: &'static str,
        /// The kind the document is.
        got: &'static str,
    },
    /// Nested deeper than any document txfx reads.
    #[error("nested deeper than {max} levels")]
    TooDeep {
        /// [`MAX_DEPTH`].
        max: usize,
    },
}

impl Malformation {
    /// The variant's name, as an error's kind names it (`Malformed/MissingKey`).
    pub fn name(&self) -> &'static str {
        match self {
            Self::Syntax { .. } => "Syntax",
            Self::WrongType { .. } => "WrongType",
            Self::MissingKey { .. } => "MissingKey",
            Self::DuplicateKey { .. } => "DuplicateKey",
            Self::UnknownKey { .. } => "UnknownKey",
            Self::TooMany { .. } => "TooMany",
            Self::Count { .. } => "Count",
            Self::Number { .. } => "Number",
            Self::BadValue { .. } => "BadValue",
            Self::OtherKind { .. } => "OtherKind",
            Self::TooDeep { .. } => "TooDeep",
        }
    }

    /// Whether the fault is a value out of range (more elements than a cap, a number above its
    /// largest value or below zero) rather than a value of the wrong form.
    pub fn is_out_of_range(&self) -> bool {
        match self {
            Self::TooMany { .. } => true,
            Self::Number { problem, .. } => {
                matches!(
                    problem,
                    NumberProblem::Negative | NumberProblem::Unsafe | NumberProblem::AboveMax { .. }
                )
            }
            _ => false,
        }
    }
}

/// A document that is not the JSON this reader expects: what is wrong, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{}{kind}{}", .expected.map(|what| format!("not {what}: ")).unwrap_or_default(), location(.path), position(*.line, *.column))]
pub struct Malformed {
    /// What the document was read as (`a stored block`, `a tx-effects witness`), when known.
    pub expected: Option<&'static str>,
    /// The JSON path of the value at fault (`txEffects[2].nullifiers[0]`); empty for the whole
    /// document.
    pub path: String,
    /// The line in the text (1-based), 0 when the document was given parsed, or the fault is not
    /// tied to a position.
    pub line: usize,
    /// The column in the text (1-based, in characters), 0 as for `line`.
    pub column: usize,
    /// What is wrong (boxed: errors travel far up, and stay small on the way).
    pub kind: Box<Malformation>,
    /// The byte offset of the fault in the text read, until it is turned into `line` and `column`.
    offset: Option<usize>,
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
    /// A fault of the whole document, tied to no position.
    pub fn new(kind: Malformation) -> Self {
        Self { expected: None, path: String::new(), line: 0, column: 0, kind: Box::new(kind), offset: None }
    }

    /// A fault at byte `offset` of the text read.
    pub(crate) fn at(offset: usize, kind: Malformation) -> Self {
        Self { offset: Some(offset), ..Self::new(kind) }
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

    /// Turns the fault's byte offset in `text` into its line and column.
    pub(crate) fn locate(&mut self, text: &str) {
        if let Some(offset) = self.offset.take() {
            let before = text.get(..offset.min(text.len())).unwrap_or_default();
            self.line = before.matches('\n').count() + 1;
            self.column = before.rsplit('\n').next().map_or(0, |line| line.chars().count()) + 1;
        }
    }

    /// Forgets the fault's position: the text it refers to is not one the caller gave.
    pub(crate) fn unlocate(&mut self) {
        self.offset = None;
    }
}

/// An error that gains a path as it travels out of nested values.
pub(crate) trait Within {
    /// The same error, inside `key` (or `[i]`).
    fn within(self, key: &str) -> Self;
}

impl Within for Malformed {
    fn within(self, key: &str) -> Self {
        Malformed::within(self, key)
    }
}

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

/// An error a reader returns that may hold a [`Malformed`] whose position is to be found.
pub(crate) trait Locate {
    /// Runs `f` on the fault's [`Malformed`], if it has one.
    fn malformed_mut(&mut self) -> Option<&mut Malformed>;
}

impl Locate for Malformed {
    fn malformed_mut(&mut self) -> Option<&mut Malformed> {
        Some(self)
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
                let result = Raw::document(text).map_err(E::from).and_then(read);
                result.map_err(|mut error| {
                    if let Some(malformed) = error.malformed_mut() {
                        malformed.locate(text);
                    }
                    error
                })
            }
            Self::Value(_) | Self::Printed(_) => {
                let text = self.to_text();
                let result = Raw::document(&text).map_err(E::from).and_then(read);
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

fn type_of_byte(byte: u8) -> Option<JsonType> {
    Some(match byte {
        b'{' => JsonType::Object,
        b'[' => JsonType::Array,
        b'"' => JsonType::String,
        b'-' | b'0'..=b'9' => JsonType::Number,
        b't' | b'f' => JsonType::Bool,
        b'n' => JsonType::Null,
        _ => return None,
    })
}

/// One JSON value of a document that is known to be JSON: the document's text and the value's
/// span in it (no white space around).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Raw<'a> {
    text: &'a str,
    start: usize,
    end: usize,
}

/// A position in a text being read.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str, pos: usize) -> Self {
        Self { bytes: text.as_bytes(), pos }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn white_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn syntax(&self, detail: &'static str) -> Malformed {
        Malformed::at(self.pos, Malformation::Syntax { detail })
    }

    fn expect(&mut self, byte: u8, detail: &'static str) -> Result<(), Malformed> {
        self.white_space();
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.syntax(detail))
        }
    }

    /// Skips a string, the cursor on its opening quote.
    fn skip_string(&mut self) -> Result<(), Malformed> {
        self.pos += 1;
        loop {
            // The fast path: runs of plain characters.
            let rest = self.bytes.get(self.pos..).unwrap_or_default();
            let plain = plain_run(rest);
            let Some(plain) = plain else {
                self.pos = self.bytes.len();
                return Err(self.syntax("a string is not closed"));
            };
            self.pos += plain;
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    self.pos += 1;
                    match self.peek() {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => self.pos += 1,
                        Some(b'u') => {
                            let digits = self.bytes.get(self.pos + 1..self.pos + 5);
                            if !digits.is_some_and(|d| d.iter().all(u8::is_ascii_hexdigit)) {
                                return Err(self.syntax("a \\u escape without four hex digits"));
                            }
                            self.pos += 5;
                        }
                        _ => return Err(self.syntax("an unknown escape in a string")),
                    }
                }
                _ => return Err(self.syntax("a control character in a string (escape it)")),
            }
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        self.pos - start
    }

    /// Skips a number (JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`).
    fn skip_number(&mut self) -> Result<(), Malformed> {
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.syntax("a number without digits")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if self.digits() == 0 {
                return Err(self.syntax("a number with no digits after its decimal point"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return Err(self.syntax("a number with no digits in its exponent"));
            }
        }
        Ok(())
    }

    fn literal(&mut self, word: &'static [u8]) -> Result<(), Malformed> {
        if self.bytes.get(self.pos..self.pos + word.len()) == Some(word) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(self.syntax("an unknown word (JSON has true, false and null)"))
        }
    }

    /// Skips one value, checking that it is JSON: iteratively, so that nesting costs no stack.
    fn skip_value(&mut self) -> Result<(), Malformed> {
        // The containers open around the cursor: true for an object.
        let mut open: Vec<bool> = Vec::new();
        loop {
            // A value.
            self.white_space();
            match self.peek() {
                Some(b'{' | b'[') if open.len() == MAX_DEPTH => {
                    return Err(Malformed::at(self.pos, Malformation::TooDeep { max: MAX_DEPTH }));
                }
                Some(b'{') => {
                    self.pos += 1;
                    self.white_space();
                    if self.peek() == Some(b'}') {
                        self.pos += 1;
                    } else {
                        open.push(true);
                        self.key()?;
                        continue;
                    }
                }
                Some(b'[') => {
                    self.pos += 1;
                    self.white_space();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                    } else {
                        open.push(false);
                        continue;
                    }
                }
                Some(b'"') => self.skip_string()?,
                Some(b'-' | b'0'..=b'9') => self.skip_number()?,
                Some(b't') => self.literal(b"true")?,
                Some(b'f') => self.literal(b"false")?,
                Some(b'n') => self.literal(b"null")?,
                Some(_) => return Err(self.syntax("a character that starts no JSON value")),
                None => return Err(self.syntax("the text ends where a value is expected")),
            }
            // After a value: close what it ends, or go on to the next one.
            loop {
                // The value ends here when nothing is open: the white space after it is not its.
                let Some(&in_object) = open.last() else { return Ok(()) };
                self.white_space();
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        if in_object {
                            self.white_space();
                            self.key()?;
                        }
                        break;
                    }
                    Some(b'}') if in_object => {
                        self.pos += 1;
                        open.pop();
                    }
                    Some(b']') if !in_object => {
                        self.pos += 1;
                        open.pop();
                    }
                    _ if in_object => {
                        return Err(self.syntax("expected ',' or '}' after a value in an object"));
                    }
                    _ => return Err(self.syntax("expected ',' or ']' after a value in an array")),
                }
            }
        }
    }

    /// Skips a key and its colon.
    fn key(&mut self) -> Result<(), Malformed> {
        if self.peek() != Some(b'"') {
            return Err(self.syntax("an object key that is not a string"));
        }
        self.skip_string()?;
        self.expect(b':', "expected ':' after an object key")
    }

    /// The span of the value at the cursor, skipped.
    fn value_span(&mut self) -> Result<(usize, usize), Malformed> {
        self.white_space();
        let start = self.pos;
        self.skip_value()?;
        Ok((start, self.pos))
    }
}

/// Whether a byte ends a run of plain string characters: a quote, a backslash or a control
/// character (which a JSON string must escape).
const fn stops_a_string(b: u8) -> bool {
    b == b'"' || b == b'\\' || b < 0x20
}

/// The length of the run of plain string characters at the start of `bytes` (the position of the
/// first byte [`stops_a_string`]), `None` when every byte is plain.
///
/// Eight bytes per step: a word with no quote, backslash or control byte is skipped whole, and
/// only a word that has one is searched byte by byte. The word test is exact for "any such byte"
/// (the usual zero-byte and less-than tests: a false positive in a byte needs a true one below
/// it), so the result is the byte-by-byte search's. A document's every string is crossed once per
/// nesting level around it, so this is most of what reading costs before hashing.
fn plain_run(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    let has_zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGHS;
    let mut words = bytes.chunks_exact(8);
    let mut offset = 0;
    for word in words.by_ref() {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(word);
        let w = u64::from_le_bytes(eight);
        let flagged = has_zero(w ^ (ONES * u64::from(b'"')))
            | has_zero(w ^ (ONES * u64::from(b'\\')))
            | (w.wrapping_sub(ONES * 0x20) & !w & HIGHS);
        if flagged != 0 {
            return word.iter().position(|&b| stops_a_string(b)).map(|at| offset + at);
        }
        offset += 8;
    }
    words.remainder().iter().position(|&b| stops_a_string(b)).map(|at| offset + at)
}

/// Decodes a JSON string's contents (the span between its quotes, known to be a valid string):
/// borrowed when it has no escape. A lone surrogate (which `JSON.parse` keeps, and UTF-8 cannot
/// hold) becomes U+FFFD, which no value txfx reads contains.
fn decode_string(contents: &str) -> Cow<'_, str> {
    if !contents.contains('\\') {
        return Cow::Borrowed(contents);
    }
    let mut out = String::with_capacity(contents.len());
    let mut chars = contents.chars();
    let hex4 = |chars: &mut std::str::Chars<'_>| -> u32 {
        (0..4).fold(0, |value, _| value * 16 + chars.next().and_then(|c| c.to_digit(16)).unwrap_or(0))
    };
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('u') => {
                let unit = hex4(&mut chars);
                let code = if (0xD800..0xDC00).contains(&unit) {
                    // A high surrogate: a pair only if a low one follows.
                    let mut ahead = chars.clone();
                    if ahead.next() == Some('\\') && ahead.next() == Some('u') {
                        let low = hex4(&mut ahead);
                        if (0xDC00..0xE000).contains(&low) {
                            chars = ahead;
                            0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            0xFFFD
                        }
                    } else {
                        0xFFFD
                    }
                } else {
                    unit
                };
                out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    Cow::Owned(out)
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

impl<'a> Raw<'a> {
    /// The document's value, the whole text checked to be JSON.
    pub fn document(text: &'a str) -> Result<Self, Malformed> {
        let mut cursor = Cursor::new(text, 0);
        cursor.white_space();
        if cursor.peek().is_none() {
            return Err(cursor.syntax("the document is empty"));
        }
        let (start, end) = cursor.value_span()?;
        cursor.white_space();
        if cursor.peek().is_some() {
            return Err(cursor.syntax("text after the document's value"));
        }
        Ok(Self { text, start, end })
    }

    /// The value's JSON type.
    pub fn kind(self) -> JsonType {
        self.text.as_bytes().get(self.start).copied().and_then(type_of_byte).unwrap_or(JsonType::Null)
    }

    /// The value's JSON text.
    pub fn text(self) -> &'a str {
        self.text.get(self.start..self.end).unwrap_or_default()
    }

    /// The fault `kind` at this value.
    pub fn fault(self, kind: Malformation) -> Malformed {
        Malformed::at(self.start, kind)
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
        let mut cursor = Cursor::new(self.text, self.start + 1);
        cursor.white_space();
        if cursor.peek() == Some(b'}') {
            return Ok(object);
        }
        loop {
            cursor.white_space();
            let key_start = cursor.pos;
            if cursor.peek() != Some(b'"') {
                return Err(cursor.syntax("an object key that is not a string"));
            }
            cursor.skip_string()?;
            let key = decode_string(self.text.get(key_start + 1..cursor.pos - 1).unwrap_or_default());
            cursor.expect(b':', "expected ':' after an object key")?;
            let (start, end) = cursor.value_span()?;
            match keys.iter().position(|known| *known == key) {
                Some(index) => {
                    let (Some(slot), Some(known)) = (object.values.get_mut(index), keys.get(index)) else {
                        return Err(cursor.syntax("a key"));
                    };
                    if slot.is_some() {
                        return Err(Malformed::at(key_start, Malformation::DuplicateKey { key: known }));
                    }
                    *slot = Some(Raw { text: self.text, start, end });
                }
                None if object.unknown.is_none() => object.unknown = Some((Quoted::new(&key), key_start)),
                None => {}
            }
            cursor.white_space();
            match cursor.peek() {
                Some(b',') => cursor.pos += 1,
                Some(b'}') => return Ok(object),
                _ => return Err(cursor.syntax("expected ',' or '}' after a value in an object")),
            }
        }
    }

    /// The value as an array of at most `max` values (`what` names the list in a message):
    /// reading stops at the first element past the cap.
    pub fn array(self, max: usize, what: &'static str) -> Result<Vec<Raw<'a>>, Malformed> {
        self.expect_type(JsonType::Array, "an array")?;
        let mut items = Vec::new();
        let mut cursor = Cursor::new(self.text, self.start + 1);
        cursor.white_space();
        if cursor.peek() == Some(b']') {
            return Ok(items);
        }
        loop {
            let (start, end) = cursor.value_span()?;
            if items.len() == max {
                return Err(Malformed::at(start, Malformation::TooMany { max, what }));
            }
            items.push(Raw { text: self.text, start, end });
            cursor.white_space();
            match cursor.peek() {
                Some(b',') => cursor.pos += 1,
                Some(b']') => return Ok(items),
                _ => return Err(cursor.syntax("expected ',' or ']' after a value in an array")),
            }
        }
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
        Ok(decode_string(self.text.get(self.start + 1..self.end - 1).unwrap_or_default()))
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

    /// The word-at-a-time search against the byte-by-byte one, on every stop byte at every
    /// offset in and around a word, beside every byte value, from every alignment.
    #[test]
    fn plain_runs_are_found_as_byte_by_byte() {
        let reference = |bytes: &[u8]| bytes.iter().position(|&b| stops_a_string(b));
        let mut checked = 0;
        for filler in [b'a', b'0', b'x', 0x7f, 0x80, 0xc3, 0xff, 0x21, 0x5d, 0x23, 0x5b] {
            for len in 0..40 {
                let plain = vec![filler; len];
                assert_eq!(plain_run(&plain), reference(&plain));
                for at in 0..len {
                    for stop in (0u8..=255).filter(|&b| stops_a_string(b) || b % 17 == 0) {
                        let mut bytes = plain.clone();
                        bytes[at] = stop;
                        // A second stop later must not hide the first.
                        if at + 3 < len {
                            bytes[at + 3] = b'"';
                        }
                        for skip in 0..3.min(len) {
                            assert_eq!(
                                plain_run(&bytes[skip..]),
                                reference(&bytes[skip..]),
                                "{bytes:?} from {skip}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
        // And the strings that stop where a JSON string must: quote, escape, control character.
        assert_eq!(plain_run(br#"0123456789abcdef\u0041"#), Some(16));
        assert_eq!(plain_run(br#"0123456789abcdefghij""#), Some(20));
        assert_eq!(plain_run(b"0123456789abcdef0123\x01"), Some(20));
    }

    fn document(text: &str) -> Result<Raw<'_>, Malformed> {
        Raw::document(text).map_err(|mut error| {
            error.locate(text);
            error
        })
    }

    #[test]
    fn json_syntax_is_checked_as_a_whole() {
        for good in ["{}", " [ ] ", "\"a\\u00e9\\ud83d\\ude00\"", "-0.5e+3", "[1,[2,{\"a\":null}],true]", "0"]
        {
            assert!(document(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\" 1}",
            "01",
            "1.",
            "1e",
            "tru",
            "\"\u{1}\"",
            "\"\\x\"",
            "{} {}",
            "[1 2]",
            "{1:2}",
            "\"\\u12\"",
        ] {
            let error = document(bad).unwrap_err();
            assert_eq!(error.kind.name(), "Syntax", "{bad}: {error}");
        }
        let error = document("{\n  \"a\": [1,\n 2,,]}").unwrap_err();
        assert_eq!((error.line, error.column), (3, 4), "{error}");
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert_eq!(*document(&deep).unwrap_err().kind, Malformation::TooDeep { max: MAX_DEPTH });
        let deepest = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(document(&deepest).is_ok());
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
    fn quotes_are_short() {
        let long = "7".repeat(1000);
        let quoted = Quoted::new(&long).to_string();
        assert!(quoted.len() < 110 && quoted.ends_with("(1000 bytes)"), "{quoted}");
        assert_eq!(Quoted::new("abc").to_string(), "\"abc\"");
    }

    #[test]
    fn paths_nest() {
        let error = Malformed::new(Malformation::MissingKey { key: "x" }).within("[2]").within("txEffects");
        assert_eq!(error.path, "txEffects[2]");
        assert_eq!(error.to_string(), "txEffects[2]: missing key \"x\"");
    }

    #[test]
    fn safe_numbers_print_as_javascript_reads_them() {
        assert_eq!(safe_number(MAX_SAFE_INTEGER), Value::from(MAX_SAFE_INTEGER));
        assert_eq!(safe_number(MAX_SAFE_INTEGER + 1), Value::from("9007199254740992"));
    }
}
