//! Loaders for the known-answer vectors in `testdata/` (copied from `shared/vectors/`).
//!
//! The expected values in these files come from Aztec's own tests and from `@aztec/foundation`
//! with `@aztec/bb.js` (see `testdata/README.md`), never from this project's code. A malformed
//! vector file is a broken test environment, so these loaders panic with the record's path.

use std::path::PathBuf;
use std::sync::LazyLock;

use serde_json::Value;
use txfx_poseidon::Fr;
use txfx_poseidon::field::parse_fr;

/// The workspace's `testdata/` folder.
pub fn testdata_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("testdata")
}

/// Reads a file under `testdata/` as text.
pub fn read_testdata(relative: &str) -> String {
    let path = testdata_dir().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()))
}

fn load(relative: &str) -> Value {
    serde_json::from_str(&read_testdata(relative)).unwrap_or_else(|error| panic!("{relative}: {error}"))
}

static AZTEC_FIXTURES: LazyLock<Value> = LazyLock::new(|| load("aztec-fixtures.json"));
static REFERENCE: LazyLock<Value> = LazyLock::new(|| load("reference.json"));

/// `testdata/aztec-fixtures.json`: upstream and derived Aztec vectors.
pub fn aztec_fixtures() -> &'static Value {
    &AZTEC_FIXTURES
}

/// `testdata/reference.json`: vectors computed with `@aztec/foundation` 5.2.0 + `@aztec/bb.js` 5.0.0.
pub fn reference() -> &'static Value {
    &REFERENCE
}

/// The Poseidon2 vectors of one kind, each file naming them its own way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PoseidonVectors {
    /// `{input, output}`: four lanes in, four out.
    Permutation,
    /// `{inputs, output}`: the plain sponge hash.
    Hash,
    /// `{separator, inputs, output}`: the hash with a domain separator.
    HashWithSeparator,
}

/// Every record of one kind of Poseidon2 vector: the Aztec fixtures' first, then the reference's
/// (10 permutations, 25 hashes, 39 separator hashes).
pub fn poseidon_vectors(kind: PoseidonVectors) -> Vec<&'static Value> {
    let (fixtures, computed) = match kind {
        PoseidonVectors::Permutation => ("/poseidon2_permutation_vectors", "/poseidon2_permutation"),
        PoseidonVectors::Hash => ("/poseidon2_hash_vectors", "/poseidon2_hash"),
        PoseidonVectors::HashWithSeparator => {
            ("/poseidon2_hash_with_separator_vectors", "/poseidon2_hash_with_separator")
        }
    };
    array(aztec_fixtures(), fixtures).iter().chain(array(reference(), computed)).collect()
}

/// The value at a JSON pointer (`/a/0/b`), or a panic naming the pointer.
pub fn at<'v>(root: &'v Value, pointer: &str) -> &'v Value {
    root.pointer(pointer).unwrap_or_else(|| panic!("vector file has no {pointer}"))
}

/// The array at a JSON pointer.
pub fn array<'v>(root: &'v Value, pointer: &str) -> &'v [Value] {
    at(root, pointer).as_array().map(Vec::as_slice).unwrap_or_else(|| panic!("{pointer} is not an array"))
}

/// The array at a JSON pointer, which must hold at least `min` records (`what` names them in
/// the failure): a fixture file that lost records fails instead of checking fewer.
pub fn at_least<'v>(root: &'v Value, pointer: &str, min: usize, what: &str) -> &'v [Value] {
    let records = array(root, pointer);
    assert!(records.len() >= min, "{} {what}, fewer than {min}", records.len());
    records
}

/// A field element given as a `0x`-hex or decimal string, or as a JSON number.
pub fn fr(value: &Value) -> Fr {
    let text = match value {
        Value::String(text) => text.clone(),
        Value::Number(number) => number.to_string(),
        other => panic!("not a field element: {other}"),
    };
    parse_fr(&text).unwrap_or_else(|error| panic!("bad field element {text:?} in vectors: {error}"))
}

/// A list of field elements.
pub fn frs(value: &Value) -> Vec<Fr> {
    value.as_array().unwrap_or_else(|| panic!("not an array: {value}")).iter().map(fr).collect()
}

/// A non-negative integer.
pub fn uint(value: &Value) -> u64 {
    match value {
        Value::Number(number) => number.as_u64(),
        Value::String(text) => text.parse().ok(),
        _ => None,
    }
    .unwrap_or_else(|| panic!("not an unsigned integer: {value}"))
}

/// One tree record with every stored witness, from either vector file.
#[derive(Debug, Clone)]
pub struct TreeCase {
    /// Where the record came from, for failure messages.
    pub name: String,
    /// The leaves in order.
    pub leaves: Vec<Fr>,
    /// The expected root.
    pub root: Fr,
    /// The stored witnesses.
    pub witnesses: Vec<WitnessCase>,
}

/// One expected witness.
#[derive(Debug, Clone)]
pub struct WitnessCase {
    /// The tx's index in the block.
    pub tx_index: usize,
    /// The witness `leafIndex` (index of the leaf at its own level).
    pub leaf_index: u64,
    /// Siblings, lowest level first.
    pub sibling_path: Vec<Fr>,
}

/// Every tree record: `aztec-fixtures.json` synthetic trees (n = 0..8 and more), the three-tx block,
/// and all of `reference.json`'s `tx_effects_tree`.
pub fn tree_cases() -> Vec<TreeCase> {
    let fixtures = aztec_fixtures();
    let mut cases = Vec::new();
    for (i, case) in array(fixtures, "/tree_vectors/cases").iter().enumerate() {
        cases.push(TreeCase {
            name: format!("aztec-fixtures tree_vectors/cases/{i} (n = {})", uint(at(case, "/n"))),
            leaves: frs(at(case, "/leaves")),
            root: fr(at(case, "/root")),
            witnesses: case.get("witnesses").map(fixture_witnesses).unwrap_or_default(),
        });
    }
    let three = at(fixtures, "/three_tx_block");
    cases.push(TreeCase {
        name: "aztec-fixtures three_tx_block".to_owned(),
        leaves: frs(at(three, "/leaves")),
        root: fr(at(three, "/root")),
        witnesses: fixture_witnesses(at(three, "/witnesses")),
    });
    for case in array(reference(), "/tx_effects_tree") {
        let witnesses = array(case, "/witnesses")
            .iter()
            .map(|w| WitnessCase {
                tx_index: uint(at(w, "/leaf_index")) as usize,
                leaf_index: uint(at(w, "/index_at_depth")),
                sibling_path: frs(at(w, "/sibling_path")),
            })
            .collect::<Vec<_>>();
        for w in array(case, "/witnesses") {
            assert_eq!(uint(at(w, "/depth")) as usize, at(w, "/sibling_path").as_array().map_or(0, Vec::len));
        }
        cases.push(TreeCase {
            name: format!("reference tx_effects_tree {}", at(case, "/name")),
            leaves: frs(at(case, "/leaves")),
            root: fr(at(case, "/root")),
            witnesses,
        });
    }
    cases
}

fn fixture_witnesses(list: &Value) -> Vec<WitnessCase> {
    list.as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|w| {
            let path = frs(at(w, "/siblingPath"));
            assert_eq!(uint(at(w, "/depth")) as usize, path.len(), "fixture witness depth");
            WitnessCase {
                tx_index: uint(at(w, "/txIndexInBlock")) as usize,
                leaf_index: uint(at(w, "/leafIndex")),
                sibling_path: path,
            }
        })
        .collect()
}
