//! The writable view's own methods: index-access broadcasting for writing, `fill`,
//! `for_each_mut`, `assign` by the assignment rule, and `align_to` (the struct and its
//! layout accessors are in [`view`](super::view)).

use crate::alloc_prelude::*;

use core::marker::PhantomData;

use super::receiver::{Contractible, Own};
use super::view::{permutation, TensorView, TensorViewMut};
use crate::dynamic::broadcast;
use crate::engine::dims::Dims;
use crate::engine::layout::frame_strides_of;
use crate::engine::walk::{iab_offset, Offsets};
use crate::typed::assign::BroadcastsInto;
use crate::typed::broadcast::BroadcastsUnder;
use crate::typed::rule::Assign;
use crate::typed::shape::{SameRankAs, Shape};
use crate::values::error::Error;
use crate::values::rule::Rule;

impl<'a, T, S: Shape> TensorViewMut<'a, T, S> {
    /// A writable view from parts the caller has checked: the sizes fit `S`, every offset
    /// the strides reach lies inside `data`, and no two indices share an offset.
    pub(crate) fn from_parts(data: &'a mut [T], sizes: Vec<usize>, strides: Vec<usize>) -> Self {
        TensorViewMut {
            data,
            sizes: sizes.into(),
            strides: strides.into(),
            shape: PhantomData,
        }
    }

    /// The view's data, sizes and strides.
    pub(crate) fn into_parts(self) -> (&'a mut [T], Vec<usize>, Vec<usize>) {
        (self.data, self.sizes.to_vec(), self.strides.to_vec())
    }

    /// A writable view of contiguous, row-major data with the given sizes.
    pub(crate) fn contiguous(data: &'a mut [T], sizes: &[usize]) -> Self {
        TensorViewMut {
            data,
            sizes: sizes.into(),
            strides: Dims::row_major(sizes),
            shape: PhantomData,
        }
    }

    /// A read-only view of the same elements.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let mut t = Tensor::<u8, shape![2]>::from_vec(vec![1, 2])?;
    /// let m = t.view_mut();
    /// assert_eq!(m.view().iter().count(), 2);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn view(&self) -> TensorView<'_, T, S> {
        TensorView {
            data: self.data,
            sizes: self.sizes,
            strides: self.strides,
            shape: PhantomData,
        }
    }

    /// Index-access broadcasting (rule book §12) for writing.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let mut t = Tensor::<i32, shape![1, 2]>::from_vec(vec![3, 4])?;
    /// *t.view_mut().at_mut(&[7, 1])? = 5;
    /// assert_eq!(t.data(), &[3, 5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn at_mut(&mut self, index: &[usize]) -> Result<&mut T, Error> {
        match iab_offset(&self.sizes, &self.strides, index) {
            Ok(offset) => Ok(&mut self.data[offset]),
            Err(reason) => Err(Error::Index {
                shape: self.view().shape_dyn(),
                reason,
            }),
        }
    }

    /// Every element set to `value`.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let mut t = Tensor::<i32, shape![2]>::from_vec(vec![1, 2])?;
    /// t.view_mut().fill(9);
    /// assert_eq!(t.data(), &[9, 9]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn fill(&mut self, value: T)
    where
        T: Clone,
    {
        self.for_each_mut(|x| *x = value.clone());
    }

    /// `f` on every element, in row-major order of the index.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let mut t = Tensor::<i32, shape![3]>::from_vec(vec![1, 2, 3])?;
    /// t.view_mut().for_each_mut(|x| *x *= 10);
    /// assert_eq!(t.data(), &[10, 20, 30]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn for_each_mut(&mut self, mut f: impl FnMut(&mut T)) {
        for o in Offsets::new(&self.sizes, &self.strides) {
            f(&mut self.data[o]);
        }
    }

    /// `src` (a tensor or a view) written into this view by the assignment rule (rule book
    /// §10): it broadcasts into the view's shape, which never changes. Only a `?` size can
    /// make it fail.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let mut t = Tensor::<i32, shape![2, 3]>::full(0)?;
    /// let row = Tensor::<i32, shape![3]>::from_vec(vec![1, 2, 3])?;
    /// t.view_mut().assign(&row.view())?;
    /// assert_eq!(t.data(), &[1, 2, 3, 1, 2, 3]);
    /// // A computed tensor is written as it is, without a view of it.
    /// t.view_mut().assign(&(&row * 10))?;
    /// assert_eq!(t.data(), &[10, 20, 30, 10, 20, 30]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn assign<X>(&mut self, src: &X) -> Result<(), Error>
    where
        X: Contractible<Elem = T> + ?Sized,
        T: Clone,
        X::Shape: BroadcastsInto<S>,
    {
        let mut own = Own::default();
        let x = src.layout(&mut own);
        let b = broadcast(Rule::Assign, &self.view().shape_dyn(), &src.shape_dyn())?;
        b.resolve(&self.sizes, x.sizes)?;
        let from = frame_strides_of(&b.plan.rhs, x.sizes, x.strides);
        // Run by run (the axes merged where both layouts allow): a contiguous run in both is
        // one slice copy (a KV cache's rows).
        let (data, read) = (&mut *self.data, x.data);
        crate::engine::fold_walk::runs(&self.sizes, &self.strides, &from, |o, r, len, io, ir| {
            if io == 1 && ir == 1 {
                data[o..o + len].clone_from_slice(&read[r..r + len]);
            } else {
                for i in 0..len {
                    data[o + i * io] = read[r + i * ir].clone();
                }
            }
        });
        Ok(())
    }

    /// The same elements with the axes in `Target`'s order, as
    /// [`TensorView::align_to`].
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(H, W);
    /// let mut t = Tensor::<i32, shape![H: 2, W: 2]>::from_vec(vec![1, 2, 3, 4])?;
    /// *t.view_mut().align_to::<shape![W: 2, H: 2]>()?.at_mut(&[1, 0])? = 7; // W 1, H 0
    /// assert_eq!(t.data(), &[1, 7, 3, 4]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn align_to<Target>(self) -> Result<TensorViewMut<'a, T, Target>, Error>
    where
        Target: BroadcastsUnder<Assign, S> + SameRankAs<S>,
    {
        let (sizes, strides) = permutation::<S, Target>(&self.sizes, &self.strides)?;
        Ok(TensorViewMut::from_parts(self.data, sizes, strides))
    }
}
