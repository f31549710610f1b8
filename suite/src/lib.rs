//! The shared test corpus and conformance suite that every txfx backend runs (dev-only).
//!
//! [`vectors`] loads `testdata/`; the backend suite itself runs every vector and the 18 reference
//! cases against one [`txfx_poseidon::HashBackend`], counts what it ran, and fails on zero.

// A malformed vector file must stop the test run loudly; this crate is never shipped.
#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used, clippy::indexing_slicing)]

pub mod adversarial;
pub mod cases;
pub mod chain;
pub mod fuzz;
pub mod hostile;
pub mod readings;
pub mod runner;
pub mod vectors;

pub use runner::{Report, run_suite};

/// A root the suite trusts: it computed it from the same block, so it stands for the
/// `txEffectsTreeRoot` of an authenticated header.
pub fn trusted(root: txfx_poseidon::Fr) -> txfx_membership::TrustedRoot {
    txfx_membership::TrustedRoot::from_authenticated_header(root)
}
