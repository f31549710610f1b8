//! Field elements as the engines pass them: one element's text, a list of them joined by `,`
//! with its count, and the Poseidon2 calls over them.

use txfx_documents::classify::{Classify, ErrorClass};
use txfx_poseidon::field::{fr_to_hex, parse_fr_json};
use txfx_poseidon::{DomainSeparator, Fr, State};
use txfx_tx_effects::BlockNumber;

use crate::*;

/// A field element the caller gave: `0x`-hex, or decimal digits read as decimal (as foundation's
/// `Fr.fromString` and Aztec's JSON schemas read them), never reduced mod p. The JavaScript side
/// passes strings on as they are and writes a `bigint` or a number in decimal, so every rule of a
/// field element's text (its digits, their count, its range) is this parser's alone.
pub(crate) fn field(what: &str, text: &str) -> Result<Fr> {
    parse_fr_json(text).map_err(|e| Thrown::new(e.class(), &e.kind(), &format!("{what}: {e}")))
}

/// Each element parsed; the failure names `what[i]`, formatted only when there is one (a
/// per-call hash pays for no text it does not print).
pub(crate) fn fields<S: AsRef<str>>(what: &str, texts: &[S]) -> Result<Vec<Fr>> {
    texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            parse_fr_json(text.as_ref())
                .map_err(|e| Thrown::new(e.class(), &e.kind(), &format!("{what}[{i}]: {e}")))
        })
        .collect()
}

pub(crate) fn block_number(given: Option<u32>) -> Option<BlockNumber> {
    given.map(BlockNumber::new)
}

/// The Poseidon2 permutation of a 4-element state.
///
/// # Errors
/// A state that is not 4 field elements.
pub fn poseidon2_permutation<S: AsRef<str>>(state: &[S]) -> Result<Vec<String>> {
    let values = fields("state", state)?;
    let mut state: State = values.try_into().map_err(|values: Vec<Fr>| {
        Thrown::new(
            ErrorClass::OutOfRange,
            "StateLength",
            &format!("state: 4 elements, not {}", values.len()),
        )
    })?;
    txfx_poseidon::permute(&mut state);
    Ok(state.iter().map(fr_to_hex).collect())
}

/// Aztec's `poseidon2Hash`: the sponge over `inputs`.
///
/// # Errors
/// An input that is not a field element.
pub fn poseidon2_hash<S: AsRef<str>>(inputs: &[S]) -> Result<String> {
    Ok(fr_to_hex(&txfx_poseidon::poseidon2_hash(&fields("inputs", inputs)?)))
}

/// Aztec's `poseidon2HashWithSeparator`: the separator first, then `inputs`.
///
/// # Errors
/// An input that is not a field element.
pub fn poseidon2_hash_with_separator<S: AsRef<str>>(inputs: &[S], separator: u32) -> Result<String> {
    let inputs = fields("inputs", inputs)?;
    Ok(fr_to_hex(&txfx_poseidon::poseidon2_hash_with_separator(&inputs, DomainSeparator::new(separator))))
}

/// A list of field elements as the engines take it: `joined`, the elements joined by `,`, and
/// their `count`. No field element holds a `,`, so a list splits back into exactly `count`
/// elements unless one of them held one, which is refused (kind `InvalidDigit`, as a `,` in one
/// element read alone is): the count keeps `["0x1,0x2"]` from passing for two elements.
///
/// # Errors
/// A split that does not give `count` elements.
pub fn split_fields<'a>(what: &str, joined: &'a str, count: u32) -> Result<Vec<&'a str>> {
    // At most one element more than the count is split off: enough to refuse a list with too
    // many, without first collecting every piece of a text that holds many commas.
    let count = count as usize;
    let texts: Vec<&str> = if count == 0 && joined.is_empty() {
        Vec::new()
    } else {
        joined.split(',').take(count.saturating_add(1)).collect()
    };
    if texts.len() == count {
        return Ok(texts);
    }
    let why = if texts.len() > count {
        "into more: an element holds ',', which is not a hex digit"
    } else {
        "into fewer"
    };
    Err(Thrown::new(
        ErrorClass::Malformed,
        "InvalidDigit",
        &format!("{what}: {count} elements given, but their text splits at ',' {why}"),
    ))
}

/// [`poseidon2_permutation`] over a list as the engines take it ([`split_fields`]): the four
/// outputs back to back, 66 characters each (`fr_to_hex` writes every element at that width).
///
/// # Errors
/// A list that does not split into its count, or a state that is not 4 field elements.
pub fn poseidon2_permutation_joined(joined: &str, count: u32) -> Result<String> {
    Ok(poseidon2_permutation(&split_fields("state", joined, count)?)?.concat())
}

/// [`poseidon2_hash`] over a list as the engines take it ([`split_fields`]).
///
/// # Errors
/// A list that does not split into its count, or an input that is not a field element.
pub fn poseidon2_hash_joined(joined: &str, count: u32) -> Result<String> {
    poseidon2_hash(&split_fields("inputs", joined, count)?)
}

/// [`poseidon2_hash_with_separator`] over a list as the engines take it ([`split_fields`]).
///
/// # Errors
/// A list that does not split into its count, or an input that is not a field element.
pub fn poseidon2_hash_with_separator_joined(joined: &str, count: u32, separator: u32) -> Result<String> {
    poseidon2_hash_with_separator(&split_fields("inputs", joined, count)?, separator)
}

/// A field element in its canonical `0x`-hex form (64 digits), read as `field` reads every field
/// element: for the places where a document or a selector takes hex alone (an expectation's
/// hashes, a tx hash that must not read as an index), so that the JavaScript side converts no
/// decimal digits itself.
///
/// # Errors
/// Text that is not a field element.
pub fn field_hex(what: &str, text: &str) -> Result<String> {
    Ok(fr_to_hex(&field(what, text)?))
}
