//! `cumsum`/`cumprod` by name against the definition (element `i` along the axis is the sum
//! or product of elements `0..=i`, accumulated in that order, as NumPy and PyTorch do), on
//! tensors, views and `DynTensor`.

use proptest::prelude::*;
use shapecast::{names, shape, DynTensor, Reductions, Tensor};

names!(A, B, C);

/// The running sum (or product) along `axis` by three loops, in index order.
fn naive(x: &[f64], sizes: &[usize], axis: usize, product: bool) -> Vec<f64> {
    let mut out = x.to_vec();
    let strides = [sizes[1] * sizes[2], sizes[2], 1];
    for i in 0..sizes[0] {
        for j in 0..sizes[1] {
            for l in 0..sizes[2] {
                let at = [i, j, l];
                if at[axis] == 0 {
                    continue;
                }
                let here = i * strides[0] + j * strides[1] + l * strides[2];
                let prev = here - strides[axis];
                out[here] = if product {
                    out[prev] * x[here]
                } else {
                    out[prev] + x[here]
                };
            }
        }
    }
    out
}

proptest! {
    #[test]
    fn running_sums_and_products_follow_the_definition(
        sizes in proptest::collection::vec(0usize..6, 3),
        axis in 0usize..3,
        seed in 0u64..1000,
    ) {
        let n: usize = sizes.iter().product();
        let x: Vec<f64> = (0..n).map(|i| ((i as u64 * 7919 + seed) % 13) as f64 / 4.0 - 1.0).collect();
        let t = Tensor::<f64, shape![A, B, C]>::from_vec_sized(&sizes, x.clone()).unwrap();
        let (sum, prod) = match axis {
            0 => (t.cumsum::<A>(), t.view().cumprod::<A>()),
            1 => (t.cumsum::<B>(), t.view().cumprod::<B>()),
            _ => (t.cumsum::<C>(), t.view().cumprod::<C>()),
        };
        prop_assert_eq!(sum.data(), &naive(&x, &sizes, axis, false)[..]);
        prop_assert_eq!(prod.data(), &naive(&x, &sizes, axis, true)[..]);
        let d = t.to_dyn();
        let name = ["A", "B", "C"][axis].parse().unwrap();
        let (dsum, dprod) = (d.cumsum(&name).unwrap(), d.cumprod(&name).unwrap());
        prop_assert_eq!(dsum.data(), sum.data());
        prop_assert_eq!(dprod.data(), prod.data());
    }
}

#[test]
fn a_strided_view_scans_its_own_elements() {
    // Every other column of a [2, 4] tensor, scanned along the rows.
    let t = Tensor::<i64, shape![A: 2, B: 4]>::from_array([[1, 2, 3, 4], [5, 6, 7, 8]]);
    let v = t.view().step::<B>(2).unwrap();
    assert_eq!(v.cumsum::<A>().data(), &[1, 3, 6, 10]);
    assert_eq!(v.cumsum::<B>().data(), &[1, 4, 5, 12]);
    let d = DynTensor::from_vec("[A: 2]".parse().unwrap(), vec![1i64, 2]).unwrap();
    assert!(d.cumsum(&"B".parse().unwrap()).is_err());
}
