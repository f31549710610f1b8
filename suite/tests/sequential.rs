//! The shared suite against `txfx_poseidon::Sequential`, the single-threaded reference hasher:
//! one test per case (`sequential::<group>::<case>`).

use std::process::ExitCode;

use txfx_poseidon::Sequential;
use txfx_suite::Engine;

fn main() -> ExitCode {
    txfx_suite::main(vec![Engine::new("sequential", Sequential, Sequential)])
}
