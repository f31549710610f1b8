//! `txfx-fuzz [--seconds N] [--seed S] [TARGET ...]`: runs the fuzz targets of `txfx_suite::fuzz`
//! (all of them when none is named), N seconds each, and fails if any found anything.

use std::process::ExitCode;
use std::time::Duration;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut seconds = 10u64;
    let mut seed = 0x7478_6678u64;
    let mut names = Vec::new();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let number = |flag: &str, value: Option<&String>| -> Result<u64, String> {
            let value = value.ok_or_else(|| format!("{flag} needs a number"))?;
            value.parse().map_err(|_| format!("{flag} {value:?} is not a number"))
        };
        let parsed = match arg.as_str() {
            "--seconds" => number("--seconds", iter.next()).map(|n| seconds = n),
            "--seed" => number("--seed", iter.next()).map(|n| seed = n),
            flag if flag.starts_with('-') => Err(format!("unknown flag {flag:?}")),
            name => {
                names.push(name.to_owned());
                Ok(())
            }
        };
        if let Err(message) = parsed {
            eprintln!("txfx-fuzz: {message}; usage: txfx-fuzz [--seconds N] [--seed S] [TARGET ...]");
            return ExitCode::from(2);
        }
    }
    let targets = txfx_suite::fuzz::targets();
    if let Some(unknown) = names.iter().find(|n| !targets.iter().any(|(t, _, _)| t == n)) {
        let known: Vec<&str> = targets.iter().map(|(t, _, _)| *t).collect();
        eprintln!("txfx-fuzz: unknown target {unknown:?}; targets: {}", known.join(", "));
        return ExitCode::from(2);
    }
    // Panics are caught and reported as findings; keep their messages off the terminal.
    std::panic::set_hook(Box::new(|_| {}));
    let mut failed = false;
    for (name, target, seeds) in targets {
        if !names.is_empty() && !names.iter().any(|n| n == name) {
            continue;
        }
        let report = txfx_suite::fuzz::fuzz(name, target, seeds, Duration::from_secs(seconds), seed);
        println!(
            "fuzz: {}: {} executions in {:.0} s ({} accepted), {} findings",
            report.target,
            report.executions,
            report.elapsed.as_secs_f64(),
            report.accepted,
            report.findings.len()
        );
        for (problem, path) in &report.findings {
            println!("  {problem}: {}", path.display());
        }
        failed |= !report.findings.is_empty();
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
