//! Endpoint URLs with their secrets taken out, for every message that shows one (errors,
//! progress).
//!
//! Hosted L1 and Aztec endpoints carry their keys in the URL itself: `https://user:pass@host`,
//! `?apikey=…`, or a path segment that is the key (`/v2/<token>` as Alchemy, Infura and QuickNode
//! hand them out). An error message is pasted into issues and CI logs, so neither the client
//! nor the CLI ever prints a URL as given. [`redact_url`] shows the scheme, host, port and the path's short segments, which is
//! what a reader needs to tell endpoints apart, and replaces the rest by `…`:
//!
//! - the userinfo (`user:pass@`) is dropped;
//! - every query value is replaced (`?apikey=…&network=…`), a query item without `=` as a whole;
//! - a path segment that looks like a token (at least [`TOKEN_MIN_LEN`] characters, all ASCII
//!   letters, digits, `-` or `_`) is replaced;
//! - a fragment is replaced.
//!
//! It reads any text, a malformed URL included (it is what the error about a malformed URL
//! shows), and never fails.

/// The shortest path segment read as a token: shorter than any key the hosted providers hand out
/// (Infura's 32 hex digits, Alchemy's 32 characters), longer than the path words endpoints use
/// (`v2`, `rpc`, `ethereum-sepolia`).
pub const TOKEN_MIN_LEN: usize = 20;

/// What a redacted part is replaced by.
const HIDDEN: &str = "…";

/// `url` with its userinfo dropped, its query values, token-like path segments and fragment
/// replaced by `…` (module docs).
pub fn redact_url(url: &str) -> String {
    let (rest, fragment) = match url.split_once('#') {
        Some((rest, fragment)) => (rest, Some(fragment)),
        None => (url, None),
    };
    let (rest, query) = match rest.split_once('?') {
        Some((rest, query)) => (rest, Some(query)),
        None => (rest, None),
    };
    let (scheme, rest) = match rest.split_once("://") {
        Some((scheme, rest)) => (Some(scheme), rest),
        None => (None, rest),
    };
    let (authority, path) = match rest.find('/') {
        Some(slash) => rest.split_at(slash),
        None => (rest, ""),
    };
    // The userinfo ends at the authority's last `@` (a password may hold an unescaped one).
    let host = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    let mut shown = String::with_capacity(url.len());
    if let Some(scheme) = scheme {
        shown.push_str(scheme);
        shown.push_str("://");
    }
    shown.push_str(host);
    shown.push_str(&redact_path(path));
    if let Some(query) = query {
        shown.push('?');
        shown.push_str(&redact_query(query));
    }
    if let Some(fragment) = fragment {
        shown.push('#');
        if !fragment.is_empty() {
            shown.push_str(HIDDEN);
        }
    }
    shown
}

/// Replaces every occurrence of each of `urls` in `text` by its redacted form: for messages
/// built by others (the client's errors) that quote a URL as it was given.
pub fn redact_in(text: &str, urls: &[&str]) -> String {
    let mut longest_first: Vec<&str> = urls.iter().copied().filter(|url| !url.is_empty()).collect();
    // A URL that is a prefix of another must not cut the longer one in two.
    longest_first.sort_by_key(|url| std::cmp::Reverse(url.len()));
    longest_first.dedup();
    longest_first.iter().fold(text.to_owned(), |text, url| text.replace(url, &redact_url(url)))
}

fn looks_like_token(segment: &str) -> bool {
    segment.len() >= TOKEN_MIN_LEN
        && segment.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn redact_path(path: &str) -> String {
    path.split('/')
        .map(|segment| if looks_like_token(segment) { HIDDEN } else { segment })
        .collect::<Vec<_>>()
        .join("/")
}

fn redact_query(query: &str) -> String {
    query
        .split('&')
        .map(|item| match item.split_once('=') {
            Some((key, "")) => format!("{key}="),
            Some((key, _)) => format!("{key}={HIDDEN}"),
            None if item.is_empty() => String::new(),
            None => HIDDEN.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

#[cfg(test)]
mod tests {
    use super::{TOKEN_MIN_LEN, redact_in, redact_url};

    /// Each URL and how it is shown.
    #[test]
    fn userinfo_is_dropped_and_query_values_replaced() {
        let cases = [
            // Nothing secret: shown as it is.
            ("http://localhost:8080", "http://localhost:8080"),
            ("http://127.0.0.1:8545/", "http://127.0.0.1:8545/"),
            ("https://rpc.testnet.aztec-labs.com/", "https://rpc.testnet.aztec-labs.com/"),
            ("https://ethereum-sepolia-rpc.publicnode.com", "https://ethereum-sepolia-rpc.publicnode.com"),
            ("https://[::1]:8545/rpc/v1", "https://[::1]:8545/rpc/v1"),
            // Userinfo is dropped.
            ("https://user:pass@host.example:8545/rpc", "https://host.example:8545/rpc"),
            ("http://key@localhost", "http://localhost"),
            // A password with an unescaped `@`: everything up to the last one goes.
            ("https://u:p@ss@host/", "https://host/"),
            // No scheme (the malformed URL an error names): still dropped.
            ("user:secret@localhost:8080", "localhost:8080"),
            // Query values (and fragments) are replaced.
            ("https://host/rpc?apikey=s3cr3t", "https://host/rpc?apikey=…"),
            ("https://host/?a=1&b=&token", "https://host/?a=…&b=&…"),
            ("https://host?x=1#frag", "https://host?x=…#…"),
            ("https://host/#", "https://host/#"),
            // Everything at once.
            (
                "https://me:pw@node.example:443/v2/0123456789abcdef0123/rpc?key=k&chain=1#x",
                "https://node.example:443/v2/…/rpc?key=…&chain=…#…",
            ),
        ];
        for (url, shown) in cases {
            assert_eq!(redact_url(url), shown, "{url}");
        }
    }

    #[test]
    fn token_like_path_segments_are_replaced() {
        let infura = "https://mainnet.infura.io/v3/0123456789abcdef0123456789abcdef";
        assert_eq!(redact_url(infura), "https://mainnet.infura.io/v3/…");
        let alchemy = "https://eth-mainnet.g.alchemy.com/v2/Ab-cd_EF0123456789xyzXYZ/";
        assert_eq!(redact_url(alchemy), "https://eth-mainnet.g.alchemy.com/v2/…/");
        // One character short of a token: a path word, shown.
        let short = "a".repeat(TOKEN_MIN_LEN - 1);
        assert_eq!(redact_url(&format!("https://host/{short}")), format!("https://host/{short}"));
        let token = "a".repeat(TOKEN_MIN_LEN);
        assert_eq!(redact_url(&format!("https://host/{token}")), "https://host/…");
        // Long, but with a character no provider's key has: a path word.
        let dotted = format!("https://host/{short}.json");
        assert_eq!(redact_url(&dotted), dotted);
    }

    #[test]
    fn urls_quoted_in_a_message_are_redacted_there() {
        let node = "https://u:p@node.example/?k=1";
        let l1 = "https://l1.example/v2/0123456789abcdef0123";
        let message = format!("node at {node}: refused; l1 at {l1}: timeout");
        assert_eq!(
            redact_in(&message, &[node, l1, ""]),
            "node at https://node.example/?k=…: refused; l1 at https://l1.example/v2/…: timeout"
        );
        // A URL that is a prefix of the other: the longer one is redacted whole.
        let base = "http://localhost";
        let long = "http://localhost/0123456789abcdef0123";
        assert_eq!(redact_in(&format!("{long} {base}"), &[base, long]), format!("http://localhost/… {base}"));
    }
}
