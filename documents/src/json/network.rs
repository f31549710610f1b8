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
//! - `l1`: where the network lives on L1, or `null` (or absent) where txfx knows no deployment:
//!   `{"chainId": 1, "registry": "0x35b2…e298", "source": "…"}`, the L1 chain id as a JSON
//!   number, the Registry's address in one case or in EIP-55's mixed case, and `source` optional.
//!
//! A network is what a verdict is checked against, so an unknown key is refused.

use txfx_membership::{L1Deployment, Network, ProtocolVersion};
use txfx_poseidon::Fr;
use txfx_poseidon::field::fr_to_hex;

use super::error::JsonError;
use super::fields::hex_field;
use super::header::{eth_address_hex, read_eth_address};
use super::ordered::{Json, Object};
use super::wire::{Integer, JsonInput, MAX_SAFE_INTEGER, Raw, safe_number};

/// An L1 chain id: a JSON number (as Aztec's network file writes `l1ChainId`), at most 2^53 − 1.
const CHAIN_ID: Integer = Integer::number(MAX_SAFE_INTEGER as u128);

const NETWORK_KEYS: [&str; 6] =
    ["name", "protocol", "genesisBlockHeaderHash", "genesisArchiveRoot", "source", "l1"];

const L1_KEYS: [&str; 3] = ["chainId", "registry", "source"];

/// The network as JSON.
pub fn network_to_json(network: &Network) -> Json {
    let hex = |value: Option<Fr>| value.map(|v| fr_to_hex(&v));
    Json::from(
        Object::new()
            .with("name", network.name.as_str())
            .with("protocol", network.protocol.name())
            .with("genesisBlockHeaderHash", hex(network.genesis_block_header_hash))
            .with("genesisArchiveRoot", hex(network.genesis_archive_root))
            .with("source", network.source.as_str())
            .with(
                "l1",
                network.l1.as_ref().map(|l1| {
                    Json::from(
                        Object::new()
                            .with("chainId", safe_number(l1.chain_id))
                            .with("registry", eth_address_hex(&l1.registry))
                            .with("source", l1.source.as_str()),
                    )
                }),
            ),
    )
}

/// A network's `l1` member: `null`, or its chain and Registry.
fn read_l1(raw: Raw<'_>, given: &str) -> Result<Option<L1Deployment>, JsonError> {
    if raw.is_null() {
        return Ok(None);
    }
    let object = raw.object("a network's L1 deployment", &L1_KEYS)?;
    object.strict()?;
    Ok(Some(L1Deployment {
        chain_id: object.read("chainId", |raw| raw.u64(CHAIN_ID).map_err(JsonError::from))?,
        registry: object.read("registry", read_eth_address)?,
        source: object
            .read_optional("source", |raw| raw.string().map(|s| s.into_owned()).map_err(JsonError::from))?
            .unwrap_or_else(|| given.to_owned()),
    }))
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
        l1: object.read_optional("l1", |raw| read_l1(raw, given))?.flatten(),
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
        assert_eq!(network.l1, None);
        // An L1 deployment: a number for the chain, an address for the registry, nothing else.
        let registry = "0x35b22e09Ee0390539439E24f06Da43D83f90e298";
        let with_l1 = format!("{{{base},\"l1\":{{\"chainId\":1,\"registry\":\"{registry}\"}}}}");
        let l1 = network_from_json(with_l1.as_str(), "f").expect("reads").l1.expect("an l1");
        assert_eq!((l1.chain_id, l1.registry[0], l1.source.as_str()), (1, 0x35, "f"));
        for bad in [
            format!("{{\"chainId\":\"1\",\"registry\":\"{registry}\"}}"),
            format!(
                "{{\"chainId\":1,\"registry\":\"{}\"}}",
                registry.replace('E', "e").replacen('e', "E", 1)
            ),
            r#"{"chainId":1}"#.to_owned(),
            format!("{{\"chainId\":1,\"registry\":\"{registry}\",\"rollup\":\"{registry}\"}}"),
        ] {
            assert!(refused(&format!("{{{base},\"l1\":{bad}}}")).contains("l1"), "{bad}");
        }
    }
}
