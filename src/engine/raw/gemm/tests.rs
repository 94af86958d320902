use super::*;

#[test]
fn gemm_matches_the_plain_loop_on_strided_and_broadcast_layouts() {
    // a: 3x4 transposed in a 4x3 buffer; b: 4x2 with a broadcast column (stride 0).
    let a: Vec<f64> = (0..12).map(|x| x as f64).collect();
    let b: Vec<f64> = (0..4).map(|x| x as f64 * 0.5).collect();
    let (ma, mb, mc) = (
        Mat::new(0, 3, 4, 1, 3),
        Mat::new(0, 4, 2, 1, 0),
        Mat::new(1, 3, 2, 2, 1),
    );
    let mut fast = vec![1.0; 7];
    let mut slow = fast.clone();
    f64::gemm((&a, ma), (&b, mb), (&mut fast, mc), true, true);
    naive((&a, ma), (&b, mb), (&mut slow, mc), true);
    assert_eq!(fast, slow);
    assert_eq!(fast[0], 1.0, "the offset is honoured");
    // Without accumulation the old contents do not count.
    let (mut fresh, mut slow) = (vec![9.0; 7], vec![0.0; 7]);
    f64::gemm((&a, ma), (&b, mb), (&mut fresh, mc), false, true);
    naive((&a, ma), (&b, mb), (&mut slow, mc), true);
    assert_eq!(fresh[1..], slow[1..]);
}

/// Both operands walking `K` with stride 1 and fewer output rows than columns (a weight
/// stored `[out, in]`) take the transposed product into a block: the same values as the
/// plain loop, written and accumulated, into a strided output.
/// One to four rows by a weight stored `[in, out]` (rows of `b` a stride apart), with the
/// output's rows together (added row by row: `f32` by `half_dot::add_rows`' vector kernels,
///  `f64` by `few_rows_weighted`) and apart (the GEMM crate): the plain loop's
/// values, exact for these small integers, written and accumulated; one row by a weight
/// of 2^20 elements or more split over threads by columns.
#[test]
fn a_few_rows_by_an_in_out_weight_give_the_plain_loops_values() {
    fn check<T: DotElement + core::fmt::Debug + PartialEq + From<u8>>() {
        for (m, k, n) in [
            (1, 1, 1),
            (1, 7, 33),
            (2, 40, 17),
            (3, 9, 70),
            (4, 64, 5),
            (1, 64, 16400),
        ] {
            let stride = n + 3;
            let small = |x: usize, r: usize| T::from((x % r) as u8);
            let a: Vec<T> = (0..m * k).map(|x| small(x, 7) - T::from(3)).collect();
            let b: Vec<T> = (0..k * stride).map(|x| small(x, 5)).collect();
            let (ma, mb) = (Mat::new(0, m, k, k, 1), Mat::new(0, k, n, stride, 1));
            for mc in [Mat::new(1, m, n, n, 1), Mat::new(1, m, n, n + 2, 1)] {
                for accumulate in [false, true] {
                    let mut want = vec![T::from(2); 1 + m * (n + 2)];
                    let got = want.clone();
                    naive((&a, ma), (&b, mb), (&mut want, mc), accumulate);
                    for split in [false, true] {
                        let mut got = got.clone();
                        T::gemm((&a, ma), (&b, mb), (&mut got, mc), accumulate, split);
                        assert!(
                            got == want,
                            "{m}x{k}x{n}, {mc:?}, accumulate {accumulate}, split {split}"
                        );
                    }
                }
            }
        }
    }
    check::<f32>();
    check::<f64>();
}

#[test]
fn a_weight_stored_out_in_gives_the_plain_loops_values() {
    // Above 2^20 multiply-adds and K = 512, where the transposed block pays; rows and
    // columns not multiples of the copy's tiles.
    let (m, n, k) = (30, 70, 520);
    // a: m x k row-major; b: k x n stored as n x k ([out, in]); c: m x n in a wider buffer.
    let a: Vec<f64> = (0..m * k).map(|x| (x % 7) as f64 - 3.0).collect();
    let b: Vec<f64> = (0..n * k).map(|x| (x % 5) as f64 * 0.5).collect();
    let (ma, mb) = (Mat::new(0, m, k, k, 1), Mat::new(0, k, n, 1, k));
    let mc = Mat::new(1, m, n, n + 2, 1);
    for accumulate in [false, true] {
        let mut want = vec![1.5f64; 1 + m * (n + 2)];
        let got = want.clone();
        naive((&a, ma), (&b, mb), (&mut want, mc), accumulate);
        for split in [false, true] {
            let mut got = got.clone();
            f64::gemm((&a, ma), (&b, mb), (&mut got, mc), accumulate, split);
            assert_eq!(got, want, "accumulate {accumulate}, split {split}");
        }
    }
}

#[test]
fn layouts_the_checks_refuse_take_the_plain_loop() {
    // An output whose cells overlap (stride 0) is not handed to the GEMM crate.
    let a = [1.0f32, 2.0];
    let b = [3.0f32, 4.0];
    let mut c = [0.0f32];
    f32::gemm(
        (&a, Mat::new(0, 2, 1, 1, 1)),
        (&b, Mat::new(0, 1, 2, 1, 1)),
        (&mut c, Mat::new(0, 2, 2, 0, 0)),
        true,
        true,
    );
    assert_eq!(c[0], 3.0 + 4.0 + 6.0 + 8.0);
    assert!(!Mat::new(0, 2, 2, 0, 0).one_to_one());
    assert!(!Mat::new(5, 2, 2, 2, 1).fits(8));
}

/// A product into a new vector: the plain loop's values (exact for these small integers)
/// in row-major and column-major outputs, in one piece and split over threads (2^21
/// multiply-adds and more); `None`, nothing allocated, where the output's cells are not the
/// whole vector or another kernel (a few rows by rows, a transposed block) takes the product.
#[test]
fn a_product_into_a_new_vector_writes_every_element() {
    fn check<T: DotElement + core::fmt::Debug + PartialEq + From<u8>>() {
        for (m, k, n) in [(1, 1, 1), (5, 3, 9), (33, 17, 40), (128, 160, 130)] {
            let a: Vec<T> = (0..m * k).map(|x| T::from((x % 7) as u8)).collect();
            let b: Vec<T> = (0..k * n).map(|x| T::from((x % 5) as u8)).collect();
            let (ma, mb) = (Mat::new(0, m, k, k, 1), Mat::new(0, k, n, n, 1));
            for mc in [Mat::new(0, m, n, n, 1), Mat::new(0, m, n, 1, m)] {
                let mut want = vec![T::zero(); m * n];
                naive((&a, ma), (&b, mb), (&mut want, mc), false);
                for split in [false, true] {
                    let got = T::gemm_new((&a, ma), (&b, mb), mc, m * n, split);
                    let rows_by_rows = m <= 4 && mc.cs == 1;
                    match got {
                        Some(got) => assert_eq!(got, want, "{m}x{k}x{n}, {mc:?}, split {split}"),
                        None => assert!(rows_by_rows, "{m}x{k}x{n}, {mc:?}: refused"),
                    }
                }
            }
        }
        let (a, b) = (vec![T::from(1); 64], vec![T::from(2); 64]);
        let (ma, mb) = (Mat::new(0, 8, 8, 8, 1), Mat::new(0, 8, 8, 8, 1));
        // Cells with a gap, from an offset, or fewer than the vector: not every element.
        for (mc, len) in [
            (Mat::new(0, 8, 8, 9, 1), 71),
            (Mat::new(1, 8, 8, 8, 1), 65),
            (Mat::new(0, 8, 8, 8, 1), 65),
        ] {
            assert!(T::gemm_new((&a, ma), (&b, mb), mc, len, true).is_none());
        }
    }
    check::<f32>();
    check::<f64>();
    // Other elements keep the zeroed output.
    let a = [1i32; 4];
    assert!(i32::gemm_new(
        (&a, Mat::new(0, 2, 2, 2, 1)),
        (&a, Mat::new(0, 2, 2, 2, 1)),
        Mat::new(0, 2, 2, 2, 1),
        4,
        false
    )
    .is_none());
}
