//! `topk`: the `k` largest elements along a named axis and their positions, as PyTorch's
//! `torch.topk(x, k, dim)` with its defaults (largest first, sorted; equal values in
//! index order; NaN counts as the largest). The axis keeps its name with the size `?` (`k`).
//! On tensors, views and `DynTensor`.

use crate::alloc_prelude::*;

use core::cmp::Ordering;

use crate::engine::allocation::ensure;
use crate::engine::walk::row_major_elements;
use crate::tensor::dyn_tensor::DynTensor;
use crate::tensor::receiver::{Contractible, Own};
use crate::tensor::tensor::Tensor;
use crate::typed::reduce::OneAxis;
use crate::typed::size::Dyn;
use crate::typed::surgery::{Slice, SliceAxis};
use crate::values::error::Error;
use crate::values::selector::AxisSelector;
use crate::values::shape::DynShape;

/// `a` before `b` when it is larger, NaN the largest of all (PyTorch's order).
fn larger_first<T: PartialOrd>(a: &T, b: &T) -> Ordering {
    #[allow(clippy::eq_op)]
    let nan = |x: &T| x != x;
    match (nan(a), nan(b)) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        _ => b.partial_cmp(a).unwrap_or(Ordering::Equal),
    }
}

/// The `k` largest of each line of `data` (row-major over `sizes`) along axis `at`, and
/// their indices: both row-major over `sizes` with `sizes[at]` replaced by `k`.
fn top<T: PartialOrd + Clone>(
    data: &[T],
    sizes: &[usize],
    at: usize,
    k: usize,
) -> (Vec<usize>, Vec<T>, Vec<usize>) {
    let mut out_sizes = sizes.to_vec();
    out_sizes[at] = k;
    if data.is_empty() {
        // The output has no element either (`k <= n`); the other sizes may be huge.
        return (out_sizes, Vec::new(), Vec::new());
    }
    let n = sizes[at];
    let inner: usize = sizes[at + 1..].iter().product();
    let outer: usize = sizes[..at].iter().product();
    let total = outer * k * inner;
    // Placeholders, each overwritten below (`k <= n`, so `total <= data.len()`).
    let (mut values, mut indices) = (data[..total].to_vec(), vec![0usize; total]);
    let mut order: Vec<usize> = Vec::with_capacity(n);
    for o in 0..outer {
        for i in 0..inner {
            let base = o * n * inner + i;
            order.clear();
            order.extend(0..n);
            // Stable: equal values keep their index order.
            order.sort_by(|&x, &y| larger_first(&data[base + x * inner], &data[base + y * inner]));
            for (j, &pick) in order.iter().take(k).enumerate() {
                let to = (o * k + j) * inner + i;
                values[to] = data[base + pick * inner].clone();
                indices[to] = pick;
            }
        }
    }
    (out_sizes, values, indices)
}

/// The refusal of a `k` above the axis' size.
fn too_many(k: usize, axis: String, shape: DynShape, n: usize) -> Error {
    Error::Surgery {
        op: format!("topk {k} along {axis} of {shape}"),
        reason: format!("the axis has size {n}"),
    }
}

/// The values and the positions [`top_k`] gives.
type TopK<X, A> = (
    Tensor<<X as Contractible>::Elem, Slice<<X as Contractible>::Shape, A>>,
    Tensor<usize, Slice<<X as Contractible>::Shape, A>>,
);

/// The `k` largest elements along the one axis `A` selects of a typed tensor or view, and
/// their positions ([`Reductions::topk`](crate::Reductions::topk)).
pub(super) fn top_k<X, A: OneAxis>(x: &X, k: usize) -> Result<TopK<X, A>, Error>
where
    X: Contractible + ?Sized,
    X::Shape: SliceAxis<A, Dyn>,
    X::Elem: PartialOrd + Clone,
{
    let at = <X::Shape as SliceAxis<A, Dyn>>::AT;
    let mut own = Own::default();
    let layout = x.layout(&mut own);
    let n = layout.sizes[at];
    if k > n {
        let axis = super::surgery::show::<A>();
        return Err(too_many(k, axis, x.shape_dyn(), n));
    }
    ensure::<X::Elem>(layout.sizes, || x.shape_dyn())?;
    let data = row_major_elements(&layout);
    let (sizes, values, indices) = top(&data, layout.sizes, at, k);
    Ok((
        Tensor::from_parts(&sizes, values),
        Tensor::from_parts(&sizes, indices),
    ))
}

impl<T: PartialOrd + Clone> DynTensor<T> {
    /// The `k` largest elements along `axis` (a name or a position), largest first, and
    /// their positions; the axis keeps its name with the size `k`.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let t = DynTensor::from_vec("[VOCAB: 4]".parse()?, vec![0.5f32, 3.0, 1.0, 2.0])?;
    /// let (v, i) = t.topk(&"VOCAB".parse()?, 3)?;
    /// assert_eq!((v.data(), i.data()), (&[3.0, 2.0, 1.0][..], &[1, 3, 2][..]));
    /// assert_eq!(v.shape().to_string(), "[VOCAB: 3]");
    /// assert!(t.topk(&"VOCAB".parse()?, 5).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn topk(
        &self,
        axis: &AxisSelector,
        k: usize,
    ) -> Result<(DynTensor<T>, DynTensor<usize>), Error> {
        let at = crate::dynamic::surgery::find("topk", self.shape(), axis)?;
        let n = self.sizes()[at];
        if k > n {
            return Err(too_many(k, axis.to_string(), self.shape().clone(), n));
        }
        let (sizes, values, indices) = top(self.data(), self.sizes(), at, k);
        let shape = crate::dynamic::surgery::slice(self.shape(), axis, Some(sizes[at]))?;
        Ok((
            DynTensor::from_vec(shape.clone(), values)?,
            DynTensor::from_vec(shape, indices)?,
        ))
    }
}
