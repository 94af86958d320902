//! The tensor layer: data laid out by a shape, and the operations that run on it.
//!
//! **Layer.** Above the values, the engine, the run-time rules and the type level, all of
//! which it uses; only files, ndarray and the command line sit above it (`scripts/layers.py`,
//! run by `.ci/run`, checks it). An operation here takes its shape rule from `dynamic` or
//! `typed`, lays its operands out, and hands plain sizes, strides and data to the
//! [engine](crate::engine), which never calls back.
//!
//! **Operation families.** Each family has its shape rule at run time, its type-level twin,
//! its methods here (in `ops/`) and its kernels in the engine; a reader finds all four here:
//!
//! | family | shape rule at run time | type level | methods (this layer) | kernels (`engine`) |
//! |---|---|---|---|---|
//! | elementwise (broadcasting) | `dynamic::{numpy, named, …}`, `dynamic::plan` | `typed::{numpy, named, …}`, `typed::broadcast` | `zip`, `zip_plan`, `elementwise`, `operators`, `view_ops`, `dyn_ops`, `math` | `zip_fn`, `kernel`, `static_kernel`, `zip_threads`, `vmath` |
//! | reductions | `dynamic::reduce` | `typed::reduce` | `reductions`, `dyn_reductions`, `softmax`, `scan` | `reduce`, `summation` |
//! | norms | `dynamic::norm` (batch norm: `dynamic::assign`) | `typed::norm` (batch norm: `typed::assign`) | `norm`, `batch_norm` | `norm` (batch norm: `zip_fn`) |
//! | rotary embeddings | `dynamic::rope` | `typed::rope` | `rope` | `rope` |
//! | contractions | `dynamic::contract` | `typed::contract` | `contract` | `gemm`, `raw::gemm` |
//! | attention | `dynamic::attention` | `typed::attention` | `attention` | `attention`, `raw::gemm` |
//! | shape surgery | `dynamic::surgery` | `typed::surgery` | `surgery`, `narrow` | `walk` (`Offsets`) |
//! | convolution, pooling, padding, interpolation | `dynamic::{conv, pool, pad, upsample}` | `typed::{conv, pool, pad, upsample, window}` | `conv`, `pool`, `pad`, `upsample` | `conv`, `winograd`, `gemm`, `pool`, `resample` |
//! | gather and losses | `dynamic::gather` | `typed::gather` | `gather`, `loss`, `loss_options` | `vmath` |
//! | sampling | `dynamic::reduce` (`sample` removes the axis), `dynamic::surgery` (`topk` slices it) | `typed::reduce`, `typed::surgery` | `sample`, `topk` | `reduce` |
//! | parts over threads | `dynamic::surgery` (slice, concatenate) | `typed::surgery` (`SliceAxis`) | `parts` | `threads` |
//!
//! **Receivers.** An operation that computes a new tensor is written once, as a method of a
//! trait in the prelude (`Reductions`, `Pooling`, `Padding`, `Upsampling`, `Dot`, `Convolution`, `Norms`,
//! `Rope`, `Attention`, `Parts`, `FloatMath`) with one blanket impl over
//! [`Contractible`](crate::Contractible) (or `MapSource` for the elementwise math), which
//! `Tensor`, `TensorView` and `TensorViewMut` implement by giving their layout. Operations
//! that return a view (`select`, `slice`, `rename`, …) are inherent on each receiver, since
//! the borrow differs: a tensor lends its data, a view passes its own lifetime on, a writable
//! view is consumed; their bodies are one shared function.
//!
//! The receivers, one concern a file in this folder:
//!
//! | file | what it holds |
//! |---|---|
//! | `tensor` | [`Tensor<T, S>`](crate::Tensor): the struct, its constructors and accessors |
//! | `dyn_tensor` | [`DynTensor<T>`](crate::DynTensor): the tensor whose shape is a run-time value |
//! | `view` | [`TensorView`](crate::TensorView) and [`TensorViewMut`](crate::TensorViewMut): strided, zero-copy views, their layout accessors, `Tensor::view` |
//! | `view_mut` | the writable view's own methods: `at_mut`, `fill`, `assign`, `align_to` |
//! | `receiver` | [`Contractible`](crate::Contractible): the receiver trait every typed operation is written over once, implemented by the three typed receivers |
//! | `buffer` | the two buffers ([`Buffer`](crate::Buffer)): a `Vec`, and an inline array the kernels fill in place |
//! | `elements` | [`Scalar`](crate::Scalar), [`NestedArray`](crate::NestedArray), [`ArrayOf`](crate::ArrayOf) |
//! | `index` | [`Index`](crate::Index): the multi-index `from_fn` and `generate` pass |
//! | `index_element` | [`IndexElement`](crate::IndexElement): the element types of indices and labels (`usize`, `u32`, `u64`, `i32`, `i64`) |
//! | `ops` | the operations, one family a file (their table is in `ops/mod.rs`) |
//! | `narrow` | `narrow` (rule book §11) and [`ElementOr`](crate::ElementOr), its result |
//!
//! Where to look for what runs underneath (all in the engine): the strided walk is
//! `engine::walk` (a reduction's, `engine::fold_walk`), the GEMM call `engine::raw::gemm` (its loops `engine::gemm`), the thread
//! splitting `engine::threads` and `engine::zip_threads`, the allocation guard
//! `engine::allocation`, the crate's `unsafe` `engine::raw`.

mod buffer;
mod dyn_tensor;
mod elements;
mod index;
mod index_element;
mod narrow;
mod receiver;
// The `Tensor` struct's file, named for it as `dyn_tensor` is for `DynTensor`.
#[allow(clippy::module_inception)]
mod tensor;
mod view;
mod view_mut;

mod ops;

pub use crate::engine::raw::{DotElement, DotOperand};
pub use crate::engine::vmath::Transcendental;
pub use dyn_tensor::DynTensor;
pub use elements::{ArrayOf, Depth, NestedArray, Scalar};
pub use index::Index;
pub use index_element::IndexElement;
pub use narrow::ElementOr;
pub(crate) use ops::attention::traced as traced_attention;
pub use ops::attention::{
    AttendBy, Attention, AttentionElement, AttentionMask, Causal, DynMask, MaskParts, NoMask,
    ScoresOf,
};
pub use ops::batch_norm::BatchNorm;
pub use ops::cast::Cast;
pub use ops::contract::{Dot, DotWith, MatMulBy};
pub(crate) use ops::conv::conv_backward;
pub use ops::conv::{ConvOut, Convolution, ConvolveWith};
pub use ops::conv_weight::{ConvOperand, ConvWeight, DynConvWeight};
pub use ops::loss_options::{ClassWeightsFor, Loss, Reduction, SliceWeights};
pub use ops::math::{FloatMath, MapSource};
pub use ops::norm::{NormWeight, Norms};
pub use ops::pad::Padding;
pub use ops::parts::Parts;
pub use ops::pool::Pooling;
pub(crate) use ops::pool::{max_pool_2d_argmax, pool_backward};
pub use ops::reductions::Reductions;
pub use ops::rope::{Rope, RopeStyle, Rotary};
#[cfg(feature = "rand")]
pub use ops::sample::Sampling;
pub use ops::surgery::{concat, stack, stack_at, Reshaped, StackArray, StaticSize};
pub use ops::upsample::Upsampling;
pub(crate) use ops::upsample::{typed_interpolation, Target};
pub use receiver::Contractible;
#[cfg(feature = "safetensors")]
pub(crate) use receiver::Own;
pub use tensor::Tensor;
pub use view::{TensorView, TensorViewMut};
