//! Type-level names (the twin of [`Name`](crate::Name)): an axis is unnamed ([`Anon`]) or
//! carries the 64-bit FNV-1a hash of its name as a list of bits ([`Id`]), so that names
//! declared in different modules or crates compare as strings. Equality walks the bits and
//! stops at the first difference.

use core::marker::PhantomData;

use super::bits::{Cond, B0, B1};

/// No name.
#[doc(hidden)]
pub struct Anon;

/// A name's identity: its hash as a cons list of bits.
#[doc(hidden)]
pub struct Id<Bits>(PhantomData<Bits>);

/// Anon or named.
#[doc(hidden)]
pub trait NameKind {
    type IsNamed: Cond;
}

impl NameKind for Anon {
    type IsNamed = B0;
}

impl<Bits> NameKind for Id<Bits> {
    type IsNamed = B1;
}

/// Equality of two bit lists, short-circuiting at the first difference.
#[doc(hidden)]
pub trait SameBits<R> {
    type Out: Cond;
}

impl SameBits<()> for () {
    type Out = B1;
}
impl<X: SameBits<Y>, Y> SameBits<(B0, Y)> for (B0, X) {
    type Out = X::Out;
}
impl<X: SameBits<Y>, Y> SameBits<(B1, Y)> for (B1, X) {
    type Out = X::Out;
}
impl<X, Y> SameBits<(B1, Y)> for (B0, X) {
    type Out = B0;
}
impl<X, Y> SameBits<(B0, Y)> for (B1, X) {
    type Out = B0;
}

/// Whether two names are the same name (two unnamed axes are not "the same name").
#[doc(hidden)]
pub trait SameName<R> {
    type Out: Cond;
}

impl SameName<Anon> for Anon {
    type Out = B0;
}
impl<B> SameName<Id<B>> for Anon {
    type Out = B0;
}
impl<B> SameName<Anon> for Id<B> {
    type Out = B0;
}
impl<X: SameBits<Y>, Y> SameName<Id<Y>> for Id<X> {
    type Out = X::Out;
}
