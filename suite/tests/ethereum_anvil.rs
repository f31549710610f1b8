//! txfx-ethereum on a real L1 node: anvil holding the stand-in rollup, whose storage follows v6's
//! layout (`testdata/l1/StandInRollup.sol`). Each L1 block is read by hash
//! (`eth_getBlockByHash`), its rollup words proven by `eth_getProof` over loopback HTTP, and the
//! words compared with what the contract's own views answer by `eth_call` at that block.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use serde_json::{Value, json};
use txfx_ethereum::{
    Address, B256, EthereumError, Fork, ProofRequest, RollupSlots, RollupWords, U256, VerifiedHeader,
    verify_proof,
};
use txfx_suite::testchain::{Anvil, Rollup, V6Chain, rpc};

/// The latest block's hash.
fn latest_hash(anvil: &Anvil) -> B256 {
    let block = rpc(&anvil.url, "eth_getBlockByNumber", json!(["latest", false]));
    block["hash"].as_str().expect("a hash").parse().expect("32 bytes")
}

/// The header of block `hash`, read from anvil's `eth_getBlockByHash(hash, false)`.
fn header(anvil: &Anvil, hash: B256) -> VerifiedHeader {
    let result = rpc(&anvil.url, "eth_getBlockByHash", json!([hash.to_string(), false]));
    VerifiedHeader::from_json(hash, &result.to_string()).expect("anvil's header")
}

/// `eth_getProof`'s result for `request` at `header`'s block, as the crate's params ask it.
fn get_proof(anvil: &Anvil, request: &ProofRequest, header: &VerifiedHeader) -> Value {
    let params: Value = serde_json::from_str(&request.params(header)).expect("params are JSON");
    let result = rpc(&anvil.url, "eth_getProof", params);
    assert!(result.to_string().len() <= request.max_answer_bytes(), "the bound holds");
    result
}

/// One 32-byte word `eth_call` answers at block `hash`.
fn call(anvil: &Anvil, rollup: &str, data: String, hash: B256) -> U256 {
    let result = rpc(
        &anvil.url,
        "eth_call",
        json!([{ "to": rollup, "data": data }, { "blockHash": hash.to_string() }]),
    );
    let text = result.as_str().expect("a hex string");
    assert_eq!(text.len(), 66, "one word: {text}");
    text.parse().expect("a word")
}

/// What the contract's views say at block `hash`: pending, proven, archiveAt(n), archiveAt(0).
fn views(anvil: &Anvil, rollup: &str, n: u64, hash: B256) -> (U256, U256, B256, B256) {
    let archive_at = |n: u64| B256::from(call(anvil, rollup, format!("0x3777e863{n:064x}"), hash));
    (
        call(anvil, rollup, "0x9891be8e".to_owned(), hash),
        call(anvil, rollup, "0x1f8352e9".to_owned(), hash),
        archive_at(n),
        archive_at(0),
    )
}

/// The words proven at block `hash` for checkpoint `n`, checked against the views.
fn proven_words(anvil: &Anvil, rollup: &Rollup, n: u64, hash: B256) -> RollupWords {
    let address: Address = rollup.address.parse().expect("an address");
    let header = header(anvil, hash);
    let slots = RollupSlots::for_checkpoint(n);
    let result = get_proof(anvil, &slots.request(address).expect("a request"), &header);
    let words = RollupWords::from_proofs(&header, address, &slots, &result.to_string()).expect("proven");
    let (pending, proven, archive_at, genesis) = views(anvil, &rollup.address, n, hash);
    assert_eq!(U256::from(words.pending()), pending, "pending at {n}");
    assert_eq!(U256::from(words.proven()), proven, "proven at {n}");
    // archiveAt answers zero past pending; the words have no archive there.
    assert_eq!(words.archive().unwrap_or(B256::ZERO), archive_at, "archiveAt({n})");
    assert_eq!(words.genesis_archive(), genesis);
    assert_eq!(words.block_hash(), hash);
    assert!(words.account().is_some(), "the rollup has an account");
    words
}

fn word(byte: u8) -> B256 {
    B256::repeat_byte(byte)
}

#[test]
fn rollup_words_from_storage_proofs_agree_with_the_views() {
    let chain = V6Chain::load();
    let anvil = Anvil::start(31337);
    let rollup = Rollup::deploy(&anvil, &chain);
    let genesis: B256 = chain.archive_at(0).parse().expect("a word");
    let at_deployment = latest_hash(&anvil);
    assert_eq!(header(&anvil, at_deployment).fork(), Fork::Prague, "anvil --hardfork prague");
    let words = proven_words(&anvil, &rollup, 0, at_deployment);
    assert_eq!((words.pending(), words.proven(), words.archive()), (0, 0, Some(genesis)));

    for checkpoint in 1..=3 {
        rollup.propose(&anvil, checkpoint, &chain.archive_at(checkpoint));
    }
    rollup.prove(&anvil, 2);
    rollup.propose(&anvil, 4, &word(0x44).to_string());
    rollup.propose(&anvil, 5, &word(0x55).to_string());
    let before_prune = latest_hash(&anvil);
    for n in 0..=6 {
        let words = proven_words(&anvil, &rollup, n, before_prune);
        assert_eq!((words.pending(), words.proven()), (5, 2));
        assert_eq!(words.archive().is_some(), n <= 5, "checkpoint {n}");
    }
    assert_eq!(proven_words(&anvil, &rollup, 4, before_prune).archive(), Some(word(0x44)));

    // Pruned: pending back to 2, the words of 3 to 5 still in storage but past pending.
    rollup.prune(&anvil);
    let after_prune = latest_hash(&anvil);
    for n in 0..=5 {
        let words = proven_words(&anvil, &rollup, n, after_prune);
        assert_eq!((words.pending(), words.proven()), (2, 2));
        assert_eq!(words.archive().is_some(), n <= 2, "checkpoint {n}");
    }
    let address: Address = rollup.address.parse().expect("an address");
    let slots = RollupSlots::for_checkpoint(4);
    let pruned = header(&anvil, after_prune);
    let request = slots.request(address).expect("a request");
    let storage =
        verify_proof(&pruned, &request, &get_proof(&anvil, &request, &pruned).to_string()).expect("proven");
    let stale = slots.slots()[1];
    assert_eq!(storage.value(stale), Some(U256::from_be_bytes(word(0x44).0)), "the stale word is in storage");

    // Tips wide enough to need both halves: pending in the high 128 bits, proven in the low.
    rollup.set_tips(&anvil, (1 << 100) + 7, 3);
    let words = proven_words(&anvil, &rollup, 5, latest_hash(&anvil));
    assert_eq!((words.pending(), words.proven(), words.archive()), ((1 << 100) + 7, 3, Some(word(0x55))));
}

#[test]
fn a_proof_holds_only_at_its_own_block() {
    let chain = V6Chain::load();
    let anvil = Anvil::start(31337);
    let rollup = Rollup::deploy(&anvil, &chain);
    let address: Address = rollup.address.parse().expect("an address");
    rollup.propose(&anvil, 1, &chain.archive_at(1));
    let first = header(&anvil, latest_hash(&anvil));
    rollup.propose(&anvil, 2, &chain.archive_at(2));
    let second = header(&anvil, latest_hash(&anvil));
    let slots = RollupSlots::for_checkpoint(1);
    let request = slots.request(address).expect("a request");
    let result = get_proof(&anvil, &request, &first).to_string();
    assert!(RollupWords::from_proofs(&first, address, &slots, &result).is_ok());
    let refused = RollupWords::from_proofs(&second, address, &slots, &result);
    assert!(
        matches!(refused, Err(EthereumError::ProofFailed { ref field, .. }) if field == "accountProof"),
        "{refused:?}"
    );

    // anvil echoes each 32-byte slot as 32 bytes, in the order asked; swapped, they are refused.
    let mut swapped: Value = serde_json::from_str(&result).expect("JSON");
    for (entry, slot) in swapped["storageProof"].as_array().expect("proofs").iter().zip(slots.slots()) {
        assert_eq!(entry["key"], json!(slot.to_string()));
    }
    swapped["storageProof"].as_array_mut().expect("proofs").swap(1, 2);
    let refused = RollupWords::from_proofs(&first, address, &slots, &swapped.to_string());
    assert!(matches!(refused, Err(EthereumError::StorageKeyMismatch { index: 1, .. })), "{refused:?}");

    // Another account's proof is not the rollup's.
    let other = ProofRequest::new(Address::repeat_byte(0xde), slots.slots()).expect("a request");
    let result = get_proof(&anvil, &other, &first).to_string();
    let refused = RollupWords::from_proofs(&first, address, &slots, &result);
    assert!(matches!(refused, Err(EthereumError::AddressMismatch { .. })), "{refused:?}");
    // ... and that account is proven absent, all its storage zero.
    // anvil prints an absent account as the empty one.
    let printed: Value = serde_json::from_str(&result).expect("JSON");
    assert_eq!(
        printed["codeHash"],
        json!("0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470")
    );
    assert_eq!(printed["storageHash"], json!(txfx_ethereum::EMPTY_STORAGE_ROOT.to_string()));
    let absent = verify_proof(&first, &other, &result).expect("proven absent");
    assert_eq!(absent.account(), None);
    assert!(absent.values().iter().all(|(_, value)| value.is_zero()));
    // The same absence with a balance printed is refused.
    let mut rich = printed.clone();
    rich["balance"] = json!("0x1");
    let refused = verify_proof(&first, &other, &rich.to_string());
    assert_eq!(refused, Err(EthereumError::AbsentAccountNotEmpty { field: "balance" }));
}

#[test]
fn a_tip_past_128_bits_reverts() {
    let chain = V6Chain::load();
    let anvil = Anvil::start(31337);
    let rollup = Rollup::deploy(&anvil, &chain);
    let owner = rpc(&anvil.url, "eth_accounts", json!([]))[0].clone();
    let too_wide = format!("{:064x}", U256::from(1) << 128);
    for (pending, proven) in
        [(too_wide.clone(), format!("{:064x}", 0)), (format!("{:064x}", 0), too_wide.clone())]
    {
        let call = json!({
            "from": owner, "to": rollup.address, "data": format!("0x367dfeed{pending}{proven}"),
        });
        let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "eth_call", "params": [call, "latest"] });
        let answer: Value =
            ureq::post(&anvil.url).send_json(&body).expect("anvil").body_mut().read_json().expect("JSON");
        // TipOverflow(uint256): 0x3583622c (testdata/l1/README.md), with the tip.
        assert_eq!(answer["error"]["data"], json!(format!("0x3583622c{too_wide}")), "{answer}");
    }
    rollup.set_tips(&anvil, u128::MAX, u128::MAX);
    let words = proven_words(&anvil, &rollup, 0, latest_hash(&anvil));
    assert_eq!((words.pending(), words.proven()), (u128::MAX, u128::MAX));
}
