//! The shared suite against `txfx_poseidon::Sequential`, the single-threaded reference hasher.

#[test]
fn shared_suite_sequential() {
    txfx_suite::run_suite(&txfx_poseidon::Sequential);
}
