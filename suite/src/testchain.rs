//! A v6 chain on loopback, made of real parts: `anvil` (Foundry's L1 node, from npm) holding the
//! stand-in rollup (`testdata/l1/StandInRollup.sol`) with the archives of `testdata/v6/chain.json`,
//! and a stub Aztec node, a real HTTP JSON-RPC server answering `aztec_*` (and `node_*`) methods
//! with the chain's v6 answers — honestly, or with one [`Lie`].
//!
//! The tests of the node walk (`suite/tests/node_walk.rs`), the CLI's (`cli/tests/node.rs`) and
//! the npm package's (through `txfx-test-chain`, which prints the URLs) start their own.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use crate::vectors::{read_testdata, testdata_dir};

/// The anvil binary: `TXFX_ANVIL`, else the one `cargo xtask test` installs under
/// `target/l1/` (npm `@foundry-rs/anvil-linux-amd64`, pinned in `xtask/l1/package.json`).
pub fn anvil_binary() -> PathBuf {
    if let Some(path) = std::env::var_os("TXFX_ANVIL") {
        return PathBuf::from(path);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| testdata_dir().join("..").join("target"));
    target.join("l1/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil")
}

/// One JSON-RPC call over HTTP (to anvil, or to the stub node in a test).
pub fn rpc(url: &str, method: &str, params: Value) -> Value {
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
    let mut response = ureq::post(url).send_json(&body).unwrap_or_else(|e| panic!("{method} at {url}: {e}"));
    let answer: Value = response.body_mut().read_json().unwrap_or_else(|e| panic!("{method}: {e}"));
    if let Some(error) = answer.get("error") {
        panic!("{method}: {error}");
    }
    answer["result"].clone()
}

/// A running anvil, killed when dropped.
pub struct Anvil {
    child: Child,
    /// Its JSON-RPC URL.
    pub url: String,
}

impl Drop for Anvil {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Anvil {
    /// Starts anvil on a free loopback port as chain `chain_id`, `finalized` two blocks behind
    /// `latest`.
    pub fn start(chain_id: u64) -> Self {
        let binary = anvil_binary();
        assert!(
            binary.exists(),
            "no anvil at {}: `cargo xtask test` installs it (npm @foundry-rs/anvil-linux-amd64, xtask/l1/package.json), or set TXFX_ANVIL",
            binary.display()
        );
        let mut child = Command::new(&binary)
            .args([
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--hardfork",
                "prague",
                "--chain-id",
                &chain_id.to_string(),
            ])
            .args(["--slots-in-an-epoch", "1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{}: {e}", binary.display()));
        let stdout = child.stdout.take().expect("anvil's stdout");
        let mut lines = BufReader::new(stdout).lines();
        let port = loop {
            let line = lines.next().expect("anvil printed its port").expect("a line");
            if let Some(address) = line.strip_prefix("Listening on ") {
                break address.rsplit(':').next().expect("a port").trim().to_owned();
            }
        };
        // Keep reading its output so that it never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        Self { child, url: format!("http://127.0.0.1:{port}") }
    }

    /// Sends a transaction from anvil's first (unlocked) account; the receipt.
    pub fn send(&self, to: Option<&str>, data: &str) -> Value {
        let from = rpc(&self.url, "eth_accounts", json!([]))[0].clone();
        let mut tx = json!({ "from": from, "data": data, "gas": "0x500000" });
        if let Some(to) = to {
            tx["to"] = json!(to);
        }
        let hash = rpc(&self.url, "eth_sendTransaction", json!([tx]));
        // Auto-mining mines it at once, but the receipt may lag the answer by a moment.
        let mut receipt = Value::Null;
        for _ in 0..200 {
            receipt = rpc(&self.url, "eth_getTransactionReceipt", json!([hash]));
            if !receipt.is_null() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(receipt["status"], "0x1", "the transaction reverted: {receipt}");
        receipt
    }

    /// Mines `blocks` empty blocks (moving `finalized` along).
    pub fn mine(&self, blocks: u64) {
        rpc(&self.url, "anvil_mine", json!([format!("0x{blocks:x}")]));
    }
}

fn word(value: u64) -> String {
    format!("{value:064x}")
}

fn hex_word(hex: &str) -> String {
    format!("{:0>64}", hex.trim_start_matches("0x"))
}

/// The stand-in rollup on an anvil: deployed with the chain's genesis archive, then `propose`d
/// and `prove`d as the chain's `l1` story says (checkpoints 1 to 3 on L1, 2 proven).
pub struct Rollup {
    /// Its address.
    pub address: String,
}

impl Rollup {
    /// Deploys the stand-in with archive 0 = the chain's genesis archive root.
    pub fn deploy(anvil: &Anvil, chain: &V6Chain) -> Self {
        let compiled: Value =
            serde_json::from_str(&read_testdata("l1/StandInRollup.json")).expect("compiled");
        let bytecode = compiled["bytecode"].as_str().expect("creation code");
        let receipt = anvil.send(None, &format!("{bytecode}{}", hex_word(&chain.archive_at(0))));
        Self { address: receipt["contractAddress"].as_str().expect("an address").to_owned() }
    }

    /// `propose(checkpoint, archive)`.
    pub fn propose(&self, anvil: &Anvil, checkpoint: u64, archive: &str) {
        anvil.send(Some(&self.address), &format!("0x52583521{}{}", word(checkpoint), hex_word(archive)));
    }

    /// `prove(checkpoint)`.
    pub fn prove(&self, anvil: &Anvil, checkpoint: u64) {
        anvil.send(Some(&self.address), &format!("0x5dfd7a57{}", word(checkpoint)));
    }

    /// `prune()`: pending back to proven, the archives kept.
    pub fn prune(&self, anvil: &Anvil) {
        anvil.send(Some(&self.address), "0x9f2b3154");
    }

    /// `setTips(pending, proven)`, each at most 128 bits.
    pub fn set_tips(&self, anvil: &Anvil, pending: u128, proven: u128) {
        anvil.send(Some(&self.address), &format!("0x367dfeed{pending:064x}{proven:064x}"));
    }

    /// `setArchive(checkpoint, archive)`: an L1 whose archive is not the chain's.
    pub fn set_archive(&self, anvil: &Anvil, checkpoint: u64, archive: &str) {
        anvil.send(Some(&self.address), &format!("0xafeac241{}{}", word(checkpoint), hex_word(archive)));
    }
}

/// The stand-in Registry on an anvil (`testdata/l1/StandInRegistry.sol`): its canonical rollup is
/// the last one added.
pub struct Registry {
    /// Its address.
    pub address: String,
}

impl Registry {
    /// Deploys the stand-in, naming no rollup yet.
    pub fn deploy(anvil: &Anvil) -> Self {
        let compiled: Value =
            serde_json::from_str(&read_testdata("l1/StandInRegistry.json")).expect("compiled");
        let receipt = anvil.send(None, compiled["bytecode"].as_str().expect("creation code"));
        Self { address: receipt["contractAddress"].as_str().expect("an address").to_owned() }
    }

    /// `addRollup(rollup)`: the rollup becomes the canonical one.
    pub fn add_rollup(&self, anvil: &Anvil, rollup: &str) {
        anvil.send(Some(&self.address), &format!("0x59264f00{}", hex_word(rollup)));
    }
}

/// `testdata/v6/chain.json`, indexed for answering.
pub struct V6Chain {
    /// The whole file.
    pub json: Value,
    results: HashMap<String, String>,
}

fn result_of_file(path: &str) -> String {
    let response: Value = serde_json::from_str(&read_testdata(path)).expect("a response file");
    response["result"].to_string()
}

impl V6Chain {
    /// Loads the chain.
    pub fn load() -> Self {
        let json: Value = serde_json::from_str(&read_testdata("v6/chain.json")).expect("chain.json");
        let mut results = HashMap::new();
        let answers = &json["nodeAnswers"];
        let text = |entry: &Value| -> String {
            match entry.get("rpcFile").or(entry.get("file")).and_then(Value::as_str) {
                Some(file) => result_of_file(file),
                None => entry["json"].as_str().expect("inline json").to_owned(),
            }
        };
        for entry in answers["getTxReceipt"].as_array().expect("receipts") {
            let hash = entry["txHash"].as_str().expect("hash");
            let with = !entry["options"].is_null();
            results.insert(format!("getTxReceipt/{hash}/{with}"), text(entry));
        }
        for key in ["getTxReceiptPending", "getTxReceiptDropped"] {
            let entry = &answers[key];
            for with in [false, true] {
                results.insert(
                    format!("getTxReceipt/{}/{with}", entry["txHash"].as_str().expect("hash")),
                    entry["json"].as_str().expect("json").to_owned(),
                );
            }
        }
        for (method, key) in
            [("getTxEffect", "getTxEffect"), ("getTxEffectMembershipWitness", "getTxEffectMembershipWitness")]
        {
            for entry in answers[key].as_array().expect("answers") {
                results.insert(format!("{method}/{}", entry["txHash"].as_str().expect("hash")), text(entry));
            }
        }
        for block in answers["blocks"].as_array().expect("blocks") {
            let number = block["number"].as_u64().expect("number");
            results.insert(
                format!("getBlock/{number}/false"),
                block["getBlock"].as_str().expect("json").to_owned(),
            );
            results.insert(
                format!("getBlock/{number}/true"),
                result_of_file(block["getBlockWithTransactions"].as_str().expect("file")),
            );
            results.insert(
                format!("getBlockData/{number}"),
                block["getBlockData"].as_str().expect("json").to_owned(),
            );
        }
        for witness in json["archiveWitnesses"].as_array().expect("archive witnesses") {
            let reference = witness["referenceBlock"].as_u64().expect("reference");
            let hash = witness["blockHash"].as_str().expect("hash");
            results.insert(
                format!("getBlockHashMembershipWitness/{reference}/{hash}"),
                json!(witness["base64"].as_str().expect("base64")).to_string(),
            );
        }
        Self { json, results }
    }

    /// The archive L1 holds for `checkpoint` in the chain's story.
    pub fn archive_at(&self, checkpoint: u64) -> String {
        self.json["l1"]["archives"]
            .as_array()
            .expect("archives")
            .iter()
            .find(|a| a["checkpoint"].as_u64() == Some(checkpoint))
            .and_then(|a| a["archive"].as_str())
            .unwrap_or_else(|| panic!("no archive for checkpoint {checkpoint}"))
            .to_owned()
    }

    /// The hash of the only tx of one-tx block `block`.
    pub fn tx_of_block(&self, block: u64) -> String {
        let occurrences = self.json["nodeAnswers"]["txHashOccurrences"].as_object().expect("occurrences");
        occurrences
            .iter()
            .find(|(_, places)| {
                places.as_array().is_some_and(|p| p.len() == 1 && p[0]["block"].as_u64() == Some(block))
            })
            .map(|(hash, _)| hash.clone())
            .unwrap_or_else(|| panic!("block {block} has no tx of its own hash"))
    }

    /// The L1 chain id every block header names (`globalVariables.chainId`).
    pub fn l1_chain_id(&self) -> u64 {
        let header = self.answer("getBlockData", &[json!(1)]).expect("block 1's data");
        let header: Value = serde_json::from_str(&header).expect("JSON");
        let id = header["header"]["globalVariables"]["chainId"].as_str().expect("a chainId");
        u64::from_str_radix(id.trim_start_matches("0x").trim_start_matches('0'), 16)
            .expect("a 64-bit chain id")
    }

    /// The result the honest node gives `method` with `params`, or `None` (JSON `null`).
    pub fn answer(&self, method: &str, params: &[Value]) -> Option<String> {
        let key = match method {
            "getTxReceipt" => {
                let with = params.get(1).and_then(|o| o.get("includeTxEffect")).and_then(Value::as_bool)
                    == Some(true);
                format!("getTxReceipt/{}/{with}", params.first()?.as_str()?)
            }
            "getTxEffect" | "getTxEffectMembershipWitness" => {
                format!("{method}/{}", params.first()?.as_str()?)
            }
            "getBlock" => {
                let with = params.get(1).and_then(|o| o.get("includeTransactions")).and_then(Value::as_bool)
                    == Some(true);
                format!("getBlock/{}/{with}", params.first()?.as_u64()?)
            }
            "getBlockData" => format!("getBlockData/{}", params.first()?.as_u64()?),
            "getBlockHashMembershipWitness" => {
                format!(
                    "getBlockHashMembershipWitness/{}/{}",
                    params.first()?.as_u64()?,
                    params.get(1)?.as_str()?
                )
            }
            _ => return None,
        };
        self.results.get(&key).cloned()
    }
}

/// A way the stub node lies (or misbehaves); [`Lie::None`] is the honest node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lie {
    /// Honest.
    None,
    /// The receipt's effect with one field changed (its first nullifier, or its fee).
    ForgedEffect,
    /// `getBlock(B)` answers with the block before B.
    AnotherBlock,
    /// A block response whose `hash` is another block's.
    BlockResponseHash,
    /// A block response whose `number` is another.
    BlockResponseNumber,
    /// The receipt claims `proven` whatever the block's finality.
    ReceiptClaimsProven,
    /// The receipt names another block's hash.
    ReceiptBlockHash,
    /// `getTxEffectMembershipWitness` answers with another tx's witness.
    WitnessOfAnotherTx,
    /// The node does not serve `getTxEffectMembershipWitness` (method not found).
    NoWitnessMethod,
    /// The node answers only in the `node_` namespace.
    LegacyNamespace,
    /// The archive witness is against an older archive (the reference block's predecessor).
    StaleArchive,
    /// The archive witness is against a newer archive than the one asked (the reference block's
    /// successor's).
    FutureArchive,
    /// `getBlockData(n)` answers with block n + 1's data.
    WrongReferenceBlock,
    /// The first block of the next checkpoint carries a forged `lastArchive`.
    ForgedReferenceHeader,
    /// `getBlockData` past the chain's tip answers `null` from block 8 on.
    TipAtBlock7,
    /// Answers cut in half.
    Truncated,
    /// Answers padded past `bytes` with white space.
    Oversized(usize),
    /// Answers after `millis` milliseconds.
    Slow(u64),
    /// `getTxEffectMembershipWitness` answers with an error other than "method not found" (a
    /// node whose world state lags): the body still builds the witness.
    WitnessError,
    /// `getTxReceipt` answers with a JSON-RPC error (HTTP 200).
    ReceiptError,
    /// `getBlock` answers with the block's effects three times over: more blob fields than a
    /// checkpoint holds, inside the answer's byte bound (block 5's one tx takes 8,475 fields).
    OversizedBody,
    /// `getTxReceipt`'s result is itself a JSON-RPC response around the receipt: read once, it
    /// is no receipt; read twice, it would be one.
    DoublyWrapped,
    /// `getBlockData` answers with the block response `getBlock` gives (a body beside the
    /// header): another shape than block data.
    BlockDataAsBlock,
    /// The node is honest, and the L1 node follows another chain (anvil's 31337) than the one
    /// the blocks' headers name.
    OtherL1Chain,
    /// Answers that are not JSON.
    NotJson,
    /// Batch answers in reverse order.
    OutOfOrder,
    /// Every answer a redirect to another host.
    Redirect,
    /// Every answer HTTP 502, as a gateway whose node is down gives.
    BadGateway,
    /// `getBlock` answered with an `L2Block` (4.1.2's shape: no `hash` or `number`).
    L2BlockAnswer,
}

/// A stub Aztec node on loopback.
pub struct StubNode {
    /// Its URL.
    pub url: String,
    stop: Arc<AtomicBool>,
    address: SocketAddr,
    /// Every method it was asked, in order.
    pub asked: Arc<Mutex<Vec<String>>>,
}

impl Drop for StubNode {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop.
        let _ = TcpStream::connect(self.address);
    }
}

/// Reads one HTTP request: its method and body (Content-Length framed).
fn read_request(stream: &mut TcpStream) -> Option<(String, String)> {
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut length = 0usize;
    let mut request_line = String::new();
    reader.read_line(&mut request_line).ok()?;
    let method = request_line.split(' ').next()?.to_owned();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().ok()?;
        }
    }
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body).ok()?;
    Some((method, String::from_utf8(body).ok()?))
}

/// A page on another origin may ask the node (the npm package's browser test does), as it may ask
/// a node that serves wallets.
const CORS: &str = "access-control-allow-origin: *\r\naccess-control-allow-headers: content-type\r\n";

pub(crate) fn respond(stream: &mut TcpStream, status: &str, extra_headers: &str, body: &str) {
    let head = format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n{CORS}{extra_headers}\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body.as_bytes());
}

/// A server on a free loopback port: each connection's one HTTP request (its method and body)
/// handled by `handle` on a thread of its own, until `stop` is set (a connection then wakes the
/// accept loop, as the servers' `Drop` makes one). Its address and its stop flag.
pub(crate) fn serve_loopback(
    handle: impl Fn(&mut TcpStream, &str, &str) + Send + Sync + 'static,
) -> (SocketAddr, Arc<AtomicBool>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let address = listener.local_addr().expect("an address");
    let stop = Arc::new(AtomicBool::new(false));
    let (flag, handle) = (stop.clone(), Arc::new(handle));
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            if flag.load(Ordering::SeqCst) {
                break;
            }
            let Ok(mut stream) = stream else { continue };
            let handle = handle.clone();
            std::thread::spawn(move || {
                if let Some((method, body)) = read_request(&mut stream) {
                    handle(&mut stream, &method, &body);
                }
            });
        }
    });
    (address, stop)
}

impl StubNode {
    /// Starts a node answering with `chain`'s answers, lying as `lie` says.
    pub fn start(chain: Arc<V6Chain>, lie: Lie) -> Self {
        let asked = Arc::new(Mutex::new(Vec::new()));
        let log = asked.clone();
        let (address, stop) = serve_loopback(move |stream, method, body| {
            if method == "OPTIONS" {
                // A browser's preflight of a JSON POST.
                respond(stream, "204 No Content", "access-control-allow-methods: POST\r\n", "");
            } else {
                serve(&chain, lie, &log, stream, body);
            }
        });
        Self { url: format!("http://{address}"), stop, address, asked }
    }
}

fn serve(chain: &V6Chain, lie: Lie, log: &Mutex<Vec<String>>, stream: &mut TcpStream, body: &str) {
    let answer = node_answer(chain, lie, log, body);
    if let Lie::Slow(millis) = lie {
        std::thread::sleep(Duration::from_millis(millis));
    }
    respond(stream, answer.status, answer.headers, &answer.body);
}

/// What the stub node answers one HTTP request with: its status line, extra headers and body.
pub struct NodeAnswer {
    /// The status line (`200 OK`).
    pub status: &'static str,
    /// Headers beside the usual ones, each ending in CRLF.
    pub headers: &'static str,
    /// The body.
    pub body: String,
}

impl NodeAnswer {
    /// The numeric status.
    pub fn code(&self) -> u16 {
        self.status.split(' ').next().and_then(|code| code.parse().ok()).unwrap_or(0)
    }
}

/// The stub node's answer to the JSON-RPC request (or batch) `body`, lying as `lie` says: the
/// same function serves loopback HTTP and the socket-free transcript replays
/// (`crate::transcript`). A slow node's wait is the server's, not part of its answer.
pub fn node_answer(chain: &V6Chain, lie: Lie, log: &Mutex<Vec<String>>, body: &str) -> NodeAnswer {
    if lie == Lie::Redirect {
        return NodeAnswer {
            status: "302 Found",
            headers: "location: http://127.0.0.2:9/\r\n",
            body: String::new(),
        };
    }
    if lie == Lie::BadGateway {
        return NodeAnswer { status: "502 Bad Gateway", headers: "", body: String::new() };
    }
    let requests: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    let batch = requests.as_array().cloned().unwrap_or_else(|| vec![requests.clone()]);
    let mut answers: Vec<Value> = batch.iter().map(|request| answer(chain, lie, log, request)).collect();
    if lie == Lie::OutOfOrder {
        answers.reverse();
    }
    let mut text =
        if requests.is_array() { Value::Array(answers).to_string() } else { answers.remove(0).to_string() };
    match lie {
        Lie::Truncated => text.truncate(text.len() / 2),
        Lie::Oversized(bytes) => text.push_str(&" ".repeat(bytes.saturating_sub(text.len()) + 1)),
        Lie::NotJson => text = "<html>502 Bad Gateway</html>".to_owned(),
        _ => {}
    }
    NodeAnswer { status: "200 OK", headers: "", body: text }
}

fn method_not_found(id: &Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "Method not found" } })
}

/// The answer to one request, as `lie` has it.
fn answer(chain: &V6Chain, lie: Lie, log: &Mutex<Vec<String>>, request: &Value) -> Value {
    let id = request["id"].clone();
    let full = request["method"].as_str().unwrap_or_default();
    log.lock().expect("log").push(full.to_owned());
    let method = match (full.strip_prefix("aztec_"), full.strip_prefix("node_")) {
        (Some(_), _) if lie == Lie::LegacyNamespace => return method_not_found(&id),
        (Some(method), _) | (None, Some(method)) => method,
        _ => return method_not_found(&id),
    };
    if method == "getTxEffectMembershipWitness" && lie == Lie::NoWitnessMethod {
        return method_not_found(&id);
    }
    if (method == "getTxEffectMembershipWitness" && lie == Lie::WitnessError)
        || (method == "getTxReceipt" && lie == Lie::ReceiptError)
    {
        return json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32000, "message": "world state is syncing" } });
    }
    let params = request["params"].as_array().cloned().unwrap_or_default();
    let result = lied(chain, lie, method, &params).or_else(|| chain.answer(method, &params));
    let result: Value = match result {
        Some(text) => serde_json::from_str(&text).expect("the chain's answers are JSON"),
        None => Value::Null,
    };
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

fn edit(text: &str, change: impl FnOnce(&mut Value)) -> String {
    let mut value: Value = serde_json::from_str(text).expect("JSON");
    change(&mut value);
    value.to_string()
}

/// The lied answer, where `lie` changes this method's.
fn lied(chain: &V6Chain, lie: Lie, method: &str, params: &[Value]) -> Option<String> {
    let honest = || chain.answer(method, params);
    let number = || params.first().and_then(Value::as_u64);
    match (lie, method) {
        (Lie::ForgedEffect, "getTxReceipt") => honest().map(|text| {
            edit(&text, |v| {
                if let Some(first) = v["txEffect"]["nullifiers"].get_mut(0) {
                    *first = json!(format!("0x{:064x}", 0x99));
                } else if v.get("txEffect").is_some() {
                    v["txEffect"]["noteHashes"] = json!([format!("0x{:064x}", 0x99)]);
                }
            })
        }),
        (Lie::AnotherBlock, "getBlock") => {
            let other = number()?.checked_sub(1).filter(|n| *n >= 1)?;
            chain.answer("getBlock", &[json!(other), params.get(1).cloned().unwrap_or(Value::Null)])
        }
        (Lie::BlockResponseHash, "getBlock") => {
            let other = chain.answer("getBlock", &[json!(number()?.max(2) - 1)])?;
            let other: Value = serde_json::from_str(&other).ok()?;
            honest().map(|text| edit(&text, |v| v["hash"] = other["hash"].clone()))
        }
        (Lie::BlockResponseNumber, "getBlock") => {
            honest().map(|text| edit(&text, |v| v["number"] = json!(number().unwrap_or(1) + 1)))
        }
        (Lie::ReceiptClaimsProven, "getTxReceipt") => {
            honest().map(|text| edit(&text, |v| v["status"] = json!("proven")))
        }
        (Lie::ReceiptBlockHash, "getTxReceipt") => {
            let other = chain.answer("getBlock", &[json!(2)])?;
            let other: Value = serde_json::from_str(&other).ok()?;
            honest().map(|text| edit(&text, |v| v["blockHash"] = other["hash"].clone()))
        }
        (Lie::WitnessOfAnotherTx, "getTxEffectMembershipWitness") => {
            let asked = params.first()?.as_str()?;
            let others = chain.json["nodeAnswers"]["getTxEffectMembershipWitness"].as_array()?;
            let other = others.iter().find(|w| w["txHash"].as_str() != Some(asked))?;
            other["json"].as_str().map(str::to_owned)
        }
        (Lie::StaleArchive, "getBlockHashMembershipWitness") => {
            let reference = number()?;
            let mut earlier = params.to_vec();
            earlier[0] = json!(reference - 1);
            chain.answer(method, &earlier)
        }
        (Lie::L2BlockAnswer, "getBlock") => honest().map(|text| {
            edit(&text, |v| {
                if let Some(block) = v.as_object_mut() {
                    block.remove("hash");
                    block.remove("number");
                }
            })
        }),
        (Lie::FutureArchive, "getBlockHashMembershipWitness") => {
            let mut later = params.to_vec();
            later[0] = json!(number()? + 1);
            chain.answer(method, &later)
        }
        (Lie::WrongReferenceBlock, "getBlockData") => chain.answer(method, &[json!(number()? + 1)]),
        (Lie::ForgedReferenceHeader, "getBlockData") => honest().map(|text| {
            edit(&text, |v| {
                v["header"]["lastArchive"]["root"] = json!(format!("0x{:064x}", 0x77));
            })
        }),
        (Lie::TipAtBlock7, "getBlockData" | "getBlock") if number()? >= 8 => Some("null".to_owned()),
        (Lie::DoublyWrapped, "getTxReceipt") => {
            honest().map(|text| format!("{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{text}}}"))
        }
        (Lie::BlockDataAsBlock, "getBlockData") => chain.answer("getBlock", &[json!(number()?)]),
        (Lie::OversizedBody, "getBlock") => honest().map(|text| {
            edit(&text, |v| {
                if let Some(effects) = v["body"]["txEffects"].as_array().cloned() {
                    v["body"]["txEffects"] = json!([effects.clone(), effects.clone(), effects].concat());
                }
            })
        }),
        _ => None,
    }
}

/// A whole test chain: anvil with the rollup as the chain's `l1` story has it, and a stub node.
pub struct TestChain {
    /// The node.
    pub node: StubNode,
    /// The L1 node.
    pub anvil: Anvil,
    /// The rollup.
    pub rollup: Rollup,
    /// The Registry, whose canonical rollup is [`Self::rollup`].
    pub registry: Registry,
    /// The chain.
    pub chain: Arc<V6Chain>,
}

impl TestChain {
    /// Starts anvil (rollup deployed, checkpoints 1 to 3 proposed, 2 proven, `finalized` past
    /// all of it) and a stub node lying as `lie` says.
    pub fn start(lie: Lie) -> Self {
        let chain = Arc::new(V6Chain::load());
        // The blocks' headers name the L1 chain their rollup is on (`chainId`, which the rollup
        // checks on every proposal); the L1 node must be that chain.
        let chain_id = if lie == Lie::OtherL1Chain { 31337 } else { chain.l1_chain_id() };
        let anvil = Anvil::start(chain_id);
        let rollup = Rollup::deploy(&anvil, &chain);
        for checkpoint in 1..=3 {
            rollup.propose(&anvil, checkpoint, &chain.archive_at(checkpoint));
        }
        rollup.prove(&anvil, 2);
        let registry = Registry::deploy(&anvil);
        registry.add_rollup(&anvil, &rollup.address);
        // `finalized` is two blocks behind `latest`: past every transaction above.
        anvil.mine(2);
        let node = StubNode::start(chain.clone(), lie);
        Self { node, anvil, rollup, registry, chain }
    }
}
