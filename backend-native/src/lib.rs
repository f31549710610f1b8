#![doc = include_str!("../README.md")]

/// txfx-poseidon, re-exported: the backend traits this backend implements, `Fr`, the field codec.
pub use txfx_poseidon;

#[cfg(target_os = "linux")]
mod helpers;
mod share;

use std::sync::Arc;

use share::{share, share_claims};
use txfx_poseidon::permutation::{batch_arithmetic, permute_many};
use txfx_poseidon::pool::GlobalPool;
use txfx_poseidon::sponge::{hash_claimed_jobs, hash_jobs, lockstep_available, longest_first};
use txfx_poseidon::{BackendError, Fr, HashBackend, HashJob, Offload, Offloaded, State};

/// A job for a helper.
type Job = Box<dyn FnOnce() + Send + 'static>;

/// Permutations below which a batch stays on the calling thread: a single one. Sharing costs the
/// caller one helper wake-up (a few microseconds against one permutation) and never a wait for
/// the helper, so even two permutations are worth sharing (BENCHMARKS.md, workload 3).
pub const DEFAULT_PARALLEL_THRESHOLD: usize = 2;

/// Chunks per thread when permuting a level: equal-cost states, claimed a chunk at a time, so the
/// caller waits at most one chunk for the last helper. Small levels go one state per chunk (a
/// claim costs far less than a permutation), or one pass of the batch kernel where the CPU runs
/// eight states per pass (`txfx_poseidon::permutation::batch_arithmetic`).
const CHUNKS_PER_THREAD: usize = 16;

/// The most states in one chunk, which bounds that wait on large levels.
const MAX_CHUNK: usize = 64;

/// Permutations below which a batch of sponges is not worth running in lockstep: one pass of the
/// batch kernel (eight states) costs about 1.4 scalar permutations here (16.1 µs against 11.3 µs,
/// CHANGELOG), so two jobs of one permutation each already gain; four leaves a margin for CPUs
/// where the pass costs more (AVX-512 clocking down) and costs nothing that matters (at most
/// three permutations, tens of microseconds, one at a time).
pub const LOCKSTEP_MIN_PERMUTATIONS: usize = 4;

/// Whether a batch of sponge jobs runs in lockstep (eight jobs per pass of the batch kernel,
/// [`txfx_poseidon::sponge::hash_claimed_jobs`]), given that the CPU has the kernel. The rule:
///
/// - at least two jobs, and at least [`LOCKSTEP_MIN_PERMUTATIONS`] permutations in all;
/// - shared between `threads` threads (two or more), the total at least `2 · threads` times the
///   longest job. A job is a chain of permutations, and in a lane it advances one permutation
///   per pass (about 1.4 scalar permutations' time), so lockstep lengthens the longest job's
///   path while it saves on the total. One job at a time, `threads` threads take at least
///   `total / threads` scalar permutations' time; lockstep at most about `1.4 · longest` (the
///   longest job in a lane throughout) or `1.4 · total / (8 · threads)` (full lanes). With the
///   total at `2 · threads · longest` or more, the first is at least `2 · longest`, above both.
///   Below it (one tx's contract-class log beside small categories, two threads) the batch is
///   bound by its longest job, which one at a time runs at full scalar speed.
///
/// On one thread lockstep never loses: each pass permutes at least two states (otherwise the last
/// job finishes on the scalar permutation) in less time than two scalar permutations.
pub fn lockstep_pays(jobs: usize, permutations: usize, longest: usize, threads: usize) -> bool {
    jobs >= 2
        && permutations >= LOCKSTEP_MIN_PERMUTATIONS
        && (threads <= 1 || permutations >= longest.saturating_mul(2 * threads))
}

/// How `hash_batch` hashes independent sponges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sponges {
    /// In lockstep where the CPU has the batch kernel and [`lockstep_pays`]: the default.
    Lockstep,
    /// One job at a time per thread ([`NativeBackend::with_sponges_one_at_a_time`]).
    OneAtATime,
}

/// Where a batch's helper jobs run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Helpers {
    /// The current rayon pool (the global one, or the one the caller `install`ed): the default.
    Rayon,
    /// txfx's CPU-bound helper threads (Linux), opted in with [`NativeBackend::with_pinned_helpers`].
    Pinned,
}

/// The native backend. Cheap to copy.
///
/// Synchronous calls share a batch between the calling thread and one helper job per other
/// thread of the current rayon pool (the global one, or the pool the caller `install`ed): the
/// application sizes that pool, and txfx starts no thread of its own. Async calls through
/// [`NativeBackend::asynchronous`] run their batches on the process's background pool
/// ([`txfx_poseidon::pool`]), at a lower priority than the caller's executor threads.
#[derive(Debug, Clone, Copy)]
pub struct NativeBackend {
    threshold: usize,
    helpers: Helpers,
    sponges: Sponges,
}

impl Default for NativeBackend {
    fn default() -> Self {
        Self::new()
    }
}

impl NativeBackend {
    /// The backend with the default threshold, its helpers on the current rayon pool.
    pub fn new() -> Self {
        Self { threshold: DEFAULT_PARALLEL_THRESHOLD, helpers: Helpers::Rayon, sponges: Sponges::Lockstep }
    }

    /// A backend that goes parallel from `threshold` permutations per batch (0 and 1 mean always;
    /// `usize::MAX` means never, for a sequential baseline).
    pub fn with_parallel_threshold(threshold: usize) -> Self {
        Self { threshold, ..Self::new() }
    }

    /// Opts in to txfx's pinned helper threads (Linux; elsewhere this changes nothing): one
    /// thread per CPU of the process, started on first use, each bound to its CPU, spinning
    /// briefly after a job (200 µs) before it parks, and never exiting. A caller outside any
    /// rayon pool then shares its batches with the helpers of CPUs other than its own, so that a
    /// helper woken after an idle gap is never queued behind the busy caller on the caller's CPU.
    ///
    /// What it buys, and what it costs, are measured side by side in `cargo xtask bench`
    /// (workload 2, `native-pinned`; BENCHMARKS.md): small trees after an idle gap. It is off by
    /// default because a library must not pin or spin threads its application did not ask for;
    /// an application that owns its machine (a prover, a node's hashing stage) may ask.
    pub fn with_pinned_helpers(self) -> Self {
        Self { helpers: Helpers::Pinned, ..self }
    }

    /// Turns off lockstep sponges: each thread hashes a batch's jobs one at a time, as before
    /// lockstep existed. For comparison (the `sponges` benchmark) and for ruling lockstep out when
    /// chasing a problem; the results are the same either way.
    pub fn with_sponges_one_at_a_time(self) -> Self {
        Self { sponges: Sponges::OneAtATime, ..self }
    }

    /// Whether [`HashBackend::hash_batch`] runs sponges in lockstep where it pays
    /// ([`lockstep_pays`]): lockstep is on for this backend (not
    /// [`NativeBackend::with_sponges_one_at_a_time`]) and this process has the batch kernel
    /// ([`txfx_poseidon::sponge::lockstep_available`]: AVX-512 IFMA, and `TXFX_ARITHMETIC` is not
    /// `portable`).
    pub fn sponges_in_lockstep(&self) -> bool {
        self.sponges == Sponges::Lockstep && lockstep_available()
    }

    /// The threshold in permutations.
    pub fn parallel_threshold(&self) -> usize {
        self.threshold
    }

    /// Whether this backend uses the pinned helpers ([`NativeBackend::with_pinned_helpers`]).
    pub fn pinned_helpers(&self) -> bool {
        self.helpers == Helpers::Pinned
    }

    fn parallel(&self, permutations: usize) -> bool {
        permutations >= self.threshold && rayon::current_num_threads() > 1
    }

    /// The async policy of Aztec's reference, as an explicit value: batches on the process's
    /// background pool ([`txfx_poseidon::pool::BackgroundPool::global`], started by the first
    /// batch), tree levels on the caller's thread ([`NativeBackend::on_calling_thread`]).
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
        self.asynchronous_on(Arc::new(GlobalPool))
    }

    /// The same policy with batches on the application's own pool (any [`Offload`]: a rayon pool
    /// it built, its runtime's blocking pool), so that txfx starts no thread at all.
    pub fn asynchronous_on(&self, offload: Arc<dyn Offload>) -> AsyncNativeBackend {
        Offloaded::new(*self, Self::on_calling_thread(), offload)
    }

    /// The backend that never shares a batch: everything on the calling thread. Async callers
    /// hash tree levels with it, since a parallel level would make the executor thread wait
    /// behind the leaf batches already queued on the pool.
    pub fn on_calling_thread() -> Self {
        Self::with_parallel_threshold(usize::MAX)
    }

    /// Helpers beside the calling thread: one per other thread of the current rayon pool.
    fn helper_count() -> usize {
        rayon::current_num_threads() - 1
    }

    /// Runs `jobs` beside the caller, where this backend's helpers run.
    fn spawn_helpers(self, jobs: Vec<Job>) {
        match self.helpers {
            #[cfg(target_os = "linux")]
            Helpers::Pinned => helpers::spawn(jobs),
            _ => jobs.into_iter().for_each(rayon::spawn),
        }
    }

    /// The results of `items` in order, each worker (this thread and this backend's helpers)
    /// claiming as many at a time as `work` likes (see `share::share_claims`).
    fn share_claims<I, O, W>(self, items: Vec<I>, work: W) -> Vec<O>
    where
        I: Send + Sync + 'static,
        O: Send + 'static,
        W: Fn(&[I], share::Claim<'_>, share::Finish<'_, O>) + Send + Sync + 'static,
    {
        share_claims(items, work, Self::helper_count(), |jobs| self.spawn_helpers(jobs))
    }

    /// `items.iter().map(work)` in order, shared with this backend's helpers.
    fn share<I, O, F>(self, items: Vec<I>, work: F) -> Vec<O>
    where
        I: Send + Sync + 'static,
        O: Send + 'static,
        F: Fn(&I) -> O + Send + Sync + 'static,
    {
        share(items, work, Self::helper_count(), |jobs| self.spawn_helpers(jobs))
    }
}

fn permute_chunk(chunk: &[State]) -> Vec<State> {
    let mut chunk = chunk.to_vec();
    permute_many(&mut chunk);
    chunk
}

/// The native backend for async callers: batches on a pool, levels inline.
pub type AsyncNativeBackend = Offloaded<NativeBackend, NativeBackend>;

impl HashBackend for NativeBackend {
    fn name(&self) -> &'static str {
        match self.helpers {
            Helpers::Rayon => "native",
            Helpers::Pinned => "native-pinned",
        }
    }

    fn permute_batch(&self, states: &mut [State]) -> Result<(), BackendError> {
        if self.parallel(states.len()) {
            let chunks = CHUNKS_PER_THREAD * rayon::current_num_threads();
            // A multiple of the batch kernel's width (8 states per pass with AVX-512 IFMA, else
            // 1), so that every chunk but the last runs whole passes.
            let width = batch_arithmetic().width();
            let size = states.len().div_ceil(chunks).clamp(1, MAX_CHUNK).next_multiple_of(width);
            let owned: Vec<Vec<State>> = states.chunks(size).map(<[State]>::to_vec).collect();
            let permuted = self.share(owned, |chunk| permute_chunk(chunk));
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
        let longest = jobs.iter().map(HashJob::permutations).max().unwrap_or(0);
        let parallel = self.parallel(permutations) && jobs.len() > 1;
        let threads = if parallel { Self::helper_count() + 1 } else { 1 };
        let lockstep =
            self.sponges_in_lockstep() && lockstep_pays(jobs.len(), permutations, longest, threads);
        if !parallel {
            return Ok(if lockstep { hash_jobs(jobs) } else { jobs.iter().map(HashJob::run).collect() });
        }
        // Jobs differ wildly in cost (a contract-class log is 1008 permutations, a node 1):
        // they are claimed one at a time, longest first, so that no thread is left with a long
        // job at the end while the others idle; in lockstep each thread keeps eight in flight
        // and refills a lane from the same queue as it frees. Copying the preimages costs
        // nanoseconds per field, hashing them microseconds.
        let order = longest_first(jobs);
        let longest_first: Vec<HashJob> =
            order.iter().filter_map(|&index| jobs.get(index).cloned()).collect();
        let hashed = if lockstep {
            self.share_claims(longest_first, |jobs, claim, finish| hash_claimed_jobs(jobs, claim, finish))
        } else {
            self.share(longest_first, HashJob::run)
        };
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

    /// A log-heavy-like batch: a few long jobs (a contract-class log is 1008 permutations), many
    /// short ones, lengths at every rate boundary, plain and separator jobs, some all zero.
    fn mixed_jobs() -> Vec<HashJob> {
        let mut jobs: Vec<HashJob> = (0..80u64)
            .map(|i| {
                let len = match i % 8 {
                    0 => 1500 + i * 7,
                    1 => i % 5,
                    _ => i * 13 % 61,
                };
                let inputs = (0..len).map(|x| Fr::from(x * 31 + i) * Fr::from(u64::MAX)).collect();
                if i % 3 == 0 {
                    HashJob::plain(inputs)
                } else {
                    HashJob::with_separator(DomainSeparator::new(i as u32), inputs)
                }
            })
            .collect();
        jobs.extend((0..7usize).map(|len| HashJob::plain(vec![Fr::from(0u64); len])));
        jobs
    }

    #[test]
    fn lockstep_and_one_at_a_time_agree_with_sequential_on_both_sides_of_the_threshold() {
        let jobs = mixed_jobs();
        let expected = Sequential.hash_batch(&jobs).unwrap();
        let mut compared = 0;
        for threshold in [1, DEFAULT_PARALLEL_THRESHOLD, usize::MAX] {
            for native in [
                NativeBackend::with_parallel_threshold(threshold),
                NativeBackend::with_parallel_threshold(threshold).with_sponges_one_at_a_time(),
                NativeBackend::with_parallel_threshold(threshold).with_pinned_helpers(),
            ] {
                assert_eq!(native.hash_batch(&jobs).unwrap(), expected, "{native:?}");
                // A prefix: two jobs, one job, none.
                for n in [0, 1, 2, 9] {
                    assert_eq!(native.hash_batch(&jobs[..n]).unwrap(), expected[..n], "{native:?}, {n} jobs");
                }
                compared += jobs.len();
            }
        }
        assert_eq!(compared, 9 * jobs.len());
        // The same batch in a one-thread pool takes the sequential lockstep path.
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        assert_eq!(one.install(|| NativeBackend::new().hash_batch(&jobs).unwrap()), expected);
        std::eprintln!(
            "native hash_batch: sponges in lockstep {} (batch arithmetic: {})",
            NativeBackend::new().sponges_in_lockstep(),
            batch_arithmetic()
        );
    }

    #[test]
    fn lockstep_is_on_by_default_where_the_kernel_is() {
        assert_eq!(NativeBackend::new().sponges_in_lockstep(), lockstep_available());
        assert_eq!(
            NativeBackend::new().sponges_in_lockstep(),
            batch_arithmetic() == txfx_poseidon::permutation::BatchArithmetic::Ifma
        );
        assert!(!NativeBackend::new().with_sponges_one_at_a_time().sponges_in_lockstep());
        assert!(
            !NativeBackend::new().with_pinned_helpers().with_sponges_one_at_a_time().sponges_in_lockstep()
        );
        assert_eq!(NativeBackend::new().with_sponges_one_at_a_time().name(), "native");
    }

    #[test]
    fn the_lockstep_rule() {
        // One thread: any two jobs of four permutations or more.
        assert!(lockstep_pays(2, 4, 3, 1));
        assert!(lockstep_pays(2, 1009, 1008, 1));
        assert!(!lockstep_pays(1, 1008, 1008, 1), "one job");
        assert!(!lockstep_pays(3, 3, 1, 1), "below the minimum");
        // Two threads: the total at least four times the longest job.
        assert!(lockstep_pays(64, 64, 1, 2));
        assert!(lockstep_pays(16 * 7, 16 * 1400, 1008, 2));
        assert!(!lockstep_pays(7, 1400, 1008, 2), "one tx: bound by its contract-class log");
        assert!(lockstep_pays(7, 4032, 1008, 2));
        assert!(!lockstep_pays(7, 4031, 1008, 2));
        assert!(!lockstep_pays(2, usize::MAX / 2, usize::MAX / 2, 2), "no overflow");
    }

    #[test]
    fn async_batches_run_off_the_calling_thread_and_levels_on_it() {
        use txfx_poseidon::AsyncHashBackend;
        use txfx_poseidon::pool::{BackgroundPool, PoolConfig};
        let pool = Arc::new(BackgroundPool::new(PoolConfig { threads: 2, lower_priority: false }).unwrap());
        // A backend whose batch records the thread it ran on.
        #[derive(Clone)]
        struct Recording(Arc<std::sync::Mutex<Vec<Option<String>>>>);
        impl HashBackend for Recording {
            fn name(&self) -> &'static str {
                "recording"
            }
            fn permute_batch(&self, states: &mut [State]) -> Result<(), BackendError> {
                NativeBackend::new().permute_batch(states)
            }
            fn hash_batch(&self, jobs: &[HashJob]) -> Result<Vec<Fr>, BackendError> {
                self.0.lock().unwrap().push(std::thread::current().name().map(str::to_owned));
                NativeBackend::new().hash_batch(jobs)
            }
        }
        let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
        let recording = Offloaded::new(Recording(seen.clone()), NativeBackend::on_calling_thread(), pool);
        let jobs = vec![HashJob::plain(vec![Fr::from(1u64)]); 4];
        let expected = Sequential.hash_batch(&jobs).unwrap();
        let got = futures::executor::block_on(recording.hash_batch_async(jobs)).unwrap();
        assert_eq!(got, expected);
        let seen = seen.lock().unwrap().clone();
        assert_eq!(seen.len(), 1, "one batch, one call");
        assert!(seen[0].as_deref().is_some_and(|name| name.starts_with("txfx-bg-")), "ran on {:?}", seen[0]);
        // Tree levels: the async backend's level backend never shares a batch.
        let native = NativeBackend::new().asynchronous();
        let levels = native.levels();
        let pairs = level(64);
        assert_eq!(
            levels.hash_level(DomainSeparator::TX_EFFECTS_TREE, &pairs).unwrap(),
            Sequential.hash_level(DomainSeparator::TX_EFFECTS_TREE, &pairs).unwrap()
        );
        assert_eq!(NativeBackend::on_calling_thread().parallel_threshold(), usize::MAX);
    }

    #[test]
    fn pinned_helpers_are_opt_in_and_agree() {
        let default = NativeBackend::new();
        assert!(!default.pinned_helpers());
        assert_eq!(default.name(), "native");
        let pinned = NativeBackend::with_parallel_threshold(1).with_pinned_helpers();
        assert!(pinned.pinned_helpers());
        assert_eq!(pinned.name(), "native-pinned");
        let pairs = level(200);
        let separator = DomainSeparator::TX_EFFECTS_TREE;
        assert_eq!(
            pinned.hash_level(separator, &pairs).unwrap(),
            Sequential.hash_level(separator, &pairs).unwrap()
        );
    }
}
