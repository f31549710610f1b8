//! Eight permutations at once on AVX-512 IFMA: the `__m512i` lanes of the batch kernel
//! (`permutation::x8`, which holds the algorithm, its bounds and its portable model).
//!
//! `vpmadd52luq`/`vpmadd52huq` and the other AVX-512 instructions here are illegal on a CPU
//! without AVX-512F and AVX-512 IFMA, so, as with the ADX product (`adx.rs`), the kernel is
//! reached only through an [`Ifma`] value, which only [`Ifma::detect`] gives, after the CPU check.
//!
//! The lane type [`V512`] is private to this module and its only use is [`kernel`], a
//! `#[target_feature(enable = "avx512f,avx512ifma")]` function that only [`Ifma::permute_x8`]
//! calls: so every intrinsic below runs only after a successful CPU check. The lane methods are
//! `#[inline(always)]` and inlined into `kernel`, where the intrinsics compile to single
//! instructions.
// The second module with `unsafe` (besides `adx.rs`): every block is an AVX-512 intrinsic whose
// precondition, the CPU features, is the token's; see each SAFETY comment.
#![allow(unsafe_code, reason = "AVX-512 IFMA intrinsics behind the run-time CPU check; see SAFETY comments")]

use core::arch::x86_64::{
    __m256i, __m512i, _mm256_add_epi64, _mm256_and_si256, _mm256_blend_epi32, _mm256_loadu_si256,
    _mm256_madd52hi_epu64, _mm256_madd52lo_epu64, _mm256_permute4x64_epi64, _mm256_set1_epi64x,
    _mm256_shuffle_epi32, _mm256_srai_epi64, _mm256_srli_epi64, _mm256_storeu_si256, _mm256_sub_epi64,
    _mm512_add_epi64, _mm512_and_si512, _mm512_loadu_si512, _mm512_madd52hi_epu64, _mm512_madd52lo_epu64,
    _mm512_set1_epi64, _mm512_srai_epi64, _mm512_srli_epi64, _mm512_storeu_si512, _mm512_sub_epi64,
};

use crate::permutation::State;
use crate::permutation::x8::mixed::Across;
use crate::permutation::x8::{Lanes, permute_n};

/// Proof that this CPU has AVX-512F and AVX-512 IFMA: the field is private to this module, so the
/// only way to hold one is [`Ifma::detect`]. Zero-sized.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ifma {
    _checked: (),
}

impl Ifma {
    /// The token, if this CPU has AVX-512F and AVX-512 IFMA (checked once at run time, then
    /// cached; without `std`, only when the build targets both features) and `TXFX_ARITHMETIC`
    /// is not `portable`.
    #[inline(always)]
    pub(crate) fn detect() -> Option<Self> {
        available().then_some(Self { _checked: () })
    }

    /// The token if the CPU has the features, whatever `TXFX_ARITHMETIC` says: the tests compare
    /// the kernel wherever it can run.
    #[cfg(test)]
    pub(crate) fn detect_ignoring_environment() -> Option<Self> {
        (std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512ifma")
            && std::arch::is_x86_feature_detected!("avx512vl"))
        .then_some(Self { _checked: () })
    }

    /// Permutes eight states, one per lane (`permutation::x8::permute_x8` on `__m512i`).
    #[inline]
    pub(crate) fn permute_x8(self, states: &mut [State; 8]) {
        // SAFETY: `kernel` needs AVX-512F and AVX-512 IFMA; `self` exists only after `available()`
        // (or the test-only detection) found both on this CPU.
        unsafe { kernel(states) }
    }

    /// Permutes coarse lanes: the full rounds on a ymm register, the partial rounds split between
    /// the ADX product and the ymm register (`permutation::x8::mixed`).
    #[inline]
    pub(crate) fn permute_lanes_mixed(
        self,
        adx: crate::montgomery::Adx,
        lanes: &mut crate::permutation::Lanes,
    ) {
        // SAFETY: as `permute_x4`; `adx` is the ADX product's own token.
        unsafe { kernel_mixed(adx, lanes) }
    }

    /// Permutes four states, one per lane of a ymm register (`permutation::x8::permute_n` on
    /// `__m256i`): the same instruction count as eight in a zmm register, at half the width.
    #[inline]
    pub(crate) fn permute_x4(self, states: &mut [State; 4]) {
        // SAFETY: `kernel4` needs AVX-512F, AVX-512VL and AVX-512 IFMA; `self` exists only after
        // `available()` (or the test-only detection) found all three on this CPU.
        unsafe { kernel4(states) }
    }
}

/// Whether `/proc/cpuinfo` lists `avx512ifma` (`None` where it cannot be read): the tests'
/// cross-check of [`Ifma::detect`].
#[cfg(test)]
fn kernel_lists_avx512ifma() -> Option<bool> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let flags = info.lines().find(|line| line.starts_with("flags"))?;
    Some(flags.split_whitespace().any(|flag| flag == "avx512ifma"))
}

/// The token for a test that compares an IFMA kernel, whatever `TXFX_ARITHMETIC` says; where the
/// CPU lacks the features, `None` after saying loudly that `what` was skipped, and a failure if
/// `/proc/cpuinfo` lists `avx512ifma` (a detection that missed it would skip the check on a CPU
/// that runs the kernel).
#[cfg(test)]
pub(crate) fn for_test_or_skip(what: &str) -> Option<Ifma> {
    let ifma = Ifma::detect_ignoring_environment();
    if ifma.is_none() {
        let listed = kernel_lists_avx512ifma();
        assert_ne!(listed, Some(true), "/proc/cpuinfo lists avx512ifma, the CPU check did not find it");
        std::eprintln!(
            "SKIPPED: this CPU lacks AVX-512F, AVX-512VL or AVX-512 IFMA (/proc/cpuinfo: {listed:?}): \
             {what} never runs here, nor is it compared"
        );
    }
    ifma
}

/// Whether this CPU has AVX-512F and AVX-512 IFMA and the process did not ask for the portable
/// arithmetic (checked once, then cached).
#[inline(always)]
fn available() -> bool {
    cached_cpu_check!("avx512f", "avx512ifma", "avx512vl")
}

/// The batch permutation compiled for AVX-512 IFMA: every `V512` method inlines here.
#[target_feature(enable = "avx512f,avx512ifma")]
fn kernel(states: &mut [State; 8]) {
    permute_n::<8, V512>(states);
}

/// The mixed scalar/vector permutation compiled for AVX-512VL IFMA.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn kernel_mixed(adx: crate::montgomery::Adx, lanes: &mut crate::permutation::Lanes) {
    crate::permutation::x8::mixed::permute_lanes_mixed::<_, V256>(adx, lanes);
}

/// The four-state permutation compiled for AVX-512VL IFMA: every `V256` method inlines here.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn kernel4(states: &mut [State; 4]) {
    permute_n::<4, V256>(states);
}

/// `Lanes<$n>` for a one-register newtype `$ty` of `$n` 64-bit lanes: each method one intrinsic
/// of that width, the same eleven operations for `V512` and `V256`. A macro, so that every method
/// stays `#[inline(always)]` and compiles inside the `#[target_feature]` kernel that uses it; the
/// `unsafe` blocks' safety argument is at each use.
macro_rules! lanes_impl {
    (
        $ty:ident, $n:literal:
        splat $splat:ident, load $load:ident, store $store:ident, add $add:ident, sub $sub:ident,
        and $and:ident, srai $srai:ident, srli $srli:ident, madd52lo $lo:ident, madd52hi $hi:ident
    ) => {
        impl Lanes<$n> for $ty {
            #[inline(always)]
            fn splat(x: u64) -> Self {
                Self(unsafe { $splat(x as i64) })
            }
            #[inline(always)]
            fn from_array(a: [u64; $n]) -> Self {
                Self(unsafe { $load(a.as_ptr().cast()) })
            }
            #[inline(always)]
            fn to_array(self) -> [u64; $n] {
                let mut out = [0u64; $n];
                unsafe { $store(out.as_mut_ptr().cast(), self.0) };
                out
            }
            #[inline(always)]
            fn add(self, b: Self) -> Self {
                Self(unsafe { $add(self.0, b.0) })
            }
            #[inline(always)]
            fn sub(self, b: Self) -> Self {
                Self(unsafe { $sub(self.0, b.0) })
            }
            #[inline(always)]
            fn and(self, b: Self) -> Self {
                Self(unsafe { $and(self.0, b.0) })
            }
            #[inline(always)]
            fn carry52(self) -> Self {
                Self(unsafe { $srai::<52>(self.0) })
            }
            #[inline(always)]
            fn shr6(self) -> Self {
                Self(unsafe { $srli::<6>(self.0) })
            }
            #[inline(always)]
            fn shr32(self) -> Self {
                Self(unsafe { $srli::<32>(self.0) })
            }
            #[inline(always)]
            fn madd52lo(self, b: Self, c: Self) -> Self {
                Self(unsafe { $lo(self.0, b.0, c.0) })
            }
            #[inline(always)]
            fn madd52hi(self, b: Self, c: Self) -> Self {
                Self(unsafe { $hi(self.0, b.0, c.0) })
            }
        }
    };
}

/// Eight 64-bit lanes in a zmm register. Private: only [`kernel`] instantiates code with it.
#[derive(Clone, Copy)]
struct V512(__m512i);

// SAFETY (every block of the impl this expands to): each intrinsic needs AVX-512F (and IFMA for the
// two madd52 ones). `V512` is private to this module and its only user is `kernel`, which runs only
// on a CPU with both features (see `Ifma::permute_x8`). The load and store touch exactly the 64
// bytes of a `[u64; 8]` they are given (unaligned accesses, as `loadu`/`storeu` allow).
lanes_impl!(V512, 8: splat _mm512_set1_epi64, load _mm512_loadu_si512, store _mm512_storeu_si512,
    add _mm512_add_epi64, sub _mm512_sub_epi64, and _mm512_and_si512, srai _mm512_srai_epi64,
    srli _mm512_srli_epi64, madd52lo _mm512_madd52lo_epu64, madd52hi _mm512_madd52hi_epu64);

/// Four 64-bit lanes in a ymm register. Private: only [`kernel4`] instantiates code with it.
#[derive(Clone, Copy)]
struct V256(__m256i);

// SAFETY (every block of the impl this expands to): each intrinsic needs AVX (the load, store and
// set), AVX2 (the add, sub, and, logical shift) or AVX-512VL with AVX-512F (the arithmetic shift)
// or AVX-512VL with IFMA (the two madd52 ones): every AVX-512 CPU has AVX2. `V256` is private to
// this module and its only user is `kernel4`, which runs only on a CPU with AVX-512F, AVX-512VL and
// IFMA (see `Ifma::permute_x4`). The load and store touch exactly the 32 bytes of a `[u64; 4]`.
lanes_impl!(V256, 4: splat _mm256_set1_epi64x, load _mm256_loadu_si256, store _mm256_storeu_si256,
    add _mm256_add_epi64, sub _mm256_sub_epi64, and _mm256_and_si256, srai _mm256_srai_epi64,
    srli _mm256_srli_epi64, madd52lo _mm256_madd52lo_epu64, madd52hi _mm256_madd52hi_epu64);

// SAFETY (every block): AVX2 shuffles and blends; every CPU that runs `kernel_mixed` has
// AVX-512F, so AVX2. Register-only.
impl Across for V256 {
    #[inline(always)]
    fn swap_pairs(self) -> Self {
        // 32-bit words [2, 3, 0, 1] within each 128-bit half: 64-bit lanes [1, 0, 3, 2].
        Self(unsafe { _mm256_shuffle_epi32::<0x4E>(self.0) })
    }
    #[inline(always)]
    fn swap_halves(self) -> Self {
        // 64-bit lanes [2, 3, 0, 1].
        Self(unsafe { _mm256_permute4x64_epi64::<0x4E>(self.0) })
    }
    #[inline(always)]
    fn with_lane0(self, first: Self) -> Self {
        // 32-bit words 0 and 1 (64-bit lane 0) from `first`.
        Self(unsafe { _mm256_blend_epi32::<0b0000_0011>(self.0, first.0) })
    }
    #[inline(always)]
    fn with_odd(self, odd: Self) -> Self {
        // 32-bit words 2, 3, 6 and 7 (64-bit lanes 1 and 3) from `odd`.
        Self(unsafe { _mm256_blend_epi32::<0b1100_1100>(self.0, odd.0) })
    }
}
