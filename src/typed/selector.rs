//! Axis selectors at the type level (rule book §16): a name type, a position [`Pos<K>`] or a
//! tuple of them, what each picks in a shape's reversed, tagged axis list, how many times an
//! axis is picked, and whether every selector found its axis. Reductions, contractions and
//! shape surgery select axes with them. The twin of
//! [`dynamic::selector`](crate::values::selector).

use core::marker::PhantomData;

use alloc::borrow::Cow;

use typenum::{Const, IsEqual, ToUInt, U};

use crate::alloc_prelude::*;
use crate::values::selector::{AxisSelector, StaticSelectors};
use crate::values::shape::Name;

use super::axis::Axis;
use super::bits::Cond;
use super::list::{AnyTrue, Apply, At, FirstFound, Map};
use super::name::SameName;
use super::outcome::{Passed, Refused};
use crate::typed::refusals::NoSuchAxis;
use crate::values::shape::MAX_TYPED_RANK;

/// Selects the axis at position `K` (counting every axis of the shape as written, from 0).
///
/// ```
/// use shapecast::{shape, Pos, Reduce};
/// static_assertions::assert_type_eq_all!(Reduce<shape![2, 3, 4], Pos<0>>, shape![3, 4]);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Pos<const K: usize>;

/// Whether one elementary selector (a name or a position) picks the axis `A` (`At<I, X>`).
#[doc(hidden)]
pub trait Picks<A> {
    type Out: Cond;
}

impl<const K: usize, const I: usize, X> Picks<At<I, X>> for Pos<K>
where
    Const<K>: ToUInt,
    Const<I>: ToUInt,
    U<K>: IsEqual<U<I>>,
    <U<K> as IsEqual<U<I>>>::Output: Cond,
{
    type Out = <U<K> as IsEqual<U<I>>>::Output;
}

impl<N: Axis, const I: usize, X: Axis> Picks<At<I, X>> for N
where
    X::Name: SameName<N::Name>,
{
    type Out = <X::Name as SameName<N::Name>>::Out;
}

/// A selector as a list of elementary selectors: a name or a position alone, or a tuple.
///
/// ```
/// use shapecast::{names, Pos, Selector};
/// names!(H, W);
/// assert_eq!(<(Pos<0>, H, W) as Selector>::COUNT, 3);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not select axes",
    label = "not an axis selector",
    note = "a selector is a name, a position `Pos<K>`, or a tuple of them such as `(H, W)`"
)]
pub trait Selector {
    /// The elementary selectors, first first.
    #[doc(hidden)]
    type List;
    /// How many axes the selector names.
    const COUNT: usize;
    /// The selector at run time: its names and positions, in order.
    ///
    /// ```
    /// use shapecast::{names, Pos, Selector};
    /// names!(H);
    /// let s = <(H, Pos<2>) as Selector>::selectors();
    /// assert_eq!(s, vec!["H".parse()?, "2".parse()?]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    fn selectors() -> Vec<AxisSelector>;
    /// The selector as a constant.
    #[doc(hidden)]
    const STATIC: StaticSelectors;
}

impl<const K: usize> Selector for Pos<K> {
    type List = (Pos<K>, ());
    const COUNT: usize = 1;
    const STATIC: StaticSelectors = StaticSelectors::one(Err(K));
    fn selectors() -> Vec<AxisSelector> {
        vec![AxisSelector::Pos(K)]
    }
}

impl<N: Axis> Selector for N {
    type List = (N, ());
    const COUNT: usize = 1;
    const STATIC: StaticSelectors = match N::NAME {
        Some(name) => StaticSelectors::one(Ok(name)),
        None => panic!("a selector type is a name or a position"),
    };
    fn selectors() -> Vec<AxisSelector> {
        let name = N::NAME.expect("a selector type is a name or a position");
        vec![AxisSelector::Name(
            Name::new(Cow::Borrowed(name)).expect("names! declares identifiers"),
        )]
    }
}

macro_rules! selector_tuples {
    ($($n:literal: ($($A:ident),+);)+) => {$(
        impl<$($A: Selector),+> Selector for ($($A,)+) {
            type List = selector_tuples!(@list $($A),+);
            const COUNT: usize = $n;
            const STATIC: StaticSelectors = StaticSelectors { len: 0, items: [Err(0); MAX_TYPED_RANK] }
                $(.then($A::STATIC))+;
            fn selectors() -> Vec<AxisSelector> {
                let mut all = Vec::new();
                $(all.extend($A::selectors());)+
                all
            }
        }
    )+};
    (@list $A:ident) => { ($A, ()) };
    (@list $A:ident, $($rest:ident),+) => { ($A, selector_tuples!(@list $($rest),+)) };
}

selector_tuples! {
    1: (A0);
    2: (A0, A1);
    3: (A0, A1, A2);
    4: (A0, A1, A2, A3);
    5: (A0, A1, A2, A3, A4);
    6: (A0, A1, A2, A3, A4, A5);
    7: (A0, A1, A2, A3, A4, A5, A6);
    8: (A0, A1, A2, A3, A4, A5, A6, A7);
}

/// One selector: a name or a position, not a tuple (what `argmax` and `argmin` take).
///
/// ```
/// use shapecast::{names, OneAxis, Pos};
/// names!(CLASS);
/// fn one<A: OneAxis>() {}
/// one::<CLASS>();
/// one::<Pos<1>>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not one axis: argmax and argmin take a name or a `Pos<K>`",
    label = "one axis expected"
)]
pub trait OneAxis: Selector {}
impl<const K: usize> OneAxis for Pos<K> {}
#[diagnostic::do_not_recommend]
impl<N: Axis> OneAxis for N {}

/// No elementary selector picked the axis yet.
#[doc(hidden)]
pub struct Zero;
/// One selector picked it.
#[doc(hidden)]
pub struct One;
/// A second selector, `Sel`, picked it again.
#[doc(hidden)]
pub struct Twice<Sel>(PhantomData<Sel>);

/// How many of a list of selectors pick axis `A`: [`Zero`], [`One`] or [`Twice`].
#[doc(hidden)]
pub trait CountPicks<A> {
    type Out;
}
impl<A> CountPicks<A> for () {
    type Out = Zero;
}
impl<A, Sel: Picks<A>, Rest: CountPicks<A>> CountPicks<A> for (Sel, Rest)
where
    Rest::Out: Plus<Sel>,
{
    type Out = <Sel::Out as Cond>::If<<Rest::Out as Plus<Sel>>::Out, Rest::Out>;
}

/// One more pick, by `Sel`.
#[doc(hidden)]
pub trait Plus<Sel> {
    type Out;
}
impl<Sel> Plus<Sel> for Zero {
    type Out = One;
}
impl<Sel> Plus<Sel> for One {
    type Out = Twice<Sel>;
}
impl<Sel, T> Plus<Sel> for Twice<T> {
    type Out = Twice<T>;
}

/// Whether a selector picks some axis of a reversed, tagged list.
#[doc(hidden)]
pub trait Finds<Rev> {
    type Out: Cond;
}
impl<Sel, Rev: Map<PickedBy<Sel>>> Finds<Rev> for Sel
where
    <Rev as Map<PickedBy<Sel>>>::Out: AnyTrue,
{
    type Out = <<Rev as Map<PickedBy<Sel>>>::Out as AnyTrue>::Out;
}

/// Whether `Sel` picks an axis (the function a search maps over a list's axes: every axis
/// is asked side by side, in one step per list length).
#[doc(hidden)]
pub struct PickedBy<Sel>(PhantomData<Sel>);
impl<Sel: Picks<A>, A> Apply<A> for PickedBy<Sel> {
    type Out = Sel::Out;
}

/// The axis a selector picks in a reversed, tagged list: `Found<At<I, X>>` (the first, last
/// axis first, when several are) or `Missing`.
#[doc(hidden)]
pub trait PickIn<Rev> {
    type Out;
}
impl<Sel, Rev: Map<PickedBy<Sel>>> PickIn<Rev> for Sel
where
    <Rev as Map<PickedBy<Sel>>>::Out: FirstFound<Rev>,
{
    type Out = <<Rev as Map<PickedBy<Sel>>>::Out as FirstFound<Rev>>::Out;
}

/// The first selector of a list that picks no axis: `Passed` when every selector finds its
/// axis, else `Refused<NoSuchAxis<Sel>>`.
#[doc(hidden)]
pub trait AllFound<Rev> {
    type Out;
}
impl<Rev> AllFound<Rev> for () {
    type Out = Passed;
}
impl<Rev, Sel: Finds<Rev>, Rest: AllFound<Rev>> AllFound<Rev> for (Sel, Rest) {
    type Out = <<Sel as Finds<Rev>>::Out as Cond>::If<Rest::Out, Refused<NoSuchAxis<Sel>>>;
}
