//! The Aztec Poseidon2 sponge: `poseidon2_hash`, the separator hash and the byte hash.
//!
//! One construction is shared by barretenberg's `FieldSponge::hash_internal`, Noir's
//! `Poseidon2::hash` and TypeScript's `poseidon2Hash` (docs/spec.md §2.3):
//!
//! ```text
//!         x0 x1 x2        x3 x4 x5              (inputs, zero padded to a multiple of 3)
//!          |  |  |         |  |  |
//!   0 ─────+──┼──┼──┐ ┌────+──┼──┼──┐ ┌──
//!   0 ────────+──┼──┤P├───────+──┼──┤P├── ... → lane 0 is the output
//!   0 ───────────+──┤ ├──────────+──┤ ├──
//!   L·2^64 ─────────┘ └─────────────┘ └──   (capacity lane: the input length)
//! ```
//!
//! An empty input still runs one permutation; a length that is a positive multiple of 3 does not
//! run an extra one. `poseidon2_hash_with_separator(x, d)` is `poseidon2_hash([d, ...x])`
//! (docs/spec.md §2.4).
//!
//! # Many hashes at once: lockstep
//!
//! A block's sponge hashes are independent (the seven category hashes of every tx, the same
//! category across txs, the leaves), but each is a chain of permutations that cannot be split.
//! [`hash_jobs`] and [`hash_claimed_jobs`] run eight of them side by side, one per lane of
//! [`permute_x8`](crate::permutation::permute_x8): each pass, every busy lane absorbs its job's
//! next chunk of [`RATE`] elements, then one batch permutation advances all eight. A lane whose
//! job has absorbed its last chunk gives its hash and takes the next job from the queue, which
//! holds the jobs longest first ([`longest_first`]), so that the lanes run dry together on short
//! jobs. When the queue is empty and one job is left, it finishes on the scalar permutation (one
//! state costs less there than a pass of eight).
//!
//! ```text
//!   queue, longest first:  A(5) B(4) C(3) D(3) E(2) F(2) G(1) H(1) I(1) J(1) K(1)   (permutations)
//!
//!   pass      1    2    3    4       Xn: job X absorbs its chunk n; then one permute_x8
//!   lane 0    A0   A1   A2   A3  ─► A alone: its chunk 4 on the scalar permutation
//!   lane 1    B0   B1   B2   B3  ─► hash B
//!   lane 2    C0   C1   C2       ─► hash C
//!   lane 3    D0   D1   D2       ─► hash D
//!   lane 4    E0   E1   K0       (E hashed after pass 2: the lane takes K)
//!   lane 5    F0   F1            (queue empty after K: the lane stays free)
//!   lane 6    G0   I0            (G hashed after pass 1: the lane takes I)
//!   lane 7    H0   J0
//! ```
//!
//! The state between passes is canonical `Fr` and absorbing is field addition, so every hash is
//! bit-identical to [`poseidon2_hash`] or [`poseidon2_hash_with_separator`] of the same job.
//! Lockstep needs the batch kernel (AVX-512 IFMA, [`lockstep_available`]); elsewhere, and with
//! `TXFX_ARITHMETIC=portable`, the same functions hash one job at a time. The tests run the
//! lockstep loop on every CPU over the kernel's portable model.

use alloc::vec::Vec;
use core::iter;

use ark_bn254::Fr;
use ark_ff::PrimeField;

use crate::montgomery::{add, from_fr, from_u128, to_fr};
use crate::permutation::{Lanes, State, permute_lanes};
use crate::separator::DomainSeparator;

mod lockstep;
pub use lockstep::{hash_claimed_jobs, hash_jobs, lockstep_available, longest_first};

/// Elements absorbed per permutation.
pub const RATE: usize = 3;

/// The initial lanes for an input of `len` elements: zeros, and `len · 2^64` in the capacity.
fn initial_lanes(len: usize) -> Lanes {
    [[0; 4], [0; 4], [0; 4], from_u128(u128::from(len as u64) << 64)]
}

/// Absorbs exactly `len` elements from `inputs` and squeezes one. `inputs` must yield `len`
/// elements; every caller in this crate builds it from slices whose lengths add up to `len`.
///
/// The state stays in the permutation's coarse Montgomery form from the first absorption to the
/// squeeze: only lane 0 is brought back to a canonical `Fr`, once.
fn sponge(len: usize, inputs: impl Iterator<Item = Fr>) -> Fr {
    let mut lanes = initial_lanes(len);
    let mut lane = 0;
    let mut absorbed_since_permute = false;
    for value in inputs {
        // `lane` is always below RATE < WIDTH.
        if let Some(slot) = lanes.get_mut(lane) {
            *slot = add(slot, &from_fr(&value));
        }
        lane += 1;
        absorbed_since_permute = true;
        if lane == RATE {
            permute_lanes(&mut lanes);
            lane = 0;
            absorbed_since_permute = false;
        }
    }
    if absorbed_since_permute || len == 0 {
        permute_lanes(&mut lanes);
    }
    to_fr(&lanes[0])
}

/// `poseidon2_hash(inputs)`: the sponge with the input length in the capacity lane.
///
/// # Example
/// ```
/// use txfx_poseidon::{field::fr_to_hex, poseidon2_hash};
/// let h = poseidon2_hash(&[1u64, 2, 3].map(ark_bn254::Fr::from));
/// assert_eq!(fr_to_hex(&h), "0x23864adb160dddf590f1d3303683ebcb914f828e2635f6e85a32f0a1aecd3dd8");
/// ```
pub fn poseidon2_hash(inputs: &[Fr]) -> Fr {
    sponge(inputs.len(), inputs.iter().copied())
}

/// `poseidon2_hash_with_separator(inputs, d)` = `poseidon2_hash([d, ...inputs])`, computed
/// without copying `inputs`.
///
/// # Example
/// ```
/// use txfx_poseidon::{field::fr_to_hex, poseidon2_hash_with_separator, DomainSeparator};
/// let h = poseidon2_hash_with_separator(&[123u64, 456].map(ark_bn254::Fr::from), DomainSeparator::new(57496191));
/// assert_eq!(fr_to_hex(&h), "0x169b50336c1f29afdb8a03d955a81e485f5ac7d5f0b8065673d1e407e5877813");
/// ```
pub fn poseidon2_hash_with_separator(inputs: &[Fr], separator: DomainSeparator) -> Fr {
    sponge(inputs.len() + 1, iter::once(separator.to_field()).chain(inputs.iter().copied()))
}

/// The 2-to-1 hash `poseidon2_hash([d, left, right])`: a tree node under separator `d`.
///
/// Three inputs fill the rate exactly, so this is one permutation of `[d, left, right, 3·2^64]`.
pub fn poseidon2_hash_pair(separator: DomainSeparator, left: Fr, right: Fr) -> Fr {
    let mut lanes = pair_state(separator, left, right).each_ref().map(from_fr);
    permute_lanes(&mut lanes);
    to_fr(&lanes[0])
}

/// The capacity lane of a 3-element hash, `3·2^64`, in Montgomery form at compile time.
const PAIR_CAPACITY: [u64; 4] = from_u128(3 << 64);

/// The state whose permutation's lane 0 is [`poseidon2_hash_pair`]; batch callers permute many.
pub fn pair_state(separator: DomainSeparator, left: Fr, right: Fr) -> State {
    [separator.to_field(), left, right, to_fr(&PAIR_CAPACITY)]
}

/// Bytes per chunk in [`poseidon2_hash_bytes`]: 31 bytes always fit below p.
pub const BYTES_PER_FIELD: usize = 31;

/// `poseidon2_hash_bytes(bytes)`: cut into 31-byte chunks, read each as a **little-endian**
/// integer, and hash the list (Noir `poseidon2_hash_bytes`, docs/spec.md §2.5).
pub fn poseidon2_hash_bytes(bytes: &[u8]) -> Fr {
    let fields: Vec<Fr> = bytes.chunks(BYTES_PER_FIELD).map(Fr::from_le_bytes_mod_order).collect();
    poseidon2_hash(&fields)
}
