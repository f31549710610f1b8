//! [`BackgroundPool`]: the one set of threads txfx starts, and only for async callers.
//!
//! Synchronous hashing never starts a thread of txfx's own: it runs on the caller's thread and,
//! for large batches, on the rayon pool the caller is in (rayon's global pool unless the
//! application `install`ed another; the application sizes it with `RAYON_NUM_THREADS` or
//! `rayon::ThreadPoolBuilder::build_global`). Async callers (an event loop) need batches off
//! their executor threads: those run on a background pool, which is
//!
//! - one pool per process for every backend (the native and the WASM backend share it), built on
//!   the first async batch, never before;
//! - sized by the application: [`BackgroundPool::configure_global`] before first use, or one
//!   thread per available core; or replaced altogether by the application's own pool through any
//!   [`Offload`];
//! - named `txfx-bg-N`, never pinned to a CPU and never spinning: an idle thread sleeps in
//!   rayon's queue;
//! - at a lower scheduling priority than the application's threads on Linux
//!   ([`BACKGROUND_NICE`], unless configured otherwise), so that an executor thread that wakes up
//!   preempts a hashing thread at once.

use std::sync::{Mutex, OnceLock, PoisonError};

use crate::backend::Offload;

/// Nice value of the background threads on Linux: below the caller's threads (nice 0), so that
/// an executor thread waking up preempts a hashing thread at once instead of waiting out its time
/// slice (BENCHMARKS.md, workload 4 and design: background-nice). On an otherwise idle machine the pool loses nothing: there
/// is no one to yield to.
pub const BACKGROUND_NICE: i32 = 10;

/// How a [`BackgroundPool`] is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolConfig {
    /// Threads in the pool (at least one).
    pub threads: usize,
    /// Whether the threads lower their priority to [`BACKGROUND_NICE`] (Linux; best effort).
    pub lower_priority: bool,
}

impl Default for PoolConfig {
    /// One thread per available core, at [`BACKGROUND_NICE`].
    fn default() -> Self {
        Self { threads: std::thread::available_parallelism().map_or(1, |n| n.get()), lower_priority: true }
    }
}

/// Why a pool could not be built or configured.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PoolError {
    /// The global pool was already built (or configured) with another configuration.
    #[error("the background pool was already configured or started ({threads} threads)")]
    AlreadyConfigured {
        /// Threads of the pool in place.
        threads: usize,
    },
    /// A pool of no threads.
    #[error("a background pool needs at least one thread")]
    NoThreads,
    /// The system refused the threads.
    #[error("the background pool's threads could not be started: {reason}")]
    Spawn {
        /// What the system said.
        reason: String,
    },
}

/// A pool of background threads for async batches (module documentation).
#[derive(Debug)]
pub struct BackgroundPool {
    pool: rayon::ThreadPool,
    config: PoolConfig,
}

/// The global pool's configuration, fixed by [`BackgroundPool::configure_global`] or at first use.
static GLOBAL_CONFIG: Mutex<Option<PoolConfig>> = Mutex::new(None);
static GLOBAL: OnceLock<Result<BackgroundPool, PoolError>> = OnceLock::new();

impl BackgroundPool {
    /// Builds a pool now, with its threads started.
    ///
    /// # Errors
    /// [`PoolError::NoThreads`] for zero threads, [`PoolError::Spawn`] if the system refuses them.
    pub fn new(config: PoolConfig) -> Result<Self, PoolError> {
        if config.threads == 0 {
            return Err(PoolError::NoThreads);
        }
        let lower = config.lower_priority;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(config.threads)
            .thread_name(|index| format!("txfx-bg-{index}"))
            .start_handler(move |_| {
                if lower {
                    lower_priority();
                }
            })
            .build()
            .map_err(|error| PoolError::Spawn { reason: error.to_string() })?;
        Ok(Self { pool, config })
    }

    /// Fixes the configuration of the process's pool before it starts. Calling it again with the
    /// same configuration is harmless.
    ///
    /// # Errors
    /// [`PoolError::AlreadyConfigured`] if the pool was configured otherwise or already started,
    /// [`PoolError::NoThreads`] for zero threads.
    pub fn configure_global(config: PoolConfig) -> Result<(), PoolError> {
        if config.threads == 0 {
            return Err(PoolError::NoThreads);
        }
        let mut fixed = GLOBAL_CONFIG.lock().unwrap_or_else(PoisonError::into_inner);
        match *fixed {
            Some(existing) if existing != config => {
                Err(PoolError::AlreadyConfigured { threads: existing.threads })
            }
            _ => {
                *fixed = Some(config);
                Ok(())
            }
        }
    }

    /// The process's pool, shared by every backend, built on first call from the configuration
    /// [`BackgroundPool::configure_global`] fixed (else [`PoolConfig::default`]), which is then
    /// fixed for good.
    ///
    /// # Errors
    /// The [`PoolError`] building it gave (the same one on every call).
    pub fn global() -> Result<&'static Self, PoolError> {
        GLOBAL
            .get_or_init(|| {
                let config = *GLOBAL_CONFIG
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .get_or_insert_with(PoolConfig::default);
                Self::new(config)
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Whether the process's pool has been built (its threads started).
    pub fn global_started() -> bool {
        GLOBAL.get().is_some_and(Result::is_ok)
    }

    /// The configuration the pool was built with.
    pub fn config(&self) -> PoolConfig {
        self.config
    }
}

impl Offload for BackgroundPool {
    fn spawn(&self, task: Box<dyn FnOnce() + Send + 'static>) {
        self.pool.spawn(task);
    }
}

/// The process's pool as an [`Offload`]: built on the first task. A task that cannot run because
/// the pool could not be built is dropped, and its caller gets `BackendError::WorkerGone`, never a
/// silent run on the caller's thread.
#[derive(Debug, Clone, Copy, Default)]
pub struct GlobalPool;

impl Offload for GlobalPool {
    fn spawn(&self, task: Box<dyn FnOnce() + Send + 'static>) {
        if let Ok(pool) = BackgroundPool::global() {
            pool.spawn(task);
        }
    }
}

/// Lowers the calling thread's priority to [`BACKGROUND_NICE`], best effort: lowering needs no
/// privilege, and should a sandbox refuse it the thread keeps priority 0. Whether it was lowered.
pub(crate) fn lower_priority() -> bool {
    #[cfg(target_os = "linux")]
    {
        rustix::process::setpriority_process(Some(rustix::thread::gettid()), BACKGROUND_NICE).is_ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn priority() -> i32 {
        #[cfg(target_os = "linux")]
        {
            rustix::process::getpriority_process(Some(rustix::thread::gettid())).unwrap_or(0)
        }
        #[cfg(not(target_os = "linux"))]
        {
            0
        }
    }

    /// Where one task of `offload` ran: its thread's name and priority.
    fn where_it_ran(offload: &dyn Offload) -> (std::thread::ThreadId, Option<String>, i32) {
        let (sender, receiver) = std::sync::mpsc::channel();
        offload.spawn(Box::new(move || {
            let thread = std::thread::current();
            let _ = sender.send((thread.id(), thread.name().map(str::to_owned), priority()));
        }));
        receiver.recv_timeout(std::time::Duration::from_secs(10)).expect("the task ran")
    }

    #[test]
    fn tasks_run_on_named_threads_at_the_configured_priority() {
        // Whether this system lets a fresh thread lower itself decides what to expect.
        let (before, allowed) = std::thread::spawn(|| {
            let before = priority();
            (before, lower_priority())
        })
        .join()
        .expect("thread");
        for lower in [true, false] {
            let pool = BackgroundPool::new(PoolConfig { threads: 2, lower_priority: lower }).expect("pool");
            let (id, name, nice) = where_it_ran(&pool);
            assert_ne!(id, std::thread::current().id());
            assert!(name.as_deref().is_some_and(|n| n.starts_with("txfx-bg-")), "{name:?}");
            let expected = if lower && allowed { BACKGROUND_NICE } else { before };
            assert_eq!(nice, expected, "lower {lower}, the system allows lowering: {allowed}");
        }
    }

    #[test]
    fn a_pool_of_no_threads_is_refused() {
        let none = PoolConfig { threads: 0, lower_priority: true };
        assert_eq!(BackgroundPool::new(none).unwrap_err(), PoolError::NoThreads);
        assert_eq!(BackgroundPool::configure_global(none).unwrap_err(), PoolError::NoThreads);
    }
}
