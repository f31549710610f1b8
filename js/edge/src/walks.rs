//! The node walks in progress: `txfx_walk::Walk`s held between the JavaScript driver's calls,
//! their parameters read from the driver's JSON, and their requests and refusals written for it.

use txfx_documents::Doc;
use txfx_documents::classify::{Classify, ErrorClass};
use txfx_documents::json::{Json, Object};
use txfx_documents::ops::Expected;
use txfx_poseidon::HashBackend;

use crate::*;

/// `url` as it may be shown: the Rust client's and the CLI's redaction (`txfx_walk::redact_url`),
/// for the JavaScript driver's messages.
pub fn redact_url(url: &str) -> String {
    txfx_walk::redact_url(url)
}

/// The node walks in progress (`txfx-walk`), by id: the JavaScript side sends each request with
/// the runtime's `fetch` and hands the answer back, so the walk's state stays here between calls.
struct Walks {
    next: u32,
    live: std::collections::BTreeMap<u32, txfx_walk::Walk>,
}

/// The most walks alive at once: each holds a block's body, so a caller that never finishes its
/// walks cannot make the engine hold more than this many.
const MAX_LIVE_WALKS: usize = 64;

static WALKS: std::sync::Mutex<Walks> =
    std::sync::Mutex::new(Walks { next: 1, live: std::collections::BTreeMap::new() });

fn walks() -> std::sync::MutexGuard<'static, Walks> {
    // A panic elsewhere poisons nothing a walk relies on: its entries are whole or absent.
    WALKS.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The walk's parameters from the JSON the JavaScript side sends: `{node, txHash, l1Rpc?,
/// rollup?, registry?, l1Block?, archiveRoot?, category?, element?, role?, expected?, network?,
/// genesisArchiveRoot?, namespace?, timeoutMs?}` (no other key; `node` and `l1Rpc` are the
/// endpoints' URLs, checked by the walk's rule and not kept), and the walk's deadline in
/// milliseconds.
fn walk_params(text: &str) -> Result<(txfx_walk::WalkParams, u64)> {
    use txfx_walk::WalkSubject;
    let bad = |message: &str| Thrown::new(ErrorClass::Malformed, "Argument", message);
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(&format!("walk: {e}")))?;
    let object = value.as_object().ok_or_else(|| bad("walk: expected an object"))?;
    const KEYS: [&str; 15] = [
        "node",
        "timeoutMs",
        "txHash",
        "l1Rpc",
        "rollup",
        "registry",
        "l1Block",
        "archiveRoot",
        "category",
        "element",
        "role",
        "expected",
        "network",
        "genesisArchiveRoot",
        "namespace",
    ];
    if let Some(key) = object.keys().find(|key| !KEYS.contains(&key.as_str())) {
        return Err(bad(&format!("walk: unknown option {key:?}")));
    }
    let tx_hash = field("txHash", option_text(object, "txHash")?.ok_or_else(|| bad("txHash: required"))?)?;
    let subject = match option_text(object, "category")? {
        None => WalkSubject::Tx,
        Some(category) => {
            let element = option_text(object, "element")?.map(|value| field("element", value)).transpose()?;
            let role = option_text(object, "role")?.map(|role| parsed("role", role)).transpose()?;
            WalkSubject::Category(
                parsed("category", category)?,
                element.map(|value| txfx_membership::ElementQuery { value, role }),
            )
        }
    };
    // `network`: a built-in network's name, or a network's genesis values (`txfx networks`' shape).
    let named = match object.get("network") {
        Some(value @ serde_json::Value::Object(_)) => {
            let text = value.to_string();
            // The walk refuses a network it cannot check (another protocol, no genesis root).
            Some(txfx_documents::read::network(Doc::text("network", &text), "network")?)
        }
        _ => option_text(object, "network")?
            .map(|name| parsed::<NetworkName>("network", name).map(|n| n.0))
            .transpose()?,
    };
    let network = match (named, option_text(object, "genesisArchiveRoot")?) {
        (Some(network), None) => Some(network),
        (None, Some(root)) => {
            Some(txfx_membership::Network::custom(field("genesisArchiveRoot", root)?, "genesisArchiveRoot"))
        }
        (None, None) => None,
        (Some(_), Some(_)) => return Err(bad("give network or genesisArchiveRoot, not both")),
    };
    let l1 = endpoints(object)?;
    let anchor = walk_anchor(object, l1, network.as_ref())?;
    let expected = match object.get("expected") {
        None | Some(serde_json::Value::Null) => Expected::default(),
        Some(expected) => Expected::from_json(Doc::text("expected", &expected.to_string()))?,
    };
    let namespace = option_text(object, "namespace")?.map(|name| parsed("namespace", name)).transpose()?;
    let mut params =
        txfx_walk::WalkParams::new(tx_hash, anchor).with_subject(subject).with_expected(expected);
    if let Some(network) = network {
        params = params.with_network(network);
    }
    if let Some(namespace) = namespace {
        params = params.with_namespace(namespace);
    }
    Ok((params, walk_timeout(option_text(object, "timeoutMs")?)?))
}

/// The endpoints' URLs, `node` (required) and `l1Rpc`, checked by the walk's rule
/// (`check_endpoint_url`) and not kept; whether an L1 node is given.
fn endpoints(object: &serde_json::Map<String, serde_json::Value>) -> Result<bool> {
    let endpoint = |key: &str| -> Result<Option<()>> {
        let Some(url) = option_text(object, key)? else { return Ok(None) };
        txfx_walk::check_endpoint_url(url).map(Some).map_err(|problem| {
            let shown = txfx_walk::redact_url(url);
            Thrown::new(
                ErrorClass::Malformed,
                &format!("Url/{problem:?}"),
                &format!("{key}: {shown}: {problem}"),
            )
        })
    };
    endpoint("node")?.ok_or_else(|| {
        Thrown::new(ErrorClass::Malformed, "Argument", "node: required (the Aztec node's URL)")
    })?;
    Ok(endpoint("l1Rpc")?.is_some())
}

/// The walk's anchor from the options, by the walk's rule (`Anchor::choose`): `rollup`,
/// `registry`, `archiveRoot`, `l1Block`, and whether an L1 node is given (`l1`).
fn walk_anchor(
    object: &serde_json::Map<String, serde_json::Value>,
    l1: bool,
    network: Option<&txfx_membership::Network>,
) -> Result<txfx_walk::Anchor> {
    use txfx_walk::{Anchor, AnchorChoiceError, AnchorNames};
    let bad = |message: &str| Thrown::new(ErrorClass::Malformed, "Argument", message);
    let address = |key: &str| {
        option_text(object, key)?
            .map(|text| txfx_walk::l1::parse_address(text).map_err(|e| bad(&format!("{key}: {e}"))))
            .transpose()
    };
    let tag = option_text(object, "l1Block")?;
    let names = AnchorNames {
        rollup: address("rollup")?,
        registry: address("registry")?,
        root: option_text(object, "archiveRoot")?.map(|root| field("archiveRoot", root)).transpose()?,
        l1,
        tag: tag.map(|tag| parsed("l1Block", tag)).transpose()?.unwrap_or_default(),
    };
    let anchor = Anchor::choose(names, network).map_err(|error| {
        bad(match error {
            AnchorChoiceError::Both => "give rollup, registry or archiveRoot, one of them",
            AnchorChoiceError::Neither => {
                "give l1Rpc with rollup, registry or a network deployed on L1 (mainnet, testnet), or archiveRoot"
            }
            AnchorChoiceError::NoL1Node => "rollup and registry are read from an L1 node: give l1Rpc",
            AnchorChoiceError::RegistryByHash => {
                "at an l1Block hash the rollup is read by storage proof, and a Registry's rollup is not yet: give rollup"
            }
        })
    })?;
    // An option the chosen anchor would not use is refused, not dropped: the caller meant
    // something by it (the CLI refuses `--l1-rpc` with no rollup named, likewise).
    if matches!(anchor, Anchor::Given(_)) {
        if l1 {
            return Err(bad("l1Rpc: the archive root is given (archiveRoot), so no L1 node is asked: \
                 give rollup or registry with it, or no l1Rpc"));
        }
        if tag.is_some() {
            return Err(bad("l1Block: the archive root is given (archiveRoot), so no L1 block is read"));
        }
    }
    Ok(anchor)
}

/// The walk's deadline in milliseconds: the walk's default when none is given, else the number
/// given (its decimal text: a JavaScript number crosses as `String(n)`, so that `NaN` cannot
/// become JSON's `null` and so the default), from 1 to the walk's longest (`txfx_walk::LIMITS`).
pub(crate) fn walk_timeout(given: Option<&str>) -> Result<u64> {
    let limits = &txfx_walk::LIMITS;
    let max = millis(limits.max_timeout);
    let Some(text) = given else { return Ok(millis(limits.default_timeout)) };
    text.parse::<u64>().ok().filter(|ms| (1..=max).contains(ms)).ok_or_else(|| {
        Thrown::new(
            ErrorClass::OutOfRange,
            "Argument",
            &format!("timeoutMs: {text} is not a number of milliseconds from 1 to {max}"),
        )
    })
}

/// A duration in whole milliseconds (every limit of the walk's is far below `u64::MAX` of them).
pub(crate) fn millis(duration: std::time::Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// A network by name, parsed.
struct NetworkName(txfx_membership::Network);

impl std::str::FromStr for NetworkName {
    type Err = txfx_membership::UnknownNetwork;
    fn from_str(name: &str) -> std::result::Result<Self, Self::Err> {
        txfx_membership::Network::named(name).map(Self)
    }
}

/// A request as the JavaScript driver reads it: `{"target": "node" | "l1", "body", "maxBytes"}`,
/// the most bytes of its answer to read.
fn request_json(request: &txfx_walk::Request) -> Json {
    let target = match request.target() {
        txfx_walk::Target::Node => "node",
        txfx_walk::Target::L1 => "l1",
    };
    Json::from(
        Object::new()
            .with("target", target)
            .with("body", request.body())
            .with("maxBytes", txfx_documents::json::safe_number(request.max_answer_bytes())),
    )
}

/// A walk's refusal as the JavaScript side reads it: its class (a refutation with its link, an
/// endpoint's unusable answer as `Transport`), its kind and its message.
fn walk_thrown(error: &txfx_walk::WalkError) -> Thrown {
    if error.class() == ErrorClass::Refuted {
        return Thrown::refuted(error.kind(), error.to_string(), error.link().unwrap_or("node"));
    }
    Thrown::new(error.class(), &error.kind(), &error.to_string())
}

/// Starts a node walk: `{"walk": id, "timeoutMs", "request": {"target", "body", "maxBytes"}}`
/// as JSON text, `timeoutMs` the walk's whole deadline, which the driver holds on every await.
///
/// # Errors
/// Parameters that do not read, or too many walks alive.
pub fn node_walk_start(params: &str) -> Result<String> {
    let (params, timeout_ms) = walk_params(params)?;
    let walk = txfx_walk::Walk::new(params).map_err(|error| walk_thrown(&error))?;
    let mut walks = walks();
    if walks.live.len() >= MAX_LIVE_WALKS {
        return Err(Thrown::new(
            ErrorClass::OutOfRange,
            "TooManyWalks",
            &format!("{MAX_LIVE_WALKS} node walks are in progress: finish or drop one first"),
        ));
    }
    let request =
        walk.poll_request().map(request_json).ok_or_else(|| walk_thrown(&txfx_walk::WalkError::Ended))?;
    let id = walks.next;
    walks.next = walks.next.wrapping_add(1).max(1);
    let out = Json::from(
        Object::new()
            .with("walk", id)
            .with("timeoutMs", txfx_documents::json::safe_number(timeout_ms))
            .with("request", request),
    )
    .to_string();
    walks.live.insert(id, walk);
    Ok(out)
}

/// Gives walk `id` the answer to its request (HTTP status and body): the next request,
/// `{"request": {...}}`, or the verdict, `{"verdict": {...}}`. A walk that ends (a verdict or an
/// error) is dropped.
///
/// # Errors
/// An unknown walk, or the walk's refusal, classified by the walk (`Refuted` with its link,
/// `Transport` for an endpoint's unusable answer).
pub fn node_walk_step(hasher: &dyn HashBackend, id: u32, status: u32, body: &str) -> Result<String> {
    let mut walk = walks().live.remove(&id).ok_or_else(|| {
        Thrown::new(ErrorClass::Malformed, "UnknownWalk", &format!("no node walk {id} is in progress"))
    })?;
    // A status past 16 bits is no HTTP status: the walk refuses it as it refuses any but 200.
    let status = u16::try_from(status).unwrap_or(u16::MAX);
    match walk.handle_response(hasher, status, body) {
        Ok(txfx_walk::Progress::Continue) => {
            let request = walk
                .poll_request()
                .map(request_json)
                .ok_or_else(|| walk_thrown(&txfx_walk::WalkError::Ended))?;
            let out = Json::from(Object::new().with("request", request)).to_string();
            walks().live.insert(id, walk);
            Ok(out)
        }
        Ok(txfx_walk::Progress::Done(verdict)) => {
            Ok(Json::from(Object::new().with("verdict", verdict.to_json())).to_string())
        }
        Err(error) => Err(walk_thrown(&error)),
    }
}

/// Drops walk `id` (a walk the caller gives up on: a timeout, a failed fetch). Unknown ids are
/// ignored: a walk that ended is already dropped.
pub fn node_walk_drop(id: u32) -> String {
    walks().live.remove(&id);
    String::new()
}
