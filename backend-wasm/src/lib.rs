#![doc = include_str!("../README.md")]

/// txfx-poseidon, re-exported: the backend traits this backend implements, `Fr`, the field codec.
pub use txfx_poseidon;

use std::sync::{Arc, Mutex, OnceLock};

use txfx_poseidon::field::{fr_from_be_slice, fr_to_be_bytes};
use txfx_poseidon::pool::GlobalPool;
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

    /// The backend for async callers: every async batch runs on the process's background pool
    /// ([`txfx_poseidon::pool::BackgroundPool::global`], shared with the native backend, started
    /// by the first batch), each call on an instance no other thread uses meanwhile, so a leaf
    /// batch never blocks the executor; tree levels stay on the caller's thread, as in the
    /// reference.
    pub fn asynchronous(&self) -> AsyncWasmBackend {
        self.asynchronous_on(Arc::new(GlobalPool))
    }

    /// The same policy with batches on the application's own pool (any [`Offload`]).
    pub fn asynchronous_on(&self, offload: Arc<dyn Offload>) -> AsyncWasmBackend {
        Offloaded::new(self.clone(), self.clone(), offload)
    }

    /// Instances currently idle in the pool (for tests and diagnostics).
    pub fn idle_instances(&self) -> usize {
        self.pool.lock().map(|pool| pool.len()).unwrap_or(0)
    }
}

/// [`WasmBackend::asynchronous`]: batches on a pool, tree levels on the caller's thread.
pub type AsyncWasmBackend = Offloaded<WasmBackend, WasmBackend>;

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
    fn async_batches_run_on_the_pool_given_and_levels_on_the_caller() {
        use txfx_poseidon::AsyncHashBackend;
        use txfx_poseidon::pool::{BackgroundPool, PoolConfig};
        // A pool that counts what it ran: the batch must be its first task, and run on it.
        struct Counting(BackgroundPool, std::sync::atomic::AtomicUsize);
        impl Offload for Counting {
            fn spawn(&self, task: Box<dyn FnOnce() + Send + 'static>) {
                self.1.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                self.0.spawn(task);
            }
        }
        let pool = Arc::new(Counting(
            BackgroundPool::new(PoolConfig { threads: 1, lower_priority: false }).unwrap(),
            std::sync::atomic::AtomicUsize::new(0),
        ));
        let wasm = WasmBackend::new().unwrap();
        let asynchronous = wasm.asynchronous_on(pool.clone());
        let jobs: Vec<HashJob> = (0..8u64).map(|i| HashJob::plain(vec![Fr::from(i)])).collect();
        let expected = Sequential.hash_batch(&jobs).unwrap();
        let got = futures::executor::block_on(asynchronous.hash_batch_async(jobs)).unwrap();
        assert_eq!(got, expected);
        assert_eq!(pool.1.load(std::sync::atomic::Ordering::SeqCst), 1, "the batch went to the pool");
        assert_eq!(asynchronous.levels().name(), "wasm", "tree levels hash with the wasm backend, inline");
    }

    #[test]
    fn the_embedded_module_imports_nothing_and_exports_what_the_host_calls() {
        // The guest is sandboxed arithmetic: it may not import anything from the host (no WASI,
        // no callbacks), and must export exactly the memory and the four calls the host makes.
        // (That the bytes are the recorded sources' build is `cargo xtask wasm-guest --check`.)
        let compiled = compiled().unwrap();
        let imports: Vec<String> =
            compiled.module.imports().map(|i| format!("{}::{}", i.module(), i.name())).collect();
        assert!(imports.is_empty(), "the guest imports {imports:?}");
        let mut exports: Vec<&str> = compiled.module.exports().map(|e| e.name()).collect();
        exports.sort_unstable();
        // `__data_end` and `__heap_base` are the two globals rust's wasm32 linker always exports.
        let expected = ["__data_end", "__heap_base", "memory"];
        let calls = ["txfx_hash_batch", "txfx_hash_nodes", "txfx_permute", "txfx_scratch"];
        assert_eq!(exports, [expected.as_slice(), calls.as_slice()].concat());
    }
}
