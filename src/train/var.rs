//! [`Var`]: a typed tensor whose operations a [`Tape`] records, and where one comes from: a
//! parameter, tracked or frozen, or a constant (`Tape::watch`, `frozen`, `constant`).

use crate::alloc_prelude::*;

use alloc::sync::Arc;

use super::grads::Grads;
use super::param::Param;
use super::tape::{Backward, Tape};
use super::trainable::Trainable;
use crate::tensor::Tensor;
use crate::typed::storage::Storage;
use crate::values::error::Error;

/// A tensor of shape `S` on a [`Tape`]: the operators and the methods of this type compute
/// the same values as [`Tensor`]'s (they call them) and, when an operand is tracked, record
/// how to carry a gradient back. The result's shape is computed at compile time by the same
/// rules, so `Var<T, S>` is as checked as `Tensor<T, S>`; a value from a parameter
/// ([`Tape::watch`]) is tracked, one from [`Tape::constant`] is not.
///
/// ```
/// use shapecast::prelude::*;
/// use shapecast::train::{Param, Tape};
/// names!(BATCH, IN, OUT);
/// let w = Param::new("w", Tensor::<f64, shape![IN: 2, OUT: 1]>::from_array([[0.5], [-1.0]]));
/// let x = Tensor::<f64, shape![BATCH, IN: 2]>::from_vec_sized(&[2, 2], vec![1.0, 2.0, 3.0, 4.0])?;
/// let tape = Tape::new();
/// let y = tape.constant(x).dot::<IN>(&tape.watch(&w)); // [BATCH, OUT: 1]
/// let loss = (&y * &y).mean::<(BATCH, OUT)>();
/// let g = loss.backward()?.of(&w)?;
/// // y = [-1.5, -2.5]; ∂/∂w of mean(y²) = 2/2 · Σ y·x
/// assert_eq!(g.data(), &[-1.5 - 7.5, -3.0 - 10.0]);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub struct Var<T, S: Storage<T>> {
    tape: Tape<T>,
    node: Option<usize>,
    value: Arc<Tensor<T, S>>,
}

impl<T: core::fmt::Debug, S: Storage<T>> core::fmt::Debug for Var<T, S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Var")
            .field("tracked", &self.node.is_some())
            .field("value", &*self.value)
            .finish()
    }
}

impl<T, S: Storage<T>> Clone for Var<T, S> {
    /// The same tracked value (its gradient is the sum over every use, as for one value).
    fn clone(&self) -> Self {
        Var {
            tape: self.tape.clone(),
            node: self.node,
            value: Arc::clone(&self.value),
        }
    }
}

impl<T: Trainable, S: Storage<T>> Var<T, S> {
    pub(crate) fn tracked(tape: Tape<T>, node: usize, value: Arc<Tensor<T, S>>) -> Self {
        Var {
            tape,
            node: Some(node),
            value,
        }
    }

    pub(crate) fn shared_untracked(tape: Tape<T>, value: Arc<Tensor<T, S>>) -> Self {
        Var {
            tape,
            node: None,
            value,
        }
    }

    pub(crate) fn untracked(tape: Tape<T>, value: Tensor<T, S>) -> Self {
        Var {
            tape,
            node: None,
            value: Arc::new(value),
        }
    }

    /// The result of an operation with inputs `inputs`: recorded with the backward `backward`
    /// builds (from the shared result) when an input is tracked, else untracked (and
    /// `backward` is dropped unbuilt).
    pub(crate) fn derived<const N: usize>(
        tape: &Tape<T>,
        inputs: [Option<usize>; N],
        value: Tensor<T, S>,
        backward: impl FnOnce(&Arc<Tensor<T, S>>) -> Backward<T>,
    ) -> Self {
        let value = Arc::new(value);
        let node = inputs
            .iter()
            .any(Option::is_some)
            .then(|| tape.record(value.data().len(), backward(&value)));
        Var {
            tape: tape.clone(),
            node,
            value,
        }
    }

    /// `value`, computed from this value alone, recorded (when this value is tracked) with
    /// the backward `grad(g, x, y)`: this value's gradient from the result's `g`, this value
    /// `x` and the result `y`.
    pub(crate) fn unary_op<R: Storage<T>>(
        &self,
        value: Tensor<T, R>,
        grad: impl FnOnce(Vec<T>, &Tensor<T, S>, &Tensor<T, R>) -> Result<Vec<T>, Error> + 'static,
    ) -> Var<T, R> {
        self.unary_op_prepared(value, || grad)
    }

    /// [`unary_op`](Self::unary_op) with the backward made by `prepare`, called only when
    /// this value is tracked: what only a backward pass needs (a table, where each element
    /// was read from) is not computed for a forward pass that tracks nothing.
    pub(crate) fn unary_op_prepared<R: Storage<T>, G>(
        &self,
        value: Tensor<T, R>,
        prepare: impl FnOnce() -> G,
    ) -> Var<T, R>
    where
        G: FnOnce(Vec<T>, &Tensor<T, S>, &Tensor<T, R>) -> Result<Vec<T>, Error> + 'static,
    {
        let (node, x) = (self.node, Arc::clone(&self.value));
        Var::derived(&self.tape, [node], value, move |y: &Arc<Tensor<T, R>>| {
            let grad = prepare();
            let y = Arc::clone(y);
            Box::new(move |g: Vec<T>, acc: &mut super::tape::Accumulate<'_, T>| {
                if x.data().is_empty() {
                    // No element to reach, however large the output or the backward's own
                    // sums (a softmax of `[2^40, 2, 0]` sums its gradient into 2^41 cells).
                    return acc.add(node, Vec::new());
                }
                acc.add(node, grad(g, &x, &y)?)
            })
        })
    }

    /// The node of this value, if tracked.
    pub(crate) fn node(&self) -> Option<usize> {
        self.node
    }

    /// The tape it is on.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// let tape = shapecast::train::Tape::new();
    /// let x = tape.constant(Tensor::<f32, shape![1]>::from_array([1.0]));
    /// assert!(x.tape().is_empty());
    /// ```
    pub fn tape(&self) -> &Tape<T> {
        &self.tape
    }

    /// The shared value, for a backward closure.
    pub(crate) fn shared(&self) -> Arc<Tensor<T, S>> {
        Arc::clone(&self.value)
    }

    /// Its value.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// let tape = shapecast::train::Tape::new();
    /// let x = tape.constant(Tensor::<f32, shape![2]>::from_array([1.0, 2.0]));
    /// assert_eq!((&x * 2.0).value().data(), &[2.0, 4.0]);
    /// ```
    pub fn value(&self) -> &Tensor<T, S> {
        &self.value
    }

    /// Its sizes.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// let tape = shapecast::train::Tape::new();
    /// let x = tape.constant(Tensor::<f32, shape![?, 3]>::zeros_sized(&[2, 3])?);
    /// assert_eq!(x.sizes(), &[2, 3]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn sizes(&self) -> &[usize] {
        self.value.sizes()
    }

    /// Whether the tape tracks it: it comes from a watched parameter through tracked
    /// operations.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f32, shape![1]>::from_array([1.0]));
    /// let tape = Tape::new();
    /// assert!((&tape.watch(&p) + 1.0).is_tracked());
    /// ```
    pub fn is_tracked(&self) -> bool {
        self.node.is_some()
    }

    /// The same value, not tracked: no gradient flows back through it (PyTorch's `detach`).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f32, shape![1]>::from_array([1.0]));
    /// let tape = Tape::new();
    /// assert!(!tape.watch(&p).detach().is_tracked());
    /// ```
    pub fn detach(&self) -> Var<T, S> {
        Var {
            tape: self.tape.clone(),
            node: None,
            value: Arc::clone(&self.value),
        }
    }

    /// Its value as a tensor (copied if the tape still holds it).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// let tape = shapecast::train::Tape::new();
    /// let x = tape.constant(Tensor::<f32, shape![1]>::from_array([4.0]));
    /// assert_eq!(x.into_tensor().data(), &[4.0]);
    /// ```
    pub fn into_tensor(self) -> Tensor<T, S> {
        Arc::try_unwrap(self.value).unwrap_or_else(|shared| (*shared).clone())
    }

    /// The gradients of every watched parameter for the loss `Σ seed ⊙ self` (PyTorch's
    /// `self.backward(seed)`): `seed` is the gradient of this value, of its shape.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f32, shape![2]>::from_array([1.0, 2.0]));
    /// let tape = Tape::new();
    /// let y = &tape.watch(&p) * 3.0;
    /// let grads = y.backward_with(&Tensor::from_array([1.0, 10.0]))?;
    /// assert_eq!(grads.of(&p)?.data(), &[3.0, 30.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn backward_with(&self, seed: &Tensor<T, S>) -> Result<Grads<T>, Error> {
        if seed.sizes() != self.sizes() {
            return Err(Error::Gradient {
                reason: format!(
                    "the seed's sizes {:?} are not the value's {:?}",
                    seed.sizes(),
                    self.sizes()
                ),
            });
        }
        let Some(node) = self.node else {
            return Err(Error::Gradient {
                reason: "this value is not tracked: no watched parameter leads to it".into(),
            });
        };
        if self.tape.len_of(node) != seed.data().len() {
            return Err(Error::Gradient {
                reason: "the value's node has another element count".into(),
            });
        }
        self.tape.backward_from(node, seed.data().to_vec())
    }
}

impl<T: Trainable> Var<T, ()> {
    /// The gradients of every watched parameter this scalar (a loss) depends on: one
    /// backward pass over the tape, which can run once. A parameter watched but not reached
    /// has no gradient ([`Grads::of`] says so); a value that depends on no parameter is an
    /// error. Only a value of shape `[]` has it: for another, [`backward_with`](Self::backward_with).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f64, shape![]>::from_array(3.0));
    /// let tape = Tape::new();
    /// let v = tape.watch(&p);
    /// let loss = &v * &v; // p²
    /// assert_eq!(loss.backward()?.of(&p)?.data(), &[6.0]);
    /// assert!(loss.backward().is_err()); // the tape is spent
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn backward(&self) -> Result<Grads<T>, Error> {
        self.backward_with(&Tensor::from_parts(&[], vec![T::one()]))
    }
}

/// Where a [`Var`] comes from: a parameter (tracked or frozen) or a constant.
impl<T: Trainable> Tape<T> {
    /// A tracked value for a parameter: its gradient is collected under the parameter's id
    /// when a loss computed from it runs [`backward`](Var::backward). The value is shared with
    /// the parameter, not copied.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("bias", Tensor::<f32, shape![3]>::from_array([0.0, 1.0, 2.0]));
    /// let tape = Tape::new();
    /// let v = tape.watch(&p);
    /// assert!(v.is_tracked());
    /// assert_eq!(v.value().data(), p.value().data());
    /// ```
    pub fn watch<S: Storage<T>>(&self, param: &Param<T, S>) -> Var<T, S> {
        let node = self.leaf(param.value().data().len(), param.id(), param.name());
        Var::tracked(self.clone(), node, param.shared())
    }

    /// A parameter's value, shared but not tracked: a frozen layer, or a forward pass for
    /// inference written over `Var`s (nothing is recorded).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f32, shape![2]>::from_array([1.0, 2.0]));
    /// let tape = Tape::new();
    /// let y = &tape.frozen(&p) * 2.0;
    /// assert_eq!(y.value().data(), &[2.0, 4.0]);
    /// assert!(!y.is_tracked() && tape.is_empty());
    /// ```
    pub fn frozen<S: Storage<T>>(&self, param: &Param<T, S>) -> Var<T, S> {
        Var::shared_untracked(self.clone(), param.shared())
    }

    /// A value the tape does not track (an input, a label, a constant): operations on it
    /// compute no gradient for it. It takes the tensor or a borrow of it (copied).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::Tape;
    /// let tape = Tape::new();
    /// let x = tape.constant(Tensor::<f32, shape![2]>::from_array([1.0, 2.0]));
    /// assert!(!x.is_tracked());
    /// let batch = Tensor::<f32, shape![2]>::from_array([3.0, 4.0]);
    /// let y = tape.constant(&batch); // `batch` stays the caller's
    /// assert_eq!((&x + &y).value().data(), &[4.0, 6.0]);
    /// assert!(tape.is_empty());
    /// ```
    pub fn constant<S: Storage<T>>(&self, value: impl Into<Tensor<T, S>>) -> Var<T, S> {
        Var::untracked(self.clone(), value.into())
    }
}
