//! The type level: shapes as types, rules as trait impls, refusals as compile errors.
//!
//! Each module is the twin of the run-time module of the same name in
//! [`dynamic`](crate::dynamic): `numpy`, `named`, and `pair` (the twin of `combine`).
//! Sizes are `S<N>` or `Dyn` (`?`); names are types declared by [`names!`](crate::names);
//! shapes are tuples written by [`shape!`](crate::shape).
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
pub mod axis;
pub mod bidirectional;
pub mod bits;
pub mod broadcast;
pub mod compare;
#[doc(hidden)]
pub mod digits;
pub mod embed;
pub mod list;
pub mod name;
pub mod named;
pub mod narrow;
pub mod numpy;
pub mod outer;
pub mod pair;
pub mod pdpd;
pub mod rule;
#[doc(hidden)]
pub mod sealed;
pub mod shape;
pub mod size;
pub mod statik;
pub mod storage;
pub mod strict;
mod tuples;
pub mod verdict;
