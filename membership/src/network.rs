//! Networks: the genesis values a chain starts from, per network, each with where it is written.
//!
//! Genesis is per network, not one constant: Aztec's `constants.nr` pins the *canonical* genesis
//! (protocol contracts only, nothing prefunded), and a network that prefunds accounts at genesis
//! (testnet) starts from another archive root. A verifier that knows which network it talks to
//! compares the rollup's first archive (`archiveAt(0)` on L1) with the network's, and so finds a
//! wrong rollup address before it trusts anything it reads there. Values a network's sources do
//! not give are `None`, never guessed.

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
}

/// A built-in network: its name, protocol, genesis hex values and source.
struct Pin {
    name: &'static str,
    protocol: ProtocolVersion,
    genesis_block_header_hash: Option<&'static str>,
    genesis_archive_root: Option<&'static str>,
    source: &'static str,
}

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
    },
    Pin {
        name: "testnet",
        protocol: ProtocolVersion::V6,
        genesis_block_header_hash: None,
        genesis_archive_root: Some("0x29eb2c527f8d45276430363214e6c8d709ef3f657a3670ebac3179373d41e5c4"),
        source: "aztec-labs-eng/aztec-node yarn-project/aztec/src/testnet_compatibility.test.ts \
                 @ 050fd29bd18962946867c01bc4540001796cd68f (genesisArchiveRoot; testnet prefunds its test accounts and sponsored FPC, so its \
                 root is not the canonical one; no source pins its genesis header hash)",
    },
    Pin {
        name: "mainnet",
        protocol: ProtocolVersion::V6,
        genesis_block_header_hash: None,
        genesis_archive_root: None,
        source: "no v6 source pins mainnet's genesis: the one stored pin (aztec-labs-eng/aztec-node \
                 yarn-project/aztec/src/mainnet_compatibility.test.ts @ 48c0af4ed99fd8d5965faf4ee3e60c7b0752a5fd, 0x0a0877e7…9305) carries \
                 testnet's pre-v6 verification keys, so it is not taken; give --genesis-archive-root to check it",
    },
    Pin {
        name: "canonical-4.1.2",
        protocol: ProtocolVersion::PreAzip26,
        genesis_block_header_hash: Some("0x2ff681dd7730c7b9e5650c70afa57ee81377792dfc95d98c11817b8c761ff965"),
        genesis_archive_root: Some("0x15684c8c3d2106918d3860f777e50555b7166adff47df13cc652e2e5a50bf5c7"),
        source: "@aztec/constants 4.1.2 (GENESIS_BLOCK_HEADER_HASH, GENESIS_ARCHIVE_ROOT, given there in decimal)",
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
        }
    }
}
