use super::few_rows::add_rows_widened;
use super::*;

/// `a · b` in f64 from the widened values: what an f32-accumulating product approaches.
fn reference(a: &[f32], ma: Mat, b: &[f32], mb: Mat) -> Vec<f64> {
    let mut out = vec![0.0; ma.rows * mb.cols];
    for i in 0..ma.rows {
        for j in 0..mb.cols {
            out[i * mb.cols + j] = (0..ma.cols)
                .map(|p| {
                    f64::from(a[ma.offset + i * ma.rs + p * ma.cs])
                        * f64::from(b[mb.offset + p * mb.rs + j * mb.cs])
                })
                .sum();
        }
    }
    out
}

/// Every layout of the half operand (a weight `[out, in]`, `[in, out]`, a strided one),
/// several tiles wide, on one and several threads: the f64 product of the widened values
/// within f32 rounding, written and accumulated.
#[test]
fn half_weights_multiply_as_their_widened_values() {
    // 8 rows: 230 columns in two tiles of 96 and one of 38; 32 rows: one tile, 2^21
    // multiply-adds split.
    for m in [8, 32] {
        several_rows_by_half_weights(m);
    }
}

fn several_rows_by_half_weights(m: usize) {
    let (k, n) = (300, 230);
    let a: Vec<f32> = (0..m * k)
        .map(|x| ((x * 37) % 101) as f32 / 50.0 - 1.0)
        .collect();
    let wide: Vec<f32> = (0..2 * k * n)
        .map(|x| bf16::from_f32(((x * 13) % 97) as f32 / 48.0 - 1.0).to_f32())
        .collect();
    let half: Vec<bf16> = wide.iter().map(|&x| bf16::from_f32(x)).collect();
    let ma = Mat::new(0, m, k, k, 1);
    for mb in [
        Mat::new(0, k, n, 1, k),
        Mat::new(3, k, n, n, 1),
        Mat::new(1, k, n, 2 * n, 2),
    ] {
        let want = reference(&a, ma, &wide, mb);
        for accumulate in [false, true] {
            let mut got = vec![1.0f32; m * n];
            <bf16 as DotOperand<f32>>::gemm_into(
                (&a, ma),
                (&half, mb),
                (&mut got, Mat::new(0, m, n, n, 1)),
                accumulate,
                true,
            );
            for (i, (&g, &w)) in got.iter().zip(&want).enumerate() {
                let w = w + if accumulate { 1.0 } else { 0.0 };
                assert!(
                    (f64::from(g) - w).abs() < 1e-3,
                    "{m} rows, {mb:?} cell {i}: {g} against {w}"
                );
            }
        }
    }
}

/// One row by a bf16 weight stored `[out, in]` (a token's product): the f64 product
/// within f32 rounding, into contiguous and strided outputs, written and accumulated,
/// large enough to split over threads (2^21 multiply-adds).
#[test]
fn one_row_by_an_out_in_weight_is_the_widened_product() {
    let (k, n) = (1024, 2050);
    let a: Vec<f32> = (0..k)
        .map(|x| ((x * 37) % 101) as f32 / 50.0 - 1.0)
        .collect();
    let wide: Vec<f32> = (0..k * n + 5)
        .map(|x| bf16::from_f32(((x * 13) % 97) as f32 / 48.0 - 1.0).to_f32())
        .collect();
    let half: Vec<bf16> = wide.iter().map(|&x| bf16::from_f32(x)).collect();
    let (ma, mb) = (Mat::new(0, 1, k, k, 1), Mat::new(5, k, n, 1, k));
    let want = reference(&a, ma, &wide, mb);
    for (stride, accumulate) in [(1, false), (1, true), (3, false), (3, true)] {
        let mut got = vec![1.0f32; n * stride];
        <bf16 as DotOperand<f32>>::gemm_into(
            (&a, ma),
            (&half, mb),
            (&mut got, Mat::new(0, 1, n, n * stride, stride)),
            accumulate,
            true,
        );
        for (j, &w) in want.iter().enumerate() {
            let w = w + if accumulate { 1.0 } else { 0.0 };
            let g = f64::from(got[j * stride]);
            assert!(
                (g - w).abs() < 1e-3,
                "stride {stride} column {j}: {g} against {w}"
            );
        }
        // The cells between a strided output's columns are left alone.
        assert!(got
            .iter()
            .enumerate()
            .all(|(i, &g)| i % stride == 0 || g == 1.0));
    }
}

/// One to four rows by weights of both half types stored `[out, in]` and `[in, out]` (the
/// kernels that widen in registers, and for `[in, out]` the path for CPUs without them): the
/// f64 product within f32 rounding for row lengths around the vector width (the remainder
/// of each row), outputs of 1–70 columns (blocks of four rows, of vectors, and what is
/// left), rows apart and after one another, outputs with their columns together and apart,
/// written and accumulated; an `[in, out]` weight of 2^20 elements by one row splits over
/// threads (the `[out, in]` split: `one_row_by_an_out_in_weight_is_the_widened_product`).
#[test]
fn a_few_rows_by_half_weights_are_the_widened_product() {
    fn check<H: Lanes + Half + DotOperand<f32>>(narrow: fn(f32) -> H) {
        for (m, k, n) in [
            (1, 1, 1),
            (1, 15, 5),
            (2, 16, 4),
            (3, 17, 37),
            (4, 40, 9),
            (2, 9, 70),
            (1, 300, 260),
            (1, 64, 16400),
        ] {
            let half: Vec<H> = (0..k * (n + 3) + 1)
                .map(|x| narrow(((x * 13) % 97) as f32 / 48.0 - 1.0))
                .collect();
            let wide: Vec<f32> = half.iter().map(|&h| h.wide()).collect();
            for (mb, rs, cs) in [
                (Mat::new(1, k, n, 1, k), k, 1),
                (Mat::new(1, k, n, n + 3, 1), k + 3, 1),
                (Mat::new(1, k, n, n + 3, 1), k, 2),
            ] {
                let a: Vec<f32> = (0..m * rs + 2)
                    .map(|x| ((x * 37) % 101) as f32 / 50.0 - 1.0)
                    .collect();
                let ma = Mat::new(2, m, k, rs, 1);
                let want = reference(&a, ma, &wide, mb);
                let row = n * cs + 2;
                for accumulate in [false, true] {
                    let mut got = vec![1.0f32; m * row];
                    let mc = Mat::new(0, m, n, row, cs);
                    <H as DotOperand<f32>>::gemm_into(
                        (&a, ma),
                        (&half, mb),
                        (&mut got, mc),
                        accumulate,
                        true,
                    );
                    for (at, &g) in got.iter().enumerate() {
                        let (i, j) = (at / row, at % row);
                        if j % cs != 0 || j / cs >= n {
                            assert_eq!(g, 1.0, "cell {at} is not the product's");
                            continue;
                        }
                        let w = want[i * n + j / cs] + if accumulate { 1.0 } else { 0.0 };
                        assert!(
                            (f64::from(g) - w).abs() < 1e-4 * (k as f64).sqrt(),
                            "{m}x{k}x{n}, {mb:?}, cell ({i}, {}): {g} against {w}",
                            j / cs
                        );
                    }
                }
            }
        }
    }
    check::<bf16>(bf16::from_f32);
    check::<f16>(f16::from_f32);
}

/// The `[in, out]` few-rows path of a CPU without the kernels that widen in registers
/// (blocks of rows widened into a buffer): the f64 product within f32 rounding, blocks of
/// rows and what is left, written and accumulated into output rows apart.
#[test]
fn weight_rows_widened_by_blocks_are_the_product() {
    for (m, k, w) in [(1, 3, 1), (2, 70, 300), (4, 33, 5000)] {
        let stride = w + 5;
        let half: Vec<bf16> = (0..k * stride)
            .map(|x| bf16::from_f32(((x * 13) % 97) as f32 / 48.0 - 1.0))
            .collect();
        let wide: Vec<f32> = half.iter().map(|h| h.to_f32()).collect();
        let x: Vec<f32> = (0..m * k)
            .map(|x| ((x * 37) % 101) as f32 / 50.0 - 1.0)
            .collect();
        let want = reference(
            &x,
            Mat::new(0, m, k, k, 1),
            &wide,
            Mat::new(0, k, w, stride, 1),
        );
        for accumulate in [false, true] {
            let mut out = vec![1.0f32; m * (w + 1)];
            add_rows_widened(
                (&x, m, k),
                (&half, stride, w),
                (&mut out, w + 1),
                accumulate,
            );
            for i in 0..m {
                for j in 0..w {
                    let want = want[i * w + j] + if accumulate { 1.0 } else { 0.0 };
                    let got = f64::from(out[i * (w + 1) + j]);
                    assert!(
                        (got - want).abs() < 1e-3,
                        "{m}x{k}x{w} ({i}, {j}): {got} against {want}"
                    );
                }
                assert_eq!(
                    out[i * (w + 1) + w],
                    1.0,
                    "the cell after row {i} is left alone"
                );
            }
        }
    }
}

/// A product of half matrices is the f32 product of their widened values, rounded once.
#[test]
fn half_products_round_the_f32_product_once() {
    let (m, k, n) = (3, 40, 7);
    let av: Vec<f16> = (0..m * k)
        .map(|x| f16::from_f32((x % 9) as f32 * 0.125))
        .collect();
    let bv: Vec<f16> = (0..k * n)
        .map(|x| f16::from_f32((x % 5) as f32 - 2.0))
        .collect();
    let (ma, mb, mc) = (
        Mat::new(0, m, k, k, 1),
        Mat::new(0, k, n, n, 1),
        Mat::new(0, m, n, n, 1),
    );
    let mut c = vec![f16::ZERO; m * n];
    f16::gemm((&av, ma), (&bv, mb), (&mut c, mc), false, false);
    let wa: Vec<f32> = av.iter().map(|x| x.to_f32()).collect();
    let wb: Vec<f32> = bv.iter().map(|x| x.to_f32()).collect();
    let want = reference(&wa, ma, &wb, mb);
    for (g, w) in c.iter().zip(&want) {
        assert_eq!(*g, f16::from_f64(*w), "exact sums of small dyadic values");
    }
}

/// A product of two bf16 matrices (gemmkit's, on `vdpbf16ps` where the CPU has it) is the
/// exact sum rounded once to bf16: written and accumulated, the right operand a weight
/// stored `[n, k]`, the output inside a larger buffer whose other cells stay as they were.
/// Every product and partial sum of these small dyadic values is exact in `f32`.
#[test]
fn bf16_products_are_the_sum_rounded_once() {
    // A small product, and two of at least `GEMM_PARALLEL_MIN` multiply-adds, which split
    // over the pool's threads by rows (more rows than columns) and by columns.
    for (m, k, n) in [(37, 70, 45), (70, 1030, 33), (33, 1030, 70)] {
        let av: Vec<bf16> = (0..m * k)
            .map(|x| bf16::from_f32(((x * 7 % 19) as f32 - 9.0) / 8.0))
            .collect();
        let bv: Vec<bf16> = (0..k * n)
            .map(|x| bf16::from_f32(((x * 5 % 13) as f32 - 6.0) / 4.0))
            .collect();
        let (ma, mb, mc) = (
            Mat::new(0, m, k, k, 1),
            Mat::new(0, k, n, 1, k),
            Mat::new(3, m, n, n + 2, 1),
        );
        let wa: Vec<f32> = av.iter().map(|x| x.to_f32()).collect();
        let wb: Vec<f32> = bv.iter().map(|x| x.to_f32()).collect();
        let want = reference(&wa, ma, &wb, mb);
        let start: Vec<bf16> = (0..3 + m * (n + 2))
            .map(|x| bf16::from_f32((x % 3) as f32))
            .collect();
        for (accumulate, split) in [(false, false), (true, false), (false, true), (true, true)] {
            let mut c = start.clone();
            bf16::gemm((&av, ma), (&bv, mb), (&mut c, mc), accumulate, split);
            for (at, (got, was)) in c.iter().zip(&start).enumerate() {
                let (i, j) = ((at.max(3) - 3) / (n + 2), (at.max(3) - 3) % (n + 2));
                if at < 3 || j >= n {
                    assert_eq!(got, was, "cell {at} is not the product's");
                    continue;
                }
                let exact = want[i * n + j] + if accumulate { was.to_f64() } else { 0.0 };
                assert_eq!(
                    *got,
                    bf16::from_f64(exact),
                    "{m}x{k}x{n}: ({i}, {j}), accumulate {accumulate}, split {split}"
                );
            }
        }
    }
}
