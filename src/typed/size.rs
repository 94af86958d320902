//! Type-level sizes (the twin of [`Size`](crate::Size)): `S<N>` for a static size, [`Dyn`]
//! for `?`; and the size rule of a pair (rule book §0 and §14).
//!
//! ```
//! use shapecast::{AxisSize, Dyn, S};
//! assert_eq!(<S<3> as AxisSize>::SIZE, Some(3));
//! assert_eq!(<Dyn as AxisSize>::SIZE, None);
//! ```

use core::marker::PhantomData;

use typenum::{Const, UInt, UTerm};

use super::bits::{Cond, B0, B1};
use super::size_hex::{SameHex, ToHex};
use crate::values::sealed::Sealed;

/// Every size up to this one is written `S<N>` at the type level, so a compile error prints
/// `S<1080>`. Beyond it the table also holds every multiple of 64 and of 1000 up to 65,536,
/// common vocabulary sizes (50257, 128256 …) and powers of two and ten; any other size carries
/// its binary digits as a second parameter, which `shape!` writes for you and an error prints
/// in full. The bound is what the crate's own `cargo check` affords (coherence compares each
/// entry with every other); `docs/performance.md` (compile time) has the measurement.
///
/// ```
/// assert_eq!(shapecast::typed::size::SIZE_TABLE_MAX, 2048);
/// ```
pub const SIZE_TABLE_MAX: usize = 2048;

/// A static size `N`. The second parameter is an implementation detail: sizes outside the
/// size table ([`SIZE_TABLE_MAX`]) carry their binary digits there, which `shape!` writes for
/// you.
///
/// ```
/// use shapecast::{shape, S};
/// static_assertions::assert_type_eq_all!(shape![3], (S<3>,));
/// ```
///
/// A size may come from a constant, `shape![EMBED: E]` or `shape![EMBED: {2 * E}]`, when its
/// value is in the size table (every size up to 2048, multiples of 64 and of 1000 up to
/// 65,536, powers of two and ten, common vocabulary sizes); a constant outside it is an error
/// when the constant is evaluated, and a literal may be any size:
///
/// ```
/// use shapecast::{names, shape};
/// names!(EMBED, VOCAB);
/// const E: usize = 288;
/// const V: usize = 32000;
/// static_assertions::assert_type_eq_all!(shape![EMBED: E, VOCAB: V], shape![EMBED: 288, VOCAB: 32000]);
/// static_assertions::assert_type_eq_all!(shape![EMBED: {2 * E}], shape![EMBED: 576]);
/// ```
pub struct S<const N: usize, Bits = Table>(PhantomData<Bits>);

/// The size of an axis known only at run time, written `?`.
///
/// ```
/// use shapecast::{shape, Dyn};
/// static_assertions::assert_type_eq_all!(shape![?], (Dyn,));
/// ```
pub struct Dyn;

/// Marker: the binary digits of `S<N>` come from the size table (`typed::sizes`).
#[doc(hidden)]
pub struct Table;

/// A type-level size: [`S<N>`](S) or [`Dyn`].
///
/// ```
/// use shapecast::{AxisSize, S};
/// assert_eq!(<S<1> as AxisSize>::SIZE, Some(1));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is a size outside shapecast's size table",
    label = "write this size in `shape!`, which spells out the digits of a size outside the table",
    note = "the table: every size up to 2048, multiples of 64 and of 1000 up to 65,536, powers of two and ten, common vocabulary sizes"
)]
pub trait AxisSize: Sealed + 'static {
    /// The size, `None` for `?`.
    const SIZE: Option<usize>;
    #[doc(hidden)]
    type Known: Cond;
    #[doc(hidden)]
    type One: Cond;
    #[doc(hidden)]
    type Bits;
    #[doc(hidden)]
    type Zero: Cond;
    /// The size's hex digits (`typed::size_hex`), `()` for `?`: what two sizes are compared by.
    #[doc(hidden)]
    type Hex;
    /// The size's class for counting inline elements: `C{N}` up to `INLINE_MAX`, else `Big`
    /// (`typed::counts`).
    #[doc(hidden)]
    type Small;
}

/// The digits of `N` from the size table.
type TableBits<const N: usize> = <Const<N> as super::sizes::Digits>::Bits;

#[diagnostic::do_not_recommend]
impl<const N: usize> AxisSize for S<N, Table>
where
    Const<N>: super::sizes::Digits,
    TableBits<N>: IsOneBits + IsZeroBits,
{
    const SIZE: Option<usize> = Some(N);
    type Known = B1;
    type One = <TableBits<N> as IsOneBits>::Out;
    type Bits = TableBits<N>;
    type Zero = <TableBits<N> as IsZeroBits>::Out;
    type Hex = <Const<N> as super::sizes::Digits>::Hex;
    type Small = <Const<N> as super::sizes::Digits>::Small;
}

#[diagnostic::do_not_recommend]
impl<const N: usize, Bits: IsOneBits + IsZeroBits + ToHex + 'static> AxisSize for S<N, Bits> {
    const SIZE: Option<usize> = Some(N);
    type Known = B1;
    type One = <Bits as IsOneBits>::Out;
    type Bits = Bits;
    type Zero = <Bits as IsZeroBits>::Out;
    type Hex = <Bits as ToHex>::Out;
    // `shape!` writes the digits only beyond the size table, far above `INLINE_MAX`.
    type Small = super::counts::Big;
}

/// Whether typenum bits are 0, in constant depth.
#[doc(hidden)]
pub trait IsZeroBits {
    type Out: Cond;
}
impl IsZeroBits for UTerm {
    type Out = B1;
}
impl<U, B> IsZeroBits for UInt<U, B> {
    type Out = B0;
}

/// Whether typenum bits are 1, in constant depth.
#[doc(hidden)]
pub trait IsOneBits {
    type Out: Cond;
}
impl IsOneBits for UTerm {
    type Out = B0;
}
impl IsOneBits for UInt<UTerm, B1> {
    type Out = B1;
}
impl<U, B> IsOneBits for UInt<UInt<U, B>, B1> {
    type Out = B0;
}
impl<U> IsOneBits for UInt<U, B0> {
    type Out = B0;
}

/// Equality of two computed sizes' typenum bits in constant depth: each is read as hex digits
/// in one step (`typed::size_hex`, one impl per bit length) and the digits are compared side
/// by side. (Static sizes themselves carry their hex digits, [`AxisSize`]'s `Hex`.)
#[doc(hidden)]
pub trait SameSize<R> {
    type Out: Cond;
}
impl<L: ToHex, R: ToHex> SameSize<R> for L
where
    L::Out: SameHex<R::Out>,
{
    type Out = <L::Out as SameHex<R::Out>>::Out;
}

/// Whether two sizes are equal, read from the hex digits each size carries (no conversion from
/// typenum digits); true when either is `?`, which only run time can check.
#[doc(hidden)]
pub trait SameOrDyn<Y> {
    type Out: Cond;
}
impl<X: AxisSize, Y: AxisSize> SameOrDyn<Y> for X
where
    (X::Known, Y::Known): BothKnownSame<X::Hex, Y::Hex>,
{
    type Out = <(X::Known, Y::Known) as BothKnownSame<X::Hex, Y::Hex>>::Out;
}

/// [`SameOrDyn`] by which sides are static (`Self` is their `Known` flags), on their hex
/// digits `A` and `B`.
#[doc(hidden)]
pub trait BothKnownSame<A, B> {
    type Out: Cond;
}
impl<A: SameHex<B>, B> BothKnownSame<A, B> for (B1, B1) {
    type Out = A::Out;
}
impl<A, B> BothKnownSame<A, B> for (B1, B0) {
    type Out = B1;
}
impl<A, B> BothKnownSame<A, B> for (B0, B1) {
    type Out = B1;
}
impl<A, B> BothKnownSame<A, B> for (B0, B0) {
    type Out = B1;
}

impl<const N: usize, B> Sealed for S<N, B> {}
impl Sealed for Dyn {}

#[diagnostic::do_not_recommend]
impl AxisSize for Dyn {
    const SIZE: Option<usize> = None;
    type Known = B0;
    type One = B0;
    type Bits = ();
    type Zero = B0;
    type Hex = ();
    type Small = super::counts::Big;
}

/// The sizes of a pair clash (neither equal nor 1).
#[doc(hidden)]
pub struct Clash;

/// How a rule treats a pair: the twins of the run-time `SizePolicy` and `NamePolicy` of
/// `dynamic::plan`, under the same names. At the type level a policy decides both the size
/// and the name of the output axis:
///
/// | policy | sizes (run-time `SizePolicy`) | names (run-time `NamePolicy`) | rules |
/// |---|---|---|---|
/// | [`Broadcast`](policy::Broadcast) | `Broadcast`: equal, or one is 1 | `Merge`: either name, never two | numpy, named, outer, embed, bidirectional |
/// | [`StaticOnly`](policy::StaticOnly) | `StaticOnly`: as `Broadcast`, only a static 1 stretches | `Merge` | static |
/// | [`Exact`](policy::Exact) | `Exact`: equal sizes | `Identical`: absence included | strict, compare |
/// | [`IntoLhs`](policy::IntoLhs) | `IntoLhs`: the right is 1 or the left's size | `Lhs`: the left's name stays | pdpd |
/// | [`Destination`](policy::Destination) | `IntoLhs` | `Destination`: as `Lhs`, and a right name the left lacks is refused (rule book §10) | assign |
pub mod policy {
    /// Equal, or one is 1; the output takes either name (NumPy, named, outer, embed,
    /// bidirectional).
    pub struct Broadcast;
    /// The static rule's policy. Its output types are [`Broadcast`]'s (rule book §14: a `?` meeting
    /// a static n gives n either way); what differs is the run-time check, which demands
    /// equality, and which `Rule::Static`'s size policy supplies.
    pub type StaticOnly = Broadcast;
    /// Equal sizes and identical names only (strict, compare).
    pub struct Exact;
    /// The right must be 1 or equal the left; the output is the left's axis (pdpd).
    pub struct IntoLhs;
    /// [`IntoLhs`]'s sizes; a name of the right must be the left's, since the output is the
    /// left and a name it lacks would be lost (assign, rule book §10).
    pub struct Destination;
}
use policy::{Broadcast, Destination, Exact, IntoLhs};

/// The size of a pair under policy `Pol`: a size type, or [`Clash`]. rule book §0 and §14.
#[doc(hidden)]
pub trait SizePair<R, Pol> {
    type Out;
}

impl<L: AxisSize, R: AxisSize, Pol> SizePair<R, Pol> for L
where
    (L::Known, R::Known): SizeCase<L, R, Pol>,
{
    type Out = <(L::Known, R::Known) as SizeCase<L, R, Pol>>::Out;
}

/// [`SizePair`] by which sides are static.
#[doc(hidden)]
pub trait SizeCase<L, R, Pol> {
    type Out;
}

/// Whether two static sizes are equal: their hex digits compared side by side, in constant
/// depth (`typed::size_hex`).
type Same<L, R> = <<L as AxisSize>::Hex as SameHex<<R as AxisSize>::Hex>>::Out;

/// [`SizeCase`] for each policy, a row: the size when both sides are static, when only the
/// right is (`?` with n), when only the left is (n with `?`), and when neither is. A `?` met
/// by a static size is checked at run time.
macro_rules! size_cases {
    ($($policy:ty: both $both:ty, right $right:ty, left $left:ty, neither $neither:ty;)*) => {$(
        impl<L: AxisSize, R: AxisSize> SizeCase<L, R, $policy> for (B1, B1)
        where
            L::Hex: SameHex<R::Hex>,
        {
            type Out = $both;
        }
        impl<L: AxisSize, R: AxisSize> SizeCase<L, R, $policy> for (B0, B1) {
            type Out = $right;
        }
        impl<L: AxisSize, R: AxisSize> SizeCase<L, R, $policy> for (B1, B0) {
            type Out = $left;
        }
        impl<L: AxisSize, R: AxisSize> SizeCase<L, R, $policy> for (B0, B0) {
            type Out = $neither;
        }
    )*};
}

size_cases! {
    // Broadcasting: 1 stretches, equal sizes stay, anything else clashes; against `?`, the
    // static size (or `?` when that size is 1).
    Broadcast: both <L::One as Cond>::If<R, <R::One as Cond>::If<L, <Same<L, R> as Cond>::If<L, Clash>>>,
        right <R::One as Cond>::If<L, R>, left <L::One as Cond>::If<R, L>, neither L;
    // Exact: equal or clash; against `?`, the static size.
    Exact: both <Same<L, R> as Cond>::If<L, Clash>, right R, left L, neither L;
    // Into the left: the right is 1 or equal to the left, which stays (also against `?`).
    IntoLhs: both <Same<L, R> as Cond>::If<L, <R::One as Cond>::If<L, Clash>>,
        right L, left L, neither L;
}

/// The destination's sizes are [`IntoLhs`]'s.
impl<L, R, K: SizeCase<L, R, IntoLhs>> SizeCase<L, R, Destination> for K {
    type Out = K::Out;
}

/// Whether a pair's size is a clash.
#[doc(hidden)]
pub trait IsClash {
    type Out: Cond;
}

impl<const N: usize, B> IsClash for S<N, B> {
    type Out = B0;
}
impl IsClash for Dyn {
    type Out = B0;
}
impl IsClash for Clash {
    type Out = B1;
}

#[cfg(test)]
mod tests {
    use super::*;
    use typenum::Unsigned;

    /// A size's digits read back as the size, and its inline-count class.
    macro_rules! digits_are {
        ($($n:literal),*) => {$(
            assert_eq!(<<S<$n> as AxisSize>::Bits as Unsigned>::U64, $n);
            assert_eq!(<S<$n> as AxisSize>::SIZE, Some($n));
        )*};
    }

    #[test]
    fn the_size_table_spells_each_size() {
        digits_are!(0, 1, 2, 3, 7, 63, 64, 65, 100, 1023, 1024, 1080, 2047, 2048);
        digits_are!(4096, 65535, 65536, 1000000);
        // Beyond the table: multiples of 64 and of 1000 up to 65,536, vocabulary sizes.
        digits_are!(2112, 3072, 11008, 32000, 50257, 65472, 128256, 256000);
        static_assertions::assert_type_eq_all!(<S<0> as AxisSize>::Small, super::super::counts::C0);
        static_assertions::assert_type_eq_all!(
            <S<64> as AxisSize>::Small,
            super::super::counts::C64
        );
        static_assertions::assert_type_eq_all!(
            <S<65> as AxisSize>::Small,
            super::super::counts::Big
        );
        static_assertions::assert_type_eq_all!(<S<0> as AxisSize>::Zero, B1);
        static_assertions::assert_type_eq_all!(<S<1> as AxisSize>::One, B1);
        static_assertions::assert_type_eq_all!(<S<2048> as AxisSize>::Zero, B0);
    }

    /// Two sizes' equality is their values' equality, static sizes (hex digits from the table)
    /// and computed ones (typenum digits read as hex) alike, across digit counts.
    #[test]
    fn sizes_compare_by_value_at_any_length() {
        macro_rules! same {
            ($a:literal, $b:literal) => {{
                let table = <Same<S<$a>, S<$b>> as Cond>::VALUE;
                type Bits<X> = <X as AxisSize>::Bits;
                let computed = <<Bits<S<$a>> as SameSize<Bits<S<$b>>>>::Out as Cond>::VALUE;
                assert_eq!(table, $a == $b, "table {} {}", $a, $b);
                assert_eq!(computed, $a == $b, "computed {} {}", $a, $b);
            }};
        }
        macro_rules! all_pairs {
            ($($a:literal),*) => { all_pairs!(@outer [$($a),*] $($a),*); };
            (@outer $all:tt $($a:literal),*) => { $( all_pairs!(@inner $a $all); )* };
            (@inner $a:literal [$($b:literal),*]) => { $( same!($a, $b); )* };
        }
        all_pairs!(
            0, 1, 2, 15, 16, 17, 255, 256, 257, 768, 2048, 3072, 4096, 11008, 32000, 50257, 65536,
            1048576
        );
    }

    /// The table's hex digits are its typenum digits read as hex, for sizes of every length.
    #[test]
    fn the_table_hex_digits_match_its_bits() {
        macro_rules! hex_matches {
            ($($n:literal),*) => {$(
                static_assertions::assert_type_eq_all!(
                    <S<$n> as AxisSize>::Hex,
                    <<S<$n> as AxisSize>::Bits as ToHex>::Out
                );
            )*};
        }
        hex_matches!(
            0, 1, 9, 15, 16, 100, 255, 256, 1080, 2047, 2048, 3072, 4096, 11008, 50257, 128256,
            256000, 1000000
        );
    }
}
