//! `txfx`: Poseidon2, AZIP-26 tx-effect commitments, membership witnesses and the trust chain
//! from the command line.
//!
//! Exit status: 0 success, 1 a well-formed check that fails (its verdict, `valid: false`, on
//! stdout), 2 malformed input (a bad argument, file, JSON or field element, a document that
//! could be read two ways), 3 a backend failure. A reader that closes the output early
//! (`txfx … | head`) ends the command quietly with status 0.
//!
//! Every command reads and checks documents through `txfx-documents`, the layer the JavaScript
//! bindings share; this binary only parses arguments, reads files and prints.

mod args;
mod blocks;
mod hashing;
mod io;
mod verify;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use txfx_backends::{BackendChoice, ChosenBy, Selection, select_backend_from_env};

use crate::args::parsed;
use crate::io::{Failure, emit};

#[derive(Parser)]
#[command(
    name = "txfx",
    version,
    about = "Aztec AZIP-26 tx-effects commitments, membership witnesses and their verification"
)]
struct Cli {
    /// Hashing backend: native, wasm or auto (default: $TXFX_BACKEND, else auto).
    #[arg(long, global = true, value_parser = parsed::<BackendChoice>)]
    backend: Option<BackendChoice>,
    /// Threads that hash large batches and --jsonl chunks, the calling thread included
    /// (default: $RAYON_NUM_THREADS, else one per core). 1 hashes on the calling thread alone.
    #[arg(long, global = true, value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Poseidon2 over BN254 (barretenberg parameters).
    #[command(subcommand)]
    Poseidon2(hashing::Poseidon2Command),
    /// One tx effect.
    #[command(subcommand)]
    Effect(hashing::EffectCommand),
    /// A block body: a JSON array of tx effects, {"txEffects": [...]}, or an L2Block.
    #[command(subcommand)]
    Block(blocks::BlockCommand),
    /// A tx-effects tree over stored leaves (`block leaves` output) or bare leaves.
    #[command(subcommand)]
    Tree(blocks::TreeCommand),
    /// A checkpoint's blob fields, as L1 blobs carry them.
    #[command(subcommand)]
    Checkpoint(blocks::CheckpointCommand),
    /// Block headers.
    #[command(subcommand)]
    Header(verify::HeaderCommand),
    /// The archive tree (block hashes under the archive root L1 knows).
    #[command(subcommand)]
    Archive(verify::ArchiveCommand),
    /// Category proofs: one category (or one element) of a tx, without the rest of it.
    #[command(subcommand)]
    Category(verify::CategoryCommand),
    /// The whole chain, from a trusted archive root down to one tx.
    #[command(subcommand)]
    Verify(verify::VerifyCommand),
    /// Membership witnesses.
    #[command(subcommand)]
    Witness(verify::WitnessCommand),
    /// Print the backend in use and how it was chosen.
    Backend,
}

fn execute(cli: Cli) -> Result<(), Failure> {
    if let Some(threads) = cli.threads {
        // The application's choice, made before anything hashes: rayon's global pool.
        rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(threads))
            .build_global()
            .map_err(|e| Failure::Backend(format!("--threads {threads}: {e}")))?;
    }
    let Selection { backend, chosen_by } =
        select_backend_from_env(cli.backend).map_err(|e| Failure::Input(e.to_string()))?;
    match cli.command {
        Command::Backend => {
            let by = match chosen_by {
                ChosenBy::Explicit => "--backend",
                ChosenBy::Environment => "TXFX_BACKEND",
                ChosenBy::Default => "default policy (auto: native)",
            };
            let name = txfx_poseidon::HashBackend::name(&backend);
            // The native backend's arithmetic depends on this CPU; the WASM guest's never does.
            let arithmetic = match backend {
                txfx_backends::AnyBackend::Native(_) => txfx_poseidon::permutation::arithmetic().to_string(),
                _ => "portable (wasm32 guest)".to_owned(),
            };
            emit(&format!("{name} (chosen by {by}); permutation arithmetic: {arithmetic}"))
        }
        Command::Poseidon2(command) => hashing::poseidon2(&backend, command),
        Command::Effect(command) => hashing::effect(&backend, command),
        Command::Block(command) => blocks::block(&backend, command),
        Command::Tree(command) => blocks::tree(&backend, command),
        Command::Checkpoint(command) => blocks::checkpoint(&backend, command),
        Command::Header(command) => verify::header(&backend, command),
        Command::Archive(command) => verify::archive(&backend, command),
        Command::Category(command) => verify::category(&backend, command),
        Command::Verify(command) => verify::verify(&backend, command),
        Command::Witness(command) => verify::witness(&backend, command),
    }
}

fn main() -> ExitCode {
    match execute(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.exit(),
    }
}
