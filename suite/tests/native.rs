//! The shared suite (every vector, the 18 reference cases, snapshots, the catalogues) against the
//! native backend, synchronously and through its async policy (background pool, tree levels on
//! the caller): one test per case and engine (`native::<group>::<case>`).

use std::process::ExitCode;

use txfx_backend_native::NativeBackend;
use txfx_suite::Engine;

fn main() -> ExitCode {
    let native = NativeBackend::new();
    // Threshold 1 sends every batch through the helpers: the parallel path must match too.
    let parallel = NativeBackend::with_parallel_threshold(1);
    let pinned = NativeBackend::with_parallel_threshold(1).with_pinned_helpers();
    txfx_suite::main(vec![
        Engine::new("native", native, native.asynchronous()),
        Engine::new("native-always-parallel", parallel, parallel.asynchronous()),
        Engine::new("native-pinned", pinned, pinned.asynchronous()),
    ])
}
