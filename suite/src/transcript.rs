//! The node walk replayed with no socket, as quinn-proto's `Pair` tests a connection: the walk's
//! requests are answered by the stub node's answer function ([`crate::testchain::node_answer`],
//! the one the loopback server runs, honest or lying) and by a recorded L1 transcript
//! (`testdata/v6/transcripts/l1.json`: what anvil holding the stand-in rollup answered every L1
//! request of the honest walks, recorded by `txfx-test-chain --record-l1 FILE`), each answer
//! read by a driver that keeps the walk's byte bounds as the real ones do.
//!
//! An L1 that lies is a [`L1Lie`] applied to the recorded answers: no anvil is needed to refuse
//! one.

use std::path::PathBuf;
use std::sync::Mutex;

use serde_json::{Value, json};
use txfx_poseidon::Sequential;
use txfx_walk::{Answer, Request, Target, TransportProblem, Walk, WalkError, WalkParams, WalkVerdict};

use crate::testchain::{Lie, V6Chain, node_answer};
use crate::vectors::testdata_dir;

/// The recorded L1 transcript's path.
pub fn l1_transcript_path() -> PathBuf {
    testdata_dir().join("v6/transcripts/l1.json")
}

/// How a replayed L1 endpoint lies, on top of its recorded answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum L1Lie {
    /// Honest: the recorded answers.
    None,
    /// `eth_chainId` names another chain.
    OtherChain,
    /// `archiveAt(n)` answers another root for every checkpoint but 0.
    OtherArchive,
    /// `getPendingCheckpointNumber` answers 1: the tx's checkpoint is not on L1 for later ones.
    PendingAtOne,
    /// `eth_getBlockByNumber` answers HTML in a JSON string.
    NotABlock,
    /// Every `eth_call` answers `0x`, as a call to an address without code does.
    NoCode,
    /// One of the lying L1 proxy's lies (`crate::l1proxy`), applied to the recorded answers.
    Proxy(crate::l1proxy::ProxyLie),
}

/// The recorded L1 answers: each request's method and params (without its id) and the answer's
/// `result` or `error`.
#[derive(Debug, Clone)]
pub struct L1Transcript {
    exchanges: Vec<(Value, Value)>,
    /// The rollup's address the transcript was recorded with.
    pub rollup: String,
    /// The L1 block hash the walks at a hash were recorded at.
    pub block_hash: String,
}

impl L1Transcript {
    /// Loads the recorded transcript.
    ///
    /// # Panics
    /// If the file is missing or not the recorder's shape.
    pub fn load() -> Self {
        let path = l1_transcript_path();
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let json: Value = serde_json::from_str(&text).expect("the transcript is JSON");
        let exchanges = json["exchanges"]
            .as_array()
            .expect("exchanges")
            .iter()
            .map(|exchange| (json!([exchange["method"], exchange["params"]]), exchange["answer"].clone()))
            .collect();
        Self {
            exchanges,
            rollup: json["rollup"].as_str().expect("rollup").to_owned(),
            block_hash: json["blockHash"].as_str().expect("blockHash").to_owned(),
        }
    }

    /// The recorded answer (`{"result"}` or `{"error"}`) to `request`, lying as `lie` says.
    fn answer(&self, request: &Value, lie: L1Lie) -> Value {
        let key = json!([request["method"], request["params"]]);
        let recorded = self
            .exchanges
            .iter()
            .find(|(asked, _)| *asked == key)
            .map(|(_, answer)| answer.clone())
            .unwrap_or_else(|| {
                panic!("no recorded L1 answer to {key}: re-record testdata/v6/transcripts/l1.json")
            });
        let method = request["method"].as_str().unwrap_or_default();
        let data = request["params"][0]["data"].as_str().unwrap_or_default();
        let word = |value: u64| json!({ "result": format!("0x{value:064x}") });
        match (lie, method) {
            (L1Lie::OtherChain, "eth_chainId") => json!({ "result": "0x7a69" }),
            // archiveAt's selector is 0x3777e863; checkpoint 0's argument is all zeros.
            (L1Lie::OtherArchive, "eth_call")
                if data.starts_with("0x3777e863") && !data.ends_with(&"0".repeat(64)) =>
            {
                word(0x42)
            }
            // getPendingCheckpointNumber's selector.
            (L1Lie::PendingAtOne, "eth_call") if data.starts_with("0x9891be8e") => word(1),
            (L1Lie::NotABlock, "eth_getBlockByNumber") => json!({ "result": "<html>rate limited</html>" }),
            (L1Lie::NoCode, "eth_call") => json!({ "result": "0x" }),
            (L1Lie::Proxy(lie), method) => {
                let mut answer = recorded;
                crate::l1proxy::alter(lie, method, &mut answer["result"]);
                answer
            }
            _ => recorded,
        }
    }

    /// The L1 endpoint's answer to the batch `body`.
    fn batch(&self, body: &str, lie: L1Lie) -> String {
        let requests: Value = serde_json::from_str(body).expect("the walk's requests are JSON");
        let answers: Vec<Value> = requests
            .as_array()
            .expect("the walk sends batches")
            .iter()
            .map(|request| {
                let mut answer = self.answer(request, lie);
                answer["jsonrpc"] = json!("2.0");
                answer["id"] = request["id"].clone();
                answer
            })
            .collect();
        Value::Array(answers).to_string()
    }
}

/// Reads `body` as a driver does: refused past the request's bound.
fn bounded(request: &Request, status: u16, body: String) -> Result<Answer, TransportProblem> {
    if body.len() as u64 > request.max_answer_bytes() {
        return Err(TransportProblem::TooLarge { limit: request.max_answer_bytes() });
    }
    Ok(Answer { status, body })
}

/// Replays a walk of `params` against the stub node lying as `lie` and the recorded L1 lying as
/// `l1_lie`, with no socket; the walk's verdict or error, and every method the node was asked.
pub fn replay(
    chain: &V6Chain,
    l1: &L1Transcript,
    lie: Lie,
    l1_lie: L1Lie,
    params: WalkParams,
) -> (Result<WalkVerdict, WalkError>, Vec<String>) {
    let log = Mutex::new(Vec::new());
    let result = Walk::new(params).and_then(|mut walk| {
        txfx_walk::drive(&mut walk, &Sequential, |request| match request.target() {
            Target::Node => {
                let answer = node_answer(chain, lie, &log, request.body());
                let status = answer.code();
                if (300..400).contains(&status) {
                    return Err(TransportProblem::Redirect { status });
                }
                bounded(request, status, answer.body)
            }
            Target::L1 => bounded(request, 200, l1.batch(request.body(), l1_lie)),
        })
    });
    let asked = log.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    (result, asked)
}
