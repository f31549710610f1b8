//! One permutation on both kinds of execution unit: the partial rounds split between the scalar
//! product (general-purpose registers, `mulx`) and a 4-lane vector (52-bit limbs, IFMA).
//!
//! A partial round is seven products: the S-box's three on lane 0, lane 0's product by `d₀ + 1`,
//! and the three diagonal products of lanes 1–3, which do not depend on this round's S-box. The
//! scalar permutation runs all seven on the integer multiplier, which bounds it (instruction
//! throughput, not latency). Here lanes 1–3 live in the vector registers for the whole partial
//! phase, in the scalar's own Montgomery form (`x·2^256`: the vector product divides by `2^260`,
//! so the diagonal is held as `d·2^260`), and their three products are one vector product on
//! the vector units, while the integer units run lane 0's S-box.
//!
//! The product by `d₀ + 1` is scaled away. With `λ⁴ = (d₀ + 1)/2` (a fourth root exists for half
//! of `d₀ + 1`, not for `d₀ + 1`), the scalar side holds `z = λ(x₀ + c)` and the vector lanes
//! `wᵢ = μxᵢ` with `μ = 2λ⁵`; then `λ(d₀ + 1)s₀ = 2z⁵ = μs₀`, the same value for both sides:
//!
//! ```text
//!   scalar:  u = 2z·z⁴ (= μs₀);  z' = u + κW + λc'          (κ = (d₀ + 1)⁻¹, so κW = λT)
//!   vector:  [κW, w₁', w₂', w₃'] = [W, w₁, w₂, w₃]·[κ, d₁, d₂, d₃] + (0 | u + W)
//!            W' = w₁' + w₂' + w₃', reduced below 1.001p
//!   u goes to the vector side (split into 52-bit limbs, broadcast); κW comes back (lane 0 of the
//!   product, joined into 64-bit limbs), before this round's last addition.
//! ```
//!
//! Three products a round on the integer multiplier instead of four; `κW` rides in lane 0 of the
//! vector product, which held nothing before. The scalings enter and leave with the products
//! that take the state into and out of the scalar's form (by `[λ, μ, μ, μ]` and their inverses),
//! and the round constants are held as `λc`, so they cost nothing a permutation. Lane 0 of the
//! vector holds `κW + u + W` after a round: bounded, never read.
//!
//! The full rounds run on the vector alone, the state's four elements in its four lanes, in the
//! batch kernel's form `x·2^260` (entered and left by one product each, by `2^264` and by `1`):
//! one vector S-box a round instead of four scalar ones, and the external matrix as lane
//! shuffles and additions. Their S-boxes are independent, so the vector's latency is shared by
//! four elements; the scalar permutation runs them one product after another on one multiplier.
//! Measured on AMD Zen 4 (one core, interleaved runs): 7.12 µs a permutation with scalar full
//! rounds, 5.49 µs with vector ones; 5.09 µs with the scaled partial rounds (BENCHMARKS.md,
//! design: scaled-partial-rounds).

use super::{
    DIAGONAL, ENTRY, EXIT, Element, INPUT_MAX, Lanes, P64, R256, RC as KERNEL_RC, UNIT, add, add_limbs,
    canonical, join, mul, normalize, plus, product, reduce_sum, sbox, sbox_bound, shl_mod_p, splat, split,
    to_kernel_form,
};
use crate::montgomery::{Coarse, Product, add as add_coarse, add_unreduced, double_coarse, from_fr};
use crate::permutation::{FULL_ROUNDS, PARTIAL_ROUNDS, RC, WIDTH};
use ark_bn254::Fr;
use ark_ff::MontFp;

/// Four lanes with the shuffles the split round needs, on top of [`Lanes<4>`].
pub(crate) trait Across: Lanes<4> {
    /// `[x₁, x₀, x₃, x₂]`.
    fn swap_pairs(self) -> Self;
    /// `[x₂, x₃, x₀, x₁]`.
    fn swap_halves(self) -> Self;
    /// Lane 0 from `first`, lanes 1–3 from `self`.
    fn with_lane0(self, first: Self) -> Self;
    /// Lanes 0 and 2 from `self`, lanes 1 and 3 from `odd`.
    fn with_odd(self, odd: Self) -> Self;
}

#[cfg(test)]
impl Across for super::Xn<4> {
    fn swap_pairs(self) -> Self {
        let [a, b, c, d] = self.0;
        Self([b, a, d, c])
    }
    fn swap_halves(self) -> Self {
        let [a, b, c, d] = self.0;
        Self([c, d, a, b])
    }
    fn with_lane0(self, first: Self) -> Self {
        let [_, b, c, d] = self.0;
        Self([first.0[0], b, c, d])
    }
    fn with_odd(self, odd: Self) -> Self {
        let [a, _, c, _] = self.0;
        Self([a, odd.0[1], c, odd.0[3]])
    }
}

/// `λ`, a fourth root of `(d₀ + 1)/2` (`d₀ + 1` itself, a square, has none; half of it does).
/// Found once with `sympy.ntheory.residue_ntheory.nthroot_mod`; checked below at compile time.
const LAMBDA: Fr = MontFp!("5116563062127029100476143134713608988837323147718107905362676694079485286281");
/// `λ⁻¹`, checked below.
const LAMBDA_INVERSE: Fr =
    MontFp!("5159327881818309535776654757054078623380163324308146152846556699744562710457");

/// `a·b` in Montgomery form, canonical, at compile time.
const fn times(a: Coarse, b: Coarse) -> Coarse {
    canonical(crate::montgomery::mul(&a, &b))
}

/// `a/2 mod p` for a canonical input: `a/2` or `(a + p)/2`, at compile time.
const fn half(a: Coarse) -> Coarse {
    let (x, top) = if a[0] & 1 == 1 { add_limbs(a, P64) } else { (a, false) };
    [
        (x[0] >> 1) | (x[1] << 63),
        (x[1] >> 1) | (x[2] << 63),
        (x[2] >> 1) | (x[3] << 63),
        (x[3] >> 1) | ((top as u64) << 63),
    ]
}

/// Equality of limb arrays, at compile time.
const fn same(a: Coarse, b: Coarse) -> bool {
    a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3]
}

/// `[λ, μ = 2λ⁵, μ⁻¹, κ = (d₀ + 1)⁻¹]` in the scalar's Montgomery form, with the identities they
/// rest on asserted (`2λ⁴ = d₀ + 1`, so `μ⁻¹ = λ⁻⁵/2 = κ·λ⁻¹` and `κ = λ⁻⁴/2`).
const SCALINGS: [Coarse; 4] = {
    let lambda = from_fr(&LAMBDA);
    let inverse = from_fr(&LAMBDA_INVERSE);
    assert!(same(times(lambda, inverse), R256), "λ·λ⁻¹ must be 1");
    let lambda4 = times(times(lambda, lambda), times(lambda, lambda));
    let d0_plus_one = plus(crate::permutation::DIAGONAL[0], R256);
    assert!(same(plus(lambda4, lambda4), d0_plus_one), "2λ⁴ must be d₀ + 1");
    let lambda5 = times(lambda4, lambda);
    let mu = plus(lambda5, lambda5);
    let inverse4 = times(times(inverse, inverse), times(inverse, inverse));
    let kappa = half(inverse4);
    assert!(same(times(kappa, d0_plus_one), R256), "κ·(d₀ + 1) must be 1");
    let mu_inverse = times(kappa, inverse);
    assert!(same(times(mu, mu_inverse), R256), "μ·μ⁻¹ must be 1");
    [lambda, mu, mu_inverse, kappa]
};

/// The product that takes the state from the first full rounds (kernel form `x·2^260`) to the
/// partial rounds' scaled state `[λx₀, μx₁, μx₂, μx₃]` in the scalar's form: `[λ, μ, μ, μ]`,
/// each times `2^256`, plain (as [`EXIT`] for the unscaled state).
const INTO_PARTIAL: [[u64; WIDTH]; 5] = {
    let [lambda, mu, _, _] = SCALINGS;
    transpose([split(lambda), split(mu), split(mu), split(mu)])
};

/// The product that takes the scaled state back to the kernel's form: `[λ⁻¹, μ⁻¹, μ⁻¹, μ⁻¹]`,
/// each times `2^264`, plain (as [`ENTRY`] for the unscaled state).
const OUT_OF_PARTIAL: [[u64; WIDTH]; 5] = {
    let [_, _, mu_inverse, _] = SCALINGS;
    let lanes = split(shl_mod_p(mu_inverse, 8));
    transpose([split(shl_mod_p(from_fr(&LAMBDA_INVERSE), 8)), lanes, lanes, lanes])
};

/// A partial round's vector factors `[κ, d₁, d₂, d₃]` in the kernel's form: a product by them
/// takes `[W, w₁, w₂, w₃]` (the scalar's form) to `[κW, d₁w₁, d₂w₂, d₃w₃]`.
const FACTORS: [[u64; WIDTH]; 5] =
    transpose([to_kernel_form(SCALINGS[3]), DIAGONAL[1], DIAGONAL[2], DIAGONAL[3]]);

/// `λ·c` for each partial round's lane-0 constant `c` (canonical, the scalar's form), and a zero
/// after the last: round `r` adds entry `r + 1` to `z`.
#[allow(
    clippy::indexing_slicing,
    reason = "const loops over fixed-size arrays, every index below the length"
)]
const SCALED_RC: [Coarse; PARTIAL_ROUNDS + 1] = {
    let mut out = [[0u64; 4]; PARTIAL_ROUNDS + 1];
    let mut r = 0;
    while r < PARTIAL_ROUNDS {
        out[r] = times(SCALINGS[0], RC[FULL_ROUNDS / 2 + r][0]);
        r += 1;
    }
    out
};

/// Four elements' 52-bit limbs (`[lane][limb]`) as five limb rows (`[limb][lane]`).
#[allow(
    clippy::indexing_slicing,
    reason = "const loops over fixed-size arrays, every index below the length"
)]
#[inline(always)]
const fn transpose(elements: [[u64; 5]; WIDTH]) -> [[u64; WIDTH]; 5] {
    let mut out = [[0; WIDTH]; 5];
    let mut limb = 0;
    while limb < 5 {
        let mut lane = 0;
        while lane < WIDTH {
            out[limb][lane] = elements[lane][limb];
            lane += 1;
        }
        limb += 1;
    }
    out
}

/// Five limb rows (`[limb][lane]`) as an element of vectors.
#[inline(always)]
fn from_rows<V: Across>(rows: &[[u64; WIDTH]; 5]) -> Element<V> {
    let [r0, r1, r2, r3, r4] = *rows;
    [V::from_array(r0), V::from_array(r1), V::from_array(r2), V::from_array(r3), V::from_array(r4)]
}

/// A scalar value broadcast to every lane, in 52-bit limbs.
#[inline(always)]
fn broadcast<V: Across>(x: &Coarse) -> Element<V> {
    let l = split(*x);
    [V::splat(l[0]), V::splat(l[1]), V::splat(l[2]), V::splat(l[3]), V::splat(l[4])]
}

/// Lane `i` (below 4) of a normalized element as 64-bit limbs.
#[allow(clippy::indexing_slicing, reason = "callers pass a lane below 4")]
#[inline(always)]
fn lane<V: Across>(x: &Element<V>, i: usize) -> Coarse {
    let [l0, l1, l2, l3, l4] = *x;
    join([l0.to_array()[i], l1.to_array()[i], l2.to_array()[i], l3.to_array()[i], l4.to_array()[i]])
}

/// `x₁ + x₂ + x₃` in every lane (lane 0 left out), reduced below `1.001p`, normalized.
#[inline(always)]
fn sum_123<V: Across>(x: &Element<V>) -> Element<V> {
    let [l0, l1, l2, l3, l4] = *x;
    normalize(&reduce_sum(&[across(l0), across(l1), across(l2), across(l3), across(l4)]))
}

/// Lanes 1–3 of one limb summed into every lane. A function, not a closure: see
/// [`external_limb`].
#[inline(always)]
fn across<V: Across>(v: V) -> V {
    let v = v.with_lane0(V::splat(0));
    let pairs = v.add(v.swap_pairs());
    pairs.add(pairs.swap_halves())
}

/// The full rounds' constants in the kernel's form, element `i` in lane `i`: `[round][limb]`.
#[allow(
    clippy::indexing_slicing,
    reason = "const loops over fixed-size arrays, every index below the length"
)]
const FULL_RC: [[[u64; WIDTH]; 5]; FULL_ROUNDS] = {
    let mut out = [[[0u64; WIDTH]; 5]; FULL_ROUNDS];
    let mut r = 0;
    while r < FULL_ROUNDS {
        let row = if r < FULL_ROUNDS / 2 { r } else { r + PARTIAL_ROUNDS };
        out[r] = transpose(KERNEL_RC[row]);
        r += 1;
    }
    out
};

/// `M_E·s` with element `i` of the state in lane `i`, limb by limb (unnormalized limbs, as the
/// batch kernel's `external_matrix`). With `tₖ` the pair sums `x₀ + x₁` and `x₂ + x₃`, `S` the
/// total and `O = x₁ + x₃`, barretenberg's rows `[5,7,1,3] [4,6,1,1] [1,3,5,7] [1,1,4,6]` are
/// `3t + S` plus, in lanes 0 and 2, `t + 2·O`, and in lanes 1 and 3, twice the lane's own
/// element. Each output limb is a sum of at most 16 input limbs, as in the batch kernel.
#[inline(always)]
fn external_across<V: Across>(x: &Element<V>) -> Element<V> {
    let [l0, l1, l2, l3, l4] = *x;
    [external_limb(l0), external_limb(l1), external_limb(l2), external_limb(l3), external_limb(l4)]
}

/// [`external_across`] on one limb. A function, not a closure: a closure compiles to a function
/// of its own, outside the kernel's target features, where the lane operations would not inline.
#[inline(always)]
fn external_limb<V: Across>(l: V) -> V {
    let swapped = l.swap_pairs();
    let pairs = l.add(swapped);
    let total = pairs.add(pairs.swap_halves());
    let odd = swapped.add(swapped.swap_halves());
    let base = pairs.add(pairs).add(pairs).add(total);
    let even_part = pairs.add(odd).add(odd);
    base.add(even_part.with_odd(l.add(l)))
}

/// One full round with the state's four elements in the four lanes: one vector S-box.
#[inline(always)]
fn full_round_across<V: Across>(x: &Element<V>, constants: &[[u64; WIDTH]; 5]) -> Element<V> {
    external_across(&sbox(&normalize(&add(x, &from_rows(constants)))))
}

/// Lane 0 from `first`, lanes 1–3 from `x`, limb by limb.
#[inline(always)]
fn with_lane0<V: Across>(x: &Element<V>, first: &Element<V>) -> Element<V> {
    let [l0, l1, l2, l3, l4] = *x;
    let [f0, f1, f2, f3, f4] = *first;
    [l0.with_lane0(f0), l1.with_lane0(f1), l2.with_lane0(f2), l3.with_lane0(f3), l4.with_lane0(f4)]
}

/// The permutation on coarse lanes: the full rounds on the vector (the state's four elements in
/// its four lanes, the kernel's form `x·2^260`), the partial rounds split between `a`'s scalar
/// products (lane 0) and `V`'s lanes (lanes 1–3, in the scalar's form `x·2^256`).
#[inline(always)]
pub(crate) fn permute_lanes_mixed<A: Product, V: Across>(a: A, lanes: &mut [Coarse; WIDTH]) {
    let (first, last) = FULL_RC.split_at(FULL_ROUNDS / 2);
    let entry = splat::<4, V>(&ENTRY);
    let exit = splat::<4, V>(&EXIT);
    let mut v = mul(&to_vector(lanes), &entry);
    v = external_across(&v);
    for row in first {
        v = full_round_across(&v, row);
    }
    // Into the scalar's form (`x·2^256`), scaled, below 2p: `[λx₀, μx₁, μx₂, μx₃]`, lane 0 to
    // the scalar side as `z = λ(x₀ + c)`.
    let mut v = normalize(&mul(&normalize(&v), &from_rows(&INTO_PARTIAL)));
    let factors = from_rows(&FACTORS);
    let mut z = add_coarse(&lane(&v, 0), &SCALED_RC[0]);
    let mut w = sum_123(&v);
    for constant in SCALED_RC.iter().skip(1) {
        // [W, w₁, w₂, w₃]·[κ, d₁, d₂, d₃]: lane 0 is `κW = λT`, the scalar's share of the sum.
        let products = mul(&with_lane0(&v, &w), &factors);
        let share = add_unreduced(&lane(&normalize(&products), 0), constant);
        let doubled = double_coarse(&z);
        let z2 = a.square(&z);
        let z4 = a.square(&z2);
        // u = 2z⁵ = μs₀.
        let u = a.mul(&doubled, &z4);
        v = normalize(&add(&products, &add(&broadcast(&u), &w)));
        // 2z⁵ + λT + λc = λ((d₀ + 1)s₀ + T + c).
        z = add_coarse(&u, &share);
        w = sum_123(&v);
    }
    // Lane 0 back from the scalar side, the scaling undone, all four into the kernel's form.
    let mut v = mul(&with_lane0(&v, &broadcast(&z)), &from_rows(&OUT_OF_PARTIAL));
    for row in last {
        v = full_round_across(&v, row);
    }
    let v = normalize(&mul(&normalize(&v), &exit));
    *lanes = [lane(&v, 0), lane(&v, 1), lane(&v, 2), lane(&v, 3)];
}

/// All four scalar lanes into the vector's four lanes.
#[inline(always)]
fn to_vector<V: Across>(lanes: &[Coarse; WIDTH]) -> Element<V> {
    let [a, b, c, d] = lanes;
    from_rows(&transpose([split(*a), split(*b), split(*c), split(*d)]))
}

/// A scalar product's bound (units `p/2^16`) for inputs below `a` and `b`: `a·b·p/2^256 + p`,
/// rounded up (`p < (p₃ + 1)·2^192`, so `p/2^256 < (⌊p₃/2^32⌋ + 1)/2^32`). Asserts the inputs
/// are below `3p`, as [`crate::montgomery::mul`] requires.
const fn scalar_product(a: u128, b: u128) -> u128 {
    assert!(a <= 3 * UNIT && b <= 3 * UNIT, "a scalar product input above 3p");
    (a * b * ((P64[3] >> 32) as u128 + 1)).div_ceil(1 << 48) + UNIT
}

/// The partial rounds' shared sum `W` after [`reduce_sum`]: below `1.001p` (units `p/2^16`).
const SUM_BOUND: u128 = UNIT + UNIT / 512;

/// The partial rounds' bounds (units `p/2^16`): lane 0 on the scalar side from `z < 2p`: `2z`
/// (reduced below 2p), `z²`, `z⁴`, `u = 2z·z⁴`, plus the vector's `κW` and a canonical `λc`,
/// asserted below `4p` so that the reducing addition leaves `z < 2p` again. Returns `u`'s bound,
/// which the vector lanes add.
const U_BOUND: u128 = {
    let z = 2 * UNIT;
    let z2 = scalar_product(z, z);
    let u = scalar_product(z, scalar_product(z2, z2));
    assert!(u + product(SUM_BOUND, UNIT) + UNIT < 4 * UNIT, "z must leave the reducing addition below 2p");
    u
};

/// The vector lanes' bound (units `p/2^16`): lanes 1–3 enter below 2p; each round adds `u` and
/// `W` to their products by the canonical diagonal (below `product(lane, p)`). Asserts that every
/// product input and the three lanes' sum stay below `R` (the sum's quotient estimate needs it),
/// and that lane 0 (`κW + u + W`, never read) stays below `R` for the normalization; they leave
/// through the same reduction, below 1.001p.
const fn bounds() -> u128 {
    let sum = U_BOUND + SUM_BOUND;
    assert!(product(SUM_BOUND, UNIT) + sum <= INPUT_MAX, "lane 0 must stay below R");
    let mut x = 2 * UNIT;
    let mut round = 0;
    while round < PARTIAL_ROUNDS {
        x = product(x, UNIT) + sum;
        assert!(3 * x <= INPUT_MAX, "the three lanes' sum must stay below R");
        round += 1;
    }
    x
}
const LANE_BOUND: u128 = bounds();
// Evaluated (and so asserted) at compile time: the lanes settle near 4.6p.
const _: () = assert!(LANE_BOUND < 5 * UNIT);

/// The bound (units `p/2^16`) after four full rounds on the vector from values below `entered`
/// (a product's output, normalized), with `M_E` first where `matrix_first`: each round's S-box
/// input (the lanes plus a constant below p) stays below `R`.
const fn full_rounds_bound(entered: u128, matrix_first: bool) -> u128 {
    let mut x = if matrix_first { 16 * entered } else { entered };
    let mut round = 0;
    while round < FULL_ROUNDS / 2 {
        let input = x + UNIT;
        assert!(input <= INPUT_MAX, "a full round's S-box input must stay below R");
        x = 16 * sbox_bound(input);
        round += 1;
    }
    assert!(x <= INPUT_MAX, "the exit product's input must stay below R");
    x
}
/// The split permutation's bounds: lanes leave the first full rounds, through the exit product,
/// below 2p (the partial rounds' [`bounds`] start there; lane 0 goes to the scalar side as a
/// coarse value); they leave the last full rounds the same way, coarse.
const SPLIT_OUT: [u128; 2] = {
    let first = product(full_rounds_bound(product(2 * UNIT, UNIT), true), UNIT);
    let widest_in = if LANE_BOUND > 2 * UNIT { LANE_BOUND } else { 2 * UNIT };
    let last = product(full_rounds_bound(product(widest_in, UNIT), false), UNIT);
    [first, last]
};
const _: () = assert!(SPLIT_OUT[0] < 2 * UNIT && SPLIT_OUT[1] < 2 * UNIT);

#[cfg(test)]
mod tests {
    use super::super::Xn;
    use super::super::tests::batches;
    use super::*;
    use crate::montgomery::TWO_P;
    use crate::montgomery::{Portable, from_fr, to_fr};
    use crate::permutation::permute_lanes_portable;
    use ark_bn254::Fr;
    use ark_ff::{AdditiveGroup, Field};

    /// States: every batch's eight (random, zero, near p, mixed edges), then a chain of 64
    /// (each output the next input).
    fn each_state(mut check: impl FnMut(&[Coarse; WIDTH]) -> [Coarse; WIDTH]) -> usize {
        let mut checked = 0;
        for batch in batches() {
            for state in &batch {
                check(&state.each_ref().map(from_fr));
                checked += 1;
            }
        }
        let mut lanes = batches()[0][0].each_ref().map(from_fr);
        for _ in 0..64 {
            lanes = check(&lanes);
            checked += 1;
        }
        checked
    }

    /// The model (`Xn<4>` and the portable product): coarse lane for coarse lane the scalar
    /// permutation's values, every lane below 2p.
    #[test]
    fn the_model_is_the_scalar_permutation() {
        std::eprintln!("mixed: partial rounds' vector lanes below {:.3}p", LANE_BOUND as f64 / UNIT as f64);
        let checked = each_state(|input| {
            let (mut got, mut expected) = (*input, *input);
            permute_lanes_mixed::<Portable, Xn<4>>(Portable, &mut got);
            permute_lanes_portable(&mut expected);
            assert_eq!(got.each_ref().map(to_fr), expected.each_ref().map(to_fr), "{input:x?}");
            assert!(got.iter().all(|x| x.iter().rev().lt(TWO_P.iter().rev())), "{got:x?}");
            expected
        });
        assert_eq!(checked, 8 * batches().len() + 64);
    }

    /// The external matrix across lanes against the scalar one, on values below 2p.
    #[test]
    fn the_matrix_across_lanes_is_the_scalar_matrix() {
        for batch in batches() {
            for state in &batch {
                let lanes = state.each_ref().map(from_fr);
                let mut expected = lanes;
                crate::permutation::external_matrix(&mut expected);
                let v: Element<Xn<4>> = to_vector(&lanes);
                // Up to 32p: compared as integers mod p, limb by limb.
                let got = external_across(&v);
                let plain = |limbs: &[u64], bits: u64| {
                    limbs
                        .iter()
                        .rev()
                        .fold(Fr::ZERO, |acc, &l| acc * Fr::from(2u64).pow([bits]) + Fr::from(l))
                };
                for (i, e) in expected.iter().enumerate() {
                    let limbs = got.map(|l| l.0[i]);
                    assert_eq!(plain(&limbs, 52), plain(e, 64), "{state:?} lane {i}");
                }
            }
        }
    }

    /// The kernel (ADX product, ymm lanes) against the model and the scalar permutation. Where
    /// the CPU lacks AVX-512 IFMA or ADX the kernel never runs, nor this comparison: it says so,
    /// and fails if `/proc/cpuinfo` lists `avx512ifma` (a detection that missed it would skip the
    /// check on a CPU that runs the kernel).
    #[cfg(all(target_arch = "x86_64", feature = "asm"))]
    #[test]
    fn the_kernel_is_the_model_and_the_scalar_permutation() {
        let Some(ifma) = crate::montgomery::ifma::for_test_or_skip("the split permutation") else {
            return;
        };
        // Every CPU with AVX-512 has BMI2 and ADX.
        let Some(adx) = crate::montgomery::Adx::detect_ignoring_environment() else {
            panic!("AVX-512 IFMA without BMI2 and ADX: the split permutation's check cannot run");
        };
        let checked = each_state(|input| {
            let (mut kernel, mut model, mut expected) = (*input, *input, *input);
            ifma.permute_lanes_mixed(adx, &mut kernel);
            permute_lanes_mixed::<Portable, Xn<4>>(Portable, &mut model);
            permute_lanes_portable(&mut expected);
            assert_eq!(kernel, model, "{input:x?}");
            assert_eq!(kernel.each_ref().map(to_fr), expected.each_ref().map(to_fr), "{input:x?}");
            expected
        });
        assert_eq!(checked, 8 * batches().len() + 64);
    }
}
