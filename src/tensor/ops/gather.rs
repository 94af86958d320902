//! Gathering on data (rule book §21; shapes from [`dynamic::gather`](crate::dynamic::gather)
//! and [`typed::gather`](crate::typed::gather)): `take` (an embedding lookup, PyTorch's
//! `index_select`), `gather` (PyTorch's `gather`) and `one_hot`; the losses built on them are
//! in [`loss`](super::loss). Indices are any [`IndexElement`] (`usize`, as `argmax` returns,
//! or PyTorch's `i64`); a negative one is refused by name.

use crate::alloc_prelude::*;

use num_traits::{One, Zero};

use crate::dynamic::gather::{gather, one_hot, take};
use crate::tensor::dyn_tensor::DynTensor;
use crate::tensor::index_element::{first_outside, outside, IndexElement};
use crate::tensor::tensor::Tensor;
use crate::typed::axis::Axis;
use crate::typed::gather::{GatheredFrom, OneHot, OneHotInto, TakenFrom};
use crate::values::error::{Error, OrPanic};
use crate::values::selector::AxisSelector;
use crate::values::shape::DynShape;

/// The shape `take` gives: [`Take<S, A, I>`](crate::Take).
type Taken<I, S, A> = <I as TakenFrom<S, A>>::Output;
/// The shape `gather` gives: [`Gather<S, A, I>`](crate::Gather), the indices' own.
type Gathered<I, S, A> = <I as GatheredFrom<S, A>>::Output;
use crate::typed::reduce::Selector;
use crate::typed::shape::Shape;
use crate::typed::size::AxisSize;
use crate::typed::storage::Storage;

/// The rows of `data` (row-major by `sizes`) along axis `at`, picked by `indices`: for each
/// outer index, each index `i`, the inner block at `i`. Every index is checked first.
fn take_rows<T: Clone, X: IndexElement>(
    data: &[T],
    sizes: &[usize],
    at: usize,
    indices: &[X],
    index_sizes: &[usize],
    refuse: impl Fn(String) -> Error,
) -> Result<Vec<T>, Error> {
    let n = sizes[at];
    check_indices(indices, index_sizes, n, refuse)?;
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
            let start = (o * n + i.position().unwrap_or(0)) * inner;
            out.extend_from_slice(&data[start..start + inner]);
        }
    }
    Ok(out)
}

/// Every index of `indices` (row-major by `index_sizes`) a position below `n`, or the error
/// naming the first that is not and where it is.
fn check_indices<X: IndexElement>(
    indices: &[X],
    index_sizes: &[usize],
    n: usize,
    refuse: impl Fn(String) -> Error,
) -> Result<(), Error> {
    let Some((k, bad)) = first_outside(indices, n) else {
        return Ok(());
    };
    let mut at_index = vec![0; index_sizes.len()];
    let mut r = k;
    for j in (0..index_sizes.len()).rev() {
        at_index[j] = r % index_sizes[j];
        r /= index_sizes[j];
    }
    Err(refuse(format!(
        "index {bad} at {at_index:?} {}",
        outside(bad, n)
    )))
}

/// `source` taken along `axis` by `indices` (each a shape, its sizes and its data): the
/// result's shape, sizes and data, or the error (the shape rule's, the result's room, an
/// index out of range). What both `take`s run.
fn taken<T: Clone, X: IndexElement>(
    (shape, sizes, data): (&DynShape, &[usize], &[T]),
    axis: &AxisSelector,
    (index_shape, index_sizes, indices): (&DynShape, &[usize], &[X]),
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

/// `source` gathered along `axis` by `indices` (each a shape, its sizes and its data): the
/// result's data, laid out by the indices' shape; or the error (the shape rule's, which sees
/// every size, or an index out of range). What both `gather`s run.
fn gathered<T: Clone, X: IndexElement>(
    (shape, sizes, data): (&DynShape, &[usize], &[T]),
    axis: &AxisSelector,
    (index_shape, index_sizes, indices): (&DynShape, &[usize], &[X]),
) -> Result<Vec<T>, Error> {
    let (at, ia) = gather(shape, axis, index_shape)?;
    let refuse = |reason: String| Error::Gather {
        op: "gather",
        shape: shape.clone(),
        by: format!("{axis} by {index_shape}"),
        reason: reason.replace("the axis", &axis.to_string()),
    };
    check_indices(indices, index_sizes, sizes[at], refuse)?;
    if indices.is_empty() {
        // Nothing gathered; the source's sizes beside a 0 may be huge.
        return Ok(Vec::new());
    }
    // The source's row-major strides, seen from the indices' axes: the gathered axis moves by
    // the index read, not by position.
    let mut strides = vec![0; sizes.len()];
    let mut next = 1;
    for (stride, &n) in strides.iter_mut().zip(sizes).rev() {
        *stride = next;
        next *= n;
    }
    let along = strides.remove(at);
    strides.insert(ia, 0);
    let mut out = Vec::with_capacity(indices.len());
    let (mut position, mut base) = (vec![0; index_sizes.len()], 0);
    for &i in indices {
        out.push(data[base + i.position().unwrap_or(0) * along].clone());
        for k in (0..position.len()).rev() {
            position[k] += 1;
            base += strides[k];
            if position[k] < index_sizes[k] {
                break;
            }
            base -= strides[k] * index_sizes[k];
            position[k] = 0;
        }
    }
    Ok(out)
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
        indices: &DynTensor<impl IndexElement>,
    ) -> Result<DynTensor<T>, Error> {
        let (shape, sizes, data) = taken(
            (self.shape(), self.sizes(), self.data()),
            axis,
            (indices.shape(), indices.sizes(), indices.data()),
        )?;
        Ok(DynTensor::from_parts(shape, sizes, data))
    }
}

impl<T: Clone> DynTensor<T> {
    /// One element along `axis` for every index: the result has the indices' shape, and at
    /// each position the source's element whose `axis` position is the index there and whose
    /// other positions are the same (rule book §21; PyTorch's `gather`, NumPy's
    /// `take_along_axis`). The indices have `axis` (any size) and otherwise this tensor's
    /// axes. Or the error: the axis missing from either, other axes that differ, an index out
    /// of range or negative.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let scores = DynTensor::from_vec("[B: 2, CLASS: 3]".parse()?, vec![0.1f32, 0.7, 0.2, 0.5, 0.3, 0.2])?;
    /// let labels = DynTensor::from_vec("[B: 2, CLASS: 1]".parse()?, vec![1i64, 0])?;
    /// let picked = scores.gather(&"CLASS".parse()?, &labels)?;
    /// assert_eq!(picked.shape().to_string(), "[B: 2, CLASS: 1]");
    /// assert_eq!(picked.data(), &[0.7, 0.5]);
    /// let negative = DynTensor::from_vec("[B: 2, CLASS: 1]".parse()?, vec![1i64, -1])?;
    /// assert!(scores.gather(&"CLASS".parse()?, &negative).unwrap_err().to_string().contains("index -1 at [1, 0] is negative"));
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn gather(
        &self,
        axis: &AxisSelector,
        indices: &DynTensor<impl IndexElement>,
    ) -> Result<DynTensor<T>, Error> {
        let data = gathered(
            (self.shape(), self.sizes(), self.data()),
            axis,
            (indices.shape(), indices.sizes(), indices.data()),
        )?;
        Ok(DynTensor::from_parts(
            indices.shape().clone(),
            indices.sizes().to_vec(),
            data,
        ))
    }
}

impl<X: IndexElement> DynTensor<X> {
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
fn encode<T: Zero + One + Clone, X: IndexElement>(
    labels: &[X],
    classes: usize,
    refuse: impl Fn(String) -> Error,
    shape: impl FnOnce() -> DynShape,
) -> Result<Vec<T>, Error> {
    if let Some((k, bad)) = first_outside(labels, classes) {
        return Err(refuse(format!(
            "label {bad} at position {k} is not in 0..{classes}"
        )));
    }
    let n = labels
        .len()
        .checked_mul(classes)
        .ok_or_else(|| Error::TooManyElements { shape: shape() })?;
    let mut out = vec![T::zero(); n];
    for (row, &l) in labels.iter().enumerate() {
        out[row * classes + l.position().unwrap_or(0)] = T::one();
    }
    Ok(out)
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
    pub fn take<A, I>(&self, indices: &Tensor<impl IndexElement, I>) -> Tensor<T, Taken<I, S, A>>
    where
        A: Selector,
        I: Shape + TakenFrom<S, A>,
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
        indices: &Tensor<impl IndexElement, I>,
    ) -> Result<Tensor<T, Taken<I, S, A>>, Error>
    where
        A: Selector,
        I: Shape + TakenFrom<S, A>,
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

impl<T: Clone, S: Storage<T>> Tensor<T, S> {
    /// One element along the axis `A` for every index (rule book §21; PyTorch's `gather`,
    /// NumPy's `take_along_axis`): the result has the indices' shape, which must have `A` (any
    /// size) and otherwise this tensor's axes, checked at compile time. A label's score is
    /// `logits.gather::<CLASS, _>(&labels)` with labels of shape `[B, CLASS: 1]`.
    ///
    /// # Panics
    ///
    /// When an index is negative or out of range, or a `?` size differs from the source's;
    /// [`try_gather`](Self::try_gather) returns the error instead.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(B, CLASS);
    /// let scores = Tensor::<f32, shape![B: 2, CLASS: 3]>::from_array([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2]]);
    /// let labels = Tensor::<i64, shape![B: 2, CLASS: 1]>::from_array([[1], [0]]);
    /// let picked: Tensor<f32, shape![B: 2, CLASS: 1]> = scores.gather::<CLASS, _>(&labels);
    /// assert_eq!(picked.data(), &[0.7, 0.5]);
    /// ```
    #[track_caller]
    pub fn gather<A, I>(
        &self,
        indices: &Tensor<impl IndexElement, I>,
    ) -> Tensor<T, Gathered<I, S, A>>
    where
        A: Selector,
        I: Shape + GatheredFrom<S, A>,
    {
        self.try_gather::<A, I>(indices).or_panic()
    }

    /// [`gather`](Self::gather), or the error when an index is negative or out of range, or a
    /// `?` size differs from the source's.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(B, CLASS);
    /// let scores = Tensor::<f32, shape![B: 2, CLASS: 3]>::from_vec(vec![0.0; 6])?;
    /// let labels = Tensor::<i32, shape![B: 2, CLASS: 1]>::from_array([[3], [0]]);
    /// let err = scores.try_gather::<CLASS, _>(&labels).unwrap_err();
    /// assert_eq!(err.to_string(), "cannot gather [B: 2, CLASS: 3] along CLASS by [B: 2, CLASS: 1]: index 3 at [0, 0] is out of range for CLASS of size 3");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn try_gather<A, I>(
        &self,
        indices: &Tensor<impl IndexElement, I>,
    ) -> Result<Tensor<T, Gathered<I, S, A>>, Error>
    where
        A: Selector,
        I: Shape + GatheredFrom<S, A>,
    {
        let selector = A::selectors()
            .into_iter()
            .next()
            .expect("gather selects one axis");
        let data = gathered(
            (&self.shape(), self.sizes(), self.data()),
            &selector,
            (&indices.shape(), indices.sizes(), indices.data()),
        )?;
        Ok(Tensor::from_parts(indices.sizes(), data))
    }
}

impl<X: IndexElement, L: Shape> Tensor<X, L> {
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
