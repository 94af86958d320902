//! The run-time engine: every rule of rule book §1–§11 on shapes whose sizes, names and rank are
//! known only while the program runs. It computes symbolically on `?` sizes, as the compiler
//! does, and lists the checks that remain. It is the oracle the type level is tested against.
//!
//! **Layer.** The rules and operations on shapes at run time, above the values they compute on
//! (shapes, names, sizes, selectors, rules as values, errors), which live in a layer of their
//! own and are re-exported here as [`shape`], [`selector`] and [`rule`]
//! (`scripts/layers.py`, run by `.ci/run`, checks that this layer uses only the values).
//!
//! One module a rule, each with a `broadcast` function; [`broadcast`] picks one by [`Rule`].
//! Each has a type-level twin of the same name in `shapecast::typed` (where the static rule's
//! module is `statik` too, `static` being a keyword):
//!
//! | rule book | rule | here | type-level twin (marker) |
//! |---|---|---|---|
//! | §1 | numpy | [`numpy`] | `typed::numpy` ([`rule::Numpy`](crate::rule::Numpy)) |
//! | §2 | named | [`named`] | `typed::named` ([`rule::Named`](crate::rule::Named)) |
//! | §3 | outer | [`outer`] | `typed::outer` ([`rule::Outer`](crate::rule::Outer)) |
//! | §4 | embed | [`embed`] | `typed::embed` ([`rule::Embed`](crate::rule::Embed)) |
//! | §5 | strict | [`strict`] | `typed::strict` ([`rule::Strict`](crate::rule::Strict)) |
//! | §6 | compare | [`compare`] | `typed::compare` ([`rule::Compare`](crate::rule::Compare)) |
//! | §7 | static | [`statik`] | `typed::statik` ([`rule::Static`](crate::rule::Static)) |
//! | §8 | pdpd | [`pdpd`] | `typed::pdpd` ([`rule::Pdpd`](crate::rule::Pdpd)) |
//! | §9 | bidirectional | [`bidirectional`] | `typed::bidirectional` ([`rule::Bidirectional`](crate::rule::Bidirectional)) |
//! | §10 | assign | [`assign`] | `typed::assign` ([`rule::Assign`](crate::rule::Assign)) |
//! | §11 | narrow | [`narrow`] | `typed::narrow` ([`Narrow`](crate::Narrow)) |
//! | §16 | reductions | [`reduce`](mod@reduce) | `typed::reduce` ([`Reduce`](crate::Reduce), [`ReduceOver`](crate::ReduceOver)) |
//! | §17 | contractions | [`contract`](mod@contract) | `typed::contract` ([`Contract`](crate::Contract), [`MatMul`](crate::MatMul)) |
//! | §16 | norms | [`norm`](mod@norm) | `typed::norm` ([`NormOver`](crate::NormOver)) |
//! | §16 | rotary embeddings | [`rope`](mod@rope) | `typed::rope` ([`RotateOver`](crate::RotateOver)) |
//! | §17 | attention | [`attention`](mod@attention) | `typed::attention` ([`Attend`](crate::Attend), [`AttendWith`](crate::AttendWith)) |
//! | §18 | shape surgery | [`surgery`] | `typed::surgery` ([`Rename`](crate::Rename), [`SplitAxis`](crate::SplitAxis), …) |
//! | §20 | convolution | [`conv`](mod@conv) | `typed::conv` ([`Conv`](crate::Conv), [`ConvBy`](crate::ConvBy)) |
//! | §21 | gather: take, one-hot, losses | [`gather`](mod@gather) | `typed::gather` ([`Take`](crate::Take), [`OneHot`](crate::OneHot)) |
//! | §22 | padding | [`pad`](mod@pad) | `typed::pad` ([`Pad`](crate::Pad), [`PadOver`](crate::PadOver)) |
//! | §20 | pooling | [`pool`](mod@pool) | `typed::pool` ([`Pool`](crate::Pool), [`PoolOver`](crate::PoolOver)) |
//! | §23 | interpolation | [`upsample`](mod@upsample) | `typed::upsample` ([`Scale`](crate::Scale), [`UpsampleOver`](crate::UpsampleOver)) |
//!
//! The shared pieces and their twins:
//!
//! | concern | here | type-level twin |
//! |---|---|---|
//! | the `Rule` values | [`rule`] | `typed::rule` (the markers, `RuleMarker`) |
//! | one pair of axes, its size and name policies, and `combine` (the one place a pair is judged) | `pair` (crate-private) | `typed::pair`, `typed::size::policy` |
//! | plans and run-time checks | [`plan`] | `typed::broadcast` |
//! | shapes, axes, sizes, names | [`shape`] | `typed::shape`, `axis`, `size`, `name` |
//! | axis selectors (a name or a position) | [`selector`] | `typed::selector` |
//! | the shape notation (rule book §0) | the values' `parse` (`DynShape`'s `FromStr`) | `shape!` in the `shapecast-macros` crate |
//!
//! ```
//! use shapecast::{broadcast, DynShape, Rule};
//!
//! let img: DynShape = "[10, CHANNEL: 3, H: 256, W: 384]".parse()?;
//! let lbl: DynShape = "[10, H: 256, W: 384]".parse()?;
//! let b = broadcast(Rule::Named, &img, &lbl)?;
//! assert_eq!(b.shape, img);
//! assert_eq!(b.plan.to_string(), "0,1,2,3 ; 0,-,1,2");
//! # Ok::<(), shapecast::Error>(())
//! ```

pub mod assign;
pub mod attention;
pub mod bidirectional;
pub mod compare;
pub mod contract;
pub mod conv;
pub mod embed;
pub mod gather;
pub mod named;
pub mod narrow;
pub mod norm;
pub mod numpy;
pub mod outer;
pub mod pad;
pub(crate) mod pair;
pub mod pdpd;
pub mod plan;
pub mod pool;
pub mod reduce;
pub mod rope;
pub mod statik;
pub mod strict;
pub mod surgery;
pub mod upsample;

// The values the rules compute on, at the paths they have always had.
pub use crate::values::{rule, selector, shape};

use crate::values::error::Error;
pub use contract::{contract, matmul};
use plan::Broadcasted;
pub use reduce::reduce;
use rule::Rule;
use shape::DynShape;

/// Applies `rule` to `lhs` and `rhs`: the output shape, the plan and the run-time checks, or
/// the refusal.
///
/// For [`Rule::Assign`] `lhs` is the destination; for [`Rule::Bidirectional`] `rhs` is the
/// target; for [`Rule::Pdpd`] `rhs` goes onto `lhs`.
///
/// ```
/// use shapecast::{broadcast, Rule};
/// let b = broadcast(Rule::Pdpd { axis: 1 }, &"[2, 3, 4, 5]".parse()?, &"[3, 1]".parse()?)?;
/// assert_eq!(b.shape.to_string(), "[2, 3, 4, 5]");
/// assert!(broadcast(Rule::Strict, &"[2, 3]".parse()?, &"[1, 3]".parse()?).is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn broadcast(rule: Rule, lhs: &DynShape, rhs: &DynShape) -> Result<Broadcasted, Error> {
    match rule {
        Rule::Numpy => numpy::broadcast(lhs, rhs),
        Rule::Named => named::broadcast(lhs, rhs),
        Rule::Outer => outer::broadcast(lhs, rhs),
        Rule::Embed => embed::broadcast(lhs, rhs),
        Rule::Strict => strict::broadcast(lhs, rhs),
        Rule::Compare => compare::broadcast(lhs, rhs),
        Rule::Static => statik::broadcast(lhs, rhs),
        Rule::Pdpd { axis } => pdpd::broadcast(lhs, rhs, axis),
        Rule::Bidirectional => bidirectional::broadcast(lhs, rhs),
        Rule::Assign => assign::broadcast(lhs, rhs),
    }
}

impl DynShape {
    /// Broadcasts with `rhs` by the default, named rule.
    ///
    /// ```
    /// use shapecast::DynShape;
    /// let a: DynShape = "[3, 4]".parse()?;
    /// assert_eq!(a.broadcast_with(&"[W: 4]".parse()?)?.shape.to_string(), "[3, W: 4]");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn broadcast_with(&self, rhs: &DynShape) -> Result<Broadcasted, Error> {
        named::broadcast(self, rhs)
    }

    /// Narrowcasting (rule book §11): this shape without its statically-1 axes.
    ///
    /// ```
    /// use shapecast::DynShape;
    /// let s: DynShape = "[1, 5, 1]".parse()?;
    /// assert_eq!(s.narrow().shape.to_string(), "[5]");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn narrow(&self) -> narrow::Narrowed {
        narrow::narrow(self)
    }
}
