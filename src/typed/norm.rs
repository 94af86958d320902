//! Norms' shapes (rule book §16, norms): the twin of `dynamic::norm`. A norm keeps its
//! input's shape; what the type level checks is that the selected axes are the input's and
//! that the weight (and bias) broadcast into the input by the assignment rule.
//!
//! ```
//! use shapecast::{names, shape, NormOver};
//! names!(SEQ, DIM);
//! fn normalisable<S: NormOver<DIM, W>, W>() {}
//! normalisable::<shape![SEQ, DIM: 8], shape![DIM: 8]>();
//! ```

use crate::typed::broadcast::BroadcastsUnder;
use crate::typed::reduce::ReduceOver;
use crate::typed::rule::Assign;
use crate::typed::shape::Shape;

/// `Self` is normalised over the axes `A` with a weight (or bias) of shape `W`: `A` selects
/// axes of `Self` (as a reduction's selector) and `W` broadcasts into `Self` by the
/// assignment rule. The bound to write in generic code for `layer_norm` and `rms_norm`.
#[diagnostic::on_unimplemented(
    message = "cannot normalise `{Self}` over `{A}` with a weight or bias `{W}`",
    label = "`{A}` must select axes of `{Self}`, and `{W}` broadcast into it",
    note = "a weight's axes are axes of the input (by name), each of the input's size or 1"
)]
pub trait NormOver<A, W>: Shape {}

#[diagnostic::do_not_recommend]
impl<S: ReduceOver<A> + BroadcastsUnder<Assign, W>, A, W: Shape> NormOver<A, W> for S {}
