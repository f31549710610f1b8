//! Work shared between the calling thread and rayon helpers, without ever waiting for a helper
//! that has not started.
//!
//! A rayon `join`/`scope` entered from a thread outside the pool puts the caller to sleep until
//! the pool has done everything, and a scope must wait for every job it spawned, even one whose
//! worker is still waking up: a sleeping worker's start and the sleeping caller's wake-up, several
//! times per tree level, cost as much as the hashing of a small level itself (BENCHMARKS.md,
//! design: share-without-waiting).
//!
//! [`share`] instead owns the items behind an `Arc`: the caller and up to `threads - 1` helper
//! jobs (on rayon's pool, or on the opt-in pinned helper threads: `helpers.rs`)
//! claim items one at a time from a shared counter, and the caller, which never stops working,
//! returns as soon as every item is done. A helper that wakes late finds nothing left and drops its
//! reference; at worst the caller has done everything itself, at no more than the cost of the
//! sequential loop. The caller only waits for items a helper has already claimed, spinning
//! briefly, then parking until the helper that finishes the last item unparks it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::Thread;
use std::time::Duration;

/// Spin iterations before the caller parks (a few microseconds: a short tail is waited for
/// without a sleep and wake-up, a long one is not burnt on a core another thread may need).
const SPINS_BEFORE_PARKING: usize = 2_000;

struct Shared<I, O, F> {
    items: Vec<I>,
    results: Vec<Mutex<Option<O>>>,
    work: F,
    next: AtomicUsize,
    done: AtomicUsize,
    caller: Thread,
}

impl<I, O, F: Fn(&I) -> O> Shared<I, O, F> {
    /// Claims and runs items until none is left.
    fn drain(&self) {
        loop {
            let index = self.next.fetch_add(1, Ordering::Relaxed);
            let (Some(item), Some(slot)) = (self.items.get(index), self.results.get(index)) else {
                return;
            };
            let output = (self.work)(item);
            *slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(output);
            if self.done.fetch_add(1, Ordering::AcqRel) + 1 == self.items.len() {
                self.caller.unpark();
            }
        }
    }

    fn finished(&self) -> bool {
        self.done.load(Ordering::Acquire) == self.items.len()
    }
}

/// `items.iter().map(work)`, in order, computed by the calling thread together with up to
/// `helpers` helper jobs, which `spawn` starts wherever the backend's helpers run (see the
/// module documentation).
pub(crate) fn share<I, O, F>(
    items: Vec<I>,
    work: F,
    helpers: usize,
    spawn: impl FnOnce(Vec<crate::Job>),
) -> Vec<O>
where
    I: Send + Sync + 'static,
    O: Send + 'static,
    F: Fn(&I) -> O + Send + Sync + 'static,
{
    let helpers = helpers.min(items.len().saturating_sub(1));
    let results = items.iter().map(|_| Mutex::new(None)).collect();
    let shared = Arc::new(Shared {
        items,
        results,
        work,
        next: AtomicUsize::new(0),
        done: AtomicUsize::new(0),
        caller: std::thread::current(),
    });
    let jobs = (0..helpers)
        .map(|_| {
            let shared = Arc::clone(&shared);
            Box::new(move || shared.drain()) as crate::Job
        })
        .collect();
    spawn(jobs);
    shared.drain();
    let mut spins = 0;
    while !shared.finished() {
        if spins < SPINS_BEFORE_PARKING {
            spins += 1;
            std::hint::spin_loop();
        } else {
            // The timeout only bounds the cost of a lost wake-up; `unpark` ends the wait at once.
            std::thread::park_timeout(Duration::from_millis(1));
        }
    }
    #[allow(
        clippy::expect_used,
        reason = "an internal invariant: a hole must fail loudly, never shift results"
    )]
    shared
        .results
        .iter()
        .map(|slot| {
            slot.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take()
                .expect("invariant: `done` counts a slot only after it was written")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x: &u64) -> u64 {
        x * x
    }

    #[test]
    fn results_are_in_item_order_for_any_number_of_helpers() {
        for n in [0u64, 1, 2, 3, 17, 1000] {
            let expected: Vec<u64> = (0..n).map(|x| x * x).collect();
            for helpers in [0, 1, 3, 8] {
                let got =
                    share((0..n).collect(), square, helpers, |jobs| jobs.into_iter().for_each(rayon::spawn));
                assert_eq!(got, expected, "n {n} helpers {helpers}");
            }
        }
    }

    #[test]
    fn helpers_really_share_the_work() {
        // A helper job that runs before the caller starts must claim an item: the spawner runs
        // the helper to completion first, so the helper claims every item and the caller none.
        fn whose(_: &u32) -> std::thread::ThreadId {
            std::thread::current().id()
        }
        let threads = share((0..200).collect(), whose, 1, |jobs| {
            for job in jobs {
                std::thread::spawn(job).join().expect("the helper ran");
            }
        });
        assert_eq!(threads.len(), 200);
        let caller = std::thread::current().id();
        assert!(threads.iter().all(|id| *id != caller), "the helper, started first, did all the work");
        // A helper that never starts leaves everything to the caller, who never waits for it.
        let threads = share((0..200).collect(), whose, 1, drop);
        assert!(threads.iter().all(|id| *id == caller), "the caller did all the work");
    }
}
