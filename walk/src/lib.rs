#![doc = include_str!("../README.md")]

/// txfx-documents, re-exported (and through it the crates below): the documents the walk reads,
/// the verdict it gives, `Fr` and the backend traits.
pub use txfx_documents;

pub mod l1;

use txfx_documents::json::rpc::{RpcAnswer, RpcRequest, batch_answers, batch_request_json};
use txfx_documents::json::{Json, Object, Quoted, safe_number};
use txfx_documents::ops::{ChainParts, Context, Expected, verify_chain_parts};
use txfx_documents::read::{self, BlockParts, BodyDocument, EffectDocument, TxReceipt, TxStatus};
use txfx_documents::txfx_membership::txfx_poseidon::field::fr_to_hex;
use txfx_documents::txfx_membership::txfx_poseidon::{Fr, HashBackend};
use txfx_documents::txfx_membership::txfx_tx_effects::{BlockNumber, Category};
use txfx_documents::txfx_membership::{
    ArchiveWitness, BlockWitnesses, ChainSubject, ElementQuery, Network, ProtocolVersion,
    TxEffectMembershipWitness, prove_category,
};
use txfx_documents::{Doc, DocumentError, Verdict};

use crate::l1::{Address, BlockTag, L1Block, L1Problem};

/// The most blocks one checkpoint holds (`MAX_BLOCKS_PER_CHECKPOINT`): the reference block the
/// archive witness is asked against is at most this many blocks past the tx's block.
pub const MAX_BLOCKS_PER_CHECKPOINT: u64 = 72;

/// Blocks asked for at once while looking for the reference block.
const REFERENCE_WINDOW: u64 = 8;

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
    /// An archive root the caller trusts (read from L1 some other way): the walk asks the node
    /// for a witness against the archive of the tx's checkpoint, and this root must be it.
    Given(Fr),
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

/// What a walk is asked to prove.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// one): a wrong rollup address is found before anything read there is trusted.
    pub network: Option<Network>,
    /// The node's namespace; `None` tries `aztec_`, then `node_`.
    pub namespace: Option<Namespace>,
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

/// A JSON-RPC batch to send: POST `body` to the target's URL.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// Who answers it.
    pub target: Target,
    /// The batch, as JSON text.
    pub body: String,
    /// The requests in it.
    pub requests: Vec<RpcRequest>,
}

/// What the next step of a walk is.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Send this request and give the walk the answer.
    Send(Request),
    /// The walk is over: what it proved.
    Done(Box<WalkVerdict>),
}

/// How final what the walk proved is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finality {
    /// The block is in the archive of a checkpoint L1 has, not yet proven.
    Checkpointed,
    /// The block is in the archive of a proven checkpoint.
    Proven,
    /// The archive root was the caller's: its finality is whatever the caller knows of it.
    Given,
}

impl Finality {
    /// `checkpointed`, `proven` or `given`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Checkpointed => "checkpointed",
            Self::Proven => "proven",
            Self::Given => "given",
        }
    }
}

/// What L1 said, at the block the walk read it at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct L1Facts {
    /// The rollup contract.
    pub rollup: Address,
    /// The tag asked for.
    pub tag: BlockTag,
    /// The block every call read.
    pub block: L1Block,
    /// `getProvenCheckpointNumber()`.
    pub proven_checkpoint: u64,
    /// `getPendingCheckpointNumber()`.
    pub pending_checkpoint: u64,
    /// The network whose genesis archive root the rollup's `archiveAt(0)` was found to be, when
    /// one was given.
    pub genesis: Option<(String, Fr)>,
}

/// What a walk proved: the chain's verdict (block, tx, category, element), the archive it was
/// proven under, and how final that is.
#[derive(Debug, Clone, PartialEq)]
pub struct WalkVerdict {
    /// The chain's verdict.
    pub verdict: Verdict,
    /// The checkpoint whose archive the block was proven under (the archive L1 holds for it).
    pub anchor_checkpoint: u64,
    /// The block the node's archive witness was asked against (its header's `lastArchive` is
    /// the anchor).
    pub reference_block: BlockNumber,
    /// What L1 said, when the anchor is L1's.
    pub l1: Option<L1Facts>,
    /// How final it is.
    pub finality: Finality,
    /// Whether the tx-effects witness was built from the block's body (the node does not serve
    /// `getTxEffectMembershipWitness`).
    pub witness_built_from_body: bool,
    /// The namespace the node answered in.
    pub namespace: Namespace,
}

impl WalkVerdict {
    /// The verdict as JSON: the chain's, with `anchor` and `finality` beside it.
    pub fn to_json(&self) -> Json {
        let mut out = self.verdict.to_json();
        if let Some(map) = out.as_object_mut() {
            let mut anchor = Object::new()
                .with("checkpointNumber", safe_number(self.anchor_checkpoint))
                .with("referenceBlock", self.reference_block.get());
            if let Some(l1) = &self.l1 {
                let hash: String = l1.block.hash.iter().map(|b| format!("{b:02x}")).collect();
                anchor.insert("rollup", l1.rollup.to_string());
                anchor.insert("l1BlockTag", l1.tag.name());
                anchor.insert("l1BlockNumber", safe_number(l1.block.number));
                anchor.insert("l1BlockHash", format!("0x{hash}"));
                anchor.insert("provenCheckpointNumber", safe_number(l1.proven_checkpoint));
                anchor.insert("pendingCheckpointNumber", safe_number(l1.pending_checkpoint));
                if let Some((network, root)) = &l1.genesis {
                    anchor.insert(
                        "genesis",
                        Object::new().with("network", network.as_str()).with("archiveAt0", fr_to_hex(root)),
                    );
                }
            }
            map.insert("anchor", anchor);
            map.insert("finality", self.finality.name());
            let finalized = self.l1.as_ref().is_some_and(|l1| l1.tag == BlockTag::Finalized);
            map.insert("l1Finalized", finalized);
            map.insert("witnessSource", if self.witness_built_from_body { "body" } else { "node" });
        }
        out
    }
}

/// Why a walk did not end in a verdict.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WalkError {
    /// A node or L1 answer that is not a document the method returns, or one that contradicts
    /// itself or a fact (its link names where), or a chain that does not hold.
    #[error("{method}: {source}")]
    Answer {
        /// The method whose answer it is.
        method: String,
        /// What is wrong.
        source: DocumentError,
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
    /// The tx is in no block.
    #[error("the node says the tx is {}: it is in no block, so nothing can be proven about it", .status.name())]
    NotMined {
        /// The receipt's status.
        status: TxStatus,
    },
    /// The node's answers contradict each other or what was asked.
    #[error("{what} is {claimed}, but {against} is {actual}")]
    Contradicts {
        /// The claim.
        what: &'static str,
        /// Its value.
        claimed: String,
        /// What it is compared with.
        against: &'static str,
        /// That value.
        actual: String,
    },
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
    /// A network the walk cannot check (see [`Walk::start`]).
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
    /// A walk asked to go on after it ended, or given an answer it did not ask for.
    #[error("the walk has ended")]
    Ended,
}

impl WalkError {
    /// The link of the chain (or the walk) that broke, for a refutation; `None` where nothing
    /// was refuted (an answer that is not a document, a transport failure).
    pub fn link(&self) -> Option<&'static str> {
        use txfx_documents::classify::{Classify, ErrorClass};
        match self {
            Self::Answer { source, .. } if source.class() == ErrorClass::Refuted => source.link(),
            Self::Contradicts { .. } => Some("node"),
            Self::NotMined { .. } => Some("tx"),
            Self::NotOnL1 { .. } | Self::WrongRollup { .. } => Some("l1"),
            Self::NoReferenceBlock { .. } => Some("archive"),
            _ => None,
        }
    }
}

/// Where the walk is.
#[derive(Debug)]
enum Phase {
    /// `getTxReceipt` (with its effect) sent, in the namespace being tried.
    Receipt,
    /// `getTxEffect` sent: the receipt came without its effect.
    Effect { receipt: Box<read::MinedReceipt> },
    /// `getBlock` with its body, and `getTxEffectMembershipWitness`, sent.
    Block { effect: Box<EffectDocument> },
    /// `eth_getBlockByNumber` sent.
    L1Head { found: Box<Found> },
    /// The rollup's calls sent.
    L1Calls { found: Box<Found>, block: L1Block },
    /// `getBlockData` of blocks after the tx's sent, looking for the first of another checkpoint.
    Reference { found: Box<Found>, anchor: Box<Anchored>, next: u64 },
    /// `getBlockHashMembershipWitness` sent.
    Archive { found: Box<Found>, anchor: Box<Anchored>, reference: BlockNumber },
    /// Over.
    Done,
}

/// What the node answered about the tx and its block.
#[derive(Debug)]
struct Found {
    effect: EffectDocument,
    block: BodyDocument,
    witness: TxEffectMembershipWitness,
    witness_built_from_body: bool,
}

impl Found {
    fn parts(&self) -> &BlockParts {
        #[allow(
            clippy::expect_used,
            reason = "an internal invariant: a block response is read with its parts"
        )]
        self.block.block.as_ref().expect("invariant: the block was read from a block response")
    }

    fn block_number(&self) -> BlockNumber {
        self.parts().header.global_variables.block_number
    }
}

/// The archive root the walk trusts, and where it came from.
#[derive(Debug, Clone)]
struct Anchored {
    root: Fr,
    l1: Option<L1Facts>,
    finality: Finality,
}

/// A walk from a tx hash to a verdict (module docs).
#[derive(Debug)]
pub struct Walk {
    params: WalkParams,
    namespace: Namespace,
    phase: Phase,
    next_id: u64,
}

fn answer_error(method: &str, source: DocumentError) -> WalkError {
    WalkError::Answer { method: method.to_owned(), source }
}

impl Walk {
    /// A walk, and its first request.
    ///
    /// # Errors
    /// [`WalkError::Network`] for a network the walk cannot check: one of another protocol, one
    /// whose genesis archive root no source gives, or any network with an anchor not read from
    /// L1 (the check reads the rollup's `archiveAt(0)`).
    pub fn start(params: WalkParams) -> Result<(Self, Request), WalkError> {
        if let Some(network) = &params.network {
            let problem = if network.protocol != PROTOCOL {
                Some("is not a v6 network, and the walk reads v6 nodes")
            } else if network.genesis_archive_root.is_none() {
                Some("pins no genesis archive root to check the rollup's archiveAt(0) against")
            } else if matches!(params.anchor, Anchor::Given(_)) {
                Some("is checked against the rollup's archiveAt(0) on L1, and the anchor is a given root")
            } else {
                None
            };
            if let Some(problem) = problem {
                return Err(WalkError::Network { network: network.name.clone(), problem });
            }
        }
        let namespace = params.namespace.unwrap_or(Namespace::Aztec);
        let mut walk = Self { params, namespace, phase: Phase::Receipt, next_id: 1 };
        let request = walk.receipt_request();
        Ok((walk, request))
    }

    fn method(&self, name: &str) -> String {
        format!("{}{name}", self.namespace.prefix())
    }

    fn request(&mut self, target: Target, calls: Vec<(String, Vec<Json>)>) -> Request {
        let requests: Vec<RpcRequest> = calls
            .into_iter()
            .map(|(method, params)| {
                let id = self.next_id;
                self.next_id += 1;
                RpcRequest { id, method, params }
            })
            .collect();
        Request { target, body: batch_request_json(&requests), requests }
    }

    fn receipt_request(&mut self) -> Request {
        let tx = Json::from(fr_to_hex(&self.params.tx_hash));
        let method = self.method("getTxReceipt");
        self.request(
            Target::Node,
            vec![(method, vec![tx, Json::from(Object::new().with("includeTxEffect", true))])],
        )
    }

    /// Gives the walk the answer to its last request (an HTTP status and body); the next step.
    ///
    /// # Errors
    /// [`WalkError`]: an answer that is not what was asked, a chain that does not hold, a tx
    /// that cannot be proven yet (not mined, not on L1, no reference block yet).
    pub fn step(
        &mut self,
        hasher: &dyn HashBackend,
        asked: &Request,
        status: u16,
        body: &str,
    ) -> Result<Step, WalkError> {
        let result = self.advance(hasher, asked, status, body);
        if !matches!(result, Ok(Step::Send(_))) {
            self.phase = Phase::Done;
        }
        result
    }

    fn advance(
        &mut self,
        hasher: &dyn HashBackend,
        asked: &Request,
        status: u16,
        body: &str,
    ) -> Result<Step, WalkError> {
        if status != 200 {
            return Err(WalkError::Http { target: asked.target, status, body: Quoted::new(body) });
        }
        let ids: Vec<u64> = asked.requests.iter().map(|r| r.id).collect();
        let answers = batch_answers(Doc::text("answer", body), &ids).map_err(|source| {
            answer_error(&asked.requests.first().map_or_else(String::new, |r| r.method.clone()), source)
        })?;
        let cx = Context::new(hasher, PROTOCOL);
        match std::mem::replace(&mut self.phase, Phase::Done) {
            Phase::Receipt => self.on_receipt(asked, answers),
            Phase::Effect { receipt } => self.on_effect(asked, answers, *receipt),
            Phase::Block { effect } => self.on_block(cx, asked, answers, *effect),
            Phase::L1Head { found } => self.on_l1_head(asked, answers, found),
            Phase::L1Calls { found, block } => self.on_l1_calls(asked, answers, found, block),
            Phase::Reference { found, anchor, next } => {
                self.on_reference(cx, asked, answers, found, anchor, next)
            }
            Phase::Archive { found, anchor, reference } => {
                self.on_archive(cx, asked, answers, *found, *anchor, reference)
            }
            Phase::Done => Err(WalkError::Ended),
        }
    }

    /// The one result of an answer, or why there is none.
    fn result(
        target: Target,
        request: &RpcRequest,
        answer: RpcAnswer,
        what: &'static str,
    ) -> Result<String, WalkError> {
        match answer {
            RpcAnswer::Result(text) => Ok(text),
            RpcAnswer::Null => Err(WalkError::Nothing { target, method: request.method.clone(), what }),
            RpcAnswer::Error { code, message } => {
                Err(WalkError::NodeError { target, method: request.method.clone(), code, message })
            }
        }
    }

    fn first(asked: &Request) -> Result<&RpcRequest, WalkError> {
        asked.requests.first().ok_or(WalkError::Ended)
    }

    fn on_receipt(&mut self, asked: &Request, answers: Vec<RpcAnswer>) -> Result<Step, WalkError> {
        let request = Self::first(asked)?;
        let answer = answers.into_iter().next().ok_or(WalkError::Ended)?;
        // A node without the aztec_ namespace: try its legacy alias, once.
        if answer.is_method_not_found()
            && self.params.namespace.is_none()
            && self.namespace == Namespace::Aztec
        {
            self.namespace = Namespace::Node;
            self.phase = Phase::Receipt;
            return Ok(Step::Send(self.receipt_request()));
        }
        let text = Self::result(Target::Node, request, answer, "receipt for the tx")?;
        let receipt =
            read::tx_receipt(Doc::text("receipt", &text)).map_err(|e| answer_error(&request.method, e))?;
        let mined = match receipt {
            TxReceipt::Pending { .. } => return Err(WalkError::NotMined { status: TxStatus::Pending }),
            TxReceipt::Dropped { .. } => return Err(WalkError::NotMined { status: TxStatus::Dropped }),
            TxReceipt::Mined(mined) => mined,
        };
        if mined.tx_hash != self.params.tx_hash {
            return Err(WalkError::Contradicts {
                what: "the receipt's txHash",
                claimed: fr_to_hex(&mined.tx_hash),
                against: "the tx asked for",
                actual: fr_to_hex(&self.params.tx_hash),
            });
        }
        match mined.tx_effect.clone() {
            Some(effect) => {
                let document = EffectDocument { effect, in_block: Some(mined.in_block.clone()) };
                Ok(Step::Send(self.block_request(document)))
            }
            None => {
                // The node kept the effect to itself: ask for it by the deprecated method.
                let tx = Json::from(fr_to_hex(&self.params.tx_hash));
                let method = self.method("getTxEffect");
                self.phase = Phase::Effect { receipt: mined };
                Ok(Step::Send(self.request(Target::Node, vec![(method, vec![tx])])))
            }
        }
    }

    fn on_effect(
        &mut self,
        asked: &Request,
        answers: Vec<RpcAnswer>,
        receipt: read::MinedReceipt,
    ) -> Result<Step, WalkError> {
        let request = Self::first(asked)?;
        let answer = answers.into_iter().next().ok_or(WalkError::Ended)?;
        let text = Self::result(Target::Node, request, answer, "effect for the tx")?;
        let document = read::effect(Doc::text("getTxEffect", &text), PROTOCOL)
            .map_err(|e| answer_error(&request.method, e))?;
        if document.effect.tx_hash != self.params.tx_hash {
            return Err(WalkError::Contradicts {
                what: "the effect's txHash",
                claimed: fr_to_hex(&document.effect.tx_hash),
                against: "the tx asked for",
                actual: fr_to_hex(&self.params.tx_hash),
            });
        }
        if let Some(claims) = &document.in_block
            && (claims.block_number, claims.block_hash)
                != (receipt.in_block.block_number, receipt.in_block.block_hash)
        {
            return Err(WalkError::Contradicts {
                what: "the getTxEffect result's block",
                claimed: format!("{} {}", claims.block_number, fr_to_hex(&claims.block_hash)),
                against: "the receipt's",
                actual: format!(
                    "{} {}",
                    receipt.in_block.block_number,
                    fr_to_hex(&receipt.in_block.block_hash)
                ),
            });
        }
        // The receipt's claims (its status among them) are what the verdict checks.
        let document = EffectDocument { effect: document.effect, in_block: Some(receipt.in_block) };
        Ok(Step::Send(self.block_request(document)))
    }

    fn block_request(&mut self, effect: EffectDocument) -> Request {
        #[allow(clippy::expect_used, reason = "an internal invariant: a mined receipt names its block")]
        let number = effect.in_block.as_ref().expect("invariant: claims come with the effect").block_number;
        let tx = Json::from(fr_to_hex(&self.params.tx_hash));
        let calls = vec![
            (
                self.method("getBlock"),
                vec![Json::from(number.get()), Json::from(Object::new().with("includeTransactions", true))],
            ),
            (self.method("getTxEffectMembershipWitness"), vec![tx]),
        ];
        self.phase = Phase::Block { effect: Box::new(effect) };
        self.request(Target::Node, calls)
    }

    fn on_block(
        &mut self,
        cx: Context<'_>,
        asked: &Request,
        answers: Vec<RpcAnswer>,
        effect: EffectDocument,
    ) -> Result<Step, WalkError> {
        let (Some(block_request), Some(witness_request)) = (asked.requests.first(), asked.requests.get(1))
        else {
            return Err(WalkError::Ended);
        };
        let mut answers = answers.into_iter();
        let (Some(block_answer), Some(witness_answer)) = (answers.next(), answers.next()) else {
            return Err(WalkError::Ended);
        };
        #[allow(clippy::expect_used, reason = "an internal invariant: claims come with the effect")]
        let claimed = effect.in_block.as_ref().expect("invariant: claims come with the effect").clone();
        let text = Self::result(Target::Node, block_request, block_answer, "block the receipt names")?;
        let block = read::body(cx.hasher, Doc::text("getBlock", &text), PROTOCOL)
            .map_err(|e| answer_error(&block_request.method, e))?;
        let parts = block.block.as_ref().ok_or_else(|| WalkError::Contradicts {
            what: "the getBlock answer",
            claimed: "a body without its block".into(),
            against: "a block response",
            actual: "header, archive, hash and body".into(),
        })?;
        if parts.hash.is_none() {
            // An `L2Block` (4.1.2's answer) carries no hash: not what a v6 node answers.
            return Err(WalkError::Contradicts {
                what: "the getBlock answer",
                claimed: "an L2Block without its hash".into(),
                against: "what a v6 node answers",
                actual: "a BlockResponse: header, archive, hash, number and body".into(),
            });
        }
        let number = parts.header.global_variables.block_number;
        if number != claimed.block_number {
            return Err(WalkError::Contradicts {
                what: "the block the node answered getBlock with",
                claimed: number.to_string(),
                against: "the block asked for",
                actual: claimed.block_number.to_string(),
            });
        }
        let (witness, built) = if witness_answer.is_method_not_found() {
            // Gateways that serve only older methods: build the witness from the body, whose
            // root the header commits to.
            let witnesses = BlockWitnesses::from_body(cx.hasher, &block.body, number)
                .map_err(|e| answer_error(&block_request.method, e.into()))?;
            let witness = witnesses
                .witness_for_tx_hash(self.params.tx_hash)
                .map_err(|e| answer_error(&block_request.method, e.into()))?;
            (witness, true)
        } else {
            let text =
                Self::result(Target::Node, witness_request, witness_answer, "tx-effects witness for the tx")?;
            let witness = read::witness(Doc::text("getTxEffectMembershipWitness", &text), PROTOCOL)
                .map_err(|e| answer_error(&witness_request.method, e))?;
            (witness, false)
        };
        let found = Box::new(Found { effect, block, witness, witness_built_from_body: built });
        match self.params.anchor {
            Anchor::L1 { tag, .. } => {
                self.phase = Phase::L1Head { found };
                let request = l1::block_request(self.next_id, tag);
                self.next_id += 1;
                Ok(Step::Send(Request {
                    target: Target::L1,
                    body: batch_request_json(std::slice::from_ref(&request)),
                    requests: vec![request],
                }))
            }
            Anchor::Given(root) => {
                let anchor = Anchored { root, l1: None, finality: Finality::Given };
                Ok(Step::Send(self.reference_request(found, anchor)))
            }
        }
    }

    fn l1_request(&mut self, requests: Vec<RpcRequest>) -> Request {
        Request { target: Target::L1, body: batch_request_json(&requests), requests }
    }

    fn on_l1_head(
        &mut self,
        asked: &Request,
        answers: Vec<RpcAnswer>,
        found: Box<Found>,
    ) -> Result<Step, WalkError> {
        let request = Self::first(asked)?;
        let answer = answers.into_iter().next().ok_or(WalkError::Ended)?;
        let text = Self::result(Target::L1, request, answer, "block of that tag")?;
        let block = l1::block(&text)?;
        let Anchor::L1 { rollup, tag } = self.params.anchor else { return Err(WalkError::Ended) };
        if let l1::BlockTag::Number(asked) = tag
            && block.number != asked
        {
            return Err(L1Problem::OtherBlock { asked, got: block.number }.into());
        }
        let checkpoint = found.parts().checkpoint_number;
        let mut id = || {
            let id = self.next_id;
            self.next_id += 1;
            id
        };
        let mut requests = vec![
            l1::proven_checkpoint(id(), rollup, &block),
            l1::pending_checkpoint(id(), rollup, &block),
            l1::archive_at(id(), rollup, checkpoint, &block),
        ];
        if self.params.network.is_some() {
            requests.push(l1::archive_at(id(), rollup, 0, &block));
        }
        self.phase = Phase::L1Calls { found, block };
        Ok(Step::Send(self.l1_request(requests)))
    }

    fn on_l1_calls(
        &mut self,
        asked: &Request,
        answers: Vec<RpcAnswer>,
        found: Box<Found>,
        block: L1Block,
    ) -> Result<Step, WalkError> {
        let Anchor::L1 { rollup, tag } = self.params.anchor else { return Err(WalkError::Ended) };
        let mut results = Vec::with_capacity(answers.len());
        for (request, answer) in asked.requests.iter().zip(answers) {
            results.push(Self::result(Target::L1, request, answer, "answer to the call")?);
        }
        let (Some(proven), Some(pending), Some(archive)) = (results.first(), results.get(1), results.get(2))
        else {
            return Err(WalkError::Ended);
        };
        let mut l1 = L1Facts {
            rollup,
            tag,
            block,
            proven_checkpoint: l1::number("getProvenCheckpointNumber", proven)?,
            pending_checkpoint: l1::number("getPendingCheckpointNumber", pending)?,
            genesis: None,
        };
        // `start` admits only a network with a genesis archive root, and then archiveAt(0) was
        // asked: its answer must be there and be that root.
        if let Some(network) = &self.params.network {
            let (Some(genesis), Some(genesis_on_l1)) = (network.genesis_archive_root, results.get(3)) else {
                return Err(WalkError::Ended);
            };
            let on_l1 = l1::archive(genesis_on_l1)?;
            if genesis != on_l1 {
                return Err(WalkError::WrongRollup { network: network.name.clone(), genesis, on_l1 });
            }
            l1.genesis = Some((network.name.clone(), on_l1));
        }
        let checkpoint = found.parts().checkpoint_number;
        let root = l1::archive(archive)?;
        if checkpoint > l1.pending_checkpoint || root == Fr::from(0u64) {
            return Err(WalkError::NotOnL1 { checkpoint, pending: l1.pending_checkpoint, l1: Box::new(l1) });
        }
        let finality =
            if checkpoint <= l1.proven_checkpoint { Finality::Proven } else { Finality::Checkpointed };
        let anchor = Anchored { root, l1: Some(l1), finality };
        Ok(Step::Send(self.reference_request(found, anchor)))
    }

    /// `getBlockData` of the next blocks, from the one after the tx's.
    fn reference_request(&mut self, found: Box<Found>, anchor: Anchored) -> Request {
        let next = u64::from(found.block_number().get()) + 1;
        self.reference_window(found, anchor, next)
    }

    fn reference_window(&mut self, found: Box<Found>, anchor: Anchored, next: u64) -> Request {
        let method = self.method("getBlockData");
        let calls = (next..next + REFERENCE_WINDOW)
            .map(|number| (method.clone(), vec![Json::from(number)]))
            .collect();
        self.phase = Phase::Reference { found, anchor: Box::new(anchor), next };
        self.request(Target::Node, calls)
    }

    fn on_reference(
        &mut self,
        cx: Context<'_>,
        asked: &Request,
        answers: Vec<RpcAnswer>,
        found: Box<Found>,
        anchor: Box<Anchored>,
        next: u64,
    ) -> Result<Step, WalkError> {
        let checkpoint = found.parts().checkpoint_number;
        for ((offset, request), answer) in (0u64..).zip(&asked.requests).zip(answers) {
            let number = next + offset;
            let text = match answer {
                // The block after the checkpoint's last is not there yet.
                RpcAnswer::Null => {
                    let last = BlockNumber::try_from(number - 1).map_err(|_| WalkError::Ended)?;
                    return Err(WalkError::NoReferenceBlock { checkpoint, last });
                }
                answer => Self::result(Target::Node, request, answer, "block")?,
            };
            let data = read::header(cx.hasher, Doc::text("getBlockData", &text), PROTOCOL)
                .map_err(|e| answer_error(&request.method, e))?;
            let Some(parts) = data.block else {
                return Err(WalkError::Contradicts {
                    what: "the getBlockData answer",
                    claimed: "a bare header".into(),
                    against: "block data",
                    actual: "header, archive, blockHash and checkpointNumber".into(),
                });
            };
            if u64::from(parts.header.global_variables.block_number.get()) != number {
                return Err(WalkError::Contradicts {
                    what: "the block the node answered getBlockData with",
                    claimed: parts.header.global_variables.block_number.to_string(),
                    against: "the block asked for",
                    actual: number.to_string(),
                });
            }
            if parts.checkpoint_number < checkpoint {
                return Err(WalkError::Contradicts {
                    what: "the checkpoint of a later block",
                    claimed: parts.checkpoint_number.to_string(),
                    against: "the checkpoint of the tx's block",
                    actual: checkpoint.to_string(),
                });
            }
            if parts.checkpoint_number > checkpoint {
                // The first block of a later checkpoint: its lastArchive is the archive after the
                // tx's checkpoint, which the anchor must be.
                if parts.header.last_archive.root != anchor.root {
                    return Err(WalkError::Contradicts {
                        what: "the archive before the node's next checkpoint (its first block's lastArchive)",
                        claimed: fr_to_hex(&parts.header.last_archive.root),
                        against: "the anchor's archive root",
                        actual: fr_to_hex(&anchor.root),
                    });
                }
                let reference = parts.header.global_variables.block_number;
                let block_hash = found.parts().hash.ok_or(WalkError::Ended)?;
                let method = self.method("getBlockHashMembershipWitness");
                let calls =
                    vec![(method, vec![Json::from(reference.get()), Json::from(fr_to_hex(&block_hash))])];
                self.phase = Phase::Archive { found, anchor, reference };
                return Ok(Step::Send(self.request(Target::Node, calls)));
            }
        }
        let following = next + REFERENCE_WINDOW;
        let tx_block = u64::from(found.block_number().get());
        if following > tx_block + MAX_BLOCKS_PER_CHECKPOINT + 1 {
            return Err(WalkError::Contradicts {
                what: "the number of blocks the node puts in the tx's checkpoint",
                claimed: format!("more than {MAX_BLOCKS_PER_CHECKPOINT}"),
                against: "the most a checkpoint holds",
                actual: MAX_BLOCKS_PER_CHECKPOINT.to_string(),
            });
        }
        Ok(Step::Send(self.reference_window(found, *anchor, following)))
    }

    fn on_archive(
        &mut self,
        cx: Context<'_>,
        asked: &Request,
        answers: Vec<RpcAnswer>,
        found: Found,
        anchor: Anchored,
        reference: BlockNumber,
    ) -> Result<Step, WalkError> {
        let request = Self::first(asked)?;
        let answer = answers.into_iter().next().ok_or(WalkError::Ended)?;
        let text = Self::result(Target::Node, request, answer, "archive witness for the block")?;
        let archive_witness: ArchiveWitness =
            read::archive_witness(Doc::text("getBlockHashMembershipWitness", &text))
                .map_err(|e| answer_error(&request.method, e))?;
        let proof;
        let subject = match self.params.subject {
            WalkSubject::Tx => ChainSubject::Effect(&found.effect.effect),
            WalkSubject::Category(category, element) => {
                proof = prove_category(cx.hasher, &found.effect.effect, category, element)
                    .map_err(|e| answer_error(&request.method, e.into()))?;
                ChainSubject::Category(&proof)
            }
        };
        let parts = ChainParts {
            archive_witness: &archive_witness,
            header: &found.parts().header,
            witness: &found.witness,
            body: Some(&found.block.body),
        };
        // The verdict must be about the tx asked for, whatever else the caller expects.
        let expected = Expected { tx_hash: Some(self.params.tx_hash), ..self.params.expected };
        let mut verdict =
            verify_chain_parts(cx, anchor.root, parts, subject, found.effect.in_block.as_ref(), &expected)
                .map_err(|e| answer_error("the chain", e))?;
        let block = found.parts();
        verdict.unverified("checkpointNumber", safe_number(block.checkpoint_number));
        verdict.unverified("indexWithinCheckpoint", safe_number(block.index_within_checkpoint));
        Ok(Step::Done(Box::new(WalkVerdict {
            verdict,
            anchor_checkpoint: block.checkpoint_number,
            reference_block: reference,
            l1: anchor.l1,
            finality: anchor.finality,
            witness_built_from_body: found.witness_built_from_body,
            namespace: self.namespace,
        })))
    }
}
