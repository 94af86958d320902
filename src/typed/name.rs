//! Type-level names (the twin of [`Name`](crate::Name)): an axis is unnamed ([`Anon`]) or
//! named ([`Named<H>`](Named), where `H` is the name type `names!` declared). Each name type
//! carries the 64-bit FNV-1a hash of its name as sixteen hex digits ([`NameId`]), so that names
//! declared in different modules or crates compare as strings. The digits are only read when
//! two names are compared (a small type travels through the rules), and equality compares all
//! sixteen side by side, in constant depth.

use core::marker::PhantomData;

use super::bits::{Cond, B0, B1};

/// No name.
#[doc(hidden)]
pub struct Anon;

/// The name of a named axis: the name type declared by `names!`.
#[doc(hidden)]
pub struct Named<N>(PhantomData<N>);

/// A name type's identity: the hash of its name as a cons list of bits.
#[doc(hidden)]
pub trait NameId {
    type Bits;
}

/// Anon or named.
#[doc(hidden)]
pub trait NameKind {
    type IsNamed: Cond;
}

impl NameKind for Anon {
    type IsNamed = B0;
}

impl<N> NameKind for Named<N> {
    type IsNamed = B1;
}

/// Equality of two hashes written as hex digits, `Id<X3, X10, ...>`: all sixteen digits are
/// compared side by side (`typed::digits`), so the answer is a constant number of trait steps
/// deep.
#[doc(hidden)]
pub trait SameBits<R> {
    type Out: Cond;
}

pub use super::digits::*;

/// Whether two names are the same name (two unnamed axes are not "the same name").
#[doc(hidden)]
pub trait SameName<R> {
    type Out: Cond;
}

impl SameName<Anon> for Anon {
    type Out = B0;
}
impl<M> SameName<Named<M>> for Anon {
    type Out = B0;
}
impl<N> SameName<Anon> for Named<N> {
    type Out = B0;
}
impl<N: NameId, M: NameId> SameName<Named<M>> for Named<N>
where
    N::Bits: SameBits<M::Bits>,
{
    type Out = <N::Bits as SameBits<M::Bits>>::Out;
}
