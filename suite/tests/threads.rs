//! What threads a process that hashes through txfx starts, read from `/proc/self/task` (Linux).
//!
//! Its own process (`harness = false`): the test harness's threads, and other tests' pools,
//! would otherwise be counted too. Each step does what an application does, then compares the
//! process's threads with the step before:
//!
//! 1. synchronous hashing on the native backend: no thread of txfx's own; the only new threads
//!    are rayon's global pool (the application's, sized by `RAYON_NUM_THREADS`), none pinned;
//! 2. synchronous hashing on the WASM backend: no new thread;
//! 3. async hashing on the native backend: one background pool, `txfx-bg-N`, one thread per
//!    core, unpinned, at nice 10 where the system lets a thread lower itself;
//! 4. async hashing on the WASM backend: no new thread (the same pool);
//! 5. the opt-in pinned helpers: now, and only now, threads bound to one CPU each (which shows
//!    this test can see a pinned thread when there is one).

// Test code: a failed expectation is a failed test.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::print_stdout)]

use std::collections::BTreeMap;

use txfx_backends::{BackendChoice, NativeBackend, select_backend};
use txfx_poseidon::pool::{BACKGROUND_NICE, BackgroundPool, PoolConfig, PoolError};
use txfx_poseidon::{AsyncHashBackend, DomainSeparator, Fr, HashBackend, HashJob};

/// One thread of this process: its name and the CPUs it may run on.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Task {
    name: String,
    cpus: String,
    nice: i64,
}

fn field(status: &str, key: &str) -> String {
    status
        .lines()
        .find_map(|line| line.strip_prefix(key))
        .map(|value| value.trim().to_owned())
        .unwrap_or_else(|| panic!("{key} in /proc status"))
}

/// The process's threads by id.
fn tasks() -> BTreeMap<u32, Task> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir("/proc/self/task").expect("/proc/self/task") {
        let path = entry.expect("entry").path();
        let id: u32 = path.file_name().unwrap().to_string_lossy().parse().expect("a thread id");
        // A thread may end between the listing and the read: skip it.
        let (Ok(status), Ok(stat)) =
            (std::fs::read_to_string(path.join("status")), std::fs::read_to_string(path.join("stat")))
        else {
            continue;
        };
        // Field 19 of stat is the nice value; fields start after the parenthesised name.
        let after_name = &stat[stat.rfind(')').expect("stat") + 2..];
        let nice = after_name.split(' ').nth(16).expect("nice").parse().expect("a number");
        out.insert(
            id,
            Task { name: field(&status, "Name:"), cpus: field(&status, "Cpus_allowed_list:"), nice },
        );
    }
    out
}

/// Threads present now and not in `before`.
fn new_threads(before: &BTreeMap<u32, Task>) -> Vec<Task> {
    tasks().into_iter().filter(|(id, _)| !before.contains_key(id)).map(|(_, task)| task).collect()
}

fn level() -> Vec<[Fr; 2]> {
    (0..512u64).map(|i| [Fr::from(i), Fr::from(i + 1)]).collect()
}

fn jobs() -> Vec<HashJob> {
    (0..64u64).map(|i| HashJob::plain((0..40).map(|j| Fr::from(i * 40 + j)).collect())).collect()
}

#[cfg(not(target_os = "linux"))]
fn main() {
    println!("threads: SKIPPED, not Linux: /proc/self/task is how this test sees threads");
}

#[cfg(target_os = "linux")]
fn main() {
    let process_cpus =
        field(&std::fs::read_to_string("/proc/self/status").expect("status"), "Cpus_allowed_list:");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let separator = DomainSeparator::TX_EFFECTS_TREE;
    let start = tasks();
    assert_eq!(start.len(), 1, "the test starts alone: {start:?}");

    // 1. Synchronous, native: rayon's global pool at most, nothing of txfx's own, nothing pinned.
    let native = select_backend(BackendChoice::Native).expect("native");
    native.hash_level(separator, &level()).expect("hashed");
    native.hash_batch(&jobs()).expect("hashed");
    let step1 = new_threads(&start);
    assert!(step1.len() <= rayon::current_num_threads(), "more threads than rayon's pool: {step1:?}");
    for task in &step1 {
        assert!(!task.name.starts_with("txfx-"), "sync hashing started a txfx thread: {task:?}");
        assert_eq!(task.cpus, process_cpus, "a pinned thread: {task:?}");
    }
    println!(
        "threads: sync native started {} (rayon's global pool, {} threads)",
        step1.len(),
        rayon::current_num_threads()
    );
    let after1 = tasks();

    // 2. Synchronous, WASM: nothing.
    let wasm = select_backend(BackendChoice::Wasm).expect("wasm");
    wasm.hash_level(separator, &level()).expect("hashed");
    wasm.hash_batch(&jobs()).expect("hashed");
    let step2 = new_threads(&after1);
    assert!(step2.is_empty(), "sync WASM hashing started threads: {step2:?}");
    assert!(!BackgroundPool::global_started(), "nothing async ran yet, the pool must not exist");

    // 3. Async, native: one background pool, one thread per core, unpinned, lowered.
    futures::executor::block_on(native.asynchronous().hash_batch_async(jobs())).expect("hashed");
    let step3 = new_threads(&after1);
    assert_eq!(step3.len(), cores, "one background thread per core: {step3:?}");
    let lowered = std::thread::spawn(|| {
        rustix::process::setpriority_process(Some(rustix::thread::gettid()), BACKGROUND_NICE).is_ok()
    })
    .join()
    .expect("probe thread");
    for task in &step3 {
        assert!(task.name.starts_with("txfx-bg-"), "{task:?}");
        assert_eq!(task.cpus, process_cpus, "a pinned thread: {task:?}");
        assert_eq!(task.nice, if lowered { i64::from(BACKGROUND_NICE) } else { 0 }, "{task:?}");
    }
    assert_eq!(
        BackgroundPool::configure_global(PoolConfig { threads: cores + 1, lower_priority: true }),
        Err(PoolError::AlreadyConfigured { threads: cores }),
        "a started pool cannot be resized"
    );
    let after3 = tasks();

    // 4. Async, WASM: the same pool.
    futures::executor::block_on(wasm.asynchronous().hash_batch_async(jobs())).expect("hashed");
    let step4 = new_threads(&after3);
    assert!(step4.is_empty(), "async WASM started threads of its own: {step4:?}");
    let sets = usize::from(!step1.is_empty()) + usize::from(!step3.is_empty());
    println!(
        "threads: a default process holds {sets} thread sets: rayon's global pool ({}) and txfx-bg ({})",
        step1.len(),
        step3.len()
    );

    // 5. Opted in: pinned helpers, each bound to one CPU.
    let pinned = NativeBackend::with_parallel_threshold(1).with_pinned_helpers();
    pinned.hash_level(separator, &level()).expect("hashed");
    let step5 = new_threads(&after3);
    let binds = std::thread::spawn(|| {
        let mut set = rustix::thread::CpuSet::new();
        set.set(rustix::thread::sched_getcpu());
        rustix::thread::sched_setaffinity(None, &set).is_ok()
    })
    .join()
    .expect("probe thread");
    if !binds {
        println!("threads: SKIPPED step 5: this system refuses to bind threads, so no helper can be pinned");
    } else if process_cpus.contains(['-', ',']) {
        assert!(!step5.is_empty(), "pinned helpers opted in, none started");
        for task in &step5 {
            assert!(task.name.starts_with("txfx-share-"), "{task:?}");
            assert_ne!(task.cpus, process_cpus, "an opted-in helper that is not pinned: {task:?}");
        }
    } else {
        println!("threads: one CPU ({process_cpus}): no other CPU to pin a helper to, step 5 checks nothing");
    }
    println!("threads: every step as expected");
}
