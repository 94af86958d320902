//! Training: reverse-mode gradients over typed tensors, parameters by name, and optimizers.
//!
//! ```
//! use shapecast::prelude::*;
//! use shapecast::train::{Adam, Param, Tape, VarDot};
//! names!(BATCH, IN, OUT);
//! // Fit y = 2·x₀ − x₁ with one linear layer.
//! let mut w = Param::new("w", Tensor::<f64, shape![IN: 2, OUT: 1]>::zeros()?);
//! let x = Tensor::<f64, shape![BATCH, IN: 2]>::from_vec_sized(&[3, 2], vec![1.0, 0.0, 0.0, 1.0, 1.0, 1.0])?;
//! let y = Tensor::<f64, shape![BATCH, OUT: 1]>::from_vec_sized(&[3, 1], vec![2.0, -1.0, 1.0])?;
//! let mut adam = Adam::new(0.1);
//! for _ in 0..300 {
//!     let tape = Tape::new();
//!     let pred = tape.constant(x.clone()).dot::<IN>(&tape.watch(&w)); // [BATCH, OUT: 1]
//!     let err = &pred - &y;
//!     let loss = (&err * &err).mean::<(BATCH, OUT)>();
//!     let grads = loss.backward()?;
//!     let _: Tensor<f64, shape![IN: 2, OUT: 1]> = grads.of(&w)?; // the parameter's own type
//!     adam.step(&mut w, &grads)?;
//! }
//! assert!((w.value().data()[0] - 2.0).abs() < 1e-3 && (w.value().data()[1] + 1.0).abs() < 1e-3);
//! # Ok::<(), shapecast::Error>(())
//! ```
//!
//! **Design.** A tracked value is its own type, [`Var<T, S>`](Var), beside
//! [`Tensor<T, S>`](crate::Tensor): its operations call the tensor's (same kernels, same result shapes, the
//! same compile errors) and, when an operand is tracked, append to a [`Tape`] a closure that
//! carries the gradient back. The anchors this was chosen among: dfdx carries the tape in the
//! tensor's type (every tensor operation generic over it: the cost lands on every signature
//! of the crate); candle and PyTorch give every tensor an optional link to the operation that
//! made it (a field inference carries too); burn wraps a backend in an autodiff decorator (a
//! second backend type through the whole model). A separate type keeps [`Tensor`](crate::Tensor) exactly as
//! it is, so a forward pass that tracks nothing is today's forward pass, and a model written
//! over `Var` says in its types where gradients flow. The gradient of a [`Param<T, S>`](Param)
//! is a `Tensor<T, S>` ([`Grads::of`]): a gradient of the wrong shape, or applied to a
//! parameter of another shape, does not compile.
//!
//! Each backward is written once on run-time sizes from the plan the types computed: the
//! backward of a broadcast sums the gradient by name over exactly the axes the broadcast
//! added (`engine::gradient::sum_onto`), a reduction's expands it back along the reduced axes,
//! a contraction's are two contractions through the same GEMM calls.
//!
//! | file | what it holds |
//! |---|---|
//! | `tape` | [`Tape`]: the record of a forward pass and the backward pass over it |
//! | `var` | [`Var`]: a tracked typed tensor; where one comes from (`Tape::watch`, `frozen`, `constant`) |
//! | `trainable` | [`Trainable`], the element types (`f32`, `f64`) |
//! | `param` | [`Param`], [`ParamId`], [`Parameters`] and [`ParamSlot`]: a model's parameters by name, as an optimizer visits them |
//! | `grads` | [`Grads`]: the gradients by parameter, accumulation, clipping by global norm |
//! | `elementwise` | `+ - * /` by the named rule with tracked values, tensors and scalars; unary `-` |
//! | `math` | the elementwise math (`exp`, `ln`, `sqrt`, `tanh`, `sigmoid`, `relu`, `silu`, `gelu`, powers) |
//! | `progress` | (feature `std`) [`Progress`]: a line of step, loss and steps per second |
//! | `reduce` | `sum`, `mean`, `logsumexp`, `softmax`, `log_softmax` over named axes |
//! | `surgery` | `rename`, the views (`slice`, `step`, `select`, `align_to`, `insert_axis`, `merge_axes`, `split_axis`), `concat`, `pad` |
//! | `gather` | `take` (an embedding's gradient accumulates repeated indices), `gather` along an axis, [`stack`] and [`stack_at`] |
//! | `norm` | [`VarNorms`]: layer norm and RMS norm over named axes |
//! | `batch_norm` | batch norm in training mode, [`RunningStats`] updated as PyTorch updates them |
//! | `attention` | [`VarAttention`]: scaled dot-product attention, flash-attention's backward; rotary embeddings |
//! | `checkpoint` | (feature `safetensors`) [`save_checkpoint`], [`load_checkpoint`]: parameters by name and an optimizer's state, names and shapes checked |
//! | `contract` | [`VarDot`]: `dot` over names and `matmul` |
//! | `conv` | [`VarConv`]: convolution (stride, padding, dilation, groups); max and average pooling; upsampling (nearest, linear) |
//! | `loss` | cross-entropy and the negative log-likelihood with PyTorch's options |
//! | `optim` | [`Sgd`] and [`Adam`] (AdamW), PyTorch's updates |
//! | `schedule` | [`Schedule`]: learning rates by step as PyTorch's schedulers give them ([`StepLr`], [`MultiStepLr`], [`ExponentialLr`], [`LinearLr`], [`CosineAnnealing`], [`OneCycle`]), chained by [`Schedule::then`] |

mod attention;
mod batch_norm;
#[cfg(feature = "safetensors")]
mod checkpoint;
mod contract;
mod conv;
mod elementwise;
mod gather;
mod grads;
mod loss;
mod math;
mod norm;
mod optim;
mod param;
#[cfg(feature = "std")]
mod progress;
mod reduce;
mod schedule;
mod surgery;
mod tape;
mod trainable;
mod var;

pub use attention::{AttentionOf, VarAttendBy, VarAttention};
pub use batch_norm::RunningStats;
#[cfg(feature = "safetensors")]
pub use checkpoint::{load_checkpoint, save_checkpoint, OptimizerState, StateReader};
pub use contract::{DotOf, MatMulOf, VarDot};
pub use conv::VarConv;
pub use gather::{stack, stack_at};
pub use grads::Grads;
pub use norm::VarNorms;
pub use optim::{Adam, Sgd};
pub use param::{Param, ParamId, ParamSlot, Parameters};
#[cfg(feature = "std")]
pub use progress::Progress;
pub use schedule::{
    CosineAnnealing, ExponentialLr, LinearLr, MultiStepLr, OneCycle, Schedule, StepLr, Then,
};
pub use shapecast_macros::Parameters;
pub use tape::Tape;
pub use trainable::Trainable;
pub use var::Var;
