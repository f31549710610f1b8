//! The shared suite (every vector, the 18 reference cases, snapshots) against the WASM backend.

// Test code: a failed expectation is a failed test.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

#[test]
fn shared_suite_wasm() {
    let wasm = txfx_backend_wasm::WasmBackend::new().expect("the embedded guest starts");
    // Async cases through the backend's own policy: batches on the background pool.
    txfx_suite::run_suite(&wasm, &wasm.asynchronous());
}
