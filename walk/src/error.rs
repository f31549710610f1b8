//! Why a walk did not end in a verdict: [`WalkError`], which classifies itself, so that the
//! command line's exit status and the npm package's error class both read it from here.

use std::time::Duration;

use txfx_documents::classify::{Classify, ErrorClass, nested};
use txfx_documents::json::Quoted;
use txfx_documents::read::TxStatus;
use txfx_documents::txfx_membership::txfx_poseidon::Fr;
use txfx_documents::txfx_membership::txfx_poseidon::field::fr_to_hex;
use txfx_documents::txfx_membership::txfx_tx_effects::BlockNumber;
use txfx_documents::txfx_membership::txfx_tx_effects::checkpoint::CheckpointError;
use txfx_documents::{Contradiction, DocumentError};

use crate::l1::L1Problem;
use crate::{L1Facts, Target};

/// Why a request brought no answer, as the driver that sent it saw: the driver moves bytes and
/// tells the walk ([`crate::Walk::handle_failure`]), the walk names the fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TransportProblem {
    /// The walk's deadline passed.
    #[error("no answer within the walk's {} ms", .after.as_millis())]
    Timeout {
        /// The deadline.
        after: Duration,
    },
    /// An answer longer than the request's bound: reading stopped there (or never started, for a
    /// declared length past it).
    #[error(
        "the answer is longer than {limit} bytes, the most a valid answer to it takes; reading stopped there"
    )]
    TooLarge {
        /// The bound.
        limit: u64,
    },
    /// A redirect, which the drivers do not follow: an answer must come from the URL given.
    #[error("HTTP {status} redirect refused (an answer must come from the URL given)")]
    Redirect {
        /// The status.
        status: u16,
    },
    /// An answer that is not UTF-8 text.
    #[error("the answer is not UTF-8 text")]
    NotText,
    /// The connection failed.
    #[error("{kind}: {detail}")]
    Connection {
        /// What failed.
        kind: ConnectionFault,
        /// The driver's words for it (the endpoint's address never appears here).
        detail: Quoted,
    },
    /// The caller gave up on the walk (an `AbortSignal`, a cancelled task).
    #[error("aborted by the caller")]
    Aborted,
}

/// What part of a connection failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConnectionFault {
    /// The host name did not resolve.
    #[error("host not found")]
    HostNotFound,
    /// Nothing listened, or the peer closed or reset the connection.
    #[error("connection refused or reset")]
    Refused,
    /// The TLS handshake or a certificate failed.
    #[error("TLS failed")]
    Tls,
    /// The peer spoke no HTTP the driver reads.
    #[error("not an HTTP answer")]
    Protocol,
    /// Anything else the runtime reports.
    #[error("the request failed")]
    Other,
}

/// Why a walk did not end in a verdict.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WalkError {
    /// An answer that is not a document the method returns, or one whose document contradicts
    /// itself or a fact (its link names where), or a chain that does not hold.
    #[error("{method}: {source}")]
    Answer {
        /// Who answered.
        target: Target,
        /// The method whose answer it is.
        method: String,
        /// What is wrong.
        source: DocumentError,
    },
    /// An answer of another shape than the method returns in v6 (a body without its block, an
    /// `L2Block` where a block response is due): no v6 node's answer.
    #[error("{method}: the {} answered {got}, where a v6 node answers {expected}", .target.name())]
    Shape {
        /// Who answered.
        target: Target,
        /// The method.
        method: String,
        /// What came.
        got: &'static str,
        /// What v6 answers.
        expected: &'static str,
    },
    /// A block whose body cannot be one block of a checkpoint: refused before it is hashed.
    #[error("{method}: block {block}'s body cannot be in a checkpoint: {source}")]
    Oversized {
        /// The method.
        method: String,
        /// The block.
        block: BlockNumber,
        /// Why.
        source: CheckpointError,
    },
    /// An HTTP status other than 200.
    #[error("the {} answered HTTP {status}: {body}", .target.name())]
    Http {
        /// Who answered.
        target: Target,
        /// The status.
        status: u16,
        /// The start of its body.
        body: Quoted,
    },
    /// An error answer to a request.
    #[error("{method}: the {} answered with an error{}: {message}", .target.name(), .code.map(|c| format!(" {c}")).unwrap_or_default())]
    NodeError {
        /// Who answered.
        target: Target,
        /// The method.
        method: String,
        /// Its code.
        code: Option<i64>,
        /// Its message.
        message: Quoted,
    },
    /// No answer (`null`) where the method must answer.
    #[error("{method}: the {} has no {what}", .target.name())]
    Nothing {
        /// Who answered.
        target: Target,
        /// The method.
        method: String,
        /// What is missing.
        what: &'static str,
    },
    /// A request that brought no answer.
    #[error("the {}: {problem}", .target.name())]
    Transport {
        /// Who was asked.
        target: Target,
        /// What went wrong.
        problem: TransportProblem,
    },
    /// The tx is in no block.
    #[error("the node says the tx is {}: it is in no block, so nothing can be proven about it", .status.name())]
    NotMined {
        /// The receipt's status.
        status: TxStatus,
    },
    /// The answers contradict each other, what was asked, or L1.
    #[error("{0}")]
    Contradicts(Box<Contradiction>),
    /// The tx's checkpoint is not on L1 at the block read.
    #[error(
        "the tx's block is in checkpoint {checkpoint}, and the rollup's newest checkpoint at L1 block {} ({}) is {pending}: not on L1 yet",
        .l1.block.number, .l1.tag.name()
    )]
    NotOnL1 {
        /// The node's checkpoint of the block.
        checkpoint: u64,
        /// The rollup's pending checkpoint.
        pending: u64,
        /// Where L1 was read.
        l1: Box<L1Facts>,
    },
    /// The block after the checkpoint's last is not there yet, so no witness against the
    /// checkpoint's archive can be asked for.
    #[error(
        "block {last} ends checkpoint {checkpoint} and no block follows it yet: the node proves a block against the archive before a later block, so ask again once block {} exists",
        u64::from(.last.get()) + 1
    )]
    NoReferenceBlock {
        /// The checkpoint.
        checkpoint: u64,
        /// Its last block.
        last: BlockNumber,
    },
    /// The rollup's first archive is not the network's genesis archive: another rollup, or
    /// another network.
    #[error("the rollup's archiveAt(0) is {}, {network}'s genesis archive root is {}", fr_to_hex(.on_l1), fr_to_hex(.genesis))]
    WrongRollup {
        /// The network.
        network: String,
        /// Its genesis archive root.
        genesis: Fr,
        /// What the rollup holds.
        on_l1: Fr,
    },
    /// A network the walk cannot check (see [`crate::Walk::new`]).
    #[error("network {network} {problem}")]
    Network {
        /// The network's name.
        network: String,
        /// Why it cannot be checked.
        problem: &'static str,
    },
    /// An L1 answer that is not what the call returns.
    #[error("L1: {0}")]
    L1(#[from] L1Problem),
    /// The L1 block's header or the rollup's storage proof does not check (`txfx-ethereum`):
    /// an answer that does not hash to the block asked for, or a proof that does not reach the
    /// header's state root, is a lie of the L1 node; one that cannot be read is its fault.
    #[error("the L1 node's answer: {0}")]
    L1Proof(txfx_ethereum::EthereumError),
    /// An anchor the walk cannot take as it is.
    #[error("{0}")]
    Anchor(crate::AnchorChoiceError),
    /// The node kept the walk asking past [`crate::LIMITS`]' `max_requests`.
    #[error("the walk needs more than {max} requests: the node kept it asking")]
    TooManyRequests {
        /// The limit.
        max: usize,
    },
    /// An answer given to a walk that asked nothing: it has ended, or the driver answered twice.
    #[error("the walk has ended: it asked for no answer")]
    Ended,
}

impl WalkError {
    /// The endpoint whose answer (or silence) the error is about, where it is one endpoint's.
    pub fn target(&self) -> Option<Target> {
        match self {
            Self::Answer { target, .. }
            | Self::Shape { target, .. }
            | Self::Http { target, .. }
            | Self::NodeError { target, .. }
            | Self::Nothing { target, .. }
            | Self::Transport { target, .. } => Some(*target),
            Self::Oversized { .. } => Some(Target::Node),
            Self::L1(_) | Self::L1Proof(_) => Some(Target::L1),
            _ => None,
        }
    }

    /// The link of the chain (or the walk) that broke, for a refutation; `None` where nothing
    /// was refuted (an answer that is not a document, a transport failure).
    pub fn link(&self) -> Option<&'static str> {
        match self {
            Self::Answer { source, .. } => source.link(),
            Self::Contradicts(contradiction) => Some(contradiction.link),
            Self::NotMined { .. } => Some("tx"),
            Self::NotOnL1 { .. } | Self::WrongRollup { .. } | Self::L1(L1Problem::OtherBlock { .. }) => {
                Some("l1")
            }
            Self::L1Proof(error) if error.refutes() => Some("l1"),
            Self::NoReferenceBlock { .. } => Some("archive"),
            _ => None,
        }
    }
}

impl Classify for TransportProblem {
    fn kind(&self) -> String {
        String::from(match self {
            Self::Timeout { .. } => "Timeout",
            Self::TooLarge { .. } => "TooLarge",
            Self::Redirect { .. } => "Redirect",
            Self::NotText => "NotText",
            Self::Connection { .. } => "Connection",
            Self::Aborted => "Aborted",
        })
    }

    fn class(&self) -> ErrorClass {
        ErrorClass::Transport
    }
}

impl Classify for WalkError {
    fn kind(&self) -> String {
        match self {
            Self::Answer { source, .. } => nested("Answer", source),
            Self::Transport { problem, .. } => nested("Transport", problem),
            Self::L1(problem) => format!("L1/{}", problem.name()),
            Self::L1Proof(error) => format!("L1Proof/{}", error.name()),
            Self::Anchor(_) => "Anchor".into(),
            Self::Shape { .. } => "Shape".into(),
            Self::Oversized { .. } => "Oversized".into(),
            Self::Http { .. } => "Http".into(),
            Self::NodeError { .. } => "NodeError".into(),
            Self::Nothing { .. } => "Nothing".into(),
            Self::NotMined { .. } => "NotMined".into(),
            Self::Contradicts(_) => "Contradicts".into(),
            Self::NotOnL1 { .. } => "NotOnL1".into(),
            Self::NoReferenceBlock { .. } => "NoReferenceBlock".into(),
            Self::WrongRollup { .. } => "WrongRollup".into(),
            Self::Network { .. } => "Network".into(),
            Self::TooManyRequests { .. } => "TooManyRequests".into(),
            Self::Ended => "Ended".into(),
        }
    }

    /// Whose fault it is: a refutation names its link; an answer that brought nothing usable is
    /// the endpoint's ([`ErrorClass::Transport`]), whatever was wrong with its document; only
    /// the caller's own parameters and a driver's misuse are [`ErrorClass::Malformed`].
    fn class(&self) -> ErrorClass {
        match self {
            Self::Answer { source, .. } => match source.class() {
                ErrorClass::Refuted => ErrorClass::Refuted,
                ErrorClass::Backend => ErrorClass::Backend,
                _ => ErrorClass::Transport,
            },
            Self::Contradicts(_)
            | Self::NotMined { .. }
            | Self::NotOnL1 { .. }
            | Self::WrongRollup { .. }
            | Self::NoReferenceBlock { .. }
            | Self::L1(L1Problem::OtherBlock { .. }) => ErrorClass::Refuted,
            Self::L1Proof(error) if error.refutes() => ErrorClass::Refuted,
            Self::Network { .. } | Self::Anchor(_) | Self::Ended => ErrorClass::Malformed,
            Self::Shape { .. }
            | Self::Oversized { .. }
            | Self::Http { .. }
            | Self::NodeError { .. }
            | Self::Nothing { .. }
            | Self::Transport { .. }
            | Self::L1(_)
            | Self::L1Proof(_)
            | Self::TooManyRequests { .. } => ErrorClass::Transport,
        }
    }
}
