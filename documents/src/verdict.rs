//! Verdicts as data: what a verification authenticated, named fact by fact with the node's key
//! names, and never a fact it did not check (docs/spec.md §12.8).
//!
//! ```json
//! {"valid":true,"proves":"element","archiveRoot":"0x..","blockNumber":3,"blockHash":"0x..",
//!  "txEffectsTreeRoot":"0x..","txHash":"0x..","categoriesHash":"0x..","leaf":"0x..",
//!  "leafIndex":"1","pathLength":2,"category":"nullifiers","categoryHash":"0x..",
//!  "element":{"role":"nullifier","index":0,"value":"0x15"},
//!  "unverified":{"txIndexInBlock":1}}
//! ```
//!
//! A fact is present exactly when the verification established it: `archiveRoot`, `blockNumber`
//! and `blockHash` only when a trusted archive root authenticated the block (or, for
//! `blockNumber` alone, when the caller vouched for it with the root); `txHash` and
//! `categoriesHash` only when the leaf was rebuilt from them. `unverified` lists claims the
//! inputs make that nothing checked (a `getTxEffect` result's `txIndexInBlock`, which no witness
//! fixes), so that no one mistakes them for proven. A failed check is
//! `{"valid":false,"link":"archive","reason":"..."}`.

use crate::json::{Json, Object};
use txfx_membership::{
    BlockInArchive, CategoryMembership, ChainVerdict, ProtocolVersion, Proven, ProvenElement, TxMembership,
};
use txfx_poseidon::Fr;
use txfx_poseidon::field::fr_to_hex;
use txfx_tx_effects::{BlockNumber, Category};

/// What a verdict is about, from the smallest to the largest claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proves {
    /// A block hash in the archive.
    Block,
    /// A leaf in a tx-effects tree (the leaf was given, not rebuilt).
    Leaf,
    /// A tx (its leaf rebuilt from its hash and categories hash, or its whole effect).
    Tx,
    /// One category of a tx.
    Category,
    /// One element of a category of a tx, at its place.
    Element,
}

impl Proves {
    /// `block`, `leaf`, `tx`, `category` or `element`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Block => "block",
            Self::Leaf => "leaf",
            Self::Tx => "tx",
            Self::Category => "category",
            Self::Element => "element",
        }
    }
}

/// The facts a successful verification established (module docs).
///
/// Its facts are read through its accessors and set only here, by the verification that proved
/// them: no caller can add a fact to a verdict, or take one away.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Verdict {
    /// What the verdict is about.
    pub(crate) proves: Proves,
    /// The trusted archive root the block was found under.
    pub(crate) archive_root: Option<Fr>,
    /// The block's number.
    pub(crate) block_number: Option<BlockNumber>,
    /// The block's hash (its header's).
    pub(crate) block_hash: Option<Fr>,
    /// The block's slot, where a node's answer claimed one and the authenticated header agrees.
    pub(crate) slot_number: Option<u64>,
    /// The tx-effects tree root the leaf hashed up to.
    pub(crate) tx_effects_tree_root: Option<Fr>,
    /// The tx hash the leaf was rebuilt from.
    pub(crate) tx_hash: Option<Fr>,
    /// The categories hash the leaf was rebuilt from.
    pub(crate) categories_hash: Option<Fr>,
    /// The leaf.
    pub(crate) leaf: Option<Fr>,
    /// The leaf's index at its level.
    pub(crate) leaf_index: Option<u64>,
    /// The tx's index in its block, where a node's answer claimed it and the authenticated body
    /// agrees.
    pub(crate) tx_index_in_block: Option<u64>,
    /// The path's length.
    pub(crate) path_length: Option<usize>,
    /// The category proven.
    pub(crate) category: Option<Category>,
    /// Its hash.
    pub(crate) category_hash: Option<Fr>,
    /// The element proven, at its place.
    pub(crate) element: Option<ProvenElement>,
    /// Claims the inputs made that nothing checked, by their key.
    pub(crate) unverified: Vec<(&'static str, Json)>,
    /// The protocol whose rules the documents were read and hashed under.
    pub(crate) protocol: Option<ProtocolVersion>,
}

/// What the verdict established, fact by fact (`None` where the verification did not establish
/// that fact).
impl Verdict {
    /// What the verdict is about.
    pub fn proves(&self) -> Proves {
        self.proves
    }

    /// The trusted archive root the block was found under.
    pub fn archive_root(&self) -> Option<Fr> {
        self.archive_root
    }

    /// The block's number.
    pub fn block_number(&self) -> Option<BlockNumber> {
        self.block_number
    }

    /// The block's hash (its header's).
    pub fn block_hash(&self) -> Option<Fr> {
        self.block_hash
    }

    /// The block's slot, where a node's answer claimed one and the authenticated header agrees.
    pub fn slot_number(&self) -> Option<u64> {
        self.slot_number
    }

    /// The tx-effects tree root the leaf hashed up to.
    pub fn tx_effects_tree_root(&self) -> Option<Fr> {
        self.tx_effects_tree_root
    }

    /// The tx hash the leaf was rebuilt from.
    pub fn tx_hash(&self) -> Option<Fr> {
        self.tx_hash
    }

    /// The categories hash the leaf was rebuilt from.
    pub fn categories_hash(&self) -> Option<Fr> {
        self.categories_hash
    }

    /// The leaf.
    pub fn leaf(&self) -> Option<Fr> {
        self.leaf
    }

    /// The leaf's index at its level.
    pub fn leaf_index(&self) -> Option<u64> {
        self.leaf_index
    }

    /// The tx's index in its block, where a node's answer claimed it and the authenticated body agrees.
    pub fn tx_index_in_block(&self) -> Option<u64> {
        self.tx_index_in_block
    }

    /// The path's length.
    pub fn path_length(&self) -> Option<usize> {
        self.path_length
    }

    /// The category proven.
    pub fn category(&self) -> Option<Category> {
        self.category
    }

    /// Its hash.
    pub fn category_hash(&self) -> Option<Fr> {
        self.category_hash
    }

    /// The element proven, at its place.
    pub fn element(&self) -> Option<ProvenElement> {
        self.element
    }

    /// Claims the inputs made that nothing checked, by their key.
    pub fn unverified_claims(&self) -> &[(&'static str, Json)] {
        &self.unverified
    }

    /// The protocol whose rules the documents were read and hashed under.
    pub fn protocol(&self) -> Option<ProtocolVersion> {
        self.protocol
    }
}

impl Verdict {
    fn empty(proves: Proves) -> Self {
        Self {
            proves,
            archive_root: None,
            block_number: None,
            block_hash: None,
            slot_number: None,
            tx_effects_tree_root: None,
            tx_hash: None,
            categories_hash: None,
            leaf: None,
            leaf_index: None,
            tx_index_in_block: None,
            path_length: None,
            category: None,
            category_hash: None,
            element: None,
            unverified: Vec::new(),
            protocol: None,
        }
    }

    /// The verdict of a block hash found in the archive.
    pub fn of_block(block: &BlockInArchive) -> Self {
        let mut verdict = Self::empty(Proves::Block);
        verdict.set_block(block);
        verdict
    }

    fn set_block(&mut self, block: &BlockInArchive) {
        self.archive_root = Some(block.archive_root);
        self.block_number = Some(block.block_number);
        self.block_hash = Some(block.block_hash);
    }

    /// The verdict of a tx-effects witness.
    pub fn of_tx(tx: &TxMembership) -> Self {
        let proves = if tx.tx_hash.is_some() { Proves::Tx } else { Proves::Leaf };
        let mut verdict = Self::empty(proves);
        verdict.set_tx(tx);
        verdict
    }

    fn set_tx(&mut self, tx: &TxMembership) {
        self.tx_effects_tree_root = Some(tx.tx_effects_tree_root);
        self.tx_hash = tx.tx_hash;
        self.categories_hash = tx.categories_hash;
        self.leaf = Some(tx.leaf);
        self.leaf_index = Some(tx.leaf_index);
        self.path_length = Some(tx.path_length);
    }

    /// The verdict of a category proof.
    pub fn of_category(proven: &CategoryMembership) -> Self {
        let proves = if proven.element.is_some() { Proves::Element } else { Proves::Category };
        let mut verdict = Self::empty(proves);
        verdict.set_tx(&proven.tx);
        verdict.category = Some(proven.category);
        verdict.category_hash = Some(proven.category_hash);
        verdict.element = proven.element;
        verdict
    }

    /// The verdict of a whole chain.
    pub fn of_chain(chain: &ChainVerdict) -> Self {
        let mut verdict = match &chain.proven {
            Proven::Tx(tx) => Self::of_tx(tx),
            Proven::Category(category) => Self::of_category(category),
        };
        verdict.set_block(&chain.block);
        verdict
    }

    /// Records a claim the inputs make that nothing checked.
    pub fn unverified(&mut self, key: &'static str, claimed: impl Into<Json>) {
        self.unverified.push((key, claimed.into()));
    }

    /// The verdict as JSON (module docs), its keys in the order shown there.
    pub fn to_json(&self) -> Json {
        let mut out = Object::new().with("valid", true).with("proves", self.proves.name());
        if let Some(protocol) = self.protocol {
            out.insert("protocol", protocol.name());
        }
        let hex = |value: &Option<Fr>| value.as_ref().map(|value| Json::from(fr_to_hex(value)));
        for (key, value) in [
            ("archiveRoot", hex(&self.archive_root)),
            ("blockNumber", self.block_number.map(|number| Json::from(number.get()))),
            ("blockHash", hex(&self.block_hash)),
            ("slotNumber", self.slot_number.map(|slot| Json::from(crate::json::safe_number(slot)))),
            ("txEffectsTreeRoot", hex(&self.tx_effects_tree_root)),
            ("txHash", hex(&self.tx_hash)),
            ("categoriesHash", hex(&self.categories_hash)),
            ("leaf", hex(&self.leaf)),
            // A decimal string, as the node prints a witness's leafIndex.
            ("leafIndex", self.leaf_index.map(|index| Json::from(index.to_string()))),
            ("pathLength", self.path_length.map(Json::from)),
            (
                "txIndexInBlock",
                self.tx_index_in_block.map(|index| Json::from(crate::json::safe_number(index))),
            ),
            ("category", self.category.map(|category| Json::from(category.name()))),
            ("categoryHash", hex(&self.category_hash)),
            ("element", self.element.as_ref().map(crate::json::proof::element_to_json)),
        ] {
            if let Some(value) = value {
                out.insert(key, value);
            }
        }
        if !self.unverified.is_empty() {
            let claims: Object = self.unverified.iter().map(|(key, value)| (*key, value.clone())).collect();
            out.insert("unverified", claims);
        }
        Json::from(out)
    }
}

/// A failed check as JSON: `{"valid": false, "link": .., "reason": ..}`.
pub fn refutation_json(link: &str, reason: &str) -> Json {
    Json::from(Object::new().with("valid", false).with("link", link).with("reason", reason))
}
