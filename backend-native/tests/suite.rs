//! The shared suite (every vector, the 18 reference cases, snapshots) against the native backend,
//! synchronously and through its async policy (background pool, tree levels on the caller).

// Test code: a failed expectation is a failed test.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use txfx_backend_native::NativeBackend;

#[test]
fn shared_suite_native() {
    let native = NativeBackend::new();
    txfx_suite::run_suite(&native, &native.asynchronous());
}

#[test]
fn shared_suite_native_always_parallel() {
    // Threshold 1 sends every batch through rayon: the parallel path must match the vectors too.
    let native = NativeBackend::with_parallel_threshold(1);
    let report = txfx_suite::run_suite(&native, &native.asynchronous());
    assert!(report.passed > txfx_suite::runner::REFERENCE_CASES);
}
