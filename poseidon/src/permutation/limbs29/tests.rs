//! The 29-bit-limb permutation's tests: its products, squares and reductions against ark-ff and
//! the reference products, and the whole permutation against the portable one, on every target.

use super::*;
use crate::montgomery::{from_fr, to_fr};
use crate::permutation::permute_lanes_portable;
use crate::test_rng::SplitMix64;
use alloc::vec::Vec;
use ark_bn254::Fr;
use ark_ff::{AdditiveGroup, BigInt, BigInteger, Field, PrimeField};

/// The field element of limbs in radix `2^261` (normalised or not, any value below `2^261`).
fn element(l: &Limbs) -> Fr {
    // Σ l_j·2^(29j) as an Fr, then divided by 2^261.
    let two29 = Fr::from(1u64 << 29);
    let value = l.iter().rev().fold(Fr::ZERO, |acc, limb| acc * two29 + Fr::from(*limb));
    value * Fr::from(2u64).pow([261]).inverse().unwrap_or_default()
}

/// The integer value of limbs, divided by p (as f64: enough for the bounds).
fn over_p(l: &Limbs) -> f64 {
    let p = BigInt(P);
    let p_f = p.0.iter().rev().fold(0f64, |acc, w| acc * 2f64.powi(64) + *w as f64);
    l.iter().rev().fold(0f64, |acc, limb| acc * 2f64.powi(29) + *limb as f64) / p_f
}

/// `2p`, the bound of a coarse value.
fn two_p() -> BigInt<4> {
    let mut t = BigInt(P);
    t.mul2();
    t
}

fn coarse_samples() -> Vec<Coarse> {
    let mut rng = SplitMix64(0x2929);
    let p_minus = |k: u64| {
        let mut v = BigInt(P);
        v.sub_with_borrow(&BigInt::from(k));
        v.0
    };
    let two_p_minus = |k: u64| {
        let mut v = BigInt(P);
        v.mul2();
        v.sub_with_borrow(&BigInt::from(k));
        v.0
    };
    let mut values =
        alloc::vec![[0; 4], [1, 0, 0, 0], P, p_minus(1), p_minus(2), two_p_minus(1), two_p_minus(2)];
    values.extend((0..200).map(|_| from_fr(&rng.fr())));
    // Coarse values above p: x + p for random x.
    values.extend((0..100).map(|_| {
        let mut v = BigInt(from_fr(&rng.fr()));
        v.add_with_carry(&BigInt(P));
        v.0
    }));
    values
}

#[test]
fn conversions_round_trip_and_keep_the_element() {
    let samples = coarse_samples();
    for x in &samples {
        let l = enter(x);
        assert!(limbs_below(&l, 29) && over_p(&l) < 1.03, "{l:x?}");
        assert_eq!(element(&l), to_fr(x));
        let back = leave(&l);
        assert_eq!(to_fr(&back), to_fr(x));
        assert!(BigInt(back) < two_p(), "{back:x?} not coarse");
        assert_eq!(join_29(&split_29(&widen(*x))), *x);
    }
    assert!(samples.len() > 300);
}

/// Exit on every value a permutation can end with (normalised, below `20p`), at and around
/// each residue mod 32, and entry on shifted values near its widest (`32·2p`): the element
/// is kept and the bounds hold.
#[test]
fn entry_and_exit_keep_the_element_across_their_range() {
    let samples = coarse_samples();
    let mut widest = 0f64;
    let mut residues = [false; 32];
    for (i, x) in samples.iter().enumerate() {
        let a = enter(x);
        // Up to 19 times a value below 1.001p, plus small offsets that walk the low limb
        // through every residue mod 32.
        for (factor, offset) in [(1u32, 0u64), (3, 1), (16, 7), (19, (i % 32) as u64)] {
            let mut v = [0u64; 9];
            for _ in 0..factor {
                v = add(&v, &a);
            }
            v[0] += offset;
            let v = normalise(v);
            widest = widest.max(over_p(&v));
            residues[(v[0] % 32) as usize] = true;
            let back = leave(&v);
            assert_eq!(to_fr(&back), element(&v), "{v:x?}");
            assert!(BigInt(back) < two_p() && over_p(&split_29(&widen(back))) < 1.6, "{back:x?}");
        }
    }
    assert!(widest > 18.0, "the widest exit input reached only {widest}p");
    assert!(residues.iter().all(|&seen| seen), "not every residue mod 32 was left: {residues:?}");
}

#[test]
fn square_is_the_product_limb_for_limb_and_both_products_agree() {
    let samples = coarse_samples();
    let mut checked = 0;
    for (i, x) in samples.iter().enumerate() {
        let a = enter(x);
        let b = enter(&samples[(i * 7 + 3) % samples.len()]);
        // Also values up to 19·1.03p (normalised), near the widest S-box input (20p).
        let wide = normalise(add(&shl(&a, 4), &add(&a, &shl(&b, 1))));
        for v in [a, b, wide, normalise(P29), normalise(shl(&P29, 4))] {
            let sq = square(&v);
            assert_eq!(sq, mul(&v, &v), "{v:x?}");
            assert_eq!(sq, square_karatsuba(&v));
            assert_eq!(sq, mul_then_reduce(&v, &v));
            assert_eq!(element(&sq), element(&v).square());
            assert!(over_p(&sq) < 1.0 + 0.006 * over_p(&v) * over_p(&v));
            let ab = mul(&v, &b);
            assert_eq!(ab, mul_then_reduce(&v, &b));
            assert_eq!(ab, mul_columns(&v, &b));
            assert_eq!(ab, mul_rows(&v, &b));
            assert_eq!(ab, mul(&b, &v));
            assert_eq!(sq, mul_columns(&v, &v));
            assert_eq!(element(&ab), element(&v) * element(&b));
            checked += 1;
        }
        // An unnormalised operand (limbs below 2^30) times a normalised one.
        let unnormalised = add(&a, &b);
        assert_eq!(mul(&unnormalised, &b), mul(&normalise(unnormalised), &b));
        assert_eq!(mul_columns(&unnormalised, &b), mul(&normalise(unnormalised), &b));
        assert_eq!(mul_then_reduce(&unnormalised, &b), mul(&normalise(unnormalised), &b));
    }
    assert_eq!(checked, 5 * samples.len());
}

/// The products at the widest limbs their bounds allow (every limb `2^30 − 1` beside every
/// limb `2^29 − 1`, and single limbs at the bound among zeros): no word overflows (debug
/// builds check every addition but the block product's wrapping subtractions), and the block
/// product gives the schoolbook's integer, limb for limb.
#[test]
fn products_agree_at_the_limb_bounds() {
    let wide = [(1u64 << 30) - 1; 9];
    let narrow = [MASK_29; 9];
    let mut operands = alloc::vec![(wide, narrow), (narrow, wide), (narrow, narrow)];
    for j in 0..9 {
        let mut one_wide = [0u64; 9];
        one_wide[j] = (1 << 30) - 1;
        let mut one_narrow = [0u64; 9];
        one_narrow[8 - j] = MASK_29;
        operands.push((one_wide, narrow));
        operands.push((one_wide, one_narrow));
        operands.push((narrow, one_wide));
    }
    for (a, b) in &operands {
        let want = mul_rows(a, b);
        assert_eq!(mul(a, b), want, "{a:x?} · {b:x?}");
        assert_eq!(mul_then_reduce(a, b), want);
        assert_eq!(element(&want), element(a) * element(b));
    }
    assert_eq!(square_karatsuba(&narrow), square(&narrow));
    assert_eq!(operands.len(), 30);
}

#[test]
fn reduce_keeps_the_element_and_lands_below_1_001p() {
    let samples = coarse_samples();
    let mut widest_seen = 0f64;
    for i in 0..samples.len() {
        let parts = [0, 1, 2, 3].map(|k| enter(&samples[(i * 5 + k) % samples.len()]));
        // Four lanes as the partial round sums them.
        let sum = add(&add(&parts[0], &shl(&parts[1], 1)), &add(&parts[2], &parts[3]));
        // The widest: an S-box output beside three normalised lanes of 16 times a value below
        // 1.03p, as after the fourth full round (whose outputs reach 18.1p).
        let sixteen = |l: &Limbs| normalise(shl(&shl(l, 2), 2));
        let widest =
            add(&add(&parts[0], &sixteen(&parts[1])), &add(&sixteen(&parts[2]), &sixteen(&parts[3])));
        widest_seen = widest_seen.max(over_p(&widest));
        for v in [sum, widest, add(&sum, &P29), shl(&parts[2], 2), [0; 9], P29] {
            let r = reduce(&v);
            assert!(limbs_below(&r, 29) && over_p(&r) < 1.001, "{v:x?} → {r:x?}");
            assert_eq!(element(&r), element(&v));
        }
    }
    assert!(widest_seen > 40.0, "the widest sum reached only {widest_seen}p");
}

#[test]
fn the_limb_permutation_gives_the_portable_elements() {
    let samples = coarse_samples();
    let mut rng = SplitMix64(0x74_7866_7829);
    let mut states: Vec<Lanes> = alloc::vec![[[0; 4]; 4], [P; 4]];
    // Every sample in every lane, beside random ones.
    for (i, x) in samples.iter().enumerate() {
        states.push([*x, samples[(i + 1) % samples.len()], samples[(i * 3) % samples.len()], *x]);
    }
    states.extend((0..64).map(|_| [0; 4].map(|_: u64| from_fr(&rng.fr()))));
    let two_p_minus_1 = samples[5];
    states.push([two_p_minus_1; 4]);
    states.push([samples[3]; 4]);
    let mut checked = 0;
    for state in &states {
        let (mut got, mut want) = (*state, *state);
        permute_lanes_29(&mut got);
        permute_lanes_portable(&mut want);
        assert_eq!(got.each_ref().map(to_fr), want.each_ref().map(to_fr), "{state:x?}");
        assert!(got.iter().all(|l| BigInt(*l) < {
            let mut t = BigInt(P);
            t.mul2();
            t
        }));
        assert_ne!(got, *state);
        checked += 1;
    }
    assert_eq!(checked, states.len());
    assert!(checked > 370);
    // The elements are those of the reference too: p − 1 in every lane, chained.
    let mut state = [from_fr(&-Fr::ONE); 4];
    for _ in 0..8 {
        let mut want = state;
        permute_lanes_portable(&mut want);
        permute_lanes_29(&mut state);
        assert_eq!(state.each_ref().map(to_fr), want.each_ref().map(to_fr));
        assert!(state.iter().all(|l| to_fr(l).into_bigint() < Fr::MODULUS));
    }
}
