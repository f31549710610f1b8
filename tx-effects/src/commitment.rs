//! The AZIP-26 leaf of a tx: seven category hashes, the categories hash, the leaf (docs/spec.md §6).
//!
//! ```text
//! C_i  = P_i empty ? 0 : H_sep(P_i, TX_EFFECT_CATEGORY_HASH)           i = 0..6
//! CH   = H_sep([marker, fee, C_0 .. C_6], TX_EFFECT_CATEGORIES_HASH)
//! leaf = H_sep([txHash, CH], TX_EFFECTS_TREE_LEAF)
//! ```
//!
//! with `P_6 = [address, H(fields padded to 3023)]` (a plain hash, no separator). Many effects
//! are committed together in four batches: the contract-class-log hashes and categories 0..5,
//! then category 6, then the categories hashes, then the leaves. Each batch is one call to the
//! backend, which may spread it over threads; the sync and async APIs share this plan.

use txfx_poseidon::{BackendError, DomainSeparator, Fr, HashBackend, HashBackendExt, HashJob};

use crate::blob::{Section, TxStartMarker};
use crate::limits::{CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, NUM_TX_EFFECT_CATEGORIES};
use crate::model::{Category, TxEffect};

/// Everything the commitment computes for one tx.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxEffectCommitment {
    /// The tx start marker.
    pub tx_start_marker: Fr,
    /// The blob fields of the tx, marker included.
    pub num_blob_fields: u32,
    /// The hash of the zero-padded contract-class log, if the tx has one.
    pub contract_class_log_hash: Option<Fr>,
    /// `C_0 .. C_6`, zero for an empty category.
    pub category_hashes: [Fr; NUM_TX_EFFECT_CATEGORIES],
    /// `CH`.
    pub categories_hash: Fr,
    /// The tx's leaf in the tx-effects tree.
    pub leaf: Fr,
}

/// The preimage `P_i` of categories 0..5: exactly the category's section of the blob encoding.
/// `P_6` needs the contract-class-log hash, see [`category_job`].
fn category_preimage(effect: &TxEffect, category: Category) -> Vec<Fr> {
    let mut preimage = Vec::new();
    // The marker is not part of any category section; nothing reads it here.
    Section::Category(category).write(effect, Fr::from(0u64), &mut preimage);
    preimage
}

/// The job hashing the contract-class log's fields, zero-padded to 3023 (a plain hash, no
/// separator): the first step of `C_6`, `None` when the tx has no such log.
fn contract_class_log_hash_job(effect: &TxEffect) -> Option<HashJob> {
    let log = effect.contract_class_logs.first()?;
    let mut padded = Vec::with_capacity(CONTRACT_CLASS_LOG_SIZE_IN_FIELDS);
    padded.extend_from_slice(&log.fields);
    padded.resize(CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, Fr::from(0u64));
    Some(HashJob::plain(padded))
}

/// The job of category hash `C_i`, or `None` for an empty category (whose hash is zero). For
/// the contract-class log it needs the log's hash, `log_hash`, from
/// [`contract_class_log_hash_job`]: `P_6 = [address, cclHash]`.
fn category_job(effect: &TxEffect, category: Category, log_hash: Option<Fr>) -> Option<HashJob> {
    let preimage = match category {
        Category::ContractClassLogs => {
            vec![effect.contract_class_logs.first()?.contract_address, log_hash?]
        }
        other => category_preimage(effect, other),
    };
    (!preimage.is_empty())
        .then(|| HashJob::with_separator(DomainSeparator::TX_EFFECT_CATEGORY_HASH, preimage))
}

/// The categories-hash preimage `[marker, fee, C_0 .. C_6]`.
fn categories_hash_preimage(marker: Fr, transaction_fee: Fr, category_hashes: &[Fr; 7]) -> Vec<Fr> {
    let mut preimage = Vec::with_capacity(2 + NUM_TX_EFFECT_CATEGORIES);
    preimage.extend([marker, transaction_fee]);
    preimage.extend_from_slice(category_hashes);
    preimage
}

/// The hash `C_i` of one category of `effect`: zero for an empty category (docs/spec.md §6.2).
///
/// # Errors
/// [`BackendError`] if the backend fails.
pub(crate) fn category_hash(
    hasher: &dyn HashBackend,
    effect: &TxEffect,
    category: Category,
) -> Result<Fr, BackendError> {
    let log_hash = match (category, contract_class_log_hash_job(effect)) {
        (Category::ContractClassLogs, Some(job)) => Some(hasher.hash_one(job)?),
        _ => None,
    };
    match category_job(effect, category, log_hash) {
        Some(job) => hasher.hash_one(job),
        None => Ok(Fr::from(0u64)),
    }
}

/// The categories hash `CH` from a tx's start marker, its fee and its seven category hashes
/// (docs/spec.md §6.3).
///
/// # Errors
/// [`BackendError`] if the backend fails.
pub fn categories_hash(
    hasher: &dyn HashBackend,
    tx_start_marker: Fr,
    transaction_fee: Fr,
    category_hashes: &[Fr; NUM_TX_EFFECT_CATEGORIES],
) -> Result<Fr, BackendError> {
    hasher.hash_with_separator(
        &categories_hash_preimage(tx_start_marker, transaction_fee, category_hashes),
        DomainSeparator::TX_EFFECT_CATEGORIES_HASH,
    )
}

/// The leaf from a tx hash and its categories hash (TypeScript `computeTxEffectsTreeLeaf`).
///
/// # Errors
/// [`BackendError`] if the backend fails.
pub fn compute_leaf(hasher: &dyn HashBackend, tx_hash: Fr, categories_hash: Fr) -> Result<Fr, BackendError> {
    hasher.hash_one(leaf_job(tx_hash, categories_hash))
}

/// The job of a leaf, `H_sep([txHash, CH], TX_EFFECTS_TREE_LEAF)` (docs/spec.md §6.4).
fn leaf_job(tx_hash: Fr, categories_hash: Fr) -> HashJob {
    HashJob::with_separator(DomainSeparator::TX_EFFECTS_TREE_LEAF, vec![tx_hash, categories_hash])
}

/// The four batches of a commitment, in order. Each depends only on the ones before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// The contract-class-log hashes and the category hashes `C_0 .. C_5`.
    LogHashesAndCategories,
    /// `C_6` from the contract-class-log hash.
    ContractClassLogCategory,
    /// The categories hashes.
    CategoriesHashes,
    /// The leaves.
    Leaves,
}

impl Stage {
    const ALL: [Self; 4] =
        [Self::LogHashesAndCategories, Self::ContractClassLogCategory, Self::CategoriesHashes, Self::Leaves];
}

/// Where one job's result goes: which tx, which value of it.
#[derive(Debug, Clone, Copy)]
struct Target {
    tx: usize,
    slot: Slot,
}

/// A value of a [`Partial`] that a job fills.
#[derive(Debug, Clone, Copy)]
enum Slot {
    LogHash,
    Category(usize),
    CategoriesHash,
    Leaf,
}

/// One tx's commitment as the stages fill it in.
struct Partial {
    marker: TxStartMarker,
    marker_field: Fr,
    contract_class_log_hash: Option<Fr>,
    /// Zero is the protocol's hash of an empty category; non-empty ones are filled by stage 1 or 2.
    category_hashes: [Fr; NUM_TX_EFFECT_CATEGORIES],
    categories_hash: Option<Fr>,
    leaf: Option<Fr>,
}

/// The four-batch plan shared by [`commit_effects`] and [`commit_effects_async`].
struct CommitPlan<'a> {
    effects: Vec<&'a TxEffect>,
    partial: Vec<Partial>,
}

impl<'a> CommitPlan<'a> {
    fn new(effects: Vec<&'a TxEffect>) -> Self {
        let partial = effects
            .iter()
            .map(|&effect| {
                let marker = TxStartMarker::of(effect);
                Partial {
                    marker,
                    marker_field: marker.encode(),
                    contract_class_log_hash: None,
                    category_hashes: [Fr::from(0u64); NUM_TX_EFFECT_CATEGORIES],
                    categories_hash: None,
                    leaf: None,
                }
            })
            .collect();
        Self { effects, partial }
    }

    /// The jobs of `stage`, each with where its result goes.
    fn jobs(&self, stage: Stage) -> (Vec<HashJob>, Vec<Target>) {
        let mut jobs = Vec::new();
        let mut targets = Vec::new();
        let mut push = |job: HashJob, target: Target| {
            jobs.push(job);
            targets.push(target);
        };
        for (tx, (&effect, done)) in self.effects.iter().zip(&self.partial).enumerate() {
            match stage {
                Stage::LogHashesAndCategories => {
                    if let Some(job) = contract_class_log_hash_job(effect) {
                        push(job, Target { tx, slot: Slot::LogHash });
                    }
                    for (index, category) in Category::ALL.into_iter().enumerate() {
                        if category == Category::ContractClassLogs {
                            continue;
                        }
                        if let Some(job) = category_job(effect, category, None) {
                            push(job, Target { tx, slot: Slot::Category(index) });
                        }
                    }
                }
                Stage::ContractClassLogCategory => {
                    let category = Category::ContractClassLogs;
                    if let Some(job) = category_job(effect, category, done.contract_class_log_hash) {
                        push(job, Target { tx, slot: Slot::Category(category.index()) });
                    }
                }
                Stage::CategoriesHashes => push(
                    HashJob::with_separator(
                        DomainSeparator::TX_EFFECT_CATEGORIES_HASH,
                        categories_hash_preimage(
                            done.marker_field,
                            effect.transaction_fee,
                            &done.category_hashes,
                        ),
                    ),
                    Target { tx, slot: Slot::CategoriesHash },
                ),
                Stage::Leaves => {
                    if let Some(categories_hash) = done.categories_hash {
                        push(leaf_job(effect.tx_hash, categories_hash), Target { tx, slot: Slot::Leaf });
                    }
                }
            }
        }
        (jobs, targets)
    }

    /// Stores a batch's results, which the caller has checked to be one per target.
    #[allow(clippy::expect_used, reason = "an internal invariant: a lost result must fail loudly")]
    fn accept(&mut self, targets: Vec<Target>, results: Vec<Fr>) {
        for (Target { tx, slot }, value) in targets.into_iter().zip(results) {
            let done = self.partial.get_mut(tx).expect("invariant: targets name txs of this plan");
            match slot {
                Slot::LogHash => done.contract_class_log_hash = Some(value),
                Slot::Category(index) => {
                    *done.category_hashes.get_mut(index).expect("invariant: a category index is below 7") =
                        value;
                }
                Slot::CategoriesHash => done.categories_hash = Some(value),
                Slot::Leaf => done.leaf = Some(value),
            }
        }
    }

    /// The commitments, once every stage has run.
    #[allow(
        clippy::expect_used,
        reason = "an internal invariant: a missing hash must fail loudly, never be zero"
    )]
    fn finish(self) -> Vec<TxEffectCommitment> {
        self.partial
            .into_iter()
            .map(|done| TxEffectCommitment {
                tx_start_marker: done.marker_field,
                num_blob_fields: done.marker.num_blob_fields,
                contract_class_log_hash: done.contract_class_log_hash,
                category_hashes: done.category_hashes,
                categories_hash: done.categories_hash.expect("invariant: the categories-hash stage ran"),
                leaf: done.leaf.expect("invariant: the leaf stage ran"),
            })
            .collect()
    }
}

/// Commits one effect.
///
/// # Errors
/// [`BackendError`] if the backend fails.
///
/// # Example
/// ```
/// use txfx_poseidon::{Sequential, field::fr_to_hex};
/// use txfx_tx_effects::{TxEffect, commit_effect};
/// let commitment = commit_effect(&Sequential, &TxEffect::empty())?;
/// assert_eq!(fr_to_hex(&commitment.leaf), "0x036639112ad40a8f951bfcc348b9906cee3f554dd05d0903c6e32a42d3f15d5a");
/// # Ok::<(), txfx_poseidon::BackendError>(())
/// ```
pub fn commit_effect(
    hasher: &dyn HashBackend,
    effect: &TxEffect,
) -> Result<TxEffectCommitment, BackendError> {
    let mut all = commit_effects(hasher, core::slice::from_ref(effect))?;
    // One commitment per effect is the plan's invariant, not something a backend can break.
    #[allow(clippy::expect_used, reason = "an internal invariant: a missing commitment must fail loudly")]
    let commitment = all.pop().expect("invariant: commit_effects returns one commitment per effect");
    Ok(commitment)
}

/// Commits many effects in four batches, `result[i]` for `effects[i]`.
///
/// # Errors
/// [`BackendError`] if the backend fails.
pub(crate) fn commit_effects<'a>(
    hasher: &dyn HashBackend,
    effects: impl IntoIterator<Item = &'a TxEffect>,
) -> Result<Vec<TxEffectCommitment>, BackendError> {
    let mut plan = CommitPlan::new(effects.into_iter().collect());
    for stage in Stage::ALL {
        let (jobs, targets) = plan.jobs(stage);
        let results = if jobs.is_empty() { Vec::new() } else { hasher.hash_batch_checked(&jobs)? };
        plan.accept(targets, results);
    }
    Ok(plan.finish())
}

#[cfg(feature = "async")]
/// Commits several effects through the async backend: every batch goes through
/// [`txfx_poseidon::AsyncHashBackend::hash_batch_async`], so a backend that offloads keeps long hashes (a
/// contract-class log is 1008 permutations) off the caller's executor thread.
///
/// # Errors
/// [`BackendError`] if the backend fails.
pub async fn commit_effects_async(
    hasher: &dyn txfx_poseidon::AsyncHashBackend,
    effects: &[TxEffect],
) -> Result<Vec<TxEffectCommitment>, BackendError> {
    let mut plan = CommitPlan::new(effects.iter().collect());
    for stage in Stage::ALL {
        let (jobs, targets) = plan.jobs(stage);
        let results = if jobs.is_empty() {
            Vec::new()
        } else {
            let expected = jobs.len();
            txfx_poseidon::check_count(
                hasher.backend_name(),
                txfx_poseidon::Operation::HashBatch,
                expected,
                hasher.hash_batch_async(jobs).await?,
            )?
        };
        plan.accept(targets, results);
    }
    Ok(plan.finish())
}
