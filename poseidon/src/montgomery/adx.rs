//! The Montgomery product and square on x86-64 with BMI2 and ADX: with the AVX-512 IFMA intrinsics of
//! `ifma.rs`, the only `unsafe` code in txfx's libraries, confined to this module.
//!
//! [`square`] computes exactly what the portable `square_64` computes (the same 512-bit square,
//! the same reduction factors): 10 `mulx` for the square and 16 for the reduction, against the
//! product's 32, with the doubling of the off-diagonal products on one carry chain and the
//! diagonal on the other.
//!
//! [`mul`] computes exactly what the portable `mul_64` computes (the same CIOS steps, the same
//! reduction factors, the same no-carry bounds), so its result is bit-identical, which the tests
//! check on random and extreme inputs. What the assembly buys is instruction count: `mulx` leaves
//! the flags alone, so each row's low words ride one carry chain (`adox`, the overflow flag) and
//! its high words another (`adcx`, the carry flag), with no moves between them. The portable
//! code, which the compiler cannot give two carry chains, takes many more instructions per
//! product (BENCHMARKS.md, design: adx-product).
//!
//! `mulx`, `adcx` and `adox` are illegal instructions on a CPU without BMI2 and ADX, so the
//! product is reached only through an [`Adx`] value, which only [`Adx::detect`] gives, after the
//! CPU check: the precondition is a type, and this module's private [`mul`] and [`square`] have no other callers (but the tests).

use super::{Coarse, INV, P, Product};

/// Proof that this CPU has BMI2 and ADX: the field is private to this module, so the only way to
/// hold one is [`Adx::detect`]. Zero-sized: passing it costs nothing.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Adx {
    _checked: (),
}

impl Adx {
    /// The token, if this CPU has BMI2 and ADX (checked once at run time, then cached; without
    /// `std`, only when the build targets both features) and `TXFX_ARITHMETIC` is not `portable`.
    #[inline(always)]
    pub(crate) fn detect() -> Option<Self> {
        available().then_some(Self { _checked: () })
    }

    /// The token if the CPU has the features, whatever `TXFX_ARITHMETIC` says: the tests compare
    /// the kernels wherever they can run.
    #[cfg(test)]
    pub(crate) fn detect_ignoring_environment() -> Option<Self> {
        (std::arch::is_x86_feature_detected!("bmi2") && std::arch::is_x86_feature_detected!("adx"))
            .then_some(Self { _checked: () })
    }
}

forward_product!(
    /// The assembly product and the assembly square (BENCHMARKS.md, design: adx-square).
    Adx
);

/// Whether `/proc/cpuinfo` lists both `bmi2` and `adx` (`None` where it cannot be read): the
/// tests' cross-check of [`Adx::detect`].
#[cfg(test)]
pub(super) fn kernel_lists_bmi2_and_adx() -> Option<bool> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let flags = info.lines().find(|line| line.starts_with("flags"))?;
    let has = |name: &str| flags.split_whitespace().any(|flag| flag == name);
    Some(has("bmi2") && has("adx"))
}

/// `p`'s limbs and then `INV`, read by the assembly from memory (`mulx` takes no immediate).
#[repr(C, align(64))]
struct Constants([u64; 5]);

static CONSTANTS: Constants = Constants([P[0], P[1], P[2], P[3], INV]);

/// Whether this CPU has BMI2 and ADX and the process did not ask for the portable product
/// (checked once, then cached).
#[inline(always)]
fn available() -> bool {
    cached_cpu_check!("bmi2", "adx")
}

/// `x0..x4 += rdx·[src]` (four words at `src`, `rdx` already loaded, both flags clear): the low
/// words on the `adox` chain, the high words on the `adcx` chain. The carry still pending on the
/// `adox` chain is for the caller to add into `x4`.
macro_rules! mul_add_row {
    ($src:literal, $x0:ident, $x1:ident, $x2:ident, $x3:ident, $x4:ident) => {
        concat!(
            "mulx {hi}, {lo}, qword ptr [{",
            $src,
            "}]\n",
            "adox {",
            stringify!($x0),
            "}, {lo}\n",
            "adcx {",
            stringify!($x1),
            "}, {hi}\n",
            "mulx {hi}, {lo}, qword ptr [{",
            $src,
            "} + 8]\n",
            "adox {",
            stringify!($x1),
            "}, {lo}\n",
            "adcx {",
            stringify!($x2),
            "}, {hi}\n",
            "mulx {hi}, {lo}, qword ptr [{",
            $src,
            "} + 16]\n",
            "adox {",
            stringify!($x2),
            "}, {lo}\n",
            "adcx {",
            stringify!($x3),
            "}, {hi}\n",
            "mulx {hi}, {lo}, qword ptr [{",
            $src,
            "} + 24]\n",
            "adox {",
            stringify!($x3),
            "}, {lo}\n",
            "adcx {",
            stringify!($x4),
            "}, {hi}\n",
        )
    };
}

/// One CIOS row after the first: `t += a·b[i]` into five words `x0..x4` (`x4` starts from the
/// zero this writes).
macro_rules! product_row {
    ($offset:literal, $x0:ident, $x1:ident, $x2:ident, $x3:ident, $x4:ident) => {
        concat!(
            "mov rdx, qword ptr [{b} + ",
            $offset,
            "]\n",
            // Zeroes x4 and clears CF and OF, starting both chains.
            "xor {",
            stringify!($x4),
            ":e}, {",
            stringify!($x4),
            ":e}\n",
            mul_add_row!("a", $x0, $x1, $x2, $x3, $x4),
            // `mov` leaves the flags alone: the pending OF lands in x4.
            "mov {lo:e}, 0\n",
            "adox {",
            stringify!($x4),
            "}, {lo}\n",
        )
    };
}

/// The reduction half of a row: `m = x0·INV`, `t += m·p`, which zeroes `x0` (the value moves up
/// one word: the next row reads `x1..x4` and reuses `x0` as its top word).
macro_rules! reduce_row {
    ($x0:ident, $x1:ident, $x2:ident, $x3:ident, $x4:ident) => {
        concat!(
            "mov rdx, {",
            stringify!($x0),
            "}\n",
            "imul rdx, qword ptr [{k} + 32]\n",
            // Clears CF and OF, starting both chains.
            "xor {lo:e}, {lo:e}\n",
            mul_add_row!("k", $x0, $x1, $x2, $x3, $x4),
            // x0 + low(m·p0) is 0 mod 2^64 by the choice of m, so x0 now holds zero: it serves as
            // the zero the pending OF is added with.
            "adox {",
            stringify!($x4),
            "}, {",
            stringify!($x0),
            "}\n",
        )
    };
}

/// Montgomery square `a²·R⁻¹`, bit-identical to the portable `square_64` (inputs up to `3p`,
/// result below `a²/R + p`): the 512-bit square from 10 `mulx` (the 6 off-diagonal products
/// once, doubled on the `adcx` chain while the diagonal rides the `adox` chain), then the
/// Montgomery reduction of its low half (four reduction rows, as in [`mul`]) plus its high half.
///
/// That sum is the portable `reduce`'s result: both add the same `m·p` (each round's `m` depends
/// only on the words below it, which the high half does not touch) and divide by `R` exactly.
/// Bounds: the low half's reduction is below `(R + m·p)/R < p + 1`, the high half below
/// `a²/R < 1.71p` for `a < 3p`: their sum stays below `2.71p < R`, no carry out.
// long-function: one inline-assembly block and its operand list; split in two, the halves would
// pass the partial products through memory instead of the registers the block keeps them in.
#[inline(always)]
pub(super) fn square(a: &Coarse) -> Coarse {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: as in `mul`: BMI2 and ADX are guaranteed by the `Adx` token (the only callers are
    // `Adx::square` and the tests after `Adx::detect`); the block reads 32 bytes at `a` and 40 at
    // `k`, writes no memory and no stack; `a`'s register is declared clobbered (it serves as a
    // word of the reduction once the limbs are read), every other written register is an output.
    #[allow(unsafe_code, reason = "the square's assembly block; see the SAFETY comment")]
    unsafe {
        core::arch::asm!(
            // Off-diagonal products a_i·a_j (i < j) at word i + j, in t1..t6.
            "mov rdx, qword ptr [{a}]",
            "mulx {t2}, {t1}, qword ptr [{a} + 8]",
            "mulx {t3}, {lo}, qword ptr [{a} + 16]",
            "add {t2}, {lo}",
            "mulx {t4}, {lo}, qword ptr [{a} + 24]",
            "adc {t3}, {lo}",
            "adc {t4}, 0",
            "mov rdx, qword ptr [{a} + 8]",
            "xor {t5:e}, {t5:e}",
            "mulx {hi}, {lo}, qword ptr [{a} + 16]",
            "adox {t3}, {lo}",
            "adcx {t4}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{a} + 24]",
            "adox {t4}, {lo}",
            "adcx {t5}, {hi}",
            "mov {lo:e}, 0",
            "adox {t5}, {lo}",
            "mov rdx, qword ptr [{a} + 16]",
            "mulx {t6}, {lo}, qword ptr [{a} + 24]",
            "add {t5}, {lo}",
            "adc {t6}, 0",
            // Doubled (adcx x, x) and plus the diagonal a_i² at word 2i (adox): a² < 2^512, the
            // top word takes both chains' last carries without overflowing.
            "xor {t7:e}, {t7:e}",
            "mov rdx, qword ptr [{a}]",
            "mulx {hi}, {t0}, rdx",
            "adcx {t1}, {t1}",
            "adox {t1}, {hi}",
            "mov rdx, qword ptr [{a} + 8]",
            "mulx {hi}, {lo}, rdx",
            "adcx {t2}, {t2}",
            "adox {t2}, {lo}",
            "adcx {t3}, {t3}",
            "adox {t3}, {hi}",
            "mov rdx, qword ptr [{a} + 16]",
            "mulx {hi}, {lo}, rdx",
            "adcx {t4}, {t4}",
            "adox {t4}, {lo}",
            "adcx {t5}, {t5}",
            "adox {t5}, {hi}",
            "mov rdx, qword ptr [{a} + 24]",
            "mulx {hi}, {lo}, rdx",
            "adcx {t6}, {t6}",
            "adox {t6}, {lo}",
            "adcx {t7}, {t7}",
            "adox {t7}, {hi}",
            // The low half t0..t3 reduced: four rows, the words rotating one place per row, the
            // zeroed word of each row the next row's top word (`a`'s register is the first's).
            "xor {a:e}, {a:e}",
            reduce_row!(t0, t1, t2, t3, a),
            reduce_row!(t1, t2, t3, a, t0),
            reduce_row!(t2, t3, a, t0, t1),
            reduce_row!(t3, a, t0, t1, t2),
            // Plus the high half: the result, low word first, in a, t0, t1, t2.
            "add {a}, {t4}",
            "adc {t0}, {t5}",
            "adc {t1}, {t6}",
            "adc {t2}, {t7}",
            a = inout(reg) a.as_ptr() => r0,
            k = in(reg) CONSTANTS.0.as_ptr(),
            t0 = out(reg) r1,
            t1 = out(reg) r2,
            t2 = out(reg) r3,
            t3 = out(reg) _,
            t4 = out(reg) _,
            t5 = out(reg) _,
            t6 = out(reg) _,
            t7 = out(reg) _,
            hi = out(reg) _,
            lo = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// Montgomery product `a·b·R⁻¹`, bit-identical to the portable `mul_64` (same bounds: inputs up
/// to `3p`, result below `a·b/R + p`). Private: reached only through [`Adx`]'s `Product` impl.
#[inline(always)]
fn mul(a: &Coarse, b: &Coarse) -> Coarse {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: the instructions need BMI2 (`mulx`) and ADX (`adcx`, `adox`); the only caller is
    // `Adx::mul`, and an `Adx` exists only after `available()` returned true. The block reads 32 bytes at `a` and at `b` (references to
    // `[u64; 4]`, so valid and aligned) and 40 at `k` (the static above), writes no memory, and
    // touches no stack (`nostack`); every register it writes is an output or a discarded output,
    // and the flags it changes are not preserved (the default without `preserves_flags`). The
    // no-carry bounds of the portable product hold for the same steps: the value in the five
    // words stays below 2^64·R, so no carry leaves the top word.
    #[allow(unsafe_code, reason = "the module's one assembly block; see the SAFETY comment")]
    unsafe {
        core::arch::asm!(
            // Row 0: t = a·b[0], one carry chain (nothing to add it to yet).
            "mov rdx, qword ptr [{b}]",
            "mulx {t1}, {t0}, qword ptr [{a}]",
            "mulx {t2}, {lo}, qword ptr [{a} + 8]",
            "add {t1}, {lo}",
            "mulx {t3}, {lo}, qword ptr [{a} + 16]",
            "adc {t2}, {lo}",
            "mulx {t4}, {lo}, qword ptr [{a} + 24]",
            "adc {t3}, {lo}",
            "adc {t4}, 0",
            reduce_row!(t0, t1, t2, t3, t4),
            // Rows 1 to 3, the five words rotating one place per row.
            product_row!("8", t1, t2, t3, t4, t0),
            reduce_row!(t1, t2, t3, t4, t0),
            product_row!("16", t2, t3, t4, t0, t1),
            reduce_row!(t2, t3, t4, t0, t1),
            product_row!("24", t3, t4, t0, t1, t2),
            reduce_row!(t3, t4, t0, t1, t2),
            a = in(reg) a.as_ptr(),
            b = in(reg) b.as_ptr(),
            k = in(reg) CONSTANTS.0.as_ptr(),
            // The result, low word first, is in t4, t0, t1, t2.
            t0 = out(reg) r1,
            t1 = out(reg) r2,
            t2 = out(reg) r3,
            t3 = out(reg) _,
            t4 = out(reg) r0,
            hi = out(reg) _,
            lo = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}
