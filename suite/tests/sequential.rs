//! The shared suite against `txfx_poseidon::Sequential`, the single-threaded reference hasher.

// Test code: a failed expectation is a failed test.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

#[test]
fn shared_suite_sequential() {
    txfx_suite::run_suite(&txfx_poseidon::Sequential, &txfx_poseidon::Sequential);
}
