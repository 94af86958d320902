//! The losses on tracked logits: cross-entropy and the negative log-likelihood against integer
//! targets, with PyTorch's options (class weights, label smoothing, `ignore_index`) and
//! reductions. The gradient is written in one pass from the softmax, as PyTorch's fused
//! backward does, not through the composition.

use crate::alloc_prelude::*;

use super::trainable::Trainable;
use super::var::Var;
use crate::tensor::{ClassWeightsFor, IndexElement, Loss, Reduction, Reductions, Tensor};
use crate::typed::reduce::{OneAxis, Reduce, ReduceOver};
use crate::typed::storage::Storage;
use crate::values::error::Error;

/// What the backward of a loss needs besides the logits: the layout of the class axis, each
/// target's class (`None`: ignored), the options and the reduction's divisor.
struct Targets<T> {
    at: usize,
    classes: Vec<Option<usize>>,
    weight: Option<Vec<T>>,
    smoothing: T,
    divisor: T,
    log_probs: bool,
}

impl<T: Trainable> Targets<T> {
    /// The targets of `targets` under `opts` and `reduction`, for logits whose class axis is
    /// `at` (the forward pass has checked them).
    fn new<I: IndexElement, W>(
        at: usize,
        targets: &[I],
        opts: &Loss<'_, T, W>,
        reduction: Reduction,
        log_probs: bool,
    ) -> Self {
        let ignored = |t: I| opts.ignore_index.is_some() && t.signed() == opts.ignore_index;
        let classes: Vec<Option<usize>> = targets
            .iter()
            .map(|&t| if ignored(t) { None } else { t.position() })
            .collect();
        let weight = opts.weight.map(<[T]>::to_vec);
        let w = |c: usize| weight.as_ref().map_or(T::one(), |w| w[c]);
        let divisor = match reduction {
            Reduction::Sum => T::one(),
            Reduction::Mean => classes.iter().flatten().fold(T::zero(), |s, &c| s + w(c)),
        };
        let smoothing = if log_probs {
            T::zero()
        } else {
            T::from(opts.label_smoothing).unwrap_or_else(T::zero)
        };
        Targets {
            at,
            classes,
            weight,
            smoothing,
            divisor,
            log_probs,
        }
    }

    /// The gradient of the logits (or log-probabilities) `x` of sizes `sizes`, for a loss
    /// whose gradient is `g`.
    fn backward(&self, sizes: &[usize], x: &[T], p: Option<&[T]>, g: T) -> Vec<T> {
        let classes = sizes[self.at];
        let inner: usize = sizes[self.at + 1..].iter().product();
        let w = |c: usize| self.weight.as_ref().map_or(T::one(), |w| w[c]);
        let total_w = (0..classes).fold(T::zero(), |s, c| s + w(c));
        let eps = self.smoothing;
        let per_class = eps / T::from(classes).unwrap_or_else(T::one);
        let scale = g / self.divisor;
        let mut out = vec![T::zero(); x.len()];
        for (cell, t) in self.classes.iter().enumerate() {
            let Some(t) = *t else { continue };
            let (outer, inside) = (cell / inner.max(1), cell % inner.max(1));
            let at = |c: usize| (outer * classes + c) * inner + inside;
            if self.log_probs {
                out[at(t)] = -w(t) * scale;
                continue;
            }
            let p = p.unwrap_or(x);
            let hit = (T::one() - eps) * w(t);
            for c in 0..classes {
                let pc = p[at(c)];
                let delta = if c == t { T::one() } else { T::zero() };
                let spread = per_class * (total_w * pc - w(c));
                out[at(c)] = scale * (hit * (pc - delta) + spread);
            }
        }
        out
    }
}

impl<T: Trainable, S: Storage<T>> Var<T, S> {
    /// The cross-entropy of these logits along the class axis `A` against integer `targets`,
    /// reduced (PyTorch's `cross_entropy` with `weight`, `label_smoothing`, `ignore_index`
    /// and `reduction='sum'` or `'mean'`); or the forward pass's error (a target that is not a
    /// class, weights of another count).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(N, CLASS);
    /// let p = Param::new("logits", Tensor::<f64, shape![N: 2, CLASS: 2]>::zeros()?);
    /// let labels = Tensor::<i64, shape![N: 2]>::from_array([1, -100]);
    /// let tape = Tape::new();
    /// let loss = tape.watch(&p).cross_entropy::<CLASS>(&labels, &Loss::default(), Reduction::Mean)?;
    /// assert!((loss.value().data()[0] - 2f64.ln()).abs() < 1e-12);
    /// // softmax − one-hot for the first row; the ignored row gets nothing
    /// assert_eq!(loss.backward()?.of(&p)?.data(), &[0.5, -0.5, 0.0, 0.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn cross_entropy<A>(
        &self,
        targets: &Tensor<impl IndexElement, Reduce<S, A>>,
        opts: &Loss<'_, T, impl ClassWeightsFor<S, A>>,
        reduction: Reduction,
    ) -> Result<Var<T, ()>, Error>
    where
        A: OneAxis,
        S: ReduceOver<A>,
    {
        let value = self
            .value()
            .try_cross_entropy_reduced::<A>(targets, opts, reduction)?;
        Ok(self.loss::<A>(
            value,
            Targets::new(class_axis::<S, A>(), targets.data(), opts, reduction, false),
        ))
    }

    /// The negative log-likelihood of these log-probabilities along the class axis `A`
    /// against integer `targets`, reduced (PyTorch's `nll_loss`).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(N, CLASS);
    /// let p = Param::new("logp", Tensor::<f64, shape![N: 2, CLASS: 2]>::zeros()?);
    /// let labels = Tensor::<i64, shape![N: 2]>::from_array([1, 0]);
    /// let tape = Tape::new();
    /// let loss = tape.watch(&p).nll_loss::<CLASS>(&labels, &Loss::default(), Reduction::Sum)?;
    /// assert_eq!(loss.backward()?.of(&p)?.data(), &[0.0, -1.0, -1.0, 0.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn nll_loss<A>(
        &self,
        targets: &Tensor<impl IndexElement, Reduce<S, A>>,
        opts: &Loss<'_, T, impl ClassWeightsFor<S, A>>,
        reduction: Reduction,
    ) -> Result<Var<T, ()>, Error>
    where
        A: OneAxis,
        S: ReduceOver<A>,
    {
        let value = self
            .value()
            .try_nll_loss_reduced::<A>(targets, opts, reduction)?;
        Ok(self.loss::<A>(
            value,
            Targets::new(class_axis::<S, A>(), targets.data(), opts, reduction, true),
        ))
    }

    /// A loss `value` with its backward from `targets`.
    fn loss<A>(&self, value: Tensor<T, ()>, targets: Targets<T>) -> Var<T, ()>
    where
        S: ReduceOver<A>,
    {
        self.unary_op(value, move |g, x, _| {
            let p = (!targets.log_probs).then(|| x.softmax::<A>());
            Ok(targets.backward(x.sizes(), x.data(), p.as_ref().map(|p| p.data()), g[0]))
        })
    }
}

/// The position of the one axis `A` selects in `S`.
fn class_axis<S: ReduceOver<A>, A>() -> usize {
    S::MASK[..S::RANK].iter().position(|&m| m).unwrap_or(0)
}
