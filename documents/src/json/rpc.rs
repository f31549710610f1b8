//! JSON-RPC as Aztec's node speaks it (v6 `safe_json_rpc_client`/`server`): requests go as a
//! batch (a JSON array of `{"jsonrpc": "2.0", "id", "method", "params"}`), answers come back as a
//! JSON array of `{"jsonrpc", "id", "result" | "error"}` in any order, each picked by its `id`.
//! An answer's `result` is read by [`crate::read`] as the document the method returns; `null`
//! means the node has no such thing (an unknown block, say).

use super::error::JsonError;
use super::fault::{JsonType, Malformation, Quoted};
use super::ordered::{Json, Object};
use super::wire::{Integer, MAX_SAFE_INTEGER, Raw};
use crate::error::{Doc, DocumentError, Problem, RpcProblem};

/// One request of a batch.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcRequest {
    /// Its id, unique in its batch.
    pub id: u64,
    /// The method (`aztec_getTxReceipt`, `eth_call`).
    pub method: String,
    /// Its parameters, in order.
    pub params: Vec<Json>,
}

impl RpcRequest {
    /// The request as JSON.
    pub fn to_json(&self) -> Json {
        Json::from(
            Object::new()
                .with("jsonrpc", "2.0")
                .with("id", self.id)
                .with("method", self.method.as_str())
                .with("params", self.params.clone()),
        )
    }
}

/// A batch of requests as the JSON text to send.
pub fn batch_request_json(requests: &[RpcRequest]) -> String {
    requests.iter().map(RpcRequest::to_json).collect::<Json>().to_string()
}

/// One answer of a batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RpcAnswer {
    /// A result: its JSON text.
    Result(String),
    /// `"result": null` (or no result): the node has nothing to answer with.
    Null,
    /// An error answer.
    Error {
        /// Its code, when numeric.
        code: Option<i64>,
        /// Its message, quoted.
        message: Quoted,
    },
}

impl RpcAnswer {
    /// JSON-RPC's "method not found": the node does not serve the method (under this name).
    pub fn is_method_not_found(&self) -> bool {
        matches!(self, Self::Error { code: Some(-32601), .. })
    }
}

/// The keys of a response.
const RESPONSE_KEYS: [&str; 4] = ["jsonrpc", "id", "result", "error"];

fn answer_of(raw: Raw<'_>) -> Result<(u64, RpcAnswer), JsonError> {
    let object = raw.object("a JSON-RPC response", &RESPONSE_KEYS)?;
    let id = object
        .read("id", |r| r.u64(Integer::number(u128::from(MAX_SAFE_INTEGER))).map_err(JsonError::from))?;
    let result = object.get("result").filter(|result| !result.is_null());
    let error = object.get("error").filter(|error| !error.is_null());
    let answer = match (result, error) {
        (Some(_), Some(_)) => {
            return Err(raw
                .fault(Malformation::OtherKind {
                    expected: "a JSON-RPC response with a result or an error",
                    got: "a response with both",
                })
                .into());
        }
        (Some(result), None) => RpcAnswer::Result(result.text().to_owned()),
        (None, Some(error)) => {
            let fields = error.object("an error", &["code", "message"]).ok();
            let code =
                fields.as_ref().and_then(|f| f.get("code")).and_then(|code| code.text().parse::<i64>().ok());
            let message = fields
                .as_ref()
                .and_then(|f| f.get("message"))
                .and_then(|m| m.string().ok())
                .map_or_else(|| Quoted::new(error.text()), |m| Quoted::new(&m));
            RpcAnswer::Error { code, message }
        }
        (None, None) => RpcAnswer::Null,
    };
    Ok((id, answer))
}

/// The answers of a batch to the requests of `ids`, in the order of `ids`: each picked by its
/// `id`, whatever order the node sent them in.
///
/// # Errors
/// [`DocumentError`]: not a JSON array of responses (a single error object says the node refused
/// the whole batch, and is quoted), a response to no request sent, an id answered twice, or a
/// request left unanswered.
pub fn batch_answers(doc: Doc<'_>, ids: &[u64]) -> Result<Vec<RpcAnswer>, DocumentError> {
    let read = |raw: Raw<'_>| -> Result<Vec<RpcAnswer>, Problem> {
        if raw.kind() == JsonType::Object {
            // A node that refuses a batch whole answers with one error object.
            let (_, answer) = answer_of(raw).or_else(|_| {
                let object = raw.object("a JSON-RPC response", &RESPONSE_KEYS)?;
                let error =
                    object.get("error").map_or_else(|| Quoted::new(raw.text()), |e| Quoted::new(e.text()));
                Ok::<_, JsonError>((0, RpcAnswer::Error { code: None, message: error }))
            })?;
            return Err(match answer {
                RpcAnswer::Error { code, message } => RpcProblem::NodeError { code, message }.into(),
                _ => RpcProblem::NotABatch.into(),
            });
        }
        let responses = raw.array(ids.len(), "a batch of JSON-RPC responses")?;
        let mut answers: Vec<Option<RpcAnswer>> = vec![None; ids.len()];
        for response in responses {
            let (id, answer) = answer_of(response)?;
            let slot = ids
                .iter()
                .position(|sent| *sent == id)
                .and_then(|index| answers.get_mut(index))
                .ok_or(RpcProblem::UnaskedId { id })?;
            if slot.is_some() {
                return Err(RpcProblem::RepeatedId { id }.into());
            }
            *slot = Some(answer);
        }
        answers
            .into_iter()
            .zip(ids)
            .map(|(answer, id)| answer.ok_or_else(|| RpcProblem::NoAnswer { id: *id }.into()))
            .collect()
    };
    doc.input.read(read).map_err(|problem| doc.error(problem))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_picked_by_id_in_any_order() {
        let text = r#"[{"jsonrpc":"2.0","id":2,"result":null},{"jsonrpc":"2.0","id":1,"result":{"a":1}},
            {"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found"}}]"#;
        let answers = batch_answers(Doc::text("answers", text), &[1, 2, 3]).expect("reads");
        assert_eq!(answers[0], RpcAnswer::Result(r#"{"a":1}"#.to_owned()));
        assert_eq!(answers[1], RpcAnswer::Null);
        assert!(answers[2].is_method_not_found());
    }

    #[test]
    fn a_batch_that_does_not_answer_each_request_once_is_refused() {
        let one = r#"{"jsonrpc":"2.0","id":1,"result":1}"#;
        let twice = format!("[{one},{one}]");
        assert!(batch_answers(Doc::text("a", &twice), &[1, 2]).is_err());
        assert!(batch_answers(Doc::text("a", &format!("[{one}]")), &[1, 2]).is_err());
        let other = r#"[{"jsonrpc":"2.0","id":7,"result":1}]"#;
        assert!(batch_answers(Doc::text("a", other), &[1]).is_err());
        let refused = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"too many"}}"#;
        let error = batch_answers(Doc::text("a", refused), &[1]).expect_err("one error for all");
        assert!(error.to_string().contains("too many"), "{error}");
    }
}
