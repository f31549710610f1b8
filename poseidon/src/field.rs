//! The BN254 scalar field codec: canonical parsing and printing of field elements.
//!
//! Aztec's TypeScript `Fr` *rejects* values at or above the modulus p, while barretenberg's
//! `bb::fr(std::string)` silently reduces them (docs/spec.md §2.1). A value that arrives from another
//! machine and is not canonical is a malformed input, so every parser here follows TypeScript:
//! a value `>= p` is a [`FieldError::NotCanonical`], never reduced.
//!
//! The printed form is TypeScript's `Fr.toString()`: `0x` followed by 64 lowercase hex digits.

use alloc::string::String;

use ark_bn254::Fr;
use ark_ff::{BigInt, PrimeField};

/// The modulus p of the BN254 scalar field, as printed by [`fr_to_hex`].
pub const MODULUS_HEX: &str = "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001";

/// The longest hex number [`parse_fr`] accepts after `0x` (32 bytes).
pub const MAX_HEX_DIGITS: usize = 64;

/// The longest decimal number [`parse_fr`] accepts; p has 77 decimal digits, leading zeros aside.
pub const MAX_DECIMAL_DIGITS: usize = 78;

/// Why a string or byte string is not a canonical BN254 scalar field element.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FieldError {
    /// The input was empty, or `0x` with no digits.
    #[error("empty field element")]
    Empty,
    /// A character that is not a digit of the number's base.
    #[error("invalid {base} digit {character:?} at position {position}")]
    InvalidDigit {
        /// `"hex"` or `"decimal"`.
        base: &'static str,
        /// The offending character.
        character: char,
        /// Its byte position in the input string.
        position: usize,
    },
    /// More digits than a 32-byte field element can have.
    #[error("{digits} {base} digits, at most {max} allowed")]
    TooManyDigits {
        /// `"hex"` or `"decimal"`.
        base: &'static str,
        /// How many digits were given.
        digits: usize,
        /// How many are allowed.
        max: usize,
    },
    /// The value is at least the field modulus p; it is rejected rather than reduced.
    #[error("value is not below the field modulus {MODULUS_HEX}")]
    NotCanonical,
    /// A hex field element without its lower-case `0x` prefix (decimal, bare hex, or `0X`), where
    /// only `0x`-hex is accepted.
    #[error("missing 0x prefix: a 0x-hex field element is expected")]
    MissingHexPrefix,
    /// A byte string of the wrong length.
    #[error("expected {expected} bytes, got {actual}")]
    WrongLength {
        /// Bytes expected.
        expected: usize,
        /// Bytes given.
        actual: usize,
    },
}

/// Parses a field element from `0x`-prefixed hex (1 to 64 digits, either case) or from decimal.
///
/// # Errors
/// [`FieldError`] for an empty string, a bad digit, too many digits, or a value `>= p`.
///
/// # Example
/// ```
/// use txfx_poseidon::field::{fr_to_hex, parse_fr};
/// let x = parse_fr("0x2a")?;
/// assert_eq!(x, parse_fr("42")?);
/// assert_eq!(fr_to_hex(&x), format!("0x{:064x}", 42));
/// assert!(parse_fr("0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001").is_err());
/// # Ok::<(), txfx_poseidon::field::FieldError>(())
/// ```
pub fn parse_fr(text: &str) -> Result<Fr, FieldError> {
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(digits) => parse_hex_digits(digits, 2),
        None => parse_decimal_digits(text),
    }
}

/// Parses a field element from `0x`-prefixed hex only (the JSON form); decimal is refused.
///
/// # Errors
/// [`FieldError::MissingHexPrefix`] if the lower-case `0x` prefix is missing (a decimal number,
/// bare hex, `0X`), and everything [`parse_fr`] reports.
pub fn parse_fr_hex(text: &str) -> Result<Fr, FieldError> {
    match text.strip_prefix("0x") {
        Some(digits) => parse_hex_digits(digits, 2),
        None if text.is_empty() => Err(FieldError::Empty),
        None => Err(FieldError::MissingHexPrefix),
    }
}

/// Parses a field element as Aztec's TypeScript JSON schema for `Fr` does: `0x` followed by 1 to 64
/// hex digits of either case, or a string of decimal digits read as **decimal** (so `"10"` is ten,
/// as in `Fr.fromString`). Values `>= p` are refused, as TypeScript's `Fr` refuses them; `0X`, a
/// sign, spaces and hex without `0x` are refused too.
///
/// # Errors
/// [`FieldError`] for an empty string, a bad digit, too many digits, or a value `>= p`.
///
/// # Example
/// ```
/// use txfx_poseidon::field::parse_fr_json;
/// assert_eq!(parse_fr_json("0x2A")?, parse_fr_json("42")?);
/// assert!(parse_fr_json("2a").is_err());
/// # Ok::<(), txfx_poseidon::field::FieldError>(())
/// ```
pub fn parse_fr_json(text: &str) -> Result<Fr, FieldError> {
    match text.strip_prefix("0x") {
        Some(digits) => parse_hex_digits(digits, 2),
        None => parse_decimal_digits(text),
    }
}

/// Each byte's hex digit value, or [`NOT_HEX`]: the fast path's table.
#[allow(clippy::indexing_slicing, reason = "a const loop over the table's 256 entries")]
const HEX_VALUE: [u8; 256] = {
    let mut table = [NOT_HEX; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = match byte as u8 {
            digit @ b'0'..=b'9' => digit - b'0',
            letter @ b'a'..=b'f' => letter - b'a' + 10,
            letter @ b'A'..=b'F' => letter - b'A' + 10,
            _ => NOT_HEX,
        };
        byte += 1;
    }
    table
};
const NOT_HEX: u8 = 0xff;

fn parse_hex_digits(digits: &str, offset: usize) -> Result<Fr, FieldError> {
    if digits.is_empty() {
        return Err(FieldError::Empty);
    }
    match hex_limbs(digits) {
        Some(limbs) => from_limbs(limbs),
        None => hex_by_character(digits, offset),
    }
}

/// The common case, read a byte at a time: at most 64 ASCII hex digits, sixteen to a limb from the
/// right. `None` for anything else (a bad digit, a non-ASCII character, too many digits), which
/// [`hex_by_character`] reads to name the problem; for valid text both give the same limbs.
fn hex_limbs(digits: &str) -> Option<[u64; 4]> {
    if digits.len() > MAX_HEX_DIGITS {
        return None;
    }
    let mut limbs = [0u64; 4];
    let mut seen = 0u8;
    for (limb, chunk) in limbs.iter_mut().zip(digits.as_bytes().rchunks(16)) {
        *limb = chunk.iter().fold(0u64, |acc, &byte| {
            let value = HEX_VALUE.get(usize::from(byte)).copied().unwrap_or(NOT_HEX);
            seen |= value;
            (acc << 4) | u64::from(value & 0xf)
        });
    }
    (seen & 0xf0 == 0).then_some(limbs)
}

/// Hex digits read a character at a time: the error names the first bad character, with its
/// position counted from `offset`, before the length is checked.
fn hex_by_character(digits: &str, offset: usize) -> Result<Fr, FieldError> {
    let mut limbs = [0u64; 4];
    let count = digits.len();
    for (position, character) in digits.char_indices() {
        let value = character.to_digit(16).ok_or(FieldError::InvalidDigit {
            base: "hex",
            character,
            position: position + offset,
        })?;
        if count > MAX_HEX_DIGITS {
            continue;
        }
        // Digit `position` from the left has weight 16^(count - 1 - position).
        let nibble = count - 1 - position;
        if let Some(limb) = limbs.get_mut(nibble / 16) {
            *limb |= u64::from(value) << (4 * (nibble % 16));
        }
    }
    if count > MAX_HEX_DIGITS {
        return Err(FieldError::TooManyDigits { base: "hex", digits: count, max: MAX_HEX_DIGITS });
    }
    from_limbs(limbs)
}

fn parse_decimal_digits(digits: &str) -> Result<Fr, FieldError> {
    if digits.is_empty() {
        return Err(FieldError::Empty);
    }
    let mut limbs = [0u64; 4];
    let mut overflow = false;
    for (position, character) in digits.char_indices() {
        let value = character.to_digit(10).ok_or(FieldError::InvalidDigit {
            base: "decimal",
            character,
            position,
        })?;
        // limbs = limbs * 10 + value, with the carry out of the top limb remembered as overflow.
        let mut carry = u128::from(value);
        for limb in &mut limbs {
            let wide = u128::from(*limb) * 10 + carry;
            *limb = wide as u64;
            carry = wide >> 64;
        }
        overflow |= carry != 0;
    }
    if digits.len() > MAX_DECIMAL_DIGITS {
        return Err(FieldError::TooManyDigits {
            base: "decimal",
            digits: digits.len(),
            max: MAX_DECIMAL_DIGITS,
        });
    }
    if overflow {
        return Err(FieldError::NotCanonical);
    }
    from_limbs(limbs)
}

fn from_limbs(limbs: [u64; 4]) -> Result<Fr, FieldError> {
    if BigInt::new(limbs) >= Fr::MODULUS {
        return Err(FieldError::NotCanonical);
    }
    Ok(crate::montgomery::fr_from_canonical(&limbs))
}

/// Reads a field element from 32 big-endian bytes (TypeScript `Fr.fromBuffer`).
///
/// # Errors
/// [`FieldError::NotCanonical`] if the value is `>= p`.
pub fn fr_from_be_bytes(bytes: &[u8; 32]) -> Result<Fr, FieldError> {
    let mut limbs = [0u64; 4];
    for (limb, chunk) in limbs.iter_mut().rev().zip(bytes.chunks_exact(8)) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        *limb = u64::from_be_bytes(word);
    }
    from_limbs(limbs)
}

/// Reads a field element from a big-endian byte slice that must be exactly 32 bytes long.
///
/// # Errors
/// [`FieldError::WrongLength`] for any other length, [`FieldError::NotCanonical`] for `>= p`.
pub fn fr_from_be_slice(bytes: &[u8]) -> Result<Fr, FieldError> {
    let array: &[u8; 32] =
        bytes.try_into().map_err(|_| FieldError::WrongLength { expected: 32, actual: bytes.len() })?;
    fr_from_be_bytes(array)
}

/// The 32 big-endian bytes of a field element (TypeScript `Fr.toBuffer`).
pub fn fr_to_be_bytes(value: &Fr) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (chunk, limb) in out.chunks_exact_mut(8).zip(crate::montgomery::canonical_of_fr(value).iter().rev()) {
        chunk.copy_from_slice(&limb.to_be_bytes());
    }
    out
}

/// `0x` followed by 64 lowercase hex digits (TypeScript `Fr.toString`).
///
/// Written into a byte array rather than through `format!` or a `char` at a time, whose machinery
/// costs more than the conversion itself where a hash is one call (the per-call hashes of the
/// addon and the WASM build).
pub fn fr_to_hex(value: &Fr) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = [b'0'; 66];
    let (prefix, digits) = text.split_at_mut(2);
    prefix.copy_from_slice(b"0x");
    for (chunk, limb) in
        digits.chunks_exact_mut(16).zip(crate::montgomery::canonical_of_fr(value).iter().rev())
    {
        for (shift, out) in (0..16).rev().zip(chunk.iter_mut()) {
            *out = DIGITS.get(((limb >> (4 * shift)) & 0xf) as usize).copied().unwrap_or(b'0');
        }
    }
    // ASCII throughout, so this is never lossy: it borrows, and `into_owned` copies once.
    String::from_utf8_lossy(&text).into_owned()
}

/// Unsigned integers packed into one field element as big-endian bit fields, most significant
/// first: the layout of every marker Aztec puts in a blob (the tx start marker, the block-end
/// marker and state field, the checkpoint-end marker) and of an Ethereum address as a field.
///
/// `pack(&[(a, 32), (b, 16)])` is `a·2^16 + b`. Each value must fit its width (at most 64 bits,
/// 0 allowed) and the widths together at most 253 bits, so that the packing is an integer below p
/// and unpacking gives the values back exactly.
///
/// ```
/// use txfx_poseidon::field::{bits, fr_to_hex};
/// let packed = bits::pack(&[(0x9c70_7518, 32), (3, 16)])?;
/// assert_eq!(fr_to_hex(&packed), format!("0x{:064x}", 0x9c70_7518_0003u64));
/// assert_eq!(bits::unpack(&packed, [32, 16]), Some([0x9c70_7518, 3]));
/// assert!(bits::pack(&[(1 << 16, 16)]).is_err()); // never spills into a neighbour
/// # Ok::<(), bits::BitsError>(())
/// ```
pub mod bits {
    use ark_bn254::Fr;
    use ark_ff::{BigInt, PrimeField};

    /// The most bits one packing may use: below p's 254, so every packing is canonical.
    pub const MAX_BITS: u32 = 253;

    /// Values that cannot be packed.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
    #[non_exhaustive]
    pub enum BitsError {
        /// A value does not fit its width (or the width is over 64).
        #[error("bit field {index}: {value} does not fit in {width} bits")]
        TooWide {
            /// The field's position, most significant first.
            index: usize,
            /// The value.
            value: u64,
            /// Its width.
            width: u32,
        },
        /// The widths add up to more than [`MAX_BITS`].
        #[error("{bits} bits of fields, a field element holds at most {MAX_BITS}")]
        TooManyBits {
            /// The widths' sum.
            bits: u32,
        },
    }

    fn fits(value: u64, width: u32) -> bool {
        width <= 64 && (width == 64 || value >> width == 0)
    }

    /// Shifts the 256-bit little-endian `limbs` left by `width` (at most 64) and adds `value`.
    fn push(limbs: &mut [u64; 4], value: u64, width: u32) {
        if width == 0 {
            return;
        }
        let mut carry = value;
        for limb in limbs.iter_mut() {
            let wide = (u128::from(*limb) << width) | u128::from(carry);
            *limb = wide as u64;
            carry = (wide >> 64) as u64;
        }
    }

    /// Packs `(value, width)` pairs, most significant first.
    ///
    /// # Errors
    /// [`BitsError::TooWide`] for a value that does not fit its width, [`BitsError::TooManyBits`]
    /// for widths over 253 bits in all.
    pub fn pack(fields: &[(u64, u32)]) -> Result<Fr, BitsError> {
        let bits = fields.iter().map(|(_, width)| *width).fold(0u32, u32::saturating_add);
        if bits > MAX_BITS {
            return Err(BitsError::TooManyBits { bits });
        }
        let mut limbs = [0u64; 4];
        for (index, &(value, width)) in fields.iter().enumerate() {
            if !fits(value, width) {
                return Err(BitsError::TooWide { index, value, width });
            }
            push(&mut limbs, value, width);
        }
        Fr::from_bigint(BigInt::new(limbs)).ok_or(BitsError::TooManyBits { bits })
    }

    /// The values of a field packed with these widths, most significant first; `None` if the
    /// field has a bit set above them, or a width is over 64.
    pub fn unpack<const N: usize>(field: &Fr, widths: [u32; N]) -> Option<[u64; N]> {
        let mut limbs = field.into_bigint().0;
        let mut values = [0u64; N];
        for (value, width) in values.iter_mut().zip(widths).rev() {
            if width > 64 {
                return None;
            }
            if width == 0 {
                continue;
            }
            *value = if width == 64 { limbs[0] } else { limbs[0] & ((1u64 << width) - 1) };
            // Shift the 256-bit value right by `width` (1 to 64): each limb takes the low bits
            // of the next one, read before that one is shifted in turn.
            for i in 0..4 {
                let high = limbs.get(i + 1).copied().unwrap_or(0);
                if let Some(limb) = limbs.get_mut(i) {
                    *limb = if width == 64 { high } else { (*limb >> width) | (high << (64 - width)) };
                }
            }
        }
        (limbs == [0; 4]).then_some(values)
    }
}

/// Serde support for field elements in Aztec's JSON, for `#[serde(with = ...)]`.
///
/// Serialization prints [`fr_to_hex`]; deserialization is [`parse_fr_json`], TypeScript's rule
/// (`0x`-hex or a decimal string), so a value `>= p` or a JSON number is an error rather than a
/// silently different element.
#[cfg(feature = "serde")]
pub mod serde_hex {
    use alloc::borrow::Cow;
    use alloc::format;

    use super::{Fr, fr_to_hex, parse_fr_json};
    use serde::{Deserialize, Deserializer, Serializer};

    /// Serializes one field element as a `0x`-hex string.
    ///
    /// # Errors
    /// Whatever the serializer reports.
    pub fn serialize<S: Serializer>(value: &Fr, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&fr_to_hex(value))
    }

    /// Deserializes one field element from a `0x`-hex or decimal string.
    ///
    /// # Errors
    /// A non-string, a string [`parse_fr_json`] refuses, or a value `>= p`.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Fr, D::Error> {
        let text = <Cow<'de, str>>::deserialize(deserializer)?;
        parse_fr_json(&text).map_err(|error| serde::de::Error::custom(format!("{text:?}: {error}")))
    }

    /// Serde support for `Option<Fr>`: an absent key (with `#[serde(default)]`) is `None`, a
    /// present one must be a field element. JSON `null` is refused: TypeScript's schemas have no
    /// nullable field element, so `null` is a malformed value, never "absent".
    pub mod option {
        use super::{Fr, fr_to_hex};
        use serde::{Deserializer, Serializer};

        /// Serializes `Some` as a `0x`-hex string, `None` as nothing (use with
        /// `skip_serializing_if = "Option::is_none"`).
        ///
        /// # Errors
        /// Whatever the serializer reports.
        pub fn serialize<S: Serializer>(value: &Option<Fr>, serializer: S) -> Result<S::Ok, S::Error> {
            match value {
                Some(value) => serializer.serialize_str(&fr_to_hex(value)),
                None => serializer.serialize_none(),
            }
        }

        /// Deserializes a present field element.
        ///
        /// # Errors
        /// As [`super::deserialize`].
        pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Fr>, D::Error> {
            super::deserialize(deserializer).map(Some)
        }
    }

    /// Serde support for `Vec<Fr>` as an array of `0x`-hex strings.
    pub mod vec {
        use alloc::borrow::Cow;
        use alloc::format;
        use alloc::vec::Vec;

        use super::{Fr, fr_to_hex, parse_fr_json};
        use serde::de::{SeqAccess, Visitor};
        use serde::ser::SerializeSeq;
        use serde::{Deserializer, Serializer};

        /// Serializes a list of field elements.
        ///
        /// # Errors
        /// Whatever the serializer reports.
        pub fn serialize<S: Serializer>(values: &[Fr], serializer: S) -> Result<S::Ok, S::Error> {
            let mut seq = serializer.serialize_seq(Some(values.len()))?;
            for value in values {
                seq.serialize_element(&fr_to_hex(value))?;
            }
            seq.end()
        }

        /// Deserializes a list of field elements; the error names the index of a bad element.
        ///
        /// # Errors
        /// A non-array, or any element [`parse_fr_json`] rejects.
        pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Fr>, D::Error> {
            deserialize_at_most(deserializer, usize::MAX)
        }

        /// [`deserialize`] for a list that may hold at most `max` elements: reading stops at the
        /// first element past the cap, so a hostile input never costs more than `max` elements
        /// of work and memory.
        ///
        /// # Errors
        /// A non-array, an element [`parse_fr_json`] rejects, or more than `max` elements.
        pub fn deserialize_at_most<'de, D: Deserializer<'de>>(
            deserializer: D,
            max: usize,
        ) -> Result<Vec<Fr>, D::Error> {
            struct FieldList {
                max: usize,
            }
            impl<'de> Visitor<'de> for FieldList {
                type Value = Vec<Fr>;
                fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    f.write_str("an array of field elements (0x-hex or decimal strings)")
                }
                fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Fr>, A::Error> {
                    // Never trust a size hint from the input for the allocation.
                    let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096).min(self.max));
                    while let Some(text) = seq.next_element::<Cow<'de, str>>()? {
                        if out.len() == self.max {
                            return Err(serde::de::Error::custom(format!(
                                "more than {} field elements, the most this list can hold",
                                self.max
                            )));
                        }
                        let value = parse_fr_json(&text).map_err(|error| {
                            serde::de::Error::custom(format!("element {}: {text:?}: {error}", out.len()))
                        })?;
                        out.push(value);
                    }
                    Ok(out)
                }
            }
            deserializer.deserialize_seq(FieldList { max })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use ark_ff::BigInteger;

    #[test]
    fn hex_and_decimal_agree_and_print_canonically() {
        let from_hex = parse_fr("0x1234").unwrap();
        let from_dec = parse_fr("4660").unwrap();
        assert_eq!(from_hex, from_dec);
        assert_eq!(fr_to_hex(&from_hex), format!("0x{:064x}", 0x1234));
        assert_eq!(parse_fr("0X00FF"), parse_fr("255"));
    }

    #[test]
    fn printing_and_bytes_agree_with_ark_ffs_integer() {
        let mut rng = crate::test_rng::SplitMix64(0x0ddba11);
        let mut values = alloc::vec![Fr::from(0u64), Fr::from(1u64), -Fr::from(1u64), -Fr::from(2u64)];
        values.extend(
            (0..500).map(|_| Fr::from(rng.next_u64()) * Fr::from(rng.next_u64()) + Fr::from(rng.next_u64())),
        );
        for x in values {
            let limbs = x.into_bigint().0;
            let hex = format!("0x{:016x}{:016x}{:016x}{:016x}", limbs[3], limbs[2], limbs[1], limbs[0]);
            assert_eq!(fr_to_hex(&x), hex);
            assert_eq!(fr_to_be_bytes(&x).as_slice(), x.into_bigint().to_bytes_be().as_slice());
            assert_eq!(parse_fr_hex(&hex), Ok(x));
            assert_eq!(fr_from_be_bytes(&fr_to_be_bytes(&x)), Ok(x));
        }
    }

    #[test]
    fn the_modulus_and_above_are_rejected_not_reduced() {
        assert_eq!(parse_fr(MODULUS_HEX), Err(FieldError::NotCanonical));
        let p_dec = "21888242871839275222246405745257275088548364400416034343698204186575808495617";
        assert_eq!(parse_fr(p_dec), Err(FieldError::NotCanonical));
        let p_minus_one = "21888242871839275222246405745257275088548364400416034343698204186575808495616";
        let max = parse_fr(p_minus_one).map(|x| fr_to_hex(&x));
        assert_eq!(max.as_deref(), Ok("0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000000"));
        assert_eq!(parse_fr(&format!("0x{}", "f".repeat(64))), Err(FieldError::NotCanonical));
        // 2^256 overflows the four limbs: it must not wrap around to a small value.
        let two_pow_256 = "115792089237316195423570985008687907853269984665640564039457584007913129639936";
        assert_eq!(parse_fr(two_pow_256), Err(FieldError::NotCanonical));
        let mut bytes = [0xffu8; 32];
        assert_eq!(fr_from_be_bytes(&bytes), Err(FieldError::NotCanonical));
        bytes[0] = 0x30;
        bytes[1] = 0x64;
        bytes[2] = 0x4d;
        assert!(fr_from_be_bytes(&bytes).is_ok());
    }

    #[test]
    fn malformed_strings_name_the_problem() {
        assert_eq!(parse_fr(""), Err(FieldError::Empty));
        assert_eq!(parse_fr("0x"), Err(FieldError::Empty));
        assert_eq!(
            parse_fr("0x12g4"),
            Err(FieldError::InvalidDigit { base: "hex", character: 'g', position: 4 })
        );
        assert_eq!(
            parse_fr("12a"),
            Err(FieldError::InvalidDigit { base: "decimal", character: 'a', position: 2 })
        );
        assert_eq!(
            parse_fr("-1"),
            Err(FieldError::InvalidDigit { base: "decimal", character: '-', position: 0 })
        );
        assert_eq!(
            parse_fr(&format!("0x{}", "0".repeat(65))),
            Err(FieldError::TooManyDigits { base: "hex", digits: 65, max: 64 })
        );
        assert_eq!(
            parse_fr(&"0".repeat(79)),
            Err(FieldError::TooManyDigits { base: "decimal", digits: 79, max: 78 })
        );
        assert_eq!(parse_fr_hex("42"), Err(FieldError::MissingHexPrefix));
        assert_eq!(parse_fr_hex("0X2a"), Err(FieldError::MissingHexPrefix));
        assert_eq!(parse_fr_hex("2a"), Err(FieldError::MissingHexPrefix));
        assert_eq!(fr_from_be_slice(&[0u8; 31]), Err(FieldError::WrongLength { expected: 32, actual: 31 }));
    }

    #[test]
    fn the_byte_path_reads_hex_as_the_character_path_does() {
        // Random strings over hex digits of both cases and characters that are not hex digits,
        // ASCII or not (a digit of another script, one that is two bytes in UTF-8), of every
        // length around the limit.
        const ALPHABET: [char; 26] = [
            '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f', 'A', 'B', 'C',
            'D', 'E', 'F', 'g', ',', '\u{0663}', '\u{0130}',
        ];
        let mut rng = crate::test_rng::SplitMix64(0x4e7_d161);
        let (mut read, mut refused) = (0, 0);
        for round in 0..20_000 {
            let length = 1 + (rng.next_u64() % 70) as usize;
            // Half of the strings hold hex digits only, so that both outcomes are common.
            let letters = if round % 2 == 0 { 22 } else { ALPHABET.len() };
            let text: alloc::string::String =
                (0..length).map(|_| ALPHABET[(rng.next_u64() % letters as u64) as usize]).collect();
            match hex_limbs(&text) {
                Some(limbs) => {
                    read += 1;
                    assert_eq!(from_limbs(limbs), hex_by_character(&text, 2), "{text}");
                }
                None => {
                    refused += 1;
                    assert!(hex_by_character(&text, 2).is_err(), "{text}");
                }
            }
        }
        assert!(read > 5_000 && refused > 5_000, "{read} read, {refused} refused");
    }

    #[test]
    fn bytes_round_trip_big_endian() {
        let value = parse_fr("0x0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20").unwrap();
        let bytes = fr_to_be_bytes(&value);
        assert_eq!(bytes[0], 0x01);
        assert_eq!(bytes[31], 0x20);
        assert_eq!(fr_from_be_bytes(&bytes), Ok(value));
    }
}
