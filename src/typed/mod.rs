//! The type level: shapes as types, rules as trait impls, refusals as compile errors.
//!
//! **Layer.** Above the run-time rules, whose plans and checks it hands to the tensors:
//! it may use the values, the engine and the run-time rules (`dynamic`), never the tensor
//! layer (`scripts/layers.py`, run by `.ci/run`, checks it). It calls no kernel: of the
//! engine it names only the interface a buffer is filled through (`engine::sink`'s `Runs`).
//!
//! Every rule has a module here and a run-time twin of the same name in
//! [`dynamic`](crate::dynamic); each rule module implements [`rule::Compute`] for its marker.
//!
//! The table pairing each rule's module with its twin and its marker is in
//! [`dynamic`](crate::dynamic)'s docs, one copy for both layers.
//!
//! The shared pieces and their twins:
//!
//! | concern | here | run-time twin |
//! |---|---|---|
//! | markers, `Compute`, `RuleMarker` | [`rule`] | [`dynamic::rule`](crate::values::rule) (`Rule`) |
//! | one pair of axes, its size and name policies | [`pair`], [`size::policy`] | `dynamic::pair` (`combine`, `SizePolicy`, `NamePolicy`) |
//! | broadcasting traits, plan and checks | [`broadcast`] | [`dynamic::plan`](crate::dynamic::plan) (`Broadcasted`) |
//! | shapes, axes, sizes, names | [`shape`], [`axis`], [`size`], [`name`] | [`dynamic::shape`](crate::values::shape) |
//! | axis selectors (names, `Pos<K>`, tuples) | [`selector`] | [`dynamic::selector`](crate::values::selector) |
//! | refusals | [`verdict`] (compile errors) | [`Error`](crate::Error) |
//! | the shape notation (rule book §0) | `shape!` in the `shapecast-macros` crate | `dynamic::parse` (`DynShape`'s `FromStr`) |
//!
//! Type-level only: [`list`] (the reversed, index-tagged axis lists the rules walk),
//! [`outcome`] (checks, then the output or a refusal: one vocabulary for every walk), [`bits`]
//! (booleans), [`storage`] (where a tensor's elements live) over `buffer` (the buffers, and the
//! element counts that pick one), `generated` (the tuples' impls, the size table, digits;
//! written by `scripts/generate.py`), `sealed`.
//!
//! ```
//! use shapecast::{names, shape, Broadcast};
//! names!(CHANNEL, H, W);
//! static_assertions::assert_type_eq_all!(
//!     Broadcast<shape![?, CHANNEL: 3, H, W], shape![?, H, W]>,
//!     shape![?, CHANNEL: 3, H, W]
//! );
//! ```

pub mod assign;
pub mod attention;
pub mod axis;
pub mod bidirectional;
pub mod bits;
pub mod broadcast;
mod buffer;
pub(crate) mod capability;
pub mod compare;
pub mod contract;
pub mod conv;
pub mod embed;
pub mod gather;
/// Generated code (`scripts/generate.py`, `.ci/run` checks it is current): the tuples' `Shape`
/// impls, the size table, name and size digits, inline counts.
#[doc(hidden)]
pub mod generated;
#[doc(hidden)]
pub use generated::{any, counts, digits, hex_sum, hex_window, search, size_hex, sizes, walks};
pub mod list;
pub mod name;
pub mod named;
pub mod narrow;
pub mod norm;
pub mod numpy;
pub mod outcome;
pub mod outer;
pub mod pad;
pub mod pair;
pub mod pdpd;
pub mod pool;
pub mod reduce;
pub mod refusals;
pub mod rope;
pub mod rule;
#[doc(hidden)]
pub mod selector;
pub mod shape;
pub mod size;
pub mod statik;
pub mod storage;
pub mod strict;
pub mod surgery;
pub mod upsample;
pub mod verdict;
pub mod window;
