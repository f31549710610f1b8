//! Every fuzz target on its seed corpus, then one second of mutations each: the targets cannot
//! rot between fuzzing campaigns (`cargo xtask fuzz` runs the long ones).

// Test code: a failed expectation is a failed test.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use std::time::Duration;

use txfx_suite::fuzz::{Outcome, Target, fuzz, targets};

#[test]
fn every_fuzz_target_holds_on_its_seeds_and_a_second_of_mutations() {
    let targets = targets();
    assert!(targets.len() >= 9, "{} targets", targets.len());
    // One target per core at a time: each still gets a core for its second of mutations.
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    let checked: usize = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|worker| {
                let targets = &targets;
                scope.spawn(move || {
                    let mut checked = 0;
                    for (name, target, seeds) in targets.iter().skip(worker).step_by(workers) {
                        holds(name, *target, seeds);
                        checked += 1;
                    }
                    checked
                })
            })
            .collect();
        handles.into_iter().map(|handle| handle.join().expect("a target failed")).sum()
    });
    assert_eq!(checked, targets.len());
}

fn holds(name: &'static str, target: Target, seeds: &[Vec<u8>]) {
    assert!(!seeds.is_empty(), "{name}: no seeds");
    // The seeds include genuine inputs: each target accepts at least one, so its property
    // check runs.
    let outcomes: Vec<Outcome> =
        seeds.iter().map(|seed| target(seed).unwrap_or_else(|broken| panic!("{name}: {broken}"))).collect();
    assert!(outcomes.contains(&Outcome::Accepted), "{name}: no seed is accepted");
    let report = fuzz(name, target, seeds.to_vec(), Duration::from_secs(1), 0x5eed);
    assert!(report.executions > 0, "{name}: nothing ran");
    assert!(report.findings.is_empty(), "{name}: {:?}", report.findings);
}
