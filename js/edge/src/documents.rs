//! The document functions: each one call of `txfx_documents::ops` on a [`Context`] of the hasher
//! and the protocol named, a document in and a document or verdict out, and the verifications'
//! named arguments.

use txfx_documents::classify::{Classify, ErrorClass};
use txfx_documents::json::{stored_block_to_json, witness_to_json};
use txfx_documents::ops::{
    self, ArchiveSubject, Context, Expected, Subject, TxSelector, blob_encode, block_leaves, block_witnesses,
    checkpoint_decode, commitment_json, effect_commitment, header_hash, verify_archive, verify_tx_chain,
    verify_witness, witness_of,
};
use txfx_documents::{Doc, document};
use txfx_membership::ProtocolVersion;
use txfx_poseidon::HashBackend;
use txfx_poseidon::field::fr_to_hex;

use crate::*;

/// A document the caller gave as text, within the documents' size limit.
pub(crate) fn doc<'a>(name: &'a str, text: &'a str) -> Result<Doc<'a>> {
    Ok(document(name, text)?)
}

/// An effect's commitment: `txHash`, `txStartMarker`, `categoryHashes`, `categoriesHash`, `leaf`,
/// `numBlobFields` (what `txfx effect hash` prints), as JSON text.
///
/// # Errors
/// A bad document or a backend failure.
pub fn tx_effect_commitment(
    hasher: &dyn HashBackend,
    effect: &str,
    protocol: Option<&str>,
) -> Result<String> {
    let (document, commitment) = effect_commitment(context(hasher, protocol)?, doc("effect", effect)?)?;
    Ok(commitment_json(&document, &commitment).to_string())
}

/// A body's `txEffectsTreeRoot` (a body, an `L2Block`, or an array of effects).
///
/// # Errors
/// A bad document or a backend failure.
pub fn tx_effects_tree_root(hasher: &dyn HashBackend, body: &str, protocol: Option<&str>) -> Result<String> {
    let (_, commitment) = ops::body_commitment(context(hasher, protocol)?, doc("body", body)?)?;
    Ok(fr_to_hex(&commitment.root()))
}

/// The stored form of a body (`txfx block leaves`), as JSON text.
///
/// # Errors
/// A bad document, a block number missing or in conflict, or a backend failure.
pub fn tx_effect_leaves(
    hasher: &dyn HashBackend,
    body: &str,
    block: Option<u32>,
    protocol: Option<&str>,
) -> Result<String> {
    let stored = block_leaves(context(hasher, protocol)?, doc("body", body)?, block_number(block))?;
    Ok(stored_block_to_json(&stored).to_string())
}

/// The membership witness of one tx (an index in decimal, or a `0x`-hex tx hash), as the node's
/// JSON prints it.
///
/// # Errors
/// As [`tx_effect_leaves`], or a tx the block does not have.
pub fn tx_effect_membership_witness(
    hasher: &dyn HashBackend,
    body: &str,
    tx: &str,
    block: Option<u32>,
    protocol: Option<&str>,
) -> Result<String> {
    let selector: TxSelector = tx.parse()?;
    let witnesses = block_witnesses(context(hasher, protocol)?, doc("body", body)?, block_number(block))?;
    Ok(witness_to_json(&witness_of(&witnesses, selector)?).to_string())
}

/// The root over leaves a node keeps: the stored form of [`tx_effect_leaves`] (every leaf and
/// the root checked first) or bare leaves (a JSON array of `0x`-hex).
///
/// # Errors
/// A bad or inconsistent document, or a backend failure.
pub fn tx_effects_tree_root_from_leaves(hasher: &dyn HashBackend, leaves: &str) -> Result<String> {
    // Stored leaves are txfx's own format: no protocol reads them differently.
    let cx = Context::new(hasher, ProtocolVersion::DEPLOYED);
    Ok(fr_to_hex(&ops::leaves_root(cx, doc("leaves", leaves)?)?))
}

/// The membership witness of one tx served from leaves a node keeps (stored form, by index or
/// tx hash; bare leaves, by index, with the block number given).
///
/// # Errors
/// As [`tx_effects_tree_root_from_leaves`], a block number missing or in conflict, or a tx the
/// leaves do not have.
pub fn tx_effect_membership_witness_from_leaves(
    hasher: &dyn HashBackend,
    leaves: &str,
    tx: &str,
    block: Option<u32>,
) -> Result<String> {
    let selector: TxSelector = tx.parse()?;
    let cx = Context::new(hasher, ProtocolVersion::DEPLOYED);
    let witnesses = ops::leaves_witnesses(cx, doc("leaves", leaves)?, block_number(block))?;
    Ok(witness_to_json(&witness_of(&witnesses, selector)?).to_string())
}

/// The subject of a verification, as the JavaScript side gives it: a kind (`leaf`, `txHash`,
/// `effect`, `categoryProof`), its value, and the categories hash beside a tx hash.
#[derive(Debug, Clone, Copy)]
pub struct SubjectText<'a> {
    /// `leaf`, `txHash`, `effect` or `categoryProof`.
    pub kind: &'a str,
    /// A field element for `leaf` and `txHash`, a document for the others.
    pub value: &'a str,
    /// The categories hash, only beside a tx hash.
    pub categories_hash: Option<&'a str>,
}

impl<'a> SubjectText<'a> {
    fn read(self) -> Result<Subject<'a>> {
        Ok(match self.kind {
            "leaf" => Subject::Leaf(field("leaf", self.value)?),
            "txHash" => Subject::Tx {
                tx_hash: field("txHash", self.value)?,
                categories_hash: self
                    .categories_hash
                    .map(|text| field("categoriesHash", text))
                    .transpose()?,
            },
            "effect" => Subject::Effect(doc("effect", self.value)?),
            "categoryProof" => Subject::CategoryProof(doc("categoryProof", self.value)?),
            other => {
                return Err(Thrown::new(
                    ErrorClass::Malformed,
                    "Subject",
                    &format!("subject: {other:?} is not leaf, txHash, effect or categoryProof"),
                ));
            }
        })
    }
}

/// What the caller expects a verification to name, as JSON text
/// `{"blockNumber"?, "blockHash"?, "txHash"?}` (read by `txfx-documents`, as every document is).
pub(crate) fn expected(text: Option<&str>) -> Result<Expected> {
    match text {
        None => Ok(Expected::default()),
        Some(text) => Ok(Expected::from_json(Doc::text("expected", text))?),
    }
}

/// The protocol a call names, [`ProtocolVersion::DEPLOYED`] (v6) when it names none.
pub(crate) fn protocol(name: Option<&str>) -> Result<ProtocolVersion> {
    name.map_or(Ok(ProtocolVersion::DEPLOYED), |name| {
        name.parse().map_err(|e: txfx_membership::UnknownProtocolVersion| {
            Thrown::new(ErrorClass::Malformed, "UnknownProtocolVersion", &format!("protocol: {e}"))
        })
    })
}

/// The context of a call: the engine's hasher and the protocol it names.
pub(crate) fn context<'h>(hasher: &'h dyn HashBackend, name: Option<&str>) -> Result<Context<'h>> {
    Ok(Context::new(hasher, protocol(name)?))
}

/// Verifies a tx-effects witness against a root the caller trusts; the verdict as JSON text.
///
/// # Errors
/// A bad document, or a refuted check (class `Refuted`, with its link).
pub fn verify_tx_effect_membership_witness(
    hasher: &dyn HashBackend,
    witness: &str,
    subject: SubjectText<'_>,
    trusted_root: &str,
    expectations: Option<&str>,
    protocol: Option<&str>,
) -> Result<String> {
    let subject = subject.read()?;
    let root = field("trustedRoot", trusted_root)?;
    let cx = context(hasher, protocol)?;
    let verdict = verify_witness(cx, doc("witness", witness)?, subject, root, &expected(expectations)?)?;
    Ok(verdict.to_json().to_string())
}

/// The documents of a whole chain, from an archive root the caller trusts (L1's) to one tx.
#[derive(Debug, Clone, Copy)]
pub struct Chain<'a> {
    /// The archive root, `0x`-hex.
    pub archive_root: &'a str,
    /// The block's archive witness (JSON text).
    pub archive_witness: &'a str,
    /// The block's header (JSON text).
    pub header: &'a str,
    /// The protocol, `v6` when `None`.
    pub protocol: Option<&'a str>,
    /// The tx's tx-effects witness (JSON text).
    pub witness: &'a str,
}

/// Verifies the whole chain to one tx; the verdict as JSON text.
///
/// # Errors
/// As [`verify_tx_effect_membership_witness`].
pub fn verify_tx(
    hasher: &dyn HashBackend,
    chain: Chain<'_>,
    subject: SubjectText<'_>,
    expectations: Option<&str>,
) -> Result<String> {
    let subject = subject.read()?;
    let verdict = verify_tx_chain(
        context(hasher, chain.protocol)?,
        field("archiveRoot", chain.archive_root)?,
        doc("archiveWitness", chain.archive_witness)?,
        doc("header", chain.header)?,
        doc("witness", chain.witness)?,
        subject,
        &expected(expectations)?,
    )?;
    Ok(verdict.to_json().to_string())
}

/// The arguments of a call that names them, as both engines export the verifications: one JSON
/// object of strings whose keys are all in `keys`. Strings in a row could be passed in the wrong
/// order and still be read; by name, a misplaced one is a missing or an unknown key.
pub(crate) fn named_arguments(
    call: &str,
    keys: &[&str],
    what: &str,
) -> Result<serde_json::Map<String, serde_json::Value>> {
    let bad = |message: &str| Thrown::new(ErrorClass::Malformed, "Argument", message);
    let value: serde_json::Value = serde_json::from_str(call).map_err(|e| bad(&format!("{what}: {e}")))?;
    let serde_json::Value::Object(object) = value else {
        return Err(bad(&format!("{what}: expected an object of named arguments")));
    };
    if let Some(key) = object.keys().find(|key| !keys.contains(&key.as_str())) {
        return Err(bad(&format!("{what}: unknown argument {key:?}")));
    }
    Ok(object)
}

/// [`verify_tx`] with every argument named (see `named_arguments`): `{archiveRoot,
/// archiveWitness, header, witness, subjectKind, subjectValue, categoriesHash?, expected?,
/// protocol?}`.
///
/// # Errors
/// As [`verify_tx`], or an object that is not of those keys and strings (`Argument`).
pub fn verify_tx_named(hasher: &dyn HashBackend, call: &str) -> Result<String> {
    const WHAT: &str = "verifyTx";
    let object = named_arguments(
        call,
        &[
            "archiveRoot",
            "archiveWitness",
            "header",
            "witness",
            "subjectKind",
            "subjectValue",
            "categoriesHash",
            "expected",
            "protocol",
        ],
        WHAT,
    )?;
    let chain = Chain {
        archive_root: required_text(&object, "archiveRoot", WHAT)?,
        archive_witness: required_text(&object, "archiveWitness", WHAT)?,
        header: required_text(&object, "header", WHAT)?,
        protocol: option_text(&object, "protocol")?,
        witness: required_text(&object, "witness", WHAT)?,
    };
    let subject = SubjectText {
        kind: required_text(&object, "subjectKind", WHAT)?,
        value: required_text(&object, "subjectValue", WHAT)?,
        categories_hash: option_text(&object, "categoriesHash")?,
    };
    verify_tx(hasher, chain, subject, option_text(&object, "expected")?)
}

/// [`verify_tx_effect_membership_witness`] with every argument named (see
/// `named_arguments`): `{witness, subjectKind, subjectValue, categoriesHash?, trustedRoot,
/// expected?, protocol?}`.
///
/// # Errors
/// As [`verify_tx_effect_membership_witness`], or an object that is not of those keys and
/// strings (`Argument`).
pub fn verify_tx_effect_membership_witness_named(hasher: &dyn HashBackend, call: &str) -> Result<String> {
    const WHAT: &str = "verifyTxEffectMembershipWitness";
    let object = named_arguments(
        call,
        &["witness", "subjectKind", "subjectValue", "categoriesHash", "trustedRoot", "expected", "protocol"],
        WHAT,
    )?;
    let subject = SubjectText {
        kind: required_text(&object, "subjectKind", WHAT)?,
        value: required_text(&object, "subjectValue", WHAT)?,
        categories_hash: option_text(&object, "categoriesHash")?,
    };
    verify_tx_effect_membership_witness(
        hasher,
        required_text(&object, "witness", WHAT)?,
        subject,
        required_text(&object, "trustedRoot", WHAT)?,
        option_text(&object, "expected")?,
        option_text(&object, "protocol")?,
    )
}

/// [`verify_archive_membership`] with every argument named (see `named_arguments`):
/// `{archiveRoot, archiveWitness, header?, blockHash?, expected?, protocol?}`.
///
/// # Errors
/// As [`verify_archive_membership`], or an object that is not of those keys and strings
/// (`Argument`).
pub fn verify_archive_named(hasher: &dyn HashBackend, call: &str) -> Result<String> {
    const WHAT: &str = "verifyArchive";
    let object = named_arguments(
        call,
        &["archiveRoot", "archiveWitness", "header", "blockHash", "expected", "protocol"],
        WHAT,
    )?;
    verify_archive_membership(
        hasher,
        required_text(&object, "archiveRoot", WHAT)?,
        required_text(&object, "archiveWitness", WHAT)?,
        option_text(&object, "header")?,
        option_text(&object, "blockHash")?,
        option_text(&object, "expected")?,
        option_text(&object, "protocol")?,
    )
}

/// Verifies that a block (its header document, or its hash: exactly one) is in the archive under
/// a root the caller trusts; the verdict as JSON text.
///
/// # Errors
/// As [`verify_tx_effect_membership_witness`], or neither or both of header and block hash.
pub fn verify_archive_membership(
    hasher: &dyn HashBackend,
    archive_root: &str,
    archive_witness: &str,
    header: Option<&str>,
    block_hash: Option<&str>,
    expectations: Option<&str>,
    protocol: Option<&str>,
) -> Result<String> {
    let cx = context(hasher, protocol)?;
    let subject = match (header, block_hash) {
        (Some(header), None) => ArchiveSubject::Header(doc("header", header)?),
        (None, Some(hash)) => ArchiveSubject::BlockHash(field("blockHash", hash)?),
        _ => {
            return Err(Thrown::new(
                ErrorClass::Malformed,
                "Subject",
                "give the block's header or its block hash, one of them",
            ));
        }
    };
    let verdict = verify_archive(
        cx,
        field("archiveRoot", archive_root)?,
        subject,
        doc("archiveWitness", archive_witness)?,
        &expected(expectations)?,
    )?;
    Ok(verdict.to_json().to_string())
}

/// The block hash of a header (or an `L2Block`, its body checked against its header).
///
/// # Errors
/// A bad document, an unknown layout, or a body its header does not commit to.
pub fn block_header_hash(hasher: &dyn HashBackend, header: &str, protocol: Option<&str>) -> Result<String> {
    Ok(fr_to_hex(&header_hash(context(hasher, protocol)?, doc("header", header)?)?))
}

/// A checkpoint's blob fields decoded into its blocks, each with its `txEffectsTreeRoot`, as
/// `txfx checkpoint decode` prints them (JSON text).
///
/// # Errors
/// Fields that are not a checkpoint.
pub fn decode_checkpoint(hasher: &dyn HashBackend, fields: &str, protocol: Option<&str>) -> Result<String> {
    Ok(checkpoint_decode(context(hasher, protocol)?, doc("fields", fields)?)?.to_string())
}

/// The blob fields of an effect or a body.
///
/// # Errors
/// A bad document.
pub fn encode_blob_fields(
    hasher: &dyn HashBackend,
    effect_or_body: &str,
    protocol: Option<&str>,
) -> Result<Vec<String>> {
    let cx = context(hasher, protocol)?;
    Ok(blob_encode(cx, doc("effectOrBody", effect_or_body)?)?.iter().map(fr_to_hex).collect())
}

/// A witness's `siblingPath` (base64 of `uint32_be(n)` and n elements) as its elements, lowest
/// level first, read by the witness reader's own code (`txfx_documents::json::
/// sibling_path_from_base64`), with its limits and its error kinds.
///
/// # Errors
/// Text that is not a serialized path.
pub fn decode_sibling_path(text: &str) -> Result<Vec<String>> {
    let path = txfx_documents::json::sibling_path_from_base64(text)
        .map_err(|e| Thrown::new(e.class(), &e.kind(), &format!("siblingPath: {e}")))?;
    Ok(path.iter().map(fr_to_hex).collect())
}

pub(crate) fn option_text<'a>(
    object: &'a serde_json::Map<String, serde_json::Value>,
    key: &str,
) -> Result<Option<&'a str>> {
    match object.get(key) {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::String(text)) => Ok(Some(text)),
        Some(_) => Err(Thrown::new(ErrorClass::Malformed, "Argument", &format!("{key}: expected a string"))),
    }
}

pub(crate) fn required_text<'a>(
    object: &'a serde_json::Map<String, serde_json::Value>,
    key: &str,
    what: &str,
) -> Result<&'a str> {
    option_text(object, key)?
        .ok_or_else(|| Thrown::new(ErrorClass::Malformed, "Argument", &format!("{what}: {key}: required")))
}

pub(crate) fn parsed<T: std::str::FromStr>(key: &str, text: &str) -> Result<T>
where
    T::Err: std::fmt::Display,
{
    text.parse().map_err(|e: T::Err| Thrown::new(ErrorClass::Malformed, "Argument", &format!("{key}: {e}")))
}
