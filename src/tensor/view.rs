//! Borrowed, strided views of a [`Tensor`]: [`TensorView`] and [`TensorViewMut`].
//!
//! A view is the tensor's data with sizes and strides (in elements). A broadcast axis has
//! stride 0, so [`broadcast_to`](TensorView::broadcast_to) copies nothing; a permutation by
//! names ([`align_to`](TensorView::align_to)) only reorders the strides. Views zip with each
//! other through the same kernel as tensors, by the same rules.
//!
//! ```
//! use shapecast::{names, shape, Tensor};
//! names!(H, W);
//! let col = Tensor::<i32, shape![H: 3, 1]>::from_vec(vec![1, 2, 3])?;
//! // [H: 3, 1] to [H: 3, W: 4], no copy: the W axis has stride 0.
//! let wide = col.broadcast_to::<shape![H: 3, W: 4]>()?;
//! assert_eq!((wide.sizes(), wide.strides()), (&[3, 4][..], &[1, 0][..]));
//! assert_eq!(*wide.at(&[2, 3])?, 3);
//! // The same data with W first, still no copy.
//! let t = wide.align_to::<shape![W: 4, H: 3]>()?;
//! assert_eq!(t.iter().copied().collect::<Vec<_>>(), [1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3]);
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use alloc::borrow::Cow;

use core::fmt;
use core::marker::PhantomData;

use super::ops::elementwise::{zip_operands, Operand};
use super::ops::zip_plan::{strided_layout, ByNamed, ByRule, PlanFor};
use super::tensor::Tensor;
use crate::dynamic::broadcast;
use crate::engine::dims::Dims;
use crate::engine::layout::frame_strides_of;
use crate::engine::walk::{iab_offset, Offsets};
use crate::engine::zip_fn::Parallel;
use crate::typed::broadcast::{Broadcast, BroadcastBy, BroadcastWith, BroadcastsUnder};
use crate::typed::rule::RuleMarker;
use crate::typed::rule::{Assign, Bidirectional};
use crate::typed::shape::{SameRankAs, Shape};
use crate::typed::storage::{Buffer, Storage};
use crate::values::error::{Error, OrPanic};
use crate::values::rule::Rule;
use crate::values::shape::{DynShape, MAX_TYPED_RANK};

/// A borrowed, read-only view of `T`s with the type-level shape `S`, laid out by strides.
///
/// ```
/// use shapecast::{shape, Tensor};
/// let t = Tensor::<i32, shape![2, 3]>::from_vec(vec![1, 2, 3, 4, 5, 6])?;
/// let v = t.view();
/// assert_eq!((v.sizes(), v.strides()), (&[2, 3][..], &[3, 1][..]));
/// # Ok::<(), shapecast::Error>(())
/// ```
pub struct TensorView<'a, T, S> {
    pub(super) data: &'a [T],
    pub(super) sizes: Dims,
    pub(super) strides: Dims,
    pub(super) shape: PhantomData<S>,
}

/// A borrowed, writable view of `T`s with the type-level shape `S`. No two indices share an
/// element (it has no broadcast axis).
///
/// ```
/// use shapecast::{shape, Tensor};
/// let mut t = Tensor::<i32, shape![2, 2]>::from_vec(vec![1, 2, 3, 4])?;
/// t.view_mut().fill(0);
/// assert_eq!(t.data(), &[0, 0, 0, 0]);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub struct TensorViewMut<'a, T, S> {
    pub(super) data: &'a mut [T],
    pub(super) sizes: Dims,
    pub(super) strides: Dims,
    pub(super) shape: PhantomData<S>,
}

impl<T, S> Clone for TensorView<'_, T, S> {
    fn clone(&self) -> Self {
        *self
    }
}

/// A view is a borrow and its layout (at most [`MAX_RANK`](crate::MAX_RANK) sizes and
/// strides, held inline): it copies like a reference, so `v * v`, `v.exp()` and
/// `v.sum::<A>()` leave `v` usable.
///
/// ```
/// use shapecast::prelude::*;
/// let t = Tensor::<f32, shape![2]>::from_vec(vec![1.0, 2.0])?;
/// let v = t.view();
/// let square = v * v;
/// let grown = v.exp();
/// let total = v.sum::<Pos<0>>();
/// assert_eq!(square.data(), &[1.0, 4.0]);
/// assert_eq!(grown.data().len(), v.sizes()[0]);
/// assert_eq!(total.data(), &[3.0]);
/// # Ok::<(), shapecast::Error>(())
/// ```
impl<T, S> Copy for TensorView<'_, T, S> {}

impl<T: fmt::Debug, S> fmt::Debug for TensorView<'_, T, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let elems: Vec<&T> = Offsets::new(&self.sizes, &self.strides)
            .map(|o| &self.data[o])
            .collect();
        f.debug_struct("TensorView")
            .field("sizes", &self.sizes)
            .field("strides", &self.strides)
            .field("elements", &elems)
            .finish()
    }
}

impl<T: fmt::Debug, S> fmt::Debug for TensorViewMut<'_, T, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TensorViewMut")
            .field("sizes", &self.sizes)
            .field("strides", &self.strides)
            .finish_non_exhaustive()
    }
}

/// The sizes and strides of a view of `S` laid out as `Target` (the same names in another
/// order: the assignment rule's pairing, when it is a permutation, every axis fed and no size
/// changed), or why they cannot be.
pub(super) fn permutation<S: Shape, Target: Shape>(
    sizes: &[usize],
    strides: &[usize],
) -> Result<(Vec<usize>, Vec<usize>), Error> {
    let source = S::to_dyn().resolve(sizes)?;
    let target = Target::to_dyn();
    let refused = |out: Vec<usize>| Error::SizesMismatch {
        shape: target.clone(),
        sizes: out,
    };
    let plan = broadcast(Rule::Assign, &target, &source)?.plan;
    let mut out = (Vec::new(), Vec::new());
    for side in &plan.rhs {
        let Some(k) = *side else {
            return Err(refused(sizes.to_vec()));
        };
        out.0.push(sizes[k]);
        out.1.push(strides[k]);
    }
    if Target::SIZES
        .iter()
        .zip(&out.0)
        .any(|(known, &n)| known.is_some_and(|m| m != n))
    {
        return Err(refused(out.0));
    }
    Ok(out)
}

/// The layout accessors of both views (`sizes`, `size::<A>`, `strides`), written once; `$get`
/// makes the view the examples call them on from a tensor `t`.
macro_rules! layout_accessors {
    ($view:ident, $get:literal) => {
        impl<T, S: Shape> $view<'_, T, S> {
            #[doc = concat!("The sizes, `?` ones resolved.\n\n```\nuse shapecast::{shape, Tensor};\nlet mut t = Tensor::<u8, shape![?, 2]>::from_vec_sized(&[3, 2], vec![0; 6])?;\nassert_eq!(t.", $get, ".sizes(), &[3, 2]);\n# Ok::<(), shapecast::Error>(())\n```")]
            pub fn sizes(&self) -> &[usize] {
                &self.sizes
            }

            #[doc = concat!("The size of the axis `A` picks: a name, or [`Pos<K>`](crate::Pos). A name the shape lacks is a compile error.\n\n```\nuse shapecast::{names, shape, Tensor};\nnames!(H, W);\nlet mut t = Tensor::<u8, shape![H: 2, W]>::zeros_sized(&[2, 7])?;\nassert_eq!((t.", $get, ".size::<W>(), t.", $get, ".size::<H>()), (7, 2));\n# Ok::<(), shapecast::Error>(())\n```")]
            pub fn size<A>(&self) -> usize
            where
                S: crate::typed::surgery::HasAxis<A>,
            {
                self.sizes[<S as crate::typed::surgery::HasAxis<A>>::AT]
            }

            #[doc = concat!("The strides in elements: 0 on a broadcast axis.\n\n```\nuse shapecast::{shape, Tensor};\nlet mut t = Tensor::<u8, shape![2, 3]>::full(0)?;\nassert_eq!(t.", $get, ".strides(), &[3, 1]);\n# Ok::<(), shapecast::Error>(())\n```")]
            pub fn strides(&self) -> &[usize] {
                &self.strides
            }
        }
    };
}

layout_accessors!(TensorView, "view()");
layout_accessors!(TensorViewMut, "view_mut()");

impl<'a, T, S: Shape> TensorView<'a, T, S> {
    /// A view from parts the caller has checked: the sizes fit `S` and every offset the
    /// strides reach lies inside `data`.
    pub(crate) fn from_parts(data: &'a [T], sizes: Vec<usize>, strides: Vec<usize>) -> Self {
        TensorView {
            data,
            sizes: sizes.into(),
            strides: strides.into(),
            shape: PhantomData,
        }
    }

    /// The data the view reads from (from its first element on).
    #[cfg_attr(not(feature = "ndarray"), allow(dead_code))]
    pub(crate) fn data_slice(&self) -> &'a [T] {
        self.data
    }

    /// A view of contiguous, row-major data with the given sizes.
    pub(crate) fn contiguous(data: &'a [T], sizes: &[usize]) -> Self {
        TensorView {
            data,
            sizes: sizes.into(),
            strides: Dims::row_major(sizes),
            shape: PhantomData,
        }
    }

    /// Index-access broadcasting (rule book §12), as [`DynTensor::at`](crate::DynTensor::at).
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<i32, shape![1, 2]>::from_vec(vec![3, 4])?;
    /// assert_eq!(*t.view().at(&[999, 1, 1000])?, 4);
    /// assert!(t.view().at(&[0, 2]).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn at(&self, index: &[usize]) -> Result<&'a T, Error> {
        let offset =
            iab_offset(&self.sizes, &self.strides, index).map_err(|reason| Error::Index {
                shape: self.shape_dyn(),
                reason,
            })?;
        Ok(&self.data[offset])
    }

    /// The elements in row-major order of the index.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<i32, shape![2]>::from_vec(vec![1, 2])?;
    /// let v = t.broadcast_to::<shape![2, 2]>()?;
    /// assert_eq!(v.iter().sum::<i32>(), 6);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &'a T> + '_ {
        let data = self.data;
        Offsets::new(&self.sizes, &self.strides).map(move |o| &data[o])
    }

    /// The view copied into a contiguous tensor.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<i32, shape![2]>::from_vec(vec![1, 2])?;
    /// let wide: Tensor<i32, shape![3, 2]> = t.broadcast_to::<shape![3, 2]>()?.to_tensor();
    /// assert_eq!(wide.data(), &[1, 2, 1, 2, 1, 2]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn to_tensor(&self) -> Tensor<T, S>
    where
        T: Clone,
        S: Storage<T>,
    {
        // A broadcast view (stride 0) can stand for more elements than memory holds: its copy
        // panics with [`Error::TooLarge`](crate::Error::TooLarge)'s message, never aborts.
        crate::engine::allocation::ensure::<T>(&self.sizes, || self.shape_dyn()).or_panic();
        let elements = crate::engine::walk::row_major_elements(&self.strided());
        Tensor::from_parts(&self.sizes, elements.into_owned())
    }

    /// The view's layout as the engine takes it.
    pub(crate) fn strided(&self) -> crate::engine::layout::Strided<'_, T> {
        crate::engine::layout::Strided {
            sizes: &self.sizes,
            strides: &self.strides,
            data: self.data,
        }
    }

    /// The view's concrete shape (`S` with the view's sizes).
    pub(crate) fn shape_dyn(&self) -> DynShape {
        // As `Tensor::shape`: the sizes were checked against `S` when the view was made.
        S::to_dyn()
            .resolve(&self.sizes)
            .expect("a view's sizes fit its shape")
    }

    pub(crate) fn operand(&self) -> Operand<'_, T> {
        Operand {
            // `S` as written, as for a tensor (see `Tensor::operand`).
            shape: Cow::Owned(S::to_dyn()),
            sizes: &self.sizes,
            strides: Some(&self.strides),
            data: self.data,
        }
    }

    /// This view broadcast to the shape `Target` (all of whose sizes are static) by the
    /// bidirectional rule (rule book §9): the result is the broadcast of both shapes, so it may
    /// be larger than `Target`. No element is copied: a broadcast axis has stride 0.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<i32, shape![3, 1]>::from_vec(vec![1, 2, 3])?;
    /// let v = t.view().broadcast_to::<shape![2, 1, 6]>()?; // (3, 1) to [2, 1, 6]: (2, 3, 6)
    /// assert_eq!(v.sizes(), &[2, 3, 6]);
    /// assert!(Tensor::<i32, shape![?]>::from_vec_sized(&[3], vec![1, 2, 3])?
    ///     .broadcast_to::<shape![4]>()
    ///     .is_err()); // 3 to 4
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn broadcast_to<Target: Shape>(
        &self,
    ) -> Result<TensorView<'a, T, BroadcastBy<Bidirectional, S, Target>>, Error>
    where
        S: BroadcastsUnder<Bidirectional, Target>,
    {
        let target = Target::to_dyn();
        let sizes = target
            .known_sizes()
            .ok_or(Error::UnknownSize { shape: target })?;
        self.broadcast_to_sized::<Target>(&sizes)
    }

    /// [`broadcast_to`](Self::broadcast_to) with `Target`'s sizes given (all of them, `?`
    /// ones included).
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<i32, shape![3]>::from_vec(vec![1, 2, 3])?;
    /// let v = t.view().broadcast_to_sized::<shape![?, 3]>(&[2, 3])?;
    /// assert_eq!(v.sizes(), &[2, 3]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn broadcast_to_sized<Target: Shape>(
        &self,
        target: &[usize],
    ) -> Result<TensorView<'a, T, BroadcastBy<Bidirectional, S, Target>>, Error>
    where
        S: BroadcastsUnder<Bidirectional, Target>,
    {
        let target_shape = Target::to_dyn().resolve(target)?;
        let b = broadcast(Rule::Bidirectional, &self.shape_dyn(), &target_shape)?;
        let sizes = b.resolve(&self.sizes, target)?;
        let strides = frame_strides_of(&b.plan.lhs, &self.sizes, &self.strides);
        Ok(TensorView::from_parts(self.data, sizes, strides))
    }

    /// The same elements with the axes in `Target`'s order: named axes go to their
    /// namesakes, unnamed ones keep their order (the assignment rule's pairing, which must be
    /// a permutation: the same rank, every size unchanged). No element is copied.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(H, W);
    /// let t = Tensor::<i32, shape![H: 2, W: 3]>::from_vec(vec![1, 2, 3, 4, 5, 6])?;
    /// let v = t.view().align_to::<shape![W: 3, H: 2]>()?;
    /// assert_eq!(v.to_tensor().data(), &[1, 4, 2, 5, 3, 6]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    ///
    /// A different rank is a compile error; so is a pairing the assignment rule refuses:
    ///
    /// ```compile_fail
    /// use shapecast::{names, shape, Tensor};
    /// names!(H, W, C);
    /// let t = Tensor::<i32, shape![H: 2, W: 3]>::full(0).unwrap();
    /// let v = t.view().align_to::<shape![W: 3, C: 2]>(); // no namesake for H
    /// ```
    pub fn align_to<Target>(&self) -> Result<TensorView<'a, T, Target>, Error>
    where
        Target: BroadcastsUnder<Assign, S> + SameRankAs<S>,
    {
        let (sizes, strides) = permutation::<S, Target>(&self.sizes, &self.strides)?;
        Ok(TensorView::from_parts(self.data, sizes, strides))
    }

    /// `f(self, rhs)` elementwise by the named rule into a new tensor; only a `?` size can
    /// make it fail (the shapes are checked at compile time).
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let a = Tensor::<i32, shape![2, 1]>::from_vec(vec![1, 2])?;
    /// let b = Tensor::<i32, shape![3]>::from_vec(vec![10, 20, 30])?;
    /// let c = a.view().try_zip_with(&b.view(), |x, y| x * y)?;
    /// assert_eq!(c.data(), &[10, 20, 30, 20, 40, 60]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn try_zip_with<U: Sync, V: Send, B: Shape>(
        &self,
        rhs: &TensorView<'_, U, B>,
        f: impl Fn(&T, &U) -> V + Sync,
    ) -> Result<Tensor<V, Broadcast<S, B>>, Error>
    where
        T: Sync,
        S: BroadcastWith<B>,
    {
        self.zip_by::<ByNamed, U, V, Broadcast<S, B>, B>(rhs, f)
    }

    /// `f(self, rhs)` elementwise under the rule `R` (a marker of [`rule`](crate::rule)).
    ///
    /// ```
    /// use shapecast::{rule::Outer, names, shape, Tensor};
    /// names!(I, J);
    /// let a = Tensor::<i32, shape![I: 2]>::from_vec(vec![1, 2])?;
    /// let b = Tensor::<i32, shape![J: 3]>::from_vec(vec![1, 10, 100])?;
    /// let c = a.view().zip_with_rule::<Outer, _, _, _>(&b.view(), |x, y| x * y)?;
    /// assert_eq!(c.data(), &[1, 10, 100, 2, 20, 200]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn zip_with_rule<R: RuleMarker, U: Sync, V: Send, B: Shape>(
        &self,
        rhs: &TensorView<'_, U, B>,
        f: impl Fn(&T, &U) -> V + Sync,
    ) -> Result<Tensor<V, BroadcastBy<R, S, B>>, Error>
    where
        T: Sync,
        S: BroadcastsUnder<R, B>,
    {
        self.zip_by::<ByRule<R>, U, V, BroadcastBy<R, S, B>, B>(rhs, f)
    }

    /// The kernel on the plan the types carry (`P`), over the views' strides: the run-time
    /// checks on the sizes alone, the layout on the stack, one allocation (the output's).
    fn zip_by<P: PlanFor<S, B>, U: Sync, V: Send, O: Storage<V>, B: Shape>(
        &self,
        rhs: &TensorView<'_, U, B>,
        f: impl Fn(&T, &U) -> V + Sync,
    ) -> Result<Tensor<V, O>, Error>
    where
        T: Sync,
    {
        let mut data = Vec::new();
        let layout = strided_layout::<MAX_TYPED_RANK, P, S, B>(
            (&self.sizes, &self.strides),
            (&rhs.sizes, &rhs.strides),
        );
        let Some(layout) = layout else {
            // A `?` size does not fit: the run-time engine words the refusal.
            let (_, sizes) = zip_operands(
                P::RULE,
                self.operand(),
                rhs.operand(),
                &mut data,
                Parallel(f),
            )?;
            return Ok(Tensor::from_parts(&sizes, data));
        };
        layout.run(self.data, rhs.data, &mut data, Parallel(f))?;
        Ok(Tensor::from_parts(layout.sizes(), data))
    }
}

/// Views of a typed tensor.
impl<T, S: Storage<T>> Tensor<T, S> {
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
        TensorViewMut::contiguous(self.data.as_mut_slice(), sizes.as_ref())
    }

    /// A zero-copy view broadcast to `Target` by the bidirectional rule (rule book §9); see
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
        Target: BroadcastsUnder<Assign, S> + SameRankAs<S>,
    {
        self.view().align_to::<Target>()
    }
}
