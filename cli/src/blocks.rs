//! `txfx block`, `txfx tree` and `txfx checkpoint`: bodies, their roots, leaves and witnesses,
//! trees over stored leaves, and checkpoints as L1 blobs carry them.

use clap::{ArgGroup, Args, Subcommand};
use rayon::prelude::*;
use txfx_documents::json::witness_to_json;
use txfx_documents::json::{Json, Object, effect_to_json};
use txfx_documents::ops::{
    Context, blob_decode, blob_encode, block_leaves, block_witnesses, bodies_commitments, body_commitment,
    checkpoint_decode, checkpoint_encode, checkpoint_fields, checkpoints_decoded_json, commit_unchecked,
    hex_list, leaves_root, leaves_witnesses, witness_of, witnesses_json,
};
use txfx_documents::{Doc, DocumentError, TxSelector, read};
use txfx_poseidon::field::fr_to_hex;
use txfx_tx_effects::BlockNumber;
use txfx_tx_effects::limits::MAX_TXS_PER_BLOCK;
use txfx_tx_effects::synthetic::{Profile, effect};

use crate::args::{hex, parsed, tx};
use crate::io::{Failure, Input, MAX_INPUT_BYTES, answer, emit, emit_part, jsonl_chunks, print_json};
use crate::progress;

/// `txfx block`.
#[derive(Subcommand)]
pub enum BlockCommand {
    /// The block's txEffectsTreeRoot.
    Root {
        /// The body JSON file (a body, an L2Block or an array of effects), or -.
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
        /// The block number (default: the header's, for L2Block JSON; both must agree).
        #[arg(long, value_parser = parsed::<BlockNumber>)]
        block_number: Option<BlockNumber>,
        /// Print only the leaves, as a JSON array (witnesses from them lack categoriesHash).
        #[arg(long, conflicts_with = "block_number")]
        bare: bool,
    },
    /// Decode a JSON array of blob fields into the body JSON.
    DecodeBlob {
        /// The blob-fields JSON file, or -.
        file: String,
    },
    /// Encode an effect or a body into its blob fields (a JSON array).
    EncodeBlob {
        /// The effect or body JSON file, or -.
        file: String,
    },
    /// The membership witness of one tx (node-API JSON), or of every tx with --all.
    Witness(BlockWitnessArgs),
    /// Print a deterministic synthetic body (sparse, small or log-heavy), streamed.
    Generate {
        /// sparse, small or log-heavy.
        #[arg(long, value_parser = parsed::<Profile>)]
        profile: Profile,
        /// Number of txs (at most what txfx can read back: the profile's txs that fit the
        /// 256 MiB input limit).
        #[arg(long)]
        txs: usize,
    },
}

/// `txfx block witness`.
#[derive(Args)]
pub struct BlockWitnessArgs {
    /// The body JSON file, or -.
    file: String,
    /// The tx: its index in the block, or its 0x-hex tx hash.
    #[arg(long, required_unless_present = "all", conflicts_with = "all")]
    tx: Option<String>,
    /// Every witness of the block, as a JSON array.
    #[arg(long)]
    all: bool,
    /// The block number written into the witness (default: the header's, for L2Block JSON; both
    /// must agree).
    #[arg(long, value_parser = parsed::<BlockNumber>)]
    block_number: Option<BlockNumber>,
}

/// `txfx tree`.
#[derive(Subcommand)]
pub enum TreeCommand {
    /// The root over the leaves (a stored block is checked against its own root first).
    Root {
        /// Stored leaves (`block leaves`) or a JSON array of 0x-hex leaves, or -.
        file: String,
    },
    /// The witness of one tx (node-API JSON; with categoriesHash from stored leaves).
    Witness(TreeWitnessArgs),
}

/// `txfx tree witness`.
#[derive(Args)]
#[command(group(ArgGroup::new("which").required(true).multiple(false).args(["index", "tx_hash"])))]
pub struct TreeWitnessArgs {
    /// Stored leaves (`block leaves`) or a JSON array of 0x-hex leaves, or -.
    file: String,
    /// The leaf's index.
    #[arg(long)]
    index: Option<usize>,
    /// The tx hash (stored leaves only).
    #[arg(long)]
    tx_hash: Option<String>,
    /// The block number (required for bare leaves; must agree with stored leaves').
    #[arg(long, value_parser = parsed::<BlockNumber>)]
    block_number: Option<BlockNumber>,
}

/// `txfx checkpoint`.
#[derive(Subcommand)]
pub enum CheckpointCommand {
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

/// `block root`'s answer as JSON (a `--jsonl` line, or `--json`): the root, with the block number
/// when the document has one.
fn root_json(block_number: Option<BlockNumber>, root: &str) -> Json {
    match block_number {
        Some(number) => Object::new().with("blockNumber", number.get()).with("txEffectsTreeRoot", root),
        None => Object::new().with("txEffectsTreeRoot", root),
    }
    .into()
}

pub fn block(cx: Context<'_>, command: BlockCommand, json: bool) -> Result<(), Failure> {
    match command {
        // Each chunk of lines is read line by line on all cores, then every body in it is
        // committed in one batch per stage and tree level, and checked against its block header's
        // root on that commitment (bodies of a tx or two leave the batch kernel's lanes empty
        // alone). A backend failure then answers every line of the chunk.
        BlockCommand::Root { file, jsonl: true } => jsonl_chunks(&file, |docs| {
            read_then_batch(
                docs,
                |doc| read::body_unchecked(cx.hasher, doc, cx.protocol),
                |unchecked| {
                    Ok(bodies_commitments(cx.hasher, unchecked)?
                        .into_iter()
                        .map(|answer| {
                            let (document, commitment) = answer?;
                            Ok(root_json(document.block_number(), &fr_to_hex(&commitment.root())))
                        })
                        .collect())
                },
            )
        }),
        BlockCommand::Root { file, jsonl: false } => {
            let input = Input::read(&file)?;
            // Read without the body's check against its header, which is made on the one
            // commitment below: the body is hashed once, not twice.
            let unchecked = read::body_unchecked(cx.hasher, input.doc(), cx.protocol)?;
            // The text can be as large as the input limit: free it before the commitment, which
            // holds every category's preimage.
            drop(input);
            progress::then(format!("hashing {} txs", unchecked.body().tx_effects.len()));
            let (document, commitment) = commit_unchecked(cx.hasher, unchecked)?;
            let root = fr_to_hex(&commitment.root());
            answer(json, || root.clone(), || root_json(document.block_number(), &root))
        }
        BlockCommand::Leaves { file, bare: true, .. } => {
            let input = Input::read(&file)?;
            print_json(&hex_list(body_commitment(cx, input.doc())?.1.leaves()))
        }
        BlockCommand::Leaves { file, block_number, bare: false } => {
            let input = Input::read(&file)?;
            print_json(&txfx_documents::json::stored_block_to_json(&block_leaves(
                cx,
                input.doc(),
                block_number,
            )?))
        }
        BlockCommand::DecodeBlob { file } => print_json(&blob_decode(cx, Input::read(&file)?.doc())?),
        BlockCommand::EncodeBlob { file } => {
            print_json(&hex_list(&blob_encode(cx, Input::read(&file)?.doc())?))
        }
        BlockCommand::Generate { profile, txs } => generate(profile, txs),
        BlockCommand::Witness(args) => {
            let input = Input::read(&args.file)?;
            let witnesses = block_witnesses(cx, input.doc(), args.block_number)?;
            match &args.tx {
                Some(selector) => print_json(&witness_to_json(&witness_of(&witnesses, tx(selector)?)?)),
                None => print_json(&witnesses_json(&witnesses.all())),
            }
        }
    }
}

/// The most txs of `profile` whose JSON txfx can read back (the input limit). Every tx of a
/// profile prints to the same length (fixed-width hex).
fn max_readable_txs(profile: Profile) -> Result<usize, Failure> {
    let room = MAX_INPUT_BYTES.saturating_sub(r#"{"txEffects":[]}"#.len() as u64 + 1);
    Ok(usize::try_from(room / per_tx(profile)?).unwrap_or(usize::MAX))
}

/// The bytes one tx of `profile` prints to, its separator included.
fn per_tx(profile: Profile) -> Result<u64, Failure> {
    let one = effect(profile, 0).map_err(|e| Failure::Input(e.to_string()))?;
    Ok(effect_to_json(&one).to_string().len() as u64 + 1)
}

/// `block generate`: the body streamed tx by tx, so memory holds one effect at a time.
fn generate(profile: Profile, txs: usize) -> Result<(), Failure> {
    if txs > MAX_TXS_PER_BLOCK {
        return Err(Failure::Input(format!("--txs {txs}: a block holds at most {MAX_TXS_PER_BLOCK} txs")));
    }
    let readable = max_readable_txs(profile)?;
    if txs > readable {
        return Err(Failure::Input(format!(
            "--txs {txs}: a {} body of more than {readable} txs would not fit the {MAX_INPUT_BYTES}-byte input limit txfx reads back",
            profile.name()
        )));
    }
    // Drawn when the body is large and goes to a file or a pipe (on the terminal, the body itself
    // shows the progress).
    let large = (txs as u64).saturating_mul(per_tx(profile)?) >= progress::LARGE
        && !std::io::IsTerminal::is_terminal(&std::io::stdout());
    progress::count(format!("generating a {} body", profile.name()), txs as u64, large);
    emit_part(r#"{"txEffects":["#)?;
    for index in 0..txs {
        let tx = effect(profile, index).map_err(|e| Failure::Input(e.to_string()))?;
        let separator = if index == 0 { "" } else { "," };
        emit_part(&format!("{separator}{}", effect_to_json(&tx)))?;
        progress::inc();
    }
    emit("]}")
}

pub fn tree(cx: Context<'_>, command: TreeCommand, json: bool) -> Result<(), Failure> {
    match command {
        TreeCommand::Root { file } => {
            let root = fr_to_hex(&leaves_root(cx, Input::read(&file)?.doc())?);
            answer(json, || root.clone(), || Object::new().with("txEffectsTreeRoot", root.as_str()).into())
        }
        TreeCommand::Witness(args) => {
            let input = Input::read(&args.file)?;
            let witnesses = leaves_witnesses(cx, input.doc(), args.block_number)?;
            let selector = match (args.index, &args.tx_hash) {
                (Some(index), _) => TxSelector::Index(index),
                (None, Some(hash)) => TxSelector::Hash(hex("--tx-hash", hash)?),
                (None, None) => return Err(Failure::Input("give --index or --tx-hash".into())),
            };
            print_json(&witness_to_json(&witness_of(&witnesses, selector)?))
        }
    }
}

/// One chunk of `--jsonl` lines answered in two steps: each line is `read` on all cores, then every
/// line read is answered by one `batch` call (`batch(read)[i]` for the `i`-th line read), so that
/// the hashing runs across lines. A line refused on reading keeps its own error; a batch that fails
/// as a whole (the backend) answers each line it held with that failure. `result[i]` answers
/// `docs[i]`.
fn read_then_batch<T: Send>(
    docs: Vec<Result<Doc<'_>, Failure>>,
    read: impl Fn(Doc<'_>) -> Result<T, DocumentError> + Sync + Send,
    batch: impl FnOnce(&[&T]) -> Result<Vec<Result<Json, DocumentError>>, DocumentError>,
) -> Vec<Result<Json, Failure>> {
    let read: Vec<Result<T, Failure>> =
        docs.into_par_iter().map(|doc| doc.and_then(|doc| Ok(read(doc)?))).collect();
    let held: Vec<&T> = read.iter().filter_map(|line| line.as_ref().ok()).collect();
    let mut answers = match batch(&held) {
        Ok(answers) => answers,
        Err(error) => held.iter().map(|_| Err(error.clone())).collect(),
    }
    .into_iter();
    read.into_iter()
        .map(|line| {
            let _held = line?;
            let answer = answers.next().ok_or_else(|| Failure::Backend("an answer is missing".into()))?;
            Ok(answer?)
        })
        .collect()
}

pub fn checkpoint(cx: Context<'_>, command: CheckpointCommand) -> Result<(), Failure> {
    match command {
        // Each chunk of lines is read line by line on all cores, then every block of every
        // checkpoint in it is committed in one batch per stage and tree level (a checkpoint's
        // blocks are often one or two txs each: alone they leave the batch kernel's lanes empty).
        // A backend failure then answers every line of the chunk.
        CheckpointCommand::Decode { file, jsonl: true } => jsonl_chunks(&file, |docs| {
            read_then_batch(
                docs,
                |doc| checkpoint_fields(cx, doc),
                |decoded| Ok(checkpoints_decoded_json(cx.hasher, decoded)?.into_iter().map(Ok).collect()),
            )
        }),
        CheckpointCommand::Decode { file, jsonl: false } => {
            print_json(&checkpoint_decode(cx, Input::read(&file)?.doc())?)
        }
        CheckpointCommand::Encode { file, pad } => {
            print_json(&hex_list(&checkpoint_encode(cx, Input::read(&file)?.doc(), pad)?))
        }
    }
}
