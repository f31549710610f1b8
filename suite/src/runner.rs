//! The suite runner: named cases, each run against one backend, counted, never silently empty.
//!
//! A case is a function of the backend that asserts (panics) on failure; the runner catches each
//! panic, so one failing case does not hide the others, and reports
//! `suite: <backend>: N passed, M failed`. [`run_suite`] fails when a case failed, when nothing
//! ran, or when the 18 reference membership cases (docs/spec.md §10.1–§10.2) did not all run.

use std::panic::{AssertUnwindSafe, catch_unwind};

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
    pub run: Box<dyn Fn(&Backend<'_>)>,
}

impl Case {
    /// A case.
    pub fn new(group: Group, name: impl Into<String>, run: impl Fn(&Backend<'_>) + 'static) -> Self {
        Self { group, name: name.into(), run: Box::new(run) }
    }
}

/// What a run did.
#[derive(Debug, Clone)]
pub struct Report {
    /// The backend's name.
    pub backend: String,
    /// Cases passed.
    pub passed: usize,
    /// Failed cases with their messages.
    pub failed: Vec<(String, String)>,
    /// Membership + body reference cases run.
    pub reference_cases: usize,
    /// Of which passed.
    pub reference_passed: usize,
}

impl Report {
    /// `suite: <backend>: N passed, M failed`.
    pub fn summary(&self) -> String {
        format!("suite: {}: {} passed, {} failed", self.backend, self.passed, self.failed.len())
    }

    /// `suite: <backend> (reference membership and body cases): 18 passed, 0 failed`.
    pub fn reference_summary(&self) -> String {
        format!(
            "suite: {} (reference membership and body cases): {} passed, {} failed",
            self.backend,
            self.reference_passed,
            self.reference_cases - self.reference_passed
        )
    }
}

/// How many reference cases the suite must run (7 membership + 11 body).
pub const REFERENCE_CASES: usize = 18;

/// Runs `cases` against one backend.
pub fn run_cases(backend: &Backend<'_>, cases: Vec<Case>) -> Report {
    let mut report = Report {
        backend: backend.hasher.name().to_owned(),
        passed: 0,
        failed: Vec::new(),
        reference_cases: 0,
        reference_passed: 0,
    };
    for case in cases {
        let reference = matches!(case.group, Group::Membership | Group::Body);
        report.reference_cases += usize::from(reference);
        match catch_unwind(AssertUnwindSafe(|| (case.run)(backend))) {
            Ok(()) => {
                report.passed += 1;
                report.reference_passed += usize::from(reference);
            }
            Err(payload) => {
                let message = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                    .unwrap_or_else(|| "panicked".to_owned());
                report.failed.push((format!("{:?}/{}", case.group, case.name), message));
            }
        }
    }
    report
}

/// Writes the summary line to `target/txfx-suite/<backend>.txt`, where `cargo xtask test` reads
/// it to print one line per backend and to fail if a backend ran no suite.
fn write_report(report: &Report) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/txfx-suite");
    // Best effort: the assertion below, not this file, decides whether the suite passed.
    let _ = std::fs::create_dir_all(&dir);
    let text = format!("{}\n{}\n", report.summary(), report.reference_summary());
    let _ = std::fs::write(dir.join(format!("{}.txt", report.backend)), text);
}

/// The environment variable that runs only the cases whose name contains its value:
/// `TXFX_SUITE_CASE="tree vectors" cargo test -p txfx-backend-native --test suite`.
pub const CASE_FILTER_ENV: &str = "TXFX_SUITE_CASE";

/// Runs the whole suite against one backend (its synchronous face and its async policy), prints
/// the summary line, and panics unless every case passed, at least one ran, and all 18 reference
/// cases ran.
///
/// With [`CASE_FILTER_ENV`] set, only the matching cases run (at least one must match); the
/// run prints its own line and writes no report, so `cargo xtask test` never counts a partial
/// run as a whole one.
pub fn run_suite(hasher: &dyn HashBackend, async_hasher: &dyn AsyncHashBackend) -> Report {
    let backend = Backend { hasher, async_hasher };
    let filter = std::env::var(CASE_FILTER_ENV).ok().filter(|filter| !filter.is_empty());
    let mut cases = crate::cases::all();
    if let Some(filter) = &filter {
        cases.retain(|case| case.name.contains(filter.as_str()));
        assert!(!cases.is_empty(), "{CASE_FILTER_ENV}={filter:?} matches no case");
    }
    let report = run_cases(&backend, cases);
    for (name, message) in &report.failed {
        println!("  FAILED {name}: {message}");
    }
    assert!(report.passed + report.failed.len() > 0, "the suite ran no case");
    if let Some(filter) = &filter {
        println!(
            "suite: {} (cases matching {filter:?}): {} passed, {} failed",
            report.backend,
            report.passed,
            report.failed.len()
        );
    } else {
        println!("{}\n{}", report.summary(), report.reference_summary());
        write_report(&report);
        assert_eq!(report.reference_cases, REFERENCE_CASES, "reference membership + body cases run");
    }
    assert!(report.failed.is_empty(), "{}", report.summary());
    report
}
