//! Many independent sponge hashes in lockstep: eight lanes, one batch permutation per pass, each
//! lane refilled from a longest-first queue as its job finishes (the parent module's
//! documentation has the picture). The loop itself (`engine`) is safe Rust over any batch
//! permutation of eight states: the IFMA kernel in use, its portable model and eight scalar
//! permutations in the tests.

use alloc::vec;
use alloc::vec::Vec;
use core::cmp::Reverse;

use ark_bn254::Fr;

use crate::backend::HashJob;
use crate::permutation::{BatchArithmetic, batch_arithmetic};
#[cfg(any(test, all(target_arch = "x86_64", feature = "asm")))]
use engine::lockstep;

/// Whether [`hash_jobs`] and [`hash_claimed_jobs`] run jobs in lockstep in this process: where
/// the batch permutation runs eight states per pass
/// ([`batch_arithmetic`] is [`BatchArithmetic::Ifma`]). Otherwise they hash one job at a time.
pub fn lockstep_available() -> bool {
    batch_arithmetic() == BatchArithmetic::Ifma
}

/// Hashes independent jobs, `result[i]` for `jobs[i]`: in lockstep, longest first, where
/// [`lockstep_available`], else one at a time. The results are those of [`HashJob::run`].
///
/// ```
/// use txfx_poseidon::{DomainSeparator, Fr, HashJob, sponge::hash_jobs};
/// let jobs: Vec<HashJob> = (0..20u64)
///     .map(|n| HashJob::with_separator(DomainSeparator::new(7), (0..n * 5).map(Fr::from).collect()))
///     .collect();
/// let one_at_a_time: Vec<Fr> = jobs.iter().map(HashJob::run).collect();
/// assert_eq!(hash_jobs(&jobs), one_at_a_time);
/// ```
pub fn hash_jobs(jobs: &[HashJob]) -> Vec<Fr> {
    let mut queue = longest_first(jobs).into_iter();
    let mut results: Vec<Option<Fr>> = vec![None; jobs.len()];
    hash_claimed_jobs(
        jobs,
        || queue.next(),
        |index, hash| {
            if let Some(slot) = results.get_mut(index) {
                *slot = Some(hash);
            }
        },
    );
    // The queue names every index once, and every claimed job is finished.
    #[allow(clippy::expect_used, reason = "an internal invariant: a hole must fail loudly, never be zero")]
    results.into_iter().map(|hash| hash.expect("invariant: every job was claimed and finished")).collect()
}

/// The indices of `jobs`, longest job first (stable: equal lengths keep their order).
pub fn longest_first(jobs: &[HashJob]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&index| Reverse(jobs.get(index).map_or(0, HashJob::permutations)));
    order
}

/// Hashes the jobs `claim` hands out, in lockstep where [`lockstep_available`], else one at a
/// time, calling `finished(index, hash)` once for each claimed index as its hash is done.
///
/// `claim` gives indices into `jobs`; it is called whenever a lane is free, until it returns
/// `None` (or an index past the end of `jobs`), and never again after that. Threads sharing a
/// batch each call this with a `claim` over one shared queue (an atomic counter over the jobs in
/// [`longest_first`] order), so that a lane freed on any thread takes the next job.
pub fn hash_claimed_jobs(
    jobs: &[HashJob],
    claim: impl FnMut() -> Option<usize>,
    finished: impl FnMut(usize, Fr),
) {
    #[cfg(all(target_arch = "x86_64", feature = "asm"))]
    if let Some(ifma) = crate::montgomery::ifma::Ifma::detect() {
        lockstep(jobs, claim, finished, |states| ifma.permute_x8(states), |states| ifma.permute_x4(states));
        return;
    }
    one_at_a_time(jobs, claim, finished);
}

/// The loop without lockstep: each claimed job hashed alone.
fn one_at_a_time(
    jobs: &[HashJob],
    mut claim: impl FnMut() -> Option<usize>,
    mut finished: impl FnMut(usize, Fr),
) {
    while let Some((index, job)) = claim().and_then(|index| jobs.get(index).map(|job| (index, job))) {
        finished(index, job.run());
    }
}

/// The lockstep loop, compiled where the IFMA kernel can run it, and for the tests (which run it
/// on the kernel's portable model too).
#[cfg(any(test, all(target_arch = "x86_64", feature = "asm")))]
mod engine {
    use ark_bn254::Fr;

    use crate::backend::HashJob;
    use crate::montgomery::{add, from_fr, to_fr};
    use crate::permutation::{BATCH_WIDTH, State, permute_lanes};
    use crate::sponge::{RATE, initial_lanes};

    /// A job in a lane: which one, and its next chunk.
    #[derive(Clone, Copy)]
    struct Lane<'a> {
        index: usize,
        job: &'a HashJob,
        next_chunk: usize,
        chunks: usize,
    }

    /// What a lockstep run did, for the tests to check that it really ran in lockstep.
    #[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
    #[cfg_attr(not(test), allow(dead_code, reason = "read by the tests only"))]
    pub(crate) struct Run {
        /// Batch permutations.
        pub(crate) passes: usize,
        /// Those of them on four lanes (two to four jobs left).
        pub(crate) small_passes: usize,
        /// Busy lanes summed over the passes (`lanes / passes` is the mean occupancy).
        pub(crate) lanes: usize,
        /// Jobs finished on the scalar permutation (0 or 1).
        pub(crate) scalar_finishes: usize,
        /// Scalar permutations those took.
        pub(crate) scalar_permutations: usize,
    }

    /// Lanes of the small pass, which serves two to four jobs once the queue has run out (a
    /// pass of four costs about 0.6 of a pass of eight on the IFMA kernels).
    const SMALL: usize = 4;

    /// The lockstep loop over any batch permutation of eight states and of four (the IFMA
    /// kernels; in the tests also their portable models and scalar permutations).
    pub(crate) fn lockstep<'a>(
        jobs: &'a [HashJob],
        mut claim: impl FnMut() -> Option<usize>,
        mut finished: impl FnMut(usize, Fr),
        mut permute8: impl FnMut(&mut [State; BATCH_WIDTH]),
        mut permute4: impl FnMut(&mut [State; SMALL]),
    ) -> Run {
        let mut run = Run::default();
        let mut lanes: [Option<Lane<'a>>; BATCH_WIDTH] = [None; BATCH_WIDTH];
        let mut states: [State; BATCH_WIDTH] = [[Fr::from(0u64); 4]; BATCH_WIDTH];
        let mut exhausted = false;
        loop {
            // Refill every free lane from the queue (all of them on the first pass).
            if !exhausted {
                for (lane, state) in lanes.iter_mut().zip(states.iter_mut()) {
                    if lane.is_some() {
                        continue;
                    }
                    match claim().and_then(|index| jobs.get(index).map(|job| (index, job))) {
                        Some((index, job)) => {
                            *state = initial_state(job);
                            *lane = Some(Lane { index, job, next_chunk: 0, chunks: job.permutations() });
                        }
                        None => {
                            exhausted = true;
                            break;
                        }
                    }
                }
            }
            // Lanes are all busy until the queue runs out, so fewer than eight means it has.
            let busy = lanes.iter().flatten().count();
            if busy == 0 {
                return run;
            }
            if busy == 1 {
                for (lane, state) in lanes.iter().zip(&states) {
                    if let Some(lane) = lane {
                        run.scalar_finishes += 1;
                        run.scalar_permutations += lane.chunks - lane.next_chunk;
                        finished(lane.index, finish_alone(lane, state));
                    }
                }
                return run;
            }
            let small = busy <= SMALL;
            if small {
                compact(&mut lanes, &mut states);
            }
            for (lane, state) in lanes.iter().zip(states.iter_mut()) {
                if let Some(lane) = lane {
                    for (slot, value) in state.iter_mut().zip(chunk(lane.job, lane.next_chunk)) {
                        *slot += value;
                    }
                }
            }
            // Free lanes permute whatever their state holds; nothing reads it.
            match states.split_first_chunk_mut::<SMALL>() {
                Some((first, _)) if small => {
                    permute4(first);
                    run.small_passes += 1;
                }
                _ => permute8(&mut states),
            }
            run.passes += 1;
            run.lanes += busy;
            for (slot, state) in lanes.iter_mut().zip(&states) {
                if let Some(lane) = slot {
                    lane.next_chunk += 1;
                    if lane.next_chunk == lane.chunks {
                        finished(lane.index, state[0]);
                        *slot = None;
                    }
                }
            }
        }
    }

    /// Moves the busy lanes (at most [`SMALL`]) into the first [`SMALL`] slots, each with its
    /// state: a job is not tied to its slot.
    fn compact(lanes: &mut [Option<Lane<'_>>; BATCH_WIDTH], states: &mut [State; BATCH_WIDTH]) {
        let mut free = 0;
        for from in SMALL..BATCH_WIDTH {
            if lanes.get(from).is_some_and(Option::is_some) {
                while lanes.get(free).is_some_and(Option::is_some) {
                    free += 1;
                }
                // Both below BATCH_WIDTH: fewer than SMALL lanes are busy, so a free one lies
                // below SMALL, and `from` is a slot.
                lanes.swap(from, free);
                states.swap(from, free);
            }
        }
    }

    /// A job's state before its first chunk: zeros, and its length `· 2^64` in the capacity.
    fn initial_state(job: &HashJob) -> State {
        let len = job.inputs.len() + usize::from(job.separator.is_some());
        initial_lanes(len).each_ref().map(to_fr)
    }

    /// The elements of a job's chunk `n` (its preimage is the separator, if any, then the inputs):
    /// [`RATE`] of them, fewer in the last chunk, none for an empty preimage.
    fn chunk(job: &HashJob, n: usize) -> impl Iterator<Item = Fr> + '_ {
        // Preimage positions n·RATE .. (n+1)·RATE; the inputs start at position `shift`.
        let shift = usize::from(job.separator.is_some());
        let separator = job.separator.filter(|_| n == 0).map(|d| d.to_field());
        let start = (n * RATE).saturating_sub(shift);
        let end = ((n + 1) * RATE - shift).min(job.inputs.len());
        separator.into_iter().chain(job.inputs.get(start..end).unwrap_or_default().iter().copied())
    }

    /// The rest of a lane's job on the scalar permutation, from its state after the chunks done.
    fn finish_alone(lane: &Lane<'_>, state: &State) -> Fr {
        let mut lanes = state.each_ref().map(from_fr);
        for n in lane.next_chunk..lane.chunks {
            for (slot, value) in lanes.iter_mut().zip(chunk(lane.job, n)) {
                *slot = add(slot, &from_fr(&value));
            }
            permute_lanes(&mut lanes);
        }
        to_fr(&lanes[0])
    }
}

#[cfg(test)]
mod tests {
    use super::engine::Run;
    use super::*;
    use crate::permutation::x8::{X8, Xn, permute_n};
    use crate::permutation::{BATCH_WIDTH, State, permute};
    use crate::separator::DomainSeparator;
    use crate::test_rng::SplitMix64;

    /// Lengths at and around every rate boundary, the empty preimage, and long ones.
    const EDGE_LENGTHS: [usize; 20] =
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 29, 30, 31, 299, 300, 1001];

    /// A job of `len` random inputs (or zeros), with a separator on every other job.
    fn job(rng: &mut SplitMix64, len: usize, zeros: bool, separator: bool) -> HashJob {
        let inputs = (0..len).map(|_| if zeros { Fr::from(0u64) } else { rng.fr() }).collect();
        if separator {
            HashJob::with_separator(DomainSeparator::new(rng.next_u64() as u32), inputs)
        } else {
            HashJob::plain(inputs)
        }
    }

    /// The batches the tests run: edge lengths, many random lengths, one job, all zeros,
    /// equal lengths (every lane finishes in the same pass), and none.
    fn batches() -> Vec<(&'static str, Vec<HashJob>)> {
        let mut rng = SplitMix64(0x6c6f_636b_7374_6570);
        let edge =
            EDGE_LENGTHS.iter().enumerate().map(|(i, &len)| job(&mut rng, len, false, i % 2 == 0)).collect();
        let many = (0..60)
            .map(|i| {
                let len = rng.below(if i % 10 == 0 { 400 } else { 40 }) as usize;
                job(&mut rng, len, false, i % 3 != 0)
            })
            .collect();
        let single = vec![job(&mut rng, 95, false, true)];
        let zeros =
            EDGE_LENGTHS.iter().enumerate().map(|(i, &len)| job(&mut rng, len, true, i % 2 == 1)).collect();
        let equal = (0..19).map(|i| job(&mut rng, 12, false, i % 2 == 0)).collect();
        let two = vec![job(&mut rng, 2, false, false), job(&mut rng, 200, false, true)];
        vec![
            ("edge lengths", edge),
            ("many random lengths", many),
            ("single job", single),
            ("all zero", zeros),
            ("equal lengths", equal),
            ("one short, one long", two),
            ("empty batch", Vec::new()),
        ]
    }

    /// Runs `lockstep` over `permute8` and `permute4` on every batch, in longest-first order and
    /// in the given order, against the scalar sponge; checks it really ran passes of more than
    /// one lane, and small passes.
    fn check(
        name: &str,
        mut permute8: impl FnMut(&mut [State; BATCH_WIDTH]),
        mut permute4: impl FnMut(&mut [State; 4]),
    ) {
        let mut compared = 0;
        let mut total = Run::default();
        for (batch, jobs) in batches() {
            let expected: Vec<Fr> = jobs.iter().map(HashJob::run).collect();
            for order in [longest_first(&jobs), (0..jobs.len()).collect()] {
                let mut queue = order.into_iter();
                let mut got: Vec<Vec<Fr>> = vec![Vec::new(); jobs.len()];
                let run = lockstep(
                    &jobs,
                    || queue.next(),
                    |index, hash| got[index].push(hash),
                    &mut permute8,
                    &mut permute4,
                );
                for (index, (hashes, expected)) in got.iter().zip(&expected).enumerate() {
                    assert_eq!(
                        hashes,
                        &vec![*expected],
                        "{name}, {batch}, job {index} ({} inputs)",
                        jobs[index].inputs.len()
                    );
                    compared += 1;
                }
                let permutations: usize = jobs.iter().map(HashJob::permutations).sum();
                assert!(run.lanes + run.scalar_permutations == permutations, "{name}, {batch}: {run:?}");
                assert!(run.scalar_finishes <= 1);
                if jobs.len() >= 2 {
                    assert!(
                        run.passes > 0 && run.lanes > run.passes,
                        "{name}, {batch}: no lockstep pass: {run:?}"
                    );
                }
                total.passes += run.passes;
                total.small_passes += run.small_passes;
                total.lanes += run.lanes;
                total.scalar_finishes += run.scalar_finishes;
                total.scalar_permutations += run.scalar_permutations;
            }
        }
        let jobs: usize = batches().iter().map(|(_, jobs)| jobs.len()).sum();
        assert_eq!(compared, 2 * jobs, "{name}");
        // Lanes mostly busy (the small batches drain a few passes each), and some last jobs went
        // on alone on the scalar permutation.
        assert!(total.lanes >= 4 * total.passes, "{name}: {total:?}");
        assert!(total.scalar_finishes > 0 && total.scalar_permutations > 0, "{name}: {total:?}");
        assert!(total.small_passes > 0 && total.small_passes < total.passes, "{name}: {total:?}");
        std::eprintln!("{name}: {compared} hashes, {total:?}");
    }

    #[test]
    fn lockstep_on_the_portable_model_is_the_scalar_sponge() {
        check("portable x8 model", permute_n::<8, X8>, permute_n::<4, Xn<4>>);
    }

    #[test]
    fn lockstep_on_eight_scalar_permutations_is_the_scalar_sponge() {
        check(
            "eight scalar permutations",
            |states| states.iter_mut().for_each(permute),
            |states| states.iter_mut().for_each(permute),
        );
    }

    /// The lockstep loop on the intrinsic kernel. Where the CPU lacks AVX-512 IFMA lockstep
    /// never runs (`hash_jobs` goes one job at a time), and neither does this test: it says so,
    /// and fails if `/proc/cpuinfo` lists `avx512ifma` (a missed detection would skip it).
    #[cfg(all(target_arch = "x86_64", feature = "asm"))]
    #[test]
    fn lockstep_on_the_ifma_kernel_is_the_scalar_sponge() {
        let Some(ifma) = crate::montgomery::ifma::for_test_or_skip("lockstep on the IFMA kernels") else {
            return;
        };
        check("ifma kernel", |states| ifma.permute_x8(states), |states| ifma.permute_x4(states));
    }

    /// The public functions, on whichever path this process takes.
    #[test]
    fn hash_jobs_is_the_scalar_sponge_on_this_cpu() {
        assert_eq!(lockstep_available(), batch_arithmetic() == BatchArithmetic::Ifma);
        let mut compared = 0;
        for (batch, jobs) in batches() {
            let expected: Vec<Fr> = jobs.iter().map(HashJob::run).collect();
            assert_eq!(hash_jobs(&jobs), expected, "{batch}");
            compared += jobs.len();
            // A claim past the end ends the claims.
            let mut next = 0;
            let mut got = vec![None; jobs.len()];
            hash_claimed_jobs(
                &jobs,
                || {
                    next += 1;
                    Some(next - 1)
                },
                |index, hash| got[index] = Some(hash),
            );
            assert_eq!(got, expected.into_iter().map(Some).collect::<Vec<_>>(), "{batch}");
        }
        assert!(compared > 100);
        std::eprintln!(
            "hash_jobs: lockstep {}",
            if lockstep_available() { "on" } else { "off (one job at a time)" }
        );
    }

    #[test]
    fn longest_first_is_stable() {
        let jobs: Vec<HashJob> = [3usize, 7, 0, 7, 4, 1]
            .into_iter()
            .map(|len| HashJob::plain(vec![Fr::from(1u64); len]))
            .collect();
        // Permutations: 1, 3, 1, 3, 2, 1.
        assert_eq!(longest_first(&jobs), vec![1, 3, 4, 0, 2, 5]);
    }
}
