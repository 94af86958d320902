//! Split one axis into several (rule book §18).

use super::*;

/// `Self` with the axis `A` picks split into the axes `P` (a tuple such as
/// `(PH<S<8>>, H4<S<4>>)`, row-major: the last part varies fastest). When the axis and every
/// part are static, the parts' product must equal the axis' size at compile time; otherwise
/// it is checked at run time.
///
/// ```
/// use shapecast::{names, shape, Shape, SplitAxisInto, S};
/// names!(H, PH, H4);
/// type P = (PH<S<8>>, H4<S<4>>);
/// assert_eq!(<shape![?, H: 32] as SplitAxisInto<H, P>>::Output::to_dyn().to_string(), "[?, PH: 8, H4: 4]");
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot split `{A}` of `{Self}` into `{P}`",
    label = "`{A}` of `{Self}` cannot become `{P}`",
    note = "`{A}` must pick one axis; the parts' static sizes must multiply to its size, and their names must not repeat the shape's others"
)]
pub trait SplitAxisInto<A, P>: Shape {
    /// The split shape.
    type Output: Shape;
    /// The position of the split axis.
    #[doc(hidden)]
    const AT: usize;
}

/// The rule behind [`SplitAxisInto`], for every shape; the public trait forwards to it rank by rank
/// (see `typed::capability`), so a generic shape without the bound is told to add `SplitAxisInto`.
#[doc(hidden)]
pub trait SplitAxisIntoRule<A, P>: Shape {
    type Output: Shape;
    const AT: usize;
}
crate::typed::capability::capability!([A, P] SplitAxisInto<A, P> => SplitAxisIntoRule<A, P> { type Output; const AT: usize; });

/// The verdict of a split or a merge, implemented only for a success.
#[diagnostic::on_unimplemented(
    message = "cannot reshape `{S}` by `{A}`",
    label = "`{A}` does not reshape `{S}`",
    note = "at fault: `{Self}`",
    note = "`NoSuchAxis<X>`: `X` names no axis of the shape; `WrongSize<X>`: the static sizes' product differs from `X`'s size; `NotAdjacent<X, Y>`: `Y` is not the axis right after `X`; `RepeatedName<X>`: a new name already names `X`"
)]
#[doc(hidden)]
pub trait ReshapeVerdict<S, A> {
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<S, A, R: FromRev> ReshapeVerdict<S, A> for Good<R> {
    type Out = R::Out;
}

pub(super) type PartsRev<P> = <<P as Shape>::Rev as Untag>::Out;
pub(super) type SplitRev<S, A, P> = Replaced<S, A, Parts<PartsRev<P>>>;
pub(super) type WholeOf<S, A> = <<S as Shape>::Rev as PickedSize<A>>::Out;
pub(super) type SplitFits<S, A, P> = Check<
    Fits<
        KnownOf<WholeOf<S, A>>,
        BitsOf<WholeOf<S, A>>,
        <PartsRev<P> as Product>::Known,
        <PartsRev<P> as Product>::Bits,
    >,
    WrongSize<P>,
>;
pub(super) type SplitChecks<S, A, P> = (
    FoundIn<A, <S as Shape>::Rev>,
    (
        SplitFits<S, A, P>,
        (<SplitRev<S, A, P> as Distinct>::Out, ()),
    ),
);

impl<S: Shape, A: OneAxis, P: Shape> SplitAxisIntoRule<A, P> for S
where
    P::Rev: Untag,
    PartsRev<P>: Product,
    S::Rev: Replace<A, Parts<PartsRev<P>>> + PositionOf<A> + PickedSize<A>,
    WholeOf<S, A>: AxisSize,
    A: Finds<S::Rev>,
    BitsOf<WholeOf<S, A>>: SameSizeBits<<PartsRev<P> as Product>::Bits>,
    SplitRev<S, A, P>: Distinct,
    SplitChecks<S, A, P>: Judge<SplitRev<S, A, P>>,
    Judged<SplitChecks<S, A, P>, SplitRev<S, A, P>>: ReshapeVerdict<S, A>,
{
    type Output = <Judged<SplitChecks<S, A, P>, SplitRev<S, A, P>> as ReshapeVerdict<S, A>>::Out;
    const AT: usize = <S::Rev as PositionOf<A>>::AT;
}

/// `S` with the axis `A` picks split into the axes `P` (rule book §18).
///
/// ```
/// use shapecast::{names, shape, Dyn, SplitAxis, S};
/// names!(HW, H, W);
/// static_assertions::assert_type_eq_all!(SplitAxis<shape![?, HW: 12], HW, (H<S<3>>, W<S<4>>)>, shape![?, H: 3, W: 4]);
/// // A `?` part is found at run time.
/// static_assertions::assert_type_eq_all!(SplitAxis<shape![?, HW: 12], HW, (H<S<3>>, W)>, shape![?, H: 3, W]);
/// ```
pub type SplitAxis<S, A, P> = <S as SplitAxisInto<A, P>>::Output;
