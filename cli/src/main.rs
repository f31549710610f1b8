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
//!
//! `--json` prints every answer that is otherwise a bare value (a hash, a root, the backend) as a
//! JSON object; progress for long work goes to stderr only when it is a terminal (`progress.rs`).

mod args;
mod blocks;
mod config;
mod duration;
mod each_tx;
mod endpoint;
mod hashing;
mod io;
mod progress;
mod verify;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use txfx_backends::{BackendChoice, ChosenBy, Selection, select_backend_from_env};
use txfx_documents::json::{Json, Object};
use txfx_documents::ops::Context;
use txfx_membership::ProtocolVersion;

use crate::args::parsed;
use crate::io::{Failure, answer, emit_bytes};

/// `txfx --version`: the crate's version and the commit it was built from (build.rs).
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("TXFX_COMMIT"), ")");

/// The most `--threads`: every one is started before work begins, so the bound is what keeps a
/// typo (`--threads 65535`) from spawning threads for minutes. More than any machine's cores.
const MAX_THREADS: i64 = 1024;

#[derive(Parser)]
#[command(
    name = "txfx",
    version = VERSION,
    about = "Aztec AZIP-26 tx-effects commitments, membership witnesses and their verification"
)]
struct Cli {
    /// Hashing backend: native, wasm or auto (default: $TXFX_BACKEND, else auto).
    #[arg(long, global = true, value_parser = parsed::<BackendChoice>)]
    backend: Option<BackendChoice>,
    /// Threads that hash large batches and --jsonl chunks, the calling thread included, from 1
    /// to 1024 (default: $RAYON_NUM_THREADS, else one per core). 1 hashes on the calling thread
    /// alone.
    #[arg(long, global = true, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS))]
    threads: Option<u16>,
    /// The protocol whose rules documents are read under: v6 (Aztec v6 as deployed on mainnet
    /// and testnet), azip-26 (the AZIP's reference pin: Aztec 4.1.2's rules with the 23-field
    /// header) or pre-azip-26 (Aztec 4.1.2). `txfx protocols` lists what differs.
    #[arg(long, global = true, default_value = "v6", value_parser = parsed::<ProtocolVersion>)]
    protocol: ProtocolVersion,
    /// Print answers that are otherwise a bare value as JSON objects: {"hash"} (poseidon2 hash),
    /// {"state"} (poseidon2 permute), {"blockNumber"?, "txEffectsTreeRoot"} (block root, tree
    /// root), {"blockHash"} (header hash), {"backend", "chosenBy", "arithmetic"} (backend).
    /// Answers that are JSON already print as they are.
    #[arg(long, global = true)]
    json: bool,
    /// No progress on stderr (it is drawn only when stderr is a terminal, for long work).
    #[arg(long, short, global = true)]
    quiet: bool,
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
    /// The protocols txfx reads, and every rule that differs between them (JSON).
    Protocols,
    /// The networks txfx knows, with their genesis values and where each is written (JSON).
    Networks,
    /// Print the shell completion script for SHELL (bash, zsh, fish, elvish or powershell).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) to stdout, e.g. `txfx man > txfx.1`; a sub-command's with its
    /// path (`txfx man verify tx > txfx-verify-tx.1`); or write every command's page into a
    /// directory with --all DIR.
    Man {
        /// The sub-command whose page to print, e.g. `verify tx` (default: txfx's own).
        path: Vec<String>,
        /// Write txfx.1 and one page per sub-command (txfx-verify-tx.1, …) into DIR, which must
        /// exist; prints the files written.
        #[arg(long, value_name = "DIR", conflicts_with = "path")]
        all: Option<std::path::PathBuf>,
    },
}

fn execute(cli: Cli) -> Result<(), Failure> {
    // Scripts and pages, not answers: neither depends on the backend, and neither has a JSON form.
    match &cli.command {
        Command::Completions { .. } | Command::Man { .. } if cli.json => {
            return Err(Failure::Input(
                "--json: `completions` prints a shell script and `man` a man page; neither has a JSON form"
                    .into(),
            ));
        }
        Command::Completions { shell } => return emit_bytes(&completions(*shell)),
        Command::Man { all: Some(dir), .. } => return man_pages(dir),
        Command::Man { path, all: None } => return emit_bytes(&man_page(path)?),
        _ => {}
    }
    if let Some(threads) = cli.threads {
        // The application's choice, made before anything hashes: rayon's global pool.
        rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(threads))
            .build_global()
            .map_err(|e| Failure::Backend(format!("--threads {threads}: {e}")))?;
    } else {
        rayon_threads_bounded()?;
    }
    let Selection { backend, chosen_by } =
        select_backend_from_env(cli.backend).map_err(|e| Failure::Input(e.to_string()))?;
    match cli.command {
        Command::Backend => {
            let (by, by_key) = match chosen_by {
                ChosenBy::Explicit => ("--backend", "--backend"),
                ChosenBy::Environment => ("TXFX_BACKEND", "TXFX_BACKEND"),
                ChosenBy::Default => ("default policy (auto: native)", "default"),
            };
            let name = txfx_poseidon::HashBackend::name(&backend);
            // The native backend's arithmetic depends on this CPU; the WASM guest's never does.
            let arithmetic = match backend {
                txfx_backends::AnyBackend::Native(_) => txfx_poseidon::permutation::arithmetic().to_string(),
                _ => "portable (wasm32 guest)".to_owned(),
            };
            answer(
                cli.json,
                || format!("{name} (chosen by {by}); permutation arithmetic: {arithmetic}"),
                || {
                    Object::new()
                        .with("backend", name)
                        .with("chosenBy", by_key)
                        .with("arithmetic", arithmetic.as_str())
                        .into()
                },
            )
        }
        Command::Poseidon2(command) => hashing::poseidon2(&backend, command, cli.json),
        Command::Protocols => io::print_json(&protocols_json()),
        Command::Networks => io::print_json(&networks_json()),
        command => {
            let cx = Context::new(&backend, cli.protocol);
            match command {
                Command::Effect(command) => hashing::effect(cx, command),
                Command::Block(command) => blocks::block(cx, command, cli.json),
                Command::Tree(command) => blocks::tree(cx, command, cli.json),
                Command::Checkpoint(command) => blocks::checkpoint(cx, command),
                Command::Header(command) => verify::header(cx, command, cli.json),
                Command::Archive(command) => verify::archive(cx, command),
                Command::Category(command) => verify::category(cx, command),
                Command::Verify(command) => verify::verify(cx, command),
                Command::Witness(command) => verify::witness(cx, command),
                Command::Backend
                | Command::Poseidon2(_)
                | Command::Protocols
                | Command::Networks
                | Command::Completions { .. }
                | Command::Man { .. } => unreachable!(),
            }
        }
    }
}

/// Without `--threads`, rayon sizes its pool from `$RAYON_NUM_THREADS` (ignoring 0 and what is no
/// number): a number above [`MAX_THREADS`] is refused as `--threads` would be, rather than have
/// rayon start that many threads.
fn rayon_threads_bounded() -> Result<(), Failure> {
    let Some(value) = std::env::var_os("RAYON_NUM_THREADS") else {
        return Ok(());
    };
    match value.to_str().and_then(|text| text.parse::<u64>().ok()) {
        Some(threads) if threads > MAX_THREADS.unsigned_abs() => Err(Failure::Input(format!(
            "$RAYON_NUM_THREADS {threads}: at most {MAX_THREADS} threads (as for --threads)"
        ))),
        _ => Ok(()),
    }
}

/// `txfx protocols`: each protocol's rules, as `ProtocolVersion` states them.
fn protocols_json() -> Json {
    ProtocolVersion::ALL
        .iter()
        .map(|p| {
            Object::new()
                .with("name", p.name())
                .with("description", p.description())
                .with("default", *p == ProtocolVersion::DEPLOYED)
                .with("headerFields", p.header_fields())
                .with("archiveNodeSeparator", p.archive_node_separator().map(|s| s.value()))
                .with("blockEndBlobFields", vec![p.block_end_fields(0), p.block_end_fields(1)])
                .with("maxSnapshotLeafIndex", txfx_documents::json::safe_number(p.max_snapshot_leaf_index()))
                .with(
                    "revertCodes",
                    if *p == ProtocolVersion::V6 {
                        "0 OK, any value >= 1 read as 1"
                    } else {
                        "0 to 3, distinct"
                    },
                )
                .with("v6ValidityRules", *p == ProtocolVersion::V6)
                .with("witnessRequiresCategoriesHash", p.witness_requires_categories_hash())
        })
        .collect()
}

/// `txfx networks`: the built-in networks.
fn networks_json() -> Json {
    txfx_membership::Network::all().iter().map(txfx_documents::json::network_to_json).collect()
}

/// `txfx completions SHELL`: the script, from the parser's own definition.
fn completions(shell: clap_complete::Shell) -> Vec<u8> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "txfx", &mut script);
    script
}

/// The parser's definition as the man pages render it: built, so that every sub-command knows
/// its full name (`txfx-verify-tx`), and without clap's `help` sub-command, which has no page.
fn man_command() -> clap::Command {
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    command
}

/// Renders one page into memory.
fn render(command: clap::Command) -> Result<Vec<u8>, Failure> {
    let mut page = Vec::new();
    // Rendering into memory fails only if the writer does; a Vec's never does.
    // Every page names txfx's version and commit, as the top page does (a sub-command has none
    // of its own).
    clap_mangen::Man::new(command)
        .source(format!("txfx {VERSION}"))
        .render(&mut page)
        .map_err(|e| Failure::Output(format!("cannot render the man page: {e}")))?;
    Ok(page)
}

/// `txfx man [PATH…]`: the page of txfx, or of the sub-command at `path`, from the parser's own
/// definition.
fn man_page(path: &[String]) -> Result<Vec<u8>, Failure> {
    let mut command = man_command();
    let mut at = "txfx".to_owned();
    for name in path {
        let Some(sub) = command.find_subcommand(name).filter(|sub| !sub.is_hide_set()).cloned() else {
            let known: Vec<&str> = command.get_subcommands().map(clap::Command::get_name).collect();
            return Err(Failure::Input(format!(
                "man: {at} has no sub-command {name:?} (it has: {})",
                if known.is_empty() { "none".to_owned() } else { known.join(", ") }
            )));
        };
        at = format!("{at} {name}");
        command = sub;
    }
    render(command)
}

/// `txfx man --all DIR`: every command's page, as `NAME.1` in `dir`; prints each file written.
fn man_pages(dir: &std::path::Path) -> Result<(), Failure> {
    if !dir.is_dir() {
        return Err(Failure::Input(format!("man --all {}: not a directory", dir.display())));
    }
    let mut pending = vec![man_command()];
    while let Some(command) = pending.pop() {
        pending.extend(command.get_subcommands().filter(|sub| !sub.is_hide_set()).cloned());
        let name = format!("{}.1", command.get_display_name().unwrap_or_else(|| command.get_name()));
        let file = dir.join(&name);
        std::fs::write(&file, render(command)?)
            .map_err(|e| Failure::Output(format!("man --all: cannot write {}: {e}", file.display())))?;
        io::emit(&file.display().to_string())?;
    }
    Ok(())
}

/// Parses the command line; `verify tx` also learns which of its options the command line gave
/// (rather than the environment).
fn parse() -> Cli {
    let matches = verify::unset_empty_variables(Cli::command()).get_matches();
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit());
    if let (Command::Verify(verify), Some(("verify", matches))) = (&mut cli.command, matches.subcommand())
        && let Some(("tx", matches)) = matches.subcommand()
    {
        verify.note_given(matches);
    }
    cli
}

fn main() -> ExitCode {
    let cli = parse();
    progress::enable(cli.quiet);
    let result = execute(cli);
    // The bar is cleared before the failure is reported (or the process ends).
    progress::finish();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.exit(),
    }
}
