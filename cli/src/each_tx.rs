//! `txfx verify tx --node --tx-hash A --tx-hash B …`: several txs in one run, each walked in turn,
//! one answer per tx in the order given.
//!
//! One tx prints as it always has: its verdict as indented JSON, or its failure as any command's
//! (a refutation on stdout with exit 1, a `txfx: …` line on stderr with exit 2, 3 or 4). Several
//! txs print one compact JSON line each, in the order given, whatever became of the others:
//!
//! - its verdict (`"valid": true`, naming the tx);
//! - a refutation, `{"valid": false, "link", "reason", "txHash"}`;
//! - a tx that could not be checked, `{"txHash", "error", "exitStatus"}` (malformed answers 2, a
//!   backend failure 3, an endpoint with no usable answer 4).
//!
//! The run then exits 0 if every tx is valid, else (with `N of M txs failed` on stderr) with the
//! most telling status among the txs: the lowest one above 0. A refutation (1: a node lied, or the tx is not what was expected) is
//! a fact about a tx that no retry changes, and outranks malformed input (2), which outranks a
//! backend failure (3), which outranks an endpoint that gave no usable answer (4, often worth a
//! retry).
//!
//! Every tx hash is read before the first request, and a run holds at most [`MAX_TXS_PER_RUN`].

use txfx_documents::json::{Json, Object};
use txfx_documents::verdict::refutation_json;
use txfx_poseidon::Fr;
use txfx_poseidon::field::fr_to_hex;

use crate::args::hex;
use crate::io::{Failure, emit, print_json};

/// The most `--tx-hash` one run takes: each tx is a walk of up to twenty requests within its
/// `--timeout`, so the count bounds the run's work before it starts.
pub const MAX_TXS_PER_RUN: usize = 1000;

/// The tx hashes, all read before anything is sent.
///
/// # Errors
/// [`Failure::Input`]: none given, more than [`MAX_TXS_PER_RUN`], or one that is no `0x`-hex
/// field element (named by its place when there are several).
pub fn tx_hashes(given: &[String]) -> Result<Vec<Fr>, Failure> {
    if given.is_empty() {
        return Err(Failure::Input("--node needs --tx-hash".into()));
    }
    if given.len() > MAX_TXS_PER_RUN {
        return Err(Failure::Input(format!(
            "--tx-hash is given {} times: at most {MAX_TXS_PER_RUN} txs a run",
            given.len()
        )));
    }
    let several = given.len() > 1;
    given
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let name = if several {
                format!("--tx-hash (tx {} of {})", i + 1, given.len())
            } else {
                "--tx-hash".into()
            };
            hex(&name, text)
        })
        .collect()
}

/// Answers each of `tx_hashes` with `walk(tx_hash, label)` (the label, `tx 2 of 5: ` or empty,
/// is for its progress line) and prints the answers as the module docs say.
///
/// # Errors
/// One tx: its failure. Several: [`Failure::Summary`] with the status the module docs give, after
/// every line is printed; [`Failure::Closed`] when the reader went away.
pub fn each_tx(tx_hashes: &[Fr], walk: impl Fn(Fr, &str) -> Result<Json, Failure>) -> Result<(), Failure> {
    if let [tx_hash] = tx_hashes {
        return print_json(&walk(*tx_hash, "")?);
    }
    let (mut failed, mut status) = (0usize, None::<u8>);
    for (i, tx_hash) in tx_hashes.iter().enumerate() {
        let label = format!("tx {} of {}: ", i + 1, tx_hashes.len());
        let line = match walk(*tx_hash, &label) {
            Ok(verdict) => verdict,
            Err(Failure::Closed) => return Err(Failure::Closed),
            Err(failure) => {
                failed += 1;
                let code = failure.status();
                status = Some(status.map_or(code, |worst| worst.min(code)));
                failure_line(*tx_hash, failure)
            }
        };
        emit(&line.to_string())?;
    }
    match status {
        None => Ok(()),
        Some(status) => Err(Failure::Summary {
            status,
            reason: format!("{failed} of {} txs failed; see their lines", tx_hashes.len()),
        }),
    }
}

/// The line of a tx that failed.
fn failure_line(tx_hash: Fr, failure: Failure) -> Json {
    let tx_hash = fr_to_hex(&tx_hash);
    let status = failure.status();
    match failure {
        // The refutation any command prints, naming the tx it is about.
        Failure::Check { link, reason } => match refutation_json(link, &reason) {
            Json::Object(mut refutation) => {
                refutation.insert("txHash", tx_hash);
                refutation.into()
            }
            other => other,
        },
        other => Object::new()
            .with("txHash", tx_hash.as_str())
            .with("error", other.reason())
            .with("exitStatus", status)
            .into(),
    }
}
