//! The seal on the traits users must not implement ([`Shape`](crate::Shape),
//! [`Axis`](crate::Axis), [`AxisSize`](crate::AxisSize), [`Buffer`](crate::Buffer),
//! [`RuleMarker`](crate::RuleMarker)): each has `Sealed` as a supertrait, and `Sealed` is
//! implemented only by this crate and by the name types [`names!`](crate::names) declares.
//! A shape is whatever [`shape!`](crate::shape) writes; the rules rely on it.

/// Implemented by the crate's shape, size, buffer and rule types, and by `names!`.
pub trait Sealed {}
