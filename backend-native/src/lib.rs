//! The native txfx backend: this workspace's Poseidon2 in process, on every core through rayon.
//!
//! Batches (a tree level, the preimages of a block's leaves) are shared between the calling
//! thread and rayon helpers once they are worth it; below [`NativeBackend::parallel_threshold`]
//! permutations they run on the calling thread alone, where waking a helper would cost more than
//! it saves. The caller works on its own batch and never waits for a helper that has not started
//! yet (see `share.rs`). Results are in input order and bit-identical either way.
//!
//! Through [`txfx_poseidon::AsyncHasher`] (the blanket impl), every batch is handed to txfx's
//! background pool (lower scheduling priority than the caller's threads) and awaited through a
//! oneshot channel, so the caller's executor thread never runs a long hash, while tree levels
//! stay on the synchronous fast path, which for async callers hashes on the calling thread, a
//! few pairs between yields, rather than queue behind those batches.
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

mod share;

use share::share;
use txfx_poseidon::permutation::permute_many;
use txfx_poseidon::{BackendError, DomainSeparator, Fr, HashJob, Hasher, Offload, Sequential, State};

/// Permutations below which a batch stays on the calling thread: a single one. Sharing costs the
/// caller one `rayon::spawn` (a few microseconds against a 15 µs permutation) and never a wait
/// for the helper, so even two permutations are worth sharing; a 64-leaf tree measured
/// 0.71–0.75 ms with 2 against 0.78–0.80 ms with 8 (levels of 4 and 2 pairs shared too).
pub const DEFAULT_PARALLEL_THRESHOLD: usize = 2;

/// Chunks per thread when permuting a level: equal-cost states, claimed a chunk at a time, so the
/// caller waits at most one chunk for the last helper. Small levels go one state per chunk (a
/// claim costs well under a microsecond, a permutation about 15).
const CHUNKS_PER_THREAD: usize = 16;

/// The most states in one chunk (about 1 ms of work), which bounds that wait on large levels.
const MAX_CHUNK: usize = 64;

/// The native backend. Cheap to clone.
///
/// Synchronous calls share their batches with the current rayon pool (the global one, or the
/// pool the caller `install`ed). Async calls, through the [`txfx_poseidon::AsyncHasher`] blanket
/// impl, run their batches on txfx's own background pool, whose threads run at a lower priority
/// ([`BACKGROUND_NICE`] on Linux) than the caller's executor threads: the event loop wins the
/// core whenever it has something to do, and the hashing takes whatever is left.
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

    /// Helpers beside the calling thread: one per other core of rayon's pool.
    fn helpers() -> usize {
        rayon::current_num_threads() - 1
    }
}

fn permute_chunk(chunk: &[State]) -> Vec<State> {
    let mut chunk = chunk.to_vec();
    permute_many(&mut chunk);
    chunk
}

/// Nice value of the background pool's threads: below the caller's threads (nice 0), so that an
/// executor thread waking up preempts a hashing thread at once instead of waiting out its time
/// slice. Measured in workload 4 (BENCHMARKS.md), two runs each: probe p95 1.69–2.17 ms at
/// nice 0, 0.52–0.53 ms at nice 10. On an otherwise idle machine the pool loses nothing: there is
/// no one to yield to.
pub const BACKGROUND_NICE: i32 = 10;

/// Offloads async batches to txfx's own background pool (see [`NativeBackend`]).
struct BackgroundOffload;

impl Offload for BackgroundOffload {
    fn spawn(&self, task: Box<dyn FnOnce() + Send + 'static>) {
        match background_pool() {
            Some(pool) => pool.spawn(task),
            // The pool could not be built (threads refused): rayon's global pool still works.
            None => rayon::spawn(task),
        }
    }
}

static BACKGROUND_OFFLOAD: BackgroundOffload = BackgroundOffload;

/// The pool async batches run on: one thread per core, named `txfx-hash-N`, each at
/// [`BACKGROUND_NICE`] on Linux. Built on first use; `None` if its threads could not be started.
fn background_pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: std::sync::OnceLock<Option<rayon::ThreadPool>> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .thread_name(|index| format!("txfx-hash-{index}"))
            .start_handler(|_| lower_priority())
            .build()
            .ok()
    })
    .as_ref()
}

/// Lowers the calling thread's scheduling priority to [`BACKGROUND_NICE`], best effort: lowering
/// needs no privilege, and should a sandbox refuse the call the pool merely keeps priority 0.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        let _ = rustix::process::setpriority_process(Some(rustix::thread::gettid()), BACKGROUND_NICE);
    }
}

/// The fast path for async callers: the same backend, never waiting on the pool.
static ON_CALLING_THREAD: NativeBackend = NativeBackend { threshold: usize::MAX };

impl Hasher for NativeBackend {
    fn name(&self) -> &'static str {
        "native"
    }

    fn permute_many(&self, states: &mut [State]) -> Result<(), BackendError> {
        if self.parallel(states.len()) {
            let chunks = CHUNKS_PER_THREAD * rayon::current_num_threads();
            let size = states.len().div_ceil(chunks).clamp(1, MAX_CHUNK);
            let owned: Vec<Vec<State>> = states.chunks(size).map(<[State]>::to_vec).collect();
            let permuted = share(owned, |chunk| permute_chunk(chunk), Self::helpers());
            for (chunk, done) in states.chunks_mut(size).zip(permuted) {
                chunk.copy_from_slice(&done);
            }
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
            // Jobs differ wildly in cost (a contract-class log is 1008 permutations, a node 1):
            // they are claimed one at a time, longest first, so that no thread is left with a
            // long job at the end while the others idle. Copying the preimages costs nanoseconds
            // per field, hashing them microseconds.
            let mut order: Vec<usize> = (0..jobs.len()).collect();
            order.sort_by_key(|&index| std::cmp::Reverse(jobs.get(index).map_or(0, HashJob::permutations)));
            let longest_first = order.iter().filter_map(|&index| jobs.get(index).cloned()).collect();
            let hashed = share(longest_first, HashJob::run, Self::helpers());
            let mut out = vec![Fr::default(); jobs.len()];
            for (index, value) in order.into_iter().zip(hashed) {
                if let Some(slot) = out.get_mut(index) {
                    *slot = value;
                }
            }
            Ok(out)
        } else {
            Ok(jobs.iter().map(HashJob::run).collect())
        }
    }

    fn offload(&self) -> Option<&dyn Offload> {
        Some(&BACKGROUND_OFFLOAD)
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
        // The offload really is another thread, of the background pool, at background priority.
        let (sender, receiver) = std::sync::mpsc::channel();
        native.offload().unwrap().spawn(Box::new(move || {
            let thread = std::thread::current();
            #[cfg(target_os = "linux")]
            let nice = rustix::process::getpriority_process(Some(rustix::thread::gettid())).unwrap();
            #[cfg(not(target_os = "linux"))]
            let nice = BACKGROUND_NICE;
            sender.send((thread.id(), thread.name().map(str::to_owned), nice)).unwrap()
        }));
        let (id, name, nice) = receiver.recv().unwrap();
        assert_ne!(id, caller);
        assert!(name.as_deref().is_some_and(|name| name.starts_with("txfx-hash-")), "{name:?}");
        assert_eq!(nice, BACKGROUND_NICE);
    }
}
