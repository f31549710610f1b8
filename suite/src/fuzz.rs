//! Fuzz targets for every entry point that reads outside data, and a mutation-based driver that
//! runs them on stable Rust (this machine has no nightly toolchain for cargo-fuzz).
//!
//! Each target takes arbitrary bytes and must never panic; when an input is accepted it checks a
//! property (round trips re-encode to the same value; an accepted witness is the genuine one).
//! The driver mutates a seed corpus built from `testdata/` with a seeded xorshift generator, so
//! a run is reproducible from its seed. A panic or a broken property is a finding: the input is
//! written under `target/fuzz-findings/` and the run fails.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::trusted;
use txfx_documents::json::{
    body_from_json, body_to_json, checkpoint_from_json, checkpoint_to_json, effect_from_json, effect_to_json,
};
use txfx_documents::json::{witness_from_json, witness_to_json};
use txfx_membership::archive::ARCHIVE_HEIGHT;
use txfx_membership::{
    BlockWitnesses, ElementQuery, ProtocolVersion, StoredBlock, TxEffectMembershipWitness, prove_category,
    verify_category_proof, verify_leaf,
};
use txfx_poseidon::field::{fr_from_be_slice, fr_to_be_bytes, fr_to_hex, parse_fr};
use txfx_poseidon::{Fr, Sequential};
use txfx_tx_effects::BlockNumber;
use txfx_tx_effects::blob::{decode_block_blob, encode_block_blob};
use txfx_tx_effects::category::CategorySection;
use txfx_tx_effects::checkpoint::{decode_checkpoint, encode_checkpoint};

use crate::vectors::{read_testdata, testdata_dir};

/// What one execution concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The input was refused with a typed error.
    Rejected,
    /// The input was accepted and its property held.
    Accepted,
}

/// A target: bytes in, an outcome or a broken property (`Err`).
pub type Target = fn(&[u8]) -> Result<Outcome, String>;

fn text(bytes: &[u8]) -> Option<&str> {
    std::str::from_utf8(bytes).ok()
}

/// Field parsing: hex and decimal strings, and 32-byte big-endian words.
pub fn field(bytes: &[u8]) -> Result<Outcome, String> {
    let mut outcome = Outcome::Rejected;
    if let Ok(value) = fr_from_be_slice(bytes) {
        if fr_to_be_bytes(&value).as_slice() != bytes {
            return Err("32-byte round trip changed the bytes".into());
        }
        outcome = Outcome::Accepted;
    }
    if let Some(Ok(value)) = text(bytes).map(parse_fr) {
        if parse_fr(&fr_to_hex(&value)) != Ok(value) {
            return Err("printed form does not parse back".into());
        }
        outcome = Outcome::Accepted;
    }
    Ok(outcome)
}

/// Runs `check` under every protocol; accepted when any protocol accepted the input.
fn every_protocol(check: impl Fn(ProtocolVersion) -> Result<Outcome, String>) -> Result<Outcome, String> {
    let mut outcome = Outcome::Rejected;
    for protocol in ProtocolVersion::ALL {
        if check(protocol).map_err(|error| format!("{protocol}: {error}"))? == Outcome::Accepted {
            outcome = Outcome::Accepted;
        }
    }
    Ok(outcome)
}

/// TxEffect JSON: an accepted effect re-prints and re-parses to itself, and round-trips its blob,
/// under every protocol.
pub fn effect_json(bytes: &[u8]) -> Result<Outcome, String> {
    every_protocol(|protocol| {
        let read = |text: &str| effect_from_json(text, protocol);
        let Some(effect) =
            json_round_trip(bytes, read, |effect| effect_to_json(effect).to_string(), "effect")?
        else {
            return Ok(Outcome::Rejected);
        };
        blob_round_trip(protocol, txfx_tx_effects::Body::new(vec![effect]), "the effect")
    })
}

/// What `read` reads from `bytes` (`None` where it refuses them or they are not UTF-8), once
/// printing it with `print` and reading that again gave the same `what` back.
fn json_round_trip<T: PartialEq, E>(
    bytes: &[u8],
    read: impl Fn(&str) -> Result<T, E>,
    print: impl Fn(&T) -> String,
    what: &str,
) -> Result<Option<T>, String> {
    let Some(Ok(value)) = text(bytes).map(&read) else { return Ok(None) };
    if read(&print(&value)).as_ref().ok() != Some(&value) {
        return Err(format!("JSON round trip changed the {what}"));
    }
    Ok(Some(value))
}

/// Accepted, when `body` (as its blob carries it) decodes from its blob to itself.
fn blob_round_trip(
    protocol: ProtocolVersion,
    body: txfx_tx_effects::Body,
    what: &str,
) -> Result<Outcome, String> {
    let body = without_private_log_padding(body)?;
    if decode_block_blob(protocol, &encode_block_blob(&body)).as_ref().ok() != Some(&body) {
        return Err(format!("blob round trip changed {what}"));
    }
    Ok(Outcome::Accepted)
}

/// The body as its blob carries it: without private-log fields past emittedLength.
fn without_private_log_padding(body: txfx_tx_effects::Body) -> Result<txfx_tx_effects::Body, String> {
    let effects = body
        .tx_effects
        .into_iter()
        .map(|effect| {
            let mut fields = effect.into_fields();
            fields.private_logs.iter_mut().for_each(|log| log.padding.clear());
            txfx_tx_effects::TxEffect::new(fields).map_err(|e| format!("clearing private-log padding: {e}"))
        })
        .collect::<Result<_, _>>()?;
    Ok(txfx_tx_effects::Body::new(effects))
}

/// Body JSON: an accepted body round-trips through JSON and its blob, under every protocol.
pub fn body_json(bytes: &[u8]) -> Result<Outcome, String> {
    every_protocol(|protocol| {
        let read = |text: &str| body_from_json(text, protocol);
        let Some(body) = json_round_trip(bytes, read, |body| body_to_json(body).to_string(), "body")? else {
            return Ok(Outcome::Rejected);
        };
        blob_round_trip(protocol, body, "the body")
    })
}

/// Blob fields as consecutive 32-byte words: an accepted block re-encodes to the same fields
/// (before v6; a v6 decoder reads revert codes above 1 as 1, so it re-encodes them as 1).
pub fn blob(bytes: &[u8]) -> Result<Outcome, String> {
    every_protocol_on_fields(bytes, |protocol, fields| {
        let Ok(body) = decode_block_blob(protocol, fields) else { return Ok(Outcome::Rejected) };
        let encoded = encode_block_blob(&body);
        if protocol != ProtocolVersion::V6 && encoded != fields {
            return Err("decoded block does not re-encode to its blob".into());
        }
        decodes_to_itself(decode_block_blob(protocol, &encoded), &body, "re-encoded block")
    })
}

/// `check` under every protocol on `bytes` read as consecutive 32-byte big-endian words; bytes
/// that are not all field elements are rejected before any protocol reads them.
fn every_protocol_on_fields(
    bytes: &[u8],
    check: impl Fn(ProtocolVersion, &[Fr]) -> Result<Outcome, String>,
) -> Result<Outcome, String> {
    let fields: Result<Vec<Fr>, _> = bytes.chunks(32).map(fr_from_be_slice).collect();
    let Ok(fields) = fields else { return Ok(Outcome::Rejected) };
    every_protocol(|protocol| check(protocol, &fields))
}

/// Accepted, when decoding what was encoded gave back the `original` it was encoded from.
fn decodes_to_itself<T: PartialEq, E>(
    again: Result<T, E>,
    original: &T,
    what: &str,
) -> Result<Outcome, String> {
    if again.as_ref().ok() != Some(original) {
        return Err(format!("{what} does not decode to itself"));
    }
    Ok(Outcome::Accepted)
}

/// Checkpoint blob fields as consecutive 32-byte words: an accepted checkpoint re-encodes to the
/// same fields up to its end marker (before v6, as [`blob`]), and everything after that is zero.
pub fn checkpoint(bytes: &[u8]) -> Result<Outcome, String> {
    every_protocol_on_fields(bytes, |protocol, fields| {
        let Ok(checkpoint) = decode_checkpoint(protocol, fields) else { return Ok(Outcome::Rejected) };
        let encoded = encode_checkpoint(&checkpoint);
        let (head, tail) = fields.split_at_checked(encoded.len()).ok_or("decoded more fields than given")?;
        if tail.iter().any(|field| *field != Fr::from(0u64)) {
            return Err("a nonzero field after the checkpoint's end".into());
        }
        if protocol != ProtocolVersion::V6 && head != encoded.as_slice() {
            return Err("decoded checkpoint does not re-encode to its fields".into());
        }
        decodes_to_itself(decode_checkpoint(protocol, &encoded), &checkpoint, "re-encoded checkpoint")
    })
}

/// Checkpoint JSON: an accepted checkpoint re-prints and re-parses to itself, under every
/// protocol.
pub fn checkpoint_json(bytes: &[u8]) -> Result<Outcome, String> {
    every_protocol(|protocol| {
        let Some(Ok(parsed)) = text(bytes).map(|text| checkpoint_from_json(text, protocol)) else {
            return Ok(Outcome::Rejected);
        };
        let printed = checkpoint_to_json(&parsed.checkpoint, None).to_string();
        if checkpoint_from_json(&printed, protocol).map(|again| again.checkpoint).as_ref().ok()
            != Some(&parsed.checkpoint)
        {
            return Err("checkpoint JSON round trip changed the checkpoint".into());
        }
        Ok(Outcome::Accepted)
    })
}

/// Stored leaves: an accepted stored block serves witnesses that verify against its root, and
/// the rebuilt stored form is itself.
pub fn stored_leaves(bytes: &[u8]) -> Result<Outcome, String> {
    let Some(Ok(stored)) = text(bytes).map(txfx_documents::json::stored_block_from_json) else {
        return Ok(Outcome::Rejected);
    };
    let Ok(block) = BlockWitnesses::from_stored(&Sequential, &stored) else { return Ok(Outcome::Rejected) };
    for (index, tx) in stored.txs.iter().enumerate() {
        let witness = block.witness(index).map_err(|e| e.to_string())?;
        if witness.categories_hash != Some(tx.categories_hash)
            || verify_leaf(&Sequential, tx.leaf, &witness, trusted(stored.tx_effects_tree_root)).is_err()
        {
            return Err(format!("tx {index}: the served witness does not verify"));
        }
    }
    Ok(Outcome::Accepted)
}

/// Header JSON (either layout): an accepted header re-prints and re-parses to itself, and its
/// field list has the layout's length.
pub fn header_json(bytes: &[u8]) -> Result<Outcome, String> {
    let Some(text) = text(bytes) else { return Ok(Outcome::Rejected) };
    let mut outcome = Outcome::Rejected;
    for version in ProtocolVersion::ALL {
        let Ok(header) = txfx_documents::json::header_from_json(text, version) else { continue };
        if txfx_documents::json::header_from_json(
            &txfx_documents::json::header_to_json(&header).to_string(),
            version,
        )
        .as_ref()
        .ok()
            != Some(&header)
        {
            return Err("header JSON round trip changed the header".into());
        }
        if header.to_fields().len() != version.header_fields() {
            return Err("the field list does not have the layout's length".into());
        }
        outcome = Outcome::Accepted;
    }
    Ok(outcome)
}

/// Archive witnesses as the node prints them: an accepted one re-serializes to itself.
pub fn archive_witness(bytes: &[u8]) -> Result<Outcome, String> {
    let Some(Ok(witness)) = text(bytes).map(crate::archive_witness_text) else {
        return Ok(Outcome::Rejected);
    };
    if witness.sibling_path.len() == ARCHIVE_HEIGHT
        && crate::archive_witness_text(&txfx_documents::json::archive_witness_to_json(&witness).to_string())
            .as_ref()
            .ok()
            != Some(&witness)
    {
        return Err("archive witness round trip changed it".into());
    }
    Ok(Outcome::Accepted)
}

/// Category proofs: an accepted proof re-prints to itself, and one that verifies against the
/// small fixture's witness must be the genuine proof of one of its categories, naming at element
/// level a value that is at that place, in that role, in the genuine category.
pub fn category_proof(bytes: &[u8]) -> Result<Outcome, String> {
    let Some(Ok(proof)) = text(bytes).map(txfx_documents::json::category_proof_from_json) else {
        return Ok(Outcome::Rejected);
    };
    if txfx_documents::json::category_proof_from_json(
        &txfx_documents::json::category_proof_to_json(&proof).to_string(),
    )
    .as_ref()
    .ok()
        != Some(&proof)
    {
        return Err("category proof round trip changed it".into());
    }
    let (witness, root) = crate::hostile::small_fixture_witness();
    if let Ok(proven) = verify_category_proof(&Sequential, &proof, &witness, trusted(root)) {
        let effect = crate::cases::fixture_effect("small");
        let genuine =
            prove_category(&Sequential, &effect, proof.category, None).map_err(|e| e.to_string())?;
        if (&genuine.preimage, genuine.category_hashes, genuine.tx_start_marker)
            != (&proof.preimage, proof.category_hashes, proof.tx_start_marker)
        {
            return Err("a forged category proof verified".into());
        }
        let section = CategorySection::of(&effect, proof.category);
        if let Some(element) = proven.element
            && section.element(element.place) != Some(element.value)
        {
            return Err(format!(
                "a proof named {} {}, which the category does not hold there",
                element.place,
                fr_to_hex(&element.value)
            ));
        }
    }
    Ok(Outcome::Accepted)
}

/// The genuine chain's documents, for [`chain_verdict`]: the archive witness, block 3's header,
/// the tx-effects witness of tx 1 and its effect (built once).
fn chain_documents() -> &'static [String; 4] {
    static DOCUMENTS: std::sync::OnceLock<[String; 4]> = std::sync::OnceLock::new();
    DOCUMENTS.get_or_init(build_chain_documents)
}

fn build_chain_documents() -> [String; 4] {
    let body = body_from_json(&read_testdata("blocks/three-fixtures.json"), ProtocolVersion::Azip26)
        .unwrap_or_default();
    let witness = BlockWitnesses::from_body(&Sequential, &body, BlockNumber::new(3))
        .ok()
        .and_then(|block| block.witness(1).ok())
        .map(|witness| witness_to_json(&witness).to_string())
        .unwrap_or_default();
    [
        read_testdata("chain/archive-witness-3.json"),
        read_testdata("chain/header-3.json"),
        witness,
        read_testdata("effects/small.json"),
    ]
}

/// The whole chain's verdict: the first byte picks one of the chain's four documents, the rest
/// replaces it. Whatever the documents, a valid verdict names the genuine block (number and
/// hash), tx and leaf, and nothing else: no document can make txfx vouch for another fact.
pub fn chain_verdict(bytes: &[u8]) -> Result<Outcome, String> {
    use txfx_documents::ops::{Expected, Subject, verify_tx_chain};
    use txfx_documents::{Doc, read};
    let (Some(pick), Some(replacement)) = (bytes.first(), bytes.get(1..).and_then(text)) else {
        return Ok(Outcome::Rejected);
    };
    let genuine = chain_documents();
    let mut documents = genuine.clone();
    if let Some(slot) = documents.get_mut(usize::from(*pick) % 4) {
        *slot = replacement.to_owned();
    }
    let [archive_witness, header, witness, effect] = &documents;
    let root = txfx_poseidon::field::parse_fr_hex(read_testdata("chain/archive-root.txt").trim())
        .map_err(|e| e.to_string())?;
    let verdict = match verify_tx_chain(
        txfx_documents::ops::Context::new(&Sequential, ProtocolVersion::Azip26),
        root,
        Doc::text("archive witness", archive_witness),
        Doc::text("header", header),
        Doc::text("witness", witness),
        Subject::Effect(Doc::text("effect", effect)),
        &Expected::default(),
    ) {
        Ok(verdict) => verdict,
        Err(_) => return Ok(Outcome::Rejected),
    };
    let header = read::header(&Sequential, Doc::text("header", &genuine[1]), ProtocolVersion::Azip26)
        .map_err(|e| e.to_string())?
        .header;
    let block_hash = header.hash(&Sequential).map_err(|e| e.to_string())?;
    let small = crate::cases::fixture_effect("small");
    let named = (verdict.block_number(), verdict.block_hash(), verdict.tx_hash(), verdict.leaf_index());
    if named != (Some(BlockNumber::new(3)), Some(block_hash), Some(small.tx_hash), Some(1)) {
        return Err(format!("a valid verdict named other facts: {}", verdict.to_json()));
    }
    // The replaced document reads as the genuine one: an equivalent spelling, nothing more.
    let reread =
        read::effect(Doc::text("effect", effect), ProtocolVersion::Azip26).map_err(|e| e.to_string())?.effect;
    if reread.tx_hash != small.tx_hash || reread.nullifiers != small.nullifiers {
        return Err("a valid verdict about an effect other than the genuine one".into());
    }
    Ok(Outcome::Accepted)
}

/// Witness JSON: an accepted witness re-prints and re-parses to itself, under every protocol.
pub fn witness_json(bytes: &[u8]) -> Result<Outcome, String> {
    every_protocol(|protocol| {
        let Some(Ok(witness)) = text(bytes).map(|text| witness_from_json(text, protocol)) else {
            return Ok(Outcome::Rejected);
        };
        if witness_from_json(&witness_to_json(&witness).to_string(), protocol).as_ref().ok() != Some(&witness)
        {
            return Err("witness JSON round trip changed the witness".into());
        }
        Ok(Outcome::Accepted)
    })
}

/// Differential verification: bytes pick a block, a tx and tampering; a witness the verifier
/// accepts must be the builder's witness for that very leaf, under the builder's root.
pub fn verify(bytes: &[u8]) -> Result<Outcome, String> {
    let byte = |i: usize| bytes.get(i).copied().unwrap_or(0);
    let n = 1 + (usize::from(byte(0)) | usize::from(byte(1) & 1) << 8) % 300;
    let salt = u64::from(byte(2)) << 8 | u64::from(byte(3));
    let leaves: Vec<Fr> = (0..n as u64).map(|i| Fr::from(i * 0x1_0000 + salt)).collect();
    let block = BlockWitnesses::from_leaves(&Sequential, leaves.clone(), BlockNumber::new(1))
        .map_err(|e| e.to_string())?;
    let index = usize::from(byte(4)) % n;
    let genuine = block.witness(index).map_err(|e| e.to_string())?;
    let mut claimed_leaf = leaves.get(index).copied().unwrap_or_default();
    let mut witness = genuine.clone();
    let mut root = block.root();
    // Every following byte pair is one tampering step.
    for op in bytes.get(5..).unwrap_or_default().chunks(2).take(8) {
        let (kind, arg) = (op.first().copied().unwrap_or(0), op.get(1).copied().unwrap_or(0));
        match kind % 7 {
            0 => witness.leaf_index ^= 1u64 << (arg % 64),
            1 => {
                if let Some(s) =
                    witness.sibling_path.get_mut(usize::from(arg) % genuine.sibling_path.len().max(1))
                {
                    *s += Fr::from(u64::from(arg) + 1);
                }
            }
            2 => {
                witness.sibling_path.pop();
            }
            3 => witness.sibling_path.push(Fr::from(u64::from(arg))),
            4 => root += Fr::from(u64::from(arg)),
            5 => claimed_leaf = leaves.get(usize::from(arg) % n).copied().unwrap_or_default(),
            _ => witness.sibling_path.reverse(),
        }
    }
    match verify_leaf(&Sequential, claimed_leaf, &witness, trusted(root)) {
        Err(_) => Ok(Outcome::Rejected),
        Ok(_) => {
            let honest = TxEffectMembershipWitness { ..genuine };
            let leaf_is_genuine = leaves.get(index) == Some(&claimed_leaf)
                || block.all().iter().zip(&leaves).any(|(w, l)| *l == claimed_leaf && *w == witness);
            if root == block.root()
                && leaf_is_genuine
                && (witness == honest || block.all().contains(&witness))
            {
                Ok(Outcome::Accepted)
            } else {
                Err(format!("accepted a forged witness for tx {index} of {n}"))
            }
        }
    }
}

/// The small fixture's seven category proofs, and one element proof per place, as JSON.
fn fixture_small_proofs() -> Vec<Vec<u8>> {
    let effect = crate::cases::fixture_effect("small");
    let mut proofs = Vec::new();
    for category in txfx_tx_effects::Category::ALL {
        proofs.extend(prove_category(&Sequential, &effect, category, None).ok());
        for (place, value) in CategorySection::of(&effect, category).elements() {
            let query = ElementQuery { value, role: Some(place.role) };
            proofs.extend(prove_category(&Sequential, &effect, category, Some(query)).ok());
        }
    }
    proofs
        .into_iter()
        .map(|proof| txfx_documents::json::category_proof_to_json(&proof).to_string().into_bytes())
        .collect()
}

/// Every target by name, with its seed corpus.
pub fn targets() -> Vec<(&'static str, Target, Vec<Vec<u8>>)> {
    let file = |path: &str| read_testdata(path).into_bytes();
    let catalogue: serde_json::Value =
        serde_json::from_str(&read_testdata("bad-inputs/catalogue.json")).unwrap_or_default();
    let catalogue_inputs = |entry: &str| -> Vec<Vec<u8>> {
        catalogue["cases"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .filter(|case| case["entry"] == entry)
            .map(|case| {
                case["input"]
                    .as_str()
                    .map(str::to_owned)
                    .unwrap_or_else(|| case["input"].to_string())
                    .into_bytes()
            })
            .collect()
    };
    let blob_seed = |path: &str| -> Vec<u8> {
        let body = body_from_json(&read_testdata(path), ProtocolVersion::V6)
            .map(|b| encode_block_blob(&b))
            .unwrap_or_default();
        body.iter().flat_map(fr_to_be_bytes).collect()
    };
    let mut field_seeds = catalogue_inputs("field");
    field_seeds.extend([
        b"0x2a".to_vec(),
        b"42".to_vec(),
        vec![0u8; 32],
        fr_to_be_bytes(&-Fr::from(1u64)).to_vec(),
    ]);
    let mut effect_seeds = catalogue_inputs("effect-json");
    effect_seeds.extend([file("effects/small.json"), file("effects/empty.json")]);
    let mut body_seeds = catalogue_inputs("body-json");
    body_seeds.extend([file("blocks/sparse-3.json"), file("blocks/small-3.json")]);
    let mut witness_seeds = catalogue_inputs("witness-json");
    witness_seeds.push(
        serde_json::to_vec(&crate::vectors::at(
            crate::vectors::aztec_fixtures(),
            "/witness_json_example/json",
        ))
        .unwrap_or_default(),
    );
    // Checkpoints from TypeScript's fixtures (blob-lib's encoding), and their decoded JSON.
    let checkpoints: serde_json::Value =
        serde_json::from_str(&read_testdata("typescript/checkpoints.json")).unwrap_or_default();
    let records = checkpoints["checkpoints"].as_array().map(Vec::as_slice).unwrap_or_default();
    let mut checkpoint_seeds: Vec<Vec<u8>> = records
        .iter()
        .filter(|record| record["blobFields"].as_array().is_some_and(|fields| fields.len() < 2048))
        .map(|record| {
            let fields: Vec<Fr> = record["blobFields"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default()
                .iter()
                .filter_map(|field| field.as_str().and_then(|text| parse_fr(text).ok()))
                .collect();
            fields.iter().flat_map(fr_to_be_bytes).collect()
        })
        .collect();
    // The catalogue's corruptions, as the target's 32-byte words.
    checkpoint_seeds.extend(
        catalogue["cases"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .filter(|case| case["entry"] == "checkpoint")
            .map(|case| {
                let words = case["input"].as_array().map(Vec::as_slice).unwrap_or_default();
                words
                    .iter()
                    .filter_map(|field| field.as_str().and_then(|text| parse_fr(text).ok()))
                    .flat_map(|field| fr_to_be_bytes(&field))
                    .collect::<Vec<u8>>()
            }),
    );
    let mut checkpoint_json_seeds: Vec<Vec<u8>> =
        records.iter().take(3).map(|record| record["decoded"].to_string().into_bytes()).collect();
    checkpoint_json_seeds.extend(catalogue_inputs("checkpoint-json"));
    let mut stored_seeds = vec![
        body_from_json(&read_testdata("blocks/three-fixtures.json"), ProtocolVersion::V6)
            .ok()
            .and_then(|body| StoredBlock::from_body(&Sequential, &body, BlockNumber::new(7)).ok())
            .map(|stored| txfx_documents::json::stored_block_to_json(&stored).to_string().into_bytes())
            .unwrap_or_default(),
    ];
    stored_seeds.extend(catalogue_inputs("stored-leaves"));
    let mut header_seeds = vec![file("chain/header-3.json")];
    header_seeds.extend(catalogue_inputs("header-json"));
    let mut archive_seeds = vec![file("chain/archive-witness-3.json")];
    archive_seeds.extend(catalogue_inputs("archive-witness"));
    let mut chain_seeds: Vec<Vec<u8>> = Vec::new();
    for (pick, document) in chain_documents().iter().enumerate() {
        let mut seed = vec![pick as u8];
        seed.extend_from_slice(document.as_bytes());
        chain_seeds.push(seed);
    }
    let mut proof_seeds: Vec<Vec<u8>> = fixture_small_proofs();
    proof_seeds.extend(catalogue_inputs("category-proof"));
    vec![
        ("field", field as Target, field_seeds),
        ("effect-json", effect_json as Target, effect_seeds),
        ("body-json", body_json as Target, body_seeds),
        (
            "blob",
            blob as Target,
            vec![blob_seed("blocks/three-fixtures.json"), blob_seed("blocks/small-3.json")],
        ),
        ("checkpoint", checkpoint as Target, checkpoint_seeds),
        ("checkpoint-json", checkpoint_json as Target, checkpoint_json_seeds),
        ("stored-leaves", stored_leaves as Target, stored_seeds),
        ("header-json", header_json as Target, header_seeds),
        ("archive-witness", archive_witness as Target, archive_seeds),
        ("category-proof", category_proof as Target, proof_seeds),
        ("chain-verdict", chain_verdict as Target, chain_seeds),
        ("witness-json", witness_json as Target, witness_seeds),
        ("verify", verify as Target, vec![vec![3, 0, 1, 2, 1], vec![200, 1, 9, 9, 77, 0, 3, 1, 0]]),
    ]
}

/// A small, seedable generator (xorshift64*): reproducible runs without a dependency.
pub struct Rng(u64);

impl Rng {
    /// A generator from a nonzero seed.
    pub fn new(seed: u64) -> Self {
        Self(seed | 1)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// A value below `bound` (0 when `bound` is 0).
    pub fn below(&mut self, bound: usize) -> usize {
        if bound == 0 { 0 } else { (self.next_u64() % bound as u64) as usize }
    }
}

const INTERESTING: &[u8] = b"0123456789abcdefx\"{}[],:-. \x00\xff";

/// One mutation of `input`: flip, replace, insert, delete, duplicate or splice.
pub fn mutate(input: &[u8], corpus: &[Vec<u8>], rng: &mut Rng) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(out.len() + 1);
        match rng.below(7) {
            0 if at < out.len() => out[at] ^= 1 << rng.below(8),
            1 if at < out.len() => out[at] = INTERESTING[rng.below(INTERESTING.len())],
            2 => out.insert(at, INTERESTING[rng.below(INTERESTING.len())]),
            3 if at < out.len() => {
                let end = (at + 1 + rng.below(64)).min(out.len());
                out.drain(at..end);
            }
            4 if at < out.len() => {
                let end = (at + 1 + rng.below(64)).min(out.len());
                let chunk = out[at..end].to_vec();
                let to = rng.below(out.len() + 1);
                out.splice(to..to, chunk);
            }
            5 => {
                let other = &corpus[rng.below(corpus.len())];
                let from = rng.below(other.len() + 1);
                let end = (from + rng.below(128)).min(other.len());
                out.splice(at..at, other[from..end].iter().copied());
            }
            _ if at < out.len() => out[at] = rng.next_u64() as u8,
            _ => out.push(rng.next_u64() as u8),
        }
    }
    out.truncate(1 << 20);
    out
}

/// What a fuzz run did.
#[derive(Debug, Clone)]
pub struct FuzzReport {
    /// The target.
    pub target: &'static str,
    /// Executions.
    pub executions: u64,
    /// Of which accepted.
    pub accepted: u64,
    /// Findings (panics or broken properties), with the saved input's path.
    pub findings: Vec<(String, PathBuf)>,
    /// Wall time.
    pub elapsed: Duration,
}

/// Fuzzes one target for `duration`, starting from `seed`.
pub fn fuzz(
    name: &'static str,
    target: Target,
    seeds: Vec<Vec<u8>>,
    duration: Duration,
    seed: u64,
) -> FuzzReport {
    let mut rng = Rng::new(seed);
    let mut corpus = if seeds.is_empty() { vec![Vec::new()] } else { seeds };
    let mut report = FuzzReport {
        target: name,
        executions: 0,
        accepted: 0,
        findings: Vec::new(),
        elapsed: Duration::ZERO,
    };
    let start = Instant::now();
    let findings_dir = testdata_dir().join("../target/fuzz-findings");
    while start.elapsed() < duration {
        let base = &corpus[rng.below(corpus.len())];
        let input = mutate(base, &corpus, &mut rng);
        report.executions += 1;
        let result = catch_unwind(AssertUnwindSafe(|| target(&input)));
        let problem = match result {
            Ok(Ok(Outcome::Accepted)) => {
                report.accepted += 1;
                // Accepted inputs are interesting starting points: keep a bounded corpus of them.
                if corpus.len() < 4096 {
                    corpus.push(input.clone());
                }
                None
            }
            Ok(Ok(Outcome::Rejected)) => None,
            Ok(Err(broken)) => Some(broken),
            Err(_) => Some("panicked".to_owned()),
        };
        if let Some(problem) = problem {
            let _ = std::fs::create_dir_all(&findings_dir);
            let path = findings_dir.join(format!("{name}-{}.bin", report.findings.len()));
            let _ = std::fs::write(&path, &input);
            report.findings.push((problem, path));
        }
    }
    report.elapsed = start.elapsed();
    report
}
