//! Rename one axis (rule book §18).

use super::*;

/// `Self` with the axis `A` picks renamed to `B` (rule book §18): the bound to write in
/// generic code. `B` must not name another axis; [`Unnamed`] removes the name.
///
/// ```
/// use shapecast::{names, shape, RenameAxis, Shape};
/// names!(C, K);
/// fn renamed<X: RenameAxis<C, K>>() -> String { X::Output::to_dyn().to_string() }
/// assert_eq!(renamed::<shape![?, C: 3]>(), "[?, K: 3]");
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot rename `{A}` of `{Self}` to `{B}`",
    label = "`{A}` cannot become `{B}` in `{Self}`",
    note = "`{A}` must pick one axis, and `{B}` must not name another axis of the shape"
)]
pub trait RenameAxis<A, B>: Shape {
    /// The renamed shape.
    type Output: Shape;
    /// The position of the renamed axis.
    #[doc(hidden)]
    const AT: usize;
}

/// The rule behind [`RenameAxis`], for every shape; the public trait forwards to it rank by rank
/// (see `typed::capability`), so a generic shape without the bound is told to add `RenameAxis`.
#[doc(hidden)]
pub trait RenameAxisRule<A, B>: Shape {
    type Output: Shape;
    const AT: usize;
}
crate::typed::capability::capability!([A, B] RenameAxis<A, B> => RenameAxisRule<A, B> { type Output; const AT: usize; });

/// The verdict of a rename, implemented only for a success.
#[diagnostic::on_unimplemented(
    message = "cannot rename `{A}` of `{S}` to `{B}`",
    label = "`{A}` cannot become `{B}` in `{S}`",
    note = "at fault: `{Self}`",
    note = "`NoSuchAxis<X>`: `X` names no axis of the shape (or `Pos<K>` is past its rank); `RepeatedName<X>`: the new name would name two axes (`X` is the renamed one): rename the other first"
)]
#[doc(hidden)]
pub trait RenameVerdict<S, A, B> {
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<S, A, B, R: FromRev> RenameVerdict<S, A, B> for Good<R> {
    type Out = R::Out;
}

pub(super) type RenamedRev<S, A, B> = <<S as Shape>::Rev as Replace<A, Renamed<B>>>::Out;
pub(super) type RenameChecks<S, A, B> = (
    FoundIn<A, <S as Shape>::Rev>,
    (<RenamedRev<S, A, B> as Distinct>::Out, ()),
);

impl<S: Shape, A: OneAxis, B: Axis> RenameAxisRule<A, B> for S
where
    S::Rev: Replace<A, Renamed<B>> + PositionOf<A>,
    A: Finds<S::Rev>,
    RenamedRev<S, A, B>: Distinct,
    RenameChecks<S, A, B>: Judge<RenamedRev<S, A, B>>,
    Judged<RenameChecks<S, A, B>, RenamedRev<S, A, B>>: RenameVerdict<S, A, B>,
{
    type Output =
        <Judged<RenameChecks<S, A, B>, RenamedRev<S, A, B>> as RenameVerdict<S, A, B>>::Out;
    const AT: usize = <S::Rev as PositionOf<A>>::AT;
}

/// `S` with the axis `A` picks renamed to `B` (rule book §18).
///
/// ```
/// use shapecast::{names, shape, Pos, Rename, Unnamed};
/// names!(C, K);
/// static_assertions::assert_type_eq_all!(Rename<shape![?, C: 3], C, K>, shape![?, K: 3]);
/// static_assertions::assert_type_eq_all!(Rename<shape![?, C: 3], Pos<0>, K>, shape![K, C: 3]);
/// static_assertions::assert_type_eq_all!(Rename<shape![?, C: 3], C, Unnamed>, shape![?, 3]);
/// ```
pub type Rename<S, A, B> = <S as RenameAxis<A, B>>::Output;
