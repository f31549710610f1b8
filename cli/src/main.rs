//! `txfx`: Poseidon2, AZIP-26 tx-effect commitments and membership witnesses from the command line.
//!
//! Exit status: 0 success, 1 a well-formed check that fails (an invalid witness), 2 malformed
//! input (a bad argument, file, JSON or field element), 3 a backend failure. A reader that
//! closes the output early (`txfx … | head`) ends the command quietly with status 0.

use std::io::{BufRead, Read, Write};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use rayon::prelude::*;
use serde_json::{Value, json};
use txfx_backends::{AnyBackend, BackendChoice, ChosenBy, Selection, select_backend_from_env};
use txfx_membership::category::category_from_name;
use txfx_membership::json::{witness_from_json, witness_to_json};
use txfx_membership::{
    ArchiveError, ArchiveWitness, BlockHeader, CategoryError, CategoryProof, ChainSubject, ProtocolVersion,
    TrustedArchiveRoot, prove_category, verify_block_hash, verify_category_proof, verify_chain,
};
use txfx_membership::{
    BlockWitnesses, StoredBlock, TrustedRoot, TxClaim, TxEffectMembershipWitness, VerifyError, verify_effect,
    verify_leaf, verify_tx,
};
use txfx_poseidon::field::{fr_to_hex, parse_fr, parse_fr_hex, serde_hex};
use txfx_poseidon::{DomainSeparator, Fr, HashBackend, HashBackendExt, State};
use txfx_tx_effects::blob::{decode_block_blob, encode_block_blob};
use txfx_tx_effects::checkpoint::{Checkpoint, decode_checkpoint, encode_checkpoint, pad_to_blobs};
use txfx_tx_effects::json::{
    ParsedBody, ParsedCheckpoint, body_to_json, checkpoint_from_json, checkpoint_to_json, effect_from_json,
    effect_to_json, parsed_body_from_json,
};
use txfx_tx_effects::synthetic::{Profile, block};
use txfx_tx_effects::{commit_block, commit_effect, tree_root};

/// The largest input file the CLI reads (a 64-tx log-heavy block is about 36 MiB of JSON).
const MAX_INPUT_BYTES: u64 = 256 << 20;

#[derive(Parser)]
#[command(name = "txfx", version, about = "Aztec AZIP-26 tx-effects commitments and membership witnesses")]
struct Cli {
    /// Hashing backend: native, wasm or auto (default: $TXFX_BACKEND, else auto).
    #[arg(long, global = true, value_parser = parse_choice)]
    backend: Option<BackendChoice>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Poseidon2 over BN254 (barretenberg parameters).
    #[command(subcommand)]
    Poseidon2(Poseidon2Command),
    /// One tx effect.
    #[command(subcommand)]
    Effect(EffectCommand),
    /// A block body: a JSON array of tx effects, or {"txEffects": [...]}.
    #[command(subcommand)]
    Block(BlockCommand),
    /// A tx-effects tree over stored leaves (`block leaves` output) or bare leaves.
    #[command(subcommand)]
    Tree(TreeCommand),
    /// A checkpoint's blob fields, as L1 blobs carry them.
    #[command(subcommand)]
    Checkpoint(CheckpointCommand),
    /// Block headers.
    #[command(subcommand)]
    Header(HeaderCommand),
    /// The archive tree (block hashes under the archive root L1 knows).
    #[command(subcommand)]
    Archive(ArchiveCommand),
    /// Category proofs: one category (or one element) of a tx, without the rest of it.
    #[command(subcommand)]
    Category(CategoryCommand),
    /// The whole chain, from a trusted archive root down to one tx.
    #[command(subcommand)]
    Verify(VerifyCommand),
    /// Membership witnesses.
    #[command(subcommand)]
    Witness(WitnessCommand),
    /// Print the backend in use and how it was chosen.
    Backend,
}

#[derive(Subcommand)]
enum Poseidon2Command {
    /// Permute a 4-lane state; prints the 4 output lanes.
    Permute {
        /// Four field elements (0x-hex or decimal).
        #[arg(num_args = 4, required = true, allow_hyphen_values = true)]
        lanes: Vec<String>,
    },
    /// poseidon2_hash, or poseidon2_hash_with_separator with --separator.
    Hash {
        /// A u32 domain separator (decimal or 0x-hex).
        #[arg(long, value_parser = parse_separator)]
        separator: Option<DomainSeparator>,
        /// The inputs (0x-hex or decimal).
        #[arg(allow_hyphen_values = true)]
        inputs: Vec<String>,
    },
}

#[derive(Subcommand)]
enum EffectCommand {
    /// Marker, category hashes, categories hash, leaf and blob length of one effect.
    Hash {
        /// A JSON file with one tx effect (or a node's getTxEffect result), or - for stdin.
        file: String,
    },
    /// Print one effect as Aztec's TypeScript prints it (after every check txfx makes).
    Print {
        /// A JSON file with one tx effect (or a node's getTxEffect result), or - for stdin.
        file: String,
        /// One line, TypeScript's exact bytes (jsonStringify), instead of indented JSON.
        #[arg(long)]
        compact: bool,
    },
}

#[derive(Subcommand)]
enum BlockCommand {
    /// The block's txEffectsTreeRoot.
    Root {
        /// The body JSON file, or -.
        file: String,
        /// One body per line in, one {"blockNumber"?, "txEffectsTreeRoot"} per line out, in
        /// order, on all cores.
        #[arg(long)]
        jsonl: bool,
    },
    /// The stored form: block number, root and per tx txHash, categoriesHash and leaf.
    Leaves {
        /// The body JSON file, or -.
        file: String,
        /// The block number (default: the header's, for L2Block JSON).
        #[arg(long)]
        block_number: Option<u64>,
        /// Print only the leaves, as a JSON array (witnesses from them lack categoriesHash).
        #[arg(long)]
        bare: bool,
    },
    /// Decode a JSON array of blob fields into the body JSON.
    DecodeBlob {
        /// The blob-fields JSON file, or -.
        file: String,
    },
    /// Encode a body into its blob fields (a JSON array).
    EncodeBlob {
        /// The body JSON file, or -.
        file: String,
    },
    /// The membership witness of one tx (node-API JSON), or of every tx with --all.
    Witness(BlockWitnessArgs),
    /// Print a deterministic synthetic body (sparse, small or log-heavy).
    Generate {
        /// sparse, small or log-heavy.
        #[arg(long)]
        profile: String,
        /// Number of txs.
        #[arg(long)]
        txs: usize,
    },
}

#[derive(Args)]
struct BlockWitnessArgs {
    /// The body JSON file, or -.
    file: String,
    /// The tx: its index in the block, or its 0x-hex tx hash.
    #[arg(long, required_unless_present = "all", conflicts_with = "all")]
    tx: Option<String>,
    /// Every witness of the block, as a JSON array.
    #[arg(long)]
    all: bool,
    /// The block number written into the witness (default: the header's, for L2Block JSON).
    #[arg(long)]
    block_number: Option<u64>,
}

#[derive(Subcommand)]
enum TreeCommand {
    /// The root over the leaves (a stored block is checked against its own root first).
    Root {
        /// Stored leaves (`block leaves`) or a JSON array of 0x-hex leaves, or -.
        file: String,
    },
    /// The witness of one tx (node-API JSON; with categoriesHash from stored leaves).
    Witness(TreeWitnessArgs),
}

#[derive(Args)]
#[command(group(clap::ArgGroup::new("which").required(true).multiple(false).args(["index", "tx_hash"])))]
struct TreeWitnessArgs {
    /// Stored leaves (`block leaves`) or a JSON array of 0x-hex leaves, or -.
    file: String,
    /// The leaf's index.
    #[arg(long)]
    index: Option<usize>,
    /// The tx hash (stored leaves only).
    #[arg(long)]
    tx_hash: Option<String>,
    /// The block number (required for bare leaves; must agree with stored leaves').
    #[arg(long)]
    block_number: Option<u64>,
}

/// `--protocol`: which header layout and rules apply (default: AZIP-26).
fn parse_protocol(text: &str) -> Result<ProtocolVersion, String> {
    ProtocolVersion::from_name(text).ok_or_else(|| format!("{text:?}: expected azip-26 or pre-azip-26"))
}

#[derive(Subcommand)]
enum HeaderCommand {
    /// The block hash of a header, or of an L2Block's header, as the node prints them.
    Hash {
        /// The header or L2Block JSON file, or -.
        file: String,
        /// azip-26 (23 fields, with txEffectsTreeRoot) or pre-azip-26 (22 fields, Aztec 4.1.2).
        #[arg(long, default_value = "azip-26", value_parser = parse_protocol)]
        protocol: ProtocolVersion,
    },
}

#[derive(Subcommand)]
enum ArchiveCommand {
    /// Check that a block hash is in the archive under a trusted root: exit 0 `valid`, 1
    /// `invalid: <reason>`, 2 malformed.
    Verify {
        /// The trusted archive root (from L1).
        #[arg(long)]
        root: String,
        /// The block hash (`txfx header hash`).
        #[arg(long)]
        block_hash: String,
        /// The node's getBlockHashMembershipWitness answer: the JSON-RPC response, its base64
        /// string, or -.
        #[arg(long)]
        witness: String,
        /// The block number the hash must be the leaf of (default: the witness's index).
        #[arg(long)]
        block_number: Option<u64>,
    },
}

#[derive(Subcommand)]
enum CategoryCommand {
    /// Print the proof that one category (with --element, one value of it) belongs to a tx.
    Prove {
        /// The body JSON file (or L2Block), or -.
        file: String,
        /// The tx: its index in the block, or its 0x-hex tx hash.
        #[arg(long)]
        tx: String,
        /// noteHashes, nullifiers, l2ToL1Msgs, publicDataWrites, privateLogs, publicLogs or
        /// contractClassLogs.
        #[arg(long)]
        category: String,
        /// A value of the category to prove at element level.
        #[arg(long)]
        element: Option<String>,
    },
    /// Verify a proof against a tx-effects witness and a trusted root: exit 0 `valid`, 1
    /// `invalid: <reason>`, 2 malformed.
    Verify {
        /// The proof JSON file, or -.
        proof: String,
        /// The tx's membership witness JSON file.
        #[arg(long)]
        witness: String,
        /// The trusted txEffectsTreeRoot (from an authenticated header).
        #[arg(long)]
        root: String,
    },
}

#[derive(Subcommand)]
enum VerifyCommand {
    /// Archive root → header → tx-effects witness → tx: exit 0 `valid`, 1 `invalid: <link>: ...`,
    /// 2 malformed input.
    Tx(ChainArgs),
}

#[derive(Args)]
#[group(skip)]
#[command(group(clap::ArgGroup::new("subject").required(true).multiple(false).args(["tx_hash", "effect", "category_proof"])))]
struct ChainArgs {
    /// The archive root the caller trusts (from L1).
    #[arg(long)]
    archive_root: String,
    /// The node's getBlockHashMembershipWitness answer for the block.
    #[arg(long)]
    archive_witness: String,
    /// The block's header (or L2Block) JSON.
    #[arg(long)]
    header: String,
    /// The tx's tx-effects membership witness JSON.
    #[arg(long)]
    witness: String,
    /// The tx hash.
    #[arg(long)]
    tx_hash: Option<String>,
    /// The categories hash (with --tx-hash; else the witness's).
    #[arg(long, requires = "tx_hash")]
    categories_hash: Option<String>,
    /// The tx effect JSON.
    #[arg(long)]
    effect: Option<String>,
    /// A category proof JSON (`txfx category prove`).
    #[arg(long)]
    category_proof: Option<String>,
    /// The header's layout; only azip-26 headers commit to a tx-effects tree.
    #[arg(long, default_value = "azip-26", value_parser = parse_protocol)]
    protocol: ProtocolVersion,
}

#[derive(Subcommand)]
enum CheckpointCommand {
    /// Blob fields (a JSON array of 0x-hex, zero tail optional) to blocks with their
    /// txEffectsTreeRoot.
    Decode {
        /// The blob-fields JSON file, or -.
        file: String,
        /// One checkpoint per line in, one decoded checkpoint per line out, in order, on all cores.
        #[arg(long)]
        jsonl: bool,
    },
    /// Decoded-checkpoint JSON back to blob fields.
    Encode {
        /// The checkpoint JSON file (`checkpoint decode` output), or -.
        file: String,
        /// Add the zero tail up to the end of the last 4096-field blob.
        #[arg(long)]
        pad: bool,
    },
}

#[derive(Subcommand)]
enum WitnessCommand {
    /// Verify a witness against a trusted root: exit 0 `valid`, exit 1 `invalid: <reason>`.
    Verify(VerifyArgs),
}

#[derive(Args)]
#[group(skip)]
#[command(group(clap::ArgGroup::new("subject").required(true).multiple(false).args(["leaf", "tx_hash", "effect"])))]
struct VerifyArgs {
    /// The witness JSON file, or -.
    file: String,
    /// The trusted txEffectsTreeRoot (from an authenticated block header).
    #[arg(long)]
    root: String,
    /// A leaf you recomputed yourself.
    #[arg(long)]
    leaf: Option<String>,
    /// The tx hash; the leaf is rebuilt with --categories-hash or the witness's categoriesHash.
    #[arg(long)]
    tx_hash: Option<String>,
    /// The categories hash (with --tx-hash).
    #[arg(long, requires = "tx_hash")]
    categories_hash: Option<String>,
    /// The tx effect JSON file; the leaf is recomputed from it.
    #[arg(long)]
    effect: Option<String>,
}

/// How a command failed, and so which exit status it gets.
enum Failure {
    /// Malformed input: exit 2.
    Input(String),
    /// A well-formed check that failed: exit 1.
    Check(String),
    /// The backend failed: exit 3.
    Backend(String),
    /// The reader of the output went away (a closed pipe): exit 0, quietly.
    Closed,
    /// The output could not be written for another reason: exit 2.
    Output(String),
}

/// Writes `text` and a newline to stdout. A closed pipe is [`Failure::Closed`], never a panic.
fn emit(text: &str) -> Result<(), Failure> {
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{text}").and_then(|()| stdout.flush()).map_err(|error| match error.kind() {
        std::io::ErrorKind::BrokenPipe => Failure::Closed,
        _ => Failure::Output(format!("cannot write the output: {error}")),
    })
}

impl From<txfx_poseidon::BackendError> for Failure {
    fn from(error: txfx_poseidon::BackendError) -> Self {
        Self::Backend(error.to_string())
    }
}

fn parse_choice(text: &str) -> Result<BackendChoice, String> {
    BackendChoice::parse(text).map_err(|e| e.to_string())
}

fn parse_separator(text: &str) -> Result<DomainSeparator, String> {
    let value = match text.strip_prefix("0x") {
        Some(hex) => u32::from_str_radix(hex, 16),
        None => text.parse::<u32>(),
    };
    value.map(DomainSeparator::new).map_err(|_| format!("{text:?} is not a u32 separator"))
}

fn field_arg(name: &str, text: &str) -> Result<Fr, Failure> {
    parse_fr(text).map_err(|e| Failure::Input(format!("{name} {text:?}: {e}")))
}

fn hex_arg(name: &str, text: &str) -> Result<Fr, Failure> {
    parse_fr_hex(text).map_err(|e| Failure::Input(format!("{name} {text:?}: {e}")))
}

/// Reads a file (or stdin for `-`), refusing anything over [`MAX_INPUT_BYTES`].
fn read_input(path: &str) -> Result<String, Failure> {
    let mut bytes = Vec::new();
    let limited =
        |reader: &mut dyn Read, bytes: &mut Vec<u8>| reader.take(MAX_INPUT_BYTES + 1).read_to_end(bytes);
    let result = if path == "-" {
        limited(&mut std::io::stdin().lock(), &mut bytes)
    } else {
        std::fs::File::open(path).and_then(|mut file| limited(&mut file, &mut bytes))
    };
    result.map_err(|e| Failure::Input(format!("{path}: {e}")))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(Failure::Input(format!("{path}: larger than the {MAX_INPUT_BYTES}-byte input limit")));
    }
    String::from_utf8(bytes).map_err(|_| Failure::Input(format!("{path}: not UTF-8")))
}

fn read_fields(path: &str) -> Result<Vec<Fr>, Failure> {
    fields_from_text(path, &read_input(path)?)
}

/// A JSON array of field elements; `source` names the input in errors.
fn fields_from_text(source: &str, text: &str) -> Result<Vec<Fr>, Failure> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let fields = serde_hex::vec::deserialize(&mut deserializer)
        .map_err(|e| Failure::Input(format!("{source}: {e}")))?;
    deserializer.end().map_err(|e| Failure::Input(format!("{source}: {e}")))?;
    Ok(fields)
}

/// Leaves as `tree` commands take them: the stored form (`block leaves`), or a bare array.
enum Leaves {
    Stored(StoredBlock),
    Bare(Vec<Fr>),
}

fn read_leaves(path: &str) -> Result<Leaves, Failure> {
    let text = read_input(path)?;
    if text.trim_start().starts_with('{') {
        let stored = StoredBlock::from_json(&text).map_err(|e| Failure::Input(format!("{path}: {e}")))?;
        Ok(Leaves::Stored(stored))
    } else {
        Ok(Leaves::Bare(fields_from_text(path, &text)?))
    }
}

/// Witnesses of stored leaves, every leaf and the root checked first.
fn stored_witnesses(
    backend: &AnyBackend,
    path: &str,
    stored: &StoredBlock,
) -> Result<BlockWitnesses, Failure> {
    BlockWitnesses::from_stored(backend, stored).map_err(|e| match e {
        txfx_membership::StoredError::Backend(error) => Failure::Backend(error.to_string()),
        other => Failure::Input(format!("{path}: {other}")),
    })
}

/// The most lines `--jsonl` holds at once, and the most bytes: a chunk is decoded on all cores,
/// then printed in order.
const JSONL_CHUNK_LINES: usize = 256;
const JSONL_CHUNK_BYTES: usize = 64 << 20;

/// `--jsonl`: one input per line, one JSON result per line, in input order, each chunk of lines
/// on all cores. A line that fails prints `{"line": N, "error": "..."}` in its place (so output
/// line N always answers input line N) and the command exits 2 (3 for a backend failure) after
/// the last line.
fn jsonl(path: &str, per_line: impl Fn(&str) -> Result<Value, Failure> + Sync) -> Result<(), Failure> {
    let mut reader: Box<dyn BufRead> = if path == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(path).map_err(|e| Failure::Input(format!("{path}: {e}")))?;
        Box::new(std::io::BufReader::new(file))
    };
    let (mut line_number, mut failed, mut backend_failed) = (0usize, 0usize, false);
    loop {
        let (mut chunk, mut bytes) = (Vec::new(), 0);
        while chunk.len() < JSONL_CHUNK_LINES && bytes < JSONL_CHUNK_BYTES {
            let mut line = Vec::new();
            let read = (&mut reader)
                .take(MAX_INPUT_BYTES + 1)
                .read_until(b'\n', &mut line)
                .map_err(|e| Failure::Input(format!("{path}: {e}")))?;
            if read == 0 {
                break;
            }
            if line.len() as u64 > MAX_INPUT_BYTES {
                return Err(Failure::Input(format!(
                    "{path}: line {} is longer than the {MAX_INPUT_BYTES}-byte input limit",
                    line_number + chunk.len() + 1
                )));
            }
            bytes += line.len();
            chunk.push(line);
        }
        if chunk.is_empty() {
            break;
        }
        let first = line_number + 1;
        line_number += chunk.len();
        let results: Vec<Result<Value, Failure>> = chunk
            .par_iter()
            .enumerate()
            .map(|(i, line)| {
                let source = format!("line {}", first + i);
                let text =
                    std::str::from_utf8(line).map_err(|_| Failure::Input(format!("{source}: not UTF-8")))?;
                let text = text.trim_end_matches(['\n', '\r']);
                if text.trim().is_empty() {
                    return Err(Failure::Input(format!("{source}: empty line")));
                }
                per_line(text).map_err(|failure| match failure {
                    Failure::Input(reason) => Failure::Input(format!("{source}: {reason}")),
                    other => other,
                })
            })
            .collect();
        for (i, result) in results.into_iter().enumerate() {
            let reason = match result {
                Ok(value) => {
                    emit(&value.to_string())?;
                    continue;
                }
                Err(Failure::Closed) => return Err(Failure::Closed),
                Err(Failure::Backend(reason)) => {
                    backend_failed = true;
                    format!("backend failure: {reason}")
                }
                Err(Failure::Input(reason) | Failure::Check(reason) | Failure::Output(reason)) => reason,
            };
            failed += 1;
            let text = json!({ "line": first + i, "error": reason }).to_string();
            emit(&text)?;
        }
    }
    match (failed, backend_failed) {
        (0, _) => Ok(()),
        (n, true) => {
            Err(Failure::Backend(format!("{n} of {line_number} lines failed; see their \"error\" records")))
        }
        (n, false) => {
            Err(Failure::Input(format!("{n} of {line_number} lines failed; see their \"error\" records")))
        }
    }
}

/// Decodes one checkpoint's blob fields and prints it with each block's txEffectsTreeRoot.
fn decoded_checkpoint(backend: &AnyBackend, source: &str, fields: &[Fr]) -> Result<Value, Failure> {
    let checkpoint = decode_checkpoint(fields).map_err(|e| Failure::Input(format!("{source}: {e}")))?;
    let roots = checkpoint_roots(backend, &checkpoint)?;
    Ok(checkpoint_to_json(&checkpoint, Some(&roots)))
}

fn checkpoint_roots(backend: &AnyBackend, checkpoint: &Checkpoint) -> Result<Vec<Fr>, Failure> {
    checkpoint.blocks().iter().map(|block| Ok(commit_block(backend, &block.body)?.root())).collect()
}

fn checkpoint_command(backend: &AnyBackend, command: CheckpointCommand) -> Result<(), Failure> {
    match command {
        CheckpointCommand::Decode { file, jsonl: true } => jsonl(&file, |line| {
            decoded_checkpoint(backend, "blob fields", &fields_from_text("blob fields", line)?)
        }),
        CheckpointCommand::Decode { file, jsonl: false } => {
            print_json(&decoded_checkpoint(backend, &file, &read_fields(&file)?)?)
        }
        CheckpointCommand::Encode { file, pad } => {
            let ParsedCheckpoint { checkpoint, claimed_roots } = checkpoint_from_json(&read_input(&file)?)
                .map_err(|e| Failure::Input(format!("{file}: {e}")))?;
            // A root the input claims is checked, never dropped unread.
            if claimed_roots.iter().any(Option::is_some) {
                let roots = checkpoint_roots(backend, &checkpoint)?;
                for (block, (claimed, root)) in claimed_roots.iter().zip(&roots).enumerate() {
                    if let Some(claimed) = claimed.filter(|claimed| claimed != root) {
                        return Err(Failure::Input(format!(
                            "{file}: block {block}: txEffectsTreeRoot {} is given, its body gives {}",
                            fr_to_hex(&claimed),
                            fr_to_hex(root)
                        )));
                    }
                }
            }
            let fields = encode_checkpoint(&checkpoint);
            print_json(&hex_list(&if pad { pad_to_blobs(fields) } else { fields }))
        }
    }
}

fn read_body(path: &str) -> Result<txfx_tx_effects::Body, Failure> {
    Ok(read_parsed_body(path)?.body)
}

/// A body (`{"txEffects"}`, a bare array, or a node's L2Block JSON with its block number).
fn read_parsed_body(path: &str) -> Result<ParsedBody, Failure> {
    parsed_body_from_json(&read_input(path)?).map_err(|e| Failure::Input(format!("{path}: {e}")))
}

fn print_json(value: &Value) -> Result<(), Failure> {
    // Printing a Value into a String cannot fail: its keys are strings.
    let text = serde_json::to_string_pretty(value).map_err(|e| Failure::Output(e.to_string()))?;
    emit(&text)
}

fn hex_list(values: &[Fr]) -> Value {
    Value::Array(values.iter().map(|v| Value::String(fr_to_hex(v))).collect())
}

fn poseidon2(backend: &AnyBackend, command: Poseidon2Command) -> Result<(), Failure> {
    match command {
        Poseidon2Command::Permute { lanes } => {
            let values = lanes
                .iter()
                .enumerate()
                .map(|(i, text)| field_arg(&format!("lane {i}"), text))
                .collect::<Result<Vec<_>, _>>()?;
            let mut states: Vec<State> =
                vec![values.try_into().map_err(|_| Failure::Input("permute takes exactly 4 lanes".into()))?];
            backend.permute_batch(&mut states)?;
            for lane in states.iter().flatten() {
                emit(&fr_to_hex(lane))?;
            }
        }
        Poseidon2Command::Hash { separator, inputs } => {
            let values = inputs
                .iter()
                .enumerate()
                .map(|(i, text)| field_arg(&format!("input {i}"), text))
                .collect::<Result<Vec<_>, _>>()?;
            let hash = match separator {
                Some(separator) => backend.hash_with_separator(&values, separator)?,
                None => backend.hash(&values)?,
            };
            emit(&fr_to_hex(&hash))?;
        }
    }
    Ok(())
}

fn block_command(backend: &AnyBackend, command: BlockCommand) -> Result<(), Failure> {
    match command {
        BlockCommand::Root { file, jsonl: true } => jsonl(&file, |line| {
            let ParsedBody { body, block_number } =
                parsed_body_from_json(line).map_err(|e| Failure::Input(e.to_string()))?;
            let root = fr_to_hex(&commit_block(backend, &body)?.root());
            Ok(match block_number {
                Some(number) => json!({ "blockNumber": number, "txEffectsTreeRoot": root }),
                None => json!({ "txEffectsTreeRoot": root }),
            })
        })?,
        BlockCommand::Root { file, jsonl: false } => {
            emit(&fr_to_hex(&commit_block(backend, &read_body(&file)?)?.root()))?
        }
        BlockCommand::Leaves { file, block_number: _, bare: true } => {
            print_json(&hex_list(commit_block(backend, &read_body(&file)?)?.leaves()))?
        }
        BlockCommand::Leaves { file, block_number, bare: false } => {
            let ParsedBody { body, block_number: in_header } = read_parsed_body(&file)?;
            let block_number = block_number.or(in_header).ok_or_else(|| {
                Failure::Input(format!(
                    "{file}: give --block-number (the body has no header to take it from), or --bare"
                ))
            })?;
            print_json(&StoredBlock::from_body(backend, &body, block_number)?.to_json())?
        }
        BlockCommand::DecodeBlob { file } => {
            let body = decode_block_blob(&read_fields(&file)?)
                .map_err(|e| Failure::Input(format!("{file}: {e}")))?;
            print_json(&body_to_json(&body))?;
        }
        BlockCommand::EncodeBlob { file } => print_json(&hex_list(&encode_block_blob(&read_body(&file)?)))?,
        BlockCommand::Generate { profile, txs } => {
            let profile = Profile::from_name(&profile).ok_or_else(|| {
                Failure::Input(format!("profile {profile:?}: expected sparse, small or log-heavy"))
            })?;
            if txs > txfx_tx_effects::limits::MAX_TXS_PER_BLOCK {
                return Err(Failure::Input(format!("--txs {txs}: a block holds at most 65536 txs")));
            }
            let body = block(profile, txs).map_err(|e| Failure::Input(e.to_string()))?;
            // Compact: a 64-tx log-heavy block is 36 MiB even so.
            emit(&body_to_json(&body).to_string())?;
        }
        BlockCommand::Witness(args) => {
            let ParsedBody { body, block_number } = read_parsed_body(&args.file)?;
            let block_number = args.block_number.or(block_number).ok_or_else(|| {
                Failure::Input(format!(
                    "{}: give --block-number (the body has no header to take it from)",
                    args.file
                ))
            })?;
            let witnesses = BlockWitnesses::from_body(backend, &body, block_number)?;
            if args.all {
                return print_json(&Value::Array(witnesses.all().iter().map(witness_to_json).collect()));
            }
            let tx = args.tx.unwrap_or_default();
            let witness = if tx.starts_with("0x") {
                witnesses
                    .witness_for_tx_hash(hex_arg("--tx", &tx)?)
                    .map_err(|e| Failure::Input(e.to_string()))
            } else {
                let index = tx
                    .parse::<usize>()
                    .map_err(|_| Failure::Input(format!("--tx {tx:?}: not an index or 0x tx hash")))?;
                witnesses.witness(index).map_err(|e| Failure::Input(e.to_string()))
            }?;
            print_json(&witness_to_json(&witness))?;
        }
    }
    Ok(())
}

fn read_header(path: &str, protocol: ProtocolVersion) -> Result<BlockHeader, Failure> {
    BlockHeader::from_json(&read_input(path)?, protocol).map_err(|e| Failure::Input(format!("{path}: {e}")))
}

fn read_archive_witness(path: &str) -> Result<ArchiveWitness, Failure> {
    ArchiveWitness::from_json(&read_input(path)?).map_err(|e| Failure::Input(format!("{path}: {e}")))
}

fn read_witness(path: &str) -> Result<TxEffectMembershipWitness, Failure> {
    witness_from_json(&read_input(path)?).map_err(|e| Failure::Input(format!("{path}: {e}")))
}

fn read_effect(path: &str) -> Result<txfx_tx_effects::TxEffect, Failure> {
    effect_from_json(&read_input(path)?).map_err(|e| Failure::Input(format!("{path}: {e}")))
}

/// The tx of `--tx-hash` (and `--categories-hash`, if given).
fn tx_claim(tx_hash: &str, categories_hash: Option<&str>) -> Result<TxClaim, Failure> {
    let categories_hash = categories_hash.map(|c| hex_arg("--categories-hash", c)).transpose()?;
    Ok(TxClaim { tx_hash: hex_arg("--tx-hash", tx_hash)?, categories_hash })
}

fn read_proof(path: &str) -> Result<CategoryProof, Failure> {
    CategoryProof::from_json(&read_input(path)?).map_err(|e| Failure::Input(format!("{path}: {e}")))
}

/// The index of `--tx` (an index, or a 0x tx hash) in `body`.
fn tx_index(body: &txfx_tx_effects::Body, tx: &str) -> Result<usize, Failure> {
    if tx.starts_with("0x") {
        let hash = hex_arg("--tx", tx)?;
        body.tx_effects
            .iter()
            .position(|effect| effect.tx_hash == hash)
            .ok_or_else(|| Failure::Input(format!("--tx {tx}: no tx of the block has this hash")))
    } else {
        let index = tx
            .parse::<usize>()
            .map_err(|_| Failure::Input(format!("--tx {tx:?}: not an index or 0x tx hash")))?;
        if index >= body.len() {
            return Err(Failure::Input(format!("--tx {index}: the block has {} txs", body.len())));
        }
        Ok(index)
    }
}

fn category_failure(error: CategoryError) -> Failure {
    match error {
        CategoryError::Backend(error) | CategoryError::Leaf(VerifyError::Backend(error)) => {
            Failure::Backend(error.to_string())
        }
        CategoryError::Malformed { .. } => Failure::Input(error.to_string()),
        other => Failure::Check(other.to_string()),
    }
}

fn category_command(backend: &AnyBackend, command: CategoryCommand) -> Result<(), Failure> {
    match command {
        CategoryCommand::Prove { file, tx, category, element } => {
            let body = read_body(&file)?;
            let index = tx_index(&body, &tx)?;
            let category = category_from_name(&category).ok_or_else(|| {
                Failure::Input(format!(
                    "--category {category:?}: expected noteHashes, nullifiers, l2ToL1Msgs, publicDataWrites, privateLogs, publicLogs or contractClassLogs"
                ))
            })?;
            let element = element.as_deref().map(|e| hex_arg("--element", e)).transpose()?;
            let effect = body
                .tx_effects
                .get(index)
                .ok_or_else(|| Failure::Input(format!("--tx {tx}: not in the block")))?;
            let proof = prove_category(backend, effect, category, element).map_err(|e| match e {
                CategoryError::Backend(error) => Failure::Backend(error.to_string()),
                other => Failure::Input(other.to_string()),
            })?;
            print_json(&proof.to_json())
        }
        CategoryCommand::Verify { proof, witness, root } => {
            let proof = read_proof(&proof)?;
            let witness = read_witness(&witness)?;
            let root = TrustedRoot::from_authenticated_header(hex_arg("--root", &root)?);
            verify_category_proof(backend, &proof, &witness, root).map_err(category_failure)?;
            emit("valid")
        }
    }
}

fn verify_chain_command(backend: &AnyBackend, args: ChainArgs) -> Result<(), Failure> {
    let archive_root =
        TrustedArchiveRoot::from_trusted_source(hex_arg("--archive-root", &args.archive_root)?);
    let archive_witness = read_archive_witness(&args.archive_witness)?;
    let header = read_header(&args.header, args.protocol)?;
    let witness = read_witness(&args.witness)?;
    let effect = args.effect.as_deref().map(read_effect).transpose()?;
    let proof = args.category_proof.as_deref().map(read_proof).transpose()?;
    let subject = match (&args.tx_hash, &effect, &proof) {
        (Some(tx_hash), _, _) => ChainSubject::Tx(tx_claim(tx_hash, args.categories_hash.as_deref())?),
        (None, Some(effect), _) => ChainSubject::Effect(effect),
        (None, None, Some(proof)) => ChainSubject::Category(proof),
        (None, None, None) => {
            return Err(Failure::Input("give --tx-hash, --effect or --category-proof".into()));
        }
    };
    match verify_chain(backend, archive_root, &archive_witness, &header, &witness, subject) {
        Ok(()) => emit("valid"),
        Err(error) => match error.link() {
            Some(_) => Err(Failure::Check(error.to_string())),
            None => Err(Failure::Backend(error.to_string())),
        },
    }
}

fn tree_witness(backend: &AnyBackend, args: TreeWitnessArgs) -> Result<(), Failure> {
    let file = &args.file;
    let leaves = read_leaves(file)?;
    let bare = matches!(leaves, Leaves::Bare(_));
    let witnesses = match leaves {
        Leaves::Stored(stored) => {
            if let Some(given) = args.block_number.filter(|given| *given != stored.block_number) {
                return Err(Failure::Input(format!(
                    "--block-number {given}: the stored leaves are of block {}",
                    stored.block_number
                )));
            }
            stored_witnesses(backend, file, &stored)?
        }
        Leaves::Bare(leaves) => {
            if leaves.len() > txfx_tx_effects::limits::MAX_TXS_PER_BLOCK {
                return Err(Failure::Input(format!("{file}: more than 65536 leaves")));
            }
            let block_number = args.block_number.ok_or_else(|| {
                Failure::Input(format!("{file}: bare leaves carry no block number; give --block-number"))
            })?;
            if let Some(index) = args.index.filter(|index| *index >= leaves.len()) {
                return Err(Failure::Input(format!(
                    "index {index} is out of bounds for {} leaves",
                    leaves.len()
                )));
            }
            BlockWitnesses::from_leaves(backend, leaves, block_number)?
        }
    };
    let witness: TxEffectMembershipWitness = match (args.index, &args.tx_hash) {
        (Some(index), _) => witnesses.witness(index).map_err(|e| Failure::Input(e.to_string()))?,
        (None, Some(_)) if bare => {
            return Err(Failure::Input(format!("{file}: bare leaves carry no tx hashes; give --index")));
        }
        (None, Some(hash)) => witnesses
            .witness_for_tx_hash(hex_arg("--tx-hash", hash)?)
            .map_err(|e| Failure::Input(e.to_string()))?,
        (None, None) => return Err(Failure::Input("give --index or --tx-hash".into())),
    };
    print_json(&witness_to_json(&witness))
}

fn verify(backend: &AnyBackend, args: VerifyArgs) -> Result<(), Failure> {
    let witness = read_witness(&args.file)?;
    // The caller vouches for --root: it is the header's txEffectsTreeRoot they authenticated.
    let root = TrustedRoot::from_authenticated_header(hex_arg("--root", &args.root)?);
    let result = if let Some(leaf) = &args.leaf {
        verify_leaf(backend, hex_arg("--leaf", leaf)?, &witness, root)
    } else if let Some(tx_hash) = &args.tx_hash {
        verify_tx(backend, tx_claim(tx_hash, args.categories_hash.as_deref())?, &witness, root)
    } else if let Some(effect) = &args.effect {
        verify_effect(backend, &read_effect(effect)?, &witness, root)
    } else {
        return Err(Failure::Input("give --leaf, --tx-hash or --effect".into()));
    };
    match result {
        Ok(()) => emit("valid"),
        Err(VerifyError::Backend(error)) => Err(Failure::Backend(error.to_string())),
        Err(error) => Err(Failure::Check(error.to_string())),
    }
}

fn execute(cli: Cli) -> Result<(), Failure> {
    let Selection { backend, chosen_by } =
        select_backend_from_env(cli.backend).map_err(|e| Failure::Input(e.to_string()))?;
    match cli.command {
        Command::Backend => {
            let by = match chosen_by {
                ChosenBy::Explicit => "--backend",
                ChosenBy::Environment => "TXFX_BACKEND",
                ChosenBy::Default => "default policy (auto: native)",
            };
            emit(&format!("{} (chosen by {by})", backend.name()))?;
        }
        Command::Poseidon2(command) => poseidon2(&backend, command)?,
        Command::Effect(EffectCommand::Print { file, compact }) => {
            let effect = read_effect(&file)?;
            let json = effect_to_json(&effect);
            if compact { emit(&json.to_string())? } else { print_json(&json)? }
        }
        Command::Effect(EffectCommand::Hash { file }) => {
            let effect = read_effect(&file)?;
            let c = commit_effect(&backend, &effect)?;
            print_json(&json!({
                "txStartMarker": fr_to_hex(&c.tx_start_marker),
                "categoryHashes": hex_list(&c.category_hashes),
                "categoriesHash": fr_to_hex(&c.categories_hash),
                "leaf": fr_to_hex(&c.leaf),
                "numBlobFields": c.num_blob_fields,
            }))?;
        }
        Command::Block(command) => block_command(&backend, command)?,
        Command::Tree(TreeCommand::Root { file }) => match read_leaves(&file)? {
            Leaves::Stored(stored) => emit(&fr_to_hex(&stored_witnesses(&backend, &file, &stored)?.root()))?,
            Leaves::Bare(leaves) => emit(&fr_to_hex(&tree_root(&backend, &leaves)?))?,
        },
        Command::Tree(TreeCommand::Witness(args)) => tree_witness(&backend, args)?,
        Command::Checkpoint(command) => checkpoint_command(&backend, command)?,
        Command::Header(HeaderCommand::Hash { file, protocol }) => {
            let header = read_header(&file, protocol)?;
            emit(&fr_to_hex(&header.hash(&backend)?))?;
        }
        Command::Archive(ArchiveCommand::Verify { root, block_hash, witness, block_number }) => {
            let witness_path = witness;
            let witness = read_archive_witness(&witness_path)?;
            let root = TrustedArchiveRoot::from_trusted_source(hex_arg("--root", &root)?);
            let block_hash = hex_arg("--block-hash", &block_hash)?;
            let block_number = block_number.unwrap_or(witness.leaf_index);
            match verify_block_hash(&backend, block_hash, block_number, &witness, root) {
                Ok(()) => emit("valid")?,
                Err(ArchiveError::Backend(error)) => return Err(Failure::Backend(error.to_string())),
                Err(error @ ArchiveError::WrongPathLength { .. }) => {
                    return Err(Failure::Input(format!("{witness_path}: {error}")));
                }
                Err(error) => return Err(Failure::Check(error.to_string())),
            }
        }
        Command::Category(command) => category_command(&backend, command)?,
        Command::Verify(VerifyCommand::Tx(args)) => verify_chain_command(&backend, args)?,
        Command::Witness(WitnessCommand::Verify(args)) => verify(&backend, args)?,
    }
    Ok(())
}

/// Writes `txfx: reason` to stderr. A closed stderr leaves nowhere to report to, so a failed
/// write is dropped rather than turned into a panic; the exit status still tells.
fn report(reason: &str) {
    let _ = writeln!(std::io::stderr().lock(), "txfx: {reason}");
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match execute(cli) {
        Ok(()) | Err(Failure::Closed) => ExitCode::SUCCESS,
        Err(Failure::Check(reason)) => match emit(&format!("invalid: {reason}")) {
            Ok(()) | Err(Failure::Closed) => ExitCode::from(1),
            Err(_) => ExitCode::from(2),
        },
        Err(Failure::Output(reason) | Failure::Input(reason)) => {
            report(&reason);
            ExitCode::from(2)
        }
        Err(Failure::Backend(reason)) => {
            report(&format!("backend failure: {reason}"));
            ExitCode::from(3)
        }
    }
}
