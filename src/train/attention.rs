//! Attention and rotary embeddings of tracked values (rule book §16, §17), the forward pass
//! the fused one of [`Attention`](crate::Attention) and [`Rope`]. Attention's backward is
//! flash-attention's (`engine::attention_backward`): per block of queries the scores are
//! recomputed and softmaxed, and GEMM calls give the queries', keys' and values' gradients,
//! so no pass holds the whole score matrix. A rotation's backward is the rotation by the
//! opposite angles, the transpose of each pair's turn.

use crate::alloc_prelude::*;

use alloc::sync::Arc;

use super::tape::Accumulate;
use super::trainable::Trainable;
use super::var::Var;
use crate::engine::attention::Operands;
use crate::engine::attention_backward::attend_backward;
use crate::tensor::{traced_attention, AttentionMask, Rope, Rotary, Tensor};
use crate::typed::attention::AttendWith;
use crate::typed::axis::Axis;
use crate::typed::rope::RotateOver;
use crate::typed::selector::Selector;
use crate::typed::shape::Shape;
use crate::typed::storage::Storage;
use crate::values::error::Error;

/// The output shape of `Var<T, S>.attention::<D, KS>(&Var<T, K>, &Var<T, V>, ..)`:
/// [`Attend<S, K, V, D, KS>`](crate::Attend).
pub type AttentionOf<S, K, V, D, KS> = <S as AttendWith<K, V, D, KS>>::Output;

/// Tracked queries `Self` attend to keys of shape `K` with values of shape `V` over `D` and
/// `KS`: [`AttendWith`] on the shapes. The bound generic code writes for
/// [`VarAttention::attention`].
#[diagnostic::on_unimplemented(
    message = "cannot attend `{Self}` to keys `{K}` with values `{V}` over `{D}` and `{KS}`",
    label = "the queries and keys must contract over `{D}`, and the scores with the values over `{KS}`",
    note = "`{D}` names the head dimension (axes of the queries and the keys, equal in size); `{KS}` names the key axis (an axis of the keys and the values, equal in size)"
)]
pub trait VarAttendBy<K, V, D, KS> {
    /// The element type.
    type Elem: Trainable;
    /// The scores' shape, what a mask broadcasts into.
    type Scores: Shape;
    /// The result's shape.
    type Output: Shape;

    /// The attention and its backward, recorded (what [`VarAttention::attention`] runs).
    #[doc(hidden)]
    fn attend(
        &self,
        keys: &Var<Self::Elem, K>,
        values: &Var<Self::Elem, V>,
        mask: impl AttentionMask<Self::Elem, Self::Scores>,
        scale: Option<Self::Elem>,
    ) -> Result<Var<Self::Elem, Self::Output>, Error>
    where
        K: Storage<Self::Elem>,
        V: Storage<Self::Elem>;
}

#[diagnostic::do_not_recommend]
impl<T, S, K, V, D, KS> VarAttendBy<K, V, D, KS> for Var<T, S>
where
    T: Trainable,
    S: Storage<T> + AttendWith<K, V, D, KS>,
    D: Selector,
    KS: Axis,
{
    type Elem = T;
    type Scores = <S as AttendWith<K, V, D, KS>>::Scores;
    type Output = <S as AttendWith<K, V, D, KS>>::Output;

    fn attend(
        &self,
        keys: &Var<T, K>,
        values: &Var<T, V>,
        mask: impl AttentionMask<T, Self::Scores>,
        scale: Option<T>,
    ) -> Result<Var<T, Self::Output>, Error>
    where
        K: Storage<T>,
        V: Storage<T>,
    {
        assert!(
            self.tape().same(keys.tape()) && self.tape().same(values.tape()),
            "the operands are on two tapes"
        );
        let operands = (self.value(), keys.value(), values.value());
        let nodes = [self.node(), keys.node(), values.node()];
        // The mask's elements are kept for a backward pass only.
        let tracked = nodes.iter().any(Option::is_some);
        let (value, trace, mask) = traced_attention::<_, _, _, D, KS, _>(
            operands,
            mask,
            scale,
            |sizes, data, trace, mask| {
                let value = Tensor::<T, Self::Output>::from_parts(&sizes, data);
                (value, trace, mask.filter(|_| tracked).map(<[T]>::to_vec))
            },
        )?;
        let (q, k, v) = (self.shared(), keys.shared(), values.shared());
        Ok(Var::derived(self.tape(), nodes, value, move |out| {
            let out = Arc::clone(out);
            Box::new(move |g: Vec<T>, acc: &mut Accumulate<'_, T>| {
                let ops = Operands {
                    q: q.data(),
                    k: k.data(),
                    v: v.data(),
                    mask: mask.as_deref(),
                };
                let lens = [q.data().len(), k.data().len(), v.data().len()];
                let grads =
                    attend_backward(ops, &trace.geometry, trace.scale, (out.data(), &g), lens);
                for (node, grad) in nodes.into_iter().zip(grads) {
                    acc.add(node, grad)?;
                }
                Ok(())
            })
        }))
    }
}

/// The scores' shape a mask broadcasts into.
type Scores<Q, K, V, D, KS> = <Q as VarAttendBy<K, V, D, KS>>::Scores;
/// The element type.
type Elem<Q, K, V, D, KS> = <Q as VarAttendBy<K, V, D, KS>>::Elem;
/// What `q.attention::<D, KS>(..)` gives.
type Attended<Q, K, V, D, KS> =
    Result<Var<Elem<Q, K, V, D, KS>, <Q as VarAttendBy<K, V, D, KS>>::Output>, Error>;

/// Scaled dot-product attention on tracked values: `use shapecast::train::VarAttention` (in
/// the prelude). The keys' and values' shapes are the trait's parameters, so a call spells out
/// only the head dimension `D` and the key axis `KS`, as [`Attention`](crate::Attention) does
/// for tensors; the mask ([`NoMask`](crate::NoMask), [`Causal`](crate::Causal) or a tensor)
/// is not tracked.
///
/// ```
/// use shapecast::prelude::*;
/// use shapecast::train::{Param, Tape};
/// names!(SEQ, KSEQ, HD);
/// let wq = Param::new("q", Tensor::<f64, shape![SEQ: 2, HD: 2]>::from_array([[1.0, 0.0], [0.0, 1.0]]));
/// let tape = Tape::new();
/// let k = tape.constant(Tensor::<f64, shape![KSEQ: 2, HD: 2]>::from_array([[1.0, 0.0], [0.0, 1.0]]));
/// let v = tape.constant(Tensor::<f64, shape![KSEQ: 2, HD: 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]));
/// let out = tape.watch(&wq).attention::<HD, KSEQ>(&k, &v, Causal::<SEQ>::new(), None)?;
/// assert_eq!(&out.value().data()[..2], &[1.0, 2.0]); // the first query sees the first key
/// let g = out.sum::<(SEQ, HD)>().backward()?.of(&wq)?;
/// assert_eq!(&g.data()[..2], &[0.0, 0.0]); // nothing to weigh for the first query
/// # Ok::<(), shapecast::Error>(())
/// ```
pub trait VarAttention<K, V> {
    /// The attention of these queries to `keys` with `values` (as
    /// [`Attention::try_attention`](crate::Attention::try_attention)), or its refusal.
    fn attention<D, KS>(
        &self,
        keys: &Var<Elem<Self, K, V, D, KS>, K>,
        values: &Var<Elem<Self, K, V, D, KS>, V>,
        mask: impl AttentionMask<Elem<Self, K, V, D, KS>, Scores<Self, K, V, D, KS>>,
        scale: Option<Elem<Self, K, V, D, KS>>,
    ) -> Attended<Self, K, V, D, KS>
    where
        Self: VarAttendBy<K, V, D, KS>,
        K: Storage<Elem<Self, K, V, D, KS>>,
        V: Storage<Elem<Self, K, V, D, KS>>,
    {
        VarAttendBy::attend(self, keys, values, mask, scale)
    }
}

impl<T: Trainable, S: Storage<T>, K, V> VarAttention<K, V> for Var<T, S> {}

impl<T: Trainable, S: Storage<T>> Var<T, S> {
    /// The rotary embedding of the pairs of the feature axis `F` by the angle of each row's
    /// position along `P` plus `offset` (as [`Rope::try_rope`]), or its refusal. The
    /// gradient is turned back by the opposite angles.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(SEQ, HD);
    /// let rot = Rotary::<f64>::new(RopeStyle::Adjacent, 2, 4, 10000.0)?;
    /// let p = Param::new("x", Tensor::<f64, shape![SEQ: 2, HD: 2]>::from_array([[1.0, 0.0], [1.0, 0.0]]));
    /// let tape = Tape::new();
    /// let y = tape.watch(&p).rope::<SEQ, HD>(&rot, 0)?; // position 1 turned by one radian
    /// let first = Tensor::<f64, shape![SEQ: 2, HD: 2]>::from_array([[0.0, 0.0], [1.0, 0.0]]);
    /// let g = (&y * &first).sum::<(SEQ, HD)>().backward()?.of(&p)?;
    /// assert!((g.data()[2] - 1f64.cos()).abs() < 1e-12 && (g.data()[3] + 1f64.sin()).abs() < 1e-12);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn rope<P, F>(&self, table: &Rotary<T>, offset: usize) -> Result<Var<T, S>, Error>
    where
        S: RotateOver<P, F>,
        P: Selector,
        F: Selector,
    {
        let value = self.value().try_rope::<P, F>(table, offset)?;
        Ok(self.unary_op_prepared(value, || {
            let back = table.reversed();
            move |g, x: &Tensor<T, S>, _: &Tensor<T, S>| {
                let g = Tensor::<T, S>::from_parts(x.sizes(), g);
                Ok(g.try_rope::<P, F>(&back, offset)?.into_vec())
            }
        }))
    }
}
