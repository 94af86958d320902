//! [`Trainable`]: the element types gradients are computed in.

use crate::engine::raw::DotElement;
use crate::engine::vmath::Transcendental;
use crate::tensor::Scalar;
use crate::values::sealed::Sealed;
use num_traits::Float;

/// The element types gradients are computed in: `f32` and `f64`.
pub trait Trainable:
    Float
    + Transcendental<Wide = Self>
    + DotElement
    + Scalar
    + core::fmt::Debug
    + Default
    + Send
    + Sync
    + 'static
    + Sealed
{
}
impl Trainable for f32 {}
impl Trainable for f64 {}
