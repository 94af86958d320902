//! The operations on the receivers ([`Tensor`](crate::Tensor), the two views and
//! [`DynTensor`](crate::DynTensor)), one family a file, the surgery a folder of its own. The
//! table of each family's rule, type-level twin and kernels is in the
//! tensor module's docs (`tensor/mod.rs`).
//!
//! | file | what it holds |
//! |---|---|
//! | `cast` | [`Cast`](crate::Cast): element type conversion (`f32` to `f16`/`bf16` and back, integers to floats), the shape kept; `DynTensor::cast` |
//! | `zip` | elementwise operations between typed tensors: rule, constant plan, kernel |
//! | `zip_plan` | where they take their plan and layout from: constant, or built on the stack after the run-time checks |
//! | `elementwise` | the run-time path of an elementwise operation: rule, plan, the engine's kernel |
//! | `operators` | the operators (`+ - * / % & | ^`, `+=` …, comparisons, `-`, `!`) |
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
//! | `contract` | `dot::<X>` and `matmul` on tensors, views and `DynTensor`, mapped onto GEMM calls |
//! | `attention` | [`Attention`](crate::Attention): scaled dot-product attention by name in one pass (`NoMask`, `Causal`, a mask tensor), `DynTensor::attention` |
//! | `conv` | `conv::<C, G>` ([`Convolution`](crate::Convolution)) on tensors and views, `DynTensor::conv`: im2col tiles onto GEMM calls |
//! | `conv_weight` | [`ConvWeight`](crate::ConvWeight): a convolution weight that keeps its Winograd transform between calls |
//! | `pool` | [`Pooling`](crate::Pooling): `max_pool`/`avg_pool` by name on tensors, views and `DynTensor` |
//! | `pad` | [`Padding`](crate::Padding): `pad` by name (constant, reflect, replicate) on tensors, views and `DynTensor` |
//! | `upsample` | [`Upsampling`](crate::Upsampling): `upsample` by name (nearest, linear) on tensors, views and `DynTensor`; `DynTensor::resize`; the plan a gradient goes back through |
//! | `parts` | [`Parts`](crate::Parts): `map_parts`, one parallel region over the parts of a tensor cut along an axis (one part a thread, the operations inside unsplit, the results concatenated); `DynTensor::map_parts` |
//! | `gather` | `take`, `gather` and `one_hot` by name |
//! | `loss` | `cross_entropy`, `nll_loss` and their reduced forms on tensors and `DynTensor` |
//! | `loss_options` | [`Loss`](crate::Loss) (class weights as a slice or a typed tensor, smoothing, the ignored index), [`Reduction`](crate::Reduction), [`ClassWeightsFor`](crate::ClassWeightsFor) |
//! | `sample` | [`Sampling`](crate::Sampling) (feature `rand`): an index drawn along a named axis of logits (temperature, top-k, top-p), for `Reductions` and `DynTensor` |
//! | `topk` | the `k` largest along an axis (values and positions) for `Reductions` and `DynTensor` |
//! | `surgery` | rename, insert, select, slice, split, merge, concatenate, stack: views where possible |

pub(crate) mod attention;
pub(crate) mod batch_norm;
pub(crate) mod cast;
pub(crate) mod contract;
pub(crate) mod conv;
pub(crate) mod conv_weight;
pub(crate) mod dyn_ops;
pub(crate) mod dyn_reductions;
pub(crate) mod elementwise;
pub(crate) mod gather;
pub(crate) mod loss;
pub(crate) mod loss_options;
pub(crate) mod math;
pub(crate) mod norm;
pub(crate) mod operators;
pub(crate) mod pad;
pub(crate) mod parts;
pub(crate) mod pool;
pub(crate) mod reductions;
pub(crate) mod rope;
#[cfg(feature = "rand")]
pub(crate) mod sample;
pub(crate) mod scan;
pub(crate) mod softmax;
pub(crate) mod surgery;
pub(crate) mod topk;
pub(crate) mod upsample;
pub(crate) mod view_ops;
pub(crate) mod zip;
pub(crate) mod zip_plan;
