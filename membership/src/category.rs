//! Category proofs: one category's data belongs to a tx, without the rest of the tx (the reason
//! AZIP-26 hashes categories separately; docs/spec.md §6 and §12.6).
//!
//! A proof carries the tx hash, the tx start marker, the transaction fee, the seven category
//! hashes and the preimage of the one category proven: exactly that category's section of the
//! tx's blob encoding ([`txfx_tx_effects::category`] owns the sections, their framing, the roles
//! of their elements and their hashes; nothing here re-implements them). Verification
//! 1. decodes the marker and checks it against the protocol's limits, then reads the preimage no
//!    further than the length the marker gives, so no work is done for a count no tx has;
//! 2. reads the section back under the marker's framing (a proof cannot claim fewer or more
//!    note hashes, or other log lengths, than the tx has);
//! 3. at element level, finds the element at the place the proof names (its role, its item, its
//!    field): a log's length field is never an element, and a log's address or a write's leaf
//!    slot is one only under its own role;
//! 4. recomputes the category's hash and compares it with the proof's, then the categories hash
//!    from the marker, the fee and the seven hashes, then the leaf;
//! 5. verifies the leaf against a tx-effects witness and a trusted root.
//!
//! A proof's JSON is `txfx-documents`' (`json::category_proof_from_json`), which reads the marker
//! and checks it before it reads the preimage.

use txfx_poseidon::field::fr_to_hex;
use txfx_poseidon::{BackendError, Fr, HashBackend};
use txfx_tx_effects::blob::{TxBlobError, TxStartMarker};
use txfx_tx_effects::category::{CategorySection, ElementPlace, ElementRole};
use txfx_tx_effects::commitment::categories_hash;
use txfx_tx_effects::limits::NUM_TX_EFFECT_CATEGORIES;
use txfx_tx_effects::{Category, TxEffect, commit_effect};

use crate::witness::{TrustedRoot, TxClaim, TxEffectMembershipWitness, TxMembership, VerifyError, verify_tx};

/// One element of the proven category, at its place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProvenElement {
    /// Where it is: its role, item and field.
    pub place: ElementPlace,
    /// Its value.
    pub value: Fr,
}

/// A category proof (module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CategoryProof {
    /// The tx hash.
    pub tx_hash: Fr,
    /// The tx start marker, as a field.
    pub tx_start_marker: Fr,
    /// The transaction fee.
    pub transaction_fee: Fr,
    /// `C_0 .. C_6`.
    pub category_hashes: [Fr; NUM_TX_EFFECT_CATEGORIES],
    /// The category proven.
    pub category: Category,
    /// Its preimage: the category's blob section.
    pub preimage: Vec<Fr>,
    /// An element of the category, for an element-level proof.
    pub element: Option<ProvenElement>,
}

/// What a verified category proof proves: the tx (as a tx-effects witness proves it), that its
/// category `category` hashes to `category_hash`, and, at element level, that `element.value`
/// is at `element.place` in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CategoryMembership {
    /// The tx, its leaf and where the leaf is.
    pub tx: TxMembership,
    /// The category proven.
    pub category: Category,
    /// Its hash.
    pub category_hash: Fr,
    /// The element proven, at element level.
    pub element: Option<ProvenElement>,
}

/// Which element to prove: a value, searched among the category's data roles, or among one
/// role's places when `role` is named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ElementQuery {
    /// The value.
    pub value: Fr,
    /// The role to search; `None` for the category's data roles (never a length field, a log's
    /// address or a write's leaf slot).
    pub role: Option<ElementRole>,
}

/// Why a category proof cannot be built or does not prove what it claims.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CategoryError {
    /// The marker is not a tx start marker.
    #[error("txStartMarker is not a tx start marker: {}", fr_to_hex(.value))]
    NotAMarker {
        /// The field.
        value: Fr,
    },
    /// The preimage is not the category's section under the marker: a marker over the
    /// protocol's limits, another length, or a framing that does not hold.
    #[error("{category}: the preimage is not the section the marker frames: {source}")]
    Section {
        /// The category.
        category: Category,
        /// What does not hold (offsets count from the tx's marker).
        source: TxBlobError,
    },
    /// The preimage hashes to another category hash than the proof's.
    #[error("{category}: the preimage hashes to {}, the proof says {}", fr_to_hex(.computed), fr_to_hex(.claimed))]
    CategoryHashMismatch {
        /// The category.
        category: Category,
        /// From the preimage.
        computed: Fr,
        /// In the proof.
        claimed: Fr,
    },
    /// The element's role belongs to another category than the proof's.
    #[error("element role {role} belongs to {}, the proof is of {category}", .role.category())]
    RoleOfAnotherCategory {
        /// The element's role.
        role: ElementRole,
        /// The proof's category.
        category: Category,
    },
    /// The element is not at its place in the category.
    #[error("{place} is not {} in the category", fr_to_hex(.value))]
    ElementMismatch {
        /// The claimed place.
        place: ElementPlace,
        /// The claimed value.
        value: Fr,
    },
    /// The value asked for is at no place of the roles searched.
    #[error("{} is not {} in {category} of the tx", fr_to_hex(.value), .role.map_or("data".to_owned(), |role| format!("a {role}")))]
    NotInCategory {
        /// The category.
        category: Category,
        /// The value.
        value: Fr,
        /// The role searched, or `None` for the data roles.
        role: Option<ElementRole>,
    },
    /// The tx, rebuilt from the proof, does not verify against the witness and root (its
    /// categories hash disagrees with the witness's, or its leaf is not under the root).
    #[error("the leaf: {0}")]
    Leaf(#[from] VerifyError),
    /// The hashing backend failed.
    #[error(transparent)]
    Backend(#[from] BackendError),
}

impl CategoryError {
    /// The hashing failure behind the error, if it is one.
    pub fn backend(&self) -> Option<&BackendError> {
        match self {
            Self::Backend(error) => Some(error),
            Self::Leaf(error) => error.backend(),
            Self::NotAMarker { .. }
            | Self::Section { .. }
            | Self::CategoryHashMismatch { .. }
            | Self::RoleOfAnotherCategory { .. }
            | Self::ElementMismatch { .. }
            | Self::NotInCategory { .. } => None,
        }
    }
}

/// The proof that `category` of `effect` is what it is; with `element`, also that this value is
/// in it, at the first place of the roles searched.
///
/// # Errors
/// [`CategoryError::NotInCategory`] for a value at no such place, [`CategoryError::RoleOfAnotherCategory`]
/// for a role of another category, [`CategoryError::Backend`].
pub fn prove_category(
    hasher: &dyn HashBackend,
    effect: &TxEffect,
    category: Category,
    element: Option<ElementQuery>,
) -> Result<CategoryProof, CategoryError> {
    if let Some(role) = element.and_then(|query| query.role).filter(|role| role.category() != category) {
        return Err(CategoryError::RoleOfAnotherCategory { role, category });
    }
    let section = CategorySection::of(effect, category);
    let element = element
        .map(|ElementQuery { value, role }| {
            section
                .find(value, role)
                .map(|place| ProvenElement { place, value })
                .ok_or(CategoryError::NotInCategory { category, value, role })
        })
        .transpose()?;
    let commitment = commit_effect(hasher, effect)?;
    Ok(CategoryProof {
        tx_hash: effect.tx_hash,
        tx_start_marker: commitment.tx_start_marker,
        transaction_fee: effect.transaction_fee,
        category_hashes: commitment.category_hashes,
        category,
        preimage: section.fields(),
        element,
    })
}

/// Checks a proof up to its leaf: the marker, the section, the element and the category hash.
/// Returns the categories hash and the category hash.
fn check_proof(hasher: &dyn HashBackend, proof: &CategoryProof) -> Result<(Fr, Fr), CategoryError> {
    let category = proof.category;
    let marker = TxStartMarker::decode(&proof.tx_start_marker)
        .map_err(|_| CategoryError::NotAMarker { value: proof.tx_start_marker })?;
    let section = CategorySection::decode(category, marker, &proof.preimage)
        .map_err(|source| CategoryError::Section { category, source })?;
    if let Some(ProvenElement { place, value }) = proof.element {
        if place.role.category() != category {
            return Err(CategoryError::RoleOfAnotherCategory { role: place.role, category });
        }
        if section.element(place) != Some(value) {
            return Err(CategoryError::ElementMismatch { place, value });
        }
    }
    let claimed = proof.category_hashes.get(category.index()).copied().unwrap_or_default();
    let computed = section.hash(hasher)?;
    if computed != claimed {
        return Err(CategoryError::CategoryHashMismatch { category, computed, claimed });
    }
    let categories_hash =
        categories_hash(hasher, proof.tx_start_marker, proof.transaction_fee, &proof.category_hashes)?;
    Ok((categories_hash, computed))
}

/// Verifies a category proof up to a trusted tx-effects root, and returns what it proves.
///
/// # Errors
/// [`CategoryError`] naming what failed: the proof itself, a witness whose categories hash is
/// another, or the leaf against the witness and root.
pub fn verify_category_proof(
    hasher: &dyn HashBackend,
    proof: &CategoryProof,
    witness: &TxEffectMembershipWitness,
    root: TrustedRoot,
) -> Result<CategoryMembership, CategoryError> {
    let (categories_hash, category_hash) = check_proof(hasher, proof)?;
    let claim = TxClaim { tx_hash: proof.tx_hash, categories_hash: Some(categories_hash) };
    let tx = verify_tx(hasher, claim, witness, root)?;
    Ok(CategoryMembership { tx, category: proof.category, category_hash, element: proof.element })
}
