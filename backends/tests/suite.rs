//! The shared suite through the published selection policy: the backend `select_backend` starts,
//! with the async policy `AnyAsyncBackend` gives it. A wrapper that dropped a backend's policy
//! would show here, not only in the backend's own suite.

// Test code: a failed expectation is a failed test.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use txfx_backends::{AnyAsyncBackend, BackendChoice, select_backend};

#[test]
fn shared_suite_through_the_selected_native_backend() {
    let selected = select_backend(BackendChoice::Auto).expect("native starts");
    let asynchronous = selected.asynchronous();
    let AnyAsyncBackend::Native(native) = &asynchronous else { panic!("auto selected another backend") };
    assert_eq!(
        native.level_backend().parallel_threshold(),
        usize::MAX,
        "tree levels stay on the caller's thread"
    );
    let report = txfx_suite::run_suite(&selected, &asynchronous);
    assert!(report.passed > txfx_suite::runner::REFERENCE_CASES);
}
