//! The losses over a named class axis (rule book §21): `cross_entropy` and `nll_loss`,
//! PyTorch's with `reduction='none'` (one loss per target), class weights, label smoothing and
//! an ignored index as [`Loss`] options, on tensors and `DynTensor`. The targets' shape is the
//! logits' without the class axis (checked at compile time for typed tensors).

use crate::alloc_prelude::*;

use num_traits::Float;

use super::dyn_tensor::DynTensor;
use super::tensor::Tensor;
use crate::engine::vmath::Transcendental;
use crate::typed::reduce::{OneAxis, Reduce, ReduceOver};
use crate::typed::storage::Storage;
use crate::values::error::{Error, OrPanic};
use crate::values::selector::AxisSelector;

/// Options of the losses (PyTorch's `cross_entropy`/`nll_loss` arguments): class weights,
/// label smoothing (cross-entropy only) and a target value to ignore (its loss is 0).
///
/// ```
/// use shapecast::Loss;
/// let opts = Loss::<f32>::default().label_smoothing(0.1).ignore_index(255);
/// assert_eq!((opts.label_smoothing, opts.ignore_index), (0.1, Some(255)));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Loss<'w, T> {
    /// A weight per class (PyTorch's `weight`): each target's loss is scaled by its class'
    /// weight. With weights PyTorch's `reduction='mean'` divides the sum by the targets'
    /// weights, not by their count: `loss.sum() / weights_of_targets.sum()`.
    pub weight: Option<&'w [T]>,
    /// The share ε of the target spread over all classes (PyTorch's `label_smoothing`): the
    /// loss is `(1 − ε)·(−w_y·log p_y) + ε/C · Σ_c −w_c·log p_c`.
    pub label_smoothing: f64,
    /// A target value whose loss is 0 (PyTorch's `ignore_index`, there −100; void labels such
    /// as 255 in segmentation).
    pub ignore_index: Option<usize>,
}

impl<T> Default for Loss<'_, T> {
    fn default() -> Self {
        Loss {
            weight: None,
            label_smoothing: 0.0,
            ignore_index: None,
        }
    }
}

impl<'w, T> Loss<'w, T> {
    /// These options with class weights.
    ///
    /// ```
    /// let w = [1.0f32, 2.0];
    /// assert!(shapecast::Loss::default().weight(&w).weight.is_some());
    /// ```
    pub fn weight(self, weight: &'w [T]) -> Self {
        Loss {
            weight: Some(weight),
            ..self
        }
    }

    /// These options with label smoothing `epsilon` (0 to 1).
    ///
    /// ```
    /// assert_eq!(shapecast::Loss::<f32>::default().label_smoothing(0.2).label_smoothing, 0.2);
    /// ```
    pub fn label_smoothing(self, epsilon: f64) -> Self {
        Loss {
            label_smoothing: epsilon,
            ..self
        }
    }

    /// These options ignoring targets equal to `index`.
    ///
    /// ```
    /// assert_eq!(shapecast::Loss::<f32>::default().ignore_index(255).ignore_index, Some(255));
    /// ```
    pub fn ignore_index(self, index: usize) -> Self {
        Loss {
            ignore_index: Some(index),
            ..self
        }
    }
}

/// The loss of each target: `logp` row-major by `sizes` (log-probabilities along axis `at`),
/// `targets` one per cell of the other axes, in their row-major order.
fn losses<T: Float>(
    logp: &[T],
    sizes: &[usize],
    at: usize,
    targets: &[usize],
    opts: &Loss<'_, T>,
    smoothing: bool,
    refuse: impl Fn(String) -> Error,
) -> Result<Vec<T>, Error> {
    let classes = sizes[at];
    if let Some(w) = opts.weight
        && w.len() != classes
    {
        return Err(refuse(format!(
            "{} class weights for {classes} classes",
            w.len()
        )));
    }
    if !(0.0..=1.0).contains(&opts.label_smoothing) {
        return Err(refuse(format!(
            "label smoothing {} is not between 0 and 1",
            opts.label_smoothing
        )));
    }
    let ignored = |t: usize| opts.ignore_index == Some(t);
    if let Some((k, &bad)) = targets
        .iter()
        .enumerate()
        .find(|&(_, &t)| t >= classes && !ignored(t))
    {
        return Err(refuse(format!(
            "target {bad} at position {k} is not a class: there are {classes}"
        )));
    }
    let inner: usize = sizes[at + 1..].iter().product();
    let weight = |c: usize| opts.weight.map_or(T::one(), |w| w[c]);
    let eps = T::from(if smoothing { opts.label_smoothing } else { 0.0 }).unwrap_or_else(T::zero);
    let per_class = eps / T::from(classes).unwrap_or_else(T::infinity);
    let out = targets
        .iter()
        .enumerate()
        .map(|(cell, &t)| {
            if ignored(t) {
                return T::zero();
            }
            let (outer, inside) = (cell / inner.max(1), cell % inner.max(1));
            let at_class = |c: usize| logp[(outer * classes + c) * inner + inside];
            let hit = -weight(t) * at_class(t);
            if eps == T::zero() {
                return hit;
            }
            let spread = (0..classes).fold(T::zero(), |acc, c| acc - weight(c) * at_class(c));
            (T::one() - eps) * hit + per_class * spread
        })
        .collect();
    Ok(out)
}

impl<T: Transcendental> DynTensor<T> {
    /// The cross-entropy of these logits along the class axis against integer `targets`, one
    /// loss per target (rule book §21; PyTorch's `cross_entropy` with `reduction='none'`):
    /// `targets` has this shape without the class axis. With `opts`, class weights, label
    /// smoothing and an ignored index. Or the error: the axis missing, targets of another
    /// shape, a target not a class, weights of another length.
    ///
    /// ```
    /// use shapecast::{DynTensor, Loss};
    /// let logits = DynTensor::from_vec("[N: 2, CLASS: 2]".parse()?, vec![0.0f64, 0.0, 10.0, -10.0])?;
    /// let targets = DynTensor::from_vec("[N: 2]".parse()?, vec![1usize, 0])?;
    /// let loss = logits.cross_entropy(&"CLASS".parse()?, &targets, &Loss::default())?;
    /// assert!((loss.data()[0] - 2f64.ln()).abs() < 1e-12);
    /// assert!(loss.data()[1] < 1e-8);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn cross_entropy(
        &self,
        axis: &AxisSelector,
        targets: &DynTensor<usize>,
        opts: &Loss<'_, T>,
    ) -> Result<DynTensor<T>, Error> {
        let logp = self.log_softmax(core::slice::from_ref(axis))?;
        logp.target_losses("cross_entropy", axis, targets, opts, true)
    }

    /// The negative log-likelihood of these log-probabilities along the class axis against
    /// integer `targets` (PyTorch's `nll_loss` with `reduction='none'`: `−w_y · x_y`); see
    /// [`cross_entropy`](Self::cross_entropy). Label smoothing does not apply.
    ///
    /// ```
    /// use shapecast::{DynTensor, Loss};
    /// let logp = DynTensor::from_vec("[N: 2, CLASS: 2]".parse()?, vec![-0.5f32, -1.0, -2.0, -0.1])?;
    /// let targets = DynTensor::from_vec("[N: 2]".parse()?, vec![1usize, 0])?;
    /// let loss = logp.nll_loss(&"CLASS".parse()?, &targets, &Loss::default())?;
    /// assert_eq!(loss.data(), &[1.0, 2.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn nll_loss(
        &self,
        axis: &AxisSelector,
        targets: &DynTensor<usize>,
        opts: &Loss<'_, T>,
    ) -> Result<DynTensor<T>, Error> {
        self.target_losses("nll_loss", axis, targets, opts, false)
    }

    fn target_losses(
        &self,
        op: &'static str,
        axis: &AxisSelector,
        targets: &DynTensor<usize>,
        opts: &Loss<'_, T>,
        smoothing: bool,
    ) -> Result<DynTensor<T>, Error> {
        let refuse = |reason: String| Error::Gather {
            op,
            shape: self.shape().clone(),
            by: format!("{axis} against {}", targets.shape()),
            reason,
        };
        let at = axis
            .position(self.shape())
            .ok_or_else(|| refuse(format!("it has no axis {axis}")))?;
        let rest = crate::dynamic::reduce::apply(
            self.shape(),
            &(0..self.shape().rank())
                .map(|k| k == at)
                .collect::<Vec<_>>(),
            false,
        );
        let resolved = rest.resolve(targets.sizes()).ok();
        if resolved.as_ref() != Some(targets.shape()) {
            return Err(refuse(format!(
                "the targets must have the logits' shape without the class axis, {rest}"
            )));
        }
        let data = losses(
            self.data(),
            self.sizes(),
            at,
            targets.data(),
            opts,
            smoothing,
            refuse,
        )?;
        Ok(DynTensor::from_parts(
            targets.shape().clone(),
            targets.sizes().to_vec(),
            data,
        ))
    }
}

impl<T: Transcendental, S: Storage<T>> Tensor<T, S> {
    /// The cross-entropy of these logits along the class axis `A` against integer `targets`
    /// (rule book §21; PyTorch's `cross_entropy`, `reduction='none'`): one loss per target,
    /// and the targets' shape is the logits' without `A`, checked at compile time. Take the
    /// `mean` of the result for PyTorch's default reduction.
    ///
    /// # Panics
    ///
    /// When a target is not a class; [`try_cross_entropy`](Self::try_cross_entropy) returns
    /// the error, and takes [`Loss`] options (weights, label smoothing, an ignored index).
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(N, CLASS, H);
    /// let logits = Tensor::<f64, shape![N: 1, CLASS: 2, H: 2]>::from_array([[[0.0, 10.0], [0.0, -10.0]]]);
    /// let labels = Tensor::<usize, shape![N: 1, H: 2]>::from_array([[1, 0]]);
    /// let loss: Tensor<f64, shape![N: 1, H: 2]> = logits.cross_entropy::<CLASS>(&labels);
    /// assert!((loss.data()[0] - 2f64.ln()).abs() < 1e-12 && loss.data()[1] < 1e-8);
    /// ```
    #[track_caller]
    pub fn cross_entropy<A>(&self, targets: &Tensor<usize, Reduce<S, A>>) -> Tensor<T, Reduce<S, A>>
    where
        A: OneAxis,
        S: ReduceOver<A>,
        Reduce<S, A>: Storage<T> + Storage<usize>,
    {
        self.try_cross_entropy::<A>(targets, &Loss::default())
            .or_panic()
    }

    /// [`cross_entropy`](Self::cross_entropy) with options, or the error: a target not a
    /// class (and not ignored), weights of another length, smoothing outside 0 to 1.
    ///
    /// ```
    /// use shapecast::{names, shape, Loss, Tensor};
    /// names!(N, CLASS);
    /// let logits = Tensor::<f64, shape![N: 2, CLASS: 2]>::from_array([[0.0, 0.0], [0.0, 0.0]]);
    /// let labels = Tensor::<usize, shape![N: 2]>::from_array([1, 255]);
    /// let w = [1.0, 3.0];
    /// let loss = logits.try_cross_entropy::<CLASS>(&labels, &Loss::default().weight(&w).ignore_index(255))?;
    /// assert!((loss.data()[0] - 3.0 * 2f64.ln()).abs() < 1e-12);
    /// assert_eq!(loss.data()[1], 0.0);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn try_cross_entropy<A>(
        &self,
        targets: &Tensor<usize, Reduce<S, A>>,
        opts: &Loss<'_, T>,
    ) -> Result<Tensor<T, Reduce<S, A>>, Error>
    where
        A: OneAxis,
        S: ReduceOver<A>,
        Reduce<S, A>: Storage<T> + Storage<usize>,
    {
        let logp = self.log_softmax::<A>();
        logp.typed_losses::<A>("cross_entropy", targets, opts, true)
    }

    /// The negative log-likelihood of these log-probabilities along the class axis `A`
    /// against integer `targets` (PyTorch's `nll_loss`, `reduction='none'`).
    ///
    /// ```
    /// use shapecast::{names, shape, Loss, Tensor};
    /// names!(N, CLASS);
    /// let logp = Tensor::<f32, shape![N: 2, CLASS: 2]>::from_array([[-0.5, -1.0], [-2.0, -0.1]]);
    /// let labels = Tensor::<usize, shape![N: 2]>::from_array([1, 0]);
    /// assert_eq!(logp.try_nll_loss::<CLASS>(&labels, &Loss::default())?.data(), &[1.0, 2.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn try_nll_loss<A>(
        &self,
        targets: &Tensor<usize, Reduce<S, A>>,
        opts: &Loss<'_, T>,
    ) -> Result<Tensor<T, Reduce<S, A>>, Error>
    where
        A: OneAxis,
        S: ReduceOver<A>,
        Reduce<S, A>: Storage<T> + Storage<usize>,
    {
        self.typed_losses::<A>("nll_loss", targets, opts, false)
    }

    fn typed_losses<A>(
        &self,
        op: &'static str,
        targets: &Tensor<usize, Reduce<S, A>>,
        opts: &Loss<'_, T>,
        smoothing: bool,
    ) -> Result<Tensor<T, Reduce<S, A>>, Error>
    where
        A: OneAxis,
        S: ReduceOver<A>,
        Reduce<S, A>: Storage<T> + Storage<usize>,
    {
        let at = S::MASK[..S::RANK]
            .iter()
            .position(|&m| m)
            .expect("OneAxis selects one axis");
        let refuse = |reason: String| Error::Gather {
            op,
            shape: self.shape(),
            by: format!(
                "{} against {}",
                S::NAMES[at].unwrap_or("the class axis"),
                targets.shape()
            ),
            reason,
        };
        // The targets' static sizes match by type; a `?` size must match at run time.
        let kept: Vec<usize> = (0..S::RANK)
            .filter(|&k| k != at)
            .map(|k| self.sizes()[k])
            .collect();
        if kept != targets.sizes() {
            return Err(refuse(format!(
                "the targets' sizes {:?} are not the logits' without the class axis, {kept:?}",
                targets.sizes()
            )));
        }
        let data = losses(
            self.data(),
            self.sizes(),
            at,
            targets.data(),
            opts,
            smoothing,
            refuse,
        )?;
        Ok(Tensor::from_parts(targets.sizes(), data))
    }
}
