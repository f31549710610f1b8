//! One permutation on both kinds of execution unit: the partial rounds split between the scalar
//! product (general-purpose registers, `mulx`) and a 4-lane vector (52-bit limbs, IFMA).
//!
//! A partial round is seven products: the S-box's three on lane 0, lane 0's product by `d₀`,
//! and the three diagonal products of lanes 1–3, which do not depend on this round's S-box. The
//! scalar permutation runs all seven on the integer multiplier, which bounds it (instruction
//! throughput, not latency). Here lanes 1–3 live in the vector registers for the whole partial
//! phase, in the scalar's own Montgomery form (`x·2^256`: the vector product divides by `2^260`,
//! so the diagonal is held as `d·2^260`), and their three products are one vector product on
//! the vector units, while the integer units run lane 0's four. Per round, two values cross:
//!
//! ```text
//!   scalar:  y = x₀ + c;  s₀ = y⁵;  x₀' = s₀·d₀ + (s₀ + T)
//!   vector:  [·, x₁', x₂', x₃'] = [0, x₁d₁, x₂d₂, x₃d₃] + (s₀ + T)
//!            T' = x₁' + x₂' + x₃', reduced below 1.001p
//!   s₀ goes to the vector side (split into 52-bit limbs, broadcast); T' comes back (lane 0,
//!   joined into 64-bit limbs), in time for the next round's last addition.
//! ```
//!
//! Lane 0 of the vector holds `0` times `d` plus the sum: bounded like the others, never read.
//!
//! The full rounds run on the vector alone, the state's four elements in its four lanes, in the
//! batch kernel's form `x·2^260` (entered and left by one product each, by `2^264` and by `1`):
//! one vector S-box a round instead of four scalar ones, and the external matrix as lane
//! shuffles and additions. Their S-boxes are independent, so the vector's latency is shared by
//! four elements; the scalar permutation runs them one product after another on one multiplier.
//! Measured on AMD Zen 4 (one core, interleaved runs): 7.12 µs a permutation with scalar full
//! rounds, 5.49 µs with vector ones.

use super::{
    DIAGONAL, ENTRY, EXIT, Element, INPUT_MAX, Lanes, RC as KERNEL_RC, UNIT, add, join, mul, normalize,
    product, reduce_sum, sbox, sbox_bound, splat, split,
};
use crate::montgomery::{Coarse, Product, add as add_coarse, add_unreduced};
use crate::permutation::{FULL_ROUNDS, PARTIAL_ROUNDS, RC, WIDTH};

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

/// `[0, d₁, d₂, d₃]`, each `d·2^260 mod p` in 52-bit limbs, limb by limb (`[limb][lane]`): a
/// vector product by it takes `x·2^256` to `x·d·2^256`.
const DIAGONAL_123: [[u64; WIDTH]; 5] = transpose([[0; 5], DIAGONAL[1], DIAGONAL[2], DIAGONAL[3]]);

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
    let (partial, _) = RC.split_at(FULL_ROUNDS / 2).1.split_at(PARTIAL_ROUNDS);
    let entry = splat::<4, V>(&ENTRY);
    let exit = splat::<4, V>(&EXIT);
    let mut v = mul(&to_vector(lanes), &entry);
    v = external_across(&v);
    for row in first {
        v = full_round_across(&v, row);
    }
    // Into the scalar's form (`x·2^256`), below 2p: lane 0 to the scalar side.
    let mut v = normalize(&mul(&normalize(&v), &exit));
    let mut x0 = lane(&v, 0);
    let d0 = &crate::permutation::DIAGONAL[0];
    let diagonal = from_rows(&DIAGONAL_123);
    let mut t = lane(&sum_123(&v), 0);
    for row in partial {
        let products = mul(&v, &diagonal);
        let y = add_unreduced(&x0, &row[0]);
        let y2 = a.square(&y);
        let y4 = a.square(&y2);
        let s0 = a.mul(&y, &y4);
        let sum = add_coarse(&s0, &t);
        v = normalize(&add(&products, &broadcast(&sum)));
        let p0 = a.mul(&s0, d0);
        x0 = add_coarse(&p0, &sum);
        t = lane(&sum_123(&v), 0);
    }
    // Lane 0 back from the scalar side, all four into the kernel's form.
    let mut v = mul(&with_lane0(&v, &broadcast(&x0)), &entry);
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

/// The vector lanes' bound (units `p/2^16`): lanes 1–3 enter below 2p; each round adds the
/// scalar's reduced sum (below 2p) to their products by the canonical diagonal (below
/// `product(lane, p)`). Asserts that every product input and the three lanes' sum stay below `R`
/// (the sum's quotient estimate needs it); they leave through the same reduction, below 1.001p.
const fn bounds() -> u128 {
    let mut x = 2 * UNIT;
    let mut round = 0;
    while round < PARTIAL_ROUNDS {
        x = product(x, UNIT) + 2 * UNIT;
        assert!(3 * x <= INPUT_MAX, "the three lanes' sum must stay below R");
        round += 1;
    }
    x
}
const LANE_BOUND: u128 = bounds();
// Evaluated (and so asserted) at compile time: the lanes settle near 3.04p.
const _: () = assert!(LANE_BOUND < 4 * UNIT);

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
