//! Eight permutations at once, one state per 64-bit lane: the algorithm of the AVX-512 IFMA
//! kernel (`montgomery::ifma`), written once over a lane type [`Lanes8`] and run either on
//! [`X8`] (eight `u64`s, `u128` products standing in for `vpmadd52luq`/`vpmadd52huq`: the
//! portable model, tested on every CPU) or on the kernel's `__m512i` (only behind the CPU check).
//! Both run the same steps on the same limbs, so the model's bounds are the kernel's.
//!
//! # Representation
//!
//! A field element is five limbs of 52 bits (radix `2^52`), each limb one [`Lanes8`] holding that
//! limb of eight states, in Montgomery form with `R = 2^260` (`x` is held as `x·2^260 mod p`, or
//! any value congruent to it below the bound that step keeps). With `p < 2^254`, `R/p > 84`: the
//! lazy headroom is 84p, against 5p for the scalar coarse form (`R = 2^256`).
//!
//! Limbs are *normalized* (each below `2^52`, the value below `2^260`) where a product reads them
//! (`vpmadd52*` reads only the low 52 bits of its operands), and left unnormalized (non-negative
//! limbs up to `2^62`, or signed after [`reduce_sum`]) elsewhere: additions are one limb-wise add
//! each, with no carry and no reduction.
//!
//! # Bounds
//!
//! Values: a product of `a` and `b` is below `a·b/R + p`; additions add their bounds. The bound of
//! every step of the whole permutation is computed at compile time in [`BOUNDS`] (units of
//! `p/2^16`, rounded up), which asserts that every product input stays below `R` (so that its
//! normalized top limb is below `2^52`) and that the last product leaves a value below `2p`.
//! Nothing is reduced in the linear layers but the partial rounds' shared sum ([`reduce_sum`]),
//! without which the lanes would grow threefold per round.
//!
//! Limbs: see [`LIMB_PRODUCT`] and the `const` assertions beside it.

pub(crate) mod mixed;

use ark_bn254::FrConfig;
use ark_ff::MontConfig;

use crate::constants::{INTERNAL_DIAGONAL_MINUS_ONE, ROUND_CONSTANTS};
use crate::montgomery::{Coarse, from_fr, to_fr};
use crate::permutation::{FULL_ROUNDS, PARTIAL_ROUNDS, State, WIDTH};

/// `N` 64-bit lanes (eight in a zmm register, four in a ymm one) and the operations the kernel uses, each lane-wise. The `madd52` pair is
/// AVX-512 IFMA's: `a + lo52(b₅₂·c₅₂)` and `a + hi52(b₅₂·c₅₂)`, where `x₅₂` is the low 52 bits of
/// `x` and the 104-bit product splits into a low and a high 52-bit half; additions wrap.
pub(crate) trait Lanes<const N: usize>: Copy {
    /// All lanes `x`.
    fn splat(x: u64) -> Self;
    /// The lanes of `a`, lane `i` from `a[i]`.
    fn from_array(a: [u64; N]) -> Self;
    /// The lanes as an array.
    fn to_array(self) -> [u64; N];
    /// `self + b` (wrapping).
    fn add(self, b: Self) -> Self;
    /// `self - b` (wrapping).
    fn sub(self, b: Self) -> Self;
    /// `self & b`.
    fn and(self, b: Self) -> Self;
    /// `self >> 52`, arithmetic (sign-extending): the signed carry out of a 52-bit limb.
    fn carry52(self) -> Self;
    /// `self >> 6`, logical.
    fn shr6(self) -> Self;
    /// `self >> 32`, logical.
    fn shr32(self) -> Self;
    /// `self + lo52(b₅₂·c₅₂)`.
    fn madd52lo(self, b: Self, c: Self) -> Self;
    /// `self + hi52(b₅₂·c₅₂)`.
    fn madd52hi(self, b: Self, c: Self) -> Self;
}

/// The portable model of the kernel's lanes: eight `u64`s, `u128` products. Only the tests run
/// it: on a CPU without IFMA the scalar permutation, one state at a time, is faster.
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Xn<const N: usize>([u64; N]);

/// The model of the eight-lane kernel.
#[cfg(test)]
pub(crate) type X8 = Xn<8>;

#[cfg(test)]
impl<const N: usize> Xn<N> {
    #[inline(always)]
    fn zip(self, b: Self, f: impl Fn(u64, u64) -> u64) -> Self {
        let mut out = self.0;
        for (o, y) in out.iter_mut().zip(b.0) {
            *o = f(*o, y);
        }
        Self(out)
    }
    #[inline(always)]
    fn map(self, f: impl Fn(u64) -> u64) -> Self {
        Self(self.0.map(f))
    }
    #[inline(always)]
    fn product(b: u64, c: u64) -> u128 {
        u128::from(b & MASK) * u128::from(c & MASK)
    }
    #[inline(always)]
    fn madd(self, b: Self, c: Self, half: impl Fn(u128) -> u64) -> Self {
        let mut out = self.0;
        for ((o, b), c) in out.iter_mut().zip(b.0).zip(c.0) {
            *o = o.wrapping_add(half(Self::product(b, c)));
        }
        Self(out)
    }
}

#[cfg(test)]
impl<const N: usize> Lanes<N> for Xn<N> {
    #[inline(always)]
    fn splat(x: u64) -> Self {
        Self([x; N])
    }
    #[inline(always)]
    fn from_array(a: [u64; N]) -> Self {
        Self(a)
    }
    #[inline(always)]
    fn to_array(self) -> [u64; N] {
        self.0
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        self.zip(b, u64::wrapping_add)
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        self.zip(b, u64::wrapping_sub)
    }
    #[inline(always)]
    fn and(self, b: Self) -> Self {
        self.zip(b, |x, y| x & y)
    }
    #[inline(always)]
    fn carry52(self) -> Self {
        self.map(|x| ((x as i64) >> 52) as u64)
    }
    #[inline(always)]
    fn shr6(self) -> Self {
        self.map(|x| x >> 6)
    }
    #[inline(always)]
    fn shr32(self) -> Self {
        self.map(|x| x >> 32)
    }
    #[inline(always)]
    fn madd52lo(self, b: Self, c: Self) -> Self {
        self.madd(b, c, |w| (w as u64) & MASK)
    }
    #[inline(always)]
    fn madd52hi(self, b: Self, c: Self) -> Self {
        self.madd(b, c, |w| (w >> 52) as u64)
    }
}

/// Bits per limb.
const LIMB_BITS: u32 = 52;
/// The low 52 bits.
const MASK: u64 = (1 << LIMB_BITS) - 1;

/// The modulus, little-endian 64-bit limbs.
const P64: [u64; 4] = <FrConfig as MontConfig<4>>::MODULUS.0;
/// The modulus in 52-bit limbs.
const P: [u64; 5] = split(P64);
/// `-p⁻¹ mod 2^52`: `-p⁻¹ mod 2^64` (ark-ff's `INV`) truncated.
const INV: u64 = <FrConfig as MontConfig<4>>::INV & MASK;
const _: () = assert!(P[0].wrapping_mul(INV) & MASK == MASK, "INV must be -p^-1 mod 2^52");
// p < 2^254: R = 2^260 is above 84p (see BOUNDS).
const _: () = assert!(P64[3] < 1 << 62);

/// A value below `2^256` as five 52-bit limbs.
const fn split(a: [u64; 4]) -> [u64; 5] {
    [
        a[0] & MASK,
        ((a[0] >> 52) | (a[1] << 12)) & MASK,
        ((a[1] >> 40) | (a[2] << 24)) & MASK,
        ((a[2] >> 28) | (a[3] << 36)) & MASK,
        a[3] >> 16,
    ]
}

/// Five normalized 52-bit limbs of a value below `2^256` as four 64-bit limbs.
const fn join(l: [u64; 5]) -> [u64; 4] {
    [
        l[0] | (l[1] << 52),
        (l[1] >> 12) | (l[2] << 40),
        (l[2] >> 24) | (l[3] << 28),
        (l[3] >> 36) | (l[4] << 16),
    ]
}

/// `a + b` over four limbs and the carry out, at compile time.
#[allow(clippy::indexing_slicing, reason = "const loops over four limbs, every index below 4")]
const fn add_limbs(a: [u64; 4], b: [u64; 4]) -> ([u64; 4], bool) {
    let mut out = [0u64; 4];
    let mut carry = false;
    let mut i = 0;
    while i < 4 {
        let (s, c1) = a[i].overflowing_add(b[i]);
        let (s, c2) = s.overflowing_add(carry as u64);
        out[i] = s;
        carry = c1 | c2;
        i += 1;
    }
    (out, carry)
}

/// `a - p` if `a ≥ p`, else `a`, at compile time: `a + (2^256 − p)` carries out exactly when
/// `a ≥ p`.
const fn canonical(a: [u64; 4]) -> [u64; 4] {
    let minus_p = [P64[0].wrapping_neg(), !P64[1], !P64[2], !P64[3]];
    let (less, carry) = add_limbs(a, minus_p);
    if carry { less } else { a }
}

/// `a + b mod p` for canonical inputs (no carry out of `2p < 2^255`), canonical, at compile time.
const fn plus(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
    canonical(add_limbs(a, b).0)
}

/// `2^k·a mod p` for `a < p`, at compile time: k doublings modulo p.
const fn shl_mod_p(mut a: [u64; 4], k: u32) -> [u64; 4] {
    let mut step = 0;
    while step < k {
        a = plus(a, a);
        step += 1;
    }
    a
}

/// A canonical Montgomery (`2^256`) limb set as the kernel's form: `2^4·a mod p`, split.
const fn to_kernel_form(a: Coarse) -> [u64; 5] {
    split(shl_mod_p(a, 4))
}

/// `2^256 mod p` (ark-ff's Montgomery one).
const R256: [u64; 4] = <FrConfig as MontConfig<4>>::R.0;
/// `2^264 mod p`, plain: the product of an ark-ff Montgomery value (`x·2^256`) and this is the
/// kernel's form (`x·2^256·2^264/2^260 = x·2^260`).
const ENTRY: [u64; 5] = split(shl_mod_p(R256, 8));
/// `2^256 mod p`, plain: the product of a kernel value (`x·2^260`) and this is ark-ff's form.
const EXIT: [u64; 5] = split(R256);

/// The round constants in the kernel's form.
#[allow(
    clippy::indexing_slicing,
    reason = "const loops over fixed-size arrays, every index below the length; iterators are not const"
)]
const RC: [[[u64; 5]; WIDTH]; FULL_ROUNDS + PARTIAL_ROUNDS] = {
    let mut rows = [[[0u64; 5]; WIDTH]; FULL_ROUNDS + PARTIAL_ROUNDS];
    let mut r = 0;
    while r < rows.len() {
        let mut i = 0;
        while i < WIDTH {
            rows[r][i] = to_kernel_form(from_fr(&ROUND_CONSTANTS[r][i]));
            i += 1;
        }
        r += 1;
    }
    rows
};

/// The internal matrix's diagonal minus one in the kernel's form.
const DIAGONAL: [[u64; 5]; WIDTH] = [
    to_kernel_form(from_fr(&INTERNAL_DIAGONAL_MINUS_ONE[0])),
    to_kernel_form(from_fr(&INTERNAL_DIAGONAL_MINUS_ONE[1])),
    to_kernel_form(from_fr(&INTERNAL_DIAGONAL_MINUS_ONE[2])),
    to_kernel_form(from_fr(&INTERNAL_DIAGONAL_MINUS_ONE[3])),
];

/// `⌊2^106 / (p₃ + 1)⌋` (`p₃` the top 64-bit limb of p): with `p < (p₃+1)·2^192`,
/// `a·QUOTIENT/2^84 ≤ a·2^214/p`, the quotient estimate of [`reduce_sum`].
const QUOTIENT: u64 = ((1u128 << 106) / (P64[3] as u128 + 1)) as u64;
const _: () = assert!(QUOTIENT < 1 << 52, "a madd52 operand");

/// One field element of eight states: five limbs.
type Element<V> = [V; 5];
/// Eight states: four elements.
type Elements<V> = [Element<V>; WIDTH];

// ---------------------------------------------------------------------------------------------
// Limb bounds. A product's 10-limb column sum gets, at each position, at most 9 half-products
// (`lo` of the pairs i+j = k, `hi` of the pairs i+j+1 = k; the square's doubled off-diagonal and
// its diagonal: at most 10), each below 2^52; the reduction adds at most 2 per round (`lo` and
// `hi` of m·p) over 5 rounds, and a carry below 2^12. So every limb a product leaves is below
// LIMB_PRODUCT, non-negative.
// ---------------------------------------------------------------------------------------------

/// Upper bound on a limb a product or square leaves (unnormalized, non-negative).
const LIMB_PRODUCT: u64 = 21 << LIMB_BITS;
// 10 half-products from the columns, 10 from the reduction, and the carry.
const _: () = assert!(20 * MASK + (1 << 12) < LIMB_PRODUCT);
// The external matrix's largest row sum is 16, plus a round constant's limb: below 2^62, so every
// sum of limbs the kernel forms is below 2^63 and its arithmetic shift is its carry.
const LIMB_EXTERNAL: u64 = 16 * LIMB_PRODUCT + MASK;
const _: () = assert!(LIMB_EXTERNAL < 1 << 62);
// The partial rounds' sum: four normalized limbs, below 2^54; its top limb shifted right by 6 is
// a madd52 operand.
const _: () = assert!((4 * MASK) >> 6 < 1 << 52);
// A partial round's output limb: a product's limb plus the reduced sum's (signed, above −2^54
// and below 2^54): within ±2^62.
const _: () = assert!(LIMB_PRODUCT + (4 * MASK) < 1 << 62);

/// `a + b`, limb-wise, unnormalized.
#[inline(always)]
fn add<const N: usize, V: Lanes<N>>(a: &Element<V>, b: &Element<V>) -> Element<V> {
    let [a0, a1, a2, a3, a4] = *a;
    let [b0, b1, b2, b3, b4] = *b;
    [a0.add(b0), a1.add(b1), a2.add(b2), a3.add(b3), a4.add(b4)]
}

/// Carries each limb's bits above 52 into the next (signed: a limb may be negative), leaving
/// limbs 0–3 in `[0, 2^52)` and limb 4 the value's `⌊/2^208⌋`. For a value in `[0, 2^260)` and
/// limbs within `±2^62`, the result is normalized, the value unchanged.
#[inline(always)]
fn normalize<const N: usize, V: Lanes<N>>(t: &Element<V>) -> Element<V> {
    let mask = V::splat(MASK);
    let [t0, t1, t2, t3, t4] = *t;
    let t1 = t1.add(t0.carry52());
    let t2 = t2.add(t1.carry52());
    let t3 = t3.add(t2.carry52());
    let t4 = t4.add(t3.carry52());
    [t0.and(mask), t1.and(mask), t2.and(mask), t3.and(mask), t4]
}

/// Montgomery reduction of a 10-limb column sum `c` (limbs non-negative, below 2^63 − 2^57):
/// `c·2^-260 mod p`, below `c/R + p`, five unnormalized limbs below [`LIMB_PRODUCT`].
#[allow(clippy::indexing_slicing, reason = "fixed-size arrays, constant loop bounds: indices below 10")]
#[inline(always)]
fn reduce<const N: usize, V: Lanes<N>>(mut c: [V; 10]) -> Element<V> {
    let zero = V::splat(0);
    let inv = V::splat(INV);
    let p = splat(&P);
    for i in 0..5 {
        // m·p cancels the low 52 bits of column i (only c[i]'s low 52 bits enter m).
        let m = zero.madd52lo(c[i], inv);
        for j in 0..5 {
            c[i + j] = c[i + j].madd52lo(m, p[j]);
            c[i + j + 1] = c[i + j + 1].madd52hi(m, p[j]);
        }
        // c[i] is now a multiple of 2^52: its carry is exact.
        c[i + 1] = c[i + 1].add(c[i].carry52());
    }
    [c[5], c[6], c[7], c[8], c[9]]
}

/// Montgomery product `a·b·2^-260`, for normalized inputs: below `a·b/R + p`, unnormalized.
#[allow(clippy::indexing_slicing, reason = "fixed-size arrays, constant loop bounds: indices below 10")]
#[inline(always)]
fn mul<const N: usize, V: Lanes<N>>(a: &Element<V>, b: &Element<V>) -> Element<V> {
    let mut c = [V::splat(0); 10];
    for i in 0..5 {
        for j in 0..5 {
            c[i + j] = c[i + j].madd52lo(a[i], b[j]);
            c[i + j + 1] = c[i + j + 1].madd52hi(a[i], b[j]);
        }
    }
    reduce(c)
}

/// Montgomery square `a²·2^-260` for a normalized input: 15 limb products instead of 25 (the
/// 10 off-diagonal ones doubled by an addition), below `a²/R + p`, unnormalized.
#[allow(clippy::indexing_slicing, reason = "fixed-size arrays, constant loop bounds: indices below 10")]
#[inline(always)]
fn square<const N: usize, V: Lanes<N>>(a: &Element<V>) -> Element<V> {
    let mut c = [V::splat(0); 10];
    for i in 0..5 {
        for j in i + 1..5 {
            c[i + j] = c[i + j].madd52lo(a[i], a[j]);
            c[i + j + 1] = c[i + j + 1].madd52hi(a[i], a[j]);
        }
    }
    // Columns 1 to 8 hold the off-diagonal products (at most 4 halves each); double them.
    for column in c.iter_mut().take(9).skip(1) {
        *column = column.add(*column);
    }
    for i in 0..5 {
        c[2 * i] = c[2 * i].madd52lo(a[i], a[i]);
        c[2 * i + 1] = c[2 * i + 1].madd52hi(a[i], a[i]);
    }
    reduce(c)
}

/// The partial rounds' sum `s` (non-negative limbs below `2^54`, value `V < R`) less `q·p`, with
/// `q` estimated from the top limb: `q ≤ V/p` and `q > V/p − 1.001`, so the result is in
/// `[0, 1.001p)` (counted as `2p` in [`BOUNDS`]), its limbs signed (normalized later).
///
/// `q = ⌊⌊a·QUOTIENT/2^52⌋/2^32⌋` with `a = s₄ >> 6`: `a·2^214 ≤ V` and `a·QUOTIENT/2^84 ≤
/// a·2^214/p`, so `q ≤ V/p`; the parts left out (the low 6 bits of `s₄` and limbs 0–3, below
/// `2^215` in all, and the roundings) cost less than `1 + 2^-30` in `q`. Since `q·p ≤ V < 2^260`,
/// `q·p₄ < 2^52`: the high half of that limb product is zero and is not formed.
#[inline(always)]
fn reduce_sum<const N: usize, V: Lanes<N>>(s: &Element<V>) -> Element<V> {
    let zero = V::splat(0);
    let [s0, s1, s2, s3, s4] = *s;
    let q = zero.madd52hi(s4.shr6(), V::splat(QUOTIENT)).shr32();
    let [p0, p1, p2, p3, p4] = splat(&P);
    // q·p in limbs (q < 85: no limb product exceeds 2^59).
    let w0 = zero.madd52lo(q, p0);
    let w1 = zero.madd52lo(q, p1).madd52hi(q, p0);
    let w2 = zero.madd52lo(q, p2).madd52hi(q, p1);
    let w3 = zero.madd52lo(q, p3).madd52hi(q, p2);
    let w4 = zero.madd52lo(q, p4).madd52hi(q, p3);
    [s0.sub(w0), s1.sub(w1), s2.sub(w2), s3.sub(w3), s4.sub(w4)]
}

/// `x^5` for a normalized `x` in three products (`x²`, `x⁴`, `x·x⁴`), unnormalized: below
/// [`sbox_bound`] of `x`'s bound.
#[inline(always)]
fn sbox<const N: usize, V: Lanes<N>>(x: &Element<V>) -> Element<V> {
    let x2 = normalize(&square(x));
    let x4 = normalize(&square(&x2));
    mul(x, &x4)
}

/// `M_E·s` by barretenberg's addition chain (as the scalar `external_matrix`), on unnormalized
/// limbs: each output is a sum of the inputs with coefficients adding up to at most 16.
#[inline(always)]
fn external_matrix<const N: usize, V: Lanes<N>>(s: &mut Elements<V>) {
    let [x0, x1, x2, x3] = *s;
    let t0 = add(&x0, &x1);
    let t1 = add(&x2, &x3);
    let t2 = add(&add(&x1, &x1), &t1);
    let t3 = add(&add(&x3, &x3), &t0);
    let t1_2 = add(&t1, &t1);
    let t4 = add(&add(&t1_2, &t1_2), &t3);
    let t0_2 = add(&t0, &t0);
    let t5 = add(&add(&t0_2, &t0_2), &t2);
    let t6 = add(&t3, &t5);
    let t7 = add(&t2, &t4);
    *s = [t6, t5, t7, t4];
}

/// One full round on unnormalized lanes: constants, S-boxes, `M_E`; unnormalized lanes out.
#[inline(always)]
fn full_round<const N: usize, V: Lanes<N>>(s: &mut Elements<V>, constants: &[Element<V>; WIDTH]) {
    let [x0, x1, x2, x3] = *s;
    let [c0, c1, c2, c3] = constants;
    *s = [
        sbox(&normalize(&add(&x0, c0))),
        sbox(&normalize(&add(&x1, c1))),
        sbox(&normalize(&add(&x2, c2))),
        sbox(&normalize(&add(&x3, c3))),
    ];
    external_matrix(s);
}

/// One partial round on normalized lanes: the S-box on lane 0, `M_I·s = d∘s + Σs` with the sum
/// reduced once ([`reduce_sum`]); normalized lanes out. Lanes 1–3's products are independent of
/// the S-box and written between its products, as in the scalar round.
#[inline(always)]
fn partial_round<const N: usize, V: Lanes<N>>(
    s: &mut Elements<V>,
    constant: &Element<V>,
    diagonal: &Elements<V>,
) {
    let [x0, x1, x2, x3] = *s;
    let [d0, d1, d2, d3] = diagonal;
    let x = normalize(&add(&x0, constant));
    let x2_ = normalize(&square(&x));
    let p1 = mul(&x1, d1);
    let x4_ = normalize(&square(&x2_));
    let p2 = mul(&x2, d2);
    let s0 = normalize(&mul(&x, &x4_));
    let p3 = mul(&x3, d3);
    let p0 = mul(&s0, d0);
    let sum = reduce_sum(&add(&add(&s0, &x1), &add(&x2, &x3)));
    *s = [
        normalize(&add(&p0, &sum)),
        normalize(&add(&p1, &sum)),
        normalize(&add(&p2, &sum)),
        normalize(&add(&p3, &sum)),
    ];
}

// No closures (`array::map`, `from_fn`) below: they compile to functions of their own, outside
// the kernel's target features, where the lane operations would not inline.

/// Splats a constant element.
#[inline(always)]
fn splat<const N: usize, V: Lanes<N>>(l: &[u64; 5]) -> Element<V> {
    [V::splat(l[0]), V::splat(l[1]), V::splat(l[2]), V::splat(l[3]), V::splat(l[4])]
}

/// Splats four constant elements.
#[inline(always)]
fn splat4<const N: usize, V: Lanes<N>>(c: &[[u64; 5]; WIDTH]) -> Elements<V> {
    [splat(&c[0]), splat(&c[1]), splat(&c[2]), splat(&c[3])]
}

/// The permutation of `N` states (eight for the zmm kernel, four for the ymm one), each in its own lane: `Fr` in, canonical `Fr` out.
#[allow(
    clippy::indexing_slicing,
    reason = "fixed-size arrays, constant loop bounds: lane below 8, limb below 5"
)]
#[inline(always)]
pub(crate) fn permute_n<const N: usize, V: Lanes<N>>(states: &mut [State; N]) {
    // In: each element's Montgomery limbs (x·2^256, below p) in 52-bit limbs, times ENTRY.
    let entry = splat::<N, V>(&ENTRY);
    let mut s: Elements<V> = [splat(&[0; 5]); WIDTH];
    for (e, x) in s.iter_mut().enumerate() {
        let mut limbs = [[0u64; N]; 5];
        for (lane, state) in states.iter().enumerate() {
            let split = split((state[e].0).0);
            for j in 0..5 {
                limbs[j][lane] = split[j];
            }
        }
        let limbs = [
            V::from_array(limbs[0]),
            V::from_array(limbs[1]),
            V::from_array(limbs[2]),
            V::from_array(limbs[3]),
            V::from_array(limbs[4]),
        ];
        *x = mul(&limbs, &entry);
    }
    let diagonal = splat4::<N, V>(&DIAGONAL);
    let (first, rest) = RC.split_at(FULL_ROUNDS / 2);
    let (partial, last) = rest.split_at(PARTIAL_ROUNDS);
    external_matrix(&mut s);
    for row in first {
        full_round(&mut s, &splat4(row));
    }
    for x in s.iter_mut() {
        *x = normalize(x);
    }
    for row in partial {
        partial_round(&mut s, &splat(&row[0]), &diagonal);
    }
    for row in last {
        full_round(&mut s, &splat4(row));
    }
    // Out: times EXIT (below 2p, BOUNDS), normalized, joined, and one conditional subtraction.
    let exit = splat::<N, V>(&EXIT);
    for (e, x) in s.iter().enumerate() {
        let [l0, l1, l2, l3, l4] = normalize(&mul(&normalize(x), &exit));
        let limbs = [l0.to_array(), l1.to_array(), l2.to_array(), l3.to_array(), l4.to_array()];
        for (lane, state) in states.iter_mut().enumerate() {
            let coarse: Coarse =
                join([limbs[0][lane], limbs[1][lane], limbs[2][lane], limbs[3][lane], limbs[4][lane]]);
            state[e] = to_fr(&coarse);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Value bounds, computed at compile time for the whole permutation.
// ---------------------------------------------------------------------------------------------

/// One p, in the bounds' unit `p/2^16`.
const UNIT: u128 = 1 << 16;
/// `p·2^32/R`, rounded up: `p < (p₃+1)·2^192`, so `p·2^32/2^260 < (p₃+1)/2^36 ≤ ⌊p₃/2^36⌋ + 1`.
const P_OVER_R: u128 = (P64[3] >> 36) as u128 + 1;
/// The widest product input: `a·P_OVER_R < 2^48` gives `a·p/2^16 < R`, so a normalized input's
/// top limb is below `2^52`.
const INPUT_MAX: u128 = (1 << 48) / P_OVER_R - 1;

/// The bound of a Montgomery product of inputs below `a` and `b` (units `p/2^16`):
/// `a·b·(p/2^16)²/R + p`, rounded up.
const fn product(a: u128, b: u128) -> u128 {
    assert!(a <= INPUT_MAX && b <= INPUT_MAX, "a product input above R");
    (a * b * P_OVER_R).div_ceil(1 << 48) + UNIT
}

/// `x^5`'s bound for an input below `x`.
const fn sbox_bound(x: u128) -> u128 {
    let x2 = product(x, x);
    let x4 = product(x2, x2);
    product(x, x4)
}

/// The bounds the permutation keeps (units `p/2^16`), computed step by step; every `product`
/// asserts its inputs are below `R`.
#[derive(Debug)]
struct Bounds {
    /// The widest value anywhere (a product input, a sum).
    widest: u128,
    /// The lanes after the partial rounds.
    partial: u128,
    /// The value handed to the final conditional subtraction.
    out: u128,
}

/// Half of the full rounds on lanes below `x`: the lanes' bound after them, and the widest value
/// they form (or `widest`, if that is wider).
const fn full_rounds_bound(mut x: u128, mut widest: u128) -> (u128, u128) {
    let mut round = 0;
    while round < FULL_ROUNDS / 2 {
        let input = x + UNIT;
        if input > widest {
            widest = input;
        }
        x = 16 * sbox_bound(input);
        round += 1;
    }
    (x, widest)
}

const BOUNDS: Bounds = {
    // Entry: limbs below p times ENTRY (below p).
    let (mut x, mut widest) = full_rounds_bound(16 * product(UNIT, UNIT), 0);
    // Partial rounds: lanes below x.
    let mut round = 0;
    while round < PARTIAL_ROUNDS {
        let input = x + UNIT;
        let s0 = sbox_bound(input);
        let sum = s0 + 3 * x;
        assert!(sum <= INPUT_MAX, "the partial sum must stay below R for its quotient estimate");
        if sum > widest {
            widest = sum;
        }
        let widest_factor = if s0 > x { s0 } else { x };
        // Products by the canonical diagonal, plus the reduced sum (below 1.001p, counted as 2p).
        x = product(widest_factor, UNIT) + 2 * UNIT;
        round += 1;
    }
    let partial = x;
    (x, widest) = full_rounds_bound(x, widest);
    if x > widest {
        widest = x;
    }
    // Exit: times EXIT (below p), then one conditional subtraction of p: needs below 2p.
    let out = product(x, UNIT);
    assert!(out < 2 * UNIT, "the exit product must leave a value below 2p");
    assert!(widest <= INPUT_MAX);
    Bounds { widest, partial, out }
};
// Evaluated (and so asserted) at compile time, not only when the tests read it.
const _: () = assert!(BOUNDS.widest <= INPUT_MAX && BOUNDS.partial < 4 * UNIT && BOUNDS.out < 2 * UNIT);

#[cfg(test)]
mod tests;
