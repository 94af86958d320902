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

/// The four name cases of each policy. No name on either side gives none, and two names
/// conflict unless they are the same, whatever the policy; a name facing no name conflicts
/// as the policy's row says (`named_anon`: the left named; `anon_named`: the right), and a
/// right name facing none reaches the output only where the row says `kept`.
macro_rules! name_picks {
    ($($policy:ty: named_anon $na:ty, anon_named $an:ty, right name $right:ident;)*) => {$(
        impl<X, Y, Sz> NamePick<X, Y, Sz> for ($policy, Anon, Anon) {
            type Conflict = B0;
            type Axis = Sz;
        }
        impl<X: Axis, Y, Sz, N> NamePick<X, Y, Sz> for ($policy, Named<N>, Anon) {
            type Conflict = $na;
            type Axis = X::Resize<Sz>;
        }
        impl<X, Y: Axis, Sz, M> NamePick<X, Y, Sz> for ($policy, Anon, Named<M>) {
            type Conflict = $an;
            type Axis = name_picks!(@right $right, Y, Sz);
        }
        impl<X: Axis, Y, Sz, N: NameId, M: NameId> NamePick<X, Y, Sz>
            for ($policy, Named<N>, Named<M>)
        where
            N::Bits: SameBits<M::Bits>,
        {
            type Conflict = Not<SameNames<N, M>>;
            type Axis = X::Resize<Sz>;
        }
    )*};
    (@right kept, $Y:ident, $Sz:ident) => { <$Y as Axis>::Resize<$Sz> };
    (@right dropped, $Y:ident, $Sz:ident) => { $Sz };
}

name_picks! {
    // Broadcasting: either name, never two.
    Broadcast: named_anon B0, anon_named B0, right name kept;
    // Exact: identical names, absence included.
    Exact: named_anon B1, anon_named B1, right name dropped;
    // Into the left: two different names conflict; the left's name (or none) stays.
    IntoLhs: named_anon B0, anon_named B0, right name dropped;
    // Into a destination (assign): as `IntoLhs`, and a right name facing an unnamed left
    // axis conflicts, since the output is the left's shape and the name would be lost (rule
    // book §10).
    Destination: named_anon B0, anon_named B1, right name dropped;
}
