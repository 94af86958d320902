//! Tensors whose shape is a type: `Tensor<T, S>` for a [`shape!`](crate::shape) type `S`.
//! Arithmetic broadcasts by the named rule; shapes that cannot broadcast do not compile,
//! and `?` sizes are checked at run time (operators panic with the SPEC §15 message, as
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

use crate::prelude::*;

use core::fmt;
use core::ops;

use crate::dynamic::shape::DynShape;
use crate::error::Error;
use crate::kernel::{row_major, zip_static, StaticLayout};
use crate::rule::{Assign, Bidirectional, Compare};
use crate::tensor::{iab_offset, zip_operands, DynTensor, Operand};
use crate::typed::broadcast::{Broadcast, BroadcastBy, BroadcastWith, BroadcastsUnder, RuleMarker};
use crate::typed::list::FromRev;
use crate::typed::list::StaticPlan;
use crate::typed::narrow::{DropOnes, Narrow};
use crate::typed::shape::Shape;
use crate::typed::storage::{Buffer, Storage};
use crate::view::{TensorView, TensorViewMut};

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
pub struct Tensor<T, S: Storage<T>> {
    sizes: [usize; MAX_TYPED_RANK],
    data: S::Buf,
}

/// The largest rank a shape type has (`shape!` writes at most 16 axes).
const MAX_TYPED_RANK: usize = 16;

impl<T, S: Storage<T>> Clone for Tensor<T, S>
where
    S::Buf: Clone,
{
    fn clone(&self) -> Self {
        Tensor {
            sizes: self.sizes,
            data: self.data.clone(),
        }
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
        let mut all = [0; MAX_TYPED_RANK];
        all[..sizes.len()].copy_from_slice(sizes);
        let data = match S::Buf::from_vec(data) {
            Ok(buf) => buf,
            Err(_) => unreachable!("the element count was checked against the sizes"),
        };
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
        S::to_dyn()
            .resolve(self.sizes())
            .expect("a tensor's sizes fit its shape")
    }

    /// The tensor as an operand of the kernel. Its shape is `S` as written, `?` and all, so
    /// that the rule sees what the types say (under the static rule a `?` that happens to be
    /// 1 must still not stretch); the run-time checks then meet the actual sizes.
    pub(crate) fn operand(&self) -> Operand<'_, T> {
        Operand {
            shape: S::to_dyn(),
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

    /// A tensor whose element at each index is `f(index)`, with the given sizes.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<usize, shape![?, 2]>::from_fn(&[2, 2], |i| i[0] + i[1])?;
    /// assert_eq!(t.data(), &[0, 1, 1, 2]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn from_fn(sizes: &[usize], f: impl FnMut(&[usize]) -> T) -> Result<Self, Error> {
        Self::wrap(DynTensor::from_fn(Self::resolved(sizes)?, f)?)
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
    /// array's dimensions must be `S`'s sizes; anything else does not compile.
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
    pub fn from_array<A: NestedArray<T, D>, D>(array: A) -> Self {
        const {
            assert!(
                dims_are(A::DIMS, S::SIZES),
                "from_array: the array's dimensions are not the shape's static sizes"
            )
        };
        Self::from_parts(A::DIMS, array.into_elements())
    }

    /// A read-only view (see [`TensorView`]).
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<i32, shape![2]>::from_vec(vec![1, 2])?;
    /// assert_eq!(t.view().iter().count(), 2);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn view(&self) -> TensorView<'_, T, S> {
        TensorView::contiguous(self.data(), self.sizes())
    }

    /// A writable view (see [`TensorViewMut`]).
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let mut t = Tensor::<i32, shape![2]>::from_vec(vec![1, 2])?;
    /// t.view_mut().fill(0);
    /// assert_eq!(t.data(), &[0, 0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn view_mut(&mut self) -> TensorViewMut<'_, T, S> {
        let sizes = self.sizes;
        TensorViewMut::contiguous(self.data.as_mut_slice(), &sizes[..S::RANK])
    }

    /// A zero-copy view broadcast to `Target` by the bidirectional rule (SPEC §9); see
    /// [`TensorView::broadcast_to`].
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<i32, shape![3, 1]>::from_vec(vec![1, 2, 3])?;
    /// assert_eq!(t.broadcast_to::<shape![1, 1]>()?.sizes(), &[3, 1]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn broadcast_to<Target: Shape>(
        &self,
    ) -> Result<TensorView<'_, T, BroadcastBy<Bidirectional, S, Target>>, Error>
    where
        S: BroadcastsUnder<Bidirectional, Target>,
    {
        self.view().broadcast_to::<Target>()
    }

    /// A zero-copy view with the axes in `Target`'s order; see [`TensorView::align_to`].
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(C, H);
    /// let t = Tensor::<i32, shape![C: 2, H: 2]>::from_vec(vec![1, 2, 3, 4])?;
    /// assert_eq!(t.align_to::<shape![H: 2, C: 2]>()?.to_tensor().data(), &[1, 3, 2, 4]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn align_to<Target>(&self) -> Result<TensorView<'_, T, Target>, Error>
    where
        Target: BroadcastsUnder<Assign, S>,
    {
        self.view().align_to::<Target>()
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

    /// Narrowcasting (SPEC §11): the same elements without the axes that are statically 1;
    /// when every axis is statically 1, the element itself. A `?` axis stays, whatever its
    /// run-time size; only the outer level of a nested tensor is narrowed.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<i32, shape![1, 3, 1]>::from_vec(vec![1, 2, 3])?;
    /// let n: Tensor<i32, shape![3]> = t.narrow();
    /// assert_eq!(n.data(), &[1, 2, 3]);
    /// let one = Tensor::<i32, shape![1, 1, 1]>::from_vec(vec![42])?;
    /// let x: i32 = one.narrow(); // [1, 1, 1] of i32 gives i32
    /// assert_eq!(x, 42);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn narrow(self) -> <Narrow<S> as ElementOr<T>>::Out
    where
        S::Rev: DropOnes,
        <S::Rev as DropOnes>::Out: FromRev,
        Narrow<S>: ElementOr<T> + Shape,
    {
        let kept = self
            .sizes()
            .iter()
            .zip(S::SIZES)
            .filter(|(_, known)| **known != Some(1))
            .map(|(&n, _)| n)
            .collect::<Vec<_>>();
        <Narrow<S> as ElementOr<T>>::wrap(&kept, self.data.into_vec())
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
        &self.sizes[..S::RANK]
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

    /// Index-access broadcasting (SPEC §12), as [`DynTensor::at`].
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

    /// `f(self, rhs)` elementwise by the named rule; fails only on a `?` size that does not
    /// fit (the shapes are checked at compile time).
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let a = Tensor::<i32, shape![?]>::from_vec_sized(&[2], vec![1, 2])?;
    /// let b = Tensor::<i32, shape![3]>::from_vec(vec![1, 2, 3])?;
    /// assert!(a.try_zip_with(&b, |x, y| x + y).is_err()); // 2 against 3
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn try_zip_with<U: Copy, V, B>(
        &self,
        rhs: &Tensor<U, B>,
        f: impl Fn(T, U) -> V,
    ) -> Result<Tensor<V, Broadcast<S, B>>, Error>
    where
        T: Copy,
        S: BroadcastWith<B>,
        B: Storage<U>,
        Broadcast<S, B>: Storage<V>,
    {
        self.zip_by::<ByNamed, _, _, _, _>(rhs, |x, y| f(*x, *y))
    }

    /// The kernel under a run-time rule whose output type `O` the caller has checked.
    ///
    /// When all three shapes are static the plan is a compile-time constant: no check is
    /// left, and the kernel runs over a layout worked out at compile time.
    fn zip_by<P: PlanFor<S, B>, U, V, O: Storage<V>, B: Storage<U>>(
        &self,
        rhs: &Tensor<U, B>,
        f: impl Fn(&T, &U) -> V,
    ) -> Result<Tensor<V, O>, Error> {
        if const { all_static(S::SIZES) && all_static(B::SIZES) && all_static(O::SIZES) } {
            let layout = const { static_layout::<P, S, B, O>() };
            let mut data = Vec::with_capacity(layout.total());
            zip_static(&layout, self.data(), rhs.data(), &mut data, f);
            return Ok(Tensor::from_parts(&static_sizes(O::SIZES), data));
        }
        let mut data = Vec::new();
        let (_, sizes) = zip_operands(P::RULE, self.operand(), rhs.operand(), &mut data, f)?;
        Ok(Tensor::from_parts(&sizes, data))
    }

    /// [`zip_by`](Self::zip_by) into `out`, which is left as it was on error.
    fn zip_into<P: PlanFor<S, B>, U, V, O: Storage<V>, B: Storage<U>>(
        &self,
        rhs: &Tensor<U, B>,
        out: &mut Tensor<V, O>,
        f: impl Fn(&T, &U) -> V,
    ) -> Result<(), Error> {
        if const { all_static(S::SIZES) && all_static(B::SIZES) && all_static(O::SIZES) } {
            let layout = const { static_layout::<P, S, B, O>() };
            zip_static(&layout, self.data(), rhs.data(), out.data.as_mut_slice(), f);
            return Ok(());
        }
        let mut sizes = Vec::new();
        out.data.write_with(|data| {
            let (_, s) = zip_operands(P::RULE, self.operand(), rhs.operand(), data, f)?;
            sizes = s;
            Ok::<(), Error>(())
        })?;
        out.sizes[..sizes.len()].copy_from_slice(&sizes);
        Ok(())
    }

    /// `self = f(self, rhs)` by the assignment rule, borrowing the elements.
    fn assign_by<U, B: Storage<U>>(
        &mut self,
        rhs: &Tensor<U, B>,
        f: impl Fn(&T, &U) -> T,
    ) -> Result<(), Error> {
        let mut data = Vec::new();
        zip_operands(Assign::RULE, self.operand(), rhs.operand(), &mut data, f)?;
        // The assignment rule keeps the destination's shape, sizes included.
        self.data = match S::Buf::from_vec(data) {
            Ok(buf) => buf,
            Err(_) => unreachable!("the assignment rule keeps the element count"),
        };
        Ok(())
    }

    /// `f` applied to every element, borrowed.
    fn map_ref<V>(&self, f: impl Fn(&T) -> V) -> Tensor<V, S>
    where
        S: Storage<V>,
    {
        Tensor::from_parts(self.sizes(), self.data().iter().map(f).collect())
    }
}

impl<T: Copy, S: Storage<T>> Tensor<T, S> {
    /// `f(self, rhs)` elementwise under the rule `R` (a marker of [`rule`](crate::rule)): the
    /// shapes are checked at compile time, `?` sizes at run time.
    ///
    /// ```
    /// use shapecast::{rule::Pdpd, rule::Start, shape, Tensor};
    /// let a = Tensor::<i32, shape![2, 3, 2]>::from_fn(&[2, 3, 2], |i| i[1] as i32)?;
    /// let b = Tensor::<i32, shape![3, 1]>::from_vec(vec![10, 20, 30])?;
    /// let c = a.zip_with_rule::<Pdpd<Start<1>>, _, _, _>(&b, |x, y| x + y)?;
    /// assert_eq!(*c.at(&[1, 2, 1])?, 32);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn zip_with_rule<R: RuleMarker, U: Copy, V, B>(
        &self,
        rhs: &Tensor<U, B>,
        f: impl Fn(T, U) -> V,
    ) -> Result<Tensor<V, BroadcastBy<R, S, B>>, Error>
    where
        S: BroadcastsUnder<R, B>,
        B: Storage<U>,
        BroadcastBy<R, S, B>: Storage<V>,
    {
        self.zip_by::<ByRule<R>, _, _, _, _>(rhs, |x, y| f(*x, *y))
    }

    /// `f` applied to every element.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<i32, shape![3]>::from_vec(vec![1, 2, 3])?;
    /// assert_eq!(t.map(|x| x * x).data(), &[1, 4, 9]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn map<V>(&self, f: impl Fn(T) -> V) -> Tensor<V, S>
    where
        S: Storage<V>,
    {
        self.map_ref(|&x| f(x))
    }

    /// `self = f(self, rhs)` by the assignment rule (SPEC §10): `rhs` broadcasts into `self`,
    /// whose shape never changes; fails only on a `?` size that does not fit.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let mut a = Tensor::<i32, shape![3, 3]>::full(0)?;
    /// a.try_assign_with(&Tensor::<i32, shape![3]>::from_vec(vec![1, 2, 3])?, |_, y| y)?;
    /// assert_eq!(a.data(), &[1, 2, 3, 1, 2, 3, 1, 2, 3]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn try_assign_with<U: Copy, B: Storage<U>>(
        &mut self,
        rhs: &Tensor<U, B>,
        f: impl Fn(T, U) -> T,
    ) -> Result<(), Error>
    where
        S: BroadcastsUnder<Assign, B>,
    {
        self.assign_by(rhs, |x, y| f(*x, *y))
    }

    /// Copies `rhs` into `self` by the assignment rule (TML's `a = b`).
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let mut a = Tensor::<i32, shape![2]>::full(0)?;
    /// a.assign(&Tensor::<i32, shape![]>::from_vec(vec![7])?);
    /// assert_eq!(a.data(), &[7, 7]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn assign<B: Storage<T>>(&mut self, rhs: &Tensor<T, B>)
    where
        S: BroadcastsUnder<Assign, B>,
    {
        self.try_assign_with(rhs, |_, y| y)
            .unwrap_or_else(|e| panic!("{e}"));
    }
}

/// Comparisons (SPEC §6): a scalar operand, or identical shapes; the result holds booleans.
macro_rules! comparison {
    ($name:ident, $op:tt, $doc:literal) => {
        impl<T: Copy + PartialOrd, S: Storage<T>> Tensor<T, S> {
            #[doc = concat!("`self ", $doc, " rhs` elementwise by the comparison rule (SPEC §6).")]
            ///
            /// ```
            /// use shapecast::{shape, Tensor};
            /// let a = Tensor::<i32, shape![3]>::from_vec(vec![1, 2, 3])?;
            /// let b = Tensor::<i32, shape![]>::from_vec(vec![2])?;
            #[doc = concat!("assert_eq!(a.", stringify!($name), "(&b)?.sizes(), &[3]);")]
            /// # Ok::<(), shapecast::Error>(())
            /// ```
            pub fn $name<B: Storage<T>>(
                &self,
                rhs: &Tensor<T, B>,
            ) -> Result<Tensor<bool, BroadcastBy<Compare, S, B>>, Error>
            where
                S: BroadcastsUnder<Compare, B>,
                BroadcastBy<Compare, S, B>: Storage<bool>,
            {
                self.zip_with_rule::<Compare, _, _, _>(rhs, |x, y| x $op y)
            }
        }
    };
}

comparison!(eq_elem, ==, "==");
comparison!(ne_elem, !=, "!=");
comparison!(lt, <, "<");
comparison!(le, <=, "<=");
comparison!(gt, >, ">");
comparison!(ge, >=, ">=");

/// One compound-assignment operator (`+=` …) by the assignment rule.
macro_rules! assign_op {
    ($Op:ident, $op:ident, $Base:ident, $base:ident) => {
        impl<T, A, B> ops::$Op<&Tensor<T, B>> for Tensor<T, A>
        where
            T: Clone + ops::$Base<Output = T>,
            A: BroadcastsUnder<Assign, B> + Storage<T>,
            B: Storage<T>,
        {
            /// Panics with the SPEC §15 message when a `?` size does not fit.
            fn $op(&mut self, rhs: &Tensor<T, B>) {
                self.assign_by(rhs, |x, y| ops::$Base::$base(x.clone(), y.clone()))
                    .unwrap_or_else(|e| panic!("{e}"));
            }
        }
    };
}

assign_op!(AddAssign, add_assign, Add, add);
assign_op!(SubAssign, sub_assign, Sub, sub);
assign_op!(MulAssign, mul_assign, Mul, mul);
assign_op!(DivAssign, div_assign, Div, div);
assign_op!(RemAssign, rem_assign, Rem, rem);
assign_op!(BitAndAssign, bitand_assign, BitAnd, bitand);
assign_op!(BitOrAssign, bitor_assign, BitOr, bitor);
assign_op!(BitXorAssign, bitxor_assign, BitXor, bitxor);

impl<T: Clone + ops::Neg, S: Storage<T> + Storage<T::Output>> ops::Neg for &Tensor<T, S> {
    type Output = Tensor<T::Output, S>;
    fn neg(self) -> Self::Output {
        self.map_ref(|x| -x.clone())
    }
}

impl<T: Clone + ops::Neg, S: Storage<T> + Storage<T::Output>> ops::Neg for Tensor<T, S> {
    type Output = Tensor<T::Output, S>;
    fn neg(self) -> Self::Output {
        -&self
    }
}

impl<T: Clone + ops::Not, S: Storage<T> + Storage<T::Output>> ops::Not for &Tensor<T, S> {
    type Output = Tensor<T::Output, S>;
    fn not(self) -> Self::Output {
        self.map_ref(|x| !x.clone())
    }
}

impl<T: Clone + ops::Not, S: Storage<T> + Storage<T::Output>> ops::Not for Tensor<T, S> {
    type Output = Tensor<T::Output, S>;
    fn not(self) -> Self::Output {
        !&self
    }
}

/// An element type that is a scalar operand of the operators (`&t * 2.0`): the primitive
/// numbers and `bool`. A tensor is never a scalar, which keeps `tensor + scalar` apart from
/// `tensor + tensor` (and lets a nested tensor's element meet a scalar, SPEC §13).
///
/// ```
/// use shapecast::{shape, Tensor};
/// let t = Tensor::<f64, shape![2]>::from_vec(vec![1.0, 2.0])?;
/// assert_eq!((&t * 2.0).data(), &[2.0, 4.0]);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub trait Scalar: Clone {}

macro_rules! scalars {
    ($($t:ty),*) => { $(impl Scalar for $t {})* };
}
scalars!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64, bool);

/// The result of narrowing to a shape: the element itself for `shape![]`, a tensor
/// otherwise (SPEC §11). Used by [`Tensor::narrow`].
///
/// ```
/// use shapecast::{shape, ElementOr, Tensor};
/// static_assertions::assert_type_eq_all!(<shape![] as ElementOr<u8>>::Out, u8);
/// static_assertions::assert_type_eq_all!(<shape![2] as ElementOr<u8>>::Out, Tensor<u8, shape![2]>);
/// ```
pub trait ElementOr<T> {
    /// `T` or `Tensor<T, Self>`.
    type Out;
    #[doc(hidden)]
    fn wrap(sizes: &[usize], data: Vec<T>) -> Self::Out;
}

impl<T> ElementOr<T> for () {
    type Out = T;
    fn wrap(_: &[usize], mut data: Vec<T>) -> T {
        data.pop().expect("a tensor of shape [] holds one element")
    }
}

macro_rules! element_or {
    ($($X:ident),+) => {
        impl<T, $($X: crate::Axis),+> ElementOr<T> for ($($X,)+)
        where
            Self: Storage<T>,
        {
            type Out = Tensor<T, Self>;
            fn wrap(sizes: &[usize], data: Vec<T>) -> Tensor<T, Self> {
                Tensor::from_parts(sizes, data)
            }
        }
    };
}
element_or!(X0);
element_or!(X0, X1);
element_or!(X0, X1, X2);
element_or!(X0, X1, X2, X3);
element_or!(X0, X1, X2, X3, X4);
element_or!(X0, X1, X2, X3, X4, X5);
element_or!(X0, X1, X2, X3, X4, X5, X6);
element_or!(X0, X1, X2, X3, X4, X5, X6, X7);
element_or!(X0, X1, X2, X3, X4, X5, X6, X7, X8);
element_or!(X0, X1, X2, X3, X4, X5, X6, X7, X8, X9);
element_or!(X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10);
element_or!(X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11);
element_or!(X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12);
element_or!(X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13);
element_or!(X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14);
element_or!(X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15);

/// Nested arrays of `T` with `D` levels (`D` is [`Depth`]`<N>`, inferred): what
/// [`Tensor::from_array`] takes. A bare `T` is depth 0.
///
/// ```
/// use shapecast::NestedArray;
/// assert_eq!(<[[u8; 3]; 2] as NestedArray<u8, _>>::DIMS, &[2, 3]);
/// assert_eq!(NestedArray::<u8, _>::into_elements([[1u8, 2], [3, 4]]), vec![1, 2, 3, 4]);
/// ```
pub trait NestedArray<T, D> {
    /// The dimensions, outermost first.
    const DIMS: &'static [usize];
    /// The elements in row-major order.
    fn into_elements(self) -> Vec<T>;
}

/// The depth of a [`NestedArray`]: how many array levels lie above the element.
///
/// ```
/// use shapecast::{Depth, NestedArray};
/// fn dims<A: NestedArray<i32, Depth<2>>>(_: &A) -> &'static [usize] { A::DIMS }
/// assert_eq!(dims(&[[1, 2, 3]]), &[1, 3]);
/// ```
pub struct Depth<const N: usize>;

impl<T> NestedArray<T, Depth<0>> for T {
    const DIMS: &'static [usize] = &[];
    fn into_elements(self) -> Vec<T> {
        vec![self]
    }
}

macro_rules! nested {
    ($depth:literal, $ty:ty, [$($n:ident),+], $flat:expr) => {
        impl<T, $(const $n: usize),+> NestedArray<T, Depth<$depth>> for $ty {
            const DIMS: &'static [usize] = &[$($n),+];
            fn into_elements(self) -> Vec<T> {
                let flat: fn(Self) -> Vec<T> = $flat;
                flat(self)
            }
        }
    };
}
nested!(1, [T; A], [A], |a| a.into_iter().collect());
nested!(2, [[T; B]; A], [A, B], |a| a
    .into_iter()
    .flatten()
    .collect());
nested!(3, [[[T; C]; B]; A], [A, B, C], |a| a
    .into_iter()
    .flatten()
    .flatten()
    .collect());
nested!(4, [[[[T; D]; C]; B]; A], [A, B, C, D], |a| {
    a.into_iter().flatten().flatten().flatten().collect()
});
nested!(5, [[[[[T; E]; D]; C]; B]; A], [A, B, C, D, E], |a| {
    a.into_iter()
        .flatten()
        .flatten()
        .flatten()
        .flatten()
        .collect()
});
nested!(
    6,
    [[[[[[T; F]; E]; D]; C]; B]; A],
    [A, B, C, D, E, F],
    |a| {
        a.into_iter()
            .flatten()
            .flatten()
            .flatten()
            .flatten()
            .flatten()
            .collect()
    }
);

/// Whether every size is static.
const fn all_static(sizes: &[Option<usize>]) -> bool {
    let mut i = 0;
    while i < sizes.len() {
        if sizes[i].is_none() {
            return false;
        }
        i += 1;
    }
    true
}

/// The sizes of a shape whose sizes are all static.
fn static_sizes(sizes: &[Option<usize>]) -> Vec<usize> {
    sizes.iter().map(|n| n.unwrap_or(1)).collect()
}

/// The compile-time layout of `O = f(S, B)` by the plan of `P`.
const fn static_layout<P: PlanFor<S, B>, S: Shape, B: Shape, O: Shape>() -> StaticLayout {
    StaticLayout::new(O::SIZES, &P::PLAN, S::SIZES, B::SIZES)
}

/// Where a typed operation takes its rule and its constant plan from: a rule marker's
/// [`BroadcastsUnder`], or [`BroadcastWith`] for the named rule (the bound the operators
/// carry).
trait PlanFor<S, B> {
    const RULE: crate::Rule;
    const PLAN: StaticPlan;
}

/// The plan of `S: BroadcastsUnder<R, B>`.
struct ByRule<R>(core::marker::PhantomData<R>);
impl<R: RuleMarker, S: BroadcastsUnder<R, B>, B: Shape> PlanFor<S, B> for ByRule<R> {
    const RULE: crate::Rule = R::RULE;
    const PLAN: StaticPlan = <S as BroadcastsUnder<R, B>>::STATIC_PLAN;
}

/// The plan of `S: BroadcastWith<B>` (the named rule).
struct ByNamed;
impl<S: BroadcastWith<B>, B: Shape> PlanFor<S, B> for ByNamed {
    const RULE: crate::Rule = crate::Rule::Named;
    const PLAN: StaticPlan = <S as BroadcastWith<B>>::STATIC_PLAN;
}

/// Whether nested-array dimensions are exactly a shape's sizes, all static.
const fn dims_are(dims: &[usize], sizes: &[Option<usize>]) -> bool {
    if dims.len() != sizes.len() {
        return false;
    }
    let mut i = 0;
    while i < dims.len() {
        match sizes[i] {
            Some(n) if n == dims[i] => {}
            _ => return false,
        }
        i += 1;
    }
    true
}

/// The checked and the panicking form of one binary operator, into a caller's tensor, and
/// with a scalar on the right.
macro_rules! binary_op {
    ($Op:ident, $op:ident, $try_op:ident, $op_into:ident, $doc:literal) => {
        impl<T: Clone + ops::$Op<Output = T>, S: Storage<T>> Tensor<T, S> {
            #[doc = concat!("`out = a ", $doc, " b` by the named rule, written into `out` (its allocation is reused).")]
            ///
            /// The output's type is the broadcast of the operands' shapes, so only a `?` size
            /// can make this fail; `out` is left as it was on error.
            ///
            /// ```
            /// use shapecast::{shape, Tensor};
            /// let a = Tensor::<i32, shape![2, 2]>::from_vec(vec![8, 6, 4, 2])?;
            /// let b = Tensor::<i32, shape![2]>::from_vec(vec![2, 1])?;
            /// let mut out = Tensor::<i32, shape![2, 2]>::full(0)?;
            #[doc = concat!("Tensor::", stringify!($op_into), "(&a, &b, &mut out)?;")]
            /// assert_eq!(out.sizes(), &[2, 2]);
            /// # Ok::<(), shapecast::Error>(())
            /// ```
            pub fn $op_into<A: BroadcastWith<B, Output = S> + Storage<T>, B: Storage<T>>(
                a: &Tensor<T, A>,
                b: &Tensor<T, B>,
                out: &mut Tensor<T, S>,
            ) -> Result<(), Error> {
                a.zip_into::<ByNamed, _, _, _, _>(b, out, |x, y| ops::$Op::$op(x.clone(), y.clone()))
            }
        }

        impl<T, S> ops::$Op<T> for &Tensor<T, S>
        where
            T: Scalar + ops::$Op,
            S: Storage<T> + Storage<<T as ops::$Op>::Output>,
        {
            type Output = Tensor<<T as ops::$Op>::Output, S>;

            #[doc = concat!("Every element `", $doc, "` the scalar.")]
            fn $op(self, rhs: T) -> Self::Output {
                self.map_ref(|x| ops::$Op::$op(x.clone(), rhs.clone()))
            }
        }

        impl<T, S> ops::$Op<T> for Tensor<T, S>
        where
            T: Scalar + ops::$Op,
            S: Storage<T> + Storage<<T as ops::$Op>::Output>,
        {
            type Output = Tensor<<T as ops::$Op>::Output, S>;

            #[doc = concat!("Every element `", $doc, "` the scalar.")]
            fn $op(self, rhs: T) -> Self::Output {
                ops::$Op::$op(&self, rhs)
            }
        }

        impl<T: Clone, S: Storage<T>> Tensor<T, S> {
            #[doc = concat!("`self ", $doc, " rhs` by the named rule, or the error when a `?` size does not fit.")]
            ///
            /// ```
            /// use shapecast::{shape, Tensor};
            /// let a = Tensor::<i32, shape![2, 2]>::from_vec(vec![8, 6, 4, 2])?;
            /// let b = Tensor::<i32, shape![2]>::from_vec(vec![2, 1])?;
            #[doc = concat!("let c = a.", stringify!($try_op), "(&b)?;")]
            /// assert_eq!(c.sizes(), &[2, 2]);
            /// # Ok::<(), shapecast::Error>(())
            /// ```
            pub fn $try_op<U: Clone, B: Storage<U>>(
                &self,
                rhs: &Tensor<U, B>,
            ) -> Result<Tensor<<T as ops::$Op<U>>::Output, Broadcast<S, B>>, Error>
            where
                T: ops::$Op<U>,
                S: BroadcastWith<B>,
                Broadcast<S, B>: Storage<<T as ops::$Op<U>>::Output>,
            {
                self.zip_by::<ByNamed, _, _, _, _>(rhs, |x, y| ops::$Op::$op(x.clone(), y.clone()))
            }
        }

        impl<T, U, A, B> ops::$Op<&Tensor<U, B>> for &Tensor<T, A>
        where
            T: Clone + ops::$Op<U>,
            U: Clone,
            A: BroadcastWith<B> + Storage<T>,
            B: Storage<U>,
            Broadcast<A, B>: Storage<<T as ops::$Op<U>>::Output>,
        {
            type Output = Tensor<<T as ops::$Op<U>>::Output, Broadcast<A, B>>;

            /// Panics with the SPEC §15 message when a `?` size does not fit.
            fn $op(self, rhs: &Tensor<U, B>) -> Self::Output {
                self.$try_op(rhs).unwrap_or_else(|e| panic!("{e}"))
            }
        }

        impl<T, U, A, B> ops::$Op<Tensor<U, B>> for Tensor<T, A>
        where
            T: Clone + ops::$Op<U>,
            U: Clone,
            A: BroadcastWith<B> + Storage<T>,
            B: Storage<U>,
            Broadcast<A, B>: Storage<<T as ops::$Op<U>>::Output>,
        {
            type Output = Tensor<<T as ops::$Op<U>>::Output, Broadcast<A, B>>;

            /// Panics with the SPEC §15 message when a `?` size does not fit.
            fn $op(self, rhs: Tensor<U, B>) -> Self::Output {
                ops::$Op::$op(&self, &rhs)
            }
        }
    };
}

binary_op!(Add, add, try_add, add_into, "+");
binary_op!(Sub, sub, try_sub, sub_into, "-");
binary_op!(Mul, mul, try_mul, mul_into, "*");
binary_op!(Div, div, try_div, div_into, "/");
binary_op!(Rem, rem, try_rem, rem_into, "%");
binary_op!(BitAnd, bitand, try_bitand, bitand_into, "&");
binary_op!(BitOr, bitor, try_bitor, bitor_into, "|");
binary_op!(BitXor, bitxor, try_bitxor, bitxor_into, "^");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{names, shape};

    names!(N, C, H, W);

    #[test]
    fn img_plus_lbl_matches_the_run_time_tensor() {
        let img = Tensor::<f32, shape![?, C: 3, H, W]>::from_fn(&[2, 3, 4, 5], |i| {
            (i[0] * 1000 + i[1] * 100 + i[2] * 10 + i[3]) as f32
        })
        .unwrap();
        let lbl =
            Tensor::<f32, shape![?, H, W]>::from_fn(&[2, 4, 5], |i| (i[1] * 10 + i[2]) as f32)
                .unwrap();
        let sum = &img + &lbl;
        let expected = img
            .to_dyn()
            .zip_with(crate::Rule::Named, &lbl.to_dyn(), |x, y| x + y)
            .unwrap();
        assert_eq!(sum.to_dyn(), expected);
        assert_eq!(*sum.at(&[1, 2, 3, 4]).unwrap(), 1234.0 + 34.0);
    }

    #[test]
    fn permuted_names_line_up() {
        let a = Tensor::<i32, shape![H: 2, W: 3]>::from_vec(vec![1, 2, 3, 4, 5, 6]).unwrap();
        let b = Tensor::<i32, shape![W: 3, H: 2]>::from_vec(vec![10, 40, 20, 50, 30, 60]).unwrap();
        let c = a - b;
        assert_eq!(c.data(), &[-9, -18, -27, -36, -45, -54]);
    }

    #[test]
    #[should_panic(expected = "cannot broadcast [2] with [3] (named rule)")]
    fn operators_panic_with_the_refusal() {
        let a = Tensor::<i32, shape![?]>::from_vec_sized(&[2], vec![1, 2]).unwrap();
        let b = Tensor::<i32, shape![3]>::from_vec(vec![1, 2, 3]).unwrap();
        let _ = &a * &b;
    }

    #[test]
    fn assignment_comparison_and_unary() {
        let mut a = Tensor::<i32, shape![2, 3]>::from_vec(vec![1, 2, 3, 4, 5, 6]).unwrap();
        a += &Tensor::<i32, shape![3]>::from_vec(vec![10, 20, 30]).unwrap();
        assert_eq!(a.data(), &[11, 22, 33, 14, 25, 36]);
        let big = a
            .gt(&Tensor::<i32, shape![]>::from_vec(vec![20]).unwrap())
            .unwrap();
        assert_eq!(big.data(), &[false, true, true, false, true, true]);
        assert_eq!((-&a).data()[0], -11);
        assert_eq!((!&big).data(), &[true, false, false, true, false, false]);
        let same = a.eq_elem(&a.clone()).unwrap();
        assert!(same.data().iter().all(|&b| b));
    }

    #[test]
    #[should_panic(expected = "cannot assign [3] into [2] (assign rule)")]
    fn assignment_panics_on_a_run_time_size_that_does_not_fit() {
        let mut a = Tensor::<i32, shape![?]>::from_vec_sized(&[2], vec![1, 2]).unwrap();
        a += &Tensor::<i32, shape![?]>::from_vec_sized(&[3], vec![1, 2, 3]).unwrap();
    }

    #[test]
    fn into_a_callers_tensor_and_with_scalars() {
        let a =
            Tensor::<i32, shape![?, 3]>::from_vec_sized(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
        let b = Tensor::<i32, shape![3]>::from_vec(vec![10, 20, 30]).unwrap();
        let mut out = Tensor::<i32, shape![?, 3]>::from_vec_sized(&[2, 3], vec![0; 6]).unwrap();
        Tensor::mul_into(&a, &b, &mut out).unwrap();
        assert_eq!(out.data(), &[10, 40, 90, 40, 100, 180]);
        assert_eq!((&a * 2).data(), &[2, 4, 6, 8, 10, 12]);
        let wrong = Tensor::<i32, shape![?]>::from_vec_sized(&[2], vec![1, 2]).unwrap();
        let mut keep = Tensor::<i32, shape![?, ?]>::from_vec_sized(&[1, 1], vec![7]).unwrap();
        let c = Tensor::<i32, shape![?, ?]>::from_vec_sized(&[2, 3], vec![0; 6]).unwrap();
        assert!(Tensor::add_into(&c, &wrong, &mut keep).is_err());
        assert_eq!(keep.data(), &[7], "left as it was on error");
    }

    #[test]
    fn bit_operators_on_integers_and_bools() {
        let a = Tensor::<u8, shape![2]>::from_vec(vec![0b1100, 0b1010]).unwrap();
        let b = Tensor::<u8, shape![]>::from_vec(vec![0b0110]).unwrap();
        assert_eq!((&a ^ &b).data(), &[0b1010, 0b1100]);
        let p = Tensor::<bool, shape![2]>::from_vec(vec![true, false]).unwrap();
        let q = Tensor::<bool, shape![2, 1]>::from_vec(vec![true, false]).unwrap();
        assert_eq!((&p & &q).data(), &[true, false, false, false]);
    }
}
