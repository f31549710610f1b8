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
//!
//! [`share_claims`] is the same with the claiming in the worker's hands: a worker may hold
//! several claimed items at once (the sponges' lockstep holds eight, one per lane, and claims
//! the next whenever a lane frees), as long as it finishes each before it returns.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::Thread;
use std::time::Duration;

/// Spin iterations before the caller parks (a few microseconds: a short tail is waited for
/// without a sleep and wake-up, a long one is not burnt on a core another thread may need).
const SPINS_BEFORE_PARKING: usize = 2_000;

/// What a worker is given to claim items and hand back their results.
pub(crate) type Claim<'a> = &'a mut dyn FnMut() -> Option<usize>;
/// Where a worker hands back the result of a claimed item: `finish(index, output)`.
pub(crate) type Finish<'a, O> = &'a mut dyn FnMut(usize, O);

struct Shared<I, O, W> {
    items: Vec<I>,
    results: Vec<Mutex<Option<O>>>,
    work: W,
    next: AtomicUsize,
    done: AtomicUsize,
    caller: Thread,
}

impl<I, O, W: Fn(&[I], Claim<'_>, Finish<'_, O>)> Shared<I, O, W> {
    /// Runs the worker until it stops claiming: it claims items one at a time from the shared
    /// counter (`None` once none is left) and hands back each claimed item's result.
    fn drain(&self) {
        let count = self.items.len();
        let mut claim = || {
            let index = self.next.fetch_add(1, Ordering::Relaxed);
            (index < count).then_some(index)
        };
        let mut finish = |index: usize, output: O| {
            if let Some(slot) = self.results.get(index) {
                *slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(output);
                if self.done.fetch_add(1, Ordering::AcqRel) + 1 == count {
                    self.caller.unpark();
                }
            }
        };
        (self.work)(&self.items, &mut claim, &mut finish);
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
    let one_at_a_time = move |items: &[I], claim: Claim<'_>, finish: Finish<'_, O>| {
        while let Some((index, item)) = claim().and_then(|index| items.get(index).map(|item| (index, item))) {
            finish(index, work(item));
        }
    };
    share_claims(items, one_at_a_time, helpers, spawn)
}

/// The results of `items`, in order, computed by workers (the calling thread and up to `helpers`
/// helper jobs) that each run `work(items, claim, finish)`: `work` claims items from the one
/// shared counter, as many at a time as it likes (the sponges' lockstep keeps eight in flight),
/// and must `finish` every item it claimed before it returns.
pub(crate) fn share_claims<I, O, W>(
    items: Vec<I>,
    work: W,
    helpers: usize,
    spawn: impl FnOnce(Vec<crate::Job>),
) -> Vec<O>
where
    I: Send + Sync + 'static,
    O: Send + 'static,
    W: Fn(&[I], Claim<'_>, Finish<'_, O>) + Send + Sync + 'static,
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
    fn workers_may_hold_several_claims() {
        // Each worker claims up to four items before finishing any, then finishes them in
        // reverse: every result still lands in its item's slot.
        fn four_at_a_time(items: &[u64], claim: Claim<'_>, finish: Finish<'_, u64>) {
            loop {
                let held: Vec<usize> = (0..4).map_while(|_| claim()).collect();
                if held.is_empty() {
                    return;
                }
                for index in held.into_iter().rev() {
                    finish(index, items[index] * 3);
                }
            }
        }
        for n in [0u64, 1, 3, 4, 5, 333] {
            let expected: Vec<u64> = (0..n).map(|x| x * 3).collect();
            for helpers in [0, 1, 3] {
                let got = share_claims((0..n).collect(), four_at_a_time, helpers, |jobs| {
                    jobs.into_iter().for_each(rayon::spawn)
                });
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
