//! The shared suite (every vector, the 18 reference cases, snapshots) against the native backend.

// Test code: a failed expectation is a failed test.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

#[test]
fn shared_suite_native() {
    txfx_suite::run_suite(&txfx_backend_native::NativeBackend::new());
}

#[test]
fn shared_suite_native_always_parallel() {
    // Threshold 1 sends every batch through rayon: the parallel path must match the vectors too.
    let report = txfx_suite::run_suite(&txfx_backend_native::NativeBackend::with_parallel_threshold(1));
    assert!(report.passed > txfx_suite::runner::REFERENCE_CASES);
}
