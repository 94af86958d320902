use super::*;
use crate::engine::raw::half_gemm::Half;

/// Every copy this CPU runs (AVX-512 and AVX2 alike, whichever `Lanes::kernel` would
/// choose) against the dot products summed in f64: rows of 1–40 elements (no vector
/// body, one, one with a remainder), 1–9 weight rows (blocks of four and what is left).
#[test]
fn each_copy_dots_rows_as_the_f64_sum() {
    fn check<H: Half>(kernel: fn(&[f32], &[H], &mut [f32], bool), narrow: fn(f32) -> H) {
        for k in [1, 7, 8, 15, 16, 17, 33, 40] {
            for n in 1..=9 {
                let x: Vec<f32> = (0..k).map(|p| ((p * 7) % 11) as f32 / 4.0 - 1.0).collect();
                let w: Vec<H> = (0..n * k)
                    .map(|i| narrow(((i * 5) % 13) as f32 / 8.0 - 0.75))
                    .collect();
                for accumulate in [false, true] {
                    let mut out = vec![0.5f32; n];
                    kernel(&x, &w, &mut out, accumulate);
                    for (j, &got) in out.iter().enumerate() {
                        let dot: f64 = (0..k)
                            .map(|p| f64::from(x[p]) * f64::from(w[j * k + p].wide()))
                            .sum();
                        let want = dot + if accumulate { 0.5 } else { 0.0 };
                        assert!(
                            (f64::from(got) - want).abs() < 1e-5,
                            "k {k}, n {n}, row {j}: {got} against {want}"
                        );
                    }
                }
            }
        }
    }
    let isa = super::super::isa();
    if isa == super::super::Isa::Avx512 {
        // SAFETY: `isa` detected every feature the AVX-512 copies are compiled with.
        let bf = |x: &[f32], w: &[bf16], o: &mut [f32], a| unsafe { bf16_avx512(x, w, o, a) };
        // SAFETY: as above.
        let f = |x: &[f32], w: &[f16], o: &mut [f32], a| unsafe { f16_avx512(x, w, o, a) };
        check::<bf16>(bf, bf16::from_f32);
        check::<f16>(f, f16::from_f32);
    }
    if isa != super::super::Isa::Base && std::is_x86_feature_detected!("f16c") {
        // SAFETY: AVX2 and FMA (by `isa`) and F16C were detected: the AVX2 copies'.
        let bf = |x: &[f32], w: &[bf16], o: &mut [f32], a| unsafe { bf16_avx2(x, w, o, a) };
        // SAFETY: as above.
        let f = |x: &[f32], w: &[f16], o: &mut [f32], a| unsafe { f16_avx2(x, w, o, a) };
        check::<bf16>(bf, bf16::from_f32);
        check::<f16>(f, f16::from_f32);
    }
}

/// Every copy of the [`add_rows`] kernels this CPU runs (`f32`, and widening `bf16` and
/// `f16`) against the sums in f64: 1–4
/// activation rows, 1–9 weight rows (groups of four and what is left), rows of 1–70
/// columns (no vector, vectors, a remainder), weight rows and output rows apart, written
/// and accumulated; the cells between output rows are left alone.
#[test]
fn each_copy_adds_weight_rows_as_the_f64_sum() {
    type Copy<H> = unsafe fn((&[f32], usize), (&[H], usize, usize), (&mut [f32], usize), bool);
    fn check<H: AddsRows>(kernel: Copy<H>, narrow: fn(f32) -> H) {
        for rows in 1..=MAX_ROWS {
            for k in [1, 3, 4, 5, 9] {
                for width in [1, 7, 8, 15, 16, 17, 40, 70] {
                    let stride = width + 3;
                    let x: Vec<f32> = (0..rows * k)
                        .map(|p| ((p * 7) % 11) as f32 / 4.0 - 1.0)
                        .collect();
                    let w: Vec<H> = (0..k * stride)
                        .map(|i| narrow(((i * 5) % 13) as f32 / 8.0 - 0.75))
                        .collect();
                    for accumulate in [false, true] {
                        let mut out = vec![0.5f32; rows * (width + 1)];
                        // SAFETY: the caller passes a copy whose features this CPU has.
                        unsafe {
                            kernel(
                                (&x, k),
                                (&w, stride, width),
                                (&mut out, width + 1),
                                accumulate,
                            )
                        };
                        for (at, &got) in out.iter().enumerate() {
                            let (i, j) = (at / (width + 1), at % (width + 1));
                            let want = if j == width {
                                0.5
                            } else {
                                let sum: f64 = (0..k)
                                    .map(|p| {
                                        f64::from(x[i * k + p])
                                            * f64::from(Into::<f32>::into(w[p * stride + j]))
                                    })
                                    .sum();
                                sum + if accumulate { 0.5 } else { 0.0 }
                            };
                            assert!(
                                (f64::from(got) - want).abs() < 1e-5,
                                "{rows} rows, k {k}, width {width}, ({i}, {j}): {got} against {want}"
                            );
                        }
                    }
                }
            }
        }
    }
    let isa = super::super::isa();
    if isa == super::super::Isa::Avx512 {
        check::<bf16>(bf16_rows_avx512, bf16::from_f32);
        check::<f16>(f16_rows_avx512, f16::from_f32);
        check::<f32>(f32_rows_avx512, |x| x);
    }
    if isa != super::super::Isa::Base {
        check::<f32>(f32_rows_avx2, |x| x);
    }
    if isa != super::super::Isa::Base && std::is_x86_feature_detected!("f16c") {
        check::<bf16>(bf16_rows_avx2, bf16::from_f32);
        check::<f16>(f16_rows_avx2, f16::from_f32);
    }
}
