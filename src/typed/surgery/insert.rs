//! Insert an axis of size 1 at a position (rule book §18).

use super::*;

/// `Self` with a size-1 axis named `N` (or [`Unnamed`]) inserted at position `K`
/// (`0 ≤ K ≤ rank`).
///
/// ```
/// use shapecast::{names, shape, InsertAxisAt, Shape};
/// names!(N);
/// assert_eq!(<shape![2, 3] as InsertAxisAt<2, N>>::Output::to_dyn().to_string(), "[2, 3, N: 1]");
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot insert `{N}` at position {K} of `{Self}`",
    label = "`{N}` cannot go at position {K} of `{Self}`",
    note = "the position is at most the rank, and the new axis's name must be new"
)]
pub trait InsertAxisAt<const K: usize, N>: Shape {
    /// The shape with the new axis.
    type Output: Shape;
}

/// The rule behind [`InsertAxisAt`], for every shape; the public trait forwards to it rank by rank
/// (see `typed::capability`), so a generic shape without the bound is told to add `InsertAxisAt`.
#[doc(hidden)]
pub trait InsertAxisAtRule<const K: usize, N>: Shape {
    type Output: Shape;
}
crate::typed::capability::capability!([const K: usize, N] InsertAxisAt<K, N> => InsertAxisAtRule<K, N> { type Output; });

/// The verdict of an insertion, implemented only for a success.
#[diagnostic::on_unimplemented(
    message = "cannot insert an axis `{N}` into `{S}`",
    label = "`{N}` cannot be inserted into `{S}`",
    note = "at fault: `{Self}`",
    note = "`NoSuchAxis<Pos<K>>`: position `K` is past the rank (it may equal the rank); `RepeatedName<X>`: the new name already names the axis `X`"
)]
#[doc(hidden)]
pub trait InsertVerdict<S, N> {
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<S, N, R: FromRev> InsertVerdict<S, N> for Good<R> {
    type Out = R::Out;
}

/// The plain list (last first) with `New` inserted at position `K`.
#[doc(hidden)]
pub trait InsertWalk<KBits, New> {
    type Out;
}
impl<KBits: IsEqual<UTerm>, New> InsertWalk<KBits, New> for ()
where
    <KBits as IsEqual<UTerm>>::Output: Cond,
{
    type Out = <<KBits as IsEqual<UTerm>>::Output as Cond>::If<(New, ()), ()>;
}
impl<KBits, New, const I: usize, X, Xs: InsertWalk<KBits, New>> InsertWalk<KBits, New>
    for (At<I, X>, Xs)
where
    Const<I>: ToUInt,
    U<I>: Add<typenum::B1>,
    KBits: IsEqual<Add1<U<I>>>,
    <KBits as IsEqual<Add1<U<I>>>>::Output: Cond,
{
    type Out =
        <<KBits as IsEqual<Add1<U<I>>>>::Output as Cond>::If<(New, (X, Xs::Out)), (X, Xs::Out)>;
}

/// The length of a tagged list as typenum bits.
#[doc(hidden)]
pub trait LenBits {
    type Out;
}
impl LenBits for () {
    type Out = UTerm;
}
impl<const I: usize, X, Xs> LenBits for (At<I, X>, Xs)
where
    Const<I>: ToUInt,
    U<I>: Add<typenum::B1>,
{
    type Out = Add1<U<I>>;
}

pub(super) type Inserted<S, const K: usize, N> =
    <<S as Shape>::Rev as InsertWalk<U<K>, <N as Axis>::Resize<SizeOne>>>::Out;
pub(super) type InsertChecks<S, const K: usize, N> = (
    Check<<U<K> as IsLessOrEqual<<<S as Shape>::Rev as LenBits>::Out>>::Output, NoSuchAxis<Pos<K>>>,
    (<Inserted<S, K, N> as Distinct>::Out, ()),
);

impl<S: Shape, const K: usize, N: Axis> InsertAxisAtRule<K, N> for S
where
    Const<K>: ToUInt,
    S::Rev: InsertWalk<U<K>, N::Resize<SizeOne>> + LenBits,
    U<K>: IsLessOrEqual<<S::Rev as LenBits>::Out>,
    <U<K> as IsLessOrEqual<<S::Rev as LenBits>::Out>>::Output: Cond,
    Inserted<S, K, N>: Distinct,
    InsertChecks<S, K, N>: Judge<Inserted<S, K, N>>,
    Judged<InsertChecks<S, K, N>, Inserted<S, K, N>>: InsertVerdict<S, N>,
{
    type Output = <Judged<InsertChecks<S, K, N>, Inserted<S, K, N>> as InsertVerdict<S, N>>::Out;
}

/// `S` with a size-1 axis named `N` (or [`Unnamed`]) at position `K` (rule book §18).
///
/// ```
/// use shapecast::{names, shape, InsertAxis};
/// names!(N, H, W);
/// static_assertions::assert_type_eq_all!(InsertAxis<shape![H, W: 3], 0, N>, shape![N: 1, H, W: 3]);
/// static_assertions::assert_type_eq_all!(InsertAxis<shape![H, W: 3], 2, N>, shape![H, W: 3, N: 1]);
/// ```
pub type InsertAxis<S, const K: usize, N> = <S as InsertAxisAt<K, N>>::Output;
