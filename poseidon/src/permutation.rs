//! The Poseidon2 permutation over BN254 with t = 4 (barretenberg's `Poseidon2Permutation`).
//!
//! Grassi, Khovratovich, Schofnegger, *Poseidon2: A Faster Version of the Poseidon Hash Function*
//! (2023), §4–§5, with the parameters of barretenberg's `Poseidon2Bn254ScalarFieldParams`
//! (docs/spec.md §2.2):
//!
//! ```text
//!   s ← M_E·s
//!   4 full rounds:     s_i ← s_i + RC[r][i] (all i);  s_i ← s_i^5 (all i);  s ← M_E·s
//!   56 partial rounds: s_0 ← s_0 + RC[r][0];          s_0 ← s_0^5;          s ← M_I·s
//!   4 full rounds:     as above
//! ```
//!
//! Cost model: a full round is 4 S-boxes of 3 multiplications; a partial round is 1 S-box and the
//! diagonal of M_I (4 multiplications); M_E is additions only. That is 96 + 168 + 224 = 488 field
//! multiplications per permutation, which is what the implementation does and nothing more: the
//! constants are Montgomery-form `const`s, the state is a fixed array on the stack, and nothing is
//! allocated.
//!
//! The rounds run on `montgomery`'s coarse values (Montgomery form in `[0, 2p)`, branch-free,
//! no final subtraction after a multiplication): `Fr` goes in and comes out canonical, and the
//! permutation's time does not depend on the values, where ark-ff's `Fr` operations reduce fully
//! after each and branch on the data (BENCHMARKS.md, design: coarse-arithmetic).

use ark_bn254::Fr;

use crate::constants::{INTERNAL_DIAGONAL_MINUS_ONE, ROUND_CONSTANTS};
use crate::montgomery::{Coarse, Portable, Product, add, add_unreduced, double_coarse, from_fr, to_fr};

// The batch kernel's algorithm: compiled where the IFMA kernel can run, and for its portable model's tests.
#[cfg(any(test, all(target_arch = "x86_64", feature = "asm")))]
pub(crate) mod x8;
// wasm32's permutation, in 29-bit limbs from entry to exit; compiled for its tests everywhere.
#[cfg(any(test, target_arch = "wasm32"))]
pub(crate) mod limbs29;

/// Width of the permutation state.
pub const WIDTH: usize = 4;
/// Number of full rounds (half at the start, half at the end).
pub const FULL_ROUNDS: usize = 8;
/// Number of partial rounds.
pub const PARTIAL_ROUNDS: usize = 56;

/// A Poseidon2 state: four field elements, lanes 0..3 the rate and lane 3 the capacity.
pub type State = [Fr; WIDTH];

/// The state inside the permutation: coarse Montgomery limbs (see `montgomery`).
pub(crate) type Lanes = [Coarse; WIDTH];

/// The round constants as coarse limbs, at compile time (they are canonical, so below 2p).
#[allow(
    clippy::indexing_slicing,
    reason = "const loops over fixed-size arrays, every index below the length; iterators are not const"
)]
const RC: [[Coarse; WIDTH]; FULL_ROUNDS + PARTIAL_ROUNDS] = {
    let mut rows = [[[0u64; 4]; WIDTH]; FULL_ROUNDS + PARTIAL_ROUNDS];
    let mut r = 0;
    while r < rows.len() {
        let mut i = 0;
        while i < WIDTH {
            rows[r][i] = from_fr(&ROUND_CONSTANTS[r][i]);
            i += 1;
        }
        r += 1;
    }
    rows
};

/// The internal matrix's diagonal minus one, as coarse limbs.
const DIAGONAL: [Coarse; WIDTH] = [
    from_fr(&INTERNAL_DIAGONAL_MINUS_ONE[0]),
    from_fr(&INTERNAL_DIAGONAL_MINUS_ONE[1]),
    from_fr(&INTERNAL_DIAGONAL_MINUS_ONE[2]),
    from_fr(&INTERNAL_DIAGONAL_MINUS_ONE[3]),
];

/// `x^5`, for `x < 3p`: below `2.35p` (`x² < 2.71p`, `x⁴ < 2.38p`; see `montgomery`'s bounds),
/// and below `2p` for `x < 2p`.
#[inline(always)]
fn sbox<A: Product>(a: A, x: &Coarse) -> Coarse {
    let x2 = a.square(x);
    let x4 = a.square(&x2);
    a.mul(x, &x4)
}

/// `M_E·s` by barretenberg's addition chain (`matrix_multiplication_4x4`), rows
/// `[5,7,1,3] [4,6,1,1] [1,3,5,7] [1,1,4,6]`: 8 additions and 4 doublings.
#[inline(always)]
fn external_matrix(s: &mut Lanes) {
    let [x0, x1, x2, x3] = *s;
    let t0 = add(&x0, &x1);
    let t1 = add(&x2, &x3);
    let t2 = add(&double_coarse(&x1), &t1);
    let t3 = add(&double_coarse(&x3), &t0);
    let t4 = add(&double_coarse(&double_coarse(&t1)), &t3);
    let t5 = add(&double_coarse(&double_coarse(&t0)), &t2);
    let t6 = add(&t3, &t5);
    let t7 = add(&t2, &t4);
    *s = [t6, t5, t7, t4];
}

/// One partial round: the S-box on lane 0, then `M_I·s` with `M_I = J + diag(d)` (one sum and
/// four multiplications).
///
/// Bounds: lane 0 + constant is below `3p` and the S-box takes it unreduced (one reduction off
/// the critical path); the S-box output is below `2.35p`, the other lanes below `2p`. Each
/// partial sum then stays below `4.35p` before and `2.35p` after its reduction, each product
/// below `1.45p`, so each output, `product + sum < 3.8p`, is below `2p` after its reduction.
///
/// Order: lanes 1 to 3's products `d_i·x_i` do not depend on this round's S-box, only on the
/// previous round, so they are written between the S-box's three dependent products, where the
/// CPU runs them in the S-box's latency. Written after it (sum first, then the four products),
/// they sat further from the S-box chain than the out-of-order window reaches (BENCHMARKS.md,
/// design: partial-round-order).
#[inline(always)]
fn partial_round<A: Product>(a: A, s: &mut Lanes, constant: &Coarse) {
    let [x0, x1, x2, x3] = *s;
    let [d0, d1, d2, d3] = &DIAGONAL;
    let x = add_unreduced(&x0, constant);
    let x2_ = a.square(&x);
    let p1 = a.mul(&x1, d1);
    let x4_ = a.square(&x2_);
    let p2 = a.mul(&x2, d2);
    let s0 = a.mul(&x, &x4_);
    let p3 = a.mul(&x3, d3);
    let sum = add(&add(&s0, &x1), &add(&x2, &x3));
    let p0 = a.mul(&s0, d0);
    *s = [add(&p0, &sum), add(&p1, &sum), add(&p2, &sum), add(&p3, &sum)];
}

#[inline(always)]
fn full_round<A: Product>(a: A, s: &mut Lanes, constants: &[Coarse; WIDTH]) {
    let [x0, x1, x2, x3] = *s;
    let [c0, c1, c2, c3] = constants;
    *s = [sbox(a, &add(&x0, c0)), sbox(a, &add(&x1, c1)), sbox(a, &add(&x2, c2)), sbox(a, &add(&x3, c3))];
    external_matrix(s);
}

/// The permutation on coarse lanes: coarse in, coarse out, with the products of the CPU it runs
/// on (one cached feature check per permutation: the assembly products where the CPU has them).
/// On wasm32 the state stays in 29-bit limbs for the whole permutation (`limbs29`): the same
/// field elements, possibly another coarse representative.
#[inline(always)]
pub(crate) fn permute_lanes(lanes: &mut Lanes) {
    #[cfg(target_arch = "wasm32")]
    limbs29::permute_lanes_29(lanes);
    #[cfg(not(target_arch = "wasm32"))]
    {
        #[cfg(all(target_arch = "x86_64", feature = "asm"))]
        if let Some(adx) = crate::montgomery::Adx::detect() {
            if let Some(ifma) = crate::montgomery::ifma::Ifma::detect() {
                return ifma.permute_lanes_mixed(adx, lanes);
            }
            return permute_lanes_adx(adx, lanes);
        }
        permute_lanes_portable(lanes);
    }
}

/// The permutation on the scalar product alone (the ADX assembly where the CPU has it, else the
/// portable one), never the vector units: what [`permute`] runs on a CPU without AVX-512 IFMA.
/// For benchmarks that compare the paths on one machine; results are those of [`permute`].
#[doc(hidden)]
pub fn permute_scalar(state: &mut State) {
    let mut lanes = state.each_ref().map(from_fr);
    #[cfg(all(target_arch = "x86_64", feature = "asm"))]
    if let Some(adx) = crate::montgomery::Adx::detect() {
        permute_lanes_adx(adx, &mut lanes);
        *state = lanes.each_ref().map(to_fr);
        return;
    }
    permute_lanes_portable(&mut lanes);
    *state = lanes.each_ref().map(to_fr);
}

/// [`permute_lanes_with`] on the portable products.
// One out-of-line copy (also on wasm32: the JIT compiles one function of it well, and copies
// inlined into each caller measured slower, 64-node level 3.83 ms inlined). Natively the call
// costs nothing measurable against the permutation.
#[cfg_attr(
    target_arch = "wasm32",
    allow(dead_code, reason = "wasm32 permutes in limbs29; the portable permutation stays for reference")
)]
#[inline(never)]
pub(crate) fn permute_lanes_portable(lanes: &mut Lanes) {
    permute_lanes_with(Portable, lanes);
}

/// [`permute_lanes_with`] on the assembly products: only reachable with the [`Adx`] token, which
/// only a successful CPU check gives.
///
/// [`Adx`]: crate::montgomery::Adx
#[cfg(all(target_arch = "x86_64", feature = "asm"))]
#[inline(never)]
fn permute_lanes_adx(adx: crate::montgomery::Adx, lanes: &mut Lanes) {
    permute_lanes_with(adx, lanes);
}

#[inline(always)]
fn permute_lanes_with<A: Product>(a: A, lanes: &mut Lanes) {
    let (first, rest) = RC.split_at(FULL_ROUNDS / 2);
    let (partial, last) = rest.split_at(PARTIAL_ROUNDS);
    external_matrix(lanes);
    for row in first {
        full_round(a, lanes, row);
    }
    for row in partial {
        partial_round(a, lanes, &row[0]);
    }
    for row in last {
        full_round(a, lanes, row);
    }
}

/// Which Montgomery product the permutation runs on this CPU. Both give bit-identical results
/// (tested limb for limb); only the speed differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Arithmetic {
    /// txfx's portable branch-free Rust.
    Portable,
    /// The `mulx`/`adcx`/`adox` assembly product (x86-64 CPUs with BMI2 and ADX, feature `asm`).
    Adx,
    /// The assembly product for the full rounds and lane 0 of the partial rounds, while lanes
    /// 1–3 of the partial rounds take their products on AVX-512 IFMA in a ymm register (CPUs
    /// with BMI2, ADX, AVX-512F, AVX-512VL and AVX-512 IFMA, feature `asm`).
    AdxIfma,
}

impl core::fmt::Display for Arithmetic {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Self::Portable => "portable",
            Self::Adx => "adx (BMI2 + ADX assembly)",
            Self::AdxIfma => "adx+ifma (BMI2 + ADX assembly, partial rounds' lanes 1-3 on AVX-512 IFMA)",
        })
    }
}

/// The environment variable that makes a process use the portable product on any CPU: set it to
/// `portable` (read once per process, at the first CPU check; any other value, or none, leaves the choice
/// to the CPU check). It turns off both the ADX product and the AVX-512 IFMA batch kernel
/// ([`batch_arithmetic`]). For testing and for ruling out the assembly and the intrinsics when
/// chasing a problem: the results are the same either way, only slower.
pub const ARITHMETIC_ENV: &str = "TXFX_ARITHMETIC";

/// Whether [`ARITHMETIC_ENV`] asks for the portable product: read once per process, the first
/// time any CPU check asks, and shared by every check (the ADX product's and the IFMA kernel's),
/// so they cannot disagree.
#[cfg(all(feature = "std", target_arch = "x86_64", feature = "asm"))]
pub(crate) fn portable_forced() -> bool {
    static FORCED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FORCED.get_or_init(|| std::env::var_os(ARITHMETIC_ENV).is_some_and(|value| value == "portable"))
}

/// The products [`permute`] uses in this process (checked at run time, once): the assembly one
/// where the CPU has BMI2 and ADX, with AVX-512 IFMA beside it where the CPU has that too,
/// unless [`ARITHMETIC_ENV`] says `portable`.
pub fn arithmetic() -> Arithmetic {
    #[cfg(all(target_arch = "x86_64", feature = "asm"))]
    if crate::montgomery::Adx::detect().is_some() {
        if crate::montgomery::ifma::Ifma::detect().is_some() {
            return Arithmetic::AdxIfma;
        }
        return Arithmetic::Adx;
    }
    Arithmetic::Portable
}

/// Applies the Poseidon2 permutation to `state` in place.
///
/// # Example
/// ```
/// use txfx_poseidon::{field::{fr_to_hex, parse_fr}, permutation::permute};
/// let mut state = [0u64, 1, 2, 3].map(ark_bn254::Fr::from);
/// permute(&mut state);
/// assert_eq!(fr_to_hex(&state[0]), "0x01bd538c2ee014ed5141b29e9ae240bf8db3fe5b9a38629a9647cf8d76c01737");
/// ```
pub fn permute(state: &mut State) {
    let mut lanes = state.each_ref().map(from_fr);
    permute_lanes(&mut lanes);
    *state = lanes.each_ref().map(to_fr);
}

/// Permutes every state of `states` in place.
///
/// Eight at a time on CPUs with AVX-512 IFMA (see [`batch_arithmetic`]): the states of a group of
/// eight each take one 64-bit lane of the AVX-512 registers, so one pass through the rounds
/// permutes all eight. A remainder of two to seven states is one more pass with spare lanes (of
/// four lanes, in a ymm register, for two to four states; of eight for five to seven); a single
/// one, and every state on other CPUs, goes through [`permute`]. Results are identical either
/// way.
///
/// ```
/// use txfx_poseidon::{Fr, permutation::{permute, permute_many}};
/// let mut states: Vec<[Fr; 4]> = (0..19u64).map(|i| [i, i + 1, i + 2, i + 3].map(Fr::from)).collect();
/// let mut one_by_one = states.clone();
/// one_by_one.iter_mut().for_each(permute);
/// permute_many(&mut states);
/// assert_eq!(states, one_by_one);
/// ```
pub fn permute_many(states: &mut [State]) {
    #[cfg(all(target_arch = "x86_64", feature = "asm"))]
    if let Some(ifma) = crate::montgomery::ifma::Ifma::detect() {
        let (groups, rest) = states.as_chunks_mut::<BATCH_WIDTH>();
        groups.iter_mut().for_each(|group| ifma.permute_x8(group));
        match rest.first() {
            // A pass with spare lanes (copies of the first state, discarded) costs less than
            // the permutations one at a time: four lanes (a ymm pass) from two states, eight
            // from five.
            Some(&first) if rest.len() > SMALL_PASS => {
                let mut padded = [first; BATCH_WIDTH];
                padded.iter_mut().zip(rest.iter()).for_each(|(lane, state)| *lane = *state);
                ifma.permute_x8(&mut padded);
                rest.iter_mut().zip(padded).for_each(|(state, lane)| *state = lane);
            }
            Some(&first) if rest.len() >= 2 => {
                let mut padded = [first; SMALL_PASS];
                padded.iter_mut().zip(rest.iter()).for_each(|(lane, state)| *lane = *state);
                ifma.permute_x4(&mut padded);
                rest.iter_mut().zip(padded).for_each(|(state, lane)| *state = lane);
            }
            _ => rest.iter_mut().for_each(permute),
        }
        return;
    }
    // One state at a time: interleaving several states round by round was measured slower with
    // the scalar arithmetic (BENCHMARKS.md, design: one-state-at-a-time): one state's rounds
    // already fill the out-of-order window, and more live state spills registers.
    states.iter_mut().for_each(permute);
}

/// Permutes eight states in place: in one pass on CPUs with AVX-512 IFMA, otherwise one at a
/// time. [`permute_many`] for any number of states.
pub fn permute_x8(states: &mut [State; BATCH_WIDTH]) {
    #[cfg(all(target_arch = "x86_64", feature = "asm"))]
    if let Some(ifma) = crate::montgomery::ifma::Ifma::detect() {
        return ifma.permute_x8(states);
    }
    states.iter_mut().for_each(permute);
}

/// States per pass of the batch kernel.
pub const BATCH_WIDTH: usize = 8;

/// States per pass of the small (ymm, 4-lane) pass that [`permute_many`] runs for a remainder
/// of two to four states after whole passes of eight: the same instructions as a pass of eight
/// at half the width, so about 0.6 of its time, while a single permutation takes about half of
/// that (AMD EPYC Zen 4, December 2026: 9.4 µs for four, 15.3 µs for eight, 7.2 µs for one, so
/// two states already gain, one does not, five go in a pass of eight). The top levels of a
/// tree (4, 2 nodes) are such remainders.
#[cfg(all(target_arch = "x86_64", feature = "asm"))]
const SMALL_PASS: usize = 4;

/// How [`permute_many`] permutes a batch on this CPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum BatchArithmetic {
    /// One state at a time, with the product [`arithmetic`] names.
    OneAtATime,
    /// Eight states per pass, one per 64-bit lane, with AVX-512 IFMA's 52-bit multiply-adds
    /// (x86-64 CPUs with AVX-512F and AVX-512 IFMA, feature `asm`).
    Ifma,
}

impl BatchArithmetic {
    /// States permuted per pass: what a caller splitting a batch should keep its chunks a
    /// multiple of.
    pub fn width(self) -> usize {
        match self {
            Self::OneAtATime => 1,
            Self::Ifma => BATCH_WIDTH,
        }
    }
}

impl core::fmt::Display for BatchArithmetic {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Self::OneAtATime => "one state at a time",
            Self::Ifma => "ifma (8 states per pass, AVX-512 IFMA)",
        })
    }
}

/// The batch path [`permute_many`] takes in this process (checked at run time, once): eight
/// states per pass where the CPU has AVX-512 IFMA, unless [`ARITHMETIC_ENV`] says `portable`.
pub fn batch_arithmetic() -> BatchArithmetic {
    #[cfg(all(target_arch = "x86_64", feature = "asm"))]
    if crate::montgomery::ifma::Ifma::detect().is_some() {
        return BatchArithmetic::Ifma;
    }
    BatchArithmetic::OneAtATime
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use ark_ff::{AdditiveGroup, Field, PrimeField};

    #[test]
    fn partial_round_rows_use_only_lane_zero() {
        // The constants table stores zeros in lanes 1..3 of partial rows; permute() relies on it.
        let partial = &ROUND_CONSTANTS[FULL_ROUNDS / 2..FULL_ROUNDS / 2 + PARTIAL_ROUNDS];
        assert!(partial.iter().all(|row| row[1..].iter().all(|c| *c == Fr::ZERO)));
        assert!(partial.iter().all(|row| row[0] != Fr::ZERO));
    }

    /// `M_E·x` row by row, from its rows as written in barretenberg's comment.
    fn external_by_rows(x: &State) -> State {
        let rows = [[5u64, 7, 1, 3], [4, 6, 1, 1], [1, 3, 5, 7], [1, 1, 4, 6]];
        rows.map(|row| row.iter().zip(x.iter()).map(|(m, v)| Fr::from(*m) * v).sum())
    }

    #[test]
    fn external_matrix_matches_its_rows() {
        let x = [Fr::from(3u64), Fr::from(1000u64), -Fr::from(77u64), -Fr::from(123456u64)];
        let mut y = x.each_ref().map(from_fr);
        external_matrix(&mut y);
        assert_eq!(y.each_ref().map(to_fr), external_by_rows(&x));
    }

    /// The permutation written plainly with ark-ff's fully reduced `Fr` operations: the
    /// reference the coarse arithmetic must agree with.
    fn reference_permute(s: &mut State) {
        fn sbox(x: Fr) -> Fr {
            x.square().square() * x
        }
        *s = external_by_rows(s);
        let partial = FULL_ROUNDS / 2..FULL_ROUNDS / 2 + PARTIAL_ROUNDS;
        for (r, row) in ROUND_CONSTANTS.iter().enumerate() {
            if !partial.contains(&r) {
                for (x, c) in s.iter_mut().zip(row) {
                    *x = sbox(*x + c);
                }
                *s = external_by_rows(s);
            } else {
                s[0] = sbox(s[0] + row[0]);
                let sum: Fr = s.iter().sum();
                for (x, d) in s.iter_mut().zip(INTERNAL_DIAGONAL_MINUS_ONE.iter()) {
                    *x = *x * d + sum;
                }
            }
        }
    }

    #[test]
    fn agrees_with_plain_ark_ff_on_varied_and_extreme_states() {
        // Chained states (each output the next input) plus lanes at 0, 1 and p − 1.
        let mut state: State = [Fr::from(1u64), -Fr::ONE, Fr::ZERO, Fr::from(u64::MAX)];
        let mut checked = 0;
        for _ in 0..64 {
            let mut expected = state;
            reference_permute(&mut expected);
            permute(&mut state);
            assert_eq!(state, expected);
            assert!(state.iter().all(|x| x.into_bigint() < Fr::MODULUS));
            checked += 1;
        }
        for lanes in [[Fr::ZERO; 4], [-Fr::ONE; 4], [Fr::ONE, Fr::ZERO, -Fr::ONE, Fr::ZERO]] {
            let (mut got, mut expected) = (lanes, lanes);
            permute(&mut got);
            reference_permute(&mut expected);
            assert_eq!(got, expected);
            checked += 1;
        }
        assert_eq!(checked, 67);
    }

    /// Each product's permutation against the reference, whichever of them `permute` picks on
    /// this CPU: the portable one always, the assembly one where the CPU has BMI2 and ADX, and
    /// the split one (assembly and AVX-512 IFMA) where it has both.
    #[test]
    fn every_product_gives_the_reference_permutation() {
        let mut state: State =
            [Fr::from(9u64), -Fr::from(5u64), Fr::ZERO, Fr::from(u64::MAX) * Fr::from(u64::MAX)];
        let mut products = 0;
        for _ in 0..16 {
            let mut expected = state;
            reference_permute(&mut expected);
            let mut portable = state.each_ref().map(from_fr);
            permute_lanes_with(Portable, &mut portable);
            assert_eq!(portable.each_ref().map(to_fr), expected);
            products = 1;
            #[cfg(all(target_arch = "x86_64", feature = "asm"))]
            if let Some(token) = crate::montgomery::Adx::detect() {
                let mut adx = state.each_ref().map(from_fr);
                permute_lanes_with(token, &mut adx);
                assert_eq!(adx, portable, "coarse lanes differ, not only the values");
                products = 2;
                if let Some(ifma) = crate::montgomery::ifma::Ifma::detect() {
                    let mut mixed = state.each_ref().map(from_fr);
                    ifma.permute_lanes_mixed(token, &mut mixed);
                    assert_eq!(mixed.each_ref().map(to_fr), expected);
                    products = 3;
                }
            }
            state = expected;
        }
        #[cfg(all(target_arch = "x86_64", feature = "asm"))]
        assert_eq!(
            products,
            match (crate::montgomery::Adx::detect(), crate::montgomery::ifma::Ifma::detect()) {
                (Some(_), Some(_)) => 3,
                (Some(_), None) => 2,
                (None, _) => 1,
            }
        );
        #[cfg(not(all(target_arch = "x86_64", feature = "asm")))]
        assert_eq!(products, 1);
    }

    #[test]
    fn batch_and_single_permutations_agree() {
        // Every remainder after groups of eight, and several groups.
        for n in (0..=17u64).chain([64, 67]) {
            let mut states: Vec<State> =
                (0..n).map(|i| [Fr::from(i), Fr::from(i + 7), -Fr::from(3 * i), Fr::from(i << 40)]).collect();
            let mut expected = states.clone();
            expected.iter_mut().for_each(reference_permute);
            permute_many(&mut states);
            assert_eq!(states, expected, "{n} states");
        }
        let mut eight: [State; BATCH_WIDTH] =
            core::array::from_fn(|i| [Fr::from(i as u64), -Fr::ONE, Fr::ZERO, Fr::ONE]);
        let mut expected = eight;
        expected.iter_mut().for_each(reference_permute);
        permute_x8(&mut eight);
        assert_eq!(eight, expected);
    }

    /// The batch path this process reports is the one the CPU check allows.
    #[test]
    fn the_batch_arithmetic_follows_the_cpu() {
        let batch = batch_arithmetic();
        #[cfg(all(target_arch = "x86_64", feature = "asm"))]
        {
            let ifma = std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512ifma");
            if portable_forced() || !ifma {
                assert_eq!(batch, BatchArithmetic::OneAtATime);
            } else {
                assert_eq!(batch, BatchArithmetic::Ifma);
            }
        }
        #[cfg(not(all(target_arch = "x86_64", feature = "asm")))]
        assert_eq!(batch, BatchArithmetic::OneAtATime);
        assert_eq!(batch.width() == BATCH_WIDTH, batch == BatchArithmetic::Ifma);
    }
}
