//! The tensor layer: data laid out by a shape, and the operations that run on it.
//!
//! **Layer.** Above the values, the engine, the run-time rules and the type level, all of
//! which it uses; only files, ndarray and the command line sit above it (`scripts/layers.py`,
//! run by `.ci/run`, checks it). An operation here takes its shape rule from `dynamic` or
//! `typed`, lays its operands out, and hands plain sizes, strides and data to the
//! [engine](crate::engine), which never calls back.
//!
//! **Operation families.** Each family has its shape rule at run time, its type-level twin,
//! its methods here and its kernels in the engine; a reader finds all four here:
//!
//! | family | shape rule at run time | type level | methods (this layer) | kernels (`engine`) |
//! |---|---|---|---|---|
//! | elementwise (broadcasting) | `dynamic::{numpy, named, …}`, `dynamic::plan` | `typed::{numpy, named, …}`, `typed::broadcast` | `zip`, `zip_plan`, `elementwise`, `ops`, `view_ops`, `dyn_ops`, `math` | `zip_fn`, `kernel`, `static_kernel`, `zip_threads`, `vmath` |
//! | reductions | `dynamic::reduce` | `typed::reduce` | `reductions`, `dyn_reductions`, `softmax`, `scan` | `reduce`, `summation` |
//! | norms | `dynamic::norm` (batch norm: `dynamic::assign`) | `typed::norm` (batch norm: `typed::assign`) | `norm`, `batch_norm` | `norm` (batch norm: `zip_fn`) |
//! | rotary embeddings | `dynamic::rope` | `typed::rope` | `rope` | `rope` |
//! | contractions | `dynamic::contract` | `typed::contract` | `contract` | `gemm`, `raw::gemm` |
//! | attention | `dynamic::attention` | `typed::attention` | `attention` | `attention`, `raw::gemm` |
//! | shape surgery | `dynamic::surgery` | `typed::surgery` | `surgery`, `narrow` | `walk` (`Offsets`) |
//! | convolution, pooling, padding | `dynamic::{conv, pool, pad}` | `typed::{conv, pool, pad, window}` | `conv`, `pool`, `pad` | `gemm`, `reduce` |
//! | gather and losses | `dynamic::gather` | `typed::gather` | `gather`, `loss`, `loss_options` | `vmath` |
//! | sampling | `dynamic::reduce` (`sample` removes the axis), `dynamic::surgery` (`topk` slices it) | `typed::reduce`, `typed::surgery` | `sample`, `topk` | `reduce` |
//!
//! **Receivers.** An operation that computes a new tensor is written once, as a method of a
//! trait in the prelude (`Reductions`, `Pooling`, `Padding`, `Dot`, `Convolution`, `Norms`,
//! `Rope`, `Attention`, `FloatMath`) with one blanket impl over
//! [`Contractible`](crate::Contractible) (or `MapSource` for the elementwise math), which
//! `Tensor`, `TensorView` and `TensorViewMut` implement by giving their layout. Operations
//! that return a view (`select`, `slice`, `rename`, …) are inherent on each receiver, since
//! the borrow differs: a tensor lends its data, a view passes its own lifetime on, a writable
//! view is consumed; their bodies are one shared function.
//!
//! One concern a file:
//!
//! | file | what it holds |
//! |---|---|
//! | `tensor` | [`Tensor<T, S>`](crate::Tensor): the struct, its constructors and accessors |
//! | `dyn_tensor` | [`DynTensor<T>`](crate::DynTensor): the tensor whose shape is a run-time value |
//! | `view` | [`TensorView`](crate::TensorView) and [`TensorViewMut`](crate::TensorViewMut): strided, zero-copy views, their layout accessors, `Tensor::view` |
//! | `view_mut` | the writable view's own methods: `at_mut`, `fill`, `assign`, `align_to` |
//! | `buffer` | the two buffers ([`Buffer`](crate::Buffer)): a `Vec`, and an inline array the kernels fill in place |
//! | `cast` | [`Cast`](crate::Cast): element type conversion (`f32` to `f16`/`bf16` and back, integers to floats), the shape kept; `DynTensor::cast` |
//! | `elements` | [`Scalar`](crate::Scalar), [`NestedArray`](crate::NestedArray), [`ArrayOf`](crate::ArrayOf) |
//! | `index` | [`Index`](crate::Index): the multi-index `from_fn` and `generate` pass |
//! | `narrow` | `narrow` (rule book §11) and [`ElementOr`](crate::ElementOr), its result |
//! | `zip` | elementwise operations between typed tensors: rule, constant plan, kernel |
//! | `zip_plan` | where they take their plan and layout from: constant, or built on the stack after the run-time checks |
//! | `elementwise` | the run-time path of an elementwise operation: rule, plan, the engine's kernel |
//! | `ops` | the operators (`+ - * / % & | ^`, `+=` …, comparisons, `-`, `!`) |
//! | `view_ops` | the operators on views with views, tensors and scalars, by value or by reference |
//! | `dyn_ops` | the binary operators on `DynTensor` (named rule) |
//! | `math` | [`FloatMath`](crate::FloatMath): `exp`, `ln`, `tanh`, activations, by value or by reference; `maximum`/`minimum` by the named rule |
//! | `reductions` | [`Reductions`](crate::Reductions): `sum::<A>()` and its family, `cumsum`, `topk` and `sample`, written once for tensors and both views (through [`Contractible`](crate::Contractible)) |
//! | `dyn_reductions` | the same family on `DynTensor`, by run-time selectors |
//! | `norm` | [`Norms`](crate::Norms): `layer_norm` and `rms_norm` by name on tensors and views, one pass over each row; `DynTensor`'s |
//! | `rope` | [`Rope`](crate::Rope), [`Rotary`](crate::Rotary): rotary position embeddings by name on tensors and views, `DynTensor::rope` |
//! | `batch_norm` | [`BatchNorm`](crate::BatchNorm): batch norm in inference by name (the statistics broadcast by the assignment rule), one pass; folding into a convolution's weight |
//! | `softmax` | the exponentiating reductions (softmax, log-softmax, logsumexp) on the engine's walks, and `DynTensor`'s `softmax` family |
//! | `scan` | the running sums and products (`cumsum`/`cumprod`) for `Reductions` and `DynTensor` |
//! | `contract` | [`Contractible`](crate::Contractible), the receiver trait every typed operation is written over once; `dot::<X>` and `matmul` on tensors, views and `DynTensor`, mapped onto GEMM calls |
//! | `attention` | [`Attention`](crate::Attention): scaled dot-product attention by name in one pass (`NoMask`, `Causal`, a mask tensor), `DynTensor::attention` |
//! | `conv` | `conv::<C, G>` ([`Convolution`](crate::Convolution)) on tensors and views, `DynTensor::conv`: im2col tiles onto GEMM calls |
//! | `pool` | [`Pooling`](crate::Pooling): `max_pool`/`avg_pool` by name on tensors, views and `DynTensor` |
//! | `pad` | [`Padding`](crate::Padding): `pad` by name (constant, reflect, replicate) on tensors, views and `DynTensor` |
//! | `gather` | `take`, `gather` and `one_hot` by name |
//! | `index_element` | [`IndexElement`](crate::IndexElement): the element types of indices and labels (`usize`, `u32`, `u64`, `i32`, `i64`) |
//! | `loss` | `cross_entropy`, `nll_loss` and their reduced forms on tensors and `DynTensor` |
//! | `loss_options` | [`Loss`](crate::Loss) (class weights as a slice or a typed tensor, smoothing, the ignored index), [`Reduction`](crate::Reduction), [`ClassWeightsFor`](crate::ClassWeightsFor) |
//! | `sample` | [`Sampling`](crate::Sampling) (feature `rand`): an index drawn along a named axis of logits (temperature, top-k, top-p), for `Reductions` and `DynTensor` |
//! | `topk` | the `k` largest along an axis (values and positions) for `Reductions` and `DynTensor` |
//! | `surgery` | rename, insert, select, slice, split, merge, concatenate, stack: views where possible |
//!
//! Where to look for what runs underneath (all in the engine): the strided walk is
//! `engine::walk`, the GEMM call `engine::raw::gemm` (its loops `engine::gemm`), the thread
//! splitting `engine::threads` and `engine::zip_threads`, the allocation guard
//! `engine::allocation`, the crate's `unsafe` `engine::raw`.

mod attention;
mod batch_norm;
mod buffer;
mod cast;
mod contract;
mod conv;
mod dyn_ops;
mod dyn_reductions;
mod dyn_tensor;
mod elements;
mod elementwise;
mod gather;
mod index;
mod index_element;
mod loss;
mod loss_options;
mod math;
mod narrow;
mod norm;
mod ops;
mod pad;
mod pool;
mod reductions;
mod rope;
#[cfg(feature = "rand")]
mod sample;
mod scan;
mod softmax;
mod surgery;
// The `Tensor` struct's file, named for it as `dyn_tensor` is for `DynTensor`.
#[allow(clippy::module_inception)]
mod tensor;
mod topk;
mod view;
mod view_mut;
mod view_ops;
mod zip;
mod zip_plan;

pub use crate::engine::raw::DotElement;
pub use crate::engine::vmath::Transcendental;
pub use attention::{
    AttendBy, Attention, AttentionElement, AttentionMask, Causal, DynMask, MaskParts, NoMask,
    ScoresOf,
};
pub use batch_norm::BatchNorm;
pub use cast::Cast;
#[cfg(feature = "safetensors")]
pub(crate) use contract::Own;
pub use contract::{Contractible, Dot, DotWith, MatMulBy};
pub use conv::{ConvOut, Convolution, ConvolveWith};
pub use dyn_tensor::DynTensor;
pub use elements::{ArrayOf, Depth, NestedArray, Scalar};
pub use index::Index;
pub use index_element::IndexElement;
pub use loss_options::{ClassWeightsFor, Loss, Reduction, SliceWeights};
pub use math::{FloatMath, MapSource};
pub use narrow::ElementOr;
pub use norm::{NormWeight, Norms};
pub use pad::Padding;
pub use pool::Pooling;
pub use reductions::Reductions;
pub use rope::{Rope, RopeStyle, Rotary};
#[cfg(feature = "rand")]
pub use sample::Sampling;
pub use surgery::{concat, stack, stack_at, Reshaped, StaticSize};
pub use tensor::Tensor;
pub use view::{TensorView, TensorViewMut};
