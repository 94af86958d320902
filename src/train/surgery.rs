//! Shape surgery and gathers on tracked values: `rename` (the gradient passes through as it
//! is), the views (`slice`, `select`, `align_to`, `insert_axis`: the gradient goes back through
//! the view's own offsets into the source, adding where a view repeats an element; `step`,
//! `merge_axes`, `split_axis` the same way),
//! `concat` (the gradient split along the axis) and `pad` (each padded cell's gradient back to
//! the element it copies).

use crate::alloc_prelude::*;

use super::tape::Accumulate;
use super::trainable::Trainable;
use super::var::Var;
use crate::dynamic::pad::PadMode;
use crate::engine::walk::Offsets;
use crate::tensor::Padding;
use crate::tensor::Tensor;
use crate::tensor::TensorView;
use crate::typed::axis::Axis;
use crate::typed::broadcast::BroadcastsUnder;
use crate::typed::pad::{PadOver, PadWidth, Padded};
use crate::typed::reduce::OneAxis;
use crate::typed::reduce::Selector;
use crate::typed::rule::Assign;
use crate::typed::shape::SameRankAs;
use crate::typed::shape::Shape;
use crate::typed::size::Dyn;
use crate::typed::storage::Storage;
use crate::typed::surgery::{
    Concat, ConcatWith, InsertAxis, InsertAxisAt, MergeAxes, MergeAxesInto, Rename, RenameAxis,
    Select, SelectAxis, Slice, SliceAxis, SplitAxis, SplitAxisInto,
};
use crate::values::error::Error;
use core::ops::RangeBounds;

impl<T: Trainable, S: Storage<T>> Var<T, S> {
    /// The axis `A` picks renamed to `B` (as `Tensor::rename`); the gradient is the result's,
    /// unchanged.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(T, S);
    /// let p = Param::new("k", Tensor::<f64, shape![T: 2]>::from_array([1.0, 2.0]));
    /// let tape = Tape::new();
    /// let k = tape.watch(&p).rename::<T, S>(); // [S: 2]
    /// let w = Tensor::<f64, shape![S: 2]>::from_array([3.0, 4.0]);
    /// assert_eq!((&k * &w).sum::<S>().backward()?.of(&p)?.data(), &[3.0, 4.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn rename<A, B>(&self) -> Var<T, Rename<S, A, B>>
    where
        S: RenameAxis<A, B>,
    {
        self.unary_op(self.value().clone().rename::<A, B>(), |g, _, _| Ok(g))
    }

    /// The positions `range` along the axis `A` (as `Tensor::slice`, copied); or the error
    /// when the range does not fit. The gradient lands in the window, zero elsewhere.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(T, E);
    /// let wpe = Param::new("wpe", Tensor::<f64, shape![T: 4, E: 1]>::zeros()?);
    /// let tape = Tape::new();
    /// let first = tape.watch(&wpe).slice::<T>(0..2)?; // [T, E: 1], T of size 2
    /// let g = first.sum::<(T, E)>().backward()?.of(&wpe)?;
    /// assert_eq!(g.data(), &[1.0, 1.0, 0.0, 0.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn slice<A>(&self, range: impl RangeBounds<usize>) -> Result<Var<T, Slice<S, A>>, Error>
    where
        S: SliceAxis<A, Dyn>,
        A: OneAxis,
    {
        self.viewed(|t| t.slice::<A>(range))
    }

    /// The view `make` takes of this value, copied, with its backward: the gradient added back
    /// through the view's offsets into this value's elements.
    fn viewed<V: Storage<T>>(
        &self,
        make: impl for<'v> FnOnce(&'v Tensor<T, S>) -> Result<TensorView<'v, T, V>, Error>,
    ) -> Result<Var<T, V>, Error> {
        let base = self.value().data();
        let view = make(self.value())?;
        // Where the view starts in this value's elements (the view borrows them).
        let start = (view.data_slice().as_ptr() as usize - base.as_ptr() as usize)
            / core::mem::size_of::<T>().max(1);
        let (sizes, strides) = (view.sizes().to_vec(), view.strides().to_vec());
        let value = view.to_tensor();
        let (node, len) = (self.node(), base.len());
        Ok(Var::derived(self.tape(), [node], value, move |_| {
            Box::new(move |g: Vec<T>, acc: &mut Accumulate<'_, T>| {
                let mut gx = vec![T::zero(); len];
                for (o, &v) in Offsets::new(&sizes, &strides).zip(&g) {
                    gx[start + o] = gx[start + o] + v;
                }
                acc.add(node, gx)
            })
        }))
    }

    /// Index `i` along the axis `A`, the axis removed (as `Tensor::select`); or the error when
    /// `i` is out of range. The gradient lands at that index, zero elsewhere.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(T, E);
    /// let p = Param::new("x", Tensor::<f64, shape![T: 3, E: 2]>::zeros()?);
    /// let tape = Tape::new();
    /// let last = tape.watch(&p).select::<T>(2)?; // [E: 2]
    /// assert_eq!(last.sum::<E>().backward()?.of(&p)?.data(), &[0.0, 0.0, 0.0, 0.0, 1.0, 1.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn select<A>(&self, i: usize) -> Result<Var<T, Select<S, A>>, Error>
    where
        S: SelectAxis<A>,
        A: OneAxis,
    {
        self.viewed(|t| t.select::<A>(i))
    }

    /// The same axes in the order of `Target`, matched by name (as `Tensor::align_to`); the
    /// gradient goes back in this value's order.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(H, W);
    /// let p = Param::new("x", Tensor::<f64, shape![H: 2, W: 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]));
    /// let tape = Tape::new();
    /// let t = tape.watch(&p).align_to::<shape![W: 2, H: 2]>()?;
    /// assert_eq!(t.value().data(), &[1.0, 3.0, 2.0, 4.0]);
    /// let first = Tensor::<f64, shape![W: 2, H: 2]>::from_array([[1.0, 2.0], [0.0, 0.0]]);
    /// assert_eq!((&t * &first).sum::<(W, H)>().backward()?.of(&p)?.data(), &[1.0, 0.0, 2.0, 0.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn align_to<Target>(&self) -> Result<Var<T, Target>, Error>
    where
        Target: BroadcastsUnder<Assign, S> + SameRankAs<S> + Storage<T>,
    {
        self.viewed(|t| t.align_to::<Target>())
    }

    /// Every `k`-th position along the axis `A` (as `TensorView::step`); or the error when
    /// `k` is 0. The gradient lands at those positions.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(T);
    /// let p = Param::new("x", Tensor::<f64, shape![T: 4]>::from_array([1.0, 2.0, 3.0, 4.0]));
    /// let tape = Tape::new();
    /// let even = tape.watch(&p).step::<T>(2)?; // [T: 2]: 1, 3
    /// assert_eq!(even.sum::<T>().backward()?.of(&p)?.data(), &[1.0, 0.0, 1.0, 0.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn step<A>(&self, k: usize) -> Result<Var<T, Slice<S, A>>, Error>
    where
        S: SliceAxis<A, Dyn>,
        A: OneAxis,
    {
        self.viewed(|t| t.view().step::<A>(k))
    }

    /// The adjacent axes `L` selects merged into one axis `N` (as `Tensor::merge_axes`:
    /// `[B, HEADS: 8, DK: 64]` into `[B, EMBED]`); the gradient keeps the data's order.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(H, D, E);
    /// let p = Param::new("x", Tensor::<f64, shape![H: 2, D: 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]));
    /// let tape = Tape::new();
    /// let e = tape.watch(&p).merge_axes::<(H, D), E>()?; // [E: 4]
    /// let w = Tensor::<f64, shape![E: 4]>::from_array([1.0, 2.0, 3.0, 4.0]);
    /// assert_eq!((&e * &w).sum::<E>().backward()?.of(&p)?.data(), &[1.0, 2.0, 3.0, 4.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn merge_axes<L, N>(&self) -> Result<Var<T, MergeAxes<S, L, N>>, Error>
    where
        S: MergeAxesInto<L, N>,
        L: Selector,
        N: Axis,
    {
        self.viewed(|t| t.merge_axes::<L, N>())
    }

    /// The axis `A` split into the axes of `P` (as `Tensor::split_axis`: `[B, EMBED: 512]`
    /// into `[B, HEADS: 8, DK: 64]`); the gradient keeps the data's order.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(H, D, E);
    /// let p = Param::new("x", Tensor::<f64, shape![E: 4]>::from_array([1.0, 2.0, 3.0, 4.0]));
    /// let tape = Tape::new();
    /// let hd = tape.watch(&p).split_axis::<E, shape![H: 2, D: 2]>()?; // [H: 2, D: 2]
    /// assert_eq!(hd.sum::<D>().sum::<H>().backward()?.of(&p)?.data(), &[1.0; 4]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn split_axis<A, P>(&self) -> Result<Var<T, SplitAxis<S, A, P>>, Error>
    where
        S: SplitAxisInto<A, P>,
        A: OneAxis,
        P: Shape,
    {
        self.viewed(|t| t.split_axis::<A, P>())
    }

    /// This value padded by `P` ([`Pad<BEFORE, AFTER>`](crate::Pad)) at the ends of each axis
    /// `A` selects, filled by `mode` (as `Tensor::try_pad`: PyTorch's `F.pad`); or the error.
    /// The gradient of each padded cell goes back to the element it copies (none for a
    /// constant), so a replicated edge gets the sum of its copies'.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(T);
    /// let p = Param::new("x", Tensor::<f64, shape![T: 3]>::from_array([1.0, 2.0, 3.0]));
    /// let tape = Tape::new();
    /// let y = tape.watch(&p).pad::<T, Pad<1>>(&PadMode::Replicate)?; // [1, 1, 2, 3, 3]
    /// assert_eq!(y.sum::<T>().backward()?.of(&p)?.data(), &[2.0, 1.0, 2.0]);
    /// let tape = Tape::new(); // a backward pass ends its tape: a new one for the next
    /// let z = tape.watch(&p).pad::<T, Pad<0, 2>>(&PadMode::Reflect)?; // [1, 2, 3, 2, 1]
    /// assert_eq!(z.sum::<T>().backward()?.of(&p)?.data(), &[2.0, 2.0, 1.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn pad<A, P>(&self, mode: &PadMode<T>) -> Result<Var<T, Padded<S, A, P>>, Error>
    where
        A: Selector,
        P: PadWidth,
        S: PadOver<A, P> + Storage<usize>,
    {
        let value = self.value().try_pad::<A, P>(mode)?;
        Ok(self.unary_op_prepared(value, || {
            // The forward pass run on positions: where each output cell was read from (a
            // constant cell from nowhere).
            let positions = Tensor::<usize, S>::from_vec_sized(
                self.sizes(),
                (0..self.value().data().len()).collect(),
            );
            let from = match mode {
                PadMode::Constant(_) => PadMode::Constant(usize::MAX),
                PadMode::Reflect => PadMode::Reflect,
                PadMode::Replicate => PadMode::Replicate,
            };
            let from = positions.and_then(|p| p.try_pad::<A, P>(&from).map(Tensor::into_vec));
            move |g, x: &Tensor<T, S>, _: &Tensor<T, Padded<S, A, P>>| {
                let mut gx = vec![T::zero(); x.data().len()];
                for (&at, &v) in from?.iter().zip(&g) {
                    if let Some(d) = gx.get_mut(at) {
                        *d = *d + v;
                    }
                }
                Ok(gx)
            }
        }))
    }

    /// A new axis of size 1 named `N` at position `K` (as `Tensor::insert_axis`); the data and
    /// the gradient are unchanged.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(B, E);
    /// let p = Param::new("x", Tensor::<f64, shape![E: 2]>::from_array([1.0, 2.0]));
    /// let tape = Tape::new();
    /// let x = tape.watch(&p).insert_axis::<0, B>(); // [B: 1, E: 2]
    /// assert_eq!(x.sizes(), &[1, 2]);
    /// assert_eq!(x.sum::<(B, E)>().backward()?.of(&p)?.data(), &[1.0, 1.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn insert_axis<const K: usize, N>(&self) -> Var<T, InsertAxis<S, K, N>>
    where
        S: InsertAxisAt<K, N>,
    {
        self.unary_op(self.value().clone().insert_axis::<K, N>(), |g, _, _| Ok(g))
    }

    /// This value and `rhs` joined along the axis `A` (as `Tensor::concat`); or the error when
    /// the other sizes differ. Each gets its part of the gradient.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(T);
    /// let a = Param::new("a", Tensor::<f64, shape![T: 1]>::from_array([1.0]));
    /// let b = Param::new("b", Tensor::<f64, shape![T: 2]>::from_array([2.0, 3.0]));
    /// let tape = Tape::new();
    /// let c = tape.watch(&a).concat::<T, _>(&tape.watch(&b))?; // [T: 3]
    /// let w = Tensor::<f64, shape![T: 3]>::from_array([1.0, 10.0, 100.0]);
    /// let grads = (&c * &w).sum::<T>().backward()?;
    /// assert_eq!((grads.of(&a)?.data(), grads.of(&b)?.data()), (&[1.0][..], &[10.0, 100.0][..]));
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn concat<A, S2: Storage<T>>(
        &self,
        rhs: &Var<T, S2>,
    ) -> Result<Var<T, Concat<A, S, S2>>, Error>
    where
        S: ConcatWith<A, S2>,
        A: OneAxis,
    {
        let value = self.value().concat::<A, S2>(rhs.value())?;
        let at = <S as ConcatWith<A, S2>>::AT;
        let (na, nb) = (self.node(), rhs.node());
        let (sa, sb) = (self.sizes().to_vec(), rhs.sizes().to_vec());
        Ok(Var::derived(self.tape(), [na, nb], value, move |_| {
            Box::new(move |g: Vec<T>, acc: &mut Accumulate<'_, T>| {
                if g.is_empty() {
                    // Both operands are empty too; their other sizes may be huge.
                    acc.add(na, Vec::new())?;
                    return acc.add(nb, Vec::new());
                }
                let (ka, kb) = (sa[at], sb[at]);
                let inner: usize = sa[at + 1..].iter().product();
                let outer: usize = sa[..at].iter().product();
                let (mut ga, mut gb) = (
                    Vec::with_capacity(outer * ka * inner),
                    Vec::with_capacity(outer * kb * inner),
                );
                for row in g.chunks_exact(((ka + kb) * inner).max(1)).take(outer) {
                    ga.extend_from_slice(&row[..ka * inner]);
                    gb.extend_from_slice(&row[ka * inner..]);
                }
                if na.is_some() {
                    acc.add(na, ga)?;
                }
                acc.add(nb, gb)
            })
        }))
    }
}
