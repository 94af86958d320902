//! Reductions at the type level (rule book §16): the twin of
//! [`dynamic::reduce`](mod@crate::dynamic::reduce). An axis selector is a name type, a position
//! [`Pos<K>`](crate::Pos) or a tuple of them; [`ReduceOver`] walks the shape once, marking each
//! axis kept, reduced or selected twice, and checks that every selector found its axis.
//!
//! ```
//! use shapecast::{names, shape, Pos, Reduce, ReduceKeep};
//! names!(N, C, H, W);
//! static_assertions::assert_type_eq_all!(Reduce<shape![N: 2, C: 3, H: 4, W: 5], (H, W)>, shape![N: 2, C: 3]);
//! static_assertions::assert_type_eq_all!(ReduceKeep<shape![N: 2, C: 3, H: 4, W: 5], (H, W)>, shape![N: 2, C: 3, H: 1, W: 1]);
//! static_assertions::assert_type_eq_all!(Reduce<shape![4, 5], Pos<1>>, shape![4]);
//! ```

use core::marker::PhantomData;

use super::axis::Axis;
use super::bits::{Cond, Or, B0, B1};
use super::list::{Apply, At, FromRev, Map};
use super::outcome::{Passed, Refused, Unwrap};
use super::selector::PickedBy;
use super::shape::Shape;
use super::size::{AxisSize, S};
use crate::typed::refusals::{NoSuchAxis, SelectedTwice};
use crate::values::shape::MAX_TYPED_RANK;

pub use super::selector::{
    AllFound, CountPicks, Finds, One, OneAxis, Picks, Plus, Pos, Selector, Twice, Zero,
};

/// An axis kept by the reduction.
#[doc(hidden)]
pub struct Kept<X>(PhantomData<X>);
/// An axis reduced away; `Z` is `B1` when it is statically 0.
#[doc(hidden)]
pub struct Gone<X, Z>(PhantomData<(X, Z)>);

/// An axis' fate under a pick count.
#[doc(hidden)]
pub trait Fate<X> {
    type Out;
}
impl<X> Fate<X> for Zero {
    type Out = Kept<X>;
}
impl<X: Axis> Fate<X> for One {
    type Out = Gone<X, <X::Size as AxisSize>::Zero>;
}
impl<X, Sel> Fate<X> for Twice<Sel> {
    type Out = Refused<SelectedTwice<Sel>>;
}

/// Each axis of a reversed, tagged list with its fate under the selectors `L`.
#[doc(hidden)]
pub trait Walk<L> {
    type Out;
}
impl<L, Rev: Map<FateBy<L>>> Walk<L> for Rev {
    type Out = Rev::Out;
}

/// An axis's fate under the selectors `L` (the function [`Walk`] maps: every axis asked side
/// by side, in one step per list length).
#[doc(hidden)]
pub struct FateBy<L>(PhantomData<L>);
impl<L: CountPicks<At<I, X>>, const I: usize, X> Apply<At<I, X>> for FateBy<L>
where
    L::Out: Fate<X>,
{
    type Out = <L::Out as Fate<X>>::Out;
}

/// The outcome of a walk: the two output lists (last first) and the reduced-axis mask, or
/// the first refusal. `Found` is the outcome of [`AllFound`], checked first.
#[doc(hidden)]
pub trait Outcome<Found> {
    /// The walk's `Lists` (reduced axes, kept axes, whether a reduced axis is statically 0),
    /// or `Refused<E>`.
    type Out;
}
impl<W: Split> Outcome<Passed> for W {
    type Out = W::Out;
}
impl<W, E> Outcome<Refused<E>> for W {
    type Out = Refused<E>;
}

/// The output lists of a walk.
#[doc(hidden)]
pub struct Lists<Reduced, KeptOnes, Z>(PhantomData<(Reduced, KeptOnes, Z)>);

/// Splits a walk into the reduced shape's axes and the kept shape's axes (both last first),
/// and whether a reduced axis is statically 0; or the first refusal.
#[doc(hidden)]
pub trait Split {
    type Out;
}
impl Split for () {
    type Out = Lists<(), (), B0>;
}
impl<X, Rest: Split> Split for (Kept<X>, Rest)
where
    Rest::Out: PushKept<X>,
{
    type Out = <Rest::Out as PushKept<X>>::Out;
}
impl<X: Axis, Z, Rest: Split> Split for (Gone<X, Z>, Rest)
where
    Rest::Out: PushGone<X, Z>,
{
    type Out = <Rest::Out as PushGone<X, Z>>::Out;
}
impl<E, Rest> Split for (Refused<E>, Rest) {
    type Out = Refused<E>;
}

/// Adds a kept axis to both lists.
#[doc(hidden)]
pub trait PushKept<X> {
    type Out;
}
impl<X, R, K, Z> PushKept<X> for Lists<R, K, Z> {
    type Out = Lists<(X, R), (X, K), Z>;
}
impl<X, E> PushKept<X> for Refused<E> {
    type Out = Refused<E>;
}

/// Adds a reduced axis: gone from the first list, statically 1 in the second.
#[doc(hidden)]
pub trait PushGone<X, Z> {
    type Out;
}
impl<X: Axis, Z: Cond, R, K, Zs: Cond> PushGone<X, Z> for Lists<R, K, Zs> {
    type Out = Lists<R, (X::Resize<S<1>>, K), Or<Z, Zs>>;
}
impl<X, Z, E> PushGone<X, Z> for Refused<E> {
    type Out = Refused<E>;
}

/// The outcome as a diagnostic: implemented only for a success, so a refusal names itself.
#[diagnostic::on_unimplemented(
    message = "cannot reduce `{S}` over `{A}`",
    label = "`{A}` does not select axes of `{S}`",
    note = "at fault: `{Self}`",
    note = "`NoSuchAxis<X>`: `X` names no axis of the shape (or `Pos<K>` is past its rank); `SelectedTwice<X>`: `X` selects an axis already selected"
)]
#[doc(hidden)]
pub trait ReduceVerdict<S, A> {
    type Reduced: Shape;
    type Kept: Shape;
    type HasZero: Cond;
}

#[diagnostic::do_not_recommend]
impl<S, A, R: FromRev, K: FromRev, Z: Cond> ReduceVerdict<S, A> for Lists<R, K, Z> {
    type Reduced = R::Out;
    type Kept = K::Out;
    type HasZero = Z;
}

type Walked<S, A> = <<S as Shape>::Rev as Walk<<A as Selector>::List>>::Out;
type Checked<S, A> = <<A as Selector>::List as AllFound<<S as Shape>::Rev>>::Out;
type Judged<S, A> = <<Walked<S, A> as Outcome<Checked<S, A>>>::Out as Unwrap>::Out;

impl<R, K, Z> Unwrap for Lists<R, K, Z> {
    type Out = Lists<R, K, Z>;
}

/// `Self` reduces over the selector `A` (rule book §16): the bound to write in generic code.
/// `Output` is `Self` without the selected axes, `Kept` with them as statically-1 axes (names
/// kept, as NumPy's `keepdims=True`).
///
/// ```
/// use shapecast::{names, shape, ReduceOver, Shape};
/// names!(CLASS);
/// fn reduced_rank<S: ReduceOver<CLASS>>() -> usize { <S::Output as Shape>::RANK }
/// assert_eq!(reduced_rank::<shape![?, CLASS: 10]>(), 1);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot reduce `{Self}` over `{A}`",
    label = "`{A}` does not select axes of `{Self}`"
)]
pub trait ReduceOver<A>: Shape {
    /// `Self` without the selected axes.
    type Output: Shape;
    /// `Self` with the selected axes statically 1.
    type Kept: Shape;
    /// [`StaticallyEmpty`](crate::StaticallyEmpty) when a selected axis is statically 0 (max
    /// and min refuse it).
    #[doc(hidden)]
    type HasZero;
    /// Which axes the selector picks, as a constant (true = reduced).
    ///
    /// ```
    /// use shapecast::{names, shape, Pos, ReduceOver};
    /// names!(H);
    /// assert_eq!(&<shape![2, H: 3, 4] as ReduceOver<(H, Pos<2>)>>::MASK[..3], &[false, true, true]);
    /// ```
    const MASK: [bool; MAX_TYPED_RANK];
}

/// The reduction of `S` over `A` for any shape: what [`ReduceOver`] gives. `ReduceOver` itself
/// is implemented for each written shape (a tuple of axes, in `typed::tuples`), so that
/// generic code missing the bound is told to add `S: ReduceOver<A>` rather than shown this
/// machinery.
#[doc(hidden)]
pub trait Reduces<A> {
    type Output: Shape;
    type Kept: Shape;
    type HasZero;
    const MASK: [bool; MAX_TYPED_RANK];
}

impl<S: Shape, A: Selector> Reduces<A> for S
where
    S::Rev: Walk<A::List>,
    Walked<S, A>: MaskOf,
    A::List: AllFound<S::Rev>,
    Walked<S, A>: Outcome<Checked<S, A>>,
    <Walked<S, A> as Outcome<Checked<S, A>>>::Out: Unwrap,
    Judged<S, A>: ReduceVerdict<S, A>,
{
    type Output = <Judged<S, A> as ReduceVerdict<S, A>>::Reduced;
    type Kept = <Judged<S, A> as ReduceVerdict<S, A>>::Kept;
    type HasZero = <<Judged<S, A> as ReduceVerdict<S, A>>::HasZero as Cond>::If<
        crate::typed::refusals::StaticallyEmpty,
        NotEmpty,
    >;
    const MASK: [bool; MAX_TYPED_RANK] = <Walked<S, A> as MaskOf>::MASK;
}

/// The mask of reduced axes of a walk (last axis first), as a constant.
#[doc(hidden)]
pub trait MaskOf {
    /// The number of axes.
    const LEN: usize;
    /// True where an axis is reduced.
    const MASK: [bool; MAX_TYPED_RANK];
}
impl MaskOf for () {
    const LEN: usize = 0;
    const MASK: [bool; MAX_TYPED_RANK] = [false; MAX_TYPED_RANK];
}
impl<E: Reduced, Rest: MaskOf> MaskOf for (E, Rest) {
    const LEN: usize = Rest::LEN + 1;
    // The rest holds the axes before this one, so this axis' position is its length.
    const MASK: [bool; MAX_TYPED_RANK] = {
        let mut mask = Rest::MASK;
        if Rest::LEN < MAX_TYPED_RANK {
            mask[Rest::LEN] = E::REDUCED;
        }
        mask
    };
}

/// Whether a walk element is a reduced axis.
#[doc(hidden)]
pub trait Reduced {
    const REDUCED: bool;
}
impl<X> Reduced for Kept<X> {
    const REDUCED: bool = false;
}
impl<X, Z> Reduced for Gone<X, Z> {
    const REDUCED: bool = true;
}
impl<E> Reduced for Refused<E> {
    const REDUCED: bool = false;
}

/// Whether `Self` reduces over `A`, as a constant: a compile-time yes or no that does not
/// stop the compilation (the twin of [`Accepts`](crate::Accepts) for selectors).
///
/// ```
/// use shapecast::{names, shape, AcceptsReduce, Pos};
/// names!(H, W);
/// assert!(<shape![H: 2, 3] as AcceptsReduce<(H, Pos<1>)>>::VALUE);
/// assert!(!<shape![H: 2, 3] as AcceptsReduce<W>>::VALUE);
/// assert!(!<shape![H: 2, 3] as AcceptsReduce<(H, Pos<0>)>>::VALUE);
/// ```
pub trait AcceptsReduce<A> {
    /// True when every selector finds its own axis.
    const VALUE: bool;
}

impl<S: Shape, A: Selector> AcceptsReduce<A> for S
where
    S::Rev: Walk<A::List>,
    A::List: AllFound<S::Rev>,
    Walked<S, A>: Outcome<Checked<S, A>>,
    <Walked<S, A> as Outcome<Checked<S, A>>>::Out: Unwrap,
    Judged<S, A>: ReduceAccepted,
{
    const VALUE: bool = <Judged<S, A> as ReduceAccepted>::VALUE;
}

/// Whether a verdict is a success.
#[doc(hidden)]
pub trait ReduceAccepted {
    const VALUE: bool;
}
impl<R, K, Z> ReduceAccepted for Lists<R, K, Z> {
    const VALUE: bool = true;
}
impl<X> ReduceAccepted for NoSuchAxis<X> {
    const VALUE: bool = false;
}
impl<X> ReduceAccepted for SelectedTwice<X> {
    const VALUE: bool = false;
}

/// `S` without the axes `A` selects (rule book §16).
///
/// ```
/// use shapecast::{names, shape, Reduce};
/// names!(CLASS);
/// static_assertions::assert_type_eq_all!(Reduce<shape![?, CLASS: 10], CLASS>, shape![?]);
/// ```
pub type Reduce<S, A> = <S as ReduceOver<A>>::Output;

/// `S` with the axes `A` selects as statically-1 axes, names kept (rule book §16).
///
/// ```
/// use shapecast::{names, shape, ReduceKeep};
/// names!(CLASS);
/// static_assertions::assert_type_eq_all!(ReduceKeep<shape![?, CLASS: 10], CLASS>, shape![?, CLASS: 1]);
/// ```
pub type ReduceKeep<S, A> = <S as ReduceOver<A>>::Kept;

/// `Self` reduces over `A`, and no axis `A` selects is statically 0: the bound generic code
/// writes for [`max`](crate::Reductions::max), [`min`](crate::Reductions::min),
/// [`argmax`](crate::Reductions::argmax) and [`argmin`](crate::Reductions::argmin) (an empty axis has
/// no maximum). Every shape that reduces over `A` without a static 0 implements it.
///
/// ```
/// use shapecast::{names, shape, Reduce, ReduceNonEmpty, Reductions, Tensor};
/// names!(CLASS);
/// fn top<S: ReduceNonEmpty<A>, A>(t: &Tensor<f32, S>) -> Tensor<f32, Reduce<S, A>> {
///     t.max::<A>()
/// }
/// let t = Tensor::<f32, shape![2, CLASS: 3]>::from_array([[1.0, 5.0, 2.0], [7.0, 0.0, 1.0]]);
/// assert_eq!(top::<_, CLASS>(&t).data(), &[5.0, 7.0]);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot take a maximum or minimum of `{Self}` over `{A}`",
    label = "`{A}` must select axes of `{Self}`, none of them of size 0"
)]
pub trait ReduceNonEmpty<A>: ReduceOver<A, HasZero: NonEmpty<Self, A>> {}
impl<S, A> ReduceNonEmpty<A> for S where S: ReduceOver<A, HasZero: NonEmpty<S, A>> {}

/// `Self` samples over `A` ([`Reductions::sample`](crate::Reductions::sample)): `A` selects
/// `Self`'s last axis, the categories, as PyTorch's `multinomial` reads them; sampling over
/// another axis (the sequence rather than the vocabulary) is a compile error.
///
/// ```
/// use shapecast::{names, shape, SampleOver};
/// names!(SEQ, VOCAB);
/// static_assertions::assert_impl_all!(shape![SEQ, VOCAB: 8]: SampleOver<VOCAB>);
/// static_assertions::assert_not_impl_any!(shape![SEQ, VOCAB: 8]: SampleOver<SEQ>);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot sample `{Self}` over `{A}`",
    label = "`{A}` must select the last axis of `{Self}`: the categories, as in PyTorch's `multinomial`"
)]
pub trait SampleOver<A>: ReduceOver<A> {}
#[diagnostic::do_not_recommend]
impl<S: ReduceOver<A>, A> SampleOver<A> for S
where
    S::Rev: Map<PickedBy<A>>,
    <S::Rev as Map<PickedBy<A>>>::Out: LastPicked,
{
}

/// A list of flags, the last axis' first, whose first is set: the selector picks the last
/// axis.
#[doc(hidden)]
pub trait LastPicked {}
impl<R> LastPicked for (B1, R) {}

/// The selected axes have no statically-0 axis among them: what `max`, `min`, `argmax` and
/// `argmin` need (an empty axis has no maximum).
#[diagnostic::on_unimplemented(
    message = "cannot take a maximum or minimum of `{S}` over `{A}`: a selected axis has size 0",
    label = "an empty axis has no maximum or minimum"
)]
pub trait NonEmpty<S: ?Sized, A> {}
#[diagnostic::do_not_recommend]
impl<S: ?Sized, A> NonEmpty<S, A> for NotEmpty {}

/// No selected axis is statically 0.
#[doc(hidden)]
pub struct NotEmpty;
