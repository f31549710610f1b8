//! Block documents: bodies, headers, and the `L2Block`, `BlockResponse` and `BlockData` around
//! them, every claim a block makes about itself checked (but, for [`body_unchecked`], its body
//! against its header's root, which the caller's commitment checks).

use txfx_membership::{BlockHeader, ProtocolVersion, TreeSnapshot};
use txfx_poseidon::{Fr, HashBackend};
use txfx_tx_effects::{BlockNumber, Body, commit_block};

use crate::error::{Doc, DocumentError, Problem};
use crate::json::node_answer::{check_attestations, check_l1_publish_info};
use crate::json::wire::{Integer, MAX_SAFE_INTEGER, Raw};
use crate::json::{JsonError, hex_field};
use crate::json::{effect::read_body, header::read_block_number, header::read_header, header::read_snapshot};

use super::shape::{BLOCK_DATA, BLOCK_HEADER, BLOCK_RESPONSE, BODY, L2_BLOCK, Shape, shape_of, unwrap_rpc};

/// The kinds of block document: each a shape of [`super`]'s table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum BlockKind {
    /// TypeScript's `L2Block`.
    L2Block,
    /// v6's `BlockResponse`.
    BlockResponse,
    /// v6's `BlockData` (no body).
    BlockData,
}

impl BlockKind {
    /// The kind's name in messages (`an L2Block`, `a block response`, `block data`).
    pub fn name(self) -> &'static str {
        self.shape().name
    }

    fn shape(self) -> Shape {
        match self {
            Self::L2Block => L2_BLOCK,
            Self::BlockResponse => BLOCK_RESPONSE,
            Self::BlockData => BLOCK_DATA,
        }
    }

    /// The kind a block shape is: `None` for a shape that is not a block's.
    fn of(shape: Shape) -> Option<Self> {
        [Self::L2Block, Self::BlockResponse, Self::BlockData].into_iter().find(|kind| kind.shape() == shape)
    }
}

/// What a block document says beside its body: an `L2Block`, a `BlockResponse` or a `BlockData`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct BlockParts {
    /// The kind of block document it came in.
    pub kind: BlockKind,
    /// Its header.
    pub header: BlockHeader,
    /// The archive after it.
    pub archive: TreeSnapshot,
    /// Its checkpoint's number.
    pub checkpoint_number: u64,
    /// Its index within the checkpoint.
    pub index_within_checkpoint: u64,
    /// The block hash it claims (`hash`, `blockHash`), checked to be its header's.
    pub hash: Option<Fr>,
}

/// A body document: the body, and the rest of it when it is a block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyDocument {
    /// The body.
    pub body: Body,
    /// The block around it, if the document is one.
    pub block: Option<BlockParts>,
}

impl BodyDocument {
    /// The block number the document gives (a block's header's), if any.
    pub fn block_number(&self) -> Option<BlockNumber> {
        self.block.as_ref().map(|block| block.header.global_variables.block_number)
    }
}

/// A checkpoint number or an index within one: TypeScript's `CheckpointNumberSchema` and
/// `schemas.Integer` coerce to a JavaScript number.
const NUMBER: Integer = Integer::lenient(MAX_SAFE_INTEGER as u128);

/// Reads a block document's parts (an `L2Block`, a `BlockResponse` or a `BlockData`), its header
/// in `protocol`'s layout, and its body if it has one; every claim it makes about itself is
/// checked (module docs).
fn block(
    hasher: &dyn HashBackend,
    raw: Raw<'_>,
    kind: BlockKind,
    protocol: ProtocolVersion,
) -> Result<(BlockParts, Option<Body>), Problem> {
    let (parts, body) = block_but_body(hasher, raw, kind, protocol)?;
    if let Some(body) = &body {
        check_block_body(hasher, &parts.header, body)?;
    }
    Ok((parts, body))
}

/// [`block`] but for its last check, the body against its header's root (the one that commits
/// the body).
fn block_but_body(
    hasher: &dyn HashBackend,
    raw: Raw<'_>,
    kind: BlockKind,
    protocol: ProtocolVersion,
) -> Result<(BlockParts, Option<Body>), Problem> {
    let shape = kind.shape();
    let object = raw.object(shape.name, shape.keys)?;
    let header = object.read("header", |raw| read_header(raw, protocol))?;
    let body = match kind {
        BlockKind::BlockData => None,
        // TypeScript's L2Block holds a Body: `{"txEffects": [...]}`, never a bare array.
        _ => object.read_optional("body", |raw| crate::json::effect::read_body_object(raw, protocol))?,
    };
    if kind == BlockKind::L2Block && body.is_none() {
        object.require("body")?;
    }
    let number = |key: &'static str| object.read(key, |r| r.u64(NUMBER).map_err(JsonError::from));
    let hash_key = match kind {
        BlockKind::BlockResponse => Some("hash"),
        BlockKind::BlockData => Some("blockHash"),
        BlockKind::L2Block => None,
    };
    let hash = hash_key.map(|key| object.read(key, hex_field)).transpose()?;
    if kind == BlockKind::BlockResponse {
        // Not kept, but read as v6 reads them: a block response v6 refuses is refused.
        object.read_optional("l1", check_l1_publish_info)?;
        object.read_optional("attestations", check_attestations)?;
    }
    let parts = BlockParts {
        kind,
        header,
        archive: object.read("archive", |raw| read_snapshot(raw, protocol))?,
        checkpoint_number: number("checkpointNumber")?,
        index_within_checkpoint: number("indexWithinCheckpoint")?,
        hash,
    };
    let block_number = parts.header.global_variables.block_number;
    if kind == BlockKind::BlockResponse {
        let claimed = object.read("number", read_block_number)?;
        if claimed != block_number {
            return Err(Problem::contradicts(
                "the block response's number",
                claimed,
                "its header's blockNumber",
                block_number,
                "header",
            ));
        }
    }
    if let (Some(claimed), Some(key)) = (hash, hash_key) {
        let computed = parts.header.hash(hasher)?;
        if claimed != computed {
            let what = if key == "hash" { "the block response's hash" } else { "the block data's blockHash" };
            return Err(Problem::contradicts(what, claimed, "its header's hash", computed, "header"));
        }
    }
    // The archive after a block holds it and every block before: block n is leaf n.
    if protocol == ProtocolVersion::V6
        && parts.archive.next_available_leaf_index != u64::from(block_number) + 1
    {
        return Err(Problem::contradicts(
            "the archive's nextAvailableLeafIndex",
            crate::error::Claim::Number(parts.archive.next_available_leaf_index),
            "one past its header's blockNumber",
            crate::error::Claim::Number(u64::from(block_number) + 1),
            "header",
        ));
    }
    Ok((parts, body))
}

/// Checks that a block's body is the one its header commits to, where the header commits to
/// one (and commits the body only then).
fn check_block_body(hasher: &dyn HashBackend, header: &BlockHeader, body: &Body) -> Result<(), Problem> {
    match header.tx_effects_tree_root {
        Some(_) => check_body_root(header, commit_block(hasher, body)?.root()),
        None => Ok(()),
    }
}

/// Checks that `computed`, a block's body's root, is the one its header commits to, where the
/// header commits to one.
fn check_body_root(header: &BlockHeader, computed: Fr) -> Result<(), Problem> {
    match header.tx_effects_tree_root {
        Some(root) if root != computed => Err(Problem::BodyNotInHeader { header: root, body: computed }),
        _ => Ok(()),
    }
}

/// Reads a body document (module docs) under `protocol`'s rules; a block's body is checked
/// against its header's `txEffectsTreeRoot`, and its other claims against its header.
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn body(
    hasher: &dyn HashBackend,
    doc: Doc<'_>,
    protocol: ProtocolVersion,
) -> Result<BodyDocument, DocumentError> {
    doc.read(|raw| {
        let document = body_but_root(hasher, raw, protocol).map_err(|problem| problem.expecting("a body"))?;
        if let Some(block) = &document.block {
            check_block_body(hasher, &block.header, &document.body)?;
        }
        Ok(document)
    })
}

/// A body document read but for one check: that a block's body is the one its header's
/// `txEffectsTreeRoot` commits to, which needs the body's commitment. A caller that commits the
/// body anyway, and many bodies together, gets it from [`body_unchecked`] and ends the reading with
/// [`crate::ops::bodies_commitments`], which makes the check on the commitment it computes;
/// until then the document is not given out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UncheckedBody {
    /// The document, its body not yet checked against its header.
    document: BodyDocument,
    /// The document's name, for the check's error.
    name: String,
}

impl UncheckedBody {
    /// The body, to commit.
    pub fn body(&self) -> &Body {
        &self.document.body
    }

    /// The block the body came in (a block response or an `L2Block`), its claims and header
    /// checked, for a reader that must look at the block (its number, its place in its
    /// checkpoint) before committing the body; `None` for a bare body.
    pub fn block_parts(&self) -> Option<&BlockParts> {
        self.document.block.as_ref()
    }

    /// Ends the reading with `root`, the body's root computed from [`Self::body`]: the document,
    /// or the error [`body`] gives when the body is not the one its header commits to.
    pub(crate) fn check(&self, root: Fr) -> Result<&BodyDocument, DocumentError> {
        if let Some(block) = &self.document.block {
            check_body_root(&block.header, root).map_err(|problem| DocumentError {
                document: Some(self.name.clone()),
                problem: Box::new(problem),
            })?;
        }
        Ok(&self.document)
    }

    /// The document before its check, for claims read from it that do not depend on the check
    /// (the block number); never given out of the crate.
    pub(crate) fn pending(&self) -> &BodyDocument {
        &self.document
    }

    /// [`Self::check`], keeping the document: for a caller that commits one body.
    pub(crate) fn into_checked(self, root: Fr) -> Result<BodyDocument, DocumentError> {
        self.check(root)?;
        Ok(self.document)
    }
}

/// [`body`] without its check of a block's body against its header's root (which [`UncheckedBody`]
/// leaves to the caller's commitment): every other check is made, with the same errors.
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn body_unchecked(
    hasher: &dyn HashBackend,
    doc: Doc<'_>,
    protocol: ProtocolVersion,
) -> Result<UncheckedBody, DocumentError> {
    let document =
        doc.read(|raw| body_but_root(hasher, raw, protocol).map_err(|problem| problem.expecting("a body")))?;
    Ok(UncheckedBody { document, name: doc.name.to_owned() })
}

/// [`body`]'s reading, all but the check of a block's body against its header's root.
fn body_but_root(
    hasher: &dyn HashBackend,
    raw: Raw<'_>,
    protocol: ProtocolVersion,
) -> Result<BodyDocument, Problem> {
    let raw = unwrap_rpc(raw, protocol)?;
    match shape_of(raw, protocol, &[BODY, BLOCK_RESPONSE, L2_BLOCK], "a body")?.and_then(BlockKind::of) {
        Some(kind) => {
            let (parts, body) = block_but_body(hasher, raw, kind, protocol)?;
            let body = body.ok_or(Problem::BlockWithoutBody)?;
            Ok(BodyDocument { body, block: Some(parts) })
        }
        None => Ok(BodyDocument { body: read_body(raw, protocol)?, block: None }),
    }
}

/// A header document: the header, and the block around it when the document is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderDocument {
    /// The header.
    pub header: BlockHeader,
    /// The block the header came in (its claims checked, its body checked against the header
    /// where it has one), if the document is one.
    pub block: Option<BlockParts>,
}

/// Reads a header document in `protocol`'s layout (module docs); a block's claims and body are
/// checked against its header.
///
/// # Errors
/// [`DocumentError`] naming the document and what is wrong.
pub fn header(
    hasher: &dyn HashBackend,
    doc: Doc<'_>,
    protocol: ProtocolVersion,
) -> Result<HeaderDocument, DocumentError> {
    doc.read(|raw| {
        header_problem(hasher, raw, protocol).map_err(|problem| problem.expecting("a block header"))
    })
}

fn header_problem(
    hasher: &dyn HashBackend,
    raw: Raw<'_>,
    protocol: ProtocolVersion,
) -> Result<HeaderDocument, Problem> {
    let raw = unwrap_rpc(raw, protocol)?;
    let accepted = [BLOCK_HEADER, BLOCK_RESPONSE, BLOCK_DATA, L2_BLOCK];
    match shape_of(raw, protocol, &accepted, "a block header")?.and_then(BlockKind::of) {
        Some(kind) => {
            let (parts, _) = block(hasher, raw, kind, protocol)?;
            Ok(HeaderDocument { header: parts.header, block: Some(parts) })
        }
        None => Ok(HeaderDocument { header: read_header(raw, protocol)?, block: None }),
    }
}
