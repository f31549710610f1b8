//! Category proofs: one category's data belongs to a tx, without the rest of the tx (the reason
//! AZIP-26 hashes categories separately; docs/spec.md §6 and §12.6).
//!
//! A proof carries the tx hash, the tx start marker, the transaction fee, the seven category
//! hashes and the preimage of the one category proven: exactly that category's section of the
//! tx's blob encoding (note hashes, nullifiers and messages flat; public-data writes as
//! `(slot, value)` pairs; private logs as `(len, fields..)`; public logs as
//! `(len, address, fields..)`; the contract-class log as `(address, emitted fields..)`).
//! Verification
//! 1. reads the marker and checks the preimage's shape against its counts (a proof cannot claim
//!    fewer or more note hashes than the tx has);
//! 2. recomputes the category's hash and compares it with the proof's;
//! 3. recomputes the categories hash from the marker, the fee and the seven hashes, then the leaf;
//! 4. verifies the leaf against a tx-effects witness and a trusted root.
//!
//! At element level ("nullifier X was emitted by tx T in block B") the proof also names the index
//! of X in the preimage.
//!
//! JSON:
//!
//! ```json
//! {"txHash":"0x..","txStartMarker":"0x..","transactionFee":"0x..","categoryHashes":["0x..", 7 of them],
//!  "category":"nullifiers","preimage":["0x..", ...],"element":{"index":0,"value":"0x.."}}
//! ```
//! (`element` only at element level; `category` is the TypeScript name of the category.)

use serde::{Deserialize, Serialize};
use txfx_poseidon::field::{fr_to_be_bytes, fr_to_hex, serde_hex};
use txfx_poseidon::{BackendError, DomainSeparator, Fr, HashBackend, HashBackendExt};
use txfx_tx_effects::blob::{NotAMarker, Section, TxStartMarker};
use txfx_tx_effects::limits::{
    CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, PRIVATE_LOG_SIZE_IN_FIELDS, PUBLIC_LOG_HEADER_LENGTH,
};
use txfx_tx_effects::{Category, TxEffect, commit_effect, compute_leaf};

use crate::witness::{TrustedRoot, TxEffectMembershipWitness, VerifyError, verify_leaf};

/// One element of the preimage, by index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProvenElement {
    /// Its index in the preimage.
    pub index: usize,
    /// Its value.
    #[serde(with = "serde_hex")]
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
    pub category_hashes: [Fr; 7],
    /// The category proven.
    pub category: Category,
    /// Its preimage: the category's blob section.
    pub preimage: Vec<Fr>,
    /// An element of the preimage, for an element-level proof.
    pub element: Option<ProvenElement>,
}

/// Why a category proof cannot be built or does not prove what it claims.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CategoryError {
    /// The proof's JSON is not a proof.
    #[error("malformed category proof: {reason}")]
    Malformed {
        /// What is wrong.
        reason: String,
    },
    /// The marker is not a tx start marker.
    #[error("txStartMarker is not a tx start marker: {}", fr_to_hex(.value))]
    NotAMarker {
        /// The field.
        value: Fr,
    },
    /// The preimage's shape disagrees with the marker's counts.
    #[error("{category}: the preimage does not match the marker: {reason}")]
    Shape {
        /// The category.
        category: Category,
        /// What disagrees.
        reason: String,
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
    /// The element is not at its index in the preimage.
    #[error("element {index} is not {} in the preimage", fr_to_hex(.value))]
    ElementMismatch {
        /// The claimed index.
        index: usize,
        /// The claimed value.
        value: Fr,
    },
    /// The value asked for is not in the category.
    #[error("{} is not in {category} of the tx", fr_to_hex(.value))]
    NotInCategory {
        /// The category.
        category: Category,
        /// The value.
        value: Fr,
    },
    /// The witness carries another categories hash than the proof gives.
    #[error("the witness's categories hash {} is not the proof's {}", fr_to_hex(.in_witness), fr_to_hex(.computed))]
    CategoriesHashMismatch {
        /// In the witness.
        in_witness: Fr,
        /// From the proof.
        computed: Fr,
    },
    /// The leaf does not verify against the tx-effects witness and root.
    #[error("the leaf: {0}")]
    Leaf(#[from] VerifyError),
    /// The hashing backend failed.
    #[error(transparent)]
    Backend(#[from] BackendError),
}

/// The category with this TypeScript name (`noteHashes`, `nullifiers`, ...).
pub fn category_from_name(name: &str) -> Option<Category> {
    Category::ALL.into_iter().find(|category| category.name() == name)
}

/// The proof's hash of its own category.
fn claimed_hash(proof: &CategoryProof) -> Fr {
    let [c0, c1, c2, c3, c4, c5, c6] = proof.category_hashes;
    match proof.category {
        Category::NoteHashes => c0,
        Category::Nullifiers => c1,
        Category::L2ToL1Msgs => c2,
        Category::PublicDataWrites => c3,
        Category::PrivateLogs => c4,
        Category::PublicLogs => c5,
        Category::ContractClassLogs => c6,
    }
}

/// The proof that `category` of `effect` is what it is; with `element`, also that this value is
/// in it (at its first occurrence).
///
/// # Errors
/// [`CategoryError::NotInCategory`] for an element the category does not hold,
/// [`CategoryError::Backend`].
pub fn prove_category(
    hasher: &dyn HashBackend,
    effect: &TxEffect,
    category: Category,
    element: Option<Fr>,
) -> Result<CategoryProof, CategoryError> {
    let commitment = commit_effect(hasher, effect)?;
    let mut preimage = Vec::new();
    Section::Category(category).write(effect, commitment.tx_start_marker, &mut preimage);
    let element = element
        .map(|value| {
            preimage
                .iter()
                .position(|field| *field == value)
                .map(|index| ProvenElement { index, value })
                .ok_or(CategoryError::NotInCategory { category, value })
        })
        .transpose()?;
    Ok(CategoryProof {
        tx_hash: effect.tx_hash,
        tx_start_marker: commitment.tx_start_marker,
        transaction_fee: effect.transaction_fee,
        category_hashes: commitment.category_hashes,
        category,
        preimage,
        element,
    })
}

/// Checks a preimage's shape against the marker's counts.
fn check_shape(category: Category, marker: &TxStartMarker, preimage: &[Fr]) -> Result<(), CategoryError> {
    let shape = |reason: String| CategoryError::Shape { category, reason };
    let expected = Section::Category(category).len(marker);
    if preimage.len() != expected {
        return Err(shape(format!("{} fields, the marker's counts give {expected}", preimage.len())));
    }
    // A length field: an integer no larger than `max`.
    let length = |field: &Fr, max: usize| -> Option<usize> {
        let bytes = fr_to_be_bytes(field);
        let (high, low) = bytes.split_at(24);
        let value = low.iter().fold(0u64, |acc, b| (acc << 8) | u64::from(*b));
        usize::try_from(value).ok().filter(|value| high.iter().all(|b| *b == 0) && *value <= max)
    };
    match category {
        Category::PrivateLogs => {
            let (mut rest, mut logs) = (preimage, 0usize);
            while let Some((first, tail)) = rest.split_first() {
                let after = length(first, PRIVATE_LOG_SIZE_IN_FIELDS)
                    .filter(|len| *len >= 1)
                    .and_then(|len| tail.split_at_checked(len))
                    .ok_or_else(|| shape(format!("private log {logs} has no valid length field")))?;
                rest = after.1;
                logs += 1;
            }
            if logs != usize::from(marker.num_private_logs) {
                return Err(shape(format!(
                    "{logs} private logs, the marker says {}",
                    marker.num_private_logs
                )));
            }
        }
        Category::PublicLogs => {
            let (mut rest, mut logs) = (preimage, 0usize);
            // Each log is its length, its contract address, then its fields.
            while let Some(header) = rest.get(..PUBLIC_LOG_HEADER_LENGTH) {
                let after = header
                    .first()
                    .and_then(|first| length(first, rest.len() - PUBLIC_LOG_HEADER_LENGTH))
                    .and_then(|len| {
                        rest.get(PUBLIC_LOG_HEADER_LENGTH..).and_then(|tail| tail.split_at_checked(len))
                    })
                    .ok_or_else(|| shape(format!("public log {logs} has no valid length field")))?;
                rest = after.1;
                logs += 1;
            }
            if !rest.is_empty() {
                return Err(shape(format!("{} fields after public log {logs} are no log", rest.len())));
            }
        }
        _ => {}
    }
    Ok(())
}

/// The category's hash from its preimage (0 for an empty one).
fn category_hash(hasher: &dyn HashBackend, category: Category, preimage: &[Fr]) -> Result<Fr, BackendError> {
    if preimage.is_empty() {
        return Ok(Fr::from(0u64));
    }
    let hashed =
        if let (Category::ContractClassLogs, Some((address, fields))) = (category, preimage.split_first()) {
            let mut padded = fields.to_vec();
            padded.resize(CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, Fr::from(0u64));
            vec![*address, hasher.hash(&padded)?]
        } else {
            preimage.to_vec()
        };
    hasher.hash_with_separator(&hashed, DomainSeparator::TX_EFFECT_CATEGORY_HASH)
}

/// The leaf a proof gives, after checking its shape, its category hash and its element.
///
/// # Errors
/// [`CategoryError`] for a bad marker, a preimage whose shape or hash disagrees, or an element
/// not at its index.
pub fn category_proof_leaf(
    hasher: &dyn HashBackend,
    proof: &CategoryProof,
) -> Result<(Fr, Fr), CategoryError> {
    let marker = TxStartMarker::decode(&proof.tx_start_marker)
        .map_err(|NotAMarker { value }| CategoryError::NotAMarker { value })?;
    check_shape(proof.category, &marker, &proof.preimage)?;
    if let Some(element) = proof.element.filter(|e| proof.preimage.get(e.index) != Some(&e.value)) {
        return Err(CategoryError::ElementMismatch { index: element.index, value: element.value });
    }
    let claimed = claimed_hash(proof);
    let computed = category_hash(hasher, proof.category, &proof.preimage)?;
    if computed != claimed {
        return Err(CategoryError::CategoryHashMismatch { category: proof.category, computed, claimed });
    }
    let mut preimage = vec![proof.tx_start_marker, proof.transaction_fee];
    preimage.extend_from_slice(&proof.category_hashes);
    let categories_hash =
        hasher.hash_with_separator(&preimage, DomainSeparator::TX_EFFECT_CATEGORIES_HASH)?;
    Ok((compute_leaf(hasher, proof.tx_hash, categories_hash)?, categories_hash))
}

/// Verifies a category proof up to a trusted tx-effects root.
///
/// # Errors
/// [`CategoryError`] naming what failed: the proof itself ([`category_proof_leaf`]), a witness
/// whose categories hash is another, or the leaf against the witness and root.
pub fn verify_category_proof(
    hasher: &dyn HashBackend,
    proof: &CategoryProof,
    witness: &TxEffectMembershipWitness,
    root: TrustedRoot,
) -> Result<(), CategoryError> {
    let (leaf, categories_hash) = category_proof_leaf(hasher, proof)?;
    if let Some(in_witness) = witness.categories_hash.filter(|in_witness| *in_witness != categories_hash) {
        return Err(CategoryError::CategoriesHashMismatch { in_witness, computed: categories_hash });
    }
    verify_leaf(hasher, leaf, witness, root)?;
    Ok(())
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ProofJson {
    #[serde(with = "serde_hex")]
    tx_hash: Fr,
    #[serde(with = "serde_hex")]
    tx_start_marker: Fr,
    #[serde(with = "serde_hex")]
    transaction_fee: Fr,
    #[serde(with = "serde_hex::vec")]
    category_hashes: Vec<Fr>,
    category: String,
    #[serde(with = "serde_hex::vec")]
    preimage: Vec<Fr>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    element: Option<ProvenElement>,
}

impl CategoryProof {
    /// The proof as JSON (module docs).
    #[allow(clippy::expect_used, reason = "an internal invariant: a failure must be loud, never JSON null")]
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(ProofJson {
            tx_hash: self.tx_hash,
            tx_start_marker: self.tx_start_marker,
            transaction_fee: self.transaction_fee,
            category_hashes: self.category_hashes.to_vec(),
            category: self.category.name().to_owned(),
            preimage: self.preimage.clone(),
            element: self.element,
        })
        .expect("invariant: a proof always converts to JSON")
    }

    /// Parses a proof.
    ///
    /// # Errors
    /// [`CategoryError::Malformed`] for JSON that is not a proof (an unknown category, not seven
    /// category hashes, a preimage longer than any tx's blob).
    pub fn from_json(text: &str) -> Result<Self, CategoryError> {
        let malformed = |reason: String| CategoryError::Malformed { reason };
        let json: ProofJson = serde_json::from_str(text).map_err(|e| malformed(e.to_string()))?;
        let category = category_from_name(&json.category)
            .ok_or_else(|| malformed(format!("unknown category {:?}", json.category)))?;
        let category_hashes: [Fr; 7] = json
            .category_hashes
            .try_into()
            .map_err(|hashes: Vec<Fr>| malformed(format!("{} category hashes, a tx has 7", hashes.len())))?;
        Ok(Self {
            tx_hash: json.tx_hash,
            tx_start_marker: json.tx_start_marker,
            transaction_fee: json.transaction_fee,
            category_hashes,
            category,
            preimage: json.preimage,
            element: json.element,
        })
    }
}
