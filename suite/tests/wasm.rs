//! The shared suite (every vector, the 18 reference cases, snapshots, the catalogues) against the
//! WASM backend, synchronously and through its async policy (batches on the background pool):
//! one test per case (`wasm::<group>::<case>`).

use std::process::ExitCode;

use txfx_backend_wasm::WasmBackend;
use txfx_suite::Engine;

fn main() -> ExitCode {
    let wasm = match WasmBackend::new() {
        Ok(wasm) => wasm,
        Err(error) => {
            eprintln!("the embedded guest does not start: {error}");
            return ExitCode::FAILURE;
        }
    };
    let asynchronous = wasm.asynchronous();
    txfx_suite::main(vec![Engine::new("wasm", wasm, asynchronous)])
}
