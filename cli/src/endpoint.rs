//! `--node` and `--l1-rpc`: endpoint URLs checked before anything is sent.
//!
//! A URL without a scheme (`localhost:8080`), with a scheme other than `http` or `https`, or one
//! that cannot be a URL is a usage error (exit 2) naming the option, rather than exit 4 after a
//! connection attempt that could never work. The check is the shape a request needs and no more:
//! the scheme, a host (a name, an IPv4 address or a bracketed IPv6 literal), an optional port from
//! 1 to 65535, and visible ASCII only (a URL with a space or a control character in it is a
//! pasting accident, and a non-ASCII host would need its punycode form). Whether the host answers
//! is the client's to find out.
//!
//! A value is never echoed as given: the error and every later message show it through
//! [`txfx_client::redact_url`], since these URLs carry keys.

use std::ffi::OsStr;

use clap::builder::TypedValueParser;
use clap::error::ErrorKind;

use txfx_client::redact_url as redact;

/// The longest URL accepted: longer than any provider's URL with its key, short enough that a
/// value pasted by mistake (a file's content) is refused rather than sent.
pub const MAX_URL_LEN: usize = 2048;

/// An endpoint URL that passed [`check`]: `http` or `https`, with a host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint(String);

impl Endpoint {
    /// The URL as given, to send requests to. Never print it: [`Endpoint::redacted`] is for that.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The URL as messages show it (module docs).
    pub fn redacted(&self) -> String {
        redact(&self.0)
    }
}

/// Why a value is no endpoint URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadUrl {
    /// Longer than [`MAX_URL_LEN`].
    TooLong {
        /// Its length in bytes.
        length: usize,
    },
    /// A byte that is not visible ASCII (a space, a control character, non-ASCII text).
    Character {
        /// Its offset.
        at: usize,
    },
    /// No `scheme://`.
    NoScheme,
    /// A scheme other than http and https.
    Scheme {
        /// The scheme given.
        scheme: String,
    },
    /// Nothing between `://` and the path.
    NoHost,
    /// A host that is no name, IPv4 address or bracketed IPv6 literal.
    Host,
    /// A port that is not a number from 1 to 65535.
    Port {
        /// The port given.
        port: String,
    },
}

impl std::fmt::Display for BadUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::TooLong { length } => {
                write!(f, "{length} bytes, more than the {MAX_URL_LEN} a URL may have")
            }
            Self::Character { at } => {
                write!(f, "byte {at} is not visible ASCII (a space, a control character or non-ASCII text)")
            }
            Self::NoScheme => write!(f, "no scheme: give http://… or https://…"),
            Self::Scheme { scheme } => write!(f, "scheme {scheme:?}: give http://… or https://…"),
            Self::NoHost => write!(f, "no host"),
            Self::Host => write!(f, "the host is no name, IPv4 address or [IPv6] address"),
            Self::Port { port } => write!(f, "port {port:?}: a number from 1 to 65535"),
        }
    }
}

impl std::error::Error for BadUrl {}

/// Checks `text` as an endpoint URL (module docs).
///
/// # Errors
/// [`BadUrl`]: the first reason it cannot be one.
pub fn check(text: &str) -> Result<Endpoint, BadUrl> {
    if text.len() > MAX_URL_LEN {
        return Err(BadUrl::TooLong { length: text.len() });
    }
    if let Some(at) = text.bytes().position(|b| !b.is_ascii_graphic()) {
        return Err(BadUrl::Character { at });
    }
    let Some((scheme, rest)) = text.split_once("://") else {
        return Err(BadUrl::NoScheme);
    };
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return Err(BadUrl::Scheme { scheme: redact(scheme) });
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    // The userinfo, if any, ends at the last `@`; what it holds is the server's to judge.
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    let (host, port) = split_port(host_port)?;
    if host.is_empty() {
        return Err(BadUrl::NoHost);
    }
    if !valid_host(host) {
        return Err(BadUrl::Host);
    }
    if let Some(port) = port
        && !port.parse::<u16>().is_ok_and(|p| p > 0 && port.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err(BadUrl::Port { port: port.to_owned() });
    }
    Ok(Endpoint(text.to_owned()))
}

/// `host[:port]` or `[v6][:port]`.
fn split_port(host_port: &str) -> Result<(&str, Option<&str>), BadUrl> {
    if host_port.starts_with('[') {
        let Some(close) = host_port.find(']') else {
            return Err(BadUrl::Host);
        };
        let (host, after) = host_port.split_at(close + 1);
        return match after.strip_prefix(':') {
            Some(port) => Ok((host, Some(port))),
            None if after.is_empty() => Ok((host, None)),
            None => Err(BadUrl::Host),
        };
    }
    Ok(match host_port.split_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (host_port, None),
    })
}

fn valid_host(host: &str) -> bool {
    match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        Some(v6) => !v6.is_empty() && v6.bytes().all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.'),
        None => {
            // One trailing dot is a fully qualified name; every label has a character.
            let name = host.strip_suffix('.').unwrap_or(host);
            name.split('.').all(|label| {
                !label.is_empty()
                    && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            })
        }
    }
}

/// clap's parser for an endpoint option: on a bad value, an error naming the option (and its
/// environment variable) that shows the value redacted, where clap's own would quote it whole.
#[derive(Clone, Copy, Debug)]
pub struct EndpointParser;

impl TypedValueParser for EndpointParser {
    type Value = Endpoint;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Endpoint, clap::Error> {
        let option = match arg.and_then(clap::Arg::get_long) {
            Some(long) => format!("--{long}"),
            None => "the URL".to_owned(),
        };
        let option = match arg.and_then(clap::Arg::get_env) {
            Some(variable) => format!("{option} (or ${})", variable.to_string_lossy()),
            None => option,
        };
        let text = value.to_str().ok_or_else(|| {
            cmd.clone().error(ErrorKind::InvalidUtf8, format!("{option}: the URL is not UTF-8"))
        })?;
        check(text).map_err(|reason| {
            let message = format!("invalid URL '{}' for {option}: {reason}", redact(text));
            cmd.clone().error(ErrorKind::ValueValidation, message)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{BadUrl, MAX_URL_LEN, check};

    #[test]
    fn endpoints_as_providers_and_local_nodes_give_them_pass() {
        for url in [
            "http://localhost:8080",
            "https://rpc.testnet.aztec-labs.com/",
            "HTTPS://user:p%40ss@host.example:443/v2/key?apikey=1#x",
            "http://127.0.0.1:8545",
            "http://[::1]:8545/",
            "http://my_host.internal./rpc",
        ] {
            assert_eq!(check(url).map(|e| e.as_str().to_owned()), Ok(url.to_owned()), "{url}");
        }
    }

    #[test]
    fn what_cannot_be_an_endpoint_is_refused_with_its_reason() {
        for (url, reason) in [
            ("localhost:8080", BadUrl::NoScheme),
            ("127.0.0.1", BadUrl::NoScheme),
            ("", BadUrl::NoScheme),
            ("ws://host", BadUrl::Scheme { scheme: "ws".into() }),
            ("file:///etc/passwd", BadUrl::Scheme { scheme: "file".into() }),
            ("http://", BadUrl::NoHost),
            ("http:///path", BadUrl::NoHost),
            ("http://user@:80", BadUrl::NoHost),
            ("http://host:0", BadUrl::Port { port: "0".into() }),
            ("http://host:65536", BadUrl::Port { port: "65536".into() }),
            ("http://host:", BadUrl::Port { port: String::new() }),
            ("http://host:+80", BadUrl::Port { port: "+80".into() }),
            ("http://host:8080:1", BadUrl::Port { port: "8080:1".into() }),
            ("http://ho!st/", BadUrl::Host),
            ("http://a..b/", BadUrl::Host),
            ("http://.a/", BadUrl::Host),
            ("http://a../", BadUrl::Host),
            ("http://[::1/", BadUrl::Host),
            ("http://[]/", BadUrl::Host),
            ("http://[::1]x/", BadUrl::Host),
            ("http://host /", BadUrl::Character { at: 11 }),
            ("http://hôst/", BadUrl::Character { at: 8 }),
            ("http://host/\n", BadUrl::Character { at: 12 }),
        ] {
            assert_eq!(check(url), Err(reason), "{url:?}");
        }
        let long = format!("http://host/{}", "a".repeat(MAX_URL_LEN));
        assert_eq!(check(&long), Err(BadUrl::TooLong { length: long.len() }));
    }
}
