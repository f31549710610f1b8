//! A document's structural index, built in the one pass that checks its syntax, in the manner of
//! simd-json's first stage: an iterative pass with no recursion, a nesting limit and a
//! word-at-a-time search through strings, which records where every value and every object key
//! starts and ends. The readers of [`super::wire`] then walk the index: an object's or an array's
//! elements are found by their entries, and a nested value is stepped over by a search of the
//! index, never by reading its text again. So each byte of a document is scanned once, however
//! deep it sits (the reader this replaces crossed every string once per nesting level around it).
//!
//! The index costs 8 bytes per value or key (two 32-bit offsets). A document is at most
//! [`crate::MAX_DOCUMENT_BYTES`] where the front ends read it, and a text longer than 4 GiB, which
//! 32-bit offsets cannot name, is refused before the pass.

use std::borrow::Cow;

use super::fault::{JsonType, Malformation, Malformed};

/// The deepest nesting of arrays and objects a document may have. No document txfx reads nests
/// deeper than 8 levels; the limit keeps a hostile one from costing more than its length.
pub const MAX_DEPTH: usize = 256;

/// The type of the value a byte starts, if it starts one.
pub(super) fn type_of_byte(byte: u8) -> Option<JsonType> {
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

/// One value or object key of a document, as the index records it: its span in the text, no
/// white space around (a string's with its quotes, a container's from its opening bracket to past
/// its closing one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Node {
    /// The offset of its first byte.
    pub(crate) start: u32,
    /// The offset just past its last byte.
    pub(crate) end: u32,
}

/// A document known to be JSON, and its structural index: every value and every object key in
/// the order they start (an object's entries are its keys and values in turn, each followed by
/// the entries of whatever it contains).
#[derive(Debug)]
pub(crate) struct Index<'a> {
    /// The text.
    pub(crate) text: &'a str,
    /// The entries; the document's value is the first.
    pub(crate) nodes: Vec<Node>,
}

impl<'a> Index<'a> {
    /// Checks that `text` is one JSON value (white space around it allowed) and indexes it.
    ///
    /// # Errors
    /// [`Malformation::Syntax`] or [`Malformation::TooDeep`] at the first fault.
    pub(crate) fn build(text: &'a str) -> Result<Self, Malformed> {
        if u32::try_from(text.len()).is_err() {
            return Err(Malformed::new(Malformation::Syntax {
                detail: "a text longer than 4 GiB, which no document comes near",
            }));
        }
        let mut cursor = Cursor { bytes: text.as_bytes(), pos: 0, nodes: Vec::new() };
        cursor.white_space();
        if cursor.peek().is_none() {
            return Err(cursor.syntax("the document is empty"));
        }
        cursor.value()?;
        cursor.white_space();
        if cursor.peek().is_some() {
            return Err(cursor.syntax("text after the document's value"));
        }
        Ok(Self { text, nodes: cursor.nodes })
    }
}

/// A position in a text being indexed, and the index so far.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    nodes: Vec<Node>,
}

impl Cursor<'_> {
    /// The cursor's offset (the text's length was checked to fit 32 bits).
    fn offset(&self) -> u32 {
        u32::try_from(self.pos).unwrap_or(u32::MAX)
    }

    /// Records an entry starting at the cursor, its end not yet known; returns its position.
    fn open(&mut self) -> usize {
        let at = self.offset();
        self.nodes.push(Node { start: at, end: at });
        self.nodes.len() - 1
    }

    /// Ends entry `entry` at the cursor.
    fn close(&mut self, entry: usize) {
        let end = self.offset();
        if let Some(node) = self.nodes.get_mut(entry) {
            node.end = end;
        }
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

    /// Indexes one value, checking that it is JSON: iteratively, so that nesting costs no stack.
    fn value(&mut self) -> Result<(), Malformed> {
        // The containers open around the cursor: whether each is an object, and its entry.
        let mut open: Vec<(bool, usize)> = Vec::new();
        loop {
            // A value.
            self.white_space();
            let entry = self.open();
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
                        open.push((true, entry));
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
                        open.push((false, entry));
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
            // A scalar or an empty container ends here.
            self.close(entry);
            // After a value: close what it ends, or go on to the next one.
            loop {
                // The value ends here when nothing is open: the white space after it is not its.
                let Some(&(in_object, container)) = open.last() else { return Ok(()) };
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
                        self.close(container);
                    }
                    Some(b']') if !in_object => {
                        self.pos += 1;
                        open.pop();
                        self.close(container);
                    }
                    _ if in_object => {
                        return Err(self.syntax("expected ',' or '}' after a value in an object"));
                    }
                    _ => return Err(self.syntax("expected ',' or ']' after a value in an array")),
                }
            }
        }
    }

    /// Indexes a key and skips its colon.
    fn key(&mut self) -> Result<(), Malformed> {
        if self.peek() != Some(b'"') {
            return Err(self.syntax("an object key that is not a string"));
        }
        let entry = self.open();
        self.skip_string()?;
        self.close(entry);
        self.expect(b':', "expected ':' after an object key")
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
/// it), so the result is the byte-by-byte search's. Each string is crossed once, by the pass that
/// indexes the document, and this is most of what that pass costs.
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
pub(super) fn decode_string(contents: &str) -> Cow<'_, str> {
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

    fn document(text: &str) -> Result<Index<'_>, Malformed> {
        Index::build(text).map_err(|mut error| {
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

    /// Every value and key is an entry, in the order it starts, spanning exactly its text.
    #[test]
    fn the_index_spans_every_value_and_key() {
        let text = r#" {"a": [1, "x\"y", {}], "b" : {"c": null}, "d": []} "#;
        let index = document(text).expect("JSON");
        let spans: Vec<&str> =
            index.nodes.iter().map(|node| &text[node.start as usize..node.end as usize]).collect();
        assert_eq!(
            spans,
            [
                r#"{"a": [1, "x\"y", {}], "b" : {"c": null}, "d": []}"#,
                r#""a""#,
                r#"[1, "x\"y", {}]"#,
                "1",
                r#""x\"y""#,
                "{}",
                r#""b""#,
                r#"{"c": null}"#,
                r#""c""#,
                "null",
                r#""d""#,
                "[]",
            ]
        );
        let scalar = document("  7 ").expect("JSON");
        assert_eq!(scalar.nodes, [Node { start: 2, end: 3 }]);
    }
}
