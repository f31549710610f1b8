//! Field elements as the JSON formats write them: the readers every format shares.

use txfx_poseidon::Fr;
use txfx_poseidon::field::{parse_fr_hex, parse_fr_json};

use super::error::JsonError;
use super::wire::Raw;

/// A field element as TypeScript's `Fr` schema reads it: a string of `0x`-hex or decimal digits.
pub(crate) fn field(raw: Raw<'_>) -> Result<Fr, JsonError> {
    let text = raw.string()?;
    parse_fr_json(&text).map_err(|source| JsonError::Field { path: String::new(), source })
}

/// A field element as `0x`-hex only.
pub(crate) fn hex_field(raw: Raw<'_>) -> Result<Fr, JsonError> {
    let text = raw.string()?;
    parse_fr_hex(&text).map_err(|source| JsonError::Field { path: String::new(), source })
}

/// A JSON array of field elements (`0x`-hex or decimal strings), at most `max` of them (`what`
/// names the list), read no further; each bad element is named by its index.
pub(crate) fn fields(raw: Raw<'_>, max: usize, what: &'static str) -> Result<Vec<Fr>, JsonError> {
    raw.items(max, what, field)
}
