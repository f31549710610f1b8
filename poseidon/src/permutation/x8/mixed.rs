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
//! The full rounds stay scalar. Lane 0 of the vector holds `0` times `d` plus the sum: bounded
//! like the others, never read.

use super::{
    DIAGONAL, Element, INPUT_MAX, Lanes, UNIT, add, join, mul, normalize, product, reduce_sum, split,
};
use crate::montgomery::{Coarse, Product, add as add_coarse, add_unreduced};
use crate::permutation::{FULL_ROUNDS, PARTIAL_ROUNDS, RC, WIDTH, external_matrix, full_round};

/// Four lanes with the shuffles the split round needs, on top of [`Lanes<4>`].
pub(crate) trait Across: Lanes<4> {
    /// `[x₁, x₀, x₃, x₂]`.
    fn swap_pairs(self) -> Self;
    /// `[x₂, x₃, x₀, x₁]`.
    fn swap_halves(self) -> Self;
    /// Lane 0 from `first`, lanes 1–3 from `self`.
    fn with_lane0(self, first: Self) -> Self;
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
}

/// `[0, d₁, d₂, d₃]`, each `d·2^260 mod p` in 52-bit limbs: a vector product by it takes
/// `x·2^256` to `x·d·2^256`.
const DIAGONAL_123: [[u64; 5]; WIDTH] = [[0; 5], DIAGONAL[1], DIAGONAL[2], DIAGONAL[3]];

/// The scalar lanes 1–3 of `lanes` into the vector's lanes 1–3 (lane 0 zero).
#[inline(always)]
fn to_vector<V: Across>(lanes: &[Coarse; WIDTH]) -> Element<V> {
    let [_, a, b, c] = lanes.each_ref().map(|x| split(*x));
    [
        V::from_array([0, a[0], b[0], c[0]]),
        V::from_array([0, a[1], b[1], c[1]]),
        V::from_array([0, a[2], b[2], c[2]]),
        V::from_array([0, a[3], b[3], c[3]]),
        V::from_array([0, a[4], b[4], c[4]]),
    ]
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
    let zero = V::splat(0);
    let [l0, l1, l2, l3, l4] = *x;
    let across = |v: V| {
        let v = v.with_lane0(zero);
        let pairs = v.add(v.swap_pairs());
        pairs.add(pairs.swap_halves())
    };
    normalize(&reduce_sum(&[across(l0), across(l1), across(l2), across(l3), across(l4)]))
}

/// The permutation on coarse lanes, the partial rounds split between `a`'s scalar products and
/// `V`'s vector lanes.
#[inline(always)]
pub(crate) fn permute_lanes_mixed<A: Product, V: Across>(a: A, lanes: &mut [Coarse; WIDTH]) {
    let (first, rest) = RC.split_at(FULL_ROUNDS / 2);
    let (partial, last) = rest.split_at(PARTIAL_ROUNDS);
    external_matrix(lanes);
    for row in first {
        full_round(a, lanes, row);
    }
    let d0 = &crate::permutation::DIAGONAL[0];
    let diagonal = [
        V::from_array([DIAGONAL_123[0][0], DIAGONAL_123[1][0], DIAGONAL_123[2][0], DIAGONAL_123[3][0]]),
        V::from_array([DIAGONAL_123[0][1], DIAGONAL_123[1][1], DIAGONAL_123[2][1], DIAGONAL_123[3][1]]),
        V::from_array([DIAGONAL_123[0][2], DIAGONAL_123[1][2], DIAGONAL_123[2][2], DIAGONAL_123[3][2]]),
        V::from_array([DIAGONAL_123[0][3], DIAGONAL_123[1][3], DIAGONAL_123[2][3], DIAGONAL_123[3][3]]),
        V::from_array([DIAGONAL_123[0][4], DIAGONAL_123[1][4], DIAGONAL_123[2][4], DIAGONAL_123[3][4]]),
    ];
    let mut x0 = lanes[0];
    let mut v: Element<V> = to_vector(lanes);
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
    // Lanes 1–3 below 3.1p: reduced below 1.001p for the scalar rounds (which take them below 2p).
    let v = normalize(&reduce_sum(&v));
    *lanes = [x0, lane(&v, 1), lane(&v, 2), lane(&v, 3)];
    for row in last {
        full_round(a, lanes, row);
    }
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

#[cfg(test)]
mod tests {
    use super::super::Xn;
    use super::super::tests::batches;
    use super::*;
    use crate::montgomery::{Portable, from_fr, to_fr};
    use crate::permutation::permute_lanes_portable;

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

    /// The model: the split round on `Xn<4>` and the portable product, coarse lane for coarse
    /// lane the scalar permutation's (the vector lanes leave below 1.001p, so even the
    /// representatives agree after the last full rounds... checked as values and as limbs).
    #[test]
    fn the_model_is_the_scalar_permutation() {
        std::eprintln!("mixed: vector lanes below {:.3}p", LANE_BOUND as f64 / UNIT as f64);
        let checked = each_state(|input| {
            let (mut got, mut expected) = (*input, *input);
            permute_lanes_mixed::<Portable, Xn<4>>(Portable, &mut got);
            permute_lanes_portable(&mut expected);
            assert_eq!(got.each_ref().map(to_fr), expected.each_ref().map(to_fr), "{input:x?}");
            expected
        });
        assert_eq!(checked, 8 * batches().len() + 64);
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
