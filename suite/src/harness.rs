//! The shared suite as ordinary named tests: one test per case and engine, run in parallel by
//! libtest-mimic, selected with `cargo test`'s own filter.
//!
//! Each of this crate's engine tests (`tests/sequential.rs`, `native.rs`, `wasm.rs`,
//! `selected.rs`; `harness = false`) hands [`main`] its engines; every case of
//! [`crate::cases::all`] becomes the test `<engine>::<group>::<case>`:
//!
//! ```text
//! cargo test -p txfx-suite --test native                       # every case, the native engines
//! cargo test -p txfx-suite --test native -- "tree vectors"     # the cases named so
//! cargo test -p txfx-suite --test native -- --list             # what there is
//! cargo test --workspace "native::Membership::"                # one group, one engine
//! ```
//!
//! A run over the whole suite (no filter) fails if it ran no case or not all 18 reference cases
//! on every engine, and writes each engine's summary line to `target/txfx-suite/`, where
//! `cargo xtask test` reads it; a filtered run writes nothing, so it never counts as a whole one.

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::sync::{Arc, Mutex, PoisonError};

use libtest_mimic::{Arguments, Failed, Trial};
use txfx_poseidon::{AsyncHashBackend, HashBackend};

use crate::runner::{Backend, Case, Group, REFERENCE_CASES};

/// A backend under test, by name, with its synchronous face and its async policy.
pub struct Engine {
    name: String,
    hasher: Box<dyn HashBackend>,
    async_hasher: Box<dyn AsyncHashBackend>,
}

impl Engine {
    /// An engine named `name` (the first part of every test name).
    pub fn new(
        name: impl Into<String>,
        hasher: impl HashBackend + 'static,
        async_hasher: impl AsyncHashBackend + 'static,
    ) -> Self {
        Self { name: name.into(), hasher: Box::new(hasher), async_hasher: Box::new(async_hasher) }
    }

    fn backend(&self) -> Backend<'_> {
        Backend { hasher: &*self.hasher, async_hasher: &*self.async_hasher }
    }
}

/// Per engine: cases passed, failed, and reference cases passed.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    passed: usize,
    failed: usize,
    reference_passed: usize,
    reference_failed: usize,
}

type Tallies = Arc<Mutex<BTreeMap<String, Tally>>>;

fn trial(engine: &Arc<Engine>, case: Case, tallies: &Tallies) -> Trial {
    let name = format!("{}::{:?}::{}", engine.name, case.group, case.name);
    let reference = matches!(case.group, Group::Membership | Group::Body);
    let (engine, tallies) = (Arc::clone(engine), Arc::clone(tallies));
    Trial::test(name, move || {
        let outcome =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (case.run)(&engine.backend())));
        let mut tallies = tallies.lock().unwrap_or_else(PoisonError::into_inner);
        let tally = tallies.entry(engine.name.clone()).or_default();
        match outcome {
            Ok(()) => {
                tally.passed += 1;
                tally.reference_passed += usize::from(reference);
                Ok(())
            }
            Err(payload) => {
                tally.failed += 1;
                tally.reference_failed += usize::from(reference);
                let message = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                    .unwrap_or_else(|| "panicked".to_owned());
                Err(Failed::from(message))
            }
        }
    })
}

/// The summary lines of one engine: `suite: <engine>: N passed, M failed` and the reference
/// cases' line.
fn summary(engine: &str, tally: Tally) -> String {
    format!(
        "suite: {engine}: {} passed, {} failed\nsuite: {engine} (reference membership and body cases): {} passed, {} failed\n",
        tally.passed, tally.failed, tally.reference_passed, tally.reference_failed
    )
}

/// Writes an engine's summary to `target/txfx-suite/<engine>.txt` for `cargo xtask test`.
fn write_report(engine: &str, text: &str) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/txfx-suite");
    // Best effort: the exit status, not this file, decides whether the suite passed.
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join(format!("{engine}.txt")), text);
}

/// Runs the suite against `engines` with the command line's arguments (module documentation)
/// and returns the process's exit code.
pub fn main(engines: Vec<Engine>) -> ExitCode {
    let args = Arguments::from_args();
    // A filtered or partial run is not a run of the whole suite.
    let whole = args.filter.is_none() && args.skip.is_empty() && !args.list && !args.ignored;
    let tallies: Tallies = Arc::default();
    let mut trials = Vec::new();
    for engine in engines {
        let engine = Arc::new(engine);
        let cases = crate::cases::all();
        let reference = cases.iter().filter(|c| matches!(c.group, Group::Membership | Group::Body)).count();
        assert_eq!(reference, REFERENCE_CASES, "the suite lists every reference membership and body case");
        trials.extend(cases.into_iter().map(|case| trial(&engine, case, &tallies)));
    }
    let engines: Vec<String> = {
        let mut names: Vec<String> =
            trials.iter().filter_map(|t| t.name().split("::").next().map(str::to_owned)).collect();
        names.dedup();
        names
    };
    let conclusion = libtest_mimic::run(&args, trials);
    if args.list {
        return conclusion.exit_code();
    }
    let arithmetic = match txfx_poseidon::permutation::arithmetic() {
        txfx_poseidon::permutation::Arithmetic::Portable
            if std::env::var_os(txfx_poseidon::permutation::ARITHMETIC_ENV)
                .is_some_and(|v| v == "portable") =>
        {
            format!("portable, as {}=portable asks", txfx_poseidon::permutation::ARITHMETIC_ENV)
        }
        txfx_poseidon::permutation::Arithmetic::Portable => {
            "portable: this CPU (or build) has no BMI2 + ADX, so the assembly product was NOT tested here"
                .to_owned()
        }
        other => other.to_string(),
    };
    let batch = match txfx_poseidon::permutation::batch_arithmetic() {
        txfx_poseidon::permutation::BatchArithmetic::Ifma => "ifma (8 states per pass)".to_owned(),
        other
            if std::env::var_os(txfx_poseidon::permutation::ARITHMETIC_ENV)
                .is_some_and(|v| v == "portable") =>
        {
            format!("{other}, as {}=portable asks", txfx_poseidon::permutation::ARITHMETIC_ENV)
        }
        other => format!(
            "{other}: this CPU (or build) has no AVX-512 IFMA, so the batch kernel was NOT tested here"
        ),
    };
    // The native engines' sponge batches run in lockstep wherever the batch kernel runs.
    let sponges = if txfx_poseidon::sponge::lockstep_available() {
        "in lockstep, 8 jobs per pass of the batch kernel (the native engines' hash batches)"
    } else {
        "one job at a time: the batch kernel is off in this process (above), so lockstep sponges were NOT tested here"
    };
    let arithmetic = format!(
        "suite: permutation arithmetic on this CPU: {arithmetic}\nsuite: batch permutation: {batch}\n\
         suite: sponges: {sponges}\n"
    );
    print!("{arithmetic}");
    if whole {
        write_report("arithmetic", &arithmetic);
    }
    let tallies = tallies.lock().unwrap_or_else(PoisonError::into_inner).clone();
    let mut complete = true;
    for engine in &engines {
        let tally = tallies.get(engine).copied().unwrap_or_default();
        let text = summary(engine, tally);
        print!("{text}");
        if whole {
            if tally.passed + tally.failed == 0
                || tally.reference_passed + tally.reference_failed != REFERENCE_CASES
            {
                println!(
                    "suite: {engine}: the whole suite did not run (no case, or not all {REFERENCE_CASES} reference cases)"
                );
                complete = false;
            }
            write_report(engine, &text);
        }
    }
    if conclusion.has_failed() || !complete { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
