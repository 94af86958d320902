//! The losses' options (rule book §21): [`Loss`] (class weights as a slice or as a tensor over
//! the class axis, label smoothing, the ignored index), [`Reduction`], and
//! [`ClassWeightsFor`], the compile-time check of typed class weights. The losses themselves
//! are in [`loss`](super::loss).

use core::marker::PhantomData;

use crate::tensor::tensor::Tensor;
use crate::typed::broadcast::BroadcastsUnder;
use crate::typed::reduce::ReduceOver;
use crate::typed::rule::Assign;
use crate::typed::shape::Shape;

/// Options of the losses (PyTorch's `cross_entropy`/`nll_loss` arguments): class weights,
/// label smoothing (cross-entropy only) and a target value to ignore (its loss is 0).
///
/// `W` is the shape of typed class weights ([`class_weights`](Self::class_weights)), checked
/// against the class axis at compile time; weights given as a slice
/// ([`weight`](Self::weight)) are [`SliceWeights`], checked by length at run time.
///
/// ```
/// use shapecast::Loss;
/// let opts = Loss::<f32>::default().label_smoothing(0.1).ignore_index(255);
/// assert_eq!((opts.label_smoothing, opts.ignore_index), (0.1, Some(255)));
/// assert_eq!(Loss::<f32>::default().ignore_index, Some(-100)); // PyTorch's default
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Loss<'w, T, W = SliceWeights> {
    /// A weight per class (PyTorch's `weight`): each target's loss is scaled by its class'
    /// weight. With weights PyTorch's `reduction='mean'` divides the sum by the targets'
    /// weights, not by their count: `loss.sum() / weights_of_targets.sum()`.
    pub weight: Option<&'w [T]>,
    /// The share ε of the target spread over all classes (PyTorch's `label_smoothing`): the
    /// loss is `(1 − ε)·(−w_y·log p_y) + ε/C · Σ_c −w_c·log p_c`.
    pub label_smoothing: f64,
    /// A target value whose loss is 0 and which no mean counts (PyTorch's `ignore_index`,
    /// −100 by default there and here; void labels such as 255 in segmentation). `None`
    /// ignores nothing.
    pub ignore_index: Option<i64>,
    weights: PhantomData<W>,
}

/// The weights' shape of [`Loss`] options whose class weights, if any, are a slice: checked
/// by length at run time.
///
/// ```
/// let opts: shapecast::Loss<'_, f32, shapecast::SliceWeights> = shapecast::Loss::default();
/// assert!(opts.weight.is_none());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SliceWeights;

impl<T> Default for Loss<'_, T> {
    fn default() -> Self {
        Loss {
            weight: None,
            label_smoothing: 0.0,
            ignore_index: Some(-100),
            weights: PhantomData,
        }
    }
}

impl<'w, T, W> Loss<'w, T, W> {
    /// These options with class weights as a slice, one per class in the class axis' order
    /// (checked by length when the loss runs).
    ///
    /// ```
    /// let w = [1.0f32, 2.0];
    /// assert!(shapecast::Loss::default().weight(&w).weight.is_some());
    /// ```
    pub fn weight(self, weight: &'w [T]) -> Loss<'w, T, SliceWeights> {
        Loss {
            weight: Some(weight),
            label_smoothing: self.label_smoothing,
            ignore_index: self.ignore_index,
            weights: PhantomData,
        }
    }

    /// These options with class weights as a tensor over the class axis (`[CLASS: 3]`): a
    /// typed loss checks at compile time that its one axis is the class axis, with its size.
    ///
    /// ```
    /// use shapecast::{names, shape, Loss, Tensor};
    /// names!(N, CLASS);
    /// let w = Tensor::<f64, shape![CLASS: 2]>::from_array([1.0, 3.0]);
    /// let logits = Tensor::<f64, shape![N: 1, CLASS: 2]>::from_array([[0.0, 0.0]]);
    /// let labels = Tensor::<i64, shape![N: 1]>::from_array([1]);
    /// let loss = logits.try_cross_entropy::<CLASS>(&labels, &Loss::default().class_weights(&w))?;
    /// assert!((loss.data()[0] - 3.0 * 2f64.ln()).abs() < 1e-12);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn class_weights<C: Shape>(self, weight: &'w Tensor<T, C>) -> Loss<'w, T, C> {
        Loss {
            weight: Some(weight.data()),
            label_smoothing: self.label_smoothing,
            ignore_index: self.ignore_index,
            weights: PhantomData,
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

    /// These options ignoring targets equal to `index` (in place of PyTorch's −100).
    ///
    /// ```
    /// assert_eq!(shapecast::Loss::<f32>::default().ignore_index(255).ignore_index, Some(255));
    /// ```
    pub fn ignore_index(self, index: i64) -> Self {
        Loss {
            ignore_index: Some(index),
            ..self
        }
    }

    /// These options ignoring no target value.
    ///
    /// ```
    /// assert_eq!(shapecast::Loss::<f32>::default().ignore_none().ignore_index, None);
    /// ```
    pub fn ignore_none(self) -> Self {
        Loss {
            ignore_index: None,
            ..self
        }
    }
}

/// How a loss' per-target values become one (PyTorch's `reduction`; its `'none'` is the
/// per-target methods, `cross_entropy` and `nll_loss`).
///
/// ```
/// use shapecast::{DynTensor, Loss, Reduction};
/// let logits = DynTensor::from_vec("[N: 2, CLASS: 2]".parse()?, vec![0.0f64; 4])?;
/// let targets = DynTensor::from_vec("[N: 2]".parse()?, vec![1i64, -100])?;
/// let mean = logits.cross_entropy_reduced(&"CLASS".parse()?, &targets, &Loss::default(), Reduction::Mean)?;
/// assert!((mean.data()[0] - 2f64.ln()).abs() < 1e-12); // the ignored target is not counted
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reduction {
    /// The sum of the per-target losses.
    Sum,
    /// The sum divided by the targets' total weight: their count when there are no class
    /// weights, `Σ w_y` over the targets otherwise; ignored targets count for nothing, and a
    /// loss with every target ignored is NaN (PyTorch's weighted mean).
    Mean,
}

/// Class weights of shape `Self` fit the class axis `A` of logits of shape `S`: `Self` is
/// [`SliceWeights`] (checked at run time), or a shape whose one axis is `S`'s axis `A` with
/// its size. The bound the typed losses take.
///
/// ```
/// use shapecast::{names, shape, ClassWeightsFor, SliceWeights};
/// names!(N, CLASS);
/// fn fits<W: ClassWeightsFor<shape![N, CLASS: 3], CLASS>>() {}
/// fits::<shape![CLASS: 3]>();
/// fits::<SliceWeights>();
/// ```
#[diagnostic::on_unimplemented(
    message = "class weights of shape `{Self}` do not fit the class axis `{A}` of `{S}`",
    label = "the weights must have one axis, `{A}`, with the logits' size"
)]
pub trait ClassWeightsFor<S, A> {}
#[diagnostic::do_not_recommend]
impl<S, A> ClassWeightsFor<S, A> for SliceWeights {}
#[diagnostic::do_not_recommend]
impl<S, A, C> ClassWeightsFor<S, A> for C
where
    C: ReduceOver<A, Output = ()>,
    S: BroadcastsUnder<Assign, C>,
{
}
