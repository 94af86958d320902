//! The gradients a backward pass computed, one per parameter the loss reached.

use crate::alloc_prelude::*;

use alloc::collections::BTreeMap;

use super::param::{Param, ParamId};
use super::trainable::Trainable;
use crate::tensor::Tensor;
use crate::typed::storage::Storage;
use crate::values::error::Error;

/// The gradients of one backward pass (or several, [`accumulate`](Self::accumulate)d), by
/// parameter: [`of`](Self::of) gives a parameter's as a tensor of the parameter's own shape
/// type, so a gradient cannot be applied to a parameter of another shape.
///
/// ```
/// use shapecast::prelude::*;
/// use shapecast::train::{Param, Tape};
/// names!(IN);
/// let w = Param::new("w", Tensor::<f64, shape![IN: 2]>::from_array([1.0, 2.0]));
/// let unused = Param::new("unused", Tensor::<f64, shape![IN: 2]>::zeros()?);
/// let tape = Tape::new();
/// let loss = (&tape.watch(&w) * &tape.watch(&w)).sum::<IN>(); // |w|²
/// let grads = loss.backward()?;
/// let g: Tensor<f64, shape![IN: 2]> = grads.of(&w)?;
/// assert_eq!(g.data(), &[2.0, 4.0]);
/// assert!(grads.of(&unused).is_err()); // the loss does not reach it
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Grads<T> {
    by_param: BTreeMap<ParamId, (String, Vec<T>)>,
}

impl<T> Default for Grads<T> {
    fn default() -> Self {
        Grads {
            by_param: BTreeMap::new(),
        }
    }
}

impl<T: Trainable> Grads<T> {
    /// Adds `g` to parameter `id`'s gradient.
    pub(crate) fn add(&mut self, id: ParamId, name: &str, g: Vec<T>) {
        match self.by_param.get_mut(&id) {
            Some((_, sum)) => sum.iter_mut().zip(g).for_each(|(s, g)| *s = *s + g),
            None => {
                self.by_param.insert(id, (name.to_string(), g));
            }
        }
    }

    /// The gradient of `param`, a tensor of its shape; an error naming the parameter when the
    /// loss does not depend on it (it was not watched on the tape, or no tracked operation
    /// led from it to the loss).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("scale", Tensor::<f32, shape![]>::from_array(3.0));
    /// let tape = Tape::new();
    /// let loss = &tape.watch(&p) * 2.0;
    /// assert_eq!(loss.backward()?.of(&p)?.data(), &[2.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn of<S: Storage<T>>(&self, param: &Param<T, S>) -> Result<Tensor<T, S>, Error> {
        let data = self.data(param.id()).ok_or_else(|| Error::Gradient {
            reason: format!(
                "the loss does not reach the parameter {:?}: watch it on the loss's tape and use the value `watch` returns",
                param.name()
            ),
        })?;
        Tensor::from_vec_sized(param.value().sizes(), data.to_vec())
    }

    /// The elements of parameter `id`'s gradient, row-major (what an optimizer reads).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f32, shape![2]>::from_array([1.0, 2.0]));
    /// let tape = Tape::new();
    /// let grads = (&tape.watch(&p) * 3.0).sum::<Pos<0>>().backward()?;
    /// assert_eq!(grads.data(p.id()), Some(&[3.0, 3.0][..]));
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn data(&self, id: ParamId) -> Option<&[T]> {
        self.by_param.get(&id).map(|(_, g)| g.as_slice())
    }

    /// How many parameters have a gradient.
    ///
    /// ```
    /// assert_eq!(shapecast::train::Grads::<f32>::default().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.by_param.len()
    }

    /// Whether no parameter has a gradient.
    ///
    /// ```
    /// assert!(shapecast::train::Grads::<f64>::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.by_param.is_empty()
    }

    /// The names of the parameters that have a gradient, in the order they were created.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f32, shape![]>::from_array(1.0));
    /// let tape = Tape::new();
    /// let grads = (&tape.watch(&p) * 1.0).backward()?;
    /// assert_eq!(grads.names().collect::<Vec<_>>(), ["p"]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.by_param.values().map(|(n, _)| n.as_str())
    }

    /// Adds another pass's gradients to these (gradient accumulation over several batches).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f32, shape![]>::from_array(1.0));
    /// let pass = |k: f32| {
    ///     let tape = Tape::new();
    ///     (&tape.watch(&p) * k).backward()
    /// };
    /// let mut grads = pass(2.0)?;
    /// grads.accumulate(pass(3.0)?);
    /// assert_eq!(grads.of(&p)?.data(), &[5.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn accumulate(&mut self, other: Grads<T>) {
        for (id, (name, g)) in other.by_param {
            self.add(id, &name, g);
        }
    }

    /// Every gradient multiplied by `factor` (the mean of accumulated passes).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f32, shape![]>::from_array(1.0));
    /// let tape = Tape::new();
    /// let mut grads = (&tape.watch(&p) * 4.0).backward()?;
    /// grads.scale(0.5);
    /// assert_eq!(grads.of(&p)?.data(), &[2.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn scale(&mut self, factor: T) {
        for (_, g) in self.by_param.values_mut() {
            g.iter_mut().for_each(|x| *x = *x * factor);
        }
    }

    /// The L2 norm of all the gradients together (PyTorch's `clip_grad_norm_` total norm).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f64, shape![2]>::from_array([0.0, 0.0]));
    /// let tape = Tape::new();
    /// let x = Tensor::<f64, shape![2]>::from_array([3.0, 4.0]);
    /// let grads = (&tape.watch(&p) * &x).sum::<Pos<0>>().backward()?;
    /// assert_eq!(grads.global_norm(), 5.0);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn global_norm(&self) -> T {
        let squares = self
            .by_param
            .values()
            .flat_map(|(_, g)| g.iter())
            .fold(T::zero(), |acc, &x| acc + x * x);
        squares.sqrt()
    }

    /// Scales every gradient so that their [`global_norm`](Self::global_norm) is at most
    /// `max_norm`, as PyTorch's `clip_grad_norm_` does (by `max_norm / (norm + 1e-6)` when
    /// that is below 1); returns the norm before clipping.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f64, shape![2]>::from_array([0.0, 0.0]));
    /// let tape = Tape::new();
    /// let x = Tensor::<f64, shape![2]>::from_array([3.0, 4.0]);
    /// let mut grads = (&tape.watch(&p) * &x).sum::<Pos<0>>().backward()?;
    /// assert_eq!(grads.clip_norm(1.0), 5.0);
    /// assert!((grads.global_norm() - 1.0).abs() < 1e-6);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn clip_norm(&mut self, max_norm: T) -> T {
        let norm = self.global_norm();
        let eps = T::from(1e-6).unwrap_or_else(T::epsilon);
        let coef = max_norm / (norm + eps);
        if coef < T::one() {
            self.scale(coef);
        }
        norm
    }
}
