//! The macros the products' tokens share ([`Portable`](super::Portable), `Adx`, `Ifma`): the
//! forwarding `Product` impl and the cached CPU check behind `detect`. Macros, not functions, so
//! that what they write stays `#[inline(always)]` in its own module (and each check keeps its
//! own cache).

/// `Product` for a token type whose own module has a `mul` and a `square` of the same
/// signatures ([`Portable`]: this module's; `Adx`: the assembly ones): each method forwards to
/// them, `#[inline(always)]`, so the product compiles inside its caller.
macro_rules! forward_product {
    ($(#[$attr:meta])* $token:ty) => {
        $(#[$attr])*
        impl Product for $token {
            #[inline(always)]
            fn mul(self, a: &Coarse, b: &Coarse) -> Coarse {
                mul(a, b)
            }
            #[inline(always)]
            fn square(self, a: &Coarse) -> Coarse {
                square(a)
            }
        }
    };
}

/// The body of an `available()`: whether this CPU has every feature named (checked once at run
/// time, then cached) and the process did not ask for the portable arithmetic; without `std`,
/// whether the build targets them all.
#[cfg(all(target_arch = "x86_64", feature = "asm"))]
macro_rules! cached_cpu_check {
    ($($feature:tt),+) => {{
        #[cfg(feature = "std")]
        {
            static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
            *AVAILABLE.get_or_init(|| {
                !crate::permutation::portable_forced() $(&& std::arch::is_x86_feature_detected!($feature))+
            })
        }
        #[cfg(not(feature = "std"))]
        {
            cfg!(all($(target_feature = $feature),+))
        }
    }};
}
