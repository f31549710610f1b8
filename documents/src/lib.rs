#![doc = include_str!("../README.md")]

pub mod classify;
pub mod error;
pub mod json;
pub mod ops;
pub mod read;
pub mod verdict;

pub use error::{Claim, Contradiction, Doc, DocumentError, Problem, RpcProblem};
pub use ops::{ArchiveSubject, Expected, Subject, TxSelector};
pub use verdict::{Proves, Verdict};

/// The largest document a front end reads, in bytes: a 64-tx log-heavy block is about 36 MiB of
/// JSON, and no valid document comes near this. The CLI stops reading a file here; the JavaScript
/// bindings refuse longer text before parsing it.
pub const MAX_DOCUMENT_BYTES: u64 = 256 << 20;

/// `text` as the document `name`, unless it is longer than [`MAX_DOCUMENT_BYTES`].
///
/// # Errors
/// [`Problem::TooMuch`], before any of it is read.
pub fn document<'a>(name: &'a str, text: &'a str) -> Result<Doc<'a>, DocumentError> {
    let given = u64::try_from(text.len()).unwrap_or(u64::MAX);
    if given > MAX_DOCUMENT_BYTES {
        return Err(Doc::text(name, "").error(Problem::TooMuch {
            what: "the document's length in bytes",
            given,
            max: MAX_DOCUMENT_BYTES,
        }));
    }
    Ok(Doc::text(name, text))
}

/// The crates below, re-exported so a front end needs no other dependency.
pub use txfx_membership;
