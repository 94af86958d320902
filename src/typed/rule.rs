//! The rules at the type level: one marker type a rule (the twins of the run-time
//! [`Rule`] values) and [`RuleMarker`] linking each marker to its value. Each rule's
//! computation lives in the type-level module of the rule's name (`typed::numpy` for
//! [`Numpy`], `typed::named` for [`Named`], `typed::statik` for [`Static`], and so on).
//!
//! ```
//! use shapecast::{rule::Outer, names, shape, BroadcastBy};
//! names!(H, W);
//! static_assertions::assert_type_eq_all!(BroadcastBy<Outer, shape![H: 2], shape![W: 3]>, shape![H: 2, W: 3]);
//! ```

/// Theano's `row` and `col` patterns (`[1, ?]` and `[?, 1]`), the shapes the [`Static`] rule
/// is usually met with.
pub use super::statik::{Col, Row};

use crate::values::rule::Rule;
use typenum::{Const, ToUInt, Unsigned};

use super::list::Collect;
use super::outcome::Unwrap;
use crate::values::sealed::Sealed;

/// rule book §1: right-align, prepend 1s, pair position by position.
///
/// ```
/// use shapecast::{rule::Numpy, shape, BroadcastBy};
/// static_assertions::assert_type_eq_all!(BroadcastBy<Numpy, shape![3], shape![2, 1]>, shape![2, 3]);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Numpy;

/// rule book §2: pair namesakes, then the rest as NumPy, in the larger operand's frame.
///
/// ```
/// use shapecast::{names, rule::Named, shape, BroadcastBy};
/// names!(W);
/// static_assertions::assert_type_eq_all!(BroadcastBy<Named, shape![3, 4], shape![W: 4]>, shape![3, W: 4]);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Named;

/// rule book §4: the shorter shape matched to the rightmost order-preserving subsequence.
///
/// ```
/// use shapecast::{rule::Embed, shape, BroadcastBy};
/// static_assertions::assert_type_eq_all!(BroadcastBy<Embed, shape![2, 3, 4], shape![2, 4]>, shape![2, 3, 4]);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Embed;

/// rule book §3: every axis of both sides; names pair by name, unnamed axes by NumPy.
///
/// ```
/// use shapecast::{names, rule::Outer, shape, BroadcastBy};
/// names!(H, W);
/// static_assertions::assert_type_eq_all!(BroadcastBy<Outer, shape![H: 2], shape![W: 3]>, shape![H: 2, W: 3]);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Outer;

/// rule book §5: identical shapes only (OpenVINO `NONE`).
///
/// ```
/// use shapecast::{rule::Strict, shape, BroadcastBy};
/// static_assertions::assert_type_eq_all!(BroadcastBy<Strict, shape![2, 3], shape![2, 3]>, shape![2, 3]);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Strict;

/// rule book §6: one operand is a scalar, or both shapes are identical (comparisons, logic).
///
/// ```
/// use shapecast::{rule::Compare, shape, BroadcastBy};
/// static_assertions::assert_type_eq_all!(BroadcastBy<Compare, shape![], shape![3, 3]>, shape![3, 3]);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Compare;

/// rule book §7 (Theano): paired as the named rule, but only statically-1 axes stretch; a `?`
/// must equal its partner at run time.
///
/// ```
/// use shapecast::{rule::Static, shape, BroadcastBy, BroadcastsUnder};
/// static_assertions::assert_type_eq_all!(BroadcastBy<Static, shape![1, ?], shape![?, ?]>, shape![?, ?]);
/// let checks = <shape![1, ?] as BroadcastsUnder<Static, shape![?, ?]>>::checks();
/// assert_eq!(checks[0].condition, shapecast::Condition::Equal);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Static;

/// rule book §9 (OpenVINO BIDIRECTIONAL, ONNX Expand): the input broadcast with the target.
///
/// ```
/// use shapecast::{rule::Bidirectional, shape, BroadcastBy};
/// static_assertions::assert_type_eq_all!(BroadcastBy<Bidirectional, shape![3, 1], shape![2, 1, 6]>, shape![2, 3, 6]);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Bidirectional;

/// rule book §10: the right operand into the left (the destination), whose shape never changes.
///
/// ```
/// use shapecast::{rule::Assign, shape, BroadcastBy};
/// static_assertions::assert_type_eq_all!(BroadcastBy<Assign, shape![3, 3], shape![3]>, shape![3, 3]);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Assign;

/// rule book §8: the right operand onto the left from axis `A`: [`AutoAxis`] (the default,
/// axis -1), a typenum unsigned (`typenum::U1`) or [`Start<K>`].
///
/// ```
/// use shapecast::{rule::{Pdpd, Start}, shape, BroadcastBy};
/// static_assertions::assert_type_eq_all!(BroadcastBy<Pdpd<Start<0>>, shape![2, 3, 4, 5], shape![1, 3]>, shape![2, 3, 4, 5]);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Pdpd<A = AutoAxis>(core::marker::PhantomData<A>);

/// The PDPD rule's default start axis (-1): the right operand aligned to the end.
///
/// ```
/// use shapecast::{rule::{AutoAxis, Pdpd}, shape, BroadcastBy};
/// static_assertions::assert_type_eq_all!(BroadcastBy<Pdpd<AutoAxis>, shape![2, 3], shape![3]>, shape![2, 3]);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct AutoAxis;

/// A PDPD start axis written as a number: `Pdpd<Start<1>>` (prints as written in errors).
///
/// ```
/// use shapecast::{rule::{Pdpd, Start}, shape, Accepts};
/// assert!(<shape![2, 3, 4, 5] as Accepts<Pdpd<Start<1>>, shape![3, 4]>>::VALUE);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Start<const K: usize>;

/// The run-time twin of a rule marker.
///
/// ```
/// use shapecast::{rule, RuleMarker, Rule};
/// assert_eq!(<rule::Static as RuleMarker>::RULE, Rule::Static);
/// ```
pub trait RuleMarker: Sealed {
    /// The run-time rule.
    const RULE: Rule;
}
/// Each marker with its run-time value (and the seal).
macro_rules! markers {
    ($($marker:ident => $rule:ident),* $(,)?) => {$(
        impl Sealed for $marker {}
        impl RuleMarker for $marker {
            const RULE: Rule = Rule::$rule;
        }
    )*};
}
markers!(
    Numpy => Numpy,
    Named => Named,
    Outer => Outer,
    Embed => Embed,
    Strict => Strict,
    Compare => Compare,
    Static => Static,
    Bidirectional => Bidirectional,
    Assign => Assign,
);

impl<K> Sealed for Pdpd<K> {}
impl<K: PdpdAxis> RuleMarker for Pdpd<K> {
    const RULE: Rule = Rule::Pdpd { axis: K::AXIS };
}

/// How a rule pairs two shapes: the output elements (last first), and the outcome: the
/// output axes or the error.
#[doc(hidden)]
pub trait Compute<A: ?Sized, B> {
    type Elems;
    type Outcome;
}

/// The outcome of a list of output elements: the output axes or the first error.
pub(crate) type Finish<E> = <<E as Collect>::Out as Unwrap>::Out;

/// The start axis of the PDPD rule as a type.
pub trait PdpdAxis {
    /// The axis as the run-time rule takes it (-1 for [`AutoAxis`]).
    const AXIS: isize;
    #[doc(hidden)]
    type Skip;
}
impl PdpdAxis for AutoAxis {
    const AXIS: isize = -1;
    type Skip = AutoAxis;
}
impl<U: Unsigned> PdpdAxis for U {
    const AXIS: isize = U::ISIZE;
    type Skip = U;
}
impl<const K: usize> PdpdAxis for Start<K>
where
    Const<K>: ToUInt,
    typenum::U<K>: Unsigned,
{
    const AXIS: isize = K as isize;
    type Skip = typenum::U<K>;
}
