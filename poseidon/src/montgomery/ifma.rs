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
    __m512i, _mm512_add_epi64, _mm512_and_si512, _mm512_loadu_si512, _mm512_madd52hi_epu64,
    _mm512_madd52lo_epu64, _mm512_set1_epi64, _mm512_srai_epi64, _mm512_srli_epi64, _mm512_storeu_si512,
    _mm512_sub_epi64,
};

use crate::permutation::State;
use crate::permutation::x8::{Lanes8, permute_x8};

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
        (std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("avx512ifma"))
            .then_some(Self { _checked: () })
    }

    /// Permutes eight states, one per lane (`permutation::x8::permute_x8` on `__m512i`).
    #[inline]
    pub(crate) fn permute_x8(self, states: &mut [State; 8]) {
        // SAFETY: `kernel` needs AVX-512F and AVX-512 IFMA; `self` exists only after `available()`
        // (or the test-only detection) found both on this CPU.
        unsafe { kernel(states) }
    }
}

/// Whether `/proc/cpuinfo` lists `avx512ifma` (`None` where it cannot be read): the tests'
/// cross-check of [`Ifma::detect`].
#[cfg(test)]
pub(crate) fn kernel_lists_avx512ifma() -> Option<bool> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let flags = info.lines().find(|line| line.starts_with("flags"))?;
    Some(flags.split_whitespace().any(|flag| flag == "avx512ifma"))
}

/// Whether this CPU has AVX-512F and AVX-512 IFMA and the process did not ask for the portable
/// arithmetic (checked once, then cached).
#[inline(always)]
fn available() -> bool {
    #[cfg(feature = "std")]
    {
        static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *AVAILABLE.get_or_init(|| {
            !crate::permutation::portable_forced()
                && std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512ifma")
        })
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(all(target_feature = "avx512f", target_feature = "avx512ifma"))
    }
}

/// The batch permutation compiled for AVX-512 IFMA: every `V512` method inlines here.
#[target_feature(enable = "avx512f,avx512ifma")]
fn kernel(states: &mut [State; 8]) {
    permute_x8::<V512>(states);
}

/// Eight 64-bit lanes in a zmm register. Private: only [`kernel`] instantiates code with it.
#[derive(Clone, Copy)]
struct V512(__m512i);

// SAFETY (every block in this impl): each intrinsic needs AVX-512F (and IFMA for the two madd52
// ones). `V512` is private to this module and its only user is `kernel`, which runs only on a CPU
// with both features (see `Ifma::permute_x8`). The load and store touch exactly the 64 bytes of a
// `[u64; 8]` they are given (unaligned accesses, as `loadu`/`storeu` allow).
impl Lanes8 for V512 {
    #[inline(always)]
    fn splat(x: u64) -> Self {
        Self(unsafe { _mm512_set1_epi64(x as i64) })
    }
    #[inline(always)]
    fn from_array(a: [u64; 8]) -> Self {
        Self(unsafe { _mm512_loadu_si512(a.as_ptr().cast()) })
    }
    #[inline(always)]
    fn to_array(self) -> [u64; 8] {
        let mut out = [0u64; 8];
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), self.0) };
        out
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        Self(unsafe { _mm512_add_epi64(self.0, b.0) })
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        Self(unsafe { _mm512_sub_epi64(self.0, b.0) })
    }
    #[inline(always)]
    fn and(self, b: Self) -> Self {
        Self(unsafe { _mm512_and_si512(self.0, b.0) })
    }
    #[inline(always)]
    fn carry52(self) -> Self {
        Self(unsafe { _mm512_srai_epi64::<52>(self.0) })
    }
    #[inline(always)]
    fn shr6(self) -> Self {
        Self(unsafe { _mm512_srli_epi64::<6>(self.0) })
    }
    #[inline(always)]
    fn shr32(self) -> Self {
        Self(unsafe { _mm512_srli_epi64::<32>(self.0) })
    }
    #[inline(always)]
    fn madd52lo(self, b: Self, c: Self) -> Self {
        Self(unsafe { _mm512_madd52lo_epu64(self.0, b.0, c.0) })
    }
    #[inline(always)]
    fn madd52hi(self, b: Self, c: Self) -> Self {
        Self(unsafe { _mm512_madd52hi_epu64(self.0, b.0, c.0) })
    }
}
