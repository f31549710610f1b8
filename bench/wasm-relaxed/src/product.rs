//! The BN254 Montgomery product on two lanes of `f64x2`: `bench/src/fma_product.rs`'s algorithm
//! (the native four-lane AVX2/FMA prototype, BENCHMARKS.md, design: no-ifma-batch) on wasm32's
//! relaxed SIMD, with a portable model on every other target.
//!
//! Layout: five 52-bit limbs per value (260 bits), each limb a double (integers below 2^52 are
//! exact), two values side by side (limb k of both lanes in one [`V`]). The 104-bit product of
//! two limbs is taken exactly with two fused multiply-adds (the double-precision emulation of
//! IFMA's `vpmadd52luq`/`huq`, as o1js's and provekit's WASM field arithmetic does):
//!
//! ```text
//!   hi = fma(a, b, 2^104)                rounded: 2^104 + ⌊ab/2^52⌉·2^52 (ulp 2^52 there)
//!   lo = fma(a, b, 2^104 − hi) + 1.5·2^52   exact: ab − ⌊ab/2^52⌉·2^52, offset into [2^52, 2^53]
//! ```
//!
//! so `bits(hi) − bits(2^104) = ⌊ab/2^52⌉` and `bits(lo) − bits(1.5·2^52) = ab − ⌊ab/2^52⌉·2^52`
//! (signed, `|·| ≤ 2^51`): both read as 64-bit integers by reinterpreting the lanes, and summed
//! in `i64x2` columns (each column's constant offsets subtracted once). The Montgomery reduction
//! (radix `2^260`, operand scanning: five rows of `m = t_i·(−p⁻¹) mod 2^52`, `t += m·p`, carry
//! `t_i/2^52` up) runs on the same exact products. The result is `a·b·2^-260 mod p`, below `1.05p`
//! for inputs below `2p`, normalised to 52-bit limbs.
//!
//! **Fused or not.** `f64x2.relaxed_madd` may be a fused multiply-add or a multiply then an add,
//! at the host's choice (V8 fuses where the CPU has FMA3). Unfused, `lo` loses the low bits of
//! `ab` and the product is wrong, so a caller must run [`self_test`] (known answers, computed
//! outside this code) on the host it runs on before trusting [`mul`]. On the host, the model uses
//! `f64::mul_add`, which is always fused: it tests the algorithm, not the relaxed instruction.

#![allow(clippy::indexing_slicing, reason = "fixed-size limb arrays indexed by unrolled constant loops")]

use ark_ff::MontConfig;

pub use lanes::V;

/// Lanes per vector.
pub const LANES: usize = 2;
// The limb layout, its constants and `p` in it are also `bench/src/fma_product.rs`'s (the same
// algorithm on AVX2/FMA), which imports them from here.
/// Limbs per value.
pub const LIMBS: usize = 5;
/// One limb's bits, `2^52 − 1`.
pub const MASK52: u64 = (1 << 52) - 1;
/// `bits(2^104)`.
pub const HI_BITS: i64 = 0x4670_0000_0000_0000;
/// `bits(1.5·2^52)`: the offset that makes a signed `lo` a double of exponent 52.
pub const LO_BITS: i64 = 0x4338_0000_0000_0000;
/// `bits(2^52)`: `bits(2^52) | x` is the double `2^52 + x` for `x < 2^52`.
pub const TWO52_BITS: i64 = 0x4330_0000_0000_0000;

/// The modulus `p` (BN254's scalar field), little-endian words.
pub const P: [u64; 4] = <ark_bn254::FrConfig as MontConfig<4>>::MODULUS.0;
/// `p` in 52-bit limbs, as doubles.
pub const P52: [f64; LIMBS] = {
    let l = split52(&P);
    [l[0] as f64, l[1] as f64, l[2] as f64, l[3] as f64, l[4] as f64]
};
/// `−p⁻¹ mod 2^52`, as a double. Newton: `x ← x(2 − p₀x) mod 2^64` doubles the correct low bits;
/// six steps from 1 reach 64.
pub const INV52: f64 = {
    let mut x: u64 = 1;
    let mut k = 0;
    while k < 6 {
        x = x.wrapping_mul(2u64.wrapping_sub(P[0].wrapping_mul(x)));
        k += 1;
    }
    (x.wrapping_neg() & MASK52) as f64
};

/// A 256-bit integer (four little-endian words) as five 52-bit limbs.
pub const fn split52(w: &[u64; 4]) -> [u64; LIMBS] {
    [
        w[0] & MASK52,
        ((w[0] >> 52) | (w[1] << 12)) & MASK52,
        ((w[1] >> 40) | (w[2] << 24)) & MASK52,
        ((w[2] >> 28) | (w[3] << 36)) & MASK52,
        w[3] >> 16,
    ]
}

/// Five limbs (the last up to 48 bits) as four words.
pub const fn join52(l: &[u64; LIMBS]) -> [u64; 4] {
    [
        l[0] | (l[1] << 52),
        (l[1] >> 12) | (l[2] << 40),
        (l[2] >> 24) | (l[3] << 28),
        (l[3] >> 36) | (l[4] << 16),
    ]
}

/// wasm32: one `v128`, read as `f64x2` or `i64x2` as each operation needs (no conversion: the
/// reinterpretations are free).
#[cfg(target_arch = "wasm32")]
mod lanes {
    use core::arch::wasm32::{
        f64x2_add, f64x2_relaxed_madd, f64x2_splat, f64x2_sub, i64x2_add, i64x2_shr, i64x2_splat, i64x2_sub,
        v128, v128_and, v128_or,
    };

    /// Two 64-bit lanes.
    #[derive(Clone, Copy)]
    pub struct V(v128);

    #[allow(missing_docs, reason = "one wasm instruction each, named after it")]
    impl V {
        #[target_feature(enable = "simd128,relaxed-simd")]
        #[inline]
        pub fn splat_f(x: f64) -> Self {
            Self(f64x2_splat(x))
        }
        #[target_feature(enable = "simd128,relaxed-simd")]
        #[inline]
        pub fn splat_i(x: i64) -> Self {
            Self(i64x2_splat(x))
        }
        /// `a·b + c`, fused or not (the host's choice: see the module doc).
        #[target_feature(enable = "simd128,relaxed-simd")]
        #[inline]
        pub fn madd(a: Self, b: Self, c: Self) -> Self {
            Self(f64x2_relaxed_madd(a.0, b.0, c.0))
        }
        lanewise!("simd128,relaxed-simd":
            fadd => f64x2_add,
            fsub => f64x2_sub,
            iadd => i64x2_add,
            isub => i64x2_sub,
            and => v128_and,
            or => v128_or,
        );
        /// Arithmetic shift right by 52, each `i64` lane.
        #[target_feature(enable = "simd128,relaxed-simd")]
        #[inline]
        pub fn sra52(self) -> Self {
            Self(i64x2_shr(self.0, 52))
        }
        /// The lanes' bits.
        #[target_feature(enable = "simd128,relaxed-simd")]
        #[inline]
        pub fn bits(self) -> [u64; 2] {
            [
                core::arch::wasm32::u64x2_extract_lane::<0>(self.0),
                core::arch::wasm32::u64x2_extract_lane::<1>(self.0),
            ]
        }
        /// Two lanes from their bits.
        #[target_feature(enable = "simd128,relaxed-simd")]
        #[inline]
        pub fn from_bits(b: [u64; 2]) -> Self {
            Self(core::arch::wasm32::u64x2(b[0], b[1]))
        }
    }
}

/// Every other target: the same operations on two words, `f64::mul_add` (always fused) for the
/// multiply-add. The model the host test checks.
#[cfg(not(target_arch = "wasm32"))]
mod lanes {
    /// Two 64-bit lanes.
    #[derive(Clone, Copy)]
    pub struct V([u64; 2]);

    #[allow(missing_docs, reason = "one wasm instruction each, named after it")]
    impl V {
        fn f(self) -> [f64; 2] {
            self.0.map(f64::from_bits)
        }
        fn of_f(x: [f64; 2]) -> Self {
            Self(x.map(f64::to_bits))
        }
        pub fn splat_f(x: f64) -> Self {
            Self([x.to_bits(); 2])
        }
        pub fn splat_i(x: i64) -> Self {
            Self([x.cast_unsigned(); 2])
        }
        /// `a·b + c`, fused.
        pub fn madd(a: Self, b: Self, c: Self) -> Self {
            let (a, b, c) = (a.f(), b.f(), c.f());
            Self::of_f([a[0].mul_add(b[0], c[0]), a[1].mul_add(b[1], c[1])])
        }
        pub fn fadd(self, b: Self) -> Self {
            let (a, b) = (self.f(), b.f());
            Self::of_f([a[0] + b[0], a[1] + b[1]])
        }
        pub fn fsub(self, b: Self) -> Self {
            let (a, b) = (self.f(), b.f());
            Self::of_f([a[0] - b[0], a[1] - b[1]])
        }
        lanewise_model!(
            iadd => u64::wrapping_add,
            isub => u64::wrapping_sub,
            and => |x, y| x & y,
            or => |x, y| x | y,
        );
        /// Arithmetic shift right by 52, each `i64` lane.
        pub fn sra52(self) -> Self {
            Self(self.0.map(|x| (x.cast_signed() >> 52).cast_unsigned()))
        }
        /// The lanes' bits.
        pub fn bits(self) -> [u64; 2] {
            self.0
        }
        /// Two lanes from their bits.
        pub fn from_bits(b: [u64; 2]) -> Self {
            Self(b)
        }
    }
}

/// Two values, limb-major: `self.0[k]` holds limb `k` of both lanes, as doubles.
#[derive(Clone, Copy)]
pub struct Vals(pub [V; LIMBS]);

impl Vals {
    /// Two values (each below `2^256`, four little-endian words) as limbs.
    #[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128,relaxed-simd"))]
    #[inline]
    pub fn from_words(lanes: &[[u64; 4]; LANES]) -> Self {
        let limbs = lanes.map(|w| split52(&w));
        Self(core::array::from_fn(|k| {
            V::from_bits([(limbs[0][k] as f64).to_bits(), (limbs[1][k] as f64).to_bits()])
        }))
    }

    /// The two values as four words each (not reduced: below `1.05p` after [`mul`]).
    #[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128,relaxed-simd"))]
    #[inline]
    pub fn words(&self) -> [[u64; 4]; LANES] {
        let limbs = self.0.map(|v| v.bits().map(|b| f64::from_bits(b) as u64));
        core::array::from_fn(|l| join52(&core::array::from_fn(|k| limbs[k][l])))
    }
}

/// `a·b` exactly, as the raw bits of `(lo, hi)`: `lo − LO_BITS + (hi − HI_BITS)·2^52 = a·b`.
///
/// `lo` is `ab − ⌊ab/2^52⌉·2^52` (exact, in `[−2^51, 2^51]`) plus `1.5·2^52`: a double in
/// `[2^52, 2^53]`, whose bits less `LO_BITS` are the integer (IEEE bit patterns are monotonic,
/// and `2^53`'s is the next after `2^53 − 1`'s). `2^104 + 1.5·2^52` is not a double, so the offset
/// is added after the second multiply-add: four floating-point operations per exact product.
#[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128,relaxed-simd"))]
#[inline]
fn exact(a: V, b: V) -> (V, V) {
    let c1 = V::splat_f(f64::from_bits(HI_BITS.cast_unsigned()));
    let hi = V::madd(a, b, c1);
    let lo = V::madd(a, b, c1.fsub(hi));
    let lo = lo.fadd(V::splat_f(f64::from_bits(LO_BITS.cast_unsigned())));
    (lo, hi)
}

/// `x` (each lane in `[0, 2^52)`) as doubles.
#[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128,relaxed-simd"))]
#[inline]
fn to_f64(x: V) -> V {
    let two52 = V::splat_i(TWO52_BITS);
    x.or(two52).fsub(two52)
}

/// The constants the columns' raw sums are off by (each `lo` adds `LO_BITS`, each `hi`
/// `HI_BITS`, wrapping) once the product and the first `rows` reduction rows are added, each of
/// those rows having first made its own column exact. Compile-time constants: computed at run
/// time, LLVM kept them in a stack array and vectorised their sums (the product was slower so).
#[allow(clippy::indexing_slicing, reason = "const loops, every index below the length")]
const fn offsets(rows: usize) -> [i64; 2 * LIMBS] {
    let mut off = [0i64; 2 * LIMBS];
    let mut i = 0;
    while i < LIMBS {
        let mut j = 0;
        while j < LIMBS {
            off[i + j] = off[i + j].wrapping_add(LO_BITS);
            off[i + j + 1] = off[i + j + 1].wrapping_add(HI_BITS);
            j += 1;
        }
        i += 1;
    }
    let mut r = 0;
    while r < rows {
        off[r] = 0;
        let mut j = 0;
        while j < LIMBS {
            off[r + j] = off[r + j].wrapping_add(LO_BITS);
            if r + j + 1 < 2 * LIMBS {
                off[r + j + 1] = off[r + j + 1].wrapping_add(HI_BITS);
            }
            j += 1;
        }
        r += 1;
    }
    off
}

/// The Montgomery product `a·b·2^-260 mod p` of each lane: inputs below `2p` in normalised
/// 52-bit limbs, results below `1.05p`, normalised. Exact only where `V::madd` is fused (the
/// module doc; [`self_test`]).
#[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128,relaxed-simd"))]
#[inline]
pub fn mul(a: &Vals, b: &Vals) -> Vals {
    let mask = V::splat_i(MASK52.cast_signed());
    // Column sums of raw bits, off by `offsets(0)` (wrapping: the true column values are far
    // below 2^63, so the wrapped sums come out right).
    let mut t = [V::splat_i(0); 2 * LIMBS];
    for i in 0..LIMBS {
        for j in 0..LIMBS {
            let (lo, hi) = exact(a.0[i], b.0[j]);
            t[i + j] = t[i + j].iadd(lo);
            t[i + j + 1] = t[i + j + 1].iadd(hi);
        }
    }
    // Five rows written out, not a loop: LLVM left the loop rolled, with the columns in linear
    // memory (213 ns per product per lane in V8 so, one noisy run).
    reduce_row::<0>(&mut t, mask);
    reduce_row::<1>(&mut t, mask);
    reduce_row::<2>(&mut t, mask);
    reduce_row::<3>(&mut t, mask);
    reduce_row::<4>(&mut t, mask);
    // The result, columns 5..9, normalised to 52-bit limbs (the top one takes the rest).
    let off = const { offsets(LIMBS) };
    let mut r: [V; LIMBS] = core::array::from_fn(|k| t[LIMBS + k].isub(V::splat_i(off[LIMBS + k])));
    for k in 0..LIMBS - 1 {
        let carry = r[k].sra52();
        r[k] = r[k].and(mask);
        r[k + 1] = r[k + 1].iadd(carry);
    }
    // A closure: a `#[target_feature]` function is not an `FnMut` (rustc says so on wasm32).
    #[allow(clippy::redundant_closure, reason = "see the comment above")]
    Vals(r.map(|x| to_f64(x)))
}

/// Row `I` of [`mul`]'s reduction: column `I`, exact, gives `m = t_I·(−p⁻¹) mod 2^52`, which
/// zeroes it mod 2^52 when `m·p` is added; its carry goes up to column `I + 1`.
#[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128,relaxed-simd"))]
#[inline]
fn reduce_row<const I: usize>(t: &mut [V; 2 * LIMBS], mask: V) {
    let ti = t[I].isub(V::splat_i(const { offsets(I)[I] }));
    let (lo, _) = exact(to_f64(ti.and(mask)), V::splat_f(INV52));
    // lo − LO_BITS ≡ t_I·inv (mod 2^52).
    let m = to_f64(lo.isub(V::splat_i(LO_BITS)).and(mask));
    t[I] = ti;
    for j in 0..LIMBS {
        let (lo, hi) = exact(m, V::splat_f(P52[j]));
        t[I + j] = t[I + j].iadd(lo);
        if I + j + 1 < 2 * LIMBS {
            t[I + j + 1] = t[I + j + 1].iadd(hi);
        }
    }
    // Column I is now a multiple of 2^52.
    let ti = t[I].isub(V::splat_i(const { offsets(I + 1)[I] }));
    t[I + 1] = t[I + 1].iadd(ti.sra52());
}

/// Known answers `(a, b, a·b·2^-260 mod p)`, little-endian words, computed outside this code
/// (Python's integers; the host test checks them against ark-bn254 too): edge values (`p − 1`,
/// `2p − 1`, zero, one) and random values below `2p`. Every pair has limb products that a double
/// cannot hold, so an unfused multiply-add gets them wrong.
pub const KNOWN_ANSWERS: [([u64; 4], [u64; 4], [u64; 4]); 8] = [
    (
        [0x43e1_f593_f000_0000, 0x2833_e848_79b9_7091, 0xb850_45b6_8181_585d, 0x3064_4e72_e131_a029],
        [0x43e1_f593_f000_0000, 0x2833_e848_79b9_7091, 0xb850_45b6_8181_585d, 0x3064_4e72_e131_a029],
        [0xa641_f8b2_d4db_1195, 0x7597_6c63_ad48_4cda, 0x038c_6995_1b1b_b0e1, 0x076b_4963_7452_8957],
    ),
    (
        [0x87c3_eb27_e000_0001, 0x5067_d090_f372_e122, 0x70a0_8b6d_0302_b0ba, 0x60c8_9ce5_c263_4053],
        [0x87c3_eb27_e000_0001, 0x5067_d090_f372_e122, 0x70a0_8b6d_0302_b0ba, 0x60c8_9ce5_c263_4053],
        [0xa641_f8b2_d4db_1195, 0x7597_6c63_ad48_4cda, 0x038c_6995_1b1b_b0e1, 0x076b_4963_7452_8957],
    ),
    (
        [0x87c3_eb27_e000_0001, 0x5067_d090_f372_e122, 0x70a0_8b6d_0302_b0ba, 0x60c8_9ce5_c263_4053],
        [0x0000_0000_0000_0001, 0, 0, 0],
        [0x9d9f_fce1_1b24_ee6c, 0xb29c_7be4_cc71_23b6, 0xb4c3_dc21_6665_a77b, 0x28f9_050f_6cdf_16d2],
    ),
    (
        [0, 0, 0, 0],
        [0x43e1_f593_f000_0000, 0x2833_e848_79b9_7091, 0xb850_45b6_8181_585d, 0x3064_4e72_e131_a029],
        [0, 0, 0, 0],
    ),
    (
        [0xfa17_fea5_35c3_212d, 0x0c68_ec55_41dc_e77f, 0x604d_45f2_65ae_c90a, 0x1129_3ede_a43e_7740],
        [0x87e4_14f8_997c_6b39, 0x66da_fd61_eade_d544, 0xd4f6_5eb6_f8e0_131d, 0x2c98_6339_a788_51de],
        [0xd87f_321e_a98e_6612, 0x5f32_4bc9_8049_4c66, 0x444d_e509_aa61_ad90, 0x1e00_1886_d4ab_c852],
    ),
    (
        [0xe1cf_562f_8903_2e24, 0x66c2_e6af_1150_446a, 0x3fa5_6cc2_0604_c16a, 0x480a_6a37_ce27_c43b],
        [0x47a0_fbaf_ac06_350a, 0x6dc7_5f6f_c354_bccb, 0x1871_d30b_90ce_99be, 0x23a3_9679_ac84_4d26],
        [0x7553_e2b7_16c6_d6f8, 0x1324_26d4_3009_2666, 0x4992_d5df_7c83_9e4e, 0x08c3_199b_6a71_e5b6],
    ),
    (
        [0x211c_c5a6_4f27_576f, 0x4f01_e6ce_d44f_f2e2, 0x4fcd_2bf5_e088_1e16, 0x40e5_4833_4085_0c91],
        [0x236a_2059_1491_532c, 0xb30a_ca6a_3e43_e74f, 0x1e57_9345_508a_9bfb, 0x03ad_e4ea_c506_cd39],
        [0xc99b_68d3_a953_c550, 0x0076_7536_d574_aac1, 0x6220_1d89_c644_d26e, 0x2c25_8381_3afc_c460],
    ),
    (
        [0xea99_5021_68e3_d0ff, 0x817b_0c43_bff9_6bff, 0x2dd8_e298_4d0b_5dea, 0x524f_e036_8613_fccc],
        [0x78d6_908a_2fb5_dbaa, 0x54cc_5b4d_a537_e7fa, 0x7386_14c3_835a_d745, 0x5418_a392_dcd7_6e4c],
        [0x1d2a_de8c_b2b5_c366, 0x4bbc_478c_1ea0_27ac, 0x90fa_9149_386a_9c19, 0x0b47_0e1d_218e_108f],
    ),
];

/// `x mod p` for `x < 2p`, four words.
pub const fn canonical(x: [u64; 4]) -> [u64; 4] {
    // x − p, with the borrow: keep x if it borrows out.
    let mut d = [0u64; 4];
    let mut borrow = false;
    let mut k = 0;
    while k < 4 {
        let (s, b1) = x[k].overflowing_sub(P[k]);
        let (s, b2) = s.overflowing_sub(borrow as u64);
        d[k] = s;
        borrow = b1 || b2;
        k += 1;
    }
    if borrow { x } else { d }
}

/// Whether [`mul`] gives every known answer on this host, in both lanes (each pair in lane 0
/// beside the next pair in lane 1): what a caller checks before it trusts `relaxed_madd` to be
/// fused here.
#[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128,relaxed-simd"))]
pub fn self_test() -> bool {
    let n = KNOWN_ANSWERS.len();
    (0..n).all(|k| {
        let (a0, b0, want0) = KNOWN_ANSWERS[k];
        let (a1, b1, want1) = KNOWN_ANSWERS[(k + 1) % n];
        let got = mul(&Vals::from_words(&[a0, a1]), &Vals::from_words(&[b0, b1])).words();
        canonical(got[0]) == want0 && canonical(got[1]) == want1
    })
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::{KNOWN_ANSWERS, LANES, MASK52, P, Vals, canonical, join52, mul, self_test, split52};
    use crate::splitmix64 as next;
    use ark_bn254::Fr;
    use ark_ff::{BigInt, Field, PrimeField};

    /// The integer of a value below `2^256`, mod p.
    fn fr(w: [u64; 4]) -> Fr {
        Fr::from_le_bytes_mod_order(&w.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<_>>())
    }

    #[allow(clippy::expect_used, reason = "an invariant of the field, not of the input")]
    fn r_inv() -> Fr {
        Fr::from(2u64).pow([260]).inverse().expect("invariant: 2^260 is invertible mod p")
    }

    /// `2p − k` for small `k`.
    fn two_p_minus(k: u64) -> [u64; 4] {
        let two_p =
            [P[0] << 1, (P[1] << 1) | (P[0] >> 63), (P[2] << 1) | (P[1] >> 63), (P[3] << 1) | (P[2] >> 63)];
        let mut w = two_p;
        let mut borrow = k;
        for word in &mut w {
            let (v, b) = word.overflowing_sub(borrow);
            *word = v;
            borrow = u64::from(b);
        }
        w
    }

    #[test]
    fn the_model_is_the_field_product_times_2_pow_minus_260_on_random_zero_and_near_p_inputs() {
        let r_inv = r_inv();
        let p_minus = |k: u64| {
            let mut w = P;
            w[0] -= k;
            w
        };
        let edges = [[0u64; 4], [1, 0, 0, 0], P, p_minus(1), p_minus(2), two_p_minus(1), two_p_minus(2)];
        let mut state = 0x0052_454c_u64;
        let mut random = || -> [u64; 4] {
            // Below 2p: the top word below 2p's.
            let mut w = [next(&mut state), next(&mut state), next(&mut state), next(&mut state)];
            w[3] %= two_p_minus(1)[3];
            w
        };
        let mut checked = 0;
        for round in 0..5000 {
            let a: [[u64; 4]; LANES] = core::array::from_fn(|l| {
                if round < edges.len() * edges.len() && l == 0 {
                    edges[round % edges.len()]
                } else {
                    random()
                }
            });
            let b: [[u64; 4]; LANES] = core::array::from_fn(|l| {
                if round < edges.len() * edges.len() {
                    edges[(round / edges.len() + l) % edges.len()]
                } else {
                    random()
                }
            });
            let got = mul(&Vals::from_words(&a), &Vals::from_words(&b));
            let words = got.words();
            for lane in 0..LANES {
                let limbs = split52(&words[lane]);
                assert_eq!(join52(&limbs), words[lane]);
                assert!(limbs[..4].iter().all(|&l| l <= MASK52), "limbs {limbs:x?} not normalised");
                // Below 1.05p: compare with 2p as a coarse bound, so canonical() applies.
                assert!(BigInt(words[lane]) < BigInt(two_p_minus(1)), "{:x?} not below 2p", words[lane]);
                assert_eq!(
                    fr(words[lane]),
                    fr(a[lane]) * fr(b[lane]) * r_inv,
                    "lane {lane} of round {round}"
                );
                checked += 1;
            }
            // Chained: the output feeds an input.
            let again = mul(&got, &Vals::from_words(&b)).words();
            for lane in 0..LANES {
                assert_eq!(fr(again[lane]), fr(words[lane]) * fr(b[lane]) * r_inv);
            }
        }
        assert_eq!(checked, 5000 * LANES);
    }

    #[test]
    fn the_known_answers_are_ark_bn254s_and_the_model_passes_them() {
        let r_inv = r_inv();
        for (a, b, want) in KNOWN_ANSWERS {
            assert_eq!(fr(want), fr(a) * fr(b) * r_inv);
            assert_eq!(canonical(want), want, "{want:x?} not canonical");
            // Some limb product needs more than a double's 53 bits: an unfused multiply-add
            // would round it, so the self-test tells fused from unfused.
            let (la, lb) = (split52(&a), split52(&b));
            let inexact = la.iter().any(|&x| {
                lb.iter().any(|&y| {
                    let product = u128::from(x) * u128::from(y);
                    product >> 53 != 0 && product.trailing_zeros() < (128 - product.leading_zeros()) - 53
                })
            });
            assert!(inexact || a == [0; 4] || b == [1, 0, 0, 0], "{a:x?}·{b:x?} would pass unfused");
        }
        assert!(self_test());
    }
}
