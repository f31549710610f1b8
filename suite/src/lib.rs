//! The shared test corpus and conformance suite that every txfx backend runs (dev-only).
//!
//! [`vectors`] loads `testdata/`; [`harness`] runs every case ([`cases::all`]: every vector, the
//! 18 reference cases, the catalogues) against each backend as a named test of its own, counts
//! what it ran, and fails on zero.

// A malformed vector file must stop the test run loudly; this crate is never shipped.
#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used, clippy::indexing_slicing)]

pub mod adversarial;
pub mod cases;
pub mod chain;
pub mod fuzz;
pub mod harness;
pub mod hostile;
pub mod l1proxy;
pub mod readings;
pub mod runner;
pub mod testchain;
pub mod transcript;
mod typescript;
pub mod v6;
pub mod vectors;

pub use harness::{Engine, main};

/// An archive witness given as text: bare base64, the node's base64 JSON string, its JSON-RPC
/// response, or txfx's `{"leafIndex", "siblingPath"}`, read as `txfx-documents` reads it.
///
/// # Errors
/// The document's error.
pub fn archive_witness_text(
    text: &str,
) -> Result<txfx_membership::ArchiveWitness, txfx_documents::DocumentError> {
    txfx_documents::read::archive_witness(txfx_documents::Doc::text("archive witness", text))
}

/// A root the suite trusts: it computed it from the same block, so it stands for the
/// `txEffectsTreeRoot` of an authenticated header.
pub fn trusted(root: txfx_poseidon::Fr) -> txfx_membership::TrustedRoot {
    txfx_membership::TrustedRoot::from_authenticated_header(root)
}
