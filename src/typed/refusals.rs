//! The refusals of the type level: the types a compile error names as "at fault"
//! (`SizesDiffer<LhsAxis<1, S<4>>, RhsAxis<0, S<5>>>`). They are re-exported at the crate root,
//! which is the path compile errors print (this module sits under the hidden `typed`), and
//! each carries a `compile_fail` example of the mistake it names. [`verdict`](super::verdict)
//! turns them into the error's message.

pub struct LhsAxis<const I: usize, X>(core::marker::PhantomData<X>);

/// Axis `J` of the right operand, of type `X`, as a compile error names it.
///
/// ```compile_fail
/// // error: ... at fault: `SizesDiffer<LhsAxis<0, S<2>>, RhsAxis<0, S<4>>>`
/// use shapecast::{shape, Broadcast};
/// let _: Option<Broadcast<shape![2, 3], shape![4, 3]>> = None;
/// ```
pub struct RhsAxis<const J: usize, X>(core::marker::PhantomData<X>);

/// The pair's sizes are neither equal nor 1 (or, under the strict and compare rules, not
/// equal; under assign and pdpd, the right's is neither 1 nor the left's).
///
/// ```compile_fail
/// use shapecast::{rule::Numpy, shape, BroadcastBy};
/// let _: Option<BroadcastBy<Numpy, shape![3, 1, 5], shape![4, 4, 5]>> = None;
/// ```
pub struct SizesDiffer<L, R>(core::marker::PhantomData<(L, R)>);

/// The pair's axes carry two different names, or (assignment, rule book §10) a name the
/// destination's axis lacks. Usually a named axis with no namesake on the other side took the
/// axis it meets; `rule::Outer` keeps both names, and renaming one side aligns them.
///
/// ```compile_fail
/// use shapecast::{names, shape, Broadcast};
/// names!(H, W, C);
/// let _: Option<Broadcast<shape![H: 2, W: 3], shape![C: 3]>> = None;
/// ```
pub struct NamesDiffer<L, R>(core::marker::PhantomData<(L, R)>);

/// The ranks differ where the rule wants identical shapes (strict, compare).
///
/// ```compile_fail
/// use shapecast::{rule::Strict, shape, BroadcastBy};
/// let _: Option<BroadcastBy<Strict, shape![3], shape![1, 3]>> = None;
/// ```
pub struct RanksDiffer;

/// The right operand has more axes than the left, which the rule forbids (assign, pdpd).
///
/// ```compile_fail
/// use shapecast::{rule::Assign, shape, BroadcastBy};
/// let _: Option<BroadcastBy<Assign, shape![3], shape![1, 3]>> = None;
/// ```
pub struct RhsLonger;

/// Embedding rule: this axis of the shorter operand finds no compatible partner in order.
///
/// ```compile_fail
/// use shapecast::{rule::Embed, shape, BroadcastBy};
/// let _: Option<BroadcastBy<Embed, shape![2, 3], shape![3, 2]>> = None;
/// ```
pub struct NoMatch<X>(core::marker::PhantomData<X>);

/// PDPD rule: the start axis plus the (trimmed) right operand's rank exceeds the left's rank.
///
/// ```compile_fail
/// use shapecast::{rule::{Pdpd, Start}, shape, BroadcastBy};
/// let _: Option<BroadcastBy<Pdpd<Start<3>>, shape![2, 3, 4, 5], shape![3, 4]>> = None;
/// ```
pub struct PdpdRange;

/// The output would name two axes alike (the NumPy rule pairs by position, so `[H: 1, 3]`
/// with `[H: 3]` gives `H` twice).
///
/// ```compile_fail
/// use shapecast::{names, rule::Numpy, shape, BroadcastBy};
/// names!(H);
/// let _: Option<BroadcastBy<Numpy, shape![H: 1, 3], shape![H: 3]>> = None;
/// ```
pub struct RepeatedName<X>(core::marker::PhantomData<X>);

/// A selector that names no axis of the shape: a name the shape lacks, or a position past
/// its rank (rule book §16).
///
/// ```compile_fail
/// use shapecast::{names, shape, Reduce};
/// names!(H, W);
/// let _: Option<Reduce<shape![H: 2], W>> = None;
/// ```
pub struct NoSuchAxis<Sel>(core::marker::PhantomData<Sel>);

/// A gather's indices without the axis `Sel` they gather along (rule book §21).
///
/// ```compile_fail
/// use shapecast::{names, shape, Gather};
/// names!(N, C);
/// let _: Option<Gather<shape![N: 2, C: 3], C, shape![N: 2]>> = None;
/// ```
pub struct IndexLacks<Sel>(core::marker::PhantomData<Sel>);

/// A convolution's weight without the channel `C` the input has (rule book §20).
///
/// ```compile_fail
/// use shapecast::{names, shape, Convolve};
/// names!(C, K, H);
/// let _: Option<Convolve<shape![C: 2, H: 5], shape![K: 2, H: 3], C>> = None;
/// ```
pub struct WeightLacks<C>(core::marker::PhantomData<C>);

/// A convolution's weight whose every axis has a namesake in the input: it has no output
/// channel (rule book §20).
///
/// ```compile_fail
/// use shapecast::{names, shape, Convolve};
/// names!(C, H);
/// let _: Option<Convolve<shape![C: 2, H: 5], shape![C: 2, H: 3], C>> = None;
/// ```
pub struct NoOutputChannel;

/// A convolution's weight with two axes `A` and `B` whose names the input lacks: only the
/// output channel may (rule book §20).
///
/// ```compile_fail
/// use shapecast::{names, shape, Convolve};
/// names!(C, K, H, Z);
/// let _: Option<Convolve<shape![C: 2, H: 5], shape![K: 2, C: 2, H: 3, Z: 3], C>> = None;
/// ```
pub struct TwoOutputChannels<A, B>(core::marker::PhantomData<(A, B)>);

/// A convolution's weight that shares no name with the input besides the channel: nothing to
/// slide along (rule book §20).
///
/// ```compile_fail
/// use shapecast::{names, shape, Convolve};
/// names!(C, K);
/// let _: Option<Convolve<shape![C: 2, 5], shape![K: 2, C: 2], C>> = None;
/// ```
pub struct NoSpatialAxis;

/// A convolution whose input channel `X` is not `groups` times the weight's channel `Y`
/// (rule book §20).
///
/// ```compile_fail
/// use shapecast::{names, shape, Convolve};
/// names!(C, K, H);
/// let _: Option<Convolve<shape![C: 3, H: 5], shape![K: 2, C: 4, H: 3], C>> = None;
/// ```
pub struct ChannelsDiffer<X, Y>(core::marker::PhantomData<(X, Y)>);

/// A convolution whose kernel axis `K`, dilated, is longer than the padded input axis `X`
/// (rule book §20).
///
/// ```compile_fail
/// use shapecast::{names, shape, Convolve};
/// names!(C, K, H);
/// let _: Option<Convolve<shape![C: 3, H: 2], shape![K: 2, C: 3, H: 3], C>> = None;
/// ```
pub struct KernelTooLarge<X, K>(core::marker::PhantomData<(X, K)>);

/// A convolution whose kernel axis `K` is statically empty (rule book §20).
///
/// ```compile_fail
/// use shapecast::{names, shape, Convolve};
/// names!(C, K, H);
/// let _: Option<Convolve<shape![C: 3, H: 2], shape![K: 2, C: 3, H: 0], C>> = None;
/// ```
pub struct EmptyKernel<K>(core::marker::PhantomData<K>);

/// A pooling window longer than the padded axis `X` (rule book §20).
///
/// ```compile_fail
/// use shapecast::{names, shape, Pool, Pooled};
/// names!(T);
/// let _: Option<Pooled<shape![T: 2], T, Pool<3>>> = None;
/// ```
pub struct WindowTooLarge<X>(core::marker::PhantomData<X>);

/// A pooling window `P` whose padding is more than half its kernel (PyTorch refuses it too;
/// rule book §20).
///
/// ```compile_fail
/// use shapecast::{names, shape, Pool, Pooled};
/// names!(T);
/// let _: Option<Pooled<shape![T: 8], T, Pool<3, 1, 2>>> = None;
/// ```
pub struct PaddingTooWide<P>(core::marker::PhantomData<P>);

/// A merge whose second axis does not follow the first (rule book §18): merged axes must be
/// adjacent and in order.
///
/// ```compile_fail
/// use shapecast::{names, shape, MergeAxes};
/// names!(H, W);
/// let _: Option<MergeAxes<shape![H: 2, W: 3], (W, H), H>> = None;
/// ```
pub struct NotAdjacent<X, Y>(core::marker::PhantomData<(X, Y)>);

/// A static size that does not fit (rule book §18): split parts whose product is not the
/// axis' size, a merged or concatenated axis whose written size is not the product or the
/// sum, a window longer than its axis.
///
/// ```compile_fail
/// use shapecast::{names, shape, SplitAxis, S};
/// names!(HW, H, W);
/// let _: Option<SplitAxis<shape![HW: 12], HW, (H<S<5>>, W<S<2>>)>> = None;
/// ```
pub struct WrongSize<X>(core::marker::PhantomData<X>);

/// A selector that picks an axis another selector already picked (rule book §16).
///
/// ```compile_fail
/// use shapecast::{names, shape, Pos, Reduce};
/// names!(H);
/// let _: Option<Reduce<shape![H: 2, 3], (H, Pos<0>)>> = None;
/// ```
pub struct SelectedTwice<Sel>(core::marker::PhantomData<Sel>);

/// A reduction's selected axis that is statically 0, where the operation (`max`, `min`,
/// `argmax`, `argmin`) has no identity (rule book §16).
///
/// ```compile_fail
/// use shapecast::{shape, Pos, Tensor};
/// let t = Tensor::<f32, shape![0, 3]>::from_vec(vec![]).unwrap();
/// let _ = t.max::<Pos<0>>();
/// ```
pub struct StaticallyEmpty;

/// A matmul operand of rank 0: a scalar has no matrix axes (rule book §17).
///
/// ```compile_fail
/// use shapecast::{shape, MatMul};
/// let _: Option<MatMul<shape![], shape![3]>> = None;
/// ```
pub struct RankZero;
