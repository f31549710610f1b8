//! The AZIP-26 leaf of a tx: seven category hashes, the categories hash, the leaf (SPEC.md §6).
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

use txfx_poseidon::{AsyncHasher, BackendError, DomainSeparator, Fr, HashJob, Hasher};

use crate::blob::TxStartMarker;
use crate::limits::{CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, NUM_TX_EFFECT_CATEGORIES};
use crate::model::TxEffect;

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

/// The preimages `P_0 .. P_5` (SPEC.md §6.1); `P_6` needs the contract-class-log hash, see
/// [`contract_class_log_preimage`].
pub fn category_preimages(effect: &TxEffect) -> [Vec<Fr>; 6] {
    let mut writes = Vec::with_capacity(2 * effect.public_data_writes.len());
    for write in &effect.public_data_writes {
        writes.extend([write.leaf_slot, write.value]);
    }
    let mut private_logs = Vec::with_capacity(effect.private_logs.len() + effect.private_logs_length());
    for log in &effect.private_logs {
        private_logs.push(Fr::from(log.fields.len() as u64));
        private_logs.extend_from_slice(&log.fields);
    }
    let mut public_logs = Vec::with_capacity(effect.public_logs_length());
    for log in &effect.public_logs {
        public_logs.push(Fr::from(log.fields.len() as u64));
        public_logs.push(log.contract_address);
        public_logs.extend_from_slice(&log.fields);
    }
    [
        effect.note_hashes.clone(),
        effect.nullifiers.clone(),
        effect.l2_to_l1_msgs.clone(),
        writes,
        private_logs,
        public_logs,
    ]
}

/// The preimage of the contract-class-log hash: the emitted fields zero-padded to 3023.
pub fn contract_class_log_hash_preimage(fields: &[Fr]) -> Vec<Fr> {
    let mut padded = Vec::with_capacity(CONTRACT_CLASS_LOG_SIZE_IN_FIELDS);
    padded.extend_from_slice(fields);
    padded.resize(CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, Fr::from(0u64));
    padded
}

/// `P_6`: `[address, cclHash]` when the tx has a contract-class log, empty otherwise.
pub fn contract_class_log_preimage(effect: &TxEffect, log_hash: Option<Fr>) -> Vec<Fr> {
    match (effect.contract_class_logs.first(), log_hash) {
        (Some(log), Some(hash)) => vec![log.contract_address, hash],
        _ => Vec::new(),
    }
}

/// The categories-hash preimage `[marker, fee, C_0 .. C_6]`.
pub fn categories_hash_preimage(marker: Fr, transaction_fee: Fr, category_hashes: &[Fr; 7]) -> Vec<Fr> {
    let mut preimage = Vec::with_capacity(2 + NUM_TX_EFFECT_CATEGORIES);
    preimage.extend([marker, transaction_fee]);
    preimage.extend_from_slice(category_hashes);
    preimage
}

/// The leaf from a tx hash and its categories hash (TypeScript `computeTxEffectsTreeLeaf`).
///
/// # Errors
/// [`BackendError`] if the backend fails.
pub fn compute_leaf(hasher: &dyn Hasher, tx_hash: Fr, categories_hash: Fr) -> Result<Fr, BackendError> {
    hasher.hash_with_separator(&[tx_hash, categories_hash], DomainSeparator::TX_EFFECTS_TREE_LEAF)
}

/// Where one effect's pending hashes sit in the current batch.
struct Slots {
    categories: [Option<usize>; NUM_TX_EFFECT_CATEGORIES],
    log_hash: Option<usize>,
}

/// The four-batch plan shared by [`commit_effects`] and [`commit_effects_async`].
struct CommitPlan<'a> {
    effects: &'a [TxEffect],
    stage: usize,
    slots: Vec<Slots>,
    out: Vec<TxEffectCommitment>,
}

impl<'a> CommitPlan<'a> {
    fn new(effects: &'a [TxEffect]) -> Self {
        let out = effects
            .iter()
            .map(|effect| {
                let marker = TxStartMarker::of(effect);
                TxEffectCommitment {
                    tx_start_marker: marker.encode(),
                    num_blob_fields: marker.num_blob_fields,
                    contract_class_log_hash: None,
                    category_hashes: [Fr::from(0u64); NUM_TX_EFFECT_CATEGORIES],
                    categories_hash: Fr::from(0u64),
                    leaf: Fr::from(0u64),
                }
            })
            .collect();
        Self { effects, stage: 0, slots: Vec::new(), out }
    }

    /// The next batch, or `None` when every commitment is complete.
    fn next_jobs(&mut self) -> Option<Vec<HashJob>> {
        if self.stage > 3 {
            return None;
        }
        let mut jobs = Vec::new();
        self.slots.clear();
        let category = DomainSeparator::TX_EFFECT_CATEGORY_HASH;
        for (effect, done) in self.effects.iter().zip(&self.out) {
            let mut slots = Slots { categories: [None; NUM_TX_EFFECT_CATEGORIES], log_hash: None };
            let mut push = |job: HashJob| {
                jobs.push(job);
                Some(jobs.len() - 1)
            };
            match self.stage {
                0 => {
                    if let Some(log) = effect.contract_class_logs.first() {
                        slots.log_hash = push(HashJob::plain(contract_class_log_hash_preimage(&log.fields)));
                    }
                    for (slot, preimage) in slots.categories.iter_mut().zip(category_preimages(effect)) {
                        if !preimage.is_empty() {
                            *slot = push(HashJob::with_separator(category, preimage));
                        }
                    }
                }
                1 => {
                    let preimage = contract_class_log_preimage(effect, done.contract_class_log_hash);
                    if !preimage.is_empty() {
                        slots.categories[NUM_TX_EFFECT_CATEGORIES - 1] =
                            push(HashJob::with_separator(category, preimage));
                    }
                }
                2 => {
                    let preimage = categories_hash_preimage(
                        done.tx_start_marker,
                        effect.transaction_fee,
                        &done.category_hashes,
                    );
                    push(HashJob::with_separator(DomainSeparator::TX_EFFECT_CATEGORIES_HASH, preimage));
                }
                3 => {
                    push(HashJob::with_separator(
                        DomainSeparator::TX_EFFECTS_TREE_LEAF,
                        vec![effect.tx_hash, done.categories_hash],
                    ));
                }
                _ => {}
            }
            self.slots.push(slots);
        }
        Some(jobs)
    }

    /// Stores a batch's results (`results[i]` for `jobs[i]` of the last [`Self::next_jobs`]).
    fn accept(&mut self, results: &[Fr], backend: &'static str) -> Result<(), BackendError> {
        let expected = match self.stage {
            2 | 3 => self.out.len(),
            _ => self
                .slots
                .iter()
                .map(|s| s.categories.iter().flatten().count() + usize::from(s.log_hash.is_some()))
                .sum(),
        };
        if results.len() != expected {
            return Err(BackendError {
                backend,
                operation: "hash_batch",
                reason: format!("returned {} results for {expected} jobs", results.len()),
            });
        }
        let get = |index: usize| results.get(index).copied().unwrap_or_default();
        for (i, (done, slots)) in self.out.iter_mut().zip(&self.slots).enumerate() {
            match self.stage {
                0 | 1 => {
                    if let Some(index) = slots.log_hash {
                        done.contract_class_log_hash = Some(get(index));
                    }
                    for (hash, slot) in done.category_hashes.iter_mut().zip(slots.categories) {
                        if let Some(index) = slot {
                            *hash = get(index);
                        }
                    }
                }
                2 => done.categories_hash = get(i),
                _ => done.leaf = get(i),
            }
        }
        self.stage += 1;
        Ok(())
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
pub fn commit_effect(hasher: &dyn Hasher, effect: &TxEffect) -> Result<TxEffectCommitment, BackendError> {
    let mut all = commit_effects(hasher, std::slice::from_ref(effect))?;
    all.pop().ok_or(BackendError {
        backend: hasher.name(),
        operation: "commit_effect",
        reason: "no commitment produced".to_owned(),
    })
}

/// Commits many effects in four batches, `result[i]` for `effects[i]`.
///
/// # Errors
/// [`BackendError`] if the backend fails.
pub fn commit_effects(
    hasher: &dyn Hasher,
    effects: &[TxEffect],
) -> Result<Vec<TxEffectCommitment>, BackendError> {
    let mut plan = CommitPlan::new(effects);
    while let Some(jobs) = plan.next_jobs() {
        let results = if jobs.is_empty() { Vec::new() } else { hasher.hash_batch(&jobs)? };
        plan.accept(&results, hasher.name())?;
    }
    Ok(plan.out)
}

/// [`commit_effects`] through the async hasher: every batch goes through
/// [`AsyncHasher::hash_batch_async`], so a backend that offloads keeps long hashes (a
/// contract-class log is 1008 permutations) off the caller's executor thread.
///
/// # Errors
/// [`BackendError`] if the backend fails.
pub async fn commit_effects_async(
    hasher: &dyn AsyncHasher,
    effects: &[TxEffect],
) -> Result<Vec<TxEffectCommitment>, BackendError> {
    let mut plan = CommitPlan::new(effects);
    while let Some(jobs) = plan.next_jobs() {
        let results = if jobs.is_empty() { Vec::new() } else { hasher.hash_batch_async(jobs).await? };
        plan.accept(&results, hasher.backend_name())?;
    }
    Ok(plan.out)
}
