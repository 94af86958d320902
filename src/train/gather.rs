//! Gathers and stacks of tracked values: `take` (an embedding lookup, whose gradient adds
//! each taken row back at its index, so a repeated index accumulates, as PyTorch's
//! `embedding_backward` does), `gather` along an axis (PyTorch's `gather`: the gradient
//! scattered back and added, `scatter_add`), and [`stack`] and [`stack_at`] (each part gets
//! its slice of the gradient). One-hot labels ([`Tensor::one_hot`]) are made from integers, so
//! they carry no gradient: they enter a tracked computation as a [`Tensor`] operand.

use crate::alloc_prelude::*;

use alloc::sync::Arc;

use super::tape::Accumulate;
use super::trainable::Trainable;
use super::var::Var;
use crate::engine::gradient::scatter_add;
use crate::tensor::{IndexElement, Tensor, TensorView};
use crate::typed::axis::Axis;
use crate::typed::gather::{GatheredFrom, TakenFrom};
use crate::typed::reduce::{Pos, Selector};
use crate::typed::shape::Shape;
use crate::typed::size::Dyn;
use crate::typed::storage::Storage;
use crate::typed::surgery::{InsertAxis, InsertAxisAt, SliceAxis, Stack, StackAt, StackUnder};
use crate::values::error::Error;

impl<T: Trainable, S: Storage<T>> Var<T, S> {
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

    /// One element along the axis `A` for every index (as `Tensor::try_gather`: PyTorch's
    /// `gather`), the result of the indices' shape; or the error when an index is out of
    /// range. The gradient goes back to the elements picked, an element picked several times
    /// getting the sum (PyTorch's `scatter_add`).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(B, CLASS);
    /// let p = Param::new("scores", Tensor::<f64, shape![B: 2, CLASS: 3]>::zeros()?);
    /// let picks = Tensor::<i64, shape![B: 2, CLASS: 2]>::from_array([[1, 1], [0, 2]]);
    /// let tape = Tape::new();
    /// let picked = tape.watch(&p).gather::<CLASS, _>(&picks)?; // [B: 2, CLASS: 2]
    /// let g = picked.sum::<(B, CLASS)>().backward()?.of(&p)?;
    /// assert_eq!(g.data(), &[0.0, 2.0, 0.0, 1.0, 0.0, 1.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn gather<A, I>(
        &self,
        indices: &Tensor<impl IndexElement, I>,
    ) -> Result<Var<T, <I as GatheredFrom<S, A>>::Output>, Error>
    where
        A: Selector,
        I: Shape + GatheredFrom<S, A>,
        <I as GatheredFrom<S, A>>::Output: Storage<T>,
    {
        let value = self.value().try_gather::<A, I>(indices)?;
        Ok(self.unary_op_prepared(value, || {
            // The same gather on the positions: where each picked element was read from (the
            // indices were checked by the gather above).
            let len = self.value().data().len();
            let positions = Tensor::<usize, S>::from_parts(self.sizes(), (0..len).collect());
            let from = positions.try_gather::<A, I>(indices).map(Tensor::into_vec);
            move |g, _, _| Ok(scatter_add(len, &from?, &g))
        }))
    }
}

/// Each part's slice of `g`, the gradient of their stack at position `at` of a result of
/// `count` parts: `outer` runs of `inner` elements per part.
fn unstacked<T: Copy>(g: &[T], count: usize, (outer, inner): (usize, usize)) -> Vec<Vec<T>> {
    (0..count)
        .map(|k| {
            (0..outer)
                .flat_map(|o| {
                    let from = (o * count + k) * inner;
                    g[from..from + inner].iter().copied()
                })
                .collect()
        })
        .collect()
}

/// The stack of `parts` (their values stacked into `value` at position `at`), recorded with
/// its backward.
fn stacked<T: Trainable, Sh: Storage<T>, O: Storage<T>>(
    parts: &[Var<T, Sh>],
    at: usize,
    value: Tensor<T, O>,
) -> Result<Var<T, O>, Error> {
    let first = parts.first().ok_or_else(|| Error::Gradient {
        reason: "there are no values to stack".into(),
    })?;
    assert!(
        parts.iter().all(|p| p.tape().same(first.tape())),
        "the values are on two tapes"
    );
    let nodes: Vec<Option<usize>> = parts.iter().map(Var::node).collect();
    let sizes = first.sizes().to_vec();
    let outer: usize = sizes[..at].iter().product();
    let inner: usize = sizes[at..].iter().product();
    let any = nodes.iter().copied().find(Option::is_some).flatten();
    Ok(Var::derived(first.tape(), [any], value, move |_| {
        Box::new(move |g: Vec<T>, acc: &mut Accumulate<'_, T>| {
            for (node, grad) in nodes.iter().zip(unstacked(&g, nodes.len(), (outer, inner))) {
                acc.add(*node, grad)?;
            }
            Ok(())
        })
    }))
}

/// Tracked values of one shape stacked under a new leading axis `N` whose size is their count
/// (as [`crate::stack`]); or the error when there are none or their sizes differ. Each part
/// gets its slice of the gradient.
///
/// ```
/// use shapecast::prelude::*;
/// use shapecast::train::{stack, Param, Tape};
/// names!(N, H);
/// let a = Param::new("a", Tensor::<f64, shape![H: 2]>::from_array([1.0, 2.0]));
/// let tape = Tape::new();
/// let x = tape.watch(&a);
/// let s = stack::<N, _, _>(&[x.clone(), &x * 3.0])?; // [N: 2, H: 2]
/// assert_eq!(s.value().data(), &[1.0, 2.0, 3.0, 6.0]);
/// assert_eq!(s.sum::<(N, H)>().backward()?.of(&a)?.data(), &[4.0, 4.0]);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn stack<N, T: Trainable, Sh>(parts: &[Var<T, Sh>]) -> Result<Var<T, Stack<N, Sh>>, Error>
where
    Sh: StackUnder<N> + Storage<T>,
    N: Axis,
{
    let views: Vec<TensorView<'_, T, Sh>> = parts.iter().map(|p| p.value().view()).collect();
    let value = crate::tensor::stack::<N, T, Sh>(&views)?;
    stacked(parts, 0, value)
}

/// Tracked values of one shape stacked under a new axis `N` at position `K` (as
/// [`crate::stack_at`]: at the last position, interleaved); or the error when there are none
/// or their sizes differ. Each part gets its slice of the gradient.
///
/// ```
/// use shapecast::prelude::*;
/// use shapecast::train::{stack_at, Param, Tape};
/// names!(HALF, PAIR);
/// let re = Param::new("re", Tensor::<f64, shape![HALF: 2]>::from_array([1.0, 2.0]));
/// let tape = Tape::new();
/// let x = tape.watch(&re);
/// let z = stack_at::<1, PAIR, _, _>(&[x.clone(), -&x])?; // [HALF: 2, PAIR: 2]
/// assert_eq!(z.value().data(), &[1.0, -1.0, 2.0, -2.0]);
/// let w = Tensor::<f64, shape![HALF: 2, PAIR: 2]>::from_array([[1.0, 10.0], [100.0, 1000.0]]);
/// assert_eq!((&z * &w).sum::<(HALF, PAIR)>().backward()?.of(&re)?.data(), &[-9.0, -900.0]);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn stack_at<const K: usize, N, T: Trainable, Sh>(
    parts: &[Var<T, Sh>],
) -> Result<Var<T, StackAt<Sh, K, N>>, Error>
where
    Sh: InsertAxisAt<K, N> + Storage<T>,
    InsertAxis<Sh, K, N>: SliceAxis<Pos<K>, Dyn>,
    N: Axis,
{
    let views: Vec<TensorView<'_, T, Sh>> = parts.iter().map(|p| p.value().view()).collect();
    let value = crate::tensor::stack_at::<K, N, T, Sh>(&views)?;
    stacked(parts, K, value)
}
