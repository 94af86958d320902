//! One pair of axes (SPEC §2 step 4): the broadcast size and the name of either side, or the
//! error that names both axes (a name conflict before a size conflict, as at run time). The twin of `combine` in `dynamic::plan`.

use super::axis::Axis;
use super::bits::{Cond, Not};
use super::list::{At, Bad, Ins, Ix, No, P};
use super::name::{Anon, NameId, Named, SameBits};
use super::size::{IsClash, SizePair};
use super::verdict::{LhsAxis, NamesDiffer, RhsAxis, SizesDiffer};

/// The output element of a pair: `P<left source, right source, axis>` or `Bad<error>`.
pub trait Pair<R> {
    /// The element.
    type Out;
}

impl<const I: usize, X: Axis> Pair<Ins> for At<I, X> {
    type Out = P<Ix<I>, No, X>;
}

impl<const J: usize, Y: Axis> Pair<At<J, Y>> for Ins {
    type Out = P<No, Ix<J>, Y>;
}

type PairSize<X, Y> = <<X as Axis>::Size as SizePair<<Y as Axis>::Size>>::Out;

impl<const I: usize, X: Axis, const J: usize, Y: Axis> Pair<At<J, Y>> for At<I, X>
where
    X::Size: SizePair<Y::Size>,
    PairSize<X, Y>: IsClash,
    (X::Name, Y::Name): NamePick<X, Y, PairSize<X, Y>>,
{
    type Out = <<(X::Name, Y::Name) as NamePick<X, Y, PairSize<X, Y>>>::Conflict as Cond>::If<
        Bad<NamesDiffer<LhsAxis<I, X>, RhsAxis<J, Y>>>,
        <<PairSize<X, Y> as IsClash>::Out as Cond>::If<
            Bad<SizesDiffer<LhsAxis<I, X>, RhsAxis<J, Y>>>,
            P<Ix<I>, Ix<J>, <(X::Name, Y::Name) as NamePick<X, Y, PairSize<X, Y>>>::Axis>,
        >,
    >;
}

/// The output axis of a pair of size `Sz`, by the two names: either name, never two.
pub trait NamePick<X, Y, Sz> {
    /// Whether the names conflict.
    type Conflict: Cond;
    /// The output axis.
    type Axis;
}

impl<X, Y, Sz> NamePick<X, Y, Sz> for (Anon, Anon) {
    type Conflict = super::bits::B0;
    type Axis = Sz;
}

impl<X: Axis, Y, Sz, N> NamePick<X, Y, Sz> for (Named<N>, Anon) {
    type Conflict = super::bits::B0;
    type Axis = X::Resize<Sz>;
}

impl<X, Y: Axis, Sz, M> NamePick<X, Y, Sz> for (Anon, Named<M>) {
    type Conflict = super::bits::B0;
    type Axis = Y::Resize<Sz>;
}

impl<X: Axis, Y, Sz, N: NameId, M: NameId> NamePick<X, Y, Sz> for (Named<N>, Named<M>)
where
    N::Bits: SameBits<M::Bits>,
{
    type Conflict = Not<<N::Bits as SameBits<M::Bits>>::Out>;
    type Axis = X::Resize<Sz>;
}
