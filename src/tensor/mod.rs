//! The tensor layer: data laid out by a shape, and the operations that run on it.
//!
//! **Layer.** Above the values, the run-time rules and the type level, all of which it
//! uses; only files, ndarray and the command line sit above it (`scripts/layers.py`, run by
//! `.ci/run`, checks it).
//!
//! **Operation families.** Each family has its shape rule at run time, its type-level twin and its
//! work on data; a reader finds all three here:
//!
//! | family | shape rule at run time | type level | on data (this layer) |
//! |---|---|---|---|
//! | elementwise (broadcasting) | `dynamic::{numpy, named, …}`, `dynamic::plan` | `typed::{numpy, named, …}`, `typed::broadcast` | `zip`, `ops`, `view_ops`, `dyn_ops`, `math`, `vmath`, `kernel`, `static_kernel` |
//! | reductions | `dynamic::reduce` | `typed::reduce` | `reductions`, `reduce`, `softmax`, `scan`, `summation` |
//! | contractions | `dynamic::contract` | `typed::contract` | `contract`, `gemm_loop`, `raw::gemm` |
//! | shape surgery | `dynamic::surgery` | `typed::surgery` | `surgery`, `split` |
//! | convolution, pooling, padding | `dynamic::{conv, pool, pad}` | `typed::{conv, pool, pad, window}` | `conv`, `pool`, `pad` |
//! | gather and losses | `dynamic::gather` | `typed::gather` | `gather` |
//! | sampling | `dynamic::reduce` (`sample` removes the axis), `dynamic::surgery` (`topk` slices it) | `typed::reduce`, `typed::surgery` | `sample`, `topk` |
//!
//! One concern a file:
//!
//! | file | what it holds |
//! |---|---|
//! | `typed` | [`Tensor<T, S>`](crate::Tensor): the struct, its constructors and accessors |
//! | `buffer` | the two buffers ([`Buffer`](crate::Buffer)): a `Vec`, and an inline array the kernels fill in place |
//! | `contract` | `dot::<X>` and `matmul` on tensors, views and `DynTensor`, mapped onto GEMM calls |
//! | `conv` | `conv::<C, G>` ([`Convolution`](crate::Convolution)) on tensors and views, `DynTensor::conv`: im2col tiles onto GEMM calls |
//! | `pad` | `pad` by name (constant, reflect, replicate) on tensors, views and `DynTensor` |
//! | `pool` | `max_pool`/`avg_pool` by name on tensors, views and `DynTensor` |
//! | `gather` | `take`, `one_hot`, `cross_entropy`, `nll_loss` ([`Loss`](crate::Loss) options) |
//! | `raw` | the crate's only `unsafe`: the GEMM call, writes into spare capacity, huge-page advice |
//! | `dyn_ops` | the binary operators on `DynTensor` (named rule) |
//! | `dyn_tensor` | [`DynTensor<T>`](crate::DynTensor): the tensor whose shape is a run-time value |
//! | `view` | [`TensorView`](crate::TensorView) and [`TensorViewMut`](crate::TensorViewMut): strided, zero-copy views |
//! | `view_ops` | the operators on views with views, tensors and scalars, by value or by reference |
//! | `zip` | elementwise operations between typed tensors: rule, constant plan, kernel |
//! | `math` | [`FloatMath`](crate::FloatMath): `exp`, `ln`, `tanh`, activations, by value or by reference; `maximum`/`minimum` by the named rule |
//! | `vmath` | [`Transcendental`](crate::Transcendental): branch-free `exp`, `ln`, `tanh` that vectorise |
//! | `ops` | the operators (`+ - * / % & | ^`, `+=` …, comparisons, `-`, `!`) |
//! | `elements` | [`Scalar`](crate::Scalar), [`ElementOr`](crate::ElementOr), [`NestedArray`](crate::NestedArray) |
//! | `reductions` | `sum::<A>()` and its family on tensors, views and `DynTensor` |
//! | `sample` | [`Sampling`](crate::Sampling) (feature `rand`): an index drawn along a named axis of logits (temperature, top-k, top-p) |
//! | `scan` | `cumsum`/`cumprod` by name on tensors, views and `DynTensor` |
//! | `topk` | `topk` by name (values and positions) on tensors, views and `DynTensor` |
//! | `softmax` | the exponentiating reductions' kernels, and `DynTensor`'s `softmax` family |
//! | `reduce` | the reduction kernels: one strided walk folding into the output, softmax, argmax |
//! | `summation` | how a run is added: lanes, pairwise, Kahan's compensation |
//! | `strided` | the strided engine: the one row-major index walk every loop uses, operands, IAB |
//! | `kernel` | the public run-time kernel ([`kernel`](crate::kernel)): strides, merging, `zip_map` |
//! | `static_kernel` | its compile-time twin for static shapes |
//! | `threads` | [`threads`](crate::threads) (feature `rayon`): pieces over rayon's pool, its workers kept awake between operations |
//! | `surgery` | rename, insert, select, slice, split, merge, concatenate, stack: views where possible |

mod buffer;
mod contract;
mod conv;
mod dims;
mod dyn_ops;
mod dyn_tensor;
mod elements;
mod gather;
mod gemm_loop;
mod index;
pub mod kernel;
mod math;
mod ops;
mod pad;
mod pool;
pub(crate) mod raw;
mod reduce;
mod reductions;
pub(crate) mod room;
#[cfg(feature = "rand")]
mod sample;
mod scan;
mod softmax;
#[cfg(feature = "rayon")]
mod split;
pub(crate) mod static_kernel;
mod strided;
mod summation;
mod surgery;
#[cfg(feature = "rayon")]
pub mod threads;
mod topk;
mod typed;
mod view;
mod view_ops;
mod vmath;
mod zip;

pub use contract::{Contractible, Dot, DotWith, MatMulBy};
pub use conv::{ConvOut, Convolution, ConvolveWith};
pub use dyn_tensor::DynTensor;
pub use elements::{ArrayOf, Depth, ElementOr, NestedArray, Scalar};
pub use gather::Loss;
pub use index::Index;
pub use math::{FloatMath, MapSource};
pub use raw::DotElement;
#[cfg(feature = "rand")]
pub use sample::Sampling;
pub use surgery::{concat, stack, stack_at, Reshaped, StaticSize};
pub use typed::Tensor;
pub use view::{TensorView, TensorViewMut};
pub use vmath::Transcendental;
