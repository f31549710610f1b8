//! The shared suite through the published selection policy: the backend `select_backend` starts,
//! with the async policy `AnyAsyncBackend` gives it (`selected::<group>::<case>`). A wrapper that
//! dropped a backend's policy would show here, not only in the backend's own suite.

use std::process::ExitCode;

use txfx_backends::{AnyAsyncBackend, BackendChoice, select_backend};
use txfx_suite::Engine;

fn main() -> ExitCode {
    let Ok(selected) = select_backend(BackendChoice::Auto) else {
        eprintln!("the auto choice does not start");
        return ExitCode::FAILURE;
    };
    let asynchronous = selected.asynchronous();
    // The forwarding bug this wrapper once had: tree levels must stay on the caller's thread.
    let AnyAsyncBackend::Native(native) = &asynchronous else {
        eprintln!("auto selected another backend than native");
        return ExitCode::FAILURE;
    };
    if native.level_backend().parallel_threshold() != usize::MAX {
        eprintln!("the selected backend's async levels would go parallel");
        return ExitCode::FAILURE;
    }
    txfx_suite::main(vec![Engine::new("selected", selected, asynchronous)])
}
