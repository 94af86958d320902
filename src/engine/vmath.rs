//! Transcendentals the compiler vectorises: `exp`, `ln` and `tanh` for `f32` and `f64`, each a
//! straight-line function (range reduction, a polynomial, selects for the special values; no
//! branch, no table, no libm call), so a loop over a slice becomes SIMD code. The kernels in
//! `raw` compile such loops once per instruction set (AVX-512, AVX2 with FMA, the baseline)
//! and pick one at run time.
//!
//! Accuracy, measured against the platform's libm (`tests/suite/vmath.rs`: a million inputs per
//! function, evenly spread in bits over the function's whole domain, plus ±0, denormals,
//! ±inf, NaN and the overflow edges), in units in the last place of the correctly rounded
//! result; the bounds below are what the tests assert:
//!
//! | function | f32: bound (worst seen) | f64: bound (worst seen) |
//! |---|---|---|
//! | `exp` | 2 ulp (1.14) | 2 ulp (1.00) |
//! | `ln` | 2 ulp (0.82) | 2 ulp (1.00) |
//! | `tanh` | 3 ulp (1.23) | 3 ulp (2.00) |
//!
//! The `f32` functions are measured against libm's `f64` result (the exact value to within
//! 2^-29 ulp), the `f64` ones against libm's `f64` result (itself within about half an ulp).
//! `exp` results in the denormal range are within one denormal step (2^-149 or 2^-1074) of
//! libm's. Special values follow IEEE 754 and libm: `exp(-inf) = 0`, `exp(inf) = inf`,
//! `ln(0) = -inf`, `ln(x < 0) = NaN`, `tanh(±inf) = ±1`, `tanh(-0) = -0`, NaN in, NaN out.
//!
//! ```
//! use shapecast::Transcendental;
//! assert!((Transcendental::exp_v(1.0f32) - core::f32::consts::E).abs() < 1e-6);
//! assert_eq!(Transcendental::ln_v(1.0f64), 0.0);
//! assert_eq!(Transcendental::tanh_v(f32::INFINITY), 1.0);
//! ```

use crate::alloc_prelude::*;

use num_traits::Float;

use crate::values::sealed::Sealed;

/// The float elements with vectorisable transcendentals (`f32`, `f64`), and the
/// half-precision ones (`bf16`, `f16`) that compute in `f32`: what the tensors' `exp`, `ln`,
/// `tanh`, `sigmoid`, `gelu` and softmax run on. Each function is branch-free, so a loop of
/// it vectorises; the accuracy table is on the module page of the source
/// (`src/engine/vmath.rs`): at most 2 ulp for `exp` and `ln`, 3 for `tanh`.
///
/// A half-precision element is widened to [`Wide`](Self::Wide) (`f32`), computed on there
/// and rounded once at the end, as PyTorch computes half math: softmax's sums, a norm's
/// statistics and GELU's polynomial are `f32` inside, never rounded to 8 or 11 bits midway.
///
/// ```
/// use shapecast::{bf16, Transcendental};
/// let xs = [0.5f64, 1.0, 2.0];
/// let ys: Vec<f64> = xs.iter().map(|&x| x.exp_v()).collect();
/// assert!((ys[2] - 2f64.exp()).abs() < 1e-15 * ys[2]);
/// // bf16: e computed in f32, rounded once to bf16's 8 bits.
/// assert_eq!(bf16::ONE.exp_v(), bf16::from_f32(core::f32::consts::E));
/// ```
pub trait Transcendental: Float + Send + Sync + Sealed + 'static {
    /// The type the math computes in: `Self` for `f32` and `f64`, `f32` for `bf16` and `f16`.
    type Wide: Transcendental<Wide = Self::Wide>;
    /// This element in [`Wide`](Self::Wide) (exact).
    fn widen(self) -> Self::Wide;
    /// A [`Wide`](Self::Wide) value rounded to this type (to nearest, ties to even).
    fn narrow(wide: Self::Wide) -> Self;
    /// `e^x`.
    fn exp_v(self) -> Self;
    /// The natural logarithm.
    fn ln_v(self) -> Self;
    /// The hyperbolic tangent.
    fn tanh_v(self) -> Self;
    /// The error function (libm's `erff`/`erf`, a call per element: not vectorised).
    fn erf_v(self) -> Self;
}

/// `f(x)` computed in `x`'s [`Wide`](Transcendental::Wide) type and rounded once: the
/// identity wrapping for `f32` and `f64`, which the compiler removes.
#[inline(always)]
pub(crate) fn in_wide<T: Transcendental>(
    f: impl Fn(T::Wide) -> T::Wide + Sync,
) -> impl Fn(T) -> T + Sync {
    move |x| T::narrow(f(x.widen()))
}

/// Whether `T` computes in a wider type than itself (`bf16`, `f16`): the row-wise operations
/// (softmax, logsumexp, norms) then widen their input once and round their output once.
#[inline(always)]
pub(crate) fn computes_wider<T: Transcendental>() -> bool {
    core::any::TypeId::of::<T>() != core::any::TypeId::of::<T::Wide>()
}

/// `x`'s elements in their [`Wide`](Transcendental::Wide) type (exact): the one copy a
/// half-precision input makes before a row-wise operation runs in `f32`.
pub(crate) fn widen_all<T: Transcendental>(x: &[T]) -> Vec<T::Wide> {
    x.iter().map(|&x| x.widen()).collect()
}

/// Wide values rounded to `T`, each once.
pub(crate) fn narrowed<T: Transcendental>(wide: Vec<T::Wide>) -> Vec<T> {
    wide.into_iter().map(T::narrow).collect()
}

macro_rules! own_width {
    ($($t:ty: $exp:path, $ln:path, $tanh:path, $erf:path);*) => {$(
        impl Transcendental for $t {
            type Wide = $t;
            #[inline(always)]
            fn widen(self) -> $t {
                self
            }
            #[inline(always)]
            fn narrow(wide: $t) -> $t {
                wide
            }
            #[inline(always)]
            fn exp_v(self) -> $t {
                $exp(self)
            }
            #[inline(always)]
            fn ln_v(self) -> $t {
                $ln(self)
            }
            #[inline(always)]
            fn tanh_v(self) -> $t {
                $tanh(self)
            }
            #[inline]
            fn erf_v(self) -> $t {
                $erf(self)
            }
        }
    )*};
}
own_width!(
    f32: exp_f32, ln_f32, tanh_f32, libm::erff;
    f64: exp_f64, ln_f64, tanh_f64, libm::erf
);

macro_rules! half_width {
    ($($t:ty),*) => {$(
        impl Transcendental for $t {
            type Wide = f32;
            #[inline(always)]
            fn widen(self) -> f32 {
                self.to_f32()
            }
            #[inline(always)]
            fn narrow(wide: f32) -> $t {
                <$t>::from_f32(wide)
            }
            #[inline(always)]
            fn exp_v(self) -> $t {
                Self::narrow(exp_f32(self.widen()))
            }
            #[inline(always)]
            fn ln_v(self) -> $t {
                Self::narrow(ln_f32(self.widen()))
            }
            #[inline(always)]
            fn tanh_v(self) -> $t {
                Self::narrow(tanh_f32(self.widen()))
            }
            #[inline]
            fn erf_v(self) -> $t {
                Self::narrow(libm::erff(self.widen()))
            }
        }
    )*};
}
half_width!(half::bf16, half::f16);

/// `if c { a } else { b }` on floats, written so that it stays a select.
#[inline(always)]
fn pick<T: Copy>(c: bool, a: T, b: T) -> T {
    if c {
        a
    } else {
        b
    }
}

/// Rounds to the nearest integer (ties to even) by adding and subtracting 1.5 · 2^23, valid
/// for |x| < 2^22; also returns the integer, read from the sum's low bits.
#[inline(always)]
fn round_f32(x: f32) -> (f32, i32) {
    const MAGIC: f32 = 12_582_912.0;
    let t = x + MAGIC;
    (
        t - MAGIC,
        (t.to_bits() as i32).wrapping_sub(MAGIC.to_bits() as i32),
    )
}

/// 2^n for an integer `n` in [-126, 127], from its exponent bits.
#[inline(always)]
fn pow2_f32(n: i32) -> f32 {
    f32::from_bits(((n + 127) as u32) << 23)
}

/// `e^x` for `f32`: `x = n·ln 2 + r` with |r| ≤ ln 2 / 2 (Cody–Waite, two constants), `e^r` by
/// its Taylor polynomial of degree 7 (truncation below 2^-27), then `· 2^n` in two halves so
/// that results down to the denormals come out right.
#[inline(always)]
pub(crate) fn exp_f32(x: f32) -> f32 {
    const LOG2E: f32 = core::f32::consts::LOG2_E;
    const LN2_HI: f32 = 0.693_359_4; // 355/512: n · LN2_HI is exact
    const LN2_LO: f32 = -2.121_944_4e-4;
    // Beyond these e^x is inf or 0 in f32; clamping keeps n small (NaN stays NaN). Below
    // -104 the result is 0, and the lane computes e^0 instead: scaling by 2^-150 would
    // underflow, which Intel CPUs handle in microcode at about 7x the cost of the whole
    // function (softmax's masked `-1e9` entries hit it on every element).
    let gone = x < -104.0;
    let xc = pick(gone, 0.0, x.clamp(-104.0, 89.0));
    let (nf, _) = round_f32(xc * LOG2E);
    let r = (xc - nf * LN2_HI) - nf * LN2_LO;
    let p = 1.0
        + r * (1.0
            + r * (1.0 / 2.0
                + r * (1.0 / 6.0
                    + r * (1.0 / 24.0
                        + r * (1.0 / 120.0 + r * (1.0 / 720.0 + r * (1.0 / 5040.0)))))));
    // n = n1 + n2, each within the normal exponents (n is in [-150, 129]).
    let (h, n1) = round_f32(nf * 0.5);
    let (_, n2) = round_f32(nf - h);
    pick(gone, 0.0, p * pow2_f32(n1) * pow2_f32(n2))
}

/// `ln x` for `f32`: `x = 2^e · m` with m in [√½, √2), `ln m = 2 atanh(s)` for
/// `s = (m - 1) / (m + 1)` (|s| ≤ 0.172) by its series to `s^9`, arranged as fdlibm's `log`
/// so that the division's rounding stays off the leading term, then `e · ln 2` added in two
/// parts.
#[inline(always)]
pub(crate) fn ln_f32(x: f32) -> f32 {
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    // Denormals are scaled into the normal range first.
    let tiny = x < f32::MIN_POSITIVE;
    let xs = pick(tiny, x * 8_388_608.0, x); // 2^23
    let bits = xs.to_bits();
    let mut e = ((bits >> 23) & 0xff) as i32 - 127 - pick(tiny, 23, 0);
    let mut m = f32::from_bits((bits & 0x007f_ffff) | 0x3f80_0000);
    let big = m > core::f32::consts::SQRT_2;
    m = pick(big, m * 0.5, m);
    e += big as i32;
    let f = m - 1.0;
    let s = f / (m + 1.0);
    let z = s * s;
    let q = 2.0 / 3.0 + z * (2.0 / 5.0 + z * (2.0 / 7.0 + z * (2.0 / 9.0)));
    // ln m = f - f²/2 + s(f²/2 + z q): see `ln_f64`.
    let hf = 0.5 * f * f;
    let ef = e as f32;
    let r = ef * LN2_HI - ((hf - (s * (hf + z * q) + ef * LN2_LO)) - f);
    // ln 0 = -inf, ln of a negative or NaN is NaN, ln inf = inf.
    let r = pick(x == f32::INFINITY, f32::INFINITY, r);
    let r = pick(x == 0.0, f32::NEG_INFINITY, r);
    pick(x < 0.0 || x.is_nan(), f32::NAN, r)
}

/// `tanh x` for `f32`: an odd minimax polynomial below |x| = 0.625 (Cephes' `tanhf`
/// coefficients), `1 - 2 / (e^{2|x|} + 1)` with the sign of `x` above.
#[inline(always)]
#[allow(clippy::excessive_precision)] // Cephes' coefficients as published
pub(crate) fn tanh_f32(x: f32) -> f32 {
    let a = x.abs();
    let z = x * x;
    let small =
        ((((-5.704_988_7e-3 * z + 2.063_908_9e-2) * z - 5.373_971_6e-2) * z + 1.333_144_2e-1) * z
            - 3.333_328_2e-1)
            * z
            * x
            + x;
    let large = 1.0 - 2.0 / (exp_f32(2.0 * a) + 1.0);
    // The sign of `x` on both (so that tanh(-0) = -0).
    pick(a < 0.625, small, large).copysign(x)
}

/// [`round_f32`] for `f64`: 1.5 · 2^52, valid for |x| < 2^51.
#[inline(always)]
fn round_f64(x: f64) -> (f64, i64) {
    const MAGIC: f64 = 6_755_399_441_055_744.0;
    let t = x + MAGIC;
    (
        t - MAGIC,
        (t.to_bits() as i64).wrapping_sub(MAGIC.to_bits() as i64),
    )
}

/// 2^n for an integer `n` in [-1022, 1023].
#[inline(always)]
fn pow2_f64(n: i64) -> f64 {
    f64::from_bits(((n + 1023) as u64) << 52)
}

/// `e^x` for `f64`: as [`exp_f32`], the Taylor polynomial of degree 13 (truncation below
/// 2^-58).
#[inline(always)]
pub(crate) fn exp_f64(x: f64) -> f64 {
    const LOG2E: f64 = core::f64::consts::LOG2_E;
    const LN2_HI: f64 = 6.931_457_519_531_25e-1;
    const LN2_LO: f64 = 1.428_606_820_309_417_2e-6;
    // As `exp_f32`: below -746 the result is 0 without an underflowing product.
    let gone = x < -746.0;
    let xc = pick(gone, 0.0, x.clamp(-746.0, 710.0));
    let (nf, _) = round_f64(xc * LOG2E);
    let r = (xc - nf * LN2_HI) - nf * LN2_LO;
    // 1/k! for k = 13 down to 2, by Horner.
    const C: [f64; 12] = [
        1.0 / 6_227_020_800.0,
        1.0 / 479_001_600.0,
        1.0 / 39_916_800.0,
        1.0 / 3_628_800.0,
        1.0 / 362_880.0,
        1.0 / 40_320.0,
        1.0 / 5_040.0,
        1.0 / 720.0,
        1.0 / 120.0,
        1.0 / 24.0,
        1.0 / 6.0,
        1.0 / 2.0,
    ];
    let mut q = C[0];
    let mut i = 1;
    while i < C.len() {
        q = q * r + C[i];
        i += 1;
    }
    let p = 1.0 + r * (1.0 + r * q);
    let (h, n1) = round_f64(nf * 0.5);
    let (_, n2) = round_f64(nf - h);
    pick(gone, 0.0, p * pow2_f64(n1) * pow2_f64(n2))
}

/// `ln x` for `f64`: as [`ln_f32`], the series to `s^19`.
#[inline(always)]
pub(crate) fn ln_f64(x: f64) -> f64 {
    const LN2_HI: f64 = 6.931_457_519_531_25e-1;
    const LN2_LO: f64 = 1.428_606_820_309_417_2e-6;
    let tiny = x < f64::MIN_POSITIVE;
    let xs = pick(tiny, x * 4_503_599_627_370_496.0, x); // 2^52
    let bits = xs.to_bits();
    let mut e = ((bits >> 52) & 0x7ff) as i64 - 1023 - pick(tiny, 52, 0);
    let mut m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    let big = m > core::f64::consts::SQRT_2;
    m = pick(big, m * 0.5, m);
    e += big as i64;
    let f = m - 1.0;
    let s = f / (m + 1.0);
    let z = s * s;
    // 2/(2k+1) for k = 9 down to 1.
    const C: [f64; 9] = [
        2.0 / 19.0,
        2.0 / 17.0,
        2.0 / 15.0,
        2.0 / 13.0,
        2.0 / 11.0,
        2.0 / 9.0,
        2.0 / 7.0,
        2.0 / 5.0,
        2.0 / 3.0,
    ];
    let mut q = C[0];
    let mut i = 1;
    while i < C.len() {
        q = q * z + C[i];
        i += 1;
    }
    // ln m = f - f²/2 + s(f²/2 + z q): the f - f²/2 part keeps the rounding error of the
    // division away from the leading term (the split of fdlibm's `log`).
    let hf = 0.5 * f * f;
    let ef = e as f64;
    let r = ef * LN2_HI - ((hf - (s * (hf + z * q) + ef * LN2_LO)) - f);
    let r = pick(x == f64::INFINITY, f64::INFINITY, r);
    let r = pick(x == 0.0, f64::NEG_INFINITY, r);
    pick(x < 0.0 || x.is_nan(), f64::NAN, r)
}

/// `tanh x` for `f64`: Cephes' rational approximation below |x| = 0.625,
/// `1 - 2 / (e^{2|x|} + 1)` with the sign of `x` above.
#[inline(always)]
pub(crate) fn tanh_f64(x: f64) -> f64 {
    let a = x.abs();
    let z = x * x;
    let p =
        (-9.643_991_794_250_523e-1 * z - 9.928_772_310_019_186e1) * z - 1.614_687_684_417_084_5e3;
    let q = ((z + 1.128_116_784_916_329_3e2) * z + 2.235_488_390_601_004_6e3) * z
        + 4.844_063_053_251_255e3;
    let small = x + x * (z * p / q);
    let large = 1.0 - 2.0 / (exp_f64(2.0 * a) + 1.0);
    pick(a < 0.625, small, large).copysign(x)
}
