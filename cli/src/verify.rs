//! `txfx header`, `txfx archive`, `txfx category`, `txfx verify` and `txfx witness`: the trust
//! chain from an archive root L1 holds down to one tx, one element of it, or one block. Every
//! verifying command prints a verdict (docs/spec.md §12.8): what it authenticated, as JSON, exit
//! 0; or `{"valid": false, "link", "reason"}`, exit 1.

use clap::{ArgGroup, Args, Subcommand};
use txfx_documents::ops::{
    ArchiveSubject, category_prove, header_hash, verify_archive, verify_tx_chain, verify_witness,
};
use txfx_documents::{Expected, Subject};
use txfx_membership::ElementQuery;
use txfx_poseidon::HashBackend;
use txfx_poseidon::field::fr_to_hex;
use txfx_tx_effects::Category;
use txfx_tx_effects::category::ElementRole;

use crate::args::{ExpectArgs, ProtocolArg, SubjectArgs, field, hex, parsed, tx};
use crate::io::{Failure, Input, emit, print_json};

/// `txfx header`.
#[derive(Subcommand)]
pub enum HeaderCommand {
    /// The block hash of a header, or of an L2Block's header (its body checked against the
    /// header's txEffectsTreeRoot where the layout has one).
    Hash {
        /// The header or L2Block JSON file, or -.
        file: String,
        #[command(flatten)]
        protocol: ProtocolArg,
    },
}

/// `txfx archive`.
#[derive(Subcommand)]
pub enum ArchiveCommand {
    /// Check that a block is in the archive under a trusted root: prints the verdict (archive
    /// root, block number, block hash), exit 0; exit 1 if it is not; 2 for malformed input.
    Verify(ArchiveArgs),
}

/// `txfx archive verify`.
#[derive(Args)]
#[command(group(ArgGroup::new("block").required(true).multiple(true).args(["block_hash", "header"])))]
pub struct ArchiveArgs {
    /// The trusted archive root (from L1).
    #[arg(long)]
    root: String,
    /// The block hash (`txfx header hash`); beside --header, the hash the header must have.
    #[arg(long)]
    block_hash: Option<String>,
    /// The block's header (or L2Block) JSON, hashed here.
    #[arg(long)]
    header: Option<String>,
    /// The node's getBlockHashMembershipWitness answer: the JSON-RPC response, its base64
    /// string, or -.
    #[arg(long)]
    witness: String,
    /// The block the hash must be (default: the header's, else the witness's leaf index, which
    /// the verdict then names).
    #[arg(long, value_parser = parsed::<txfx_tx_effects::BlockNumber>)]
    block_number: Option<txfx_tx_effects::BlockNumber>,
    #[command(flatten)]
    protocol: ProtocolArg,
}

/// `txfx category`.
#[derive(Subcommand)]
pub enum CategoryCommand {
    /// Print the proof that one category (with --element, one element of it) belongs to a tx.
    Prove {
        /// The body JSON file (or L2Block), or -.
        file: String,
        /// The tx: its index in the block, or its 0x-hex tx hash.
        #[arg(long)]
        tx: String,
        /// noteHashes, nullifiers, l2ToL1Msgs, publicDataWrites, privateLogs, publicLogs or
        /// contractClassLogs.
        #[arg(long, value_parser = parsed::<Category>)]
        category: Category,
        /// A value to prove at element level: searched among the category's data (never a
        /// length field, a log's address or a write's leaf slot unless --role names it).
        #[arg(long)]
        element: Option<String>,
        /// The element's role: noteHash, nullifier, l2ToL1Msg, publicDataWriteLeafSlot,
        /// publicDataWriteValue, privateLogField, publicLogField, publicLogContractAddress,
        /// contractClassLogField or contractClassLogContractAddress.
        #[arg(long, requires = "element", value_parser = parsed::<ElementRole>)]
        role: Option<ElementRole>,
    },
    /// Verify a proof against a tx-effects witness and a trusted root: prints the verdict (tx,
    /// category, element and its role), exit 0; exit 1 if it does not hold.
    Verify {
        /// The proof JSON file, or -.
        proof: String,
        /// The tx's membership witness JSON file.
        #[arg(long)]
        witness: String,
        /// The trusted txEffectsTreeRoot (from an authenticated header).
        #[arg(long)]
        root: String,
        /// The block the trusted root is of: the witness must be for it, and the verdict names it.
        #[arg(long, value_parser = parsed::<txfx_tx_effects::BlockNumber>)]
        block_number: Option<txfx_tx_effects::BlockNumber>,
        /// The tx hash the proof must be of.
        #[arg(long)]
        tx_hash: Option<String>,
    },
}

/// `txfx verify`.
#[derive(Subcommand)]
pub enum VerifyCommand {
    /// Archive root → header → tx-effects witness → tx: prints the verdict (block number and
    /// hash, tx hash, leaf index, and for a proof its category and element), exit 0; exit 1
    /// naming the link that broke; 2 for malformed input.
    Tx(ChainArgs),
}

/// `txfx verify tx`.
#[derive(Args)]
pub struct ChainArgs {
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
    #[command(flatten)]
    subject: SubjectArgs,
    #[command(flatten)]
    expect: ExpectArgs,
    #[command(flatten)]
    protocol: ProtocolArg,
}

/// `txfx witness`.
#[derive(Subcommand)]
pub enum WitnessCommand {
    /// Verify a witness against a trusted root: prints the verdict, exit 0; exit 1 if it does
    /// not verify.
    Verify(WitnessArgs),
}

/// `txfx witness verify`.
#[derive(Args)]
pub struct WitnessArgs {
    /// The witness JSON file, or -.
    file: String,
    /// The trusted txEffectsTreeRoot (from an authenticated block header).
    #[arg(long)]
    root: String,
    /// A leaf you recomputed yourself (instead of --tx-hash, --effect or --category-proof).
    #[arg(long, conflicts_with_all = ["tx_hash", "effect", "category_proof"])]
    leaf: Option<String>,
    #[command(flatten)]
    subject: SubjectArgs,
    /// The block the trusted root is of: the witness must be for it, and the verdict names it.
    #[arg(long, value_parser = parsed::<txfx_tx_effects::BlockNumber>)]
    block_number: Option<txfx_tx_effects::BlockNumber>,
}

/// Prints a verdict, or turns a refuted check into its exit.
fn verdict(result: Result<txfx_documents::Verdict, txfx_documents::DocumentError>) -> Result<(), Failure> {
    print_json(&result?.to_json())
}

pub fn header(backend: &dyn HashBackend, command: HeaderCommand) -> Result<(), Failure> {
    match command {
        HeaderCommand::Hash { file, protocol } => {
            emit(&fr_to_hex(&header_hash(backend, Input::read(&file)?.doc(), protocol.protocol)?))
        }
    }
}

pub fn archive(backend: &dyn HashBackend, command: ArchiveCommand) -> Result<(), Failure> {
    let ArchiveCommand::Verify(args) = command;
    let root = hex("--root", &args.root)?;
    let witness = Input::read(&args.witness)?;
    let block_hash = args.block_hash.as_deref().map(|hash| hex("--block-hash", hash)).transpose()?;
    let header = args.header.as_deref().map(Input::read).transpose()?;
    let (subject, expected_hash) = match (&header, block_hash) {
        (Some(header), expected) => (ArchiveSubject::Header(header.doc(), args.protocol.protocol), expected),
        (None, Some(hash)) => (ArchiveSubject::BlockHash(hash), None),
        (None, None) => return Err(Failure::Input("give --block-hash or --header".into())),
    };
    let expected = Expected { block_number: args.block_number, block_hash: expected_hash, tx_hash: None };
    verdict(verify_archive(backend, root, subject, witness.doc(), &expected))
}

pub fn category(backend: &dyn HashBackend, command: CategoryCommand) -> Result<(), Failure> {
    match command {
        CategoryCommand::Prove { file, tx: selector, category, element, role } => {
            let input = Input::read(&file)?;
            let element = element.as_deref().map(|value| field("--element", value)).transpose()?;
            let query = element.map(|value| ElementQuery { value, role });
            print_json(&txfx_documents::json::category_proof_to_json(&category_prove(
                backend,
                input.doc(),
                tx(&selector)?,
                category,
                query,
            )?))
        }
        CategoryCommand::Verify { proof, witness, root, block_number, tx_hash } => {
            let proof = Input::read(&proof)?;
            let witness = Input::read(&witness)?;
            let expected = Expected {
                block_number,
                block_hash: None,
                tx_hash: tx_hash.as_deref().map(|h| hex("--tx-hash", h)).transpose()?,
            };
            let root = hex("--root", &root)?;
            verdict(verify_witness(
                backend,
                witness.doc(),
                Subject::CategoryProof(proof.doc()),
                root,
                &expected,
            ))
        }
    }
}

pub fn verify(backend: &dyn HashBackend, command: VerifyCommand) -> Result<(), Failure> {
    let VerifyCommand::Tx(args) = command;
    let archive_root = hex("--archive-root", &args.archive_root)?;
    let archive_witness = Input::read(&args.archive_witness)?;
    let header = Input::read(&args.header)?;
    let witness = Input::read(&args.witness)?;
    let inputs = args.subject.read()?;
    let (subject, tx_hash) = inputs.subject()?;
    let expected = args.expect.expected(tx_hash)?;
    verdict(verify_tx_chain(
        backend,
        archive_root,
        archive_witness.doc(),
        header.doc(),
        args.protocol.protocol,
        witness.doc(),
        subject,
        &expected,
    ))
}

pub fn witness(backend: &dyn HashBackend, command: WitnessCommand) -> Result<(), Failure> {
    let WitnessCommand::Verify(args) = command;
    let witness = Input::read(&args.file)?;
    // The caller vouches for --root: it is the header's txEffectsTreeRoot they authenticated.
    let root = hex("--root", &args.root)?;
    let expected_number = args.block_number;
    if let Some(leaf) = &args.leaf {
        let expected = Expected { block_number: expected_number, ..Expected::default() };
        return verdict(verify_witness(
            backend,
            witness.doc(),
            Subject::Leaf(hex("--leaf", leaf)?),
            root,
            &expected,
        ));
    }
    let inputs = args.subject.read()?;
    let (subject, tx_hash) = inputs.subject()?;
    let expected = Expected { block_number: expected_number, block_hash: None, tx_hash };
    verdict(verify_witness(backend, witness.doc(), subject, root, &expected))
}
