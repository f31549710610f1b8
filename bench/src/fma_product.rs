//! A dev-only prototype, not used by txfx: a four-lane Montgomery product on AVX2 + FMA (no
//! AVX-512), to decide by measurement whether CPUs without AVX-512 IFMA (Zen 3) should get a
//! batch kernel of their own (BENCHMARKS.md, design: no-ifma-batch). Its bench is
//! `benches/fma_product.rs`, its correctness test below (against `ark_bn254::Fr`).
//!
//! Layout: five 52-bit limbs per value (260 bits), each limb a double (integers below 2^52 are
//! exact), four values side by side (limb k of the four lanes in one `__m256d`). The product of
//! two limbs is 104 bits, taken exactly with two FMAs (the double-precision trick that emulates
//! IFMA's `vpmadd52luq`/`huq`):
//!
//! ```text
//!   hi = fma(a, b, 2^104)              rounded: 2^104 + ⌊ab/2^52⌉·2^52 (ulp 2^52 there)
//!   lo = fma(a, b, (2^104 + 1.5·2^52) − hi)   exact: ab − ⌊ab/2^52⌉·2^52 + 1.5·2^52
//! ```
//!
//! so `bits(hi) − bits(2^104) = ⌊ab/2^52⌉` and `bits(lo) − bits(1.5·2^52) = ab − ⌊ab/2^52⌉·2^52`
//! (signed, |·| ≤ 2^51): both read as 64-bit integers by reinterpreting the bits, and summed in
//! 64-bit integer lanes (each column's constant offsets subtracted once). The Montgomery
//! reduction (radix `2^260`, operand scanning: five rows of `m = t_i·(−p⁻¹) mod 2^52`, `t += m·p`,
//! carry `t_i/2^52` up) runs on the same exact products. The result is `a·b·2^-260 mod p`, below
//! `1.05p` for inputs below `2p`; the Montgomery radix differs from txfx's `2^256`, which a real
//! kernel would absorb in its constants.

#![allow(unsafe_code, reason = "AVX2/FMA intrinsics in target-feature functions, called after the CPU check")]
#![allow(clippy::indexing_slicing, reason = "fixed-size limb arrays indexed by unrolled constant loops")]

use core::arch::x86_64::{
    __m256d, __m256i, _mm256_add_epi64, _mm256_add_pd, _mm256_and_si256, _mm256_castpd_si256,
    _mm256_castsi256_pd, _mm256_fmadd_pd, _mm256_or_si256, _mm256_set1_epi64x, _mm256_set1_pd,
    _mm256_setzero_si256, _mm256_srli_epi64, _mm256_sub_epi64, _mm256_sub_pd,
};

/// Lanes per vector.
pub const LANES: usize = 4;

// The 52-bit limb layout, the constants of the two-FMA product and `p` in it are the relaxed-SIMD
// prototype's, the same algorithm on wasm32 (`bench/wasm-relaxed/src/product.rs`).
use txfx_bench_wasm_relaxed::product::{HI_BITS, INV52, LO_BITS, MASK52, P52, TWO52_BITS};
pub use txfx_bench_wasm_relaxed::product::{LIMBS, split52};

/// Four values, limb-major: `self.0[k]` holds limb `k` of the four lanes, as doubles.
#[derive(Clone, Copy)]
pub struct Vals(pub [__m256d; LIMBS]);

impl Vals {
    /// Four values from their 52-bit limbs.
    pub fn from_limbs(lanes: &[[u64; LIMBS]; LANES]) -> Self {
        Self(core::array::from_fn(|k| {
            let limb: [f64; LANES] = core::array::from_fn(|l| lanes[l][k] as f64);
            // SAFETY: `[f64; 4]` and `__m256d` have the same size, and every bit pattern is valid.
            unsafe { core::mem::transmute::<[f64; LANES], __m256d>(limb) }
        }))
    }

    /// The four values' 52-bit limbs.
    pub fn limbs(&self) -> [[u64; LIMBS]; LANES] {
        // SAFETY: as in `from_limbs`.
        let limbs: [[f64; LANES]; LIMBS] =
            self.0.map(|v| unsafe { core::mem::transmute::<__m256d, [f64; LANES]>(v) });
        core::array::from_fn(|l| core::array::from_fn(|k| limbs[k][l] as u64))
    }
}

/// The product's constants (`p`'s limbs and `−p⁻¹ mod 2^52`, as doubles).
#[derive(Clone, Copy)]
pub struct Fma {
    p: [f64; LIMBS],
    inv: f64,
}

impl Fma {
    /// The constants, if this CPU has AVX2 and FMA.
    pub fn detect() -> Option<Self> {
        if !(std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")) {
            return None;
        }
        Some(Self { p: P52, inv: INV52 })
    }

    /// Four Montgomery products `a·b·2^-260 mod p` (inputs below `2p`, results below `1.05p`).
    pub fn mul(&self, a: &Vals, b: &Vals) -> Vals {
        // SAFETY: an `Fma` exists only after `detect` found AVX2 and FMA.
        unsafe { mul(self, a, b) }
    }

    /// `xs[k] ← xs[k]·y`, `rounds` times, eight independent vectors (throughput: 32 products a
    /// round).
    pub fn mul_independent(&self, xs: &mut [Vals; 8], y: &Vals, rounds: usize) {
        // SAFETY: as in `mul`.
        unsafe { mul_independent(self, xs, y, rounds) }
    }

    /// `x ← x·y`, `rounds` times: one dependent chain (latency; four products a round).
    pub fn mul_chain(&self, x: &mut Vals, y: &Vals, rounds: usize) {
        // SAFETY: as in `mul`.
        unsafe { mul_chain(self, x, y, rounds) }
    }
}

#[target_feature(enable = "avx2,fma")]
fn mul_independent(c: &Fma, xs: &mut [Vals; 8], y: &Vals, rounds: usize) {
    for _ in 0..rounds {
        for x in xs.iter_mut() {
            *x = mul(c, x, y);
        }
    }
}

#[target_feature(enable = "avx2,fma")]
fn mul_chain(c: &Fma, x: &mut Vals, y: &Vals, rounds: usize) {
    for _ in 0..rounds {
        *x = mul(c, x, y);
    }
}

/// `a·b` exactly, as the raw bits of (lo, hi): `lo − LO_BITS + (hi − HI_BITS)·2^52 = a·b`.
///
/// `lo` is `ab − ⌊ab/2^52⌉·2^52` (exact, in `[−2^51, 2^51]`) plus `1.5·2^52`: a double in
/// `[2^52, 2^53]`, whose bits less `LO_BITS` are the integer (IEEE bit patterns are monotonic,
/// and `2^53`'s is the next after `2^53 − 1`'s). `2^104 + 1.5·2^52` is not a double, so the offset
/// is added after the second FMA: four floating-point operations per exact product.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn exact(a: __m256d, b: __m256d) -> (__m256i, __m256i) {
    let c1 = _mm256_set1_pd(f64::from_bits(HI_BITS as u64));
    let hi = _mm256_fmadd_pd(a, b, c1);
    let lo = _mm256_fmadd_pd(a, b, _mm256_sub_pd(c1, hi));
    let lo = _mm256_add_pd(lo, _mm256_set1_pd(f64::from_bits(LO_BITS as u64)));
    (_mm256_castpd_si256(lo), _mm256_castpd_si256(hi))
}

/// `x` (each lane in `[0, 2^52)`) as doubles.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn to_f64(x: __m256i) -> __m256d {
    let two52 = _mm256_set1_epi64x(TWO52_BITS);
    _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(x, two52)), _mm256_castsi256_pd(two52))
}

/// Arithmetic shift right by 52 (AVX2 has no 64-bit arithmetic shift): for `|x| < 2^63`.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn sra52(x: __m256i) -> __m256i {
    let biased = _mm256_add_epi64(x, _mm256_set1_epi64x(i64::MIN));
    _mm256_sub_epi64(_mm256_srli_epi64::<52>(biased), _mm256_set1_epi64x(1 << 11))
}

#[target_feature(enable = "avx2,fma")]
#[inline]
fn mul(c: &Fma, a: &Vals, b: &Vals) -> Vals {
    let mask = _mm256_set1_epi64x(MASK52 as i64);
    // Column sums of raw bits, and the constant each column's raw bits are off by (wrapping:
    // the true column values are far below 2^63, so the wrapped sums come out right).
    let mut t = [_mm256_setzero_si256(); 2 * LIMBS];
    let mut off = [0i64; 2 * LIMBS];
    for i in 0..LIMBS {
        for j in 0..LIMBS {
            let (lo, hi) = exact(a.0[i], b.0[j]);
            t[i + j] = _mm256_add_epi64(t[i + j], lo);
            off[i + j] = off[i + j].wrapping_add(LO_BITS);
            t[i + j + 1] = _mm256_add_epi64(t[i + j + 1], hi);
            off[i + j + 1] = off[i + j + 1].wrapping_add(HI_BITS);
        }
    }
    for i in 0..LIMBS {
        // Column i, exact: m = t_i·(−p⁻¹) mod 2^52 zeroes it mod 2^52 when m·p is added.
        let ti = _mm256_sub_epi64(t[i], _mm256_set1_epi64x(off[i]));
        let (lo, _) = exact(to_f64(_mm256_and_si256(ti, mask)), _mm256_set1_pd(c.inv));
        // lo − LO_BITS ≡ t_i·inv (mod 2^52), and LO_BITS ≡ 2^51.
        let m = to_f64(_mm256_and_si256(_mm256_sub_epi64(lo, _mm256_set1_epi64x(LO_BITS)), mask));
        t[i] = ti;
        off[i] = 0;
        for j in 0..LIMBS {
            let (lo, hi) = exact(m, _mm256_set1_pd(c.p[j]));
            t[i + j] = _mm256_add_epi64(t[i + j], lo);
            off[i + j] = off[i + j].wrapping_add(LO_BITS);
            if i + j + 1 < 2 * LIMBS {
                t[i + j + 1] = _mm256_add_epi64(t[i + j + 1], hi);
                off[i + j + 1] = off[i + j + 1].wrapping_add(HI_BITS);
            }
        }
        // Column i is now a multiple of 2^52: its carry goes up.
        let ti = _mm256_sub_epi64(t[i], _mm256_set1_epi64x(off[i]));
        t[i + 1] = _mm256_add_epi64(t[i + 1], sra52(ti));
    }
    // The result, columns 5..9, normalised to 52-bit limbs (the top one takes the rest).
    let mut r: [__m256i; LIMBS] =
        core::array::from_fn(|k| _mm256_sub_epi64(t[LIMBS + k], _mm256_set1_epi64x(off[LIMBS + k])));
    for k in 0..LIMBS - 1 {
        let carry = sra52(r[k]);
        r[k] = _mm256_and_si256(r[k], mask);
        r[k + 1] = _mm256_add_epi64(r[k + 1], carry);
    }
    Vals(r.map(|x| to_f64(x)))
}

// The test runs in the txfx-bench binary's unit tests; the bench target, which includes this file
// too, has no test harness (hence the imports inside the test's functions).
#[cfg(test)]
mod tests {
    /// The integer of a value below `2^256`, mod p, as an `Fr`.
    fn fr(w: [u64; 4]) -> txfx_poseidon::Fr {
        use ark_ff::PrimeField;
        use txfx_poseidon::Fr;
        Fr::from_le_bytes_mod_order(&w.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<_>>())
    }

    #[test]
    fn four_lane_fma_product_is_the_field_product_times_2_pow_minus_260() {
        use super::{Fma, LANES, MASK52, Vals, split52};
        use ark_ff::{BigInt, BigInteger, Field, PrimeField};
        use txfx_bench_wasm_relaxed::product::join52;
        use txfx_bench_wasm_relaxed::splitmix64 as next;
        use txfx_poseidon::Fr;
        let Some(fma) = Fma::detect() else {
            eprintln!("SKIPPED: this CPU lacks AVX2 or FMA");
            return;
        };
        let r_inv = Fr::from(2u64).pow([260]).inverse().unwrap();
        let p = <Fr as PrimeField>::MODULUS;
        let mut two_p_minus_1 = p;
        two_p_minus_1.mul2();
        two_p_minus_1.sub_with_borrow(&BigInt::from(1u64));
        let edges = [[0u64; 4], [1, 0, 0, 0], p.0, two_p_minus_1.0, {
            let mut x = p;
            x.sub_with_borrow(&BigInt::from(1u64));
            x.0
        }];
        let mut state = 0x0046_4d41_u64;
        let mut random = || -> [u64; 4] {
            // Below 2p: the top word below 2p's.
            let mut w = [next(&mut state), next(&mut state), next(&mut state), next(&mut state)];
            w[3] %= two_p_minus_1.0[3];
            w
        };
        let mut checked = 0;
        for round in 0..2000 {
            let a: [[u64; 4]; LANES] =
                core::array::from_fn(|l| if round < 5 && l == 0 { edges[round] } else { random() });
            let b: [[u64; 4]; LANES] =
                core::array::from_fn(|l| if round < 5 && l == 1 { edges[4 - round] } else { random() });
            let got = fma
                .mul(&Vals::from_limbs(&a.map(|x| split52(&x))), &Vals::from_limbs(&b.map(|x| split52(&x))));
            for (lane, limbs) in got.limbs().iter().enumerate() {
                assert!(limbs[..4].iter().all(|&l| l <= MASK52), "limbs {limbs:x?} not normalised");
                let value = join52(limbs);
                assert!(limbs[4] < 1 << 48, "{limbs:x?} above 2^256");
                // Below 1.05p: compare with 2p as a coarse bound.
                assert!(BigInt(value) < two_p_minus_1, "{value:x?} not below 2p");
                assert_eq!(fr(value), fr(a[lane]) * fr(b[lane]) * r_inv, "lane {lane} of round {round}");
                checked += 1;
            }
        }
        assert_eq!(checked, 2000 * LANES);
    }
}
