//! Contractions with half-precision operands against a naive f64 reference on the widened
//! values: `f32` activations by `bf16`/`f16` weights (every layout a weight comes in, sizes
//! over several of the tiles the weight is widened by), products of half tensors (the f32
//! product rounded once), at both levels.

use proptest::prelude::*;
use shapecast::{bf16, f16, names, shape, Cast, Dot, DynTensor, Tensor};

names!(T, IN, OUT);

/// `x · wᵀ` for `x` of `t × k` and `w` of `n × k` (`[OUT, IN]`), in f64.
fn reference(x: &[f32], w: &[f32], (t, k, n): (usize, usize, usize)) -> Vec<f64> {
    let mut out = vec![0.0; t * n];
    for i in 0..t {
        for j in 0..n {
            out[i * n + j] = (0..k)
                .map(|p| f64::from(x[i * k + p]) * f64::from(w[j * k + p]))
                .sum();
        }
    }
    out
}

/// Deterministic values in [-1, 1).
fn values(n: usize, seed: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i * 7919 + seed * 104_729) % 2001) as f32 / 1000.0 - 1.0)
        .collect()
}

/// Within f32 accumulation of `k` products of values below 1 of the reference.
fn close(got: &[f32], want: &[f64], k: usize) {
    assert_eq!(got.len(), want.len());
    let tol = 1e-6 * k as f64;
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        assert!(
            (f64::from(g) - w).abs() <= tol,
            "element {i}: {g} against {w}"
        );
    }
}

type X = Tensor<f32, shape![T, IN]>;
type W<E> = Tensor<E, shape![OUT, IN]>;

fn operands(t: usize, k: usize, n: usize) -> (X, W<f32>) {
    let x = X::from_vec_sized(&[t, k], values(t * k, 1)).unwrap();
    let w = W::<f32>::from_vec_sized(&[n, k], values(n * k, 2)).unwrap();
    (x, w)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// A bf16 or f16 weight stored `[OUT, IN]` (as files store it), reordered `[IN, OUT]`,
    /// or seen through a transposed view: the product of the widened weight, whatever the
    /// layout, one position (generation) or many (a prompt).
    #[test]
    fn f32_activations_by_half_weights_are_the_widened_product(
        t in prop::sample::select(vec![1usize, 3, 40]),
        k in 1usize..400,
        n in 1usize..300,
    ) {
        let (x, w) = operands(t, k, n);
        let b = w.cast::<bf16>();
        let h = w.cast::<f16>();
        let want_b = reference(x.data(), b.cast::<f32>().data(), (t, k, n));
        let want_h = reference(x.data(), h.cast::<f32>().data(), (t, k, n));
        close(x.dot::<IN>(&b).data(), &want_b, k);
        close(x.dot::<IN>(&h).data(), &want_h, k);
        let reordered = b.align_to::<shape![IN, OUT]>().unwrap();
        close(x.dot::<IN>(&reordered).data(), &want_b, k);
        close(x.dot::<IN>(&reordered.to_tensor()).data(), &want_b, k);
        close(x.view().dot::<IN>(&b.view()).data(), &want_b, k);
    }
}

/// Shapes broadcast and batch over half weights as over f32 ones: a weight shared by a
/// batch, and per-head weights with a batch axis on both sides.
#[test]
fn half_weights_take_every_contraction_plan() {
    names!(B, H, D, E);
    let x = Tensor::<f32, shape![B: 2, H: 3, D: 5]>::from_vec(values(30, 3)).unwrap();
    let w = Tensor::<f32, shape![H: 3, E: 4, D: 5]>::from_vec(values(60, 4)).unwrap();
    let half = w.cast::<bf16>();
    let widened = half.cast::<f32>();
    type Out = shape![B: 2, H: 3, E: 4];
    let got: Tensor<f32, Out> = x.dot::<D>(&half);
    assert_eq!(got.data().len(), 24);
    close(
        got.data(),
        &x.dot::<D>(&widened)
            .data()
            .iter()
            .map(|&v| f64::from(v))
            .collect::<Vec<_>>(),
        5,
    );
    let m: Tensor<f32, shape![2, 4]> = Tensor::<f32, shape![2, 3]>::from_vec(values(6, 5))
        .unwrap()
        .matmul(
            &Tensor::<f32, shape![3, 4]>::from_vec(values(12, 6))
                .unwrap()
                .cast::<f16>(),
        );
    let want = Tensor::<f32, shape![2, 3]>::from_vec(values(6, 5))
        .unwrap()
        .matmul(
            &Tensor::<f32, shape![3, 4]>::from_vec(values(12, 6))
                .unwrap()
                .cast::<f16>()
                .cast::<f32>(),
        );
    close(
        m.data(),
        &want
            .data()
            .iter()
            .map(|&v| f64::from(v))
            .collect::<Vec<_>>(),
        3,
    );
}

/// A product of half tensors accumulates in f32 and rounds once: sums a running bf16 sum
/// would lose (256 + 1 is 256 in bf16) come out right.
#[test]
fn half_products_accumulate_in_f32() {
    names!(K);
    let ones = Tensor::<bf16, shape![K: 1000]>::from_vec(vec![bf16::ONE; 1000]).unwrap();
    let dot: Tensor<bf16, shape![]> = ones.dot::<K>(&ones);
    assert_eq!(dot.data()[0].to_f32(), 1000.0);
    let (x, w) = operands(7, 33, 9);
    let (xh, wh) = (x.cast::<f16>(), w.cast::<f16>());
    let got = xh.dot::<IN>(&wh);
    let want = reference(xh.cast::<f32>().data(), wh.cast::<f32>().data(), (7, 33, 9));
    for (g, w) in got.data().iter().zip(&want) {
        // The f32 sum rounded to f16: within half an f16 unit of the exact sum, plus f32's error.
        let unit =
            f64::from(f16::EPSILON.to_f32()) * w.abs().max(f64::from(f16::MIN_POSITIVE.to_f32()));
        assert!((g.to_f64() - w).abs() <= unit + 1e-5, "{g} against {w}");
    }
}

/// `DynTensor::dot` and `matmul` take half weights under f32 the same way.
#[test]
fn run_time_products_take_half_weights() {
    let x = DynTensor::from_vec("[T: 2, IN: 3]".parse().unwrap(), values(6, 7)).unwrap();
    let w = DynTensor::from_vec("[OUT: 4, IN: 3]".parse().unwrap(), values(12, 8)).unwrap();
    let half: DynTensor<bf16> = w.cast();
    let got = x.dot(&half, &["IN".parse().unwrap()]).unwrap();
    assert_eq!(got.shape().to_string(), "[T: 2, OUT: 4]");
    let widened: DynTensor<f32> = half.cast();
    let want = reference(x.data(), widened.data(), (2, 3, 4));
    close(got.data(), &want, 3);
    let m = DynTensor::from_vec("[3, 2]".parse().unwrap(), values(6, 9)).unwrap();
    let mh: DynTensor<f16> = m.cast();
    let mw: DynTensor<f32> = mh.cast();
    assert_eq!(x.matmul(&mh).unwrap().data(), x.matmul(&mw).unwrap().data());
    // A refusal is the same refusal.
    assert!(x.dot(&half, &["OUT".parse().unwrap()]).is_err());
}
