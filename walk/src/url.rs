//! What an endpoint's URL must be before anything is sent to it: `http://` or `https://` (in any
//! case), then a host. Every driver of the walk (`txfx-client`, the npm package's `fetch`
//! driver) checks its URLs here, so that `localhost:8080` is the same refusal everywhere.

/// What is wrong with an endpoint's URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UrlProblem {
    /// No `http://` or `https://` in front (`localhost:8080`).
    #[error("it has no scheme: write http://… or https://…")]
    NoScheme,
    /// Another scheme.
    #[error("its scheme is not http or https")]
    Scheme,
    /// Not a URL with a host: no host, an unclosed `[`, a port that is not a number, a space or
    /// a control character.
    #[error("it is not a URL with a host")]
    NotAUrl,
}

/// Checks an endpoint URL: an `http` or `https` scheme, then an authority with a host (after
/// any userinfo, before any port of at most five digits), and no whitespace or control
/// character anywhere.
///
/// # Errors
/// The [`UrlProblem`], in that order of checks.
pub fn check_endpoint_url(url: &str) -> Result<(), UrlProblem> {
    let Some((scheme, rest)) = url.split_once("://") else { return Err(UrlProblem::NoScheme) };
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return Err(UrlProblem::Scheme);
    }
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(UrlProblem::NotAUrl);
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, after)| after);
    let (host, port) = match host_port.strip_prefix('[') {
        Some(bracketed) => {
            let (host, after) = bracketed.split_once(']').ok_or(UrlProblem::NotAUrl)?;
            match after {
                "" => (host, None),
                _ => (host, Some(after.strip_prefix(':').ok_or(UrlProblem::NotAUrl)?)),
            }
        }
        None => match host_port.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (host_port, None),
        },
    };
    let port_ok =
        port.is_none_or(|port| (1..=5).contains(&port.len()) && port.bytes().all(|b| b.is_ascii_digit()));
    if host.is_empty() || !port_ok {
        return Err(UrlProblem::NotAUrl);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoint_urls_are_http_with_a_host() {
        let cases: [(&str, Result<(), UrlProblem>); 14] = [
            ("http://127.0.0.1:8080", Ok(())),
            ("HTTPS://node.example/v2/key?x=1", Ok(())),
            ("http://user:pw@host:1/", Ok(())),
            ("http://[::1]:8545", Ok(())),
            ("http://[::1]", Ok(())),
            ("127.0.0.1:8080", Err(UrlProblem::NoScheme)),
            ("localhost", Err(UrlProblem::NoScheme)),
            ("ftp://host", Err(UrlProblem::Scheme)),
            ("ws://host", Err(UrlProblem::Scheme)),
            ("http://", Err(UrlProblem::NotAUrl)),
            ("http:///path", Err(UrlProblem::NotAUrl)),
            ("http://host:port", Err(UrlProblem::NotAUrl)),
            ("http://[::1", Err(UrlProblem::NotAUrl)),
            ("http://ho st", Err(UrlProblem::NotAUrl)),
        ];
        for (url, expected) in cases {
            assert_eq!(check_endpoint_url(url), expected, "{url}");
        }
    }
}
