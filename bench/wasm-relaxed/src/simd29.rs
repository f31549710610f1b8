//! The WASM guest's 29-bit Montgomery product (`txfx_poseidon`'s `limbs29::mul`: nine 29-bit
//! limbs in 64-bit words, radix `2^261`, rows interleaved with their reduction) on two lanes of
//! plain `simd128` (no relaxed instructions, so every engine since 2021 runs it): limb `k` of
//! both values in one `i64x2`, each limb product one lane of `i64x2.extmul_low_i32x4_u` (32×32 →
//! 64 bits, exact for limbs below `2^32`). The question it answers (issue 30): does V8 run two
//! such products side by side faster than it runs the scalar product twice? Two lanes are two
//! states in lockstep, or a partial round's S-box chain beside its diagonal products.
//!
//! **Measured** (AMD EPYC Zen 4, December 2026, `measure.mjs`, two rounds each, ns per product
//! per lane, throughput / latency): Node 20.20.2 49.3–49.7 / 50.3–51.6 against the i64 product's
//! 50.7–51.6 / 55.2–56.1; Chromium 156 51.7–52.5 / 52.3–53.6 against 57.6–58.2 / 58.7–59.9: at
//! most 1.1×, short of what a two-lane rewrite of the permutation would need. LLVM emits 81
//! `i64x2.extmul_low_i32x4_u` for the product's rows but 72 `i64x2.mul` for the reduction's
//! `m·p_j` (it proves both operands below `2^32`, drops the zero-extensions and loads the
//! constants with `v128.load32x2_u`; V8 has no single x64 instruction for `i64x2.mul`), and it
//! did so in every form tried: `m` on 64-bit lanes, on 32-bit lanes, and behind
//! `core::hint::black_box` on `m`, on the constants, or both (those were slower, 55–60 ns).
//!
//! The algorithm is `limbs29::mul`'s, row for row, so each lane's result equals the scalar
//! product's limb for limb (the host test checks that on the portable model below, against
//! ark-bn254; `simd29_self_test` checks the wasm32 build against the guest's own product).

#![allow(clippy::indexing_slicing, reason = "fixed-size limb arrays indexed by unrolled constant loops")]

use crate::product::P;

pub use lanes::{Packed, V};

const MASK29: u64 = (1 << 29) - 1;

/// A value below `2^261` in four words (and a fifth) as nine 29-bit limbs.
const fn split(w: &[u64; 4]) -> [u64; 9] {
    let mut out = [0u64; 9];
    let mut k = 0;
    while k < 9 {
        let bit = 29 * k;
        let (word, shift) = (bit / 64, bit % 64);
        let mut v = w[word] >> shift;
        if shift > 35 && word + 1 < 4 {
            v |= w[word + 1] << (64 - shift);
        }
        out[k] = v & MASK29;
        k += 1;
    }
    out
}

/// Nine normalised 29-bit limbs (value below `2^256`) as four words.
fn join(l: &[u64; 9]) -> [u64; 4] {
    let mut w = [0u64; 4];
    for (k, limb) in l.iter().enumerate() {
        let bit = 29 * k;
        let (word, shift) = (bit / 64, bit % 64);
        w[word] |= limb << shift;
        if shift > 35 && word + 1 < 4 {
            w[word + 1] |= limb >> (64 - shift);
        }
    }
    w
}

const P29: [u64; 9] = split(&P);
const _: () = assert!(P29[0] == (1 << 28) + 1);

#[cfg(target_arch = "wasm32")]
mod lanes {
    use core::arch::wasm32::{
        i32x4_shl, i32x4_shuffle, i32x4_sub, i64x2, i64x2_add, i64x2_extract_lane, i64x2_shl, i64x2_splat,
        i64x2_sub, u32x4_splat, u64x2_extend_low_u32x4, u64x2_extmul_low_u32x4, u64x2_shr, v128, v128_and,
    };

    const MASK29: u32 = (1 << 29) - 1;

    /// Two 64-bit lanes.
    #[derive(Clone, Copy)]
    pub struct V(v128);
    /// Two values below `2^32` in the low two 32-bit lanes: an operand of [`Packed::widening_mul`].
    #[derive(Clone, Copy)]
    pub struct Packed(v128);

    impl V {
        /// Both lanes `x`.
        #[target_feature(enable = "simd128")]
        #[inline]
        pub fn splat(x: u64) -> Self {
            Self(i64x2_splat(x.cast_signed()))
        }
        /// The two lanes given.
        #[target_feature(enable = "simd128")]
        #[inline]
        pub fn from_lanes(l: [u64; 2]) -> Self {
            Self(i64x2(l[0].cast_signed(), l[1].cast_signed()))
        }
        /// The two lanes.
        #[target_feature(enable = "simd128")]
        #[inline]
        pub fn lanes(self) -> [u64; 2] {
            [i64x2_extract_lane::<0>(self.0).cast_unsigned(), i64x2_extract_lane::<1>(self.0).cast_unsigned()]
        }
        lanewise!("simd128":
            /// Lane-wise sum (wrapping).
            iadd => i64x2_add,
            /// Lane-wise difference (wrapping).
            isub => i64x2_sub,
            /// Lane-wise AND.
            and => v128_and,
        );
        /// Each lane shifted left by `n`.
        #[target_feature(enable = "simd128")]
        #[inline]
        pub fn shl_by(self, n: u32) -> Self {
            Self(i64x2_shl(self.0, n))
        }
        /// Each lane shifted right (logical) by `n`.
        #[target_feature(enable = "simd128")]
        #[inline]
        pub fn shr_by(self, n: u32) -> Self {
            Self(u64x2_shr(self.0, n))
        }
        /// The lanes (each below `2^32`) as an operand of [`Packed::widening_mul`].
        #[target_feature(enable = "simd128")]
        #[inline]
        pub fn pack(self) -> Packed {
            Packed(i32x4_shuffle::<0, 2, 0, 2>(self.0, self.0))
        }
    }

    impl Packed {
        /// Each lane's 64-bit product.
        #[target_feature(enable = "simd128")]
        #[inline]
        pub fn widening_mul(self, b: Self) -> V {
            V(u64x2_extmul_low_u32x4(self.0, b.0))
        }
        /// Each lane's Montgomery multiplier `m = t·(2^28 − 1) mod 2^29`, on the 32-bit lanes.
        #[target_feature(enable = "simd128")]
        #[inline]
        pub fn montgomery_m(self) -> Self {
            let t = self.0;
            Packed(v128_and(i32x4_sub(i32x4_shl(v128_and(t, u32x4_splat(1)), 28), t), u32x4_splat(MASK29)))
        }
        /// The low two lanes, zero-extended to 64 bits.
        #[target_feature(enable = "simd128")]
        #[inline]
        pub fn widen(self) -> V {
            V(u64x2_extend_low_u32x4(self.0))
        }
    }
}

/// The portable model: the same operations on two `u64`s.
#[cfg(not(target_arch = "wasm32"))]
mod lanes {
    /// Two 64-bit lanes.
    #[derive(Clone, Copy)]
    pub struct V([u64; 2]);
    /// The low 32 bits of two lanes: an operand of [`Packed::widening_mul`].
    #[derive(Clone, Copy)]
    pub struct Packed([u64; 2]);

    impl V {
        /// Both lanes `x`.
        pub fn splat(x: u64) -> Self {
            Self([x; 2])
        }
        /// The two lanes given.
        pub fn from_lanes(l: [u64; 2]) -> Self {
            Self(l)
        }
        /// The two lanes.
        pub fn lanes(self) -> [u64; 2] {
            self.0
        }
        lanewise_model!(
            /// Lane-wise sum (wrapping).
            iadd => u64::wrapping_add,
            /// Lane-wise difference (wrapping).
            isub => u64::wrapping_sub,
            /// Lane-wise AND.
            and => |x, y| x & y,
        );
        /// Each lane shifted left by `n`.
        pub fn shl_by(self, n: u32) -> Self {
            Self(self.0.map(|x| x << n))
        }
        /// Each lane shifted right (logical) by `n`.
        pub fn shr_by(self, n: u32) -> Self {
            Self(self.0.map(|x| x >> n))
        }
        /// Only the low 32 bits of each lane take part in a product, as in `extmul_low_i32x4_u`.
        pub fn pack(self) -> Packed {
            Packed(self.0.map(|x| x & 0xffff_ffff))
        }
    }

    impl Packed {
        /// Each lane's 64-bit product of the packed 32-bit operands.
        pub fn widening_mul(self, b: Self) -> V {
            V([self.0[0] * b.0[0], self.0[1] * b.0[1]])
        }
        /// `m = t·(2^28 − 1) mod 2^29` on the low 32 bits.
        pub fn montgomery_m(self) -> Self {
            Packed(self.0.map(|t| ((t & 1) << 28).wrapping_sub(t) & ((1 << 29) - 1)))
        }
        /// The lanes as 64-bit values.
        pub fn widen(self) -> V {
            V(self.0)
        }
    }
}

/// Two values, limb-major: `self.0[k]` holds limb `k` of both lanes.
#[derive(Clone, Copy)]
pub struct Vals(pub [V; 9]);

impl Vals {
    /// Two values below `2^256` as limbs (no change of radix: [`mul`] gives `a·b·2^-261`).
    #[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]
    #[inline]
    pub fn from_words(lanes: &[[u64; 4]; 2]) -> Self {
        let (a, b) = (split(&lanes[0]), split(&lanes[1]));
        Self(core::array::from_fn(|k| V::from_lanes([a[k], b[k]])))
    }

    /// The two values as four words each (normalised limbs; the value below `2^256`).
    #[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]
    #[inline]
    pub fn words(&self) -> [[u64; 4]; 2] {
        let l = self.0.map(|v| v.lanes());
        [join(&l.map(|x| x[0])), join(&l.map(|x| x[1]))]
    }
}

/// One row: `acc + a·b_i + m·p`, divided by `2^29`, `m` from the low word as the guest's
/// `reduce_low_29` takes it (shifts and additions, `p_0 = 2^28 + 1`).
#[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]
#[inline]
fn row(acc: [V; 9], a: &[Packed; 9], bi: Packed, p: &[Packed; 9]) -> [V; 9] {
    let mut acc = acc;
    for j in 0..9 {
        acc[j] = acc[j].iadd(a[j].widening_mul(bi));
    }
    let t = acc[0];
    let mp = t.pack().montgomery_m();
    let m = mp.widen();
    let carry = t.iadd(m).shr_by(28).iadd(m).shr_by(1);
    for j in 1..9 {
        acc[j] = acc[j].iadd(mp.widening_mul(p[j]));
    }
    [acc[1].iadd(carry), acc[2], acc[3], acc[4], acc[5], acc[6], acc[7], acc[8], V::splat(0)]
}

/// Each lane's `a·b·2^-261` (below `a·b/2^261 + p`), normalised; limbs of one operand below
/// `2^30`, of the other below `2^29`, as the scalar product requires.
#[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]
#[inline]
pub fn mul(a: &Vals, b: &Vals) -> Vals {
    let p = P29.map(|x| V::splat(x).pack());
    let ap = a.0.map(|v| v.pack());
    let b = &b.0;
    let acc = [V::splat(0); 9];
    let acc = row(acc, &ap, b[0].pack(), &p);
    let acc = row(acc, &ap, b[1].pack(), &p);
    let acc = row(acc, &ap, b[2].pack(), &p);
    let acc = row(acc, &ap, b[3].pack(), &p);
    let acc = row(acc, &ap, b[4].pack(), &p);
    let acc = row(acc, &ap, b[5].pack(), &p);
    let acc = row(acc, &ap, b[6].pack(), &p);
    let acc = row(acc, &ap, b[7].pack(), &p);
    let mut acc = row(acc, &ap, b[8].pack(), &p);
    let mask = V::splat(MASK29);
    for j in 0..8 {
        acc[j + 1] = acc[j + 1].iadd(acc[j].shr_by(29));
        acc[j] = acc[j].and(mask);
    }
    Vals(acc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_bn254::Fr;
    use ark_ff::{Field, PrimeField};

    /// The field element of four words (reduced mod p: `P` itself is among the inputs).
    fn fr(w: &[u64; 4]) -> Fr {
        Fr::from_le_bytes_mod_order(&w.iter().flat_map(|word| word.to_le_bytes()).collect::<Vec<u8>>())
    }

    #[test]
    fn each_lane_is_the_montgomery_product_in_radix_2_261() {
        let p_minus_1 = {
            let mut w = P;
            w[0] -= 1;
            w
        };
        let inv = Fr::from(2u64).pow([261]).inverse().expect("2 is invertible");
        let mut values = vec![[0u64; 4], [1, 0, 0, 0], p_minus_1, P];
        values.extend(crate::values::<400>(0x2929));
        let mut checked = 0;
        for (i, x) in values.iter().enumerate() {
            let y = values[(i * 7 + 3) % values.len()];
            let z = values[(i * 13 + 1) % values.len()];
            let got = mul(&Vals::from_words(&[*x, y]), &Vals::from_words(&[z, *x])).words();
            assert_eq!(fr(&got[0]), fr(x) * fr(&z) * inv, "{x:x?}·{z:x?}");
            assert_eq!(fr(&got[1]), fr(&y) * fr(x) * inv, "{y:x?}·{x:x?}");
            checked += 1;
        }
        assert_eq!(checked, values.len());
    }
}
