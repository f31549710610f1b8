//! The one error every front end reports: which document (as the front end named it) and what is
//! wrong with it, typed, with its class ([`Classify`]) deciding the exit status or the exception.

use txfx_membership::{
    ArchiveError, BuildError, CategoryError, ChainError, HeaderError, StoredError, TxLookupError, VerifyError,
};
use txfx_poseidon::field::{FieldError, fr_to_hex};
use txfx_poseidon::{BackendError, Fr};
use txfx_tx_effects::blob::BlobError;
use txfx_tx_effects::checkpoint::CheckpointDecodeError;
use txfx_tx_effects::{BlockNumber, IndexOutOfBounds};

use crate::classify::{Classify, ErrorClass, nested};
use crate::json::fault::{Locate, Within};
use crate::json::wire::Raw;
use crate::json::{JsonError, JsonInput, Malformed, Quoted};

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

    /// Reads the document with `read` (see [`JsonInput`]: the whole text is checked to be JSON
    /// first, and a fault is located by line and column).
    pub(crate) fn read<T>(
        &self,
        read: impl FnOnce(Raw<'_>) -> Result<T, Problem>,
    ) -> Result<T, DocumentError> {
        self.input.read(read).map_err(|problem| self.error(problem))
    }
}

/// A value a claim or a fact holds, as messages print it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// A number (a block number, an index).
    Number(u64),
    /// A field element (a hash, a root).
    Field(Fr),
}

impl std::fmt::Display for Claim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Number(value) => write!(f, "{value}"),
            Self::Field(value) => f.write_str(&fr_to_hex(value)),
        }
    }
}

impl From<BlockNumber> for Claim {
    fn from(number: BlockNumber) -> Self {
        Self::Number(u64::from(number.get()))
    }
}

impl From<Fr> for Claim {
    fn from(value: Fr) -> Self {
        Self::Field(value)
    }
}

/// A claim a document makes, and the fact it contradicts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} is {claimed}, but {against} is {actual}")]
pub struct Contradiction {
    /// The claim (`l2BlockNumber`, `the witness's root`).
    pub what: &'static str,
    /// Its value.
    pub claimed: Claim,
    /// What it is compared with.
    pub against: &'static str,
    /// That value.
    pub actual: Claim,
    /// The link of the chain the claim belongs to.
    pub link: &'static str,
}

impl Contradiction {
    /// A claim (`what`, `claimed`) that contradicts a fact (`against`, `actual`) of the chain's
    /// `link`, boxed as the errors that carry one hold it.
    pub fn boxed(
        what: &'static str,
        claimed: impl Into<Claim>,
        against: &'static str,
        actual: impl Into<Claim>,
        link: &'static str,
    ) -> Box<Self> {
        Box::new(Self { what, claimed: claimed.into(), against, actual: actual.into(), link })
    }
}

/// What is wrong with a JSON-RPC response.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RpcProblem {
    /// A response without a result: the node knows no such thing.
    #[error("the JSON-RPC response has no result: the node does not know what was asked for")]
    NoResult,
    /// A response carrying an error.
    #[error("the node answered with an error{}: {message}", .code.map(|code| format!(" {code}")).unwrap_or_default())]
    NodeError {
        /// The error's `code`, if it has a numeric one.
        code: Option<i64>,
        /// Its `message` (or the whole error, quoted).
        message: Quoted,
    },
    /// A response with both `result` and `error`: JSON-RPC gives one or the other, and readers
    /// that look at one first would read it two ways.
    #[error("the JSON-RPC response carries both a result and an error; a response may carry only one")]
    ResultAndError,
    /// A batch of responses (a JSON array of them), where one document is read.
    #[error("a batch of JSON-RPC responses (a JSON array of them): give the one response to read")]
    Batch,
    /// A batch with no response to the request of this id.
    #[error("the batch of JSON-RPC responses has no answer with id {id}")]
    NoAnswer {
        /// The request's id.
        id: u64,
    },
    /// A single response where a batch of them answers a batch of requests.
    #[error("the node answered a batch of requests with a single response")]
    NotABatch,
    /// A response to a request that was not sent.
    #[error("the batch of JSON-RPC responses answers id {id}, which no request had")]
    UnaskedId {
        /// The id.
        id: u64,
    },
    /// A batch with two responses of one id: which answers the request cannot be told.
    #[error("the batch of JSON-RPC responses answers id {id} twice")]
    RepeatedId {
        /// The id.
        id: u64,
    },
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
    /// A JSON-RPC response that does not carry one result.
    #[error(transparent)]
    Rpc(#[from] RpcProblem),
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
    /// The tx hash asked for selects no one tx of the block.
    #[error(transparent)]
    TxLookup(#[from] TxLookupError),
    /// A witness that could not be built.
    #[error(transparent)]
    Build(#[from] BuildError),
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
    #[error(transparent)]
    Contradicts(Box<Contradiction>),
    /// A tx selector that is neither an index nor a tx hash.
    #[error("tx {given}: not an index (decimal digits) or a tx hash (0x-hex)")]
    BadTxSelector {
        /// What was given.
        given: Quoted,
    },
    /// An expectation about a fact this check does not establish: it could never be met.
    #[error("{fact} cannot be expected here: {why}")]
    CannotExpect {
        /// The fact (`a block hash`).
        fact: &'static str,
        /// Why this check does not establish it.
        why: &'static str,
    },
    /// The block number the caller gave is not the one the document gives.
    #[error("block number {given} was given, {document_says} is of block {document}")]
    BlockNumberConflict {
        /// The caller's.
        given: BlockNumber,
        /// The document's.
        document: BlockNumber,
        /// What in the document gives it (`the L2Block's header`).
        document_says: &'static str,
    },
    /// A block number is needed and nothing gives one.
    #[error("give the block number: {why}")]
    BlockNumberMissing {
        /// Why the document gives none.
        why: &'static str,
    },
    /// A receipt of a tx that is in no block.
    #[error("the receipt says the tx is {}: it is in no block, so nothing can be proven about it", .status.name())]
    TxNotMined {
        /// Its status.
        status: crate::read::TxStatus,
    },
    /// A mined receipt without its effect, where the effect is read.
    #[error("the receipt carries no txEffect: ask getTxReceipt with includeTxEffect, or give the effect")]
    ReceiptWithoutEffect,
    /// A block without its body, where the body is read.
    #[error("the block response has no body: ask getBlock with includeTransactions, or give the body")]
    BlockWithoutBody,
    /// A bare leaf as the subject of a chain, which ends in a tx.
    #[error("a chain ends in a tx: give a tx hash, an effect or a category proof, not a bare leaf")]
    LeafEndsNoChain,
    /// A decoded checkpoint whose block claims a tx-effects root its body does not give.
    #[error("block {block}: txEffectsTreeRoot {} is given, its body gives {}", fr_to_hex(.claimed), fr_to_hex(.computed))]
    ClaimedRootNotBody {
        /// The block's index in the checkpoint.
        block: usize,
        /// The root given.
        claimed: Fr,
        /// The body's.
        computed: Fr,
    },
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
        Self::Json(JsonError::from(error))
    }
}

impl Problem {
    /// A field element at `path` that does not parse.
    pub fn field(path: impl Into<String>, source: FieldError) -> Self {
        Self::Json(JsonError::Field { path: path.into(), source })
    }
}

impl Problem {
    /// A claim a document makes (`what`, `claimed`) that contradicts a fact (`against`,
    /// `actual`) of the chain's `link`.
    pub(crate) fn contradicts(
        what: &'static str,
        claimed: impl Into<Claim>,
        against: &'static str,
        actual: impl Into<Claim>,
        link: &'static str,
    ) -> Self {
        Self::Contradicts(Contradiction::boxed(what, claimed, against, actual, link))
    }

    /// The problem of a document read as `what`: a malformed document names what it was read as.
    #[must_use]
    pub(crate) fn expecting(self, what: &'static str) -> Self {
        match self {
            Self::Json(error) => Self::Json(error.expecting(what)),
            other => other,
        }
    }
}

impl Within for Problem {
    fn within(self, key: &str) -> Self {
        match self {
            Self::Json(error) => Self::Json(error.within(key)),
            other => other,
        }
    }
}

impl Locate for Problem {
    fn malformed_mut(&mut self) -> Option<&mut Malformed> {
        match self {
            Self::Json(error) => error.malformed_mut(),
            _ => None,
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
    TxLookupError,
    RpcProblem,
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
            Problem::Contradicts(contradiction) => contradiction.link,
            Problem::TxNotMined { .. } => "tx",
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
            Self::Rpc(source) => nested("Rpc", source),
            Self::Header(source) => nested("Header", source),
            Self::Archive(source) => nested("Archive", source),
            Self::Stored(source) => nested("Stored", source),
            Self::Proof(source) => nested("Proof", source),
            Self::Checkpoint(source) => nested("Checkpoint", source),
            Self::Blob(source) => nested("Blob", source),
            Self::OutOfBounds(source) => nested("OutOfBounds", source),
            Self::TxLookup(source) => nested("TxLookup", source),
            Self::Build(source) => nested("Build", source),
            Self::Verify(source) => nested("Verify", source),
            Self::Chain(source) => nested("Chain", source),
            Self::BodyNotInHeader { .. } => "BodyNotInHeader".into(),
            Self::Contradicts(_) => "Contradicts".into(),
            Self::BadTxSelector { .. } => "BadTxSelector".into(),
            Self::CannotExpect { .. } => "CannotExpect".into(),
            Self::BlockNumberConflict { .. } => "BlockNumberConflict".into(),
            Self::BlockNumberMissing { .. } => "BlockNumberMissing".into(),
            Self::LeafEndsNoChain => "LeafEndsNoChain".into(),
            Self::TxNotMined { .. } => "TxNotMined".into(),
            Self::ReceiptWithoutEffect => "ReceiptWithoutEffect".into(),
            Self::BlockWithoutBody => "BlockWithoutBody".into(),
            Self::ClaimedRootNotBody { .. } => "ClaimedRootNotBody".into(),
            Self::TooMuch { .. } => "TooMuch".into(),
            Self::Backend(source) => nested("Backend", source),
        }
    }

    fn class(&self) -> ErrorClass {
        match self {
            Self::Ambiguous { .. }
            | Self::Rpc(_)
            | Self::BadTxSelector { .. }
            | Self::CannotExpect { .. }
            | Self::BlockNumberConflict { .. }
            | Self::BlockNumberMissing { .. }
            | Self::LeafEndsNoChain
            | Self::ReceiptWithoutEffect
            | Self::BlockWithoutBody
            | Self::ClaimedRootNotBody { .. } => ErrorClass::Malformed,
            Self::TxNotMined { .. } => ErrorClass::Refuted,
            Self::TooMuch { .. } => ErrorClass::OutOfRange,
            Self::Json(source) => source.class(),
            Self::Header(source) => source.class(),
            Self::Archive(source) => source.class(),
            Self::Stored(source) => source.class(),
            Self::Proof(source) => source.class(),
            Self::Checkpoint(source) => source.class(),
            Self::Blob(source) => source.class(),
            Self::OutOfBounds(source) => source.class(),
            Self::TxLookup(source) => source.class(),
            Self::Build(source) => source.class(),
            Self::Verify(source) => source.class(),
            Self::Chain(source) => source.class(),
            Self::BodyNotInHeader { .. } | Self::Contradicts(_) => ErrorClass::Refuted,
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
