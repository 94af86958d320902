//! The tape: the record of one forward pass, and the backward pass that walks it in reverse.
//!
//! Each operation on a tracked [`Var`](super::Var) appends a node: how many elements its
//! value has, and a closure that, given the gradient of its value, adds the gradients of its
//! tracked inputs (the backward of the operation, written on run-time sizes once for every
//! shape). A node is appended after its inputs', so walking the nodes from the loss down to
//! the first visits each after everything that used it: its gradient is complete when its
//! closure runs. A parameter's leaf hands its gradient to [`Grads`] under the parameter's id.
//! The methods that make a `Var` (`watch`, `frozen`, `constant`) are in `var`, beside the
//! type they make.

use crate::alloc_prelude::*;

use alloc::rc::Rc;
use core::cell::RefCell;
use core::ops::Add;

use num_traits::Zero;

use super::grads::Grads;
use super::param::ParamId;
use super::trainable::Trainable;
use crate::values::error::Error;

/// What a node's backward does: given the gradient of the node's value (row-major over its
/// sizes; its own, to reuse), add its tracked inputs' gradients.
pub(crate) type Backward<T> = Box<dyn FnOnce(Vec<T>, &mut Accumulate<'_, T>) -> Result<(), Error>>;

/// One recorded value.
struct Node<T> {
    /// Its element count.
    len: usize,
    /// How its inputs' gradients follow from its own (`None` for a leaf, or once run).
    backward: Option<Backward<T>>,
    /// The parameter it is, for a leaf made by [`Tape::watch`].
    param: Option<(ParamId, String)>,
}

/// The nodes of one forward pass.
struct Graph<T> {
    nodes: Vec<Node<T>>,
    /// Whether a backward pass has consumed the closures.
    spent: bool,
}

/// The record of a forward pass over tracked values ([`Var`](super::Var)): create one per
/// training step, [`watch`](Self::watch) the parameters, compute the loss with the operators
/// and methods of `Var`, and call [`Var::backward`](super::Var::backward) on it. A clone is the
/// same tape. Dropping it (and the `Var`s made on it) frees the recorded values. A tape
/// belongs to the thread that records on it (it is not `Send`); the operations it records
/// split over threads as the tensors' do.
///
/// ```
/// use shapecast::prelude::*;
/// use shapecast::train::{Param, Tape};
/// names!(IN);
/// let w = Param::new("w", Tensor::<f64, shape![IN: 2]>::from_array([1.0, -2.0]));
/// let tape = Tape::new();
/// let x = Tensor::<f64, shape![IN: 2]>::from_array([3.0, 4.0]);
/// let loss = (&tape.watch(&w) * &x).sum::<IN>(); // w · x = -5
/// assert_eq!(loss.value().data(), &[-5.0]);
/// let grads = loss.backward()?;
/// assert_eq!(grads.of(&w)?.data(), &[3.0, 4.0]); // ∂(w · x)/∂w = x
/// # Ok::<(), shapecast::Error>(())
/// ```
pub struct Tape<T> {
    graph: Rc<RefCell<Graph<T>>>,
}

impl<T> Clone for Tape<T> {
    fn clone(&self) -> Self {
        Tape {
            graph: Rc::clone(&self.graph),
        }
    }
}

impl<T> Default for Tape<T> {
    fn default() -> Self {
        Tape {
            graph: Rc::new(RefCell::new(Graph {
                nodes: Vec::new(),
                spent: false,
            })),
        }
    }
}

impl<T> core::fmt::Debug for Tape<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Tape({} nodes)", self.len())
    }
}

impl<T> Tape<T> {
    /// An empty tape.
    ///
    /// ```
    /// let tape = shapecast::train::Tape::<f32>::new();
    /// assert!(tape.is_empty());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// How many values it has recorded (parameters watched and results of tracked operations).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f32, shape![2]>::from_array([1.0, 2.0]));
    /// let tape = Tape::new();
    /// let y = &tape.watch(&p) * 2.0;
    /// assert_eq!(tape.len(), 2);
    /// # let _ = y;
    /// ```
    pub fn len(&self) -> usize {
        self.graph.borrow().nodes.len()
    }

    /// Whether it has recorded nothing.
    ///
    /// ```
    /// assert!(shapecast::train::Tape::<f64>::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether both are the same tape.
    pub(crate) fn same(&self, other: &Tape<T>) -> bool {
        Rc::ptr_eq(&self.graph, &other.graph)
    }

    /// Appends a leaf for the parameter `id` named `name`, of `len` elements (its gradient is
    /// collected under `id`), and returns its index.
    pub(crate) fn leaf(&self, len: usize, id: ParamId, name: &str) -> usize {
        self.push(Node {
            len,
            backward: None,
            param: Some((id, name.to_string())),
        })
    }

    /// Appends a node of `len` elements and returns its index.
    pub(crate) fn record(&self, len: usize, backward: Backward<T>) -> usize {
        self.push(Node {
            len,
            backward: Some(backward),
            param: None,
        })
    }

    fn push(&self, node: Node<T>) -> usize {
        let mut graph = self.graph.borrow_mut();
        graph.nodes.push(node);
        graph.nodes.len() - 1
    }
}

impl<T: Trainable> Tape<T> {
    /// The backward pass from node `root`, whose gradient is `seed`.
    pub(crate) fn backward_from(&self, root: usize, seed: Vec<T>) -> Result<Grads<T>, Error> {
        let mut graph = self.graph.borrow_mut();
        if graph.spent {
            return Err(Error::Gradient {
                reason: "this tape's backward pass has run already: record the forward pass on a new tape".into(),
            });
        }
        graph.spent = true;
        let mut grads: Vec<Option<Vec<T>>> = Vec::new();
        grads.resize_with(root + 1, || None);
        grads[root] = Some(seed);
        let mut out = Grads::default();
        for i in (0..=root).rev() {
            let Some(g) = grads[i].take() else { continue };
            let node = &mut graph.nodes[i];
            if let Some((id, name)) = &node.param {
                out.add(*id, name, g);
            } else if let Some(backward) = node.backward.take() {
                backward(
                    g,
                    &mut Accumulate {
                        grads: &mut grads[..i],
                    },
                )?;
            }
        }
        Ok(out)
    }

    /// The element count node `i` was recorded with.
    pub(crate) fn len_of(&self, i: usize) -> usize {
        self.graph.borrow().nodes[i].len
    }
}

/// Where a node's backward adds its inputs' gradients: the nodes recorded before it.
pub(crate) struct Accumulate<'a, T> {
    grads: &'a mut [Option<Vec<T>>],
}

impl<T: Copy + Zero + Add<Output = T>> Accumulate<'_, T> {
    /// Adds `grad` to input `node`'s gradient (nothing for an untracked input).
    pub(crate) fn add(&mut self, node: Option<usize>, grad: Vec<T>) -> Result<(), Error> {
        let Some(node) = node else { return Ok(()) };
        let slot = self.grads.get_mut(node).ok_or_else(|| Error::Gradient {
            reason: format!("node {node} is not an input recorded before its use"),
        })?;
        match slot {
            None => *slot = Some(grad),
            Some(sum) => {
                if sum.len() != grad.len() {
                    return Err(Error::Gradient {
                        reason: format!(
                            "a gradient of {} elements for a value of {}",
                            grad.len(),
                            sum.len()
                        ),
                    });
                }
                sum.iter_mut().zip(grad).for_each(|(s, g)| *s = *s + g);
            }
        }
        Ok(())
    }
}
