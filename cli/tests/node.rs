//! `txfx verify tx --node`: the binary against the test chain on loopback (anvil with the
//! stand-in rollup, and the stub v6 node), honest and lying, with the exit status each gets.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::process::Output;

use common::txfx;
use txfx_suite::testchain::{Lie, TestChain};

/// txfx with `env` set (and no settings file but one `env` names).
fn txfx_with(args: &[&str], env: &[(&str, &str)]) -> Output {
    common::txfx_with(args, env, None)
}

fn walk(chain: &TestChain, block: u64, extra: &[&str]) -> Output {
    let tx = chain.chain.tx_of_block(block);
    let mut args = vec![
        "verify",
        "tx",
        "--node",
        &chain.node.url,
        "--l1-rpc",
        &chain.anvil.url,
        "--rollup",
        &chain.rollup.address,
        "--tx-hash",
        &tx,
    ];
    args.extend(extra);
    txfx(&args)
}

fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("JSON on stdout ({e}): {output:?}"))
}

#[test]
fn one_command_proves_a_tx_from_a_node_and_l1() {
    let chain = TestChain::start(Lie::None);
    let output = walk(&chain, 4, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let verdict = json(&output);
    assert_eq!((verdict["valid"].as_bool(), verdict["proves"].as_str()), (Some(true), Some("tx")));
    assert_eq!(verdict["blockNumber"], 4);
    assert_eq!(verdict["finality"], "proven");
    assert_eq!(verdict["anchor"]["l1BlockTag"], "finalized");
    // An element of the tx, with expectations and the network's genesis checked.
    let element = walk(
        &chain,
        1,
        &["--category", "nullifiers", "--element", "0x15", "--block-number", "1", "--network", "canonical"],
    );
    assert_eq!(element.status.code(), Some(0), "{}", String::from_utf8_lossy(&element.stderr));
    assert_eq!(json(&element)["proves"], "element");
    // Another block expected: exit 1, the verdict says which link.
    let other = walk(&chain, 1, &["--block-number", "2"]);
    assert_eq!(other.status.code(), Some(1));
    assert_eq!(json(&other)["valid"], false);
    // Not on L1 yet: exit 1, link l1.
    let pending = walk(&chain, 8, &[]);
    assert_eq!(pending.status.code(), Some(1));
    assert_eq!(json(&pending)["link"], "l1");
}

#[test]
fn each_kind_of_failure_gets_its_exit_status() {
    // A lie: refuted, exit 1.
    let chain = TestChain::start(Lie::BlockResponseHash);
    let lie = walk(&chain, 4, &[]);
    assert_eq!(lie.status.code(), Some(1));
    assert_eq!(json(&lie)["link"], "header");
    // HTML with HTTP 200, and a JSON-RPC error answer: the node's fault, not the caller's
    // malformed input: exit 4, naming the node.
    for lie in [Lie::NotJson, Lie::ReceiptError] {
        let chain = TestChain::start(lie);
        let garbage = walk(&chain, 4, &[]);
        assert_eq!(garbage.status.code(), Some(4), "{lie:?}: {garbage:?}");
        let stderr = String::from_utf8_lossy(&garbage.stderr);
        assert!(
            stderr.contains(&chain.node.url) && (stderr.contains("not JSON") || stderr.contains("syncing")),
            "{stderr}"
        );
    }
    // A URL without a scheme: the caller's, exit 2, before anything is sent.
    let chain = TestChain::start(Lie::None);
    let tx = chain.chain.tx_of_block(4);
    let schemeless = chain.node.url.trim_start_matches("http://").to_owned();
    let output = txfx(&["verify", "tx", "--node", &schemeless, "--archive-root", "0x01", "--tx-hash", &tx]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("no scheme"));
    assert!(chain.node.asked.lock().unwrap().is_empty());
    // Too slow: exit 4, naming the endpoint.
    let chain = TestChain::start(Lie::Slow(3_000));
    let slow = walk(&chain, 4, &["--timeout", "1"]);
    assert_eq!(slow.status.code(), Some(4), "{slow:?}");
    assert!(String::from_utf8_lossy(&slow.stderr).contains(&chain.node.url));
    // A gateway whose node is down (HTTP 502): no answer to read, exit 4.
    let chain = TestChain::start(Lie::BadGateway);
    let down = walk(&chain, 4, &[]);
    assert_eq!(down.status.code(), Some(4), "{down:?}");
    assert!(String::from_utf8_lossy(&down.stderr).contains("502"));
    // A network on another L1 chain (mainnet's is 1, anvil's not): refuted at the L1 link, exit 1.
    let chain = TestChain::start(Lie::None);
    let elsewhere = walk(&chain, 4, &["--network", "mainnet"]);
    assert_eq!(elsewhere.status.code(), Some(1), "{elsewhere:?}");
    assert_eq!(json(&elsewhere)["link"], "l1");
    assert!(json(&elsewhere)["reason"].as_str().unwrap().contains("the network's L1 chain is 1"));
    // No anchor: a usage error, exit 2.
    let chain = TestChain::start(Lie::None);
    let tx = chain.chain.tx_of_block(4);
    let anchorless = txfx(&["verify", "tx", "--node", &chain.node.url, "--tx-hash", &tx]);
    assert_eq!(anchorless.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&anchorless.stderr).contains("--l1-rpc"));
}

#[test]
fn at_an_l1_block_hash_the_rollup_is_read_by_storage_proof() {
    let chain = TestChain::start(Lie::None);
    let finalized = txfx_suite::testchain::rpc(
        &chain.anvil.url,
        "eth_getBlockByNumber",
        serde_json::json!(["finalized", false]),
    );
    let hash = finalized["hash"].as_str().expect("a hash");
    let output = walk(&chain, 4, &["--l1-block-hash", hash]);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let verdict = json(&output);
    assert_eq!(verdict["anchor"]["l1Evidence"], "storageProof", "{verdict}");
    assert_eq!(verdict["anchor"]["l1StateRoot"], finalized["stateRoot"]);
    assert_eq!(verdict["anchor"]["l1BlockHash"], hash);
    assert_eq!(
        (verdict["finality"].as_str(), verdict["l1Finalized"].as_bool()),
        (Some("proven"), Some(false))
    );
    // A hash no block has: the L1 node's fault, exit 4; a Registry at a hash: a usage error, exit 2.
    let unknown = format!("0x{}", "ab".repeat(32));
    assert_eq!(walk(&chain, 4, &["--l1-block", &unknown]).status.code(), Some(4));
    let tx = chain.chain.tx_of_block(4);
    let (node, l1, registry) = (&chain.node.url, &chain.anvil.url, &chain.registry.address);
    let by_registry = txfx(&[
        "verify",
        "tx",
        "--node",
        node,
        "--l1-rpc",
        l1,
        "--registry",
        registry,
        "--tx-hash",
        &tx,
        "--l1-block",
        hash,
    ]);
    assert_eq!(by_registry.status.code(), Some(2), "{by_registry:?}");
    assert!(String::from_utf8_lossy(&by_registry.stderr).contains("--rollup"), "{by_registry:?}");
}

#[test]
fn a_registry_names_the_rollup() {
    let chain = TestChain::start(Lie::None);
    let tx = chain.chain.tx_of_block(4);
    let (node, l1, registry) = (&chain.node.url, &chain.anvil.url, &chain.registry.address);
    let args = ["verify", "tx", "--node", node, "--l1-rpc", l1, "--registry", registry, "--tx-hash", &tx];
    let output = txfx(&args);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let verdict = json(&output);
    assert_eq!(
        verdict["anchor"]["rollup"].as_str().map(str::to_lowercase),
        Some(chain.rollup.address.to_lowercase())
    );
    assert_eq!(verdict["anchor"]["registry"].as_str().map(str::to_lowercase), Some(registry.to_lowercase()));
    // --rollup and --registry name the rollup two ways: one is asked for.
    let both = txfx(&[&args[..], &["--rollup", &chain.rollup.address]].concat());
    assert_eq!(both.status.code(), Some(2), "{both:?}");
    // --l1-rpc without anything naming the rollup: the usage error says what would.
    let neither = txfx(&["verify", "tx", "--node", node, "--l1-rpc", l1, "--tx-hash", &tx]);
    assert_eq!(neither.status.code(), Some(2), "{neither:?}");
    assert!(String::from_utf8_lossy(&neither.stderr).contains("--registry"), "{neither:?}");
}

#[test]
fn a_settings_file_gives_a_networks_defaults_and_the_command_line_wins() {
    let chain = TestChain::start(Lie::None);
    let dir = std::env::temp_dir().join(format!("txfx-settings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("written");
        path.to_string_lossy().into_owned()
    };
    let tx = chain.chain.tx_of_block(4);
    let settings = write(
        "config.toml",
        &format!(
            "default-network = \"canonical\"\n[networks.canonical]\nnode = \"{}\"\nl1-rpc = \"{}\"\n\
             registry = \"{}\"\ntimeout = \"20s\"\n",
            chain.node.url, chain.anvil.url, chain.registry.address
        ),
    );
    // The file alone: its default network, its endpoints, its Registry.
    let output = txfx(&["verify", "tx", "--config", &settings, "--tx-hash", &tx]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let verdict = json(&output);
    assert_eq!(verdict["anchor"]["genesis"]["network"], "canonical");
    assert!(verdict["anchor"]["registry"].is_string(), "{verdict}");
    // $TXFX_CONFIG names it as well.
    let by_variable = txfx_with(&["verify", "tx", "--tx-hash", &tx], &[("TXFX_CONFIG", &settings)]);
    assert_eq!(by_variable.status.code(), Some(0), "{by_variable:?}");
    // A run that names its own rollup is not held to the default network; what it does not give
    // comes from nowhere (the section is the network's), so it gives it.
    let own = walk(&chain, 4, &["--config", &settings]);
    assert_eq!(own.status.code(), Some(0), "{own:?}");
    assert!(json(&own)["anchor"].get("genesis").is_none(), "{}", json(&own));
    // The environment wins over the file: a node URL there that answers nothing is asked.
    let env = txfx_with(
        &["verify", "tx", "--config", &settings, "--tx-hash", &tx],
        &[("AZTEC_NODE_URL", "http://127.0.0.1:9")],
    );
    assert_eq!(env.status.code(), Some(4), "{env:?}");
    // A file with a typo, and a file named that is not there: exit 2 naming it, nothing asked.
    let asked = chain.node.asked.lock().unwrap().len();
    let typo = write("typo.toml", "[networks.canonical]\nl1_rpc = \"http://127.0.0.1:1\"\n");
    let missing = dir.join("missing.toml").to_string_lossy().into_owned();
    for (path, words) in [(&typo, "l1_rpc"), (&missing, "cannot read")] {
        let output = txfx(&["verify", "tx", "--config", path, "--tx-hash", &tx]);
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(path.as_str()) && stderr.contains(words), "{stderr}");
    }
    assert_eq!(chain.node.asked.lock().unwrap().len(), asked, "nothing was asked");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `txfx networks`' canonical entry.
fn canonical_entry(networks: &serde_json::Value) -> serde_json::Value {
    networks
        .as_array()
        .and_then(|all| all.iter().find(|n| n["name"] == "canonical").cloned())
        .expect("canonical")
}

#[test]
fn a_network_file_is_checked_against_l1_like_a_built_in_network() {
    let chain = TestChain::start(Lie::None);
    let dir = std::env::temp_dir().join(format!("txfx-network-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    // `txfx networks` prints the shape a network file takes: its canonical entry reads back.
    let networks = txfx(&["networks"]);
    assert_eq!(networks.status.code(), Some(0));
    let canonical = json(&networks)
        .as_array()
        .and_then(|all| all.iter().find(|n| n["name"] == "canonical").cloned())
        .expect("canonical is listed");
    let file = |name: &str, value: &serde_json::Value| {
        let path = dir.join(name);
        std::fs::write(&path, value.to_string()).expect("written");
        path.to_string_lossy().into_owned()
    };
    let good = file("canonical.json", &canonical);
    let output = walk(&chain, 4, &["--network-file", &good]);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    // Another genesis: L1's archiveAt(0) refutes it, exit 1 at link l1.
    let mut other = canonical.clone();
    other["genesisArchiveRoot"] = serde_json::json!(format!("0x{:064x}", 7));
    let wrong = walk(&chain, 4, &["--network-file", &file("other.json", &other)]);
    assert_eq!(wrong.status.code(), Some(1), "{wrong:?}");
    assert_eq!(json(&wrong)["link"], "l1");
    // A file of another shape, or of another protocol: exit 2 before any request.
    let mut typo = canonical.clone();
    typo["genesisArchiveRoots"] = typo["genesisArchiveRoot"].clone();
    let malformed = walk(&chain, 4, &["--network-file", &file("typo.json", &typo)]);
    assert_eq!(malformed.status.code(), Some(2), "{malformed:?}");
    assert!(String::from_utf8_lossy(&malformed.stderr).contains("genesisArchiveRoots"));
    let mut old = canonical;
    old["protocol"] = serde_json::json!("pre-azip-26");
    let old = walk(&chain, 4, &["--network-file", &file("old.json", &old)]);
    assert_eq!(old.status.code(), Some(2), "{old:?}");
    assert!(String::from_utf8_lossy(&old.stderr).contains("not a v6 network"), "{old:?}");
    // A network that pins nothing to check (no genesis root, no L1 deployment): exit 2, before
    // any request.
    let mut nothing = canonical_entry(&json(&networks));
    nothing["genesisArchiveRoot"] = serde_json::Value::Null;
    let asked = chain.node.asked.lock().unwrap().len();
    let unpinned = walk(&chain, 4, &["--network-file", &file("nothing.json", &nothing)]);
    assert_eq!(unpinned.status.code(), Some(2), "{unpinned:?}");
    assert!(String::from_utf8_lossy(&unpinned.stderr).contains("pins no genesis archive root"));
    assert_eq!(chain.node.asked.lock().unwrap().len(), asked, "nothing was asked");
    // A network file naming its L1 deployment: its Registry names the rollup (no --rollup), and
    // its chain is the L1 node's.
    let mut deployed = canonical_entry(&json(&networks));
    deployed["l1"] = serde_json::json!({
        "chainId": chain.chain.l1_chain_id(),
        "registry": chain.registry.address,
    });
    let tx = chain.chain.tx_of_block(4);
    let path = file("deployed.json", &deployed);
    let (node, l1) = (&chain.node.url, &chain.anvil.url);
    let output =
        txfx(&["verify", "tx", "--node", node, "--l1-rpc", l1, "--network-file", &path, "--tx-hash", &tx]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert_eq!(
        json(&output)["anchor"]["registry"].as_str().map(str::to_lowercase),
        Some(chain.registry.address.to_lowercase())
    );
    let _ = std::fs::remove_dir_all(&dir);
}
