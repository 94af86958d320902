//! Running sums and products along a named axis (`cumsum`, `cumprod`): the shape is kept,
//! element `i` along the axis is the sum (product) of elements `0..=i`, added in that order
//! as NumPy's `np.cumsum`/`np.cumprod` and PyTorch's `torch.cumsum` do. On tensors, views
//! and `DynTensor` (by name or position); the typed methods are [`Reductions`](crate::Reductions)'.

use crate::alloc_prelude::*;

use core::ops::{Add, Mul};

use crate::engine::allocation::ensure;
use crate::engine::walk::row_major_elements;
use crate::tensor::dyn_tensor::DynTensor;
use crate::tensor::receiver::{Contractible, Own};
use crate::tensor::tensor::Tensor;
use crate::typed::reduce::OneAxis;
use crate::typed::reduce::ReduceOver;
use crate::typed::storage::Storage;
use crate::values::error::{Error, OrPanic};
use crate::values::selector::AxisSelector;

/// `data` (row-major over `sizes`) with every element along axis `k` replaced by `f` of the
/// running value and itself, from the axis' first element on.
fn scan<T: Clone>(mut data: Vec<T>, sizes: &[usize], k: usize, f: impl Fn(T, T) -> T) -> Vec<T> {
    if data.is_empty() {
        // Nothing to scan; the sizes beside the 0 may be huge.
        return data;
    }
    let n = sizes[k];
    let inner: usize = sizes[k + 1..].iter().product();
    if n < 2 {
        return data;
    }
    for block in data.chunks_mut(n * inner) {
        for i in 1..n {
            let (done, rest) = block.split_at_mut(i * inner);
            let prev = &done[(i - 1) * inner..];
            for (x, p) in rest[..inner].iter_mut().zip(prev) {
                *x = f(p.clone(), x.clone());
            }
        }
    }
    data
}

/// The position of the one axis `A` selects in `S`.
fn axis_of<S: ReduceOver<A>, A>() -> usize {
    S::MASK
        .iter()
        .position(|&m| m)
        .expect("OneAxis selects one axis")
}

/// The scan of a typed tensor or view along the one axis `A` selects: `f` of the running
/// value and each element, the shape kept ([`Reductions::cumsum`](crate::Reductions::cumsum), [`Reductions::cumprod`](crate::Reductions::cumprod)).
pub(super) fn scanned<X, A: OneAxis>(
    x: &X,
    f: impl Fn(X::Elem, X::Elem) -> X::Elem,
) -> Tensor<X::Elem, X::Shape>
where
    X: Contractible + ?Sized,
    X::Shape: ReduceOver<A> + Storage<X::Elem>,
    X::Elem: Clone,
{
    let mut own = Own::default();
    let layout = x.layout(&mut own);
    // A broadcast view (stride 0) can stand for more elements than memory holds: its copy
    // panics with [`Error::TooLarge`]'s message, never aborts.
    ensure::<X::Elem>(layout.sizes, || x.shape_dyn()).or_panic();
    let data = row_major_elements(&layout).into_owned();
    let k = axis_of::<X::Shape, A>();
    Tensor::from_parts(layout.sizes, scan(data, layout.sizes, k, f))
}

impl<T: Clone> DynTensor<T> {
    /// The running sum along `axis` (a name or a position), the shape kept; an axis the
    /// shape lacks is an error.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let t = DynTensor::from_vec("[T: 3, D: 2]".parse()?, vec![1, 2, 3, 4, 5, 6])?;
    /// assert_eq!(t.cumsum(&"T".parse()?)?.data(), &[1, 2, 4, 6, 9, 12]);
    /// assert!(t.cumsum(&"C".parse()?).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn cumsum(&self, axis: &AxisSelector) -> Result<DynTensor<T>, Error>
    where
        T: Add<Output = T>,
    {
        let k = crate::dynamic::surgery::find("cumsum", self.shape(), axis)?;
        let out = scan(self.data().to_vec(), self.sizes(), k, |a, b| a + b);
        DynTensor::from_vec(self.shape().clone(), out)
    }

    /// The running product along `axis`, the shape kept.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let t = DynTensor::from_vec("[T: 3]".parse()?, vec![2, 3, 4])?;
    /// assert_eq!(t.cumprod(&"T".parse()?)?.data(), &[2, 6, 24]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn cumprod(&self, axis: &AxisSelector) -> Result<DynTensor<T>, Error>
    where
        T: Mul<Output = T>,
    {
        let k = crate::dynamic::surgery::find("cumprod", self.shape(), axis)?;
        let out = scan(self.data().to_vec(), self.sizes(), k, |a, b| a * b);
        DynTensor::from_vec(self.shape().clone(), out)
    }
}
