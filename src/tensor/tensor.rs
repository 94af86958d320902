//! Tensors whose shape is a type: `Tensor<T, S>` for a [`shape!`](crate::shape) type `S`.
//! Arithmetic broadcasts by the named rule; shapes that cannot broadcast do not compile,
//! and `?` sizes are checked at run time (operators panic with the rule book §15 message, as
//! ndarray and nalgebra do; `try_add` and friends return a `Result`).
//!
//! ```
//! use shapecast::{names, shape, Tensor};
//!
//! names!(CHANNEL, H, W);
//! let img: Tensor<f32, shape![?, CHANNEL: 3, H, W]> =
//!     Tensor::from_fn(&[2, 3, 4, 5], |i| i[1] as f32)?;
//! let lbl: Tensor<f32, shape![?, H, W]> = Tensor::from_fn(&[2, 4, 5], |i| i[2] as f32 / 10.0)?;
//! let sum = &img + &lbl; // Tensor<f32, shape![?, CHANNEL: 3, H, W]>
//! assert_eq!(*sum.at(&[1, 2, 3, 4])?, 2.4);
//! # Ok::<(), shapecast::Error>(())
//! ```
//!
//! ```compile_fail
//! use shapecast::{shape, Tensor};
//! let a: Tensor<f32, shape![3, 4]> = Tensor::full(0.0).unwrap();
//! let b: Tensor<f32, shape![5]> = Tensor::full(0.0).unwrap();
//! let _ = &a + &b; // cannot broadcast `(S<3>, S<4>)` with `(S<5>,)` under the named rule
//! ```

use crate::alloc_prelude::*;

use alloc::borrow::Cow;

use core::fmt;

use super::dyn_tensor::DynTensor;
use super::elements::ArrayOf;
use super::index::Index;
use super::ops::elementwise::Operand;
use crate::engine::layout::row_major;
use crate::engine::walk::iab_offset;
use crate::typed::shape::Shape;
use crate::typed::storage::{Buffer, Storage};
use crate::typed::surgery::HasAxis;
use crate::values::error::Error;
use crate::values::shape::DynShape;

/// A tensor of `T` with the type-level shape `S`.
///
/// ```
/// use shapecast::{shape, Tensor};
/// let t: Tensor<i32, shape![2, 2]> = Tensor::from_vec(vec![1, 2, 3, 4])?;
/// assert_eq!(t.sizes(), &[2, 2]);
/// # Ok::<(), shapecast::Error>(())
/// ```
///
/// The elements live inline (no heap) when every size of `S` is static and there are at most
/// [`INLINE_MAX`](crate::INLINE_MAX) of them, in a `Vec` otherwise; see [`Storage`].
pub struct Tensor<T, S: Shape> {
    pub(super) sizes: S::Sizes,
    pub(super) data: <S as Storage<T>>::Buf,
}

impl<T: Clone, S: Shape> Clone for Tensor<T, S> {
    fn clone(&self) -> Self {
        Tensor {
            sizes: self.sizes,
            data: self.data.clone_buf(),
        }
    }
}

/// A copy of a borrowed tensor, so that an API taking `impl Into<Tensor<T, S>>` (as
/// [`Tape::constant`](crate::train::Tape::constant)) takes `x` and `&x` alike.
///
/// ```
/// use shapecast::{shape, Tensor};
/// let x = Tensor::<f32, shape![2]>::from_array([1.0, 2.0]);
/// let y: Tensor<f32, shape![2]> = (&x).into();
/// assert_eq!(y.data(), x.data());
/// ```
impl<T: Clone, S: Shape> From<&Tensor<T, S>> for Tensor<T, S> {
    fn from(t: &Tensor<T, S>) -> Self {
        t.clone()
    }
}

impl<T: fmt::Debug, S: Storage<T>> fmt::Debug for Tensor<T, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tensor")
            .field("shape", &self.shape().to_string())
            .field("data", &self.data())
            .finish()
    }
}

/// Equal sizes and equal elements.
///
/// ```
/// use shapecast::{shape, Tensor};
/// let a = Tensor::<i32, shape![2]>::from_vec(vec![1, 2])?;
/// assert_eq!(a, Tensor::from_array([1, 2]));
/// # Ok::<(), shapecast::Error>(())
/// ```
impl<T: PartialEq, S: Storage<T>> PartialEq for Tensor<T, S> {
    fn eq(&self, other: &Self) -> bool {
        self.sizes() == other.sizes() && self.data() == other.data()
    }
}

impl<T, S: Storage<T>> Tensor<T, S> {
    /// A tensor from parts the caller has checked: `sizes` fit `S` and `data` holds their
    /// element count.
    pub(crate) fn from_parts(sizes: &[usize], data: Vec<T>) -> Self {
        let mut all = S::Sizes::default();
        all.as_mut().copy_from_slice(sizes);
        let data = match S::Buf::from_vec(data) {
            Ok(buf) => buf,
            // Every caller passes data of the sizes' element count (the reason this is not
            // public); the buffer refuses only a different count.
            Err(_) => unreachable!("the element count was checked against the sizes"),
        };
        Tensor { sizes: all, data }
    }

    /// A tensor of the buffer `data`, whose length the caller has matched to `sizes`.
    pub(crate) fn from_buf(sizes: &[usize], data: <S as Storage<T>>::Buf) -> Self {
        let mut all = S::Sizes::default();
        all.as_mut().copy_from_slice(sizes);
        Tensor { sizes: all, data }
    }

    /// `S` with this tensor's sizes: the run-time shape.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(H);
    /// let t = Tensor::<u8, shape![?, H: 2]>::from_vec_sized(&[3, 2], vec![0; 6])?;
    /// assert_eq!(t.shape().to_string(), "[3, H: 2]");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn shape(&self) -> DynShape {
        // The sizes were checked against `S` when the tensor was made, and `resolve` counts
        // elements with the zero short-cut, so a tensor's own sizes never overflow it
        // (`tests/bad_input.rs` holds `[0, usize::MAX, usize::MAX]`).
        S::to_dyn()
            .resolve(self.sizes())
            .expect("a tensor's sizes fit its shape")
    }

    /// The size of the axis `A` picks: a name, or [`Pos<K>`](crate::Pos). A name the shape
    /// lacks is a compile error.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(BATCH, SEQ, DK);
    /// let q = Tensor::<f32, shape![BATCH, SEQ, DK: 64]>::zeros_sized(&[2, 5, 64])?;
    /// let scale = 1.0 / (q.size::<DK>() as f32).sqrt();
    /// assert_eq!((q.size::<SEQ>(), scale), (5, 0.125));
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn size<A>(&self) -> usize
    where
        S: HasAxis<A>,
    {
        self.sizes()[<S as HasAxis<A>>::AT]
    }

    /// The tensor as an operand of the kernel. Its shape is `S` as written, `?` and all, so
    /// that the rule sees what the types say (under the static rule a `?` that happens to be
    /// 1 must still not stretch); the run-time checks then meet the actual sizes.
    pub(crate) fn operand(&self) -> Operand<'_, T> {
        Operand {
            shape: Cow::Owned(S::to_dyn()),
            sizes: self.sizes(),
            strides: None,
            data: self.data(),
        }
    }

    /// `S` with its `?` sizes taken from `sizes` (all of `S`'s sizes, in order).
    fn resolved(sizes: &[usize]) -> Result<DynShape, Error> {
        S::to_dyn().resolve(sizes)
    }

    /// `S` when every size is static.
    fn static_shape() -> Result<DynShape, Error> {
        let shape = S::to_dyn();
        match shape.known_sizes() {
            Some(_) => Ok(shape),
            None => Err(Error::UnknownSize { shape }),
        }
    }

    /// A tensor of a fully static shape from its data in row-major order.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// assert!(Tensor::<u8, shape![2, 3]>::from_vec(vec![0; 6]).is_ok());
    /// assert!(Tensor::<u8, shape![2, 3]>::from_vec(vec![0; 5]).is_err());
    /// assert!(Tensor::<u8, shape![?, 3]>::from_vec(vec![0; 6]).is_err()); // say the `?` size
    /// ```
    pub fn from_vec(data: Vec<T>) -> Result<Self, Error> {
        Self::wrap(DynTensor::from_vec(Self::static_shape()?, data)?)
    }

    /// A tensor from its sizes (all of them, `?` ones included) and its data.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<u8, shape![?, 3]>::from_vec_sized(&[2, 3], vec![0; 6])?;
    /// assert_eq!(t.sizes(), &[2, 3]);
    /// assert!(Tensor::<u8, shape![?, 3]>::from_vec_sized(&[2, 4], vec![0; 8]).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn from_vec_sized(sizes: &[usize], data: Vec<T>) -> Result<Self, Error> {
        Self::wrap(DynTensor::from_vec(Self::resolved(sizes)?, data)?)
    }

    /// A tensor whose element at each index is `f(index)`, with the given sizes. The index
    /// reads as a slice of positions (`i[0]`) or by axis name (`i.at::<SEQ>()`, see
    /// [`Index`]): by name, the function keeps its meaning if the shape's axes are reordered.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(SEQ, KSEQ);
    /// let t = Tensor::<usize, shape![?, 2]>::from_fn(&[2, 2], |i| i[0] + i[1])?;
    /// assert_eq!(t.data(), &[0, 1, 1, 2]);
    /// let causal = Tensor::<f32, shape![SEQ, KSEQ]>::from_fn(&[2, 2], |i| {
    ///     if i.at::<KSEQ>() > i.at::<SEQ>() { -1e9 } else { 0.0 }
    /// })?;
    /// assert_eq!(causal.data(), &[0.0, -1e9, 0.0, 0.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn from_fn(sizes: &[usize], mut f: impl FnMut(&Index<'_, S>) -> T) -> Result<Self, Error> {
        Self::wrap(DynTensor::from_fn(Self::resolved(sizes)?, |at| {
            f(&Index::new(at))
        })?)
    }

    /// A tensor of a fully static shape whose element at each index is `f(index)`: no sizes to
    /// repeat and no `Result`. A `?` in `S`, or static sizes whose product passes `usize`, is
    /// refused when the call is built (a constant evaluated per shape: `cargo build` and `cargo
    /// test` report it, `cargo check` does not); use [`from_fn`](Self::from_fn) with the sizes.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(SEQ, HALF);
    /// const MAX_SEQ: usize = 4;
    /// let angle = Tensor::<f32, shape![SEQ: MAX_SEQ, HALF: 2]>::generate(|i| {
    ///     i.at::<SEQ>() as f32 / 10f32.powi(i.at::<HALF>() as i32)
    /// });
    /// assert_eq!(angle.data()[2..4], [1.0, 0.1]);
    /// ```
    ///
    /// ```compile_fail
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<f32, shape![?, 2]>::generate(|i| i[1] as f32); // the `?` has no size
    /// ```
    pub fn generate(mut f: impl FnMut(&Index<'_, S>) -> T) -> Self {
        const {
            assert!(
                static_count(S::SIZES).is_some(),
                "`generate` needs a fully static shape whose element count fits `usize`: \
                 use `from_fn` with the sizes"
            )
        };
        let sizes: Vec<usize> = S::SIZES.iter().map(|n| n.unwrap_or(0)).collect();
        let count = static_count(S::SIZES).unwrap_or(0);
        let mut index = vec![0usize; sizes.len()];
        let mut data = Vec::with_capacity(count);
        for _ in 0..count {
            data.push(f(&Index::new(&index)));
            for k in (0..sizes.len()).rev() {
                index[k] += 1;
                if index[k] < sizes[k] {
                    break;
                }
                index[k] = 0;
            }
        }
        Tensor::from_parts(&sizes, data)
    }

    /// A tensor of a fully static shape with every element `value`.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// assert_eq!(Tensor::<f64, shape![2]>::full(0.5)?.data(), &[0.5, 0.5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn full(value: T) -> Result<Self, Error>
    where
        T: Clone,
    {
        Self::wrap(DynTensor::full(Self::static_shape()?, value)?)
    }

    /// Checked conversion from a run-time tensor: same rank, names, and static sizes as `S`.
    ///
    /// ```
    /// use shapecast::{names, shape, DynTensor, Tensor};
    /// names!(H);
    /// let d = DynTensor::full("[H: 2, 3]".parse()?, 0)?;
    /// assert!(Tensor::<i32, shape![H, 3]>::from_dyn(d.clone()).is_ok());
    /// assert!(Tensor::<i32, shape![H, 4]>::from_dyn(d).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn from_dyn(tensor: DynTensor<T>) -> Result<Self, Error> {
        let expected = Self::resolved(tensor.sizes())?;
        if &expected != tensor.shape() {
            return Err(Error::SizesMismatch {
                shape: S::to_dyn(),
                sizes: tensor.sizes().to_vec(),
            });
        }
        Self::wrap(tensor)
    }

    /// The tensor holding a run-time tensor's data, which the caller has checked against `S`.
    fn wrap(checked: DynTensor<T>) -> Result<Self, Error> {
        let sizes = checked.sizes().to_vec();
        Ok(Self::from_parts(&sizes, checked.into_vec()))
    }

    /// A tensor of a fully static shape with every element zero.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// assert_eq!(Tensor::<f32, shape![2]>::zeros()?.data(), &[0.0, 0.0]);
    /// assert!(Tensor::<f32, shape![?]>::zeros().is_err()); // say the `?` size: zeros_sized
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn zeros() -> Result<Self, Error>
    where
        T: Clone + num_traits::Zero,
    {
        Self::full(T::zero())
    }

    /// A tensor of a fully static shape with every element one.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// assert_eq!(Tensor::<u8, shape![3]>::ones()?.data(), &[1, 1, 1]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn ones() -> Result<Self, Error>
    where
        T: Clone + num_traits::One,
    {
        Self::full(T::one())
    }

    /// A tensor of zeros with the given sizes (all of them, `?` ones included).
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// assert_eq!(Tensor::<i64, shape![?, 2]>::zeros_sized(&[2, 2])?.data(), &[0; 4]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn zeros_sized(sizes: &[usize]) -> Result<Self, Error>
    where
        T: Clone + num_traits::Zero,
    {
        Self::wrap(DynTensor::full(Self::resolved(sizes)?, T::zero())?)
    }

    /// A tensor of ones with the given sizes (all of them, `?` ones included).
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// assert_eq!(Tensor::<f64, shape![?]>::ones_sized(&[2])?.data(), &[1.0, 1.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn ones_sized(sizes: &[usize]) -> Result<Self, Error>
    where
        T: Clone + num_traits::One,
    {
        Self::wrap(DynTensor::full(Self::resolved(sizes)?, T::one())?)
    }

    /// A tensor of a fully static shape from nested arrays, outermost axis first. The
    /// array's dimensions must be `S`'s sizes ([`ArrayOf`](crate::ArrayOf)); anything else
    /// is a compile error that `cargo check` reports.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(H, W);
    /// let t = Tensor::<i32, shape![H: 2, W: 3]>::from_array([[1, 2, 3], [4, 5, 6]]);
    /// assert_eq!(t.data(), &[1, 2, 3, 4, 5, 6]);
    /// let s = Tensor::<i32, shape![]>::from_array(7);
    /// assert_eq!(s.data(), &[7]);
    /// ```
    ///
    /// ```compile_fail
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<i32, shape![3, 2]>::from_array([[1, 2, 3], [4, 5, 6]]); // 2x3, not 3x2
    /// ```
    pub fn from_array<A: ArrayOf<T, S>>(array: A) -> Self {
        let mut sizes = S::Sizes::default();
        for (n, known) in sizes.as_mut().iter_mut().zip(S::SIZES) {
            *n = known.unwrap_or(0);
        }
        Self::from_parts(sizes.as_ref(), array.into_elements())
    }

    /// The elements in row-major order.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<i32, shape![3]>::from_vec(vec![1, 2, 3])?;
    /// assert_eq!(t.iter().max(), Some(&3));
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn iter(&self) -> core::slice::Iter<'_, T> {
        self.data().iter()
    }

    /// The data, row-major, for writing.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let mut t = Tensor::<i32, shape![2]>::from_vec(vec![1, 2])?;
    /// t.data_mut()[1] = 5;
    /// assert_eq!(t.data(), &[1, 5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn data_mut(&mut self) -> &mut [T] {
        self.data.as_mut_slice()
    }

    /// The data, row-major, by value.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// assert_eq!(Tensor::<u8, shape![2]>::from_vec(vec![4, 5])?.into_vec(), vec![4, 5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn into_vec(self) -> Vec<T> {
        self.data.into_vec()
    }

    /// The run-time tensor.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<u8, shape![2]>::full(1)?;
    /// assert_eq!(t.into_dyn().shape().to_string(), "[2]");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn into_dyn(self) -> DynTensor<T> {
        let (shape, sizes) = (self.shape(), self.sizes().to_vec());
        DynTensor::from_parts(shape, sizes, self.data.into_vec())
    }

    /// The run-time tensor, copied.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<u8, shape![?]>::from_vec_sized(&[3], vec![1, 2, 3])?;
    /// assert_eq!(t.to_dyn().shape().to_string(), "[3]");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn to_dyn(&self) -> DynTensor<T>
    where
        T: Clone,
    {
        DynTensor::from_parts(self.shape(), self.sizes().to_vec(), self.data().to_vec())
    }

    /// The sizes, `?` ones resolved.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// assert_eq!(Tensor::<u8, shape![?, 2]>::from_vec_sized(&[1, 2], vec![0, 0])?.sizes(), &[1, 2]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn sizes(&self) -> &[usize] {
        self.sizes.as_ref()
    }

    /// The data, row-major.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// assert_eq!(Tensor::<u8, shape![2]>::from_vec(vec![4, 5])?.data(), &[4, 5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn data(&self) -> &[T] {
        self.data.as_slice()
    }

    /// Index-access broadcasting (rule book §12), as [`DynTensor::at`].
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let a = Tensor::<i32, shape![1, 2]>::from_vec(vec![3, 4])?;
    /// assert_eq!(*a.at(&[999, 1, 1000, 2000])?, 4);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn at(&self, index: &[usize]) -> Result<&T, Error> {
        let sizes = self.sizes();
        match iab_offset(sizes, &row_major(sizes), index) {
            Ok(offset) => Ok(&self.data()[offset]),
            Err(reason) => Err(Error::Index {
                shape: self.shape(),
                reason,
            }),
        }
    }

    /// [`at`](Self::at) for writing.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let mut a = Tensor::<i32, shape![1, 2]>::from_vec(vec![3, 4])?;
    /// *a.at_mut(&[999, 1])? = 5;
    /// assert_eq!(a.data(), &[3, 5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn at_mut(&mut self, index: &[usize]) -> Result<&mut T, Error> {
        let offset = match iab_offset(self.sizes(), &row_major(self.sizes()), index) {
            Ok(offset) => offset,
            Err(reason) => {
                return Err(Error::Index {
                    shape: self.shape(),
                    reason,
                })
            }
        };
        Ok(&mut self.data.as_mut_slice()[offset])
    }
}

/// The element count of a fully static shape, `None` for a `?` or a count past `usize`.
const fn static_count(sizes: &[Option<usize>]) -> Option<usize> {
    let mut count = 1usize;
    let mut k = 0;
    while k < sizes.len() {
        match sizes[k] {
            Some(n) => match count.checked_mul(n) {
                Some(c) => count = c,
                None => return None,
            },
            None => return None,
        }
        k += 1;
    }
    Some(count)
}
