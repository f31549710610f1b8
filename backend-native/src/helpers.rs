//! The opt-in pinned helpers ([`NativeBackend::with_pinned_helpers`](crate::NativeBackend::with_pinned_helpers),
//! Linux): where [`share`](crate::share::share)'s helper jobs run when the application asks for
//! them, on a helper thread bound to a CPU other than the caller's.
//!
//! Why an application might ask, rather than use rayon's pool (the default): after an idle gap
//! every rayon worker sleeps, and the kernel wakes the one rayon picks on the CPU of the thread
//! that woke it, the caller's, which is busy hashing. The woken worker then waits behind the
//! caller until the scheduler moves it, and a small tree after an idle gap loses most of its
//! parallelism. A helper bound to another CPU cannot be queued behind the caller
//! (BENCHMARKS.md, design: pinned-helpers; workload 2's `native-pinned` column).
//!
//! One helper thread per allowed CPU, started on first use and bound to that CPU; a job goes to
//! the helpers of the CPUs after the caller's, round the set. A helper that finishes a job spins
//! briefly for the next (tree levels follow each other within microseconds), then parks.
//!
//! rayon stays in charge when the caller is itself a rayon worker (a pool the user sized runs the
//! work, and a helper of ours would only compete with its workers), on systems other than Linux,
//! and whenever a helper cannot be started or bound.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use crate::Job;

/// How long an idle helper spins for the next job before parking: longer than the gap between
/// two tree levels, far shorter than anything a user would call idle.
const SPIN: Duration = Duration::from_micros(200);

/// One helper thread, bound to one CPU.
struct Helper {
    queue: Mutex<VecDeque<Job>>,
    /// Jobs queued and not yet taken: the spinning helper reads this, not the lock.
    pending: AtomicUsize,
    thread: std::thread::Thread,
}

impl Helper {
    fn push(&self, job: Job) {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner).push_back(job);
        self.pending.fetch_add(1, Ordering::Release);
        self.thread.unpark();
    }

    fn take(&self) -> Option<Job> {
        let job = self.queue.lock().unwrap_or_else(PoisonError::into_inner).pop_front();
        if job.is_some() {
            self.pending.fetch_sub(1, Ordering::AcqRel);
        }
        job
    }

    /// The helper's loop: run, spin, park.
    fn serve(&self) {
        loop {
            while let Some(job) = self.take() {
                job();
            }
            let idle = Instant::now();
            while self.pending.load(Ordering::Acquire) == 0 && idle.elapsed() < SPIN {
                std::hint::spin_loop();
            }
            if self.pending.load(Ordering::Acquire) == 0 {
                // `push` unparks after counting, so a job queued now ends this park at once.
                std::thread::park();
            }
        }
    }
}

/// A CPU this process may run on, and its helper, started on first use (`None` if it could not be).
struct Slot {
    cpu: usize,
    helper: OnceLock<Option<Arc<Helper>>>,
}

impl Slot {
    fn helper(&self) -> Option<&Arc<Helper>> {
        self.helper.get_or_init(|| start(self.cpu)).as_ref()
    }
}

/// Starts the helper of `cpu`: `None` if the thread cannot be started or bound to it.
fn start(cpu: usize) -> Option<Arc<Helper>> {
    let (sender, receiver) = std::sync::mpsc::channel::<Option<Arc<Helper>>>();
    let spawned = std::thread::Builder::new().name(format!("txfx-share-{cpu}")).spawn(move || {
        let mut set = rustix::thread::CpuSet::new();
        set.set(cpu);
        if rustix::thread::sched_setaffinity(None, &set).is_err() {
            let _ = sender.send(None);
            return;
        }
        let helper = Arc::new(Helper {
            queue: Mutex::new(VecDeque::new()),
            pending: AtomicUsize::new(0),
            thread: std::thread::current(),
        });
        if sender.send(Some(Arc::clone(&helper))).is_ok() {
            helper.serve();
        }
    });
    spawned.ok()?;
    receiver.recv().ok().flatten()
}

/// The CPUs of the process, read from its main thread's affinity: the first caller may be a
/// thread the user bound to one CPU, whose own set would leave no other CPU to help on. `None`
/// where the set cannot be read.
fn process_cpus() -> Option<Vec<usize>> {
    let allowed = rustix::thread::sched_getaffinity(Some(rustix::process::getpid())).ok()?;
    Some((0..rustix::thread::CpuSet::MAX_CPU).filter(|&cpu| allowed.is_set(cpu)).collect())
}

/// One slot per CPU of the process, in CPU order.
fn slots() -> Option<&'static [Slot]> {
    static SLOTS: OnceLock<Option<Vec<Slot>>> = OnceLock::new();
    SLOTS
        .get_or_init(|| {
            Some(process_cpus()?.into_iter().map(|cpu| Slot { cpu, helper: OnceLock::new() }).collect())
        })
        .as_deref()
}

/// Runs each of `jobs` on a helper of another CPU than the caller's, or on rayon's pool (see the
/// module documentation).
pub(crate) fn spawn(jobs: Vec<Job>) {
    let bound = rayon::current_thread_index().is_none().then(slots).flatten();
    let Some(slots) = bound else {
        jobs.into_iter().for_each(rayon::spawn);
        return;
    };
    let here = rustix::thread::sched_getcpu();
    let position = slots.iter().position(|slot| slot.cpu == here).unwrap_or(slots.len());
    // The CPUs after the caller's, round the set, never the caller's own.
    let mut others = (1..slots.len()).filter_map(|step| slots.get((position + step) % slots.len()));
    for job in jobs {
        match others.next().and_then(Slot::helper) {
            Some(helper) => helper.push(job),
            None => rayon::spawn(job),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    /// Runs one job through [`spawn`] and reports the thread's name and CPU.
    fn where_it_ran() -> (Option<String>, usize) {
        let (sender, receiver) = mpsc::channel();
        spawn(vec![Box::new(move || {
            let thread = std::thread::current();
            let _ = sender.send((thread.name().map(str::to_owned), rustix::thread::sched_getcpu()));
        })]);
        receiver.recv_timeout(Duration::from_secs(10)).expect("the job ran")
    }

    #[test]
    fn a_job_runs_on_a_helper_bound_to_another_cpu() {
        // No readable CPU set (a sandbox) means no helper either, as does a refused binding below.
        let cpus = process_cpus().unwrap_or_default();
        let here = cpus.first().copied().unwrap_or(0);
        // Bind this test's thread, so that "the caller's CPU" cannot change under the test.
        std::thread::spawn(move || {
            let mut set = rustix::thread::CpuSet::new();
            set.set(here);
            // A sandbox may refuse binding threads: then no helper can be bound either, and
            // rayon's pool must run the jobs.
            let binds = !cpus.is_empty() && rustix::thread::sched_setaffinity(None, &set).is_ok();
            for _ in 0..8 {
                let (name, cpu) = where_it_ran();
                if !binds {
                    assert!(
                        !name.unwrap_or_default().starts_with("txfx-share-"),
                        "a helper that cannot be bound"
                    );
                } else if cpus.len() > 1 {
                    assert_ne!(cpu, here, "a helper on the caller's own CPU ({name:?})");
                    assert_eq!(name, Some(format!("txfx-share-{cpu}")), "the helper of the CPU it runs on");
                } else {
                    // One CPU: nothing to bind a helper to; rayon's pool runs the job.
                    assert!(!name.unwrap_or_default().starts_with("txfx-share-"));
                }
            }
        })
        .join()
        .expect("the test thread");
    }

    #[test]
    fn a_rayon_worker_keeps_its_jobs_in_rayon() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .thread_name(|i| format!("test-pool-{i}"))
            .build()
            .expect("pool");
        let (name, _) = pool.install(where_it_ran);
        // rayon::spawn from inside `install` queues on that pool.
        assert!(name.expect("named").starts_with("test-pool-"));
    }
}
