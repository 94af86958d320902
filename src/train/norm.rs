//! Layer norm and RMS norm of tracked values over named axes (rule book §16, norms), the
//! forward pass the fused one; the backward in PyTorch's closed form: with `x̂` the normalised
//! input, `r` the reciprocal deviation and `h = g · weight`, the input's gradient is
//! `r · (h − mean(h) − x̂ · mean(h · x̂))` (RMS: without the first mean), the weight's the sum
//! of `g · x̂` and the bias' of `g` over everything but their own axes.

use crate::alloc_prelude::*;

use super::tape::Accumulate;
use super::trainable::Trainable;
use super::var::Var;
use crate::dynamic::norm::{norm, Normed};
use crate::engine::gradient::{expand, kept_side, sum_axes, sum_onto, with_expanded};
use crate::tensor::{NormWeight, Norms, Tensor};
use crate::typed::reduce::Selector;
use crate::typed::storage::Storage;
use crate::values::error::Error;

/// Layer norm and RMS norm on tracked values: `use shapecast::train::VarNorms` (in the
/// prelude). The weight's shape is the trait's parameter, so a call spells out only the axes.
///
/// ```
/// use shapecast::prelude::*;
/// use shapecast::train::{Param, Tape};
/// names!(T, E);
/// let g = Param::new("ln.weight", Tensor::<f64, shape![E: 2]>::from_array([1.0, 1.0]));
/// let b = Param::new("ln.bias", Tensor::<f64, shape![E: 2]>::from_array([0.0, 0.0]));
/// let tape = Tape::new();
/// let x = tape.constant(Tensor::<f64, shape![T: 1, E: 2]>::from_array([[1.0, 3.0]]));
/// let y = x.layer_norm::<E>(&tape.watch(&g), &tape.watch(&b), 0.0)?; // [-1, 1]
/// let first = Tensor::<f64, shape![E: 2]>::from_array([1.0, 0.0]);
/// let grads = (&y * &first).sum::<(T, E)>().backward()?;
/// assert_eq!(grads.of(&g)?.data(), &[-1.0, 0.0]); // x̂ where the loss looks
/// assert_eq!(grads.of(&b)?.data(), &[1.0, 0.0]);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub trait VarNorms<W> {
    /// The element type.
    type Elem: Trainable;
    /// The input's shape.
    type Shape: Storage<Self::Elem>;

    /// Layer norm over the axes `A` (as [`Norms::layer_norm`]), or its refusal.
    fn layer_norm<A: Selector>(
        &self,
        weight: &Var<Self::Elem, W>,
        bias: &Var<Self::Elem, W>,
        eps: Self::Elem,
    ) -> Result<Var<Self::Elem, Self::Shape>, Error>
    where
        W: Storage<Self::Elem>,
        Tensor<Self::Elem, W>: NormWeight<Self::Shape, A, Self::Elem>;

    /// RMS norm over the axes `A` (as [`Norms::rms_norm`]), or its refusal.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(E);
    /// let g = Param::new("norm.weight", Tensor::<f64, shape![E: 2]>::from_array([2.0, 2.0]));
    /// let tape = Tape::new();
    /// let x = tape.constant(Tensor::<f64, shape![E: 2]>::from_array([3.0, 4.0]));
    /// let y = x.rms_norm::<E>(&tape.watch(&g), 0.0)?; // x / rms(x) · 2, rms = √12.5
    /// let grads = y.sum::<E>().backward()?;
    /// let r = 12.5f64.sqrt();
    /// assert!((grads.of(&g)?.data()[0] - 3.0 / r).abs() < 1e-12);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    fn rms_norm<A: Selector>(
        &self,
        weight: &Var<Self::Elem, W>,
        eps: Self::Elem,
    ) -> Result<Var<Self::Elem, Self::Shape>, Error>
    where
        W: Storage<Self::Elem>,
        Tensor<Self::Elem, W>: NormWeight<Self::Shape, A, Self::Elem>;
}

impl<T: Trainable, S: Storage<T>, W> VarNorms<W> for Var<T, S> {
    type Elem = T;
    type Shape = S;

    fn layer_norm<A: Selector>(
        &self,
        weight: &Var<T, W>,
        bias: &Var<T, W>,
        eps: T,
    ) -> Result<Var<T, S>, Error>
    where
        W: Storage<T>,
        Tensor<T, W>: NormWeight<S, A, T>,
    {
        let value = Norms::try_layer_norm::<A>(self.value(), weight.value(), bias.value(), eps)?;
        let plan = norm(
            "layer_norm",
            &self.value().shape(),
            &A::selectors(),
            &weight.value().shape(),
            Some(&bias.value().shape()),
        )?;
        Ok(normed(self, (weight, Some(bias)), plan, eps, value))
    }

    fn rms_norm<A: Selector>(&self, weight: &Var<T, W>, eps: T) -> Result<Var<T, S>, Error>
    where
        W: Storage<T>,
        Tensor<T, W>: NormWeight<S, A, T>,
    {
        let value = Norms::try_rms_norm::<A>(self.value(), weight.value(), eps)?;
        let plan = norm(
            "rms_norm",
            &self.value().shape(),
            &A::selectors(),
            &weight.value().shape(),
            None,
        )?;
        Ok(normed(self, (weight, None), plan, eps, value))
    }
}

/// The normalised `value` of `x` by `plan`, recorded with its backward.
pub(super) fn normed<T: Trainable, S: Storage<T>, W: Storage<T>>(
    x: &Var<T, S>,
    (w, b): (&Var<T, W>, Option<&Var<T, W>>),
    plan: Normed,
    eps: T,
    value: Tensor<T, S>,
) -> Var<T, S> {
    let (nx, nw, nb) = (x.node(), w.node(), b.and_then(Var::node));
    let (xv, wv) = (x.shared(), w.shared());
    let layer = b.is_some();
    Var::derived(x.tape(), [nx, nw, nb], value, move |_| {
        Box::new(move |g: Vec<T>, acc: &mut Accumulate<'_, T>| {
            if g.is_empty() {
                // An empty input: its rows' statistics are never formed (its other sizes may
                // be huge), and the weight and bias take no part.
                let zeros = || vec![T::zero(); wv.data().len()];
                acc.add(nb, zeros())?;
                acc.add(nw, zeros())?;
                return acc.add(nx, Vec::new());
            }
            let (frame, over) = (xv.sizes(), &plan.over);
            let kept: Vec<usize> = frame
                .iter()
                .zip(over)
                .filter(|&(_, &o)| !o)
                .map(|(&n, _)| n)
                .collect();
            let side = kept_side(over);
            let n = frame
                .iter()
                .zip(over)
                .filter(|&(_, &o)| o)
                .map(|(&n, _)| n)
                .product::<usize>();
            let inv_n = T::from(n).map_or_else(T::nan, T::recip);
            let mean_of = |v: &[T]| -> Vec<T> {
                sum_axes(frame, over, v)
                    .into_iter()
                    .map(|s| s * inv_n)
                    .collect()
            };
            // x̂ and the reciprocal deviation r, recomputed from the input.
            let x = xv.data();
            let centred: Vec<T> = if layer {
                let mu = mean_of(x);
                with_expanded(frame, x, (&mu, &kept, &side), |x, m| *x - *m)?
            } else {
                x.to_vec()
            };
            let squares: Vec<T> = centred.iter().map(|&c| c * c).collect();
            let r: Vec<T> = mean_of(&squares)
                .into_iter()
                .map(|v| (v + eps).sqrt().recip())
                .collect();
            let xhat = with_expanded(frame, &centred, (&r, &kept, &side), |c, r| *c * *r)?;
            let (w_side, w_sizes) = (&plan.weight.plan.rhs, wv.sizes());
            if let (Some(bias), Some(_)) = (&plan.bias, nb) {
                acc.add(nb, sum_onto(frame, &bias.plan.rhs, w_sizes, &g))?;
            }
            if nw.is_some() {
                let gx: Vec<T> = g.iter().zip(&xhat).map(|(&g, &h)| g * h).collect();
                acc.add(nw, sum_onto(frame, w_side, w_sizes, &gx))?;
            }
            if nx.is_some() {
                let h = with_expanded(frame, &g, (wv.data(), w_sizes, w_side), |g, w| *g * *w)?;
                let hx: Vec<T> = h.iter().zip(&xhat).map(|(&h, &x)| h * x).collect();
                let m2 = expand(frame, (&mean_of(&hx), &kept, &side))?;
                let m1 = if layer {
                    expand(frame, (&mean_of(&h), &kept, &side))?
                } else {
                    vec![T::zero(); h.len()]
                };
                let inner: Vec<T> = h
                    .iter()
                    .zip(&m1)
                    .zip(xhat.iter().zip(&m2))
                    .map(|((&h, &m1), (&xh, &m2))| h - m1 - xh * m2)
                    .collect();
                acc.add(
                    nx,
                    with_expanded(frame, &inner, (&r, &kept, &side), |v, r| *v * *r)?,
                )?;
            }
            Ok(())
        })
    })
}
