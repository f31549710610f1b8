//! What a JSON reader reports: the type a value has, a quoted value, and the [`Malformed`] fault
//! with its [`Malformation`] kind, JSON path and position. A leaf module: every reader and every
//! error type imports it, and it imports none of them.

/// The most characters of an offending value an error quotes.
pub const QUOTE_CHARS: usize = 80;
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
        /// [`super::MAX_DEPTH`].
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
