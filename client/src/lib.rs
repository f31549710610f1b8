#![doc = include_str!("../README.md")]

/// txfx-walk, re-exported (and through it txfx-documents and the crates below): the walk's
/// parameters, its verdict, `Fr` and the backend traits.
pub use txfx_walk;

use std::time::{Duration, Instant};

use txfx_documents::txfx_membership::txfx_poseidon::HashBackend;
use txfx_walk::{Request, Step, Target, Walk, WalkError, WalkParams, WalkVerdict};

/// The most bytes an answer may have: a document's limit (a 64-tx log-heavy block with its body
/// is about 36 MiB; no valid answer comes near this). Reading stops there.
pub const MAX_ANSWER_BYTES: u64 = txfx_documents::MAX_DOCUMENT_BYTES;

/// The most requests one walk sends: the receipt (twice with the namespace fallback), the
/// effect, the block, two to L1, ten windows of `getBlockData`, the archive witness. A walk that
/// asks more has a bug; the client stops it rather than loop.
pub const MAX_REQUESTS: usize = 20;

/// Where to ask, and how long and how much to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientConfig {
    /// The Aztec node's JSON-RPC URL.
    pub node_url: String,
    /// The L1 node's JSON-RPC URL (needed for an L1 anchor).
    pub l1_url: Option<String>,
    /// The whole walk's deadline.
    pub timeout: Duration,
    /// The most bytes one answer may have.
    pub max_answer_bytes: u64,
    /// Whether to follow an HTTP redirect (to any host); off by default, so that an answer
    /// always comes from the URL given.
    pub follow_redirects: bool,
}

impl ClientConfig {
    /// A configuration for `node_url` (and `l1_url`): 60 s in all, answers up to
    /// [`MAX_ANSWER_BYTES`], no redirects.
    pub fn new(node_url: impl Into<String>, l1_url: Option<String>) -> Self {
        Self {
            node_url: node_url.into(),
            l1_url,
            timeout: Duration::from_secs(60),
            max_answer_bytes: MAX_ANSWER_BYTES,
            follow_redirects: false,
        }
    }
}

/// Why a request did not bring an answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TransportProblem {
    /// The walk's deadline passed.
    #[error("no answer within the walk's {seconds} s")]
    Timeout {
        /// The deadline, in seconds.
        seconds: u64,
    },
    /// An answer longer than the limit: reading stopped there.
    #[error("the answer is longer than {limit} bytes; reading stopped there")]
    TooLarge {
        /// The limit.
        limit: u64,
    },
    /// A redirect, which the client does not follow unless asked.
    #[error("HTTP {status} redirect refused (an answer must come from the URL given)")]
    Redirect {
        /// The status.
        status: u16,
    },
    /// An answer that is not UTF-8 text.
    #[error("the answer is not UTF-8 text")]
    NotText,
    /// The connection failed (refused, reset, host not found, TLS).
    #[error("{0}")]
    Connection(String),
}

/// Why a walk over HTTP did not end in a verdict.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The walk refused an answer, or what it proved does not hold.
    #[error(transparent)]
    Walk(#[from] WalkError),
    /// A request got no usable answer.
    #[error("{} at {url}: {problem}", .target.name())]
    Transport {
        /// Who was asked.
        target: Target,
        /// Its URL.
        url: String,
        /// What went wrong.
        problem: TransportProblem,
    },
    /// An L1 anchor without an L1 URL.
    #[error("an L1 anchor needs the L1 node's URL")]
    NoL1Url,
    /// The walk asked more than [`MAX_REQUESTS`] times.
    #[error("the walk asked more than {MAX_REQUESTS} requests")]
    TooManyRequests,
}

/// One HTTP exchange: POST `body` as JSON to `url`, within `remaining`, reading at most `limit`
/// bytes; the status and the body.
fn post(
    config: &ClientConfig,
    url: &str,
    body: &str,
    remaining: Duration,
) -> Result<(u16, String), TransportProblem> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(remaining))
        .http_status_as_error(false)
        .max_redirects(if config.follow_redirects { 5 } else { 0 })
        .build()
        .into();
    let seconds = config.timeout.as_secs();
    let classify = |error: ureq::Error| match error {
        ureq::Error::Timeout(_) => TransportProblem::Timeout { seconds },
        ureq::Error::BodyExceedsLimit(_) => TransportProblem::TooLarge { limit: config.max_answer_bytes },
        other => TransportProblem::Connection(other.to_string()),
    };
    let mut response =
        agent.post(url).header("content-type", "application/json").send(body).map_err(classify)?;
    let status = response.status().as_u16();
    if (300..400).contains(&status) {
        return Err(TransportProblem::Redirect { status });
    }
    let bytes =
        response.body_mut().with_config().limit(config.max_answer_bytes).read_to_vec().map_err(classify)?;
    let text = String::from_utf8(bytes).map_err(|_| TransportProblem::NotText)?;
    Ok((status, text))
}

/// Proves `params`' tx from the node's and L1's answers (module docs).
///
/// # Errors
/// [`ClientError`]: a transport failure naming the endpoint, or the walk's refusal naming the
/// link that broke.
pub fn verify_tx(
    hasher: &dyn HashBackend,
    config: &ClientConfig,
    params: WalkParams,
) -> Result<WalkVerdict, ClientError> {
    if matches!(params.anchor, txfx_walk::Anchor::L1 { .. }) && config.l1_url.is_none() {
        return Err(ClientError::NoL1Url);
    }
    let deadline = Instant::now() + config.timeout;
    let (mut walk, mut request) = Walk::start(params)?;
    for _ in 0..MAX_REQUESTS {
        let (status, body) = send(config, &request, deadline)?;
        match walk.step(hasher, &request, status, &body)? {
            Step::Send(next) => request = next,
            Step::Done(verdict) => return Ok(*verdict),
        }
    }
    Err(ClientError::TooManyRequests)
}

fn send(config: &ClientConfig, request: &Request, deadline: Instant) -> Result<(u16, String), ClientError> {
    let url = match request.target {
        Target::Node => config.node_url.as_str(),
        Target::L1 => config.l1_url.as_deref().ok_or(ClientError::NoL1Url)?,
    };
    let failed = |problem| ClientError::Transport { target: request.target, url: url.to_owned(), problem };
    let remaining = deadline.saturating_duration_since(Instant::now());
    if remaining.is_zero() {
        return Err(failed(TransportProblem::Timeout { seconds: config.timeout.as_secs() }));
    }
    post(config, url, &request.body, remaining).map_err(failed)
}
