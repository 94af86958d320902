//! ndarray interop (feature `ndarray`): adopt shapecast at one function boundary.
//!
//! Owned arrays move in and out without copying their elements when they are in standard
//! (row-major) layout; views are borrowed both ways, strides and all, when their elements
//! are contiguous in memory. Names come from the target type: ndarray has none, so the
//! conversion checks the rank and the static sizes, and the type supplies the names.
//!
//! ```
//! use ndarray::{array, ArrayD};
//! use shapecast::{names, shape, Tensor};
//!
//! names!(H, W);
//! // A function with shapecast inside and ndarray at its boundary.
//! fn add_rows(m: ArrayD<f32>, row: ArrayD<f32>) -> Result<ArrayD<f32>, shapecast::Error> {
//!     let m = Tensor::<f32, shape![H, W]>::from_ndarray(m)?;
//!     let row = Tensor::<f32, shape![W]>::from_ndarray(row)?;
//!     (&m + &row).into_ndarray()
//! }
//! let m = array![[1.0, 2.0], [3.0, 4.0]].into_dyn();
//! let out = add_rows(m, array![10.0, 20.0].into_dyn())?;
//! assert_eq!(out, array![[11.0, 22.0], [13.0, 24.0]].into_dyn());
//! // A vector where a matrix is expected is an error, not a panic.
//! assert!(add_rows(array![1.0].into_dyn(), array![1.0].into_dyn()).is_err());
//! # Ok::<(), shapecast::Error>(())
//! ```

use ndarray::{
    Array, ArrayD, ArrayView, ArrayViewD, ArrayViewMut, ArrayViewMutD, Dimension, IxDyn,
    ShapeBuilder,
};

#[allow(unused_imports)]
use crate::alloc_prelude::*;
use crate::tensor::DynTensor;
use crate::tensor::{Tensor, TensorView, TensorViewMut};
use crate::typed::shape::Shape;
use crate::typed::storage::Storage;
use crate::values::error::Error;
use crate::values::shape::DynShape;

/// An owned array's elements in row-major order: its own buffer when the layout allows,
/// a copy otherwise.
fn row_major_vec<T: Clone>(array: ArrayD<T>) -> Vec<T> {
    if array.is_standard_layout() {
        let n = array.len();
        // Standard layout: the elements are contiguous from the offset on.
        let (mut data, offset) = array.into_raw_vec_and_offset();
        data.drain(..offset.unwrap_or(0));
        data.truncate(n);
        return data;
    }
    array.iter().cloned().collect()
}

/// The strides of a view as shapecast's (non-negative, in elements), or the reason not.
fn strides_of(strides: &[isize]) -> Result<Vec<usize>, Error> {
    strides
        .iter()
        .map(|&s| usize::try_from(s))
        .collect::<Result<_, _>>()
        .map_err(|_| Error::Layout {
            what: "the ndarray view has a negative stride; make it standard layout first \
                   (`as_standard_layout`)"
                .to_string(),
        })
}

fn not_contiguous() -> Error {
    Error::Layout {
        what: "the ndarray view's elements are not contiguous in memory; make it standard \
               layout first (`as_standard_layout`)"
            .to_string(),
    }
}

impl<T: Clone> TryFrom<ArrayD<T>> for DynTensor<T> {
    type Error = Error;

    /// The array as an unnamed run-time tensor, without copying when it is in standard
    /// layout; an array of rank above [`MAX_RANK`](crate::MAX_RANK) is
    /// [`Error::RankTooLarge`].
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let t = DynTensor::try_from(ndarray::ArrayD::<u8>::zeros(ndarray::IxDyn(&[2, 3])))?;
    /// assert_eq!(t.shape().to_string(), "[2, 3]");
    /// let deep = ndarray::ArrayD::<u8>::zeros(ndarray::IxDyn(&[1; 65]));
    /// assert!(DynTensor::try_from(deep).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    fn try_from(array: ArrayD<T>) -> Result<DynTensor<T>, Error> {
        let sizes = array.shape().to_vec();
        let shape = DynShape::from_sizes(&sizes)?;
        Ok(DynTensor::from_parts(shape, sizes, row_major_vec(array)))
    }
}

impl<T> TryFrom<DynTensor<T>> for ArrayD<T> {
    type Error = Error;

    /// The run-time tensor as an array (its names are dropped), without copying; a tensor
    /// ndarray cannot describe (see [`Tensor::into_ndarray`]) is [`Error::Layout`].
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let t = DynTensor::from_vec("[H: 2]".parse()?, vec![1, 2])?;
    /// assert_eq!(ndarray::ArrayD::try_from(t)?, ndarray::arr1(&[1, 2]).into_dyn());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    fn try_from(tensor: DynTensor<T>) -> Result<ArrayD<T>, Error> {
        let sizes = tensor.sizes().to_vec();
        ArrayD::from_shape_vec(IxDyn(&sizes), tensor.into_vec()).map_err(|e| refused(&sizes, e))
    }
}

/// ndarray's refusal of a shapecast layout. A tensor's data holds its element count and a
/// view's strides stay inside its data, so what remains is a shape ndarray cannot describe:
/// one that holds no element (a size is 0) while its other sizes multiply past `isize::MAX`,
/// which ndarray refuses and shapecast allows.
fn refused(sizes: &[usize], e: ndarray::ShapeError) -> Error {
    Error::Layout {
        what: format!("ndarray cannot hold sizes {sizes:?}: {e}"),
    }
}

impl<T, S: Storage<T>> Tensor<T, S> {
    /// The array (of any dimension type) as a tensor of shape `S`: the same rank and `S`'s
    /// static sizes, with `S`'s names. No copy when the array is in standard layout (and `S`'s storage is a `Vec`).
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let a = ndarray::Array::from_shape_vec((2, 3), (0..6).collect())?;
    /// let t = Tensor::<i32, shape![?, 3]>::from_ndarray(a.clone())?;
    /// assert_eq!(t.sizes(), &[2, 3]);
    /// assert!(Tensor::<i32, shape![?, 4]>::from_ndarray(a).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_ndarray<D: Dimension>(array: Array<T, D>) -> Result<Self, Error>
    where
        T: Clone,
    {
        let array = array.into_dyn();
        let sizes = array.shape().to_vec();
        S::to_dyn().resolve(&sizes)?;
        Ok(Tensor::from_parts(&sizes, row_major_vec(array)))
    }

    /// The tensor as an array (names dropped), without copying a heap buffer.
    ///
    /// # Errors
    ///
    /// [`Error::Layout`] for a tensor ndarray cannot describe: one that holds no element
    /// while its other sizes multiply past `isize::MAX` (`[0, usize::MAX]`), which shapecast
    /// allows and ndarray refuses. The same holds for the other conversions to ndarray.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<i32, shape![2]>::from_array([1, 2]);
    /// assert_eq!(t.into_ndarray()?, ndarray::arr1(&[1, 2]).into_dyn());
    /// let huge = Tensor::<i32, shape![?, ?]>::from_vec_sized(&[0, usize::MAX], vec![])?;
    /// assert!(huge.into_ndarray().is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn into_ndarray(self) -> Result<ArrayD<T>, Error> {
        let sizes = self.sizes().to_vec();
        ArrayD::from_shape_vec(IxDyn(&sizes), self.into_vec()).map_err(|e| refused(&sizes, e))
    }

    /// The tensor as an ndarray view; errors as [`into_ndarray`](Self::into_ndarray).
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<i32, shape![2, 2]>::from_array([[1, 2], [3, 4]]);
    /// assert_eq!(t.as_ndarray()?.sum(), 10);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn as_ndarray(&self) -> Result<ArrayViewD<'_, T>, Error> {
        ArrayViewD::from_shape(IxDyn(self.sizes()), self.data())
            .map_err(|e| refused(self.sizes(), e))
    }

    /// The tensor as a writable ndarray view; errors as [`into_ndarray`](Self::into_ndarray).
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let mut t = Tensor::<i32, shape![2]>::from_array([1, 2]);
    /// t.as_ndarray_mut()?.mapv_inplace(|x| x * 10);
    /// assert_eq!(t.data(), &[10, 20]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn as_ndarray_mut(&mut self) -> Result<ArrayViewMutD<'_, T>, Error> {
        let sizes = self.sizes().to_vec();
        ArrayViewMutD::from_shape(IxDyn(&sizes), self.data_mut()).map_err(|e| refused(&sizes, e))
    }
}

impl<'a, T, S: Shape> TensorView<'a, T, S> {
    /// An ndarray view as a shapecast view of shape `S`, strides and all, without copying;
    /// the view's elements must be contiguous in memory (any axis order) with no negative
    /// stride, and its rank and static sizes those of `S`.
    ///
    /// ```
    /// use shapecast::{names, shape, TensorView};
    /// names!(H, W);
    /// let a = ndarray::Array::from_shape_vec((2, 3), (0..6).collect())?.into_dyn();
    /// let t = a.t(); // transposed: strides [1, 3]
    /// let v = TensorView::<i32, shape![W: 3, H: 2]>::from_ndarray(t)?;
    /// assert_eq!((v.sizes(), v.strides()), (&[3, 2][..], &[1, 3][..]));
    /// assert_eq!(*v.at(&[2, 1])?, 5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_ndarray<D: Dimension>(view: ArrayView<'a, T, D>) -> Result<Self, Error> {
        let view = view.into_dyn();
        let sizes = view.shape().to_vec();
        S::to_dyn().resolve(&sizes)?;
        let strides = strides_of(view.strides())?;
        let data = view.to_slice_memory_order().ok_or_else(not_contiguous)?;
        Ok(TensorView::from_parts(data, sizes, strides))
    }

    /// This view as an ndarray view, strides and all (a broadcast axis keeps stride 0);
    /// errors as [`Tensor::into_ndarray`].
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<i32, shape![3]>::from_array([1, 2, 3]);
    /// let wide = t.broadcast_to::<shape![2, 3]>()?.to_ndarray()?;
    /// assert_eq!(wide, ndarray::arr2(&[[1, 2, 3], [1, 2, 3]]).into_dyn());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn to_ndarray(&self) -> Result<ArrayViewD<'a, T>, Error> {
        let strides = IxDyn(self.strides());
        ArrayViewD::from_shape(IxDyn(self.sizes()).strides(strides), self.data_slice())
            .map_err(|e| refused(self.sizes(), e))
    }
}

impl<'a, T, S: Shape> TensorViewMut<'a, T, S> {
    /// A writable ndarray view as a shapecast one; as [`TensorView::from_ndarray`].
    ///
    /// ```
    /// use shapecast::{shape, TensorViewMut};
    /// let mut a = ndarray::Array::from_shape_vec((2, 2), vec![1, 2, 3, 4])?.into_dyn();
    /// TensorViewMut::<i32, shape![2, 2]>::from_ndarray(a.view_mut())?.fill(0);
    /// assert_eq!(a.sum(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_ndarray<D: Dimension>(view: ArrayViewMut<'a, T, D>) -> Result<Self, Error> {
        let view = view.into_dyn();
        let sizes = view.shape().to_vec();
        S::to_dyn().resolve(&sizes)?;
        let strides = strides_of(view.strides())?;
        let data = view.into_slice_memory_order().ok_or_else(not_contiguous)?;
        Ok(TensorViewMut::from_parts(data, sizes, strides))
    }
}
