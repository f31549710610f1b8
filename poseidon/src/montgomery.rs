//! BN254 scalar-field arithmetic for the permutation's hot loop: Montgomery form with lazy
//! ("coarse") reduction, as barretenberg's field does it.
//!
//! A [`Coarse`] value is four little-endian 64-bit limbs holding `x·R mod p` (`R = 2^256`, the
//! same Montgomery form as `ark_bn254::Fr`, so conversion at the edges only copies limbs) in the
//! wider range `[0, 2p)` instead of `[0, p)`. The bounds that make this sound, with
//! `p ≈ 0.189·R` (so `5p < R`):
//!
//! - **Multiplication** (CIOS, [`mul`]): for inputs below `2p` the running value stays below
//!   `3p + p/2^64 < R` and the result is `ab/R + (something below p) < 4p²/R + p < 1.76p`. So
//!   no final conditional subtraction is needed, the result is already coarse, and no carry out
//!   of the top limb can occur (the "no-carry" variant: `p`'s top limb is below `2^63 - 1`).
//! - **Addition** ([`add`]): two coarse values sum below `4p < R` (no carry out), and one
//!   branch-free conditional subtraction of `2p` brings the sum back below `2p`.
//! - **Leaving** ([`Coarse::to_fr`]): one conditional subtraction of `p` gives the canonical
//!   value `ark_bn254::Fr` holds.
//!
//! Every operation is branch-free and its time independent of the values: the conditional
//! subtractions select with a mask, never with a branch the predictor would have to learn.
//! `ark-ff`'s own `Fr` reduces fully after every operation, with a data-dependent branch.
//!
//! Two products, one per kind of target, both tested here on every target: 64-bit limbs (CIOS)
//! where the machine multiplies 64×64→128 bits, and nine 29-bit limbs on wasm32, where that
//! product is a software routine (the WASM guest). Squares have their own 64-bit routine.
//! On wasm32 the permutation does not call these: it keeps its state in 29-bit limbs from entry
//! to exit, in radix `2^261`, with its own square (`permutation/limbs29.rs`, which borrows
//! `row_29`, `split_29` and `join_29`); `mul_29` serves wasm32's other products there.

use ark_bn254::{Fr, FrConfig};
use ark_ff::{BigInt, MontConfig};

// `forward_product!` and `cached_cpu_check!`, before the modules that use them.
#[macro_use]
mod token_macros;
#[cfg(all(target_arch = "x86_64", feature = "asm"))]
mod adx;
#[cfg(all(target_arch = "x86_64", feature = "asm"))]
pub(crate) use adx::Adx;
#[cfg(all(target_arch = "x86_64", feature = "asm"))]
pub(crate) mod ifma;

/// The products the permutation is generic over: [`Portable`] everywhere, `Adx` on x86-64 CPUs
/// with BMI2 and ADX. Both give bit-identical results; the permutation picks one per call. A
/// product is a value (zero-sized): `Adx`'s can only be had from a successful CPU check, so no
/// code path reaches its instructions on a CPU without them.
pub(crate) trait Product: Copy {
    /// Montgomery product, see [`mul`].
    fn mul(self, a: &Coarse, b: &Coarse) -> Coarse;
    /// Montgomery square, see [`square`].
    fn square(self, a: &Coarse) -> Coarse;
}

/// The safe, portable products of this module.
#[derive(Clone, Copy)]
pub(crate) struct Portable;

forward_product!(Portable);

/// The modulus `p`, little-endian limbs, from ark-ff's configuration at compile time.
pub(crate) const P: [u64; 4] = <FrConfig as MontConfig<4>>::MODULUS.0;

/// `2p`, which still fits in four limbs (`2p < 2^255`).
pub(crate) const TWO_P: [u64; 4] = double(P);

/// `-p^{-1} mod 2^64`, the Montgomery reduction factor, by Newton iteration at compile time.
pub(crate) const INV: u64 = {
    // x ← x·(2 − p₀·x) doubles the number of correct low bits: 1 → 2 → 4 → … → 64 after 6 steps,
    // starting from x = 1 (p₀ is odd, so p₀·1 ≡ 1 mod 2).
    let p0 = P[0];
    let mut x: u64 = 1;
    let mut step = 0;
    while step < 6 {
        x = x.wrapping_mul(2u64.wrapping_sub(p0.wrapping_mul(x)));
        step += 1;
    }
    x.wrapping_neg()
};

// The no-carry multiplication and the [0, 2p) range both need p's top limb well below 2^63.
const _: () = assert!(P[3] < (u64::MAX >> 2), "the lazy-reduction bounds need p < R/4");
const _: () = assert!(P[0].wrapping_mul(INV) == u64::MAX, "INV must be -p^-1 mod 2^64");

/// A field element in Montgomery form, in `[0, 2p)`: four little-endian limbs.
pub(crate) type Coarse = [u64; 4];

/// `2·a` for a value below `R/2`, at compile time.
const fn double(a: [u64; 4]) -> [u64; 4] {
    [a[0] << 1, (a[1] << 1) | (a[0] >> 63), (a[2] << 1) | (a[1] >> 63), (a[3] << 1) | (a[2] >> 63)]
}

/// `acc + a·b + carry` as (low, high) limbs; cannot overflow 128 bits. (`u64::carrying_mul_add`
/// compiles to the same code but is not `const`, and [`mul`] also builds constants.)
#[cfg(any(test, not(target_arch = "wasm32")))]
#[inline(always)]
const fn mac(acc: u64, a: u64, b: u64, carry: u64) -> (u64, u64) {
    let wide = acc as u128 + (a as u128) * (b as u128) + carry as u128;
    (wide as u64, (wide >> 64) as u64)
}

/// `a - m` if `a >= m`, else `a`, without a branch. `a < 2m` gives a result below `m`.
#[inline(always)]
fn subtract_if_not_below(a: [u64; 4], m: [u64; 4]) -> [u64; 4] {
    let (d0, b) = a[0].borrowing_sub(m[0], false);
    let (d1, b) = a[1].borrowing_sub(m[1], b);
    let (d2, b) = a[2].borrowing_sub(m[2], b);
    let (d3, b) = a[3].borrowing_sub(m[3], b);
    // All ones when a < m (the subtraction borrowed): keep a. (Measured: a mask here beats
    // `select_unpredictable`'s conditional moves in the permutation, 12.5 against 13.0 µs.)
    let keep = 0u64.wrapping_sub(b as u64);
    [
        (a[0] & keep) | (d0 & !keep),
        (a[1] & keep) | (d1 & !keep),
        (a[2] & keep) | (d2 & !keep),
        (a[3] & keep) | (d3 & !keep),
    ]
}

/// Montgomery product `a·b·R⁻¹`, below `a·b/R + p`: coarse for coarse inputs.
///
/// Inputs may be as wide as `3p` (an S-box's unreduced input): the running value then stays
/// below `4p < R`, and the result below `9p²/R + p < 2.71p`.
///
/// On wasm32, whose 64×64→128-bit products are calls to a software routine, the product runs on
/// 29-bit limbs ([`mul_29`]), whose products a 64-bit multiply holds. There it is one
/// out-of-line function: inlined into every round, the permutation became one 71 KB function that
/// V8's optimising compiler handles worse than its baseline one; called, the guest's permutation
/// under V8 went from 62 to 36 µs and its module from 106 to 52 KB (BENCHMARKS.md, design:
/// wasm-mul-out-of-line). Natively it stays inline. (Since then wasm32's permutation runs in
/// `permutation/limbs29.rs`, whose products follow the same lesson; this one serves the rest.)
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
#[cfg_attr(target_arch = "wasm32", inline(never))]
pub(crate) const fn mul(a: &Coarse, b: &Coarse) -> Coarse {
    #[cfg(target_arch = "wasm32")]
    return mul_29(a, b);
    #[cfg(not(target_arch = "wasm32"))]
    mul_64(a, b)
}

/// [`mul`] on 64-bit limbs (CIOS, no-carry variant).
#[cfg(any(test, not(target_arch = "wasm32")))]
#[allow(
    clippy::indexing_slicing,
    reason = "const loops over fixed-size limb arrays, every index below the length; iterators are not const"
)]
#[inline(always)]
const fn mul_64(a: &Coarse, b: &Coarse) -> Coarse {
    let mut t = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        let bi = b[i];
        let (t0, mut c1) = mac(t[0], a[0], bi, 0);
        let k = t0.wrapping_mul(INV);
        // The low limb of t0 + k·p is zero by the choice of k; only its carry matters.
        let (_, mut c2) = mac(t0, k, P[0], 0);
        let mut j = 1;
        while j < 4 {
            let (x, c) = mac(t[j], a[j], bi, c1);
            c1 = c;
            let (y, c) = mac(x, k, P[j], c2);
            c2 = c;
            t[j - 1] = y;
            j += 1;
        }
        // The running value stays below R (module bounds), so this top limb cannot overflow.
        t[3] = c1 + c2;
        i += 1;
    }
    t
}

/// Bits per limb of [`mul_29`].
#[cfg(any(test, target_arch = "wasm32"))]
pub(crate) const LIMB_BITS_29: u32 = 29;
#[cfg(any(test, target_arch = "wasm32"))]
pub(crate) const MASK_29: u64 = (1 << LIMB_BITS_29) - 1;

/// [`mul`] on nine 29-bit limbs held in 64-bit words, barretenberg's layout for 32-bit targets:
/// limb products are below 2^58, so the loop only multiplies and adds, and carries wait until the
/// end. On wasm32 this measured faster than eight 32-bit limbs, whose every step propagates a
/// carry, and than the 64-bit form (BENCHMARKS.md, design: wasm-29-bit-limbs).
///
/// The Montgomery radix is `2^261` here, not `R = 2^256`: `b` enters shifted left by 5 bits
/// (`32b < 2^261` for `b < 3p`, no reduction needed), so the result is `a·32b·2^-261 = a·b·R⁻¹`,
/// the same value with the same bound as [`mul_64`]'s (`a·b/R + p`).
///
/// Accumulator bounds: each round adds to each word at most `a_j·b_i + m·p_j < 2^59`, and a word
/// collects at most nine rounds and a carry below 2^34: below 2^63.
#[cfg(any(test, target_arch = "wasm32"))]
#[allow(
    clippy::indexing_slicing,
    reason = "const loops over fixed-size limb arrays, every index below the length; iterators are not const"
)]
#[inline(always)]
const fn mul_29(a: &Coarse, b: &Coarse) -> Coarse {
    let a = split_29(&[a[0], a[1], a[2], a[3], 0]);
    // 32b, five words (b < 2^256).
    let b = split_29(&[
        b[0] << 5,
        (b[1] << 5) | (b[0] >> 59),
        (b[2] << 5) | (b[1] >> 59),
        (b[3] << 5) | (b[2] >> 59),
        b[3] >> 59,
    ]);
    // Nine rows written out, not a loop: LLVM leaves a 9-row loop rolled, which keeps the
    // accumulator in linear memory and shifts it with loads and stores every row (the guest's
    // permutation measured 49 µs so); unrolled, the accumulator lives in locals, which the JIT
    // keeps in registers.
    let acc = row_29([0; 9], &a, b[0]);
    let acc = row_29(acc, &a, b[1]);
    let acc = row_29(acc, &a, b[2]);
    let acc = row_29(acc, &a, b[3]);
    let acc = row_29(acc, &a, b[4]);
    let acc = row_29(acc, &a, b[5]);
    let acc = row_29(acc, &a, b[6]);
    let acc = row_29(acc, &a, b[7]);
    let mut acc = row_29(acc, &a, b[8]);
    // Normalise: every limb below 2^29, the value (below R) in the nine limbs.
    let mut j = 0;
    while j < 8 {
        acc[j + 1] += acc[j] >> LIMB_BITS_29;
        acc[j] &= MASK_29;
        j += 1;
    }
    join_29(&acc)
}

/// One row of [`mul_29`]: `acc + a·bi + m·p`, divided by `2^29` (`m` chosen so that the low limb
/// is a multiple of `2^29`).
#[cfg(any(test, target_arch = "wasm32"))]
#[allow(
    clippy::indexing_slicing,
    reason = "const loops over fixed-size limb arrays, every index below the length; iterators are not const"
)]
#[inline(always)]
pub(crate) const fn row_29(mut acc: [u64; 9], a: &[u64; 9], bi: u64) -> [u64; 9] {
    const P29: [u64; 9] = split_29(&[P[0], P[1], P[2], P[3], 0]);
    let mut j = 0;
    while j < 9 {
        acc[j] += a[j] * bi;
        j += 1;
    }
    let (m, carry) = reduce_low_29(acc[0]);
    let mut j = 1;
    while j < 9 {
        acc[j] += m * P29[j];
        j += 1;
    }
    // acc[0] + m·p_0 is a multiple of 2^29: the whole divides by 2^29.
    [acc[1] + carry, acc[2], acc[3], acc[4], acc[5], acc[6], acc[7], acc[8], 0]
}

/// The low limb of BN254's `p` in 29-bit limbs is `2^28 + 1`, so `-p⁻¹ mod 2^29` is `2^28 − 1`.
#[cfg(any(test, target_arch = "wasm32"))]
const _: () =
    assert!(split_29(&[P[0], P[1], P[2], P[3], 0])[0] == (1 << 28) + 1 && INV & MASK_29 == (1 << 28) - 1);

/// A Montgomery round's low word `t`: `m = t·(-p⁻¹) mod 2^29` and `(t + m·p_0) / 2^29` (exact),
/// with shifts and additions where a product by either constant would be a multiply.
///
/// `-p⁻¹ ≡ 2^28 − 1` and `p_0 = 2^28 + 1` (asserted above). So `m = (t·2^28 − t) mod 2^29`,
/// where `t·2^28 mod 2^29` is the low bit of `t` at bit 28: adding it to `−t mod 2^29` flips
/// bit 28 (the carry out of bit 28 leaves the 29 bits), so `m = (−t ⊕ t·2^28) mod 2^29`. With
/// `u = t + m`, `t + m·p_0 = u + m·2^28` is a multiple of 2^29, so `u` is a multiple of `2^28`
/// and the quotient is `(u/2^28 + m)/2`. Both are written so that LLVM keeps them: it folds
/// `t + (m << 28) + m` back into a multiply by `p_0`, and `((t & 1) << 28) − t` (the subtraction
/// in place of the exclusive or) into a multiply by `2^28 − 1`, as the module built before
/// December 2026's second change did (162 `i64.mul` a product, not 153). wasm32's products are
/// bound by the one port that multiplies, and this takes two of each round's nineteen
/// multiplies off it. `t` below `2^63` (the callers' accumulator bounds).
#[cfg(any(test, target_arch = "wasm32"))]
#[inline(always)]
pub(crate) const fn reduce_low_29(t: u64) -> (u64, u64) {
    let m = (t.wrapping_neg() ^ (t << 28)) & MASK_29;
    (m, (((t + m) >> 28) + m) >> 1)
}

/// A value below `2^261` in five 64-bit words as nine 29-bit limbs, little-endian.
#[cfg(any(test, target_arch = "wasm32"))]
#[inline(always)]
pub(crate) const fn split_29(w: &[u64; 5]) -> [u64; 9] {
    [
        w[0] & MASK_29,
        (w[0] >> 29) & MASK_29,
        ((w[0] >> 58) | (w[1] << 6)) & MASK_29,
        (w[1] >> 23) & MASK_29,
        ((w[1] >> 52) | (w[2] << 12)) & MASK_29,
        (w[2] >> 17) & MASK_29,
        ((w[2] >> 46) | (w[3] << 18)) & MASK_29,
        (w[3] >> 11) & MASK_29,
        ((w[3] >> 40) | (w[4] << 24)) & MASK_29,
    ]
}

/// Nine normalised 29-bit limbs of a value below `2^256` as four 64-bit words.
#[cfg(any(test, target_arch = "wasm32"))]
#[inline(always)]
pub(crate) const fn join_29(l: &[u64; 9]) -> [u64; 4] {
    [
        l[0] | (l[1] << 29) | (l[2] << 58),
        (l[2] >> 6) | (l[3] << 23) | (l[4] << 52),
        (l[4] >> 12) | (l[5] << 17) | (l[6] << 46),
        (l[6] >> 18) | (l[7] << 11) | (l[8] << 40),
    ]
}

/// `a²·R⁻¹`, below `a²/R + p` (coarse for a coarse input, below `2.71p` for `a < 3p`): the 512-bit square from 10 limb products
/// (the 6 off-diagonal ones counted twice by a shift) instead of 16, then a Montgomery reduction.
///
/// Bounds: `a < 3p` gives `a² < 9p² < 1.71·p·R`; the reduction adds `m·p` with `m < R`, so the
/// 512-bit value stays below `2.71·p·R < R²`.
#[inline(always)]
pub(crate) fn square(a: &Coarse) -> Coarse {
    // On wasm32 the 29-bit-limb product serves squares too (outside the permutation, which
    // squares in its own limbs: `permutation/limbs29.rs`).
    #[cfg(target_arch = "wasm32")]
    return mul(a, a);
    #[cfg(not(target_arch = "wasm32"))]
    square_64(a)
}

#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn square_64(a: &Coarse) -> Coarse {
    let [a0, a1, a2, a3] = *a;
    // Off-diagonal products a_i·a_j (i < j), at limb i + j.
    let (t1, c) = a0.carrying_mul(a1, 0);
    let (t2, c) = a0.carrying_mul_add(a2, 0, c);
    let (t3, t4) = a0.carrying_mul_add(a3, 0, c);
    let (t3, c) = a1.carrying_mul_add(a2, t3, 0);
    let (t4, t5) = a1.carrying_mul_add(a3, t4, c);
    let (t5, t6) = a2.carrying_mul_add(a3, t5, 0);
    // Doubled: the off-diagonal sum is below a²/2 < 2^510, so the shift loses no bit.
    let t7 = t6 >> 63;
    let t6 = (t6 << 1) | (t5 >> 63);
    let t5 = (t5 << 1) | (t4 >> 63);
    let t4 = (t4 << 1) | (t3 >> 63);
    let t3 = (t3 << 1) | (t2 >> 63);
    let t2 = (t2 << 1) | (t1 >> 63);
    let t1 = t1 << 1;
    // Plus the diagonal a_i² at limb 2i.
    let (t0, hi) = a0.carrying_mul(a0, 0);
    let (t1, c) = t1.carrying_add(hi, false);
    let (lo, hi) = a1.carrying_mul(a1, 0);
    let (t2, c) = t2.carrying_add(lo, c);
    let (t3, c) = t3.carrying_add(hi, c);
    let (lo, hi) = a2.carrying_mul(a2, 0);
    let (t4, c) = t4.carrying_add(lo, c);
    let (t5, c) = t5.carrying_add(hi, c);
    let (lo, hi) = a3.carrying_mul(a3, 0);
    let (t6, c) = t6.carrying_add(lo, c);
    let (t7, _) = t7.carrying_add(hi, c); // a² < 2^512: no carry out.
    reduce([t0, t1, t2, t3, t4, t5, t6, t7])
}

/// Montgomery reduction of a 512-bit value `t < 2.71·p·R`: `t·R⁻¹ mod p`, below `t/R + p`.
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn reduce(t: [u64; 8]) -> Coarse {
    let [t0, t1, t2, t3, t4, t5, t6, t7] = t;
    // Round i zeroes limb i and carries into limb i + 4.
    let ([t1, t2, t3], t4, c) = reduce_round([t0, t1, t2, t3], t4, false);
    let ([t2, t3, t4], t5, c) = reduce_round([t1, t2, t3, t4], t5, c);
    let ([t3, t4, t5], t6, c) = reduce_round([t2, t3, t4, t5], t6, c);
    // The value stays below 2.71·p·R < R²: the last carry out is zero.
    let ([t4, t5, t6], t7, _) = reduce_round([t3, t4, t5, t6], t7, c);
    [t4, t5, t6, t7]
}

/// One round of [`reduce`]: adds `k·p` to the four limbs `w`, with `k` chosen to zero `w[0]`, and
/// the carry out of them (with the previous round's carry bit) to the next limb. Returns the
/// other three limbs, the next limb and its carry bit.
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn reduce_round(w: [u64; 4], next: u64, carry: bool) -> ([u64; 3], u64, bool) {
    let k = w[0].wrapping_mul(INV);
    let (_, c) = k.carrying_mul_add(P[0], w[0], 0);
    let (w1, c) = k.carrying_mul_add(P[1], w[1], c);
    let (w2, c) = k.carrying_mul_add(P[2], w[2], c);
    let (w3, c) = k.carrying_mul_add(P[3], w[3], c);
    let (next, carry) = next.carrying_add(c, carry);
    ([w1, w2, w3], next, carry)
}

/// `a + b` without reduction, for inputs whose sum stays below `R` (see each caller's bound).
#[inline(always)]
pub(crate) fn add_unreduced(a: &Coarse, b: &Coarse) -> [u64; 4] {
    let (s0, c) = a[0].carrying_add(b[0], false);
    let (s1, c) = a[1].carrying_add(b[1], c);
    let (s2, c) = a[2].carrying_add(b[2], c);
    let (s3, _) = a[3].carrying_add(b[3], c);
    [s0, s1, s2, s3]
}

/// `a + b`, less `2p` if the sum is at least `2p`: below `2p` for coarse inputs. A sum below
/// `4.35p < R` (the internal matrix's wider lane 0) leaves below `2.35p`.
#[inline(always)]
pub(crate) fn add(a: &Coarse, b: &Coarse) -> Coarse {
    // Below 4p < R: no carry out of the top limb.
    let (s0, c) = a[0].carrying_add(b[0], false);
    let (s1, c) = a[1].carrying_add(b[1], c);
    let (s2, c) = a[2].carrying_add(b[2], c);
    let (s3, _) = a[3].carrying_add(b[3], c);
    subtract_if_not_below([s0, s1, s2, s3], TWO_P)
}

/// `2·a` for a coarse input, brought back below `2p`.
#[inline(always)]
pub(crate) fn double_coarse(a: &Coarse) -> Coarse {
    subtract_if_not_below(double(*a), TWO_P)
}

/// Not API: loops of the permutation's own Montgomery product and square on this CPU (the
/// assembly ones where the CPU has BMI2 and ADX; on wasm32 also the 29-bit-limb product the
/// permutation runs there), for txfx-bench's and `bench/wasm-relaxed`'s per-product measurements,
/// where only code compiled inside this crate can reach the products inlined.
#[doc(hidden)]
pub mod bench_loops {
    use super::{Coarse, Portable, Product};

    /// Calls `$f` with the assembly products where the CPU has them, else the portable ones.
    macro_rules! on_cpu {
        ($f:ident($($arg:expr),*)) => {{
            #[cfg(all(target_arch = "x86_64", feature = "asm"))]
            if let Some(token) = super::Adx::detect() {
                return $f(token, $($arg),*);
            }
            $f(Portable, $($arg),*)
        }};
    }

    /// `xs[k] ← xs[k]·y`, `rounds` times: eight independent chains (throughput).
    pub fn mul_independent(xs: &mut [Coarse; 8], y: &Coarse, rounds: usize) {
        #[inline(always)]
        fn with<A: Product>(a: A, xs: &mut [Coarse; 8], y: &Coarse, rounds: usize) {
            for _ in 0..rounds {
                for x in xs.iter_mut() {
                    *x = a.mul(x, y);
                }
            }
        }
        on_cpu!(with(xs, y, rounds))
    }

    /// `x ← x·y`, `rounds` times: one dependent chain (latency).
    pub fn mul_chain(x: &mut Coarse, y: &Coarse, rounds: usize) {
        #[inline(always)]
        fn with<A: Product>(a: A, x: &mut Coarse, y: &Coarse, rounds: usize) {
            (0..rounds).for_each(|_| *x = a.mul(x, y));
        }
        on_cpu!(with(x, y, rounds))
    }

    /// `xs[k] ← xs[k]²`, `rounds` times: eight independent chains (throughput).
    pub fn square_independent(xs: &mut [Coarse; 8], rounds: usize) {
        #[inline(always)]
        fn with<A: Product>(a: A, xs: &mut [Coarse; 8], rounds: usize) {
            for _ in 0..rounds {
                for x in xs.iter_mut() {
                    *x = a.square(x);
                }
            }
        }
        on_cpu!(with(xs, rounds))
    }

    /// `x ← x²`, `rounds` times: one dependent chain (latency).
    pub fn square_chain(x: &mut Coarse, rounds: usize) {
        #[inline(always)]
        fn with<A: Product>(a: A, x: &mut Coarse, rounds: usize) {
            (0..rounds).for_each(|_| *x = a.square(x));
        }
        on_cpu!(with(x, rounds))
    }

    /// `xs[k] ← xs[k]·y` with wasm32's permutation product (nine 29-bit limbs, radix `2^261`,
    /// `permutation/limbs29.rs`, out of line as the permutation calls it), `rounds` times: eight
    /// independent chains (throughput). The values are split into limbs before the loop and
    /// joined after it; values below `p` in, values below `1.01p` out.
    #[cfg(target_arch = "wasm32")]
    pub fn mul_29_independent(xs: &mut [Coarse; 8], y: &Coarse, rounds: usize) {
        use crate::permutation::limbs29::{Limbs, mul};
        let y: Limbs = super::split_29(&[y[0], y[1], y[2], y[3], 0]);
        let mut limbs: [Limbs; 8] = xs.map(|x| super::split_29(&[x[0], x[1], x[2], x[3], 0]));
        for _ in 0..rounds {
            for x in limbs.iter_mut() {
                *x = mul(x, &y);
            }
        }
        *xs = limbs.map(|x| super::join_29(&x));
    }

    /// `x ← x·y` with the product of [`mul_29_independent`], `rounds` times: one dependent chain
    /// (latency).
    #[cfg(target_arch = "wasm32")]
    pub fn mul_29_chain(x: &mut Coarse, y: &Coarse, rounds: usize) {
        use crate::permutation::limbs29::{Limbs, mul};
        let y: Limbs = super::split_29(&[y[0], y[1], y[2], y[3], 0]);
        let mut limbs: Limbs = super::split_29(&[x[0], x[1], x[2], x[3], 0]);
        (0..rounds).for_each(|_| limbs = mul(&limbs, &y));
        *x = super::join_29(&limbs);
    }
}

/// `R² mod p`: the Montgomery product of a plain integer and this is its Montgomery form.
const R2: Coarse = <FrConfig as MontConfig<4>>::R2.0;

/// The Montgomery form of a plain integer below `2^128` (a sponge's capacity value, `len·2^64`).
#[inline(always)]
pub(crate) const fn from_u128(x: u128) -> Coarse {
    mul(&[x as u64, (x >> 64) as u64, 0, 0], &R2)
}

/// The `Fr` of an integer below `p` (little-endian limbs; the caller has checked the bound):
/// its Montgomery form by this module's product, `x·R²·R⁻¹`, below `x·R²/R + p < 1.2p`, then
/// made canonical. The same `Fr` as `ark_ff`'s `from_bigint`, which on wasm32 pays for every
/// 64×64-bit product with a software routine where this runs on 29-bit limbs.
#[inline]
pub(crate) fn fr_from_canonical(x: &[u64; 4]) -> Fr {
    to_fr(&mul(x, &R2))
}

/// The integer an `Fr` stands for (little-endian limbs, below `p`): its Montgomery limbs times
/// one, `x·R·R⁻¹` below `x·R/R + p`, hence at most `p`, made canonical. `into_bigint`'s
/// value, by this module's product (see [`fr_from_canonical`]).
#[inline]
pub(crate) fn canonical_of_fr(x: &Fr) -> [u64; 4] {
    subtract_if_not_below(mul(&from_fr(x), &[1, 0, 0, 0]), P)
}

/// An `Fr` as a coarse value: its Montgomery limbs, already below `p`.
#[inline(always)]
pub(crate) const fn from_fr(x: &Fr) -> Coarse {
    (x.0).0
}

/// The canonical `Fr` of a coarse value.
#[inline(always)]
pub(crate) fn to_fr(a: &Coarse) -> Fr {
    Fr::new_unchecked(BigInt(subtract_if_not_below(*a, P)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::SplitMix64;
    use alloc::vec::Vec;
    use ark_ff::{AdditiveGroup, BigInteger, Field, PrimeField};

    /// `limbs - k`, for a small k below the value.
    fn minus(limbs: [u64; 4], k: u64) -> [u64; 4] {
        let mut value = BigInt(limbs);
        assert!(!value.sub_with_borrow(&BigInt::from(k)));
        value.0
    }

    /// The value `x` in Montgomery form plus `shift·p`: `shift` 0 is canonical, 1 coarse, 2
    /// as wide as an S-box input.
    fn wide(x: Fr, shift: u64) -> [u64; 4] {
        let mut value = BigInt(from_fr(&x));
        for _ in 0..shift {
            assert!(!value.add_with_carry(&BigInt(P)));
        }
        value.0
    }

    /// The field element of limbs of any width below `R` (repeated subtraction of p).
    fn element(limbs: [u64; 4]) -> Fr {
        let mut value = BigInt(limbs);
        while value >= BigInt(P) {
            value.sub_with_borrow(&BigInt(P));
        }
        Fr::new_unchecked(value)
    }

    /// Edge values (0, 1, 2, −1, −2, and Montgomery limbs just below p, whose shifted forms
    /// sit just below 2p and 3p) beside random ones.
    fn samples() -> Vec<Fr> {
        let mut values = alloc::vec![Fr::ZERO, Fr::ONE, Fr::from(2u64), -Fr::ONE, -Fr::from(2u64)];
        values.extend((1..=4).map(|k| Fr::new_unchecked(BigInt(minus(P, k)))));
        let mut limbs = SplitMix64(0x7478_6678);
        values.extend((0..300).map(|_| limbs.fr()));
        values
    }

    /// The Montgomery round's low-word step without multiplies equals the step with them: `m` is
    /// `t·(-p⁻¹) mod 2^29`, `t + m·p_0` is a multiple of `2^29`, and the carry is its quotient,
    /// for every low pattern of `t` (all 2^12 values of the low twelve bits, under each of a few
    /// high parts) and random `t` below `2^63`.
    #[test]
    fn reduce_low_29_is_the_round_with_its_multiplies() {
        let p0 = split_29(&[P[0], P[1], P[2], P[3], 0])[0];
        let inv = INV & MASK_29;
        let mut rng = SplitMix64(0x29_1017);
        let highs = [0, 1 << 29, (1 << 40) - (1 << 12), (1 << 63) - (1 << 12)];
        let ts = highs
            .iter()
            .flat_map(|&high| (0..1u64 << 12).map(move |low| high | low))
            .chain((0..20_000).map(|_| rng.next_u64() >> 1));
        let mut checked = 0;
        for t in ts {
            let (m, carry) = reduce_low_29(t);
            let expected_m = t.wrapping_mul(inv) & MASK_29;
            let sum = u128::from(t) + u128::from(expected_m) * u128::from(p0);
            assert_eq!(m, expected_m, "m for t = {t:#x}");
            assert_eq!(sum % (1 << 29), 0, "t + m·p_0 for t = {t:#x}");
            assert_eq!(u128::from(carry), sum >> 29, "carry for t = {t:#x}");
            checked += 1;
        }
        assert_eq!(checked, 4 * 4096 + 20_000);
    }

    /// `limbs < hundredths_of_p·p/100`.
    fn below(limbs: &[u64; 4], hundredths_of_p: u64) -> bool {
        let value = BigInt(*limbs);
        // value·100 < hundredths·p, compared as 320-bit numbers (most significant limb first).
        let scaled = |x: &BigInt<4>, k: u64| -> [u64; 5] {
            let mut out = [0u64; 5];
            let mut carry = 0u64;
            for (o, l) in out.iter_mut().zip(x.0.iter()) {
                let (lo, hi) = l.carrying_mul(k, carry);
                *o = lo;
                carry = hi;
            }
            out[4] = carry;
            out
        };
        let (mut lhs, mut rhs) = (scaled(&value, 100), scaled(&BigInt(P), hundredths_of_p));
        lhs.reverse();
        rhs.reverse();
        lhs < rhs
    }

    #[test]
    fn compile_time_constants_are_ark_ffs() {
        assert_eq!(INV, <FrConfig as MontConfig<4>>::INV);
        let mut two_p = BigInt(P);
        two_p.mul2();
        assert_eq!(BigInt(TWO_P), two_p);
    }

    #[test]
    fn operations_agree_with_ark_ff_on_inputs_near_p_2p_and_3p() {
        let values = samples();
        let mut checked = 0;
        for (i, x) in values.iter().enumerate() {
            let y = values[(i * 7 + 3) % values.len()];
            for (sx, sy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                // Coarse inputs: every operation's result is coarse.
                let (a, b) = (wide(*x, sx), wide(y, sy));
                for (got, want) in [
                    (mul_64(&a, &b), *x * y),
                    (mul_29(&a, &b), *x * y),
                    (square(&a), x.square()),
                    (add(&a, &b), *x + y),
                    (double_coarse(&a), x.double()),
                ] {
                    assert!(below(&got, 200), "{got:x?} is not below 2p");
                    assert_eq!(to_fr(&got), want);
                    checked += 1;
                }
            }
            for (sx, sy) in [(2, 0), (2, 1), (1, 2), (2, 2)] {
                // S-box inputs below 3p: products below 2.71p.
                let (a, b) = (wide(*x, sx), wide(y, sy));
                for (got, want) in
                    [(mul_64(&a, &b), *x * y), (mul_29(&a, &b), *x * y), (square(&a), x.square())]
                {
                    assert!(below(&got, 271), "{got:x?} is not below 2.71p");
                    assert_eq!(element(got), want);
                    checked += 1;
                }
            }
            // The internal matrix's wider sum: below 4.35p in, below 2.35p out.
            let (a, b) = (wide(*x, 2), wide(y, 1));
            if below(&add_unreduced(&a, &b), 435) {
                let got = add(&a, &b);
                assert!(below(&got, 235), "{got:x?} is not below 2.35p");
                assert_eq!(element(got), *x + y);
                checked += 1;
            }
        }
        assert!(checked > values.len() * 32, "{checked} checks");
    }

    #[test]
    fn the_top_of_the_coarse_range_multiplies_correctly() {
        // 2p − 1, the largest coarse value: the running value's bound is tightest here.
        let top = minus(TWO_P, 1);
        let x = to_fr(&top);
        assert_eq!((x.0).0, minus(P, 1), "2p − 1 leaves as p − 1");
        // And 3p − 1, the widest S-box input.
        let widest = minus(wide(Fr::ZERO, 3), 1);
        assert_eq!(element(mul_64(&widest, &widest)), x * x);
        assert_eq!(element(mul_29(&widest, &widest)), x * x);
        assert_eq!(element(square(&widest)), x.square());
        assert_eq!(to_fr(&mul(&top, &top)), x * x);
        assert_eq!(to_fr(&square(&top)), x.square());
        assert_eq!(to_fr(&add(&top, &top)), x.double());
        let mut limbs = SplitMix64(7);
        for _ in 0..100 {
            let y = limbs.fr();
            assert_eq!(to_fr(&mul(&top, &wide(y, 1))), x * y);
        }
    }

    /// The assembly product and square against the portable ones, limb for limb: canonical, coarse and S-box
    /// inputs (up to 3p − 1), the edge values and random ones. Where the CPU lacks BMI2 or ADX the
    /// assembly never runs (the portable product serves), and neither does this comparison: it
    /// says so, and fails if the kernel lists both features (a detection that misses them would
    /// skip the check on a CPU that runs the assembly elsewhere).
    #[cfg(all(target_arch = "x86_64", feature = "asm"))]
    #[test]
    fn the_assembly_product_is_the_portable_product() {
        let Some(adx) = Adx::detect() else {
            #[cfg(feature = "std")]
            if crate::permutation::portable_forced() {
                std::eprintln!("SKIPPED: TXFX_ARITHMETIC=portable: the assembly product is switched off");
                return;
            }
            let listed = adx::kernel_lists_bmi2_and_adx();
            assert_ne!(listed, Some(true), "/proc/cpuinfo lists bmi2 and adx, the CPU check found neither");
            std::eprintln!(
                "SKIPPED: this CPU lacks BMI2 or ADX: the assembly product is never used, nor compared"
            );
            return;
        };
        let values = samples();
        let mut extremes = alloc::vec![minus(TWO_P, 1), minus(wide(Fr::ZERO, 3), 1), [0; 4], P];
        extremes.extend(values.iter().flat_map(|x| [wide(*x, 0), wide(*x, 1), wide(*x, 2)]));
        let mut checked = 0;
        for (i, a) in extremes.iter().enumerate() {
            for b in [&extremes[(i * 13 + 5) % extremes.len()], a, &extremes[0], &extremes[1]] {
                assert_eq!(adx.mul(a, b), mul_64(a, b), "{a:x?} · {b:x?}");
                checked += 1;
            }
            assert_eq!(adx::square(a), square_64(a), "{a:x?}²");
        }
        assert_eq!(checked, 4 * extremes.len());
        // Squares of random limbs below 3p, and of every value within 2^12 below p, 2p and 3p
        // (the carries of the doubling and of the reduction at their extremes).
        let three_p = wide(Fr::ZERO, 3);
        let mut limbs = SplitMix64(0x5351_5541_5245);
        for k in 1..=4096 {
            for top in [P, TWO_P, three_p] {
                let a = minus(top, k);
                assert_eq!(adx::square(&a), square_64(&a), "{a:x?}²");
            }
            let x = limbs.fr();
            let a = wide(x, k % 3);
            assert_eq!(adx::square(&a), square_64(&a), "{a:x?}²");
        }
        for a in [[0; 4], [1, 0, 0, 0], [u64::MAX, 0, 0, 0], [u64::MAX, u64::MAX, u64::MAX, 0]] {
            assert_eq!(adx::square(&a), square_64(&a), "{a:x?}²");
        }
    }

    #[test]
    fn plain_integers_enter_montgomery_form() {
        for x in [0u128, 1, 3 << 64, u128::from(u64::MAX) << 64, u128::MAX] {
            assert_eq!(to_fr(&from_u128(x)), Fr::from(x), "{x}");
        }
    }

    #[test]
    fn canonical_integers_convert_as_ark_ff_converts_them() {
        let mut rng = SplitMix64(0x5eed_f1e1d);
        let mut values: Vec<[u64; 4]> =
            vec![[0; 4], [1, 0, 0, 0], minus(P, 1), minus(P, 2), [u64::MAX, u64::MAX, 0, 0]];
        values.extend((0..2000).map(|_| {
            let x = [rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64() >> 3];
            if BigInt(x) < Fr::MODULUS { x } else { minus(x, 1u64 << 62) }
        }));
        for x in values {
            assert!(BigInt(x) < Fr::MODULUS);
            let ark = Fr::from_bigint(BigInt(x)).expect("below p");
            assert_eq!(fr_from_canonical(&x), ark, "{x:x?}");
            assert_eq!(canonical_of_fr(&ark), ark.into_bigint().0, "{x:x?}");
        }
    }

    #[test]
    fn leaving_the_coarse_range_is_canonical() {
        // p is the coarse form of 0, and 2p − 1 that of p − 1 (in Montgomery form).
        assert_eq!(to_fr(&P), Fr::ZERO);
        assert_eq!((to_fr(&minus(TWO_P, 1)).0).0, minus(P, 1));
        assert!(to_fr(&minus(TWO_P, 1)).into_bigint() < Fr::MODULUS);
    }
}
