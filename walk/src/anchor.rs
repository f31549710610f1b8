//! The walk's L1 phases: the L1 node's chain and block, the Registry's rollup, and the rollup's
//! words at that block, which give the archive root the walk trusts and the tx's finality.

use txfx_documents::Claim;
use txfx_documents::json::rpc::{RpcAnswer, batch_request_json};
use txfx_documents::txfx_membership::txfx_poseidon::Fr;

use crate::l1::{self, Address, BlockTag, L1Block, L1Problem};
use crate::limits::AnswerSize;
use crate::steps::{Anchored, Found, Next, Phase, ReadAt, contradicts, only, pair, result};
use crate::{Anchor, Finality, L1Facts, Request, Target, Walk, WalkError};

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
        let block = l1::block(&text)?;
        if let BlockTag::Number(asked) = self.anchor_tag()
            && block.number != asked
        {
            return Err(L1Problem::OtherBlock { asked, got: block.number }.into());
        }
        match self.params.anchor {
            Anchor::L1 { rollup, .. } => {
                Ok(Next::Send(self.rollup_calls(found, ReadAt { block, chain_id, rollup, registry: None })))
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
        let ReadAt { block, chain_id, rollup, registry } = at;
        let tag = self.anchor_tag();
        let mut results = Vec::with_capacity(answers.len());
        for (request, answer) in asked.requests.iter().zip(answers) {
            results.push(result(Target::L1, request, answer, "answer to the call")?);
        }
        let (Some(proven), Some(pending), Some(archive)) = (results.first(), results.get(1), results.get(2))
        else {
            return Err(WalkError::Ended);
        };
        let mut l1 = L1Facts {
            rollup,
            registry,
            tag,
            block,
            chain_id,
            proven_checkpoint: l1::number("getProvenCheckpointNumber", proven)?,
            pending_checkpoint: l1::number("getPendingCheckpointNumber", pending)?,
            genesis: None,
        };
        // archiveAt(0) was asked when the network pins a genesis archive root: its answer must be
        // there and be that root.
        if let Some(network) = &self.params.network
            && let Some(genesis) = network.genesis_archive_root
        {
            let Some(genesis_on_l1) = results.get(3) else { return Err(WalkError::Ended) };
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
        Ok(Next::Send(self.reference_request(found, anchor)))
    }
}
