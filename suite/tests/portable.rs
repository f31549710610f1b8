//! The shared suite on the portable product, in a fresh process: this test re-runs its own binary
//! with `TXFX_ARITHMETIC=portable`, so the CPU check (made once per process) picks the portable
//! product even where the CPU has BMI2 and ADX, and every case must give the same answers as on
//! the assembly product (`native.rs`). Builds carry no global target features: the portable code
//! is what a CPU without BMI2 and ADX runs, and this is how CI runs it on one that has them.

use std::process::{Command, ExitCode};

use txfx_backend_native::NativeBackend;
use txfx_poseidon::permutation::{ARITHMETIC_ENV, Arithmetic, BatchArithmetic, arithmetic, batch_arithmetic};
use txfx_suite::Engine;

fn main() -> ExitCode {
    if std::env::var_os(ARITHMETIC_ENV).is_some_and(|value| value == "portable") {
        // The child: the override must have taken, or this run would test the assembly again.
        let chosen = arithmetic();
        if chosen != Arithmetic::Portable {
            eprintln!("{ARITHMETIC_ENV}=portable, yet the permutation runs on {chosen}");
            return ExitCode::FAILURE;
        }
        let batches = batch_arithmetic();
        if batches != BatchArithmetic::OneAtATime {
            eprintln!("{ARITHMETIC_ENV}=portable, yet batches run on {batches:?}");
            return ExitCode::FAILURE;
        }
        let native = NativeBackend::new();
        return txfx_suite::main(vec![Engine::new("native-portable", native, native.asynchronous())]);
    }
    // The parent: the same binary and arguments in a fresh process, with the override.
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(error) => {
            eprintln!("portable: cannot find this test binary to re-run it: {error}");
            return ExitCode::FAILURE;
        }
    };
    match Command::new(exe).args(std::env::args_os().skip(1)).env(ARITHMETIC_ENV, "portable").status() {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(status) => {
            eprintln!("portable: the suite on the portable product failed ({status})");
            ExitCode::FAILURE
        }
        Err(error) => {
            eprintln!("portable: cannot start the fresh process: {error}");
            ExitCode::FAILURE
        }
    }
}
