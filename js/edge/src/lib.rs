//! The edge both engines of the `txfx` npm package share: the Node addon (`js/native`, napi-rs)
//! and the WASM build (`js/wasm`, one import-free dispatcher) each export these functions unchanged, converting
//! nothing but their own binding's strings and errors. Each function calls
//! `txfx_documents::ops`, the layer the CLI calls, so the three front ends cannot drift, and the
//! two engines cannot differ in anything but the hasher they pass.
//!
//! The edge protocol, shared with `js/api.js` (which is all a user sees):
//! - field elements arrive as `0x`-hex strings (the JavaScript side converts `bigint`s and
//!   32-byte arrays), and leave as `0x`-hex strings. A list of them (a permutation's state, a
//!   hash's inputs) crosses as one string, the elements joined by `,`, with their count beside it
//!   ([`split_fields`]): one string to convert, where one per element cost the addon more than
//!   the permutation's fixed cost. A permutation's four outputs leave as one string of 264
//!   characters, four elements of 66 back to back ([`poseidon2_permutation_joined`]);
//! - documents arrive as JSON text (the JavaScript side serializes parsed objects) or as the
//!   caller's bytes of UTF-8 JSON ([`Arg::Bytes`], read by [`utf8`]: bytes that are not UTF-8 are
//!   refused with kind `NotUtf8`, naming the offset of the first bad byte), and objects leave as
//!   JSON text, parsed on the JavaScript side;
//! - the verifications (`verifyTx`, `verifyTxEffectMembershipWitness`, `verifyArchive`) take
//!   their arguments by name, as one JSON object of strings, never as strings in a row;
//! - a failure is a [`Thrown`]: its class (`Malformed`, `OutOfRange`, `Refuted`, `Backend`,
//!   `Transport`: `txfx_documents::classify::ErrorClass`), its kind, a human message and, for a
//!   refuted verification, its link, handed across as four values (never as JSON to be parsed):
//!   the class decides which subclass of `TxfxError` `js/api.mjs` throws, or that a refuted
//!   verification becomes its verdict object.

use txfx_documents::classify::{Classify, ErrorClass};
use txfx_documents::json::{Json, Object, stored_block_to_json, witness_to_json};
use txfx_documents::ops::{
    self, ArchiveSubject, Context, Expected, Subject, TxSelector, blob_encode, block_leaves, block_witnesses,
    checkpoint_decode, commitment_json, effect_commitment, header_hash, verify_archive, verify_tx_chain,
    verify_witness, witness_of,
};
use txfx_documents::{Doc, DocumentError, document};
use txfx_membership::ProtocolVersion;
use txfx_poseidon::field::{fr_to_hex, parse_fr_json};
use txfx_poseidon::{DomainSeparator, Fr, HashBackend, State};
use txfx_tx_effects::BlockNumber;

/// A failure, as the JavaScript side receives it: its class, its kind, a human message and, for
/// a refutation, the link that did not hold. Each binding hands the four across as they are (the
/// addon as the properties of the `Error` it throws, the WASM build as a packed record in its
/// output buffer), never as text to be parsed, and `js/api.mjs` builds the documented subclass of
/// `TxfxError` from them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thrown {
    class: ErrorClass,
    kind: String,
    message: String,
    link: Option<String>,
}

impl Thrown {
    fn new(class: ErrorClass, kind: &str, message: &str) -> Self {
        Self { class, kind: kind.to_owned(), message: message.to_owned(), link: None }
    }

    /// A refutation: a check that did not hold at `link`, class `Refuted`.
    fn refuted(kind: String, message: String, link: &str) -> Self {
        Self { class: ErrorClass::Refuted, kind, message, link: Some(link.to_owned()) }
    }

    /// A failure of the binding's own machinery (a pool it hands work to, say), class `Backend`:
    /// no document or value of the caller's is at fault.
    pub fn backend(kind: &str, message: &str) -> Self {
        Self::new(ErrorClass::Backend, kind, message)
    }

    /// The failure's class.
    pub fn class(&self) -> ErrorClass {
        self.class
    }

    /// The class's name, as the JavaScript errors' `class` property gives it (`Malformed`, ...).
    pub fn class_name(&self) -> &'static str {
        self.class.name()
    }

    /// The kind: txfx's variant path (`NotCanonical`, `Transport/Timeout`, ...).
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// The human message (no structure of its own: the class, kind and link are beside it).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The link a refutation names (`archive`, `header`, `witness`, ...), only for class `Refuted`.
    pub fn link(&self) -> Option<&str> {
        self.link.as_deref()
    }
}

impl std::fmt::Display for Thrown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}/{})", self.message, self.class_name(), self.kind)
    }
}

impl From<DocumentError> for Thrown {
    fn from(error: DocumentError) -> Self {
        let message = error.to_string();
        Self::document(&error, message)
    }
}

impl Thrown {
    /// `error`'s class, kind and link, with `message`.
    fn document(error: &DocumentError, message: String) -> Self {
        match error.link() {
            Some(link) => Self::refuted(error.kind(), message, link),
            None => Self::new(error.class(), &error.kind(), &message),
        }
    }
}

/// What every edge function returns.
pub type Result<T> = std::result::Result<T, Thrown>;

/// A document the caller gave as text, within the documents' size limit.
fn doc<'a>(name: &'a str, text: &'a str) -> Result<Doc<'a>> {
    Ok(document(name, text)?)
}

/// A document the caller gave as bytes, as text: the bytes themselves when they are UTF-8 (no
/// copy), else a `Malformed` failure of kind `NotUtf8` naming the offset of the first byte that
/// does not begin or continue a UTF-8 sequence (a sequence cut short at the end counts from its
/// first byte), as `std::str::from_utf8`'s `valid_up_to` gives it.
///
/// # Errors
/// Bytes that are not UTF-8.
pub fn utf8<'a>(what: &str, bytes: &'a [u8]) -> Result<&'a str> {
    std::str::from_utf8(bytes).map_err(|error| {
        let at = error.valid_up_to();
        let byte = bytes.get(at).map_or_else(String::new, |byte| format!(" (0x{byte:02x})"));
        Thrown::new(
            ErrorClass::Malformed,
            "NotUtf8",
            &format!(
                "{what}: not UTF-8: the byte at offset {at}{byte} does not begin or continue a UTF-8 sequence"
            ),
        )
    })
}

/// `work`'s result, or, should it panic, a `Backend` failure of kind `Panic` with the panic's
/// message: what an engine running work on a thread of its own reports, where a panic must
/// neither cross into JavaScript nor end the process (rayon aborts on a panic it catches).
///
/// # Errors
/// `work`'s own, or `Panic`.
pub fn caught<T>(work: impl FnOnce() -> Result<T>) -> Result<T> {
    // The work's state is dropped with it: nothing it touched is read after a panic.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|text| (*text).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_owned());
        Err(Thrown::backend("Panic", &format!("txfx panicked: {message}")))
    })
}

/// The one settling of a promise an engine hands to another thread: [`Settle::with`] settles it
/// with a result; dropped unsettled (a pool that drops the task without running it), it settles
/// with a `Backend` failure of kind `WorkerGone`, so that no promise is left pending for ever.
pub struct Settle<F: FnOnce(Result<String>)>(Option<F>);

impl<F: FnOnce(Result<String>)> Settle<F> {
    /// Settles through `settle`, once.
    pub fn new(settle: F) -> Self {
        Self(Some(settle))
    }

    /// Settles with `result`.
    pub fn with(mut self, result: Result<String>) {
        if let Some(settle) = self.0.take() {
            settle(result);
        }
    }
}

impl<F: FnOnce(Result<String>)> Drop for Settle<F> {
    fn drop(&mut self) {
        if let Some(settle) = self.0.take() {
            settle(Err(Thrown::backend(
                "WorkerGone",
                "txfx's background pool dropped an async call without running it",
            )));
        }
    }
}

/// A field element the caller gave: `0x`-hex, or decimal digits read as decimal (as foundation's
/// `Fr.fromString` and Aztec's JSON schemas read them), never reduced mod p. The JavaScript side
/// passes strings on as they are and writes a `bigint` or a number in decimal, so every rule of a
/// field element's text (its digits, their count, its range) is this parser's alone.
fn field(what: &str, text: &str) -> Result<Fr> {
    parse_fr_json(text).map_err(|e| Thrown::new(e.class(), &e.kind(), &format!("{what}: {e}")))
}

/// Each element parsed; the failure names `what[i]`, formatted only when there is one (a
/// per-call hash pays for no text it does not print).
fn fields<S: AsRef<str>>(what: &str, texts: &[S]) -> Result<Vec<Fr>> {
    texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            parse_fr_json(text.as_ref())
                .map_err(|e| Thrown::new(e.class(), &e.kind(), &format!("{what}[{i}]: {e}")))
        })
        .collect()
}

fn block_number(given: Option<u32>) -> Option<BlockNumber> {
    given.map(BlockNumber::new)
}

/// The Poseidon2 permutation of a 4-element state.
///
/// # Errors
/// A state that is not 4 field elements.
pub fn poseidon2_permutation<S: AsRef<str>>(state: &[S]) -> Result<Vec<String>> {
    let values = fields("state", state)?;
    let mut state: State = values.try_into().map_err(|values: Vec<Fr>| {
        Thrown::new(
            ErrorClass::OutOfRange,
            "StateLength",
            &format!("state: 4 elements, not {}", values.len()),
        )
    })?;
    txfx_poseidon::permute(&mut state);
    Ok(state.iter().map(fr_to_hex).collect())
}

/// Aztec's `poseidon2Hash`: the sponge over `inputs`.
///
/// # Errors
/// An input that is not a field element.
pub fn poseidon2_hash<S: AsRef<str>>(inputs: &[S]) -> Result<String> {
    Ok(fr_to_hex(&txfx_poseidon::poseidon2_hash(&fields("inputs", inputs)?)))
}

/// Aztec's `poseidon2HashWithSeparator`: the separator first, then `inputs`.
///
/// # Errors
/// An input that is not a field element.
pub fn poseidon2_hash_with_separator<S: AsRef<str>>(inputs: &[S], separator: u32) -> Result<String> {
    let inputs = fields("inputs", inputs)?;
    Ok(fr_to_hex(&txfx_poseidon::poseidon2_hash_with_separator(&inputs, DomainSeparator::new(separator))))
}

/// A list of field elements as the engines take it: `joined`, the elements joined by `,`, and
/// their `count`. No field element holds a `,`, so a list splits back into exactly `count`
/// elements unless one of them held one, which is refused (kind `InvalidDigit`, as a `,` in one
/// element read alone is): the count keeps `["0x1,0x2"]` from passing for two elements.
///
/// # Errors
/// A split that does not give `count` elements.
pub fn split_fields<'a>(what: &str, joined: &'a str, count: u32) -> Result<Vec<&'a str>> {
    // At most one element more than the count is split off: enough to refuse a list with too
    // many, without first collecting every piece of a text that holds many commas.
    let count = count as usize;
    let texts: Vec<&str> = if count == 0 && joined.is_empty() {
        Vec::new()
    } else {
        joined.split(',').take(count.saturating_add(1)).collect()
    };
    if texts.len() == count {
        return Ok(texts);
    }
    let why = if texts.len() > count {
        "into more: an element holds ',', which is not a hex digit"
    } else {
        "into fewer"
    };
    Err(Thrown::new(
        ErrorClass::Malformed,
        "InvalidDigit",
        &format!("{what}: {count} elements given, but their text splits at ',' {why}"),
    ))
}

/// [`poseidon2_permutation`] over a list as the engines take it ([`split_fields`]): the four
/// outputs back to back, 66 characters each (`fr_to_hex` writes every element at that width).
///
/// # Errors
/// A list that does not split into its count, or a state that is not 4 field elements.
pub fn poseidon2_permutation_joined(joined: &str, count: u32) -> Result<String> {
    Ok(poseidon2_permutation(&split_fields("state", joined, count)?)?.concat())
}

/// [`poseidon2_hash`] over a list as the engines take it ([`split_fields`]).
///
/// # Errors
/// A list that does not split into its count, or an input that is not a field element.
pub fn poseidon2_hash_joined(joined: &str, count: u32) -> Result<String> {
    poseidon2_hash(&split_fields("inputs", joined, count)?)
}

/// [`poseidon2_hash_with_separator`] over a list as the engines take it ([`split_fields`]).
///
/// # Errors
/// A list that does not split into its count, or an input that is not a field element.
pub fn poseidon2_hash_with_separator_joined(joined: &str, count: u32, separator: u32) -> Result<String> {
    poseidon2_hash_with_separator(&split_fields("inputs", joined, count)?, separator)
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
fn expected(text: Option<&str>) -> Result<Expected> {
    match text {
        None => Ok(Expected::default()),
        Some(text) => Ok(Expected::from_json(Doc::text("expected", text))?),
    }
}

/// The protocol a call names, [`ProtocolVersion::DEPLOYED`] (v6) when it names none.
fn protocol(name: Option<&str>) -> Result<ProtocolVersion> {
    name.map_or(Ok(ProtocolVersion::DEPLOYED), |name| {
        name.parse().map_err(|e: txfx_membership::UnknownProtocolVersion| {
            Thrown::new(ErrorClass::Malformed, "UnknownProtocolVersion", &format!("protocol: {e}"))
        })
    })
}

/// The context of a call: the engine's hasher and the protocol it names.
fn context<'h>(hasher: &'h dyn HashBackend, name: Option<&str>) -> Result<Context<'h>> {
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
fn named_arguments(
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

/// A field element in its canonical `0x`-hex form (64 digits), read as [`field`] reads every field
/// element: for the places where a document or a selector takes hex alone (an expectation's
/// hashes, a tx hash that must not read as an index), so that the JavaScript side converts no
/// decimal digits itself.
///
/// # Errors
/// Text that is not a field element.
pub fn field_hex(what: &str, text: &str) -> Result<String> {
    Ok(fr_to_hex(&field(what, text)?))
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

/// `url` as it may be shown: the Rust client's and the CLI's redaction (`txfx_walk::redact_url`),
/// for the JavaScript driver's messages.
pub fn redact_url(url: &str) -> String {
    txfx_walk::redact_url(url)
}

/// The node walks in progress (`txfx-walk`), by id: the JavaScript side sends each request with
/// the runtime's `fetch` and hands the answer back, so the walk's state stays here between calls.
struct Walks {
    next: u32,
    live: std::collections::BTreeMap<u32, txfx_walk::Walk>,
}

/// The most walks alive at once: each holds a block's body, so a caller that never finishes its
/// walks cannot make the engine hold more than this many.
const MAX_LIVE_WALKS: usize = 64;

static WALKS: std::sync::Mutex<Walks> =
    std::sync::Mutex::new(Walks { next: 1, live: std::collections::BTreeMap::new() });

fn walks() -> std::sync::MutexGuard<'static, Walks> {
    // A panic elsewhere poisons nothing a walk relies on: its entries are whole or absent.
    WALKS.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn option_text<'a>(
    object: &'a serde_json::Map<String, serde_json::Value>,
    key: &str,
) -> Result<Option<&'a str>> {
    match object.get(key) {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::String(text)) => Ok(Some(text)),
        Some(_) => Err(Thrown::new(ErrorClass::Malformed, "Argument", &format!("{key}: expected a string"))),
    }
}

fn required_text<'a>(
    object: &'a serde_json::Map<String, serde_json::Value>,
    key: &str,
    what: &str,
) -> Result<&'a str> {
    option_text(object, key)?
        .ok_or_else(|| Thrown::new(ErrorClass::Malformed, "Argument", &format!("{what}: {key}: required")))
}

fn parsed<T: std::str::FromStr>(key: &str, text: &str) -> Result<T>
where
    T::Err: std::fmt::Display,
{
    text.parse().map_err(|e: T::Err| Thrown::new(ErrorClass::Malformed, "Argument", &format!("{key}: {e}")))
}

/// The walk's parameters from the JSON the JavaScript side sends: `{txHash, rollup?, l1Block?,
/// archiveRoot?, category?, element?, role?, expected?, network?, genesisArchiveRoot?,
/// namespace?, timeoutMs?}` (no other key), and the walk's deadline in milliseconds.
fn walk_params(text: &str) -> Result<(txfx_walk::WalkParams, u64)> {
    use txfx_walk::{Anchor, WalkSubject};
    let bad = |message: &str| Thrown::new(ErrorClass::Malformed, "Argument", message);
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(&format!("walk: {e}")))?;
    let object = value.as_object().ok_or_else(|| bad("walk: expected an object"))?;
    const KEYS: [&str; 12] = [
        "timeoutMs",
        "txHash",
        "rollup",
        "l1Block",
        "archiveRoot",
        "category",
        "element",
        "role",
        "expected",
        "network",
        "genesisArchiveRoot",
        "namespace",
    ];
    if let Some(key) = object.keys().find(|key| !KEYS.contains(&key.as_str())) {
        return Err(bad(&format!("walk: unknown option {key:?}")));
    }
    let tx_hash = field("txHash", option_text(object, "txHash")?.ok_or_else(|| bad("txHash: required"))?)?;
    let anchor = match (option_text(object, "rollup")?, option_text(object, "archiveRoot")?) {
        (Some(rollup), None) => Anchor::L1 {
            rollup: txfx_walk::l1::parse_address(rollup)
                .map_err(|e| Thrown::new(ErrorClass::Malformed, "Argument", &format!("rollup: {e}")))?,
            tag: parsed("l1Block", option_text(object, "l1Block")?.unwrap_or("finalized"))?,
        },
        (None, Some(root)) => Anchor::Given(field("archiveRoot", root)?),
        _ => return Err(bad("give rollup (with l1Rpc) or archiveRoot, one of them")),
    };
    let subject = match option_text(object, "category")? {
        None => WalkSubject::Tx,
        Some(category) => {
            let element = option_text(object, "element")?.map(|value| field("element", value)).transpose()?;
            let role = option_text(object, "role")?.map(|role| parsed("role", role)).transpose()?;
            WalkSubject::Category(
                parsed("category", category)?,
                element.map(|value| txfx_membership::ElementQuery { value, role }),
            )
        }
    };
    // `network`: a built-in network's name, or a network's genesis values (`txfx networks`' shape).
    let named = match object.get("network") {
        Some(value @ serde_json::Value::Object(_)) => {
            let text = value.to_string();
            // The walk refuses a network it cannot check (another protocol, no genesis root).
            Some(txfx_documents::read::network(Doc::text("network", &text), "network")?)
        }
        _ => option_text(object, "network")?
            .map(|name| parsed::<NetworkName>("network", name).map(|n| n.0))
            .transpose()?,
    };
    let network = match (named, option_text(object, "genesisArchiveRoot")?) {
        (Some(network), None) => Some(network),
        (None, Some(root)) => {
            Some(txfx_membership::Network::custom(field("genesisArchiveRoot", root)?, "genesisArchiveRoot"))
        }
        (None, None) => None,
        (Some(_), Some(_)) => return Err(bad("give network or genesisArchiveRoot, not both")),
    };
    let expected = match object.get("expected") {
        None | Some(serde_json::Value::Null) => Expected::default(),
        Some(expected) => Expected::from_json(Doc::text("expected", &expected.to_string()))?,
    };
    let namespace = option_text(object, "namespace")?.map(|name| parsed("namespace", name)).transpose()?;
    let mut params =
        txfx_walk::WalkParams::new(tx_hash, anchor).with_subject(subject).with_expected(expected);
    if let Some(network) = network {
        params = params.with_network(network);
    }
    if let Some(namespace) = namespace {
        params = params.with_namespace(namespace);
    }
    Ok((params, walk_timeout(option_text(object, "timeoutMs")?)?))
}

/// The walk's deadline in milliseconds: the walk's default when none is given, else the number
/// given (its decimal text: a JavaScript number crosses as `String(n)`, so that `NaN` cannot
/// become JSON's `null` and so the default), from 1 to the walk's longest (`txfx_walk::LIMITS`).
fn walk_timeout(given: Option<&str>) -> Result<u64> {
    let limits = &txfx_walk::LIMITS;
    let max = millis(limits.max_timeout);
    let Some(text) = given else { return Ok(millis(limits.default_timeout)) };
    text.parse::<u64>().ok().filter(|ms| (1..=max).contains(ms)).ok_or_else(|| {
        Thrown::new(
            ErrorClass::OutOfRange,
            "Argument",
            &format!("timeoutMs: {text} is not a number of milliseconds from 1 to {max}"),
        )
    })
}

/// A duration in whole milliseconds (every limit of the walk's is far below `u64::MAX` of them).
fn millis(duration: std::time::Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// A network by name, parsed.
struct NetworkName(txfx_membership::Network);

impl std::str::FromStr for NetworkName {
    type Err = txfx_membership::UnknownNetwork;
    fn from_str(name: &str) -> std::result::Result<Self, Self::Err> {
        txfx_membership::Network::named(name).map(Self)
    }
}

/// A request as the JavaScript driver reads it: `{"target": "node" | "l1", "body", "maxBytes"}`,
/// the most bytes of its answer to read.
fn request_json(request: &txfx_walk::Request) -> Json {
    let target = match request.target() {
        txfx_walk::Target::Node => "node",
        txfx_walk::Target::L1 => "l1",
    };
    Json::from(
        Object::new()
            .with("target", target)
            .with("body", request.body())
            .with("maxBytes", txfx_documents::json::safe_number(request.max_answer_bytes())),
    )
}

/// A walk's refusal as the JavaScript side reads it: its class (a refutation with its link, an
/// endpoint's unusable answer as `Transport`), its kind and its message.
fn walk_thrown(error: &txfx_walk::WalkError) -> Thrown {
    if error.class() == ErrorClass::Refuted {
        return Thrown::refuted(error.kind(), error.to_string(), error.link().unwrap_or("node"));
    }
    Thrown::new(error.class(), &error.kind(), &error.to_string())
}

/// Starts a node walk: `{"walk": id, "timeoutMs", "request": {"target", "body", "maxBytes"}}`
/// as JSON text, `timeoutMs` the walk's whole deadline, which the driver holds on every await.
///
/// # Errors
/// Parameters that do not read, or too many walks alive.
pub fn node_walk_start(params: &str) -> Result<String> {
    let (params, timeout_ms) = walk_params(params)?;
    let walk = txfx_walk::Walk::new(params).map_err(|error| walk_thrown(&error))?;
    let mut walks = walks();
    if walks.live.len() >= MAX_LIVE_WALKS {
        return Err(Thrown::new(
            ErrorClass::OutOfRange,
            "TooManyWalks",
            &format!("{MAX_LIVE_WALKS} node walks are in progress: finish or drop one first"),
        ));
    }
    let request =
        walk.poll_request().map(request_json).ok_or_else(|| walk_thrown(&txfx_walk::WalkError::Ended))?;
    let id = walks.next;
    walks.next = walks.next.wrapping_add(1).max(1);
    let out = Json::from(
        Object::new()
            .with("walk", id)
            .with("timeoutMs", txfx_documents::json::safe_number(timeout_ms))
            .with("request", request),
    )
    .to_string();
    walks.live.insert(id, walk);
    Ok(out)
}

/// Gives walk `id` the answer to its request (HTTP status and body): the next request,
/// `{"request": {...}}`, or the verdict, `{"verdict": {...}}`. A walk that ends (a verdict or an
/// error) is dropped.
///
/// # Errors
/// An unknown walk, or the walk's refusal, classified by the walk (`Refuted` with its link,
/// `Transport` for an endpoint's unusable answer).
pub fn node_walk_step(hasher: &dyn HashBackend, id: u32, status: u32, body: &str) -> Result<String> {
    let mut walk = walks().live.remove(&id).ok_or_else(|| {
        Thrown::new(ErrorClass::Malformed, "UnknownWalk", &format!("no node walk {id} is in progress"))
    })?;
    // A status past 16 bits is no HTTP status: the walk refuses it as it refuses any but 200.
    let status = u16::try_from(status).unwrap_or(u16::MAX);
    match walk.handle_response(hasher, status, body) {
        Ok(txfx_walk::Progress::Continue) => {
            let request = walk
                .poll_request()
                .map(request_json)
                .ok_or_else(|| walk_thrown(&txfx_walk::WalkError::Ended))?;
            let out = Json::from(Object::new().with("request", request)).to_string();
            walks().live.insert(id, walk);
            Ok(out)
        }
        Ok(txfx_walk::Progress::Done(verdict)) => {
            Ok(Json::from(Object::new().with("verdict", verdict.to_json())).to_string())
        }
        Err(error) => Err(walk_thrown(&error)),
    }
}

/// Drops walk `id` (a walk the caller gives up on: a timeout, a failed fetch). Unknown ids are
/// ignored: a walk that ended is already dropped.
pub fn node_walk_drop(id: u32) -> String {
    walks().live.remove(&id);
    String::new()
}

/// One argument of an export, as an engine hands it over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg<'a> {
    /// An optional argument left out (`undefined` or `null` on the JavaScript side).
    Absent,
    /// A string: a field element, a name, or a document's JSON text.
    Text(&'a str),
    /// A document's bytes (UTF-8 JSON), as the caller gave them: read by [`utf8`].
    Bytes(&'a [u8]),
    /// An unsigned 32-bit number (a block number, a separator).
    Number(u32),
}

/// What an export returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Returned {
    /// A string: a field element, or a document's JSON text.
    Text(String),
    /// A list of field elements.
    Texts(Vec<String>),
}

/// The kind of one parameter of an export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Param {
    /// A string.
    Text,
    /// A string, or absent.
    OptionalText,
    /// An unsigned 32-bit number.
    Number,
    /// An unsigned 32-bit number, or absent.
    OptionalNumber,
}

impl Param {
    /// The name the engines' JavaScript side reads (`text`, `text?`, `u32`, `u32?`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Text => "text",
            Self::OptionalText => "text?",
            Self::Number => "u32",
            Self::OptionalNumber => "u32?",
        }
    }
}

/// One function the engines export: its JavaScript name, its parameters, and what runs it.
pub struct Export {
    /// The name (`txEffectsTreeRoot`).
    pub name: &'static str,
    /// Its parameters, in order.
    pub params: &'static [Param],
    run: fn(&dyn HashBackend, &Args<'_, '_>) -> Result<Returned>,
}

/// An export's arguments, checked against its parameters.
pub struct Args<'a, 'b>(&'b [Arg<'a>]);

impl<'a> Args<'a, '_> {
    fn missing(index: usize) -> Thrown {
        Thrown::new(ErrorClass::Malformed, "Arguments", &format!("argument {index}: of the wrong kind"))
    }

    fn text(&self, index: usize) -> Result<&'a str> {
        match self.0.get(index) {
            Some(Arg::Text(text)) => Ok(text),
            _ => Err(Self::missing(index)),
        }
    }

    /// A document: its text, or its bytes read as UTF-8 (`what` names it in a refusal).
    fn document(&self, index: usize, what: &str) -> Result<&'a str> {
        match self.0.get(index) {
            Some(Arg::Text(text)) => Ok(text),
            Some(Arg::Bytes(bytes)) => utf8(what, bytes),
            _ => Err(Self::missing(index)),
        }
    }

    fn optional_text(&self, index: usize) -> Result<Option<&'a str>> {
        match self.0.get(index) {
            Some(Arg::Text(text)) => Ok(Some(text)),
            Some(Arg::Absent) => Ok(None),
            _ => Err(Self::missing(index)),
        }
    }

    fn number(&self, index: usize) -> Result<u32> {
        match self.0.get(index) {
            Some(Arg::Number(number)) => Ok(*number),
            _ => Err(Self::missing(index)),
        }
    }

    fn optional_number(&self, index: usize) -> Result<Option<u32>> {
        match self.0.get(index) {
            Some(Arg::Number(number)) => Ok(Some(*number)),
            Some(Arg::Absent) => Ok(None),
            _ => Err(Self::missing(index)),
        }
    }
}

use Param::{Number, OptionalNumber, OptionalText, Text};

fn text(value: Result<String>) -> Result<Returned> {
    value.map(Returned::Text)
}

/// Every export of the npm package's engines, declared once: the WASM engine exports this table
/// and one dispatcher, and its JavaScript side builds a function per entry from it.
pub const EXPORTS: &[Export] = &[
    Export {
        name: "poseidon2Permutation",
        params: &[Text, Number],
        run: |_, a| text(poseidon2_permutation_joined(a.text(0)?, a.number(1)?)),
    },
    Export {
        name: "poseidon2Hash",
        params: &[Text, Number],
        run: |_, a| text(poseidon2_hash_joined(a.text(0)?, a.number(1)?)),
    },
    Export {
        name: "poseidon2HashWithSeparator",
        params: &[Text, Number, Number],
        run: |_, a| text(poseidon2_hash_with_separator_joined(a.text(0)?, a.number(1)?, a.number(2)?)),
    },
    Export {
        name: "txEffectCommitment",
        params: &[Text, OptionalText],
        run: |h, a| text(tx_effect_commitment(h, a.document(0, "effect")?, a.optional_text(1)?)),
    },
    Export {
        name: "txEffectsTreeRoot",
        params: &[Text, OptionalText],
        run: |h, a| text(tx_effects_tree_root(h, a.document(0, "body")?, a.optional_text(1)?)),
    },
    Export {
        name: "txEffectLeaves",
        params: &[Text, OptionalNumber, OptionalText],
        run: |h, a| {
            text(tx_effect_leaves(h, a.document(0, "body")?, a.optional_number(1)?, a.optional_text(2)?))
        },
    },
    Export {
        name: "txEffectMembershipWitness",
        params: &[Text, Text, OptionalNumber, OptionalText],
        run: |h, a| {
            text(tx_effect_membership_witness(
                h,
                a.document(0, "body")?,
                a.text(1)?,
                a.optional_number(2)?,
                a.optional_text(3)?,
            ))
        },
    },
    Export {
        name: "txEffectsTreeRootFromLeaves",
        params: &[Text],
        run: |h, a| text(tx_effects_tree_root_from_leaves(h, a.document(0, "leaves")?)),
    },
    Export {
        name: "txEffectMembershipWitnessFromLeaves",
        params: &[Text, Text, OptionalNumber],
        run: |h, a| {
            text(tx_effect_membership_witness_from_leaves(
                h,
                a.document(0, "leaves")?,
                a.text(1)?,
                a.optional_number(2)?,
            ))
        },
    },
    Export {
        name: "verifyTxEffectMembershipWitness",
        params: &[Text],
        run: |h, a| text(verify_tx_effect_membership_witness_named(h, a.text(0)?)),
    },
    Export { name: "verifyTx", params: &[Text], run: |h, a| text(verify_tx_named(h, a.text(0)?)) },
    Export { name: "verifyArchive", params: &[Text], run: |h, a| text(verify_archive_named(h, a.text(0)?)) },
    Export {
        name: "blockHeaderHash",
        params: &[Text, OptionalText],
        run: |h, a| text(block_header_hash(h, a.document(0, "header")?, a.optional_text(1)?)),
    },
    Export {
        name: "decodeCheckpoint",
        params: &[Text, OptionalText],
        run: |h, a| text(decode_checkpoint(h, a.document(0, "fields")?, a.optional_text(1)?)),
    },
    Export { name: "nodeWalkStart", params: &[Text], run: |_, a| text(node_walk_start(a.text(0)?)) },
    Export {
        name: "nodeWalkStep",
        params: &[Number, Number, Text],
        run: |h, a| text(node_walk_step(h, a.number(0)?, a.number(1)?, a.text(2)?)),
    },
    Export {
        name: "nodeWalkDrop",
        params: &[Number],
        run: |_, a| Ok(Returned::Text(node_walk_drop(a.number(0)?))),
    },
    Export {
        name: "decodeSiblingPath",
        params: &[Text],
        run: |_, a| decode_sibling_path(a.text(0)?).map(Returned::Texts),
    },
    Export { name: "fieldHex", params: &[Text, Text], run: |_, a| text(field_hex(a.text(0)?, a.text(1)?)) },
    Export { name: "redactUrl", params: &[Text], run: |_, a| Ok(Returned::Text(redact_url(a.text(0)?))) },
    Export {
        name: "utf8Text",
        params: &[Text, Text],
        run: |_, a| {
            let what = a.text(0)?;
            text(a.document(1, what).map(str::to_owned))
        },
    },
    Export {
        name: "encodeBlobFields",
        params: &[Text, OptionalText],
        run: |h, a| {
            encode_blob_fields(h, a.document(0, "effectOrBody")?, a.optional_text(1)?).map(Returned::Texts)
        },
    },
];

/// Runs export `index` of [`EXPORTS`] with `args`, checked against its parameters first.
///
/// # Errors
/// An unknown export, arguments of the wrong number or kind, or whatever the export reports.
pub fn call(hasher: &dyn HashBackend, index: usize, args: &[Arg<'_>]) -> Result<Returned> {
    let export = EXPORTS
        .get(index)
        .ok_or_else(|| Thrown::new(ErrorClass::Malformed, "Arguments", &format!("no export {index}")))?;
    if args.len() != export.params.len() {
        return Err(Thrown::new(
            ErrorClass::Malformed,
            "Arguments",
            &format!("{}: {} arguments, {} given", export.name, export.params.len(), args.len()),
        ));
    }
    (export.run)(hasher, &Args(args))
}

/// [`EXPORTS`] as JSON, `[{"name", "params": ["text", "u32?", ...]}]`, in order: what an
/// engine's JavaScript side builds its functions from.
pub fn exports_json() -> String {
    EXPORTS
        .iter()
        .map(|export| {
            Object::new()
                .with("name", export.name)
                .with("params", export.params.iter().map(|p| p.name()).collect::<Json>())
        })
        .collect::<Json>()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use txfx_poseidon::Sequential;

    /// Every failure carries its class and kind beside a message that is human text only.
    #[test]
    fn failures_carry_class_and_kind_beside_their_message() {
        let error = tx_effects_tree_root(&Sequential, "{", None).expect_err("not JSON");
        assert_eq!(error.class_name(), "Malformed", "{error}");
        assert!(error.message().contains("body"), "{error}");
        assert!(!error.message().starts_with('{'), "a message, not a record: {error}");
        assert_eq!(error.link(), None);

        let error = poseidon2_permutation(&["0x1".to_owned()]).expect_err("one element");
        assert_eq!((error.class_name(), error.kind()), ("OutOfRange", "StateLength"));
    }

    /// A list crosses as one string and its count: it splits into exactly that many elements, and
    /// an element holding a `,` cannot pass for two.
    #[test]
    fn joined_lists_split_into_their_count() {
        let one = "0x0000000000000000000000000000000000000000000000000000000000000001";
        assert_eq!(split_fields("inputs", "", 0), Ok(Vec::new()));
        assert_eq!(split_fields("inputs", "", 1), Ok(vec![""]));
        assert_eq!(split_fields("inputs", "0x1,,0x2", 3), Ok(vec!["0x1", "", "0x2"]));
        for (joined, count) in [("0x1,0x2", 1), ("0x1", 0), ("", 2), ("0x1,0x2,0x3", 4)] {
            let error = split_fields("inputs", joined, count).expect_err(joined);
            assert_eq!(class_and_kind(&error), ("Malformed".to_owned(), "InvalidDigit".to_owned()));
        }
        // The permutation's outputs, back to back, are the list form's.
        let state = [one, one, one, one].map(str::to_owned);
        let listed = poseidon2_permutation(&state).expect("a state");
        assert_eq!(poseidon2_permutation_joined(&state.join(","), 4), Ok(listed.concat()));
        assert!(listed.iter().all(|element| element.len() == 66));
        assert_eq!(poseidon2_hash_joined("0x1,0x2", 2), poseidon2_hash(&["0x1", "0x2"]));
        assert_eq!(
            poseidon2_hash_with_separator_joined("0x1,0x2", 2, 7),
            poseidon2_hash_with_separator(&["0x1", "0x2"], 7)
        );
        // An element's own error names its index, as the list form's does.
        assert_eq!(poseidon2_hash_joined("0x1,0xg", 2), poseidon2_hash(&["0x1", "0xg"]));
    }

    /// A misspelt expectation is refused, never dropped.
    #[test]
    fn unknown_expectations_are_refused() {
        let error = expected(Some(r#"{"blockNumbr": 3}"#)).expect_err("unknown key");
        assert!(error.kind().contains("UnknownKey"), "{error}");
        for bad in ["[]", "null", r#"{"blockNumber": null}"#, r#"[3, "0x01"]"#] {
            assert!(expected(Some(bad)).is_err(), "{bad}");
        }
        let known = expected(Some(r#"{"blockNumber": 3}"#)).expect("known key");
        assert_eq!(known.block_number, Some(BlockNumber::new(3)));
    }

    /// A verification's arguments are named: a missing, unknown or non-string one is refused
    /// before anything is read, as is a list of them in a row.
    #[test]
    fn named_arguments_are_all_known_strings() {
        let kind = |error: Thrown| class_and_kind(&error);
        let argument = ("Malformed".to_owned(), "Argument".to_owned());
        let named = r#"{"archiveRoot": "0x01", "archiveWitness": "{}", "blockHash": "0x02"}"#;
        assert!(named_arguments(named, &["archiveRoot", "archiveWitness", "blockHash"], "t").is_ok());
        for bad in [r#"{"archiveRoot": "0x01", "archiveWitnes": "{}"}"#, r#"["0x01", "{}"]"#, "not JSON"] {
            let error = named_arguments(bad, &["archiveRoot", "archiveWitness"], "t").expect_err(bad);
            assert_eq!(kind(error), argument, "{bad}");
        }
        let missing = verify_archive_named(&Sequential, r#"{"archiveRoot": "0x01"}"#).expect_err("missing");
        assert!(missing.message().contains("archiveWitness: required"), "{missing}");
        let number = verify_tx_named(&Sequential, r#"{"archiveRoot": 1}"#).expect_err("a number");
        assert_eq!(kind(number), argument);
    }

    fn class_and_kind(error: &Thrown) -> (String, String) {
        (error.class_name().to_owned(), error.kind().to_owned())
    }

    /// Bytes that are not UTF-8 are refused as `NotUtf8`, naming the first bad byte's offset as
    /// `valid_up_to` counts it (a cut-short sequence from its first byte); UTF-8 passes unchanged.
    #[test]
    fn bytes_that_are_not_utf8_name_their_offset() {
        assert_eq!(utf8("body", "{\"é\": 1}".as_bytes()), Ok("{\"é\": 1}"));
        for (bytes, offset) in [
            (&b"{\"a\": \xff}"[..], 6),
            (&b"[\"\xe2\x82\"]"[..], 2),
            (&b"\xc0\x80"[..], 0),
            (&b"[1, 2]\xed\xa0\x80"[..], 6),
            (&b"abc\xf0\x9f\x98"[..], 3),
        ] {
            let error = utf8("body", bytes).expect_err("not UTF-8");
            assert_eq!(class_and_kind(&error), ("Malformed".to_owned(), "NotUtf8".to_owned()));
            assert!(
                error.message().contains(&format!("body: not UTF-8: the byte at offset {offset} ")),
                "{error}"
            );
        }
    }

    /// A document given as bytes reads as its text; bytes where a name or a field is expected are
    /// an argument of the wrong kind.
    #[test]
    fn documents_may_be_bytes_and_nothing_else_may() {
        let index = |name: &str| EXPORTS.iter().position(|export| export.name == name).expect("export");
        let body = include_str!("../../../testdata/blocks/three-fixtures.json");
        let from_text = call(&Sequential, index("txEffectsTreeRoot"), &[Arg::Text(body), Arg::Absent]);
        let from_bytes =
            call(&Sequential, index("txEffectsTreeRoot"), &[Arg::Bytes(body.as_bytes()), Arg::Absent]);
        assert!(matches!(from_text, Ok(Returned::Text(_))), "{from_text:?}");
        assert_eq!(from_text, from_bytes);
        let bad = call(&Sequential, index("txEffectsTreeRoot"), &[Arg::Bytes(b"[\xff]"), Arg::Absent])
            .expect_err("not UTF-8");
        assert_eq!(class_and_kind(&bad).1, "NotUtf8");
        assert!(bad.message().contains("body: not UTF-8: the byte at offset 1"), "{bad}");
        let protocol = call(&Sequential, index("txEffectsTreeRoot"), &[Arg::Text(body), Arg::Bytes(b"v6")])
            .expect_err("a protocol as bytes");
        assert_eq!(class_and_kind(&protocol).1, "Arguments");
    }

    /// A panic in the work is a `Backend` failure of kind `Panic` with its message, never an
    /// unwind past the engine.
    #[test]
    fn a_panic_is_a_failure_of_kind_panic() {
        let error = caught::<String>(|| panic!("the work broke")).expect_err("a panic");
        assert_eq!(class_and_kind(&error), ("Backend".to_owned(), "Panic".to_owned()));
        assert!(error.message().contains("the work broke"), "{error}");
        let formatted = caught::<String>(|| panic!("{} broke", "the work")).expect_err("a panic");
        assert!(formatted.message().contains("the work broke"), "{formatted}");
        assert_eq!(caught(|| Ok(3)), Ok(3));
    }

    /// A promise is settled once: with its result, or, dropped unsettled, as `WorkerGone`.
    #[test]
    fn a_dropped_settlement_is_worker_gone() {
        let (sender, receiver) = std::sync::mpsc::channel();
        let settle = {
            let sender = sender.clone();
            Settle::new(move |result| sender.send(result).expect("send"))
        };
        settle.with(Ok("0x01".to_owned()));
        assert_eq!(receiver.try_recv(), Ok(Ok("0x01".to_owned())));
        assert!(receiver.try_recv().is_err(), "settled twice");
        drop(Settle::new(move |result| sender.send(result).expect("send")));
        let gone = receiver.try_recv().expect("settled on drop").expect_err("WorkerGone");
        assert_eq!(class_and_kind(&gone), ("Backend".to_owned(), "WorkerGone".to_owned()));
    }

    /// A refutation carries its link beside its class and kind; the message is text alone.
    #[test]
    fn a_refutation_names_its_link() {
        let body = include_str!("../../../testdata/blocks/three-fixtures.json");
        let witness = tx_effect_membership_witness(&Sequential, body, "1", Some(3), Some("azip-26"))
            .expect("a witness");
        let subject = SubjectText { kind: "leaf", value: "0x01", categories_hash: None };
        let root = "0x0000000000000000000000000000000000000000000000000000000000000002";
        let error =
            verify_tx_effect_membership_witness(&Sequential, &witness, subject, root, None, Some("azip-26"))
                .expect_err("a leaf the witness does not hold");
        assert_eq!(error.class_name(), "Refuted", "{error}");
        assert!(error.link().is_some_and(|link| !link.is_empty()), "{error}");
        assert!(!error.message().starts_with('{'), "{error}");
    }

    /// A walk's deadline is the walk's default unless given, and a given one is a whole number of
    /// milliseconds from 1 to the longest: `NaN`, a fraction, 0 and one past the longest are refused.
    #[test]
    fn a_walks_deadline_is_within_the_walks_limits() {
        let max = millis(txfx_walk::LIMITS.max_timeout);
        assert_eq!(walk_timeout(None), Ok(millis(txfx_walk::LIMITS.default_timeout)));
        assert_eq!(walk_timeout(Some("1")), Ok(1));
        assert_eq!(walk_timeout(Some(&max.to_string())), Ok(max));
        for bad in ["0", "NaN", "1.5", "-1", "", "Infinity", &(max + 1).to_string()] {
            let error = walk_timeout(Some(bad)).expect_err(bad);
            assert_eq!(class_and_kind(&error), ("OutOfRange".to_owned(), "Argument".to_owned()), "{bad}");
        }
    }

    /// A sibling path reads as the witness reader reads it, and a field element in decimal or
    /// hex comes back in canonical hex (never reduced).
    #[test]
    fn sibling_paths_and_field_text_read_as_the_documents_do() {
        assert_eq!(decode_sibling_path("AAAAAA=="), Ok(Vec::new()));
        let kind = |text: &str| decode_sibling_path(text).map_err(|error| class_and_kind(&error));
        assert_eq!(kind("AAAAAQ=="), Err(("Malformed".to_owned(), "SiblingPath/Length".to_owned())));
        assert_eq!(kind("AAAAAQ="), Err(("Malformed".to_owned(), "NotBase64".to_owned())));
        let forty_two = format!("0x{:064x}", 42);
        assert_eq!(field_hex("x", "42"), Ok(forty_two.clone()));
        assert_eq!(field_hex("x", "0x2a"), Ok(forty_two));
        let modulus = "21888242871839275222246405745257275088548364400416034343698204186575808495617";
        let error = field_hex("x", modulus).expect_err("p");
        assert_eq!(class_and_kind(&error), ("OutOfRange".to_owned(), "NotCanonical".to_owned()));
        assert!(error.message().starts_with("x: "), "{error}");
    }
}
