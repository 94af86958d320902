//! Sizes as typenum numbers, for the checks: products, sums and comparisons of static sizes, and
//! the static size a computation gives back.

use super::*;

/// `Acc` times this size's bits (`Acc` itself for `?`).
#[doc(hidden)]
pub trait TimesBits<Acc> {
    type Out;
}
impl<const N: usize, B, Acc> TimesBits<Acc> for S<N, B>
where
    S<N, B>: AxisSize,
    <S<N, B> as AxisSize>::Bits: Mul<Acc>,
{
    type Out = Prod<<S<N, B> as AxisSize>::Bits, Acc>;
}
impl<Acc> TimesBits<Acc> for Dyn {
    type Out = Acc;
}

/// Whether two sizes' bits are equal; true when either is `?` (bits `()`).
#[doc(hidden)]
pub trait SameSizeBits<P> {
    type Out: Cond;
}
impl<P> SameSizeBits<P> for () {
    type Out = B1;
}
impl SameSizeBits<()> for UTerm {
    type Out = B1;
}
impl<V, B> SameSizeBits<()> for UInt<V, B> {
    type Out = B1;
}
impl<P> SameSizeBits<P> for UTerm
where
    UTerm: SameSize<P>,
{
    type Out = <UTerm as SameSize<P>>::Out;
}
impl<V, B, P> SameSizeBits<P> for UInt<V, B>
where
    UInt<V, B>: SameSize<P>,
{
    type Out = <UInt<V, B> as SameSize<P>>::Out;
}

/// Whether this size's bits are at most `P`'s; true when either is `?` (bits `()`).
#[doc(hidden)]
pub trait AtMostBits<P> {
    type Out: Cond;
}
impl<P> AtMostBits<P> for () {
    type Out = B1;
}
impl AtMostBits<()> for UTerm {
    type Out = B1;
}
impl<V, B> AtMostBits<()> for UInt<V, B> {
    type Out = B1;
}
impl AtMostBits<UTerm> for UTerm {
    type Out = B1;
}
impl<V, B> AtMostBits<UInt<V, B>> for UTerm {
    type Out = B1;
}
impl<V, B> AtMostBits<UTerm> for UInt<V, B> {
    type Out = B0;
}
impl<V, B, V2, B2> AtMostBits<UInt<V2, B2>> for UInt<V, B>
where
    UInt<V, B>: IsLessOrEqual<UInt<V2, B2>>,
    <UInt<V, B> as IsLessOrEqual<UInt<V2, B2>>>::Output: Cond,
{
    type Out = <UInt<V, B> as IsLessOrEqual<UInt<V2, B2>>>::Output;
}

/// The bits of a size (`()` for `?`).
pub(super) type BitsOf<Z> = <Z as AxisSize>::Bits;
/// Whether a size is static.
pub(super) type KnownOf<Z> = <Z as AxisSize>::Known;

/// The size a computation gives (a concatenation's sum, a merge's product): `S<N>` from the
/// digits `Bits` when `Self` says they are known (`B1`) and `N` is in the size table (up to
/// `SIZE_TABLE_MAX`), else `?`, which the run-time sizes then carry.
#[doc(hidden)]
pub trait StaticOr<Bits> {
    type Size: AxisSize;
}
impl<Bits> StaticOr<Bits> for B0 {
    type Size = Dyn;
}
impl<Bits> StaticOr<Bits> for B1
where
    Bits: AtMostBits<TableMax>,
    <Bits as AtMostBits<TableMax>>::Out: InTable<Bits>,
{
    type Size = <<Bits as AtMostBits<TableMax>>::Out as InTable<Bits>>::Size;
}
/// `SIZE_TABLE_MAX` as typenum digits.
pub(super) type TableMax = typenum::U2048;
const _: () = assert!(<TableMax as typenum::Unsigned>::USIZE == SIZE_TABLE_MAX);

/// `S<N>` for digits in the size table (`Self` = `B1`), else `?`.
#[doc(hidden)]
pub trait InTable<Bits> {
    type Size: AxisSize;
}
impl<Bits: SizeOfDigits> InTable<Bits> for B1
where
    Bits::Size: AxisSize,
{
    type Size = Bits::Size;
}
impl<Bits> InTable<Bits> for B0 {
    type Size = Dyn;
}
