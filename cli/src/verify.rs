//! `txfx header`, `txfx archive`, `txfx category`, `txfx verify` and `txfx witness`: the trust
//! chain from an archive root L1 holds down to one tx, one element of it, or one block. Every
//! verifying command prints a verdict (docs/spec.md §12.8): what it authenticated, as JSON, exit
//! 0; or `{"valid": false, "link", "reason"}`, exit 1.

use clap::{ArgGroup, Args, Subcommand};
use txfx_documents::json::Object;
use txfx_documents::ops::{
    ArchiveSubject, Context, category_prove, header_hash, verify_archive, verify_tx_chain, verify_witness,
};
use txfx_documents::{Expected, Subject};

use txfx_client::ClientConfig;
use txfx_membership::{ElementQuery, Network};
use txfx_poseidon::field::fr_to_hex;
use txfx_tx_effects::Category;
use txfx_tx_effects::category::ElementRole;
use txfx_walk::l1::{Address, BlockTag};
use txfx_walk::{Anchor, AnchorChoiceError, AnchorNames, Namespace, WalkParams, WalkSubject};

use crate::args::{ExpectArgs, SubjectArgs, field, hex, parsed, tx};
use crate::duration::Timeout;
use crate::each_tx;
use crate::endpoint::{Endpoint, EndpointParser};
use crate::io::{Failure, Input, answer, print_json};
use crate::progress;
use txfx_client::redact_in;

/// `txfx header`.
#[derive(Subcommand)]
pub enum HeaderCommand {
    /// The block hash of a header, or of an L2Block's header (its body checked against the
    /// header's txEffectsTreeRoot where the layout has one).
    Hash {
        /// The header (or block) JSON file, or -.
        file: String,
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
    /// naming the link that broke; 2 for malformed input; 4 when a node or L1 endpoint could
    /// not be reached or answered outside its bounds (with --node).
    Tx(Box<ChainArgs>),
}

/// `txfx verify tx`.
#[derive(Args)]
pub struct ChainArgs {
    /// The archive root the caller trusts (from L1). With --node, instead of reading it from L1:
    /// it must be the archive of the tx's checkpoint.
    #[arg(long)]
    archive_root: Option<String>,
    /// The node's getBlockHashMembershipWitness answer for the block.
    #[arg(long)]
    archive_witness: Option<String>,
    /// The block's header (or block response) JSON.
    #[arg(long)]
    header: Option<String>,
    /// The tx's tx-effects membership witness JSON.
    #[arg(long)]
    witness: Option<String>,
    #[command(flatten)]
    subject: SubjectArgs,
    #[command(flatten)]
    expect: ExpectArgs,
    #[command(flatten)]
    node: NodeArgs,
}

/// `txfx verify tx --node`: ask a node and L1 instead of reading files.
///
/// `--node` and `--l1-rpc` fall back to `$AZTEC_NODE_URL` (the variable Aztec's own CLI reads:
/// `makeNodeOption` in aztec-labs-eng/aztec-node `yarn-project/cli/src/utils/commands.ts`) and
/// `$ETH_RPC_URL` (Foundry's `cast`). clap counts a value from the environment as given for its
/// conflicts and requirements, so the relations that must not fire on one (the files against
/// `--node`, `--l1-rpc` needing `--rollup`) are checked in [`verify`], on what the command line
/// gave ([`Given`]).
#[derive(Args)]
#[command(next_help_heading = "From a node and L1 (instead of files)")]
pub struct NodeArgs {
    /// The Aztec node's JSON-RPC URL (http:// or https://): the receipt, the effect, the block,
    /// the witnesses come from it (every answer checked, none trusted). Messages show it
    /// redacted (no userinfo, query values or key-like path segments).
    #[arg(long, value_name = "URL", env = "AZTEC_NODE_URL", hide_env_values = true, value_parser = EndpointParser)]
    node: Option<Endpoint>,
    /// The L1 node's JSON-RPC URL (http:// or https://): the archive root to trust is the
    /// rollup's archiveAt(checkpoint). Used with --rollup.
    #[arg(long, value_name = "URL", env = "ETH_RPC_URL", hide_env_values = true, value_parser = EndpointParser)]
    l1_rpc: Option<Endpoint>,
    /// The rollup contract's address on L1. Without it, the rollup is the one the Registry names
    /// canonical at the L1 block (--registry, or --network's: `txfx networks` lists them).
    #[arg(long, requires = "l1_rpc", value_parser = rollup_address, conflicts_with = "registry")]
    rollup: Option<Address>,
    /// The Aztec Registry's address on L1: the rollup is its getCanonicalRollup() at the L1 block.
    #[arg(long, requires = "l1_rpc", value_parser = rollup_address)]
    registry: Option<Address>,
    /// The L1 block to read the rollup at: finalized (default), safe, latest, a number, or a
    /// block hash (0x and 64 hex digits; also as --l1-block-hash). At a hash the L1 node is
    /// trusted for nothing: its header must hash to it, and the rollup's words are read by
    /// storage proof (eth_getProof) against its state root; the hash is yours to trust.
    #[arg(
        long,
        visible_alias = "l1-block-hash",
        default_value = "finalized",
        value_parser = parsed::<BlockTag>,
        requires = "l1_rpc"
    )]
    l1_block: BlockTag,
    /// The network: L1's eth_chainId must be its L1 chain, the rollup's archiveAt(0) its genesis
    /// archive root, and without --rollup its Registry names the rollup. canonical, testnet,
    /// mainnet (pins no genesis root yet) or canonical-4.1.2 (`txfx networks` lists them).
    #[arg(long, requires = "l1_rpc", conflicts_with = "genesis_archive_root")]
    network: Option<String>,
    /// A custom network's genesis archive root, checked against L1's archiveAt(0).
    #[arg(long, requires = "l1_rpc", conflicts_with = "network_file")]
    genesis_archive_root: Option<String>,
    /// A custom network's genesis values as JSON, in the shape `txfx networks` prints one
    /// (name, protocol v6, genesisArchiveRoot, optional genesisBlockHeaderHash and source).
    #[arg(long, requires = "l1_rpc", conflicts_with = "network")]
    network_file: Option<String>,
    /// One category of the tx to prove (and with --element one element of it), instead of the tx.
    #[arg(long, requires = "node", value_parser = parsed::<Category>)]
    category: Option<Category>,
    /// A value of --category to prove at element level.
    #[arg(long, requires = "category")]
    element: Option<String>,
    /// The element's role (as for `txfx category prove`).
    #[arg(long, requires = "element", value_parser = parsed::<ElementRole>)]
    role: Option<ElementRole>,
    /// The deadline of each tx's walk: 250ms, 1.5s, 90s, 2m, or a bare number of seconds; more
    /// than 0 and at most 1 hour.
    #[arg(long, default_value = "60s", requires = "node", value_parser = parsed::<Timeout>)]
    timeout: Timeout,
    /// The settings file with per-network defaults (node, l1-rpc, rollup or registry, l1-block,
    /// timeout, default-network); else $TXFX_CONFIG (empty: none), else
    /// ~/.config/txfx/config.toml if it exists. The command line and the environment win.
    #[arg(long, value_name = "FILE")]
    config: Option<std::path::PathBuf>,
    /// The node's JSON-RPC namespace (aztec or node); by default aztec_, then node_.
    #[arg(long, requires = "node", value_parser = parsed::<Namespace>)]
    json_rpc_namespace: Option<Namespace>,
    /// What the command line gave (not an option: filled from clap's matches).
    #[arg(skip)]
    given: Given,
}

/// The node options the command line gave, by their flags, in the order of [`NODE_OPTIONS`].
#[derive(Default)]
pub struct Given(Vec<&'static str>);

/// Every option of [`NodeArgs`]: its clap id and its flag.
const NODE_OPTIONS: [(&str, &str); 14] = [
    ("node", "--node"),
    ("l1_rpc", "--l1-rpc"),
    ("rollup", "--rollup"),
    ("registry", "--registry"),
    ("l1_block", "--l1-block"),
    ("network", "--network"),
    ("genesis_archive_root", "--genesis-archive-root"),
    ("network_file", "--network-file"),
    ("category", "--category"),
    ("element", "--element"),
    ("role", "--role"),
    ("timeout", "--timeout"),
    ("json_rpc_namespace", "--json-rpc-namespace"),
    ("config", "--config"),
];

impl Given {
    fn has(&self, flag: &str) -> bool {
        self.0.contains(&flag)
    }
}

/// `command` with `--node` and `--l1-rpc` reading no variable that is set but empty: an empty
/// `ETH_RPC_URL=` (as `.env` templates leave it) means no URL, not a URL that is empty, and must
/// not stop `verify tx` from reading files.
pub fn unset_empty_variables(command: clap::Command) -> clap::Command {
    let empty = |variable: &str| std::env::var_os(variable).is_some_and(|value| value.is_empty());
    let (node, l1) = (empty("AZTEC_NODE_URL"), empty("ETH_RPC_URL"));
    if !node && !l1 {
        return command;
    }
    command.mut_subcommand("verify", |verify| {
        verify.mut_subcommand("tx", |tx| {
            let tx = if node { tx.mut_arg("node", |arg| arg.env(None)) } else { tx };
            if l1 { tx.mut_arg("l1_rpc", |arg| arg.env(None)) } else { tx }
        })
    })
}

impl VerifyCommand {
    /// Notes which node options `verify tx`'s command line gave, from its matches (`matches` is
    /// the `tx` sub-command's): a value from the environment is not one of them.
    pub fn note_given(&mut self, matches: &clap::ArgMatches) {
        let VerifyCommand::Tx(args) = self;
        args.node.given = Given(
            NODE_OPTIONS
                .iter()
                .filter(|(id, _)| matches.value_source(id) == Some(clap::parser::ValueSource::CommandLine))
                .map(|(_, flag)| *flag)
                .collect(),
        );
    }
}

/// `--rollup`, `--registry`: an address in one case, or in EIP-55's mixed case with its
/// checksum right.
fn rollup_address(text: &str) -> Result<Address, String> {
    txfx_walk::l1::parse_address(text).map_err(|e| e.to_string())
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

pub fn header(cx: Context<'_>, command: HeaderCommand, json: bool) -> Result<(), Failure> {
    match command {
        HeaderCommand::Hash { file } => {
            let hash = fr_to_hex(&header_hash(cx, Input::read(&file)?.doc())?);
            answer(json, || hash.clone(), || Object::new().with("blockHash", hash.as_str()).into())
        }
    }
}

pub fn archive(cx: Context<'_>, command: ArchiveCommand) -> Result<(), Failure> {
    let ArchiveCommand::Verify(args) = command;
    let root = hex("--root", &args.root)?;
    let witness = Input::read(&args.witness)?;
    let block_hash = args.block_hash.as_deref().map(|hash| hex("--block-hash", hash)).transpose()?;
    let header = args.header.as_deref().map(Input::read).transpose()?;
    let (subject, expected_hash) = match (&header, block_hash) {
        (Some(header), expected) => (ArchiveSubject::Header(header.doc()), expected),
        (None, Some(hash)) => (ArchiveSubject::BlockHash(hash), None),
        (None, None) => return Err(Failure::Input("give --block-hash or --header".into())),
    };
    let expected = Expected::default().with_block_number(args.block_number).with_block_hash(expected_hash);
    verdict(verify_archive(cx, root, subject, witness.doc(), &expected))
}

pub fn category(cx: Context<'_>, command: CategoryCommand) -> Result<(), Failure> {
    match command {
        CategoryCommand::Prove { file, tx: selector, category, element, role } => {
            let input = Input::read(&file)?;
            let element = element.as_deref().map(|value| field("--element", value)).transpose()?;
            let query = element.map(|value| ElementQuery { value, role });
            print_json(&txfx_documents::json::category_proof_to_json(&category_prove(
                cx,
                input.doc(),
                tx(&selector)?,
                category,
                query,
            )?))
        }
        CategoryCommand::Verify { proof, witness, root, block_number, tx_hash } => {
            let proof = Input::read(&proof)?;
            let witness = Input::read(&witness)?;
            let expected = Expected::default()
                .with_block_number(block_number)
                .with_tx_hash(tx_hash.as_deref().map(|h| hex("--tx-hash", h)).transpose()?);
            let root = hex("--root", &root)?;
            verdict(verify_witness(cx, witness.doc(), Subject::CategoryProof(proof.doc()), root, &expected))
        }
    }
}

pub fn verify(cx: Context<'_>, command: VerifyCommand) -> Result<(), Failure> {
    let VerifyCommand::Tx(mut args) = command;
    if args.archive_witness.is_none() && args.header.is_none() && args.witness.is_none() {
        with_settings(&mut args.node, args.archive_root.is_some())?;
    }
    if asks_a_node(&args)? {
        return verify_from_node(cx, &args);
    }
    if args.subject.tx_hash.len() > 1 {
        return Err(Failure::Input("--tx-hash: several txs in one run only with --node".into()));
    }
    let missing = |flag: &str| Failure::Input(format!("{flag} is needed (or --node, to ask a node and L1)"));
    let archive_root =
        hex("--archive-root", args.archive_root.as_deref().ok_or_else(|| missing("--archive-root"))?)?;
    let archive_witness =
        Input::read(args.archive_witness.as_deref().ok_or_else(|| missing("--archive-witness"))?)?;
    let header = Input::read(args.header.as_deref().ok_or_else(|| missing("--header"))?)?;
    let witness = Input::read(args.witness.as_deref().ok_or_else(|| missing("--witness"))?)?;
    let inputs = args.subject.read()?;
    let (subject, tx_hash) = inputs.subject()?;
    let expected = args.expect.expected(tx_hash)?;
    verdict(verify_tx_chain(
        cx,
        archive_root,
        archive_witness.doc(),
        header.doc(),
        witness.doc(),
        subject,
        &expected,
    ))
}

/// Fills what neither the command line nor the environment gave from the settings file's
/// section for the run's network (`config` module): the network is `--network`, else the file's
/// `default-network` when the command line names no network and no anchor (`--rollup`,
/// `--registry`, `--archive-root`), so that a local run with its own rollup is not held to it.
fn with_settings(node: &mut NodeArgs, archive_root: bool) -> Result<(), Failure> {
    let Some(settings) = crate::config::load(node.config.as_deref())? else { return Ok(()) };
    let named = ["--network", "--network-file", "--genesis-archive-root", "--rollup", "--registry"]
        .iter()
        .any(|flag| node.given.has(flag));
    if node.network.is_none() && !named && !archive_root {
        node.network.clone_from(&settings.default_network);
    }
    let Some(section) = node.network.as_deref().and_then(|name| settings.section(name)) else {
        return Ok(());
    };
    if node.node.is_none() {
        node.node.clone_from(&section.node);
    }
    if node.l1_rpc.is_none() {
        node.l1_rpc.clone_from(&section.l1_rpc);
    }
    if node.rollup.is_none() && node.registry.is_none() && !archive_root {
        (node.rollup, node.registry) = (section.rollup, section.registry);
    }
    if let (false, Some(tag)) = (node.given.has("--l1-block"), section.l1_block) {
        node.l1_block = tag;
    }
    if let (false, Some(timeout)) = (node.given.has("--timeout"), section.timeout) {
        node.timeout = timeout;
    }
    Ok(())
}

/// Whether `verify tx` asks a node (`--node` or `$AZTEC_NODE_URL`, no file given) or reads files;
/// the relations between the two sets of options that clap cannot check once a value may come
/// from the environment ([`NodeArgs`]).
fn asks_a_node(args: &ChainArgs) -> Result<bool, Failure> {
    let files = [
        ("--archive-witness", args.archive_witness.is_some()),
        ("--header", args.header.is_some()),
        ("--witness", args.witness.is_some()),
    ];
    let file = files.iter().find(|(_, given)| *given).map(|(flag, _)| *flag);
    let given = &args.node.given;
    match (file, given.0.first()) {
        (Some(file), Some(option)) => Err(Failure::Input(format!(
            "{option} asks a node and {file} reads a file: give the files, or --node and its options"
        ))),
        // A node in the environment is for the runs that give no file.
        (Some(_), None) => Ok(false),
        (None, _) if args.node.node.is_some() => {
            // A network file may name a Registry: `anchor` says so once it is read.
            let rollup_named = args.node.rollup.is_some()
                || args.node.registry.is_some()
                || args.node.network_file.is_some()
                || args.node.network.as_deref().is_some_and(|name| deployment(name).is_some());
            if given.has("--l1-rpc") && !rollup_named {
                return Err(Failure::Input(
                    "--l1-rpc: the archive root is read from the rollup contract: give --rollup ADDRESS, \
                     --registry ADDRESS or a --network txfx knows the Registry of"
                        .into(),
                ));
            }
            Ok(true)
        }
        (None, Some(option)) => {
            Err(Failure::Input(format!("{option} goes with --node URL (or $AZTEC_NODE_URL)")))
        }
        (None, None) => Ok(false),
    }
}

/// `txfx verify tx --node`: the node walk (`txfx-client`) of each tx, from the node's and L1's
/// answers.
fn verify_from_node(cx: Context<'_>, args: &ChainArgs) -> Result<(), Failure> {
    let node = &args.node;
    if cx.protocol != txfx_membership::ProtocolVersion::V6 {
        return Err(Failure::Input("--node reads a v6 node: give no --protocol, or --protocol v6".into()));
    }
    if args.subject.effect.is_some()
        || args.subject.category_proof.is_some()
        || args.subject.categories_hash.is_some()
    {
        return Err(Failure::Input("--node takes the tx from the node: give --tx-hash alone".into()));
    }
    let tx_hashes = each_tx::tx_hashes(&args.subject.tx_hash)?;
    let network = match (&node.network, &node.genesis_archive_root, &node.network_file) {
        (Some(name), _, _) => {
            Some(Network::named(name).map_err(|e| Failure::Input(format!("--network: {e}")))?)
        }
        (None, Some(root), _) => {
            Some(Network::custom(hex("--genesis-archive-root", root)?, "--genesis-archive-root"))
        }
        (None, None, Some(path)) => {
            let file = Input::read(path)?;
            // The walk refuses a network it cannot check (another protocol, no genesis root).
            Some(txfx_documents::read::network(file.doc(), path)?)
        }
        (None, None, None) => None,
    };
    let anchor = anchor(node, network.as_ref(), args.archive_root.as_deref())?;
    let subject = match node.category {
        None => WalkSubject::Tx,
        Some(category) => {
            let element = node.element.as_deref().map(|value| field("--element", value)).transpose()?;
            WalkSubject::Category(category, element.map(|value| ElementQuery { value, role: node.role }))
        }
    };
    let expected = args.expect.expected(None)?;
    let params = |tx_hash| {
        let mut params = WalkParams::new(tx_hash, anchor).with_subject(subject).with_expected(expected);
        if let Some(network) = &network {
            params = params.with_network(network.clone());
        }
        if let Some(namespace) = node.json_rpc_namespace {
            params = params.with_namespace(namespace);
        }
        params
    };
    let (node_url, l1_url) =
        (node.node.as_ref().map(Endpoint::as_str), node.l1_rpc.as_ref().map(Endpoint::as_str));
    let config = ClientConfig::new(node_url.unwrap_or_default(), l1_url.map(str::to_owned))
        .with_timeout(node.timeout.get())?;
    let urls: Vec<&str> = [node_url, l1_url].into_iter().flatten().collect();
    let asking = asking(node, anchor);
    each_tx::each_tx(&tx_hashes, |tx_hash, which| {
        // One opaque call per tx, bounded by --timeout: a spinner while the node and L1 answer.
        progress::step(format!("{which}asking {asking} (up to {})", node.timeout));
        let verdict = txfx_client::verify_tx(cx.hasher, &config, params(tx_hash));
        // The client's messages quote the URLs as given: shown redacted.
        verdict
            .map(|verdict| verdict.to_json())
            .map_err(|e| Failure::from(e).map_reason(|r| redact_in(r, &urls)))
    })
}

/// The Registry of network `name`, if it is a built-in network deployed on L1.
fn deployment(name: &str) -> Option<txfx_membership::L1Deployment> {
    Network::named(name).ok()?.l1
}

/// The anchor `verify tx --node` proves under, by the walk's rule ([`Anchor::choose`]): the
/// rollup named (`--rollup`), the rollup a Registry names (`--registry`, or the network's L1
/// deployment), or a root given.
fn anchor(node: &NodeArgs, network: Option<&Network>, archive_root: Option<&str>) -> Result<Anchor, Failure> {
    let names = AnchorNames {
        rollup: node.rollup,
        registry: node.registry,
        root: archive_root.map(|root| hex("--archive-root", root)).transpose()?,
        l1: node.l1_rpc.is_some(),
        tag: node.l1_block,
    };
    Anchor::choose(names, network).map_err(|error| {
        Failure::Input(match error {
            AnchorChoiceError::Both => {
                "give --l1-rpc and --rollup (or --registry), or --archive-root, not both".into()
            }
            AnchorChoiceError::Neither => {
                "give --l1-rpc URL and --rollup ADDRESS, --registry ADDRESS or --network NAME \
                 (or --archive-root) to anchor the tx"
                    .into()
            }
            AnchorChoiceError::NoL1Node => {
                "--rollup and --registry are read from an L1 node: give --l1-rpc URL".into()
            }
            AnchorChoiceError::RegistryByHash => "at an --l1-block hash the rollup is read by storage \
                 proof, and a Registry's rollup is not yet: give --rollup ADDRESS"
                .into(),
        })
    })
}

/// Who a walk asks, as the progress line names them (redacted).
fn asking(node: &NodeArgs, anchor: Anchor) -> String {
    let url = |url: &Option<Endpoint>| url.as_ref().map_or_else(String::new, Endpoint::redacted);
    match anchor {
        Anchor::L1 { .. } | Anchor::Registry { .. } => {
            format!("{} and L1 at {}", url(&node.node), url(&node.l1_rpc))
        }
        _ => url(&node.node),
    }
}

pub fn witness(cx: Context<'_>, command: WitnessCommand) -> Result<(), Failure> {
    let WitnessCommand::Verify(args) = command;
    let witness = Input::read(&args.file)?;
    // The caller vouches for --root: it is the header's txEffectsTreeRoot they authenticated.
    let root = hex("--root", &args.root)?;
    let expected_number = args.block_number;
    if let Some(leaf) = &args.leaf {
        let expected = Expected::default().with_block_number(expected_number);
        return verdict(verify_witness(
            cx,
            witness.doc(),
            Subject::Leaf(hex("--leaf", leaf)?),
            root,
            &expected,
        ));
    }
    let inputs = args.subject.read()?;
    let (subject, tx_hash) = inputs.subject()?;
    let expected = Expected::default().with_block_number(expected_number).with_tx_hash(tx_hash);
    verdict(verify_witness(cx, witness.doc(), subject, root, &expected))
}
