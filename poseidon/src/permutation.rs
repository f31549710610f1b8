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

use ark_bn254::Fr;
use ark_ff::{AdditiveGroup, Field};

use crate::constants::{INTERNAL_DIAGONAL_MINUS_ONE, ROUND_CONSTANTS};

/// Width of the permutation state.
pub const WIDTH: usize = 4;
/// Number of full rounds (half at the start, half at the end).
pub const FULL_ROUNDS: usize = 8;
/// Number of partial rounds.
pub const PARTIAL_ROUNDS: usize = 56;

/// A Poseidon2 state: four field elements, lanes 0..3 the rate and lane 3 the capacity.
pub type State = [Fr; WIDTH];

#[inline(always)]
fn sbox(x: &mut Fr) {
    let square = x.square();
    let fourth = square.square();
    *x *= fourth;
}

/// `M_E·s` by barretenberg's addition chain (`matrix_multiplication_4x4`), rows
/// `[5,7,1,3] [4,6,1,1] [1,3,5,7] [1,1,4,6]`: 8 additions and 4 doublings.
#[inline(always)]
fn external_matrix(s: &mut State) {
    let [x0, x1, x2, x3] = *s;
    let t0 = x0 + x1;
    let t1 = x2 + x3;
    let t2 = x1.double() + t1;
    let t3 = x3.double() + t0;
    let t4 = t1.double().double() + t3;
    let t5 = t0.double().double() + t2;
    let t6 = t3 + t5;
    let t7 = t2 + t4;
    *s = [t6, t5, t7, t4];
}

/// `M_I·s` with `M_I = J + diag(d)`: one sum and four multiplications.
#[inline(always)]
fn internal_matrix(s: &mut State) {
    let sum = s[0] + s[1] + s[2] + s[3];
    for (x, d) in s.iter_mut().zip(INTERNAL_DIAGONAL_MINUS_ONE.iter()) {
        *x *= d;
        *x += sum;
    }
}

#[inline(always)]
fn full_round(s: &mut State, constants: &[Fr; 4]) {
    for (x, c) in s.iter_mut().zip(constants.iter()) {
        *x += c;
        sbox(x);
    }
    external_matrix(s);
}

#[inline(always)]
fn partial_round(s: &mut State, constant: &Fr) {
    s[0] += constant;
    sbox(&mut s[0]);
    internal_matrix(s);
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
    let (first, rest) = ROUND_CONSTANTS.split_at(FULL_ROUNDS / 2);
    let (partial, last) = rest.split_at(PARTIAL_ROUNDS);
    external_matrix(state);
    for row in first {
        full_round(state, row);
    }
    for row in partial {
        partial_round(state, &row[0]);
    }
    for row in last {
        full_round(state, row);
    }
}

/// Permutes every state of `states` in place.
///
/// One at a time: interleaving two states' rounds was measured here (`benches/permutation.rs`,
/// an earlier `permute_pair`) at 18 µs per permutation against 15 µs for one state alone, since
/// ark-ff's assembly multiplication already keeps the multiplier busy.
pub fn permute_many(states: &mut [State]) {
    states.iter_mut().for_each(permute);
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn partial_round_rows_use_only_lane_zero() {
        // The constants table stores zeros in lanes 1..3 of partial rows; permute() relies on it.
        let partial = &ROUND_CONSTANTS[FULL_ROUNDS / 2..FULL_ROUNDS / 2 + PARTIAL_ROUNDS];
        assert!(partial.iter().all(|row| row[1..].iter().all(|c| *c == Fr::ZERO)));
        assert!(partial.iter().all(|row| row[0] != Fr::ZERO));
    }

    #[test]
    fn external_matrix_matches_its_rows() {
        let rows = [[5u64, 7, 1, 3], [4, 6, 1, 1], [1, 3, 5, 7], [1, 1, 4, 6]];
        let x = [Fr::from(3u64), Fr::from(1000u64), Fr::from(77u64), Fr::from(123456u64)];
        let mut y = x;
        external_matrix(&mut y);
        for (row, out) in rows.iter().zip(y.iter()) {
            let expected: Fr = row.iter().zip(x.iter()).map(|(m, v)| Fr::from(*m) * v).sum();
            assert_eq!(*out, expected);
        }
    }

    #[test]
    fn batch_and_single_permutations_agree() {
        let mut states: Vec<State> =
            (0..5u64).map(|i| [Fr::from(i), Fr::from(i + 7), Fr::from(3 * i), Fr::from(i << 40)]).collect();
        let mut expected = states.clone();
        expected.iter_mut().for_each(permute);
        permute_many(&mut states);
        assert_eq!(states, expected);
    }
}
