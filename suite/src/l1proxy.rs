//! An L1 node that lies: a real HTTP server on loopback that forwards each JSON-RPC request to
//! anvil and alters its answer (or the request) as a [`ProxyLie`] says, the way a hosted
//! provider's endpoint could. The node walk at an L1 block hash must refuse every such lie at
//! link `l1` (`suite/tests/l1_proof.rs`).

use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Value, json};

use crate::testchain::{respond, rpc, serve_loopback};

/// How the proxy lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProxyLie {
    /// It forwards honestly.
    None,
    /// `eth_getBlockByHash` answers with a `stateRoot` one bit off: a header of another state.
    HeaderStateRoot,
    /// `eth_getProof` answers with the archive word (`storageProof[1].value`) altered.
    ArchiveValue,
    /// `eth_getProof` answers with the account proof's last node dropped.
    DroppedProofNode,
    /// `eth_getProof` answers with the proof at block 0 (before the rollup existed), not at the
    /// block asked for.
    ProofAtGenesis,
    /// `eth_getProof` answers with its storage proofs in reverse order.
    SwappedStorageProofs,
}

/// The lying L1 node; it stops when dropped.
pub struct LyingL1 {
    /// Its URL.
    pub url: String,
    stop: Arc<AtomicBool>,
    address: SocketAddr,
}

impl Drop for LyingL1 {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.address);
    }
}

impl LyingL1 {
    /// A proxy in front of the L1 node at `upstream`, lying as `lie` says.
    pub fn start(upstream: &str, lie: ProxyLie) -> Self {
        let upstream = upstream.to_owned();
        let (address, stop) = serve_loopback(move |stream, _, body| {
            respond(stream, "200 OK", "", &forward(&upstream, lie, body));
        });
        Self { url: format!("http://{address}"), stop, address }
    }
}

/// One request (or batch) forwarded to `upstream`, each answer altered as `lie` says.
fn forward(upstream: &str, lie: ProxyLie, body: &str) -> String {
    let request: Value = serde_json::from_str(body).expect("the walk sends JSON");
    let calls = match &request {
        Value::Array(calls) => calls.clone(),
        call => vec![call.clone()],
    };
    let answers: Vec<Value> = calls
        .iter()
        .map(|call| {
            let method = call["method"].as_str().unwrap_or_default();
            let mut params = call["params"].clone();
            if lie == ProxyLie::ProofAtGenesis && method == "eth_getProof" {
                let genesis = rpc(upstream, "eth_getBlockByNumber", json!(["0x0", false]));
                params[2] = json!({ "blockHash": genesis["hash"] });
            }
            let mut result = rpc(upstream, method, params);
            alter(lie, method, &mut result);
            json!({ "jsonrpc": "2.0", "id": call["id"], "result": result })
        })
        .collect();
    match request {
        Value::Array(_) => Value::Array(answers),
        _ => answers.into_iter().next().unwrap_or(Value::Null),
    }
    .to_string()
}

/// `result`, the honest answer to `method`, altered as `lie` says (the socket-free replays of
/// `crate::transcript` apply it to recorded answers).
pub fn alter(lie: ProxyLie, method: &str, result: &mut Value) {
    match (lie, method) {
        (ProxyLie::HeaderStateRoot, "eth_getBlockByHash") => {
            let root = result["stateRoot"].as_str().unwrap_or_default();
            result["stateRoot"] = json!(flip_last_digit(root));
        }
        (ProxyLie::ArchiveValue, "eth_getProof") => {
            result["storageProof"][1]["value"] = json!("0x1234");
        }
        (ProxyLie::DroppedProofNode, "eth_getProof") => {
            if let Some(nodes) = result["accountProof"].as_array_mut() {
                nodes.pop();
            }
        }
        (ProxyLie::SwappedStorageProofs, "eth_getProof") => {
            if let Some(proofs) = result["storageProof"].as_array_mut() {
                proofs.reverse();
            }
        }
        _ => {}
    }
}

/// `hex` with its last digit changed.
fn flip_last_digit(hex: &str) -> String {
    let mut text = hex.to_owned();
    let last = text.pop().unwrap_or('0');
    text.push(if last == '0' { '1' } else { '0' });
    text
}
