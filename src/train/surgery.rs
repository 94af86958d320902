//! Shape surgery and gathers on tracked values: `rename` (the gradient passes through as it
//! is), `slice` (the gradient lands in the window, zeros elsewhere) and `take` (an embedding lookup, whose gradient adds each taken row back at its index,
//! so a repeated index accumulates, as PyTorch's `embedding_backward` does).

use crate::alloc_prelude::*;

use alloc::sync::Arc;

use super::tape::Accumulate;
use super::var::{Trainable, Var};
use crate::tensor::{IndexElement, Tensor};
use crate::typed::gather::TakenFrom;
use crate::typed::reduce::OneAxis;
use crate::typed::reduce::Selector;
use crate::typed::shape::Shape;
use crate::typed::size::Dyn;
use crate::typed::storage::Storage;
use crate::typed::surgery::{Rename, RenameAxis, Slice, SliceAxis};
use crate::values::error::Error;
use core::ops::{Bound, RangeBounds};

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
        Rename<S, A, B>: Storage<T>,
    {
        let value = self.value().clone().rename::<A, B>();
        let node = self.node();
        Var::derived(self.tape(), [node], value, move |_| {
            Box::new(move |g: Vec<T>, acc: &mut Accumulate<'_, T>| acc.add(node, g))
        })
    }

    /// The slices along the axis `A` at `indices`, `A` replaced by the indices' axes (as
    /// `Tensor::try_take`: an embedding lookup); or the error when an index is out of range.
    /// The gradient of a row taken several times is the sum of its uses.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(VOCAB, EMBED, T);
    /// let embed = Param::new("wte", Tensor::<f64, shape![VOCAB: 3, EMBED: 2]>::zeros()?);
    /// let tokens = Tensor::<i64, shape![T: 3]>::from_array([2, 0, 2]);
    /// let tape = Tape::new();
    /// let x = tape.watch(&embed).take::<VOCAB, _>(&tokens)?; // [T: 3, EMBED: 2]
    /// let g = x.sum::<(T, EMBED)>().backward()?.of(&embed)?;
    /// assert_eq!(g.data(), &[1.0, 1.0, 0.0, 0.0, 2.0, 2.0]); // row 2 taken twice
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn take<A, I>(
        &self,
        indices: &Tensor<impl IndexElement, I>,
    ) -> Result<Var<T, <I as TakenFrom<S, A>>::Output>, Error>
    where
        A: Selector,
        I: Shape + TakenFrom<S, A>,
        <I as TakenFrom<S, A>>::Output: Storage<T>,
    {
        let value = self.value().try_take::<A, I>(indices)?;
        let at = A::selectors()
            .first()
            .and_then(|s| s.position(&self.value().shape()))
            .unwrap_or(0);
        // The forward pass has checked every index.
        let rows: Vec<usize> = indices
            .data()
            .iter()
            .map(|i| i.position().unwrap_or(0))
            .collect();
        let (node, sizes) = (self.node(), self.sizes().to_vec());
        Ok(Var::derived(
            self.tape(),
            [node],
            value,
            move |_: &Arc<Tensor<T, _>>| {
                Box::new(move |g: Vec<T>, acc: &mut Accumulate<'_, T>| {
                    let n = sizes[at];
                    let outer: usize = sizes[..at].iter().product();
                    let inner: usize = sizes[at + 1..].iter().product();
                    let mut gx = vec![T::zero(); outer * n * inner];
                    for o in 0..outer {
                        for (k, &row) in rows.iter().enumerate() {
                            let from = (o * rows.len() + k) * inner;
                            let to = (o * n + row) * inner;
                            gx[to..to + inner]
                                .iter_mut()
                                .zip(&g[from..from + inner])
                                .for_each(|(x, &g)| *x = *x + g);
                        }
                    }
                    acc.add(node, gx)
                })
            },
        ))
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
        Slice<S, A>: Storage<T>,
    {
        let start = match range.start_bound() {
            Bound::Included(&s) => s,
            Bound::Excluded(&s) => s.saturating_add(1),
            Bound::Unbounded => 0,
        };
        let value = self.value().slice::<A>(range)?.to_tensor();
        let at = <S as SliceAxis<A, Dyn>>::AT;
        let (node, sizes) = (self.node(), self.sizes().to_vec());
        let kept = value.sizes()[at];
        Ok(Var::derived(self.tape(), [node], value, move |_| {
            Box::new(move |g: Vec<T>, acc: &mut Accumulate<'_, T>| {
                let (n, inner) = (sizes[at], sizes[at + 1..].iter().product::<usize>());
                let outer: usize = sizes[..at].iter().product();
                let mut gx = vec![T::zero(); outer * n * inner];
                for o in 0..outer {
                    let from = o * kept * inner;
                    let to = (o * n + start) * inner;
                    gx[to..to + kept * inner].copy_from_slice(&g[from..from + kept * inner]);
                }
                acc.add(node, gx)
            })
        }))
    }
}
