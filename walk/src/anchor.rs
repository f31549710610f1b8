//! The walk's L1 phases: the L1 node's chain and block, the Registry's rollup, and the rollup's
//! words at that block, which give the archive root the walk trusts and the tx's finality.

use txfx_documents::Claim;
use txfx_documents::json::Json;
use txfx_documents::json::rpc::{RpcAnswer, RpcRequest, batch_request_json};
use txfx_documents::txfx_membership::txfx_poseidon::Fr;
use txfx_ethereum::{RollupSlots, RollupWords, VerifiedHeader};

use crate::l1::{self, Address, BlockTag, L1Block, L1Problem};
use crate::limits::AnswerSize;
use crate::steps::{Anchored, Found, Next, Phase, ReadAt, contradicts, only, pair, result};
use crate::{Anchor, ENVELOPE_BYTES, Finality, L1Evidence, L1Facts, Request, Target, Walk, WalkError};

/// The rollup's words as the walk reads them, from calls or from proofs.
struct RollupRead {
    proven: u64,
    pending: u64,
    /// The checkpoint's archive; `None` past pending (a stale word is never taken).
    archive: Option<Fr>,
    /// `archiveAt(0)`, when it was read.
    genesis: Option<Fr>,
    evidence: L1Evidence,
}

impl Walk {
    pub(crate) fn on_l1_head(
        &mut self,
        asked: &Request,
        answers: Vec<RpcAnswer>,
        found: Box<Found>,
    ) -> Result<Next, WalkError> {
        let ((chain_request, chain_answer), (block_request, block_answer)) = pair(asked, answers)?;
        let chain_id = l1::chain_id(&result(Target::L1, chain_request, chain_answer, "chain id")?)?;
        let header_chain_id = found.parts().header.global_variables.chain_id;
        if header_chain_id != Fr::from(chain_id) {
            return Err(contradicts(
                "the block header's chainId",
                header_chain_id,
                "the L1 node's eth_chainId",
                Claim::Number(chain_id),
                "l1",
            ));
        }
        if let Some(deployment) = self.params.network.as_ref().and_then(|n| n.l1.as_ref())
            && deployment.chain_id != chain_id
        {
            return Err(contradicts(
                "the network's L1 chain",
                Claim::Number(deployment.chain_id),
                "the L1 node's eth_chainId",
                Claim::Number(chain_id),
                "l1",
            ));
        }
        let text = result(Target::L1, block_request, block_answer, "block of that tag")?;
        let (block, header) = match self.anchor_tag() {
            // A block named by hash: its header must hash to it, and its state root is what
            // the rollup's words are proven against.
            BlockTag::Hash(hash) => {
                let header = VerifiedHeader::from_json(hash, &text).map_err(WalkError::L1Proof)?;
                (L1Block { number: header.number(), hash: hash.0 }, Some(Box::new(header)))
            }
            tag => {
                let block = l1::block(&text)?;
                if let BlockTag::Number(asked) = tag
                    && block.number != asked
                {
                    return Err(L1Problem::OtherBlock { asked, got: block.number }.into());
                }
                (block, None)
            }
        };
        match self.params.anchor {
            Anchor::L1 { rollup, .. } => {
                let at = ReadAt { block, chain_id, rollup, registry: None };
                match header {
                    Some(header) => self.rollup_proof(found, at, header).map(Next::Send),
                    None => Ok(Next::Send(self.rollup_calls(found, at))),
                }
            }
            Anchor::Registry { registry, .. } => {
                let requests = vec![l1::canonical_rollup(self.take_id(), registry, &block)];
                self.phase = Phase::L1Registry { found, block, chain_id, registry };
                Ok(Next::Send(Request {
                    target: Target::L1,
                    body: batch_request_json(&requests),
                    requests,
                    max_answer_bytes: AnswerSize::Small.bytes(),
                }))
            }
            Anchor::Given(_) => Err(WalkError::Ended),
        }
    }

    /// The tag of an L1 anchor.
    fn anchor_tag(&self) -> BlockTag {
        match self.params.anchor {
            Anchor::L1 { tag, .. } | Anchor::Registry { tag, .. } => tag,
            Anchor::Given(_) => BlockTag::Finalized,
        }
    }

    pub(crate) fn on_l1_registry(
        &mut self,
        asked: &Request,
        answers: Vec<RpcAnswer>,
        found: Box<Found>,
        block: L1Block,
        chain_id: u64,
        registry: Address,
    ) -> Result<Next, WalkError> {
        let (request, answer) = only(asked, answers)?;
        let rollup = l1::rollup_address(&result(Target::L1, request, answer, "answer to the call")?)?;
        Ok(Next::Send(self.rollup_calls(found, ReadAt { block, chain_id, rollup, registry: Some(registry) })))
    }

    /// The rollup's tips and the checkpoint's archive at `block` (and `archiveAt(0)` when the
    /// network pins its genesis archive root).
    fn rollup_calls(&mut self, found: Box<Found>, at: ReadAt) -> Request {
        let (rollup, block) = (at.rollup, &at.block);
        let checkpoint = found.parts().checkpoint_number;
        let mut requests = vec![
            l1::proven_checkpoint(self.take_id(), rollup, block),
            l1::pending_checkpoint(self.take_id(), rollup, block),
            l1::archive_at(self.take_id(), rollup, checkpoint, block),
        ];
        if self.params.network.as_ref().is_some_and(|n| n.genesis_archive_root.is_some()) {
            requests.push(l1::archive_at(self.take_id(), rollup, 0, block));
        }
        let max_answer_bytes = requests.len() as u64 * AnswerSize::Small.bytes();
        self.phase = Phase::L1Calls { found, at };
        Request { target: Target::L1, body: batch_request_json(&requests), requests, max_answer_bytes }
    }

    pub(crate) fn on_l1_calls(
        &mut self,
        asked: &Request,
        answers: Vec<RpcAnswer>,
        found: Box<Found>,
        at: ReadAt,
    ) -> Result<Next, WalkError> {
        let mut results = Vec::with_capacity(answers.len());
        for (request, answer) in asked.requests.iter().zip(answers) {
            results.push(result(Target::L1, request, answer, "answer to the call")?);
        }
        let (Some(proven), Some(pending), Some(archive)) = (results.first(), results.get(1), results.get(2))
        else {
            return Err(WalkError::Ended);
        };
        let archive = l1::archive(archive)?;
        let read = RollupRead {
            proven: l1::number("getProvenCheckpointNumber", proven)?,
            pending: l1::number("getPendingCheckpointNumber", pending)?,
            // archiveAt is 0 past pending: the same as no archive.
            archive: (archive != Fr::from(0u64)).then_some(archive),
            genesis: results.get(3).map(|text| l1::archive(text)).transpose()?,
            evidence: L1Evidence::EthCall,
        };
        self.anchored(found, at, read)
    }

    /// `eth_getProof` of the rollup's tips, `archives[n]` and `archives[0]` at the verified
    /// block (`txfx-ethereum`'s layout of v6's `RollupStore`).
    fn rollup_proof(
        &mut self,
        found: Box<Found>,
        at: ReadAt,
        header: Box<VerifiedHeader>,
    ) -> Result<Request, WalkError> {
        let slots = RollupSlots::for_checkpoint(found.parts().checkpoint_number);
        let proof = slots.request(at.rollup).map_err(WalkError::L1Proof)?;
        // The request's parameters as txfx-ethereum writes them (the block by its hash).
        let params: Vec<serde_json::Value> =
            serde_json::from_str(&proof.params(&header)).map_err(|_| WalkError::Ended)?;
        let requests = vec![RpcRequest {
            id: self.take_id(),
            method: "eth_getProof".into(),
            params: params.into_iter().map(Json::from).collect(),
        }];
        let max_answer_bytes = ENVELOPE_BYTES + proof.max_answer_bytes() as u64;
        self.phase = Phase::L1Proof { found, at, header, slots: Box::new(slots) };
        Ok(Request { target: Target::L1, body: batch_request_json(&requests), requests, max_answer_bytes })
    }

    pub(crate) fn on_l1_proof(
        &mut self,
        asked: &Request,
        answers: Vec<RpcAnswer>,
        found: Box<Found>,
        at: ReadAt,
        header: &VerifiedHeader,
        slots: &RollupSlots,
    ) -> Result<Next, WalkError> {
        let (request, answer) = only(asked, answers)?;
        let text = result(Target::L1, request, answer, "proof of the rollup's storage")?;
        let words = RollupWords::from_proofs(header, at.rollup, slots, &text).map_err(WalkError::L1Proof)?;
        // No account, or one without code: every word reads as zero, and no rollup is there.
        if words.account().is_none_or(|account| account.code_hash == alloy_primitives::KECCAK256_EMPTY) {
            return Err(L1Problem::NoContract { address: at.rollup }.into());
        }
        let tip = |tip: u128, call| u64::try_from(tip).map_err(|_| L1Problem::TooLarge { call });
        let read = RollupRead {
            proven: tip(words.proven(), "the rollup's proven tip")?,
            pending: tip(words.pending(), "the rollup's pending tip")?,
            archive: words
                .archive()
                .map(|word| l1::archive_word(word.0))
                .transpose()?
                .filter(|root| *root != Fr::from(0u64)),
            genesis: Some(l1::archive_word(words.genesis_archive().0)?),
            evidence: L1Evidence::StorageProof { state_root: header.state_root(), fork: header.fork() },
        };
        self.anchored(found, at, read)
    }

    /// The archive root the walk trusts from the rollup's words at `at`, and the tx's finality:
    /// the checkpoint must be at most pending with a nonzero archive, and `archiveAt(0)` the
    /// network's genesis archive root when the network pins one.
    fn anchored(&mut self, found: Box<Found>, at: ReadAt, read: RollupRead) -> Result<Next, WalkError> {
        let ReadAt { block, chain_id, rollup, registry } = at;
        let mut l1 = L1Facts {
            rollup,
            registry,
            tag: self.anchor_tag(),
            block,
            chain_id,
            proven_checkpoint: read.proven,
            pending_checkpoint: read.pending,
            genesis: None,
            evidence: read.evidence,
        };
        if let Some(network) = &self.params.network
            && let Some(genesis) = network.genesis_archive_root
        {
            // archiveAt(0) was asked when the network pins a genesis archive root.
            let Some(on_l1) = read.genesis else { return Err(WalkError::Ended) };
            if genesis != on_l1 {
                return Err(WalkError::WrongRollup { network: network.name.clone(), genesis, on_l1 });
            }
            l1.genesis = Some((network.name.clone(), on_l1));
        }
        let checkpoint = found.parts().checkpoint_number;
        let root = match read.archive {
            Some(root) if checkpoint <= l1.pending_checkpoint => root,
            _ => {
                return Err(WalkError::NotOnL1 {
                    checkpoint,
                    pending: l1.pending_checkpoint,
                    l1: Box::new(l1),
                });
            }
        };
        let finality =
            if checkpoint <= l1.proven_checkpoint { Finality::Proven } else { Finality::Checkpointed };
        let anchor = Anchored { root, l1: Some(l1), finality };
        Ok(Next::Send(self.reference_request(found, anchor)))
    }
}
