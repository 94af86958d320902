//! Batch norm in inference by name (rule book §16, norms): a [`BatchNorm`] holds PyTorch's
//! running statistics and affine parameters (`running_mean`, `running_var`, `weight`, `bias`,
//! `eps`) as one scale and shift per channel, as PyTorch's CPU kernel computes them
//! (`scale = weight / sqrt(var + eps)`, `shift = bias - mean * scale`); applying it is one
//! pass, `x * scale + shift`, with the parameters broadcast into the input by the assignment
//! rule, so a `[C: 64]` norm finds the `C` axis of `[N, C: 64, H, W]` by name wherever it is.
//! [`BatchNorm::fold_into`] scales a convolution's weight instead, so the norm costs nothing
//! at inference.
//!
//! ```
//! use shapecast::{names, shape, BatchNorm, Tensor};
//! names!(N, C, H, W);
//! let x = Tensor::<f32, shape![N, C: 2, H: 1, W: 2]>::from_vec_sized(&[1, 2, 1, 2], vec![1.0, 2.0, 3.0, 4.0])?;
//! let mean = Tensor::<f32, shape![C: 2]>::from_array([1.0, 2.0]);
//! let var = Tensor::<f32, shape![C: 2]>::from_array([4.0, 1.0]);
//! let weight = Tensor::<f32, shape![C: 2]>::from_array([1.0, 3.0]);
//! let bias = Tensor::<f32, shape![C: 2]>::from_array([0.0, 1.0]);
//! let bn = BatchNorm::new(&mean, &var, &weight, &bias, 0.0)?;
//! let y = x.batch_norm(&bn);
//! assert_eq!(y.data(), &[0.0, 0.5, 4.0, 7.0]);
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use num_traits::Float;

use super::elementwise::zip_operands;
use crate::engine::zip_fn::Parallel;
use crate::tensor::dyn_tensor::DynTensor;
use crate::tensor::tensor::Tensor;
use crate::typed::broadcast::BroadcastsUnder;
use crate::typed::rule::{Assign, RuleMarker};
use crate::typed::storage::Storage;
use crate::values::error::{Error, OrPanic};
use crate::values::rule::Rule;
use crate::values::shape::DynShape;

/// Batch norm's parameters in inference (PyTorch's `BatchNorm1d/2d/3d` in `eval()` mode) over
/// the parameter shape `P` (`[C: 64]` for 64 channels): one scale and one shift per element,
/// held side by side.
///
/// ```
/// use shapecast::{names, shape, BatchNorm, Tensor};
/// names!(C);
/// let ones = Tensor::<f64, shape![C: 2]>::from_array([1.0, 1.0]);
/// let zeros = Tensor::<f64, shape![C: 2]>::from_array([0.0, 0.0]);
/// let bn = BatchNorm::new(&zeros, &ones, &ones, &zeros, 0.0)?;
/// assert_eq!(bn.scale().data(), &[1.0, 1.0]);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub struct BatchNorm<T, P: Storage<(T, T)>> {
    /// `(scale, shift)` per element of `P`.
    pairs: Tensor<(T, T), P>,
}

impl<T: Clone, P: Storage<(T, T)>> Clone for BatchNorm<T, P>
where
    Tensor<(T, T), P>: Clone,
{
    fn clone(&self) -> Self {
        BatchNorm {
            pairs: self.pairs.clone(),
        }
    }
}

/// The `(scale, shift)` pairs as a tensor of them.
impl<T: core::fmt::Debug, P: Storage<(T, T)>> core::fmt::Debug for BatchNorm<T, P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("BatchNorm")
            .field("scale_shift", &self.pairs)
            .finish()
    }
}

/// The scale and shift of each channel, PyTorch's way: `weight / sqrt(var + eps)` and
/// `bias - mean * scale`. `None` when the four do not have one size list.
fn scale_shift<T: Float>(
    [mean, var, weight, bias]: [(&[usize], &[T]); 4],
    eps: T,
) -> Option<Vec<(T, T)>> {
    let sizes = mean.0;
    if [var.0, weight.0, bias.0].iter().any(|s| *s != sizes) {
        return None;
    }
    let rows = mean.1.iter().zip(var.1).zip(weight.1).zip(bias.1);
    Some(
        rows.map(|(((&m, &v), &w), &b)| {
            let scale = w / (v + eps).sqrt();
            (scale, b - m * scale)
        })
        .collect(),
    )
}

/// The refusal of four statistics of `shape` whose sizes differ (only `?` sizes can).
fn sizes_differ(shape: DynShape, sizes: [&[usize]; 4]) -> Error {
    Error::Norm {
        op: "batch_norm",
        shape,
        axes: "its statistics".into(),
        reason: format!(
            "the running mean, running variance, weight and bias have sizes {:?}, {:?}, {:?} and {:?}: they must be one size",
            sizes[0], sizes[1], sizes[2], sizes[3]
        ),
    }
}

impl<T: Float, P: Storage<T> + Storage<(T, T)>> BatchNorm<T, P> {
    /// The norm from PyTorch's `running_mean`, `running_var`, `weight` and `bias` (all of
    /// shape `P`) and `eps` (PyTorch's default is `1e-5`). Fails only when a `?` size differs
    /// between them.
    ///
    /// ```
    /// use shapecast::{shape, BatchNorm, Tensor};
    /// let a = Tensor::<f32, shape![?]>::from_vec_sized(&[2], vec![0.0, 0.0])?;
    /// let b = Tensor::<f32, shape![?]>::from_vec_sized(&[3], vec![1.0; 3])?;
    /// assert!(BatchNorm::new(&a, &b, &b, &b, 1e-5).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn new(
        mean: &Tensor<T, P>,
        var: &Tensor<T, P>,
        weight: &Tensor<T, P>,
        bias: &Tensor<T, P>,
        eps: T,
    ) -> Result<BatchNorm<T, P>, Error> {
        let four = [mean, var, weight, bias].map(|t| (t.sizes(), t.data()));
        let pairs =
            scale_shift(four, eps).ok_or_else(|| sizes_differ(P::to_dyn(), four.map(|f| f.0)))?;
        Ok(BatchNorm {
            pairs: Tensor::from_parts(mean.sizes(), pairs),
        })
    }

    /// The scale of each element, `weight / sqrt(var + eps)`.
    ///
    /// ```
    /// use shapecast::{shape, BatchNorm, Tensor};
    /// let t = Tensor::<f32, shape![1]>::from_array([4.0]);
    /// let z = Tensor::<f32, shape![1]>::from_array([0.0]);
    /// assert_eq!(BatchNorm::new(&z, &t, &t, &z, 0.0)?.scale().data(), &[2.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn scale(&self) -> Tensor<T, P> {
        self.pairs.map(|(s, _)| s)
    }

    /// The shift of each element, `bias - mean * scale`: a convolution's bias once the scale is
    /// folded into its weight ([`fold_into`](Self::fold_into)).
    ///
    /// ```
    /// use shapecast::{shape, BatchNorm, Tensor};
    /// let one = Tensor::<f32, shape![1]>::from_array([1.0]);
    /// let two = Tensor::<f32, shape![1]>::from_array([2.0]);
    /// assert_eq!(BatchNorm::new(&two, &one, &one, &one, 0.0)?.shift().data(), &[-1.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn shift(&self) -> Tensor<T, P> {
        self.pairs.map(|(_, b)| b)
    }

    /// A convolution's weight with this norm's scale folded in, by name: `w * scale`, the
    /// scale broadcast into `w` by the assignment rule (a `[K: 64]` norm scales the output
    /// channel `K` of a `[K: 64, C: 3, H: 7, W: 7]` weight). The convolution with it, plus
    /// [`shift`](Self::shift), is the convolution followed by the norm. Fails only on a `?`
    /// size that does not fit.
    ///
    /// ```
    /// use shapecast::{names, shape, BatchNorm, Conv, Convolution, Tensor};
    /// names!(N, C, K, T);
    /// let x = Tensor::<f64, shape![N, C: 1, T: 3]>::from_vec_sized(&[1, 1, 3], vec![1.0, 2.0, 3.0])?;
    /// let w = Tensor::<f64, shape![K: 2, C: 1, T: 2]>::from_array([[[1.0, 1.0]], [[1.0, -1.0]]]);
    /// let stat = |a: [f64; 2]| Tensor::<f64, shape![K: 2]>::from_array(a);
    /// let bn = BatchNorm::new(&stat([1.0, 0.0]), &stat([4.0, 1.0]), &stat([1.0, 2.0]), &stat([0.5, 0.0]), 0.0)?;
    /// let unfused = x.conv::<C, Conv>(&w).batch_norm(&bn);
    /// let folded = x.conv::<C, Conv>(&bn.fold_into(&w)?) + bn.shift();
    /// assert_eq!(unfused.data(), folded.data());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn fold_into<W: Storage<T> + BroadcastsUnder<Assign, P>>(
        &self,
        weight: &Tensor<T, W>,
    ) -> Result<Tensor<T, W>, Error>
    where
        T: Send + Sync,
    {
        let mut data = Vec::new();
        zip_operands(
            Assign::RULE,
            weight.operand(),
            self.pairs.operand(),
            &mut data,
            Parallel(scaled::<T>),
        )?;
        Ok(Tensor::from_parts(weight.sizes(), data))
    }
}

impl<T: Float + Send + Sync, S: Storage<T>> Tensor<T, S> {
    /// Batch norm in inference (rule book §16, norms): `x * scale + shift` in one pass, the
    /// norm's parameters broadcast into this tensor by the assignment rule (so by name). The
    /// shapes are checked at compile time; this panics only on a `?` size that does not fit
    /// ([`try_batch_norm`](Self::try_batch_norm) returns the error).
    ///
    /// ```
    /// use shapecast::{names, shape, BatchNorm, Tensor};
    /// names!(N, C);
    /// let x = Tensor::<f32, shape![N, C: 2]>::from_vec_sized(&[2, 2], vec![1.0, 1.0, 3.0, 3.0])?;
    /// let s = |a: [f32; 2]| Tensor::<f32, shape![C: 2]>::from_array(a);
    /// let bn = BatchNorm::new(&s([2.0, 0.0]), &s([1.0, 1.0]), &s([1.0, 1.0]), &s([0.0, 0.0]), 0.0)?;
    /// assert_eq!(x.batch_norm(&bn).data(), &[-1.0, 1.0, 1.0, 3.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    #[track_caller]
    pub fn batch_norm<P: Storage<(T, T)>>(&self, norm: &BatchNorm<T, P>) -> Tensor<T, S>
    where
        S: BroadcastsUnder<Assign, P>,
    {
        self.try_batch_norm(norm).or_panic()
    }

    /// [`batch_norm`](Self::batch_norm), or the error of a `?` size that does not fit.
    ///
    /// ```
    /// use shapecast::{names, shape, BatchNorm, Tensor};
    /// names!(C);
    /// let x = Tensor::<f32, shape![C]>::from_vec_sized(&[3], vec![1.0; 3])?;
    /// let s = Tensor::<f32, shape![C]>::from_vec_sized(&[2], vec![1.0; 2])?;
    /// assert!(x.try_batch_norm(&BatchNorm::new(&s, &s, &s, &s, 0.0)?).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn try_batch_norm<P: Storage<(T, T)>>(
        &self,
        norm: &BatchNorm<T, P>,
    ) -> Result<Tensor<T, S>, Error>
    where
        S: BroadcastsUnder<Assign, P>,
    {
        let mut data = Vec::new();
        zip_operands(
            Assign::RULE,
            self.operand(),
            norm.pairs.operand(),
            &mut data,
            Parallel(scaled_shifted::<T>),
        )?;
        Ok(Tensor::from_parts(self.sizes(), data))
    }
}

impl<T: Float + Send + Sync> DynTensor<T> {
    /// Batch norm in inference (rule book §16, norms): `(x - mean) / sqrt(var + eps) * weight +
    /// bias` as PyTorch's `batch_norm(training=False)` computes it (one scale and shift per
    /// element of the statistics, then one pass), the four statistics of one shape broadcast
    /// into this tensor by the assignment rule. Or the refusal: statistics of different sizes,
    /// or a shape that does not broadcast into this one.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let x = DynTensor::from_vec("[N: 1, C: 2, T: 2]".parse()?, vec![1.0f64, 3.0, 0.0, 2.0])?;
    /// let s = |v: Vec<f64>| DynTensor::from_vec("[C: 2]".parse().unwrap(), v);
    /// let y = x.batch_norm(&s(vec![1.0, 0.0])?, &s(vec![4.0, 1.0])?, &s(vec![1.0, 1.0])?, &s(vec![0.0, 1.0])?, 0.0)?;
    /// assert_eq!(y.data(), &[0.0, 1.0, 1.0, 3.0]);
    /// assert!(x.batch_norm(&s(vec![0.0; 2])?, &s(vec![1.0; 2])?, &s(vec![1.0; 2])?,
    ///     &DynTensor::from_vec("[K: 2]".parse()?, vec![0.0; 2])?, 0.0).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn batch_norm(
        &self,
        mean: &DynTensor<T>,
        var: &DynTensor<T>,
        weight: &DynTensor<T>,
        bias: &DynTensor<T>,
        eps: T,
    ) -> Result<DynTensor<T>, Error> {
        let four = [mean, var, weight, bias];
        if four.iter().any(|t| t.shape() != mean.shape()) {
            return Err(Error::Norm {
                op: "batch_norm",
                shape: self.shape().clone(),
                axes: mean.shape().to_string(),
                reason: format!(
                    "the running mean, running variance, weight and bias are {}, {}, {} and {}: they must be one shape",
                    mean.shape(),
                    var.shape(),
                    weight.shape(),
                    bias.shape()
                ),
            });
        }
        let pairs = scale_shift(four.map(|t| (t.sizes(), t.data())), eps)
            .ok_or_else(|| sizes_differ(mean.shape().clone(), four.map(|t| t.sizes())))?;
        let pairs = DynTensor::from_vec(mean.shape().clone(), pairs)?;
        let mut out = DynTensor::unfilled();
        self.zip_ref_into(
            Rule::Assign,
            &pairs,
            &mut out,
            Parallel(scaled_shifted::<T>),
        )?;
        Ok(out)
    }
}

// The elementwise steps as functions of the element type alone, so that every shape shares
// one copy of the kernels they run in (a closure in a generic method would carry its shapes).

/// `w * scale`: a weight with the norm's scale folded in.
fn scaled<T: Float>(w: &T, &(scale, _): &(T, T)) -> T {
    *w * scale
}

/// `x * scale + shift`: the norm of one element.
fn scaled_shifted<T: Float>(x: &T, &(scale, shift): &(T, T)) -> T {
    *x * scale + shift
}
