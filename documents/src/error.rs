//! The one error every front end reports: which document (as the front end named it) and what is
//! wrong with it, typed, with its class ([`Classify`]) deciding the exit status or the exception.

use txfx_membership::{
    ArchiveError, BuildError, CategoryError, ChainError, HeaderError, StoredError, UnknownTx, VerifyError,
};
use txfx_poseidon::field::{FieldError, fr_to_hex};
use txfx_poseidon::{BackendError, Classify, ErrorClass, Fr, classify::nested};
use txfx_tx_effects::blob::BlobError;
use txfx_tx_effects::checkpoint::CheckpointDecodeError;
use txfx_tx_effects::{BlockNumber, IndexOutOfBounds};

use crate::json::{JsonError, JsonInput, Malformed};

/// A document and the name a front end gives it in messages (a file path, an argument's name).
#[derive(Debug, Clone, Copy)]
pub struct Doc<'a> {
    /// The name.
    pub name: &'a str,
    /// The document.
    pub input: JsonInput<'a>,
}

impl<'a> Doc<'a> {
    /// JSON text named `name`.
    pub fn text(name: &'a str, text: &'a str) -> Self {
        Self { name, input: JsonInput::Text(text) }
    }

    /// A parsed value named `name`.
    pub fn value(name: &'a str, value: &'a serde_json::Value) -> Self {
        Self { name, input: JsonInput::Value(value) }
    }

    /// `problem`, as this document's.
    pub fn error(&self, problem: impl Into<Problem>) -> DocumentError {
        DocumentError { document: Some(self.name.to_owned()), problem: Box::new(problem.into()) }
    }
}

/// What is wrong, by kind.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Problem {
    /// JSON that is not the expected shape, or whose content breaks a rule (every format's
    /// reader reports through it; see [`JsonError`]).
    #[error(transparent)]
    Json(#[from] JsonError),
    /// A document with keys of two shapes, which Aztec's TypeScript would read one way or the
    /// other depending on the schema it picked.
    #[error(
        "ambiguous document: it has keys of {first} ({first_keys}) and of {second} ({second_keys}); which is meant cannot be told, so it is refused"
    )]
    Ambiguous {
        /// One shape.
        first: &'static str,
        /// Its keys present.
        first_keys: String,
        /// The other shape.
        second: &'static str,
        /// Its keys present.
        second_keys: String,
    },
    /// A JSON-RPC response without a result: the node knows no such thing.
    #[error("the JSON-RPC response has no result: the node does not know what was asked for")]
    NoResult,
    /// A JSON-RPC response carrying an error.
    #[error("the node answered with an error: {message}")]
    NodeError {
        /// The error object, as JSON.
        message: String,
    },
    /// A header that cannot serve (a pre-AZIP-26 header asked to authenticate a tx).
    #[error(transparent)]
    Header(#[from] HeaderError),
    /// An archive witness that does not verify.
    #[error(transparent)]
    Archive(#[from] ArchiveError),
    /// A stored block that does not hold together.
    #[error(transparent)]
    Stored(#[from] StoredError),
    /// A category proof that does not hold.
    #[error(transparent)]
    Proof(#[from] CategoryError),
    /// Checkpoint blob fields that do not decode.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointDecodeError),
    /// Block blob fields that do not decode.
    #[error(transparent)]
    Blob(#[from] BlobError),
    /// A tx index outside the block.
    #[error(transparent)]
    OutOfBounds(#[from] IndexOutOfBounds),
    /// No tx of the block has the hash asked for.
    #[error(transparent)]
    UnknownTx(#[from] UnknownTx),
    /// A witness that does not prove membership.
    #[error(transparent)]
    Verify(#[from] VerifyError),
    /// A chain with a broken link.
    #[error(transparent)]
    Chain(#[from] ChainError),
    /// An `L2Block` whose body is not the one its header commits to.
    #[error("the L2Block's body has txEffectsTreeRoot {}, its header commits to {}", fr_to_hex(.body), fr_to_hex(.header))]
    BodyNotInHeader {
        /// The header's `txEffectsTreeRoot`.
        header: Fr,
        /// The body's.
        body: Fr,
    },
    /// A claim a document makes that contradicts what was proven or given.
    #[error("{what} is {claimed}, but {against} is {actual}")]
    Contradicts {
        /// The claim (`l2BlockNumber`, `the witness's root`).
        what: &'static str,
        /// Its value.
        claimed: String,
        /// What it is compared with.
        against: &'static str,
        /// That value.
        actual: String,
        /// The link of the chain the claim belongs to.
        link: &'static str,
    },
    /// Two inputs disagree about something the caller must settle (`--block-number` against an
    /// `L2Block`'s header), or ask for something impossible.
    #[error("{0}")]
    Conflict(String),
    /// Too much asked for: more than a valid input can need.
    #[error("{what} is {given}, at most {max} allowed")]
    TooMuch {
        /// What.
        what: &'static str,
        /// Given.
        given: u64,
        /// The limit.
        max: u64,
    },
    /// The hashing backend failed.
    #[error(transparent)]
    Backend(#[from] BackendError),
}

impl From<Malformed> for Problem {
    fn from(error: Malformed) -> Self {
        Self::Json(JsonError::Malformed(error))
    }
}

impl Problem {
    /// A field element at `path` that does not parse.
    pub fn field(path: impl Into<String>, source: FieldError) -> Self {
        Self::Json(JsonError::Field { path: path.into(), source })
    }
}

impl From<BuildError> for Problem {
    fn from(error: BuildError) -> Self {
        match error {
            BuildError::OutOfBounds(error) => Self::OutOfBounds(error),
            BuildError::Backend(error) => Self::Backend(error),
            // A variant BuildError gains later is named by its own message.
            other => Self::Conflict(other.to_string()),
        }
    }
}

/// A document that cannot be read, an operation that cannot run, or a check that failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{problem}", .document.as_ref().map(|name| format!("{name}: ")).unwrap_or_default())]
pub struct DocumentError {
    /// The document at fault, as the front end named it; `None` when no one document is.
    pub document: Option<String>,
    /// What is wrong (boxed: errors travel far up, and stay small on the way).
    pub problem: Box<Problem>,
}

impl From<Problem> for DocumentError {
    fn from(problem: Problem) -> Self {
        Self { document: None, problem: Box::new(problem) }
    }
}

/// Every error a [`Problem`] wraps is a document error of no one document.
macro_rules! document_error_from {
    ($($source:ty),* $(,)?) => {$(
        impl From<$source> for DocumentError {
            fn from(error: $source) -> Self {
                Problem::from(error).into()
            }
        }
    )*};
}

document_error_from!(
    JsonError,
    Malformed,
    HeaderError,
    ArchiveError,
    StoredError,
    CategoryError,
    CheckpointDecodeError,
    BlobError,
    IndexOutOfBounds,
    UnknownTx,
    VerifyError,
    ChainError,
    BuildError,
    BackendError,
);

impl DocumentError {
    /// The link of the chain a refuted check broke (`header`, `archive`, `witness`, `tx`,
    /// `category`, `effect`, `expected`), for the verdict; `None` for an error that is no
    /// refuted check.
    pub fn link(&self) -> Option<&'static str> {
        if self.class() != ErrorClass::Refuted {
            return None;
        }
        Some(match self.problem.as_ref() {
            Problem::Chain(error) => error.link().map_or("chain", |link| link.name()),
            Problem::Archive(_) => "archive",
            Problem::Proof(CategoryError::Leaf(_)) | Problem::Verify(_) => "tx",
            Problem::Proof(_) | Problem::Json(JsonError::Proof(_)) => "category",
            Problem::Header(_) | Problem::BodyNotInHeader { .. } => "header",
            Problem::Contradicts { link, .. } => link,
            _ => "document",
        })
    }
}

impl Classify for Problem {
    fn kind(&self) -> String {
        match self {
            // A JSON error's kind is its own: `Malformed`, `Field/...`, `Invalid/...`.
            Self::Json(source) => source.kind(),
            Self::Ambiguous { .. } => "Ambiguous".into(),
            Self::NoResult => "NoResult".into(),
            Self::NodeError { .. } => "NodeError".into(),
            Self::Header(source) => nested("Header", source),
            Self::Archive(source) => nested("Archive", source),
            Self::Stored(source) => nested("Stored", source),
            Self::Proof(source) => nested("Proof", source),
            Self::Checkpoint(source) => nested("Checkpoint", source),
            Self::Blob(source) => nested("Blob", source),
            Self::OutOfBounds(source) => nested("OutOfBounds", source),
            Self::UnknownTx(source) => nested("UnknownTx", source),
            Self::Verify(source) => nested("Verify", source),
            Self::Chain(source) => nested("Chain", source),
            Self::BodyNotInHeader { .. } => "BodyNotInHeader".into(),
            Self::Contradicts { .. } => "Contradicts".into(),
            Self::Conflict(_) => "Conflict".into(),
            Self::TooMuch { .. } => "TooMuch".into(),
            Self::Backend(source) => nested("Backend", source),
        }
    }

    fn class(&self) -> ErrorClass {
        match self {
            Self::Ambiguous { .. } | Self::NoResult | Self::NodeError { .. } | Self::Conflict(_) => {
                ErrorClass::Malformed
            }
            Self::TooMuch { .. } => ErrorClass::OutOfRange,
            Self::Json(source) => source.class(),
            Self::Header(source) => source.class(),
            Self::Archive(source) => source.class(),
            Self::Stored(source) => source.class(),
            Self::Proof(source) => source.class(),
            Self::Checkpoint(source) => source.class(),
            Self::Blob(source) => source.class(),
            Self::OutOfBounds(source) => source.class(),
            Self::UnknownTx(source) => source.class(),
            Self::Verify(source) => source.class(),
            Self::Chain(source) => source.class(),
            Self::BodyNotInHeader { .. } | Self::Contradicts { .. } => ErrorClass::Refuted,
            Self::Backend(_) => ErrorClass::Backend,
        }
    }
}

impl Classify for DocumentError {
    fn kind(&self) -> String {
        self.problem.kind()
    }

    fn class(&self) -> ErrorClass {
        self.problem.class()
    }
}

/// A block number a front end was given as a number (`--block-number`, a JavaScript number).
///
/// # Errors
/// [`Problem::TooMuch`] above 2^32 − 1.
pub fn block_number(value: u64) -> Result<BlockNumber, DocumentError> {
    BlockNumber::try_from(value).map_err(|_| {
        Problem::TooMuch { what: "a block number", given: value, max: u64::from(u32::MAX) }.into()
    })
}
