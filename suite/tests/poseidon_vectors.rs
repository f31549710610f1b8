//! Poseidon2 against every permutation, hash and separator-hash vector in `testdata/`.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use txfx_poseidon::field::{fr_to_hex, parse_fr};
use txfx_poseidon::separator::low_u32_of_hashed_bytes;
use txfx_poseidon::{
    DomainSeparator, Fr, TX_START_PREFIX, permute, poseidon2_hash, poseidon2_hash_bytes,
    poseidon2_hash_with_separator,
};
use txfx_suite::vectors::{
    PoseidonVectors, array, at, aztec_fixtures, fr, frs, poseidon_vectors, reference, uint,
};

fn state(values: Vec<Fr>) -> [Fr; 4] {
    values.try_into().expect("a permutation vector has four lanes")
}

#[test]
fn permutation_vectors() {
    let mut ran = 0;
    for record in poseidon_vectors(PoseidonVectors::Permutation) {
        let (input, output) = (at(record, "/input"), at(record, "/output"));
        let mut s = state(frs(input));
        permute(&mut s);
        assert_eq!(s, state(frs(output)), "permutation of {input}");
        ran += 1;
    }
    assert_eq!(ran, 10, "6 fixture + 4 reference permutation vectors");
}

#[test]
fn hash_vectors() {
    let mut ran = 0;
    for record in poseidon_vectors(PoseidonVectors::Hash) {
        let inputs = frs(at(record, "/inputs"));
        assert_eq!(poseidon2_hash(&inputs), fr(at(record, "/output")), "hash of {} inputs", inputs.len());
        ran += 1;
    }
    assert_eq!(ran, 9 + 16);
}

#[test]
fn separator_hash_vectors() {
    let mut ran = 0;
    for record in poseidon_vectors(PoseidonVectors::HashWithSeparator) {
        let separator =
            DomainSeparator::new(u32::try_from(uint(at(record, "/separator"))).expect("u32 separator"));
        let inputs = frs(at(record, "/inputs"));
        let expected = fr(at(record, "/output"));
        assert_eq!(poseidon2_hash_with_separator(&inputs, separator), expected, "separator {separator}");
        // The definition: the same as the plain hash with the separator prepended.
        let prepended: Vec<Fr> =
            std::iter::once(separator.to_field()).chain(inputs.iter().copied()).collect();
        assert_eq!(poseidon2_hash(&prepended), expected);
        ran += 1;
    }
    assert_eq!(ran, 7 + 32);
}

#[test]
fn domain_separators_rederive_from_their_names() {
    let named = [
        ("DOM_SEP__TX_EFFECT_CATEGORY_HASH", DomainSeparator::TX_EFFECT_CATEGORY_HASH),
        ("DOM_SEP__TX_EFFECT_CATEGORIES_HASH", DomainSeparator::TX_EFFECT_CATEGORIES_HASH),
        ("DOM_SEP__TX_EFFECTS_TREE_LEAF", DomainSeparator::TX_EFFECTS_TREE_LEAF),
        ("DOM_SEP__TX_EFFECTS_TREE", DomainSeparator::TX_EFFECTS_TREE),
    ];
    for (key, constant) in named {
        let record = at(aztec_fixtures(), &format!("/domain_separators/{key}"));
        let expected = uint(at(record, "/value"));
        assert_eq!(u64::from(constant.value()), expected, "{key} constant");
        let name = key.trim_start_matches("DOM_SEP__").to_ascii_lowercase();
        assert_eq!(DomainSeparator::derive(&name), constant, "{key} from {name:?}");
        let derivation = at(record, "/derivation_string").as_str().expect("string");
        assert_eq!(poseidon2_hash_bytes(derivation.as_bytes()), fr(at(record, "/poseidon2_hash_bytes")));
    }
    // Every separator in the file, including those txfx does not use, follows the same rule.
    let all = at(aztec_fixtures(), "/domain_separators").as_object().expect("object");
    assert_eq!(all.len(), 6);
    for (key, record) in all {
        let derivation = at(record, "/derivation_string").as_str().expect("string");
        let low = low_u32_of_hashed_bytes(derivation.as_bytes());
        assert_eq!(u64::from(low), uint(at(record, "/value")), "{key}");
    }
}

#[test]
fn tx_start_prefix_rederives() {
    let record = at(aztec_fixtures(), "/tx_start_prefix");
    assert_eq!(at(record, "/derivation_string").as_str(), Some("az_pc__blob_tx_start"));
    assert_eq!(low_u32_of_hashed_bytes(b"az_pc__blob_tx_start"), TX_START_PREFIX);
    assert_eq!(format!("0x{TX_START_PREFIX:08x}"), at(record, "/value").as_str().expect("string"));
    assert_eq!(poseidon2_hash_bytes(b"az_pc__blob_tx_start"), fr(at(record, "/poseidon2_hash_bytes")));
}

#[test]
fn printed_form_matches_the_vector_files() {
    // Every vector string is the canonical TypeScript form; printing what we parse gives it back.
    for record in array(reference(), "/poseidon2_hash") {
        let text = at(record, "/output").as_str().expect("string");
        assert_eq!(fr_to_hex(&parse_fr(text).expect("canonical")), text);
    }
}
