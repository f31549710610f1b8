//! Endpoint URLs as they may be shown: hosted providers hand out keys inside the URL
//! (`https://user:secret@host`, `?apikey=…`, `/v2/<token>`), and an error message, a log line or
//! a stack trace must not carry them on.
//!
//! [`redact_url`] keeps the scheme, host, port and every path segment that does not look like a
//! key; it drops the userinfo, replaces each query value and each key-like path segment (20 or
//! more characters of letters, digits, `-` and `_`, or any segment of 32 or more characters)
//! with `…`, and drops the fragment.

/// The shortest run of letters, digits, `-` and `_` read as a key.
const KEY_LIKE: usize = 20;

/// The shortest path segment read as a key whatever its characters.
const LONG_SEGMENT: usize = 32;

/// `url` with its secrets hidden (module docs). Text that is no URL keeps only what precedes any
/// `@`, `?` or `#`-free host part it can find; anything it cannot read is shown as `…`.
pub fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return if url.len() <= 64 && !url.contains(['@', '?', '#']) && !has_key_like_run(url) {
            url.to_owned()
        } else {
            "…".to_owned()
        };
    };
    let rest = rest.split('#').next().unwrap_or_default();
    let (before_query, query) = match rest.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (rest, None),
    };
    let (authority, path) = match before_query.find('/') {
        Some(at) => before_query.split_at(at),
        None => (before_query, ""),
    };
    let host = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    let mut out = format!("{scheme}://{host}");
    for segment in path.split('/').skip(1) {
        out.push('/');
        out.push_str(if is_key_like(segment) { "…" } else { segment });
    }
    if let Some(query) = query {
        out.push('?');
        let pairs: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((key, _)) => format!("{key}=…"),
                None if pair.is_empty() => String::new(),
                None => "…".to_owned(),
            })
            .collect();
        out.push_str(&pairs.join("&"));
    }
    out
}

fn is_key_like(segment: &str) -> bool {
    segment.len() >= LONG_SEGMENT || has_key_like_run(segment)
}

fn has_key_like_run(text: &str) -> bool {
    let mut run = 0;
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_' {
            run += 1;
            if run >= KEY_LIKE {
                return true;
            }
        } else {
            run = 0;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::redact_url;

    #[test]
    fn secrets_are_hidden_and_the_rest_kept() {
        let cases = [
            ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
            ("https://node.example/rpc", "https://node.example/rpc"),
            ("https://user:hunter2@eth.example:8545/", "https://eth.example:8545/"),
            ("https://eth.example/?apikey=abc123&chain=1", "https://eth.example/?apikey=…&chain=…"),
            (
                "https://eth-mainnet.example/v2/Lc7oIGYeL_QvInzI0Wiu_pOZZDEKBrdf",
                "https://eth-mainnet.example/v2/…",
            ),
            ("https://rpc.example/key/0123456789abcdef0123456789abcdef/x", "https://rpc.example/key/…/x"),
            ("https://rpc.example/path#token=abc", "https://rpc.example/path"),
            ("localhost:8080", "localhost:8080"),
            ("user:secret@localhost", "…"),
        ];
        for (url, shown) in cases {
            assert_eq!(redact_url(url), shown, "{url}");
        }
    }
}
