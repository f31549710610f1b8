//! The backend traits every hashing backend implements and every commitment routine takes.
//!
//! - [`HashBackend`]: the synchronous core a backend implements. Four methods: a name, a batch of
//!   permutations, a batch of independent hashes, and one tree level, which has a default in
//!   terms of the permutation batch that an implementor may override.
//! - [`HashBackendExt`]: conveniences over the core (single hashes, count-checked batches) for
//!   every backend, through a blanket impl. They are not trait methods an implementor could
//!   override inconsistently or a forwarding wrapper could forget.
//! - [`AsyncHashBackend`]: the same batches for async callers, at the same grain (never one boxed
//!   future per 2-to-1 hash), plus [`AsyncHashBackend::levels`]: internal tree nodes are small
//!   and frequent, so async callers hash them synchronously, as Aztec's TypeScript reference
//!   does. Every `HashBackend` is an `AsyncHashBackend` through a blanket impl that
//!   hashes inline on the caller's thread, as plain as RustCrypto's `AsyncSigner` over `Signer`.
//! - [`Offloaded`] (feature `async`): the explicit adapter for a different async policy: batches
//!   on an [`Offload`] (a thread pool: the process's [`crate::pool::BackgroundPool`], or the
//!   application's own) awaited through a oneshot channel, tree levels on a synchronous backend
//!   of the caller's choosing. The policy is a value, so a wrapper around a
//!   backend cannot silently drop it: it either holds an `Offloaded` or it does not.

use alloc::vec::Vec;

use ark_bn254::Fr;

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

    /// Hashes this job with the crate's own sequential Poseidon2 (what [`Sequential`] does).
    pub fn run(&self) -> Fr {
        match self.separator {
            Some(separator) => poseidon2_hash_with_separator(&self.inputs, separator),
            None => poseidon2_hash(&self.inputs),
        }
    }
}

/// A backend operation, named in [`BackendError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Operation {
    /// [`HashBackend::permute_batch`].
    PermuteBatch,
    /// [`HashBackend::hash_batch`] (and the single hashes built on it).
    HashBatch,
    /// [`HashBackend::hash_level`].
    HashLevel,
}

impl core::fmt::Display for Operation {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Self::PermuteBatch => "permute_batch",
            Self::HashBatch => "hash_batch",
            Self::HashLevel => "hash_level",
        })
    }
}

/// A backend failed. A correct backend never fails on well-formed input: every variant reports
/// a broken or unavailable backend (a WASM module that trapped or could not grow its memory, a
/// worker pool that went away, a result count that breaks the [`HashBackend`] contract).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BackendError {
    /// The backend reported a failure of its own.
    #[error("{backend} backend failed in {operation}: {reason}")]
    Failed {
        /// The backend's name.
        backend: &'static str,
        /// The operation that failed.
        operation: Operation,
        /// What the backend reported (a message from its engine).
        reason: alloc::string::String,
    },
    /// The backend returned a different number of results than it was given inputs.
    #[error("{backend} backend returned {returned} results from {operation} for {expected} inputs")]
    WrongCount {
        /// The backend's name.
        backend: &'static str,
        /// The operation.
        operation: Operation,
        /// Inputs given.
        expected: usize,
        /// Results returned.
        returned: usize,
    },
    /// The thread or pool an async batch was sent to dropped it without a result.
    #[error("{backend} backend's worker dropped the {operation} batch without a result")]
    WorkerGone {
        /// The backend's name.
        backend: &'static str,
        /// The operation.
        operation: Operation,
    },
}

/// `results`, checked to hold exactly `expected` values (the [`HashBackend`] contract).
///
/// # Errors
/// [`BackendError::WrongCount`] otherwise.
pub fn check_count(
    backend: &'static str,
    operation: Operation,
    expected: usize,
    results: Vec<Fr>,
) -> Result<Vec<Fr>, BackendError> {
    if results.len() == expected {
        Ok(results)
    } else {
        Err(BackendError::WrongCount { backend, operation, expected, returned: results.len() })
    }
}

/// A synchronous Poseidon2 backend, at batch grain: one call hashes a whole tree level or a whole
/// set of independent preimages, so a backend with a costly boundary (WASM, a thread pool)
/// crosses it once per batch.
///
/// # Contract
/// - Every method returns exactly what [`Sequential`] returns for the same input, bit for bit.
/// - [`hash_batch`](Self::hash_batch) and [`hash_level`](Self::hash_level) return one result per
///   input, in input order; [`permute_batch`](Self::permute_batch) permutes every state in place.
/// - An error means the backend is broken or unavailable, never that the input was bad: every
///   input (any field elements, any lengths) is valid.
/// - Implementations are `Send + Sync` and may be called from many threads at once.
///
/// Callers that need the result count checked use [`HashBackendExt`], which does it.
pub trait HashBackend: Send + Sync {
    /// A short name for reports and errors: `"native"`, `"wasm"`, `"sequential"`.
    fn name(&self) -> &'static str;

    /// Permutes every state in place.
    ///
    /// # Errors
    /// [`BackendError`] if the backend itself fails.
    fn permute_batch(&self, states: &mut [State]) -> Result<(), BackendError>;

    /// Hashes independent jobs; `result[i]` is the hash of `jobs[i]`.
    ///
    /// # Errors
    /// [`BackendError`] if the backend itself fails.
    fn hash_batch(&self, jobs: &[HashJob]) -> Result<Vec<Fr>, BackendError>;

    /// One tree level: `result[i] = poseidon2_hash_with_separator([l_i, r_i], separator)`.
    ///
    /// Each node is one permutation; the default builds the states and calls
    /// [`permute_batch`](Self::permute_batch). A backend overrides it only to save a copy.
    ///
    /// # Errors
    /// [`BackendError`] if the backend itself fails.
    fn hash_level(&self, separator: DomainSeparator, pairs: &[[Fr; 2]]) -> Result<Vec<Fr>, BackendError> {
        let mut states: Vec<State> = pairs.iter().map(|[l, r]| pair_state(separator, *l, *r)).collect();
        self.permute_batch(&mut states)?;
        Ok(states.iter().map(|state| state[0]).collect())
    }
}

/// Conveniences over [`HashBackend`], for every backend: single hashes and count-checked batches.
///
/// ```
/// use txfx_poseidon::{HashBackendExt, Sequential, Fr, field::fr_to_hex};
/// let h = Sequential.hash(&[Fr::from(1u64), Fr::from(2u64), Fr::from(3u64)])?;
/// assert_eq!(fr_to_hex(&h), "0x23864adb160dddf590f1d3303683ebcb914f828e2635f6e85a32f0a1aecd3dd8");
/// # Ok::<(), txfx_poseidon::BackendError>(())
/// ```
pub trait HashBackendExt: HashBackend {
    /// `poseidon2_hash(inputs)`.
    ///
    /// # Errors
    /// [`BackendError`] if the backend fails or breaks its contract.
    fn hash(&self, inputs: &[Fr]) -> Result<Fr, BackendError> {
        self.hash_one(HashJob::plain(inputs.to_vec()))
    }

    /// `poseidon2_hash_with_separator(inputs, separator)`.
    ///
    /// # Errors
    /// [`BackendError`] if the backend fails or breaks its contract.
    fn hash_with_separator(&self, inputs: &[Fr], separator: DomainSeparator) -> Result<Fr, BackendError> {
        self.hash_one(HashJob::with_separator(separator, inputs.to_vec()))
    }

    /// One job's hash.
    ///
    /// # Errors
    /// [`BackendError`] if the backend fails or breaks its contract.
    fn hash_one(&self, job: HashJob) -> Result<Fr, BackendError> {
        let results = self.hash_batch_checked(core::slice::from_ref(&job))?;
        single(self.name(), Operation::HashBatch, &results)
    }

    /// One tree node: `poseidon2_hash_with_separator([left, right], separator)`.
    ///
    /// # Errors
    /// [`BackendError`] if the backend fails or breaks its contract.
    fn hash_node(&self, separator: DomainSeparator, left: Fr, right: Fr) -> Result<Fr, BackendError> {
        let results = self.hash_level_checked(separator, &[[left, right]])?;
        single(self.name(), Operation::HashLevel, &results)
    }

    /// [`HashBackend::hash_batch`] with the result count checked.
    ///
    /// # Errors
    /// [`BackendError`] if the backend fails, [`BackendError::WrongCount`] if it breaks its contract.
    fn hash_batch_checked(&self, jobs: &[HashJob]) -> Result<Vec<Fr>, BackendError> {
        check_count(self.name(), Operation::HashBatch, jobs.len(), self.hash_batch(jobs)?)
    }

    /// [`HashBackend::hash_level`] with the result count checked.
    ///
    /// # Errors
    /// [`BackendError`] if the backend fails, [`BackendError::WrongCount`] if it breaks its contract.
    fn hash_level_checked(
        &self,
        separator: DomainSeparator,
        pairs: &[[Fr; 2]],
    ) -> Result<Vec<Fr>, BackendError> {
        check_count(self.name(), Operation::HashLevel, pairs.len(), self.hash_level(separator, pairs)?)
    }
}

impl<B: HashBackend + ?Sized> HashBackendExt for B {}

/// The one value of a one-element result that [`check_count`] has already checked.
fn single(backend: &'static str, operation: Operation, results: &[Fr]) -> Result<Fr, BackendError> {
    match results {
        [value] => Ok(*value),
        _ => Err(BackendError::WrongCount { backend, operation, expected: 1, returned: results.len() }),
    }
}

/// This crate's own Poseidon2 on the calling thread: the reference every backend must match.
#[derive(Debug, Clone, Copy, Default)]
pub struct Sequential;

impl HashBackend for Sequential {
    fn name(&self) -> &'static str {
        "sequential"
    }

    fn permute_batch(&self, states: &mut [State]) -> Result<(), BackendError> {
        permute_many(states);
        Ok(())
    }

    fn hash_batch(&self, jobs: &[HashJob]) -> Result<Vec<Fr>, BackendError> {
        Ok(jobs.iter().map(HashJob::run).collect())
    }
}

#[cfg(feature = "async")]
pub use asynchronous::AsyncHashBackend;
#[cfg(feature = "async")]
pub use offload::{Offload, Offloaded};

#[cfg(feature = "async")]
mod asynchronous {
    use alloc::boxed::Box;
    use alloc::vec::Vec;

    use ark_bn254::Fr;
    use async_trait::async_trait;

    use super::{BackendError, HashBackend, HashJob};

    /// The async face of a backend, at batch grain, with its synchronous level backend.
    ///
    /// # Contract
    /// As [`HashBackend`]'s: results bit-identical to [`super::Sequential`], one per input, in
    /// order. Where the work runs is the implementation's policy: the blanket impl for every
    /// [`HashBackend`] runs it inline on the polling thread; [`super::Offloaded`] sends batches
    /// to a pool.
    #[async_trait]
    pub trait AsyncHashBackend: Send + Sync {
        /// The backend's name.
        fn backend_name(&self) -> &'static str;

        /// The synchronous backend async callers hash tree levels with, on their own thread, a
        /// few pairs between yields: internal nodes are small and frequent (one permutation
        /// each), so a round trip to a pool would cost more than the hashing.
        fn levels(&self) -> &dyn HashBackend;

        /// Hashes independent jobs; `result[i]` is the hash of `jobs[i]`.
        ///
        /// # Errors
        /// [`BackendError`] if the backend fails or its worker went away.
        async fn hash_batch_async(&self, jobs: Vec<HashJob>) -> Result<Vec<Fr>, BackendError>;
    }

    /// Every synchronous backend is an async one that hashes inline, on the polling thread.
    #[async_trait]
    impl<B: HashBackend> AsyncHashBackend for B {
        fn backend_name(&self) -> &'static str {
            self.name()
        }

        fn levels(&self) -> &dyn HashBackend {
            self
        }

        async fn hash_batch_async(&self, jobs: Vec<HashJob>) -> Result<Vec<Fr>, BackendError> {
            self.hash_batch(&jobs)
        }
    }
}

#[cfg(feature = "async")]
mod offload {
    use alloc::boxed::Box;
    use alloc::vec::Vec;
    use std::sync::Arc;

    use ark_bn254::Fr;
    use async_trait::async_trait;

    use super::{AsyncHashBackend, BackendError, HashBackend, HashJob, Operation};

    /// Somewhere other than the caller's thread to run a batch: a thread pool.
    pub trait Offload: Send + Sync {
        /// Runs `task` soon, on another thread.
        fn spawn(&self, task: Box<dyn FnOnce() + Send + 'static>);
    }

    /// An async backend that runs every batch of `B` on an [`Offload`] and hashes tree levels
    /// synchronously with `L` on the caller's thread, between yields.
    ///
    /// This is the policy Aztec's TypeScript reference follows (leaves off the event loop, nodes
    /// inline), as an explicit value: a wrapper that wants it holds an `Offloaded`, and nothing
    /// about it can be forgotten when forwarding a [`HashBackend`].
    ///
    /// ```
    /// use std::sync::Arc;
    /// use txfx_poseidon::{AsyncHashBackend, HashJob, Offload, Offloaded, Sequential, Fr};
    /// struct NewThread;
    /// impl Offload for NewThread {
    ///     fn spawn(&self, task: Box<dyn FnOnce() + Send + 'static>) {
    ///         std::thread::spawn(task);
    ///     }
    /// }
    /// let backend = Offloaded::new(Sequential, Sequential, Arc::new(NewThread));
    /// let jobs = vec![HashJob::plain(vec![Fr::from(1u64)])];
    /// let hashed = futures::executor::block_on(backend.hash_batch_async(jobs.clone()))?;
    /// assert_eq!(hashed, vec![jobs[0].run()]);
    /// # Ok::<(), txfx_poseidon::BackendError>(())
    /// ```
    #[derive(Clone)]
    pub struct Offloaded<B, L> {
        batches: B,
        levels: L,
        offload: Arc<dyn Offload>,
    }

    impl<B: HashBackend, L: HashBackend> core::fmt::Debug for Offloaded<B, L> {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.debug_struct("Offloaded")
                .field("batches", &self.batches.name())
                .field("levels", &self.levels.name())
                .finish_non_exhaustive()
        }
    }

    impl<B: HashBackend + Clone + 'static, L: HashBackend> Offloaded<B, L> {
        /// Batches of `batches` on `offload`; tree levels with `levels` on the caller's thread.
        pub fn new(batches: B, levels: L, offload: Arc<dyn Offload>) -> Self {
            Self { batches, levels, offload }
        }

        /// The backend batches run on.
        pub fn batches(&self) -> &B {
            &self.batches
        }

        /// The backend tree levels run on, on the caller's thread (as its concrete type; the
        /// trait's [`AsyncHashBackend::levels`] gives it as `&dyn HashBackend`).
        pub fn level_backend(&self) -> &L {
            &self.levels
        }

        /// Runs `work` on the offload and awaits its result.
        async fn run<T, F>(&self, operation: Operation, work: F) -> Result<T, BackendError>
        where
            T: Send + 'static,
            F: FnOnce(&B) -> Result<T, BackendError> + Send + 'static,
        {
            let (sender, receiver) = futures_channel::oneshot::channel();
            let worker = self.batches.clone();
            self.offload.spawn(Box::new(move || {
                // The receiver may have been dropped by a cancelled caller; nothing is left to tell.
                let _ = sender.send(work(&worker));
            }));
            receiver
                .await
                .map_err(|_| BackendError::WorkerGone { backend: self.batches.name(), operation })?
        }
    }

    #[async_trait]
    impl<B: HashBackend + Clone + 'static, L: HashBackend> AsyncHashBackend for Offloaded<B, L> {
        fn backend_name(&self) -> &'static str {
            self.batches.name()
        }

        fn levels(&self) -> &dyn HashBackend {
            &self.levels
        }

        async fn hash_batch_async(&self, jobs: Vec<HashJob>) -> Result<Vec<Fr>, BackendError> {
            self.run(Operation::HashBatch, move |backend| backend.hash_batch(&jobs)).await
        }
    }
}
