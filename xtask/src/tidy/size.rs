//! Size limits on production code: no file longer than [`MAX_FILE_LINES`] lines, and no function
//! longer than [`MAX_FUNCTION_LINES`] unless a comment of the form `// long-function: <reason>`
//! stands right above it (among its doc comments and attributes).
//!
//! What counts as production code, and so what tidy measures, is decided in `tidy.rs` from
//! `cargo metadata`; this module only measures a source text. A function's length runs from the
//! line of its `fn` keyword to the line of its closing brace. Functions inside `#[cfg(test)]`
//! items, `#[test]` functions and the files of `#[cfg(test)] mod name;` modules are not
//! production code, and a trait method without a body is no function.
//!
//! The functions are found by a small lexer, not by `syn`, although `syn` is in the lock file: a
//! syntax tree carries line numbers only with `proc-macro2`'s `span-locations` feature, and a
//! feature of a host dependency is unified into every host build of the workspace, so turning it
//! on for xtask would rebuild `proc-macro2`, `syn` and every derive macro for every crate. The
//! lexer blanks comments, strings and character literals (raw strings, byte strings and
//! lifetimes included) and then counts braces, which is all a length needs.

/// The longest a file of production code may be, in lines.
pub const MAX_FILE_LINES: usize = 800;

/// The longest a function of production code may be without a reason, in lines.
pub const MAX_FUNCTION_LINES: usize = 80;

/// The comment that excuses a long function: this text, then the reason.
pub const LONG_FUNCTION_MARK: &str = "// long-function:";

/// A function found in a source text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// Its name.
    pub name: String,
    /// The line of its `fn` keyword, from 1.
    pub line: usize,
    /// Its length in lines, from the `fn` line to the closing brace's.
    pub lines: usize,
    /// Whether a `// long-function: <reason>` comment stands above it.
    pub excused: bool,
}

/// What [`scan`] finds in one file.
#[derive(Debug, Default)]
pub struct Scan {
    /// Every function with a body outside test-only code, in order.
    pub functions: Vec<Function>,
    /// The names of the `#[cfg(test)] mod name;` modules the file declares.
    pub test_modules: Vec<String>,
}

fn is_ident(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// The length of the UTF-8 character whose first byte is `byte`.
fn char_len(byte: u8) -> usize {
    match byte {
        0xf0..=0xff => 4,
        0xe0..=0xef => 3,
        0xc0..=0xdf => 2,
        _ => 1,
    }
}

/// Replaces `code[from..to]` by spaces, but for its newlines.
fn blank(code: &mut [u8], from: usize, to: usize) {
    for byte in code.iter_mut().take(to).skip(from) {
        if *byte != b'\n' {
            *byte = b' ';
        }
    }
}

/// `source`'s bytes with every comment, string literal and character literal replaced by spaces
/// (newlines kept, so that offsets and line numbers stay those of the source).
fn code_only(source: &str) -> Vec<u8> {
    let bytes = source.as_bytes();
    let mut code = bytes.to_vec();
    let at = |i: usize| bytes.get(i).copied().unwrap_or(0);
    let mut i = 0;
    while i < bytes.len() {
        let byte = at(i);
        let literal_end = if byte == b'/' && at(i + 1) == b'/' {
            Some(bytes.iter().skip(i).position(|b| *b == b'\n').map_or(bytes.len(), |n| i + n))
        } else if byte == b'/' && at(i + 1) == b'*' {
            // Block comments nest.
            let (mut j, mut depth) = (i + 2, 1);
            while j < bytes.len() && depth > 0 {
                let pair = (at(j), at(j + 1));
                depth = if pair == (b'/', b'*') {
                    depth + 1
                } else if pair == (b'*', b'/') {
                    depth - 1
                } else {
                    depth
                };
                j += if matches!(pair, (b'/', b'*') | (b'*', b'/')) { 2 } else { 1 };
            }
            Some(j)
        } else if byte == b'"' {
            Some(quoted_end(bytes, i + 1))
        } else if byte == b'\'' {
            char_end(bytes, i)
        } else if is_ident(byte) && (i == 0 || !is_ident(at(i - 1))) {
            // A word, or the prefix of a literal: `r"…"`, `r#"…"#`, `b"…"`, `b'…'`, `br"…"`, `c"…"`
            // (a raw identifier, `r#name`, is a word).
            let word = bytes.iter().skip(i).take_while(|b| is_ident(**b)).count();
            let after = i + word;
            let hashes = bytes.iter().skip(after).take_while(|b| **b == b'#').count();
            let prefix = bytes.get(i..after).unwrap_or_default();
            let end = match (prefix, at(after)) {
                (b"r" | b"br" | b"cr", b'"' | b'#') if at(after + hashes) == b'"' => {
                    Some(raw_end(bytes, after + hashes + 1, hashes))
                }
                (b"b" | b"c", b'"') => Some(quoted_end(bytes, after + 1)),
                (b"b", b'\'') => char_end(bytes, after),
                _ => None,
            };
            if end.is_none() {
                i = after;
                continue;
            }
            end
        } else {
            None
        };
        match literal_end {
            Some(end) => {
                blank(&mut code, i, end);
                i = end.max(i + 1);
            }
            None => i += 1,
        }
    }
    code
}

/// The end (one past the closing quote) of a string whose contents start at `from`.
fn quoted_end(bytes: &[u8], from: usize) -> usize {
    let mut j = from;
    while let Some(byte) = bytes.get(j) {
        match byte {
            b'\\' => j += 2,
            b'"' => return j + 1,
            _ => j += 1,
        }
    }
    bytes.len()
}

/// The end of a raw string with `hashes` hashes whose contents start at `from`.
fn raw_end(bytes: &[u8], from: usize, hashes: usize) -> usize {
    let mut j = from;
    while j < bytes.len() {
        if bytes.get(j) == Some(&b'"')
            && bytes.iter().skip(j + 1).take(hashes).filter(|b| **b == b'#').count() == hashes
        {
            return j + 1 + hashes;
        }
        j += 1;
    }
    bytes.len()
}

/// The end of the character literal that opens with the quote at `quote`, or `None` where the
/// quote opens a lifetime or a label.
fn char_end(bytes: &[u8], quote: usize) -> Option<usize> {
    let next = *bytes.get(quote + 1)?;
    if next == b'\\' {
        let close = bytes.iter().skip(quote + 3).position(|b| *b == b'\'')?;
        return Some(quote + 3 + close + 1);
    }
    let after = quote + 1 + char_len(next);
    (bytes.get(after) == Some(&b'\'') && next != b'\'').then_some(after + 1)
}

/// The offset of the bracket that closes the one at `open` (`(`/`)`, `[`/`]` or `{`/`}`).
fn matching(code: &[u8], open: usize) -> Option<usize> {
    let (up, down) = match code.get(open)? {
        b'(' => (b'(', b')'),
        b'[' => (b'[', b']'),
        _ => (b'{', b'}'),
    };
    let mut depth = 0usize;
    for (j, byte) in code.iter().enumerate().skip(open) {
        if *byte == up {
            depth += 1;
        } else if *byte == down {
            depth -= 1;
            if depth == 0 {
                return Some(j);
            }
        }
    }
    None
}

/// The first `{` or `;` from `from` that is outside parentheses and brackets (where an item's
/// signature ends): its offset and which it is.
fn item_end(code: &[u8], from: usize) -> Option<(usize, u8)> {
    let mut depth = 0i64;
    for (j, byte) in code.iter().enumerate().skip(from) {
        match byte {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b'{' | b';' if depth == 0 => return Some((j, *byte)),
            _ => {}
        }
    }
    None
}

/// Whether an attribute's text (between `#[` and `]`, white space removed) marks test-only code.
fn is_test_attribute(text: &str) -> bool {
    text == "test" || text == "cfg(test)" || text.starts_with("cfg(all(test,")
}

/// The functions of `source` outside test-only code, and the test modules it declares in files
/// of their own.
pub fn scan(source: &str) -> Scan {
    let code = code_only(source);
    let line_of = |offset: usize| code.iter().take(offset).filter(|b| **b == b'\n').count() + 1;
    let mut scan = Scan::default();
    if String::from_utf8_lossy(&code).replace(char::is_whitespace, "").contains("#![cfg(test)]") {
        return scan;
    }
    // Attributes: the lines they cover (where a long-function mark may stand among them) and the
    // spans of the items a test attribute marks.
    let mut attribute_lines = std::collections::BTreeSet::new();
    let mut test_spans = Vec::new();
    let mut i = 0;
    while let Some(hash) = code.iter().skip(i).position(|b| *b == b'#').map(|n| i + n) {
        i = hash + 1;
        let Some(open) =
            code.iter().skip(hash + 1).position(|b| !b.is_ascii_whitespace()).map(|n| hash + 1 + n)
        else {
            break;
        };
        if code.get(open) != Some(&b'[') {
            continue;
        }
        let Some(close) = matching(&code, open) else { break };
        attribute_lines.extend(line_of(hash)..=line_of(close));
        let text: String = String::from_utf8_lossy(code.get(open + 1..close).unwrap_or_default())
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if is_test_attribute(&text) {
            match item_end(&code, close + 1) {
                Some((brace, b'{')) => test_spans.push((hash, matching(&code, brace).unwrap_or(code.len()))),
                Some((semicolon, _)) => {
                    let item = String::from_utf8_lossy(code.get(close + 1..semicolon).unwrap_or_default())
                        .into_owned();
                    let words: Vec<&str> = item.split_whitespace().collect();
                    if let [.., "mod", name] = words.as_slice() {
                        scan.test_modules.push((*name).to_owned());
                    }
                }
                None => {}
            }
        }
        i = close + 1;
    }
    let lines: Vec<&str> = source.lines().collect();
    let mut i = 0;
    while let Some(start) = code.windows(2).skip(i).position(|w| w == b"fn").map(|n| i + n) {
        i = start + 2;
        let before = start.checked_sub(1).and_then(|j| code.get(j)).copied().unwrap_or(b' ');
        let name: String = code
            .iter()
            .skip(start + 2)
            .skip_while(|b| b.is_ascii_whitespace())
            .take_while(|b| is_ident(**b))
            .map(|b| char::from(*b))
            .collect();
        let spaced = code.get(start + 2).is_some_and(u8::is_ascii_whitespace);
        if is_ident(before)
            || before == b'#'
            || !spaced
            || name.is_empty()
            || name.starts_with(|c: char| c.is_ascii_digit())
        {
            continue;
        }
        if test_spans.iter().any(|(from, to)| (*from..=*to).contains(&start)) {
            continue;
        }
        let Some((brace, b'{')) = item_end(&code, start) else { continue };
        let Some(close) = matching(&code, brace) else { continue };
        let line = line_of(start);
        // The comments and attributes right above the `fn` line, nearest first.
        let above = (1..line).rev().map_while(|above| {
            let text = lines.get(above - 1)?.trim();
            (text.starts_with("//") || attribute_lines.contains(&above)).then_some(text)
        });
        let excused = above
            .filter_map(|text| text.strip_prefix(LONG_FUNCTION_MARK))
            .any(|reason| !reason.trim().is_empty());
        scan.functions.push(Function { name, line, lines: line_of(close) - line + 1, excused });
    }
    scan
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A function of `lines` lines (its `fn` line, `lines - 2` statements, its closing brace).
    fn function(name: &str, lines: usize) -> String {
        let body: String = (0..lines - 2).map(|k| format!("    let _x{k} = {k};\n")).collect();
        format!("fn {name}() {{\n{body}}}\n")
    }

    fn long(scan: &Scan) -> Vec<(&str, usize)> {
        scan.functions
            .iter()
            .filter(|f| f.lines > MAX_FUNCTION_LINES && !f.excused)
            .map(|f| (f.name.as_str(), f.lines))
            .collect()
    }

    #[test]
    fn a_planted_long_function_is_flagged_and_a_short_one_is_not() {
        let source = format!("//! A file.\n\n{}\n{}", function("short", 80), function("planted", 81));
        let scan = scan(&source);
        assert_eq!(scan.functions.len(), 2, "{:?}", scan.functions);
        assert_eq!(long(&scan), [("planted", 81)]);
        assert_eq!(scan.functions.first().map(|f| (f.line, f.lines)), Some((3, 80)));
    }

    #[test]
    fn a_long_function_with_its_reason_above_it_is_excused() {
        let excused = format!(
            "/// Docs.\n// long-function: one table, clearer whole.\n#[inline]\n#[allow(\n    clippy::too_many_lines\n)]\n{}",
            function("table", 120)
        );
        assert_eq!(long(&scan(&excused)), []);
        // The mark without a reason, or with a blank line between it and the function, excuses nothing.
        for source in [
            format!("// long-function:\n{}", function("table", 120)),
            format!("// long-function: a reason\n\n{}", function("table", 120)),
        ] {
            assert_eq!(long(&scan(&source)), [("table", 120)], "{source}");
        }
    }

    #[test]
    fn test_code_is_not_measured() {
        let source = format!(
            "#[cfg(test)]\nmod tests {{\n{}}}\n#[test]\n{}#[cfg(test)]\nmod more;\n#[cfg(not(test))]\n{}",
            function("in_tests", 100),
            function("a_test", 100),
            function("production", 100)
        );
        let scan = scan(&source);
        assert_eq!(long(&scan), [("production", 100)]);
        assert_eq!(scan.test_modules, ["more"]);
        assert_eq!(super::scan("#![cfg(test)]\nfn x() {\n}\n").functions, []);
    }

    #[test]
    fn braces_in_comments_strings_and_characters_do_not_count() {
        let source = r###"
fn tricky<'a>(x: &'a str) -> char {
    // a } in a comment
    /* a } in /* a nested */ block comment */
    let _ = "a } in a string \" still";
    let _ = r#"a } in a "raw" string"#;
    let _ = b"}";
    let _ = br##"}"#"##;
    let _ = '}';
    let _ = b'}';
    let _ = '\'';
    let _ = '\u{7d}';
    let r#fn = 'é';
    'outer: loop { break 'outer; }
    r#fn
}
fn after() {}
"###;
        let scan = scan(source);
        let found: Vec<(&str, usize, usize)> =
            scan.functions.iter().map(|f| (f.name.as_str(), f.line, f.lines)).collect();
        assert_eq!(found, [("tricky", 2, 15), ("after", 17, 1)]);
    }

    #[test]
    fn declarations_and_function_types_are_no_functions() {
        let source = "trait T {\n    fn declared(&self) -> [u8; 4];\n    fn with_body(&self) {}\n}\ntype F = fn(u8) -> u8;\nfn takes(f: impl Fn(u8) -> u8, g: fn(u8)) -> u8 {\n    f(0)\n}\n";
        let names: Vec<String> = scan(source).functions.into_iter().map(|f| f.name).collect();
        assert_eq!(names, ["with_body", "takes"]);
    }
}
