//! The losses over a named class axis (rule book §21): `cross_entropy` and `nll_loss`,
//! PyTorch's with `reduction='none'` (one loss per target) and, as `*_reduced`, with a
//! [`Reduction`] (sum, PyTorch's weighted mean); class weights (a slice, or a tensor over the
//! class axis checked at compile time), label smoothing and an ignored index (−100 by default)
//! as [`Loss`] options, on tensors and `DynTensor`. The targets are any [`IndexElement`], and
//! their shape is the logits' without the class axis (checked at compile time for typed
//! tensors).

use crate::alloc_prelude::*;

use num_traits::{Float, NumCast, One, Zero};

use super::loss_options::{ClassWeightsFor, Loss, Reduction};
use super::reductions::Reductions;
use crate::engine::vmath::{narrowed, Transcendental};
use crate::tensor::dyn_tensor::DynTensor;
use crate::tensor::index_element::IndexElement;
use crate::tensor::tensor::Tensor;
use crate::typed::reduce::{OneAxis, Reduce, ReduceOver};
use crate::typed::storage::Storage;
use crate::values::error::{Error, OrPanic};
use crate::values::selector::AxisSelector;
use crate::values::shape::DynShape;

/// The per-target losses and the targets' total weight, in the elements'
/// [`Wide`](Transcendental::Wide) type (`f32` for half precision: the weights, the smoothing
/// spread and the reduction's sum accumulate there, as PyTorch's do).
type WideLosses<T> = (
    Vec<<T as Transcendental>::Wide>,
    <T as Transcendental>::Wide,
);

/// The loss of each target and the targets' total weight (what a mean divides by): `logp`
/// row-major by `sizes` (log-probabilities along axis `at`), `targets` one per cell of the
/// other axes, in their row-major order.
fn losses<T: Transcendental, X: IndexElement, W>(
    logp: &[T],
    sizes: &[usize],
    at: usize,
    targets: &[X],
    opts: &Loss<'_, T, W>,
    smoothing: bool,
    refuse: impl Fn(String) -> Error,
) -> Result<WideLosses<T>, Error> {
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
    let ignored = |t: X| opts.ignore_index.is_some() && t.signed() == opts.ignore_index;
    let class = |t: X| t.position().filter(|&c| c < classes);
    if let Some((k, &bad)) = targets
        .iter()
        .enumerate()
        .find(|&(_, &t)| class(t).is_none() && !ignored(t))
    {
        return Err(refuse(format!(
            "target {bad} at position {k} is not a class: there are {classes}{}",
            match opts.ignore_index {
                Some(i) => format!(", and the ignored index is {i}"),
                None => String::new(),
            }
        )));
    }
    let inner: usize = sizes[at + 1..].iter().product();
    let one = T::Wide::one();
    let weight = |c: usize| opts.weight.map_or(one, |w| w[c].widen());
    let eps = <T::Wide as NumCast>::from(if smoothing { opts.label_smoothing } else { 0.0 })
        .unwrap_or_else(T::Wide::zero);
    let per_class = eps / <T::Wide as NumCast>::from(classes).unwrap_or_else(T::Wide::infinity);
    let mut total = T::Wide::zero();
    let out = targets
        .iter()
        .enumerate()
        .map(|(cell, &t)| {
            let Some(t) = class(t).filter(|_| !ignored(t)) else {
                return T::Wide::zero();
            };
            total = total + weight(t);
            let (outer, inside) = (cell / inner.max(1), cell % inner.max(1));
            let at_class = |c: usize| logp[(outer * classes + c) * inner + inside].widen();
            let hit = -weight(t) * at_class(t);
            if eps == T::Wide::zero() {
                return hit;
            }
            let spread = (0..classes).fold(T::Wide::zero(), |acc, c| acc - weight(c) * at_class(c));
            (one - eps) * hit + per_class * spread
        })
        .collect();
    Ok((out, total))
}

/// Which loss: cross-entropy (log-softmax first, label smoothing applies) or the negative
/// log-likelihood of log-probabilities.
#[derive(Clone, Copy)]
enum Which {
    CrossEntropy,
    Nll,
}

impl Which {
    /// Its name in errors, and whether it smooths labels.
    fn label(self) -> (&'static str, bool) {
        match self {
            Which::CrossEntropy => ("cross_entropy", true),
            Which::Nll => ("nll_loss", false),
        }
    }
}

/// Per-target losses laid out as the targets, each rounded once.
fn per_target<T: Transcendental, X>(
    targets: &DynTensor<X>,
    (losses, _): WideLosses<T>,
) -> DynTensor<T> {
    DynTensor::from_parts(
        targets.shape().clone(),
        targets.sizes().to_vec(),
        narrowed(losses),
    )
}

/// The per-target `losses` reduced, with the targets' total weight, rounded once.
fn reduce<T: Transcendental>((losses, total): WideLosses<T>, reduction: Reduction) -> T {
    let sum = losses.iter().fold(T::Wide::zero(), |acc, &l| acc + l);
    T::narrow(match reduction {
        Reduction::Sum => sum,
        Reduction::Mean => sum / total,
    })
}

impl<T: Transcendental> DynTensor<T> {
    /// The cross-entropy of these logits along the class axis against integer `targets`, one
    /// loss per target (rule book §21; PyTorch's `cross_entropy` with `reduction='none'`):
    /// `targets` has this shape without the class axis, in any [`IndexElement`] type. With
    /// `opts`, class weights, label smoothing and an ignored index (PyTorch's −100 by
    /// default). Or the error: the axis missing, targets of another shape, a target not a
    /// class (negative included) and not ignored, weights of another length.
    ///
    /// ```
    /// use shapecast::{DynTensor, Loss};
    /// let logits = DynTensor::from_vec("[N: 2, CLASS: 2]".parse()?, vec![0.0f64, 0.0, 10.0, -10.0])?;
    /// let targets = DynTensor::from_vec("[N: 2]".parse()?, vec![1i64, 0])?;
    /// let loss = logits.cross_entropy(&"CLASS".parse()?, &targets, &Loss::default())?;
    /// assert!((loss.data()[0] - 2f64.ln()).abs() < 1e-12);
    /// assert!(loss.data()[1] < 1e-8);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn cross_entropy<W>(
        &self,
        axis: &AxisSelector,
        targets: &DynTensor<impl IndexElement>,
        opts: &Loss<'_, T, W>,
    ) -> Result<DynTensor<T>, Error> {
        let losses = self.losses_by(Which::CrossEntropy, axis, targets, opts)?;
        Ok(per_target(targets, losses))
    }

    /// [`cross_entropy`](Self::cross_entropy) reduced to one value, a tensor of shape `[]`
    /// (PyTorch's `reduction='sum'` or `'mean'`, its default: see [`Reduction`]).
    ///
    /// ```
    /// use shapecast::{DynTensor, Loss, Reduction};
    /// let logits = DynTensor::from_vec("[N: 2, CLASS: 2]".parse()?, vec![0.0f64; 4])?;
    /// let targets = DynTensor::from_vec("[N: 2]".parse()?, vec![1usize, 0])?;
    /// let w = [1.0, 3.0];
    /// let opts = Loss::default().weight(&w);
    /// let sum = logits.cross_entropy_reduced(&"CLASS".parse()?, &targets, &opts, Reduction::Sum)?;
    /// let mean = logits.cross_entropy_reduced(&"CLASS".parse()?, &targets, &opts, Reduction::Mean)?;
    /// assert!((sum.data()[0] - 4.0 * 2f64.ln()).abs() < 1e-12);
    /// assert!((mean.data()[0] - 2f64.ln()).abs() < 1e-12); // divided by 3 + 1
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn cross_entropy_reduced<W>(
        &self,
        axis: &AxisSelector,
        targets: &DynTensor<impl IndexElement>,
        opts: &Loss<'_, T, W>,
        reduction: Reduction,
    ) -> Result<DynTensor<T>, Error> {
        let losses = self.losses_by(Which::CrossEntropy, axis, targets, opts)?;
        DynTensor::from_vec(DynShape::scalar(), vec![reduce(losses, reduction)])
    }

    /// The negative log-likelihood of these log-probabilities along the class axis against
    /// integer `targets` (PyTorch's `nll_loss` with `reduction='none'`: `−w_y · x_y`); see
    /// [`cross_entropy`](Self::cross_entropy). Label smoothing does not apply.
    ///
    /// ```
    /// use shapecast::{DynTensor, Loss};
    /// let logp = DynTensor::from_vec("[N: 2, CLASS: 2]".parse()?, vec![-0.5f32, -1.0, -2.0, -0.1])?;
    /// let targets = DynTensor::from_vec("[N: 2]".parse()?, vec![1i32, 0])?;
    /// let loss = logp.nll_loss(&"CLASS".parse()?, &targets, &Loss::default())?;
    /// assert_eq!(loss.data(), &[1.0, 2.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn nll_loss<W>(
        &self,
        axis: &AxisSelector,
        targets: &DynTensor<impl IndexElement>,
        opts: &Loss<'_, T, W>,
    ) -> Result<DynTensor<T>, Error> {
        let losses = self.losses_by(Which::Nll, axis, targets, opts)?;
        Ok(per_target(targets, losses))
    }

    /// [`nll_loss`](Self::nll_loss) reduced to one value, a tensor of shape `[]` (see
    /// [`Reduction`]).
    ///
    /// ```
    /// use shapecast::{DynTensor, Loss, Reduction};
    /// let logp = DynTensor::from_vec("[N: 2, CLASS: 2]".parse()?, vec![-0.5f32, -1.0, -2.0, -0.1])?;
    /// let targets = DynTensor::from_vec("[N: 2]".parse()?, vec![1i64, 0])?;
    /// let mean = logp.nll_loss_reduced(&"CLASS".parse()?, &targets, &Loss::default(), Reduction::Mean)?;
    /// assert_eq!(mean.data(), &[1.5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn nll_loss_reduced<W>(
        &self,
        axis: &AxisSelector,
        targets: &DynTensor<impl IndexElement>,
        opts: &Loss<'_, T, W>,
        reduction: Reduction,
    ) -> Result<DynTensor<T>, Error> {
        let losses = self.losses_by(Which::Nll, axis, targets, opts)?;
        DynTensor::from_vec(DynShape::scalar(), vec![reduce(losses, reduction)])
    }

    /// The per-target losses of `which` and the targets' total weight.
    fn losses_by<W>(
        &self,
        which: Which,
        axis: &AxisSelector,
        targets: &DynTensor<impl IndexElement>,
        opts: &Loss<'_, T, W>,
    ) -> Result<WideLosses<T>, Error> {
        match which {
            Which::CrossEntropy => {
                let logp = self.log_softmax(core::slice::from_ref(axis))?;
                logp.target_losses(which.label(), axis, targets, opts)
            }
            Which::Nll => self.target_losses(which.label(), axis, targets, opts),
        }
    }

    fn target_losses<W>(
        &self,
        (op, smoothing): (&'static str, bool),
        axis: &AxisSelector,
        targets: &DynTensor<impl IndexElement>,
        opts: &Loss<'_, T, W>,
    ) -> Result<WideLosses<T>, Error> {
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
        losses(
            self.data(),
            self.sizes(),
            at,
            targets.data(),
            opts,
            smoothing,
            refuse,
        )
    }
}

impl<T: Transcendental, S: Storage<T>> Tensor<T, S> {
    /// The cross-entropy of these logits along the class axis `A` against integer `targets`
    /// (rule book §21; PyTorch's `cross_entropy`, `reduction='none'`): one loss per target,
    /// and the targets' shape is the logits' without `A`, checked at compile time; the
    /// targets are any [`IndexElement`] (PyTorch's `i64` labels as they come). Targets equal
    /// to −100 are ignored, as in PyTorch. [`try_cross_entropy_reduced`](Self::try_cross_entropy_reduced)
    /// gives PyTorch's default mean.
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
    /// let labels = Tensor::<i64, shape![N: 1, H: 2]>::from_array([[1, 0]]);
    /// let loss: Tensor<f64, shape![N: 1, H: 2]> = logits.cross_entropy::<CLASS>(&labels);
    /// assert!((loss.data()[0] - 2f64.ln()).abs() < 1e-12 && loss.data()[1] < 1e-8);
    /// ```
    #[track_caller]
    pub fn cross_entropy<A>(
        &self,
        targets: &Tensor<impl IndexElement, Reduce<S, A>>,
    ) -> Tensor<T, Reduce<S, A>>
    where
        A: OneAxis,
        S: ReduceOver<A>,
    {
        self.try_cross_entropy::<A>(targets, &Loss::default())
            .or_panic()
    }

    /// [`cross_entropy`](Self::cross_entropy) with options, or the error: a target not a
    /// class (and not ignored), weights of another length, smoothing outside 0 to 1. Typed
    /// class weights ([`Loss::class_weights`]) are checked against `A` at compile time.
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
        targets: &Tensor<impl IndexElement, Reduce<S, A>>,
        opts: &Loss<'_, T, impl ClassWeightsFor<S, A>>,
    ) -> Result<Tensor<T, Reduce<S, A>>, Error>
    where
        A: OneAxis,
        S: ReduceOver<A>,
    {
        let (losses, _) = self.typed_losses_by::<A>(Which::CrossEntropy, targets, opts)?;
        Ok(Tensor::from_parts(targets.sizes(), narrowed(losses)))
    }

    /// [`try_cross_entropy`](Self::try_cross_entropy) reduced to one value (PyTorch's
    /// `reduction='sum'` or `'mean'`, its default: see [`Reduction`]).
    ///
    /// ```
    /// use shapecast::{names, shape, Loss, Reduction, Tensor};
    /// names!(N, CLASS);
    /// let logits = Tensor::<f64, shape![N: 3, CLASS: 2]>::from_vec(vec![0.0; 6])?;
    /// let labels = Tensor::<i64, shape![N: 3]>::from_array([1, -100, 0]);
    /// let w = Tensor::<f64, shape![CLASS: 2]>::from_array([1.0, 3.0]);
    /// let opts = Loss::default().class_weights(&w);
    /// let mean: Tensor<f64, shape![]> = logits.try_cross_entropy_reduced::<CLASS>(&labels, &opts, Reduction::Mean)?;
    /// assert!((mean.data()[0] - 2f64.ln()).abs() < 1e-12); // (3 + 1)·ln 2 / (3 + 1)
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn try_cross_entropy_reduced<A>(
        &self,
        targets: &Tensor<impl IndexElement, Reduce<S, A>>,
        opts: &Loss<'_, T, impl ClassWeightsFor<S, A>>,
        reduction: Reduction,
    ) -> Result<Tensor<T, ()>, Error>
    where
        A: OneAxis,
        S: ReduceOver<A>,
    {
        let losses = self.typed_losses_by::<A>(Which::CrossEntropy, targets, opts)?;
        Ok(Tensor::from_array(reduce::<T>(losses, reduction)))
    }

    /// The negative log-likelihood of these log-probabilities along the class axis `A`
    /// against integer `targets` (PyTorch's `nll_loss`, `reduction='none'`).
    ///
    /// ```
    /// use shapecast::{names, shape, Loss, Tensor};
    /// names!(N, CLASS);
    /// let logp = Tensor::<f32, shape![N: 2, CLASS: 2]>::from_array([[-0.5, -1.0], [-2.0, -0.1]]);
    /// let labels = Tensor::<i64, shape![N: 2]>::from_array([1, 0]);
    /// assert_eq!(logp.try_nll_loss::<CLASS>(&labels, &Loss::default())?.data(), &[1.0, 2.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn try_nll_loss<A>(
        &self,
        targets: &Tensor<impl IndexElement, Reduce<S, A>>,
        opts: &Loss<'_, T, impl ClassWeightsFor<S, A>>,
    ) -> Result<Tensor<T, Reduce<S, A>>, Error>
    where
        A: OneAxis,
        S: ReduceOver<A>,
    {
        let (losses, _) = self.typed_losses_by::<A>(Which::Nll, targets, opts)?;
        Ok(Tensor::from_parts(targets.sizes(), narrowed(losses)))
    }

    /// [`try_nll_loss`](Self::try_nll_loss) reduced to one value (see [`Reduction`]).
    ///
    /// ```
    /// use shapecast::{names, shape, Loss, Reduction, Tensor};
    /// names!(N, CLASS);
    /// let logp = Tensor::<f32, shape![N: 2, CLASS: 2]>::from_array([[-0.5, -1.0], [-2.0, -0.1]]);
    /// let labels = Tensor::<i64, shape![N: 2]>::from_array([1, 0]);
    /// let sum = logp.try_nll_loss_reduced::<CLASS>(&labels, &Loss::default(), Reduction::Sum)?;
    /// assert_eq!(sum.data(), &[3.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn try_nll_loss_reduced<A>(
        &self,
        targets: &Tensor<impl IndexElement, Reduce<S, A>>,
        opts: &Loss<'_, T, impl ClassWeightsFor<S, A>>,
        reduction: Reduction,
    ) -> Result<Tensor<T, ()>, Error>
    where
        A: OneAxis,
        S: ReduceOver<A>,
    {
        let losses = self.typed_losses_by::<A>(Which::Nll, targets, opts)?;
        Ok(Tensor::from_array(reduce::<T>(losses, reduction)))
    }

    /// The per-target losses of `which` and the targets' total weight.
    fn typed_losses_by<A>(
        &self,
        which: Which,
        targets: &Tensor<impl IndexElement, Reduce<S, A>>,
        opts: &Loss<'_, T, impl ClassWeightsFor<S, A>>,
    ) -> Result<WideLosses<T>, Error>
    where
        A: OneAxis,
        S: ReduceOver<A>,
    {
        match which {
            Which::CrossEntropy => {
                self.log_softmax::<A>()
                    .typed_losses::<A>(which.label(), targets, opts)
            }
            Which::Nll => self.typed_losses::<A>(which.label(), targets, opts),
        }
    }

    fn typed_losses<A>(
        &self,
        (op, smoothing): (&'static str, bool),
        targets: &Tensor<impl IndexElement, Reduce<S, A>>,
        opts: &Loss<'_, T, impl ClassWeightsFor<S, A>>,
    ) -> Result<WideLosses<T>, Error>
    where
        A: OneAxis,
        S: ReduceOver<A>,
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
        losses(
            self.data(),
            self.sizes(),
            at,
            targets.data(),
            opts,
            smoothing,
            refuse,
        )
    }
}
