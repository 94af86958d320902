//! One pair of axes (rule book §2 step 4): the broadcast size and the name of either side, or
//! the error that names both axes (a name conflict before a size conflict, as at run time).
//! The twin of `dynamic::pair`.

use super::axis::Axis;
use super::bits::{Cond, Not, B0, B1};
use super::list::{At, Ins, Ix, No, P};
use super::name::{Anon, NameId, Named, SameBits};
use super::outcome::Refused;
use super::size::policy::{Broadcast, Destination, Exact, IntoLhs};
use super::size::{IsClash, SizePair};
use crate::typed::refusals::{LhsAxis, NamesDiffer, RhsAxis, SizesDiffer};

/// The output element of a pair under policy `Pol`: `P<left source, right source, axis>`
/// or `Refused<error>`.
pub trait Pair<R, Pol> {
    /// The element.
    type Out;
}

impl<const I: usize, X: Axis, Pol> Pair<Ins, Pol> for At<I, X> {
    type Out = P<Ix<I>, No, X>;
}

impl<const J: usize, Y: Axis, Pol> Pair<At<J, Y>, Pol> for Ins {
    type Out = P<No, Ix<J>, Y>;
}

type PairSize<X, Y, Pol> = <<X as Axis>::Size as SizePair<<Y as Axis>::Size, Pol>>::Out;
type Names<X, Y, Pol> = (Pol, <X as Axis>::Name, <Y as Axis>::Name);

impl<const I: usize, X: Axis, const J: usize, Y: Axis, Pol> Pair<At<J, Y>, Pol> for At<I, X>
where
    X::Size: SizePair<Y::Size, Pol>,
    PairSize<X, Y, Pol>: IsClash,
    Names<X, Y, Pol>: NamePick<X, Y, PairSize<X, Y, Pol>>,
{
    type Out = <<Names<X, Y, Pol> as NamePick<X, Y, PairSize<X, Y, Pol>>>::Conflict as Cond>::If<
        Refused<NamesDiffer<LhsAxis<I, X>, RhsAxis<J, Y>>>,
        <<PairSize<X, Y, Pol> as IsClash>::Out as Cond>::If<
            Refused<SizesDiffer<LhsAxis<I, X>, RhsAxis<J, Y>>>,
            P<Ix<I>, Ix<J>, <Names<X, Y, Pol> as NamePick<X, Y, PairSize<X, Y, Pol>>>::Axis>,
        >,
    >;
}

/// The output axis of a pair of size `Sz`, by the policy and the two names. `Self` is
/// `(policy, left name, right name)`.
pub trait NamePick<X, Y, Sz> {
    /// Whether the names conflict.
    type Conflict: Cond;
    /// The output axis.
    type Axis;
}

type SameNames<N, M> = <<N as NameId>::Bits as SameBits<<M as NameId>::Bits>>::Out;

// Broadcasting: either name, never two.
impl<X, Y, Sz> NamePick<X, Y, Sz> for (Broadcast, Anon, Anon) {
    type Conflict = B0;
    type Axis = Sz;
}
impl<X: Axis, Y, Sz, N> NamePick<X, Y, Sz> for (Broadcast, Named<N>, Anon) {
    type Conflict = B0;
    type Axis = X::Resize<Sz>;
}
impl<X, Y: Axis, Sz, M> NamePick<X, Y, Sz> for (Broadcast, Anon, Named<M>) {
    type Conflict = B0;
    type Axis = Y::Resize<Sz>;
}
impl<X: Axis, Y, Sz, N: NameId, M: NameId> NamePick<X, Y, Sz> for (Broadcast, Named<N>, Named<M>)
where
    N::Bits: SameBits<M::Bits>,
{
    type Conflict = Not<SameNames<N, M>>;
    type Axis = X::Resize<Sz>;
}

// Exact: identical names, absence included.
impl<X, Y, Sz> NamePick<X, Y, Sz> for (Exact, Anon, Anon) {
    type Conflict = B0;
    type Axis = Sz;
}
impl<X: Axis, Y, Sz, N> NamePick<X, Y, Sz> for (Exact, Named<N>, Anon) {
    type Conflict = B1;
    type Axis = X::Resize<Sz>;
}
impl<X, Y: Axis, Sz, M> NamePick<X, Y, Sz> for (Exact, Anon, Named<M>) {
    type Conflict = B1;
    type Axis = Sz;
}
impl<X: Axis, Y, Sz, N: NameId, M: NameId> NamePick<X, Y, Sz> for (Exact, Named<N>, Named<M>)
where
    N::Bits: SameBits<M::Bits>,
{
    type Conflict = Not<SameNames<N, M>>;
    type Axis = X::Resize<Sz>;
}

// Into the left: two different names conflict; the left's name (or none) stays.
impl<X, Y, Sz> NamePick<X, Y, Sz> for (IntoLhs, Anon, Anon) {
    type Conflict = B0;
    type Axis = Sz;
}
impl<X: Axis, Y, Sz, N> NamePick<X, Y, Sz> for (IntoLhs, Named<N>, Anon) {
    type Conflict = B0;
    type Axis = X::Resize<Sz>;
}
impl<X, Y, Sz, M> NamePick<X, Y, Sz> for (IntoLhs, Anon, Named<M>) {
    type Conflict = B0;
    type Axis = Sz;
}
impl<X: Axis, Y, Sz, N: NameId, M: NameId> NamePick<X, Y, Sz> for (IntoLhs, Named<N>, Named<M>)
where
    N::Bits: SameBits<M::Bits>,
{
    type Conflict = Not<SameNames<N, M>>;
    type Axis = X::Resize<Sz>;
}

// Into a destination (assign): as `IntoLhs`, and a right name facing an unnamed left axis
// conflicts, since the output is the left's shape and the name would be lost (rule book §10).
impl<X, Y, Sz> NamePick<X, Y, Sz> for (Destination, Anon, Anon) {
    type Conflict = B0;
    type Axis = Sz;
}
impl<X: Axis, Y, Sz, N> NamePick<X, Y, Sz> for (Destination, Named<N>, Anon) {
    type Conflict = B0;
    type Axis = X::Resize<Sz>;
}
impl<X, Y, Sz, M> NamePick<X, Y, Sz> for (Destination, Anon, Named<M>) {
    type Conflict = B1;
    type Axis = Sz;
}
impl<X: Axis, Y, Sz, N: NameId, M: NameId> NamePick<X, Y, Sz> for (Destination, Named<N>, Named<M>)
where
    N::Bits: SameBits<M::Bits>,
{
    type Conflict = Not<SameNames<N, M>>;
    type Axis = X::Resize<Sz>;
}
