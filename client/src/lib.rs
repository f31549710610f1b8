#![doc = include_str!("../README.md")]

/// txfx-walk, re-exported (and through it txfx-documents and the crates below).
pub use txfx_walk;

pub use txfx_documents::txfx_membership::txfx_poseidon::{Fr, HashBackend, Sequential};
pub use txfx_walk::l1::{Address, BlockTag, parse_address};
pub use txfx_walk::{
    Anchor, LIMITS, Namespace, Target, TransportProblem, WalkError, WalkParams, WalkSubject, WalkVerdict,
};

// The redaction lives in txfx-walk, the lowest crate every driver of the walk depends on (the npm
// package's edge reaches it there without this crate's HTTP stack); it is re-exported here, where
// it has always been named.
pub use txfx_walk::{TOKEN_MIN_LEN, UrlProblem, check_endpoint_url, redact_in, redact_url};

use std::time::{Duration, Instant};

use txfx_documents::classify::{Classify, ErrorClass};
use txfx_documents::json::Quoted;
use txfx_walk::{Answer, ConnectionFault, Request, Walk};

/// Where to ask, and how long to wait: [`ClientConfig::new`], then [`ClientConfig::with_timeout`].
/// How much to read is the walk's ([`txfx_walk::Request::max_answer_bytes`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ClientConfig {
    /// The Aztec node's JSON-RPC URL.
    pub node_url: String,
    /// The L1 node's JSON-RPC URL (needed for an L1 anchor).
    pub l1_url: Option<String>,
    /// The whole walk's deadline.
    pub timeout: Duration,
}

impl ClientConfig {
    /// A configuration for `node_url` (and `l1_url`) with the walk's default deadline
    /// ([`LIMITS`]' `default_timeout`, 60 s).
    pub fn new(node_url: impl Into<String>, l1_url: Option<String>) -> Self {
        Self { node_url: node_url.into(), l1_url, timeout: LIMITS.default_timeout }
    }

    /// The whole walk's deadline.
    ///
    /// # Errors
    /// [`ClientError::Timeout`] for zero or more than [`LIMITS`]' `max_timeout` (an hour).
    pub fn with_timeout(mut self, timeout: Duration) -> Result<Self, ClientError> {
        if timeout.is_zero() || timeout > LIMITS.max_timeout {
            return Err(ClientError::Timeout { given: timeout, max: LIMITS.max_timeout });
        }
        self.timeout = timeout;
        Ok(self)
    }
}

/// Why a walk over HTTP did not end in a verdict.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The walk refused an answer, an endpoint gave none, or what it proved does not hold; the
    /// endpoint it concerns, shown redacted ([`redact_url`]).
    #[error("{}{source}", .endpoint.as_ref().map(|(target, url)| format!("{} at {url}: ", target.name())).unwrap_or_default())]
    Walk {
        /// The endpoint the error is about, and its URL as shown.
        endpoint: Option<(Target, String)>,
        /// What went wrong.
        source: Box<WalkError>,
    },
    /// An L1 anchor without an L1 URL.
    #[error("an L1 anchor needs the L1 node's URL")]
    NoL1Url,
    /// An endpoint URL that cannot be asked: refused before anything is sent.
    #[error("the {} URL {url}: {problem}", .target.name())]
    Url {
        /// Whose URL.
        target: Target,
        /// The URL as shown.
        url: String,
        /// What is wrong.
        problem: UrlProblem,
    },
    /// A deadline of zero or past the walk's longest.
    #[error("a timeout of {} ms: give more than zero and at most {} s", .given.as_millis(), .max.as_secs())]
    Timeout {
        /// What was given.
        given: Duration,
        /// The longest.
        max: Duration,
    },
}

impl ClientError {
    /// The walk's error, if it is one.
    pub fn walk(&self) -> Option<&WalkError> {
        match self {
            Self::Walk { source, .. } => Some(source.as_ref()),
            _ => None,
        }
    }

    /// The link that broke, for a refutation.
    pub fn link(&self) -> Option<&'static str> {
        self.walk().and_then(WalkError::link)
    }
}

impl Classify for ClientError {
    fn kind(&self) -> String {
        match self {
            Self::Walk { source, .. } => source.kind(),
            Self::NoL1Url => "NoL1Url".into(),
            Self::Url { problem, .. } => format!("Url/{problem:?}"),
            Self::Timeout { .. } => "Timeout".into(),
        }
    }

    fn class(&self) -> ErrorClass {
        match self {
            Self::Walk { source, .. } => source.class(),
            Self::NoL1Url | Self::Url { .. } | Self::Timeout { .. } => ErrorClass::Malformed,
        }
    }
}

/// Checks an endpoint URL before anything is sent: the walk's rule
/// ([`txfx_walk::check_endpoint_url`]), then ureq's own reading of it.
fn check_url(target: Target, url: &str) -> Result<(), ClientError> {
    let refuse = |problem| ClientError::Url { target, url: redact_url(url), problem };
    check_endpoint_url(url).map_err(refuse)?;
    let uri: ureq::http::Uri = url.parse().map_err(|_| refuse(UrlProblem::NotAUrl))?;
    if uri.host().is_none_or(str::is_empty) {
        return Err(refuse(UrlProblem::NotAUrl));
    }
    Ok(())
}

/// The failure a `ureq` error is.
fn transport_problem(error: ureq::Error, timeout: Duration, limit: u64) -> TransportProblem {
    let connection = |kind, detail: &dyn std::fmt::Display| TransportProblem::Connection {
        kind,
        detail: Quoted::new(&detail.to_string()),
    };
    match error {
        ureq::Error::Timeout(_) => TransportProblem::Timeout { after: timeout },
        ureq::Error::BodyExceedsLimit(_) => TransportProblem::TooLarge { limit },
        ureq::Error::HostNotFound => connection(ConnectionFault::HostNotFound, &"no address"),
        ureq::Error::Io(io) => {
            use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset, TimedOut};
            match io.kind() {
                ConnectionRefused | ConnectionReset | ConnectionAborted => {
                    connection(ConnectionFault::Refused, &io)
                }
                TimedOut => TransportProblem::Timeout { after: timeout },
                _ => connection(ConnectionFault::Other, &io),
            }
        }
        ureq::Error::ConnectionFailed => connection(ConnectionFault::Refused, &"the connection failed"),
        ureq::Error::Tls(reason) => connection(ConnectionFault::Tls, &reason),
        ureq::Error::Rustls(error) => connection(ConnectionFault::Tls, &error),
        error @ (ureq::Error::Protocol(_) | ureq::Error::LargeResponseHeader(..)) => {
            connection(ConnectionFault::Protocol, &error)
        }
        other => connection(ConnectionFault::Other, &other),
    }
}

/// One HTTP exchange on `agent`: POST `request`'s body as JSON to `url` within `remaining`,
/// reading at most the request's bound (refused at once when the answer declares more).
fn post(
    agent: &ureq::Agent,
    url: &str,
    request: &Request,
    remaining: Duration,
    timeout: Duration,
) -> Result<Answer, TransportProblem> {
    let limit = request.max_answer_bytes();
    let failed = |error| transport_problem(error, timeout, limit);
    let mut response = agent
        .post(url)
        .config()
        .timeout_global(Some(remaining))
        .build()
        .header("content-type", "application/json")
        .send(request.body())
        .map_err(failed)?;
    let status = response.status().as_u16();
    if (300..400).contains(&status) {
        return Err(TransportProblem::Redirect { status });
    }
    let declared = response
        .headers()
        .get("content-length")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit) {
        return Err(TransportProblem::TooLarge { limit });
    }
    let bytes = response.body_mut().with_config().limit(limit).read_to_vec().map_err(failed)?;
    let body = String::from_utf8(bytes).map_err(|_| TransportProblem::NotText)?;
    Ok(Answer { status, body })
}

/// Proves `params`' tx from the node's and L1's answers (module docs).
///
/// # Errors
/// [`ClientError`]: a URL that cannot be asked; the walk's refusal naming the link that broke,
/// or an endpoint that gave no usable answer, with that endpoint named. Every error classifies
/// itself ([`Classify`]).
pub fn verify_tx(
    hasher: &dyn HashBackend,
    config: &ClientConfig,
    params: WalkParams,
) -> Result<WalkVerdict, ClientError> {
    // The field may have been set without `with_timeout`: checked again, so that no deadline
    // past the walk's longest reaches the clock (a huge one would overflow it).
    if config.timeout.is_zero() || config.timeout > LIMITS.max_timeout {
        return Err(ClientError::Timeout { given: config.timeout, max: LIMITS.max_timeout });
    }
    check_url(Target::Node, &config.node_url)?;
    match (&params.anchor, &config.l1_url) {
        (Anchor::L1 { .. } | Anchor::Registry { .. }, None) => return Err(ClientError::NoL1Url),
        (_, Some(url)) => check_url(Target::L1, url)?,
        (Anchor::Given(_), None) => {}
    }
    let mut walk =
        Walk::new(params).map_err(|source| ClientError::Walk { endpoint: None, source: Box::new(source) })?;
    // One agent for the whole walk, so that its requests to one endpoint share a connection.
    // Redirects are refused (a POST's body does not survive one, and an answer must come from
    // the URL given); every status reaches the walk, which judges it.
    let agent: ureq::Agent =
        ureq::Agent::config_builder().http_status_as_error(false).max_redirects(0).build().into();
    let deadline = Instant::now() + config.timeout;
    let url_of = |target| match target {
        Target::Node => config.node_url.as_str(),
        Target::L1 => config.l1_url.as_deref().unwrap_or_default(),
    };
    txfx_walk::drive(&mut walk, hasher, |request| {
        let remaining = deadline.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            return Err(TransportProblem::Timeout { after: config.timeout });
        }
        post(&agent, url_of(request.target()), request, remaining, config.timeout)
    })
    .map_err(|source| {
        let endpoint = source.target().map(|target| (target, redact_url(url_of(target))));
        ClientError::Walk { endpoint, source: Box::new(source) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_past_the_longest_is_refused_before_anything_is_sent() {
        let params = WalkParams::new(Fr::from(1u64), Anchor::Given(Fr::from(2u64)));
        for timeout in [Duration::ZERO, Duration::MAX, LIMITS.max_timeout + Duration::from_millis(1)] {
            assert!(ClientConfig::new("http://127.0.0.1:1", None).with_timeout(timeout).is_err());
            let mut config = ClientConfig::new("http://127.0.0.1:1", None);
            config.timeout = timeout;
            let error = verify_tx(&Sequential, &config, params.clone()).expect_err("refused");
            assert!(matches!(error, ClientError::Timeout { .. }), "{error}");
            assert_eq!(error.class(), ErrorClass::Malformed);
        }
    }
}
