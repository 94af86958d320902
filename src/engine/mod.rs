//! The engine: sizes, strides and data in, elements out. No tensor, no shape rule and no type
//! level here: the operations in [`tensor`](crate::tensor) work out a plan from the rules and
//! hand the engine plain layouts; the engine never calls back.
//!
//! **Layer.** Above the values (sizes, errors), which are all it uses (`scripts/layers.py`,
//! run by `.ci/run`, checks it); everything above may use it.
//!
//! | file | what it holds |
//! |---|---|
//! | `layout` | a strided layout ([`Strided`](layout::Strided): sizes, strides, data), row-major strides, an operand's strides in an output frame, merging contiguous axes |
//! | `dims` | `Dims`: sizes or strides held inline, a view's layout and a kernel's temporaries |
//! | `walk` | the one index walk (`step`) every loop advances with, `Offsets`, the inner run of every elementwise kernel, index-access broadcasting |
//! | `zip_fn` | how an elementwise function runs (`Serial`, `Parallel`), the kernel on a tensor's own layout and on a rule's plan |
//! | `kernel` | the public run-time elementwise kernel ([`kernel`](crate::kernel)): `zip_map`, the checked kernel and the one on a layout sound by construction, validation |
//! | `static_kernel` | its compile-time twin: the merged layout of static shapes as a constant |
//! | `sink` | where a kernel's output goes run by run (`Sink`, `Runs`), the interface a tensor's buffer is filled through |
//! | `split` | when work splits over threads: the element threshold, the rows a piece takes |
//! | `zip_threads` | the elementwise kernel split over threads (feature `rayon`) |
//! | `threads` | [`threads`](crate::threads) (feature `rayon`): pieces over rayon's pool, its workers kept awake between operations |
//! | `fold_walk` | the walk of a reduction: each run of a strided input folded into its output cell, short runs several cells at a time, row splits over threads |
//! | `reduce` | the reduction kernels on that walk (`Source`: sum, mean, variance, extremes, arg-max) |
//! | `fold` | the folds of a reduction: sum, product, max/min, the mean's compensated sum, squared deviations |
//! | `summation` | how a run is added: lanes, pairwise, Kahan's compensation |
//! | `gemm` | a contraction as GEMM calls: `M`, `N`, `K` and the loops around them |
//! | `gradient` | the kernels backward passes share: a broadcast gradient summed onto its operand, a reduced one expanded back, picks scattered back (`scatter_add`, a 2x2 pool's split over threads), a contraction's backward products' layouts |
//! | `attention` | scaled dot-product attention in one pass per block of queries (online softmax), from offset tables |
//! | `attention_backward` | its backward, flash-attention's: the block's scores recomputed, four GEMM calls for the gradients |
//! | `norm` | layer norm and RMS norm, one pass over each row, from offset tables |
//! | `pool` | pooling over box windows, one axis at a time: whole rows folded elementwise, the last axis by shifted slices, blocks of the trailing axes split over threads |
//! | `rope` | rotary position embeddings, one pass, adjacent pairs or halves |
//! | `resample` | interpolation along one axis (nearest, linear: PyTorch's source positions) and its transpose, the gradient |
//! | `conv` | a convolution as GEMM calls (im2col tiles), from the geometry the operation works out |
//! | `conv_backward` | a convolution's backward: the weight's gradient from the forward pass's patches, the input's scattered back through the taps (col2im) |
//! | `conv_geometry` | a convolution's axes as the engine walks them (`Geometry`), for `conv` and `winograd`; the 2x2 pool's windows (`SideBySide`), for its kernel and its gradient |
//! | `winograd` | a 3x3 stride-1 convolution by Winograd's F(2x2, 3x3): 16 GEMM calls per block of tiles over the whole batch |
//! | `vmath` | [`Transcendental`](crate::Transcendental): branch-free `exp`, `ln`, `tanh` that vectorise |
//! | `allocation` | the allocation guard: an element count checked and a large buffer asked for before it is allocated |
//! | `raw` | the crate's only `unsafe`: the GEMM call, writes into spare capacity, the dispatched maps, huge-page advice |

pub(crate) mod allocation;
pub(crate) mod attention;
pub(crate) mod attention_backward;
pub(crate) mod conv;
pub(crate) mod conv_backward;
pub(crate) mod conv_geometry;
pub(crate) mod dims;
pub(crate) mod fold;
pub(crate) mod fold_walk;
pub(crate) mod gemm;
pub(crate) mod gradient;
pub mod kernel;
pub(crate) mod layout;
pub(crate) mod norm;
pub(crate) mod pool;
pub(crate) mod raw;
pub(crate) mod reduce;
pub(crate) mod resample;
pub(crate) mod rope;
pub(crate) mod sink;
pub(crate) mod split;
pub(crate) mod static_kernel;
pub(crate) mod summation;
#[cfg(feature = "rayon")]
pub mod threads;
pub(crate) mod vmath;
pub(crate) mod walk;
pub(crate) mod winograd;
pub(crate) mod zip_fn;
#[cfg(feature = "rayon")]
mod zip_threads;
