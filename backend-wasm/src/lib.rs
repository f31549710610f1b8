#![doc = include_str!("../README.md")]

use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, OnceLock};

use txfx_poseidon::field::{fr_from_be_slice, fr_to_be_bytes};
use txfx_poseidon::{
    BackendError, DomainSeparator, Fr, HashBackend, HashJob, Offload, Offloaded, Operation, State,
};
use wasmtime::{Engine, Instance, Memory, Module, Store, TypedFunc};

/// The guest module, built reproducibly by `cargo xtask wasm-guest`.
pub static GUEST_WASM: &[u8] = include_bytes!("../guest.wasm");

/// The SHA-256 of the guest's sources the committed module was built from.
pub static GUEST_SOURCES_SHA256: &str = include_str!("../guest.wasm.sources-sha256");

const NAME: &str = "wasm";

/// The WASM backend could not start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the wasm backend cannot start: {reason}")]
pub struct StartError {
    /// What wasmtime reported.
    pub reason: String,
}

/// The compiled module, shared by every backend handle in the process.
struct Compiled {
    engine: Engine,
    module: Module,
}

static COMPILED: OnceLock<Result<Arc<Compiled>, StartError>> = OnceLock::new();

fn compiled() -> Result<Arc<Compiled>, StartError> {
    COMPILED
        .get_or_init(|| {
            let engine = Engine::default();
            let module =
                Module::new(&engine, GUEST_WASM).map_err(|error| StartError { reason: error.to_string() })?;
            Ok(Arc::new(Compiled { engine, module }))
        })
        .clone()
}

/// One instance of the guest with its exports.
struct Guest {
    store: Store<()>,
    memory: Memory,
    scratch: TypedFunc<u32, u32>,
    permute: TypedFunc<u32, u32>,
    hash_nodes: TypedFunc<(u32, u32), u32>,
    hash_batch: TypedFunc<u32, u32>,
}

fn backend_error(operation: Operation, reason: impl std::fmt::Display) -> BackendError {
    BackendError::Failed { backend: NAME, operation, reason: reason.to_string() }
}

impl Guest {
    fn new(compiled: &Compiled) -> Result<Self, StartError> {
        let fail = |error: wasmtime::Error| StartError { reason: error.to_string() };
        let mut store = Store::new(&compiled.engine, ());
        let instance = Instance::new(&mut store, &compiled.module, &[]).map_err(fail)?;
        let memory = instance
            .get_memory(&mut store, "memory")
            .ok_or(StartError { reason: "the guest exports no memory".to_owned() })?;
        Ok(Self {
            scratch: instance.get_typed_func(&mut store, "txfx_scratch").map_err(fail)?,
            permute: instance.get_typed_func(&mut store, "txfx_permute").map_err(fail)?,
            hash_nodes: instance.get_typed_func(&mut store, "txfx_hash_nodes").map_err(fail)?,
            hash_batch: instance.get_typed_func(&mut store, "txfx_hash_batch").map_err(fail)?,
            memory,
            store,
        })
    }

    /// Writes `input` to the scratch buffer, runs `call`, and reads `output_words` words back.
    fn run(
        &mut self,
        operation: Operation,
        input: &[u8],
        output_words: usize,
        call: impl FnOnce(&mut Self) -> wasmtime::Result<u32>,
    ) -> Result<Vec<Fr>, BackendError> {
        let size = input.len().max(32 * output_words);
        let size = u32::try_from(size).map_err(|_| backend_error(operation, "batch larger than 4 GiB"))?;
        let pointer =
            self.scratch.call(&mut self.store, size).map_err(|e| backend_error(operation, e))? as usize;
        self.memory.write(&mut self.store, pointer, input).map_err(|e| backend_error(operation, e))?;
        let status = call(self).map_err(|e| backend_error(operation, e))?;
        if status != 0 {
            return Err(backend_error(operation, format!("guest returned status {status}")));
        }
        let mut bytes = vec![0u8; 32 * output_words];
        self.memory.read(&self.store, pointer, &mut bytes).map_err(|e| backend_error(operation, e))?;
        bytes
            .chunks_exact(32)
            .map(|word| fr_from_be_slice(word).map_err(|e| backend_error(operation, e)))
            .collect()
    }
}

fn words(values: impl IntoIterator<Item = Fr>) -> Vec<u8> {
    values.into_iter().flat_map(|value| fr_to_be_bytes(&value)).collect()
}

fn count(operation: Operation, n: usize) -> Result<u32, BackendError> {
    u32::try_from(n).map_err(|_| backend_error(operation, "too many items for one call"))
}

/// The WASM backend. Cheap to clone; clones share the compiled module and the instance pool.
#[derive(Clone)]
pub struct WasmBackend {
    compiled: Arc<Compiled>,
    pool: Arc<Mutex<Vec<Guest>>>,
}

impl std::fmt::Debug for WasmBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WasmBackend").finish_non_exhaustive()
    }
}

impl WasmBackend {
    /// Compiles the guest (once per process) and instantiates it once, so that a backend that
    /// cannot run fails here rather than at its first hash.
    ///
    /// # Errors
    /// [`StartError`] if wasmtime cannot compile or instantiate the guest.
    pub fn new() -> Result<Self, StartError> {
        let compiled = compiled()?;
        let first = Guest::new(&compiled)?;
        Ok(Self { compiled, pool: Arc::new(Mutex::new(vec![first])) })
    }

    /// Runs `f` on an instance of the pool (a new one if all are busy), then returns it.
    fn with_guest<T>(
        &self,
        operation: Operation,
        f: impl FnOnce(&mut Guest) -> Result<T, BackendError>,
    ) -> Result<T, BackendError> {
        let idle = self.pool.lock().map_err(|_| backend_error(operation, "instance pool poisoned"))?.pop();
        let mut guest = match idle {
            Some(guest) => guest,
            None => Guest::new(&self.compiled).map_err(|e| backend_error(operation, e.reason))?,
        };
        let result = f(&mut guest);
        // An instance whose call failed may hold a trapped state; only healthy ones go back.
        if result.is_ok()
            && let Ok(mut pool) = self.pool.lock()
        {
            pool.push(guest);
        }
        result
    }

    /// The backend for async callers: every async batch runs on txfx's WASM worker threads (one
    /// per core, named `txfx-wasm-N`, at [`WORKER_NICE`] on Linux), each call on an instance of the pool that no other
    /// thread uses meanwhile, so a leaf batch never blocks the executor; tree levels stay on the
    /// caller's thread through the synchronous fast path, as in the reference.
    pub fn asynchronous(&self) -> AsyncWasmBackend {
        Offloaded::new(self.clone(), self.clone(), Arc::new(WorkerOffload))
    }

    /// Instances currently idle in the pool (for tests and diagnostics).
    pub fn idle_instances(&self) -> usize {
        self.pool.lock().map(|pool| pool.len()).unwrap_or(0)
    }
}

/// [`WasmBackend::asynchronous`]: batches on the WASM workers, tree levels on the caller's thread.
pub type AsyncWasmBackend = Offloaded<WasmBackend, WasmBackend>;

type Task = Box<dyn FnOnce() + Send + 'static>;

/// The WASM worker threads, started on first use: they share one queue of tasks.
struct Workers {
    queue: Mutex<Sender<Task>>,
}

static WORKERS: OnceLock<Option<Workers>> = OnceLock::new();

/// Worker threads: one per core. They run at [`WORKER_NICE`] on Linux, so an executor thread that
/// wakes up preempts them at once.
fn worker_count() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Nice value of the WASM workers: below the caller's threads (nice 0), as the native backend's
/// background pool (`txfx_backend_native::BACKGROUND_NICE`).
pub const WORKER_NICE: i32 = 10;

/// Lowers the calling thread's priority to [`WORKER_NICE`], best effort (no privilege needed;
/// a sandbox that refuses leaves the worker at priority 0).
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        let _ = rustix::process::setpriority_process(Some(rustix::thread::gettid()), WORKER_NICE);
    }
}

fn workers() -> Option<&'static Workers> {
    WORKERS
        .get_or_init(|| {
            let (sender, receiver) = channel::<Task>();
            let receiver = Arc::new(Mutex::new(receiver));
            let mut started = 0;
            for index in 0..worker_count() {
                let receiver = receiver.clone();
                let spawned =
                    std::thread::Builder::new().name(format!("txfx-wasm-{index}")).spawn(move || {
                        lower_priority();
                        work(&receiver);
                    });
                started += usize::from(spawned.is_ok());
            }
            (started > 0).then(|| Workers { queue: Mutex::new(sender) })
        })
        .as_ref()
}

/// A worker's loop: take the next task, run it, until the queue closes.
fn work(receiver: &Mutex<Receiver<Task>>) {
    loop {
        let task = match receiver.lock() {
            Ok(receiver) => receiver.recv(),
            Err(_) => return,
        };
        match task {
            Ok(task) => task(),
            Err(_) => return,
        }
    }
}

/// Sends async batches to the WASM workers. A task that cannot be queued (no worker could start)
/// is dropped, and its caller gets `BackendError::WorkerGone`, never a silent inline run.
struct WorkerOffload;

impl Offload for WorkerOffload {
    fn spawn(&self, task: Box<dyn FnOnce() + Send + 'static>) {
        if let Some(queue) = workers().and_then(|workers| workers.queue.lock().ok()) {
            // A send fails only when every worker has gone; the dropped task reports it.
            let _ = queue.send(task);
        }
    }
}

impl HashBackend for WasmBackend {
    fn name(&self) -> &'static str {
        NAME
    }

    fn permute_batch(&self, states: &mut [State]) -> Result<(), BackendError> {
        if states.is_empty() {
            return Ok(());
        }
        let operation = Operation::PermuteBatch;
        let n = count(operation, states.len())?;
        let input = words(states.iter().flatten().copied());
        let out = self.with_guest(operation, |g| {
            g.run(operation, &input, 4 * states.len(), |g| g.permute.call(&mut g.store, n))
        })?;
        for (state, lanes) in states.iter_mut().zip(out.chunks_exact(4)) {
            state.copy_from_slice(lanes);
        }
        Ok(())
    }

    fn hash_batch(&self, jobs: &[HashJob]) -> Result<Vec<Fr>, BackendError> {
        if jobs.is_empty() {
            return Ok(Vec::new());
        }
        let operation = Operation::HashBatch;
        let n = count(operation, jobs.len())?;
        let mut input = Vec::with_capacity(jobs.iter().map(|job| 12 + 32 * job.inputs.len()).sum());
        for job in jobs {
            let (has_separator, separator) = job.separator.map_or((0u32, 0u32), |s| (1, s.value()));
            input.extend_from_slice(&has_separator.to_le_bytes());
            input.extend_from_slice(&separator.to_le_bytes());
            input.extend_from_slice(&count(operation, job.inputs.len())?.to_le_bytes());
            input.extend(words(job.inputs.iter().copied()));
        }
        self.with_guest(operation, |g| {
            g.run(operation, &input, jobs.len(), |g| g.hash_batch.call(&mut g.store, n))
        })
    }

    fn hash_level(&self, separator: DomainSeparator, pairs: &[[Fr; 2]]) -> Result<Vec<Fr>, BackendError> {
        if pairs.is_empty() {
            return Ok(Vec::new());
        }
        let operation = Operation::HashLevel;
        let n = count(operation, pairs.len())?;
        let input = words(pairs.iter().flatten().copied());
        self.with_guest(operation, |g| {
            g.run(operation, &input, pairs.len(), |g| g.hash_nodes.call(&mut g.store, (n, separator.value())))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use txfx_poseidon::{HashBackendExt, Sequential};

    #[test]
    fn concurrent_callers_get_their_own_instances_and_agree() {
        let wasm = WasmBackend::new().unwrap();
        let separator = DomainSeparator::TX_EFFECTS_TREE;
        let results: Vec<Vec<Fr>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..4u64)
                .map(|t| {
                    let wasm = wasm.clone();
                    scope.spawn(move || {
                        let pairs: Vec<[Fr; 2]> = (0..50).map(|i| [Fr::from(t), Fr::from(i)]).collect();
                        let first = wasm.hash_level(separator, &pairs).unwrap();
                        for _ in 0..4 {
                            assert_eq!(wasm.hash_level(separator, &pairs).unwrap(), first);
                        }
                        first
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for (t, got) in results.iter().enumerate() {
            let pairs: Vec<[Fr; 2]> = (0..50).map(|i| [Fr::from(t as u64), Fr::from(i)]).collect();
            assert_eq!(got, &Sequential.hash_level(separator, &pairs).unwrap());
        }
        assert!(wasm.idle_instances() >= 1);
    }

    #[test]
    fn empty_batches_and_large_inputs() {
        let wasm = WasmBackend::new().unwrap();
        assert_eq!(wasm.hash_level(DomainSeparator::TX_EFFECTS_TREE, &[]).unwrap(), Vec::<Fr>::new());
        assert_eq!(wasm.hash_batch(&[]).unwrap(), Vec::<Fr>::new());
        let long: Vec<Fr> = (0..3023u64).map(Fr::from).collect();
        assert_eq!(wasm.hash(&long).unwrap(), Sequential.hash(&long).unwrap());
        assert_eq!(wasm.hash(&[]).unwrap(), Sequential.hash(&[]).unwrap());
    }

    #[test]
    fn async_batches_run_on_the_wasm_workers_and_levels_on_the_caller() {
        use txfx_poseidon::AsyncHashBackend;
        let wasm = WasmBackend::new().unwrap();
        let asynchronous = wasm.asynchronous();
        let jobs: Vec<HashJob> = (0..8u64).map(|i| HashJob::plain(vec![Fr::from(i)])).collect();
        let expected = Sequential.hash_batch(&jobs).unwrap();
        let caller = std::thread::current().id();
        let got = futures::executor::block_on(asynchronous.hash_batch_async(jobs)).unwrap();
        assert_eq!(got, expected);
        // The batch ran on a worker: the worker threads exist and are named.
        assert!(workers().is_some());
        let (sender, receiver) = channel();
        WorkerOffload.spawn(Box::new(move || {
            let thread = std::thread::current();
            sender.send((thread.id(), thread.name().map(str::to_owned))).unwrap();
        }));
        let (id, name) = receiver.recv().unwrap();
        assert_ne!(id, caller);
        assert!(name.unwrap().starts_with("txfx-wasm-"));
        assert!(asynchronous.sync_fast_path().is_some(), "tree levels stay on the caller's thread");
    }

    #[test]
    fn the_embedded_module_is_recorded() {
        assert!(GUEST_WASM.starts_with(b"\0asm"));
        assert_eq!(GUEST_SOURCES_SHA256.trim().len(), 64);
    }
}
