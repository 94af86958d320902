//! Gathering on data (rule book §21; shapes from [`dynamic::gather`](crate::dynamic::gather)
//! and [`typed::gather`](crate::typed::gather)): `take` (an embedding lookup, PyTorch's
//! `index_select`), `one_hot`, and the losses over a named class axis, `cross_entropy` and
//! `nll_loss` (PyTorch's, with `reduction='none'`: one loss per target; class weights, label
//! smoothing and an ignored index as [`Loss`] options). Indices are `usize`, so `argmax`'s
//! result is an index and compares with integer labels directly.

use crate::alloc_prelude::*;

use num_traits::{Float, One, Zero};

use super::dyn_tensor::DynTensor;
use super::tensor::Tensor;
use crate::dynamic::gather::{one_hot, take};
use crate::engine::vmath::Transcendental;
use crate::typed::axis::Axis;
use crate::typed::gather::{OneHot, OneHotInto, TakenFrom};
use crate::values::error::{Error, OrPanic};
use crate::values::selector::AxisSelector;
use crate::values::shape::DynShape;

/// The shape `take` gives: [`Take<S, A, I>`](crate::Take).
type Taken<I, S, A> = <I as TakenFrom<S, A>>::Output;
use crate::typed::reduce::{OneAxis, Reduce, ReduceOver, Selector};
use crate::typed::size::AxisSize;
use crate::typed::storage::Storage;

/// The rows of `data` (row-major by `sizes`) along axis `at`, picked by `indices`: for each
/// outer index, each index `i`, the inner block at `i`. Every index is checked first.
fn take_rows<T: Clone>(
    data: &[T],
    sizes: &[usize],
    at: usize,
    indices: &[usize],
    index_sizes: &[usize],
    refuse: impl Fn(String) -> Error,
) -> Result<Vec<T>, Error> {
    let n = sizes[at];
    if let Some((k, &bad)) = indices.iter().enumerate().find(|(_, &i)| i >= n) {
        let mut at_index = vec![0; index_sizes.len()];
        let mut r = k;
        for j in (0..index_sizes.len()).rev() {
            at_index[j] = r % index_sizes[j];
            r /= index_sizes[j];
        }
        return Err(refuse(format!(
            "index {bad} at {at_index:?} is out of range for the axis of size {n}"
        )));
    }
    if data.is_empty() || indices.is_empty() {
        // Every index is in range, so an empty source has an empty axis besides the taken
        // one: the result is empty too (and its other sizes may be huge: no product taken).
        return Ok(Vec::new());
    }
    let outer: usize = sizes[..at].iter().product();
    let inner: usize = sizes[at + 1..].iter().product();
    let mut out = Vec::with_capacity(outer * indices.len() * inner);
    for o in 0..outer {
        for &i in indices {
            let start = (o * n + i) * inner;
            out.extend_from_slice(&data[start..start + inner]);
        }
    }
    Ok(out)
}

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
    if let Some(w) = opts.weight {
        if w.len() != classes {
            return Err(refuse(format!(
                "{} class weights for {classes} classes",
                w.len()
            )));
        }
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
        .find(|(_, &t)| t >= classes && !ignored(t))
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

/// `source` taken along `axis` by `indices` (each a shape, its sizes and its data): the
/// result's shape, sizes and data, or the error (the shape rule's, the result's room, an
/// index out of range). What both `take`s run.
fn taken<T: Clone>(
    (shape, sizes, data): (&DynShape, &[usize], &[T]),
    axis: &AxisSelector,
    (index_shape, index_sizes, indices): (&DynShape, &[usize], &[usize]),
) -> Result<(DynShape, Vec<usize>, Vec<T>), Error> {
    let (out, at) = take(shape, axis, index_shape)?;
    let refuse = |reason: String| Error::Gather {
        op: "take",
        shape: shape.clone(),
        by: format!("{axis} by {index_shape}"),
        reason: reason.replace("the axis", &axis.to_string()),
    };
    let mut out_sizes = sizes[..at].to_vec();
    out_sizes.extend_from_slice(index_sizes);
    out_sizes.extend_from_slice(&sizes[at + 1..]);
    crate::engine::allocation::ensure::<T>(&out_sizes, || out.clone())?;
    let rows = take_rows(data, sizes, at, indices, index_sizes, refuse)?;
    Ok((out, out_sizes, rows))
}

impl<T: Clone> DynTensor<T> {
    /// The slices of this tensor along `axis` at `indices`, the axis replaced by the indices'
    /// axes in place (rule book §21): an embedding lookup, PyTorch's `index_select` with any
    /// shape of indices. Or the error: the axis missing, a repeated name, an index out of
    /// range (naming it and where it is).
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let embed = DynTensor::from_fn("[VOCAB: 4, E: 2]".parse()?, |i| (i[0] * 10 + i[1]) as f32)?;
    /// let tokens = DynTensor::from_vec("[B: 1, T: 3]".parse()?, vec![3usize, 0, 3])?;
    /// let x = embed.take(&"VOCAB".parse()?, &tokens)?;
    /// assert_eq!(x.shape().to_string(), "[B: 1, T: 3, E: 2]");
    /// assert_eq!(x.data(), &[30.0, 31.0, 0.0, 1.0, 30.0, 31.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn take(
        &self,
        axis: &AxisSelector,
        indices: &DynTensor<usize>,
    ) -> Result<DynTensor<T>, Error> {
        let (shape, sizes, data) = taken(
            (self.shape(), self.sizes(), self.data()),
            axis,
            (indices.shape(), indices.sizes(), indices.data()),
        )?;
        Ok(DynTensor::from_parts(shape, sizes, data))
    }
}

impl DynTensor<usize> {
    /// These labels one-hot encoded along a new last axis `name` of `classes` classes (rule
    /// book §21; PyTorch's `one_hot`), or the error: `name` taken, or a label not below
    /// `classes`.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let labels = DynTensor::from_vec("[N: 3]".parse()?, vec![2usize, 0, 1])?;
    /// let hot = labels.one_hot::<f32>("CLASS", 3)?;
    /// assert_eq!(hot.shape().to_string(), "[N: 3, CLASS: 3]");
    /// assert_eq!(hot.data(), &[0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    /// assert!(labels.one_hot::<f32>("CLASS", 2).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn one_hot<T: Zero + One + Clone>(
        &self,
        name: &str,
        classes: usize,
    ) -> Result<DynTensor<T>, Error> {
        let shape = one_hot(self.shape(), name, classes)?;
        let data = encode(
            self.data(),
            classes,
            |reason| Error::Gather {
                op: "one_hot",
                shape: self.shape().clone(),
                by: name.to_string(),
                reason,
            },
            || shape.clone(),
        )?;
        let mut sizes = self.sizes().to_vec();
        sizes.push(classes);
        Ok(DynTensor::from_parts(shape, sizes, data))
    }
}

/// One-hot rows for `labels`.
fn encode<T: Zero + One + Clone>(
    labels: &[usize],
    classes: usize,
    refuse: impl Fn(String) -> Error,
    shape: impl FnOnce() -> DynShape,
) -> Result<Vec<T>, Error> {
    if let Some((k, &bad)) = labels.iter().enumerate().find(|(_, &l)| l >= classes) {
        return Err(refuse(format!(
            "label {bad} at position {k} is not below {classes}"
        )));
    }
    let n = labels
        .len()
        .checked_mul(classes)
        .ok_or_else(|| Error::TooManyElements { shape: shape() })?;
    let mut out = vec![T::zero(); n];
    for (row, &l) in labels.iter().enumerate() {
        out[row * classes + l] = T::one();
    }
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

impl<T: Clone, S: Storage<T>> Tensor<T, S> {
    /// The slices of this tensor along the axis `A` at `indices`, `A` replaced by the indices'
    /// axes in place (rule book §21): an embedding lookup is `embed.take::<VOCAB>(&tokens)`,
    /// `[VOCAB, EMBED]` by `[B, T]` giving `[B, T, EMBED]`. A name that would repeat is a
    /// compile error.
    ///
    /// # Panics
    ///
    /// When an index is out of range; [`try_take`](Self::try_take) returns the error instead.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(VOCAB, EMBED, B, T);
    /// let embed = Tensor::<f32, shape![VOCAB: 4, EMBED: 2]>::from_fn(&[4, 2], |i| (i[0] * 10 + i[1]) as f32)?;
    /// let tokens = Tensor::<usize, shape![B, T]>::from_vec_sized(&[1, 3], vec![3, 0, 3])?;
    /// let x: Tensor<f32, shape![B, T, EMBED: 2]> = embed.take::<VOCAB, _>(&tokens);
    /// assert_eq!(x.data(), &[30.0, 31.0, 0.0, 1.0, 30.0, 31.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    #[track_caller]
    pub fn take<A, I>(&self, indices: &Tensor<usize, I>) -> Tensor<T, Taken<I, S, A>>
    where
        A: Selector,
        I: Storage<usize> + TakenFrom<S, A>,
        Taken<I, S, A>: Storage<T>,
    {
        self.try_take::<A, I>(indices).or_panic()
    }

    /// [`take`](Self::take), or the error when an index is out of range.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(VOCAB, EMBED, T);
    /// let embed = Tensor::<f32, shape![VOCAB: 4, EMBED: 2]>::from_vec(vec![0.0; 8])?;
    /// let tokens = Tensor::<usize, shape![T: 1]>::from_vec(vec![4])?;
    /// assert!(embed.try_take::<VOCAB, _>(&tokens).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn try_take<A, I>(
        &self,
        indices: &Tensor<usize, I>,
    ) -> Result<Tensor<T, Taken<I, S, A>>, Error>
    where
        A: Selector,
        I: Storage<usize> + TakenFrom<S, A>,
        Taken<I, S, A>: Storage<T>,
    {
        let selector = A::selectors()
            .into_iter()
            .next()
            .expect("take selects one axis");
        let (_, sizes, data) = taken(
            (&self.shape(), self.sizes(), self.data()),
            &selector,
            (&indices.shape(), indices.sizes(), indices.data()),
        )?;
        Ok(Tensor::from_parts(&sizes, data))
    }
}

impl<L: Storage<usize>> Tensor<usize, L> {
    /// These labels one-hot encoded along a new last axis `N` whose size is static
    /// (`CLASS<S<3>>`), rule book §21: PyTorch's `one_hot`. A name already in the labels'
    /// shape is a compile error.
    ///
    /// # Panics
    ///
    /// When a label is not below the class count; [`try_one_hot`](Self::try_one_hot) returns
    /// the error instead.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor, S};
    /// names!(N, CLASS);
    /// let labels = Tensor::<usize, shape![N: 2]>::from_array([2, 0]);
    /// let hot: Tensor<f32, shape![N: 2, CLASS: 3]> = labels.one_hot::<CLASS<S<3>>, f32>();
    /// assert_eq!(hot.data(), &[0.0, 0.0, 1.0, 1.0, 0.0, 0.0]);
    /// ```
    #[track_caller]
    pub fn one_hot<N, T>(&self) -> Tensor<T, OneHot<L, N>>
    where
        N: Axis,
        T: Zero + One + Clone,
        L: OneHotInto<N>,
        OneHot<L, N>: Storage<T>,
    {
        self.try_one_hot::<N, T>().or_panic()
    }

    /// [`one_hot`](Self::one_hot), or the error when a label is not below the class count.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor, S};
    /// names!(N, CLASS);
    /// let labels = Tensor::<usize, shape![N: 2]>::from_array([2, 5]);
    /// assert!(labels.try_one_hot::<CLASS<S<3>>, f32>().is_err());
    /// ```
    pub fn try_one_hot<N, T>(&self) -> Result<Tensor<T, OneHot<L, N>>, Error>
    where
        N: Axis,
        T: Zero + One + Clone,
        L: OneHotInto<N>,
        OneHot<L, N>: Storage<T>,
    {
        let classes = const {
            match <N::Size as AxisSize>::SIZE {
                Some(n) => n,
                None => panic!("one_hot needs the class axis' size in its type: write CLASS<S<n>>"),
            }
        };
        let name = N::NAME.unwrap_or("");
        let data = encode(
            self.data(),
            classes,
            |reason| Error::Gather {
                op: "one_hot",
                shape: self.shape(),
                by: name.to_string(),
                reason,
            },
            || self.shape(),
        )?;
        let mut sizes = self.sizes().to_vec();
        sizes.push(classes);
        Ok(Tensor::from_parts(&sizes, data))
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
