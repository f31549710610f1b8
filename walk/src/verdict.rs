//! What a walk proved ([`WalkVerdict`]): the chain's verdict, the anchor it was proven under and
//! how final that is, and where each of its parts came from.

use txfx_documents::Verdict;
use txfx_documents::json::{Json, Object, Quoted, safe_number};
use txfx_documents::txfx_membership::txfx_poseidon::Fr;
use txfx_documents::txfx_membership::txfx_poseidon::field::fr_to_hex;
use txfx_documents::txfx_membership::txfx_tx_effects::BlockNumber;

use crate::Namespace;
use crate::l1::{Address, BlockTag, L1Block};

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
#[non_exhaustive]
pub struct L1Facts {
    /// The rollup contract.
    pub rollup: Address,
    /// The Registry the rollup was read from (`getCanonicalRollup()` at [`Self::block`]), when
    /// the caller named a registry rather than a rollup.
    pub registry: Option<Address>,
    /// The tag asked for.
    pub tag: BlockTag,
    /// The block every call read.
    pub block: L1Block,
    /// `eth_chainId`, which the block header's `chainId` was found to be.
    pub chain_id: u64,
    /// `getProvenCheckpointNumber()`.
    pub proven_checkpoint: u64,
    /// `getPendingCheckpointNumber()`.
    pub pending_checkpoint: u64,
    /// The network whose genesis archive root the rollup's `archiveAt(0)` was found to be, when
    /// one was given.
    pub genesis: Option<(String, Fr)>,
    /// What the rollup's words rest on.
    pub evidence: L1Evidence,
}

/// What the rollup's words rest on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum L1Evidence {
    /// The L1 node's `eth_call` answers at a block it named: the L1 node is trusted.
    EthCall,
    /// Storage proofs (`eth_getProof`) against the state root of a header that hashes to the
    /// block hash the caller gave: the L1 node is trusted for nothing; the hash is the caller's.
    StorageProof {
        /// The header's state root.
        state_root: txfx_ethereum::B256,
        /// The header's fork.
        fork: txfx_ethereum::Fork,
    },
}

/// Where the tx-effects witness came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WitnessSource {
    /// The node's `getTxEffectMembershipWitness`.
    Node,
    /// Built from the block's body, whose root the header commits to, because the node gave no
    /// witness.
    Body(WitnessFallback),
}

/// Why the node gave no tx-effects witness.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WitnessFallback {
    /// It does not serve the method ("method not found").
    MethodNotFound,
    /// It answered with another error.
    Error {
        /// Its code.
        code: Option<i64>,
        /// Its message.
        message: Quoted,
    },
    /// It answered `null`.
    Null,
}

/// What a walk proved: the chain's verdict (block, tx, category, element), the archive it was
/// proven under, and how final that is.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct WalkVerdict {
    /// The chain's verdict.
    pub verdict: Verdict,
    /// The checkpoint whose archive the block was proven under: read from L1 for an L1 anchor;
    /// the node's claim for a given root, where it is listed unverified and left out of
    /// `anchor` (`None`).
    pub anchor_checkpoint: Option<u64>,
    /// The block the node's archive witness was asked against (its header's `lastArchive` is
    /// the anchor).
    pub reference_block: BlockNumber,
    /// What L1 said, when the anchor is L1's.
    pub l1: Option<L1Facts>,
    /// How final it is.
    pub finality: Finality,
    /// Where the tx-effects witness came from.
    pub witness_source: WitnessSource,
    /// The namespace the node answered in.
    pub namespace: Namespace,
}

fn hex_bytes(bytes: &[u8]) -> String {
    let digits: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("0x{digits}")
}

impl WalkVerdict {
    /// The verdict as JSON: the chain's, with `anchor`, `finality` and `witnessSource` beside it.
    pub fn to_json(&self) -> Json {
        let mut out = self.verdict.to_json();
        if let Some(map) = out.as_object_mut() {
            let mut anchor = Object::new();
            if let Some(checkpoint) = self.anchor_checkpoint {
                anchor.insert("checkpointNumber", safe_number(checkpoint));
            }
            anchor.insert("referenceBlock", self.reference_block.get());
            if let Some(l1) = &self.l1 {
                anchor.insert("rollup", l1.rollup.to_checksum(None));
                if let Some(registry) = &l1.registry {
                    anchor.insert("registry", registry.to_checksum(None));
                }
                anchor.insert("l1ChainId", safe_number(l1.chain_id));
                anchor.insert("l1BlockTag", l1.tag.name());
                anchor.insert("l1BlockNumber", safe_number(l1.block.number));
                anchor.insert("l1BlockHash", hex_bytes(&l1.block.hash));
                anchor.insert("provenCheckpointNumber", safe_number(l1.proven_checkpoint));
                anchor.insert("pendingCheckpointNumber", safe_number(l1.pending_checkpoint));
                match l1.evidence {
                    L1Evidence::EthCall => anchor.insert("l1Evidence", "eth_call"),
                    L1Evidence::StorageProof { state_root, .. } => {
                        anchor.insert("l1Evidence", "storageProof");
                        anchor.insert("l1StateRoot", format!("{state_root:#x}"));
                    }
                }
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
            match &self.witness_source {
                WitnessSource::Node => map.insert("witnessSource", "node"),
                WitnessSource::Body(fallback) => {
                    map.insert("witnessSource", "body");
                    let why = match fallback {
                        WitnessFallback::MethodNotFound => Json::from("method not found"),
                        WitnessFallback::Null => Json::from("null"),
                        WitnessFallback::Error { code, message } => {
                            let mut error = Object::new().with("message", message.head.as_str());
                            if let Some(code) = code {
                                error.insert("code", *code);
                            }
                            Json::from(error)
                        }
                    };
                    map.insert("witnessFallback", why);
                }
            }
        }
        out
    }
}
