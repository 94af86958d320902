//! Type-level axes (the twin of [`DynAxis`](crate::DynAxis)): an unnamed size (`S<N>`,
//! [`Dyn`]) or a name type declared by [`names!`](crate::names) (`H` or `H<S<256>>`).

use super::name::{Anon, NameKind};
use super::size::{AxisSize, Dyn, S};
use crate::values::sealed::Sealed;

/// The hex digits of an axis' size (`()` for `?`): what sums, windows and comparisons of
/// sizes compute on.
pub(super) type HexOf<X> = <<X as Axis>::Size as AxisSize>::Hex;

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
pub trait Axis: Sealed + 'static {
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
