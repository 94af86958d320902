//! The values every layer computes with: shapes, axes, names and sizes ([`shape`]), the shape
//! notation's parser, axis selectors, the rules as values, the errors, and the seal on the
//! traits users must not implement. Nothing here knows a rule's workings, a kernel or a tensor.
//!
//! **Layer.** The bottom one: it uses nothing else of the crate (`scripts/layers.py`, run by
//! `.ci/run`, checks it). The public modules are re-exported at the paths users know:
//! `shapecast::dynamic::{shape, selector, rule}` and the crate root's `Error`, `DynShape`, ….
//!
//! | file | what it holds |
//! |---|---|
//! | `shape` | [`DynShape`](crate::DynShape), [`DynAxis`](crate::DynAxis), [`Name`](crate::Name), [`Size`](crate::Size), the rank limits, element counts |
//! | `name` | [`Name`](crate::Name): an axis name, an identifier compared as a string |
//! | `parse` | the shape notation (rule book §0): `DynShape`'s `FromStr` |
//! | `selector` | [`AxisSelector`](crate::AxisSelector): an axis by name or position, and what a list of them picks |
//! | `rule` | [`Rule`](crate::Rule): the broadcasting rules as values, parsed from their names |
//! | `error` | [`Error`](crate::Error), the refusals it carries ([`Refusal`](crate::Refusal), [`Reason`](crate::Reason), in `error/refusal`) and the parse errors' kinds ([`ParseErrorKind`](crate::ParseErrorKind), in `error/parse`) |
//! | `sealed` | the seal on the traits users must not implement |

pub(crate) mod error;
pub(crate) mod name;
mod parse;
pub mod rule;
pub(crate) mod sealed;
pub mod selector;
pub mod shape;
