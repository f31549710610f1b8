//! The operations the front ends offer, from documents to roots, witnesses, proofs and verdicts:
//! the command line and the JavaScript bindings call these and only convert values at their edge,
//! so the three cannot drift.

use serde_json::json;
use txfx_membership::{
    ArchiveWitness, BlockHeader, BlockWitnesses, CategoryProof, ChainSubject, ElementQuery, ProtocolVersion,
    StoredBlock, TrustedArchiveRoot, TrustedRoot, TxClaim, TxEffectMembershipWitness, find_tx,
    prove_category, verify_block_hash, verify_category_proof, verify_chain, verify_effect, verify_leaf,
    verify_tx,
};
use txfx_poseidon::field::{fr_to_hex, parse_fr_hex};
use txfx_poseidon::{Fr, HashBackend};
use txfx_tx_effects::blob::{decode_block_blob, encode_block_blob, encode_tx_blob};
use txfx_tx_effects::checkpoint::{
    Checkpoint, MAX_CHECKPOINT_BLOB_FIELDS, decode_checkpoint, encode_checkpoint, pad_to_blobs,
};
use txfx_tx_effects::{
    BlockCommitment, BlockNumber, Body, Category, TxEffectCommitment, commit_block, commit_blocks,
    commit_effect, tree_root,
};

use crate::error::{Claim, Contradiction, Doc, DocumentError, Problem};
use crate::json::wire::safe_number;
use crate::json::{Json, Object, Quoted, body_to_json, checkpoint_to_json, witness_to_json};
use crate::read::{self, BodyDocument, ClaimSource, EffectDocument, InBlock, LeavesDocument};
use crate::verdict::Verdict;

/// What every operation runs with: the hasher, and the protocol whose rules the documents are
/// read under (the front ends default to [`ProtocolVersion::DEPLOYED`]).
#[derive(Clone, Copy)]
pub struct Context<'a> {
    /// The hashing backend.
    pub hasher: &'a dyn HashBackend,
    /// The protocol.
    pub protocol: ProtocolVersion,
}

impl<'a> Context<'a> {
    /// A context.
    pub fn new(hasher: &'a dyn HashBackend, protocol: ProtocolVersion) -> Self {
        Self { hasher, protocol }
    }
}

/// Which tx of a block: its index, or its hash (`0x`-hex).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TxSelector {
    /// The tx's position in the block.
    Index(usize),
    /// The tx's hash.
    Hash(Fr),
}

/// Parses a tx selector: decimal digits are an index, `0x`-hex a tx hash.
impl std::str::FromStr for TxSelector {
    type Err = DocumentError;
    fn from_str(text: &str) -> Result<Self, DocumentError> {
        if text.starts_with("0x") {
            return parse_fr_hex(text)
                .map(Self::Hash)
                .map_err(|source| Problem::field(format!("tx {text:?}"), source).into());
        }
        match text.parse::<usize>() {
            Ok(index) if text.bytes().all(|b| b.is_ascii_digit()) => Ok(Self::Index(index)),
            _ => Err(Problem::BadTxSelector { given: Quoted::new(text) }.into()),
        }
    }
}

/// What a verification must find, given by the caller: a mismatch is a refuted check.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Expected {
    /// The block number.
    pub block_number: Option<BlockNumber>,
    /// The block hash.
    pub block_hash: Option<Fr>,
    /// The tx hash.
    pub tx_hash: Option<Fr>,
}

impl Expected {
    /// Reads expectations given as JSON (`{"blockNumber"?, "blockHash"?, "txHash"?}`, as the
    /// JavaScript bindings pass them): a plain object, no other key, no `null`.
    ///
    /// # Errors
    /// [`DocumentError`] for anything else.
    pub fn from_json(doc: Doc<'_>) -> Result<Self, DocumentError> {
        doc.read(|raw| {
            let object = raw.object("expectations", &["blockNumber", "blockHash", "txHash"])?;
            object.strict()?;
            Ok(Self {
                block_number: object.read_optional("blockNumber", crate::json::header::read_block_number)?,
                block_hash: object.read_optional("blockHash", crate::json::hex_field)?,
                tx_hash: object.read_optional("txHash", crate::json::hex_field)?,
            })
        })
    }
}

impl Expected {
    /// Checks the verdict's facts against the expectations. An expectation about a fact the
    /// verification did not establish is refused: it cannot be met.
    fn check(&self, verdict: &Verdict) -> Result<(), DocumentError> {
        if let Some(expected) = self.block_number {
            match verdict.block_number {
                Some(proven) if proven == expected => {}
                Some(proven) => {
                    return Err(Problem::contradicts(
                        "the block number",
                        proven,
                        "the one expected",
                        expected,
                        "expected",
                    )
                    .into());
                }
                None => {
                    return Err(Problem::CannotExpect {
                        fact: "a block number",
                        why: "this check does not establish one",
                    }
                    .into());
                }
            }
        }
        if let Some(expected) = self.block_hash {
            match verdict.block_hash {
                Some(proven) if proven == expected => {}
                Some(proven) => {
                    return Err(Problem::contradicts(
                        "the block hash",
                        proven,
                        "the one expected",
                        expected,
                        "expected",
                    )
                    .into());
                }
                None => {
                    return Err(Problem::CannotExpect {
                        fact: "a block hash",
                        why: "a block hash is established only from an archive root (txfx verify tx, txfx archive verify)",
                    }
                    .into());
                }
            }
        }
        if let Some(expected) = self.tx_hash {
            match verdict.tx_hash {
                Some(proven) if proven == expected => {}
                Some(proven) => {
                    return Err(Problem::contradicts(
                        "the tx hash",
                        proven,
                        "the one expected",
                        expected,
                        "expected",
                    )
                    .into());
                }
                None => {
                    return Err(Problem::CannotExpect {
                        fact: "a tx hash",
                        why: "a bare leaf names no tx hash",
                    }
                    .into());
                }
            }
        }
        Ok(())
    }
}

/// What a witness or a chain is checked for.
#[derive(Debug, Clone, Copy)]
pub enum Subject<'a> {
    /// A leaf the caller computed (only for a witness against a trusted root: a chain needs a tx).
    Leaf(Fr),
    /// A tx hash, with its categories hash or the witness's.
    Tx {
        /// The tx hash.
        tx_hash: Fr,
        /// The categories hash, if the caller has it.
        categories_hash: Option<Fr>,
    },
    /// A tx effect document (an effect, or a `getTxEffect` result).
    Effect(Doc<'a>),
    /// A category proof document.
    CategoryProof(Doc<'a>),
}

/// The commitment of an effect document.
///
/// # Errors
/// [`DocumentError`] for a bad document or a backend failure.
pub fn effect_commitment(
    cx: Context<'_>,
    doc: Doc<'_>,
) -> Result<(EffectDocument, TxEffectCommitment), DocumentError> {
    let document = read::effect(doc, cx.protocol)?;
    let commitment = commit_effect(cx.hasher, &document.effect)?;
    Ok((document, commitment))
}

/// `txfx effect hash`'s output: the tx hash, marker, category hashes, categories hash, leaf and
/// blob length.
pub fn commitment_json(document: &EffectDocument, commitment: &TxEffectCommitment) -> Json {
    Json::from(
        Object::new()
            .with("txHash", fr_to_hex(&document.effect.tx_hash))
            .with("txStartMarker", fr_to_hex(&commitment.tx_start_marker))
            .with("categoryHashes", hex_list(&commitment.category_hashes))
            .with("categoriesHash", fr_to_hex(&commitment.categories_hash))
            .with("leaf", fr_to_hex(&commitment.leaf))
            .with("numBlobFields", commitment.num_blob_fields),
    )
}

/// Field elements as a JSON array of `0x`-hex strings.
pub fn hex_list(values: &[Fr]) -> Json {
    values.iter().map(fr_to_hex).collect()
}

/// Commits a body document; an `L2Block`'s body is checked against its header's root on this
/// commitment, so the body is committed once.
///
/// # Errors
/// [`DocumentError`] for a bad document (a body its header does not commit to included) or a
/// backend failure.
pub fn body_commitment(
    cx: Context<'_>,
    doc: Doc<'_>,
) -> Result<(BodyDocument, BlockCommitment), DocumentError> {
    commit_unchecked(cx.hasher, read::body_unchecked(cx.hasher, doc, cx.protocol)?)
}

/// Commits a body read by [`read::body_unchecked`] and ends its reading: a block's body is
/// checked against its header's root on this commitment. (For a caller that frees the
/// document's text before the commitment, which holds every category's preimage.)
///
/// # Errors
/// As [`body_commitment`].
pub fn commit_unchecked(
    hasher: &dyn HashBackend,
    unchecked: read::UncheckedBody,
) -> Result<(BodyDocument, BlockCommitment), DocumentError> {
    let commitment = commit_block(hasher, unchecked.body())?;
    let document = unchecked.into_checked(commitment.root())?;
    Ok((document, commitment))
}

/// The block number to use: the caller's, the document's, or both when they agree.
///
/// # Errors
/// [`Problem::BlockNumberConflict`] when they disagree, [`Problem::BlockNumberMissing`] when neither is given.
pub fn block_number_of(
    given: Option<BlockNumber>,
    document: &BodyDocument,
) -> Result<BlockNumber, DocumentError> {
    match (given, document.block_number()) {
        (Some(given), Some(header)) if given != header => Err(Problem::BlockNumberConflict {
            given,
            document: header,
            document_says: "the L2Block's header",
        }
        .into()),
        (Some(number), _) | (None, Some(number)) => Ok(number),
        (None, None) => {
            Err(Problem::BlockNumberMissing { why: "the body has no L2Block header to take it from" }.into())
        }
    }
}

/// The stored form of a body document (`txfx block leaves`).
///
/// # Errors
/// [`DocumentError`] for a bad document, a block number missing or in conflict, or a backend
/// failure.
pub fn block_leaves(
    cx: Context<'_>,
    doc: Doc<'_>,
    block_number: Option<BlockNumber>,
) -> Result<StoredBlock, DocumentError> {
    let (document, commitment) = body_commitment(cx, doc)?;
    let number = block_number_of(block_number, &document)?;
    Ok(StoredBlock::from_commitment(&commitment, &document.body, number))
}

/// Every witness of a body document's block.
///
/// # Errors
/// As [`block_leaves`].
pub fn block_witnesses(
    cx: Context<'_>,
    doc: Doc<'_>,
    block_number: Option<BlockNumber>,
) -> Result<BlockWitnesses, DocumentError> {
    let unchecked = read::body_unchecked(cx.hasher, doc, cx.protocol)?;
    let number = match block_number_of(block_number, unchecked.pending()) {
        Ok(number) => number,
        Err(error) => {
            // A body its header does not commit to is reported first, as when it is read alone.
            unchecked.check(commit_block(cx.hasher, unchecked.body())?.root())?;
            return Err(error);
        }
    };
    let witnesses = BlockWitnesses::from_body(cx.hasher, unchecked.body(), number)?;
    // The witnesses' tree is the body's: its root is the one the header must commit to.
    unchecked.check(witnesses.root())?;
    Ok(witnesses)
}

/// The witness of one tx, by index or hash.
///
/// # Errors
/// [`Problem::OutOfBounds`] or [`Problem::TxLookup`].
pub fn witness_of(
    witnesses: &BlockWitnesses,
    tx: TxSelector,
) -> Result<TxEffectMembershipWitness, DocumentError> {
    match tx {
        TxSelector::Index(index) => Ok(witnesses.witness(index)?),
        TxSelector::Hash(hash) => Ok(witnesses.witness_for_tx_hash(hash)?),
    }
}

/// The node's witness JSON of one witness, or an array of them.
pub fn witnesses_json(witnesses: &[TxEffectMembershipWitness]) -> Json {
    witnesses.iter().map(witness_to_json).collect()
}

/// The root over a leaves document: a stored block is checked (every leaf, then the root) first.
///
/// # Errors
/// [`DocumentError`] for a bad or inconsistent document, or a backend failure.
pub fn leaves_root(cx: Context<'_>, doc: Doc<'_>) -> Result<Fr, DocumentError> {
    match read::leaves(doc)? {
        LeavesDocument::Stored(stored) => {
            Ok(BlockWitnesses::from_stored(cx.hasher, &stored).map_err(|e| doc.error(e))?.root())
        }
        LeavesDocument::Bare(leaves) => Ok(tree_root(cx.hasher, &leaves)?),
    }
}

/// The witnesses of a leaves document: a stored block's (checked, with categories hashes and
/// look-up by tx hash), or bare leaves' under the block number the caller gives.
///
/// # Errors
/// [`DocumentError`] for a bad document, a missing or conflicting block number, or a backend
/// failure.
pub fn leaves_witnesses(
    cx: Context<'_>,
    doc: Doc<'_>,
    block_number: Option<BlockNumber>,
) -> Result<BlockWitnesses, DocumentError> {
    match read::leaves(doc)? {
        LeavesDocument::Stored(stored) => {
            if let Some(given) = block_number.filter(|given| *given != stored.block_number) {
                return Err(doc.error(Problem::BlockNumberConflict {
                    given,
                    document: stored.block_number,
                    document_says: "the stored block",
                }));
            }
            BlockWitnesses::from_stored(cx.hasher, &stored).map_err(|e| doc.error(e))
        }
        LeavesDocument::Bare(leaves) => {
            let number = block_number
                .ok_or_else(|| doc.error(Problem::BlockNumberMissing { why: "bare leaves carry none" }))?;
            Ok(BlockWitnesses::from_leaves(cx.hasher, leaves, number)?)
        }
    }
}

/// `the getTxEffect result's l2BlockNumber`, `the receipt's blockHash`: a claim in messages.
fn claim_name(source: ClaimSource, key: &'static str) -> &'static str {
    match (source, key) {
        (ClaimSource::IndexedTxEffect, "l2BlockNumber") => "the getTxEffect result's l2BlockNumber",
        (ClaimSource::IndexedTxEffect, _) => "the getTxEffect result's l2BlockHash",
        (ClaimSource::Receipt, "blockNumber") => "the receipt's blockNumber",
        (ClaimSource::Receipt, _) => "the receipt's blockHash",
    }
}

/// Checks a node answer's claims about where a tx is (a `getTxEffect` result's, a receipt's)
/// against what a verification established, and lists what it could not check. `header` is the
/// authenticated header when the verification went through the archive.
fn check_in_block(
    in_block: &InBlock,
    verdict: &mut Verdict,
    witness_block: BlockNumber,
    header: Option<&BlockHeader>,
) -> Result<(), DocumentError> {
    let source = in_block.source;
    let proven_number = verdict.block_number.unwrap_or(witness_block);
    if in_block.block_number != proven_number {
        let against = if verdict.block_number.is_some() {
            "the proven block number"
        } else {
            "the witness's blockNumber"
        };
        return Err(Problem::Contradicts(Box::new(Contradiction {
            what: claim_name(source, source.block_number_key()),
            claimed: in_block.block_number.into(),
            against,
            actual: proven_number.into(),
            link: "effect",
        }))
        .into());
    }
    match verdict.block_hash {
        Some(hash) if hash != in_block.block_hash => {
            return Err(Problem::Contradicts(Box::new(Contradiction {
                what: claim_name(source, source.block_hash_key()),
                claimed: in_block.block_hash.into(),
                against: "the proven block hash",
                actual: hash.into(),
                link: "effect",
            }))
            .into());
        }
        Some(_) => {}
        None => verdict.unverified(source.block_hash_key(), json!(fr_to_hex(&in_block.block_hash))),
    }
    if verdict.block_number.is_none() {
        verdict.unverified(source.block_number_key(), json!(in_block.block_number.get()));
    }
    if let Some(slot) = in_block.slot_number {
        match header {
            Some(header) if header.global_variables.slot_number != Fr::from(slot) => {
                return Err(Problem::contradicts(
                    "the answer's slotNumber",
                    Claim::Number(slot),
                    "the proven header's slotNumber",
                    header.global_variables.slot_number,
                    "effect",
                )
                .into());
            }
            Some(_) => verdict.slot_number = Some(slot),
            None => verdict.unverified("slotNumber", safe_number(slot)),
        }
    }
    // A witness fixes a leaf's place in its level, not the tx's index in the block: no check can
    // cover it (docs/spec.md §12.8).
    verdict.unverified("txIndexInBlock", safe_number(in_block.tx_index_in_block));
    // What the node says of the tx's finality and epoch: only L1 can confirm either.
    if let Some(status) = in_block.status {
        verdict.unverified("status", json!(status.name()));
    }
    if let Some(epoch) = in_block.epoch_number {
        verdict.unverified("epochNumber", safe_number(epoch));
    }
    Ok(())
}

/// Verifies a tx-effects witness against a root the caller trusts (`txfx witness verify`,
/// `txfx category verify`), and checks every claim of the inputs against what it proved.
///
/// # Errors
/// [`DocumentError`]: a bad document, a refuted check (its class is
/// [`crate::classify::ErrorClass::Refuted`], its [`DocumentError::link`] names the link), or a
/// backend failure.
pub fn verify_witness(
    cx: Context<'_>,
    witness_doc: Doc<'_>,
    subject: Subject<'_>,
    trusted_root: Fr,
    expected: &Expected,
) -> Result<Verdict, DocumentError> {
    let hasher = cx.hasher;
    let witness = read::witness(witness_doc, cx.protocol)?;
    let root = TrustedRoot::from_authenticated_header(trusted_root);
    let (mut verdict, in_block) = match subject {
        Subject::Leaf(leaf) => (Verdict::tx(&verify_leaf(hasher, leaf, &witness, root)?), None),
        Subject::Tx { tx_hash, categories_hash } => {
            (Verdict::tx(&verify_tx(hasher, TxClaim { tx_hash, categories_hash }, &witness, root)?), None)
        }
        Subject::Effect(doc) => {
            let document = read::effect(doc, cx.protocol)?;
            let tx = verify_effect(hasher, &document.effect, &witness, root).map_err(|e| doc.error(e))?;
            (Verdict::tx(&tx), document.in_block)
        }
        Subject::CategoryProof(doc) => {
            let proof = read::category_proof(doc)?;
            let proven = verify_category_proof(hasher, &proof, &witness, root).map_err(|e| doc.error(e))?;
            (Verdict::category(&proven), None)
        }
    };
    if witness.root != trusted_root {
        return Err(witness_doc.error(Problem::contradicts(
            "the witness's root",
            witness.root,
            "the trusted root",
            trusted_root,
            "witness",
        )));
    }
    // The caller vouches for the root; the block number is covered when the caller names the
    // block that root is of, and the witness agrees.
    match expected.block_number {
        Some(number) if number == witness.block_number => verdict.block_number = Some(number),
        Some(number) => {
            return Err(Problem::contradicts(
                "the witness's blockNumber",
                witness.block_number,
                "the block expected",
                number,
                "expected",
            )
            .into());
        }
        None => verdict.unverified("blockNumber", json!(witness.block_number.get())),
    }
    if let Some(in_block) = in_block {
        check_in_block(&in_block, &mut verdict, witness.block_number, None)?;
    }
    verdict.protocol = Some(cx.protocol);
    expected.check(&verdict)?;
    Ok(verdict)
}

/// Verifies the whole chain from an archive root the caller trusts (L1's) to one tx
/// (`txfx verify tx`), and checks every claim of the inputs against what it proved.
///
/// # Errors
/// As [`verify_witness`]; a bare leaf is refused as a subject (a chain ends in a tx).
pub fn verify_tx_chain(
    cx: Context<'_>,
    archive_root: Fr,
    archive_witness_doc: Doc<'_>,
    header_doc: Doc<'_>,
    witness_doc: Doc<'_>,
    subject: Subject<'_>,
    expected: &Expected,
) -> Result<Verdict, DocumentError> {
    let archive_witness = read::archive_witness(archive_witness_doc)?;
    let header = read::header(cx.hasher, header_doc, cx.protocol)?.header;
    let witness = read::witness(witness_doc, cx.protocol)?;
    let (effect, proof);
    let (chain_subject, in_block) = match subject {
        Subject::Leaf(_) => return Err(Problem::LeafEndsNoChain.into()),
        Subject::Tx { tx_hash, categories_hash } => {
            (ChainSubject::Tx(TxClaim { tx_hash, categories_hash }), None)
        }
        Subject::Effect(doc) => {
            let document = read::effect(doc, cx.protocol)?;
            effect = document.effect;
            (ChainSubject::Effect(&effect), document.in_block)
        }
        Subject::CategoryProof(doc) => {
            proof = read::category_proof(doc)?;
            (ChainSubject::Category(&proof), None)
        }
    };
    let parts =
        ChainParts { archive_witness: &archive_witness, header: &header, witness: &witness, body: None };
    verify_chain_parts(cx, archive_root, parts, chain_subject, in_block.as_ref(), expected)
}

/// The documents of a chain, already read: the archive witness, the header, the tx-effects
/// witness, and the block's body when the caller has it (read together with the header, its
/// root checked against the header's), which lets a node answer's `txIndexInBlock` be checked.
#[derive(Debug, Clone, Copy)]
pub struct ChainParts<'a> {
    /// The block's archive witness.
    pub archive_witness: &'a ArchiveWitness,
    /// The block's header.
    pub header: &'a BlockHeader,
    /// The tx's tx-effects witness.
    pub witness: &'a TxEffectMembershipWitness,
    /// The block's body, read with the header (its root checked against the header's).
    pub body: Option<&'a Body>,
}

/// Verifies a chain whose documents are read ([`verify_tx_chain`] reads them; the node walk
/// fetches them), then checks a node answer's claims about the tx against what it proved and the
/// caller's expectations.
///
/// # Errors
/// As [`verify_witness`].
pub fn verify_chain_parts(
    cx: Context<'_>,
    archive_root: Fr,
    parts: ChainParts<'_>,
    subject: ChainSubject<'_>,
    in_block: Option<&InBlock>,
    expected: &Expected,
) -> Result<Verdict, DocumentError> {
    let root = TrustedArchiveRoot::from_trusted_source(archive_root);
    let chain = verify_chain(
        cx.hasher,
        cx.protocol,
        root,
        parts.archive_witness,
        parts.header,
        parts.witness,
        subject,
    )?;
    let mut verdict = Verdict::chain(&chain);
    if let Some(in_block) = in_block {
        check_in_block(in_block, &mut verdict, parts.witness.block_number, Some(parts.header))?;
        if let (Some(body), Some(tx_hash)) = (parts.body, verdict.tx_hash) {
            check_tx_index(in_block, body, tx_hash, &mut verdict)?;
        }
    }
    verdict.protocol = Some(cx.protocol);
    expected.check(&verdict)?;
    Ok(verdict)
}

/// A node answer's `txIndexInBlock` against the authenticated body: the tx at that index must
/// have the proven tx hash, and no other tx of the block may (else the index cannot be told).
fn check_tx_index(
    in_block: &InBlock,
    body: &Body,
    tx_hash: Fr,
    verdict: &mut Verdict,
) -> Result<(), DocumentError> {
    let index = find_tx(body.tx_effects.iter().map(|effect| effect.tx_hash), tx_hash)?;
    if index as u64 != in_block.tx_index_in_block {
        return Err(Problem::contradicts(
            "the answer's txIndexInBlock",
            Claim::Number(in_block.tx_index_in_block),
            "the tx's index in the authenticated body",
            Claim::Number(index as u64),
            "effect",
        )
        .into());
    }
    verdict.unverified.retain(|(key, _)| *key != "txIndexInBlock");
    verdict.tx_index_in_block = Some(in_block.tx_index_in_block);
    Ok(())
}

/// What an archive check is about: a block hash, or a header document whose hash it is.
#[derive(Debug, Clone, Copy)]
pub enum ArchiveSubject<'a> {
    /// A block hash.
    BlockHash(Fr),
    /// A header document (or a block document around one).
    Header(Doc<'a>),
}

/// Verifies that a block is in the archive under a root the caller trusts (`txfx archive
/// verify`). The block number is the caller's, or else the witness's leaf index: either way the
/// verdict names it, as the archive proves it.
///
/// # Errors
/// As [`verify_witness`].
pub fn verify_archive(
    cx: Context<'_>,
    archive_root: Fr,
    subject: ArchiveSubject<'_>,
    archive_witness_doc: Doc<'_>,
    expected: &Expected,
) -> Result<Verdict, DocumentError> {
    if expected.tx_hash.is_some() {
        return Err(Problem::CannotExpect {
            fact: "a tx hash",
            why: "an archive check proves a block, not a tx (a tx hash goes with the chain: txfx verify tx)",
        }
        .into());
    }
    let witness = read::archive_witness(archive_witness_doc)?;
    let (block_hash, header_number) = match subject {
        ArchiveSubject::BlockHash(hash) => (hash, None),
        ArchiveSubject::Header(doc) => {
            let header = read::header(cx.hasher, doc, cx.protocol)?.header;
            (header.hash(cx.hasher)?, Some(header.global_variables.block_number))
        }
    };
    // The header's own number, else the caller's, else the witness's leaf index: whichever it
    // is, the archive proves it and the verdict names it; the caller's expectations are then
    // checked against what was proven.
    let block_number = match header_number.or(expected.block_number) {
        Some(number) => number,
        None => BlockNumber::try_from(witness.leaf_index).map_err(|_| {
            Problem::Archive(txfx_membership::ArchiveError::IndexBeyondTree {
                leaf_index: witness.leaf_index,
            })
        })?,
    };
    let root = TrustedArchiveRoot::from_trusted_source(archive_root);
    let block = verify_block_hash(cx.hasher, cx.protocol, block_hash, block_number, &witness, root)?;
    let mut verdict = Verdict::block(&block);
    verdict.protocol = Some(cx.protocol);
    expected.check(&verdict)?;
    Ok(verdict)
}

/// A category proof of one tx of a body document (`txfx category prove`).
///
/// # Errors
/// [`DocumentError`] for a bad document, a tx not in the block, an element not in the category,
/// or a backend failure.
pub fn category_prove(
    cx: Context<'_>,
    doc: Doc<'_>,
    tx: TxSelector,
    category: Category,
    element: Option<ElementQuery>,
) -> Result<CategoryProof, DocumentError> {
    let document = read::body(cx.hasher, doc, cx.protocol)?;
    let effects = &document.body.tx_effects;
    let index = match tx {
        TxSelector::Index(index) => index,
        TxSelector::Hash(hash) => find_tx(effects.iter().map(|effect| effect.tx_hash), hash)?,
    };
    let effect = effects
        .get(index)
        .ok_or(Problem::OutOfBounds(txfx_tx_effects::IndexOutOfBounds { index, len: effects.len() }))?;
    Ok(prove_category(cx.hasher, effect, category, element)?)
}

/// The hash of a header document in the protocol's layout (`txfx header hash`); a block
/// document's claims and body are checked against its header first.
///
/// # Errors
/// [`DocumentError`] for a bad document or a backend failure.
pub fn header_hash(cx: Context<'_>, doc: Doc<'_>) -> Result<Fr, DocumentError> {
    Ok(read::header(cx.hasher, doc, cx.protocol)?.header.hash(cx.hasher)?)
}

/// Decodes a checkpoint's blob fields and gives its JSON, each block with its `txEffectsTreeRoot`.
///
/// # Errors
/// [`DocumentError`] for fields that are not a checkpoint, or a backend failure.
pub fn checkpoint_decode(cx: Context<'_>, doc: Doc<'_>) -> Result<Json, DocumentError> {
    let checkpoint = checkpoint_fields(cx, doc)?;
    let roots = checkpoint_roots(cx.hasher, &checkpoint)?;
    Ok(checkpoint_to_json(&checkpoint, Some(&roots)))
}

/// [`checkpoint_decode`]'s reading alone: the blob fields read and decoded, nothing hashed yet.
/// With [`checkpoints_decoded_json`] it splits the decoding so that many checkpoints' blocks are
/// hashed in one batch (`checkpoint decode --jsonl`).
///
/// # Errors
/// [`DocumentError`] for fields that are not a checkpoint.
pub fn checkpoint_fields(cx: Context<'_>, doc: Doc<'_>) -> Result<Checkpoint, DocumentError> {
    let fields = read::blob_fields(doc, MAX_CHECKPOINT_BLOB_FIELDS)?;
    decode_checkpoint(cx.protocol, &fields).map_err(|e| doc.error(e))
}

/// [`checkpoint_decode`]'s JSON for each checkpoint, `result[i]` for `checkpoints[i]`, every block
/// of every checkpoint committed together ([`commit_blocks`]: each stage and each tree level of all
/// of them one backend batch). The answers are the ones [`checkpoint_decode`] gives one by one.
///
/// # Errors
/// [`DocumentError`] for a backend failure.
pub fn checkpoints_decoded_json(
    hasher: &dyn HashBackend,
    checkpoints: &[&Checkpoint],
) -> Result<Vec<Json>, DocumentError> {
    let bodies: Vec<&Body> = checkpoints
        .iter()
        .flat_map(|checkpoint| checkpoint.blocks().iter().map(|block| &block.body))
        .collect();
    let mut roots = commit_blocks(hasher, &bodies)?.into_iter().map(|commitment| commitment.root());
    Ok(checkpoints
        .iter()
        .map(|checkpoint| {
            let roots: Vec<Fr> = roots.by_ref().take(checkpoint.blocks().len()).collect();
            checkpoint_to_json(checkpoint, Some(&roots))
        })
        .collect())
}

/// [`body_commitment`] for many body documents at once, `result[i]` for `bodies[i]`, each read by
/// [`read::body_unchecked`]: every body committed together ([`commit_blocks`]: each stage and each
/// tree level of all of them one backend batch), then each checked against its block header's
/// root on that commitment, so a block's body is committed once where [`body_commitment`]
/// commits it twice (to check it, then for the answer). Each answer is the one
/// [`body_commitment`] gives alone: the document and its commitment, or the same refutation of a
/// body that is not its header's (`block root --jsonl`).
///
/// # Errors
/// The outer [`DocumentError`] for a backend failure, which answers every document; an inner one
/// for a body that is not the one its header commits to.
// The two layers of errors are the point: the outer fails every document, an inner one its own.
#[allow(clippy::type_complexity)]
pub fn bodies_commitments<'a>(
    hasher: &dyn HashBackend,
    bodies: &[&'a read::UncheckedBody],
) -> Result<Vec<Result<(&'a BodyDocument, BlockCommitment), DocumentError>>, DocumentError> {
    let all: Vec<&Body> = bodies.iter().map(|unchecked| unchecked.body()).collect();
    let commitments = commit_blocks(hasher, &all)?;
    Ok(bodies
        .iter()
        .zip(commitments)
        .map(|(unchecked, commitment)| Ok((unchecked.check(commitment.root())?, commitment)))
        .collect())
}

/// Every block's `txEffectsTreeRoot`, all blocks committed together ([`commit_blocks`]).
fn checkpoint_roots(hasher: &dyn HashBackend, checkpoint: &Checkpoint) -> Result<Vec<Fr>, DocumentError> {
    let bodies: Vec<&Body> = checkpoint.blocks().iter().map(|block| &block.body).collect();
    Ok(commit_blocks(hasher, &bodies)?.into_iter().map(|commitment| commitment.root()).collect())
}

/// Encodes txfx's decoded-checkpoint JSON back to blob fields (with the zero tail when `pad`);
/// a `txEffectsTreeRoot` the document gives is checked, never dropped unread.
///
/// # Errors
/// [`DocumentError`] for a bad document, a root that is not its body's, or a backend failure.
pub fn checkpoint_encode(cx: Context<'_>, doc: Doc<'_>, pad: bool) -> Result<Vec<Fr>, DocumentError> {
    let parsed = read::checkpoint(doc, cx.protocol)?;
    if parsed.claimed_roots.iter().any(Option::is_some) {
        let roots = checkpoint_roots(cx.hasher, &parsed.checkpoint)?;
        for (block, (claimed, root)) in parsed.claimed_roots.iter().zip(&roots).enumerate() {
            if let Some(claimed) = claimed.filter(|claimed| claimed != root) {
                return Err(doc.error(Problem::ClaimedRootNotBody { block, claimed, computed: *root }));
            }
        }
    }
    let fields = encode_checkpoint(&parsed.checkpoint);
    Ok(if pad { pad_to_blobs(fields) } else { fields })
}

/// The blob fields of an effect or a body document: an object with an effect's keys is one
/// effect, anything else a body.
///
/// # Errors
/// [`DocumentError`] for a bad document, or a backend failure (an `L2Block`'s body check).
pub fn blob_encode(cx: Context<'_>, doc: Doc<'_>) -> Result<Vec<Fr>, DocumentError> {
    // The shape is told among every document's shapes: a document with an effect's keys and a
    // body's is refused, never read as whichever comes first.
    let shape = doc.read(|raw| read::effect_or_body(raw, cx.protocol))?;
    if matches!(shape, Some(shape) if [read::TX_EFFECT, read::INDEXED_TX_EFFECT, read::TX_RECEIPT].contains(&shape))
    {
        return Ok(encode_tx_blob(&read::effect(doc, cx.protocol)?.effect));
    }
    Ok(encode_block_blob(&read::body(cx.hasher, doc, cx.protocol)?.body))
}

/// Decodes a block's blob fields into the body's JSON.
///
/// # Errors
/// [`DocumentError`] for fields that do not decode.
pub fn blob_decode(cx: Context<'_>, doc: Doc<'_>) -> Result<Json, DocumentError> {
    let fields = read::blob_fields(doc, MAX_CHECKPOINT_BLOB_FIELDS)?;
    Ok(body_to_json(&decode_block_blob(cx.protocol, &fields).map_err(|e| doc.error(e))?))
}
