#![doc = include_str!("../README.md")]

mod classify;
pub mod error;
pub mod json;
pub mod ops;
pub mod read;
pub mod verdict;

pub use error::{Doc, DocumentError, Problem};
pub use ops::{ArchiveSubject, Expected, Subject, TxSelector};
pub use verdict::{Proves, Verdict};

/// The crates below, re-exported so a front end needs no other dependency.
pub use txfx_membership;
