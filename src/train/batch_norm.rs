//! Batch norm in training mode (PyTorch's `BatchNorm1d/2d/3d` in `train()`): each element of
//! the weight's shape (a channel) normalised by the mean and the biased variance of the batch
//! over every axis the weight does not have, found by name as the assignment rule places the
//! weight; the [`RunningStats`] updated as PyTorch updates `running_mean` and `running_var`
//! (momentum, the unbiased variance). The backward is layer norm's closed form over those
//! axes (`norm::normed`): batch norm with batch statistics is layer norm over the batch.

use crate::alloc_prelude::*;

use super::norm::normed;
use super::trainable::Trainable;
use super::var::Var;
use crate::dynamic::assign;
use crate::dynamic::norm::Normed;
use crate::engine::gradient::{runs_along, sum_onto, with_expanded};
use crate::tensor::{BatchNorm, Tensor};
use crate::typed::broadcast::BroadcastsUnder;
use crate::typed::rule::Assign;
use crate::typed::storage::Storage;
use crate::values::error::Error;

/// Batch norm's running statistics (PyTorch's `running_mean`, `running_var` and
/// `num_batches_tracked` buffers, with its `momentum` and `eps`) over the parameter shape `P`
/// (`[C: 64]` for 64 channels). [`Var::batch_norm`] updates them on every training batch;
/// [`inference`](Self::inference) makes the [`BatchNorm`] an evaluation pass applies.
///
/// ```
/// use shapecast::prelude::*;
/// use shapecast::train::RunningStats;
/// names!(C);
/// let stats = RunningStats::<f32, shape![C: 3]>::new(&[3])?;
/// assert_eq!((stats.mean().data(), stats.var().data()), (&[0.0; 3][..], &[1.0; 3][..]));
/// assert_eq!((stats.momentum(), stats.eps(), stats.batches()), (0.1, 1e-5, 0));
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct RunningStats<T, P: Storage<T>> {
    mean: Tensor<T, P>,
    var: Tensor<T, P>,
    momentum: T,
    eps: T,
    batches: u64,
}

impl<T: Trainable, P: Storage<T>> RunningStats<T, P> {
    /// PyTorch's initial statistics for a parameter of sizes `sizes`: mean 0, variance 1,
    /// momentum 0.1, `eps` 1e-5; or the error when `sizes` do not fit `P`.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::RunningStats;
    /// names!(C);
    /// assert!(RunningStats::<f64, shape![C: 3]>::new(&[4]).is_err());
    /// ```
    pub fn new(sizes: &[usize]) -> Result<Self, Error> {
        Ok(RunningStats {
            mean: Tensor::zeros_sized(sizes)?,
            var: Tensor::ones_sized(sizes)?,
            momentum: T::from(0.1).unwrap_or_else(T::zero),
            eps: T::from(1e-5).unwrap_or_else(T::zero),
            batches: 0,
        })
    }

    /// Statistics resumed from saved `running_mean` and `running_var`; or the error when
    /// their sizes differ.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::RunningStats;
    /// let m = Tensor::<f32, shape![?]>::from_vec_sized(&[2], vec![0.5, 1.0])?;
    /// let v = Tensor::<f32, shape![?]>::from_vec_sized(&[3], vec![1.0; 3])?;
    /// assert!(RunningStats::from_tensors(m.clone(), v).is_err());
    /// assert_eq!(RunningStats::from_tensors(m.clone(), m)?.mean().data(), &[0.5, 1.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn from_tensors(mean: Tensor<T, P>, var: Tensor<T, P>) -> Result<Self, Error> {
        if mean.sizes() != var.sizes() {
            return Err(Error::Norm {
                op: "batch_norm",
                shape: mean.shape(),
                axes: "its statistics".into(),
                reason: format!(
                    "the running mean has sizes {:?} and the running variance {:?}",
                    mean.sizes(),
                    var.sizes()
                ),
            });
        }
        let fresh = Self::new(mean.sizes())?;
        Ok(RunningStats { mean, var, ..fresh })
    }

    /// These statistics with momentum `momentum` (PyTorch's default 0.1): each batch moves
    /// them `momentum` of the way to its own.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::RunningStats;
    /// let s = RunningStats::<f32, shape![2]>::new(&[2])?.with_momentum(0.01);
    /// assert_eq!(s.momentum(), 0.01);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn with_momentum(self, momentum: T) -> Self {
        RunningStats { momentum, ..self }
    }

    /// These statistics with `eps` (PyTorch's default 1e-5) added to the variance.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::RunningStats;
    /// let s = RunningStats::<f32, shape![2]>::new(&[2])?.with_eps(1e-3);
    /// assert_eq!(s.eps(), 1e-3);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn with_eps(self, eps: T) -> Self {
        RunningStats { eps, ..self }
    }

    /// The running mean (PyTorch's `running_mean`).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::RunningStats;
    /// assert_eq!(RunningStats::<f32, shape![1]>::new(&[1])?.mean().data(), &[0.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn mean(&self) -> &Tensor<T, P> {
        &self.mean
    }

    /// The running variance, unbiased (PyTorch's `running_var`).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::RunningStats;
    /// assert_eq!(RunningStats::<f32, shape![1]>::new(&[1])?.var().data(), &[1.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn var(&self) -> &Tensor<T, P> {
        &self.var
    }

    /// The momentum.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::RunningStats;
    /// assert_eq!(RunningStats::<f64, shape![1]>::new(&[1])?.momentum(), 0.1);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn momentum(&self) -> T {
        self.momentum
    }

    /// The `eps` added to the variance.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::RunningStats;
    /// assert_eq!(RunningStats::<f64, shape![1]>::new(&[1])?.eps(), 1e-5);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn eps(&self) -> T {
        self.eps
    }

    /// How many training batches have updated them (PyTorch's `num_batches_tracked`).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::RunningStats;
    /// assert_eq!(RunningStats::<f64, shape![1]>::new(&[1])?.batches(), 0);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn batches(&self) -> u64 {
        self.batches
    }

    /// The norm an evaluation pass applies (PyTorch's `eval()` mode): these statistics with
    /// `weight` and `bias`; or the error when a `?` size differs.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::RunningStats;
    /// names!(N, C);
    /// let stats = RunningStats::<f64, shape![C: 1]>::new(&[1])?.with_eps(0.0);
    /// let w = Tensor::<f64, shape![C: 1]>::from_array([2.0]);
    /// let b = Tensor::<f64, shape![C: 1]>::from_array([1.0]);
    /// let x = Tensor::<f64, shape![N: 2, C: 1]>::from_array([[1.0], [3.0]]);
    /// assert_eq!(x.batch_norm(&stats.inference(&w, &b)?).data(), &[3.0, 7.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn inference(
        &self,
        weight: &Tensor<T, P>,
        bias: &Tensor<T, P>,
    ) -> Result<BatchNorm<T, P>, Error>
    where
        P: Storage<(T, T)>,
    {
        BatchNorm::new(&self.mean, &self.var, weight, bias, self.eps)
    }
}

impl<T: Trainable, S: Storage<T>> Var<T, S> {
    /// Batch norm in training mode (PyTorch's `BatchNorm2d` in `train()`): each element of
    /// the weight's shape `P` normalised by the batch's mean and biased variance over every
    /// axis `P` does not have (placed by name, as the assignment rule places `P` into this
    /// value), scaled by `weight` and shifted by `bias`; `stats` move toward the batch's mean
    /// and unbiased variance by their momentum. Or the error when a `?` size does not fit, or
    /// a channel has a single value (PyTorch's refusal).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, RunningStats, Tape};
    /// names!(N, C, W);
    /// let weight = Param::new("bn.weight", Tensor::<f64, shape![C: 1]>::from_array([1.0]));
    /// let bias = Param::new("bn.bias", Tensor::<f64, shape![C: 1]>::from_array([0.0]));
    /// let mut stats = RunningStats::new(&[1])?.with_eps(0.0);
    /// let tape = Tape::new();
    /// let x = tape.constant(Tensor::<f64, shape![N: 2, C: 1, W: 1]>::from_array([[[1.0]], [[3.0]]]));
    /// let y = x.batch_norm(&tape.watch(&weight), &tape.watch(&bias), &mut stats)?;
    /// assert_eq!(y.value().data(), &[-1.0, 1.0]);
    /// // Running mean 0.9·0 + 0.1·2, running variance 0.9·1 + 0.1·2 (unbiased).
    /// assert!((stats.mean().data()[0] - 0.2).abs() < 1e-12 && (stats.var().data()[0] - 1.1).abs() < 1e-12);
    /// let first = Tensor::<f64, shape![N: 2, C: 1, W: 1]>::from_array([[[1.0]], [[0.0]]]);
    /// let g = (&y * &first).sum::<(N, C, W)>().backward()?;
    /// assert_eq!((g.of(&weight)?.data(), g.of(&bias)?.data()), (&[-1.0][..], &[1.0][..]));
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn batch_norm<P: Storage<T>>(
        &self,
        weight: &Var<T, P>,
        bias: &Var<T, P>,
        stats: &mut RunningStats<T, P>,
    ) -> Result<Var<T, S>, Error>
    where
        S: BroadcastsUnder<Assign, P>,
    {
        let shape = self.value().shape();
        let refuse = |reason: String| Error::Norm {
            op: "batch_norm",
            shape: shape.clone(),
            axes: "the axes its weight does not have".into(),
            reason,
        };
        let plan = assign::broadcast(&shape, &weight.value().shape())?;
        let (frame, side, sizes) = (self.sizes(), &plan.plan.rhs, weight.sizes());
        for (what, t) in [("bias", bias.value()), ("running statistics", stats.mean())] {
            if t.sizes() != sizes {
                return Err(refuse(format!(
                    "the weight has sizes {sizes:?} and the {what} {:?}",
                    t.sizes()
                )));
            }
        }
        let over: Vec<bool> = (0..frame.len())
            .map(|k| !runs_along(frame, side, sizes, k))
            .collect();
        let n: usize = frame
            .iter()
            .zip(&over)
            .filter(|o| *o.1)
            .map(|o| *o.0)
            .product();
        if n < 2 {
            return Err(refuse(format!(
                "each channel has {n} value, and training needs more than 1"
            )));
        }
        let nt = T::from(n).unwrap_or_else(T::nan);
        let x = self.value().data();
        let mean: Vec<T> = sum_onto(frame, side, sizes, x)
            .into_iter()
            .map(|s| s / nt)
            .collect();
        let centred = with_expanded(frame, x, (&mean, sizes, side), |x, m| *x - *m)?;
        let squares: Vec<T> = centred.iter().map(|&c| c * c).collect();
        let var: Vec<T> = sum_onto(frame, side, sizes, &squares)
            .into_iter()
            .map(|s| s / nt)
            .collect();
        let (w, b) = (weight.value().data(), bias.value().data());
        let affine: Vec<(T, T)> = var
            .iter()
            .zip(w.iter().zip(b))
            .map(|(&v, (&w, &b))| ((v + stats.eps).sqrt().recip() * w, b))
            .collect();
        let y = with_expanded(frame, &centred, (&affine, sizes, side), |c, p| {
            *c * p.0 + p.1
        })?;
        // PyTorch's update: the running variance takes the unbiased variance.
        let (m, keep) = (stats.momentum, T::one() - stats.momentum);
        let unbias = nt / (nt - T::one());
        let moved = |old: &[T], new: &[T], f: T| -> Vec<T> {
            old.iter()
                .zip(new)
                .map(|(&o, &x)| keep * o + m * x * f)
                .collect()
        };
        let running_mean = moved(stats.mean.data(), &mean, T::one());
        let running_var = moved(stats.var.data(), &var, unbias);
        stats.mean = Tensor::from_parts(sizes, running_mean);
        stats.var = Tensor::from_parts(sizes, running_var);
        stats.batches += 1;
        let normed_by = Normed {
            over,
            weight: plan.clone(),
            bias: Some(plan),
        };
        let value = Tensor::from_parts(frame, y);
        Ok(normed(
            self,
            (weight, Some(bias)),
            normed_by,
            stats.eps,
            value,
        ))
    }
}
