//! The shared suite (every vector, the 18 reference cases, snapshots) against the WASM backend.

#[test]
fn shared_suite_wasm() {
    let wasm = txfx_backend_wasm::WasmBackend::new().expect("the embedded guest starts");
    txfx_suite::run_suite(&wasm);
}
