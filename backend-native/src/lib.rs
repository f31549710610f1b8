//! The native txfx backend: this workspace's Poseidon2 in process, on every core through rayon.
//!
//! Batches (a tree level, the preimages of a block's leaves) are split over rayon's pool once
//! they are worth it; below [`NativeBackend::parallel_threshold`] permutations they run on the
//! calling thread, where the cost of waking the pool would dominate. Results are in input order
//! and bit-identical either way.
//!
//! Through [`txfx_poseidon::AsyncHasher`] (the blanket impl), every batch is handed to the rayon
//! pool and awaited through a oneshot channel, so the caller's executor thread never runs a long
//! hash, while tree levels stay on the synchronous fast path, which for async callers hashes on
//! the calling thread rather than queue behind those batches.
//!
//! ```
//! use txfx_backend_native::NativeBackend;
//! use txfx_poseidon::{DomainSeparator, Fr, Hasher};
//! let native = NativeBackend::new();
//! let pairs = vec![[Fr::from(1u64), Fr::from(2u64)]; 100];
//! let level = native.hash_nodes(DomainSeparator::TX_EFFECTS_TREE, &pairs)?;
//! assert_eq!(level.len(), 100);
//! # Ok::<(), txfx_poseidon::BackendError>(())
//! ```

use rayon::prelude::*;
use txfx_poseidon::permutation::permute_many;
use txfx_poseidon::{BackendError, DomainSeparator, Fr, HashJob, Hasher, Offload, Sequential, State};

/// Permutations below which a batch stays on the calling thread (about 0.1 ms of work).
pub const DEFAULT_PARALLEL_THRESHOLD: usize = 8;

/// Rayon tasks per thread when permuting a level: a level of equal-cost states splits evenly,
/// with one spare task per thread for work stealing when a thread is busy elsewhere.
const TASKS_PER_THREAD: usize = 2;

/// The native backend. Cheap to clone; clones share rayon's global pool.
#[derive(Debug, Clone, Copy)]
pub struct NativeBackend {
    threshold: usize,
}

impl Default for NativeBackend {
    fn default() -> Self {
        Self::new()
    }
}

impl NativeBackend {
    /// The backend with the default threshold.
    pub fn new() -> Self {
        Self { threshold: DEFAULT_PARALLEL_THRESHOLD }
    }

    /// A backend that goes parallel from `threshold` permutations per batch (0 and 1 mean always;
    /// `usize::MAX` means never, for a sequential baseline).
    pub fn with_parallel_threshold(threshold: usize) -> Self {
        Self { threshold }
    }

    /// The threshold in permutations.
    pub fn parallel_threshold(&self) -> usize {
        self.threshold
    }

    fn parallel(&self, permutations: usize) -> bool {
        permutations >= self.threshold && rayon::current_num_threads() > 1
    }
}

/// Offloads async batches to rayon's global pool.
struct RayonOffload;

impl Offload for RayonOffload {
    fn spawn(&self, task: Box<dyn FnOnce() + Send + 'static>) {
        rayon::spawn(task);
    }
}

static RAYON_OFFLOAD: RayonOffload = RayonOffload;

/// The fast path for async callers: the same backend, never waiting on the pool.
static ON_CALLING_THREAD: NativeBackend = NativeBackend { threshold: usize::MAX };

impl Hasher for NativeBackend {
    fn name(&self) -> &'static str {
        "native"
    }

    fn permute_many(&self, states: &mut [State]) -> Result<(), BackendError> {
        if self.parallel(states.len()) {
            let tasks = TASKS_PER_THREAD * rayon::current_num_threads();
            states.par_chunks_mut(states.len().div_ceil(tasks).max(1)).for_each(permute_many);
        } else {
            permute_many(states);
        }
        Ok(())
    }

    // One long sponge is inherently sequential: it is the reference implementation as it stands.
    fn hash(&self, inputs: &[Fr]) -> Result<Fr, BackendError> {
        Sequential.hash(inputs)
    }

    fn hash_with_separator(&self, inputs: &[Fr], separator: DomainSeparator) -> Result<Fr, BackendError> {
        Sequential.hash_with_separator(inputs, separator)
    }

    fn hash_batch(&self, jobs: &[HashJob]) -> Result<Vec<Fr>, BackendError> {
        let permutations: usize = jobs.iter().map(HashJob::permutations).sum();
        if self.parallel(permutations) && jobs.len() > 1 {
            // Jobs differ wildly in cost (a contract-class log is 1008 permutations, a node 1);
            // rayon's work stealing balances them, one job per task.
            Ok(jobs.par_iter().with_max_len(1).map(HashJob::run).collect())
        } else {
            Ok(jobs.iter().map(HashJob::run).collect())
        }
    }

    fn offload(&self) -> Option<&dyn Offload> {
        Some(&RAYON_OFFLOAD)
    }

    fn inline_fast_path(&self) -> Option<&dyn Hasher> {
        // Tree levels from async callers run on their thread: parallel levels would make the
        // executor thread wait behind the leaf batches already queued on the pool.
        Some(&ON_CALLING_THREAD)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(n: u64) -> Vec<[Fr; 2]> {
        (0..n).map(|i| [Fr::from(i), Fr::from(i * 7 + 1)]).collect()
    }

    #[test]
    fn both_sides_of_the_threshold_agree_with_sequential() {
        let separator = DomainSeparator::TX_EFFECTS_TREE;
        for n in [0u64, 1, 2, 7, 8, 9, 63, 64, 65, 1000] {
            let pairs = level(n);
            let expected = Sequential.hash_nodes(separator, &pairs).unwrap();
            for threshold in [1, DEFAULT_PARALLEL_THRESHOLD, usize::MAX] {
                let native = NativeBackend::with_parallel_threshold(threshold);
                assert_eq!(
                    native.hash_nodes(separator, &pairs).unwrap(),
                    expected,
                    "n {n} threshold {threshold}"
                );
            }
        }
    }

    #[test]
    fn parallel_batches_keep_job_order() {
        let jobs: Vec<HashJob> = (0..50u64)
            .map(|i| {
                let inputs = (0..(i * 61 % 200)).map(Fr::from).collect();
                if i % 3 == 0 {
                    HashJob::plain(inputs)
                } else {
                    HashJob::with_separator(DomainSeparator::new(i as u32), inputs)
                }
            })
            .collect();
        let expected = Sequential.hash_batch(&jobs).unwrap();
        assert_eq!(NativeBackend::with_parallel_threshold(1).hash_batch(&jobs).unwrap(), expected);
        assert_eq!(NativeBackend::with_parallel_threshold(usize::MAX).hash_batch(&jobs).unwrap(), expected);
    }

    #[test]
    fn async_batches_run_off_the_calling_thread() {
        use txfx_poseidon::AsyncHasher;
        let caller = std::thread::current().id();
        let native = NativeBackend::new();
        let jobs = vec![HashJob::plain(vec![Fr::from(1u64)]); 4];
        let expected = Sequential.hash_batch(&jobs).unwrap();
        let got = futures::executor::block_on(native.hash_batch_async(jobs)).unwrap();
        assert_eq!(got, expected);
        // The offload really is another thread: a task spawned on it reports a different id.
        let (sender, receiver) = std::sync::mpsc::channel();
        native.offload().unwrap().spawn(Box::new(move || sender.send(std::thread::current().id()).unwrap()));
        assert_ne!(receiver.recv().unwrap(), caller);
    }
}
