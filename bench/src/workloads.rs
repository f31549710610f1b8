//! The four workloads of the seed benchmark, on the native and WASM backends.
//!
//! 1. Complete commitment (every leaf from full effects, then the root): sparse, small-category
//!    and log-heavy blocks of 1, 3, 16 and 64 txs.
//! 2. 64 precomputed leaves: the internal tree (root), membership construction (tree + one
//!    witness), membership verification (a 6-step path), each also after a 300 ms idle gap.
//! 3. Tree-size sweep, 1 to 65536 leaves: root and all witnesses, with 1 thread and all threads.
//! 4. Responsiveness: four concurrent 64-tx small-category commitment loops through the async API
//!    on a 2-worker tokio runtime, with a probe task woken every millisecond; once as designed
//!    (leaf and category batches offloaded, nodes inline), once with everything inline, and the
//!    probe alone as the baseline of the measurement.
//! 5. Per-hash cost, one thread: a permutation through each backend one call at a time, the same
//!    in a 64-state batch, txfx's permutation on varied inputs (each output the next input), one
//!    tree node hash, and Noir's `bn254_blackbox_solver` permutation beside them in the same run.
//!
//! Workload 2 also builds the tree on one thread, hot and after the idle gap: the part of the
//! after-idle cost that no scheduling of helper threads can remove.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use txfx_backend_native::NativeBackend;
use txfx_backend_wasm::WasmBackend;
use txfx_membership::{BlockWitnesses, TrustedRoot, verify_leaf};
use txfx_poseidon::field::fr_to_hex;
use txfx_poseidon::{AsyncHashBackend, BackendError, DomainSeparator, Fr, HashBackend, HashJob, State};
use txfx_tx_effects::synthetic::{Profile, block};
use txfx_tx_effects::tree::TxEffectsTree;
use txfx_tx_effects::{BlockNumber, commit_block, commit_block_async};

/// Warm-ups and samples per measurement.
#[derive(Clone, Copy)]
struct Plan {
    warmups: usize,
    samples: usize,
    quick: bool,
}

/// Runs `f` `warmups + samples` times (calling `before` untimed first each time) and returns the
/// sorted sample times in milliseconds.
fn measure<T>(plan: Plan, mut before: impl FnMut(), mut f: impl FnMut() -> T) -> Vec<f64> {
    let mut times = Vec::with_capacity(plan.samples);
    for i in 0..plan.warmups + plan.samples {
        before();
        let start = Instant::now();
        std::hint::black_box(f());
        let elapsed = start.elapsed().as_secs_f64() * 1e3;
        if i >= plan.warmups {
            times.push(elapsed);
        }
    }
    times.sort_by(f64::total_cmp);
    times
}

fn median(sorted: &[f64]) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

fn record(
    workload: &str,
    name: &str,
    backend: &str,
    threads: usize,
    n: usize,
    times: &[f64],
    extra: Value,
) -> Value {
    let mut value = json!({
        "workload": workload, "name": name, "backend": backend, "threads": threads, "n": n,
        "median_ms": median(times), "min_ms": times.first(), "max_ms": times.last(), "samples": times.len(),
    });
    if let (Some(object), Value::Object(more)) = (value.as_object_mut(), extra) {
        object.extend(more);
    }
    eprintln!("bench: {workload} {name} {backend} threads={threads} n={n}: {:.3} ms", median(times));
    value
}

fn leaves(n: usize) -> Vec<Fr> {
    (0..n as u64).map(|i| Fr::from(i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)).collect()
}

fn commitment(plan: Plan, backend: &dyn HashBackend, out: &mut Vec<Value>) -> Result<(), String> {
    for profile in Profile::ALL {
        for n in [1usize, 3, 16, 64] {
            let body = block(profile, n).map_err(|e| e.to_string())?;
            let root = commit_block(backend, &body).map_err(|e| e.to_string())?.root();
            let times = measure(plan, || {}, || commit_block(backend, &body));
            let extra = json!({"profile": profile.name(), "root": fr_to_hex(&root)});
            out.push(record(
                "1-commitment",
                profile.name(),
                backend.name(),
                rayon::current_num_threads(),
                n,
                &times,
                extra,
            ));
        }
    }
    Ok(())
}

fn precomputed(
    plan: Plan,
    backend: &dyn HashBackend,
    single: &rayon::ThreadPool,
    out: &mut Vec<Value>,
) -> Result<(), String> {
    let leaves = leaves(64);
    let tree = TxEffectsTree::build(backend, leaves.clone()).map_err(|e| e.to_string())?;
    let block = BlockWitnesses::from_leaves(backend, leaves.clone(), BlockNumber::new(1))
        .map_err(|e| e.to_string())?;
    let witness = block.witness(0).map_err(|e| e.to_string())?;
    let leaf = leaves[0];
    // The bench built this tree itself: its root stands for an authenticated header's.
    let root = TrustedRoot::from_authenticated_header(tree.root());
    let threads = rayon::current_num_threads();
    for (gap, suffix) in [(Duration::ZERO, ""), (Duration::from_millis(300), "-after-idle")] {
        if plan.quick && !gap.is_zero() {
            continue;
        }
        let idle = || std::thread::sleep(gap);
        let extra = json!({"root": fr_to_hex(&root.get())});
        let times = measure(plan, idle, || TxEffectsTree::build(backend, leaves.clone()));
        out.push(record(
            "2-leaves64",
            &format!("tree{suffix}"),
            backend.name(),
            threads,
            64,
            &times,
            extra.clone(),
        ));
        let times = single.install(|| measure(plan, idle, || TxEffectsTree::build(backend, leaves.clone())));
        out.push(record(
            "2-leaves64",
            &format!("tree-1-thread{suffix}"),
            backend.name(),
            1,
            64,
            &times,
            extra.clone(),
        ));
        let times = measure(plan, idle, || {
            BlockWitnesses::from_leaves(backend, leaves.clone(), BlockNumber::new(1)).map(|b| b.witness(37))
        });
        out.push(record(
            "2-leaves64",
            &format!("witness{suffix}"),
            backend.name(),
            threads,
            64,
            &times,
            extra.clone(),
        ));
        let times = measure(plan, idle, || verify_leaf(backend, leaf, &witness, root));
        out.push(record(
            "2-leaves64",
            &format!("verify{suffix}"),
            backend.name(),
            threads,
            64,
            &times,
            extra,
        ));
    }
    Ok(())
}

fn sweep(
    plan: Plan,
    backend: &dyn HashBackend,
    single: &rayon::ThreadPool,
    out: &mut Vec<Value>,
) -> Result<(), String> {
    let sizes: &[usize] = if plan.quick && backend.name() == "wasm" {
        // The WASM backend is single-threaded: 65536 leaves take seconds per sample.
        &[1, 3, 16, 64, 256, 1024, 4096]
    } else {
        &[1, 3, 16, 64, 256, 1024, 4096, 65536]
    };
    for &n in sizes {
        let leaves = leaves(n);
        let root = TxEffectsTree::build(backend, leaves.clone()).map_err(|e| e.to_string())?.root();
        let extra = json!({"root": fr_to_hex(&root)});
        for threads in [1usize, rayon::current_num_threads()] {
            let run =
                |f: &mut (dyn FnMut() -> Vec<f64> + Send)| if threads == 1 { single.install(f) } else { f() };
            let plan = if n >= 65536 { Plan { samples: plan.samples.min(5), ..plan } } else { plan };
            let times = run(&mut || measure(plan, || {}, || TxEffectsTree::build(backend, leaves.clone())));
            out.push(record("3-sweep", "root", backend.name(), threads, n, &times, extra.clone()));
            let times = run(&mut || {
                measure(
                    plan,
                    || {},
                    || {
                        BlockWitnesses::from_leaves(backend, leaves.clone(), BlockNumber::new(1))
                            .map(|b| b.all().len())
                    },
                )
            });
            out.push(record("3-sweep", "all-witnesses", backend.name(), threads, n, &times, extra.clone()));
        }
    }
    Ok(())
}

/// Runs `op` `calls` times per sample and records the median time per permutation (`op` does
/// `permutations` of them), in milliseconds.
fn per_call(
    plan: Plan,
    (name, backend): (&str, &str),
    calls: usize,
    permutations: usize,
    mut op: impl FnMut() -> Result<(), String>,
    out: &mut Vec<Value>,
) -> Result<(), String> {
    op()?;
    let mut failure = Ok(());
    let mut times = measure(
        plan,
        || {},
        || {
            for _ in 0..calls {
                if let Err(e) = op() {
                    failure = Err(e);
                }
            }
        },
    );
    failure?;
    for time in &mut times {
        *time /= (calls * permutations) as f64;
    }
    out.push(record("5-hash", name, backend, 1, permutations, &times, json!({"calls_per_sample": calls})));
    Ok(())
}

fn permute(backend: &dyn HashBackend, states: &mut [State]) -> Result<(), String> {
    backend.permute_batch(states).map_err(|e| e.to_string())
}

/// Workload 5 for one backend, on one thread: milliseconds per permutation.
fn per_hash(
    plan: Plan,
    backend: &dyn HashBackend,
    single: &rayon::ThreadPool,
    out: &mut Vec<Value>,
) -> Result<(), String> {
    let calls = if plan.quick { 20 } else { 200 };
    let name = backend.name();
    let start: State = [Fr::from(1u64), Fr::from(2u64), Fr::from(3u64), Fr::from(4u64)];
    let mut state = start;
    single.install(|| {
        // One permutation per call: each output is the next input.
        per_call(
            plan,
            ("single", name),
            calls,
            1,
            || permute(backend, std::slice::from_mut(&mut state)),
            out,
        )?;
        // 64 independent states per call, timed per permutation.
        let mut batch: Vec<State> = (0..64u64).map(|i| start.map(|x| x + Fr::from(i))).collect();
        let batches = if plan.quick { 1 } else { 4 };
        per_call(plan, ("batch-64", name), batches, 64, || permute(backend, &mut batch), out)?;
        // One tree node: the pair's state, the permutation, the output lane.
        let pair = [[Fr::from(5u64), Fr::from(6u64)]];
        per_call(
            plan,
            ("node", name),
            calls,
            1,
            || {
                backend
                    .hash_level(DomainSeparator::TX_EFFECTS_TREE, &pair)
                    .map(drop)
                    .map_err(|e| e.to_string())
            },
            out,
        )
    })?;
    if name == "native" {
        // The core function itself, without a backend around it, on varied inputs.
        let mut state = start;
        per_call(
            plan,
            ("core-chained", name),
            calls,
            1,
            || {
                txfx_poseidon::permute(&mut state);
                Ok(())
            },
            out,
        )?;
        // The scalar product alone, never the vector units: what a CPU without AVX-512 IFMA runs
        // (the same as `core-chained` there).
        let mut state = start;
        per_call(
            plan,
            ("scalar-chained", name),
            calls,
            1,
            || {
                txfx_poseidon::permutation::permute_scalar(&mut state);
                Ok(())
            },
            out,
        )?;
        // Noir's permutation, what a Rust user would otherwise call, on the same inputs.
        let noir: Vec<acir::FieldElement> = start.iter().map(|x| acir::FieldElement::from_repr(*x)).collect();
        per_call(
            plan,
            ("single", "bn254_blackbox_solver"),
            calls,
            1,
            || {
                bn254_blackbox_solver::poseidon2_permutation(std::hint::black_box(&noir))
                    .map(drop)
                    .map_err(|e| e.to_string())
            },
            out,
        )?;
    }
    Ok(())
}

/// The 1 ms probe of workload 4, run on `runtime` until `stop` is set: the delay of every tick
/// from the moment it is due until the probe task runs, in milliseconds.
///
/// The ticks come from a thread of their own sleeping until each tick is due (a high-resolution
/// timer) and reach the probe task through a channel. Tokio's own timer has millisecond granularity:
/// `tokio::time::sleep(1 ms)` wakes 0–1 ms late on an idle runtime, which would hide the
/// executor's scheduling delay, the thing this workload measures, under up to 1 ms of rounding.
fn probe(
    runtime: &tokio::runtime::Runtime,
    stop: Arc<std::sync::atomic::AtomicBool>,
) -> Result<tokio::task::JoinHandle<Vec<f64>>, String> {
    use futures::StreamExt;
    let (ticks, mut received) = futures::channel::mpsc::unbounded::<Instant>();
    let timer = std::thread::Builder::new().name("probe-timer".to_owned());
    timer
        .spawn(move || {
            // Tick k is due at start + k ms; a tick the timer thread itself sends late keeps its
            // due time, so the thread's own wake-up delay is counted too.
            let mut due = Instant::now();
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                due += Duration::from_millis(1);
                std::thread::sleep(due.saturating_duration_since(Instant::now()));
                if ticks.unbounded_send(due).is_err() {
                    return;
                }
            }
        })
        .map_err(|e| format!("workload 4: the probe's timer thread: {e}"))?;
    Ok(runtime.spawn(async move {
        let mut delays = Vec::new();
        while let Some(due) = received.next().await {
            delays.push(due.elapsed().as_secs_f64() * 1e3);
        }
        delays
    }))
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted.get(((sorted.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or(f64::NAN)
}

/// Workload 4 for one hasher: ops/s and probe delays; `None` runs the probe alone, the idle
/// baseline of the measurement itself.
fn responsiveness(
    seconds: f64,
    hasher: Option<Arc<dyn AsyncHashBackend>>,
    mode: &str,
    out: &mut Vec<Value>,
) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_time()
        .build()
        .map_err(|e| e.to_string())?;
    let body = Arc::new(block(Profile::SmallCategories, 64).map_err(|e| e.to_string())?);
    let started = Instant::now();
    let deadline = started + Duration::from_secs_f64(seconds);
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let probe = probe(&runtime, stop.clone())?;
    let loops: Vec<_> = (0..4)
        .filter_map(|_| {
            let (hasher, body) = (hasher.clone()?, body.clone());
            Some(runtime.spawn(async move {
                let mut done = 0u64;
                while Instant::now() < deadline {
                    if commit_block_async(hasher.as_ref(), &body).await.is_ok() {
                        done += 1;
                    }
                }
                done
            }))
        })
        .collect();
    let (ops, mut delays) = runtime.block_on(async {
        let mut ops = 0;
        for handle in loops {
            ops += handle.await.unwrap_or(0);
        }
        // The probe runs until the deadline even without loops (the idle baseline).
        tokio::time::sleep_until(deadline.into()).await;
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        (ops, probe.await.unwrap_or_default())
    });
    delays.sort_by(f64::total_cmp);
    if delays.is_empty() {
        return Err(format!("workload 4 {mode}: the probe recorded no tick"));
    }
    let value = json!({
        "workload": "4-responsiveness", "name": mode,
        "backend": hasher.as_ref().map_or("none", |h| h.backend_name()), "threads": 2, "n": 64,
        "ops_per_s": ops as f64 / started.elapsed().as_secs_f64(),
        "probe_p50_ms": percentile(&delays, 0.5), "probe_p95_ms": percentile(&delays, 0.95),
        "probe_max_ms": delays.last(), "probes": delays.len(),
    });
    eprintln!("bench: {value}");
    out.push(value);
    Ok(())
}

/// The machine as the report names it: the CPU's model name, family and model (machines of one
/// kind differ: an AMD EPYC is a Zen 3 or a Zen 4), cores, and the arithmetic this process took
/// on it (the products and the batch path are chosen at run time).
fn machine() -> Value {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |key: &str| {
        cpuinfo
            .lines()
            .find(|l| l.split(':').next().is_some_and(|k| k.trim() == key))
            .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_owned())
    };
    json!({
        "cpu": field("model name").unwrap_or_else(|| "unknown".to_owned()),
        "cpu_family": field("cpu family"),
        "cpu_model": field("model"),
        "cores": std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
        "arithmetic": txfx_poseidon::permutation::arithmetic().to_string(),
        "batch_arithmetic": txfx_poseidon::permutation::batch_arithmetic().to_string(),
    })
}

/// Runs the workloads numbered in `only` (every workload when empty) on every backend and writes
/// the results JSON.
pub fn run(quick: bool, only: &[u8], out_path: &str) -> Result<(), String> {
    let wanted = |workload: u8| only.is_empty() || only.contains(&workload);
    let plan =
        if quick { Plan { warmups: 1, samples: 3, quick } } else { Plan { warmups: 3, samples: 15, quick } };
    let native = NativeBackend::new();
    let wasm = WasmBackend::new().map_err(|e| e.to_string())?;
    let backends: [&dyn HashBackend; 2] = [&native, &wasm];
    // The one-thread pool of workloads 2, 3 and 5.
    let single = rayon::ThreadPoolBuilder::new().num_threads(1).build().map_err(|e| e.to_string())?;
    let mut results = Vec::new();
    for backend in backends {
        if wanted(1) {
            commitment(plan, backend, &mut results)?;
        }
        if wanted(2) {
            precomputed(plan, backend, &single, &mut results)?;
        }
        if wanted(3) {
            sweep(plan, backend, &single, &mut results)?;
        }
        if wanted(5) {
            per_hash(plan, backend, &single, &mut results)?;
        }
    }
    if wanted(2) {
        // The opt-in pinned helpers, side by side with the default (rayon's pool): what they buy
        // a small tree after an idle gap is the documented reason to opt in.
        let pinned = NativeBackend::new().with_pinned_helpers();
        precomputed(plan, &pinned, &single, &mut results)?;
    }
    if wanted(4) {
        let seconds = if quick { 1.0 } else { 3.0 };
        responsiveness(1.0, None, "idle", &mut results)?;
        // The design: each backend's own async policy (batches off the executor: native on the
        // background pool, shared; levels on the caller's thread). Inline: the plain
        // blanket impl, every batch on the executor thread.
        responsiveness(seconds, Some(Arc::new(native.asynchronous())), "design", &mut results)?;
        responsiveness(seconds, Some(Arc::new(native)), "inline", &mut results)?;
        responsiveness(seconds, Some(Arc::new(wasm.asynchronous())), "design", &mut results)?;
        responsiveness(seconds, Some(Arc::new(wasm)), "inline", &mut results)?;
    }
    let document = json!({
        "tool": "txfx", "version": env!("CARGO_PKG_VERSION"), "quick": quick,
        "profile": if cfg!(debug_assertions) { "dev" } else { "release" },
        "machine": machine(),
        "date_unix": std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0),
        "samples": plan.samples, "warmups": plan.warmups, "results": results,
    });
    let text = serde_json::to_string_pretty(&document).map_err(|e| e.to_string())?;
    std::fs::write(out_path, text).map_err(|e| format!("{out_path}: {e}"))
}

/// Records every batch a commitment hashes, so the reference can replay the same preimages.
struct Recorder {
    stages: std::sync::Mutex<Vec<(Vec<HashJob>, Vec<Fr>)>>,
}

impl HashBackend for Recorder {
    fn name(&self) -> &'static str {
        "recorder"
    }
    fn permute_batch(&self, states: &mut [State]) -> Result<(), BackendError> {
        txfx_poseidon::Sequential.permute_batch(states)
    }
    fn hash_batch(&self, jobs: &[HashJob]) -> Result<Vec<Fr>, BackendError> {
        let out = txfx_poseidon::Sequential.hash_batch(jobs)?;
        if let Ok(mut stages) = self.stages.lock() {
            stages.push((jobs.to_vec(), out.clone()));
        }
        Ok(out)
    }
}

/// The preimages of one block's commitment as stages of jobs; an input equal to an earlier
/// stage's output becomes a reference `[stage, job]`, so the reference recomputes it itself.
fn commitment_stages(body: &txfx_tx_effects::Body) -> Result<(Value, Fr), String> {
    let recorder = Recorder { stages: std::sync::Mutex::new(Vec::new()) };
    let root = commit_block(&recorder, body).map_err(|e| e.to_string())?.root();
    let stages = recorder.stages.into_inner().map_err(|e| e.to_string())?;
    let mut produced = std::collections::HashMap::new();
    let mut out = Vec::new();
    for (s, (jobs, outputs)) in stages.iter().enumerate() {
        let stage: Vec<Value> = jobs
            .iter()
            .map(|job| {
                let inputs: Vec<Value> = job
                    .inputs
                    .iter()
                    .map(|x| match produced.get(x) {
                        Some((stage, index)) => json!([stage, index]),
                        None => json!(fr_to_hex(x)),
                    })
                    .collect();
                json!({"s": job.separator.map(DomainSeparator::value), "i": inputs})
            })
            .collect();
        out.push(Value::Array(stage));
        for (index, value) in outputs.iter().enumerate() {
            produced.entry(*value).or_insert((s, index));
        }
    }
    Ok((Value::Array(out), root))
}

/// Writes what the reference benchmark needs: the commitment stages of every profile and size,
/// the 64 precomputed leaves and the sweep sizes, each with the root txfx computed.
pub fn export(quick: bool, out_path: &str) -> Result<(), String> {
    let mut commitments = Vec::new();
    for profile in Profile::ALL {
        for n in [1usize, 3, 16, 64] {
            let body = block(profile, n).map_err(|e| e.to_string())?;
            let (stages, root) = commitment_stages(&body)?;
            commitments
                .push(json!({"profile": profile.name(), "n": n, "stages": stages, "root": fr_to_hex(&root)}));
        }
    }
    let sweep: Vec<Value> = [1usize, 3, 16, 64, 256, 1024, 4096, 65536]
        .iter()
        .filter_map(|&n| {
            let tree = TxEffectsTree::build(&txfx_poseidon::Sequential, leaves(n)).ok()?;
            Some(json!({"n": n, "root": fr_to_hex(&tree.root())}))
        })
        .collect();
    let leaves64 = leaves(64);
    let root64 =
        TxEffectsTree::build(&txfx_poseidon::Sequential, leaves64.clone()).map_err(|e| e.to_string())?.root();
    let document = json!({
        "quick": quick,
        "samples": if quick { 1 } else { 15 }, "warmups": if quick { 0 } else { 3 },
        "separators": {"tree": DomainSeparator::TX_EFFECTS_TREE.value()},
        "leaf_formula": "leaf_i = (i * 0x9e3779b97f4a7c15 mod 2^64) | 1",
        "commitment": commitments,
        "leaves64": {"root": fr_to_hex(&root64), "witness_index": 37, "verify_index": 0},
        "sweep": sweep,
    });
    std::fs::write(out_path, document.to_string()).map_err(|e| format!("{out_path}: {e}"))
}
