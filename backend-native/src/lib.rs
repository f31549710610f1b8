#![doc = include_str!("../README.md")]

/// txfx-poseidon, re-exported: the backend traits this backend implements, `Fr`, the field codec.
pub use txfx_poseidon;

#[cfg(target_os = "linux")]
mod helpers;
mod share;

/// A job for a helper thread.
type Job = Box<dyn FnOnce() + Send + 'static>;

/// Runs `jobs` beside the caller: on helper threads bound to other CPUs than the caller's
/// (`helpers.rs`, Linux), or on rayon's pool.
fn spawn_helpers(jobs: Vec<Job>) {
    #[cfg(target_os = "linux")]
    helpers::spawn(jobs);
    #[cfg(not(target_os = "linux"))]
    jobs.into_iter().for_each(rayon::spawn);
}

use std::sync::Arc;

use share::share;
use txfx_poseidon::permutation::permute_many;
use txfx_poseidon::{BackendError, Fr, HashBackend, HashJob, Offload, Offloaded, State};

/// Permutations below which a batch stays on the calling thread: a single one. Sharing costs the
/// caller one helper wake-up (a few microseconds against a 12 µs permutation) and never a wait
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
/// Synchronous calls share their batches with one helper per other thread of the current rayon
/// pool (the global one, or the pool the caller `install`ed): txfx's CPU-bound helper threads on
/// Linux when the caller is outside any rayon pool, the pool's own workers otherwise (see the
/// crate documentation). Async calls through [`NativeBackend::asynchronous`] run their
/// batches on txfx's own background pool, whose threads run at a lower priority
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

    /// The async policy of Aztec's reference, as an explicit value: batches on txfx's background
    /// pool, tree levels on the caller's thread ([`NativeBackend::on_calling_thread`]).
    ///
    /// ```
    /// use txfx_backend_native::NativeBackend;
    /// use txfx_poseidon::{AsyncHashBackend, Fr, HashJob};
    /// let native = NativeBackend::new().asynchronous();
    /// let jobs = vec![HashJob::plain(vec![Fr::from(1u64)]); 4];
    /// let hashed = futures::executor::block_on(native.hash_batch_async(jobs))?;
    /// assert_eq!(hashed.len(), 4);
    /// # Ok::<(), txfx_poseidon::BackendError>(())
    /// ```
    pub fn asynchronous(&self) -> AsyncNativeBackend {
        Offloaded::new(*self, Self::on_calling_thread(), Arc::new(BackgroundOffload))
    }

    /// The backend that never shares a batch: everything on the calling thread. Async callers
    /// hash tree levels with it, since a parallel level would make the executor thread wait
    /// behind the leaf batches already queued on the pool.
    pub fn on_calling_thread() -> Self {
        Self { threshold: usize::MAX }
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

/// The native backend for async callers: batches on the background pool, levels inline.
pub type AsyncNativeBackend = Offloaded<NativeBackend, NativeBackend>;

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

/// The pool async batches run on: one thread per core, named `txfx-hash-N`, each at
/// [`BACKGROUND_NICE`] on Linux. Built on first use; `None` if its threads could not be started.
fn background_pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: std::sync::OnceLock<Option<rayon::ThreadPool>> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .thread_name(|index| format!("txfx-hash-{index}"))
            .start_handler(|_| {
                lower_priority();
            })
            .build()
            .ok()
    })
    .as_ref()
}

/// Lowers the calling thread's scheduling priority to [`BACKGROUND_NICE`], best effort: lowering
/// needs no privilege, and should a sandbox refuse the call the pool merely keeps priority 0.
/// Returns whether the priority was lowered.
fn lower_priority() -> bool {
    #[cfg(target_os = "linux")]
    {
        rustix::process::setpriority_process(Some(rustix::thread::gettid()), BACKGROUND_NICE).is_ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

impl HashBackend for NativeBackend {
    fn name(&self) -> &'static str {
        "native"
    }

    fn permute_batch(&self, states: &mut [State]) -> Result<(), BackendError> {
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
            let mut out: Vec<Option<Fr>> = vec![None; jobs.len()];
            for (index, value) in order.into_iter().zip(hashed) {
                if let Some(slot) = out.get_mut(index) {
                    *slot = Some(value);
                }
            }
            // `order` is a permutation of the indices and `share` returns one result per item.
            #[allow(
                clippy::expect_used,
                reason = "an internal invariant: a hole must fail loudly, never be zero"
            )]
            Ok(out.into_iter().map(|value| value.expect("invariant: every job has a result")).collect())
        } else {
            Ok(jobs.iter().map(HashJob::run).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use txfx_poseidon::{DomainSeparator, Sequential};

    fn level(n: u64) -> Vec<[Fr; 2]> {
        (0..n).map(|i| [Fr::from(i), Fr::from(i * 7 + 1)]).collect()
    }

    #[test]
    fn both_sides_of_the_threshold_agree_with_sequential() {
        let separator = DomainSeparator::TX_EFFECTS_TREE;
        for n in [0u64, 1, 2, 7, 8, 9, 63, 64, 65, 1000] {
            let pairs = level(n);
            let expected = Sequential.hash_level(separator, &pairs).unwrap();
            for threshold in [1, DEFAULT_PARALLEL_THRESHOLD, usize::MAX] {
                let native = NativeBackend::with_parallel_threshold(threshold);
                assert_eq!(
                    native.hash_level(separator, &pairs).unwrap(),
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
        use txfx_poseidon::AsyncHashBackend;
        let native = NativeBackend::new().asynchronous();
        assert_eq!(native.levels().parallel_threshold(), usize::MAX, "levels stay on the caller");
        let jobs = vec![HashJob::plain(vec![Fr::from(1u64)]); 4];
        let expected = Sequential.hash_batch(&jobs).unwrap();
        let got = futures::executor::block_on(native.hash_batch_async(jobs)).unwrap();
        assert_eq!(got, expected);
    }

    #[test]
    fn the_background_pool_is_named_and_lowered_where_the_system_allows() {
        let caller = std::thread::current().id();
        let (sender, receiver) = std::sync::mpsc::channel();
        BackgroundOffload.spawn(Box::new(move || {
            let thread = std::thread::current();
            #[cfg(target_os = "linux")]
            let nice = rustix::process::getpriority_process(Some(rustix::thread::gettid())).unwrap();
            #[cfg(not(target_os = "linux"))]
            let nice = 0;
            sender.send((thread.id(), thread.name().map(str::to_owned), nice)).unwrap()
        }));
        let (id, name, nice) = receiver.recv().unwrap();
        assert_ne!(id, caller);
        assert!(name.as_deref().is_some_and(|name| name.starts_with("txfx-hash-")), "{name:?}");
        // Best effort: lowering is expected wherever a fresh thread may lower itself.
        let (allowed, before) = std::thread::spawn(|| {
            #[cfg(target_os = "linux")]
            let before = rustix::process::getpriority_process(Some(rustix::thread::gettid())).unwrap();
            #[cfg(not(target_os = "linux"))]
            let before = 0;
            (lower_priority(), before)
        })
        .join()
        .unwrap();
        let expected = if allowed { BACKGROUND_NICE } else { before };
        assert_eq!(nice, expected, "the system {} lowering", if allowed { "allows" } else { "refuses" });
    }
}
