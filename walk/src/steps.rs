//! The walk's steps: each phase's request, and what its answer proves or refutes. Every answer
//! is read by `txfx-documents` and every link checked by `verify_chain_parts`, so that a
//! node-fed verdict is the same verdict as the files' would be.

use txfx_documents::json::rpc::{RpcAnswer, RpcRequest, batch_answers, batch_request_json};
use txfx_documents::json::{Json, Object, Quoted, safe_number};
use txfx_documents::ops::{ChainParts, Context, commit_unchecked, verify_chain_parts};
use txfx_documents::read::{self, BlockParts, BodyDocument, EffectDocument, TxReceipt, TxStatus};
use txfx_documents::txfx_membership::txfx_poseidon::{Fr, HashBackend};
use txfx_documents::txfx_membership::txfx_tx_effects::BlockNumber;
use txfx_documents::txfx_membership::txfx_tx_effects::checkpoint::Checkpoint;
use txfx_documents::txfx_membership::{
    ArchiveWitness, BlockWitnesses, ChainSubject, TxEffectMembershipWitness, prove_category,
};
use txfx_documents::{Claim, Contradiction, Doc, DocumentError};

use crate::l1::{self, Address, L1Block};
use crate::limits::AnswerSize;
use crate::verdict::{WitnessFallback, WitnessSource};
use crate::{
    Anchor, Finality, L1Facts, MAX_BLOCKS_PER_CHECKPOINT, Namespace, PROTOCOL, Request, Target, Walk,
    WalkError, WalkSubject, WalkVerdict,
};

/// Blocks asked for at once while looking for the reference block.
const REFERENCE_WINDOW: u64 = 8;

/// Where the walk is.
#[derive(Debug)]
pub(crate) enum Phase {
    /// `getTxReceipt` (with its effect) sent, in the namespace being tried.
    Receipt,
    /// `getTxEffect` sent: the receipt came without its effect.
    Effect { receipt: Box<read::MinedReceipt> },
    /// `getBlock` with its body, and `getTxEffectMembershipWitness`, sent.
    Block { effect: Box<EffectDocument> },
    /// `eth_chainId` and `eth_getBlockByNumber` sent.
    L1Head { found: Box<Found> },
    /// The registry's `getCanonicalRollup()` sent.
    L1Registry { found: Box<Found>, block: L1Block, chain_id: u64, registry: Address },
    /// The rollup's calls sent.
    L1Calls { found: Box<Found>, at: ReadAt },
    /// `eth_getProof` of the rollup's words sent, at a block whose header was checked.
    L1Proof {
        found: Box<Found>,
        at: ReadAt,
        header: Box<txfx_ethereum::VerifiedHeader>,
        slots: Box<txfx_ethereum::RollupSlots>,
    },
    /// `getBlockData` of blocks after the tx's sent, looking for the first of another checkpoint.
    Reference { found: Box<Found>, anchor: Box<Anchored>, next: u64 },
    /// `getBlockHashMembershipWitness` sent.
    Archive { found: Box<Found>, anchor: Box<Anchored>, reference: BlockNumber },
    /// Over.
    Done,
}

/// Where the rollup's calls read: the L1 block, its chain, the rollup and the Registry that named
/// it (if one did).
#[derive(Debug)]
pub(crate) struct ReadAt {
    pub(crate) block: L1Block,
    pub(crate) chain_id: u64,
    pub(crate) rollup: Address,
    pub(crate) registry: Option<Address>,
}

/// What a step leads to.
pub(crate) enum Next {
    /// Another request.
    Send(Request),
    /// The verdict.
    Done(Box<WalkVerdict>),
}

/// What the node answered about the tx and its block.
#[derive(Debug)]
pub(crate) struct Found {
    effect: EffectDocument,
    block: BodyDocument,
    witness: TxEffectMembershipWitness,
    witness_source: WitnessSource,
}

impl Found {
    pub(crate) fn parts(&self) -> &BlockParts {
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
pub(crate) struct Anchored {
    pub(crate) root: Fr,
    pub(crate) l1: Option<L1Facts>,
    pub(crate) finality: Finality,
}

pub(crate) fn answer_error(target: Target, method: &str, source: DocumentError) -> WalkError {
    WalkError::Answer { target, method: method.to_owned(), source }
}

/// A contradiction between answers (or an answer and what was asked), at `link`.
pub(crate) fn contradicts(
    what: &'static str,
    claimed: impl Into<Claim>,
    against: &'static str,
    actual: impl Into<Claim>,
    link: &'static str,
) -> WalkError {
    WalkError::Contradicts(Contradiction::boxed(what, claimed, against, actual, link))
}

/// The one result of an answer, or why there is none.
pub(crate) fn result(
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

/// A node's result as the one JSON-RPC response it came in: `txfx-documents` reads a document
/// and unwraps a response around it, once; handed the bare result, it would unwrap a response
/// the node put inside the result as well, and read a doubly wrapped answer as the document.
pub(crate) fn as_response(result: &str) -> String {
    format!("{{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{result}}}")
}

/// The first request of a batch and its answer.
pub(crate) fn only(asked: &Request, answers: Vec<RpcAnswer>) -> Result<Answered<'_>, WalkError> {
    match (asked.requests.first(), answers.into_iter().next()) {
        (Some(request), Some(answer)) => Ok((request, answer)),
        _ => Err(WalkError::Ended),
    }
}

/// A node's `getBlockData` answer for block `number`, read: block data and nothing else (a bare
/// header names no checkpoint, and a block response is what getBlock answers, not getBlockData),
/// and the block asked for.
pub(crate) fn block_data(
    hasher: &dyn HashBackend,
    request: &RpcRequest,
    text: &str,
    number: u64,
) -> Result<BlockParts, WalkError> {
    let data = read::header(hasher, Doc::text("getBlockData", &as_response(text)), PROTOCOL)
        .map_err(|e| answer_error(Target::Node, &request.method, e))?;
    let parts = match data.block {
        Some(parts) if parts.kind == read::BlockKind::BlockData => parts,
        other => {
            return Err(WalkError::Shape {
                target: Target::Node,
                method: request.method.clone(),
                got: other.map_or("a bare header", |parts| parts.kind.name()),
                expected: "block data: header, archive, blockHash and checkpointNumber",
            });
        }
    };
    let answered = parts.header.global_variables.block_number;
    if u64::from(answered.get()) != number {
        return Err(contradicts(
            "the block the node answered getBlockData with",
            answered,
            "the block asked for",
            Claim::Number(number),
            "node",
        ));
    }
    Ok(parts)
}

/// A request of a batch with its answer.
pub(crate) type Answered<'a> = (&'a RpcRequest, RpcAnswer);

/// The first two requests of a batch, each with its answer.
pub(crate) fn pair(
    asked: &Request,
    answers: Vec<RpcAnswer>,
) -> Result<(Answered<'_>, Answered<'_>), WalkError> {
    let mut answers = answers.into_iter();
    match (asked.requests.first(), asked.requests.get(1), answers.next(), answers.next()) {
        (Some(first), Some(second), Some(first_answer), Some(second_answer)) => {
            Ok(((first, first_answer), (second, second_answer)))
        }
        _ => Err(WalkError::Ended),
    }
}

impl Walk {
    /// The next request id.
    pub(crate) fn take_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    fn request(&mut self, target: Target, calls: Vec<(String, Vec<Json>, AnswerSize)>) -> Request {
        let mut max_answer_bytes = 0u64;
        let requests: Vec<RpcRequest> = calls
            .into_iter()
            .map(|(method, params, size)| {
                max_answer_bytes = max_answer_bytes.saturating_add(size.bytes());
                RpcRequest { id: self.take_id(), method, params }
            })
            .collect();
        Request { target, body: batch_request_json(&requests), requests, max_answer_bytes }
    }

    fn tx_hash_param(&self) -> Json {
        Json::from(txfx_documents::txfx_membership::txfx_poseidon::field::fr_to_hex(&self.params.tx_hash))
    }

    pub(crate) fn receipt_request(&mut self) -> Request {
        let method = self.method("getTxReceipt");
        let params = vec![self.tx_hash_param(), Json::from(Object::new().with("includeTxEffect", true))];
        self.request(Target::Node, vec![(method, params, AnswerSize::Effect)])
    }

    pub(crate) fn advance(
        &mut self,
        hasher: &dyn HashBackend,
        phase: Phase,
        asked: &Request,
        status: u16,
        body: &str,
    ) -> Result<Next, WalkError> {
        if status != 200 {
            return Err(WalkError::Http { target: asked.target, status, body: Quoted::new(body) });
        }
        let ids: Vec<u64> = asked.requests.iter().map(|r| r.id).collect();
        let answers = batch_answers(Doc::text("answer", body), &ids).map_err(|source| {
            let method = asked.requests.first().map_or("the batch", |r| r.method.as_str());
            answer_error(asked.target, method, source)
        })?;
        let cx = Context::new(hasher, PROTOCOL);
        match phase {
            Phase::Receipt => self.on_receipt(asked, answers),
            Phase::Effect { receipt } => self.on_effect(asked, answers, *receipt),
            Phase::Block { effect } => self.on_block(cx, asked, answers, *effect),
            Phase::L1Head { found } => self.on_l1_head(asked, answers, found),
            Phase::L1Registry { found, block, chain_id, registry } => {
                self.on_l1_registry(asked, answers, found, block, chain_id, registry)
            }
            Phase::L1Calls { found, at } => self.on_l1_calls(asked, answers, found, at),
            Phase::L1Proof { found, at, header, slots } => {
                self.on_l1_proof(asked, answers, found, at, &header, &slots)
            }
            Phase::Reference { found, anchor, next } => {
                self.on_reference(cx, asked, answers, found, anchor, next)
            }
            Phase::Archive { found, anchor, reference } => {
                self.on_archive(cx, asked, answers, *found, *anchor, reference)
            }
            Phase::Done => Err(WalkError::Ended),
        }
    }

    fn on_receipt(&mut self, asked: &Request, answers: Vec<RpcAnswer>) -> Result<Next, WalkError> {
        let (request, answer) = only(asked, answers)?;
        // A node without the aztec_ namespace: try its legacy alias, once.
        if answer.is_method_not_found()
            && self.params.namespace.is_none()
            && self.namespace == Namespace::Aztec
        {
            self.namespace = Namespace::Node;
            self.phase = Phase::Receipt;
            return Ok(Next::Send(self.receipt_request()));
        }
        let text = result(Target::Node, request, answer, "receipt for the tx")?;
        let receipt = read::tx_receipt(Doc::text("receipt", &as_response(&text)))
            .map_err(|e| answer_error(Target::Node, &request.method, e))?;
        let mined = match receipt {
            TxReceipt::Pending { .. } => return Err(WalkError::NotMined { status: TxStatus::Pending }),
            TxReceipt::Dropped { .. } => return Err(WalkError::NotMined { status: TxStatus::Dropped }),
            TxReceipt::Mined(mined) => mined,
        };
        if mined.tx_hash != self.params.tx_hash {
            return Err(contradicts(
                "the receipt's txHash",
                mined.tx_hash,
                "the tx asked for",
                self.params.tx_hash,
                "node",
            ));
        }
        match mined.tx_effect.clone() {
            Some(effect) => {
                let document = EffectDocument { effect, in_block: Some(mined.in_block.clone()) };
                Ok(Next::Send(self.block_request(document)))
            }
            None => {
                // The node kept the effect to itself: ask for it by the deprecated method.
                let method = self.method("getTxEffect");
                let params = vec![self.tx_hash_param()];
                self.phase = Phase::Effect { receipt: mined };
                Ok(Next::Send(self.request(Target::Node, vec![(method, params, AnswerSize::Effect)])))
            }
        }
    }

    fn on_effect(
        &mut self,
        asked: &Request,
        answers: Vec<RpcAnswer>,
        receipt: read::MinedReceipt,
    ) -> Result<Next, WalkError> {
        let (request, answer) = only(asked, answers)?;
        let text = result(Target::Node, request, answer, "effect for the tx")?;
        let document = read::effect(Doc::text("getTxEffect", &as_response(&text)), PROTOCOL)
            .map_err(|e| answer_error(Target::Node, &request.method, e))?;
        if document.effect.tx_hash != self.params.tx_hash {
            return Err(contradicts(
                "the effect's txHash",
                document.effect.tx_hash,
                "the tx asked for",
                self.params.tx_hash,
                "node",
            ));
        }
        // Every claim of the getTxEffect result must be the receipt's, which the verdict checks
        // or lists unverified: none is dropped unseen.
        if let Some(claims) = &document.in_block {
            let ours = &receipt.in_block;
            let slot =
                |claims: &read::InBlock| claims.slot_number.map_or(Claim::Number(u64::MAX), Claim::Number);
            let pairs = [
                (
                    "the getTxEffect result's l2BlockNumber",
                    claims.block_number.into(),
                    ours.block_number.into(),
                ),
                ("the getTxEffect result's l2BlockHash", claims.block_hash.into(), ours.block_hash.into()),
                (
                    "the getTxEffect result's txIndexInBlock",
                    Claim::Number(claims.tx_index_in_block),
                    Claim::Number(ours.tx_index_in_block),
                ),
            ];
            for (what, theirs, receipts) in pairs {
                if theirs != receipts {
                    return Err(contradicts(what, theirs, "the receipt's", receipts, "node"));
                }
            }
            // A slot only one of them names is no contradiction: the receipt's is checked.
            if claims.slot_number.is_some() && ours.slot_number.is_some() && slot(claims) != slot(ours) {
                return Err(contradicts(
                    "the getTxEffect result's slotNumber",
                    slot(claims),
                    "the receipt's",
                    slot(ours),
                    "node",
                ));
            }
        }
        let document = EffectDocument { effect: document.effect, in_block: Some(receipt.in_block) };
        Ok(Next::Send(self.block_request(document)))
    }

    fn block_request(&mut self, effect: EffectDocument) -> Request {
        #[allow(clippy::expect_used, reason = "an internal invariant: a mined receipt names its block")]
        let number = effect.in_block.as_ref().expect("invariant: claims come with the effect").block_number;
        let calls = vec![
            (
                self.method("getBlock"),
                vec![Json::from(number.get()), Json::from(Object::new().with("includeTransactions", true))],
                AnswerSize::Body,
            ),
            (self.method("getTxEffectMembershipWitness"), vec![self.tx_hash_param()], AnswerSize::Small),
        ];
        self.phase = Phase::Block { effect: Box::new(effect) };
        self.request(Target::Node, calls)
    }

    /// The block, its body checked to fit a checkpoint before it is committed and checked
    /// against its header's root.
    fn read_block(
        &self,
        cx: Context<'_>,
        request: &RpcRequest,
        text: &str,
    ) -> Result<(BodyDocument, BlockWitnesses), WalkError> {
        let method = request.method.as_str();
        let unchecked = read::body_unchecked(cx.hasher, Doc::text("getBlock", &as_response(text)), PROTOCOL)
            .map_err(|e| answer_error(Target::Node, method, e))?;
        let shape = |got, expected| WalkError::Shape {
            target: Target::Node,
            method: method.to_owned(),
            got,
            expected,
        };
        let (number, index) = {
            let parts = unchecked.block_parts().ok_or_else(|| {
                shape("a body without its block", "a block response: header, archive, hash, number and body")
            })?;
            if parts.hash.is_none() {
                // An `L2Block` (4.1.2's answer) carries no hash: not what a v6 node answers.
                return Err(shape(
                    "an L2Block without its hash",
                    "a BlockResponse: header, archive, hash, number and body",
                ));
            }
            (parts.header.global_variables.block_number, parts.index_within_checkpoint)
        };
        // Counted, not hashed: a body no checkpoint can hold is refused before any work.
        let index = usize::try_from(index).unwrap_or(usize::MAX);
        Checkpoint::check_block_fits(PROTOCOL, index, unchecked.body())
            .map_err(|source| WalkError::Oversized { method: method.to_owned(), block: number, source })?;
        let (document, commitment) =
            commit_unchecked(cx.hasher, unchecked).map_err(|e| answer_error(Target::Node, method, e))?;
        let witnesses = BlockWitnesses::from_commitment(commitment, &document.body, number);
        Ok((document, witnesses))
    }

    fn on_block(
        &mut self,
        cx: Context<'_>,
        asked: &Request,
        answers: Vec<RpcAnswer>,
        effect: EffectDocument,
    ) -> Result<Next, WalkError> {
        let ((block_request, block_answer), (witness_request, witness_answer)) = pair(asked, answers)?;
        #[allow(clippy::expect_used, reason = "an internal invariant: claims come with the effect")]
        let claimed = effect.in_block.as_ref().expect("invariant: claims come with the effect").block_number;
        let text = result(Target::Node, block_request, block_answer, "block the receipt names")?;
        let (block, witnesses) = self.read_block(cx, block_request, &text)?;
        let number = witnesses_block(&block);
        if number != claimed {
            return Err(contradicts(
                "the block the node answered getBlock with",
                number,
                "the block asked for",
                claimed,
                "node",
            ));
        }
        // The body, whose root the header commits to, builds the witness whenever the node does
        // not give one: a node that lacks the method, or fails at it, is no reason to give up.
        let fallback = match witness_answer {
            RpcAnswer::Result(text) => Err(text),
            RpcAnswer::Null => Ok(WitnessFallback::Null),
            answer if answer.is_method_not_found() => Ok(WitnessFallback::MethodNotFound),
            RpcAnswer::Error { code, message } => Ok(WitnessFallback::Error { code, message }),
        };
        let (witness, witness_source) = match fallback {
            Err(text) => {
                let witness =
                    read::witness(Doc::text("getTxEffectMembershipWitness", &as_response(&text)), PROTOCOL)
                        .map_err(|e| answer_error(Target::Node, &witness_request.method, e))?;
                (witness, WitnessSource::Node)
            }
            Ok(why) => {
                let witness = witnesses
                    .witness_for_tx_hash(self.params.tx_hash)
                    .map_err(|e| answer_error(Target::Node, &block_request.method, e.into()))?;
                (witness, WitnessSource::Body(why))
            }
        };
        let found = Box::new(Found { effect, block, witness, witness_source });
        match self.params.anchor {
            Anchor::L1 { tag, .. } | Anchor::Registry { tag, .. } => {
                self.phase = Phase::L1Head { found };
                let requests =
                    vec![l1::chain_id_request(self.take_id()), l1::block_request(self.take_id(), tag)];
                let max_answer_bytes = AnswerSize::Small.bytes() + AnswerSize::L1Block.bytes();
                Ok(Next::Send(Request {
                    target: Target::L1,
                    body: batch_request_json(&requests),
                    requests,
                    max_answer_bytes,
                }))
            }
            Anchor::Given(root) => {
                let anchor = Anchored { root, l1: None, finality: Finality::Given };
                Ok(Next::Send(self.reference_request(found, anchor)))
            }
        }
    }
}

/// The block number of a block read from a block response.
fn witnesses_block(block: &BodyDocument) -> BlockNumber {
    #[allow(
        clippy::expect_used,
        reason = "an internal invariant: read_block refuses a body without its block"
    )]
    block.block.as_ref().expect("invariant: read_block keeps the block").header.global_variables.block_number
}

impl Walk {
    /// `getBlockData` of the next blocks, from the one after the tx's.
    pub(crate) fn reference_request(&mut self, found: Box<Found>, anchor: Anchored) -> Request {
        let next = u64::from(found.block_number().get()) + 1;
        self.reference_window(found, anchor, next)
    }

    fn reference_window(&mut self, found: Box<Found>, anchor: Anchored, next: u64) -> Request {
        let method = self.method("getBlockData");
        let calls = (next..next + REFERENCE_WINDOW)
            .map(|number| (method.clone(), vec![Json::from(number)], AnswerSize::Small))
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
    ) -> Result<Next, WalkError> {
        let checkpoint = found.parts().checkpoint_number;
        for ((offset, request), answer) in (0u64..).zip(&asked.requests).zip(answers) {
            let number = next + offset;
            let text = match answer {
                // The block after the checkpoint's last is not there yet.
                RpcAnswer::Null => {
                    let last = BlockNumber::try_from(number - 1).map_err(|_| WalkError::Ended)?;
                    return Err(WalkError::NoReferenceBlock { checkpoint, last });
                }
                answer => result(Target::Node, request, answer, "block")?,
            };
            let parts = block_data(cx.hasher, request, &text, number)?;
            let answered = parts.header.global_variables.block_number;
            if parts.checkpoint_number < checkpoint {
                return Err(contradicts(
                    "the checkpoint of a later block",
                    Claim::Number(parts.checkpoint_number),
                    "the checkpoint of the tx's block",
                    Claim::Number(checkpoint),
                    "node",
                ));
            }
            if parts.checkpoint_number > checkpoint {
                // The first block of a later checkpoint: its lastArchive is the archive after the
                // tx's checkpoint, which the anchor must be.
                if parts.header.last_archive.root != anchor.root {
                    return Err(contradicts(
                        "the archive before the node's next checkpoint (its first block's lastArchive)",
                        parts.header.last_archive.root,
                        "the anchor's archive root",
                        anchor.root,
                        "node",
                    ));
                }
                let reference = answered;
                let block_hash = found.parts().hash.ok_or(WalkError::Ended)?;
                let method = self.method("getBlockHashMembershipWitness");
                let params = vec![
                    Json::from(reference.get()),
                    Json::from(txfx_documents::txfx_membership::txfx_poseidon::field::fr_to_hex(&block_hash)),
                ];
                self.phase = Phase::Archive { found, anchor, reference };
                return Ok(Next::Send(self.request(Target::Node, vec![(method, params, AnswerSize::Small)])));
            }
        }
        let following = next + REFERENCE_WINDOW;
        let tx_block = u64::from(found.block_number().get());
        if following > tx_block + MAX_BLOCKS_PER_CHECKPOINT + 1 {
            return Err(contradicts(
                "the number of blocks the node puts in the tx's checkpoint",
                Claim::Number(following - tx_block),
                "the most a checkpoint holds",
                Claim::Number(MAX_BLOCKS_PER_CHECKPOINT),
                "node",
            ));
        }
        Ok(Next::Send(self.reference_window(found, *anchor, following)))
    }

    fn on_archive(
        &mut self,
        cx: Context<'_>,
        asked: &Request,
        answers: Vec<RpcAnswer>,
        found: Found,
        anchor: Anchored,
        reference: BlockNumber,
    ) -> Result<Next, WalkError> {
        let (request, answer) = only(asked, answers)?;
        let text = result(Target::Node, request, answer, "archive witness for the block")?;
        let archive_witness: ArchiveWitness =
            read::archive_witness(Doc::text("getBlockHashMembershipWitness", &as_response(&text)))
                .map_err(|e| answer_error(Target::Node, &request.method, e))?;
        let proof;
        let subject = match self.params.subject {
            WalkSubject::Tx => ChainSubject::Effect(&found.effect.effect),
            WalkSubject::Category(category, element) => {
                proof = prove_category(cx.hasher, &found.effect.effect, category, element)
                    .map_err(|e| answer_error(Target::Node, &request.method, e.into()))?;
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
        let expected = self.params.expected.with_tx_hash(Some(self.params.tx_hash));
        let mut verdict =
            verify_chain_parts(cx, anchor.root, parts, subject, found.effect.in_block.as_ref(), &expected)
                .map_err(|e| answer_error(Target::Node, "the chain", e))?;
        let block = found.parts();
        verdict.unverified("checkpointNumber", safe_number(block.checkpoint_number));
        verdict.unverified("indexWithinCheckpoint", safe_number(block.index_within_checkpoint));
        // Only L1 says which checkpoint's archive the root is; a given root says nothing of it.
        let anchor_checkpoint = anchor.l1.as_ref().map(|_| block.checkpoint_number);
        Ok(Next::Done(Box::new(WalkVerdict {
            verdict,
            anchor_checkpoint,
            reference_block: reference,
            l1: anchor.l1,
            finality: anchor.finality,
            witness_source: found.witness_source,
            namespace: self.namespace,
        })))
    }
}
