//! The operations the front ends offer, from documents to roots, witnesses, proofs and verdicts:
//! the command line and the JavaScript bindings call these and only convert values at their edge,
//! so the three cannot drift.
//!
//! Verification (a witness, a chain, a block in the archive, and what the caller expects of
//! each) is in `verify.rs`; reading, committing, witnesses, proofs and checkpoints are here.

use txfx_membership::{
    BlockWitnesses, CategoryProof, ElementQuery, ProtocolVersion, StoredBlock, TxEffectMembershipWitness,
    find_tx, prove_category,
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

use crate::error::{Doc, DocumentError, Problem};
use crate::json::{Json, Object, Quoted, body_to_json, checkpoint_to_json, witness_to_json};
use crate::read::{self, BodyDocument, EffectDocument, LeavesDocument};

mod verify;

pub use verify::{
    ArchiveSubject, ChainParts, Expected, Subject, verify_archive, verify_chain_parts, verify_tx_chain,
    verify_witness,
};

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
