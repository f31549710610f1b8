//! The hasher traits every backend implements and every commitment routine takes.
//!
//! [`Hasher`] is synchronous and batch-grained: one call hashes a whole tree level
//! ([`Hasher::hash_nodes`]) or a whole set of independent preimages ([`Hasher::hash_batch`]), so a
//! backend with a costly boundary (WASM, another thread pool) crosses it once per batch.
//!
//! [`AsyncHasher`] has the same operations for async callers, at the same grain (never one boxed
//! future per 2-to-1 hash), plus [`AsyncHasher::sync_fast_path`]: internal tree nodes are small and
//! frequent, so async callers hash them synchronously when the backend allows it, as Aztec's
//! TypeScript reference does. Every `Hasher` is an `AsyncHasher` through a blanket impl; a backend
//! that can run work elsewhere says so with [`Hasher::offload`], and the blanket impl then runs
//! each batch there and awaits it through a `futures` oneshot channel, so a long hash never runs
//! on the caller's executor thread.

use ark_bn254::Fr;
use async_trait::async_trait;

use crate::permutation::{State, permute_many};
use crate::separator::DomainSeparator;
use crate::sponge::{pair_state, poseidon2_hash, poseidon2_hash_with_separator};

/// One independent hash in a batch: `poseidon2_hash` when `separator` is `None`, otherwise
/// `poseidon2_hash_with_separator`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HashJob {
    /// The domain separator, or `None` for a plain sponge hash.
    pub separator: Option<DomainSeparator>,
    /// The preimage.
    pub inputs: Vec<Fr>,
}

impl HashJob {
    /// A separator-hash job.
    pub fn with_separator(separator: DomainSeparator, inputs: Vec<Fr>) -> Self {
        Self { separator: Some(separator), inputs }
    }

    /// A plain-hash job.
    pub fn plain(inputs: Vec<Fr>) -> Self {
        Self { separator: None, inputs }
    }

    /// Permutations this job costs: `ceil(len / 3)`, at least one.
    pub fn permutations(&self) -> usize {
        (self.inputs.len() + usize::from(self.separator.is_some())).div_ceil(3).max(1)
    }

    /// Hashes this job with the crate's own sequential Poseidon2.
    pub fn run(&self) -> Fr {
        match self.separator {
            Some(separator) => poseidon2_hash_with_separator(&self.inputs, separator),
            None => poseidon2_hash(&self.inputs),
        }
    }
}

/// A backend failed to compute a hash (it never fails for a well-formed input; this reports a
/// broken backend, such as a WASM module that trapped or could not grow its memory).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{backend} backend failed in {operation}: {reason}")]
pub struct BackendError {
    /// The backend's name.
    pub backend: &'static str,
    /// The operation that failed.
    pub operation: &'static str,
    /// What the backend reported.
    pub reason: String,
}

/// Somewhere other than the caller's thread to run a batch (a thread pool).
pub trait Offload: Send + Sync {
    /// Runs `task` soon, on another thread.
    fn spawn(&self, task: Box<dyn FnOnce() + Send + 'static>);
}

/// A synchronous Poseidon2 backend. Every implementation returns bit-identical results.
pub trait Hasher: Send + Sync {
    /// A short name for reports and the suite: `"native"`, `"wasm"`, `"sequential"`.
    fn name(&self) -> &'static str;

    /// Permutes every state in place.
    ///
    /// # Errors
    /// [`BackendError`] if the backend itself fails.
    fn permute_many(&self, states: &mut [State]) -> Result<(), BackendError>;

    /// `poseidon2_hash(inputs)`.
    ///
    /// # Errors
    /// [`BackendError`] if the backend itself fails.
    fn hash(&self, inputs: &[Fr]) -> Result<Fr, BackendError>;

    /// `poseidon2_hash_with_separator(inputs, separator)`.
    ///
    /// # Errors
    /// [`BackendError`] if the backend itself fails.
    fn hash_with_separator(&self, inputs: &[Fr], separator: DomainSeparator) -> Result<Fr, BackendError>;

    /// Hashes independent jobs; `result[i]` is the hash of `jobs[i]`.
    ///
    /// # Errors
    /// [`BackendError`] if the backend itself fails.
    fn hash_batch(&self, jobs: &[HashJob]) -> Result<Vec<Fr>, BackendError> {
        jobs.iter()
            .map(|job| match job.separator {
                Some(separator) => self.hash_with_separator(&job.inputs, separator),
                None => self.hash(&job.inputs),
            })
            .collect()
    }

    /// One tree level: `result[i] = poseidon2_hash_with_separator([l_i, r_i], separator)`.
    ///
    /// # Errors
    /// [`BackendError`] if the backend itself fails.
    fn hash_nodes(&self, separator: DomainSeparator, pairs: &[[Fr; 2]]) -> Result<Vec<Fr>, BackendError> {
        let mut states: Vec<State> = pairs.iter().map(|[l, r]| pair_state(separator, *l, *r)).collect();
        self.permute_many(&mut states)?;
        Ok(states.iter().map(|state| state[0]).collect())
    }

    /// Where the async blanket impl should run batches; `None` runs them inline, which is what a
    /// synchronous backend such as the WASM fallback does (like the reference's WASM fallback).
    fn offload(&self) -> Option<&dyn Offload> {
        None
    }

    /// The hasher async callers use synchronously, on their own executor thread, for small and
    /// frequent work (tree levels); `None` means `self`. A backend whose batches wait on a thread
    /// pool returns a variant that hashes on the calling thread instead: an executor thread must
    /// not queue behind long offloaded batches.
    fn inline_fast_path(&self) -> Option<&dyn Hasher> {
        None
    }
}

/// The async face of a backend, at batch grain, with access to its synchronous fast path.
#[async_trait]
pub trait AsyncHasher: Send + Sync {
    /// The backend's name.
    fn backend_name(&self) -> &'static str;

    /// The synchronous hasher for small, frequent work (tree levels), if the backend has one.
    fn sync_fast_path(&self) -> Option<&dyn Hasher>;

    /// Hashes independent jobs; `result[i]` is the hash of `jobs[i]`.
    ///
    /// # Errors
    /// [`BackendError`] if the backend fails or its worker went away.
    async fn hash_batch_async(&self, jobs: Vec<HashJob>) -> Result<Vec<Fr>, BackendError>;

    /// One tree level, as [`Hasher::hash_nodes`].
    ///
    /// # Errors
    /// [`BackendError`] if the backend fails or its worker went away.
    async fn hash_nodes_async(
        &self,
        separator: DomainSeparator,
        pairs: Vec<[Fr; 2]>,
    ) -> Result<Vec<Fr>, BackendError>;
}

/// Runs `work` on the backend's [`Offload`] if it has one (awaiting it through a oneshot channel),
/// otherwise inline.
async fn run_offloaded<H, T, F>(hasher: &H, operation: &'static str, work: F) -> Result<T, BackendError>
where
    H: Hasher + Clone + 'static,
    T: Send + 'static,
    F: FnOnce(&H) -> Result<T, BackendError> + Send + 'static,
{
    let Some(offload) = hasher.offload() else {
        return work(hasher);
    };
    let (sender, receiver) = futures::channel::oneshot::channel();
    let worker = hasher.clone();
    offload.spawn(Box::new(move || {
        // The receiver may have been dropped by a cancelled caller; nothing is left to tell.
        let _ = sender.send(work(&worker));
    }));
    receiver.await.map_err(|_| BackendError {
        backend: hasher.name(),
        operation,
        reason: "the worker thread dropped the result".to_owned(),
    })?
}

#[async_trait]
impl<H: Hasher + Clone + 'static> AsyncHasher for H {
    fn backend_name(&self) -> &'static str {
        self.name()
    }

    fn sync_fast_path(&self) -> Option<&dyn Hasher> {
        Some(self.inline_fast_path().unwrap_or(self))
    }

    async fn hash_batch_async(&self, jobs: Vec<HashJob>) -> Result<Vec<Fr>, BackendError> {
        run_offloaded(self, "hash_batch", move |hasher| hasher.hash_batch(&jobs)).await
    }

    async fn hash_nodes_async(
        &self,
        separator: DomainSeparator,
        pairs: Vec<[Fr; 2]>,
    ) -> Result<Vec<Fr>, BackendError> {
        run_offloaded(self, "hash_nodes", move |hasher| hasher.hash_nodes(separator, &pairs)).await
    }
}

/// This crate's own Poseidon2 on the calling thread: the reference every backend must match.
#[derive(Debug, Clone, Copy, Default)]
pub struct Sequential;

impl Hasher for Sequential {
    fn name(&self) -> &'static str {
        "sequential"
    }

    fn permute_many(&self, states: &mut [State]) -> Result<(), BackendError> {
        permute_many(states);
        Ok(())
    }

    fn hash(&self, inputs: &[Fr]) -> Result<Fr, BackendError> {
        Ok(poseidon2_hash(inputs))
    }

    fn hash_with_separator(&self, inputs: &[Fr], separator: DomainSeparator) -> Result<Fr, BackendError> {
        Ok(poseidon2_hash_with_separator(inputs, separator))
    }
}
