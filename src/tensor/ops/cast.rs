//! Conversions between element types, the shape kept: [`Cast`] on tensors and views,
//! `DynTensor::cast` at run time. Each element converts as Rust's `as` does
//! (`num_traits::AsPrimitive`): a float into a narrower float rounds to nearest even
//! ([`f16`](crate::f16), [`bf16`](crate::bf16) from `f32`), a float into an integer truncates
//! toward zero and saturates (NaN gives 0), an integer into a float rounds. PyTorch's
//! `tensor.to(dtype)` and NumPy's `astype` convert the same way, out-of-range
//! float-to-integer values aside (undefined there).

use num_traits::AsPrimitive;

use crate::engine::allocation::ensure;
use crate::engine::raw;
use crate::engine::walk::{contiguous, Offsets};
use crate::tensor::dyn_tensor::DynTensor;
use crate::tensor::receiver::{Contractible, Own};
use crate::tensor::tensor::Tensor;
use crate::typed::storage::Storage;
use crate::values::error::OrPanic;

/// Element type conversion on a [`Tensor`], a [`TensorView`](crate::TensorView) and a
/// [`TensorViewMut`](crate::TensorViewMut) alike: the result has the same shape type, names
/// and sizes, and the elements converted as Rust's `as` converts them. In the
/// [prelude](crate::prelude).
///
/// ```
/// use shapecast::{bf16, f16, names, shape, Cast, Tensor};
/// names!(OUT, IN);
/// let w = Tensor::<f32, shape![OUT: 2, IN: 2]>::from_array([[1.0, 0.1], [-2.5, 65504.0]]);
/// // To half precision and back: the shape and names are kept.
/// let h: Tensor<f16, shape![OUT: 2, IN: 2]> = w.cast::<f16>();
/// let back: Tensor<f32, shape![OUT: 2, IN: 2]> = h.cast::<f32>();
/// assert_eq!(back.data(), &[1.0, 0.099975586, -2.5, 65504.0]);
/// // bf16 keeps f32's range with 8 bits of mantissa.
/// assert_eq!(w.cast::<bf16>().cast::<f32>().data(), &[1.0, 0.100097656, -2.5, 65536.0]);
/// // A transposed view converts in its own order.
/// let t = w.align_to::<shape![IN: 2, OUT: 2]>()?.cast::<i32>();
/// assert_eq!(t.data(), &[1, -2, 0, 65504]);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub trait Cast: Contractible {
    /// This tensor's elements converted to `U`, the shape kept.
    ///
    /// # Panics
    ///
    /// When a broadcast view stands for more elements than memory holds (the message of
    /// [`Error::TooLarge`](crate::Error::TooLarge)).
    ///
    /// ```
    /// use shapecast::{shape, Cast, Tensor};
    /// let labels = Tensor::<i64, shape![3]>::from_array([0, 2, -1]);
    /// assert_eq!(labels.cast::<f64>().data(), &[0.0, 2.0, -1.0]);
    /// ```
    #[track_caller]
    fn cast<U>(&self) -> Tensor<U, Self::Shape>
    where
        U: Copy + 'static,
        Self::Elem: AsPrimitive<U>,
        Self::Shape: Storage<U>,
    {
        let mut own = Own::default();
        let x = self.layout(&mut own);
        ensure::<U>(x.sizes, || self.shape_dyn()).or_panic();
        let data = match contiguous(&x) {
            // A contiguous operand converts in one pass over its slice.
            Some(elements) => raw::map_to_vec_here(elements, |v| v.as_()),
            None => Offsets::new(x.sizes, x.strides)
                .map(|o| x.data[o].as_())
                .collect(),
        };
        Tensor::from_parts(x.sizes, data)
    }
}

impl<X: Contractible + ?Sized> Cast for X {}

impl<T: Copy + 'static> DynTensor<T> {
    /// This tensor's elements converted to `U` (as [`Cast::cast`]), the shape kept.
    ///
    /// ```
    /// use shapecast::{f16, DynTensor};
    /// let t = DynTensor::from_vec("[BATCH: 2]".parse()?, vec![0.5f32, 3.0])?;
    /// let h: DynTensor<f16> = t.cast();
    /// assert_eq!(h.shape().to_string(), "[BATCH: 2]");
    /// assert_eq!(h.data(), &[f16::from_f32(0.5), f16::from_f32(3.0)]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn cast<U: Copy + 'static>(&self) -> DynTensor<U>
    where
        T: AsPrimitive<U>,
    {
        let data = self.data().iter().map(|v| v.as_()).collect();
        DynTensor::from_parts(self.shape().clone(), self.sizes().to_vec(), data)
    }
}
