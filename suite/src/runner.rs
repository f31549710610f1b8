//! What a suite case is: a named check of one backend, in a group. [`crate::harness`] runs each
//! case against each engine as a test of its own.

use txfx_poseidon::{AsyncHashBackend, HashBackend};

/// Which part of the suite a case belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// Known-answer vectors from `testdata/`.
    Vectors,
    /// What Aztec's TypeScript prints and encodes (`testdata/typescript/`).
    TypeScript,
    /// The 7 cases of the fork's `tx_effect_membership.test.ts`.
    Membership,
    /// The 11 cases of the fork's `body.test.ts`.
    Body,
    /// Witnesses served from the stored form (per tx txHash, categoriesHash, leaf).
    Stored,
    /// Headers, the archive, category proofs and the whole chain.
    Chain,
    /// The Noir suite's sensitivity and domain-separation cases.
    Sensitivity,
    /// Witness snapshots.
    Snapshots,
    /// The bad-input catalogue.
    BadInputs,
    /// Property and concurrency tests.
    Properties,
}

/// The backend under test, with both faces.
pub struct Backend<'a> {
    /// The synchronous hasher.
    pub hasher: &'a dyn HashBackend,
    /// The same backend through the async trait.
    pub async_hasher: &'a dyn AsyncHashBackend,
}

/// One named case.
pub struct Case {
    /// Its group.
    pub group: Group,
    /// Its name.
    pub name: String,
    /// The check; panics on failure.
    pub run: Box<dyn Fn(&Backend<'_>) + Send + Sync>,
}

impl Case {
    /// A case.
    pub fn new(
        group: Group,
        name: impl Into<String>,
        run: impl Fn(&Backend<'_>) + Send + Sync + 'static,
    ) -> Self {
        Self { group, name: name.into(), run: Box::new(run) }
    }
}

/// How many reference cases the suite must run (7 membership + 11 body; docs/spec.md §10.1–§10.2).
pub const REFERENCE_CASES: usize = 18;
