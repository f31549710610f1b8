#![doc = include_str!("../README.md")]

/// txfx-documents, re-exported (and through it the crates below): the documents the walk reads,
/// the verdict it gives, `Fr` and the backend traits.
pub use txfx_documents;
/// The field element and the hashing backends a walk takes, one level down.
pub use txfx_documents::txfx_membership::txfx_poseidon::{Fr, HashBackend, Sequential};

mod anchor;
mod error;
pub mod l1;
mod limits;
mod redact;
mod steps;
mod url;
mod verdict;

pub use error::{ConnectionFault, TransportProblem, WalkError};
pub use limits::{BYTES_PER_FIELD, ENVELOPE_BYTES, LIMITS, WalkLimits};
pub use redact::{TOKEN_MIN_LEN, redact_in, redact_url};
pub use url::{UrlProblem, check_endpoint_url};
pub use verdict::{Finality, L1Evidence, L1Facts, WalkVerdict, WitnessFallback, WitnessSource};

use txfx_documents::Expected;
use txfx_documents::json::Quoted;
use txfx_documents::json::rpc::RpcRequest;
use txfx_documents::txfx_membership::txfx_tx_effects::Category;
use txfx_documents::txfx_membership::{ElementQuery, Network, ProtocolVersion};

use crate::l1::{Address, BlockTag};
use crate::steps::Phase;

/// The most blocks one checkpoint holds (`MAX_BLOCKS_PER_CHECKPOINT`): the reference block the
/// archive witness is asked against is at most this many blocks past the tx's block.
pub const MAX_BLOCKS_PER_CHECKPOINT: u64 = 72;

/// The protocol the walk reads: what Aztec's nodes serve.
const PROTOCOL: ProtocolVersion = ProtocolVersion::V6;

/// The archive root the walk trusts: read from L1, or given by the caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// The rollup contract's `archiveAt(checkpoint)` at an L1 block.
    L1 {
        /// The rollup contract.
        rollup: Address,
        /// The L1 block to read it at (`finalized` by default).
        tag: BlockTag,
    },
    /// The rollup the Registry names canonical (`getCanonicalRollup()`) at the L1 block, then as
    /// [`Anchor::L1`]: a network's Registry (its `l1` deployment) finds its current rollup.
    Registry {
        /// The Registry contract.
        registry: Address,
        /// The L1 block to read it and the rollup at (`finalized` by default).
        tag: BlockTag,
    },
    /// An archive root the caller trusts (read from L1 some other way): the walk asks the node
    /// for a witness against the archive of the tx's checkpoint, and this root must be it.
    Given(Fr),
}

/// What a caller named to anchor a walk, before the one rule that picks its [`Anchor`]
/// ([`Anchor::choose`]): the CLI's flags and the npm package's options both end here.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AnchorNames {
    /// A rollup contract (`--rollup`, `rollup`).
    pub rollup: Option<Address>,
    /// A Registry contract (`--registry`, `registry`).
    pub registry: Option<Address>,
    /// An archive root the caller trusts (`--archive-root`, `archiveRoot`).
    pub root: Option<Fr>,
    /// Whether an L1 node is given to ask (`--l1-rpc`, `l1Rpc`).
    pub l1: bool,
    /// The L1 block to read at (`finalized` by default).
    pub tag: BlockTag,
}

/// Why no [`Anchor`] follows from what a caller named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum AnchorChoiceError {
    /// Two anchors named: a rollup and a Registry, or an L1 contract and a root.
    #[error("two anchors named: give a rollup, a Registry or an archive root, one of them")]
    Both,
    /// No anchor: no root, and no L1 contract (named, or the network's Registry) with an L1 node.
    #[error(
        "no anchor named: give an L1 node with a rollup, a Registry or a network deployed on L1, or an archive root"
    )]
    Neither,
    /// An L1 contract named without an L1 node to ask.
    #[error("a rollup or Registry is read from an L1 node, and none is given")]
    NoL1Node,
    /// A Registry at an L1 block named by hash: the rollup a Registry names is read by a call,
    /// and at a hash every word is read by storage proof; the Registry's layout is not read yet.
    #[error("at an L1 block hash the rollup is read by storage proof: name the rollup, not a Registry")]
    RegistryByHash,
}

impl Anchor {
    /// The anchor a walk proves under: the rollup named; else the Registry named, or the
    /// network's (its [`L1Deployment`](txfx_documents::txfx_membership::L1Deployment)) when an
    /// L1 node is given and no root; else the root given.
    pub fn choose(names: AnchorNames, network: Option<&Network>) -> Result<Self, AnchorChoiceError> {
        let AnchorNames { rollup, registry, root, l1, tag } = names;
        if rollup.is_some() && registry.is_some()
            || root.is_some() && (rollup.is_some() || registry.is_some())
        {
            return Err(AnchorChoiceError::Both);
        }
        if (rollup.is_some() || registry.is_some()) && !l1 {
            return Err(AnchorChoiceError::NoL1Node);
        }
        let deployed = || {
            let deployment = network?.l1.as_ref()?;
            (l1 && root.is_none()).then_some(Address::from(deployment.registry))
        };
        let anchor = match (rollup, registry.or_else(deployed), root) {
            (Some(rollup), _, _) => Self::L1 { rollup, tag },
            (None, Some(registry), _) => Self::Registry { registry, tag },
            (None, None, Some(root)) => Self::Given(root),
            (None, None, None) => return Err(AnchorChoiceError::Neither),
        };
        anchor.problem().map_or(Ok(anchor), Err)
    }

    /// Why the walk cannot take this anchor as it is, if it cannot (a Registry at a block hash).
    pub fn problem(&self) -> Option<AnchorChoiceError> {
        matches!(self, Self::Registry { tag: BlockTag::Hash(_), .. })
            .then_some(AnchorChoiceError::RegistryByHash)
    }
}

/// What the walk ends in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WalkSubject {
    /// The tx: its effect, as the node sends it, hashed to its leaf.
    Tx,
    /// One category of the tx (and, with an element, one element of it), proven from its effect.
    Category(Category, Option<ElementQuery>),
}

/// The JSON-RPC namespace of the node's methods: `aztec_` (v6), or `node_`, its legacy alias.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Namespace {
    /// `aztec_`.
    Aztec,
    /// `node_`.
    Node,
}

impl Namespace {
    fn prefix(self) -> &'static str {
        match self {
            Self::Aztec => "aztec_",
            Self::Node => "node_",
        }
    }
}

/// A string that is no namespace.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{given}: not a namespace (aztec or node)")]
pub struct NotANamespace {
    /// What was given.
    pub given: Quoted,
}

impl std::str::FromStr for Namespace {
    type Err = NotANamespace;
    fn from_str(text: &str) -> Result<Self, NotANamespace> {
        match text.trim_end_matches('_') {
            "aztec" => Ok(Self::Aztec),
            "node" => Ok(Self::Node),
            _ => Err(NotANamespace { given: Quoted::new(text) }),
        }
    }
}

/// What a walk is asked to prove: [`WalkParams::new`], then the `with_…` methods for what is
/// not the default.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct WalkParams {
    /// The tx.
    pub tx_hash: Fr,
    /// Where the trusted archive root comes from.
    pub anchor: Anchor,
    /// What the verdict is about.
    pub subject: WalkSubject,
    /// What the verdict must name (a block number or hash the caller expects).
    pub expected: Expected,
    /// The network, whose genesis archive root L1's `archiveAt(0)` must be (when the network pins
    /// one), and whose L1 chain `eth_chainId` must be (when it names its L1 deployment): a
    /// wrong rollup address or L1 endpoint is found before anything read there is trusted.
    pub network: Option<Network>,
    /// The node's namespace; `None` tries `aztec_`, then `node_`.
    pub namespace: Option<Namespace>,
}

impl WalkParams {
    /// A walk proving tx `tx_hash` under `anchor`: about the tx itself, expecting nothing more,
    /// on no named network, in whichever namespace the node answers.
    pub fn new(tx_hash: Fr, anchor: Anchor) -> Self {
        Self {
            tx_hash,
            anchor,
            subject: WalkSubject::Tx,
            expected: Expected::default(),
            network: None,
            namespace: None,
        }
    }

    /// The verdict is about `subject`.
    #[must_use]
    pub fn with_subject(mut self, subject: WalkSubject) -> Self {
        self.subject = subject;
        self
    }

    /// The verdict must name what `expected` names.
    #[must_use]
    pub fn with_expected(mut self, expected: Expected) -> Self {
        self.expected = expected;
        self
    }

    /// The rollup must be `network`'s (its genesis archive root is checked on L1).
    #[must_use]
    pub fn with_network(mut self, network: Network) -> Self {
        self.network = Some(network);
        self
    }

    /// The node is asked in `namespace` only.
    #[must_use]
    pub fn with_namespace(mut self, namespace: Namespace) -> Self {
        self.namespace = Some(namespace);
        self
    }
}

/// Who a request is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The Aztec node.
    Node,
    /// The L1 node.
    L1,
}

impl Target {
    /// `node` or `L1`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Node => "node",
            Self::L1 => "L1",
        }
    }
}

/// A JSON-RPC batch to send: POST [`Request::body`] to the target's URL, and read at most
/// [`Request::max_answer_bytes`] of the answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    target: Target,
    body: String,
    requests: Vec<RpcRequest>,
    max_answer_bytes: u64,
}

impl Request {
    /// Who answers it.
    pub fn target(&self) -> Target {
        self.target
    }

    /// The batch, as JSON text.
    pub fn body(&self) -> &str {
        &self.body
    }

    /// The most bytes a valid answer to it takes: a driver stops reading there.
    pub fn max_answer_bytes(&self) -> u64 {
        self.max_answer_bytes
    }

    /// The methods it calls, in order.
    pub fn methods(&self) -> impl Iterator<Item = &str> {
        self.requests.iter().map(|request| request.method.as_str())
    }
}

/// What [`Walk::handle_response`] leads to.
#[derive(Debug, Clone, PartialEq)]
pub enum Progress {
    /// The walk asks again: send [`Walk::poll_request`]'s request.
    Continue,
    /// The walk is over: what it proved.
    Done(Box<WalkVerdict>),
}

/// A walk from a tx hash to a verdict (module docs): a state machine without I/O, a clock or
/// threads. It keeps the request it is waiting on; its driver sends it, within the deadline it
/// chose and the request's byte bound, and hands back the answer or why none came.
///
/// ```text
///  Walk::new ──▶ poll_request() ──▶ (driver sends it) ──▶ handle_response(status, body)
///                     ▲                      │                   │
///                     └──── Progress::Continue ◀─────────────────┤
///                                            │                   └─▶ Progress::Done(verdict)
///                                            └─ no answer ─▶ handle_failure(problem) ─▶ WalkError
/// ```
#[derive(Debug)]
pub struct Walk {
    params: WalkParams,
    namespace: Namespace,
    phase: Phase,
    pending: Option<Request>,
    next_id: u64,
    sent: usize,
}

impl Walk {
    /// A walk, its first request ready in [`Self::poll_request`].
    ///
    /// # Errors
    /// [`WalkError::Network`] for a network the walk cannot check: one of another protocol, one
    /// for which no source gives a genesis archive root or an L1 deployment, or any network with
    /// an anchor not read from L1 (the checks read L1's chain id and the rollup's `archiveAt(0)`).
    pub fn new(params: WalkParams) -> Result<Self, WalkError> {
        if let Some(network) = &params.network {
            let problem = if network.protocol != PROTOCOL {
                Some("is not a v6 network, and the walk reads v6 nodes")
            } else if network.genesis_archive_root.is_none() && network.l1.is_none() {
                Some(
                    "pins no genesis archive root to check the rollup's archiveAt(0) against, nor an L1 deployment",
                )
            } else if matches!(params.anchor, Anchor::Given(_)) {
                Some("is checked against the rollup's archiveAt(0) on L1, and the anchor is a given root")
            } else {
                None
            };
            if let Some(problem) = problem {
                return Err(WalkError::Network { network: network.name.clone(), problem });
            }
        }
        if let Some(problem) = params.anchor.problem() {
            return Err(WalkError::Anchor(problem));
        }
        let namespace = params.namespace.unwrap_or(Namespace::Aztec);
        let mut walk = Self { params, namespace, phase: Phase::Receipt, pending: None, next_id: 1, sent: 1 };
        let first = walk.receipt_request();
        walk.pending = Some(first);
        Ok(walk)
    }

    /// The limits the walk keeps, for its driver: [`LIMITS`].
    pub fn limits(&self) -> &'static WalkLimits {
        &LIMITS
    }

    /// The request the walk waits on, or `None` once it is over.
    pub fn poll_request(&self) -> Option<&Request> {
        self.pending.as_ref()
    }

    /// Gives the walk the answer to [`Self::poll_request`]'s request: an HTTP status and the body
    /// read (at most its [`Request::max_answer_bytes`]). The status is judged here: anything but
    /// 200 ends the walk as the endpoint's fault.
    ///
    /// # Errors
    /// [`WalkError`], which classifies itself: an answer that is not what was asked (the
    /// endpoint's fault), a chain that does not hold (a refutation naming its link), a tx that
    /// cannot be proven yet (not mined, not on L1, no reference block yet); [`WalkError::Ended`]
    /// if the walk waits on no request. Any error ends the walk.
    pub fn handle_response(
        &mut self,
        hasher: &dyn HashBackend,
        status: u16,
        body: &str,
    ) -> Result<Progress, WalkError> {
        let asked = self.pending.take().ok_or(WalkError::Ended)?;
        let phase = std::mem::replace(&mut self.phase, Phase::Done);
        let next = self.advance(hasher, phase, &asked, status, body)?;
        match next {
            steps::Next::Send(request) => {
                if self.sent >= LIMITS.max_requests {
                    self.phase = Phase::Done;
                    return Err(WalkError::TooManyRequests { max: LIMITS.max_requests });
                }
                self.sent += 1;
                self.pending = Some(request);
                Ok(Progress::Continue)
            }
            steps::Next::Done(verdict) => Ok(Progress::Done(verdict)),
        }
    }

    /// Tells the walk that [`Self::poll_request`]'s request brought no answer; the walk ends,
    /// and this is its error, naming the endpoint.
    pub fn handle_failure(&mut self, problem: TransportProblem) -> WalkError {
        self.phase = Phase::Done;
        match self.pending.take() {
            Some(asked) => WalkError::Transport { target: asked.target, problem },
            None => WalkError::Ended,
        }
    }

    fn method(&self, name: &str) -> String {
        format!("{}{name}", self.namespace.prefix())
    }
}

/// The answer to one request, as a driver got it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// The body, read up to the request's bound.
    pub body: String,
}

/// Runs `walk` to its end, each request answered by `exchange`, which moves the bytes (over
/// HTTP, or from a recorded transcript) and owns the deadline.
///
/// # Errors
/// [`WalkError`]: the walk's refusal, or `exchange`'s failure as the walk names it.
pub fn drive(
    walk: &mut Walk,
    hasher: &dyn HashBackend,
    mut exchange: impl FnMut(&Request) -> Result<Answer, TransportProblem>,
) -> Result<WalkVerdict, WalkError> {
    loop {
        let answer = match walk.poll_request() {
            Some(request) => exchange(request),
            None => return Err(WalkError::Ended),
        };
        match answer {
            Ok(Answer { status, body }) => {
                if let Progress::Done(verdict) = walk.handle_response(hasher, status, &body)? {
                    return Ok(*verdict);
                }
            }
            Err(problem) => return Err(walk.handle_failure(problem)),
        }
    }
}
