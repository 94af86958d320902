//! Type-level axes (the twin of [`DynAxis`](crate::DynAxis)): an unnamed size (`S<N>`,
//! [`Dyn`]) or a name type declared by [`names!`](crate::names) (`H` or `H<S<256>>`).

use super::name::{Anon, NameKind};
use super::size::{AxisSize, Dyn, S};
use crate::sealed::Sealed;

/// An axis at the type level: its size, its name, and the same axis with another size.
///
/// Implemented by `S<N>`, [`Dyn`] and every name declared with [`names!`](crate::names).
///
/// ```
/// use shapecast::{names, Axis, S};
/// names!(H);
/// assert_eq!(<H<S<256>> as Axis>::NAME, Some("H"));
/// assert_eq!(<S<3> as Axis>::NAME, None);
/// ```
pub trait Axis: Sealed {
    /// The size type.
    type Size: AxisSize;
    #[doc(hidden)]
    type Name: NameKind;
    #[doc(hidden)]
    type Resize<T>;
    /// The name, if any.
    const NAME: Option<&'static str>;
}

impl<const N: usize, B> Axis for S<N, B>
where
    S<N, B>: AxisSize,
{
    type Size = Self;
    type Name = Anon;
    type Resize<T> = T;
    const NAME: Option<&'static str> = None;
}

impl Axis for Dyn {
    type Size = Self;
    type Name = Anon;
    type Resize<T> = T;
    const NAME: Option<&'static str> = None;
}

/// `Self` has the axis `A` picks: a name (`CHANNEL`) or a position ([`Pos<K>`](crate::Pos)),
/// and [`AT`](HasAxis::AT) is where it stands. The bound of
/// [`Tensor::size`](crate::Tensor::size) and of a named index's
/// [`at`](crate::Index::at); a constraint to write in a generic function's `where` clause.
///
/// ```
/// use shapecast::{names, shape, HasAxis, Pos};
/// names!(BATCH, CHANNEL);
/// assert_eq!(<shape![BATCH, CHANNEL: 3, 4] as HasAxis<CHANNEL>>::AT, 1);
/// assert_eq!(<shape![BATCH, CHANNEL: 3, 4] as HasAxis<Pos<2>>>::AT, 2);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no axis `{A}`",
    label = "no axis `{A}` in `{Self}`",
    note = "an axis is picked by its name, or by `Pos<K>` below the rank"
)]
pub trait HasAxis<A>: crate::Shape {
    /// The axis' position.
    const AT: usize;
}

#[diagnostic::do_not_recommend]
impl<S: crate::SelectAxis<A>, A> HasAxis<A> for S {
    const AT: usize = <S as crate::SelectAxis<A>>::AT;
}
