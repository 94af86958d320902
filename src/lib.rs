//! # shapecast
//!
//! Tensor broadcasting as a property you can check: NumPy's rule, named and partly named
//! shapes (`[?, CHANNEL: 3, H, W] + [?, H, W]`), and the rules of Theano, TML, OpenVINO and
//! ONNX, each with a plan of which axis feeds which and the run-time checks that sizes known
//! only at run time leave.
//!
//! Every rule exists at run time ([`dynamic`]): shapes parsed from the notation of the rule
//! book, and one error type whose messages name both shapes, the axis at fault and the rule.
//! The NumPy and named rules also exist at compile time: [`shape!`] writes a shape as a type,
//! [`Broadcast`] computes the result type, and a mismatch is a compile error that names both
//! shapes (see [`BroadcastWith`]).
//!
//! ```
//! use shapecast::{names, shape, Broadcast};
//! names!(CHANNEL, H, W);
//! static_assertions::assert_type_eq_all!(
//!     Broadcast<shape![?, CHANNEL: 3, H, W], shape![?, H, W]>,
//!     shape![?, CHANNEL: 3, H, W]
//! );
//! ```
//!
//! At run time:
//!
//! ```
//! use shapecast::{broadcast, DynShape, Rule};
//!
//! let img: DynShape = "[?, CHANNEL: 3, H, W]".parse()?;
//! let lbl: DynShape = "[?, H, W]".parse()?;
//! let b = img.broadcast_with(&lbl)?;
//! assert_eq!(b.shape.to_string(), "[?, CHANNEL: 3, H, W]");
//!
//! let err = broadcast(Rule::Numpy, &"[3, 4]".parse()?, &"[5]".parse()?).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "cannot broadcast [3, 4] with [5] (numpy rule): axis 1 has size 4 on the left and 5 (its axis 0) on the right"
//! );
//! # Ok::<(), shapecast::Error>(())
//! ```
//!
//! ## First steps
//!
//! 1. `use shapecast::prelude::*` brings the macros, the tensor types, the traits whose
//!    methods a program calls ([`Dot`], [`FloatMath`]) and the error.
//! 2. Declare the names you use with [`names!`] (zero-sized types; the same name declared in
//!    two crates is one name).
//! 3. Write shapes with [`shape!`], in the notation of the [rule book](rules): a number is a static
//!    size, `?` a size known only at run time, `NAME: 3` a named axis of static size, `NAME`
//!    a named axis of run-time size.
//! 4. Compute with [`Tensor`]: the operators broadcast by the named rule, and the result's
//!    shape is a type the compiler worked out.
//! 5. Train with [`train`]: the same operations on tracked values ([`train::Var`]), whose
//!    gradients have their parameters' shape types ([`guide::training`]).
//!
//! ```
//! use shapecast::prelude::*;
//! names!(CHANNEL, H, W);
//! let img = Tensor::<f32, shape![?, CHANNEL: 3, H, W]>::zeros_sized(&[8, 3, 32, 32])?;
//! let lbl = Tensor::<f32, shape![?, H, W]>::ones_sized(&[8, 32, 32])?;
//! let sum: Tensor<f32, shape![?, CHANNEL: 3, H, W]> = &img + &lbl;
//! assert_eq!(sum.sizes(), &[8, 3, 32, 32]);
//! # Ok::<(), shapecast::Error>(())
//! ```
//!
//! ## The rules
//! Each rule exists at run time (a [`Rule`] value, [`broadcast`]) and at compile time (a
//! marker of [`rule`], [`BroadcastBy`], `Tensor::zip_with_rule`); `tests/types/typed_agreement.rs`
//! holds the two to the same answers, plans and run-time checks.
//!
//! The rule book ([`rules`]) opens with a table of the rules, an example each; each rule's
//! run-time module is in [`dynamic`], whose docs pair it with its type-level twin.
//!
//! ```
//! use shapecast::rule::{Outer, Pdpd, Start};
//! use shapecast::{names, shape, BroadcastBy};
//! names!(H, W);
//! static_assertions::assert_type_eq_all!(BroadcastBy<Outer, shape![2, H: 3], shape![W: 4, 5, 1]>, shape![5, 2, H: 3, W: 4]);
//! static_assertions::assert_type_eq_all!(BroadcastBy<Pdpd<Start<1>>, shape![2, 3, 4, 5], shape![3, 1]>, shape![2, 3, 4, 5]);
//! ```
//!
//! ## The guide
//!
//! The [`guide`] holds a page per subject (its first page lists them all), each page's
//! examples run as doctests; start with [`guide::tensors`].
//!
//! ## Reading a shapecast compile error
//!
//! A mismatch is one error at the expression, naming both shapes as types and the rule, and
//! a note naming the pair at fault. `S<N>` is a static size, `Dyn` is `?`, `H<S<N>>` is an
//! axis named `H`; `LhsAxis<I, X>` is axis `I` of the left shape. For `[3, 4]` with `[5]`,
//! exactly as the compiler prints it (this text is the crate's `ui-tests/rules/named_size.stderr`):
//!
//! ```text
#![doc = include_str!("../ui-tests/rules/named_size.stderr")]
//! ```
//!
//! That is: axis 1 of the left shape (size 4) faces axis 0 of the right (size 5); the `help`
//! line names the same pair as the trait the refusal does not satisfy. With names and
//! run-time sizes, `a * b` for `a: [?, H]` and `b: [?, W]` (`ui-tests/tensors/tensor_mul_names.stderr`):
//!
//! ```text
#![doc = include_str!("../ui-tests/tensors/tensor_mul_names.stderr")]
//! ```
//!
//! Every rejected case in the crate's `ui-tests/` directory is such a message, kept as the
//! compiler prints it.
//!
//! ## Features
//!
//! - `std` (default): without it the crate is `no_std` and needs only `alloc`.
//! - `ndarray`: conversions to and from ndarray's arrays and views, zero-copy where the
//!   layout allows (`Tensor::from_ndarray`, `TensorView::from_ndarray`, `into_ndarray`,
//!   `to_ndarray`).
//! - `rand`: `sample::<A>` draws an index along a named axis of logits ([`Sampling`]:
//!   temperature, top-k, top-p) from a caller's seeded generator (`rand_core::Rng`).
//! - `cli`: the `shapecast` command (`shapecast broadcast "[3, 1]" "[2, 1, 6]"`).
//! - `rayon`: operations split over threads from thresholds measured per operation
//!   ([`kernel::PARALLEL_MIN_ELEMENTS`] elements for operators, reductions and softmax; 2^21
//!   multiply-adds for a product), the calling thread taking a share and the pool's other
//!   threads kept awake between operations (`threads`); the thread count is rayon's
//!   (`RAYON_NUM_THREADS`, or a pool's `install`). Results are bit-identical to one thread.
// Without the `std` feature the crate needs only `alloc`; `.ci/run` builds it that way.
#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]
// `unsafe` is denied everywhere but `engine::raw` (the workspace's lints in Cargo.toml): the
// GEMM call, an output's length once the kernel has written it, and huge-page advice for
// large outputs.

extern crate alloc;

// The macros write `::shapecast::…` paths; this makes them resolve inside the crate too.
extern crate self as shapecast;

mod alloc_prelude;

/// What a first program needs, in one import: the macros, the tensor types, the size types,
/// the traits whose methods it calls (`dot`, the float math), the multi-index `from_fn`'s
/// closure takes ([`Index`]) and the error.
///
/// ```
/// use shapecast::prelude::*;
///
/// names!(BATCH, CLASS);
/// let logits = Tensor::<f32, shape![BATCH, CLASS: 3]>::from_vec_sized(&[1, 3], vec![1.0, 2.0, 3.0])?;
/// let p = logits.softmax::<CLASS>();
/// let w = Tensor::<f32, shape![CLASS: 3]>::from_array([1.0, 1.0, 1.0]);
/// let total: Tensor<f32, shape![BATCH]> = p.dot::<CLASS>(&w);
/// assert!((total.data()[0] - 1.0).abs() < 1e-6);
/// let d: DynTensor<f32> = logits.to_dyn();
/// let by_name: Vec<AxisSelector> = vec!["CLASS".parse()?];
/// assert_eq!(d.sum(&by_name)?.shape(), &"[BATCH: 1]".parse::<DynShape>()?);
/// # Ok::<(), Error>(())
/// ```
pub mod prelude {
    pub use crate::train::{VarAttention, VarConv, VarDot, VarNorms};
    pub use crate::values::selector::AxisSelector;
    pub use crate::{
        bf16, f16, names, shape, Attention, BatchNorm, Cast, Causal, Conv, ConvWeight, Convolution,
        Dot, Dyn, DynMask, DynShape, DynTensor, Error, FloatMath, HasAxis, Index, Interpolation,
        Loss, NoMask, Norms, Pad, PadMode, Padding, Parts, Pool, Pooling, Pos, Reduction,
        Reductions, Rope, RopeStyle, Rotary, Rule, Scale, Shape, Tensor, TensorView, TensorViewMut,
        Upsampling, S,
    };
}

pub mod dynamic;
mod engine;
#[cfg(feature = "ndarray")]
pub mod interop;
#[cfg(any(feature = "npy", feature = "safetensors"))]
pub mod io;
mod tensor;
pub mod train;
#[doc(hidden)]
pub mod typed;
mod values;

pub use engine::kernel;
#[cfg(feature = "rayon")]
pub use engine::threads;
/// The half-precision element types (the `half` crate's): IEEE `f16` and bfloat16 `bf16`,
/// stored, loaded, saved and converted ([`Cast`]) like the other elements.
pub use half::{bf16, f16};

pub use shapecast_macros::{names, shape};
pub use typed::assign::BroadcastsInto;
pub use typed::attention::{Attend, AttendWith};
pub use typed::axis::Axis;
pub use typed::broadcast::{Accepts, Broadcast, BroadcastBy, BroadcastWith, BroadcastsUnder};
pub use typed::contract::{
    AcceptsContract, AcceptsMatMul, Contract, ContractWith, MatMul, MatMulWith,
};
#[doc(hidden)]
pub use typed::conv::ConvVerdict;
pub use typed::conv::{Conv, ConvBy, ConvGeometry, Convolve};
pub use typed::gather::{Gather, GatherAlong, OneHot, OneHotInto, Take, TakeAlong};
#[doc(hidden)]
pub use typed::gather::{
    GatherAlongVerdict, GatherVerdict, GatheredFrom, OneHotVerdict, TakenFrom,
};
pub use typed::narrow::{Narrow, NarrowShape};
pub use typed::norm::NormOver;
#[doc(hidden)]
pub use typed::pad::PadVerdict;
pub use typed::pad::{Pad, PadOver, PadWidth, Padded};
#[doc(hidden)]
pub use typed::pool::PoolVerdict;
pub use typed::pool::{Pool, PoolGeometry, PoolOver, Pooled};
pub use typed::reduce::{
    AcceptsReduce, NonEmpty, OneAxis, Pos, Reduce, ReduceKeep, ReduceNonEmpty, ReduceOver,
    SampleOver, Selector,
};
pub use typed::rope::RotateOver;
pub use typed::rule::{self, RuleMarker};
pub use typed::shape::{SameRankAs, Shape};
pub use typed::upsample::{
    ResizeOver, ResizeTarget, Resized, Scale, UpsampleFactor, UpsampleOver, Upsampled,
};
#[doc(hidden)]
pub use typed::upsample::{ResizeVerdict, UpsampleVerdict};
// The traits a refusal's verdict fails to implement, re-exported here so that a compile error
// names them by their short path rather than `shapecast::typed::...`.
#[doc(hidden)]
pub use typed::contract::{ContractVerdict, MatMulVerdict};
#[doc(hidden)]
pub use typed::reduce::{ReduceVerdict, Reduces};
pub use typed::size::{AxisSize, Dyn, S};
pub use typed::storage::{Buffer, Storage, INLINE_MAX};
pub use typed::surgery::{
    Concat, ConcatWith, HasAxis, InsertAxis, InsertAxisAt, MergeAxes, MergeAxesInto, Rename,
    RenameAxis, Select, SelectAxis, Slice, SliceAxis, SliceTo, SplitAxis, SplitAxisInto, Stack,
    StackAt, StackAtStatic, StackUnder, StacksAt, Unnamed,
};
#[doc(hidden)]
pub use typed::surgery::{
    ConcatVerdict, InsertVerdict, RenameVerdict, ReshapeVerdict, SliceVerdict, StackVerdict,
    TakeVerdict,
};
#[doc(hidden)]
pub use typed::verdict::Verdict;
// The rules behind the capability traits, re-exported so that a concrete refusal's chain of
// notes names them by their short path.
#[doc(hidden)]
pub use typed::contract::MatMulWithRule;
#[doc(hidden)]
pub use typed::gather::{GatherAlongRule, OneHotIntoRule, TakeAlongRule};
#[doc(hidden)]
pub use typed::pool::PoolOverRule;
#[doc(hidden)]
pub use typed::surgery::{
    ConcatWithRule, InsertAxisAtRule, MergeAxesIntoRule, RenameAxisRule, SelectAxisRule,
    SliceAxisRule, SplitAxisIntoRule, StackUnderRule,
};
#[doc(hidden)]
pub use typed::upsample::{ResizeOverRule, UpsampleOverRule};
/// typenum, re-exported for PDPD axes such as `rule::Pdpd<shapecast::typenum::U1>`.
///
/// ```
/// use shapecast::{rule::Pdpd, shape, typenum::U1, Accepts};
/// assert!(<shape![2, 3, 4, 5] as Accepts<Pdpd<U1>, shape![3, 4]>>::VALUE);
/// ```
pub use typenum;

// The refusals of the type level, at the crate root: compile errors print them by this path.
pub use typed::refusals::{
    ChannelsDiffer, EmptyKernel, IndexLacks, KernelTooLarge, LhsAxis, NamesDiffer, NoMatch,
    NoOutputChannel, NoSpatialAxis, NoSuchAxis, NotAdjacent, PaddingTooWide, PdpdRange, RankZero,
    RanksDiffer, RepeatedName, RhsAxis, RhsLonger, SelectedTwice, SizesDiffer, StaticallyEmpty,
    TwoOutputChannels, WeightLacks, WindowTooLarge, WrongSize,
};

/// The rule book: every rule the crate implements, section by section (the code cites it as
/// "rule book §n").
pub mod guide;

#[doc = include_str!("../docs/rules.md")]
pub mod rules {}

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

#[doc(hidden)]
pub mod __private {
    /// `n`, checked to be one of the size table's: what `shape![H: E]` writes for a constant
    /// `E` (`S<{ table_size(E) }>`), so that a constant outside the table is one error naming
    /// the rule while the constant is evaluated, not an unsatisfied bound.
    pub const fn table_size(n: usize) -> usize {
        if !crate::typed::sizes::in_table(n) {
            panic!("a constant size in `shape!` must be in the size table (up to 2048, multiples of 64 and 1000 up to 65,536, powers of 2 and 10, common vocabularies): write this size as a literal");
        }
        n
    }
    pub use crate::typed::name::*;
    pub use crate::values::sealed::Sealed;
    pub use typenum;
}

pub use dynamic::broadcast;
pub use dynamic::narrow::Narrowed;
pub use dynamic::pad::PadMode;
pub use dynamic::plan::{Broadcasted, Check, Condition, Plan, Sources};
pub use dynamic::upsample::Interpolation;
#[doc(hidden)]
pub use tensor::MaskParts;
#[cfg(feature = "rand")]
pub use tensor::Sampling;
pub use tensor::{
    concat, stack, stack_at, ArrayOf, ClassWeightsFor, Contractible, ConvOut, Convolution,
    ConvolveWith, Depth, Dot, DotElement, DotOperand, DotWith, DynTensor, ElementOr, FloatMath,
    Index, IndexElement, Loss, MapSource, MatMulBy, NestedArray, Reduction, Reshaped, Scalar,
    SliceWeights, StackArray, StaticSize, Tensor, TensorView, TensorViewMut, Transcendental,
};
pub use tensor::{
    AttendBy, Attention, AttentionElement, AttentionMask, BatchNorm, Cast, Causal, ConvOperand,
    ConvWeight, DynConvWeight, DynMask, NoMask, NormWeight, Norms, Padding, Parts, Pooling,
    Reductions, Rope, RopeStyle, Rotary, ScoresOf, Upsampling,
};
pub use values::error::{Error, ParseErrorKind, Reason, Refusal, Side};
pub use values::rule::{Rule, UnknownRule};
pub use values::selector::AxisSelector;
pub use values::shape::{DynAxis, DynShape, Name, Size, MAX_RANK, MAX_TYPED_RANK};
