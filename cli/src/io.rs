//! The command line's input and output: files and stdin read with a size bound, one writer for
//! stdout, the failure a command ends in and its exit status, and the `--jsonl` engine.

use std::io::{BufRead, Read, Write};
use std::process::ExitCode;

use crate::progress::{self, Reading};
use txfx_documents::classify::{Classify, ErrorClass};
use txfx_documents::json::{Json, Object};
use txfx_documents::verdict::refutation_json;
use txfx_documents::{Doc, DocumentError};
use txfx_poseidon::BackendError;

/// The largest input file the CLI reads: the documents' limit, which the bindings share.
pub const MAX_INPUT_BYTES: u64 = txfx_documents::MAX_DOCUMENT_BYTES;

/// How a command failed, and so which exit status it gets.
#[derive(Debug)]
pub enum Failure {
    /// Malformed input: exit 2, the reason on stderr.
    Input(String),
    /// A well-formed check that failed: exit 1, `{"valid": false, "link", "reason"}` on stdout.
    Check {
        /// The link of the chain that broke.
        link: &'static str,
        /// Why.
        reason: String,
    },
    /// The backend failed: exit 3.
    Backend(String),
    /// The reader of the output went away (a closed pipe): exit 0, quietly.
    Closed,
    /// The output could not be written for another reason: exit 2.
    Output(String),
    /// A node or L1 endpoint gave no usable answer (unreachable, too slow, too large, a
    /// redirect, an HTTP error, an error answer, a body that is not the method's document): exit 4.
    Transport(String),
    /// Work whose every answer is printed already (several txs of `verify tx --node`): the
    /// reason on stderr, exit `status`.
    Summary {
        /// The exit status.
        status: u8,
        /// What to report.
        reason: String,
    },
}

impl From<DocumentError> for Failure {
    fn from(error: DocumentError) -> Self {
        match error.class() {
            ErrorClass::Malformed | ErrorClass::OutOfRange => Self::Input(error.to_string()),
            ErrorClass::Refuted => {
                Self::Check { link: error.link().unwrap_or("document"), reason: error.to_string() }
            }
            ErrorClass::Backend => Self::Backend(error.to_string()),
            ErrorClass::Transport => Self::Transport(error.to_string()),
        }
    }
}

impl From<txfx_client::ClientError> for Failure {
    /// The client's errors classify themselves: a refutation names its link, an endpoint that
    /// gave no usable answer is exit 4, only the caller's own parameters exit 2.
    fn from(error: txfx_client::ClientError) -> Self {
        let reason = error.to_string();
        match error.class() {
            ErrorClass::Refuted => Self::Check { link: error.link().unwrap_or("node"), reason },
            ErrorClass::Malformed | ErrorClass::OutOfRange => Self::Input(reason),
            ErrorClass::Backend => Self::Backend(reason),
            ErrorClass::Transport => Self::Transport(reason),
        }
    }
}

impl From<BackendError> for Failure {
    fn from(error: BackendError) -> Self {
        Self::Backend(error.to_string())
    }
}

impl Failure {
    /// The exit status this failure ends a command with.
    pub fn status(&self) -> u8 {
        match self {
            Self::Closed => 0,
            Self::Check { .. } => 1,
            Self::Input(_) | Self::Output(_) => 2,
            Self::Backend(_) => 3,
            Self::Transport(_) => 4,
            Self::Summary { status, .. } => *status,
        }
    }

    /// What the failure says (empty for a closed output).
    pub fn reason(&self) -> &str {
        match self {
            Self::Closed => "",
            Self::Check { reason, .. }
            | Self::Input(reason)
            | Self::Output(reason)
            | Self::Backend(reason)
            | Self::Transport(reason)
            | Self::Summary { reason, .. } => reason,
        }
    }

    /// The same failure, its reason rewritten by `rewrite` (URLs redacted).
    #[must_use]
    pub fn map_reason(self, rewrite: impl FnOnce(&str) -> String) -> Self {
        match self {
            Self::Closed => Self::Closed,
            Self::Check { link, reason } => Self::Check { link, reason: rewrite(&reason) },
            Self::Input(reason) => Self::Input(rewrite(&reason)),
            Self::Output(reason) => Self::Output(rewrite(&reason)),
            Self::Backend(reason) => Self::Backend(rewrite(&reason)),
            Self::Transport(reason) => Self::Transport(rewrite(&reason)),
            Self::Summary { status, reason } => Self::Summary { status, reason: rewrite(&reason) },
        }
    }

    /// Reports the failure where it belongs and gives the exit status.
    pub fn exit(self) -> ExitCode {
        match self {
            Self::Closed => ExitCode::SUCCESS,
            Self::Check { link, reason } => match print_json(&refutation_json(link, &reason)) {
                Ok(()) | Err(Self::Closed) => ExitCode::from(1),
                Err(_) => ExitCode::from(2),
            },
            Self::Output(reason) | Self::Input(reason) => {
                report(&reason);
                ExitCode::from(2)
            }
            Self::Backend(reason) => {
                report(&format!("backend failure: {reason}"));
                ExitCode::from(3)
            }
            Self::Transport(reason) => {
                report(&reason);
                ExitCode::from(4)
            }
            Self::Summary { status, reason } => {
                report(&reason);
                ExitCode::from(status)
            }
        }
    }
}

/// Writes `txfx: reason` to stderr. A closed stderr leaves nowhere to report to, so a failed
/// write is dropped rather than turned into a panic; the exit status still tells.
fn report(reason: &str) {
    let _ = writeln!(std::io::stderr().lock(), "txfx: {reason}");
}

/// Writes `text` and a newline to stdout. A closed pipe is [`Failure::Closed`], never a panic.
pub fn emit(text: &str) -> Result<(), Failure> {
    progress::suspend(|| {
        let mut stdout = std::io::stdout().lock();
        writeln!(stdout, "{text}").and_then(|()| stdout.flush())
    })
    .map_err(write_failure)
}

/// Writes `text` to stdout without a newline (a streamed document's pieces).
pub fn emit_part(text: &str) -> Result<(), Failure> {
    emit_bytes(text.as_bytes())
}

/// Writes `bytes` to stdout as they are (a generated script or man page), then flushes.
pub fn emit_bytes(bytes: &[u8]) -> Result<(), Failure> {
    progress::suspend(|| {
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(bytes).and_then(|()| stdout.flush())
    })
    .map_err(write_failure)
}

/// Prints an answer that is a value rather than a document (a hash, a root, the backend in use):
/// `bare` as it is, or with `--json` the JSON object `object` (docs: README, "`--json`").
pub fn answer(
    json: bool,
    bare: impl FnOnce() -> String,
    object: impl FnOnce() -> Json,
) -> Result<(), Failure> {
    if json { print_json(&object()) } else { emit(&bare()) }
}

fn write_failure(error: std::io::Error) -> Failure {
    match error.kind() {
        std::io::ErrorKind::BrokenPipe => Failure::Closed,
        _ => Failure::Output(format!("cannot write the output: {error}")),
    }
}

/// Pretty-prints a JSON value to stdout.
pub fn print_json(value: &Json) -> Result<(), Failure> {
    // Printing a Json into a String cannot fail: its keys are strings.
    let text = serde_json::to_string_pretty(value).map_err(|e| Failure::Output(e.to_string()))?;
    emit(&text)
}

/// A file (or stdin for `-`) read whole, refusing anything over [`MAX_INPUT_BYTES`].
pub struct Input {
    /// The path as given.
    pub path: String,
    /// The text.
    pub text: String,
}

impl Input {
    /// Reads `path`.
    pub fn read(path: &str) -> Result<Self, Failure> {
        let mut bytes = Vec::new();
        let limited =
            |reader: &mut dyn Read, bytes: &mut Vec<u8>| reader.take(MAX_INPUT_BYTES + 1).read_to_end(bytes);
        let result = if path == "-" {
            limited(&mut Reading::new(std::io::stdin().lock(), "stdin", None), &mut bytes)
        } else {
            std::fs::File::open(path).and_then(|file| {
                // One allocation of the file's size: growing by doubling would hold up to twice
                // the input at the peak.
                let size = file.metadata().map_or(0, |m| m.len()).min(MAX_INPUT_BYTES + 1);
                bytes.reserve_exact(usize::try_from(size).unwrap_or(0));
                // A size of 0 is no size (a named pipe, a /proc file): counted as it comes.
                limited(&mut Reading::new(file, path, (size > 0).then_some(size)), &mut bytes)
            })
        };
        result.map_err(|e| Failure::Input(format!("{path}: {e}")))?;
        // Shown only when the input was large: what follows (checking, hashing) is as long.
        progress::then(format!("checking {}", if path == "-" { "stdin" } else { path }));
        if bytes.len() as u64 > MAX_INPUT_BYTES {
            return Err(Failure::Input(format!(
                "{path}: larger than the {MAX_INPUT_BYTES}-byte input limit"
            )));
        }
        let text = String::from_utf8(bytes).map_err(|_| Failure::Input(format!("{path}: not UTF-8")))?;
        Ok(Self { path: path.to_owned(), text })
    }

    /// The input as a document named by its path.
    pub fn doc(&self) -> Doc<'_> {
        Doc::text(&self.path, &self.text)
    }
}

/// Skips the rest of a line without keeping it.
fn skip_line(reader: &mut dyn BufRead) -> std::io::Result<()> {
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            return Ok(());
        }
        match buffer.iter().position(|b| *b == b'\n') {
            Some(end) => {
                reader.consume(end + 1);
                return Ok(());
            }
            None => {
                let length = buffer.len();
                reader.consume(length);
            }
        }
    }
}

/// The most lines `--jsonl` holds at once, and the most bytes: a chunk is decoded on all cores,
/// then printed in order.
const JSONL_CHUNK_LINES: usize = 256;
const JSONL_CHUNK_BYTES: usize = 64 << 20;

/// The next chunk of `--jsonl` lines (empty at the end of the input): up to
/// `JSONL_CHUNK_LINES` lines or `JSONL_CHUNK_BYTES` bytes. A line over the input limit is not
/// kept: it is `None`, answered by its error in its place.
fn read_chunk(reader: &mut dyn BufRead, path: &str) -> Result<Vec<Option<Vec<u8>>>, Failure> {
    let (mut chunk, mut bytes) = (Vec::new(), 0);
    while chunk.len() < JSONL_CHUNK_LINES && bytes < JSONL_CHUNK_BYTES {
        let mut line = Vec::new();
        let read = (&mut *reader)
            .take(MAX_INPUT_BYTES + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| Failure::Input(format!("{path}: {e}")))?;
        if read == 0 {
            break;
        }
        if line.len() as u64 > MAX_INPUT_BYTES {
            drop(line);
            skip_line(&mut *reader).map_err(|e| Failure::Input(format!("{path}: {e}")))?;
            chunk.push(None);
            continue;
        }
        bytes += line.len();
        chunk.push(Some(line));
    }
    Ok(chunk)
}

/// One `--jsonl` line as the document `name` (`line N`), or why it is none: over the input limit
/// (`None`), not UTF-8, or empty.
fn line_doc<'a>(line: Option<&'a [u8]>, name: &'a str) -> Result<Doc<'a>, Failure> {
    let Some(line) = line else {
        return Err(Failure::Input(format!(
            "{name}: longer than the {MAX_INPUT_BYTES}-byte input limit (not read)"
        )));
    };
    let text = std::str::from_utf8(line).map_err(|_| Failure::Input(format!("{name}: not UTF-8")))?;
    let text = text.trim_end_matches(['\n', '\r']);
    if text.trim().is_empty() {
        return Err(Failure::Input(format!("{name}: empty line")));
    }
    Ok(Doc::text(name, text))
}

/// `--jsonl`: one input per line, one JSON result per line, in input order. A line that fails, one
/// longer than the input limit included (it is skipped, never held), prints
/// `{"line": N, "error": "..."}` in its place (so output line N always answers input line N) and
/// the command exits 2 (3 for a backend failure) after the last line.
///
/// A whole chunk of lines is answered by one call, `answer(docs)[i]` for line `i` of the chunk (a
/// line already refused arrives as its error), which reads the lines on all cores and hashes
/// across them: both commands that take `--jsonl` (`checkpoint decode`, `block root`) commit
/// blocks that are often a tx or two each, too few to fill the batch kernel's lanes alone.
pub fn jsonl_chunks(
    path: &str,
    answer: impl Fn(Vec<Result<Doc<'_>, Failure>>) -> Vec<Result<Json, Failure>>,
) -> Result<(), Failure> {
    let mut reader: Box<dyn BufRead> = if path == "-" {
        Box::new(std::io::BufReader::new(Reading::new(std::io::stdin().lock(), "stdin", None)))
    } else {
        let file = std::fs::File::open(path).map_err(|e| Failure::Input(format!("{path}: {e}")))?;
        let size = file.metadata().ok().map(|m| m.len()).filter(|&size| size > 0);
        Box::new(std::io::BufReader::new(Reading::new(file, path, size)))
    };
    let name = if path == "-" { "stdin" } else { path };
    let (mut line_number, mut failed, mut backend_failed) = (0usize, 0usize, false);
    loop {
        let chunk = read_chunk(&mut *reader, path)?;
        if chunk.is_empty() {
            break;
        }
        let first = line_number + 1;
        line_number += chunk.len();
        progress::message(format!("{name}: answering lines {first} to {line_number}"));
        let names: Vec<String> = (first..=line_number).map(|n| format!("line {n}")).collect();
        let docs = chunk.iter().zip(&names).map(|(line, name)| line_doc(line.as_deref(), name)).collect();
        let results = answer(docs);
        // One answer per line is what keeps output line N answering input line N.
        if results.len() != names.len() {
            return Err(Failure::Backend(format!(
                "lines {first} to {line_number}: {} answers for {} lines",
                results.len(),
                names.len()
            )));
        }
        for (i, result) in results.into_iter().enumerate() {
            let reason = match result {
                Ok(value) => {
                    emit(&value.to_string())?;
                    continue;
                }
                Err(Failure::Closed) => return Err(Failure::Closed),
                Err(Failure::Backend(reason)) => {
                    backend_failed = true;
                    format!("backend failure: {reason}")
                }
                Err(
                    Failure::Input(reason)
                    | Failure::Check { reason, .. }
                    | Failure::Output(reason)
                    | Failure::Transport(reason)
                    | Failure::Summary { reason, .. },
                ) => reason,
            };
            failed += 1;
            emit(&Json::from(Object::new().with("line", first + i).with("error", reason)).to_string())?;
        }
        progress::message(format!("{name}: {line_number} lines answered, reading on"));
    }
    match (failed, backend_failed) {
        (0, _) => Ok(()),
        (n, true) => {
            Err(Failure::Backend(format!("{n} of {line_number} lines failed; see their \"error\" records")))
        }
        (n, false) => {
            Err(Failure::Input(format!("{n} of {line_number} lines failed; see their \"error\" records")))
        }
    }
}
