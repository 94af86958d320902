//! The vectorisable transcendentals (`shapecast::Transcendental`) against the platform's libm,
//! on a million inputs per function spread evenly in bits over the function's domain, and on
//! the special values: ±0, denormals, ±inf, NaN and the overflow edges. The bounds asserted
//! here are the ones the documentation states.

use shapecast::Transcendental;

const N: u64 = 1_000_000;

/// The distance from `got` to `want` in units in the last place of `want` (as an `f64`
/// spacing for `f64`, measured on the f32 grid for `f32`).
fn ulps64(got: f64, want: f64) -> f64 {
    if got == want || (got.is_nan() && want.is_nan()) {
        return 0.0;
    }
    if !got.is_finite() || !want.is_finite() {
        return f64::INFINITY;
    }
    let a = want.abs().max(f64::MIN_POSITIVE);
    let ulp = f64::from_bits(a.to_bits() + 1) - a;
    (got - want).abs() / ulp
}

fn ulps32(got: f32, want: f64) -> f64 {
    if (got as f64) == want || (got.is_nan() && want.is_nan()) {
        return 0.0;
    }
    let w = want as f32;
    if !got.is_finite() || !w.is_finite() {
        return if got == w { 0.0 } else { f64::INFINITY };
    }
    let a = w.abs().max(f32::MIN_POSITIVE);
    let ulp = (f32::from_bits(a.to_bits() + 1) - a) as f64;
    (got as f64 - want).abs() / ulp
}

/// `N` f32 values evenly spaced in bits over [lo, hi] (both of the same sign or straddling 0).
fn spread32(lo: f32, hi: f32) -> impl Iterator<Item = f32> {
    // Map to a monotone integer line: negative floats below positive ones.
    let key = |x: f32| {
        let b = x.to_bits() as i64;
        if b & 0x8000_0000 != 0 {
            -(b & 0x7fff_ffff)
        } else {
            b
        }
    };
    let unkey = |k: i64| {
        if k < 0 {
            f32::from_bits((-k) as u32 | 0x8000_0000)
        } else {
            f32::from_bits(k as u32)
        }
    };
    let (a, b) = (key(lo), key(hi));
    (0..N).map(move |i| unkey(a + ((b - a) as i128 * i as i128 / (N - 1) as i128) as i64))
}

fn spread64(lo: f64, hi: f64) -> impl Iterator<Item = f64> {
    let key = |x: f64| {
        let b = x.to_bits() as i128;
        if b & (1 << 63) != 0 {
            -(b & 0x7fff_ffff_ffff_ffff)
        } else {
            b
        }
    };
    let unkey = |k: i128| {
        if k < 0 {
            f64::from_bits((-k) as u64 | (1 << 63))
        } else {
            f64::from_bits(k as u64)
        }
    };
    let (a, b) = (key(lo), key(hi));
    (0..N).map(move |i| unkey(a + (b - a) * i as i128 / (N - 1) as i128))
}

/// The worst error of `f32` function `got` against the f64 reference `want` over `xs`;
/// results below `tiny` in magnitude are held to an absolute error of one `f32` denormal step.
fn worst32(xs: impl Iterator<Item = f32>, got: fn(f32) -> f32, want: fn(f64) -> f64) -> (f64, f32) {
    let mut worst = (0.0, 0.0);
    for x in xs {
        let (g, w) = (got(x), want(x as f64));
        let e = if w.abs() < f32::MIN_POSITIVE as f64 {
            if (g as f64 - w).abs() <= f32::from_bits(1) as f64 {
                0.0
            } else {
                f64::INFINITY
            }
        } else {
            ulps32(g, w)
        };
        if e > worst.0 {
            worst = (e, x);
        }
    }
    worst
}

fn worst64(xs: impl Iterator<Item = f64>, got: fn(f64) -> f64, want: fn(f64) -> f64) -> (f64, f64) {
    let mut worst = (0.0, 0.0);
    for x in xs {
        let (g, w) = (got(x), want(x));
        let e = if w.abs() < f64::MIN_POSITIVE {
            if (g - w).abs() <= 2.0 * f64::from_bits(1) {
                0.0
            } else {
                f64::INFINITY
            }
        } else {
            ulps64(g, w)
        };
        if e > worst.0 {
            worst = (e, x);
        }
    }
    worst
}

#[test]
fn exp_f32_within_2_ulp() {
    let (e, x) = worst32(spread32(-104.0, 89.0), f32::exp_v, f64::exp);
    eprintln!("worst: {e:.2} ulp at {x:e}");
    assert!(e <= 2.0, "exp_v(f32) is {e} ulp off at {x:e}");
}

#[test]
fn exp_f64_within_2_ulp() {
    let (e, x) = worst64(spread64(-746.0, 710.0), f64::exp_v, f64::exp);
    eprintln!("worst: {e:.2} ulp at {x:e}");
    assert!(e <= 2.0, "exp_v(f64) is {e} ulp off at {x:e}");
}

#[test]
fn ln_f32_within_2_ulp() {
    let (e, x) = worst32(spread32(0.0, f32::MAX), f32::ln_v, f64::ln);
    eprintln!("worst: {e:.2} ulp at {x:e}");
    assert!(e <= 2.0, "ln_v(f32) is {e} ulp off at {x:e}");
    // Near 1, where the result is small.
    let (e, x) = worst32(spread32(0.5, 2.0), f32::ln_v, f64::ln);
    eprintln!("worst: {e:.2} ulp at {x:e}");
    assert!(e <= 2.0, "ln_v(f32) is {e} ulp off at {x:e}");
}

#[test]
fn ln_f64_within_2_ulp() {
    let (e, x) = worst64(spread64(0.0, f64::MAX), f64::ln_v, f64::ln);
    eprintln!("worst: {e:.2} ulp at {x:e}");
    assert!(e <= 2.0, "ln_v(f64) is {e} ulp off at {x:e}");
    let (e, x) = worst64(spread64(0.5, 2.0), f64::ln_v, f64::ln);
    eprintln!("worst: {e:.2} ulp at {x:e}");
    assert!(e <= 2.0, "ln_v(f64) is {e} ulp off at {x:e}");
}

#[test]
fn tanh_f32_within_3_ulp() {
    let (e, x) = worst32(spread32(-20.0, 20.0), f32::tanh_v, f64::tanh);
    eprintln!("worst: {e:.2} ulp at {x:e}");
    assert!(e <= 3.0, "tanh_v(f32) is {e} ulp off at {x:e}");
    let (e, x) = worst32(spread32(-f32::MAX, f32::MAX), f32::tanh_v, f64::tanh);
    eprintln!("worst: {e:.2} ulp at {x:e}");
    assert!(e <= 3.0, "tanh_v(f32) is {e} ulp off at {x:e}");
}

#[test]
fn tanh_f64_within_3_ulp() {
    let (e, x) = worst64(spread64(-20.0, 20.0), f64::tanh_v, f64::tanh);
    eprintln!("worst: {e:.2} ulp at {x:e}");
    assert!(e <= 3.0, "tanh_v(f64) is {e} ulp off at {x:e}");
    let (e, x) = worst64(spread64(-f64::MAX, f64::MAX), f64::tanh_v, f64::tanh);
    eprintln!("worst: {e:.2} ulp at {x:e}");
    assert!(e <= 3.0, "tanh_v(f64) is {e} ulp off at {x:e}");
}

/// Bitwise equality, NaN equal to NaN.
fn same32(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

fn same64(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

#[test]
fn special_values_follow_libm() {
    let specials32 = [
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::MIN_POSITIVE,
        f32::from_bits(1),
        -f32::from_bits(1),
        f32::MAX,
        f32::MIN,
        88.72283,
        88.72284,
        -87.33655,
        -103.97208,
        -103.97209,
        -104.5,
        1.0,
        -1.0,
    ];
    for x in specials32 {
        let (e, w) = (x.exp_v(), x.exp());
        assert!(
            same32(e, w)
                || ulps32(e, (x as f64).exp()) <= 2.0
                || (e as f64 - (x as f64).exp()).abs() <= f32::from_bits(1) as f64,
            "exp_v({x:e}) = {e:e}, libm {w:e}"
        );
        let (l, w) = (x.ln_v(), x.ln());
        assert!(
            same32(l, w) || ulps32(l, (x as f64).ln()) <= 2.0,
            "ln_v({x:e}) = {l:e}, libm {w:e}"
        );
        let (t, w) = (x.tanh_v(), x.tanh());
        assert!(
            same32(t, w) || ulps32(t, (x as f64).tanh()) <= 3.0,
            "tanh_v({x:e}) = {t:e}, libm {w:e}"
        );
    }
    let specials64 = [
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        f64::MIN_POSITIVE,
        f64::from_bits(1),
        -f64::from_bits(1),
        f64::MAX,
        f64::MIN,
        709.782712893384,
        709.7827128933841,
        -708.3964185322641,
        -745.1332191019411,
        -745.1332191019412,
        -746.5,
        1.0,
        -1.0,
    ];
    for x in specials64 {
        let (e, w) = (x.exp_v(), x.exp());
        assert!(
            same64(e, w) || ulps64(e, w) <= 2.0 || (e - w).abs() <= 2.0 * f64::from_bits(1),
            "exp_v({x:e}) = {e:e}, libm {w:e}"
        );
        let (l, w) = (x.ln_v(), x.ln());
        assert!(
            same64(l, w) || ulps64(l, w) <= 2.0,
            "ln_v({x:e}) = {l:e}, libm {w:e}"
        );
        let (t, w) = (x.tanh_v(), x.tanh());
        assert!(
            same64(t, w) || ulps64(t, w) <= 3.0,
            "tanh_v({x:e}) = {t:e}, libm {w:e}"
        );
    }
    // Exactly as IEEE 754 and libm say.
    assert_eq!(f32::NEG_INFINITY.exp_v(), 0.0);
    assert_eq!(f64::INFINITY.exp_v(), f64::INFINITY);
    assert_eq!(0.0f32.ln_v(), f32::NEG_INFINITY);
    assert!((-1.0f64).ln_v().is_nan() && f32::NAN.exp_v().is_nan());
    assert_eq!((-0.0f32).tanh_v().to_bits(), (-0.0f32).to_bits());
    assert_eq!(f64::NEG_INFINITY.tanh_v(), -1.0);
}
