//! Running sums and products along a named axis (`cumsum`, `cumprod`): the shape is kept,
//! element `i` along the axis is the sum (product) of elements `0..=i`, added in that order
//! as NumPy's `np.cumsum`/`np.cumprod` and PyTorch's `torch.cumsum` do. On tensors, views
//! and `DynTensor` (by name or position).

use crate::alloc_prelude::*;

use core::ops::{Add, Mul};

use super::dyn_tensor::DynTensor;
use super::tensor::Tensor;
use super::view::TensorView;
use crate::typed::reduce::{OneAxis, ReduceOver};
use crate::typed::shape::Shape;
use crate::typed::storage::Storage;
use crate::values::error::Error;
use crate::values::selector::AxisSelector;

/// `data` (row-major over `sizes`) with every element along axis `k` replaced by `f` of the
/// running value and itself, from the axis' first element on.
fn scan<T: Clone>(mut data: Vec<T>, sizes: &[usize], k: usize, f: impl Fn(T, T) -> T) -> Vec<T> {
    let n = sizes[k];
    let inner: usize = sizes[k + 1..].iter().product();
    if n < 2 || inner == 0 {
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

impl<T: Clone, S: Storage<T>> Tensor<T, S> {
    /// The running sum along the one axis `A` selects (NumPy's `cumsum`), the shape kept.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(T, D);
    /// let t = Tensor::<i32, shape![T: 3, D: 2]>::from_array([[1, 2], [3, 4], [5, 6]]);
    /// assert_eq!(t.cumsum::<T>().data(), &[1, 2, 4, 6, 9, 12]);
    /// assert_eq!(t.cumsum::<D>().data(), &[1, 3, 3, 7, 5, 11]);
    /// ```
    pub fn cumsum<A: OneAxis>(&self) -> Tensor<T, S>
    where
        S: ReduceOver<A>,
        T: Add<Output = T>,
    {
        let out = scan(
            self.data().to_vec(),
            self.sizes(),
            axis_of::<S, A>(),
            |a, b| a + b,
        );
        Tensor::from_parts(self.sizes(), out)
    }

    /// The running product along the one axis `A` selects (NumPy's `cumprod`), the shape
    /// kept.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(T);
    /// let t = Tensor::<f64, shape![T: 4]>::from_array([1.0, 2.0, 3.0, 0.5]);
    /// assert_eq!(t.cumprod::<T>().data(), &[1.0, 2.0, 6.0, 3.0]);
    /// ```
    pub fn cumprod<A: OneAxis>(&self) -> Tensor<T, S>
    where
        S: ReduceOver<A>,
        T: Mul<Output = T>,
    {
        let out = scan(
            self.data().to_vec(),
            self.sizes(),
            axis_of::<S, A>(),
            |a, b| a * b,
        );
        Tensor::from_parts(self.sizes(), out)
    }
}

impl<T: Clone, S: Shape + Storage<T>> TensorView<'_, T, S> {
    /// [`Tensor::cumsum`] of the view's elements.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(T);
    /// let t = Tensor::<i32, shape![T: 4]>::from_array([1, 2, 3, 4]);
    /// assert_eq!(t.view().slice::<T>(1..)?.cumsum::<T>().data(), &[2, 5, 9]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn cumsum<A: OneAxis>(&self) -> Tensor<T, S>
    where
        S: ReduceOver<A>,
        T: Add<Output = T>,
    {
        let t = self.to_tensor();
        let out = scan(t.into_vec(), self.sizes(), axis_of::<S, A>(), |a, b| a + b);
        Tensor::from_parts(self.sizes(), out)
    }

    /// [`Tensor::cumprod`] of the view's elements.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(T);
    /// let t = Tensor::<i32, shape![T: 4]>::from_array([1, 2, 3, 4]);
    /// assert_eq!(t.view().cumprod::<T>().data(), &[1, 2, 6, 24]);
    /// ```
    pub fn cumprod<A: OneAxis>(&self) -> Tensor<T, S>
    where
        S: ReduceOver<A>,
        T: Mul<Output = T>,
    {
        let t = self.to_tensor();
        let out = scan(t.into_vec(), self.sizes(), axis_of::<S, A>(), |a, b| a * b);
        Tensor::from_parts(self.sizes(), out)
    }
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
