//! Rotary embeddings' shapes (rule book §16, norms and rotations): the twin of
//! `dynamic::rope`. A rotation keeps its input's shape; the type level checks that the
//! position axis and the feature axis are the input's.
//!
//! ```
//! use shapecast::{names, shape, RotateOver};
//! names!(SEQ, HEADS, HD);
//! fn rotatable<S: RotateOver<SEQ, HD>>() {}
//! rotatable::<shape![SEQ, HEADS: 4, HD: 64]>();
//! ```

use crate::typed::shape::Shape;
use crate::typed::surgery::HasAxis;

/// `Self` has a position axis `P` and a feature axis `F` to rotate: the bound to write in
/// generic code for `rope`.
#[diagnostic::on_unimplemented(
    message = "cannot rotate `{Self}` along `{P}` by the pairs of `{F}`",
    label = "`{P}` and `{F}` must be axes of `{Self}`",
    note = "`{P}` holds the positions, `{F}` the features whose pairs are turned"
)]
pub trait RotateOver<P, F>: Shape {}

#[diagnostic::do_not_recommend]
impl<S: HasAxis<P> + HasAxis<F>, P, F> RotateOver<P, F> for S {}
