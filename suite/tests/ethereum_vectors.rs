//! txfx-ethereum against real JSON-RPC answers: execution-apis' request/response pairs from
//! hive's test chain (a real geth, every fork from Frontier to Osaka; see
//! testdata/ethereum/README.md for the source and commit), and refusals made by changing one
//! thing in them. No expected value here is computed by txfx: hashes and roots are the files'.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use std::path::PathBuf;

use serde_json::Value;
use txfx_ethereum::{
    Address, B256, EthereumError, Fork, MAX_NODE_BYTES, MAX_PROOF_NODES, ProofRequest, U256, VerifiedHeader,
    verify_proof,
};

/// One `.io` file: its request and its response, as JSON.
fn exchange(name: &str) -> (Value, Value) {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/ethereum/execution-apis").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    let line = |prefix: &str| -> Value {
        let line = text.lines().find_map(|line| line.strip_prefix(prefix)).expect("a request and a response");
        serde_json::from_str(line).expect("JSON")
    };
    (line(">> "), line("<< "))
}

/// The `result` of `name`'s response, and the block hash it prints.
fn block(name: &str) -> (B256, Value) {
    let (_, response) = exchange(name);
    let result = response["result"].clone();
    let hash = result["hash"].as_str().expect("a hash").parse().expect("32 bytes");
    (hash, result)
}

fn header(name: &str) -> VerifiedHeader {
    let (hash, result) = block(name);
    VerifiedHeader::from_json(hash, &result.to_string()).unwrap_or_else(|error| panic!("{name}: {error}"))
}

/// The latest block of the chain (54), whose state the proofs are of.
fn latest() -> VerifiedHeader {
    header("eth_getBlockByNumber/get-latest.io")
}

fn b256(text: &str) -> B256 {
    text.parse().expect("32 bytes")
}

#[test]
fn headers_of_every_fork_since_london_hash_to_their_block() {
    let cases = [
        ("eth_getBlockByNumber/get-block-london-fork.io", 27, Fork::London),
        ("eth_getBlockByNumber/get-block-merge-fork.io", 36, Fork::London),
        ("eth_getBlockByNumber/get-block-shanghai-fork.io", 39, Fork::Shanghai),
        ("eth_getBlockByNumber/get-block-cancun-fork.io", 42, Fork::Cancun),
        ("eth_getBlockByNumber/get-block-prague-fork.io", 45, Fork::Prague),
        // Osaka (timestamp 480) and two BPO forks added no header field.
        ("eth_getBlockByNumber/get-latest.io", 54, Fork::Prague),
    ];
    for (name, number, fork) in cases {
        let (hash, result) = block(name);
        let header = header(name);
        assert_eq!((header.hash(), header.number(), header.fork()), (hash, number, fork), "{name}");
        assert_eq!(header.state_root(), b256(result["stateRoot"].as_str().expect("stateRoot")), "{name}");
        let timestamp =
            u64::from_str_radix(result["timestamp"].as_str().expect("ts").trim_start_matches("0x"), 16);
        assert_eq!(Ok(header.timestamp()), timestamp, "{name}");
        let beacon = result.get("parentBeaconBlockRoot").and_then(Value::as_str).map(b256);
        assert_eq!(header.parent_beacon_block_root(), beacon, "{name}");
    }
}

#[test]
fn the_block_by_hash_answer_is_read_at_the_hash_asked_for() {
    // Block 1 of the chain is pre-London (no baseFeePerGas): refused as such.
    let (request, response) = exchange("eth_getBlockByHash/get-block-by-hash.io");
    let hash = b256(request["params"][0].as_str().expect("a hash"));
    let result = response["result"].to_string();
    assert_eq!(VerifiedHeader::from_json(hash, &result), Err(EthereumError::PreLondon));
}

/// `name`'s block with `edit` applied to its result.
fn edited(
    name: &str,
    edit: impl FnOnce(&mut serde_json::Map<String, Value>),
) -> Result<VerifiedHeader, EthereumError> {
    let (hash, mut result) = block(name);
    edit(result.as_object_mut().expect("an object"));
    VerifiedHeader::from_json(hash, &result.to_string())
}

#[test]
fn a_changed_header_is_refused() {
    let cancun = "eth_getBlockByNumber/get-block-cancun-fork.io";
    let flip = |field: &'static str| {
        move |object: &mut serde_json::Map<String, Value>| {
            let text = object[field].as_str().expect("a string").to_owned();
            let last = if text.ends_with('0') { '1' } else { '0' };
            object.insert(field.to_owned(), Value::String(format!("{}{last}", &text[..text.len() - 1])));
        }
    };
    for field in ["stateRoot", "parentHash", "receiptsRoot", "gasUsed", "timestamp", "parentBeaconBlockRoot"]
    {
        assert!(matches!(edited(cancun, flip(field)), Err(EthereumError::HashMismatch { .. })), "{field}");
    }
    let missing = edited(cancun, |object| {
        object.remove("gasUsed");
    });
    assert_eq!(missing, Err(EthereumError::MissingField { field: "gasUsed".to_owned() }));
    let out_of_order = edited(cancun, |object| {
        object.remove("withdrawalsRoot");
    });
    assert!(matches!(
        out_of_order,
        Err(EthereumError::ForkFieldsOutOfOrder { missing: "withdrawalsRoot", .. })
    ));
    let padded = edited(cancun, |object| {
        object.insert(
            "gasUsed".to_owned(),
            Value::String("0x0".to_owned() + &object["gasUsed"].as_str().expect("s")[2..]),
        );
    });
    assert!(matches!(padded, Err(EthereumError::NotCanonical { .. })));
    let null = edited(cancun, |object| {
        object.insert("stateRoot".to_owned(), Value::Null);
    });
    assert!(matches!(null, Err(EthereumError::NotAString { .. })));
    let other_hash = edited(cancun, |object| {
        object.insert("hash".to_owned(), Value::String(format!("0x{}", "11".repeat(32))));
    });
    assert!(matches!(other_hash, Err(EthereumError::PrintedHashMismatch { .. })));
    // The right fields at another hash.
    let (_, result) = block(cancun);
    let (other, _) = block("eth_getBlockByNumber/get-block-prague-fork.io");
    assert!(matches!(
        VerifiedHeader::from_json(other, &result.to_string()),
        Err(EthereumError::HashMismatch { .. })
    ));
    assert!(matches!(
        VerifiedHeader::from_json(other, &" ".repeat(txfx_ethereum::MAX_HEADER_ANSWER_BYTES + 1)),
        Err(EthereumError::TooLarge { .. })
    ));
}

/// The request and result of a `eth_getProof` file.
fn proof(name: &str) -> (ProofRequest, Value) {
    let (request, response) = exchange(name);
    let address: Address = request["params"][0].as_str().expect("an address").parse().expect("20 bytes");
    let slots: Vec<B256> = request["params"][1]
        .as_array()
        .expect("slots")
        .iter()
        .map(|slot| B256::from(slot.as_str().expect("a slot").parse::<U256>().expect("a number")))
        .collect();
    (ProofRequest::new(address, &slots).expect("a request"), response["result"].clone())
}

#[test]
fn real_proofs_verify_against_their_block() {
    let header = latest();
    let (request, result) = proof("eth_getProof/get-account-proof-blockhash.io");
    let proven = verify_proof(&header, &request, &result.to_string()).expect("proven");
    let account = proven.account().expect("present");
    assert_eq!(account.balance, U256::from(0x76));
    assert_eq!(account.nonce, 0);
    assert_eq!(
        account.storage_hash,
        b256("0x7917ac1f1d6cd87c54aea239c6efbe5c8865659f0761c74e67f1c1eb837923bb")
    );
    assert_eq!(account.code_hash, b256("0xa3216dd3ef46a63d518ef54e482cecac68a077f70fca0e5fb900be63f41d54a2"));
    assert!(proven.values().is_empty());

    // Slot 0 asked as "0x00", printed back as the quantity "0x0", value 0x38.
    let (request, result) = proof("eth_getProof/get-account-proof-with-storage.io");
    let proven = verify_proof(&header, &request, &result.to_string()).expect("proven");
    assert_eq!(proven.value(B256::ZERO), Some(U256::from(0x38)));
    assert_eq!(proven.block_hash(), header.hash());

    // The same proof against another block's header: another state root.
    let prague = header_at("eth_getBlockByNumber/get-block-prague-fork.io");
    assert!(matches!(
        verify_proof(&prague, &request, &result.to_string()),
        Err(EthereumError::ProofFailed { ref field, .. }) if field == "accountProof"
    ));
}

fn header_at(name: &str) -> VerifiedHeader {
    header(name)
}

/// The storage proof file's result with `edit` applied, verified at the latest block.
fn edited_proof(edit: impl FnOnce(&mut Value)) -> Result<(), EthereumError> {
    let (request, mut result) = proof("eth_getProof/get-account-proof-with-storage.io");
    edit(&mut result);
    verify_proof(&latest(), &request, &result.to_string()).map(drop)
}

fn nodes(value: &mut Value, pointer: &str) -> Vec<Value> {
    value.pointer_mut(pointer).and_then(Value::as_array_mut).expect("a proof").clone()
}

#[test]
fn a_changed_proof_is_refused() {
    // A node removed from each proof.
    for pointer in ["/accountProof", "/storageProof/0/proof"] {
        for index in 0..2 {
            let refused = edited_proof(|result| {
                let mut proof = nodes(result, pointer);
                proof.remove(index);
                *result.pointer_mut(pointer).expect("a proof") = Value::Array(proof);
            });
            assert!(
                matches!(refused, Err(EthereumError::ProofFailed { .. })),
                "{pointer} {index}: {refused:?}"
            );
        }
    }
    // The value altered, the balance altered.
    let value = edited_proof(|result| result["storageProof"][0]["value"] = Value::String("0x39".to_owned()));
    assert!(
        matches!(value, Err(EthereumError::ProofFailed { ref field, .. }) if field == "storageProof[0].proof")
    );
    let zero = edited_proof(|result| result["storageProof"][0]["value"] = Value::String("0x0".to_owned()));
    assert!(matches!(zero, Err(EthereumError::ProofFailed { .. })));
    let balance = edited_proof(|result| result["balance"] = Value::String("0x77".to_owned()));
    assert!(matches!(balance, Err(EthereumError::ProofFailed { ref field, .. }) if field == "accountProof"));
    // Another key at the slot's place.
    let key = edited_proof(|result| result["storageProof"][0]["key"] = Value::String("0x1".to_owned()));
    assert!(matches!(key, Err(EthereumError::StorageKeyMismatch { index: 0, .. })));
    let address = edited_proof(|result| result["address"] = Value::String(format!("0x{}", "00".repeat(20))));
    assert!(matches!(address, Err(EthereumError::AddressMismatch { .. })));
    let missing = edited_proof(|result| {
        result.as_object_mut().expect("an object").remove("storageHash");
    });
    assert_eq!(missing, Err(EthereumError::MissingField { field: "storageHash".to_owned() }));
    // Too many nodes, a node too large: refused before any is hashed.
    let many = edited_proof(|result| {
        let node = result["accountProof"][0].clone();
        result["accountProof"] = Value::Array(vec![node; MAX_PROOF_NODES + 1]);
    });
    assert!(matches!(many, Err(EthereumError::TooManyNodes { count: 66, .. })));
    let large = edited_proof(|result| {
        result["storageProof"][0]["proof"][1] =
            Value::String(format!("0x{}", "aa".repeat(MAX_NODE_BYTES + 1)));
    });
    assert!(
        matches!(large, Err(EthereumError::NodeSize { len: 533, ref field, .. }) if field == "storageProof[0].proof[1]")
    );
}

#[test]
fn the_answer_must_be_for_the_slots_asked_in_their_order() {
    let (_, result) = proof("eth_getProof/get-account-proof-with-storage.io");
    let address: Address = "0x7dcd17433742f4c0ca53122ab541d0ba67fc27df".parse().expect("an address");
    let one = B256::with_last_byte(1);
    for slots in [vec![one], vec![one, B256::ZERO], vec![]] {
        let request = ProofRequest::new(address, &slots).expect("a request");
        let refused = verify_proof(&latest(), &request, &result.to_string());
        assert!(
            matches!(
                refused,
                Err(EthereumError::StorageKeyMismatch { .. } | EthereumError::StorageProofCount { .. })
            ),
            "{slots:?}: {refused:?}"
        );
    }
}

/// A file of `testdata/ethereum/helios/` (a16z/helios' mainnet RPC answers), as JSON.
fn helios(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/ethereum/helios").join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).expect("a helios file")).expect("JSON")
}

#[test]
fn a_mainnet_cancun_block_and_its_proofs() {
    let block = helios("block.json");
    let hash = b256(block["hash"].as_str().expect("a hash"));
    let header = VerifiedHeader::from_json(hash, &block.to_string()).expect("mainnet block 21925176");
    assert_eq!((header.number(), header.fork()), (21_925_176, Fork::Cancun));
    assert_eq!(header.state_root(), b256(block["stateRoot"].as_str().expect("stateRoot")));

    // The deposit contract with slot 1, and the block's fee recipient (an account with no code).
    for (name, slots) in [("proof.json", vec![B256::with_last_byte(1)]), ("block_miner_proof.json", vec![])] {
        let result = helios(name);
        let address: Address = result["address"].as_str().expect("an address").parse().expect("20 bytes");
        let request = ProofRequest::new(address, &slots).expect("a request");
        let proven =
            verify_proof(&header, &request, &result.to_string()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let account = proven.account().expect("present");
        assert_eq!(
            account.storage_hash,
            b256(result["storageHash"].as_str().expect("storageHash")),
            "{name}"
        );
        for (slot, entry) in slots.iter().zip(result["storageProof"].as_array().expect("proofs")) {
            let value: U256 = entry["value"].as_str().expect("a value").parse().expect("a number");
            assert_eq!(proven.value(*slot), Some(value));
        }
    }
}
