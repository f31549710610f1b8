//! The settings file: per-network defaults for `txfx verify tx --node`, so that a user who always
//! asks the same node and L1 endpoint of one network types `txfx verify tx --tx-hash H`.
//!
//! ```toml
//! # The network a run uses when its command line names no network and no anchor.
//! default-network = "testnet"
//!
//! [networks.testnet]
//! node = "https://aztec-testnet.example/rpc"
//! l1-rpc = "https://sepolia.example/v2/KEY"
//! # rollup = "0x…"       # else the network's Registry names it
//! # registry = "0x…"
//! # l1-block = "finalized"
//! # timeout = "90s"
//! ```
//!
//! Where it is read from: `--config FILE`, else `$TXFX_CONFIG` (empty: no file), else
//! `$XDG_CONFIG_HOME/txfx/config.toml` or `~/.config/txfx/config.toml` if it exists. What a run
//! uses, first found first: the command line, the environment (`$AZTEC_NODE_URL`,
//! `$ETH_RPC_URL`), the file's section for the run's network, the built-in defaults. A file is
//! read strictly (an unknown key, a section for a network txfx does not know, a URL, address,
//! block or duration that the option would refuse: exit 2 naming the file and the key), because
//! a typo in a settings file would otherwise silently verify against something else.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use txfx_membership::Network;
use txfx_walk::l1::{Address, BlockTag, parse_address};

use crate::duration::Timeout;
use crate::endpoint::{Endpoint, check};
use crate::io::Failure;

/// The file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct FileText {
    default_network: Option<String>,
    #[serde(default)]
    networks: BTreeMap<String, SectionText>,
}

/// One `[networks.NAME]` section as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct SectionText {
    node: Option<String>,
    l1_rpc: Option<String>,
    rollup: Option<String>,
    registry: Option<String>,
    l1_block: Option<String>,
    timeout: Option<String>,
}

/// A network's defaults, each checked as its option would be.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Section {
    /// `node`: as `--node`.
    pub node: Option<Endpoint>,
    /// `l1-rpc`: as `--l1-rpc`.
    pub l1_rpc: Option<Endpoint>,
    /// `rollup`: as `--rollup`.
    pub rollup: Option<Address>,
    /// `registry`: as `--registry`.
    pub registry: Option<Address>,
    /// `l1-block`: as `--l1-block`.
    pub l1_block: Option<BlockTag>,
    /// `timeout`: as `--timeout`.
    pub timeout: Option<Timeout>,
}

/// The settings file, read and checked.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Where it was read from.
    pub path: PathBuf,
    /// `default-network`.
    pub default_network: Option<String>,
    /// The sections, by network name.
    pub networks: BTreeMap<String, Section>,
}

impl Settings {
    /// The section of `network`, if the file has one.
    pub fn section(&self, network: &str) -> Option<&Section> {
        self.networks.get(network)
    }
}

/// Where the settings file is: `given` (`--config`), else `$TXFX_CONFIG`, else the user's
/// configuration directory's `txfx/config.toml` if it exists; `None` for no file.
fn location(given: Option<&Path>) -> Option<(PathBuf, bool)> {
    if let Some(path) = given {
        return Some((path.to_owned(), true));
    }
    if let Some(path) = std::env::var_os("TXFX_CONFIG") {
        return (!path.is_empty()).then(|| (PathBuf::from(path), true));
    }
    let base = match std::env::var_os("XDG_CONFIG_HOME").filter(|dir| !dir.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(std::env::var_os("HOME").filter(|home| !home.is_empty())?).join(".config"),
    };
    let path = base.join("txfx").join("config.toml");
    path.is_file().then_some((path, false))
}

/// The longest settings file read: a few sections of URLs need a few KiB.
const MAX_FILE_BYTES: u64 = 64 * 1024;

/// Reads the settings file (module docs), if there is one.
///
/// # Errors
/// [`Failure::Input`] naming the file: one named (by `--config` or `$TXFX_CONFIG`) that cannot
/// be read, or any file that is not valid settings.
pub fn load(given: Option<&Path>) -> Result<Option<Settings>, Failure> {
    let Some((path, named)) = location(given) else { return Ok(None) };
    let shown = path.display().to_string();
    let fail = |reason: String| Failure::Input(format!("{shown}: {reason}"));
    let size = match std::fs::metadata(&path) {
        Ok(metadata) => metadata.len(),
        Err(_) if !named => return Ok(None),
        Err(e) => return Err(fail(format!("cannot read the settings file: {e}"))),
    };
    if size > MAX_FILE_BYTES {
        return Err(fail(format!("{size} bytes, more than a settings file's {MAX_FILE_BYTES}")));
    }
    let text =
        std::fs::read_to_string(&path).map_err(|e| fail(format!("cannot read the settings file: {e}")))?;
    parse(&text, path).map(Some)
}

/// Parses settings `text` read from `path`.
///
/// # Errors
/// [`Failure::Input`] naming the file and the key.
pub fn parse(text: &str, path: PathBuf) -> Result<Settings, Failure> {
    let shown = path.display().to_string();
    let fail = |reason: String| Failure::Input(format!("{shown}: {reason}"));
    let file: FileText = toml::from_str(text).map_err(|e| fail(toml_problem(text, &e)))?;
    let known =
        |name: &str, key: &str| Network::named(name).map(|_| ()).map_err(|e| fail(format!("{key}: {e}")));
    if let Some(name) = &file.default_network {
        known(name, "default-network")?;
    }
    let mut networks = BTreeMap::new();
    for (name, section) in file.networks {
        known(&name, &format!("[networks.{name}]"))?;
        let key = |field: &str| format!("networks.{name}.{field}");
        let url = |value: Option<String>, field: &str| {
            value.map(|v| check(&v).map_err(|e| fail(format!("{}: {e}", key(field))))).transpose()
        };
        let address = |value: Option<String>, field: &str| {
            value.map(|v| parse_address(&v).map_err(|e| fail(format!("{}: {e}", key(field))))).transpose()
        };
        let section = Section {
            node: url(section.node, "node")?,
            l1_rpc: url(section.l1_rpc, "l1-rpc")?,
            rollup: address(section.rollup, "rollup")?,
            registry: address(section.registry, "registry")?,
            l1_block: section
                .l1_block
                .map(|v| v.parse::<BlockTag>().map_err(|e| fail(format!("{}: {e}", key("l1-block")))))
                .transpose()?,
            timeout: section
                .timeout
                .map(|v| v.parse::<Timeout>().map_err(|e| fail(format!("{}: {e}", key("timeout")))))
                .transpose()?,
        };
        if section.rollup.is_some() && section.registry.is_some() {
            return Err(fail(format!("{}: give rollup or registry, not both", key("rollup"))));
        }
        networks.insert(name, section);
    }
    Ok(Settings { path, default_network: file.default_network, networks })
}

/// A TOML error on one line: its line number, the key written there (never the value, which may
/// be a URL with a key in it), and what is wrong.
fn toml_problem(text: &str, error: &toml::de::Error) -> String {
    let Some(span) = error.span() else { return error.message().to_owned() };
    let before = text.get(..span.start).unwrap_or_default();
    let number = before.matches('\n').count() + 1;
    let line = text.lines().nth(number - 1).unwrap_or_default();
    match line.split_once('=') {
        Some((key, _)) if !key.trim().is_empty() => {
            format!("line {number}, {}: {}", key.trim(), error.message())
        }
        _ => format!("line {number}: {}", error.message()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Result<Settings, String> {
        parse(text, PathBuf::from("t.toml")).map_err(|e| match e {
            Failure::Input(reason) => reason,
            other => panic!("not a usage error: {other:?}"),
        })
    }

    #[test]
    fn a_file_is_read_into_checked_sections() {
        let settings = parsed(
            "default-network = \"testnet\"\n[networks.testnet]\nnode = \"http://127.0.0.1:8080\"\n\
             l1-rpc = \"https://rpc.example/v2/abc\"\nl1-block = \"safe\"\ntimeout = \"1500ms\"\n",
        )
        .expect("valid");
        assert_eq!(settings.default_network.as_deref(), Some("testnet"));
        let section = settings.section("testnet").expect("a section");
        assert_eq!(section.node.as_ref().map(Endpoint::as_str), Some("http://127.0.0.1:8080"));
        assert_eq!(section.l1_block, Some(BlockTag::Safe));
        assert_eq!(section.timeout.map(Timeout::get), Some(std::time::Duration::from_millis(1500)));
        assert_eq!((section.rollup, section.registry), (None, None));
        assert!(settings.section("mainnet").is_none());
        assert_eq!(parsed("").map(|s| s.networks.len()), Ok(0));
    }

    #[test]
    fn a_file_with_a_typo_is_refused_naming_the_key() {
        let cases = [
            ("defualt-network = \"testnet\"", "defualt-network"),
            ("default-network = \"testnte\"", "testnte"),
            ("[networks.devnet]", "devnet"),
            ("[networks.testnet]\nnodes = \"http://x\"", "nodes"),
            ("[networks.testnet]\nnode = \"localhost:8080\"", "networks.testnet.node"),
            ("[networks.testnet]\nrollup = \"0x12\"", "networks.testnet.rollup"),
            ("[networks.testnet]\nl1-block = \"pending\"", "networks.testnet.l1-block"),
            ("[networks.testnet]\ntimeout = \"0s\"", "networks.testnet.timeout"),
            ("[networks.testnet]\ntimeout = 90", "timeout"),
            ("default-network = ", "line 1"),
        ];
        for (text, named) in cases {
            let error = parsed(text).expect_err(text);
            assert!(error.contains(named) && error.starts_with("t.toml: "), "{text}: {error}");
        }
        let both = "[networks.mainnet]\nrollup = \"0x5fbdb2315678afecb367f032d93f642f64180aa3\"\n\
                    registry = \"0x5fbdb2315678afecb367f032d93f642f64180aa3\"";
        assert!(parsed(both).expect_err("both").contains("not both"));
        // A value is never shown: it may be a URL with a key in it.
        let secret =
            parsed("[networks.testnet]\nnode = 7 # https://x/v2/SECRETKEY\nl1_rpc = \"https://x/SECRET\"");
        assert!(!secret.as_ref().expect_err("refused").contains("SECRET"), "{secret:?}");
    }
}
