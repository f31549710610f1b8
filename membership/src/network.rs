//! Networks: the genesis values a chain starts from, per network, each with where it is written.
//!
//! Genesis is per network, not one constant: Aztec's `constants.nr` pins the *canonical* genesis
//! (protocol contracts only, nothing prefunded), and a network that prefunds accounts at genesis
//! (testnet) starts from another archive root. A verifier that knows which network it talks to
//! compares the rollup's first archive (`archiveAt(0)` on L1) with the network's, and so finds a
//! wrong rollup address before it trusts anything it reads there. A network deployed on L1 also
//! names its L1 chain and its Aztec Registry ([`L1Deployment`]), whose canonical rollup is the
//! network's rollup (the rollup's address changes at every upgrade; the Registry's does not).
//! Values a network's sources do not give are `None`, never guessed.

use txfx_poseidon::Fr;
use txfx_poseidon::field::parse_fr_hex;
use txfx_tx_effects::ProtocolVersion;

/// A network's genesis values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Network {
    /// The name a user gives (`testnet`), or `custom`.
    pub name: String,
    /// The protocol its blocks follow.
    pub protocol: ProtocolVersion,
    /// The genesis block's header hash (the archive's leaf 0), if known.
    pub genesis_block_header_hash: Option<Fr>,
    /// The archive root after the genesis block (L1's `archiveAt(0)`), if known.
    pub genesis_archive_root: Option<Fr>,
    /// Where the values are written (repository, path, commit), or who gave them.
    pub source: String,
    /// Where the network lives on L1, if known.
    pub l1: Option<L1Deployment>,
}

/// Where a network lives on L1: its chain and its Aztec Registry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct L1Deployment {
    /// The L1 chain's id (`eth_chainId`).
    pub chain_id: u64,
    /// The Registry's address, whose `getCanonicalRollup()` is the network's rollup.
    pub registry: [u8; 20],
    /// Where the values are written (repository, path, commit), or who gave them.
    pub source: String,
}

/// A built-in network: its name, protocol, genesis hex values and source.
struct Pin {
    name: &'static str,
    protocol: ProtocolVersion,
    genesis_block_header_hash: Option<&'static str>,
    genesis_archive_root: Option<&'static str>,
    source: &'static str,
    /// The L1 chain id and the Registry, from [`NETWORKS_FILE`].
    l1: Option<(u64, [u8; 20])>,
}

/// The networks' file, which Aztec's node reads too (`DEFAULT_CONFIG_URL` in aztec-labs-eng/aztec-node
/// `yarn-project/cli/src/config/network_config.ts` @ 1a26db3e9d5fd41f83616703635c498a68509fbd) for
/// `REGISTRY_CONTRACT_ADDRESS` and `L1_CHAIN_ID`.
const NETWORKS_FILE: &str = "AztecProtocol/networks network_config.json @ 1c5a9f925182f99a515d6c88bea0855b4a36b210 \
                             (registryAddress, l1ChainId)";

/// Mainnet's Registry, `0x35b22e09Ee0390539439E24f06Da43D83f90e298` in [`NETWORKS_FILE`].
const MAINNET_REGISTRY: [u8; 20] = [
    0x35, 0xb2, 0x2e, 0x09, 0xee, 0x03, 0x90, 0x53, 0x94, 0x39, 0xe2, 0x4f, 0x06, 0xda, 0x43, 0xd8, 0x3f,
    0x90, 0xe2, 0x98,
];

/// Testnet's Registry, `0xa0bfb1b494fb49041e5c6e8c2c1be09cd171c6ba` in [`NETWORKS_FILE`] (on Sepolia).
const TESTNET_REGISTRY: [u8; 20] = [
    0xa0, 0xbf, 0xb1, 0xb4, 0x94, 0xfb, 0x49, 0x04, 0x1e, 0x5c, 0x6e, 0x8c, 0x2c, 0x1b, 0xe0, 0x9c, 0xd1,
    0x71, 0xc6, 0xba,
];

/// The networks txfx knows by name. Each value is copied from the file named, at the commit
/// named (`testdata/v6/upstream.json` holds the excerpts).
const PINS: [Pin; 4] = [
    Pin {
        name: "canonical",
        protocol: ProtocolVersion::V6,
        genesis_block_header_hash: Some("0x075fee3188fcffcdcdfaf61295ed5ff6e12f4a2316274c1fca25481e09709ac7"),
        genesis_archive_root: Some("0x1e8df7d033f879c44fbdddbacf525017e2f35a5ea1f3c33d4d1f531735b9a110"),
        source: "AztecProtocol/aztec-packages noir-projects/fnd/noir-protocol-circuits/crates/types/src/constants.nr \
                 @ 064e570d673d4407ff27e1a90edb57a87a69a5ac (GENESIS_BLOCK_HEADER_HASH, GENESIS_ARCHIVE_ROOT: \
                 protocol contracts only, no prefunded public data, timestamp 0)",
        l1: None,
    },
    Pin {
        name: "testnet",
        protocol: ProtocolVersion::V6,
        genesis_block_header_hash: None,
        genesis_archive_root: Some("0x29eb2c527f8d45276430363214e6c8d709ef3f657a3670ebac3179373d41e5c4"),
        source: "aztec-labs-eng/aztec-node yarn-project/aztec/src/testnet_compatibility.test.ts \
                 @ 050fd29bd18962946867c01bc4540001796cd68f (genesisArchiveRoot; testnet prefunds its test accounts and sponsored FPC, so its \
                 root is not the canonical one; no source pins its genesis header hash)",
        l1: Some((11_155_111, TESTNET_REGISTRY)),
    },
    Pin {
        name: "mainnet",
        protocol: ProtocolVersion::V6,
        genesis_block_header_hash: None,
        genesis_archive_root: None,
        source: "no v6 source pins mainnet's genesis: the one stored pin (aztec-labs-eng/aztec-node \
                 yarn-project/aztec/src/mainnet_compatibility.test.ts @ 48c0af4ed99fd8d5965faf4ee3e60c7b0752a5fd, 0x0a0877e7…9305) carries \
                 testnet's pre-v6 verification keys, so it is not taken; give --genesis-archive-root to check it",
        l1: Some((1, MAINNET_REGISTRY)),
    },
    Pin {
        name: "canonical-4.1.2",
        protocol: ProtocolVersion::PreAzip26,
        genesis_block_header_hash: Some("0x2ff681dd7730c7b9e5650c70afa57ee81377792dfc95d98c11817b8c761ff965"),
        genesis_archive_root: Some("0x15684c8c3d2106918d3860f777e50555b7166adff47df13cc652e2e5a50bf5c7"),
        source: "@aztec/constants 4.1.2 (GENESIS_BLOCK_HEADER_HASH, GENESIS_ARCHIVE_ROOT, given there in decimal)",
        l1: None,
    },
];

/// A name that is no built-in network's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown network {name:?}: expected one of {}", Network::NAMES.join(", "))]
pub struct UnknownNetwork {
    /// The name given.
    pub name: String,
}

impl Network {
    /// The built-in networks' names.
    pub const NAMES: [&'static str; 4] = [PINS[0].name, PINS[1].name, PINS[2].name, PINS[3].name];

    /// Every built-in network.
    pub fn all() -> Vec<Self> {
        PINS.iter().map(Self::from_pin).collect()
    }

    /// The built-in network `name`.
    ///
    /// # Errors
    /// [`UnknownNetwork`] for a name none has.
    pub fn named(name: &str) -> Result<Self, UnknownNetwork> {
        PINS.iter()
            .find(|pin| pin.name == name)
            .map(Self::from_pin)
            .ok_or_else(|| UnknownNetwork { name: name.to_owned() })
    }

    /// A v6 network txfx does not know by name, known by its genesis archive root alone
    /// (`source` says who gave it).
    pub fn custom(genesis_archive_root: Fr, source: impl Into<String>) -> Self {
        Self {
            name: "custom".to_owned(),
            protocol: ProtocolVersion::V6,
            genesis_block_header_hash: None,
            genesis_archive_root: Some(genesis_archive_root),
            source: source.into(),
            l1: None,
        }
    }

    #[allow(clippy::expect_used, reason = "an internal invariant: the built-in pins are canonical hex")]
    fn from_pin(pin: &Pin) -> Self {
        let parse =
            |hex: &str| parse_fr_hex(hex).expect("invariant: a built-in pin is a canonical field element");
        Self {
            name: pin.name.to_owned(),
            protocol: pin.protocol,
            genesis_block_header_hash: pin.genesis_block_header_hash.map(parse),
            genesis_archive_root: pin.genesis_archive_root.map(parse),
            source: pin.source.to_owned(),
            l1: pin.l1.map(|(chain_id, registry)| L1Deployment {
                chain_id,
                registry,
                source: NETWORKS_FILE.to_owned(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 40 hex digits as 20 bytes.
    fn bytes(hex: &str) -> [u8; 20] {
        let mut out = [0u8; 20];
        for (byte, pair) in out.iter_mut().zip(hex.as_bytes().chunks_exact(2)) {
            *byte = u8::from_str_radix(std::str::from_utf8(pair).expect("ascii"), 16).expect("hex");
        }
        out
    }

    #[test]
    fn the_registries_are_the_networks_files() {
        // As written in AztecProtocol/networks' network_config.json at the commit NETWORKS_FILE
        // names (mainnet's in EIP-55's mixed case, testnet's in lower case).
        let written = [
            ("mainnet", 1, "35b22e09Ee0390539439E24f06Da43D83f90e298"),
            ("testnet", 11_155_111, "a0bfb1b494fb49041e5c6e8c2c1be09cd171c6ba"),
        ];
        for (name, chain_id, registry) in written {
            let l1 = Network::named(name).expect("a network").l1.expect("deployed");
            assert_eq!((l1.chain_id, l1.registry), (chain_id, bytes(registry)), "{name}");
            assert_eq!(l1.source, NETWORKS_FILE);
        }
        let deployed = Network::all().iter().filter(|network| network.l1.is_some()).count();
        assert_eq!(deployed, written.len(), "a deployment no test compares with its file");
    }
}
