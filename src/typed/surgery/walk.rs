//! The walks over a shape's reversed, index-tagged axis list that every operation runs: find the
//! selected axis, replace it, count and multiply what was picked.

use super::*;

/// What replaces a picked axis `X`: a reversed list of axes.
#[doc(hidden)]
pub trait Surgeon<X> {
    type Rev;
}
/// The picked axis goes.
#[doc(hidden)]
pub struct Removed;
impl<X> Surgeon<X> for Removed {
    type Rev = ();
}
/// The picked axis takes the name of `B` (none for [`Unnamed`]), its size kept.
#[doc(hidden)]
pub struct Renamed<B>(PhantomData<B>);
impl<X: Axis, B: Axis> Surgeon<X> for Renamed<B> {
    type Rev = (B::Resize<X::Size>, ());
}
/// The picked axis takes the size `Z`, its name kept.
#[doc(hidden)]
pub struct Resized<Z>(PhantomData<Z>);
impl<X: Axis, Z> Surgeon<X> for Resized<Z> {
    type Rev = (X::Resize<Z>, ());
}
/// The picked axis becomes the axes `Rev` (last first).
#[doc(hidden)]
pub struct Parts<Rev>(PhantomData<Rev>);
impl<X, Rev> Surgeon<X> for Parts<Rev> {
    type Rev = Rev;
}

/// The plain list of axes (last first) with the axis `Sel` picks replaced by what `R` makes
/// of it.
#[doc(hidden)]
pub trait Replace<Sel, R> {
    type Out;
}
impl<Sel, R> Replace<Sel, R> for () {
    type Out = ();
}
impl<Sel, R, const I: usize, X, Xs> Replace<Sel, R> for (At<I, X>, Xs)
where
    Sel: Picks<At<I, X>>,
    R: Surgeon<X>,
    Xs: Replace<Sel, R>,
    R::Rev: Append<Xs::Out>,
{
    type Out =
        <<Sel as Picks<At<I, X>>>::Out as Cond>::If<<R::Rev as Append<Xs::Out>>::Out, (X, Xs::Out)>;
}

/// The position of the axis `Sel` picks (`usize::MAX` when none does).
#[doc(hidden)]
pub trait PositionOf<Sel> {
    const AT: usize;
}
impl<Sel: PickIn<Rev>, Rev> PositionOf<Sel> for Rev
where
    Sel::Out: Position,
{
    const AT: usize = <Sel::Out as Position>::AT;
}

/// The position a search's answer holds (`usize::MAX` for `Missing`).
#[doc(hidden)]
pub trait Position {
    const AT: usize;
}
impl<const I: usize, X> Position for Found<At<I, X>> {
    const AT: usize = I;
}
impl Position for Missing {
    const AT: usize = usize::MAX;
}

/// The product of the sizes of the axes a list of selectors `L` picks: whether they are all
/// static, and the product of the static ones.
#[doc(hidden)]
pub trait PickedProduct<L> {
    type Known: Cond;
    type Bits;
}
impl<L, Rev: FilterMap<PickedAxis<L>>> PickedProduct<L> for Rev
where
    Rev::Out: Product,
{
    type Known = <Rev::Out as Product>::Known;
    type Bits = <Rev::Out as Product>::Bits;
}

/// An axis the selectors `L` pick, kept bare (the function [`PickedProduct`] filters with:
/// every axis is asked beside the others, and only the picked few are multiplied).
#[doc(hidden)]
pub struct PickedAxis<L>(PhantomData<L>);
impl<L, const I: usize, X> Apply<At<I, X>> for PickedAxis<L>
where
    L: CountPicks<At<I, X>>,
    <L as CountPicks<At<I, X>>>::Out: Picked,
{
    type Out = Keep<<<L as CountPicks<At<I, X>>>::Out as Picked>::Out, X>;
}

/// Whether a pick count picks.
#[doc(hidden)]
pub trait Picked {
    type Out: Cond;
}
impl Picked for Zero {
    type Out = B0;
}
impl Picked for One {
    type Out = B1;
}
impl<Sel> Picked for Twice<Sel> {
    type Out = B1;
}

/// The product of a plain list of axes' sizes: whether all are static, and the product of
/// the static ones.
#[doc(hidden)]
pub trait Product {
    type Known: Cond;
    type Bits;
}
impl Product for () {
    type Known = B1;
    type Bits = U1;
}
impl<X: Axis, Xs: Product> Product for (X, Xs)
where
    X::Size: TimesBits<Xs::Bits>,
{
    type Known = And<KnownOf<X::Size>, Xs::Known>;
    type Bits = <X::Size as TimesBits<Xs::Bits>>::Out;
}

/// A whole whose static size must equal a static product: a check that passes unless both
/// are static and differ.
pub(super) type Fits<WholeKnown, WholeBits, PartsKnown, PartsBits> =
    Or<Not<And<WholeKnown, PartsKnown>>, <WholeBits as SameSizeBits<PartsBits>>::Out>;
