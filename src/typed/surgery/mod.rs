//! Shape surgery at the type level (rule book §18): the twin of
//! [`dynamic::surgery`](crate::dynamic::surgery). Each operation walks the shape's reversed,
//! index-tagged axis list once, replacing the axis a selector picks, and then runs its checks
//! in order (the selector finds its axis; names stay distinct; static sizes fit), so a wrong
//! transformation is a compile error naming the shape, the selector and the fault.
//!
//! Sizes the operation computes (a merged axis, a concatenated axis) may be written by the
//! caller on the result's axis, and are then checked: `MergeAxes<S, (PH, PW), PATCH<S<64>>>`
//! checks 8 × 8 = 64 at compile time. A bare `PATCH` gets the product (or, for `Concat`, the
//! sum) when both sizes are static and the result is at most 2048 (the size table's dense
//! range), else a `?` size (`StaticOr` in `size_bits`).
//!
//! ```
//! use shapecast::{names, shape, MergeAxes, Rename, Select, SplitAxis, S};
//! names!(N, C, K, H, W, PH, H4);
//! type Img = shape![N: 2, C: 3, H: 32, W: 32];
//! static_assertions::assert_type_eq_all!(Rename<Img, C, K>, shape![N: 2, K: 3, H: 32, W: 32]);
//! static_assertions::assert_type_eq_all!(Select<Img, C>, shape![N: 2, H: 32, W: 32]);
//! type Split = SplitAxis<Img, H, (PH<S<8>>, H4<S<4>>)>;
//! static_assertions::assert_type_eq_all!(Split, shape![N: 2, C: 3, PH: 8, H4: 4, W: 32]);
//! static_assertions::assert_type_eq_all!(MergeAxes<Split, (PH, H4), H<S<32>>>, Img);
//! ```

use core::marker::PhantomData;
use core::ops::{Add, Mul};

/// The size 1 (of an inserted axis).
pub(super) type SizeOne = S<1>;

use typenum::{Add1, Const, IsEqual, IsLessOrEqual, Prod, ToUInt, UInt, UTerm, U, U1};

use super::axis::Axis;
use super::bits::{And, Cond, Not, Or, B0, B1};
use super::hex_sum::{HexBits, HexInTable, HexSum};
use super::list::{
    Append, Apply, At, Collect, FilterMap, Found, FromRev, Keep, Map, Missing, Namesake,
    NotShorter, Prepend, RepeatCheck, Repeats, Untag,
};
use super::name::{Anon, NameKind, Named};
use super::outcome::{Check, Good, Judge, Judged, Passed, Refused};
use super::reduce::{CountPicks, Finds, One, OneAxis, Picks, Pos, Selector, Twice, Zero};
use super::selector::PickIn;
use super::shape::Shape;
use super::size::{AxisSize, Dyn, SameOrDyn, SameSize, S, SIZE_TABLE_MAX};
use super::size_hex::SameHex;
use super::sizes::SizeOfDigits;
use crate::typed::refusals::{
    NoMatch, NoSuchAxis, NotAdjacent, RanksDiffer, SizesDiffer, WrongSize,
};

/// No name, where an operation names an axis: `insert_axis::<0, Unnamed>()`,
/// `rename::<H, Unnamed>()`, `merge_axes::<(H, W), Unnamed>()`. (It is [`Dyn`], the unnamed
/// axis of unknown size; an unnamed static axis such as `S<64>` names nothing either and
/// carries its size.)
///
/// ```
/// use shapecast::{names, shape, InsertAxis, Unnamed};
/// names!(H);
/// static_assertions::assert_type_eq_all!(InsertAxis<shape![H: 2], 0, Unnamed>, shape![1, H: 2]);
/// ```
pub type Unnamed = Dyn;

mod checks;
mod concat;
mod insert;
mod merge;
mod rename;
mod select;
mod size_bits;
mod split;
mod walk;

pub use checks::*;
pub use concat::*;
pub use insert::*;
pub use merge::*;
pub use rename::*;
pub use select::*;
pub use size_bits::*;
pub use split::*;
pub use walk::*;
