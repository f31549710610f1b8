//! The batch permutation's tests: the portable model against the scalar permutation and ark-ff,
//! the bounds, and the AVX-512 IFMA kernels against the model where the CPU has them.

use super::*;
use crate::permutation::permute;
use crate::test_rng::SplitMix64;
use alloc::vec::Vec;
use ark_bn254::Fr;
use ark_ff::{AdditiveGroup, Field, PrimeField};

/// `p − k`.
fn minus_p(k: u64) -> Fr {
    -Fr::from(k)
}

/// Batches of eight states: random, all zero, lanes at p − 1, p − 2, …, mixed edges, and the
/// barretenberg vector's input.
pub(crate) fn batches() -> Vec<[State; 8]> {
    let mut rng = SplitMix64(0x7874_6678_3878);
    let mut out = Vec::new();
    for _ in 0..6 {
        out.push(core::array::from_fn(|_| [rng.fr(), rng.fr(), rng.fr(), rng.fr()]));
    }
    out.push([[Fr::ZERO; 4]; 8]);
    out.push(core::array::from_fn(|i| {
        let k = i as u64 * 4;
        [minus_p(k + 1), minus_p(k + 2), minus_p(k + 3), minus_p(k + 4)]
    }));
    out.push(core::array::from_fn(|i| match i {
        0 => [Fr::ZERO, Fr::ONE, Fr::from(2u64), Fr::from(3u64)],
        1 => [-Fr::ONE; 4],
        2 => [Fr::ONE; 4],
        3 => [Fr::ZERO, -Fr::ONE, Fr::ZERO, -Fr::ONE],
        4 => [Fr::from(u64::MAX); 4],
        5 => [Fr::from(2u64).pow([253u64]); 4],
        6 => [-Fr::from(2u64).pow([253u64]), Fr::ZERO, Fr::ONE, -Fr::ONE],
        _ => [rng.fr(), Fr::ZERO, -Fr::ONE, rng.fr()],
    }));
    out
}

pub(crate) fn scalar(batch: &[State; 8]) -> [State; 8] {
    let mut expected = *batch;
    expected.iter_mut().for_each(permute);
    expected
}

#[test]
fn the_model_gives_barretenbergs_vector() {
    let mut batch = [[0u64, 1, 2, 3].map(Fr::from); 8];
    permute_n::<8, X8>(&mut batch);
    for state in &batch {
        assert_eq!(
            crate::field::fr_to_hex(&state[0]),
            "0x01bd538c2ee014ed5141b29e9ae240bf8db3fe5b9a38629a9647cf8d76c01737"
        );
    }
}

#[test]
fn the_model_is_the_scalar_permutation() {
    let mut checked = 0;
    for batch in batches() {
        let mut got = batch;
        permute_n::<8, X8>(&mut got);
        assert_eq!(got, scalar(&batch), "{batch:?}");
        assert!(got.iter().flatten().all(|x| x.into_bigint() < Fr::MODULUS));
        checked += 8;
    }
    // Chained: each output batch the next input.
    let mut batch = batches()[0];
    for _ in 0..8 {
        let expected = scalar(&batch);
        permute_n::<8, X8>(&mut batch);
        assert_eq!(batch, expected);
        checked += 8;
    }
    assert_eq!(checked, 8 * (batches().len() + 8));
}

/// An element of eight lanes from eight limb sets.
fn element(values: [[u64; 5]; 8]) -> Element<X8> {
    core::array::from_fn(|j| Xn(values.map(|v| v[j])))
}

/// Lane `lane` of an element.
fn lane(e: &Element<X8>, lane: usize) -> [u64; 5] {
    core::array::from_fn(|j| e[j].0[lane])
}

/// The integer held by five (signed) limbs, mod p.
fn plain(limbs: [u64; 5]) -> Fr {
    let two52 = Fr::from(1u64 << 52);
    limbs.iter().rev().fold(Fr::ZERO, |acc, l| {
        let limb = if (*l as i64) < 0 { -Fr::from((*l as i64).unsigned_abs()) } else { Fr::from(*l) };
        acc * two52 + limb
    })
}

/// `k·p` in normalized limbs.
fn times_p(k: u64) -> [u64; 5] {
    let mut out = [0u64; 5];
    let mut carry = 0u128;
    for (o, p) in out.iter_mut().zip(P) {
        let w = u128::from(k) * u128::from(p) + carry;
        *o = (w as u64) & MASK;
        carry = w >> 52;
    }
    out[4] += (carry as u64) << 52;
    out
}

/// `a + b`, normalized (for values whose sum stays below 2^260).
fn sum(a: [u64; 5], b: [u64; 5]) -> [u64; 5] {
    let mut out = [0u64; 5];
    let mut carry = 0;
    for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
        let s = x + y + carry;
        *o = s & MASK;
        carry = s >> 52;
    }
    out[4] += carry << 52;
    out
}

fn minus_one(mut v: [u64; 5]) -> [u64; 5] {
    for limb in v.iter_mut() {
        if *limb > 0 {
            *limb -= 1;
            return v;
        }
        *limb = MASK;
    }
    v
}

/// Whether normalized limbs hold a value below 2^260.
fn normalized(v: &[u64; 5]) -> bool {
    v.iter().all(|l| *l <= MASK)
}

/// `a < b` for normalized limbs.
fn less(a: &[u64; 5], b: &[u64; 5]) -> bool {
    a.iter().rev().cmp(b.iter().rev()) == core::cmp::Ordering::Less
}

/// Values up to the widest product input: 0, p, `k·p` and `k·p − 1` for k up to the bound
/// (`INPUT_MAX`, just below R ≈ 84.5p), all-ones limbs, and random values below 84p.
fn wide_values(rng: &mut SplitMix64) -> Vec<[u64; 5]> {
    let widest = (INPUT_MAX >> 16) as u64;
    let mut values = alloc::vec![[0; 5], P, [MASK, MASK, MASK, MASK, 0], minus_one(times_p(widest))];
    for k in [1u64, 2, 3, 16, 24, 50, 80, widest] {
        values.push(minus_one(times_p(k)));
        values.push(times_p(k));
    }
    for _ in 0..60 {
        let k = rng.next_u64() % widest;
        values.push(sum(times_p(k), split((rng.fr().0).0)));
    }
    values.retain(normalized);
    values
}

#[test]
fn products_agree_with_ark_ff_up_to_the_input_bound() {
    let mut rng = SplitMix64(52);
    let values = wide_values(&mut rng);
    assert!(values.len() > 70 && values.iter().all(|v| less(v, &times_p(85))));
    let r_inv = Fr::from(2u64).pow([260u64]).inverse().unwrap_or(Fr::ZERO);
    let mut checked = 0;
    for (n, chunk) in values.chunks(8).enumerate() {
        let a: [[u64; 5]; 8] = core::array::from_fn(|i| chunk.get(i).copied().unwrap_or(P));
        let b: [[u64; 5]; 8] = core::array::from_fn(|i| values[(i * 13 + n * 5 + 3) % values.len()]);
        let product = normalize(&mul(&element(a), &element(b)));
        let squared = normalize(&square(&element(a)));
        for i in 0..8 {
            let (got_product, got_square) = (lane(&product, i), lane(&squared, i));
            assert_eq!(plain(got_product), plain(a[i]) * plain(b[i]) * r_inv, "{:x?}·{:x?}", a[i], b[i]);
            assert_eq!(plain(got_square), plain(a[i]).square() * r_inv, "{:x?}²", a[i]);
            // Below a·b/R + p: below 2^260 (normalized limbs) for inputs up to ~75p.
            if less(&a[i], &times_p(75)) && less(&b[i], &times_p(75)) {
                assert!(normalized(&got_product) && normalized(&got_square));
            }
            checked += 1;
        }
    }
    assert!(checked >= 70, "{checked}");
}

#[test]
fn the_sum_reduction_leaves_a_value_below_2p() {
    let mut rng = SplitMix64(54);
    let mut checked = 0;
    let two_p = times_p(2);
    for round in 0..24 {
        // Four normalized values whose sum stays below R, added limb-wise without carries, as
        // a partial round forms its sum; the first batch at the largest sums.
        let parts: [[[u64; 5]; 8]; 4] = core::array::from_fn(|_| {
            core::array::from_fn(|_| {
                let k = if round == 0 { 20 } else { rng.next_u64() % 21 };
                minus_one(sum(times_p(k), split((rng.fr().0).0)))
            })
        });
        let [a, b, c, d] = parts.map(element);
        let reduced = normalize(&reduce_sum(&add(&add(&a, &b), &add(&c, &d))));
        for i in 0..8 {
            let got = lane(&reduced, i);
            let expected: Fr = parts.iter().map(|part| plain(part[i])).sum();
            assert_eq!(plain(got), expected, "congruent");
            assert!(normalized(&got) && less(&got, &two_p), "{got:x?}");
            checked += 1;
        }
    }
    assert_eq!(checked, 24 * 8);
}

/// The intrinsic kernels against the model (the same algorithm on `u64`s) and the scalar
/// permutation: the eight-lane (zmm) kernel on whole batches, then chained, and the four-lane
/// (ymm) kernel on the same batches cut in halves. Where the CPU lacks AVX-512 IFMA the kernels
/// never run (the scalar path serves), and neither does this comparison: it says so, and fails if
/// the kernel lists `avx512ifma` (a detection that misses it would skip the check on a CPU that
/// runs the kernels).
#[cfg(all(target_arch = "x86_64", feature = "asm"))]
#[test]
fn the_ifma_kernels_are_the_model_and_the_scalar_permutation() {
    let Some(ifma) = crate::montgomery::ifma::for_test_or_skip("the IFMA batch kernels") else {
        return;
    };
    let (mut eight_lane, mut four_lane) = (0, 0);
    for batch in batches() {
        let expected = scalar(&batch);
        let (mut kernel, mut model) = (batch, batch);
        ifma.permute_x8(&mut kernel);
        permute_n::<8, X8>(&mut model);
        assert_eq!(kernel, model, "{batch:?}");
        assert_eq!(kernel, expected, "{batch:?}");
        eight_lane += 8;
        for (half, expected) in batch.chunks_exact(4).zip(expected.chunks_exact(4)) {
            let four: [State; 4] = [half[0], half[1], half[2], half[3]];
            let (mut kernel, mut model) = (four, four);
            ifma.permute_x4(&mut kernel);
            permute_n::<4, Xn<4>>(&mut model);
            assert_eq!(kernel, model, "{four:?}");
            assert_eq!(kernel.as_slice(), expected, "{four:?}");
            four_lane += 4;
        }
    }
    // Chained: each output batch the next input.
    let mut batch = batches()[1];
    for _ in 0..32 {
        let expected = scalar(&batch);
        ifma.permute_x8(&mut batch);
        assert_eq!(batch, expected);
        eight_lane += 8;
    }
    assert_eq!((eight_lane, four_lane), (8 * (batches().len() + 32), 8 * batches().len()));
}

#[test]
fn the_bounds_leave_headroom() {
    // The widest value the permutation forms is about 73p (the first partial round's sum),
    // below R ≈ 84.5p; the lanes settle near 3p in the partial rounds.
    const { assert!(BOUNDS.widest < 80 * UNIT && BOUNDS.partial < 4 * UNIT && BOUNDS.out < 2 * UNIT) };
    let in_p = |x: u128| x as f64 / UNIT as f64;
    std::eprintln!(
        "x8 bounds, in p: widest {:.2}, after the partial rounds {:.2}, at the exit {:.3}",
        in_p(BOUNDS.widest),
        in_p(BOUNDS.partial),
        in_p(BOUNDS.out)
    );
}

#[test]
fn conversion_constants() {
    assert_eq!(join(split(P64)), P64);
    let two = Fr::from(2u64);
    // ENTRY, read as a plain integer, is 2^264 mod p; EXIT is 2^256 mod p.
    assert_eq!(plain(ENTRY), two.pow([264u64]));
    assert_eq!(plain(EXIT), two.pow([256u64]));
    // The kernel form of 1 is 2^260 mod p.
    assert_eq!(plain(to_kernel_form(from_fr(&Fr::ONE))), two.pow([260u64]));
}
