//! Verification: a witness against a trusted root, a whole chain against a trusted archive root,
//! a block hash in the archive; each returns the [`Verdict`] of what it proved, checked against
//! what the caller expected and what the node's answers claimed.

use serde_json::json;
use txfx_membership::{
    ArchiveWitness, BlockHeader, ChainSubject, TrustedArchiveRoot, TrustedRoot, TxClaim,
    TxEffectMembershipWitness, find_tx, verify_block_hash, verify_category_proof, verify_chain,
    verify_effect, verify_leaf, verify_tx,
};
use txfx_poseidon::Fr;
use txfx_poseidon::field::fr_to_hex;
use txfx_tx_effects::{BlockNumber, Body};

use super::Context;
use crate::error::{Claim, Contradiction, Doc, DocumentError, Problem};
use crate::json::wire::safe_number;
use crate::read::{self, ClaimSource, InBlock};
use crate::verdict::Verdict;

/// What a verification must find, given by the caller: a mismatch is a refuted check.
/// `Expected::default()` expects nothing; the `with_…` methods add each expectation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Expected {
    /// The block number.
    pub block_number: Option<BlockNumber>,
    /// The block hash.
    pub block_hash: Option<Fr>,
    /// The tx hash.
    pub tx_hash: Option<Fr>,
}

impl Expected {
    /// These expectations, and the block number `number` if it is given.
    #[must_use]
    pub fn with_block_number(self, number: Option<BlockNumber>) -> Self {
        Self { block_number: number, ..self }
    }

    /// These expectations, and the block hash `hash` if it is given.
    #[must_use]
    pub fn with_block_hash(self, hash: Option<Fr>) -> Self {
        Self { block_hash: hash, ..self }
    }

    /// These expectations, and the tx hash `hash` if it is given.
    #[must_use]
    pub fn with_tx_hash(self, hash: Option<Fr>) -> Self {
        Self { tx_hash: hash, ..self }
    }

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
        expect(
            self.block_number,
            verdict.block_number,
            "the block number",
            "a block number",
            "this check does not establish one",
        )?;
        expect(
            self.block_hash,
            verdict.block_hash,
            "the block hash",
            "a block hash",
            "a block hash is established only from an archive root (txfx verify tx, txfx archive verify)",
        )?;
        expect(self.tx_hash, verdict.tx_hash, "the tx hash", "a tx hash", "a bare leaf names no tx hash")
    }
}

/// One expectation against the fact the verdict proved: met, contradicted (the fact named
/// `what`), or about a fact (`fact`) the verification does not establish, for the reason `why`.
fn expect<T: PartialEq + Into<Claim>>(
    expected: Option<T>,
    proven: Option<T>,
    what: &'static str,
    fact: &'static str,
    why: &'static str,
) -> Result<(), DocumentError> {
    match (expected, proven) {
        (None, _) => Ok(()),
        (Some(expected), Some(proven)) if proven == expected => Ok(()),
        (Some(expected), Some(proven)) => {
            Err(Problem::contradicts(what, proven, "the one expected", expected, "expected").into())
        }
        (Some(_), None) => Err(Problem::CannotExpect { fact, why }.into()),
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
        Subject::Leaf(leaf) => (Verdict::of_tx(&verify_leaf(hasher, leaf, &witness, root)?), None),
        Subject::Tx { tx_hash, categories_hash } => {
            (Verdict::of_tx(&verify_tx(hasher, TxClaim { tx_hash, categories_hash }, &witness, root)?), None)
        }
        Subject::Effect(doc) => {
            let document = read::effect(doc, cx.protocol)?;
            let tx = verify_effect(hasher, &document.effect, &witness, root).map_err(|e| doc.error(e))?;
            (Verdict::of_tx(&tx), document.in_block)
        }
        Subject::CategoryProof(doc) => {
            let proof = read::category_proof(doc)?;
            let proven = verify_category_proof(hasher, &proof, &witness, root).map_err(|e| doc.error(e))?;
            (Verdict::of_category(&proven), None)
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
    let mut verdict = Verdict::of_chain(&chain);
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
    let mut verdict = Verdict::of_block(&block);
    verdict.protocol = Some(cx.protocol);
    expected.check(&verdict)?;
    Ok(verdict)
}
