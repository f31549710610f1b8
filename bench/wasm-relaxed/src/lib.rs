//! A dev-only wasm32 prototype, not used by txfx (issue 30): the BN254 Montgomery product on
//! relaxed SIMD ([`product`]), two lanes per `f64x2`, exported beside loops of the WASM guest's own
//! 29-bit-limb product so that both are timed in one module, in the same run, by
//! `bench/wasm-relaxed/measure.mjs` (Node and Chromium; README.md beside this file). Its
//! correctness test runs on the host on the portable model (`f64::mul_add` for the relaxed
//! multiply-add), against ark-bn254.
//!
//! The relaxed functions carry `#[target_feature(enable = "simd128,relaxed-simd")]` themselves
//! rather than the whole module being built with those features: the 29-bit product is then
//! compiled as the shipped guest compiles it (no `simd128`, so no auto-vectorisation it does not
//! have there).

/// Lane-wise operations of two operands on a newtype of one `v128`, each one wasm instruction
/// compiled with `$features`: `name => intrinsic`, documented by the doc comments before the name.
#[cfg(target_arch = "wasm32")]
macro_rules! lanewise {
    ($features:literal: $($(#[$doc:meta])* $name:ident => $intrinsic:ident),* $(,)?) => {$(
        $(#[$doc])*
        #[target_feature(enable = $features)]
        #[inline]
        pub fn $name(self, b: Self) -> Self {
            Self($intrinsic(self.0, b.0))
        }
    )*};
}

/// The portable models' `lanewise!`: lane-wise operations of two operands on a newtype of
/// `[u64; 2]`, `name => op` with `op` a `Fn(u64, u64) -> u64`, documented by the doc comments
/// before the name.
#[cfg(not(target_arch = "wasm32"))]
macro_rules! lanewise_model {
    ($($(#[$doc:meta])* $name:ident => $op:expr),* $(,)?) => {$(
        $(#[$doc])*
        pub fn $name(self, b: Self) -> Self {
            let op = $op;
            Self([op(self.0[0], b.0[0]), op(self.0[1], b.0[1])])
        }
    )*};
}

pub mod product;
pub mod simd29;

/// SplitMix64: the next output, `state` advanced. The inputs of `values` and of the tests, here
/// and in `bench/src/fma_product.rs`.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// SplitMix64 from the seed: values below `p` (the top word below `p`'s), for the exported loops
/// and the host tests.
#[cfg(any(test, target_arch = "wasm32"))]
#[allow(clippy::indexing_slicing, reason = "constant indices into fixed-size words")]
fn values<const N: usize>(seed: u32) -> [[u64; 4]; N] {
    let mut state = u64::from(seed);
    let mut next = move || splitmix64(&mut state);
    core::array::from_fn(|_| {
        let mut w = [next(), next(), next(), next()];
        w[3] %= product::P[3];
        w
    })
}

/// The exported loops: `(seed, rounds) → checksum`, inputs made from the seed inside the module
/// (below `p`), the checksum an XOR of the results' words so that no loop can be optimised away.
#[cfg(target_arch = "wasm32")]
#[allow(unsafe_code, reason = "#[unsafe(no_mangle)] on the exported functions: the module's ABI")]
#[allow(clippy::indexing_slicing, reason = "constant indices into fixed-size arrays of inputs")]
mod exports {
    use crate::product::{Vals, mul, self_test};
    use crate::{simd29, values};

    fn fold(words: impl IntoIterator<Item = [u64; 4]>) -> u32 {
        let x = words.into_iter().flatten().fold(0u64, |acc, w| acc ^ w);
        (x ^ (x >> 32)) as u32
    }

    /// The body of each `*_mul_independent`, for a two-lane `Vals` type and its product: eight
    /// independent vectors times one, `rounds` times. A macro, not a generic function, so that it
    /// expands inside the export and compiles with that function's target features.
    macro_rules! mul_independent {
        ($vals:ty, $mul:path, $seed:expr, $rounds:expr) => {{
            let v: [[u64; 4]; 18] = values($seed);
            let mut xs: [$vals; 8] = core::array::from_fn(|k| <$vals>::from_words(&[v[2 * k], v[2 * k + 1]]));
            let y = <$vals>::from_words(&[v[16], v[17]]);
            for _ in 0..$rounds {
                for x in &mut xs {
                    *x = $mul(x, &y);
                }
            }
            fold(xs.iter().flat_map(|x| x.words()))
        }};
    }

    /// The body of each `*_mul_chain`, as [`mul_independent`]: one vector times another, `rounds`
    /// times, each product's output the next one's input.
    macro_rules! mul_chain {
        ($vals:ty, $mul:path, $seed:expr, $rounds:expr) => {{
            let v: [[u64; 4]; 4] = values($seed);
            let mut x = <$vals>::from_words(&[v[0], v[1]]);
            let y = <$vals>::from_words(&[v[2], v[3]]);
            for _ in 0..$rounds {
                x = $mul(&x, &y);
            }
            fold(x.words())
        }};
    }

    /// 1 if the relaxed product gives every known answer here (`relaxed_madd` fused), else 0.
    #[unsafe(no_mangle)]
    #[target_feature(enable = "simd128,relaxed-simd")]
    pub extern "C" fn relaxed_self_test() -> u32 {
        u32::from(self_test())
    }

    /// Eight independent two-lane vectors times one, `rounds` times: 16 products a round
    /// (throughput).
    #[unsafe(no_mangle)]
    #[target_feature(enable = "simd128,relaxed-simd")]
    pub extern "C" fn relaxed_mul_independent(seed: u32, rounds: u32) -> u32 {
        mul_independent!(Vals, mul, seed, rounds)
    }

    /// One two-lane vector times another, `rounds` times, each product's output the next one's
    /// input: 2 products a round (latency).
    #[unsafe(no_mangle)]
    #[target_feature(enable = "simd128,relaxed-simd")]
    pub extern "C" fn relaxed_mul_chain(seed: u32, rounds: u32) -> u32 {
        mul_chain!(Vals, mul, seed, rounds)
    }

    /// 1 if the two-lane simd128 29-bit product gives, lane by lane, the guest's own product's
    /// results (`bench_loops::mul_29_chain`, 40 chained products from 8 seeds), else 0.
    #[unsafe(no_mangle)]
    #[target_feature(enable = "simd128")]
    pub extern "C" fn simd29_self_test() -> u32 {
        let mut ok = true;
        for seed in 0..8 {
            let v: [[u64; 4]; 4] = values(seed);
            let mut x = simd29::Vals::from_words(&[v[0], v[1]]);
            let y = simd29::Vals::from_words(&[v[2], v[3]]);
            for _ in 0..40 {
                x = simd29::mul(&x, &y);
            }
            let got = x.words();
            let (mut a, mut b) = (v[0], v[1]);
            txfx_poseidon::bench_loops::mul_29_chain(&mut a, &v[2], 40);
            txfx_poseidon::bench_loops::mul_29_chain(&mut b, &v[3], 40);
            ok &= got == [a, b] && a != v[0];
        }
        u32::from(ok)
    }

    /// Eight independent two-lane simd128 vectors times one, `rounds` times: 16 products a round.
    #[unsafe(no_mangle)]
    #[target_feature(enable = "simd128")]
    pub extern "C" fn simd29_mul_independent(seed: u32, rounds: u32) -> u32 {
        mul_independent!(simd29::Vals, simd29::mul, seed, rounds)
    }

    /// One two-lane simd128 vector times another, `rounds` times, chained: 2 products a round.
    #[unsafe(no_mangle)]
    #[target_feature(enable = "simd128")]
    pub extern "C" fn simd29_mul_chain(seed: u32, rounds: u32) -> u32 {
        mul_chain!(simd29::Vals, simd29::mul, seed, rounds)
    }

    /// The guest's 29-bit product, eight independent chains: 8 products a round (throughput).
    #[unsafe(no_mangle)]
    pub extern "C" fn limbs29_mul_independent(seed: u32, rounds: u32) -> u32 {
        let v: [[u64; 4]; 9] = values(seed);
        let mut xs: [[u64; 4]; 8] = core::array::from_fn(|k| v[k]);
        txfx_poseidon::bench_loops::mul_29_independent(&mut xs, &v[8], rounds as usize);
        fold(xs)
    }

    /// The guest's 29-bit product, one dependent chain: 1 product a round (latency).
    #[unsafe(no_mangle)]
    pub extern "C" fn limbs29_mul_chain(seed: u32, rounds: u32) -> u32 {
        let v: [[u64; 4]; 2] = values(seed);
        let mut x = v[0];
        txfx_poseidon::bench_loops::mul_29_chain(&mut x, &v[1], rounds as usize);
        fold([x])
    }
}
