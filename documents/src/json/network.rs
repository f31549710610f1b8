//! A network's genesis values as JSON: what `txfx networks` prints (one object per network), and
//! what `txfx verify tx --network-file` and `verifyTxFromNode({network: {...}})` read for a
//! network txfx does not know by name.
//!
//! ```json
//! {"name":"devnet","protocol":"v6","genesisBlockHeaderHash":null,
//!  "genesisArchiveRoot":"0x1e8d…a110","source":"our devnet's genesis, 2026-11-30"}
//! ```
//!
//! - `name`: a string; `protocol`: `v6`, `azip-26` or `pre-azip-26`.
//! - `genesisArchiveRoot`, `genesisBlockHeaderHash`: `0x` + hex, or `null` where the network's
//!   sources give none (as for `mainnet`); the `genesisArchiveRoot` key is required, and a node
//!   walk refuses a network whose root is `null` rather than check nothing.
//! - `source`: where the values are written; optional in a file the caller gives.
//!
//! A network is what a verdict is checked against, so an unknown key is refused.

use txfx_membership::{Network, ProtocolVersion};
use txfx_poseidon::Fr;
use txfx_poseidon::field::fr_to_hex;

use super::error::JsonError;
use super::fields::hex_field;
use super::ordered::{Json, Object};
use super::wire::{JsonInput, Raw};

const NETWORK_KEYS: [&str; 5] =
    ["name", "protocol", "genesisBlockHeaderHash", "genesisArchiveRoot", "source"];

/// The network as JSON.
pub fn network_to_json(network: &Network) -> Json {
    let hex = |value: Option<Fr>| value.map(|v| fr_to_hex(&v));
    Json::from(
        Object::new()
            .with("name", network.name.as_str())
            .with("protocol", network.protocol.name())
            .with("genesisBlockHeaderHash", hex(network.genesis_block_header_hash))
            .with("genesisArchiveRoot", hex(network.genesis_archive_root))
            .with("source", network.source.as_str()),
    )
}

/// A hex field element, or `null` for a value the network's sources do not give.
fn hex_or_null(raw: Raw<'_>) -> Result<Option<Fr>, JsonError> {
    if raw.is_null() { Ok(None) } else { hex_field(raw).map(Some) }
}

/// Reads a network's JSON ([`network_to_json`]'s shape); `source` defaults to `given`.
///
/// # Errors
/// [`JsonError`] for a missing, unknown or malformed key, or an unknown protocol.
///
/// # Example
/// ```
/// use txfx_documents::json::{network_from_json, network_to_json};
/// let text = r#"{"name":"devnet","protocol":"v6","genesisArchiveRoot":"0x01"}"#;
/// let network = network_from_json(text, "devnet.json")?;
/// assert_eq!(network.source, "devnet.json");
/// assert_eq!(network_from_json(&network_to_json(&network), "")?, network);
/// # Ok::<(), txfx_documents::json::JsonError>(())
/// ```
pub fn network_from_json<'a>(input: impl Into<JsonInput<'a>>, given: &str) -> Result<Network, JsonError> {
    input.into().read(|raw| read_network(raw, given)).map_err(|error| error.expecting("a network"))
}

pub(crate) fn read_network(raw: Raw<'_>, given: &str) -> Result<Network, JsonError> {
    let object = raw.object("a network", &NETWORK_KEYS)?;
    object.strict()?;
    let string = |raw: Raw<'_>| raw.string().map(|s| s.into_owned()).map_err(JsonError::from);
    let protocol = object.read("protocol", |raw| {
        Ok::<_, JsonError>(
            raw.named("v6, azip-26 or pre-azip-26", |name| name.parse::<ProtocolVersion>().ok())?,
        )
    })?;
    Ok(Network {
        name: object.read("name", string)?,
        protocol,
        genesis_block_header_hash: object.read_optional("genesisBlockHeaderHash", hex_or_null)?.flatten(),
        genesis_archive_root: object.read("genesisArchiveRoot", hex_or_null)?,
        source: object.read_optional("source", string)?.unwrap_or_else(|| given.to_owned()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_network_reads_back_as_itself() {
        for network in Network::all() {
            assert_eq!(network_from_json(&network_to_json(&network), "").as_ref(), Ok(&network));
        }
    }

    #[test]
    fn a_network_document_is_read_one_way() {
        let refused = |text: &str| network_from_json(text, "f").expect_err(text).to_string();
        let base = r#""name":"n","protocol":"v6","genesisArchiveRoot":"0x01""#;
        assert!(
            refused(&format!("{{{base},\"genesisArchiveRoots\":\"0x02\"}}")).contains("genesisArchiveRoots")
        );
        assert!(refused(&format!("{{{base},\"name\":\"m\"}}")).contains("name"));
        assert!(refused(r#"{"name":"n","protocol":"v7","genesisArchiveRoot":"0x01"}"#).contains("v7"));
        assert!(refused(r#"{"name":"n","protocol":"v6"}"#).contains("genesisArchiveRoot"));
        assert!(
            refused(r#"{"name":"n","protocol":"v6","genesisArchiveRoot":"1"}"#)
                .contains("genesisArchiveRoot")
        );
        let network = network_from_json(format!("{{{base}}}").as_str(), "f").expect("reads");
        assert_eq!(network.genesis_archive_root, Some(Fr::from(1u64)));
        assert_eq!((network.genesis_block_header_hash, network.source.as_str()), (None, "f"));
    }
}
