//! The permutation on nine 29-bit limbs from entry to exit: wasm32's (the WASM guest and the npm
//! package's WASM engine), compiled on every target under `cfg(test)` and tested there against
//! the portable permutation.
//!
//! wasm32 has 64-bit integers but no 64×64→128-bit product, so `montgomery`'s 64-bit-limb
//! product is a software routine there. Nine 29-bit limbs in 64-bit words need only 64-bit
//! multiplies and adds (limb products below 2^58, carries deferred; `montgomery::mul_29`). Before
//! this module every product split its operands into such limbs and joined the result back;
//! here the state stays in limbs for the whole permutation, converted once at entry and once at
//! exit.
//!
//! **Radix.** Values are held in Montgomery form with radix `2^261` (nine limbs of 29 bits), not
//! `R = 2^256`: `x` is held as `x·2^261 mod p`, and [`mul`] returns `a·b·2^-261`, which is again
//! in that form. The two radixes differ by `2^5`, so neither conversion needs a product: entry
//! shifts the coarse value left by 5 bits (`x·R·2^5 = x·2^261`) and reduces it ([`enter`]), exit
//! divides by `2^5` exactly, after adding the multiple of `p` below `32p` that makes the value
//! divisible ([`leave`]). The round constants and the diagonal are converted at compile time by
//! the same function. (Before, each conversion was a product with `2^266 mod p` or `2^256 mod p`:
//! eight per permutation against its 488. The alternative, keeping radix `R` and shifting one
//! operand by 5 bits per product as `mul_29` does, costs a shift per product and keeps the looser
//! bound below.)
//!
//! **Bounds.** With `p/2^261 < 0.006`, a product of values `a, b` is below `a·b/2^261 + p`, i.e.
//! below `(1 + 0.006·(a/p)·(b/p))·p`: much tighter than the radix-`R` product (`0.19` there in
//! place of `0.006`). So the S-box takes inputs up to `20p` and still returns below `1.13p`
//! (`20²·0.006 + 1 < 3.4`, `3.4²·0.006 + 1 < 1.07`, `20·1.07·0.006 + 1 < 1.13`), and the
//! additions need no reduction at all except the partial round's sum (below). Limbs, not values,
//! bound the additions: a product's word collects nine limb products `a_i·b_j` and nine
//! reduction terms `m·p_j`, so one operand's limbs may reach `2^30` and the other's `2^29`
//! ([`LIMB_BOUND_WIDE`]); a square wants both below `2^29`. Additions therefore add limb by
//! limb (no carries) and [`normalise`] (one carry pass, value unchanged) runs only where a
//! product needs it: before each S-box.
//!
//! - Full round: `x + c` (limbs below `2^33 + 2^29`, value below `18.1p + 1.03p < 20p`; entry
//!   and the compile-time conversions give values below `1.001p`), normalised, the
//!   S-box (below `1.13p`, normalised), then `M_E` by additions and shifts: coefficients sum to
//!   at most 16, so limbs below `2^33` and values below `16·1.13p < 18.1p`.
//! - Partial round: lane 0 as above. Lanes 1..3 enter a product with `d_i` (below `p`) as they
//!   are (limbs below `2^30`, or normalised after the fourth full round): below `1.11p`. The sum
//!   of the four lanes has limbs below `2^32` but its value would grow threefold per round, so
//!   [`reduce`] brings it below `1.001p` (one multiple of `p` subtracted, estimated from the top
//!   limb). Each output, product plus sum, has limbs below `2^30` and value below `2.12p`.
//! - Exit: normalised (value below `18.1p`), plus `k·p` for the `k < 32` that makes it a
//!   multiple of 32, divided by 32: below `(18.1 + 31)p/32 < 1.6p`, a coarse value in `[0, 2p)`
//!   as [`super::permute_lanes`] promises. The coarse representative
//!   may differ from the portable permutation's (both are the same field element; every caller
//!   reduces with `to_fr` or adds coarse values).

use super::{DIAGONAL, FULL_ROUNDS, Lanes, PARTIAL_ROUNDS, RC, WIDTH};
#[cfg(test)]
use crate::montgomery::row_29;
use crate::montgomery::{Coarse, INV, LIMB_BITS_29, MASK_29, P, join_29, reduce_low_29, split_29};

/// A value as nine little-endian 29-bit limbs in 64-bit words, radix `2^261` Montgomery form.
/// "Normalised": limbs 0..7 below `2^29`, limb 8 holding the rest.
pub(crate) type Limbs = [u64; 9];

/// `p` in limbs.
const P29: Limbs = split_29(&widen(P));
/// `-p⁻¹ mod 2^29`: `-p⁻¹ mod 2^64` truncated.
#[cfg(test)]
const INV29: u64 = INV & MASK_29;

/// Limbs of a normalised value (0..7; the top limb of a value below `20p` is smaller still).
const LIMB_BOUND: u128 = 1 << LIMB_BITS_29;
/// Limbs of the wider operand of a product (the other's below [`LIMB_BOUND`]).
const LIMB_BOUND_WIDE: u128 = 1 << 30;
// A product's accumulator word: nine rounds of a_j·b_i + m·p_j, plus a carry below 2^35.
const _: () = assert!(9 * (LIMB_BOUND_WIDE * LIMB_BOUND + LIMB_BOUND * LIMB_BOUND) + (1 << 35) < 1 << 64);
// A square's (and product-then-reduce's) wide word: at most nine limb products below 2^58, then
// nine reduction terms m·p_j below 2^58, and a carry.
const _: () = assert!(18 * LIMB_BOUND * LIMB_BOUND + (1 << 36) < 1 << 64);
// A product's wide word ([`mul_inline`]): nine limb products of a wide and a normalised limb,
// nine reduction terms and a carry, below 2^63 as `montgomery::reduce_low_29` takes it.
const _: () = assert!(9 * LIMB_BOUND_WIDE * LIMB_BOUND + 9 * LIMB_BOUND * LIMB_BOUND + (1 << 36) < 1 << 63);
// p/2^261 < 0.006, the factor in every product bound above (p < (P[3] + 1)·2^192).
const _: () = assert!((P[3] as u128 + 1) * 1000 < 6 << 69);

const fn widen(a: Coarse) -> [u64; 5] {
    [a[0], a[1], a[2], a[3], 0]
}

/// The bits between the radixes: `2^261 = 2^256 · 2^RADIX_SHIFT`.
const RADIX_SHIFT: u32 = 261 - 256;

/// One carry pass: limbs 0..7 below `2^29`, the same value.
#[allow(
    clippy::indexing_slicing,
    reason = "const loops over fixed-size limb arrays, every index below the length; iterators are not const"
)]
#[inline(always)]
pub(crate) const fn normalise(mut l: Limbs) -> Limbs {
    let mut j = 0;
    while j < 8 {
        l[j + 1] += l[j] >> LIMB_BITS_29;
        l[j] &= MASK_29;
        j += 1;
    }
    l
}

/// Montgomery product `a·b·2^-261`, normalised, below `a·b/2^261 + p`. One operand's limbs
/// below `2^30`, the other's below `2^29` (checked in debug builds). Out of line on wasm32 (the
/// diagonal's products, entry and exit); [`sbox`] inlines [`mul_inline`].
#[cfg_attr(target_arch = "wasm32", inline(never))]
pub(crate) const fn mul(a: &Limbs, b: &Limbs) -> Limbs {
    mul_inline(a, b)
}

/// [`mul`], inlined: the 17-word product from 54 limb products instead of 81, then
/// [`reduce_wide`]. The limbs are three blocks of three, `A = A₀ + A₁·2^87 + A₂·2^174`, and
/// each pair of blocks takes Karatsuba's identity, `A_iB_j + A_jB_i = (A_i + A_j)(B_i + B_j) −
/// A_iB_i − A_jB_j`: six block products of nine limb products each. With the reduction's 72,
/// 126 `i64.mul` a product instead of 153; wasm32's products are bound by the one port that
/// multiplies. In V8 the permutation took 22.3 µs against 25.0 µs with the schoolbook rows
/// interleaved with the reduction ([`mul_rows`], before December 2026's seventh day), in one
/// run on the Intel Xeon (BENCHMARKS.md, design: wasm-karatsuba).
///
/// Exact in 64-bit words: a block sum's limbs are below `2^31` and `2^30` (one operand's limbs
/// below `2^30`, the other's below `2^29`), so a block product's word (at most three limb
/// products) is below `3·2^61`, and [`join_blocks`] leaves each word of the schoolbook product.
/// The same integer product as [`mul_then_reduce`], so the same result limb for limb.
#[inline(always)]
pub(crate) const fn mul_inline(a: &Limbs, b: &Limbs) -> Limbs {
    debug_assert!(limbs_below(a, 30) && limbs_below(b, 29) || limbs_below(a, 29) && limbs_below(b, 30));
    let [a0, a1, a2] = blocks(a);
    let [b0, b1, b2] = blocks(b);
    let p00 = block_product(&a0, &b0);
    let p11 = block_product(&a1, &b1);
    let p22 = block_product(&a2, &b2);
    let s01 = block_product(&block_sum(&a0, &a1), &block_sum(&b0, &b1));
    let s02 = block_product(&block_sum(&a0, &a2), &block_sum(&b0, &b2));
    let s12 = block_product(&block_sum(&a1, &a2), &block_sum(&b1, &b2));
    reduce_wide(join_blocks(&p00, &p11, &p22, &s01, &s02, &s12))
}

// A block product's word: three products of a block sum's limbs (below 2^31 and 2^30).
const _: () = assert!(3 * (2 * LIMB_BOUND_WIDE) * (2 * LIMB_BOUND) < 1 << 64);

/// [`mul`] as it was before [`mul_inline`]'s blocks: schoolbook rows interleaved with their
/// reduction (`montgomery::row_29`), written out. Equal limb for limb; only tests build it.
#[cfg(test)]
const fn mul_rows(a: &Limbs, b: &Limbs) -> Limbs {
    let acc = row_29([0; 9], a, b[0]);
    let acc = row_29(acc, a, b[1]);
    let acc = row_29(acc, a, b[2]);
    let acc = row_29(acc, a, b[3]);
    let acc = row_29(acc, a, b[4]);
    let acc = row_29(acc, a, b[5]);
    let acc = row_29(acc, a, b[6]);
    let acc = row_29(acc, a, b[7]);
    normalise(row_29(acc, a, b[8]))
}

/// [`mul`] by product scanning (column by column, the reduction interleaved: "FIPS"): one
/// accumulator word instead of nine, the operands read as they are needed. Equal limb for limb;
/// it lost in V8 (the permutation 30.9 against 26.0 µs), so only tests build it.
#[cfg(test)]
const fn mul_columns(a: &Limbs, b: &Limbs) -> Limbs {
    let mut m = [0u64; 9];
    let mut out = [0u64; 9];
    let acc = column_low::<0>(0, a, b, &mut m);
    let acc = column_low::<1>(acc, a, b, &mut m);
    let acc = column_low::<2>(acc, a, b, &mut m);
    let acc = column_low::<3>(acc, a, b, &mut m);
    let acc = column_low::<4>(acc, a, b, &mut m);
    let acc = column_low::<5>(acc, a, b, &mut m);
    let acc = column_low::<6>(acc, a, b, &mut m);
    let acc = column_low::<7>(acc, a, b, &mut m);
    let acc = column_low::<8>(acc, a, b, &mut m);
    let acc = column_high::<9>(acc, a, b, &m, &mut out);
    let acc = column_high::<10>(acc, a, b, &m, &mut out);
    let acc = column_high::<11>(acc, a, b, &m, &mut out);
    let acc = column_high::<12>(acc, a, b, &m, &mut out);
    let acc = column_high::<13>(acc, a, b, &m, &mut out);
    let acc = column_high::<14>(acc, a, b, &m, &mut out);
    let acc = column_high::<15>(acc, a, b, &m, &mut out);
    let acc = column_high::<16>(acc, a, b, &m, &mut out);
    out[8] = acc;
    out
}

/// Column `K < 9` of [`mul_columns`]: its products and reduction terms, then `m_K` chosen to
/// clear its low 29 bits; the carry out.
#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    reason = "const loops over fixed-size limb arrays, every index below the length; iterators are not const"
)]
#[inline(always)]
const fn column_low<const K: usize>(mut acc: u64, a: &Limbs, b: &Limbs, m: &mut Limbs) -> u64 {
    let mut i = 0;
    while i <= K {
        acc += a[i] * b[K - i];
        i += 1;
    }
    let mut i = 0;
    while i < K {
        acc += m[i] * P29[K - i];
        i += 1;
    }
    let mk = acc.wrapping_mul(INV29) & MASK_29;
    m[K] = mk;
    (acc + mk * P29[0]) >> LIMB_BITS_29
}

/// Column `K` in 9..17 of [`mul_columns`]: limb `K − 9` of the result, and the carry out.
#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    reason = "const loops over fixed-size limb arrays, every index below the length; iterators are not const"
)]
#[inline(always)]
const fn column_high<const K: usize>(mut acc: u64, a: &Limbs, b: &Limbs, m: &Limbs, out: &mut Limbs) -> u64 {
    let mut i = K - 8;
    while i < 9 {
        acc += a[i] * b[K - i] + m[i] * P29[K - i];
        i += 1;
    }
    out[K - 9] = acc & MASK_29;
    acc >> LIMB_BITS_29
}

/// Montgomery square `a²·2^-261`, equal limb for limb to `mul(a, a)`: the 17-word product from
/// 45 limb products (the 36 off-diagonal ones once, with one operand doubled, and the 9 squares)
/// instead of 81, then the Montgomery reduction. Limbs below `2^29` (so `2a_i·a_j < 2^59` and a
/// word collects at most four of those and one square: below `2^61.2`). In V8 the permutation
/// took 26.0 µs with it against 28.0 µs with `mul(a, a)` (each product out of line).
#[inline(always)]
pub(crate) const fn square(a: &Limbs) -> Limbs {
    debug_assert!(limbs_below(a, 29));
    let t = square_row::<0>([0; 18], a);
    let t = square_row::<1>(t, a);
    let t = square_row::<2>(t, a);
    let t = square_row::<3>(t, a);
    let t = square_row::<4>(t, a);
    let t = square_row::<5>(t, a);
    let t = square_row::<6>(t, a);
    let t = square_row::<7>(t, a);
    let t = square_row::<8>(t, a);
    reduce_wide(t)
}

/// Row `I` of [`square`]: `a_I²` at word `2I`, `2a_I·a_j` at word `I + j` for `j > I`.
#[allow(
    clippy::indexing_slicing,
    reason = "const loops over fixed-size limb arrays, every index below the length; iterators are not const"
)]
#[inline(always)]
const fn square_row<const I: usize>(mut t: [u64; 18], a: &Limbs) -> [u64; 18] {
    let ai = a[I];
    let twice = ai << 1;
    t[2 * I] += ai * ai;
    let mut j = I + 1;
    while j < 9 {
        t[I + j] += twice * a[j];
        j += 1;
    }
    t
}

/// Montgomery product as product-then-reduce: the 17-word product (81 limb products), then
/// [`reduce_wide`]. The same result as [`mul`] limb for limb; it lost in V8 (the permutation
/// 26.6 against 26.0 µs), so only tests build it.
#[cfg(test)]
const fn mul_then_reduce(a: &Limbs, b: &Limbs) -> Limbs {
    let t = product_row::<0>([0; 18], a, b);
    let t = product_row::<1>(t, a, b);
    let t = product_row::<2>(t, a, b);
    let t = product_row::<3>(t, a, b);
    let t = product_row::<4>(t, a, b);
    let t = product_row::<5>(t, a, b);
    let t = product_row::<6>(t, a, b);
    let t = product_row::<7>(t, a, b);
    let t = product_row::<8>(t, a, b);
    reduce_wide(t)
}

/// [`square`] by blocks, as [`mul_inline`] multiplies: `A_i²` for the three blocks, and each
/// `2A_iA_j` as `(A_i + A_j)² − A_i² − A_j²`, six block squares of six limb products, 36 in all
/// instead of 45. Equal limb for limb; it lost in V8 (the permutation 22.7 against 22.3 µs with
/// [`square`], same run as [`mul_inline`]'s figures: nine products saved, about thirty additions
/// and subtractions added), so only tests build it.
#[cfg(test)]
const fn square_karatsuba(a: &Limbs) -> Limbs {
    debug_assert!(limbs_below(a, 29));
    let [a0, a1, a2] = blocks(a);
    let p00 = block_square(&a0);
    let p11 = block_square(&a1);
    let p22 = block_square(&a2);
    let s01 = block_square(&block_sum(&a0, &a1));
    let s02 = block_square(&block_sum(&a0, &a2));
    let s12 = block_square(&block_sum(&a1, &a2));
    reduce_wide(join_blocks(&p00, &p11, &p22, &s01, &s02, &s12))
}

/// The five-word square of a block of three limbs (six limb products).
#[cfg(test)]
#[inline(always)]
const fn block_square(x: &[u64; 3]) -> [u64; 5] {
    let twice0 = x[0] << 1;
    [x[0] * x[0], twice0 * x[1], twice0 * x[2] + x[1] * x[1], (x[1] << 1) * x[2], x[2] * x[2]]
}

/// A value's limbs as three blocks of three, low block first.
#[inline(always)]
const fn blocks(a: &Limbs) -> [[u64; 3]; 3] {
    [[a[0], a[1], a[2]], [a[3], a[4], a[5]], [a[6], a[7], a[8]]]
}

/// The 17-word product (in 18 words) from the block products of [`mul_inline`] and
/// [`square_karatsuba`]: `pᵢᵢ = AᵢBᵢ` at block `2i`, and each cross term `AᵢBⱼ + AⱼBᵢ =
/// sᵢⱼ − pᵢᵢ − pⱼⱼ` at block `i + j` (a block is three words). The subtractions wrap in
/// between; each word they leave is its column's `Σ a_i·b_j`, the schoolbook product's word.
#[allow(
    clippy::indexing_slicing,
    reason = "const loops over fixed-size limb arrays, every index below the length; iterators are not const"
)]
#[inline(always)]
const fn join_blocks(
    p00: &[u64; 5],
    p11: &[u64; 5],
    p22: &[u64; 5],
    s01: &[u64; 5],
    s02: &[u64; 5],
    s12: &[u64; 5],
) -> [u64; 18] {
    let mut t = [0u64; 18];
    let mut k = 0;
    while k < 5 {
        t[k] += p00[k];
        t[k + 3] += s01[k].wrapping_sub(p00[k]).wrapping_sub(p11[k]);
        t[k + 6] += p11[k].wrapping_add(s02[k]).wrapping_sub(p00[k]).wrapping_sub(p22[k]);
        t[k + 9] += s12[k].wrapping_sub(p11[k]).wrapping_sub(p22[k]);
        t[k + 12] += p22[k];
        k += 1;
    }
    t
}

/// Two blocks of three limbs added limb by limb.
#[inline(always)]
const fn block_sum(x: &[u64; 3], y: &[u64; 3]) -> [u64; 3] {
    [x[0] + y[0], x[1] + y[1], x[2] + y[2]]
}

/// The five-word product of two blocks of three limbs (nine limb products).
#[inline(always)]
const fn block_product(x: &[u64; 3], y: &[u64; 3]) -> [u64; 5] {
    [
        x[0] * y[0],
        x[0] * y[1] + x[1] * y[0],
        x[0] * y[2] + x[1] * y[1] + x[2] * y[0],
        x[1] * y[2] + x[2] * y[1],
        x[2] * y[2],
    ]
}

/// Row `I` of [`mul_then_reduce`]: `a_j·b_I` at word `I + j`.
#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    reason = "const loops over fixed-size limb arrays, every index below the length; iterators are not const"
)]
#[inline(always)]
const fn product_row<const I: usize>(mut t: [u64; 18], a: &Limbs, b: &Limbs) -> [u64; 18] {
    let bi = b[I];
    let mut j = 0;
    while j < 9 {
        t[I + j] += a[j] * bi;
        j += 1;
    }
    t
}

/// Montgomery reduction of a 17-word product: nine rounds each zeroing the low 29 bits of word
/// `I` with `m·p` and carrying into word `I + 1`; the upper nine words, normalised.
#[allow(clippy::indexing_slicing, reason = "fixed-size limb arrays, every index below the length")]
#[inline(always)]
const fn reduce_wide(t: [u64; 18]) -> Limbs {
    let t = reduce_row::<0>(t);
    let t = reduce_row::<1>(t);
    let t = reduce_row::<2>(t);
    let t = reduce_row::<3>(t);
    let t = reduce_row::<4>(t);
    let t = reduce_row::<5>(t);
    let t = reduce_row::<6>(t);
    let t = reduce_row::<7>(t);
    let t = reduce_row::<8>(t);
    normalise([t[9], t[10], t[11], t[12], t[13], t[14], t[15], t[16], t[17]])
}

#[allow(
    clippy::indexing_slicing,
    reason = "const loops over fixed-size limb arrays, every index below the length; iterators are not const"
)]
#[inline(always)]
const fn reduce_row<const I: usize>(mut t: [u64; 18]) -> [u64; 18] {
    // m, and word I plus m·p_0 divided by 2^29 (exact), without a multiply.
    let (m, carry) = reduce_low_29(t[I]);
    let mut j = 1;
    while j < 9 {
        t[I + j] += m * P29[j];
        j += 1;
    }
    t[I + 1] += carry;
    t
}

/// `floor(2^90 / (P[3] + 1))`, at most `2^282/p`: `(l8·MU) >> 50` underestimates `l8·2^232/p`.
const MU: u64 = ((1u128 << 90) / (P[3] as u128 + 1)) as u64;
/// The largest top limb [`reduce`] takes: `l8·MU` must fit in 64 bits.
const REDUCE_TOP_BOUND: u64 = 1 << 35;
const _: () = assert!((REDUCE_TOP_BOUND as u128) * (MU as u128) < 1 << 64);

/// The value less `q·p` for `q` estimated from the top limb: normalised and below `1.001p`, for
/// limbs 0..7 below `2^32` and limb 8 below [`REDUCE_TOP_BOUND`].
///
/// `q = (l8·MU) >> 50 ≤ l8·2^232/p ≤ v/p`, so the result is not negative; and `v/p − q` is below
/// 1, plus `l8/2^50 < 2^-15` (MU's rounding), plus the low limbs' part (below `2^235`, so below
/// `2^-18·p`). The subtraction goes limb by limb in signed words (`q·p_j < 2^35`), then one
/// signed carry pass.
#[allow(
    clippy::indexing_slicing,
    reason = "const loops over fixed-size limb arrays, every index below the length; iterators are not const"
)]
#[allow(
    clippy::cast_possible_wrap,
    reason = "every word is below 2^35 or a limb below 2^33, so the casts between u64 and i64 keep the value"
)]
#[inline(always)]
pub(crate) const fn reduce(l: &Limbs) -> Limbs {
    debug_assert!(limbs_below(l, 32) && l[8] < REDUCE_TOP_BOUND);
    let q = (l[8] * MU) >> 50;
    let mut w = [0i64; 9];
    let mut j = 0;
    while j < 9 {
        w[j] = l[j] as i64 - (q * P29[j]) as i64;
        j += 1;
    }
    let mut out = [0u64; 9];
    let mut j = 0;
    while j < 8 {
        // Arithmetic shift: a negative word borrows from the next.
        w[j + 1] += w[j] >> LIMB_BITS_29;
        out[j] = (w[j] as u64) & MASK_29;
        j += 1;
    }
    out[8] = w[8] as u64;
    out
}

/// Limbs 0..7 below `2^bits` (limb 8 may be wider: it holds the top of the value).
#[allow(
    clippy::indexing_slicing,
    reason = "const loops over fixed-size limb arrays, every index below the length; iterators are not const"
)]
const fn limbs_below(l: &Limbs, bits: u32) -> bool {
    let mut j = 0;
    while j < 8 {
        if l[j] >> bits != 0 {
            return false;
        }
        j += 1;
    }
    true
}

/// `a + b` limb by limb, no carries.
#[allow(clippy::indexing_slicing, reason = "loops over fixed-size limb arrays, every index below the length")]
#[inline(always)]
fn add(a: &Limbs, b: &Limbs) -> Limbs {
    let mut s = *a;
    let mut j = 0;
    while j < 9 {
        s[j] += b[j];
        j += 1;
    }
    s
}

/// `2^k·a` limb by limb, no carries.
#[inline(always)]
fn shl(a: &Limbs, k: u32) -> Limbs {
    a.map(|l| l << k)
}

/// A coarse value (radix `2^256`, below `2p`) into limbs (radix `2^261`): normalised, below
/// `1.001p`.
///
/// `x·2^5`, below `64p < 2^260`, fits nine limbs exactly (`split_29` of the shifted words);
/// [`reduce`] then takes it below `1.001p` (its limbs are normalised, and the top limb is below
/// `2^28`, far under its bound). No product: the radix changes by a shift.
#[inline(always)]
pub(crate) const fn enter(x: &Coarse) -> Limbs {
    let back = 64 - RADIX_SHIFT;
    let shifted = [
        x[0] << RADIX_SHIFT,
        (x[1] << RADIX_SHIFT) | (x[0] >> back),
        (x[2] << RADIX_SHIFT) | (x[1] >> back),
        (x[3] << RADIX_SHIFT) | (x[2] >> back),
        x[3] >> back,
    ];
    reduce(&split_29(&shifted))
}

/// Limbs (limbs below `2^29` after [`normalise`], value `v` below `20p`) back to a coarse value,
/// below `1.6p`.
///
/// `v·2^-5 mod p` exactly, with no product: `k = −v·p⁻¹ mod 2^5` (from the low limb and `INV`,
/// which is `−p⁻¹ mod 2^64`) makes `v + k·p` a multiple of `2^5`, and the quotient is below
/// `(20 + 31)p/32 < 1.6p`. The limbs of `v + k·p` stay below `2^35` (`k·p_j < 2^34`), one carry
/// pass normalises them, and the shift right moves each limb's low five bits into the limb
/// below; the top limb of a value below `1.6p` (`< 2^255`) fits `join_29`.
#[allow(
    clippy::indexing_slicing,
    reason = "const loops over fixed-size limb arrays, every index below the length; iterators are not const"
)]
#[inline(always)]
pub(crate) const fn leave(x: &Limbs) -> Coarse {
    let low = (1 << RADIX_SHIFT) - 1;
    let k = x[0].wrapping_mul(INV) & low;
    let mut t = [0u64; 9];
    let mut j = 0;
    while j < 9 {
        t[j] = x[j] + k * P29[j];
        j += 1;
    }
    let t = normalise(t);
    debug_assert!(t[0] & low == 0);
    let mut out = [0u64; 9];
    let mut j = 0;
    while j < 8 {
        out[j] = (t[j] >> RADIX_SHIFT) | ((t[j + 1] & low) << (LIMB_BITS_29 - RADIX_SHIFT));
        j += 1;
    }
    out[8] = t[8] >> RADIX_SHIFT;
    join_29(&out)
}

/// The full rounds' constants, in limbs.
#[allow(
    clippy::indexing_slicing,
    reason = "const loops over fixed-size arrays, every index below the length; iterators are not const"
)]
const FULL_RC: [[Limbs; WIDTH]; FULL_ROUNDS] = {
    let mut rows = [[[0u64; 9]; WIDTH]; FULL_ROUNDS];
    let mut r = 0;
    while r < FULL_ROUNDS {
        // The first half, then the last half after the partial rounds.
        let source = if r < FULL_ROUNDS / 2 { r } else { r + PARTIAL_ROUNDS };
        let mut i = 0;
        while i < WIDTH {
            rows[r][i] = enter(&RC[source][i]);
            i += 1;
        }
        r += 1;
    }
    rows
};

/// The partial rounds' constants (lane 0 only; the others are zero), in limbs.
#[allow(
    clippy::indexing_slicing,
    reason = "const loops over fixed-size arrays, every index below the length; iterators are not const"
)]
const PARTIAL_RC: [Limbs; PARTIAL_ROUNDS] = {
    let mut rows = [[0u64; 9]; PARTIAL_ROUNDS];
    let mut r = 0;
    while r < PARTIAL_ROUNDS {
        rows[r] = enter(&RC[FULL_ROUNDS / 2 + r][0]);
        r += 1;
    }
    rows
};

/// The internal matrix's diagonal minus one, in limbs.
const DIAGONAL_29: [Limbs; WIDTH] =
    [enter(&DIAGONAL[0]), enter(&DIAGONAL[1]), enter(&DIAGONAL[2]), enter(&DIAGONAL[3])];

/// `x^5` for normalised `x` below `20p`: below `1.13p`, normalised.
///
/// On wasm32 one out-of-line function with its three products inlined: 25.3 µs per permutation
/// in V8 against 26.0 µs with each product its own function (and 5.5 KB more module). Not more
/// inlining than this: the whole permutation as one function is what V8 compiled badly before
/// (BENCHMARKS.md, design: wasm-mul-out-of-line).
#[cfg_attr(target_arch = "wasm32", inline(never))]
fn sbox(x: &Limbs) -> Limbs {
    let x2 = square(x);
    let x4 = square(&x2);
    mul_inline(x, &x4)
}

/// `M_E·s` by barretenberg's addition chain, limb by limb: each output is at most 16 times the
/// largest input (rows `[5,7,1,3]` etc.), in limbs and in value.
#[inline(always)]
fn external_matrix(s: &mut [Limbs; WIDTH]) {
    let [x0, x1, x2, x3] = *s;
    let t0 = add(&x0, &x1);
    let t1 = add(&x2, &x3);
    let t2 = add(&shl(&x1, 1), &t1);
    let t3 = add(&shl(&x3, 1), &t0);
    let t4 = add(&shl(&t1, 2), &t3);
    let t5 = add(&shl(&t0, 2), &t2);
    let t6 = add(&t3, &t5);
    let t7 = add(&t2, &t4);
    *s = [t6, t5, t7, t4];
}

#[inline(always)]
fn full_round(s: &mut [Limbs; WIDTH], constants: &[Limbs; WIDTH]) {
    let [x0, x1, x2, x3] = *s;
    let [c0, c1, c2, c3] = constants;
    *s = [
        sbox(&normalise(add(&x0, c0))),
        sbox(&normalise(add(&x1, c1))),
        sbox(&normalise(add(&x2, c2))),
        sbox(&normalise(add(&x3, c3))),
    ];
    external_matrix(s);
}

/// One partial round, in `super::partial_round`'s order (lanes 1..3's products between the
/// S-box's dependent ones). Each diagonal product is a call to [`mul`]: the three in one
/// out-of-line function measured slower in V8 (28.5 against 25.1 µs per permutation, fastest
/// samples of one run).
#[inline(always)]
fn partial_round(s: &mut [Limbs; WIDTH], constant: &Limbs) {
    let [x0, x1, x2, x3] = *s;
    let [d0, d1, d2, d3] = &DIAGONAL_29;
    let x = normalise(add(&x0, constant));
    let x2_ = square(&x);
    let p1 = mul(&x1, d1);
    let x4_ = square(&x2_);
    let p2 = mul(&x2, d2);
    let s0 = mul(&x, &x4_);
    let p3 = mul(&x3, d3);
    let sum = reduce(&add(&add(&s0, &x1), &add(&x2, &x3)));
    let p0 = mul(&s0, d0);
    *s = [add(&p0, &sum), add(&p1, &sum), add(&p2, &sum), add(&p3, &sum)];
}

/// The permutation on coarse lanes (coarse in, coarse out), in limbs from entry to exit: the
/// same field elements as `super::permute_lanes_portable`.
#[cfg_attr(target_arch = "wasm32", inline(never))]
pub(crate) fn permute_lanes_29(lanes: &mut Lanes) {
    let mut s = lanes.each_ref().map(enter);
    let (first, last) = FULL_RC.split_at(FULL_ROUNDS / 2);
    external_matrix(&mut s);
    for row in first {
        full_round(&mut s, row);
    }
    // Lanes 1..3 enter products as they are in the partial rounds: limbs below 2^29 here.
    s = s.map(normalise);
    for constant in &PARTIAL_RC {
        partial_round(&mut s, constant);
    }
    for row in last {
        full_round(&mut s, row);
    }
    *lanes = s.map(|x| leave(&normalise(x)));
}

#[cfg(test)]
mod tests;
